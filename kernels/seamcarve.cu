/* gst-cuda-video: the CUDA backend of seam carving (contract in
 * cpu/seamcarve.h; paper 001, Duarte and Sendag, "Run-time image and video
 * resizing using CUDA-enabled GPUs").  Frames, seams and masks are
 * bit-identical to the CPU backend (cpu/seamcarve_cpu.c) in both modes.
 *
 * Orientation.  Every stage works in its own "working" orientation: the
 * width stage on the image as it is, the height stage on its transpose, so
 * the seam map always runs down the rows (a working row of the height
 * stage is an image column).  A height stage that runs first reads a
 * transposed copy of the frame (buffer X, made by the gather kernel with
 * an identity map); the first stage's output goes straight into the
 * second stage's orientation (buffer Z); the last stage's gather writes the
 * output frame, transposing through shared memory when needed.
 *
 * Working memory (all made in _new, working orientation, one row pitch per
 * stage = round_up (max (input, output columns), 32)):
 *   luma u8         the step input's luma; never carved: a working pixel's
 *                   luma is luma (i, src (i, j))
 *   src[2] s16 (step-input column), en[2] s32 (energy word)   ping-pong: a
 *                   pass reads one and writes the carved image into the other
 *   par s8          parent d in -1 .. 1 of every pixel of the current pass
 *                   (fast mode: its parent order as order_bits' three bits)
 *   et s16          per phase of the seam map and column, the column at the
 *                   previous phase boundary its path comes from ("entry")
 *   bnd_m/bnd_rt    M and root of each phase's last row as tagged 64-bit
 *                   words, two rows (phase parity)
 *   bias s16        B (i, c) of the stage in stage-input coordinates
 *   ss[2] s16       per enlargement step: stage-input column of each pixel
 *   chosen u8       enlargement: the step-input pixels a seam took
 *   smask[stage][2] each stage's seam mask of this and the last frame
 *   path s16        the pass's paths, [seam][row]: exact mode's seam, or
 *                   fast mode's candidates by rank (GCV_SEAM_FAST_TRIES)
 *   best u64        fast mode: per root the smallest (M, j) of its end columns
 *   ekey u64, eroot s32   fast mode: each end column's (M, j) and root
 *   order s32       fast mode: the end columns in candidate order (the first
 *                   GCV_SEAM_FAST_SCAN)
 *   fend/ftop s32, fcost u64   fast mode: per candidate its end column, the
 *                   highest row its path reached, a whole path's cost
 *   pixel images X, Y, Z (every plane, `channels` bytes a pixel)
 * The energy word: gradient modes keep E (i, j) = e + B as an int; forward
 * energy keeps B + CU in the low 16 bits (signed) and the two extra costs
 * |L(i-1,j) - L(i,j-1)| and |L(i-1,j) - L(i,j+1)| in bits 16..23 and
 * 24..31, so that M (i, j) = (B + CU) + min (M(i-1,j-1) + dl, M(i-1,j),
 * M(i-1,j+1) + dr): the contract's min over M + C_d minus the common CU,
 * which changes no comparison (gcv_seam_forward_cost is CU + dl / CU /
 * CU + dr).
 *
 * One step (a reduction stage, or one enlargement step) is: k_bias (once per
 * stage), k_init (luma, src, energy of the step's input), then ONE
 * cooperative launch of k_passes, which loops over the passes on the device
 * until the step has its seams (fast mode finds a data-dependent number per
 * pass, so the host cannot know how many passes there will be), then the
 * gather (reduction) or k_insert (enlargement).  Inside k_passes a pass is
 *   DP      the seam map (eq. 2), bands of columns, neighbour-only waits
 *   --- grid barrier ---
 *   exact mode:
 *   TRACE   backtrack the seam, mark the masks
 *   fast mode (cpu/seamcarve.h, "One pass"):
 *   ORDER   rank the end columns within the limit into candidate order
 *   --- grid barrier ---
 *   TRACE   one warp: take the candidates, trace their paths (a pipeline,
 *           candidate k one step of 4 rows behind candidate k - 1)
 *   --- grid barrier ---
 *   COST    the cost of every whole path
 *   --- grid barrier ---
 *   then, both modes:
 *   CARVE   (fast mode: every block first picks the P cheapest paths)
 *           remove the seams row by row into the other buffer, recompute
 *           the energy beside each removed pixel (fast mode: and mark them)
 *   --- grid barrier ---
 * When a cooperative launch cannot hold every band of the seam map at once
 * (no cooperative launch, too few SMs) the same device functions run as
 * separate kernels: one launch per seam-map phase, the host looping over
 * the passes (reading the number of seams still wanted back in fast mode).
 * GCV_SEAM_CUDA_FALLBACK=1 forces that path (for tests).
 *
 * Bounded waits.  The pass loop waits on the device: at grid barriers for
 * every block, in the seam map for the neighbour bands.  Should a block
 * never come (not resident with the others, or gone from the loop early:
 * a fault), those waits would spin for ever and the GPU's stream with
 * them.  So a wait that has lasted GCV_SEAM_CUDA_WATCHDOG_MS (5 s; the
 * environment variable of that name changes it, 0 turns it off) gives up:
 * the first to give up sets DevState.abort, which every other wait sees
 * within some microseconds, and writes what it waited for into the
 * context's GcvSeamWatch, page-locked host memory mapped into the device,
 * so the host reads it without a copy.  The launch then ends; the frame's
 * output is garbage, and gcv_seam_cuda_check() and every later
 * gcv_seam_cuda_process() return the error.  The waits read the global
 * timer only every 64 polls: a wait that succeeds costs nothing more.
 * GCV_SEAM_CUDA_FAULT=barrier makes the last block leave the pass loop
 * at the second pass (for the test of this path).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "seamcarve.h"
#include "gcv-cuda-check.h"

namespace {

/* ---- sizes ------------------------------------------------------------------------ */

/* Seam map: a warp computes kWarpCols = 32 lanes x kCpl consecutive
 * columns; the middle kB are its band's own, kR on each side are halo,
 * recomputed.  kR rows per phase (the halo shrinks by one column per row,
 * so after kR rows exactly the own columns are right).  kD rows of energy
 * are loaded ahead.  Measured on an H100 (1080p, 192 seams, exact):
 * kCpl = 4 (128 columns, 32-row phases) 150 us a seam, kCpl = 2 (64
 * columns, 16-row phases) 171 us: a row costs some 200 cycles either way,
 * and two columns a lane double the phase boundaries.  (Counted later in
 * the SASS: a row's time is the warp's instruction count, about 3 cycles
 * an instruction; dp_band keeps that count low.) */
#ifndef GCV_SEAM_CPL
#define GCV_SEAM_CPL 4
#endif
constexpr int kLanes = 32;
constexpr int kCpl = GCV_SEAM_CPL;              /* 2 or 4 */
constexpr int kWarpCols = kLanes * kCpl;        /* 64 or 128 */
constexpr int kR = kWarpCols / 4;               /* 16 or 32 */
constexpr int kB = kWarpCols - 2 * kR;          /* 32 or 64 */
constexpr int kD = 8;
static_assert (kCpl == 2 || kCpl == 4, "two or four columns per lane");
static_assert (kB >= kR, "a band's halo must come from its two neighbours only");
static_assert (kR % kD == 0 && kR % 4 == 0 && kB % 4 == 0, "band geometry");

constexpr int kThreads = 256;                   /* k_passes and the row kernels */
constexpr int kFastTries = GCV_SEAM_FAST_TRIES;
static_assert (kFastTries == 32, "fast mode's candidates are the lanes of one warp");
constexpr int kWarps = kThreads / kLanes;
constexpr int kInf = 1 << 30;                   /* > any |M| (< 2^31 / 2 here), + 510 does not overflow */
constexpr int kChooseTile = 2048;               /* keys per shared-memory tile when ranking */
constexpr unsigned long long kNoKey = ~0ull;
constexpr int kMaxPhases = (GCV_SEAM_MAX_DIMENSION + kR - 1) / kR;
constexpr int kChainD = 8;                      /* backtracking: phases resolved per round of loads */
constexpr int kChainWin = kChainD + kR * kChainD * (kChainD - 1);    /* sum of (2 kR d + 1), d < kChainD */
constexpr int kChainU = (kChainWin + kThreads - 1) / kThreads;     /* window entries per thread */
constexpr int kWalkD = 8;                       /* backtracking: rows resolved per round of loads */
constexpr int kCarveU = 16;                     /* carving: columns per lane loaded before storing */
constexpr int kCarveU1 = 24;                    /* the same with one seam (exact mode) */
constexpr int kMarkU = 8;                       /* backtracking: rows per thread marked together */
constexpr int kParPad = 64;                     /* bytes after the parents: a prefetch of a row narrower than
                                                 * its chunks reads past it */

/* Fast mode's trace warp (fast_trace): lane k traces candidate k, U rows a
 * step, one step behind lane k - 1.  Per lane a ring of R + 1 rows of
 * parent codes around its path: rows are loaded (cp.async) once the path's
 * column R rows below them is known, the 2 R + 1 columns around it (the
 * path moves one column a row) in `chunks` 16-byte chunks from chunk0, any
 * alignment.  hist: every path's column in the last 32 U rows (the most
 * rows between lane 0 writing and lane 31 reading), kGone in the rows its
 * path did not reach, int16 (columns < 2^15).
 * What a step costs, measured (ncu on an H200, 1080p, the fallback path's
 * k_fast_trace alone): the warp issues an instruction every 3.6 cycles in
 * every variant (5.2 on an H100), so a step's time is its instruction
 * count: 490 for four rows at first, 370 once the blockers' rows came as
 * vector loads and the three compares as one table load; then the next
 * rows' loads moved under the first row's parent-code load.  The time
 * does not follow the loads' latency or number (R = 7 and 15 within 2%).
 * Measured again on an H100 (ncu's stall sampling of k_fast_trace, after
 * the row chain below was shortened): a third of the samples wait at the
 * step's cp.async wait, for the rows the step before asked for: 32 lanes'
 * rows are 32 lines an instruction, 8 instructions a step; through L1
 * (cp_async16<true>: the next lane reads the same rows a step later) that
 * took 2% off the pass, and 4,15 (three chunks, three steps ahead) is
 * still 4% slower than 4,7.
 * Variants, chosen per context by GCV_SEAM_TRACE=U,R (tuning only): 4,7
 * (two chunks a row) is the default, 4,15 (three chunks) slower; 8 rows
 * a step was slower again (the 31-step pipeline fill grows with U), 2
 * rows too (the step's fixed part). */
constexpr int kGone = -1;
constexpr int kLutSize = 128;                  /* fast_step_index's table: 3 order bits x 16 bounds */
template <int U, int R> struct FastTrace {
  static constexpr int kRows = U, kReach = R;   /* GCV_SEAM_TRACE=kRows,kReach */
  static constexpr int kRing = R + 1;
  static constexpr int kChunks = (2 * R + 1 + 15 + 15) / 16;
  static constexpr int kHist = 32 * U;
  static constexpr int kAhead = (R + 1) / U - 1;       /* steps of rows loaded ahead */
  static_assert ((kRing & (kRing - 1)) == 0 && (kHist & (kHist - 1)) == 0, "rings are powers of two");
  static_assert (16 * kChunks >= 2 * R + 16, "a prefetched row must hold the path's reach");
  static_assert (U == 2 || U == 4 || U == 8, "a step's rows are one 4, 8 or 16-byte vector of int16");
  static_assert ((R + 1) % U == 0 && kAhead >= 1, "the ring holds whole steps, more than one");
  /* Row r of the rings lives in slot (r - 1) mod size, so the U rows of a
   * full step (i .. i - U + 1, i a multiple of U) are U consecutive slots
   * from a multiple of U: one vector load.  Per-lane rows are padded by
   * U int16, which spreads the lanes' vectors over the banks. */
  struct Smem {
    int4 ring[kRing][kFastTries][kChunks];
    int16_t c0s[kFastTries][kRing + U];         /* chunk0 of each ring row */
    int16_t hist[kFastTries][kHist + U];
    int end[kFastTries];
    uint8_t lut[kLutSize];      /* fast_step_index's table: the step + 1, or kLutNone */
  };
};

/* U int16 at p (aligned to 2 U bytes) as U / 2 words, element e in the
 * low (even e) or high half of word e / 2; and back. */
template <int U> __device__ __forceinline__ void
load_halves (const int16_t *p, unsigned *wd)
{
  if constexpr (U == 2) {
    wd[0] = *(const unsigned *) p;
  } else if constexpr (U == 4) {
    const uint2 t = *(const uint2 *) p;
    wd[0] = t.x;
    wd[1] = t.y;
  } else {
    const uint4 t = *(const uint4 *) p;
    wd[0] = t.x;
    wd[1] = t.y;
    wd[2] = t.z;
    wd[3] = t.w;
  }
}

template <int U> __device__ __forceinline__ void
store_halves (int16_t *p, const unsigned *wd)
{
  if constexpr (U == 2)
    *(unsigned *) p = wd[0];
  else if constexpr (U == 4)
    *(uint2 *) p = make_uint2 (wd[0], wd[1]);
  else
    *(uint4 *) p = make_uint4 (wd[0], wd[1], wd[2], wd[3]);
}

__device__ __forceinline__ int
half_at (const unsigned *wd, int e)
{
  return (int) (short) (e & 1 ? wd[e >> 1] >> 16 : wd[e >> 1] & 0xffffu);
}

/* Byte permute (PTX prmt, default mode): byte n of the result is byte
 * (sel >> 4 n & 7) of {b, a} (a's bytes 0 .. 3, b's 4 .. 7), or, with
 * bit 3 of that nibble set, that byte's top bit repeated (0x00 / 0xff). */
__device__ __forceinline__ unsigned
prmt (unsigned a, unsigned b, unsigned sel)
{
  unsigned d;
  asm ("prmt.b32 %0, %1, %2, %3;" : "=r" (d) : "r" (a), "r" (b), "r" (sel));
  return d;
}

/* Fast mode's parent order as the seam map stores it: per cell k (byte k
 * of the word, C cells) three bits from the M of its parents l, m, r (d =
 * -1, 0, +1): bit 4 = m < l, bit 5 = r < l, bits 6..7 = r < m (bits
 * 0..3 are don't-care), taken from the signs of dml = m - l, drl = r - l
 * and drm = r - m.  That is the whole order (ties keep d's order, as the
 * contract's parent code): see order_step.  Bits 4..6 are where the
 * trace's step table wants them (kOrderMask).  Eleven instructions for
 * four cells, where deriving the code (d, second) with compares and
 * selects took some fifty. */
template <int C> __device__ __forceinline__ unsigned
order_bits (const int *dml, const int *drl, const int *drm)
{
  auto signs = [] (const int *v) -> unsigned {
    /* byte k = the sign of v[k] as 0x00 / 0xff */
    if constexpr (C == 2) {
      return prmt ((unsigned) v[0], (unsigned) v[1], 0x00fbu);
    } else {
      const unsigned lo = prmt ((unsigned) v[0], (unsigned) v[1], 0x00fbu);
      const unsigned hi = prmt ((unsigned) v[2], (unsigned) v[3], 0x00fbu);
      return prmt (lo, hi, 0x5410u);
    }
  };
  const unsigned s1 = signs (dml), s2 = signs (drl), s3 = signs (drm);
  const unsigned x = (s1 & 0x10101010u) | (s2 & ~0x10101010u);
  return (x & 0x3f3f3f3fu) | (s3 & ~0x3f3f3f3fu);
}

/* The d of rank k (0 = first) in the parent order of `bits`, order_bits'
 * bits 4..6 shifted down (bit 0 = m < l, 1 = r < l, 2 = r < m): a stable
 * sort of l, m, r by M, so each one's rank is the number of parents
 * before it.  The two cyclic combinations (never stored) give -1. */
__device__ __forceinline__ int
order_step (int bits, int k)
{
  const int ml = bits & 1, rl = bits >> 1 & 1, rm = bits >> 2 & 1;
  const int rank_l = ml + rl, rank_m = 1 - ml + rm, rank_r = 2 - rl - rm;
  return rank_m == k && rank_l != k ? 0 : rank_r == k && rank_l != k && rank_m != k ? 1 : -1;
}

/* The step of a path from column x, its cell's byte `code` of order_bits
 * and its bounds lo .. hi (the first d of the parent order with lo <= x +
 * d <= hi), plus one: lut[(code & kOrderMask) | step_bounds (x, lo, hi)]
 * with step_bounds = (A + 1) << 2 | (B + 2), A = lo - x clamped to -1 ..
 * 2 and B = hi - x clamped to -2 .. 1 (beyond those the answer does not
 * change); kLutNone when no d fits: one shared-memory load for the three
 * compares in order. */
constexpr int kLutNone = 3;
constexpr unsigned kOrderMask = 0x70;

__device__ __forceinline__ unsigned
step_bounds (int x, int lo, int hi)
{
  const int A = min (max (lo - x, -1), 2), B = min (max (hi - x, -2), 1);
  return (unsigned) ((A + 1) << 2 | (B + 2));
}

/* step_bounds of x - 1, x and x + 1 in bytes 0, 1 and 2 (byte 3 zero):
 * the next row's, whichever way the path moves, picked by its table entry
 * (prmt) once that is loaded */
__device__ __forceinline__ unsigned
step_bounds3 (int x, int lo, int hi)
{
  return step_bounds (x - 1, lo, hi) | step_bounds (x, lo, hi) << 8 | step_bounds (x + 1, lo, hi) << 16;
}

__device__ __forceinline__ int
fast_step_index (int code, int x, int lo, int hi)
{
  return (int) (((unsigned) code & kOrderMask) | step_bounds (x, lo, hi));
}

/* the variants built (PassArgs.trace 0 and 1), GCV_SEAM_TRACE's values;
 * the first is the default */
using FastTraceA = FastTrace<4, 7>;
using FastTraceB = FastTrace<4, 15>;

constexpr int
cmax (int x, int y)
{
  return x > y ? x : y;
}

/* shared memory of k_passes: the largest of its parts */
constexpr int kChooseSmem = kChooseTile * 8;
constexpr int kTraceSmem = (kMaxPhases + 4) * 4 + kChainWin * 2 + kThreads * kWalkD * kWalkD + 16;
constexpr int kCarveSmem = kWarps * 3 * kFastTries * 2 + (kFastTries + 1) * 4;
constexpr int kFastSmem = (int) cmax (sizeof (FastTraceA::Smem), sizeof (FastTraceB::Smem));
constexpr int kDpWarp = (kD + 1) * kWarpCols;     /* ints of a band's shared memory: ring + roots */
constexpr int kDpSmem = kWarps * kDpWarp * 4;
constexpr int kPassSmemExact = cmax (cmax (kTraceSmem, kCarveSmem), kDpSmem);
constexpr int kPassSmemFast = cmax (cmax (cmax (kChooseSmem, kFastSmem), kCarveSmem), kDpSmem);
static_assert (kPassSmemFast <= 48 * 1024 && kPassSmemExact <= 48 * 1024, "k_passes shared memory must stay static");

constexpr int kTileX = 64, kTileY = 8;          /* k_init: the paper's 64 x 8 tile */

/* ---- device state ----------------------------------------------------------------- */

/* What a wait waited for when it gave up ("Bounded waits"). */
enum { kWaitBarrier = 1, kWaitBand = 2 };

/* Written once, by the first wait that gives up, into page-locked host
 * memory the device sees (tripped last). */
struct GcvSeamWatch {
  unsigned tripped;
  int what;                     /* kWaitBarrier / kWaitBand */
  int block, grid;              /* the waiting block, of so many */
  int pass, where;              /* the pass; the barrier's number in it, or the band */
  int phase;                    /* kWaitBand: the seam-map phase waited for */
  unsigned arrived, exited;     /* blocks at the barrier, blocks gone from the loop */
  unsigned long long waited_ns;
};

struct DevState {
  unsigned bar_count, bar_gen;  /* grid barrier */
  unsigned abort;               /* a wait gave up (sticky; see "Bounded waits") */
  unsigned exited;              /* blocks that left k_passes this launch */
  unsigned n_cand;              /* fast mode: end columns within the limit */
  int nc;                       /* fast mode: candidates of the pass */
  long long limit;              /* fast mode: the most a seam of the pass may cost */
  int nf;                       /* seams found by the pass (fallback path) */
  unsigned long long best_all;  /* min (M, j) of the last row (exact mode's seam; fast mode's m0) */
  int w, left, parity, pass;    /* the step's progress (fallback path; parity: where the result is) */
  int passes, seams;            /* totals of the frame (profiling) */
  unsigned long long t_dp, t_trace, t_carve;    /* ns inside k_passes (profiling) */
  unsigned long long cyc_wait, cyc_band;        /* profiling: a middle band's cycles waiting / in all */
  unsigned long long t_sync;    /* profiling: ns block 0 spent in grid barriers */
  unsigned long long t_walk;    /* profiling (debug): ns in the fast trace warp */
  unsigned long long t_cand;    /* profiling (debug): ns of it choosing the candidates */
  unsigned long long t_rank, t_costs;   /* profiling (debug): ns ranking the end columns, summing the paths */
};

/* One step's pass loop. */
struct PassArgs {
  int h, w0, pitch, nph;        /* rows, columns at the start, row pitch, seam-map phases */
  int left0;                    /* seams the step wants */
  int energy;                   /* GcvSeamEnergy (carve's energy update) */
  int spp;                      /* fast mode: seams per pass */
  int enlarge, has_bias, has_ss;
  const uint8_t *luma;          /* the step input's luma (never carved: read through src) */
  int16_t *src[2];
  int *en[2];
  int8_t *par;
  int16_t *et;
  unsigned long long *bnd_m, *bnd_rt;   /* tagged boundary words: phase tag << 32 | value */
  const int16_t *bias;          /* stage-input coordinates */
  const int16_t *ss;            /* step-input column -> stage-input column (has_ss) */
  uint8_t *chosen;              /* enlarge: step-input coordinates */
  uint8_t *smask;               /* this frame's stage mask */
  unsigned long long *best;     /* fast mode: per root its cheapest (M, j) */
  unsigned long long *ekey;     /* fast mode: per end column (M, j) */
  int *eroot;                   /* fast mode: per end column its root */
  int *order;                   /* fast mode: candidate order, GCV_SEAM_FAST_SCAN columns */
  int *fend, *ftop;             /* fast mode: per candidate its end column, highest row */
  unsigned long long *fcost;    /* fast mode: per candidate its whole path's cost (two's complement) */
  int16_t *path;                /* [candidate][row]: path k's row i at k * path_pitch + i */
  int path_pitch;               /* a multiple of 8 (fast_trace's aligned stores) */
  int trace;                    /* fast mode: the trace variant (FastTrace, GCV_SEAM_TRACE) */
  DevState *st;
  int profile;
  GcvSeamWatch *watch;          /* host memory, mapped: why a wait gave up */
  unsigned long long watch_ns;  /* a wait gives up after this long; 0 never */
  int fault;                    /* GCV_SEAM_CUDA_FAULT=barrier (tests) */
};

/* Pixels of one image in working orientation: plane q's pixel (i, c) at
 * p[q] + i * stride + c * CH. */
struct View {
  const uint8_t *p[GCV_SEAM_MAX_PLANES];
  size_t stride[GCV_SEAM_MAX_PLANES];
  int aligned;                  /* CH = 4: every pixel of every plane 4-byte aligned */
};

struct Dest {
  uint8_t *p[GCV_SEAM_MAX_PLANES];
  size_t stride[GCV_SEAM_MAX_PLANES];
  int aligned;
};

struct LumaSpec {
  int layout, r, g, b;
};

/* ---- small device helpers --------------------------------------------------------- */

__device__ __forceinline__ void
st_release (unsigned *p, unsigned v)
{
  asm volatile ("st.release.gpu.global.u32 [%0], %1;" :: "l" (p), "r" (v) : "memory");
}

__device__ __forceinline__ unsigned
ld_relaxed (const unsigned *p)
{
  unsigned v;
  asm volatile ("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r" (v) : "l" (p) : "memory");
  return v;
}

__device__ __forceinline__ void
st_relaxed (unsigned *p, unsigned v)
{
  asm volatile ("st.relaxed.gpu.global.u32 [%0], %1;" :: "l" (p), "r" (v) : "memory");
}

__device__ __forceinline__ unsigned
atom_add_acq_rel (unsigned *p, unsigned v)
{
  unsigned old;
  asm volatile ("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r" (old) : "l" (p), "r" (v) : "memory");
  return old;
}

__device__ __forceinline__ void
fence_acq_rel ()
{
  asm volatile ("fence.acq_rel.gpu;" ::: "memory");
}

/* Two 64-bit words, each single-copy atomic, no ordering. */
__device__ __forceinline__ ulonglong2
ld_relaxed_v2 (const unsigned long long *p)
{
  ulonglong2 v;
  asm volatile ("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l" (v.x), "=l" (v.y) : "l" (p) : "memory");
  return v;
}

__device__ __forceinline__ void
st_relaxed_v2 (unsigned long long *p, unsigned long long x, unsigned long long y)
{
  asm volatile ("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" :: "l" (p), "l" (x), "l" (y) : "memory");
}

/* 16 bytes global -> shared, asynchronous (LDGSTS), and its groups.
 * cp.async needs sm_80; older GPUs (the sm_75 build) copy synchronously
 * through registers, and the group calls become compiler barriers.
 * L1: through L1 (cp.async.ca), for data the same SM reads again soon and
 * nobody writes between two grid barriers (whose acquire invalidates L1);
 * otherwise L2 only (cp.async.cg). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define GCV_SEAM_SYNC_COPY 1
#endif

template <bool L1 = false> __device__ __forceinline__ void
cp_async16 (void *smem_dst, const void *gmem_src)
{
#ifdef GCV_SEAM_SYNC_COPY
  *(int4 *) smem_dst = L1 ? *(const int4 *) gmem_src : __ldcg ((const int4 *) gmem_src);
#else
  const unsigned d = (unsigned) __cvta_generic_to_shared (smem_dst);
  if (L1)
    asm volatile ("cp.async.ca.shared.global [%0], [%1], 16;" :: "r" (d), "l" (gmem_src) : "memory");
  else
    asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;" :: "r" (d), "l" (gmem_src) : "memory");
#endif
}

__device__ __forceinline__ void
cp_async_commit ()
{
#ifdef GCV_SEAM_SYNC_COPY
  asm volatile ("" ::: "memory");
#else
  asm volatile ("cp.async.commit_group;" ::: "memory");
#endif
}

template <int N> __device__ __forceinline__ void
cp_async_wait ()
{
#ifdef GCV_SEAM_SYNC_COPY
  asm volatile ("" ::: "memory");
#else
  asm volatile ("cp.async.wait_group %0;" :: "n" (N) : "memory");
#endif
}

__device__ __forceinline__ void
cp_async_wait_all ()
{
#ifdef GCV_SEAM_SYNC_COPY
  asm volatile ("" ::: "memory");
#else
  asm volatile ("cp.async.wait_all;" ::: "memory");
#endif
}

__device__ __forceinline__ unsigned long long
global_ns ()
{
  unsigned long long t;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l" (t));
  return t;
}

/* Called by a waiting thread every 64 polls: whether to give up, because
 * another wait did (DevState.abort) or because this one, begun at *t0 (0:
 * at this call), has lasted a.watch_ns.  The first to give up records why
 * in *a.watch (see "Bounded waits"). */
__device__ __noinline__ bool
wait_gives_up (const PassArgs & a, unsigned long long *t0, int what, int pass, int where, int phase)
{
  if (ld_relaxed (&a.st->abort) != 0u)
    return true;
  const unsigned long long t = global_ns ();
  if (*t0 == 0) {
    *t0 = t;
    return false;
  }
  if (a.watch_ns == 0 || t - *t0 < a.watch_ns)
    return false;
  if (atomicCAS (&a.st->abort, 0u, 1u) == 0u) {
    volatile GcvSeamWatch *w = a.watch;
    w->what = what;
    w->block = blockIdx.x;
    w->grid = gridDim.x;
    w->pass = pass;
    w->where = where;
    w->phase = phase;
    w->arrived = ld_relaxed (&a.st->bar_count);
    w->exited = ld_relaxed (&a.st->exited);
    w->waited_ns = t - *t0;
    __threadfence_system ();
    w->tripped = 1u;
    __threadfence_system ();
  }
  return true;
}

/* Grid-wide barrier of a cooperative launch (every block resident).
 * Thread 0 of each block arrives with an acq_rel add (releasing what its
 * block wrote before the __syncthreads); the last to arrive resets the
 * count and bumps the generation (release), the others spin on it relaxed
 * and then fence (acquire).  No sequentially consistent fence: __threadfence
 * is one (membar.gl) and costs microseconds on a busy chip.  FALSE when a
 * wait gave up (the block must leave the kernel); `where` numbers the
 * barrier within the pass for that report. */
__device__ __forceinline__ bool
grid_sync (const PassArgs & a, int pass, int where)
{
  DevState *st = a.st;
  __shared__ bool gave_up;

  __syncthreads ();
  if (threadIdx.x == 0) {
    gave_up = false;
    const unsigned gen = ld_relaxed (&st->bar_gen);
    if (atom_add_acq_rel (&st->bar_count, 1u) == gridDim.x - 1) {
      st_relaxed (&st->bar_count, 0u);
      st_release (&st->bar_gen, gen + 1);
    } else {
      unsigned long long t0 = 0;
      for (unsigned polls = 1; ld_relaxed (&st->bar_gen) == gen; polls++) {
        if ((polls & 63) == 0 && wait_gives_up (a, &t0, kWaitBarrier, pass, where, 0)) {
          gave_up = true;
          break;
        }
      }
      fence_acq_rel ();
    }
  }
  __syncthreads ();
  return !gave_up;
}

/* (M, j) as one unsigned key ordered like the contract: M first (signed),
 * then the column. */
__device__ __forceinline__ unsigned long long
make_key (int m, int j)
{
  return (unsigned long long) ((unsigned) m ^ 0x80000000u) << 32 | (unsigned) j;
}

/* The energy word of a pixel from its clamped neighbours' luma (see the
 * file comment); has_up: i > 0 (forward energy's extra costs). */
__device__ __forceinline__ int
energy_word (int energy, int l, int r, int u, int d, int bias, bool has_up)
{
  if (energy == GCV_SEAM_ENERGY_FORWARD) {
    const int cu = r > l ? r - l : l - r;
    const unsigned dl = has_up ? (unsigned) (u > l ? u - l : l - u) : 0u;
    const unsigned dr = has_up ? (unsigned) (u > r ? u - r : r - u) : 0u;
    return (int) (((unsigned) (bias + cu) & 0xffffu) | dl << 16 | dr << 24);
  }
  return gcv_seam_pixel_energy ((GcvSeamEnergy) energy, l, r, u, d) + bias;
}

template <int CH> __device__ __forceinline__ uint32_t
load_px (const uint8_t * base, size_t stride, int aligned, int i, int c)
{
  const uint8_t *p = base + (size_t) i * stride + (size_t) c * CH;
  if (CH == 1)
    return __ldg (p);
  if (aligned)
    return __ldg ((const uint32_t *) p);
  return (uint32_t) __ldg (p) | (uint32_t) __ldg (p + 1) << 8 | (uint32_t) __ldg (p + 2) << 16
      | (uint32_t) __ldg (p + 3) << 24;
}

template <int CH> __device__ __forceinline__ void
store_px (uint8_t * base, size_t stride, int aligned, int i, int c, uint32_t v)
{
  uint8_t *p = base + (size_t) i * stride + (size_t) c * CH;
  if (CH == 1) {
    *p = (uint8_t) v;
  } else if (aligned) {
    *(uint32_t *) p = v;
  } else {
    p[0] = (uint8_t) v;
    p[1] = (uint8_t) (v >> 8);
    p[2] = (uint8_t) (v >> 16);
    p[3] = (uint8_t) (v >> 24);
  }
}

/* Luma of plane 0's pixel v (GcvLumaInput rules, gcv_seam_luma). */
template <int CH> __device__ __forceinline__ int
luma_of (uint32_t v, const LumaSpec & ls)
{
  unsigned char b[4] = { (unsigned char) v, (unsigned char) (v >> 8), (unsigned char) (v >> 16),
    (unsigned char) (v >> 24) };
  if (CH == 1)
    return b[0];
  return gcv_seam_luma (b, (GcvLumaLayout) ls.layout, ls.r, ls.g, ls.b);
}

/* #{k < n : t[k] <= j} for t non-decreasing (shared memory). */
__device__ __forceinline__ int
count_le (const int16_t * t, int n, int j)
{
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (t[mid] <= j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* ---- the seam map (eq. 2) ------------------------------------------------------------- */

/* DP of one band (paper sec. 4.3, which launched one kernel per row and
 * lost 57% of the time to launches; here the CPU version's "local
 * barriers" of sec. 4.1.2 instead: a band waits only for its two
 * neighbours, once per kR rows).
 *
 * One warp, band b: lane l holds columns c0 .. c0 + kCpl - 1, c0 = b kB -
 * kR + kCpl l (with kCpl = 4: lanes 8..23 the band's own kB = 64 columns,
 * 0..7 and 24..31 the halo of kR = 32 columns per side), in registers: M
 * and the entry column (where the path of the pixel crossed the previous
 * phase boundary).  Per row each lane exchanges its edge values with its
 * neighbours (shuffles), takes the minimum of the three candidates and
 * then the first of d = -1, 0, +1 equal to it, and writes the own columns'
 * parents as one word of kCpl int8 (a warp: 64 consecutive bytes).  Fast
 * mode's roots (row-0 columns) are not carried row by row: at the end of
 * a phase a column's root is the previous boundary's root at its entry
 * column, which lies within the warp's columns; the warp keeps those roots
 * (loaded with the boundary) in shared memory.  Columns outside the image
 * hold kInf; halo cells whose inputs left the warp go wrong one column per
 * row from the edge (the trapezoid), so after kR rows the own columns are
 * exact.  The energy rows come straight from L2 as one int4 per lane, kD
 * rows ahead of use (registers, no shared memory).  Only kD rows are
 * unrolled: the whole phase unrolled (some 50 KB of code) ran three times
 * slower on an H100, out of the instruction cache.
 *
 * Synchronisation without fences or flags: at the end of phase p the own
 * columns' M (and root) go to bnd_*[p & 1] as 64-bit words tag << 32 |
 * value, tag = seq0 + p + 1 (unique and increasing over the launch), with
 * relaxed stores; a lane that needs them at the start of phase p + 1
 * polls its four words (relaxed loads) until every tag is right.  Only the
 * values in the words themselves are used, so no ordering with other data
 * is needed; a band thus waits only for the columns it reads, i.e. for
 * its neighbours b - 1 and b + 1 to finish phase p.  They have then also
 * read bnd_*[(p - 1) & 1], so two boundary rows suffice.  The last phase
 * makes the candidates instead: the min (M, j) of the last row (atomicMin
 * on 64 bits), and in fast mode every column's (M, j) and root and per
 * root the best (M, j) of its end columns.  Fast mode also writes each
 * cell's parent order (order_bits: the same order as the contract's
 * gcv_seam_parent_code, in fewer instructions) instead of d.  The fallback
 * (wait = false) runs one phase per launch and trusts the words. */
template <bool FWD, bool FAST> __device__ __forceinline__ void
dp_band (const PassArgs & a, int band, int w, int cur, unsigned seq0, int pb, int pe, bool wait, int *ring)
{
  const int lane = threadIdx.x & (kLanes - 1);
  const int h = a.h, pitch = a.pitch, nph = a.nph;
  const int cw0 = band * kB - kR;               /* the warp's first column */
  const int c0 = cw0 + kCpl * lane;
  const bool live = c0 >= 0 && c0 < w;
  const bool own = live && lane >= kR / kCpl && lane < (kR + kB) / kCpl;
  const int *E = a.en[cur];
  bool inimg[kCpl];
#pragma unroll
  for (int k = 0; k < kCpl; k++)
    inimg[k] = live && c0 + k < w;
  /* a cell outside the image stays >= kInf: M = max (E + best, floor_m),
   * a register per cell instead of a select on a predicate (the compiler
   * re-made the four predicates every row).  Such a cell's M grows by at
   * most its (stale) E a row and restarts at kInf every phase, so nothing
   * overflows, and an image cell never takes it: its own column's M is
   * < kInf, and the parents outside the frame are never stepped to. */
  int floor_m[kCpl];
#pragma unroll
  for (int k = 0; k < kCpl; k++)
    floor_m[k] = inimg[k] ? INT_MIN : kInf;
  const bool probe = a.profile && lane == 0 && band == (w + kB - 1) / kB / 2;
  const long long t_begin = probe ? clock64 () : 0;
  long long t_wait = 0;

  /* the energy ring: kD rows of the warp's kWarpCols columns in flight,
   * 16-byte cp.async chunks (lane q copies columns cw0 + 4q .. + 3; dead
   * chunks read column 0, rows past the end the padding) into the warp's
   * kD x kWarpCols ints of shared memory, one commit group per row.  In
   * registers the compiler hoisted each row's load above the last use of
   * its slot and copied it over at the end of the row, waiting for it:
   * one L2 round trip per row. */
  constexpr int kChunks = kWarpCols / 4;
  const bool copier = lane < kChunks;
  const int cq = cw0 + 4 * lane;
  const int *Ecol = E + (copier && cq >= 0 && cq < w ? cq : 0);
  int *cslot = ring + 4 * lane;                 /* this lane's chunk in a row of the ring */
  const int *rslot = ring + kCpl * lane;        /* this lane's columns in a row of the ring */
  int *proot = ring + kD * kWarpCols;           /* fast mode: the roots at the previous boundary */
#pragma unroll
  for (int q = 0; q < kD; q++) {
    if (copier)
      cp_async16 (cslot + q * kWarpCols, Ecol + (size_t) min (pb * kR + q, h - 1) * pitch);
    cp_async_commit ();
  }
  int m[kCpl], en[kCpl], rt[kCpl];
#pragma unroll
  for (int k = 0; k < kCpl; k++)
    m[k] = en[k] = rt[k] = 0;

  for (int p = pb; p < pe; p++) {
    const int r0 = p * kR;
    if (p > 0) {
      const unsigned want = seq0 + (unsigned) p;
      const size_t off = (size_t) ((p - 1) & 1) * pitch + c0;
      unsigned long long wm[kCpl], wr[kCpl];
      bool gave_up = false;
#pragma unroll
      for (int k = 0; k < kCpl; k++)
        wm[k] = wr[k] = 0;
      if (live) {
        const long long t0 = probe ? clock64 () : 0;
        unsigned long long since = 0;
        for (unsigned polls = 1;; polls++) {
          bool ok = true;
#pragma unroll
          for (int k = 0; k < kCpl; k += 2) {
            const ulonglong2 x = ld_relaxed_v2 (a.bnd_m + off + k);
            wm[k] = x.x;
            wm[k + 1] = x.y;
          }
#pragma unroll
          for (int k = 0; k < kCpl; k++)
            ok = ok && (!inimg[k] || (unsigned) (wm[k] >> 32) == want);
          if (FAST) {
#pragma unroll
            for (int k = 0; k < kCpl; k += 2) {
              const ulonglong2 x = ld_relaxed_v2 (a.bnd_rt + off + k);
              wr[k] = x.x;
              wr[k + 1] = x.y;
            }
#pragma unroll
            for (int k = 0; k < kCpl; k++)
              ok = ok && (!inimg[k] || (unsigned) (wr[k] >> 32) == want);
          }
          if (ok || !wait)
            break;
          if ((polls & 63) == 0 && wait_gives_up (a, &since, kWaitBand, (int) (seq0 / (unsigned) nph), band, p)) {
            gave_up = true;
            break;
          }
        }
        if (probe)
          t_wait += clock64 () - t0;
      }
      if (__any_sync (0xffffffffu, gave_up)) {
        cp_async_wait_all ();
        return;                                 /* the caller's grid barrier gives up too */
      }
      __syncwarp ();                            /* the last phase's proot reads are done */
#pragma unroll
      for (int k = 0; k < kCpl; k++) {
        m[k] = inimg[k] ? (int) (unsigned) wm[k] : kInf;
        en[k] = c0 + k;
        if (FAST)
          proot[kCpl * lane + k] = (int) (unsigned) wr[k];
      }
      __syncwarp ();
    }
    const int rend = min (r0 + kR, h);
    /* row pointers advanced by pitch, not recomputed per row */
    int8_t *prow = a.par + (size_t) r0 * pitch + c0;
    const int *enext = Ecol + (size_t) (r0 + kD) * pitch;     /* may pass row h - 1: the padding */
#pragma unroll 1
    for (int t0 = r0; t0 < rend; t0 += kD) {
      __syncwarp ();
#pragma unroll
      for (int t = 0; t < kD; t++) {
        const int i = t0 + t;
        if (i >= rend)
          break;
        cp_async_wait<kD - 1> ();
        if (kCpl < 4)
          __syncwarp ();                        /* other lanes' chunks */
        int e[kCpl];
        if (kCpl == 4) {
          const int4 v = *(const int4 *) (rslot + t * kWarpCols);
          e[0] = v.x;
          e[1] = v.y;
          e[kCpl > 2 ? 2 : 0] = v.z;
          e[kCpl > 3 ? 3 : 0] = v.w;
        } else {
          const int2 v = *(const int2 *) (rslot + t * kWarpCols);
          e[0] = v.x;
          e[1] = v.y;
        }
        if (i == 0) {
#pragma unroll
          for (int k = 0; k < kCpl; k++) {
            m[k] = inimg[k] ? (FWD ? (int) (short) (e[k] & 0xffff) : e[k]) : kInf;
            en[k] = c0 + k;
          }
        } else {
          /* the warp's edge lanes get their own values back: their cells
           * are halo, wrong from the first row anyway (the trapezoid) */
          const int mL = __shfl_up_sync (0xffffffffu, m[kCpl - 1], 1);
          const int mR = __shfl_down_sync (0xffffffffu, m[0], 1);
          const int eL = __shfl_up_sync (0xffffffffu, en[kCpl - 1], 1);
          const int eR = __shfl_down_sync (0xffffffffu, en[0], 1);
          int nm[kCpl], nen[kCpl];
          int dml[kCpl], drl[kCpl], drm[kCpl];
          unsigned word = 0;
#pragma unroll
          for (int k = 0; k < kCpl; k++) {
            int cl = k == 0 ? mL : m[k - 1];
            const int cm = m[k];
            int cr = k == kCpl - 1 ? mR : m[k + 1];
            int eb;
            if (FWD) {
              const unsigned wd = (unsigned) e[k];
              cl += (int) (wd >> 16 & 0xffu);
              cr += (int) (wd >> 24);
              eb = (int) (short) (wd & 0xffffu);
            } else {
              eb = e[k];
            }
            /* the minimum first, then which one it is: the first of
             * d = -1, 0, +1 that equals it, i.e. the contract's "first
             * strictly smallest" */
            const int best = min (min (cl, cm), cr);
            const bool pl = cl == best, pm = cm == best;
            nm[k] = max (eb + best, floor_m[k]);
            const int enl = k == 0 ? eL : en[k - 1], enr = k == kCpl - 1 ? eR : en[k + 1];
            nen[k] = pl ? enl : pm ? en[k] : enr;
            if (FAST) {
              /* the parent order's three pairwise "strictly smaller"
               * bits, as the signs of differences (M > -2^30 in the
               * image, < kInf + 2^20 outside it: no overflow) */
              dml[k] = cm - cl;
              drl[k] = cr - cl;
              drm[k] = cr - cm;
            } else {
              word |= (pl ? 0xffu : pm ? 0u : 1u) << (8 * k);
            }
          }
          if (FAST)
            word = order_bits<kCpl> (dml, drl, drm);
#pragma unroll
          for (int k = 0; k < kCpl; k++) {
            m[k] = nm[k];
            en[k] = nen[k];
          }
          if (own) {
            if (kCpl == 4)
              *(unsigned *) prow = word;
            else
              *(unsigned short *) prow = (unsigned short) word;
          }
        }
        prow += pitch;
        /* the slot is free once every lane has read it: row i + kD into it */
        if (kCpl < 4)
          __syncwarp ();
        if (copier)
          cp_async16 (cslot + t * kWarpCols, enext);
        cp_async_commit ();
        enext += pitch;
      }
    }
    /* end of the phase; fast mode's roots: the previous boundary's root at
     * the entry column (within the warp's columns: an own column's path
     * moves at most kR columns in a phase); phase 0's entry is the root */
    if (FAST) {
#pragma unroll
      for (int k = 0; k < kCpl; k++)
        rt[k] = p == 0 ? en[k] : own && inimg[k] ? proot[en[k] - cw0] : 0;
    }
    if (own) {
      if (kCpl == 4)
        *(short4 *) (a.et + (size_t) p * pitch + c0) = make_short4 ((short) en[0], (short) en[1],
            (short) en[kCpl > 2 ? 2 : 0], (short) en[kCpl > 3 ? 3 : 0]);
      else
        *(short2 *) (a.et + (size_t) p * pitch + c0) = make_short2 ((short) en[0], (short) en[1]);
    }
    if (p < nph - 1) {
      if (own) {
        const size_t off = (size_t) (p & 1) * pitch + c0;
        const unsigned long long tag = (unsigned long long) (seq0 + (unsigned) p + 1) << 32;
#pragma unroll
        for (int k = 0; k < kCpl; k += 2) {
          st_relaxed_v2 (a.bnd_m + off + k, tag | (unsigned) m[k], tag | (unsigned) m[k + 1]);
          if (FAST)
            st_relaxed_v2 (a.bnd_rt + off + k, tag | (unsigned) rt[k], tag | (unsigned) rt[k + 1]);
        }
      }
    } else {
      /* the last row: min (M, j) of it; fast mode also every column's
       * (M, j) and root, and per root the smallest (M, j) */
      unsigned long long kmin = kNoKey;
      if (own) {
#pragma unroll
        for (int k = 0; k < kCpl; k++)
          if (inimg[k]) {
            const unsigned long long key = make_key (m[k], c0 + k);
            kmin = key < kmin ? key : kmin;
            if (FAST) {
              a.ekey[c0 + k] = key;
              a.eroot[c0 + k] = rt[k];
              atomicMin (a.best + rt[k], key);
            }
          }
      }
#pragma unroll
      for (int s = 16; s > 0; s >>= 1) {
        const unsigned long long o = __shfl_xor_sync (0xffffffffu, kmin, s);
        kmin = o < kmin ? o : kmin;
      }
      if (lane == 0 && kmin != kNoKey)
        atomicMin (&a.st->best_all, kmin);
    }
  }
  cp_async_wait_all ();
  if (probe) {
    atomicAdd (&a.st->cyc_wait, (unsigned long long) t_wait);
    atomicAdd (&a.st->cyc_band, (unsigned long long) (clock64 () - t_begin));
  }
}

/* ---- fast mode: candidates, their paths, their costs, the choice ------------------------- */

/* M of a key made by make_key. */
__device__ __forceinline__ int
key_m (unsigned long long key)
{
  return (int) ((unsigned) (key >> 32) ^ 0x80000000u);
}

/* End column q's place in the candidate order (cpu/seamcarve.h, "One
 * pass") as one key: not its root's cheapest (bit 48), M - m0 (bits
 * 16..47, 0 .. limit - m0 < 2^31), q; kNoKey when M exceeds the limit. */
__device__ __forceinline__ unsigned long long
order_key (const PassArgs & a, int q, int m0, long long limit)
{
  const unsigned long long key = __ldcg (a.ekey + q);
  const int m = key_m (key);
  if (m > limit)
    return kNoKey;
  const bool cheapest = __ldcg (a.best + __ldcg (a.eroot + q)) == key;
  return (unsigned long long) !cheapest << 48 | (unsigned long long) (unsigned) (m - m0) << 16 | (unsigned) q;
}

/* ORDER: every end column within the limit gets its rank among them;
 * ranks below GCV_SEAM_FAST_SCAN write the column to order[rank], and
 * n_cand counts them.  A warp ranks one column: the block loads the keys
 * in tiles of kChooseTile into shared memory (16 KB), each lane compares
 * against every 32nd, a warp sum gives the rank.  Rounds in which no warp
 * of the block has a column within the limit are skipped. */
__device__ __forceinline__ void
rank_candidates (const PassArgs & a, int w, unsigned long long *skeys)
{
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int m0 = key_m (__ldcg (&a.st->best_all));
  const long long limit = gcv_seam_fast_limit (m0, a.h);
  const int per_round = gridDim.x * kWarps;
  const int rounds = (w + per_round - 1) / per_round;
  for (int rd = 0; rd < rounds; rd++) {
    const int r = (rd * gridDim.x + blockIdx.x) * kWarps + warp;
    const unsigned long long key = r < w ? order_key (a, r, m0, limit) : kNoKey;
    const bool valid = key != kNoKey;
    if (!__syncthreads_or (valid))
      continue;
    int cnt = 0;
    for (int t0 = 0; t0 < w; t0 += kChooseTile) {
      const int n = min (kChooseTile, w - t0);
      __syncthreads ();
      {
        unsigned long long v[kChooseTile / kThreads];
#pragma unroll
        for (int u = 0; u < kChooseTile / kThreads; u++) {
          const int q = threadIdx.x + u * kThreads;
          v[u] = q < n ? order_key (a, t0 + q, m0, limit) : kNoKey;
        }
#pragma unroll
        for (int u = 0; u < kChooseTile / kThreads; u++)
          skeys[threadIdx.x + u * kThreads] = v[u];
      }
      __syncthreads ();
      if (valid)
        for (int q = lane; q < n; q += 32)
          cnt += skeys[q] < key;
    }
#pragma unroll
    for (int s = 16; s > 0; s >>= 1)
      cnt += __shfl_xor_sync (0xffffffffu, cnt, s);
    if (valid && lane == 0) {
      atomicAdd (&a.st->n_cand, 1u);
      if (cnt < GCV_SEAM_FAST_SCAN)
        a.order[cnt] = r;
    }
  }
}

/* The first 16-byte chunk of a ring row around column x: columns x - R
 * .. x + R in the variant's chunks, as far right as the row allows (past
 * it only in rows narrower than the chunks, into the allocation's
 * padding). */
template <class T, int R> __device__ __forceinline__ int
fast_chunk0 (const PassArgs & a, int x)
{
  return max (min ((x - R) >> 4, a.pitch / 16 - T::kChunks), 0);
}

/* Loads rows `from` down to `to` (those >= 0) of the parent codes around
 * column x (fast_chunk0) into candidate `lane`'s ring.  The caller commits
 * the group. */
template <class T, int R> __device__ __forceinline__ void
fast_prefetch (const PassArgs & a, typename T::Smem & fs, int lane, int from, int to, int x)
{
  const int c0 = fast_chunk0<T, R> (a, x);
  const int8_t *src = a.par + (size_t) from * a.pitch + 16 * c0;
  for (int row = from; row >= max (to, 0); row--, src -= a.pitch) {
    const int slot = (row - 1) & R;
    fs.c0s[lane][slot] = (int16_t) c0;
#pragma unroll
    for (int q = 0; q < T::kChunks; q++)
      cp_async16<true> (&fs.ring[slot][lane][q], src + 16 * q);
  }
}

/* fast_prefetch of a full step's U rows to .. to + U - 1 (to >= 0, to - 1
 * a multiple of U: U consecutive slots from (to - 1) & R), with one
 * chunk0 store and the source walked by the pitch. */
template <class T, int U, int R> __device__ __forceinline__ void
fast_prefetch_step (const PassArgs & a, typename T::Smem & fs, int lane, int to, int x)
{
  const int c0 = fast_chunk0<T, R> (a, x);
  const int s0 = (to - 1) & R;
  const int8_t *src = a.par + (size_t) to * a.pitch + 16 * c0;
#pragma unroll
  for (int k = 0; k < U; k++, src += a.pitch)
#pragma unroll
    for (int q = 0; q < T::kChunks; q++)
      cp_async16<true> (&fs.ring[s0 + k][lane][q], src + 16 * q);
  unsigned wd[U / 2];
#pragma unroll
  for (int e = 0; e < U / 2; e++)
    wd[e] = (unsigned) c0 * 0x10001u;
  store_halves<U> (&fs.c0s[lane][s0], wd);
}

/* Issues and commits the rows the last step decided on (pend_to .. pf - 1
 * around pend_x; a full step's U with fast_prefetch_step) and moves pf. */
template <class T, int U, int R> __device__ __forceinline__ void
fast_prefetch_pending (const PassArgs & a, typename T::Smem & fs, int lane, int &pf, int pend_to, int pend_x,
    bool pend_step)
{
  if (pend_step)
    fast_prefetch_step<T, U, R> (a, fs, lane, pend_to, pend_x);
  else if (pend_to < pf)
    fast_prefetch<T, R> (a, fs, lane, pf - 1, pend_to, pend_x);
  pf = min (pf, pend_to);
  cp_async_commit ();
}

/* TRACE, one warp (cpu/seamcarve.h, "One pass"; the CPU's
 * find_seams_fast step by step).
 *  1. The candidates: the first columns of the order in turn; the lanes
 *     keep those taken sorted by end column (end, root, rank), so a ballot
 *     finds a column's place and its neighbours, a shuffle inserts it.
 *  2. The paths: lane k traces candidate k, U rows a step, one step behind
 *     lane k - 1 (a pipeline: rows are stepped in the same blocks by every
 *     lane, the first block (h - 1) mod U rows or U), so every lower-ranked
 *     path it needs in the step's rows (its blockers: the nearest left and
 *     right that reach the row) has its columns in hist already, written
 *     at least one step before; the step loads them first, all U rows.
 *     Each row the lane moves to the first column of the parent order
 *     between its blockers, or its path ends; a lane whose path ended goes
 *     on up writing kGone, so a blocker that does not reach a row reads as
 *     such there.  The parent code comes from the lane's ring (FastTrace)
 *     and the step from a table: in a full step one shared-memory load
 *     and three instructions a row on the chain (the next row's codes are
 *     fetched while a row's entry loads); a step stores its U rows of the
 *     path in one store: (h - 1) / U + 31 steps a pass.
 * Writes the paths (kGone in rows a path did not reach), the candidates'
 * end columns and highest rows, zeroes their costs, and the pass's limit
 * and count into the state.  Profiling (debug): the warp's time in t_walk. */
template <int U, int R> __device__ __forceinline__ void
fast_trace (const PassArgs & a, int w, typename FastTrace<U, R>::Smem & fs)
{
  using T = FastTrace<U, R>;
  constexpr int HM = T::kHist - 1;
  const int lane = threadIdx.x & 31, h = a.h, pp = a.path_pitch;
  const int m0 = key_m (__ldcg (&a.st->best_all));
  const int nq = min ((int) __ldcg (&a.st->n_cand), GCV_SEAM_FAST_SCAN);
  const unsigned long long t_begin = a.profile > 1 && lane == 0 ? global_ns () : 0;

  /* 1. the candidates */
  int ce = 0, cr = 0, ck = 0, nc = 0;
  for (int q0 = 0; q0 < nq && nc < kFastTries; q0 += 32) {
    const int jl = q0 + lane < nq ? __ldcg (a.order + q0 + lane) : 0;
    const int rl = q0 + lane < nq ? __ldcg (a.eroot + jl) : 0;
    for (int u = 0; u < 32 && q0 + u < nq && nc < kFastTries; u++) {
      const int e = __shfl_sync (0xffffffffu, jl, u), re = __shfl_sync (0xffffffffu, rl, u);
      const int pos = __popc (__ballot_sync (0xffffffffu, lane < nc && ce < e));
      const int rleft = __shfl_sync (0xffffffffu, cr, pos > 0 ? pos - 1 : 0);
      const int rright = __shfl_sync (0xffffffffu, cr, pos < nc ? pos : 0);
      if (pos > 0 && pos < nc && rleft == rright)
        continue;               /* between two candidates of one tree */
      const int ue = __shfl_up_sync (0xffffffffu, ce, 1), ur = __shfl_up_sync (0xffffffffu, cr, 1);
      const int uk = __shfl_up_sync (0xffffffffu, ck, 1);
      if (lane > pos) {
        ce = ue;
        cr = ur;
        ck = uk;
      } else if (lane == pos) {
        ce = e;
        cr = re;
        ck = nc;
      }
      nc++;
    }
  }
  if (lane < nc)
    fs.end[ck] = ce;
  __syncwarp ();
  if (a.profile > 1 && lane == 0)
    a.st->t_cand += global_ns () - t_begin;

  for (int e = lane; e < kLutSize; e += 32) {
    const int bits = e >> 4, A = (e >> 2 & 3) - 1, B = (e & 3) - 2;
    int st = kLutNone;
    for (int k = 2; k >= 0; k--) {
      const int d = order_step (bits, k);
      st = d >= A && d <= B ? d + 1 : st;
    }
    fs.lut[e] = (uint8_t) st;
  }

  /* 2. the paths: lane = rank from here on; the first blockers are the
   * nearest lower-ranked candidates either side */
  const bool cand = lane < nc;
  int x = cand ? fs.end[lane] : 0, i = h - 1, top = h - 1;
  int l = cand ? gcv_seam_fast_next_blocker (fs.end, lane, lane, -1) : -1;
  int r = cand ? gcv_seam_fast_next_blocker (fs.end, lane, lane, 1) : -1;
  bool alive = cand;
  int16_t *pth = a.path + (size_t) lane * pp;
  int pf = h - 1 - R;           /* the lowest row loaded or on its way */
  /* the rows a step decided to load (pend_to .. pf - 1 around pend_x),
   * loaded by the next step in the shadow of its first parent-code load */
  int pend_to = pf, pend_x = x;
  bool pend_step = false;
  if (cand) {
    pth[h - 1] = (int16_t) x;
    fast_prefetch<T, R> (a, fs, lane, h - 1, pf, x);
  }
  /* the rows of the first kAhead + 1 steps, then kAhead empty groups;
   * every step commits one group (its predecessor's rows) after waiting
   * for all but the kAhead - 1 newest: the rows it reads (FastTrace) */
  cp_async_commit ();
#pragma unroll
  for (int e = 0; e < T::kAhead; e++)
    cp_async_commit ();
  __syncwarp ();
  const int first = (h - 1) % U ? (h - 1) % U : U;
  const int blocks = h > 1 ? (h - 1 - first) / U + 1 : 0;
  const int steps = blocks > 0 ? blocks + nc - 1 : 0;
  for (int t = 0; t < steps; t++) {
    if (cand && t >= lane && i > 0) {
      const int n = t == lane ? first : U;      /* moves i -> i - n */
      int v[U];
#pragma unroll
      for (int q = 0; q < U; q++)
        v[q] = kGone;
      if (alive) {
        /* the step's parent rows landed (FastTrace) */
        cp_async_wait<T::kAhead - 1> ();
        const int l0 = l, r0 = r;
        /* a full step: the blockers' columns in rows i - 1 .. i - U and
         * the rows' chunk0, three vector loads; element U - 1 - q is row
         * i - 1 - q of a path, the chunk0 of row i - q */
        unsigned wl[U / 2], wr[U / 2], wc[U / 2];
        bool full = n == U;
        if (full) {
          const int hb = (i - U) & HM;
#pragma unroll
          for (int e = 0; e < U / 2; e++)
            wl[e] = wr[e] = 0;
          if (l0 >= 0)
            load_halves<U> (&fs.hist[l0][hb], wl);
          if (r0 >= 0)
            load_halves<U> (&fs.hist[r0][hb], wr);
          load_halves<U> (&fs.c0s[lane][(i - U) & R], wc);
          /* kGone is the only negative column: a sign bit per half */
          unsigned ended = 0;
#pragma unroll
          for (int e = 0; e < U / 2; e++)
            ended |= wl[e] | wr[e];
          full = (ended & 0x80008000u) == 0;
        }
        if (full) {
          /* the common step, both blockers (if any) in every row: selects
           * only (a path that ends writes kGone) */
          /* the bounds of every row at once: lo = left + 1, hi = right - 1
           * per half (no carry: left >= 0, right >= 1), or the frame's */
          const unsigned all_w = (unsigned) (w - 1) * 0x10001u;
#pragma unroll
          for (int e = 0; e < U / 2; e++) {
            wl[e] = l0 >= 0 ? wl[e] + 0x10001u : 0u;
            wr[e] = r0 >= 0 ? wr[e] - 0x10001u : all_w;
          }
          /* ring rows i .. i - U + 1: slots (i - 1) & R down, no wrap.
           * Row q's step is on the chain: its code and table entry are
           * two dependent loads.  So while row q's entry loads, the four
           * bytes around x of row q + 1's codes and its bounds for x - 1,
           * x and x + 1 are fetched too, and the entry (the step + 1)
           * picks both with byte permutes: per row one load and three
           * instructions on the chain instead of two loads and eight. */
          constexpr int kSlot = (int) sizeof (fs.ring[0]);
          const unsigned char *ring = (const unsigned char *) fs.ring[(i - 1) & R][lane];
          const int code0 = ring[x - 16 * half_at (wc, U - 1)];
          fast_prefetch_pending<T, U, R> (a, fs, lane, pf, pend_to, pend_x, pend_step);
          int idx = fast_step_index (code0, x, half_at (wl, U - 1), half_at (wr, U - 1));
#pragma unroll
          for (int q = 0; q < U; q++) {
            const int row = i - q;
            const int L = fs.lut[idx];
            unsigned w0 = 0, w1 = 0, ab3 = 0;
            int sel0 = 0;
            if (q + 1 < U) {
              /* row q + 1's codes at columns x - 1 .. x + 1 (two aligned
               * words of the lane's ring row; byte sel0 + L is x + L - 1,
               * the column the path moves to) */
              const int e1 = U - 2 - q;
              const int p = x - 16 * half_at (wc, e1);
              const int base = max (p - 1, 0) & ~3;
              const unsigned char *r1 = ring - (q + 1) * kSlot + base;
              w0 = *(const unsigned *) r1;
              w1 = *(const unsigned *) (r1 + 4);
              sel0 = p - base - 1;
              ab3 = step_bounds3 (x, half_at (wl, e1), half_at (wr, e1));
            }
            const bool ok = alive && L != kLutNone;
            top = ok ? row - 1 : top;
            /* an ended path's x moves on (up to 2 a row); it is never
             * read again, and its loads stay inside fs */
            x += L - 1;
            v[q] = ok ? x : kGone;
            alive = ok;
            if (q + 1 < U) {
              const unsigned code = prmt (w0, w1, (unsigned) (sel0 + L));
              const unsigned ab = prmt (ab3, 0u, 0x4440u | (unsigned) L);
              idx = (int) ((code & kOrderMask) | ab);
            }
          }
        } else {
          /* a blocker ends in these rows (or the lane's first, shorter
           * step): row by row, moving l / r on past the ended paths */
          fast_prefetch_pending<T, U, R> (a, fs, lane, pf, pend_to, pend_x, pend_step);
#pragma unroll
          for (int q = 0; q < U; q++) {
            if (q < n && alive) {
              const int row = i - q;    /* from row to row - 1 */
              const int hr = (row - 1) & HM;
              const int slot = (row - 1) & R;
              const int code = ((const unsigned char *) fs.ring[slot][lane])[x - 16 * fs.c0s[lane][slot]];
              int vl = l >= 0 ? fs.hist[l][hr] : 0;
              int vr = r >= 0 ? fs.hist[r][hr] : 0;
              while (l >= 0 && vl == kGone) {
                l = gcv_seam_fast_next_blocker (fs.end, lane, l, -1);
                vl = l >= 0 ? fs.hist[l][hr] : 0;
              }
              while (r >= 0 && vr == kGone) {
                r = gcv_seam_fast_next_blocker (fs.end, lane, r, 1);
                vr = r >= 0 ? fs.hist[r][hr] : 0;
              }
              const int lo = l >= 0 ? vl + 1 : 0, hi = r >= 0 ? vr - 1 : w - 1;
              const int L = fs.lut[fast_step_index (code, x, lo, hi)];
              if (L == kLutNone) {
                alive = false;  /* squeezed out: its path ends at `row` */
              } else {
                x += L - 1;
                top = row - 1;
                v[q] = x;
              }
            }
          }
        }
        /* next: the rows within R of the path's new row, around its column */
        pend_to = i - n - R;
        pend_x = x;
        pend_step = n == U && pend_to >= 0;
      }
      if (n == U) {
        /* rows i - U .. i - 1 ascending: one vector into hist, one into the path */
        unsigned wv[U / 2];
#pragma unroll
        for (int e = 0; e < U / 2; e++)
          wv[e] = (unsigned) (uint16_t) v[U - 1 - 2 * e] | (unsigned) (uint16_t) v[U - 2 - 2 * e] << 16;
        store_halves<U> (&fs.hist[lane][(i - U) & HM], wv);
        store_halves<U> (pth + i - U, wv);
      } else {
#pragma unroll
        for (int q = 0; q < U; q++)
          if (q < n) {
            fs.hist[lane][(i - 1 - q) & HM] = (int16_t) v[q];
            pth[i - 1 - q] = (int16_t) v[q];
          }
      }
      i -= n;
    }
    __syncwarp ();
  }
  cp_async_wait_all ();
  if (cand) {
    a.fend[lane] = fs.end[lane];
    a.ftop[lane] = top;
    a.fcost[lane] = 0;
  }
  if (lane == 0) {
    a.st->nc = nc;
    a.st->limit = gcv_seam_fast_limit (m0, h);
    if (a.profile > 1)
      a.st->t_walk += global_ns () - t_begin;
  }
}

/* The trace variant a.trace picks (FastTrace; 0 = the first). */
__device__ __forceinline__ void
fast_trace_variant (const PassArgs & a, int w, unsigned char *smem)
{
  if (a.trace == 1)
    fast_trace<FastTraceB::kRows, FastTraceB::kReach> (a, w, *(FastTraceB::Smem *) smem);
  else
    fast_trace<FastTraceA::kRows, FastTraceA::kReach> (a, w, *(FastTraceA::Smem *) smem);
}

/* COST: every whole path's cost (what eq. 2 adds along it: the energy
 * words' E, for forward energy B + CU plus, after a diagonal step, the
 * word's dl or dr).  Warp g of the grid sums candidate g / runs over the
 * rows of run g % runs (kCostRows rows a lane, 32 lanes a warp, loads all
 * in flight together) and adds its sum to the candidate's with one
 * atomic: every path at once, not one after another. */
constexpr int kCostRows = 4;

template <bool FWD> __device__ __forceinline__ void
fast_costs (const PassArgs & a, int cur)
{
  const int nc = __ldcg (&a.st->nc), h = a.h, lane = threadIdx.x & 31;
  const int runs = (h + 32 * kCostRows - 1) / (32 * kCostRows);
  const int *E = a.en[cur];
  for (int g = blockIdx.x * kWarps + (threadIdx.x >> 5); g < nc * runs; g += gridDim.x * kWarps) {
    const int k = g / runs, i0 = (g - k * runs) * 32 * kCostRows + lane;
    if (__ldcg (a.ftop + k) != 0)
      continue;                 /* warp-uniform */
    const int16_t *p = a.path + (size_t) k * a.path_pitch;
    int c[kCostRows], cu[kCostRows], wd[kCostRows];
#pragma unroll
    for (int u = 0; u < kCostRows; u++) {
      const int i = i0 + 32 * u;
      c[u] = i < h ? __ldcg (p + i) : 0;
      cu[u] = FWD && i > 0 && i < h ? __ldcg (p + i - 1) : 0;
    }
#pragma unroll
    for (int u = 0; u < kCostRows; u++) {
      const int i = i0 + 32 * u;
      wd[u] = i < h ? __ldcg (E + (size_t) i * a.pitch + c[u]) : 0;
    }
    long long sum = 0;
#pragma unroll
    for (int u = 0; u < kCostRows; u++) {
      const int i = i0 + 32 * u;
      if (FWD) {
        sum += (short) (wd[u] & 0xffff);
        if (i > 0 && i < h) {
          const int d = cu[u] - c[u];
          sum += d < 0 ? (wd[u] >> 16 & 0xff) : d > 0 ? (int) ((unsigned) wd[u] >> 24) : 0;
        }
      } else {
        sum += wd[u];
      }
    }
#pragma unroll
    for (int s = 16; s > 0; s >>= 1)
      sum += __shfl_xor_sync (0xffffffffu, sum, s);
    if (lane == 0 && sum != 0)
      atomicAdd (a.fcost + k, (unsigned long long) sum);
  }
}

/* The choice (every block the same): of the whole paths within the limit
 * the P with the smallest (cost, rank), into sl[] by end column (= by
 * column in every row: the paths never cross); sl[kFastTries] = their
 * number, which it returns.  One warp. */
__device__ __forceinline__ int
fast_choose (const PassArgs & a, int P, int *sl)
{
  if (threadIdx.x < 32) {
    const int k = threadIdx.x, nc = __ldcg (&a.st->nc);
    const long long limit = __ldcg (&a.st->limit);
    long long cost = 0;
    int end = 0;
    bool ok = false;
    if (k < nc) {
      cost = (long long) __ldcg (a.fcost + k);
      ok = __ldcg (a.ftop + k) == 0 && cost <= limit;
      end = __ldcg (a.fend + k);
    }
    /* |cost| < 2^31 */
    const unsigned long long key = ok ? (unsigned long long) (cost + (1ll << 31)) << 8 | (unsigned) k : kNoKey;
    int rank = 0, slot = 0;
    for (int q = 0; q < 32; q++)
      rank += __shfl_sync (0xffffffffu, key, q) < key;
    const int n = min (__popc (__ballot_sync (0xffffffffu, ok)), P);
    const bool chosen = ok && rank < n;
    for (int q = 0; q < 32; q++) {
      const int eq = __shfl_sync (0xffffffffu, end, q);
      slot += __shfl_sync (0xffffffffu, (int) chosen, q) && eq < end;
    }
    if (chosen)
      sl[slot] = k;
    if (k == 0)
      sl[kFastTries] = n;
  }
  __syncthreads ();
  return sl[kFastTries];
}

/* ---- backtracking ---------------------------------------------------------------------- */

/* Exact mode's seam, by block 0: its end column is the min (M, j) of the
 * last row.
 *  1. The column at every phase boundary, from the last phase up through
 *     the entry columns et[p] (nph dependent steps).  Rounds of kChainD
 *     phases: from the known column c at the end of phase p, the column
 *     kR d + ... can only be within kR d columns of c at the end of phase
 *     p - d, so the block loads those windows of et (one load per thread or
 *     so, kChainWin int16 in shared memory) and thread 0 resolves kChainD
 *     steps in shared memory: nph / kChainD round trips to L2, not nph.
 *  2. Thread t walks phase t up through the int8 parents, all phases at
 *     once; the same trick by rows: kWalkD rows per round, loading the
 *     1 + 3 + ... + (2 kWalkD - 1) parents the path can touch into its own
 *     64 bytes of shared memory first.  Writes path[row] (path 0).
 *  3. All threads mark the seam's rows in parallel: the stage mask at the
 *     stage-input column (through src and ss), and, when enlarging, the
 *     chosen step-input pixel. */
__device__ __forceinline__ void
trace_seam (const PassArgs & a, int w, int cur, unsigned char *smem)
{
  const int h = a.h, pitch = a.pitch, nph = a.nph;
  const int16_t *src = a.src[cur];
  int *sce = (int *) smem;                                      /* kMaxPhases + 4 */
  int16_t *win = (int16_t *) (smem + (kMaxPhases + 4) * 4);    /* kChainWin */
  int8_t *walk = (int8_t *) (win + kChainWin);                  /* kThreads x kWalkD^2 */
  if (blockIdx.x == 0) {
    const int jend = (int) (unsigned) (__ldcg (&a.st->best_all) & 0xffffffffu);
    __syncthreads ();
    if (threadIdx.x == 0)
      sce[nph - 1] = jend;
    __syncthreads ();
    /* 1. phase ends */
    for (int p = nph - 1; p > 0; p -= kChainD) {
      const int c = sce[p];
      const int nd = min (kChainD, p);
      {
        /* all loads first, then the stores (a load stored at once waits) */
        int16_t v[kChainU];
#pragma unroll
        for (int u = 0; u < kChainU; u++) {
          const int q = threadIdx.x + u * kThreads;
          int d = 0, base = 0;
#pragma unroll
          for (int e = 1; e < kChainD; e++)
            if (q >= e * (kR * (e - 1) + 1)) {
              d = e;
              base = e * (kR * (e - 1) + 1);
            }
          const int col = min (max (c - kR * d + (q - base), 0), w - 1);
          const int pr = max (p - d, 0);
          v[u] = q < kChainWin && d < nd ? __ldcg (a.et + (size_t) pr * pitch + col) : (int16_t) 0;
        }
#pragma unroll
        for (int u = 0; u < kChainU; u++) {
          const int q = threadIdx.x + u * kThreads;
          if (q < kChainWin)
            win[q] = v[u];
        }
      }
      __syncthreads ();
      if (threadIdx.x == 0) {
        int x = c, base = 0;
        for (int d = 0; d < nd; d++) {
          x = win[base + x - (c - kR * d)];
          sce[p - d - 1] = x;
          base += 2 * kR * d + 1;
        }
      }
      __syncthreads ();
    }
    /* 2. walks */
    int16_t *path = a.path;
    int8_t *wv = walk + threadIdx.x * kWalkD * kWalkD;
    for (int t = threadIdx.x; t < nph; t += kThreads) {
      const int rs = t * kR;
      int i = min (rs + kR, h) - 1, c = sce[t];
      path[i] = (int16_t) c;
      while (i > rs) {
        const int n = min (kWalkD, i - rs);
        {
          int8_t v[kWalkD * kWalkD];
#pragma unroll
          for (int q = 0; q < kWalkD; q++) {
            const int8_t *row = a.par + (size_t) max (i - q, 0) * pitch;
#pragma unroll
            for (int d = -q; d <= q; d++)
              v[q * q + q + d] = __ldcg (row + min (max (c + d, 0), w - 1));
          }
#pragma unroll
          for (int q = 0; q < kWalkD * kWalkD; q++)
            wv[q] = v[q];
        }
        int x = c;
#pragma unroll
        for (int q = 0; q < kWalkD; q++) {
          if (q < n) {
            x += wv[q * q + q + (x - c)];
            path[i - q - 1] = (int16_t) x;
          }
        }
        c = x;
        i -= n;
      }
    }
    __syncthreads ();
    /* 3. marks, kMarkU rows per thread loaded together */
    for (int i0 = 0; i0 < h; i0 += kThreads * kMarkU) {
      int col[kMarkU], cin[kMarkU];
#pragma unroll
      for (int u = 0; u < kMarkU; u++) {
        const int i = i0 + u * kThreads + threadIdx.x;
        col[u] = i < h ? path[i] : 0;
      }
#pragma unroll
      for (int u = 0; u < kMarkU; u++) {
        const int i = i0 + u * kThreads + threadIdx.x;
        cin[u] = i < h ? __ldcg (src + (size_t) i * pitch + col[u]) : 0;
      }
#pragma unroll
      for (int u = 0; u < kMarkU; u++) {
        const int i = i0 + u * kThreads + threadIdx.x;
        if (i < h) {
          const size_t row = (size_t) i * pitch;
          const int s = a.has_ss ? __ldg (a.ss + row + cin[u]) : cin[u];
          a.smask[row + s] = 1;
          if (a.enlarge)
            a.chosen[row + cin[u]] = 1;
        }
      }
    }
  }
}

/* ---- carving --------------------------------------------------------------------------- */

/* One warp per row i (grid-stride over all the warps).  The pass's seam
 * columns of rows i - 1, i, i + 1 (clamped) go to the warp's shared memory
 * as t_k = s_k - k (the new column right of the k-th gap; non-decreasing).
 * New column j of the row is old column j + #{k : t_k <= j}: src and the
 * energy word are copied from buffer cur to cur ^ 1, lanes on consecutive
 * columns (coalesced), kCarveU columns per lane loaded before any is
 * stored, the count kept per lane as j grows.  The luma is not carved: a
 * pixel's luma is the step input's at its src column.  Then the energy of
 * the two pixels beside every gap (new columns t_k - 1 and t_k: the only
 * ones whose four neighbours changed, vertical ones included, since seams
 * are 8-connected and never cross) is recomputed from the old buffer
 * through the same mapping, which makes it equal to a full recompute of
 * the carved image.  Fast mode's seams are the paths sl[0 .. nf - 1] (by
 * column), and the warp also marks them (stage mask, chosen pixels)
 * through the old src; exact mode's is path 0, marked when traced.
 * Shared memory: 3 x kFastTries int16 per warp. */
__device__ __forceinline__ void
carve_rows (const PassArgs & a, int w, int nf, int cur, unsigned char *smem, const int *sl)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int h = a.h, pitch = a.pitch, pp = a.path_pitch, nw = w - nf;
  const int16_t *S0 = a.src[cur];
  const int *E0 = a.en[cur];
  int16_t *S1 = a.src[cur ^ 1];
  int *E1 = a.en[cur ^ 1];
  const uint8_t *L = a.luma;
  int16_t *T = (int16_t *) smem + warp * 3 * kFastTries;
  const int16_t *Ti = T + nf, *Tu = T, *Td = T + 2 * nf;
  /* what the next pass's seam map starts from: no keys (every block read
   * them before the last barrier) */
  for (int r = blockIdx.x * kThreads + threadIdx.x; r < w; r += gridDim.x * kThreads)
    a.best[r] = kNoKey;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.st->best_all = kNoKey;
    a.st->n_cand = 0;
  }
  for (int i = blockIdx.x * kWarps + warp; i < h; i += gridDim.x * kWarps) {
    __syncwarp ();
    for (int q = lane; q < 3 * nf; q += 32) {
      const int rr = q / nf, k = q - rr * nf;
      const int r = min (max (i - 1 + rr, 0), h - 1);
      T[q] = (int16_t) (__ldcg (a.path + (size_t) (sl ? sl[k] : 0) * pp + r) - k);
    }
    __syncwarp ();
    const size_t row = (size_t) i * pitch;
    if (sl && lane < nf) {
      const int cin = __ldcg (S0 + row + Ti[lane] + lane);
      a.smask[row + (a.has_ss ? __ldg (a.ss + row + cin) : cin)] = 1;
      if (a.enlarge)
        a.chosen[row + cin] = 1;
    }
    const int16_t *s0 = S0 + row;
    const int *e0 = E0 + row;
    int16_t *s1 = S1 + row;
    int *e1 = E1 + row;
    if (nf == 1) {
      /* one seam: old column j + (j >= t_0), no search */
      const int g = Ti[0];
      for (int j0 = 0; j0 < nw; j0 += 32 * kCarveU1) {
        int16_t sv[kCarveU1];
        int ev[kCarveU1];
#pragma unroll
        for (int u = 0; u < kCarveU1; u++) {
          const int j = j0 + 32 * u + lane;
          if (j < nw) {
            const int o = j + (j >= g);
            sv[u] = __ldcg (s0 + o);
            ev[u] = __ldcg (e0 + o);
          }
        }
#pragma unroll
        for (int u = 0; u < kCarveU1; u++) {
          const int j = j0 + 32 * u + lane;
          if (j < nw) {
            s1[j] = sv[u];
            e1[j] = ev[u];
          }
        }
      }
    } else {
      int idx = 0;
      for (int j0 = 0; j0 < nw; j0 += 32 * kCarveU) {
        int16_t sv[kCarveU];
        int ev[kCarveU];
#pragma unroll
        for (int u = 0; u < kCarveU; u++) {
          const int j = j0 + 32 * u + lane;
          if (j < nw) {
            while (idx < nf && Ti[idx] <= j)
              idx++;
            sv[u] = __ldcg (s0 + j + idx);
            ev[u] = __ldcg (e0 + j + idx);
          }
        }
#pragma unroll
        for (int u = 0; u < kCarveU; u++) {
          const int j = j0 + 32 * u + lane;
          if (j < nw) {
            s1[j] = sv[u];
            e1[j] = ev[u];
          }
        }
      }
    }
    __syncwarp ();
    for (int q = lane; q < 2 * nf; q += 32) {
      const int j = Ti[q >> 1] - 1 + (q & 1);
      if (j < 0 || j >= nw)
        continue;
      const int rm = max (i - 1, 0), rp = min (i + 1, h - 1);
      const int jl = max (j - 1, 0), jr = min (j + 1, nw - 1);
      const size_t rowm = (size_t) rm * pitch, rowp = (size_t) rp * pitch;
      const int sl = __ldcg (S0 + row + jl + count_le (Ti, nf, jl));
      const int sr = __ldcg (S0 + row + jr + count_le (Ti, nf, jr));
      const int sc = __ldcg (S0 + row + j + count_le (Ti, nf, j));
      const int su = __ldcg (S0 + rowm + j + count_le (Tu, nf, j));
      const int sd = __ldcg (S0 + rowp + j + count_le (Td, nf, j));
      int bias = 0;
      if (a.has_bias)
        bias = __ldg (a.bias + row + (a.has_ss ? __ldg (a.ss + row + sc) : sc));
      E1[row + j] = energy_word (a.energy, __ldg (L + row + sl), __ldg (L + row + sr), __ldg (L + rowm + su),
          __ldg (L + rowp + sd), bias, i > 0);
    }
  }
}

/* ---- the pass loop ---------------------------------------------------------------------- */

/* Cooperative, one block of kThreads per SM; band b of the seam map on
 * warp b / gridDim.x of block b % gridDim.x (bands spread over the SMs).
 * Loops over passes until the step has its seams; grid barriers between
 * the parts (see the file comment).  Block 0 times the parts with the
 * global timer when profiling. */
template <bool FWD, bool FAST> __global__ void __launch_bounds__ (kThreads, 1)
k_passes (PassArgs a)
{
  __shared__ __align__ (16) unsigned char smem[FAST ? kPassSmemFast : kPassSmemExact];
  __shared__ int sl[kFastTries + 1];
  const int warp = threadIdx.x >> 5;
  const int band = warp * gridDim.x + blockIdx.x;
  const bool timer = a.profile && blockIdx.x == 0 && threadIdx.x == 0;
  unsigned long long t_prev = timer ? global_ns () : 0, t_dp = 0, t_trace = 0, t_carve = 0;
  int w = a.w0, left = a.left0, cur = 0, pass = 0;

  if (a.profile > 1) {
    /* the cost of a grid barrier alone, for the profile's debug line */
    const unsigned long long t0 = timer ? global_ns () : 0;
    for (int k = 0; k < 64; k++)
      if (!grid_sync (a, -1, k))
        return;
    if (timer)
      a.st->t_sync += (global_ns () - t0) / 64;
    if (timer)
      t_prev = global_ns ();
  }
  while (left > 0) {
    if (a.fault && pass == 1 && blockIdx.x == gridDim.x - 1)
      break;                    /* GCV_SEAM_CUDA_FAULT=barrier: a block gone early */
    if (band < (w + kB - 1) / kB)
      dp_band<FWD, FAST> (a, band, w, cur, (unsigned) pass * (unsigned) a.nph, 0, a.nph, true,
          (int *) smem + warp * kDpWarp);
    if (!grid_sync (a, pass, 1))
      return;
    if (timer) {
      const unsigned long long t = global_ns ();
      t_dp += t - t_prev;
      t_prev = t;
    }
    int nf = 1;
    if (FAST) {
      rank_candidates (a, w, (unsigned long long *) smem);
      if (!grid_sync (a, pass, 2))
        return;
      if (timer && a.profile > 1)
        a.st->t_rank += global_ns () - t_prev;
      if (blockIdx.x == 0 && warp == 0)
        fast_trace_variant (a, w, smem);
      if (!grid_sync (a, pass, 3))
        return;
      const unsigned long long t_costs = timer && a.profile > 1 ? global_ns () : 0;
      fast_costs<FWD> (a, cur);
      if (a.profile > 1) {
        if (!grid_sync (a, pass, 4))
          return;
        if (timer)
          a.st->t_costs += global_ns () - t_costs;
      }
    } else {
      trace_seam (a, w, cur, smem);
    }
    if (!grid_sync (a, pass, 5))
      return;
    if (timer) {
      const unsigned long long t = global_ns ();
      t_trace += t - t_prev;
      t_prev = t;
    }
    if (FAST) {
      nf = fast_choose (a, gcv_seam_fast_pass_size (a.spp, left), sl);
      if (nf < 1)
        break;                  /* cannot happen (the first candidate is always chosen); never spin */
    }
    carve_rows (a, w, nf, cur, smem, FAST ? sl : nullptr);
    if (!grid_sync (a, pass, 6))
      return;
    if (timer) {
      const unsigned long long t = global_ns ();
      t_carve += t - t_prev;
      t_prev = t;
    }
    w -= nf;
    left -= nf;
    cur ^= 1;
    pass++;
  }
  /* a block that leaves while others still pass would strand them at the
   * next barrier: counted for the watchdog's report */
  if (threadIdx.x == 0)
    atomicAdd (&a.st->exited, 1u);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.st->parity = cur;
    a.st->passes += pass;
    a.st->seams += a.left0;
    a.st->t_dp += t_dp;
    a.st->t_trace += t_trace;
    a.st->t_carve += t_carve;
  }
}

/* ---- the same parts as separate kernels (fallback) ------------------------------------- */

/* One seam-map phase p: warp b of the grid is band b; no waiting (the
 * previous phase's launch is complete). */
template <bool FWD, bool FAST> __global__ void __launch_bounds__ (kThreads, 1)
k_dp_phase (PassArgs a, int p)
{
  __shared__ __align__ (16) int ring[kWarps * kDpWarp];
  const int band = blockIdx.x * kWarps + (threadIdx.x >> 5);
  const int w = a.st->w;
  if (band < (w + kB - 1) / kB)
    dp_band<FWD, FAST> (a, band, w, a.st->parity, 0, p, p + 1, false, ring + (threadIdx.x >> 5) * kDpWarp);
}

__global__ void __launch_bounds__ (kThreads, 1)
k_trace (PassArgs a)
{
  __shared__ __align__ (16) unsigned char smem[kTraceSmem];
  trace_seam (a, a.st->w, a.st->parity, smem);
}

__global__ void __launch_bounds__ (kThreads)
k_rank (PassArgs a)
{
  __shared__ __align__ (16) unsigned long long skeys[kChooseTile];
  rank_candidates (a, a.st->w, skeys);
}

/* One warp. */
__global__ void __launch_bounds__ (32)
k_fast_trace (PassArgs a)
{
  __shared__ __align__ (16) unsigned char fs[kFastSmem];
  fast_trace_variant (a, a.st->w, fs);
}

template <bool FWD> __global__ void __launch_bounds__ (kThreads)
k_fast_costs (PassArgs a)
{
  fast_costs<FWD> (a, a.st->parity);
}

/* Carving; in fast mode every block chooses the seams first, block 0
 * stores their number for k_advance. */
template <bool FAST> __global__ void __launch_bounds__ (kThreads, 1)
k_carve (PassArgs a)
{
  __shared__ __align__ (16) unsigned char smem[kCarveSmem];
  __shared__ int sl[kFastTries + 1];
  int nf = 1;
  if (FAST)
    nf = fast_choose (a, gcv_seam_fast_pass_size (a.spp, a.st->left), sl);
  carve_rows (a, a.st->w, nf, a.st->parity, smem, FAST ? sl : nullptr);
  if (blockIdx.x == 0 && threadIdx.x == 0)
    a.st->nf = nf;
}

__global__ void
k_advance (DevState * st)
{
  st->w -= st->nf;
  st->left -= st->nf;
  st->parity ^= 1;
  st->pass++;
  st->passes++;
  st->seams += st->nf;
}

/* ---- energy ------------------------------------------------------------------------------ */

struct InitArgs {
  View v;
  LumaSpec ls;
  int h, w, pitch, energy;
  uint8_t *luma;
  int16_t *src;
  int *en;
  const int16_t *bias, *ss;
  int has_bias, has_ss;
  /* reset for the pass loop */
  DevState *st;
  unsigned long long *bnd_m, *bnd_rt;
  int n_bnd;
  unsigned long long *best;
  int n_best, left0;
};

/* The step's input: luma, src = identity and the energy word of every
 * pixel, on the paper's locality-aware 64 x 8 tile (sec. 4.2.3): one
 * thread per pixel, a block of 64 x 8 threads (two warps a row, 16 whole
 * 128-byte rows of RGBA in one go); the luma of the tile and its one-pixel
 * apron (66 x 10, clamped to the image: the replicate border) is computed
 * from the pixels into shared memory, apron included, so every row load
 * is coalesced and only the left and right apron columns are not.  Also
 * resets what the pass loop starts from (boundary tags, keys, counters). */
template <int CH> __global__ void __launch_bounds__ (kTileX * kTileY)
k_init (InitArgs a)
{
  __shared__ uint8_t L[kTileY + 2][kTileX + 2];
  const int x0 = blockIdx.x * kTileX, y0 = blockIdx.y * kTileY;
  const int tid = threadIdx.y * kTileX + threadIdx.x;
  for (int q = tid; q < (kTileY + 2) * (kTileX + 2); q += kTileX * kTileY) {
    const int ry = q / (kTileX + 2), rx = q - ry * (kTileX + 2);
    const int y = min (max (y0 - 1 + ry, 0), a.h - 1), x = min (max (x0 - 1 + rx, 0), a.w - 1);
    L[ry][rx] = (uint8_t) luma_of<CH> (load_px<CH> (a.v.p[0], a.v.stride[0], a.v.aligned, y, x), a.ls);
  }
  __syncthreads ();
  const int i = y0 + threadIdx.y, j = x0 + threadIdx.x;
  if (i < a.h && j < a.w) {
    const int ty = threadIdx.y + 1, tx = threadIdx.x + 1;
    const size_t at = (size_t) i * a.pitch + j;
    int bias = 0;
    if (a.has_bias)
      bias = __ldg (a.bias + (size_t) i * a.pitch + (a.has_ss ? __ldg (a.ss + at) : j));
    a.luma[at] = L[ty][tx];
    a.src[at] = (int16_t) j;
    a.en[at] = energy_word (a.energy, L[ty][tx - 1], L[ty][tx + 1], L[ty - 1][tx], L[ty + 1][tx], bias, i > 0);
  } else if (i < a.h && j < ((a.w + 3) & ~3)) {
    a.en[(size_t) i * a.pitch + j] = 0;         /* the seam map reads whole 16-byte chunks */
  }
  const int bid = blockIdx.y * gridDim.x + blockIdx.x, nblk = gridDim.x * gridDim.y;
  for (int q = bid * kTileX * kTileY + tid; q < a.n_best; q += nblk * kTileX * kTileY)
    a.best[q] = kNoKey;
  for (int q = bid * kTileX * kTileY + tid; q < a.n_bnd; q += nblk * kTileX * kTileY) {
    a.bnd_m[q] = 0;
    a.bnd_rt[q] = 0;
  }
  if (bid == 0 && tid == 0) {
    a.st->bar_count = 0;
    a.st->exited = 0;
    a.st->n_cand = 0;
    a.st->nf = 0;
    a.st->best_all = kNoKey;
    a.st->w = a.w;
    a.st->left = a.left0;
    a.st->parity = 0;
    a.st->pass = 0;
  }
}

/* B (i, c) of a stage in stage-input coordinates, one thread per pixel
 * (32 x 8 blocks): the alpha part from plane 0's alpha sample, the
 * temporal part T min (d, GCV_SEAM_TEMPORAL_RANGE) from the previous
 * frame's mask row (d: distance to its nearest marked pixel, searched
 * outwards; the row is in L1). */
template <int CH> __global__ void
k_bias (View v, int alpha_ch, int alpha_on, const uint8_t * __restrict__ prev, int T, int h, int w, int pitch,
    int16_t * bias)
{
  const int c = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= w || i >= h)
    return;
  int b = 0;
  if (alpha_on) {
    const uint32_t px = load_px<CH> (v.p[0], v.stride[0], v.aligned, i, c);
    b += gcv_seam_alpha_bias ((int) (px >> (8 * alpha_ch) & 0xffu));
  }
  if (T > 0) {
    const uint8_t *row = prev + (size_t) i * pitch;
    int d = GCV_SEAM_TEMPORAL_RANGE;
    for (int dd = 0; dd < GCV_SEAM_TEMPORAL_RANGE; dd++)
      if ((c - dd >= 0 && __ldg (row + c - dd)) || (c + dd < w && __ldg (row + c + dd))) {
        d = dd;
        break;
      }
    b += T * d;
  }
  bias[(size_t) i * pitch + c] = (int16_t) b;
}

/* ---- pixels out ----------------------------------------------------------------------------- */

struct GatherArgs {
  View v;                       /* the stage (or step) input, working orientation */
  Dest d;
  int h, w;                     /* working rows and columns of the output */
  int n_planes, transpose;      /* transpose: dest (j, i) instead of (i, j) */
  const int16_t *src[2];        /* NULL: identity; else src[st->parity] */
  int src_pitch;
  const DevState *st;
  const int16_t *map_in;        /* the src map to keep (NULL: the one used) */
  int16_t *map_out;             /* NULL: none kept */
  int map_pitch;
};

/* out (i, j) = in (i, src (i, j)) for every plane, a 32 x 32 tile of
 * working coordinates per block of 32 x 8 threads (4 rows each); src
 * read along rows (coalesced); when transposing, the pixels go through a
 * shared 32 x 33 tile per plane so that the writes are coalesced too.
 * Also copies the stage's src map for the output mask (map_out). */
template <int CH> __global__ void __launch_bounds__ (256)
k_gather (GatherArgs a)
{
  __shared__ uint32_t tile[GCV_SEAM_MAX_PLANES][32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int16_t *src = a.src[0] ? a.src[a.st ? a.st->parity : 0] : nullptr;
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int i = blockIdx.y * 32 + ty + 8 * q, j = blockIdx.x * 32 + tx;
    if (i >= a.h || j >= a.w)
      continue;
    const int s = src ? src[(size_t) i * a.src_pitch + j] : j;
    if (a.map_out)
      a.map_out[(size_t) i * a.map_pitch + j] = a.map_in ? a.map_in[(size_t) i * a.map_pitch + j] : (int16_t) s;
    for (int pl = 0; pl < a.n_planes; pl++) {
      const uint32_t px = load_px<CH> (a.v.p[pl], a.v.stride[pl], a.v.aligned, i, s);
      if (a.transpose)
        tile[pl][ty + 8 * q][tx] = px;
      else
        store_px<CH> (a.d.p[pl], a.d.stride[pl], a.d.aligned, i, j, px);
    }
  }
  if (!a.transpose)
    return;
  __syncthreads ();
#pragma unroll
  for (int q = 0; q < 4; q++) {
    const int j = blockIdx.x * 32 + ty + 8 * q, i = blockIdx.y * 32 + tx;
    if (i >= a.h || j >= a.w)
      continue;
    for (int pl = 0; pl < a.n_planes; pl++)
      store_px<CH> (a.d.p[pl], a.d.stride[pl], a.d.aligned, j, i, tile[pl][tx][ty + 8 * q]);
  }
}

/* One enlargement step's output, one block per row (grid-stride), the row
 * in tiles of kThreads columns: a block scan of the chosen flags gives each
 * input pixel c its output column c + #chosen before it; a chosen pixel is
 * followed by (p[c] + p[min (c + 1, w - 1)] + 1) >> 1 per sample (the
 * rounding-up byte average (a | b) - (((a ^ b) & 0xfe..) >> 1)); the
 * stage-input column travels along (ss_out); the flags are cleared. */
template <int CH> __global__ void __launch_bounds__ (kThreads)
k_insert (View v, Dest d, int h, int w, int n_planes, uint8_t * chosen, int pitch, const int16_t * ss_in,
    int16_t * ss_out)
{
  __shared__ int wsum[kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int i = blockIdx.x; i < h; i += gridDim.x) {
    const size_t row = (size_t) i * pitch;
    int base = 0;
    for (int t0 = 0; t0 < w; t0 += kThreads) {
      const int c = t0 + threadIdx.x;
      const bool f = c < w && chosen[row + c];
      const unsigned bal = __ballot_sync (0xffffffffu, f);
      __syncthreads ();
      if (lane == 0)
        wsum[warp] = __popc (bal);
      __syncthreads ();
      int before = base + __popc (bal & ((1u << lane) - 1u)), total = 0;
      for (int q = 0; q < kWarps; q++) {
        before += q < warp ? wsum[q] : 0;
        total += wsum[q];
      }
      if (c < w) {
        const int pos = c + before;
        const int16_t s = ss_in ? ss_in[row + c] : (int16_t) c;
        ss_out[row + pos] = s;
        const int cn = min (c + 1, w - 1);
        for (int pl = 0; pl < n_planes; pl++) {
          const uint32_t p = load_px<CH> (v.p[pl], v.stride[pl], v.aligned, i, c);
          store_px<CH> (d.p[pl], d.stride[pl], 1, i, pos, p);
          if (f) {
            const uint32_t n = load_px<CH> (v.p[pl], v.stride[pl], v.aligned, i, cn);
            const uint32_t avg = CH == 1 ? (p + n + 1) >> 1 : (p | n) - (((p ^ n) & 0xfefefefeu) >> 1);
            store_px<CH> (d.p[pl], d.stride[pl], 1, i, pos + 1, avg);
          }
        }
        if (f) {
          ss_out[row + pos + 1] = s;
          chosen[row + c] = 0;
        }
      }
      base += total;
    }
  }
}

/* The output mask, first stage: every input pixel (y, x) gets flag when
 * the first stage's mask (its working orientation) marks it. */
__global__ void
k_mask_first (uint8_t * mask, size_t stride, int in_w, int in_h, const uint8_t * __restrict__ sm, int pitch,
    int transposed, int flag)
{
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= in_w || y >= in_h)
    return;
  const uint8_t m = transposed ? sm[(size_t) x * pitch + y] : sm[(size_t) y * pitch + x];
  mask[(size_t) y * stride + x] = m ? (uint8_t) flag : 0;
}

/* Second stage: a marked pixel (i2, c2) of its input is the first stage's
 * output pixel (i1, j1) = (c2, i2) (working coordinates of the first
 * stage), which came from the first stage's input column src1 (i1, j1);
 * that input pixel gets flag too (several may land on one pixel: they
 * all write the same value). */
__global__ void
k_mask_second (uint8_t * mask, size_t stride, int rows2, int cols2, const uint8_t * __restrict__ sm2, int pitch2,
    const int16_t * __restrict__ src1, int pitch1, int transposed1, int flag)
{
  const int c2 = blockIdx.x * blockDim.x + threadIdx.x, i2 = blockIdx.y * blockDim.y + threadIdx.y;
  if (c2 >= cols2 || i2 >= rows2 || !sm2[(size_t) i2 * pitch2 + c2])
    return;
  const int i1 = c2, s = src1[(size_t) i1 * pitch1 + i2];
  const int y = transposed1 ? s : i1, x = transposed1 ? i1 : s;
  uint8_t *m = mask + (size_t) y * stride + x;
  *m = (uint8_t) (*m | flag);
}

/* ---- host side ----------------------------------------------------------------------------- */

struct Stage {
  int dim;                      /* 0: width (vertical seams), 1: height */
  int transposed;               /* working orientation = transposed image */
  int rows, cin, cout, pitch;
};

size_t
round_up (size_t v, size_t m)
{
  return (v + m - 1) / m * m;
}

/* The stages of an order; returns how many run. */
int
make_stages (const GcvSeamGeometry * g, GcvSeamOrder order, Stage * s)
{
  int n = 0, w = g->in_width, h = g->in_height;
  for (int k = 0; k < 2; k++) {
    const int dim = (order == GCV_SEAM_ORDER_WIDTH_FIRST) == (k == 0) ? 0 : 1;
    if (dim == 0 && g->in_width != g->out_width) {
      s[n] = { 0, 0, h, w, g->out_width, 0 };
      w = g->out_width;
    } else if (dim == 1 && g->in_height != g->out_height) {
      s[n] = { 1, 1, w, h, g->out_height, 0 };
      h = g->out_height;
    } else {
      continue;
    }
    s[n].pitch = (int) round_up ((size_t) (s[n].cin > s[n].cout ? s[n].cin : s[n].cout), 32);
    n++;
  }
  return n;
}

typedef void (*PassesFn) (PassArgs);

}                               /* namespace */

struct _GcvSeamCuda {
  GcvSeamGeometry g;
  /* sizes */
  size_t cap;                   /* elements of a working array */
  int rows_max, pitch_max, bands_max;
  int path_pitch;               /* rows_max rounded up to 8 */
  size_t et_elems, plane_bytes;
  /* device */
  int sms, coop;
  int trace;                    /* fast mode's trace variant (PassArgs.trace) */
  uint8_t *luma;
  int16_t *src[2];
  int *en[2];
  int8_t *par;
  int16_t *et;
  unsigned long long *bnd_m, *bnd_rt;
  int16_t *bias, *ss[2], *srcmap1;
  uint8_t *chosen;
  uint8_t *smask[2][2];         /* [stage dim][frame] */
  uint8_t *pix[3];              /* X, Y, Z */
  unsigned long long *best, *ekey, *fcost;
  int *eroot, *order, *fend, *ftop;
  int16_t *path;
  DevState *st;
  DevState *host_st;            /* pinned */
  GcvSeamWatch *watch;          /* pinned, mapped into the device ("Bounded waits") */
  unsigned long long watch_ns;
  int fault;                    /* GCV_SEAM_CUDA_FAULT=barrier */
  /* frames */
  int frame;                    /* smask[.][frame] is the last frame's */
  int have_prev;
  GcvSeamOrder prev_order;
  /* profiling */
  int profiling;
  const GcvCancel *cancel;      /* looked at between the passes of the launch loop */
  cudaEvent_t ev0, ev1;
  GcvSeamProfile prof;
};

namespace {

GcvStatus
dev_alloc (void **p, size_t bytes, GcvError * err, const char *what)
{
  if (bytes == 0)
    bytes = 16;
  cudaError_t e = cudaMalloc (p, bytes);
  if (e != cudaSuccess) {
    *p = nullptr;
    GcvStatus st = gcv_cuda_status (e);
    gcv_error_set (err, st, "seamcarve: cudaMalloc of %.1f MiB (%s) failed: %s: %s", bytes / 1048576.0, what,
        cudaGetErrorName (e), cudaGetErrorString (e));
    cudaGetLastError ();
    return st;
  }
  return GCV_OK;
}

View
view_of_planes (const GcvPlane * pl, int n_planes, int channels)
{
  View v;
  memset (&v, 0, sizeof (v));
  v.aligned = channels == 4;
  for (int q = 0; q < n_planes; q++) {
    v.p[q] = (const uint8_t *) pl[q].data;
    v.stride[q] = pl[q].stride;
    if ((uintptr_t) pl[q].data % 4 || pl[q].stride % 4)
      v.aligned = 0;
  }
  return v;
}

View
view_internal (const GcvSeamCuda * ctx, const uint8_t * base, int pitch)
{
  View v;
  memset (&v, 0, sizeof (v));
  v.aligned = 1;
  for (int q = 0; q < ctx->g.n_planes; q++) {
    v.p[q] = base + ctx->plane_bytes * q;
    v.stride[q] = (size_t) pitch * ctx->g.channels;
  }
  return v;
}

Dest
dest_internal (const GcvSeamCuda * ctx, uint8_t * base, int pitch)
{
  Dest d;
  memset (&d, 0, sizeof (d));
  d.aligned = 1;
  for (int q = 0; q < ctx->g.n_planes; q++) {
    d.p[q] = base + ctx->plane_bytes * q;
    d.stride[q] = (size_t) pitch * ctx->g.channels;
  }
  return d;
}

PassesFn
passes_fn (int fwd, int fast)
{
  if (fwd)
    return fast ? k_passes<true, true> : k_passes<true, false>;
  return fast ? k_passes<false, true> : k_passes<false, false>;
}

}                               /* namespace */

extern "C" void
gcv_seam_cuda_free (GcvSeamCuda * ctx)
{
  if (ctx == NULL)
    return;
  void *bufs[] = {
    ctx->luma, ctx->src[0], ctx->src[1], ctx->en[0], ctx->en[1], ctx->par, ctx->et,
    ctx->bnd_m, ctx->bnd_rt, ctx->bias, ctx->ss[0], ctx->ss[1], ctx->srcmap1, ctx->chosen,
    ctx->smask[0][0], ctx->smask[0][1], ctx->smask[1][0], ctx->smask[1][1], ctx->pix[0], ctx->pix[1],
    ctx->pix[2], ctx->best, ctx->ekey, ctx->fcost, ctx->eroot, ctx->order, ctx->fend, ctx->ftop, ctx->path, ctx->st,
  };
  for (void *b : bufs)
    if (b)
      cudaFree (b);
  if (ctx->host_st)
    cudaFreeHost (ctx->host_st);
  if (ctx->watch)
    cudaFreeHost (ctx->watch);
  if (ctx->ev0)
    cudaEventDestroy (ctx->ev0);
  if (ctx->ev1)
    cudaEventDestroy (ctx->ev1);
  delete ctx;
}

static GcvStatus
seam_cuda_alloc (GcvSeamCuda * ctx, GcvError * err)
{
  const GcvSeamGeometry *g = &ctx->g;
  GcvStatus st;
  Stage s[2];
  size_t cap = 16, et = 16;
  int rows_max = 1, pitch_max = 32, any_stage = 0, enlarge = 0, both = 0, height = 0;

  for (int o = 0; o < 2; o++) {
    const int n = make_stages (g, (GcvSeamOrder) o, s);
    both |= n == 2;
    for (int k = 0; k < n; k++) {
      any_stage = 1;
      enlarge |= s[k].cout > s[k].cin;
      height |= s[k].dim == 1;
      const size_t e = (size_t) s[k].rows * s[k].pitch;
      const size_t ph = ((size_t) s[k].rows + kR - 1) / kR * s[k].pitch;
      cap = e > cap ? e : cap;
      et = ph > et ? ph : et;
      rows_max = s[k].rows > rows_max ? s[k].rows : rows_max;
      pitch_max = s[k].pitch > pitch_max ? s[k].pitch : pitch_max;
    }
  }
  ctx->cap = cap;
  ctx->et_elems = et;
  ctx->rows_max = rows_max;
  ctx->path_pitch = (rows_max + 7) & ~7;
  ctx->pitch_max = pitch_max;
  ctx->bands_max = (pitch_max + kB - 1) / kB + 1;
  ctx->plane_bytes = round_up (cap * g->channels, 256);
  /* the seam map loads energy rows kD ahead without clamping to the last
   * row: kD rows of padding, read and never used */
  const size_t en_bytes = (cap + (size_t) kD * pitch_max) * 4;

  if ((st = dev_alloc ((void **) &ctx->st, sizeof (DevState), err, "state")) != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaMemset (ctx->st, 0, sizeof (DevState)), err, "seamcarve: cudaMemset (state)");
  if (any_stage) {
    struct {
      void **p;
      size_t bytes;
      const char *what;
    } a[] = {
      { (void **) &ctx->luma, cap, "luma" },
      { (void **) &ctx->src[0], cap * 2, "src map" }, { (void **) &ctx->src[1], cap * 2, "src map" },
      { (void **) &ctx->en[0], en_bytes, "energy" }, { (void **) &ctx->en[1], en_bytes, "energy" },
      { (void **) &ctx->par, cap + kParPad, "parents" }, { (void **) &ctx->et, et * 2, "phase entries" },
      { (void **) &ctx->bnd_m, (size_t) pitch_max * 2 * 8, "boundary rows" },
      { (void **) &ctx->bnd_rt, (size_t) pitch_max * 2 * 8, "boundary roots" },
      { (void **) &ctx->bias, cap * 2, "bias" },
      { (void **) &ctx->smask[0][0], cap, "seam masks" }, { (void **) &ctx->smask[0][1], cap, "seam masks" },
      { (void **) &ctx->smask[1][0], cap, "seam masks" }, { (void **) &ctx->smask[1][1], cap, "seam masks" },
      { (void **) &ctx->best, (size_t) pitch_max * 8, "root keys" },
      { (void **) &ctx->ekey, (size_t) pitch_max * 8, "end column keys" },
      { (void **) &ctx->eroot, (size_t) pitch_max * 4, "end column roots" },
      { (void **) &ctx->order, (size_t) GCV_SEAM_FAST_SCAN * 4, "candidate order" },
      { (void **) &ctx->fend, (size_t) kFastTries * 4, "candidates" },
      { (void **) &ctx->ftop, (size_t) kFastTries * 4, "candidates" },
      { (void **) &ctx->fcost, (size_t) kFastTries * 8, "candidate costs" },
      { (void **) &ctx->path, (size_t) kFastTries * ctx->path_pitch * 2, "seam paths" },
    };
    for (auto &x : a)
      if ((st = dev_alloc (x.p, x.bytes, err, x.what)) != GCV_OK)
        return st;
    if (enlarge) {
      if ((st = dev_alloc ((void **) &ctx->ss[0], cap * 2, err, "step src maps")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->ss[1], cap * 2, err, "step src maps")) != GCV_OK
          || (st = dev_alloc ((void **) &ctx->chosen, cap, err, "chosen pixels")) != GCV_OK)
        return st;
      GCV_CUDA_TRY (cudaMemset (ctx->chosen, 0, cap), err, "seamcarve: cudaMemset (chosen)");
    }
    if (both && (st = dev_alloc ((void **) &ctx->srcmap1, cap * 2, err, "first stage's src map")) != GCV_OK)
      return st;
    const int need_x = enlarge || height, need_y = enlarge, need_z = both;
    const int need[3] = { need_x, need_y, need_z };
    for (int b = 0; b < 3; b++)
      if (need[b] && (st = dev_alloc ((void **) &ctx->pix[b], ctx->plane_bytes * g->n_planes, err,
                  "intermediate images")) != GCV_OK)
        return st;
    for (int d = 0; d < 2; d++)
      for (int f = 0; f < 2; f++)
        GCV_CUDA_TRY (cudaMemset (ctx->smask[d][f], 0, cap), err, "seamcarve: cudaMemset (masks)");
    /* defined contents everywhere: the backtracking's speculative windows
     * read parents around the path (row 0 has none), whole 16-byte chunks
     * of energy are read past the last column */
    GCV_CUDA_TRY (cudaMemset (ctx->par, 0, cap + kParPad), err, "seamcarve: cudaMemset (parents)");
    GCV_CUDA_TRY (cudaMemset (ctx->et, 0, et * 2), err, "seamcarve: cudaMemset (entries)");
    for (int b = 0; b < 2; b++) {
      GCV_CUDA_TRY (cudaMemset (ctx->en[b], 0, en_bytes), err, "seamcarve: cudaMemset (energy)");
      GCV_CUDA_TRY (cudaMemset (ctx->src[b], 0, cap * 2), err, "seamcarve: cudaMemset (src)");
    }
  }
  GCV_CUDA_TRY (cudaHostAlloc ((void **) &ctx->host_st, sizeof (DevState), cudaHostAllocDefault), err,
      "seamcarve: cudaHostAlloc");
  /* the watchdog's report: the device writes it straight into host memory
   * (unified addressing: the same pointer on both sides) */
  GCV_CUDA_TRY (cudaHostAlloc ((void **) &ctx->watch, sizeof (GcvSeamWatch), cudaHostAllocMapped
          | cudaHostAllocPortable), err, "seamcarve: cudaHostAlloc (mapped)");
  memset (ctx->watch, 0, sizeof (GcvSeamWatch));
  {
    void *dev_watch = NULL;
    GCV_CUDA_TRY (cudaHostGetDevicePointer (&dev_watch, ctx->watch, 0), err, "seamcarve: cudaHostGetDevicePointer");
    if (dev_watch != (void *) ctx->watch) {
      gcv_error_set (err, GCV_ERROR_CUDA, "seamcarve: mapped host memory has another address on the device "
          "(no unified addressing)");
      return GCV_ERROR_CUDA;
    }
  }
  const char *watchdog = getenv ("GCV_SEAM_CUDA_WATCHDOG_MS");
  ctx->watch_ns = (unsigned long long) (watchdog ? strtoull (watchdog, NULL, 10) : GCV_SEAM_CUDA_WATCHDOG_MS)
      * 1000000ull;
  const char *fault = getenv ("GCV_SEAM_CUDA_FAULT");
  ctx->fault = fault && strcmp (fault, "barrier") == 0;

  /* can one cooperative launch hold every band? */
  int dev = 0, coop = 0;
  GCV_CUDA_TRY (cudaGetDevice (&dev), err, "seamcarve: cudaGetDevice");
  GCV_CUDA_TRY (cudaDeviceGetAttribute (&ctx->sms, cudaDevAttrMultiProcessorCount, dev), err,
      "seamcarve: cudaDeviceGetAttribute");
  GCV_CUDA_TRY (cudaDeviceGetAttribute (&coop, cudaDevAttrCooperativeLaunch, dev), err,
      "seamcarve: cudaDeviceGetAttribute");
  int occ = 1 << 20;
  for (int f = 0; f < 4; f++) {
    int o = 0;
    GCV_CUDA_TRY (cudaOccupancyMaxActiveBlocksPerMultiprocessor (&o, (const void *) passes_fn (f & 1, f >> 1),
            kThreads, 0), err, "seamcarve: cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    occ = o < occ ? o : occ;
  }
  const char *force = getenv ("GCV_SEAM_CUDA_FALLBACK");
  ctx->coop = coop && occ >= 1 && ctx->bands_max <= ctx->sms * kWarps && !(force && atoi (force) > 0);
  /* GCV_SEAM_TRACE=U,R: the fast trace's variant (FastTrace), for tuning */
  static const int variants[][2] = { {FastTraceA::kRows, FastTraceA::kReach},
    {FastTraceB::kRows, FastTraceB::kReach} };
  const char *trace = getenv ("GCV_SEAM_TRACE");
  int tu = 0, tr = 0;
  ctx->trace = 0;
  if (trace && sscanf (trace, "%d,%d", &tu, &tr) == 2)
    for (int k = 0; k < (int) (sizeof (variants) / sizeof (variants[0])); k++)
      if (variants[k][0] == tu && variants[k][1] == tr)
        ctx->trace = k;
  GCV_CUDA_TRY (cudaDeviceSynchronize (), err, "seamcarve: cudaDeviceSynchronize");
  return GCV_OK;
}

extern "C" GcvSeamCuda *
gcv_seam_cuda_new (const GcvSeamGeometry * geom, GcvError * err)
{
  const char *why = gcv_seam_geometry_check (geom);
  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s", why);
    return NULL;
  }
  GcvSeamCuda *ctx = new (std::nothrow) GcvSeamCuda ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "seamcarve: out of host memory");
    return NULL;
  }
  ctx->g = *geom;
  if (seam_cuda_alloc (ctx, err) != GCV_OK) {
    cudaDeviceSynchronize ();
    cudaGetLastError ();
    gcv_seam_cuda_free (ctx);
    return NULL;
  }
  return ctx;
}

extern "C" GcvStatus
gcv_seam_cuda_check (GcvSeamCuda * ctx, GcvError * err)
{
  const volatile GcvSeamWatch *w = ctx->watch;

  if (w == NULL || w->tripped == 0u)
    return GCV_OK;
  if (w->what == kWaitBarrier)
    gcv_error_set (err, GCV_ERROR_CUDA, "seamcarve: the GPU gave up a frame: block %d of %d waited %.1f s at "
        "grid barrier %d of pass %d; blocks there: %u, gone from the pass loop: %u (%s)", w->block, w->grid,
        w->waited_ns * 1e-9, w->where, w->pass, w->arrived, w->exited, w->exited > 0u
        ? "blocks disagreed on the passes: a fault in the kernel" : "the others never came: blocks not resident "
        "together, or stopped elsewhere");
  else
    gcv_error_set (err, GCV_ERROR_CUDA, "seamcarve: the GPU gave up a frame: band %d (block %d of %d) waited "
        "%.1f s for its neighbours' seam-map phase %d in pass %d; blocks gone from the pass loop: %u", w->where,
        w->block, w->grid, w->waited_ns * 1e-9, w->phase, w->pass, w->exited);
  return GCV_ERROR_CUDA;
}

extern "C" void
gcv_seam_cuda_reset (GcvSeamCuda * ctx)
{
  ctx->have_prev = 0;
}

extern "C" void
gcv_seam_cuda_set_profiling (GcvSeamCuda * ctx, int on)
{
  ctx->profiling = on != 0;
}

extern "C" void
gcv_seam_cuda_set_cancel (GcvSeamCuda * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}

extern "C" void
gcv_seam_cuda_profile (const GcvSeamCuda * ctx, GcvSeamProfile * profile)
{
  *profile = ctx->prof;
}

namespace {

/* Times the work queued by fn on the stream into *ms when profiling. */
template <typename F> GcvStatus
timed (GcvSeamCuda * ctx, cudaStream_t stream, double *ms, GcvError * err, F fn)
{
  if (!ctx->profiling)
    return fn ();
  if (!ctx->ev0) {
    GCV_CUDA_TRY (cudaEventCreate (&ctx->ev0), err, "seamcarve: cudaEventCreate");
    GCV_CUDA_TRY (cudaEventCreate (&ctx->ev1), err, "seamcarve: cudaEventCreate");
  }
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev0, stream), err, "seamcarve: cudaEventRecord");
  GcvStatus st = fn ();
  if (st != GCV_OK)
    return st;
  GCV_CUDA_TRY (cudaEventRecord (ctx->ev1, stream), err, "seamcarve: cudaEventRecord");
  GCV_CUDA_TRY (cudaEventSynchronize (ctx->ev1), err, "seamcarve: cudaEventSynchronize");
  float t = 0;
  GCV_CUDA_TRY (cudaEventElapsedTime (&t, ctx->ev0, ctx->ev1), err, "seamcarve: cudaEventElapsedTime");
  *ms += t;
  return GCV_OK;
}

GcvStatus
launch_gather (GcvSeamCuda * ctx, const GatherArgs & a, cudaStream_t stream, GcvError * err)
{
  dim3 block (32, 8), grid ((a.w + 31) / 32, (a.h + 31) / 32);
  if (ctx->g.channels == 4)
    k_gather<4><<<grid, block, 0, stream>>> (a);
  else
    k_gather<1><<<grid, block, 0, stream>>> (a);
  GCV_CUDA_LAUNCHED (err, "seamcarve: gather launch");
  return GCV_OK;
}

/* One step: energy of its input, then every pass (one cooperative launch,
 * or the fallback's launches). */
GcvStatus
run_step (GcvSeamCuda * ctx, const GcvSeamParams * params, const Stage & S, const View & v, const int16_t * ss,
    int w, int k, int enlarge, int has_bias, cudaStream_t stream, GcvError * err)
{
  const GcvSeamGeometry *g = &ctx->g;
  const int fwd = params->energy == GCV_SEAM_ENERGY_FORWARD, fast = params->mode == GCV_SEAM_MODE_FAST;
  PassArgs a;
  memset (&a, 0, sizeof (a));
  a.h = S.rows;
  a.w0 = w;
  a.pitch = S.pitch;
  a.nph = (S.rows + kR - 1) / kR;
  a.left0 = k;
  a.energy = params->energy;
  a.spp = params->seams_per_pass;
  a.enlarge = enlarge;
  a.has_bias = has_bias;
  a.has_ss = ss != NULL;
  a.luma = ctx->luma;
  for (int b = 0; b < 2; b++) {
    a.src[b] = ctx->src[b];
    a.en[b] = ctx->en[b];
  }
  a.par = ctx->par;
  a.et = ctx->et;
  a.bnd_m = ctx->bnd_m;
  a.bnd_rt = ctx->bnd_rt;
  a.bias = ctx->bias;
  a.ss = ss;
  a.chosen = ctx->chosen;
  a.smask = ctx->smask[S.dim][ctx->frame ^ 1];
  a.best = ctx->best;
  a.ekey = ctx->ekey;
  a.eroot = ctx->eroot;
  a.order = ctx->order;
  a.fend = ctx->fend;
  a.ftop = ctx->ftop;
  a.fcost = ctx->fcost;
  a.path = ctx->path;
  a.path_pitch = ctx->path_pitch;
  a.trace = ctx->trace;
  a.st = ctx->st;
  a.profile = ctx->profiling ? (getenv ("GCV_SEAM_CUDA_DEBUG") ? 2 : 1) : 0;
  a.watch = ctx->watch;
  a.watch_ns = ctx->watch_ns;
  a.fault = ctx->fault;

  GcvStatus st = timed (ctx, stream, &ctx->prof.energy_ms, err, [&] () -> GcvStatus {
    InitArgs ia;
    memset (&ia, 0, sizeof (ia));
    ia.v = v;
    ia.ls = { (int) g->luma.layout, g->luma.r_offset, g->luma.g_offset, g->luma.b_offset };
    ia.h = S.rows;
    ia.w = w;
    ia.pitch = S.pitch;
    ia.energy = params->energy;
    ia.luma = ctx->luma;
    ia.src = ctx->src[0];
    ia.en = ctx->en[0];
    ia.bias = ctx->bias;
    ia.ss = ss;
    ia.has_bias = has_bias;
    ia.has_ss = ss != NULL;
    ia.st = ctx->st;
    ia.bnd_m = ctx->bnd_m;
    ia.bnd_rt = ctx->bnd_rt;
    ia.n_bnd = 2 * S.pitch;
    ia.best = ctx->best;
    ia.n_best = w;
    ia.left0 = k;
    dim3 block (kTileX, kTileY), grid ((w + kTileX - 1) / kTileX, (S.rows + kTileY - 1) / kTileY);
    if (g->channels == 4)
      k_init<4><<<grid, block, 0, stream>>> (ia);
    else
      k_init<1><<<grid, block, 0, stream>>> (ia);
    GCV_CUDA_LAUNCHED (err, "seamcarve: energy launch");
    return GCV_OK;
  });
  if (st != GCV_OK)
    return st;

  if (ctx->coop) {
    double ms = 0;
    st = timed (ctx, stream, &ms, err, [&] () -> GcvStatus {
      void *args[] = { &a };
      GCV_CUDA_TRY (cudaLaunchCooperativeKernel ((const void *) passes_fn (fwd, fast), dim3 (ctx->sms),
              dim3 (kThreads), args, 0, stream), err, "seamcarve: cooperative launch of the pass loop");
      return GCV_OK;
    });
    return st;
  }

  /* fallback: the parts as separate launches, the host looping */
  const int grid = ctx->sms;
  const int dp_blocks = ((w + kB - 1) / kB + kWarps - 1) / kWarps;
  int left = k;
  while (left > 0) {
    /* (fast passes wait for the device below: the request is seen
     * between them) */
    if ((st = gcv_cancel_check (ctx->cancel, "seamcarve", err)) != GCV_OK)
      return st;
    st = timed (ctx, stream, &ctx->prof.seam_map_ms, err, [&] () -> GcvStatus {
      for (int p = 0; p < a.nph; p++) {
        if (fwd && fast)
          k_dp_phase<true, true><<<dp_blocks, kThreads, 0, stream>>> (a, p);
        else if (fwd)
          k_dp_phase<true, false><<<dp_blocks, kThreads, 0, stream>>> (a, p);
        else if (fast)
          k_dp_phase<false, true><<<dp_blocks, kThreads, 0, stream>>> (a, p);
        else
          k_dp_phase<false, false><<<dp_blocks, kThreads, 0, stream>>> (a, p);
        GCV_CUDA_LAUNCHED (err, "seamcarve: seam map launch");
      }
      return GCV_OK;
    });
    if (st != GCV_OK)
      return st;
    st = timed (ctx, stream, &ctx->prof.backtrack_ms, err, [&] () -> GcvStatus {
      if (fast) {
        k_rank<<<grid, kThreads, 0, stream>>> (a);
        GCV_CUDA_LAUNCHED (err, "seamcarve: candidate order launch");
        k_fast_trace<<<1, 32, 0, stream>>> (a);
        GCV_CUDA_LAUNCHED (err, "seamcarve: candidate paths launch");
        if (fwd)
          k_fast_costs<true><<<grid, kThreads, 0, stream>>> (a);
        else
          k_fast_costs<false><<<grid, kThreads, 0, stream>>> (a);
        GCV_CUDA_LAUNCHED (err, "seamcarve: path costs launch");
      } else {
        k_trace<<<1, kThreads, 0, stream>>> (a);
        GCV_CUDA_LAUNCHED (err, "seamcarve: backtrack launch");
      }
      return GCV_OK;
    });
    if (st != GCV_OK)
      return st;
    st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
      if (fast)
        k_carve<true><<<grid, kThreads, 0, stream>>> (a);
      else
        k_carve<false><<<grid, kThreads, 0, stream>>> (a);
      GCV_CUDA_LAUNCHED (err, "seamcarve: carve launch");
      k_advance<<<1, 1, 0, stream>>> (ctx->st);
      GCV_CUDA_LAUNCHED (err, "seamcarve: advance launch");
      return GCV_OK;
    });
    if (st != GCV_OK)
      return st;
    if (fast) {
      GCV_CUDA_TRY (cudaMemcpyAsync (ctx->host_st, ctx->st, sizeof (DevState), cudaMemcpyDeviceToHost, stream),
          err, "seamcarve: reading the pass state back");
      GCV_CUDA_TRY (cudaStreamSynchronize (stream), err, "seamcarve: cudaStreamSynchronize");
      if (ctx->host_st->left >= left) {
        gcv_error_set (err, GCV_ERROR_CUDA, "seamcarve: a fast pass took no seam (%d still wanted)", left);
        return GCV_ERROR_CUDA;
      }
      left = ctx->host_st->left;
    } else {
      left--;
    }
  }
  return GCV_OK;
}

GcvStatus
check_plane (const GcvPlane * p, int w, int h, size_t row_bytes, const char *what, GcvError * err)
{
  if (p->data == NULL || p->width != w || p->height != h || p->stride < row_bytes) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s plane %dx%d (stride %zu, data %p) does not match "
        "the context's %dx%d (%zu bytes a row)", what, p->width, p->height, p->stride, p->data, w, h, row_bytes);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

}                               /* namespace */

extern "C" GcvStatus
gcv_seam_cuda_process (GcvSeamCuda * ctx, const GcvSeamParams * params, const GcvPlane * in, GcvPlane * out,
    GcvPlane * mask, void *stream_ptr, GcvError * err)
{
  cudaStream_t stream = (cudaStream_t) stream_ptr;
  const GcvSeamGeometry *g = &ctx->g;
  const char *why;
  GcvStatus st;

  if (params == NULL || (why = gcv_seam_params_check (params)) != NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s", params ? why : "seamcarve: no parameters");
    return GCV_ERROR_INVALID;
  }
  /* a frame that gave up left the device state half-way */
  if ((st = gcv_seam_cuda_check (ctx, err)) != GCV_OK)
    return st;
  if (in == NULL || (out == NULL && mask == NULL)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seamcarve: %s", in == NULL ? "no input planes"
        : "neither output planes nor a mask to write");
    return GCV_ERROR_INVALID;
  }
  for (int q = 0; q < g->n_planes; q++) {
    if ((st = check_plane (&in[q], g->in_width, g->in_height, (size_t) g->in_width * g->channels, "input",
                err)) != GCV_OK)
      return st;
    if (out && (st = check_plane (&out[q], g->out_width, g->out_height, (size_t) g->out_width * g->channels,
                "output", err)) != GCV_OK)
      return st;
  }
  if (mask && (st = check_plane (mask, g->in_width, g->in_height, (size_t) g->in_width, "mask", err)) != GCV_OK)
    return st;

  memset (&ctx->prof, 0, sizeof (ctx->prof));
  if (ctx->profiling)
    GCV_CUDA_TRY (cudaMemsetAsync (ctx->st, 0, sizeof (DevState), stream), err, "seamcarve: cudaMemsetAsync");

  const int T = gcv_seam_temporal_weight (params->temporal_coherence);
  const int alpha_on = params->mask_alpha && g->alpha_channel >= 0 && g->channels == 4;
  const int temporal_on = T > 0 && ctx->have_prev && ctx->prev_order == params->order;
  const int has_bias = alpha_on || temporal_on;
  const int cur = ctx->frame ^ 1;
  Stage S[2];
  const int ns = make_stages (g, params->order, S);
  const View user_in = view_of_planes (in, g->n_planes, g->channels);
  Dest user_out;
  memset (&user_out, 0, sizeof (user_out));
  if (out) {
    user_out.aligned = g->channels == 4;
    for (int q = 0; q < g->n_planes; q++) {
      user_out.p[q] = (uint8_t *) out[q].data;
      user_out.stride[q] = out[q].stride;
      if ((uintptr_t) out[q].data % 4 || out[q].stride % 4)
        user_out.aligned = 0;
    }
  }
  ctx->have_prev = 0;           /* until this frame is through */

  if (ns == 0) {
    st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
      if (out) {
        GatherArgs ga;
        memset (&ga, 0, sizeof (ga));
        ga.v = user_in;
        ga.d = user_out;
        ga.h = g->in_height;
        ga.w = g->in_width;
        ga.n_planes = g->n_planes;
        if (launch_gather (ctx, ga, stream, err) != GCV_OK)
          return err->status;
      }
      if (mask)
        GCV_CUDA_TRY (cudaMemset2DAsync (mask->data, mask->stride, 0, g->in_width, g->in_height, stream), err,
            "seamcarve: clearing the mask");
      return GCV_OK;
    });
    if (st != GCV_OK)
      return st;
  }

  int curbuf = -1;              /* pixel buffer of the current view: -1 user, 0 X, 1 Y, 2 Z */
  View sview = user_in;
  for (int s = 0; s < ns; s++) {
    const Stage &T_ = S[s];
    /* the stage's input in its orientation */
    if (s == 0 && T_.transposed) {
      st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
        GatherArgs ga;
        memset (&ga, 0, sizeof (ga));
        ga.v = user_in;
        ga.d = dest_internal (ctx, ctx->pix[0], T_.pitch);
        ga.h = g->in_height;
        ga.w = g->in_width;
        ga.n_planes = g->n_planes;
        ga.transpose = 1;
        return launch_gather (ctx, ga, stream, err);
      });
      if (st != GCV_OK)
        return st;
      sview = view_internal (ctx, ctx->pix[0], T_.pitch);
      curbuf = 0;
    } else if (s == 1) {
      sview = view_internal (ctx, ctx->pix[2], T_.pitch);
      curbuf = 2;
    }
    uint8_t *sm = ctx->smask[T_.dim][cur];
    GCV_CUDA_TRY (cudaMemsetAsync (sm, 0, (size_t) T_.rows * T_.pitch, stream), err,
        "seamcarve: clearing the seam mask");
    if (has_bias) {
      st = timed (ctx, stream, &ctx->prof.energy_ms, err, [&] () -> GcvStatus {
        dim3 block (32, 8), grid ((T_.cin + 31) / 32, (T_.rows + 7) / 8);
        if (g->channels == 4)
          k_bias<4><<<grid, block, 0, stream>>> (sview, g->alpha_channel, alpha_on, ctx->smask[T_.dim][ctx->frame],
              temporal_on ? T : 0, T_.rows, T_.cin, T_.pitch, ctx->bias);
        else
          k_bias<1><<<grid, block, 0, stream>>> (sview, g->alpha_channel, 0, ctx->smask[T_.dim][ctx->frame],
              temporal_on ? T : 0, T_.rows, T_.cin, T_.pitch, ctx->bias);
        GCV_CUDA_LAUNCHED (err, "seamcarve: bias launch");
        return GCV_OK;
      });
      if (st != GCV_OK)
        return st;
    }
    /* where the stage's output goes */
    const int last = s == ns - 1;
    const int to_user = last && out != NULL;
    Dest dest = to_user ? user_out : dest_internal (ctx, ctx->pix[2], last ? T_.pitch : S[1].pitch);
    const int keep_map = ns == 2 && s == 0 && mask != NULL;

    if (T_.cout < T_.cin) {
      if ((st = run_step (ctx, params, T_, sview, NULL, T_.cin, T_.cin - T_.cout, 0, has_bias, stream, err))
          != GCV_OK)
        return st;
      if (to_user || !last) {
        st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
          GatherArgs ga;
          memset (&ga, 0, sizeof (ga));
          ga.v = sview;
          ga.d = dest;
          ga.h = T_.rows;
          ga.w = T_.cout;
          ga.n_planes = g->n_planes;
          ga.transpose = last ? T_.transposed : 1;
          ga.src[0] = ctx->src[0];
          ga.src[1] = ctx->src[1];
          ga.src_pitch = T_.pitch;
          ga.st = ctx->st;
          ga.map_out = keep_map ? ctx->srcmap1 : NULL;
          ga.map_pitch = T_.pitch;
          return launch_gather (ctx, ga, stream, err);
        });
        if (st != GCV_OK)
          return st;
      }
    } else {
      GCV_CUDA_TRY (cudaMemsetAsync (ctx->chosen, 0, (size_t) T_.rows * T_.pitch, stream), err,
          "seamcarve: cudaMemsetAsync (chosen)");
      int w = T_.cin, left = T_.cout - T_.cin, ssb = 0;
      const int16_t *ss = NULL;
      View stepv = sview;
      while (left > 0) {
        const int n = gcv_seam_insert_step (w, left);
        if ((st = run_step (ctx, params, T_, stepv, ss, w, n, 1, has_bias, stream, err)) != GCV_OK)
          return st;
        const int ob = curbuf == 0 ? 1 : 0;
        const Dest d = dest_internal (ctx, ctx->pix[ob], T_.pitch);
        st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
          if (g->channels == 4)
            k_insert<4><<<ctx->sms * 4, kThreads, 0, stream>>> (stepv, d, T_.rows, w, g->n_planes, ctx->chosen,
                T_.pitch, ss, ctx->ss[ssb]);
          else
            k_insert<1><<<ctx->sms * 4, kThreads, 0, stream>>> (stepv, d, T_.rows, w, g->n_planes, ctx->chosen,
                T_.pitch, ss, ctx->ss[ssb]);
          GCV_CUDA_LAUNCHED (err, "seamcarve: insert launch");
          return GCV_OK;
        });
        if (st != GCV_OK)
          return st;
        stepv = view_internal (ctx, ctx->pix[ob], T_.pitch);
        curbuf = ob;
        ss = ctx->ss[ssb];
        ssb ^= 1;
        w += n;
        left -= n;
      }
      if (to_user || !last) {
        st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
          GatherArgs ga;
          memset (&ga, 0, sizeof (ga));
          ga.v = stepv;
          ga.d = dest;
          ga.h = T_.rows;
          ga.w = T_.cout;
          ga.n_planes = g->n_planes;
          ga.transpose = last ? T_.transposed : 1;
          ga.map_in = ss;
          ga.map_out = keep_map ? ctx->srcmap1 : NULL;
          ga.map_pitch = T_.pitch;
          return launch_gather (ctx, ga, stream, err);
        });
        if (st != GCV_OK)
          return st;
      }
    }
  }

  if (mask && ns > 0) {
    st = timed (ctx, stream, &ctx->prof.carve_ms, err, [&] () -> GcvStatus {
      dim3 block (32, 8), grid ((g->in_width + 31) / 32, (g->in_height + 7) / 8);
      k_mask_first<<<grid, block, 0, stream>>> ((uint8_t *) mask->data, mask->stride, g->in_width, g->in_height,
          ctx->smask[S[0].dim][cur], S[0].pitch, S[0].transposed, S[0].dim ? GCV_SEAM_MASK_HEIGHT
          : GCV_SEAM_MASK_WIDTH);
      GCV_CUDA_LAUNCHED (err, "seamcarve: mask launch");
      if (ns == 2) {
        dim3 grid2 ((S[1].cin + 31) / 32, (S[1].rows + 7) / 8);
        k_mask_second<<<grid2, block, 0, stream>>> ((uint8_t *) mask->data, mask->stride, S[1].rows, S[1].cin,
            ctx->smask[S[1].dim][cur], S[1].pitch, ctx->srcmap1, S[0].pitch, S[0].transposed,
            S[1].dim ? GCV_SEAM_MASK_HEIGHT : GCV_SEAM_MASK_WIDTH);
        GCV_CUDA_LAUNCHED (err, "seamcarve: mask launch");
      }
      return GCV_OK;
    });
    if (st != GCV_OK)
      return st;
  }

  if (ctx->profiling) {
    GCV_CUDA_TRY (cudaMemcpyAsync (ctx->host_st, ctx->st, sizeof (DevState), cudaMemcpyDeviceToHost, stream), err,
        "seamcarve: reading the profile back");
    GCV_CUDA_TRY (cudaStreamSynchronize (stream), err, "seamcarve: cudaStreamSynchronize");
    const DevState *h = ctx->host_st;
    ctx->prof.seam_map_ms += h->t_dp * 1e-6;
    ctx->prof.backtrack_ms += h->t_trace * 1e-6;
    ctx->prof.carve_ms += h->t_carve * 1e-6;
    ctx->prof.passes = h->passes;
    ctx->prof.seams = h->seams;
    if (getenv ("GCV_SEAM_CUDA_DEBUG"))
      fprintf (stderr, "seamcarve: a middle band of the seam map waited %llu of its %llu cycles; "
          "a grid barrier alone: %llu ns; the fast trace warp: %llu ns in %d passes (variant %d), "
          "%llu ns of it choosing the candidates; ranking %llu ns, path costs %llu ns\n",
          (unsigned long long) h->cyc_wait, (unsigned long long) h->cyc_band, (unsigned long long) h->t_sync,
          (unsigned long long) h->t_walk, h->passes, ctx->trace, (unsigned long long) h->t_cand,
          (unsigned long long) h->t_rank, (unsigned long long) h->t_costs);
  }
  ctx->frame = cur;
  ctx->have_prev = 1;
  ctx->prev_order = params->order;
  return GCV_OK;
}
