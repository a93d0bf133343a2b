/* gst-cuda-video: the CUDA backend of the spatio-temporal (x, y, t)
 * convolution (contract in cpu/conv3d.h; paper 000, "Case study: 3-D
 * convolution", its five algorithms).
 *
 * The ring.  Every pushed frame becomes float planes, one per channel
 * (planar), spatially pre-padded by the `prepare` kernel:
 *   P[yp][xp] = V[ymap[yp]][xmap[xp]]  (0 where the map says -1)
 * for xp < PW = W + kx - 1, yp < PH = H + ky - 1, the maps being
 * gcv_conv3d_border_index (xp - rx, W) and (yp - ry, H), made on the host
 * once per context.  So with the flip of the contract
 *   out[x, y, t] = sum K[i, j, l] * P_{t + rt - l}[y + ky - 1 - j][x + kx - 1 - i]
 * and no inner loop checks a bound.  Planes hold `rows` rows of `pitch`
 * floats; what lies past PW x PH is zero from _new on and never written.
 * Channel planes are ordered by rank: the filtered channels first (so that
 * one cuFFT batch covers them), then the copied ones.  The ring has
 * T = kt + max_outputs - 1 slots, frame f in slot f % T (GcvConv3dTimeline).
 *
 * The window of a _process call of n outputs from t0: frame f = 0 ..
 * n + kt - 2 of it is input frame t0 - rt + f, and output o (0 .. n-1)
 * reads window frames o .. o + kt - 1 with tap l = o + kt - 1 - f.  The host
 * resolves each window frame to a ring slot (gcv_conv3d_timeline_sources;
 * -1 = a zero frame, which every algorithm skips) and passes the list by
 * value.
 *
 * Algorithms (per filtered channel; copied channels go through copy_centre):
 *  baseline   conv_baseline: one thread per output sample, every tap read
 *             from global memory, coefficients from __constant__ memory when
 *             the context got a slice of it (<= 16K floats), else global.
 *  shared     conv_shared: a 32 x 8 output tile per block; the kernel and
 *             the input tile with its apron, for as many window frames as
 *             fit, staged in (dynamic) shared memory; each thread
 *             accumulates its pixel of NT output frames (the paper's o x o
 *             x o tile with o_t = NT).
 *  streaming  conv_streaming: the paper's loop-skewed streaming along t:
 *             input slices stream through, each used at once for every
 *             output frame that needs it, partial sums of NT frames x RX
 *             consecutive x in registers; the kernel width is a template
 *             parameter so the x loops unroll completely.
 *  fft3d      cuFFT 3-D R2C of the time-ordered window (T frames, Nx x Ny),
 *             pointwise product with the kernel's spectrum, 3-D C2R; circular
 *             in t is exact for the valid outputs (output o = index o + kt - 1).
 *             In steady state the ring itself is the window, rotated (a
 *             circular shift in t commutes with the circular convolution), so
 *             nothing is gathered.
 *  fft-hybrid 2-D R2C of every pushed frame, once, at push time, into a ring
 *             of spectra; per call one complex multiply-accumulate over the
 *             kt taps for all n outputs at once, then one batched 2-D C2R.
 * The FFT sizes Nx >= W + kx - 1 (even), Ny >= H + ky - 1 are 2,3,5,7-smooth;
 * the kernel's spectrum (times 1 / (Nx Ny [T])) is recomputed only when the
 * coefficients change.  Plans are made in _new with a work area allocated
 * here (cufftSetAutoAllocation (0)), and every device buffer too: _push and
 * _process allocate nothing.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>

#include "conv3d.h"
#include "gcv-cuda-check.h"
#include "gcv-cufft.h"

namespace {

/* Streaming: RX consecutive outputs along x and RY rows per thread (RX a
 * multiple of 4: float4 loads).  Measured on an H100 at 720 x 560, k = 5
 * .. 15 (NT = 4): RX = 4 and 16, RY = 2, splitting the window between two
 * threads, double-buffered rows and coefficient rows loaded ahead of the
 * FMAs were all as fast or slower than RX = 8, RY = 1. */
constexpr int RX = 8, RY = 1;
static_assert (RX % 4 == 0 && RX >= 4 && RY >= 1, "RX must be a multiple of 4");
constexpr int kStreamThreads = 128, kStreamMinBlocks = 4;   /* <= 128 registers */
constexpr int kTileX = 32, kTileY = 8;          /* shared and baseline blocks */
constexpr int kMaxWindow = GCV_CONV3D_MAX_SIZE + GCV_CONV3D_MAX_OUTPUTS - 1;
constexpr int kConstFloats = 16384;             /* 64 KB, all of __constant__ */
/* A baseline launch of more multiply-adds than this goes in bands of
 * rows, the host never more than two bands ahead of the device, and looks
 * at the stop request before each: tens of milliseconds of a GPU, so
 * that a frame of seconds (8192 x 8192, 31 x 31 x 31) stops within a few
 * bands. */
constexpr double kBandTaps = 1e11;

/* ---- parameters passed by value ------------------------------------------------ */

/* slot[f]: the ring slot of window frame f, -1 for a zero frame */
struct Window {
  int slot[kMaxWindow];
};

/* the output planes of one launch */
struct OutSet {
  char *data[GCV_CONV3D_MAX_OUTPUTS];
  size_t stride[GCV_CONV3D_MAX_OUTPUTS];
};

struct Quant {
  float scale, offset;
  int absolute;
  int type;                     /* GcvSampleType */
  int channels;                 /* interleaved samples per pixel */
};

/* the ring planes of the filtered channels: rank r, slot s at
 * base + r * chan_stride + s * plane; chan_of (chans, r) its channel */
struct RingView {
  const float *base;
  size_t plane, chan_stride;
  int pitch;
  unsigned chans;               /* channel of rank r in bits 8r .. 8r + 7 */
};

/* (a packed map: indexing an array member of a by-value parameter with a
 * run-time index makes the compiler copy the struct to local memory) */
__device__ __forceinline__ int
chan_of (unsigned chans, int r)
{
  return (int) (chans >> (8 * r) & 0xffu);
}

__constant__ float c_coef[kConstFloats];

/* ---- output ---------------------------------------------------------------------- */

/* The contract's quantisation, in the CPU backend's order of operations
 * (no contraction into an FMA). */
__device__ __forceinline__ float
quantise (float acc, const Quant & q)
{
  float v = __fmul_rn (q.scale, acc);
  if (q.absolute)
    v = fabsf (v);
  return __fadd_rn (v, q.offset);
}

/* Stores v (already quantised, or a copied sample) as sample idx of a row:
 * U8 / U16 rounded half to even and clamped (NaN gives 0), F32 as is. */
__device__ __forceinline__ void
store_sample (char *row, size_t idx, int type, float v)
{
  if (type == GCV_SAMPLE_U8)
    ((uint8_t *) row)[idx] = (uint8_t) fminf (fmaxf (rintf (v), 0.0f), 255.0f);
  else if (type == GCV_SAMPLE_U16)
    ((uint16_t *) row)[idx] = (uint16_t) fminf (fmaxf (rintf (v), 0.0f), 65535.0f);
  else
    ((float *) row)[idx] = v;
}

template <typename T> __device__ __forceinline__ float
load_sample (const T * p)
{
  return (float) __ldg (p);
}

/* ---- push: prepare ------------------------------------------------------------------ */

struct PrepareDst {
  float *plane[GCV_CONV3D_MAX_CHANNELS];        /* by rank */
  unsigned chans;
};

/* Block: kPrepThreads threads on padded row yp = blockIdx.y; thread t
 * makes the kPrepRun padded pixels xp = x0 + t + m * kPrepThreads (x0 =
 * blockIdx.x * kPrepThreads * kPrepRun), each reading the C interleaved
 * samples of input pixel (xmap[xp], ymap[yp]) (0 where a map gives -1;
 * inside the frame the map is xp - rx, no lookup) and writing one float to
 * each channel's plane (rows `pitch` floats apart).  The run gives every
 * thread kPrepRun independent loads; a warp's reads and writes are
 * consecutive. */
constexpr int kPrepThreads = 128, kPrepRun = 4;

template <typename T> __global__ void __launch_bounds__ (kPrepThreads)
prepare (const T * __restrict__ in, size_t in_stride, int channels, int width, int height, int rx, int ry, int pw,
    const int *__restrict__ xmap, const int *__restrict__ ymap, PrepareDst dst, int pitch)
{
  const int yp = blockIdx.y;
  int sy = yp - ry;
  if (sy < 0 || sy >= height)
    sy = __ldg (ymap + yp);
  const T *row = (const T *) ((const char *) in + in_stride * (sy < 0 ? 0 : sy));
  const size_t at = (size_t) yp * pitch;
  float v[kPrepRun][GCV_CONV3D_MAX_CHANNELS];
#pragma unroll
  for (int m = 0; m < kPrepRun; m++) {
    const int xp = (blockIdx.x * kPrepRun + m) * kPrepThreads + threadIdx.x;
    int sx = xp - rx;
    if (xp < pw && (sx < 0 || sx >= width))
      sx = __ldg (xmap + xp);
    const bool zero = xp >= pw || sx < 0 || sy < 0;
    const T *src = row + (size_t) (zero ? 0 : sx) * channels;
#pragma unroll
    for (int r = 0; r < GCV_CONV3D_MAX_CHANNELS; r++)
      v[m][r] = zero || r >= channels ? 0.0f : load_sample (src + chan_of (dst.chans, r));
  }
#pragma unroll
  for (int m = 0; m < kPrepRun; m++) {
    const int xp = (blockIdx.x * kPrepRun + m) * kPrepThreads + threadIdx.x;
    if (xp >= pw)
      break;
#pragma unroll
    for (int r = 0; r < GCV_CONV3D_MAX_CHANNELS; r++)
      if (r < channels)
        dst.plane[r][at + xp] = v[m][r];
  }
}

/* ---- copied channels ----------------------------------------------------------------- */

struct CopySrc {
  const float *centre[GCV_CONV3D_MAX_OUTPUTS][GCV_CONV3D_MAX_CHANNELS];       /* [o][rank] */
  unsigned chans;
  int first, last;              /* ranks first .. last - 1 are copied */
};

/* One thread per output pixel (x, y) of output blockIdx.z: the channels
 * outside filter_mask, from the centre frame's plane (at offset rx, ry in
 * the padded plane), unchanged.  32 x 8 blocks. */
__global__ void
copy_centre (CopySrc src, int pitch, int rx, int ry, int width, int height, OutSet out, Quant q)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int o = blockIdx.z;
  if (x >= width || y >= height)
    return;
  char *row = out.data[o] + out.stride[o] * y;
  for (int r = src.first; r < src.last; r++)
    store_sample (row, (size_t) x * q.channels + chan_of (src.chans, r),
        q.type, __ldg (src.centre[o][r] + (size_t) (y + ry) * pitch + x + rx));
}

/* ---- baseline ------------------------------------------------------------------------------ */

template <bool CONST> __device__ __forceinline__ float
coef_at (const float *__restrict__ g, int const_off, int idx)
{
  if (CONST)
    return c_coef[const_off + idx];
  return __ldg (g + idx);
}

/* BASELINE (paper, "Reference implementation", fig. 2).  One thread per
 * output sample (x, y) of output frame o and filtered channel rank r
 * (blockIdx.z = o + n * r): loops over the kx * ky * kt taps, reading each
 * input sample from global memory (the padded ring plane, through L1) and
 * each coefficient from constant memory (uniform across the warp, so a
 * broadcast) or, when the context has no slice of it, global memory.
 * Coefficients are stored [l][j][i] with rows padded to kxp floats.
 * 32 x 8 blocks. */
template <bool CONST> __global__ void __launch_bounds__ (kTileX * kTileY)
conv_baseline (RingView ring, Window win, const float *__restrict__ coef, int const_off, int kx, int ky,
    int kt, int kxp, int width, int height, int n, OutSet out, Quant q, int y0)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = y0 + blockIdx.y * blockDim.y + threadIdx.y;
  const int o = blockIdx.z % n, r = blockIdx.z / n;
  if (x >= width || y >= height)
    return;
  const float *pix = ring.base + ring.chan_stride * r + (size_t) (y + ky - 1) * ring.pitch + x + kx - 1;
  float acc = 0.0f;
  for (int l = 0; l < kt; l++) {
    const int s = win.slot[o + kt - 1 - l];
    if (s < 0)
      continue;
    const float *p = pix + ring.plane * s;
    const int cl = l * ky * kxp;
    for (int j = 0; j < ky; j++) {
      const float *row = p - (size_t) j * ring.pitch;
      const int cj = cl + j * kxp;
      for (int i = 0; i < kx; i++)
        acc = fmaf (coef_at<CONST> (coef, const_off, cj + i), __ldg (row - i), acc);
    }
  }
  store_sample (out.data[o] + out.stride[o] * y, (size_t) x * q.channels + chan_of (ring.chans, r), q.type,
      quantise (acc, q));
}

/* ---- shared memory ------------------------------------------------------------------------- */

/* SHARED MEMORY (paper, fig. 3).  Block: a kTileX x kTileY output tile of
 * NT output frames, filtered channel rank blockIdx.z; thread (tx, ty) owns
 * pixel (x0 + tx, y0 + ty) of all NT frames (NT partial sums in registers).
 * Dynamic shared memory holds the whole kernel, [l][j][kxp] (kxp = kx
 * rounded up to 4, zero-padded; at most 123 KB for 31^3), then the staged
 * window frames, `chunk` at a time: for each, the (kTileY + ky - 1) x
 * (kTileX + kx - 1) input tile with its apron, rows sw = kTileX + kx + 2
 * floats apart (3 zero floats on the left, so that the taps' groups of
 * four never read outside a row).  Tiles are loaded coalesced along x,
 * zero frames skipped; the budget is ~100 KB per block (two blocks per
 * SM), the H100 allows 227 KB.  Then every thread runs the taps over
 * shared memory, four at a time: a warp reads 32 consecutive floats of a
 * row per tap (no bank conflict) and each coefficient quadruple as one
 * 16-byte broadcast. */
template <int NT> __global__ void __launch_bounds__ (kTileX * kTileY)
conv_shared (RingView ring, Window win, const float *__restrict__ coef, int kx, int ky, int kt, int kxp,
    int width, int height, int chunk, OutSet out, Quant q)
{
  extern __shared__ float4 smem[];
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY, r = blockIdx.z;
  const int sw = kTileX + kx + 2, th = kTileY + ky - 1;
  const int nf = NT + kt - 1, n_coef4 = kt * ky * kxp / 4;
  const float *cs = (const float *) smem;
  float *tile = (float *) (smem + n_coef4);
  const float *chan = ring.base + ring.chan_stride * r + (size_t) y0 * ring.pitch + x0;

  for (int e = tid; e < n_coef4; e += kTileX * kTileY)
    smem[e] = __ldg ((const float4 *) coef + e);
  for (int row = tid; row < chunk * th; row += kTileX * kTileY)
    tile[row * sw] = tile[row * sw + 1] = tile[row * sw + 2] = 0.0f;

  float acc[NT];
#pragma unroll
  for (int o = 0; o < NT; o++)
    acc[o] = 0.0f;
  for (int f0 = 0; f0 < nf; f0 += chunk) {
    const int fc = min (chunk, nf - f0);
    __syncthreads ();           /* the previous chunk is consumed */
    for (int row = ty; row < fc * th; row += kTileY) {
      const int fl = row / th, yy = row - fl * th;
      const int s = win.slot[f0 + fl];
      if (s < 0)
        continue;
      const float *src = chan + ring.plane * s + (size_t) yy * ring.pitch;
      for (int xx = tx; xx < kTileX + kx - 1; xx += kTileX)
        tile[row * sw + 3 + xx] = __ldg (src + xx);
    }
    __syncthreads ();
    for (int fl = 0; fl < fc; fl++) {
      const int f = f0 + fl;
      if (win.slot[f] < 0)
        continue;
      /* output o uses this frame with tap l = o + kt - 1 - f when 0 <= l < kt */
      const int o_lo = max (0, f - kt + 1), o_hi = min (NT - 1, f);
      const float *t = tile + (fl * th + ty + ky - 1) * sw + 3 + tx + kx - 1;
      for (int j = 0; j < ky; j++) {
        const float *trow = t - j * sw;
        for (int i = 0; i < kx; i += 4) {
          const float v0 = trow[-i], v1 = trow[-i - 1], v2 = trow[-i - 2], v3 = trow[-i - 3];
#pragma unroll
          for (int o = 0; o < NT; o++) {
            if (o < o_lo || o > o_hi)
              continue;
            const float4 c = *(const float4 *) (cs + ((o + kt - 1 - f) * ky + j) * kxp + i);
            acc[o] = fmaf (c.x, v0, acc[o]);
            acc[o] = fmaf (c.y, v1, acc[o]);
            acc[o] = fmaf (c.z, v2, acc[o]);
            acc[o] = fmaf (c.w, v3, acc[o]);
          }
        }
      }
    }
  }
  const int x = x0 + tx, y = y0 + ty;
  if (x >= width || y >= height)
    return;
#pragma unroll
  for (int o = 0; o < NT; o++)
    store_sample (out.data[o] + out.stride[o] * y, (size_t) x * q.channels + chan_of (ring.chans, r), q.type,
        quantise (acc[o], q));
}

/* ---- streaming ------------------------------------------------------------------------------ */

/* STREAMING (paper, fig. 4: loop skewing; here along t, the axis the window
 * is ordered by).  Thread g of a 1-D grid (blockIdx.y = filtered channel
 * rank) owns RX consecutive outputs x0 .. x0 + RX - 1 of RY rows y0 ..
 * y0 + RY - 1 (groups = ceil (W / RX) threads per row band), of all NT
 * output frames: NT x RY x RX partial sums in registers.  Input slices
 * stream in window frame by frame; each input row segment of RX + KX - 1
 * floats is read once (float4 loads through L1, 16-byte aligned: pitch and
 * RX are multiples of 4) and used at once by every output frame o and row
 * that needs it (tap l = o + kt - 1 - f, row tap j), with the KX taps and
 * RX outputs fully unrolled: RX x KX FMAs per coefficient row, whose kxp
 * floats are uniform float4 loads (broadcast).  Threads of a warp cover
 * consecutive x groups of a row, so the segments they read overlap in L1;
 * the ring is read from L2 about once per block row. */
template <int KX, int NT> __global__ void __launch_bounds__ (kStreamThreads, kStreamMinBlocks)
conv_streaming (RingView ring, Window win, const float *__restrict__ coef, int ky, int kt,
    int width, int height, int groups, OutSet out, Quant q)
{
  constexpr int KXP = (KX + 3) & ~3;
  constexpr int NV = (RX + KX - 1 + 3) / 4;     /* float4 per row segment */
  const int bands = (height + RY - 1) / RY;
  const int g = blockIdx.x * kStreamThreads + threadIdx.x;
  if (g >= groups * bands)
    return;
  const int r = blockIdx.y;
  const int band = g / groups, gx = g - band * groups;
  const int x0 = gx * RX, y0 = band * RY;
  const float *pix = ring.base + ring.chan_stride * r + (size_t) (y0 + ky - 1) * ring.pitch + x0;
  const int nf = NT + kt - 1, nrows = ky + RY - 1;

  float acc[NT][RY][RX];
#pragma unroll
  for (int o = 0; o < NT; o++)
#pragma unroll
    for (int b = 0; b < RY; b++)
#pragma unroll
      for (int k = 0; k < RX; k++)
        acc[o][b][k] = 0.0f;

  for (int f = 0; f < nf; f++) {
    const int s = win.slot[f];
    if (s < 0)
      continue;
    const int o_lo = max (0, f - kt + 1), o_hi = min (NT - 1, f);
    const float *p = pix + ring.plane * s;
    /* input row jj (from the bottom of the footprint) feeds output row b
     * with row tap j = jj - (RY - 1 - b) */
    for (int jj = 0; jj < nrows; jj++) {
      float v[NV * 4];
      const float4 *src = (const float4 *) (p + (ptrdiff_t) (RY - 1 - jj) * ring.pitch);
#pragma unroll
      for (int k = 0; k < NV; k++) {
        const float4 t = __ldg (src + k);
        v[4 * k] = t.x;
        v[4 * k + 1] = t.y;
        v[4 * k + 2] = t.z;
        v[4 * k + 3] = t.w;
      }
#pragma unroll
      for (int o = 0; o < NT; o++) {
        if (o < o_lo || o > o_hi)
          continue;
        const int l = o + kt - 1 - f;
#pragma unroll
        for (int b = 0; b < RY; b++) {
          const int j = jj - (RY - 1 - b);
          if (RY > 1 && (j < 0 || j >= ky))
            continue;
          const float4 *crow = (const float4 *) (coef + ((size_t) l * ky + j) * KXP);
          float c[KXP];
#pragma unroll
          for (int k = 0; k < KXP / 4; k++) {
            const float4 t = __ldg (crow + k);
            c[4 * k] = t.x;
            c[4 * k + 1] = t.y;
            c[4 * k + 2] = t.z;
            c[4 * k + 3] = t.w;
          }
#pragma unroll
          for (int i = 0; i < KX; i++)
#pragma unroll
            for (int k = 0; k < RX; k++)
              acc[o][b][k] = fmaf (c[i], v[k + KX - 1 - i], acc[o][b][k]);
        }
      }
    }
  }

  const int chan = chan_of (ring.chans, r);
#pragma unroll
  for (int b = 0; b < RY; b++) {
    const int y = y0 + b;
    if (y >= height)
      break;
#pragma unroll
    for (int o = 0; o < NT; o++) {
      char *row = out.data[o] + out.stride[o] * y;
#pragma unroll
      for (int k = 0; k < RX; k++)
        if (x0 + k < width)
          store_sample (row, (size_t) (x0 + k) * q.channels + chan, q.type, quantise (acc[o][b][k], q));
    }
  }
}

/* ---- FFT ------------------------------------------------------------------------------------- */

/* The kernel's real planes for its spectrum: plane l (l < planes) of nx x
 * ny floats holds K[i, j, l] / norm at (i, j) for i < kx, j < ky, and 0
 * elsewhere (planes >= kt are zero: the T-frame window of fft3d).  One
 * thread per element, plane = blockIdx.z. */
__global__ void
place_kernel (const float *__restrict__ coef, int kx, int ky, int kt, int kxp, float inv_norm,
    float *__restrict__ dst, int nx, int ny)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int l = blockIdx.z;
  if (i >= nx || j >= ny)
    return;
  float v = 0.0f;
  if (i < kx && j < ky && l < kt)
    v = __ldg (coef + ((size_t) l * ky + j) * kxp + i) * inv_norm;
  dst[((size_t) l * ny + j) * nx + i] = v;
}

/* fft3d, when the window is not the ring (stream start and end, repeated or
 * zero frames): window frame f of filtered channel r <- its ring slot, or
 * zeros.  One thread per float2 of a plane (nx is even), blockIdx.y = f,
 * blockIdx.z = r. */
__global__ void
gather_window (const float2 *__restrict__ ring, size_t chan_stride2, size_t plane2, Window win,
    float2 *__restrict__ dst, size_t dst_chan2)
{
  const size_t e = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  const int f = blockIdx.y, r = blockIdx.z;
  if (e >= plane2)
    return;
  const int s = win.slot[f];
  dst[dst_chan2 * r + plane2 * f + e] = s < 0 ? make_float2 (0.0f, 0.0f)
      : __ldg (ring + chan_stride2 * r + plane2 * s + e);
}

__device__ __forceinline__ float2
cmul (float2 a, float2 b)
{
  return make_float2 (a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__device__ __forceinline__ float2
cmac (float2 a, float2 b, float2 acc)
{
  acc.x = fmaf (a.x, b.x, fmaf (-a.y, b.y, acc.x));
  acc.y = fmaf (a.x, b.y, fmaf (a.y, b.x, acc.y));
  return acc;
}

/* fft3d: spectrum bin e of every filtered channel times the kernel's bin e.
 * One thread per bin (e < bins = T x Ny x (Nx/2+1)), channels in a loop. */
__global__ void
multiply_spectrum (float2 *__restrict__ spec, const float2 *__restrict__ kspec, size_t bins, int channels)
{
  const size_t e = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= bins)
    return;
  const float2 k = __ldg (kspec + e);
  for (int r = 0; r < channels; r++)
    spec[bins * r + e] = cmul (spec[bins * r + e], k);
}

/* HYBRID FOURIER: the complex 1-D convolution along t.  One thread per
 * frequency bin e of filtered channel r = blockIdx.y: for each window frame
 * f (its spectrum at slot win.slot[f] of the spectrum ring, [slot][rank][bin])
 * the bin is read once and multiply-accumulated into every output o that
 * uses it, with the kernel's 2-D spectrum of tap l = o + kt - 1 - f
 * ([l][bin]); the NT sums stay in registers and go to acc[o][r][bin].
 * Consecutive threads read consecutive bins (coalesced 8-byte loads). */
template <int NT> __global__ void
hybrid_mac (const float2 *__restrict__ spec_ring, size_t slot_stride, const float2 *__restrict__ kspec,
    Window win, int kt, size_t bins, int channels, float2 *__restrict__ acc_out)
{
  const size_t e = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y;
  if (e >= bins)
    return;
  float2 acc[NT];
#pragma unroll
  for (int o = 0; o < NT; o++)
    acc[o] = make_float2 (0.0f, 0.0f);
  const int nf = NT + kt - 1;
  for (int f = 0; f < nf; f++) {
    const int s = win.slot[f];
    if (s < 0)
      continue;
    const float2 v = __ldg (spec_ring + slot_stride * s + bins * r + e);
#pragma unroll
    for (int o = 0; o < NT; o++) {
      const int l = o + kt - 1 - f;
      if (l >= 0 && l < kt)
        acc[o] = cmac (__ldg (kspec + bins * l + e), v, acc[o]);
    }
  }
#pragma unroll
  for (int o = 0; o < NT; o++)
    acc_out[bins * ((size_t) o * channels + r) + e] = acc[o];
}

struct FftResult {
  const float *frame[GCV_CONV3D_MAX_OUTPUTS];   /* output o's plane of rank 0 */
  size_t chan_stride;           /* floats between ranks */
  unsigned chans;
};

/* The FFT algorithms' last step: output o (blockIdx.z), pixel (x, y), every
 * filtered channel: the C2R result at (x + kx - 1, y + ky - 1) of its nx-wide
 * plane (the scale 1 / N is in the kernel's spectrum), quantised into the
 * interleaved output.  32 x 8 blocks. */
__global__ void
fft_store (FftResult res, int nx, int kx, int ky, int channels_f, int width, int height, OutSet out, Quant q)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int o = blockIdx.z;
  if (x >= width || y >= height)
    return;
  char *row = out.data[o] + out.stride[o] * y;
  const size_t at = (size_t) (y + ky - 1) * nx + x + kx - 1;
  for (int r = 0; r < channels_f; r++)
    store_sample (row, (size_t) x * q.channels + chan_of (res.chans, r), q.type,
        quantise (__ldg (res.frame[o] + res.chan_stride * r + at), q));
}

/* ---- __constant__ slices ---------------------------------------------------------------------- */

/* c_coef is one array for the whole process; each context that fits takes
 * its own slice (first fit, 4-float granules), so that contexts on other
 * streams never overwrite each other's coefficients. */
struct ConstPool {
  std::mutex lock;
  unsigned char used[kConstFloats / 4];
};

ConstPool const_pool;

int
const_pool_take (int floats)
{
  const int granules = (floats + 3) / 4, total = kConstFloats / 4;
  std::lock_guard<std::mutex> hold (const_pool.lock);
  for (int a = 0; a + granules <= total; a++) {
    int b = 0;
    while (b < granules && !const_pool.used[a + b])
      b++;
    if (b == granules) {
      memset (const_pool.used + a, 1, granules);
      return a * 4;
    }
    a += b;
  }
  return -1;
}

void
const_pool_give (int offset, int floats)
{
  if (offset < 0)
    return;
  std::lock_guard<std::mutex> hold (const_pool.lock);
  memset (const_pool.used + offset / 4, 0, (floats + 3) / 4);
}

/* ---- FFT sizes -------------------------------------------------------------------------------- */

size_t
round_up (size_t v, size_t m)
{
  return (v + m - 1) / m * m;
}

}                               /* namespace */

/* ---- the context ------------------------------------------------------------------------------ */

struct _GcvConv3dCuda
{
  GcvConv3dGeometry geom;
  GcvConv3dParams params;       /* params.coefficients points at coef_host */
  GcvConv3dTimeline tl;
  int nf_chan = 0;              /* filtered channels (F) */
  int chan[GCV_CONV3D_MAX_CHANNELS] = { 0 };    /* channel of each rank */
  unsigned chans = 0;           /* the same, packed (chan_of) */
  int cap = 0;                  /* ring slots T */
  int rx = 0, ry = 0, rt = 0, pw = 0, ph = 0, kxp = 0;
  int rows = 0, pitch = 0;      /* ring plane: rows x pitch floats */
  size_t plane = 0;

  float *coef_host = nullptr;   /* kx * ky * kt, as given */
  float *coef_padded = nullptr; /* [l][j][kxp] */
  int n_coef = 0, n_padded = 0;
  bool coef_valid = false;

  /* device */
  float *ring = nullptr;        /* [rank][slot][rows][pitch]; fft-hybrid: copied ranks only */
  int *maps = nullptr;          /* xmap (pw), ymap (ph) */
  float *coef_dev = nullptr;    /* [l][j][kxp] */
  int const_off = -1;           /* slice of c_coef, or -1 */

  /* FFT */
  const GcvCufft *fft = nullptr;
  int nx = 0, ny = 0, nxc = 0;
  size_t bins2 = 0;             /* ny * nxc */
  cufftHandle plan_fwd = 0, plan_inv = 0, plan_inv_one = 0, plan_kernel = 0;
  bool have_fwd = false, have_inv = false, have_inv_one = false, have_kernel = false;
  void *work = nullptr;
  float *staging = nullptr;     /* hybrid: [F][plane], the frame being transformed */
  float2 *spec = nullptr;       /* hybrid: [slot][F][bins2]; fft3d: [F][T][bins2] */
  float2 *kspec = nullptr;      /* hybrid: [kt][bins2]; fft3d: [T][bins2] */
  float2 *acc = nullptr;        /* hybrid: [max_outputs][F][bins2] */
  float *result = nullptr;      /* hybrid: [max_outputs][F][plane]; fft3d: the window [F][T][plane] */
  float *kbuf = nullptr;        /* hybrid: [kt][plane] (fft3d uses result) */

  const GcvCancel *cancel = nullptr;
  cudaEvent_t band_done[2] = { nullptr, nullptr };      /* the last two bands of a banded baseline */
};

static bool
is_fft (GcvConv3dAlgorithm a)
{
  return a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID;
}

extern "C" int
gcv_conv3d_cuda_have_fft (GcvError * err)
{
  return gcv_cufft_get (err) != NULL;
}

extern "C" void
gcv_conv3d_cuda_free (GcvConv3dCuda * ctx)
{
  if (ctx == NULL)
    return;
  if (ctx->fft) {
    if (ctx->have_fwd)
      ctx->fft->destroy (ctx->plan_fwd);
    if (ctx->have_inv)
      ctx->fft->destroy (ctx->plan_inv);
    if (ctx->have_inv_one)
      ctx->fft->destroy (ctx->plan_inv_one);
    if (ctx->have_kernel)
      ctx->fft->destroy (ctx->plan_kernel);
  }
  cudaFree (ctx->work);
  cudaFree (ctx->staging);
  cudaFree (ctx->spec);
  cudaFree (ctx->kspec);
  cudaFree (ctx->acc);
  cudaFree (ctx->result);
  cudaFree (ctx->kbuf);
  cudaFree (ctx->ring);
  cudaFree (ctx->maps);
  cudaFree (ctx->coef_dev);
  const_pool_give (ctx->const_off, ctx->n_padded);
  for (cudaEvent_t ev : ctx->band_done)
    if (ev)
      cudaEventDestroy (ev);
  cudaGetLastError ();
  delete[] ctx->coef_host;
  delete[] ctx->coef_padded;
  delete ctx;
}

extern "C" void
gcv_conv3d_cuda_set_cancel (GcvConv3dCuda * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

static GcvStatus
dev_alloc (void **p, size_t bytes, GcvError * err, const char *what)
{
  cudaError_t e = cudaMalloc (p, bytes);
  if (e != cudaSuccess) {
    *p = nullptr;
    GcvStatus st = gcv_cuda_status (e);
    gcv_error_set (err, st, "conv3d: cudaMalloc of %.1f MiB (%s) failed: %s: %s", bytes / 1048576.0, what,
        cudaGetErrorName (e), cudaGetErrorString (e));
    cudaGetLastError ();
    return st;
  }
  return GCV_OK;
}

/* One cuFFT plan over `rank` dimensions n[] (slowest first) of real planes
 * of nreal[] floats and complex ones of ncplx[] values, batch of them dist
 * apart; its work size goes to *work_max. */
static GcvStatus
make_plan (GcvConv3dCuda * ctx, cufftHandle * plan, bool *have, int rank, const long long *n,
    cufftType type, long long batch, size_t * work_max, GcvError * err)
{
  const GcvCufft *f = ctx->fft;
  long long nreal[3], ncplx[3], real_dist = 1, cplx_dist = 1;
  size_t work = 0;
  for (int d = 0; d < rank; d++) {
    nreal[d] = ncplx[d] = n[d];
    if (d == rank - 1)
      ncplx[d] = n[d] / 2 + 1;
    real_dist *= nreal[d];
    cplx_dist *= ncplx[d];
  }
  GCV_CUFFT_TRY (f->create (plan), err, "conv3d: cufftCreate");
  *have = true;
  GCV_CUFFT_TRY (f->set_auto_allocation (*plan, 0), err, "conv3d: cufftSetAutoAllocation");
  const bool r2c = type == CUFFT_R2C;
  long long *in_embed = r2c ? nreal : ncplx, *out_embed = r2c ? ncplx : nreal;
  long long in_dist = r2c ? real_dist : cplx_dist, out_dist = r2c ? cplx_dist : real_dist;
  if (f->make_plan_many64) {
    GCV_CUFFT_TRY (f->make_plan_many64 (*plan, rank, (long long *) n, in_embed, 1, in_dist, out_embed, 1,
            out_dist, type, batch, &work), err, "conv3d: cufftMakePlanMany64");
  } else {
    int ni[3], ie[3], oe[3];
    if (in_dist * batch > INT32_MAX || out_dist * batch > INT32_MAX) {
      gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %s has no cufftMakePlanMany64 and the transform "
          "(%lld x %lld values) is too large for cufftMakePlanMany", f->library, in_dist, batch);
      return GCV_ERROR_INVALID;
    }
    for (int d = 0; d < rank; d++) {
      ni[d] = (int) n[d];
      ie[d] = (int) in_embed[d];
      oe[d] = (int) out_embed[d];
    }
    GCV_CUFFT_TRY (f->make_plan_many (*plan, rank, ni, ie, 1, (int) in_dist, oe, 1, (int) out_dist, type,
            (int) batch, &work), err, "conv3d: cufftMakePlanMany");
  }
  if (work > *work_max)
    *work_max = work;
  return GCV_OK;
}

static GcvStatus
fft_setup (GcvConv3dCuda * ctx, GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int F = ctx->nf_chan, kt = ctx->params.kt, T = ctx->cap;
  const bool hybrid = ctx->params.algorithm == GCV_CONV3D_FFT_HYBRID;
  size_t work = 0;
  GcvStatus st;

  if (hybrid) {
    const long long n2[2] = { ctx->ny, ctx->nx };
    if ((st = make_plan (ctx, &ctx->plan_fwd, &ctx->have_fwd, 2, n2, CUFFT_R2C, F, &work, err)) != GCV_OK
        || (st = make_plan (ctx, &ctx->plan_kernel, &ctx->have_kernel, 2, n2, CUFFT_R2C, kt, &work, err)) != GCV_OK
        || (st = make_plan (ctx, &ctx->plan_inv, &ctx->have_inv, 2, n2, CUFFT_C2R,
                (long long) F * g->max_outputs, &work, err)) != GCV_OK)
      return st;
    if (g->max_outputs > 1
        && (st = make_plan (ctx, &ctx->plan_inv_one, &ctx->have_inv_one, 2, n2, CUFFT_C2R, F, &work, err)) != GCV_OK)
      return st;
  } else {
    /* a window of one frame (kt = max_outputs = 1) is a 2-D problem */
    const long long n3[3] = { T, ctx->ny, ctx->nx };
    const int rank = T > 1 ? 3 : 2;
    const long long *n = T > 1 ? n3 : n3 + 1;
    if ((st = make_plan (ctx, &ctx->plan_fwd, &ctx->have_fwd, rank, n, CUFFT_R2C, F, &work, err)) != GCV_OK
        || (st = make_plan (ctx, &ctx->plan_kernel, &ctx->have_kernel, rank, n, CUFFT_R2C, 1, &work, err)) != GCV_OK
        || (st = make_plan (ctx, &ctx->plan_inv, &ctx->have_inv, rank, n, CUFFT_C2R, F, &work, err)) != GCV_OK)
      return st;
  }
  if (work > 0 && (st = dev_alloc (&ctx->work, work, err, "cuFFT work area")) != GCV_OK)
    return st;
  cufftHandle plans[4] = { ctx->plan_fwd, ctx->plan_inv, ctx->plan_inv_one, ctx->plan_kernel };
  bool have[4] = { ctx->have_fwd, ctx->have_inv, ctx->have_inv_one, ctx->have_kernel };
  for (int i = 0; i < 4; i++)
    if (have[i])
      GCV_CUFFT_TRY (ctx->fft->set_work_area (plans[i], ctx->work), err, "conv3d: cufftSetWorkArea");
  return GCV_OK;
}

static GcvStatus
conv3d_cuda_alloc (GcvConv3dCuda * ctx, cudaStream_t stream, GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const GcvConv3dParams *p = &ctx->params;
  const int C = g->channels, F = ctx->nf_chan, T = ctx->cap;
  const GcvConv3dAlgorithm a = p->algorithm;
  const bool hybrid = a == GCV_CONV3D_FFT_HYBRID;
  GcvStatus st;

  if (is_fft (a) && F > 0) {
    /* at least 2 per axis: cuFFT plans no transforms of length 1 here */
    ctx->nx = gcv_conv3d_fft_size (ctx->pw < 2 ? 2 : ctx->pw, 1);
    ctx->ny = gcv_conv3d_fft_size (ctx->ph < 2 ? 2 : ctx->ph, 0);
    ctx->nxc = ctx->nx / 2 + 1;
    ctx->bins2 = (size_t) ctx->ny * ctx->nxc;
    ctx->rows = ctx->ny;
    ctx->pitch = ctx->nx;
  } else {
    /* direct: the shared tiles read round_up (W, 32) + kx - 1 columns and
     * round_up (H, 8) + ky - 1 rows; a streaming thread reads whole float4
     * up to (groups - 1) * RX + 4 * NV columns */
    const size_t groups = ((size_t) g->width + RX - 1) / RX;
    const size_t nv4 = round_up ((size_t) RX + p->kx - 1, 4);
    size_t cols = round_up (g->width, kTileX) + p->kx - 1;
    if ((groups - 1) * RX + nv4 > cols)
      cols = (groups - 1) * RX + nv4;
    ctx->pitch = (int) round_up (cols, 32);
    ctx->rows = (int) round_up (g->height, kTileY) + p->ky - 1;
  }
  ctx->plane = (size_t) ctx->rows * ctx->pitch;

  /* the ring (fft-hybrid keeps only the copied channels' frames: the
   * filtered ones live on as spectra) */
  const int ring_chan = hybrid ? C - F : C;
  if (ring_chan > 0) {
    const size_t bytes = sizeof (float) * ctx->plane * T * ring_chan;
    if ((st = dev_alloc ((void **) &ctx->ring, bytes, err, "frame ring")) != GCV_OK)
      return st;
    GCV_CUDA_TRY (cudaMemsetAsync (ctx->ring, 0, bytes, stream), err, "conv3d: cudaMemsetAsync (ring)");
  }
  if ((st = dev_alloc ((void **) &ctx->maps, sizeof (int) * (ctx->pw + ctx->ph), err, "border maps")) != GCV_OK
      || (st = dev_alloc ((void **) &ctx->coef_dev, sizeof (float) * ctx->n_padded, err, "coefficients")) != GCV_OK)
    return st;
  if (ctx->n_padded <= kConstFloats && a == GCV_CONV3D_BASELINE)
    ctx->const_off = const_pool_take (ctx->n_padded);

  if (is_fft (a) && F > 0) {
    const size_t plane_b = sizeof (float) * ctx->plane, bins_b = sizeof (float2) * ctx->bins2;
    if (hybrid) {
      if ((st = dev_alloc ((void **) &ctx->staging, plane_b * F, err, "FFT input")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->spec, bins_b * F * T, err, "spectrum ring")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->kspec, bins_b * p->kt, err, "kernel spectra")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->acc, bins_b * F * g->max_outputs, err, "output spectra")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->result, plane_b * F * g->max_outputs, err, "FFT output")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->kbuf, plane_b * p->kt, err, "kernel planes")) != GCV_OK)
        return st;
      /* only the PW x PH corner of a staging plane is ever written */
      GCV_CUDA_TRY (cudaMemsetAsync (ctx->staging, 0, plane_b * F, stream), err, "conv3d: cudaMemsetAsync");
      GCV_CUDA_TRY (cudaMemsetAsync (ctx->spec, 0, bins_b * F * T, stream), err, "conv3d: cudaMemsetAsync");
    } else {
      if ((st = dev_alloc ((void **) &ctx->spec, bins_b * F * T, err, "window spectrum")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->kspec, bins_b * T, err, "kernel spectrum")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->result, plane_b * F * T, err, "FFT window")) != GCV_OK)
        return st;
      /* window frames past those a call fills must be finite */
      GCV_CUDA_TRY (cudaMemsetAsync (ctx->result, 0, plane_b * F * T, stream), err, "conv3d: cudaMemsetAsync");
    }
    if ((st = fft_setup (ctx, err)) != GCV_OK)
      return st;
  }

  /* border maps, on the host with the shared map */
  int *maps = new (std::nothrow) int[ctx->pw + ctx->ph];
  if (maps == nullptr) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: out of host memory");
    return GCV_ERROR_NO_MEMORY;
  }
  for (int xp = 0; xp < ctx->pw; xp++)
    maps[xp] = gcv_conv3d_border_index (p->border, xp - ctx->rx, g->width);
  for (int yp = 0; yp < ctx->ph; yp++)
    maps[ctx->pw + yp] = gcv_conv3d_border_index (p->border, yp - ctx->ry, g->height);
  /* pageable source: staged before the call returns, ordered on the stream */
  cudaError_t e = cudaMemcpyAsync (ctx->maps, maps, sizeof (int) * (ctx->pw + ctx->ph), cudaMemcpyHostToDevice,
      stream);
  delete[] maps;
  GCV_CUDA_TRY (e, err, "conv3d: uploading the border maps");

  if (a == GCV_CONV3D_SHARED) {
    /* the same limit for every context: the device's opt-in maximum */
    int dev = 0, optin = 0;
    GCV_CUDA_TRY (cudaGetDevice (&dev), err, "conv3d: cudaGetDevice");
    GCV_CUDA_TRY (cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), err,
        "conv3d: cudaDeviceGetAttribute");
    const void *fns[] = {
      (const void *) conv_shared<1>, (const void *) conv_shared<2>, (const void *) conv_shared<4>,
    };
    for (const void *fn : fns)
      GCV_CUDA_TRY (cudaFuncSetAttribute (fn, cudaFuncAttributeMaxDynamicSharedMemorySize, optin), err,
          "conv3d: cudaFuncSetAttribute (shared memory)");
  }
  if (a == GCV_CONV3D_BASELINE)
    for (cudaEvent_t & ev : ctx->band_done)
      GCV_CUDA_TRY (cudaEventCreateWithFlags (&ev, cudaEventDisableTiming), err, "conv3d: cudaEventCreate");
  return GCV_OK;
}

/* Uploads the coefficients (and recomputes the FFT spectra) when they
 * differ from the context's copy. */
static GcvStatus
update_coefficients (GcvConv3dCuda * ctx, const float *coef, cudaStream_t stream, GcvError * err)
{
  const GcvConv3dParams *p = &ctx->params;
  const int kx = p->kx, ky = p->ky, kt = p->kt, kxp = ctx->kxp;

  if (ctx->coef_valid && memcmp (coef, ctx->coef_host, sizeof (float) * ctx->n_coef) == 0)
    return GCV_OK;
  ctx->coef_valid = false;
  memcpy (ctx->coef_host, coef, sizeof (float) * ctx->n_coef);
  for (int l = 0; l < kt; l++)
    for (int j = 0; j < ky; j++)
      for (int i = 0; i < kxp; i++)
        ctx->coef_padded[((size_t) l * ky + j) * kxp + i] = i < kx ? coef[((size_t) l * ky + j) * kx + i] : 0.0f;
  /* pageable source: the copy is staged before the call returns */
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->coef_dev, ctx->coef_padded, sizeof (float) * ctx->n_padded,
          cudaMemcpyHostToDevice, stream), err, "conv3d: uploading the coefficients");
  if (ctx->const_off >= 0)
    GCV_CUDA_TRY (cudaMemcpyToSymbolAsync (c_coef, ctx->coef_padded, sizeof (float) * ctx->n_padded,
            sizeof (float) * ctx->const_off, cudaMemcpyHostToDevice, stream), err,
        "conv3d: uploading the coefficients to constant memory");

  if (is_fft (p->algorithm) && ctx->nf_chan > 0) {
    const bool hybrid = p->algorithm == GCV_CONV3D_FFT_HYBRID;
    const int planes = hybrid ? kt : ctx->cap;
    float *dst = hybrid ? ctx->kbuf : ctx->result;
    const double norm = (double) ctx->nx * ctx->ny * (hybrid ? 1 : ctx->cap);
    dim3 block (32, 8), grid ((ctx->nx + 31) / 32, (ctx->ny + 7) / 8, planes);
    place_kernel<<<grid, block, 0, stream>>> (ctx->coef_dev, kx, ky, kt, kxp, (float) (1.0 / norm), dst,
        ctx->nx, ctx->ny);
    GCV_CUDA_LAUNCHED (err, "conv3d: place_kernel launch");
    GCV_CUFFT_TRY (ctx->fft->set_stream (ctx->plan_kernel, stream), err, "conv3d: cufftSetStream");
    GCV_CUFFT_TRY (ctx->fft->exec_r2c (ctx->plan_kernel, dst, (cufftComplex *) ctx->kspec), err,
        "conv3d: cufftExecR2C (kernel spectrum)");
  }
  ctx->coef_valid = true;
  return GCV_OK;
}

extern "C" GcvConv3dCuda *
gcv_conv3d_cuda_new (const GcvConv3dGeometry * geom, const GcvConv3dParams * params, void *stream_ptr,
    GcvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_ptr;
  if (gcv_conv3d_new_check (geom, params, err) != GCV_OK)
    return NULL;
  const GcvCufft *fft = NULL;
  if (is_fft (params->algorithm)) {
    fft = gcv_cufft_get (err);
    if (fft == NULL)
      return NULL;
  }
  GcvConv3dCuda *ctx = new (std::nothrow) GcvConv3dCuda ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: out of host memory");
    return NULL;
  }
  ctx->geom = *geom;
  ctx->params = *params;
  ctx->fft = fft;
  ctx->rx = params->kx / 2;
  ctx->ry = params->ky / 2;
  ctx->rt = params->kt / 2;
  ctx->pw = geom->width + params->kx - 1;
  ctx->ph = geom->height + params->ky - 1;
  ctx->kxp = (params->kx + 3) & ~3;
  ctx->cap = params->kt + geom->max_outputs - 1;
  gcv_conv3d_timeline_init (&ctx->tl, params->kt, geom->max_outputs, params->border);
  {
    int r = 0;
    for (int c = 0; c < geom->channels; c++)
      if (geom->filter_mask >> c & 1)
        ctx->chan[r++] = c;
    ctx->nf_chan = r;
    for (int c = 0; c < geom->channels; c++)
      if (!(geom->filter_mask >> c & 1))
        ctx->chan[r++] = c;
    for (r = 0; r < geom->channels; r++)
      ctx->chans |= (unsigned) ctx->chan[r] << (8 * r);
  }
  ctx->n_coef = params->kx * params->ky * params->kt;
  ctx->n_padded = ctx->kxp * params->ky * params->kt;
  ctx->coef_host = new (std::nothrow) float[ctx->n_coef];
  ctx->coef_padded = new (std::nothrow) float[ctx->n_padded];
  if (ctx->coef_host == NULL || ctx->coef_padded == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: out of host memory");
    gcv_conv3d_cuda_free (ctx);
    return NULL;
  }
  ctx->params.coefficients = ctx->coef_host;
  if (conv3d_cuda_alloc (ctx, stream, err) != GCV_OK
      || update_coefficients (ctx, params->coefficients, stream, err) != GCV_OK) {
    /* nothing may still use the buffers when they are freed */
    cudaStreamSynchronize (stream);
    cudaGetLastError ();
    gcv_conv3d_cuda_free (ctx);
    return NULL;
  }
  return ctx;
}

/* ring plane of rank r, slot s (fft-hybrid: filtered ranks use staging) */
static float *
ring_plane (GcvConv3dCuda * ctx, int r, int s)
{
  const bool hybrid = ctx->params.algorithm == GCV_CONV3D_FFT_HYBRID && ctx->nf_chan > 0;
  if (hybrid && r < ctx->nf_chan)
    return ctx->staging + ctx->plane * r;
  const int rr = hybrid ? r - ctx->nf_chan : r;
  return ctx->ring + ctx->plane * ((size_t) rr * ctx->cap + s);
}

template <typename T> static cudaError_t
launch_prepare (cudaStream_t stream, const GcvPlane * in, int channels, int width, int height, int rx, int ry,
    int pw, int ph, const int *maps, const PrepareDst & dst, int pitch)
{
  dim3 grid ((pw + kPrepThreads * kPrepRun - 1) / (kPrepThreads * kPrepRun), ph);
  prepare<T><<<grid, kPrepThreads, 0, stream>>> ((const T *) in->data, in->stride, channels, width, height, rx, ry,
      pw, maps, maps + pw, dst, pitch);
  return cudaGetLastError ();
}

extern "C" GcvStatus
gcv_conv3d_cuda_push (GcvConv3dCuda * ctx, const GcvPlane * in, void *stream_ptr, GcvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_ptr;
  const GcvConv3dGeometry *g = &ctx->geom;
  if (gcv_conv3d_push_check (g, &ctx->tl, in, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  const int slot = gcv_conv3d_timeline_slot (&ctx->tl, ctx->tl.pushed);
  PrepareDst dst;
  memset (&dst, 0, sizeof (dst));
  for (int r = 0; r < g->channels; r++)
    dst.plane[r] = ring_plane (ctx, r, slot);
  dst.chans = ctx->chans;
  cudaError_t e;
  switch (g->type) {
    case GCV_SAMPLE_U8:
      e = launch_prepare<uint8_t> (stream, in, g->channels, g->width, g->height, ctx->rx, ctx->ry, ctx->pw, ctx->ph,
          ctx->maps, dst, ctx->pitch);
      break;
    case GCV_SAMPLE_U16:
      e = launch_prepare<uint16_t> (stream, in, g->channels, g->width, g->height, ctx->rx, ctx->ry, ctx->pw, ctx->ph,
          ctx->maps, dst, ctx->pitch);
      break;
    default:
      e = launch_prepare<float> (stream, in, g->channels, g->width, g->height, ctx->rx, ctx->ry, ctx->pw, ctx->ph,
          ctx->maps, dst, ctx->pitch);
      break;
  }
  GCV_CUDA_TRY (e, err, "conv3d: prepare launch");
  if (ctx->params.algorithm == GCV_CONV3D_FFT_HYBRID && ctx->nf_chan > 0) {
    GCV_CUFFT_TRY (ctx->fft->set_stream (ctx->plan_fwd, stream), err, "conv3d: cufftSetStream");
    GCV_CUFFT_TRY (ctx->fft->exec_r2c (ctx->plan_fwd, ctx->staging,
            (cufftComplex *) (ctx->spec + ctx->bins2 * ctx->nf_chan * slot)), err,
        "conv3d: cufftExecR2C (frame spectrum)");
  }
  ctx->tl.pushed++;
  return GCV_OK;
}

extern "C" void
gcv_conv3d_cuda_end (GcvConv3dCuda * ctx)
{
  ctx->tl.ended = 1;
}

extern "C" int
gcv_conv3d_cuda_ready (const GcvConv3dCuda * ctx)
{
  return gcv_conv3d_timeline_ready (&ctx->tl);
}

extern "C" void
gcv_conv3d_cuda_reset (GcvConv3dCuda * ctx)
{
  gcv_conv3d_timeline_reset (&ctx->tl);
}

/* ---- process --------------------------------------------------------------------------------- */

static OutSet
out_set (const GcvPlane * out, int n)
{
  OutSet s;
  memset (&s, 0, sizeof (s));
  for (int o = 0; o < n; o++) {
    s.data[o] = (char *) out[o].data;
    s.stride[o] = out[o].stride;
  }
  return s;
}

static Window
window_at (const Window & w, int first)
{
  Window s;
  for (int f = 0; f < kMaxWindow; f++)
    s.slot[f] = f + first < kMaxWindow ? w.slot[f + first] : -1;
  return s;
}

static RingView
ring_view (const GcvConv3dCuda * ctx)
{
  RingView v;
  v.base = ctx->ring;
  v.plane = ctx->plane;
  v.chan_stride = ctx->plane * ctx->cap;
  v.pitch = ctx->pitch;
  v.chans = ctx->chans;
  return v;
}

template <int KX, int NT> static void
launch_streaming_nt (cudaStream_t stream, const RingView & ring, const Window & win, const float *coef, int ky,
    int kt, int w, int h, int F, const OutSet & out, const Quant & q)
{
  const int groups = (w + RX - 1) / RX, bands = (h + RY - 1) / RY;
  const long long threads = (long long) groups * bands;
  dim3 grid ((unsigned) ((threads + kStreamThreads - 1) / kStreamThreads), F);
  conv_streaming<KX, NT><<<grid, kStreamThreads, 0, stream>>> (ring, win, coef, ky, kt, w, h, groups, out, q);
}

template <int KX> static void
launch_streaming_kx (int nt, cudaStream_t stream, const RingView & ring, const Window & win, const float *coef,
    int ky, int kt, int w, int h, int F, const OutSet & out, const Quant & q)
{
  if (nt == 4)
    launch_streaming_nt<KX, 4> (stream, ring, win, coef, ky, kt, w, h, F, out, q);
  else if (nt == 2)
    launch_streaming_nt<KX, 2> (stream, ring, win, coef, ky, kt, w, h, F, out, q);
  else
    launch_streaming_nt<KX, 1> (stream, ring, win, coef, ky, kt, w, h, F, out, q);
}

static void
launch_streaming (int kx, int nt, cudaStream_t stream, const RingView & ring, const Window & win,
    const float *coef, int ky, int kt, int w, int h, int F, const OutSet & out, const Quant & q)
{
  switch (kx) {
#define GCV_KX(k) case k: launch_streaming_kx<k> (nt, stream, ring, win, coef, ky, kt, w, h, F, out, q); break;
      GCV_KX (1) GCV_KX (3) GCV_KX (5) GCV_KX (7) GCV_KX (9) GCV_KX (11) GCV_KX (13) GCV_KX (15)
      GCV_KX (17) GCV_KX (19) GCV_KX (21) GCV_KX (23) GCV_KX (25) GCV_KX (27) GCV_KX (29) GCV_KX (31)
#undef GCV_KX
    default:
      break;                    /* kx is checked odd and <= 31 */
  }
}

static void
launch_shared (int nt, cudaStream_t stream, const RingView & ring, const Window & win, const float *coef, int kx,
    int ky, int kt, int kxp, int w, int h, int F, const OutSet & out, const Quant & q)
{
  const int sw = kTileX + kx + 2, th = kTileY + ky - 1, nf = nt + kt - 1;
  const size_t coef_bytes = sizeof (float) * kt * ky * kxp, frame_bytes = sizeof (float) * sw * th;
  /* the kernel, then as many frames as fit in ~100 KB (two blocks per SM),
   * at least one (at most 123 + 10 KB: kernel 31^3) */
  int chunk = coef_bytes + frame_bytes < 100 * 1024 ? (int) ((100 * 1024 - coef_bytes) / frame_bytes) : 1;
  chunk = chunk > nf ? nf : chunk;
  dim3 block (kTileX, kTileY), grid ((w + kTileX - 1) / kTileX, (h + kTileY - 1) / kTileY, F);
  const size_t smem = coef_bytes + frame_bytes * chunk;
  if (nt == 4)
    conv_shared<4><<<grid, block, smem, stream>>> (ring, win, coef, kx, ky, kt, kxp, w, h, chunk, out, q);
  else if (nt == 2)
    conv_shared<2><<<grid, block, smem, stream>>> (ring, win, coef, kx, ky, kt, kxp, w, h, chunk, out, q);
  else
    conv_shared<1><<<grid, block, smem, stream>>> (ring, win, coef, kx, ky, kt, kxp, w, h, chunk, out, q);
}

template <int NT> static void
launch_hybrid_nt (cudaStream_t stream, const GcvConv3dCuda * ctx, const Window & win)
{
  const int F = ctx->nf_chan;
  dim3 grid ((unsigned) ((ctx->bins2 + 255) / 256), F);
  hybrid_mac<NT><<<grid, 256, 0, stream>>> (ctx->spec, ctx->bins2 * F, ctx->kspec, win, ctx->params.kt,
      ctx->bins2, F, ctx->acc);
}

static void
launch_hybrid (int n, cudaStream_t stream, const GcvConv3dCuda * ctx, const Window & win)
{
  switch (n) {
#define GCV_NT(k) case k: launch_hybrid_nt<k> (stream, ctx, win); break;
      GCV_NT (1) GCV_NT (2) GCV_NT (3) GCV_NT (4) GCV_NT (5) GCV_NT (6) GCV_NT (7) GCV_NT (8)
      GCV_NT (9) GCV_NT (10) GCV_NT (11) GCV_NT (12) GCV_NT (13) GCV_NT (14) GCV_NT (15) GCV_NT (16)
#undef GCV_NT
    default:
      break;                    /* n is checked 1 .. max_outputs <= 16 */
  }
}

static GcvStatus
run_fft (GcvConv3dCuda * ctx, const Window & win, int n, long long t0, const OutSet & out, const Quant & q,
    cudaStream_t stream, GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const GcvCufft *fft = ctx->fft;
  const int F = ctx->nf_chan, kt = ctx->params.kt, T = ctx->cap;
  FftResult res;
  memset (&res, 0, sizeof (res));
  res.chans = ctx->chans;

  if (ctx->params.algorithm == GCV_CONV3D_FFT_HYBRID) {
    launch_hybrid (n, stream, ctx, win);
    GCV_CUDA_LAUNCHED (err, "conv3d: hybrid_mac launch");
    if (n == g->max_outputs) {
      GCV_CUFFT_TRY (fft->set_stream (ctx->plan_inv, stream), err, "conv3d: cufftSetStream");
      GCV_CUFFT_TRY (fft->exec_c2r (ctx->plan_inv, (cufftComplex *) ctx->acc, ctx->result), err,
          "conv3d: cufftExecC2R");
    } else {
      GCV_CUFFT_TRY (fft->set_stream (ctx->plan_inv_one, stream), err, "conv3d: cufftSetStream");
      for (int o = 0; o < n; o++)
        GCV_CUFFT_TRY (fft->exec_c2r (ctx->plan_inv_one, (cufftComplex *) (ctx->acc + ctx->bins2 * F * o),
                ctx->result + ctx->plane * F * o), err, "conv3d: cufftExecC2R");
    }
    for (int o = 0; o < n; o++)
      res.frame[o] = ctx->result + ctx->plane * F * o;
    res.chan_stride = ctx->plane;
  } else {
    /* the ring is the window, rotated, when every window frame is a real
     * frame in its natural slot */
    const long long first = t0 - ctx->rt, last = t0 + n - 1 + ctx->rt;
    const bool in_ring = first >= 0 && last < ctx->tl.pushed;
    float *src = ctx->ring;
    int sigma0 = 0;
    if (in_ring) {
      sigma0 = (int) (first % T);
    } else {
      const size_t plane2 = ctx->plane / 2;
      dim3 grid ((unsigned) ((plane2 + 255) / 256), n + kt - 1, F);
      gather_window<<<grid, 256, 0, stream>>> ((const float2 *) ctx->ring, plane2 * T, plane2, win,
          (float2 *) ctx->result, plane2 * T);
      GCV_CUDA_LAUNCHED (err, "conv3d: gather_window launch");
      src = ctx->result;
    }
    GCV_CUFFT_TRY (fft->set_stream (ctx->plan_fwd, stream), err, "conv3d: cufftSetStream");
    GCV_CUFFT_TRY (fft->exec_r2c (ctx->plan_fwd, src, (cufftComplex *) ctx->spec), err,
        "conv3d: cufftExecR2C (window)");
    const size_t bins3 = ctx->bins2 * T;
    multiply_spectrum<<<(unsigned) ((bins3 + 255) / 256), 256, 0, stream>>> (ctx->spec, ctx->kspec, bins3, F);
    GCV_CUDA_LAUNCHED (err, "conv3d: multiply_spectrum launch");
    GCV_CUFFT_TRY (fft->set_stream (ctx->plan_inv, stream), err, "conv3d: cufftSetStream");
    GCV_CUFFT_TRY (fft->exec_c2r (ctx->plan_inv, (cufftComplex *) ctx->spec, ctx->result), err,
        "conv3d: cufftExecC2R (window)");
    for (int o = 0; o < n; o++)
      res.frame[o] = ctx->result + ctx->plane * ((sigma0 + o + kt - 1) % T);
    res.chan_stride = ctx->plane * T;
  }
  dim3 block (32, 8), grid ((g->width + 31) / 32, (g->height + 7) / 8, n);
  fft_store<<<grid, block, 0, stream>>> (res, ctx->nx, ctx->params.kx, ctx->params.ky, F, g->width, g->height,
      out, q);
  GCV_CUDA_LAUNCHED (err, "conv3d: fft_store launch");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_conv3d_cuda_process (GcvConv3dCuda * ctx, const GcvConv3dParams * params, int n, GcvPlane * out,
    void *stream_ptr, GcvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_ptr;
  const GcvConv3dGeometry *g = &ctx->geom;
  const GcvConv3dParams *p = &ctx->params;
  const int F = ctx->nf_chan, C = g->channels, kt = p->kt, w = g->width, h = g->height;
  GcvStatus st;

  if (gcv_conv3d_process_check (g, p, &ctx->tl, params, n, out, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  if (F > 0 && (st = update_coefficients (ctx, params->coefficients, stream, err)) != GCV_OK)
    return st;

  /* window frame f of output o's tap l: f = o + kt - 1 - l */
  const long long t0 = ctx->tl.next_out;
  Window win;
  int src[GCV_CONV3D_MAX_SIZE];
  for (int f = 0; f < kMaxWindow; f++)
    win.slot[f] = -1;
  for (int o = 0; o < n; o++) {
    gcv_conv3d_timeline_sources (&ctx->tl, t0 + o, src);
    for (int l = 0; l < kt; l++)
      win.slot[o + kt - 1 - l] = src[l];
  }
  const OutSet all = out_set (out, n);
  Quant q;
  q.scale = params->scale;
  q.offset = params->offset;
  q.absolute = params->absolute ? 1 : 0;
  q.type = g->type;
  q.channels = C;

  if (F > 0) {
    const RingView ring = ring_view (ctx);
    switch (p->algorithm) {
      case GCV_CONV3D_BASELINE:{
        /* one launch, or bands of rows when a stop request is watched and
         * the frame is long (kBandTaps) */
        const double row_taps = (double) w * n * F * p->kx * p->ky * kt;
        const int band = ctx->cancel && row_taps * h > kBandTaps
            ? ((int) (kBandTaps / row_taps) / kTileY + 1) * kTileY : h;
        dim3 block (kTileX, kTileY);
        for (int y0 = 0, k = 0; y0 < h; y0 += band, k++) {
          const int rows = h - y0 < band ? h - y0 : band;
          dim3 grid ((w + kTileX - 1) / kTileX, (rows + kTileY - 1) / kTileY, n * F);
          if (k >= 2) {
            /* the band before the last is done (the device has one queued) */
            GCV_CUDA_TRY (cudaEventSynchronize (ctx->band_done[k & 1]), err, "conv3d: cudaEventSynchronize");
            if ((st = gcv_cancel_check (ctx->cancel, "conv3d", err)) != GCV_OK)
              return st;
          }
          if (ctx->const_off >= 0)
            conv_baseline<true><<<grid, block, 0, stream>>> (ring, win, ctx->coef_dev, ctx->const_off, p->kx,
                p->ky, kt, ctx->kxp, w, h, n, all, q, y0);
          else
            conv_baseline<false><<<grid, block, 0, stream>>> (ring, win, ctx->coef_dev, 0, p->kx, p->ky, kt,
                ctx->kxp, w, h, n, all, q, y0);
          GCV_CUDA_LAUNCHED (err, "conv3d: conv_baseline launch");
          if (band < h)
            GCV_CUDA_TRY (cudaEventRecord (ctx->band_done[k & 1], stream), err, "conv3d: cudaEventRecord");
        }
        break;
      }
      case GCV_CONV3D_SHARED:
      case GCV_CONV3D_STREAMING:
        /* outputs in chunks of 4, 2, 1 frames: the partial sums of a chunk
         * live in registers */
        for (int o0 = 0; o0 < n;) {
          const int nt = n - o0 >= 4 ? 4 : n - o0 >= 2 ? 2 : 1;
          const Window cw = window_at (win, o0);
          const OutSet co = out_set (out + o0, nt);
          if (p->algorithm == GCV_CONV3D_STREAMING)
            launch_streaming (p->kx, nt, stream, ring, cw, ctx->coef_dev, p->ky, kt, w, h, F, co, q);
          else
            launch_shared (nt, stream, ring, cw, ctx->coef_dev, p->kx, p->ky, kt, ctx->kxp, w, h, F, co, q);
          GCV_CUDA_LAUNCHED (err, p->algorithm == GCV_CONV3D_STREAMING ? "conv3d: conv_streaming launch"
              : "conv3d: conv_shared launch");
          o0 += nt;
        }
        break;
      default:
        if ((st = run_fft (ctx, win, n, t0, all, q, stream, err)) != GCV_OK)
          return st;
        break;
    }
  }
  if (F < C) {
    CopySrc cs;
    memset (&cs, 0, sizeof (cs));
    cs.chans = ctx->chans;
    cs.first = F;
    cs.last = C;
    for (int o = 0; o < n; o++)
      for (int r = F; r < C; r++)
        cs.centre[o][r] = ring_plane (ctx, r, gcv_conv3d_timeline_slot (&ctx->tl, t0 + o));
    dim3 block (32, 8), grid ((w + 31) / 32, (h + 7) / 8, n);
    copy_centre<<<grid, block, 0, stream>>> (cs, ctx->pitch, ctx->rx, ctx->ry, w, h, all, q);
    GCV_CUDA_LAUNCHED (err, "conv3d: copy_centre launch");
  }
  ctx->tl.next_out += n;
  return GCV_OK;
}
