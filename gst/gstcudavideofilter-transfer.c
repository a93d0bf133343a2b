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
/* Transfers: frames between host and device memory (page-locked staging,
 * chunked uploads, staged downloads), and CUDA memory used in place. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include "gstcudavideocontext.h"
#include "gcv-cuda.h"

#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

/* The device frames' planes: width and height in samples of the plane,
 * the bytes of a row. */
void
gst_cuda_video_filter_plane_geometry (const GstVideoInfo * info, guint plane, gint * width, gint * height,
    gsize * row_bytes)
{
  gint comp = gst_cuda_video_filter_plane_component (info, plane);

  *width = GST_VIDEO_INFO_COMP_WIDTH (info, comp);
  *height = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
  *row_bytes = (gsize) * width * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
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
    gst_cuda_video_filter_plane_geometry (src->info, p, &w, &h, &row);
    if (gcv_cuda_copy_2d (dst->planes[p].data, dst->planes[p].stride, src->planes[p].data,
            src->planes[p].stride, row, h, self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

/* ---- transfers ------------------------------------------------------------- */

/* Copies rows between a host plane and packed staging, with a few threads
 * when @parallel (decided for the whole plane: the chunks of an upload are
 * each below the size that pays, and were copied by one thread). */
void
gst_cuda_video_filter_copy_rows (guint8 * dst, gsize dst_stride, const guint8 * src, gsize src_stride,
    gsize row_bytes, gint rows, gboolean parallel)
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
gboolean
gst_cuda_video_filter_record_event (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s, GError ** error)
{
  GcvError err;

  if (gcv_cuda_event_record (slot->events[ev], self->priv->streams[s], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* Stream @s waits on the device for event @ev of @slot. */
gboolean
gst_cuda_video_filter_await_event (GstCudaVideoFilter * self, Slot * slot, gint ev, gint s, GError ** error)
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
  gst_cuda_video_filter_plane_geometry (info, p, &w, &h, &row);
  return gst_cuda_video_filter_device_alloc (self, row, h, plane, w, error);
}

/* Chunk k of n of a plane of h rows: host rows into packed staging. */
static void
copy_chunk (guint8 * staging, const guint8 * host, gsize host_stride, gsize row, gint h, gint k, gint n)
{
  gint y0 = (gint) ((gint64) h * k / n), y1 = (gint) ((gint64) h * (k + 1) / n);

  gst_cuda_video_filter_copy_rows (staging + (gsize) y0 * row, row, host + (gsize) y0 * host_stride, host_stride,
      row, y1 - y0, FALSE);
}

/* Copies plane rows 0 .. h - 1 from pageable host memory into packed
 * staging and queues their DMA to the device plane @d on @stream, in
 * chunks so that the DMA of one chunk overlaps the copy of the next.
 * Planes of PARALLEL_COPY_BYTES and more: four chunks, one per thread of
 * ONE parallel region, the calling thread (the only one with the CUDA
 * context) queueing each chunk's DMA as soon as its copy is done; not a
 * region per chunk, which would wake the copy threads and wait for all of
 * them four times a frame (at thousands of frames a second). */
static gboolean
stage_plane (guint8 * staging, const guint8 * host, gsize host_stride, gsize row, gint h, const GcvPlane * d,
    gpointer stream, GError ** error)
{
  gboolean parallel = row * h >= PARALLEL_COPY_BYTES;
  gint chunks = parallel ? 4 : 1, failed = 0;
  gint done[4] = { 0, 0, 0, 0 };
  GcvError err = { GCV_OK, "" };

#pragma omp parallel num_threads(4) if (parallel)
  {
#ifdef _OPENMP
    gint t = omp_get_thread_num (), nt = omp_get_num_threads ();
#else
    gint t = 0, nt = 1;
#endif
    gint k;

    /* thread t copies the chunks t, t + nt, ...; thread 0 queues every
     * chunk's DMA in order, right after copying its own chunks and after
     * waiting for the others' */
    for (k = t; k < chunks && t != 0; k += nt) {
      copy_chunk (staging, host, host_stride, row, h, k, chunks);
      g_atomic_int_set (&done[k], 1);
    }
    for (k = 0; k < chunks && t == 0 && !failed; k++) {
      gint y0 = (gint) ((gint64) h * k / chunks), y1 = (gint) ((gint64) h * (k + 1) / chunks), spins = 0;
      if (k % nt == 0)
        copy_chunk (staging, host, host_stride, row, h, k, chunks);
      else
        while (!g_atomic_int_get (&done[k]))
          if (++spins % 1024 == 0)
            g_thread_yield ();
      if (y1 > y0 && gcv_cuda_upload_2d ((guint8 *) d->data + (gsize) y0 * d->stride, d->stride,
              staging + (gsize) y0 * row, row, row, y1 - y0, stream, &err) != GCV_OK)
        failed = 1;
    }
  }
  if (failed)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* The staging that the planes of @frame in @planes (a bit per plane)
 * need: the bytes of those not in page-locked memory. */
static gsize
staging_need (const GstVideoFrame * frame, guint planes)
{
  gsize need = 0;
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    gint w, h;
    gsize row;
    if (!(planes & (1u << p)))
      continue;
    gst_cuda_video_filter_plane_geometry (&frame->info, p, &w, &h, &row);
    if (!gcv_cuda_host_is_pinned (GST_VIDEO_FRAME_PLANE_DATA (frame, p)))
      need += row * h;
  }
  return need;
}

/* Queues the upload of the planes the subclass wants from the mapped host
 * frame into the slot's device planes, on the upload stream: straight by
 * DMA from page-locked memory, else through the slot's staging
 * (stage_plane). */
static gboolean
upload_frame (GstCudaVideoFilter * self, Job * job, GstVideoFrame * frame, GstCudaVideoDeviceFrame * dev,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  Slot *slot = job->slot;
  gpointer stream = priv->streams[STREAM_UPLOAD];
  gsize need, used = 0;
  GcvError err;
  guint p;

  need = staging_need (frame, priv->in_planes);
  if (need > 0 && !reserve_staging (self, &slot->up_staging, &slot->up_size, need, error))
    return FALSE;
  if (!gst_cuda_video_filter_record_event (self, slot, EV_UP_START, STREAM_UPLOAD, error))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    if ((priv->in_planes & (1u << p)) && !ensure_slot_plane (self, &frame->info, p, &slot->dev_in[p], error))
      return FALSE;
  }
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    const guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gsize host_stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), row;
    GcvPlane *d = &slot->dev_in[p];
    gint w, h;

    if (!(priv->in_planes & (1u << p)))
      continue;
    gst_cuda_video_filter_plane_geometry (&frame->info, p, &w, &h, &row);
    dev->planes[p] = *d;
    if (gcv_cuda_host_is_pinned (host)) {
      if (gcv_cuda_upload_2d (d->data, d->stride, host, host_stride, row, h, stream, &err) != GCV_OK)
        return gst_cuda_video_filter_set_error (error, &err);
      continue;
    }
    if (!stage_plane (slot->up_staging + used, host, host_stride, row, h, d, stream, error))
      return FALSE;
    used += row * h;
  }
  job->uploaded = TRUE;
  return gst_cuda_video_filter_record_event (self, slot, EV_UP_END, STREAM_UPLOAD, error)
      && gst_cuda_video_filter_await_event (self, slot, EV_UP_END, STREAM_COMPUTE, error);
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
  gsize need, used = 0;
  GcvError err;
  guint p;

  need = staging_need (frame, priv->out_planes);
  if (need > 0 && !reserve_staging (self, &slot->down_staging, &slot->down_size, need, error))
    return FALSE;
  if (!gst_cuda_video_filter_await_event (self, slot, EV_COMPUTE_END, STREAM_DOWNLOAD, error)
      || !gst_cuda_video_filter_record_event (self, slot, EV_DOWN_START, STREAM_DOWNLOAD, error))
    return FALSE;
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    guint8 *host = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gsize host_stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), row;
    const GcvPlane *d = &slot->dev_out[p];
    gint w, h;

    if (!(priv->out_planes & (1u << p)))
      continue;
    gst_cuda_video_filter_plane_geometry (&frame->info, p, &w, &h, &row);
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
  return gst_cuda_video_filter_record_event (self, slot, EV_DOWN_END, STREAM_DOWNLOAD, error);
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

/* Orders the compute stream after a neighbour's work on @buf's CUDA
 * memory (1.24 on: its producer may push before that work ran; another
 * element may still read what we are about to overwrite).  Nothing to do
 * for memory on our own stream or without one.  Otherwise an event
 * recorded on the memory's stream is waited for on the device, never on
 * the host: for a frame we read only when its producer says writes are
 * pending, for one we write always (readers leave no such mark). */
static gboolean
follow_neighbour (GstCudaVideoFilter * self, Slot * slot, GstBuffer * buf, gboolean writing, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  guint i;

  for (i = 0; i < gst_buffer_n_memory (buf); i++) {
    gboolean pending;
    gpointer stream = gst_cuda_video_memory_stream (gst_buffer_peek_memory (buf, i), &pending);
    GcvError err;

    if (stream == NULL || stream == priv->streams[STREAM_COMPUTE] || !(pending || writing))
      continue;
    GST_LOG_OBJECT (self, "compute stream waits for %s stream %p", writing ? "the output's" : "the input's",
        stream);
    /* a wait takes the event as recorded at the call: one event serves
     * every memory */
    if (gcv_cuda_event_record (slot->events[EV_NEIGHBOUR], stream, &err) != GCV_OK
        || gcv_cuda_stream_wait_event (priv->streams[STREAM_COMPUTE], slot->events[EV_NEIGHBOUR], &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

/* The input of a frame on the device: memory:CUDAMemory of our context as
 * it is, once its producer's work is done; anything else uploaded into the
 * slot (a CUDA buffer of another context is read through its host
 * mapping, which waits for its producer). */
gboolean
gst_cuda_video_filter_input_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * inbuf,
    GstCudaVideoDeviceFrame * dev, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstMapFlags no_ref = (GstMapFlags) GST_VIDEO_FRAME_MAP_FLAG_NO_REF;

  dev->info = &self->in_info;
  dev->buffer = inbuf;
  if (priv->in_device && gst_cuda_video_is_device_buffer (inbuf, priv->context)) {
    if (gst_video_frame_map (&job->in_map, &self->in_info, inbuf,
            GST_MAP_READ | gst_cuda_video_map_flags () | no_ref)) {
      job->in_mapped = TRUE;
      gst_cuda_video_filter_frame_planes (&job->in_map, GST_VIDEO_INFO_N_PLANES (&self->in_info),
          dev->planes);
      return follow_neighbour (self, job->slot, inbuf, FALSE, error);
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
 * slot's device planes (downloaded into the buffer afterwards).  CUDA
 * memory is marked as written with nothing pending: the frame is waited
 * for before it leaves the element (complete), so downstream need not
 * synchronise its stream, which by then holds later frames' work. */
gboolean
gst_cuda_video_filter_output_to_device (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf,
    GstCudaVideoDeviceFrame * dev, GError ** error)
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
      for (p = 0; p < gst_buffer_n_memory (outbuf); p++)
        gst_cuda_video_memory_written (gst_buffer_peek_memory (outbuf, p));
      return follow_neighbour (self, job->slot, outbuf, TRUE, error);
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
gboolean
gst_cuda_video_filter_download_output (GstCudaVideoFilter * self, Job * job, GstBuffer * outbuf,
    GError ** error)
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
