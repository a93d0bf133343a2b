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
#ifndef __GST_CUDA_VIDEO_FILTER_H__
#define __GST_CUDA_VIDEO_FILTER_H__

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "gcv-image.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_FILTER            (gst_cuda_video_filter_get_type())
#define GST_CUDA_VIDEO_FILTER(obj)            (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_FILTER,GstCudaVideoFilter))
#define GST_CUDA_VIDEO_FILTER_CLASS(klass)    (G_TYPE_CHECK_CLASS_CAST((klass),GST_TYPE_CUDA_VIDEO_FILTER,GstCudaVideoFilterClass))
#define GST_CUDA_VIDEO_FILTER_GET_CLASS(obj)  (G_TYPE_INSTANCE_GET_CLASS((obj),GST_TYPE_CUDA_VIDEO_FILTER,GstCudaVideoFilterClass))
#define GST_IS_CUDA_VIDEO_FILTER(obj)         (G_TYPE_CHECK_INSTANCE_TYPE((obj),GST_TYPE_CUDA_VIDEO_FILTER))

typedef struct _GstCudaVideoFilter GstCudaVideoFilter;
typedef struct _GstCudaVideoFilterClass GstCudaVideoFilterClass;
typedef struct _GstCudaVideoFilterPrivate GstCudaVideoFilterPrivate;

/**
 * GstCudaVideoBackend:
 * @GST_CUDA_VIDEO_BACKEND_CPU: the plain C twin
 * @GST_CUDA_VIDEO_BACKEND_CUDA: CUDA kernels on a GPU
 */
typedef enum
{
  GST_CUDA_VIDEO_BACKEND_CPU = 0,
  GST_CUDA_VIDEO_BACKEND_CUDA = 1,
} GstCudaVideoBackend;

/**
 * GstCudaVideoFilter:
 *
 * Abstract base of every gst-cuda-video element.  It owns what the
 * algorithms share: backend choice and fallback, the CUDA device and one
 * stream per instance, device buffers that live as long as the caps, pinned
 * staging for transfers, CUDA-event timing and the `stats` property, LATENCY
 * answers, and the FLUSH / caps-change / EOS hooks for temporal state.
 */
struct _GstCudaVideoFilter
{
  GstBaseTransform parent;

  /* negotiated caps, valid from set_caps on */
  GstVideoInfo in_info;
  GstVideoInfo out_info;

  /* < private > */
  GstCudaVideoFilterPrivate *priv;
};

/**
 * GstCudaVideoFilterClass:
 * @backend: which backend the registered element asks for (set by
 *     gst_cuda_video_filter_register_pair() in the cuda and cpu subclasses)
 * @setup: allocate everything one caps needs for @backend (algorithm
 *     context, device buffers through gst_cuda_video_filter_device_alloc()).
 *     Called from set_caps after the previous setup was torn down.
 * @teardown: free what @setup made (device buffers made with
 *     gst_cuda_video_filter_device_alloc() are freed by the base).
 * @process: one frame.  CUDA backend: upload with
 *     gst_cuda_video_filter_upload(), mark the phases with
 *     gst_cuda_video_filter_mark(), launch on the stream, download and
 *     finish with gst_cuda_video_filter_finish().
 * @reset: drop temporal state (FLUSH, caps change, stop).
 * @drain: at EOS, before the EOS goes downstream: push what is held back
 *     (elements with latency), each frame with
 *     gst_cuda_video_filter_push_output().
 * @latency_frames: how many frames the output lags the input (answered in
 *     the LATENCY query; @process returns GST_BASE_TRANSFORM_FLOW_DROPPED
 *     while the first frames fill the history).
 * @process_in_place: for analysers whose output is the input buffer (plus
 *     metadata): one frame, mapped for reading, and for writing too when
 *     @writes_in_place says so.  A subclass that sets it calls
 *     gst_base_transform_set_in_place (TRUE) in its init: buffers then pass
 *     through without a pixel copy.
 * @writes_in_place: whether the next @process_in_place paints on the frame
 *     (a read-only map then copies nothing).
 */
struct _GstCudaVideoFilterClass
{
  GstBaseTransformClass parent_class;

  GstCudaVideoBackend backend;

  gboolean (*setup) (GstCudaVideoFilter * filter, GstCudaVideoBackend backend, GError ** error);
  void (*teardown) (GstCudaVideoFilter * filter);
  GstFlowReturn (*process) (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
      GstVideoFrame * out_frame);
  void (*reset) (GstCudaVideoFilter * filter);
  GstFlowReturn (*drain) (GstCudaVideoFilter * filter);
  guint (*latency_frames) (GstCudaVideoFilter * filter);
  GstFlowReturn (*process_in_place) (GstCudaVideoFilter * filter, GstVideoFrame * frame);
  gboolean (*writes_in_place) (GstCudaVideoFilter * filter);
};

/**
 * GstCudaVideoPhase:
 * Points in a CUDA frame at which the base records an event, so that stats
 * can split the frame into upload / compute / download.
 */
typedef enum
{
  GST_CUDA_VIDEO_PHASE_UPLOADED,
  GST_CUDA_VIDEO_PHASE_COMPUTED,
} GstCudaVideoPhase;

GType gst_cuda_video_filter_get_type (void);

/* Registers two element factories for the abstract algorithm type @parent:
 * "cuda" + @suffix and "cpu" + @suffix, subclasses that differ only in
 * metadata and backend. */
gboolean gst_cuda_video_filter_register_pair (GstPlugin * plugin, GType parent, const gchar * suffix,
    const gchar * long_name, const gchar * classification, const gchar * description);

GstCudaVideoBackend gst_cuda_video_filter_get_backend (GstCudaVideoFilter * filter);
/* Threads for the CPU backend (the n-threads property, 0 = all cores). */
gint gst_cuda_video_filter_get_n_threads (GstCudaVideoFilter * filter);
/* The CUDA device the instance runs on (valid with the CUDA backend). */
gint gst_cuda_video_filter_get_device (GstCudaVideoFilter * filter);
/* The instance's cudaStream_t; NULL for the CPU backend. */
gpointer gst_cuda_video_filter_get_stream (GstCudaVideoFilter * filter);

/* Device memory that lives until the next caps or stop; freed by the base. */
gboolean gst_cuda_video_filter_device_alloc (GstCudaVideoFilter * filter, gsize row_bytes, guint rows,
    GcvPlane * plane, gint width, GError ** error);

/* Copies one host plane to device through pinned staging (asynchronous). */
gboolean gst_cuda_video_filter_upload (GstCudaVideoFilter * filter, const guint8 * host, gsize host_stride,
    const GcvPlane * dev, gsize row_bytes, GError ** error);
/* Queues a device -> host copy; the host side is written in _finish(). */
gboolean gst_cuda_video_filter_download (GstCudaVideoFilter * filter, const GcvPlane * dev,
    guint8 * host, gsize host_stride, gsize row_bytes, GError ** error);
void gst_cuda_video_filter_mark (GstCudaVideoFilter * filter, GstCudaVideoPhase phase);

/* Renders one output frame that no input buffer maps to: fills @out_frame
 * (pixels and the buffer's timestamps) as @process does, and returns
 * GST_FLOW_OK, or GST_BASE_TRANSFORM_FLOW_DROPPED to push nothing. */
typedef GstFlowReturn (*GstCudaVideoFilterRenderFunc) (GstCudaVideoFilter * filter,
    GstVideoFrame * out_frame, gpointer user_data);
/* For @drain: takes an output buffer (the negotiated pool or allocator),
 * runs @render on it with the CUDA frame bookkeeping and statistics of a
 * normal frame, and pushes it downstream. */
GstFlowReturn gst_cuda_video_filter_push_output (GstCudaVideoFilter * filter,
    GstCudaVideoFilterRenderFunc render, gpointer user_data);
/* Waits for the stream and completes the queued downloads. */
gboolean gst_cuda_video_filter_finish (GstCudaVideoFilter * filter, GError ** error);

/* The first component stored in plane @plane of @info, or -1. */
gint gst_cuda_video_filter_plane_component (const GstVideoInfo * info, guint plane);
/* The samples of plane @plane: @type U16 for components deeper than 8 bits,
 * else U8; @channels interleaved per pixel (pixel stride / sample size).
 * Returns the plane's first component, or -1 when no component is stored
 * there. */
gint gst_cuda_video_filter_plane_samples (const GstVideoInfo * info, guint plane, GcvSampleType * type,
    gint * channels);
/* The first @n_planes planes of a mapped frame as GcvPlanes: data, stride,
 * and width / height in samples of that plane. */
void gst_cuda_video_filter_frame_planes (GstVideoFrame * frame, guint n_planes, GcvPlane * planes);

/* Blends @argb (alpha = opacity) into @frame wherever @mask (GRAY8, frame
 * size) is non-zero: RGB components get R, G, B; YUV components BT.601
 * limited-range Y'CbCr (a subsampled chroma sample when any luma pixel it
 * covers is masked); GRAY the colour's luma.  Alpha components are kept. */
void gst_cuda_video_filter_paint_mask (GstVideoFrame * frame, const GcvPlane * mask, guint32 argb);

/* The end of every transform_caps: narrows @result (what the subclass
 * derived from @caps for the other pad; ownership is taken) to the other
 * pad's template and then to @filter, and logs the outcome. */
GstCaps *gst_cuda_video_filter_clip_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * result, GstCaps * filter);

/* For elements that change the frame size (transform_caps): @caps with
 * width and height set to @width / @height where those are > 0, any size
 * (1 .. 32767) where they are 0, and, when @free_par, any pixel aspect
 * ratio.  When neither size is forced, @caps themselves come first, so that
 * an unconstrained peer gets the same size (and the element can pass
 * through).  Ends with gst_cuda_video_filter_clip_caps(). */
GstCaps *gst_cuda_video_filter_size_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, gint width, gint height, gboolean free_par);

/* How to read luma from plane 0 of @info: GRAY8 and the 8-bit YUV formats
 * (Y as is), GRAY16_LE, and RGB with 4 bytes per pixel in one plane (RGBA,
 * BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR).  FALSE for other formats. */
gboolean gst_cuda_video_filter_luma_input (const GstVideoInfo * info, GcvLumaInput * luma);

/* Turns a backend error into a GError in GST_RESOURCE_ERROR, keeping the
 * message; returns FALSE for use in return statements. */
gboolean gst_cuda_video_filter_set_error (GError ** error, const GcvError * err);
/* Posts @error as a GST_ELEMENT_ERROR (no memory -> NO_SPACE_LEFT) and
 * returns GST_FLOW_ERROR. */
GstFlowReturn gst_cuda_video_filter_post_error (GstCudaVideoFilter * filter, const gchar * what,
    GError * error);
/* For set_property: warns that @value for @pspec was refused (@why) and
 * the previous value is kept, naming the value and, for int properties,
 * the range the GParamSpec accepts.  Call it outside the object lock. */
void gst_cuda_video_filter_warn_rejected (GstCudaVideoFilter * filter, GParamSpec * pspec,
    const GValue * value, const gchar * why);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_FILTER_H__ */
