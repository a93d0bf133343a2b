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
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <glib/gstdio.h>

struct _GstCudaMotionExport
{
  gint fd;
  gchar *location;
  const gchar *what;
  GString *line;                /* the line being built */
  guint64 lines;                /* whole lines this run wrote */
  off_t end;                    /* the file's size after the last whole line */
  gboolean failed;              /* an error was posted: post no other */
};

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

static void
json_line (GString * line, const GstCudaMotionFrameInfo * info, GstClockTime pts,
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

static void
json_points_line (GString * line, const GstCudaMotionPointsInfo * info, GstClockTime pts,
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

/* ---- the file ------------------------------------------------------------ */

gboolean
gst_cuda_motion_export_open (GstElement * element, const gchar * location, const gchar * what,
    GstCudaMotionExport ** export)
{
  GstCudaMotionExport *e;
  GStatBuf st;
  gint fd;

  *export = NULL;
  if (location == NULL || *location == '\0')
    return TRUE;
  /* what exists and is not a regular file is refused before it is opened
   * (opening a FIFO waits for a reader); O_NONBLOCK: should the path
   * become a FIFO after the check, the open returns at once (and fstat
   * refuses it) */
  if (g_stat (location, &st) == 0 && !S_ISREG (st.st_mode))
    goto not_regular;
  fd = g_open (location, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd < 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, OPEN_WRITE,
        ("Could not open \"%s\" to write the %s", location, what), ("%s", g_strerror (errno)));
    return FALSE;
  }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)) {
    close (fd);
    goto not_regular;
  }
  e = g_new0 (GstCudaMotionExport, 1);
  e->fd = fd;
  e->location = g_strdup (location);
  e->what = what;
  e->line = g_string_new (NULL);
  e->end = st.st_size;
  *export = e;
  return TRUE;

not_regular:
  GST_ELEMENT_ERROR (element, RESOURCE, OPEN_WRITE,
      ("Could not write the %s to \"%s\": not a regular file", what, location),
      ("a FIFO, a socket or a device as location would block the element or end the process with a "
          "signal: write to a regular file (and follow it with tail -f, or read it after EOS)"));
  return FALSE;
}

/* write(2) that cannot end the process: a file-size limit (ulimit -f)
 * makes the write that crosses it raise SIGXFSZ, whose default action
 * kills.  A library must leave the process's signal dispositions to the
 * application, but may block a signal in its own thread: blocked, the
 * write fails with EFBIG instead, and the SIGXFSZ it left pending on this
 * thread is taken before the old mask returns (not one that was pending
 * already). */
static gssize
write_without_signal (gint fd, const gchar * data, gsize len)
{
  static const struct timespec no_wait = { 0, 0 };
  sigset_t xfsz, old, pending;
  gboolean was_pending;
  gssize n;
  gint saved;

  sigemptyset (&xfsz);
  sigaddset (&xfsz, SIGXFSZ);
  pthread_sigmask (SIG_BLOCK, &xfsz, &old);
  was_pending = sigpending (&pending) == 0 && sigismember (&pending, SIGXFSZ);
  n = write (fd, data, len);
  saved = errno;
  if (n < 0 && saved == EFBIG && !was_pending && !sigismember (&old, SIGXFSZ))
    sigtimedwait (&xfsz, NULL, &no_wait);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  errno = saved;
  return n;
}

/* Writes export->line whole, or takes its part out again and posts why. */
static gboolean
write_line (GstCudaMotionExport * export, GstElement * element)
{
  const gchar *data = export->line->str;
  gsize left = export->line->len;
  gint err = 0;

  if (export->failed)
    return FALSE;
  while (left > 0) {
    gssize n = write_without_signal (export->fd, data, left);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      err = n < 0 ? errno : ENOSPC;
      break;
    }
    data += n;
    left -= (gsize) n;
  }
  if (err == 0) {
    export->end += (off_t) export->line->len;
    export->lines++;
    return TRUE;
  }
  /* a part of a line is worth less than none: readers take every line
   * as a frame */
  if (data != export->line->str && ftruncate (export->fd, export->end) != 0)
    GST_WARNING_OBJECT (element, "could not take the part line out of %s: %s", export->location,
        g_strerror (errno));
  export->failed = TRUE;
  if (err == ENOSPC || err == EDQUOT)
    GST_ELEMENT_ERROR (element, RESOURCE, NO_SPACE_LEFT, ("No space left to write the %s to \"%s\"",
            export->what, export->location), ("%s; %" G_GUINT64_FORMAT " whole lines written", g_strerror (err),
            export->lines));
  else
    GST_ELEMENT_ERROR (element, RESOURCE, WRITE, ("Could not write the %s to \"%s\"", export->what,
            export->location), ("%s; %" G_GUINT64_FORMAT " whole lines written", g_strerror (err), export->lines));
  return FALSE;
}

gboolean
gst_cuda_motion_export_vectors (GstCudaMotionExport * export, GstElement * element,
    const GstCudaMotionFrameInfo * info, GstClockTime pts, const GcvMotionVector * vectors)
{
  json_line (export->line, info, pts, vectors);
  return write_line (export, element);
}

gboolean
gst_cuda_motion_export_points (GstCudaMotionExport * export, GstElement * element,
    const GstCudaMotionPointsInfo * info, GstClockTime pts, const GcvVcmPoint * points, guint n_points)
{
  json_points_line (export->line, info, pts, points, n_points);
  return write_line (export, element);
}

gboolean
gst_cuda_motion_export_finish (GstCudaMotionExport * export, GstElement * element)
{
  if (export->failed)
    return FALSE;
  if (fdatasync (export->fd) == 0)
    return TRUE;
  export->failed = TRUE;
  GST_ELEMENT_ERROR (element, RESOURCE, WRITE, ("Could not finish writing the %s to \"%s\"", export->what,
          export->location), ("fdatasync: %s", g_strerror (errno)));
  return FALSE;
}

void
gst_cuda_motion_export_close (GstCudaMotionExport ** export, GstElement * element)
{
  GstCudaMotionExport *e = *export;

  if (e == NULL)
    return;
  *export = NULL;
  /* after EINTR the descriptor is closed all the same (Linux): no retry */
  if (close (e->fd) != 0 && errno != EINTR && !e->failed)
    GST_ELEMENT_ERROR (element, RESOURCE, CLOSE, ("Could not finish writing the %s to \"%s\"", e->what,
            e->location), ("close: %s", g_strerror (errno)));
  g_string_free (e->line, TRUE);
  g_free (e->location);
  g_free (e);
}

const gchar *
gst_cuda_motion_export_refuses_change (GstElement * element)
{
  if (GST_STATE (element) <= GST_STATE_READY)
    return NULL;
  return "the export file cannot change while the element is PAUSED or PLAYING (set it in the NULL or "
      "READY state)";
}
