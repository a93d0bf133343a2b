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
 * SECTION:element-cudabsplinescale
 * @title: cudabsplinescale / cpubsplinescale
 * @short_description: exact cubic B-spline video scaling on the GPU (CUDA) and on the CPU
 *
 * Scales video to any size, up or down, with the interpolating cubic
 * B-spline: a prefilter (causal and anticausal IIR, pole sqrt(3) - 2, per
 * column and per row) turns the samples into B-spline coefficients, and a
 * separable 4x4 FIR evaluates the spline at each output pixel centre
 * (x_in = (x_out + 0.5) * in_width / out_width - 0.5), with mirrored
 * (half-sample symmetric) borders.  On float data the result is
 * scipy.ndimage.map_coordinates (order=3, mode='reflect') at the same
 * coordinates; method=catmull-rom, bilinear and nearest run through the same
 * code without the prefilter.  cudabsplinescale and cpubsplinescale give
 * identical output.
 *
 * Output width and height come from downstream caps, as with videoscale:
 * when only one is fixed the other is chosen to keep the display aspect
 * ratio (pixel-aspect-ratio included); when neither is, the size is kept and
 * the element passes buffers through untouched.  Every plane is scaled at
 * its own size (chroma planes of I420, NV12, ... included) and every channel
 * separately (alpha is not premultiplied).  16-bit samples are scaled as
 * 16-bit words; P010_10LE (the 10-bit output of hardware decoders, each word
 * the 10-bit value << 6; NV12's layout with 16-bit samples) comes out as
 * P010_10LE, every scaled word rounded to the nearest 10-bit code (min (v +
 * 32, 65535) & 0xffc0).
 *
 * With antialias=true (the default), downscaling by s = in / out > 1
 * stretches the kernel by s (phi(t / s) / s, weights normalised to sum 1):
 * a low-pass matched to the output's Nyquist frequency, so fine patterns
 * come out grey instead of as moire.  For bspline the stretched cubic
 * B-spline is applied to the prefiltered coefficients.  nearest is always
 * point sampling.
 *
 * Metas that describe the frame's geometry (regions of interest, the
 * motion metas of cudamotionest and cudavcm) are rescaled to the output
 * size by their transform function, as videoscale does.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=zone-plate kx2=20 ky2=20 kt=1 num-buffers=100 ! video/x-raw,width=640,height=360 ! cudabsplinescale ! video/x-raw,width=1920,height=1080 ! videoconvert ! autovideosink
 * ]| Upscales a zone plate 3x with the B-spline, on the GPU when there is one.
 * |[
 * gst-launch-1.0 filesrc location=tests/data/coffee.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! cpubsplinescale method=catmull-rom ! video/x-raw,width=400 ! pngenc ! filesink location=small.png
 * ]| Shrinks a photo to 400 pixels wide, height from the aspect ratio, on the CPU.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudabsplinescale.h"

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_METHOD,
  PROP_ANTIALIAS,
};

#define DEFAULT_PROP_METHOD GST_CUDA_VIDEO_SCALE_METHOD_BSPLINE
#define DEFAULT_PROP_ANTIALIAS TRUE
#define MAX_DIMENSION 32767

#define SCALE_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, P010_10LE, Y42B, Y444, RGBA, BGRA, RGBx, " \
  "BGRx, ARGB, ABGR }"
#define SCALE_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX (SCALE_FORMATS, GCV_SCALE_MAX_DIMENSION)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SCALE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SCALE_CAPS));

GType
gst_cuda_video_scale_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_SCALE_METHOD_BSPLINE,
        "Prefiltered cubic B-spline: the interpolating spline, sharpest", "bspline"},
    {GST_CUDA_VIDEO_SCALE_METHOD_CATMULL_ROM, "Catmull-Rom cubic (Keys, a = -0.5)", "catmull-rom"},
    {GST_CUDA_VIDEO_SCALE_METHOD_BILINEAR, "Bilinear", "bilinear"},
    {GST_CUDA_VIDEO_SCALE_METHOD_NEAREST, "Nearest neighbour", "nearest"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoScaleMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_bspline_scale_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoBsplineScale, gst_cuda_video_bspline_scale,
    GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_bspline_scale (GstPlugin * plugin)
{
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_BSPLINE_SCALE,
      "bsplinescale", "Cubic B-spline video scaler", "Filter/Converter/Video/Scaler",
      "Resizes video with the prefiltered cubic B-spline (or Catmull-Rom, bilinear, nearest)");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudabsplinescale, register_bspline_scale);

static void gst_cuda_video_bspline_scale_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_bspline_scale_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstCaps *gst_cuda_video_bspline_scale_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_video_bspline_scale_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_video_bspline_scale_setup (GstCudaVideoFilter * filter,
    GstCudaVideoBackend backend, GError ** error);
static void gst_cuda_video_bspline_scale_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_bspline_scale_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * in, GstCudaVideoDeviceFrame * out);
static GstFlowReturn gst_cuda_video_bspline_scale_process (GstCudaVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);

static void
gst_cuda_video_bspline_scale_class_init (GstCudaVideoBsplineScaleClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;


  gobject_class->set_property = gst_cuda_video_bspline_scale_set_property;
  gobject_class->get_property = gst_cuda_video_bspline_scale_get_property;

  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method",
          "Interpolation kernel: bspline is the true interpolating cubic spline (prefiltered); "
          "catmull-rom, bilinear and nearest filter the samples directly",
          GST_TYPE_CUDA_VIDEO_SCALE_METHOD, DEFAULT_PROP_METHOD, rw));
  g_object_class_install_property (gobject_class, PROP_ANTIALIAS,
      g_param_spec_boolean ("antialias", "Antialias",
          "When downscaling by s, stretch the kernel by s (phi(t/s)/s) so detail finer than "
          "the output can show is filtered out instead of aliasing (not for nearest)",
          DEFAULT_PROP_ANTIALIAS, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_fixate_caps);
  /* same size, same caps: nothing to do */
  trans_class->passthrough_on_same_caps = TRUE;

  filter_class->scales_frame = TRUE;
  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_teardown);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_process);
  filter_class->process_device = GST_DEBUG_FUNCPTR (gst_cuda_video_bspline_scale_process_device);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_BSPLINE_SCALE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_SCALE_METHOD, 0);
}

static void
gst_cuda_video_bspline_scale_init (GstCudaVideoBsplineScale * self)
{
  /* each frame stands alone: a late one may be dropped (QoS) */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  self->params.method = (GcvScaleMethod) DEFAULT_PROP_METHOD;
  self->params.antialias = DEFAULT_PROP_ANTIALIAS;
}

static void
gst_cuda_video_bspline_scale_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (object);

  /* both properties are fully described by their GParamSpec (an enum and a
   * boolean): GObject has refused anything else before we get here */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      self->params.method = (GcvScaleMethod) g_value_get_enum (value);
      break;
    case PROP_ANTIALIAS:
      self->params.antialias = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_video_bspline_scale_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, self->params.method);
      break;
    case PROP_ANTIALIAS:
      g_value_set_boolean (value, self->params.antialias);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Any size (and pixel aspect ratio) on the other side, same format.  The
 * unchanged caps come first, so that an unconstrained peer gets the input
 * size and the element passes through. */
static GstCaps *
gst_cuda_video_bspline_scale_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  return gst_cuda_video_filter_size_caps (trans, direction, caps, filter, 0, 0, TRUE);
}

/* round (v * num / den), at least 1 and at most MAX_DIMENSION */
static gint
scale_dimension (gint v, gint num, gint den)
{
  guint64 r = gst_util_uint64_scale_int_round (v, num, den);

  return (gint) CLAMP (r, 1, MAX_DIMENSION);
}

/* Fixes the output size the way videoscale does: keep the display aspect
 * ratio DAR = width * par_n / (height * par_d) of the input.  A fixed
 * downstream width (or height) wins and the other follows; with neither
 * fixed the input height is kept; with both fixed, or when downstream's
 * range cannot hold the size that keeps DAR, the pixel aspect ratio follows
 * when it is free. */
static GstCaps *
gst_cuda_video_bspline_scale_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstStructure *ins, *outs;
  gint from_w, from_h, from_par_n = 1, from_par_d = 1, to_par_n = 1, to_par_d = 1;
  gint dar_n, dar_d, w = 0, h = 0;
  gboolean w_fixed, h_fixed, par_free, size_kept = TRUE;
  const GValue *par;
  GValue par_range = G_VALUE_INIT;

  othercaps = gst_caps_make_writable (gst_caps_truncate (gst_cuda_video_filter_prefer_device (trans, othercaps)));
  ins = gst_caps_get_structure (caps, 0);
  outs = gst_caps_get_structure (othercaps, 0);

  if (!gst_structure_get_int (ins, "width", &from_w)
      || !gst_structure_get_int (ins, "height", &from_h))
    goto done;
  gst_structure_get_fraction (ins, "pixel-aspect-ratio", &from_par_n, &from_par_d);
  if (!gst_util_fraction_multiply (from_w, from_h, from_par_n, from_par_d, &dar_n, &dar_d)) {
    GST_WARNING_OBJECT (self, "display aspect ratio overflows; not keeping it");
    goto done;
  }

  w_fixed = gst_structure_get_int (outs, "width", &w);
  h_fixed = gst_structure_get_int (outs, "height", &h);
  par = gst_structure_get_value (outs, "pixel-aspect-ratio");

  if (w_fixed && h_fixed) {
    /* par = DAR * h / w, when downstream leaves it open */
    if (par && !gst_value_is_fixed (par)) {
      gint n, d;
      if (gst_util_fraction_multiply (dar_n, dar_d, h, w, &n, &d))
        gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", n, d);
      else
        gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", 1, 1);
    }
    goto done;
  }

  /* keep the input's pixel shape when downstream allows it */
  par_free = par != NULL && !gst_value_is_fixed (par);
  if (par_free) {
    g_value_init (&par_range, G_VALUE_TYPE (par));
    g_value_copy (par, &par_range);
    gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", from_par_n,
        from_par_d);
  }
  if (par) {
    gst_structure_get_fraction (outs, "pixel-aspect-ratio", &to_par_n, &to_par_d);
  } else {
    to_par_n = from_par_n;
    to_par_d = from_par_d;
  }

  {
    /* width / height = DAR / par_out */
    gint ratio_n, ratio_d, want;
    if (!gst_util_fraction_multiply (dar_n, dar_d, to_par_d, to_par_n, &ratio_n, &ratio_d)) {
      ratio_n = from_w;
      ratio_d = from_h;
    }
    if (w_fixed) {
      want = scale_dimension (w, ratio_d, ratio_n);
      gst_structure_fixate_field_nearest_int (outs, "height", want);
      gst_structure_get_int (outs, "height", &h);
      size_kept = h == want;
    } else if (h_fixed) {
      want = scale_dimension (h, ratio_n, ratio_d);
      gst_structure_fixate_field_nearest_int (outs, "width", want);
      gst_structure_get_int (outs, "width", &w);
      size_kept = w == want;
    } else {
      gst_structure_fixate_field_nearest_int (outs, "height", from_h);
      gst_structure_get_int (outs, "height", &h);
      want = scale_dimension (h, ratio_n, ratio_d);
      gst_structure_fixate_field_nearest_int (outs, "width", want);
      gst_structure_get_int (outs, "width", &w);
      size_kept = w == want;
    }
  }
  /* downstream's size range could not hold the aspect-keeping size: keep
   * the display aspect ratio with the pixel aspect ratio instead, as
   * videoscale does, when downstream leaves it open */
  if (par_free && !size_kept) {
    gint n, d;
    gst_structure_set_value (outs, "pixel-aspect-ratio", &par_range);
    if (gst_util_fraction_multiply (dar_n, dar_d, h, w, &n, &d))
      gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", n, d);
    else
      gst_structure_fixate_field_nearest_fraction (outs, "pixel-aspect-ratio", to_par_n, to_par_d);
  }

done:
  if (G_IS_VALUE (&par_range))
    g_value_unset (&par_range);
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (self, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* The plane's geometry: interleaved channels = pixel stride / sample size. */
static gboolean
plane_geometry (const GstVideoInfo * in, const GstVideoInfo * out, guint plane, GcvScaleGeometry * geom)
{
  gint comp = gst_cuda_video_filter_plane_samples (in, plane, &geom->type, &geom->channels);

  if (comp < 0)
    return FALSE;
  geom->in_width = GST_VIDEO_INFO_COMP_WIDTH (in, comp);
  geom->in_height = GST_VIDEO_INFO_COMP_HEIGHT (in, comp);
  geom->out_width = GST_VIDEO_INFO_COMP_WIDTH (out, comp);
  geom->out_height = GST_VIDEO_INFO_COMP_HEIGHT (out, comp);
  return TRUE;
}

static gboolean
gst_cuda_video_bspline_scale_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (filter);
  const GstVideoInfo *in = &filter->in_info, *out = &filter->out_info;
  GcvError err = { GCV_OK, "" };
  guint p;

  if (GST_VIDEO_INFO_FORMAT (in) != GST_VIDEO_INFO_FORMAT (out)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "input format %s and output format %s differ", GST_VIDEO_INFO_NAME (in),
        GST_VIDEO_INFO_NAME (out));
    return FALSE;
  }
  self->n_planes = 0;
  /* same size: buffers pass through, nothing to allocate */
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (filter)))
    return TRUE;

  GST_INFO_OBJECT (self, "%s %dx%d -> %dx%d on the %s", GST_VIDEO_INFO_NAME (in),
      GST_VIDEO_INFO_WIDTH (in), GST_VIDEO_INFO_HEIGHT (in), GST_VIDEO_INFO_WIDTH (out),
      GST_VIDEO_INFO_HEIGHT (out), backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "GPU" : "CPU");
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (in); p++) {
    GcvScaleGeometry geom;

    if (!plane_geometry (in, out, p, &geom)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "format %s: no component in plane %u", GST_VIDEO_INFO_NAME (in), p);
      return FALSE;
    }
    self->n_planes = p + 1;
    if (backend == GST_CUDA_VIDEO_BACKEND_CPU) {
      self->cpu[p] = gcv_scale_cpu_new (&geom, &err);
      if (self->cpu[p] == NULL)
        return gst_cuda_video_filter_set_error (error, &err);
      gcv_scale_cpu_set_cancel (self->cpu[p], gst_cuda_video_filter_get_cancel (filter));
      continue;
    }
    self->cuda[p] = gcv_scale_cuda_new (&geom, &err);
    if (self->cuda[p] == NULL)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

static void
gst_cuda_video_bspline_scale_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (filter);
  guint p;

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    gcv_scale_cpu_free (self->cpu[p]);
    self->cpu[p] = NULL;
    gcv_scale_cuda_free (self->cuda[p]);
    self->cuda[p] = NULL;
  }
  self->n_planes = 0;
}

static GstFlowReturn
gst_cuda_video_bspline_scale_process (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (filter);
  GcvScaleParams params;
  GcvPlane in[GST_VIDEO_MAX_PLANES], out[GST_VIDEO_MAX_PLANES];
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  gint n_threads = gst_cuda_video_filter_get_n_threads (filter);
  guint p;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);

  gst_cuda_video_filter_frame_planes (in_frame, self->n_planes, in);
  gst_cuda_video_filter_frame_planes (out_frame, self->n_planes, out);
  for (p = 0; p < self->n_planes; p++)
    if (gcv_scale_cpu_process (self->cpu[p], &params, &in[p], &out[p], n_threads, &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "B-spline scaling", &err);
  if (!gst_cuda_video_filter_round_to_format (filter, out_frame, GST_CUDA_VIDEO_ALL_PLANES, &error))
    return gst_cuda_video_filter_post_error (filter, "B-spline scaling", error);
  return GST_FLOW_OK;
}

/* Each plane on its own (chroma planes are images of their own size). */
static GstFlowReturn
gst_cuda_video_bspline_scale_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
    GstCudaVideoDeviceFrame * out)
{
  GstCudaVideoBsplineScale *self = GST_CUDA_VIDEO_BSPLINE_SCALE (filter);
  GcvScaleParams params;
  GcvError err = { GCV_OK, "" };
  GError *error = NULL;
  guint p;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);

  for (p = 0; p < self->n_planes; p++)
    if (gcv_scale_cuda_process (self->cuda[p], &params, &in->planes[p], &out->planes[p],
            gst_cuda_video_filter_get_stream (filter), &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "B-spline scaling", &err);
  if (!gst_cuda_video_filter_round_to_format_device (filter, out, GST_CUDA_VIDEO_ALL_PLANES, &error))
    return gst_cuda_video_filter_post_error (filter, "B-spline scaling", error);
  return GST_FLOW_OK;
}
