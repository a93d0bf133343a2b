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

#include <string.h>

G_STATIC_ASSERT (sizeof (GcvMotionVector) == sizeof (GstCudaMotionVector));
G_STATIC_ASSERT (G_STRUCT_OFFSET (GcvMotionVector, sad) == G_STRUCT_OFFSET (GstCudaMotionVector, sad));

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

static guint
n_blocks (const GstCudaMotionFrameInfo * info)
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
  GstCustomMeta *meta;
  GstBuffer *records;

  /* one motion meta per buffer: an upstream motion element's vectors (of
   * the same frame, perhaps other parameters) give way to this one's */
  while ((meta = gst_buffer_get_custom_meta (buffer, GST_CUDA_MOTION_META_NAME)) != NULL)
    if (!gst_buffer_remove_meta (buffer, (GstMeta *) meta))
      break;
  meta = gst_buffer_add_custom_meta (buffer, GST_CUDA_MOTION_META_NAME);
  if (meta == NULL)
    return;
  records = gst_buffer_new_memdup (vectors, n_blocks (info) * sizeof (GcvMotionVector));
  gst_structure_set (gst_custom_meta_get_structure (meta),
      "kind", G_TYPE_STRING, "blocks",
      "has-reference", G_TYPE_BOOLEAN, info->has_reference,
      "frame", G_TYPE_UINT64, info->frame,
      "width", G_TYPE_INT, info->width,
      "height", G_TYPE_INT, info->height,
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

/* A quarter-pixel count as an exact decimal number of pixels. */
static void
append_pixels (GString * s, gint32 q)
{
  static const char *frac[4] = { "", ".25", ".5", ".75" };
  guint32 m = q < 0 ? (guint32) (-(gint64) q) : (guint32) q;

  g_string_append_printf (s, "%s%u%s", q < 0 ? "-" : "", m / 4, frac[m % 4]);
}

void
gst_cuda_motion_json_line (GString * line, const GstCudaMotionFrameInfo * info, GstClockTime pts,
    const GcvMotionVector * vectors)
{
  guint n = n_blocks (info), i;

  g_string_truncate (line, 0);
  g_string_append_printf (line, "{\"frame\":%" G_GUINT64_FORMAT ",\"pts\":", info->frame);
  if (GST_CLOCK_TIME_IS_VALID (pts))
    g_string_append_printf (line, "%" G_GUINT64_FORMAT, (guint64) pts);
  else
    g_string_append (line, "null");
  g_string_append_printf (line, ",\"has_reference\":%s,\"width\":%d,\"height\":%d,"
      "\"block_width\":%d,\"block_height\":%d,\"grid_width\":%d,\"grid_height\":%d,"
      "\"method\":\"%s\",\"subpel\":%d,\"fields\":[\"x\",\"y\",\"dx\",\"dy\",\"sad\"],\"blocks\":[",
      info->has_reference ? "true" : "false", info->width, info->height,
      info->params->block_width, info->params->block_height,
      gcv_motion_grid_cols (info->width, info->params), gcv_motion_grid_rows (info->height, info->params),
      info->params->method == GCV_MOTION_METHOD_MODS ? "mods" : "full", (gint) info->params->subpel);
  for (i = 0; i < n; i++) {
    const GcvMotionVector *v = &vectors[i];
    g_string_append_printf (line, "%s[%d,%d,", i ? "," : "", v->x, v->y);
    append_pixels (line, v->dx);
    g_string_append_c (line, ',');
    append_pixels (line, v->dy);
    g_string_append_printf (line, ",%u]", v->sad);
  }
  g_string_append (line, "]}\n");
}

void
gst_cuda_motion_draw (GstVideoFrame * frame, GcvPlane * mask, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors)
{
  guint n = n_blocks (info), i;
  gint y;

  for (y = 0; y < mask->height; y++)
    memset ((guint8 *) mask->data + (gsize) y * mask->stride, 0, mask->width);
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
