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
 * SECTION:element-cudacanny
 * @title: cudacanny / cpucanny
 * @short_description: Canny edge detection on the GPU (CUDA) and on the CPU
 *
 * Finds edges with Canny's detector: Gaussian blur, 3x3 Sobel gradient,
 * non-maximum suppression and exact hysteresis (a weak pixel is kept when it
 * is 8-connected to a strong one, however long the chain).  With
 * blur-size=0 the edge map equals OpenCV 4.6's cv::Canny (aperture 3) pixel
 * for pixel; cudacanny and cpucanny give identical output in every mode.
 *
 * The luma plane of YUV input is used; RGB input is converted with integer
 * BT.601 weights; 16-bit luma (GRAY16_LE, and the Y plane of P010_10LE,
 * the 10-bit HDR output of hardware decoders, each word the 10-bit value
 * << 6) is rounded to 8 bits, (v + 128) / 257 of the 16-bit word, so
 * thresholds are on the 8-bit scale for every format.  mode=edges outputs a GRAY8 edge
 * map (255 edge, 0 not), mode=magnitude a GRAY8 gradient magnitude
 * (|gradient| / 4, so a step of s levels reads about s); to a neighbour that
 * takes no GRAY8 (GStreamer's cudadownload and cudaconvert, hardware
 * encoders) the map comes out as the luma of NV12 with neutral chroma
 * (128) instead, in CUDA memory as in system memory.  mode=overlay gives the
 * input frame with the edges painted in overlay-color (in P010_10LE,
 * painted samples are rounded to the nearest 10-bit code; the others keep
 * their 16 bits).
 *
 * With post-messages=true each frame of mode=edges or mode=overlay posts an
 * element message "canny" (mode=magnitude finds no edges and posts none):
 * "edge-pixels" (guint64, the pixels of the edge map that are edges),
 * "pixels" (guint64, width x height), and level's "timestamp",
 * "stream-time", "running-time" and "duration" (guint64 nanoseconds).  On
 * the GPU the edges are counted there and only the count comes back.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=100 ! video/x-raw,format=GRAY8,width=1280,height=720 ! cudacanny low-threshold=30 high-threshold=90 ! videoconvert ! autovideosink
 * ]| Edges of a moving ball, on the GPU when there is one.
 * |[
 * gst-launch-1.0 filesrc location=tests/data/coffee.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! cpucanny mode=overlay overlay-color=0xff00ff00 ! videoconvert ! pngenc ! filesink location=edges.png
 * ]| Paints the edges of a photo in green, on the CPU.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=100 ! video/x-raw,format=P010_10LE,width=1280,height=720 ! cudacanny mode=overlay ! videoconvert ! autovideosink
 * ]| 10-bit video, as hardware HEVC decoders give it: edges painted in 10-bit codes.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=100 ! video/x-raw,format=NV12,width=1280,height=720 ! cudaupload ! cudacanny ! cudadownload ! videoconvert ! autovideosink
 * ]| Edges in CUDA memory (GStreamer's nvcodec elements): cudadownload takes no GRAY8, so the edge map comes as NV12.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudacanny.h"
#include "overlay.h"
#include "gcv-cuda.h"

#include <string.h>

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_LOW_THRESHOLD,
  PROP_HIGH_THRESHOLD,
  PROP_BLUR_SIZE,
  PROP_BLUR_SIGMA,
  PROP_L2_GRADIENT,
  PROP_MODE,
  PROP_OVERLAY_COLOR,
  PROP_POST_MESSAGES,
};

#define DEFAULT_PROP_LOW_THRESHOLD 50.0
#define DEFAULT_PROP_HIGH_THRESHOLD 150.0
#define DEFAULT_PROP_BLUR_SIZE 5
#define DEFAULT_PROP_BLUR_SIGMA 1.4
#define DEFAULT_PROP_L2_GRADIENT FALSE
#define DEFAULT_PROP_MODE GST_CUDA_VIDEO_CANNY_MODE_EDGES
#define DEFAULT_PROP_OVERLAY_COLOR 0xffff0000
#define MAX_THRESHOLD 100000.0

/* What a frame's device work leaves for complete (page-locked, one per
 * frame in flight): the edge count, when post-messages asked for it. */
typedef struct
{
  gboolean counted;
  guint64 edge_pixels;
} CannyResults;

#define CANNY_SINK_FORMATS "{ GRAY8, GRAY16_LE, I420, NV12, P010_10LE, Y444, Y42B, RGBA, BGRA, RGBx, BGRx }"
#define CANNY_SRC_FORMATS "{ GRAY8, GRAY16_LE, I420, NV12, P010_10LE, Y444, Y42B, RGBA, BGRA, RGBx, BGRx }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_VIDEO_CAPS_MAKE_MAX (CANNY_SINK_FORMATS, GCV_CANNY_MAX_DIMENSION)));
/* GRAY8 (or NV12) for edges / magnitude; the input format for overlay */
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (GST_CUDA_VIDEO_CAPS_MAKE_MAX (CANNY_SRC_FORMATS, GCV_CANNY_MAX_DIMENSION)));

GType
gst_cuda_video_canny_mode_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_CANNY_MODE_EDGES, "Edge map (GRAY8, or the luma of NV12): 255 on edges, 0 elsewhere",
        "edges"},
    {GST_CUDA_VIDEO_CANNY_MODE_MAGNITUDE,
          "Gradient magnitude / 4, before suppression and thresholds (GRAY8, or the luma of NV12)",
        "magnitude"},
    {GST_CUDA_VIDEO_CANNY_MODE_OVERLAY, "The input frame with the edges painted in overlay-color",
        "overlay"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoCannyMode", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_canny_blur_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_CANNY_BLUR_NONE, "No blur (as cv::Canny)", "0"},
    {GST_CUDA_VIDEO_CANNY_BLUR_3, "3 x 3 Gaussian", "3"},
    {GST_CUDA_VIDEO_CANNY_BLUR_5, "5 x 5 Gaussian", "5"},
    {GST_CUDA_VIDEO_CANNY_BLUR_7, "7 x 7 Gaussian", "7"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoCannyBlur", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_canny_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoCanny, gst_cuda_video_canny, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_canny (GstPlugin * plugin)
{
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_CANNY, "canny",
      "Canny edge detector", "Filter/Effect/Video",
      "Canny edge detection (Gaussian blur, Sobel, non-maximum suppression, exact hysteresis)");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudacanny, register_canny);

static void gst_cuda_video_canny_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_canny_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstCaps *gst_cuda_video_canny_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static gboolean gst_cuda_video_canny_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error);
static void gst_cuda_video_canny_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_canny_process (GstCudaVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);
static GstFlowReturn gst_cuda_video_canny_complete (GstCudaVideoFilter * filter, GstBuffer * buffer,
    gpointer results);
static GstFlowReturn gst_cuda_video_canny_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * in, GstCudaVideoDeviceFrame * out);

static void
gst_cuda_video_canny_class_init (GstCudaVideoCannyClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;


  gobject_class->set_property = gst_cuda_video_canny_set_property;
  gobject_class->get_property = gst_cuda_video_canny_get_property;

  g_object_class_install_property (gobject_class, PROP_LOW_THRESHOLD,
      g_param_spec_double ("low-threshold", "Low threshold",
          "Gradient magnitude a suppressed-maximum pixel must exceed to be a weak edge, kept "
          "only when connected to a strong one (|dx|+|dy| units, or sqrt(dx^2+dy^2) with "
          "l2-gradient; must be <= high-threshold)",
          0.0, MAX_THRESHOLD, DEFAULT_PROP_LOW_THRESHOLD, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_HIGH_THRESHOLD,
      g_param_spec_double ("high-threshold", "High threshold",
          "Gradient magnitude a suppressed-maximum pixel must exceed to be a strong edge "
          "(must be >= low-threshold: the two are checked together at each frame)",
          0.0, MAX_THRESHOLD, DEFAULT_PROP_HIGH_THRESHOLD, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_BLUR_SIZE,
      g_param_spec_enum ("blur-size", "Blur size",
          "Gaussian blur aperture before the gradient: 0 (off, as cv::Canny), 3, 5 or 7",
          GST_TYPE_CUDA_VIDEO_CANNY_BLUR, DEFAULT_PROP_BLUR_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_BLUR_SIGMA,
      g_param_spec_double ("blur-sigma", "Blur sigma",
          "Gaussian standard deviation in pixels (0 = OpenCV's fixed kernel for blur-size, "
          "so the blur equals cv::GaussianBlur with sigma 0)",
          0.0, 100.0, DEFAULT_PROP_BLUR_SIGMA, rw | GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (gobject_class, PROP_L2_GRADIENT,
      g_param_spec_boolean ("l2-gradient", "L2 gradient",
          "Use the Euclidean gradient magnitude sqrt(dx^2+dy^2) instead of |dx|+|dy|",
          DEFAULT_PROP_L2_GRADIENT, rw));
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode", "What the element outputs (changing it renegotiates caps)",
          GST_TYPE_CUDA_VIDEO_CANNY_MODE, DEFAULT_PROP_MODE, rw));
  g_object_class_install_property (gobject_class, PROP_OVERLAY_COLOR,
      g_param_spec_uint ("overlay-color", "Overlay colour",
          "Edge colour for mode=overlay as 0xAARRGGBB; alpha is the opacity (0xff = opaque)",
          0, G_MAXUINT32, DEFAULT_PROP_OVERLAY_COLOR, rw | GST_PARAM_CONTROLLABLE));
  gst_cuda_video_filter_install_post_messages (gobject_class, PROP_POST_MESSAGES, "canny");

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_transform_caps);

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_teardown);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_process);
  filter_class->process_device = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_process_device);
  filter_class->complete = GST_DEBUG_FUNCPTR (gst_cuda_video_canny_complete);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CANNY, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CANNY_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CANNY_BLUR, 0);
}

static void
gst_cuda_video_canny_init (GstCudaVideoCanny * self)
{
  /* each frame stands alone: a late one may be dropped (QoS) */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  self->params.low_threshold = DEFAULT_PROP_LOW_THRESHOLD;
  self->params.high_threshold = DEFAULT_PROP_HIGH_THRESHOLD;
  self->params.blur_size = DEFAULT_PROP_BLUR_SIZE;
  self->params.blur_sigma = DEFAULT_PROP_BLUR_SIGMA;
  self->params.l2_gradient = DEFAULT_PROP_L2_GRADIENT;
  self->params.output = GCV_CANNY_OUTPUT_EDGES;
  self->mode = DEFAULT_PROP_MODE;
  self->overlay_color = DEFAULT_PROP_OVERLAY_COLOR;
}

static void
gst_cuda_video_canny_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (object);
  gboolean mode_changed = FALSE;

  /* any value the GParamSpec allows: the thresholds are checked together
   * where they are used (gstcudavideofilter.h: the settings policy) */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOW_THRESHOLD:
      self->params.low_threshold = g_value_get_double (value);
      break;
    case PROP_HIGH_THRESHOLD:
      self->params.high_threshold = g_value_get_double (value);
      break;
    case PROP_BLUR_SIZE:
      self->params.blur_size = g_value_get_enum (value);
      break;
    case PROP_BLUR_SIGMA:
      self->params.blur_sigma = g_value_get_double (value);
      break;
    case PROP_L2_GRADIENT:
      self->params.l2_gradient = g_value_get_boolean (value);
      break;
    case PROP_MODE:
      mode_changed = self->mode != (GstCudaVideoCannyMode) g_value_get_enum (value);
      self->mode = g_value_get_enum (value);
      break;
    case PROP_OVERLAY_COLOR:
      self->overlay_color = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      gst_cuda_video_filter_set_post_messages (GST_CUDA_VIDEO_FILTER (self), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (mode_changed)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

static void
gst_cuda_video_canny_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOW_THRESHOLD:
      g_value_set_double (value, self->params.low_threshold);
      break;
    case PROP_HIGH_THRESHOLD:
      g_value_set_double (value, self->params.high_threshold);
      break;
    case PROP_BLUR_SIZE:
      g_value_set_enum (value, self->params.blur_size);
      break;
    case PROP_BLUR_SIGMA:
      g_value_set_double (value, self->params.blur_sigma);
      break;
    case PROP_L2_GRADIENT:
      g_value_set_boolean (value, self->params.l2_gradient);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_OVERLAY_COLOR:
      g_value_set_uint (value, self->overlay_color);
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

/* The formats a map (edges / magnitude) comes out in, the preferred first:
 * GRAY8, and NV12 (the map as luma, chroma 128) for neighbours without
 * GRAY8: GStreamer's cudadownload and cudaconvert take none in any release
 * (1.22 to 1.28), nor do the hardware encoders. */
static const gchar *const map_formats[] = { "GRAY8", "NV12" };

static gboolean
is_map_format (GstVideoFormat fmt)
{
  return fmt == GST_VIDEO_FORMAT_GRAY8 || fmt == GST_VIDEO_FORMAT_NV12;
}

/* edges / magnitude: any sink format <-> a map format of the same size;
 * overlay: the same caps on both sides */
static GstCaps *
gst_cuda_video_canny_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (trans);
  GstCaps *result, *templ;
  GstCudaVideoCannyMode mode;
  guint i;

  GST_OBJECT_LOCK (self);
  mode = self->mode;
  GST_OBJECT_UNLOCK (self);

  result = gst_caps_copy (caps);
  if (mode != GST_CUDA_VIDEO_CANNY_MODE_OVERLAY) {
    GValue formats = G_VALUE_INIT;
    if (direction == GST_PAD_SINK) {
      GValue f = G_VALUE_INIT;
      g_value_init (&formats, GST_TYPE_LIST);
      g_value_init (&f, G_TYPE_STRING);
      for (i = 0; i < G_N_ELEMENTS (map_formats); i++) {
        g_value_set_static_string (&f, map_formats[i]);
        gst_value_list_append_value (&formats, &f);
      }
      g_value_unset (&f);
    } else {
      GstStructure *ts;
      templ = gst_static_pad_template_get_caps (&sink_template);
      ts = gst_caps_get_structure (templ, 0);
      g_value_init (&formats, GST_TYPE_LIST);
      g_value_copy (gst_structure_get_value (ts, "format"), &formats);
      gst_caps_unref (templ);
    }
    for (i = 0; i < gst_caps_get_size (result); i++) {
      GstStructure *s = gst_caps_get_structure (result, i);
      if (direction == GST_PAD_SRC) {
        const gchar *f = gst_structure_get_string (s, "format");
        /* only a map format can come out of edges / magnitude */
        if (f != NULL && !is_map_format (gst_video_format_from_string (f))) {
          gst_caps_remove_structure (result, i--);
          continue;
        }
      }
      gst_structure_remove_fields (s, "colorimetry", "chroma-site", NULL);
      gst_structure_set_value (s, "format", &formats);
    }
    g_value_unset (&formats);
  }
  return gst_cuda_video_filter_clip_caps (trans, direction, caps, result, filter);
}

/* The settings policy (gstcudavideofilter.h) for @params, the
 * properties' values: kept when usable, else replaced by the last usable
 * ones of the run (one warning), or FALSE when the run has none yet (at
 * setup with @error; before a frame the error is posted). */
static gboolean
apply_params (GstCudaVideoCanny * self, GcvCannyParams * params, GError ** error)
{
  const char *bad = gcv_canny_params_check (params);
  gchar *values = bad ? g_strdup_printf ("(low-threshold=%g, high-threshold=%g, blur-sigma=%g)",
      params->low_threshold, params->high_threshold, params->blur_sigma) : NULL;
  gboolean ok = gst_cuda_video_filter_apply_params (GST_CUDA_VIDEO_FILTER (self), params, sizeof (*params),
      "Canny edge detection", bad, values, error);

  g_free (values);
  return ok;
}

/* Whether frames of @in -> @out are painted (overlay) rather than turned
 * into a map: the negotiated formats decide, and mode only when both are
 * the same map format (a mode change between edges and overlay then keeps
 * the caps). */
static gboolean
is_overlay (GstVideoFormat in_fmt, GstVideoFormat out_fmt, GstCudaVideoCannyMode mode)
{
  if (!is_map_format (out_fmt))
    return TRUE;
  if (in_fmt != out_fmt)
    return FALSE;
  return mode == GST_CUDA_VIDEO_CANNY_MODE_OVERLAY;
}

/* The chroma plane of an NV12 map: neutral (128), so that the frame is the
 * map in grey. */
static void
neutral_chroma_rows (const GstVideoInfo * info, gsize * row_bytes, guint * rows)
{
  *row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, 1) * GST_VIDEO_INFO_COMP_PSTRIDE (info, 1);
  *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, 1);
}

static gboolean
gst_cuda_video_canny_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend, GError ** error)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (filter);
  const GstVideoInfo *in = &filter->in_info;
  gint w = GST_VIDEO_INFO_WIDTH (in), h = GST_VIDEO_INFO_HEIGHT (in);
  GcvError err = { GCV_OK, "" };

  GcvCannyParams params;

  if (!gst_cuda_video_filter_luma_input (in, &self->luma)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION, "unsupported format %s",
        GST_VIDEO_INFO_NAME (in));
    return FALSE;
  }
  /* the element cannot start with thresholds it cannot use; a
   * renegotiation (mode, new caps) keeps the last usable ones */
  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);
  if (!apply_params (self, &params, error))
    return FALSE;
  if (backend == GST_CUDA_VIDEO_BACKEND_CPU) {
    self->mask = g_try_malloc ((gsize) w * h);
    if (self->mask == NULL) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
          "out of host memory for a %dx%d edge map", w, h);
      return FALSE;
    }
    self->cpu = gcv_canny_cpu_new (self->luma, w, h, &err);
    if (self->cpu == NULL)
      return gst_cuda_video_filter_set_error (error, &err);
    gcv_canny_cpu_set_cancel (self->cpu, gst_cuda_video_filter_get_cancel (filter));
    return TRUE;
  }
  self->cuda = gcv_canny_cuda_new (self->luma, w, h, &err);
  if (self->cuda == NULL)
    return gst_cuda_video_filter_set_error (error, &err);
  /* the edge map reads the luma plane alone; overlay copies every plane */
  if (GST_VIDEO_INFO_FORMAT (&filter->out_info) == GST_VIDEO_FORMAT_GRAY8)
    gst_cuda_video_filter_set_device_planes (filter, 1, 1);
  gst_cuda_video_filter_set_results_size (filter, sizeof (CannyResults));
  return gst_cuda_video_filter_device_alloc (filter, w, h, &self->dev_mask, w, error)
      && gst_cuda_video_filter_device_alloc (filter, sizeof (guint64), 1, &self->dev_count, 1, error);
}

static void
gst_cuda_video_canny_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (filter);

  gcv_canny_cpu_free (self->cpu);
  self->cpu = NULL;
  gcv_canny_cuda_free (self->cuda);
  self->cuda = NULL;
  g_free (self->mask);
  self->mask = NULL;
}

/* The settings of one frame, taken under the object lock: the params with
 * the output the negotiated formats and mode ask for (*@overlay: whether
 * the edges are painted on the frame); an unusable combination of
 * thresholds is warned about and the last usable one kept. */
static gboolean
frame_settings (GstCudaVideoCanny * self, GstVideoFormat in_fmt, GstVideoFormat out_fmt,
    GcvCannyParams * params, guint32 * color, gboolean * overlay)
{
  GstCudaVideoCannyMode mode;

  GST_OBJECT_LOCK (self);
  *params = self->params;
  mode = self->mode;
  *color = self->overlay_color;
  GST_OBJECT_UNLOCK (self);

  if (!apply_params (self, params, NULL))
    return FALSE;
  *overlay = is_overlay (in_fmt, out_fmt, mode);
  params->output = !*overlay && mode == GST_CUDA_VIDEO_CANNY_MODE_MAGNITUDE ?
      GCV_CANNY_OUTPUT_MAGNITUDE : GCV_CANNY_OUTPUT_EDGES;
  return TRUE;
}

/* Posts the "canny" message of a frame with @edge_pixels edges. */
static void
post_edges (GstCudaVideoCanny * self, GstBuffer * buffer, guint64 edge_pixels)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);

  gst_cuda_video_filter_post_results (filter, buffer, gst_structure_new ("canny",
          "edge-pixels", G_TYPE_UINT64, edge_pixels,
          "pixels", G_TYPE_UINT64, (guint64) GST_VIDEO_INFO_WIDTH (&filter->in_info)
          * GST_VIDEO_INFO_HEIGHT (&filter->in_info), NULL));
}

static GstFlowReturn
gst_cuda_video_canny_process (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (filter);
  const gint w = GST_VIDEO_FRAME_WIDTH (in_frame), h = GST_VIDEO_FRAME_HEIGHT (in_frame);
  GcvCannyParams params;
  guint32 color;
  gboolean overlay;
  GcvPlane in, out;
  GcvError err = { GCV_OK, "" };

  if (!frame_settings (self, GST_VIDEO_FRAME_FORMAT (in_frame), GST_VIDEO_FRAME_FORMAT (out_frame), &params,
          &color, &overlay))
    return GST_FLOW_ERROR;
  in.data = GST_VIDEO_FRAME_PLANE_DATA (in_frame, 0);
  in.width = w;
  in.height = h;
  in.stride = GST_VIDEO_FRAME_PLANE_STRIDE (in_frame, 0);
  out.width = w;
  out.height = h;
  if (overlay) {
    out.data = self->mask;
    out.stride = w;
  } else {
    out.data = GST_VIDEO_FRAME_PLANE_DATA (out_frame, 0);
    out.stride = GST_VIDEO_FRAME_PLANE_STRIDE (out_frame, 0);
  }
  if (gcv_canny_cpu_process (self->cpu, &params, &in, &out, gst_cuda_video_filter_get_n_threads (filter),
          &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Canny edge detection", &err);
  if (params.output == GCV_CANNY_OUTPUT_EDGES && gst_cuda_video_filter_get_post_messages (filter))
    post_edges (self, out_frame->buffer, gcv_overlay_count (&out, 0xff));
  if (overlay) {
    if (!gst_video_frame_copy (out_frame, in_frame)) {
      GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not copy the frame for the overlay"), (NULL));
      return GST_FLOW_ERROR;
    }
    gst_cuda_video_filter_paint_mask (out_frame, &out, color);
  } else if (GST_VIDEO_FRAME_N_PLANES (out_frame) > 1) {
    gsize row;
    guint rows, y;
    neutral_chroma_rows (&out_frame->info, &row, &rows);
    for (y = 0; y < rows; y++)
      memset ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out_frame, 1) + y * GST_VIDEO_FRAME_PLANE_STRIDE (out_frame,
              1), 128, row);
  }
  return GST_FLOW_OK;
}

/* The same on the GPU: the edge map into the output, or into the device
 * mask that is then painted on a copy of the input; with post-messages
 * its edges counted there, the count read back with the frame. */
static GstFlowReturn
gst_cuda_video_canny_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
    GstCudaVideoDeviceFrame * out)
{
  GstCudaVideoCanny *self = GST_CUDA_VIDEO_CANNY (filter);
  CannyResults *r = gst_cuda_video_filter_get_results (filter);
  gpointer stream = gst_cuda_video_filter_get_stream (filter);
  GcvCannyParams params;
  guint32 color;
  gboolean overlay;
  GcvPlane *edges;
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;

  if (!frame_settings (self, GST_VIDEO_INFO_FORMAT (in->info), GST_VIDEO_INFO_FORMAT (out->info), &params,
          &color, &overlay))
    return GST_FLOW_ERROR;
  edges = overlay ? &self->dev_mask : &out->planes[0];
  if (gcv_canny_cuda_process (self->cuda, &params, &in->planes[0], edges, stream, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Canny edge detection", &err);
  r->counted = params.output == GCV_CANNY_OUTPUT_EDGES && gst_cuda_video_filter_get_post_messages (filter);
  if (r->counted && gcv_overlay_cuda_count (edges, 0xff, self->dev_count.data, &r->edge_pixels, stream,
          &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Counting the edges", &err);
  if (overlay && (!gst_cuda_video_filter_copy_device_frame (filter, in, out, &error)
          || !gst_cuda_video_filter_paint_mask_device (filter, out, &self->dev_mask, 0xff, color, &error)))
    return gst_cuda_video_filter_post_error (filter, "Painting the edges", error);
  if (!overlay && GST_VIDEO_INFO_N_PLANES (out->info) > 1) {
    gsize row;
    guint rows;
    neutral_chroma_rows (out->info, &row, &rows);
    if (gcv_cuda_memset_2d (out->planes[1].data, out->planes[1].stride, 128, row, rows,
            gst_cuda_video_filter_get_stream (filter), &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "Filling the chroma of the NV12 map", &err);
  }
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_video_canny_complete (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results)
{
  CannyResults *r = results;

  if (r->counted)
    post_edges (GST_CUDA_VIDEO_CANNY (filter), buffer, r->edge_pixels);
  return GST_FLOW_OK;
}
