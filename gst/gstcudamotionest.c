/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */
/**
 * SECTION:element-cudamotionest
 * @title: cudamotionest / cpumotionest
 * @short_description: block-matching motion estimation, on the GPU (CUDA) and on the CPU
 *
 * Estimates the motion between the previous frame and this one, per block
 * of the luma plane: the blocks tile the previous frame and each gets the
 * displacement at which its content is found in this frame (content moving
 * right gives dx > 0, moving down dy > 0), the one with the least sum of
 * absolute differences (SAD).  method=full tries every displacement of the
 * search window on an integer, half- or quarter-pixel grid (Massanes et
 * al., "Compute-unified device architecture implementation of a
 * block-matching algorithm for multiple graphical processing unit cards");
 * fractional positions are bilinear interpolations of this frame.
 * method=mods is Lu and Hang's multithreaded one-dimensional search: for
 * every horizontal displacement a three-step vertical search, then the best
 * of those, refined to half / quarter pixels around the winner.  Ties go to
 * the shorter vector, then the smaller dy, then the smaller dx, so
 * cudamotionest and cpumotionest give identical vectors.
 *
 * The luma is searched as 8 bits: the Y plane as it is, and for P010_10LE
 * (the 10-bit HDR output of hardware decoders, each 16-bit word the 10-bit
 * value << 6) each word v as (v + 128) / 257, so SADs and zero-threshold are
 * on the 8-bit scale whatever the format.
 *
 * The video passes through unchanged (in place, no copy) unless draw=true
 * paints an arrow per block.  Every buffer leaves with a
 * GstCudaVideoMotionMeta (libgstcudavideo-1.0; in Python the GstCudaVideo
 * typelib): block and grid size, the frame's and the reference's
 * timestamps, and per block x, y, dx, dy in quarter pixels and the SAD; the first
 * frame, and the first after a FLUSH or a caps change, has no previous
 * frame: its meta says has-reference=false and carries zero vectors.  With
 * location set, each frame's vectors are also written to a regular file as
 * one JSON object per line (dx, dy in pixels there): emptied when the
 * element starts (unless append=true), complete when EOS leaves the
 * element, and a line that cannot be written is an error.
 *
 * From GStreamer 1.24 on the meta also crosses into other processes:
 * through unixfdsink as it is, through cudaipcsink (which forwards custom
 * metas only) with ipc-meta=true, the reader unpacking it.
 *
 * With post-messages=true each frame posts an element message "motionest":
 * "frame" (guint64), "has-reference" (boolean), "blocks" (guint), "moved"
 * (guint, blocks whose vector is not (0, 0)), "mean-dx", "mean-dy" (double,
 * pixels, over the moved blocks), the longest vector's block "largest-x",
 * "largest-y" and its "largest-dx", "largest-dy", "largest-length"
 * (double, pixels), the "dominant-dx", "dominant-dy" (double, pixels: the
 * vector most moved blocks share, the camera's pan when the background
 * dominates) and "dominant-count" (guint), all 0 when no block moved, and
 * level's "timestamp", "stream-time", "running-time", "duration" (guint64).
 *
 * Blocks in the last column and row are clipped to the frame when the block
 * size does not divide it; a displacement is only tried when the whole
 * displaced block lies inside the frame.  zero-threshold is C of the
 * paper's eq. 4: a block whose best SAD is at most C per pixel reports no
 * motion.
 *
 * With devices="0,1" cudamotionest spreads the work over several GPUs:
 * split=parallel gives each GPU a band of block rows of every frame;
 * split=serial gives consecutive frame pairs to the GPUs in turn: their
 * searches overlap as far as the frames in flight let them (async-depth:
 * N - 1 for N GPUs, the default 2 covers three), pushed in order.  Both
 * give exactly the single-GPU vectors.  Frames may live on one GPU (CUDA
 * memory): the others copy what they search from it.
 *
 * Properties may change while playing (location and append in the NULL
 * and READY states only); the next frame uses them, checked together
 * before it (unusable ones are one warning and the frames go on with the
 * last usable settings).  A devices list that does not parse is refused
 * with a warning, the previous one kept.  QoS is off by default: each
 * frame is searched against the one before, so a dropped frame doubles
 * the motion the next search must find.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=100 ! video/x-raw,width=640,height=480 ! cudamotionest draw=true location=vectors.jsonl ! videoconvert ! autovideosink
 * ]| Shows the motion of a bouncing ball as arrows and writes the vectors to vectors.jsonl.
 * |[
 * gst-launch-1.0 filesrc location=out/media/clip.webm ! decodebin ! videoconvert ! video/x-raw,format=I420 ! cudamotionest block-width=96 block-height=54 search-range-x=96 search-range-y=54 subpel=half devices=0,1 ! fakesink
 * ]| The paper's HD case (400 blocks, half-pixel full search) on two GPUs (on the CPU fallback about 4 s a frame on 2 cores).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamotionest.h"

#include <errno.h>
#include <string.h>

#include "gcv-cuda.h"

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_BLOCK_WIDTH,
  PROP_BLOCK_HEIGHT,
  PROP_SEARCH_RANGE_X,
  PROP_SEARCH_RANGE_Y,
  PROP_SUBPEL,
  PROP_METHOD,
  PROP_ZERO_THRESHOLD,
  PROP_POST_MESSAGES,
  PROP_IPC_META,
  PROP_DRAW,
  PROP_LOCATION,
  PROP_APPEND,
  PROP_DEVICES,
  PROP_SPLIT,
};

#define DEFAULT_PROP_BLOCK_SIZE 16
#define DEFAULT_PROP_SEARCH_RANGE 16
#define DEFAULT_PROP_SUBPEL GCV_MOTION_SUBPEL_INTEGER
#define DEFAULT_PROP_METHOD GCV_MOTION_METHOD_FULL
#define DEFAULT_PROP_ZERO_THRESHOLD 0.0
#define DEFAULT_PROP_DRAW FALSE
#define DEFAULT_PROP_LOCATION NULL
#define DEFAULT_PROP_APPEND FALSE
#define DEFAULT_PROP_DEVICES ""
#define DEFAULT_PROP_SPLIT GST_CUDA_VIDEO_MOTION_SPLIT_PARALLEL

/* most entries in devices */
#define MAX_DEVICES 16

/* what the errors about the location file call the records */
#define RECORDS "motion vectors"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_MOTION_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_MOTION_CAPS));

GType
gst_cuda_video_motion_subpel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_MOTION_SUBPEL_INTEGER, "Whole pixels", "integer"},
    {GCV_MOTION_SUBPEL_HALF, "Half pixels (the paper's 0.5-pixel grid)", "half"},
    {GCV_MOTION_SUBPEL_QUARTER, "Quarter pixels", "quarter"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoMotionSubpel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_motion_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_MOTION_METHOD_FULL, "Full search: every displacement of the window (exact best match)",
        "full"},
    {GCV_MOTION_METHOD_MODS, "MODS: per horizontal displacement a 3-step vertical search, then "
          "the best of those (fast, may miss the best match)", "mods"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoMotionMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_motion_split_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_MOTION_SPLIT_PARALLEL, "Each frame's block rows spread over the devices",
        "parallel"},
    {GST_CUDA_VIDEO_MOTION_SPLIT_SERIAL, "Consecutive frame pairs to the devices in turn "
          "(they overlap with async-depth >= devices - 1)", "serial"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoMotionSplit", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_motion_est_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoMotionEst, gst_cuda_video_motion_est, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_motion_est (GstPlugin * plugin)
{
  gst_cuda_motion_meta_register ();
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_MOTION_EST,
      "motionest", "Block-matching motion estimator", "Filter/Analyzer/Video",
      "Estimates per-block motion vectors (full search or MODS, sub-pixel) and attaches them "
      "as GstCudaVideoMotionMeta");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudamotionest, register_motion_est);

static void gst_cuda_video_motion_est_finalize (GObject * object);
static void gst_cuda_video_motion_est_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_motion_est_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_video_motion_est_start (GstBaseTransform * trans);
static gboolean gst_cuda_video_motion_est_stop (GstBaseTransform * trans);
static gboolean gst_cuda_video_motion_est_setup (GstCudaVideoFilter * filter,
    GstCudaVideoBackend backend, GError ** error);
static void gst_cuda_video_motion_est_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_motion_est_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * frame);
static GstFlowReturn gst_cuda_video_motion_est_complete (GstCudaVideoFilter * filter, GstBuffer * buffer,
    gpointer results);
static GstFlowReturn gst_cuda_video_motion_est_process (GstCudaVideoFilter * filter,
    GstVideoFrame * frame);
static gboolean gst_cuda_video_motion_est_writes (GstCudaVideoFilter * filter);
static void gst_cuda_video_motion_est_reset (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_motion_est_drain (GstCudaVideoFilter * filter);

/* cudamotionest's own: several GPUs sharing the work */
static void
gst_cuda_video_motion_est_install_cuda_properties (GObjectClass * gobject_class)
{
  const GParamFlags rw_ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (gobject_class, PROP_DEVICES,
      g_param_spec_string ("devices", "Devices",
          "CUDA devices to share the work, comma-separated (e.g. \"0,1\"); empty = the "
          "cuda-device-id device; ignored by the CPU backend",
          DEFAULT_PROP_DEVICES, rw_ready));
  g_object_class_install_property (gobject_class, PROP_SPLIT,
      g_param_spec_enum ("split", "Split", "How several devices share the work",
          GST_TYPE_CUDA_VIDEO_MOTION_SPLIT, DEFAULT_PROP_SPLIT, rw_ready));
}

static void
gst_cuda_video_motion_est_class_init (GstCudaVideoMotionEstClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags rw_ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY;


  gobject_class->finalize = gst_cuda_video_motion_est_finalize;
  gobject_class->set_property = gst_cuda_video_motion_est_set_property;
  gobject_class->get_property = gst_cuda_video_motion_est_get_property;

  g_object_class_install_property (gobject_class, PROP_BLOCK_WIDTH,
      g_param_spec_int ("block-width", "Block width",
          "Width of the blocks in pixels (the last column of blocks is clipped to the frame)",
          GCV_MOTION_MIN_BLOCK, GCV_MOTION_MAX_BLOCK, DEFAULT_PROP_BLOCK_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_BLOCK_HEIGHT,
      g_param_spec_int ("block-height", "Block height",
          "Height of the blocks in pixels (the last row of blocks is clipped to the frame)",
          GCV_MOTION_MIN_BLOCK, GCV_MOTION_MAX_BLOCK, DEFAULT_PROP_BLOCK_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SEARCH_RANGE_X,
      g_param_spec_int ("search-range-x", "Search range x",
          "Largest horizontal displacement tried, pixels either way",
          0, GCV_MOTION_MAX_RANGE, DEFAULT_PROP_SEARCH_RANGE, rw));
  g_object_class_install_property (gobject_class, PROP_SEARCH_RANGE_Y,
      g_param_spec_int ("search-range-y", "Search range y",
          "Largest vertical displacement tried, pixels either way",
          0, GCV_MOTION_MAX_RANGE, DEFAULT_PROP_SEARCH_RANGE, rw));
  g_object_class_install_property (gobject_class, PROP_SUBPEL,
      g_param_spec_enum ("subpel", "Sub-pixel grid",
          "Step of the displacements: whole, half or quarter pixels (bilinear interpolation)",
          GST_TYPE_CUDA_VIDEO_MOTION_SUBPEL, DEFAULT_PROP_SUBPEL, rw));
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "How displacements are searched",
          GST_TYPE_CUDA_VIDEO_MOTION_METHOD, DEFAULT_PROP_METHOD, rw));
  g_object_class_install_property (gobject_class, PROP_ZERO_THRESHOLD,
      g_param_spec_double ("zero-threshold", "Zero-motion threshold",
          "A block whose best match differs by at most this much per pixel on average "
          "reports no motion (the paper's C, e.g. 4; 0 = off)",
          0.0, 255.0, DEFAULT_PROP_ZERO_THRESHOLD, rw));
  gst_cuda_video_filter_install_post_messages (gobject_class, PROP_POST_MESSAGES, "motionest");
  g_object_class_install_property (gobject_class, PROP_IPC_META, gst_cuda_motion_ipc_meta_pspec ());
  g_object_class_install_property (gobject_class, PROP_DRAW,
      g_param_spec_boolean ("draw", "Draw",
          "Paint an arrow per block (green) from its centre along its vector",
          DEFAULT_PROP_DRAW, rw));
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Regular file to write every frame's vectors to, one JSON object per line, emptied at "
          "start unless append is set (NULL = none)",
          DEFAULT_PROP_LOCATION, rw_ready));
  g_object_class_install_property (gobject_class, PROP_APPEND,
      g_param_spec_boolean ("append", "Append",
          "Add the lines after what the location file holds instead of emptying it at start",
          DEFAULT_PROP_APPEND, rw_ready));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_stop);

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_teardown);
  filter_class->process_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_process);
  filter_class->process_device_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_process_device);
  filter_class->complete = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_complete);
  filter_class->writes_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_writes);
  filter_class->reset = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_reset);
  filter_class->drain = GST_DEBUG_FUNCPTR (gst_cuda_video_motion_est_drain);
  filter_class->install_cuda_properties = gst_cuda_video_motion_est_install_cuda_properties;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_MOTION_EST, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_MOTION_SUBPEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_MOTION_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_MOTION_SPLIT, 0);
}

static void
gst_cuda_video_motion_est_init (GstCudaVideoMotionEst * self)
{
  self->params.block_width = self->params.block_height = DEFAULT_PROP_BLOCK_SIZE;
  self->params.range_x = self->params.range_y = DEFAULT_PROP_SEARCH_RANGE;
  self->params.subpel = DEFAULT_PROP_SUBPEL;
  self->params.method = DEFAULT_PROP_METHOD;
  self->params.zero_threshold = DEFAULT_PROP_ZERO_THRESHOLD;
  self->draw = DEFAULT_PROP_DRAW;
  self->ipc_meta = DEFAULT_PROP_IPC_META;
  self->location = g_strdup (DEFAULT_PROP_LOCATION);
  self->append = DEFAULT_PROP_APPEND;
  self->devices = g_strdup (DEFAULT_PROP_DEVICES);
  self->split = DEFAULT_PROP_SPLIT;
  /* the output is the input buffer plus the meta (and the arrows) */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}

static void
gst_cuda_video_motion_est_finalize (GObject * object)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (object);

  g_free (self->location);
  g_free (self->devices);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Parses "0,1,1": non-negative integers separated by commas, at most
 * MAX_DEVICES; "" is no list.  Returns the count, or -1 when malformed. */
static gint
parse_devices (const gchar * text, gint * out)
{
  gchar **parts;
  gint n = 0, i;

  if (text == NULL || *text == '\0')
    return 0;
  parts = g_strsplit (text, ",", -1);
  for (i = 0; parts[i] != NULL; i++) {
    gchar *s = g_strstrip (parts[i]), *end = NULL;
    guint64 v;

    errno = 0;
    if (*s == '\0' || !g_ascii_isdigit (*s) || n == MAX_DEVICES)
      goto bad;
    v = g_ascii_strtoull (s, &end, 10);
    if (errno != 0 || *end != '\0' || v > 63)
      goto bad;
    if (out)
      out[n] = (gint) v;
    n++;
  }
  g_strfreev (parts);
  return n;

bad:
  g_strfreev (parts);
  return -1;
}

static void
gst_cuda_video_motion_est_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (object);
  const gchar *refused = NULL;

  /* every number is within its GParamSpec's range (GObject refused
   * others); a devices list that does not parse is refused with a
   * warning and the previous one kept */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BLOCK_WIDTH:
      self->params.block_width = g_value_get_int (value);
      break;
    case PROP_BLOCK_HEIGHT:
      self->params.block_height = g_value_get_int (value);
      break;
    case PROP_SEARCH_RANGE_X:
      self->params.range_x = g_value_get_int (value);
      break;
    case PROP_SEARCH_RANGE_Y:
      self->params.range_y = g_value_get_int (value);
      break;
    case PROP_SUBPEL:
      self->params.subpel = (GcvMotionSubpel) g_value_get_enum (value);
      break;
    case PROP_METHOD:
      self->params.method = (GcvMotionMethod) g_value_get_enum (value);
      break;
    case PROP_ZERO_THRESHOLD:
      self->params.zero_threshold = g_value_get_double (value);
      break;
    case PROP_POST_MESSAGES:
      gst_cuda_video_filter_set_post_messages (GST_CUDA_VIDEO_FILTER (self), g_value_get_boolean (value));
      break;
    case PROP_IPC_META:
      if (g_value_get_boolean (value) && (refused = gst_cuda_motion_ipc_meta_unsupported ()) != NULL)
        break;
      self->ipc_meta = g_value_get_boolean (value);
      break;
    case PROP_DRAW:
      self->draw = g_value_get_boolean (value);
      break;
    case PROP_LOCATION:
      if ((refused = gst_cuda_motion_export_refuses_change (GST_ELEMENT (self))) != NULL)
        break;
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_APPEND:
      if ((refused = gst_cuda_motion_export_refuses_change (GST_ELEMENT (self))) == NULL)
        self->append = g_value_get_boolean (value);
      break;
    case PROP_DEVICES:{
      const gchar *text = g_value_get_string (value);
      if (parse_devices (text, NULL) < 0) {
        refused = "expected up to " G_STRINGIFY (MAX_DEVICES) " comma-separated CUDA device indices "
            "0..63 (e.g. \"0,1\"), or \"\" for the cuda-device-id device";
        break;
      }
      g_free (self->devices);
      self->devices = g_strdup (text ? text : "");
      break;
    }
    case PROP_SPLIT:
      self->split = (GstCudaVideoMotionSplit) g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (refused != NULL)
    gst_cuda_video_filter_warn_rejected (GST_CUDA_VIDEO_FILTER (self), pspec, value, refused);
}

static void
gst_cuda_video_motion_est_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BLOCK_WIDTH:
      g_value_set_int (value, self->params.block_width);
      break;
    case PROP_BLOCK_HEIGHT:
      g_value_set_int (value, self->params.block_height);
      break;
    case PROP_SEARCH_RANGE_X:
      g_value_set_int (value, self->params.range_x);
      break;
    case PROP_SEARCH_RANGE_Y:
      g_value_set_int (value, self->params.range_y);
      break;
    case PROP_SUBPEL:
      g_value_set_enum (value, self->params.subpel);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->params.method);
      break;
    case PROP_ZERO_THRESHOLD:
      g_value_set_double (value, self->params.zero_threshold);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, gst_cuda_video_filter_get_post_messages (GST_CUDA_VIDEO_FILTER (self)));
      break;
    case PROP_IPC_META:
      g_value_set_boolean (value, self->ipc_meta);
      break;
    case PROP_DRAW:
      g_value_set_boolean (value, self->draw);
      break;
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_APPEND:
      g_value_set_boolean (value, self->append);
      break;
    case PROP_DEVICES:
      g_value_set_string (value, self->devices);
      break;
    case PROP_SPLIT:
      g_value_set_enum (value, self->split);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static gboolean
gst_cuda_video_motion_est_start (GstBaseTransform * trans)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (trans);
  gchar *location;
  gboolean append;

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->start (trans))
    return FALSE;
  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  append = self->append;
  GST_OBJECT_UNLOCK (self);

  self->frame_number = 0;
  self->has_reference = FALSE;
  if (!gst_cuda_motion_export_open (GST_ELEMENT (self), location, append, RECORDS, &self->export)) {
    g_free (location);
    GST_BASE_TRANSFORM_CLASS (parent_class)->stop (trans);
    return FALSE;
  }
  g_free (location);
  return TRUE;
}

static gboolean
gst_cuda_video_motion_est_stop (GstBaseTransform * trans)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (trans);
  gboolean ok = GST_BASE_TRANSFORM_CLASS (parent_class)->stop (trans);

  gst_cuda_motion_export_close (&self->export, GST_ELEMENT (self));
  return ok;
}

/* At EOS (and before new caps), once every frame went out: the export's
 * lines reach the file before EOS goes on, or an error says why not. */
static GstFlowReturn
gst_cuda_video_motion_est_drain (GstCudaVideoFilter * filter)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);

  if (self->export == NULL || gst_cuda_motion_export_finish (self->export, GST_ELEMENT (self)))
    return GST_FLOW_OK;
  return GST_FLOW_ERROR;
}

/* ---- per caps ------------------------------------------------------------ */

/* Events a context keeps per frame it searches, used round-robin: more
 * than the frames that can be in flight (async-depth + 2). */
#define CONTEXT_EVENTS 20

struct _GstCudaVideoMotionContext
{
  GstCudaVideoPeer *peer;       /* NULL: the element's own stream */
  GcvMotionCuda *cuda;
  /* serial splitting: recorded once the context took its reference, and
   * once a frame's vectors are in (the one of its m-th frame at m %
   * CONTEXT_EVENTS) */
  GcvCudaEvent *reference_taken;
  GcvCudaEvent *done[CONTEXT_EVENTS];
  guint64 searched;
};

/* What a frame's device work leaves for complete (page-locked, one per
 * frame in flight): the frame's settings and its vectors. */
typedef struct
{
  guint64 number;
  GcvMotionParams params;
  gboolean has_reference;
  GstClockTime reference_pts;
  gboolean draw;
  GcvCudaEvent *done;           /* serial: the searching context's event, else NULL */
  GcvMotionVector vectors[];    /* the grid of the frame's params */
} MotionResults;

static gboolean
context_enter (GstCudaVideoMotionEst * self, GstCudaVideoMotionContext * c, GError ** error)
{
  return c->peer == NULL || gst_cuda_video_filter_peer_enter (GST_CUDA_VIDEO_FILTER (self), c->peer, error);
}

static void
context_leave (GstCudaVideoMotionEst * self, GstCudaVideoMotionContext * c)
{
  if (c->peer)
    gst_cuda_video_filter_peer_leave (GST_CUDA_VIDEO_FILTER (self), c->peer);
}

static gpointer
context_stream (GstCudaVideoMotionEst * self, GstCudaVideoMotionContext * c)
{
  return c->peer ? gst_cuda_video_peer_get_stream (c->peer)
      : gst_cuda_video_filter_get_stream (GST_CUDA_VIDEO_FILTER (self));
}

/* In the element's context, every stream idle. */
static void
free_contexts (GstCudaVideoMotionEst * self)
{
  guint i, e;

  for (i = 0; i < self->n_contexts; i++) {
    GstCudaVideoMotionContext *c = &self->contexts[i];
    if (context_enter (self, c, NULL)) {
      gcv_motion_cuda_free (c->cuda);
      gcv_cuda_event_free (c->reference_taken);
      for (e = 0; e < CONTEXT_EVENTS; e++)
        gcv_cuda_event_free (c->done[e]);
      context_leave (self, c);
    }
    gst_cuda_video_filter_peer_free (GST_CUDA_VIDEO_FILTER (self), c->peer);
  }
  g_clear_pointer (&self->contexts, g_free);
  self->n_contexts = 0;
}

static gboolean
setup_cuda (GstCudaVideoMotionEst * self, gint width, gint height, GError ** error)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  gint devices[MAX_DEVICES], n, i, count, own = gst_cuda_video_filter_get_device (filter);
  gboolean own_taken = FALSE;
  GcvMotionParams smallest = { GCV_MOTION_MIN_BLOCK, GCV_MOTION_MIN_BLOCK };
  GcvError err = { GCV_OK, "" };
  gchar *text;

  GST_OBJECT_LOCK (self);
  text = g_strdup (self->devices);
  self->serial = self->split == GST_CUDA_VIDEO_MOTION_SPLIT_SERIAL;
  GST_OBJECT_UNLOCK (self);
  n = parse_devices (text, devices);
  if (n <= 0) {
    devices[0] = own;
    n = 1;
  }
  count = gcv_cuda_device_count (&err);
  for (i = 0; i < n; i++)
    if (devices[i] >= count) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "devices=\"%s\" names CUDA device %d but only %d device%s found", text, devices[i],
          count, count == 1 ? " was" : "s were");
      g_free (text);
      return FALSE;
    }
  g_free (text);

  self->contexts = g_new0 (GstCudaVideoMotionContext, n);
  self->n_contexts = n;
  self->serial = self->serial && n > 1;
  for (i = 0; i < n; i++) {
    GstCudaVideoMotionContext *c = &self->contexts[i];
    gboolean ok;
    gint e;

    /* the first context on the element's own device works on its stream,
     * so that the stats' CUDA events time it; the others on peers */
    if (devices[i] == own && !own_taken)
      own_taken = TRUE;
    else if ((c->peer = gst_cuda_video_filter_peer_new (filter, devices[i], error)) == NULL)
      return FALSE;
    if (!context_enter (self, c, error))
      return FALSE;
    c->cuda = gcv_motion_cuda_new (width, height, &err);
    if (c->cuda != NULL)
      gcv_motion_cuda_set_cancel (c->cuda, gst_cuda_video_filter_get_cancel (filter));
    ok = c->cuda != NULL && (!self->serial || gcv_cuda_event_new (&c->reference_taken, &err) == GCV_OK);
    for (e = 0; e < CONTEXT_EVENTS && ok && self->serial; e++)
      ok = gcv_cuda_event_new (&c->done[e], &err) == GCV_OK;
    context_leave (self, c);
    if (!ok)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  if (self->serial
      && (!gst_cuda_video_filter_device_alloc (filter, width, height, &self->previous[0], width, error)
          || !gst_cuda_video_filter_device_alloc (filter, width, height, &self->previous[1], width, error)))
    return FALSE;
  /* the luma plane alone goes to the device; a frame's vectors come back
   * with its settings */
  gst_cuda_video_filter_set_device_planes (filter, 1, 0);
  gst_cuda_video_filter_set_results_size (filter, sizeof (MotionResults)
      + sizeof (GcvMotionVector) * gcv_motion_grid_cols (width, &smallest) * gcv_motion_grid_rows (height,
          &smallest));
  GST_INFO_OBJECT (self, "%d CUDA context%s, split %s", n, n == 1 ? "" : "s",
      self->serial ? "serial" : "parallel");
  return TRUE;
}

static gboolean
gst_cuda_video_motion_est_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);
  gint width = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  GcvMotionParams smallest = { GCV_MOTION_MIN_BLOCK, GCV_MOTION_MIN_BLOCK };
  GcvError err = { GCV_OK, "" };

  self->mask = g_malloc ((gsize) width * height);
  self->has_reference = FALSE;
  self->serial = FALSE;
  if (backend == GST_CUDA_VIDEO_BACKEND_CUDA)
    return setup_cuda (self, width, height, error);

  /* room for the most blocks any block-width / block-height gives, so that
   * those may change while playing without an allocation */
  self->vectors = g_new0 (GcvMotionVector,
      (gsize) gcv_motion_grid_cols (width, &smallest) * gcv_motion_grid_rows (height, &smallest));
  self->cpu = gcv_motion_cpu_new (width, height, &err);
  if (self->cpu == NULL)
    return gst_cuda_video_filter_set_error (error, &err);
  gcv_motion_cpu_set_cancel (self->cpu, gst_cuda_video_filter_get_cancel (filter));
  return TRUE;
}

static void
gst_cuda_video_motion_est_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);

  free_contexts (self);
  if (self->cpu)
    gcv_motion_cpu_free (self->cpu);
  self->cpu = NULL;
  g_clear_pointer (&self->vectors, g_free);
  g_clear_pointer (&self->mask, g_free);
}

/* ---- streaming ------------------------------------------------------------ */

static gboolean
gst_cuda_video_motion_est_writes (GstCudaVideoFilter * filter)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);

  GST_OBJECT_LOCK (self);
  self->frame_draw = self->draw;
  GST_OBJECT_UNLOCK (self);
  return self->frame_draw;
}

/* Meta, JSON line and arrows of one frame whose vectors are @vectors.
 * @frame: the frame mapped for writing when drawing, else NULL (then the
 * buffer is mapped here if it must be drawn on). */
static GstFlowReturn
complete_frame (GstCudaVideoMotionEst * self, GstBuffer * buffer, GstVideoFrame * frame, guint64 number,
    GstClockTime reference_pts, const GcvMotionParams * params, gboolean has_reference, gboolean draw,
    GcvMotionVector * vectors)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  GstCudaMotionFrameInfo info;

  info.source = GST_OBJECT_NAME (self);
  GST_OBJECT_LOCK (self);
  info.pack = self->ipc_meta;
  GST_OBJECT_UNLOCK (self);
  info.has_reference = has_reference;
  info.frame = number;
  info.pts = GST_BUFFER_PTS (buffer);
  info.reference_pts = reference_pts;
  info.width = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  info.height = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  info.params = params;
  if (!has_reference)
    gst_cuda_motion_zero_vectors (&info, vectors);

  if (draw) {
    GcvPlane mask = { self->mask, info.width, info.height, (gsize) info.width };
    GstVideoFrame own;
    if (frame != NULL) {
      gst_cuda_motion_draw (frame, &mask, &info, vectors);
    } else if (!gst_cuda_video_filter_map_frame (filter, &own, &filter->in_info, buffer,
            GST_MAP_READWRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
      return GST_FLOW_ERROR;    /* posted */
    } else {
      /* memory:CUDAMemory maps on the host too (a download, and an upload
       * at its next device map) */
      gst_cuda_motion_draw (&own, &mask, &info, vectors);
      gst_video_frame_unmap (&own);
    }
  }
  gst_cuda_motion_meta_add (buffer, &info, vectors);
  if (gst_cuda_video_filter_get_post_messages (filter))
    gst_cuda_video_filter_post_results (filter, buffer, gst_cuda_motion_summary_blocks (&info, vectors));
  if (self->export != NULL && !gst_cuda_motion_export_vectors (self->export, GST_ELEMENT (self), &info,
          GST_BUFFER_PTS (buffer), vectors))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/* The frame's settings, taken under the object lock; the last usable
 * parameters when they are not (the settings policy). */
static gboolean
frame_params (GstCudaVideoMotionEst * self, GcvMotionParams * params, gboolean * draw)
{
  GST_OBJECT_LOCK (self);
  *params = self->params;
  *draw = self->draw;
  GST_OBJECT_UNLOCK (self);
  return gst_cuda_video_filter_usable_params (GST_CUDA_VIDEO_FILTER (self), params, sizeof (*params),
      "motion estimation", gcv_motion_params_check (params));
}

/* Parallel splitting (and one context): every context searches a band of
 * block rows of the same pair, the bands in proportion to the contexts,
 * the peers after the element's stream has the frame and before it
 * completes. */
static gboolean
search_parallel (GstCudaVideoMotionEst * self, const GcvPlane * luma, MotionResults * r, GError ** error)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  gint rows = gcv_motion_grid_rows (luma->height, &r->params);
  GcvError err = { GCV_OK, "" };
  guint i, n = self->n_contexts;

  for (i = 0; i < n; i++) {
    GstCudaVideoMotionContext *c = &self->contexts[i];
    gint row0 = (gint) ((gint64) rows * i / n), row1 = (gint) ((gint64) rows * (i + 1) / n);
    GcvStatus st;

    if (c->peer && !gst_cuda_video_filter_peer_follow (filter, c->peer, error))
      return FALSE;
    if (!context_enter (self, c, error))
      return FALSE;
    /* a context with an empty band still searches (nothing): that makes
     * this frame its reference, ready for a later, larger band */
    st = r->has_reference ? gcv_motion_cuda_search (c->cuda, &r->params, luma, row0, row1, r->vectors,
        context_stream (self, c), &err) : gcv_motion_cuda_set_reference (c->cuda, luma, context_stream (self, c),
        &err);
    context_leave (self, c);
    if (st != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
    if (c->peer && !gst_cuda_video_filter_peer_join (filter, c->peer, error))
      return FALSE;
  }
  return TRUE;
}

/* Serial splitting: pair (t-1, t) goes to context t mod N, which takes the
 * previous luma (kept on the element's device, two of them ping-pong) as
 * its reference; the contexts' searches of successive pairs overlap, and
 * complete waits for each frame's own context.  The element's stream only
 * copies each luma for the next pair, once the context that read that
 * copy last took it. */
static gboolean
search_serial (GstCudaVideoMotionEst * self, const GcvPlane * luma, MotionResults * r, GError ** error)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  gpointer stream = gst_cuda_video_filter_get_stream (filter);
  GcvPlane *keep = &self->previous[r->number & 1];
  GcvError err = { GCV_OK, "" };

  if (r->has_reference) {
    GstCudaVideoMotionContext *c = &self->contexts[r->number % self->n_contexts];
    GstCudaVideoMotionContext *last = &self->contexts[(r->number - 1) % self->n_contexts];
    const GcvPlane *previous = &self->previous[(r->number - 1) & 1];
    gboolean ok;

    if (c->peer && !gst_cuda_video_filter_peer_follow (filter, c->peer, error))
      return FALSE;
    if (!context_enter (self, c, error))
      return FALSE;
    r->done = c->done[c->searched++ % CONTEXT_EVENTS];
    ok = gcv_motion_cuda_set_reference (c->cuda, previous, context_stream (self, c), &err) == GCV_OK
        && gcv_cuda_event_record (c->reference_taken, context_stream (self, c), &err) == GCV_OK
        && gcv_motion_cuda_search (c->cuda, &r->params, luma, 0, -1, r->vectors, context_stream (self, c),
        &err) == GCV_OK && gcv_cuda_event_record (r->done, context_stream (self, c), &err) == GCV_OK;
    context_leave (self, c);
    if (!ok)
      return gst_cuda_video_filter_set_error (error, &err);
    /* the copy kept below overwrites what the pair before took */
    if (last->reference_taken && last != c
        && gcv_cuda_stream_wait_event (stream, last->reference_taken, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  if (gcv_cuda_copy_2d (keep->data, keep->stride, luma->data, luma->stride, luma->width, luma->height, stream,
          &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

static GstFlowReturn
gst_cuda_video_motion_est_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * frame)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);
  MotionResults *r = gst_cuda_video_filter_get_results (filter);
  GError *error = NULL;
  GcvPlane luma;
  gboolean ok;

  if (!frame_params (self, &r->params, &r->draw))
    return GST_FLOW_ERROR;
  if (!gst_cuda_video_filter_luma8_device (filter, frame, &luma, &error))
    return gst_cuda_video_filter_post_error (filter, "Reading the luma", error);
  r->number = self->frame_number++;
  r->has_reference = self->has_reference;
  r->reference_pts = self->reference_pts;
  self->reference_pts = frame->buffer ? GST_BUFFER_PTS (frame->buffer) : GST_CLOCK_TIME_NONE;
  r->done = NULL;
  ok = self->serial ? search_serial (self, &luma, r, &error) : search_parallel (self, &luma, r, &error);
  if (!ok)
    return gst_cuda_video_filter_post_error (filter, r->has_reference ? "Searching the motion vectors"
        : "Storing the first frame", error);
  self->has_reference = TRUE;
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_video_motion_est_complete (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);
  MotionResults *r = results;
  GcvError err = { GCV_OK, "" };

  if (r->done && gcv_cuda_event_sync (r->done, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Reading back the motion vectors", &err);
  return complete_frame (self, buffer, NULL, r->number, r->reference_pts, &r->params, r->has_reference, r->draw,
      r->vectors);
}

static GstFlowReturn
gst_cuda_video_motion_est_process (GstCudaVideoFilter * filter, GstVideoFrame * frame)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);
  GcvMotionParams params;
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  GstClockTime reference_pts;
  GcvPlane luma;
  gboolean draw;

  if (!frame_params (self, &params, &draw))
    return GST_FLOW_ERROR;
  if (!gst_cuda_video_filter_luma8 (filter, frame, &luma, &error))
    return gst_cuda_video_filter_post_error (filter, "Reading the luma", error);
  /* the frame was mapped for the snapshot writes_in_place took */
  draw = self->frame_draw;
  reference_pts = self->reference_pts;
  self->reference_pts = GST_BUFFER_PTS (frame->buffer);
  if (!self->has_reference) {
    if (gcv_motion_cpu_set_reference (self->cpu, &luma, &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Storing the first frame", &err);
    self->has_reference = TRUE;
    return complete_frame (self, frame->buffer, draw ? frame : NULL, self->frame_number++, reference_pts,
        &params, FALSE, draw, self->vectors);
  }
  if (gcv_motion_cpu_process (self->cpu, &params, &luma, self->vectors,
          gst_cuda_video_filter_get_n_threads (filter), &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Searching the motion vectors", &err);
  return complete_frame (self, frame->buffer, draw ? frame : NULL, self->frame_number++, reference_pts,
      &params, TRUE, draw, self->vectors);
}

static void
gst_cuda_video_motion_est_reset (GstCudaVideoFilter * filter)
{
  GstCudaVideoMotionEst *self = GST_CUDA_VIDEO_MOTION_EST (filter);

  /* the next frame becomes the reference (the base class dropped or
   * pushed the frames in flight) */
  self->has_reference = FALSE;
}


