/* gst-cuda-video: an independent reference of seam carving (cpu/seamcarve.h)
 * and what the seam-carving tests share: frames in every channel layout
 * from the test photos, plane comparisons, a brute-force seam finder.
 *
 * The reference is written from the header's definitions, as literally as
 * possible and unlike the backends: it works on whole packed pixels, makes
 * an explicit transposed copy of the picture for a height stage, computes
 * the luma and the energy of the whole working image again before every
 * pass (no incremental update), keeps the full seam map and parents in
 * int64 / int, finds every root by walking the parents up, and removes and
 * inserts pixels by building new rows.  It has its own isqrt, luma, bias and
 * forward costs and never calls the formulas of seamcarve.h, so a mistake
 * there shows up as a difference.  Slow: meant for pictures of a few
 * hundred pixels a side.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_SEAMCARVE_REFERENCE_H
#define GCV_SEAMCARVE_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "seamcarve.h"
#include "gcv-test.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the reference ------------------------------------------------------------ */

/* What a context keeps between frames: the seam mask of each stage
 * (index 0 the width stage, 1 the height stage) in that stage's input
 * coordinates and orientation (rows x cols: the width stage's rows are the
 * picture's rows, the height stage's rows its columns), and the order the
 * last frame was made with.  rows[s] = 0 where stage s did not run. */
typedef struct {
  int valid;
  GcvSeamOrder order;
  uint8_t *mask[2];
  int rows[2], cols[2];
} SeamRefState;

void seam_ref_state_init (SeamRefState * state);
/* Frees the masks; the state is as after init (the first frame again). */
void seam_ref_state_clear (SeamRefState * state);

/* One frame by the contract: in (g->n_planes planes, g->in_width x
 * g->in_height) into out (g->out_width x g->out_height; NULL: not wanted)
 * and the seam mask (in_width x in_height u8; NULL: not wanted), using and
 * updating state.  Returns 0, or -1 (nothing changed) when the geometry or
 * the parameters are invalid. */
int seam_ref_process (const GcvSeamGeometry * g, const GcvSeamParams * p, const GcvPlane * in,
    GcvPlane * out, GcvPlane * mask, SeamRefState * state);

/* The reference's own formulas. */
int seam_ref_isqrt (int64_t n);
int seam_ref_luma (const GcvSeamGeometry * g, const uint8_t * px);

/* What post-messages report (gcv_seam_energy_sums), from the reference's
 * own luma: eq. 1's |dx| + |dy| with clamped neighbours over every pixel
 * of plane 0, and over the non-zero pixels of mask (how many, their
 * energy). */
void seam_ref_energy_sums (const GcvSeamGeometry * g, const GcvPlane * in0, const GcvPlane * mask,
    GcvSeamEnergySums * sums);
/* A w x h mask (rows w bytes apart; free data) with about one pixel in
 * eight set to a random non-zero mix of GCV_SEAM_MASK_* bits, the others 0. */
GcvPlane seam_test_random_mask (int w, int h, uint32_t seed);

/* ---- brute force ------------------------------------------------------------------ */

/* Enumerates every connected vertical seam (one column per row, 8-connected
 * from row to row) of the w x h luma image (row-major, packed) with bias
 * (w x h, NULL = 0) and returns the least cost, ties to the
 * lexicographically smallest column list read from the bottom row up;
 * cols[0 .. h-1] receives its column in each row.  The cost of a seam c:
 *  gradient: sum_i E(i, c_i), E = energy + bias of the image as it is;
 *  forward:  B(0, c_0) + CU(0, c_0) + sum_{i>0} B(i, c_i) + C_d(i, c_i),
 *            d = c_{i-1} - c_i.
 * There are up to w * 3^(h-1) seams: keep h small (<= 10). */
int64_t seam_ref_brute_force (const uint8_t * luma, const int32_t * bias, int w, int h,
    GcvSeamEnergy energy, int *cols);

/* The cost above of one given seam (cols[i] for row i). */
int64_t seam_ref_seam_cost (const uint8_t * luma, const int32_t * bias, int w, int h,
    GcvSeamEnergy energy, const int *cols);

/* ---- frames ------------------------------------------------------------------------ */

/* The channel layouts the element offers (GcvSeamGeometry's planes,
 * channels, luma and alpha): GRAY8, Y444, RGBA, BGRA, ARGB, ABGR, RGBx,
 * BGRx. */
#define SEAM_TEST_N_LAYOUTS 8
typedef struct {
  const char *name;
  int n_planes, channels;
  GcvLumaInput luma;
  int alpha_channel;
} SeamTestLayout;
SeamTestLayout seam_test_layout (int i);

/* A geometry of layout l and the sizes given. */
GcvSeamGeometry seam_test_geometry (const SeamTestLayout * l, int in_w, int in_h, int out_w, int out_h);

/* Default parameters: gradient-l1, exact, 8 seams per pass, no temporal
 * coherence, no alpha mask, width first. */
GcvSeamParams seam_test_params (void);

/* A frame of host planes: n planes of w x h pixels of `channels` bytes,
 * rows w * channels + pad bytes apart, each plane its own allocation. */
typedef struct {
  int n_planes, channels, width, height;
  size_t pad;
  GcvPlane plane[GCV_SEAM_MAX_PLANES];
} SeamTestFrame;

/* The frame of `rgb` (3 channels) in layout l: GRAY8 the luma; Y444 the
 * luma, R and B; packed 4-channel R, G, B at their offsets and, in the
 * alpha channel, alpha[] (w x h, packed) or pseudo-random bytes when alpha
 * is NULL; the x channel of RGBx / BGRx and every padding byte pseudo-random
 * (from seed). */
SeamTestFrame seam_test_frame_from_rgb (const SeamTestLayout * l, const GcvTestImage * rgb,
    const uint8_t * alpha, size_t pad, uint32_t seed);
/* A frame whose every byte (padding included) holds a pseudo-random
 * pattern from seed. */
SeamTestFrame seam_test_frame_new (int n_planes, int channels, int w, int h, size_t pad, uint32_t seed);
void seam_test_frame_free (SeamTestFrame * f);

/* Number of differing bytes of the w * channels samples of each row of each
 * plane; the first difference goes to *plane, *x (pixel), *y (-1: none). */
long seam_test_frame_diff (const SeamTestFrame * a, const SeamTestFrame * b, int *plane, int *x, int *y);

/* Whether every padding byte of f still holds the pattern that
 * seam_test_frame_new (.., seed) wrote. */
int seam_test_padding_intact (const SeamTestFrame * f, uint32_t seed);

/* One test case of the algorithm and CUDA tests: a window of a photo
 * carved from in_w x in_h to out_w x out_h in a layout, over `frames`
 * frames.  Fields a test does not use stay at their defaults. */
typedef struct {
  int photo, x0, y0;            /* the photo and the window's corner */
  int in_w, in_h, out_w, out_h;
  int layout;
  GcvSeamParams p;
  int frames, pan;              /* a clip: the window moves pan px per frame, noise +-2 */
  size_t pad;                   /* host (and linear device) row padding */
  int pitched;                  /* CUDA: device planes from cudaMallocPitch */
  int want_out, want_mask;
  int n_threads;                /* CPU: 0 = all cores */
  int switch_order_at;          /* frame at which params.order flips (-1 never) */
  int reset_at;                 /* frame before which both sides reset (-1 never) */
  int cut_at;                   /* frame from which the clip shows another photo (-1 never) */
  int spp_change_at;            /* frame from which seams_per_pass doubles (-1 never) */
} SeamTestCase;

/* A one-frame case with output and mask, the window at a corner that
 * depends on the photo, no padding, every *_at -1. */
SeamTestCase seam_test_case_make (int photo, int in_w, int in_h, int out_w, int out_h, int layout,
    GcvSeamEnergy e, GcvSeamMode mode, int spp, GcvSeamOrder order);

#ifdef __cplusplus
}
#endif
#endif /* GCV_SEAMCARVE_REFERENCE_H */
