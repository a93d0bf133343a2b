/* gst-cuda-video: Vector Coherence Mapping, what both backends share on the
 * host: defaults, parameter checks and the weight tables.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vcm.h"

#include <stdio.h>

void
gcv_vcm_params_init (GcvVcmParams * p)
{
  p->window_size = 16;
  p->points_per_window = 2;
  p->max_points = 2048;
  p->st_threshold = 8;
  p->template_size = 5;
  p->search_size = 64;
  p->coherence_radius = 24.0;
  p->coherence_sigma = 12.0;
  p->temporal_weight = 0.25;
  p->temporal_sigma = 4.0;
  p->subpixel = 1;
  p->refine_size = 15;
  p->interest = GCV_VCM_INTEREST_CORNER;
}

const char *
gcv_vcm_params_check (const GcvVcmParams * p)
{
  static __thread char msg[200];
  int most_per_window;

  if (!p)
    return "no parameters";
  if (p->window_size < GCV_VCM_MIN_WINDOW || p->window_size > GCV_VCM_MAX_WINDOW) {
    snprintf (msg, sizeof (msg), "window-size %d: must be %d .. %d", p->window_size, GCV_VCM_MIN_WINDOW,
        GCV_VCM_MAX_WINDOW);
    return msg;
  }
  most_per_window = p->window_size * p->window_size;
  if (most_per_window > GCV_VCM_MAX_POINTS_PER_WINDOW)
    most_per_window = GCV_VCM_MAX_POINTS_PER_WINDOW;
  if (p->points_per_window < 1 || p->points_per_window > most_per_window) {
    snprintf (msg, sizeof (msg), "points-per-window %d: must be 1 .. %d for %dx%d windows",
        p->points_per_window, most_per_window, p->window_size, p->window_size);
    return msg;
  }
  if (p->max_points < 1 || p->max_points > GCV_VCM_MAX_POINTS) {
    snprintf (msg, sizeof (msg), "max-points %d: must be 1 .. %d", p->max_points, GCV_VCM_MAX_POINTS);
    return msg;
  }
  if (p->st_threshold < 0 || p->st_threshold > 254) {
    snprintf (msg, sizeof (msg), "st-threshold %d: must be 0 .. 254", p->st_threshold);
    return msg;
  }
  if (p->template_size < GCV_VCM_MIN_TEMPLATE || p->template_size > GCV_VCM_MAX_TEMPLATE
      || p->template_size % 2 == 0) {
    snprintf (msg, sizeof (msg), "template-size %d: must be odd, %d .. %d (the template is centred "
        "on the point)", p->template_size, GCV_VCM_MIN_TEMPLATE, GCV_VCM_MAX_TEMPLATE);
    return msg;
  }
  if (p->search_size < GCV_VCM_MIN_SEARCH || p->search_size > GCV_VCM_MAX_SEARCH
      || p->search_size % 2 != 0) {
    snprintf (msg, sizeof (msg), "search-size %d: must be even, %d .. %d (displacements reach "
        "search-size / 2 either way)", p->search_size, GCV_VCM_MIN_SEARCH, GCV_VCM_MAX_SEARCH);
    return msg;
  }
  if (p->template_size > p->search_size) {
    snprintf (msg, sizeof (msg), "template-size %d is larger than search-size %d: the template "
        "must fit in the search area", p->template_size, p->search_size);
    return msg;
  }
  if (!(p->coherence_radius >= 0.0 && p->coherence_radius <= GCV_VCM_MAX_RADIUS)) {
    snprintf (msg, sizeof (msg), "coherence-radius %g: must be 0 .. %g", p->coherence_radius,
        GCV_VCM_MAX_RADIUS);
    return msg;
  }
  if (!(p->coherence_sigma >= 0.1 && p->coherence_sigma <= 1000.0)) {
    snprintf (msg, sizeof (msg), "coherence-sigma %g: must be 0.1 .. 1000", p->coherence_sigma);
    return msg;
  }
  if (!(p->temporal_weight >= 0.0 && p->temporal_weight <= 16.0)) {
    snprintf (msg, sizeof (msg), "temporal-weight %g: must be 0 .. 16", p->temporal_weight);
    return msg;
  }
  if (!(p->temporal_sigma >= 0.1 && p->temporal_sigma <= 1000.0)) {
    snprintf (msg, sizeof (msg), "temporal-sigma %g: must be 0.1 .. 1000", p->temporal_sigma);
    return msg;
  }
  if (p->refine_size != 0 && (p->refine_size < 3 || p->refine_size > GCV_VCM_MAX_REFINE
          || p->refine_size % 2 == 0)) {
    snprintf (msg, sizeof (msg), "refine-size %d: must be 0 (no gradient refinement) or odd, 3 .. %d",
        p->refine_size, GCV_VCM_MAX_REFINE);
    return msg;
  }
  if (p->interest != GCV_VCM_INTEREST_EDGE && p->interest != GCV_VCM_INTEREST_CORNER) {
    snprintf (msg, sizeof (msg), "interest %d: must be %d (edge, the paper's) or %d (corner)", p->interest,
        GCV_VCM_INTEREST_EDGE, GCV_VCM_INTEREST_CORNER);
    return msg;
  }
  return NULL;
}

void
gcv_vcm_tables_make (const GcvVcmParams * p, GcvVcmTables * t)
{
  int i;
  double two_s2 = 2.0 * p->coherence_sigma * p->coherence_sigma;
  double two_t2 = 2.0 * p->temporal_sigma * p->temporal_sigma;

  t->rc2 = (int) floor (p->coherence_radius * p->coherence_radius);
  for (i = 0; i <= t->rc2; i++)
    t->spatial[i] = (int32_t) floor (GCV_VCM_WEIGHT_ONE * exp (-i / two_s2) + 0.5);
  t->tw = (int) floor (256.0 * p->temporal_weight + 0.5);
  /* every e2 the table can hold, not only this search's 8 R^2: the history
   * may hold vectors of an earlier call with a larger search area */
  t->e2_max = 8 * 64 * 64;
  for (i = 0; i <= t->e2_max; i++)
    t->temporal[i] = (int32_t) floor (GCV_VCM_NCM_SCALE * exp (-i / two_t2) + 0.5);
}
