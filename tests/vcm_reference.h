/* gst-cuda-video: what the VCM tests share (algorithm, CUDA, element and
 * benchmark):
 *
 *  - an independent, deliberately naive implementation of the whole
 *    contract of cpu/vcm.h (direct sums, every pair of points, the tie
 *    order compared as a tuple instead of gcv_vcm_key()), to check the
 *    backends bit for bit on small frames;
 *  - synthetic motion made from real photos: a float64 bicubic warp with
 *    known parameters and the true vector at any point;
 *  - endpoint-error statistics.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VCM_REFERENCE_H
#define VCM_REFERENCE_H

#include "gcv-test.h"
#include "vcm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the naive reference --------------------------------------------- */

/* The previous call's points and integer vectors (the temporal term). */
typedef struct {
  int n;
  int *x, *y, *ex, *ey;
} VcmRefHistory;

/* Empties the history (what set_reference does) and frees its memory. */
void vcm_ref_history_clear (VcmRefHistory * h);

/* One call of the contract: tracks prev's points into cur (GRAY8 planes
 * of the same size), writes the points to out (room for max_points) and
 * replaces *hist by them.  Returns N, or -1 for bad params / sizes. */
int vcm_reference_track (const GcvVcmParams * p, const GcvPlane * prev, const GcvPlane * cur,
    VcmRefHistory * hist, GcvVcmPoint * out);

/* The candidates before the frame cap (for the max-points checks): their
 * positions and st in candidate order, malloc'd (free both).  Returns the
 * count. */
int vcm_reference_candidates (const GcvVcmParams * p, const GcvPlane * prev, const GcvPlane * cur,
    int **pos_xy, int **st);

/* ---- synthetic motion ------------------------------------------------ */

/* A similarity about the frame centre c = ((W - 1) / 2, (H - 1) / 2):
 * p' = c + s R(angle) (p - c) + t, applied once per frame. */
typedef struct {
  const char *name;
  double tx, ty, angle_deg, scale;
} VcmWarp;

/* The standard warps (paper fig. 8): integer translation (3, -2),
 * fractional translation (1.5, 0.75), rotation 1 deg/frame, zoom 1%/frame.
 * Returns their count. */
int vcm_test_standard_warps (const VcmWarp ** warps);

/* Frame k: the photo (luma, pw x ph) warped by the k-th power of the warp,
 * sampled bicubically (float64, Keys a = -0.5, rounded) onto W x H.  The
 * frame shows the photo's centre; when the photo is too small for W x H
 * plus what 8 frames of the warp bring in, it is magnified (the same factor
 * for every frame of the warp), so no border ever enters. */
void vcm_test_render (const uint8_t * photo, int pw, int ph, int pstride, const VcmWarp * w, int frame_index,
    uint8_t * out, int W, int H, int stride);

/* The true vector of the content at (x, y) of frame k: where it is in
 * frame k + 1, minus (x, y). */
void vcm_test_true_vector (const VcmWarp * w, int frame_index, int W, int H, double x, double y,
    double *dx, double *dy);

/* The luma of tests/data/<file> (e.g. "coffee.png"), packed, malloc'd;
 * exits 1 with a message when it cannot be loaded. */
uint8_t *vcm_test_photo_luma (const char *file, int *width, int *height);

/* ---- endpoint error -------------------------------------------------- */

typedef struct {
  int n;
  double median, p90, mean, max;
} VcmEpeStats;

/* Statistics of the values e[0 .. n - 1] (order is changed). */
VcmEpeStats vcm_test_stats (double *e, int n);

/* Endpoint errors of the points (tracked from frame k to k + 1 of w) in
 * W x H frames. */
VcmEpeStats vcm_test_epe (const GcvVcmPoint * pts, int n, const VcmWarp * w, int frame_index, int W, int H);

#ifdef __cplusplus
}
#endif
#endif
