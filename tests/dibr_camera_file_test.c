/* gst-cuda-video: the DIBR camera file (cpu/dibr_camera_file.c, format in
 * cpu/dibr.h): json-glib reads it after a strict check of the text.
 *
 *  - good files: K as 9 numbers and as {fx, fy, cx, cy, skew}, with and
 *    without extrinsics (identity), a rotated and moved virtual camera
 *    printed with %.17g: every value lands in GcvDibrCamera exactly (==);
 *    white space of all kinds, CRLF, a byte-order mark, escaped keys,
 *    numbers with exponents; the same values under a locale whose decimal
 *    point is ',' (when the system has one); the cameras are usable by
 *    gcv_dibr_warp_make();
 *  - every kind of bad file gives GCV_ERROR_INVALID, leaves the outputs
 *    alone, and a message "camera.json:<line>:<col>: ..." whose position is
 *    that of the offending text and which holds the expected key words:
 *    empty, not JSON, wrong types, wrong counts, missing and unknown and
 *    duplicate keys, bad matrices, deep nesting, huge numbers, NaN and
 *    Infinity, trailing commas, trailing garbage, comments, bad strings;
 *    and what json-glib 1.6 alone would take or misread: integers beyond
 *    64 bits (read as -1), \u0000 in a key (read as the key's end);
 *  - _load(): a file, a missing file, a directory, a file over the size
 *    limit, a NUL byte (messages name the path).
 * Run under valgrind by hand: valgrind --leak-check=full --error-exitcode=1.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dibr.h"
#include "gcv-test.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NAME "camera.json"

/* Line:column (from 1, columns in characters) of the first occurrence of
 * `at` in text, worked out here independently of the reader. */
static void
pos_of (const char *text, size_t len, const char *at, char *out, size_t size)
{
  size_t i, n = strlen (at), off = len;
  int line = 1, col = 1;

  for (i = 0; i + n <= len; i++)
    if (memcmp (text + i, at, n) == 0) {
      off = i;
      break;
    }
  for (i = 0; i < off; i++) {
    if (text[i] == '\n')
      line++, col = 1;
    else if (((unsigned char) text[i] & 0xc0) != 0x80)
      col++;
  }
  snprintf (out, size, NAME ":%d:%d: ", line, col);
}

static void
camera_fill (GcvDibrCamera * c, double v)
{
  int i;

  for (i = 0; i < 9; i++)
    c->K[i] = v;
  for (i = 0; i < 16; i++)
    c->E[i] = v;
}

static int
camera_is (const GcvDibrCamera * c, double v)
{
  int i;

  for (i = 0; i < 9; i++)
    if (c->K[i] != v)
      return 0;
  for (i = 0; i < 16; i++)
    if (c->E[i] != v)
      return 0;
  return 1;
}

static int
camera_equal (const GcvDibrCamera * a, const GcvDibrCamera * b)
{
  return memcmp (a->K, b->K, sizeof (a->K)) == 0 && memcmp (a->E, b->E, sizeof (a->E)) == 0;
}

static void
identity (double *E)
{
  int i;

  for (i = 0; i < 16; i++)
    E[i] = (i % 5 == 0) ? 1.0 : 0.0;
}

/* A good text (len: -1 = strlen): parses, both cameras equal the expected. */
static void
expect_good (const char *label, const char *text, long len, const GcvDibrCamera * es, const GcvDibrCamera * ev)
{
  GcvDibrCamera s, v;
  GcvError err = { GCV_OK, "" };
  GcvStatus st;

  camera_fill (&s, -7.0);
  camera_fill (&v, -7.0);
  st = gcv_dibr_camera_file_parse (text, len < 0 ? strlen (text) : (size_t) len, NAME, &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_OK, "%s: status %d: %s", label, st, err.message);
  if (st != GCV_OK)
    return;
  GCV_TEST_CHECK (camera_equal (&s, es), "%s: source camera differs", label);
  GCV_TEST_CHECK (camera_equal (&v, ev), "%s: virtual camera differs", label);
}

/* A bad text: GCV_ERROR_INVALID, outputs untouched, the message starts with
 * the position of the first `at` in the text, or of "@line:col" (NULL: no
 * position check, only the name), and holds
 * every key word (a NULL-terminated list). */
static void
expect_bad_len (const char *label, const char *text, size_t len, const char *at, ...)
{
  GcvDibrCamera s, v;
  GcvError err = { GCV_OK, "" };
  GcvStatus st;
  char prefix[64];
  const char *w;
  va_list ap;

  camera_fill (&s, -7.0);
  camera_fill (&v, -7.0);
  st = gcv_dibr_camera_file_parse (text, len, NAME, &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID, "%s: status %d (message \"%s\")", label, st, err.message);
  GCV_TEST_CHECK (err.status == st, "%s: err.status %d", label, err.status);
  GCV_TEST_CHECK (camera_is (&s, -7.0) && camera_is (&v, -7.0), "%s: outputs written on failure", label);
  if (at != NULL) {
    if (at[0] == '@')           /* an explicit "@line:col" */
      snprintf (prefix, sizeof (prefix), NAME ":%s: ", at + 1);
    else
      pos_of (text, len, at, prefix, sizeof (prefix));
    GCV_TEST_CHECK (strncmp (err.message, prefix, strlen (prefix)) == 0, "%s: message \"%s\" does not start "
        "with \"%s\"", label, err.message, prefix);
  } else {
    GCV_TEST_CHECK (strncmp (err.message, NAME ":", strlen (NAME ":")) == 0, "%s: message \"%s\" lacks the "
        "name", label, err.message);
  }
  va_start (ap, at);
  while ((w = va_arg (ap, const char *)) != NULL)
    GCV_TEST_CHECK (strstr (err.message, w) != NULL, "%s: message \"%s\" lacks \"%s\"", label, err.message, w);
  va_end (ap);
  if (getenv ("GCV_TEST_VERBOSE") != NULL)
    printf ("  %-28s %s\n", label, err.message);
  /* no GcvError and no outputs: the same status, no crash */
  st = gcv_dibr_camera_file_parse (text, len, NAME, NULL, NULL, NULL);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID, "%s: status %d without err", label, st);
}

#define expect_bad(label, text, at, ...) expect_bad_len (label, text, strlen (text), at, __VA_ARGS__)

/* ---- good files ---------------------------------------------------------- */

static void
test_good (void)
{
  GcvDibrCamera es, ev;
  char text[4096];
  double th = 5.0 * M_PI / 180.0, ph = -3.0 * M_PI / 180.0;
  int i;

  /* both K forms, no extrinsics */
  memset (&es, 0, sizeof (es));
  es.K[0] = 1000;
  es.K[2] = 639.5;
  es.K[4] = 1000;
  es.K[5] = 359.5;
  es.K[8] = 1;
  identity (es.E);
  ev = es;
  ev.K[0] = 1234.5678;
  ev.K[1] = 0.25;
  ev.K[2] = 620.125;
  ev.K[4] = 1e3;
  ev.K[5] = -12.5;
  expect_good ("array K, object K", "{\n"
      "  \"source\": { \"intrinsics\": [1000, 0, 639.5, 0, 1000, 359.5, 0, 0, 1] },\n"
      "  \"virtual\": { \"intrinsics\": { \"fx\": 12345.678e-1, \"fy\": 1E3, \"cx\": 620.125, \"cy\": -1.25e+1,"
      " \"skew\": 0.25 } }\n}\n", -1, &es, &ev);
  ev.K[1] = 0.0;
  expect_good ("object K without skew, extrinsics identity given", "{\"virtual\":{\"extrinsics\":"
      "[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],\"intrinsics\":{\"cy\":-12.5,\"cx\":620.125,\"fy\":1000,"
      "\"fx\":1234.5678}},\"source\":{\"intrinsics\":[1e3,0.0e-7,639.5,0,1000,359.5,0,0,1]}}", -1, &es, &ev);

  /* white space of every kind, CRLF, a byte-order mark, escaped keys */
  expect_good ("BOM, CRLF, tabs, escapes", "\xef\xbb\xbf\r\n{\t\"\\u0073ource\" :\r\n{\"intrinsics\"\t:"
      "[1000,0,639.5,0,1000,359.5,0,0,1]} , \"virt\\u0075al\":{\"intrinsics\":{\"f\\u0078\":1234.5678,"
      "\"fy\":1000,\"cx\":620.125,\"cy\":-12.5}}}\r\n\r\n", -1, &es, &ev);

  /* a rotated (about Y by 5 degrees, then X by -3), moved virtual camera,
   * written with %.17g: the doubles come back bit for bit */
  ev = es;
  {
    double ry[9] = { cos (th), 0, sin (th), 0, 1, 0, -sin (th), 0, cos (th) };
    double rx[9] = { 1, 0, 0, 0, cos (ph), -sin (ph), 0, sin (ph), cos (ph) };
    double c[3] = { 0.3, -0.05, 0.1 }, r[9];
    int j, k;
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) {
        double s = 0;
        for (k = 0; k < 3; k++)
          s += rx[3 * i + k] * ry[3 * k + j];
        r[3 * i + j] = s;
      }
    identity (ev.E);
    for (i = 0; i < 3; i++) {
      double t = 0;
      for (j = 0; j < 3; j++) {
        ev.E[4 * i + j] = r[3 * i + j];
        t -= r[3 * i + j] * c[j];
      }
      ev.E[4 * i + 3] = t;
    }
    ev.K[0] = 987.654321012345;
    ev.K[4] = 3.0e-5 * 1e8;
    ev.K[2] = 1.0 / 3.0;
    ev.K[5] = 2.0 / 3.0;
  }
  {
    size_t n = 0;
    n += snprintf (text + n, sizeof (text) - n, "{\n  \"source\": {\n    \"intrinsics\": [1000, 0, 639.5, 0, 1000, "
        "359.5, 0, 0, 1]\n  },\n  \"virtual\": {\n    \"intrinsics\": [%.17g, 0, %.17g, 0, %.17g, %.17g, 0, 0, 1],\n"
        "    \"extrinsics\": [", ev.K[0], ev.K[2], ev.K[4], ev.K[5]);
    for (i = 0; i < 16; i++)
      n += snprintf (text + n, sizeof (text) - n, "%.17g%s", ev.E[i], i == 15 ? "]\n  }\n}\n" :
          i % 4 == 3 ? ",\n                   " : ", ");
  }
  expect_good ("rotated virtual camera", text, -1, &es, &ev);
  {
    GcvDibrCamera s, v;
    GcvDibrWarp w;
    GcvError err = { GCV_OK, "" };
    GCV_TEST_CHECK (gcv_dibr_camera_file_parse (text, strlen (text), NAME, &s, &v, &err) == GCV_OK,
        "rotated: %s", err.message);
    GCV_TEST_CHECK (gcv_dibr_warp_make (&s, &v, &w, &err) == GCV_OK, "warp_make on the file's cameras: %s",
        err.message);
    /* one output may be NULL */
    GCV_TEST_CHECK (gcv_dibr_camera_file_parse (text, strlen (text), NULL, NULL, &v, NULL) == GCV_OK
        && camera_equal (&v, &ev), "source NULL");
  }

  /* the locale's decimal point must not matter */
  {
    const char *locs[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "ru_RU.UTF-8", "C.UTF-8", NULL };
    int done = 0;
    for (i = 0; locs[i] != NULL && !done; i++) {
      if (setlocale (LC_NUMERIC, locs[i]) != NULL && strcmp (localeconv ()->decimal_point, ".") != 0) {
        expect_good ("rotated, decimal comma locale", text, -1, &es, &ev);
        printf ("locale %s (decimal point '%s'): same values\n", locs[i], localeconv ()->decimal_point);
        done = 1;
      }
    }
    if (!done)
      printf ("no locale with a decimal comma installed: that case not run\n");
    setlocale (LC_NUMERIC, "C");
  }
}

/* The largest values the bounds allow, in the worst combinations: every
 * file made of them loads, and every warp between its cameras (as the
 * renderer makes them: source -> virtual, source -> source) is finite. */
static void
test_extremes (void)
{
  /* K: the smallest focal length with the largest offsets, and the
   * largest focal length; E: the 3x3 part at its bound, and one barely
   * invertible (|det| just above 1e-12), translations at theirs */
  static const char *const K[] = {
    "[1, 1e6, 1e6, 0, 1, -1e6, 0, 0, 1]",
    "[1e6, -1e6, -1e6, 0, 1e6, 1e6, 0, 0, 1]",
    "{\"fx\": 1, \"fy\": 1e6, \"cx\": -1e6, \"cy\": 1e6, \"skew\": 1e6}",
  };
  static const char *const E[] = {
    "[1e6, -1e6, 1e6, 1e9, 1e6, 1e6, -1e6, -1e9, -1e6, 1e6, 1e6, 1e9, 0, 0, 0, 1]",
    "[1.0001e-4, 0, 0, -1e9, 0, 1.0001e-4, 0, 1e9, 0, 0, 1.0001e-4, -1e9, 0, 0, 0, 1]",
    "[1e6, 1e6, 0, 1e9, 999999.9999999998, 1e6, 0, 1e9, 0, 0, 1e-6, 1e9, 0, 0, 0, 1]",
  };
  char text[1024];
  int a, b, c, d, i, files = 0;

  for (a = 0; a < 3; a++)
    for (b = 0; b < 3; b++)
      for (c = 0; c < 3; c++)
        for (d = 0; d < 3; d++) {
          GcvDibrCamera s, v;
          GcvDibrWarp w[2];
          GcvError err = { GCV_OK, "" };
          snprintf (text, sizeof (text), "{\"source\": {\"intrinsics\": %s, \"extrinsics\": %s},\n"
              "\"virtual\": {\"intrinsics\": %s, \"extrinsics\": %s}}", K[a], E[c], K[b], E[d]);
          if (gcv_dibr_camera_file_parse (text, strlen (text), NAME, &s, &v, &err) != GCV_OK) {
            GCV_TEST_CHECK (0, "extremes %d%d%d%d refused: %s", a, b, c, d, err.message);
            continue;
          }
          files++;
          GCV_TEST_CHECK (gcv_dibr_warp_make (&s, &v, &w[0], &err) == GCV_OK
              && gcv_dibr_warp_make (&s, &s, &w[1], &err) == GCV_OK, "extremes %d%d%d%d: %s", a, b, c, d,
              err.message);
          for (i = 0; i < 12; i++) {
            double x = i < 9 ? w[i % 2].A[i] : w[i % 2].t[i - 9];
            GCV_TEST_CHECK (isfinite (x) && fabs (x) < 1e51, "extremes %d%d%d%d: warp entry %d is %g", a, b, c,
                d, i, x);
          }
        }
  printf ("extreme cameras: %d files load and warp finitely\n", files);
}

/* ---- bad files ------------------------------------------------------------ */

static const char *
cam_file (char *buf, size_t size, const char *src_inside, const char *virt_inside)
{
  snprintf (buf, size, "{\n  \"source\": {\n    %s\n  },\n  \"virtual\": {\n    %s\n  }\n}\n", src_inside,
      virt_inside);
  return buf;
}

#define K_OK "\"intrinsics\": [1000, 0, 320, 0, 1000, 240, 0, 0, 1]"

static void
test_bad (void)
{
  char t[8192], *big;
  int i;

  /* the brief's own examples, exactly */
  {
    const char *txt = "{\n\"source\": {\n\"intrinsics\": [1, \"0\", 2, 0, 1, 3, 0, 0, 1]}, \"virtual\": {}}";
    GcvError err = { GCV_OK, "" };
    const char *f3 = "{\n  \"source\": {\n  \"intrinsics\": [1000, 0, 320, 0, 1000, 240, 0, 0, 1] }\n}";
    gcv_dibr_camera_file_parse (txt, strlen (txt), NAME, NULL, NULL, &err);
    GCV_TEST_CHECK (strcmp (err.message, NAME ":3:19: expected a number in source.intrinsics[1], got a string")
        == 0, "exact message: \"%s\"", err.message);
    gcv_dibr_camera_file_parse (f3, strlen (f3), NAME, NULL, NULL, &err);
    GCV_TEST_CHECK (strcmp (err.message, NAME ":1:1: missing \"virtual\" (the virtual camera) in the top-level "
            "object") == 0, "exact message: \"%s\"", err.message);
  }

  /* empty, not JSON */
  expect_bad ("empty file", "", "", "empty", NULL);
  expect_bad ("only white space", "\n\n  \t", "@3:4", "empty", NULL);
  expect_bad ("only a BOM", "\xef\xbb\xbf", "@1:2", "empty", NULL);
  expect_bad ("plain text", "hello world\n", "hello", "expected a value", "'hello'", NULL);
  expect_bad ("YAML", "source:\n  intrinsics: [1]\n", "source", "expected a value", NULL);
  expect_bad ("top-level array", "[1, 2, 3]", "[", "expected a JSON object", "got an array", NULL);
  expect_bad ("top-level number", "  42 ", "42", "expected a JSON object", "got a number", NULL);
  expect_bad ("unclosed object", "{\"source\": {", NULL, "expected a key", "the end of the file", NULL);
  expect_bad ("trailing garbage", "{\"source\": {}, \"virtual\": {}}\n}", "@2:1", "after the end", NULL);
  expect_bad ("two objects", "{} {}", "@1:4", "after the end", NULL);
  expect_bad ("comment", "{ // cameras\n}", "//", "expected a key", "'/'", NULL);
  expect_bad ("unquoted key", "{source: {}}", "source", "expected a key in double quotes", "'source'", NULL);
  expect_bad ("single quotes", "{\"source\": 'x'}", "'x'", "expected a value", "double quotes", "in source", NULL);
  expect_bad ("missing colon", "{\"source\" {}}", "{}}", "expected ':'", "\"source\"", NULL);
  expect_bad ("missing comma", "{\"source\": {} \"virtual\": {}}", "\"virtual\"", "expected ',' or '}'", NULL);
  expect_bad ("array missing comma", cam_file (t, sizeof (t), "\"intrinsics\": [1 2]", K_OK), "2]",
      "expected ',' or ']'", "source.intrinsics", NULL);
  expect_bad ("trailing comma in array", cam_file (t, sizeof (t),
          "\"intrinsics\": [1000, 0, 320, 0, 1000, 240, 0, 0, 1, ]", K_OK), "]", "trailing comma",
      "source.intrinsics[9]", NULL);
  expect_bad ("trailing comma in object", cam_file (t, sizeof (t), K_OK ",", K_OK), "},\n", "trailing comma",
      "in source", NULL);
  expect_bad_len ("NUL byte", "{\"source\"\0: {}}", 15, "@1:10", "byte 0x00", NULL);

  /* numbers */
  expect_bad ("huge number", cam_file (t, sizeof (t), "\"intrinsics\": [1e400, 0, 320, 0, 1000, 240, 0, 0, 1]",
          K_OK), "1e400", "out of range", "source.intrinsics[0]", NULL);
  expect_bad ("huge negative", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, -17976931348623159e292, 320, "
          "0, 1000, 240, 0, 0, 1]"), "-1797", "out of range", "virtual.intrinsics[1]", NULL);
  big = malloc (1000);
  memset (big, '9', 400);
  memcpy (big + 400, "]}}", 4);
  {
    char *txt = malloc (1200);
    snprintf (txt, 1200, "{\"source\": {\"intrinsics\": [%s", big);
    expect_bad ("400-digit number", txt, "999", "out of range", "...", NULL);
    free (txt);
  }
  free (big);
  expect_bad ("NaN", cam_file (t, sizeof (t), "\"intrinsics\": [NaN, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      "NaN", "expected a value", "'NaN'", "no NaN or Infinity", "source.intrinsics[0]", NULL);
  expect_bad ("-Infinity", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, 0, -Infinity, 0, 1000, 240, 0, "
          "0, 1]"), "Infinity", "'Infinity'", "no NaN or Infinity", "virtual.intrinsics[2]", NULL);
  expect_bad ("inf", cam_file (t, sizeof (t), K_OK, "\"extrinsics\": [inf]"), "inf", "no NaN or Infinity", NULL);
  expect_bad ("leading zero", cam_file (t, sizeof (t), "\"intrinsics\": [01000, 0, 320, 0, 1000, 240, 0, 0, 1]",
          K_OK), "01000", "leading zeros", NULL);
  expect_bad ("1.", cam_file (t, sizeof (t), "\"intrinsics\": [1., 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      ", 0, 320", "digit after the decimal point", NULL);
  expect_bad (".5", cam_file (t, sizeof (t), "\"intrinsics\": [.5, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      ".5", "expected a value", NULL);
  expect_bad ("+1", cam_file (t, sizeof (t), "\"intrinsics\": [+1, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      "+1", "expected a value", NULL);
  expect_bad ("1e", cam_file (t, sizeof (t), "\"intrinsics\": [1e, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      ", 0, 320", "exponent", NULL);
  expect_bad ("hex", cam_file (t, sizeof (t), "\"intrinsics\": [0x10, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      "x10", "expected ',' or ']'", NULL);

  /* integers json-glib holds in 64 bits: beyond, refused (json-glib
   * would read -1); the largest one is read exactly (then refused as fx) */
  expect_bad ("integer beyond 64 bits", cam_file (t, sizeof (t), "\"intrinsics\": [12345678901234567890123, 0, 320, "
          "0, 1000, 240, 0, 0, 1]", K_OK), "1234", "out of range", "64 bits", "source.intrinsics[0]", NULL);
  expect_bad ("-2^63", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, -9223372036854775808, 320, 0, 1000, "
          "240, 0, 0, 1]"), "-9223", "out of range", "virtual.intrinsics[1]", NULL);
  expect_bad ("2^63 - 1", cam_file (t, sizeof (t), "\"intrinsics\": [9223372036854775807, 0, 320, 0, 1000, 240, 0, "
          "0, 1]", K_OK), "9223", "fx", "got 9.22337e+18", NULL);

  /* strings */
  expect_bad ("\\u0000 in a key", "{\"sou\\u0000rce\": {}}", "\\u0000", "NUL", NULL);
  expect_bad ("unterminated string", "{\"source\": {\"intr", "\"intr", "unterminated string", NULL);
  expect_bad ("newline in a string", "{\"sou\nrce\": {}}", "\nrce", "control character", NULL);
  expect_bad ("bad escape", "{\"sou\\xrce\": {}}", "\\x", "invalid escape", NULL);
  expect_bad ("short \\u", "{\"sou\\u12\": {}}", "\\u", "4 hex digits", NULL);
  expect_bad ("lone surrogate", "{\"\\ud800x\": {}}", "\\ud8", "surrogate", NULL);
  expect_bad ("invalid UTF-8", "{\"\xc3\x28\": {}}", "\xc3", "invalid UTF-8", NULL);
  expect_bad ("overlong UTF-8", "{\"\xc0\xaf\": {}}", "\xc0", "invalid UTF-8", NULL);
  expect_bad ("UTF-8 key, column in characters", "{\"\xc3\xa9t\xc3\xa9\": 1, \"x\": 1}", "@1:2",
      "unknown key", NULL);
  {
    GcvError err = { GCV_OK, "" };
    gcv_dibr_camera_file_parse ("{\"\xc3\xa9t\xc3\xa9\": 1}", 12, NAME, NULL, NULL, &err);
    GCV_TEST_CHECK (strstr (err.message, NAME ":1:2: unknown key \"??t??\" at the top level") != NULL,
        "UTF-8 key message: %s", err.message);
  }

  /* nesting */
  expect_bad ("deep nesting", "{\"source\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
      NULL, "nesting deeper than 16", NULL);
  big = malloc (200002);
  memset (big, '[', 200000);
  big[200000] = '\0';
  expect_bad ("200000 brackets", big, NULL, "nesting deeper than 16", NULL);
  big[0] = '[';
  for (i = 0; i < 99999; i++)
    memcpy (big + 1 + 2 * i, "0,", 2);
  memcpy (big + 199999, "0]", 3);
  expect_bad ("too many values", big, NULL, "more than 10000 values", NULL);
  free (big);

  /* structure */
  expect_bad ("missing source", "{\n  \"virtual\": { " K_OK " }\n}", "{", "missing \"source\"", NULL);
  expect_bad ("missing virtual", "{ \"source\": { " K_OK " } }", "{", "missing \"virtual\"", NULL);
  expect_bad ("unknown top key", "{ \"source\": { " K_OK " }, \"virtal\": {} }", "\"virtal\"",
      "unknown key \"virtal\" at the top level (expected source, virtual)", NULL);
  expect_bad ("unknown camera key", cam_file (t, sizeof (t), "\"intrinsic\": [1000, 0, 320, 0, 1000, 240, 0, 0, 1]",
          K_OK), "\"intrinsic\"", "unknown key \"intrinsic\" in source (expected intrinsics, extrinsics)", NULL);
  expect_bad ("missing intrinsics", cam_file (t, sizeof (t), K_OK, "\"extrinsics\": [1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"),
      "{\n    \"extr", "missing \"intrinsics\" in virtual", NULL);
  {
    char at[32];
    snprintf (at, sizeof (at), "@3:%d", (int) (5 + strlen (K_OK ", ")));
    expect_bad ("duplicate key", cam_file (t, sizeof (t), K_OK ", " K_OK, K_OK), at,
        "duplicate key \"intrinsics\" in source", NULL);
  }
  expect_bad ("camera not an object", "{\"source\": [1, 2], \"virtual\": {}}", "[1", "expected an object",
      "in source", "got an array", NULL);
  expect_bad ("intrinsics a number", cam_file (t, sizeof (t), "\"intrinsics\": 1000", K_OK), "1000",
      "expected an array of 9 numbers", "source.intrinsics", "got a number", NULL);

  /* intrinsics */
  expect_bad ("K 8 numbers", cam_file (t, sizeof (t), "\"intrinsics\": [1000, 0, 320, 0, 1000, 240, 0, 0]", K_OK),
      "[1000, 0, 320, 0, 1000, 240, 0, 0]", "source.intrinsics must have 9 numbers, got 8", NULL);
  expect_bad ("K string element", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, 0, 320, 0, \"1000\", 240, "
          "0, 0, 1]"), "\"1000\"", "expected a number in virtual.intrinsics[4], got a string", NULL);
  expect_bad ("K true element", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, 0, 320, 0, 1000, 240, "
          "0, 0, true]"), "true", "expected a number in virtual.intrinsics[8], got a boolean", NULL);
  expect_bad ("K null element", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, null, 320, 0, 1000, 240, "
          "0, 0, 1]"), "null", "virtual.intrinsics[1], got null", NULL);
  expect_bad ("K last row", cam_file (t, sizeof (t), "\"intrinsics\": [1000, 0, 320, 0, 1000, 240, 0, 0, 2]",
          K_OK), "0, 0, 2]", "source.intrinsics: the last row must be 0 0 1, got 0 0 2", NULL);
  expect_bad ("K[3] not 0", cam_file (t, sizeof (t), "\"intrinsics\": [1000, 0, 320, 0.5, 1000, 240, 0, 0, 1]",
          K_OK), "0.5", "source.intrinsics[3] must be 0", NULL);
  expect_bad ("fx 0", cam_file (t, sizeof (t), "\"intrinsics\": [0, 0, 320, 0, 1000, 240, 0, 0, 1]", K_OK),
      "0, 0, 320", "fx", "must be 1 .. 1e+06 pixels, got 0", NULL);
  expect_bad ("fy negative", cam_file (t, sizeof (t), "\"intrinsics\": [1000, 0, 320, 0, -1000, 240, 0, 0, 1]",
          K_OK), "-1000", "fy", "must be 1 .. 1e+06 pixels, got -1000", NULL);
  expect_bad ("object K unknown key", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": 1, \"fz\": 1}", K_OK),
      "\"fz\"", "unknown key \"fz\" in source.intrinsics (expected fx, fy, cx, cy, skew)", NULL);
  expect_bad ("object K missing fy", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": 1, \"cx\": 1, \"cy\": 1}",
          K_OK), "{\"fx\"", "missing \"fy\" in source.intrinsics", NULL);
  expect_bad ("object K string", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": \"1\", \"fy\": 1, \"cx\": 1, "
          "\"cy\": 1}", K_OK), "\"1\"", "expected a number in source.intrinsics.fx", NULL);
  expect_bad ("object K fx negative", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": {\"fx\": 5, \"fy\": -1e-3, "
          "\"cx\": 1, \"cy\": 1}"), "-1e-3", "virtual.intrinsics.fy must be 1 .. 1e+06 pixels", NULL);
  /* > 0 but K singular in double (fx fy underflows): refused when read */
  expect_bad ("fx 1e-300", cam_file (t, sizeof (t), "\"intrinsics\": [1e-300, 0, 320, 0, 1e-300, 240, 0, 0, 1]",
          K_OK), "1e-300", "fx", "must be 1 .. 1e+06 pixels, got 1e-300", NULL);
  expect_bad ("object fx 2e6", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": 2e6, \"fy\": 1, \"cx\": 1, "
          "\"cy\": 1}", K_OK), "2e6", "source.intrinsics.fx must be 1 .. 1e+06 pixels, got 2e+06", NULL);

  /* every other value bounded, so that a file that loads renders (cx
   * 1e300 used to load and make the warp infinite at the first frame) */
  expect_bad ("cx 1e300", cam_file (t, sizeof (t), "\"intrinsics\": [1000, 0, 1e300, 0, 1000, 240, 0, 0, 1]",
          K_OK), "1e300", "source.intrinsics: cx (source.intrinsics[2]) must be -1e+06 .. 1e+06 pixels, got 1e+300",
      NULL);
  expect_bad ("cy -2e6", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, 0, 320, 0, 1000, -2e6, 0, 0, 1]"),
      "-2e6", "virtual.intrinsics: cy (virtual.intrinsics[5]) must be -1e+06 .. 1e+06 pixels", NULL);
  expect_bad ("skew 1e300", cam_file (t, sizeof (t), K_OK, "\"intrinsics\": [1000, 1e300, 320, 0, 1000, 240, 0, 0, "
          "1]"), "1e300", "virtual.intrinsics: skew (virtual.intrinsics[1])", "got 1e+300", NULL);
  expect_bad ("object cy 1e300", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": 5, \"fy\": 5, \"cx\": 1, \"cy\": "
          "1e300}", K_OK), "1e300", "source.intrinsics.cy must be -1e+06 .. 1e+06 pixels, got 1e+300", NULL);
  expect_bad ("object skew -1e7", cam_file (t, sizeof (t), "\"intrinsics\": {\"fx\": 5, \"fy\": 5, \"cx\": 1, \"cy\": "
          "1, \"skew\": -1e7}", K_OK), "-1e7", "source.intrinsics.skew must be", "got -1e+07", NULL);
  expect_bad ("E translation 1e300", cam_file (t, sizeof (t), K_OK, K_OK ", \"extrinsics\": [1,0,0,1e300, 0,1,0,0, "
          "0,0,1,0, 0,0,0,1]"), "1e300", "virtual.extrinsics[3] (a translation) must be -1e+09 .. 1e+09 z units",
      NULL);
  expect_bad ("E translation -2e9", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": [1,0,0,0, 0,1,0,0, "
          "0,0,1,-2e9, 0,0,0,1]", K_OK), "-2e9", "source.extrinsics[11] (a translation)", "got -2e+09", NULL);
  expect_bad ("E 3x3 entry 1e300", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": [1,0,0,0, 0,1e300,0,0, "
          "0,0,1,0, 0,0,0,1]", K_OK), "1e300", "source.extrinsics[5] (in the 3x3 part) must be -1e+06 .. 1e+06, "
      "got 1e+300", NULL);

  /* extrinsics */
  expect_bad ("E 12 numbers", cam_file (t, sizeof (t), K_OK, K_OK ", \"extrinsics\": [1,0,0,0, 0,1,0,0, 0,0,1,0]"),
      "[1,0,0,0, 0,1,0,0, 0,0,1,0]", "virtual.extrinsics must have 16 numbers, got 12", NULL);
  expect_bad ("E last row", cam_file (t, sizeof (t), K_OK, K_OK ", \"extrinsics\": [1,0,0,0, 0,1,0,0, 0,0,1,0, "
          "0,0,1,1]"), "0,0,1,1]", "virtual.extrinsics: the last row must be 0 0 0 1, got 0 0 1 1", NULL);
  expect_bad ("E singular", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": [1,0,0,0, 2,0,0,0, 0,0,1,0, 0,0,0,1]",
          K_OK), "[1,0,0,0, 2", "source.extrinsics: the 3x3 part must be invertible", NULL);
  expect_bad ("E nearly singular", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": [1e-5,0,0,0, 0,1e-5,0,0, "
          "0,0,1e-5,0, 0,0,0,1]", K_OK), "[1e-5", "must be invertible", "|det| > 1e-12", NULL);
  expect_bad ("E nested 4x4", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": [[1,0,0,0], [0,1,0,0], [0,0,1,0], "
          "[0,0,0,1]]", K_OK), "[[", "source.extrinsics must have 16 numbers, got 4", NULL);
  {
    char e[512];
    snprintf (e, sizeof (e), K_OK ", \"extrinsics\": [[1,0,0,0], [0,1,0,0], [0,0,1,0], [0,0,0,1], 1, 2, 3, 4, 5, "
        "6, 7, 8, 9, 10, 11, 12]");
    expect_bad ("E arrays inside", cam_file (t, sizeof (t), e, K_OK), "[1,0,0,0]", "expected a number in "
        "source.extrinsics[0], got an array", "flat", NULL);
  }
  expect_bad ("E an object", cam_file (t, sizeof (t), K_OK ", \"extrinsics\": {}", K_OK), "{}",
      "expected an array of 16 numbers", "source.extrinsics", NULL);
}

/* ---- _load() ------------------------------------------------------------- */

static void
test_load (void)
{
  char path[] = "/tmp/gcv-camera-XXXXXX";
  const char *good = "{ \"source\": { " K_OK " },\n  \"virtual\": { \"intrinsics\": [1000, 0, 300, 0, 1000, 240, "
      "0, 0, 1],\n  \"extrinsics\": [1,0,0,-0.06, 0,1,0,0, 0,0,1,0, 0,0,0,1] } }\n";
  GcvDibrCamera s, v, ps, pv;
  GcvError err = { GCV_OK, "" };
  GcvStatus st;
  FILE *f;
  int fd = mkstemp (path);
  char want[600];
  size_t i;

  GCV_TEST_CHECK (fd >= 0, "mkstemp");
  if (fd < 0)
    return;
  f = fdopen (fd, "wb");
  fputs (good, f);
  fclose (f);
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_OK, "load: %s", err.message);
  gcv_dibr_camera_file_parse (good, strlen (good), "x", &ps, &pv, NULL);
  GCV_TEST_CHECK (st == GCV_OK && camera_equal (&s, &ps) && camera_equal (&v, &pv) && v.E[3] == -0.06
      && v.K[2] == 300.0, "load: cameras differ from parse");

  /* a bad file: the message starts with the path */
  f = fopen (path, "wb");
  fputs ("{\n  \"source\": 1, \"virtual\": {}\n}", f);
  fclose (f);
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  snprintf (want, sizeof (want), "%s:2:13: expected an object", path);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strncmp (err.message, want, strlen (want)) == 0,
      "load bad: \"%s\"", err.message);

  /* a NUL byte (a text reader would stop there): refused with its place */
  {
    static const char nul_text[] = "{ \"source\": {\n  \"intr\0insics\": [] } }";
    f = fopen (path, "wb");
    fwrite (nul_text, 1, sizeof (nul_text) - 1, f);
    fclose (f);
  }
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  snprintf (want, sizeof (want), "camera file \"%s\": a NUL byte at line 2, column 8 (not a text file)", path);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strcmp (err.message, want) == 0, "load NUL: \"%s\"", err.message);

  /* an empty file */
  f = fopen (path, "wb");
  fclose (f);
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  snprintf (want, sizeof (want), "%s:1:1: the file is empty", path);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strncmp (err.message, want, strlen (want)) == 0,
      "load empty: \"%s\"", err.message);

  /* too large: 1 MiB of spaces and one more byte */
  f = fopen (path, "wb");
  for (i = 0; i <= GCV_DIBR_CAMERA_FILE_MAX_BYTES; i++)
    fputc (' ', f);
  fclose (f);
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strstr (err.message, path) && strstr (err.message, "too large"),
      "load too large: \"%s\"", err.message);
  /* exactly the limit: read, then "empty" (white space only) */
  GCV_TEST_CHECK (truncate (path, GCV_DIBR_CAMERA_FILE_MAX_BYTES) == 0, "truncate");
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strstr (err.message, "empty"), "load 1 MiB: \"%s\"", err.message);
  unlink (path);

  /* not found */
  st = gcv_dibr_camera_file_load (path, &s, &v, &err);
  snprintf (want, sizeof (want), "camera file \"%s\": cannot open: No such file or directory", path);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strcmp (err.message, want) == 0, "load missing: \"%s\"",
      err.message);
  printf ("missing file: %s\n", err.message);
  /* a directory */
  st = gcv_dibr_camera_file_load ("/tmp", &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strstr (err.message, "\"/tmp\""), "load dir: \"%s\"", err.message);
  printf ("directory: %s\n", err.message);
  st = gcv_dibr_camera_file_load ("", &s, &v, &err);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && strstr (err.message, "no file name"), "load \"\": %s", err.message);
  st = gcv_dibr_camera_file_load (NULL, &s, &v, NULL);
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID, "load NULL");
}

int
main (void)
{
  double t0 = gcv_test_now_s ();

  test_good ();
  test_extremes ();
  test_bad ();
  test_load ();
  return gcv_test_summary (t0);
}
