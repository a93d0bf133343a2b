/* gst-cuda-video: the settings policy of gstcudavideofilter.h while
 * playing (gst-check).
 *
 *  - cudacanny / cpucanny: low-threshold=200 with high-threshold 150 (one
 *    warning, the last usable thresholds stay), then mode=overlay (a
 *    renegotiation: the setup of the new caps keeps the last usable
 *    thresholds instead of failing), then high-threshold=250 (usable
 *    again): one warning in all, frames all along, each equal to what a
 *    fresh element with the settings in force gives;
 *  - a control binding that moves low-threshold above high-threshold at
 *    every frame: one warning while the same rule stays broken, one more
 *    after usable frames came in between;
 *  - cpuconv3d / cudaconv3d: an unusable kernel set while playing, then new
 *    caps: the new setup keeps the last usable kernel (one warning, no
 *    error), and a fresh run with the unusable kernel fails at start.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#include "gcv-check.h"

#define FRAME (GST_SECOND / 30)

static const gchar *const canny_names[] = { "cpucanny", "cudacanny" };
static const gchar *const conv3d_names[] = { "cpuconv3d", "cudaconv3d" };

/* @im through a fresh @name with the properties of @props ("prop=value"
 * words as on a launch line): the reference a running element must
 * equal. */
static Img *
fresh_output (const gchar * name, const gchar * props, const Img * im)
{
  Ctx ctx = ctx_new (name, NULL);
  gchar **words = g_strsplit (props, " ", -1);
  Img *out;
  guint i;

  for (i = 0; words[i] != NULL; i++) {
    gchar **kv = g_strsplit (words[i], "=", 2);
    if (kv[0] && kv[1])
      gst_util_set_object_arg (G_OBJECT (ctx.e), kv[0], kv[1]);
    g_strfreev (kv);
  }
  g_strfreev (words);
  ctx_set_caps (&ctx, &im->info);
  out = ctx_process (&ctx, im, LAYOUT_DEFAULT);
  ctx_free (&ctx);
  return out;
}

/* A run that starts with unusable settings: the caps of @im are refused
 * with one settings error that says @why. */
static void
expect_unusable_from_start (Ctx * ctx, const Img * im, const gchar * why)
{
  gchar *text = NULL;

  ctx_push_caps_unchecked (ctx, gst_video_info_to_caps (&im->info));
  ctx_push_expect (ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, "unusable from start");
  fail_unless (bus_count (ctx->bus, GST_MESSAGE_ERROR, GST_LIBRARY_ERROR, &text) == 1 && strstr (text, why),
      "%s: %s", ctx->name, GST_STR_NULL (text));
  g_free (text);
}

/* Pushes @im through the running @ctx and checks the output against
 * @want. */
static void
process_expect (Ctx * ctx, const Img * im, const Img * want, const gchar * what)
{
  Img *out = ctx_process (ctx, im, LAYOUT_DEFAULT);

  assert_img_equal (out, want, what);
  img_free (out);
}

/* The canny sequence of issue 27: a warning and frames all along. */
GST_START_TEST (test_canny_renegotiation_keeps_usable_thresholds)
{
  const gchar *name = canny_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_I420, 96, 64, 1, 30, 20, 9);
  Img *edges = fresh_output (name, "", im);
  Img *overlay = fresh_output (name, "mode=overlay", im);
  Img *overlay_new = fresh_output (name, "mode=overlay low-threshold=200 high-threshold=250", im);
  gchar *text = NULL;
  guint warnings;

  ctx_set_caps (&ctx, &im->info);
  process_expect (&ctx, im, edges, "defaults");
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, NULL), 0);

  /* high 150 < low 200: one warning, the thresholds in force stay */
  g_object_set (ctx.e, "low-threshold", 200.0, NULL);
  process_expect (&ctx, im, edges, "low-threshold=200, high 150");
  process_expect (&ctx, im, edges, "low-threshold=200, high 150, again");
  warnings = bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, &text);
  fail_unless (warnings == 1 && strstr (text, "low-threshold=200") && strstr (text, "high-threshold=150"),
      "%s: %u warnings (%s)", name, warnings, GST_STR_NULL (text));
  g_clear_pointer (&text, g_free);

  /* a new negotiation (the output is the input's I420 now): the setup of
   * the new caps keeps the last usable thresholds, no error */
  gst_util_set_object_arg (G_OBJECT (ctx.e), "mode", "overlay");
  process_expect (&ctx, im, overlay, "mode=overlay, low 200 > high 150");
  ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_I420, 96, 64, 0, 0, "mode=overlay");
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL), 0);
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, NULL), 0);

  /* usable again: they apply at the next frame */
  g_object_set (ctx.e, "high-threshold", 250.0, NULL);
  process_expect (&ctx, im, overlay_new, "mode=overlay, low 200, high 250");
  process_expect (&ctx, im, overlay_new, "mode=overlay, low 200, high 250, again");
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, NULL), 0);

  ctx_free (&ctx);
  img_free (overlay_new);
  img_free (overlay);
  img_free (edges);
  img_free (im);
}

GST_END_TEST;

/* A run that never had usable thresholds cannot start: the first setup is
 * an error, as before. */
GST_START_TEST (test_canny_unusable_from_start)
{
  const gchar *name = canny_names[__i__];
  Ctx ctx = ctx_new (name, "low-threshold", 200.0, NULL);
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 32, 24, 1, 30, 20, 9);

  expect_unusable_from_start (&ctx, im, "high-threshold must be >= low-threshold");
  ctx_release (&ctx);
  img_free (im);
}

GST_END_TEST;

/* A control binding that holds an unusable threshold pair, moving the
 * low threshold every frame: one warning per change (the rule broken),
 * not one per frame. */
GST_START_TEST (test_control_binding_warns_once)
{
  const gchar *name = canny_names[__i__];
  Ctx ctx = ctx_new (name, "blur-size", 0, NULL);
  GstControlSource *cs = gst_interpolation_control_source_new ();
  GstTimedValueControlSource *tvcs = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 48, 32, 0, 10, 10, 7);
  /* frames 0-9 unusable (low 200 .. 290 > high 150), 10-12 usable (low
   * 100), 13-15 unusable again (low 160 .. 180) */
  static const struct
  {
    gint frame;
    gdouble low;
  } points[] = { {0, 200.0}, {9, 290.0}, {10, 100.0}, {12, 100.0}, {13, 160.0}, {15, 180.0} };
  static const guint warnings_after[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2 };
  guint i, warnings = 0;
  gint k;

  g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
  /* a direct binding maps 0..1 onto the property's 0..100000 range */
  for (i = 0; i < G_N_ELEMENTS (points); i++)
    gst_timed_value_control_source_set (tvcs, points[i].frame * FRAME, points[i].low / 100000.0);
  fail_unless (gst_object_add_control_binding (GST_OBJECT (ctx.e),
          gst_direct_control_binding_new (GST_OBJECT (ctx.e), "low-threshold", cs)));
  ctx_set_caps (&ctx, &im->info);
  for (k = 0; k < 16; k++) {
    GstBuffer *buf = img_to_buffer (im, LAYOUT_DEFAULT);
    gchar *what = g_strdup_printf ("%s frame %d", name, k);
    GST_BUFFER_PTS (buf) = k * FRAME;
    GST_BUFFER_DURATION (buf) = FRAME;
    ctx_push_expect (&ctx, buf, GST_FLOW_OK, what);
    gst_buffer_unref (gst_harness_pull (ctx.h));
    warnings += bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, NULL);
    fail_unless (warnings == warnings_after[k], "%s: %u warnings, expected %u", what, warnings,
        warnings_after[k]);
    g_free (what);
  }
  gst_object_unref (cs);
  img_free (im);
  ctx_free (&ctx);
}

GST_END_TEST;

/* conv3d: an unusable kernel set while playing, then new caps: the setup
 * of the new caps runs the last usable kernel (no error, no second
 * warning), frames equal a fresh element's with that kernel; a usable
 * kernel applies again; a run that starts with the unusable kernel
 * fails. */
GST_START_TEST (test_conv3d_renegotiation_keeps_usable_kernel)
{
  const gchar *name = conv3d_names[__i__];
  Ctx ctx = ctx_new (name, "size", 3, "temporal-size", 1, NULL);
  Img *a = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 40, 30, 2, 10, 10, 3);
  Img *b = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 56, 36, 2, 12, 4, 4);
  Img *want_a = fresh_output (name, "size=3 temporal-size=1", a);
  Img *want_b = fresh_output (name, "size=3 temporal-size=1", b);
  Img *want_box = fresh_output (name, "size=3 temporal-size=1 kernel=box", b);
  gchar *text = NULL;

  ctx_set_caps (&ctx, &a->info);
  process_expect (&ctx, a, want_a, "Gaussian");
  /* a custom kernel without coefficients: unusable */
  gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
  process_expect (&ctx, a, want_a, "kernel=custom without coefficients");
  fail_unless (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, &text) == 1
      && strstr (text, "no coefficients"), "%s: %s", name, GST_STR_NULL (text));
  g_clear_pointer (&text, g_free);

  /* new caps: the last usable kernel goes on */
  ctx_set_caps (&ctx, &b->info);
  process_expect (&ctx, b, want_b, "new caps, kernel=custom without coefficients");
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL), 0);
  fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, NULL), 0);

  /* usable again */
  gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "box");
  process_expect (&ctx, b, want_box, "kernel=box");
  ctx_free (&ctx);

  /* a new run starts from the properties: the unusable kernel stops it */
  ctx = ctx_new (name, "size", 3, "temporal-size", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
  expect_unusable_from_start (&ctx, a, "no coefficients");
  ctx_release (&ctx);

  img_free (want_box);
  img_free (want_b);
  img_free (want_a);
  img_free (b);
  img_free (a);
}

GST_END_TEST;

static Suite *
settings_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("settings", FALSE, &s);

  tcase_add_loop_test (tc, test_canny_renegotiation_keeps_usable_thresholds, 0, G_N_ELEMENTS (canny_names));
  tcase_add_loop_test (tc, test_canny_unusable_from_start, 0, G_N_ELEMENTS (canny_names));
  tcase_add_loop_test (tc, test_control_binding_warns_once, 0, G_N_ELEMENTS (canny_names));
  tcase_add_loop_test (tc, test_conv3d_renegotiation_keeps_usable_kernel, 0, G_N_ELEMENTS (conv3d_names));
  return s;
}

GST_CHECK_MAIN (settings);
