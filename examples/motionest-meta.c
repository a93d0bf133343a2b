/* gst-cuda-video example: reading cudamotionest's vectors in a C program.
 *
 *   motionest-meta [ELEMENT [FRAMES]]
 *
 * Runs
 *
 *   videotestsrc pattern=ball ! video/x-raw,format=I420,width=640,height=480
 *     ! ELEMENT block-width=16 block-height=16 search-range-x=24 search-range-y=24
 *     ! appsink
 *
 * (ELEMENT: cudamotionest, the default, or cpumotionest) and prints, for each
 * frame, the blocks that moved and the largest vector: where the ball went.
 * The vectors come from the GstCudaVideoMotionMeta of each buffer, read with
 * the plugin's public library libgstcudavideo-1.0 (build with
 * `pkg-config --cflags --libs gstreamer-cudavideo-1.0`).
 *
 * The plugin must be found: run with GST_PLUGIN_PATH=<builddir>/gst when it
 * is not installed (and LD_LIBRARY_PATH=<builddir>/gst/cudavideo when the
 * library is neither installed nor found through the program's rpath).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>

#include <stdio.h>
#include <stdlib.h>

#include <gst/cudavideo/cudavideo.h>

static void
print_frame (GstBuffer * buffer)
{
  GstCudaVideoMotionMeta *meta = gst_buffer_get_cuda_video_motion_meta (buffer,
      GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  const GstCudaVideoMotionVector *v;
  guint n, i, moved = 0, best = 0;

  if (meta == NULL) {
    printf ("buffer without motion meta\n");
    return;
  }
  if (!meta->has_reference) {
    printf ("frame %3" G_GUINT64_FORMAT ": first frame, no vectors yet\n", meta->frame);
    return;
  }
  v = gst_cuda_video_motion_meta_get_vectors (meta, &n);
  for (i = 0; i < n; i++) {
    if (v[i].dx != 0 || v[i].dy != 0)
      moved++;
    if (abs (v[i].dx) + abs (v[i].dy) > abs (v[best].dx) + abs (v[best].dy))
      best = i;
  }
  printf ("frame %3" G_GUINT64_FORMAT ": %u of %u blocks moved; largest: block at (%d, %d) "
      "moved (%+.2f, %+.2f) px, SAD %u\n", meta->frame, moved, n, v[best].x, v[best].y,
      (double) v[best].dx / meta->vector_scale, (double) v[best].dy / meta->vector_scale, v[best].sad);
}

int
main (int argc, char **argv)
{
  const gchar *element = argc > 1 ? argv[1] : "cudamotionest";
  gint frames = argc > 2 ? atoi (argv[2]) : 10;
  GstElement *pipeline, *sink;
  GstSample *sample;
  GError *error = NULL;
  gchar *description;
  gint status = 0;

  gst_init (&argc, &argv);
  description = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d "
      "! video/x-raw,format=I420,width=640,height=480 "
      "! %s block-width=16 block-height=16 search-range-x=24 search-range-y=24 "
      "! appsink name=sink sync=false", frames > 0 ? frames : 10, element);
  pipeline = gst_parse_launch (description, &error);
  g_free (description);
  if (pipeline == NULL) {
    fprintf (stderr, "could not build the pipeline: %s\n", error->message);
    g_clear_error (&error);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    fprintf (stderr, "the pipeline did not start (is the plugin on GST_PLUGIN_PATH?)\n");
    status = 1;
  }
  while (status == 0 && (sample = gst_app_sink_pull_sample (GST_APP_SINK (sink))) != NULL) {
    print_frame (gst_sample_get_buffer (sample));
    gst_sample_unref (sample);
  }
  if (status == 0) {
    GstBus *bus = gst_element_get_bus (pipeline);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg != NULL) {
      gst_message_parse_error (msg, &error, NULL);
      fprintf (stderr, "error: %s\n", error->message);
      g_clear_error (&error);
      gst_message_unref (msg);
      status = 1;
    }
    gst_object_unref (bus);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  return status;
}
