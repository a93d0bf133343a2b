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
 * #GstCudaVideoFilter:cuda-device-id and create one stream for the instance.
 * When no usable device exists, #GstCudaVideoFilter:fallback decides between
 * running the CPU twin (one warning message) and failing with a RESOURCE
 * error.  Device buffers are allocated once per caps and reused for every
 * frame; transfers go through pinned staging memory; each CUDA frame is
 * timed with CUDA events and the means are readable in
 * #GstCudaVideoFilter:stats.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter.h"
#include <gst/video/gstvideopool.h>
#include "gstcudahostallocator.h"
#include "overlay.h"

#if GCV_HAVE_CUDA
#include "gcv-cuda.h"
#endif

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_video_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_video_filter_debug

enum
{
  PROP_0,
  PROP_CUDA_DEVICE_ID,
  PROP_FALLBACK,
  PROP_BACKEND,
  PROP_N_THREADS,
  PROP_STATS,
};

#define DEFAULT_PROP_CUDA_DEVICE_ID -1
#define DEFAULT_PROP_FALLBACK TRUE
#define DEFAULT_PROP_N_THREADS 0

typedef struct
{
  gsize staging_offset;
  guint8 *host;
  gsize host_stride;
  gsize row_bytes;
  guint rows;
} PendingDownload;

enum
{ EV_START, EV_UPLOADED, EV_COMPUTED, EV_END, N_EVENTS };

struct _GstCudaVideoFilterPrivate
{
  /* properties, under the object lock */
  gint device_id;
  gboolean fallback;
  guint n_threads;

  /* state, streaming thread (and start/stop) */
  GstCudaVideoBackend backend;
  gboolean started;
  gboolean configured;
  gint device;
  gpointer stream;
#if GCV_HAVE_CUDA
  GcvCudaEvent *events[N_EVENTS];
#endif
  gboolean marked[N_EVENTS];
  GPtrArray *device_allocs;
  guint8 *up_staging, *down_staging;
  gsize up_size, up_used, down_size, down_used;
  GArray *pending;
  gdouble last_ms[3];           /* upload, compute, download of the last CUDA frame */

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
static gboolean gst_cuda_video_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_stop (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps);
static GstFlowReturn gst_cuda_video_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf,
    GstBuffer * outbuf);
static GstFlowReturn gst_cuda_video_filter_transform_ip (GstBaseTransform * trans, GstBuffer * buf);
static gboolean gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event);
static gboolean gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query);
static gboolean gst_cuda_video_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize);
static gboolean gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
static gboolean gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query);

static void
gst_cuda_video_filter_class_init (GstCudaVideoFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_video_filter_set_property;
  gobject_class->get_property = gst_cuda_video_filter_get_property;
  gobject_class->finalize = gst_cuda_video_filter_finalize;

  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to run on (-1 = the default device, 0 unless CUDA_VISIBLE_DEVICES "
          "says otherwise); ignored by the cpu* elements",
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
          "download-ms (CUDA events; compute only for the CPU), total-ms (host wall time "
          "in the element), backend",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_set_caps);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_ip);
  /* passthrough (same caps in scalers) must not reach transform_ip */
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_query);
  trans_class->transform_size = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_size);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_decide_allocation);
  trans_class->passthrough_on_same_caps = FALSE;

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
  priv->device_allocs = g_ptr_array_new ();
  priv->pending = g_array_new (FALSE, FALSE, sizeof (PendingDownload));
  g_mutex_init (&priv->stats_lock);
}

static void
gst_cuda_video_filter_finalize (GObject * object)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;

  g_ptr_array_unref (priv->device_allocs);
  g_array_unref (priv->pending);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_cuda_video_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (object);
  GstCudaVideoFilterPrivate *priv = self->priv;

  switch (prop_id) {
    case PROP_CUDA_DEVICE_ID:
      GST_OBJECT_LOCK (object);
      g_value_set_int (value, priv->device_id);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_FALLBACK:
      GST_OBJECT_LOCK (object);
      g_value_set_boolean (value, priv->fallback);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_N_THREADS:
      GST_OBJECT_LOCK (object);
      g_value_set_uint (value, priv->n_threads);
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_BACKEND:
      GST_OBJECT_LOCK (object);
      g_value_set_string (value, !priv->started ? NULL :
          priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu");
      GST_OBJECT_UNLOCK (object);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_cuda_video_filter_make_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

void
gst_cuda_video_filter_warn_rejected (GstCudaVideoFilter * filter, GParamSpec * pspec,
    const GValue * value, const gchar * why)
{
  gchar *contents = g_strdup_value_contents (value);

  if (G_IS_PARAM_SPEC_INT (pspec))
    g_warning ("%s: value %s for property '%s' rejected (%s; accepted: %d .. %d); keeping the "
        "previous value", GST_OBJECT_NAME (filter), contents, pspec->name, why,
        G_PARAM_SPEC_INT (pspec)->minimum, G_PARAM_SPEC_INT (pspec)->maximum);
  else
    g_warning ("%s: value %s for property '%s' rejected (%s); keeping the previous value",
        GST_OBJECT_NAME (filter), contents, pspec->name, why);
  g_free (contents);
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

/* ---- backend selection ------------------------------------------------ */

#if GCV_HAVE_CUDA
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
  if (gcv_cuda_set_device (priv->device, err) != GCV_OK
      || gcv_cuda_stream_new (&priv->stream, err) != GCV_OK)
    return FALSE;
  for (i = 0; i < N_EVENTS; i++)
    if (gcv_cuda_event_new (&priv->events[i], err) != GCV_OK)
      return FALSE;
  if (gcv_cuda_device_describe (priv->device, name, sizeof (name), err) == GCV_OK)
    GST_INFO_OBJECT (self, "running on CUDA device %d: %s", priv->device, name);
  return TRUE;
}
#endif

static void
close_cuda (GstCudaVideoFilter * self)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint i;

  for (i = 0; i < N_EVENTS; i++) {
    gcv_cuda_event_free (priv->events[i]);
    priv->events[i] = NULL;
  }
  gcv_cuda_host_free (priv->up_staging);
  gcv_cuda_host_free (priv->down_staging);
  priv->up_staging = priv->down_staging = NULL;
  priv->up_size = priv->down_size = 0;
  gcv_cuda_stream_free (priv->stream);
  priv->stream = NULL;
#endif
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

  if (klass->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
#if GCV_HAVE_CUDA
    ok = open_cuda (self, device_id, &err);
    if (!ok)
      close_cuda (self);
#else
    (void) device_id;
    gcv_error_set (&err, GCV_ERROR_NO_DEVICE, "this build of gst-cuda-video has no CUDA support "
        "(nvcc was not found when it was built)");
#endif
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

static void
free_per_caps (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  guint i;

  if (priv->configured && klass->teardown)
    klass->teardown (self);
  priv->configured = FALSE;
#if GCV_HAVE_CUDA
  if (priv->stream) {
    GcvError err;
    gcv_cuda_set_device (priv->device, &err);
    gcv_cuda_stream_sync (priv->stream, &err);
  }
  for (i = 0; i < priv->device_allocs->len; i++)
    gcv_cuda_free (g_ptr_array_index (priv->device_allocs, i));
#else
  (void) i;
#endif
  g_ptr_array_set_size (priv->device_allocs, 0);
}

static gboolean
gst_cuda_video_filter_stop (GstBaseTransform * trans)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
  close_cuda (self);
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
  GError *error = NULL;

  if (!gst_video_info_from_caps (&self->in_info, incaps)
      || !gst_video_info_from_caps (&self->out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Invalid caps"),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "caps in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT, incaps, outcaps);

  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
#if GCV_HAVE_CUDA
  if (priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    GcvError err;
    if (gcv_cuda_set_device (priv->device, &err) != GCV_OK) {
      gst_cuda_video_filter_set_error (&error, &err);
      gst_cuda_video_filter_post_error (self, "Selecting the CUDA device", error);
      return FALSE;
    }
  }
#endif
  if (klass->setup && !klass->setup (self, priv->backend, &error)) {
    free_per_caps (self);
    gst_cuda_video_filter_post_error (self, "Setting up for the new caps", error);
    return FALSE;
  }
  priv->configured = TRUE;
  return TRUE;
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

/* A video buffer pool for @caps whose memory comes from @allocator (NULL =
 * system memory); NULL if the configuration is refused. */
static GstBufferPool *
new_video_pool (GstCaps * caps, guint size, GstAllocator * allocator)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, 2, 0);
  if (allocator)
    gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* The CUDA backend offers upstream a pool of pinned host memory, so that
 * frames go to the GPU by DMA without a staging copy. */
static gboolean
gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;

  if (!GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation (trans, decide_query, query))
    return FALSE;
  /* passthrough (decide_query NULL) leaves the query to downstream */
  if (decide_query == NULL)
    return TRUE;
  /* every backend maps frames with gst_video_frame_map: any stride is fine */
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (self->priv->backend != GST_CUDA_VIDEO_BACKEND_CUDA)
    return TRUE;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return TRUE;
  if (gst_query_get_n_allocation_pools (query) == 0
      && (pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), gst_cuda_host_allocator_get ()))) {
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), 2, 0);
    gst_object_unref (pool);
  }
  gst_query_add_allocation_param (query, gst_cuda_host_allocator_get (), NULL);
  return TRUE;
}

/* Output buffers are recycled from a pool when downstream has none to
 * offer: pinned memory for the CUDA backend (the download lands in it by
 * DMA), system memory for the CPU (no fresh pages to fault in every frame). */
static gboolean
gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstBufferPool *pool;
  GstVideoInfo info;
  GstCaps *caps;

  if (gst_query_get_n_allocation_pools (query) == 0) {
    GstAllocator *allocator = self->priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
        gst_cuda_host_allocator_get () : NULL;
    gst_query_parse_allocation (query, &caps, NULL);
    if (caps && gst_video_info_from_caps (&info, caps)
        && (pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), allocator))) {
      GST_DEBUG_OBJECT (self, "output buffers from our own %s pool", allocator ? "pinned" : "system");
      gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), 2, 0);
      gst_object_unref (pool);
      return TRUE;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
}

GstCaps *
gst_cuda_video_filter_clip_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * result, GstCaps * filter)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *tmp = gst_caps_intersect_full (result, templ, GST_CAPS_INTERSECT_FIRST);

  gst_caps_unref (result);
  gst_caps_unref (templ);
  result = tmp;
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
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
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE) {
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

/* ---- CUDA frame helpers --------------------------------------------- */

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
  return self->priv->stream;
}

gboolean
gst_cuda_video_filter_device_alloc (GstCudaVideoFilter * self, gsize row_bytes, guint rows,
    GcvPlane * plane, gint width, GError ** error)
{
#if GCV_HAVE_CUDA
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
#else
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "built without CUDA");
  return FALSE;
#endif
}

#if GCV_HAVE_CUDA
/* Copies rows between a host plane and packed staging with a few threads:
 * one core's memcpy is slower than the PCIe link. */
static void
copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src, gsize src_stride, gsize row_bytes,
    gint rows)
{
  gint y;

  if (dst_stride == row_bytes && src_stride == row_bytes && rows * row_bytes < (1 << 19)) {
    memcpy (dst, src, row_bytes * rows);
    return;
  }
#pragma omp parallel for num_threads(4) schedule(static) if (rows * row_bytes >= (1 << 19))
  for (y = 0; y < rows; y++)
    memcpy (dst + y * dst_stride, src + y * src_stride, row_bytes);
}

/* Hands the downloads queued so far (complete on the device) to their host
 * planes. */
static void
deliver_downloads (GstCudaVideoFilterPrivate * priv)
{
  guint i;

  for (i = 0; i < priv->pending->len; i++) {
    PendingDownload *pd = &g_array_index (priv->pending, PendingDownload, i);
    copy_rows (pd->host, pd->host_stride, priv->down_staging + pd->staging_offset, pd->row_bytes,
        pd->row_bytes, pd->rows);
  }
  g_array_set_size (priv->pending, 0);
}

/* Makes room for @need more bytes of pinned staging in this frame.  When the
 * frame outgrows the buffer (only in the first frames of a caps), the stream
 * is drained first: the frame's earlier copies are then finished (and queued
 * downloads delivered), so the buffer can be replaced and refilled from 0. */
static gboolean
reserve_staging (GstCudaVideoFilter * self, guint8 ** buf, gsize * size, gsize * used, gsize need,
    gboolean downloads, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;
  void *p;

  if (*used + need <= *size)
    return TRUE;
  if (*used > 0) {
    if (gcv_cuda_stream_sync (priv->stream, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
    if (downloads)
      deliver_downloads (priv);
    *used = 0;
  }
  if (need <= *size)
    return TRUE;
  gcv_cuda_host_free (*buf);
  *buf = NULL;
  *size = 0;
  need = GST_ROUND_UP_N (need, 1 << 20);
  if (gcv_cuda_host_alloc (&p, need, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  GST_DEBUG_OBJECT (self, "pinned staging of %" G_GSIZE_FORMAT " bytes", need);
  *buf = p;
  *size = need;
  return TRUE;
}
#endif

gboolean
gst_cuda_video_filter_upload (GstCudaVideoFilter * self, const guint8 * host, gsize host_stride,
    const GcvPlane * dev, gsize row_bytes, GError ** error)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  gsize need = row_bytes * dev->height;
  gint chunks, k;
  GcvError err;
  guint8 *staging;

  if (gcv_cuda_host_is_pinned (host)) {
    /* pinned (our pool upstream, or the application's): straight DMA */
    if (gcv_cuda_upload_2d (dev->data, dev->stride, host, host_stride, row_bytes, dev->height,
            priv->stream, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
    return TRUE;
  }
  if (!reserve_staging (self, &priv->up_staging, &priv->up_size, &priv->up_used, need, FALSE, error))
    return FALSE;
  staging = priv->up_staging + priv->up_used;
  /* in chunks, so that the DMA of one chunk overlaps the copy of the next */
  chunks = need >= (1 << 20) ? 4 : 1;
  for (k = 0; k < chunks; k++) {
    gint y0 = (gint) ((gint64) dev->height * k / chunks), y1 = (gint) ((gint64) dev->height * (k + 1) / chunks);
    if (y1 <= y0)
      continue;
    copy_rows (staging + y0 * row_bytes, row_bytes, host + y0 * host_stride, host_stride, row_bytes,
        y1 - y0);
    if (gcv_cuda_upload_2d ((guint8 *) dev->data + y0 * dev->stride, dev->stride,
            staging + y0 * row_bytes, row_bytes, row_bytes, y1 - y0, priv->stream, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  priv->up_used += need;
  return TRUE;
#else
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "built without CUDA");
  return FALSE;
#endif
}

gboolean
gst_cuda_video_filter_download (GstCudaVideoFilter * self, const GcvPlane * dev, guint8 * host,
    gsize host_stride, gsize row_bytes, GError ** error)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  gsize need = row_bytes * dev->height;
  PendingDownload pd = { 0, host, host_stride, row_bytes, (guint) dev->height };
  GcvError err;

  if (gcv_cuda_host_is_pinned (host)) {
    if (gcv_cuda_download_2d (host, host_stride, dev->data, dev->stride, row_bytes, dev->height,
            priv->stream, &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
    return TRUE;
  }
  if (!reserve_staging (self, &priv->down_staging, &priv->down_size, &priv->down_used, need, TRUE,
          error))
    return FALSE;
  pd.staging_offset = priv->down_used;
  if (gcv_cuda_download_2d (priv->down_staging + pd.staging_offset, row_bytes, dev->data, dev->stride, row_bytes,
          dev->height, priv->stream, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  priv->down_used += need;
  g_array_append_val (priv->pending, pd);
  return TRUE;
#else
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "built without CUDA");
  return FALSE;
#endif
}

void
gst_cuda_video_filter_mark (GstCudaVideoFilter * self, GstCudaVideoPhase phase)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint ev = phase == GST_CUDA_VIDEO_PHASE_UPLOADED ? EV_UPLOADED : EV_COMPUTED;
  GcvError err;

  if (gcv_cuda_event_record (priv->events[ev], priv->stream, &err) == GCV_OK)
    priv->marked[ev] = TRUE;
  else
    GST_WARNING_OBJECT (self, "%s", err.message);
#endif
}

gboolean
gst_cuda_video_filter_finish (GstCudaVideoFilter * self, GError ** error)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;
  float ms;

  if (gcv_cuda_event_record (priv->events[EV_END], priv->stream, &err) != GCV_OK
      || gcv_cuda_event_sync (priv->events[EV_END], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  priv->marked[EV_END] = TRUE;
  deliver_downloads (priv);

  /* phase split: start -> uploaded -> computed -> end, unmarked phases
   * merge into the next one */
  {
    gint prev = EV_START, phases[3] = { EV_UPLOADED, EV_COMPUTED, EV_END }, k;
    for (k = 0; k < 3; k++) {
      priv->last_ms[k] = 0.0;
      if (!priv->marked[phases[k]])
        continue;
      if (gcv_cuda_event_elapsed (priv->events[prev], priv->events[phases[k]], &ms, &err) == GCV_OK)
        priv->last_ms[k] = ms;
      prev = phases[k];
    }
  }
  return TRUE;
#else
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "built without CUDA");
  return FALSE;
#endif
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

void
gst_cuda_video_filter_paint_mask (GstVideoFrame * frame, const GcvPlane * mask, guint32 argb)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint8 value[GST_VIDEO_MAX_COMPONENTS] = { 0, };
  guint8 alpha = (argb >> 24) & 0xff;
  guint c;

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
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++) {
    GcvComponent comp;
    if (GST_VIDEO_FORMAT_INFO_HAS_ALPHA (finfo) && c == GST_VIDEO_COMP_A)
      continue;
    comp.data = GST_VIDEO_FRAME_COMP_DATA (frame, c);
    comp.stride = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
    comp.pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
    comp.width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
    comp.height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
    comp.x_shift = finfo->w_sub[c];
    comp.y_shift = finfo->h_sub[c];
    comp.depth16 = finfo->depth[c] > 8;
    gcv_overlay_component (&comp, mask, value[c], alpha);
  }
}

/* ---- streaming ---------------------------------------------------------- */

/* Starts the CUDA side of a frame: the start event, empty staging and no
 * pending downloads.  Posts the error and returns FALSE on failure. */
static gboolean
begin_frame (GstCudaVideoFilter * self)
{
#if GCV_HAVE_CUDA
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err;

  if (priv->backend != GST_CUDA_VIDEO_BACKEND_CUDA)
    return TRUE;
  memset (priv->marked, 0, sizeof (priv->marked));
  priv->up_used = priv->down_used = 0;
  g_array_set_size (priv->pending, 0);
  if (gcv_cuda_set_device (priv->device, &err) != GCV_OK
      || gcv_cuda_event_record (priv->events[EV_START], priv->stream, &err) != GCV_OK) {
    GError *error = NULL;
    gst_cuda_video_filter_set_error (&error, &err);
    gst_cuda_video_filter_post_error (self, "Starting the CUDA frame", error);
    return FALSE;
  }
#endif
  return TRUE;
}

/* Adds a completed frame to the statistics; t0, t1: monotonic us around
 * the subclass's work. */
static void
account_frame (GstCudaVideoFilter * self, gint64 t0, gint64 t1)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  g_mutex_lock (&priv->stats_lock);
  priv->frames++;
  if (priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    priv->sum_ms[0] += priv->last_ms[0];
    priv->sum_ms[1] += priv->last_ms[1];
    priv->sum_ms[2] += priv->last_ms[2];
  } else {
    priv->sum_ms[1] += (t1 - t0) / 1000.0;
  }
  priv->sum_ms[3] += (t1 - t0) / 1000.0;
  g_mutex_unlock (&priv->stats_lock);
}

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
  if (!buffer_holds_frame (inbuf, &self->in_info)
      || !gst_video_frame_map (&in_frame, &self->in_info, inbuf, GST_MAP_READ))
    goto map_failed;
  if (!gst_video_frame_map (&out_frame, &self->out_info, outbuf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in_frame);
    goto map_failed;
  }

  t0 = g_get_monotonic_time ();
  if (!begin_frame (self)) {
    gst_video_frame_unmap (&in_frame);
    gst_video_frame_unmap (&out_frame);
    return GST_FLOW_ERROR;
  }
  ret = klass->process (self, &in_frame, &out_frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);

  if (ret == GST_FLOW_OK)
    account_frame (self, t0, t1);
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
  if (klass->writes_in_place && klass->writes_in_place (self))
    flags |= GST_MAP_WRITE;
  if (!buffer_holds_frame (buf, &self->in_info)
      || !gst_video_frame_map (&frame, &self->in_info, buf, flags)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not map the video frame"),
        ("buffer of %" G_GSIZE_FORMAT " bytes does not match the negotiated caps",
            gst_buffer_get_size (buf)));
    return GST_FLOW_ERROR;
  }
  t0 = g_get_monotonic_time ();
  if (!begin_frame (self)) {
    gst_video_frame_unmap (&frame);
    return GST_FLOW_ERROR;
  }
  ret = klass->process_in_place (self, &frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&frame);
  if (ret == GST_FLOW_OK || ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
    account_frame (self, t0, t1);
  return ret;
}

GstFlowReturn
gst_cuda_video_filter_push_output (GstCudaVideoFilter * self, GstCudaVideoFilterRenderFunc render,
    gpointer user_data)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (trans);
  GstBuffer *outbuf = NULL;
  GstVideoFrame out_frame;
  GstFlowReturn ret;
  gint64 t0, t1;

  if (pool) {
    if (!gst_buffer_pool_is_active (pool))
      gst_buffer_pool_set_active (pool, TRUE);
    ret = gst_buffer_pool_acquire_buffer (pool, &outbuf, NULL);
    gst_object_unref (pool);
    if (ret != GST_FLOW_OK)
      return ret;
  } else {
    GstAllocator *allocator = NULL;
    GstAllocationParams params;
    gst_base_transform_get_allocator (trans, &allocator, &params);
    outbuf = gst_buffer_new_allocate (allocator, GST_VIDEO_INFO_SIZE (&self->out_info), &params);
    if (allocator)
      gst_object_unref (allocator);
    if (!outbuf) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate an output buffer"),
          ("%" G_GSIZE_FORMAT " bytes", GST_VIDEO_INFO_SIZE (&self->out_info)));
      return GST_FLOW_ERROR;
    }
  }
  if (!gst_video_frame_map (&out_frame, &self->out_info, outbuf, GST_MAP_WRITE)) {
    gst_buffer_unref (outbuf);
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("Could not map the video frame"),
        ("output buffer of %" G_GSIZE_FORMAT " bytes", gst_buffer_get_size (outbuf)));
    return GST_FLOW_ERROR;
  }
  t0 = g_get_monotonic_time ();
  if (!begin_frame (self)) {
    gst_video_frame_unmap (&out_frame);
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  ret = render (self, &out_frame, user_data);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&out_frame);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (outbuf);
    return ret == GST_BASE_TRANSFORM_FLOW_DROPPED ? GST_FLOW_OK : ret;
  }
  account_frame (self, t0, t1);
  return gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (trans), outbuf);
}

static gboolean
gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      if (klass->reset)
        klass->reset (self);
      break;
    case GST_EVENT_CAPS:
      /* frames held back under the old caps go out under them, before the
       * new caps reach set_caps (which resets the history) */
      if (klass->drain && self->priv->configured) {
        GstCaps *caps, *current = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
        gst_event_parse_caps (event, &caps);
        if (current && !gst_caps_is_equal (current, caps)) {
          GstFlowReturn ret = klass->drain (self);
          if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
            GST_WARNING_OBJECT (self, "draining before new caps: %s", gst_flow_get_name (ret));
        }
        if (current)
          gst_caps_unref (current);
      }
      break;
    case GST_EVENT_EOS:
      if (klass->drain && self->priv->configured) {
        GstFlowReturn ret = klass->drain (self);
        if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
          GST_WARNING_OBJECT (self, "draining at EOS: %s", gst_flow_get_name (ret));
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY
      && klass->latency_frames) {
    GstClockTime min, max, ours = 0;
    gboolean live;
    guint frames = klass->latency_frames (self);

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
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

/* ---- cuda / cpu registration -------------------------------------------- */

typedef struct
{
  GstCudaVideoBackend backend;
  gchar *long_name, *classification, *description;
} PairClassData;

static void
pair_class_init (gpointer klass, gpointer class_data)
{
  PairClassData *d = class_data;

  GST_CUDA_VIDEO_FILTER_CLASS (klass)->backend = d->backend;
  gst_element_class_set_metadata (GST_ELEMENT_CLASS (klass), d->long_name, d->classification,
      d->description, "gst-cuda-video developers");
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
      d->classification = g_strdup (classification);
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
