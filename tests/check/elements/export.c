/* gst-cuda-video: the JSON-lines export of cudamotionest and cudavcm (and
 * their cpu* twins), as a file: what the location property leaves behind.
 *
 *  - complete at EOS: when the EOS message comes, before the state change
 *    to NULL, the file holds every frame's line, whole (stdio used to keep
 *    the last lines, one cut in the middle, until NULL);
 *  - a full filesystem (a 16 KiB tmpfs the test mounts; skipped, saying
 *    why, when not root or when mounting is refused): an ERROR
 *    (NO_SPACE_LEFT) before EOS, and the file holds whole lines only (it
 *    used to be an exit code 0 and a warning in the debug log);
 *  - a file-size limit (RLIMIT_FSIZE, on gst-launch-1.0): an ERROR, and
 *    the process is not killed by SIGXFSZ;
 *  - what is not a regular file (a FIFO with and without a reader, a
 *    directory, /dev/null): refused at start with an error, at once (a
 *    FIFO without a reader used to block the state change forever);
 *  - location (and append) cannot change while the file is open (PAUSED,
 *    PLAYING): a warning, the value kept;
 *  - location is emptied at start, append=true keeps what it holds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gcv-check.h"

static const gchar *const names[] = { "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm" };

#define N_FRAMES 12

/* Settings and a source pattern that make long lines: @name's line for a
 * 160x120 frame is about 5 KB, for a 320x240 one (@large) 70 to 150 KB. */
static gchar *
long_lines (const gchar * name, gboolean large)
{
  if (!g_str_has_suffix (name, "vcm"))
    return g_strdup_printf ("block-width=%d block-height=%d", large ? 4 : 8, large ? 4 : 8);
  return g_strdup ("window-size=8 points-per-window=8 max-points=4000");
}

/* A pipeline of @n_frames moving GRAY8 frames of @w x @h through @name
 * (with @props) into fakesink. */
static GstElement *
export_pipeline (const gchar * name, const gchar * props, gint n_frames, gint w, gint h)
{
  gchar *desc = g_strdup_printf ("videotestsrc pattern=ball num-buffers=%d ! video/x-raw,format=GRAY8,width=%d,"
      "height=%d,framerate=30/1 ! %s name=e %s ! fakesink sync=false", n_frames, w, h, name, props);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);

  fail_unless (pipe != NULL, "%s: %s", desc, err ? err->message : "?");
  g_free (desc);
  return pipe;
}

/* Plays @pipe and returns the first EOS or ERROR message (60 s at most). */
static GstMessage *
run_to_end (GstElement * pipe)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = bus_pop_type (bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  fail_unless (msg != NULL, "neither EOS nor an error within 60 s");
  return msg;
}

/* The lines of @path: every one ends with '\n' and is a JSON object whose
 * "frame" is its index.  Returns their number. */
static guint
check_whole_lines (const gchar * path, const gchar * what)
{
  gchar *text = NULL, **lines;
  gsize len;
  guint n, i;

  fail_unless (g_file_get_contents (path, &text, &len, NULL), "%s: cannot read %s", what, path);
  fail_unless (len == 0 || text[len - 1] == '\n', "%s: the file ends in the middle of a line", what);
  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines) - 1;
  for (i = 0; i < n; i++) {
    JsonParser *parser = json_parser_new ();
    GError *err = NULL;
    JsonObject *o;

    fail_unless (json_parser_load_from_data (parser, lines[i], -1, &err), "%s: line %u is not JSON: %s", what,
        i, err ? err->message : "?");
    o = json_node_get_object (json_parser_get_root (parser));
    fail_unless (o != NULL && json_object_get_int_member (o, "frame") == (gint64) i, "%s: line %u is not frame %u", what,
        i, i);
    g_object_unref (parser);
  }
  g_strfreev (lines);
  g_free (text);
  return n;
}

/* At EOS, before NULL: every line, whole. */
GST_START_TEST (test_complete_at_eos)
{
  gchar *dir = g_dir_make_tmp ("export-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *props = g_strdup_printf ("location=%s", path);
    GstElement *pipe = export_pipeline (names[i], props, N_FRAMES, 64, 48);
    GstMessage *msg = run_to_end (pipe);

    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");

    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: an error instead of EOS", names[i]);
    gst_message_unref (msg);
    /* (with GST_CUDA_VIDEO_REQUIRE_GPU=1, cuda* on the GPU: its frames
     * in flight write their lines too) */
    check_backend (e, names[i]);
    gst_object_unref (e);
    /* still PLAYING: the file must be complete already */
    fail_unless_equals_int (check_whole_lines (path, names[i]), N_FRAMES);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    g_unlink (path);
    g_free (props);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* A full filesystem: an ERROR before EOS, whole lines only. */
GST_START_TEST (test_full_filesystem)
{
  gchar *dir = g_dir_make_tmp ("export-full-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  guint i;

  if (geteuid () != 0 || mount ("gcv-export-test", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=16k") != 0) {
    g_print ("SKIP test_full_filesystem: cannot mount a small tmpfs (%s)\n", geteuid () != 0 ? "not root" :
        g_strerror (errno));
    g_rmdir (dir);
    g_free (path);
    g_free (dir);
    return;
  }
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    /* about 5 KB a line: a few lines fit, then the tmpfs is full */
    gchar *settings = long_lines (names[i], FALSE);
    gchar *props = g_strdup_printf ("location=%s %s", path, settings);
    GstElement *pipe = export_pipeline (names[i], props, 8, 160, 120);
    GstMessage *msg = run_to_end (pipe);
    GError *err = NULL;
    gchar *dbg = NULL;
    guint lines;

    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR, "%s: EOS although the filesystem is full",
        names[i]);
    gst_message_parse_error (msg, &err, &dbg);
    GST_INFO ("%s: %s (%s)", names[i], err->message, dbg);
    fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT), "%s: %s",
        names[i], err->message);
    fail_unless (strstr (err->message, path) != NULL, "%s: the error does not name the file: %s", names[i],
        err->message);
    lines = check_whole_lines (path, names[i]);
    fail_unless (lines >= 1 && lines < 8, "%s: %u lines in a full 16 KiB", names[i], lines);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    g_unlink (path);
    g_free (props);
    g_free (settings);
  }
  fail_unless (umount2 (dir, MNT_DETACH) == 0, "umount %s: %s", dir, g_strerror (errno));
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* A file-size limit: the write that crosses it raises SIGXFSZ, which kills
 * by default: an ERROR instead, and the process lives on.  gst-launch-1.0
 * runs the pipeline under the limit (100000 bytes: above the 64 KiB files
 * of ORC's code regions), so that it binds nothing else; lines of 70 KB
 * and more (vcm: on a noise pattern, full of interest points). */
static void
limit_file_size (gpointer unused)
{
  struct rlimit limit = { 100000, 100000 };

  setrlimit (RLIMIT_FSIZE, &limit);
}

GST_START_TEST (test_file_size_limit)
{
  gchar *dir = g_dir_make_tmp ("export-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *settings = long_lines (names[i], TRUE);
    gchar *pipeline = g_strdup_printf ("gst-launch-1.0 videotestsrc pattern=snow num-buffers=4 ! "
        "video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1 ! %s location=%s %s ! fakesink", names[i],
        path, settings);
    gchar **argv = g_strsplit (pipeline, " ", -1);
    gchar *out = NULL, *err = NULL;
    GError *error = NULL;
    gint status;

    fail_unless (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, limit_file_size, NULL, &out, &err, &status,
            &error), "gst-launch-1.0: %s", error ? error->message : "?");
    GST_INFO ("%s: %s%s", names[i], out, err);
    fail_if (WIFSIGNALED (status), "%s: killed by signal %d (%s)", names[i], WTERMSIG (status),
        g_strsignal (WTERMSIG (status)));
    fail_unless (WIFEXITED (status) && WEXITSTATUS (status) != 0, "%s: exit 0 past the file-size limit",
        names[i]);
    fail_unless (strstr (out, path) != NULL || strstr (err, path) != NULL, "%s: no error naming the file:\n%s%s",
        names[i], out, err);
    fail_unless (check_whole_lines (path, names[i]) >= 1);
    g_unlink (path);
    g_free (out);
    g_free (err);
    g_strfreev (argv);
    g_free (pipeline);
    g_free (settings);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* Not a regular file: refused at start, at once. */
GST_START_TEST (test_not_regular)
{
  gchar *dir = g_dir_make_tmp ("export-XXXXXX", NULL);
  gchar *fifo = g_build_filename (dir, "fifo", NULL);
  const gchar *const where[] = { fifo, fifo, dir, "/dev/null" };
  guint i, w;

  /* (a FIFO without a reader: the old fopen waited forever) */
  fail_unless (mkfifo (fifo, 0600) == 0, "mkfifo: %s", g_strerror (errno));
  for (w = 0; w < G_N_ELEMENTS (where); w++) {
    /* the second time with a reader, which used to get SIGPIPE when it
     * went */
    gint reader = w == 1 ? open (fifo, O_RDONLY | O_NONBLOCK) : -1;

    for (i = 0; i < G_N_ELEMENTS (names); i++) {
      GstElement *e = gst_element_factory_make (names[i], NULL);
      GstBus *bus = gst_bus_new ();
      gchar *text = NULL;

      gst_element_set_bus (e, bus);
      g_object_set (e, "location", where[w], NULL);
      fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE, "%s started "
          "with location %s", names[i], where[w]);
      fail_unless (bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR, &text) == 1, "%s: no error", names[i]);
      fail_unless (strstr (text, "not a regular file") && strstr (text, where[w]), "%s: %s", names[i], text);
      gst_element_set_state (e, GST_STATE_NULL);
      gst_bus_set_flushing (bus, TRUE);
      gst_object_unref (bus);
      gst_object_unref (e);
      g_free (text);
    }
    if (reader >= 0)
      close (reader);
  }
  g_unlink (fifo);
  g_rmdir (dir);
  g_free (fifo);
  g_free (dir);
}

GST_END_TEST;

/* location and append are the open file's while PAUSED or PLAYING: a
 * change is refused with a warning, the file goes on. */
GST_START_TEST (test_location_while_running)
{
  gchar *dir = g_dir_make_tmp ("export-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  gchar *other = g_build_filename (dir, "other.jsonl", NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *props = g_strdup_printf ("location=%s", path);
    GstElement *pipe = export_pipeline (names[i], props, N_FRAMES, 64, 48);
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), "e");
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    gchar *now = NULL;
    gboolean append = TRUE;
    guint refusals = 0;

    fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS);
    g_object_set (e, "location", other, "append", TRUE, NULL);
    g_object_get (e, "location", &now, "append", &append, NULL);
    fail_unless_equals_string (now, path);
    fail_if (append, "%s: append changed while PAUSED", names[i]);
    /* one warning each (cuda* without a GPU also warn that they fall back) */
    while ((msg = bus_pop_type (bus, 0, GST_MESSAGE_WARNING)) != NULL) {
      GError *err = NULL;
      gst_message_parse_warning (msg, &err, NULL);
      GST_INFO ("%s: %s", names[i], err->message);
      refusals += strstr (err->message, "refused") != NULL && strstr (err->message, "PAUSED or PLAYING") != NULL;
      g_error_free (err);
      gst_message_unref (msg);
    }
    fail_unless_equals_int (refusals, 2);
    msg = run_to_end (pipe);
    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
    fail_unless_equals_int (check_whole_lines (path, names[i]), N_FRAMES);
    fail_if (g_file_test (other, G_FILE_TEST_EXISTS), "%s wrote to the refused location", names[i]);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    /* stopped: it may change */
    g_object_set (e, "location", other, NULL);
    g_free (now);
    g_object_get (e, "location", &now, NULL);
    fail_unless_equals_string (now, other);
    g_unlink (path);
    g_free (now);
    g_free (props);
    gst_object_unref (bus);
    gst_object_unref (e);
    gst_object_unref (pipe);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (other);
  g_free (dir);
}

GST_END_TEST;

/* location is emptied at start (frame numbers restart at 0 with every
 * run: two runs used to leave 2 N lines numbered 0 .. N-1 twice);
 * append=true keeps what the file holds, as filesink's append. */
GST_START_TEST (test_append)
{
  gchar *dir = g_dir_make_tmp ("export-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  const gchar *earlier = "{\"an earlier line\":true}\n";
  guint i, run, append;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    gchar *text = NULL;

    /* emptied: what was there, and the first run, are gone; with
     * append=true: the earlier line, then both runs, numbered from 0 */
    for (append = 0; append < 2; append++) {
      fail_unless (g_file_set_contents (path, earlier, -1, NULL));
      for (run = 0; run < 2; run++) {
        gchar *props = g_strdup_printf ("location=%s append=%s", path, append ? "true" : "false");
        GstElement *pipe = export_pipeline (names[i], props, 5 + run, 64, 48);
        GstMessage *msg = run_to_end (pipe);
        fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
        gst_message_unref (msg);
        gst_element_set_state (pipe, GST_STATE_NULL);
        gst_object_unref (pipe);
        g_free (props);
      }
      if (!append)
        fail_unless_equals_int (check_whole_lines (path, names[i]), 6);
    }
    fail_unless (g_file_get_contents (path, &text, NULL, NULL));
    fail_unless (g_str_has_prefix (text, earlier), "%s: append=true lost what the file held", names[i]);
    {
      gchar **lines = g_strsplit (text + strlen (earlier), "\n", -1);
      guint k;
      fail_unless_equals_int (g_strv_length (lines), 5 + 6 + 1);
      for (k = 0; k < 11; k++) {
        gchar *head = g_strdup_printf ("{\"frame\":%u,", k < 5 ? k : k - 5);
        fail_unless (g_str_has_prefix (lines[k], head), "%s: line %u is %.40s", names[i], k, lines[k]);
        g_free (head);
      }
      g_strfreev (lines);
    }
    g_free (text);
    g_unlink (path);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

static Suite *
export_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("export", FALSE, &s);

  tcase_add_test (tc, test_complete_at_eos);
  tcase_add_test (tc, test_full_filesystem);
  tcase_add_test (tc, test_file_size_limit);
  tcase_add_test (tc, test_not_regular);
  tcase_add_test (tc, test_location_while_running);
  tcase_add_test (tc, test_append);
  return s;
}

GST_CHECK_MAIN (export);
