/* gst-cuda-video: depth-image-based rendering on the CPU (the contract is
 * cpu/dibr.h).
 *
 * Stages and memory:
 *
 *  - clean-up, per view: the depth plane is decoded into an int32 plane
 *    (value, or -1 unknown; packed, the view's width a row); the median
 *    gathers each window's known values into a small array and selects the
 *    lower median (quickselect), writing a float plane; the DCBF reads that
 *    plane and the colour and writes the view's cleaned plane (float,
 *    packed).  Rows go to OpenMP threads; every output pixel is one
 *    independent computation in the contract's order, so the thread count
 *    does not change a bit.
 *
 *  - warp: the views' known pixels (rows to threads) each compute their
 *    key and take the minimum into the z-buffer (uint64 a target pixel,
 *    packed) with a compare-and-swap loop, the CPU's atomicMin: the minimum
 *    does not depend on the order.  Crack filling reads that buffer and
 *    writes a second one.
 *
 *  - fill: rows to threads; a row's nearest keys to the left and right of
 *    each pixel come from two scans into per-thread scratch (2 W keys);
 *    rows without a key use the nearest row's scans.  The result goes back
 *    into the first buffer, then colour and depth are gathered from it.
 *
 * Each stage's team is as large as its work is worth (gcv-parallel.h).  A
 * stop request is looked at before every row of every stage (a 31 x 31
 * DCBF row of 32767 pixels is about a tenth of a second).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dibr.h"
#include "gcv-parallel.h"

#include <stdlib.h>

/* One core's time, what the stages' teams are sized by: per pixel of the
 * decode and of the stages after the clean-up, per window sample of the
 * median and of the DCBF (1080p views with the defaults: 915 ms a frame,
 * nearly all of it the 11 x 11 DCBF). */
#define NS_PER_PIXEL 2.0
#define NS_PER_MEDIAN_SAMPLE 1.5
#define NS_PER_DCBF_SAMPLE 3.5

struct _GcvDibrCpu {
  int width, height;
  uint64_t *keys, *keys2;       /* W * H each */
  uint8_t *row_any;             /* H: whether row y of keys2 has a key */
  uint64_t *scratch;            /* per thread: 2 W (nearest left, right) */
  size_t cap_scratch;
  int32_t *ival;                /* decoded values, the largest view */
  float *fval;                  /* median output, the largest view */
  size_t cap_ival, cap_fval;
  float *clean;                 /* the views' cleaned planes, one after the other */
  size_t cap_clean;
  const GcvCancel *cancel;
};

void
gcv_dibr_cpu_set_cancel (GcvDibrCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

GcvDibrCpu *
gcv_dibr_cpu_new (int width, int height, GcvError * err)
{
  GcvDibrCpu *ctx;
  size_t px;

  if (width < 1 || height < 1 || width > GCV_DIBR_MAX_DIMENSION || height > GCV_DIBR_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: frame size %dx%d must be 1x1 .. %dx%d", width, height,
        GCV_DIBR_MAX_DIMENSION, GCV_DIBR_MAX_DIMENSION);
    return NULL;
  }
  ctx = (GcvDibrCpu *) calloc (1, sizeof (*ctx));
  if (!ctx)
    goto no_memory;
  ctx->width = width;
  ctx->height = height;
  px = (size_t) width * height;
  ctx->keys = (uint64_t *) malloc (px * sizeof (uint64_t));
  ctx->keys2 = (uint64_t *) malloc (px * sizeof (uint64_t));
  ctx->row_any = (uint8_t *) malloc ((size_t) height);
  if (!ctx->keys || !ctx->keys2 || !ctx->row_any) {
    gcv_dibr_cpu_free (ctx);
    goto no_memory;
  }
  return ctx;

no_memory:
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "dibr: out of host memory for %dx%d frames", width, height);
  return NULL;
}

void
gcv_dibr_cpu_free (GcvDibrCpu * ctx)
{
  if (!ctx)
    return;
  free (ctx->keys);
  free (ctx->keys2);
  free (ctx->row_any);
  free (ctx->scratch);
  free (ctx->ival);
  free (ctx->fval);
  free (ctx->clean);
  free (ctx);
}

static int
view_ok (const GcvDibrView * v, int index, GcvError * err)
{
  int w, h;

  if (!v || !v->rgba.data || !v->depth.data) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d has no colour or depth plane", index);
    return 0;
  }
  w = v->rgba.width;
  h = v->rgba.height;
  if (w < 1 || h < 1 || w > GCV_DIBR_MAX_DIMENSION || h > GCV_DIBR_MAX_DIMENSION
      || (uint64_t) w * (uint64_t) h > (uint64_t) GCV_DIBR_PIXEL_MASK + 1 || v->depth.width != w
      || v->depth.height != h) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: colour %dx%d and depth %dx%d must be the same "
        "size, at most %d pixels", index, w, h, v->depth.width, v->depth.height, GCV_DIBR_PIXEL_MASK + 1);
    return 0;
  }
  if (v->depth_bits != 8 && v->depth_bits != 16) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: depth of %d bits (8 or 16)", index, v->depth_bits);
    return 0;
  }
  if (v->rgba.stride < (size_t) w * 4 || v->depth.stride < (size_t) w * (v->depth_bits / 8)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: a stride is shorter than a row", index);
    return 0;
  }
  return 1;
}

/* ---- stage 1 ----------------------------------------------------------- */

/* The k-th smallest of a[0 .. n-1] (reorders a). */
static int32_t
select_kth (int32_t * a, int n, int k)
{
  int lo = 0, hi = n - 1;

  while (lo < hi) {
    int32_t pivot = a[(lo + hi) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot)
        i++;
      while (a[j] > pivot)
        j--;
      if (i <= j) {
        int32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return a[k];
  }
  return a[k];
}

static void
decode_plane (const GcvDibrView * v, int zero_is_unknown, int32_t * out, int n_threads,
    const GcvCancel * cancel)
{
  int w = v->depth.width, h = v->depth.height, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * w * h);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < h; y++) {
    const uint8_t *row = (const uint8_t *) v->depth.data + (size_t) y * v->depth.stride;
    int32_t *o = out + (size_t) y * w;
    int x;
    if (gcv_cancel_requested (cancel))
      continue;
    for (x = 0; x < w; x++) {
      int32_t val = v->depth_bits == 16 ? (int32_t) ((const uint16_t *) row)[x] : (int32_t) row[x];
      o[x] = (zero_is_unknown && val == 0) ? -1 : val;
    }
  }
}

static void
median_plane (const int32_t * in, int w, int h, int m, float *out, int n_threads, const GcvCancel * cancel)
{
  int r = m / 2, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_MEDIAN_SAMPLE * w * h * m * m);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < h; y++) {
    int32_t buf[GCV_DIBR_MAX_MEDIAN * GCV_DIBR_MAX_MEDIAN];
    int x;
    if (gcv_cancel_requested (cancel))
      continue;
    for (x = 0; x < w; x++) {
      int n = 0, yy, xx;
      int y0 = y - r < 0 ? 0 : y - r, y1 = y + r > h - 1 ? h - 1 : y + r;
      int x0 = x - r < 0 ? 0 : x - r, x1 = x + r > w - 1 ? w - 1 : x + r;
      for (yy = y0; yy <= y1; yy++) {
        const int32_t *row = in + (size_t) yy * w;
        for (xx = x0; xx <= x1; xx++)
          if (row[xx] >= 0)
            buf[n++] = row[xx];
      }
      out[(size_t) y * w + x] = n ? (float) select_kth (buf, n, (n - 1) / 2) : GCV_DIBR_UNKNOWN;
    }
  }
}

static void
dcbf_plane (const float *in, const GcvDibrView * v, const GcvDibrTables * t, float *out, int n_threads,
    const GcvCancel * cancel)
{
  int w = v->rgba.width, h = v->rgba.height, k = t->dcbf_size, r = k / 2, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_DCBF_SAMPLE * w * h * k * k);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < h; y++) {
    const uint8_t *crow = (const uint8_t *) v->rgba.data + (size_t) y * v->rgba.stride;
    int x;
    if (gcv_cancel_requested (cancel))
      continue;
    for (x = 0; x < w; x++) {
      int cr = crow[4 * x], cg = crow[4 * x + 1], cb = crow[4 * x + 2], dy, dx;
      float num = 0.0f, den = 0.0f;
      for (dy = -r; dy <= r; dy++) {
        int yy = y + dy;
        const float *drow;
        const uint8_t *nrow;
        const float *gs;
        if (yy < 0 || yy >= h)
          continue;
        drow = in + (size_t) yy * w;
        nrow = (const uint8_t *) v->rgba.data + (size_t) yy * v->rgba.stride;
        gs = t->spatial + (size_t) (dy + r) * k + r;
        for (dx = -r; dx <= r; dx++) {
          int xx = x + dx, dist;
          float d, wgt, prod;
          if (xx < 0 || xx >= w)
            continue;
          d = drow[xx];
          if (d < 0.0f)
            continue;
          dist = abs (nrow[4 * xx] - cr) + abs (nrow[4 * xx + 1] - cg) + abs (nrow[4 * xx + 2] - cb);
          /* -ffp-contract=off (cpu/meson.build) keeps these two roundings */
          wgt = gs[dx] * t->color[dist];
          prod = wgt * d;
          num = num + prod;
          den = den + wgt;
        }
      }
      out[(size_t) y * w + x] = den > 0.0f ? num / den : GCV_DIBR_UNKNOWN;
    }
  }
}

/* Stage 1 of one view into out (packed, the view's width a row). */
static GcvStatus
clean_view (GcvDibrCpu * ctx, const GcvDibrParams * p, const GcvDibrTables * t, const GcvDibrView * v,
    float *out, int n_threads, GcvError * err)
{
  int w = v->rgba.width, h = v->rgba.height;
  size_t px = (size_t) w * h, i;

  if (!gcv_ensure_capacity ((void **) &ctx->ival, &ctx->cap_ival, px, sizeof (int32_t))
      || !gcv_ensure_capacity ((void **) &ctx->fval, &ctx->cap_fval, px, sizeof (float))) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "dibr: out of host memory for a %dx%d view", w, h);
    return GCV_ERROR_NO_MEMORY;
  }
  decode_plane (v, p->zero_is_unknown, ctx->ival, n_threads, ctx->cancel);
  {
    float *med = p->dcbf_size > 1 ? ctx->fval : out;
    if (p->median_size > 1)
      median_plane (ctx->ival, w, h, p->median_size, med, n_threads, ctx->cancel);
    else
      for (i = 0; i < px; i++)
        med[i] = ctx->ival[i] < 0 ? GCV_DIBR_UNKNOWN : (float) ctx->ival[i];
    if (p->dcbf_size > 1 && !gcv_cancel_requested (ctx->cancel))
      dcbf_plane (med, v, t, out, n_threads, ctx->cancel);
  }
  return gcv_cancel_check (ctx->cancel, "dibr", err);
}

GcvStatus
gcv_dibr_cpu_clean_depth (GcvDibrCpu * ctx, const GcvDibrParams * params, const GcvDibrView * view,
    GcvPlane * out, int n_threads, double *ms, GcvError * err)
{
  const char *bad;
  GcvDibrTables *t;
  GcvStatus st;
  size_t px;
  int y, w;
  double t0 = gcv_now_ms ();

  if (!ctx) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: no context");
    return GCV_ERROR_INVALID;
  }
  if ((bad = gcv_dibr_params_check (params))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  if (!view_ok (view, 0, err))
    return GCV_ERROR_INVALID;
  w = view->rgba.width;
  if (!out || !out->data || out->width != w || out->height != view->rgba.height
      || out->stride < (size_t) w * sizeof (float)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the cleaned depth must be a %dx%d float plane", w,
        view->rgba.height);
    return GCV_ERROR_INVALID;
  }
  px = (size_t) w * view->rgba.height;
  t = (GcvDibrTables *) malloc (sizeof (*t));
  if (!t || !gcv_ensure_capacity ((void **) &ctx->clean, &ctx->cap_clean, px, sizeof (float))) {
    free (t);
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "dibr: out of host memory");
    return GCV_ERROR_NO_MEMORY;
  }
  gcv_dibr_tables_make (params, t);
  st = clean_view (ctx, params, t, view, ctx->clean, n_threads, err);
  free (t);
  if (st != GCV_OK)
    return st;
  for (y = 0; y < view->rgba.height; y++)
    memcpy ((uint8_t *) out->data + (size_t) y * out->stride, ctx->clean + (size_t) y * w,
        (size_t) w * sizeof (float));
  if (ms)
    *ms = gcv_now_ms () - t0;
  return GCV_OK;
}

/* ---- stage 2 ----------------------------------------------------------- */

static inline void
atomic_min_u64 (uint64_t * p, uint64_t v)
{
  uint64_t cur = __atomic_load_n (p, __ATOMIC_RELAXED);

  while (v < cur && !__atomic_compare_exchange_n (p, &cur, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

static void
warp_view (GcvDibrCpu * ctx, const GcvDibrWarp * wp, const GcvDibrDecode * dec, const float *clean, int vw,
    int vh, int index, int n_threads)
{
  int W = ctx->width, H = ctx->height, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * vw * vh);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < vh; y++) {
    const float *row = clean + (size_t) y * vw;
    int x;
    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (x = 0; x < vw; x++) {
      int tx, ty;
      float zf;
      if (row[x] < 0.0f)
        continue;
      if (!gcv_dibr_warp_point (wp, x, y, gcv_dibr_value_to_z (dec, row[x]), W, H, &tx, &ty, &zf))
        continue;
      atomic_min_u64 (&ctx->keys[(size_t) ty * W + tx], gcv_dibr_key (zf, index,
              (uint32_t) ((size_t) y * vw + x)));
    }
  }
}

static void
crack_fill (GcvDibrCpu * ctx, int n_threads)
{
  int W = ctx->width, H = ctx->height, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * W * H);

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < H; y++) {
    const uint64_t *k = ctx->keys + (size_t) y * W;
    uint64_t *o = ctx->keys2 + (size_t) y * W;
    int x;
    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (x = 0; x < W; x++) {
      uint64_t a, b;
      o[x] = k[x];
      if (k[x] != GCV_DIBR_EMPTY)
        continue;
      if (x > 0 && x < W - 1) {
        a = k[x - 1];
        b = k[x + 1];
        if (a != GCV_DIBR_EMPTY && b != GCV_DIBR_EMPTY
            && gcv_dibr_same_surface (gcv_dibr_key_z (a), gcv_dibr_key_z (b))) {
          o[x] = a > b ? a : b;
          continue;
        }
      }
      if (y > 0 && y < H - 1) {
        a = k[x - W];
        b = k[x + W];
        if (a != GCV_DIBR_EMPTY && b != GCV_DIBR_EMPTY
            && gcv_dibr_same_surface (gcv_dibr_key_z (a), gcv_dibr_key_z (b)))
          o[x] = a > b ? a : b;
      }
    }
  }
}

/* ---- stage 3 ----------------------------------------------------------- */

/* Nearest keys of row `k` at or left of x (left[x]) and at or right of x
 * (right[x]); EMPTY where none. */
static void
row_scans (const uint64_t * k, int W, uint64_t * left, uint64_t * right)
{
  uint64_t last = GCV_DIBR_EMPTY;
  int x;

  for (x = 0; x < W; x++) {
    if (k[x] != GCV_DIBR_EMPTY)
      last = k[x];
    left[x] = last;
  }
  last = GCV_DIBR_EMPTY;
  for (x = W - 1; x >= 0; x--) {
    if (k[x] != GCV_DIBR_EMPTY)
      last = k[x];
    right[x] = last;
  }
}

/* The background side of two candidates (EMPTY = none). */
static inline uint64_t
pick (uint64_t l, uint64_t r)
{
  if (l == GCV_DIBR_EMPTY)
    return r;
  if (r == GCV_DIBR_EMPTY)
    return l;
  return l > r ? l : r;
}

static void
hole_fill (GcvDibrCpu * ctx, GcvPlane * holes, int n_threads)
{
  int W = ctx->width, H = ctx->height, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * W * H);

  for (y = 0; y < H; y++) {
    const uint64_t *k = ctx->keys2 + (size_t) y * W;
    int x, any = 0;
    for (x = 0; x < W && !any; x++)
      any = k[x] != GCV_DIBR_EMPTY;
    ctx->row_any[y] = (uint8_t) any;
  }

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < H; y++) {
    uint64_t *left = ctx->scratch + (size_t) gcv_thread_index () * 2 * W, *right = left + W;
    const uint64_t *k = ctx->keys2 + (size_t) y * W;
    uint64_t *o = ctx->keys + (size_t) y * W;
    uint8_t *hm = holes ? (uint8_t *) holes->data + (size_t) y * holes->stride : NULL;
    int x, src = -1, d;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (ctx->row_any[y])
      src = y;
    else
      for (d = 1; d < H && src < 0; d++) {
        if (y - d >= 0 && ctx->row_any[y - d])
          src = y - d;
        else if (y + d < H && ctx->row_any[y + d])
          src = y + d;
      }
    if (src >= 0)
      row_scans (ctx->keys2 + (size_t) src * W, W, left, right);
    for (x = 0; x < W; x++) {
      int hole = k[x] == GCV_DIBR_EMPTY;
      if (hm)
        hm[x] = hole ? 255 : 0;
      if (!hole)
        o[x] = k[x];
      else if (src < 0)
        o[x] = GCV_DIBR_EMPTY;
      else if (src != y && ctx->keys2[(size_t) src * W + x] != GCV_DIBR_EMPTY)
        o[x] = ctx->keys2[(size_t) src * W + x];
      else
        o[x] = pick (left[x], right[x]);
    }
  }
}

static void
gather (GcvDibrCpu * ctx, const GcvDibrView * views, const GcvDibrParams * p, GcvPlane * rgba, GcvPlane * depth,
    int n_threads)
{
  int W = ctx->width, H = ctx->height, y;
  int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * W * H);
  float zfar = (float) p->z_far;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < H; y++) {
    const uint64_t *k = ctx->keys + (size_t) y * W;
    uint8_t *o = (uint8_t *) rgba->data + (size_t) y * rgba->stride;
    float *dz = depth ? (float *) ((uint8_t *) depth->data + (size_t) y * depth->stride) : NULL;
    int x;
    if (gcv_cancel_requested (ctx->cancel))
      continue;
    for (x = 0; x < W; x++) {
      if (k[x] == GCV_DIBR_EMPTY) {
        o[4 * x] = o[4 * x + 1] = o[4 * x + 2] = 0;
        o[4 * x + 3] = 255;
        if (dz)
          dz[x] = zfar;
      } else {
        const GcvDibrView *v = &views[gcv_dibr_key_view (k[x])];
        uint32_t i = gcv_dibr_key_pixel (k[x]);
        int sx = (int) (i % (uint32_t) v->rgba.width), sy = (int) (i / (uint32_t) v->rgba.width);
        const uint8_t *s = (const uint8_t *) v->rgba.data + (size_t) sy * v->rgba.stride + 4 * (size_t) sx;
        o[4 * x] = s[0];
        o[4 * x + 1] = s[1];
        o[4 * x + 2] = s[2];
        o[4 * x + 3] = 255;
        if (dz)
          dz[x] = gcv_dibr_key_z (k[x]);
      }
    }
  }
}

static int
out_ok (const GcvPlane * p, int W, int H, size_t bpp)
{
  return p->data && p->width == W && p->height == H && p->stride >= (size_t) W * bpp;
}

GcvStatus
gcv_dibr_cpu_render (GcvDibrCpu * ctx, const GcvDibrParams * params, const GcvDibrView * views, int n_views,
    const GcvDibrCamera * virt, GcvPlane * out_rgba, GcvPlane * out_depth, GcvPlane * out_holes,
    int n_threads, GcvDibrTimes * times, GcvError * err)
{
  GcvDibrWarp warps[GCV_DIBR_MAX_VIEWS];
  GcvDibrTables *t;
  const char *bad;
  size_t total = 0, off;
  int nt = gcv_parallel_max_threads (n_threads), i, W, H;
  double t0, t1, t2, t3;
  GcvStatus st;

  if (!ctx) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: no context");
    return GCV_ERROR_INVALID;
  }
  W = ctx->width;
  H = ctx->height;
  if ((bad = gcv_dibr_params_check (params))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  if (!views || n_views < 1 || n_views > GCV_DIBR_MAX_VIEWS) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %d views: must be 1 .. %d", n_views, GCV_DIBR_MAX_VIEWS);
    return GCV_ERROR_INVALID;
  }
  if (!virt || !out_rgba || !out_ok (out_rgba, W, H, 4) || (out_depth && !out_ok (out_depth, W, H, 4))
      || (out_holes && !out_ok (out_holes, W, H, 1))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the outputs must be %dx%d planes (RGBA, float depth, "
        "GRAY8 holes) and the virtual camera given", W, H);
    return GCV_ERROR_INVALID;
  }
  for (i = 0; i < n_views; i++) {
    if (!view_ok (&views[i], i, err))
      return GCV_ERROR_INVALID;
    if (gcv_dibr_warp_make (&views[i].camera, virt, &warps[i], err) != GCV_OK)
      return GCV_ERROR_INVALID;
    total += (size_t) views[i].rgba.width * views[i].rgba.height;
  }
  t = (GcvDibrTables *) malloc (sizeof (*t));
  if (!t || !gcv_ensure_capacity ((void **) &ctx->clean, &ctx->cap_clean, total, sizeof (float))
      || !gcv_ensure_capacity ((void **) &ctx->scratch, &ctx->cap_scratch, (size_t) nt * 2 * W, sizeof (uint64_t))) {
    free (t);
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "dibr: out of host memory");
    return GCV_ERROR_NO_MEMORY;
  }
  gcv_dibr_tables_make (params, t);

  t0 = gcv_now_ms ();
  for (i = 0, off = 0; i < n_views; i++) {
    st = clean_view (ctx, params, t, &views[i], ctx->clean + off, n_threads, err);
    if (st != GCV_OK) {
      free (t);
      return st;
    }
    off += (size_t) views[i].rgba.width * views[i].rgba.height;
  }
  free (t);

  t1 = gcv_now_ms ();
  /* (row by row: a frame's first touch of the z-buffer is slow on some
   * machines) */
  for (i = 0; i < H && !gcv_cancel_requested (ctx->cancel); i++)
    memset (ctx->keys + (size_t) W * i, 0xff, (size_t) W * sizeof (uint64_t));
  for (i = 0, off = 0; i < n_views; i++) {
    GcvDibrDecode dec;
    gcv_dibr_decode_make (params, views[i].depth_bits, &dec);
    warp_view (ctx, &warps[i], &dec, ctx->clean + off, views[i].rgba.width, views[i].rgba.height, i,
        n_threads);
    off += (size_t) views[i].rgba.width * views[i].rgba.height;
  }
  crack_fill (ctx, n_threads);

  t2 = gcv_now_ms ();
  hole_fill (ctx, out_holes, n_threads);
  /* stopped: the keys are incomplete (gather only reads them) */
  if ((st = gcv_cancel_check (ctx->cancel, "dibr", err)) != GCV_OK)
    return st;
  gather (ctx, views, params, out_rgba, out_depth, n_threads);
  if ((st = gcv_cancel_check (ctx->cancel, "dibr", err)) != GCV_OK)
    return st;
  t3 = gcv_now_ms ();
  if (times) {
    times->clean_ms = t1 - t0;
    times->warp_ms = t2 - t1;
    times->fill_ms = t3 - t2;
  }
  return GCV_OK;
}

/* ---- packed frames ------------------------------------------------------ */

GcvStatus
gcv_dibr_unpack (const GcvDibrPacked * frame, GcvPlane * rgba, GcvPlane * depth, int n_threads,
    const GcvCancel * cancel, GcvError * err)
{
  const char *bad = gcv_dibr_packed_check (frame);
  int nt, y, bytes;

  if (bad) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  bytes = gcv_dibr_packed_depth_bits (frame) / 8;
  if (!rgba || !rgba->data || !depth || !depth->data || rgba->width != frame->width
      || rgba->height != frame->height || depth->width != frame->width || depth->height != frame->height
      || rgba->stride < (size_t) frame->width * 4 || depth->stride < (size_t) frame->width * bytes) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: unpacking needs a %dx%d RGBA and a %dx%d GRAY%d plane",
        frame->width, frame->height, frame->width, frame->height, 8 * bytes);
    return GCV_ERROR_INVALID;
  }
  /* rows to threads; a few threads are enough for a memory-bound copy */
  nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * frame->width * frame->height);
  nt = nt < 4 ? nt : 4;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < frame->height; y++) {
    uint8_t *o = (uint8_t *) rgba->data + rgba->stride * y;
    uint8_t *d = (uint8_t *) depth->data + depth->stride * y;
    if (gcv_cancel_requested (cancel))
      continue;
    for (int x = 0; x < frame->width; x++) {
      unsigned v;
      gcv_dibr_unpack_pixel (frame, x, y, o + 4 * x, &v);
      if (bytes == 2)
        ((uint16_t *) d)[x] = (uint16_t) v;
      else
        d[x] = (uint8_t) v;
    }
  }
  return gcv_cancel_check (cancel, "dibr: unpacking", err);
}

/* ---- output frames ------------------------------------------------------ */

GcvStatus
gcv_dibr_compose (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show, const GcvDibrDecode * dec,
    const GcvDibrPixelOrder * order, GcvPlane * out, int n_threads, const GcvCancel * cancel, GcvError * err)
{
  const char *bad = gcv_dibr_compose_check (eyes, n_eyes, anaglyph, show, dec, order, out);
  int pic, n_pics;

  if (bad) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  /* one picture (anaglyph) or one per eye; rows to threads, every pixel
   * read before it is written (in place allowed) */
  n_pics = anaglyph ? 1 : n_eyes;
  for (pic = 0; pic < n_pics; pic++) {
    const int w = eyes[pic].rgba.width, h = eyes[pic].rgba.height;
    const int ox = anaglyph ? 0 : eyes[pic].ox, oy = anaglyph ? 0 : eyes[pic].oy;
    const int nt = gcv_parallel_threads (n_threads, NS_PER_PIXEL * w * h);
    int y;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (y = 0; y < h; y++) {
      uint8_t *o = (uint8_t *) out->data + out->stride * (size_t) (y + oy) + 4 * (size_t) ox;
      if (gcv_cancel_requested (cancel))
        continue;
      for (int x = 0; x < w; x++) {
        uint8_t rgb[3];
        gcv_dibr_compose_pixel (eyes, pic, anaglyph, show, dec, x, y, rgb);
        gcv_dibr_compose_put (order, rgb, o + 4 * (size_t) x);
      }
    }
  }
  return gcv_cancel_check (cancel, "dibr: composing", err);
}
