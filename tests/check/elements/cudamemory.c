/* gst-cuda-video: video/x-raw(memory:CUDAMemory) in and out of the cuda*
 * elements, in real pipelines with GStreamer's own cudaupload and
 * cudadownload (nvcodec, gst-plugins-bad 1.22), on a GPU (gst-check).
 *
 * Skipped (exit 77) without a usable GPU, without cudaupload /
 * cudadownload, or with a plugin built without gstreamer-cuda-1.0; with
 * GST_CUDA_VIDEO_REQUIRE_GPU=1 each of these is a failure.
 *
 * Pipelines are built with gst_parse_launch between an appsrc (frames cut
 * from the photos in tests/data, panned by a few pixels a frame, system
 * memory) and an appsink, >= 8 frames each so that the frames in flight
 * (async-depth, 2 by default on the GPU) matter, each ended by EOS with a
 * timeout (a hang fails, it does not hang the run).  Checked:
 *  - every element, in every format cudaupload 1.22 takes that the element
 *    takes (NV12, I420, RGBA, BGRA, and P010_10LE, the 10-bit output of
 *    the NVDEC decoders): `cudaupload ! cudaX ! cudadownload`
 *    gives the bytes of `cudaX` in system memory and of the cpuX twin
 *    (motionest / vcm: their output CUDA memory goes to the appsink, mapped
 *    by the test, and their motion meta records are compared too);
 *  - chains of two and three elements in CUDA memory (also GRAY8 between
 *    our own elements, without cudaupload, which cannot carry GRAY8) give
 *    the bytes of the same chain in system memory and of the cpu chain, at
 *    async-depth 0 and at the default;
 *  - negotiation: the pads between cudaupload, our elements and
 *    cudadownload carry memory:CUDAMemory, the pad into videoconvert does
 *    not, and `cudaupload ! cudaX ! videoconvert` still works;
 *  - one GstCudaContext: cudaupload, cudadownload and our elements answer
 *    the "gst.cuda.context" CONTEXT query with the same object;
 *  - the cuda* pad templates list memory:CUDAMemory first, with the formats
 *    of system memory.
 * conv3d runs a custom 3 x 3 x 3 binomial kernel, whose sums are exact in
 * float, directly (not by FFT), so that CUDA and CPU agree byte for byte.
 *
 * The test links nothing of gstreamer-cuda: the GstCudaContext type is
 * looked up by name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* the element test kit (tests/common): frames, the GPU policy, output
 * frames with their motion meta */
#include "gcv-check.h"
#include "gcv-cuda.h"           /* gcv_cuda_device_count */

#define N_FRAMES 8
#define DUR ((GstClockTime) (GST_SECOND / 30))
/* the longest a pipeline may go without a frame or its EOS */
#define STALL_TIMEOUT_US (30 * G_USEC_PER_SEC)
#define CUDA_FEATURE "memory:CUDAMemory"
#define CUDA_CONTEXT_TYPE "gst.cuda.context"

/* ------------------------------------------------------------------------ */
/* input                                                                    */

/* n frames of fmt, w x h, photo @which panned by (3, 2) pixels a frame;
 * @dibr: side-by-side 2D-plus-depth frames (w the whole width) */
static Img **
clip_new (GstVideoFormat fmt, gint w, gint h, gint n, gint which,
    gboolean dibr)
{
  return photo_clip_new (fmt, w, h, n, which, 40, 20, dibr, 500);
}

/* The properties of a conv3d whose output is exact on any hardware: the
 * 3 x 3 x 3 binomial kernel (1 2 1 in x, y and t) normalised by its sum,
 * 64, so that every tap and every partial sum is a float without
 * rounding, computed directly on both backends (auto picks the FFT on the
 * CPU for this size, whose rounding errors turn the many sums that end in
 * exactly .5 either way).  The kernel file lives in a temporary directory removed at
 * exit. */
static gchar *conv3d_dir, *conv3d_file;

static void
conv3d_cleanup (void)
{
  if (conv3d_file)
    g_unlink (conv3d_file);
  if (conv3d_dir)
    g_rmdir (conv3d_dir);
}

static const gchar *
conv3d_props (void)
{
  static gchar *props;

  if (props == NULL) {
    static const gint b[3] = { 1, 2, 1 };
    GString *text = g_string_new ("# 1 2 1 in x, y and t (x fastest)\n");
    gint x, y, t;

    for (t = 0; t < 3; t++)
      for (y = 0; y < 3; y++)
        for (x = 0; x < 3; x++)
          g_string_append_printf (text, "%d%c", b[x] * b[y] * b[t],
              x == 2 ? '\n' : ' ');
    conv3d_dir = g_dir_make_tmp ("gcv-cudamemory-XXXXXX", NULL);
    fail_unless (conv3d_dir != NULL);
    conv3d_file = g_build_filename (conv3d_dir, "binomial.txt", NULL);
    fail_unless (g_file_set_contents (conv3d_file, text->str, -1, NULL));
    g_string_free (text, TRUE);
    atexit (conv3d_cleanup);
    props = g_strdup_printf ("size=3 temporal-size=3 kernel=custom "
        "normalize=true algorithm=streaming kernel-file=\"%s\"", conv3d_file);
  }
  return props;
}

/* ------------------------------------------------------------------------ */
/* pipelines                                                                */

typedef struct
{
  gchar *desc;
  GstElement *pipeline;
  GPtrArray *outs;              /* OutFrame, in order */
} Pipe;

static GstElement *
pipe_get (Pipe * p, const gchar * name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (p->pipeline), name);

  fail_unless (e != NULL, "no element %s in %s", name, p->desc);
  return e;
}

/* Fails on an ERROR message (taking it); returns whether @msg is the EOS. */
static gboolean
pipe_message (Pipe * p, GstMessage * msg)
{
  gboolean eos;

  if (msg == NULL)
    return FALSE;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail ("%s: error from %s: %s (%s)", p->desc, GST_OBJECT_NAME
        (GST_MESSAGE_SRC (msg)), err->message, GST_STR_NULL (dbg));
  }
  eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  gst_message_unref (msg);
  return eos;
}

/* `appsrc ! @middle ! appsink` with the n frames (system memory, their
 * caps, frame k at PTS k frames), then EOS: every output is pulled (its
 * pixels read at once), and the EOS must reach the bus.  A stall of
 * STALL_TIMEOUT_US or an error fails.  The pipeline stays PLAYING, for
 * looking at its pads and contexts, until pipe_clear. */
static void
pipe_run (Pipe * p, const gchar * middle, Img ** frames, gint n)
{
  GstElement *src, *sink;
  GstCaps *caps;
  GstBus *bus;
  GError *err = NULL;
  GstFlowReturn ret;
  gboolean eos_on_bus = FALSE;
  gint64 deadline;
  gint k;

  memset (p, 0, sizeof (*p));
  p->desc = g_strdup_printf ("appsrc name=src format=time ! %s ! "
      "appsink name=sink sync=false", middle);
  p->outs = g_ptr_array_new_with_free_func (out_frame_free);
  p->pipeline = gst_parse_launch_full (p->desc, NULL,
      GST_PARSE_FLAG_FATAL_ERRORS, &err);
  fail_unless (p->pipeline != NULL && err == NULL, "%s: %s", p->desc,
      err ? err->message : "no pipeline");
  src = pipe_get (p, "src");
  sink = pipe_get (p, "sink");
  caps = gst_video_info_to_caps (&frames[0]->info);
  g_object_set (src, "caps", caps, NULL);
  gst_caps_unref (caps);
  bus = gst_element_get_bus (p->pipeline);
  fail_unless (gst_element_set_state (p->pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE, "%s did not start", p->desc);

  for (k = 0; k < n; k++) {
    GstBuffer *buf = img_to_buffer (frames[k], LAYOUT_DEFAULT);
    GST_BUFFER_PTS (buf) = k * DUR;
    GST_BUFFER_DURATION (buf) = DUR;
    g_signal_emit_by_name (src, "push-buffer", buf, &ret);
    gst_buffer_unref (buf);
    fail_unless (ret == GST_FLOW_OK, "%s: push of frame %d: %s", p->desc, k,
        gst_flow_get_name (ret));
  }
  g_signal_emit_by_name (src, "end-of-stream", &ret);
  fail_unless (ret == GST_FLOW_OK);

  deadline = g_get_monotonic_time () + STALL_TIMEOUT_US;
  for (;;) {
    GstSample *sample = NULL;
    gboolean eos = FALSE;

    g_signal_emit_by_name (sink, "try-pull-sample", 100 * GST_MSECOND,
        &sample);
    if (sample) {
      g_ptr_array_add (p->outs, out_frame_new (gst_sample_get_buffer (sample),
              gst_sample_get_caps (sample)));
      gst_sample_unref (sample);
      deadline = g_get_monotonic_time () + STALL_TIMEOUT_US;
      continue;
    }
    /* (the other messages are dropped: look for both at once) */
    eos_on_bus |= pipe_message (p, bus_pop_type (bus, 0, GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    g_object_get (sink, "eos", &eos, NULL);
    if (eos)
      break;
    fail_unless (g_get_monotonic_time () < deadline, "%s: stalled after %u "
        "frames (no frame and no EOS for %d s)", p->desc, p->outs->len,
        (gint) (STALL_TIMEOUT_US / G_USEC_PER_SEC));
  }
  while (!eos_on_bus) {
    GstMessage *msg = bus_pop_type (bus, 10 * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL, "%s: no EOS on the bus", p->desc);
    eos_on_bus = pipe_message (p, msg);
  }
  fail_unless (p->outs->len == (guint) n, "%s: %u frames out of %d",
      p->desc, p->outs->len, n);
  for (k = 0; k < n; k++) {
    OutFrame *o = g_ptr_array_index (p->outs, k);
    fail_unless (o->pts == k * DUR, "%s: output %d has PTS %" GST_TIME_FORMAT,
        p->desc, k, GST_TIME_ARGS (o->pts));
  }
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (sink);
}

static void
pipe_clear (Pipe * p)
{
  if (p->pipeline) {
    fail_unless (gst_element_set_state (p->pipeline, GST_STATE_NULL) ==
        GST_STATE_CHANGE_SUCCESS);
    gst_object_unref (p->pipeline);
  }
  if (p->outs)
    g_ptr_array_unref (p->outs);
  g_free (p->desc);
  memset (p, 0, sizeof (*p));
}

/* Whether the caps now on pad @pad of element @name have
 * memory:CUDAMemory; fails when the pad has none. */
static gboolean
pad_is_device (Pipe * p, const gchar * name, const gchar * pad)
{
  GstElement *e = pipe_get (p, name);
  GstPad *sp = gst_element_get_static_pad (e, pad);
  GstCaps *caps;
  gboolean device;

  fail_unless (sp != NULL, "%s has no pad %s", name, pad);
  caps = gst_pad_get_current_caps (sp);
  fail_unless (caps != NULL && gst_caps_get_size (caps) == 1, "%s: %s:%s has "
      "no fixed caps", p->desc, name, pad);
  device = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      CUDA_FEATURE);
  gst_caps_unref (caps);
  gst_object_unref (sp);
  gst_object_unref (e);
  return device;
}

static void
check_pad_memory (Pipe * p, const gchar * name, const gchar * pad,
    gboolean device)
{
  fail_unless (pad_is_device (p, name, pad) == device, "%s: %s:%s %s",
      p->desc, name, pad, device ? "is not in " CUDA_FEATURE :
      "is in " CUDA_FEATURE);
}

/* The GstCudaContext element @name answers the CONTEXT query with (a new
 * reference). */
static GstObject *
cuda_context_of (Pipe * p, const gchar * name)
{
  GType type = g_type_from_name ("GstCudaContext");
  GstElement *e = pipe_get (p, name);
  GstQuery *q = gst_query_new_context (CUDA_CONTEXT_TYPE);
  GstContext *ctx = NULL;
  GstObject *obj = NULL;

  fail_unless (type != 0, "no GstCudaContext type (gstreamer-cuda not "
      "loaded)");
  fail_unless (gst_element_query (e, q), "%s: %s does not answer the %s "
      "CONTEXT query", p->desc, name, CUDA_CONTEXT_TYPE);
  gst_query_parse_context (q, &ctx);
  fail_unless (ctx != NULL, "%s: %s answered without a context", p->desc,
      name);
  fail_unless_equals_string (gst_context_get_context_type (ctx),
      CUDA_CONTEXT_TYPE);
  fail_unless (gst_structure_get (gst_context_get_structure (ctx),
          CUDA_CONTEXT_TYPE, type, &obj, NULL) && obj != NULL, "%s: the "
      "context of %s has no %s field of type GstCudaContext", p->desc, name,
      CUDA_CONTEXT_TYPE);
  gst_query_unref (q);
  gst_object_unref (e);
  return obj;
}

/* every element of @names (NULL terminated) shares the first one's
 * GstCudaContext */
static void
check_one_context (Pipe * p, const gchar * const *names)
{
  GstObject *first = cuda_context_of (p, names[0]);
  guint i;

  for (i = 1; names[i] != NULL; i++) {
    GstObject *other = cuda_context_of (p, names[i]);
    fail_unless (other == first, "%s: %s has GstCudaContext %p, %s %p",
        p->desc, names[i], other, names[0], first);
    gst_object_unref (other);
  }
  gst_object_unref (first);
}

/* every output of @p in CUDA memory (or none) */
static void
check_out_memory (Pipe * p, gboolean device)
{
  guint i;

  for (i = 0; i < p->outs->len; i++) {
    OutFrame *o = g_ptr_array_index (p->outs, i);
    fail_unless (o->device == device, "%s: output %u %s", p->desc, i,
        device ? "is not in " CUDA_FEATURE : "is in " CUDA_FEATURE);
  }
}

/* ------------------------------------------------------------------------ */
/* one element, in every format cudaupload takes                            */

typedef struct
{
  const gchar *suffix;          /* cuda<suffix>, cpu<suffix> */
  const gchar *props;           /* launch-line properties ("" none) */
  const gchar *filter;          /* caps after the element, %s: the memory
                                 * feature, or NULL */
  gboolean to_appsink;          /* its CUDA output goes to the appsink */
  GstVideoFormat fmt;
  gint w, h;
  gboolean dibr;
} Single;

#define CONV3D_PROPS NULL       /* conv3d_props () */

/* the seven element types */
static const gchar *const suffixes[] = { "canny", "bsplinescale", "conv3d",
  "seamcarve", "motionest", "vcm", "dibr"
};

static const Single singles[] = {
  {"canny", "mode=overlay", NULL, FALSE, GST_VIDEO_FORMAT_NV12, 64, 48},
  {"canny", "mode=overlay", NULL, FALSE, GST_VIDEO_FORMAT_I420, 64, 48},
  {"canny", "mode=overlay", NULL, FALSE, GST_VIDEO_FORMAT_RGBA, 64, 48},
  {"canny", "mode=overlay", NULL, FALSE, GST_VIDEO_FORMAT_BGRA, 64, 48},
  {"canny", "mode=overlay", NULL, FALSE, GST_VIDEO_FORMAT_P010_10LE, 66, 50},
  /* edges: GRAY8, which cudadownload 1.22 cannot take */
  {"canny", "mode=edges", "video/x-raw%s,format=GRAY8", TRUE,
      GST_VIDEO_FORMAT_NV12, 64, 48},
  {"canny", "mode=edges", "video/x-raw%s,format=GRAY8", TRUE,
      GST_VIDEO_FORMAT_P010_10LE, 64, 48},
  {"bsplinescale", "", "video/x-raw%s,width=80,height=60", FALSE,
      GST_VIDEO_FORMAT_NV12, 64, 48},
  {"bsplinescale", "", "video/x-raw%s,width=80,height=60", FALSE,
      GST_VIDEO_FORMAT_I420, 64, 48},
  {"bsplinescale", "", "video/x-raw%s,width=48,height=30", FALSE,
      GST_VIDEO_FORMAT_RGBA, 64, 48},
  {"bsplinescale", "", "video/x-raw%s,width=48,height=30", FALSE,
      GST_VIDEO_FORMAT_BGRA, 64, 48},
  {"bsplinescale", "", "video/x-raw%s,width=81,height=59", FALSE,
      GST_VIDEO_FORMAT_P010_10LE, 64, 48},
  {"conv3d", CONV3D_PROPS, NULL, FALSE, GST_VIDEO_FORMAT_NV12, 64, 48},
  {"conv3d", CONV3D_PROPS, NULL, FALSE, GST_VIDEO_FORMAT_I420, 64, 48},
  {"conv3d", CONV3D_PROPS, NULL, FALSE, GST_VIDEO_FORMAT_RGBA, 64, 48},
  {"conv3d", CONV3D_PROPS, NULL, FALSE, GST_VIDEO_FORMAT_BGRA, 64, 48},
  {"conv3d", CONV3D_PROPS, NULL, FALSE, GST_VIDEO_FORMAT_P010_10LE, 64, 48},
  {"seamcarve", "width=56", NULL, FALSE, GST_VIDEO_FORMAT_RGBA, 64, 48},
  {"seamcarve", "width=56 height=44", NULL, FALSE, GST_VIDEO_FORMAT_BGRA, 64,
      48},
  {"motionest", "", NULL, TRUE, GST_VIDEO_FORMAT_NV12, 64, 48},
  {"motionest", "", NULL, TRUE, GST_VIDEO_FORMAT_I420, 64, 48},
  {"motionest", "subpel=quarter", NULL, TRUE, GST_VIDEO_FORMAT_P010_10LE, 64,
      48},
  {"vcm", "max-points=100", NULL, TRUE, GST_VIDEO_FORMAT_NV12, 96, 72},
  {"vcm", "max-points=100", NULL, TRUE, GST_VIDEO_FORMAT_I420, 96, 72},
  {"vcm", "max-points=100", NULL, TRUE, GST_VIDEO_FORMAT_P010_10LE, 96, 72},
  {"dibr", "", NULL, FALSE, GST_VIDEO_FORMAT_RGBA, 128, 48, TRUE},
  {"dibr", "", NULL, FALSE, GST_VIDEO_FORMAT_BGRA, 128, 48, TRUE},
  {"dibr", "", NULL, FALSE, GST_VIDEO_FORMAT_I420, 128, 48, TRUE},
};

enum
{ IN_CUDA, IN_SYSTEM, ON_CPU, INTO_VIDEOCONVERT };

static const gchar *
single_props (const Single * c)
{
  return c->props ? c->props : conv3d_props ();
}

/* The middle of the pipeline for @c: in CUDA memory (cudaupload,
 * cudadownload unless the output goes to the appsink), in system memory,
 * on the CPU, or cudaupload ! cudaX ! videoconvert. */
static gchar *
single_middle (const Single * c, gint how)
{
  const gchar *feature = how == IN_CUDA ? "(" CUDA_FEATURE ")" : "";
  GString *s = g_string_new ("");

  if (how == IN_CUDA || how == INTO_VIDEOCONVERT)
    g_string_append (s, "cudaupload name=up ! ");
  g_string_append_printf (s, "%s%s name=x %s", how == ON_CPU ? "cpu" : "cuda",
      c->suffix, single_props (c));
  if (c->filter) {
    g_string_append (s, " ! ");
    g_string_append_printf (s, c->filter, feature);
  } else if (how == IN_SYSTEM) {
    /* the appsink takes anything: keep the output in system memory */
    g_string_append (s, " ! video/x-raw");
  }
  /* (cudadownload and videoconvert pass CUDA memory through when
   * downstream takes it, and the appsink takes anything: the caps after
   * them ask for system memory) */
  if (how == IN_CUDA && !c->to_appsink)
    g_string_append (s, " ! cudadownload name=down ! video/x-raw");
  if (how == INTO_VIDEOCONVERT)
    g_string_append (s, " ! videoconvert name=vc ! video/x-raw");
  return g_string_free (s, FALSE);
}

/* @got's frames are @ref's (both cleared) */
static void
pipes_compare_clear (Pipe * got, Pipe * ref)
{
  gchar *what = g_strdup_printf ("%s vs %s", got->desc, ref->desc);

  out_frames_compare (got->outs, 0, ref->outs, FALSE, what);
  g_free (what);
  pipe_clear (got);
  pipe_clear (ref);
}

static void
run_single (Pipe * p, const Single * c, gint how, Img ** clip)
{
  gchar *middle = single_middle (c, how);

  pipe_run (p, middle, clip, N_FRAMES);
  g_free (middle);
}

/* cudaupload ! cudaX ! cudadownload == cudaX in system memory == cpuX */
static void
check_single (const Single * c, Img ** clip)
{
  Pipe dev, sys, cpu;

  run_single (&dev, c, IN_CUDA, clip);
  /* CUDA memory on both sides of the element, one context */
  check_pad_memory (&dev, "x", "sink", TRUE);
  check_pad_memory (&dev, "x", "src", TRUE);
  check_out_memory (&dev, c->to_appsink);
  {
    const gchar *names[] = { "up", "x", c->to_appsink ? NULL : "down", NULL };
    check_one_context (&dev, names);
  }
  run_single (&sys, c, IN_SYSTEM, clip);
  check_pad_memory (&sys, "x", "sink", FALSE);
  check_pad_memory (&sys, "x", "src", FALSE);
  check_out_memory (&sys, FALSE);
  run_single (&cpu, c, ON_CPU, clip);
  out_frames_compare (dev.outs, 0, sys.outs, FALSE, "CUDA memory vs system "
      "memory");
  pipe_clear (&dev);
  pipes_compare_clear (&sys, &cpu);
}

/* cudaupload ! cudaX ! videoconvert: the element gives system memory to
 * videoconvert, and the frames of cudaX in system memory */
static void
check_into_videoconvert (const Single * c, Img ** clip)
{
  Pipe vc, sys;

  run_single (&vc, c, INTO_VIDEOCONVERT, clip);
  check_pad_memory (&vc, "vc", "sink", FALSE);
  check_out_memory (&vc, FALSE);
  run_single (&sys, c, IN_SYSTEM, clip);
  pipes_compare_clear (&vc, &sys);
}

/* One element (one test: each test process pays CUDA's start): every
 * format of it in CUDA memory, then into videoconvert. */
GST_START_TEST (test_element)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (singles); i++) {
    const Single *c = &singles[i];
    Img **clip;
    if (!g_str_equal (c->suffix, suffixes[__i__]))
      continue;
    clip = clip_new (c->fmt, c->w, c->h, N_FRAMES, i, c->dibr);
    check_single (c, clip);
    if (i == 0 || !g_str_equal (singles[i - 1].suffix, c->suffix))
      check_into_videoconvert (c, clip);
    photo_clip_free (clip, N_FRAMES);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* chains                                                                   */

typedef struct
{
  GstVideoFormat fmt;
  /* (caps between every two of our elements, so that the chain in system
   * memory is one) %1$s the memory feature of those caps, %2$s the
   * element prefix (cuda / cpu), %3$s extra properties of every element,
   * %4$s the conv3d properties */
  const gchar *chain;
  gboolean upload;              /* cudaupload ... cudadownload around it */
  const gchar *const device_pads[7];    /* element, pad, ...: in CUDA memory */
  const gchar *const elements[4];       /* our elements, for the context */
  /* with upload: no cudadownload at the end, the last element's CUDA
   * memory goes to the appsink (cudadownload 1.22 drops the motion meta,
   * whose API has the video tags, as a basetransform does by default) */
  gboolean keep_on_gpu;
} Chain;

static const Chain chains[] = {
  /* scale, then paint the edges on the scaled frame */
  {GST_VIDEO_FORMAT_NV12,
        "%2$sbsplinescale name=a %3$s ! video/x-raw%1$s,width=96,height=72 ! "
        "%2$scanny name=b mode=overlay %3$s",
        TRUE, {"a", "sink", "a", "src", "b", "src", NULL}, {"a", "b", NULL}},
  /* smooth in space and time, scale down, paint the edges */
  {GST_VIDEO_FORMAT_I420,
        "%2$sconv3d name=a %4$s %3$s ! video/x-raw%1$s ! "
        "%2$sbsplinescale name=b %3$s ! video/x-raw%1$s,width=48,height=36 ! "
        "%2$scanny name=c mode=overlay %3$s",
        TRUE, {"a", "src", "b", "src", "c", "src", NULL}, {"a", "b", "c", NULL}},
  /* a 10-bit decoder's P010 smoothed, scaled, searched for motion: P010 in
   * CUDA memory between the elements */
  {GST_VIDEO_FORMAT_P010_10LE,
        "%2$sconv3d name=a %4$s %3$s ! video/x-raw%1$s ! "
        "%2$sbsplinescale name=b %3$s ! video/x-raw%1$s,width=50,height=38 ! "
        "%2$smotionest name=c %3$s",
        TRUE, {"a", "src", "b", "src", "c", "src", NULL}, {"a", "b", "c", NULL},
      TRUE},
  /* GRAY8 between our own elements (no cudaupload: it has no GRAY8); the
   * last one's CUDA memory is mapped by the test */
  {GST_VIDEO_FORMAT_GRAY8,
        "%2$sconv3d name=a %4$s %3$s ! video/x-raw%1$s ! %2$scanny name=b %3$s ! "
        "video/x-raw%1$s ! %2$smotionest name=c %3$s",
        FALSE, {"a", "src", "b", "src", "c", "src", NULL}, {"a", "b", "c", NULL}},
};

static gchar *
chain_middle (const Chain * c, gint how, const gchar * extra)
{
  gchar *body = g_strdup_printf (c->chain,
      how == IN_CUDA ? "(" CUDA_FEATURE ")" : "",
      how == ON_CPU ? "cpu" : "cuda", extra, conv3d_props ());
  gchar *middle;

  if (how == IN_CUDA && c->upload && c->keep_on_gpu)
    middle = g_strdup_printf ("cudaupload name=up ! %s", body);
  else if (how == IN_CUDA && c->upload)
    middle = g_strdup_printf ("cudaupload name=up ! %s ! cudadownload "
        "name=down ! video/x-raw", body);
  else if (how == IN_CUDA)
    middle = g_strdup (body);
  else
    middle = g_strdup_printf ("%s ! video/x-raw", body);
  g_free (body);
  return middle;
}

/* a chain in CUDA memory (async-depth default and 0) == the same chain in
 * system memory == the cpu chain; CUDA memory between the elements, one
 * context */
GST_START_TEST (test_chain)
{
  const Chain *c = &chains[__i__];
  Img **clip = clip_new (c->fmt, 64, 48, N_FRAMES + 2, 3 + __i__, FALSE);
  Pipe dev, dev0, sys, cpu;
  gchar *middle;
  guint i;

  middle = chain_middle (c, IN_CUDA, "");
  pipe_run (&dev, middle, clip, N_FRAMES + 2);
  g_free (middle);
  for (i = 0; c->device_pads[i] != NULL; i += 2)
    check_pad_memory (&dev, c->device_pads[i], c->device_pads[i + 1], TRUE);
  check_out_memory (&dev, !c->upload || c->keep_on_gpu);
  {
    const gchar *names[7] = { NULL, };
    guint n = 0;
    if (c->upload)
      names[n++] = "up";
    for (i = 0; c->elements[i] != NULL; i++)
      names[n++] = c->elements[i];
    if (c->upload && !c->keep_on_gpu)
      names[n++] = "down";
    check_one_context (&dev, names);
  }

  middle = chain_middle (c, IN_SYSTEM, "");
  pipe_run (&sys, middle, clip, N_FRAMES + 2);
  g_free (middle);
  for (i = 0; c->elements[i] != NULL; i++)
    check_pad_memory (&sys, c->elements[i], "src", FALSE);
  out_frames_compare (dev.outs, 0, sys.outs, FALSE, "CUDA memory vs system "
      "memory");

  middle = chain_middle (c, IN_CUDA, "async-depth=0");
  pipe_run (&dev0, middle, clip, N_FRAMES + 2);
  g_free (middle);
  pipes_compare_clear (&dev, &dev0);

  middle = chain_middle (c, ON_CPU, "");
  pipe_run (&cpu, middle, clip, N_FRAMES + 2);
  g_free (middle);
  pipes_compare_clear (&sys, &cpu);
  photo_clip_free (clip, N_FRAMES + 2);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* pad templates                                                            */

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* the "format" values of the structures of @caps with (or without)
 * memory:CUDAMemory, sorted, one string */
static gchar *
template_formats (GstCaps * caps, gboolean device)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new ("");
  guint i, j;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *st = gst_caps_get_structure (caps, i);
    const GValue *v = gst_structure_get_value (st, "format");
    if (gst_caps_features_contains (gst_caps_get_features (caps, i),
            CUDA_FEATURE) != device || v == NULL)
      continue;
    if (GST_VALUE_HOLDS_LIST (v)) {
      for (j = 0; j < gst_value_list_get_size (v); j++)
        g_ptr_array_add (list, g_value_dup_string (gst_value_list_get_value (v,
                    j)));
    } else {
      g_ptr_array_add (list, g_value_dup_string (v));
    }
  }
  g_ptr_array_sort (list, compare_strings);
  for (i = 0; i < list->len; i++) {
    const gchar *f = g_ptr_array_index (list, i);
    if (i == 0 || g_strcmp0 (f, g_ptr_array_index (list, i - 1)) != 0)
      g_string_append_printf (s, "%s ", f);
  }
  g_ptr_array_unref (list);
  return g_string_free (s, FALSE);
}

/* the cuda* pads list memory:CUDAMemory first, with every format they take
 * in system memory; the cpu* ones have none */
GST_START_TEST (test_templates)
{
  guint i;

  for (i = 0; i < 2; i++) {
    gchar *name = g_strconcat (i ? "cpu" : "cuda", suffixes[__i__], NULL);
    GstElementFactory *f = gst_element_factory_find (name);
    const GList *l;

    fail_unless (f != NULL, "no %s", name);
    for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
      GstCaps *caps = gst_static_pad_template_get_caps (l->data);
      gchar *dev = template_formats (caps, TRUE);
      gchar *sys = template_formats (caps, FALSE);
      const gchar *pad = ((GstStaticPadTemplate *) l->data)->name_template;
      if (i == 0) {
        fail_unless (gst_caps_features_contains (gst_caps_get_features (caps,
                    0), CUDA_FEATURE), "%s:%s does not list " CUDA_FEATURE
            " first", name, pad);
        fail_unless (*sys != '\0', "%s:%s takes no system memory", name, pad);
        fail_unless_equals_string (dev, sys);
      } else {
        fail_unless (*dev == '\0', "%s:%s takes " CUDA_FEATURE ": %s", name,
            pad, dev);
      }
      g_free (dev);
      g_free (sys);
      gst_caps_unref (caps);
    }
    gst_object_unref (f);
    g_free (name);
  }
}

GST_END_TEST;

/* cudamotionest with its search spread over devices (devices=0,1 where
 * the machine has two GPUs, else two contexts on one: 0,0), its frames in
 * CUDA memory on the pipeline's GPU: the vectors and frames of one device,
 * for either split */
GST_START_TEST (test_motionest_devices)
{
  static const gchar *const splits[] = { "serial", "parallel" };
  GcvError err = { GCV_OK, "" };
  const gchar *devices = gcv_cuda_device_count (&err) >= 2 ? "0,1" : "0,0";
  Img **clip = clip_new (GST_VIDEO_FORMAT_NV12, 96, 64, N_FRAMES, 11, FALSE);
  Pipe one, spread;
  guint i;

  pipe_run (&one, "cudaupload name=up ! cudamotionest name=x", clip, N_FRAMES);
  check_pad_memory (&one, "x", "sink", TRUE);
  for (i = 0; i < G_N_ELEMENTS (splits); i++) {
    gchar *middle = g_strdup_printf ("cudaupload name=up ! cudamotionest "
        "name=x devices=%s split=%s async-depth=1", devices, splits[i]);
    gchar *what = g_strdup_printf ("devices=%s split=%s vs one device",
        devices, splits[i]);
    pipe_run (&spread, middle, clip, N_FRAMES);
    check_pad_memory (&spread, "x", "sink", TRUE);
    out_frames_compare (spread.outs, 0, one.outs, FALSE, what);
    pipe_clear (&spread);
    g_free (middle);
    g_free (what);
  }
  pipe_clear (&one);
  photo_clip_free (clip, N_FRAMES);
}

GST_END_TEST;

static Suite *
cuda_memory_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("cuda-memory", FALSE, &s);

  tcase_set_timeout (tc, 300);
  tcase_add_loop_test (tc, test_templates, 0, G_N_ELEMENTS (suffixes));
  tcase_add_loop_test (tc, test_element, 0, G_N_ELEMENTS (suffixes));
  tcase_add_loop_test (tc, test_chain, 0, G_N_ELEMENTS (chains));
  tcase_add_test (tc, test_motionest_devices);
  return s;
}

/* whether factory @name is registered */
static gboolean
have_factory (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

/* the skip (77), or with GST_CUDA_VIDEO_REQUIRE_GPU=1 the failure, when
 * something this test needs is missing */
static int
missing (const gchar * why)
{
  if (require_gpu ()) {
    g_printerr ("FAIL: GST_CUDA_VIDEO_REQUIRE_GPU=1 but %s\n", why);
    return 1;
  }
  g_print ("SKIP: %s (set GST_CUDA_VIDEO_REQUIRE_GPU=1 to make this a "
      "failure)\n", why);
  return GCV_TEST_SKIP;
}

/* gcv_test_gpu_policy () in a child process: CUDA does not survive a
 * fork, and every test runs in a child of this process, which must not
 * have touched CUDA.  Returns 0 when a GPU is usable, else the exit code
 * (77 skip, 1 failure; the child said why). */
static int
gpu_policy_in_child (void)
{
  int status = 0;
  pid_t pid;

  fflush (NULL);
  pid = fork ();
  if (pid == 0) {
    gcv_test_gpu_policy ();
    fflush (NULL);
    _exit (0);
  }
  if (pid < 0 || waitpid (pid, &status, 0) != pid) {
    g_printerr ("FAIL: could not run the GPU probe\n");
    return 1;
  }
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  g_printerr ("FAIL: the GPU probe died (status %d)\n", status);
  return 1;
}

int
main (int argc, char **argv)
{
  GstElementFactory *f;
  gboolean device_templates = FALSE;
  int ret;

  gst_check_init (&argc, &argv);
  /* exits 77 (or 1 with GST_CUDA_VIDEO_REQUIRE_GPU set) without a GPU */
  if ((ret = gpu_policy_in_child ()) != 0)
    return ret;
  if (!have_factory ("cudaupload") || !have_factory ("cudadownload"))
    return missing ("GStreamer's cudaupload / cudadownload (nvcodec, "
        "gst-plugins-bad) are not registered");
  f = gst_element_factory_find ("cudacanny");
  if (f) {
    const GList *l = gst_element_factory_get_static_pad_templates (f);
    GstCaps *caps = l ? gst_static_pad_template_get_caps (l->data) : NULL;
    device_templates = caps && gst_caps_get_size (caps) > 0
        && gst_caps_features_contains (gst_caps_get_features (caps, 0),
        CUDA_FEATURE);
    if (caps)
      gst_caps_unref (caps);
    gst_object_unref (f);
  }
  if (!device_templates)
    return missing ("cudacanny takes no " CUDA_FEATURE " (the plugin was "
        "built without gstreamer-cuda-1.0, or is not found)");
  return gst_check_run_suite (cuda_memory_suite (), "cuda-memory", __FILE__);
}
