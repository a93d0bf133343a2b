/* gst-cuda-video: depth-image-based rendering on the GPU (the contract is
 * cpu/dibr.h; the results equal cpu/dibr_cpu.c's byte for byte).
 *
 * The backend only queues work: it runs in the CUDA context current on the
 * calling thread (the element's base class owns device, context, streams,
 * transfers and waiting), on the stream given to each call, with the
 * caller's device planes in and out.  It never sets a device, creates a
 * stream or waits for one, with one exception: before rewriting the
 * pinned host copy of the DCBF tables it waits for the event recorded
 * after the copy that last read it (only when the sizes or sigmas change).
 *
 * Memory (device, all packed: a row is the plane's width of samples):
 *
 *  - per view (up to GCV_DIBR_MAX_VIEWS, allocated at the first set or
 *    unpack and again when the view grows): one block holding the colour
 *    (RGBA, 4 bytes a pixel), the depth plane as set (8 or 16 bits) and
 *    the cleaned depth (float, GCV_DIBR_UNKNOWN where none);
 *  - `med`: the median's output (float) of the largest view set so far
 *    (allocated with the views, so a render never allocates);
 *  - the DCBF tables (Gs then Gc, floats), copied from pinned host memory
 *    when the sizes or sigmas change;
 *  - for the W x H virtual view: keys (the z-buffer, uint64), keys2 (after
 *    crack filling), left / right (int32: per pixel of every row, the
 *    column of the nearest key at or left / right of it in keys2, -1 none),
 *    row_any (per row: whether it holds a key), row_src (per row: the row
 *    whose keys fill its holes, -1 none).  The outputs (RGBA, float Z,
 *    holes mask) are the caller's planes, strided.
 *
 * Kernels, in stream order:
 *
 *  - views: a set view is two cudaMemcpy2DAsync (device to device) from
 *    the caller's planes; the elements' packed frames (already on the
 *    device) go through k_unpack, a thread per view pixel, the header's
 *    integer unpacking into the view's RGBA and 8- or 16-bit depth;
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
 *    mask, the colour gathered from the key's view and the Z, into the
 *    caller's planes);
 *  - output frames (no context): k_compose, a thread per output pixel of
 *    an eye's picture, the header's compose step by step.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "dibr.h"
#include "gcv-cuda-context.h"

namespace {

const char kTag[] = "dibr";
const int kTile = 16;                   /* k_median, k_dcbf: 16 x 16 threads */
const int kScanThreads = 256;           /* k_row_scan */

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
  /* the caller's planes, rows `stride` bytes apart; depth and holes may
   * be NULL (not wanted) */
  uint8_t *out_rgba;                    /* W x 4 bytes (uchar4 stores: 4-byte aligned rows) */
  uint8_t *out_depth;                   /* W floats */
  uint8_t *out_holes;                   /* W bytes */
  size_t rgba_stride, depth_stride, holes_stride;
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

/* A thread per target pixel: the hole rule of stage 3 on keys2 (its row's
 * or row_src's left / right scans), the holes mask, the colour gathered
 * from the key's view (packed RGBA) and the Z, stored into the caller's
 * strided planes. */
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
  if (a.out_holes)
    a.out_holes[a.holes_stride * y + x] = hole ? 255 : 0;
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
  ((uchar4 *) (a.out_rgba + a.rgba_stride * y))[x] = c;
  if (a.out_depth)
    ((float *) (a.out_depth + a.depth_stride * y))[x] = z;
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

/* ---- output frames ------------------------------------------------------------------------- */

struct ComposeArgs {
  GcvDibrEye eyes[2];                   /* the caller's device planes */
  int anaglyph;
  GcvDibrShow show;
  GcvDibrDecode dec;
  GcvDibrPixelOrder order;
  uint8_t *out;                         /* 4 bytes a pixel, rows `stride` bytes apart */
  size_t stride;
  int aligned;                          /* out and stride multiples of 4: one 32-bit store a pixel */
};

/* A thread per output pixel of one picture (blockIdx.z: the eye, or the
 * anaglyph's one picture): the header's compose (gcv_dibr_compose_pixel:
 * the eyes' RGBA bytes, F32 depth or GRAY8 holes at (x, y), strided), then
 * the 4 bytes in the output's order.  With 4-byte aligned rows they go
 * out as one 32-bit store (byte k of the word is byte k in memory: the GPU
 * is little-endian), coalesced along a row; else byte by byte
 * (gcv_dibr_compose_put).  Memory-bound: reads 4 (+4 or +1) bytes and
 * writes 4 a pixel. */
__global__ void
k_compose (ComposeArgs a)
{
  const int pic = blockIdx.z;
  const GcvDibrEye *e = &a.eyes[pic];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= e->rgba.width || y >= e->rgba.height)
    return;
  uint8_t rgb[3];
  gcv_dibr_compose_pixel (a.eyes, pic, a.anaglyph, a.show, &a.dec, x, y, rgb);
  const int ox = a.anaglyph ? 0 : e->ox, oy = a.anaglyph ? 0 : e->oy;
  uint8_t *px = a.out + a.stride * (size_t) (y + oy) + 4 * (size_t) (x + ox);
  if (a.aligned)
    *(uint32_t *) px = (uint32_t) rgb[0] << (8 * a.order.r) | (uint32_t) rgb[1] << (8 * a.order.g)
        | (uint32_t) rgb[2] << (8 * a.order.b) | 255u << (8 * a.order.x);
  else
    gcv_dibr_compose_put (&a.order, rgb, px);
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
  int ready;                    /* set or unpacked (the copy or unpacking queued) */
  /* the clean-up in `clean` was made with these (valid: clean_ok) */
  int clean_ok;
  int c_median, c_dcbf, c_zu;
  double c_ss, c_sc;
};

}                               /* namespace */

struct _GcvDibrCuda {
  int width, height;
  DibrDevView views[GCV_DIBR_MAX_VIEWS];

  float *med;                   /* the median's output, the largest view set so far */
  size_t cap_med;
  float *d_tables;              /* Gs (K * K) then Gc */
  GcvDibrTables *h_tables;      /* pinned: the copy reads it asynchronously */
  cudaEvent_t tables_ev;        /* recorded after the last copy from h_tables */
  int tables_copied;            /* tables_ev was recorded */
  int tables_valid, t_dcbf;
  double t_ss, t_sc;

  unsigned long long *keys, *keys2;
  int *left, *right, *row_src;
  uint8_t *row_any;

  cudaEvent_t ev[4];            /* render: clean, warp, fill */
  int rendered;                 /* ev[] hold the last render's times */
};

namespace {

/* Everything of a W x H context but the views (device current: the
 * caller's). */
GcvStatus
dibr_cuda_alloc (GcvDibrCuda * ctx, GcvError * err)
{
  GcvStatus st;
  const size_t px = (size_t) ctx->width * ctx->height, H = (size_t) ctx->height;

  if ((st = gcv_cuda_dev_alloc ((void **) &ctx->keys, px * 8, err, kTag, "z-buffer")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->keys2, px * 8, err, kTag, "z-buffer")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->left, px * 4, err, kTag, "row scans")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->right, px * 4, err, kTag, "row scans")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->row_src, H * 4, err, kTag, "rows")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->row_any, H, err, kTag, "rows")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->d_tables, sizeof (float) * (GCV_DIBR_MAX_DCBF * GCV_DIBR_MAX_DCBF
                  + GCV_DIBR_MAX_COLOR_DIST + 1), err, kTag, "DCBF tables")) != GCV_OK
      || (st = gcv_cuda_pinned_alloc ((void **) &ctx->h_tables, sizeof (GcvDibrTables), err, kTag,
              "DCBF tables")) != GCV_OK)
    return st;
  for (int i = 0; i < 4; i++)
    GCV_CUDA_TRY (cudaEventCreate (&ctx->ev[i]), err, "dibr: cudaEventCreate");
  GCV_CUDA_TRY (cudaEventCreateWithFlags (&ctx->tables_ev, cudaEventDisableTiming), err, "dibr: cudaEventCreate");
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

/* A w x h plane of bpp-byte samples; aligned: data and stride multiples of
 * 4 (the planes the kernels store uchar4 / float into). */
int
plane_ok (const GcvPlane * p, int w, int h, size_t bpp, int aligned)
{
  return p && p->data && p->width == w && p->height == h && p->stride >= (size_t) w * bpp
      && (!aligned || ((uintptr_t) p->data % 4 == 0 && p->stride % 4 == 0));
}

/* The DCBF tables of p on the device (queued on s). */
GcvStatus
ensure_tables (GcvDibrCuda * ctx, const GcvDibrParams * p, cudaStream_t s, GcvError * err)
{
  if (ctx->tables_valid && ctx->t_dcbf == p->dcbf_size && ctx->t_ss == p->sigma_spatial
      && ctx->t_sc == p->sigma_color)
    return GCV_OK;
  /* the copy queued from the host tables last time may still read them */
  if (ctx->tables_copied)
    GCV_CUDA_TRY (cudaEventSynchronize (ctx->tables_ev), err, "dibr: cudaEventSynchronize (tables)");
  ctx->tables_valid = 0;
  gcv_dibr_tables_make (p, ctx->h_tables);
  const size_t kk = (size_t) p->dcbf_size * p->dcbf_size;
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_tables, ctx->h_tables->spatial, kk * sizeof (float), cudaMemcpyHostToDevice,
          s), err, "dibr: cudaMemcpyAsync (tables)");
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_tables + kk, ctx->h_tables->color, (GCV_DIBR_MAX_COLOR_DIST + 1)
          * sizeof (float), cudaMemcpyHostToDevice, s), err, "dibr: cudaMemcpyAsync (tables)");
  GCV_CUDA_TRY (cudaEventRecord (ctx->tables_ev, s), err, "dibr: cudaEventRecord (tables)");
  ctx->tables_copied = 1;
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

/* Queues stage 1 of view v into v->clean on s (tables ready, med holds
 * the view). */
GcvStatus
queue_clean (GcvDibrCuda * ctx, const GcvDibrParams * p, DibrDevView * v, cudaStream_t s, GcvError * err)
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
    k_median<<<grid, block, (size_t) tw * tw * sizeof (int), s>>> (a);
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
    k_dcbf<<<grid, block, smem, s>>> (a);
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

/* Makes view v's device block hold px pixels and the median's scratch the
 * largest view; the view is marked not ready until its new planes are
 * queued.  Growing frees memory queued work may still use: the caller
 * waited for the stream (the header's rule). */
GcvStatus
view_memory (GcvDibrCuda * ctx, DibrDevView * v, size_t px, GcvError * err)
{
  GcvStatus st;

  v->ready = 0;
  v->clean_ok = 0;
  if (px > v->cap_px) {
    /* rgba (4), depth (2, 256-byte aligned), clean (4) */
    const size_t drgba = gcv_round_up (px * 4, 256), ddepth = gcv_round_up (px * 2, 256);
    uint8_t *m = nullptr;
    if ((st = gcv_cuda_dev_alloc ((void **) &m, drgba + ddepth + px * 4, err, kTag, "view")) != GCV_OK)
      return st;
    cudaFree (v->mem);
    v->mem = m;
    v->cap_px = px;
    v->rgba = m;
    v->depth = m + drgba;
    v->clean = (float *) (m + drgba + ddepth);
  }
  if (px > ctx->cap_med) {
    float *m = nullptr;
    if ((st = gcv_cuda_dev_alloc ((void **) &m, px * sizeof (float), err, kTag, "median")) != GCV_OK)
      return st;
    cudaFree (ctx->med);
    ctx->med = m;
    ctx->cap_med = px;
  }
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

/* View `index` of ctx, set or unpacked, or NULL with err set. */
DibrDevView *
ready_view (GcvDibrCuda * ctx, int index, GcvError * err)
{
  if (check_index (index, err) != GCV_OK)
    return nullptr;
  if (!ctx->views[index].ready) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d was not set", index);
    return nullptr;
  }
  return &ctx->views[index];
}

}                               /* namespace */

extern "C" void
gcv_dibr_cuda_free (GcvDibrCuda * ctx)
{
  if (ctx == NULL)
    return;
  /* the caller waited for the streams: nothing queued uses this memory */
  for (int i = 0; i < GCV_DIBR_MAX_VIEWS; i++)
    cudaFree (ctx->views[i].mem);
  cudaFree (ctx->med);
  cudaFree (ctx->d_tables);
  cudaFreeHost (ctx->h_tables);
  cudaFree (ctx->keys);
  cudaFree (ctx->keys2);
  cudaFree (ctx->left);
  cudaFree (ctx->right);
  cudaFree (ctx->row_src);
  cudaFree (ctx->row_any);
  gcv_cuda_events_destroy (ctx->ev, 4);
  gcv_cuda_events_destroy (&ctx->tables_ev, 1);
  cudaGetLastError ();
  delete ctx;
}

extern "C" GcvDibrCuda *
gcv_dibr_cuda_new (int width, int height, GcvError * err)
{
  if (width < 1 || height < 1 || width > GCV_DIBR_MAX_DIMENSION || height > GCV_DIBR_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: frame size %dx%d must be 1x1 .. %dx%d", width, height,
        GCV_DIBR_MAX_DIMENSION, GCV_DIBR_MAX_DIMENSION);
    return NULL;
  }
  GcvDibrCuda *ctx = new (std::nothrow) GcvDibrCuda ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "dibr: out of host memory");
    return NULL;
  }
  ctx->width = width;
  ctx->height = height;
  if (dibr_cuda_alloc (ctx, err) != GCV_OK) {
    /* nothing was queued: the memory can go at once */
    gcv_dibr_cuda_free (ctx);
    return NULL;
  }
  return ctx;
}

extern "C" GcvStatus
gcv_dibr_cuda_set_view (GcvDibrCuda * ctx, int index, const GcvDibrView * view, void *stream, GcvError * err)
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
  cudaStream_t s = (cudaStream_t) stream;
  DibrDevView *v = &ctx->views[index];
  GcvStatus st;
  if ((st = view_memory (ctx, v, (size_t) w * h, err)) != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaMemcpy2DAsync (v->rgba, (size_t) w * 4, view->rgba.data, view->rgba.stride, (size_t) w * 4, h,
          cudaMemcpyDeviceToDevice, s), err, "dibr: cudaMemcpy2DAsync (view colour)");
  GCV_CUDA_TRY (cudaMemcpy2DAsync (v->depth, (size_t) w * (bits / 8), view->depth.data, view->depth.stride,
          (size_t) w * (bits / 8), h, cudaMemcpyDeviceToDevice, s), err, "dibr: cudaMemcpy2DAsync (view depth)");
  v->w = w;
  v->h = h;
  v->bits = bits;
  v->camera = view->camera;
  v->ready = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_unpack_view (GcvDibrCuda * ctx, int index, const GcvDibrPacked * frame, const GcvDibrCamera * camera,
    void *stream, GcvError * err)
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
  cudaStream_t s = (cudaStream_t) stream;
  DibrDevView *v = &ctx->views[index];
  GcvStatus st;
  if ((st = view_memory (ctx, v, (size_t) w * h, err)) != GCV_OK)
    return st;
  const dim3 block (32, 8);
  const int bits = gcv_dibr_packed_depth_bits (frame);
  if (bits == 16)
    k_unpack<<<grid_of (w, h, block), block, 0, s>>> (*frame, v->rgba, (uint16_t *) v->depth);
  else
    k_unpack<<<grid_of (w, h, block), block, 0, s>>> (*frame, v->rgba, v->depth);
  GCV_CUDA_LAUNCHED (err, "dibr: k_unpack");
  v->w = w;
  v->h = h;
  v->bits = bits;
  v->camera = *camera;
  v->ready = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_view_colour (GcvDibrCuda * ctx, int index, GcvPlane * colour, GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  const DibrDevView *v = ready_view (ctx, index, err);
  if (v == nullptr)
    return GCV_ERROR_INVALID;
  if (colour == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: view %d's colour: no plane to fill", index);
    return GCV_ERROR_INVALID;
  }
  colour->data = v->rgba;
  colour->width = v->w;
  colour->height = v->h;
  colour->stride = (size_t) v->w * 4;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_clean_depth (GcvDibrCuda * ctx, const GcvDibrParams * params, int index, GcvPlane * out, void *stream,
    GcvError * err)
{
  if (ctx == NULL)
    return no_context (err);
  if (check_params (params, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  DibrDevView *v = ready_view (ctx, index, err);
  if (v == nullptr)
    return GCV_ERROR_INVALID;
  if (!plane_ok (out, v->w, v->h, sizeof (float), 1)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the cleaned depth must be a %dx%d float plane (4-byte aligned "
        "rows)", v->w, v->h);
    return GCV_ERROR_INVALID;
  }
  cudaStream_t s = (cudaStream_t) stream;
  GcvStatus st;
  if (params->dcbf_size > 1 && (st = ensure_tables (ctx, params, s, err)) != GCV_OK)
    return st;
  if (!clean_matches (v, params) && (st = queue_clean (ctx, params, v, s, err)) != GCV_OK) {
    v->clean_ok = 0;
    return st;
  }
  GCV_CUDA_TRY (cudaMemcpy2DAsync (out->data, out->stride, v->clean, (size_t) v->w * sizeof (float),
          (size_t) v->w * sizeof (float), v->h, cudaMemcpyDeviceToDevice, s), err,
      "dibr: cudaMemcpy2DAsync (cleaned depth)");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_render (GcvDibrCuda * ctx, const GcvDibrParams * params, int n_views, const GcvDibrCamera * virt,
    GcvPlane * out_rgba, GcvPlane * out_depth, GcvPlane * out_holes, void *stream, GcvError * err)
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
  if (!virt || !plane_ok (out_rgba, W, H, 4, 1) || (out_depth && !plane_ok (out_depth, W, H, 4, 1))
      || (out_holes && !plane_ok (out_holes, W, H, 1, 0))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the outputs must be %dx%d planes (RGBA and float depth with "
        "4-byte aligned rows, GRAY8 holes) and the virtual camera given", W, H);
    return GCV_ERROR_INVALID;
  }
  GcvDibrWarp warps[GCV_DIBR_MAX_VIEWS];
  for (int i = 0; i < n_views; i++) {
    const DibrDevView *v = &ctx->views[i];
    if (!v->ready) {
      gcv_error_set (err, GCV_ERROR_INVALID, "dibr: render of %d views: view %d was not set", n_views, i);
      return GCV_ERROR_INVALID;
    }
    if (gcv_dibr_warp_make (&v->camera, virt, &warps[i], err) != GCV_OK)
      return GCV_ERROR_INVALID;
  }
  cudaStream_t s = (cudaStream_t) stream;
  GcvStatus st;
  /* med already holds the largest view (view_memory) */
  if (params->dcbf_size > 1 && (st = ensure_tables (ctx, params, s, err)) != GCV_OK)
    return st;
  const size_t px = (size_t) W * H;

  ctx->rendered = 0;
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[0], s), err, "dibr: cudaEventRecord");
  for (int i = 0; i < n_views; i++) {
    DibrDevView *v = &ctx->views[i];
    if (!clean_matches (v, params) && (st = queue_clean (ctx, params, v, s, err)) != GCV_OK) {
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
    a.out_rgba = (uint8_t *) out_rgba->data;
    a.rgba_stride = out_rgba->stride;
    a.out_depth = out_depth ? (uint8_t *) out_depth->data : nullptr;
    a.depth_stride = out_depth ? out_depth->stride : 0;
    a.out_holes = out_holes ? (uint8_t *) out_holes->data : nullptr;
    a.holes_stride = out_holes ? out_holes->stride : 0;
    k_fill<<<grid_of (W, H, block), block, 0, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "dibr: k_fill");
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[3], s), err, "dibr: cudaEventRecord");
  ctx->rendered = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_dibr_cuda_times (GcvDibrCuda * ctx, GcvDibrTimes * times, GcvError * err)
{
  if (times)
    memset (times, 0, sizeof (*times));
  if (ctx == NULL)
    return no_context (err);
  if (times && ctx->rendered) {
    float a = 0, b = 0, c = 0;
    GCV_CUDA_TRY (cudaEventElapsedTime (&a, ctx->ev[0], ctx->ev[1]), err, "dibr: cudaEventElapsedTime");
    GCV_CUDA_TRY (cudaEventElapsedTime (&b, ctx->ev[1], ctx->ev[2]), err, "dibr: cudaEventElapsedTime");
    GCV_CUDA_TRY (cudaEventElapsedTime (&c, ctx->ev[2], ctx->ev[3]), err, "dibr: cudaEventElapsedTime");
    times->clean_ms = a;
    times->warp_ms = b;
    times->fill_ms = c;
  }
  return GCV_OK;
}

/* ---- output frames ------------------------------------------------------------------------- */

extern "C" GcvStatus
gcv_dibr_cuda_compose (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show,
    const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, GcvPlane * out, void *stream, GcvError * err)
{
  const char *bad = gcv_dibr_compose_check (eyes, n_eyes, anaglyph, show, dec, order, out);
  if (bad) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: %s", bad);
    return GCV_ERROR_INVALID;
  }
  /* the kernel loads the depths as floats */
  for (int i = 0; i < n_eyes && show == GCV_DIBR_SHOW_DEPTH; i++)
    if (!plane_ok (&eyes[i].depth, eyes[i].rgba.width, eyes[i].rgba.height, sizeof (float), 1)) {
      gcv_error_set (err, GCV_ERROR_INVALID, "dibr: compose: eye %d's depth rows must be 4-byte aligned (data "
          "and stride)", i);
      return GCV_ERROR_INVALID;
    }
  ComposeArgs a;
  memset (&a, 0, sizeof (a));
  int w = 0, h = 0;
  for (int i = 0; i < n_eyes; i++) {
    a.eyes[i] = eyes[i];
    w = eyes[i].rgba.width > w ? eyes[i].rgba.width : w;
    h = eyes[i].rgba.height > h ? eyes[i].rgba.height : h;
  }
  a.anaglyph = anaglyph ? 1 : 0;
  a.show = show;
  if (dec)
    a.dec = *dec;
  a.order = *order;
  a.out = (uint8_t *) out->data;
  a.stride = out->stride;
  a.aligned = (uintptr_t) out->data % 4 == 0 && out->stride % 4 == 0;
  const dim3 block (32, 8);
  dim3 grid = grid_of (w, h, block);
  grid.z = anaglyph ? 1 : n_eyes;
  k_compose<<<grid, block, 0, (cudaStream_t) stream>>> (a);
  GCV_CUDA_LAUNCHED (err, "dibr: k_compose");
  return GCV_OK;
}
