/* gst-cuda-video: Canny benchmark.
 *
 * For each frame size (720p, 1080p, 4K GRAY8 by default) it measures
 *  1. the elements: appsrc ! cudacanny|cpucanny ! fakesink sync=false, end to
 *     end wall-clock fps over the timed frames, and the element's own "stats"
 *     (upload / compute / download / total ms per frame, read before and after
 *     the timed frames and differenced);
 *  2. the CUDA kernels alone: gcv_canny_cuda_process on device buffers, timed
 *     with CUDA events, median of many runs, effective bandwidth against the
 *     device's memory bandwidth; plus pinned / pageable H2D and D2H copies;
 *  3. the CPU algorithm alone: gcv_canny_cpu_process, 1 thread and all;
 *  4. OpenCV's cv::Canny (when built with OpenCV), 1 thread and all, alone
 *     (blur 0) and after a GaussianBlur (blur 5).
 * Input frames are real photos (tests/data), luma, scaled and mirror-tiled to
 * each size with different scales and offsets, rotated through.
 *
 * Prints one table and writes the same as JSON (--json FILE).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canny.h"
#include "bench-canny.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#define BENCH_CUDA 1
#include "gcv-cuda.h"
#else
#define BENCH_CUDA 0
#endif

#ifndef GCVB_DATA_DIR
#define GCVB_DATA_DIR "tests/data"
#endif
#ifndef GCVB_PLUGIN_FILE
#define GCVB_PLUGIN_FILE ""
#endif

static const char *photo_names[] = { "camera.png", "chelsea.png", "coffee.png", "astronaut.png" };

/* ------------------------------------------------------------------------ */
/* options */

static gchar *opt_sizes = NULL;
static gint opt_frames = 500;
static gint opt_warmup = 50;
static gint opt_cpu_frames = 0;         /* 0: 200 up to 1080p, 50 above */
static gint opt_runs = 300;
static gint opt_cpu_runs = 0;           /* 0: 30 up to 1080p, 10 above */
static gint opt_variants = 8;
static gint opt_queue = 4;
static gint opt_device = 0;
static gboolean opt_quick = FALSE;
static gchar *opt_json = NULL;
static gchar *opt_data_dir = NULL;
static gchar *opt_plugin = NULL;
static gchar *opt_skip = NULL;
static gchar *opt_dump = NULL;
static gdouble opt_low = 50, opt_high = 150, opt_sigma = 1.4;
static gint opt_blur = 5;

static GOptionEntry entries[] = {
  {"sizes", 's', 0, G_OPTION_ARG_STRING, &opt_sizes,
      "Frame sizes, comma-separated: 720p, 1080p, 4k or WxH (default 720p,1080p,4k)", "LIST"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt_frames,
      "Timed frames per size for cudacanny (default 500)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt_warmup,
      "Warm-up frames / runs, not timed (default 50; cpucanny uses at most 10)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt_cpu_frames,
      "Timed frames per size for cpucanny (default 200, 50 above 1080p)", "N"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt_runs,
      "Timed CUDA kernel / copy runs, median taken (default 300)", "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt_cpu_runs,
      "Timed CPU / OpenCV algorithm runs, median taken (default 30, 10 above 1080p)", "N"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt_variants,
      "Different input frames per size, rotated through (default 8, at least 4)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt_queue,
      "Frames in flight in the element pipelines (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt_device, "CUDA device (default 0)", "N"},
  {"quick", 'q', 0, G_OPTION_ARG_NONE, &opt_quick,
      "Few frames and runs: checks that everything works, numbers are rough", NULL},
  {"json", 'j', 0, G_OPTION_ARG_FILENAME, &opt_json,
      "Write the results as JSON to FILE (default bench-canny.json)", "FILE"},
  {"data-dir", 0, 0, G_OPTION_ARG_FILENAME, &opt_data_dir,
      "Directory with camera.png, chelsea.png, coffee.png, astronaut.png", "DIR"},
  {"plugin", 0, 0, G_OPTION_ARG_FILENAME, &opt_plugin,
      "libgstcudavideo.so to load (default: the one of this build; \"\" = registry only)", "FILE"},
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt_skip,
      "Parts to skip, comma-separated: elements, cuda, cpu, opencv, transfers", "LIST"},
  {"dump-frames", 0, 0, G_OPTION_ARG_FILENAME, &opt_dump,
      "Also write the input frames as PGM files to DIR (to look at them)", "DIR"},
  {"low", 0, 0, G_OPTION_ARG_DOUBLE, &opt_low, "Low threshold (default 50)", "T"},
  {"high", 0, 0, G_OPTION_ARG_DOUBLE, &opt_high, "High threshold (default 150)", "T"},
  {"blur-size", 0, 0, G_OPTION_ARG_INT, &opt_blur,
      "Blur size of the elements and of the 'blur' rows (default 5)", "N"},
  {"blur-sigma", 0, 0, G_OPTION_ARG_DOUBLE, &opt_sigma, "Blur sigma (default 1.4)", "S"},
  {NULL}
};

static gboolean
skipped_part (const char *part)
{
  gboolean found = FALSE;
  gchar **v;

  if (opt_skip == NULL)
    return FALSE;
  v = g_strsplit (opt_skip, ",", -1);
  for (int i = 0; v[i] != NULL; i++)
    if (g_ascii_strcasecmp (g_strstrip (v[i]), part) == 0)
      found = TRUE;
  g_strfreev (v);
  return found;
}

/* ------------------------------------------------------------------------ */
/* results */

typedef struct {
  char size[16];
  int width, height;
  char impl[32];
  int blur;                     /* blur size used */
  int threads;                  /* CPU threads, 0 n/a */
  gboolean skipped;
  gboolean failed;              /* skipped because something went wrong */
  double ms;                    /* per frame: wall (elements), median (algorithms) */
  double mean_ms;               /* algorithms: mean of the runs */
  double fps;
  double upload_ms, compute_ms, download_ms, total_ms;  /* element stats; NAN n/a */
  double gbps;                  /* kernel: effective bandwidth; NAN n/a */
  double peak_frac;             /* gbps / device peak; NAN n/a */
  guint64 count;                /* timed frames or runs */
  gint64 mismatch;              /* pixels differing from our CPU output, -1 n/a */
  char backend[16];
  char note[256];
} Result;

static GArray *results;         /* of Result */

static Result *
result_new (const char *size, int w, int h, const char *impl, int blur)
{
  Result r;

  memset (&r, 0, sizeof (r));
  g_strlcpy (r.size, size, sizeof (r.size));
  r.width = w;
  r.height = h;
  g_strlcpy (r.impl, impl, sizeof (r.impl));
  r.blur = blur;
  r.ms = r.mean_ms = r.fps = NAN;
  r.upload_ms = r.compute_ms = r.download_ms = r.total_ms = NAN;
  r.gbps = r.peak_frac = NAN;
  r.mismatch = -1;
  g_array_append_val (results, r);
  return &g_array_index (results, Result, results->len - 1);
}

static void
result_skip (Result * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
result_skip (Result * r, const char *fmt, ...)
{
  va_list ap;

  r->skipped = TRUE;
  va_start (ap, fmt);
  g_vsnprintf (r->note, sizeof (r->note), fmt, ap);
  va_end (ap);
  g_printerr ("  %-18s blur %d  SKIPPED: %s\n", r->impl, r->blur, r->note);
}

static int n_failures;

static void
result_fail (Result * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
result_fail (Result * r, const char *fmt, ...)
{
  va_list ap;

  r->skipped = TRUE;
  r->failed = TRUE;
  n_failures++;
  g_strlcpy (r->note, "FAILED: ", sizeof (r->note));
  va_start (ap, fmt);
  g_vsnprintf (r->note + 8, sizeof (r->note) - 8, fmt, ap);
  va_end (ap);
  g_printerr ("  %-18s blur %d  %s\n", r->impl, r->blur, r->note);
}

static void
result_note (Result * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static void
result_note (Result * r, const char *fmt, ...)
{
  va_list ap;
  size_t len = strlen (r->note);

  if (len > 0 && len + 2 < sizeof (r->note)) {
    g_strlcat (r->note, "; ", sizeof (r->note));
    len += 2;
  }
  va_start (ap, fmt);
  g_vsnprintf (r->note + len, sizeof (r->note) - len, fmt, ap);
  va_end (ap);
}

/* ------------------------------------------------------------------------ */
/* helpers */

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double
mean (const double *v, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s / n;
}

static G_GNUC_UNUSED gint64
count_mismatch (const guint8 * a, const guint8 * b, int w, int h)
{
  gint64 n = 0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    n += a[i] != b[i];
  return n;
}

static char *
cpu_model (void)
{
  gchar *text = NULL, *model = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL)) {
    gchar **lines = g_strsplit (text, "\n", -1);
    for (int i = 0; lines[i] != NULL && model == NULL; i++) {
      if (g_str_has_prefix (lines[i], "model name")) {
        const char *colon = strchr (lines[i], ':');
        if (colon != NULL)
          model = g_strstrip (g_strdup (colon + 1));
      }
    }
    g_strfreev (lines);
    g_free (text);
  }
  return model ? model : g_strdup ("unknown");
}

/* ------------------------------------------------------------------------ */
/* input frames */

typedef struct {
  char *name;
  int width, height;
  guint8 *pixels;               /* packed GRAY8 */
} Photo;

/* Decodes a PNG with GStreamer itself and converts it to GRAY8 (luma). */
static gboolean
load_photo (const char *path, Photo * photo, GError ** error)
{
  GstElement *pipe, *src, *sink;
  GstSample *sample = NULL;
  gboolean ok = FALSE;

  pipe = gst_parse_launch ("filesrc name=src ! pngdec ! videoconvert ! "
      "video/x-raw,format=GRAY8 ! appsink name=sink sync=false", error);
  if (pipe == NULL)
    return FALSE;
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (src, "location", path, NULL);

  if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE, "%s: cannot start decoder", path);
    goto done;
  }
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  if (sample == NULL) {
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg != NULL) {
      GError *e = NULL;
      gst_message_parse_error (msg, &e, NULL);
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: %s", path, e->message);
      g_error_free (e);
      gst_message_unref (msg);
    } else {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: no frame decoded", path);
    }
    gst_object_unref (bus);
    goto done;
  } else {
    GstVideoInfo info;
    GstVideoFrame frame;
    if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
        !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: cannot map frame", path);
      goto done;
    }
    photo->name = g_path_get_basename (path);
    photo->width = GST_VIDEO_INFO_WIDTH (&info);
    photo->height = GST_VIDEO_INFO_HEIGHT (&info);
    photo->pixels = g_malloc ((size_t) photo->width * photo->height);
    for (int y = 0; y < photo->height; y++)
      memcpy (photo->pixels + (size_t) y * photo->width,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) + (size_t) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
          photo->width);
    gst_video_frame_unmap (&frame);
    ok = TRUE;
  }
done:
  if (sample)
    gst_sample_unref (sample);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return ok;
}

/* Mirror a (possibly negative or large) coordinate into [0, n - 1]
 * without repeating the edge sample (period 2 (n - 1)). */
static double
reflect (double u, int n)
{
  double period = 2.0 * (n - 1);
  double r = fmod (u, period);
  if (r < 0)
    r += period;
  return r > n - 1 ? period - r : r;
}

/* Variant k of a frame of w x h: photo k % n scaled (bilinear) by
 * mult[k] * sqrt (h / 720), mirror-tiled to fill the frame, shifted by an
 * offset that depends on k, and flipped left-right for odd k.  The sqrt keeps
 * the edge density from falling as fast as plain upscaling would (4K content
 * has more detail than a 7x enlarged 512x512 photo), without tiling the photo
 * at its native size. */
static void
make_variant (const Photo * p, int w, int h, int k, guint8 * dst)
{
  static const double mult[] = { 1.5, 1.0, 2.2, 1.25, 1.8, 1.1, 2.6, 1.4 };
  double s = sqrt (h / 720.0) * mult[k % G_N_ELEMENTS (mult)];
  double ox = fmod (k * 0.37, 1.0) * p->width * s, oy = fmod (k * 0.23, 1.0) * p->height * s;
  int *x0 = g_new (int, w), *x1 = g_new (int, w);
  float *fx = g_new (float, w);

  for (int x = 0; x < w; x++) {
    int xx = (k & 1) ? w - 1 - x : x;
    double u = reflect ((xx + 0.5 + ox) / s - 0.5, p->width);
    x0[x] = (int) u;
    x1[x] = MIN (x0[x] + 1, p->width - 1);
    fx[x] = (float) (u - x0[x]);
  }
  for (int y = 0; y < h; y++) {
    double v = reflect ((y + 0.5 + oy) / s - 0.5, p->height);
    int y0 = (int) v, y1 = MIN (y0 + 1, p->height - 1);
    float fy = (float) (v - y0);
    const guint8 *r0 = p->pixels + (size_t) y0 * p->width, *r1 = p->pixels + (size_t) y1 * p->width;
    guint8 *d = dst + (size_t) y * w;
    for (int x = 0; x < w; x++) {
      float top = r0[x0[x]] + fx[x] * (r0[x1[x]] - r0[x0[x]]);
      float bot = r1[x0[x]] + fx[x] * (r1[x1[x]] - r1[x0[x]]);
      d[x] = (guint8) (top + fy * (bot - top) + 0.5f);
    }
  }
  g_free (x0);
  g_free (x1);
  g_free (fx);
}

typedef struct {
  char name[16];
  int width, height;
  int n;
  guint8 **frames;              /* n packed GRAY8 frames, stride = width */
} FrameSet;

static void
frameset_init (FrameSet * fs, const char *name, int w, int h, const Photo * photos, int n_photos, int n)
{
  g_strlcpy (fs->name, name, sizeof (fs->name));
  fs->width = w;
  fs->height = h;
  fs->n = n;
  fs->frames = g_new0 (guint8 *, n);
  for (int k = 0; k < n; k++) {
    fs->frames[k] = g_malloc ((size_t) w * h);
    make_variant (&photos[k % n_photos], w, h, k, fs->frames[k]);
  }
}

static void
frameset_clear (FrameSet * fs)
{
  for (int k = 0; k < fs->n; k++)
    g_free (fs->frames[k]);
  g_free (fs->frames);
}

static void
dump_frames (const FrameSet * fs, const char *dir)
{
  if (g_mkdir_with_parents (dir, 0755) != 0) {
    g_printerr ("warning: cannot create %s\n", dir);
    return;
  }
  for (int k = 0; k < fs->n; k++) {
    gchar *name = g_strdup_printf ("%s-%d.pgm", fs->name, k);
    gchar *path = g_build_filename (dir, name, NULL);
    FILE *f = fopen (path, "wb");
    if (f == NULL || fprintf (f, "P5\n%d %d\n255\n", fs->width, fs->height) < 0 ||
        fwrite (fs->frames[k], (size_t) fs->width * fs->height, 1, f) != 1)
      g_printerr ("warning: cannot write %s\n", path);
    if (f != NULL && fclose (f) != 0)
      g_printerr ("warning: cannot write %s\n", path);
    g_free (name);
    g_free (path);
  }
}

static GcvCannyParams
make_params (int blur)
{
  GcvCannyParams p;

  memset (&p, 0, sizeof (p));
  p.low_threshold = opt_low;
  p.high_threshold = opt_high;
  p.blur_size = blur;
  p.blur_sigma = blur > 0 ? opt_sigma : 0;
  p.l2_gradient = 0;
  p.output = GCV_CANNY_OUTPUT_EDGES;
  return p;
}

/* ------------------------------------------------------------------------ */
/* element pipelines */

typedef struct {
  GMutex lock;
  GCond cond;
  guint64 arrived;
} Counter;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer user_data)
{
  Counter *c = user_data;

  g_mutex_lock (&c->lock);
  c->arrived++;
  g_cond_signal (&c->cond);
  g_mutex_unlock (&c->lock);
}

/* First error (or a warning, copied to *warning) on the bus. */
static gboolean
bus_failed (GstBus * bus, gchar ** message)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING)) != NULL) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gboolean is_error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

    if (is_error)
      gst_message_parse_error (msg, &e, &dbg);
    else
      gst_message_parse_warning (msg, &e, &dbg);
    g_printerr ("    %s from %s: %s\n      %s\n", is_error ? "ERROR" : "warning",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message, dbg ? dbg : "");
    if (is_error && *message == NULL)
      *message = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message);
    g_error_free (e);
    g_free (dbg);
    gst_message_unref (msg);
    if (is_error)
      return TRUE;
  }
  return FALSE;
}

/* Waits until `target` frames reached the sink; FALSE on a bus error or
 * when nothing arrived for timeout_s seconds. */
static gboolean
wait_arrived (Counter * c, GstBus * bus, guint64 target, double timeout_s, gchar ** message)
{
  guint64 last;
  gint64 deadline;

  g_mutex_lock (&c->lock);
  last = c->arrived;
  deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  while (c->arrived < target) {
    gboolean signalled = g_cond_wait_until (&c->cond, &c->lock, g_get_monotonic_time () + 50000);
    if (c->arrived >= target)
      break;
    if (c->arrived != last) {
      last = c->arrived;
      deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
    }
    if (!signalled) {
      g_mutex_unlock (&c->lock);
      if (bus_failed (bus, message))
        return FALSE;
      if (g_get_monotonic_time () > deadline) {
        *message = g_strdup_printf ("no frame reached the sink for %.0f s", timeout_s);
        return FALSE;
      }
      g_mutex_lock (&c->lock);
    }
  }
  g_mutex_unlock (&c->lock);
  return TRUE;
}

typedef struct {
  gboolean ok;
  guint64 frames;
  double upload, compute, download, total;      /* means per frame */
  char backend[16];
} Stats;

static gboolean
structure_get_double_any (const GstStructure * s, const char *field, double *out)
{
  const GValue *v = gst_structure_get_value (s, field);
  GValue d = G_VALUE_INIT;

  if (v == NULL)
    return FALSE;
  g_value_init (&d, G_TYPE_DOUBLE);
  if (!g_value_transform (v, &d)) {
    g_value_unset (&d);
    return FALSE;
  }
  *out = g_value_get_double (&d);
  g_value_unset (&d);
  return TRUE;
}

/* A property of any type as a string ("cuda"), NULL when missing. */
static gchar *
get_property_string (GstElement * e, const char *name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  gchar *s;

  if (ps == NULL)
    return NULL;
  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), name, &v);
  if (G_VALUE_HOLDS_STRING (&v))
    s = g_value_dup_string (&v);
  else if (G_VALUE_HOLDS_ENUM (&v)) {
    GEnumValue *ev = g_enum_get_value (G_ENUM_CLASS (g_type_class_peek (ps->value_type)),
        g_value_get_enum (&v));
    s = g_strdup (ev ? ev->value_nick : "?");
  } else
    s = gst_value_serialize (&v);
  g_value_unset (&v);
  return s;
}

static void
read_stats (GstElement * e, Stats * st)
{
  GstStructure *s = NULL;
  double frames = 0;
  const gchar *backend;

  memset (st, 0, sizeof (*st));
  st->upload = st->compute = st->download = st->total = NAN;
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats") == NULL)
    return;
  g_object_get (e, "stats", &s, NULL);
  if (s == NULL)
    return;
  if (structure_get_double_any (s, "frames", &frames)) {
    st->ok = TRUE;
    st->frames = (guint64) frames;
  }
  structure_get_double_any (s, "upload-ms", &st->upload);
  structure_get_double_any (s, "compute-ms", &st->compute);
  structure_get_double_any (s, "download-ms", &st->download);
  structure_get_double_any (s, "total-ms", &st->total);
  backend = gst_structure_get_string (s, "backend");
  g_strlcpy (st->backend, backend ? backend : "", sizeof (st->backend));
  gst_structure_free (s);
}

/* Mean per frame over the frames between two stats readings. */
static double
stats_diff (double mean_after, guint64 n_after, double mean_before, guint64 n_before)
{
  if (n_after <= n_before || isnan (mean_after))
    return NAN;
  if (n_before == 0 || isnan (mean_before))
    return n_before == 0 ? mean_after : NAN;
  return (mean_after * n_after - mean_before * n_before) / (double) (n_after - n_before);
}

static void
set_prop (GstElement * e, const char *name, const char *value)
{
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), name) == NULL) {
    g_printerr ("    note: %s has no property %s\n", GST_OBJECT_NAME (e), name);
    return;
  }
  gst_util_set_object_arg (G_OBJECT (e), name, value);
}

static void
bench_element (const FrameSet * fs, const char *factory, int warmup, int frames)
{
  Result *r = result_new (fs->name, fs->width, fs->height, factory, opt_blur);
  GstElement *pipe = NULL, *src = NULL, *elem = NULL, *sink = NULL;
  GstBus *bus = NULL;
  GstCaps *caps;
  Counter counter;
  Stats before, after;
  gchar *message = NULL, *backend = NULL;
  size_t frame_bytes = (size_t) fs->width * fs->height;
  double t0 = 0, t1;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int queue = MAX (opt_queue, 1);

  g_mutex_init (&counter.lock);
  g_cond_init (&counter.cond);
  counter.arrived = 0;

  pipe = gst_pipeline_new ("bench");
  src = gst_element_factory_make ("appsrc", "src");
  elem = gst_element_factory_make (factory, "canny");
  sink = gst_element_factory_make ("fakesink", "sink");
  if (elem == NULL) {
    result_fail (r, "element %s not found (plugin not loaded?)", factory);
    if (src)
      gst_object_unref (src);
    if (sink)
      gst_object_unref (sink);
    gst_object_unref (pipe);
    goto out;
  }
  if (src == NULL || sink == NULL) {
    result_fail (r, "appsrc or fakesink missing");
    goto out_unref;
  }
  gst_bin_add_many (GST_BIN (pipe), src, elem, sink, NULL);
  if (!gst_element_link_many (src, elem, sink, NULL)) {
    result_fail (r, "cannot link appsrc ! %s ! fakesink", factory);
    goto out_pipe;
  }

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, fs->width, "height", G_TYPE_INT, fs->height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, "is-live", FALSE,
      "max-bytes", (guint64) 0, NULL);
  gst_caps_unref (caps);
  g_object_set (sink, "sync", FALSE, "async", FALSE, "signal-handoffs", TRUE, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &counter);

  set_prop (elem, "low-threshold", g_ascii_dtostr (buf, sizeof (buf), opt_low));
  set_prop (elem, "high-threshold", g_ascii_dtostr (buf, sizeof (buf), opt_high));
  g_snprintf (buf, sizeof (buf), "%d", opt_blur);
  set_prop (elem, "blur-size", buf);
  set_prop (elem, "blur-sigma", g_ascii_dtostr (buf, sizeof (buf), opt_sigma));
  if (g_str_has_prefix (factory, "cuda")) {
    g_snprintf (buf, sizeof (buf), "%d", opt_device);
    set_prop (elem, "cuda-device-id", buf);
  }

  bus = gst_element_get_bus (pipe);
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    bus_failed (bus, &message);
    result_fail (r, "cannot start pipeline%s%s", message ? ": " : "", message ? message : "");
    gst_element_set_state (pipe, GST_STATE_NULL);
    goto out_pipe;
  }

  for (int i = 0; i < warmup + frames; i++) {
    GstBuffer *b;
    GstFlowReturn fr;

    if (i == warmup) {
      /* drain the warm-up frames, then start the clock */
      if (!wait_arrived (&counter, bus, warmup, 60, &message))
        break;
      read_stats (elem, &before);
      t0 = now_ms ();
    } else if (i >= queue && !wait_arrived (&counter, bus, i - queue + 1, 60, &message))
      break;
    b = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, fs->frames[i % fs->n],
        frame_bytes, 0, frame_bytes, NULL, NULL);
    GST_BUFFER_PTS (b) = gst_util_uint64_scale (i, GST_SECOND, 30);
    GST_BUFFER_DURATION (b) = gst_util_uint64_scale (1, GST_SECOND, 30);
    fr = gst_app_src_push_buffer (GST_APP_SRC (src), b);
    if (fr != GST_FLOW_OK) {
      message = g_strdup_printf ("push-buffer: %s", gst_flow_get_name (fr));
      break;
    }
  }
  if (message == NULL && wait_arrived (&counter, bus, (guint64) warmup + frames, 60, &message)) {
    t1 = now_ms ();
    read_stats (elem, &after);
    backend = get_property_string (elem, "backend");

    r->count = frames;
    r->ms = (t1 - t0) / frames;
    r->fps = 1000.0 / r->ms;
    g_strlcpy (r->backend, backend ? backend : (after.backend[0] ? after.backend : "?"),
        sizeof (r->backend));
    if (after.ok) {
      r->upload_ms = stats_diff (after.upload, after.frames, before.upload, before.frames);
      r->compute_ms = stats_diff (after.compute, after.frames, before.compute, before.frames);
      r->download_ms = stats_diff (after.download, after.frames, before.download, before.frames);
      r->total_ms = stats_diff (after.total, after.frames, before.total, before.frames);
      if (after.frames - before.frames != (guint64) frames)
        result_note (r, "stats counted %" G_GUINT64_FORMAT " frames, not %d",
            after.frames - before.frames, frames);
    } else {
      result_note (r, "no stats property");
    }
    if (g_str_has_prefix (factory, "cuda") && g_strcmp0 (r->backend, "cuda") != 0)
      result_note (r, "FELL BACK to %s", r->backend);
    g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  up %.3f comp %.3f down %.3f total %.3f  [%s]\n",
        r->impl, r->blur, r->ms, r->fps, r->upload_ms, r->compute_ms, r->download_ms, r->total_ms,
        r->backend);
  } else {
    result_fail (r, "%s", message ? message : "unknown error");
  }

  /* finish cleanly: EOS, then wait for it (bounded) */
  if (message == NULL) {
    GstMessage *m;
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    m = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (m == NULL || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      g_printerr ("    warning: %s did not finish cleanly\n", factory);
    if (m)
      gst_message_unref (m);
  }
  if (gst_element_set_state (pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE)
    g_printerr ("    warning: cannot stop the %s pipeline\n", factory);
out_pipe:
  if (bus)
    gst_object_unref (bus);
  gst_object_unref (pipe);
  goto out;
out_unref:
  gst_object_unref (elem);
  if (src)
    gst_object_unref (src);
  if (sink)
    gst_object_unref (sink);
  gst_object_unref (pipe);
out:
  g_free (message);
  g_free (backend);
  g_mutex_clear (&counter.lock);
  g_cond_clear (&counter.cond);
}

/* ------------------------------------------------------------------------ */
/* CPU algorithm */

/* Our CPU output for frames[0] (blur `blur`), the reference the other
 * implementations are compared with.  NULL on failure. */
static guint8 *
cpu_reference (const FrameSet * fs, int blur)
{
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  GcvCannyParams params = make_params (blur);
  GcvCannyCpu *ctx = gcv_canny_cpu_new (in_fmt, fs->width, fs->height, &err);
  guint8 *out;
  GcvPlane in_p, out_p;

  if (ctx == NULL) {
    g_printerr ("  cpu reference: %s\n", err.message);
    return NULL;
  }
  out = g_malloc ((size_t) fs->width * fs->height);
  in_p = (GcvPlane) { fs->frames[0], fs->width, fs->height, fs->width };
  out_p = (GcvPlane) { out, fs->width, fs->height, fs->width };
  if (gcv_canny_cpu_process (ctx, &params, &in_p, &out_p, 0, &err) != GCV_OK) {
    g_printerr ("  cpu reference: %s\n", err.message);
    g_clear_pointer (&out, g_free);
  }
  gcv_canny_cpu_free (ctx);
  return out;
}

static void
bench_cpu (const FrameSet * fs, int blur, int n_threads, int warmup, int runs, double *edge_frac)
{
  Result *r = result_new (fs->name, fs->width, fs->height,
      n_threads == 1 ? "cpu 1 thread" : "cpu all threads", blur);
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  GcvCannyParams params = make_params (blur);
  GcvCannyCpu *ctx;
  guint8 *out = g_malloc ((size_t) fs->width * fs->height);
  double *t = g_new (double, runs);
  const char *msg;

  r->threads = n_threads ? n_threads : (int) g_get_num_processors ();
  if ((msg = gcv_canny_params_check (&params)) != NULL) {
    result_fail (r, "bad parameters: %s", msg);
    goto out;
  }
  ctx = gcv_canny_cpu_new (in_fmt, fs->width, fs->height, &err);
  if (ctx == NULL) {
    result_fail (r, "gcv_canny_cpu_new: %s", err.message);
    goto out;
  }
  for (int i = 0; i < warmup + runs; i++) {
    int k = i % fs->n;
    GcvPlane in_p = { fs->frames[k], fs->width, fs->height, fs->width };
    GcvPlane out_p = { out, fs->width, fs->height, fs->width };
    double t0 = now_ms ();
    if (gcv_canny_cpu_process (ctx, &params, &in_p, &out_p, n_threads, &err) != GCV_OK) {
      result_fail (r, "gcv_canny_cpu_process: %s", err.message);
      gcv_canny_cpu_free (ctx);
      goto out;
    }
    if (i >= warmup)
      t[i - warmup] = now_ms () - t0;
  }
  /* edge density over the variants, for the record (not timed) */
  if (edge_frac != NULL) {
    guint64 edges = 0;
    for (int k = 0; k < fs->n; k++) {
      GcvPlane in_p = { fs->frames[k], fs->width, fs->height, fs->width };
      GcvPlane out_p = { out, fs->width, fs->height, fs->width };
      if (gcv_canny_cpu_process (ctx, &params, &in_p, &out_p, n_threads, &err) != GCV_OK)
        break;
      for (size_t j = 0; j < (size_t) fs->width * fs->height; j++)
        edges += out[j] != 0;
    }
    *edge_frac = (double) edges / ((double) fs->width * fs->height * fs->n);
  }
  gcv_canny_cpu_free (ctx);
  r->count = runs;
  r->mean_ms = mean (t, runs);
  r->ms = median (t, runs);
  r->fps = 1000.0 / r->ms;
  g_strlcpy (r->backend, "cpu", sizeof (r->backend));
  g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  (median of %d, %d threads)\n",
      r->impl, blur, r->ms, r->fps, runs, r->threads);
out:
  g_free (out);
  g_free (t);
}

/* ------------------------------------------------------------------------ */
/* OpenCV */

static void
bench_opencv (const FrameSet * fs, int blur, int n_threads, int warmup, int runs, const guint8 * ref)
{
  Result *r = result_new (fs->name, fs->width, fs->height,
      n_threads == 1 ? "opencv 1 thread" : "opencv all threads", blur);
#ifdef GCVB_HAVE_OPENCV
  char err[512] = "";
  int threads = 0;
  guint8 *out = ref ? g_malloc ((size_t) fs->width * fs->height) : NULL;

  if (gcvb_opencv_canny_time ((const uint8_t * const *) fs->frames, fs->n, fs->width, fs->height,
          fs->width, blur, blur > 0 ? opt_sigma : 0, opt_low, opt_high, 0, n_threads, warmup, runs,
          &r->ms, &r->mean_ms, &threads, out, fs->width, err, sizeof (err)) != 0) {
    result_fail (r, "%s", err);
  } else {
    r->threads = threads;
    r->count = runs;
    r->fps = 1000.0 / r->ms;
    g_snprintf (r->backend, sizeof (r->backend), "opencv");
    if (ref != NULL) {
      r->mismatch = count_mismatch (out, ref, fs->width, fs->height);
      result_note (r, "%" G_GINT64_FORMAT " px differ from ours", r->mismatch);
    }
    g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  (median of %d, %d threads)%s%s\n",
        r->impl, blur, r->ms, r->fps, runs, threads, r->note[0] ? "  " : "", r->note);
  }
  g_free (out);
#else
  result_skip (r, "built without OpenCV");
#endif
}

/* ------------------------------------------------------------------------ */
/* CUDA */

typedef struct {
  gboolean available;
  char why[128];                /* when not available, short */
  char detail[512];             /* when not available, the error */
  char name[256];
  double peak_gbps, copy_gbps;
  /* 1080p frame copies (ms, GB/s) */
  gboolean have_copies;
  double h2d_pinned_ms, d2h_pinned_ms, h2d_pageable_ms, d2h_pageable_ms;
  size_t copy_bytes;
} CudaInfo;

static CudaInfo cuda;

#if BENCH_CUDA

#define CU_TRY(call, what) \
  do { if ((call) != GCV_OK) { g_snprintf (why, sizeof (why), "%s: %s", what, err.message); goto fail; } } while (0)

static void
cuda_probe (void)
{
  GcvError err = { 0 };
  int n = gcv_cuda_device_count (&err);
  char msg[512];

  if (n <= 0) {
    g_snprintf (cuda.why, sizeof (cuda.why), "no CUDA device");
    g_snprintf (cuda.detail, sizeof (cuda.detail), "%s", err.message[0] ? err.message : "none found");
    return;
  }
  if (opt_device < 0 || opt_device >= n) {
    g_snprintf (cuda.why, sizeof (cuda.why), "device %d does not exist (%d found)", opt_device, n);
    return;
  }
  if (gcv_cuda_set_device (opt_device, &err) != GCV_OK ||
      gcv_cuda_device_describe (opt_device, cuda.name, sizeof (cuda.name), &err) != GCV_OK) {
    g_snprintf (cuda.why, sizeof (cuda.why), "device %d unusable: %s", opt_device, err.message);
    return;
  }
  cuda.available = TRUE;
  if (gcvb_cuda_mem_bandwidth (opt_device, (size_t) 256 << 20, 20, &cuda.peak_gbps, &cuda.copy_gbps,
          msg, sizeof (msg)) != 0) {
    g_printerr ("warning: device bandwidth: %s\n", msg);
    cuda.peak_gbps = cuda.copy_gbps = 0;
  }
}

/* Median ms of `runs` copies of one w x h GRAY8 frame, host <-> device. */
static gboolean
time_copies (void *host, void *dev, size_t pitch, int w, int h, gboolean upload, int runs, void *stream,
    GcvCudaEvent ** ev, double *ms_out, char *why, size_t why_len)
{
  GcvError err = { 0 };
  double *t = g_new (double, runs);
  gboolean ok = FALSE;
  int warm = 5;

  for (int i = 0; i < warm + runs; i++) {
    float ms;
    GcvStatus s;
    if (gcv_cuda_event_record (ev[0], stream, &err) != GCV_OK)
      goto fail;
    s = upload ? gcv_cuda_upload_2d (dev, pitch, host, w, w, h, stream, &err)
        : gcv_cuda_download_2d (host, w, dev, pitch, w, h, stream, &err);
    if (s != GCV_OK || gcv_cuda_event_record (ev[1], stream, &err) != GCV_OK ||
        gcv_cuda_event_sync (ev[1], &err) != GCV_OK ||
        gcv_cuda_event_elapsed (ev[0], ev[1], &ms, &err) != GCV_OK)
      goto fail;
    if (i >= warm)
      t[i - warm] = ms;
  }
  *ms_out = median (t, runs);
  ok = TRUE;
fail:
  if (!ok)
    g_snprintf (why, why_len, "%s copy: %s", upload ? "H2D" : "D2H", err.message);
  g_free (t);
  return ok;
}

static void
bench_transfers (int runs)
{
  GcvError err = { 0 };
  const int w = 1920, h = 1080;
  void *pinned = NULL, *pageable = NULL, *dev = NULL, *stream = NULL;
  size_t pitch = 0;
  GcvCudaEvent *ev[2] = { NULL, NULL };
  char why[512] = "";

  cuda.copy_bytes = (size_t) w * h;
  CU_TRY (gcv_cuda_set_device (opt_device, &err), "set device");
  CU_TRY (gcv_cuda_stream_new (&stream, &err), "stream");
  CU_TRY (gcv_cuda_event_new (&ev[0], &err), "event");
  CU_TRY (gcv_cuda_event_new (&ev[1], &err), "event");
  CU_TRY (gcv_cuda_host_alloc (&pinned, cuda.copy_bytes, &err), "pinned alloc");
  CU_TRY (gcv_cuda_malloc_2d (&dev, &pitch, w, h, &err), "device alloc");
  pageable = g_malloc (cuda.copy_bytes);
  memset (pinned, 0x55, cuda.copy_bytes);
  memset (pageable, 0x55, cuda.copy_bytes);
  if (!time_copies (pinned, dev, pitch, w, h, TRUE, runs, stream, ev, &cuda.h2d_pinned_ms, why, sizeof (why)) ||
      !time_copies (pinned, dev, pitch, w, h, FALSE, runs, stream, ev, &cuda.d2h_pinned_ms, why, sizeof (why)) ||
      !time_copies (pageable, dev, pitch, w, h, TRUE, runs, stream, ev, &cuda.h2d_pageable_ms, why, sizeof (why)) ||
      !time_copies (pageable, dev, pitch, w, h, FALSE, runs, stream, ev, &cuda.d2h_pageable_ms, why, sizeof (why)))
    goto fail;
  cuda.have_copies = TRUE;
  goto done;
fail:
  g_printerr ("  transfers FAILED: %s\n", why);
done:
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  g_free (pageable);
  if (pinned)
    gcv_cuda_host_free (pinned);
  if (dev)
    gcv_cuda_free (dev);
  for (int i = 0; i < 2; i++)
    if (ev[i])
      gcv_cuda_event_free (ev[i]);
  if (stream)
    gcv_cuda_stream_free (stream);
}

/* Kernels only: the input frames already on the device, `runs` launches
 * queued back to back (each between two events), median event time. */
static void
bench_cuda_kernel (const FrameSet * fs, int blur, int warmup, int runs, const guint8 * ref)
{
  Result *r = result_new (fs->name, fs->width, fs->height, "cuda kernel", blur);
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  GcvCannyParams params = make_params (blur);
  GcvCannyCuda *ctx = NULL;
  int n_in = fs->n, w = fs->width, h = fs->height;
  void **d_in = g_new0 (void *, n_in), *d_out = NULL, *stream = NULL;
  size_t *in_pitch = g_new0 (size_t, n_in), out_pitch = 0;
  GcvCudaEvent **ev = g_new0 (GcvCudaEvent *, 2 * runs);
  double *t = g_new (double, runs);
  guint8 *check = NULL;
  char why[768] = "";
  const char *msg;

  if ((msg = gcv_canny_params_check (&params)) != NULL) {
    g_snprintf (why, sizeof (why), "bad parameters: %s", msg);
    goto fail;
  }
  CU_TRY (gcv_cuda_set_device (opt_device, &err), "set device");
  CU_TRY (gcv_cuda_stream_new (&stream, &err), "stream");
  ctx = gcv_canny_cuda_new (in_fmt, w, h, &err);
  if (ctx == NULL) {
    g_snprintf (why, sizeof (why), "gcv_canny_cuda_new: %s", err.message);
    goto fail;
  }
  for (int k = 0; k < n_in; k++) {
    CU_TRY (gcv_cuda_malloc_2d (&d_in[k], &in_pitch[k], w, h, &err), "device alloc");
    CU_TRY (gcv_cuda_upload_2d (d_in[k], in_pitch[k], fs->frames[k], w, w, h, stream, &err), "upload");
  }
  CU_TRY (gcv_cuda_malloc_2d (&d_out, &out_pitch, w, h, &err), "device alloc");
  for (int i = 0; i < 2 * runs; i++)
    CU_TRY (gcv_cuda_event_new (&ev[i], &err), "event");
  CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");

  /* correctness against our CPU backend (bit-identical by contract) */
  if (ref != NULL) {
    GcvPlane in_p = { d_in[0], w, h, in_pitch[0] }, out_p = { d_out, w, h, out_pitch };
    check = g_malloc ((size_t) w * h);
    CU_TRY (gcv_canny_cuda_process (ctx, &params, &in_p, &out_p, stream, &err), "process");
    CU_TRY (gcv_cuda_download_2d (check, w, d_out, out_pitch, w, h, stream, &err), "download");
    CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");
    r->mismatch = count_mismatch (check, ref, w, h);
    result_note (r, "%" G_GINT64_FORMAT " px differ from cpu", r->mismatch);
  }

  for (int i = 0; i < warmup; i++) {
    GcvPlane in_p = { d_in[i % n_in], w, h, in_pitch[i % n_in] }, out_p = { d_out, w, h, out_pitch };
    CU_TRY (gcv_canny_cuda_process (ctx, &params, &in_p, &out_p, stream, &err), "process");
  }
  CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");
  for (int i = 0; i < runs; i++) {
    GcvPlane in_p = { d_in[i % n_in], w, h, in_pitch[i % n_in] }, out_p = { d_out, w, h, out_pitch };
    CU_TRY (gcv_cuda_event_record (ev[2 * i], stream, &err), "event record");
    CU_TRY (gcv_canny_cuda_process (ctx, &params, &in_p, &out_p, stream, &err), "process");
    CU_TRY (gcv_cuda_event_record (ev[2 * i + 1], stream, &err), "event record");
  }
  CU_TRY (gcv_cuda_event_sync (ev[2 * runs - 1], &err), "event sync");
  {
    float span = 0;
    CU_TRY (gcv_cuda_event_elapsed (ev[0], ev[2 * runs - 1], &span, &err), "event elapsed");
    r->mean_ms = span / runs;   /* back to back: throughput per frame */
  }
  for (int i = 0; i < runs; i++) {
    float ms;
    CU_TRY (gcv_cuda_event_elapsed (ev[2 * i], ev[2 * i + 1], &ms, &err), "event elapsed");
    t[i] = ms;
  }
  r->count = runs;
  r->ms = median (t, runs);
  r->fps = 1000.0 / r->ms;
  r->compute_ms = r->ms;
  r->gbps = 2.0 * w * h / (r->ms * 1e-3) / 1e9;
  if (cuda.peak_gbps > 0)
    r->peak_frac = r->gbps / cuda.peak_gbps;
  g_strlcpy (r->backend, "cuda", sizeof (r->backend));
  result_note (r, "%.1f GB/s effective (in+out)", r->gbps);
  if (cuda.peak_gbps > 0)
    result_note (r, "%.2f%% of %.0f GB/s peak", 100 * r->peak_frac, cuda.peak_gbps);
  g_printerr ("  %-18s blur %d  %8.4f ms/frame %8.1f fps  (median of %d; back-to-back mean %.4f)  %s\n",
      r->impl, blur, r->ms, r->fps, runs, r->mean_ms, r->note);
  goto done;
fail:
  result_fail (r, "%s", why);
done:
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  g_free (check);
  for (int i = 0; i < 2 * runs; i++)
    if (ev[i])
      gcv_cuda_event_free (ev[i]);
  for (int k = 0; k < n_in; k++)
    if (d_in[k])
      gcv_cuda_free (d_in[k]);
  if (d_out)
    gcv_cuda_free (d_out);
  if (ctx)
    gcv_canny_cuda_free (ctx);
  if (stream)
    gcv_cuda_stream_free (stream);
  g_free (d_in);
  g_free (in_pitch);
  g_free (ev);
  g_free (t);
}

#else /* !BENCH_CUDA */

static void
cuda_probe (void)
{
  g_snprintf (cuda.why, sizeof (cuda.why), "built without CUDA");
}

#endif

/* ------------------------------------------------------------------------ */
/* output */

static void
fmt_num (char *buf, size_t len, double v, const char *fmt)
{
  if (isnan (v))
    g_strlcpy (buf, "-", len);
  else
    g_snprintf (buf, len, fmt, v);
}

static void
print_table (void)
{
  char ms[32], fps[32], up[32], comp[32], down[32], tot[32];

  g_print ("\n%-9s %-18s %4s %10s %9s %8s %8s %8s %8s %-7s %s\n", "size", "implementation", "blur",
      "ms/frame", "fps", "upload", "compute", "download", "total", "backend", "notes");
  g_print ("%s\n", "-----------------------------------------------------------------------------------"
      "------------------------------------------");
  for (guint i = 0; i < results->len; i++) {
    Result *r = &g_array_index (results, Result, i);
    if (i > 0 && strcmp (r->size, g_array_index (results, Result, i - 1).size) != 0)
      g_print ("\n");
    if (r->skipped) {
      g_print ("%-9s %-18s %4d %10s %9s %8s %8s %8s %8s %-7s %s%s\n", r->size, r->impl, r->blur,
          "-", "-", "-", "-", "-", "-", "-", r->failed ? "" : "skipped: ", r->note);
      continue;
    }
    fmt_num (ms, sizeof (ms), r->ms, r->ms < 1 ? "%.4f" : "%.3f");
    fmt_num (fps, sizeof (fps), r->fps, "%.1f");
    fmt_num (up, sizeof (up), r->upload_ms, "%.4f");
    fmt_num (comp, sizeof (comp), r->compute_ms, "%.4f");
    fmt_num (down, sizeof (down), r->download_ms, "%.4f");
    fmt_num (tot, sizeof (tot), r->total_ms, "%.4f");
    g_print ("%-9s %-18s %4d %10s %9s %8s %8s %8s %8s %-7s ", r->size, r->impl, r->blur, ms, fps, up, comp,
        down, tot, r->backend);
    if (r->threads > 0)
      g_print ("%d thr; ", r->threads);
    if (strstr (r->impl, "canny") != NULL)
      g_print ("wall clock over %" G_GUINT64_FORMAT " frames", r->count);
    else
      g_print ("median of %" G_GUINT64_FORMAT, r->count);
    g_print ("%s%s\n", r->note[0] ? "; " : "", r->note);
  }
  g_print ("\nElements: ms/frame and fps are end to end (appsrc ! element ! fakesink, wall clock);\n"
      "upload/compute/download/total are the element's stats means over the same frames.\n"
      "cuda kernel: CUDA-event time of gcv_canny_cuda_process on device buffers (no copies).\n"
      "cpu/opencv: wall time of one call on host memory.  blur 0 = no Gaussian (cv::Canny alone),\n"
      "blur %d = Gaussian %dx%d sigma %.2f first (cv::GaussianBlur + cv::Canny for OpenCV).\n",
      opt_blur, opt_blur, opt_blur, opt_sigma);
}

typedef struct {
  char size[16];
  double frac;                  /* edge pixels / all pixels, our CPU, default blur */
} EdgeFrac;

static void
json_str (GString * s, const char *v)
{
  g_string_append_c (s, '"');
  for (const char *p = v; *p; p++) {
    unsigned char c = *p;
    if (c == '"' || c == '\\')
      g_string_append_printf (s, "\\%c", c);
    else if (c < 0x20)
      g_string_append_printf (s, "\\u%04x", c);
    else
      g_string_append_c (s, c);
  }
  g_string_append_c (s, '"');
}

static void
json_num (GString * s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (v) || isinf (v))
    g_string_append (s, "null");
  else
    g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.6g", v));
}

#define JKEY(s, k) g_string_append_printf (s, "\"%s\": ", k)

static gboolean
write_json (const char *path, const char *date, const char *cpu, const char *plugin_file,
    const GArray * edges)
{
  GString *s = g_string_new ("{\n");
  GError *error = NULL;
  gboolean ok;

  g_string_append (s, "  \"benchmark\": \"canny\",\n  \"date\": ");
  json_str (s, date);
  g_string_append (s, ",\n");
  g_string_append (s, "  \"host\": {");
  JKEY (s, "cpu"), json_str (s, cpu);
  g_string_append_printf (s, ", \"cpu_threads\": %u, ", g_get_num_processors ());
  JKEY (s, "gpu"), json_str (s, cuda.available ? cuda.name : "");
  g_string_append (s, ", ");
  JKEY (s, "gpu_skipped_reason"), json_str (s, cuda.available ? "" : cuda.why);
  g_string_append (s, ", ");
  JKEY (s, "gpu_error"), json_str (s, cuda.detail);
  g_string_append (s, ", \"gpu_mem_peak_gbps\": "), json_num (s, cuda.available ? cuda.peak_gbps : NAN);
  g_string_append (s, ", \"gpu_mem_d2d_copy_gbps\": "), json_num (s, cuda.available ? cuda.copy_gbps : NAN);
  g_string_append (s, ", ");
  JKEY (s, "gstreamer"), json_str (s, gst_version_string ());
  g_string_append (s, ", ");
  JKEY (s, "opencv");
#ifdef GCVB_HAVE_OPENCV
  json_str (s, gcvb_opencv_version ());
#else
  g_string_append (s, "null");
#endif
  g_string_append (s, ", ");
  JKEY (s, "plugin"), json_str (s, plugin_file ? plugin_file : "");
  g_string_append (s, "},\n");

  g_string_append_printf (s, "  \"config\": {\"low_threshold\": %g, \"high_threshold\": %g, "
      "\"blur_size\": %d, \"blur_sigma\": %g, \"l2_gradient\": false, \"warmup\": %d, "
      "\"gpu_frames\": %d, \"cpu_frames\": %d, \"kernel_runs\": %d, \"cpu_runs\": %d, "
      "\"variants\": %d, \"queue\": %d, \"device\": %d, \"quick\": %s},\n",
      opt_low, opt_high, opt_blur, opt_sigma, opt_warmup, opt_frames, opt_cpu_frames, opt_runs,
      opt_cpu_runs, opt_variants, opt_queue, opt_device, opt_quick ? "true" : "false");

  g_string_append (s, "  \"transfers_1080p\": ");
  if (cuda.have_copies) {
    double mb = cuda.copy_bytes / 1e6;
    g_string_append_printf (s, "{\"bytes\": %zu, \"h2d_pinned_ms\": ", cuda.copy_bytes);
    json_num (s, cuda.h2d_pinned_ms);
    g_string_append (s, ", \"h2d_pinned_gbps\": "), json_num (s, mb / cuda.h2d_pinned_ms);
    g_string_append (s, ", \"d2h_pinned_ms\": "), json_num (s, cuda.d2h_pinned_ms);
    g_string_append (s, ", \"d2h_pinned_gbps\": "), json_num (s, mb / cuda.d2h_pinned_ms);
    g_string_append (s, ", \"h2d_pageable_ms\": "), json_num (s, cuda.h2d_pageable_ms);
    g_string_append (s, ", \"h2d_pageable_gbps\": "), json_num (s, mb / cuda.h2d_pageable_ms);
    g_string_append (s, ", \"d2h_pageable_ms\": "), json_num (s, cuda.d2h_pageable_ms);
    g_string_append (s, ", \"d2h_pageable_gbps\": "), json_num (s, mb / cuda.d2h_pageable_ms);
    g_string_append (s, "},\n");
  } else {
    g_string_append (s, "null,\n");
  }

  g_string_append (s, "  \"edge_fraction\": {");
  for (guint i = 0; i < edges->len; i++) {
    const EdgeFrac *e = &g_array_index (edges, EdgeFrac, i);
    g_string_append (s, i ? ", " : "");
    JKEY (s, e->size), json_num (s, e->frac);
  }
  g_string_append (s, "},\n");

  g_string_append (s, "  \"results\": [\n");
  for (guint i = 0; i < results->len; i++) {
    Result *r = &g_array_index (results, Result, i);
    g_string_append (s, "    {");
    JKEY (s, "size"), json_str (s, r->size);
    g_string_append_printf (s, ", \"width\": %d, \"height\": %d, ", r->width, r->height);
    JKEY (s, "implementation"), json_str (s, r->impl);
    g_string_append_printf (s, ", \"blur_size\": %d, \"skipped\": %s, \"failed\": %s", r->blur,
        r->skipped ? "true" : "false", r->failed ? "true" : "false");
    g_string_append (s, ", \"ms_per_frame\": "), json_num (s, r->ms);
    g_string_append (s, ", \"mean_ms\": "), json_num (s, r->mean_ms);
    g_string_append (s, ", \"fps\": "), json_num (s, r->fps);
    g_string_append (s, ", \"upload_ms\": "), json_num (s, r->upload_ms);
    g_string_append (s, ", \"compute_ms\": "), json_num (s, r->compute_ms);
    g_string_append (s, ", \"download_ms\": "), json_num (s, r->download_ms);
    g_string_append (s, ", \"total_ms\": "), json_num (s, r->total_ms);
    g_string_append (s, ", \"effective_gbps\": "), json_num (s, r->gbps);
    g_string_append (s, ", \"fraction_of_peak_bw\": "), json_num (s, r->peak_frac);
    g_string_append_printf (s, ", \"threads\": %d, \"count\": %" G_GUINT64_FORMAT ", ", r->threads, r->count);
    JKEY (s, "mismatch_px");
    if (r->mismatch >= 0)
      g_string_append_printf (s, "%" G_GINT64_FORMAT, r->mismatch);
    else
      g_string_append (s, "null");
    g_string_append (s, ", ");
    JKEY (s, "backend"), json_str (s, r->backend);
    g_string_append (s, ", ");
    JKEY (s, "note"), json_str (s, r->note);
    g_string_append_printf (s, "}%s\n", i + 1 < results->len ? "," : "");
  }
  g_string_append (s, "  ]\n}\n");

  ok = g_file_set_contents (path, s->str, s->len, &error);
  if (!ok) {
    g_printerr ("cannot write %s: %s\n", path, error->message);
    g_error_free (error);
  }
  g_string_free (s, TRUE);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* main */

typedef struct {
  char name[16];
  int width, height;
} SizeSpec;

static gboolean
parse_size (const char *text, SizeSpec * out)
{
  int w, h;
  char *t = g_ascii_strdown (text, -1);

  g_strstrip (t);
  if (strcmp (t, "720p") == 0)
    w = 1280, h = 720;
  else if (strcmp (t, "1080p") == 0)
    w = 1920, h = 1080;
  else if (strcmp (t, "4k") == 0 || strcmp (t, "2160p") == 0 || strcmp (t, "uhd") == 0)
    w = 3840, h = 2160;
  else if (sscanf (t, "%dx%d", &w, &h) != 2 || w < 16 || h < 16 || w > 16384 || h > 16384) {
    g_free (t);
    return FALSE;
  }
  g_strlcpy (out->name, t, sizeof (out->name));
  out->width = w;
  out->height = h;
  g_free (t);
  return TRUE;
}

static void
skip_row (const FrameSet * fs, const char *impl, int blur, const char *why)
{
  Result *r = result_new (fs->name, fs->width, fs->height, impl, blur);
  result_skip (r, "%s", why);
}

/* Loads the plugin file (so that the elements of this build, not an
 * installed copy, are measured).  Returns the file the elements come from. */
static gchar *
load_plugin (void)
{
  const char *file = opt_plugin ? opt_plugin : GCVB_PLUGIN_FILE;
  GstElementFactory *f;
  gchar *used = NULL;

  if (file[0] != '\0') {
    if (!g_file_test (file, G_FILE_TEST_EXISTS)) {
      if (opt_plugin != NULL) {
        g_printerr ("error: plugin %s does not exist\n", file);
        exit (1);
      }
      g_printerr ("note: %s not built; looking for the elements in the registry\n", file);
    } else {
      GError *error = NULL;
      GstPlugin *p = gst_plugin_load_file (file, &error);
      if (p == NULL) {
        g_printerr ("error: cannot load %s: %s\n", file, error ? error->message : "?");
        exit (1);
      }
      gst_object_unref (p);
    }
  }
  f = gst_element_factory_find ("cpucanny");
  if (f == NULL)
    f = gst_element_factory_find ("cudacanny");
  if (f != NULL) {
    GstPlugin *p = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE (f));
    if (p != NULL) {
      used = g_strdup (gst_plugin_get_filename (p));
      gst_object_unref (p);
    }
    gst_object_unref (f);
  }
  return used;
}

int
main (int argc, char **argv)
{
  GOptionContext *octx;
  GError *error = NULL;
  Photo photos[G_N_ELEMENTS (photo_names)];
  int n_photos = 0;
  gchar **size_list;
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (SizeSpec));
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (EdgeFrac));
  gchar *plugin_file, *cpu, *date;
  GDateTime *now;
  const char *data_dir;
  gboolean do_elements, do_cuda, do_cpu, do_opencv, do_transfers;

  octx = g_option_context_new ("- benchmark cudacanny / cpucanny and the Canny backends");
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 2;
  }
  g_option_context_free (octx);
  gst_init (&argc, &argv);

  if (opt_quick) {
    /* keep what was given explicitly (anything not the default) */
    if (opt_frames == 500)
      opt_frames = 60;
    if (opt_warmup == 50)
      opt_warmup = 5;
    if (opt_cpu_frames == 0)
      opt_cpu_frames = 8;
    if (opt_runs == 300)
      opt_runs = 50;
    if (opt_cpu_runs == 0)
      opt_cpu_runs = 3;
  }
  if (opt_frames < 1 || opt_warmup < 0 || opt_cpu_frames < 0 || opt_runs < 1 || opt_cpu_runs < 0 ||
      opt_queue < 1) {
    g_printerr ("error: --frames, --runs and --queue must be >= 1, --warmup and others >= 0\n");
    return 2;
  }
  if (opt_variants < 4 || opt_variants > 64) {
    g_printerr ("error: --variants must be 4 .. 64\n");
    return 2;
  }
  {
    GcvCannyParams p = make_params (opt_blur);
    const char *msg = gcv_canny_params_check (&p);
    if (msg != NULL) {
      g_printerr ("error: bad Canny parameters: %s\n", msg);
      return 2;
    }
  }
  size_list = g_strsplit (opt_sizes ? opt_sizes : "720p,1080p,4k", ",", -1);
  for (int i = 0; size_list[i] != NULL; i++) {
    SizeSpec sz;
    if (size_list[i][0] == '\0')
      continue;
    if (!parse_size (size_list[i], &sz)) {
      g_printerr ("error: unknown size '%s' (720p, 1080p, 4k or WxH)\n", size_list[i]);
      return 2;
    }
    g_array_append_val (sizes, sz);
  }
  g_strfreev (size_list);

  do_elements = !skipped_part ("elements");
  do_cuda = !skipped_part ("cuda");
  do_cpu = !skipped_part ("cpu");
  do_opencv = !skipped_part ("opencv");
  do_transfers = !skipped_part ("transfers");

  results = g_array_new (FALSE, FALSE, sizeof (Result));
  now = g_date_time_new_now_local ();
  date = g_date_time_format (now, "%Y-%m-%d %H:%M:%S %z");
  g_date_time_unref (now);
  cpu = cpu_model ();
  plugin_file = do_elements ? load_plugin () : NULL;
  cuda_probe ();

  g_print ("bench-canny  %s\n", date);
  g_print ("CPU:        %s, %u threads\n", cpu, g_get_num_processors ());
  if (cuda.available) {
    g_print ("GPU:        %s (device %d)\n", cuda.name, opt_device);
    if (cuda.peak_gbps > 0 || cuda.copy_gbps > 0)
      g_print ("GPU memory: %.0f GB/s theoretical peak, %.0f GB/s device-to-device copy (read+write)\n",
          cuda.peak_gbps, cuda.copy_gbps);
  } else {
    g_print ("GPU:        none -- GPU parts SKIPPED: %s%s%s%s\n", cuda.why, cuda.detail[0] ? " (" : "",
        cuda.detail, cuda.detail[0] ? ")" : "");
  }
  g_print ("GStreamer:  %s\n", gst_version_string ());
#ifdef GCVB_HAVE_OPENCV
  g_print ("OpenCV:     %s\n", gcvb_opencv_version ());
#else
  g_print ("OpenCV:     not built in (peer rows skipped)\n");
#endif
  if (do_elements)
    g_print ("Plugin:     %s\n", plugin_file ? plugin_file : "NOT FOUND (element rows will fail)");
  g_print ("Canny:      low %g, high %g, blur %d sigma %g (and blur 0), L1 gradient, edges output\n",
      opt_low, opt_high, opt_blur, opt_sigma);
  {
    char cf[32], cr[32];
    g_snprintf (cf, sizeof (cf), opt_cpu_frames ? "%d" : "200 (50 above 1080p)", opt_cpu_frames);
    g_snprintf (cr, sizeof (cr), opt_cpu_runs ? "%d" : "30 (10 above 1080p)", opt_cpu_runs);
    g_print ("Runs:       warm-up %d; cudacanny %d frames, cpucanny %s frames; kernel %d runs, "
        "cpu/opencv %s runs%s\n", opt_warmup, opt_frames, cf, opt_runs, cr,
        opt_quick ? "  [--quick: rough numbers]" : "");
  }

  data_dir = opt_data_dir ? opt_data_dir : GCVB_DATA_DIR;
  for (guint i = 0; i < G_N_ELEMENTS (photo_names); i++) {
    gchar *path = g_build_filename (data_dir, photo_names[i], NULL);
    if (load_photo (path, &photos[n_photos], &error))
      n_photos++;
    else {
      g_printerr ("warning: %s\n", error->message);
      g_clear_error (&error);
    }
    g_free (path);
  }
  if (n_photos == 0) {
    g_printerr ("error: no test photo could be loaded from %s (use --data-dir)\n", data_dir);
    return 1;
  }
  g_print ("Frames:     %d variants per size from", opt_variants);
  for (int i = 0; i < n_photos; i++)
    g_print (" %s (%dx%d)", photos[i].name, photos[i].width, photos[i].height);
  g_print (", luma, scaled and mirror-tiled\n");

  (void) do_transfers;          /* unused without CUDA */
#if BENCH_CUDA
  if (cuda.available && do_transfers) {
    g_printerr ("\n== transfers (1920x1080 GRAY8) ==\n");
    bench_transfers (opt_runs);
  }
#endif

  for (guint si = 0; si < sizes->len; si++) {
    const SizeSpec *sz = &g_array_index (sizes, SizeSpec, si);
    gboolean big = (gint64) sz->width * sz->height > 1920 * 1080;
    int cpu_frames = opt_cpu_frames ? opt_cpu_frames : big ? 50 : 200;
    int cpu_warm = MIN (opt_warmup, 10);
    int cpu_runs = opt_cpu_runs ? opt_cpu_runs : big ? 10 : 30;
    int cpu_warm_runs = opt_quick ? 1 : 3;
    int blurs[2] = { opt_blur, 0 };
    int n_blurs = opt_blur ? 2 : 1;
    guint8 *ref[2] = { NULL, NULL };
    FrameSet fs;
    EdgeFrac ef;

    g_printerr ("\n== %s (%dx%d) ==\n", sz->name, sz->width, sz->height);
    frameset_init (&fs, sz->name, sz->width, sz->height, photos, n_photos, opt_variants);
    if (opt_dump != NULL)
      dump_frames (&fs, opt_dump);

    if (do_elements) {
      if (cuda.available)
        bench_element (&fs, "cudacanny", opt_warmup, opt_frames);
      else
        skip_row (&fs, "cudacanny", opt_blur, cuda.why);
      bench_element (&fs, "cpucanny", cpu_warm, cpu_frames);
    }
    if (do_cuda || do_opencv)
      for (int b = 0; b < n_blurs; b++)
        ref[b] = cpu_reference (&fs, blurs[b]);
    if (do_cuda)
      for (int b = 0; b < n_blurs; b++) {
#if BENCH_CUDA
        if (cuda.available)
          bench_cuda_kernel (&fs, blurs[b], MIN (opt_warmup, 50) + 5, opt_runs, ref[b]);
        else
#endif
          skip_row (&fs, "cuda kernel", blurs[b], cuda.why);
      }
    if (do_cpu) {
      ef.frac = NAN;
      for (int threads = 1; threads >= 0; threads--)
        for (int b = 0; b < n_blurs; b++)
          bench_cpu (&fs, blurs[b], threads, cpu_warm_runs, cpu_runs,
              threads == 0 && b == 0 ? &ef.frac : NULL);
      g_strlcpy (ef.size, sz->name, sizeof (ef.size));
      g_array_append_val (edges, ef);
      g_printerr ("  edge pixels: %.2f%% (mean over the %d frames, blur %d)\n", 100 * ef.frac, fs.n, opt_blur);
    }
    if (do_opencv)
      for (int threads = 1; threads >= 0; threads--)
        for (int b = 0; b < n_blurs; b++)
          bench_opencv (&fs, blurs[b], threads, cpu_warm_runs, cpu_runs, ref[b]);

    g_free (ref[0]);
    g_free (ref[1]);
    frameset_clear (&fs);
  }

  print_table ();
  if (cuda.have_copies) {
    double mb = cuda.copy_bytes / 1e6;
    g_print ("\nTransfers of one 1920x1080 GRAY8 frame (%zu bytes), median of %d:\n"
        "  H2D pinned   %.4f ms  %6.2f GB/s     D2H pinned   %.4f ms  %6.2f GB/s\n"
        "  H2D pageable %.4f ms  %6.2f GB/s     D2H pageable %.4f ms  %6.2f GB/s\n",
        cuda.copy_bytes, opt_runs,
        cuda.h2d_pinned_ms, mb / cuda.h2d_pinned_ms, cuda.d2h_pinned_ms, mb / cuda.d2h_pinned_ms,
        cuda.h2d_pageable_ms, mb / cuda.h2d_pageable_ms, cuda.d2h_pageable_ms, mb / cuda.d2h_pageable_ms);
  }
  if (cuda.available)
    g_print ("GPU %s: memory %.0f GB/s peak, %.0f GB/s measured D2D copy\n", cuda.name, cuda.peak_gbps,
        cuda.copy_gbps);
  else
    g_print ("GPU parts skipped: %s\n", cuda.why);
  g_print ("CPU %s, %u threads; %s\n", cpu, g_get_num_processors (), date);

  {
    const char *json = opt_json ? opt_json : "bench-canny.json";
    if (write_json (json, date, cpu, plugin_file, edges))
      g_print ("Results written to %s\n", json);
    else
      n_failures++;
  }
  if (n_failures > 0)
    g_print ("%d measurement(s) FAILED, see above\n", n_failures);

  for (int i = 0; i < n_photos; i++) {
    g_free (photos[i].name);
    g_free (photos[i].pixels);
  }
  g_array_free (results, TRUE);
  g_array_free (sizes, TRUE);
  g_array_free (edges, TRUE);
  g_free (plugin_file);
  g_free (cpu);
  g_free (date);
  gst_deinit ();
  return n_failures > 0 ? 1 : 0;
}
