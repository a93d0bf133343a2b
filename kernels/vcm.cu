/* gst-cuda-video: the CUDA backend of Vector Coherence Mapping (contract in
 * cpu/vcm.h; paper 002 section 4.3).  Points, vectors and scores are
 * bit-identical to the CPU backend (cpu/vcm_cpu.c).
 *
 * A track queues on the caller's stream, in the CUDA context current on the
 * calling thread: the copy of the caller's device plane C into the
 * context's C slot (cudaMemcpyDefault), then the phases (the host learns N
 * only once the caller has waited for the stream):
 *   k_points   one thread block per window, one thread per pixel: st of
 *              the eligible pixels (the corner measure: a thread whose
 *              change D passes the threshold sums the Sobel products of
 *              its template from P, read through the cache), a 256-bin
 *              histogram of the window in
 *              shared memory gives the window's cutoff c* (ranks up to ppw);
 *              the pixels above c* (fewer than ppw) rank among themselves
 *              by (st desc, raster), those at c* by a block prefix count in
 *              raster order.  Writes the candidate slots
 *              cand_pos / cand_st [win * ppw + rank], cand_count [win], and
 *              adds the window's candidates to the frame histogram ghist.
 *   k_compact  one thread block: the frame cap (cutoff c and quota of
 *              st == c from ghist), then the kept list in candidate order
 *              (two block scans over contiguous runs of windows), the
 *              per-window offsets off [win] into the list (off [n_win] =
 *              N) and N itself on the device.
 *   k_ncm      one thread block per point (blocks >= N exit): the template
 *              of P and the (2R + t)^2 window of C in shared memory, exact
 *              integer sums per displacement (a thread per displacement),
 *              the int16 map of the point, M * M entries padded to a
 *              multiple of 8 (mmp) with GCV_VCM_NCM_INVALID.
 *   k_vcm      one thread block per point: every thread owns K pairs of map
 *              entries (32-bit loads, coalesced) and keeps their int64 V in
 *              registers; the neighbours come from the windows within the
 *              coherence radius (their points are contiguous in the list,
 *              one run per window row); the temporal term's nearest
 *              previous point by a block-wide scan of the history; the key
 *              minimum (gcv_vcm_key), the parabola, the gradient
 *              refinement (the block shares out the window's pixels; each
 *              thread samples C by the cubic, gcv_vcm_refine_residual) and
 *              the score.  Writes the point record and the next history
 *              (position, integer vector).
 * Then the records (max_points of them) and N go straight to the caller's
 * host memory.  set_reference queues the copy of its plane into P's slot
 * (the first one also the zeroing of the planes and counts before it).
 *
 * Device memory of a context: P and C (two planes, which is which swaps
 * after every track) and the weight tables, made by _new; the rest is
 * sized by the params of the first track and grown when later params need
 * more: candidate slots (windows x ppw), per-window counts and offsets,
 * the point list, maps (max_points x mmp int16), records, two history sets
 * (the one read by this track and the one it writes).  A context waits in
 * two places only: a track that grows the memory waits for the stream
 * before it frees the old buffers, and one whose weight parameters changed
 * waits for the copy of the previous tables out of the page-locked host
 * tables before it rewrites them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "vcm.h"
#include "gcv-cuda-context.h"

#define VCM_MAX_DIMENSION 32767

namespace {

constexpr unsigned long long kNoKey = ~0ull;
constexpr int kNcmThreads = 256;
constexpr int kCompactThreads = 1024;
constexpr int kTemporalEntries = 8 * 64 * 64 + 1;
constexpr int kSpatialEntries = 64 * 64 + 1;

constexpr const char *kTag = "vcm";

/* ---- block helpers ------------------------------------------------------------------- */

__device__ __forceinline__ unsigned long long
warp_min (unsigned long long v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    unsigned long long w = __shfl_xor_sync (0xffffffffu, v, o);
    v = w < v ? w : v;
  }
  return v;
}

/* The minimum over the thread block (blockDim a multiple of 32), in every
 * thread; red: 32 words of shared memory. */
__device__ unsigned long long
block_min (unsigned long long v, unsigned long long *red)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  __syncthreads ();
  v = warp_min (v);
  if (lane == 0)
    red[warp] = v;
  __syncthreads ();
  v = lane < nw ? red[lane] : kNoKey;
  v = warp_min (v);
  __syncthreads ();
  return v;
}

/* Exclusive prefix sum of v over the block in thread order (blockDim a
 * multiple of 32); *total: the sum.  sh: 32 ints of shared memory. */
__device__ int
block_scan (int v, int *sh, int *total)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  int x = v;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync (0xffffffffu, x, o);
    if (lane >= o)
      x += y;
  }
  __syncthreads ();
  if (lane == 31)
    sh[warp] = x;
  __syncthreads ();
  if (warp == 0) {
    int s = lane < nw ? sh[lane] : 0;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      int y = __shfl_up_sync (0xffffffffu, s, o);
      if (lane >= o)
        s += y;
    }
    sh[lane] = s;
  }
  __syncthreads ();
  const int before = (warp > 0 ? sh[warp - 1] : 0) + x - v;
  *total = sh[nw - 1];
  __syncthreads ();
  return before;
}

/* The valid displacements of the point (x, y): the window inside C. */
__device__ __forceinline__ void
valid_rect (int W, int H, int R, int tr, int x, int y, int *dx0, int *dx1, int *dy0, int *dy1)
{
  *dx0 = tr - x > -R ? tr - x : -R;
  *dx1 = W - 1 - tr - x < R ? W - 1 - tr - x : R;
  *dy0 = tr - y > -R ? tr - y : -R;
  *dy1 = H - 1 - tr - y < R ? H - 1 - tr - y : R;
}

/* ---- points ---------------------------------------------------------------------------- */

struct PointsArgs {
  const uint8_t *p, *c;
  int pitch, w, h, ws, cols, ppw, m, thr;
  int corner, t;                /* GCV_VCM_INTEREST_CORNER; template_size */
  int32_t *cand_pos;            /* y * W + x */
  uint8_t *cand_st;
  int *cand_count;
  unsigned *ghist;              /* 256 bins, zeroed before */
};

__global__ void __launch_bounds__ (1024)
k_points (PointsArgs a)
{
  __shared__ int hist[256], sc[32], abv_st[64], abv_idx[64];
  __shared__ int n_abv, s_c, s_g, s_count;
  const int tid = threadIdx.x, wi = blockIdx.x;
  const int wx = wi % a.cols, wy = wi / a.cols;
  for (int i = tid; i < 256; i += blockDim.x)
    hist[i] = 0;
  if (tid == 0)
    n_abv = 0;
  __syncthreads ();
  int st = -1;
  const int lx = tid % a.ws, ly = tid / a.ws, x = wx * a.ws + lx, y = wy * a.ws + ly;
  if (tid < a.ws * a.ws && x >= a.m && x <= a.w - 1 - a.m && y >= a.m && y <= a.h - 1 - a.m) {
    if (a.corner) {
      /* st = min (E, D) <= D: E (t^2 Sobel windows) only where D passes */
      const int d = gcv_vcm_change (a.p, a.pitch, a.c, a.pitch, x, y);
      if (d > a.thr) {
        const int e = gcv_vcm_corner (a.p, a.pitch, x, y, a.t);
        const int s = e < d ? e : d;
        if (s > a.thr)
          st = s;
      }
    } else {
      const int s = gcv_vcm_st (a.p, a.pitch, a.c, a.pitch, x, y);
      if (s > a.thr)
        st = s;
    }
  }
  if (st >= 0)
    atomicAdd (&hist[st], 1);
  __syncthreads ();
  if (tid == 0) {
    /* c*: the largest value with at least ppw pixels of st >= c*; g the
     * count above it.  Fewer than ppw eligible: c* = -1, all are above. */
    int cum = 0, s;
    for (s = 255; s >= 0; s--) {
      if (cum + hist[s] >= a.ppw)
        break;
      cum += hist[s];
    }
    s_c = s;
    s_g = cum;
    s_count = s < 0 ? cum : a.ppw;
  }
  __syncthreads ();
  const int c = s_c, g = s_g;
  const bool above = st > c, eq = c >= 0 && st == c;
  if (above) {
    const int k = atomicAdd (&n_abv, 1);
    abv_st[k] = st;
    abv_idx[k] = tid;
  }
  int tot;
  const int e = block_scan (eq ? 1 : 0, sc, &tot);     /* its barriers publish abv_* */
  const int quota = a.ppw - g;
  const size_t base = (size_t) wi * a.ppw;
  if (eq && e < quota) {
    a.cand_pos[base + g + e] = y * a.w + x;
    a.cand_st[base + g + e] = (uint8_t) st;
  }
  if (above) {
    int r = 0;
    for (int k = 0; k < n_abv; k++)
      r += abv_st[k] > st || (abv_st[k] == st && abv_idx[k] < tid);
    a.cand_pos[base + r] = y * a.w + x;
    a.cand_st[base + r] = (uint8_t) st;
    atomicAdd (&a.ghist[st], 1u);
  }
  if (tid == 0) {
    a.cand_count[wi] = s_count;
    if (c >= 0)
      atomicAdd (&a.ghist[c], (unsigned) quota);
  }
}

struct CompactArgs {
  const int *cand_count;
  const int32_t *cand_pos;
  const uint8_t *cand_st;
  const unsigned *ghist;
  int n_win, ppw, max_points, w;
  int2 *pts;
  int *off;                     /* n_win + 1 */
  int *n_out;
};

__global__ void __launch_bounds__ (kCompactThreads)
k_compact (CompactArgs a)
{
  __shared__ int sc[32], s_c, s_quota;
  const int tid = threadIdx.x;
  if (tid == 0) {
    long total = 0, cum = 0;
    int c;
    for (c = 0; c < 256; c++)
      total += a.ghist[c];
    if (total > a.max_points) {
      for (c = 255; c >= 0; c--) {
        if (cum + (long) a.ghist[c] >= a.max_points)
          break;
        cum += a.ghist[c];
      }
      s_c = c;
      s_quota = a.max_points - (int) cum;
    } else {
      s_c = -1;                 /* no cap: every candidate is above c */
      s_quota = 0;
    }
  }
  __syncthreads ();
  const int c = s_c, quota = s_quota;
  const int chunk = (a.n_win + blockDim.x - 1) / blockDim.x;
  const int w0 = tid * chunk < a.n_win ? tid * chunk : a.n_win;
  const int w1 = w0 + chunk < a.n_win ? w0 + chunk : a.n_win;
  int gt = 0, eq = 0;
  for (int w = w0; w < w1; w++) {
    const int n = a.cand_count[w];
    const uint8_t *s = a.cand_st + (size_t) w * a.ppw;
    for (int r = 0; r < n; r++) {
      gt += s[r] > c;
      eq += s[r] == c;
    }
  }
  int gt_total, eq_total;
  const int gt_before = block_scan (gt, sc, &gt_total);
  const int eq_before = block_scan (eq, sc, &eq_total);
  int k = gt_before + (eq_before < quota ? eq_before : quota), er = eq_before;
  for (int w = w0; w < w1; w++) {
    const int n = a.cand_count[w];
    const size_t b = (size_t) w * a.ppw;
    a.off[w] = k;
    for (int r = 0; r < n; r++) {
      const int s = a.cand_st[b + r];
      if (s > c || (s == c && er++ < quota)) {
        const int p = a.cand_pos[b + r];
        a.pts[k++] = make_int2 (p % a.w, p / a.w);
      }
    }
  }
  if (tid == 0) {
    const int n = gt_total + (eq_total < quota ? eq_total : quota);
    a.off[a.n_win] = n;
    *a.n_out = n;
  }
}

/* ---- NCM ------------------------------------------------------------------------------- */

struct NcmArgs {
  const uint8_t *p, *c;
  int pitch, w, h, R, M, mmp, t;
  const int2 *pts;
  const int *n;
  int16_t *ncm;
};

__global__ void __launch_bounds__ (kNcmThreads)
k_ncm (NcmArgs a)
{
  extern __shared__ __align__ (16) int smem[];
  __shared__ int s_st, s_stt;
  const int i = blockIdx.x;
  if (i >= *a.n)
    return;
  const int2 pt = a.pts[i];
  const int x = pt.x, y = pt.y, t = a.t, tr = t / 2, R = a.R, M = a.M, S = 2 * R + t, n = t * t;
  int *T = smem;
  uint8_t *win = (uint8_t *) (smem + n);
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    T[k] = a.p[(size_t) (y - tr + k / t) * a.pitch + x - tr + k % t];
  for (int k = threadIdx.x; k < S * S; k += blockDim.x) {
    const int yy = y - R - tr + k / S, xx = x - R - tr + k % S;
    win[k] = yy >= 0 && yy < a.h && xx >= 0 && xx < a.w ? a.c[(size_t) yy * a.pitch + xx] : 0;
  }
  __syncthreads ();
  if (threadIdx.x < 32) {
    int v = 0, v2 = 0;
    for (int k = threadIdx.x; k < n; k += 32) {
      v += T[k];
      v2 += T[k] * T[k];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      v += __shfl_xor_sync (0xffffffffu, v, o);
      v2 += __shfl_xor_sync (0xffffffffu, v2, o);
    }
    if (threadIdx.x == 0) {
      s_st = v;
      s_stt = v2;
    }
  }
  __syncthreads ();
  const int st = s_st, stt = s_stt;
  int dx0, dx1, dy0, dy1;
  valid_rect (a.w, a.h, R, tr, x, y, &dx0, &dx1, &dy0, &dy1);
  int16_t *map = a.ncm + (size_t) i * a.mmp;
  for (int d = threadIdx.x; d < a.mmp; d += blockDim.x) {
    int out = GCV_VCM_NCM_INVALID;
    if (d < M * M) {
      const int dy = d / M - R, dx = d % M - R;
      if (dx >= dx0 && dx <= dx1 && dy >= dy0 && dy <= dy1) {
        int sw = 0, sww = 0, stw = 0;
        const uint8_t *wr = win + (dy + R) * S + dx + R;
        const int *tp = T;
        for (int v = 0; v < t; v++, wr += S, tp += t)
          for (int u = 0; u < t; u++) {
            const int c = wr[u];
            sw += c;
            sww += c * c;
            stw += tp[u] * c;
          }
        out = gcv_vcm_ncc_q (n, st, stt, sw, sww, stw);
      }
    }
    map[d] = (int16_t) out;
  }
}

/* ---- VCM ------------------------------------------------------------------------------- */

struct VcmArgs {
  const int2 *pts;
  const int *n;
  const int *off;
  int cols, rows, ws;
  int w, h, R, M, mmp, tr;
  int rc2, rr;
  const int32_t *spatial, *temporal;
  int tw;
  const int2 *hpos, *hvec;      /* the history this track reads (NULL: none) */
  const int *hn;
  const int16_t *ncm;
  GcvVcmPoint *out;
  int2 *hpos_new, *hvec_new;
  int subpixel, refine;
  const uint8_t *p, *c;         /* P and C, for the gradient refinement */
  int pitch;
};

/* Sums of three int64 over the block, in every thread; red: 32 x 3 words
 * of shared memory. */
__device__ void
block_sum3 (long long (&v)[3], long long (*red)[3])
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  __syncthreads ();
#pragma unroll
  for (int i = 0; i < 3; i++)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      v[i] += __shfl_xor_sync (0xffffffffu, v[i], o);
  if (lane == 0)
#pragma unroll
    for (int i = 0; i < 3; i++)
      red[warp][i] = v[i];
  __syncthreads ();
#pragma unroll
  for (int i = 0; i < 3; i++) {
    v[i] = lane < nw ? red[lane][i] : 0;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      v[i] += __shfl_xor_sync (0xffffffffu, v[i], o);
  }
  __syncthreads ();
}

/* gcv_vcm_refine () (cpu/vcm.h) by the whole thread block: the window's
 * pixels are shared out among the threads, the exact int64 sums (G, then
 * bx and by of every step) meet in block_sum3, and every thread does the
 * step's double arithmetic (the contract's operations, so the same in
 * all), which keeps the loop uniform.  Same result as gcv_vcm_refine (). */
__device__ void
refine_block (const uint8_t * __restrict__ P, const uint8_t * __restrict__ C, int pitch, int W, int H, int x, int y,
    int size, int *qx, int *qy, long long (*red)[3])
{
  const int r = size / 2, n = size * size, T = blockDim.x, tid = threadIdx.x;
  const int qx0 = *qx, qy0 = *qy;
  int cx = qx0, cy = qy0;
  if (size <= 0 || x - r < 1 || y - r < 1 || x + r > W - 2 || y + r > H - 2)
    return;
  long long g[3] = { 0, 0, 0 };
  for (int k = tid; k < n; k += T) {
    const int u = k % size - r, v = k / size - r;
    const uint8_t *row = P + (size_t) (y + v) * pitch + x;
    const int gx = row[u + 1] - row[u - 1], gy = row[u + pitch] - row[u - pitch];
    g[0] += gx * gx;
    g[1] += gx * gy;
    g[2] += gy * gy;
  }
  block_sum3 (g, red);
  const long long gxx = g[0], gxy = g[1], gyy = g[2], det = gxx * gyy - gxy * gxy;
  if (det <= 0)
    return;
  /* every q met (the one after the last step too) is checked: the result
   * is the last one whose window lies inside C */
  int lx = cx, ly = cy;
  bool have = false;
  for (int step = 0; step <= GCV_VCM_REFINE_STEPS; step++) {
    const int ix = cx >= 0 ? cx / GCV_VCM_SUBPEL : -((-cx + GCV_VCM_SUBPEL - 1) / GCV_VCM_SUBPEL);
    const int iy = cy >= 0 ? cy / GCV_VCM_SUBPEL : -((-cy + GCV_VCM_SUBPEL - 1) / GCV_VCM_SUBPEL);
    if (!gcv_vcm_refine_inside (W, H, x, y, r, ix, iy))
      break;
    have = true;
    lx = cx;
    ly = cy;
    if (step == GCV_VCM_REFINE_STEPS)
      break;
    int32_t kx[4], ky[4];
    gcv_vcm_cubic_weights (cx - ix * GCV_VCM_SUBPEL, kx);
    gcv_vcm_cubic_weights (cy - iy * GCV_VCM_SUBPEL, ky);
    long long b[3] = { 0, 0, 0 };
    for (int k = tid; k < n; k += T) {
      const int u = k % size - r, v = k / size - r;
      const uint8_t *row = P + (size_t) (y + v) * pitch + x;
      const uint8_t *c0 = C + (size_t) (y + v + iy) * pitch + x + ix;
      const int gx = row[u + 1] - row[u - 1], gy = row[u + pitch] - row[u - pitch];
      const int e = gcv_vcm_refine_residual (c0 + u, (size_t) pitch, kx, ky, row[u]);
      b[0] += (long long) gx * e;
      b[1] += (long long) gy * e;
    }
    block_sum3 (b, red);
    if (!gcv_vcm_refine_step (gxx, gxy, gyy, det, b[0], b[1], &cx, &cy))
      break;
  }
  if (gcv_vcm_refine_dropped (have, lx, ly, qx0, qy0))
    return;
  *qx = lx;
  *qy = ly;
}

/* K: pairs of map entries per thread (entries 2 p and 2 p + 1 of pair p =
 * threadIdx.x + k blockDim.x, k < K). */
template <int K>
__global__ void __launch_bounds__ (512)
k_vcm (VcmArgs a)
{
  __shared__ unsigned long long red[32];
  __shared__ long long sv[5], red3[32][3];
  __shared__ double s_d[2];
  __shared__ float s_score;
  const int i = blockIdx.x;
  if (i >= *a.n)
    return;
  const int tid = threadIdx.x, T = blockDim.x, R = a.R, M = a.M, mm = M * M, pairs = (mm + 1) / 2;
  const int2 pt = a.pts[i];
  const int x = pt.x, y = pt.y;
  int dx0, dx1, dy0, dy1;
  valid_rect (a.w, a.h, R, a.tr, x, y, &dx0, &dx1, &dy0, &dy1);
  long long acc[2 * K];
#pragma unroll
  for (int k = 0; k < 2 * K; k++)
    acc[k] = 0;
  long long wsum = 0;

  /* neighbours: the windows that the radius reaches, one run of the list
   * per window row */
  {
    const int rr = a.rr;
    const int wx0 = (x - rr < 0 ? 0 : x - rr) / a.ws, wy0 = (y - rr < 0 ? 0 : y - rr) / a.ws;
    const int wx1 = (x + rr) / a.ws < a.cols ? (x + rr) / a.ws : a.cols - 1;
    const int wy1 = (y + rr) / a.ws < a.rows ? (y + rr) / a.ws : a.rows - 1;
    for (int wy = wy0; wy <= wy1; wy++) {
      const int j0 = a.off[wy * a.cols + wx0], j1 = a.off[wy * a.cols + wx1 + 1];
      for (int j = j0; j < j1; j++) {
        const int2 q = a.pts[j];
        const int ox = q.x - x, oy = q.y - y, d2 = ox * ox + oy * oy;
        if (d2 > a.rc2)
          continue;
        const int wgt = a.spatial[d2];
        wsum += wgt;
        if (wgt == 0)
          continue;
        const uint32_t *m32 = (const uint32_t *) (a.ncm + (size_t) j * a.mmp);
#pragma unroll
        for (int k = 0; k < K; k++) {
          const int p = tid + k * T;
          if (p < pairs) {
            const uint32_t v = __ldg (m32 + p);
            const int lo = (int16_t) (v & 0xffffu), hi = (int16_t) (v >> 16);
            if (lo != GCV_VCM_NCM_INVALID)
              acc[2 * k] += (long long) (wgt * lo);
            if (hi != GCV_VCM_NCM_INVALID)
              acc[2 * k + 1] += (long long) (wgt * hi);
          }
        }
      }
    }
  }

  /* the temporal term: the nearest previous point within rc2 (ties: the
   * smaller index), by a scan of the whole history */
  if (a.hpos != nullptr && a.tw > 0) {
    const int hn = *a.hn;
    unsigned long long best = kNoKey;
    for (int k = tid; k < hn; k += T) {
      const int2 q = a.hpos[k];
      const int ox = q.x - x, oy = q.y - y, d2 = ox * ox + oy * oy;
      if (d2 <= a.rc2) {
        const unsigned long long key = ((unsigned long long) d2 << 32) | (unsigned) k;
        best = key < best ? key : best;
      }
    }
    best = block_min (best, red);
    if (best != kNoKey) {
      const int2 e = a.hvec[(int) (best & 0xffffffffu)];
      wsum += a.tw;
#pragma unroll
      for (int k = 0; k < 2 * K; k++) {
        const int d = 2 * (tid + (k >> 1) * T) + (k & 1);
        if (d < mm) {
          const int dy = d / M - R, dx = d % M - R;
          if (dx >= dx0 && dx <= dx1 && dy >= dy0 && dy <= dy1) {
            const int e2 = (dx - e.x) * (dx - e.x) + (dy - e.y) * (dy - e.y);
            acc[k] += (long long) a.tw * a.temporal[e2];
          }
        }
      }
    }
  }

  /* the peak */
  unsigned long long best = kNoKey;
#pragma unroll
  for (int k = 0; k < 2 * K; k++) {
    const int d = 2 * (tid + (k >> 1) * T) + (k & 1);
    if (d < mm) {
      const int dy = d / M - R, dx = d % M - R;
      if (dx >= dx0 && dx <= dx1 && dy >= dy0 && dy <= dy1) {
        const unsigned long long key = gcv_vcm_key (acc[k], dx, dy);
        best = key < best ? key : best;
      }
    }
  }
  best = block_min (best, red);
  const int ex = gcv_vcm_key_dx (best), ey = gcv_vcm_key_dy (best);
#pragma unroll
  for (int k = 0; k < 2 * K; k++) {
    const int d = 2 * (tid + (k >> 1) * T) + (k & 1);
    if (d < mm) {
      const int dy = d / M - R, dx = d % M - R;
      if (dx >= dx0 && dx <= dx1 && dy >= dy0 && dy <= dy1) {
        if (dy == ey && dx >= ex - 1 && dx <= ex + 1)
          sv[dx - ex + 1] = acc[k];
        else if (dx == ex && dy == ey - 1)
          sv[3] = acc[k];
        else if (dx == ex && dy == ey + 1)
          sv[4] = acc[k];
      }
    }
  }
  __syncthreads ();
  if (tid == 0) {
    const long long c = sv[1];
    double ddx = 0.0, ddy = 0.0;
    if (a.subpixel) {
      const bool hx = ex - 1 >= dx0 && ex + 1 <= dx1, hy = ey - 1 >= dy0 && ey + 1 <= dy1;
      ddx = gcv_vcm_parabola (hx, hx ? sv[0] : 0, c, hx ? sv[2] : 0);
      ddy = gcv_vcm_parabola (hy, hy ? sv[3] : 0, c, hy ? sv[4] : 0);
    }
    s_d[0] = __dadd_rn ((double) ex, ddx);
    s_d[1] = __dadd_rn ((double) ey, ddy);
    s_score = gcv_vcm_score (c, wsum);
    a.hpos_new[i] = make_int2 (x, y);
    a.hvec_new[i] = make_int2 (ex, ey);
  }
  __syncthreads ();
  float odx, ody;
  if (a.subpixel && a.refine > 0) {
    int qx = gcv_vcm_to_subpel (s_d[0]), qy = gcv_vcm_to_subpel (s_d[1]);
    refine_block (a.p, a.c, a.pitch, a.w, a.h, x, y, a.refine, &qx, &qy, red3);
    odx = (float) __ddiv_rn ((double) qx, 256.0);
    ody = (float) __ddiv_rn ((double) qy, 256.0);
  } else {
    odx = (float) s_d[0];
    ody = (float) s_d[1];
  }
  if (tid == 0) {
    GcvVcmPoint o;
    o.x = (float) x;
    o.y = (float) y;
    o.dx = odx;
    o.dy = ody;
    o.score = s_score;
    a.out[i] = o;
  }
}

const void *const kVcmKernels[] = {
  (const void *) k_vcm<1>, (const void *) k_vcm<2>, (const void *) k_vcm<3>, (const void *) k_vcm<5>,
  (const void *) k_vcm<9>, (const void *) k_vcm<17>,
};
const int kVcmK[] = { 1, 2, 3, 5, 9, 17 };

/* The per-params memory of a context (ensure_memory), and on its way
 * there the new buffers of the groups that grow. */
struct PointMemory {
  int *cand_count, *off;        /* windows (+ 1) */
  int32_t *cand_pos;            /* candidate slots */
  uint8_t *cand_st;
  int2 *pts;                    /* points */
  GcvVcmPoint *out;
  int2 *hpos[2], *hvec[2];
  int16_t *ncm;                 /* maps */
};

void
point_memory_free (PointMemory * m)
{
  cudaFree (m->cand_count);
  cudaFree (m->off);
  cudaFree (m->cand_pos);
  cudaFree (m->cand_st);
  cudaFree (m->pts);
  cudaFree (m->out);
  for (int s = 0; s < 2; s++) {
    cudaFree (m->hpos[s]);
    cudaFree (m->hvec[s]);
  }
  cudaFree (m->ncm);
}

}                               /* namespace */

struct _GcvVcmCuda {
  int device, width, height;    /* device: current when _new ran */
  size_t pitch;
  uint8_t *planes;              /* 2 x pitch x height: P = planes [ref], C = the other */
  int ref;
  int has_ref;
  int cleared;                  /* the zeroing of the planes is queued (by the first set_reference) */

  /* per-params memory and its capacities */
  size_t cap_win, cap_slots, cap_pts, cap_map;
  PointMemory mem;
  unsigned *ghist;              /* 256 */
  int *n_dev;                   /* N of the current list, then of each history set: [0], [1 + s] */
  int hs;                       /* the history set the next track reads */
  int has_hist;

  int32_t *d_spatial, *d_temporal;
  GcvVcmTables *tables;         /* page-locked: the source of the tables' copies */
  cudaEvent_t tables_ev;        /* after the last copy of the tables */
  GcvVcmParams tables_params;
  int tables_valid;

  cudaEvent_t ev[4];            /* phases: points, ncm, vcm */
  int timed;                    /* ev hold the phases of a track */
};

namespace {

GcvStatus
vcm_cuda_alloc (GcvVcmCuda * ctx, GcvError * err)
{
  GcvStatus st;
  const size_t w = (size_t) ctx->width, h = (size_t) ctx->height;

  ctx->pitch = gcv_round_up (w, 128);
  if ((st = gcv_cuda_dev_alloc ((void **) &ctx->planes, ctx->pitch * h * 2, err, kTag, "frames")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->ghist, 256 * sizeof (unsigned), err, kTag, "histogram")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->n_dev, 4 * sizeof (int), err, kTag, "counts")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->d_spatial, kSpatialEntries * 4, err, kTag, "weights")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->d_temporal, kTemporalEntries * 4, err, kTag, "weights")) != GCV_OK
      || (st = gcv_cuda_pinned_alloc ((void **) &ctx->tables, sizeof (GcvVcmTables), err, kTag,
              "weight tables")) != GCV_OK)
    return st;
  for (int i = 0; i < 4; i++)
    GCV_CUDA_TRY (cudaEventCreate (&ctx->ev[i]), err, "vcm: cudaEventCreate");
  GCV_CUDA_TRY (cudaEventCreateWithFlags (&ctx->tables_ev, cudaEventDisableTiming), err, "vcm: cudaEventCreate");
  return GCV_OK;
}

/* cudaMalloc of one buffer of a group that grows, unless an earlier one
 * failed (st). */
GcvStatus
grab (void **p, size_t bytes, GcvStatus st, GcvError * err, const char *what)
{
  return st != GCV_OK ? st : gcv_cuda_dev_alloc (p, bytes, err, kTag, what);
}

/* Queues on s what the new point buffers n need before a track reads them
 * (npts points; n holds the point group): defined bytes (the records are
 * downloaded max_points at a time and the history sets copied whole when
 * they grow, N of them written) and the history sets of the context. */
GcvStatus
queue_point_init (const GcvVcmCuda * ctx, const PointMemory * n, size_t npts, cudaStream_t s, GcvError * err)
{
  GCV_CUDA_TRY (cudaMemsetAsync (n->out, 0, npts * sizeof (GcvVcmPoint), s), err, "vcm: cudaMemsetAsync");
  for (int k = 0; k < 2; k++) {
    GCV_CUDA_TRY (cudaMemsetAsync (n->hpos[k], 0, npts * sizeof (int2), s), err, "vcm: cudaMemsetAsync");
    GCV_CUDA_TRY (cudaMemsetAsync (n->hvec[k], 0, npts * sizeof (int2), s), err, "vcm: cudaMemsetAsync");
    if (ctx->cap_pts > 0) {
      GCV_CUDA_TRY (cudaMemcpyAsync (n->hpos[k], ctx->mem.hpos[k], ctx->cap_pts * sizeof (int2),
              cudaMemcpyDeviceToDevice, s), err, "vcm: cudaMemcpyAsync (history)");
      GCV_CUDA_TRY (cudaMemcpyAsync (n->hvec[k], ctx->mem.hvec[k], ctx->cap_pts * sizeof (int2),
              cudaMemcpyDeviceToDevice, s), err, "vcm: cudaMemcpyAsync (history)");
    }
  }
  return GCV_OK;
}

/* Grows the per-params memory to what `p` needs: the new buffers, the
 * history sets copied into them on s and, when there are old buffers to
 * free, a wait for s (queued work may still use them) before they are
 * freed.  On failure the old buffers stay and the context keeps working. */
GcvStatus
ensure_memory (GcvVcmCuda * ctx, const GcvVcmParams * p, cudaStream_t s, GcvError * err)
{
  const size_t n_win = (size_t) gcv_vcm_window_cols (ctx->width, p) * gcv_vcm_window_rows (ctx->height, p);
  const size_t slots = n_win * p->points_per_window;
  const size_t M = (size_t) gcv_vcm_map_side (p), mmp = gcv_round_up (M * M, 8);
  const size_t npts = (size_t) p->max_points, map = npts * mmp;
  const bool grow_win = n_win > ctx->cap_win, grow_slots = slots > ctx->cap_slots;
  const bool grow_pts = npts > ctx->cap_pts, grow_map = map > ctx->cap_map;
  /* buffers to free (none on the first track: then nothing waits) */
  const bool old_win = grow_win && ctx->cap_win, old_slots = grow_slots && ctx->cap_slots;
  const bool old_pts = grow_pts && ctx->cap_pts, old_map = grow_map && ctx->cap_map;
  PointMemory n = {};
  GcvStatus st = GCV_OK;
  bool queued = false;

  if (!grow_win && !grow_slots && !grow_pts && !grow_map)
    return GCV_OK;
  if (grow_win) {
    st = grab ((void **) &n.cand_count, n_win * sizeof (int), st, err, "window counts");
    st = grab ((void **) &n.off, (n_win + 1) * sizeof (int), st, err, "window offsets");
  }
  if (grow_slots) {
    st = grab ((void **) &n.cand_pos, slots * sizeof (int32_t), st, err, "candidates");
    st = grab ((void **) &n.cand_st, slots, st, err, "candidates");
  }
  if (grow_pts) {
    st = grab ((void **) &n.pts, npts * sizeof (int2), st, err, "points");
    st = grab ((void **) &n.out, npts * sizeof (GcvVcmPoint), st, err, "points");
    for (int k = 0; k < 2; k++) {
      st = grab ((void **) &n.hpos[k], npts * sizeof (int2), st, err, "history");
      st = grab ((void **) &n.hvec[k], npts * sizeof (int2), st, err, "history");
    }
  }
  if (grow_map)
    st = grab ((void **) &n.ncm, map * sizeof (int16_t), st, err, "correlation maps");
  if (st == GCV_OK && grow_pts) {
    queued = true;
    st = queue_point_init (ctx, &n, npts, s, err);
  }
  if (st == GCV_OK && (old_win || old_slots || old_pts || old_map)) {
    cudaError_t e = cudaStreamSynchronize (s);
    if (e != cudaSuccess)
      st = gcv_cuda_report (e, err, "vcm: cudaStreamSynchronize (growing the point memory)", __FILE__, __LINE__);
  }
  if (st != GCV_OK) {
    if (queued)
      cudaStreamSynchronize (s);
    cudaGetLastError ();
    point_memory_free (&n);
    return st;
  }
  /* the new buffers into the context, the old ones of the groups that grew
   * into n, to be freed */
  if (grow_win) {
    std::swap (ctx->mem.cand_count, n.cand_count);
    std::swap (ctx->mem.off, n.off);
    ctx->cap_win = n_win;
  }
  if (grow_slots) {
    std::swap (ctx->mem.cand_pos, n.cand_pos);
    std::swap (ctx->mem.cand_st, n.cand_st);
    ctx->cap_slots = slots;
  }
  if (grow_pts) {
    std::swap (ctx->mem.pts, n.pts);
    std::swap (ctx->mem.out, n.out);
    for (int k = 0; k < 2; k++) {
      std::swap (ctx->mem.hpos[k], n.hpos[k]);
      std::swap (ctx->mem.hvec[k], n.hvec[k]);
    }
    ctx->cap_pts = npts;
  }
  if (grow_map) {
    std::swap (ctx->mem.ncm, n.ncm);
    ctx->cap_map = map;
  }
  point_memory_free (&n);
  return GCV_OK;
}

/* The weight tables of p on the device, copied on s when the params they
 * depend on change.  The temporal table covers every e2 the table holds
 * (a history made with a larger search than this call's reaches past this
 * call's 8 R^2; tables_make fills them all, and the largest search size
 * makes sure of it). */
GcvStatus
ensure_tables (GcvVcmCuda * ctx, const GcvVcmParams * p, cudaStream_t s, GcvError * err)
{
  const GcvVcmParams *q = &ctx->tables_params;
  if (ctx->tables_valid && q->coherence_radius == p->coherence_radius && q->coherence_sigma == p->coherence_sigma
      && q->temporal_weight == p->temporal_weight && q->temporal_sigma == p->temporal_sigma)
    return GCV_OK;
  GcvVcmParams full = *p;
  full.search_size = GCV_VCM_MAX_SEARCH;
  /* the copy of the previous tables (queued by an earlier track) may still
   * read the host tables; an event never recorded is complete */
  GCV_CUDA_TRY (cudaEventSynchronize (ctx->tables_ev), err, "vcm: cudaEventSynchronize (weight tables)");
  ctx->tables_valid = 0;
  gcv_vcm_tables_make (&full, ctx->tables);
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_spatial, ctx->tables->spatial, sizeof (int32_t) * (ctx->tables->rc2 + 1),
          cudaMemcpyHostToDevice, s), err, "vcm: cudaMemcpyAsync (weights)");
  GCV_CUDA_TRY (cudaMemcpyAsync (ctx->d_temporal, ctx->tables->temporal, sizeof (int32_t) * kTemporalEntries,
          cudaMemcpyHostToDevice, s), err, "vcm: cudaMemcpyAsync (weights)");
  GCV_CUDA_TRY (cudaEventRecord (ctx->tables_ev, s), err, "vcm: cudaEventRecord");
  ctx->tables_params = *p;
  ctx->tables_valid = 1;
  return GCV_OK;
}

int
isqrt_floor (int v)
{
  int r = 0;
  while ((r + 1) * (r + 1) <= v)
    r++;
  return r;
}

}                               /* namespace */

extern "C" void
gcv_vcm_cuda_free (GcvVcmCuda * ctx)
{
  if (ctx == NULL)
    return;
  cudaFree (ctx->planes);
  cudaFree (ctx->ghist);
  cudaFree (ctx->n_dev);
  cudaFree (ctx->d_spatial);
  cudaFree (ctx->d_temporal);
  point_memory_free (&ctx->mem);
  cudaFreeHost (ctx->tables);
  gcv_cuda_events_destroy (ctx->ev, 4);
  gcv_cuda_events_destroy (&ctx->tables_ev, 1);
  cudaGetLastError ();
  delete ctx;
}

extern "C" GcvVcmCuda *
gcv_vcm_cuda_new (int width, int height, GcvError * err)
{
  if (width < 1 || height < 1 || width > VCM_MAX_DIMENSION || height > VCM_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: frame size %dx%d must be 1x1 .. %dx%d", width, height,
        VCM_MAX_DIMENSION, VCM_MAX_DIMENSION);
    return NULL;
  }
  return gcv_cuda_backend_new<GcvVcmCuda> (width, height, err, kTag, vcm_cuda_alloc, gcv_vcm_cuda_free);
}

extern "C" GcvStatus
gcv_vcm_cuda_set_reference (GcvVcmCuda * ctx, const GcvPlane * luma, void *stream, GcvError * err)
{
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: no context");
    return GCV_ERROR_INVALID;
  }
  cudaStream_t s = (cudaStream_t) stream;
  GcvStatus st;
  if ((st = gcv_cuda_check_device (ctx->device, err, kTag)) != GCV_OK
      || (st = gcv_cuda_luma_check (luma, ctx->width, ctx->height, err, kTag, "reference")) != GCV_OK)
    return st;
  if (!ctx->cleared) {
    /* defined bytes everywhere (the plane padding is never read, but the
     * sanitizer's initcheck likes it defined) */
    GCV_CUDA_TRY (cudaMemsetAsync (ctx->planes, 0, ctx->pitch * ctx->height * 2, s), err, "vcm: cudaMemsetAsync");
    GCV_CUDA_TRY (cudaMemsetAsync (ctx->n_dev, 0, 4 * sizeof (int), s), err, "vcm: cudaMemsetAsync");
    ctx->cleared = 1;
  }
  if ((st = gcv_cuda_luma_copy (luma, ctx->planes + ctx->pitch * ctx->height * ctx->ref, ctx->pitch, s, err,
              kTag)) != GCV_OK)
    return st;
  ctx->has_ref = 1;
  ctx->has_hist = 0;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_vcm_cuda_track (GcvVcmCuda * ctx, const GcvVcmParams * params, const GcvPlane * cur, GcvVcmPoint * points,
    int *n_points, void *stream, GcvError * err)
{
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: no context");
    return GCV_ERROR_INVALID;
  }
  GcvStatus st;
  if ((st = gcv_cuda_check_device (ctx->device, err, kTag)) != GCV_OK)
    return st;
  const char *why = gcv_vcm_params_check (params);
  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (!ctx->has_ref) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: track without a reference frame (set_reference)");
    return GCV_ERROR_INVALID;
  }
  if (points == NULL || n_points == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: track without %s", points == NULL ? "a point array" : "a count");
    return GCV_ERROR_INVALID;
  }
  cudaStream_t s = (cudaStream_t) stream;
  if ((st = gcv_cuda_luma_check (cur, ctx->width, ctx->height, err, kTag, "current frame")) != GCV_OK
      || (st = ensure_memory (ctx, params, s, err)) != GCV_OK
      || (st = ensure_tables (ctx, params, s, err)) != GCV_OK
      || (st = gcv_cuda_luma_copy (cur, ctx->planes + ctx->pitch * ctx->height * (1 - ctx->ref), ctx->pitch, s,
              err, kTag)) != GCV_OK)
    return st;

  const GcvVcmParams *p = params;
  const int W = ctx->width, H = ctx->height;
  const int cols = gcv_vcm_window_cols (W, p), rows = gcv_vcm_window_rows (H, p), n_win = cols * rows;
  const int R = gcv_vcm_radius (p), M = gcv_vcm_map_side (p), mmp = (int) gcv_round_up ((size_t) M * M, 8);
  const int t = p->template_size;
  const uint8_t *P = ctx->planes + ctx->pitch * H * ctx->ref;
  const uint8_t *C = ctx->planes + ctx->pitch * H * (1 - ctx->ref);
  const int hs = ctx->hs, nh = 1 - hs;

  ctx->timed = 0;
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[0], s), err, "vcm: cudaEventRecord");
  GCV_CUDA_TRY (cudaMemsetAsync (ctx->ghist, 0, 256 * sizeof (unsigned), s), err, "vcm: cudaMemsetAsync");
  {
    PointsArgs a;
    a.p = P;
    a.c = C;
    a.pitch = (int) ctx->pitch;
    a.w = W;
    a.h = H;
    a.ws = p->window_size;
    a.cols = cols;
    a.ppw = p->points_per_window;
    a.m = gcv_vcm_margin (p);
    a.thr = p->st_threshold;
    a.corner = p->interest == GCV_VCM_INTEREST_CORNER;
    a.t = p->template_size;
    a.cand_pos = ctx->mem.cand_pos;
    a.cand_st = ctx->mem.cand_st;
    a.cand_count = ctx->mem.cand_count;
    a.ghist = ctx->ghist;
    const int threads = (int) gcv_round_up ((size_t) (p->window_size * p->window_size), 32);
    k_points<<<n_win, threads, 0, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "vcm: k_points");
  }
  {
    CompactArgs a;
    a.cand_count = ctx->mem.cand_count;
    a.cand_pos = ctx->mem.cand_pos;
    a.cand_st = ctx->mem.cand_st;
    a.ghist = ctx->ghist;
    a.n_win = n_win;
    a.ppw = p->points_per_window;
    a.max_points = p->max_points;
    a.w = W;
    a.pts = ctx->mem.pts;
    a.off = ctx->mem.off;
    a.n_out = ctx->n_dev + 1 + nh;     /* N is also the count of the history this track writes */
    k_compact<<<1, kCompactThreads, 0, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "vcm: k_compact");
  }
  const int *n_dev = ctx->n_dev + 1 + nh;
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[1], s), err, "vcm: cudaEventRecord");
  {
    NcmArgs a;
    a.p = P;
    a.c = C;
    a.pitch = (int) ctx->pitch;
    a.w = W;
    a.h = H;
    a.R = R;
    a.M = M;
    a.mmp = mmp;
    a.t = t;
    a.pts = ctx->mem.pts;
    a.n = n_dev;
    a.ncm = ctx->mem.ncm;
    const size_t smem = (size_t) t * t * 4 + (size_t) (2 * R + t) * (2 * R + t);
    k_ncm<<<p->max_points, kNcmThreads, smem, s>>> (a);
    GCV_CUDA_LAUNCHED (err, "vcm: k_ncm");
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[2], s), err, "vcm: cudaEventRecord");
  {
    VcmArgs a;
    a.pts = ctx->mem.pts;
    a.n = n_dev;
    a.off = ctx->mem.off;
    a.cols = cols;
    a.rows = rows;
    a.ws = p->window_size;
    a.w = W;
    a.h = H;
    a.R = R;
    a.M = M;
    a.mmp = mmp;
    a.tr = t / 2;
    a.rc2 = (int) floor (p->coherence_radius * p->coherence_radius);
    a.rr = isqrt_floor (a.rc2);
    a.spatial = ctx->d_spatial;
    a.temporal = ctx->d_temporal;
    a.tw = (int) floor (256.0 * p->temporal_weight + 0.5);
    a.hpos = ctx->has_hist ? ctx->mem.hpos[hs] : nullptr;
    a.hvec = ctx->mem.hvec[hs];
    a.hn = ctx->n_dev + 1 + hs;
    a.ncm = ctx->mem.ncm;
    a.out = ctx->mem.out;
    a.hpos_new = ctx->mem.hpos[nh];
    a.hvec_new = ctx->mem.hvec[nh];
    a.subpixel = p->subpixel ? 1 : 0;
    a.refine = p->refine_size;
    a.p = P;
    a.c = C;
    a.pitch = (int) ctx->pitch;
    /* threads and pairs per thread: 256 threads up to 9 pairs each
     * (maps up to 67 x 67), then 512 */
    const int pairs = (M * M + 1) / 2;
    int threads = pairs <= 256 * 9 ? 256 : 512;
    if (pairs < threads)
      threads = (int) gcv_round_up ((size_t) pairs, 32);
    const int need = (pairs + threads - 1) / threads;
    int ki = 0;
    while (kVcmK[ki] < need)
      ki++;
    void *args[] = { &a };
    GCV_CUDA_TRY (cudaLaunchKernel (kVcmKernels[ki], dim3 (p->max_points), dim3 (threads), args, 0, s), err,
        "vcm: k_vcm");
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev[3], s), err, "vcm: cudaEventRecord");
  GCV_CUDA_TRY (cudaMemcpyAsync (points, ctx->mem.out, (size_t) p->max_points * sizeof (GcvVcmPoint),
          cudaMemcpyDeviceToHost, s), err, "vcm: cudaMemcpyAsync (points)");
  GCV_CUDA_TRY (cudaMemcpyAsync (n_points, n_dev, sizeof (int), cudaMemcpyDeviceToHost, s), err,
      "vcm: cudaMemcpyAsync (count)");
  ctx->timed = 1;
  ctx->ref = 1 - ctx->ref;
  ctx->hs = nh;
  ctx->has_hist = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_vcm_cuda_times (GcvVcmCuda * ctx, GcvVcmTimes * times, GcvError * err)
{
  if (ctx == NULL || times == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "vcm: times without %s", ctx == NULL ? "a context" : "a GcvVcmTimes");
    return GCV_ERROR_INVALID;
  }
  memset (times, 0, sizeof (*times));
  if (!ctx->timed)
    return GCV_OK;
  float a = 0, b = 0, c = 0;
  GCV_CUDA_TRY (cudaEventElapsedTime (&a, ctx->ev[0], ctx->ev[1]), err, "vcm: cudaEventElapsedTime");
  GCV_CUDA_TRY (cudaEventElapsedTime (&b, ctx->ev[1], ctx->ev[2]), err, "vcm: cudaEventElapsedTime");
  GCV_CUDA_TRY (cudaEventElapsedTime (&c, ctx->ev[2], ctx->ev[3]), err, "vcm: cudaEventElapsedTime");
  times->points_ms = a;
  times->ncm_ms = b;
  times->vcm_ms = c;
  return GCV_OK;
}
