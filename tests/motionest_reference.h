/* gst-cuda-video: an independent, deliberately plain implementation of the
 * motion-estimation contract (cpu/motionest.h) for the tests, and the frame
 * pairs they share.  It re-derives every rule (bilinear sample, validity,
 * the tie order compared as a tuple) instead of calling the contract's
 * inline helpers, so a mistake there shows as a mismatch.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MOTIONEST_REFERENCE_H
#define MOTIONEST_REFERENCE_H

#include "gcv-test.h"
#include "motionest.h"

/* Every block of prev searched in cur (both GRAY8, the same size) as the
 * contract says, FULL or MODS with sub-pixel refinement and the zero
 * threshold; out gets cols x rows records.  Returns 0, or -1 for bad
 * parameters or sizes. */
int motion_reference_search (const GcvMotionParams * p, const GcvPlane * prev, const GcvPlane * cur,
    GcvMotionVector * out);

/* Parameters in one call: block size, range (pixels), subpel (1, 2, 4),
 * method, zero threshold. */
GcvMotionParams motion_test_params (int bw, int bh, int rx, int ry, int subpel, GcvMotionMethod method,
    double zero_threshold);

/* The contract's bilinear sample of a packed w-wide luma at (X, Y) quarter
 * pixels, written out with float-free arithmetic of its own. */
int motion_reference_sample (const uint8_t * img, size_t stride, int X, int Y);

/* A pair with known motion from a real photo's luma (photo, pw x ph,
 * packed): C is the w x h window at (cx, cy), P(x, y) the sample of the
 * photo at (4 (cx + x) + dx, 4 (cy + y) + dy), so that every block's true
 * vector is (dx, dy) quarter pixels with SAD 0.  The window and everything
 * P reads must lie inside the photo (asserted).  Both planes get rows of
 * w + pad bytes, the padding filled with garbage; free their data with
 * free(). */
void motion_test_shifted_pair (const uint8_t * photo, int pw, int ph, int cx, int cy, int w, int h,
    int dx, int dy, size_t pad, GcvPlane * prev, GcvPlane * cur);

/* A pair for parity tests: a w x h window of the photo (wrapping) and the
 * same window moved by a pseudo-random local motion (per 8 x 8 tile up to
 * +-max_shift pixels) plus noise of +-noise levels.  Rows of w + pad bytes,
 * garbage in the padding; free() the data. */
void motion_test_random_pair (const uint8_t * photo, int pw, int ph, int w, int h, int max_shift,
    int noise, size_t pad, uint32_t seed, GcvPlane * prev, GcvPlane * cur);

/* The luma of test photo i (0 .. gcv_test_n_photos - 1), packed, malloc'd. */
uint8_t *motion_test_photo_luma (int i, int *width, int *height);

#endif
