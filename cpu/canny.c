/* gst-cuda-video: Canny edge detection, CPU backend (reference and fallback).
 *
 * The frame is cut into horizontal strips, one per thread (OpenMP).  Each
 * pass streams rows through small per-strip ring buffers so that the inner
 * loops are plain loops over x that the compiler vectorises:
 *   1. luma      (only for GRAY16 / packed RGB input)   -> ctx->luma
 *   2. blur      H pass into a ring of 2r+1 uint16 rows, V pass -> ctx->blurred
 *   3. gradient  Sobel dx, dy and magnitude into 3-row rings, NMS -> ctx->map
 *                (0 none, 1 weak, 2 strong; 1-pixel zero border), strong
 *                pixels pushed on the strip's part of ctx->stack
 *   4. hysteresis  one sequential flood fill from all strong pixels (exact:
 *                no iteration cap), then a parallel pass writing 255 / 0.
 * The definitions (rounding, borders, tie rules) are in canny.h; the CUDA
 * backend implements the same integer arithmetic.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "canny.h"
#include "depth.h"
#include "gcv-parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define TG22 13573              /* tan(22.5 deg) in 1.15 fixed point, as OpenCV */
/* One core's time per pixel of a frame (edges, GRAY8 1080p: 19 ns on
 * noise, about half that on photos): what the strips' team is sized by. */
#define NS_PER_PIXEL 10.0
/* Pixels the flood fill visits between two looks at the stop request. */
#define FLOOD_CHECK_EVERY 65536

const char *
gcv_canny_params_check (const GcvCannyParams * p)
{
  if (!(p->low_threshold >= 0.0))
    return "low-threshold must be >= 0";
  if (!(p->high_threshold >= p->low_threshold))
    return "high-threshold must be >= low-threshold";
  if (p->blur_size != 0 && p->blur_size != 3 && p->blur_size != 5 && p->blur_size != 7)
    return "blur-size must be 0 (off), 3, 5 or 7";
  if (!(p->blur_sigma >= 0.0 && p->blur_sigma <= 100.0))
    return "blur-sigma must be in [0, 100] (0 = derived from blur-size)";
  if (p->output != GCV_CANNY_OUTPUT_EDGES && p->output != GCV_CANNY_OUTPUT_MAGNITUDE)
    return "unknown output mode";
  return NULL;
}

int
gcv_canny_blur_weights (const GcvCannyParams * p, int w[GCV_CANNY_MAX_BLUR_SIZE])
{
  int n = p->blur_size, r = n / 2, i, isum = 0;
  double g[GCV_CANNY_MAX_BLUR_SIZE], sum = 0.0, sigma;

  memset (w, 0, sizeof (int) * GCV_CANNY_MAX_BLUR_SIZE);
  if (n <= 1)
    return 0;
  if (p->blur_sigma <= 0.0) {
    /* sigma 0: cv::getGaussianKernel's fixed binomial tables for sizes <= 7,
     * exact in 8-bit fixed point, so the blur equals cv::GaussianBlur's */
    static const int table[3][GCV_CANNY_MAX_BLUR_SIZE] = {
      {64, 128, 64}, {16, 64, 96, 64, 16}, {8, 28, 56, 72, 56, 28, 8},
    };
    memcpy (w, table[r - 1], sizeof (int) * n);
    return r;
  }
  sigma = p->blur_sigma;
  for (i = 0; i < n; i++) {
    g[i] = exp (-((double) (i - r) * (i - r)) / (2.0 * sigma * sigma));
    sum += g[i];
  }
  for (i = 0; i < n; i++) {
    w[i] = (int) floor (g[i] / sum * GCV_CANNY_BLUR_WEIGHT_SUM + 0.5);
    isum += w[i];
  }
  /* the centre absorbs the rounding so the sum is exact and symmetry kept */
  w[r] += GCV_CANNY_BLUR_WEIGHT_SUM - isum;
  return r;
}

void
gcv_canny_int_thresholds (const GcvCannyParams * p, int32_t * low, int32_t * high)
{
  double lo = p->low_threshold, hi = p->high_threshold;

  if (p->l2_gradient) {
    /* L2 magnitudes are compared squared, as cv::Canny does */
    lo = fmin (32767.0, lo);
    hi = fmin (32767.0, hi);
    if (lo > 0)
      lo *= lo;
    if (hi > 0)
      hi *= hi;
  }
  lo = fmin (floor (lo), (double) INT32_MAX);
  hi = fmin (floor (hi), (double) INT32_MAX);
  *low = (int32_t) lo;
  *high = (int32_t) hi;
}

struct _GcvCannyCpu
{
  GcvLumaInput input;
  int width, height;
  int max_strips;
  const GcvCancel *cancel;
  uint8_t *luma;                /* width x height, packed; only for non-GRAY8 input */
  uint8_t *blurred;             /* width x height, packed */
  uint8_t *map;                 /* (width + 2) x (height + 2), zero border */
  int32_t *stack;               /* width x height map indices; strip s owns rows [y0, y1) */
  size_t *n_seeds;              /* per strip */
  /* per-strip scratch, max_strips copies of each */
  uint16_t *hrows;              /* 7 rows of width */
  uint32_t *acc;                /* width */
  int32_t *mag;                 /* 3 rows of width + 2, zero at both ends */
  int16_t *dx, *dy;             /* 3 rows of width */
};

void
gcv_canny_cpu_free (GcvCannyCpu * ctx)
{
  if (ctx == NULL)
    return;
  free (ctx->luma);
  free (ctx->blurred);
  free (ctx->map);
  free (ctx->stack);
  free (ctx->n_seeds);
  free (ctx->hrows);
  free (ctx->acc);
  free (ctx->mag);
  free (ctx->dx);
  free (ctx->dy);
  free (ctx);
}

GcvCannyCpu *
gcv_canny_cpu_new (GcvLumaInput input, int width, int height, GcvError * err)
{
  GcvCannyCpu *ctx;
  size_t w, h, s;

  if (width < 1 || height < 1 || width > GCV_CANNY_MAX_DIMENSION || height > GCV_CANNY_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: unsupported frame size %dx%d", width, height);
    return NULL;
  }
  ctx = calloc (1, sizeof (*ctx));
  if (ctx == NULL)
    goto no_memory;
  ctx->input = input;
  ctx->width = width;
  ctx->height = height;
#ifdef _OPENMP
  ctx->max_strips = omp_get_num_procs ();
#else
  ctx->max_strips = 1;
#endif
  if (ctx->max_strips < 1)
    ctx->max_strips = 1;
  w = width;
  h = height;
  s = ctx->max_strips;
  if (input.layout != GCV_LUMA_GRAY8 && !(ctx->luma = malloc (w * h)))
    goto no_memory;
  ctx->blurred = malloc (w * h);
  ctx->map = calloc ((w + 2) * (h + 2), 1);
  ctx->stack = malloc (w * h * sizeof (int32_t));
  ctx->n_seeds = calloc (s, sizeof (size_t));
  ctx->hrows = malloc (s * GCV_CANNY_MAX_BLUR_SIZE * w * sizeof (uint16_t));
  ctx->acc = malloc (s * w * sizeof (uint32_t));
  ctx->mag = calloc (s * 3 * (w + 2), sizeof (int32_t));
  ctx->dx = malloc (s * 3 * w * sizeof (int16_t));
  ctx->dy = malloc (s * 3 * w * sizeof (int16_t));
  if (!ctx->blurred || !ctx->map || !ctx->stack || !ctx->n_seeds || !ctx->hrows || !ctx->acc
      || !ctx->mag || !ctx->dx || !ctx->dy)
    goto no_memory;
  return ctx;

no_memory:
  gcv_canny_cpu_free (ctx);
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "canny: out of host memory for %dx%d working buffers",
      width, height);
  return NULL;
}

static inline int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* reflect-101 (cv::BORDER_REFLECT_101: ... 2 1 | 0 1 2 ... n-1 | n-2 ...),
 * valid for any offset */
static inline int
reflect101 (int i, int n)
{
  int period;

  if (n == 1)
    return 0;
  period = 2 * n - 2;
  i = abs (i) % period;
  return i >= n ? period - i : i;
}

static void
luma_rows (const GcvLumaInput * in, const GcvPlane * src, uint8_t * dst, int y0, int y1,
    const GcvCancel * cancel)
{
  int w = src->width, x, y;

  for (y = y0; y < y1 && !gcv_cancel_requested (cancel); y++) {
    const uint8_t *s = (const uint8_t *) src->data + (size_t) y * src->stride;
    uint8_t *d = dst + (size_t) y * w;
    if (in->layout == GCV_LUMA_GRAY16LE) {
      for (x = 0; x < w; x++) {
        d[x] = gcv_luma16_to_8 ((uint32_t) s[2 * x] | ((uint32_t) s[2 * x + 1] << 8));
      }
    } else {
      const uint8_t *r = s + in->r_offset, *g = s + in->g_offset, *b = s + in->b_offset;
      for (x = 0; x < w; x++)
        d[x] = (uint8_t) ((9798 * r[4 * x] + 19235 * g[4 * x] + 3735 * b[4 * x] + 16384) >> 15);
    }
  }
}

/* Horizontal blur of one input row (reflect-101 at both ends).  The sum is
 * at most 256 * 255 = 65280, so it accumulates in 16 bits (twice the SIMD
 * lanes of 32). */
static void
blur_h_row (const uint8_t * src, int w, int r, const int *wt, uint16_t * dst)
{
  int x, k;

  for (x = 0; x < w; x++)
    dst[x] = 0;
  for (k = -r; k <= r; k++) {
    uint16_t wk = (uint16_t) wt[k + r];
    int lo = clampi (-k, 0, w), hi = clampi (w - k, 0, w);
    /* interior: no reflection, vectorised */
    for (x = lo; x < hi; x++)
      dst[x] = (uint16_t) (dst[x] + wk * src[x + k]);
    for (x = 0; x < lo; x++)
      dst[x] = (uint16_t) (dst[x] + wk * src[reflect101 (x + k, w)]);
    for (x = hi > lo ? hi : lo; x < w; x++)
      dst[x] = (uint16_t) (dst[x] + wk * src[reflect101 (x + k, w)]);
  }
}

static void
blur_strip (const uint8_t * L, size_t ls, int w, int h, int r, const int *wt, uint8_t * B,
    uint16_t * ring, uint32_t * acc, int y0, int y1, const GcvCancel * cancel)
{
  const int K = 2 * r + 1;
  int y, v, k, x;

  /* ring slot of virtual row v (may be outside the image) is (v mod K) */
#define SLOT(v) (((v) % K + K) % K)
  for (v = y0 - r; v < y0 + r; v++)
    blur_h_row (L + (size_t) reflect101 (v, h) * ls, w, r, wt, ring + (size_t) SLOT (v) * w);
  for (y = y0; y < y1 && !gcv_cancel_requested (cancel); y++) {
    uint8_t *d = B + (size_t) y * w;
    v = y + r;
    blur_h_row (L + (size_t) reflect101 (v, h) * ls, w, r, wt, ring + (size_t) SLOT (v) * w);
    for (x = 0; x < w; x++)
      acc[x] = 1u << 15;
    for (k = -r; k <= r; k++) {
      const uint16_t *hr = ring + (size_t) SLOT (y + k) * w;
      uint32_t wk = (uint32_t) wt[k + r];
      for (x = 0; x < w; x++)
        acc[x] += wk * hr[x];
    }
    for (x = 0; x < w; x++)
      d[x] = (uint8_t) (acc[x] >> 16);
  }
#undef SLOT
}

/* Sobel dx, dy of image row y of B (replicated border). */
static void
sobel_row (const uint8_t * B, size_t bs, int w, int h, int y, int16_t * dx, int16_t * dy)
{
  const uint8_t *u = B + (size_t) clampi (y - 1, 0, h - 1) * bs;
  const uint8_t *c = B + (size_t) y * bs;
  const uint8_t *d = B + (size_t) clampi (y + 1, 0, h - 1) * bs;
  int x;

  for (x = 1; x < w - 1; x++) {
    dx[x] = (int16_t) ((u[x + 1] - u[x - 1]) + 2 * (c[x + 1] - c[x - 1]) + (d[x + 1] - d[x - 1]));
    dy[x] = (int16_t) ((d[x - 1] + 2 * d[x] + d[x + 1]) - (u[x - 1] + 2 * u[x] + u[x + 1]));
  }
  for (x = 0; x < w; x += (w > 1 ? w - 1 : 1)) {
    int xl = clampi (x - 1, 0, w - 1), xr = clampi (x + 1, 0, w - 1);
    dx[x] = (int16_t) ((u[xr] - u[xl]) + 2 * (c[xr] - c[xl]) + (d[xr] - d[xl]));
    dy[x] = (int16_t) ((d[xl] + 2 * d[x] + d[xr]) - (u[xl] + 2 * u[x] + u[xr]));
  }
}

static void
magnitude_row (const int16_t * dx, const int16_t * dy, int w, int l2, int32_t * m)
{
  int x;

  if (l2)
    for (x = 0; x < w; x++)
      m[x] = (int32_t) dx[x] * dx[x] + (int32_t) dy[x] * dy[x];
  else
    for (x = 0; x < w; x++)
      m[x] = abs (dx[x]) + abs (dy[x]);
}

static inline uint8_t
magnitude_u8 (int dx, int dy, int l2)
{
  int g;

  if (l2) {
    int m2 = dx * dx + dy * dy;
    g = (int) sqrtf ((float) m2);
    /* exact integer floor(sqrt): m2 < 2^22, the float is at most 1 off */
    while (g * g > m2)
      g--;
    while ((g + 1) * (g + 1) <= m2)
      g++;
  } else {
    g = abs (dx) + abs (dy);
  }
  g >>= 2;
  return (uint8_t) (g > 255 ? 255 : g);
}

/* NMS of row y; P, C, N: magnitude rows y-1, y, y+1 with one zero at both ends */
static size_t
nms_row (const int32_t * P, const int32_t * C, const int32_t * N, const int16_t * dx,
    const int16_t * dy, int w, int32_t low, int32_t high, uint8_t * map_row,
    int32_t map_index0, int32_t * seeds)
{
  size_t n = 0;
  int x;

  P++;
  C++;
  N++;
  for (x = 0; x < w; x++) {
    int32_t m = C[x];
    uint8_t cls = 0;
    if (m > low) {
      int xs = dx[x], ys = dy[x];
      int32_t ax = abs (xs), ay = abs (ys) << 15;
      int32_t tg22x = ax * TG22;
      int keep;
      if (ay < tg22x) {
        keep = m > C[x - 1] && m >= C[x + 1];
      } else if (ay > tg22x + (ax << 16)) {
        keep = m > P[x] && m >= N[x];
      } else {
        int s = (xs ^ ys) < 0 ? -1 : 1;
        keep = m > P[x - s] && m > N[x + s];
      }
      if (keep) {
        cls = m > high ? 2 : 1;
        if (cls == 2)
          seeds[n++] = map_index0 + x;
      }
    }
    map_row[x] = cls;
  }
  return n;
}

static void
gradient_strip (GcvCannyCpu * ctx, int strip, const uint8_t * B, size_t bs, int l2,
    int32_t low, int32_t high, GcvCannyOutput output, const GcvPlane * out, int y0, int y1)
{
  const int w = ctx->width, h = ctx->height, mw = w + 2;
  int16_t *dxr = ctx->dx + (size_t) strip * 3 * w, *dyr = ctx->dy + (size_t) strip * 3 * w;
  int32_t *mr = ctx->mag + (size_t) strip * 3 * mw;
  int32_t *seeds = ctx->stack + (size_t) y0 * w;
  size_t n_seeds = 0;
  int y, v, x;

  if (output == GCV_CANNY_OUTPUT_MAGNITUDE) {
    for (y = y0; y < y1 && !gcv_cancel_requested (ctx->cancel); y++) {
      uint8_t *o = (uint8_t *) out->data + (size_t) y * out->stride;
      sobel_row (B, bs, w, h, y, dxr, dyr);
      for (x = 0; x < w; x++)
        o[x] = magnitude_u8 (dxr[x], dyr[x], l2);
    }
    return;
  }

  /* rows v = y-1, y, y+1 live in slot (v + 3) % 3; rows outside the image
   * have magnitude 0 (mag slots are zero at both ends and stay so) */
#define SLOT(v) (((v) + 3) % 3)
  for (v = y0 - 1; v <= y0; v++) {
    int32_t *m = mr + (size_t) SLOT (v) * mw + 1;
    if (v < 0) {
      memset (m, 0, sizeof (int32_t) * w);
      continue;
    }
    sobel_row (B, bs, w, h, v, dxr + (size_t) SLOT (v) * w, dyr + (size_t) SLOT (v) * w);
    magnitude_row (dxr + (size_t) SLOT (v) * w, dyr + (size_t) SLOT (v) * w, w, l2, m);
  }
  for (y = y0; y < y1 && !gcv_cancel_requested (ctx->cancel); y++) {
    int32_t *mn = mr + (size_t) SLOT (y + 1) * mw + 1;
    if (y + 1 < h) {
      sobel_row (B, bs, w, h, y + 1, dxr + (size_t) SLOT (y + 1) * w, dyr + (size_t) SLOT (y + 1) * w);
      magnitude_row (dxr + (size_t) SLOT (y + 1) * w, dyr + (size_t) SLOT (y + 1) * w, w, l2, mn);
    } else {
      memset (mn, 0, sizeof (int32_t) * w);
    }
    n_seeds += nms_row (mr + (size_t) SLOT (y - 1) * mw, mr + (size_t) SLOT (y) * mw,
        mr + (size_t) SLOT (y + 1) * mw, dxr + (size_t) SLOT (y) * w, dyr + (size_t) SLOT (y) * w,
        w, low, high, ctx->map + (size_t) (y + 1) * mw + 1, (y + 1) * mw + 1, seeds + n_seeds);
  }
#undef SLOT
  ctx->n_seeds[strip] = n_seeds;
}

/* Flood from stack[0 .. top) through weak pixels, promoting them to 2; only
 * map indices in [lo, hi) are entered.  Every pixel enters the stack at
 * most once (as a seed, or when promoted), so the capacity of the region
 * [lo, hi) suffices.  Stops early (the map unfinished) on a stop request. */
static void
flood (uint8_t * map, int mw, int32_t * stack, size_t top, int32_t lo, int32_t hi, const GcvCancel * cancel)
{
  const int32_t off[8] = { -mw - 1, -mw, -mw + 1, -1, 1, mw - 1, mw, mw + 1 };
  unsigned visits = 0;
  int k;

  while (top > 0) {
    int32_t p = stack[--top];
    if (++visits % FLOOD_CHECK_EVERY == 0 && gcv_cancel_requested (cancel))
      return;
    for (k = 0; k < 8; k++) {
      int32_t q = p + off[k];
      if (q >= lo && q < hi && map[q] == 1) {
        map[q] = 2;
        stack[top++] = q;
      }
    }
  }
}

/* Exact hysteresis in two steps:
 *  1. each strip floods from its own strong pixels without leaving its rows
 *     (in parallel, on its own part of the stack);
 *  2. every weak pixel touching an edge pixel across a strip boundary seeds
 *     one unrestricted flood.  A path from a strong pixel that leaves its
 *     strip does so from a pixel step 1 already marked, so step 2 sees it. */
static void
hysteresis (GcvCannyCpu * ctx, int n_strips)
{
  const int w = ctx->width, h = ctx->height, mw = w + 2;
  uint8_t *map = ctx->map;
  int32_t *stack = ctx->stack;
  size_t top = 0;
  int s, x, d;

#pragma omp parallel for num_threads(n_strips) schedule(static) if (n_strips > 1)
  for (s = 0; s < n_strips; s++) {
    int y0 = (int) ((int64_t) s * h / n_strips), y1 = (int) ((int64_t) (s + 1) * h / n_strips);
    flood (map, mw, stack + (size_t) y0 * w, ctx->n_seeds[s], (y0 + 1) * mw, (y1 + 1) * mw, ctx->cancel);
  }
  if (gcv_cancel_requested (ctx->cancel))
    return;

  for (s = 1; s < n_strips; s++) {
    int yb = (int) ((int64_t) s * h / n_strips);        /* first row of strip s */
    uint8_t *a = map + (size_t) yb * mw + 1, *b = map + (size_t) (yb + 1) * mw + 1;
    for (x = 0; x < w; x++) {
      for (d = -1; d <= 1; d++) {
        if (a[x] == 2 && b[x + d] == 1) {
          b[x + d] = 2;
          stack[top++] = (int32_t) (b + x + d - map);
        }
        if (b[x] == 2 && a[x + d] == 1) {
          a[x + d] = 2;
          stack[top++] = (int32_t) (a + x + d - map);
        }
      }
    }
  }
  flood (map, mw, stack, top, 0, mw * (h + 2), ctx->cancel);
}

GcvStatus
gcv_canny_cpu_process (GcvCannyCpu * ctx, const GcvCannyParams * params, const GcvPlane * in,
    GcvPlane * out, int n_threads, GcvError * err)
{
  const int w = ctx->width, h = ctx->height;
  const char *bad = gcv_canny_params_check (params);
  int wt[GCV_CANNY_MAX_BLUR_SIZE], r, n_strips, s;
  int32_t low, high;
  const uint8_t *L, *B;
  size_t ls, bs;

  if (bad != NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: %s", bad);
    return GCV_ERROR_INVALID;
  }
  if (in->width != w || in->height != h || out->width != w || out->height != h
      || in->stride < (size_t) w * gcv_luma_bytes_per_pixel (ctx->input.layout)
      || out->stride < (size_t) w) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: planes %dx%d -> %dx%d do not match context %dx%d",
        in->width, in->height, out->width, out->height, w, h);
    return GCV_ERROR_INVALID;
  }
  r = gcv_canny_blur_weights (params, wt);
  gcv_canny_int_thresholds (params, &low, &high);

  n_strips = gcv_parallel_threads (n_threads, NS_PER_PIXEL * w * h);
  if (n_strips > ctx->max_strips)
    n_strips = ctx->max_strips;
  if (n_strips > h)
    n_strips = h;

  if (ctx->input.layout == GCV_LUMA_GRAY8) {
    L = in->data;
    ls = in->stride;
  } else {
    L = ctx->luma;
    ls = w;
#pragma omp parallel for num_threads(n_strips) schedule(static) if (n_strips > 1)
    for (s = 0; s < n_strips; s++)
      luma_rows (&ctx->input, in, ctx->luma, (int) ((int64_t) s * h / n_strips),
          (int) ((int64_t) (s + 1) * h / n_strips), ctx->cancel);
  }

  if (r > 0) {
#pragma omp parallel for num_threads(n_strips) schedule(static) if (n_strips > 1)
    for (s = 0; s < n_strips; s++)
      blur_strip (L, ls, w, h, r, wt, ctx->blurred,
          ctx->hrows + (size_t) s * GCV_CANNY_MAX_BLUR_SIZE * w, ctx->acc + (size_t) s * w,
          (int) ((int64_t) s * h / n_strips), (int) ((int64_t) (s + 1) * h / n_strips), ctx->cancel);
    B = ctx->blurred;
    bs = w;
  } else {
    B = L;
    bs = ls;
  }

#pragma omp parallel for num_threads(n_strips) schedule(static) if (n_strips > 1)
  for (s = 0; s < n_strips; s++)
    gradient_strip (ctx, s, B, bs, params->l2_gradient, low, high, params->output, out,
        (int) ((int64_t) s * h / n_strips), (int) ((int64_t) (s + 1) * h / n_strips));

  if (params->output == GCV_CANNY_OUTPUT_EDGES) {
    int y;
    if (gcv_cancel_requested (ctx->cancel))
      return gcv_cancel_check (ctx->cancel, "canny", err);
    hysteresis (ctx, n_strips);
    if (gcv_cancel_requested (ctx->cancel))
      return gcv_cancel_check (ctx->cancel, "canny", err);
#pragma omp parallel for num_threads(n_strips) schedule(static) if (n_strips > 1)
    for (y = 0; y < h; y++) {
      const uint8_t *m = ctx->map + (size_t) (y + 1) * (w + 2) + 1;
      uint8_t *o = (uint8_t *) out->data + (size_t) y * out->stride;
      int x;
      for (x = 0; x < w; x++)
        o[x] = m[x] == 2 ? 255 : 0;
    }
  }
  return gcv_cancel_check (ctx->cancel, "canny", err);
}

void
gcv_canny_cpu_set_cancel (GcvCannyCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}
