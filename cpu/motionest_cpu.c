/* gst-cuda-video: block-matching motion estimation on the CPU (the contract
 * is cpu/motionest.h).
 *
 * Memory: the context keeps its own copies of the reference P and the
 * current frame C, rows `stride` bytes apart with at least 16 bytes of
 * slack after each row, so that a 16-byte load starting at any pixel of a
 * row stays inside the buffer.  Fractional candidates read precomputed
 * phase planes: phase (fx, fy) holds the contract's bilinear sample of C at
 * (4 i + fx, 4 j + fy) for every pixel (i, j) (the neighbour past the last
 * row or column, which no valid candidate uses, is clamped); phase (0, 0)
 * is C itself.  They are built once per frame, only those the grid needs
 * (4 for half pixels, 16 for quarter), and allocated the first time they
 * are needed.  After a search C becomes P by swapping the two buffers.
 *
 * SAD: 16 pixels per _mm_sad_epu8 (psadbw).  Each block of P is first
 * copied into a 16-byte aligned scratch of whole 16-byte chunks a row, the
 * bytes past the block's width zero; the last chunk of C is masked to
 * match, so those bytes add 0.  Full search takes the candidates of a
 * window row eight at a time, each chunk of P loaded once for the eight.
 * Blocks are spread over threads (OpenMP, dynamic: edge blocks are
 * cheaper), as many as the frame's candidates are worth (gcv-parallel.h).
 * A stop request is looked at before every block and every row of a full
 * search's window (at most a few milliseconds apart, even for 128 x 128
 * blocks and +-128 pixels at quarter-pixel steps).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "motionest.h"
#include "gcv-parallel.h"

#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>

/* One core's time per pixel of a candidate (full search, 16 x 16 blocks,
 * +-16 pixels, 1080p: 64 ms a frame): what a frame's team is sized by. */
#define NS_PER_CANDIDATE_PIXEL 0.03

struct _GcvMotionCpu {
  int width, height;
  size_t stride;
  uint8_t *ref, *cur;           /* P and C, stride x height (+ slack) */
  uint8_t *phase[16];           /* phase[fy * 4 + fx]; [0] aliases cur */
  uint8_t *phase_store;         /* 15 planes, allocated on first need */
  int has_reference;
  const GcvCancel *cancel;
};

static uint8_t *
plane_alloc (size_t stride, int height)
{
  /* one spare row: loads of the last row's tail stay inside */
  return (uint8_t *) calloc (stride * ((size_t) height + 1), 1);
}

GcvMotionCpu *
gcv_motion_cpu_new (int width, int height, GcvError * err)
{
  GcvMotionCpu *ctx;

  if (width < 1 || height < 1 || width > GCV_MOTION_MAX_DIMENSION || height > GCV_MOTION_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motion estimation: frame size %dx%d must be 1x1 .. %dx%d",
        width, height, GCV_MOTION_MAX_DIMENSION, GCV_MOTION_MAX_DIMENSION);
    return NULL;
  }
  ctx = (GcvMotionCpu *) calloc (1, sizeof (*ctx));
  if (!ctx)
    goto no_memory;
  ctx->width = width;
  ctx->height = height;
  ctx->stride = ((size_t) width + 16 + 63) & ~(size_t) 63;
  ctx->ref = plane_alloc (ctx->stride, height);
  ctx->cur = plane_alloc (ctx->stride, height);
  if (!ctx->ref || !ctx->cur) {
    gcv_motion_cpu_free (ctx);
    goto no_memory;
  }
  return ctx;

no_memory:
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "motion estimation: out of host memory for %dx%d frames",
      width, height);
  return NULL;
}

void
gcv_motion_cpu_free (GcvMotionCpu * ctx)
{
  if (!ctx)
    return;
  free (ctx->ref);
  free (ctx->cur);
  free (ctx->phase_store);
  free (ctx);
}

static int
plane_ok (const GcvMotionCpu * ctx, const GcvPlane * p, GcvError * err)
{
  if (!p || !p->data || p->width != ctx->width || p->height != ctx->height || p->stride < (size_t) p->width) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motion estimation: the frame must be a %dx%d GRAY8 plane",
        ctx->width, ctx->height);
    return 0;
  }
  return 1;
}

/* (stops between rows when @cancel asks: a frame's first touch of a copy
 * is slow on some machines) */
static void
copy_plane (uint8_t * dst, size_t dst_stride, const GcvPlane * src, const GcvCancel * cancel)
{
  int y;

  for (y = 0; y < src->height && !gcv_cancel_requested (cancel); y++)
    memcpy (dst + (size_t) y * dst_stride, (const uint8_t *) src->data + (size_t) y * src->stride,
        (size_t) src->width);
}

GcvStatus
gcv_motion_cpu_set_reference (GcvMotionCpu * ctx, const GcvPlane * luma, GcvError * err)
{
  if (!ctx || !plane_ok (ctx, luma, err))
    return GCV_ERROR_INVALID;
  copy_plane (ctx->ref, ctx->stride, luma, NULL);
  ctx->has_reference = 1;
  return GCV_OK;
}

/* The phase planes the grid needs, from ctx->cur. */
static GcvStatus
build_phases (GcvMotionCpu * ctx, int subpel, int nt, GcvError * err)
{
  int W = ctx->width, H = ctx->height, step = GCV_MOTION_Q / subpel, k;
  size_t plane = ctx->stride * ((size_t) H + 1);

  ctx->phase[0] = ctx->cur;
  if (subpel == GCV_MOTION_SUBPEL_INTEGER)
    return GCV_OK;
  if (!ctx->phase_store) {
    ctx->phase_store = (uint8_t *) calloc (15 * plane, 1);
    if (!ctx->phase_store) {
      gcv_error_set (err, GCV_ERROR_NO_MEMORY, "motion estimation: out of host memory for the "
          "sub-pixel planes of %dx%d frames", W, H);
      return GCV_ERROR_NO_MEMORY;
    }
  }
  for (k = 1; k < 16; k++)
    ctx->phase[k] = ctx->phase_store + (size_t) (k - 1) * plane;

#pragma omp parallel for num_threads(nt) schedule(static) collapse(2) if (nt > 1)
  for (k = 1; k < 16; k++)
    for (int j = 0; j < H; j++) {
      int fx = k & 3, fy = k >> 2;
      const uint8_t *r0 = ctx->cur + (size_t) j * ctx->stride;
      const uint8_t *r1 = j + 1 < H ? r0 + ctx->stride : r0;
      uint8_t *o = ctx->phase[k] + (size_t) j * ctx->stride;
      int i;

      if (fx % step || fy % step || gcv_cancel_requested (ctx->cancel))
        continue;
      /* the clamped neighbour column only feeds i = W - 1 with fx > 0,
       * which no valid candidate reads */
      for (i = 0; i < W; i++) {
        int i1 = i + 1 < W ? i + 1 : i;
        int top = (4 - fx) * r0[i] + fx * r0[i1], bot = (4 - fx) * r1[i] + fx * r1[i1];
        o[i] = (uint8_t) (((4 - fy) * top + fy * bot + 8) >> 4);
      }
    }
  return GCV_OK;
}

/* One block's search.  ref holds the block of P, `chunks` 16-byte chunks
 * a row (16-byte aligned), the bytes past the block's width zero: the last
 * chunk of C is masked to match, so those bytes add 0 to psadbw. */
typedef struct {
  const GcvMotionCpu *ctx;
  const GcvMotionParams *p;
  int x0, y0, w, h;
  int chunks;                   /* 16-pixel chunks per block row */
  int full;                     /* chunks of 16 pixels only (w % 16 == 0) */
  __m128i tail_mask;            /* bytes of the last chunk inside the block */
  const uint8_t *ref;
  const GcvCancel *cancel;
} Block;

/* Where candidate (dx, dy) reads C: the phase plane of its fraction, at
 * the whole-pixel part (floor: the phase holds the rest). */
static inline const uint8_t *
candidate_row0 (const Block * b, int dx, int dy)
{
  const GcvMotionCpu *ctx = b->ctx;

  return ctx->phase[(dy & 3) * 4 + (dx & 3)] + (size_t) (b->y0 + (dy >> 2)) * ctx->stride + b->x0 + (dx >> 2);
}

static inline uint32_t
sad_total (__m128i acc)
{
  return (uint32_t) (_mm_cvtsi128_si32 (acc) + _mm_cvtsi128_si32 (_mm_unpackhi_epi64 (acc, acc)));
}

static uint32_t
block_sad (const Block * b, int dx, int dy)
{
  size_t stride = b->ctx->stride;
  const uint8_t *c = candidate_row0 (b, dx, dy), *r = b->ref;
  int last = b->chunks - 1, y, k;
  __m128i acc = _mm_setzero_si128 ();

  for (y = 0; y < b->h; y++, c += stride, r += 16 * b->chunks) {
    for (k = 0; k < last; k++)
      acc = _mm_add_epi64 (acc, _mm_sad_epu8 (_mm_loadu_si128 ((const __m128i *) (c + 16 * k)),
              _mm_load_si128 ((const __m128i *) (r + 16 * k))));
    acc = _mm_add_epi64 (acc,
        _mm_sad_epu8 (_mm_and_si128 (_mm_loadu_si128 ((const __m128i *) (c + 16 * last)), b->tail_mask),
            _mm_load_si128 ((const __m128i *) (r + 16 * last))));
  }
  return sad_total (acc);
}

/* Eight candidates at once (full search passes neighbours of one row of
 * the window), each chunk of the reference block loaded once for all. */
static void
block_sad_x8 (const Block * b, const uint8_t * const *c, uint32_t sad[8])
{
  size_t stride = b->ctx->stride, o = 0;
  const uint8_t *r = b->ref;
  int y, k, n = b->full ? b->chunks : b->chunks - 1;
  __m128i a0 = _mm_setzero_si128 (), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  const uint8_t *c0 = c[0], *c1 = c[1], *c2 = c[2], *c3 = c[3], *c4 = c[4], *c5 = c[5], *c6 = c[6],
      *c7 = c[7];

  /* C's chunk is psadbw's destination operand: no register copy of R */
#define S1(A, C, R, OFF, MASK) \
    A = _mm_add_epi64 (A, _mm_sad_epu8 (MASK (_mm_loadu_si128 ((const __m128i *) (C + (OFF)))), R))
#define SAD8(R, OFF, MASK) do { \
    S1 (a0, c0, R, OFF, MASK); S1 (a1, c1, R, OFF, MASK); S1 (a2, c2, R, OFF, MASK); \
    S1 (a3, c3, R, OFF, MASK); S1 (a4, c4, R, OFF, MASK); S1 (a5, c5, R, OFF, MASK); \
    S1 (a6, c6, R, OFF, MASK); S1 (a7, c7, R, OFF, MASK); \
  } while (0)
#define NO_MASK(v) (v)
#define TAIL_MASK(v) _mm_and_si128 ((v), b->tail_mask)
  for (y = 0; y < b->h; y++, o += stride, r += 16 * b->chunks) {
    for (k = 0; k < n; k++) {
      __m128i rv = _mm_load_si128 ((const __m128i *) (r + 16 * k));
      SAD8 (rv, o + 16 * k, NO_MASK);
    }
    if (!b->full) {
      __m128i rv = _mm_load_si128 ((const __m128i *) (r + 16 * n));
      SAD8 (rv, o + 16 * n, TAIL_MASK);
    }
  }
#undef S1
#undef SAD8
#undef NO_MASK
#undef TAIL_MASK
  sad[0] = sad_total (a0);
  sad[1] = sad_total (a1);
  sad[2] = sad_total (a2);
  sad[3] = sad_total (a3);
  sad[4] = sad_total (a4);
  sad[5] = sad_total (a5);
  sad[6] = sad_total (a6);
  sad[7] = sad_total (a7);
}

/* Tries (dx, dy) and keeps the smaller key. */
static inline void
try_candidate (const Block * b, int dx, int dy, uint64_t * best)
{
  uint64_t key;

  if (!gcv_motion_candidate_valid (b->ctx->width, b->ctx->height, b->p, b->x0, b->y0, b->w, b->h, dx, dy))
    return;
  key = gcv_motion_key (block_sad (b, dx, dy), dx, dy);
  if (key < *best)
    *best = key;
}

static uint64_t
search_full (const Block * b)
{
  int step = GCV_MOTION_Q / b->p->subpel, rx = GCV_MOTION_Q * b->p->range_x, ry = GCV_MOTION_Q * b->p->range_y;
  int W = b->ctx->width, H = b->ctx->height;
  /* only the part of the window inside the frame: the validity test then
   * holds for every candidate visited (rounded onto the grid) */
  int lo_x = -GCV_MOTION_Q * b->x0, hi_x = GCV_MOTION_Q * (W - b->x0 - b->w);
  int lo_y = -GCV_MOTION_Q * b->y0, hi_y = GCV_MOTION_Q * (H - b->y0 - b->h);
  int x_from = lo_x > -rx ? lo_x : -rx, x_to = hi_x < rx ? hi_x : rx;
  int y_from = lo_y > -ry ? lo_y : -ry, y_to = hi_y < ry ? hi_y : ry;
  uint64_t best = UINT64_MAX;
  int dx, dy;

  /* the grid is the multiples of step: round the bounds inwards (the
   * lower ones are <= 0, the upper ones >= 0; the loops stop at the upper) */
  x_from = -((-x_from) / step * step);
  y_from = -((-y_from) / step * step);
  for (dy = y_from; dy <= y_to && !gcv_cancel_requested (b->cancel); dy += step)
    for (dx = x_from; dx <= x_to; dx += 8 * step) {
      /* 8 neighbours of one row at a time; fewer than 2 left: alone, else
       * the pass is filled up with the last one (results dropped) */
      int n = (x_to - dx) / step + 1, i;
      uint32_t sad[8];
      const uint8_t *c[8];

      if (n == 1) {
        uint64_t key = gcv_motion_key (block_sad (b, dx, dy), dx, dy);
        if (key < best)
          best = key;
        continue;
      }
      if (n > 8)
        n = 8;
      for (i = 0; i < 8; i++)
        c[i] = candidate_row0 (b, dx + (i < n ? i : n - 1) * step, dy);
      block_sad_x8 (b, c, sad);
      for (i = 0; i < n; i++) {
        uint64_t key = gcv_motion_key (sad[i], dx + i * step, dy);
        if (key < best)
          best = key;
      }
    }
  return best;
}

/* The best of centre and centre + k (ddx, ddy), 0 < |k| <= reach. */
static uint64_t
line_step (const Block * b, uint64_t centre, int ddx, int ddy, int reach)
{
  int cx = gcv_motion_key_dx (centre), cy = gcv_motion_key_dy (centre), k;
  uint64_t best = centre;

  for (k = -reach; k <= reach; k++)
    if (k != 0)
      try_candidate (b, cx + k * ddx, cy + k * ddy, &best);
  return best;
}

static uint64_t
ring_step (const Block * b, uint64_t centre, int d)
{
  int cx = gcv_motion_key_dx (centre), cy = gcv_motion_key_dy (centre), i, j;
  uint64_t best = centre;

  for (j = -1; j <= 1; j++)
    for (i = -1; i <= 1; i++)
      if (i || j)
        try_candidate (b, cx + i * d, cy + j * d, &best);
  return best;
}

static uint64_t
search_mods (const Block * b)
{
  uint64_t best = UINT64_MAX;
  int k;

  for (k = -b->p->range_x; k <= b->p->range_x; k++) {
    uint64_t column = UINT64_MAX;
    try_candidate (b, GCV_MOTION_Q * k, 0, &column);
    if (column == UINT64_MAX)
      continue;
    column = line_step (b, column, 0, 4 * GCV_MOTION_Q, b->p->range_y / 4);
    column = line_step (b, column, 0, 2 * GCV_MOTION_Q, 1);
    column = line_step (b, column, 0, GCV_MOTION_Q, 1);
    if (column < best)
      best = column;
  }
  if (b->p->subpel >= GCV_MOTION_SUBPEL_HALF)
    best = ring_step (b, best, 2);
  if (b->p->subpel == GCV_MOTION_SUBPEL_QUARTER)
    best = ring_step (b, best, 1);
  return best;
}

/* The candidates a block tries at most (fewer at the frame's edges). */
static double
candidates_per_block (const GcvMotionParams * p)
{
  if (p->method == GCV_MOTION_METHOD_FULL)
    return (2.0 * p->range_x * p->subpel + 1) * (2.0 * p->range_y * p->subpel + 1);
  /* per column: the centre, the 4-pixel line and two 3-candidate steps;
   * then up to two rings of 8 */
  return (2.0 * p->range_x + 1) * (2 * (p->range_y / 4) + 5) + 16;
}

void
gcv_motion_cpu_set_cancel (GcvMotionCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

GcvStatus
gcv_motion_cpu_process (GcvMotionCpu * ctx, const GcvMotionParams * params, const GcvPlane * cur,
    GcvMotionVector * vectors, int n_threads, GcvError * err)
{
  const char *why;
  int cols, rows, n, nt, i;
  uint32_t cq;
  uint8_t *swap;
  GcvStatus st;

  if (!ctx || !vectors) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motion estimation: no context or no vector array");
    return GCV_ERROR_INVALID;
  }
  if ((why = gcv_motion_params_check (params)) != NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motion estimation: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (!plane_ok (ctx, cur, err))
    return GCV_ERROR_INVALID;
  if (!ctx->has_reference) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motion estimation: no reference frame to search from");
    return GCV_ERROR_INVALID;
  }
  nt = gcv_parallel_threads (n_threads, NS_PER_CANDIDATE_PIXEL * ctx->width * ctx->height
      * candidates_per_block (params));
  copy_plane (ctx->cur, ctx->stride, cur, ctx->cancel);
  if ((st = build_phases (ctx, params->subpel, nt, err)) != GCV_OK)
    return st;

  cols = gcv_motion_grid_cols (ctx->width, params);
  rows = gcv_motion_grid_rows (ctx->height, params);
  n = cols * rows;
  cq = gcv_motion_zero_threshold_q8 (params->zero_threshold);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 4) if (nt > 1)
  for (i = 0; i < n; i++) {
    Block b;
    _Alignas (16) uint8_t ref[GCV_MOTION_MAX_BLOCK * GCV_MOTION_MAX_BLOCK];
    uint8_t mask[16];
    uint64_t best;
    int tail, k;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    b.ctx = ctx;
    b.cancel = ctx->cancel;
    b.p = params;
    gcv_motion_block_rect (ctx->width, ctx->height, params, i % cols, i / cols, &b.x0, &b.y0, &b.w, &b.h);
    b.chunks = (b.w + 15) / 16;
    b.full = b.w % 16 == 0;
    tail = b.w - 16 * (b.chunks - 1);
    for (k = 0; k < 16; k++)
      mask[k] = k < tail ? 0xff : 0;
    b.tail_mask = _mm_loadu_si128 ((const __m128i *) mask);
    for (k = 0; k < b.h; k++) {
      uint8_t *row = ref + (size_t) k * 16 * b.chunks;
      memcpy (row, ctx->ref + (size_t) (b.y0 + k) * ctx->stride + b.x0, (size_t) b.w);
      memset (row + b.w, 0, (size_t) (16 * b.chunks - b.w));
    }
    b.ref = ref;

    best = params->method == GCV_MOTION_METHOD_FULL ? search_full (&b) : search_mods (&b);
    if (gcv_motion_suppressed (cq, gcv_motion_key_sad (best), b.w, b.h))
      best = gcv_motion_key (block_sad (&b, 0, 0), 0, 0);
    vectors[i].x = b.x0;
    vectors[i].y = b.y0;
    vectors[i].dx = gcv_motion_key_dx (best);
    vectors[i].dy = gcv_motion_key_dy (best);
    vectors[i].sad = gcv_motion_key_sad (best);
  }
  /* stopped: the vectors are incomplete and the reference stays */
  if ((st = gcv_cancel_check (ctx->cancel, "motion estimation", err)) != GCV_OK)
    return st;

  swap = ctx->ref;
  ctx->ref = ctx->cur;
  ctx->cur = swap;
  return GCV_OK;
}
