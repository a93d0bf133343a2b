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
/* Serialized events in order with the frames an element holds back
 * (conv3d's history, the held_frames of its class): an event that ends a
 * stream (EOS, new caps, a new SEGMENT, STREAM_START, SEGMENT_DONE,
 * STREAM_GROUP_DONE) makes the element drain first; any other (GAP, TAG,
 * custom events, the segment in force sent again, ...) is held and leaves
 * once the outputs of every frame that came before it have left, so that
 * nothing overtakes a frame and the history goes on undisturbed
 * (docs/design.md says why). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

/* An event waiting for @outputs more frames to leave. */
typedef struct
{
  GstEvent *event;
  guint outputs;
} HeldEvent;

/* The oldest held event, out of the queue; NULL when none or (@due) when
 * it waits for frames still. */
static GstEvent *
pop_event (GQueue * held, gboolean due)
{
  HeldEvent *h = g_queue_peek_head (held);
  GstEvent *event;

  if (h == NULL || (due && h->outputs > 0))
    return NULL;
  g_queue_pop_head (held);
  event = h->event;
  g_free (h);
  return event;
}

/* Whether @seg maps timestamps to running and stream time as the segment
 * in force does (its position aside, which basetransform moves). */
static gboolean
same_segment (GstBaseTransform * trans, const GstSegment * seg)
{
  const GstSegment *cur = &trans->segment;

  return trans->have_segment && seg->format == cur->format && seg->flags == cur->flags
      && seg->rate == cur->rate && seg->applied_rate == cur->applied_rate && seg->base == cur->base
      && seg->offset == cur->offset && seg->start == cur->start && seg->stop == cur->stop
      && seg->time == cur->time;
}

gboolean
gst_cuda_video_filter_event_ends_stream (GstCudaVideoFilter * self, GstEvent * event)
{
  const GstSegment *seg;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_SEGMENT:
      /* the segment in force again (sent anew with the same caps) goes on
       * with the stream; any other (concat's next stream, a non-flushing
       * seek) ends it */
      gst_event_parse_segment (event, &seg);
      return !same_segment (GST_BASE_TRANSFORM (self), seg);
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_STREAM_START:
    case GST_EVENT_SEGMENT_DONE:
    case GST_EVENT_STREAM_GROUP_DONE:
      return TRUE;
    default:
      return FALSE;
  }
}

/* Forwards @event as basetransform would have when it came. */
static void
forward (GstCudaVideoFilter * self, GstEvent * event)
{
  GST_DEBUG_OBJECT (self, "releasing %s", GST_EVENT_TYPE_NAME (event));
  if (!GST_CUDA_VIDEO_FILTER_PARENT_CLASS->sink_event (GST_BASE_TRANSFORM (self), event))
    GST_DEBUG_OBJECT (self, "downstream refused a released event");
}

gboolean
gst_cuda_video_filter_hold_event (GstCudaVideoFilter * self, GstEvent * event)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GQueue *held = &self->priv->held_events;
  guint frames = klass->held_frames ? klass->held_frames (self) : 0;
  HeldEvent *h;

  /* holding nothing, the element owes no output: whatever waits goes, and
   * this event after it */
  if (frames == 0) {
    gst_cuda_video_filter_release_events (self, TRUE);
    return FALSE;
  }
  h = g_new (HeldEvent, 1);
  h->event = event;
  h->outputs = frames;
  g_queue_push_tail (held, h);
  GST_DEBUG_OBJECT (self, "%s waits behind %u held frame(s)", GST_EVENT_TYPE_NAME (event), frames);
  /* behind nothing but events whose frames all left */
  gst_cuda_video_filter_release_events (self, FALSE);
  return TRUE;
}

void
gst_cuda_video_filter_output_left (GstCudaVideoFilter * self, gboolean pushed)
{
  GList *l;

  for (l = self->priv->held_events.head; l != NULL; l = l->next) {
    HeldEvent *h = l->data;
    if (h->outputs > 0)
      h->outputs--;
  }
  if (pushed)
    gst_cuda_video_filter_release_events (self, FALSE);
}

void
gst_cuda_video_filter_release_events (GstCudaVideoFilter * self, gboolean all)
{
  GstEvent *event;

  while ((event = pop_event (&self->priv->held_events, !all)) != NULL)
    forward (self, event);
}

void
gst_cuda_video_filter_flush_events (GstCudaVideoFilter * self, gboolean keep_sticky)
{
  GstEvent *event;

  /* sticky events (tags) describe the stream, not a moment of it:
   * GStreamer keeps them over a flush, and downstream gets them after
   * its FLUSH_STOP; the others (GAP) were of the frames flushed */
  while ((event = pop_event (&self->priv->held_events, FALSE)) != NULL) {
    if (keep_sticky && GST_EVENT_IS_STICKY (event)) {
      forward (self, event);
    } else {
      GST_DEBUG_OBJECT (self, "dropping held %s", GST_EVENT_TYPE_NAME (event));
      gst_event_unref (event);
    }
  }
}
