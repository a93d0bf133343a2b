/* gst-cuda-video: negotiations that cannot succeed say why (gst-check).
 *
 *  - cudadibr / cpudibr playing I420 (side-by-side), then layout=alpha:
 *    alpha takes RGBA / BGRA only, so the renegotiation fails, with an
 *    error that names layout=alpha and the format I420 instead of a bare
 *    not-negotiated from upstream; an odd width for side-by-side likewise;
 *  - cudacanny / cpucanny playing mode=overlay into a downstream that takes
 *    I420 only, then mode=edges (GRAY8 out): an error that says downstream
 *    takes none of what the settings make;
 *  - interlaced caps (interlace-mode interleaved, mixed, alternate) on
 *    every element: refused with one STREAM / FORMAT error that names the
 *    interlace mode and says to deinterlace, no frame through; progressive
 *    caps with interlace-mode given explicitly still work.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "gcv-check.h"

static const gchar *const all_elements[] = {
  "cpucanny", "cudacanny", "cpubsplinescale", "cudabsplinescale", "cpuconv3d", "cudaconv3d",
  "cpuseamcarve", "cudaseamcarve", "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm", "cpudibr",
  "cudadibr",
};

static const gchar *const dibr_names[] = { "cpudibr", "cudadibr" };
static const gchar *const canny_names[] = { "cpucanny", "cudacanny" };

/* @name plays @im with @prop=@before, then @prop=@after makes the next
 * buffer renegotiate, which cannot succeed: not-negotiated with one CORE /
 * NEGOTIATION error that contains every string of @words (NULL
 * terminated), and none more on the next frame. */
static void
check_renegotiation_error (const gchar * name, const Img * im, const gchar * downstream, const gchar * prop,
    const gchar * before, const gchar * after, const gchar * const *words)
{
  Ctx ctx = ctx_new (name, NULL);
  gchar *what = g_strdup_printf ("%s %s=%s -> %s", name, prop, before, after);
  gchar *text = NULL;
  guint errors, i;

  gst_util_set_object_arg (G_OBJECT (ctx.e), prop, before);
  if (downstream)
    ctx_set_downstream (&ctx, downstream);
  ctx_set_caps (&ctx, &im->info);
  ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_OK, what);
  gst_buffer_unref (gst_harness_pull (ctx.h));

  gst_util_set_object_arg (G_OBJECT (ctx.e), prop, after);
  ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, what);
  errors = bus_count (ctx.bus, GST_MESSAGE_ERROR, GST_CORE_ERROR, &text);
  fail_unless (errors == 1, "%s: %u negotiation errors (%s)", what, errors, GST_STR_NULL (text));
  for (i = 0; words[i] != NULL; i++)
    fail_unless (strstr (text, words[i]) != NULL, "%s: the error does not say \"%s\": %s", what, words[i],
        text);
  GST_INFO ("%s: %s", what, text);
  /* once: the next frame fails the same way without a second error */
  ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, what);
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL), 0);
  g_free (text);
  g_free (what);
  ctx_release (&ctx);
}

/* layout=alpha while playing I420 */
GST_START_TEST (test_dibr_layout_alpha_on_i420)
{
  Img *im = img_2d_plus_depth (GST_VIDEO_FORMAT_I420, 32, 24, 1, 10, 10, 0, 3);
  static const gchar *const words[] = { "layout=alpha", "I420", "RGBA", NULL };

  check_renegotiation_error (dibr_names[__i__], im, NULL, "layout", "side-by-side", "alpha", words);
  img_free (im);
}

GST_END_TEST;

/* side-by-side needs an even width: an odd one says so */
GST_START_TEST (test_dibr_odd_width_side_by_side)
{
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 33, 24, 1, 10, 10, 3);
  static const gchar *const words[] = { "layout=side-by-side", "even width", "33", NULL };

  check_renegotiation_error (dibr_names[__i__], im, NULL, "layout", "top-bottom", "side-by-side", words);
  img_free (im);
}

GST_END_TEST;

/* mode=edges (GRAY8 out) against a downstream that takes I420 only */
GST_START_TEST (test_canny_mode_downstream_refuses)
{
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_I420, 48, 32, 1, 10, 10, 3);
  static const gchar *const words[] = { "I420 48x32", "downstream takes none", NULL };

  check_renegotiation_error (canny_names[__i__], im, "video/x-raw,format=I420", "mode", "overlay", "edges",
      words);
  img_free (im);
}

GST_END_TEST;

/* Interlaced caps on every element: one STREAM / FORMAT error naming the
 * mode, no frame through; explicitly progressive caps work. */
GST_START_TEST (test_interlaced_refused)
{
  static const gchar *const modes[] = { "interleaved", "mixed", "alternate" };
  guint e, m;

  for (e = 0; e < G_N_ELEMENTS (all_elements); e++) {
    const gchar *name = all_elements[e];
    /* a format every element takes (dibr: RGBA, read as 2D-plus-depth) */
    GstVideoFormat fmt = g_str_has_suffix (name, "dibr") ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_GRAY8;
    Img *im = img_from_test_photo (fmt, 32, 24, 1, 10, 10, 3);

    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      Ctx ctx = ctx_new (name, NULL);
      GstCaps *caps = gst_video_info_to_caps (&im->info);
      gchar *what = g_strdup_printf ("%s interlace-mode=%s", name, modes[m]);
      gchar *text = NULL;
      guint errors;

      gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, modes[m], NULL);
      if (g_str_equal (modes[m], "alternate"))
        gst_caps_set_features (caps, 0, gst_caps_features_new (GST_CAPS_FEATURE_FORMAT_INTERLACED, NULL));
      ctx_push_caps_unchecked (&ctx, caps);
      ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, what);
      fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
      errors = bus_count (ctx.bus, GST_MESSAGE_ERROR, GST_STREAM_ERROR, &text);
      /* alternate caps carry a feature the pad templates lack: refused
       * before the element sees them, by GStreamer */
      if (!g_str_equal (modes[m], "alternate") || errors > 0) {
        fail_unless (errors == 1, "%s: %u STREAM errors (%s)", what, errors, GST_STR_NULL (text));
        fail_unless (strstr (text, modes[m]) && strstr (text, "deinterlace"), "%s: %s", what, text);
      }
      bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL);
      g_free (text);
      g_free (what);
      ctx_release (&ctx);
    }

    /* progressive, said explicitly */
    {
      Ctx ctx = ctx_new (name, NULL);
      GstCaps *caps = gst_video_info_to_caps (&im->info);
      GstBuffer *out;
      gst_caps_set_simple (caps, "interlace-mode", G_TYPE_STRING, "progressive", NULL);
      gst_harness_set_src_caps (ctx.h, caps);
      ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_OK, name);
      /* conv3d holds the frame: its EOS brings it */
      fail_unless (gst_harness_push_event (ctx.h, gst_event_new_eos ()));
      out = gst_harness_pull (ctx.h);
      fail_unless (out != NULL, "%s: no frame from progressive caps", name);
      gst_buffer_unref (out);
      ctx_free (&ctx);
    }
    img_free (im);
  }
}

GST_END_TEST;

static Suite *
negotiation_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("negotiation", FALSE, &s);

  tcase_add_loop_test (tc, test_dibr_layout_alpha_on_i420, 0, G_N_ELEMENTS (dibr_names));
  tcase_add_loop_test (tc, test_dibr_odd_width_side_by_side, 0, G_N_ELEMENTS (dibr_names));
  tcase_add_loop_test (tc, test_canny_mode_downstream_refuses, 0, G_N_ELEMENTS (canny_names));
  tcase_add_test (tc, test_interlaced_refused);
  return s;
}

GST_CHECK_MAIN (negotiation);
