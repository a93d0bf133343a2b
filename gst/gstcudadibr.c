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
 * SECTION:element-cudadibr
 * @title: cudadibr / cpudibr
 * @short_description: depth-image-based rendering of virtual and stereo views from 2D-plus-depth video, on the GPU (CUDA) and on the CPU
 *
 * Synthesizes the view of a virtual camera from one colour + depth view
 * (2D-plus-depth video), after the "Synthesis example: depth image-based
 * rendering" of Park et al. ("Design and performance evaluation of image
 * processing algorithms on GPUs"): the depth is cleaned up by a median
 * filter (median-size) and the depth-colour bilateral filter DCBF
 * (dcbf-size, sigma-spatial, sigma-color), which fills unknown depth and
 * aligns depth edges with colour edges; colour and depth are warped to the
 * virtual camera with a z-buffer (the nearest point wins, ties resolved
 * deterministically), 1-pixel cracks are closed, and the disocclusion
 * holes are filled from their background side, so that every output pixel
 * has a colour.  cudadibr and cpudibr give identical frames.  cudadibr
 * uploads each frame as it is (by DMA straight from the buffer when it
 * lies in pinned memory, as from the buffer pool it proposes upstream)
 * and splits colour and depth on the GPU.
 *
 * Input (layout): side-by-side (colour in the left half, depth in the
 * right half: a 2W x H frame gives W x H views), top-bottom (colour above,
 * depth below: W x 2H) or alpha (the depth in the alpha channel).  Colour
 * formats RGBA, BGRA, RGBx, BGRx, with side-by-side or top-bottom I420
 * (the depth half's luma is the depth; the colour half is converted from
 * BT.601 limited range), and for 16-bit depth RGBA64_LE and BGRA64_LE
 * (every layout; the colour is reduced to 8 bits).  In the RGB formats
 * the depth half's red component is the depth (grey depth maps have R =
 * G = B: a GRAY16_LE depth plane through videoconvert or compositor).  The
 * depth value v is 8-bit (vmax 255) or, in the 16-bit formats, 16-bit
 * (vmax 65535): vmax is the nearest, at z-near, 0 the farthest, at z-far,
 * 1/Z linear in between (1/Z = v/vmax (1/z-near - 1/z-far) + 1/z-far);
 * with zero-is-unknown=true the value 0 means "no depth here" and is
 * filled by the clean-up.
 *
 * Cameras.  Simple mode: the source camera has focal-length pixels
 * (0 = the colour width, about 53 degrees horizontally) and its principal
 * point in the centre; the virtual camera is moved by baseline (z units)
 * to the right, and its image shifted so that points at the convergence
 * depth stay in place (convergence 0 = parallel cameras): a point at depth
 * Z moves by -focal-length * baseline * (1/Z - 1/convergence) pixels.  Full
 * mode: camera-file names a JSON file with the intrinsics and 4x4
 * world-to-camera extrinsics of the source and the virtual camera (the
 * virtual camera may be anywhere); it overrides the simple-mode properties
 * (and symmetric) when set.  A file that cannot be read or parsed, or
 * holds a value beyond the bounds the renderer can use (cx 1e300; the
 * bounds in docs/dibr.md), stops the element at start with an error
 * naming the file, line and column; set while playing, it is a warning
 * with the same text and the cameras in force stay.
 *
 * Output: virtual (the virtual view, W x H), stereo-side-by-side (2W x H)
 * or stereo-top-bottom (W x 2H) with the left view first, or anaglyph
 * (W x H, red from the left view, green and blue from the right).  The
 * left view is the source and the right the virtual view; with
 * symmetric=true (simple mode) both are synthesized, at -baseline/2 and
 * +baseline/2 (output=virtual then shows the right one).  The source
 * caps carry multiview-mode (mono, side-by-side or top-bottom, and
 * multiview-flags none), so GStreamer's 3-D elements (glviewconvert,
 * gl3dvideomixer ...) understand the stereo outputs.  The output format
 * is the input's, except that I420 input gives RGBA output (the
 * synthesized pixels are RGB; converting back would lose colour twice)
 * and RGBA64_LE / BGRA64_LE give RGBA / BGRA.
 * Alpha (RGBA / BGRA) is 255 in the output.  debug-output=depth shows
 * each synthesized view's depth in the input's depth coding as grey
 * (near = white); debug-output=holes paints the disocclusion holes
 * (pixels no source point reached) white over each view.  With a debug
 * output the source eye of a stereo output is also rendered (through the
 * source camera itself), so that its depth shows too.
 *
 * With post-messages=true each frame posts an element message "dibr":
 * "views" (guint, the views synthesized), "hole-pixels" (guint64, their
 * disocclusion holes before filling, all views together), "view-pixels"
 * (guint64, W x H of one view) and level's "timestamp", "stream-time",
 * "running-time" and "duration" (guint64).  On the GPU the holes are
 * counted there and only the counts come back.
 *
 * Every property may change while playing: layout and output renegotiate
 * the caps, camera-file is read again at the next frame, the others apply
 * to the next frame.  median-size and dcbf-size must be odd (other values
 * are refused with a warning); z-near must be smaller than z-far and
 * convergence 0 or at least z-near / 1000, checked together whatever the
 * order they are set in: when the element starts (a LIBRARY SETTINGS
 * error), and before every frame (one warning, and the frames go on with
 * the last usable settings).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=out/media/rgbd.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! imagefreeze num-buffers=1 ! cudadibr layout=side-by-side focal-length=600 z-near=2.5 z-far=14 baseline=0.1 convergence=3 ! videoconvert ! pngenc ! filesink location=virtual.png
 * ]| Synthesizes the view of a camera 0.1 units to the right from a colour | depth side-by-side picture.
 * |[
 * gst-launch-1.0 filesrc location=out/media/2dz.webm ! decodebin ! videoconvert ! video/x-raw,format=I420 ! cudadibr layout=top-bottom focal-length=600 z-near=2.5 z-far=14 output=anaglyph symmetric=true ! videoconvert ! autovideosink
 * ]| Red-cyan anaglyph of a top-bottom 2D-plus-depth video.
 * |[
 * gst-launch-1.0 filesrc location=out/media/2dz.webm ! decodebin ! videoconvert ! video/x-raw,format=RGBA ! cudadibr layout=top-bottom focal-length=600 z-near=2.5 z-far=14 output=stereo-side-by-side ! glupload ! glviewconvert output-mode-override=left ! glimagesink
 * ]| Full stereo pairs, for GStreamer's 3-D elements (the GL elements: gstreamer1.0-gl).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudadibr.h"
#include "gcv-cuda.h"
#include "overlay.h"

#include <math.h>
#include <string.h>

/* the element's own category, "cudaX" or "cpuX" (gstcudavideofilter.h) */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_LAYOUT,
  PROP_Z_NEAR,
  PROP_Z_FAR,
  PROP_ZERO_IS_UNKNOWN,
  PROP_FOCAL_LENGTH,
  PROP_BASELINE,
  PROP_CONVERGENCE,
  PROP_CAMERA_FILE,
  PROP_MEDIAN_SIZE,
  PROP_DCBF_SIZE,
  PROP_SIGMA_SPATIAL,
  PROP_SIGMA_COLOR,
  PROP_OUTPUT,
  PROP_SYMMETRIC,
  PROP_DEBUG_OUTPUT,
  PROP_POST_MESSAGES,
};

/* the numeric defaults are gcv_dibr_params_init()'s, except focal-length
 * (0 = the colour width) */
#define DEFAULT_PROP_LAYOUT GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE
#define DEFAULT_PROP_Z_NEAR 1.0
#define DEFAULT_PROP_Z_FAR 10.0
#define DEFAULT_PROP_ZERO_IS_UNKNOWN FALSE
#define DEFAULT_PROP_FOCAL_LENGTH 0.0
#define DEFAULT_PROP_BASELINE 0.06
#define DEFAULT_PROP_CONVERGENCE 3.0
#define DEFAULT_PROP_CAMERA_FILE NULL
#define DEFAULT_PROP_MEDIAN_SIZE 3
#define DEFAULT_PROP_DCBF_SIZE 11
#define DEFAULT_PROP_SIGMA_SPATIAL 3.0
#define DEFAULT_PROP_SIGMA_COLOR 12.0
#define DEFAULT_PROP_OUTPUT GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL
#define DEFAULT_PROP_SYMMETRIC FALSE
#define DEFAULT_PROP_DEBUG_OUTPUT GST_CUDA_VIDEO_DIBR_DEBUG_NONE

#define MAX_DIM 32767

/* What a frame's device work leaves for complete (page-locked, one per
 * frame in flight): with post-messages, the holes of each view rendered. */
typedef struct
{
  gboolean counted;
  guint views;
  guint64 holes[2];
} DibrResults;

#define SINK_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX ("{ RGBA, BGRA, RGBx, BGRx, I420, RGBA64_LE, BGRA64_LE }", \
    GCV_DIBR_MAX_DIMENSION)
#define SRC_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX ("{ RGBA, BGRA, RGBx, BGRx }", GCV_DIBR_MAX_DIMENSION)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SINK_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SRC_CAPS));

GType
gst_cuda_video_dibr_layout_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE, "Colour in the left half, depth in the right half",
        "side-by-side"},
    {GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM, "Colour in the top half, depth in the bottom half",
        "top-bottom"},
    {GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA, "RGBA / BGRA (or RGBA64_LE / BGRA64_LE) with the depth in the alpha channel", "alpha"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoDibrLayout", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_dibr_output_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL, "The virtual view (W x H)", "virtual"},
    {GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE, "Left and right views side by side (2W x H, "
          "multiview-mode=side-by-side)", "stereo-side-by-side"},
    {GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM, "Left view above the right view (W x 2H, "
          "multiview-mode=top-bottom)", "stereo-top-bottom"},
    {GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH, "Red-cyan anaglyph: red from the left view, green and "
          "blue from the right (W x H)", "anaglyph"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoDibrOutput", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cuda_video_dibr_debug_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_DIBR_DEBUG_NONE, "The synthesized colour", "none"},
    {GST_CUDA_VIDEO_DIBR_DEBUG_DEPTH, "Each view's depth as grey in the input's depth coding "
          "(near = white)", "depth"},
    {GST_CUDA_VIDEO_DIBR_DEBUG_HOLES, "The disocclusion holes painted white over each view", "holes"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaVideoDibrDebug", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_cuda_video_dibr_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GstCudaVideoDibr, gst_cuda_video_dibr, GST_TYPE_CUDA_VIDEO_FILTER);

static gboolean
register_dibr (GstPlugin * plugin)
{
  return gst_cuda_video_filter_register_pair (plugin, GST_TYPE_CUDA_VIDEO_DIBR,
      "dibr", "Depth-image-based renderer", "Filter/Effect/Video",
      "Synthesizes virtual, stereo or anaglyph views from 2D-plus-depth video: depth clean-up "
      "(median, depth-colour bilateral filter), z-buffered forward warp, hole filling");
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (cudadibr, register_dibr);

static void gst_cuda_video_dibr_finalize (GObject * object);
static void gst_cuda_video_dibr_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_dibr_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static gboolean gst_cuda_video_dibr_start (GstBaseTransform * trans);
static GstCaps *gst_cuda_video_dibr_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
static GstCaps *gst_cuda_video_dibr_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_video_dibr_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend,
    GError ** error);
static void gst_cuda_video_dibr_teardown (GstCudaVideoFilter * filter);
static gchar *gst_cuda_video_dibr_caps_problem (GstCudaVideoFilter * filter, GstCaps * caps);
static GstFlowReturn gst_cuda_video_dibr_complete (GstCudaVideoFilter * filter, GstBuffer * buffer,
    gpointer results);
static GstFlowReturn gst_cuda_video_dibr_process_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * in, GstCudaVideoDeviceFrame * out);
static GstFlowReturn gst_cuda_video_dibr_process (GstCudaVideoFilter * filter,
    GstVideoFrame * in_frame, GstVideoFrame * out_frame);

static void
gst_cuda_video_dibr_class_init (GstCudaVideoDibrClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstCudaVideoFilterClass *filter_class = GST_CUDA_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING;


  gobject_class->finalize = gst_cuda_video_dibr_finalize;
  gobject_class->set_property = gst_cuda_video_dibr_set_property;
  gobject_class->get_property = gst_cuda_video_dibr_get_property;

  g_object_class_install_property (gobject_class, PROP_LAYOUT,
      g_param_spec_enum ("layout", "Layout",
          "Where the depth is in the input frame: the right half, the bottom half, or the alpha "
          "channel (8-bit depth, 255 = nearest; 16-bit, 65535 = nearest, in RGBA64_LE / BGRA64_LE)",
          GST_TYPE_CUDA_VIDEO_DIBR_LAYOUT, DEFAULT_PROP_LAYOUT, rw));
  g_object_class_install_property (gobject_class, PROP_Z_NEAR,
      g_param_spec_double ("z-near", "Z near",
          "Metric depth of the largest depth value (255, or 65535 in the 16-bit formats: the nearest); "
          "must be smaller than z-far",
          1e-9, 1e9, DEFAULT_PROP_Z_NEAR, rw));
  g_object_class_install_property (gobject_class, PROP_Z_FAR,
      g_param_spec_double ("z-far", "Z far",
          "Metric depth of the depth value 0 (the farthest); 1/Z is linear in the value between",
          1e-9, 1e9, DEFAULT_PROP_Z_FAR, rw));
  g_object_class_install_property (gobject_class, PROP_ZERO_IS_UNKNOWN,
      g_param_spec_boolean ("zero-is-unknown", "Zero is unknown",
          "The depth value 0 means no depth (filled from the neighbours by the clean-up) "
          "instead of z-far", DEFAULT_PROP_ZERO_IS_UNKNOWN, rw));
  g_object_class_install_property (gobject_class, PROP_FOCAL_LENGTH,
      g_param_spec_double ("focal-length", "Focal length",
          "Simple mode: focal length in pixels (0 = the colour width, about 53 degrees "
          "horizontally; else 1 .. 1e6)",
          0.0, 1e6, DEFAULT_PROP_FOCAL_LENGTH, rw));
  g_object_class_install_property (gobject_class, PROP_BASELINE,
      g_param_spec_double ("baseline", "Baseline",
          "Simple mode: the virtual camera's shift to the right, z units (negative: to the left)",
          -1e6, 1e6, DEFAULT_PROP_BASELINE, rw));
  g_object_class_install_property (gobject_class, PROP_CONVERGENCE,
      g_param_spec_double ("convergence", "Convergence",
          "Simple mode: the depth that stays in place (zero parallax), z units; 0 = parallel "
          "cameras; else at least z-near / 1000",
          0.0, 1e9, DEFAULT_PROP_CONVERGENCE, rw));
  g_object_class_install_property (gobject_class, PROP_CAMERA_FILE,
      g_param_spec_string ("camera-file", "Camera file",
          "Full mode: JSON file with the source and virtual cameras (intrinsics, 4x4 "
          "world-to-camera extrinsics); overrides focal-length, baseline, convergence and "
          "symmetric (NULL = simple mode)",
          DEFAULT_PROP_CAMERA_FILE, rw));
  g_object_class_install_property (gobject_class, PROP_MEDIAN_SIZE,
      g_param_spec_int ("median-size", "Median size",
          "Side of the depth median filter's window (odd; 1 = off)",
          1, GCV_DIBR_MAX_MEDIAN, DEFAULT_PROP_MEDIAN_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_DCBF_SIZE,
      g_param_spec_int ("dcbf-size", "DCBF size",
          "Side of the depth-colour bilateral filter's window (odd; 1 = off)",
          1, GCV_DIBR_MAX_DCBF, DEFAULT_PROP_DCBF_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SIGMA_SPATIAL,
      g_param_spec_double ("sigma-spatial", "Sigma spatial",
          "DCBF: standard deviation of the spatial Gaussian, pixels",
          0.1, 100.0, DEFAULT_PROP_SIGMA_SPATIAL, rw));
  g_object_class_install_property (gobject_class, PROP_SIGMA_COLOR,
      g_param_spec_double ("sigma-color", "Sigma color",
          "DCBF: standard deviation of the colour Gaussian, in |dR| + |dG| + |dB| units",
          0.1, 1000.0, DEFAULT_PROP_SIGMA_COLOR, rw));
  g_object_class_install_property (gobject_class, PROP_OUTPUT,
      g_param_spec_enum ("output", "Output",
          "What the output frames show: the virtual view, a stereo pair (left = source, "
          "right = virtual, or both virtual with symmetric=true) or a red-cyan anaglyph",
          GST_TYPE_CUDA_VIDEO_DIBR_OUTPUT, DEFAULT_PROP_OUTPUT, rw));
  g_object_class_install_property (gobject_class, PROP_SYMMETRIC,
      g_param_spec_boolean ("symmetric", "Symmetric",
          "Simple mode: synthesize both views, at -baseline/2 and +baseline/2, instead of "
          "pairing the source (left) with the view at +baseline (right)",
          DEFAULT_PROP_SYMMETRIC, rw));
  g_object_class_install_property (gobject_class, PROP_DEBUG_OUTPUT,
      g_param_spec_enum ("debug-output", "Debug output",
          "Show each view's depth (grey, near = white) or its disocclusion holes (white) "
          "instead of the plain colour",
          GST_TYPE_CUDA_VIDEO_DIBR_DEBUG, DEFAULT_PROP_DEBUG_OUTPUT, rw));
  gst_cuda_video_filter_install_post_messages (gobject_class, PROP_POST_MESSAGES, "dibr");

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_start);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_fixate_caps);
  trans_class->passthrough_on_same_caps = FALSE;

  filter_class->setup = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_setup);
  filter_class->teardown = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_teardown);
  filter_class->process = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_process);
  filter_class->process_device = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_process_device);
  filter_class->caps_problem = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_caps_problem);
  filter_class->complete = GST_DEBUG_FUNCPTR (gst_cuda_video_dibr_complete);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_DIBR, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_DIBR_LAYOUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_DIBR_OUTPUT, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_DIBR_DEBUG, 0);
}

static void
gst_cuda_video_dibr_init (GstCudaVideoDibr * self)
{
  /* each frame stands alone: a late one may be dropped (QoS) */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
  gcv_dibr_params_init (&self->params);
  self->params.focal_length = DEFAULT_PROP_FOCAL_LENGTH;
  self->layout = DEFAULT_PROP_LAYOUT;
  self->output = DEFAULT_PROP_OUTPUT;
  self->debug = DEFAULT_PROP_DEBUG_OUTPUT;
  self->symmetric = DEFAULT_PROP_SYMMETRIC;
  self->camera_file = g_strdup (DEFAULT_PROP_CAMERA_FILE);
}

static void
gst_cuda_video_dibr_finalize (GObject * object)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (object);

  g_free (self->camera_file);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cuda_video_dibr_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (object);
  const gchar *refused = NULL;
  gboolean renegotiate = FALSE;
  gint v;
  gdouble d;

  /* every number is within its GParamSpec's range (GObject refused
   * others); what a range cannot say (odd sizes, focal-length 0 or >= 1)
   * is refused here, keeping the previous value.  Relations (z-near <
   * z-far, convergence against z-near) are checked at start and at every
   * frame, so that the properties may be set in any order. */
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LAYOUT:
      renegotiate = self->layout != (GstCudaVideoDibrLayout) g_value_get_enum (value);
      self->layout = g_value_get_enum (value);
      break;
    case PROP_Z_NEAR:
      self->params.z_near = g_value_get_double (value);
      break;
    case PROP_Z_FAR:
      self->params.z_far = g_value_get_double (value);
      break;
    case PROP_ZERO_IS_UNKNOWN:
      self->params.zero_is_unknown = g_value_get_boolean (value);
      break;
    case PROP_FOCAL_LENGTH:
      d = g_value_get_double (value);
      if (d != 0.0 && d < 1.0)
        refused = "must be 0 (the colour width) or at least 1 pixel";
      else
        self->params.focal_length = d;
      break;
    case PROP_BASELINE:
      self->params.baseline = g_value_get_double (value);
      break;
    case PROP_CONVERGENCE:
      self->params.convergence = g_value_get_double (value);
      break;
    case PROP_CAMERA_FILE:
      g_free (self->camera_file);
      self->camera_file = g_value_dup_string (value);
      if (self->camera_file && *self->camera_file == '\0')
        g_clear_pointer (&self->camera_file, g_free);
      self->camera_file_changed = TRUE;
      break;
    case PROP_MEDIAN_SIZE:
      v = g_value_get_int (value);
      if (v % 2 == 0)
        refused = "must be odd: the window is centred on the pixel";
      else
        self->params.median_size = v;
      break;
    case PROP_DCBF_SIZE:
      v = g_value_get_int (value);
      if (v % 2 == 0)
        refused = "must be odd: the window is centred on the pixel";
      else
        self->params.dcbf_size = v;
      break;
    case PROP_SIGMA_SPATIAL:
      self->params.sigma_spatial = g_value_get_double (value);
      break;
    case PROP_SIGMA_COLOR:
      self->params.sigma_color = g_value_get_double (value);
      break;
    case PROP_OUTPUT:
      renegotiate = self->output != (GstCudaVideoDibrOutput) g_value_get_enum (value);
      self->output = g_value_get_enum (value);
      break;
    case PROP_SYMMETRIC:
      self->symmetric = g_value_get_boolean (value);
      break;
    case PROP_DEBUG_OUTPUT:
      self->debug = g_value_get_enum (value);
      break;
    case PROP_POST_MESSAGES:
      gst_cuda_video_filter_set_post_messages (GST_CUDA_VIDEO_FILTER (self), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (refused != NULL)
    gst_cuda_video_filter_warn_rejected (GST_CUDA_VIDEO_FILTER (self), pspec, value, refused);
  if (renegotiate)
    gst_base_transform_reconfigure_src (GST_BASE_TRANSFORM (self));
}

static void
gst_cuda_video_dibr_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LAYOUT:
      g_value_set_enum (value, self->layout);
      break;
    case PROP_Z_NEAR:
      g_value_set_double (value, self->params.z_near);
      break;
    case PROP_Z_FAR:
      g_value_set_double (value, self->params.z_far);
      break;
    case PROP_ZERO_IS_UNKNOWN:
      g_value_set_boolean (value, self->params.zero_is_unknown != 0);
      break;
    case PROP_FOCAL_LENGTH:
      g_value_set_double (value, self->params.focal_length);
      break;
    case PROP_BASELINE:
      g_value_set_double (value, self->params.baseline);
      break;
    case PROP_CONVERGENCE:
      g_value_set_double (value, self->params.convergence);
      break;
    case PROP_CAMERA_FILE:
      g_value_set_string (value, self->camera_file);
      break;
    case PROP_MEDIAN_SIZE:
      g_value_set_int (value, self->params.median_size);
      break;
    case PROP_DCBF_SIZE:
      g_value_set_int (value, self->params.dcbf_size);
      break;
    case PROP_SIGMA_SPATIAL:
      g_value_set_double (value, self->params.sigma_spatial);
      break;
    case PROP_SIGMA_COLOR:
      g_value_set_double (value, self->params.sigma_color);
      break;
    case PROP_OUTPUT:
      g_value_set_enum (value, self->output);
      break;
    case PROP_SYMMETRIC:
      g_value_set_boolean (value, self->symmetric);
      break;
    case PROP_DEBUG_OUTPUT:
      g_value_set_enum (value, self->debug);
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

/* Posts the settings error when @params cannot be used (focal_length 0
 * resolved to @width first); TRUE when they can.  For start, where
 * nothing has run yet. */
static gboolean
check_params (GstCudaVideoDibr * self, GcvDibrParams * params, gint width)
{
  const char *bad;

  if (params->focal_length == 0.0)
    params->focal_length = width > 0 ? width : 1000.0;
  bad = gcv_dibr_params_check (params);
  if (bad == NULL)
    return TRUE;
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("Invalid depth-image-based rendering settings: %s",
          bad), ("%s", bad));
  return FALSE;
}

/* The parameters a frame uses (focal_length 0 resolved to @width), the
 * last usable ones when they are not (the settings policy); FALSE (error
 * posted) when none ever were. */
static gboolean
frame_params (GstCudaVideoDibr * self, GcvDibrParams * params, gint width)
{
  if (params->focal_length == 0.0)
    params->focal_length = width > 0 ? width : 1000.0;
  return gst_cuda_video_filter_usable_params (GST_CUDA_VIDEO_FILTER (self), params, sizeof (*params),
      "depth-image-based rendering", gcv_dibr_params_check (params));
}

/* Reads the camera file at @path (NULL: none, the cameras come from the
 * properties).  A file that cannot be used changes nothing: at start
 * (@playing FALSE) the error is posted and FALSE returned; while playing
 * it is a WARNING and the cameras in force stay (the settings policy). */
static gboolean
load_camera_file (GstCudaVideoDibr * self, const gchar * path, gboolean playing)
{
  GcvError err = { GCV_OK, "" };
  GcvDibrCamera src, virt;

  if (path == NULL) {
    self->file_loaded = FALSE;
    return TRUE;
  }
  if (gcv_dibr_camera_file_load (path, &src, &virt, &err) != GCV_OK) {
    if (playing) {
      GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("Invalid camera file: %s; the cameras in force stay",
              err.message), ("camera-file=%s", path));
      return TRUE;
    }
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Invalid camera file: %s", err.message),
        ("camera-file=%s", path));
    return FALSE;
  }
  self->file_src = src;
  self->file_virt = virt;
  self->file_loaded = TRUE;
  return TRUE;
}

/* Takes a changed camera-file property (@force: at start, whether changed
 * or not); FALSE after posting an error. */
static gboolean
update_camera_file (GstCudaVideoDibr * self, gboolean force)
{
  gchar *path;
  gboolean changed, ok = TRUE;

  GST_OBJECT_LOCK (self);
  changed = self->camera_file_changed || force;
  self->camera_file_changed = FALSE;
  path = g_strdup (self->camera_file);
  GST_OBJECT_UNLOCK (self);
  if (changed)
    ok = load_camera_file (self, path, !force);
  g_free (path);
  return ok;
}

static gboolean
gst_cuda_video_dibr_start (GstBaseTransform * trans)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (trans);
  GcvDibrParams params;

  GST_OBJECT_LOCK (self);
  params = self->params;
  GST_OBJECT_UNLOCK (self);

  /* before the device is opened: nothing to undo */
  if (!check_params (self, &params, 0) || !update_camera_file (self, TRUE))
    return FALSE;
  return GST_BASE_TRANSFORM_CLASS (parent_class)->start (trans);
}

/* ---- caps ----------------------------------------------------------------- */

/* Every input format, in the sink template's order. */
static const gchar *const input_formats[] = {
  "RGBA", "BGRA", "RGBx", "BGRx", "I420", "RGBA64_LE", "BGRA64_LE"
};

/* The output format of input format @in (NULL: refused in @layout). */
static const gchar *
out_format_of (const gchar * in, GstCudaVideoDibrLayout layout)
{
  /* 16-bit samples (16-bit depth): 8-bit colour out */
  if (!g_strcmp0 (in, "RGBA64_LE"))
    return "RGBA";
  if (!g_strcmp0 (in, "BGRA64_LE"))
    return "BGRA";
  if (layout == GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA)
    return !g_strcmp0 (in, "RGBA") || !g_strcmp0 (in, "BGRA") ? in : NULL;
  if (!g_strcmp0 (in, "I420"))
    return "RGBA";
  if (!g_strcmp0 (in, "RGBA") || !g_strcmp0 (in, "BGRA") || !g_strcmp0 (in, "RGBx")
      || !g_strcmp0 (in, "BGRx"))
    return in;
  return NULL;
}

/* Adds to @list the formats on the other side of format @f. */
static void
map_format (const gchar * f, GstPadDirection direction, GstCudaVideoDibrLayout layout, GValue * list)
{
  GValue v = G_VALUE_INIT;
  guint i;

  g_value_init (&v, G_TYPE_STRING);
  if (direction == GST_PAD_SINK) {
    const gchar *o = out_format_of (f, layout);
    if (o) {
      g_value_set_string (&v, o);
      gst_value_list_append_value (list, &v);
    }
  } else {
    for (i = 0; i < G_N_ELEMENTS (input_formats); i++) {
      if (!g_strcmp0 (out_format_of (input_formats[i], layout), f)) {
        g_value_set_string (&v, input_formats[i]);
        gst_value_list_append_value (list, &v);
      }
    }
  }
  g_value_unset (&v);
}

/* Sizes: the input holds the colour W x H and the depth (twice the width,
 * twice the height, or W x H with alpha); the output one view W x H, a pair
 * 2W x H or W x 2H.  Returns the size on the other side, or 0 when @size
 * has none (an odd size that must be halved). */
static gint
map_size (gint size, gboolean in_doubled, gboolean out_doubled, GstPadDirection direction)
{
  gint from_doubled = direction == GST_PAD_SINK ? in_doubled : out_doubled;
  gint to_doubled = direction == GST_PAD_SINK ? out_doubled : in_doubled;
  gint view;

  if (from_doubled && size % 2 != 0)
    return 0;
  view = from_doubled ? size / 2 : size;
  if (to_doubled && view > MAX_DIM / 2)
    return 0;
  return to_doubled ? 2 * view : view;
}

static gboolean
map_size_field (GstStructure * s, const gchar * field, gboolean in_doubled, gboolean out_doubled,
    GstPadDirection direction)
{
  gint v, o;

  if (!gst_structure_has_field (s, field))
    return TRUE;
  if (gst_structure_get_int (s, field, &v)) {
    if ((o = map_size (v, in_doubled, out_doubled, direction)) == 0)
      return FALSE;
    gst_structure_set (s, field, G_TYPE_INT, o, NULL);
  } else {
    gst_structure_set (s, field, GST_TYPE_INT_RANGE, 1, MAX_DIM, NULL);
  }
  return TRUE;
}

/* Whether the width of @s is the field map_size_field refuses. */
static gboolean
map_size_field_failed (const GstStructure * s, gboolean in_doubled, gboolean out_doubled,
    GstPadDirection direction)
{
  gint v;

  return gst_structure_get_int (s, "width", &v) && map_size (v, in_doubled, out_doubled, direction) == 0;
}

/* The nicks of the enums, for messages. */
static const gchar *
enum_nick (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  const gchar *nick = v ? v->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

static const gchar *
layout_nick (GstCudaVideoDibrLayout layout)
{
  return enum_nick (GST_TYPE_CUDA_VIDEO_DIBR_LAYOUT, layout);
}

static const gchar *
output_nick (GstCudaVideoDibrOutput output)
{
  return enum_nick (GST_TYPE_CUDA_VIDEO_DIBR_OUTPUT, output);
}

static const gchar *
multiview_mode_of (GstCudaVideoDibrOutput output)
{
  return output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE ? "side-by-side" :
      output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM ? "top-bottom" : "mono";
}

static GstCaps *
gst_cuda_video_dibr_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (trans);
  GstCudaVideoDibrLayout layout;
  GstCudaVideoDibrOutput output;
  GstCaps *result = gst_caps_new_empty ();
  gboolean w_in, h_in, w_out, h_out;
  guint i;

  GST_OBJECT_LOCK (self);
  layout = self->layout;
  output = self->output;
  GST_OBJECT_UNLOCK (self);
  w_in = layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE;
  h_in = layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM;
  w_out = output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE;
  h_out = output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    const GValue *fv = gst_structure_get_value (s, "format");

    if (fv) {
      GValue list = G_VALUE_INIT;
      guint k;

      gst_value_list_init (&list, 5);
      if (G_VALUE_HOLDS_STRING (fv))
        map_format (g_value_get_string (fv), direction, layout, &list);
      else if (GST_VALUE_HOLDS_LIST (fv))
        for (k = 0; k < gst_value_list_get_size (fv); k++) {
          const GValue *e = gst_value_list_get_value (fv, k);
          if (G_VALUE_HOLDS_STRING (e))
            map_format (g_value_get_string (e), direction, layout, &list);
        }
      if (gst_value_list_get_size (&list) == 0) {
        g_value_unset (&list);
        gst_structure_free (s);
        continue;
      }
      if (gst_value_list_get_size (&list) == 1)
        gst_structure_set_value (s, "format", gst_value_list_get_value (&list, 0));
      else
        gst_structure_set_value (s, "format", &list);
      g_value_unset (&list);
    }
    if (!map_size_field (s, "width", w_in, w_out, direction)
        || !map_size_field (s, "height", h_in, h_out, direction)) {
      /* the usual "could not link" says nothing of why: say it here */
      GST_WARNING_OBJECT (self, "%" GST_PTR_FORMAT " has no counterpart on the %s: a %s of the %s must be "
          "even to be halved (layout %s, output %s), and a doubled one at most %d", s,
          direction == GST_PAD_SINK ? "source pad" : "sink pad",
          map_size_field_failed (s, w_in, w_out, direction) ? "width" : "height",
          direction == GST_PAD_SINK ? "input" : "output", layout_nick (layout), output_nick (output),
          MAX_DIM);
      gst_structure_free (s);
      continue;
    }
    /* the input is 2D-plus-depth, not a stereo pair: whatever it says of
     * views does not carry over; the output says what it holds */
    gst_structure_remove_fields (s, "multiview-mode", "multiview-flags", "colorimetry",
        "chroma-site", NULL);
    if (direction == GST_PAD_SINK)
      gst_structure_set (s, "multiview-mode", G_TYPE_STRING, multiview_mode_of (output),
          "multiview-flags", GST_TYPE_VIDEO_MULTIVIEW_FLAGSET, 0, GST_FLAG_SET_MASK_EXACT, NULL);
    result = gst_caps_merge_structure_full (result, s, f ? gst_caps_features_copy (f) : NULL);
  }
  return gst_cuda_video_filter_clip_caps (trans, direction, caps, result, filter);
}

/* What keeps input @caps from negotiating with the layout and output in
 * force (gstcudavideofilter.h: caps_problem). */
static gchar *
gst_cuda_video_dibr_caps_problem (GstCudaVideoFilter * filter, GstCaps * caps)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (filter);
  GstCudaVideoDibrLayout layout;
  GstCudaVideoDibrOutput output;
  GstVideoInfo info;
  gint w, h;
  guint i;

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;
  GST_OBJECT_LOCK (self);
  layout = self->layout;
  output = self->output;
  GST_OBJECT_UNLOCK (self);
  w = GST_VIDEO_INFO_WIDTH (&info);
  h = GST_VIDEO_INFO_HEIGHT (&info);
  if (out_format_of (GST_VIDEO_INFO_NAME (&info), layout) == NULL) {
    GString *taken = g_string_new ("");
    const gchar *last = NULL;
    gchar *why;
    /* "A, B or C" */
    for (i = 0; i < G_N_ELEMENTS (input_formats); i++) {
      if (out_format_of (input_formats[i], layout) == NULL)
        continue;
      if (last)
        g_string_append_printf (taken, "%s%s", taken->len ? ", " : "", last);
      last = input_formats[i];
    }
    g_string_append_printf (taken, "%s%s", taken->len ? " or " : "", last);
    why = g_strdup_printf ("layout=%s takes %s input%s, not format %s", layout_nick (layout), taken->str,
        layout == GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA ? " (the depth in the alpha channel)" : "",
        GST_VIDEO_INFO_NAME (&info));
    g_string_free (taken, TRUE);
    return why;
  }
  if (layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE && w % 2 != 0)
    return g_strdup_printf ("layout=%s needs an even width (colour and depth halves), not %d",
        layout_nick (layout), w);
  if (layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM && h % 2 != 0)
    return g_strdup_printf ("layout=%s needs an even height (colour and depth halves), not %d",
        layout_nick (layout), h);
  if (map_size (w, layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE,
          output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE, GST_PAD_SINK) == 0
      || map_size (h, layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM,
          output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM, GST_PAD_SINK) == 0)
    return g_strdup_printf ("output=%s would make a frame larger than %d for %dx%d input",
        output_nick (output), MAX_DIM, w, h);
  return NULL;
}

static GstCaps *
gst_cuda_video_dibr_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (trans);
  GstStructure *ins, *outs;
  gboolean w_in, h_in, w_out, h_out;
  gint w, h, o;

  GST_OBJECT_LOCK (self);
  w_in = self->layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE;
  h_in = self->layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM;
  w_out = self->output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE;
  h_out = self->output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM;
  GST_OBJECT_UNLOCK (self);

  othercaps = gst_caps_make_writable (gst_caps_truncate (gst_cuda_video_filter_prefer_device (trans, othercaps)));
  ins = gst_caps_get_structure (caps, 0);
  outs = gst_caps_get_structure (othercaps, 0);
  if (gst_structure_get_int (ins, "width", &w) && (o = map_size (w, w_in, w_out, direction)) > 0)
    gst_structure_fixate_field_nearest_int (outs, "width", o);
  if (gst_structure_get_int (ins, "height", &h) && (o = map_size (h, h_in, h_out, direction)) > 0)
    gst_structure_fixate_field_nearest_int (outs, "height", o);
  othercaps = gst_caps_fixate (othercaps);
  GST_DEBUG_OBJECT (trans, "fixated to %" GST_PTR_FORMAT, othercaps);
  return othercaps;
}

/* ---- per caps ------------------------------------------------------------- */

/* Whether input @in and output @out are what @layout and @output make:
 * the view size to *W x *H. */
static gboolean
layout_output_fit (const GstVideoInfo * in, const GstVideoInfo * out, GstCudaVideoDibrLayout layout,
    GstCudaVideoDibrOutput output, gint * W, gint * H)
{
  gint iw = GST_VIDEO_INFO_WIDTH (in), ih = GST_VIDEO_INFO_HEIGHT (in);

  *W = layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE ? iw / 2 : iw;
  *H = layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM ? ih / 2 : ih;
  return *W >= 1 && *H >= 1
      && GST_VIDEO_INFO_WIDTH (out) == (output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE ? 2 * *W : *W)
      && GST_VIDEO_INFO_HEIGHT (out) == (output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM ? 2 * *H : *H)
      && g_strcmp0 (out_format_of (GST_VIDEO_INFO_NAME (in), layout), GST_VIDEO_INFO_NAME (out)) == 0;
}

static gboolean
gst_cuda_video_dibr_setup (GstCudaVideoFilter * filter, GstCudaVideoBackend backend, GError ** error)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (filter);
  const GstVideoInfo *in = &filter->in_info, *out = &filter->out_info;
  gint iw = GST_VIDEO_INFO_WIDTH (in), ih = GST_VIDEO_INFO_HEIGHT (in);
  gint ow, oh, W, H, k;
  GcvError err = { GCV_OK, "" };
  gsize n;

  GST_OBJECT_LOCK (self);
  self->cur_layout = self->layout;
  self->cur_output = self->output;
  GST_OBJECT_UNLOCK (self);
  /* the caps decide: layout or output may have changed since they were
   * negotiated (the setter asked for a new negotiation, which brings the
   * change here).  The properties' pair when it fits the caps, else the
   * first pair that does (same layout or output first). */
  if (!layout_output_fit (in, out, self->cur_layout, self->cur_output, &W, &H)) {
    GstCudaVideoDibrLayout wanted_layout = self->cur_layout;
    GstCudaVideoDibrOutput wanted_output = self->cur_output;
    gboolean found = FALSE;
    gint pass, l, o;

    /* pass 0 keeps one of the two, pass 1 changes both */
    for (pass = 0; pass < 2 && !found; pass++)
      for (l = GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE; l <= GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA && !found; l++)
        for (o = GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL; o <= GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH && !found; o++)
          if ((pass == 1 || (gint) wanted_layout == l || (gint) wanted_output == o)
              && layout_output_fit (in, out, l, o, &W, &H)) {
            self->cur_layout = (GstCudaVideoDibrLayout) l;
            self->cur_output = (GstCudaVideoDibrOutput) o;
            found = TRUE;
          }
    if (!found) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "%s %dx%d in and %s %dx%d out fit no layout and output", GST_VIDEO_INFO_NAME (in),
          iw, ih, GST_VIDEO_INFO_NAME (out), GST_VIDEO_INFO_WIDTH (out), GST_VIDEO_INFO_HEIGHT (out));
      return FALSE;
    }
    GST_DEBUG_OBJECT (self, "the caps were negotiated for layout %d output %d (properties: %d %d; "
        "a new negotiation is pending)", self->cur_layout, self->cur_output, wanted_layout,
        wanted_output);
  }
  ow = GST_VIDEO_INFO_WIDTH (out);
  oh = GST_VIDEO_INFO_HEIGHT (out);
  self->width = W;
  self->height = H;
  n = (gsize) W * H;
  GST_INFO_OBJECT (self, "%s %dx%d -> %s %dx%d (views %dx%d) on the %s", GST_VIDEO_INFO_NAME (in),
      iw, ih, GST_VIDEO_INFO_NAME (out), ow, oh, W, H,
      backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "GPU" : "CPU");

  if (backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    self->cuda = gcv_dibr_cuda_new (W, H, &err);
    if (self->cuda == NULL)
      return gst_cuda_video_filter_set_error (error, &err);
    for (k = 0; k < 2; k++)
      if (!gst_cuda_video_filter_device_alloc (filter, (gsize) W * 4, H, &self->dev_eye[k], W, error)
          || !gst_cuda_video_filter_device_alloc (filter, (gsize) W * sizeof (gfloat), H, &self->dev_zbuf[k], W,
              error)
          || !gst_cuda_video_filter_device_alloc (filter, W, H, &self->dev_holes[k], W, error))
        return FALSE;
    gst_cuda_video_filter_set_results_size (filter, sizeof (DibrResults));
    return gst_cuda_video_filter_device_alloc (filter, 2 * sizeof (guint64), 1, &self->dev_count, 2, error);
  }
  for (k = 0; k < 2; k++) {
    self->eye[k] = g_try_malloc (4 * n);
    self->holes[k] = g_try_malloc (n);
    self->zbuf[k] = g_try_new (gfloat, n);
  }
  /* the CPU unpacks the frame into these (the GPU on the device) */
  self->colour = g_try_malloc (4 * n);
  self->depth = g_try_malloc (2 * n);      /* 8- or 16-bit */
  if (!self->eye[0] || !self->eye[1] || !self->holes[0] || !self->holes[1] || !self->zbuf[0]
      || !self->zbuf[1] || !self->colour || !self->depth) {
    gcv_error_set (&err, GCV_ERROR_NO_MEMORY, "scratch planes for %dx%d views", W, H);
    return gst_cuda_video_filter_set_error (error, &err);
  }
  self->cpu = gcv_dibr_cpu_new (W, H, &err);
  if (self->cpu == NULL)
    return gst_cuda_video_filter_set_error (error, &err);
  gcv_dibr_cpu_set_cancel (self->cpu, gst_cuda_video_filter_get_cancel (filter));
  return TRUE;
}

static void
gst_cuda_video_dibr_teardown (GstCudaVideoFilter * filter)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (filter);
  gint k;

  if (self->cuda)
    gcv_dibr_cuda_free (self->cuda);
  self->cuda = NULL;
  if (self->cpu)
    gcv_dibr_cpu_free (self->cpu);
  self->cpu = NULL;
  g_clear_pointer (&self->colour, g_free);
  g_clear_pointer (&self->depth, g_free);
  for (k = 0; k < 2; k++) {
    g_clear_pointer (&self->eye[k], g_free);
    g_clear_pointer (&self->holes[k], g_free);
    g_clear_pointer (&self->zbuf[k], g_free);
  }
}

/* ---- streaming ------------------------------------------------------------- */

/* The input frame as a packed 2D+Z frame (cpu/dibr.h): its planes (the
 * mapped frame's, or their device copies) and where colour and depth lie
 * in the negotiated layout. */
static void
packed_frame (GstCudaVideoDibr * self, const GstVideoInfo * info, const GcvPlane * planes,
    GcvDibrPacked * p)
{
  gint W = self->width, H = self->height, k, sample;

  memset (p, 0, sizeof (*p));
  for (k = 0; k < (gint) GST_VIDEO_INFO_N_PLANES (info) && k < 3; k++)
    p->planes[k] = planes[k];
  p->width = W;
  p->height = H;
  p->depth_x = self->cur_layout == GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE ? W : 0;
  p->depth_y = self->cur_layout == GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM ? H : 0;
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_I420) {
    p->format = GCV_DIBR_PACKED_I420;
    return;
  }
  /* RGBA64_LE, BGRA64_LE: offsets of 2-byte samples */
  sample = GST_VIDEO_INFO_COMP_PSTRIDE (info, GST_VIDEO_COMP_R) / 4;
  p->format = sample == 2 ? GCV_DIBR_PACKED_RGBA64 : GCV_DIBR_PACKED_4BYTE;
  p->r = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R) / sample;
  p->g = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G) / sample;
  p->b = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B) / sample;
  /* side by side, top and bottom: a grey picture's R */
  p->d = self->cur_layout == GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA ?
      (gint) GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_A) / sample : p->r;
}

/* One eye of the output: what it shows and where its RGBA goes. */
typedef struct
{
  gboolean render;              /* else: the source colour */
  GcvDibrCamera camera;
  gboolean direct;              /* rendered straight into the output frame */
  GcvDibrEye eye;               /* its planes (host or device) and place */
} Eye;

/* The settings of one frame, taken under the object lock: params, debug
 * output, the output mode (virtual <-> anaglyph keeps the caps, so no
 * renegotiation brings that change to setup: it is taken here), and the
 * eyes with their cameras and places (eye 0 the left, eye 1 the right;
 * output=virtual shows the right alone).  FALSE when the settings are
 * refused (posted). */
static gboolean
frame_settings (GstCudaVideoDibr * self, const GstVideoInfo * out_info, GcvDibrParams * params,
    GstCudaVideoDibrDebug * debug, GstCudaVideoDibrOutput * output, GcvDibrCamera * source,
    Eye eyes[2], gint * n_eyes)
{
  gint W = self->width, H = self->height, k;
  gboolean symmetric, rgba_out;

  GST_OBJECT_LOCK (self);
  *params = self->params;
  *debug = self->debug;
  symmetric = self->symmetric;
  *output = self->cur_output;
  if (self->output != *output && (self->output == GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL
          || self->output == GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH)
      && (*output == GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL || *output == GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH))
    *output = self->cur_output = self->output;
  GST_OBJECT_UNLOCK (self);
  if (!frame_params (self, params, W) || !update_camera_file (self, FALSE))
    return FALSE;

  if (self->file_loaded) {
    *source = self->file_src;
    symmetric = FALSE;
  } else {
    gcv_dibr_camera_simple (W, H, params->focal_length, params->baseline, params->convergence, source, NULL);
  }
  *n_eyes = *output == GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL ? 1 : 2;
  memset (eyes, 0, 2 * sizeof (Eye));
  rgba_out = GST_VIDEO_INFO_COMP_POFFSET (out_info, GST_VIDEO_COMP_R) == 0;
  for (k = 0; k < *n_eyes; k++) {
    Eye *e = &eyes[k];
    gboolean right = *n_eyes == 1 || k == 1;

    e->eye.ox = *output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE && k == 1 ? W : 0;
    e->eye.oy = *output == GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM && k == 1 ? H : 0;
    e->render = TRUE;
    if (self->file_loaded)
      e->camera = right ? self->file_virt : self->file_src;
    else if (symmetric)
      gcv_dibr_camera_simple (W, H, params->focal_length, (right ? 0.5 : -0.5) * params->baseline,
          params->convergence, NULL, &e->camera);
    else if (right)
      gcv_dibr_camera_simple (W, H, params->focal_length, params->baseline, params->convergence, NULL,
          &e->camera);
    else {
      /* the source itself: its colour, unless its depth or holes are asked for */
      e->camera = *source;
      e->render = *debug != GST_CUDA_VIDEO_DIBR_DEBUG_NONE;
    }
    /* RGBA (or RGBx) out, colour shown as it is: rendered in place */
    e->direct = rgba_out && *debug == GST_CUDA_VIDEO_DIBR_DEBUG_NONE
        && *output != GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH;
  }
  return TRUE;
}

/* The planes of eye @e inside the output's plane 0 @out (direct), else
 * @scratch (W x H RGBA); depth only when the debug output shows it, holes
 * when it shows them or @count_holes. */
static void
eye_planes (Eye * e, const GcvPlane * out, const GcvPlane * scratch, const GcvPlane * zbuf,
    const GcvPlane * holes, GstCudaVideoDibrDebug debug, gboolean count_holes, gint W, gint H)
{
  e->eye.rgba.width = W;
  e->eye.rgba.height = H;
  if (e->direct) {
    e->eye.rgba.stride = out->stride;
    e->eye.rgba.data = (guint8 *) out->data + (gsize) e->eye.oy * out->stride + (gsize) e->eye.ox * 4;
  } else {
    e->eye.rgba = *scratch;
  }
  if (debug == GST_CUDA_VIDEO_DIBR_DEBUG_DEPTH)
    e->eye.depth = *zbuf;
  if (debug == GST_CUDA_VIDEO_DIBR_DEBUG_HOLES || count_holes)
    e->eye.holes = *holes;
}

/* Posts the "dibr" message of a frame: @n_views views with @holes. */
static void
post_holes (GstCudaVideoDibr * self, GstBuffer * buffer, guint n_views, guint64 holes)
{
  gst_cuda_video_filter_post_results (GST_CUDA_VIDEO_FILTER (self), buffer, gst_structure_new ("dibr",
          "views", G_TYPE_UINT, n_views,
          "hole-pixels", G_TYPE_UINT64, holes,
          "view-pixels", G_TYPE_UINT64, (guint64) self->width * self->height, NULL));
}

/* The output frame's pixel order and the compose's arguments. */
static void
compose_args (GstCudaVideoDibr * self, const GstVideoInfo * out_info, GstCudaVideoDibrDebug debug,
    const GcvDibrParams * params, GcvDibrPixelOrder * order, GcvDibrShow * show, GcvDibrDecode * dec)
{
  order->r = GST_VIDEO_INFO_COMP_POFFSET (out_info, GST_VIDEO_COMP_R);
  order->g = GST_VIDEO_INFO_COMP_POFFSET (out_info, GST_VIDEO_COMP_G);
  order->b = GST_VIDEO_INFO_COMP_POFFSET (out_info, GST_VIDEO_COMP_B);
  /* the byte that is neither R, G nor B: A or x */
  order->x = 6 - order->r - order->g - order->b;
  *show = debug == GST_CUDA_VIDEO_DIBR_DEBUG_DEPTH ? GCV_DIBR_SHOW_DEPTH
      : debug == GST_CUDA_VIDEO_DIBR_DEBUG_HOLES ? GCV_DIBR_SHOW_HOLES : GCV_DIBR_SHOW_COLOUR;
  gcv_dibr_decode_make (params, 8, dec);
}

/* The eyes that are not in the output yet, composed into it (a copy
 * of the first, stacked after it when not direct). */
static guint
eyes_to_compose (Eye eyes[2], gint n_eyes, GcvDibrEye out[2])
{
  guint n = 0;
  gint k;

  for (k = 0; k < n_eyes; k++)
    if (!eyes[k].direct)
      out[n++] = eyes[k].eye;
  return n;
}

static GstFlowReturn
gst_cuda_video_dibr_process (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
    GstVideoFrame * out_frame)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (filter);
  GcvDibrParams params;
  GstCudaVideoDibrDebug debug;
  GstCudaVideoDibrOutput output;
  GcvDibrView view;
  GcvDibrPacked packed;
  GcvDibrPixelOrder order;
  GcvDibrShow show;
  GcvDibrDecode dec;
  GcvDibrEye composed[2];
  GcvPlane planes[3], out;
  GcvError err = { GCV_OK, "" };
  Eye eyes[2];
  gint W = self->width, H = self->height, n_eyes, k, y, bits;
  gint nt = gst_cuda_video_filter_get_n_threads (filter);
  gboolean count = gst_cuda_video_filter_get_post_messages (filter);
  guint64 holes_total = 0;
  guint n, n_views = 0;

  memset (&view, 0, sizeof (view));
  if (!frame_settings (self, &out_frame->info, &params, &debug, &output, &view.camera, eyes, &n_eyes))
    return GST_FLOW_ERROR;
  gst_cuda_video_filter_frame_planes (in_frame, MIN (GST_VIDEO_FRAME_N_PLANES (in_frame), 3), planes);
  gst_cuda_video_filter_frame_planes (out_frame, 1, &out);
  packed_frame (self, &in_frame->info, planes, &packed);
  bits = gcv_dibr_packed_depth_bits (&packed);
  {
    GcvPlane colour = { self->colour, W, H, (gsize) W * 4 };
    GcvPlane depth = { self->depth, W, H, (gsize) W * (bits / 8) };
    if (gcv_dibr_unpack (&packed, &colour, &depth, nt, gst_cuda_video_filter_get_cancel (filter),
            &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "Unpacking the frame", &err);
    view.rgba = colour;
    view.depth = depth;
    view.depth_bits = bits;
  }
  for (k = 0; k < n_eyes; k++) {
    Eye *e = &eyes[k];
    GcvPlane scratch = { self->eye[k], W, H, (gsize) W * 4 };
    GcvPlane zbuf = { self->zbuf[k], W, H, (gsize) W * sizeof (gfloat) };
    GcvPlane holes = { self->holes[k], W, H, (gsize) W };

    eye_planes (e, &out, &scratch, &zbuf, &holes, debug, count, W, H);
    if (e->render) {
      if (gcv_dibr_cpu_render (self->cpu, &params, &view, 1, &e->camera, &e->eye.rgba,
              e->eye.depth.data ? &e->eye.depth : NULL, e->eye.holes.data ? &e->eye.holes : NULL, nt, NULL,
              &err) != GCV_OK)
        return gst_cuda_video_filter_backend_failed (filter, "Rendering the view", &err);
      if (count) {
        holes_total += gcv_overlay_count (&e->eye.holes, 0xff);
        n_views++;
      }
    } else {
      for (y = 0; y < H; y++)
        memcpy ((guint8 *) e->eye.rgba.data + (gsize) y * e->eye.rgba.stride, self->colour + (gsize) y * W * 4,
            (gsize) W * 4);
    }
  }
  n = eyes_to_compose (eyes, n_eyes, composed);
  if (n > 0) {
    compose_args (self, &out_frame->info, debug, &params, &order, &show, &dec);
    if (gcv_dibr_compose (composed, n, output == GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH, show, &dec, &order,
            &out, nt, gst_cuda_video_filter_get_cancel (filter), &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "Composing the output", &err);
  }
  if (count)
    post_holes (self, out_frame->buffer, n_views, holes_total);
  return GST_FLOW_OK;
}

/* The same on the GPU: the frame unpacked there, the eyes rendered into
 * the output (direct) or into device scratch, then composed; with
 * post-messages each view's holes counted there, the counts read back
 * with the frame. */
static GstFlowReturn
gst_cuda_video_dibr_process_device (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
    GstCudaVideoDeviceFrame * out)
{
  GstCudaVideoDibr *self = GST_CUDA_VIDEO_DIBR (filter);
  DibrResults *r = gst_cuda_video_filter_get_results (filter);
  gpointer stream = gst_cuda_video_filter_get_stream (filter);
  GcvDibrParams params;
  GstCudaVideoDibrDebug debug;
  GstCudaVideoDibrOutput output;
  GcvDibrCamera source;
  GcvDibrPacked packed;
  GcvDibrPixelOrder order;
  GcvDibrShow show;
  GcvDibrDecode dec;
  GcvDibrEye composed[2];
  GcvPlane colour;
  GcvError err = { GCV_OK, "" };
  Eye eyes[2];
  gint W = self->width, H = self->height, n_eyes, k;
  guint n;

  if (!frame_settings (self, out->info, &params, &debug, &output, &source, eyes, &n_eyes))
    return GST_FLOW_ERROR;
  r->counted = gst_cuda_video_filter_get_post_messages (filter);
  r->views = 0;
  packed_frame (self, in->info, in->planes, &packed);
  if (gcv_dibr_cuda_unpack_view (self->cuda, 0, &packed, &source, stream, &err) != GCV_OK
      || gcv_dibr_cuda_view_colour (self->cuda, 0, &colour, &err) != GCV_OK)
    return gst_cuda_video_filter_backend_failed (filter, "Unpacking the frame", &err);
  for (k = 0; k < n_eyes; k++) {
    Eye *e = &eyes[k];

    eye_planes (e, &out->planes[0], e->render ? &self->dev_eye[k] : &colour, &self->dev_zbuf[k],
        &self->dev_holes[k], debug, r->counted, W, H);
    if (e->render) {
      if (gcv_dibr_cuda_render (self->cuda, &params, 1, &e->camera, &e->eye.rgba,
              e->eye.depth.data ? &e->eye.depth : NULL, e->eye.holes.data ? &e->eye.holes : NULL, stream,
              &err) != GCV_OK)
        return gst_cuda_video_filter_backend_failed (filter, "Rendering the view", &err);
      if (r->counted && gcv_overlay_cuda_count (&e->eye.holes, 0xff, (guint64 *) self->dev_count.data + r->views,
              &r->holes[r->views], stream, &err) != GCV_OK)
        return gst_cuda_video_filter_backend_failed (filter, "Counting the holes", &err);
      r->views += r->counted;
    } else if (e->direct) {
      /* the source's colour (alpha 255) as it is */
      if (gcv_cuda_copy_2d (e->eye.rgba.data, e->eye.rgba.stride, colour.data, colour.stride, (gsize) W * 4, H,
              stream, &err) != GCV_OK)
        return gst_cuda_video_filter_backend_failed (filter, "Copying the source view", &err);
    }
  }
  n = eyes_to_compose (eyes, n_eyes, composed);
  if (n > 0) {
    compose_args (self, out->info, debug, &params, &order, &show, &dec);
    if (gcv_dibr_cuda_compose (composed, n, output == GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH, show, &dec, &order,
            &out->planes[0], stream, &err) != GCV_OK)
      return gst_cuda_video_filter_backend_failed (filter, "Composing the output", &err);
  }
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cuda_video_dibr_complete (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results)
{
  DibrResults *r = results;

  if (r->counted)
    post_holes (GST_CUDA_VIDEO_DIBR (filter), buffer, r->views, (r->views > 0 ? r->holes[0] : 0)
        + (r->views > 1 ? r->holes[1] : 0));
  return GST_FLOW_OK;
}
