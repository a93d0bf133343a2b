/* gst-cuda-video: Vector Coherence Mapping on the CPU (the contract is
 * cpu/vcm.h).
 *
 * Phases and memory:
 *
 *  - points: every window (ws x ws, raster order) is scanned by one thread
 *    in raster order, keeping its best points_per_window eligible pixels in
 *    a small sorted list (st descending; a later pixel of equal st goes
 *    after, which is the contract's raster tie order).  With the corner
 *    measure the thread first sums a tile of Sobel products (the window's
 *    eligible part grown by the template's half-width) down its columns;
 *    a pixel whose change D passes the threshold then sums t of those
 *    along its row for E.  The lists live in
 *    fixed slots, cand[win * ppw + rank], count[win].  The frame cap then
 *    walks them in candidate order: a 256-bin histogram of the candidates'
 *    st gives the cutoff c, the walk keeps st > c and the first quota of
 *    st == c.
 *
 *  - NCM: C is copied as int16 (packed, W a row) and summed into two
 *    integral images of C and C^2 (uint32, (W + 1) x (H + 1)): a window's
 *    Sw and Sww are four lookups each.  The sums wrap modulo 2^32 but a
 *    13 x 13 box of 255^2 is far below 2^32, so the differences are exact.
 *    Stw is direct: for one dy and one template row v, each template sample
 *    is multiplied with a run of C covering every valid dx (int32 lanes, the
 *    compiler vectorises the run).  The valid displacements of a point form
 *    a rectangle (the window inside C), so nothing outside it is read; the
 *    rest of the map holds 0, not GCV_VCM_NCM_INVALID: as a neighbour's
 *    term it then adds nothing, as the contract wants, and a point's own
 *    valid displacements are known from its position.  The ncm itself is
 *    computed in doubles: every integer in it is below 2^53, so exact, and
 *    the rounded steps are the contract's.  Maps: int16, M x M a point,
 *    in the point list's order.
 *
 *  - VCM: the points are bucketed into a grid of 16 x 16 pixel cells
 *    (counting sort); a point's neighbours are looked up in the cells
 *    within sqrt (rc2).  V (int64, M x M scratch per thread) is summed over
 *    the own map's valid rectangle only; the previous call's points (the
 *    history) are bucketed the same way for the temporal term.  The
 *    neighbours' terms go two at a time through _mm_madd_epi16 (weights
 *    and ncm fit int16) into int32 partial sums, moved into V every 254
 *    neighbours (254 * 256 * 32767 < 2^31).
 *
 * Every per-point phase runs on OpenMP threads (dynamic: border points
 * have smaller maps), as many as the phase's work is worth
 * (gcv-parallel.h); the results do not depend on the thread count.  A stop
 * request is looked at before every row of windows and every point (a few
 * milliseconds apart at the largest settings).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vcm.h"
#include "gcv-parallel.h"

#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>

#define VCM_MAX_DIMENSION 32767
/* One core's time per unit of each phase, what the phases' teams are
 * sized by (1080p with the defaults: 160 ms a frame, split over the phases
 * by their counts): a pixel of the point selection, a template sample of
 * one displacement of the NCM, a map entry of one term (own, neighbour or
 * history) of the VCM. */
#define NS_PER_PIXEL_POINTS 4.0
#define NS_PER_NCM_SAMPLE 0.6
#define NS_PER_VCM_TERM 1.0
#define CELL 16                 /* bucket cell side, pixels */

typedef struct {
  int n;                        /* points */
  int cols, rows;               /* cells */
  int *start;                   /* cols * rows + 1 */
  int *index;                   /* n point indices, by cell */
  int cap_cells, cap_n;
} Buckets;

struct _GcvVcmCpu {
  int width, height;
  uint8_t *ref;                 /* P, packed */
  int16_t *cur;                 /* C, packed */
  uint32_t *sum1, *sum2;        /* integral images of C and C^2, (W + 1) x (H + 1) */
  int has_reference;
  const GcvCancel *cancel;

  /* candidates: per-window slots */
  int32_t *cand_pos;            /* y * W + x */
  uint8_t *cand_st;
  int *cand_count;
  size_t cap_cand, cap_cand_st, cap_win;

  /* the point list */
  int n_points;
  int *px, *py;
  size_t cap_points, cap_py;

  int16_t *ncm;                 /* n_points maps of M * M */
  size_t cap_ncm;               /* entries */

  int64_t *scratch;             /* per thread: M * M, V */
  int32_t *scratch32;           /* per thread: M * M, V's partial sums */
  size_t cap_scratch, cap_scratch32;    /* entries */

  GcvVcmTables tables;

  /* history: the last call's points and integer vectors */
  int n_hist;
  int *hx, *hy, *hex, *hey;

  Buckets pts, hist;
};

GcvVcmCpu *
gcv_vcm_cpu_new (int width, int height, GcvError * err)
{
  GcvVcmCpu *ctx;
  size_t px;

  if (width < 1 || height < 1 || width > VCM_MAX_DIMENSION || height > VCM_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: frame size %dx%d must be 1x1 .. %dx%d", width, height,
        VCM_MAX_DIMENSION, VCM_MAX_DIMENSION);
    return NULL;
  }
  ctx = (GcvVcmCpu *) calloc (1, sizeof (*ctx));
  if (!ctx)
    goto no_memory;
  ctx->width = width;
  ctx->height = height;
  px = (size_t) width * height;
  ctx->ref = (uint8_t *) calloc (px, 1);
  /* slack: the 8-wide loads of a row's last run reach up to 16 samples past it */
  ctx->cur = (int16_t *) calloc (px + 32, sizeof (int16_t));
  ctx->sum1 = (uint32_t *) calloc ((size_t) (width + 1) * (height + 1), sizeof (uint32_t));
  ctx->sum2 = (uint32_t *) calloc ((size_t) (width + 1) * (height + 1), sizeof (uint32_t));
  if (!ctx->ref || !ctx->cur || !ctx->sum1 || !ctx->sum2) {
    gcv_vcm_cpu_free (ctx);
    goto no_memory;
  }
  return ctx;

no_memory:
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for %dx%d frames", width, height);
  return NULL;
}

static void
buckets_clear (Buckets * b)
{
  free (b->start);
  free (b->index);
}

void
gcv_vcm_cpu_free (GcvVcmCpu * ctx)
{
  if (!ctx)
    return;
  free (ctx->ref);
  free (ctx->cur);
  free (ctx->sum1);
  free (ctx->sum2);
  free (ctx->cand_pos);
  free (ctx->cand_st);
  free (ctx->cand_count);
  free (ctx->px);
  free (ctx->py);
  free (ctx->ncm);
  free (ctx->scratch);
  free (ctx->scratch32);
  free (ctx->hx);
  free (ctx->hy);
  free (ctx->hex);
  free (ctx->hey);
  buckets_clear (&ctx->pts);
  buckets_clear (&ctx->hist);
  free (ctx);
}

static int
plane_ok (const GcvVcmCpu * ctx, const GcvPlane * p, GcvError * err)
{
  if (!p || !p->data || p->width != ctx->width || p->height != ctx->height || p->stride < (size_t) p->width) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: the frame must be a %dx%d GRAY8 plane", ctx->width,
        ctx->height);
    return 0;
  }
  return 1;
}

GcvStatus
gcv_vcm_cpu_set_reference (GcvVcmCpu * ctx, const GcvPlane * luma, GcvError * err)
{
  int y;

  if (!ctx) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: no context");
    return GCV_ERROR_INVALID;
  }
  if (!plane_ok (ctx, luma, err))
    return GCV_ERROR_INVALID;
  for (y = 0; y < ctx->height; y++)
    memcpy (ctx->ref + (size_t) y * ctx->width, (const uint8_t *) luma->data + (size_t) y * luma->stride,
        (size_t) ctx->width);
  ctx->has_reference = 1;
  ctx->n_hist = 0;
  return GCV_OK;
}

/* Counting sort of n points (xs, ys) into CELL x CELL cells. */
static int
buckets_build (Buckets * b, int width, int height, const int *xs, const int *ys, int n)
{
  int cells, i;
  size_t cap;

  b->cols = (width + CELL - 1) / CELL;
  b->rows = (height + CELL - 1) / CELL;
  b->n = n;
  cells = b->cols * b->rows;
  cap = (size_t) b->cap_cells;
  if (!gcv_ensure_capacity ((void **) &b->start, &cap, (size_t) cells + 2, sizeof (int)))
    return 0;
  b->cap_cells = (int) cap;
  cap = (size_t) b->cap_n;
  if (!gcv_ensure_capacity ((void **) &b->index, &cap, (size_t) n, sizeof (int)))
    return 0;
  b->cap_n = (int) cap;
  memset (b->start, 0, sizeof (int) * ((size_t) cells + 2));
  for (i = 0; i < n; i++)
    b->start[(ys[i] / CELL) * b->cols + xs[i] / CELL + 2]++;
  for (i = 2; i < cells + 2; i++)
    b->start[i] += b->start[i - 1];
  /* start[c + 1] is now the first slot of cell c: fill, advancing it */
  for (i = 0; i < n; i++)
    b->index[b->start[(ys[i] / CELL) * b->cols + xs[i] / CELL + 1]++] = i;
  /* start[c] .. start[c + 1] is cell c */
  return 1;
}

/* The largest r with r^2 <= rc2. */
static int
isqrt_floor (int rc2)
{
  int r = 0;

  while ((r + 1) * (r + 1) <= rc2)
    r++;
  return r;
}

/* ---- points ---------------------------------------------------------- */

#define TILE (GCV_VCM_MAX_WINDOW + GCV_VCM_MAX_TEMPLATE - 1)

/* The corner measure's column sums for the part [x0, x1] x [y0, y1] of a
 * window, inside the margin: the Sobel products of the part grown by tr on
 * each side (exact in int32: 1020^2 a product), summed down each column of
 * that tile over the t rows of a template (at most 13 1020^2 < 2^31). */
typedef struct {
  int32_t xx[GCV_VCM_MAX_WINDOW * TILE], xy[GCV_VCM_MAX_WINDOW * TILE], yy[GCV_VCM_MAX_WINDOW * TILE];
} CornerColumns;

static void
corner_columns (const uint8_t * P, int W, int t, int x0, int y0, int x1, int y1, CornerColumns * c)
{
  int32_t pxx[TILE * TILE], pxy[TILE * TILE], pyy[TILE * TILE];
  int tr = t / 2, h = y1 - y0 + 1, tw = x1 - x0 + 1 + 2 * tr, th = h + 2 * tr, i, j, k;

  for (j = 0; j < th; j++)
    for (i = 0; i < tw; i++) {
      int gx, gy;
      gcv_vcm_sobel (P, (size_t) W, x0 - tr + i, y0 - tr + j, &gx, &gy);
      pxx[j * TILE + i] = gx * gx;
      pxy[j * TILE + i] = gx * gy;
      pyy[j * TILE + i] = gy * gy;
    }
  for (j = 0; j < h; j++)
    for (i = 0; i < tw; i++) {
      int32_t a = 0, b = 0, d = 0;
      for (k = 0; k < t; k++) {
        a += pxx[(j + k) * TILE + i];
        b += pxy[(j + k) * TILE + i];
        d += pyy[(j + k) * TILE + i];
      }
      c->xx[j * TILE + i] = a;
      c->xy[j * TILE + i] = b;
      c->yy[j * TILE + i] = d;
    }
}

/* E (gcv_vcm_corner ()) of the pixel (x0 + i, y0 + j) from the column
 * sums: t of them along the row (at most 13^2 1020^2 < 2^31). */
static int
corner_at (const CornerColumns * c, int t, int i, int j)
{
  const int32_t *a = c->xx + j * TILE + i, *b = c->xy + j * TILE + i, *d = c->yy + j * TILE + i;
  int32_t sxx = 0, sxy = 0, syy = 0;
  int k;

  for (k = 0; k < t; k++) {
    sxx += a[k];
    sxy += b[k];
    syy += d[k];
  }
  return gcv_vcm_corner_of (sxx, sxy, syy, t * t);
}

static void
select_window (const GcvVcmCpu * ctx, const GcvVcmParams * p, int wx, int wy, int32_t * pos, uint8_t * sts,
    int *count)
{
  int W = ctx->width, H = ctx->height, m = gcv_vcm_margin (p), ws = p->window_size;
  int ppw = p->points_per_window, n = 0, x, y;
  int x0 = wx * ws, y0 = wy * ws, x1 = x0 + ws - 1, y1 = y0 + ws - 1;
  const uint8_t *P = ctx->ref;
  const int corner = p->interest == GCV_VCM_INTEREST_CORNER;
  CornerColumns cc;

  /* the eligible part of the window: inside the margin */
  if (x0 < m)
    x0 = m;
  if (y0 < m)
    y0 = m;
  if (x1 > W - 1 - m)
    x1 = W - 1 - m;
  if (y1 > H - 1 - m)
    y1 = H - 1 - m;
  if (x0 > x1 || y0 > y1) {
    *count = 0;
    return;
  }
  if (corner)
    corner_columns (P, W, p->template_size, x0, y0, x1, y1, &cc);
  for (y = y0; y <= y1; y++) {
    const uint8_t *a = P + (size_t) (y - 1) * W, *b = a + W, *c = b + W;
    const int16_t *cr = ctx->cur + (size_t) y * W;
    for (x = x0; x <= x1; x++) {
      int g, d = abs ((int) cr[x] - (int) b[x]), st, k;

      if (corner) {
        /* st <= D: E matters only where D passes the threshold */
        if (d <= p->st_threshold)
          continue;
        g = corner_at (&cc, p->template_size, x - x0, y - y0);
      } else {
        int gx = (a[x + 1] + 2 * b[x + 1] + c[x + 1]) - (a[x - 1] + 2 * b[x - 1] + c[x - 1]);
        int gy = (c[x - 1] + 2 * c[x] + c[x + 1]) - (a[x - 1] + 2 * a[x] + a[x + 1]);
        g = (abs (gx) + abs (gy)) >> 3;
      }
      st = g < d ? g : d;

      if (st <= p->st_threshold)
        continue;
      if (n == ppw && st <= sts[n - 1])
        continue;
      /* insert after every kept pixel of st >= this one (earlier in raster) */
      k = n < ppw ? n : ppw - 1;
      while (k > 0 && sts[k - 1] < st) {
        sts[k] = sts[k - 1];
        pos[k] = pos[k - 1];
        k--;
      }
      sts[k] = (uint8_t) st;
      pos[k] = y * W + x;
      if (n < ppw)
        n++;
    }
  }
  *count = n;
}

static GcvStatus
find_points (GcvVcmCpu * ctx, const GcvVcmParams * p, int nt, GcvError * err)
{
  int cols = gcv_vcm_window_cols (ctx->width, p), rows = gcv_vcm_window_rows (ctx->height, p);
  int ppw = p->points_per_window, n_win = cols * rows, total = 0, w, r, n;
  size_t n_cand = (size_t) n_win * ppw;
  long hist[256];
  int c = 0, quota = 0, capped;

  if (!gcv_ensure_capacity ((void **) &ctx->cand_pos, &ctx->cap_cand, n_cand, sizeof (int32_t))
      || !gcv_ensure_capacity ((void **) &ctx->cand_count, &ctx->cap_win, (size_t) n_win, sizeof (int)))
    goto no_memory;
  if (!gcv_ensure_capacity ((void **) &ctx->cand_st, &ctx->cap_cand_st, n_cand, sizeof (uint8_t)))
    goto no_memory;

#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
  for (r = 0; r < rows; r++) {
    int wx;
    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (wx = 0; wx < cols; wx++) {
      int wi = r * cols + wx;
      select_window (ctx, p, wx, r, ctx->cand_pos + (size_t) wi * ppw, ctx->cand_st + (size_t) wi * ppw,
          &ctx->cand_count[wi]);
    }
  }
  if (gcv_cancel_requested (ctx->cancel))
    return gcv_cancel_check (ctx->cancel, "vcm", err);

  for (w = 0; w < n_win; w++)
    total += ctx->cand_count[w];
  capped = total > p->max_points;
  if (capped) {
    long cum = 0;
    memset (hist, 0, sizeof (hist));
    for (w = 0; w < n_win; w++)
      for (r = 0; r < ctx->cand_count[w]; r++)
        hist[ctx->cand_st[(size_t) w * ppw + r]]++;
    for (c = 255; c >= 0; c--) {
      if (cum + hist[c] >= p->max_points)
        break;
      cum += hist[c];
    }
    quota = p->max_points - (int) cum;   /* of st == c */
    total = p->max_points;
  }
  if (!gcv_ensure_capacity ((void **) &ctx->px, &ctx->cap_points, (size_t) total, sizeof (int)))
    goto no_memory;
  if (!gcv_ensure_capacity ((void **) &ctx->py, &ctx->cap_py, (size_t) total, sizeof (int)))
    goto no_memory;
  n = 0;
  for (w = 0; w < n_win; w++)
    for (r = 0; r < ctx->cand_count[w]; r++) {
      int s = ctx->cand_st[(size_t) w * ppw + r];
      int32_t at = ctx->cand_pos[(size_t) w * ppw + r];
      if (capped) {
        if (s < c)
          continue;
        if (s == c) {
          if (quota == 0)
            continue;
          quota--;
        }
      }
      ctx->px[n] = at % ctx->width;
      ctx->py[n] = at / ctx->width;
      n++;
    }
  ctx->n_points = n;
  return GCV_OK;

no_memory:
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for the candidate points");
  return GCV_ERROR_NO_MEMORY;
}

/* ---- NCM ------------------------------------------------------------- */

static void
integrals (GcvVcmCpu * ctx)
{
  int W = ctx->width, H = ctx->height, x, y;
  size_t s = (size_t) W + 1;

  memset (ctx->sum1, 0, sizeof (uint32_t) * s);
  memset (ctx->sum2, 0, sizeof (uint32_t) * s);
  for (y = 0; y < H && !gcv_cancel_requested (ctx->cancel); y++) {
    const int16_t *c = ctx->cur + (size_t) y * W;
    uint32_t *o1 = ctx->sum1 + (size_t) (y + 1) * s, *o2 = ctx->sum2 + (size_t) (y + 1) * s;
    const uint32_t *u1 = o1 - s, *u2 = o2 - s;
    uint32_t r1 = 0, r2 = 0;
    o1[0] = o2[0] = 0;
    for (x = 0; x < W; x++) {
      r1 += (uint32_t) c[x];
      r2 += (uint32_t) (c[x] * c[x]);
      o1[x + 1] = u1[x + 1] + r1;
      o2[x + 1] = u2[x + 1] + r2;
    }
  }
}

/* The valid displacements of the point (x, y): [*dx0, *dx1] x [*dy0, *dy1]. */
static inline void
valid_rect (int W, int H, int R, int tr, int x, int y, int *dx0, int *dx1, int *dy0, int *dy1)
{
  *dx0 = tr - x > -R ? tr - x : -R;
  *dx1 = W - 1 - tr - x < R ? W - 1 - tr - x : R;
  *dy0 = tr - y > -R ? tr - y : -R;
  *dy1 = H - 1 - tr - y < R ? H - 1 - tr - y : R;
}

static void
ncm_point (const GcvVcmCpu * ctx, const GcvVcmParams * p, int x, int y, int16_t * map)
{
  int W = ctx->width, H = ctx->height, R = gcv_vcm_radius (p), M = 2 * R + 1;
  int t = p->template_size, tr = t / 2, n = t * t, pairs = (t + 1) / 2;
  int dx0, dx1, dy0, dy1, dy, u, v, i, k;
  /* the template as pairs of int16 (T (u, v), T (u + 1, v)) in every
   * 32-bit lane, for _mm_madd_epi16; the last pair of a row has 0 high */
  __m128i tp[GCV_VCM_MAX_TEMPLATE * ((GCV_VCM_MAX_TEMPLATE + 1) / 2)];
  _Alignas (16) int32_t acc[2 * 64 + 1 + 8];
  int64_t st = 0, stt = 0;
  double a, dn = n, dst;
  size_t s = (size_t) W + 1;

  /* invalid entries hold 0 here (not GCV_VCM_NCM_INVALID): they add
   * nothing to a neighbour's V, and a point's own valid displacements are
   * its valid_rect () */
  memset (map, 0, sizeof (int16_t) * M * M);
  for (v = 0; v < t; v++) {
    const uint8_t *row = ctx->ref + (size_t) (y - tr + v) * W + x - tr;
    for (u = 0; u < t; u++) {
      st += row[u];
      stt += row[u] * row[u];
    }
    for (k = 0; k < pairs; k++) {
      uint32_t lo = row[2 * k], hi = 2 * k + 1 < t ? row[2 * k + 1] : 0;
      tp[v * pairs + k] = _mm_set1_epi32 ((int) (lo | hi << 16));
    }
  }
  a = (double) (n * stt - st * st);
  dst = (double) st;
  valid_rect (W, H, R, tr, x, y, &dx0, &dx1, &dy0, &dy1);
  if (dx0 > dx1 || dy0 > dy1)
    return;
  for (dy = dy0; dy <= dy1; dy++) {
    int len = dx1 - dx0 + 1;
    int16_t *out = map + (size_t) (dy + R) * M + (dx0 + R);
    int yt = y + dy - tr;
    const uint32_t *s1t = ctx->sum1 + (size_t) yt * s, *s1b = s1t + (size_t) t * s;
    const uint32_t *s2t = ctx->sum2 + (size_t) yt * s, *s2b = s2t + (size_t) t * s;

    if (a == 0.0) {
      memset (out, 0, sizeof (int16_t) * len);
      continue;
    }
    /* Stw of 8 displacements at a time: C's samples at u and u + 1
     * interleaved are the pairs of the outputs i .. i + 3 (low half) and
     * i + 4 .. i + 7 (high) */
    for (i = 0; i < len; i += 8) {
      __m128i lo = _mm_setzero_si128 (), hi = lo;
      const int16_t *c0 = ctx->cur + (size_t) yt * W + (x + dx0 - tr) + i;
      for (v = 0; v < t; v++, c0 += W) {
        const __m128i *tv = tp + v * pairs;
        for (k = 0; k < pairs; k++) {
          __m128i ca = _mm_loadu_si128 ((const __m128i *) (c0 + 2 * k));
          __m128i cb = _mm_loadu_si128 ((const __m128i *) (c0 + 2 * k + 1));
          lo = _mm_add_epi32 (lo, _mm_madd_epi16 (_mm_unpacklo_epi16 (ca, cb), tv[k]));
          hi = _mm_add_epi32 (hi, _mm_madd_epi16 (_mm_unpackhi_epi16 (ca, cb), tv[k]));
        }
      }
      _mm_store_si128 ((__m128i *) (acc + i), lo);
      _mm_store_si128 ((__m128i *) (acc + i + 4), hi);
    }
    /* the contract's ncm in doubles: b, num and num * 32767 are integers
     * below 2^53, so exact, and a * b, sqrt, the division and + 0.5 are
     * the contract's steps with the same roundings */
    for (i = 0; i < len; i++) {
      int xl = x + dx0 + i - tr, q;
      double sw = (double) (uint32_t) (s1b[xl + t] - s1t[xl + t] - s1b[xl] + s1t[xl]);
      double sww = (double) (uint32_t) (s2b[xl + t] - s2t[xl + t] - s2b[xl] + s2t[xl]);
      double b = dn * sww - sw * sw;
      double num = (dn * (double) acc[i] - dst * sw) * (double) GCV_VCM_NCM_SCALE;
      double r;
      if (b == 0.0) {
        out[i] = 0;
        continue;
      }
      r = num / sqrt (a * b) + 0.5;
      q = (int) r;
      q -= (double) q > r;
      out[i] = (int16_t) (q > GCV_VCM_NCM_SCALE ? GCV_VCM_NCM_SCALE : q < -GCV_VCM_NCM_SCALE ?
          -GCV_VCM_NCM_SCALE : q);
    }
  }
}

/* ---- VCM ------------------------------------------------------------- */

/* The history point nearest (x, y) within rc2 (ties: smaller index), or -1. */
static int
nearest_history (const GcvVcmCpu * ctx, int rc2, int rr, int x, int y)
{
  const Buckets *b = &ctx->hist;
  int cx0 = (x - rr) / CELL, cx1 = (x + rr) / CELL, cy0 = (y - rr) / CELL, cy1 = (y + rr) / CELL;
  int best = -1, best_d2 = 0, cx, cy;

  if (x - rr < 0)
    cx0 = 0;
  if (y - rr < 0)
    cy0 = 0;
  if (cx1 >= b->cols)
    cx1 = b->cols - 1;
  if (cy1 >= b->rows)
    cy1 = b->rows - 1;
  for (cy = cy0; cy <= cy1; cy++)
    for (cx = cx0; cx <= cx1; cx++) {
      int cell = cy * b->cols + cx, k;
      for (k = b->start[cell]; k < b->start[cell + 1]; k++) {
        int j = b->index[k];
        int ddx = ctx->hx[j] - x, ddy = ctx->hy[j] - y, d2 = ddx * ddx + ddy * ddy;
        if (d2 > rc2)
          continue;
        if (best < 0 || d2 < best_d2 || (d2 == best_d2 && j < best)) {
          best = j;
          best_d2 = d2;
        }
      }
    }
  return best;
}

/* V += sum of w ncm_j over n neighbours (n <= 254), on the valid
 * rectangle; V32 is zero on it before and after. */
static void
add_neighbours (const GcvVcmCpu * ctx, const int *nj, const int32_t * nw, int n, int64_t * V, int32_t * V32,
    int M, int R, int dx0, int len, int dy0, int dy1)
{
  size_t mm = (size_t) M * M;
  int k, dy, q;

  for (k = 0; k < n; k += 2) {
    /* an odd last one pairs with itself at weight 0 */
    const int16_t *m1 = ctx->ncm + (size_t) nj[k] * mm;
    const int16_t *m2 = k + 1 < n ? ctx->ncm + (size_t) nj[k + 1] * mm : m1;
    int32_t w1 = nw[k], w2 = k + 1 < n ? nw[k + 1] : 0;
    __m128i wp = _mm_set1_epi32 ((int) ((uint32_t) w1 | (uint32_t) w2 << 16));

    for (dy = dy0; dy <= dy1; dy++) {
      size_t o = (size_t) (dy + R) * M + dx0 + R;
      const int16_t *a = m1 + o, *b = m2 + o;
      int32_t *d = V32 + o;
      for (q = 0; q + 8 <= len; q += 8) {
        __m128i va = _mm_loadu_si128 ((const __m128i *) (a + q)), vb = _mm_loadu_si128 ((const __m128i *) (b + q));
        __m128i lo = _mm_madd_epi16 (_mm_unpacklo_epi16 (va, vb), wp);
        __m128i hi = _mm_madd_epi16 (_mm_unpackhi_epi16 (va, vb), wp);
        _mm_storeu_si128 ((__m128i *) (d + q), _mm_add_epi32 (_mm_loadu_si128 ((const __m128i *) (d + q)), lo));
        _mm_storeu_si128 ((__m128i *) (d + q + 4),
            _mm_add_epi32 (_mm_loadu_si128 ((const __m128i *) (d + q + 4)), hi));
      }
      for (; q < len; q++)
        d[q] += w1 * a[q] + w2 * b[q];
    }
  }
  for (dy = dy0; dy <= dy1; dy++) {
    int64_t *d = V + (size_t) (dy + R) * M + dx0 + R;
    int32_t *s = V32 + (size_t) (dy + R) * M + dx0 + R;
    for (q = 0; q < len; q++) {
      d[q] += s[q];
      s[q] = 0;
    }
  }
}

static void
vcm_point (const GcvVcmCpu * ctx, const GcvVcmParams * p, const GcvPlane * cur, int i, int64_t * V,
    int32_t * V32, GcvVcmPoint * out, int *ex_out, int *ey_out)
{
  int pending = 0, nj[254];
  int32_t nw[254];
  const GcvVcmTables *tb = &ctx->tables;
  const Buckets *b = &ctx->pts;
  int W = ctx->width, H = ctx->height, R = gcv_vcm_radius (p), M = 2 * R + 1, tr = p->template_size / 2;
  int x = ctx->px[i], y = ctx->py[i], rc2 = tb->rc2, rr = isqrt_floor (rc2);
  int dx0, dx1, dy0, dy1, dx, dy, cx, cy, cx0, cx1, cy0, cy1, len;
  int64_t wsum = 0;
  uint64_t best = UINT64_MAX;
  int ex, ey;
  double ddx = 0.0, ddy = 0.0;

  valid_rect (W, H, R, tr, x, y, &dx0, &dx1, &dy0, &dy1);
  len = dx1 - dx0 + 1;
  for (dy = dy0; dy <= dy1; dy++)
    memset (V + (size_t) (dy + R) * M + dx0 + R, 0, sizeof (int64_t) * len);

  cx0 = x - rr < 0 ? 0 : (x - rr) / CELL;
  cy0 = y - rr < 0 ? 0 : (y - rr) / CELL;
  cx1 = (x + rr) / CELL < b->cols ? (x + rr) / CELL : b->cols - 1;
  cy1 = (y + rr) / CELL < b->rows ? (y + rr) / CELL : b->rows - 1;
  /* the neighbours' terms are summed in int32 (|w ncm| <= 256 * 32767 <
   * 2^23, so 255 of them fit), two neighbours at a time by
   * _mm_madd_epi16 on their maps' entries interleaved, and moved into the
   * int64 V every chunk of up to 254 */
  for (dy = dy0; dy <= dy1; dy++)
    memset (V32 + (size_t) (dy + R) * M + dx0 + R, 0, sizeof (int32_t) * len);
  for (cy = cy0; cy <= cy1; cy++)
    for (cx = cx0; cx <= cx1; cx++) {
      int cell = cy * b->cols + cx, k;
      for (k = b->start[cell]; k < b->start[cell + 1]; k++) {
        int j = b->index[k], ox = ctx->px[j] - x, oy = ctx->py[j] - y, d2 = ox * ox + oy * oy;
        if (d2 > rc2)
          continue;
        wsum += tb->spatial[d2];
        if (tb->spatial[d2] == 0)
          continue;
        nj[pending] = j;
        nw[pending] = tb->spatial[d2];
        if (++pending == 254) {
          add_neighbours (ctx, nj, nw, pending, V, V32, M, R, dx0, len, dy0, dy1);
          pending = 0;
        }
      }
    }
  if (pending)
    add_neighbours (ctx, nj, nw, pending, V, V32, M, R, dx0, len, dy0, dy1);

  if (tb->tw > 0 && ctx->n_hist > 0) {
    int k = nearest_history (ctx, rc2, rr, x, y);
    if (k >= 0) {
      int hx = ctx->hex[k], hy = ctx->hey[k];
      wsum += tb->tw;
      for (dy = dy0; dy <= dy1; dy++) {
        int64_t *dst = V + (size_t) (dy + R) * M + R;
        for (dx = dx0; dx <= dx1; dx++) {
          int e2 = (dx - hx) * (dx - hx) + (dy - hy) * (dy - hy);
          dst[dx] += (int64_t) tb->tw * tb->temporal[e2];
        }
      }
    }
  }

  for (dy = dy0; dy <= dy1; dy++) {
    const int64_t *row = V + (size_t) (dy + R) * M + R;
    for (dx = dx0; dx <= dx1; dx++) {
      uint64_t key = gcv_vcm_key (row[dx], dx, dy);
      if (key < best)
        best = key;
    }
  }
  ex = gcv_vcm_key_dx (best);
  ey = gcv_vcm_key_dy (best);
  {
    const int64_t *c = V + (size_t) (ey + R) * M + (ex + R);
    if (p->subpixel) {
      ddx = gcv_vcm_parabola (ex - 1 >= dx0 && ex + 1 <= dx1, ex - 1 >= dx0 ? c[-1] : 0, c[0],
          ex + 1 <= dx1 ? c[1] : 0);
      ddy = gcv_vcm_parabola (ey - 1 >= dy0 && ey + 1 <= dy1, ey - 1 >= dy0 ? c[-M] : 0, c[0],
          ey + 1 <= dy1 ? c[M] : 0);
    }
    out->x = (float) x;
    out->y = (float) y;
    if (p->subpixel && p->refine_size > 0) {
      /* the gradient refinement reads P (ctx->ref, packed) and C as the
       * caller gave it (8-bit; ctx->cur is its 16-bit copy for the NCM) */
      int qx = gcv_vcm_to_subpel ((double) ex + ddx), qy = gcv_vcm_to_subpel ((double) ey + ddy);
      gcv_vcm_refine (ctx->ref, (size_t) W, (const uint8_t *) cur->data, cur->stride, W, H, x, y,
          p->refine_size, &qx, &qy);
      out->dx = (float) (qx / 256.0);
      out->dy = (float) (qy / 256.0);
    } else {
      out->dx = (float) ((double) ex + ddx);
      out->dy = (float) ((double) ey + ddy);
    }
    out->score = gcv_vcm_score (c[0], wsum);
  }
  *ex_out = ex;
  *ey_out = ey;
}

void
gcv_vcm_cpu_set_cancel (GcvVcmCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

GcvStatus
gcv_vcm_cpu_process (GcvVcmCpu * ctx, const GcvVcmParams * params, const GcvPlane * cur, GcvVcmPoint * points,
    int *n_points, int n_threads, GcvVcmTimes * times, GcvError * err)
{
  const char *why;
  int nt, nt_ncm, nt_vcm, N, M, i, y;
  double neighbours;
  GcvStatus st;
  double t0, t1, t2, t3;
  size_t mm;
  uint8_t *swap_ref;

  if (n_points)
    *n_points = 0;
  if (!ctx || !points || !n_points) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: no context, no point array or no count");
    return GCV_ERROR_INVALID;
  }
  if ((why = gcv_vcm_params_check (params)) != NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (!plane_ok (ctx, cur, err))
    return GCV_ERROR_INVALID;
  if (!ctx->has_reference) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: no reference frame to track from");
    return GCV_ERROR_INVALID;
  }
  nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL_POINTS * ctx->width * ctx->height);
  t0 = gcv_now_ms ();
  for (y = 0; y < ctx->height && !gcv_cancel_requested (ctx->cancel); y++) {
    const uint8_t *src = (const uint8_t *) cur->data + (size_t) y * cur->stride;
    int16_t *dst = ctx->cur + (size_t) y * ctx->width;
    int x;
    for (x = 0; x < ctx->width; x++)
      dst[x] = src[x];
  }
  if ((st = find_points (ctx, params, nt, err)) != GCV_OK)
    return st;
  N = ctx->n_points;
  M = gcv_vcm_map_side (params);
  mm = (size_t) M * M;
  t1 = gcv_now_ms ();
  nt_ncm = gcv_parallel_threads (n_threads, NS_PER_NCM_SAMPLE * N * (double) mm * params->template_size
      * params->template_size);
  /* the neighbours a point has on average (the points spread evenly) */
  neighbours = 3.1416 * params->coherence_radius * params->coherence_radius * N
      / ((double) ctx->width * ctx->height);
  nt_vcm = gcv_parallel_threads (n_threads, NS_PER_VCM_TERM * N * (double) mm * (1.0 + (neighbours < N ?
              neighbours : N) + (ctx->n_hist > 0)));

  if (!gcv_ensure_capacity ((void **) &ctx->ncm, &ctx->cap_ncm, (size_t) N * mm, sizeof (int16_t))
      || !gcv_ensure_capacity ((void **) &ctx->scratch, &ctx->cap_scratch, (size_t) nt_vcm * mm,
          sizeof (int64_t))
      || !gcv_ensure_capacity ((void **) &ctx->scratch32, &ctx->cap_scratch32, (size_t) nt_vcm * mm,
          sizeof (int32_t))) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for %d correlation maps of %dx%d", N,
        M, M);
    return GCV_ERROR_NO_MEMORY;
  }
  integrals (ctx);
  if ((st = gcv_cancel_check (ctx->cancel, "vcm", err)) != GCV_OK)
    return st;
#pragma omp parallel for num_threads(nt_ncm) schedule(dynamic, 4) if (nt_ncm > 1)
  for (i = 0; i < N; i++)
    if (!gcv_cancel_requested (ctx->cancel))
      ncm_point (ctx, params, ctx->px[i], ctx->py[i], ctx->ncm + (size_t) i * mm);
  if ((st = gcv_cancel_check (ctx->cancel, "vcm", err)) != GCV_OK)
    return st;
  t2 = gcv_now_ms ();

  gcv_vcm_tables_make (params, &ctx->tables);
  if (!buckets_build (&ctx->pts, ctx->width, ctx->height, ctx->px, ctx->py, N)
      || !buckets_build (&ctx->hist, ctx->width, ctx->height, ctx->hx, ctx->hy, ctx->n_hist)) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for the neighbour grid");
    return GCV_ERROR_NO_MEMORY;
  }
  {
    /* the new history's vectors are written beside the old history, which
     * the temporal term still reads: swap afterwards */
    int *nex = (int *) malloc (sizeof (int) * (N ? N : 1)), *ney = (int *) malloc (sizeof (int) * (N ? N : 1));
    if (!nex || !ney) {
      free (nex);
      free (ney);
      gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for the history");
      return GCV_ERROR_NO_MEMORY;
    }
#pragma omp parallel for num_threads(nt_vcm) schedule(dynamic, 4) if (nt_vcm > 1)
    for (i = 0; i < N; i++)
      if (!gcv_cancel_requested (ctx->cancel))
        vcm_point (ctx, params, cur, i, ctx->scratch + (size_t) gcv_thread_index () * mm,
            ctx->scratch32 + (size_t) gcv_thread_index () * mm, &points[i], &nex[i], &ney[i]);
    /* stopped: the history and the reference stay as they were */
    if ((st = gcv_cancel_check (ctx->cancel, "vcm", err)) != GCV_OK) {
      free (nex);
      free (ney);
      return st;
    }
    free (ctx->hx);
    free (ctx->hy);
    free (ctx->hex);
    free (ctx->hey);
    ctx->hex = nex;
    ctx->hey = ney;
    ctx->hx = (int *) malloc (sizeof (int) * (N ? N : 1));
    ctx->hy = (int *) malloc (sizeof (int) * (N ? N : 1));
    if (!ctx->hx || !ctx->hy) {
      ctx->n_hist = 0;
      gcv_error_set (err, GCV_ERROR_NO_MEMORY, "vcm: out of host memory for the history");
      return GCV_ERROR_NO_MEMORY;
    }
    memcpy (ctx->hx, ctx->px, sizeof (int) * N);
    memcpy (ctx->hy, ctx->py, sizeof (int) * N);
    ctx->n_hist = N;
  }
  t3 = gcv_now_ms ();

  /* C becomes P */
  swap_ref = ctx->ref;
  for (y = 0; y < ctx->height; y++) {
    const int16_t *src = ctx->cur + (size_t) y * ctx->width;
    uint8_t *dst = swap_ref + (size_t) y * ctx->width;
    int x;
    for (x = 0; x < ctx->width; x++)
      dst[x] = (uint8_t) src[x];
  }
  *n_points = N;
  if (times) {
    times->points_ms = t1 - t0;
    times->ncm_ms = t2 - t1;
    times->vcm_ms = t3 - t2;
  }
  return GCV_OK;
}
