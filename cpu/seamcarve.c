/* gst-cuda-video: what both seam-carving backends share: names, the
 * argument checks and the small integer rules of the contract (temporal
 * weight, seams per pass, enlargement steps).  The contract is in
 * seamcarve.h; the CUDA backend links this file too, so it stays free of
 * anything host-only beyond the C library.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "seamcarve.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const energy_names[3] = { "gradient-l1", "gradient-l2", "forward" };
static const char *const mode_names[2] = { "exact", "fast" };

const char *
gcv_seam_energy_name (GcvSeamEnergy energy)
{
  return (unsigned) energy <= GCV_SEAM_ENERGY_FORWARD ? energy_names[energy] : "invalid";
}

const char *
gcv_seam_mode_name (GcvSeamMode mode)
{
  return (unsigned) mode <= GCV_SEAM_MODE_FAST ? mode_names[mode] : "invalid";
}

const char *
gcv_seam_params_check (const GcvSeamParams * p)
{
  static __thread char msg[160];

  if (!p)
    return "no parameters";
  if ((unsigned) p->energy > GCV_SEAM_ENERGY_FORWARD) {
    snprintf (msg, sizeof (msg), "energy %d: must be gradient-l1 (0), gradient-l2 (1) or forward (2)",
        (int) p->energy);
    return msg;
  }
  if ((unsigned) p->mode > GCV_SEAM_MODE_FAST) {
    snprintf (msg, sizeof (msg), "mode %d: must be exact (0) or fast (1)", (int) p->mode);
    return msg;
  }
  /* checked in both modes, so that switching to fast never meets a bad value */
  if (p->seams_per_pass < 1 || p->seams_per_pass > GCV_SEAM_MAX_PER_PASS) {
    snprintf (msg, sizeof (msg), "seams_per_pass %d: must be 1 .. %d", p->seams_per_pass,
        GCV_SEAM_MAX_PER_PASS);
    return msg;
  }
  if (!(p->temporal_coherence >= 0.0 && p->temporal_coherence <= 1.0)) {
    snprintf (msg, sizeof (msg), "temporal_coherence %g: must be 0 .. 1", p->temporal_coherence);
    return msg;
  }
  if ((unsigned) p->order > GCV_SEAM_ORDER_HEIGHT_FIRST) {
    snprintf (msg, sizeof (msg), "order %d: must be width-first (0) or height-first (1)", (int) p->order);
    return msg;
  }
  return NULL;
}

const char *
gcv_seam_geometry_check (const GcvSeamGeometry * g)
{
  static __thread char msg[200];

  if (!g)
    return "no geometry";
  if (g->in_width < 1 || g->in_height < 1 || g->in_width > GCV_SEAM_MAX_DIMENSION
      || g->in_height > GCV_SEAM_MAX_DIMENSION) {
    snprintf (msg, sizeof (msg), "input size %dx%d: must be 1 .. %d each way", g->in_width,
        g->in_height, GCV_SEAM_MAX_DIMENSION);
    return msg;
  }
  if (g->out_width < 1 || g->out_height < 1 || g->out_width > GCV_SEAM_MAX_DIMENSION
      || g->out_height > GCV_SEAM_MAX_DIMENSION) {
    snprintf (msg, sizeof (msg), "output size %dx%d: must be 1 .. %d each way", g->out_width,
        g->out_height, GCV_SEAM_MAX_DIMENSION);
    return msg;
  }
  if (g->n_planes < 1 || g->n_planes > GCV_SEAM_MAX_PLANES) {
    snprintf (msg, sizeof (msg), "%d planes: must be 1 .. %d", g->n_planes, GCV_SEAM_MAX_PLANES);
    return msg;
  }
  if (g->channels != 1 && g->channels != 4) {
    snprintf (msg, sizeof (msg), "%d channels: must be 1 or 4", g->channels);
    return msg;
  }
  if (g->luma.layout == GCV_LUMA_GRAY8) {
    if (g->channels != 1)
      return "GRAY8 luma needs 1 channel per pixel";
    if (g->alpha_channel != -1) {
      snprintf (msg, sizeof (msg), "alpha channel %d: a 1-channel format has none (must be -1)",
          g->alpha_channel);
      return msg;
    }
  } else if (g->luma.layout == GCV_LUMA_PACKED32) {
    const int r = g->luma.r_offset, gr = g->luma.g_offset, b = g->luma.b_offset;
    if (g->channels != 4)
      return "PACKED32 luma needs 4 channels per pixel";
    if (r > 3 || gr > 3 || b > 3 || r == gr || r == b || gr == b) {
      snprintf (msg, sizeof (msg), "R, G, B offsets %d, %d, %d: must be distinct, 0 .. 3", r, gr, b);
      return msg;
    }
    if (g->alpha_channel < -1 || g->alpha_channel > 3 || g->alpha_channel == r
        || g->alpha_channel == gr || g->alpha_channel == b) {
      snprintf (msg, sizeof (msg), "alpha channel %d: must be -1 or the channel that is not R, G or B",
          g->alpha_channel);
      return msg;
    }
  } else {
    snprintf (msg, sizeof (msg), "luma layout %d: must be GRAY8 or PACKED32", (int) g->luma.layout);
    return msg;
  }
  return NULL;
}

int
gcv_seam_temporal_weight (double tc)
{
  if (!(tc > 0.0))              /* also NaN */
    return 0;
  if (tc > 1.0)
    tc = 1.0;
  return (int) round (tc * GCV_SEAM_TEMPORAL_MAX_WEIGHT);
}

int
gcv_seam_pass_size (const GcvSeamParams * params, int left)
{
  if (params->mode == GCV_SEAM_MODE_FAST)
    return gcv_seam_fast_pass_size (params->seams_per_pass, left);
  return left < 1 ? left : 1;
}

/* The pixel visits of one stage carving w columns into w2 at height h
 * (the rules of "Reduction" and "Enlargement" in seamcarve.h). */
static double
stage_work (int w, int w2, int h, const GcvSeamParams * params)
{
  double work = 0.0;
  int left = w2 > w ? w2 - w : w - w2;

  if (w2 < w) {
    /* every pass visits the image as it is then, w down to w2 */
    while (left > 0) {
      int n = gcv_seam_pass_size (params, left);
      work += (double) w * h;
      w -= n;
      left -= n;
    }
    return work;
  }
  while (left > 0) {
    /* a step finds its n seams by reduction passes on a copy of its input */
    int n = gcv_seam_insert_step (w, left), found = 0, cur = w;
    while (found < n) {
      int p = gcv_seam_pass_size (params, n - found);
      work += (double) cur * h;
      cur -= p;
      found += p;
    }
    w += n;
    left -= n;
  }
  return work;
}

double
gcv_seam_frame_work (const GcvSeamGeometry * g, const GcvSeamParams * params)
{
  /* the height stage is the width stage on the transposed image */
  if (params->order == GCV_SEAM_ORDER_HEIGHT_FIRST)
    return stage_work (g->in_height, g->out_height, g->in_width, params)
        + stage_work (g->in_width, g->out_width, g->out_height, params);
  return stage_work (g->in_width, g->out_width, g->in_height, params)
      + stage_work (g->in_height, g->out_height, g->out_width, params);
}

const char *
gcv_seam_work_check (const GcvSeamGeometry * g, const GcvSeamParams * params)
{
  static __thread char msg[320];
  double work = gcv_seam_frame_work (g, params);

  if (work <= GCV_SEAM_MAX_FRAME_WORK)
    return NULL;
  snprintf (msg, sizeof (msg), "carving %dx%d into %dx%d in %s mode costs %.2g pixel visits a frame, more "
      "than the %.0e allowed (10 s and more a frame on the CPU): carve less (scale part of the way with "
      "videoscale or cudabsplinescale) or use mode=fast with more seams-per-pass", g->in_width,
      g->in_height, g->out_width, g->out_height, gcv_seam_mode_name (params->mode), work,
      GCV_SEAM_MAX_FRAME_WORK);
  return msg;
}

int
gcv_seam_insert_step (int w, int left)
{
  int n = w / 2 > 1 ? w / 2 : 1;

  return n < left ? n : left;
}

/* The luma of plane 0 at (x, y), both clamped to the frame. */
static int
clamped_luma (const GcvSeamGeometry * g, const GcvPlane * in0, int x, int y)
{
  x = x < 0 ? 0 : x >= g->in_width ? g->in_width - 1 : x;
  y = y < 0 ? 0 : y >= g->in_height ? g->in_height - 1 : y;
  return gcv_seam_luma ((const unsigned char *) in0->data + (size_t) y * in0->stride + (size_t) x * g->channels,
      g->luma.layout, g->luma.r_offset, g->luma.g_offset, g->luma.b_offset);
}

void
gcv_seam_energy_sums (const GcvSeamGeometry * g, const GcvPlane * in0, const GcvPlane * mask,
    GcvSeamEnergySums * sums)
{
  int x, y;

  memset (sums, 0, sizeof (*sums));
  for (y = 0; y < g->in_height; y++)
    for (x = 0; x < g->in_width; x++) {
      int e = gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1, clamped_luma (g, in0, x - 1, y),
          clamped_luma (g, in0, x + 1, y), clamped_luma (g, in0, x, y - 1), clamped_luma (g, in0, x, y + 1));
      sums->frame_energy += (uint64_t) e;
      if (((const uint8_t *) mask->data)[(size_t) y * mask->stride + x] != 0) {
        sums->seam_pixels++;
        sums->seam_energy += (uint64_t) e;
      }
    }
}
