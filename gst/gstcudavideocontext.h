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
/* GStreamer's CUDA world as the base class uses it, in one place: the
 * GstCudaContext shared with the other CUDA elements of a pipeline through
 * GstContext ("gst.cuda.context"), entering it around our CUDA runtime
 * calls, and memory:CUDAMemory buffers and pools.
 *
 * Built with gstreamer-cuda-1.0 (GCV_HAVE_GST_CUDA), the functions use it;
 * built without, gst_cuda_video_memory_available() is FALSE, contexts are
 * never found, and the elements run on CUDA's primary context with system
 * memory only.  The context is passed around as a GstObject so that no
 * other file needs the library's (unstable) headers. */
#ifndef __GST_CUDA_VIDEO_CONTEXT_H__
#define __GST_CUDA_VIDEO_CONTEXT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_CUDA_VIDEO_MEMORY_FEATURE "memory:CUDAMemory"

/* Whether this build can exchange memory:CUDAMemory: gstreamer-cuda-1.0
 * was found when it was built, and the GStreamer it runs with has the same
 * kind of CUDA memory (1.22, or 1.24 and later). */
gboolean gst_cuda_video_memory_available (void);
/* The same, with @error saying why not when the GStreamer found at run
 * time does not match the build (FALSE without @error: built without). */
gboolean gst_cuda_video_memory_check (GError ** error);

/* Finds the CUDA context of the pipeline (neighbours, then the
 * application) for @device_id (-1: any device), or makes one on that
 * device (-1: 0) and announces it (HAVE_CONTEXT).  *@context (a
 * GstCudaContext) is kept when it is already set (set_context came
 * first).  FALSE, with @error set, when there is no usable driver or
 * device or the context found is on another device than @device_id. */
gboolean gst_cuda_video_context_ensure (GstElement * element, gint device_id, GstObject ** context,
    GError ** error);
/* A new GstCudaContext of its own on @device (for work on another device
 * than the pipeline's context); NULL, with @error, when it fails. */
GstObject *gst_cuda_video_context_new (gint device, GError ** error);
/* For GstElement::set_context: takes a "gst.cuda.context" of @device_id
 * (-1: any) into *@context unless one is there. */
void gst_cuda_video_context_set (GstElement * element, GstContext * gst_context, gint device_id,
    GstObject ** context);
/* For the CONTEXT query on either pad: answers with @context; FALSE when
 * the query is for another type or @context is NULL. */
gboolean gst_cuda_video_context_query (GstElement * element, GstQuery * query, GstObject * context);
/* The device a context runs on. */
gint gst_cuda_video_context_device (GstObject * context);
/* Makes @context current on the calling thread (our CUDA runtime calls
 * then run in it) and makes the previous one current again. */
gboolean gst_cuda_video_context_push (GstObject * context);
void gst_cuda_video_context_pop (void);

/* Whether every memory of @buffer is CUDA memory of @context, so that a
 * map with gst_cuda_video_map_flags() gives device pointers our kernels
 * can use. */
gboolean gst_cuda_video_is_device_buffer (GstBuffer * buffer, GstObject * context);
/* The stream (a CUstream of its context) that @mem's work goes on, NULL
 * when it has none (1.22, or the default stream); *@pending: whether work
 * writing it may still be queued there (its producer did not wait). */
gpointer gst_cuda_video_memory_stream (GstMemory * mem, gboolean * pending);
/* For a CUDA memory we wrote and waited for: nothing of ours is pending
 * (its consumers need not synchronise its stream). */
void gst_cuda_video_memory_written (GstMemory * mem);

/* A GstCudaStream on @context (1.24 on), for the stream the element's
 * work goes on, so that pools can name it; *@handle gets its CUstream.
 * NULL (and *@handle NULL) before 1.24 or when it cannot be made. */
gpointer gst_cuda_video_stream_new (GstObject * context, gpointer * handle);
void gst_cuda_video_stream_free (gpointer stream);
/* The flags that map a buffer's CUDA memory on the device (GST_MAP_CUDA),
 * 0 without gstreamer-cuda. */
GstMapFlags gst_cuda_video_map_flags (void);

/* A pool of memory:CUDAMemory buffers of @caps on @context, for every
 * format: the formats GStreamer's CUDA allocator knows get its own layout
 * (from 1.24 on its own pool, GstCudaBufferPool); the others (GRAY8,
 * GRAY16_LE, xRGB, RGBA64_LE, ...) one pitched allocation with the planes
 * one under the other, described by a GstVideoMeta.  Its memories carry
 * @stream (a GstCudaStream of gst_cuda_video_stream_new(), or NULL), which
 * the pool's configuration names.  NULL when the caps are not video or the
 * configuration is refused. */
GstBufferPool *gst_cuda_video_pool_new (GstObject * context, gpointer stream, GstCaps * caps,
    guint min_buffers, guint max_buffers);
/* Names @stream in the configuration of @pool (a neighbour's CUDA pool, not
 * yet active) unless it names one already; FALSE if the pool refuses. */
gboolean gst_cuda_video_pool_offer_stream (GstBufferPool * pool, gpointer stream);
/* Whether @pool (offered by a neighbour) gives CUDA memory of @context
 * for frames of @info. */
gboolean gst_cuda_video_pool_is_usable (GstBufferPool * pool, GstObject * context);

/* @caps with memory:CUDAMemory set on every structure (a new caps). */
GstCaps *gst_cuda_video_caps_with_memory (GstCaps * caps);
/* Whether caps' first structure has the memory:CUDAMemory feature. */
gboolean gst_cuda_video_caps_are_device (GstCaps * caps);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_CONTEXT_H__ */
