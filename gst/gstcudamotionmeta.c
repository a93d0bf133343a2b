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
#include <stdlib.h>
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
 * @records, its frame fields set; NULL when it could not be added.  The
 * caller packs it (ipc-meta) once its other fields are set. */
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
  if (info->pack)
    gst_cuda_video_motion_meta_pack (meta, buffer);
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
  if (info->pack)
    gst_cuda_video_motion_meta_pack (meta, buffer);
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

GParamSpec *
gst_cuda_motion_ipc_meta_pspec (void)
{
  return g_param_spec_boolean ("ipc-meta", "IPC meta",
      "Also attach the results packed as a GstCustomMeta, the only kind of meta cudaipcsink forwards to "
      "other processes (GStreamer 1.24+; unixfdsink needs nothing): the reader unpacks them with "
      "gst_buffer_unpack_cuda_video_motion_metas (GstCudaVideo typelib)", DEFAULT_PROP_IPC_META,
      G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
}

const gchar *
gst_cuda_motion_ipc_meta_unsupported (void)
{
#if GST_CHECK_VERSION(1, 24, 0)
  return NULL;
#else
  return "metas serialize only when the plugin is built against GStreamer 1.24 or later";
#endif
}

/* ---- post-messages: a frame's motion in a few numbers ------------------ */

/* A vector in whole quarter pixels, halves away from zero. */
static gint32
to_quarters (gdouble v)
{
  return (gint32) (v < 0 ? -floor (-v * 4 + 0.5) : floor (v * 4 + 0.5));
}

typedef struct
{
  gint32 dx, dy;
} Quarters;

static gint
quarters_compare (gconstpointer a, gconstpointer b)
{
  const Quarters *p = a, *q = b;

  if (p->dx != q->dx)
    return p->dx < q->dx ? -1 : 1;
  return p->dy < q->dy ? -1 : p->dy > q->dy;
}

/* Adds the records (x, y, dx, dy in pixels, @stride bytes apart, as
 * gfloat or gint32 / 4 quarter pixels) to @s: @count_field (the records),
 * "moved" (those whose vector rounded to a quarter pixel is not (0, 0)),
 * their "mean-dx", "mean-dy", the "largest-*" of them (its position, vector
 * and length; the first in record order on a tie) and the "dominant-*"
 * vector (the one most of them share, rounded to a quarter pixel; the
 * smaller dx, then dy, on a tie) with its "dominant-count"; pixels,
 * 0 when nothing moved. */
static void
summary_set (GstStructure * s, const gchar * count_field, gconstpointer records, guint n, gsize stride,
    gboolean quarter_ints)
{
  Quarters *moved = g_new (Quarters, MAX (n, 1));
  gdouble sum_dx = 0, sum_dy = 0, best = -1, lx = 0, ly = 0, ldx = 0, ldy = 0;
  guint i, m = 0, run = 0, best_run = 0;
  Quarters dominant = { 0, 0 };

  for (i = 0; i < n; i++) {
    const guint8 *rec = (const guint8 *) records + i * stride;
    gdouble x, y, dx, dy, len;

    if (quarter_ints) {
      const GcvMotionVector *v = (const GcvMotionVector *) rec;
      x = v->x;
      y = v->y;
      dx = v->dx / (gdouble) GCV_MOTION_Q;
      dy = v->dy / (gdouble) GCV_MOTION_Q;
    } else {
      const GcvVcmPoint *p = (const GcvVcmPoint *) rec;
      x = p->x;
      y = p->y;
      dx = p->dx;
      dy = p->dy;
    }
    moved[m].dx = to_quarters (dx);
    moved[m].dy = to_quarters (dy);
    if (moved[m].dx == 0 && moved[m].dy == 0)
      continue;
    m++;
    sum_dx += dx;
    sum_dy += dy;
    len = sqrt (dx * dx + dy * dy);
    if (len > best) {
      best = len;
      lx = x;
      ly = y;
      ldx = dx;
      ldy = dy;
    }
  }
  qsort (moved, m, sizeof (Quarters), quarters_compare);
  for (i = 0; i < m; i++) {
    run = i > 0 && quarters_compare (&moved[i], &moved[i - 1]) == 0 ? run + 1 : 1;
    if (run > best_run) {
      best_run = run;
      dominant = moved[i];
    }
  }
  g_free (moved);
  gst_structure_set (s,
      count_field, G_TYPE_UINT, n,
      "moved", G_TYPE_UINT, m,
      "mean-dx", G_TYPE_DOUBLE, m ? sum_dx / m : 0.0,
      "mean-dy", G_TYPE_DOUBLE, m ? sum_dy / m : 0.0,
      "largest-x", G_TYPE_DOUBLE, lx,
      "largest-y", G_TYPE_DOUBLE, ly,
      "largest-dx", G_TYPE_DOUBLE, ldx,
      "largest-dy", G_TYPE_DOUBLE, ldy,
      "largest-length", G_TYPE_DOUBLE, MAX (best, 0.0),
      "dominant-dx", G_TYPE_DOUBLE, dominant.dx / 4.0,
      "dominant-dy", G_TYPE_DOUBLE, dominant.dy / 4.0,
      "dominant-count", G_TYPE_UINT, best_run, NULL);
}

GstStructure *
gst_cuda_motion_summary_blocks (const GstCudaMotionFrameInfo * info, const GcvMotionVector * vectors)
{
  GstStructure *s = gst_structure_new ("motionest",
      "frame", G_TYPE_UINT64, info->frame,
      "has-reference", G_TYPE_BOOLEAN, info->has_reference, NULL);

  summary_set (s, "blocks", vectors, gst_cuda_motion_n_blocks (info), sizeof (GcvMotionVector), TRUE);
  return s;
}

GstStructure *
gst_cuda_motion_summary_points (const GstCudaMotionPointsInfo * info, const GcvVcmPoint * points,
    guint n_points)
{
  GstStructure *s = gst_structure_new ("vcm",
      "frame", G_TYPE_UINT64, info->frame,
      "has-reference", G_TYPE_BOOLEAN, info->has_reference, NULL);

  summary_set (s, "points", points, n_points, sizeof (GcvVcmPoint), FALSE);
  return s;
}
