/* gst-cuda-video: B-spline scaling on CUDA (paper 000, "Enhancement
 * example: spatial interpolation": IIR prefilter per scanline + separable
 * 4x4 FIR).
 *
 * Per plane, on float intermediates that live as long as the context,
 * either four kernels (frames above kSmallPixels input pixels)
 *   prefilter_columns  input -> coef_v   (bspline only)
 *   prefilter_rows     coef_v -> coef    (bspline only)
 *   fir_horizontal     coef (or the raw input) -> horiz, in_height rows
 *   fir_vertical       horiz -> output, quantised
 * or, for small frames, which those leave launch- and latency-bound, two
 *   prefilter_tile     input -> coef     (bspline only; both recursions)
 *   fir_tile           coef (or the raw input) -> output (both FIR passes)
 * that compute the same values with the same operations (choose_path).
 * Every arithmetic step is the contract's (cpu/bsplinescale.h), written with
 * round-to-nearest intrinsics (__fmul_rn, __fadd_rn, __fsub_rn) that the
 * compiler may not fuse into FMAs: the CPU twin is compiled with
 * -ffp-contract=off, so both give the same bits.
 *
 * The IIR is cut into independent segments of GCV_BSPLINE_SEGMENT samples
 * with GCV_BSPLINE_WARMUP samples of warm-up on each side (|z|^16 < 1e-9),
 * so one thread runs one segment instead of the paper's one thread per
 * scanline: a 1080p frame gets 34 segments per column instead of 1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bsplinescale.h"
#include "gcv-cuda-check.h"

#define SEG GCV_BSPLINE_SEGMENT
#define WARM GCV_BSPLINE_WARMUP

namespace {

/* Half-sample symmetric mirror into [0, n).  Branch-free on purpose: a
 * version with early returns for the common cases made the unrolled window
 * loads wait for one another and the prefilters 20-50% slower on an H100. */
__device__ __forceinline__ int
mirror_index (int i, int n)
{
  int period = 2 * n;
  int m = i % period;
  if (m < 0)
    m += period;
  return m >= n ? period - 1 - m : m;
}

/* The same mirror for indices in [-n, 2n), one reflection, with selects
 * only: a segment's window (j in [a - WARM, a + SEG + WARM)) stays in that
 * range whenever n >= SEG + WARM. */
__device__ __forceinline__ int
mirror_once (int i, int n)
{
  const int m = i < 0 ? -1 - i : i;
  return m >= n ? 2 * n - 1 - m : m;
}

/* Calls fill(map) with the cheapest index map that is exact for the
 * segment from a of a scanline of n samples.  The choice is the same for a
 * whole block, so the branch is taken once, outside the unrolled loads; a
 * data-dependent branch per load (an earlier version) kept the loads from
 * overlapping and made the prefilters slower. */
template <typename Fill> __device__ __forceinline__ void
with_window_map (int a, int n, Fill fill)
{
  if (a >= WARM && a + SEG + WARM <= n)
    fill ([](int j) { return j; });
  else if (n >= SEG + WARM)
    fill ([n](int j) { return mirror_once (j, n); });
  else
    fill ([n](int j) { return mirror_index (j, n); });
}

template <typename T> __device__ __forceinline__ float
load_sample (const T * p)
{
  return (float) __ldg (p);
}

template <typename T> __device__ __forceinline__ void store_sample (T * p, float v);

template <> __device__ __forceinline__ void
store_sample<uint8_t> (uint8_t * p, float v)
{
  v = rintf (v);
  *p = (uint8_t) (v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
}

template <> __device__ __forceinline__ void
store_sample<uint16_t> (uint16_t * p, float v)
{
  v = rintf (v);
  *p = (uint16_t) (v < 0.0f ? 0.0f : v > 65535.0f ? 65535.0f : v);
}

template <> __device__ __forceinline__ void
store_sample<float> (float * p, float v)
{
  *p = v;
}

/* One segment of one scanline through the causal then the anticausal
 * recursion, over its window held in shared memory: win(k) is the slot of
 * sample a - WARM + k (k = 0 .. WINDOW - 1), overwritten with the causal
 * values; store(j, c) is called for j = a + SEG - 1 down to a (it may write
 * slot j - a + WARM, whose causal value has been read by then).
 *
 * The recursion runs in groups of kChainGroup samples, and the window
 * values of the next group are loaded while the current group computes, so
 * only the two dependent float operations of each step are on the chain
 * (about 8 cycles a step on an H100), not a shared-memory load per group.
 * The arithmetic is the contract's, in its order: only the loads moved.
 * The group loops are deliberately not unrolled: on small frames every SM
 * runs one block once, and fully unrolled code (a few hundred straight-line
 * instructions per kernel) spent more time in instruction-cache misses than
 * in arithmetic. */
constexpr int WINDOW = SEG + 2 * WARM;
constexpr int kChainGroup = 8;
static_assert (WARM % kChainGroup == 0 && SEG % kChainGroup == 0,
    "the warm-up and the segment are whole groups");

template <typename Win, typename Store> __device__ __forceinline__ void
prefilter_window (int a, Win win, Store store)
{
  const float z = GCV_BSPLINE_POLE;
  float state = 0.0f, next[kChainGroup];

  /* causal: k = 0 .. WINDOW - 1, the values from WARM on kept */
#pragma unroll
  for (int u = 0; u < kChainGroup; u++)
    next[u] = win (u);
#pragma unroll 1
  for (int k0 = 0; k0 < WINDOW; k0 += kChainGroup) {
    float cur[kChainGroup];
#pragma unroll
    for (int u = 0; u < kChainGroup; u++)
      cur[u] = next[u];
    if (k0 + kChainGroup < WINDOW) {
#pragma unroll
      for (int u = 0; u < kChainGroup; u++)
        next[u] = win (k0 + kChainGroup + u);
    }
#pragma unroll
    for (int u = 0; u < kChainGroup; u++) {
      state = __fadd_rn (cur[u], __fmul_rn (z, state));
      if (k0 >= WARM)
        win (k0 + u) = state;
    }
  }
  /* anticausal: k = WINDOW - 1 .. WARM, stored below SEG + WARM */
  state = 0.0f;
#pragma unroll
  for (int u = 0; u < kChainGroup; u++)
    next[u] = win (WINDOW - 1 - u);
#pragma unroll 1
  for (int k0 = WINDOW - 1; k0 >= WARM; k0 -= kChainGroup) {
    float cur[kChainGroup];
#pragma unroll
    for (int u = 0; u < kChainGroup; u++)
      cur[u] = next[u];
    if (k0 - kChainGroup >= WARM) {
#pragma unroll
      for (int u = 0; u < kChainGroup; u++)
        next[u] = win (k0 - kChainGroup - u);
    }
#pragma unroll
    for (int u = 0; u < kChainGroup; u++) {
      state = __fmul_rn (z, __fsub_rn (state, cur[u]));
      if (k0 < SEG + WARM)
        store (a + k0 - u - WARM, __fmul_rn (6.0f, state));
    }
  }
}

/* Vertical prefilter.  Block: kThreads float columns e0.. (e = x * channels
 * + c), the segment of rows from a = blockIdx.y * SEG.  The block copies the
 * WINDOW x kThreads window (rows a - WARM .. a + SEG + WARM - 1, mirrored)
 * to shared memory, a warp reading 32 consecutive samples of a row per load
 * (coalesced) with 16 loads in flight per thread; then each thread runs its
 * column (tile[k][t]: conflict-free) and stores its SEG results, a warp
 * storing 32 consecutive floats of a row. */
constexpr int kThreads = 128;

template <typename T> __global__ void __launch_bounds__ (kThreads)
prefilter_columns (const T * __restrict__ in, size_t in_pitch, float *__restrict__ out,
    size_t out_pitch, int row_floats, int height)
{
  __shared__ float tile[WINDOW][kThreads];
  const int t = threadIdx.x;
  const int e = blockIdx.x * kThreads + t;
  const int a = blockIdx.y * SEG;
  if (e >= row_floats)
    return;
  with_window_map (a, height, [&](auto map) {
#pragma unroll 16
    for (int k = 0; k < WINDOW; k++)
      tile[k][t] = load_sample ((const T *) ((const char *) in + in_pitch * map (a - WARM + k)) + e);
  });
  /* each thread only ever touches its own column: no barrier */
  prefilter_window (a,
      [&](int k) -> float & { return tile[k][t]; },
      [&](int j, float c) {
        if (j < height)
          ((float *) ((char *) out + out_pitch * j))[e] = c;
      });
}

/* Horizontal prefilter.  Block: kThreads threads, ROWS = kThreads / C rows
 * from r0, one segment (samples from a = blockIdx.y * SEG), every channel;
 * thread t runs row r0 + t % ROWS, channel t / ROWS, so a warp holds 32
 * rows of one channel.  The block first copies the window (WINDOW samples x
 * C channels of each row, mirrored) to shared memory row by row (coalesced);
 * rows are padded by one float, so the 32 lanes, one row apart, hit 32
 * banks.  Each thread writes its coefficients back over its own window
 * slots, and after a barrier the block stores the SEG x C middle of every
 * row, coalesced.  (Reading one row per thread straight from global memory,
 * the paper's mapping, touches a different row in every lane and re-reads
 * each sector once per channel: 11x the DRAM traffic at 4K RGBA.) */
template <int C> __global__ void __launch_bounds__ (kThreads)
prefilter_rows (const float *__restrict__ in, size_t in_pitch, float *__restrict__ out,
    size_t out_pitch, int width, int height)
{
  constexpr int ROWS = kThreads / C;
  constexpr int SPAN = WINDOW * C;              /* floats of one row's window */
  constexpr int STRIDE = SPAN + 1;
  __shared__ float tile[ROWS * STRIDE];
  const int r0 = blockIdx.x * ROWS;
  const int a = blockIdx.y * SEG;
  with_window_map (a, width, [&](auto map) {
#pragma unroll 16
    for (int i = threadIdx.x; i < ROWS * SPAN; i += kThreads) {
      const int rr = i / SPAN, q = i - rr * SPAN;
      const int row = min (r0 + rr, height - 1);
      tile[rr * STRIDE + q] = __ldg ((const float *) ((const char *) in + in_pitch * row)
          + map (a - WARM + q / C) * C + q % C);
    }
  });
  __syncthreads ();

  const int r = threadIdx.x % ROWS, c = threadIdx.x / ROWS;
  if (c < C && r0 + r < height) {
    float *row = tile + r * STRIDE + c;
    prefilter_window (a,
        [&](int k) -> float & { return row[k * C]; },
        [&](int j, float val) { row[(j - (a - WARM)) * C] = val; });
  }
  __syncthreads ();

  const int seg_floats = min (SEG, width - a) * C;
  for (int i = threadIdx.x; i < ROWS * seg_floats; i += kThreads) {
    const int rr = i / seg_floats, q = i - rr * seg_floats;
    if (r0 + rr >= height)
      break;
    ((float *) ((char *) out + out_pitch * (r0 + rr)))[a * C + q] = tile[rr * STRIDE + WARM * C + q];
  }
}

template <int C> static void
launch_prefilter_rows (cudaStream_t stream, const float *in, size_t in_pitch, float *out,
    size_t out_pitch, int width, int height)
{
  constexpr int ROWS = kThreads / C;
  dim3 grid ((height + ROWS - 1) / ROWS, (width + SEG - 1) / SEG);
  prefilter_rows<C><<<grid, kThreads, 0, stream>>> (in, in_pitch, out, out_pitch, width, height);
}

/* Programmatic dependent launch (sm_90): the kernel launched after
 * prefilter_tile with the stream-serialisation attribute may start while
 * prefilter_tile runs and waits in grid_dependency_wait() until that grid has
 * finished and its stores are visible.  Both are no-ops on older GPUs and
 * for kernels launched without the attribute. */
__device__ __forceinline__ void
grid_dependents_launch ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void
grid_dependency_wait ()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile ("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Both prefilters of a small frame in one launch.  Block: the SEG x SEG
 * pixels from row a = blockIdx.y * SEG, column b = blockIdx.x * SEG, of
 * channel c = blockIdx.z.  The block copies the WINDOW x WINDOW window
 * (rows a - WARM .., columns b - WARM .., both mirrored) to shared memory
 * as float, 16 loads per thread in flight at once; then WINDOW threads run
 * the vertical recursion of the window's columns (segment a, in place),
 * SEG threads the horizontal recursion of its rows a .. a + SEG - 1
 * (segment b, in place), and the block stores the SEG x SEG middle.  Each
 * chain is the one prefilter_columns or prefilter_rows runs for that
 * column or row segment (same samples in the same order), so the
 * coefficients are the same bits; the columns of the window's margins are
 * computed by two blocks, which costs nothing on a frame too small to fill
 * the GPU.  Shared memory: WINDOW rows of WINDOW + 1 floats (16.6 KB). */
constexpr int kTileThreads = 256;
constexpr int kTileStride = WINDOW + 1;
static_assert (kTileThreads >= 2 * WINDOW && kTileThreads % WINDOW == 0,
    "one thread per window row and column; whole window rows per pass");

template <typename T> __global__ void __launch_bounds__ (kTileThreads)
prefilter_tile (const T * __restrict__ in, size_t in_pitch, float *__restrict__ out,
    size_t out_pitch, int width, int height, int channels)
{
  __shared__ float win[WINDOW * kTileStride];
  __shared__ const T *rows[WINDOW];
  __shared__ int cols[WINDOW];
  const int tid = threadIdx.x;
  const int b = blockIdx.x * SEG, a = blockIdx.y * SEG, c = blockIdx.z;

  grid_dependents_launch ();
  /* the mirrored rows and columns of the window, once per block */
  if (tid < WINDOW)
    rows[tid] = (const T *) ((const char *) in + in_pitch * mirror_index (a - WARM + tid, height));
  else if (tid < 2 * WINDOW)
    cols[tid - WINDOW] = mirror_index (b - WARM + tid - WINDOW, width) * channels + c;
  __syncthreads ();
  {
    /* all row pointers, then all loads, then all stores: written as one
     * loop (load, store, next pointer) the compiler kept each load behind
     * the previous store, 16 global latencies in a row (ncu on an H200:
     * 9.6 us a launch at 256x256, most of it waiting on them; 5.3 us now) */
    constexpr int kRowsPerPass = kTileThreads / WINDOW;
    constexpr int kLoads = WINDOW / kRowsPerPass;
    const int x = tid % WINDOW, k0 = tid / WINDOW;
    const int col = cols[x];
    const T *src[kLoads];
    float v[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; j++)
      src[j] = rows[k0 + j * kRowsPerPass] + col;
#pragma unroll
    for (int j = 0; j < kLoads; j++)
      v[j] = load_sample (src[j]);
#pragma unroll
    for (int j = 0; j < kLoads; j++)
      win[(k0 + j * kRowsPerPass) * kTileStride + x] = v[j];
  }
  __syncthreads ();
  if (tid < WINDOW)
    prefilter_window (a,
        [&](int k) -> float & { return win[k * kTileStride + tid]; },
        [&](int j, float v) { win[(j - a + WARM) * kTileStride + tid] = v; });
  __syncthreads ();
  if (tid < SEG && a + tid < height) {
    float *row = win + (WARM + tid) * kTileStride;
    prefilter_window (b,
        [&](int k) -> float & { return row[k]; },
        [&](int j, float v) { row[j - b + WARM] = v; });
  }
  __syncthreads ();
  const int n_rows = min (SEG, height - a), n_cols = min (SEG, width - b);
  for (int i = tid; i < SEG * SEG; i += kTileThreads) {
    const int r = i / SEG, x = i % SEG;
    if (r < n_rows && x < n_cols)
      ((float *) ((char *) out + out_pitch * (a + r)))[(b + x) * channels + c] =
          win[(WARM + r) * kTileStride + WARM + x];
  }
}

/* Horizontal FIR.  Thread (e, y): output float e = ox * channels + c of
 * row y: sum over the taps of weight * source sample, in tap order.  The
 * table of output ox is read by the `channels` threads sharing it. */
template <typename T> __global__ void
fir_horizontal (const T * __restrict__ in, size_t in_pitch, float *__restrict__ out,
    size_t out_pitch, const int32_t * __restrict__ index, const float *__restrict__ weight,
    int taps, int out_floats, int channels)
{
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y;
  if (e >= out_floats)
    return;
  const int ox = e / channels, c = e - ox * channels;
  const T *src = (const T *) ((const char *) in + in_pitch * y) + c;
  const int32_t *idx = index + (size_t) ox * taps;
  const float *w = weight + (size_t) ox * taps;
  float acc = 0.0f;
  for (int t = 0; t < taps; t++)
    acc = __fadd_rn (acc, __fmul_rn (__ldg (w + t), load_sample (src + (size_t) __ldg (idx + t) * channels)));
  ((float *) ((char *) out + out_pitch * y))[e] = acc;
}

/* Vertical FIR.  Thread (e, oy): kVerticalRun consecutive floats e.. of
 * output row oy (the source rows are padded to 16 bytes, so a run is one
 * float4 load per tap).  The whole block shares oy, so its table entries
 * are uniform loads; a warp reads 512 consecutive bytes of each source row
 * and stores 32 runs of consecutive samples. */
constexpr int kVerticalRun = 4;

template <typename T> __global__ void
fir_vertical (const float *__restrict__ in, size_t in_pitch, T * __restrict__ out,
    size_t out_pitch, const int32_t * __restrict__ index, const float *__restrict__ weight,
    int taps, int row_floats)
{
  const int e = (blockIdx.x * blockDim.x + threadIdx.x) * kVerticalRun;
  const int oy = blockIdx.y;
  if (e >= row_floats)
    return;
  const int32_t *idx = index + (size_t) oy * taps;
  const float *w = weight + (size_t) oy * taps;
  float acc[kVerticalRun] = { 0.0f, 0.0f, 0.0f, 0.0f };
  for (int t = 0; t < taps; t++) {
    const float wt = __ldg (w + t);
    const float4 v = __ldg ((const float4 *) ((const char *) in + in_pitch * __ldg (idx + t)) + e / 4);
    acc[0] = __fadd_rn (acc[0], __fmul_rn (wt, v.x));
    acc[1] = __fadd_rn (acc[1], __fmul_rn (wt, v.y));
    acc[2] = __fadd_rn (acc[2], __fmul_rn (wt, v.z));
    acc[3] = __fadd_rn (acc[3], __fmul_rn (wt, v.w));
  }
  T *dst = (T *) ((char *) out + out_pitch * oy) + e;
#pragma unroll
  for (int k = 0; k < kVerticalRun; k++)
    if (e + k < row_floats)
      store_sample (dst + k, acc[k]);
}

/* Both FIR passes of a small frame in one launch.  Block: output floats
 * e0 = blockIdx.x * kFirTileFloats .. + kFirTileFloats - 1 of output rows
 * oy0 = blockIdx.y * kFirTileRows .. + kFirTileRows - 1.  The input rows
 * those outputs read, range = (first, count) from the host (at most
 * kFirTileMaxRows), go through the horizontal pass into shared memory,
 * then the vertical pass reads them there.  Each horizontal value is the
 * one fir_horizontal computes for (e, row), each output the one
 * fir_vertical computes, taps in the same order: the same bits, without
 * the round trip of the horizontal result through global memory and
 * without a second launch.  Thread (t, lane): column e0 + t; rows lane,
 * lane + kFirLanes, ... of each pass, kFirBatch (horizontal) or all
 * kFirTileRows / kFirLanes (vertical) of them summed side by side so that
 * their loads are in flight together.
 * The tables do not depend on the kernel before (prefilter_tile), so they
 * are read before grid_dependency_wait(), while it finishes: the vertical
 * pass's tile rows into shared memory, the first kFirPreTaps taps of the
 * horizontal pass into registers (the rest, for long antialias filters,
 * after the wait as before).  With programmatic dependent launch that
 * takes two table round trips off the chain after the wait (H100,
 * 256x256 -> 512x512 GRAY8 B-spline, launched one by one: 11.0 -> 10.4 us;
 * docs/performance.md).  Shared memory:
 * kFirTileMaxRows x kFirTileFloats floats (24 KB) and the vertical tables
 * (6 KB). */
constexpr int kFirTileFloats = 128;
constexpr int kFirTileRows = 16;
constexpr int kFirTileMaxRows = 48;
constexpr int kFirTileMaxTaps = 48;     /* vertical taps (else the separate kernels) */
constexpr int kFirPreTaps = 4;          /* horizontal taps read before the wait */
constexpr int kFirThreads = 256;
constexpr int kFirLanes = kFirThreads / kFirTileFloats;
constexpr int kFirBatch = 6;

struct FirTables
{
  const int32_t *x_index;
  const float *x_weight;
  const int32_t *y_index;
  const float *y_weight;
  const int2 *y_range;          /* per row of tiles: first input row, rows */
  int x_taps, y_taps;
};

template <typename S, typename T> __global__ void __launch_bounds__ (kFirThreads)
fir_tile (const S * __restrict__ in, size_t in_pitch, T * __restrict__ out, size_t out_pitch,
    FirTables tab, int out_floats, int out_height, int channels)
{
  __shared__ float horiz[kFirTileMaxRows * kFirTileFloats];
  /* the tile's vertical taps: output row oy0 + r, tap k at r * y_taps + k
   * (weight, and the input row relative to range.x) */
  __shared__ float y_weight[kFirTileRows * kFirTileMaxTaps];
  __shared__ int y_row[kFirTileRows * kFirTileMaxTaps];
  const int t = threadIdx.x % kFirTileFloats, lane = threadIdx.x / kFirTileFloats;
  const int e = blockIdx.x * kFirTileFloats + t;
  const int oy0 = blockIdx.y * kFirTileRows;
  const int2 range = __ldg (tab.y_range + blockIdx.y);
  const bool live = e < out_floats;     /* no return: the barriers below */
  const int ox = live ? e / channels : 0, c = e - ox * channels;
  const int32_t *idx = tab.x_index + (size_t) ox * tab.x_taps;
  const float *w = tab.x_weight + (size_t) ox * tab.x_taps;

  /* the tables, before the wait (rows past the frame take its last row's
   * taps, as they repeat it) */
  for (int i = threadIdx.x; i < kFirTileRows * tab.y_taps; i += kFirThreads) {
    const int r = i / tab.y_taps, k = i - r * tab.y_taps;
    const size_t o = (size_t) min (oy0 + r, out_height - 1) * tab.y_taps + k;
    y_weight[i] = __ldg (tab.y_weight + o);
    y_row[i] = __ldg (tab.y_index + o) - range.x;
  }
  float pre_w[kFirPreTaps];
  size_t pre_o[kFirPreTaps];
#pragma unroll
  for (int k = 0; k < kFirPreTaps; k++) {
    pre_w[k] = k < tab.x_taps ? __ldg (w + k) : 0.0f;
    pre_o[k] = k < tab.x_taps ? (size_t) __ldg (idx + k) * channels : 0;
  }

  grid_dependency_wait ();
  if (live) {
    for (int r0 = lane; r0 < range.y; r0 += kFirLanes * kFirBatch) {
      const S *src[kFirBatch];
      float acc[kFirBatch];
#pragma unroll
      for (int q = 0; q < kFirBatch; q++) {
        /* rows past the range repeat its last one and are not stored */
        const int r = min (r0 + q * kFirLanes, range.y - 1);
        src[q] = (const S *) ((const char *) in + in_pitch * (range.x + r)) + c;
        acc[q] = 0.0f;
      }
#pragma unroll
      for (int k = 0; k < kFirPreTaps; k++)
        if (k < tab.x_taps)
#pragma unroll
          for (int q = 0; q < kFirBatch; q++)
            acc[q] = __fadd_rn (acc[q], __fmul_rn (pre_w[k], load_sample (src[q] + pre_o[k])));
      for (int k = kFirPreTaps; k < tab.x_taps; k++) {
        const float wt = __ldg (w + k);
        const size_t o = (size_t) __ldg (idx + k) * channels;
#pragma unroll
        for (int q = 0; q < kFirBatch; q++)
          acc[q] = __fadd_rn (acc[q], __fmul_rn (wt, load_sample (src[q] + o)));
      }
#pragma unroll
      for (int q = 0; q < kFirBatch; q++)
        if (r0 + q * kFirLanes < range.y)
          horiz[(r0 + q * kFirLanes) * kFirTileFloats + t] = acc[q];
    }
  }
  __syncthreads ();
  if (!live)
    return;
  constexpr int kRows = kFirTileRows / kFirLanes;
  float acc[kRows];
#pragma unroll
  for (int q = 0; q < kRows; q++)
    acc[q] = 0.0f;
  for (int k = 0; k < tab.y_taps; k++) {
#pragma unroll
    for (int q = 0; q < kRows; q++) {
      /* rows past the frame repeat its last one and are not stored */
      const int i = (lane + q * kFirLanes) * tab.y_taps + k;
      acc[q] = __fadd_rn (acc[q], __fmul_rn (y_weight[i], horiz[y_row[i] * kFirTileFloats + t]));
    }
  }
#pragma unroll
  for (int q = 0; q < kRows; q++) {
    const int oy = oy0 + lane + q * kFirLanes;
    if (oy < out_height)
      store_sample ((T *) ((char *) out + out_pitch * oy) + e, acc[q]);
  }
}

/* Launch helpers keyed by the runtime sample type. */
template <template <typename> class Launch, typename... Args> cudaError_t
by_type (GcvSampleType type, Args... args)
{
  switch (type) {
    case GCV_SAMPLE_U8:
      return Launch<uint8_t>::run (args...);
    case GCV_SAMPLE_U16:
      return Launch<uint16_t>::run (args...);
    default:
      return Launch<float>::run (args...);
  }
}

template <typename T> struct LaunchPrefilterColumns {
  static cudaError_t run (cudaStream_t stream, const void *in, size_t in_pitch, float *out,
      size_t out_pitch, int row_floats, int height) {
    dim3 grid ((row_floats + kThreads - 1) / kThreads, (height + SEG - 1) / SEG);
    prefilter_columns<T><<<grid, kThreads, 0, stream>>> ((const T *) in, in_pitch, out, out_pitch,
        row_floats, height);
    return cudaGetLastError ();
  }
};

template <typename T> struct LaunchFirHorizontal {
  static cudaError_t run (cudaStream_t stream, const void *in, size_t in_pitch, float *out,
      size_t out_pitch, const int32_t *index, const float *weight, int taps, int out_floats,
      int channels, int rows) {
    dim3 grid ((out_floats + kThreads - 1) / kThreads, rows);
    fir_horizontal<T><<<grid, kThreads, 0, stream>>> ((const T *) in, in_pitch, out, out_pitch,
        index, weight, taps, out_floats, channels);
    return cudaGetLastError ();
  }
};

template <typename T> struct LaunchFirVertical {
  static cudaError_t run (cudaStream_t stream, const float *in, size_t in_pitch, void *out,
      size_t out_pitch, const int32_t *index, const float *weight, int taps, int row_floats,
      int rows) {
    const int runs = (row_floats + kVerticalRun - 1) / kVerticalRun;
    dim3 grid ((runs + kThreads - 1) / kThreads, rows);
    fir_vertical<T><<<grid, kThreads, 0, stream>>> (in, in_pitch, (T *) out, out_pitch, index,
        weight, taps, row_floats);
    return cudaGetLastError ();
  }
};

template <typename T> struct LaunchPrefilterTile {
  static cudaError_t run (cudaStream_t stream, const void *in, size_t in_pitch, float *out,
      size_t out_pitch, int width, int height, int channels) {
    dim3 grid ((width + SEG - 1) / SEG, (height + SEG - 1) / SEG, channels);
    prefilter_tile<T><<<grid, kTileThreads, 0, stream>>> ((const T *) in, in_pitch, out, out_pitch,
        width, height, channels);
    return cudaGetLastError ();
  }
};

/* prefilter_tile<T>'s address, to find its node in a captured graph */
template <typename T> struct PrefilterTileFunc {
  static cudaError_t run (const void **func) {
    *func = (const void *) prefilter_tile<T>;
    return cudaSuccess;
  }
};

/* pdl: launched with programmatic stream serialisation, so that it starts
 * while prefilter_tile, the kernel before it on the stream, runs. */
template <typename S, typename T> static cudaError_t
launch_fir_tile (cudaStream_t stream, bool pdl, const void *in, size_t in_pitch, void *out,
    size_t out_pitch, const FirTables & tab, int out_floats, int out_height, int channels)
{
  dim3 grid ((out_floats + kFirTileFloats - 1) / kFirTileFloats,
      (out_height + kFirTileRows - 1) / kFirTileRows);
  if (!pdl) {
    fir_tile<S, T><<<grid, kFirThreads, 0, stream>>> ((const S *) in, in_pitch, (T *) out, out_pitch,
        tab, out_floats, out_height, channels);
    return cudaGetLastError ();
  }
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3 (kFirThreads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx (&config, fir_tile<S, T>, (const S *) in, in_pitch, (T *) out,
      out_pitch, tab, out_floats, out_height, channels);
  return e != cudaSuccess ? e : cudaGetLastError ();
}

/* from_coef: the source is the float coefficients, else the input (T) */
template <typename T> struct LaunchFirTile {
  static cudaError_t run (cudaStream_t stream, bool from_coef, bool pdl, const void *in,
      size_t in_pitch, void *out, size_t out_pitch, FirTables tab, int out_floats, int out_height,
      int channels) {
    return from_coef ? launch_fir_tile<float, T> (stream, pdl, in, in_pitch, out, out_pitch, tab,
        out_floats, out_height, channels)
        : launch_fir_tile<T, T> (stream, pdl, in, in_pitch, out, out_pitch, tab, out_floats,
        out_height, channels);
  }
};

}                               /* namespace */

/* One axis' FIR table on the device, sized for the most taps any method
 * can need, so that a method change only re-uploads. */
struct DeviceAxis
{
  int32_t *index = nullptr;
  float *weight = nullptr;
  int capacity = 0;             /* taps * n_out entries */
  int taps = 0;
  /* fir_tile's rows of tiles (vertical axis, contexts that run fir_tile):
   * per kFirTileRows outputs, the first input row they read and how many
   * from there; range_max the most of any */
  int2 *range = nullptr;
  int n_ranges = 0;
  int range_max = 0;
};

/* A small B-spline frame's two launches (prefilter_tile, then fir_tile
 * with its programmatic dependency) as one CUDA graph, captured at the
 * context's first such frame on a private stream (the caller's may be the
 * legacy stream, which cannot be captured).  Each frame sets both nodes'
 * arguments (the planes change from frame to frame, the taps with the
 * method) and launches the graph on the caller's stream: one submission
 * instead of two (H100, 256x256 -> 512x512 GRAY8: 10.4 -> 10.0 us,
 * docs/performance.md).
 * args point at the values below, which cudaGraphExecKernelNodeSetParams
 * copies. */
struct SmallFrameGraph
{
  cudaStream_t capture = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaGraphNode_t prefilter = nullptr, fir = nullptr;
  cudaKernelNodeParams prefilter_node = {}, fir_node = {};
  struct {
    const void *in;
    size_t in_pitch;
    float *out;
    size_t out_pitch;
    int width, height, channels;
    void *args[7];
  } pa = {};
  struct {
    const void *in;
    size_t in_pitch;
    void *out;
    size_t out_pitch;
    FirTables tab;
    int out_floats, out_height, channels;
    void *args[8];
  } fa = {};
  bool failed = false;          /* capture or instantiation failed: launch plainly */
};

struct _GcvScaleCuda
{
  GcvScaleGeometry geom;
  GcvScaleParams params;
  bool have_tables = false;
  DeviceAxis x_axis, y_axis;
  float *coef_v = nullptr, *coef = nullptr, *horiz = nullptr;
  size_t coef_v_pitch = 0, coef_pitch = 0, horiz_pitch = 0;
  bool fused = false;           /* prefilter_tile (one launch for both prefilters) */
  bool fir_fused = false;       /* fir_tile, where the rows fit (one launch for both FIR passes) */
  bool pdl = false;             /* fir_tile starts during prefilter_tile (sm_90) */
  bool use_graph = false;       /* small B-spline frames through SmallFrameGraph */
  SmallFrameGraph sg;
};

/* Which kernels a context runs.  Frames of up to kSmallPixels input pixels
 * are bound by launches and by the longest thread's work, not by memory:
 * the four kernels of the separate path each last a launch plus one
 * thread's chain (docs/performance.md).  For them, prefilter_tile runs both
 * prefilters in one launch and fir_tile both FIR passes in one, which
 * prefilter_tile's trigger lets start early (programmatic dependent launch,
 * sm_90).  Larger frames keep the separate kernels, which do no work
 * twice.  Both paths give the same bits.  For benchmarks and tests,
 * GCV_BSPLINE_CUDA_PATH=separate or =fused forces a path for every size and
 * GCV_BSPLINE_CUDA_PDL=0 launches fir_tile plainly, GCV_BSPLINE_CUDA_GRAPH=0
 * the two small-frame kernels without SmallFrameGraph. */
constexpr long long kSmallPixels = 512 * 512;
/* fir_tile only up to this many output samples (width x height x
 * channels): it reads the horizontal pass's rows again for every tile of
 * 16 output rows, which pays on small outputs and costs on larger ones
 * (H100, bspline: 256x256 x2 RGBA, 1 M samples, 26.5 -> 17.0 us; 176x144 x7
 * GRAY8, 1.2 M, 18.5 -> 17.0; 176x144 x7 RGBA, 5 M, 27.3 with the fused
 * prefilter alone, 34.2 with both fused); prefilter_tile pays on all. */
constexpr long long kSmallFirSamples = 2 * 1024 * 1024;

static GcvStatus
choose_path (GcvScaleCuda * ctx, GcvError * err)
{
  const char *path = getenv ("GCV_BSPLINE_CUDA_PATH");
  const char *pdl = getenv ("GCV_BSPLINE_CUDA_PDL");
  const char *graph = getenv ("GCV_BSPLINE_CUDA_GRAPH");
  int dev = 0, major = 0;

  if (path == NULL || path[0] == '\0' || strcmp (path, "auto") == 0) {
    ctx->fused = (long long) ctx->geom.in_width * ctx->geom.in_height <= kSmallPixels;
    ctx->fir_fused = ctx->fused
        && (long long) ctx->geom.out_width * ctx->geom.out_height * ctx->geom.channels <= kSmallFirSamples;
  } else if (strcmp (path, "fused") == 0 || strcmp (path, "separate") == 0) {
    ctx->fused = ctx->fir_fused = path[0] == 'f';
  } else {
    gcv_error_set (err, GCV_ERROR_INVALID,
        "bsplinescale: GCV_BSPLINE_CUDA_PATH=%s: must be auto, fused or separate", path);
    return GCV_ERROR_INVALID;
  }
  GCV_CUDA_TRY (cudaGetDevice (&dev), err, "bsplinescale: cudaGetDevice");
  GCV_CUDA_TRY (cudaDeviceGetAttribute (&major, cudaDevAttrComputeCapabilityMajor, dev), err,
      "bsplinescale: cudaDeviceGetAttribute (compute capability)");
  ctx->pdl = ctx->fir_fused && major >= 9 && !(pdl != NULL && strcmp (pdl, "0") == 0);
  ctx->use_graph = ctx->fused && ctx->fir_fused && !(graph != NULL && strcmp (graph, "0") == 0);
  return GCV_OK;
}

/* tiles: also room for fir_tile's row ranges (the vertical axis of a
 * context that runs fir_tile: not of one that fuses the prefilter only) */
static GcvStatus
axis_alloc (DeviceAxis * axis, int n_in, int n_out, bool tiles, GcvError * err)
{
  /* bspline and catmull-rom with antialias have the widest support */
  GcvScaleParams widest = { GCV_SCALE_BSPLINE, 1 };
  axis->capacity = gcv_scale_axis_taps (&widest, n_in, n_out) * n_out;
  GCV_CUDA_TRY (cudaMalloc ((void **) &axis->index, sizeof (int32_t) * axis->capacity), err,
      "bsplinescale: cudaMalloc (tap indices)");
  GCV_CUDA_TRY (cudaMalloc ((void **) &axis->weight, sizeof (float) * axis->capacity), err,
      "bsplinescale: cudaMalloc (tap weights)");
  if (tiles) {
    axis->n_ranges = (n_out + kFirTileRows - 1) / kFirTileRows;
    GCV_CUDA_TRY (cudaMalloc ((void **) &axis->range, sizeof (int2) * axis->n_ranges), err,
        "bsplinescale: cudaMalloc (row ranges)");
  }
  return GCV_OK;
}

/* fir_tile's row ranges of the table `host` into axis->range (allocated
 * for n_ranges entries): the input rows the outputs of each tile read lie
 * in [first, first + count), trailing zero-weight taps included. */
static GcvStatus
axis_upload_ranges (DeviceAxis * axis, const GcvScaleAxis * host, cudaStream_t stream,
    GcvError * err)
{
  int2 *range = (int2 *) malloc (sizeof (int2) * axis->n_ranges);
  if (range == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "bsplinescale: out of host memory");
    return GCV_ERROR_NO_MEMORY;
  }
  axis->range_max = 0;
  for (int r = 0; r < axis->n_ranges; r++) {
    const int o_end = std::min ((r + 1) * kFirTileRows, host->n_out);
    int lo = host->n_in, hi = -1;
    for (size_t i = (size_t) r * kFirTileRows * host->taps; i < (size_t) o_end * host->taps; i++) {
      lo = std::min (lo, (int) host->index[i]);
      hi = std::max (hi, (int) host->index[i]);
    }
    range[r] = make_int2 (lo, hi - lo + 1);
    axis->range_max = std::max (axis->range_max, hi - lo + 1);
  }
  /* pageable source: returns once staged (see axis_upload) */
  cudaError_t e = cudaMemcpyAsync (axis->range, range, sizeof (int2) * axis->n_ranges,
      cudaMemcpyHostToDevice, stream);
  free (range);
  GCV_CUDA_TRY (e, err, "bsplinescale: uploading the row ranges");
  return GCV_OK;
}

static GcvStatus
axis_upload (DeviceAxis * axis, const GcvScaleParams * params, int n_in, int n_out,
    cudaStream_t stream, GcvError * err)
{
  GcvScaleAxis host;
  GcvStatus st = gcv_scale_axis_init (&host, params, n_in, n_out, err);
  if (st != GCV_OK)
    return st;
  if (host.taps * n_out > axis->capacity) {
    gcv_scale_axis_clear (&host);
    gcv_error_set (err, GCV_ERROR_INVALID, "bsplinescale: table of %d taps does not fit", host.taps);
    return GCV_ERROR_INVALID;
  }
  axis->taps = host.taps;
  /* pageable source: the calls return once the host data has been staged,
   * so the table can be freed right after */
  cudaError_t e = cudaMemcpyAsync (axis->index, host.index, sizeof (int32_t) * host.taps * n_out,
      cudaMemcpyHostToDevice, stream);
  if (e == cudaSuccess)
    e = cudaMemcpyAsync (axis->weight, host.weight, sizeof (float) * host.taps * n_out,
        cudaMemcpyHostToDevice, stream);
  if (e == cudaSuccess && axis->range != NULL)
    st = axis_upload_ranges (axis, &host, stream, err);
  gcv_scale_axis_clear (&host);
  GCV_CUDA_TRY (e, err, "bsplinescale: uploading the FIR table");
  return st;
}

static void
small_graph_clear (SmallFrameGraph * sg)
{
  if (sg->exec)
    cudaGraphExecDestroy (sg->exec);
  if (sg->graph)
    cudaGraphDestroy (sg->graph);
  sg->exec = nullptr;
  sg->graph = nullptr;
}

/* Captures the two launches of `tab`'s small frame into ctx->sg (false:
 * it could not; the caller launches plainly from then on). */
static bool
small_graph_build (GcvScaleCuda * ctx, const FirTables & tab, int out_floats)
{
  SmallFrameGraph *sg = &ctx->sg;
  const GcvScaleGeometry *g = &ctx->geom;
  const void *prefilter_func = nullptr;
  cudaGraphNode_t nodes[2];
  size_t n_nodes = 2;

  if (sg->capture == nullptr && cudaStreamCreateWithFlags (&sg->capture, cudaStreamNonBlocking) != cudaSuccess)
    return false;
  if (cudaStreamBeginCapture (sg->capture, cudaStreamCaptureModeThreadLocal) != cudaSuccess)
    return false;
  /* the planes of the capture are placeholders: every launch sets them */
  cudaError_t e1 = by_type<LaunchPrefilterTile> (g->type, sg->capture, (const void *) ctx->coef,
      ctx->coef_pitch, ctx->coef, ctx->coef_pitch, g->in_width, g->in_height, g->channels);
  cudaError_t e2 = by_type<LaunchFirTile> (g->type, sg->capture, true, ctx->pdl, (const void *) ctx->coef,
      ctx->coef_pitch, (void *) ctx->horiz, ctx->horiz_pitch, tab, out_floats, g->out_height, g->channels);
  cudaError_t e3 = cudaStreamEndCapture (sg->capture, &sg->graph);
  if (e1 != cudaSuccess || e2 != cudaSuccess || e3 != cudaSuccess
      || cudaGraphInstantiate (&sg->exec, sg->graph, 0) != cudaSuccess
      || cudaGraphGetNodes (sg->graph, nodes, &n_nodes) != cudaSuccess || n_nodes != 2
      || by_type<PrefilterTileFunc> (g->type, &prefilter_func) != cudaSuccess) {
    cudaGetLastError ();        /* a failed launch inside the capture is not sticky */
    small_graph_clear (sg);
    return false;
  }
  for (int k = 0; k < 2; k++) {
    cudaKernelNodeParams p;
    if (cudaGraphKernelNodeGetParams (nodes[k], &p) != cudaSuccess) {
      small_graph_clear (sg);
      return false;
    }
    p.kernelParams = nullptr;
    p.extra = nullptr;
    if (p.func == prefilter_func) {
      sg->prefilter = nodes[k];
      sg->prefilter_node = p;
    } else {
      sg->fir = nodes[k];
      sg->fir_node = p;
    }
  }
  if (sg->prefilter == nullptr || sg->fir == nullptr) {
    small_graph_clear (sg);
    return false;
  }
  void **pa = sg->pa.args, **fa = sg->fa.args;
  pa[0] = &sg->pa.in;
  pa[1] = &sg->pa.in_pitch;
  pa[2] = &sg->pa.out;
  pa[3] = &sg->pa.out_pitch;
  pa[4] = &sg->pa.width;
  pa[5] = &sg->pa.height;
  pa[6] = &sg->pa.channels;
  fa[0] = &sg->fa.in;
  fa[1] = &sg->fa.in_pitch;
  fa[2] = &sg->fa.out;
  fa[3] = &sg->fa.out_pitch;
  fa[4] = &sg->fa.tab;
  fa[5] = &sg->fa.out_floats;
  fa[6] = &sg->fa.out_height;
  fa[7] = &sg->fa.channels;
  /* what stays for the context's life; small_graph_launch sets the rest */
  sg->pa.out = ctx->coef;
  sg->pa.out_pitch = ctx->coef_pitch;
  sg->pa.width = g->in_width;
  sg->pa.height = g->in_height;
  sg->pa.channels = g->channels;
  sg->fa.in = ctx->coef;
  sg->fa.in_pitch = ctx->coef_pitch;
  sg->fa.out_floats = out_floats;
  sg->fa.out_height = g->out_height;
  sg->fa.channels = g->channels;
  sg->prefilter_node.kernelParams = pa;
  sg->fir_node.kernelParams = fa;
  return true;
}

/* A small B-spline frame through ctx->sg: *launched false when the graph
 * cannot be had (the caller launches plainly). */
static GcvStatus
small_graph_launch (GcvScaleCuda * ctx, const GcvPlane * in, GcvPlane * out, const FirTables & tab,
    int out_floats, cudaStream_t stream, bool *launched, GcvError * err)
{
  SmallFrameGraph *sg = &ctx->sg;

  *launched = false;
  if (sg->failed)
    return GCV_OK;
  if (sg->exec == nullptr && !small_graph_build (ctx, tab, out_floats)) {
    sg->failed = true;
    return GCV_OK;
  }
  /* the frame's planes, and the taps (they change with the method) */
  sg->pa.in = in->data;
  sg->pa.in_pitch = in->stride;
  sg->fa.out = out->data;
  sg->fa.out_pitch = out->stride;
  sg->fa.tab = tab;
  GCV_CUDA_TRY (cudaGraphExecKernelNodeSetParams (sg->exec, sg->prefilter, &sg->prefilter_node), err,
      "bsplinescale: graph (prefilter arguments)");
  GCV_CUDA_TRY (cudaGraphExecKernelNodeSetParams (sg->exec, sg->fir, &sg->fir_node), err,
      "bsplinescale: graph (FIR arguments)");
  GCV_CUDA_TRY (cudaGraphLaunch (sg->exec, stream), err, "bsplinescale: graph launch");
  *launched = true;
  return GCV_OK;
}

extern "C" void
gcv_scale_cuda_free (GcvScaleCuda * ctx)
{
  if (ctx == NULL)
    return;
  cudaFree (ctx->x_axis.index);
  cudaFree (ctx->x_axis.weight);
  cudaFree (ctx->y_axis.index);
  cudaFree (ctx->y_axis.weight);
  cudaFree (ctx->y_axis.range);
  cudaFree (ctx->coef_v);
  cudaFree (ctx->coef);
  cudaFree (ctx->horiz);
  small_graph_clear (&ctx->sg);
  if (ctx->sg.capture)
    cudaStreamDestroy (ctx->sg.capture);
  delete ctx;
}

static GcvStatus
scale_cuda_alloc (GcvScaleCuda * ctx, GcvError * err)
{
  const GcvScaleGeometry *g = &ctx->geom;
  size_t in_row = sizeof (float) * g->in_width * g->channels;
  size_t out_row = sizeof (float) * g->out_width * g->channels;

  /* prefilter_tile needs no intermediate between its two passes */
  if (!ctx->fused)
    GCV_CUDA_TRY (cudaMallocPitch ((void **) &ctx->coef_v, &ctx->coef_v_pitch, in_row, g->in_height),
        err, "bsplinescale: cudaMallocPitch (vertical prefilter)");
  GCV_CUDA_TRY (cudaMallocPitch ((void **) &ctx->coef, &ctx->coef_pitch, in_row, g->in_height),
      err, "bsplinescale: cudaMallocPitch (B-spline coefficients)");
  GCV_CUDA_TRY (cudaMallocPitch ((void **) &ctx->horiz, &ctx->horiz_pitch, out_row, g->in_height),
      err, "bsplinescale: cudaMallocPitch (horizontal pass)");
  /* fir_vertical reads whole float4s: the row padding it may touch must
   * hold defined values (they are never stored) */
  GCV_CUDA_TRY (cudaMemset2D (ctx->horiz, ctx->horiz_pitch, 0, ctx->horiz_pitch, g->in_height),
      err, "bsplinescale: cudaMemset2D (horizontal pass)");
  GcvStatus st = axis_alloc (&ctx->x_axis, g->in_width, g->out_width, false, err);
  if (st == GCV_OK)
    st = axis_alloc (&ctx->y_axis, g->in_height, g->out_height, ctx->fir_fused, err);
  return st;
}

extern "C" GcvScaleCuda *
gcv_scale_cuda_new (const GcvScaleGeometry * geom, GcvError * err)
{
  const char *why = gcv_scale_geometry_check (geom);
  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "bsplinescale: %s", why);
    return NULL;
  }
  GcvScaleCuda *ctx = new (std::nothrow) GcvScaleCuda ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "bsplinescale: out of host memory");
    return NULL;
  }
  ctx->geom = *geom;
  if (choose_path (ctx, err) != GCV_OK || scale_cuda_alloc (ctx, err) != GCV_OK) {
    gcv_scale_cuda_free (ctx);
    return NULL;
  }
  return ctx;
}

extern "C" GcvStatus
gcv_scale_cuda_process (GcvScaleCuda * ctx, const GcvScaleParams * params, const GcvPlane * in,
    GcvPlane * out, void *stream_ptr, GcvError * err)
{
  const GcvScaleGeometry *g = &ctx->geom;
  cudaStream_t stream = (cudaStream_t) stream_ptr;
  if (gcv_scale_process_check (g, params, in, out, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  if (!ctx->have_tables || ctx->params.method != params->method
      || ctx->params.antialias != params->antialias) {
    ctx->have_tables = false;
    GcvStatus st = axis_upload (&ctx->x_axis, params, g->in_width, g->out_width, stream, err);
    if (st == GCV_OK)
      st = axis_upload (&ctx->y_axis, params, g->in_height, g->out_height, stream, err);
    if (st != GCV_OK)
      return st;
    ctx->params = *params;
    ctx->have_tables = true;
  }

  const int C = g->channels;
  const int in_floats = g->in_width * C, out_floats = g->out_width * C;
  const void *fir_src = in->data;
  size_t fir_src_pitch = in->stride;
  GcvSampleType fir_src_type = g->type;

  const bool bspline = params->method == GCV_SCALE_BSPLINE;
  /* fir_tile when every tile's rows and taps fit its shared memory
   * (always when enlarging; a vertical shrink by more than about 2.5
   * falls back) */
  const bool fir_tile = ctx->fir_fused && ctx->y_axis.range_max <= kFirTileMaxRows
      && ctx->y_axis.taps <= kFirTileMaxTaps;
  const FirTables tab = { ctx->x_axis.index, ctx->x_axis.weight, ctx->y_axis.index, ctx->y_axis.weight,
    ctx->y_axis.range, ctx->x_axis.taps, ctx->y_axis.taps };
  if (bspline && fir_tile && ctx->use_graph) {
    bool launched = false;
    GcvStatus st = small_graph_launch (ctx, in, out, tab, out_floats, stream, &launched, err);
    if (st != GCV_OK || launched)
      return st;
  }
  if (bspline && ctx->fused) {
    GCV_CUDA_TRY (by_type<LaunchPrefilterTile> (g->type, stream, (const void *) in->data, in->stride,
            ctx->coef, ctx->coef_pitch, g->in_width, g->in_height, C), err,
        "bsplinescale: prefilter launch");
  } else if (bspline) {
    GCV_CUDA_TRY (by_type<LaunchPrefilterColumns> (g->type, stream, (const void *) in->data,
            in->stride, ctx->coef_v, ctx->coef_v_pitch, in_floats, g->in_height), err,
        "bsplinescale: vertical prefilter launch");
    switch (C) {
      case 1:
        launch_prefilter_rows<1> (stream, ctx->coef_v, ctx->coef_v_pitch, ctx->coef, ctx->coef_pitch,
            g->in_width, g->in_height);
        break;
      case 2:
        launch_prefilter_rows<2> (stream, ctx->coef_v, ctx->coef_v_pitch, ctx->coef, ctx->coef_pitch,
            g->in_width, g->in_height);
        break;
      case 3:
        launch_prefilter_rows<3> (stream, ctx->coef_v, ctx->coef_v_pitch, ctx->coef, ctx->coef_pitch,
            g->in_width, g->in_height);
        break;
      default:
        launch_prefilter_rows<4> (stream, ctx->coef_v, ctx->coef_v_pitch, ctx->coef, ctx->coef_pitch,
            g->in_width, g->in_height);
        break;
    }
    GCV_CUDA_LAUNCHED (err, "bsplinescale: horizontal prefilter launch");
  }
  if (bspline) {
    fir_src = ctx->coef;
    fir_src_pitch = ctx->coef_pitch;
    fir_src_type = GCV_SAMPLE_F32;
  }
  if (fir_tile) {
    GCV_CUDA_TRY (by_type<LaunchFirTile> (g->type, stream, bspline, bspline && ctx->pdl, fir_src,
            fir_src_pitch, out->data, out->stride, tab, out_floats, g->out_height, C), err,
        "bsplinescale: FIR launch");
    return GCV_OK;
  }
  GCV_CUDA_TRY (by_type<LaunchFirHorizontal> (fir_src_type, stream, fir_src, fir_src_pitch,
          ctx->horiz, ctx->horiz_pitch, (const int32_t *) ctx->x_axis.index,
          (const float *) ctx->x_axis.weight, ctx->x_axis.taps, out_floats, C, g->in_height), err,
      "bsplinescale: horizontal FIR launch");
  GCV_CUDA_TRY (by_type<LaunchFirVertical> (g->type, stream, (const float *) ctx->horiz,
          ctx->horiz_pitch, out->data, out->stride, (const int32_t *) ctx->y_axis.index,
          (const float *) ctx->y_axis.weight, ctx->y_axis.taps, out_floats, g->out_height), err,
      "bsplinescale: vertical FIR launch");
  return GCV_OK;
}
