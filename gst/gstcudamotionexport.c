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
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

struct _GstCudaMotionExport
{
  gint fd;
  gchar *location;
  const gchar *what;
  JsonGenerator *generator;     /* compact: one object, one line */
  GString *line;                /* the line being written */
  guint64 lines;                /* whole lines this run wrote */
  off_t end;                    /* the file's size after the last whole line */
  gboolean failed;              /* an error was posted: post no other */
};

/* ---- the lines ------------------------------------------------------------ */

/* A line's object with the fields every line starts with: frame, pts
 * (null when the buffer has none), has_reference, width, height.  Members
 * are written in the order they are set. */
static JsonObject *
line_begin (guint64 frame, GstClockTime pts, gboolean has_reference, gint width, gint height)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "frame", (gint64) frame);
  if (GST_CLOCK_TIME_IS_VALID (pts))
    json_object_set_int_member (o, "pts", (gint64) pts);
  else
    json_object_set_null_member (o, "pts");
  json_object_set_boolean_member (o, "has_reference", has_reference);
  json_object_set_int_member (o, "width", width);
  json_object_set_int_member (o, "height", height);
  return o;
}

/* "fields": the names of a record's numbers. */
static void
set_fields (JsonObject * o, const gchar * const *names)
{
  JsonArray *a = json_array_new ();

  for (; *names != NULL; names++)
    json_array_add_string_element (a, *names);
  json_object_set_array_member (o, "fields", a);
}

/* A displacement of @q quarter pixels, in pixels: a whole number as an
 * integer ("2", where a double would be "2.0"), the others as a double,
 * which json-glib writes with %.17g: exactly, as a multiple of 1/4 has at
 * most two decimals ("-1.25"). */
static void
add_pixels (JsonArray * a, gint32 q)
{
  if (q % 4 == 0)
    json_array_add_int_element (a, q / 4);
  else
    json_array_add_double_element (a, q / 4.0);
}

/* A point's float, written with the digits that read back as the same
 * float: what the meta holds.  JSON has no NaN or infinity: null. */
static void
add_float (JsonArray * a, gfloat v)
{
  if (isfinite (v))
    json_array_add_double_element (a, v);
  else
    json_array_add_null_element (a);
}

/* @o as one line of JSON and a newline into export->line (takes @o). */
static void
line_end (GstCudaMotionExport * export, JsonObject * o)
{
  JsonNode *root = json_node_init_object (json_node_alloc (), o);

  json_object_unref (o);
  json_generator_set_root (export->generator, root);
  json_node_unref (root);
  g_string_truncate (export->line, 0);
  json_generator_to_gstring (export->generator, export->line);
  g_string_append_c (export->line, '\n');
  /* the generator's copy holds the frame's tree: let it go now */
  json_generator_set_root (export->generator, NULL);
}

static void
vectors_line (GstCudaMotionExport * export, const GstCudaMotionFrameInfo * info, GstClockTime pts,
    const GcvMotionVector * vectors)
{
  static const gchar *const fields[] = { "x", "y", "dx", "dy", "sad", NULL };
  const GcvMotionParams *p = info->params;
  JsonObject *o = line_begin (info->frame, pts, info->has_reference, info->width, info->height);
  JsonArray *blocks;
  guint n = gst_cuda_motion_n_blocks (info), i;

  json_object_set_int_member (o, "block_width", p->block_width);
  json_object_set_int_member (o, "block_height", p->block_height);
  json_object_set_int_member (o, "grid_width", gcv_motion_grid_cols (info->width, p));
  json_object_set_int_member (o, "grid_height", gcv_motion_grid_rows (info->height, p));
  json_object_set_string_member (o, "method", p->method == GCV_MOTION_METHOD_MODS ? "mods" : "full");
  json_object_set_int_member (o, "subpel", (gint) p->subpel);
  set_fields (o, fields);
  blocks = json_array_sized_new (n);
  for (i = 0; i < n; i++) {
    const GcvMotionVector *v = &vectors[i];
    JsonArray *b = json_array_sized_new (5);

    json_array_add_int_element (b, v->x);
    json_array_add_int_element (b, v->y);
    add_pixels (b, v->dx);
    add_pixels (b, v->dy);
    json_array_add_int_element (b, v->sad);
    json_array_add_array_element (blocks, b);
  }
  json_object_set_array_member (o, "blocks", blocks);
  line_end (export, o);
}

static void
points_line (GstCudaMotionExport * export, const GstCudaMotionPointsInfo * info, GstClockTime pts,
    const GcvVcmPoint * points, guint n_points)
{
  static const gchar *const fields[] = { "x", "y", "dx", "dy", "score", NULL };
  JsonObject *o = line_begin (info->frame, pts, info->has_reference, info->width, info->height);
  JsonArray *records;
  guint i;

  json_object_set_int_member (o, "n_points", n_points);
  json_object_set_int_member (o, "window_size", info->params->window_size);
  json_object_set_int_member (o, "template_size", info->params->template_size);
  json_object_set_int_member (o, "search_size", info->params->search_size);
  set_fields (o, fields);
  records = json_array_sized_new (n_points);
  for (i = 0; i < n_points; i++) {
    const GcvVcmPoint *pt = &points[i];
    JsonArray *r = json_array_sized_new (5);

    add_float (r, pt->x);
    add_float (r, pt->y);
    add_float (r, pt->dx);
    add_float (r, pt->dy);
    add_float (r, pt->score);
    json_array_add_array_element (records, r);
  }
  json_object_set_array_member (o, "points", records);
  line_end (export, o);
}

/* ---- the file ------------------------------------------------------------ */

gboolean
gst_cuda_motion_export_open (GstElement * element, const gchar * location, gboolean append,
    const gchar * what, GstCudaMotionExport ** export)
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
  fd = g_open (location, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | (append ? O_APPEND : O_TRUNC), 0666);
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
  e->generator = json_generator_new ();
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
  vectors_line (export, info, pts, vectors);
  return write_line (export, element);
}

gboolean
gst_cuda_motion_export_points (GstCudaMotionExport * export, GstElement * element,
    const GstCudaMotionPointsInfo * info, GstClockTime pts, const GcvVcmPoint * points, guint n_points)
{
  points_line (export, info, pts, points, n_points);
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
  g_object_unref (e->generator);
  g_string_free (e->line, TRUE);
  g_free (e->location);
  g_free (e);
}

const gchar *
gst_cuda_motion_export_refuses_change (GstElement * element)
{
  if (GST_STATE (element) <= GST_STATE_READY)
    return NULL;
  return "the export file cannot change while the element is PAUSED or PLAYING (set location and append "
      "in the NULL or READY state)";
}
