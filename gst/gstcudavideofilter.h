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
 * GstCudaVideoDeviceFrame:
 * @info: the negotiated frame (format and size)
 * @planes: the planes in device memory of the element's CUDA context:
 *     data (a device pointer), width and height in samples of the plane,
 *     stride (the pitch, in bytes); data is NULL for planes the element
 *     did not ask for (gst_cuda_video_filter_set_device_planes())
 * @buffer: the GstBuffer the frame belongs to (system memory or
 *     memory:CUDAMemory), NULL when it has none yet
 *
 * A frame as the CUDA backend sees it, whatever the memory of the buffer:
 * the base class maps memory:CUDAMemory in place, and copies system-memory
 * frames to and from device buffers of its own.
 */
typedef struct
{
  const GstVideoInfo *info;
  GcvPlane planes[GST_VIDEO_MAX_PLANES];
  GstBuffer *buffer;
} GstCudaVideoDeviceFrame;

/**
 * GstCudaVideoFilter:
 *
 * Abstract base of every gst-cuda-video element.  It owns the GPU side of
 * every element: backend choice and fallback, the device and its CUDA
 * context (GStreamer's GstCudaContext, shared with the pipeline, when
 * built with gstreamer-cuda-1.0), the streams, device buffers that live as
 * long as the caps, every host <-> device transfer, memory:CUDAMemory in
 * and out, the frames in flight (async-depth), CUDA-event timing and the
 * `stats` property, LATENCY answers, and the FLUSH / caps-change / EOS
 * hooks for temporal state.  Subclasses launch kernels on device frames.
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
 * @debug_category: the element's own debug category, named as the element
 *     ("cudacanny", "cpucanny"): what the base class and the element log
 *     goes there (GST_CUDA_VIDEO_FILTER_CAT)
 * @setup: allocate everything one caps needs for @backend (algorithm
 *     context, device scratch through gst_cuda_video_filter_device_alloc()),
 *     and, for CUDA, say which planes the device frames need
 *     (gst_cuda_video_filter_set_device_planes()) and how much page-locked
 *     result memory a frame needs (gst_cuda_video_filter_set_results_size()).
 *     Called from set_caps, in the element's CUDA context, after the
 *     previous setup was torn down.
 * @teardown: free what @setup made (device buffers made with
 *     gst_cuda_video_filter_device_alloc() are freed by the base), in the
 *     element's CUDA context, with its streams idle.  Also called after a
 *     setup that failed half-way: it must take a partial setup.
 * @process: one frame on the CPU backend: host frames in and out.
 * @process_device: one frame on the CUDA backend: launch the work from
 *     @in to @out on gst_cuda_video_filter_get_stream() and return without
 *     waiting (the base class waits, downloads or hands the CUDA memory
 *     downstream).  Results the host needs afterwards are copied into
 *     gst_cuda_video_filter_get_results() on the same stream.
 * @complete: CUDA backend: the frame's device work is done; @buffer (the
 *     output, writable) is about to go downstream: attach metadata from
 *     @results, paint on the host.  May be NULL.
 * @reset: drop temporal state (FLUSH, caps change, stop).
 * @drain: at EOS (and before new caps, a new segment or stream), before
 *     the event goes downstream, after the frames in flight went out: push
 *     what the algorithm holds back (elements with latency), each frame
 *     with gst_cuda_video_filter_push_output().
 * @latency_frames: how many frames the algorithm's output lags the input
 *     (answered in the LATENCY query with the frames in flight; @process
 *     returns GST_BASE_TRANSFORM_FLOW_DROPPED while the first frames fill
 *     the history).
 * @held_frames: how many input frames the algorithm holds now whose
 *     outputs are still to come (at most @latency_frames; fewer while the
 *     history fills).  Serialized events that do not end the stream (GAP,
 *     TAG, custom) wait behind them and leave in order with the frames;
 *     those that do (EOS, CAPS, SEGMENT, STREAM_START, ...) make the base
 *     class call @drain first.  NULL: the element holds nothing.
 * @process_in_place: for analysers whose output is the input buffer (plus
 *     metadata), CPU backend: one frame, mapped for reading, and for
 *     writing too when @writes_in_place says so.  A subclass that sets it
 *     calls gst_base_transform_set_in_place (TRUE) in its init: buffers
 *     then pass through without a pixel copy.
 * @process_device_in_place: the same on the CUDA backend: launch the
 *     analysis of @frame (read only); @complete then sees the buffer.
 * @writes_in_place: whether the next @process_in_place paints on the frame
 *     (a read-only map then copies nothing).
 * @caps_problem: why input @caps cannot be taken with the element's
 *     current settings (a property that restricts the formats or sizes,
 *     as dibr's layout), naming the property and what the caps say; NULL
 *     when the settings are not why.  When a negotiation fails for want of
 *     output caps the base class posts it in its error.  May be NULL.
 * @install_cuda_properties: installs on the class of the cuda* element the
 *     properties only a GPU uses (motionest's devices and split), besides
 *     the cuda-device-id and fallback the base class gives it: the cpu*
 *     element does not show them.  The element's set / get_property take
 *     them by their property ids as their own.  May be NULL.
 * @scales_frame: the output is the whole input frame scaled to the output
 *     size (no crop, no border): metas tagged with the frame's size (and
 *     nothing but video, size and orientation) are rescaled by their
 *     transform function (GstVideoMetaTransform), as videoscale does,
 *     where other elements that change the size drop them.
 */
struct _GstCudaVideoFilterClass
{
  GstBaseTransformClass parent_class;

  GstCudaVideoBackend backend;
  GstDebugCategory *debug_category;

  gboolean (*setup) (GstCudaVideoFilter * filter, GstCudaVideoBackend backend, GError ** error);
  void (*teardown) (GstCudaVideoFilter * filter);
  GstFlowReturn (*process) (GstCudaVideoFilter * filter, GstVideoFrame * in_frame,
      GstVideoFrame * out_frame);
  GstFlowReturn (*process_device) (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * in,
      GstCudaVideoDeviceFrame * out);
  GstFlowReturn (*complete) (GstCudaVideoFilter * filter, GstBuffer * buffer, gpointer results);
  void (*reset) (GstCudaVideoFilter * filter);
  GstFlowReturn (*drain) (GstCudaVideoFilter * filter);
  guint (*latency_frames) (GstCudaVideoFilter * filter);
  guint (*held_frames) (GstCudaVideoFilter * filter);
  GstFlowReturn (*process_in_place) (GstCudaVideoFilter * filter, GstVideoFrame * frame);
  GstFlowReturn (*process_device_in_place) (GstCudaVideoFilter * filter, GstCudaVideoDeviceFrame * frame);
  gboolean (*writes_in_place) (GstCudaVideoFilter * filter);
  gchar *(*caps_problem) (GstCudaVideoFilter * filter, GstCaps * caps);
  void (*install_cuda_properties) (GObjectClass * klass);
  gboolean scales_frame;
};

GType gst_cuda_video_filter_get_type (void);

/* The debug category of the element @obj (any of its instance pointers):
 * element files define GST_CAT_DEFAULT as GST_CUDA_VIDEO_FILTER_CAT (self),
 * so that GST_DEBUG=cpucanny:6 shows what cpucanny does, base class
 * included. */
#define GST_CUDA_VIDEO_FILTER_CAT(obj) (GST_CUDA_VIDEO_FILTER_GET_CLASS (obj)->debug_category)

/* Registers two element factories for the abstract algorithm type @parent:
 * "cuda" + @suffix and "cpu" + @suffix, subclasses that differ only in
 * metadata and backend. */
gboolean gst_cuda_video_filter_register_pair (GstPlugin * plugin, GType parent, const gchar * suffix,
    const gchar * long_name, const gchar * classification, const gchar * description);

GstCudaVideoBackend gst_cuda_video_filter_get_backend (GstCudaVideoFilter * filter);
/* Threads for the CPU backend (the n-threads property, 0 = all cores). */
gint gst_cuda_video_filter_get_n_threads (GstCudaVideoFilter * filter);
/* The stop request the element's backend contexts watch (give it to them
 * in setup): set when the element goes to READY and at a FLUSH_START,
 * cleared at start and at FLUSH_STOP, so that a frame of any cost ends
 * within a chunk of its work.  A backend call that stopped returns
 * GCV_ERROR_CANCELLED, which gst_cuda_video_filter_backend_failed() (and
 * _set_error() + _post_error()) turn into GST_FLOW_FLUSHING without a
 * message.  Valid as long as the element. */
const GcvCancel *gst_cuda_video_filter_get_cancel (GstCudaVideoFilter * filter);
/* The CUDA device the instance runs on (valid with the CUDA backend). */
gint gst_cuda_video_filter_get_device (GstCudaVideoFilter * filter);
/* The stream the CUDA backend's work goes on (a cudaStream_t of the
 * element's context); NULL for the CPU backend. */
gpointer gst_cuda_video_filter_get_stream (GstCudaVideoFilter * filter);
/* Makes the element's CUDA context current on the calling thread (and the
 * previous one current again with _leave).  The base class does it around
 * setup, teardown, process_device*, complete and push_output's render;
 * subclasses need it only for work of their own elsewhere. */
gboolean gst_cuda_video_filter_enter (GstCudaVideoFilter * filter, GError ** error);
void gst_cuda_video_filter_leave (GstCudaVideoFilter * filter);

/* Whether the negotiated input and output are in memory:CUDAMemory (valid
 * from setup on; always FALSE on the CPU). */
void gst_cuda_video_filter_get_memory (GstCudaVideoFilter * filter, gboolean * in_device,
    gboolean * out_device);

/* Another device, or another stream on the element's device, that an
 * element spreads its work over (cudamotionest's devices=0,1): its own
 * stream and context (the element's when on the same device; on another
 * device a GstCudaContext of its own when the element has one, else
 * CUDA's primary context of that device). */
typedef struct _GstCudaVideoPeer GstCudaVideoPeer;

/* In the element's context (setup): a peer on @device. */
GstCudaVideoPeer *gst_cuda_video_filter_peer_new (GstCudaVideoFilter * filter, gint device, GError ** error);
/* In the element's context, the peer's stream idle (teardown). */
void gst_cuda_video_filter_peer_free (GstCudaVideoFilter * filter, GstCudaVideoPeer * peer);
gint gst_cuda_video_peer_get_device (GstCudaVideoPeer * peer);
gpointer gst_cuda_video_peer_get_stream (GstCudaVideoPeer * peer);
/* From the element's context: makes the peer's context current (and the
 * element's again). */
gboolean gst_cuda_video_filter_peer_enter (GstCudaVideoFilter * filter, GstCudaVideoPeer * peer,
    GError ** error);
void gst_cuda_video_filter_peer_leave (GstCudaVideoFilter * filter, GstCudaVideoPeer * peer);
/* From the element's context: the peer's stream waits (on the device) for
 * the work queued so far on the element's stream. */
gboolean gst_cuda_video_filter_peer_follow (GstCudaVideoFilter * filter, GstCudaVideoPeer * peer,
    GError ** error);
/* From the element's context: the element's stream waits for the work
 * queued so far on the peer's stream. */
gboolean gst_cuda_video_filter_peer_join (GstCudaVideoFilter * filter, GstCudaVideoPeer * peer,
    GError ** error);

/* Device memory that lives until the next caps or stop; freed by the base. */
gboolean gst_cuda_video_filter_device_alloc (GstCudaVideoFilter * filter, gsize row_bytes, guint rows,
    GcvPlane * plane, gint width, GError ** error);

/* Plane masks (bit p = plane p): every plane of a frame. */
#define GST_CUDA_VIDEO_ALL_PLANES ((1u << GST_VIDEO_MAX_PLANES) - 1)

/* For setup (CUDA backend): the planes of the input and of the output
 * (bit p = plane p) the device frames carry; the others are neither
 * uploaded nor downloaded.  Default: every plane. */
void gst_cuda_video_filter_set_device_planes (GstCudaVideoFilter * filter, guint in_planes, guint out_planes);
/* For setup (CUDA backend): page-locked host memory of @size bytes per
 * frame in flight, for what a frame's device work leaves for the host
 * (motion vectors, points): gst_cuda_video_filter_get_results() during
 * process_device*, handed to complete. */
void gst_cuda_video_filter_set_results_size (GstCudaVideoFilter * filter, gsize size);
gpointer gst_cuda_video_filter_get_results (GstCudaVideoFilter * filter);

/* Renders one output frame that no input buffer maps to: fills the output
 * (pixels and the buffer's timestamps) as process / process_device do,
 * and returns GST_FLOW_OK, or GST_BASE_TRANSFORM_FLOW_DROPPED to push
 * nothing.  @out_frame is the mapped host frame (CPU backend) and
 * @out_device the device frame (CUDA backend); the other is NULL. */
typedef GstFlowReturn (*GstCudaVideoFilterRenderFunc) (GstCudaVideoFilter * filter,
    GstVideoFrame * out_frame, GstCudaVideoDeviceFrame * out_device, gpointer user_data);
/* For @drain: pushes the frames in flight first, then takes an output
 * buffer (the negotiated pool or allocator), runs @render on it, waits for
 * it with the bookkeeping and statistics of a normal frame, and pushes
 * it downstream. */
GstFlowReturn gst_cuda_video_filter_push_output (GstCudaVideoFilter * filter,
    GstCudaVideoFilterRenderFunc render, gpointer user_data);

/* Copies onto @to the metas of @from that stay true of a frame of the
 * output caps (tagless ones; those tagged only video / size / orientation
 * when the size is kept): for outputs that lag their input (conv3d), whose
 * metas basetransform cannot copy. */
void gst_cuda_video_filter_copy_metas (GstCudaVideoFilter * filter, GstBuffer * from, GstBuffer * to);

/* Paints @mask (GRAY8 on the device, frame size; a sample is painted
 * where (mask & @mask_bits) != 0) onto the device frame @frame in @argb,
 * on the element's stream: the device twin of
 * gst_cuda_video_filter_paint_mask(). */
gboolean gst_cuda_video_filter_paint_mask_device (GstCudaVideoFilter * filter,
    GstCudaVideoDeviceFrame * frame, const GcvPlane * mask, guint8 mask_bits, guint32 argb, GError ** error);
/* Copies the planes of @src to @dst (same format and size) on the
 * element's stream. */
gboolean gst_cuda_video_filter_copy_device_frame (GstCudaVideoFilter * filter,
    const GstCudaVideoDeviceFrame * src, GstCudaVideoDeviceFrame * dst, GError ** error);

/* The byte offset of component @c in its pixel: GST_VIDEO_INFO_COMP_POFFSET,
 * except that GStreamer 1.22 gives the V of P010_10LE (and P012_LE,
 * P016_LE) the offset 1, counting 16-bit samples where every other format
 * counts bytes (V is bytes 2 and 3 of each UV pair): the odd offset of a
 * component deeper than 8 bits is taken as samples. */
gint gst_cuda_video_filter_comp_offset (const GstVideoInfo * info, guint c);
/* The first component stored in plane @plane of @info, or -1. */
gint gst_cuda_video_filter_plane_component (const GstVideoInfo * info, guint plane);
/* The samples of plane @plane: @type U16 for components deeper than 8 bits,
 * else U8; @channels interleaved per pixel (pixel stride / sample size).
 * Returns the plane's first component, or -1 when no component is stored
 * there. */
gint gst_cuda_video_filter_plane_samples (const GstVideoInfo * info, guint plane, GcvSampleType * type,
    gint * channels);
/* gst_video_frame_map() for a buffer the element maps itself: first checks
 * that @buf holds a frame of @info (a GstVideoMeta of another format or
 * size, planes outside the buffer, too few bytes) and posts an error
 * naming both geometries when it does not, as when the map fails.  The
 * base class checks every input buffer so before the element sees it. */
gboolean gst_cuda_video_filter_map_frame (GstCudaVideoFilter * filter, GstVideoFrame * frame,
    const GstVideoInfo * info, GstBuffer * buf, GstMapFlags flags);
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

/* The start of every fixate_caps (the base class's own fixates with it):
 * @othercaps (taken) with its memory:CUDAMemory structures first where
 * this instance can exchange CUDA memory.  basetransform keeps the peer's
 * order, and a peer that takes both (cudadownload, a tee) lists system
 * memory first; frames stay on the GPU when both sides can. */
GstCaps *gst_cuda_video_filter_prefer_device (GstBaseTransform * trans, GstCaps * othercaps);

/* For elements that change the frame size (transform_caps): @caps with
 * width and height set to @width / @height where those are > 0, any size
 * (1 .. 32767) where they are 0, and, when @free_par, any pixel aspect
 * ratio.  When neither size is forced, @caps themselves come first, so that
 * an unconstrained peer gets the same size (and the element can pass
 * through).  Ends with gst_cuda_video_filter_clip_caps(). */
GstCaps *gst_cuda_video_filter_size_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, gint width, gint height, gboolean free_par);

/* How to read luma from plane 0 of @info: GRAY8 and the 8-bit YUV formats
 * (Y as is), 16-bit little-endian words with the value in the high bits
 * (GRAY16_LE, P010_10LE: GCV_LUMA_GRAY16LE), and RGB with 4 bytes per pixel
 * in one plane (RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR).  FALSE
 * for other formats. */
gboolean gst_cuda_video_filter_luma_input (const GstVideoInfo * info, GcvLumaInput * luma);

/* For elements that work on 8-bit luma (motionest, vcm), CPU backend: plane
 * 0 of @frame as 8-bit luma.  8-bit formats give the plane itself; 16-bit
 * luma (P010_10LE) is converted, gcv_luma16_to_8 of depth.h: (v + 128) /
 * 257, into host memory of the base class (allocated at the first call of
 * the caps) that stays valid until the next call.  FALSE, with @error, for
 * formats without such a luma plane or when memory runs out. */
gboolean gst_cuda_video_filter_luma8 (GstCudaVideoFilter * filter, GstVideoFrame * frame, GcvPlane * luma,
    GError ** error);
/* The same in process_device*: the conversion is queued on the element's
 * stream into a device plane of the frame in flight (allocated at its
 * first call), valid until the frame completes. */
gboolean gst_cuda_video_filter_luma8_device (GstCudaVideoFilter * filter,
    const GstCudaVideoDeviceFrame * frame, GcvPlane * luma, GError ** error);

/* For elements that compute 16-bit samples (bsplinescale, conv3d): rounds
 * every sample of the planes in @planes (bit p = plane p) of a format that
 * keeps low bits of its 16-bit words zero (P010_10LE: the 10-bit value <<
 * 6) to the nearest code of the format, gcv_round_low_bits of depth.h:
 * min (v + 32, 65535) & 0xffc0 for P010.  Other formats and planes are
 * left as they are.  CPU backend, on the mapped output frame. */
gboolean gst_cuda_video_filter_round_to_format (GstCudaVideoFilter * filter, GstVideoFrame * frame,
    guint planes, GError ** error);
/* The same in process_device / a render on the device, queued on the
 * element's stream. */
gboolean gst_cuda_video_filter_round_to_format_device (GstCudaVideoFilter * filter,
    const GstCudaVideoDeviceFrame * frame, guint planes, GError ** error);

/* Turns a backend error into a GError in GST_RESOURCE_ERROR, keeping the
 * message (GCV_ERROR_CANCELLED: a domain of its own that _post_error
 * recognises); returns FALSE for use in return statements. */
gboolean gst_cuda_video_filter_set_error (GError ** error, const GcvError * err);
/* Posts a backend's failure while @what (gst_cuda_video_filter_set_error
 * then _post_error) and returns GST_FLOW_ERROR. */
GstFlowReturn gst_cuda_video_filter_backend_failed (GstCudaVideoFilter * filter, const gchar * what,
    const GcvError * err);
/* Posts @error as a GST_ELEMENT_ERROR (no memory -> NO_SPACE_LEFT) and
 * returns GST_FLOW_ERROR; work that stopped on request (see
 * gst_cuda_video_filter_get_cancel) posts nothing and returns
 * GST_FLOW_FLUSHING. */
GstFlowReturn gst_cuda_video_filter_post_error (GstCudaVideoFilter * filter, const gchar * what,
    GError * error);
/* Raw video caps in @formats ("{ ... }") and sizes 1 .. @max (a macro:
 * the kernel module's limit) each way, for the pad templates: a size the
 * backend would refuse is refused at negotiation. */
#define GST_CUDA_VIDEO_CAPS_MAKE_MAX(formats, max) "video/x-raw, format = (string) " formats ", " \
  "width = (int) [ 1, " G_STRINGIFY (max) " ], height = (int) [ 1, " G_STRINGIFY (max) " ], " \
  "framerate = " GST_VIDEO_FPS_RANGE

/* Results on the bus, for elements whose result is more than pixels
 * (motion vectors, edge counts, ...): a "post-messages" property (default
 * FALSE, as level's) that the element installs with
 * gst_cuda_video_filter_install_post_messages() and hands to
 * gst_cuda_video_filter_set_post_messages() / _get_post_messages() in its
 * set / get_property (atomic: safe under the object lock and from the
 * streaming thread).  @message names the element messages (the same for
 * the cuda and cpu twin), for the property's blurb. */
void gst_cuda_video_filter_install_post_messages (GObjectClass * klass, guint prop_id, const gchar * message);
void gst_cuda_video_filter_set_post_messages (GstCudaVideoFilter * filter, gboolean post);
gboolean gst_cuda_video_filter_get_post_messages (GstCudaVideoFilter * filter);
/* Posts @results (taken; its name is the message's) as an element message
 * of @filter about @buffer, with level's timestamp fields added:
 * "timestamp", "stream-time", "running-time" and "duration" (guint64
 * nanoseconds, GST_CLOCK_TIME_NONE where unknown). */
void gst_cuda_video_filter_post_results (GstCudaVideoFilter * filter, GstBuffer * buffer, GstStructure * results);

/* The settings policy every element follows:
 *  - a setter takes any value its GParamSpec allows (enums for discrete
 *    choices); a single value the GParamSpec cannot refuse (an even window
 *    size, a file that cannot be read) is refused there with
 *    gst_cuda_video_filter_warn_rejected(): a WARNING on the bus naming the
 *    property, the value and why (a GLib warning while the element has no
 *    bus yet), the previous value kept;
 *  - values that constrain each other (low <= high threshold) are checked
 *    together where they are used, so the order in which they are set
 *    never matters.  An unusable combination is an ERROR only while the
 *    run (start to stop) has had no usable settings yet: at the first
 *    setup the element cannot run.  Once it has, an unusable combination,
 *    before a frame or at a later setup (a renegotiation: new caps, a
 *    property that changes the output format), is a WARNING and the last
 *    usable settings stay in force (gst_cuda_video_filter_settings_ok(),
 *    gst_cuda_video_filter_apply_params());
 *  - one WARNING per change: when the settings become unusable, and again
 *    only when the rule they break changes or after usable settings came
 *    in between.  New values that break the same rule (a control binding
 *    moving a threshold at every frame) are no change. */

/* For set_property: posts that @value for @pspec was refused (@why) and
 * the previous value is kept, naming the value and, for int properties,
 * the range the GParamSpec accepts.  Call it outside the object lock. */
void gst_cuda_video_filter_warn_rejected (GstCudaVideoFilter * filter, GParamSpec * pspec,
    const GValue * value, const gchar * why);
/* Before a frame: @bad (NULL: the settings are usable) is the rule the
 * combination of properties breaks, naming them.  Posts a WARNING when it
 * changes (see the policy above); returns whether the frame may use the
 * settings (else the caller keeps its last usable ones). */
gboolean gst_cuda_video_filter_settings_ok (GstCudaVideoFilter * filter, const gchar * bad);
/* The same with the properties' @values for the message (NULL: none):
 * values that change while the rule @bad stays broken warn no more. */
gboolean gst_cuda_video_filter_settings_ok_values (GstCudaVideoFilter * filter, const gchar * bad,
    const gchar * values);
/* The same for a plain parameter block (@size bytes at @params, as the
 * element's kernel module takes it) that @bad describes (NULL: usable;
 * @values as above): usable ones are remembered and kept; unusable ones
 * are replaced in @params by the last usable of this run (a WARNING,
 * "invalid @what settings: @bad"), or, when this run has none yet, FALSE
 * with @error set (at setup: set_caps posts it) or, with @error NULL
 * (before a frame), posted as an ERROR.  Forgotten at stop. */
gboolean gst_cuda_video_filter_apply_params (GstCudaVideoFilter * filter, gpointer params, gsize size,
    const gchar * what, const gchar * bad, const gchar * values, GError ** error);
/* gst_cuda_video_filter_apply_params() before a frame, without values. */
gboolean gst_cuda_video_filter_usable_params (GstCudaVideoFilter * filter, gpointer params, gsize size,
    const gchar * what, const gchar * bad);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_FILTER_H__ */
