/* gst-cuda-video: seam carving benchmark (cudaseamcarve / cpuseamcarve).
 *
 * 1. paper: the paper's case (paper 001, Duarte and Sendag, section 5): one
 *    seam removed from a 1200x900 image, 85.6 ms on its Xeon E5462 (single
 *    threaded), the energy ~60% and the seam map ~24% of it.  Ours: the
 *    CUDA backend (CUDA events around gcv_seam_cuda_process on frames
 *    already on the device, median of many runs after warm-up), the CPU
 *    backend with all threads and with 1 (wall clock), and liblqr (one
 *    thread); the energy / seam-map / rest shares from the backends'
 *    profiles (separate runs with profiling on: a CUDA context then waits
 *    between phases).
 * 2. video: a 1920x1080 RGBA frame reduced by 10% (192 seams) and 25% (480
 *    seams) of its width, exact (one seam per seam map) and fast (4, 8, 16,
 *    32 seams per seam map), CUDA against CPU: ms per frame and fps, the GPU
 *    output compared with the CPU's (identical by contract); liblqr on the
 *    same frames.  The CPU rows run within a time budget (--cpu-budget).
 * 3. quality: the energy each mode removes, on the 4 test photos at their
 *    native size and on 1080p frames: the gradient-l1 energy of the
 *    ORIGINAL input (computed here, gcv_seam_pixel_energy of its luma)
 *    summed over the seam mask the backend returns; fast / exact per seams
 *    per pass (the target: fast removes at most 10% more than
 *    exact), and liblqr's seams (from its visibility map) by the same
 *    measure.
 * 4. elements: appsrc ! cudaseamcarve|cpuseamcarve ! video/x-raw,width=W !
 *    appsink at 1080p, exact and fast, wall-clock fps and the element's
 *    stats; skipped (with a note) while an element is not built.
 * 5. liblqr (when built with it, GCVB_HAVE_LQR) is the peer: lqr_carver_new
 *    / lqr_carver_init (delta_x 1, rigidity 0) / lqr_carver_resize and the
 *    read-out, single-threaded as liblqr is.
 * 6. limits: for every profiled row the seam map's ns per row per pass and
 *    cells per second (the rows of a seam map depend on each other: each
 *    is one step of a chain at least one synchronisation long), and the
 *    energy's compulsory bytes (read the frame, write an int32 energy per
 *    pixel) against the device's measured copy bandwidth.
 *
 * With --pictures DIR: docs pictures from one photo (--picture-photo,
 * default chelsea): seamcarve-comparison.png (input, ours exact, ours fast,
 * liblqr and bilinear scaling, 25% narrower), seamcarve-seams.png (the
 * seams of both modes painted red on the input) and seamcarve-enlarge.png
 * (25% wider by seam insertion and by bilinear scaling).
 * scripts/gen-seamcarve-pictures.sh makes docs/images/seamcarve-*.png.
 *
 * Frames: the test photos (tests/data) as RGBA, scaled, mirror-tiled,
 * shifted and flipped to each size (gcvb_frameset_init), several rotated
 * through; never flat.
 *
 * Prints tables and writes the same as JSON (--json FILE).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bsplinescale.h"
#include "seamcarve.h"
#include "gcv-bench.h"

#ifndef GCVB_HAVE_LQR
#define GCVB_HAVE_LQR 0
#endif
#if GCVB_HAVE_LQR
#include <lqr.h>
#endif
#ifndef GCVB_LQR_VERSION
#define GCVB_LQR_VERSION "?"
#endif

/* ------------------------------------------------------------------------ */
/* the paper's figures */

#define PAPER_MS 85.6
#define PAPER_ENERGY_SHARE 0.60
#define PAPER_SEAM_MAP_SHARE 0.24
#define PAPER_CPU "Mac Pro, 2 x quad-core 2.8 GHz Xeon E5462, single-threaded"
#define PAPER_W 1200
#define PAPER_H 900

/* the quality target: fast removes at most this much more energy */
#define QUALITY_TARGET 1.10

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 100, .warmup = 10, .cpu_frames = 0 /* 3 */ , .runs = 50, .cpu_runs = 0 /* 10 */ ,
  .variants = 4, .queue = 2, .device = 0,
};

/* --quick, for the counts left at their defaults */
static const GcvbOptions quick = {
  .frames = 10, .warmup = 2, .cpu_frames = 1, .runs = 10, .cpu_runs = 3, .variants = 4,
};

static gchar *opt_cases = NULL;
static gchar *opt_frame = NULL;
static gchar *opt_video_frame = NULL;
static gchar *opt_reductions = NULL;
static gchar *opt_spp = NULL;
static gchar *opt_energy = NULL;
static gchar *opt_lqr_energy = NULL;
static gchar *opt_el_reductions = NULL;
static gchar *opt_el_spp = NULL;
static gchar *opt_pictures = NULL;
static gchar *opt_picture_photo = NULL;
static gint opt_picture_spp = 16;
static gint opt_profile_runs = 0;       /* 20, quick 5 */
static gint opt_quality_frames = -1;    /* 2, quick 1 */
static gint opt_cpu_threads = 0;
static gdouble opt_cpu_budget = -1;     /* s per row; default 20, quick 3 */

static GOptionEntry entries[] = {
  {"cases", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
        "Cases, comma-separated: paper, video, quality, elements, pictures (default all but pictures; "
        "pictures also with --pictures)", "LIST"},
  {"frame", 0, 0, G_OPTION_ARG_STRING, &opt_frame,
      "Frame of the paper's case (one seam removed; default 1200x900)", "WxH"},
  {"video-frame", 0, 0, G_OPTION_ARG_STRING, &opt_video_frame,
      "Frame of the video, quality and element cases: 720p, 1080p, 4k or WxH (default 1080p)", "SIZE"},
  {"reductions", 0, 0, G_OPTION_ARG_STRING, &opt_reductions,
      "Width reductions of the video and quality cases, percent, comma-separated (default 10,25)", "LIST"},
  {"seams-per-pass", 'p', 0, G_OPTION_ARG_STRING, &opt_spp,
      "Fast mode's seams per pass, comma-separated (default 4,8,16,32)", "LIST"},
  {"energy", 'e', 0, G_OPTION_ARG_STRING, &opt_energy,
      "Energy of our rows: gradient-l1 (the paper's; default), gradient-l2, forward", "NAME"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs, "Timed GPU runs per row, median taken (default 50)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup,
      "GPU warm-up runs and element warm-up frames (default 10; the CPU rows use 1)", "N"},
  {"profile-runs", 0, 0, G_OPTION_ARG_INT, &opt_profile_runs,
      "Profiled runs per row (GPU: every row; CPU: the paper's case), median per phase (default 20, "
        "--quick 5; the CPU's at most as many as its timed runs)", "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Most timed CPU / liblqr runs per row, median taken (default 10; fewer by --cpu-budget)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
        "Seconds of timed CPU / liblqr runs per row: fewer runs where one is long (default 20, "
        "--quick 3)", "S"},
  {"cpu-threads", 0, 0, G_OPTION_ARG_INT, &opt_cpu_threads,
      "Threads of the CPU rows (default 0: one per core; the paper's case adds 1 thread)", "N"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Different input frames, rotated through (default 4, at least 4)", "N"},
  {"quality-frames", 0, 0, G_OPTION_ARG_INT, &opt_quality_frames,
      "Frames of --video-frame size in the quality case, besides the 4 photos (default 2, --quick 1)", "N"},
  {"lqr-energy", 0, 0, G_OPTION_ARG_STRING, &opt_lqr_energy,
        "liblqr's energy: luma-sumabs (|dx| + |dy| of the luma, as ours; default) or xabs (liblqr's "
        "default: |dx| of the brightness)", "NAME"},
  {"element-reductions", 0, 0, G_OPTION_ARG_STRING, &opt_el_reductions,
      "Width reductions of the element rows, percent (default 10: 1920 -> 1728)", "LIST"},
  {"element-seams-per-pass", 0, 0, G_OPTION_ARG_STRING, &opt_el_spp,
      "seams-per-pass of the elements' mode=fast rows; \"default\": the element's own, property "
        "left unset (default default,16)", "LIST"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames, "Timed frames per cudaseamcarve row (default 100)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames,
      "Timed frames per cpuseamcarve row (default 3)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue, "Frames in flight in the element pipelines (default 2)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  {"pictures", 0, 0, G_OPTION_ARG_FILENAME, &opt_pictures,
      "Write the docs pictures (seamcarve-*.png) into DIR", "DIR"},
  {"picture-photo", 0, 0, G_OPTION_ARG_STRING, &opt_picture_photo,
      "Test photo of the pictures: camera, chelsea (default), coffee, astronaut", "NAME"},
  {"picture-seams-per-pass", 0, 0, G_OPTION_ARG_INT, &opt_picture_spp,
      "Seams per pass of the pictures' fast mode (default 16)", "N"},
  GCVB_OPTION_ENTRIES (opt, "bench-seamcarve.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
        "Parts to skip, comma-separated: gpu (or cuda), cpu, cpu1 (the paper's 1-thread row), lqr, "
        "check (the GPU / CPU output comparison)", "LIST"},
  {NULL}
};

static double
cpu_budget_s (void)
{
  return gcvb_cpu_budget_s (&opt, opt_cpu_budget, 3, 20);
}

static int
cpu_max_runs (void)
{
  return opt.cpu_runs ? opt.cpu_runs : 10;
}

static int
profile_runs (void)
{
  return opt_profile_runs > 0 ? opt_profile_runs : opt.quick ? 5 : 20;
}

/* ------------------------------------------------------------------------ */
/* results */

typedef enum {
  PART_PAPER,
  PART_VIDEO,
  PART_ELEMENT,
} Part;

static const char *part_names[] = { "paper", "video", "element" };

typedef struct {
  GcvbResult m;
  Part part;
  int width, height, out_width, out_height;
  int seams;
  int reduction;                /* percent of the width, 0 for the paper's one seam */
  GcvSeamMode mode;
  int spp;                      /* seams per pass (1 in exact mode) */
  gboolean spp_default;         /* element rows: the element's default, property not set */
  /* profile: medians per phase of profiled runs */
  gboolean profiled;
  int profile_count;
  GcvSeamProfile prof;
  /* the pass model: passes and seam-map cells (sum of w * h over passes) */
  int model_passes;
  double cells;
  double energy_bytes;          /* compulsory: frame read + int32 energy write per pixel */
} Result;

static GArray *results;         /* of Result */
static GcvbHost host;
static GcvSeamEnergy our_energy = GCV_SEAM_ENERGY_GRADIENT_L1;
static int video_w = 1920, video_h = 1080, paper_w = PAPER_W, paper_h = PAPER_H;

/* ------------------------------------------------------------------------ */
/* geometry, parameters, the pass model */

static GcvSeamGeometry
rgba_geometry (int w, int h, int out_w, int out_h)
{
  GcvSeamGeometry g;

  memset (&g, 0, sizeof (g));
  g.in_width = w;
  g.in_height = h;
  g.out_width = out_w;
  g.out_height = out_h;
  g.n_planes = 1;
  g.channels = 4;
  g.luma.layout = GCV_LUMA_PACKED32;
  g.luma.r_offset = 0;
  g.luma.g_offset = 1;
  g.luma.b_offset = 2;
  g.alpha_channel = 3;
  return g;
}

static GcvSeamParams
seam_params (GcvSeamMode mode, int spp)
{
  GcvSeamParams p;

  memset (&p, 0, sizeof (p));
  p.energy = our_energy;
  p.mode = mode;
  p.seams_per_pass = mode == GCV_SEAM_MODE_FAST ? spp : 1;
  p.temporal_coherence = 0;     /* every frame on its own */
  p.mask_alpha = 0;
  p.order = GCV_SEAM_ORDER_WIDTH_FIRST;
  return p;
}

/* Passes and seam-map cells of a width reduction by `seams` (the rule of
 * seamcarve.h: each pass takes gcv_seam_pass_size seams of the image left). */
static void
pass_model (Result * r, const GcvSeamParams * p)
{
  int w = r->width, left = r->width - r->out_width, passes = 0;
  double cells = 0;

  while (left > 0) {
    int n = gcv_seam_pass_size (p, left);
    if (n < 1)
      break;
    cells += (double) w * r->height;
    w -= n;
    left -= n;
    passes++;
  }
  r->model_passes = passes;
  r->cells = cells;
  r->energy_bytes = (double) r->width * r->height * (4 + 4);
}

static Result *
result_new (Part part, const char *impl, int threads, int w, int h, int out_w, int out_h, int reduction,
    GcvSeamMode mode, int spp)
{
  Result r;

  memset (&r, 0, sizeof (r));
  if (mode == GCV_SEAM_MODE_EXACT)
    gcvb_result_init (&r.m, impl, "%-7s %-13s %dx%d -> %dx%d exact", part_names[part], impl, w, h, out_w, out_h);
  else
    gcvb_result_init (&r.m, impl, "%-7s %-13s %dx%d -> %dx%d fast P=%d", part_names[part], impl, w, h, out_w,
        out_h, spp);
  if (threads > 0 && (strstr (impl, "cpu") != NULL || strstr (impl, "lqr") != NULL))
    g_strlcat (r.m.label, threads == 1 ? " 1 thread" : " all threads", sizeof (r.m.label));
  r.m.threads = threads;
  r.part = part;
  r.width = w;
  r.height = h;
  r.out_width = out_w;
  r.out_height = out_h;
  r.seams = abs (w - out_w) + abs (h - out_h);
  r.reduction = reduction;
  r.mode = mode;
  r.spp = mode == GCV_SEAM_MODE_EXACT ? 1 : spp;
  {
    GcvSeamParams params = seam_params (mode, spp);
    pass_model (&r, &params);
  }
  g_array_append_val (results, r);
  return &g_array_index (results, Result, results->len - 1);
}

static void
profile_median (const GcvSeamProfile * log, int n, GcvSeamProfile * out)
{
  double *v = g_new (double, n);

  memset (out, 0, sizeof (*out));
#define MED(field) G_STMT_START { \
    for (int i = 0; i < n; i++) v[i] = log[i].field; \
    out->field = gcvb_median (v, n); } G_STMT_END
  MED (energy_ms);
  MED (seam_map_ms);
  MED (backtrack_ms);
  MED (carve_ms);
#undef MED
  out->passes = log[n - 1].passes;
  out->seams = log[n - 1].seams;
  g_free (v);
}

static double
profile_sum (const GcvSeamProfile * p)
{
  return p->energy_ms + p->seam_map_ms + p->backtrack_ms + p->carve_ms;
}

static void
note_profile (Result * r)
{
  if (!r->profiled)
    return;
  if (r->prof.passes != r->model_passes || r->prof.seams != r->seams)
    gcvb_result_note (&r->m, "profile counts %d passes / %d seams, the model %d / %d", r->prof.passes,
        r->prof.seams, r->model_passes, r->seams);
}

/* ------------------------------------------------------------------------ */
/* the gradient-l1 energy of an input (the quality measure) */

/* E(i, j) = |dx| + |dy| of the BT.601 luma, replicate border (seamcarve.h's
 * gradient-l1 without bias), of a packed RGBA frame. */
static int *
input_energy (const guint8 * rgba, int w, int h, size_t stride)
{
  guint8 *L = g_malloc ((size_t) w * h);
  int *E = g_new (int, (size_t) w * h);

  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      L[(size_t) i * w + j] = (guint8) gcv_seam_luma (rgba + (size_t) i * stride + (size_t) j * 4,
          GCV_LUMA_PACKED32, 0, 1, 2);
  for (int i = 0; i < h; i++) {
    const guint8 *up = L + (size_t) MAX (i - 1, 0) * w, *row = L + (size_t) i * w;
    const guint8 *down = L + (size_t) MIN (i + 1, h - 1) * w;
    for (int j = 0; j < w; j++)
      E[(size_t) i * w + j] = gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1, row[MAX (j - 1, 0)],
          row[MIN (j + 1, w - 1)], up[j], down[j]);
  }
  g_free (L);
  return E;
}

/* Sum of E over the pixels whose mask has `bit`; *count gets how many. */
static double
masked_energy (const int *E, const guint8 * mask, int w, int h, size_t mask_stride, int bit, gint64 * count)
{
  double s = 0;
  gint64 n = 0;

  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      if (mask[(size_t) i * mask_stride + j] & bit) {
        s += E[(size_t) i * w + j];
        n++;
      }
  *count = n;
  return s;
}

/* ------------------------------------------------------------------------ */
/* CPU backend */

typedef struct {
  GcvSeamCpu *ctx;
  GcvSeamParams params;
  const GcvbFrameSet *fs;
  guint8 *out;
  int out_w, out_h;
  size_t out_row;
  guint8 *mask;                 /* NULL, or in_width x in_height */
  int n_threads;
  GcvSeamProfile *log;          /* per call, NULL: none */
  int log_n;
  guint8 *first;                /* NULL, or gets the output of call 0 (frames[0]) */
} CpuRun;

static gboolean
cpu_call (gpointer data, int i, char *msg, size_t len)
{
  CpuRun *c = data;
  GcvError err = { 0 };
  GcvPlane in = { c->fs->frames[i % c->fs->n], c->fs->width, c->fs->height, c->fs->stride };
  GcvPlane out = { c->out, c->out_w, c->out_h, c->out_row };
  GcvPlane mask = { c->mask, c->fs->width, c->fs->height, (size_t) c->fs->width };

  if (gcv_seam_cpu_process (c->ctx, &c->params, &in, &out, c->mask ? &mask : NULL, c->n_threads, &err) != GCV_OK) {
    g_strlcpy (msg, err.message, len);
    return FALSE;
  }
  if (c->log != NULL && i < c->log_n)
    gcv_seam_cpu_profile (c->ctx, &c->log[i]);
  if (i == 0 && c->first != NULL)
    memcpy (c->first, c->out, c->out_row * c->out_h);
  return TRUE;
}

/* Times the CPU backend on fs (width reduction to out_w) with n_threads
 * (0: all), within the budget; with do_profile, then as many profiled runs
 * (at most profile_runs ()).  first, when not NULL, gets the output for
 * frames[0]. */
static void
bench_cpu (Result * r, const GcvbFrameSet * fs, const GcvSeamParams * params, int n_threads, gboolean do_profile,
    guint8 * first)
{
  GcvSeamGeometry geom = rgba_geometry (fs->width, fs->height, r->out_width, r->out_height);
  GcvError err = { 0 };
  CpuRun c;

  memset (&c, 0, sizeof (c));
  c.ctx = gcv_seam_cpu_new (&geom, &err);
  if (c.ctx == NULL) {
    gcvb_result_fail (&r->m, "gcv_seam_cpu_new: %s", err.message);
    return;
  }
  c.params = *params;
  c.fs = fs;
  c.out_w = r->out_width;
  c.out_h = r->out_height;
  c.out_row = (size_t) c.out_w * 4;
  c.out = g_malloc (c.out_row * c.out_h);
  c.n_threads = n_threads;
  c.first = first;
  if (!gcvb_time_budget (cpu_call, &c, "gcv_seam_cpu_process", cpu_max_runs (), cpu_budget_s (), NULL, &r->m))
    goto done;
  g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
  r->m.compute_ms = r->m.ms;
  if (do_profile) {
    int n = (int) MIN ((guint64) profile_runs (), r->m.count);
    GcvSeamProfile *log = g_new0 (GcvSeamProfile, n);
    c.first = NULL;
    c.log = log;
    c.log_n = n;
    gcv_seam_cpu_set_profiling (c.ctx, 1);
    for (int i = 0; i < n; i++) {
      char msg[512];
      if (!cpu_call (&c, i, msg, sizeof (msg))) {
        gcvb_result_note (&r->m, "profile: %s", msg);
        n = 0;
        break;
      }
    }
    gcv_seam_cpu_set_profiling (c.ctx, 0);
    if (n > 0) {
      profile_median (log, n, &r->prof);
      r->profiled = TRUE;
      r->profile_count = n;
      note_profile (r);
    }
    g_free (log);
  }
  g_printerr ("  %s %10.3f ms (median of %" G_GUINT64_FORMAT ")%s%s\n", r->m.label, r->m.ms, r->m.count,
      r->m.note[0] ? "  " : "", r->m.note);
done:
  gcv_seam_cpu_free (c.ctx);
  g_free (c.out);
}

/* ------------------------------------------------------------------------ */
/* CUDA backend */

#if GCVB_CUDA

typedef struct {
  GcvSeamCuda *ctx;
  GcvSeamParams params;
  GcvSeamProfile *log;          /* profiled runs: the profile after each call */
  int n, cap;
} GpuRun;

static GcvStatus
gpu_process (gpointer data, const GcvPlane * in, GcvPlane * out, void *stream, GcvError * err)
{
  GpuRun *g = data;
  GcvStatus st = gcv_seam_cuda_process (g->ctx, &g->params, in, out, NULL, stream, err);

  if (st == GCV_OK && g->log != NULL) {
    /* the profile is complete once the stream is */
    st = gcv_cuda_stream_sync (stream, err);
    if (st == GCV_OK && g->n < g->cap)
      gcv_seam_cuda_profile (g->ctx, &g->log[g->n++]);
  }
  return st;
}

/* CUDA events around gcv_seam_cuda_process on device-resident frames
 * (gcvb_cuda_time_kernel), then profile_runs () profiled runs.  ref, when
 * not NULL, is the CPU's output for frames[0]: compared. */
static void
bench_gpu (Result * r, const GcvbFrameSet * fs, const GcvSeamParams * params, const guint8 * ref)
{
  GcvSeamGeometry geom = rgba_geometry (fs->width, fs->height, r->out_width, r->out_height);
  GcvError err = { 0 };
  size_t out_row = (size_t) r->out_width * 4;
  guint8 *check = ref ? g_malloc (out_row * r->out_height) : NULL;
  GpuRun g;

  memset (&g, 0, sizeof (g));
  if (gcv_cuda_set_device (opt.device, &err) != GCV_OK) {
    gcvb_result_fail (&r->m, "set device: %s", err.message);
    goto done;
  }
  g.ctx = gcv_seam_cuda_new (&geom, &err);
  if (g.ctx == NULL) {
    gcvb_result_fail (&r->m, "gcv_seam_cuda_new: %s", err.message);
    goto done;
  }
  g.params = *params;
  if (!gcvb_cuda_time_kernel (gpu_process, &g, fs, r->out_width, r->out_height, out_row, MAX (opt.warmup, 1),
          opt.runs, check, &r->m))
    goto done;
  gcvb_result_kernel (&r->m, opt.runs, (double) fs->width * fs->height * 4 + (double) out_row * r->out_height,
      &host.cuda);
  if (check != NULL) {
    gint64 diff = 0;
    for (int y = 0; y < r->out_height; y++)
      for (size_t x = 0; x < out_row; x++)
        diff += check[(size_t) y * out_row + x] != ref[(size_t) y * out_row + x];
    r->m.mismatch = diff;
    if (diff > 0)
      gcvb_result_note (&r->m, "DIFFERS from the cpu backend: %" G_GINT64_FORMAT " samples", diff);
  }

  /* profiled runs */
  {
    int n = profile_runs ();
    GcvbResult tmp;
    gcvb_result_init (&tmp, r->m.impl, "%s (profiled runs)", r->m.label);
    g.log = g_new0 (GcvSeamProfile, n + 1);
    g.cap = n + 1;
    gcv_seam_cuda_set_profiling (g.ctx, 1);
    if (gcvb_cuda_time_kernel (gpu_process, &g, fs, r->out_width, r->out_height, out_row, 1, n, NULL, &tmp)
        && g.n == n + 1) {
      profile_median (g.log + 1, n, &r->prof);
      r->profiled = TRUE;
      r->profile_count = n;
      note_profile (r);
    } else if (!tmp.failed) {
      gcvb_result_note (&r->m, "profile: %d of %d runs recorded", g.n, n + 1);
    } else {
      gcvb_result_note (&r->m, "profile %s", tmp.note);
    }
    gcv_seam_cuda_set_profiling (g.ctx, 0);
    g_free (g.log);
    g.log = NULL;
  }
  g_printerr ("  %s %10.4f ms (median of %d; back-to-back %.4f)%s%s\n", r->m.label, r->m.ms, opt.runs,
      r->m.mean_ms, r->m.note[0] ? "  " : "", r->m.note);
done:
  if (g.ctx)
    gcv_seam_cuda_free (g.ctx);
  g_free (check);
}

#endif /* GCVB_CUDA */

/* ------------------------------------------------------------------------ */
/* liblqr */

#if GCVB_HAVE_LQR

static LqrEnergyFuncBuiltinType lqr_energy = LQR_EF_LUMA_GRAD_SUMABS;

/* Carves a w x h RGBA frame (rows `stride` apart) to out_w x out_h with
 * liblqr: lqr_carver_new on a copy (the carver owns and frees its buffer),
 * lqr_carver_init (delta_x 1, rigidity 0), lqr_carver_resize, the read-out
 * into out (rows out_row apart).  mask, when not NULL (w x h), gets
 * GCV_SEAM_MASK_WIDTH where liblqr's visibility map says a pixel was
 * removed. */
static gboolean
lqr_carve (const guint8 * src, int w, int h, size_t stride, int out_w, int out_h, guint8 * out, size_t out_row,
    guint8 * mask, char *msg, size_t len)
{
  guchar *buf = g_malloc ((size_t) w * h * 4);
  LqrCarver *c;
  gboolean ok = FALSE;
  gint n;
  guchar *line;

  for (int y = 0; y < h; y++)
    memcpy (buf + (size_t) y * w * 4, src + (size_t) y * stride, (size_t) w * 4);
  c = lqr_carver_new (buf, w, h, 4);
  if (c == NULL) {
    g_free (buf);
    g_strlcpy (msg, "lqr_carver_new: out of memory", len);
    return FALSE;
  }
  if (lqr_carver_set_energy_function_builtin (c, lqr_energy) != LQR_OK) {
    g_strlcpy (msg, "lqr_carver_set_energy_function_builtin failed", len);
    goto done;
  }
  if (mask != NULL)
    lqr_carver_set_dump_vmaps (c);
  if (lqr_carver_init (c, 1, 0) != LQR_OK) {
    g_strlcpy (msg, "lqr_carver_init failed", len);
    goto done;
  }
  if (lqr_carver_resize (c, out_w, out_h) != LQR_OK) {
    g_strlcpy (msg, "lqr_carver_resize failed", len);
    goto done;
  }
  if (lqr_carver_get_width (c) != out_w || lqr_carver_get_height (c) != out_h) {
    g_snprintf (msg, len, "liblqr made %dx%d, not %dx%d", lqr_carver_get_width (c), lqr_carver_get_height (c),
        out_w, out_h);
    goto done;
  }
  lqr_carver_scan_reset (c);
  if (lqr_carver_scan_by_row (c)) {
    while (lqr_carver_scan_line (c, &n, &line))
      if (n >= 0 && n < out_h)
        memcpy (out + (size_t) n * out_row, line, (size_t) out_w * 4);
  } else {
    while (lqr_carver_scan_line (c, &n, &line))
      if (n >= 0 && n < out_w)
        for (int y = 0; y < out_h; y++)
          memcpy (out + (size_t) y * out_row + (size_t) n * 4, line + (size_t) y * 4, 4);
  }
  if (mask != NULL) {
    LqrVMapList *list = lqr_vmap_list_start (c);
    LqrVMap *vm = list ? lqr_vmap_list_current (list) : NULL;
    int k = w - out_w;
    memset (mask, 0, (size_t) w * h);
    if (vm == NULL || lqr_vmap_get_width (vm) != w || lqr_vmap_get_height (vm) != h
        || lqr_vmap_get_orientation (vm) != 0) {
      g_snprintf (msg, len, "no horizontal %dx%d visibility map", w, h);
      goto done;
    }
    {
      const gint *vis = lqr_vmap_get_data (vm);
      for (size_t i = 0; i < (size_t) w * h; i++)
        if (vis[i] >= 1 && vis[i] <= k)
          mask[i] = GCV_SEAM_MASK_WIDTH;
    }
  }
  ok = TRUE;
done:
  lqr_carver_destroy (c);
  return ok;
}

typedef struct {
  const GcvbFrameSet *fs;
  int out_w, out_h;
  guint8 *out;
} LqrRun;

static gboolean
lqr_call (gpointer data, int i, char *msg, size_t len)
{
  LqrRun *l = data;

  return lqr_carve (l->fs->frames[i % l->fs->n], l->fs->width, l->fs->height, l->fs->stride, l->out_w, l->out_h,
      l->out, (size_t) l->out_w * 4, NULL, msg, len);
}

static void
bench_lqr (Result * r, const GcvbFrameSet * fs)
{
  LqrRun l = { fs, r->out_width, r->out_height, NULL };

  l.out = g_malloc ((size_t) l.out_w * 4 * l.out_h);
  if (gcvb_time_budget (lqr_call, &l, "liblqr", cpu_max_runs (), cpu_budget_s (), NULL, &r->m)) {
    g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
    r->m.compute_ms = r->m.ms;
    g_printerr ("  %s %10.3f ms (median of %" G_GUINT64_FORMAT ")%s%s\n", r->m.label, r->m.ms, r->m.count,
        r->m.note[0] ? "  " : "", r->m.note);
  }
  g_free (l.out);
}

static const char *
lqr_energy_name (void)
{
  return lqr_energy == LQR_EF_GRAD_XABS ? "xabs (|dx| of the brightness, liblqr's default)" :
      "luma-sumabs (|dx| + |dy| of the luma)";
}

#endif /* GCVB_HAVE_LQR */

static gboolean
lqr_enabled (void)
{
  return GCVB_HAVE_LQR && !gcvb_skipped (&opt, "lqr");
}

/* ------------------------------------------------------------------------ */
/* 1. the paper's case */

static void
case_paper (const GcvbPhoto * photos, int n_photos)
{
  GcvbFrameSet fs;
  GcvSeamParams params = seam_params (GCV_SEAM_MODE_EXACT, 1);
  int out_w = paper_w - 1;
  guint8 *ref = NULL;
  gboolean do_check = !gcvb_skipped (&opt, "check");

  gcvb_frameset_init (&fs, "paper", paper_w, paper_h, 0, TRUE, photos, n_photos, opt.variants);
  g_printerr ("\n== 1. the paper's case: one seam out of %dx%d RGBA ==\n", paper_w, paper_h);
  if (!gcvb_skipped (&opt, "cpu")) {
    Result *r = result_new (PART_PAPER, "cpu backend", gcvb_cpu_threads (opt_cpu_threads), paper_w, paper_h, out_w, paper_h, 0,
        GCV_SEAM_MODE_EXACT, 1);
    if (do_check)
      ref = g_malloc ((size_t) out_w * 4 * paper_h);
    bench_cpu (r, &fs, &params, opt_cpu_threads, TRUE, ref);
    if (r->m.failed)
      g_clear_pointer (&ref, g_free);
    if (!gcvb_skipped (&opt, "cpu1")) {
      r = result_new (PART_PAPER, "cpu backend", 1, paper_w, paper_h, out_w, paper_h, 0, GCV_SEAM_MODE_EXACT, 1);
      bench_cpu (r, &fs, &params, 1, TRUE, NULL);
    }
  }
  if (!gcvb_skipped (&opt, "gpu") && !gcvb_skipped (&opt, "cuda")) {
    Result *r = result_new (PART_PAPER, "cuda backend", 0, paper_w, paper_h, out_w, paper_h, 0,
        GCV_SEAM_MODE_EXACT, 1);
#if GCVB_CUDA
    if (host.cuda.available)
      bench_gpu (r, &fs, &params, ref);
    else
#endif
      gcvb_result_skip (&r->m, "%s", host.cuda.why);
  }
  if (lqr_enabled ()) {
#if GCVB_HAVE_LQR
    Result *r = result_new (PART_PAPER, "liblqr", 1, paper_w, paper_h, out_w, paper_h, 0, GCV_SEAM_MODE_EXACT, 1);
    bench_lqr (r, &fs);
#endif
  }
  g_free (ref);
  gcvb_frameset_clear (&fs);
}

/* ------------------------------------------------------------------------ */
/* 2. video */

static int
reduced_width (int w, int percent)
{
  return w - (int) lround (w * percent / 100.0);
}

static void
case_video (const GcvbFrameSet * fs, const GArray * reductions, const GArray * spps)
{
  gboolean do_check = !gcvb_skipped (&opt, "check");

  for (guint ri = 0; ri < reductions->len; ri++) {
    int red = g_array_index (reductions, int, ri), out_w = reduced_width (fs->width, red);

    g_printerr ("\n== 2. video: %dx%d RGBA -> %dx%d (-%d%%, %d seams) ==\n", fs->width, fs->height, out_w,
        fs->height, red, fs->width - out_w);
    for (int mi = -1; mi < (int) spps->len; mi++) {
      GcvSeamMode mode = mi < 0 ? GCV_SEAM_MODE_EXACT : GCV_SEAM_MODE_FAST;
      int spp = mi < 0 ? 1 : g_array_index (spps, int, mi);
      GcvSeamParams params = seam_params (mode, spp);
      guint8 *ref = NULL;

      if (!gcvb_skipped (&opt, "cpu")) {
        Result *r = result_new (PART_VIDEO, "cpu backend", gcvb_cpu_threads (opt_cpu_threads), fs->width, fs->height, out_w,
            fs->height, red, mode, spp);
        if (do_check)
          ref = g_malloc ((size_t) out_w * 4 * fs->height);
        bench_cpu (r, fs, &params, opt_cpu_threads, FALSE, ref);
        if (r->m.failed)
          g_clear_pointer (&ref, g_free);
      }
      if (!gcvb_skipped (&opt, "gpu") && !gcvb_skipped (&opt, "cuda")) {
        Result *r = result_new (PART_VIDEO, "cuda backend", 0, fs->width, fs->height, out_w, fs->height, red,
            mode, spp);
#if GCVB_CUDA
        if (host.cuda.available)
          bench_gpu (r, fs, &params, ref);
        else
#endif
          gcvb_result_skip (&r->m, "%s", host.cuda.why);
      }
      g_free (ref);
    }
    if (lqr_enabled ()) {
#if GCVB_HAVE_LQR
      Result *r = result_new (PART_VIDEO, "liblqr", 1, fs->width, fs->height, out_w, fs->height, red,
          GCV_SEAM_MODE_EXACT, 1);
      bench_lqr (r, fs);
#endif
    }
  }
}

/* ------------------------------------------------------------------------ */
/* 3. quality */

#define MAX_SPP 16

typedef struct {
  char image[64];
  int width, height, reduction, seams;
  double exact;                 /* removed energy, exact mode */
  int n_spp;
  int spp[MAX_SPP];
  double fast[MAX_SPP];         /* removed energy per seams per pass, NAN failed */
  double per_map[MAX_SPP];      /* seams per seam map (pass) of those runs, NAN failed */
  double lqr;                   /* liblqr's seams, NAN n/a */
  char note[256];
} Quality;

static GArray *qualities;       /* of Quality */

/* Removed energy of one CPU carve of frame (w x h, packed RGBA) to out_w,
 * NAN after a note on failure; the seams per seam map into *per_map (NULL:
 * not wanted). */
static double
quality_run (const guint8 * frame, int w, int h, int out_w, const GcvSeamParams * params, const int *E,
    guint8 * mask, Quality * q, double *per_map)
{
  GcvSeamGeometry geom = rgba_geometry (w, h, out_w, h);
  GcvError err = { 0 };
  GcvSeamCpu *ctx = gcv_seam_cpu_new (&geom, &err);
  GcvPlane in = { (void *) frame, w, h, (size_t) w * 4 };
  GcvPlane mp = { mask, w, h, (size_t) w };
  gint64 count = 0;
  double e = NAN;

  if (per_map)
    *per_map = NAN;
  if (ctx)
    gcv_seam_cpu_set_profiling (ctx, per_map != NULL);
  if (ctx == NULL || gcv_seam_cpu_process (ctx, params, &in, NULL, &mp, opt_cpu_threads, &err) != GCV_OK) {
    g_snprintf (q->note + strlen (q->note), sizeof (q->note) - strlen (q->note), "%s%s: %s",
        q->note[0] ? "; " : "", gcv_seam_mode_name (params->mode), err.message);
    gcvb_n_failures++;
  } else {
    GcvSeamProfile prof;
    e = masked_energy (E, mask, w, h, (size_t) w, GCV_SEAM_MASK_WIDTH, &count);
    gcv_seam_cpu_profile (ctx, &prof);
    if (per_map && prof.passes > 0)
      *per_map = (double) prof.seams / prof.passes;
    if (count != (gint64) (w - out_w) * h)
      g_snprintf (q->note + strlen (q->note), sizeof (q->note) - strlen (q->note),
          "%s%s P=%d: the mask has %" G_GINT64_FORMAT " pixels, not %d", q->note[0] ? "; " : "",
          gcv_seam_mode_name (params->mode), params->seams_per_pass, count, (w - out_w) * h);
  }
  gcv_seam_cpu_free (ctx);
  return e;
}

static void
quality_image (const char *name, const guint8 * frame, int w, int h, const GArray * reductions,
    const GArray * spps)
{
  int *E = input_energy (frame, w, h, (size_t) w * 4);
  guint8 *mask = g_malloc ((size_t) w * h);

  for (guint ri = 0; ri < reductions->len; ri++) {
    int red = g_array_index (reductions, int, ri), out_w = reduced_width (w, red);
    GcvSeamParams exact = seam_params (GCV_SEAM_MODE_EXACT, 1);
    Quality q;
    double t0 = gcvb_now_ms ();

    memset (&q, 0, sizeof (q));
    g_strlcpy (q.image, name, sizeof (q.image));
    q.width = w;
    q.height = h;
    q.reduction = red;
    q.seams = w - out_w;
    q.lqr = NAN;
    q.exact = quality_run (frame, w, h, out_w, &exact, E, mask, &q, NULL);
    q.n_spp = MIN ((int) spps->len, MAX_SPP);
    for (int i = 0; i < q.n_spp; i++) {
      GcvSeamParams fast = seam_params (GCV_SEAM_MODE_FAST, g_array_index (spps, int, i));
      q.spp[i] = fast.seams_per_pass;
      q.fast[i] = quality_run (frame, w, h, out_w, &fast, E, mask, &q, &q.per_map[i]);
    }
#if GCVB_HAVE_LQR
    if (lqr_enabled ()) {
      char msg[256] = "";
      guint8 *out = g_malloc ((size_t) out_w * 4 * h);
      gint64 count = 0;
      if (lqr_carve (frame, w, h, (size_t) w * 4, out_w, h, out, (size_t) out_w * 4, mask, msg, sizeof (msg))) {
        q.lqr = masked_energy (E, mask, w, h, (size_t) w, GCV_SEAM_MASK_WIDTH, &count);
        if (count != (gint64) q.seams * h) {
          g_snprintf (q.note + strlen (q.note), sizeof (q.note) - strlen (q.note),
              "%sliblqr's visibility map marks %" G_GINT64_FORMAT " pixels, not %d", q.note[0] ? "; " : "",
              count, q.seams * h);
          q.lqr = NAN;
        }
      } else {
        g_snprintf (q.note + strlen (q.note), sizeof (q.note) - strlen (q.note), "%sliblqr: %s",
            q.note[0] ? "; " : "", msg);
      }
      g_free (out);
    }
#endif
    g_printerr ("  quality %-24s %4dx%-4d -%d%% (%d seams): exact %.0f", name, w, h, red, q.seams, q.exact);
    for (int i = 0; i < q.n_spp; i++)
      g_printerr ("  P=%d %.4f (%.2f/map)", q.spp[i], q.fast[i] / q.exact, q.per_map[i]);
    if (!isnan (q.lqr))
      g_printerr ("  liblqr %.4f", q.lqr / q.exact);
    g_printerr ("  (%.1f s)%s%s\n", (gcvb_now_ms () - t0) * 1e-3, q.note[0] ? "  " : "", q.note);
    g_array_append_val (qualities, q);
  }
  g_free (E);
  g_free (mask);
}

static void
case_quality (const GcvbPhoto * photos, int n_photos, const GcvbFrameSet * video, const GArray * reductions,
    const GArray * spps)
{
  int nq = opt_quality_frames >= 0 ? opt_quality_frames : opt.quick ? 1 : 2;

  g_printerr ("\n== 3. quality: removed energy, fast / exact ==\n");
  for (int i = 0; i < n_photos; i++)
    quality_image (photos[i].name, photos[i].pixels, photos[i].width, photos[i].height, reductions, spps);
  for (int k = 0; video != NULL && k < MIN (nq, video->n); k++) {
    char name[64];
    guint8 *packed = g_malloc ((size_t) video->width * 4 * video->height);
    for (int y = 0; y < video->height; y++)
      memcpy (packed + (size_t) y * video->width * 4, video->frames[k] + (size_t) y * video->stride,
          (size_t) video->width * 4);
    g_snprintf (name, sizeof (name), "%dx%d #%d (%s)", video->width, video->height, k, photos[k % n_photos].name);
    quality_image (name, packed, video->width, video->height, reductions, spps);
    g_free (packed);
  }
}

/* ------------------------------------------------------------------------ */
/* 4. the elements */

/* The default of an int property of the elements of `factory`, -1 when
 * there is no such element or property. */
static int
element_int_default (const char *factory, const char *prop)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  GstPluginFeature *loaded = f ? gst_plugin_feature_load (GST_PLUGIN_FEATURE (f)) : NULL;
  GObjectClass *klass;
  GParamSpec *pspec;
  int v = -1;

  if (loaded != NULL && gst_element_factory_get_element_type (GST_ELEMENT_FACTORY (loaded)) != G_TYPE_INVALID) {
    klass = g_type_class_ref (gst_element_factory_get_element_type (GST_ELEMENT_FACTORY (loaded)));
    pspec = g_object_class_find_property (klass, prop);
    if (pspec != NULL && G_IS_PARAM_SPEC_INT (pspec))
      v = G_PARAM_SPEC_INT (pspec)->default_value;
    g_type_class_unref (klass);
  }
  if (loaded != NULL)
    gst_object_unref (loaded);
  if (f != NULL)
    gst_object_unref (f);
  return v;
}

/* spp 0 in fast mode: the element's default seams-per-pass (not set) */
static void
bench_element (const char *factory, const GcvbFrameSet * fs, int red, GcvSeamMode mode, int spp, int warmup,
    int frames)
{
  gboolean is_cuda = g_str_has_prefix (factory, "cuda");
  gboolean spp_default = mode == GCV_SEAM_MODE_FAST && spp == 0;
  int out_w = reduced_width (fs->width, red);
  Result *r = result_new (PART_ELEMENT, factory, is_cuda ? 0 : gcvb_cpu_threads (opt_cpu_threads), fs->width,
      fs->height, out_w, fs->height, red, mode, spp_default ? element_int_default (factory, "seams-per-pass") : spp);
  GcvbPipeline *p;
  GstElement *elem;
  GstCaps *in_caps, *out_caps;
  char buf[32];

  if (spp_default) {
    r->spp_default = TRUE;
    g_strlcat (r->m.label, " (default)", sizeof (r->m.label));
  }
  if (!gcvb_have_factory (factory)) {
    gcvb_result_skip (&r->m, "element %s not found (not built yet, or not in %s)", factory,
        host.plugin_file ? host.plugin_file : "the plugin");
    return;
  }
  if (is_cuda && !host.cuda.available) {
    gcvb_result_skip (&r->m, "%s", host.cuda.why);
    return;
  }
  in_caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, fs->width,
      "height", G_TYPE_INT, fs->height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  out_caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, out_w,
      "height", G_TYPE_INT, fs->height, NULL);
  p = gcvb_pipeline_new (factory, "carve", in_caps, out_caps, TRUE, &r->m);
  gst_caps_unref (in_caps);
  gst_caps_unref (out_caps);
  if (p == NULL)
    return;
  elem = gcvb_pipeline_element (p);
  g_snprintf (buf, sizeof (buf), "%d", out_w);
  gcvb_set_prop (elem, "width", buf);
  gcvb_set_prop (elem, "energy", gcv_seam_energy_name (our_energy));
  gcvb_set_prop (elem, "mode", gcv_seam_mode_name (mode));
  if (mode == GCV_SEAM_MODE_FAST && spp > 0) {
    g_snprintf (buf, sizeof (buf), "%d", spp);
    gcvb_set_prop (elem, "seams-per-pass", buf);
  }
  if (is_cuda) {
    g_snprintf (buf, sizeof (buf), "%d", opt.device);
    gcvb_set_prop (elem, "cuda-device-id", buf);
    /* measure the GPU or fail: never time the CPU fallback by mistake */
    gcvb_set_prop (elem, "fallback", "false");
  } else {
    gcvb_set_prop (elem, "n-threads", "0");
  }
  if (gcvb_pipeline_time (p, fs, warmup, frames, opt.queue, TRUE, &r->m)) {
    int ow, oh;
    const char *of;
    gcvb_pipeline_output (p, &ow, &oh, &of);
    if (ow != out_w || oh != fs->height || g_strcmp0 (of, "RGBA") != 0)
      gcvb_result_fail (&r->m, "output is %s %dx%d, not RGBA %dx%d", of ? of : "?", ow, oh, out_w, fs->height);
    else {
      if (g_strcmp0 (r->m.backend, "cpu") == 0)
        r->m.upload_ms = r->m.download_ms = NAN;        /* no copies on the CPU */
      if (is_cuda && g_strcmp0 (r->m.backend, "cuda") != 0)
        gcvb_result_note (&r->m, "FELL BACK to %s", r->m.backend);
      g_printerr ("  %s %9.3f ms/frame %8.2f fps  up %.3f comp %.3f down %.3f total %.3f  [%s]%s%s\n", r->m.label,
          r->m.ms, r->m.fps, r->m.upload_ms, r->m.compute_ms, r->m.download_ms, r->m.total_ms, r->m.backend,
          r->m.note[0] ? "  " : "", r->m.note);
    }
  }
  gcvb_pipeline_free (p);
}

static void
case_elements (const GcvbFrameSet * fs, const GArray * reductions, const GArray * spps)
{
  int cpu_frames = opt.cpu_frames ? opt.cpu_frames : 3;

  for (guint ri = 0; ri < reductions->len; ri++) {
    int red = g_array_index (reductions, int, ri);
    g_printerr ("\n== 4. elements: %dx%d RGBA -> width %d ==\n", fs->width, fs->height,
        reduced_width (fs->width, red));
    for (int mi = -1; mi < (int) spps->len; mi++) {
      GcvSeamMode mode = mi < 0 ? GCV_SEAM_MODE_EXACT : GCV_SEAM_MODE_FAST;
      int spp = mi < 0 ? 1 : g_array_index (spps, int, mi);
      bench_element ("cudaseamcarve", fs, red, mode, spp, opt.warmup, opt.frames);
      bench_element ("cpuseamcarve", fs, red, mode, spp, MIN (opt.warmup, 1), cpu_frames);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* pictures */

typedef struct {
  guint8 *px;                   /* packed RGBA */
  int w, h;
  char label[96];
} Panel;

static void
panel_set (Panel * p, guint8 * px, int w, int h, const char *fmt, ...) G_GNUC_PRINTF (5, 6);

static void
panel_set (Panel * p, guint8 * px, int w, int h, const char *fmt, ...)
{
  va_list ap;

  p->px = px;
  p->w = w;
  p->h = h;
  va_start (ap, fmt);
  g_vsnprintf (p->label, sizeof (p->label), fmt, ap);
  va_end (ap);
}

/* The panels side by side on white, a label above each. */
static gboolean
write_sheet (const char *dir, const char *file, const Panel * panels, int n)
{
  const int gap = 12, label_h = 28;
  int W = 0, H = 0, x = 0;
  guint8 *sheet;
  GcvbLabel *labels = g_new0 (GcvbLabel, n);
  gchar *path = g_build_filename (dir, file, NULL);
  GError *error = NULL;
  gboolean ok;

  for (int i = 0; i < n; i++) {
    W += panels[i].w + (i ? gap : 0);
    H = MAX (H, panels[i].h);
  }
  H += label_h;
  sheet = g_malloc ((size_t) W * H * 4);
  memset (sheet, 255, (size_t) W * H * 4);
  for (int i = 0; i < n; i++) {
    for (int y = 0; y < panels[i].h; y++)
      memcpy (sheet + ((size_t) (y + label_h) * W + x) * 4, panels[i].px + (size_t) y * panels[i].w * 4,
          (size_t) panels[i].w * 4);
    labels[i].text = panels[i].label;
    labels[i].x = x + 2;
    labels[i].y = 4;
    labels[i].font = "Sans 11";
    x += panels[i].w + gap;
  }
  ok = gcvb_write_png (path, sheet, W, H, (size_t) W * 4, "RGBA", labels, n, &error);
  if (ok)
    g_print ("Picture:    %s (%dx%d)\n", path, W, H);
  else {
    g_printerr ("error: %s\n", error->message);
    g_error_free (error);
    gcvb_n_failures++;
  }
  g_free (sheet);
  g_free (labels);
  g_free (path);
  return ok;
}

static guint8 *
carve_cpu (const GcvbPhoto * ph, int out_w, GcvSeamMode mode, int spp, guint8 * mask)
{
  GcvSeamGeometry geom = rgba_geometry (ph->width, ph->height, out_w, ph->height);
  GcvSeamParams params = seam_params (mode, spp);
  GcvError err = { 0 };
  GcvSeamCpu *ctx = gcv_seam_cpu_new (&geom, &err);
  guint8 *out = g_malloc ((size_t) out_w * 4 * ph->height);
  GcvPlane in = { ph->pixels, ph->width, ph->height, (size_t) ph->width * 4 };
  GcvPlane op = { out, out_w, ph->height, (size_t) out_w * 4 };
  GcvPlane mp = { mask, ph->width, ph->height, (size_t) ph->width };

  if (ctx == NULL || gcv_seam_cpu_process (ctx, &params, &in, &op, mask ? &mp : NULL, 0, &err) != GCV_OK) {
    g_printerr ("error: pictures: %s\n", err.message);
    gcvb_n_failures++;
    g_clear_pointer (&out, g_free);
  }
  gcv_seam_cpu_free (ctx);
  return out;
}

static guint8 *
scale_bilinear (const GcvbPhoto * ph, int out_w)
{
  GcvScaleGeometry geom = { GCV_SAMPLE_U8, 4, ph->width, ph->height, out_w, ph->height };
  GcvScaleParams params = { GCV_SCALE_BILINEAR, 0 };
  GcvError err = { 0 };
  GcvScaleCpu *ctx = gcv_scale_cpu_new (&geom, &err);
  guint8 *out = g_malloc ((size_t) out_w * 4 * ph->height);
  GcvPlane in = { ph->pixels, ph->width, ph->height, (size_t) ph->width * 4 };
  GcvPlane op = { out, out_w, ph->height, (size_t) out_w * 4 };

  if (ctx == NULL || gcv_scale_cpu_process (ctx, &params, &in, &op, 0, &err) != GCV_OK) {
    g_printerr ("error: pictures: bilinear: %s\n", err.message);
    gcvb_n_failures++;
    g_clear_pointer (&out, g_free);
  }
  if (ctx)
    gcv_scale_cpu_free (ctx);
  return out;
}

static guint8 *
paint_seams (const GcvbPhoto * ph, const guint8 * mask)
{
  size_t n = (size_t) ph->width * ph->height;
  guint8 *out = g_memdup2 (ph->pixels, n * 4);

  for (size_t i = 0; i < n; i++)
    if (mask[i] & GCV_SEAM_MASK_WIDTH) {
      out[4 * i] = 255;
      out[4 * i + 1] = 0;
      out[4 * i + 2] = 0;
      out[4 * i + 3] = 255;
    }
  return out;
}

static GPtrArray *pictures;     /* paths written */

static void
case_pictures (const GcvbPhoto * photos, int n_photos)
{
  const char *want = opt_picture_photo ? opt_picture_photo : "chelsea";
  const GcvbPhoto *ph = NULL;
  int w, h, out_w, big_w, spp = opt_picture_spp;
  guint8 *m_exact, *m_fast, *exact, *fast, *lqr = NULL, *bil, *s_exact = NULL, *s_fast = NULL, *big, *big_bil;
  Panel pn[5];
  int n;

  for (int i = 0; i < n_photos; i++)
    if (g_str_has_prefix (photos[i].name, want))
      ph = &photos[i];
  if (ph == NULL) {
    g_printerr ("error: --picture-photo %s: no such test photo loaded\n", want);
    gcvb_n_failures++;
    return;
  }
  if (g_mkdir_with_parents (opt_pictures, 0755) != 0) {
    g_printerr ("error: cannot make %s\n", opt_pictures);
    gcvb_n_failures++;
    return;
  }
  w = ph->width;
  h = ph->height;
  out_w = reduced_width (w, 25);
  big_w = w + (w - out_w);
  g_printerr ("\n== pictures: %s %dx%d -> %dx%d and %dx%d, into %s ==\n", ph->name, w, h, out_w, h, big_w, h,
      opt_pictures);
  m_exact = g_malloc0 ((size_t) w * h);
  m_fast = g_malloc0 ((size_t) w * h);
  exact = carve_cpu (ph, out_w, GCV_SEAM_MODE_EXACT, 1, m_exact);
  fast = carve_cpu (ph, out_w, GCV_SEAM_MODE_FAST, spp, m_fast);
  bil = scale_bilinear (ph, out_w);
  big = carve_cpu (ph, big_w, GCV_SEAM_MODE_EXACT, 1, NULL);
  big_bil = scale_bilinear (ph, big_w);
#if GCVB_HAVE_LQR
  if (lqr_enabled ()) {
    char msg[256];
    lqr = g_malloc ((size_t) out_w * 4 * h);
    if (!lqr_carve (ph->pixels, w, h, (size_t) w * 4, out_w, h, lqr, (size_t) out_w * 4, NULL, msg, sizeof (msg))) {
      g_printerr ("warning: pictures: liblqr: %s\n", msg);
      g_clear_pointer (&lqr, g_free);
    }
  }
#endif
  if (exact && fast && bil) {
    n = 0;
    panel_set (&pn[n++], ph->pixels, w, h, "input %s %dx%d", ph->name, w, h);
    panel_set (&pn[n++], exact, out_w, h, "seam carving, exact (-25%%: %d px)", out_w);
    panel_set (&pn[n++], fast, out_w, h, "seam carving, fast (%d seams/pass)", spp);
    if (lqr)
      panel_set (&pn[n++], lqr, out_w, h, "liblqr %s", GCVB_LQR_VERSION);
    panel_set (&pn[n++], bil, out_w, h, "bilinear scaling");
    if (write_sheet (opt_pictures, "seamcarve-comparison.png", pn, n))
      g_ptr_array_add (pictures, g_build_filename (opt_pictures, "seamcarve-comparison.png", NULL));
    s_exact = paint_seams (ph, m_exact);
    s_fast = paint_seams (ph, m_fast);
    panel_set (&pn[0], s_exact, w, h, "exact: the %d seams removed", w - out_w);
    panel_set (&pn[1], s_fast, w, h, "fast, %d seams/pass: the %d seams removed", spp, w - out_w);
    if (write_sheet (opt_pictures, "seamcarve-seams.png", pn, 2))
      g_ptr_array_add (pictures, g_build_filename (opt_pictures, "seamcarve-seams.png", NULL));
  }
  if (big && big_bil) {
    panel_set (&pn[0], big, big_w, h, "seam insertion, exact (%dx%d -> %d px)", w, h, big_w);
    panel_set (&pn[1], big_bil, big_w, h, "bilinear scaling (%d px)", big_w);
    if (write_sheet (opt_pictures, "seamcarve-enlarge.png", pn, 2))
      g_ptr_array_add (pictures, g_build_filename (opt_pictures, "seamcarve-enlarge.png", NULL));
  }
  g_free (m_exact);
  g_free (m_fast);
  g_free (exact);
  g_free (fast);
  g_free (lqr);
  g_free (bil);
  g_free (s_exact);
  g_free (s_fast);
  g_free (big);
  g_free (big_bil);
}

/* ------------------------------------------------------------------------ */
/* tables */

static const Result *
find_result (Part part, const char *impl, int threads, int reduction, GcvSeamMode mode, int spp)
{
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    if (r->part == part && strcmp (r->m.impl, impl) == 0 && (threads < 0 || r->m.threads == threads)
        && r->reduction == reduction && r->mode == mode && (mode == GCV_SEAM_MODE_EXACT || r->spp == spp))
      return r;
  }
  return NULL;
}

static gboolean
have_part (Part part)
{
  for (guint i = 0; i < results->len; i++)
    if (g_array_index (results, Result, i).part == part)
      return TRUE;
  return FALSE;
}

static void
fmt_ms (char *buf, size_t len, const Result * r)
{
  if (r == NULL)
    g_strlcpy (buf, "-", len);
  else if (r->m.skipped)
    g_strlcpy (buf, r->m.failed ? "FAILED" : "skipped", len);
  else if (r->m.ms < 1)
    g_snprintf (buf, len, "%.4f", r->m.ms);
  else if (r->m.ms < 100)
    g_snprintf (buf, len, "%.3f", r->m.ms);
  else
    g_snprintf (buf, len, "%.1f", r->m.ms);
}

static const char *
mode_str (const Result * r, char *buf, size_t len)
{
  if (r->mode == GCV_SEAM_MODE_EXACT)
    g_strlcpy (buf, "exact", len);
  else
    g_snprintf (buf, len, "fast P=%d%s", r->spp, r->spp_default ? " dflt" : "");
  return buf;
}

static void
print_paper (void)
{
  double pe = PAPER_MS * PAPER_ENERGY_SHARE, ps = PAPER_MS * PAPER_SEAM_MAP_SHARE;

  if (!have_part (PART_PAPER))
    return;
  g_print ("\n== 1. The paper's case: one seam removed from a %dx%d frame (RGBA, %s) ==\n", paper_w, paper_h,
      gcv_seam_energy_name (our_energy));
  g_print ("ours: CUDA events around gcv_seam_cuda_process on device frames / wall clock around "
      "gcv_seam_cpu_process, median;\nshares: medians of profiled runs (energy = luma + energy, seam map = "
      "eq. 2, rest = backtrack + carve)\n");
  g_print ("%-26s %4s %10s %8s %8s %8s %10s %10s %10s %9s %5s  %s\n", "implementation", "thr", "total ms",
      "energy", "seam map", "rest", "energy ms", "map ms", "rest ms", "vs paper", "runs", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-----------------------\n");
  g_print ("%-26s %4d %10.1f %7.0f%% %7.0f%% %7.0f%% %10.1f %10.1f %10.1f %9s %5s  %s\n", "paper (Xeon E5462)", 1,
      PAPER_MS, 100 * PAPER_ENERGY_SHARE, 100 * PAPER_SEAM_MAP_SHARE,
      100 * (1 - PAPER_ENERGY_SHARE - PAPER_SEAM_MAP_SHARE), pe, ps, PAPER_MS - pe - ps, "1.0x", "-",
      PAPER_CPU);
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    char ms[32], thr[8], sh[3][16], pm[3][24], vs[24];
    if (r->part != PART_PAPER)
      continue;
    fmt_ms (ms, sizeof (ms), r);
    if (r->m.threads > 0)
      g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
    else
      g_strlcpy (thr, "-", sizeof (thr));
    for (int k = 0; k < 3; k++)
      g_strlcpy (sh[k], "-", sizeof (sh[k])), g_strlcpy (pm[k], "-", sizeof (pm[k]));
    if (r->profiled && profile_sum (&r->prof) > 0) {
      double tot = profile_sum (&r->prof), v[3] = { r->prof.energy_ms, r->prof.seam_map_ms,
        r->prof.backtrack_ms + r->prof.carve_ms
      };
      for (int k = 0; k < 3; k++) {
        g_snprintf (sh[k], sizeof (sh[k]), "%.0f%%", 100 * v[k] / tot);
        g_snprintf (pm[k], sizeof (pm[k]), v[k] < 1 ? "%.4f" : "%.2f", v[k]);
      }
    }
    if (!r->m.skipped)
      g_snprintf (vs, sizeof (vs), "%.1fx", PAPER_MS / r->m.ms);
    else
      g_strlcpy (vs, "-", sizeof (vs));
    g_print ("%-26s %4s %10s %8s %8s %8s %10s %10s %10s %9s %5" G_GUINT64_FORMAT "  %s\n", r->m.impl, thr, ms,
        sh[0], sh[1], sh[2], pm[0], pm[1], pm[2], vs, r->m.count, r->m.note);
  }
  g_print ("vs paper: the paper's 85.6 ms / ours.  The profiled phases are timed apart (the GPU waits between "
      "them), so their\nsum is a little above the unprofiled total.  liblqr: one thread, lqr_carver_new (a copy "
      "of the frame) + init +\nresize + read-out; its energy and seam map are not separable from outside.\n");
}

static void
print_video (const GArray * reductions, const GArray * spps)
{
  if (!have_part (PART_VIDEO))
    return;
  g_print ("\n== 2. Video: %dx%d RGBA, width reduced by seam carving (%s), ms per frame ==\n", video_w, video_h,
      gcv_seam_energy_name (our_energy));
  g_print ("cuda: CUDA events around gcv_seam_cuda_process on device frames (median of %d after %d warm-up); "
      "cpu: wall clock,\n%d threads, median of at most %d runs within %.0f s; liblqr: 1 thread, exact only "
      "(its own seam order)\n", opt.runs, MAX (opt.warmup, 1), gcvb_cpu_threads (opt_cpu_threads), cpu_max_runs (), cpu_budget_s ());
  g_print ("%-16s %-10s %6s %10s %8s %10s %8s %9s %10s  %s\n", "reduction", "mode", "passes", "cuda ms", "fps",
      "cpu ms", "fps", "cuda/cpu", "vs exact", "check / notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------\n");
  for (guint ri = 0; ri < reductions->len; ri++) {
    int red = g_array_index (reductions, int, ri);
    const Result *gx = find_result (PART_VIDEO, "cuda backend", -1, red, GCV_SEAM_MODE_EXACT, 1);
    const Result *cx = find_result (PART_VIDEO, "cpu backend", -1, red, GCV_SEAM_MODE_EXACT, 1);
    const Result *lq = find_result (PART_VIDEO, "liblqr", -1, red, GCV_SEAM_MODE_EXACT, 1);
    char what[32];
    g_snprintf (what, sizeof (what), "-%d%% (%d seams)", red, video_w - reduced_width (video_w, red));
    for (int mi = -1; mi < (int) spps->len; mi++) {
      GcvSeamMode mode = mi < 0 ? GCV_SEAM_MODE_EXACT : GCV_SEAM_MODE_FAST;
      int spp = mi < 0 ? 1 : g_array_index (spps, int, mi);
      const Result *g = find_result (PART_VIDEO, "cuda backend", -1, red, mode, spp);
      const Result *c = find_result (PART_VIDEO, "cpu backend", -1, red, mode, spp);
      const Result *any = g ? g : c;
      char gm[32], cm[32], gf[32], cf[32], sp[32], vx[32], md[32], pas[16], note[320] = "";
      if (any == NULL)
        continue;
      fmt_ms (gm, sizeof (gm), g);
      fmt_ms (cm, sizeof (cm), c);
      gcvb_fmt_num (gf, sizeof (gf), g && !g->m.skipped ? g->m.fps : NAN, "%.1f");
      gcvb_fmt_num (cf, sizeof (cf), c && !c->m.skipped ? c->m.fps : NAN, "%.2f");
      gcvb_fmt_num (sp, sizeof (sp), g && c && !g->m.skipped && !c->m.skipped ? c->m.ms / g->m.ms : NAN, "%.1fx");
      /* speed-up of this mode over exact, on the GPU when measured, else the CPU */
      {
        const Result *a = g && !g->m.skipped ? g : c, *x = g && !g->m.skipped ? gx : cx;
        gcvb_fmt_num (vx, sizeof (vx), a && x && !a->m.skipped && !x->m.skipped ? x->m.ms / a->m.ms : NAN,
            "%.1fx");
      }
      g_snprintf (pas, sizeof (pas), "%d", any->model_passes);
      if (g && g->m.mismatch == 0)
        g_strlcat (note, "identical to cpu", sizeof (note));
      else if (g && g->m.mismatch > 0)
        g_snprintf (note, sizeof (note), "DIFFERS (%" G_GINT64_FORMAT " samples)", g->m.mismatch);
      if (c && c->m.note[0])
        g_snprintf (note + strlen (note), sizeof (note) - strlen (note), "%scpu: %s", note[0] ? "; " : "",
            c->m.note);
      if (g && g->m.note[0] && g->m.mismatch <= 0)
        g_snprintf (note + strlen (note), sizeof (note) - strlen (note), "%scuda: %s", note[0] ? "; " : "",
            g->m.note);
      g_print ("%-16s %-10s %6s %10s %8s %10s %8s %9s %10s  %s\n", mi < 0 ? what : "", mode_str (any, md,
              sizeof (md)), pas, gm, gf, cm, cf, sp, vx, note);
    }
    if (lq != NULL) {
      char lm[32], lf[32], vs[96] = "";
      fmt_ms (lm, sizeof (lm), lq);
      gcvb_fmt_num (lf, sizeof (lf), !lq->m.skipped ? lq->m.fps : NAN, "%.2f");
      if (!lq->m.skipped && gx && !gx->m.skipped)
        g_snprintf (vs, sizeof (vs), "liblqr / cuda exact: %.1fx", lq->m.ms / gx->m.ms);
      if (!lq->m.skipped && cx && !cx->m.skipped)
        g_snprintf (vs + strlen (vs), sizeof (vs) - strlen (vs), "%sliblqr / cpu exact: %.2fx",
            vs[0] ? "; " : "", lq->m.ms / cx->m.ms);
      g_print ("%-16s %-10s %6s %10s %8s %10s %8s %9s %10s  %s%s%s\n", "", "liblqr", "-", "-", "-", lm, lf, "-", "-",
          vs, lq->m.note[0] ? "; " : "", lq->m.note);
    }
  }
  g_print ("passes: seam maps per frame; cuda/cpu: cpu ms / cuda ms; vs exact: exact ms / this mode's ms (same "
      "backend);\nliblqr's row: its time in the cpu columns (1 thread).  check: the GPU output for the first frame "
      "against the CPU's.\n");
}

static void
print_limits (void)
{
  gboolean any = FALSE;

  for (guint i = 0; i < results->len; i++)
    any |= g_array_index (results, Result, i).profiled;
  if (!any)
    return;
  g_print ("\n== 6. Limits: the seam map is a chain of dependent rows; the energy moves bytes ==\n");
  if (host.cuda.available)
    g_print ("GPU memory: %.0f GB/s measured D2D copy (read + write), %.0f GB/s peak [%s]\n", host.cuda.copy_gbps,
        host.cuda.peak_gbps, host.cuda.peak_source);
  g_print ("%-7s %-13s %4s %-10s %5s %6s %5s %10s %11s %9s | %10s %8s %8s %10s %7s\n", "case", "impl", "thr", "mode",
      "-w%", "passes", "rows", "map ms", "ns/row/pass", "Gcells/s", "energy ms", "MB", "GB/s", "floor ms", "x floor");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------------------------\n");
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    char md[32], thr[8], red[8], fl[32], xf[32], gb[32];
    double ns, gcells, floor_ms = NAN;
    if (!r->profiled)
      continue;
    ns = r->prof.seam_map_ms * 1e6 / ((double) MAX (r->prof.passes, 1) * r->height);
    gcells = r->cells / (r->prof.seam_map_ms * 1e-3) / 1e9;
    if (strcmp (r->m.impl, "cuda backend") == 0 && host.cuda.copy_gbps > 0)
      floor_ms = r->energy_bytes / (host.cuda.copy_gbps * 1e9) * 1e3;
    gcvb_fmt_num (fl, sizeof (fl), floor_ms, "%.4f");
    gcvb_fmt_num (xf, sizeof (xf), r->prof.energy_ms / floor_ms, "%.1f");
    gcvb_fmt_num (gb, sizeof (gb), r->energy_bytes / (r->prof.energy_ms * 1e-3) / 1e9, "%.1f");
    if (r->m.threads > 0)
      g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
    else
      g_strlcpy (thr, "-", sizeof (thr));
    g_snprintf (red, sizeof (red), "%d", r->reduction);
    g_print ("%-7s %-13s %4s %-10s %5s %6d %5d %10.4f %11.1f %9.3f | %10.4f %8.1f %8s %10s %7s\n",
        part_names[r->part], r->m.impl, thr, mode_str (r, md, sizeof (md)), r->part == PART_PAPER ? "1px" : red,
        r->prof.passes, r->height, r->prof.seam_map_ms, ns, gcells, r->prof.energy_ms, r->energy_bytes / 1e6, gb,
        fl, xf);
  }
  g_print ("ns/row/pass: seam-map time / (passes x rows): the latency of one dependent row step; Gcells/s: seam-map "
      "cells\n(sum over passes of width x rows) per second.  energy: compulsory bytes = the RGBA frame read once + "
      "an int32\nenergy written per pixel (later passes only update pixels near the seams, not counted); floor ms: "
      "those bytes at\nthe measured D2D copy bandwidth; x floor: energy ms / floor ms (well above 1: latency- or "
      "launch-bound).\nFor scale: one kernel launch per row, as the paper's seam map (899 launches a seam at "
      "900 rows), costs\nmicroseconds a row; the GPU rows' ns/row/pass is what remains of that chain.\n");
}

static void
print_quality (void)
{
  int n_spp;

  if (qualities->len == 0)
    return;
  n_spp = g_array_index (qualities, Quality, 0).n_spp;
  g_print ("\n== 3. Quality: energy removed by the seams, fast / exact (exact: the sum; lower is better) ==\n");
  g_print ("measure: gradient-l1 (|dx| + |dy| of the BT.601 luma) of the ORIGINAL input, summed over the seam mask "
      "the CPU\nbackend returns (both backends give the same seams); carving energy %s; liblqr: its seams from its "
      "visibility map\n", gcv_seam_energy_name (our_energy));
  g_print ("%-28s %-10s %-13s %12s", "image", "size", "reduction", "exact");
  for (int i = 0; i < n_spp; i++) {
    char h[16];
    g_snprintf (h, sizeof (h), "P=%d", g_array_index (qualities, Quality, 0).spp[i]);
    g_print (" %7s", h);
  }
  g_print (" %7s  %s\n", lqr_enabled ()? "liblqr" : "", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------\n");
  {
    double *worst = g_new (double, n_spp), worst_lqr = NAN;
    int n_ok = 0, n_all = 0;
    for (int i = 0; i < n_spp; i++)
      worst[i] = NAN;
    for (guint qi = 0; qi < qualities->len; qi++) {
      const Quality *q = &g_array_index (qualities, Quality, qi);
      char size[24], red[24], lq[16];
      g_snprintf (size, sizeof (size), "%dx%d", q->width, q->height);
      g_snprintf (red, sizeof (red), "-%d%% (%d)", q->reduction, q->seams);
      g_print ("%-28s %-10s %-13s %12.0f", q->image, size, red, q->exact);
      for (int i = 0; i < n_spp; i++) {
        double ratio = q->fast[i] / q->exact;
        g_print (" %7.4f", ratio);
        if (!isnan (ratio)) {
          worst[i] = isnan (worst[i]) ? ratio : MAX (worst[i], ratio);
          n_all++;
          n_ok += ratio <= QUALITY_TARGET;
        }
      }
      gcvb_fmt_num (lq, sizeof (lq), q->lqr / q->exact, "%.4f");
      if (!isnan (q->lqr))
        worst_lqr = isnan (worst_lqr) ? q->lqr / q->exact : MAX (worst_lqr, q->lqr / q->exact);
      g_print (" %7s  %s\n", lqr_enabled ()? lq : "", q->note);
    }
    g_print ("%-28s %-10s %-13s %12s", "worst (largest ratio)", "", "", "");
    for (int i = 0; i < n_spp; i++)
      g_print (" %7.4f", worst[i]);
    {
      char lq[16];
      gcvb_fmt_num (lq, sizeof (lq), worst_lqr, "%.4f");
      g_print (" %7s\n", lqr_enabled ()? lq : "");
    }
    g_print ("target (the issue): fast removes at most %.0f%% more energy than exact: ", 100 * (QUALITY_TARGET - 1));
    for (int i = 0; i < n_spp; i++)
      g_print ("%sP=%d %s", i ? ", " : "", g_array_index (qualities, Quality, 0).spp[i],
          isnan (worst[i]) ? "n/a" : worst[i] <= QUALITY_TARGET ? "MET" : "MISSED");
    g_print (" (%d of %d image x reduction x P within)\n", n_ok, n_all);
    g_print ("(exact is the greedy optimum one seam at a time, not the least total over all seam sets: a ratio "
        "below 1 is possible)\n");
    g_free (worst);
  }
  /* how many seams a seam map gave: a pass's cost on the GPU is about one
   * seam map, so frame time ~ passes x per-map cost */
  g_print ("\nseams per seam map (fast mode; the same runs):\n");
  g_print ("%-28s %-10s %-13s %12s", "image", "size", "reduction", "");
  for (int i = 0; i < n_spp; i++) {
    char h[16];
    g_snprintf (h, sizeof (h), "P=%d", g_array_index (qualities, Quality, 0).spp[i]);
    g_print (" %7s", h);
  }
  g_print ("\n");
  for (guint qi = 0; qi < qualities->len; qi++) {
    const Quality *q = &g_array_index (qualities, Quality, qi);
    char size[24], red[24];
    g_snprintf (size, sizeof (size), "%dx%d", q->width, q->height);
    g_snprintf (red, sizeof (red), "-%d%% (%d)", q->reduction, q->seams);
    g_print ("%-28s %-10s %-13s %12s", q->image, size, red, "");
    for (int i = 0; i < n_spp; i++)
      g_print (" %7.2f", q->per_map[i]);
    g_print ("\n");
  }
}

static void
print_elements (void)
{
  if (!have_part (PART_ELEMENT))
    return;
  g_print ("\n== 4. Elements: appsrc ! element mode=... ! video/x-raw,width=W ! appsink, RGBA %dx%d, wall clock ==\n",
      video_w, video_h);
  g_print ("%-14s %-10s %6s %4s %10s %8s %8s %8s %8s %8s %-7s %s\n", "element", "mode", "width", "thr", "ms/frame",
      "fps", "upload", "compute", "download", "total", "backend", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------\n");
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    GcvbCells c;
    char md[32], thr[8];
    if (r->part != PART_ELEMENT)
      continue;
    if (r->m.threads > 0)
      g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
    else
      g_strlcpy (thr, "-", sizeof (thr));
    if (r->m.skipped) {
      g_print ("%-14s %-10s %6d %4s %10s %8s %8s %8s %8s %8s %-7s %s%s\n", r->m.impl, mode_str (r, md, sizeof (md)),
          r->out_width, thr, "-", "-", "-", "-", "-", "-", "-", r->m.failed ? "" : "skipped: ", r->m.note);
      continue;
    }
    gcvb_format_cells (&r->m, "%.3f", &c);
    g_print ("%-14s %-10s %6d %4s %10s %8s %8s %8s %8s %8s %-7s %" G_GUINT64_FORMAT " frames%s%s\n", r->m.impl,
        mode_str (r, md, sizeof (md)), r->out_width, thr, c.ms, c.fps, c.up, c.comp, c.down, c.tot, r->m.backend,
        r->m.count, r->m.note[0] ? "; " : "", r->m.note);
  }
  g_print ("upload / compute / download / total: the element's stats, means per frame over the timed frames.\n");
}

/* ------------------------------------------------------------------------ */
/* JSON */

static void
json_profile (GString * s, const Result * r)
{
  if (!r->profiled) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_printf (s, "{\"runs\": %d, \"energy_ms\": ", r->profile_count);
  gcvb_json_num (s, r->prof.energy_ms);
  g_string_append (s, ", \"seam_map_ms\": "), gcvb_json_num (s, r->prof.seam_map_ms);
  g_string_append (s, ", \"backtrack_ms\": "), gcvb_json_num (s, r->prof.backtrack_ms);
  g_string_append (s, ", \"carve_ms\": "), gcvb_json_num (s, r->prof.carve_ms);
  g_string_append_printf (s, ", \"passes\": %d, \"seams\": %d}", r->prof.passes, r->prof.seams);
}

static void
json_int_list (GString * s, const GArray * a)
{
  g_string_append (s, "[");
  for (guint i = 0; i < a->len; i++)
    g_string_append_printf (s, "%s%d", i ? ", " : "", g_array_index (a, int, i));
  g_string_append (s, "]");
}

static GString *
results_json (const GArray * reductions, const GArray * spps, const GArray * el_reductions, const GArray * el_spps)
{
  GString *s = gcvb_json_begin (&host, "seamcarve", TRUE, "liblqr", GCVB_HAVE_LQR ? GCVB_LQR_VERSION : NULL);

  g_string_append_printf (s, "  \"config\": {\"paper_frame\": [%d, %d], \"video_frame\": [%d, %d], \"format\": "
      "\"RGBA\", \"energy\": \"%s\", \"reductions_percent\": ", paper_w, paper_h, video_w, video_h,
      gcv_seam_energy_name (our_energy));
  json_int_list (s, reductions);
  g_string_append (s, ", \"seams_per_pass\": ");
  json_int_list (s, spps);
  g_string_append (s, ", \"element_reductions_percent\": ");
  json_int_list (s, el_reductions);
  g_string_append (s, ", \"element_seams_per_pass\": ");
  json_int_list (s, el_spps);
  g_string_append_printf (s, ", \"gpu_runs\": %d, \"warmup\": %d, \"profile_runs\": %d, \"cpu_max_runs\": %d, "
      "\"cpu_budget_s\": ", opt.runs, opt.warmup, profile_runs (), cpu_max_runs ());
  gcvb_json_num (s, cpu_budget_s ());
  g_string_append_printf (s, ", \"cpu_threads\": %d, \"variants\": %d, \"element_frames\": %d, "
      "\"element_cpu_frames\": %d, \"queue\": %d, \"device\": %d, \"temporal_coherence\": 0, \"quick\": %s, "
      "\"lqr_energy\": ", gcvb_cpu_threads (opt_cpu_threads), opt.variants, opt.frames, opt.cpu_frames ? opt.cpu_frames : 3,
      opt.queue, opt.device, opt.quick ? "true" : "false");
#if GCVB_HAVE_LQR
  gcvb_json_str (s, lqr_energy == LQR_EF_GRAD_XABS ? "xabs" : "luma-sumabs");
#else
  g_string_append (s, "null");
#endif
  g_string_append (s, "},\n");
  g_string_append_printf (s, "  \"paper\": {\"system\": \"%s\", \"width\": %d, \"height\": %d, \"seams\": 1, "
      "\"ms\": %.1f, \"energy_share\": %.2f, \"seam_map_share\": %.2f, \"rest_share\": %.2f},\n", PAPER_CPU,
      PAPER_W, PAPER_H, PAPER_MS, PAPER_ENERGY_SHARE, PAPER_SEAM_MAP_SHARE,
      1 - PAPER_ENERGY_SHARE - PAPER_SEAM_MAP_SHARE);

  g_string_append (s, "  \"results\": [\n");
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    GString *extra = g_string_new (NULL);
    double ns = NAN, gcells = NAN, floor_ms = NAN;

    if (r->profiled) {
      ns = r->prof.seam_map_ms * 1e6 / ((double) MAX (r->prof.passes, 1) * r->height);
      gcells = r->cells / (r->prof.seam_map_ms * 1e-3) / 1e9;
      if (strcmp (r->m.impl, "cuda backend") == 0 && host.cuda.copy_gbps > 0)
        floor_ms = r->energy_bytes / (host.cuda.copy_gbps * 1e9) * 1e3;
    }
    g_string_append (s, "    {");
    GCVB_JKEY (s, "part"), gcvb_json_str (s, part_names[r->part]);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "implementation"), gcvb_json_str (s, r->m.impl);
    g_string_append_printf (s, ", \"width\": %d, \"height\": %d, \"out_width\": %d, \"out_height\": %d, "
        "\"seams\": %d, \"reduction_percent\": %d, \"mode\": \"%s\", \"seams_per_pass\": %d, "
        "\"seams_per_pass_default\": %s", r->width, r->height, r->out_width, r->out_height, r->seams, r->reduction,
        gcv_seam_mode_name (r->mode), r->spp, r->spp_default ? "true" : "false");
    gcvb_json_measurement (s, &r->m);
    g_string_append_printf (extra, ", \"model_passes\": %d, \"seam_map_cells\": ", r->model_passes);
    gcvb_json_num (extra, r->cells);
    g_string_append (extra, ", \"profile\": ");
    json_profile (extra, r);
    g_string_append (extra, ", \"seam_map_ns_per_row_pass\": "), gcvb_json_num (extra, ns);
    g_string_append (extra, ", \"seam_map_gcells_per_s\": "), gcvb_json_num (extra, gcells);
    g_string_append (extra, ", \"energy_compulsory_bytes\": "), gcvb_json_num (extra, r->energy_bytes);
    g_string_append (extra, ", \"energy_gbps\": ");
    gcvb_json_num (extra, r->profiled ? r->energy_bytes / (r->prof.energy_ms * 1e-3) / 1e9 : NAN);
    g_string_append (extra, ", \"energy_floor_ms_at_d2d_copy\": "), gcvb_json_num (extra, floor_ms);
    g_string_append (extra, ", \"vs_paper\": ");
    gcvb_json_num (extra, r->part == PART_PAPER && !r->m.skipped ? PAPER_MS / r->m.ms : NAN);
    gcvb_json_row_end (s, &r->m, "mismatch_samples", extra->str, i + 1 == results->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ],\n");

  g_string_append_printf (s, "  \"quality\": {\"measure\": \"gradient-l1 of the original input's luma summed over "
      "the seam mask\", \"target_ratio\": %.2f, \"rows\": [\n", QUALITY_TARGET);
  for (guint qi = 0; qi < qualities->len; qi++) {
    const Quality *q = &g_array_index (qualities, Quality, qi);
    g_string_append (s, "    {");
    GCVB_JKEY (s, "image"), gcvb_json_str (s, q->image);
    g_string_append_printf (s, ", \"width\": %d, \"height\": %d, \"reduction_percent\": %d, \"seams\": %d, "
        "\"exact_energy\": ", q->width, q->height, q->reduction, q->seams);
    gcvb_json_num (s, q->exact);
    g_string_append (s, ", \"fast\": {");
    for (int i = 0; i < q->n_spp; i++) {
      g_string_append_printf (s, "%s\"%d\": {\"energy\": ", i ? ", " : "", q->spp[i]);
      gcvb_json_num (s, q->fast[i]);
      g_string_append (s, ", \"ratio\": "), gcvb_json_num (s, q->fast[i] / q->exact);
      g_string_append (s, ", \"seams_per_map\": "), gcvb_json_num (s, q->per_map[i]);
      g_string_append_printf (s, ", \"within_target\": %s}", q->fast[i] / q->exact <= QUALITY_TARGET ? "true" :
          "false");
    }
    g_string_append (s, "}, \"liblqr_energy\": "), gcvb_json_num (s, q->lqr);
    g_string_append (s, ", \"liblqr_ratio\": "), gcvb_json_num (s, q->lqr / q->exact);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "note"), gcvb_json_str (s, q->note);
    g_string_append_printf (s, "}%s\n", qi + 1 == qualities->len ? "" : ",");
  }
  g_string_append (s, "  ]},\n  \"pictures\": [");
  for (guint i = 0; i < pictures->len; i++) {
    g_string_append (s, i ? ", " : "");
    gcvb_json_str (s, g_ptr_array_index (pictures, i));
  }
  g_string_append (s, "]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */
/* main */

static gboolean
parse_percent (const char *text, gpointer out)
{
  char *end;
  long v = strtol (text, &end, 10);

  if (*end != '\0' || v < 1 || v > 90)
    return FALSE;
  *(int *) out = (int) v;
  return TRUE;
}

static gboolean
parse_spp (const char *text, gpointer out)
{
  char *end;
  long v = strtol (text, &end, 10);

  if (*end != '\0' || v < 1 || v > GCV_SEAM_MAX_PER_PASS)
    return FALSE;
  *(int *) out = (int) v;
  return TRUE;
}

/* parse_spp, or "default" (0): the element's own */
static gboolean
parse_element_spp (const char *text, gpointer out)
{
  if (g_ascii_strcasecmp (text, "default") == 0) {
    *(int *) out = 0;
    return TRUE;
  }
  return parse_spp (text, out);
}

static gboolean
parse_size (const char *text, int *w, int *h)
{
  gchar *t = g_ascii_strdown (text, -1);
  gboolean ok = gcvb_parse_dims (g_strstrip (t), w, h);
  g_free (t);
  return ok;
}

static gboolean
case_on (const GPtrArray * cases, const char *name)
{
  for (guint i = 0; i < cases->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (cases, i), name) == 0)
      return TRUE;
  return FALSE;
}

int
main (int argc, char **argv)
{
  static const char *const known_cases[] = { "paper", "video", "quality", "elements", "pictures" };
  GArray *reductions = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *spps = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *el_reductions = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *el_spps = g_array_new (FALSE, FALSE, sizeof (int));
  GPtrArray *cases;
  GcvbPhoto photos[GCVB_N_PHOTOS];
  GcvbFrameSet video;
  gboolean do_paper, do_video, do_quality, do_elements, do_pictures, have_video = FALSE;
  int n_photos, status;

  if (!gcvb_init (&argc, &argv, "- benchmark cudaseamcarve / cpuseamcarve and the seam carving backends "
          "(the paper's one-seam case, video, quality, liblqr)", entries, &opt, &quick))
    return 2;
  if (!gcvb_parse_list (opt_reductions, "10,25", parse_percent, reductions, "bad reduction", "(percent, 1 .. 90)")
      || !gcvb_parse_list (opt_spp, "4,8,16,32", parse_spp, spps, "bad seams per pass", "(1 .. 32)")
      || !gcvb_parse_list (opt_el_reductions, "10", parse_percent, el_reductions, "bad element reduction",
          "(percent, 1 .. 90)")
      || !gcvb_parse_list (opt_el_spp, "default,16", parse_element_spp, el_spps, "bad element seams per pass",
          "(default, 1 .. 32)"))
    return 2;
  if (spps->len > MAX_SPP) {
    g_printerr ("error: at most %d --seams-per-pass values\n", MAX_SPP);
    return 2;
  }
  cases = gcvb_split_list (opt_cases, "paper,video,quality,elements");
  for (guint i = 0; i < cases->len; i++) {
    gboolean known = FALSE;
    for (guint k = 0; k < G_N_ELEMENTS (known_cases); k++)
      known |= g_ascii_strcasecmp (g_ptr_array_index (cases, i), known_cases[k]) == 0;
    if (!known) {
      g_printerr ("error: unknown case '%s' (paper, video, quality, elements, pictures)\n",
          (const char *) g_ptr_array_index (cases, i));
      return 2;
    }
  }
  if (opt_frame && !parse_size (opt_frame, &paper_w, &paper_h)) {
    g_printerr ("error: bad --frame '%s' (WxH)\n", opt_frame);
    return 2;
  }
  if (opt_video_frame && !parse_size (opt_video_frame, &video_w, &video_h)) {
    g_printerr ("error: bad --video-frame '%s'\n", opt_video_frame);
    return 2;
  }
  if (opt_energy != NULL) {
    gboolean ok = FALSE;
    for (int e = GCV_SEAM_ENERGY_GRADIENT_L1; e <= GCV_SEAM_ENERGY_FORWARD && !ok; e++)
      if (g_ascii_strcasecmp (opt_energy, gcv_seam_energy_name (e)) == 0) {
        our_energy = e;
        ok = TRUE;
      }
    if (!ok) {
      g_printerr ("error: bad --energy '%s' (gradient-l1, gradient-l2, forward)\n", opt_energy);
      return 2;
    }
  }
  if (opt_lqr_energy != NULL) {
#if GCVB_HAVE_LQR
    if (g_ascii_strcasecmp (opt_lqr_energy, "xabs") == 0)
      lqr_energy = LQR_EF_GRAD_XABS;
    else if (g_ascii_strcasecmp (opt_lqr_energy, "luma-sumabs") == 0)
      lqr_energy = LQR_EF_LUMA_GRAD_SUMABS;
    else
#endif
    {
      g_printerr ("error: bad --lqr-energy '%s' (luma-sumabs, xabs; built %s liblqr)\n", opt_lqr_energy,
          GCVB_HAVE_LQR ? "with" : "without");
      return 2;
    }
  }
  if (opt_cpu_threads < 0 || opt_picture_spp < 1 || opt_picture_spp > GCV_SEAM_MAX_PER_PASS) {
    g_printerr ("error: --cpu-threads must be >= 0, --picture-seams-per-pass 1 .. %d\n", GCV_SEAM_MAX_PER_PASS);
    return 2;
  }
  do_paper = case_on (cases, "paper");
  do_video = case_on (cases, "video");
  do_quality = case_on (cases, "quality");
  do_elements = case_on (cases, "elements");
  do_pictures = opt_pictures != NULL;
  if (case_on (cases, "pictures") && !do_pictures) {
    opt_pictures = g_strdup ("seamcarve-pictures");
    do_pictures = TRUE;
  }

  results = g_array_new (FALSE, FALSE, sizeof (Result));
  qualities = g_array_new (FALSE, FALSE, sizeof (Quality));
  pictures = g_ptr_array_new_with_free_func (g_free);
  gcvb_host_init (&host, "bench-seamcarve", &opt, do_elements, "cpuseamcarve", TRUE);

  gcvb_print_host (&host, opt.device, "cuda backend and cudaseamcarve rows");
  if (host.cuda.available)
    g_print ("GPU memory: %.0f GB/s peak [%s]; %.0f GB/s measured device-to-device copy (read+write)\n",
        host.cuda.peak_gbps, host.cuda.peak_source, host.cuda.copy_gbps);
  g_print ("GStreamer:  %s\n", gst_version_string ());
  if (do_elements)
    g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file :
        "no cpuseamcarve found (the element rows are skipped)");
#if GCVB_HAVE_LQR
  g_print ("Peer:       liblqr %s, %s, delta_x 1, rigidity 0, 1 thread%s\n", GCVB_LQR_VERSION, lqr_energy_name (),
      lqr_enabled ()? "" : " (--skip lqr)");
#else
  g_print ("Peer:       liblqr not built in (no lqr-1 at configure time: apt install liblqr-1-0-dev)\n");
#endif
  g_print ("Ours:       energy %s, temporal coherence 0, RGBA; CPU %d threads (and 1 in the paper's case); "
      "%s\n", gcv_seam_energy_name (our_energy), gcvb_cpu_threads (opt_cpu_threads), opt.quick ? "[--quick: rough numbers]" : "");
  g_print ("Timing:     GPU %d runs after %d warm-up (+%d profiled); CPU and liblqr at most %d runs within %.0f s a "
      "row, after 1 warm-up\n", opt.runs, MAX (opt.warmup, 1), profile_runs (), cpu_max_runs (), cpu_budget_s ());

  n_photos = gcvb_load_photos (&opt, "RGBA", 4, photos);
  if (n_photos == 0)
    return 1;
  gcvb_print_frames (opt.variants, "size", photos, n_photos, "as RGBA, scaled and mirror-tiled, shifted, flipped");

  if (do_paper)
    case_paper (photos, n_photos);
  if (do_video || do_elements || do_quality) {
    gcvb_frameset_init (&video, "video", video_w, video_h, 0, TRUE, photos, n_photos, opt.variants);
    have_video = TRUE;
  }
  if (do_video)
    case_video (&video, reductions, spps);
  if (do_quality)
    case_quality (photos, n_photos, &video, reductions, spps);
  if (do_elements)
    case_elements (&video, el_reductions, el_spps);
  if (do_pictures)
    case_pictures (photos, n_photos);

  print_paper ();
  print_video (reductions, spps);
  print_limits ();
  print_quality ();
  print_elements ();
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (reductions, spps, el_reductions, el_spps), &opt, "bench-seamcarve.json");

  if (have_video)
    gcvb_frameset_clear (&video);
  gcvb_photos_clear (photos, n_photos);
  g_array_free (results, TRUE);
  g_array_free (qualities, TRUE);
  g_ptr_array_unref (pictures);
  g_ptr_array_unref (cases);
  g_array_free (reductions, TRUE);
  g_array_free (spps, TRUE);
  g_array_free (el_reductions, TRUE);
  g_array_free (el_spps, TRUE);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
