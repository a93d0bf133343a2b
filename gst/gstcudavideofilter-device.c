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
/* The device side of the base class: the CUDA device, its context (shared
 * with GStreamer's CUDA elements when built with gstreamer-cuda-1.0), the
 * element's streams, and peers on other devices or streams. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include "gstcudavideocontext.h"
#include "gcv-cuda.h"

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

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
gboolean
gst_cuda_video_filter_enter_or_post (GstCudaVideoFilter * self)
{
  GError *error = NULL;

  if (gst_cuda_video_filter_enter (self, &error))
    return TRUE;
  gst_cuda_video_filter_post_error (self, "Entering the CUDA context", error);
  return FALSE;
}

gboolean
gst_cuda_video_filter_open_cuda (GstCudaVideoFilter * self, gint device_id, GcvError * err)
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
  {
    GError *error = NULL;
    /* the pipeline's context (a neighbour's or the application's), else a
     * new one, announced to the others */
    if (!gst_cuda_video_memory_check (&error)) {
      if (error)
        GST_ELEMENT_WARNING (self, RESOURCE, SETTINGS, ("No CUDA memory: %s", error->message), (NULL));
    } else if (gst_cuda_video_context_ensure (GST_ELEMENT (self), device_id, &priv->context, &error)) {
      priv->device = gst_cuda_video_context_device (priv->context);
    } else {
      GST_WARNING_OBJECT (self, "no GStreamer CUDA context (%s): CUDA's primary context, system "
          "memory only", error->message);
    }
    g_clear_error (&error);
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
  /* in a GstCudaContext of 1.24 on, the compute stream is GStreamer's, so
   * that the pools we offer can name it: neighbours that write our input
   * on it need no waiting (see gstcudavideocontext.c) */
  if (priv->context)
    priv->compute_stream = gst_cuda_video_stream_new (priv->context, &priv->streams[STREAM_COMPUTE]);
  for (i = 0; i < N_STREAMS; i++)
    if (priv->streams[i] == NULL && gcv_cuda_stream_new (&priv->streams[i], err) != GCV_OK)
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
    if (i != STREAM_COMPUTE || priv->compute_stream == NULL)
      gcv_cuda_stream_free (priv->streams[i]);
    priv->streams[i] = NULL;
  }
  gst_cuda_video_stream_free (priv->compute_stream);
  priv->compute_stream = NULL;
  gcv_cuda_event_free (priv->fork);
  priv->fork = NULL;
}

void
gst_cuda_video_filter_close_cuda (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (priv->streams[0] && gst_cuda_video_filter_enter (self, NULL)) {
    free_streams (self);
    gst_cuda_video_filter_leave (self);
  }
  gst_clear_object (&priv->context);
}

void
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
  GST_ELEMENT_CLASS (GST_CUDA_VIDEO_FILTER_PARENT_CLASS)->set_context (element, context);
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
