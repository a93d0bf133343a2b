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
/* Frames in flight: the slots of device and page-locked memory a frame
 * holds, submitting a frame (transform, transform_ip), completing and
 * pushing frames in order (async-depth), draining and discarding them,
 * and the frames an element renders without an input (push_output). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include "gcv-cuda.h"

#include <string.h>

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

/* The context must be entered. */
void
gst_cuda_video_filter_free_slots (GstCudaVideoFilter * self)
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
guint
gst_cuda_video_filter_effective_depth (GstCudaVideoFilter * self)
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
gboolean
gst_cuda_video_filter_alloc_slots (GstCudaVideoFilter * self, GError ** error)
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

/* A CPU frame computed from @t0 to @t1 (monotonic µs) and given out: the
 * statistics, and an INFO line when it was slow (SLOW_CPU_FRAME_US), at
 * most one a second, counting the slow frames in between, so that a
 * pipeline that seems to hang says why in GST_DEBUG=<element>:4. */
static void
account_cpu_frame (GstCudaVideoFilter * self, gint64 t0, gint64 t1)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gdouble ms[3] = { 0.0, (t1 - t0) / 1000.0, 0.0 };

  account_frame (self, ms, t1 - t0);
  if (t1 - t0 < SLOW_CPU_FRAME_US)
    return;
  priv->slow_frames++;
  priv->slowest_us = MAX (priv->slowest_us, t1 - t0);
  if (priv->slow_logged_us != 0 && t1 - priv->slow_logged_us < G_USEC_PER_SEC)
    return;
  GST_INFO_OBJECT (self, "slow CPU frame: %.0f ms (slow: %d ms and more); %u slow frame(s) since the last "
      "such line, the slowest %.0f ms", ms[1], SLOW_CPU_FRAME_US / 1000, priv->slow_frames,
      priv->slowest_us / 1000.0);
  priv->slow_logged_us = t1;
  priv->slow_frames = 0;
  priv->slowest_us = 0;
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
    /* the element is stopping or flushing: the frame goes nowhere, and its
     * work may have stopped half-way (the backends stop between launches) */
    if (gcv_cancel_requested (&self->priv->cancel)) {
      gst_cuda_video_filter_leave (self);
      release_job_frames (job);
      gst_clear_buffer (&job->outbuf);
      return GST_FLOW_FLUSHING;
    }
    if (job->uploaded)
      ms[0] = elapsed (slot, EV_UP_START, EV_UP_END);
    if (job->computed)
      ms[1] = elapsed (slot, EV_COMPUTE_START, EV_COMPUTE_END);
    if (job->downloaded)
      ms[2] = elapsed (slot, EV_DOWN_START, EV_DOWN_END);
    for (i = 0; i < job->n_copies; i++) {
      StagedCopy *c = &job->copies[i];
      gst_cuda_video_filter_copy_rows (c->host, c->host_stride, slot->down_staging + c->staging_offset,
          c->row_bytes, c->row_bytes, c->rows, c->row_bytes * c->rows >= PARALLEL_COPY_BYTES);
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
GstFlowReturn
gst_cuda_video_filter_drain_inflight (GstCudaVideoFilter * self)
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
    if (ret == GST_FLOW_OK && buf) {
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), buf);
      gst_cuda_video_filter_output_left (self, TRUE);
    }
  }
  if (ret != GST_FLOW_OK)
    gst_cuda_video_filter_discard_inflight (self);
  return ret;
}

/* Drops every frame in flight once the device is done with it (flush,
 * stop, errors). */
void
gst_cuda_video_filter_discard_inflight (GstCudaVideoFilter * self)
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
GstFlowReturn
gst_cuda_video_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBuffer *fresh = NULL;
  GstFlowReturn ret;
  gboolean dropped;
  Job *job;

  *outbuf = NULL;
  /* basetransform pushed the last output it had from here: the events
   * that waited for it go now */
  gst_cuda_video_filter_release_events (self, FALSE);
  priv->submitted = NULL;
  ret = GST_CUDA_VIDEO_FILTER_PARENT_CLASS->generate_output (trans, &fresh);
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

  while (g_queue_get_length (&priv->inflight) > gst_cuda_video_filter_effective_depth (self)) {
    job = g_queue_pop_head (&priv->inflight);
    ret = complete_job (self, job, outbuf);
    g_free (job);
    if (ret != GST_FLOW_OK) {
      gst_cuda_video_filter_discard_inflight (self);
      return ret;
    }
    if (*outbuf != NULL) {
      gst_cuda_video_filter_output_left (self, FALSE);
      return GST_FLOW_OK;
    }
  }
  return dropped ? GST_BASE_TRANSFORM_FLOW_DROPPED : GST_FLOW_OK;
}

/* ---- streaming ---------------------------------------------------------------- */

/* Whether @outbuf, about to be written on the GPU, holds a frame of the
 * output caps (it comes from a pool that downstream may have made); posts
 * why when not.  On the CPU gst_cuda_video_filter_map_frame() checks. */
static gboolean
output_holds_frame (GstCudaVideoFilter * self, GstBuffer * outbuf)
{
  GError *error = NULL;

  if (gst_cuda_video_filter_check_frame (&self->out_info, outbuf, &error))
    return TRUE;
  gst_cuda_video_filter_post_error (self, "The output buffer does not hold a frame of the negotiated caps",
      error);
  return FALSE;
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

  if (!gst_cuda_video_filter_enter_or_post (self))
    return GST_FLOW_ERROR;
  job = g_new0 (Job, 1);
  job->slot = take_slot (self);
  /* the input is read by the device after this returns: keep it (an in
   * place buffer is the output, kept as such) */
  if (outbuf != NULL)
    job->inbuf = gst_buffer_ref (inbuf);
  if (!gst_cuda_video_filter_input_to_device (self, job, inbuf, &in_dev, &error)
      || (outbuf != NULL && !gst_cuda_video_filter_output_to_device (self, job, outbuf, &out_dev, &error))
      || !gst_cuda_video_filter_record_event (self, job->slot, EV_COMPUTE_START, STREAM_COMPUTE, &error))
    goto failed;
  ret = outbuf == NULL ? klass->process_device_in_place (self, &in_dev)
      : klass->process_device (self, &in_dev, &out_dev);
  if (ret != GST_FLOW_OK && ret != GST_BASE_TRANSFORM_FLOW_DROPPED)
    goto done;
  if (!gst_cuda_video_filter_record_event (self, job->slot, EV_COMPUTE_END, STREAM_COMPUTE, &error))
    goto failed;
  job->computed = TRUE;
  if (ret == GST_FLOW_OK && outbuf != NULL
      && !gst_cuda_video_filter_download_output (self, job, outbuf, &error))
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

GstFlowReturn
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
  if (on_gpu (self)) {
    /* the input was checked where it entered (submit_input_buffer) */
    if (!output_holds_frame (self, outbuf))
      return GST_FLOW_ERROR;
    return submit_device (self, inbuf, outbuf);
  }

  if (!gst_cuda_video_filter_map_frame (self, &in_frame, &self->in_info, inbuf, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (!gst_cuda_video_filter_map_frame (self, &out_frame, &self->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    gst_video_frame_unmap (&in_frame);
    return GST_FLOW_ERROR;
  }
  t0 = g_get_monotonic_time ();
  ret = klass->process (self, &in_frame, &out_frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&out_frame);
  gst_video_frame_unmap (&in_frame);
  if (ret == GST_FLOW_OK)
    account_cpu_frame (self, t0, t1);
  return ret;
}

/* In place (subclasses with process_in_place): the buffer is the output. */
GstFlowReturn
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
  /* checked where it entered (submit_input_buffer) */
  if (on_gpu (self))
    return submit_device (self, buf, NULL);

  if (klass->writes_in_place && klass->writes_in_place (self))
    flags |= GST_MAP_WRITE;
  if (!gst_cuda_video_filter_map_frame (self, &frame, &self->in_info, buf, flags))
    return GST_FLOW_ERROR;
  t0 = g_get_monotonic_time ();
  ret = klass->process_in_place (self, &frame);
  t1 = g_get_monotonic_time ();
  gst_video_frame_unmap (&frame);
  if (ret == GST_FLOW_OK || ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
    account_cpu_frame (self, t0, t1);
  return ret;
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
  if (!gst_cuda_video_filter_enter_or_post (self)) {
    gst_buffer_unref (outbuf);
    return GST_FLOW_ERROR;
  }
  job = g_new0 (Job, 1);
  job->slot = take_slot (self);
  job->outbuf = outbuf;
  if (!gst_cuda_video_filter_output_to_device (self, job, outbuf, &out_dev, &error)
      || !gst_cuda_video_filter_record_event (self, job->slot, EV_COMPUTE_START, STREAM_COMPUTE, &error))
    goto failed;
  ret = render (self, NULL, &out_dev, user_data);
  if (ret != GST_FLOW_OK)
    goto done;
  if (!gst_cuda_video_filter_record_event (self, job->slot, EV_COMPUTE_END, STREAM_COMPUTE, &error))
    goto failed;
  job->computed = TRUE;
  if (!gst_cuda_video_filter_download_output (self, job, outbuf, &error))
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
  if ((ret = gst_cuda_video_filter_drain_inflight (self)) != GST_FLOW_OK)
    return ret;
  if ((ret = acquire_output (self, &outbuf)) != GST_FLOW_OK)
    return ret;
  if (on_gpu (self)) {
    GstBuffer *done;
    if (!output_holds_frame (self, outbuf)) {
      gst_buffer_unref (outbuf);
      return GST_FLOW_ERROR;
    }
    ret = render_device (self, render, user_data, outbuf, &done);
    if (ret != GST_FLOW_OK || done == NULL)
      return ret;
    ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), done);
    gst_cuda_video_filter_output_left (self, TRUE);
    return ret;
  }
  if (!gst_cuda_video_filter_map_frame (self, &out_frame, &self->out_info, outbuf,
          GST_MAP_WRITE | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
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
  account_cpu_frame (self, t0, t1);
  ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
  gst_cuda_video_filter_output_left (self, TRUE);
  return ret;
}
