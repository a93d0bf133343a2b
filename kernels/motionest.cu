/* gst-cuda-video: the CUDA backend of block-matching motion estimation
 * (contract in cpu/motionest.h; paper 004, Massanes, Cadennes and Brankov,
 * full search with SAD on integer and fractional grids, and paper 003, Lu
 * and Hang, MODS).  Vectors and SADs are bit-identical to the CPU backend
 * (cpu/motionest_cpu.c).
 *
 * Device memory of a context (all of it made by _new, for one frame size):
 *   planes     17 planes of `pitch` x H bytes, pitch = round_up (W + 16,
 *              128) (so that a 4-byte word read at any column < W + 8 stays
 *              inside the row): slots 0 and 1 hold P and C (which is which
 *              swaps after every search: C becomes P without a copy), slots
 *              1 + (fy * 4 + fx) the phase planes of C,
 *                  phase (fx, fy) [j][i] = sample (C, 4 i + fx, 4 j + fy)
 *              (the contract's bilinear rule, its neighbours clamped to the
 *              frame, which changes nothing a valid candidate reads).  Every
 *              fractional candidate (dx, dy) = (4 ox + fx, 4 oy + fy) is an
 *              integer SAD of P against phase (fx, fy) at offset (ox, oy):
 *              the paper's texture interpolation done once per frame instead
 *              of once per pixel and candidate.
 *   keys       one uint64 per block: the minimum key (gcv_motion_key) of the
 *              candidates searched so far (atomicMin of every thread block)
 *   vectors    GcvMotionVector per block (raster order); keys and vectors are
 *              sized for 4 x 4 blocks.
 * The first set_reference queues the zeroing of all planes (the row padding
 * stays 0: only the W columns of a row are ever copied in).  Everything is
 * queued on the caller's stream, in the CUDA context current on the calling
 * thread; nothing here synchronises.  set_reference queues the copy of the
 * caller's device plane into P's slot; a search queues the copy of its
 * current frame into C's slot (cudaMemcpyDefault: the frame may live on
 * another device), the phase planes it needs (FULL, sub-pel: only the rows
 * the searched blocks can reach), the key reset, k_full (FULL) or k_mods
 * (MODS), k_finish (the zero threshold of eq. 4, the vector records), and
 * the download of the searched rows' vectors into the caller's host array.
 *
 * SAD of 4 pixels: vabsdiff4 with accumulation (VABSDIFF4 on sm_90, see
 * sad4 below).  A SAD is < 2^22, so it never overflows its 32-bit sum.
 *
 * Measured on an H100 (kernel time of a search, CUDA events, median of 21
 * after warm-up, frames rotating; tests/motionest_cuda_test.c):
 *   paper 004's HD case, 1920x1080, 96x54 blocks, +-96 x +-54 px, half-pel
 *   (400 blocks of 83,545 candidates, 1.56e11 pixel differences): 3.40 ms;
 *   1080p, 16x16 blocks, +-32 px, integer (8.46e9): 0.365 ms = 2,743 fps.
 * The limit is VABSDIFF4.ACC: 132 SMs x 249 differences x 1.98 GHz =
 * 6.5e13 / s, 2.4 ms and 0.13 ms (71 % and 36 % of it reached).  The HD
 * case keeps the ALU pipe 88 % busy, nearly all of it VABSDIFF4; the 1080p
 * case's threads are short (64 block rows each), so their setup, window
 * load and key reduction weigh more (a third of the ALU instructions), and
 * its thread blocks wait on their window loads (31 % occupancy at 89
 * registers a thread).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "motionest.h"
#include "gcv-cuda-context.h"

namespace {

constexpr int kPlanes = 17;                     /* P, C and 15 phase planes */
constexpr int kFullThreads = 256;               /* most threads of a k_full block */
constexpr int kModsMinThreads = 256;            /* k_mods: at least 8 warps (one per sub-pel neighbour) */
constexpr int kFinishThreads = 128;             /* k_finish: a warp per image block */
constexpr int kPhaseTileX = 64, kPhaseTileY = 4;
constexpr unsigned long long kNoKey = ~0ull;
constexpr unsigned long long kBadKey = 1ull << 62;      /* > every key (J < 2^22: keys < 2^55) */
/* A full search of more differences than this goes in slices of blocks,
 * the host never more than two slices ahead of the device, and looks at
 * the stop request before each: about 20 ms of an H100 (23 to 46 T
 * differences a second, docs/performance.md), so that a search of
 * minutes (8192 x 8192, 4 x 4 blocks, +-128 at quarter pixels) stops
 * within a few slices. */
constexpr double kSliceDiffs = 5e11;

/* ---- small device helpers --------------------------------------------------------- */

/* acc + sum of |a_i - b_i| over the 4 bytes.  On sm_90 the PTX vabsdiff4
 * with .add is one native VABSDIFF4.U8.ACC, issued on the ALU pipe at half
 * rate: measured on an H100, 62 instructions/clock/SM, 249 pixel
 * differences.  __vsadu4 () + acc compiles to VABSDIFF4 without the
 * accumulation plus an IADD3 (40 / clock / SM), dp4a of __vabsdiffu4 ()
 * to 49, and the float path |a - b| (FADD, FADD with |.|; exact, every SAD
 * being an integer < 2^22) gives 56 pixel differences / clock / SM: 4.5
 * times fewer than VABSDIFF4.ACC. */
__device__ __forceinline__ uint32_t
sad4 (uint32_t a, uint32_t b, uint32_t acc)
{
  uint32_t d;
  asm ("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b), "r" (acc));
  return d;
}

__device__ __forceinline__ unsigned long long
min_u64 (unsigned long long a, unsigned long long b)
{
  return a < b ? a : b;
}

__device__ __forceinline__ unsigned long long
warp_min (unsigned long long v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v = min_u64 (v, __shfl_xor_sync (0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ uint32_t
warp_sum (uint32_t v)
{
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, o);
  return v;
}

/* The minimum of v over the thread block, in every thread.  red: 32
 * words of shared memory; begins and ends with a barrier. */
__device__ unsigned long long
block_min (unsigned long long v, unsigned long long *red)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = (blockDim.x + 31) >> 5;
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

/* Valid range of one axis: displacements in q, multiples of 4, for a block
 * at o (pixels) of n pixels in a frame of `size`, range r pixels. */
__device__ __forceinline__ void
axis_range (int o, int n, int size, int r, int *lo, int *hi)
{
  *lo = -4 * r > -4 * o ? -4 * r : -4 * o;
  *hi = 4 * r < 4 * (size - o - n) ? 4 * r : 4 * (size - o - n);
}

/* The block's w x h pixels of P into shared memory as words, w4p words a
 * row; the bytes right of w are 0 (the SAD loops zero the same bytes of C,
 * so they add nothing). */
__device__ void
load_block (const uint8_t * __restrict__ P, int pitch, int x0, int y0, int w, int h, int w4p,
    uint32_t * __restrict__ ps)
{
  const int lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  for (int y = threadIdx.x >> 5; y < h; y += nw) {
    const uint8_t *row = P + (size_t) (y0 + y) * pitch + x0;
    for (int c = lane; c < w4p; c += 32) {
      uint32_t v = 0;
#pragma unroll
      for (int k = 0; k < 4; k++)
        if (4 * c + k < w)
          v |= (uint32_t) row[4 * c + k] << (8 * k);
      ps[y * w4p + c] = v;
    }
  }
}

/* ---- phase planes ------------------------------------------------------------------ */

struct PhaseArgs {
  const uint8_t *c;             /* C */
  uint8_t *planes;              /* slot 2; phase (fx, fy) at planes + (fy*4 + fx - 1) * plane_bytes */
  size_t plane_bytes;
  int pitch, w, h;
  int y_lo, y_hi;               /* rows to compute */
  int subpel, step;
};

/* One thread per pixel of rows y_lo .. y_hi: reads the 4 neighbours once and
 * writes the pixel of every fractional phase of the grid (3 for half-pel,
 * 15 for quarter-pel), each exactly gcv_motion_sample (). */
__global__ void
k_phases (PhaseArgs a)
{
  const int i = blockIdx.x * kPhaseTileX + threadIdx.x;
  const int j = a.y_lo + blockIdx.y * kPhaseTileY + threadIdx.y;
  if (i >= a.w || j > a.y_hi)
    return;
  const int i1 = i + 1 < a.w ? i + 1 : i, j1 = j + 1 < a.h ? j + 1 : j;
  const uint8_t *r0 = a.c + (size_t) j * a.pitch, *r1 = a.c + (size_t) j1 * a.pitch;
  const int c00 = r0[i], c01 = r0[i1], c10 = r1[i], c11 = r1[i1];
  for (int p = 1; p < a.subpel * a.subpel; p++) {
    const int fx = p % a.subpel * a.step, fy = p / a.subpel * a.step;
    const int top = (4 - fx) * c00 + fx * c01, bot = (4 - fx) * c10 + fx * c11;
    a.planes[(size_t) (fy * 4 + fx - 1) * a.plane_bytes + (size_t) j * a.pitch + i] =
        (uint8_t) (((4 - fy) * top + fy * bot + 8) >> 4);
  }
}

/* ---- full search (paper 004, eq. 1-3) ---------------------------------------------- */

struct FullArgs {
  const uint8_t *p;             /* P */
  const uint8_t *phase[16];     /* phase (fx, fy) at [fy * 4 + fx]; [0] = C */
  int pitch, w, h;
  int bw, bh, cols, rx, ry, subpel, step;
  int b0;                       /* first block of the launch */
  int rows_per_cta;             /* R: thread rows (of KY candidate rows) per thread block */
  int pitchw;                   /* words per shared window row */
  int w4p;                      /* words per shared P row: ceil (bw / 4) */
  unsigned long long *keys;
};

/* Words 0 and 1 of a window row and the four byte shifts: s[k] holds the
 * 4 C pixels at byte offset k, the pixels of candidate kx = k.  TAIL: the
 * block's last word column, whose bytes right of the block are zeroed. */
template <bool TAIL>
__device__ __forceinline__ void
shifted_row (const uint32_t * __restrict__ p, uint32_t mask, uint32_t (&s)[4])
{
  const uint32_t a = p[0], b = p[1];
  s[0] = a;
  s[1] = __funnelshift_r (a, b, 8);
  s[2] = __funnelshift_r (a, b, 16);
  s[3] = __funnelshift_r (a, b, 24);
  if (TAIL) {
#pragma unroll
    for (int k = 0; k < 4; k++)
      s[k] &= mask;
  }
}

/* One word column of the block (4 pixels wide) for the thread's 4 x KY
 * candidates: for every block row y, the P word (the same for every
 * thread: a broadcast) against the shifted C words of window rows y + ky.
 * Register blocking: the 4 x KY shifted words of rows y .. y + KY - 1 stay
 * in registers (slot r % KY holds row r), so each window row is read from
 * shared memory once per column and serves KY candidate rows, and each of
 * its 4 byte shifts serves the KY block rows it meets: per block row 3
 * shared loads, 3 funnel shifts, 4 KY VABSDIFF4. */
template <int KY, bool TAIL, int U>
__device__ __forceinline__ void
sad_row (const uint32_t * __restrict__ &wr, int pitchw, const uint32_t * __restrict__ &pr, int w4p, uint32_t mask,
    uint32_t (&s)[KY][4], uint32_t (&acc)[KY][4])
{
  shifted_row<TAIL> (wr, mask, s[(U + KY - 1) % KY]);
  const uint32_t pw = *pr;
  wr += pitchw;
  pr += w4p;
#pragma unroll
  for (int ky = 0; ky < KY; ky++)
#pragma unroll
    for (int kx = 0; kx < 4; kx++)
      acc[ky][kx] = sad4 (pw, s[(U + ky) % KY][kx], acc[ky][kx]);
}

template <int KY, bool TAIL, int... U>
__device__ __forceinline__ void
sad_rows (const uint32_t * __restrict__ &wr, int pitchw, const uint32_t * __restrict__ &pr, int w4p, uint32_t mask,
    uint32_t (&s)[KY][4], uint32_t (&acc)[KY][4], int left, std::integer_sequence<int, U...>)
{
  /* KY rows (left >= KY), or the last `left` < KY of the column */
  ((U < left ? sad_row<KY, TAIL, U> (wr, pitchw, pr, w4p, mask, s, acc) : void ()), ...);
}

template <int KY, bool TAIL>
__device__ __forceinline__ void
sad_column (const uint32_t * __restrict__ win, int pitchw, const uint32_t * __restrict__ pcol, int w4p,
    int h, uint32_t mask, uint32_t (&acc)[KY][4])
{
  uint32_t s[KY][4];
#pragma unroll
  for (int i = 0; i < KY - 1; i++)
    shifted_row<TAIL> (win + i * pitchw, mask, s[i]);
  const uint32_t *wr = win + (KY - 1) * pitchw, *pr = pcol;
  int y = 0;
  for (; y + KY <= h; y += KY)
    sad_rows<KY, TAIL> (wr, pitchw, pr, w4p, mask, s, acc, KY, std::make_integer_sequence<int, KY> ());
  if (y < h)
    sad_rows<KY, TAIL> (wr, pitchw, pr, w4p, mask, s, acc, h - y, std::make_integer_sequence<int, KY> ());
}

/* Full search of one phase of the grid, paper 004's "one thread per
 * candidate" with each thread owning a 4 x KY tile of candidates.
 * Grid: x = image block (b0 + blockIdx.x), y = tile of candidate rows,
 * z = phase (fx, fy) of the sub-pel grid.  For the block and phase, the
 * valid integer offsets form a rectangle ox in [oxl, oxh], oy in [oyl, oyh];
 * the columns are grouped by 4 from xal = (x0 + oxl) & ~3 so that every
 * group starts on a word of C (the few candidates left of oxl are computed
 * and dropped): GX groups of 4 columns x GY groups of KY rows; thread
 * (gx, gy) = (t % GX, t / GX) of the block's R rows of groups takes
 * offsets ox = xal - x0 + 4 gx + kx, oy = oyl + KY (tile R + gy) + ky.
 * Shared memory (dynamic, words):
 *   red  32 uint64: the reduction
 *   win  (R KY + bh - 1) rows x pitchw: the window of the phase plane from
 *        row y0 + oyl + KY R tile and word xal / 4 (0 outside the frame);
 *        pitchw >= GX + w4 is chosen so that a warp's two or three rows of
 *        threads fall in different banks
 *   ps   bh rows x w4p: the block of P (load_block)
 * Each thread keeps the minimum key (gcv_motion_key) of its valid
 * candidates; the block's minimum goes to keys[b] by a 64-bit atomicMin, so
 * the result does not depend on the order of the thread blocks. */
template <int KY>
__global__ void __launch_bounds__ (kFullThreads, 2)
k_full (FullArgs a)
{
  extern __shared__ __align__ (16) uint32_t smem[];
  const int b = a.b0 + blockIdx.x;
  const int bx = b % a.cols, by = b / a.cols;
  const int x0 = bx * a.bw, y0 = by * a.bh;
  const int w = a.w - x0 < a.bw ? a.w - x0 : a.bw, h = a.h - y0 < a.bh ? a.h - y0 : a.bh;
  const int fx = blockIdx.z % a.subpel * a.step, fy = blockIdx.z / a.subpel * a.step;
  int dxlo, dxhi, dylo, dyhi;
  axis_range (x0, w, a.w, a.rx, &dxlo, &dxhi);
  axis_range (y0, h, a.h, a.ry, &dylo, &dyhi);
  const int oxl = dxlo / 4, oxh = fx ? dxhi / 4 - 1 : dxhi / 4;
  const int oyl = dylo / 4, oyh = fy ? dyhi / 4 - 1 : dyhi / 4;
  if (oxh < oxl || oyh < oyl)
    return;
  const int xal = (x0 + oxl) & ~3;
  const int gxn = (x0 + oxh - xal) / 4 + 1;
  const int gyn = (oyh - oyl) / KY + 1;
  const int gy0 = blockIdx.y * a.rows_per_cta;
  if (gy0 >= gyn)
    return;
  const int nrow = gyn - gy0 < a.rows_per_cta ? gyn - gy0 : a.rows_per_cta;
  const int w4 = (w + 3) / 4;
  const int win_rows = nrow * KY + h - 1;
  unsigned long long *red = (unsigned long long *) smem;
  uint32_t *win = smem + 64;
  uint32_t *ps = win + (a.rows_per_cta * KY + a.bh - 1) * a.pitchw;

  /* the window: row y0 + oyl + KY gy0 + r, words from xal / 4 */
  {
    const uint8_t *plane = a.phase[fy * 4 + fx];
    const int ywin = y0 + oyl + KY * gy0, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
    for (int r = threadIdx.x >> 5; r < win_rows; r += nw) {
      const uint32_t *src = (const uint32_t *) (plane + (size_t) (ywin + r < a.h ? ywin + r : 0) * a.pitch + xal);
      for (int k = lane; k < a.pitchw; k += 32)
        win[r * a.pitchw + k] = ywin + r < a.h && xal + 4 * k < a.pitch ? src[k] : 0u;
    }
  }
  load_block (a.p, a.pitch, x0, y0, w, h, a.w4p, ps);
  __syncthreads ();

  const int t = threadIdx.x, gx = t % gxn, gyl = t / gxn;
  unsigned long long best = kNoKey;
  if (gyl < nrow) {
    uint32_t acc[KY][4];
#pragma unroll
    for (int ky = 0; ky < KY; ky++)
#pragma unroll
      for (int kx = 0; kx < 4; kx++)
        acc[ky][kx] = 0;
    const uint32_t *tw = win + gyl * KY * a.pitchw + gx;
    const int full = (w & 3) ? w4 - 1 : w4;
    for (int c = 0; c < full; c++)
      sad_column<KY, false> (tw + c, a.pitchw, ps + c, a.w4p, h, 0xffffffffu, acc);
    if (full < w4)
      sad_column<KY, true> (tw + full, a.pitchw, ps + full, a.w4p, h, 0xffffffffu >> (8 * (4 - (w & 3))), acc);
    /* gcv_motion_key () as a sum, its fields being disjoint: J << 33 plus
     * a term of dx (|dx| << 22, dx + 512) and one of dy (|dy| << 22,
     * (dy + 512) << 11); a candidate outside the valid rectangle gets
     * kBadKey added, which no valid key reaches */
    const int oxt = xal - x0 + 4 * gx, oyt = oyl + KY * (gy0 + gyl);
    unsigned long long kx_term[4];
#pragma unroll
    for (int kx = 0; kx < 4; kx++) {
      const int ox = oxt + kx, dx = 4 * ox + fx;
      kx_term[kx] = ox >= oxl && ox <= oxh ? ((unsigned long long) (dx < 0 ? -dx : dx) << 22) + (unsigned) (dx + 512)
          : kBadKey;
    }
#pragma unroll
    for (int ky = 0; ky < KY; ky++) {
      const int oy = oyt + ky, dy = 4 * oy + fy;
      const unsigned long long ky_term = oy <= oyh ? ((unsigned long long) (dy < 0 ? -dy : dy) << 22)
          + ((unsigned long long) (dy + 512) << 11) : kBadKey;
#pragma unroll
      for (int kx = 0; kx < 4; kx++)
        best = min_u64 (best, ((unsigned long long) acc[ky][kx] << 33) + kx_term[kx] + ky_term);
    }
  }
  best = block_min (best, red);
  if (threadIdx.x == 0 && best < kBadKey)
    atomicMin (&a.keys[b], best);
}

/* ---- MODS (paper 003) -------------------------------------------------------------- */

struct ModsArgs {
  const uint8_t *p, *c;
  int pitch, w, h;
  int bw, bh, cols, rx, ry, subpel;
  int b0;
  int w4p;
  unsigned long long *keys;
};

/* Integer SAD of the block (ps in shared memory) at (x0 + ox, y0 + oy) of C:
 * per row the aligned words of C from global memory, funnel-shifted into
 * place; the last word's bytes right of the block are zeroed. */
__device__ uint32_t
sad_integer (const uint32_t * __restrict__ ps, int w4p, const uint8_t * __restrict__ c, int pitch, int x, int y,
    int w, int h)
{
  const int sh = 8 * (x & 3), w4 = (w + 3) / 4;
  const uint32_t tail = (w & 3) ? 0xffffffffu >> (8 * (4 - (w & 3))) : 0xffffffffu;
  uint32_t acc = 0;
  for (int r = 0; r < h; r++) {
    const uint32_t *row = (const uint32_t *) (c + (size_t) (y + r) * pitch + (x & ~3));
    uint32_t lo = __ldg (row);
    for (int k = 0; k < w4; k++) {
      const uint32_t hi = __ldg (row + k + 1);
      uint32_t cw = __funnelshift_r (lo, hi, sh);
      if (k == w4 - 1)
        cw &= tail;
      acc = sad4 (ps[r * w4p + k], cw, acc);
      lo = hi;
    }
  }
  return acc;
}

/* MODS as paper 003 maps it: one thread block per image block, one thread
 * per whole-pixel column dx = 4 k, k = t - rx (2 rx + 1 threads).  Each
 * thread runs the contract's three one-dimensional steps down its column
 * (0, +-4, +-8 ... px; then +-2; then +-1 around the best, valid candidates
 * only, by the key), the block reduces the column winners in shared memory
 * (the paper's candidate reduction), then the sub-pel refinement: warp n of
 * the first 8 computes the SAD of neighbour n at +-2 q (then +-1 q for
 * quarter-pel) by the contract's bilinear rule, thread 0 keeps the best.
 * Shared memory: red (32 uint64), nk (8 uint64, the neighbours' keys),
 * ps (bh x w4p words, the block of P). */
__global__ void
k_mods (ModsArgs a)
{
  extern __shared__ __align__ (16) uint32_t smem[];
  const int b = a.b0 + blockIdx.x;
  const int bx = b % a.cols, by = b / a.cols;
  const int x0 = bx * a.bw, y0 = by * a.bh;
  const int w = a.w - x0 < a.bw ? a.w - x0 : a.bw, h = a.h - y0 < a.bh ? a.h - y0 : a.bh;
  unsigned long long *red = (unsigned long long *) smem;
  unsigned long long *nk = red + 32;
  uint32_t *ps = smem + 80;
  GcvMotionParams pr;
  pr.block_width = a.bw;
  pr.block_height = a.bh;
  pr.range_x = a.rx;
  pr.range_y = a.ry;

  load_block (a.p, a.pitch, x0, y0, w, h, a.w4p, ps);
  __syncthreads ();

  unsigned long long best = kNoKey;
  const int k = (int) threadIdx.x - a.rx;
  if (k <= a.rx && gcv_motion_candidate_valid (a.w, a.h, &pr, x0, y0, w, h, 4 * k, 0)) {
    const int m_max = a.ry / 4;
    for (int m = -m_max; m <= m_max; m++)
      if (gcv_motion_candidate_valid (a.w, a.h, &pr, x0, y0, w, h, 4 * k, 16 * m))
        best = min_u64 (best, gcv_motion_key (sad_integer (ps, a.w4p, a.c, a.pitch, x0 + k, y0 + 4 * m, w, h),
                4 * k, 16 * m));
    for (int step = 8; step >= 4; step /= 2) {
      const int yc = gcv_motion_key_dy (best);
      unsigned long long nb = best;
      for (int s = -1; s <= 1; s += 2) {
        const int dy = yc + s * step;
        if (gcv_motion_candidate_valid (a.w, a.h, &pr, x0, y0, w, h, 4 * k, dy))
          nb = min_u64 (nb, gcv_motion_key (sad_integer (ps, a.w4p, a.c, a.pitch, x0 + k, y0 + dy / 4, w, h),
                  4 * k, dy));
      }
      best = nb;
    }
  }
  best = block_min (best, red);

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint8_t *pb = (const uint8_t *) ps;
  for (int d = 2; d >= 1 && a.subpel >= 4 / d; d /= 2) {
    const int cdx = gcv_motion_key_dx (best), cdy = gcv_motion_key_dy (best);
    if (warp < 8) {
      const int n = warp < 4 ? warp : warp + 1;         /* 3 x 3 around the centre, centre skipped */
      const int dx = cdx + (n % 3 - 1) * d, dy = cdy + (n / 3 - 1) * d;
      unsigned long long key = kNoKey;
      if (gcv_motion_candidate_valid (a.w, a.h, &pr, x0, y0, w, h, dx, dy)) {
        uint32_t s = 0;
        for (int i = lane; i < w * h; i += 32) {
          const int x = i % w, y = i / w;
          const int v = gcv_motion_sample (a.c, a.pitch, 4 * (x0 + x) + dx, 4 * (y0 + y) + dy);
          const int pv = pb[(size_t) y * 4 * a.w4p + x];
          s += (uint32_t) (pv > v ? pv - v : v - pv);
        }
        key = gcv_motion_key (warp_sum (s), dx, dy);
      }
      if (lane == 0)
        nk[warp] = key;
    }
    __syncthreads ();
    if (threadIdx.x == 0)
      for (int n = 0; n < 8; n++)
        best = min_u64 (best, nk[n]);
    if (threadIdx.x == 0)
      red[0] = best;
    __syncthreads ();
    best = red[0];
    __syncthreads ();
  }
  if (threadIdx.x == 0)
    a.keys[b] = best;
}

/* ---- the vectors ------------------------------------------------------------------- */

struct FinishArgs {
  const uint8_t *p, *c;
  int pitch, w, h;
  int bw, bh, cols;
  int b0, b1;
  uint32_t threshold_q8;
  const unsigned long long *keys;
  GcvMotionVector *vec;
};

/* A warp per image block: the key's vector and SAD, or (0, 0) and J (0, 0)
 * when eq. 4's threshold suppresses the block's motion (J (0, 0) summed by
 * the warp, unless the best already is (0, 0)). */
__global__ void
k_finish (FinishArgs a)
{
  const int lane = threadIdx.x & 31;
  const int b = a.b0 + (int) ((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  if (b >= a.b1)
    return;
  const int bx = b % a.cols, by = b / a.cols;
  const int x0 = bx * a.bw, y0 = by * a.bh;
  const int w = a.w - x0 < a.bw ? a.w - x0 : a.bw, h = a.h - y0 < a.bh ? a.h - y0 : a.bh;
  const unsigned long long key = a.keys[b];
  uint32_t sad = gcv_motion_key_sad (key);
  int dx = gcv_motion_key_dx (key), dy = gcv_motion_key_dy (key);
  if (gcv_motion_suppressed (a.threshold_q8, sad, w, h) && (dx != 0 || dy != 0)) {
    uint32_t s = 0;
    for (int i = lane; i < w * h; i += 32) {
      const int x = i % w, y = i / w;
      const int pv = a.p[(size_t) (y0 + y) * a.pitch + x0 + x], cv = a.c[(size_t) (y0 + y) * a.pitch + x0 + x];
      s += (uint32_t) (pv > cv ? pv - cv : cv - pv);
    }
    sad = warp_sum (s);
    dx = dy = 0;
  }
  if (lane == 0) {
    GcvMotionVector v;
    v.x = x0;
    v.y = y0;
    v.dx = dx;
    v.dy = dy;
    v.sad = sad;
    a.vec[b] = v;
  }
}

constexpr const char *kTag = "motionest";

/* The thread layout of k_full for one geometry (plan_full). */
struct FullPlan {
  int ky, R, threads, tiles, pitchw, w4p;
  size_t smem;
};

}                               /* namespace */

struct _GcvMotionCuda {
  int device, width, height;    /* device: current when _new ran */
  size_t pitch, plane_bytes;
  uint8_t *planes;              /* kPlanes x plane_bytes */
  int ref;                      /* slot of P; C is 1 - ref */
  int has_ref;
  int cleared;                  /* the zeroing of the planes is queued (by the first set_reference) */
  size_t max_blocks;
  unsigned long long *keys;
  GcvMotionVector *vec_dev;
  int smem_optin;
  /* k_full's layout for the block size and range of the last full
   * search: plan_full's choice of the window pitch takes 26 to 38 us of
   * host time (2-core development machine), against 0.13 to 0.36 ms of
   * device time for the benchmark's small searches */
  FullPlan plan;
  int plan_key[4];              /* block_width, block_height, range_x, range_y; [0] = 0: none */
  const GcvCancel *cancel;
  cudaEvent_t slice_done[2];    /* the last two slices of a sliced full search */
};

namespace {

const void *const kFullKernels[] = {
  (const void *) k_full<1>, (const void *) k_full<2>, (const void *) k_full<4>, (const void *) k_full<8>,
};

GcvStatus
motion_cuda_alloc (GcvMotionCuda * ctx, GcvError * err)
{
  GcvStatus st;
  const size_t w = (size_t) ctx->width, h = (size_t) ctx->height;

  ctx->pitch = gcv_round_up (w + 16, 128);
  ctx->plane_bytes = gcv_round_up (ctx->pitch * h, 256);
  ctx->max_blocks = ((w + 3) / 4) * ((h + 3) / 4);
  if ((st = gcv_cuda_dev_alloc ((void **) &ctx->planes, ctx->plane_bytes * kPlanes, err, kTag,
              "frames and phase planes")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->keys, ctx->max_blocks * 8, err, kTag, "keys")) != GCV_OK
      || (st = gcv_cuda_dev_alloc ((void **) &ctx->vec_dev, ctx->max_blocks * sizeof (GcvMotionVector), err,
              kTag, "vectors")) != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaDeviceGetAttribute (&ctx->smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx->device),
      err, "motionest: cudaDeviceGetAttribute");
  for (const void *f : kFullKernels)
    GCV_CUDA_TRY (cudaFuncSetAttribute (f, cudaFuncAttributeMaxDynamicSharedMemorySize, ctx->smem_optin), err,
        "motionest: cudaFuncSetAttribute");
  GCV_CUDA_TRY (cudaFuncSetAttribute ((const void *) k_mods, cudaFuncAttributeMaxDynamicSharedMemorySize,
          ctx->smem_optin), err, "motionest: cudaFuncSetAttribute");
  for (cudaEvent_t & ev : ctx->slice_done)
    GCV_CUDA_TRY (cudaEventCreateWithFlags (&ev, cudaEventDisableTiming), err, "motionest: cudaEventCreate");
  return GCV_OK;
}

/* The first set_reference queues the zeroing of every plane before its
 * copy (defined bytes everywhere: the windows read row padding and
 * phase-plane rows no search has written, for candidates that are
 * dropped); a search needs a reference, so it always comes after. */
GcvStatus
clear_once (GcvMotionCuda * ctx, cudaStream_t stream, GcvError * err)
{
  if (!ctx->cleared) {
    GCV_CUDA_TRY (cudaMemsetAsync (ctx->planes, 0, ctx->plane_bytes * kPlanes, stream), err,
        "motionest: cudaMemsetAsync (planes)");
    ctx->cleared = 1;
  }
  return GCV_OK;
}

/* The thread layout of k_full for a geometry: KY, R (rows of thread groups
 * per thread block), threads, tiles, the window pitch and the shared memory.
 * Sized for the largest block and range (interior blocks); clipped blocks
 * and blocks at the frame's edges have fewer candidate groups and use part
 * of it.  Small windows get one thread block per image block and phase,
 * large ones several, each over a band of candidate rows, the keys meeting
 * in the atomicMin: 16x16 blocks at +-32 px integer are 17 x 9 thread
 * groups of 4 x 8 candidates, 153 threads, 8160 thread blocks at 1080p;
 * paper 004's 96x54 blocks at +-96 x +-54 px half-pel are, per phase, 49 x
 * 14 groups in 3 thread blocks of 49 x 5, 4800 thread blocks in all. */
FullPlan
plan_full (const GcvMotionParams * p)
{
  FullPlan pl;
  const int nx = 2 * p->range_x + 1, ny = 2 * p->range_y + 1;
  const int gxn = (nx + 2) / 4 + 1;              /* the alignment adds up to 3 columns */
  const int w4 = (p->block_width + 3) / 4;
  /* cost per candidate row of a thread: ceil (ny / KY) groups, each
   * 4 KY VABSDIFF4 + 6 loads and shifts per block row */
  static const int kys[4] = { 8, 4, 2, 1 };
  int best = 1 << 30;
  pl.ky = 1;
  for (int ky : kys) {
    const int cost = (ny + ky - 1) / ky * (6 + 4 * ky);
    if (cost < best) {
      best = cost;
      pl.ky = ky;
    }
  }
  const int gyn = (ny + pl.ky - 1) / pl.ky;
  int R = kFullThreads / gxn;
  R = R < 1 ? 1 : R > gyn ? gyn : R;
  pl.tiles = (gyn + R - 1) / R;
  pl.R = (gyn + pl.tiles - 1) / pl.tiles;
  pl.threads = (int) gcv_round_up ((size_t) (gxn * pl.R), 32);
  pl.w4p = w4;
  /* window pitch: at least gxn + w4 words; of the next 32 the one whose
   * rows put the fewest threads of a warp in one bank (for the interior
   * layout: thread t reads word (t / gxn) KY pitchw + t % gxn) */
  int best_pad = 0, best_conf = 1 << 30;
  for (int pad = 0; pad < 32; pad++) {
    const int pw = gxn + w4 + pad;
    int conf = 0;
    for (int w0 = 0; w0 < pl.threads; w0 += 32) {
      int cnt[32] = { 0 }, mx = 0;
      for (int t = w0; t < w0 + 32 && t < gxn * pl.R; t++) {
        const int bank = ((t / gxn) * pl.ky * pw + t % gxn) & 31;
        mx = ++cnt[bank] > mx ? cnt[bank] : mx;
      }
      conf += mx;
    }
    if (conf < best_conf) {
      best_conf = conf;
      best_pad = pad;
    }
  }
  pl.pitchw = gxn + w4 + best_pad;
  const size_t win = (size_t) (pl.R * pl.ky + p->block_height - 1) * pl.pitchw;
  pl.smem = (64 + win + (size_t) p->block_height * w4) * 4;
  return pl;
}

/* plan_full of the params, kept for the next search with the same block
 * size and range. */
const FullPlan &
cached_plan (GcvMotionCuda * ctx, const GcvMotionParams * p)
{
  const int key[4] = { p->block_width, p->block_height, p->range_x, p->range_y };
  if (memcmp (key, ctx->plan_key, sizeof (key)) != 0) {
    ctx->plan = plan_full (p);
    memcpy (ctx->plan_key, key, sizeof (key));
  }
  return ctx->plan;
}

}                               /* namespace */

extern "C" void
gcv_motion_cuda_free (GcvMotionCuda * ctx)
{
  if (ctx == NULL)
    return;
  cudaFree (ctx->planes);
  cudaFree (ctx->keys);
  cudaFree (ctx->vec_dev);
  for (cudaEvent_t ev : ctx->slice_done)
    if (ev)
      cudaEventDestroy (ev);
  cudaGetLastError ();
  delete ctx;
}

extern "C" void
gcv_motion_cuda_set_cancel (GcvMotionCuda * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

extern "C" GcvMotionCuda *
gcv_motion_cuda_new (int width, int height, GcvError * err)
{
  if (width < 1 || height < 1 || width > GCV_MOTION_MAX_DIMENSION || height > GCV_MOTION_MAX_DIMENSION) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: frame size %dx%d out of 1x1 .. %dx%d", width, height,
        GCV_MOTION_MAX_DIMENSION, GCV_MOTION_MAX_DIMENSION);
    return NULL;
  }
  return gcv_cuda_backend_new<GcvMotionCuda> (width, height, err, kTag, motion_cuda_alloc, gcv_motion_cuda_free);
}

extern "C" GcvStatus
gcv_motion_cuda_set_reference (GcvMotionCuda * ctx, const GcvPlane * luma, void *stream, GcvError * err)
{
  GcvStatus st;
  if ((st = gcv_cuda_check_device (ctx->device, err, kTag)) != GCV_OK
      || (st = gcv_cuda_luma_check (luma, ctx->width, ctx->height, err, kTag, "reference")) != GCV_OK
      || (st = clear_once (ctx, (cudaStream_t) stream, err)) != GCV_OK
      || (st = gcv_cuda_luma_copy (luma, ctx->planes + ctx->plane_bytes * ctx->ref, ctx->pitch,
              (cudaStream_t) stream, err, kTag)) != GCV_OK)
    return st;
  ctx->has_ref = 1;
  return GCV_OK;
}

extern "C" GcvStatus
gcv_motion_cuda_search (GcvMotionCuda * ctx, const GcvMotionParams * params, const GcvPlane * cur, int row0,
    int row1, GcvMotionVector * vectors, void *stream, GcvError * err)
{
  GcvStatus st;
  if ((st = gcv_cuda_check_device (ctx->device, err, kTag)) != GCV_OK)
    return st;
  const char *why = params ? gcv_motion_params_check (params) : "no parameters";
  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (!ctx->has_ref) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: search without a reference frame (set_reference)");
    return GCV_ERROR_INVALID;
  }
  const int cols = gcv_motion_grid_cols (ctx->width, params), rows = gcv_motion_grid_rows (ctx->height, params);
  if (row1 == -1)
    row1 = rows;
  if (row0 < 0 || row1 < row0 || row1 > rows) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: block rows %d .. %d outside the grid's 0 .. %d", row0,
        row1, rows);
    return GCV_ERROR_INVALID;
  }
  if (vectors == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: search without a vector array");
    return GCV_ERROR_INVALID;
  }
  if ((st = gcv_cuda_luma_check (cur, ctx->width, ctx->height, err, kTag, "current frame")) != GCV_OK)
    return st;

  const int b0 = row0 * cols, b1 = row1 * cols;
  const uint8_t *P = ctx->planes + ctx->plane_bytes * ctx->ref;
  const uint8_t *C = ctx->planes + ctx->plane_bytes * (1 - ctx->ref);
  uint8_t *phases = ctx->planes + ctx->plane_bytes * 2;
  const int sub = (int) params->subpel, step = 4 / sub;
  const FullPlan pl = params->method == GCV_MOTION_METHOD_FULL ? cached_plan (ctx, params) : FullPlan ();
  if (params->method == GCV_MOTION_METHOD_FULL && pl.smem > (size_t) ctx->smem_optin) {
    gcv_error_set (err, GCV_ERROR_INVALID, "motionest: full search needs %zu bytes of shared memory, the "
        "device has %d", pl.smem, ctx->smem_optin);
    return GCV_ERROR_INVALID;
  }
  cudaStream_t s = (cudaStream_t) stream;
  if ((st = gcv_cuda_luma_copy (cur, ctx->planes + ctx->plane_bytes * (1 - ctx->ref), ctx->pitch, s, err,
              kTag)) != GCV_OK)
    return st;
  if (b1 > b0) {
    if (params->method == GCV_MOTION_METHOD_FULL) {
      if (sub > 1) {
        PhaseArgs pa;
        pa.c = C;
        pa.planes = phases;
        pa.plane_bytes = ctx->plane_bytes;
        pa.pitch = (int) ctx->pitch;
        pa.w = ctx->width;
        pa.h = ctx->height;
        pa.y_lo = row0 * params->block_height - params->range_y;
        pa.y_hi = row1 * params->block_height - 1 + params->range_y;
        pa.y_lo = pa.y_lo < 0 ? 0 : pa.y_lo;
        pa.y_hi = pa.y_hi > ctx->height - 1 ? ctx->height - 1 : pa.y_hi;
        pa.subpel = sub;
        pa.step = step;
        dim3 grid ((ctx->width + kPhaseTileX - 1) / kPhaseTileX, (pa.y_hi - pa.y_lo + kPhaseTileY) / kPhaseTileY);
        k_phases<<<grid, dim3 (kPhaseTileX, kPhaseTileY), 0, s>>> (pa);
        GCV_CUDA_LAUNCHED (err, "motionest: k_phases");
      }
      GCV_CUDA_TRY (cudaMemsetAsync (ctx->keys + b0, 0xff, (size_t) (b1 - b0) * 8, s), err,
          "motionest: cudaMemsetAsync (keys)");
      FullArgs fa;
      fa.p = P;
      fa.phase[0] = C;
      for (int q = 1; q < 16; q++)
        fa.phase[q] = phases + (size_t) (q - 1) * ctx->plane_bytes;
      fa.pitch = (int) ctx->pitch;
      fa.w = ctx->width;
      fa.h = ctx->height;
      fa.bw = params->block_width;
      fa.bh = params->block_height;
      fa.cols = cols;
      fa.rx = params->range_x;
      fa.ry = params->range_y;
      fa.subpel = sub;
      fa.step = step;
      fa.b0 = b0;
      fa.rows_per_cta = pl.R;
      fa.pitchw = pl.pitchw;
      fa.w4p = pl.w4p;
      fa.keys = ctx->keys;
      /* one launch, or slices of blocks when a stop request is watched and
       * the search is long (kSliceDiffs) */
      const double block_diffs = (double) params->block_width * params->block_height
          * (2.0 * params->range_x * sub + 1) * (2.0 * params->range_y * sub + 1);
      const int slice = ctx->cancel && block_diffs * (b1 - b0) > kSliceDiffs
          ? (int) (kSliceDiffs / block_diffs) + 1 : b1 - b0;
      for (int s0 = b0, k = 0; s0 < b1; s0 += slice, k++) {
        if (k >= 2) {
          /* the slice before the last is done (the device has one queued) */
          GCV_CUDA_TRY (cudaEventSynchronize (ctx->slice_done[k & 1]), err, "motionest: cudaEventSynchronize");
          if ((st = gcv_cancel_check (ctx->cancel, "motionest", err)) != GCV_OK)
            return st;
        }
        fa.b0 = s0;
        dim3 grid (b1 - s0 < slice ? b1 - s0 : slice, pl.tiles, sub * sub);
        switch (pl.ky) {
          case 8:
            k_full<8><<<grid, pl.threads, pl.smem, s>>> (fa);
            break;
          case 4:
            k_full<4><<<grid, pl.threads, pl.smem, s>>> (fa);
            break;
          case 2:
            k_full<2><<<grid, pl.threads, pl.smem, s>>> (fa);
            break;
          default:
            k_full<1><<<grid, pl.threads, pl.smem, s>>> (fa);
            break;
        }
        GCV_CUDA_LAUNCHED (err, "motionest: k_full");
        if (slice < b1 - b0)
          GCV_CUDA_TRY (cudaEventRecord (ctx->slice_done[k & 1], s), err, "motionest: cudaEventRecord");
      }
    } else {
      ModsArgs ma;
      ma.p = P;
      ma.c = C;
      ma.pitch = (int) ctx->pitch;
      ma.w = ctx->width;
      ma.h = ctx->height;
      ma.bw = params->block_width;
      ma.bh = params->block_height;
      ma.cols = cols;
      ma.rx = params->range_x;
      ma.ry = params->range_y;
      ma.subpel = sub;
      ma.b0 = b0;
      ma.w4p = (params->block_width + 3) / 4;
      ma.keys = ctx->keys;
      int threads = (int) gcv_round_up ((size_t) (2 * params->range_x + 1), 32);
      threads = threads < kModsMinThreads ? kModsMinThreads : threads;
      const size_t smem = (80 + (size_t) params->block_height * ma.w4p) * 4;
      k_mods<<<b1 - b0, threads, smem, s>>> (ma);
      GCV_CUDA_LAUNCHED (err, "motionest: k_mods");
    }
    FinishArgs fi;
    fi.p = P;
    fi.c = C;
    fi.pitch = (int) ctx->pitch;
    fi.w = ctx->width;
    fi.h = ctx->height;
    fi.bw = params->block_width;
    fi.bh = params->block_height;
    fi.cols = cols;
    fi.b0 = b0;
    fi.b1 = b1;
    fi.threshold_q8 = gcv_motion_zero_threshold_q8 (params->zero_threshold);
    fi.keys = ctx->keys;
    fi.vec = ctx->vec_dev;
    const int per = kFinishThreads / 32;
    k_finish<<<(b1 - b0 + per - 1) / per, kFinishThreads, 0, s>>> (fi);
    GCV_CUDA_LAUNCHED (err, "motionest: k_finish");
    GCV_CUDA_TRY (cudaMemcpyAsync (vectors + b0, ctx->vec_dev + b0, (size_t) (b1 - b0) * sizeof (GcvMotionVector),
            cudaMemcpyDeviceToHost, s), err, "motionest: cudaMemcpyAsync (vectors)");
  }
  ctx->ref = 1 - ctx->ref;
  return GCV_OK;
}
