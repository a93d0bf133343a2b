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
/* The only file that includes gstreamer-cuda-1.0's headers (see
 * gstcudavideocontext.h).  Its API is marked unstable and changed after
 * 1.22: the differences are behind GST_CHECK_VERSION (of the GStreamer
 * built against), and, since the library's soname stayed the same, the
 * release found at run time is checked too (run_time_matches()).
 *
 * Streams, 1.24 on: a GstCudaMemory may carry the GstCudaStream of the
 * element that made it, and GST_CUDA_MEMORY_TRANSFER_NEED_SYNC says that
 * work writing it may still be queued there: the producer pushes without
 * waiting, and a consumer on another stream must order its work after it.
 * A pool's configuration may name a stream (gst_buffer_pool_config_set_
 * cuda_stream): the memories get it, and GStreamer's elements then work
 * on it.  1.26 adds stream-ordered allocation (cuMemAllocAsync on the
 * memory's stream), which only that stream's order makes valid.  1.22's
 * memories have no stream: every element waits before it pushes. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideocontext.h"

#include <string.h>

#if GCV_HAVE_GST_CUDA
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>
#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif
#endif


GstCaps *
gst_cuda_video_caps_with_memory (GstCaps * caps)
{
  GstCaps *out = gst_caps_copy (caps);

  gst_caps_set_features_simple (out, gst_caps_features_new (GST_CUDA_VIDEO_MEMORY_FEATURE, NULL));
  return out;
}

gboolean
gst_cuda_video_caps_are_device (GstCaps * caps)
{
  GstCapsFeatures *f;

  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  f = gst_caps_get_features (caps, 0);
  return f != NULL && gst_caps_features_contains (f, GST_CUDA_VIDEO_MEMORY_FEATURE);
}

#if GCV_HAVE_GST_CUDA
GST_DEBUG_CATEGORY_STATIC (gst_cuda_video_context_debug);
#define GST_CAT_DEFAULT gst_cuda_video_context_debug

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (gst_cuda_video_context_debug, "cudavideocontext", 0,
        "gst-cuda-video: GStreamer CUDA context and memory");
    g_once_init_leave (&done, 1);
  }
}

#define BUILT_WITH_STREAMS GST_CHECK_VERSION (1, 24, 0)

/* Whether the GStreamer found at run time has the CUDA library of the one
 * this was built against, as far as we use it: 1.22's and 1.24's differ
 * (gst_cuda_allocator_alloc's arguments; streams on memory, which a build
 * for 1.22 would not wait for).  GStreamer's core and gst-plugins-bad come
 * as one release. */
static gboolean
run_time_matches (guint * minor)
{
  guint major, micro, nano;

  gst_version (&major, minor, &micro, &nano);
  return (major == 1 && *minor >= 24) == BUILT_WITH_STREAMS;
}

gboolean
gst_cuda_video_memory_available (void)
{
  guint minor;

  return run_time_matches (&minor);
}

gboolean
gst_cuda_video_memory_check (GError ** error)
{
  guint minor;

  if (run_time_matches (&minor))
    return TRUE;
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NOT_IMPLEMENTED,
      "this plugin was built against GStreamer %d.%d's CUDA library but runs with GStreamer 1.%u, whose "
      "CUDA memory works differently: memory:CUDAMemory is off, frames go through system memory "
      "(rebuild the plugin against the GStreamer it runs with)", GST_VERSION_MAJOR, GST_VERSION_MINOR, minor);
  return FALSE;
}

/* The process's own context of @device, made at its first use and kept
 * (one CUcontext per device, as CUDA's primary contexts): an element that
 * finds no context in its pipeline takes it, so that many pipelines of one
 * application, or many elements tested one by one, do not each create
 * (and pay for) a context. */
static GstCudaContext *
process_context (gint device)
{
  static GMutex lock;
  static GstCudaContext *contexts[64];
  GstCudaContext *ctx;

  if (device < 0 || device >= (gint) G_N_ELEMENTS (contexts))
    return NULL;
  g_mutex_lock (&lock);
  if (contexts[device] == NULL && (contexts[device] = gst_cuda_context_new ((guint) device)) != NULL)
    GST_OBJECT_FLAG_SET (contexts[device], GST_OBJECT_FLAG_MAY_BE_LEAKED);
  ctx = contexts[device] ? gst_object_ref (contexts[device]) : NULL;
  g_mutex_unlock (&lock);
  return ctx;
}

/* Asks the neighbours on @direction's pads for a context: the one that
 * answers gets set on @element (its set_context takes it). */
static void
query_neighbours (GstElement * element, GstPadDirection direction)
{
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstIterator *it = direction == GST_PAD_SRC ? gst_element_iterate_src_pads (element)
      : gst_element_iterate_sink_pads (element);
  GValue item = G_VALUE_INIT;
  gboolean done = FALSE;

  while (!done) {
    switch (gst_iterator_next (it, &item)) {
      case GST_ITERATOR_OK:{
        GstContext *found = NULL;
        if (gst_pad_peer_query (g_value_get_object (&item), query)) {
          gst_query_parse_context (query, &found);
          if (found) {
            gst_element_set_context (element, found);
            done = TRUE;
          }
        }
        g_value_reset (&item);
        break;
      }
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&item);
  gst_iterator_free (it);
  gst_query_unref (query);
}

gboolean
gst_cuda_video_context_ensure (GstElement * element, gint device_id, GstObject ** context,
    GError ** error)
{
  gint device;

  init_debug ();
  if (!gst_cuda_load_library ()) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "GStreamer's CUDA library could not load the NVIDIA driver library (libcuda.so.1)");
    return FALSE;
  }
  gst_cuda_memory_init_once ();
  /* the pipeline's, as gst_cuda_ensure_element_context() finds it: the
   * neighbours downstream, then upstream, then the bins and the
   * application (NEED_CONTEXT); each answer reaches *context through the
   * element's set_context */
  if (*context == NULL)
    query_neighbours (element, GST_PAD_SRC);
  if (*context == NULL)
    query_neighbours (element, GST_PAD_SINK);
  if (*context == NULL)
    gst_element_post_message (element, gst_message_new_need_context (GST_OBJECT (element),
            GST_CUDA_CONTEXT_TYPE));
  if (*context == NULL) {
    /* none yet: the process's, announced to the others */
    GstCudaContext *ctx = process_context (device_id < 0 ? 0 : device_id);
    GstContext *gst_context;

    if (ctx == NULL) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "could not open a CUDA context on device %d", device_id < 0 ? 0 : device_id);
      return FALSE;
    }
    *context = GST_OBJECT (ctx);
    gst_context = gst_context_new_cuda_context (ctx);
    gst_element_set_context (element, gst_context);
    gst_element_post_message (element, gst_message_new_have_context (GST_OBJECT (element), gst_context));
  }
  device = gst_cuda_video_context_device (*context);
  if (device_id >= 0 && device != device_id) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "the pipeline's CUDA context is on device %d, cuda-device-id is %d", device, device_id);
    gst_clear_object (context);
    return FALSE;
  }
  GST_INFO_OBJECT (element, "CUDA context %" GST_PTR_FORMAT " on device %d", *context, device);
  return TRUE;
}

GstObject *
gst_cuda_video_context_new (gint device, GError ** error)
{
  GstCudaContext *ctx;

  init_debug ();
  ctx = gst_cuda_context_new ((guint) device);
  if (ctx == NULL)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "could not open a CUDA context on device %d", device);
  return GST_OBJECT (ctx);
}

void
gst_cuda_video_context_set (GstElement * element, GstContext * gst_context, gint device_id,
    GstObject ** context)
{
  GstCudaContext *ctx = (GstCudaContext *) * context;

  init_debug ();
  if (gst_cuda_handle_set_context (element, gst_context, device_id, &ctx))
    *context = GST_OBJECT (ctx);
}

gboolean
gst_cuda_video_context_query (GstElement * element, GstQuery * query, GstObject * context)
{
  if (context == NULL || GST_QUERY_TYPE (query) != GST_QUERY_CONTEXT)
    return FALSE;
  return gst_cuda_handle_context_query (element, query, GST_CUDA_CONTEXT (context));
}

gint
gst_cuda_video_context_device (GstObject * context)
{
  guint device = 0;

  g_object_get (context, "cuda-device-id", &device, NULL);
  return (gint) device;
}

gboolean
gst_cuda_video_context_push (GstObject * context)
{
  return gst_cuda_context_push (GST_CUDA_CONTEXT (context));
}

void
gst_cuda_video_context_pop (void)
{
  gst_cuda_context_pop (NULL);
}

gboolean
gst_cuda_video_is_device_buffer (GstBuffer * buffer, GstObject * context)
{
  guint i, n = gst_buffer_n_memory (buffer);

  if (context == NULL || n == 0)
    return FALSE;
  for (i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (!gst_is_cuda_memory (mem) || GST_CUDA_MEMORY_CAST (mem)->context != GST_CUDA_CONTEXT (context))
      return FALSE;
  }
  return TRUE;
}

gpointer
gst_cuda_video_memory_stream (GstMemory * mem, gboolean * pending)
{
  *pending = FALSE;
#if BUILT_WITH_STREAMS
  if (gst_is_cuda_memory (mem)) {
    GstCudaStream *stream = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (mem));
    if (stream != NULL) {
      *pending = GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
      return gst_cuda_stream_get_handle (stream);
    }
  }
#endif
  return NULL;
}

void
gst_cuda_video_memory_written (GstMemory * mem)
{
#if BUILT_WITH_STREAMS
  /* a GST_MAP_CUDA write map set it, for a memory with a stream */
  if (gst_is_cuda_memory (mem))
    GST_MEMORY_FLAG_UNSET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);
#endif
}

gpointer
gst_cuda_video_stream_new (GstObject * context, gpointer * handle)
{
#if BUILT_WITH_STREAMS
  GstCudaStream *stream = gst_cuda_stream_new (GST_CUDA_CONTEXT (context));

  if (stream != NULL) {
    *handle = gst_cuda_stream_get_handle (stream);
    return stream;
  }
#endif
  *handle = NULL;
  return NULL;
}

void
gst_cuda_video_stream_free (gpointer stream)
{
#if BUILT_WITH_STREAMS
  if (stream != NULL)
    gst_cuda_stream_unref ((GstCudaStream *) stream);
#endif
}

GstMapFlags
gst_cuda_video_map_flags (void)
{
  return GST_MAP_CUDA;
}

/* ---- the pool --------------------------------------------------------- */

/* The formats 1.22's gst_cuda_allocator_alloc() lays out itself (it
 * aborts on any other); later releases know more, but these keep the same
 * layout everywhere. */
static gboolean
allocator_knows (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_I422_10LE:
    case GST_VIDEO_FORMAT_I422_12LE:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_P016_LE:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_Y444_16LE:
    case GST_VIDEO_FORMAT_RGBP:
    case GST_VIDEO_FORMAT_BGRP:
    case GST_VIDEO_FORMAT_GBR:
    case GST_VIDEO_FORMAT_GBRA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_BGR10A2_LE:
    case GST_VIDEO_FORMAT_RGB10A2_LE:
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
      return TRUE;
    default:
      return FALSE;
  }
}

#define GST_TYPE_CUDA_VIDEO_DEVICE_POOL (gst_cuda_video_device_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaVideoDevicePool, gst_cuda_video_device_pool, GST, CUDA_VIDEO_DEVICE_POOL,
    GstBufferPool);

struct _GstCudaVideoDevicePool
{
  GstBufferPool parent;

  GstCudaContext *context;
  gpointer stream;              /* the configuration's GstCudaStream (1.24 on), or NULL */
  GstCudaAllocator *allocator;  /* GStreamer's (1.22 takes no NULL) */
  GstVideoInfo info;            /* the caps' frame */
  GstVideoInfo alloc_info;      /* what the allocator is asked for */
  gboolean stand_in;            /* alloc_info is a packed stand-in (see set_config) */
  guint plane_rows[GST_VIDEO_MAX_PLANES];
};

G_DEFINE_TYPE (GstCudaVideoDevicePool, gst_cuda_video_device_pool, GST_TYPE_BUFFER_POOL);

/* One frame's CUDA memory of the pool's context and layout. */
static GstMemory *
alloc_memory (GstCudaVideoDevicePool * self)
{
#if BUILT_WITH_STREAMS
  return gst_cuda_allocator_alloc (self->allocator, self->context, self->stream, &self->alloc_info);
#else
  return gst_cuda_allocator_alloc (self->allocator, self->context, &self->alloc_info);
#endif
}

static const gchar **
device_pool_get_options (GstBufferPool * pool)
{
  static const gchar *options[] = { GST_BUFFER_POOL_OPTION_VIDEO_META, NULL };
  return options;
}

/* A format the allocator does not know is allocated as one packed RGBA
 * picture wide enough for the widest plane's row and as high as all the
 * planes' rows together: one cuMemAllocPitch, the planes one under the
 * other at the pitch it returns. */
static gboolean
device_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstCudaVideoDevicePool *self = GST_CUDA_VIDEO_DEVICE_POOL (pool);
  GstCaps *caps = NULL;
  guint size, min, max, p, rows = 0;
  gsize row_bytes = 0;

  if (!gst_buffer_pool_config_get_params (config, &caps, &size, &min, &max) || caps == NULL
      || !gst_video_info_from_caps (&self->info, caps)) {
    GST_WARNING_OBJECT (pool, "no video caps in the configuration");
    return FALSE;
  }
#if BUILT_WITH_STREAMS
  /* our memories carry the stream that writes them, as GStreamer's pool's
   * do; they are allocated plainly (cuMemAllocPitch), valid for any stream */
  gst_clear_cuda_stream ((GstCudaStream **) & self->stream);
  self->stream = gst_buffer_pool_config_get_cuda_stream (config);
#endif
  self->stand_in = !allocator_knows (GST_VIDEO_INFO_FORMAT (&self->info));
  self->alloc_info = self->info;
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&self->info); p++) {
    gint c, comp = 0;
    for (c = GST_VIDEO_INFO_N_COMPONENTS (&self->info) - 1; c >= 0; c--)
      if ((guint) GST_VIDEO_INFO_COMP_PLANE (&self->info, c) == p)
        comp = c;
    self->plane_rows[p] = GST_VIDEO_INFO_COMP_HEIGHT (&self->info, comp);
    rows += self->plane_rows[p];
    row_bytes = MAX (row_bytes, (gsize) GST_VIDEO_INFO_COMP_WIDTH (&self->info, comp)
        * GST_VIDEO_INFO_COMP_PSTRIDE (&self->info, comp));
  }
  if (self->stand_in
      && !gst_video_info_set_format (&self->alloc_info, GST_VIDEO_FORMAT_RGBA,
          (guint) ((row_bytes + 3) / 4), rows))
    return FALSE;
  /* the pool resets every buffer to its configured size when it comes
   * back: that must be the whole pitched allocation, which only an
   * allocation tells */
  {
    GstMemory *probe = alloc_memory (self);
    if (probe == NULL) {
      GST_WARNING_OBJECT (pool, "CUDA memory for a %s %dx%d frame could not be allocated",
          GST_VIDEO_INFO_NAME (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
          GST_VIDEO_INFO_HEIGHT (&self->info));
      return FALSE;
    }
    size = (guint) probe->size;
    gst_memory_unref (probe);
  }
  GST_DEBUG_OBJECT (pool, "%s %dx%d%s", GST_VIDEO_INFO_NAME (&self->info),
      GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info),
      self->stand_in ? " as one pitched allocation" : "");
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  return GST_BUFFER_POOL_CLASS (gst_cuda_video_device_pool_parent_class)->set_config (pool, config);
}

static GstFlowReturn
device_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer, GstBufferPoolAcquireParams * params)
{
  GstCudaVideoDevicePool *self = GST_CUDA_VIDEO_DEVICE_POOL (pool);
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0, };
  gint stride[GST_VIDEO_MAX_PLANES] = { 0, };
  GstCudaMemory *cmem;
  GstMemory *mem;
  GstBuffer *buf;
  guint p;

  mem = alloc_memory (self);
  if (mem == NULL) {
    GST_WARNING_OBJECT (pool, "CUDA memory for a %s %dx%d frame could not be allocated",
        GST_VIDEO_INFO_NAME (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
        GST_VIDEO_INFO_HEIGHT (&self->info));
    return GST_FLOW_ERROR;
  }
  cmem = GST_CUDA_MEMORY_CAST (mem);
  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (&self->info); p++) {
    if (self->stand_in) {
      stride[p] = cmem->info.stride[0];
      offset[p] = p == 0 ? 0 : offset[p - 1] + (gsize) stride[p - 1] * self->plane_rows[p - 1];
    } else {
      stride[p] = cmem->info.stride[p];
      offset[p] = cmem->info.offset[p];
    }
  }
  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (&self->info),
      GST_VIDEO_INFO_WIDTH (&self->info), GST_VIDEO_INFO_HEIGHT (&self->info),
      GST_VIDEO_INFO_N_PLANES (&self->info), offset, stride);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
device_pool_finalize (GObject * object)
{
  GstCudaVideoDevicePool *self = GST_CUDA_VIDEO_DEVICE_POOL (object);

  gst_clear_object (&self->context);
  gst_clear_object (&self->allocator);
  gst_cuda_video_stream_free (self->stream);
  G_OBJECT_CLASS (gst_cuda_video_device_pool_parent_class)->finalize (object);
}

static void
gst_cuda_video_device_pool_class_init (GstCudaVideoDevicePoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = device_pool_finalize;
  pool_class->get_options = device_pool_get_options;
  pool_class->set_config = device_pool_set_config;
  pool_class->alloc_buffer = device_pool_alloc_buffer;
}

static void
gst_cuda_video_device_pool_init (GstCudaVideoDevicePool * self)
{
}

/* Puts @stream (a GstCudaStream) into @config unless it names one. */
static void
config_offer_stream (GstStructure * config, gpointer stream)
{
#if BUILT_WITH_STREAMS
  GstCudaStream *named = gst_buffer_pool_config_get_cuda_stream (config);

  if (named == NULL && stream != NULL)
    gst_buffer_pool_config_set_cuda_stream (config, (GstCudaStream *) stream);
  gst_clear_cuda_stream (&named);
#endif
}

GstBufferPool *
gst_cuda_video_pool_new (GstObject * context, gpointer stream, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;

  init_debug ();
  if (context == NULL || !gst_video_info_from_caps (&info, caps))
    return NULL;
  gst_cuda_memory_init_once ();
#if BUILT_WITH_STREAMS
  /* GStreamer's elements take the stream of a pool only from GStreamer's
   * own pool (nvh264dec, cudaconvertscale, cudaupload then work on ours),
   * and that pool follows the pipeline's choice of stream-ordered
   * allocation (1.26 on) */
  if (allocator_knows (GST_VIDEO_INFO_FORMAT (&info)))
    pool = gst_cuda_buffer_pool_new (GST_CUDA_CONTEXT (context));
  else
#endif
  {
    GstCudaVideoDevicePool *own = g_object_new (GST_TYPE_CUDA_VIDEO_DEVICE_POOL, NULL);

    gst_object_ref_sink (own);
    own->context = GST_CUDA_CONTEXT (gst_object_ref (context));
    own->allocator = (GstCudaAllocator *) gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
    if (own->allocator == NULL) {
      GST_WARNING ("GStreamer's CUDA allocator is not registered");
      gst_object_unref (own);
      return NULL;
    }
    pool = GST_BUFFER_POOL (own);
  }
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min_buffers, max_buffers);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  config_offer_stream (config, stream);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

gboolean
gst_cuda_video_pool_offer_stream (GstBufferPool * pool, gpointer stream)
{
#if BUILT_WITH_STREAMS
  GstStructure *config;

  if (stream == NULL || gst_buffer_pool_is_active (pool))
    return TRUE;
  config = gst_buffer_pool_get_config (pool);
  config_offer_stream (config, stream);
  return gst_buffer_pool_set_config (pool, config);
#else
  return TRUE;
#endif
}

gboolean
gst_cuda_video_pool_is_usable (GstBufferPool * pool, GstObject * context)
{
  if (pool == NULL || context == NULL)
    return FALSE;
  if (GST_IS_CUDA_VIDEO_DEVICE_POOL (pool))
    return GST_OBJECT (GST_CUDA_VIDEO_DEVICE_POOL (pool)->context) == context;
  /* GStreamer's own CUDA pool: only offered for formats its allocator knows */
  return GST_IS_CUDA_BUFFER_POOL (pool) && GST_OBJECT (GST_CUDA_BUFFER_POOL (pool)->context) == context;
}

#else /* !GCV_HAVE_GST_CUDA */

gboolean
gst_cuda_video_memory_available (void)
{
  return FALSE;
}

gboolean
gst_cuda_video_memory_check (GError ** error)
{
  return FALSE;
}

gboolean
gst_cuda_video_context_ensure (GstElement * element, gint device_id, GstObject ** context,
    GError ** error)
{
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "built without gstreamer-cuda-1.0: no GStreamer CUDA context");
  return FALSE;
}

GstObject *
gst_cuda_video_context_new (gint device, GError ** error)
{
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
      "built without gstreamer-cuda-1.0: no GStreamer CUDA context");
  return NULL;
}

void
gst_cuda_video_context_set (GstElement * element, GstContext * gst_context, gint device_id,
    GstObject ** context)
{
}

gboolean
gst_cuda_video_context_query (GstElement * element, GstQuery * query, GstObject * context)
{
  return FALSE;
}

gint
gst_cuda_video_context_device (GstObject * context)
{
  return -1;
}

gboolean
gst_cuda_video_context_push (GstObject * context)
{
  return FALSE;
}

void
gst_cuda_video_context_pop (void)
{
}

gboolean
gst_cuda_video_is_device_buffer (GstBuffer * buffer, GstObject * context)
{
  return FALSE;
}

GstMapFlags
gst_cuda_video_map_flags (void)
{
  return 0;
}

GstBufferPool *
gst_cuda_video_pool_new (GstObject * context, gpointer stream, GstCaps * caps, guint min_buffers,
    guint max_buffers)
{
  return NULL;
}

gboolean
gst_cuda_video_pool_offer_stream (GstBufferPool * pool, gpointer stream)
{
  return TRUE;
}

gpointer
gst_cuda_video_memory_stream (GstMemory * mem, gboolean * pending)
{
  *pending = FALSE;
  return NULL;
}

void
gst_cuda_video_memory_written (GstMemory * mem)
{
}

gpointer
gst_cuda_video_stream_new (GstObject * context, gpointer * handle)
{
  *handle = NULL;
  return NULL;
}

void
gst_cuda_video_stream_free (gpointer stream)
{
}

gboolean
gst_cuda_video_pool_is_usable (GstBufferPool * pool, GstObject * context)
{
  return FALSE;
}

#endif /* GCV_HAVE_GST_CUDA */
