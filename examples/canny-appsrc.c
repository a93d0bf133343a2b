/* gst-cuda-video example: embedding cudacanny in an application.
 *
 *   canny-appsrc INPUT.png [OUTPUT.png [ELEMENT]]
 *
 * Loads INPUT.png as GRAY8 through GStreamer itself (filesrc ! pngdec !
 * videoconvert ! appsink), pushes a few frames made from it (the photo at
 * different contrasts) through
 *
 *   appsrc ! cudacanny ! appsink
 *
 * pulls the edge maps back, prints how many edge pixels each has and which
 * backend did the work, and writes the last edge map to OUTPUT.png
 * (default canny-edges.png) through appsrc ! pngenc ! filesink.
 * ELEMENT is cudacanny (default) or cpucanny.
 *
 * The plugin must be found: run with GST_PLUGIN_PATH=<builddir>/gst when it
 * is not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <string.h>

#define N_FRAMES 5

/* Prints and consumes the bus's error and warning messages; TRUE if there
 * was an error. */
static gboolean
bus_report (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  gboolean failed = FALSE;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING)) != NULL) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (msg, &err, &dbg);
      failed = TRUE;
    } else {
      gst_message_parse_warning (msg, &err, &dbg);
    }
    g_printerr ("%s from %s: %s\n  (%s)\n", failed ? "Error" : "Warning",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : "no details");
    g_error_free (err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return failed;
}

/* Waits for end-of-stream (or an error) after appsrc's EOS; FALSE on error. */
static gboolean
wait_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gboolean ok = msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;

  if (msg == NULL)
    g_printerr ("Timed out waiting for end of stream\n");
  else if (!ok)
    gst_bus_post (bus, msg);    /* put it back for bus_report */
  else
    gst_message_unref (msg);
  gst_object_unref (bus);
  if (!ok)
    bus_report (pipeline);
  return ok;
}

/* Decodes a PNG into packed GRAY8 pixels. */
static guint8 *
load_gray (const char *path, int *width, int *height)
{
  GError *error = NULL;
  GstElement *pipeline, *src, *sink;
  GstSample *sample;
  guint8 *pixels = NULL;

  pipeline = gst_parse_launch ("filesrc name=src ! pngdec ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink sync=false", &error);
  if (pipeline == NULL) {
    g_printerr ("Cannot build the PNG decoder: %s\n", error->message);
    g_error_free (error);
    return NULL;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "location", path, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    bus_report (pipeline);
    goto done;
  }
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND);
  if (sample == NULL) {
    if (!bus_report (pipeline))
      g_printerr ("%s: no image decoded\n", path);
    goto done;
  } else {
    GstVideoInfo info;
    GstVideoFrame frame;

    if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) &&
        gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
      *width = GST_VIDEO_FRAME_WIDTH (&frame);
      *height = GST_VIDEO_FRAME_HEIGHT (&frame);
      pixels = g_malloc ((gsize) * width * *height);
      for (int y = 0; y < *height; y++)
        memcpy (pixels + (gsize) y * *width,
            (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
            (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0), *width);
      gst_video_frame_unmap (&frame);
    } else {
      g_printerr ("%s: cannot read the decoded frame\n", path);
    }
    gst_sample_unref (sample);
  }
done:
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return pixels;
}

/* Writes a GRAY8 sample (caps and buffer) as PNG. */
static gboolean
save_png (GstSample * sample, const char *path)
{
  GError *error = NULL;
  GstElement *pipeline, *src, *sink;
  gboolean ok = FALSE;

  pipeline = gst_parse_launch ("appsrc name=src format=time ! pngenc ! filesink name=sink", &error);
  if (pipeline == NULL) {
    g_printerr ("Cannot build the PNG encoder: %s\n", error->message);
    g_error_free (error);
    return FALSE;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (sink, "location", path, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    bus_report (pipeline);
    goto done;
  }
  /* push_sample sets appsrc's caps from the sample */
  if (gst_app_src_push_sample (GST_APP_SRC (src), sample) != GST_FLOW_OK ||
      gst_app_src_end_of_stream (GST_APP_SRC (src)) != GST_FLOW_OK) {
    bus_report (pipeline);
    goto done;
  }
  ok = wait_eos (pipeline);
done:
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return ok;
}

/* Edge pixels (non-zero) of a GRAY8 sample. */
static guint64
count_edges (GstSample * sample, int *width, int *height)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  guint64 n = 0;

  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      GST_VIDEO_INFO_FORMAT (&info) != GST_VIDEO_FORMAT_GRAY8 ||
      !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
    g_printerr ("Unexpected output frame\n");
    return 0;
  }
  *width = GST_VIDEO_FRAME_WIDTH (&frame);
  *height = GST_VIDEO_FRAME_HEIGHT (&frame);
  for (int y = 0; y < *height; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    for (int x = 0; x < *width; x++)
      n += row[x] != 0;
  }
  gst_video_frame_unmap (&frame);
  return n;
}

int
main (int argc, char **argv)
{
  const char *input, *output, *element;
  GstElement *pipeline = NULL, *src, *canny, *sink;
  GstCaps *caps;
  GstSample *last = NULL;
  GstStructure *stats = NULL;
  guint8 *gray, *frame;
  gchar *backend = NULL;
  int width, height, ret = 1;

  gst_init (&argc, &argv);
  if (argc < 2 || argc > 4) {
    g_printerr ("usage: %s INPUT.png [OUTPUT.png [cudacanny|cpucanny]]\n", argv[0]);
    return 2;
  }
  input = argv[1];
  output = argc > 2 ? argv[2] : "canny-edges.png";
  element = argc > 3 ? argv[3] : "cudacanny";

  gray = load_gray (input, &width, &height);
  if (gray == NULL)
    return 1;
  g_print ("%s: %dx%d\n", input, width, height);

  /* appsrc ! cudacanny ! appsink, built element by element */
  pipeline = gst_pipeline_new ("canny");
  src = gst_element_factory_make ("appsrc", "src");
  canny = gst_element_factory_make (element, "canny");
  sink = gst_element_factory_make ("appsink", "sink");
  if (src == NULL || canny == NULL || sink == NULL) {
    g_printerr ("Missing element %s%s\n", canny == NULL ? element : "appsrc/appsink",
        canny == NULL ? " (is GST_PLUGIN_PATH set to the plugin's directory?)" : "");
    if (src)
      gst_object_unref (src);
    if (canny)
      gst_object_unref (canny);
    if (sink)
      gst_object_unref (sink);
    goto out;
  }
  gst_bin_add_many (GST_BIN (pipeline), src, canny, sink, NULL);
  if (!gst_element_link_many (src, canny, sink, NULL)) {
    g_printerr ("Cannot link appsrc ! %s ! appsink\n", element);
    goto out;
  }

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  caps = gst_caps_from_string ("video/x-raw,format=GRAY8");
  g_object_set (sink, "caps", caps, "sync", FALSE, NULL);
  gst_caps_unref (caps);
  /* the defaults, spelled out */
  g_object_set (canny, "low-threshold", 50.0, "high-threshold", 150.0, "blur-size", 5, NULL);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    bus_report (pipeline);
    goto out;
  }

  frame = g_malloc ((gsize) width * height);
  for (int i = 0; i < N_FRAMES; i++) {
    /* the photo at 40% .. 120% contrast: weaker contrast, fewer edges */
    double contrast = 0.4 + 0.2 * i;
    GstBuffer *buf;
    GstSample *sample;
    guint64 edges;
    int ow, oh;

    for (gsize j = 0; j < (gsize) width * height; j++) {
      double v = 128 + (gray[j] - 128) * contrast;
      frame[j] = (guint8) CLAMP (v + 0.5, 0, 255);
    }
    buf = gst_buffer_new_memdup (frame, (gsize) width * height);
    GST_BUFFER_PTS (buf) = gst_util_uint64_scale (i, GST_SECOND, 30);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (1, GST_SECOND, 30);
    if (gst_app_src_push_buffer (GST_APP_SRC (src), buf) != GST_FLOW_OK) {
      bus_report (pipeline);
      g_free (frame);
      goto out;
    }
    sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 10 * GST_SECOND);
    if (sample == NULL) {
      if (!bus_report (pipeline))
        g_printerr ("No output for frame %d\n", i);
      g_free (frame);
      goto out;
    }
    edges = count_edges (sample, &ow, &oh);
    g_print ("frame %d (contrast %3.0f%%): %" G_GUINT64_FORMAT " edge pixels (%.2f%%)\n", i,
        100 * contrast, edges, 100.0 * edges / ((double) ow * oh));
    if (last)
      gst_sample_unref (last);
    last = sample;
  }
  g_free (frame);
  bus_report (pipeline);        /* e.g. cudacanny's warning when it runs on the CPU */

  g_object_get (canny, "backend", &backend, "stats", &stats, NULL);
  g_print ("%s ran on: %s\n", element, backend ? backend : "?");
  if (stats != NULL) {
    gchar *s = gst_structure_to_string (stats);
    g_print ("stats: %s\n", s);
    g_free (s);
    gst_structure_free (stats);
  }

  gst_app_src_end_of_stream (GST_APP_SRC (src));
  if (!wait_eos (pipeline))
    goto out;

  if (!save_png (last, output))
    goto out;
  g_print ("Last edge map written to %s\n", output);
  ret = 0;

out:
  if (pipeline) {
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
  if (last)
    gst_sample_unref (last);
  g_free (backend);
  g_free (gray);
  return ret;
}
