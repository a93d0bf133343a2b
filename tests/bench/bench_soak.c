/* gst-cuda-video: soak benchmark (issue 19, robustness): every element
 * runs many frames at a small size in one process, and the process's
 * resident memory must not grow.
 *
 *   bench-soak [--frames N] [--warmup N] [--elements LIST] [--size WxH]
 *       [--tolerance-kib K] [--tolerance-pct P] [--queue N] [--quick] [--json FILE]
 *
 * Each of the 14 elements (cpu* and cuda*, in that order for each algorithm)
 * in its own pipeline, one after another in this process:
 *   appsrc ! element [! capsfilter] ! fakesink sync=false
 * at 64x48 (--size) with its defaults except:
 *   canny         GRAY8
 *   bsplinescale  GRAY8 -> capsfilter 1.5x (96x72)
 *   conv3d        GRAY8, size=5 (holds 2 frames until EOS)
 *   seamcarve     RGBA, width = 7/8 of the input (56), capsfilter to it
 *   motionest     GRAY8, 16x16 blocks +-16 (its defaults)
 *   vcm           GRAY8 (its defaults)
 *   dibr          RGBA side-by-side 2D+Z (2 x 64 wide: 128x48),
 *                 output=stereo-side-by-side symmetric=true, the DIBR test
 *                 scene's z range, focal length, baseline and convergence
 * The cuda* elements keep fallback=true: without a GPU they run on the CPU
 * (the "backend" column says which), which soaks their own code around
 * the backend all the same.
 *
 * The input: --variants frames per format, made before anything runs
 * (the test photos scaled and shifted, gcvb_frameset_init; the 2D+Z frames
 * ray-cast from the DIBR test scene, tests/dibr_scene.h), rotated through
 * and wrapped read-only into each buffer (no copy): what is allocated per
 * frame is the pipeline's and the element's own.  At most --queue frames
 * in flight beyond those the element holds back.
 *
 * Memory: RSS (/proc/self/statm) after --warmup frames (default 1000: the
 * pools, the elements' work buffers and malloc's arenas have settled) is
 * "start"; then after every 10% of --frames, the last being "end".  Each
 * sample is taken with every frame pushed so far out of the element (the
 * held ones aside).  growth = end - start; GROWS when growth exceeds both
 * --tolerance-kib (default 1024) and --tolerance-pct of start (default 2):
 * 1 MiB over 100,000 frames is ~10 bytes a frame.  "after" is the RSS once
 * the pipeline was stopped and freed, relative to the RSS before it was
 * made (what one pipeline's life leaves behind: caches, malloc's free
 * lists, the type system, not necessarily a leak).
 * The exit status is 1 when a pipeline failed or an element GROWS.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dibr_scene.h"
#include "gcv-bench.h"

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 100000, .warmup = 1000, .cpu_frames = 0, .runs = 1, .cpu_runs = 0, .variants = 8, .queue = 4,
  .device = 0,
};

static const GcvbOptions quick = {
  .frames = 5000, .warmup = 500, .runs = 1, .variants = 8,
};

static gchar *opt_elements = NULL, *opt_size = NULL;
static gint opt_tol_kib = 1024;
static gdouble opt_tol_pct = 2.0;

static GOptionEntry entries[] = {
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames,
      "Frames per element after the warm-up (default 100000, --quick 5000)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup,
      "Frames per element before the start RSS is taken (default 1000, --quick 500)", "N"},
  {"elements", 'e', 0, G_OPTION_ARG_STRING, &opt_elements,
      "Elements, comma-separated: factory names (cpucanny, cudadibr, ...) or algorithms (canny: both twins; "
        "default all 14)", "LIST"},
  {"size", 0, 0, G_OPTION_ARG_STRING, &opt_size,
      "Frame size WxH (default 64x48; dibr's 2D+Z input is twice as wide)", "WxH"},
  {"tolerance-kib", 0, 0, G_OPTION_ARG_INT, &opt_tol_kib,
      "RSS growth (end - start) that is not flagged, KiB (default 1024)", "K"},
  {"tolerance-pct", 0, 0, G_OPTION_ARG_DOUBLE, &opt_tol_pct,
      "RSS growth that is not flagged, percent of the start RSS (default 2)", "P"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Different input frames per format, rotated through (default 8)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue,
      "Frames in flight beyond those the element holds back (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device of the cuda* elements (default 0)", "N"},
  GCVB_OPTION_ENTRIES (opt, "bench-soak.json"),
  {NULL}
};

/* ------------------------------------------------------------------------ */
/* input frames */

enum { IN_GRAY8, IN_RGBA, IN_SBS, N_INPUTS };

typedef struct {
  const char *format;
  int width, height;            /* set in main from --size */
  char name[48];
  GstVideoInfo info;
  GcvbFrameSet fs;
} Input;

static Input inputs[N_INPUTS] = {
  {"GRAY8"}, {"RGBA"}, {"RGBA"},
};

/* the DIBR test scene's depth range (as bench-pipeline) */
#define SBS_Z_NEAR 2.5
#define SBS_Z_FAR 14.0

/* Side-by-side 2D+Z: the DIBR test scene ray-cast from a camera that moves
 * a little with k, colour left, 8-bit depth (255 nearest) as grey RGBA
 * right (as bench-pipeline's, smaller). */
static gboolean
make_sbs (Input * in)
{
  gcvb_frameset_alloc (&in->fs, "sbs", &in->info, opt.variants);
  return dibr_scene_sbs_frames (in->width / 2, in->height, SBS_Z_NEAR, SBS_Z_FAR, in->fs.frames, in->fs.n,
      in->fs.stride) == 0;
}

static gboolean
make_inputs (int w, int h)
{
  GcvbPhoto gray[GCVB_N_PHOTOS], rgba[GCVB_N_PHOTOS];
  int n_gray = gcvb_load_photos (&opt, "GRAY8", 1, gray);
  int n_rgba = gcvb_load_photos (&opt, "RGBA", 4, rgba);
  gboolean ok = n_gray > 0 && n_rgba > 0;

  for (int i = 0; ok && i < N_INPUTS; i++) {
    Input *in = &inputs[i];
    in->width = i == IN_SBS ? 2 * w : w;
    in->height = h;
    g_snprintf (in->name, sizeof (in->name), "%s %dx%d%s", in->format, in->width, in->height,
        i == IN_SBS ? " 2D+Z" : "");
    gst_video_info_set_format (&in->info, gst_video_format_from_string (in->format), in->width, in->height);
    if (i == IN_SBS)
      ok = make_sbs (in);
    else
      gcvb_frameset_init (&in->fs, in->format, in->width, in->height, GST_VIDEO_INFO_PLANE_STRIDE (&in->info, 0),
          TRUE, i == IN_GRAY8 ? gray : rgba, i == IN_GRAY8 ? n_gray : n_rgba, opt.variants);
    if (!ok)
      g_printerr ("error: cannot make the %s frames\n", in->name);
  }
  gcvb_photos_clear (gray, n_gray);
  gcvb_photos_clear (rgba, n_rgba);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* elements */

typedef struct {
  const char *algo;             /* the factory is cpu<algo> / cuda<algo> */
  int input;
  const char *props;            /* "name=value ..."; NULL: made in main */
  double out_scale_w, out_scale_h;      /* a capsfilter with this size after it (0: none) */
  int hold;                     /* frames held back until EOS */
} Algo;

static char dibr_props[256], seamcarve_props[64];

static Algo algos[] = {
  {"canny", IN_GRAY8, "", 0, 0, 0},
  {"bsplinescale", IN_GRAY8, "", 1.5, 1.5, 0},
  {"conv3d", IN_GRAY8, "size=5", 0, 0, 2},
  {"seamcarve", IN_RGBA, seamcarve_props, 7.0 / 8.0, 1, 0},
  {"motionest", IN_GRAY8, "", 0, 0, 0},
  {"vcm", IN_GRAY8, "", 0, 0, 0},
  {"dibr", IN_SBS, dibr_props, 0, 0, 0},
};

#define N_ALGOS G_N_ELEMENTS (algos)
#define N_ROWS (2 * N_ALGOS)
#define N_SAMPLES 11            /* start (after the warm-up), then every 10% */

typedef struct {
  char factory[32];
  const Algo *algo;
  gboolean selected;
  GcvbResult m;                 /* wall clock, backend, the element's stats, note */
  gint64 rss[N_SAMPLES];        /* KiB; -1 not taken */
  gint64 before_kib, after_kib; /* around the pipeline's life */
  gint64 growth_kib, max_kib;
  double growth_pct, seconds;
  gboolean grows;
  int warnings;
} Row;

static Row rows[N_ROWS];

static GstCaps *
input_caps (const Input * in)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, in->format, "width", G_TYPE_INT, in->width,
      "height", G_TYPE_INT, in->height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
}

static void
run_row (Row * row)
{
  const Algo *a = row->algo;
  const Input *in = &inputs[a->input];
  const gint64 total = (gint64) opt.warmup + opt.frames;
  GcvbStage stage = { row->factory, "element", NULL };
  GcvbStats before, after, diff;
  GcvbPipeline *p;
  GstCaps *caps;
  gchar *message = NULL, *backend;
  const char *first_warning;
  double t0 = 0, t1;
  int k = 0;

  for (int i = 0; i < N_SAMPLES; i++)
    row->rss[i] = -1;
  row->growth_pct = row->seconds = NAN;
  gcvb_result_init (&row->m, row->factory, "%-18s", row->factory);
  row->m.count = opt.frames;
  if (!gcvb_have_factory (row->factory)) {
    gcvb_result_skip (&row->m, "element %s not found", row->factory);
    return;
  }
  row->before_kib = gcvb_rss_kib ();
  if (a->out_scale_w > 0)
    stage.caps_after = gst_caps_new_simple ("video/x-raw", "width", G_TYPE_INT,
        (int) lround (in->width * a->out_scale_w), "height", G_TYPE_INT, (int) lround (in->height * a->out_scale_h),
        NULL);
  caps = input_caps (in);
  p = gcvb_pipeline_new_chain (&stage, 1, caps, &row->m);
  gst_caps_unref (caps);
  if (stage.caps_after != NULL)
    gst_caps_unref (stage.caps_after);
  if (p == NULL)
    return;
  gcvb_pipeline_quiet_warnings (p, TRUE);
  if (g_str_has_prefix (row->factory, "cuda")) {
    char dev[16];
    g_snprintf (dev, sizeof (dev), "%d", opt.device);
    gcvb_set_prop (gcvb_pipeline_element (p), "cuda-device-id", dev);
  }
  if (!gcvb_set_props (gcvb_pipeline_element (p), a->props))
    gcvb_result_note (&row->m, "some properties not set");
  if (!gcvb_pipeline_set_state (p, GST_STATE_PLAYING, &message))
    goto failed;

  g_printerr ("  %-18s %s, %d + %d frames ", row->factory, in->name, opt.warmup, opt.frames);
  for (gint64 i = 0; i <= total; i++) {
    /* sample k when all the frames before warmup + k tenths are out */
    if (k < N_SAMPLES && i == opt.warmup + (gint64) opt.frames * k / 10) {
      if (!gcvb_pipeline_wait_arrived (p, i - a->hold, 60, &message))
        goto failed;
      row->rss[k] = gcvb_rss_kib ();
      if (k == 0) {
        gcvb_stats_read (gcvb_pipeline_element (p), &before);
        t0 = gcvb_now_ms ();
      } else {
        g_printerr (".");
      }
      k++;
    }
    if (i == total)
      break;
    if (!gcvb_pipeline_wait_arrived (p, i - a->hold - opt.queue + 1, 60, &message)
        || !gcvb_pipeline_push (p, gcvb_frame_buffer (&in->fs, i % in->fs.n, i), &message))
      goto failed;
  }
  t1 = gcvb_now_ms ();
  gcvb_stats_read (gcvb_pipeline_element (p), &after);
  backend = gcvb_prop_string (gcvb_pipeline_element (p), "backend");
  g_strlcpy (row->m.backend, backend ? backend : (after.backend[0] ? after.backend : "?"), sizeof (row->m.backend));
  g_free (backend);
  gcvb_stats_between (&before, &after, &diff);
  if (diff.ok) {
    row->m.upload_ms = diff.upload_ms;
    row->m.compute_ms = diff.compute_ms;
    row->m.download_ms = diff.download_ms;
    row->m.total_ms = diff.total_ms;
  }
  first_warning = gcvb_pipeline_first_warning (p, &row->warnings);
  if (first_warning != NULL)
    gcvb_result_note (&row->m, "%d warning(s), the first: %s", row->warnings, first_warning);
  if (!gcvb_pipeline_finish (p, 60, &message))
    goto failed;
  gcvb_pipeline_free (p);
  row->after_kib = gcvb_rss_kib ();

  row->seconds = (t1 - t0) / 1000.0;
  row->m.ms = (t1 - t0) / opt.frames;
  row->m.fps = 1000.0 / row->m.ms;
  row->growth_kib = row->rss[N_SAMPLES - 1] - row->rss[0];
  row->growth_pct = 100.0 * row->growth_kib / row->rss[0];
  row->max_kib = row->rss[0];
  for (int i = 1; i < N_SAMPLES; i++)
    row->max_kib = MAX (row->max_kib, row->rss[i]);
  row->grows = row->growth_kib > opt_tol_kib && row->growth_pct > opt_tol_pct;
  g_printerr (" %.1f s, %.0f fps, RSS %+" G_GINT64_FORMAT " KiB%s [%s]\n", row->seconds, row->m.fps,
      row->growth_kib, row->grows ? " GROWS" : "", row->m.backend);
  return;

failed:
  g_printerr ("\n");
  gcvb_result_fail (&row->m, "%s", message ? message : "unknown error");
  g_free (message);
  gcvb_pipeline_abandon (p);
  gcvb_pipeline_free (p);
  row->after_kib = gcvb_rss_kib ();
}

/* ------------------------------------------------------------------------ */
/* results */

static void
print_table (void)
{
  g_print ("\n== Soak: appsrc ! element ! fakesink, %d warm-up + %d frames each; RSS: start MiB, then the change "
      "(KiB) at each 10%% ==\n", opt.warmup, opt.frames);
  g_print ("%-17s %-7s %7s %8s %8s", "element", "backend", "s", "fps", "start");
  for (int i = 1; i < N_SAMPLES; i++)
    g_print (" %5d%%", 10 * i);
  g_print (" %7s %6s %7s  %s\n", "growth", "%", "after", "verdict");
  for (guint r = 0; r < N_ROWS; r++) {
    const Row *row = &rows[r];
    if (!row->selected)
      continue;
    if (row->m.skipped) {
      g_print ("%-17s %s\n", row->factory, row->m.note);
      continue;
    }
    g_print ("%-17s %-7s %7.1f %8.0f %8.1f", row->factory, row->m.backend, row->seconds, row->m.fps,
        row->rss[0] / 1024.0);
    for (int i = 1; i < N_SAMPLES; i++)
      g_print (" %+6" G_GINT64_FORMAT, row->rss[i] - row->rss[0]);
    g_print (" %+7" G_GINT64_FORMAT " %+6.2f %+7" G_GINT64_FORMAT "  %s%s%s\n", row->growth_kib, row->growth_pct,
        row->after_kib - row->before_kib, row->grows ? "GROWS" : "flat", row->m.note[0] ? "; " : "", row->m.note);
  }
  g_print ("growth: RSS at the end - at the start (KiB, %% of the start); GROWS above %d KiB and %.1f%%; after: "
      "RSS once the pipeline was freed - before it was made (KiB)\n", opt_tol_kib, opt_tol_pct);
}

static GString *
results_json (const GcvbHost * host, gint64 rss_begin, gint64 rss_end, double wall_s)
{
  GString *s = gcvb_json_begin (host, "soak", FALSE, NULL, NULL);
  gboolean first = TRUE;
  guint last = 0;

  g_string_append_printf (s, "  \"frames\": %d, \"warmup\": %d, \"queue\": %d, \"variants\": %d,\n", opt.frames,
      opt.warmup, opt.queue, opt.variants);
  g_string_append_printf (s, "  \"tolerance_kib\": %d, \"tolerance_pct\": ", opt_tol_kib);
  gcvb_json_num (s, opt_tol_pct);
  g_string_append_printf (s, ",\n  \"rss_begin_kib\": %" G_GINT64_FORMAT ", \"rss_end_kib\": %" G_GINT64_FORMAT
      ", \"wall_s\": ", rss_begin, rss_end);
  gcvb_json_num (s, wall_s);
  g_string_append (s, ",\n  \"rows\": [\n");
  for (guint r = 0; r < N_ROWS; r++)
    if (rows[r].selected)
      last = r;
  for (guint r = 0; r < N_ROWS; r++) {
    const Row *row = &rows[r];
    GString *extra;
    if (!row->selected)
      continue;
    first = FALSE;
    g_string_append (s, "    {");
    GCVB_JKEY (s, "element"), gcvb_json_str (s, row->factory);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "input"), gcvb_json_str (s, inputs[row->algo->input].name);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "properties"), gcvb_json_str (s, row->algo->props);
    gcvb_json_measurement (s, &row->m);
    extra = g_string_new (", \"seconds\": ");
    gcvb_json_num (extra, row->seconds);
    g_string_append (extra, ", \"rss_kib\": [");
    for (int i = 0; i < N_SAMPLES; i++) {
      if (row->rss[i] >= 0)
        g_string_append_printf (extra, "%s%" G_GINT64_FORMAT, i ? ", " : "", row->rss[i]);
      else
        g_string_append_printf (extra, "%snull", i ? ", " : "");
    }
    g_string_append (extra, "], \"growth_kib\": ");
    if (row->m.skipped)
      g_string_append (extra, "null");
    else
      g_string_append_printf (extra, "%" G_GINT64_FORMAT, row->growth_kib);
    g_string_append (extra, ", \"growth_pct\": ");
    gcvb_json_num (extra, row->growth_pct);
    g_string_append_printf (extra, ", \"max_kib\": %" G_GINT64_FORMAT ", \"before_kib\": %" G_GINT64_FORMAT
        ", \"after_kib\": %" G_GINT64_FORMAT ", \"warnings\": %d, \"grows\": %s", row->m.skipped ? -1 : row->max_kib,
        row->before_kib, row->after_kib, row->warnings, row->grows ? "true" : "false");
    gcvb_json_row_end (s, &row->m, "mismatch", extra->str, r == last);
    g_string_free (extra, TRUE);
  }
  if (first)
    g_string_append (s, "\n");
  g_string_append (s, "  ]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */

static gboolean
select_rows (void)
{
  GPtrArray *list = gcvb_split_list (opt_elements, "");
  gboolean ok = TRUE;

  for (guint r = 0; r < N_ROWS; r++) {
    rows[r].algo = &algos[r / 2];
    g_snprintf (rows[r].factory, sizeof (rows[r].factory), "%s%s", r % 2 ? "cuda" : "cpu", algos[r / 2].algo);
    rows[r].selected = list->len == 0;
  }
  for (guint i = 0; i < list->len; i++) {
    const char *want = g_ptr_array_index (list, i);
    gboolean found = FALSE;
    for (guint r = 0; r < N_ROWS; r++) {
      if (g_ascii_strcasecmp (want, rows[r].factory) == 0 || g_ascii_strcasecmp (want, rows[r].algo->algo) == 0) {
        rows[r].selected = TRUE;
        found = TRUE;
      }
    }
    if (!found) {
      g_printerr ("error: unknown element '%s' (cpu* / cuda* canny, bsplinescale, conv3d, seamcarve, motionest, "
          "vcm, dibr, or those names alone for both)\n", want);
      ok = FALSE;
    }
  }
  g_ptr_array_unref (list);
  return ok;
}

int
main (int argc, char **argv)
{
  GcvbHost host;
  gint64 rss_begin, rss_end;
  double wall0;
  int w = 64, h = 48, status, grows = 0;

  if (!gcvb_init (&argc, &argv, "- soak every element for many small frames and watch the process's RSS",
          entries, &opt, &quick))
    return 2;
  if (opt_size != NULL && (!gcvb_parse_dims (opt_size, &w, &h) || w < 16 || h < 16 || w % 8 != 0)) {
    g_printerr ("error: --size must be WxH, each side >= 16, the width a multiple of 8\n");
    return 2;
  }
  if (opt_tol_kib < 0 || opt_tol_pct < 0) {
    g_printerr ("error: the tolerances must be >= 0\n");
    return 2;
  }
  if (!select_rows ())
    return 2;
  g_snprintf (seamcarve_props, sizeof (seamcarve_props), "width=%d", w * 7 / 8);
  g_snprintf (dibr_props, sizeof (dibr_props), "layout=side-by-side output=stereo-side-by-side symmetric=true "
      "z-near=%g z-far=%g focal-length=%.17g baseline=%g convergence=%g", SBS_Z_NEAR, SBS_Z_FAR, dibr_std_focal (w),
      DIBR_STD_BASELINE, DIBR_STD_ZC);

  gcvb_host_init (&host, "bench-soak", &opt, TRUE, "cpucanny", FALSE);
  gcvb_print_host (&host, opt.device, "cuda* rows run on their CPU fallback;");
  g_print ("GStreamer:  %s\n", gst_version_string ());
  g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file : "NOT FOUND (the rows will be skipped)");
  if (!make_inputs (w, h))
    return 1;
  g_print ("Frames:     %d variants per input (GRAY8 / RGBA %dx%d from the test photos, RGBA %dx%d 2D+Z ray-cast), "
      "rotated; %d warm-up + %d frames per element, at most %d in flight beyond those held%s\n", opt.variants, w, h,
      2 * w, h, opt.warmup, opt.frames, opt.queue, opt.quick ? "  [--quick]" : "");

  rss_begin = gcvb_rss_kib ();
  wall0 = gcvb_now_ms ();
  g_printerr ("\n");
  for (guint r = 0; r < N_ROWS; r++)
    if (rows[r].selected)
      run_row (&rows[r]);
  rss_end = gcvb_rss_kib ();

  print_table ();
  for (guint r = 0; r < N_ROWS; r++)
    grows += rows[r].selected && rows[r].grows;
  g_print ("Process RSS: %.1f MiB before the first pipeline, %.1f MiB after the last (%+" G_GINT64_FORMAT
      " KiB); %.1f s in all\n", rss_begin / 1024.0, rss_end / 1024.0, rss_end - rss_begin,
      (gcvb_now_ms () - wall0) / 1000.0);
  if (grows > 0)
    g_print ("%d element(s) GROW\n", grows);
  g_print ("\n");
  gcvb_print_host_footer (&host, FALSE);
  status = gcvb_finish (results_json (&host, rss_begin, rss_end, (gcvb_now_ms () - wall0) / 1000.0), &opt,
      "bench-soak.json");

  for (int i = 0; i < N_INPUTS; i++)
    gcvb_frameset_clear (&inputs[i].fs);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status != 0 ? status : grows > 0 ? 1 : 0;
}
