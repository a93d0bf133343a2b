/* gst-cuda-video: content-aware resizing by seam carving, the API both
 * backends share.
 *
 * Paper 001 (Duarte and Sendag, "Run-time image and video resizing using
 * CUDA-enabled GPUs"): the energy e = |dI/dx| + |dI/dy| (eq. 1), the
 * cumulative seam map by dynamic programming
 *   S[i][j] = E[i][j] + min (S[i-1][j-1], S[i-1][j], S[i-1][j+1])   (eq. 2)
 * and backtracking from the smallest S of the last row; seams inserted as
 * Avidan and Shamir (2007) describe; the forward energy of Rubinstein,
 * Shamir and Avidan (2008).
 *
 * Definitions (the contract of both backends; every quantity is an integer
 * and every choice has one fixed rule, so cpuseamcarve and cudaseamcarve
 * give identical frames, seams and masks in both modes):
 *
 *  - Stages.  A frame in_width x in_height becomes out_width x out_height in
 *    at most two stages: the width stage (vertical seams, one pixel per
 *    row) and the height stage (horizontal seams).  order says which runs
 *    first; a stage whose size does not change is skipped.  The height
 *    stage IS the width stage run on the transposed image (rows <-> columns)
 *    and transposed back, so every rule below is written for the width
 *    stage only: "row i" of the height stage is column i, and "leftmost"
 *    becomes "topmost".  The second stage's input is the first stage's
 *    output (every channel of every plane).
 *
 *  - Luma L (u8), always computed from the pixels being carved: plane 0
 *    sample as is (GRAY8, Y444's Y), or, for 4-channel packed RGB, integer
 *    BT.601 as GcvLumaInput's PACKED32: (9798 R + 19235 G + 3735 B + 16384) >> 15.
 *    Neighbours outside the image are clamped (replicate border).
 *
 *  - Bias B (int32), fixed per stage in stage-input coordinates (i, c):
 *      alpha:    when params.mask_alpha and the geometry has an alpha
 *                channel: -GCV_SEAM_ALPHA_BIAS where the stage input's alpha
 *                is 0 (remove first), +GCV_SEAM_ALPHA_BIAS where it is 255
 *                (keep), 0 in between;
 *      temporal: T * min (d, GCV_SEAM_TEMPORAL_RANGE), T =
 *                gcv_seam_temporal_weight (params.temporal_coherence), d the
 *                distance in columns from c to the nearest pixel of row i
 *                that the previous frame's same stage marked in its seam
 *                mask (d = GCV_SEAM_TEMPORAL_RANGE when none is that close);
 *                0 on the first frame after _new / _reset, when T = 0,
 *                and when params.order differs from the previous frame's.
 *                ("Previous frame": the last _process that succeeded; a
 *                refused call changes no state.)
 *                The context keeps each stage's own mask (stage-input
 *                coordinates) of the last frame for this, whether or not
 *                the caller asks for the mask.
 *    Every pixel of the working image remembers its stage-input column
 *    src(i, j) (pixels inserted by a seam take the column of the seam
 *    pixel they follow), and its bias is B(i, src(i, j)).
 *
 *  - Energy, on the current working image of width w (columns 0 .. w-1):
 *      dx = L(i, j+1) - L(i, j-1), dy = L(i+1, j) - L(i-1, j) (clamped)
 *      gradient-l1:  E = |dx| + |dy| + bias                (eq. 1, 0..510)
 *      gradient-l2:  E = isqrt (dx^2 + dy^2) + bias        (floor, 0..360)
 *      forward:      no pixel energy; the cost of the seam passing through
 *                    (i, j) coming from (i-1, j+d):
 *                    CU = |L(i, j+1) - L(i, j-1)|,
 *                    CL = CU + |L(i-1, j) - L(i, j-1)|   (d = -1),
 *                    CR = CU + |L(i-1, j) - L(i, j+1)|   (d = +1),
 *                    C0 = CU                             (d = 0)
 *    gcv_seam_pixel_energy() and gcv_seam_forward_cost() below are the
 *    formulas; both backends call them.  After pixels are removed the
 *    energy is that of the new image (a backend may recompute only where
 *    it can change: for one seam, the two pixels either side of it in each
 *    row; the result must equal a full recompute).
 *
 *  - Seam map (eq. 2), int32:
 *      backward energies: M(0, j) = E(0, j);
 *                         M(i, j) = E(i, j) + min_d M(i-1, j+d)
 *      forward:           M(0, j) = B(0, j) + CU(0, j);
 *                         M(i, j) = B(i, j) + min_d (M(i-1, j+d) + C_d(i, j))
 *    over d = -1, 0, +1 with 0 <= j+d < w, taken in that order, the first
 *    strictly smallest wins (ties go left); the winning d is the parent.
 *    |M| < 2^31 for every allowed size (GCV_SEAM_MAX_DIMENSION).
 *
 *  - One pass finds up to P seams on the current image and removes them
 *    from it (each row keeps its other pixels in order), marking their
 *    stage-input columns in the seam mask.  P = 1 in exact mode; P =
 *    gcv_seam_fast_pass_size (params.seams_per_pass, seams still wanted)
 *    in fast mode (at most GCV_SEAM_FAST_TRIES).
 *    P = 1: the seam backtracked through the parents from the smallest
 *    (M (h-1, j), j): the leftmost seam of least total energy, the optimal
 *    greedy result, and the minimum over all connected seams, ties to the
 *    lexicographically smallest column list read from the bottom row up.
 *    P > 1 takes several seams from the same seam map (ours, not the
 *    paper's; docs/seamcarve.md says why):
 *      parent order of a cell: the three d of eq. 2 by the values it
 *          compared (M (i-1, j+d), plus C_d - CU for forward energy),
 *          ties to the smaller d; the first is the parent.  Only d with
 *          0 <= j + d < w count (the last of the order may not exist).
 *      root (j): the column in row 0 reached from (h-1, j) by the parents.
 *      m0 = min_j M (h-1, j); limit = gcv_seam_fast_limit (m0, h) =
 *          m0 + 3 max (m0, h) / 5 (integer division).
 *      order: the end columns j with M (h-1, j) <= limit: first those that
 *          are the cheapest of their root (the smallest (M (h-1, j), j)
 *          of the j with that root), then the others, each group by
 *          (M (h-1, j), j).
 *      candidates: the first GCV_SEAM_FAST_SCAN columns of the order in
 *          turn; column j becomes the next candidate unless the nearest
 *          candidates taken so far left and right of it (by end column)
 *          both exist and have one root (their paths merge: nothing fits
 *          between); at most GCV_SEAM_FAST_TRIES candidates.  A
 *          candidate's rank is the number taken before it.
 *      paths: in rank order, candidate k's path starts at (h-1, its end
 *          column) and goes up.  The candidates of lower rank with a
 *          smaller end column are on its left, the others on its right.
 *          From (i, c): lo = 1 + the column in row i-1 of the nearest path
 *          on its left that reaches row i-1 (0 when none), hi = the same
 *          on its right - 1 (w - 1 when none); the path moves to the first
 *          c + d of (i, c)'s parent order with lo <= c + d <= hi, and when
 *          there is none it ends at row i (it still counts for the later
 *          candidates in the rows it has).  A whole path reaches row 0.
 *      cost of a whole path c_0 .. c_{h-1}: what eq. 2 adds along it, the
 *          sum of E (i, c_i) (forward: B (i, c_i) + C_d (i, c_i) with
 *          d = c_{i-1} - c_i, d = 0 in row 0).
 *      chosen: of the whole paths with cost <= limit, the P with the
 *          smallest (cost, rank).
 *    The paths never share a pixel nor cross (each stays between its
 *    neighbours), so any of them can go in one pass; the first candidate
 *    is the P = 1 seam, whole, costing m0: every pass takes it.
 *  - Reduction by k = w - w' seams: passes until k seams are removed; the
 *    output is the working image's pixels, all channels of all planes
 *    taken from the stage input at (i, src(i, j)).
 *  - Enlargement by k = w' - w seams, in steps of n = min (k left,
 *    max (1, w_step / 2)) seams (w_step the step's input width: at most
 *    1.5x per step, so one region is not stretched over and over).  Each
 *    step finds n seams by reduction passes on a copy of its input (P of a
 *    pass counts the seams the step still wants: n minus those found), then
 *    writes, for every column c of its input in order, pixel c, and after
 *    each chosen c a new pixel (p[c] + p[min (c+1, w_step-1)] + 1) >> 1 per
 *    sample (every channel, alpha too); new pixels get src = src(c).  The
 *    chosen c of a row are the step-input columns of its n seam pixels (a
 *    later pass's seam mapped back through the pixels removed before it),
 *    so n distinct columns per row.  The next step's input is this output.
 *
 *  - Seam mask (optional output, u8, in_width x in_height): 0, or
 *    GCV_SEAM_MASK_WIDTH | GCV_SEAM_MASK_HEIGHT for the input pixels that a
 *    width / height seam removed or duplicated.  The first stage marks
 *    input coordinates directly; the second stage's pixels are mapped back
 *    through the first stage's src map (a pixel the first stage inserted
 *    maps to the seam pixel it follows).  Enlargements mark the seams of
 *    every step, mapped to stage-input columns through src.
 *
 *  - Planes: n_planes planes of in_width x in_height pixels, each of
 *    `channels` interleaved u8 samples (GRAY8: 1 plane x 1, Y444: 3 x 1,
 *    RGBA and friends: 1 x 4).  Every channel of every plane follows the
 *    same seams.  Strides need no alignment.  A GcvPlane's width and height
 *    are in pixels, its stride in bytes (>= width * channels); only the
 *    width * channels bytes of each row are written.  Same size in and
 *    out: the output is a copy of the input, the mask all 0.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_SEAMCARVE_H
#define GCV_SEAMCARVE_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCV_SEAM_MAX_DIMENSION 32767
#define GCV_SEAM_MAX_PLANES 3
#define GCV_SEAM_MAX_CHANNELS 4
/* An alpha of 0 / 255 moves a pixel's energy by this much: more than any
 * seam's energy can differ by in one row (510 + forward 1020 + temporal). */
#define GCV_SEAM_ALPHA_BIAS 16384
/* Temporal penalty: T per column away from last frame's seams, up to this
 * many columns; T = round (temporal_coherence * GCV_SEAM_TEMPORAL_MAX_WEIGHT). */
#define GCV_SEAM_TEMPORAL_RANGE 8
#define GCV_SEAM_TEMPORAL_MAX_WEIGHT 64

/* Fast mode (see "One pass" above): a pass tries at most
 * GCV_SEAM_FAST_TRIES candidate seams, taken from the first
 * GCV_SEAM_FAST_SCAN end columns in (M, j) order, and keeps those that cost
 * at most gcv_seam_fast_limit (). */
#define GCV_SEAM_FAST_TRIES 32
/* seams_per_pass: 1 .. this; a pass never takes more than it tries */
#define GCV_SEAM_MAX_PER_PASS GCV_SEAM_FAST_TRIES
#define GCV_SEAM_FAST_SCAN 256
#define GCV_SEAM_FAST_SLACK_NUM 3       /* slack: 3/5 of the cheapest seam's cost */
#define GCV_SEAM_FAST_SLACK_DEN 5

#define GCV_SEAM_MASK_WIDTH 1
#define GCV_SEAM_MASK_HEIGHT 2

typedef enum {
  GCV_SEAM_ENERGY_GRADIENT_L1 = 0,      /* |dx| + |dy| (the paper's eq. 1) */
  GCV_SEAM_ENERGY_GRADIENT_L2,          /* isqrt (dx^2 + dy^2) */
  GCV_SEAM_ENERGY_FORWARD,              /* Rubinstein et al. 2008: cost of the edges a removal creates */
} GcvSeamEnergy;

typedef enum {
  GCV_SEAM_MODE_EXACT = 0,      /* one seam per pass */
  GCV_SEAM_MODE_FAST,           /* up to seams_per_pass disjoint seams per pass */
} GcvSeamMode;

typedef enum {
  GCV_SEAM_ORDER_WIDTH_FIRST = 0,
  GCV_SEAM_ORDER_HEIGHT_FIRST,
} GcvSeamOrder;

/* May change between _process calls. */
typedef struct {
  GcvSeamEnergy energy;
  GcvSeamMode mode;
  int seams_per_pass;           /* fast mode: 1 .. GCV_SEAM_MAX_PER_PASS (checked in both modes) */
  double temporal_coherence;    /* 0 .. 1 */
  int mask_alpha;               /* boolean; needs geometry alpha_channel >= 0 to matter */
  GcvSeamOrder order;
} GcvSeamParams;

/* Fixed for a context. */
typedef struct {
  int in_width, in_height;      /* 1 .. GCV_SEAM_MAX_DIMENSION */
  int out_width, out_height;    /* 1 .. GCV_SEAM_MAX_DIMENSION */
  int n_planes;                 /* 1 .. GCV_SEAM_MAX_PLANES */
  int channels;                 /* 1 or 4 (u8 samples per pixel, every plane) */
  GcvLumaInput luma;            /* GCV_LUMA_GRAY8 (channels 1) or GCV_LUMA_PACKED32 (channels 4) */
  int alpha_channel;            /* channel of plane 0 that holds alpha, -1 none */
} GcvSeamGeometry;

/* Where the time of the last _process went (only filled when profiling is
 * on: a CUDA context then waits on events between phases). */
typedef struct {
  double energy_ms;             /* luma, bias and energy (initial and updates) */
  double seam_map_ms;           /* the dynamic programming of eq. 2 */
  double backtrack_ms;          /* roots, candidate choice, backtracking */
  double carve_ms;              /* removing / inserting pixels, gathering the output */
  int passes;                   /* seam-map passes (all stages) */
  int seams;                    /* seams found (all stages) */
} GcvSeamProfile;

/* ---- formulas both backends use (host and device) ---------------------- */
#ifdef __CUDACC__
#define GCV_SEAM_FN __host__ __device__ static inline
#else
#define GCV_SEAM_FN static inline
#endif

/* floor (sqrt (n)) for 0 <= n < 2^31, exact */
GCV_SEAM_FN int
gcv_seam_isqrt (int n)
{
  int r = 0, bit = 1 << 30;

  while (bit > n)
    bit >>= 2;
  while (bit != 0) {
    if (n >= r + bit) {
      n -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return r;
}

/* Pixel energy without bias from the clamped neighbours: l, r left and
 * right, u, d above and below.  gradient-l1 / -l2 only. */
GCV_SEAM_FN int
gcv_seam_pixel_energy (GcvSeamEnergy energy, int l, int r, int u, int d)
{
  int dx = r - l, dy = d - u;

  if (energy == GCV_SEAM_ENERGY_GRADIENT_L2)
    return gcv_seam_isqrt (dx * dx + dy * dy);
  return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

/* Forward-energy cost of entering (i, j) from (i-1, j+d), d in -1 .. 1:
 * l = L(i, j-1), r = L(i, j+1) (clamped), u = L(i-1, j). */
GCV_SEAM_FN int
gcv_seam_forward_cost (int d, int l, int r, int u)
{
  int cu = r > l ? r - l : l - r;

  if (d < 0)
    return cu + (u > l ? u - l : l - u);
  if (d > 0)
    return cu + (u > r ? u - r : r - u);
  return cu;
}

/* Luma of a pixel (GcvLumaInput rules). */
GCV_SEAM_FN int
gcv_seam_luma (const unsigned char *px, GcvLumaLayout layout, int r_off, int g_off, int b_off)
{
  if (layout == GCV_LUMA_PACKED32)
    return (9798 * px[r_off] + 19235 * px[g_off] + 3735 * px[b_off] + 16384) >> 15;
  return px[0];
}

/* Fast mode's parent order of a seam-map cell: d, the parent M (i, j)
 * comes from, then s, the second best of d = -1, 0, +1; the third is
 * -d - s.  gcv_seam_parent_step (code, k) is the k-th (0, 1, 2) of the
 * order.  Two bits each, two's complement. */
GCV_SEAM_FN int
gcv_seam_parent_code (int d, int s)
{
  return (d & 3) | (s & 3) << 2;
}

GCV_SEAM_FN int
gcv_seam_parent_step (int code, int k)
{
  const int d = ((code & 3) ^ 2) - 2, s = ((code >> 2 & 3) ^ 2) - 2;

  return k == 0 ? d : k == 1 ? s : -d - s;
}

/* P of a fast pass that may take seams_per_pass seams and still wants
 * `left`: min (seams_per_pass, GCV_SEAM_FAST_TRIES, left). */
GCV_SEAM_FN int
gcv_seam_fast_pass_size (int seams_per_pass, int left)
{
  const int n = seams_per_pass < GCV_SEAM_FAST_TRIES ? seams_per_pass : GCV_SEAM_FAST_TRIES;

  return n < left ? n : left;
}

/* Fast mode: of the candidates of rank below k, the one whose end column
 * (end[]) is the nearest left (side < 0) or right (side > 0) of candidate
 * `from`'s; -1 none.  With from = k: candidate k's nearest lower-ranked
 * neighbour, its first blocker; with from = a blocker whose path does not
 * reach the row: the next one out. */
GCV_SEAM_FN int
gcv_seam_fast_next_blocker (const int *end, int k, int from, int side)
{
  int best = -1;

  for (int q = 0; q < k; q++) {
    if (side < 0 ? end[q] >= end[from] : end[q] <= end[from])
      continue;
    if (best < 0 || (side < 0 ? end[q] > end[best] : end[q] < end[best]))
      best = q;
  }
  return best;
}

/* The most a seam of a fast pass may cost: the cheapest seam's cost m0 plus
 * 3/5 of it (of h when m0 < h, e.g. with alpha or on flat pictures). */
GCV_SEAM_FN long long
gcv_seam_fast_limit (int m0, int h)
{
  const long long base = m0 > h ? m0 : h;

  return m0 + base * GCV_SEAM_FAST_SLACK_NUM / GCV_SEAM_FAST_SLACK_DEN;
}

/* Alpha part of the bias. */
GCV_SEAM_FN int
gcv_seam_alpha_bias (int alpha)
{
  return alpha == 0 ? -GCV_SEAM_ALPHA_BIAS : alpha == 255 ? GCV_SEAM_ALPHA_BIAS : 0;
}

/* ---- shared (cpu/seamcarve.c) ------------------------------------------ */

const char *gcv_seam_energy_name (GcvSeamEnergy energy);
const char *gcv_seam_mode_name (GcvSeamMode mode);

/* NULL when usable, else a message naming the bad value. */
const char *gcv_seam_params_check (const GcvSeamParams * params);
const char *gcv_seam_geometry_check (const GcvSeamGeometry * geom);

/* T of the temporal bias: round (tc * GCV_SEAM_TEMPORAL_MAX_WEIGHT), tc
 * clamped to [0, 1]. */
int gcv_seam_temporal_weight (double temporal_coherence);

/* P of the pass of a step that still wants `left` seams: 1 in exact mode,
 * gcv_seam_fast_pass_size () in fast mode. */
int gcv_seam_pass_size (const GcvSeamParams * params, int left);
/* Seams an enlargement step of input width w takes when `left` are still
 * wanted: min (left, max (1, w / 2)). */
int gcv_seam_insert_step (int w, int left);

/* What one frame costs: the pixels the seam-map passes visit (each pass
 * one visit of every pixel of its working image; fewer passes when a fast
 * pass takes several seams; a lower bound, as a fast pass may take fewer
 * seams than it may).  The CPU carves about 1e9 such visits a second, so
 * 64x48 -> 8192x8192 (1.8e11) takes minutes a frame. */
double gcv_seam_frame_work (const GcvSeamGeometry * geom, const GcvSeamParams * params);
/* The most work a frame of the elements may cost: about 10 s on a CPU
 * core, well under a second on the GPU; 3840x2160 -> 2880x2160 in exact
 * mode is 7e9. */
#define GCV_SEAM_MAX_FRAME_WORK 1e10
/* NULL when a frame of @geom with @params costs at most
 * GCV_SEAM_MAX_FRAME_WORK, else a message giving the cost and what helps. */
const char *gcv_seam_work_check (const GcvSeamGeometry * geom, const GcvSeamParams * params);

/* ---- CPU backend (cpu/seamcarve_cpu.c) ----------------------------------
 * All working memory is made in _new (sized for the largest intermediate
 * image of either order).  n_threads: at most that many threads (0: one
 * per core), as many as each loop is worth (gcv-parallel.h). */
typedef struct _GcvSeamCpu GcvSeamCpu;

GcvSeamCpu *gcv_seam_cpu_new (const GcvSeamGeometry * geom, GcvError * err);
/* Carves one frame: in[0 .. n_planes-1] (in_width x in_height) into
 * out[0 .. n_planes-1] (out_width x out_height), and writes the seam mask
 * into *mask (in_width x in_height, u8).  out or mask may be NULL (not
 * both).  Keeps this frame's seam masks for the temporal bias. */
GcvStatus gcv_seam_cpu_process (GcvSeamCpu * ctx, const GcvSeamParams * params, const GcvPlane * in,
    GcvPlane * out, GcvPlane * mask, int n_threads, GcvError * err);
/* Forgets the previous frame's seams (FLUSH, new stream). */
void gcv_seam_cpu_reset (GcvSeamCpu * ctx);
/* The stop request _process watches (NULL: none); stopped, it returns
 * GCV_ERROR_CANCELLED, the outputs incomplete and the seams forgotten. */
void gcv_seam_cpu_set_cancel (GcvSeamCpu * ctx, const GcvCancel * cancel);
void gcv_seam_cpu_set_profiling (GcvSeamCpu * ctx, int on);
void gcv_seam_cpu_profile (const GcvSeamCpu * ctx, GcvSeamProfile * profile);
void gcv_seam_cpu_free (GcvSeamCpu * ctx);

/* ---- what a carve took, for the elements' post-messages ----------------
 * Over the input frame (plane 0, the geometry's luma): eq. 1's gradient
 * energy without bias, |dx| + |dy| of the luma with clamped neighbours
 * (gcv_seam_pixel_energy, gradient-l1, whatever params.energy), summed
 * over every pixel, and over the pixels of `mask` (in_width x in_height,
 * as _process writes it) that are non-zero: how many, and their energy.
 * Integer sums: both backends give the same numbers. */
typedef struct {
  uint64_t frame_energy;
  uint64_t seam_pixels;
  uint64_t seam_energy;
} GcvSeamEnergySums;

void gcv_seam_energy_sums (const GcvSeamGeometry * geom, const GcvPlane * in0, const GcvPlane * mask,
    GcvSeamEnergySums * sums);
/* The same on device planes (kernels/seamcarve_energy.cu), queued on
 * `stream`: *dev_sums (device memory, the caller's scratch) is cleared,
 * summed into and copied to *host_sums (page-locked), which holds the sums
 * once the stream has passed. */
GcvStatus gcv_seam_cuda_energy_sums (const GcvSeamGeometry * geom, const GcvPlane * in0,
    const GcvPlane * mask, GcvSeamEnergySums * dev_sums, GcvSeamEnergySums * host_sums, void *stream,
    GcvError * err);

/* ---- CUDA backend (kernels/seamcarve.cu; only when built with CUDA) -----
 * The same on device planes, launched on `stream` (a cudaStream_t) without
 * synchronising (except with profiling on).  Every call on a context uses
 * the same stream.  All working memory (luma, energy, seam map, parents,
 * masks, intermediate images) lives on the device, made in _new; no host
 * round trip per seam. */
typedef struct _GcvSeamCuda GcvSeamCuda;

GcvSeamCuda *gcv_seam_cuda_new (const GcvSeamGeometry * geom, GcvError * err);
GcvStatus gcv_seam_cuda_process (GcvSeamCuda * ctx, const GcvSeamParams * params, const GcvPlane * in,
    GcvPlane * out, GcvPlane * mask, void *stream, GcvError * err);
/* The pass loop waits on the device (grid barriers, neighbour bands); a
 * wait that lasts GCV_SEAM_CUDA_WATCHDOG_MS (the environment variable of
 * that name overrides it; 0: never) gives up and the launch ends, its
 * frame's output garbage, instead of hanging the stream.  Once the stream
 * has passed a frame: GCV_OK, or GCV_ERROR_CUDA saying what waited for
 * what, for this or any earlier frame of ctx (then every later _process
 * fails too). */
#define GCV_SEAM_CUDA_WATCHDOG_MS 5000
GcvStatus gcv_seam_cuda_check (GcvSeamCuda * ctx, GcvError * err);
void gcv_seam_cuda_reset (GcvSeamCuda * ctx);
void gcv_seam_cuda_set_profiling (GcvSeamCuda * ctx, int on);
/* The stop request _process watches between passes where the host loops
 * over them (GPUs without cooperative launch; NULL: none). */
void gcv_seam_cuda_set_cancel (GcvSeamCuda * ctx, const GcvCancel * cancel);
void gcv_seam_cuda_profile (const GcvSeamCuda * ctx, GcvSeamProfile * profile);
void gcv_seam_cuda_free (GcvSeamCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_SEAMCARVE_H */
