/* gst-cuda-video: every number read from (or written to) a text file is
 * the same under a locale whose decimal point is ',' (de_DE.UTF-8, as a
 * GStreamer application that called setlocale (LC_ALL, "") in Germany
 * runs): cpuconv3d's kernel-file ("0.5" was refused as not a finite number
 * by the C library's strtod), cpudibr's camera-file, and the JSON-lines
 * export of cpumotionest and cpuvcm (fractions with '.').
 *
 * The whole program runs under LC_ALL=de_DE.UTF-8 (set with setlocale in
 * main); it exits 77 (skipped), saying why, where that locale cannot be set
 * (scripts/setup.sh generates it).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <locale.h>
#include <math.h>
#include <glib/gstdio.h>

#include "gcv-check.h"
#include "conv3d.h"
#include "dibr.h"

static const gchar *const conv3d_names[] = { "cpuconv3d", "cudaconv3d" };

/* A kernel of 27 values with fractions, as a file would hold it. */
static const gchar kernel_text[] = "# t = 0\n0.5 0.25 0.125, 1.5 2.75 -0.5\n1e-1 2.5E0 0.0625\n"
    "0.5 0.25 0.125 1.5 2.75 -0.5 0.1 2.5 0.0625\n0.5 0.25 0.125 1.5 2.75 -0.5 0.1 2.5 0.0625\n";
static const gfloat kernel_values[9] = { 0.5f, 0.25f, 0.125f, 1.5f, 2.75f, -0.5f, 0.1f, 2.5f, 0.0625f };

/* the parser itself: every value as in the C locale, commas separating */
GST_START_TEST (test_kernel_parse)
{
  float *v = NULL;
  int n = 0, i;
  const char *why = gcv_conv3d_kernel_parse (kernel_text, &v, &n);

  fail_unless (why == NULL, "the kernel was refused: %s", why);
  fail_unless_equals_int (n, 27);
  for (i = 0; i < n; i++)
    fail_unless (v[i] == kernel_values[i % 9], "value %d: %g, expected %g", i, v[i], kernel_values[i % 9]);
  free (v);
  /* "1,5" is two numbers, as in every locale */
  why = gcv_conv3d_kernel_parse ("1,5", &v, &n);
  fail_unless (why == NULL && n == 2 && v[0] == 1.0f && v[1] == 5.0f, "\"1,5\": %s, %d values",
      GST_STR_NULL (why), n);
  free (v);
}

GST_END_TEST;

/* kernel-file on the elements: read, the coefficients property says so */
GST_START_TEST (test_kernel_file)
{
  gchar *dir = g_dir_make_tmp ("locale-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "k.txt", NULL);
  guint i, k;

  fail_unless (g_file_set_contents (path, kernel_text, -1, NULL));
  for (i = 0; i < G_N_ELEMENTS (conv3d_names); i++) {
    GstElement *e = gst_element_factory_make (conv3d_names[i], NULL);
    GValue coefficients = G_VALUE_INIT;
    gchar *file = NULL;

    fail_unless (e != NULL, "no element %s", conv3d_names[i]);
    g_object_set (e, "kernel-file", path, NULL);
    g_object_get (e, "kernel-file", &file, NULL);
    fail_unless_equals_string (file, path);
    g_value_init (&coefficients, GST_TYPE_ARRAY);
    g_object_get_property (G_OBJECT (e), "coefficients", &coefficients);
    fail_unless_equals_int (gst_value_array_get_size (&coefficients), 27);
    for (k = 0; k < 27; k++) {
      gfloat c = g_value_get_float (gst_value_array_get_value (&coefficients, k));
      fail_unless (c == kernel_values[k % 9], "%s: coefficient %u is %g, expected %g", conv3d_names[i], k, c,
          kernel_values[k % 9]);
    }
    g_value_unset (&coefficients);
    g_free (file);
    gst_object_unref (e);
  }
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* the camera file (what cpudibr's camera-file loads): every value exact */
GST_START_TEST (test_camera_file)
{
  static const gchar text[] = "{\"source\": {\"intrinsics\": [1234.5678, 0.25, 639.5, 0, 1e3, -12.5e-1, 0, 0, 1]},\n"
      " \"virtual\": {\"intrinsics\": {\"fx\": 987.654321012345, \"fy\": 1000.5, \"cx\": 620.125, \"cy\": 0.1},\n"
      "  \"extrinsics\": [0.9962, 0, -0.0872, -0.06, 0, 1, 0, 0, 0.0872, 0, 0.9962, 0, 0, 0, 0, 1]}}\n";
  gchar *dir = g_dir_make_tmp ("locale-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "cameras.json", NULL);
  GcvDibrCamera s, v;
  GcvError err = { GCV_OK, "" };

  fail_unless (g_file_set_contents (path, text, -1, NULL));
  fail_unless (gcv_dibr_camera_file_load (path, &s, &v, &err) == GCV_OK, "%s", err.message);
  fail_unless (s.K[0] == 1234.5678 && s.K[1] == 0.25 && s.K[2] == 639.5 && s.K[4] == 1000.0 && s.K[5] == -1.25,
      "source K: %g %g %g %g %g", s.K[0], s.K[1], s.K[2], s.K[4], s.K[5]);
  fail_unless (v.K[0] == 987.654321012345 && v.K[4] == 1000.5 && v.K[2] == 620.125 && v.K[5] == 0.1,
      "virtual K: %g %g %g %g", v.K[0], v.K[4], v.K[2], v.K[5]);
  fail_unless (v.E[0] == 0.9962 && v.E[2] == -0.0872 && v.E[3] == -0.06 && v.E[8] == 0.0872, "virtual E: %g %g %g %g",
      v.E[0], v.E[2], v.E[3], v.E[8]);
  /* and the element starts with it */
  {
    GstElement *e = gst_element_factory_make ("cpudibr", NULL);
    GstBus *bus = gst_bus_new ();

    gst_element_set_bus (e, bus);
    g_object_set (e, "camera-file", path, NULL);
    fail_unless (gst_element_set_state (e, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE,
        "cpudibr did not start with the camera file");
    fail_unless (bus_count (bus, GST_MESSAGE_ERROR, 0, NULL) == 0);
    gst_element_set_state (e, GST_STATE_NULL);
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
    gst_object_unref (e);
  }
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* The JSON-lines export: every record of 5 numbers (a decimal comma would
 * split "0,25" in two), fractions written with '.', as in any locale. */
GST_START_TEST (test_export)
{
  static const gchar *const elements[][2] = {
    {"cpumotionest", "subpel=quarter search-range-x=8 search-range-y=8"},
    {"cpuvcm", "window-size=8"},
  };
  gchar *dir = g_dir_make_tmp ("locale-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "lines.jsonl", NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (elements); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc pattern=ball num-buffers=6 ! video/x-raw,format=GRAY8,width=96,"
        "height=64 ! %s location=%s %s ! fakesink", elements[i][0], path, elements[i][1]);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    gchar *text = NULL, **lines;
    guint l, records = 0, fractions = 0;

    fail_unless (pipe != NULL, "%s", desc);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = bus_pop_type (bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s did not reach EOS", elements[i][0]);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    fail_unless (g_file_get_contents (path, &text, NULL, NULL));
    lines = g_strsplit (text, "\n", -1);
    fail_unless_equals_int (g_strv_length (lines), 7);
    for (l = 0; l < 6; l++) {
      /* the records: "[a,b,c,d,e]" after "blocks":[ or "points":[ */
      const gchar *p = strstr (lines[l], i == 0 ? "\"blocks\":[" : "\"points\":[");
      fail_unless (p != NULL, "%s: line %u has no records", elements[i][0], l);
      p += strlen ("\"blocks\":[");
      while (*p == '[') {
        const gchar *end = strchr (p, ']');
        gchar *record = g_strndup (p + 1, end - p - 1), **nums = g_strsplit (record, ",", -1);
        guint k;
        fail_unless_equals_int (g_strv_length (nums), 5);
        for (k = 0; k < 5; k++) {
          gchar *e;
          gdouble v = g_ascii_strtod (nums[k], &e);
          fail_unless (*e == '\0' && isfinite (v), "%s: \"%s\" is not a number", elements[i][0], nums[k]);
          fractions += strchr (nums[k], '.') != NULL && v != floor (v);
        }
        records++;
        g_strfreev (nums);
        g_free (record);
        p = end + 1 + (end[1] == ',');
      }
    }
    fail_unless (records > 0 && fractions > 0, "%s: %u records, %u fractions: the case tests nothing",
        elements[i][0], records, fractions);
    GST_INFO ("%s: %u records, %u fractions", elements[i][0], records, fractions);
    g_strfreev (lines);
    g_free (text);
    g_unlink (path);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_free (desc);
  }
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

static Suite *
locale_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("locale", FALSE, &s);

  tcase_add_test (tc, test_kernel_parse);
  tcase_add_test (tc, test_kernel_file);
  tcase_add_test (tc, test_camera_file);
  tcase_add_test (tc, test_export);
  return s;
}

int
main (int argc, char **argv)
{
  static const gchar *const names[] = { "de_DE.UTF-8", "de_DE.utf8" };
  const gchar *set = NULL;
  guint i;

  gst_check_init (&argc, &argv);
  for (i = 0; i < G_N_ELEMENTS (names) && set == NULL; i++)
    set = setlocale (LC_ALL, names[i]);
  if (set == NULL || strcmp (localeconv ()->decimal_point, ",") != 0) {
    g_print ("SKIP: the locale de_DE.UTF-8 (decimal point ',') is not available here (scripts/setup.sh "
        "generates it with localedef)\n");
    return 77;
  }
  g_print ("running under LC_ALL=%s (decimal point '%s')\n", set, localeconv ()->decimal_point);
  return gst_check_run_suite (locale_suite (), "locale", __FILE__);
}
