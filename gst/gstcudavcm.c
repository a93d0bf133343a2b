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
 * SECTION:element-cudavcm
 * @title: cudavcm / cpuvcm
 * @short_description: sparse motion tracking by vector coherence mapping, on the GPU (CUDA) and on the CPU
 *
 * Tracks interest points from the previous frame to this one with Quek and
 * Bryll's vector coherence mapping (VCM), as mapped onto a GPU by Park et
 * al. ("Design and performance evaluation of image processing algorithms
 * on GPUs", section 4).  Interest points are the pixels of the previous
 * frame with both texture and motion: the fuzzy AND (minimum) of a texture
 * measure and the temporal difference |this - previous|, both 0 .. 255,
 * must exceed st-threshold; each window of window-size x window-size
 * pixels keeps its points-per-window strongest, and at most max-points in
 * the frame.  The texture measure (interest) is by default ours, "corner":
 * the smaller gradient strength of the template's structure tensor, high
 * only where the template has gradients in two directions; the paper's
 * "edge", the Sobel gradient magnitude, also picks points on straight
 * edges, where the motion along the edge is undetermined (the aperture
 * problem): on the test sequences the 90th percentile of its vectors'
 * error is up to 2.5 times the corner measure's.  For each point a normalised
 * correlation map (NCM) of its template-size template over the
 * search-size search area of this frame is computed; the point's vector is
 * the peak of the vector coherence map: the sum of its neighbours' NCMs
 * weighted by a Gaussian of their distance (coherence-radius,
 * coherence-sigma), plus a temporal term that favours the vectors of the
 * previous frame's points nearby (temporal-weight, temporal-sigma).  With
 * subpixel=true a parabola fit refines the peak on each axis, and then
 * Lucas-Kanade steps on a refine-size window, sampling this frame by a
 * cubic (our addition to the paper: the parabola alone is biased towards
 * whole pixels; with the refinement on, points are picked only where its
 * window fits in the frame).  interest=edge refine-size=0 is the paper's
 * method.  Every step
 * is integer arithmetic or IEEE double with one rounding per operation, so
 * cudavcm and cpuvcm give identical points, vectors and scores.
 *
 * The luma is tracked as 8 bits: the Y plane as it is, and for P010_10LE
 * (the 10-bit HDR output of hardware decoders, each 16-bit word the 10-bit
 * value << 6) each word v as (v + 128) / 257, so st-threshold is on the
 * 8-bit scale whatever the format.
 *
 * Vectors point where the content went: the point (x, y) of the previous
 * frame is found at (x + dx, y + dy) in this one (content moving right
 * gives dx > 0, moving down dy > 0), the convention of cudamotionest.
 *
 * The video passes through unchanged (in place, no copy) unless draw=true
 * paints an arrow per point, from the point along draw-scale times its
 * vector.  Every buffer leaves with a GstCudaVideoMotionMeta
 * (libgstcudavideo-1.0; in Python the GstCudaVideo typelib) of kind
 * "points": per point x, y, dx, dy and score as 32-bit floats.  The first frame, and the first after a
 * FLUSH or a caps change, has no previous frame: its meta says
 * has-reference=false and holds no points.  With location set, each
 * frame's points are also written to a regular file as one JSON object per
 * line: emptied when the element starts (unless append=true), complete
 * when EOS leaves the element, and a line that cannot be written is an
 * error.
 *
 * From GStreamer 1.24 on the meta also crosses into other processes:
 * through unixfdsink as it is, through cudaipcsink (which forwards custom
 * metas only) with ipc-meta=true, the reader unpacking it.
 *
 * With post-messages=true each frame posts an element message "vcm":
 * "frame" (guint64), "has-reference" (boolean), "points" (guint), "moved"
 * (guint, the points whose vector, rounded to a quarter pixel, is not
 * (0, 0)), "mean-dx", "mean-dy" (double, pixels, over the moved points),
 * the longest vector's point "largest-x", "largest-y" and its
 * "largest-dx", "largest-dy", "largest-length" (double, pixels), the
 * "dominant-dx", "dominant-dy" (double: the vector most moved points
 * share, rounded to a quarter pixel) and "dominant-count" (guint), all 0
 * when no point moved, and level's "timestamp", "stream-time",
 * "running-time", "duration" (guint64): cudamotionest's "motionest"
 * message for points.
 *
 * Every property but location and append (NULL and READY states only) may
 * change while playing; the next frame uses the new values.  template-size
 * must be odd and search-size even (other values are refused with a
 * warning); a template larger than the search area is a settings error
 * when the element starts, and while playing one warning and the frames go
 * on with the last usable settings.
 *
 * QoS is off by default: each frame is tracked against the one before,
 * so a dropped frame makes the next search span two frames of motion.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=100 ! video/x-raw,width=640,height=480 ! cudavcm draw=true draw-scale=4 location=points.jsonl ! videoconvert ! autovideosink
 * ]| Shows the tracked points of a bouncing ball as arrows (4x their length) and writes them to points.jsonl.
 * |[
 * gst-launch-1.0 filesrc location=out/media/clip.webm ! decodebin ! videoconvert ! videoscale ! video/x-raw,format=I420,width=640,height=480 ! cudavcm max-points=2048 interest=edge refine-size=0 ! fakesink
 * ]| The paper's method and setting: edge interest points, no gradient refinement, 640x480, 16x16 windows, 5x5 templates, 64x64 search, up to 2048 points.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavcm.h"

#include <string.h>

#include "gcv-cuda.h"

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_WINDOW_SIZE,
  PROP_POINTS_PER_WINDOW,
  PROP_MAX_POINTS,
  PROP_ST_THRESHOLD,
  PROP_TEMPLATE_SIZE,
  PROP_SEARCH_SIZE,
  PROP_COHERENCE_RADIUS,
  PROP_COHERENCE_SIGMA,
  PROP_TEMPORAL_WEIGHT,
  PROP_TEMPORAL_SIGMA,
  PROP_SUBPIXEL,
  PROP_REFINE_SIZE,
  PROP_INTEREST,
  PROP_POST_MESSAGES,
  PROP_IPC_META,
  PROP_DRAW,
  PROP_DRAW_SCALE,
  PROP_LOCATION,
  PROP_APPEND,
};

/* the numeric defaults are gcv_vcm_params_init()'s (the paper's 16x16
 * windows, 5x5 template, 64x64 search area, 2048 points) */
#define DEFAULT_PROP_WINDOW_SIZE 16
#define DEFAULT_PROP_POINTS_PER_WINDOW 2
#define DEFAULT_PROP_MAX_POINTS 2048
#define DEFAULT_PROP_ST_THRESHOLD 8
#define DEFAULT_PROP_TEMPLATE_SIZE 5
#define DEFAULT_PROP_SEARCH_SIZE 64
#define DEFAULT_PROP_COHERENCE_RADIUS 24.0
#define DEFAULT_PROP_COHERENCE_SIGMA 12.0
#define DEFAULT_PROP_TEMPORAL_WEIGHT 0.25
#define DEFAULT_PROP_TEMPORAL_SIGMA 4.0
#define DEFAULT_PROP_SUBPIXEL TRUE
#define DEFAULT_PROP_REFINE_SIZE 15
#define DEFAULT_PROP_INTEREST GST_CUDA_VIDEO_VCM_INTEREST_CORNER
#define DEFAULT_PROP_DRAW FALSE
#define DEFAULT_PROP_DRAW_SCALE 1
#define DEFAULT_PROP_LOCATION NULL
#define DEFAULT_PROP_APPEND FALSE

/* what the errors about the location file call the records */
#define RECORDS "tracked points"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_MOTION_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_MOTION_CAPS));

GType
gst_cuda_video_vcm_interest_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_VCM_INTEREST_EDGE,
        "The paper's: Sobel gradient magnitude / 8 AND the change (also on straight edges)", "edge"},
    {GST_CUDA_VIDEO_VCM_INTEREST_CORNER,
          "The template's structure tensor, gradients in two directions (corners, texture), AND the change",
        "corner"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoVcmInterest", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_vcm_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoVcm, gst_cuda_video_vcm, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_vcm (GstPlugin * plugin)
{
  gst_cuda_motion_meta_register ();
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_VCM,
      "vcm", "Vector coherence mapping point tracker", "Filter/Analyzer/Video",
      "Tracks interest points between frames by vector coherence mapping (normalised "
      "correlation maps summed over neighbours) and attaches them as GstCudaVideoMotionMeta");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudavcm, register_vcm);

static void gst_cuda_video_vcm_finalize (GObject * object);
static void gst_cuda_video_vcm_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_vcm_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_video_vcm_start (GstBaseTransform * trans);
static gboolean gst_cuda_video_vcm_stop (GstBaseTransform * trans);
static gboolean gst_cuda_video_vcm_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error);
static void gst_cuda_video_vcm_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_vcm_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * frame);
static GstFlowReturn gst_cuda_video_vcm_complete (GstCudaVideoFilter * filter, GstBuffer * buffer,
    gpointer results);
static GstFlowReturn gst_cuda_video_vcm_process (GstCudaVideoFilter * filter, GstVideoFrame * frame);
static gboolean gst_cuda_video_vcm_writes (GstCudaVideoFilter * filter);
static void gst_cuda_video_vcm_reset (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_vcm_drain (GstCudaVideoFilter * filter);

static void
gst_cuda_video_vcm_class_init (GstCudaVideoVcmClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;


  gobject_class->finalize = gst_cuda_video_vcm_finalize;
  gobject_class->set_property = gst_cuda_video_vcm_set_property;
  gobject_class->get_property = gst_cuda_video_vcm_get_property;

  g_object_class_install_property (gobject_class, PROP_WINDOW_SIZE,
      g_param_spec_int ("window-size", "Window size",
          "Side of the square windows, pixels, that interest points are picked in (the last "
          "column and row are clipped to the frame)",
          GCV_VCM_MIN_WINDOW, GCV_VCM_MAX_WINDOW, DEFAULT_PROP_WINDOW_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_POINTS_PER_WINDOW,
      g_param_spec_int ("points-per-window", "Points per window",
          "Most interest points kept per window, the strongest first (at most "
          "window-size * window-size)",
          1, GCV_VCM_MAX_POINTS_PER_WINDOW, DEFAULT_PROP_POINTS_PER_WINDOW, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_POINTS,
      g_param_spec_int ("max-points", "Max points",
          "Most points tracked per frame: beyond it the strongest are kept",
          1, GCV_VCM_MAX_POINTS, DEFAULT_PROP_MAX_POINTS, rw));
  g_object_class_install_property (gobject_class, PROP_ST_THRESHOLD,
      g_param_spec_int ("st-threshold", "Spatio-temporal threshold",
          "A pixel is an interest point candidate when min (its texture measure (interest), "
          "|this - previous|), both 0 .. 255, exceeds this",
          0, 254, DEFAULT_PROP_ST_THRESHOLD, rw));
  g_object_class_install_property (gobject_class, PROP_INTEREST,
      g_param_spec_enum ("interest", "Interest measure",
          "Texture measure of the interest points: corner (ours: the weaker gradient direction of "
          "the template's structure tensor, no points on straight edges) or edge (the paper's: "
          "Sobel magnitude / 8)",
          GST_TYPE_CUDA_VIDEO_VCM_INTEREST, DEFAULT_PROP_INTEREST, rw));
  gst_cuda_video_filter_install_post_messages (gobject_class, PROP_POST_MESSAGES, "vcm");
  g_object_class_install_property (gobject_class, PROP_IPC_META, gst_cuda_motion_ipc_meta_pspec ());
  g_object_class_install_property (gobject_class, PROP_TEMPLATE_SIZE,
      g_param_spec_int ("template-size", "Template size",
          "Side of the correlation template around each point, pixels (odd; at most "
          "search-size)",
          GCV_VCM_MIN_TEMPLATE, GCV_VCM_MAX_TEMPLATE, DEFAULT_PROP_TEMPLATE_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SEARCH_SIZE,
      g_param_spec_int ("search-size", "Search size",
          "Side of the search area, pixels (even): vectors reach search-size / 2 either way",
          GCV_VCM_MIN_SEARCH, GCV_VCM_MAX_SEARCH, DEFAULT_PROP_SEARCH_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_COHERENCE_RADIUS,
      g_param_spec_double ("coherence-radius", "Coherence radius",
          "Points within this distance, pixels, add their correlation maps to a point's "
          "(0 = each point alone)",
          0.0, GCV_VCM_MAX_RADIUS, DEFAULT_PROP_COHERENCE_RADIUS, rw));
  g_object_class_install_property (gobject_class, PROP_COHERENCE_SIGMA,
      g_param_spec_double ("coherence-sigma", "Coherence sigma",
          "Standard deviation, pixels, of the Gaussian that weights the neighbours by distance",
          0.1, 1000.0, DEFAULT_PROP_COHERENCE_SIGMA, rw));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_WEIGHT,
      g_param_spec_double ("temporal-weight", "Temporal weight",
          "Weight of the previous frame's vector nearby, relative to the point's own "
          "correlation map (0 = no temporal term)",
          0.0, 16.0, DEFAULT_PROP_TEMPORAL_WEIGHT, rw));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_SIGMA,
      g_param_spec_double ("temporal-sigma", "Temporal sigma",
          "Standard deviation, pixels, of how far a vector may differ from the previous one "
          "and still get the temporal term",
          0.1, 1000.0, DEFAULT_PROP_TEMPORAL_SIGMA, rw));
  g_object_class_install_property (gobject_class, PROP_SUBPIXEL,
      g_param_spec_boolean ("subpixel", "Sub-pixel",
          "Refine each vector to a fraction of a pixel: a parabola through the peak, then "
          "the gradient refinement (refine-size); FALSE = whole-pixel vectors",
          DEFAULT_PROP_SUBPIXEL, rw));
  g_object_class_install_property (gobject_class, PROP_REFINE_SIZE,
      g_param_spec_int ("refine-size", "Refinement window",
          "Side of the window, pixels (odd), that Lucas-Kanade steps align after the parabola "
          "(subpixel=true; 0 = parabola only, the paper's VCM)",
          0, GCV_VCM_MAX_REFINE, DEFAULT_PROP_REFINE_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_DRAW,
      g_param_spec_boolean ("draw", "Draw",
          "Paint an arrow per point on the video (else the video passes through unchanged)",
          DEFAULT_PROP_DRAW, rw));
  g_object_class_install_property (gobject_class, PROP_DRAW_SCALE,
      g_param_spec_int ("draw-scale", "Draw scale",
          "Arrow length as a multiple of the vector (draw=true)",
          1, 64, DEFAULT_PROP_DRAW_SCALE, rw));
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Regular file to write the points to, one JSON object per frame and line, emptied "
          "when the element starts unless append is set (NULL = none)",
          DEFAULT_PROP_LOCATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_APPEND,
      g_param_spec_boolean ("append", "Append",
          "Add the lines after what the location file holds instead of emptying it at start",
          DEFAULT_PROP_APPEND, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_stop);

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_teardown);
  filter_class->process_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_process);
  filter_class->process_device_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_process_device);
  filter_class->complete = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_complete);
  filter_class->writes_in_place = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_writes);
  filter_class->reset = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_reset);
  filter_class->drain = GST_DEBUG_FUNCPTR (gst_cuda_video_vcm_drain);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_VCM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_VCM_INTEREST, 0);
}

static void
gst_cuda_video_vcm_init (GstCudaVideoVcm * self)
{
  gcv_vcm_params_init (&self->params);
  self->draw = DEFAULT_PROP_DRAW;
  self->ipc_meta = DEFAULT_PROP_IPC_META;
  self->draw_scale = DEFAULT_PROP_DRAW_SCALE;
  self->location = g_strdup (DEFAULT_PROP_LOCATION);
  self->append = DEFAULT_PROP_APPEND;
  /* the output is the input buffer plus the meta (and the arrows) */
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}

static void
gst_cuda_video_vcm_finalize (GObject * object)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (object);

  g_free (self->location);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_video_vcm_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (object);
  const gchar *refused = NULL;
  gint v = 0;

  /* every number is within its GParamSpec's range (GObject refused
   * others); the parities the algorithm needs are checked here: such a
   * value is refused and the previous one kept.  Relations between
   * properties (template-size <= search-size, points-per-window <=
   * window-size^2) are checked when a frame is processed, so that they
   * may be set in any order. */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW_SIZE:
      self->params.window_size = g_value_get_int (value);
      break;
    case PROP_POINTS_PER_WINDOW:
      self->params.points_per_window = g_value_get_int (value);
      break;
    case PROP_MAX_POINTS:
      self->params.max_points = g_value_get_int (value);
      break;
    case PROP_ST_THRESHOLD:
      self->params.st_threshold = g_value_get_int (value);
      break;
    case PROP_TEMPLATE_SIZE:
      v = g_value_get_int (value);
      if (v % 2 == 0)
        refused = "must be odd: the template is centred on the point";
      else
        self->params.template_size = v;
      break;
    case PROP_SEARCH_SIZE:
      v = g_value_get_int (value);
      if (v % 2 != 0)
        refused = "must be even: displacements reach search-size / 2 either way";
      else
        self->params.search_size = v;
      break;
    case PROP_COHERENCE_RADIUS:
      self->params.coherence_radius = g_value_get_double (value);
      break;
    case PROP_COHERENCE_SIGMA:
      self->params.coherence_sigma = g_value_get_double (value);
      break;
    case PROP_TEMPORAL_WEIGHT:
      self->params.temporal_weight = g_value_get_double (value);
      break;
    case PROP_TEMPORAL_SIGMA:
      self->params.temporal_sigma = g_value_get_double (value);
      break;
    case PROP_SUBPIXEL:
      self->params.subpixel = g_value_get_boolean (value);
      break;
    case PROP_INTEREST:
      self->params.interest = g_value_get_enum (value);
      break;
    case PROP_POST_MESSAGES:
      gst_cuda_video_filter_set_post_messages (GST_CUDA_VIDEO_FILTER (self), g_value_get_boolean (value));
      break;
    case PROP_IPC_META:
      if (g_value_get_boolean (value) && (refused = gst_cuda_motion_ipc_meta_unsupported ()) != NULL)
        break;
      self->ipc_meta = g_value_get_boolean (value);
      break;
    case PROP_REFINE_SIZE:
      v = g_value_get_int (value);
      if (v != 0 && (v % 2 == 0 || v < 3))
        refused = "must be 0 or odd and at least 3: the window is centred on the point";
      else
        self->params.refine_size = v;
      break;
    case PROP_DRAW:
      self->draw = g_value_get_boolean (value);
      break;
    case PROP_DRAW_SCALE:
      self->draw_scale = g_value_get_int (value);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (refused != NULL)
    gst_cuda_video_filter_warn_rejected (GST_CUDA_VIDEO_FILTER (self), pspec, value, refused);
}

static void
gst_cuda_video_vcm_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WINDOW_SIZE:
      g_value_set_int (value, self->params.window_size);
      break;
    case PROP_POINTS_PER_WINDOW:
      g_value_set_int (value, self->params.points_per_window);
      break;
    case PROP_MAX_POINTS:
      g_value_set_int (value, self->params.max_points);
      break;
    case PROP_ST_THRESHOLD:
      g_value_set_int (value, self->params.st_threshold);
      break;
    case PROP_TEMPLATE_SIZE:
      g_value_set_int (value, self->params.template_size);
      break;
    case PROP_SEARCH_SIZE:
      g_value_set_int (value, self->params.search_size);
      break;
    case PROP_COHERENCE_RADIUS:
      g_value_set_double (value, self->params.coherence_radius);
      break;
    case PROP_COHERENCE_SIGMA:
      g_value_set_double (value, self->params.coherence_sigma);
      break;
    case PROP_TEMPORAL_WEIGHT:
      g_value_set_double (value, self->params.temporal_weight);
      break;
    case PROP_TEMPORAL_SIGMA:
      g_value_set_double (value, self->params.temporal_sigma);
      break;
    case PROP_SUBPIXEL:
      g_value_set_boolean (value, self->params.subpixel != 0);
      break;
    case PROP_REFINE_SIZE:
      g_value_set_int (value, self->params.refine_size);
      break;
    case PROP_INTEREST:
      g_value_set_enum (value, self->params.interest);
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
    case PROP_DRAW_SCALE:
      g_value_set_int (value, self->draw_scale);
      break;
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_APPEND:
      g_value_set_boolean (value, self->append);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Posts the settings error when @params cannot be used; TRUE when they can. */
static gboolean
check_params (GstCudaVideoVcm * self, const GcvVcmParams * params)
{
  const char *bad = gcv_vcm_params_check (params);

  if (bad == NULL)
    return TRUE;
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("Invalid vector coherence mapping settings: %s", bad),
      ("%s", bad));
  return FALSE;
}

static gboolean
gst_cuda_video_vcm_start (GstBaseTransform * trans)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (trans);
  GcvVcmParams params;
  gchar *location;
  gboolean append;

  GST_OBJECT_LOCK (self);
  params = self->params;
  location = g_strdup (self->location);
  append = self->append;
  GST_OBJECT_UNLOCK (self);

  /* before the device is opened: nothing to undo */
  if (!check_params (self, &params)) {
    g_free (location);
    return FALSE;
  }
  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->start (trans)) {
    g_free (location);
    return FALSE;
  }
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
gst_cuda_video_vcm_stop (GstBaseTransform * trans)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (trans);
  gboolean ok = GST_BASE_TRANSFORM_CLASS (parent_class)->stop (trans);

  gst_cuda_motion_export_close (&self->export, GST_ELEMENT (self));
  return ok;
}

/* At EOS (and before new caps), once every frame went out: the export's
 * lines reach the file before EOS goes on, or an error says why not. */
static GstFlowReturn
gst_cuda_video_vcm_drain (GstCudaVideoFilter * filter)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);

  if (self->export == NULL || gst_cuda_motion_export_finish (self->export, GST_ELEMENT (self)))
    return GST_FLOW_OK;
  return GST_FLOW_ERROR;
}

/* ---- per caps ------------------------------------------------------------ */

/* What a frame's device work leaves for complete (page-locked, one per
 * frame in flight): its settings, its points and their number. */
typedef struct
{
  GcvVcmParams params;
  gboolean has_reference;
  GstClockTime reference_pts;
  gboolean draw;
  gint draw_scale;
  gint n_points;
  GcvVcmPoint points[GCV_VCM_MAX_POINTS];
} VcmResults;

static gboolean
gst_cuda_video_vcm_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend, GError ** error)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);
  gint width = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  gint height = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  GcvError err = { GCV_OK, "" };

  self->mask = g_try_malloc ((gsize) width * height);
  self->has_reference = FALSE;
  if (self->mask == NULL) {
    gcv_error_set (&err, GCV_ERROR_NO_MEMORY, "%dx%d drawing mask", width, height);
    return gst_cuda_video_filter_set_error (error, &err);
  }
  if (backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    self->cuda = gcv_vcm_cuda_new (width, height, &err);
    if (self->cuda == NULL)
      return gst_cuda_video_filter_set_error (error, &err);
    /* the luma plane alone goes to the device; the points come back with
     * the frame's settings */
    gst_cuda_video_filter_set_device_planes (filter, 1, 0);
    gst_cuda_video_filter_set_results_size (filter, sizeof (VcmResults));
    return TRUE;
  }
  /* room for the most points any max-points gives, so that it may change
   * while playing without an allocation */
  self->points = g_try_new (GcvVcmPoint, GCV_VCM_MAX_POINTS);
  if (self->points == NULL) {
    gcv_error_set (&err, GCV_ERROR_NO_MEMORY, "%d point records", GCV_VCM_MAX_POINTS);
    return gst_cuda_video_filter_set_error (error, &err);
  }
  self->cpu = gcv_vcm_cpu_new (width, height, &err);
  if (self->cpu == NULL)
    return gst_cuda_video_filter_set_error (error, &err);
  gcv_vcm_cpu_set_cancel (self->cpu, gst_cuda_video_filter_get_cancel (filter));
  return TRUE;
}

static void
gst_cuda_video_vcm_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);

  if (self->cuda)
    gcv_vcm_cuda_free (self->cuda);
  self->cuda = NULL;
  if (self->cpu)
    gcv_vcm_cpu_free (self->cpu);
  self->cpu = NULL;
  g_clear_pointer (&self->points, g_free);
  g_clear_pointer (&self->mask, g_free);
}

/* ---- streaming ------------------------------------------------------------ */

static gboolean
gst_cuda_video_vcm_writes (GstCudaVideoFilter * filter)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);

  GST_OBJECT_LOCK (self);
  self->frame_draw = self->draw;
  GST_OBJECT_UNLOCK (self);
  return self->frame_draw;
}

/* Meta, JSON line and arrows of one frame whose points are @points.
 * @frame: the frame mapped for writing when drawing, else NULL (then the
 * buffer is mapped here if it must be drawn on). */
static GstFlowReturn
complete_frame (GstCudaVideoVcm * self, GstBuffer * buffer, GstVideoFrame * frame, const GcvVcmParams * params,
    gboolean has_reference, GstClockTime reference_pts, const GcvVcmPoint * points, guint n_points, gboolean draw,
    gint draw_scale)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  GstCudaMotionPointsInfo info;

  info.source = GST_OBJECT_NAME (self);
  GST_OBJECT_LOCK (self);
  info.pack = self->ipc_meta;
  GST_OBJECT_UNLOCK (self);
  info.has_reference = has_reference;
  info.frame = self->frame_number++;
  info.pts = GST_BUFFER_PTS (buffer);
  info.reference_pts = reference_pts;
  info.width = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  info.height = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  info.params = params;

  if (draw) {
    GcvPlane mask = { self->mask, info.width, info.height, (gsize) info.width };
    GstVideoFrame own;
    if (frame != NULL) {
      gst_cuda_motion_draw_points (frame, &mask, points, n_points, draw_scale);
    } else if (!gst_cuda_video_filter_map_frame (filter, &own, &filter->in_info, buffer,
            GST_MAP_READWRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
      return GST_FLOW_ERROR;    /* posted */
    } else {
      /* memory:CUDAMemory maps on the host too (a download, and an upload
       * at its next device map) */
      gst_cuda_motion_draw_points (&own, &mask, points, n_points, draw_scale);
      gst_video_frame_unmap (&own);
    }
  }
  gst_cuda_motion_meta_add_points (buffer, &info, points, n_points);
  if (gst_cuda_video_filter_get_post_messages (filter))
    gst_cuda_video_filter_post_results (filter, buffer, gst_cuda_motion_summary_points (&info, points, n_points));
  if (self->export != NULL && !gst_cuda_motion_export_points (self->export, GST_ELEMENT (self), &info,
          GST_BUFFER_PTS (buffer), points, n_points))
    return GST_FLOW_ERROR;
  return GST_FLOW_OK;
}

/* The frame's settings, taken under the object lock; the last usable
 * parameters when they are not (the settings policy). */
static gboolean
frame_params (GstCudaVideoVcm * self, GcvVcmParams * params, gboolean * draw, gint * draw_scale)
{
  GST_OBJECT_LOCK (self);
  *params = self->params;
  *draw = self->draw;
  *draw_scale = self->draw_scale;
  GST_OBJECT_UNLOCK (self);
  return gst_cuda_video_filter_usable_params (GST_CUDA_VIDEO_FILTER (self), params, sizeof (*params),
      "vector coherence mapping", gcv_vcm_params_check (params));
}

static GstFlowReturn
gst_cuda_video_vcm_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * frame)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);
  VcmResults *r = gst_cuda_video_filter_get_results (filter);
  gpointer stream = gst_cuda_video_filter_get_stream (filter);
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  GcvPlane luma;

  if (!frame_params (self, &r->params, &r->draw, &r->draw_scale))
    return GST_FLOW_ERROR;
  if (!gst_cuda_video_filter_luma8_device (filter, frame, &luma, &error))
    return gst_cuda_video_filter_post_error (filter, "Reading the luma", error);
  r->has_reference = self->has_reference;
  r->reference_pts = self->reference_pts;
  self->reference_pts = frame->buffer ? GST_BUFFER_PTS (frame->buffer) : GST_CLOCK_TIME_NONE;
  r->n_points = 0;
  if (!self->has_reference) {
    if (gcv_vcm_cuda_set_reference (self->cuda, &luma, stream, &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Uploading the first frame", &err);
    self->has_reference = TRUE;
    return GST_FLOW_OK;
  }
  if (gcv_vcm_cuda_track (self->cuda, &r->params, &luma, r->points, &r->n_points, stream, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Tracking the points", &err);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_video_vcm_complete (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results)
{
  VcmResults *r = results;

  return complete_frame (GST_CUDA_VIDEO_VCM (filter), buffer, NULL, &r->params, r->has_reference, r->reference_pts,
      r->points, (guint) r->n_points, r->draw, r->draw_scale);
}

static GstFlowReturn
gst_cuda_video_vcm_process (GstCudaVideoFilter * filter, GstVideoFrame * frame)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);
  GcvVcmParams params;
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  GstClockTime reference_pts;
  GcvPlane luma;
  gboolean draw;
  gint draw_scale;
  int n = 0;

  if (!frame_params (self, &params, &draw, &draw_scale))
    return GST_FLOW_ERROR;
  if (!gst_cuda_video_filter_luma8 (filter, frame, &luma, &error))
    return gst_cuda_video_filter_post_error (filter, "Reading the luma", error);
  /* the frame was mapped for the snapshot writes_in_place took */
  draw = self->frame_draw;
  reference_pts = self->reference_pts;
  self->reference_pts = GST_BUFFER_PTS (frame->buffer);
  if (!self->has_reference) {
    if (gcv_vcm_cpu_set_reference (self->cpu, &luma, &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Storing the first frame", &err);
    self->has_reference = TRUE;
    return complete_frame (self, frame->buffer, frame, &params, FALSE, reference_pts, self->points, 0, draw,
        draw_scale);
  }
  if (gcv_vcm_cpu_process (self->cpu, &params, &luma, self->points, &n,
          gst_cuda_video_filter_get_n_threads (filter), NULL, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (GST_CUDA_VIDEO_FILTER (self), "Tracking the points", &err);
  return complete_frame (self, frame->buffer, frame, &params, TRUE, reference_pts, self->points, (guint) n, draw,
      draw_scale);
}

static void
gst_cuda_video_vcm_reset (GstCudaVideoFilter * filter)
{
  GstCudaVideoVcm *self = GST_CUDA_VIDEO_VCM (filter);

  /* the next frame becomes the reference, which clears the history */
  self->has_reference = FALSE;
}
