/* gst-cuda-video: Vector Coherence Mapping (sparse motion tracking), the
 * API both backends share.
 *
 * Paper 002 (Park, Singhal, Lee, Cho, Kim, Quek: "Design and performance
 * evaluation of image processing algorithms on GPUs"), section 4, after
 * Quek and Bryll's VCM: interest points by a fuzzy AND of spatial and
 * temporal gradients (4.3.1), one normal correlation map (NCM) per point
 * (4.3.2), and the vector coherence map (VCM): the weighted sum of the
 * neighbours' NCMs, whose maximum is the point's vector (4.3.3).
 *
 * Definitions (the contract of both backends: every step is integer, or
 * IEEE double arithmetic with one rounding per operation in a fixed order,
 * so cpuvcm and cudavcm give identical points and vectors):
 *
 *  - Frames.  P = I(t), the previous frame, and C = I(t+1), the current
 *    one: 8-bit luma planes of W x H.  Vectors go from P to C: the content
 *    at point p of P is found at p + (dx, dy) in C (right / down positive).
 *
 *  - Interest measure st (params->interest), for a pixel (x, y) inside the
 *    margin below; gx, gy are the 3x3 Sobel derivatives of P at a pixel:
 *        D = |C[y][x] - P[y][x]|               0 .. 255 ("a change")
 *    GCV_VCM_INTEREST_EDGE, the paper's (4.3.1; gcv_vcm_st()):
 *        G = |gx| + |gy| at (x, y)             0 .. 2040
 *        st = min (G >> 3, D)                  0 .. 255
 *    GCV_VCM_INTEREST_CORNER, the default (ours; gcv_vcm_st_corner()): with
 *    n = t^2 the template's pixels (t = template_size, tr = t / 2) and the
 *    exact integer sums over them, Sxx = sum gx^2, Sxy = sum gx gy,
 *    Syy = sum gy^2 (the template's structure tensor):
 *        det = Sxx Syy - Sxy^2,  trace = Sxx + Syy
 *        h = floor (det / trace)  (0 when trace == 0)
 *        E = min (255, isqrt (floor (h / (4 n))))   (isqrt: floor of the
 *                                                    square root, exact)
 *        st = min (E, D)                       0 .. 255
 *    Each is a membership on a 0 .. 255 scale and their fuzzy AND is the
 *    minimum (Zadeh's AND): a point needs both texture and motion.  The
 *    paper's edge membership G >> 3 (the Sobel magnitude's full scale 2040
 *    maps to 255) is also high on straight edges, where a template only
 *    fixes the motion across the edge (the aperture problem: along a long
 *    edge the NCMs of a point and of all its neighbours are ridges, and
 *    the VCM peak can slide along them by many pixels).  h lies between
 *    half the structure tensor's smaller eigenvalue and that eigenvalue, so
 *    E is high only where the template has gradients in two directions
 *    (corners, texture); sqrt (h / (4 n)) is half the RMS Sobel response
 *    across the template's weaker direction.
 *
 *  - Eligible pixels: inside the margin m (m <= x <= W - 1 - m,
 *    m <= y <= H - 1 - m) and st > st_threshold, where m (gcv_vcm_margin())
 *    is the largest of 1, template_size / 2 (the template lies inside P),
 *    template_size / 2 + 1 with the corner measure (its Sobel windows lie
 *    inside P) and, when the gradient refinement is on (subpixel and
 *    refine_size = 2 r + 1 > 0), r + 1 (the refinement's window and its
 *    central differences lie inside P: a point the refinement cannot reach
 *    is not picked).
 *
 *  - Windows of window_size^2 pixels tile the frame: cols = ceil (W / ws)
 *    by rows = ceil (H / ws), raster order, the last column / row clipped.
 *    In each window the eligible pixels are ranked by (st descending, then
 *    raster position y, x ascending); rank = how many eligible pixels of
 *    the window come before.  Ranks 0 .. points_per_window - 1 are the
 *    window's candidates (paper 4.3.1: a pixel is dropped once n better
 *    ones are seen).
 *
 *  - Candidate order: windows in raster order, within a window by rank.
 *    When there are more than max_points candidates, the max_points
 *    strongest are kept: with c the largest value such that at least
 *    max_points candidates have st >= c, every candidate with st > c and
 *    the first (max_points - count (st > c)) with st == c, in candidate
 *    order.  The point list is the kept candidates in candidate order
 *    (window order, not strength order); N <= max_points.
 *
 *  - NCM of point p = (x, y), template t = template_size (odd), tr = t / 2,
 *    n = t * t; search radius R = search_size / 2 (search_size even); the
 *    map has M = 2 R + 1 entries a side, displacement (dx, dy) with
 *    |dx|, |dy| <= R at entry (dy + R) * M + (dx + R).  Template
 *    T(u, v) = P[y + v][x + u], window W(u, v) = C[y + dy + v][x + dx + u],
 *    |u|, |v| <= tr.  A displacement is valid when the window lies inside C.
 *    With the exact integer sums St = sum T, Stt = sum T^2, Sw, Sww,
 *    Stw = sum T W:
 *        A = n Stt - St^2,   B = n Sww - Sw^2,   num = n Stw - St Sw
 *        ncm = 0 when A == 0 or B == 0, else
 *        ncm = floor ((double) (num * 32767) / sqrt ((double) A * (double) B) + 0.5)
 *    (zero-mean normalised cross-correlation times 32767, clamped to
 *    +-32767; gcv_vcm_ncc_q() does the double steps, one rounding each).
 *    Invalid displacements hold GCV_VCM_NCM_INVALID.
 *
 *  - Spatial weights: rc2 = floor (coherence_radius^2); the neighbours of
 *    point i are the points j of the list (i itself included) with
 *    d2 = (xj - xi)^2 + (yj - yi)^2 <= rc2, weight
 *        w (d2) = floor (256 exp (-d2 / (2 coherence_sigma^2)) + 0.5)
 *    (a table made once on the host, gcv_vcm_tables_make(); neighbours of
 *    weight 0 add nothing).  Wsum_i = sum of the neighbours' weights.
 *
 *  - Temporal term (the previous call's vectors, "history"): the previous
 *    point k nearest to p_i, by squared distance between their positions
 *    (previous points at their positions in their own P), with that
 *    distance <= rc2 (ties: the smaller k); with tw = floor (256
 *    temporal_weight + 0.5) > 0 and such a k, whose integer vector is
 *    (ex, ey):
 *        T_i (d) = tw * b ((dx - ex)^2 + (dy - ey)^2),
 *        b (e2) = floor (32767 exp (-e2 / (2 temporal_sigma^2)) + 0.5)
 *    (a table too) and Wsum_i += tw; otherwise T_i = 0.  The history is the
 *    last call's point list with integer vectors; set_reference (first
 *    frame, FLUSH, caps change) clears it.
 *
 *  - VCM: for every d where point i's own NCM is valid,
 *        V_i (d) = sum over neighbours j with ncm_j (d) valid of
 *                  w (d2_ij) * ncm_j (d)   +   T_i (d)        (int64)
 *    The integer vector (ex, ey) is the valid d of the largest V; ties:
 *    smaller |dx| + |dy|, then smaller dy, then smaller dx (gcv_vcm_key():
 *    the best is the smallest key).  Every point has one: d = (0, 0) is
 *    always valid.
 *
 *  - Sub-pixel (subpixel TRUE), each axis alone: with a = V (e - 1),
 *    b = V (e), c = V (e + 1) along the axis, when both neighbours are in
 *    the map and valid and den = a - 2 b + c < 0:
 *        delta = (double) (a - c) / (double) (2 den)           (in -0.5 .. 0.5)
 *    else delta = 0 (gcv_vcm_parabola()).  dx = (float) ((double) ex + delta).
 *
 *  - Gradient refinement (subpixel TRUE and refine_size r2 = 2 r + 1 > 0;
 *    our addition to the paper: the VCM peak's parabola is biased towards
 *    whole pixels, Lucas-Kanade iterations on a larger window are not),
 *    gcv_vcm_refine(): the vector in 1/256 pixel, q = floor (256 d + 0.5)
 *    from the parabola's d, moves by Gauss-Newton steps that align the
 *    r2 x r2 window of P around p with C, sampled at p + q / 256 by Keys'
 *    cubic convolution (a = -1/2, Catmull-Rom) with exact integer weights.
 *    Gradients of P by central differences gx = P[y][x+1] - P[y][x-1], gy
 *    likewise; G = sums of gx^2, gx gy, gy^2 and det = Gxx Gyy - Gxy^2
 *    (exact int64).  Per step, with q = 256 (ix, iy) + (fx, fy),
 *    0 <= fx, fy < 256, the weights of one axis (gcv_vcm_cubic_weights(),
 *    2^25 times the kernel at offsets 1 + f / 256, f / 256, 1 - f / 256,
 *    2 - f / 256; they sum to 2^25):
 *        k0 = -f^3 + 512 f^2 - 65536 f      k1 = 3 f^3 - 1280 f^2 + 2^25
 *        k2 = -3 f^3 + 1024 f^2 + 65536 f   k3 = f^3 - 256 f^2
 *    the sample at window pixel (X, Y) = (x + u, y + v) (int64, exact)
 *        s = sum_j ky_j (sum_i kx_i C[Y + iy + j - 1][X + ix + i - 1])
 *    the residual (gcv_vcm_refine_residual())
 *        e = floor ((s + 2^33) / 2^34) - 65536 P[Y][X]
 *    (C and P in 1/65536 grey level, floor also for negative s), bx =
 *    sum gx e, by = sum gy e (int64), the step
 *        sx = floor ((Gyy bx - Gxy by) / (128 det) + 0.5),  sy likewise
 *    (double, one rounding per operation in that order) and q -= s; at
 *    most GCV_VCM_REFINE_STEPS steps, stopping at s = (0, 0).  It is not
 *    done (the parabola's vector stays) when the window with its border
 *    leaves P, when det <= 0; it stops with the last q whose samples lie
 *    inside C (columns x - r + ix - 1 .. x + r + ix + 2, rows likewise);
 *    and the parabola's vector stays when the result is more than one
 *    pixel (256) away from it on an axis.  dx = (float) (q / 256.0).
 *    (The bilinear samples the refinement used first leave about a third
 *    more error at the 90th percentile on the fractional translation of
 *    the test sequences: 0.059 against 0.043 pixel.)
 *
 *  - score = (float) ((double) V_i (e) / (32767.0 * (double) Wsum_i)): 1
 *    when every neighbour's correlation is perfect at the vector.
 *
 *  - Output per point: GcvVcmPoint { x, y, dx, dy, score }, the list's
 *    order.  The same record is the public meta's (gst/gstcudamotionmeta.h,
 *    kind "points").
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_VCM_H
#define GCV_VCM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GCV_VCM_FN static __host__ __device__ __forceinline__
#else
#define GCV_VCM_FN static inline
#endif

#define GCV_VCM_MIN_WINDOW 4
#define GCV_VCM_MAX_WINDOW 32
#define GCV_VCM_MAX_POINTS_PER_WINDOW 64
#define GCV_VCM_MAX_POINTS 65536
#define GCV_VCM_MIN_TEMPLATE 3
#define GCV_VCM_MAX_TEMPLATE 13         /* n Stt, n Sww < 2^31; num * 32767 < 2^53 */
#define GCV_VCM_MIN_SEARCH 4            /* the smallest template (3) must fit */
#define GCV_VCM_MAX_SEARCH 128          /* R <= 64: the key packs dx + 64 in 8 bits */
#define GCV_VCM_MAX_RADIUS 64.0         /* coherence_radius, pixels */
#define GCV_VCM_NCM_SCALE 32767
#define GCV_VCM_NCM_INVALID (-32768)
#define GCV_VCM_WEIGHT_ONE 256          /* w (0) */
#define GCV_VCM_MAX_REFINE 31           /* sums stay exact in int64 */
#define GCV_VCM_REFINE_STEPS 8
#define GCV_VCM_SUBPEL 256              /* the refinement's units per pixel */
#define GCV_VCM_CUBIC_ONE 33554432      /* 2^25: the cubic weights of an axis sum to it */

/* The interest measure (GcvVcmParams.interest). */
#define GCV_VCM_INTEREST_EDGE 0         /* the paper's: Sobel magnitude AND change */
#define GCV_VCM_INTEREST_CORNER 1       /* ours, the default: the template's structure tensor AND change */

typedef struct {
  int window_size;              /* GCV_VCM_MIN_WINDOW .. GCV_VCM_MAX_WINDOW */
  int points_per_window;        /* 1 .. min (GCV_VCM_MAX_POINTS_PER_WINDOW, window_size^2) */
  int max_points;               /* 1 .. GCV_VCM_MAX_POINTS */
  int st_threshold;             /* 0 .. 254: st must exceed it */
  int template_size;            /* odd, 3 .. 13, <= search_size */
  int search_size;              /* even, 4 .. 128: displacements up to search_size / 2 */
  double coherence_radius;      /* 0 .. 64 pixels (0: a point's own NCM only) */
  double coherence_sigma;       /* 0.1 .. 1000 pixels */
  double temporal_weight;       /* 0 .. 16 (0: no temporal term) */
  double temporal_sigma;        /* 0.1 .. 1000 pixels of displacement */
  int subpixel;                 /* parabola fit on the VCM peak, then the refinement */
  int refine_size;              /* 0 (off) or odd, 3 .. 31: the gradient refinement's window */
  int interest;                 /* GCV_VCM_INTEREST_CORNER (default) or _EDGE (the paper's) */
} GcvVcmParams;

/* Defaults of the elements' properties (the paper's 16x16 windows, 5x5
 * template, 64x64 NCM, 2048 points; our corner measure and the 15x15
 * gradient refinement). */
void gcv_vcm_params_init (GcvVcmParams * params);
/* NULL when params are usable, else a message naming the bad value (and
 * the accepted range). */
const char *gcv_vcm_params_check (const GcvVcmParams * params);

/* One tracked point; 20 bytes, native endian, no padding. */
typedef struct {
  float x, y;                   /* position in P, whole pixels */
  float dx, dy;                 /* vector, pixels */
  float score;                  /* V at the vector / (32767 Wsum): <= 1 */
} GcvVcmPoint;

/* The weight tables of the params (host memory, made by
 * gcv_vcm_tables_make() with the rounding rules above). */
typedef struct {
  int rc2;                      /* floor (coherence_radius^2) */
  int32_t spatial[64 * 64 + 1]; /* w (d2), d2 = 0 .. rc2 */
  int tw;                       /* floor (256 temporal_weight + 0.5) */
  int e2_max;                   /* 8 * 64^2: the largest (dx - ex)^2 + (dy - ey)^2 of any
                                 * search size (the history may come from a larger one) */
  int32_t temporal[8 * 64 * 64 + 1];    /* b (e2), e2 = 0 .. e2_max */
} GcvVcmTables;

void gcv_vcm_tables_make (const GcvVcmParams * params, GcvVcmTables * tables);

/* Per-phase times of the last call, milliseconds (CPU: wall clock; CUDA:
 * events on the stream). */
typedef struct {
  double points_ms;             /* st, per-window ranks, frame cap, list */
  double ncm_ms;
  double vcm_ms;                /* VCM, peak, sub-pixel */
} GcvVcmTimes;

GCV_VCM_FN int gcv_vcm_radius (const GcvVcmParams * p) { return p->search_size / 2; }
GCV_VCM_FN int gcv_vcm_map_side (const GcvVcmParams * p) { return 2 * (p->search_size / 2) + 1; }
GCV_VCM_FN int
gcv_vcm_margin (const GcvVcmParams * p)
{
  int m = p->template_size / 2 + (p->interest == GCV_VCM_INTEREST_CORNER ? 1 : 0);

  if (m < 1)
    m = 1;
  if (p->subpixel && p->refine_size > 0 && p->refine_size / 2 + 1 > m)
    m = p->refine_size / 2 + 1;
  return m;
}
GCV_VCM_FN int gcv_vcm_window_cols (int width, const GcvVcmParams * p)
{
  return (width + p->window_size - 1) / p->window_size;
}
GCV_VCM_FN int gcv_vcm_window_rows (int height, const GcvVcmParams * p)
{
  return (height + p->window_size - 1) / p->window_size;
}

/* The 3x3 Sobel derivatives of P at (x, y), 1 <= x <= W - 2,
 * 1 <= y <= H - 2; strides in bytes. */
GCV_VCM_FN void
gcv_vcm_sobel (const uint8_t * prev, size_t prev_stride, int x, int y, int *gx, int *gy)
{
  const uint8_t *a = prev + (size_t) (y - 1) * prev_stride + x, *b = a + prev_stride, *c = b + prev_stride;

  *gx = (a[1] + 2 * b[1] + c[1]) - (a[-1] + 2 * b[-1] + c[-1]);
  *gy = (c[-1] + 2 * c[0] + c[1]) - (a[-1] + 2 * a[0] + a[1]);
}

/* D, the change membership |C - P| at (x, y). */
GCV_VCM_FN int
gcv_vcm_change (const uint8_t * prev, size_t prev_stride, const uint8_t * cur, size_t cur_stride, int x, int y)
{
  int d = (int) cur[(size_t) y * cur_stride + x] - (int) prev[(size_t) y * prev_stride + x];

  return d < 0 ? -d : d;
}

/* The paper's st (GCV_VCM_INTEREST_EDGE) at (x, y), 1 <= x <= W - 2,
 * 1 <= y <= H - 2. */
GCV_VCM_FN int
gcv_vcm_st (const uint8_t * prev, size_t prev_stride, const uint8_t * cur, size_t cur_stride, int x, int y)
{
  int gx, gy, g, d;

  gcv_vcm_sobel (prev, prev_stride, x, y, &gx, &gy);
  g = ((gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy)) >> 3;
  d = gcv_vcm_change (prev, prev_stride, cur, cur_stride, x, y);
  return g < d ? g : d;
}

/* E of the corner measure from the structure tensor's sums over n pixels
 * (exact: |Sobel| <= 1020, n <= 13^2, so det < 2^55). */
GCV_VCM_FN int
gcv_vcm_corner_of (int64_t sxx, int64_t sxy, int64_t syy, int n)
{
  int64_t trace = sxx + syy, det = sxx * syy - sxy * sxy, v;
  int r = 0, b;

  if (trace <= 0 || det <= 0)
    return 0;
  v = det / trace / (4 * (int64_t) n);  /* floor (floor (det / trace) / (4 n)): both >= 0 */
  if (v >= 255 * 255)
    return 255;
  /* the largest r with r^2 <= v, bit by bit */
  for (b = 128; b > 0; b >>= 1)
    if ((r + b) * (r + b) <= (int) v)
      r += b;
  return r;
}

/* E at (x, y), the t x t template (t = template_size) inside the margin:
 * every Sobel window lies inside P. */
GCV_VCM_FN int
gcv_vcm_corner (const uint8_t * prev, size_t prev_stride, int x, int y, int template_size)
{
  int tr = template_size / 2, u, v, gx, gy;
  int64_t sxx = 0, sxy = 0, syy = 0;

  for (v = -tr; v <= tr; v++)
    for (u = -tr; u <= tr; u++) {
      gcv_vcm_sobel (prev, prev_stride, x + u, y + v, &gx, &gy);
      sxx += gx * gx;
      sxy += gx * gy;
      syy += gy * gy;
    }
  return gcv_vcm_corner_of (sxx, sxy, syy, template_size * template_size);
}

/* The corner measure's st (GCV_VCM_INTEREST_CORNER) at (x, y) inside the
 * margin. */
GCV_VCM_FN int
gcv_vcm_st_corner (const uint8_t * prev, size_t prev_stride, const uint8_t * cur, size_t cur_stride, int x, int y,
    int template_size)
{
  int e = gcv_vcm_corner (prev, prev_stride, x, y, template_size);
  int d = gcv_vcm_change (prev, prev_stride, cur, cur_stride, x, y);

  return e < d ? e : d;
}

/* ncm from the exact sums (n = template pixels).  The double steps are
 * written as one operation each, and on the device as the _rn intrinsics,
 * so that no compiler contracts them into a fused multiply-add. */
GCV_VCM_FN int
gcv_vcm_ncc_q (int n, int64_t st, int64_t stt, int64_t sw, int64_t sww, int64_t stw)
{
  int64_t a = n * stt - st * st, b = n * sww - sw * sw, num = n * stw - st * sw;
  double q;

  if (a == 0 || b == 0)
    return 0;
#ifdef __CUDA_ARCH__
  q = __dadd_rn (__ddiv_rn ((double) (num * GCV_VCM_NCM_SCALE),
          __dsqrt_rn (__dmul_rn ((double) a, (double) b))), 0.5);
#else
  {
    volatile double ab = (double) a * (double) b;
    volatile double r = (double) (num * GCV_VCM_NCM_SCALE) / sqrt (ab);
    q = r + 0.5;
  }
#endif
  q = floor (q);
  return q > GCV_VCM_NCM_SCALE ? GCV_VCM_NCM_SCALE : q < -GCV_VCM_NCM_SCALE ? -GCV_VCM_NCM_SCALE : (int) q;
}

/* The peak order as one number, smaller is better: |V| < 2^37 always
 * (at most 64^2 pi neighbours, weights <= 256, |ncm| <= 32767, plus the
 * temporal term), so bits 24..63 hold 2^40 - 1 - (V + 2^39), 16..23
 * |dx| + |dy| (<= 128), 8..15 dy + 64, 0..7 dx + 64. */
GCV_VCM_FN uint64_t
gcv_vcm_key (int64_t v, int dx, int dy)
{
  uint64_t inv = (uint64_t) (((int64_t) 1 << 40) - 1 - (v + ((int64_t) 1 << 39)));
  uint64_t l1 = (uint64_t) ((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));

  return (inv << 24) | (l1 << 16) | ((uint64_t) (dy + 64) << 8) | (uint64_t) (dx + 64);
}

GCV_VCM_FN int gcv_vcm_key_dx (uint64_t key) { return (int) (key & 255u) - 64; }
GCV_VCM_FN int gcv_vcm_key_dy (uint64_t key) { return (int) ((key >> 8) & 255u) - 64; }
GCV_VCM_FN int64_t
gcv_vcm_key_value (uint64_t key)
{
  return ((int64_t) 1 << 40) - 1 - (int64_t) (key >> 24) - ((int64_t) 1 << 39);
}

/* Sub-pixel offset of the peak b between a (at -1) and c (at +1); the
 * caller passes have_both = 0 when a neighbour is outside the map or
 * invalid. */
GCV_VCM_FN double
gcv_vcm_parabola (int have_both, int64_t a, int64_t b, int64_t c)
{
  int64_t den = a - 2 * b + c;

  if (!have_both || den >= 0)
    return 0.0;
#ifdef __CUDA_ARCH__
  return __ddiv_rn ((double) (a - c), (double) (2 * den));
#else
  return (double) (a - c) / (double) (2 * den);
#endif
}

GCV_VCM_FN float
gcv_vcm_score (int64_t v, int64_t wsum)
{
#ifdef __CUDA_ARCH__
  return (float) __ddiv_rn ((double) v, __dmul_rn ((double) GCV_VCM_NCM_SCALE, (double) wsum));
#else
  volatile double den = (double) GCV_VCM_NCM_SCALE * (double) wsum;
  return (float) ((double) v / den);
#endif
}

/* One Gauss-Newton step of gcv_vcm_refine (), in 1/256 pixel:
 * s = floor (G^-1 b / 128 + 0.5), G = [gxx gxy; gxy gyy] (det its
 * determinant, > 0), b = (bx, by), by the contract's operations in this
 * order, each rounded to nearest (the _rn intrinsics on the device, the
 * volatile doubles on the host keep the compilers from contracting them),
 * so that host and device steps are bit-identical.  Moves q = (*cx, *cy)
 * by -s and returns 1; returns 0 (q unchanged: the refinement stops) when
 * s is zero or 2^30 or more. */
GCV_VCM_FN int
gcv_vcm_refine_step (int64_t gxx, int64_t gxy, int64_t gyy, int64_t det, int64_t bx, int64_t by, int *cx, int *cy)
{
  double sx, sy;

#ifdef __CUDA_ARCH__
  const double den = __dmul_rn ((double) det, 128.0);
  const double nx = __dsub_rn (__dmul_rn ((double) gyy, (double) bx), __dmul_rn ((double) gxy, (double) by));
  const double ny = __dsub_rn (__dmul_rn ((double) gxx, (double) by), __dmul_rn ((double) gxy, (double) bx));
  sx = floor (__dadd_rn (__ddiv_rn (nx, den), 0.5));
  sy = floor (__dadd_rn (__ddiv_rn (ny, den), 0.5));
#else
  {
    volatile double d = (double) det * 128.0, a1 = (double) gyy * (double) bx, a2 = (double) gxy * (double) by;
    volatile double b1 = (double) gxx * (double) by, b2 = (double) gxy * (double) bx;
    volatile double n1 = a1 - a2, n2 = b1 - b2, q1 = n1 / d, q2 = n2 / d;
    double nx = q1 + 0.5, ny = q2 + 0.5;

    sx = floor (nx);
    sy = floor (ny);
  }
#endif
  if (sx == 0.0 && sy == 0.0)
    return 0;
  /* |cx| < 256 W here (its window is inside C): a step of 2^30 or more
   * puts the window outside, and the next check would stop with this q */
  if (sx >= 1073741824.0 || sx <= -1073741824.0 || sy >= 1073741824.0 || sy <= -1073741824.0)
    return 0;
  *cx -= (int) sx;
  *cy -= (int) sy;
  return 1;
}

/* Whether the refinement's result (lx, ly) is dropped: no q was met whose
 * window lies inside C (have), or it is more than a pixel from the start
 * (qx0, qy0). */
GCV_VCM_FN int
gcv_vcm_refine_dropped (int have, int lx, int ly, int qx0, int qy0)
{
  return !have || lx - qx0 > GCV_VCM_SUBPEL || qx0 - lx > GCV_VCM_SUBPEL || ly - qy0 > GCV_VCM_SUBPEL
      || qy0 - ly > GCV_VCM_SUBPEL;
}

/* Keys' cubic weights (a = -1/2) of one axis at the fraction f / 256
 * (0 <= f < 256), times 2^25, exact: for the samples at -1, 0, 1, 2. */
GCV_VCM_FN void
gcv_vcm_cubic_weights (int f, int32_t k[4])
{
  int32_t f2 = f * f, f3 = f2 * f;

  k[0] = -f3 + 512 * f2 - 65536 * f;
  k[1] = 3 * f3 - 1280 * f2 + GCV_VCM_CUBIC_ONE;
  k[2] = -3 * f3 + 1024 * f2 + 65536 * f;
  k[3] = f3 - 256 * f2;
}

/* The refinement's residual e at one window pixel: c points at C's sample
 * (X + ix, Y + iy) (the 4 x 4 samples are c[-1 .. 2] of rows -1 .. 2), p0
 * is P[Y][X].  s is exact in int64 (|s| < 1.6 * 2^50 * 255); the floor
 * division is written for negative s too. */
GCV_VCM_FN int
gcv_vcm_refine_residual (const uint8_t * c, size_t stride, const int32_t kx[4], const int32_t ky[4], int p0)
{
  const int64_t half = (int64_t) 1 << 33, unit = (int64_t) 1 << 34;
  int64_t s = 0, n, q;
  int j;

  c -= stride;
  for (j = 0; j < 4; j++, c += stride) {
    int64_t h = (int64_t) kx[0] * c[-1] + (int64_t) kx[1] * c[0] + (int64_t) kx[2] * c[1] + (int64_t) kx[3] * c[2];
    s += ky[j] * h;
  }
  n = s + half;
  q = n >= 0 ? n / unit : -((-n + unit - 1) / unit);
  return (int) q - 65536 * p0;
}

/* Whether the refinement's samples at q = 256 (ix, iy) + f lie inside C
 * for the window of radius r around (x, y). */
GCV_VCM_FN int
gcv_vcm_refine_inside (int width, int height, int x, int y, int r, int ix, int iy)
{
  return x - r + ix - 1 >= 0 && y - r + iy - 1 >= 0 && x + r + ix + 2 <= width - 1 && y + r + iy + 2 <= height - 1;
}

/* The gradient refinement of point (x, y) of P (the contract above):
 * *qx, *qy hold the vector in 1/256 pixel on entry (from the parabola) and
 * on return.  Returns 1 when the vector moved. */
GCV_VCM_FN int
gcv_vcm_refine (const uint8_t * prev, size_t prev_stride, const uint8_t * cur, size_t cur_stride,
    int width, int height, int x, int y, int refine_size, int *qx, int *qy)
{
  int r = refine_size / 2, u, v, step, qx0 = *qx, qy0 = *qy, cx = *qx, cy = *qy, lx, ly, have = 0;
  int64_t gxx = 0, gxy = 0, gyy = 0, det;

  if (refine_size <= 0 || x - r < 1 || y - r < 1 || x + r > width - 2 || y + r > height - 2)
    return 0;
  for (v = -r; v <= r; v++) {
    const uint8_t *row = prev + (size_t) (y + v) * prev_stride + x;
    for (u = -r; u <= r; u++) {
      int gx = row[u + 1] - row[u - 1];
      int gy = row[u + (ptrdiff_t) prev_stride] - row[u - (ptrdiff_t) prev_stride];
      gxx += gx * gx;
      gxy += gx * gy;
      gyy += gy * gy;
    }
  }
  det = gxx * gyy - gxy * gxy;
  if (det <= 0)
    return 0;
  lx = cx;
  ly = cy;
  /* every q met (the one after the last step too) is checked: the result
   * is the last one whose window lies inside C */
  for (step = 0; step <= GCV_VCM_REFINE_STEPS; step++) {
    /* floor division of the 1/256 vector: whole pixels and weights */
    int ix = cx >= 0 ? cx / GCV_VCM_SUBPEL : -((-cx + GCV_VCM_SUBPEL - 1) / GCV_VCM_SUBPEL);
    int iy = cy >= 0 ? cy / GCV_VCM_SUBPEL : -((-cy + GCV_VCM_SUBPEL - 1) / GCV_VCM_SUBPEL);
    int32_t kx[4], ky[4];
    int64_t bx = 0, by = 0;

    if (!gcv_vcm_refine_inside (width, height, x, y, r, ix, iy))
      break;
    have = 1;
    lx = cx;
    ly = cy;
    if (step == GCV_VCM_REFINE_STEPS)
      break;
    gcv_vcm_cubic_weights (cx - ix * GCV_VCM_SUBPEL, kx);
    gcv_vcm_cubic_weights (cy - iy * GCV_VCM_SUBPEL, ky);
    for (v = -r; v <= r; v++) {
      const uint8_t *row = prev + (size_t) (y + v) * prev_stride + x;
      const uint8_t *c0 = cur + (size_t) (y + v + iy) * cur_stride + x + ix;
      for (u = -r; u <= r; u++) {
        int gx = row[u + 1] - row[u - 1];
        int gy = row[u + (ptrdiff_t) prev_stride] - row[u - (ptrdiff_t) prev_stride];
        int e = gcv_vcm_refine_residual (c0 + u, cur_stride, kx, ky, row[u]);
        bx += (int64_t) gx * e;
        by += (int64_t) gy * e;
      }
    }
    if (!gcv_vcm_refine_step (gxx, gxy, gyy, det, bx, by, &cx, &cy))
      break;
  }
  if (gcv_vcm_refine_dropped (have, lx, ly, qx0, qy0))
    return 0;
  *qx = lx;
  *qy = ly;
  return lx != qx0 || ly != qy0;
}

/* The parabola's vector in the refinement's units: floor (256 d + 0.5). */
GCV_VCM_FN int
gcv_vcm_to_subpel (double d)
{
#ifdef __CUDA_ARCH__
  return (int) floor (__dadd_rn (__dmul_rn (d, (double) GCV_VCM_SUBPEL), 0.5));
#else
  volatile double s = d * (double) GCV_VCM_SUBPEL;
  return (int) floor (s + 0.5);
#endif
}

/* ---- CPU backend (cpu/vcm_cpu.c) ---------------------------------------
 * The context keeps P (a copy), the history and all working memory for one
 * frame size; parameters come with every call and may change between calls
 * (memory they need that the context lacks is allocated then, once; a
 * change of window_size keeps the history usable: it holds positions). */
typedef struct _GcvVcmCpu GcvVcmCpu;

GcvVcmCpu *gcv_vcm_cpu_new (int width, int height, GcvError * err);
/* Makes `luma` (GRAY8, width x height) P and clears the history. */
GcvStatus gcv_vcm_cpu_set_reference (GcvVcmCpu * ctx, const GcvPlane * luma, GcvError * err);
/* Tracks P's points into `cur`: writes *n_points (<= params->max_points)
 * records to `points`; the points become the history and `cur` becomes P.
 * Fails (GCV_ERROR_INVALID) without a reference or with bad params.
 * n_threads: at most that many threads (0: one per core), as many as each
 * phase is worth (gcv-parallel.h); times may be NULL.  Stopped
 * (GCV_ERROR_CANCELLED): no points, P and the history kept. */
GcvStatus gcv_vcm_cpu_process (GcvVcmCpu * ctx, const GcvVcmParams * params, const GcvPlane * cur,
    GcvVcmPoint * points, int *n_points, int n_threads, GcvVcmTimes * times, GcvError * err);
/* The stop request _process watches (NULL: none). */
void gcv_vcm_cpu_set_cancel (GcvVcmCpu * ctx, const GcvCancel * cancel);
void gcv_vcm_cpu_free (GcvVcmCpu * ctx);

/* ---- CUDA backend (kernels/vcm.cu; only when built with CUDA) ----------
 * The same contract as motion estimation's (cpu/motionest.h): a context
 * works in the CUDA context current on the calling thread when _new ran
 * (the caller makes its device current before every call, else the call
 * fails with GCV_ERROR_INVALID) and on the stream passed to each call;
 * calls only queue work (the caller waits for the stream before it reads
 * the results, and orders the streams when it passes different ones);
 * frames come as device planes, copied into the context's own layout on
 * the stream.  Frame memory is allocated by _new; the per-point memory
 * (NCMs, lists) for the params of the first track and again only when
 * later params need more (then the track waits for `stream` before it
 * frees the old buffers); likewise, when the weight parameters change, a
 * track waits for the copy of the previous weight tables (queued by an
 * earlier track) before it overwrites them.  Point selection runs on the
 * device: the host learns N only once it has waited for the stream.  A
 * call refused for its arguments queues nothing and leaves the context as
 * it was. */
typedef struct _GcvVcmCuda GcvVcmCuda;

GcvVcmCuda *gcv_vcm_cuda_new (int width, int height, GcvError * err);
/* Queues the copy of `luma` (device GRAY8) as P and clears the history. */
GcvStatus gcv_vcm_cuda_set_reference (GcvVcmCuda * ctx, const GcvPlane * luma, void *stream, GcvError * err);
/* Queues: the copy of `cur` as C, the three phases, the download of the
 * point records into `points` (host, room for params->max_points records)
 * and of their number into *n_points (host int); then C becomes P and the
 * points the history.  Page-locked host memory keeps the copies
 * asynchronous; both are valid once the caller has waited for the stream.
 * Fails (GCV_ERROR_INVALID) without a reference or with bad params. */
GcvStatus gcv_vcm_cuda_track (GcvVcmCuda * ctx, const GcvVcmParams * params, const GcvPlane * cur,
    GcvVcmPoint * points, int *n_points, void *stream, GcvError * err);
/* The phases' times of the last track (CUDA events), once the caller has
 * waited for the stream (all 0 before the first track). */
GcvStatus gcv_vcm_cuda_times (GcvVcmCuda * ctx, GcvVcmTimes * times, GcvError * err);
/* Frees the context (the caller has waited for the streams it used). */
void gcv_vcm_cuda_free (GcvVcmCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_VCM_H */
