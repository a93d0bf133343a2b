/* gst-cuda-video: B-spline scaling on CUDA (paper 000, "Enhancement
 * example: spatial interpolation": IIR prefilter per scanline + separable
 * 4x4 FIR).
 *
 * Four kernels per plane, all on float intermediates that live as long as
 * the context:
 *   prefilter_columns  input -> coef_v   (bspline only)
 *   prefilter_rows     coef_v -> coef    (bspline only)
 *   fir_horizontal     coef (or the raw input) -> horiz, in_height rows
 *   fir_vertical       horiz -> output, quantised
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
#include <cstdint>
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
 * values; store(j, c) is called for j = a + SEG - 1 down to a.  The loops
 * are deliberately not unrolled all the way: on small frames every SM runs
 * one block once, and fully unrolled code (a few hundred straight-line
 * instructions per kernel) spent more time in instruction-cache misses than
 * in arithmetic. */
constexpr int WINDOW = SEG + 2 * WARM;

template <typename Win, typename Store> __device__ __forceinline__ void
prefilter_window (int a, Win win, Store store)
{
  const float z = GCV_BSPLINE_POLE;
  float state = 0.0f;

#pragma unroll 4
  for (int k = 0; k < WARM; k++)
    state = __fadd_rn (win (k), __fmul_rn (z, state));
#pragma unroll 4
  for (int k = WARM; k < WINDOW; k++) {
    state = __fadd_rn (win (k), __fmul_rn (z, state));
    win (k) = state;
  }
  state = 0.0f;
#pragma unroll 4
  for (int k = WINDOW - 1; k >= SEG + WARM; k--)
    state = __fmul_rn (z, __fsub_rn (state, win (k)));
#pragma unroll 4
  for (int k = SEG + WARM - 1; k >= WARM; k--) {
    state = __fmul_rn (z, __fsub_rn (state, win (k)));
    store (a + k - WARM, __fmul_rn (6.0f, state));
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

}                               /* namespace */

/* One axis' FIR table on the device, sized for the most taps any method
 * can need, so that a method change only re-uploads. */
struct DeviceAxis
{
  int32_t *index = nullptr;
  float *weight = nullptr;
  int capacity = 0;             /* taps * n_out entries */
  int taps = 0;
};

struct _GcvScaleCuda
{
  GcvScaleGeometry geom;
  GcvScaleParams params;
  bool have_tables = false;
  DeviceAxis x_axis, y_axis;
  float *coef_v = nullptr, *coef = nullptr, *horiz = nullptr;
  size_t coef_v_pitch = 0, coef_pitch = 0, horiz_pitch = 0;
};

static GcvStatus
axis_alloc (DeviceAxis * axis, int n_in, int n_out, GcvError * err)
{
  /* bspline and catmull-rom with antialias have the widest support */
  GcvScaleParams widest = { GCV_SCALE_BSPLINE, 1 };
  axis->capacity = gcv_scale_axis_taps (&widest, n_in, n_out) * n_out;
  GCV_CUDA_TRY (cudaMalloc ((void **) &axis->index, sizeof (int32_t) * axis->capacity), err,
      "bsplinescale: cudaMalloc (tap indices)");
  GCV_CUDA_TRY (cudaMalloc ((void **) &axis->weight, sizeof (float) * axis->capacity), err,
      "bsplinescale: cudaMalloc (tap weights)");
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
  gcv_scale_axis_clear (&host);
  GCV_CUDA_TRY (e, err, "bsplinescale: uploading the FIR table");
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
  cudaFree (ctx->coef_v);
  cudaFree (ctx->coef);
  cudaFree (ctx->horiz);
  delete ctx;
}

static GcvStatus
scale_cuda_alloc (GcvScaleCuda * ctx, GcvError * err)
{
  const GcvScaleGeometry *g = &ctx->geom;
  size_t in_row = sizeof (float) * g->in_width * g->channels;
  size_t out_row = sizeof (float) * g->out_width * g->channels;

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
  GcvStatus st = axis_alloc (&ctx->x_axis, g->in_width, g->out_width, err);
  if (st == GCV_OK)
    st = axis_alloc (&ctx->y_axis, g->in_height, g->out_height, err);
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
  if (scale_cuda_alloc (ctx, err) != GCV_OK) {
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

  if (params->method == GCV_SCALE_BSPLINE) {
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
    fir_src = ctx->coef;
    fir_src_pitch = ctx->coef_pitch;
    fir_src_type = GCV_SAMPLE_F32;
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
