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
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamotionmetawriter.h"
#include "gstcudavideofilter.h"
#include "overlay.h"

#include <math.h>
#include <string.h>

G_STATIC_ASSERT (sizeof (GcvMotionVector) == sizeof (GstCudaVideoMotionVector));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GcvMotionVector, sad) == G_STRUCT_OFFSET (GstCudaVideoMotionVector, sad));
G_STATIC_ASSERT (sizeof (GcvVcmPoint) == sizeof (GstCudaVideoMotionPoint));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GcvVcmPoint, score) == G_STRUCT_OFFSET (GstCudaVideoMotionPoint, score));

/* colour of the arrows (ARGB) */
#define ARROW_COLOUR 0xff00ff00

void
gst_cuda_motion_meta_register (void)
{
  gst_cuda_video_motion_meta_get_info ();
}

/* The buffer's new motion meta with a copy of @size bytes of records at
 * @records, its frame fields set; NULL when it could not be added. */
static GstCudaVideoMotionMeta *
meta_add (GstBuffer * buffer, GstCudaVideoMotionKind kind, const gchar * source, gboolean has_reference,
    guint64 frame, GstClockTime pts, GstClockTime reference_pts, gint width, gint height,
    gconstpointer records, gsize size)
{
  GBytes *bytes = g_bytes_new (records, size);
  GstCudaVideoMotionMeta *meta = gst_buffer_add_cuda_video_motion_meta (buffer, kind, source, bytes);

  g_bytes_unref (bytes);
  if (meta == NULL)
    return NULL;
  meta->has_reference = has_reference;
  meta->frame = frame;
  meta->pts = pts;
  meta->reference_pts = has_reference ? reference_pts : GST_CLOCK_TIME_NONE;
  meta->width = width;
  meta->height = height;
  return meta;
}

static void
mask_clear (GcvPlane * mask)
{
  gint y;

  for (y = 0; y < mask->height; y++)
    memset ((guint8 *) mask->data + (gsize) y * mask->stride, 0, mask->width);
}

guint
gst_cuda_motion_n_blocks (const GstCudaMotionFrameInfo * info)
{
  return (guint) gcv_motion_grid_cols (info->width, info->params)
      * gcv_motion_grid_rows (info->height, info->params);
}

void
gst_cuda_motion_zero_vectors (const GstCudaMotionFrameInfo * info, GcvMotionVector * vectors)
{
  gint cols = gcv_motion_grid_cols (info->width, info->params);
  gint rows = gcv_motion_grid_rows (info->height, info->params), bx, by;

  for (by = 0; by < rows; by++)
    for (bx = 0; bx < cols; bx++) {
      GcvMotionVector *v = &vectors[by * cols + bx];
      v->x = bx * info->params->block_width;
      v->y = by * info->params->block_height;
      v->dx = v->dy = 0;
      v->sad = 0;
    }
}

void
gst_cuda_motion_meta_add (GstBuffer * buffer, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors)
{
  GstCudaVideoMotionMeta *meta = meta_add (buffer, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, info->source,
      info->has_reference, info->frame, info->pts, info->reference_pts, info->width, info->height, vectors,
      gst_cuda_motion_n_blocks (info) * sizeof (GcvMotionVector));

  if (meta == NULL)
    return;
  meta->block_width = info->params->block_width;
  meta->block_height = info->params->block_height;
  meta->grid_width = gcv_motion_grid_cols (info->width, info->params);
  meta->grid_height = gcv_motion_grid_rows (info->height, info->params);
  meta->subpel = (gint) info->params->subpel;
  meta->vector_scale = GCV_MOTION_Q;
  meta->method = info->params->method == GCV_MOTION_METHOD_MODS ? "mods" : "full";
}

void
gst_cuda_motion_draw (GstVideoFrame * frame, GcvPlane * mask, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors)
{
  guint n = gst_cuda_motion_n_blocks (info), i;

  mask_clear (mask);
  for (i = 0; i < n; i++) {
    const GcvMotionVector *v = &vectors[i];
    gint x0, y0, w, h, cx, cy;

    gcv_motion_block_rect (info->width, info->height, info->params, v->x / info->params->block_width,
        v->y / info->params->block_height, &x0, &y0, &w, &h);
    cx = x0 + w / 2;
    cy = y0 + h / 2;
    /* rounded to the nearest pixel, halves away from zero */
    gcv_overlay_arrow (mask, cx, cy, cx + (v->dx >= 0 ? (v->dx + 2) / 4 : -((-v->dx + 2) / 4)),
        cy + (v->dy >= 0 ? (v->dy + 2) / 4 : -((-v->dy + 2) / 4)));
  }
  gst_cuda_video_filter_paint_mask (frame, mask, ARROW_COLOUR);
}

void
gst_cuda_motion_meta_add_points (GstBuffer * buffer, const GstCudaMotionPointsInfo * info,
    const GcvVcmPoint * points, guint n_points)
{
  GstCudaVideoMotionMeta *meta = meta_add (buffer, GST_CUDA_VIDEO_MOTION_KIND_POINTS, info->source,
      info->has_reference, info->frame, info->pts, info->reference_pts, info->width, info->height, points,
      n_points * sizeof (GcvVcmPoint));

  if (meta == NULL)
    return;
  meta->window_size = info->params->window_size;
  meta->template_size = info->params->template_size;
  meta->search_size = info->params->search_size;
}

void
gst_cuda_motion_draw_points (GstVideoFrame * frame, GcvPlane * mask, const GcvVcmPoint * points,
    guint n_points, gint scale)
{
  guint i;

  mask_clear (mask);
  for (i = 0; i < n_points; i++) {
    const GcvVcmPoint *p = &points[i];
    gint x0 = (gint) p->x, y0 = (gint) p->y;
    /* the tip rounded to the nearest pixel; gcv_overlay_arrow clips */
    gint x1 = (gint) floor ((gdouble) p->x + (gdouble) p->dx * scale + 0.5);
    gint y1 = (gint) floor ((gdouble) p->y + (gdouble) p->dy * scale + 0.5);
    gcv_overlay_arrow (mask, x0, y0, x1, y1);
  }
  gst_cuda_video_filter_paint_mask (frame, mask, ARROW_COLOUR);
}
