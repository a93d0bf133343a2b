/* gst-cuda-video: what users of gst-plugins-base / -good elements take for
 * granted, checked on every element: QoS where it is safe, properties that
 * follow a control binding, metas kept through elements that keep the
 * geometry (and the frame they belong to through conv3d's delay), one
 * debug category per element, the element metadata, properties that do
 * something on each twin (a cpu* element shows no cuda-device-id, fallback
 * or devices), an INFO line for slow CPU frames.
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

/* Each cpu* element shows the properties of its cuda* twin but for those
 * only a GPU uses: cuda-device-id and fallback, and cudamotionest's
 * devices and split.  The cuda* element keeps them, with the gst-inspect
 * text they always had. */
GST_START_TEST (test_twin_property_lists)
{
  static const gchar *const suffixes[] = { "canny", "bsplinescale", "conv3d", "seamcarve", "motionest", "vcm",
    "dibr"
  };
  static const struct
  {
    const gchar *name, *blurb;
  } gpu_only[] = {
    {"cuda-device-id", "CUDA device to run on (-1 = the device of the pipeline's CUDA context, else the "
          "default device, 0 unless CUDA_VISIBLE_DEVICES says otherwise); ignored by the cpu* elements"},
    {"fallback", "When no usable CUDA device is found: TRUE runs the CPU implementation and posts one "
          "warning, FALSE fails with a resource error"},
    {"devices", "CUDA devices to share the work, comma-separated (e.g. \"0,1\"); empty = the "
          "cuda-device-id device; ignored by the CPU backend"},
    {"split", "How several devices share the work"},
  };
  guint i, k;

  for (i = 0; i < G_N_ELEMENTS (suffixes); i++) {
    gchar *cuda_name = g_strconcat ("cuda", suffixes[i], NULL);
    gchar *cpu_name = g_strconcat ("cpu", suffixes[i], NULL);
    GstElement *cuda = gst_element_factory_make (cuda_name, NULL);
    GstElement *cpu = gst_element_factory_make (cpu_name, NULL);
    guint n_cuda, n_cpu, only = 0;
    GParamSpec **cuda_specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (cuda), &n_cuda);
    GParamSpec **cpu_specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (cpu), &n_cpu);

    for (k = 0; k < G_N_ELEMENTS (gpu_only); k++) {
      GParamSpec *c = g_object_class_find_property (G_OBJECT_GET_CLASS (cuda), gpu_only[k].name);
      gboolean want = k < 2 || g_str_equal (suffixes[i], "motionest");
      fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (cpu), gpu_only[k].name) == NULL,
          "%s shows %s", cpu_name, gpu_only[k].name);
      fail_unless ((c != NULL) == want, "%s: %s %s", cuda_name, gpu_only[k].name, want ? "missing" : "shown");
      if (c == NULL)
        continue;
      fail_unless_equals_string (g_param_spec_get_blurb (c), gpu_only[k].blurb);
      only++;
    }
    /* everything else is on both, with the same type and text */
    fail_unless_equals_int (n_cpu + only, n_cuda);
    for (k = 0; k < n_cpu; k++) {
      GParamSpec *c = g_object_class_find_property (G_OBJECT_GET_CLASS (cuda), cpu_specs[k]->name);
      fail_unless (c != NULL && c->value_type == cpu_specs[k]->value_type
          && g_str_equal (g_param_spec_get_blurb (c), g_param_spec_get_blurb (cpu_specs[k])),
          "%s: %s differs from %s's", cpu_name, cpu_specs[k]->name, cuda_name);
    }
    /* the cuda* element's are set and read as before */
    g_object_set (cuda, "cuda-device-id", 3, "fallback", FALSE, NULL);
    {
      gint dev;
      gboolean fallback;
      g_object_get (cuda, "cuda-device-id", &dev, "fallback", &fallback, NULL);
      fail_unless (dev == 3 && !fallback, "%s: cuda-device-id %d fallback %d", cuda_name, dev, fallback);
    }
    g_free (cuda_specs);
    g_free (cpu_specs);
    gst_object_unref (cuda);
    gst_object_unref (cpu);
    g_free (cuda_name);
    g_free (cpu_name);
  }
}

GST_END_TEST;

/* INFO lines of category @data that say a CPU frame was slow */
static void
count_slow_lines (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message, gpointer data)
{
  guint *n = data;

  if (level == GST_LEVEL_INFO && g_str_equal (gst_debug_category_get_name (category), "cpuconv3d")
      && g_str_has_prefix (gst_debug_message_get (message), "slow CPU frame"))
    g_atomic_int_inc (n);
}

/* A CPU frame of 250 ms or more gives an INFO line, at most one a second:
 * frames of cpuconv3d with a 31 x 31 baseline kernel on one thread (2.5e8
 * multiply-adds, about half a second on the shared 2-core CI machine),
 * their times read from the stats.  Lines: at least one when a frame was
 * slow, none when none was, never more than slow frames nor than one a
 * second (six slow frames in three seconds: three lines at most).  Under
 * the valgrind setup (GCV_TEST_QUICK) the frames are small and the lines
 * logged but not counted: GStreamer keeps the list of log functions that
 * adding one replaces, on purpose, which memcheck calls a definite leak. */
GST_START_TEST (test_slow_cpu_frame_info)
{
  const gboolean count = !gcv_check_quick ();
  const gint side = count ? 512 : 64, n = count ? 6 : 2;
  Ctx ctx = ctx_new ("cpuconv3d", "size", 31, "temporal-size", 1, "n-threads", 1u, NULL);
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, side, side, 1, 0, 0, 5);
  GstDebugLevel old = gst_debug_category_get_threshold (_gst_debug_get_category ("cpuconv3d"));
  gdouble sum = 0.0;
  gint64 t0;
  guint lines = 0, slow = 0, allowed;
  gint k;

  gst_util_set_object_arg (G_OBJECT (ctx.e), "algorithm", "baseline");
  gst_debug_set_threshold_for_name ("cpuconv3d", GST_LEVEL_INFO);
  if (count)
    gst_debug_add_log_function (count_slow_lines, &lines, NULL);
  ctx_set_caps (&ctx, &im->info);
  t0 = g_get_monotonic_time ();
  for (k = 0; k < n; k++) {
    GstStructure *stats;
    guint64 frames;
    gdouble mean;
    ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_OK, "slow frame");
    gst_buffer_unref (gst_harness_pull (ctx.h));
    g_object_get (ctx.e, "stats", &stats, NULL);
    gst_structure_get_uint64 (stats, "frames", &frames);
    gst_structure_get_double (stats, "compute-ms", &mean);
    gst_structure_free (stats);
    fail_unless_equals_uint64 (frames, k + 1);
    /* this frame's time: the mean's sum grew by it */
    if (mean * (k + 1) - sum >= 250.0)
      slow++;
    sum = mean * (k + 1);
  }
  allowed = 1 + (guint) ((g_get_monotonic_time () - t0) / G_USEC_PER_SEC);
  gst_debug_category_set_threshold (_gst_debug_get_category ("cpuconv3d"), old);
  GST_INFO ("%d frames of %dx%d, %u slow (%.0f ms in all), %u INFO lines", n, side, side, slow, sum, lines);
  if (count) {
    gst_debug_remove_log_function (count_slow_lines);
    if (slow > 0)
      fail_unless (lines >= 1, "%u slow frames, no INFO line", slow);
    fail_unless (lines <= slow && lines <= allowed, "%u INFO lines for %u slow frames in %u s", lines, slow,
        allowed);
  }
  img_free (im);
  ctx_free (&ctx);
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
  tcase_add_test (tc, test_twin_property_lists);
  tcase_add_test (tc, test_slow_cpu_frame_info);
  return s;
}

GST_CHECK_MAIN (behaviour);
