/* gst-cuda-video: Canny edge detection, CUDA backend.
 *
 * Paper 002 (Park et al.), sections 3.2-3.3: the stages run on shared-memory
 * tiles with an apron of the filter radius, and no stage returns to the host.
 * We go further than the paper and fuse blur, Sobel and non-maximum
 * suppression into one kernel (the intermediates never touch device memory),
 * and make hysteresis exact with a union-find connected-component pass
 * instead of a bounded number of dilation iterations:
 *
 *   canny_tile_kernel      luma + blur + Sobel + NMS per 64x32 tile -> map
 *                          (0 none, 1 weak, 2 strong); then the tile's
 *                          8-connected candidate components are labelled in
 *                          shared memory, label[p] = the component's first
 *                          pixel (global index).  Or the magnitude image.
 *   canny_merge_kernel     tile-border pixels unite components across tiles
 *                          (lock-free union-find, atomicMin: a root is the
 *                          smallest index of its component)
 *   canny_compress_kernel  label[p] = root; strong pixels set map[root] = 2
 *   canny_finalize_kernel  out = 255 iff candidate and map[root] == 2
 * Labelling inside the tile first keeps the global trees shallow: a
 * component is one node per tile it crosses, not one per pixel.
 *
 * The integer definitions are in cpu/canny.h; cpu/canny.c computes the same
 * numbers, so the outputs are bit-identical.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "canny.h"
#include "depth.h"
#include "gcv-cuda-check.h"

#include <new>
#include <stdint.h>

namespace {

constexpr int TILE_W = 64;      /* output pixels per block, x */
constexpr int TILE_H = 32;      /* output pixels per block, y */
constexpr int THREADS = 256;
constexpr int TG22 = 13573;     /* tan(22.5 deg) in 1.15 fixed point, as OpenCV */

struct BlurWeights
{
  int w[GCV_CANNY_MAX_BLUR_SIZE];
};

__device__ __forceinline__ int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

__device__ __forceinline__ int
reflect101 (int i, int n)
{
  if ((unsigned) i < (unsigned) n)      /* all but the frame border: no modulo */
    return i;
  if (n == 1)
    return 0;
  int period = 2 * n - 2;
  i = abs (i) % period;
  return i >= n ? period - i : i;
}

/* Luma of pixel (x, y), the GcvLumaInput rules. */
template <int LAYOUT>
__device__ __forceinline__ uint8_t
load_luma (const uint8_t * __restrict__ in, size_t pitch, int x, int y, int ro, int go, int bo)
{
  const uint8_t *row = in + (size_t) y * pitch;
  if (LAYOUT == GCV_LUMA_GRAY8) {
    return __ldg (row + x);
  } else if (LAYOUT == GCV_LUMA_GRAY16LE) {
    return gcv_luma16_to_8 (__ldg ((const unsigned short *) row + x));
  } else {
    unsigned px = __ldg ((const unsigned int *) row + x);   /* byte i of memory = bits 8i.. */
    unsigned r = (px >> (8 * ro)) & 0xffu, g = (px >> (8 * go)) & 0xffu, b = (px >> (8 * bo)) & 0xffu;
    return (uint8_t) ((9798u * r + 19235u * g + 3735u * b + 16384u) >> 15);
  }
}

__device__ __forceinline__ uint8_t
magnitude_u8 (int dx, int dy, bool l2)
{
  int g;
  if (l2) {
    int m2 = dx * dx + dy * dy;
    g = (int) sqrtf ((float) m2);     /* IEEE sqrt; fixed up to the exact floor */
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

/* Root of p.  While components are being merged other threads relink
 * parents, so reads bypass L1 (volatile: shared or through L2); parents only
 * ever decrease, so a stale read just takes a longer path. */
__device__ __forceinline__ int
find_root (const int32_t * labels, int p)
{
  const volatile int32_t *l = labels;
  int q = l[p];
  while (q != p) {
    p = q;
    q = l[p];
  }
  return p;
}

/* Lock-free union (Playne & Hawick 2018): hang the larger root under the
 * smaller with atomicMin, retry if another thread got there first.  Works on
 * shared (tile-local) and global labels alike. */
__device__ void
unite (int32_t * labels, int a, int b)
{
  for (;;) {
    a = find_root (labels, a);
    b = find_root (labels, b);
    if (a == b)
      return;
    if (a < b) {
      int t = a;
      a = b;
      b = t;
    }
    int old = atomicMin (labels + a, b);
    if (old == a)
      return;
    a = old;
  }
}

/* One block computes a TILE_W x TILE_H tile of the map (or magnitude).
 * Shared memory, R = blur radius (0..3), tile origin (x0, y0):
 *   s_in [TILE_H+4+2R][TILE_W+4+2R] u8   luma at image (y0-2-R+i, x0-2-R+j), reflect-101
 *   s_hb [TILE_H+4+2R][TILE_W+4]    u16  horizontal blur at clamped columns
 *   s_b  [TILE_H+4][TILE_W+4]       u8   blurred luma at clamp(y0-2+i), clamp(x0-2+j)
 *                                         (clamping = the replicated Sobel border)
 *   s_m  [TILE_H+2][TILE_W+2]       i32  magnitude at (y0-1+i, x0-1+j), 0 outside
 *   s_cls[TILE_H*TILE_W]            u8   class of each tile pixel (0 outside the image)
 *   s_lab[TILE_H*TILE_W]            i32  tile-local union-find parent (row-major index)
 * R = 0 reads s_b straight from the input.  About 30 KB for R = 3. */
template <int R, int LAYOUT>
__global__ void __launch_bounds__ (THREADS)
canny_tile_kernel (const uint8_t * __restrict__ in, size_t in_pitch, int w, int h,
    int ro, int go, int bo, BlurWeights wt, bool l2, int low, int high, bool magnitude_out,
    uint8_t * __restrict__ map, size_t map_pitch, int32_t * __restrict__ labels,
    uint8_t * __restrict__ out, size_t out_pitch)
{
  constexpr int IN_W = TILE_W + 4 + 2 * R, IN_H = TILE_H + 4 + 2 * R;
  constexpr int B_W = TILE_W + 4, B_H = TILE_H + 4;
  constexpr int M_W = TILE_W + 2, M_H = TILE_H + 2;
  __shared__ uint8_t s_in[R > 0 ? IN_H : 1][R > 0 ? IN_W : 1];
  __shared__ uint16_t s_hb[R > 0 ? IN_H : 1][R > 0 ? B_W : 1];
  __shared__ uint8_t s_b[B_H][B_W];
  __shared__ int32_t s_m[M_H][M_W];
  __shared__ uint8_t s_cls[TILE_H * TILE_W];
  __shared__ int32_t s_lab[TILE_H * TILE_W];

  const int tid = threadIdx.x;
  const int x0 = blockIdx.x * TILE_W, y0 = blockIdx.y * TILE_H;

  if (R > 0) {
    for (int i = tid; i < IN_H * IN_W; i += THREADS) {
      int r = i / IN_W, c = i % IN_W;
      s_in[r][c] = load_luma<LAYOUT> (in, in_pitch, reflect101 (x0 - 2 - R + c, w),
          reflect101 (y0 - 2 - R + r, h), ro, go, bo);
    }
    __syncthreads ();
    for (int i = tid; i < IN_H * B_W; i += THREADS) {
      int r = i / B_W, c = i % B_W;
      int ci = clampi (x0 - 2 + c, 0, w - 1) - (x0 - 2 - R);
      unsigned acc = 0;
#pragma unroll
      for (int k = -R; k <= R; k++)
        acc += (unsigned) wt.w[k + R] * s_in[r][ci + k];
      s_hb[r][c] = (uint16_t) acc;
    }
    __syncthreads ();
    for (int i = tid; i < B_H * B_W; i += THREADS) {
      int r = i / B_W, c = i % B_W;
      int ri = clampi (y0 - 2 + r, 0, h - 1) - (y0 - 2 - R);
      unsigned acc = 1u << 15;
#pragma unroll
      for (int k = -R; k <= R; k++)
        acc += (unsigned) wt.w[k + R] * s_hb[ri + k][c];
      s_b[r][c] = (uint8_t) (acc >> 16);
    }
  } else {
    for (int i = tid; i < B_H * B_W; i += THREADS) {
      int r = i / B_W, c = i % B_W;
      s_b[r][c] = load_luma<LAYOUT> (in, in_pitch, clampi (x0 - 2 + c, 0, w - 1),
          clampi (y0 - 2 + r, 0, h - 1), ro, go, bo);
    }
  }
  __syncthreads ();

  if (magnitude_out) {
    for (int i = tid; i < TILE_H * TILE_W; i += THREADS) {
      int r = i / TILE_W, c = i % TILE_W, x = x0 + c, y = y0 + r;
      if (x >= w || y >= h)
        continue;
      int bx = c + 2, by = r + 2;
      int dx = (s_b[by - 1][bx + 1] - s_b[by - 1][bx - 1]) + 2 * (s_b[by][bx + 1] - s_b[by][bx - 1])
          + (s_b[by + 1][bx + 1] - s_b[by + 1][bx - 1]);
      int dy = (s_b[by + 1][bx - 1] + 2 * s_b[by + 1][bx] + s_b[by + 1][bx + 1])
          - (s_b[by - 1][bx - 1] + 2 * s_b[by - 1][bx] + s_b[by - 1][bx + 1]);
      out[(size_t) y * out_pitch + x] = magnitude_u8 (dx, dy, l2);
    }
    return;
  }

  for (int i = tid; i < M_H * M_W; i += THREADS) {
    int r = i / M_W, c = i % M_W, x = x0 - 1 + c, y = y0 - 1 + r;
    int m = 0;
    if (x >= 0 && x < w && y >= 0 && y < h) {
      int bx = c + 1, by = r + 1;
      int dx = (s_b[by - 1][bx + 1] - s_b[by - 1][bx - 1]) + 2 * (s_b[by][bx + 1] - s_b[by][bx - 1])
          + (s_b[by + 1][bx + 1] - s_b[by + 1][bx - 1]);
      int dy = (s_b[by + 1][bx - 1] + 2 * s_b[by + 1][bx] + s_b[by + 1][bx + 1])
          - (s_b[by - 1][bx - 1] + 2 * s_b[by - 1][bx] + s_b[by - 1][bx + 1]);
      m = l2 ? dx * dx + dy * dy : abs (dx) + abs (dy);
    }
    s_m[r][c] = m;
  }
  __syncthreads ();

  for (int i = tid; i < TILE_H * TILE_W; i += THREADS) {
    int r = i / TILE_W, c = i % TILE_W, x = x0 + c, y = y0 + r;
    if (x >= w || y >= h) {
      s_cls[i] = 0;
      continue;
    }
    int mr = r + 1, mc = c + 1, m = s_m[mr][mc];
    uint8_t cls = 0;
    if (m > low) {
      int bx = c + 2, by = r + 2;
      int xs = (s_b[by - 1][bx + 1] - s_b[by - 1][bx - 1]) + 2 * (s_b[by][bx + 1] - s_b[by][bx - 1])
          + (s_b[by + 1][bx + 1] - s_b[by + 1][bx - 1]);
      int ys = (s_b[by + 1][bx - 1] + 2 * s_b[by + 1][bx] + s_b[by + 1][bx + 1])
          - (s_b[by - 1][bx - 1] + 2 * s_b[by - 1][bx] + s_b[by - 1][bx + 1]);
      int ax = abs (xs), ay = abs (ys) << 15, tg22x = ax * TG22;
      bool keep;
      if (ay < tg22x) {
        keep = m > s_m[mr][mc - 1] && m >= s_m[mr][mc + 1];
      } else if (ay > tg22x + (ax << 16)) {
        keep = m > s_m[mr - 1][mc] && m >= s_m[mr + 1][mc];
      } else {
        int s = (xs ^ ys) < 0 ? -1 : 1;
        keep = m > s_m[mr - 1][mc - s] && m > s_m[mr + 1][mc + s];
      }
      if (keep)
        cls = m > high ? 2 : 1;
    }
    map[(size_t) y * map_pitch + x] = cls;
    s_cls[i] = cls;
  }
  __syncthreads ();

  /* tile-local components.  Horizontal runs of candidates are joined for
   * free: every pixel starts with its run's first pixel as parent.  Then only
   * contacts with the row above need a union, and of those only the ones the
   * left neighbour does not already imply:
   *   left is a candidate -> it covered up-left and up; only up-right remains,
   *                          and only when up is not a candidate (else same run)
   *   run start           -> up-left; up unless up-left is a candidate;
   *                          up-right unless up is a candidate */
  for (int i = tid; i < TILE_H * TILE_W; i += THREADS) {
    if (!s_cls[i])
      continue;
    int start = i;
    while (start % TILE_W > 0 && s_cls[start - 1])
      start--;
    s_lab[i] = start;
  }
  __syncthreads ();
  for (int i = tid; i < TILE_H * TILE_W; i += THREADS) {
    if (!s_cls[i])
      continue;
    int r = i / TILE_W, c = i % TILE_W;
    if (r == 0)
      continue;
    int up = i - TILE_W;
    bool has_left = c > 0 && s_cls[i - 1];
    bool up_l = c > 0 && s_cls[up - 1], up_c = s_cls[up] != 0, up_r = c + 1 < TILE_W && s_cls[up + 1];
    if (!has_left) {
      if (up_l)
        unite (s_lab, i, up - 1);
      if (up_c && !up_l)
        unite (s_lab, i, up);
    }
    if (up_r && !up_c)
      unite (s_lab, i, up + 1);
  }
  __syncthreads ();
  /* row-major order inside a tile is the global index order, so the local
   * root (smallest local index) is also the smallest global index */
  for (int i = tid; i < TILE_H * TILE_W; i += THREADS) {
    if (!s_cls[i])
      continue;
    int root = find_root (s_lab, i);
    int r = i / TILE_W, c = i % TILE_W, rr = root / TILE_W, rc = root % TILE_W;
    labels[(size_t) (y0 + r) * w + x0 + c] = (y0 + rr) * w + x0 + rc;
  }
}

/* Pixels of a tile that have a backward neighbour (left, up-left, up,
 * up-right) in another tile: the top row, the left and the right column. */
constexpr int BORDER_PER_TILE = TILE_W + 2 * (TILE_H - 1);

/* One thread per tile-border pixel: unite with candidate neighbours in other
 * tiles (pairs inside a tile were joined by the tile kernel). */
__global__ void
canny_merge_kernel (const uint8_t * __restrict__ map, size_t mp, int32_t * labels, int w, int h,
    int tiles_x, int n_tiles)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int tile = i / BORDER_PER_TILE, k = i % BORDER_PER_TILE, r, c;
  if (tile >= n_tiles)
    return;
  if (k < TILE_W) {
    r = 0;
    c = k;
  } else if (k < TILE_W + TILE_H - 1) {
    r = k - TILE_W + 1;
    c = 0;
  } else {
    r = k - (TILE_W + TILE_H - 1) + 1;
    c = TILE_W - 1;
  }
  int tx = (tile % tiles_x) * TILE_W, ty = (tile / tiles_x) * TILE_H, x = tx + c, y = ty + r;
  if (x >= w || y >= h || !map[(size_t) y * mp + x])
    return;
  int p = y * w + x;
  const int nx[4] = { x - 1, x - 1, x, x + 1 }, ny[4] = { y, y - 1, y - 1, y - 1 };
#pragma unroll
  for (int n = 0; n < 4; n++) {
    int qx = nx[n], qy = ny[n];
    if (qx < 0 || qy < 0 || qx >= w)
      continue;
    bool other_tile = qx < tx || qx >= tx + TILE_W || qy < ty;
    if (other_tile && map[(size_t) qy * mp + qx])
      unite (labels, p, qy * w + qx);
  }
}

/* label[p] = root for every candidate (parents stay valid while others
 * shorten theirs); strong pixels mark their root.  Several threads may store
 * the same 2 to one root; no other value is written to the map. */
__global__ void
canny_compress_kernel (uint8_t * map, size_t mp, int32_t * labels, int w, int h)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  uint8_t cls = map[(size_t) y * mp + x];
  if (!cls)
    return;
  int p = y * w + x, root = find_root (labels, p);
  if (root != p)
    labels[p] = root;
  if (cls == 2) {
    uint8_t *rm = map + (size_t) (root / w) * mp + root % w;
    if (*rm != 2)
      *rm = 2;
  }
}

/* Each thread writes 4 horizontally adjacent output pixels. */
__global__ void
canny_finalize_kernel (const uint8_t * __restrict__ map, size_t mp, const int32_t * __restrict__ labels,
    int w, int h, uint8_t * __restrict__ out, size_t op)
{
  int x = (blockIdx.x * blockDim.x + threadIdx.x) * 4, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const uint8_t *row = map + (size_t) y * mp;
  uint8_t *o = out + (size_t) y * op;
#pragma unroll
  for (int i = 0; i < 4; i++) {
    if (x + i >= w)
      break;
    uint8_t e = 0;
    if (row[x + i]) {
      int root = labels[y * w + x + i];
      e = map[(size_t) (root / w) * mp + root % w] == 2 ? 255 : 0;
    }
    o[x + i] = e;
  }
}

template <int R>
cudaError_t
launch_tile (GcvLumaInput in, dim3 grid, cudaStream_t s, const GcvPlane * src, int w, int h,
    const BlurWeights & wt, bool l2, int low, int high, bool mag, uint8_t * map, size_t mp,
    int32_t * labels, const GcvPlane * dst)
{
  const uint8_t *ip = (const uint8_t *) src->data;
  uint8_t *op = (uint8_t *) dst->data;
  switch (in.layout) {
    case GCV_LUMA_GRAY8:
      canny_tile_kernel<R, GCV_LUMA_GRAY8> <<<grid, THREADS, 0, s>>> (ip, src->stride, w, h, 0, 0, 0,
          wt, l2, low, high, mag, map, mp, labels, op, dst->stride);
      break;
    case GCV_LUMA_GRAY16LE:
      canny_tile_kernel<R, GCV_LUMA_GRAY16LE> <<<grid, THREADS, 0, s>>> (ip, src->stride, w, h, 0, 0,
          0, wt, l2, low, high, mag, map, mp, labels, op, dst->stride);
      break;
    default:
      canny_tile_kernel<R, GCV_LUMA_PACKED32> <<<grid, THREADS, 0, s>>> (ip, src->stride, w, h,
          in.r_offset, in.g_offset, in.b_offset, wt, l2, low, high, mag, map, mp, labels, op,
          dst->stride);
      break;
  }
  return cudaGetLastError ();
}

}                               /* namespace */

struct _GcvCannyCuda
{
  GcvLumaInput input;
  int width, height;
  uint8_t *map;                 /* width x height, pitched: 0 none, 1 weak, 2 strong */
  size_t map_pitch;
  int32_t *labels;              /* width * height union-find parents (candidates only) */
};

extern "C" void
gcv_canny_cuda_free (GcvCannyCuda * ctx)
{
  if (ctx == NULL)
    return;
  cudaFree (ctx->map);
  cudaFree (ctx->labels);
  delete ctx;
}

static GcvStatus
canny_cuda_alloc (GcvCannyCuda * ctx, GcvError * err)
{
  GCV_CUDA_TRY (cudaMallocPitch ((void **) &ctx->map, &ctx->map_pitch, ctx->width, ctx->height),
      err, "canny: cudaMallocPitch (edge class map)");
  GCV_CUDA_TRY (cudaMalloc ((void **) &ctx->labels, sizeof (int32_t) * ctx->width * ctx->height),
      err, "canny: cudaMalloc (hysteresis labels)");
  return GCV_OK;
}

extern "C" GcvCannyCuda *
gcv_canny_cuda_new (GcvLumaInput input, int width, int height, GcvError * err)
{
  if (width < 1 || height < 1 || width > 32768 || height > 32768
      || (int64_t) width * height > INT32_MAX) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: unsupported frame size %dx%d", width, height);
    return NULL;
  }
  GcvCannyCuda *ctx = new (std::nothrow) GcvCannyCuda ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "canny: out of host memory");
    return NULL;
  }
  ctx->input = input;
  ctx->width = width;
  ctx->height = height;
  if (canny_cuda_alloc (ctx, err) != GCV_OK) {
    gcv_canny_cuda_free (ctx);
    return NULL;
  }
  return ctx;
}

extern "C" GcvStatus
gcv_canny_cuda_process (GcvCannyCuda * ctx, const GcvCannyParams * params, const GcvPlane * in,
    GcvPlane * out, void *stream, GcvError * err)
{
  const int w = ctx->width, h = ctx->height;
  const char *bad = gcv_canny_params_check (params);
  cudaStream_t s = (cudaStream_t) stream;
  BlurWeights wt;
  int32_t low, high;

  if (bad != NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: %s", bad);
    return GCV_ERROR_INVALID;
  }
  if (in->width != w || in->height != h || out->width != w || out->height != h) {
    gcv_error_set (err, GCV_ERROR_INVALID, "canny: planes %dx%d -> %dx%d do not match context %dx%d",
        in->width, in->height, out->width, out->height, w, h);
    return GCV_ERROR_INVALID;
  }
  int r = gcv_canny_blur_weights (params, wt.w);
  gcv_canny_int_thresholds (params, &low, &high);
  bool l2 = params->l2_gradient != 0, mag = params->output == GCV_CANNY_OUTPUT_MAGNITUDE;

  dim3 grid ((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
  cudaError_t e;
  switch (r) {
    case 0:
      e = launch_tile<0> (ctx->input, grid, s, in, w, h, wt, l2, low, high, mag, ctx->map,
          ctx->map_pitch, ctx->labels, out);
      break;
    case 1:
      e = launch_tile<1> (ctx->input, grid, s, in, w, h, wt, l2, low, high, mag, ctx->map,
          ctx->map_pitch, ctx->labels, out);
      break;
    case 2:
      e = launch_tile<2> (ctx->input, grid, s, in, w, h, wt, l2, low, high, mag, ctx->map,
          ctx->map_pitch, ctx->labels, out);
      break;
    default:
      e = launch_tile<3> (ctx->input, grid, s, in, w, h, wt, l2, low, high, mag, ctx->map,
          ctx->map_pitch, ctx->labels, out);
      break;
  }
  GCV_CUDA_TRY (e, err, "canny: tile kernel launch");
  if (mag)
    return GCV_OK;

  int n_tiles = grid.x * grid.y, n_border = n_tiles * BORDER_PER_TILE;
  dim3 block (32, 8), pgrid ((w + 31) / 32, (h + 7) / 8), fgrid ((w + 127) / 128, (h + 7) / 8);
  canny_merge_kernel <<<(n_border + 255) / 256, 256, 0, s>>> (ctx->map, ctx->map_pitch, ctx->labels,
      w, h, grid.x, n_tiles);
  GCV_CUDA_LAUNCHED (err, "canny: merge kernel launch");
  canny_compress_kernel <<<pgrid, block, 0, s>>> (ctx->map, ctx->map_pitch, ctx->labels, w, h);
  GCV_CUDA_LAUNCHED (err, "canny: compress kernel launch");
  canny_finalize_kernel <<<fgrid, block, 0, s>>> (ctx->map, ctx->map_pitch, ctx->labels, w, h,
      (uint8_t *) out->data, out->stride);
  GCV_CUDA_LAUNCHED (err, "canny: finalize kernel launch");
  return GCV_OK;
}
