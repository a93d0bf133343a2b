/* gst-cuda-video: what users of gst-plugins-base / -good elements take for
 * granted, checked on every element: QoS where it is safe, properties that
 * follow a control binding, metas kept through elements that keep the
 * geometry (and the frame they belong to through conv3d's delay), one
 * debug category per element, the element metadata.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/controller/gstinterpolationcontrolsource.h>
#include <gst/controller/gstdirectcontrolbinding.h>

#include "gcv-check.h"

static const gchar *const all_elements[] = {
  "cpucanny", "cudacanny", "cpubsplinescale", "cudabsplinescale", "cpuconv3d", "cudaconv3d",
  "cpuseamcarve", "cudaseamcarve", "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm", "cpudibr",
  "cudadibr",
};

/* QoS drops late frames: on where a frame stands alone, off where the
 * algorithm carries state from frame to frame (a dropped frame would break
 * the history, the reference or the seams' coherence). */
GST_START_TEST (test_qos_defaults)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_elements); i++) {
    GstElement *e = gst_element_factory_make (all_elements[i], NULL);
    const gchar *algo = all_elements[i] + (g_str_has_prefix (all_elements[i], "cuda") ? 4 : 3);
    gboolean want = g_str_equal (algo, "canny") || g_str_equal (algo, "bsplinescale")
        || g_str_equal (algo, "dibr"), qos;

    fail_unless (e != NULL, "no element %s", all_elements[i]);
    g_object_get (e, "qos", &qos, NULL);
    fail_unless (qos == want, "%s: qos=%d, expected %d", all_elements[i], qos, want);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* Each element has a debug category of its own name (GST_DEBUG=cpucanny:6
 * shows cpucanny), and the cuda* elements say /Hardware in their klass. */
GST_START_TEST (test_categories_and_metadata)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (all_elements); i++) {
    GstElement *e = gst_element_factory_make (all_elements[i], NULL);
    const gchar *klass;

    fail_unless (e != NULL, "no element %s", all_elements[i]);
    fail_unless (_gst_debug_get_category (all_elements[i]) != NULL, "no debug category %s",
        all_elements[i]);
    klass = gst_element_get_metadata (e, GST_ELEMENT_METADATA_KLASS);
    fail_unless (g_str_has_suffix (klass, "/Hardware") == g_str_has_prefix (all_elements[i], "cuda"),
        "%s: klass %s", all_elements[i], klass);
    gst_object_unref (e);
  }
}

GST_END_TEST;

/* A direct control binding on a controllable property sets it for every
 * frame's stream time: low-threshold 10 -> 100 over 10 frames. */
GST_START_TEST (test_control_binding)
{
  static const gchar *const names[] = { "cpucanny", "cudacanny" };
  guint n;

  for (n = 0; n < G_N_ELEMENTS (names); n++) {
    Ctx ctx = ctx_new (names[n], "blur-size", 0, NULL);
    GstControlSource *cs = gst_interpolation_control_source_new ();
    GstTimedValueControlSource *tvcs = GST_TIMED_VALUE_CONTROL_SOURCE (cs);
    Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 96, 64, 0, 10, 10, 7);
    GstClockTime frame = gst_util_uint64_scale_int (GST_SECOND, 1, 30);
    gint k;

    g_object_set (cs, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
    /* a direct binding maps 0..1 onto the property's 0..100000 range */
    gst_timed_value_control_source_set (tvcs, 0, 10.0 / 100000.0);
    gst_timed_value_control_source_set (tvcs, 9 * frame, 100.0 / 100000.0);
    fail_unless (gst_object_add_control_binding (GST_OBJECT (ctx.e),
            gst_direct_control_binding_new (GST_OBJECT (ctx.e), "low-threshold", cs)));
    ctx_set_caps (&ctx, &im->info);
    for (k = 0; k < 10; k++) {
      GstBuffer *buf = img_to_buffer (im, LAYOUT_DEFAULT), *out;
      gdouble low;
      GST_BUFFER_PTS (buf) = k * frame;
      GST_BUFFER_DURATION (buf) = frame;
      ctx_push_expect (&ctx, buf, GST_FLOW_OK, names[n]);
      out = gst_harness_pull (ctx.h);
      gst_buffer_unref (out);
      g_object_get (ctx.e, "low-threshold", &low, NULL);
      fail_unless (fabs (low - (10.0 + 10.0 * k)) < 1e-6, "%s frame %d: low-threshold %g, expected %g",
          names[n], k, low, 10.0 + 10.0 * k);
    }
    gst_object_unref (cs);
    img_free (im);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* A region-of-interest meta (tags video, orientation, size) on frame k
 * with x = k. */
static GstBuffer *
frame_with_roi (const Img * im, gint k)
{
  GstBuffer *buf = img_to_buffer (im, LAYOUT_DEFAULT);

  gst_buffer_add_video_region_of_interest_meta (buf, "face", k, 2, 8, 8);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale_int (k * GST_SECOND, 1, 30);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale_int (GST_SECOND, 1, 30);
  return buf;
}

static gint
roi_x (GstBuffer * buf)
{
  GstVideoRegionOfInterestMeta *roi = gst_buffer_get_video_region_of_interest_meta (buf);
  return roi ? (gint) roi->x : -1;
}

/* Metas tagged video / size / orientation stay through elements that keep
 * the frame's size (canny edges and overlay, conv3d, dibr's virtual view),
 * are rescaled by the scaler (bsplinescale: the ROI meta's own transform,
 * x * out_w / in_w), go where the size changes otherwise (seamcarve);
 * conv3d gives each output the metas of the frame it is centred on. */
GST_START_TEST (test_metas)
{
  struct
  {
    const gchar *element, *props[2];
    GstVideoFormat format;
    gint out_w, lag;
    gboolean rescaled;
  } cases[] = {
    {"cpucanny", {NULL}, GST_VIDEO_FORMAT_GRAY8, 0, 0},
    {"cpucanny", {"mode", "overlay"}, GST_VIDEO_FORMAT_RGBA, 0, 0},
    {"cudacanny", {"mode", "overlay"}, GST_VIDEO_FORMAT_RGBA, 0, 0},
    {"cpuconv3d", {"size", "3"}, GST_VIDEO_FORMAT_GRAY8, 0, 1},
    {"cudaconv3d", {"size", "3"}, GST_VIDEO_FORMAT_GRAY8, 0, 1},
    {"cpubsplinescale", {NULL}, GST_VIDEO_FORMAT_GRAY8, 48, 0, TRUE},
    {"cudabsplinescale", {NULL}, GST_VIDEO_FORMAT_GRAY8, 48, 0, TRUE},
    {"cpuseamcarve", {NULL}, GST_VIDEO_FORMAT_GRAY8, 48, 0},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Ctx ctx = ctx_new (cases[c].element, NULL);
    Img *im = img_from_test_photo (cases[c].format, 64, 48, 1, 0, 0, 3);
    gint k, pulled = 0;

    if (cases[c].props[0])
      gst_util_set_object_arg (G_OBJECT (ctx.e), cases[c].props[0], cases[c].props[1]);
    if (cases[c].out_w > 0) {
      gchar *s = g_strdup_printf ("video/x-raw,width=%d", cases[c].out_w);
      ctx_set_downstream (&ctx, s);
      g_free (s);
    }
    ctx_set_caps (&ctx, &im->info);
    for (k = 0; k < 6; k++) {
      GstBuffer *out;
      ctx_push_expect (&ctx, frame_with_roi (im, k), GST_FLOW_OK, cases[c].element);
      while ((out = gst_harness_try_pull (ctx.h)) != NULL) {
        gint want = cases[c].out_w <= 0 ? pulled : cases[c].rescaled ? pulled * cases[c].out_w / 64 : -1;
        fail_unless (roi_x (out) == want, "%s %s: output %d has ROI x=%d, expected %d",
            cases[c].element, cases[c].props[0] ? cases[c].props[1] : "", pulled, roi_x (out), want);
        gst_buffer_unref (out);
        pulled++;
      }
    }
    fail_unless (pulled == 6 - cases[c].lag, "%s: %d frames out", cases[c].element, pulled);
    img_free (im);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

static Suite *
behaviour_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("behaviour", FALSE, &s);

  tcase_add_test (tc, test_qos_defaults);
  tcase_add_test (tc, test_categories_and_metadata);
  tcase_add_test (tc, test_control_binding);
  tcase_add_test (tc, test_metas);
  return s;
}

GST_CHECK_MAIN (behaviour);
