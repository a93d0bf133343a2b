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
 * SECTION:element-cudaconv3d
 * @title: cudaconv3d / cpuconv3d
 * @short_description: spatio-temporal (x, y, t) 3-D convolution of video on the GPU (CUDA) and on the CPU
 *
 * Convolves video with a general, non-separable 3-D kernel over space and
 * time: out[x, y, t] = sum K[i, j, l] * in[x + rx - i, y + ry - j, t + rt - l]
 * for a kernel of size x size x temporal-size taps (rx, ry, rt the radii).
 * The kernel is a Gaussian, a box, a drifting spatio-temporal Gabor (tuned
 * to patterns along `orientation` moving at `speed` pixels per frame), or
 * your own coefficients (`coefficients`, or a text file in `kernel-file`).
 * Sums are in float; the output is scale * sum (made absolute with
 * `absolute`) + offset, rounded and clamped once.
 *
 * One output frame comes out per input frame, centred: output frame t uses
 * input frames t - rt .. t + rt, so the element holds rt frames back (its
 * latency, reported in the LATENCY query) and output buffers carry the
 * timestamps of the centre frame.  At EOS, before new caps and before a
 * new segment or stream the held frames are drained, so as many frames
 * come out as went in; before the first and after the last frame, `border`
 * extends the video in time as it does in space.  Other events (GAP, tags)
 * wait behind the held frames and leave in order with them.  A FLUSH
 * forgets the history.  Alpha (and the x of RGBx)
 * is not filtered but delayed with the frame it belongs to; with
 * planes=luma only Y of YUV formats is filtered and chroma is delayed.
 *
 * 16-bit samples are filtered as 16-bit words (offset is in those units):
 * GRAY16_LE, and P010_10LE (the 10-bit output of hardware decoders, each
 * word the 10-bit value << 6; NV12's layout, the chroma plane's U and V
 * filtered each on its own), whose filtered words are then rounded to the
 * nearest 10-bit code (min (v + 32, 65535) & 0xffc0); delayed planes keep
 * their words as they came.
 *
 * Five algorithms compute the same convolution (paper: "Case study: 3-D
 * convolution"): baseline, shared, streaming (direct), fft3d and
 * fft-hybrid (cuFFT on the GPU, loaded at run time; FFTW3 on the CPU).
 * algorithm=auto picks the fastest for the frame and kernel size from a
 * model calibrated on measurements and logs its choice (also readable in
 * `selected-algorithm`).  Kernel values (sigmas, Gabor parameters,
 * coefficients, scale, offset, absolute) may change while playing; a new
 * size, border, algorithm or planes drains the held frames and restarts the
 * history with the new kernel.  A kernel that cannot be used (coefficients
 * that do not match size x temporal-size, an all-zero kernel to
 * normalise) stops the element at start; set while playing it is one
 * warning and the kernel in force stays, new caps included.
 *
 * QoS is off by default: every output frame is a weighted sum over
 * temporal-size input frames, so a dropped input would change the frames
 * around it.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=120 ! video/x-raw,format=GRAY8,width=640,height=480 ! cudaconv3d size=7 ! videoconvert ! autovideosink
 * ]| Smooths the video with a 7 x 7 x 7 Gaussian in space and time (motion blur trails), on the GPU when there is one.
 * |[
 * gst-launch-1.0 videotestsrc pattern=ball num-buffers=120 ! video/x-raw,format=GRAY8,width=640,height=480 ! cpuconv3d kernel=gabor size=15 temporal-size=7 wavelength=10 orientation=0 speed=2 absolute=true scale=2 ! videoconvert ! pngenc ! multifilesink location=gabor-%03d.png
 * ]| The energy of a Gabor filter tuned to vertical edges moving right at 2 pixels per frame, on the CPU.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gstcudaconv3d.h"

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

static void
stamp_free (gpointer data)
{
  GstCudaVideoConv3dStamp *stamp = data;

  gst_clear_buffer (&stamp->metas);
  g_free (stamp);
}

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_SIZE,
  PROP_TEMPORAL_SIZE,
  PROP_SIGMA,
  PROP_TEMPORAL_SIGMA,
  PROP_WAVELENGTH,
  PROP_ORIENTATION,
  PROP_SPEED,
  PROP_COEFFICIENTS,
  PROP_KERNEL_FILE,
  PROP_NORMALIZE,
  PROP_SCALE,
  PROP_OFFSET,
  PROP_ABSOLUTE,
  PROP_BORDER,
  PROP_ALGORITHM,
  PROP_PLANES,
  PROP_SELECTED_ALGORITHM,
};

#define DEFAULT_PROP_KERNEL GCV_CONV3D_KERNEL_GAUSSIAN
#define DEFAULT_PROP_SIZE 5
#define DEFAULT_PROP_TEMPORAL_SIZE 0
#define DEFAULT_PROP_SIGMA 0.0
#define DEFAULT_PROP_TEMPORAL_SIGMA 0.0
#define DEFAULT_PROP_WAVELENGTH 8.0
#define DEFAULT_PROP_ORIENTATION 0.0
#define DEFAULT_PROP_SPEED 0.0
#define DEFAULT_PROP_NORMALIZE TRUE
#define DEFAULT_PROP_SCALE 1.0
#define DEFAULT_PROP_OFFSET 0.0
#define DEFAULT_PROP_ABSOLUTE FALSE
#define DEFAULT_PROP_BORDER GCV_CONV3D_BORDER_MIRROR
#define DEFAULT_PROP_ALGORITHM GCV_CONV3D_AUTO
#define DEFAULT_PROP_PLANES GST_CUDA_VIDEO_CONV3D_PLANES_ALL

#define CONV3D_FORMATS "{ GRAY8, GRAY16_LE, I420, NV12, P010_10LE, Y444, RGBA, BGRA, RGBx, BGRx }"
#define CONV3D_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX (CONV3D_FORMATS, GCV_CONV3D_MAX_DIMENSION)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CONV3D_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CONV3D_CAPS));

GType
gst_cuda_video_conv3d_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_CONV3D_KERNEL_GAUSSIAN, "Gaussian in x, y (sigma) and t (temporal-sigma)", "gaussian"},
    {GCV_CONV3D_KERNEL_BOX, "Box: every tap equal", "box"},
    {GCV_CONV3D_KERNEL_GABOR, "Spatio-temporal Gabor: a grating along orientation drifting at speed, "
          "zero mean", "gabor"},
    {GCV_CONV3D_KERNEL_CUSTOM, "Custom: the coefficients property or kernel-file", "custom"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoConv3dKernel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_conv3d_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_CONV3D_BORDER_ZERO, "Zero outside the frame and before/after the stream", "zero"},
    {GCV_CONV3D_BORDER_REPLICATE, "Replicate the edge pixel / the first and last frame", "replicate"},
    {GCV_CONV3D_BORDER_MIRROR, "Mirror (half-sample symmetric) in space and time", "mirror"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoConv3dBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_conv3d_algorithm_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GCV_CONV3D_AUTO, "Fastest for the size and backend (calibrated model)", "auto"},
    {GCV_CONV3D_BASELINE, "Direct, every tap read from memory", "baseline"},
    {GCV_CONV3D_SHARED, "Direct, input tile staged in shared memory / cache", "shared"},
    {GCV_CONV3D_STREAMING, "Direct, slices streamed with partial sums in registers", "streaming"},
    {GCV_CONV3D_FFT3D, "3-D FFT of the frame window (cuFFT / FFTW)", "fft3d"},
    {GCV_CONV3D_FFT_HYBRID, "2-D FFT per frame, complex 1-D convolution in time (cuFFT / FFTW)",
        "fft-hybrid"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoConv3dAlgorithm", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_conv3d_planes_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_CONV3D_PLANES_ALL, "Every colour component (alpha is only delayed)", "all"},
    {GST_CUDA_VIDEO_CONV3D_PLANES_LUMA, "Only Y of YUV formats, chroma delayed unfiltered "
          "(same as all for GRAY and RGB)", "luma"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoConv3dPlanes", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_conv3d_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoConv3d, gst_cuda_video_conv3d, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_conv3d (GstPlugin * plugin)
{
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_CONV3D,
      "conv3d", "Spatio-temporal 3-D convolution", "Filter/Effect/Video",
      "Convolves video with a non-separable x, y, t kernel (Gaussian, box, Gabor or custom)");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudaconv3d, register_conv3d);

static void gst_cuda_video_conv3d_finalize (GObject * object);
static void gst_cuda_video_conv3d_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_conv3d_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstCaps *gst_cuda_video_conv3d_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static gboolean gst_cuda_video_conv3d_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error);
static void gst_cuda_video_conv3d_teardown (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_conv3d_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * in, GstCudaVideoDeviceFrame * out);
static GstFlowReturn gst_cuda_video_conv3d_process (GstCudaVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);
static void gst_cuda_video_conv3d_reset (GstCudaVideoFilter * filter);
static GstFlowReturn gst_cuda_video_conv3d_drain (GstCudaVideoFilter * filter);
static guint gst_cuda_video_conv3d_latency_frames (GstCudaVideoFilter * filter);
static guint gst_cuda_video_conv3d_held_frames (GstCudaVideoFilter * filter);
static gboolean gst_cuda_video_conv3d_stop (GstBaseTransform * trans);

static void
gst_cuda_video_conv3d_class_init (GstCudaVideoConv3dClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags live = rw | GST_PARAM_CONTROLLABLE;


  gobject_class->finalize = gst_cuda_video_conv3d_finalize;
  gobject_class->set_property = gst_cuda_video_conv3d_set_property;
  gobject_class->get_property = gst_cuda_video_conv3d_get_property;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel", "The 3-D kernel: a formula, or custom coefficients",
          GST_TYPE_CUDA_VIDEO_CONV3D_KERNEL, DEFAULT_PROP_KERNEL, rw));
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size", "Taps in x and y (odd, 1 .. 31); also in t when "
          "temporal-size is 0. A new size drains the held frames and restarts the history",
          1, GCV_CONV3D_MAX_SIZE, DEFAULT_PROP_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_SIZE,
      g_param_spec_int ("temporal-size", "Temporal size", "Taps in t (odd, 1 .. 31; 0 = size). "
          "The element holds (temporal-size - 1) / 2 frames back", 0, GCV_CONV3D_MAX_SIZE,
          DEFAULT_PROP_TEMPORAL_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma", "Spatial standard deviation of the Gaussian and of "
          "the Gabor envelope, pixels (0 = from size: 0.3 * ((size - 1) / 2 - 1) + 0.8)",
          0.0, 1000.0, DEFAULT_PROP_SIGMA, live));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_SIGMA,
      g_param_spec_double ("temporal-sigma", "Temporal sigma", "Temporal standard deviation, "
          "frames (0 = from the temporal size, same rule)", 0.0, 1000.0,
          DEFAULT_PROP_TEMPORAL_SIGMA, live));
  g_object_class_install_property (gobject_class, PROP_WAVELENGTH,
      g_param_spec_double ("wavelength", "Wavelength", "Gabor: period of the carrier, pixels",
          0.5, 1000.0, DEFAULT_PROP_WAVELENGTH, live));
  g_object_class_install_property (gobject_class, PROP_ORIENTATION,
      g_param_spec_double ("orientation", "Orientation", "Gabor: direction across the carrier's "
          "stripes, degrees (0 = along +x: vertical stripes; 90 = along +y)", -360.0, 360.0,
          DEFAULT_PROP_ORIENTATION, live));
  g_object_class_install_property (gobject_class, PROP_SPEED,
      g_param_spec_double ("speed", "Speed", "Gabor: the motion the filter is tuned to, pixels per "
          "frame along the orientation (0 = static patterns)", -64.0, 64.0, DEFAULT_PROP_SPEED,
          live));
  g_object_class_install_property (gobject_class, PROP_COEFFICIENTS,
      gst_param_spec_array ("coefficients", "Coefficients", "kernel=custom: size * size * "
          "temporal-size floats, x fastest, then y, then t (e.g. \"<0.25, 0.5, 0.25>\" with "
          "size=3 temporal-size=1 would need 9)",
          g_param_spec_float ("coefficient", "Coefficient", "One kernel tap", -G_MAXFLOAT,
              G_MAXFLOAT, 0.0f, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS), rw));
  g_object_class_install_property (gobject_class, PROP_KERNEL_FILE,
      g_param_spec_string ("kernel-file", "Kernel file", "kernel=custom: a text file of size * "
          "size * temporal-size numbers (white space or commas, # comments), read when set; "
          "it replaces the coefficients", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_NORMALIZE,
      g_param_spec_boolean ("normalize", "Normalize", "Divide the kernel by its sum (flat areas "
          "keep their level); a zero-sum kernel (Gabor) by the sum of its positive taps",
          DEFAULT_PROP_NORMALIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SCALE,
      g_param_spec_double ("scale", "Scale", "Output = scale * sum (then absolute, then + offset)",
          -1e6, 1e6, DEFAULT_PROP_SCALE, live));
  g_object_class_install_property (gobject_class, PROP_OFFSET,
      g_param_spec_double ("offset", "Offset", "Added to the output (e.g. 128 to view a signed "
          "result)", -1e6, 1e6, DEFAULT_PROP_OFFSET, live));
  g_object_class_install_property (gobject_class, PROP_ABSOLUTE,
      g_param_spec_boolean ("absolute", "Absolute", "Output |scale * sum| + offset: the magnitude "
          "of a signed (e.g. Gabor) response", DEFAULT_PROP_ABSOLUTE, rw));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border", "How the video is extended past its edges and "
          "before the first / after the last frame", GST_TYPE_CUDA_VIDEO_CONV3D_BORDER,
          DEFAULT_PROP_BORDER, rw));
  g_object_class_install_property (gobject_class, PROP_ALGORITHM,
      g_param_spec_enum ("algorithm", "Algorithm", "How the convolution is computed (all give "
          "the same result within float rounding)", GST_TYPE_CUDA_VIDEO_CONV3D_ALGORITHM,
          DEFAULT_PROP_ALGORITHM, rw));
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_enum ("planes", "Planes", "Which components are filtered",
          GST_TYPE_CUDA_VIDEO_CONV3D_PLANES, DEFAULT_PROP_PLANES, rw));
  g_object_class_install_property (gobject_class, PROP_SELECTED_ALGORITHM,
      g_param_spec_enum ("selected-algorithm", "Selected algorithm", "The algorithm running on "
          "the first plane (what auto chose); auto before the caps are set",
          GST_TYPE_CUDA_VIDEO_CONV3D_ALGORITHM, GCV_CONV3D_AUTO,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_transform_caps);

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_teardown);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_process);
  filter_class->process_device = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_process_device);
  filter_class->reset = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_reset);
  filter_class->drain = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_drain);
  filter_class->latency_frames = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_latency_frames);
  filter_class->held_frames = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_held_frames);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_conv3d_stop);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CONV3D, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CONV3D_KERNEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CONV3D_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CONV3D_ALGORITHM, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_CONV3D_PLANES, 0);
}

static void
gst_cuda_video_conv3d_init (GstCudaVideoConv3d * self)
{
  GstCudaVideoConv3dSettings *s = &self->settings;

  s->spec.type = DEFAULT_PROP_KERNEL;
  s->spec.sigma = DEFAULT_PROP_SIGMA;
  s->spec.temporal_sigma = DEFAULT_PROP_TEMPORAL_SIGMA;
  s->spec.wavelength = DEFAULT_PROP_WAVELENGTH;
  s->spec.orientation = DEFAULT_PROP_ORIENTATION;
  s->spec.speed = DEFAULT_PROP_SPEED;
  s->spec.normalize = DEFAULT_PROP_NORMALIZE;
  s->size = DEFAULT_PROP_SIZE;
  s->temporal_size = DEFAULT_PROP_TEMPORAL_SIZE;
  s->custom = g_array_new (FALSE, FALSE, sizeof (gfloat));
  s->scale = DEFAULT_PROP_SCALE;
  s->offset = DEFAULT_PROP_OFFSET;
  s->absolute = DEFAULT_PROP_ABSOLUTE;
  s->border = DEFAULT_PROP_BORDER;
  s->algorithm = DEFAULT_PROP_ALGORITHM;
  s->planes = DEFAULT_PROP_PLANES;
  self->selected = GCV_CONV3D_AUTO;
  self->serial = 1;
  g_queue_init (&self->stamps);
}

static void
gst_cuda_video_conv3d_finalize (GObject * object)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (object);

  g_array_unref (self->settings.custom);
  g_free (self->settings.kernel_file);
  g_free (self->coefficients);
  g_free (self->delay);
  g_queue_clear_full (&self->stamps, stamp_free);
  if (self->usable.custom)
    g_array_unref (self->usable.custom);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* The run is over: its last usable settings are forgotten (the next run
 * starts from the properties, an unusable kernel stopping it at start). */
static gboolean
gst_cuda_video_conv3d_stop (GstBaseTransform * trans)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (trans);
  gboolean ok = GST_BASE_TRANSFORM_CLASS (parent_class)->stop (trans);

  if (self->usable.custom)
    g_array_unref (self->usable.custom);
  self->usable.custom = NULL;
  self->have_usable = FALSE;
  return ok;
}

/* Reads a kernel file into @values; FALSE with @why set on failure. */
static gboolean
load_kernel_file (const gchar * path, GArray * values, gchar ** why)
{
  GcvError err = { GCV_OK, "" };
  const char *bad;
  char *text;
  size_t len;
  float *v;
  int n;

  /* 31^3 coefficients in text are well under this */
  if (gcv_read_settings_file (path, 4 << 20, "kernel file", &text, &len, &err) != GCV_OK) {
    *why = g_strdup (err.message);
    return FALSE;
  }
  bad = gcv_conv3d_kernel_parse (text, &v, &n);
  free (text);
  if (bad) {
    *why = g_strdup_printf ("%s: %s", path, bad);
    return FALSE;
  }
  g_array_set_size (values, 0);
  g_array_append_vals (values, v, n);
  free (v);
  return TRUE;
}

static void
gst_cuda_video_conv3d_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (object);
  GstCudaVideoConv3dSettings *s = &self->settings;
  gchar *why = NULL;
  gint k;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      s->spec.type = g_value_get_enum (value);
      break;
    case PROP_SIZE:
      k = g_value_get_int (value);
      if (k % 2 == 0)
        why = g_strdup_printf ("size must be odd (1, 3, ... 31), got %d", k);
      else
        s->size = k;
      break;
    case PROP_TEMPORAL_SIZE:
      k = g_value_get_int (value);
      if (k != 0 && k % 2 == 0)
        why = g_strdup_printf ("temporal-size must be odd (1, 3, ... 31) or 0, got %d", k);
      else
        s->temporal_size = k;
      break;
    case PROP_SIGMA:
      s->spec.sigma = g_value_get_double (value);
      break;
    case PROP_TEMPORAL_SIGMA:
      s->spec.temporal_sigma = g_value_get_double (value);
      break;
    case PROP_WAVELENGTH:
      s->spec.wavelength = g_value_get_double (value);
      break;
    case PROP_ORIENTATION:
      s->spec.orientation = g_value_get_double (value);
      break;
    case PROP_SPEED:
      s->spec.speed = g_value_get_double (value);
      break;
    case PROP_COEFFICIENTS:{
      guint i, n = gst_value_array_get_size (value);
      GArray *v = g_array_sized_new (FALSE, FALSE, sizeof (gfloat), n);
      for (i = 0; i < n && !why; i++) {
        const GValue *e = gst_value_array_get_value (value, i);
        gdouble d = G_VALUE_HOLDS_FLOAT (e) ? g_value_get_float (e) :
            G_VALUE_HOLDS_DOUBLE (e) ? g_value_get_double (e) :
            G_VALUE_HOLDS_INT (e) ? g_value_get_int (e) : NAN;
        gfloat f = (gfloat) d;
        if (!isfinite (f))
          why = g_strdup_printf ("coefficient %u is not a finite number", i);
        g_array_append_val (v, f);
      }
      if (!why && n > GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE)
        why = g_strdup_printf ("%u coefficients: the largest kernel has %d", n,
            GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE);
      if (!why) {
        g_array_unref (s->custom);
        s->custom = v;
      } else {
        g_array_unref (v);
      }
      break;
    }
    case PROP_KERNEL_FILE:{
      const gchar *path = g_value_get_string (value);
      if (path && *path && !load_kernel_file (path, s->custom, &why))
        break;
      g_free (s->kernel_file);
      s->kernel_file = g_strdup (path);
      break;
    }
    case PROP_NORMALIZE:
      s->spec.normalize = g_value_get_boolean (value);
      break;
    case PROP_SCALE:
      s->scale = g_value_get_double (value);
      break;
    case PROP_OFFSET:
      s->offset = g_value_get_double (value);
      break;
    case PROP_ABSOLUTE:
      s->absolute = g_value_get_boolean (value);
      break;
    case PROP_BORDER:
      s->border = g_value_get_enum (value);
      break;
    case PROP_ALGORITHM:
      s->algorithm = g_value_get_enum (value);
      break;
    case PROP_PLANES:
      s->planes = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  if (!why)
    self->serial++;
  GST_OBJECT_UNLOCK (self);

  /* never silently change user input: the value is refused, the previous
   * one kept */
  if (why) {
    gst_cuda_video_filter_warn_rejected (GST_CUDA_VIDEO_FILTER (self), pspec, value, why);
    g_free (why);
  }
}

static void
gst_cuda_video_conv3d_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (object);
  GstCudaVideoConv3dSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      g_value_set_enum (value, s->spec.type);
      break;
    case PROP_SIZE:
      g_value_set_int (value, s->size);
      break;
    case PROP_TEMPORAL_SIZE:
      g_value_set_int (value, s->temporal_size);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, s->spec.sigma);
      break;
    case PROP_TEMPORAL_SIGMA:
      g_value_set_double (value, s->spec.temporal_sigma);
      break;
    case PROP_WAVELENGTH:
      g_value_set_double (value, s->spec.wavelength);
      break;
    case PROP_ORIENTATION:
      g_value_set_double (value, s->spec.orientation);
      break;
    case PROP_SPEED:
      g_value_set_double (value, s->spec.speed);
      break;
    case PROP_COEFFICIENTS:{
      guint i;
      for (i = 0; i < s->custom->len; i++) {
        GValue v = G_VALUE_INIT;
        g_value_init (&v, G_TYPE_FLOAT);
        g_value_set_float (&v, g_array_index (s->custom, gfloat, i));
        gst_value_array_append_and_take_value (value, &v);
      }
      break;
    }
    case PROP_KERNEL_FILE:
      g_value_set_string (value, s->kernel_file);
      break;
    case PROP_NORMALIZE:
      g_value_set_boolean (value, s->spec.normalize);
      break;
    case PROP_SCALE:
      g_value_set_double (value, s->scale);
      break;
    case PROP_OFFSET:
      g_value_set_double (value, s->offset);
      break;
    case PROP_ABSOLUTE:
      g_value_set_boolean (value, s->absolute);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, s->border);
      break;
    case PROP_ALGORITHM:
      g_value_set_enum (value, s->algorithm);
      break;
    case PROP_PLANES:
      g_value_set_enum (value, s->planes);
      break;
    case PROP_SELECTED_ALGORITHM:
      g_value_set_enum (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Same caps on both sides: the element filters, it does not convert. */
static GstCaps *
gst_cuda_video_conv3d_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  return gst_cuda_video_filter_clip_caps (trans, direction, caps, gst_caps_ref (caps), filter);
}

/* ---- kernel and contexts ------------------------------------------------ */

/* A snapshot of the settings (deep copy of the custom coefficients) and
 * the serial it belongs to. */
static guint
take_settings (GstCudaVideoConv3d * self, GstCudaVideoConv3dSettings * out)
{
  guint serial;

  GST_OBJECT_LOCK (self);
  *out = self->settings;
  out->custom = g_array_copy (self->settings.custom);
  out->kernel_file = NULL;
  serial = self->serial;
  GST_OBJECT_UNLOCK (self);
  return serial;
}

/* Builds the kernel of @s into a new array; NULL with @why set when the
 * settings cannot make one (custom coefficient count, a Gabor that cancels
 * out). */
static gfloat *
build_kernel (const GstCudaVideoConv3dSettings * s, gint * kx, gint * ky, gint * kt, gchar ** why)
{
  GcvConv3dKernelSpec spec = s->spec;
  const char *bad;
  gfloat *k;
  gint n;

  *kx = *ky = s->size;
  *kt = s->temporal_size ? s->temporal_size : s->size;
  n = *kx * *ky * *kt;
  k = g_new (gfloat, n);
  if (spec.type == GCV_CONV3D_KERNEL_CUSTOM) {
    if (s->custom->len == 0) {
      *why = g_strdup ("kernel=custom has no coefficients: set coefficients, or kernel-file to a "
          "file that can be read");
      g_free (k);
      return NULL;
    }
    if ((gint) s->custom->len != n) {
      *why = g_strdup_printf ("kernel=custom has %u coefficients, but size=%d and temporal-size=%d "
          "need %d x %d x %d = %d (x fastest, then y, then t)", s->custom->len, s->size, *kt, *kx,
          *ky, *kt, n);
      g_free (k);
      return NULL;
    }
    memcpy (k, s->custom->data, sizeof (gfloat) * n);
    if (spec.normalize && !gcv_conv3d_kernel_normalize (k, n)) {
      *why = g_strdup ("kernel=custom is zero everywhere: cannot normalise it (normalize=false "
          "keeps it as is)");
      g_free (k);
      return NULL;
    }
    return k;
  }
  spec.kx = *kx;
  spec.ky = *ky;
  spec.kt = *kt;
  bad = gcv_conv3d_kernel_build (&spec, k);
  if (bad) {
    *why = g_strdup (bad);
    g_free (k);
    return NULL;
  }
  return k;
}

/* Geometry of plane @p: interleaved channels = pixel stride / sample size;
 * the channels that are colour components (not alpha, not the padding
 * byte of RGBx) are filtered, luma only for planes=luma on YUV. */
static gboolean
plane_geometry (const GstVideoInfo * info, guint p, GstCudaVideoConv3dPlanes planes,
    GcvConv3dGeometry * g, gsize * row_bytes)
{
  gint comp, c, bytes;

  memset (g, 0, sizeof (*g));
  comp = gst_cuda_video_filter_plane_samples (info, p, &g->type, &g->channels);
  if (comp < 0)
    return FALSE;
  bytes = gcv_sample_bytes (g->type);
  g->width = GST_VIDEO_INFO_COMP_WIDTH (info, comp);
  g->height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  g->max_outputs = 1;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if ((guint) GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    if (GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A)
      continue;
    if (planes == GST_CUDA_VIDEO_CONV3D_PLANES_LUMA && GST_VIDEO_INFO_IS_YUV (info)
        && c != GST_VIDEO_COMP_Y)
      continue;
    g->filter_mask |= 1u << (gst_cuda_video_filter_comp_offset (info, c) / bytes);
  }
  *row_bytes = (gsize) g->width * g->channels * bytes;
  return TRUE;
}

static void
free_contexts (GstCudaVideoConv3d * self)
{
  guint p;

  for (p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    gcv_conv3d_cpu_free (self->cpu[p]);
    self->cpu[p] = NULL;
    gcv_conv3d_cuda_free (self->cuda[p]);
    self->cuda[p] = NULL;
  }
  self->n_planes = 0;
}

/* Makes one context per plane for the settings @s (kernel @k of kx x ky x
 * kt, already built).  The algorithm of each filtered plane is the
 * property's, or auto's choice for that plane's size; delayed-only planes
 * run the cheapest (baseline with a 1 x 1 x kt delta). */
static gboolean
make_contexts (GstCudaVideoConv3d * self, GstCudaVideoBackend backend,
    const GstCudaVideoConv3dSettings * s, gint kx, gint ky, gint kt, GError ** error)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  const GstVideoInfo *info = &filter->in_info;
  gboolean cuda = backend == GST_CUDA_VIDEO_BACKEND_CUDA;
  gint n_threads = gst_cuda_video_filter_get_n_threads (filter);
  GcvError err = { GCV_OK, "" };
  gboolean have_fft;
  guint p, old_latency;

  g_free (self->delay);
  self->delay = g_new0 (gfloat, kt);
  self->delay[kt / 2] = 1.0f;
  have_fft = cuda ? gcv_conv3d_cuda_have_fft (&err) : gcv_conv3d_cpu_have_fft ();
  if (cuda && !have_fft)
    GST_INFO_OBJECT (self, "FFT algorithms unavailable: %s", err.message);

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (info); p++) {
    GcvConv3dGeometry *g = &self->geom[p];
    GcvConv3dParams *prm = &self->params[p];
    gsize row;

    if (!plane_geometry (info, p, s->planes, g, &row)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "format %s: no component in plane %u", GST_VIDEO_INFO_NAME (info), p);
      return FALSE;
    }
    memset (prm, 0, sizeof (*prm));
    prm->kt = kt;
    prm->border = s->border;
    prm->scale = (float) s->scale;
    prm->offset = (float) s->offset;
    prm->absolute = s->absolute;
    if (g->filter_mask) {
      prm->kx = kx;
      prm->ky = ky;
      prm->coefficients = self->coefficients;
      prm->algorithm = s->algorithm;
      if (prm->algorithm == GCV_CONV3D_AUTO) {
        gchar why[256];
        prm->algorithm = gcv_conv3d_choose (cuda, g, prm, have_fft, why, sizeof (why));
        GST_INFO_OBJECT (self, "plane %u: algorithm auto picked %s", p, why);
      } else if (!have_fft && (prm->algorithm == GCV_CONV3D_FFT3D
              || prm->algorithm == GCV_CONV3D_FFT_HYBRID)) {
        g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT,
            "algorithm=%s needs %s, which this %s does not have%s%s",
            gcv_conv3d_algorithm_name (prm->algorithm), cuda ? "cuFFT" : "FFTW3",
            cuda ? "machine" : "build", cuda ? ": " : "", cuda ? err.message : "");
        return FALSE;
      }
    } else {
      prm->kx = prm->ky = 1;
      prm->coefficients = self->delay;
      prm->algorithm = GCV_CONV3D_BASELINE;
    }
    GST_DEBUG_OBJECT (self, "plane %u: %dx%d, %d channel(s), filter mask 0x%x, %s", p, g->width,
        g->height, g->channels, g->filter_mask, gcv_conv3d_algorithm_name (prm->algorithm));
    self->n_planes = p + 1;
    if (!cuda) {
      self->cpu[p] = gcv_conv3d_cpu_new (g, prm, n_threads, &err);
      if (!self->cpu[p])
        return gst_cuda_video_filter_set_error (error, &err);
      gcv_conv3d_cpu_set_cancel (self->cpu[p], gst_cuda_video_filter_get_cancel (filter));
      continue;
    }
    self->cuda[p] = gcv_conv3d_cuda_new (g, prm, gst_cuda_video_filter_get_stream (filter), &err);
    if (!self->cuda[p])
      return gst_cuda_video_filter_set_error (error, &err);
    gcv_conv3d_cuda_set_cancel (self->cuda[p], gst_cuda_video_filter_get_cancel (filter));
  }

  GST_OBJECT_LOCK (self);
  self->selected = self->params[0].algorithm;
  old_latency = self->latency;
  self->latency = kt / 2;
  GST_OBJECT_UNLOCK (self);
  if (old_latency != (guint) kt / 2)
    gst_element_post_message (GST_ELEMENT (self), gst_message_new_latency (GST_OBJECT (self)));
  return TRUE;
}

/* Keeps @s (a kernel was built from it) as the run's last usable
 * settings. */
static void
remember_usable (GstCudaVideoConv3d * self, const GstCudaVideoConv3dSettings * s)
{
  if (self->usable.custom)
    g_array_unref (self->usable.custom);
  self->usable = *s;
  self->usable.custom = g_array_ref (s->custom);
  self->usable.kernel_file = NULL;
  self->have_usable = TRUE;
}

/* Applies the settings of @serial: a new kernel of the same shape goes to
 * the running contexts (next _process); anything else (size, border,
 * algorithm, planes) makes new contexts, after the held frames of the old
 * ones were pushed. */
static GstFlowReturn
apply_settings (GstCudaVideoConv3d * self, gboolean first, GError ** error)
{
  GstCudaVideoFilter *filter = GST_CUDA_VIDEO_FILTER (self);
  GstCudaVideoConv3dSettings s;
  gchar *why = NULL;
  gint kx, ky, kt;
  guint serial = take_settings (self, &s), p;
  gfloat *k = build_kernel (&s, &kx, &ky, &kt, &why);
  gboolean reshape;

  if (!k) {
    gchar *bad = g_strdup_printf ("invalid 3-D kernel: %s", why);
    g_array_unref (s.custom);
    g_free (why);
    /* while playing the frames keep the kernel in force (the settings
     * policy, gstcudavideofilter.h): the next frame tries the settings
     * again, so a change in several properties applies once complete */
    if (!first && self->n_planes > 0) {
      gst_cuda_video_filter_settings_ok (filter, bad);
      g_free (bad);
      return GST_FLOW_OK;
    }
    /* at a renegotiation the run's last usable kernel goes on; only a run
     * that never had one cannot */
    if (!self->have_usable) {
      g_set_error_literal (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, bad);
      g_free (bad);
      return GST_FLOW_ERROR;
    }
    gst_cuda_video_filter_settings_ok (filter, bad);
    g_free (bad);
    s = self->usable;
    s.custom = g_array_ref (self->usable.custom);
    if ((k = build_kernel (&s, &kx, &ky, &kt, &why)) == NULL) {
      g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "invalid 3-D kernel: %s", why);
      g_array_unref (s.custom);
      g_free (why);
      return GST_FLOW_ERROR;
    }
  } else {
    gst_cuda_video_filter_settings_ok (filter, NULL);
  }
  remember_usable (self, &s);
  reshape = first || self->n_planes == 0;
  for (p = 0; p < self->n_planes && !reshape; p++) {
    const GcvConv3dParams *prm = &self->params[p];
    GcvConv3dGeometry g;
    gsize row;
    plane_geometry (&filter->in_info, p, s.planes, &g, &row);
    reshape = prm->kt != kt || prm->border != s.border || g.filter_mask != self->geom[p].filter_mask
        || s.algorithm != self->requested || (g.filter_mask && (prm->kx != kx || prm->ky != ky));
  }
  if (!reshape) {
    g_free (self->coefficients);
    self->coefficients = k;
    for (p = 0; p < self->n_planes; p++) {
      GcvConv3dParams *prm = &self->params[p];
      if (self->geom[p].filter_mask)
        prm->coefficients = k;
      prm->scale = (float) s.scale;
      prm->offset = (float) s.offset;
      prm->absolute = s.absolute;
    }
    self->applied_serial = serial;
    g_array_unref (s.custom);
    return GST_FLOW_OK;
  }

  if (!first && self->n_planes > 0) {
    GstFlowReturn ret;
    GST_INFO_OBJECT (self, "kernel shape, border, algorithm or planes changed: draining the held "
        "frames and restarting the history");
    ret = gst_cuda_video_conv3d_drain (filter);
    if (ret != GST_FLOW_OK) {
      g_free (k);
      g_array_unref (s.custom);
      return ret;
    }
  }
  free_contexts (self);
  g_queue_clear_full (&self->stamps, stamp_free);
  g_free (self->coefficients);
  self->coefficients = k;
  if (!make_contexts (self, gst_cuda_video_filter_get_backend (filter), &s, kx, ky, kt, error)) {
    g_array_unref (s.custom);
    free_contexts (self);
    return GST_FLOW_ERROR;
  }
  self->applied_serial = serial;
  self->requested = s.algorithm;
  g_array_unref (s.custom);
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_video_conv3d_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  const GstVideoInfo *in = &filter->in_info;

  GST_INFO_OBJECT (self, "%s %dx%d on the %s", GST_VIDEO_INFO_NAME (in), GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in), backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "GPU" : "CPU");
  /* the contexts (kernel-dependent) are made by apply_settings; a bad
   * kernel is reported now, with the caps, rather than at the first frame */
  return apply_settings (self, TRUE, error) == GST_FLOW_OK;
}

static void
gst_cuda_video_conv3d_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);

  free_contexts (self);
  g_queue_clear_full (&self->stamps, stamp_free);
}

static void
gst_cuda_video_conv3d_reset (GstCudaVideoFilter * filter)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  guint p;

  for (p = 0; p < self->n_planes; p++) {
    if (self->cpu[p])
      gcv_conv3d_cpu_reset (self->cpu[p]);
    if (self->cuda[p])
      gcv_conv3d_cuda_reset (self->cuda[p]);
  }
  g_queue_clear_full (&self->stamps, stamp_free);
}

static guint
gst_cuda_video_conv3d_latency_frames (GstCudaVideoFilter * filter)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  GstCudaVideoConv3dSettings *s = &self->settings;
  guint frames;

  GST_OBJECT_LOCK (self);
  /* before the caps: what the properties will give */
  frames = self->n_planes ? self->latency : (guint) (s->temporal_size ? s->temporal_size : s->size) / 2;
  GST_OBJECT_UNLOCK (self);
  return frames;
}

/* The frames whose outputs are still to come: one stamp each. */
static guint
gst_cuda_video_conv3d_held_frames (GstCudaVideoFilter * filter)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);

  return g_queue_get_length (&self->stamps);
}

/* ---- streaming ---------------------------------------------------------- */

static gint
ready_outputs (GstCudaVideoConv3d * self)
{
  if (self->n_planes == 0)
    return 0;
  if (self->cpu[0])
    return gcv_conv3d_cpu_ready (self->cpu[0]);
  if (self->cuda[0])
    return gcv_conv3d_cuda_ready (self->cuda[0]);
  return 0;
}

/* Computes the next output (ready_outputs () > 0) into the output frame
 * (host on the CPU, device on the GPU) and gives it the timestamps of its
 * centre frame. */
static GstFlowReturn
render_next (GstCudaVideoFilter * filter, GstVideoFrame * out_frame, GstCudaVideoDeviceFrame * out_dev,
    gpointer user_data)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  GcvPlane out[GST_VIDEO_MAX_PLANES];
  GcvError err = { GCV_OK, "" };
  GstCudaVideoConv3dStamp *stamp;
  GstBuffer *buf = out_frame ? out_frame->buffer : out_dev->buffer;
  GError *error = NULL;
  guint p, filtered = 0;

  for (p = 0; p < self->n_planes; p++)
    if (self->geom[p].filter_mask)
      filtered |= 1u << p;
  if (out_frame) {
    gst_cuda_video_filter_frame_planes (out_frame, self->n_planes, out);
    for (p = 0; p < self->n_planes; p++)
      if (gcv_conv3d_cpu_process (self->cpu[p], &self->params[p], 1, &out[p], &err) != GCV_OK)
        goto backend_error;
    if (!gst_cuda_video_filter_round_to_format (filter, out_frame, filtered, &error))
      goto round_error;
  } else {
    for (p = 0; p < self->n_planes; p++)
      if (gcv_conv3d_cuda_process (self->cuda[p], &self->params[p], 1, &out_dev->planes[p],
              gst_cuda_video_filter_get_stream (filter), &err) != GCV_OK)
        goto backend_error;
    if (!gst_cuda_video_filter_round_to_format_device (filter, out_dev, filtered, &error))
      goto round_error;
  }

  stamp = g_queue_pop_head (&self->stamps);
  if (stamp) {
    GST_BUFFER_PTS (buf) = stamp->pts;
    GST_BUFFER_DTS (buf) = stamp->dts;
    GST_BUFFER_DURATION (buf) = stamp->duration;
    GST_BUFFER_OFFSET (buf) = stamp->offset;
    GST_BUFFER_OFFSET_END (buf) = stamp->offset_end;
    gst_cuda_video_filter_copy_metas (filter, stamp->metas, buf);
    stamp_free (stamp);
  }
  return GST_FLOW_OK;

  /* ERRORS */
backend_error:
  return gst_cuda_video_filter_backend_failed (filter, "3-D convolution", &err);
round_error:
  return gst_cuda_video_filter_post_error (filter, "3-D convolution", error);
}

static GstFlowReturn
gst_cuda_video_conv3d_drain (GstCudaVideoFilter * filter)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  GstFlowReturn ret = GST_FLOW_OK;
  guint p;

  for (p = 0; p < self->n_planes; p++) {
    if (self->cpu[p])
      gcv_conv3d_cpu_end (self->cpu[p]);
    if (self->cuda[p])
      gcv_conv3d_cuda_end (self->cuda[p]);
  }
  GST_DEBUG_OBJECT (self, "draining %d held frame(s)", ready_outputs (self));
  while (ret == GST_FLOW_OK && ready_outputs (self) > 0)
    ret = gst_cuda_video_filter_push_output (filter, render_next, NULL);
  /* whatever happened, the history is over */
  gst_cuda_video_conv3d_reset (filter);
  return ret;
}

/* What every frame does first: new settings, the input's timestamps for
 * the output that will be centred on it. */
static GstFlowReturn
begin_frame (GstCudaVideoConv3d * self, GstBuffer * inbuf)
{
  GstCudaVideoConv3dStamp *stamp;
  GError *error = NULL;
  gboolean changed;

  GST_OBJECT_LOCK (self);
  changed = self->serial != self->applied_serial;
  GST_OBJECT_UNLOCK (self);
  if (changed) {
    GstFlowReturn ret = apply_settings (self, FALSE, &error);
    if (error)
      return gst_cuda_video_filter_post_error (GST_CUDA_VIDEO_FILTER (self), "Changing the 3-D kernel",
          error);
    if (ret != GST_FLOW_OK)
      return ret;
  }

  stamp = g_new (GstCudaVideoConv3dStamp, 1);
  stamp->pts = GST_BUFFER_PTS (inbuf);
  stamp->dts = GST_BUFFER_DTS (inbuf);
  stamp->duration = GST_BUFFER_DURATION (inbuf);
  stamp->offset = GST_BUFFER_OFFSET (inbuf);
  stamp->offset_end = GST_BUFFER_OFFSET_END (inbuf);
  stamp->metas = gst_buffer_new ();
  gst_buffer_copy_into (stamp->metas, inbuf, GST_BUFFER_COPY_META, 0, -1);
  g_queue_push_tail (&self->stamps, stamp);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_video_conv3d_process (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  GcvPlane in[GST_VIDEO_MAX_PLANES];
  GcvError err = { GCV_OK, "" };
  GstFlowReturn ret;
  guint p;

  if ((ret = begin_frame (self, in_frame->buffer)) != GST_FLOW_OK)
    return ret;
  gst_cuda_video_filter_frame_planes (in_frame, self->n_planes, in);
  for (p = 0; p < self->n_planes; p++)
    if (gcv_conv3d_cpu_push (self->cpu[p], &in[p], &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "3-D convolution", &err);
  if (ready_outputs (self) == 0)
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  return render_next (filter, out_frame, NULL, NULL);
}

/* The frame joins the history on the device (a copy: the input buffer may
 * go once that copy ran); an output comes once the history is full. */
static GstFlowReturn
gst_cuda_video_conv3d_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
    GstCudaVideoDeviceFrame * out)
{
  GstCudaVideoConv3d *self = GST_CUDA_VIDEO_CONV3D (filter);
  GcvError err = { GCV_OK, "" };
  GstFlowReturn ret;
  guint p;

  if ((ret = begin_frame (self, in->buffer)) != GST_FLOW_OK)
    return ret;
  for (p = 0; p < self->n_planes; p++)
    if (gcv_conv3d_cuda_push (self->cuda[p], &in->planes[p], gst_cuda_video_filter_get_stream (filter),
            &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "3-D convolution", &err);
  if (ready_outputs (self) == 0)
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  return render_next (filter, NULL, out, NULL);
}
