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

G_STATIC_ASSERT (sizeof (GcvMotionVector) == sizeof (GstCudaMotionVector));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GcvMotionVector, sad) == G_STRUCT_OFFSET (GstCudaMotionVector, sad));
G_STATIC_ASSERT (sizeof (GcvVcmPoint) == sizeof (GstCudaMotionPoint));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GcvVcmPoint, score) == G_STRUCT_OFFSET (GstCudaMotionPoint, score));

/* colour of the arrows (ARGB) */
#define ARROW_COLOUR 0xff00ff00

void
gst_cuda_motion_meta_register (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    /* the vectors describe the frame's geometry: scalers, croppers and
     * flips must drop them, colour conversion may keep them */
    static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
      GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
    };
    gst_meta_register_custom (GST_CUDA_MOTION_META_NAME, tags, NULL, NULL, NULL);
    g_once_init_leave (&done, 1);
  }
}

/* The buffer's new motion meta, its frame fields set; NULL when it could
 * not be added. */
static GstStructure *
meta_replace (GstBuffer * buffer, const gchar * kind, gboolean has_reference, guint64 frame, gint width,
    gint height)
{
  GstCustomMeta *meta;
  GstStructure *s;

  /* one motion meta per buffer: an upstream motion element's vectors (of
   * the same frame, perhaps other parameters) give way to this one's */
  while ((meta = gst_buffer_get_custom_meta (buffer, GST_CUDA_MOTION_META_NAME)) != NULL)
    if (!gst_buffer_remove_meta (buffer, (GstMeta *) meta))
      break;
  meta = gst_buffer_add_custom_meta (buffer, GST_CUDA_MOTION_META_NAME);
  if (meta == NULL)
    return NULL;
  s = gst_custom_meta_get_structure (meta);
  gst_structure_set (s,
      "kind", G_TYPE_STRING, kind,
      "has-reference", G_TYPE_BOOLEAN, has_reference,
      "frame", G_TYPE_UINT64, frame,
      "width", G_TYPE_INT, width,
      "height", G_TYPE_INT, height, NULL);
  return s;
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
  GstStructure *s = meta_replace (buffer, "blocks", info->has_reference, info->frame, info->width,
      info->height);
  GstBuffer *records;

  if (s == NULL)
    return;
  records = gst_buffer_new_memdup (vectors, gst_cuda_motion_n_blocks (info) * sizeof (GcvMotionVector));
  gst_structure_set (s,
      "block-width", G_TYPE_INT, info->params->block_width,
      "block-height", G_TYPE_INT, info->params->block_height,
      "grid-width", G_TYPE_INT, gcv_motion_grid_cols (info->width, info->params),
      "grid-height", G_TYPE_INT, gcv_motion_grid_rows (info->height, info->params),
      "subpel", G_TYPE_INT, (gint) info->params->subpel,
      "vector-scale", G_TYPE_INT, GCV_MOTION_Q,
      "method", G_TYPE_STRING, info->params->method == GCV_MOTION_METHOD_MODS ? "mods" : "full",
      "vectors", GST_TYPE_BUFFER, records, NULL);
  gst_buffer_unref (records);
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
  GstStructure *s = meta_replace (buffer, "points", info->has_reference, info->frame, info->width,
      info->height);
  GstBuffer *records;

  if (s == NULL)
    return;
  /* an empty buffer (no memory) for no points: it maps to size 0 */
  records = n_points > 0 ? gst_buffer_new_memdup (points, n_points * sizeof (GcvVcmPoint))
      : gst_buffer_new ();
  gst_structure_set (s,
      "n-points", G_TYPE_INT, (gint) n_points,
      "window-size", G_TYPE_INT, info->params->window_size,
      "template-size", G_TYPE_INT, info->params->template_size,
      "search-size", G_TYPE_INT, info->params->search_size,
      "vectors", GST_TYPE_BUFFER, records, NULL);
  gst_buffer_unref (records);
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
