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
/* What the files of the base class share and no element sees: the
 * per-instance state, the frames in flight and their slots, and the
 * functions one concern offers the others.  The class is one GObject in
 * eight files, split by concern:
 *   gstcudavideofilter.c              class, properties, start / stop /
 *                                     set_caps, events and queries,
 *                                     registration of the cuda / cpu pairs
 *   gstcudavideofilter-settings.c     the settings policy, error posting,
 *                                     results on the bus
 *   gstcudavideofilter-device.c       device, context, streams, peers
 *   gstcudavideofilter-negotiation.c  caps, allocation queries, metas
 *   gstcudavideofilter-inflight.c     slots, submitting, completing and
 *                                     pushing frames in order
 *   gstcudavideofilter-events.c       serialized events in order with the
 *                                     frames an element holds back
 *   gstcudavideofilter-transfer.c     host <-> device copies, CUDA memory
 *                                     in place
 *   gstcudavideofilter-pixels.c       luma, planes, rounding, painting */
#ifndef __GST_CUDA_VIDEO_FILTER_PRIVATE_H__
#define __GST_CUDA_VIDEO_FILTER_PRIVATE_H__

#include "gstcudavideofilter.h"
#include "gcv-cuda.h"

G_BEGIN_DECLS

/* async-depth=-1 on the GPU: enough for upload, compute and download of
 * three frames to overlap */
#define AUTO_ASYNC_DEPTH 2
#define MAX_ASYNC_DEPTH 16

/* Planes from this size on are copied to and from staging by a few
 * threads: one core's memcpy (~9 GB/s measured on the H200 host) is slower
 * than the PCIe link (55 GB/s). */
#define PARALLEL_COPY_BYTES (1 << 19)

/* A CPU frame that takes this long (µs) is logged (INFO, at most one line
 * a second): a quarter of a second is below 4 frames a second, far from
 * real time at any video rate and long enough to notice as a stall. */
#define SLOW_CPU_FRAME_US (250 * 1000)

/* GstBaseTransform's class, for chaining up from any file of the class */
#define GST_CUDA_VIDEO_FILTER_PARENT_CLASS \
  ((GstBaseTransformClass *) g_type_class_peek (GST_TYPE_BASE_TRANSFORM))

enum
{ STREAM_COMPUTE, STREAM_UPLOAD, STREAM_DOWNLOAD, N_STREAMS };

/* EV_NEIGHBOUR: recorded on a neighbour's stream that our compute stream
 * then waits for (its frame in CUDA memory) */
enum
{ EV_UP_START, EV_UP_END, EV_COMPUTE_START, EV_COMPUTE_END, EV_DOWN_START, EV_DOWN_END, EV_NEIGHBOUR,
  N_EVENTS };

/* What one frame in flight owns on the device and in page-locked memory.
 * A slot is taken by a frame when it is submitted and is free again once
 * that frame completed; there are always more slots than frames in
 * flight (see take_slot). */
typedef struct
{
  GcvPlane dev_in[GST_VIDEO_MAX_PLANES];        /* system-memory input, uploaded */
  GcvPlane dev_out[GST_VIDEO_MAX_PLANES];       /* output, before its download */
  guint8 *up_staging, *down_staging;    /* page-locked, for pageable host frames */
  gsize up_size, down_size;
  gpointer results;             /* page-locked, results_size bytes */
  GcvPlane luma8;               /* gst_cuda_video_filter_luma8_device's, at its first call */
  GcvCudaEvent *events[N_EVENTS];
} Slot;

/* A download landed in staging, copied to its host plane when the frame
 * completes. */
typedef struct
{
  gsize staging_offset;
  guint8 *host;
  gsize host_stride, row_bytes;
  guint rows;
} StagedCopy;

/* A frame between its submission and the push of its output. */
typedef struct
{
  GstBuffer *outbuf;            /* to push; NULL when the frame gives none */
  GstBuffer *inbuf;             /* kept until the device has read it */
  GstVideoFrame in_map, out_map;
  gboolean in_mapped, out_mapped;
  Slot *slot;                   /* NULL: no device work (CPU, passthrough) */
  gboolean uploaded, downloaded, computed;
  StagedCopy copies[GST_VIDEO_MAX_PLANES];
  guint n_copies;
  gint64 host_us;               /* host time spent on the frame */
} Job;

struct _GstCudaVideoFilterPrivate
{
  /* properties, under the object lock */
  gint device_id;
  gboolean fallback;
  guint n_threads;
  gint async_depth;
  gint post_messages;           /* atomic: for elements that install post-messages */

  /* requested by a change to READY or a FLUSH_START (any thread), cleared
   * at start and FLUSH_STOP; the backends' contexts watch it */
  GcvCancel cancel;

  /* state, streaming thread (and start/stop) */
  GstCudaVideoBackend backend;
  gboolean started;
  gboolean configured;
  gboolean set_up;              /* setup ran (even if it failed): teardown is due */
  gint device;
  GstObject *context;           /* the GstCudaContext, or NULL: CUDA's primary context */
  gpointer streams[N_STREAMS];
  gpointer compute_stream;      /* GStreamer's GstCudaStream of streams[STREAM_COMPUTE] (1.24 on, in
                                 * a GstCudaContext), named on our pools; or NULL */
  GcvCudaEvent *fork;           /* peer_follow's */

  /* per caps (CUDA backend) */
  gboolean in_device, out_device;       /* memory:CUDAMemory on the sink / src pad */
  guint in_planes, out_planes;
  gsize results_size;
  Slot *slots;
  guint n_slots, next_slot;
  Slot *current;                /* the slot of the frame being submitted */
  gboolean warned_foreign;
  gchar *settings_warned;       /* the unusable combination last warned about */
  GBytes *usable_params;        /* gst_cuda_video_filter_usable_params() */
  gchar *setup_failed;          /* the setup error last posted, for these caps */
  gboolean negotiation_explained;       /* a failed renegotiation was posted */
  GPtrArray *device_allocs;
  guint8 *luma8;                /* gst_cuda_video_filter_luma8's (CPU), at its first call */

  /* frames in flight, oldest first; the one transform() just submitted */
  GQueue inflight;
  Job *submitted;
  /* serialized events waiting for held frames to leave, oldest first */
  GQueue held_events;

  /* slow CPU frames since the last INFO line about them (streaming thread) */
  gint64 slow_logged_us;
  guint slow_frames;
  gint64 slowest_us;

  /* statistics, under stats_lock */
  GMutex stats_lock;
  guint64 frames;
  gdouble sum_ms[4];            /* upload, compute, download, total */
};

/* Whether the instance runs its CUDA backend (set at start). */
static inline gboolean
on_gpu (GstCudaVideoFilter * self)
{
  return self->priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA;
}

/* ---- settings and errors (gstcudavideofilter-settings.c) ---- */
/* The GError domain of work that stopped on request (GCV_ERROR_CANCELLED,
 * gst_cuda_video_filter_set_error): post_error posts nothing for it and
 * returns GST_FLOW_FLUSHING. */
#define GST_CUDA_VIDEO_FILTER_STOPPED (gst_cuda_video_filter_stopped_quark ())
GQuark gst_cuda_video_filter_stopped_quark (void);

/* ---- device (gstcudavideofilter-device.c) ---- */
/* Enters the element's context or posts why it cannot. */
gboolean gst_cuda_video_filter_enter_or_post (GstCudaVideoFilter * self);
/* Opens @device_id (-1: the pipeline's or the default), its context and
 * the element's streams; FALSE with @err when no usable device. */
gboolean gst_cuda_video_filter_open_cuda (GstCudaVideoFilter * self, gint device_id, GcvError * err);
void gst_cuda_video_filter_close_cuda (GstCudaVideoFilter * self);
void gst_cuda_video_filter_set_context (GstElement * element, GstContext * context);

/* ---- negotiation (gstcudavideofilter-negotiation.c) ---- */
gboolean gst_cuda_video_filter_device_memory_possible (GstCudaVideoFilter * self);
GstCaps *gst_cuda_video_filter_device_first (GstCaps * caps);
guint gst_cuda_video_filter_held_buffers (GstCudaVideoFilter * self);
gboolean gst_cuda_video_filter_accept_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps);
GstCaps *gst_cuda_video_filter_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps);
gboolean gst_cuda_video_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf);
gboolean gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
gboolean gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query);
/* Whether @buf holds a frame of @info: a GstVideoMeta of the same format,
 * size and planes, each plane inside the buffer, or without a meta the
 * bytes of the default layout; FALSE with @error (STREAM / FORMAT, naming
 * the meta's and the caps' geometry) when not. */
gboolean gst_cuda_video_filter_check_frame (const GstVideoInfo * info, GstBuffer * buf, GError ** error);
GstFlowReturn gst_cuda_video_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input);

/* ---- frames in flight (gstcudavideofilter-inflight.c) ---- */
void gst_cuda_video_filter_free_slots (GstCudaVideoFilter * self);
gboolean gst_cuda_video_filter_alloc_slots (GstCudaVideoFilter * self, GError ** error);
guint gst_cuda_video_filter_effective_depth (GstCudaVideoFilter * self);
GstFlowReturn gst_cuda_video_filter_drain_inflight (GstCudaVideoFilter * self);
void gst_cuda_video_filter_discard_inflight (GstCudaVideoFilter * self);
GstFlowReturn gst_cuda_video_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf);
GstFlowReturn gst_cuda_video_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf);
GstFlowReturn gst_cuda_video_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf);

/* ---- events in order (gstcudavideofilter-events.c) ---- */
/* Whether @event ends what came before it (EOS, CAPS, a SEGMENT other
 * than the one in force, STREAM_START, SEGMENT_DONE, STREAM_GROUP_DONE):
 * the element drains what it holds before it goes on. */
gboolean gst_cuda_video_filter_event_ends_stream (GstCudaVideoFilter * self, GstEvent * event);
/* Takes @event (serialized, not ending the stream, the frames in flight
 * drained) when the element holds frames back: it goes on once the
 * outputs of the frames before it left.  FALSE (not taken, the events
 * that waited forwarded): forward it now. */
gboolean gst_cuda_video_filter_hold_event (GstCudaVideoFilter * self, GstEvent * event);
/* An output frame left (@pushed: pushed by the base class itself; FALSE:
 * handed to basetransform, which pushes it after this returns): held
 * events count it; with @pushed the ones now due are forwarded. */
void gst_cuda_video_filter_output_left (GstCudaVideoFilter * self, gboolean pushed);
/* Forwards the held events that are due (@all: every one, the element
 * holds nothing any more), in order. */
void gst_cuda_video_filter_release_events (GstCudaVideoFilter * self, gboolean all);
/* Forgets the held events (flush, stop); with @keep_sticky the sticky
 * ones (tags) are forwarded instead of dropped (after a FLUSH_STOP). */
void gst_cuda_video_filter_flush_events (GstCudaVideoFilter * self, gboolean keep_sticky);

/* ---- transfers (gstcudavideofilter-transfer.c) ---- */
void gst_cuda_video_filter_plane_geometry (const GstVideoInfo * info, guint plane, gint * width,
    gint * height, gsize * row_bytes);
void gst_cuda_video_filter_copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src,
    gsize src_stride, gsize row_bytes, gint rows, gboolean parallel);
gboolean gst_cuda_video_filter_record_event (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s,
    GError ** error);
gboolean gst_cuda_video_filter_await_event (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s,
    GError ** error);
gboolean gst_cuda_video_filter_input_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * inbuf,
    GstCudaVideoDeviceFrame * dev, GError ** error);
gboolean gst_cuda_video_filter_output_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf,
    GstCudaVideoDeviceFrame * dev, GError ** error);
gboolean gst_cuda_video_filter_download_output (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf,
    GError ** error);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_FILTER_PRIVATE_H__ */
