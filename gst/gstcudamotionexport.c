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

#include "gstcudamotionexport.h"

#include <errno.h>
#include <glib/gstdio.h>

/* The start of a JSON line: frame, pts, has_reference, width, height. */
static void
json_begin (GString * line, guint64 frame, GstClockTime pts, gboolean has_reference, gint width,
    gint height)
{
  g_string_truncate (line, 0);
  g_string_append_printf (line, "{\"frame\":%" G_GUINT64_FORMAT ",\"pts\":", frame);
  if (GST_CLOCK_TIME_IS_VALID (pts))
    g_string_append_printf (line, "%" G_GUINT64_FORMAT, (guint64) pts);
  else
    g_string_append (line, "null");
  g_string_append_printf (line, ",\"has_reference\":%s,\"width\":%d,\"height\":%d",
      has_reference ? "true" : "false", width, height);
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
  guint n = gst_cuda_motion_n_blocks (info), i;

  json_begin (line, info->frame, pts, info->has_reference, info->width, info->height);
  g_string_append_printf (line, ",\"block_width\":%d,\"block_height\":%d,\"grid_width\":%d,"
      "\"grid_height\":%d,\"method\":\"%s\",\"subpel\":%d,"
      "\"fields\":[\"x\",\"y\",\"dx\",\"dy\",\"sad\"],\"blocks\":[",
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

/* A float with 3 decimals, '.' whatever the locale. */
static void
append_decimal (GString * s, gfloat v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.3f", (gdouble) v));
}

void
gst_cuda_motion_json_points_line (GString * line, const GstCudaMotionPointsInfo * info, GstClockTime pts,
    const GcvVcmPoint * points, guint n_points)
{
  guint i;

  json_begin (line, info->frame, pts, info->has_reference, info->width, info->height);
  g_string_append_printf (line, ",\"n_points\":%u,\"window_size\":%d,\"template_size\":%d,"
      "\"search_size\":%d,\"fields\":[\"x\",\"y\",\"dx\",\"dy\",\"score\"],\"points\":[",
      n_points, info->params->window_size, info->params->template_size, info->params->search_size);
  for (i = 0; i < n_points; i++) {
    const GcvVcmPoint *p = &points[i];
    g_string_append (line, i ? ",[" : "[");
    append_decimal (line, p->x);
    g_string_append_c (line, ',');
    append_decimal (line, p->y);
    g_string_append_c (line, ',');
    append_decimal (line, p->dx);
    g_string_append_c (line, ',');
    append_decimal (line, p->dy);
    g_string_append_c (line, ',');
    append_decimal (line, p->score);
    g_string_append_c (line, ']');
  }
  g_string_append (line, "]}\n");
}

gboolean
gst_cuda_motion_json_open (GstElement * element, const gchar * location, const gchar * what,
    FILE ** file)
{
  *file = NULL;
  if (location == NULL || *location == '\0')
    return TRUE;
  *file = g_fopen (location, "ab");
  if (*file == NULL) {
    GST_ELEMENT_ERROR (element, RESOURCE, OPEN_WRITE,
        ("Could not open \"%s\" to write the %s", location, what), ("%s", g_strerror (errno)));
    return FALSE;
  }
  return TRUE;
}

gboolean
gst_cuda_motion_json_write (GstElement * element, FILE * file, const GString * line, const gchar * what)
{
  if (fwrite (line->str, 1, line->len, file) == line->len)
    return TRUE;
  GST_ELEMENT_ERROR (element, RESOURCE, WRITE, ("Could not write the %s", what),
      ("%s", g_strerror (errno)));
  return FALSE;
}

void
gst_cuda_motion_json_close (GstElement * element, FILE ** file, const gchar * what)
{
  if (*file == NULL)
    return;
  if (fclose (*file) != 0)
    GST_ELEMENT_WARNING (element, RESOURCE, WRITE, ("Could not finish writing the %s", what),
        ("%s", g_strerror (errno)));
  *file = NULL;
}
