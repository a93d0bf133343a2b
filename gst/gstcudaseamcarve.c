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
 * SECTION:element-cudaseamcarve
 * @title: cudaseamcarve / cpuseamcarve
 * @short_description: content-aware video resizing by seam carving, on the GPU (CUDA) and on the CPU
 *
 * Resizes video by removing (or duplicating) seams: connected paths of one
 * pixel per row (or per column) along which the picture has the least
 * energy, so that flat background gives way before objects and edges do.
 * The energy is |dI/dx| + |dI/dy| of the luma (eq. 1 of Duarte and Sendag,
 * "Run-time image and video resizing using CUDA-enabled GPUs"), its L2 form,
 * or Rubinstein et al.'s forward energy; the seams come from the cumulative
 * seam map of eq. 2 by dynamic programming.  Widening inserts the k seams
 * that narrowing would remove (Avidan and Shamir), each new pixel the
 * average of its two neighbours, at most 1.5x per step.  All channels of
 * all planes follow the same seams; cudaseamcarve and cpuseamcarve give
 * identical frames in both modes.
 *
 * The output size comes from the `width` and `height` properties, or, where
 * they are 0, from downstream caps as with videoscale; a dimension that
 * neither fixes keeps the input's size, and the pixel aspect ratio is kept
 * (seam carving changes the picture's shape on purpose).  The same size in
 * and out passes buffers through untouched.  With show-seams=true the output
 * keeps the input size and shows the seams the properties' target size
 * would use: width seams red, height seams green.
 *
 * mode=exact removes one seam per seam map, with the energy updated where
 * the seam was: the optimal greedy result.  mode=fast takes up to
 * seams-per-pass seams (1 to 32) from each seam map: the cheapest seam,
 * and seams that follow it side by side up the same valley or take other
 * valleys, costing at most 3/5 more; they never share a pixel.  At the
 * default of 32 the seams remove at most 8.2% more energy than exact mode's
 * on the test photos (docs/performance.md), and fewer seam maps make
 * 1080p -10% about six times faster than exact mode.  On
 * video, temporal-coherence > 0 charges seams for every column they move
 * away from the previous frame's seams (up to 8), which stops them
 * jumping from frame to frame.  With mask-alpha=true an alpha of 0 marks
 * pixels to remove first and 255 pixels to keep.
 *
 * With post-messages=true each frame the element carves posts an element
 * message "seamcarve": "width-change", "height-change" (int, output minus
 * input: -k when k seams were removed, +k when k were duplicated),
 * "seam-pixels" (guint64, the input pixels the seams went through),
 * "seam-energy" (double, their mean eq. 1 energy |dI/dx| + |dI/dy| of the
 * luma in the input frame, whatever the energy property), "frame-energy"
 * (double, the mean of the same over the whole input frame: how far below
 * it the seams stayed) and level's "timestamp", "stream-time",
 * "running-time" and "duration" (guint64).  On the GPU the sums are made
 * there and only they come back.
 *
 * Formats: GRAY8, Y444 and the 4-byte RGB formats.  Subsampled YUV (I420,
 * NV12, ...) is not offered: a seam moves one luma pixel per row, which a
 * 2x2 chroma sample cannot follow without smearing colour across the seam;
 * convert to Y444 or RGBA first.
 *
 * What one frame may cost is bounded: a carve whose seam-map passes would
 * visit more than 1e10 pixels a frame (64x48 to 8192x8192, or 4K in exact
 * mode with much more than a quarter removed: 10 s and more a frame on the
 * CPU) is a settings error naming the cost; mode=fast with more
 * seams-per-pass, or scaling part of the way, brings it under.  A live
 * change to exact mode that would cost more is one warning, the frames
 * going on in the mode in force.  QoS is off by default: with
 * temporal-coherence a dropped frame would move the seams the next frame
 * is drawn to.
 *
 * On the GPU the blocks of the seam search wait for each other; should
 * one never come (the GPU shared so that they cannot all run at once, or
 * a fault), the frame gives up after 5 s and the element posts an error
 * saying what waited for what, instead of hanging the pipeline.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=tests/data/chelsea.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! cudaseamcarve ! video/x-raw,width=400 ! videoconvert ! pngenc ! filesink location=carved.png
 * ]| Narrows a photo to 400 pixels wide, its height kept, on the GPU when there is one.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=300 ! video/x-raw,format=RGBA,width=1280,height=720 ! cpuseamcarve width=1024 mode=fast temporal-coherence=0.5 ! videoconvert ! autovideosink
 * ]| Takes 256 columns out of a video on the CPU, seams held steady from frame to frame.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaseamcarve.h"

#include <string.h>

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_ORDER,
  PROP_ENERGY,
  PROP_MODE,
  PROP_SEAMS_PER_PASS,
  PROP_TEMPORAL_COHERENCE,
  PROP_MASK_ALPHA,
  PROP_SHOW_SEAMS,
  PROP_POST_MESSAGES,
};

#define DEFAULT_PROP_WIDTH 0
#define DEFAULT_PROP_HEIGHT 0
#define DEFAULT_PROP_ORDER GCV_SEAM_ORDER_WIDTH_FIRST
#define DEFAULT_PROP_ENERGY GCV_SEAM_ENERGY_GRADIENT_L1
#define DEFAULT_PROP_MODE GCV_SEAM_MODE_EXACT
#define DEFAULT_PROP_SEAMS_PER_PASS GCV_SEAM_MAX_PER_PASS
#define DEFAULT_PROP_TEMPORAL_COHERENCE 0.0
#define DEFAULT_PROP_MASK_ALPHA FALSE
#define DEFAULT_PROP_SHOW_SEAMS FALSE

/* What a frame's device work leaves for complete (page-locked, one per
 * frame in flight): with post-messages, the seams' energy sums. */
typedef struct
{
  gboolean counted;
  GcvSeamEnergySums sums;
} SeamResults;

/* colours of show-seams (ARGB) */
#define WIDTH_SEAM_COLOUR 0xffff0000
#define HEIGHT_SEAM_COLOUR 0xff00ff00

#define SEAM_FORMATS "{ GRAY8, Y444, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR }"
#define SEAM_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX (SEAM_FORMATS, GCV_SEAM_MAX_DIMENSION)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SEAM_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SEAM_CAPS));

GType
gst_cuda_video_seam_energy_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_SEAM_ENERGY_GRADIENT_L1, "|dI/dx| + |dI/dy| of the luma (the paper's eq. 1)", "gradient-l1"},
    {GCV_SEAM_ENERGY_GRADIENT_L2, "sqrt (dI/dx^2 + dI/dy^2) of the luma", "gradient-l2"},
    {GCV_SEAM_ENERGY_FORWARD, "Forward energy (Rubinstein et al. 2008): the cost of the edges a "
          "removal creates; fewer artefacts on video", "forward"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoSeamEnergy", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_seam_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_SEAM_MODE_EXACT, "One seam per seam map, energy updated after each: the optimal "
          "greedy result", "exact"},
    {GCV_SEAM_MODE_FAST, "Up to seams-per-pass disjoint seams per seam map: the cheapest, and beside "
          "it or in other valleys those costing at most 3/5 more", "fast"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoSeamMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_seam_order_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_SEAM_ORDER_WIDTH_FIRST, "Change the width, then the height", "width-first"},
    {GCV_SEAM_ORDER_HEIGHT_FIRST, "Change the height, then the width", "height-first"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoSeamOrder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_seam_carve_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoSeamCarve, gst_cuda_video_seam_carve, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_seam_carve (GstPlugin * plugin)
{
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_SEAM_CARVE,
      "seamcarve", "Seam carving video resizer", "Filter/Converter/Video/Scaler",
      "Content-aware resizing: removes or duplicates the seams of least energy");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudaseamcarve, register_seam_carve);

static void gst_cuda_video_seam_carve_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_seam_carve_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstCaps *gst_cuda_video_seam_carve_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_video_seam_carve_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_video_seam_carve_setup (GstCudaVideoFilter * filter,
    GstCudaVideoBackend backend, GError ** error);
static void gst_cuda_video_seam_carve_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_seam_carve_complete (GstCudaVideoFilter * filter, GstBuffer * buffer,
    gpointer results);
static GstFlowReturn gst_cuda_video_seam_carve_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * in, GstCudaVideoDeviceFrame * out);
static GstFlowReturn gst_cuda_video_seam_carve_process (GstCudaVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);
static void gst_cuda_video_seam_carve_reset (GstCudaVideoFilter * filter);

static void
gst_cuda_video_seam_carve_class_init (GstCudaVideoSeamCarveClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;


  gobject_class->set_property = gst_cuda_video_seam_carve_set_property;
  gobject_class->get_property = gst_cuda_video_seam_carve_get_property;

  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Output width in pixels; 0 = from downstream caps (else the input width)",
          0, GCV_SEAM_MAX_DIMENSION, DEFAULT_PROP_WIDTH, rw));
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "Output height in pixels; 0 = from downstream caps (else the input height)",
          0, GCV_SEAM_MAX_DIMENSION, DEFAULT_PROP_HEIGHT, rw));
  g_object_class_install_property (gobject_class, PROP_ORDER,
      g_param_spec_enum ("order", "Order",
          "Which dimension is carved first when both change",
          GST_TYPE_CUDA_VIDEO_SEAM_ORDER, DEFAULT_PROP_ORDER, rw));
  g_object_class_install_property (gobject_class, PROP_ENERGY,
      g_param_spec_enum ("energy", "Energy",
          "What a seam costs: the luma gradient (L1 as the paper, or L2) under the seam, or the "
          "forward energy of the edges its removal creates",
          GST_TYPE_CUDA_VIDEO_SEAM_ENERGY, DEFAULT_PROP_ENERGY, rw));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode",
          "exact: one seam per seam map (best result); fast: several disjoint seams per seam map",
          GST_TYPE_CUDA_VIDEO_SEAM_MODE, DEFAULT_PROP_MODE, rw));
  g_object_class_install_property (gobject_class, PROP_SEAMS_PER_PASS,
      g_param_spec_int ("seams-per-pass", "Seams per pass",
          "mode=fast: the most seams taken from one seam map (more is faster; fewer follow exact mode "
          "more closely)",
          1, GCV_SEAM_MAX_PER_PASS, DEFAULT_PROP_SEAMS_PER_PASS, rw));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_COHERENCE,
      g_param_spec_double ("temporal-coherence", "Temporal coherence",
          "Cost for seams to move away from the previous frame's seams, against jitter on video "
          "(0 = every frame on its own, 1 = strongest)",
          0.0, 1.0, DEFAULT_PROP_TEMPORAL_COHERENCE, rw));
  g_object_class_install_property (gobject_class, PROP_MASK_ALPHA,
      g_param_spec_boolean ("mask-alpha", "Mask alpha",
          "Formats with alpha: alpha 0 marks pixels to remove first, 255 pixels to keep, other "
          "values no preference", DEFAULT_PROP_MASK_ALPHA, rw));
  g_object_class_install_property (gobject_class, PROP_SHOW_SEAMS,
      g_param_spec_boolean ("show-seams", "Show seams",
          "Debug: output input-size frames with the seams painted (width seams red, height "
          "seams green); the target size then comes from the width and height properties",
          DEFAULT_PROP_SHOW_SEAMS, rw));
  gst_cuda_video_filter_install_post_messages (gobject_class, PROP_POST_MESSAGES, "seamcarve");

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_fixate_caps);
  /* decided in setup: same caps pass through unless show-seams paints */
  trans_class->passthrough_on_same_caps = FALSE;

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_teardown);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_process);
  filter_class->process_device = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_process_device);
  filter_class->complete = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_complete);
  filter_class->reset = GST_DEBUG_FUNCPTR (gst_cuda_video_seam_carve_reset);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_SEAM_CARVE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_SEAM_ENERGY, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_SEAM_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_SEAM_ORDER, 0);
}

static void
gst_cuda_video_seam_carve_init (GstCudaVideoSeamCarve * self)
{
  self->params.energy = DEFAULT_PROP_ENERGY;
  self->params.mode = DEFAULT_PROP_MODE;
  self->params.seams_per_pass = DEFAULT_PROP_SEAMS_PER_PASS;
  self->params.temporal_coherence = DEFAULT_PROP_TEMPORAL_COHERENCE;
  self->params.mask_alpha = DEFAULT_PROP_MASK_ALPHA;
  self->params.order = DEFAULT_PROP_ORDER;
  self->width = DEFAULT_PROP_WIDTH;
  self->height = DEFAULT_PROP_HEIGHT;
  self->show_seams = DEFAULT_PROP_SHOW_SEAMS;
}

static void
gst_cuda_video_seam_carve_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (object);
  gboolean renegotiate = FALSE;

  /* every value is within its GParamSpec's range (GObject refused others);
   * the size properties and show-seams change the caps */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WIDTH:
      renegotiate = self->width != g_value_get_int (value);
      self->width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      renegotiate = self->height != g_value_get_int (value);
      self->height = g_value_get_int (value);
      break;
    case PROP_ORDER:
      self->params.order = (GcvSeamOrder) g_value_get_enum (value);
      break;
    case PROP_ENERGY:
      self->params.energy = (GcvSeamEnergy) g_value_get_enum (value);
      break;
    case PROP_MODE:
      self->params.mode = (GcvSeamMode) g_value_get_enum (value);
      break;
    case PROP_SEAMS_PER_PASS:
      self->params.seams_per_pass = g_value_get_int (value);
      break;
    case PROP_TEMPORAL_COHERENCE:
      self->params.temporal_coherence = g_value_get_double (value);
      break;
    case PROP_MASK_ALPHA:
      self->params.mask_alpha = g_value_get_boolean (value);
      break;
    case PROP_SHOW_SEAMS:
      renegotiate = self->show_seams != g_value_get_boolean (value);
      self->show_seams = g_value_get_boolean (value);
      break;
    case PROP_POST_MESSAGES:
      gst_cuda_video_filter_set_post_messages (GST_CUDA_VIDEO_FILTER (self), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (renegotiate)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

static void
gst_cuda_video_seam_carve_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_WIDTH:
      g_value_set_int (value, self->width);
      break;
    case PROP_HEIGHT:
      g_value_set_int (value, self->height);
      break;
    case PROP_ORDER:
      g_value_set_enum (value, self->params.order);
      break;
    case PROP_ENERGY:
      g_value_set_enum (value, self->params.energy);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->params.mode);
      break;
    case PROP_SEAMS_PER_PASS:
      g_value_set_int (value, self->params.seams_per_pass);
      break;
    case PROP_TEMPORAL_COHERENCE:
      g_value_set_double (value, self->params.temporal_coherence);
      break;
    case PROP_MASK_ALPHA:
      g_value_set_boolean (value, self->params.mask_alpha);
      break;
    case PROP_SHOW_SEAMS:
      g_value_set_boolean (value, self->show_seams);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, gst_cuda_video_filter_get_post_messages (GST_CUDA_VIDEO_FILTER (self)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Same format on both sides.  Towards the source: the width and height
 * properties where set, else any size (the input size first); towards the
 * sink: any size.  show-seams keeps the size. */
static GstCaps *
gst_cuda_video_seam_carve_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (trans);
  gint width, height;
  gboolean show;

  GST_OBJECT_LOCK (self);
  width = self->width;
  height = self->height;
  show = self->show_seams;
  GST_OBJECT_UNLOCK (self);

  if (show)
    return gst_cuda_video_filter_clip_caps (trans, direction, caps, gst_caps_ref (caps), filter);
  if (direction == GST_PAD_SRC)
    width = height = 0;
  return gst_cuda_video_filter_size_caps (trans, direction, caps, filter, width, height, FALSE);
}

/* A dimension downstream leaves open keeps the input's size (seam carving
 * changes the picture's shape on purpose, unlike videoscale, which keeps
 * the display aspect ratio); the pixel aspect ratio is kept. */
static GstCaps *
gst_cuda_video_seam_carve_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstStructure *ins, *outs;
  gint w, h, par_n, par_d;

  othercaps = gst_caps_make_writable (gst_caps_truncate (gst_cuda_video_filter_prefer_device (trans, othercaps)));
  ins = gst_caps_get_structure (caps, 0);
  outs = gst_caps_get_structure (othercaps, 0);
  if (gst_structure_get_int (ins, "width", &w))
    gst_structure_fixate_field_nearest_int (outs, "width", w);
  if (gst_structure_get_int (ins, "height", &h))
    gst_structure_fixate_field_nearest_int (outs, "height", h);
  if (gst_structure_get_fraction (ins, "pixel-aspect-ratio", &par_n, &par_d)
      && gst_structure_has_field (outs, "pixel-aspect-ratio"))
    gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", par_n, par_d);
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (self, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* The backend's view of a format: planes, interleaved channels, luma and
 * alpha.  FALSE for formats the element does not take. */
static gboolean
seam_geometry_for (const GstVideoInfo * info, GcvSeamGeometry * geom)
{
  if (!gst_cuda_video_filter_luma_input (info, &geom->luma))
    return FALSE;
  geom->alpha_channel = -1;
  switch (geom->luma.layout) {
    case GCV_LUMA_GRAY8:
      /* GRAY8, or Y444: three full-size planes */
      geom->channels = 1;
      geom->n_planes = GST_VIDEO_INFO_N_PLANES (info);
      return GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY8
          || GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_Y444;
    case GCV_LUMA_PACKED32:
      geom->channels = 4;
      geom->n_planes = 1;
      if (GST_VIDEO_INFO_HAS_ALPHA (info))
        geom->alpha_channel = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_A);
      return TRUE;
    default:
      return FALSE;
  }
}

static gboolean
gst_cuda_video_seam_carve_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);
  const GstVideoInfo *in = &filter->in_info, *out = &filter->out_info;
  GcvSeamGeometry *geom = &self->geom;
  GcvError err = { GCV_OK, "" };
  const gchar *why;
  gint prop_w, prop_h;
  gboolean in_device, out_device;

  if (GST_VIDEO_INFO_FORMAT (in) != GST_VIDEO_INFO_FORMAT (out)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "input format %s and output format %s differ", GST_VIDEO_INFO_NAME (in),
        GST_VIDEO_INFO_NAME (out));
    return FALSE;
  }
  memset (geom, 0, sizeof (*geom));
  if (!seam_geometry_for (in, geom)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "format %s is not supported", GST_VIDEO_INFO_NAME (in));
    return FALSE;
  }

  geom->in_width = GST_VIDEO_INFO_WIDTH (in);
  geom->in_height = GST_VIDEO_INFO_HEIGHT (in);
  /* the caps decide, not the properties: show-seams or the size may have
   * changed since these caps were negotiated (the setter asked for a new
   * negotiation, which brings the change here).  Showing the seams needs
   * the output the input's size; other caps were made for carving. */
  GST_OBJECT_LOCK (self);
  self->showing = self->show_seams && GST_VIDEO_INFO_WIDTH (out) == geom->in_width
      && GST_VIDEO_INFO_HEIGHT (out) == geom->in_height;
  prop_w = self->width;
  prop_h = self->height;
  GST_OBJECT_UNLOCK (self);

  if (self->showing) {
    /* the output shows the input; the seams are those of the properties' size */
    geom->out_width = prop_w > 0 ? prop_w : geom->in_width;
    geom->out_height = prop_h > 0 ? prop_h : geom->in_height;
  } else {
    geom->out_width = GST_VIDEO_INFO_WIDTH (out);
    geom->out_height = GST_VIDEO_INFO_HEIGHT (out);
  }
  if ((why = gcv_seam_geometry_check (geom)) != NULL) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION, "%s", why);
    return FALSE;
  }
  /* what one frame may cost is bounded (a frame of minutes would also
   * hold up every state change); the settings policy: a renegotiation
   * keeps the run's last usable settings when the properties cost too
   * much, and only when those cost too much at this size as well is it
   * an error */
  {
    GcvSeamParams params;
    GST_OBJECT_LOCK (self);
    params = self->params;
    GST_OBJECT_UNLOCK (self);
    why = gcv_seam_work_check (geom, &params);
    if (!gst_cuda_video_filter_apply_params (filter, &params, sizeof (params), "seam carving", why, NULL,
            error))
      return FALSE;
    if (why != NULL && (why = gcv_seam_work_check (geom, &params)) != NULL) {
      g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "%s", why);
      return FALSE;
    }
  }

  /* the same size passes through, unless the memory changes (CUDA memory
   * in, system memory out or the other way round: then a copy) */
  gst_cuda_video_filter_get_memory (filter, &in_device, &out_device);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (filter), !self->showing
      && geom->in_width == geom->out_width && geom->in_height == geom->out_height
      && in_device == out_device);
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (filter)))
    return TRUE;

  GST_INFO_OBJECT (self, "%s %dx%d -> %dx%d%s on the %s", GST_VIDEO_INFO_NAME (in),
      geom->in_width, geom->in_height, geom->out_width, geom->out_height,
      self->showing ? " (showing the seams)" : "",
      backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "GPU" : "CPU");

  /* the seam mask is made for show-seams and, as post-messages may be
   * switched on while playing, always */
  if (backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    self->cuda = gcv_seam_cuda_new (geom, &err);
    if (self->cuda == NULL)
      return gst_cuda_video_filter_set_error (error, &err);
    gcv_seam_cuda_set_cancel (self->cuda, gst_cuda_video_filter_get_cancel (filter));
    gst_cuda_video_filter_set_results_size (filter, sizeof (SeamResults));
    return gst_cuda_video_filter_device_alloc (filter, geom->in_width, geom->in_height, &self->dev_mask,
        geom->in_width, error) && gst_cuda_video_filter_device_alloc (filter, sizeof (GcvSeamEnergySums), 1,
        &self->dev_sums, 1, error);
  }
  self->host_mask = g_try_malloc ((gsize) 2 * geom->in_width * geom->in_height);
  if (self->host_mask == NULL) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "no memory for a %dx%d seam mask", geom->in_width, geom->in_height);
    return FALSE;
  }
  self->cpu = gcv_seam_cpu_new (geom, &err);
  if (self->cpu == NULL)
    return gst_cuda_video_filter_set_error (error, &err);
  gcv_seam_cpu_set_cancel (self->cpu, gst_cuda_video_filter_get_cancel (filter));
  return TRUE;
}

static void
gst_cuda_video_seam_carve_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);

  gcv_seam_cpu_free (self->cpu);
  self->cpu = NULL;
  gcv_seam_cuda_free (self->cuda);
  self->cuda = NULL;
  g_free (self->host_mask);
  self->host_mask = NULL;
}

static void
gst_cuda_video_seam_carve_reset (GstCudaVideoFilter * filter)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);

  if (self->cpu)
    gcv_seam_cpu_reset (self->cpu);
  if (self->cuda)
    gcv_seam_cuda_reset (self->cuda);
}

/* The seams' colours, in painting order, and their bits in the mask. */
static const struct
{
  guint8 bit;
  guint32 argb;
} seam_layers[] = {
  {GCV_SEAM_MASK_WIDTH, WIDTH_SEAM_COLOUR},
  {GCV_SEAM_MASK_HEIGHT, HEIGHT_SEAM_COLOUR},
};

/* Posts the "seamcarve" message of a carve with @sums. */
static void
post_seams (GstCudaVideoSeamCarve * self, GstBuffer * buffer, const GcvSeamEnergySums * sums)
{
  const GcvSeamGeometry *g = &self->geom;

  gst_cuda_video_filter_post_results (GST_CUDA_VIDEO_FILTER (self), buffer, gst_structure_new ("seamcarve",
          "width-change", G_TYPE_INT, g->out_width - g->in_width,
          "height-change", G_TYPE_INT, g->out_height - g->in_height,
          "seam-pixels", G_TYPE_UINT64, sums->seam_pixels,
          "seam-energy", G_TYPE_DOUBLE, sums->seam_pixels ? (gdouble) sums->seam_energy / sums->seam_pixels : 0.0,
          "frame-energy", G_TYPE_DOUBLE, (gdouble) sums->frame_energy / ((gdouble) g->in_width * g->in_height),
          NULL));
}

/* show-seams: the input, with width seams and height seams painted in
 * their colours (the mask holds GCV_SEAM_MASK_* bits). */
static void
paint_seams (GstCudaVideoSeamCarve * self, GstVideoFrame * in_frame, GstVideoFrame * out_frame)
{
  const GcvSeamGeometry *geom = &self->geom;
  gsize n = (gsize) geom->in_width * geom->in_height, i;
  guint8 *bits = self->host_mask + n;
  GcvPlane plane = { bits, geom->in_width, geom->in_height, geom->in_width };
  guint l;

  gst_video_frame_copy (out_frame, in_frame);
  for (l = 0; l < G_N_ELEMENTS (seam_layers); l++) {
    for (i = 0; i < n; i++)
      bits[i] = self->host_mask[i] & seam_layers[l].bit;
    gst_cuda_video_filter_paint_mask (out_frame, &plane, seam_layers[l].argb);
  }
}

/* The frame's settings, taken under the object lock; the last usable
 * ones when they would make a frame cost more than allowed (the settings
 * policy: mode=exact on a large carve). */
static gboolean
frame_params (GstCudaVideoSeamCarve * self, GcvSeamParams * params)
{
  GST_OBJECT_LOCK (self);
  *params = self->params;
  GST_OBJECT_UNLOCK (self);
  return gst_cuda_video_filter_usable_params (GST_CUDA_VIDEO_FILTER (self), params, sizeof (*params),
      "seam carving", gcv_seam_work_check (&self->geom, params));
}

static GstFlowReturn
gst_cuda_video_seam_carve_process (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);
  const GcvSeamGeometry *geom = &self->geom;
  GcvSeamParams params;
  GcvPlane in[GCV_SEAM_MAX_PLANES], out[GCV_SEAM_MAX_PLANES];
  GcvPlane mask = { self->host_mask, geom->in_width, geom->in_height, geom->in_width };
  GcvError err = { GCV_OK, "" };
  gboolean count = gst_cuda_video_filter_get_post_messages (filter);

  if (!frame_params (self, &params))
    return GST_FLOW_ERROR;

  gst_cuda_video_filter_frame_planes (in_frame, geom->n_planes, in);
  gst_cuda_video_filter_frame_planes (out_frame, geom->n_planes, out);
  if (gcv_seam_cpu_process (self->cpu, &params, in, self->showing ? NULL : out,
          self->showing || count ? &mask : NULL, gst_cuda_video_filter_get_n_threads (filter), &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Seam carving", &err);
  if (count) {
    GcvSeamEnergySums sums;
    gcv_seam_energy_sums (geom, &in[0], &mask, &sums);
    post_seams (self, out_frame->buffer, &sums);
  }
  if (self->showing)
    paint_seams (self, in_frame, out_frame);
  return GST_FLOW_OK;
}

/* The same on the GPU; show-seams paints the device mask's layers on a
 * copy of the input there. */
static GstFlowReturn
gst_cuda_video_seam_carve_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
    GstCudaVideoDeviceFrame * out)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);
  SeamResults *r = gst_cuda_video_filter_get_results (filter);
  gpointer stream = gst_cuda_video_filter_get_stream (filter);
  GcvSeamParams params;
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  guint l;

  r->counted = FALSE;
  if (!frame_params (self, &params))
    return GST_FLOW_ERROR;

  /* the same size in another memory: the frame as it is */
  if (!self->showing && self->geom.in_width == self->geom.out_width
      && self->geom.in_height == self->geom.out_height) {
    if (!gst_cuda_video_filter_copy_device_frame (filter, in, out, &error))
      return gst_cuda_video_filter_post_error (filter, "Seam carving", error);
    return GST_FLOW_OK;
  }
  r->counted = gst_cuda_video_filter_get_post_messages (filter);
  if (gcv_seam_cuda_process (self->cuda, &params, in->planes, self->showing ? NULL : out->planes,
          self->showing || r->counted ? &self->dev_mask : NULL, stream, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Seam carving", &err);
  if (r->counted && gcv_seam_cuda_energy_sums (&self->geom, &in->planes[0], &self->dev_mask, self->dev_sums.data,
          &r->sums, stream, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Summing the seams' energy", &err);
  if (!self->showing)
    return GST_FLOW_OK;
  if (!gst_cuda_video_filter_copy_device_frame (filter, in, out, &error))
    return gst_cuda_video_filter_post_error (filter, "Showing the seams", error);
  for (l = 0; l < G_N_ELEMENTS (seam_layers); l++)
    if (!gst_cuda_video_filter_paint_mask_device (filter, out, &self->dev_mask, seam_layers[l].bit,
            seam_layers[l].argb, &error))
      return gst_cuda_video_filter_post_error (filter, "Showing the seams", error);
  return GST_FLOW_OK;
}

/* The frame's GPU work is done: whether its seam search gave up waiting
 * (gcv_seam_cuda_check: such a frame's pixels are garbage and never go
 * downstream), else its post-messages summary. */
static GstFlowReturn
gst_cuda_video_seam_carve_complete (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results)
{
  GstCudaVideoSeamCarve *self = GST_CUDA_VIDEO_SEAM_CARVE (filter);
  SeamResults *r = results;
  GcvError err = { GCV_OK, "" };

  if (self->cuda != NULL && gcv_seam_cuda_check (self->cuda, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Seam carving", &err);
  if (r->counted)
    post_seams (self, buffer, &r->sums);
  return GST_FLOW_OK;
}
