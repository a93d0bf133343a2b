/* gst-cuda-video: the CPU backend of seam carving (contract in
 * seamcarve.h; paper 001, Duarte and Sendag: energy eq. 1, seam map eq. 2).
 *
 * Orientation.  Every stage works in its own orientation, in which its
 * seams cross rows: the width stage on the image as it is, the height stage
 * on the transposed image (row i of the height stage is column i of the
 * picture).  A stage has R rows, input width a and output width b, and all
 * its arrays are R rows of `stride` = max (a, b) elements, row i at
 * i * stride, so that the dynamic programming always walks contiguous rows
 * and an enlargement grows in place.  The luma (and, where one is needed,
 * the packed pixels) of a height stage's input are transposed into these
 * buffers once per stage; its src map is transposed back to gather the
 * output.
 *
 * Working image of a reduction: luma L (u8), src (int16: the stage-input
 * column of each pixel) and energy E (int16: the contract's E, bias
 * included; for forward energy B + CU, see below).  A pass computes the
 * seam map M (int32) row by row, keeping only two rows of M (in L1) and the
 * parents, one int8 (-1, 0, +1) per cell; fast mode keeps each cell's
 * parent order there instead (gcv_seam_parent_code) and carries each
 * cell's root column in two rolling int32 rows, then traces its candidates
 * one after the other (find_seams_fast: at 1080p some 4 % of the
 * instructions of the seam map it follows).  Removal compacts every row
 * (memmove of the segments between seam pixels) and then recomputes E only
 * at the two pixels either side of each removed one, which equals a full
 * recompute: a pixel whose row neighbours are both kept keeps all four of
 * its neighbours, because connected, non-crossing seams shift the rows
 * above and below by the same amount there.  All bias values are looked up
 * through src, so E never depends on where a pixel has moved.
 *
 * Forward energy: the three costs share CU, so
 *   M(i, j) = B + CU + min (M(i-1, j-1) + |u - l|, M(i-1, j), M(i-1, j+1) + |u - r|)
 * with the same order of the three terms (the tie rule is kept); E holds
 * B + CU (a pixel's own row only) and the two other terms come from the
 * luma inside the DP loop.
 *
 * Enlargement steps work on a copy: wluma and idx (the column of the step
 * input each working pixel is) with E, while the step input itself (packed
 * pixels px, luma, src) stays put; the chosen step-input columns are
 * flagged in `chosen`, and the step output is written into the same
 * buffers from right to left (the output position of input column c is
 * never left of c, and the one new pixel that can land on c + 1 is
 * computed before it is written).  Packed pixels hold n_planes * channels
 * bytes: plane 0's samples, then plane 1's, ...
 *
 * Between stages: the second stage's luma is the transpose of the first
 * stage's final working luma (which is the first stage's output luma), its
 * alpha the first stage's alpha gathered through src (or read from packed
 * pixels when those exist).  When neither stage enlarges, the output is
 * gathered from the input planes through the composition of the two src
 * maps; otherwise through packed pixels.
 *
 * Temporal state: the stage mask of each direction (width, height), in
 * stage-input coordinates, R x a bytes packed, is kept in prev_mask[dir]
 * with the order it was made with; the next frame's bias is computed from
 * it before the stage overwrites it with its own.
 *
 * E fits int16: |E| <= GCV_SEAM_ALPHA_BIAS + 510 + 8 * 64 (forward:
 * 16384 + 255 + 512), which halves the memory the DP reads per pass.
 *
 * Threads: OpenMP over rows for luma, bias, energy, removal, insertion,
 * the transpositions and the gathers (rows are independent there), as many
 * as each loop's work is worth (gcv-parallel.h).  The removal of a pass is
 * one parallel region (bands of rows; see remove_seams), and only for
 * pictures where a pass is worth it: it recurs hundreds of times a frame, so when the
 * team keeps thread 0 waiting (another process on the other cores) the
 * passes go back to one thread for a while (LATE_JOINS_MAX): on two vCPUs
 * with one of them busy, 192 threaded passes of 1080p took 0.4-0.5 s a
 * frame against 0.15 s on one thread.  The DP stays on the calling thread:
 * each row needs the one above, and a banded (trapezoid) DP needs a
 * barrier every few dozen rows, dozens per pass, thousands per frame,
 * which the same busy machine punishes far worse; it was not done.  The
 * DP loop is compiled for SSE2, AVX2 and AVX-512 and picked at _new
 * (choose_seam_map).  Everything is allocated in _new; nothing per frame.
 *
 * A stop request is looked at between passes and every DP_CHECK_ROWS rows
 * of a seam map (a pass of a 32767-pixel-wide picture is seconds); a
 * stopped frame leaves the working image half carved, and the next frame
 * starts without the previous seams.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "seamcarve.h"
#include "gcv-parallel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* One core's time per sample of the loops over rows (luma, bias, energy,
 * transpositions, gathers) and per pixel of a pass's removal (about: GRAY8
 * 1080p, -10% in fast mode is 94 ms a frame): what their teams are sized
 * by (gcv-parallel.h). */
#define NS_PER_SAMPLE 1.0
#define NS_PER_PASS_PIXEL 0.75
/* Rows of the seam map between two looks at the stop request. */
#define DP_CHECK_ROWS 256
/* A pass's removal is threaded only while the team comes when called: when
 * thread 0 waits for the others this many times in a frame (another
 * process holds their cores: each wait is a scheduler slice, milliseconds,
 * hundreds of times a frame), the rest of the frame and the next
 * SERIAL_FRAMES frames remove on one thread, then threads are tried again.
 * The output does not depend on it. */
#define LATE_JOINS_MAX 8
#define SERIAL_FRAMES 16
#define TILE 32                 /* transposition tile */

enum
{
  DIR_WIDTH = 0,
  DIR_HEIGHT = 1,
};

typedef struct
{
  int dir;                      /* DIR_WIDTH or DIR_HEIGHT */
  int rows;                     /* R */
  int a, b;                     /* input and output width */
  size_t stride;                /* max (a, b) */
} Stage;

/* The working image a pass runs on. */
typedef struct
{
  uint8_t *L;                   /* luma */
  int16_t *col;                 /* reduction: src; enlargement: idx (step-input column) */
  int16_t *E;
  const int16_t *step_src;      /* enlargement: src of the step input (bias via it); else NULL */
  const int16_t *bias;          /* R x a, stride `stride` */
  int rows, w;
  size_t stride;
} Work;

/* A candidate seam of a fast pass (find_seams_fast); its end column is in
 * ctx->cand_end. */
typedef struct
{
  int top;                      /* the highest row its path reached: 0 = a whole seam */
  int64_t cost;                 /* a whole seam's (path_cost) */
} FastCand;

/* The seam map of a working image (one per instruction set). */
typedef const int32_t *(*SeamMapFn) (GcvSeamCpu *ctx, const Work *w, int forward, int roots,
    const int32_t **roots_out);

struct _GcvSeamCpu
{
  GcvSeamGeometry geom;
  int nb;                       /* bytes of a packed pixel: n_planes * channels */
  int can_grow;                 /* some stage may enlarge */
  int max_w;                    /* the widest stage array row, over both orders */
  size_t cap;                   /* elements of a stage array: max (in_w, out_w) * max (in_h, out_h) */

  uint8_t *luma[2];             /* stage k's luma (input, working, output) */
  int16_t *src[2];              /* stage k's src map */
  int16_t *energy;
  int16_t *bias;
  int8_t *parent;               /* also the combined-mask scratch at the end of a frame */
  uint8_t *alpha;               /* the current stage's input alpha (geometry with alpha) */
  uint8_t *scratch;             /* normal-orientation luma / alpha / mask before a transposition */
  int16_t *map;                 /* transposed src maps for the output gather */
  uint8_t *prev_mask[2];        /* per direction: last frame's stage mask */
  int have_prev;
  GcvSeamOrder prev_order;
  /* enlargement only */
  uint8_t *wluma;
  int16_t *idx;
  uint8_t *chosen;
  uint8_t *px[2];
  /* per pass */
  int32_t *mrow;                /* 2 rows of M */
  int32_t *root;                /* 2 rows of roots */
  int32_t *best;                /* fast mode: per root, its cheapest end column */
  int64_t *keys;                /* fast mode: end columns (M << 16 | j), then the kept candidates */
  FastCand cand[GCV_SEAM_FAST_TRIES];
  int cand_end[GCV_SEAM_FAST_TRIES];  /* candidate k's column in the last row */
  int16_t *cpath;               /* fast mode: candidate k's path, row i at k * rows + i */
  int16_t *seams;               /* a pass's n seams: row i's columns at i * n + k; sized
                                 * R x min (GCV_SEAM_FAST_TRIES, stride) of the largest stage */

  SeamMapFn seam_map;           /* the DP loop for this CPU */
  const GcvCancel *cancel;
  int late_joins;               /* this frame's slow joins of a pass's threads */
  int serial_frames;            /* frames left whose passes stay on one thread */
  int profiling;
  GcvSeamProfile prof;
};

/* ---- small helpers ------------------------------------------------------------- */

static int
imin (int a, int b)
{
  return a < b ? a : b;
}

static int
imax (int a, int b)
{
  return a > b ? a : b;
}

/* The team of a loop over `samples` samples; nt: the threads asked for
 * (0: one per core). */
static int
team (int nt, size_t samples)
{
  return gcv_parallel_threads (nt, NS_PER_SAMPLE * (double) samples);
}

/* The same for the work of one pass, which recurs hundreds of times a
 * frame: only pictures where a pass takes a good fraction of a millisecond */
static void
sift_down (int64_t *k, int root, int n)
{
  int child;

  while ((child = 2 * root + 1) < n) {
    int64_t t;
    if (child + 1 < n && k[child + 1] > k[child])
      child++;
    if (k[root] >= k[child])
      return;
    t = k[root];
    k[root] = k[child];
    k[child] = t;
    root = child;
  }
}

/* In-place heapsort of n int64 keys, ascending (no allocation: glibc's
 * qsort may malloc). */
static void
sort_keys (int64_t *k, int n)
{
  for (int r = n / 2 - 1; r >= 0; r--)
    sift_down (k, r, n);
  for (int end = n - 1; end > 0; end--) {
    int64_t t = k[0];
    k[0] = k[end];
    k[end] = t;
    sift_down (k, 0, end);
  }
}

static inline void
copy_elem (uint8_t *d, const uint8_t *s, size_t es)
{
  switch (es) {
    case 1:
      *d = *s;
      break;
    case 2:
      memcpy (d, s, 2);
      break;
    case 4:
      memcpy (d, s, 4);
      break;
    default:
      memcpy (d, s, es);
      break;
  }
}

/* dst[c][r] = src[r][c] for r < rows, c < cols; strides in elements of es
 * bytes.  Tiled; threads take bands of source rows (= bands of destination
 * columns, so they never write the same bytes). */
static inline __attribute__((always_inline)) void
transpose_es (const void *src_, size_t sstride, void *dst_, size_t dstride, int rows, int cols,
    size_t es, int nt, const GcvCancel *cancel)
{
  const uint8_t *src = src_;
  uint8_t *dst = dst_;
  const int nbands = (rows + TILE - 1) / TILE;
  int band;

#pragma omp parallel for num_threads(team (nt, (size_t) rows * cols * es)) schedule(static)
  for (band = 0; band < nbands; band++) {
    const int r0 = band * TILE, r1 = imin (r0 + TILE, rows);

    if (gcv_cancel_requested (cancel))
      continue;
    for (int c0 = 0; c0 < cols; c0 += TILE) {
      const int c1 = imin (c0 + TILE, cols);
      for (int r = r0; r < r1; r++)
        for (int c = c0; c < c1; c++)
          copy_elem (dst + ((size_t) c * dstride + r) * es, src + ((size_t) r * sstride + c) * es, es);
    }
  }
}

static void
transpose_u8 (const uint8_t *s, size_t ss, uint8_t *d, size_t ds, int rows, int cols, int nt,
    const GcvCancel *cancel)
{
  transpose_es (s, ss, d, ds, rows, cols, 1, nt, cancel);
}

static void
transpose_i16 (const int16_t *s, size_t ss, int16_t *d, size_t ds, int rows, int cols, int nt,
    const GcvCancel *cancel)
{
  transpose_es (s, ss, d, ds, rows, cols, 2, nt, cancel);
}

static void
transpose_px (const uint8_t *s, size_t ss, uint8_t *d, size_t ds, int rows, int cols, int nb, int nt,
    const GcvCancel *cancel)
{
  switch (nb) {
    case 1:
      transpose_es (s, ss, d, ds, rows, cols, 1, nt, cancel);
      break;
    case 4:
      transpose_es (s, ss, d, ds, rows, cols, 4, nt, cancel);
      break;
    default:
      transpose_es (s, ss, d, ds, rows, cols, (size_t) nb, nt, cancel);
      break;
  }
}

/* ---- frame access ---------------------------------------------------------------- */

static inline const uint8_t *
frame_px (const GcvPlane *in, int p, int x, int y, int ch)
{
  return (const uint8_t *) in[p].data + in[p].stride * (size_t) y + (size_t) x * ch;
}

/* Packs frame pixel (x, y) of every plane into d (nb bytes). */
static inline void
pack_px (const GcvSeamCpu *ctx, const GcvPlane *in, int x, int y, uint8_t *d)
{
  const int ch = ctx->geom.channels;

  for (int p = 0; p < ctx->geom.n_planes; p++)
    copy_elem (d + p * ch, frame_px (in, p, x, y, ch), (size_t) ch);
}

static inline int
luma_of (const GcvSeamGeometry *g, const uint8_t *px)
{
  return gcv_seam_luma (px, g->luma.layout, g->luma.r_offset, g->luma.g_offset, g->luma.b_offset);
}

/* Luma (or, with alpha set, the alpha channel) of the frame, normal
 * orientation, into d (rows dstride bytes apart). */
static void
frame_channel (const GcvSeamCpu *ctx, const GcvPlane *in, int alpha, uint8_t *d, size_t dstride, int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;
  const int W = g->in_width, H = g->in_height, ch = g->channels;
  int y;

#pragma omp parallel for num_threads(team (nt, (size_t) W * H)) schedule(static)
  for (y = 0; y < H; y++) {
    const uint8_t *s = frame_px (in, 0, 0, y, ch);
    uint8_t *o = d + dstride * y;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (alpha) {
      for (int x = 0; x < W; x++)
        o[x] = s[(size_t) x * 4 + g->alpha_channel];
    } else if (g->luma.layout == GCV_LUMA_PACKED32) {
      const int ro = g->luma.r_offset, go = g->luma.g_offset, bo = g->luma.b_offset;
      for (int x = 0; x < W; x++)
        o[x] = (uint8_t) gcv_seam_luma (s + (size_t) x * 4, GCV_LUMA_PACKED32, ro, go, bo);
    } else {
      memcpy (o, s, W);
    }
  }
}

/* Stage-0 input channel (luma or alpha) in the stage's orientation. */
static void
stage0_channel (GcvSeamCpu *ctx, const Stage *s, const GcvPlane *in, int alpha, uint8_t *d, int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;

  if (s->dir == DIR_WIDTH) {
    frame_channel (ctx, in, alpha, d, s->stride, nt);
  } else {
    frame_channel (ctx, in, alpha, ctx->scratch, g->in_width, nt);
    transpose_u8 (ctx->scratch, g->in_width, d, s->stride, g->in_height, g->in_width, nt, ctx->cancel);
  }
}

/* Frame coordinates of stage-0 input pixel (i, c). */
static inline void
stage0_xy (const Stage *s, int i, int c, int *x, int *y)
{
  if (s->dir == DIR_WIDTH) {
    *x = c;
    *y = i;
  } else {
    *x = i;
    *y = c;
  }
}

/* ---- bias ------------------------------------------------------------------------- */

/* B (R x a) from the stage input's alpha (NULL: none) and last frame's
 * stage mask (NULL: none): alpha bias + T * min (d, RANGE). */
static void
compute_bias (GcvSeamCpu *ctx, const Stage *s, const uint8_t *alpha, const uint8_t *prev, int T, int nt)
{
  const int R = s->rows, a = s->a;
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) R * a)) schedule(static)
  for (i = 0; i < R; i++) {
    int16_t *B = ctx->bias + s->stride * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (prev) {
      /* distance to the nearest marked column, capped: a sweep from the
       * left leaves it in B, one from the right takes the minimum */
      const uint8_t *m = prev + (size_t) a * i;
      int d = GCV_SEAM_TEMPORAL_RANGE;
      for (int c = 0; c < a; c++) {
        d = m[c] ? 0 : imin (d + 1, GCV_SEAM_TEMPORAL_RANGE);
        B[c] = (int16_t) d;
      }
      d = GCV_SEAM_TEMPORAL_RANGE;
      for (int c = a - 1; c >= 0; c--) {
        d = m[c] ? 0 : imin (d + 1, GCV_SEAM_TEMPORAL_RANGE);
        B[c] = (int16_t) (T * imin (d, B[c]));
      }
    } else {
      memset (B, 0, sizeof (int16_t) * a);
    }
    if (alpha) {
      const uint8_t *A = alpha + s->stride * i;
      for (int c = 0; c < a; c++)
        B[c] = (int16_t) (B[c] + gcv_seam_alpha_bias (A[c]));
    }
  }
}

/* ---- energy ------------------------------------------------------------------------- */

static inline int
bias_at (const Work *w, int i, int j)
{
  size_t row = w->stride * i;
  int c = w->col[row + j];

  if (w->step_src)
    c = w->step_src[row + c];
  return w->bias[row + c];
}

/* E of working pixel (i, j) (bias included), from its clamped neighbours. */
static inline int
energy_at (const Work *w, GcvSeamEnergy energy, int i, int j)
{
  const uint8_t *Lc = w->L + w->stride * i;
  const int l = Lc[j > 0 ? j - 1 : 0], r = Lc[j < w->w - 1 ? j + 1 : w->w - 1];
  int e;

  if (energy == GCV_SEAM_ENERGY_FORWARD) {
    e = gcv_seam_forward_cost (0, l, r, 0);     /* CU */
  } else {
    const int u = w->L[w->stride * (i > 0 ? i - 1 : 0) + j];
    const int d = w->L[w->stride * (i < w->rows - 1 ? i + 1 : w->rows - 1) + j];
    e = gcv_seam_pixel_energy (energy, l, r, u, d);
  }
  return e + bias_at (w, i, j);
}

/* Full energy of the working image; `identity`: col[i][j] = j (the stage's
 * or step's first pass), so the bias needs no lookup through col. */
static void
energy_full (const GcvSeamCpu *ctx, const Work *w, GcvSeamEnergy energy, int identity, int nt)
{
  const int R = w->rows, W = w->w;
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) R * W)) schedule(static)
  for (i = 0; i < R; i++) {
    const uint8_t *restrict Lc = w->L + w->stride * i;
    const uint8_t *restrict Lu = w->L + w->stride * (i > 0 ? i - 1 : 0);
    const uint8_t *restrict Ld = w->L + w->stride * (i < R - 1 ? i + 1 : R - 1);
    int16_t *restrict E = w->E + w->stride * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (W <= 2) {
      for (int j = 0; j < W; j++)
        E[j] = (int16_t) energy_at (w, energy, i, j);
      continue;
    }
    /* the inner columns without clamping (vectorised), the edges after */
    if (energy == GCV_SEAM_ENERGY_GRADIENT_L1) {
      for (int j = 1; j < W - 1; j++)
        E[j] = (int16_t) gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1, Lc[j - 1], Lc[j + 1], Lu[j], Ld[j]);
    } else if (energy == GCV_SEAM_ENERGY_GRADIENT_L2) {
      /* isqrt's loop: not vectorised */
      for (int j = 1; j < W - 1; j++)
        E[j] = (int16_t) gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L2, Lc[j - 1], Lc[j + 1], Lu[j], Ld[j]);
    } else {
      /* forward: CU, the cost of going straight down */
      for (int j = 1; j < W - 1; j++)
        E[j] = (int16_t) gcv_seam_forward_cost (0, Lc[j - 1], Lc[j + 1], 0);
    }
    if (identity && !w->step_src) {
      const int16_t *restrict B = w->bias + w->stride * i;
      for (int j = 1; j < W - 1; j++)
        E[j] = (int16_t) (E[j] + B[j]);
    } else {
      for (int j = 1; j < W - 1; j++)
        E[j] = (int16_t) (E[j] + bias_at (w, i, j));
    }
    E[0] = (int16_t) energy_at (w, energy, i, 0);
    E[W - 1] = (int16_t) energy_at (w, energy, i, W - 1);
  }
}

/* ---- the seam map (eq. 2) ------------------------------------------------------------ */

/* One row of M: mc[j] = e[j] + min_d (mp[j+d] (+ forward cost)), the first
 * strictly smallest of d = -1, 0, +1 winning; par[j] = d, or with `roots`
 * (fast mode) the parent order gcv_seam_parent_code (d, second), second
 * the first strictly smallest of the other two.  lu / lc: luma of the row
 * above / this row (forward only); rp / rc: roots of the row above / this
 * row (with `roots`).  forward and roots are constants at every call
 * (always_inline), so each variant is its own branch-free loop. */
static inline __attribute__((always_inline)) void
dp_row (const int32_t *restrict mp, int32_t *restrict mc, const int16_t *restrict e,
    int8_t *restrict par, const uint8_t *restrict lu, const uint8_t *restrict lc,
    const int32_t *restrict rp, int32_t *restrict rc, int w, const int forward, const int roots)
{
  int j;

  if (w == 1) {
    mc[0] = mp[0] + e[0];
    /* the missing neighbours tie (the CUDA seam map's values outside the
     * image), so the second is d = -1 */
    par[0] = (int8_t) (roots ? gcv_seam_parent_code (0, -1) : 0);
    if (roots)
      rc[0] = rp[0];
    return;
  }
  {
    /* j = 0: d = 0 or +1 */
    int32_t b = mp[0], c = mp[1];
    int t;
    if (forward) {
      int u = lu[0], r = lc[1];
      c += u > r ? u - r : r - u;
    }
    t = c < b;
    mc[0] = (t ? c : b) + e[0];
    par[0] = (int8_t) (roots ? gcv_seam_parent_code (t, !t) : t);
    if (roots)
      rc[0] = t ? rp[1] : rp[0];
  }
  for (j = 1; j < w - 1; j++) {
    /* selects only (no branches), so that gcc vectorises the loop */
    int32_t a = mp[j - 1], b = mp[j], c = mp[j + 1], m, d, r = 0, ra = 0, rb = 0, rr = 0;
    int lt, gt;
    if (roots) {
      ra = rp[j - 1];
      rb = rp[j];
      rr = rp[j + 1];
    }
    if (forward) {
      int u = lu[j];
      a += abs (u - lc[j - 1]);
      c += abs (u - lc[j + 1]);
    }
    lt = b < a;
    m = lt ? b : a;
    d = lt ? 0 : -1;
    r = lt ? rb : ra;
    gt = c < m;
    m = gt ? c : m;
    d = gt ? 1 : d;
    r = gt ? rr : r;
    mc[j] = m + e[j];
    if (roots) {
      /* the second of the order: the first strictly smallest of the other two */
      int s = d < 0 ? (c < b ? 1 : 0) : d == 0 ? (c < a ? 1 : -1) : (b < a ? 0 : -1);
      par[j] = (int8_t) gcv_seam_parent_code (d, s);
      rc[j] = r;
    } else {
      par[j] = (int8_t) d;
    }
  }
  {
    /* j = w - 1: d = -1 or 0 */
    int32_t a = mp[w - 2], b = mp[w - 1];
    int t;
    if (forward) {
      int u = lu[w - 1], l = lc[w - 2];
      a += u > l ? u - l : l - u;
    }
    t = b < a;
    mc[w - 1] = (t ? b : a) + e[w - 1];
    par[w - 1] = (int8_t) (roots ? gcv_seam_parent_code (t ? 0 : -1, t ? -1 : 0) : t ? 0 : -1);
    if (roots)
      rc[w - 1] = t ? rp[w - 1] : rp[w - 2];
  }
}

/* Builds M of the working image; leaves its last row in the returned
 * array, and, with roots, the roots of the last row in *roots_out.  One
 * body, compiled for several instruction sets (see choose_seam_map). */
static inline __attribute__((always_inline)) const int32_t *
seam_map_body (GcvSeamCpu *ctx, const Work *w, int forward, int roots, const int32_t **roots_out)
{
  const int R = w->rows, W = w->w;
  int32_t *m0 = ctx->mrow, *m1 = ctx->mrow + ctx->max_w;
  int32_t *r0 = ctx->root, *r1 = ctx->root + ctx->max_w;
  const int16_t *e = w->E;
  int i, j;

  for (j = 0; j < W; j++)
    m0[j] = e[j];
  if (roots)
    for (j = 0; j < W; j++)
      r0[j] = j;
  for (i = 1; i < R; i++) {
    const size_t o = w->stride * i;
    const uint8_t *lu = w->L + o - w->stride, *lc = w->L + o;
    int32_t *t;
    /* stopped: M is unfinished, run_passes looks again before using it */
    if (i % DP_CHECK_ROWS == 0 && gcv_cancel_requested (ctx->cancel))
      break;
    if (forward && roots)
      dp_row (m0, m1, e + o, ctx->parent + o, lu, lc, r0, r1, W, 1, 1);
    else if (forward)
      dp_row (m0, m1, e + o, ctx->parent + o, lu, lc, NULL, NULL, W, 1, 0);
    else if (roots)
      dp_row (m0, m1, e + o, ctx->parent + o, NULL, NULL, r0, r1, W, 0, 1);
    else
      dp_row (m0, m1, e + o, ctx->parent + o, NULL, NULL, NULL, NULL, W, 0, 0);
    t = m0;
    m0 = m1;
    m1 = t;
    if (roots) {
      t = r0;
      r0 = r1;
      r1 = t;
    }
  }
  if (roots_out)
    *roots_out = r0;
  return m0;
}

static const int32_t *
seam_map_generic (GcvSeamCpu *ctx, const Work *w, int forward, int roots, const int32_t **roots_out)
{
  return seam_map_body (ctx, w, forward, roots, roots_out);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_X86_SEAM_MAPS 1
__attribute__((target ("avx2")))
static const int32_t *
seam_map_avx2 (GcvSeamCpu *ctx, const Work *w, int forward, int roots, const int32_t **roots_out)
{
  return seam_map_body (ctx, w, forward, roots, roots_out);
}

__attribute__((target ("avx512f,avx512bw,avx512vl")))
static const int32_t *
seam_map_avx512 (GcvSeamCpu *ctx, const Work *w, int forward, int roots, const int32_t **roots_out)
{
  return seam_map_body (ctx, w, forward, roots, roots_out);
}
#endif

/* The widest DP loop the CPU runs (AVX2 about halves the SSE2 loop's time
 * at 1080p; AVX-512 gains a little more, the loop is then close to the
 * memory's pace).  GCV_SEAM_CPU_KERNEL=generic or avx2 caps it (the tests
 * run every variant). */
static SeamMapFn
choose_seam_map (void)
{
#ifdef HAVE_X86_SEAM_MAPS
  const char *cap = getenv ("GCV_SEAM_CPU_KERNEL");
  int level = cap && strcmp (cap, "generic") == 0 ? 0 : cap && strcmp (cap, "avx2") == 0 ? 1 : 2;

  __builtin_cpu_init ();
  if (level >= 2 && __builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512bw")
      && __builtin_cpu_supports ("avx512vl"))
    return seam_map_avx512;
  if (level >= 1 && __builtin_cpu_supports ("avx2"))
    return seam_map_avx2;
#endif
  return seam_map_generic;
}

/* The cost of a path of the working image (p[i] its column in row i): the
 * sum of what eq. 2 adds along it, i.e. its M (h - 1, p[h - 1]) when it
 * follows the parents. */
static int64_t
path_cost (const Work *w, const int16_t *p, int forward)
{
  int64_t sum = 0;

  for (int i = 0; i < w->rows; i++) {
    sum += w->E[w->stride * i + p[i]];
    /* forward: entering (i, p[i]) from (i - 1, p[i - 1]) diagonally adds
     * |L (i - 1, p[i]) - L (i, p[i - 1])| (the contract's C_d - CU) */
    if (forward && i > 0 && p[i - 1] != p[i])
      sum += abs (w->L[w->stride * (i - 1) + p[i]] - w->L[w->stride * i + p[i - 1]]);
  }
  return sum;
}

/* Fast mode's seams of one pass (cpu/seamcarve.h, "One pass"): the
 * candidates, each traced up from its end through the parent order between
 * the paths of the lower-ranked ones, in rank order; of the whole ones
 * within the limit the P cheapest.  Into ctx->seams (row i's columns at
 * i * n + k, k in increasing column).  Returns n. */
static int
find_seams_fast (GcvSeamCpu *ctx, const Work *w, const int32_t *M, const int32_t *roots, int P, int forward)
{
  const int R = w->rows, W = w->w;
  FastCand *cd = ctx->cand;
  int *end = ctx->cand_end;
  int64_t *keys = ctx->keys, limit;
  int32_t *best = ctx->best;
  int bj = 0, nq = 0, nc = 0, n = 0, k;

  /* the limit, and each root's cheapest end column */
  for (int j = 1; j < W; j++)
    if (M[j] < M[bj])
      bj = j;
  limit = gcv_seam_fast_limit (M[bj], R);
  for (int j = 0; j < W; j++)
    best[j] = -1;
  for (int j = 0; j < W; j++)
    if (best[roots[j]] < 0 || M[j] < M[best[roots[j]]])       /* strict: the smallest j keeps a tie */
      best[roots[j]] = j;
  /* the end columns within the limit in candidate order: the roots'
   * cheapest first, then the others, each by (M, j); M * 65536 + j is
   * under 2^47 in size */
  for (int j = 0; j < W; j++)
    if (M[j] <= limit)
      keys[nq++] = (int64_t) M[j] * 65536 + j + (best[roots[j]] == j ? 0 : (int64_t) 1 << 50);
  sort_keys (keys, nq);

  /* the candidates, in rank order */
  for (int q = 0; q < nq && q < GCV_SEAM_FAST_SCAN && nc < GCV_SEAM_FAST_TRIES; q++) {
    int l, r;
    end[nc] = (int) (keys[q] & 0xffff);
    l = gcv_seam_fast_next_blocker (end, nc, nc, -1);
    r = gcv_seam_fast_next_blocker (end, nc, nc, 1);
    /* between two candidates of one tree: their paths merge, nothing
     * would fit between */
    if (l < 0 || r < 0 || roots[end[l]] != roots[end[r]])
      nc++;
  }

  /* the traces, in rank order; the first blockers are the nearest
   * lower-ranked candidates either side */
  for (k = 0; k < nc; k++) {
    FastCand *c = &cd[k];
    int16_t *p = ctx->cpath + (size_t) k * R;
    int x = end[k], i;
    int l = gcv_seam_fast_next_blocker (end, k, k, -1), r = gcv_seam_fast_next_blocker (end, k, k, 1);
    p[R - 1] = (int16_t) x;
    for (i = R - 1; i > 0; i--) {
      const int code = ctx->parent[w->stride * i + x];
      int lo, hi, t, y = 0;
      /* row i - 1's blockers: the nearest lower-ranked paths that reach it */
      while (l >= 0 && cd[l].top > i - 1)
        l = gcv_seam_fast_next_blocker (end, k, l, -1);
      while (r >= 0 && cd[r].top > i - 1)
        r = gcv_seam_fast_next_blocker (end, k, r, 1);
      lo = l >= 0 ? ctx->cpath[(size_t) l * R + i - 1] + 1 : 0;
      hi = r >= 0 ? ctx->cpath[(size_t) r * R + i - 1] - 1 : W - 1;
      for (t = 0; t < 3; t++) {
        y = x + gcv_seam_parent_step (code, t);
        if (y >= lo && y <= hi)
          break;
      }
      if (t == 3)
        break;                  /* squeezed out: the path ends at row i */
      x = y;
      p[i - 1] = (int16_t) x;
    }
    c->top = i;
    c->cost = i == 0 ? path_cost (w, p, forward) : 0;
  }

  /* the P cheapest whole ones within the limit ((cost, rank); the cost
   * is under 2^31 in size), then in column order */
  for (k = 0; k < nc; k++)
    if (cd[k].top == 0 && cd[k].cost <= limit)
      keys[n++] = (cd[k].cost + ((int64_t) 1 << 31)) << 8 | k;
  sort_keys (keys, n);
  n = imin (n, P);
  for (k = 0; k < n; k++)
    keys[k] = (int64_t) end[keys[k] & 0xff] << 8 | (keys[k] & 0xff);
  sort_keys (keys, n);
  for (k = 0; k < n; k++) {
    const int16_t *p = ctx->cpath + (size_t) (keys[k] & 0xff) * R;
    for (int i = 0; i < R; i++)
      ctx->seams[(size_t) i * n + k] = p[i];
  }
  return n;
}

/* Chooses the seams of one pass (at most P) and backtracks them into
 * ctx->seams (row i's columns at i * n + k, k in increasing end column).
 * Returns n. */
static int
find_seams (GcvSeamCpu *ctx, const Work *w, const int32_t *M, const int32_t *roots, int P, int forward)
{
  const int R = w->rows, W = w->w;
  int bj = 0;

  if (P > 1 && roots)
    return find_seams_fast (ctx, w, M, roots, P, forward);
  /* exact: the leftmost seam of least total energy */
  for (int j = 1; j < W; j++)
    if (M[j] < M[bj])
      bj = j;
  for (int i = R - 1; i >= 0; i--) {
    ctx->seams[i] = (int16_t) bj;
    if (i > 0)
      bj += ctx->parent[w->stride * i + bj];
  }
  return 1;
}

/* ---- removal ------------------------------------------------------------------------ */

static inline void
sort_row (int16_t *s, int n)
{
  /* seams never cross, so this is already sorted; insertion sort keeps it
   * cheap either way */
  for (int k = 1; k < n; k++) {
    int16_t v = s[k];
    int m = k - 1;
    while (m >= 0 && s[m] > v) {
      s[m + 1] = s[m];
      m--;
    }
    s[m + 1] = v;
  }
}

/* Row i of a removal: sorts its seam columns, marks them, and with
 * `compact` removes them (the segments between seam pixels move left). */
static inline void
remove_row (GcvSeamCpu *ctx, Work *w, int i, int n, int W, uint8_t *stage_mask, int stage_a, uint8_t *chosen,
    int compact)
{
  const size_t o = w->stride * i;
  int16_t *s = ctx->seams + (size_t) i * n;
  uint8_t *L = w->L + o;
  int16_t *col = w->col + o, *E = w->E + o;
  int k, dst;

  sort_row (s, n);
  for (k = 0; k < n; k++) {
    int c = col[s[k]];
    if (chosen) {
      chosen[o + c] = 1;
      c = w->step_src[o + c];
    }
    stage_mask[(size_t) stage_a * i + c] = 1;
  }
  if (!compact)
    return;
  dst = s[0];
  for (k = 0; k < n; k++) {
    int from = s[k] + 1, to = k + 1 < n ? s[k + 1] : W, len = to - from;
    if (len > 0) {
      memmove (L + dst, L + from, len);
      memmove (col + dst, col + from, sizeof (int16_t) * len);
      memmove (E + dst, E + from, sizeof (int16_t) * len);
      dst += len;
    }
  }
}

/* Row i's energy after a removal (w->w the new width): the kept pixels
 * that were left and right of seam pixel s[k], now at columns s[k] - k - 1
 * and s[k] - k.  Needs rows i - 1 .. i + 1 compacted. */
static inline void
update_row (GcvSeamCpu *ctx, Work *w, int i, int n, GcvSeamEnergy energy)
{
  const int16_t *s = ctx->seams + (size_t) i * n;
  int16_t *E = w->E + w->stride * i;

  for (int k = 0; k < n; k++) {
    int j0 = s[k] - k - 1, j1 = s[k] - k;
    if (j0 >= 0 && j0 < w->w)
      E[j0] = (int16_t) energy_at (w, energy, i, j0);
    if (j1 >= 0 && j1 < w->w)
      E[j1] = (int16_t) energy_at (w, energy, i, j1);
  }
}

/* Marks the n seams of ctx->seams and, when `compact`, removes them from
 * the working image; when `update` too, recomputes E beside them.  One
 * parallel region per pass (a pass is short, and a team's wake-up and join
 * is what costs on a busy machine): each thread takes a band of rows,
 * removes the seams there and updates the rows whose neighbours are in
 * its band; the two edge rows of each band are updated after the join.
 * Joins that keep thread 0 waiting turn the threads off for a while
 * (LATE_JOINS_MAX).
 * Returns the milliseconds the updates took (thread 0's share; profiling
 * on). */
static double
remove_seams (GcvSeamCpu *ctx, Work *w, int n, uint8_t *stage_mask, int stage_a, uint8_t *chosen,
    int compact, int update, GcvSeamEnergy energy, int nt)
{
  const int R = w->rows, W = w->w;
  const int upd = compact && update;
  const int pass_team = gcv_parallel_threads (nt, NS_PER_PASS_PIXEL * (double) R * W);
  const int par = pass_team > 1 && ctx->serial_frames == 0 && ctx->late_joins < LATE_JOINS_MAX;
  int bands = 1;
  double t_update = 0.0, t_start = par ? gcv_now_ms () : 0.0, t_band = 0.0;

  if (compact)
    w->w = W - n;
#pragma omp parallel num_threads(pass_team) if (par)
  {
    int t = 0, nth = 1, r0, r1;
    double t0 = 0.0, tb = 0.0;
#ifdef _OPENMP
    t = omp_get_thread_num ();
    nth = omp_get_num_threads ();
#endif
    if (t == 0 && par)
      tb = gcv_now_ms ();
    r0 = (int) ((long long) R * t / nth);
    r1 = (int) ((long long) R * (t + 1) / nth);
    for (int i = r0; i < r1; i++)
      remove_row (ctx, w, i, n, W, stage_mask, stage_a, chosen, compact);
    if (upd) {
      if (t == 0 && ctx->profiling)
        t0 = gcv_now_ms ();
      for (int i = r0 + 1; i < r1 - 1; i++)
        update_row (ctx, w, i, n, energy);
      if (t == 0 && ctx->profiling)
        t_update = gcv_now_ms () - t0;
    }
    if (t == 0) {
      bands = nth;
      if (par)
        t_band = gcv_now_ms () - tb;
    }
  }
  /* a join that kept thread 0 waiting longer than its own band took cost
   * more than the other threads saved */
  if (par && gcv_now_ms () - t_start > 2.0 * t_band + 0.05)
    ctx->late_joins++;
  if (upd) {
    double t0 = ctx->profiling ? gcv_now_ms () : 0.0;
    for (int b = 0; b < bands; b++) {
      int r0 = (int) ((long long) R * b / bands), r1 = (int) ((long long) R * (b + 1) / bands);
      if (r1 > r0)
        update_row (ctx, w, r0, n, energy);
      if (r1 - 1 > r0)
        update_row (ctx, w, r1 - 1, n, energy);
    }
    if (ctx->profiling)
      t_update += gcv_now_ms () - t0;
  }
  return t_update;
}

/* ---- stages --------------------------------------------------------------------------- */

/* Passes on w until `want` seams are found; the last pass compacts only
 * when compact_last.  Returns with w->w the final width. */
static void
run_passes (GcvSeamCpu *ctx, Work *w, int want, const GcvSeamParams *params, uint8_t *stage_mask,
    int stage_a, uint8_t *chosen, int compact_last, int nt)
{
  const int forward = params->energy == GCV_SEAM_ENERGY_FORWARD;
  GcvSeamProfile *pr = &ctx->prof;
  int found = 0;

  while (found < want) {
    const int P = gcv_seam_pass_size (params, want - found);
    const int32_t *M, *roots = NULL;
    double t0 = 0, t1 = 0, t2 = 0, t_update;
    int n, last;

    if (ctx->profiling)
      t0 = gcv_now_ms ();
    if (gcv_cancel_requested (ctx->cancel))
      return;
    M = ctx->seam_map (ctx, w, forward, P > 1, &roots);
    if (gcv_cancel_requested (ctx->cancel))
      return;
    if (ctx->profiling)
      t1 = gcv_now_ms ();
    n = find_seams (ctx, w, M, P > 1 ? roots : NULL, P, forward);
    if (ctx->profiling)
      t2 = gcv_now_ms ();
    found += n;
    last = found >= want;
    t_update = remove_seams (ctx, w, n, stage_mask, stage_a, chosen, !last || compact_last, !last,
        params->energy, nt);
    if (ctx->profiling) {
      pr->seam_map_ms += t1 - t0;
      pr->backtrack_ms += t2 - t1;
      pr->energy_ms += t_update;
      pr->carve_ms += gcv_now_ms () - t2 - t_update;
      pr->passes++;
      pr->seams += n;
    }
  }
}

/* Writes one enlargement step's output over its input (px, luma, src of
 * R x w), after each chosen column c a new pixel, the rounded mean of c
 * and min (c + 1, w - 1). */
static void
insert_seams (GcvSeamCpu *ctx, const Stage *s, uint8_t *px, uint8_t *luma, int16_t *src, int w, int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;
  const int nb = ctx->nb, R = s->rows;
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) R * w)) schedule(static)
  for (i = 0; i < R; i++) {
    const size_t o = s->stride * i;
    const uint8_t *ch = ctx->chosen + o;
    uint8_t *P = px + o * nb, *L = luma + o;
    int16_t *S = src + o;
    int n = 0, c, at;
    uint8_t mean[GCV_SEAM_MAX_PLANES * GCV_SEAM_MAX_CHANNELS];

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (c = 0; c < w; c++)
      n += ch[c];
    at = w + n - 1;
    for (c = w - 1; c >= 0 && at > c; c--) {
      if (ch[c]) {
        const uint8_t *p0 = P + (size_t) c * nb, *p1 = P + (size_t) imin (c + 1, w - 1) * nb;
        for (int b = 0; b < nb; b++)
          mean[b] = (uint8_t) ((p0[b] + p1[b] + 1) >> 1);
        memcpy (P + (size_t) at * nb, mean, nb);
        L[at] = (uint8_t) luma_of (g, mean);
        S[at] = S[c];
        at--;
      }
      memmove (P + (size_t) at * nb, P + (size_t) c * nb, nb);
      L[at] = L[c];
      S[at] = S[c];
      at--;
    }
  }
}

/* a[i][j] = j (rows s->stride apart) and the stage's mask (rows s->a
 * apart) cleared. */
static void
identity_rows (const GcvSeamCpu *ctx, int16_t *a, uint8_t *mask, const Stage *s, int w, int nt)
{
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) s->rows * w)) schedule(static)
  for (i = 0; i < s->rows; i++) {
    int16_t *r = a + s->stride * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (int j = 0; j < w; j++)
      r[j] = (int16_t) j;
    memset (mask + (size_t) s->a * i, 0, s->a);
  }
}

/* Runs stage k on its prepared input (luma[k], bias; px[pxi] when it
 * enlarges).  Its output: luma[k] and src[k] (R x b), px[pxi] when it
 * enlarges; its mask in prev_mask[dir]. */
static void
run_stage (GcvSeamCpu *ctx, int k, const Stage *s, const GcvSeamParams *params, int pxi, int nt)
{
  uint8_t *mask = ctx->prev_mask[s->dir];
  GcvSeamProfile *pr = &ctx->prof;
  double t0 = ctx->profiling ? gcv_now_ms () : 0.0;
  Work w;

  identity_rows (ctx, ctx->src[k], mask, s, s->a, nt);
  w.bias = ctx->bias;
  w.rows = s->rows;
  w.stride = s->stride;

  if (s->b < s->a) {
    w.L = ctx->luma[k];
    w.col = ctx->src[k];
    w.E = ctx->energy;
    w.step_src = NULL;
    w.w = s->a;
    energy_full (ctx, &w, params->energy, 1, nt);
    if (ctx->profiling)
      pr->energy_ms += gcv_now_ms () - t0;
    run_passes (ctx, &w, s->a - s->b, params, mask, s->a, NULL, 1, nt);
    return;
  }
  if (ctx->profiling)
    pr->energy_ms += gcv_now_ms () - t0;

  for (int width = s->a; width < s->b;) {
    const int n = gcv_seam_insert_step (width, s->b - width);
    int i;
    double t1 = ctx->profiling ? gcv_now_ms () : 0.0;

    /* a copy of the step input to find the n seams on */
#pragma omp parallel for num_threads(team (nt, (size_t) s->rows * width)) schedule(static)
    for (i = 0; i < s->rows; i++) {
      const size_t o = s->stride * i;

      if (gcv_cancel_requested (ctx->cancel))
        continue;
      memcpy (ctx->wluma + o, ctx->luma[k] + o, width);
      memset (ctx->chosen + o, 0, width);
      for (int j = 0; j < width; j++)
        ctx->idx[o + j] = (int16_t) j;
    }
    w.L = ctx->wluma;
    w.col = ctx->idx;
    w.E = ctx->energy;
    w.step_src = ctx->src[k];
    w.w = width;
    energy_full (ctx, &w, params->energy, 1, nt);
    if (ctx->profiling)
      pr->energy_ms += gcv_now_ms () - t1;
    run_passes (ctx, &w, n, params, mask, s->a, ctx->chosen, 0, nt);
    /* stopped: the step's seams are not all chosen */
    if (gcv_cancel_requested (ctx->cancel))
      return;

    t1 = ctx->profiling ? gcv_now_ms () : 0.0;
    insert_seams (ctx, s, ctx->px[pxi], ctx->luma[k], ctx->src[k], width, nt);
    if (ctx->profiling)
      pr->carve_ms += gcv_now_ms () - t1;
    width += n;
  }
}

/* ---- outputs ------------------------------------------------------------------------------ */

/* Packed pixels (rows x cols, stride in pixels) into the output planes,
 * transposed first (into `tmp`) when `transposed`. */
static void
emit_px (GcvSeamCpu *ctx, const uint8_t *px, size_t stride, int transposed, uint8_t *tmp, GcvPlane *out,
    int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;
  const int W = g->out_width, H = g->out_height, ch = g->channels, nb = ctx->nb;
  int y;

  if (transposed) {
    transpose_px (px, stride, tmp, W, W, H, nb, nt, ctx->cancel);
    px = tmp;
    stride = W;
  }
#pragma omp parallel for num_threads(team (nt, (size_t) W * H * nb)) schedule(static)
  for (y = 0; y < H; y++) {
    const uint8_t *s = px + stride * y * nb;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (int p = 0; p < g->n_planes; p++) {
      uint8_t *d = (uint8_t *) out[p].data + out[p].stride * y;
      if (nb == ch) {
        memcpy (d, s, (size_t) W * ch);
      } else {
        for (int x = 0; x < W; x++)
          copy_elem (d + (size_t) x * ch, s + (size_t) x * nb + p * ch, (size_t) ch);
      }
    }
  }
}

/* Packed stage-orientation pixels: dst[i][j] = frame pixel at stage-0
 * input (i, src0[i][j]), for R x w. */
static void
gather_frame_px (GcvSeamCpu *ctx, const Stage *s0, const GcvPlane *in, const int16_t *src, int w,
    uint8_t *dst, int nt)
{
  const int nb = ctx->nb;
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) s0->rows * w)) schedule(static)
  for (i = 0; i < s0->rows; i++) {
    const size_t o = s0->stride * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (int j = 0; j < w; j++) {
      int x, y;
      stage0_xy (s0, i, src ? src[o + j] : j, &x, &y);
      pack_px (ctx, in, x, y, dst + (o + j) * nb);
    }
  }
}

/* Packed pixels gathered through a stage's src: dst[i][j] = srcpx[i][src[i][j]]. */
static void
gather_px (GcvSeamCpu *ctx, const Stage *s, const uint8_t *srcpx, const int16_t *src, uint8_t *dst,
    int nt)
{
  const int nb = ctx->nb;
  int i;

#pragma omp parallel for num_threads(team (nt, (size_t) s->rows * s->b)) schedule(static)
  for (i = 0; i < s->rows; i++) {
    const size_t o = s->stride * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (int j = 0; j < s->b; j++)
      copy_elem (dst + (o + j) * nb, srcpx + (o + src[o + j]) * nb, (size_t) nb);
  }
}

/* The output when no stage enlarges: each output pixel's frame
 * coordinates through the src maps (transposed where a height stage's map
 * is read across its rows), all planes copied from the input. */
static void
gather_reduced (GcvSeamCpu *ctx, const Stage *st, int ns, const GcvPlane *in, GcvPlane *out, int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;
  const int W = g->out_width, H = g->out_height, ch = g->channels;
  const int16_t *S0 = ctx->src[0], *S1 = ctx->src[1], *T = ctx->map;
  int y;

  /* ns == 1, height: T = S0^T (H x W); W then H: T = S1^T (H x W);
   * H then W: T = S0^T (H x in_width) */
  if (ns == 1 && st[0].dir == DIR_HEIGHT)
    transpose_i16 (S0, st[0].stride, ctx->map, W, st[0].rows, st[0].b, nt, ctx->cancel);
  else if (ns == 2 && st[0].dir == DIR_WIDTH)
    transpose_i16 (S1, st[1].stride, ctx->map, W, st[1].rows, st[1].b, nt, ctx->cancel);
  else if (ns == 2)
    transpose_i16 (S0, st[0].stride, ctx->map, g->in_width, st[0].rows, st[0].b, nt, ctx->cancel);

#pragma omp parallel for num_threads(team (nt, (size_t) W * H)) schedule(static)
  for (y = 0; y < H; y++) {
    /* the frame column and row of each output pixel of this row, case by
     * case (loop-invariant, so the branch stays out of the pixel loop) */
    const int16_t *sx = NULL, *sy = NULL;
    int mode;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (ns == 1 && st[0].dir == DIR_WIDTH) {
      mode = 0;                 /* fx = S0[y][x], fy = y */
      sx = S0 + st[0].stride * y;
    } else if (ns == 1) {
      mode = 1;                 /* fx = x, fy = T[y][x] */
      sy = T + (size_t) W * y;
    } else if (st[0].dir == DIR_WIDTH) {
      mode = 2;                 /* fy = T[y][x], fx = S0[fy][x] */
      sy = T + (size_t) W * y;
    } else {
      mode = 3;                 /* fx = S1[y][x], fy = T[y][fx] */
      sx = S1 + st[1].stride * y;
      sy = T + (size_t) g->in_width * y;
    }
    for (int p = 0; p < g->n_planes; p++) {
      uint8_t *d = (uint8_t *) out[p].data + out[p].stride * y;
      const uint8_t *base = in[p].data;
      const size_t is = in[p].stride;
      for (int x = 0; x < W; x++) {
        int fx, fy;
        switch (mode) {
          case 0:
            fx = sx[x];
            fy = y;
            break;
          case 1:
            fx = x;
            fy = sy[x];
            break;
          case 2:
            fy = sy[x];
            fx = S0[st[0].stride * fy + x];
            break;
          default:
            fx = sx[x];
            fy = sy[fx];
            break;
        }
        if (ch == 1)
          d[x] = base[is * fy + fx];
        else
          memcpy (d + (size_t) x * 4, base + is * fy + (size_t) fx * 4, 4);
      }
    }
  }
}

/* The seam mask in input coordinates from the stage masks (see the file
 * comment); built in stage-0 orientation (K), transposed when stage 0 is
 * a height stage. */
static void
build_mask (GcvSeamCpu *ctx, const Stage *st, int ns, GcvPlane *mask, int nt)
{
  const GcvSeamGeometry *g = &ctx->geom;
  const Stage *s0 = &st[0];
  uint8_t *K;
  size_t ks;
  uint8_t bit0, bit1;
  const uint8_t *M0, *M1T = ctx->scratch;
  int i;

  if (ns == 0) {
    for (i = 0; i < g->in_height; i++)
      memset ((uint8_t *) mask->data + mask->stride * i, 0, g->in_width);
    return;
  }
  bit0 = s0->dir == DIR_WIDTH ? GCV_SEAM_MASK_WIDTH : GCV_SEAM_MASK_HEIGHT;
  bit1 = s0->dir == DIR_WIDTH ? GCV_SEAM_MASK_HEIGHT : GCV_SEAM_MASK_WIDTH;
  if (s0->dir == DIR_WIDTH) {
    K = mask->data;
    ks = mask->stride;
  } else {
    K = (uint8_t *) ctx->parent;        /* free at the end of a frame */
    ks = s0->a;
  }
  M0 = ctx->prev_mask[s0->dir];
  if (ns == 2)                  /* stage 1's mask, R1 x a1 = b0 x R0, turned to R0 x b0 */
    transpose_u8 (ctx->prev_mask[st[1].dir], st[1].a, ctx->scratch, s0->b, st[1].rows, st[1].a, nt,
        ctx->cancel);

#pragma omp parallel for num_threads(team (nt, (size_t) s0->rows * s0->a)) schedule(static)
  for (i = 0; i < s0->rows; i++) {
    uint8_t *k = K + ks * i;
    const uint8_t *m = M0 + (size_t) s0->a * i;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (int c = 0; c < s0->a; c++)
      k[c] = m[c] ? bit0 : 0;
    if (ns == 2) {
      const uint8_t *m1 = M1T + (size_t) s0->b * i;
      const int16_t *S0 = ctx->src[0] + s0->stride * i;
      for (int r = 0; r < s0->b; r++)
        if (m1[r])
          k[S0[r]] |= bit1;
    }
  }
  if (s0->dir == DIR_HEIGHT)
    transpose_u8 (K, ks, mask->data, mask->stride, s0->rows, s0->a, nt, ctx->cancel);
}

/* ---- the API ---------------------------------------------------------------------------- */

void
gcv_seam_cpu_free (GcvSeamCpu *ctx)
{
  if (ctx == NULL)
    return;
  for (int k = 0; k < 2; k++) {
    free (ctx->luma[k]);
    free (ctx->src[k]);
    free (ctx->prev_mask[k]);
    free (ctx->px[k]);
  }
  free (ctx->energy);
  free (ctx->bias);
  free (ctx->parent);
  free (ctx->alpha);
  free (ctx->scratch);
  free (ctx->map);
  free (ctx->wluma);
  free (ctx->idx);
  free (ctx->chosen);
  free (ctx->mrow);
  free (ctx->root);
  free (ctx->cpath);
  free (ctx->best);
  free (ctx->keys);
  free (ctx->seams);
  free (ctx);
}

/* The stages of `order` (0, 1 or 2). */
static int
plan_stages (const GcvSeamGeometry *g, GcvSeamOrder order, Stage *st)
{
  int ns = 0, w = g->in_width, h = g->in_height;

  for (int pass = 0; pass < 2; pass++) {
    int dir = (pass == 0) == (order == GCV_SEAM_ORDER_WIDTH_FIRST) ? DIR_WIDTH : DIR_HEIGHT;
    Stage *s = &st[ns];
    if (dir == DIR_WIDTH && g->out_width != w) {
      s->dir = DIR_WIDTH;
      s->rows = h;
      s->a = w;
      s->b = g->out_width;
      w = g->out_width;
    } else if (dir == DIR_HEIGHT && g->out_height != h) {
      s->dir = DIR_HEIGHT;
      s->rows = w;
      s->a = h;
      s->b = g->out_height;
      h = g->out_height;
    } else {
      continue;
    }
    s->stride = (size_t) imax (s->a, s->b);
    ns++;
  }
  return ns;
}

GcvSeamCpu *
gcv_seam_cpu_new (const GcvSeamGeometry *geom, GcvError *err)
{
  const char *why = gcv_seam_geometry_check (geom);
  GcvSeamCpu *ctx;
  int ns = 0, has_alpha, Wm, Hm, ok;
  size_t cap, seam_cap = 0;
  Stage st[2];

  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s", why);
    return NULL;
  }
  ctx = calloc (1, sizeof (*ctx));
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "seamcarve: no memory for a context");
    return NULL;
  }
  ctx->geom = *geom;
  ctx->seam_map = choose_seam_map ();
  ctx->nb = geom->n_planes * geom->channels;
  ctx->can_grow = geom->out_width > geom->in_width || geom->out_height > geom->in_height;
  has_alpha = geom->alpha_channel >= 0;
  Wm = imax (geom->in_width, geom->out_width);
  Hm = imax (geom->in_height, geom->out_height);
  ctx->cap = cap = (size_t) Wm * Hm;

  /* the largest rows, widths and seam buffer of either order */
  for (int order = 0; order < 2; order++) {
    int n = plan_stages (geom, order, st);
    ns = imax (ns, n);
    for (int k = 0; k < n; k++) {
      size_t pc = (size_t) imin (GCV_SEAM_FAST_TRIES, (int) st[k].stride);
      ctx->max_w = imax (ctx->max_w, (int) st[k].stride);
      seam_cap = seam_cap > st[k].rows * pc ? seam_cap : st[k].rows * pc;
    }
  }
  ctx->max_w = imax (ctx->max_w, 1);

  ok = 1;
  if (ns > 0) {
    ctx->luma[0] = malloc (cap);
    ctx->src[0] = malloc (cap * sizeof (int16_t));
    ctx->energy = malloc (cap * sizeof (int16_t));
    ctx->bias = malloc (cap * sizeof (int16_t));
    ctx->parent = malloc (cap);
    ctx->scratch = malloc (cap);
    ctx->map = malloc (cap * sizeof (int16_t));
    ctx->mrow = malloc (2 * sizeof (int32_t) * ctx->max_w);
    ctx->root = malloc (2 * sizeof (int32_t) * ctx->max_w);
    ctx->cpath = malloc (sizeof (int16_t) * GCV_SEAM_FAST_TRIES * imax (Wm, Hm));
    ctx->best = malloc (sizeof (int32_t) * ctx->max_w);
    ctx->keys = malloc (sizeof (int64_t) * ctx->max_w);
    ctx->seams = malloc (seam_cap * sizeof (int16_t));
    ok = ctx->luma[0] && ctx->src[0] && ctx->energy && ctx->bias && ctx->parent && ctx->scratch
        && ctx->map && ctx->mrow && ctx->root && ctx->cpath && ctx->best && ctx->keys && ctx->seams;
    if (geom->in_width != geom->out_width)
      ok = ok && (ctx->prev_mask[DIR_WIDTH] = malloc (cap)) != NULL;
    if (geom->in_height != geom->out_height)
      ok = ok && (ctx->prev_mask[DIR_HEIGHT] = malloc (cap)) != NULL;
    if (ns == 2) {
      ctx->luma[1] = malloc (cap);
      ctx->src[1] = malloc (cap * sizeof (int16_t));
      ok = ok && ctx->luma[1] && ctx->src[1];
    }
    if (has_alpha)
      ok = ok && (ctx->alpha = malloc (cap)) != NULL;
    if (ctx->can_grow) {
      ctx->wluma = malloc (cap);
      ctx->idx = malloc (cap * sizeof (int16_t));
      ctx->chosen = malloc (cap);
      ctx->px[0] = malloc (cap * ctx->nb);
      ctx->px[1] = malloc (cap * ctx->nb);
      ok = ok && ctx->wluma && ctx->idx && ctx->chosen && ctx->px[0] && ctx->px[1];
    }
  }
  if (!ok) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "seamcarve: no memory for the working images of "
        "%dx%d -> %dx%d (%zu bytes per pixel of %dx%d)", geom->in_width, geom->in_height,
        geom->out_width, geom->out_height, (size_t) 18 + 2 * ctx->nb, Wm, Hm);
    gcv_seam_cpu_free (ctx);
    return NULL;
  }
  return ctx;
}

static GcvStatus
plane_check (const GcvPlane *p, int w, int h, int ch, const char *what, int i, GcvError *err)
{
  if (!p->data) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s plane %d has no data", what, i);
    return GCV_ERROR_INVALID;
  }
  if (p->width != w || p->height != h) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s plane %d is %dx%d, the context was made "
        "for %dx%d", what, i, p->width, p->height, w, h);
    return GCV_ERROR_INVALID;
  }
  if (p->stride < (size_t) w * ch) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s plane %d stride %zu is under %zu bytes "
        "(%d pixels of %d)", what, i, p->stride, (size_t) w * ch, w, ch);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

GcvStatus
gcv_seam_cpu_process (GcvSeamCpu *ctx, const GcvSeamParams *params, const GcvPlane *in,
    GcvPlane *out, GcvPlane *mask, int n_threads, GcvError *err)
{
  const GcvSeamGeometry *g;
  const char *why = gcv_seam_params_check (params);
  int nt, ns, T, use_prev, use_alpha, p, k, pxi = 0;
  Stage st[2];
  double t0;

  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: no context");
    return GCV_ERROR_INVALID;
  }
  g = &ctx->geom;
  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (!in) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: no input planes");
    return GCV_ERROR_INVALID;
  }
  if (!out && !mask) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: neither output planes nor a mask asked for");
    return GCV_ERROR_INVALID;
  }
  for (p = 0; p < g->n_planes; p++) {
    if (plane_check (&in[p], g->in_width, g->in_height, g->channels, "input", p, err) != GCV_OK)
      return GCV_ERROR_INVALID;
    if (out && plane_check (&out[p], g->out_width, g->out_height, g->channels, "output", p,
            err) != GCV_OK)
      return GCV_ERROR_INVALID;
  }
  if (mask && plane_check (mask, g->in_width, g->in_height, 1, "mask", 0, err) != GCV_OK)
    return GCV_ERROR_INVALID;

  nt = n_threads;
  memset (&ctx->prof, 0, sizeof (ctx->prof));
  ctx->late_joins = 0;
  if (ctx->serial_frames > 0)
    ctx->serial_frames--;
  ns = plan_stages (g, params->order, st);
  T = gcv_seam_temporal_weight (params->temporal_coherence);
  use_prev = ctx->have_prev && ctx->prev_order == params->order && T > 0;
  use_alpha = params->mask_alpha && g->alpha_channel >= 0;

  for (k = 0; k < ns; k++) {
    const Stage *s = &st[k];
    const int grows = s->b > s->a;
    const uint8_t *alpha = NULL;
    double px_ms = 0.0;

    t0 = ctx->profiling ? gcv_now_ms () : 0.0;
    if (k == 0) {
      stage0_channel (ctx, s, in, 0, ctx->luma[0], nt);
      if (use_alpha) {
        stage0_channel (ctx, s, in, 1, ctx->alpha, nt);
        alpha = ctx->alpha;
      }
    } else {
      const Stage *s0 = &st[0];
      /* stage 1's input is stage 0's output turned over */
      transpose_u8 (ctx->luma[0], s0->stride, ctx->luma[1], s->stride, s0->rows, s0->b, nt, ctx->cancel);
      if (s0->b > s0->a || grows) {
        /* packed pixels: from stage 0's (it enlarged), or gathered from
         * the frame through src[0] */
        double t1 = ctx->profiling ? gcv_now_ms () : 0.0;
        if (s0->b < s0->a)
          gather_frame_px (ctx, s0, in, ctx->src[0], s0->b, ctx->px[pxi], nt);
        transpose_px (ctx->px[pxi], s0->stride, ctx->px[pxi ^ 1], s->stride, s0->rows, s0->b, ctx->nb,
            nt, ctx->cancel);
        pxi ^= 1;
        if (ctx->profiling)
          px_ms += gcv_now_ms () - t1;
        if (use_alpha) {
          int i;
#pragma omp parallel for num_threads(team (nt, (size_t) s->rows * s->a)) schedule(static)
          for (i = 0; i < s->rows; i++) {
            const uint8_t *q = ctx->px[pxi] + s->stride * i * ctx->nb + g->alpha_channel;
            uint8_t *A = ctx->alpha + s->stride * i;

            if (gcv_cancel_requested (ctx->cancel))
              continue;
            for (int c = 0; c < s->a; c++)
              A[c] = q[(size_t) c * ctx->nb];
          }
        }
      } else if (use_alpha) {
        /* stage 0's alpha through src[0], then turned over */
        int i;
#pragma omp parallel for num_threads(team (nt, (size_t) s0->rows * s0->b)) schedule(static)
        for (i = 0; i < s0->rows; i++) {
          const uint8_t *A = ctx->alpha + s0->stride * i;
          const int16_t *S = ctx->src[0] + s0->stride * i;
          uint8_t *d = ctx->scratch + (size_t) s0->b * i;

          if (gcv_cancel_requested (ctx->cancel))
            continue;
          for (int j = 0; j < s0->b; j++)
            d[j] = A[S[j]];
        }
        transpose_u8 (ctx->scratch, s0->b, ctx->alpha, s->stride, s0->rows, s0->b, nt, ctx->cancel);
      }
      if (use_alpha)
        alpha = ctx->alpha;
    }
    if (k == 0 && grows) {
      double t1 = ctx->profiling ? gcv_now_ms () : 0.0;
      if (s->dir == DIR_WIDTH) {
        gather_frame_px (ctx, s, in, NULL, s->a, ctx->px[pxi], nt);
      } else {
        /* normal orientation (rows of in_width pixels) in px[1], turned over into px[0] */
        Stage n = { DIR_WIDTH, g->in_height, g->in_width, g->in_width, (size_t) g->in_width };
        gather_frame_px (ctx, &n, in, NULL, g->in_width, ctx->px[1], nt);
        transpose_px (ctx->px[1], g->in_width, ctx->px[0], s->stride, g->in_height, g->in_width,
            ctx->nb, nt, ctx->cancel);
      }
      if (ctx->profiling)
        px_ms += gcv_now_ms () - t1;
    }
    compute_bias (ctx, s, alpha, use_prev ? ctx->prev_mask[s->dir] : NULL, T, nt);
    if (ctx->profiling) {
      /* packing pixels is carving's; luma, alpha and bias are energy's */
      ctx->prof.carve_ms += px_ms;
      ctx->prof.energy_ms += gcv_now_ms () - t0 - px_ms;
    }
    run_stage (ctx, k, s, params, pxi, nt);
    if (gcv_cancel_requested (ctx->cancel)) {
      /* the seams of this frame are not whole: the next one starts afresh */
      ctx->have_prev = 0;
      return gcv_cancel_check (ctx->cancel, "seamcarve", err);
    }
  }

  t0 = ctx->profiling ? gcv_now_ms () : 0.0;
  if (out) {
    const int enlarged = (ns >= 1 && st[0].b > st[0].a) || (ns == 2 && st[1].b > st[1].a);
    if (ns == 0) {
      for (p = 0; p < g->n_planes; p++)
        for (int y = 0; y < g->in_height; y++)
          memcpy ((uint8_t *) out[p].data + out[p].stride * y,
              (const uint8_t *) in[p].data + in[p].stride * y, (size_t) g->in_width * g->channels);
    } else if (!enlarged) {
      gather_reduced (ctx, st, ns, in, out, nt);
    } else {
      const Stage *sl = &st[ns - 1];
      if (sl->b < sl->a) {
        /* a reduction after an enlargement: its input's pixels are in px[pxi] */
        gather_px (ctx, sl, ctx->px[pxi], ctx->src[ns - 1], ctx->px[pxi ^ 1], nt);
        pxi ^= 1;
      }
      emit_px (ctx, ctx->px[pxi], sl->stride, sl->dir == DIR_HEIGHT, ctx->px[pxi ^ 1], out, nt);
    }
  }
  if (mask)
    build_mask (ctx, st, ns, mask, nt);
  if (ctx->profiling)
    ctx->prof.carve_ms += gcv_now_ms () - t0;

  if (ctx->late_joins >= LATE_JOINS_MAX)
    ctx->serial_frames = SERIAL_FRAMES;
  ctx->have_prev = 1;
  ctx->prev_order = params->order;
  return GCV_OK;
}

void
gcv_seam_cpu_reset (GcvSeamCpu *ctx)
{
  if (ctx)
    ctx->have_prev = 0;
}

void
gcv_seam_cpu_set_cancel (GcvSeamCpu *ctx, const GcvCancel *cancel)
{
  ctx->cancel = cancel;
}

void
gcv_seam_cpu_set_profiling (GcvSeamCpu *ctx, int on)
{
  if (ctx)
    ctx->profiling = on != 0;
}

void
gcv_seam_cpu_profile (const GcvSeamCpu *ctx, GcvSeamProfile *profile)
{
  if (ctx && profile)
    *profile = ctx->prof;
}
