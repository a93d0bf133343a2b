/* gst-cuda-video: block-matching motion estimation, the API both backends
 * share.
 *
 * Paper 004 (Massanes, Cadennes, Brankov: "Compute-unified device
 * architecture implementation of a block-matching algorithm for multiple
 * graphical processing unit cards"): full search over a regular grid of
 * candidate displacements, SAD criterion (eq. 1), argmin (eq. 2), integer
 * and fractional grids (eq. 3), the zero-motion threshold C (eq. 4),
 * multi-GPU parallel and serial splitting.  Paper 003 (Lu and Hang:
 * "Multiview encoder parallelized fast search realization on NVIDIA CUDA"):
 * MODS, the multithreaded one-dimensional search.
 *
 * Definitions (the contract of both backends; every quantity is an integer
 * and every choice has one fixed rule, so cpumotionest and cudamotionest
 * give identical vectors and SADs):
 *
 *  - Frames.  P = I(t), the reference (previous) frame, and C = I(t+1), the
 *    current frame: 8-bit luma planes of the same width W x height H.
 *
 *  - Blocks tile P: bw x bh blocks, a grid of cols = ceil (W / bw) by
 *    rows = ceil (H / bh), in raster order.  Block (bx, by) starts at
 *    x0 = bx * bw, y0 = by * bh and is clipped to the frame: it covers
 *    w = min (bw, W - x0) columns and h = min (bh, H - y0) rows, so the
 *    last column and row of blocks are narrower / shorter when bw, bh do
 *    not divide the frame (gcv_motion_block_rect()).
 *
 *  - Units.  Displacements (dx, dy) are in quarter pixels ("q") whatever
 *    the search grid: the grid step is s = 4 / subpel q (4 integer, 2 half,
 *    1 quarter).  Content moving right gives dx > 0, moving down dy > 0:
 *    (dx, dy) is where the block's content of P is found in C (eq. 1).
 *
 *  - A candidate (dx, dy) is valid for a block when it is on the grid
 *    (dx, dy multiples of s), |dx| <= 4 range_x, |dy| <= 4 range_y, and the
 *    displaced block lies inside C:
 *        4 x0 + dx >= 0,  4 (x0 + w - 1) + dx <= 4 (W - 1)
 *    and the same for y (gcv_motion_candidate_valid()).  Nothing outside
 *    the frame is ever read or invented.  (0, 0) is always valid.
 *
 *  - Sample of C at (X, Y) in q, X = 4 i + fx, Y = 4 j + fy, 0 <= f < 4,
 *    bilinear with rounding (gcv_motion_sample()):
 *        ((4-fx)(4-fy) C[j][i] + fx (4-fy) C[j][i+1]
 *         + (4-fx) fy C[j+1][i] + fx fy C[j+1][i+1] + 8) >> 4
 *    (a neighbour with weight 0 is not read; for valid candidates every
 *    neighbour read is inside C).  At integer positions it is C[j][i].
 *
 *  - SAD (eq. 1): J(dx, dy) = sum over the block's w x h pixels (x, y) of
 *        | P[y][x] - sample (C, 4 x + dx, 4 y + dy) |
 *    < 2^22 for every block size allowed.
 *
 *  - Order of candidates (the tie rule): smaller J first, then smaller
 *    |dx| + |dy|, then smaller dy, then smaller dx.  gcv_motion_key() packs
 *    this into one uint64 so that "best" is always the minimum key.
 *
 *  - method FULL (paper 004): the best of every valid candidate of the grid:
 *    (2 range_x subpel + 1) x (2 range_y subpel + 1) positions.
 *
 *  - method MODS (paper 003, generalised to any range), integer part:
 *      for each column dx = 4 k, k = -range_x .. range_x, valid at dy = 0:
 *        y1 = best of { 4 * 4 m : |m| <= range_y / 4 }   (0, +-4, +-8, ... px)
 *        y2 = best of { y1, y1 +- 2 px }
 *        y3 = best of { y2, y2 +- 1 px }        (the column's candidate)
 *      each step over the valid candidates only (|dy| <= 4 range_y, inside
 *      the frame; the step's centre is always valid), by the key above;
 *      integer result = best column candidate.
 *    Sub-pixel refinement after the integer result (MODS only; FULL
 *    searches the fractional grid itself): subpel HALF or QUARTER: best of
 *    the result and its 8 neighbours at +-2 q; then, QUARTER only, best of
 *    that and its 8 neighbours at +-1 q.  Neighbours must be valid.
 *    With range_y = 16 the vertical reach is 16 px (the paper's 12 + 2 + 1
 *    = 15 for its range, plus the step that the range allows).
 *
 *  - Zero-motion threshold (eq. 4): with C = zero_threshold > 0 and
 *    Cq = floor (256 C + 0.5), a block whose best J satisfies
 *        256 J <= Cq * w * h
 *    reports (0, 0) and J (0, 0) instead (the vector and SAD reported always
 *    belong together).  zero_threshold = 0 turns this off.
 *
 *  - Output per block: GcvMotionVector { x0, y0, dx, dy, sad }, raster
 *    order.  The same record layout is the public meta's
 *    (gst/gstcudamotionmeta.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_MOTIONEST_H
#define GCV_MOTIONEST_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GCV_MOTION_FN static __host__ __device__ __forceinline__
#else
#define GCV_MOTION_FN static inline
#endif

#define GCV_MOTION_MIN_BLOCK 4
#define GCV_MOTION_MAX_BLOCK 128
#define GCV_MOTION_MAX_RANGE 128
#define GCV_MOTION_Q 4          /* quarter pixels per pixel */
#define GCV_MOTION_MAX_DIMENSION 32767

typedef enum {
  GCV_MOTION_SUBPEL_INTEGER = 1,
  GCV_MOTION_SUBPEL_HALF = 2,
  GCV_MOTION_SUBPEL_QUARTER = 4,
} GcvMotionSubpel;

typedef enum {
  GCV_MOTION_METHOD_FULL = 0,   /* paper 004: every candidate of the grid */
  GCV_MOTION_METHOD_MODS,       /* paper 003: one-dimensional searches per column */
} GcvMotionMethod;

typedef struct {
  int block_width, block_height;        /* GCV_MOTION_MIN_BLOCK .. GCV_MOTION_MAX_BLOCK */
  int range_x, range_y;                 /* 0 .. GCV_MOTION_MAX_RANGE pixels */
  GcvMotionSubpel subpel;
  GcvMotionMethod method;
  double zero_threshold;                /* C of eq. 4 (mean |difference| per pixel), 0 .. 255 */
} GcvMotionParams;

/* One block's result; 20 bytes, native endian, no padding. */
typedef struct {
  int32_t x, y;                 /* block origin in P, pixels */
  int32_t dx, dy;               /* displacement, quarter pixels */
  uint32_t sad;                 /* J of (dx, dy) */
} GcvMotionVector;

/* NULL when params are usable, else a message naming the bad value. */
const char *gcv_motion_params_check (const GcvMotionParams * params);

GCV_MOTION_FN int
gcv_motion_grid_cols (int width, const GcvMotionParams * p)
{
  return (width + p->block_width - 1) / p->block_width;
}

GCV_MOTION_FN int
gcv_motion_grid_rows (int height, const GcvMotionParams * p)
{
  return (height + p->block_height - 1) / p->block_height;
}

/* Origin and clipped size of block (bx, by). */
GCV_MOTION_FN void
gcv_motion_block_rect (int width, int height, const GcvMotionParams * p, int bx, int by,
    int *x0, int *y0, int *w, int *h)
{
  *x0 = bx * p->block_width;
  *y0 = by * p->block_height;
  *w = width - *x0 < p->block_width ? width - *x0 : p->block_width;
  *h = height - *y0 < p->block_height ? height - *y0 : p->block_height;
}

/* Whether the block at x0, y0 of w x h may move by (dx, dy) q (range and
 * frame; the grid step is the caller's business). */
GCV_MOTION_FN int
gcv_motion_candidate_valid (int width, int height, const GcvMotionParams * p,
    int x0, int y0, int w, int h, int dx, int dy)
{
  return dx >= -GCV_MOTION_Q * p->range_x && dx <= GCV_MOTION_Q * p->range_x
      && dy >= -GCV_MOTION_Q * p->range_y && dy <= GCV_MOTION_Q * p->range_y
      && GCV_MOTION_Q * x0 + dx >= 0 && GCV_MOTION_Q * (x0 + w - 1) + dx <= GCV_MOTION_Q * (width - 1)
      && GCV_MOTION_Q * y0 + dy >= 0 && GCV_MOTION_Q * (y0 + h - 1) + dy <= GCV_MOTION_Q * (height - 1);
}

/* The tie rule as one number, smaller is better: bits 33..54 J, 22..32
 * |dx| + |dy|, 11..21 dy + 512, 0..10 dx + 512.  |dx|, |dy| <= 512 q, so
 * |dx| + |dy| <= 1024 and dx + 512, dy + 512 in 0 .. 1024 fit 11 bits. */
GCV_MOTION_FN uint64_t
gcv_motion_key (uint32_t sad, int dx, int dy)
{
  uint32_t l1 = (uint32_t) ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));
  return ((uint64_t) sad << 33) | ((uint64_t) l1 << 22) | ((uint64_t) (dy + 512) << 11)
      | (uint64_t) (dx + 512);
}

GCV_MOTION_FN uint32_t gcv_motion_key_sad (uint64_t key) { return (uint32_t) (key >> 33); }
GCV_MOTION_FN int gcv_motion_key_dx (uint64_t key) { return (int) (key & 2047u) - 512; }
GCV_MOTION_FN int gcv_motion_key_dy (uint64_t key) { return (int) ((key >> 11) & 2047u) - 512; }

/* Bilinear sample of C at (X, Y) q; row = C's row j = Y >> 2, stride in
 * bytes.  Reads C[j][i+1] only when fx > 0 and row j + 1 only when fy > 0. */
GCV_MOTION_FN int
gcv_motion_sample (const uint8_t * c, size_t stride, int X, int Y)
{
  int i = X >> 2, j = Y >> 2, fx = X & 3, fy = Y & 3;
  const uint8_t *r0 = c + (size_t) j * stride + i;
  int top, bot;

  if (fx == 0 && fy == 0)
    return r0[0];
  top = (4 - fx) * r0[0] + (fx ? fx * r0[1] : 0);
  if (fy == 0)
    return (4 * top + 8) >> 4;
  bot = (4 - fx) * r0[stride] + (fx ? fx * r0[stride + 1] : 0);
  return ((4 - fy) * top + fy * bot + 8) >> 4;
}

/* Cq of eq. 4 and the test "suppress this block's motion". */
GCV_MOTION_FN uint32_t
gcv_motion_zero_threshold_q8 (double c)
{
  return c <= 0.0 ? 0u : (uint32_t) (256.0 * c + 0.5);
}

GCV_MOTION_FN int
gcv_motion_suppressed (uint32_t threshold_q8, uint32_t sad, int w, int h)
{
  return threshold_q8 > 0 && (uint64_t) sad * 256u <= (uint64_t) threshold_q8 * (uint64_t) (w * h);
}

/* ---- CPU backend (cpu/motionest_cpu.c) ---------------------------------
 * The context keeps the reference frame (a copy) and all working memory for
 * one frame size; parameters come with every call and may change between
 * calls (memory they need that the context lacks is allocated then, once). */
typedef struct _GcvMotionCpu GcvMotionCpu;

GcvMotionCpu *gcv_motion_cpu_new (int width, int height, GcvError * err);
/* Makes `luma` (GRAY8, width x height) the reference P. */
GcvStatus gcv_motion_cpu_set_reference (GcvMotionCpu * ctx, const GcvPlane * luma, GcvError * err);
/* Searches every block of the reference in `cur` and writes cols x rows
 * vectors (raster order); then `cur` becomes the reference.  Fails
 * (GCV_ERROR_INVALID) when no reference was set.  n_threads: at most that
 * many threads (0: one per core), as many as the frame is worth
 * (gcv-parallel.h).  Stopped (GCV_ERROR_CANCELLED): the vectors are
 * incomplete and the reference is kept. */
GcvStatus gcv_motion_cpu_process (GcvMotionCpu * ctx, const GcvMotionParams * params,
    const GcvPlane * cur, GcvMotionVector * vectors, int n_threads, GcvError * err);
/* The stop request _process watches (NULL: none). */
void gcv_motion_cpu_set_cancel (GcvMotionCpu * ctx, const GcvCancel * cancel);
void gcv_motion_cpu_free (GcvMotionCpu * ctx);

/* ---- CUDA backend (kernels/motionest.cu; only when built with CUDA) ----
 * A context works in the CUDA context current on the calling thread when
 * _new ran (the caller makes its device current before every call, else
 * the call fails with GCV_ERROR_INVALID; a context never changes the
 * device, creates no stream and never synchronises) and on the stream
 * passed to each call.  Calls only queue work: the caller waits for the
 * stream before it reads the results, and orders the streams itself when
 * it passes one context different ones.  Frames come as device planes and
 * are copied into the context's own padded layout on the stream; results
 * go straight to the caller's host memory.  A call refused for its
 * arguments queues nothing and leaves the context as it was.  All device
 * memory is allocated by _new (the vector buffers for the smallest
 * blocks). */
typedef struct _GcvMotionCuda GcvMotionCuda;

GcvMotionCuda *gcv_motion_cuda_new (int width, int height, GcvError * err);
/* Queues on `stream` the copy of `luma` (GRAY8, width x height, any pitch;
 * device memory, of this device or, when several GPUs work on one frame,
 * of another device: copy with cudaMemcpyDefault) into the context as the
 * reference P. */
GcvStatus gcv_motion_cuda_set_reference (GcvMotionCuda * ctx, const GcvPlane * luma, void *stream,
    GcvError * err);
/* Queues on `stream`: the copy of `cur` (as set_reference's luma) into the
 * context as C, the search of block rows row0 .. row1 - 1 (row1 = -1: to
 * the last) of P in C, and the download of those rows' vectors into
 * `vectors` (host memory holding the params' cols x rows grid; rows outside
 * the band are not written; page-locked memory keeps the copy
 * asynchronous); then C becomes P.  Fails (GCV_ERROR_INVALID) without a
 * reference, with bad params or rows.  The vectors are valid once the
 * caller has waited for the stream. */
GcvStatus gcv_motion_cuda_search (GcvMotionCuda * ctx, const GcvMotionParams * params, const GcvPlane * cur,
    int row0, int row1, GcvMotionVector * vectors, void *stream, GcvError * err);
/* The stop request _search watches (NULL: none): a full search of more
 * than about 20 ms of the device then goes in slices, the host at most
 * two slices ahead, and returns GCV_ERROR_CANCELLED between them when
 * asked (what was queued still runs: the caller waits for the stream). */
void gcv_motion_cuda_set_cancel (GcvMotionCuda * ctx, const GcvCancel * cancel);
/* Frees the context (the caller has waited for the streams it used). */
void gcv_motion_cuda_free (GcvMotionCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_MOTIONEST_H */
