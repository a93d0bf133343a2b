/* gst-cuda-video: depth-image-based rendering on the GPU (the contract is
 * cpu/dibr.h; the results equal cpu/dibr_cpu.c's byte for byte).
 *
 * Memory (device, all packed: a row is the plane's width of samples):
 *
 *  - per view (up to GCV_DIBR_MAX_VIEWS, allocated at the first upload and
 *    again when the view grows): one block holding the colour (RGBA, 4
 *    bytes a pixel), the depth plane as uploaded (8 or 16 bits) and the
 *    cleaned depth (float, GCV_DIBR_UNKNOWN where none);
 *  - `med`: the median's output (float) of the largest view, when the
 *    median and the DCBF both run;
 *  - the DCBF tables (Gs then Gc, floats), uploaded from pinned host memory
 *    when the sizes or sigmas change;
 *  - for the W x H virtual view: keys (the z-buffer, uint64), keys2 (after
 *    crack filling), left / right (int32: per pixel of every row, the
 *    column of the nearest key at or left / right of it in keys2, -1 none),
 *    row_any (per row: whether it holds a key), row_src (per row: the row
 *    whose keys fill its holes, -1 none), and the outputs (RGBA, float Z,
 *    holes mask) that are downloaded.
 *
 * Kernels, in stream order:
 *
 *  - unpacking (the elements' packed frames, already on the device):
 *    k_unpack, a thread per view pixel, the header's integer unpacking
 *    into the view's RGBA and 8- or 16-bit depth;
 *  - stage 1, per view: k_median (16 x 16 threads, the window's tile of
 *    the depth plane in shared memory as int, -1 for unknown and outside
 *    the frame; the lower median by a radix select over the value bits,
 *    exact integers, no per-thread array), then k_dcbf (16 x 16 threads, a
 *    tile + apron of the depth (float) and colour (packed RGB) in shared
 *    memory with Gs and Gc; the contract's float sums in raster order of
 *    the window with _rn intrinsics, nothing contracted into FMA).  With
 *    the median off k_median runs with a 1 x 1 window (the decode); with
 *    the DCBF off it writes the cleaned plane directly;
 *  - stage 2: keys set to all ones, k_warp (a thread per source pixel of
 *    each view: the header's double warp, the 64-bit key, atomicMin), then
 *    k_cracks (keys -> keys2);
 *  - stage 3: k_row_scan (a block per row: block-wide max / min scans of
 *    the key columns -> left, right, row_any), k_row_src (one thread: two
 *    passes over row_any, the nearest row with a key, ties to the row
 *    above), k_fill (a thread per target pixel: the hole rule, the holes
 *    mask, the colour gathered from the key's view and the Z);
 *  - downloads: cudaMemcpy2DAsync straight into host planes that are
 *    pinned, else into pinned staging memory copied out by _wait (one
 *    staging buffer per pending download, so two renders of a stereo
 *    pair can be queued before one wait).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdlib>

#include "dibr.h"
#include "gcv-cuda.h"
#include "gcv-cuda-context.h"

namespace {

const char kTag[] = "dibr";
const int kTile = 16;                   /* k_median, k_dcbf: 16 x 16 threads */
const int kScanThreads = 256;           /* k_row_scan */
const int kMaxPending = 48;             /* queued host downloads between waits */

/* ---- stage 1 ------------------------------------------------------------------------------ */

/* The lower median (sorted[(n - 1) / 2]) of the known values of the
 * window of (x, y), read from a shared tile of `tw` columns whose (0, 0)
 * is the window's top-left corner.  Radix select: the k-th smallest value
 * is found bit by bit from the top, counting the known values that match
 * the prefix found so far and have a 0 at the current bit. */
__device__ int
median_select (const int *tile, int tw, int m, int bits)
{
  int n = 0;
  for (int j = 0; j < m; j++)
    for (int i = 0; i < m; i++)
      n += tile[j * tw + i] >= 0;
  if (n == 0)
    return -1;
  int k = (n - 1) / 2, prefix = 0;
  for (int b = bits - 1; b >= 0; b--) {
    /* values whose bits above b equal prefix's and whose bit b is 0 */
    const int want = prefix >> b;       /* prefix has 0 at bit b and below */
    int c = 0;
    for (int j = 0; j < m; j++)
      for (int i = 0; i < m; i++) {
        const int v = tile[j * tw + i];
        c += v >= 0 && (v >> b) == want;
      }
    if (k >= c) {
      k -= c;
      prefix |= 1 << b;
    }
  }
  return prefix;
}

struct MedianArgs {
  const uint8_t *depth;                 /* packed, w * (bits / 8) bytes a row */
  int w, h, bits, zero_unknown;
  int r;                                /* m / 2 */
  float *out;                           /* packed floats */
};

__global__ void __launch_bounds__ (kTile * kTile)
k_median (MedianArgs a)
{
  extern __shared__ int s_val[];
  const int tw = kTile + 2 * a.r;
  const int x0 = blockIdx.x * kTile - a.r, y0 = blockIdx.y * kTile - a.r;
  const int tid = threadIdx.y * kTile + threadIdx.x;
  for (int i = tid; i < tw * tw; i += kTile * kTile) {
    const int xx = x0 + i % tw, yy = y0 + i / tw;
    int v = -1;
    if (xx >= 0 && xx < a.w && yy >= 0 && yy < a.h) {
      v = a.bits == 16 ? (int) ((const uint16_t *) a.depth)[(size_t) yy * a.w + xx]
          : (int) a.depth[(size_t) yy * a.w + xx];
      if (a.zero_unknown && v == 0)
        v = -1;
    }
    s_val[i] = v;
  }
  __syncthreads ();
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x >= a.w || y >= a.h)
    return;
  const int v = median_select (s_val + threadIdx.y * tw + threadIdx.x, tw, 2 * a.r + 1, a.bits);
  a.out[(size_t) y * a.w + x] = v < 0 ? GCV_DIBR_UNKNOWN : (float) v;
}

struct DcbfArgs {
  const float *in;                      /* packed */
  const uint8_t *rgba;                  /* packed, 4 bytes a pixel */
  const float *tables;                  /* Gs (K * K), then Gc (766) */
  int w, h, k, r;
  float *out;
};

__global__ void __launch_bounds__ (kTile * kTile)
k_dcbf (DcbfArgs a)
{
  extern __shared__ float s_mem[];
  const int tw = kTile + 2 * a.r, kk = a.k * a.k;
  float *s_gs = s_mem;                                  /* K * K */
  float *s_gc = s_gs + kk;                              /* 766 */
  float *s_d = s_gc + (GCV_DIBR_MAX_COLOR_DIST + 1);    /* tw * tw */
  unsigned *s_c = (unsigned *) (s_d + tw * tw);         /* tw * tw: R | G << 8 | B << 16 */
  const int tid = threadIdx.y * kTile + threadIdx.x;
  for (int i = tid; i < kk + GCV_DIBR_MAX_COLOR_DIST + 1; i += kTile * kTile)
    s_gs[i] = a.tables[i];
  const int x0 = blockIdx.x * kTile - a.r, y0 = blockIdx.y * kTile - a.r;
  for (int i = tid; i < tw * tw; i += kTile * kTile) {
    const int xx = x0 + i % tw, yy = y0 + i / tw;
    float d = GCV_DIBR_UNKNOWN;
    unsigned c = 0;
    if (xx >= 0 && xx < a.w && yy >= 0 && yy < a.h) {
      const size_t p = (size_t) yy * a.w + xx;
      d = a.in[p];
      c = *(const unsigned *) (a.rgba + 4 * p) & 0xffffffu;
    }
    s_d[i] = d;
    s_c[i] = c;
  }
  __syncthreads ();
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x >= a.w || y >= a.h)
    return;
  const unsigned cc = s_c[(threadIdx.y + a.r) * tw + threadIdx.x + a.r];
  const int cr = cc & 255, cg = (cc >> 8) & 255, cb = cc >> 16;
  float num = 0.0f, den = 0.0f;
  /* the window in raster order; pixels outside the frame hold unknown in
   * the tile and are skipped like the CPU skips them */
  for (int j = 0; j < a.k; j++) {
    const float *drow = s_d + (threadIdx.y + j) * tw + threadIdx.x;
    const unsigned *crow = s_c + (threadIdx.y + j) * tw + threadIdx.x;
    const float *gs = s_gs + j * a.k;
    for (int i = 0; i < a.k; i++) {
      const float d = drow[i];
      if (d < 0.0f)
        continue;
      const unsigned c = crow[i];
      const int dist = abs ((int) (c & 255) - cr) + abs ((int) ((c >> 8) & 255) - cg) + abs ((int) (c >> 16) - cb);
      const float wgt = __fmul_rn (gs[i], s_gc[dist]);
      num = __fadd_rn (num, __fmul_rn (wgt, d));
      den = __fadd_rn (den, wgt);
    }
  }
  a.out[(size_t) y * a.w + x] = den > 0.0f ? __fdiv_rn (num, den) : GCV_DIBR_UNKNOWN;
}

/* ---- stage 2 ------------------------------------------------------------------------------ */

struct WarpArgs {
  GcvDibrWarp warp;
  GcvDibrDecode dec;
  const float *clean;                   /* the view's, packed */
  int vw, vh, view;
  unsigned long long *keys;
  int W, H;
};

__global__ void
k_warp (WarpArgs a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= a.vw || y >= a.vh)
    return;
  const size_t i = (size_t) y * a.vw + x;
  const float d = a.clean[i];
  if (d < 0.0f)
    return;
  int tx, ty;
  float zf;
  if (!gcv_dibr_warp_point (&a.warp, x, y, gcv_dibr_value_to_z (&a.dec, d), a.W, a.H, &tx, &ty, &zf))
    return;
  atomicMin (&a.keys[(size_t) ty * a.W + tx], (unsigned long long) gcv_dibr_key (zf, a.view, (uint32_t) i));
}

__global__ void
k_cracks (const unsigned long long *__restrict__ k, unsigned long long *__restrict__ o, int W, int H)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H)
    return;
  const size_t p = (size_t) y * W + x;
  const unsigned long long E = GCV_DIBR_EMPTY;
  unsigned long long r = k[p];
  if (r == E) {
    unsigned long long a, b;
    int done = 0;
    if (x > 0 && x < W - 1) {
      a = k[p - 1];
      b = k[p + 1];
      if (a != E && b != E && gcv_dibr_same_surface (gcv_dibr_key_z (a), gcv_dibr_key_z (b))) {
        r = a > b ? a : b;
        done = 1;
      }
    }
    if (!done && y > 0 && y < H - 1) {
      a = k[p - W];
      b = k[p + W];
      if (a != E && b != E && gcv_dibr_same_surface (gcv_dibr_key_z (a), gcv_dibr_key_z (b)))
        r = a > b ? a : b;
    }
  }
  o[p] = r;
}

/* ---- stage 3 ------------------------------------------------------------------------------ */

/* Inclusive block-wide scan (max or min) of one value a thread, in thread
 * order; s_warp: 32 ints of shared memory. */
template <bool kMax>
__device__ int
block_scan (int v, int *s_warp)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, n_warps = blockDim.x >> 5;
  for (int o = 1; o < 32; o <<= 1) {
    const int t = __shfl_up_sync (0xffffffffu, v, o);
    if (lane >= o)
      v = kMax ? max (v, t) : min (v, t);
  }
  if (lane == 31)
    s_warp[warp] = v;
  __syncthreads ();
  if (warp == 0) {
    int s = lane < n_warps ? s_warp[lane] : (kMax ? -1 : INT_MAX);
    for (int o = 1; o < 32; o <<= 1) {
      const int t = __shfl_up_sync (0xffffffffu, s, o);
      if (lane >= o)
        s = kMax ? max (s, t) : min (s, t);
    }
    if (lane < n_warps)
      s_warp[lane] = s;
  }
  __syncthreads ();
  if (warp > 0)
    v = kMax ? max (v, s_warp[warp - 1]) : min (v, s_warp[warp - 1]);
  __syncthreads ();             /* s_warp is reused by the next scan */
  return v;
}

/* One block a row of keys2: left[x] = the largest column <= x holding a
 * key (-1 none), right[x] = the smallest column >= x (-1 none), row_any. */
__global__ void __launch_bounds__ (kScanThreads)
k_row_scan (const unsigned long long *__restrict__ keys2, int W, int *__restrict__ left, int *__restrict__ right,
    uint8_t *__restrict__ row_any)
{
  __shared__ int s_warp[32];
  __shared__ int s_carry;
  const int y = blockIdx.x;
  const unsigned long long *k = keys2 + (size_t) y * W;
  int carry = -1;
  for (int base = 0; base < W; base += kScanThreads) {
    const int x = base + threadIdx.x;
    int v = x < W && k[x] != GCV_DIBR_EMPTY ? x : -1;
    v = max (block_scan<true> (v, s_warp), carry);
    if (x < W)
      left[(size_t) y * W + x] = v;
    if (threadIdx.x == kScanThreads - 1)
      s_carry = v;
    __syncthreads ();
    carry = s_carry;
    __syncthreads ();
  }
  if (threadIdx.x == 0)
    row_any[y] = carry >= 0;
  carry = INT_MAX;
  for (int base = 0; base < W; base += kScanThreads) {
    const int x = W - 1 - (base + threadIdx.x);
    int v = x >= 0 && k[x] != GCV_DIBR_EMPTY ? x : INT_MAX;
    v = min (block_scan<false> (v, s_warp), carry);
    if (x >= 0)
      right[(size_t) y * W + x] = v == INT_MAX ? -1 : v;
    if (threadIdx.x == kScanThreads - 1)
      s_carry = v;
    __syncthreads ();
    carry = s_carry;
    __syncthreads ();
  }
}

/* One thread: row_src[y] = y when row y has a key, else the nearest row
 * with one (|row - y| smallest, ties: the row above), -1 when none. */
__global__ void
k_row_src (const uint8_t * row_any, int H, int *row_src)
{
  if (blockIdx.x != 0 || threadIdx.x != 0)
    return;
  int last = -1;
  for (int y = 0; y < H; y++) {
    if (row_any[y])
      last = y;
    row_src[y] = last;          /* the nearest at or above */
  }
  last = -1;
  for (int y = H - 1; y >= 0; y--) {
    if (row_any[y])
      last = y;
    const int up = row_src[y];
    if (last >= 0 && (up < 0 || last - y < y - up))
      row_src[y] = last;
  }
}

struct ViewRef {
  const uint8_t *rgba;                  /* packed */
  int w;
};

struct FillArgs {
  const unsigned long long *keys2;
  const int *left, *right, *row_src;
  int W, H;
  ViewRef views[GCV_DIBR_MAX_VIEWS];
  float zfar;
  uint8_t *out_rgba;                    /* packed W * 4 */
  float *out_depth;                     /* packed W */
  uint8_t *out_holes;                   /* packed W */
};

__device__ __forceinline__ unsigned long long
pick (unsigned long long l, unsigned long long r)
{
  const unsigned long long E = GCV_DIBR_EMPTY;
  if (l == E)
    return r;
  if (r == E)
    return l;
  return l > r ? l : r;
}

__global__ void
k_fill (FillArgs a)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= a.W || y >= a.H)
    return;
  const unsigned long long E = GCV_DIBR_EMPTY;
  const size_t p = (size_t) y * a.W + x;
  unsigned long long k = a.keys2[p];
  const int hole = k == E;
  a.out_holes[p] = hole ? 255 : 0;
  if (hole) {
    const int src = a.row_src[y];
    if (src >= 0) {
      const size_t q = (size_t) src * a.W;
      if (src != y && a.keys2[q + x] != E) {
        k = a.keys2[q + x];
      } else {
        const int l = a.left[q + x], r = a.right[q + x];
        k = pick (l >= 0 ? a.keys2[q + l] : E, r >= 0 ? a.keys2[q + r] : E);
      }
    }
  }
  uchar4 c;
  float z;
  if (k == E) {
    c = make_uchar4 (0, 0, 0, 255);
    z = a.zfar;
  } else {
    const ViewRef v = a.views[gcv_dibr_key_view (k)];
    const uint32_t i = gcv_dibr_key_pixel (k);
    const uint8_t *s = v.rgba + 4 * (size_t) i;
    c = make_uchar4 (s[0], s[1], s[2], 255);
    z = gcv_dibr_key_z (k);
  }
  ((uchar4 *) a.out_rgba)[p] = c;
  a.out_depth[p] = z;
}

/* ---- packed frames --------------------------------------------------------------------------- */

/* A thread per view pixel: the header's unpacking (gcv_dibr_unpack_pixel)
 * from the packed frame in device memory into the view's RGBA (uchar4
 * stores, coalesced) and depth (Depth: uint8_t, or uint16_t for RGBA64
 * frames).  Reads one colour pixel and one sample of the depth part
 * (4-byte and 8-byte formats), or Y, U, V and a depth luma byte (I420):
 * memory-bound, a few microseconds at 1080p. */
template <typename Depth>
__global__ void
k_unpack (GcvDibrPacked f, uint8_t *__restrict__ rgba, Depth *__restrict__ depth)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= f.width || y >= f.height)
    return;
  uint8_t c[4];
  unsigned d;
  gcv_dibr_unpack_pixel (&f, x, y, c, &d);
  const size_t p = (size_t) y * f.width + x;
  ((uchar4 *) rgba)[p] = make_uchar4 (c[0], c[1], c[2], c[3]);
  depth[p] = (Depth) d;
}

dim3
grid_of (int w, int h, dim3 block)
{
  return dim3 ((unsigned) ((w + block.x - 1) / block.x), (unsigned) ((h + block.y - 1) / block.y));
}

}                               /* namespace */

/* ---- the context ---------------------------------------------------------------------------- */

namespace {

struct DibrDevView {
  uint8_t *mem;                 /* one block: rgba, depth, clean */
  size_t cap_px;
  uint8_t *rgba;
  uint8_t *depth;
  float *clean;
  int w, h, bits;
  GcvDibrCamera camera;
  int uploaded;
  /* the clean-up in `clean` was made with these (valid: clean_ok) */
  int clean_ok;
  int c_median, c_dcbf, c_zu;
  double c_ss, c_sc;
};

struct Pending {
  uint8_t *stage;               /* pinned */
  size_t cap;
  void *dst;
  size_t dst_stride, row_bytes;
  int rows;
};

}                               /* namespace */

struct _GcvDibrCuda {
  int device, width, height;
  cudaStream_t stream;
  int own_stream;
  GcvLumaStager stager;
  DibrDevView views[GCV_DIBR_MAX_VIEWS];

  float *med;                   /* the median's output, the largest view */
  size_t cap_med;
  float *d_tables;              /* Gs (K * K) then Gc */
  GcvDibrTables *h_tables;      /* pinned: the copy reads it asynchronously */
  int tables_valid, t_dcbf;
  double t_ss, t_sc;

  unsigned long long *keys, *keys2;
  int *left, *right, *row_src;
  uint8_t *row_any;
  uint8_t *out_rgba, *out_holes;
  float *out_depth;

  Pending pending[kMaxPending];
  int n_pending;

  cudaEvent_t ev[4];            /* render: clean, warp, fill */
  cudaEvent_t done_ev;          /* recorded at the end of every queueing call */
  int queued;                   /* work was queued since the last wait */
  int rendered;                 /* ev[] hold a render's times not reported yet */
};

namespace {

GcvStatus
dibr_cuda_alloc (GcvDibrCuda * ctx, void *stream, GcvError * err)
{
  GcvStatus st;
  const size_t px = (size_t) ctx->width * ctx->height, H = (size_t) ctx->height;

  if (stream) {
    ctx->stream = (cudaStream_t) stream;
  } else {
    GCV_CUDA_TRY (cudaStreamCreateWithFlags (&ctx->stream, cudaStreamNonBlocking), err, "dibr: cudaStreamCreate");
    ctx->own_stream = 1;
  }
  if ((st = gcv_cuda_dev_alloc ((void **) &ctx->keys, px * 8, err, kTag, "z-buffer")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->keys2, px * 8, err, kTag, "z-buffer")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->left, px * 4, err, kTag, "row scans")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->right, px * 4, err, kTag, "row scans")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->row_src, H * 4, err, kTag, "rows")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->row_any, H, err, kTag, "rows")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->out_rgba, px * 4, err, kTag, "output")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->out_depth, px * 4, err, kTag, "output")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->out_holes, px, err, kTag, "output")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->d_tables, sizeof (float) * (GCV_DIBR_MAX_DCBF * GCV_DIBR_MAX_DCBF
                  + GCV_DIBR_MAX_COLOR_DIST + 1), err, kTag, "DCBF tables")) != GCV_OK
      || (st = gcv_cuda_pinned_alloc ((void **) &ctx->h_tables, sizeof (GcvDibrTables), err, kTag,
              "DCBF tables")) != GCV_OK)
    return st;
  if ((st = gcv_luma_stager_events (&ctx->stager, err, kTag)) != GCV_OK)
    return st;
  for (int i = 0; i < 4; i++)
    GCV_CUDA_TRY (cudaEventCreate (&ctx->ev[i]), err, "dibr: cudaEventCreate");
  GCV_CUDA_TRY (cudaEventCreateWithFlags (&ctx->done_ev, cudaEventDisableTiming), err, "dibr: cudaEventCreate");
  return GCV_OK;
}

GcvStatus
no_context (GcvError * err)
{
  gcv_error_set (err, GCV_ERROR_INVALID, "dibr: no context");
  return GCV_ERROR_INVALID;
}

GcvStatus
check_params (const GcvDibrParams * params, GcvError * err)
{
  const char *bad = gcv_dibr_params_check (params);
  if (bad) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

int
plane_ok (const GcvPlane * p, int w, int h, size_t bpp)
{
  return p && p->data && p->width == w && p->height == h && p->stride >= (size_t) w * bpp;
}

/* The DCBF tables of p on the device. */
GcvStatus
ensure_tables (GcvDibrCuda * ctx, const GcvDibrParams * p, GcvError * err)
{
  if (ctx->tables_valid && ctx->t_dcbf == p->dcbf_size && ctx->t_ss == p->sigma_spatial
      && ctx->t_sc == p->sigma_color)
    return GCV_OK;
  /* a queued copy may still read the host tables */
  if (ctx->tables_valid)
    GCV_CUDA_TRY (cudaStreamSynchronize (ctx->stream), err, "dibr: cudaStreamSynchronize");
  ctx->tables_valid = 0;
  gcv_dibr_tables_make (p, ctx->h_tables);
  const size_t kk = (size_t) p->dcbf_size * p->dcbf_size;
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_tables, ctx->h_tables->spatial, kk * sizeof (float), cudaMemcpyHostToDevice,
          ctx->stream), err, "dibr: cudaMemcpyAsync (tables)");
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_tables + kk, ctx->h_tables->color, (GCV_DIBR_MAX_COLOR_DIST + 1)
          * sizeof (float), cudaMemcpyHostToDevice, ctx->stream), err, "dibr: cudaMemcpyAsync (tables)");
  ctx->tables_valid = 1;
  ctx->t_dcbf = p->dcbf_size;
  ctx->t_ss = p->sigma_spatial;
  ctx->t_sc = p->sigma_color;
  return GCV_OK;
}

int
clean_matches (const DibrDevView * v, const GcvDibrParams * p)
{
  return v->clean_ok && v->c_median == p->median_size && v->c_dcbf == p->dcbf_size && v->c_zu == !!p->zero_is_unknown
      && (p->dcbf_size == 1 || (v->c_ss == p->sigma_spatial && v->c_sc == p->sigma_color));
}

/* Grows the median's scratch to px floats (queued work may still read it). */
GcvStatus
ensure_med (GcvDibrCuda * ctx, size_t px, GcvError * err)
{
  if (px <= ctx->cap_med)
    return GCV_OK;
  GCV_CUDA_TRY (cudaStreamSynchronize (ctx->stream), err, "dibr: cudaStreamSynchronize");
  float *m = nullptr;
  GcvStatus st;
  if ((st = gcv_cuda_dev_alloc ((void **) &m, px * sizeof (float), err, kTag, "median")) != GCV_OK)
    return st;
  cudaFree (ctx->med);
  ctx->med = m;
  ctx->cap_med = px;
  return GCV_OK;
}

/* Queues stage 1 of view v into v->clean (tables and scratch ready). */
GcvStatus
queue_clean (GcvDibrCuda * ctx, const GcvDibrParams * p, DibrDevView * v, GcvError * err)
{
  const dim3 block (kTile, kTile), grid = grid_of (v->w, v->h, block);
  const int dcbf = p->dcbf_size > 1;
  {
    MedianArgs a;
    a.depth = v->depth;
    a.w = v->w;
    a.h = v->h;
    a.bits = v->bits;
    a.zero_unknown = p->zero_is_unknown ? 1 : 0;
    a.r = p->median_size / 2;
    a.out = dcbf ? ctx->med : v->clean;
    const int tw = kTile + 2 * a.r;
    k_median<<<grid, block, (size_t) tw * tw * sizeof (int), ctx->stream>>> (a);
    GCV_CUDA_LAUNCHED (err, "dibr: k_median");
  }
  if (dcbf) {
    DcbfArgs a;
    a.in = ctx->med;
    a.rgba = v->rgba;
    a.tables = ctx->d_tables;
    a.w = v->w;
    a.h = v->h;
    a.k = p->dcbf_size;
    a.r = a.k / 2;
    a.out = v->clean;
    const int tw = kTile + 2 * a.r;
    const size_t smem = sizeof (float) * ((size_t) a.k * a.k + GCV_DIBR_MAX_COLOR_DIST + 1 + 2 * (size_t) tw * tw);
    k_dcbf<<<grid, block, smem, ctx->stream>>> (a);
    GCV_CUDA_LAUNCHED (err, "dibr: k_dcbf");
  }
  v->clean_ok = 1;
  v->c_median = p->median_size;
  v->c_dcbf = p->dcbf_size;
  v->c_zu = !!p->zero_is_unknown;
  v->c_ss = p->sigma_spatial;
  v->c_sc = p->sigma_color;
  return GCV_OK;
}

/* Copies what the pending downloads staged into their host planes. */
void
flush_pending (GcvDibrCuda * ctx)
{
  for (int i = 0; i < ctx->n_pending; i++) {
    const Pending *d = &ctx->pending[i];
    for (int y = 0; y < d->rows; y++)
      memcpy ((uint8_t *) d->dst + d->dst_stride * y, d->stage + d->row_bytes * y, d->row_bytes);
  }
  ctx->n_pending = 0;
}

/* Queues the download of a packed device plane into host plane `dst`:
 * straight when dst is pinned, else through a pending staging buffer that
 * _wait copies out. */
GcvStatus
queue_download (GcvDibrCuda * ctx, const GcvPlane * dst, const void *src, size_t row_bytes, GcvError * err)
{
  const int rows = dst->height;
  if (gcv_cuda_host_is_pinned (dst->data)) {
    GCV_CUDA_TRY (cudaMemcpy2DAsync (dst->data, dst->stride, src, row_bytes, row_bytes, rows, cudaMemcpyDeviceToHost,
            ctx->stream), err, "dibr: cudaMemcpy2DAsync (download)");
    return GCV_OK;
  }
  if (ctx->n_pending == kMaxPending) {
    /* many downloads without a wait: finish those queued so far */
    GCV_CUDA_TRY (cudaStreamSynchronize (ctx->stream), err, "dibr: cudaStreamSynchronize");
    flush_pending (ctx);
  }
  Pending *d = &ctx->pending[ctx->n_pending];
  const size_t bytes = row_bytes * rows;
  if (d->cap < bytes) {
    uint8_t *b = nullptr;
    GcvStatus st;
    /* this slot is not in use (n_pending counts those queued) */
    if ((st = gcv_cuda_pinned_alloc ((void **) &b, bytes, err, kTag, "download staging")) != GCV_OK)
      return st;
    cudaFreeHost (d->stage);
    d->stage = b;
    d->cap = bytes;
  }
  GCV_CUDA_TRY (cudaMemcpyAsync (d->stage, src, bytes, cudaMemcpyDeviceToHost, ctx->stream), err,
      "dibr: cudaMemcpyAsync (download)");
  d->dst = dst->data;
  d->dst_stride = dst->stride;
  d->row_bytes = row_bytes;
  d->rows = rows;
  ctx->n_pending++;
  return GCV_OK;
}

/* Makes view v's device block hold px pixels (the device current); the
 * view is marked not uploaded until its new planes are queued. */
GcvStatus
view_memory (GcvDibrCuda * ctx, DibrDevView * v, size_t px, GcvError * err)
{
  v->uploaded = 0;
  v->clean_ok = 0;
  if (px <= v->cap_px)
    return GCV_OK;
  /* rgba (4), depth (2, 256-byte aligned), clean (4) */
  const size_t drgba = gcv_round_up (px * 4, 256), ddepth = gcv_round_up (px * 2, 256);
  uint8_t *m = nullptr;
  GcvStatus st;
  /* queued work may still read the old block */
  GCV_CUDA_TRY (cudaStreamSynchronize (ctx->stream), err, "dibr: cudaStreamSynchronize");
  if ((st = gcv_cuda_dev_alloc ((void **) &m, drgba + ddepth + px * 4, err, kTag, "view")) != GCV_OK)
    return st;
  cudaFree (v->mem);
  v->mem = m;
  v->cap_px = px;
  v->rgba = m;
  v->depth = m + drgba;
  v->clean = (float *) (m + drgba + ddepth);
  return GCV_OK;
}

GcvStatus
check_index (int index, GcvError * err)
{
  if (index < 0 || index >= GCV_DIBR_MAX_VIEWS) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view index %d: must be 0 .. %d", index, GCV_DIBR_MAX_VIEWS - 1);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

}                               /* namespace */

extern "C" void
gcv_dibr_cuda_free (GcvDibrCuda * ctx)
{
  if (ctx == NULL)
    return;
  gcv_cuda_context_release (ctx->device, ctx->stream, kTag, [ctx] () {
    for (int i = 0; i < GCV_DIBR_MAX_VIEWS; i++)
      cudaFree (ctx->views[i].mem);
    for (int i = 0; i < kMaxPending; i++)
      cudaFreeHost (ctx->pending[i].stage);
    cudaFree (ctx->med);
    cudaFree (ctx->d_tables);
    cudaFreeHost (ctx->h_tables);
    cudaFree (ctx->keys);
    cudaFree (ctx->keys2);
    cudaFree (ctx->left);
    cudaFree (ctx->right);
    cudaFree (ctx->row_src);
    cudaFree (ctx->row_any);
    cudaFree (ctx->out_rgba);
    cudaFree (ctx->out_depth);
    cudaFree (ctx->out_holes);
    gcv_luma_stager_free (&ctx->stager);
    for (int i = 0; i < 4; i++)
      if (ctx->ev[i])
        cudaEventDestroy (ctx->ev[i]);
    if (ctx->done_ev)
      cudaEventDestroy (ctx->done_ev);
    if (ctx->own_stream)
      cudaStreamDestroy (ctx->stream);
  });
  delete ctx;
}

extern "C" GcvDibrCuda *
gcv_dibr_cuda_new (int device, int width, int height, void *stream, GcvError * err)
{
  if (width < 1 || height < 1 || width > GCV_DIBR_MAX_DIMENSION || height > GCV_DIBR_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: frame size %dx%d must be 1x1 .. %dx%d", width, height,
        GCV_DIBR_MAX_DIMENSION, GCV_DIBR_MAX_DIMENSION);
    return NULL;
  }
  return gcv_cuda_context_new<GcvDibrCuda> (device, width, height, stream, err, kTag, dibr_cuda_alloc,
      gcv_dibr_cuda_free);
}

extern "C" GcvStatus
gcv_dibr_cuda_upload_view (GcvDibrCuda * ctx, int index, const GcvDibrView * view, GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_index (index, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  if (!view || !view->rgba.data || !view->depth.data) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d has no colour or depth plane", index);
    return GCV_ERROR_INVALID;
  }
  const int w = view->rgba.width, h = view->rgba.height, bits = view->depth_bits;
  if (w < 1 || h < 1 || w > GCV_DIBR_MAX_DIMENSION || h > GCV_DIBR_MAX_DIMENSION
      || (uint64_t) w * (uint64_t) h > (uint64_t) GCV_DIBR_PIXEL_MASK + 1 || view->depth.width != w
      || view->depth.height != h) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: colour %dx%d and depth %dx%d must be the same "
        "size, at most %d pixels", index, w, h, view->depth.width, view->depth.height, GCV_DIBR_PIXEL_MASK + 1);
    return GCV_ERROR_INVALID;
  }
  if (bits != 8 && bits != 16) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: depth of %d bits (8 or 16)", index, bits);
    return GCV_ERROR_INVALID;
  }
  if (view->rgba.stride < (size_t) w * 4 || view->depth.stride < (size_t) w * (bits / 8)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: a stride is shorter than a row", index);
    return GCV_ERROR_INVALID;
  }
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK)
    return st;
  const size_t px = (size_t) w * h;
  DibrDevView *v = &ctx->views[index];
  if ((st = gcv_luma_stager_reserve (&ctx->stager, px * 4, err, kTag)) != GCV_OK
      || (st = view_memory (ctx, v, px, err)) != GCV_OK)
    return st;
  if ((st = gcv_luma_stager_upload_2d (&ctx->stager, view->rgba.data, view->rgba.stride, (size_t) w * 4, h, v->rgba,
              (size_t) w * 4, ctx->stream, err, kTag)) != GCV_OK
      || (st = gcv_luma_stager_upload_2d (&ctx->stager, view->depth.data, view->depth.stride, (size_t) w * (bits / 8),
              h, v->depth, (size_t) w * (bits / 8), ctx->stream, err, kTag)) != GCV_OK)
    return st;
  v->w = w;
  v->h = h;
  v->bits = bits;
  v->camera = view->camera;
  v->uploaded = 1;
  GCV_CUDA_TRY (cudaEventRecord (ctx->done_ev, ctx->stream), err, "dibr: cudaEventRecord");
  ctx->queued = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_unpack_view (GcvDibrCuda * ctx, int index, const GcvDibrPacked * frame, const GcvDibrCamera * camera,
    GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_index (index, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  const char *bad = gcv_dibr_packed_check (frame);
  if (bad || !camera) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: %s", index, bad ? bad : "no camera");
    return GCV_ERROR_INVALID;
  }
  const int w = frame->width, h = frame->height;
  if ((uint64_t) w * (uint64_t) h > (uint64_t) GCV_DIBR_PIXEL_MASK + 1) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d: %dx%d is more than %u pixels", index, w, h,
        GCV_DIBR_PIXEL_MASK + 1);
    return GCV_ERROR_INVALID;
  }
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK)
    return st;
  DibrDevView *v = &ctx->views[index];
  if ((st = view_memory (ctx, v, (size_t) w * h, err)) != GCV_OK)
    return st;
  const dim3 block (32, 8);
  const int bits = gcv_dibr_packed_depth_bits (frame);
  if (bits == 16)
    k_unpack<<<grid_of (w, h, block), block, 0, ctx->stream>>> (*frame, v->rgba, (uint16_t *) v->depth);
  else
    k_unpack<<<grid_of (w, h, block), block, 0, ctx->stream>>> (*frame, v->rgba, v->depth);
  GCV_CUDA_LAUNCHED (err, "dibr: k_unpack");
  v->w = w;
  v->h = h;
  v->bits = bits;
  v->camera = *camera;
  v->uploaded = 1;
  GCV_CUDA_TRY (cudaEventRecord (ctx->done_ev, ctx->stream), err, "dibr: cudaEventRecord");
  ctx->queued = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_download_colour (GcvDibrCuda * ctx, int index, GcvPlane * out, GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_index (index, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  const DibrDevView *v = &ctx->views[index];
  if (!v->uploaded) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d was not uploaded", index);
    return GCV_ERROR_INVALID;
  }
  if (!plane_ok (out, v->w, v->h, 4)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d's colour goes into a %dx%d RGBA plane", index, v->w,
        v->h);
    return GCV_ERROR_INVALID;
  }
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK
      || (st = queue_download (ctx, out, v->rgba, (size_t) v->w * 4, err)) != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaEventRecord (ctx->done_ev, ctx->stream), err, "dibr: cudaEventRecord");
  ctx->queued = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_clean_depth (GcvDibrCuda * ctx, const GcvDibrParams * params, int index, GcvPlane * out,
    GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_params (params, err) != GCV_OK || check_index (index, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  DibrDevView *v = &ctx->views[index];
  if (!v->uploaded) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d was not uploaded", index);
    return GCV_ERROR_INVALID;
  }
  if (!plane_ok (out, v->w, v->h, sizeof (float))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the cleaned depth must be a %dx%d float plane", v->w, v->h);
    return GCV_ERROR_INVALID;
  }
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK
      || (params->dcbf_size > 1 && (st = ensure_med (ctx, (size_t) v->w * v->h, err)) != GCV_OK)
      || (params->dcbf_size > 1 && (st = ensure_tables (ctx, params, err)) != GCV_OK))
    return st;
  if (!clean_matches (v, params) && (st = queue_clean (ctx, params, v, err)) != GCV_OK) {
    v->clean_ok = 0;
    return st;
  }
  if ((st = queue_download (ctx, out, v->clean, (size_t) v->w * sizeof (float), err)) != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaEventRecord (ctx->done_ev, ctx->stream), err, "dibr: cudaEventRecord");
  ctx->queued = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_render (GcvDibrCuda * ctx, const GcvDibrParams * params, int n_views, const GcvDibrCamera * virt,
    GcvPlane * out_rgba, GcvPlane * out_depth, GcvPlane * out_holes, GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_params (params, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  const int W = ctx->width, H = ctx->height;
  if (n_views < 1 || n_views > GCV_DIBR_MAX_VIEWS) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %d views: must be 1 .. %d", n_views, GCV_DIBR_MAX_VIEWS);
    return GCV_ERROR_INVALID;
  }
  if (!virt || !plane_ok (out_rgba, W, H, 4) || (out_depth && !plane_ok (out_depth, W, H, 4))
      || (out_holes && !plane_ok (out_holes, W, H, 1))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the outputs must be %dx%d planes (RGBA, float depth, "
        "GRAY8 holes) and the virtual camera given", W, H);
    return GCV_ERROR_INVALID;
  }
  GcvDibrWarp warps[GCV_DIBR_MAX_VIEWS];
  size_t max_px = 0;
  for (int i = 0; i < n_views; i++) {
    const DibrDevView *v = &ctx->views[i];
    if (!v->uploaded) {
      gcv_error_set (err, GCV_ERROR_INVALID, "dibr: render of %d views: view %d was not uploaded", n_views, i);
      return GCV_ERROR_INVALID;
    }
    if (gcv_dibr_warp_make (&v->camera, virt, &warps[i], err) != GCV_OK)
      return GCV_ERROR_INVALID;
    if ((size_t) v->w * v->h > max_px)
      max_px = (size_t) v->w * v->h;
  }
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK
      || (params->dcbf_size > 1 && (st = ensure_med (ctx, max_px, err)) != GCV_OK)
      || (params->dcbf_size > 1 && (st = ensure_tables (ctx, params, err)) != GCV_OK))
    return st;
  cudaStream_t s = ctx->stream;
  const size_t px = (size_t) W * H;

  ctx->rendered = 0;
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[0], s), err, "dibr: cudaEventRecord");
  for (int i = 0; i < n_views; i++) {
    DibrDevView *v = &ctx->views[i];
    if (!clean_matches (v, params) && (st = queue_clean (ctx, params, v, err)) != GCV_OK) {
      v->clean_ok = 0;
      return st;
    }
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[1], s), err, "dibr: cudaEventRecord");
  GCV_CUDA_TRY (cudaMemsetAsync (ctx->keys, 0xff, px * 8, s), err, "dibr: cudaMemsetAsync");
  const dim3 block (32, 8);
  for (int i = 0; i < n_views; i++) {
    const DibrDevView *v = &ctx->views[i];
    WarpArgs a;
    a.warp = warps[i];
    gcv_dibr_decode_make (params, v->bits, &a.dec);
    a.clean = v->clean;
    a.vw = v->w;
    a.vh = v->h;
    a.view = i;
    a.keys = ctx->keys;
    a.W = W;
    a.H = H;
    k_warp<<<grid_of (v->w, v->h, block), block, 0, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "dibr: k_warp");
  }
  k_cracks<<<grid_of (W, H, block), block, 0, s>>> (ctx->keys, ctx->keys2, W, H);
  GCV_CUDA_LAUNCHED (err, "dibr: k_cracks");
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[2], s), err, "dibr: cudaEventRecord");
  k_row_scan<<<H, kScanThreads, 0, s>>> (ctx->keys2, W, ctx->left, ctx->right, ctx->row_any);
  GCV_CUDA_LAUNCHED (err, "dibr: k_row_scan");
  k_row_src<<<1, 32, 0, s>>> (ctx->row_any, H, ctx->row_src);
  GCV_CUDA_LAUNCHED (err, "dibr: k_row_src");
  {
    FillArgs a;
    a.keys2 = ctx->keys2;
    a.left = ctx->left;
    a.right = ctx->right;
    a.row_src = ctx->row_src;
    a.W = W;
    a.H = H;
    for (int i = 0; i < GCV_DIBR_MAX_VIEWS; i++) {
      a.views[i].rgba = i < n_views ? ctx->views[i].rgba : nullptr;
      a.views[i].w = i < n_views ? ctx->views[i].w : 0;
    }
    a.zfar = (float) params->z_far;
    a.out_rgba = ctx->out_rgba;
    a.out_depth = ctx->out_depth;
    a.out_holes = ctx->out_holes;
    k_fill<<<grid_of (W, H, block), block, 0, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "dibr: k_fill");
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[3], s), err, "dibr: cudaEventRecord");
  ctx->queued = 1;
  if ((st = queue_download (ctx, out_rgba, ctx->out_rgba, (size_t) W * 4, err)) != GCV_OK
      || (out_depth && (st = queue_download (ctx, out_depth, ctx->out_depth, (size_t) W * 4, err)) != GCV_OK)
      || (out_holes && (st = queue_download (ctx, out_holes, ctx->out_holes, (size_t) W, err)) != GCV_OK))
    return st;
  GCV_CUDA_TRY (cudaEventRecord (ctx->done_ev, s), err, "dibr: cudaEventRecord");
  ctx->rendered = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_wait (GcvDibrCuda * ctx, GcvDibrTimes * times, GcvError * err)
{
  if (times)
    memset (times, 0, sizeof (*times));
  if (ctx == NULL)
    return no_context (err);
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (ctx->device, scope, err, kTag)) != GCV_OK)
    return st;
  if (ctx->queued) {
    /* every queueing call ends with done_ev: the caller's stream may hold
     * other work, which is not waited for */
    GCV_CUDA_TRY (cudaEventSynchronize (ctx->done_ev), err, "dibr: waiting for the queued work");
    flush_pending (ctx);
  }
  ctx->queued = 0;
  if (times && ctx->rendered) {
    float a = 0, b = 0, c = 0;
    GCV_CUDA_TRY (cudaEventElapsedTime (&a, ctx->ev[0], ctx->ev[1]), err, "dibr: cudaEventElapsedTime");
    GCV_CUDA_TRY (cudaEventElapsedTime (&b, ctx->ev[1], ctx->ev[2]), err, "dibr: cudaEventElapsedTime");
    GCV_CUDA_TRY (cudaEventElapsedTime (&c, ctx->ev[2], ctx->ev[3]), err, "dibr: cudaEventElapsedTime");
    times->clean_ms = a;
    times->warp_ms = b;
    times->fill_ms = c;
  }
  ctx->rendered = 0;
  return GCV_OK;
}
