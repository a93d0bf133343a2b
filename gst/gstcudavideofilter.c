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
 * SECTION:gstcudavideofilter
 * @title: GstCudaVideoFilter
 * @short_description: Base class of the gst-cuda-video elements
 *
 * Every algorithm element (cudacanny/cpucanny, ...) derives from this class.
 * It picks the backend when the element starts: the cpu* elements always run
 * the C implementation; the cuda* elements open the CUDA device given by
 * #GstCudaVideoFilter:cuda-device-id, in the pipeline's GstCudaContext when
 * GStreamer's CUDA library is there (shared with cudaupload, the NVDEC
 * decoders and the other cuda* elements through the "gst.cuda.context"
 * GstContext), and make three streams: uploads, compute and downloads.
 * When no usable device exists, #GstCudaVideoFilter:fallback decides between
 * running the CPU twin (one warning message) and failing with a RESOURCE
 * error.
 *
 * On the GPU, frames in memory:CUDAMemory are used where they are (device
 * pointers, no copy), and outputs go downstream in CUDA memory when the
 * next element takes it; frames in system memory are uploaded into device
 * buffers of the element and downloaded from them, through page-locked
 * staging unless the buffers are page-locked already (the pools this class
 * offers upstream and uses downstream are).  Up to
 * #GstCudaVideoFilter:async-depth frames stay in flight, so that the upload
 * of one frame, the compute of the one before and the download of the one
 * before that overlap; they are pushed in order, before any serialized
 * event (EOS, caps, segment) and on a DRAIN query, and dropped on a flush.
 * Device buffers are allocated once per caps and reused for every frame;
 * each CUDA frame is timed with CUDA events and the means are readable in
 * #GstCudaVideoFilter:stats.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter.h"
#include <gst/video/gstvideopool.h>
#include "gstcudahostallocator.h"
#include "gstcudavideocontext.h"
#include "gcv-cuda.h"
#include "depth.h"
#include "overlay.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_video_filter_debug);
/* what an element logs goes to its own category ("cudacanny", "cpucanny") */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_CUDA_DEVICE_ID,
  PROP_FALLBACK,
  PROP_BACKEND,
  PROP_N_THREADS,
  PROP_STATS,
  PROP_ASYNC_DEPTH,
};

#define DEFAULT_PROP_CUDA_DEVICE_ID -1
#define DEFAULT_PROP_FALLBACK TRUE
#define DEFAULT_PROP_N_THREADS 0
#define DEFAULT_PROP_ASYNC_DEPTH -1
/* async-depth=-1 on the GPU: enough for upload, compute and download of
 * three frames to overlap */
#define AUTO_ASYNC_DEPTH 2
#define MAX_ASYNC_DEPTH 16

enum
{ STREAM_COMPUTE, STREAM_UPLOAD, STREAM_DOWNLOAD, N_STREAMS };

enum
{ EV_UP_START, EV_UP_END, EV_COMPUTE_START, EV_COMPUTE_END, EV_DOWN_START, EV_DOWN_END, N_EVENTS };

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

  /* state, streaming thread (and start/stop) */
  GstCudaVideoBackend backend;
  gboolean started;
  gboolean configured;
  gboolean set_up;              /* setup ran (even if it failed): teardown is due */
  gint device;
  GstObject *context;           /* the GstCudaContext, or NULL: CUDA's primary context */
  gpointer streams[N_STREAMS];
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
  GPtrArray *device_allocs;
  guint8 *luma8;                /* gst_cuda_video_filter_luma8's (CPU), at its first call */

  /* frames in flight, oldest first; the one transform() just submitted */
  GQueue inflight;
  Job *submitted;

  /* statistics, under stats_lock */
  GMutex stats_lock;
  guint64 frames;
  gdouble sum_ms[4];            /* upload, compute, download, total */
};

#define gst_cuda_video_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaVideoFilter, gst_cuda_video_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstCudaVideoFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_video_filter_debug, "cudavideofilter", 0,
        "gst-cuda-video base class"));

static void gst_cuda_video_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cuda_video_filter_finalize (GObject * object);
static void gst_cuda_video_filter_set_context (GstElement * element, GstContext * context);
static gboolean gst_cuda_video_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_stop (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps);
static GstFlowReturn gst_cuda_video_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf);
static GstFlowReturn gst_cuda_video_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf);
static GstFlowReturn gst_cuda_video_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf);
static gboolean gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event);
static gboolean gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query);
static GstCaps *gst_cuda_video_filter_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps);
static gboolean gst_cuda_video_filter_accept_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps);
static void gst_cuda_video_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer);
static gboolean gst_cuda_video_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf);
static gboolean gst_cuda_video_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize);
static gboolean gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query);
static GstFlowReturn drain_inflight (GstCudaVideoFilter * self);
static void discard_inflight (GstCudaVideoFilter * self);

static void
gst_cuda_video_filter_class_init (GstCudaVideoFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_video_filter_set_property;
  gobject_class->get_property = gst_cuda_video_filter_get_property;
  gobject_class->finalize = gst_cuda_video_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to run on (-1 = the device of the pipeline's CUDA context, else the "
          "default device, 0 unless CUDA_VISIBLE_DEVICES says otherwise); ignored by the cpu* "
          "elements",
          -1, 63, DEFAULT_PROP_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FALLBACK,
      g_param_spec_boolean ("fallback", "Fallback to CPU",
          "When no usable CUDA device is found: TRUE runs the CPU implementation and posts "
          "one warning, FALSE fails with a resource error",
          DEFAULT_PROP_FALLBACK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_string ("backend", "Backend",
          "Implementation in use once started: \"cuda\" or \"cpu\" (NULL before start)",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_N_THREADS,
      g_param_spec_uint ("n-threads", "CPU threads",
          "Threads for the CPU implementation (0 = one per core)",
          0, 1024, DEFAULT_PROP_N_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames processed and mean milliseconds per frame: upload-ms, compute-ms and "
          "download-ms (CUDA events; compute only for the CPU), total-ms (host time spent "
          "on the frame in the element, waits included), backend",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_ASYNC_DEPTH,
      g_param_spec_int ("async-depth", "Frames in flight",
          "Frames kept in flight before the oldest is pushed, so that the transfers and the "
          "compute of successive frames overlap; each adds a frame of latency (reported in the "
          "LATENCY query).  0 = every frame is finished before it is pushed (lowest latency, "
          "for live sources); -1 = 2 on the GPU, 0 on the CPU.  While playing it may rise to 2, "
          "higher from the next caps",
          -1, MAX_ASYNC_DEPTH, DEFAULT_PROP_ASYNC_DEPTH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_set_context);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_set_caps);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_ip);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_generate_output);
  /* passthrough (same caps in scalers) must not reach transform_ip */
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_query);
  trans_class->transform_size = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_size);
  trans_class->accept_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_accept_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_fixate_caps);
  trans_class->before_transform = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_before_transform);
  trans_class->transform_meta = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_meta);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_decide_allocation);
  trans_class->passthrough_on_same_caps = FALSE;

  klass->debug_category = gst_cuda_video_filter_debug;
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_FILTER, 0);
}

static void
gst_cuda_video_filter_init (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = gst_cuda_video_filter_get_instance_private (self);

  self->priv = priv;
  priv->device_id = DEFAULT_PROP_CUDA_DEVICE_ID;
  priv->fallback = DEFAULT_PROP_FALLBACK;
  priv->n_threads = DEFAULT_PROP_N_THREADS;
  priv->async_depth = DEFAULT_PROP_ASYNC_DEPTH;
  priv->device_allocs = g_ptr_array_new ();
  g_queue_init (&priv->inflight);
  g_mutex_init (&priv->stats_lock);
}

static void
gst_cuda_video_filter_finalize (GObject * object)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;

  g_ptr_array_unref (priv->device_allocs);
  gst_clear_object (&priv->context);
  g_free (priv->settings_warned);
  g_clear_pointer (&priv->usable_params, g_bytes_unref);
  g_free (priv->setup_failed);
  g_free (priv->luma8);
  g_mutex_clear (&priv->stats_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstStructure *
gst_cuda_video_filter_make_stats (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gdouble n;
  GstStructure *s;

  g_mutex_lock (&priv->stats_lock);
  n = priv->frames > 0 ? (gdouble) priv->frames : 1.0;
  s = gst_structure_new ("stats",
      "frames", G_TYPE_UINT64, priv->frames,
      "upload-ms", G_TYPE_DOUBLE, priv->sum_ms[0] / n,
      "compute-ms", G_TYPE_DOUBLE, priv->sum_ms[1] / n,
      "download-ms", G_TYPE_DOUBLE, priv->sum_ms[2] / n,
      "total-ms", G_TYPE_DOUBLE, priv->sum_ms[3] / n,
      "backend", G_TYPE_STRING, priv->started ?
      (priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu") : "none", NULL);
  g_mutex_unlock (&priv->stats_lock);
  return s;
}

static void
gst_cuda_video_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;
  gboolean latency_changed = FALSE;

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_CUDA_DEVICE_ID:
      priv->device_id = g_value_get_int (value);
      break;
    case PROP_FALLBACK:
      priv->fallback = g_value_get_boolean (value);
      break;
    case PROP_N_THREADS:
      priv->n_threads = g_value_get_uint (value);
      break;
    case PROP_ASYNC_DEPTH:
      latency_changed = priv->async_depth != g_value_get_int (value);
      priv->async_depth = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
  if (latency_changed)
    gst_element_post_message (GST_ELEMENT (object), gst_message_new_latency (GST_OBJECT (object)));
}

static void
gst_cuda_video_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (object);
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_cuda_video_filter_make_stats (self));
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_CUDA_DEVICE_ID:
      g_value_set_int (value, priv->device_id);
      break;
    case PROP_FALLBACK:
      g_value_set_boolean (value, priv->fallback);
      break;
    case PROP_N_THREADS:
      g_value_set_uint (value, priv->n_threads);
      break;
    case PROP_BACKEND:
      g_value_set_string (value, !priv->started ? NULL :
          priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu");
      break;
    case PROP_ASYNC_DEPTH:
      g_value_set_int (value, priv->async_depth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

void
gst_cuda_video_filter_warn_rejected (GstCudaVideoFilter * self, GParamSpec * pspec, const GValue * value,
    const gchar * why)
{
  gchar *contents = g_strdup_value_contents (value);
  GstBus *bus = gst_element_get_bus (GST_ELEMENT (self));

  /* an element not in a pipeline yet (gst-launch-1.0 sets the properties
   * of the launch line before it adds the element) has no bus to post to:
   * a GLib warning, which gst-launch-1.0 and applications show, as
   * GObject's own for a value out of range */
  if (bus == NULL)
    g_warning ("%s: %s=%s refused: %s; %s keeps its previous value", GST_OBJECT_NAME (self), pspec->name,
        contents, why, pspec->name);
  else if (G_IS_PARAM_SPEC_INT (pspec))
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s=%s refused: %s; %s keeps its previous value",
            pspec->name, contents, why, pspec->name), ("accepted: %d .. %d", G_PARAM_SPEC_INT (pspec)->minimum,
            G_PARAM_SPEC_INT (pspec)->maximum));
  else
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s=%s refused: %s; %s keeps its previous value",
            pspec->name, contents, why, pspec->name), (NULL));
  gst_clear_object (&bus);
  g_free (contents);
}

gboolean
gst_cuda_video_filter_settings_ok (GstCudaVideoFilter * self, const gchar * bad)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (bad == NULL) {
    g_clear_pointer (&priv->settings_warned, g_free);
    return TRUE;
  }
  if (g_strcmp0 (bad, priv->settings_warned) != 0) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("Unusable settings: %s; the last usable ones stay in "
            "force", bad), (NULL));
    g_free (priv->settings_warned);
    priv->settings_warned = g_strdup (bad);
  }
  return FALSE;
}

gboolean
gst_cuda_video_filter_usable_params (GstCudaVideoFilter * self, gpointer params, gsize size,
    const gchar * what, const gchar * bad)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gchar *text;

  if (bad == NULL) {
    gst_cuda_video_filter_settings_ok (self, NULL);
    g_clear_pointer (&priv->usable_params, g_bytes_unref);
    priv->usable_params = g_bytes_new (params, size);
    return TRUE;
  }
  text = g_strdup_printf ("invalid %s settings: %s", what, bad);
  if (priv->usable_params == NULL || g_bytes_get_size (priv->usable_params) != size) {
    /* nothing ever ran with these settings: the element cannot run */
    GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("%c%s", g_ascii_toupper (text[0]), text + 1),
        ("%s", bad));
    g_free (text);
    return FALSE;
  }
  gst_cuda_video_filter_settings_ok (self, text);
  g_free (text);
  memcpy (params, g_bytes_get_data (priv->usable_params, NULL), size);
  return TRUE;
}

gboolean
gst_cuda_video_filter_set_error (GError ** error, const GcvError * err)
{
  GstResourceError code = err->status == GCV_ERROR_NO_MEMORY ? GST_RESOURCE_ERROR_NO_SPACE_LEFT :
      err->status == GCV_ERROR_NO_DEVICE ? GST_RESOURCE_ERROR_NOT_FOUND : GST_RESOURCE_ERROR_FAILED;

  g_set_error_literal (error, GST_RESOURCE_ERROR, code, err->message);
  return FALSE;
}
GstFlowReturn
gst_cuda_video_filter_post_error (GstCudaVideoFilter * self, const gchar * what, GError * error)
{
  gint code = error && error->domain == GST_RESOURCE_ERROR ? error->code : GST_RESOURCE_ERROR_FAILED;

  /* settings and negotiation problems are the user's to fix: the message
   * itself is the text */
  if (error && (error->domain == GST_LIBRARY_ERROR || error->domain == GST_CORE_ERROR
          || error->domain == GST_STREAM_ERROR)) {
    gst_element_message_full (GST_ELEMENT (self), GST_MESSAGE_ERROR, error->domain, error->code,
        g_strdup_printf ("%s: %s", what, error->message), NULL, __FILE__, GST_FUNCTION, __LINE__);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  if (code == GST_RESOURCE_ERROR_NO_SPACE_LEFT)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("%s: out of memory (%s backend)", what,
            self->priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "CUDA" : "CPU"),
        ("%s", error ? error->message : "unknown"));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s failed", what),
        ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  return GST_FLOW_ERROR;
}
GstFlowReturn
gst_cuda_video_filter_backend_failed (GstCudaVideoFilter * self, const gchar * what, const GcvError * err)
{
  GError *error = NULL;

  gst_cuda_video_filter_set_error (&error, err);
  return gst_cuda_video_filter_post_error (self, what, error);
}

/* ---- device, context and streams ----------------------------------------- */

static gboolean
on_gpu (GstCudaVideoFilter * self)
{
  return self->priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA;
}

gboolean
gst_cuda_video_filter_enter (GstCudaVideoFilter * self, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;

  if (!on_gpu (self))
    return TRUE;
  if (priv->context) {
    if (gst_cuda_video_context_push (priv->context))
      return TRUE;
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "could not make the CUDA context of device %d current", priv->device);
    return FALSE;
  }
  /* CUDA's primary context: cudaSetDevice is per host thread, and the
   * streaming thread is not the one that ran start() */
  if (gcv_cuda_set_device (priv->device, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

void
gst_cuda_video_filter_leave (GstCudaVideoFilter * self)
{
  if (on_gpu (self) && self->priv->context)
    gst_cuda_video_context_pop ();
}

/* Enters the element's context or posts why it cannot. */
static gboolean
enter_or_post (GstCudaVideoFilter * self)
{
  GError *error = NULL;

  if (gst_cuda_video_filter_enter (self, &error))
    return TRUE;
  gst_cuda_video_filter_post_error (self, "Entering the CUDA context", error);
  return FALSE;
}

static gboolean
open_cuda (GstCudaVideoFilter * self, gint device_id, GcvError * err)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint n = gcv_cuda_device_count (err), i;
  char name[256];

  if (n <= 0)
    return FALSE;
  if (device_id >= n) {
    gcv_error_set (err, GCV_ERROR_NO_DEVICE, "cuda-device-id=%d but only %d CUDA device%s found",
        device_id, n, n == 1 ? "" : "s");
    return FALSE;
  }
  priv->device = device_id < 0 ? 0 : device_id;
  if (gst_cuda_video_memory_available ()) {
    GError *error = NULL;
    /* the pipeline's context (a neighbour's or the application's), else a
     * new one, announced to the others */
    if (gst_cuda_video_context_ensure (GST_ELEMENT (self), device_id, &priv->context, &error)) {
      priv->device = gst_cuda_video_context_device (priv->context);
    } else {
      GST_WARNING_OBJECT (self, "no GStreamer CUDA context (%s): CUDA's primary context, system "
          "memory only", error->message);
      g_clear_error (&error);
    }
  }
  priv->backend = GST_CUDA_VIDEO_BACKEND_CUDA;
  {
    GError *error = NULL;
    if (!gst_cuda_video_filter_enter (self, &error)) {
      gcv_error_set (err, GCV_ERROR_CUDA, "%s", error->message);
      g_clear_error (&error);
      priv->backend = GST_CUDA_VIDEO_BACKEND_CPU;
      return FALSE;
    }
  }
  for (i = 0; i < N_STREAMS; i++)
    if (gcv_cuda_stream_new (&priv->streams[i], err) != GCV_OK)
      break;
  if (i == N_STREAMS && gcv_cuda_event_new (&priv->fork, err) != GCV_OK)
    i = 0;
  gst_cuda_video_filter_leave (self);
  priv->backend = GST_CUDA_VIDEO_BACKEND_CPU;
  if (i < N_STREAMS)
    return FALSE;
  if (gcv_cuda_device_describe (priv->device, name, sizeof (name), err) == GCV_OK)
    GST_INFO_OBJECT (self, "running on CUDA device %d: %s, %s", priv->device, name,
        priv->context ? "in the pipeline's GstCudaContext" : "in CUDA's primary context");
  return TRUE;
}

/* The element's context must be entered. */
static void
free_streams (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint i;

  for (i = 0; i < N_STREAMS; i++) {
    gcv_cuda_stream_free (priv->streams[i]);
    priv->streams[i] = NULL;
  }
  gcv_cuda_event_free (priv->fork);
  priv->fork = NULL;
}

static void
close_cuda (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (priv->streams[0] && gst_cuda_video_filter_enter (self, NULL)) {
    free_streams (self);
    gst_cuda_video_filter_leave (self);
  }
  gst_clear_object (&priv->context);
}

static void
gst_cuda_video_filter_set_context (GstElement * element, GstContext * context)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (element);
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint device_id;

  if (GST_CUDA_VIDEO_FILTER_GET_CLASS (self)->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    GST_OBJECT_LOCK (self);
    device_id = priv->device_id;
    GST_OBJECT_UNLOCK (self);
    /* only before start: a running element keeps its context */
    if (!priv->started)
      gst_cuda_video_context_set (element, context, device_id, &priv->context);
  }
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* ---- peers: other devices or streams ---------------------------------------- */

struct _GstCudaVideoPeer
{
  gint device;
  GstObject *context;           /* GstCudaContext, or NULL: CUDA's primary context */
  gpointer stream;
  GcvCudaEvent *done;           /* recorded by peer_join */
};

gboolean
gst_cuda_video_filter_peer_enter (GstCudaVideoFilter * self, GstCudaVideoPeer * peer, GError ** error)
{
  GcvError err;

  if (peer->context) {
    if (gst_cuda_video_context_push (peer->context))
      return TRUE;
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "could not make the CUDA context of device %d current", peer->device);
    return FALSE;
  }
  if (gcv_cuda_set_device (peer->device, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

void
gst_cuda_video_filter_peer_leave (GstCudaVideoFilter * self, GstCudaVideoPeer * peer)
{
  GcvError err;

  if (peer->context)
    gst_cuda_video_context_pop ();
  else
    gcv_cuda_set_device (self->priv->device, &err);
}

GstCudaVideoPeer *
gst_cuda_video_filter_peer_new (GstCudaVideoFilter * self, gint device, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstCudaVideoPeer *peer = g_new0 (GstCudaVideoPeer, 1);
  GcvError err;
  gboolean ok;

  peer->device = device;
  if (priv->context && device == priv->device)
    peer->context = gst_object_ref (priv->context);
  else if (priv->context && (peer->context = gst_cuda_video_context_new (device, error)) == NULL)
    goto failed;
  if (!gst_cuda_video_filter_peer_enter (self, peer, error))
    goto failed;
  ok = gcv_cuda_stream_new (&peer->stream, &err) == GCV_OK && gcv_cuda_event_new (&peer->done, &err) == GCV_OK;
  gst_cuda_video_filter_peer_leave (self, peer);
  if (!ok) {
    gst_cuda_video_filter_set_error (error, &err);
    goto failed;
  }
  GST_INFO_OBJECT (self, "peer on CUDA device %d", device);
  return peer;

failed:
  gst_cuda_video_filter_peer_free (self, peer);
  return NULL;
}

void
gst_cuda_video_filter_peer_free (GstCudaVideoFilter * self, GstCudaVideoPeer * peer)
{
  if (peer == NULL)
    return;
  if ((peer->stream || peer->done) && gst_cuda_video_filter_peer_enter (self, peer, NULL)) {
    if (peer->stream)
      gcv_cuda_stream_sync (peer->stream, NULL);
    gcv_cuda_event_free (peer->done);
    gcv_cuda_stream_free (peer->stream);
    gst_cuda_video_filter_peer_leave (self, peer);
  }
  gst_clear_object (&peer->context);
  g_free (peer);
}

gint
gst_cuda_video_peer_get_device (GstCudaVideoPeer * peer)
{
  return peer->device;
}

gpointer
gst_cuda_video_peer_get_stream (GstCudaVideoPeer * peer)
{
  return peer->stream;
}

gboolean
gst_cuda_video_filter_peer_follow (GstCudaVideoFilter * self, GstCudaVideoPeer * peer, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;
  gboolean ok;

  /* one event serves every follow: recorded, then waited for at once (a
   * wait takes the event as it is at the call) */
  if (gcv_cuda_event_record (priv->fork, priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  if (!gst_cuda_video_filter_peer_enter (self, peer, error))
    return FALSE;
  ok = gcv_cuda_stream_wait_event (peer->stream, priv->fork, &err) == GCV_OK;
  gst_cuda_video_filter_peer_leave (self, peer);
  return ok || gst_cuda_video_filter_set_error (error, &err);
}

gboolean
gst_cuda_video_filter_peer_join (GstCudaVideoFilter * self, GstCudaVideoPeer * peer, GError ** error)
{
  GcvError err;
  gboolean ok;

  if (!gst_cuda_video_filter_peer_enter (self, peer, error))
    return FALSE;
  ok = gcv_cuda_event_record (peer->done, peer->stream, &err) == GCV_OK;
  gst_cuda_video_filter_peer_leave (self, peer);
  if (ok)
    ok = gcv_cuda_stream_wait_event (self->priv->streams[STREAM_COMPUTE], peer->done, &err) == GCV_OK;
  return ok || gst_cuda_video_filter_set_error (error, &err);
}

static gboolean
gst_cuda_video_filter_start (GstBaseTransform * trans)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err = { GCV_OK, "" };
  gboolean fallback, ok = FALSE;
  gint device_id;

  GST_OBJECT_LOCK (self);
  fallback = priv->fallback;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  g_mutex_lock (&priv->stats_lock);
  priv->frames = 0;
  memset (priv->sum_ms, 0, sizeof (priv->sum_ms));
  g_mutex_unlock (&priv->stats_lock);

  priv->backend = GST_CUDA_VIDEO_BACKEND_CPU;
  if (klass->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    ok = open_cuda (self, device_id, &err);
    if (!ok)
      close_cuda (self);
    if (!ok && !fallback) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device for %s", GST_OBJECT_NAME (self)),
          ("%s; set fallback=true to run the CPU implementation instead", err.message));
      return FALSE;
    }
    if (!ok)
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device: %s runs the CPU implementation", GST_OBJECT_NAME (self)),
          ("%s", err.message));
  }
  GST_OBJECT_LOCK (self);
  priv->backend = ok ? GST_CUDA_VIDEO_BACKEND_CUDA : GST_CUDA_VIDEO_BACKEND_CPU;
  priv->started = TRUE;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "backend: %s", ok ? "cuda" : "cpu");
  return TRUE;
}

/* ---- per caps -------------------------------------------------------------- */

/* The device frames' planes: width and height in samples of the plane,
 * the bytes of a row. */
static void
plane_geometry (const GstVideoInfo * info, guint plane, gint * width, gint * height, gsize * row_bytes)
{
  gint comp = gst_cuda_video_filter_plane_component (info, plane);

  *width = GST_VIDEO_INFO_COMP_WIDTH (info, comp);
  *height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  *row_bytes = (gsize) * width * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
}

/* The context must be entered. */
static void
free_slots (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  guint s, e;

  for (s = 0; s < priv->n_slots; s++) {
    Slot *slot = &priv->slots[s];
    for (e = 0; e < N_EVENTS; e++)
      gcv_cuda_event_free (slot->events[e]);
    gcv_cuda_host_free (slot->up_staging);
    gcv_cuda_host_free (slot->down_staging);
    gcv_cuda_host_free (slot->results);
  }
  g_clear_pointer (&priv->slots, g_free);
  priv->n_slots = priv->next_slot = 0;
  priv->current = NULL;
}

/* The frames the element may keep in flight now: the property (-1: auto),
 * at most what the slots of these caps allow. */
static guint
effective_depth (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint depth;

  GST_OBJECT_LOCK (self);
  depth = priv->async_depth;
  GST_OBJECT_UNLOCK (self);
  if (depth < 0)
    depth = on_gpu (self) ? AUTO_ASYNC_DEPTH : 0;
  /* buffers passing through are not worked on: nothing to overlap */
  if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (self)))
    depth = 0;
  /* a frame in flight holds a slot, and one more is the current frame's
   * and one more the spare of push_output */
  if (on_gpu (self) && priv->n_slots > 0 && (guint) depth > priv->n_slots - 2)
    depth = priv->n_slots - 2;
  return (guint) depth;
}

/* Slots for the frames in flight of these caps: room for the depth the
 * property asks for now, and at least for the default's, so that
 * async-depth may go up to that while playing; their events and
 * page-locked results now, their device planes and staging at the first
 * frames that need them (a slot of a side in CUDA memory needs none).  The
 * context must be entered. */
static gboolean
alloc_slots (GstCudaVideoFilter * self, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;
  gint depth;
  guint s, e;

  GST_OBJECT_LOCK (self);
  depth = MAX (priv->async_depth, AUTO_ASYNC_DEPTH);
  GST_OBJECT_UNLOCK (self);
  priv->n_slots = (guint) depth + 2;
  priv->slots = g_new0 (Slot, priv->n_slots);
  for (s = 0; s < priv->n_slots; s++) {
    Slot *slot = &priv->slots[s];
    for (e = 0; e < N_EVENTS; e++)
      if (gcv_cuda_event_new (&slot->events[e], &err) != GCV_OK)
        return gst_cuda_video_filter_set_error (error, &err);
    if (priv->results_size > 0 && gcv_cuda_host_alloc (&slot->results, priv->results_size, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  GST_DEBUG_OBJECT (self, "%u slots, input in %s memory, output in %s memory", priv->n_slots,
      priv->in_device ? "CUDA" : "system", priv->out_device ? "CUDA" : "system");
  return TRUE;
}

static void
free_per_caps (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  gboolean entered = on_gpu (self) && gst_cuda_video_filter_enter (self, NULL);
  guint i;

  if (entered) {
    /* nothing may still run on what is freed below */
    for (i = 0; i < N_STREAMS; i++)
      if (priv->streams[i])
        gcv_cuda_stream_sync (priv->streams[i], NULL);
  }
  /* a failed setup may have made part of its state: teardown frees that
   * too (every teardown takes a partial setup) */
  if (priv->set_up && klass->teardown)
    klass->teardown (self);
  priv->set_up = FALSE;
  priv->configured = FALSE;
  if (entered) {
    free_slots (self);
    for (i = 0; i < priv->device_allocs->len; i++)
      gcv_cuda_free (g_ptr_array_index (priv->device_allocs, i));
    gst_cuda_video_filter_leave (self);
  }
  g_ptr_array_set_size (priv->device_allocs, 0);
  priv->results_size = 0;
  g_clear_pointer (&priv->luma8, g_free);
}

static gboolean
gst_cuda_video_filter_stop (GstBaseTransform * trans)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  discard_inflight (self);
  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
  close_cuda (self);
  g_clear_pointer (&self->priv->setup_failed, g_free);
  g_clear_pointer (&self->priv->settings_warned, g_free);
  g_clear_pointer (&self->priv->usable_params, g_bytes_unref);
  GST_OBJECT_LOCK (self);
  self->priv->started = FALSE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_cuda_video_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstVideoInfo in_info, out_info;
  GError *error = NULL;
  gboolean ok;

  if (!gst_video_info_from_caps (&in_info, incaps) || !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Invalid caps"),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "caps in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT, incaps, outcaps);

  /* frames of the old caps go out under them (the source pad still has
   * them: basetransform sets the new ones after this) */
  if (priv->configured && drain_inflight (self) != GST_FLOW_OK)
    discard_inflight (self);
  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
  self->in_info = in_info;
  self->out_info = out_info;
  priv->in_device = on_gpu (self) && priv->context && gst_cuda_video_caps_are_device (incaps);
  priv->out_device = on_gpu (self) && priv->context && gst_cuda_video_caps_are_device (outcaps);
  priv->in_planes = priv->out_planes = GST_CUDA_VIDEO_ALL_PLANES;
  priv->results_size = 0;
  priv->warned_foreign = FALSE;

  if (!gst_cuda_video_filter_enter (self, &error)) {
    gst_cuda_video_filter_post_error (self, "Entering the CUDA context", error);
    return FALSE;
  }
  priv->set_up = TRUE;
  ok = klass->setup == NULL || klass->setup (self, priv->backend, &error);
  priv->configured = ok;
  if (ok && on_gpu (self) && !gst_base_transform_is_passthrough (trans))
    ok = alloc_slots (self, &error);
  gst_cuda_video_filter_leave (self);
  if (!ok) {
    /* basetransform tries the same caps again at every buffer: the error
     * is posted once */
    gchar *what = g_strdup_printf ("%" GST_PTR_FORMAT ": %s", incaps, error ? error->message : "");
    free_per_caps (self);
    if (g_strcmp0 (what, priv->setup_failed) == 0) {
      GST_DEBUG_OBJECT (self, "setup failed again: %s", what);
      g_clear_error (&error);
      g_free (what);
      return FALSE;
    }
    g_free (priv->setup_failed);
    priv->setup_failed = what;
    gst_cuda_video_filter_post_error (self, "Setting up for the new caps", error);
    return FALSE;
  }
  g_clear_pointer (&priv->setup_failed, g_free);
  GST_INFO_OBJECT (self, "%s %dx%d (%s memory) -> %s %dx%d (%s memory) on the %s",
      GST_VIDEO_INFO_NAME (&in_info), GST_VIDEO_INFO_WIDTH (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info),
      priv->in_device ? "CUDA" : "system", GST_VIDEO_INFO_NAME (&out_info),
      GST_VIDEO_INFO_WIDTH (&out_info), GST_VIDEO_INFO_HEIGHT (&out_info),
      priv->out_device ? "CUDA" : "system", on_gpu (self) ? "GPU" : "CPU");
  return TRUE;
}

void
gst_cuda_video_filter_get_memory (GstCudaVideoFilter * self, gboolean * in_device, gboolean * out_device)
{
  *in_device = self->priv->in_device;
  *out_device = self->priv->out_device;
}

void
gst_cuda_video_filter_set_device_planes (GstCudaVideoFilter * self, guint in_planes, guint out_planes)
{
  self->priv->in_planes = in_planes;
  self->priv->out_planes = out_planes;
}

void
gst_cuda_video_filter_set_results_size (GstCudaVideoFilter * self, gsize size)
{
  self->priv->results_size = size;
}

gpointer
gst_cuda_video_filter_get_results (GstCudaVideoFilter * self)
{
  return self->priv->current ? self->priv->current->results : NULL;
}

/* The output size follows from the output caps alone: input buffers may be
 * larger than their caps say (padded strides described by GstVideoMeta). */
static gboolean
gst_cuda_video_filter_transform_size (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}
/* ---- allocation ------------------------------------------------------------ */

/* A video buffer pool for @caps whose memory comes from @allocator (NULL =
 * system memory), at least @min buffers; NULL if the configuration is
 * refused. */
static GstBufferPool *
new_video_pool (GstCaps * caps, guint size, GstAllocator * allocator, guint min)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, 0);
  if (allocator)
    gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
/* Buffers the element itself holds besides the one being worked on: the
 * frames in flight (upstream's pool must not run dry because of them). */
static guint
held_buffers (GstCudaVideoFilter * self)
{
  return effective_depth (self) + 1;
}

/* Upstream gets, for memory:CUDAMemory, a pool of CUDA memory of our
 * context, and for system memory on the GPU a pool of page-locked host
 * memory, so that frames go to the GPU by DMA without a staging copy.  In
 * passthrough (the analysis elements: frames go out as they came) the
 * query is downstream's to answer; where downstream has no pool (a sink
 * that answers nothing), ours is offered all the same. */
static gboolean
gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  guint min = held_buffers (self);

  gboolean answered = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans, decide_query, query);

  if (decide_query != NULL && !answered)
    return FALSE;
  if (decide_query == NULL && answered && gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;
  /* every backend maps frames with gst_video_frame_map: any stride is
   * fine (in passthrough downstream reads the frames too: its word) */
  if (decide_query != NULL)
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return TRUE;
  if (gst_cuda_video_caps_are_device (caps)) {
    if (on_gpu (self) && priv->context)
      pool = gst_cuda_video_pool_new (priv->context, caps, min, 0);
  } else if (on_gpu (self)) {
    pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), gst_cuda_host_allocator_get (), min);
    gst_query_add_allocation_param (query, gst_cuda_host_allocator_get (), NULL);
  }
  if (pool && gst_query_get_n_allocation_pools (query) == 0)
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), min, 0);
  else if (gst_query_get_n_allocation_pools (query) == 0)
    gst_query_add_allocation_pool (query, NULL, GST_VIDEO_INFO_SIZE (&info), min, 0);
  if (pool)
    gst_object_unref (pool);
  return TRUE;
}

/* Output buffers: for memory:CUDAMemory, downstream's CUDA pool when it is
 * of our context, else ours; for system memory, downstream's pool or one
 * of ours (page-locked on the GPU: the download lands in it by DMA; plain
 * on the CPU: no fresh pages to fault in every frame).  A pool with a
 * maximum gets room for the frames in flight. */
static gboolean
gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  guint i, n = gst_query_get_n_allocation_pools (query), size, min, max;

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);

  for (i = 0; i < n; i++) {
    gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
    if (max > 0)
      gst_query_set_nth_allocation_pool (query, i, pool, size, min, max + held_buffers (self));
    if (pool)
      gst_object_unref (pool);
  }
  pool = NULL;
  if (priv->out_device) {
    for (i = 0; i < n; i++) {
      gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
      if (gst_cuda_video_pool_is_usable (pool, priv->context)) {
        GST_DEBUG_OBJECT (self, "output buffers from downstream's CUDA pool");
        gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
        gst_object_unref (pool);
        return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
      }
      if (pool)
        gst_object_unref (pool);
    }
    pool = gst_cuda_video_pool_new (priv->context, caps, held_buffers (self), 0);
    GST_DEBUG_OBJECT (self, "output buffers from our own CUDA pool");
  } else if (n == 0) {
    pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), on_gpu (self) ?
        gst_cuda_host_allocator_get () : NULL, held_buffers (self));
    GST_DEBUG_OBJECT (self, "output buffers from our own %s pool", on_gpu (self) ? "pinned" : "system");
  }
  if (pool) {
    if (n > 0)
      gst_query_set_nth_allocation_pool (query, 0, pool, GST_VIDEO_INFO_SIZE (&info), held_buffers (self), 0);
    else
      gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), held_buffers (self), 0);
    gst_object_unref (pool);
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
}

/* ---- per frame: controlled properties, metas ---------------------------- */

/* Properties with a control binding (GST_PARAM_CONTROLLABLE) take their
 * value for the frame's stream time before the frame is worked on, as
 * GstVideoFilter does. */
static void
gst_cuda_video_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));

  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " (stream time %" GST_TIME_FORMAT ")",
      GST_TIME_ARGS (GST_BUFFER_PTS (buffer)), GST_TIME_ARGS (stream_time));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);
}

/* The tags of metas that stay true while the frame keeps its size
 * (GstVideoMeta and other "memory" or "colorspace" metas do not). */
static const gchar *const geometry_tags[] = {
  GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
};

/* Whether @meta of an input frame stays true of the output frame: tagless
 * metas always, and, when the output has the input's size, those tagged
 * only video / size / orientation (regions of interest, our motion
 * vectors). */
static gboolean
meta_survives (GstCudaVideoFilter * self, GstMeta * meta)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);
  guint i;

  if (tags == NULL || tags[0] == NULL)
    return TRUE;
  if (GST_VIDEO_INFO_WIDTH (&self->in_info) != GST_VIDEO_INFO_WIDTH (&self->out_info)
      || GST_VIDEO_INFO_HEIGHT (&self->in_info) != GST_VIDEO_INFO_HEIGHT (&self->out_info))
    return FALSE;
  for (i = 0; tags[i] != NULL; i++)
    if (!g_strv_contains (geometry_tags, tags[i]))
      return FALSE;
  return TRUE;
}

static gboolean
gst_cuda_video_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf, GstMeta * meta,
    GstBuffer * inbuf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  /* an element whose outputs lag its inputs (conv3d) gives each output
   * the metas of the frame it is centred on itself (copy_metas) */
  if (klass->latency_frames && klass->latency_frames (self) > 0)
    return FALSE;
  if (!meta_survives (self, meta))
    return FALSE;
  GST_LOG_OBJECT (self, "keeping %s", g_type_name (meta->info->api));
  return TRUE;
}

void
gst_cuda_video_filter_copy_metas (GstCudaVideoFilter * self, GstBuffer * from, GstBuffer * to)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta (from, &state)) != NULL) {
    GstMetaTransformCopy copy = { FALSE, 0, -1 };
    if (meta->info->transform_func == NULL || !meta_survives (self, meta))
      continue;
    if (!meta->info->transform_func (to, meta, from, _gst_meta_transform_copy, &copy))
      GST_WARNING_OBJECT (self, "could not copy %s", g_type_name (meta->info->api));
  }
}

/* ---- caps ------------------------------------------------------------------ */

/* Whether this instance may exchange memory:CUDAMemory: a cuda* element
 * of a build with gstreamer-cuda, before start (the caps it may take) or
 * running on the GPU in a GstCudaContext. */
static gboolean
device_memory_possible (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gboolean started, gpu, context;

  if (GST_CUDA_VIDEO_FILTER_GET_CLASS (self)->backend != GST_CUDA_VIDEO_BACKEND_CUDA
      || !gst_cuda_video_memory_available ())
    return FALSE;
  GST_OBJECT_LOCK (self);
  started = priv->started;
  gpu = priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA;
  context = priv->context != NULL;
  GST_OBJECT_UNLOCK (self);
  return !started || (gpu && context);
}

/* @caps (not taken) with its memory:CUDAMemory structures first, each
 * group in its order. */
static GstCaps *
device_first (GstCaps * caps)
{
  GstCaps *device = gst_caps_new_empty (), *other = gst_caps_new_empty ();
  guint i;

  if (gst_caps_is_any (caps)) {
    gst_caps_unref (device);
    gst_caps_unref (other);
    return gst_caps_ref (caps);
  }
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gboolean on_device = f && gst_caps_features_contains (f, GST_CUDA_VIDEO_MEMORY_FEATURE);
    gst_caps_append_structure_full (on_device ? device : other,
        gst_structure_copy (gst_caps_get_structure (caps, i)), f ? gst_caps_features_copy (f) : NULL);
  }
  gst_caps_append (device, other);
  return device;
}

/* The templates of a cuda* element take memory:CUDAMemory; once it runs
 * on the CPU (or without a GstCudaContext) it takes system memory only. */
static gboolean
gst_cuda_video_filter_accept_caps (GstBaseTransform * trans, GstPadDirection direction, GstCaps * caps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);

  if (gst_cuda_video_caps_are_device (caps) && !device_memory_possible (self)) {
    GST_DEBUG_OBJECT (self, "memory:CUDAMemory refused: not running on the GPU in a CUDA context");
    return FALSE;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction, caps);
}

GstCaps *
gst_cuda_video_filter_prefer_device (GstBaseTransform * trans, GstCaps * othercaps)
{
  GstCaps *ordered;

  if (!device_memory_possible (GST_CUDA_VIDEO_FILTER (trans)))
    return othercaps;
  ordered = device_first (othercaps);
  gst_caps_unref (othercaps);
  return ordered;
}

static GstCaps *
gst_cuda_video_filter_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  return gst_caps_fixate (gst_cuda_video_filter_prefer_device (trans, othercaps));
}

/* Every structure of @caps twice: in memory:CUDAMemory first (preferred:
 * frames stay on the GPU), then in system memory; or system memory only. */
static GstCaps *
memory_variants (GstCaps * caps, gboolean device)
{
  GstCaps *out = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    if (device)
      out = gst_caps_merge_structure_full (out, gst_structure_copy (s),
          gst_caps_features_new (GST_CUDA_VIDEO_MEMORY_FEATURE, NULL));
    out = gst_caps_merge_structure_full (out, gst_structure_copy (s),
        gst_caps_features_new_empty ());
  }
  gst_caps_unref (caps);
  return out;
}

GstCaps *
gst_cuda_video_filter_clip_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * result, GstCaps * filter)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCaps *templ = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *tmp;

  result = memory_variants (result, device_memory_possible (self));
  tmp = gst_caps_intersect_full (result, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (result);
  gst_caps_unref (templ);
  result = tmp;
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

GstCaps *
gst_cuda_video_filter_size_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, gint width, gint height, gboolean free_par)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (width > 0)
      gst_structure_set (s, "width", G_TYPE_INT, width, NULL);
    else
      gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, 32767, NULL);
    if (height > 0)
      gst_structure_set (s, "height", G_TYPE_INT, height, NULL);
    else
      gst_structure_set (s, "height", GST_TYPE_INT_RANGE, 1, 32767, NULL);
    if (free_par && gst_structure_has_field (s, "pixel-aspect-ratio"))
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION_RANGE, 1, 32767, 32767, 1, NULL);
    result = gst_caps_merge_structure_full (result, s, f ? gst_caps_features_copy (f) : NULL);
  }
  if (width <= 0 && height <= 0)
    result = gst_caps_merge (gst_caps_ref (caps), result);
  return gst_cuda_video_filter_clip_caps (trans, direction, caps, result, filter);
}
gboolean
gst_cuda_video_filter_luma_input (const GstVideoInfo * info, GcvLumaInput * luma)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  memset (luma, 0, sizeof (*luma));
  /* GRAY16_LE; P010_10LE (10 bits << 6, hardware decoders' HDR output) */
  if ((GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo) || GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
      && GST_VIDEO_FORMAT_INFO_IS_LE (finfo) && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 2
      && GST_VIDEO_FORMAT_INFO_POFFSET (finfo, 0) == 0
      && GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) == 16) {
    luma->layout = GCV_LUMA_GRAY16LE;
    return TRUE;
  }
  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) != 8)
    return FALSE;
  if (GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo)
      || (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 1)) {
    luma->layout = GCV_LUMA_GRAY8;
    return TRUE;
  }
  if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) && GST_VIDEO_INFO_N_PLANES (info) == 1
      && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 4) {
    luma->layout = GCV_LUMA_PACKED32;
    luma->r_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R);
    luma->g_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G);
    luma->b_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B);
    return TRUE;
  }
  return FALSE;
}

/* How plane 0 of @info gives 8-bit luma: as it is (*@convert FALSE) or
 * through gcv_luma16_to_8; FALSE, with @error, for formats without a luma
 * plane of 8 or 16 bits. */
static gboolean
luma8_source (GstCudaVideoFilter * self, const GstVideoInfo * info, gboolean * convert, GError ** error)
{
  GcvLumaInput luma;

  if (!gst_cuda_video_filter_luma_input (info, &luma) || luma.layout == GCV_LUMA_PACKED32) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "format %s has no 8- or 16-bit luma plane", GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  *convert = luma.layout == GCV_LUMA_GRAY16LE;
  return TRUE;
}

gboolean
gst_cuda_video_filter_luma8 (GstCudaVideoFilter * self, GstVideoFrame * frame, GcvPlane * luma,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);
  GcvPlane src;
  gboolean convert;
  GcvError err;

  gst_cuda_video_filter_frame_planes (frame, 1, &src);
  if (!luma8_source (self, &frame->info, &convert, error))
    return FALSE;
  if (!convert) {
    *luma = src;
    return TRUE;
  }
  /* one frame at a time on the CPU: one plane for the caps */
  if (priv->luma8 == NULL && (priv->luma8 = g_try_malloc ((gsize) w * h)) == NULL) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "out of host memory for %dx%d 8-bit luma", w, h);
    return FALSE;
  }
  luma->data = priv->luma8;
  luma->width = w;
  luma->height = h;
  luma->stride = w;
  if (gcv_luma8_cpu (&src, luma, gst_cuda_video_filter_get_n_threads (self), &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

gboolean
gst_cuda_video_filter_luma8_device (GstCudaVideoFilter * self, const GstCudaVideoDeviceFrame * frame,
    GcvPlane * luma, GError ** error)
{
  Slot *slot = self->priv->current;
  gint w = GST_VIDEO_INFO_WIDTH (frame->info), h = GST_VIDEO_INFO_HEIGHT (frame->info);
  gboolean convert;
  GcvError err;

  if (!luma8_source (self, frame->info, &convert, error))
    return FALSE;
  if (!convert) {
    *luma = frame->planes[0];
    return TRUE;
  }
  /* the frame's own plane: readers of another stream (motionest's peers)
   * may still copy it while the next frame is converted */
  if (slot->luma8.data == NULL && !gst_cuda_video_filter_device_alloc (self, w, h, &slot->luma8, w, error))
    return FALSE;
  *luma = slot->luma8;
  if (gcv_luma8_cuda (&frame->planes[0], luma, self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* The low bits of plane @p's 16-bit samples that @info's format keeps
 * zero (P010_10LE: 6), with the samples per pixel; 0 when the plane has
 * none (8-bit, full 16-bit or other layouts). */
static gint
plane_low_bits (const GstVideoInfo * info, guint p, gint * channels)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint c, low_bits = 0;
  GcvSampleType type;

  if (gst_cuda_video_filter_plane_samples (info, p, &type, channels) < 0 || type != GCV_SAMPLE_U16
      || !GST_VIDEO_FORMAT_INFO_IS_LE (finfo))
    return 0;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gint shift = (gint) GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    if ((guint) GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    /* every component of the plane a word with its value in the high bits */
    if ((gint) GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) + shift != 16 || (low_bits > 0 && shift != low_bits))
      return 0;
    low_bits = shift;
  }
  return low_bits;
}

gboolean
gst_cuda_video_filter_round_to_format (GstCudaVideoFilter * self, GstVideoFrame * frame, guint planes,
    GError ** error)
{
  GcvPlane plane[GST_VIDEO_MAX_PLANES];
  GcvError err;
  guint p;

  gst_cuda_video_filter_frame_planes (frame, GST_VIDEO_FRAME_N_PLANES (frame), plane);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    gint channels, low_bits = plane_low_bits (&frame->info, p, &channels);
    if (!(planes & (1u << p)) || low_bits == 0)
      continue;
    if (gcv_round_low_bits_cpu (&plane[p], channels, low_bits, gst_cuda_video_filter_get_n_threads (self),
            &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

gboolean
gst_cuda_video_filter_round_to_format_device (GstCudaVideoFilter * self,
    const GstCudaVideoDeviceFrame * frame, guint planes, GError ** error)
{
  GcvError err;
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (frame->info); p++) {
    gint channels, low_bits = plane_low_bits (frame->info, p, &channels);
    if (!(planes & (1u << p)) || low_bits == 0 || frame->planes[p].data == NULL)
      continue;
    if (gcv_round_low_bits_cuda (&frame->planes[p], channels, low_bits, self->priv->streams[STREAM_COMPUTE],
            &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

/* ---- helpers ---------------------------------------------------------------- */

gint
gst_cuda_video_filter_get_device (GstCudaVideoFilter * self)
{
  return self->priv->device;
}

GstCudaVideoBackend
gst_cuda_video_filter_get_backend (GstCudaVideoFilter * self)
{
  return self->priv->backend;
}

gint
gst_cuda_video_filter_get_n_threads (GstCudaVideoFilter * self)
{
  gint n;

  GST_OBJECT_LOCK (self);
  n = (gint) self->priv->n_threads;
  GST_OBJECT_UNLOCK (self);
  return n;
}

gpointer
gst_cuda_video_filter_get_stream (GstCudaVideoFilter * self)
{
  return self->priv->streams[STREAM_COMPUTE];
}

gboolean
gst_cuda_video_filter_device_alloc (GstCudaVideoFilter * self, gsize row_bytes, guint rows,
    GcvPlane * plane, gint width, GError ** error)
{
  GcvError err;
  size_t pitch;
  void *ptr;

  if (gcv_cuda_malloc_2d (&ptr, &pitch, row_bytes, rows, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  g_ptr_array_add (self->priv->device_allocs, ptr);
  plane->data = ptr;
  plane->stride = pitch;
  plane->width = width;
  plane->height = rows;
  return TRUE;
}

gint
gst_cuda_video_filter_comp_offset (const GstVideoInfo * info, guint c)
{
  gint offset = (gint) GST_VIDEO_INFO_COMP_POFFSET (info, c);

  if (GST_VIDEO_INFO_COMP_DEPTH (info, c) > 8 && (offset & 1))
    offset *= 2;
  return offset;
}

gint
gst_cuda_video_filter_plane_component (const GstVideoInfo * info, guint plane)
{
  gint c;

  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if ((guint) GST_VIDEO_INFO_COMP_PLANE (info, c) == plane)
      return c;
  return -1;
}
gint
gst_cuda_video_filter_plane_samples (const GstVideoInfo * info, guint plane, GcvSampleType * type,
    gint * channels)
{
  gint comp = gst_cuda_video_filter_plane_component (info, plane), bytes;

  if (comp < 0)
    return -1;
  bytes = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comp) > 8 ? 2 : 1;
  *type = bytes == 2 ? GCV_SAMPLE_U16 : GCV_SAMPLE_U8;
  *channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) / bytes;
  return comp;
}
void
gst_cuda_video_filter_frame_planes (GstVideoFrame * frame, guint n_planes, GcvPlane * planes)
{
  guint p;

  for (p = 0; p < n_planes; p++) {
    gint comp = gst_cuda_video_filter_plane_component (&frame->info, p);
    planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    planes[p].width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp);
    planes[p].height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp);
  }
}
/* The colour of @argb in each component of @finfo's frames (an 8-bit
 * value; 16-bit components scale it), as the overlays paint it. */
static void
paint_values (const GstVideoFormatInfo * finfo, guint32 argb, guint8 value[GST_VIDEO_MAX_COMPONENTS])
{
  memset (value, 0, GST_VIDEO_MAX_COMPONENTS);
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo)) {
    gcv_argb_to_ycbcr601 (argb, &value[GST_VIDEO_COMP_Y], &value[GST_VIDEO_COMP_U],
        &value[GST_VIDEO_COMP_V]);
  } else if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
    value[GST_VIDEO_COMP_R] = (argb >> 16) & 0xff;
    value[GST_VIDEO_COMP_G] = (argb >> 8) & 0xff;
    value[GST_VIDEO_COMP_B] = argb & 0xff;
  } else {
    value[0] = gcv_argb_to_luma (argb);
  }
}

/* Component @c of a frame whose plane @p starts at @data with rows
 * @stride bytes apart, as the overlay painter sees it. */
static void
component_of (const GstVideoInfo * info, guint c, guint8 * plane_data, gsize stride, GcvComponent * comp)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  comp->data = plane_data + gst_cuda_video_filter_comp_offset (info, c);
  comp->stride = stride;
  comp->pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
  comp->width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
  comp->height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
  comp->x_shift = finfo->w_sub[c];
  comp->y_shift = finfo->h_sub[c];
  comp->depth16 = finfo->depth[c] > 8;
  comp->low_bits = comp->depth16 && finfo->depth[c] + finfo->shift[c] == 16 ? finfo->shift[c] : 0;
}

void
gst_cuda_video_filter_paint_mask (GstVideoFrame * frame, const GcvPlane * mask, guint32 argb)
{
  guint8 value[GST_VIDEO_MAX_COMPONENTS];
  guint8 alpha = (argb >> 24) & 0xff;
  guint c;

  paint_values (frame->info.finfo, argb, value);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++) {
    GcvComponent comp;
    guint p = GST_VIDEO_FRAME_COMP_PLANE (frame, c);
    if (GST_VIDEO_INFO_HAS_ALPHA (&frame->info) && c == GST_VIDEO_COMP_A)
      continue;
    component_of (&frame->info, c, GST_VIDEO_FRAME_PLANE_DATA (frame, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), &comp);
    gcv_overlay_component (&comp, mask, value[c], alpha);
  }
}

gboolean
gst_cuda_video_filter_paint_mask_device (GstCudaVideoFilter * self, GstCudaVideoDeviceFrame * frame,
    const GcvPlane * mask, guint8 mask_bits, guint32 argb, GError ** error)
{
  const GstVideoInfo *info = frame->info;
  guint8 value[GST_VIDEO_MAX_COMPONENTS];
  guint8 alpha = (argb >> 24) & 0xff;
  GcvError err;
  guint c;

  paint_values (info->finfo, argb, value);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    GcvComponent comp;
    guint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    if ((GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A) || frame->planes[p].data == NULL)
      continue;
    component_of (info, c, frame->planes[p].data, frame->planes[p].stride, &comp);
    if (gcv_overlay_cuda_component (&comp, mask, mask_bits, value[c], alpha,
            self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

gboolean
gst_cuda_video_filter_copy_device_frame (GstCudaVideoFilter * self, const GstCudaVideoDeviceFrame * src,
    GstCudaVideoDeviceFrame * dst, GError ** error)
{
  GcvError err;
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (src->info); p++) {
    gint w, h;
    gsize row;
    if (src->planes[p].data == NULL || dst->planes[p].data == NULL)
      continue;
    plane_geometry (src->info, p, &w, &h, &row);
    if (gcv_cuda_copy_2d (dst->planes[p].data, dst->planes[p].stride, src->planes[p].data,
            src->planes[p].stride, row, h, self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

/* ---- transfers ------------------------------------------------------------- */

/* Planes from this size on are copied to and from staging by a few
 * threads: one core's memcpy (~9 GB/s measured on the H200 host) is slower
 * than the PCIe link (55 GB/s). */
#define PARALLEL_COPY_BYTES (1 << 19)

/* Copies rows between a host plane and packed staging, with a few threads
 * when @parallel (decided for the whole plane: the chunks of an upload are
 * each below the size that pays, and were copied by one thread). */
static void
copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src, gsize src_stride, gsize row_bytes,
    gint rows, gboolean parallel)
{
  gint y;

  if (!parallel && dst_stride == row_bytes && src_stride == row_bytes) {
    memcpy (dst, src, row_bytes * rows);
    return;
  }
#pragma omp parallel for num_threads(4) schedule(static) if (parallel)
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_stride, src + y * src_stride, row_bytes);
}

/* Makes *@buf hold @need bytes of page-locked memory (a slot's staging;
 * its previous frame completed, so it may be replaced). */
static gboolean
reserve_staging (GstCudaVideoFilter * self, guint8 ** buf, gsize * size, gsize need, GError ** error)
{
  GcvError err;
  void *p;

  if (need <= *size)
    return TRUE;
  gcv_cuda_host_free (*buf);
  *buf = NULL;
  *size = 0;
  need = GST_ROUND_UP_N (need, 1 << 20);
  if (gcv_cuda_host_alloc (&p, need, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  GST_DEBUG_OBJECT (self, "page-locked staging of %" G_GSIZE_FORMAT " bytes", need);
  *buf = p;
  *size = need;
  return TRUE;
}

/* Records event @ev of the current frame's slot on stream @s. */
static gboolean
record (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s, GError ** error)
{
  GcvError err;

  if (gcv_cuda_event_record (slot->events[ev], self->priv->streams[s], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* Stream @s waits on the device for event @ev of @slot. */
static gboolean
await (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s, GError ** error)
{
  GcvError err;

  if (gcv_cuda_stream_wait_event (self->priv->streams[s], slot->events[ev], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* Makes the slot's device plane @p of @info exist: it is allocated with
 * the caps for a side in system memory, and here, at the first frame,
 * when a side negotiated in CUDA memory gets a buffer that is not. */
static gboolean
ensure_slot_plane (GstCudaVideoFilter * self, const GstVideoInfo * info, guint p, GcvPlane * plane,
    GError ** error)
{
  gint w, h;
  gsize row;

  if (plane->data != NULL)
    return TRUE;
  plane_geometry (info, p, &w, &h, &row);
  return gst_cuda_video_filter_device_alloc (self, row, h, plane, w, error);
}

/* Queues the upload of the planes the subclass wants from the mapped host
 * frame into the slot's device planes, on the upload stream: straight by
 * DMA from page-locked memory, else through the slot's staging, in
 * chunks so that the DMA of one chunk overlaps the copy of the next. */
static gboolean
upload_frame (GstCudaVideoFilter * self, Job * job, GstVideoFrame * frame, GstCudaVideoDeviceFrame * dev,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  Slot *slot = job->slot;
  gpointer stream = priv->streams[STREAM_UPLOAD];
  gsize need = 0, used = 0;
  GcvError err;
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    gint w, h;
    gsize row;
    if (!(priv->in_planes & (1u << p)))
      continue;
    plane_geometry (&frame->info, p, &w, &h, &row);
    if (!gcv_cuda_host_is_pinned (GST_VIDEO_FRAME_PLANE_DATA (frame, p)))
      need += row * h;
  }
  if (need > 0 && !reserve_staging (self, &slot->up_staging, &slot->up_size, need, error))
    return FALSE;
  if (!record (self, slot, EV_UP_START, STREAM_UPLOAD, error))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    if ((priv->in_planes & (1u << p)) && !ensure_slot_plane (self, &frame->info, p, &slot->dev_in[p], error))
      return FALSE;
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    const guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gsize host_stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), row;
    GcvPlane *d = &slot->dev_in[p];
    gint w, h, chunks, k;

    if (!(priv->in_planes & (1u << p)))
      continue;
    plane_geometry (&frame->info, p, &w, &h, &row);
    dev->planes[p] = *d;
    if (gcv_cuda_host_is_pinned (host)) {
      if (gcv_cuda_upload_2d (d->data, d->stride, host, host_stride, row, h, stream, &err) != GCV_OK)
        return gst_cuda_video_filter_set_error (error, &err);
      continue;
    }
    chunks = row * h >= (1 << 20) ? 4 : 1;
    for (k = 0; k < chunks; k++) {
      gint y0 = (gint) ((gint64) h * k / chunks), y1 = (gint) ((gint64) h * (k + 1) / chunks);
      guint8 *staging = slot->up_staging + used + (gsize) y0 * row;
      if (y1 <= y0)
        continue;
      copy_rows (staging, row, host + (gsize) y0 * host_stride, host_stride, row, y1 - y0,
          row * h >= PARALLEL_COPY_BYTES);
      if (gcv_cuda_upload_2d ((guint8 *) d->data + (gsize) y0 * d->stride, d->stride, staging, row, row,
              y1 - y0, stream, &err) != GCV_OK)
        return gst_cuda_video_filter_set_error (error, &err);
    }
    used += row * h;
  }
  job->uploaded = TRUE;
  return record (self, slot, EV_UP_END, STREAM_UPLOAD, error)
      && await (self, slot, EV_UP_END, STREAM_COMPUTE, error);
}

/* Queues, on the download stream once the compute is done, the download of
 * the slot's device output into the mapped host frame: straight into
 * page-locked memory, else into staging, copied out at completion. */
static gboolean
download_frame (GstCudaVideoFilter * self, Job * job, GstVideoFrame * frame, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  Slot *slot = job->slot;
  gpointer stream = priv->streams[STREAM_DOWNLOAD];
  gsize need = 0, used = 0;
  GcvError err;
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    gint w, h;
    gsize row;
    if (!(priv->out_planes & (1u << p)))
      continue;
    plane_geometry (&frame->info, p, &w, &h, &row);
    if (!gcv_cuda_host_is_pinned (GST_VIDEO_FRAME_PLANE_DATA (frame, p)))
      need += row * h;
  }
  if (need > 0 && !reserve_staging (self, &slot->down_staging, &slot->down_size, need, error))
    return FALSE;
  if (!await (self, slot, EV_COMPUTE_END, STREAM_DOWNLOAD, error)
      || !record (self, slot, EV_DOWN_START, STREAM_DOWNLOAD, error))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gsize host_stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), row;
    const GcvPlane *d = &slot->dev_out[p];
    gint w, h;

    if (!(priv->out_planes & (1u << p)))
      continue;
    plane_geometry (&frame->info, p, &w, &h, &row);
    if (gcv_cuda_host_is_pinned (host)) {
      if (gcv_cuda_download_2d (host, host_stride, d->data, d->stride, row, h, stream, &err) != GCV_OK)
        return gst_cuda_video_filter_set_error (error, &err);
      continue;
    }
    if (gcv_cuda_download_2d (slot->down_staging + used, row, d->data, d->stride, row, h, stream,
            &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
    job->copies[job->n_copies].staging_offset = used;
    job->copies[job->n_copies].host = host;
    job->copies[job->n_copies].host_stride = host_stride;
    job->copies[job->n_copies].row_bytes = row;
    job->copies[job->n_copies].rows = h;
    job->n_copies++;
    used += row * h;
  }
  job->downloaded = TRUE;
  return record (self, slot, EV_DOWN_END, STREAM_DOWNLOAD, error);
}

/* ---- frames in flight ------------------------------------------------------ */

/* The slot of the next frame.  At most depth <= n_slots - 2 frames are in
 * flight when a frame is submitted, and they are the latest ones, so the
 * slot taken round-robin belongs to a completed frame. */
static Slot *
take_slot (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  Slot *slot = &priv->slots[priv->next_slot];

  priv->next_slot = (priv->next_slot + 1) % priv->n_slots;
  priv->current = slot;
  return slot;
}

/* Unmaps what the job holds and drops its input (the device is done). */
static void
release_job_frames (Job * job)
{
  if (job->in_mapped)
    gst_video_frame_unmap (&job->in_map);
  if (job->out_mapped)
    gst_video_frame_unmap (&job->out_map);
  job->in_mapped = job->out_mapped = FALSE;
  gst_clear_buffer (&job->inbuf);
}

/* Adds a completed frame to the statistics. */
static void
account_frame (GstCudaVideoFilter * self, const gdouble ms[3], gint64 host_us)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  g_mutex_lock (&priv->stats_lock);
  priv->frames++;
  priv->sum_ms[0] += ms[0];
  priv->sum_ms[1] += ms[1];
  priv->sum_ms[2] += ms[2];
  priv->sum_ms[3] += host_us / 1000.0;
  g_mutex_unlock (&priv->stats_lock);
}

static gdouble
elapsed (Slot * slot, gint a, gint b)
{
  GcvError err;
  float ms = 0.0f;

  if (gcv_cuda_event_elapsed (slot->events[a], slot->events[b], &ms, &err) != GCV_OK)
    return 0.0;
  return ms;
}

/* Waits for a frame's device work, finishes its host side (staged
 * downloads, the subclass's complete) and accounts it; *@outbuf gets the
 * buffer to push (or NULL).  On failure the error is posted. */
static GstFlowReturn
complete_job (GstCudaVideoFilter * self, Job * job, GstBuffer ** outbuf)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstFlowReturn ret = GST_FLOW_OK;
  gint64 t0 = g_get_monotonic_time ();
  gdouble ms[3] = { 0.0, 0.0, 0.0 };
  Slot *slot = job->slot;

  *outbuf = NULL;
  if (slot != NULL) {
    GError *error = NULL;
    GcvError err;
    guint i;

    if (!gst_cuda_video_filter_enter (self, &error)) {
      release_job_frames (job);
      gst_clear_buffer (&job->outbuf);
      return gst_cuda_video_filter_post_error (self, "Entering the CUDA context", error);
    }
    if (gcv_cuda_event_sync (slot->events[job->downloaded ? EV_DOWN_END : EV_COMPUTE_END], &err) != GCV_OK) {
      gst_cuda_video_filter_leave (self);
      release_job_frames (job);
      gst_clear_buffer (&job->outbuf);
      gst_cuda_video_filter_set_error (&error, &err);
      return gst_cuda_video_filter_post_error (self, "Finishing the frame on the GPU", error);
    }
    if (job->uploaded)
      ms[0] = elapsed (slot, EV_UP_START, EV_UP_END);
    if (job->computed)
      ms[1] = elapsed (slot, EV_COMPUTE_START, EV_COMPUTE_END);
    if (job->downloaded)
      ms[2] = elapsed (slot, EV_DOWN_START, EV_DOWN_END);
    for (i = 0; i < job->n_copies; i++) {
      StagedCopy *c = &job->copies[i];
      copy_rows (c->host, c->host_stride, slot->down_staging + c->staging_offset, c->row_bytes,
          c->row_bytes, c->rows, c->row_bytes * c->rows >= PARALLEL_COPY_BYTES);
    }
    release_job_frames (job);
    if (job->outbuf && job->computed && klass->complete) {
      self->priv->current = slot;
      ret = klass->complete (self, job->outbuf, slot->results);
    }
    gst_cuda_video_filter_leave (self);
  }
  release_job_frames (job);
  job->host_us += g_get_monotonic_time () - t0;
  if (ret == GST_FLOW_OK) {
    /* a CPU frame was accounted when it was computed; a frame that gave
     * no output (a history filling) is not one */
    if (slot != NULL && job->outbuf != NULL)
      account_frame (self, ms, job->host_us);
    *outbuf = job->outbuf;
  } else {
    gst_clear_buffer (&job->outbuf);
  }
  job->outbuf = NULL;
  return ret;
}

static void
free_job (Job * job)
{
  release_job_frames (job);
  gst_clear_buffer (&job->outbuf);
  g_free (job);
}

/* Completes and pushes every frame in flight, oldest first. */
static GstFlowReturn
drain_inflight (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstFlowReturn ret = GST_FLOW_OK;
  Job *job;

  if (!g_queue_is_empty (&priv->inflight))
    GST_DEBUG_OBJECT (self, "draining %u frame(s) in flight", g_queue_get_length (&priv->inflight));
  while (ret == GST_FLOW_OK && (job = g_queue_pop_head (&priv->inflight)) != NULL) {
    GstBuffer *buf;
    ret = complete_job (self, job, &buf);
    g_free (job);
    if (ret == GST_FLOW_OK && buf)
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);
  }
  if (ret != GST_FLOW_OK)
    discard_inflight (self);
  return ret;
}

/* Drops every frame in flight once the device is done with it (flush,
 * stop, errors). */
static void
discard_inflight (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  Job *job;
  guint i;

  if (g_queue_is_empty (&priv->inflight))
    return;
  GST_DEBUG_OBJECT (self, "dropping %u frame(s) in flight", g_queue_get_length (&priv->inflight));
  if (on_gpu (self) && gst_cuda_video_filter_enter (self, NULL)) {
    for (i = 0; i < N_STREAMS; i++)
      gcv_cuda_stream_sync (priv->streams[i], NULL);
    gst_cuda_video_filter_leave (self);
  }
  while ((job = g_queue_pop_head (&priv->inflight)) != NULL)
    free_job (job);
}

/* The default generate_output runs transform / transform_ip, which submit
 * the frame (on the GPU: queue its work; on the CPU: compute it) and leave
 * its job in priv->submitted; the frame joins the ones in flight, and the
 * oldest are completed and handed to basetransform (which pushes them)
 * while more than async-depth are in flight. */
static GstFlowReturn
gst_cuda_video_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBuffer *fresh = NULL;
  GstFlowReturn ret;
  gboolean dropped;
  Job *job;

  *outbuf = NULL;
  priv->submitted = NULL;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (trans, &fresh);
  job = priv->submitted;
  priv->submitted = NULL;
  dropped = ret == GST_BASE_TRANSFORM_FLOW_DROPPED;

  if (ret != GST_FLOW_OK && !dropped) {
    if (job)
      free_job (job);
    gst_clear_buffer (&fresh);
    return ret;
  }
  if (fresh != NULL || job != NULL) {
    if (job == NULL)
      job = g_new0 (Job, 1);
    /* a dropped frame (a history filling) gives no output, but its device
     * work must be done before its input goes */
    if (dropped)
      gst_clear_buffer (&fresh);
    job->outbuf = fresh;
    if (job->outbuf || job->slot)
      g_queue_push_tail (&priv->inflight, job);
    else
      g_free (job);
  }

  while (g_queue_get_length (&priv->inflight) > effective_depth (self)) {
    job = g_queue_pop_head (&priv->inflight);
    ret = complete_job (self, job, outbuf);
    g_free (job);
    if (ret != GST_FLOW_OK) {
      discard_inflight (self);
      return ret;
    }
    if (*outbuf != NULL)
      return GST_FLOW_OK;
  }
  return dropped ? GST_BASE_TRANSFORM_FLOW_DROPPED : GST_FLOW_OK;
}

/* ---- streaming ---------------------------------------------------------------- */

/* Whether every plane a GstVideoMeta on @buf describes lies inside the
 * buffer: gst_video_frame_map() checks only where each plane starts, and
 * the backends would read past the end of a buffer whose meta lies.
 * Without a meta gst_video_frame_map() checks the size itself. */
static gboolean
buffer_holds_frame (GstBuffer * buf, const GstVideoInfo * info)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  guint p;

  if (meta == NULL)
    return TRUE;
  if (meta->n_planes != GST_VIDEO_INFO_N_PLANES (info))
    return FALSE;
  for (p = 0; p < meta->n_planes; p++) {
    gint comp = gst_cuda_video_filter_plane_component (info, p);
    gsize row, rows;

    if (comp < 0)
      return FALSE;
    row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
    if (meta->stride[p] < 0 || (gsize) meta->stride[p] < row || meta->offset[p] > size
        || rows * meta->stride[p] - meta->stride[p] + row > size - meta->offset[p])
      return FALSE;
  }
  return TRUE;
}
/* A side negotiated in memory:CUDAMemory got a buffer the kernels cannot
 * use in place (memory of another context, or a device map that failed):
 * it goes through its host mapping, correct but slower.  Said once per
 * caps, with what the buffer was. */
static void
warn_host_path (GstCudaVideoFilter * self, const gchar * side, GstBuffer * buf)
{
  GstMemory *mem = gst_buffer_n_memory (buf) > 0 ? gst_buffer_peek_memory (buf, 0) : NULL;

  if (self->priv->warned_foreign)
    return;
  self->priv->warned_foreign = TRUE;
  GST_WARNING_OBJECT (self, "%s buffer %" GST_PTR_FORMAT " (%u memories, the first of type %s, %s) is not "
      "usable on the device in our CUDA context: through the host", side, buf, gst_buffer_n_memory (buf),
      mem && mem->allocator ? mem->allocator->mem_type : "?",
      gst_buffer_is_writable (buf) ? "writable" : "not writable");
}

/* The input of a frame on the device: memory:CUDAMemory of our context as
 * it is, anything else uploaded into the slot (a CUDA buffer of another
 * context is read through its host mapping). */
static gboolean
input_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * inbuf, GstCudaVideoDeviceFrame * dev,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstMapFlags no_ref = (GstMapFlags) GST_VIDEO_FRAME_MAP_FLAG_NO_REF;

  dev->info = &self->in_info;
  dev->buffer = inbuf;
  if (priv->in_device && gst_cuda_video_is_device_buffer (inbuf, priv->context)) {
    if (gst_video_frame_map (&job->in_map, &self->in_info, inbuf,
            GST_MAP_READ | gst_cuda_video_map_flags () | no_ref)) {
      job->in_mapped = TRUE;
      gst_cuda_video_filter_frame_planes (&job->in_map, GST_VIDEO_INFO_N_PLANES (&self->in_info), dev->planes);
      return TRUE;
    }
    warn_host_path (self, "input", inbuf);
  } else if (priv->in_device) {
    warn_host_path (self, "input", inbuf);
  }
  if (!gst_video_frame_map (&job->in_map, &self->in_info, inbuf, GST_MAP_READ | no_ref))
    goto map_failed;
  job->in_mapped = TRUE;
  return upload_frame (self, job, &job->in_map, dev, error);

map_failed:
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
      "could not map the input frame (buffer of %" G_GSIZE_FORMAT " bytes)", gst_buffer_get_size (inbuf));
  return FALSE;
}

/* The device planes of an output frame: the buffer's CUDA memory, or the
 * slot's device planes (downloaded into the buffer afterwards). */
static gboolean
output_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf, GstCudaVideoDeviceFrame * dev,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  guint p;

  dev->info = &self->out_info;
  dev->buffer = outbuf;
  if (priv->out_device && gst_cuda_video_is_device_buffer (outbuf, priv->context)) {
    if (gst_video_frame_map (&job->out_map, &self->out_info, outbuf,
            GST_MAP_WRITE | gst_cuda_video_map_flags () | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
      job->out_mapped = TRUE;
      gst_cuda_video_filter_frame_planes (&job->out_map, GST_VIDEO_INFO_N_PLANES (&self->out_info),
          dev->planes);
      return TRUE;
    }
    warn_host_path (self, "output", outbuf);
  } else if (priv->out_device) {
    warn_host_path (self, "output", outbuf);
  }
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&self->out_info); p++) {
    if (!(priv->out_planes & (1u << p)))
      continue;
    if (!ensure_slot_plane (self, &self->out_info, p, &job->slot->dev_out[p], error))
      return FALSE;
    dev->planes[p] = job->slot->dev_out[p];
  }
  return TRUE;
}

/* The host side of an output that is not in our CUDA memory: mapped for
 * writing until the frame completes, its download queued. */
static gboolean
download_output (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf, GError ** error)
{
  if (job->out_mapped)
    return TRUE;                /* written in place on the device */
  if (!gst_video_frame_map (&job->out_map, &self->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "could not map the output frame (buffer of %" G_GSIZE_FORMAT " bytes)", gst_buffer_get_size (outbuf));
    return FALSE;
  }
  job->out_mapped = TRUE;
  return download_frame (self, job, &job->out_map, error);
}

/* One frame on the GPU: its input on the device, the subclass's launches
 * between the compute events, the download of a system-memory output.
 * Nothing waits: the job goes in flight.  @outbuf NULL: in place. */
static GstFlowReturn
submit_device (GstCudaVideoFilter * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstCudaVideoDeviceFrame in_dev = { 0, }, out_dev = { 0, };
  GstFlowReturn ret;
  GError *error = NULL;
  gint64 t0 = g_get_monotonic_time ();
  Job *job;

  if (!enter_or_post (self))
    return GST_FLOW_ERROR;
  job = g_new0 (Job, 1);
  job->slot = take_slot (self);
  /* the input is read by the device after this returns: keep it (an in
   * place buffer is the output, kept as such) */
  if (outbuf != NULL)
    job->inbuf = gst_buffer_ref (inbuf);
  if (!input_to_device (self, job, inbuf, &in_dev, &error)
      || (outbuf != NULL && !output_to_device (self, job, outbuf, &out_dev, &error))
      || !record (self, job->slot, EV_COMPUTE_START, STREAM_COMPUTE, &error))
    goto failed;
  ret = outbuf == NULL ? klass->process_device_in_place (self, &in_dev)
      : klass->process_device (self, &in_dev, &out_dev);
  if (ret != GST_FLOW_OK && ret != GST_BASE_TRANSFORM_FLOW_DROPPED)
    goto done;
  if (!record (self, job->slot, EV_COMPUTE_END, STREAM_COMPUTE, &error))
    goto failed;
  job->computed = TRUE;
  if (ret == GST_FLOW_OK && outbuf != NULL && !download_output (self, job, outbuf, &error))
    goto failed;
  gst_cuda_video_filter_leave (self);
  job->host_us = g_get_monotonic_time () - t0;
  priv->submitted = job;
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " submitted to the GPU%s",
      GST_TIME_ARGS (GST_BUFFER_PTS (inbuf)), ret == GST_FLOW_OK ? "" : " (no output)");
  return ret;

failed:
  ret = gst_cuda_video_filter_post_error (self, "Queueing the frame on the GPU", error);
done:
  /* what was queued must not outlive its buffers */
  {
    guint i;
    for (i = 0; i < N_STREAMS; i++)
      gcv_cuda_stream_sync (priv->streams[i], NULL);
  }
  gst_cuda_video_filter_leave (self);
  free_job (job);
  return ret;
}

static GstFlowReturn
gst_cuda_video_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstVideoFrame in_frame, out_frame;
  GstFlowReturn ret;
  gint64 t0, t1;

  if (G_UNLIKELY (!priv->configured)) {
    GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED, (NULL), ("frame before caps were set"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!buffer_holds_frame (inbuf, &self->in_info))
    goto map_failed;
  if (on_gpu (self))
    return submit_device (self, inbuf, outbuf);

  if (!gst_video_frame_map (&in_frame, &self->in_info, inbuf, GST_MAP_READ))
    goto map_failed;
  if (!gst_video_frame_map (&out_frame, &self->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    gst_video_frame_unmap (&in_frame);
    goto map_failed;
  }
  t0 = g_get_monotonic_time ();
  ret = klass->process (self, &in_frame, &out_frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (ret == GST_FLOW_OK) {
    gdouble ms[3] = { 0.0, (t1 - t0) / 1000.0, 0.0 };
    account_frame (self, ms, t1 - t0);
  }
  return ret;

map_failed:
  GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not map the video frame"),
      ("buffer of %" G_GSIZE_FORMAT " bytes does not match the negotiated caps",
          gst_buffer_get_size (inbuf)));
  return GST_FLOW_ERROR;
}

/* In place (subclasses with process_in_place): the buffer is the output. */
static GstFlowReturn
gst_cuda_video_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstVideoFrame frame;
  /* no ref on the buffer while mapped, so that it stays writable for metas */
  GstMapFlags flags = GST_MAP_READ | GST_VIDEO_FRAME_MAP_FLAG_NO_REF;
  GstFlowReturn ret;
  gint64 t0, t1;

  if (G_UNLIKELY (!self->priv->configured || klass->process_in_place == NULL)) {
    GST_ELEMENT_ERROR (self, CORE, NOT_IMPLEMENTED, (NULL),
        ("frame before caps were set, or in place without process_in_place"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  if (!buffer_holds_frame (buf, &self->in_info))
    goto map_failed;
  if (on_gpu (self))
    return submit_device (self, buf, NULL);

  if (klass->writes_in_place && klass->writes_in_place (self))
    flags |= GST_MAP_WRITE;
  if (!gst_video_frame_map (&frame, &self->in_info, buf, flags))
    goto map_failed;
  t0 = g_get_monotonic_time ();
  ret = klass->process_in_place (self, &frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&frame);
  if (ret == GST_FLOW_OK || ret == GST_BASE_TRANSFORM_FLOW_DROPPED) {
    gdouble ms[3] = { 0.0, (t1 - t0) / 1000.0, 0.0 };
    account_frame (self, ms, t1 - t0);
  }
  return ret;

map_failed:
  GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not map the video frame"),
      ("buffer of %" G_GSIZE_FORMAT " bytes does not match the negotiated caps", gst_buffer_get_size (buf)));
  return GST_FLOW_ERROR;
}

/* An output buffer from the negotiated pool or allocator. */
static GstFlowReturn
acquire_output (GstCudaVideoFilter * self, GstBuffer ** outbuf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);
  GstFlowReturn ret;

  *outbuf = NULL;
  if (pool) {
    if (!gst_buffer_pool_is_active (pool))
      gst_buffer_pool_set_active (pool, TRUE);
    ret = gst_buffer_pool_acquire_buffer (pool, outbuf, NULL);
    gst_object_unref (pool);
    return ret;
  } else {
    GstAllocator *allocator = NULL;
    GstAllocationParams params;
    gst_base_transform_get_allocator (trans, &allocator, &params);
    *outbuf = gst_buffer_new_allocate (allocator, GST_VIDEO_INFO_SIZE (&self->out_info), &params);
    if (allocator)
      gst_object_unref (allocator);
    if (*outbuf == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate an output buffer"),
          ("%" G_GSIZE_FORMAT " bytes", GST_VIDEO_INFO_SIZE (&self->out_info)));
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_OK;
}

/* push_output's frame on the GPU, completed before it returns. */
static GstFlowReturn
render_device (GstCudaVideoFilter * self, GstCudaVideoFilterRenderFunc render, gpointer user_data,
    GstBuffer * outbuf, GstBuffer ** done)
{
  GstCudaVideoDeviceFrame out_dev = { 0, };
  GError *error = NULL;
  GstFlowReturn ret;
  gint64 t0 = g_get_monotonic_time ();
  Job *job;

  *done = NULL;
  if (!enter_or_post (self)) {
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  job = g_new0 (Job, 1);
  job->slot = take_slot (self);
  job->outbuf = outbuf;
  if (!output_to_device (self, job, outbuf, &out_dev, &error)
      || !record (self, job->slot, EV_COMPUTE_START, STREAM_COMPUTE, &error))
    goto failed;
  ret = render (self, NULL, &out_dev, user_data);
  if (ret != GST_FLOW_OK)
    goto done;
  if (!record (self, job->slot, EV_COMPUTE_END, STREAM_COMPUTE, &error))
    goto failed;
  job->computed = TRUE;
  if (!download_output (self, job, outbuf, &error))
    goto failed;
  gst_cuda_video_filter_leave (self);
  job->host_us = g_get_monotonic_time () - t0;
  ret = complete_job (self, job, done);
  g_free (job);
  return ret;

failed:
  ret = gst_cuda_video_filter_post_error (self, "Rendering a held frame on the GPU", error);
done:
  gcv_cuda_stream_sync (self->priv->streams[STREAM_COMPUTE], NULL);
  gst_cuda_video_filter_leave (self);
  free_job (job);
  return ret == GST_BASE_TRANSFORM_FLOW_DROPPED ? GST_FLOW_OK : ret;
}

GstFlowReturn
gst_cuda_video_filter_push_output (GstCudaVideoFilter * self, GstCudaVideoFilterRenderFunc render,
    gpointer user_data)
{
  GstBuffer *outbuf = NULL;
  GstVideoFrame out_frame;
  GstFlowReturn ret;
  gint64 t0, t1;

  /* in order: what is in flight went in before */
  if ((ret = drain_inflight (self)) != GST_FLOW_OK)
    return ret;
  if ((ret = acquire_output (self, &outbuf)) != GST_FLOW_OK)
    return ret;
  if (on_gpu (self)) {
    GstBuffer *done;
    ret = render_device (self, render, user_data, outbuf, &done);
    if (ret != GST_FLOW_OK || done == NULL)
      return ret;
    return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), done);
  }
  if (!gst_video_frame_map (&out_frame, &self->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not map the video frame"),
        ("output buffer of %" G_GSIZE_FORMAT " bytes", gst_buffer_get_size (outbuf)));
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  t0 = g_get_monotonic_time ();
  ret = render (self, &out_frame, NULL, user_data);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&out_frame);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (outbuf);
    return ret == GST_BASE_TRANSFORM_FLOW_DROPPED ? GST_FLOW_OK : ret;
  }
  {
    gdouble ms[3] = { 0.0, (t1 - t0) / 1000.0, 0.0 };
    account_frame (self, ms, t1 - t0);
  }
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
}

static gboolean
gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      discard_inflight (self);
      if (klass->reset)
        klass->reset (self);
      break;
    case GST_EVENT_CAPS:
      /* frames held back under the old caps go out under them, before the
       * new caps reach set_caps (which resets the history) */
      if (self->priv->configured) {
        GstCaps *caps, *current = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
        gst_event_parse_caps (event, &caps);
        if (current && !gst_caps_is_equal (current, caps)) {
          GstFlowReturn ret = drain_inflight (self);
          if (ret == GST_FLOW_OK && klass->drain)
            ret = klass->drain (self);
          if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
            GST_WARNING_OBJECT (self, "draining before new caps: %s", gst_flow_get_name (ret));
        }
        if (current)
          gst_caps_unref (current);
      }
      break;
    case GST_EVENT_EOS:
      if (self->priv->configured) {
        GstFlowReturn ret = drain_inflight (self);
        if (ret == GST_FLOW_OK && klass->drain)
          ret = klass->drain (self);
        if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
          GST_WARNING_OBJECT (self, "draining at EOS: %s", gst_flow_get_name (ret));
      }
      break;
    default:
      /* every other serialized event (segment, gap, tags, ...) comes
       * after the frames that came before it */
      if (GST_EVENT_IS_SERIALIZED (event)) {
        GstFlowReturn ret = drain_inflight (self);
        if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
          GST_WARNING_OBJECT (self, "draining before %s: %s", GST_EVENT_TYPE_NAME (event),
              gst_flow_get_name (ret));
      }
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gst_cuda_video_context_query (GST_ELEMENT (self), query, self->priv->context))
        return TRUE;
      break;
    case GST_QUERY_CAPS:
      /* basetransform answers in the order of the query's filter (the
       * neighbour's preference, often system memory first, as cudaupload
       * offers): ours comes first, frames staying on the GPU */
      if (GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query)) {
        GstCaps *caps;
        gst_query_parse_caps_result (query, &caps);
        if (caps && device_memory_possible (self)) {
          GstCaps *ordered = device_first (caps);
          gst_query_set_caps_result (query, ordered);
          gst_caps_unref (ordered);
        }
        return TRUE;
      }
      return FALSE;
    case GST_QUERY_DRAIN:
      /* upstream wants every frame it gave back: push what is in flight */
      if (direction == GST_PAD_SINK && drain_inflight (self) != GST_FLOW_OK)
        GST_DEBUG_OBJECT (self, "draining for the DRAIN query failed");
      break;
    case GST_QUERY_LATENCY:
      if (direction == GST_PAD_SRC) {
        GstClockTime min, max, ours = 0;
        gboolean live;
        guint frames = (klass->latency_frames ? klass->latency_frames (self) : 0) + effective_depth (self);

        if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), query))
          return FALSE;
        gst_query_parse_latency (query, &live, &min, &max);
        if (frames > 0 && GST_VIDEO_INFO_FPS_N (&self->in_info) > 0)
          ours = gst_util_uint64_scale_int (frames * GST_SECOND,
              GST_VIDEO_INFO_FPS_D (&self->in_info), GST_VIDEO_INFO_FPS_N (&self->in_info));
        GST_DEBUG_OBJECT (self, "adding latency of %u frames: %" GST_TIME_FORMAT, frames,
            GST_TIME_ARGS (ours));
        min += ours;
        if (max != GST_CLOCK_TIME_NONE)
          max += ours;
        gst_query_set_latency (query, live, min, max);
        return TRUE;
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

/* ---- cuda / cpu registration -------------------------------------------- */

typedef struct
{
  GstCudaVideoBackend backend;
  gchar *long_name, *classification, *description;
  GstDebugCategory *category;
} PairClassData;

/* The cuda* element's pads take memory:CUDAMemory too (first: preferred),
 * when this build can; the templates are the abstract class's otherwise. */
static void
add_device_templates (GstElementClass * klass)
{
  GList *l, *templates = g_list_copy (gst_element_class_get_pad_template_list (klass));

  for (l = templates; l != NULL; l = l->next) {
    GstPadTemplate *templ = l->data;
    GstCaps *caps = gst_pad_template_get_caps (templ);
    GstCaps *both = gst_caps_merge (gst_cuda_video_caps_with_memory (caps), gst_caps_ref (caps));

    gst_element_class_add_pad_template (klass, gst_pad_template_new (GST_PAD_TEMPLATE_NAME_TEMPLATE (templ),
            GST_PAD_TEMPLATE_DIRECTION (templ), GST_PAD_TEMPLATE_PRESENCE (templ), both));
    gst_caps_unref (both);
    gst_caps_unref (caps);
  }
  g_list_free (templates);
}

static void
pair_class_init (gpointer klass, gpointer class_data)
{
  PairClassData *d = class_data;

  GST_CUDA_VIDEO_FILTER_CLASS (klass)->backend = d->backend;
  GST_CUDA_VIDEO_FILTER_CLASS (klass)->debug_category = d->category;
  gst_element_class_set_metadata (GST_ELEMENT_CLASS (klass), d->long_name, d->classification,
      d->description, "gst-cuda-video developers");
  if (d->backend == GST_CUDA_VIDEO_BACKEND_CUDA && gst_cuda_video_memory_available ())
    add_device_templates (GST_ELEMENT_CLASS (klass));
}

gboolean
gst_cuda_video_filter_register_pair (GstPlugin * plugin, GType parent, const gchar * suffix,
    const gchar * long_name, const gchar * classification, const gchar * description)
{
  GTypeQuery query;
  gint i;

  g_type_query (parent, &query);
  for (i = 0; i < 2; i++) {
    GstCudaVideoBackend backend = i == 0 ? GST_CUDA_VIDEO_BACKEND_CUDA : GST_CUDA_VIDEO_BACKEND_CPU;
    const gchar *prefix = backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu";
    gchar *element_name = g_strconcat (prefix, suffix, NULL);
    gchar *type_name = g_strdup_printf ("Gst%c%s%c%s", g_ascii_toupper (prefix[0]), prefix + 1,
        g_ascii_toupper (suffix[0]), suffix + 1);
    GType type = g_type_from_name (type_name);
    gboolean ok;

    if (type == 0) {
      /* the class data lives as long as the type, i.e. the process */
      PairClassData *d = g_new0 (PairClassData, 1);
      GTypeInfo info = { 0, };

      d->backend = backend;
      d->long_name = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("CUDA %s", long_name) : g_strdup_printf ("CPU %s", long_name);
      /* as GStreamer's own GPU elements say it */
      d->classification = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("%s/Hardware", classification) : g_strdup (classification);
      GST_DEBUG_CATEGORY_INIT (d->category, element_name, 0, d->long_name);
      d->description = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("%s, on an NVIDIA GPU with CUDA (runs the CPU implementation "
          "when no GPU is usable and fallback=true)", description) :
          g_strdup_printf ("%s, on the CPU (the same output as the CUDA element)", description);
      info.class_size = query.class_size;
      info.class_init = pair_class_init;
      info.class_data = d;
      info.instance_size = query.instance_size;
      type = g_type_register_static (parent, type_name, &info, 0);
    }
    ok = gst_element_register (plugin, element_name, GST_RANK_NONE, type);
    g_free (element_name);
    g_free (type_name);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}
