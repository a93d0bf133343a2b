/* gst-cuda-video: depth-image-based rendering benchmark (cudadibr /
 * cpudibr, the contract of cpu/dibr.h).
 *
 *   bench-dibr [--quick] [--cases paper,stereo] [--runs N] [--cpu-budget S]
 *       [--variants N] [--skip gpu,cpu,cpu1,check] [--json FILE]
 *
 * Cases (issue 8, paper 000 "Synthesis example: depth image-based
 * rendering", Table 5):
 * 1. paper: 800x600, the Table 5 case.  Two figures per implementation:
 *    - DCBF: stage 1 alone with the median off and an 11x11 DCBF
 *      (sigma-spatial 3, sigma-color 12): the paper's "DCBF" column.
 *      CUDA: the clean stage's event time of a render with those params
 *      (GcvDibrTimes.clean_ms: kernels only); the "cuda clean_depth" row
 *      times gcv_dibr_cuda_clean_depth itself between two events (the
 *      kernels plus the download of the 800x600 float plane).  CPU:
 *      gcv_dibr_cpu_clean_depth's wall clock.
 *    - propagation: the warp stage (z-buffer with the 64-bit atomic min and
 *      crack filling, GcvDibrTimes.warp_ms) of a render with the median and
 *      the DCBF off, i.e. the raw depth (holes included) propagated to the
 *      virtual view: the paper's "depth prop." column (its step 1 copies
 *      raw depth pixels into another camera, closest wins, with atomics).
 * 2. stereo: 1920x1080 2D+Z, a full stereo render per frame: two renders,
 *    virtual cameras at -b/2 and +b/2 (gcv_dibr_camera_simple, b = 0.25,
 *    convergence 6), the default clean-up (median 3, DCBF 11x11), colour
 *    out.  CUDA rows: "cuda kernels" the per-stage event times of both eyes
 *    (each render waited for alone, so both eyes' GcvDibrTimes are seen;
 *    the second eye's clean stage is ~0: kernels/dibr.cu keeps a view's
 *    cleaned depth while the view and params are unchanged); "cuda stereo" events from before the upload to the end
 *    of both renders (uploads, kernels, downloads), both renders queued
 *    before one wait; "cuda wall" the host clock of the same.  CPU: the two
 *    gcv_dibr_cpu_render calls (the CPU API cleans the depth in each).
 *    Target on an H100: <= 0.2 ms DCBF (paper), <= 3 ms a stereo frame.
 *
 * Inputs (never constant): the standard scene of tests/dibr_scene.h (four
 * photos on planes and a box, z 2.5 .. 14) ray-cast in float64 from
 * --variants camera positions (small moves and turns), 8-bit depth with
 * zero-is-unknown holes punched at random (blobs, ~4% of the pixels): the
 * timed loops rotate through the variants.
 *
 * Check: the CUDA backend's outputs for the first variant against the CPU
 * backend's (all threads): cleaned depth (float bits) and rendered colour
 * and depth (paper), both eyes' colour (stereo).  The contract makes them
 * identical: the mismatch column counts differing samples (0 expected).
 *
 * Limits (per case): the DCBF's FP32 operations (4 a neighbour, K^2
 * neighbours a pixel: w = Gs Gc, w d, num +, den +, no FMA by contract)
 * over the FP32 peak (SMs x boost clock x 128 lanes, non-FMA: one op a lane
 * and cycle; known for the H100 and H200), and the least device-memory
 * bytes of the stages (see print_limits) over the measured D2D copy
 * bandwidth.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dibr.h"
#include "dibr_scene.h"
#include "gcv-bench.h"

/* GCVB_DIBR_CUDA: the CUDA backend of cpu/dibr.h is in this build */
#define GCVB_DIBR_CUDA GCVB_CUDA

/* ------------------------------------------------------------------------ */
/* the paper's Table 5 (800x600, 11x11) and the targets */

#define PAPER_CPU_PROP_MS 38.0
#define PAPER_CPU_DCBF_MS 1041.0
#define PAPER_GPU_PROP_MS 24.0
#define PAPER_GPU_DCBF_MS 14.0
#define PAPER_CPU "Intel Core 2 Duo E8400 3.0 GHz (sequential)"
#define PAPER_GPU "NVIDIA GeForce 9800 GT"
#define PAPER_WHAT "paper 000 Table 5: 800x600, 11x11 kernel; depth propagation CPU 38 ms, GPU 24 ms (1.6x); " \
  "DCBF CPU 1041 ms, GPU 14 ms (74.4x); CPU " PAPER_CPU ", GPU " PAPER_GPU
#define TARGET_DCBF_MS 0.2
#define TARGET_STEREO_MS 3.0

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 1, .warmup = 10, .cpu_frames = 0, .runs = 200, .cpu_runs = 0,
  .variants = 4, .queue = 1, .device = 0,      /* frames, queue: unused (no element rows) */
};

static const GcvbOptions quick = {
  .frames = 1, .warmup = 3, .runs = 20, .cpu_runs = 3, .variants = 4, .queue = 1,
};

static gchar *opt_cases = NULL;
static gdouble opt_cpu_budget = -1;     /* s per row; default 10, quick 2 */
static gint opt_cpu_threads = 0;

static GOptionEntry entries[] = {
  {"cases", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
      "Cases, comma-separated: paper, stereo (default both)", "LIST"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs, "Timed GPU frames per row, median taken (default 200)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup, "GPU warm-up frames (default 10)", "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Most timed CPU runs per row (default 10; fewer by --cpu-budget)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
      "Seconds of timed CPU runs per row (default 10, --quick 2)", "S"},
  {"cpu-threads", 0, 0, G_OPTION_ARG_INT, &opt_cpu_threads,
      "Threads of the 'all threads' CPU rows (default 0: one per core)", "N"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Input frames (camera positions, holes) the timed rows rotate through (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  GCVB_OPTION_ENTRIES (opt, "bench-dibr.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
      "Parts to skip, comma-separated: gpu (or cuda), cpu, cpu1 (the 1-thread rows), check", "LIST"},
  {NULL}
};

static double
cpu_budget_s (void)
{
  return gcvb_cpu_budget_s (&opt, opt_cpu_budget, 2, 10);
}

static int
cpu_max_runs (void)
{
  return opt.cpu_runs ? opt.cpu_runs : 10;
}

/* ------------------------------------------------------------------------ */
/* cases */

enum { CASE_PAPER, CASE_STEREO, N_CASES };

typedef struct {
  const char *name, *title;
  int width, height;
  GcvDibrParams p;              /* stereo: the render; paper: the DCBF (median off) */
  GcvDibrParams p_prop;         /* paper: the propagation render (median and DCBF off) */
  double target_ms;
} Case;

static Case cases[N_CASES];
static gboolean case_ran[N_CASES];

static void
cases_init (void)
{
  for (int ci = 0; ci < N_CASES; ci++) {
    Case *c = &cases[ci];
    gcv_dibr_params_init (&c->p);
    c->p.z_near = 2.5;          /* the standard scene's range */
    c->p.z_far = 14.0;
    c->p.zero_is_unknown = 1;
    c->p.baseline = DIBR_STD_BASELINE;
    c->p.convergence = DIBR_STD_ZC;
  }
  cases[CASE_PAPER].name = "paper";
  cases[CASE_PAPER].title = "Table 5: DCBF 11x11 and depth propagation";
  cases[CASE_PAPER].width = 800;
  cases[CASE_PAPER].height = 600;
  cases[CASE_PAPER].p.median_size = 1;
  cases[CASE_PAPER].p.dcbf_size = 11;
  cases[CASE_PAPER].p_prop = cases[CASE_PAPER].p;
  cases[CASE_PAPER].p_prop.dcbf_size = 1;
  cases[CASE_PAPER].target_ms = TARGET_DCBF_MS;
  cases[CASE_STEREO].name = "stereo";
  cases[CASE_STEREO].title = "1080p 2D+Z, full stereo render (two eyes at +-b/2)";
  cases[CASE_STEREO].width = 1920;
  cases[CASE_STEREO].height = 1080;
  cases[CASE_STEREO].p_prop = cases[CASE_STEREO].p;
  cases[CASE_STEREO].target_ms = TARGET_STEREO_MS;
  for (int ci = 0; ci < N_CASES; ci++)
    cases[ci].p.focal_length = cases[ci].p_prop.focal_length = dibr_std_focal (cases[ci].width);
}

static void
describe_params (char *buf, size_t len, const GcvDibrParams * p)
{
  g_snprintf (buf, len, "median %d, DCBF %dx%d (sigma-spatial %g, sigma-color %g, L1 RGB), z %g .. %g, "
      "zero-is-unknown %d, f %g px, baseline %g, convergence %g", p->median_size, p->dcbf_size, p->dcbf_size,
      p->sigma_spatial, p->sigma_color, p->z_near, p->z_far, p->zero_is_unknown, p->focal_length, p->baseline,
      p->convergence);
}

static void
json_params (GString * s, const GcvDibrParams * p)
{
  g_string_append_printf (s, "{\"median_size\": %d, \"dcbf_size\": %d, \"sigma_spatial\": %g, \"sigma_color\": %g, "
      "\"z_near\": %g, \"z_far\": %g, \"zero_is_unknown\": %s, \"focal_length\": %g, \"baseline\": %g, "
      "\"convergence\": %g}", p->median_size, p->dcbf_size, p->sigma_spatial, p->sigma_color, p->z_near, p->z_far,
      p->zero_is_unknown ? "true" : "false", p->focal_length, p->baseline, p->convergence);
}

/* The virtual cameras: paper, the simple-mode camera at +b; stereo, the
 * eyes at -b/2 (left, 0) and +b/2 (right, 1). */
static void
case_cameras (int ci, GcvDibrCamera * src, GcvDibrCamera virt[2])
{
  const Case *c = &cases[ci];
  const GcvDibrParams *p = &c->p;

  if (ci == CASE_PAPER) {
    gcv_dibr_camera_simple (c->width, c->height, p->focal_length, p->baseline, p->convergence, src, &virt[0]);
    virt[1] = virt[0];
  } else {
    gcv_dibr_camera_simple (c->width, c->height, p->focal_length, -p->baseline / 2, p->convergence, src, &virt[0]);
    gcv_dibr_camera_simple (c->width, c->height, p->focal_length, p->baseline / 2, p->convergence, NULL, &virt[1]);
  }
}

/* ------------------------------------------------------------------------ */
/* frames: ray-cast views of the standard scene */

typedef struct {
  int width, height, n;
  guint8 **rgba;                /* [n], packed, 4 W a row */
  guint8 **depth;               /* [n], packed, W a row, 0 = unknown */
  double holes;                 /* fraction of unknown pixels, all variants */
  GcvDibrCamera src;            /* every variant's camera in the DIBR (simple-mode source) */
} Clip;

static DibrScene *scene;

/* Variant k: the ray caster's camera moved and turned a little (centre
 * within +-8 cm, yaw / pitch within 1.5 degrees), so every frame differs;
 * then zero-is-unknown blobs (1 .. 4 px radius) on ~4% of the pixels,
 * seeded by k. */
static void
clip_init (Clip * clip, int W, int H, int n)
{
  double f = dibr_std_focal (W);
  long unknown = 0;

  memset (clip, 0, sizeof (*clip));
  clip->width = W;
  clip->height = H;
  clip->n = n;
  clip->rgba = g_new0 (guint8 *, n);
  clip->depth = g_new0 (guint8 *, n);
  for (int k = 0; k < n; k++) {
    double centre[3] = { 0.08 * sin (1.3 * k), 0.03 * cos (0.7 * k) - 0.03, 0.05 * sin (0.4 * k) };
    DibrCamera cam;
    DibrView view;
    GRand *rand = g_rand_new_with_seed (1000 + k);
    long target = (long) (0.04 * W * H), holes = 0;
    guint8 *d;

    dibr_camera_general (W, H, f, (W - 1) / 2.0, (H - 1) / 2.0, centre, 1.5 * sin (0.9 * k), -1.0 * sin (0.5 * k),
        0.0, &cam);
    dibr_render (scene, &cam, &view);
    clip->rgba[k] = g_memdup2 (view.rgba, (size_t) W * H * 4);
    d = clip->depth[k] = g_malloc ((size_t) W * H);
    dibr_depth_plane (&view, cases[0].p.z_near, cases[0].p.z_far, 8, d, (size_t) W);
    dibr_view_clear (&view);
    while (holes < target) {
      int cx = g_rand_int_range (rand, 0, W), cy = g_rand_int_range (rand, 0, H), r = g_rand_int_range (rand, 1, 5);
      for (int y = MAX (cy - r, 0); y <= MIN (cy + r, H - 1); y++)
        for (int x = MAX (cx - r, 0); x <= MIN (cx + r, W - 1); x++)
          if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r && d[(size_t) y * W + x] != 0) {
            d[(size_t) y * W + x] = 0;
            holes++;
          }
    }
    unknown += holes;
    g_rand_free (rand);
  }
  clip->holes = (double) unknown / ((double) W * H * n);
}

static void
clip_clear (Clip * clip)
{
  for (int k = 0; k < clip->n; k++) {
    g_free (clip->rgba[k]);
    g_free (clip->depth[k]);
  }
  g_free (clip->rgba);
  g_free (clip->depth);
  memset (clip, 0, sizeof (*clip));
}

static GcvDibrView
clip_view (const Clip * clip, int k)
{
  GcvDibrView v;

  memset (&v, 0, sizeof (v));
  k %= clip->n;
  v.rgba.data = clip->rgba[k];
  v.rgba.width = clip->width;
  v.rgba.height = clip->height;
  v.rgba.stride = (size_t) clip->width * 4;
  v.depth.data = clip->depth[k];
  v.depth.width = clip->width;
  v.depth.height = clip->height;
  v.depth.stride = (size_t) clip->width;
  v.depth_bits = 8;
  v.camera = clip->src;
  return v;
}

/* host output planes of a W x H render */
typedef struct {
  GcvPlane rgba[2], depth[2], clean;
} Outs;

static GcvPlane
plane_new (int w, int h, int bpp)
{
  GcvPlane p = { g_malloc0 ((size_t) w * h * bpp), w, h, (size_t) w * bpp };
  return p;
}

static void
outs_init (Outs * o, int w, int h)
{
  for (int e = 0; e < 2; e++) {
    o->rgba[e] = plane_new (w, h, 4);
    o->depth[e] = plane_new (w, h, 4);
  }
  o->clean = plane_new (w, h, 4);
}

static void
outs_clear (Outs * o)
{
  for (int e = 0; e < 2; e++) {
    g_free (o->rgba[e].data);
    g_free (o->depth[e].data);
  }
  g_free (o->clean.data);
}

/* ------------------------------------------------------------------------ */
/* rows */

typedef enum {
  ROW_CUDA_KERNELS,
  ROW_CUDA_CLEAN,               /* paper: clean_depth between events, download included */
  ROW_CUDA_STEREO,              /* stereo: events, upload .. both renders' downloads */
  ROW_CUDA_WALL,
  ROW_CPU,
  ROW_PAPER,
  N_ROW_KINDS
} RowKind;

static const char *const row_kind_names[] = {
  "cuda kernels", "cuda clean_depth", "cuda stereo", "cuda wall", "cpu backend", "paper"
};

typedef struct {
  GcvbResult m;
  RowKind kind;
  int case_i;
  char what[48];
  /* per frame, medians (NAN n/a): paper: dcbf (= m.ms) and propagation;
   * stereo: the three stages summed over both eyes */
  double clean_ms, warp_ms, fill_ms;
  double x_cpu1, x_cpu;         /* speed-ups of m.ms over the cpu rows */
  double x_cpu1_prop, x_cpu_prop;
} Row;

#define MAX_ROWS 64
static GArray *rows_arr;
static GcvbHost host;
/* the elements case: cudadibr (0), cpudibr (1), cudadibr fed pinned
 * buffers (2: as from the pool the element proposes upstream) */
#define N_ELEMENT_ROWS 3
static GcvbResult element_rows[N_ELEMENT_ROWS];
static gboolean element_ran[N_ELEMENT_ROWS];

static Row *
row_new (RowKind kind, int ci, const char *what, int threads)
{
  Row r;

  memset (&r, 0, sizeof (r));
  gcvb_result_init (&r.m, row_kind_names[kind], "%-6s %-16s %s%s", cases[ci].name, row_kind_names[kind],
      what ? what : "", threads == 1 ? " 1 thread" : threads > 1 ? " all threads" : "");
  r.m.threads = threads;
  r.kind = kind;
  r.case_i = ci;
  g_strlcpy (r.what, what ? what : "", sizeof (r.what));
  r.clean_ms = r.warp_ms = r.fill_ms = NAN;
  r.x_cpu1 = r.x_cpu = r.x_cpu1_prop = r.x_cpu_prop = NAN;
  g_assert (rows_arr->len < MAX_ROWS);
  g_array_append_val (rows_arr, r);
  return &g_array_index (rows_arr, Row, rows_arr->len - 1);
}

static void
print_row_progress (const Row * r)
{
  if (r->m.skipped)
    return;
  g_printerr ("  %s %10.4f ms (median of %" G_GUINT64_FORMAT ")%s%s\n", r->m.label, r->m.ms, r->m.count,
      r->m.note[0] ? "  " : "", r->m.note);
}

typedef struct {
  double *t, *a, *b, *c;
  int count;
} Samples;

static void
samples_init (Samples * s, int n)
{
  n = MAX (n, 1);
  s->t = g_new0 (double, n);
  s->a = g_new0 (double, n);
  s->b = g_new0 (double, n);
  s->c = g_new0 (double, n);
  s->count = 0;
}

static void
samples_clear (Samples * s)
{
  g_free (s->t);
  g_free (s->a);
  g_free (s->b);
  g_free (s->c);
}

static void
samples_add (Samples * s, double t, double a, double b, double c)
{
  s->t[s->count] = t;
  s->a[s->count] = a;
  s->b[s->count] = b;
  s->c[s->count] = c;
  s->count++;
}

static void
samples_to_row (Samples * s, Row * r, gboolean stages, double span_ms)
{
  int n = s->count;

  r->m.count = n;
  r->m.mean_ms = span_ms > 0 ? span_ms / n : gcvb_mean (s->t, n);
  r->m.ms = gcvb_median (s->t, n);
  r->m.fps = 1000.0 / r->m.ms;
  if (stages) {
    r->clean_ms = gcvb_median (s->a, n);
    r->warp_ms = gcvb_median (s->b, n);
    r->fill_ms = gcvb_median (s->c, n);
  }
}

/* The first variant's outputs, for the check: [0] cpu (all threads), [1]
 * cuda.  paper: clean = the DCBF's float plane, rgba[0] / depth[0] the
 * propagation render's; stereo: rgba[0], rgba[1] the two eyes. */
static Outs ref_out[N_CASES][2];
static gboolean have_ref[N_CASES][2];

static void
keep_ref (int ci, int which, const Outs * o)
{
  Outs *d = &ref_out[ci][which];
  int w = cases[ci].width, h = cases[ci].height;

  if (have_ref[ci][which])
    return;
  outs_init (d, w, h);
  for (int e = 0; e < 2; e++) {
    memcpy (d->rgba[e].data, o->rgba[e].data, (size_t) w * h * 4);
    memcpy (d->depth[e].data, o->depth[e].data, (size_t) w * h * 4);
  }
  memcpy (d->clean.data, o->clean.data, (size_t) w * h * 4);
  have_ref[ci][which] = TRUE;
}

/* ------------------------------------------------------------------------ */
/* CPU backend */

/* One frame on the CPU: paper, the DCBF (clean_depth) and the propagation
 * render; stereo, the two eyes.  *t: wall of the frame's figure (paper: the
 * DCBF; stereo: both renders), *a, *b, *c: the stages (paper: dcbf, warp of
 * the propagation render, NAN). */
static gboolean
cpu_frame (GcvDibrCpu * ctx, int ci, const Clip * clip, int k, int nt, const GcvDibrCamera virt[2], Outs * o,
    double *t, double *a, double *b, double *c, GcvError * err)
{
  const Case *cs = &cases[ci];
  GcvDibrView v = clip_view (clip, k);
  GcvDibrTimes tm[2];
  double ms = 0, t0;

  if (ci == CASE_PAPER) {
    if (gcv_dibr_cpu_clean_depth (ctx, &cs->p, &v, &o->clean, nt, &ms, err) != GCV_OK)
      return FALSE;
    if (gcv_dibr_cpu_render (ctx, &cs->p_prop, &v, 1, &virt[0], &o->rgba[0], &o->depth[0], NULL, nt, &tm[0],
            err) != GCV_OK)
      return FALSE;
    *t = ms;
    *a = ms;
    *b = tm[0].warp_ms;
    *c = NAN;
    return TRUE;
  }
  t0 = gcvb_now_ms ();
  for (int e = 0; e < 2; e++)
    if (gcv_dibr_cpu_render (ctx, &cs->p, &v, 1, &virt[e], &o->rgba[e], NULL, NULL, nt, &tm[e], err) != GCV_OK)
      return FALSE;
  *t = gcvb_now_ms () - t0;
  *a = tm[0].clean_ms + tm[1].clean_ms;
  *b = tm[0].warp_ms + tm[1].warp_ms;
  *c = tm[0].fill_ms + tm[1].fill_ms;
  return TRUE;
}

static void
bench_cpu (int ci, const Clip * clip, int n_threads)
{
  const Case *c = &cases[ci];
  int nt = n_threads == 1 ? 1 : gcvb_cpu_threads (opt_cpu_threads);
  Row *r = row_new (ROW_CPU, ci, NULL, nt);
  GcvDibrCamera src, virt[2];
  GcvDibrCpu *ctx;
  GcvError err = { 0 };
  Outs o;
  Samples s;
  int runs = 0, max_runs = cpu_max_runs ();
  double budget = cpu_budget_s ();

  case_cameras (ci, &src, virt);
  outs_init (&o, c->width, c->height);
  samples_init (&s, max_runs + 1);
  ctx = gcv_dibr_cpu_new (c->width, c->height, &err);
  if (ctx == NULL)
    goto fail;
  /* call 0: the warm-up (variant 0, the check's reference); then as many
   * of at most max_runs calls as fit the budget */
  for (int i = 0; i <= runs; i++) {
    double t, a, b, cc;
    if (!cpu_frame (ctx, ci, clip, i, nt, virt, &o, &t, &a, &b, &cc, &err))
      goto fail;
    if (i == 0) {
      if (n_threads != 1)
        keep_ref (ci, 0, &o);
      if (t * 1e-3 >= budget) {
        samples_add (&s, t, a, b, cc);
        gcvb_result_note (&r->m, "one call (the warm-up) took the budget of %.0f s", budget);
        break;
      }
      runs = (int) CLAMP (budget / MAX (t * 1e-3, 1e-6), 1, max_runs);
      if (runs < max_runs)
        gcvb_result_note (&r->m, "%d runs within %.0f s", runs, budget);
      continue;
    }
    samples_add (&s, t, a, b, cc);
  }
  samples_to_row (&s, r, TRUE, 0);
  if (ci == CASE_STEREO)
    gcvb_result_note (&r->m, "each render cleans the depth again (no reuse in the cpu API)");
  g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
  print_row_progress (r);
  goto done;
fail:
  gcvb_result_fail (&r->m, "cpu backend: %s", err.message);
done:
  if (ctx)
    gcv_dibr_cpu_free (ctx);
  samples_clear (&s);
  outs_clear (&o);
}

/* ------------------------------------------------------------------------ */
/* CUDA backend */

static void
skip_rows (Row ** rows, int n, const char *why)
{
  for (int i = 0; i < n; i++)
    gcvb_result_skip (&rows[i]->m, "%s", why);
}

#if GCVB_DIBR_CUDA
/* The CUDA rows' planes.  The backend takes device planes and the
 * caller's stream, as the element gives them: the clip's variants in
 * pinned host memory (as from the element's buffer pool), uploaded every
 * frame into the view's device planes; device outputs downloaded into
 * pinned host planes (packed, so that keep_ref reads them as Outs). */
typedef struct {
  int n;
  void **rgba, **depth;         /* [n] pinned, packed */
  GcvPlane d_rgba, d_depth;     /* the view (pitched) */
  GcvPlane d_out[2], d_zout, d_clean;   /* outputs (pitched) */
  Outs host;                    /* pinned, packed */
} CudaPlanes;

static void
cuda_planes_clear (CudaPlanes * cp)
{
  for (int k = 0; k < cp->n && cp->rgba; k++) {
    gcv_cuda_host_free (cp->rgba[k]);
    gcv_cuda_host_free (cp->depth[k]);
  }
  g_free (cp->rgba);
  g_free (cp->depth);
  gcv_cuda_free (cp->d_rgba.data);
  gcv_cuda_free (cp->d_depth.data);
  for (int e = 0; e < 2; e++) {
    gcv_cuda_free (cp->d_out[e].data);
    gcv_cuda_host_free (cp->host.rgba[e].data);
    gcv_cuda_host_free (cp->host.depth[e].data);
  }
  gcv_cuda_free (cp->d_zout.data);
  gcv_cuda_free (cp->d_clean.data);
  gcv_cuda_host_free (cp->host.clean.data);
  memset (cp, 0, sizeof (*cp));
}

static gboolean
dev_plane (GcvPlane * p, int w, int h, int bpp, GcvError * err)
{
  p->width = w;
  p->height = h;
  return gcv_cuda_malloc_2d (&p->data, &p->stride, (size_t) w * bpp, h, err) == GCV_OK;
}

static gboolean
pinned_plane (GcvPlane * p, int w, int h, int bpp, GcvError * err)
{
  p->width = w;
  p->height = h;
  p->stride = (size_t) w * bpp;
  if (gcv_cuda_host_alloc (&p->data, p->stride * h, err) != GCV_OK)
    return FALSE;
  memset (p->data, 0, p->stride * h);
  return TRUE;
}

static gboolean
cuda_planes_init (CudaPlanes * cp, const Clip * clip, GcvError * err)
{
  const int W = clip->width, H = clip->height;

  memset (cp, 0, sizeof (*cp));
  cp->n = clip->n;
  cp->rgba = g_new0 (void *, clip->n);
  cp->depth = g_new0 (void *, clip->n);
  for (int k = 0; k < clip->n; k++) {
    if (gcv_cuda_host_alloc (&cp->rgba[k], (size_t) W * H * 4, err) != GCV_OK
        || gcv_cuda_host_alloc (&cp->depth[k], (size_t) W * H, err) != GCV_OK)
      return FALSE;
    memcpy (cp->rgba[k], clip->rgba[k], (size_t) W * H * 4);
    memcpy (cp->depth[k], clip->depth[k], (size_t) W * H);
  }
  if (!dev_plane (&cp->d_rgba, W, H, 4, err) || !dev_plane (&cp->d_depth, W, H, 1, err)
      || !dev_plane (&cp->d_zout, W, H, 4, err) || !dev_plane (&cp->d_clean, W, H, 4, err)
      || !pinned_plane (&cp->host.clean, W, H, 4, err))
    return FALSE;
  for (int e = 0; e < 2; e++)
    if (!dev_plane (&cp->d_out[e], W, H, 4, err) || !pinned_plane (&cp->host.rgba[e], W, H, 4, err)
        || !pinned_plane (&cp->host.depth[e], W, H, 4, err))
      return FALSE;
  return TRUE;
}

/* The view on the device (its planes hold the variant last uploaded). */
static GcvDibrView
cuda_view (const CudaPlanes * cp, const Clip * clip)
{
  GcvDibrView v = clip_view (clip, 0);

  v.rgba = cp->d_rgba;
  v.depth = cp->d_depth;
  return v;
}

/* Queues the upload of variant k into the view's device planes and the
 * set of view 0 (a view of the clip's size: no wait needed after the
 * first set). */
static gboolean
cuda_set_variant (GcvDibrCuda * ctx, CudaPlanes * cp, const Clip * clip, int k, void *stream, GcvError * err)
{
  GcvDibrView v = cuda_view (cp, clip);
  const int W = clip->width, H = clip->height;

  k %= cp->n;
  return gcv_cuda_upload_2d (cp->d_rgba.data, cp->d_rgba.stride, cp->rgba[k], (size_t) W * 4, (size_t) W * 4, H,
      stream, err) == GCV_OK
      && gcv_cuda_upload_2d (cp->d_depth.data, cp->d_depth.stride, cp->depth[k], (size_t) W, (size_t) W, H, stream,
      err) == GCV_OK && gcv_dibr_cuda_set_view (ctx, 0, &v, stream, err) == GCV_OK;
}

/* Queues the download of a device plane into a packed pinned one. */
static gboolean
cuda_download (const GcvPlane * dev, const GcvPlane * host, int bpp, void *stream, GcvError * err)
{
  return gcv_cuda_download_2d (host->data, host->stride, dev->data, dev->stride, (size_t) dev->width * bpp,
      dev->height, stream, err) == GCV_OK;
}
#endif

static void
bench_cuda (int ci, const Clip * clip)
{
  Row *rows[3];
  int n_rows = 0;

  rows[n_rows++] = row_new (ROW_CUDA_KERNELS, ci, NULL, 0);
  rows[n_rows++] = row_new (ci == CASE_PAPER ? ROW_CUDA_CLEAN : ROW_CUDA_STEREO, ci, NULL, 0);
  if (ci == CASE_STEREO)
    rows[n_rows++] = row_new (ROW_CUDA_WALL, ci, NULL, 0);
  if (!host.cuda.available) {
    skip_rows (rows, n_rows, host.cuda.why[0] ? host.cuda.why : "no CUDA device");
    return;
  }
#if GCVB_DIBR_CUDA
  {
    const Case *c = &cases[ci];
    int warmup = MAX (opt.warmup, 1), runs = opt.runs;
    GcvDibrCamera src, virt[2];
    GcvCudaEvent *e0 = NULL, *e1 = NULL;
    GcvDibrCuda *ctx = NULL;
    void *stream = NULL;
    GcvError err = { 0 };
    Samples sk, s1, sw;
    CudaPlanes cp;
    GcvDibrView view;
    Outs *o = &cp.host;
    double wall0 = 0;

    case_cameras (ci, &src, virt);
    memset (&cp, 0, sizeof (cp));
    samples_init (&sk, runs);
    samples_init (&s1, runs);
    samples_init (&sw, runs);
    if (gcv_cuda_set_device (opt.device, &err) != GCV_OK || gcv_cuda_stream_new (&stream, &err) != GCV_OK
        || gcv_cuda_event_new (&e0, &err) != GCV_OK || gcv_cuda_event_new (&e1, &err) != GCV_OK
        || !cuda_planes_init (&cp, clip, &err))
      goto fail;
    ctx = gcv_dibr_cuda_new (c->width, c->height, &err);
    if (ctx == NULL)
      goto fail;
    view = cuda_view (&cp, clip);
    /* (a) kernels: each render waited for alone, its GcvDibrTimes read */
    for (int i = 0; i < warmup + runs; i++) {
      GcvDibrTimes tm[2];
      float ms = 0;
      if (!cuda_set_variant (ctx, &cp, clip, i, stream, &err))
        goto fail;
      if (ci == CASE_PAPER) {
        /* clean_depth between events (DCBF + the download of the float
         * plane); the view set again (so that no cleaned depth can be
         * reused), the DCBF render (its clean stage: kernels only); then
         * the propagation render (median and DCBF off) */
        if (gcv_cuda_event_record (e0, stream, &err) != GCV_OK
            || gcv_dibr_cuda_clean_depth (ctx, &c->p, 0, &cp.d_clean, stream, &err) != GCV_OK
            || !cuda_download (&cp.d_clean, &o->clean, 4, stream, &err)
            || gcv_cuda_event_record (e1, stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK
            || gcv_cuda_event_elapsed (e0, e1, &ms, &err) != GCV_OK
            || gcv_dibr_cuda_set_view (ctx, 0, &view, stream, &err) != GCV_OK
            || gcv_dibr_cuda_render (ctx, &c->p, 1, &virt[0], &cp.d_out[1], NULL, NULL, stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK
            || gcv_dibr_cuda_times (ctx, &tm[0], &err) != GCV_OK
            || gcv_dibr_cuda_render (ctx, &c->p_prop, 1, &virt[0], &cp.d_out[0], &cp.d_zout, NULL, stream,
                &err) != GCV_OK
            || !cuda_download (&cp.d_out[0], &o->rgba[0], 4, stream, &err)
            || !cuda_download (&cp.d_zout, &o->depth[0], 4, stream, &err)
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK
            || gcv_dibr_cuda_times (ctx, &tm[1], &err) != GCV_OK)
          goto fail;
        if (i == 0)
          keep_ref (ci, 1, o);
        if (i >= warmup) {
          samples_add (&sk, tm[0].clean_ms, tm[0].clean_ms, tm[1].warp_ms, NAN);
          samples_add (&s1, ms, NAN, NAN, NAN);
        }
      } else {
        for (int e = 0; e < 2; e++)
          if (gcv_dibr_cuda_render (ctx, &c->p, 1, &virt[e], &cp.d_out[e], NULL, NULL, stream, &err) != GCV_OK
              || gcv_cuda_stream_sync (stream, &err) != GCV_OK
              || gcv_dibr_cuda_times (ctx, &tm[e], &err) != GCV_OK)
            goto fail;
        if (i >= warmup)
          samples_add (&sk, tm[0].clean_ms + tm[0].warp_ms + tm[0].fill_ms + tm[1].clean_ms + tm[1].warp_ms
              + tm[1].fill_ms, tm[0].clean_ms + tm[1].clean_ms, tm[0].warp_ms + tm[1].warp_ms,
              tm[0].fill_ms + tm[1].fill_ms);
      }
    }
    samples_to_row (&sk, rows[0], TRUE, 0);
    if (ci == CASE_PAPER) {
      samples_to_row (&s1, rows[1], FALSE, 0);
      gcvb_result_note (&rows[0]->m, "dcbf: clean stage events of a render (median off); prop: warp stage events "
          "of a render with median and DCBF off");
      gcvb_result_note (&rows[1]->m, "events around gcv_dibr_cuda_clean_depth: DCBF + download of %.2f MB float "
          "(pinned)", c->width * (double) c->height * 4 / 1e6);
    } else {
      gcvb_result_note (&rows[0]->m, "sum of both eyes' stage events, each render waited for alone (the second reuses the cleaned depth)");
      /* (b) the stereo frame as the element runs it: upload, two renders,
       * downloads, one wait */
      for (int i = 0; i < warmup + runs; i++) {
        float ms = 0;
        double t0 = gcvb_now_ms (), t;
        if (i == warmup)
          wall0 = t0;
        if (gcv_cuda_event_record (e0, stream, &err) != GCV_OK
            || !cuda_set_variant (ctx, &cp, clip, i, stream, &err)
            || gcv_dibr_cuda_render (ctx, &c->p, 1, &virt[0], &cp.d_out[0], NULL, NULL, stream, &err) != GCV_OK
            || gcv_dibr_cuda_render (ctx, &c->p, 1, &virt[1], &cp.d_out[1], NULL, NULL, stream, &err) != GCV_OK
            || !cuda_download (&cp.d_out[0], &o->rgba[0], 4, stream, &err)
            || !cuda_download (&cp.d_out[1], &o->rgba[1], 4, stream, &err)
            || gcv_cuda_event_record (e1, stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
          goto fail;
        t = gcvb_now_ms () - t0;
        if (gcv_cuda_event_elapsed (e0, e1, &ms, &err) != GCV_OK)
          goto fail;
        if (i == 0)
          keep_ref (ci, 1, o);
        if (i >= warmup) {
          samples_add (&s1, ms, NAN, NAN, NAN);
          samples_add (&sw, t, NAN, NAN, NAN);
        }
      }
      samples_to_row (&s1, rows[1], FALSE, 0);
      samples_to_row (&sw, rows[2], FALSE, gcvb_now_ms () - wall0);
      gcvb_result_note (&rows[1]->m, "events: upload of colour + depth from pinned memory (%.1f MB), both renders "
          "queued, RGBA downloads into pinned memory (%.1f MB)", c->width * (double) c->height * 5 / 1e6,
          c->width * (double) c->height * 8 / 1e6);
      gcvb_result_note (&rows[2]->m, "host clock, upload call to the stream's wait returned; back-to-back mean "
          "%.4f ms", rows[2]->m.mean_ms);
    }
    for (int i = 0; i < n_rows; i++) {
      g_strlcpy (rows[i]->m.backend, "cuda", sizeof (rows[i]->m.backend));
      print_row_progress (rows[i]);
    }
    rows[0]->m.compute_ms = rows[0]->m.ms;
    goto done;
  fail:
    gcvb_result_fail (&rows[0]->m, "%s", err.message);
    skip_rows (rows + 1, n_rows - 1, "see the cuda kernels row");
  done:
    /* nothing may be queued on what goes now */
    if (stream)
      gcv_cuda_stream_sync (stream, &err);
    if (ctx)
      gcv_dibr_cuda_free (ctx);
    cuda_planes_clear (&cp);
    gcv_cuda_event_free (e0);
    gcv_cuda_event_free (e1);
    if (stream)
      gcv_cuda_stream_free (stream);
    samples_clear (&sk);
    samples_clear (&s1);
    samples_clear (&sw);
  }
#elif GCVB_CUDA
  (void) clip;
  skip_rows (rows, n_rows, "kernels/dibr.cu not in this build (reconfigure once it is)");
#else
  (void) clip;
  skip_rows (rows, n_rows, "built without CUDA");
#endif
}

static gint64
count_diff (const GcvPlane * a, const GcvPlane * b, int bpp, int sample)
{
  gint64 n = 0;
  size_t len = (size_t) a->width * a->height * bpp;
  const guint8 *pa = a->data, *pb = b->data;

  for (size_t i = 0; i < len; i += sample)
    n += memcmp (pa + i, pb + i, sample) != 0;
  return n;
}

/* CUDA's first variant against the CPU's (all threads), 0 by contract */
static void
check_case (int ci)
{
  Row *rk = NULL;

  for (guint i = 0; i < rows_arr->len; i++) {
    Row *r = &g_array_index (rows_arr, Row, i);
    if (r->kind == ROW_CUDA_KERNELS && r->case_i == ci)
      rk = r;
  }
  if (rk == NULL || rk->m.skipped || gcvb_skipped (&opt, "check"))
    return;
  if (!have_ref[ci][0] || !have_ref[ci][1]) {
    gcvb_result_note (&rk->m, "no check (no cpu all-threads row)");
    return;
  }
  {
    const Outs *a = &ref_out[ci][0], *b = &ref_out[ci][1];
    gint64 d_clean = 0, d_rgba = 0, d_depth = 0;
    if (ci == CASE_PAPER) {
      d_clean = count_diff (&a->clean, &b->clean, 4, 4);
      d_rgba = count_diff (&a->rgba[0], &b->rgba[0], 4, 1);
      d_depth = count_diff (&a->depth[0], &b->depth[0], 4, 4);
    } else {
      d_rgba = count_diff (&a->rgba[0], &b->rgba[0], 4, 1) + count_diff (&a->rgba[1], &b->rgba[1], 4, 1);
    }
    rk->m.mismatch = d_clean + d_rgba + d_depth;
    if (rk->m.mismatch > 0) {
      gcvb_result_note (&rk->m, "DIFFERS from the cpu backend (first frame): %" G_GINT64_FORMAT " cleaned depths, %"
          G_GINT64_FORMAT " RGBA samples, %" G_GINT64_FORMAT " depths", d_clean, d_rgba, d_depth);
      gcvb_n_failures++;
    } else if (ci == CASE_PAPER) {
      gcvb_result_note (&rk->m, "identical bytes to the cpu backend (first frame: DCBF plane, propagation "
          "render's colour and depth)");
    } else {
      gcvb_result_note (&rk->m, "identical bytes to the cpu backend (first frame: both eyes' RGBA)");
    }
  }
}

/* the paper's rows, quoted */
static void
paper_rows (void)
{
  Row *r = row_new (ROW_PAPER, CASE_PAPER, "cpu", 1);

  r->m.ms = r->clean_ms = PAPER_CPU_DCBF_MS;
  r->warp_ms = PAPER_CPU_PROP_MS;
  r->m.fps = 1000.0 / r->m.ms;
  g_strlcpy (r->m.backend, "paper", sizeof (r->m.backend));
  gcvb_result_note (&r->m, "quoted: %s", PAPER_CPU);
  r = row_new (ROW_PAPER, CASE_PAPER, "gpu", 0);
  r->m.ms = r->clean_ms = PAPER_GPU_DCBF_MS;
  r->warp_ms = PAPER_GPU_PROP_MS;
  r->m.fps = 1000.0 / r->m.ms;
  g_strlcpy (r->m.backend, "paper", sizeof (r->m.backend));
  gcvb_result_note (&r->m, "quoted: %s (speed-ups 74.4x DCBF, 1.6x propagation)", PAPER_GPU);
}

/* ------------------------------------------------------------------------ */
/* limits */

typedef struct {
  gboolean have;
  double fp32_ops;              /* DCBF: 4 a neighbour, K^2 a pixel, all DCBF passes of a frame */
  double bytes;                 /* the least device memory traffic of a frame's kernels */
  double kernels_ms;            /* the cuda kernels row (paper: the DCBF) */
  const char *bytes_what;
} Limit;

static Limit limits[N_CASES];

/* FP32 lanes x SMs x boost clock (Hopper: 128 FP32 lanes an SM; without
 * FMA one op a lane and cycle); 0 when the GPU is not known. */
static double
device_fp32_peak (char *what, size_t len)
{
  int sms;
  double ghz;

  if (!gcvb_device_clock (&host, &sms, &ghz))
    return 0;
  g_snprintf (what, len, "%d SMs x %.3f GHz (datasheet boost) x 128 FP32 lanes = %.1f T FP32 ops/s (no FMA)", sms,
      ghz, sms * ghz * 128e9 / 1e12);
  return sms * ghz * 128e9;
}

static void
limits_case (int ci)
{
  const Case *c = &cases[ci];
  Limit *l = &limits[ci];
  double px = (double) c->width * c->height, k2 = (double) c->p.dcbf_size * c->p.dcbf_size;

  l->have = TRUE;
  if (ci == CASE_PAPER) {
    /* the DCBF alone: colour (4) and the decoded depth (4) read once,
     * the float plane written once */
    l->fp32_ops = 4.0 * k2 * px;
    l->bytes = px * (4 + 4 + 4);
    l->bytes_what = "DCBF: RGBA and depth read once, float out";
  } else {
    /* stage 1 once (the second eye reuses it): RGBA 4 + depth 1 read, the
     * median's float 4 written and read, the DCBF's 4 written; per eye:
     * warp reads the cleaned plane 4 and the z-buffer 8 (atomic) + crack
     * filling 8 read 8 written; fill 8 read 8 written; gather 8 key + 4
     * colour read, RGBA 4 written */
    l->fp32_ops = 4.0 * k2 * px;
    l->bytes = px * (4 + 1 + 4 + 4 + 4) + 2 * px * (4 + 8 + 16 + 16 + 16);
    l->bytes_what = "stage 1 once (17 B/px), per eye warp + cracks + fill + gather (60 B/px)";
  }
  l->kernels_ms = NAN;
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->kind == ROW_CUDA_KERNELS && r->case_i == ci && !r->m.skipped)
      l->kernels_ms = r->m.ms;
  }
}

static void
print_limits (void)
{
  char what[160] = "";
  double peak = device_fp32_peak (what, sizeof (what)), gbps = host.cuda.copy_gbps;

  g_print ("\n== Limits: DCBF FP32 work and least memory traffic of one frame ==\n");
  if (host.cuda.available)
    g_print ("device: %s; %.0f GB/s measured D2D copy; %s\n", host.cuda.name, gbps,
        peak > 0 ? what : "no FP32 peak assumed (known: H100, H200)");
  else
    g_print ("(no GPU: the limits' times need the device's figures)\n");
  g_print ("%-6s %10s %10s %11s %11s %11s %8s %8s  %s\n", "case", "G fp32", "MB/frame", "kernels ms", "fp32 ms",
      "mem ms", "% fp32", "% mem", "bytes counted");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Limit *l = &limits[ci];
    char km[32], fm[32], mm[32], pf[32], pm[32];
    double mem_ms = host.cuda.available && gbps > 0 ? l->bytes / (gbps * 1e9) * 1e3 : NAN;
    double fp_ms = peak > 0 ? l->fp32_ops / peak * 1e3 : NAN;
    if (!l->have)
      continue;
    gcvb_fmt_num (km, sizeof (km), l->kernels_ms, "%.4f");
    gcvb_fmt_num (fm, sizeof (fm), fp_ms, "%.4f");
    gcvb_fmt_num (mm, sizeof (mm), mem_ms, "%.4f");
    gcvb_fmt_num (pf, sizeof (pf), 100 * fp_ms / l->kernels_ms, "%.1f");
    gcvb_fmt_num (pm, sizeof (pm), 100 * mem_ms / l->kernels_ms, "%.1f");
    g_print ("%-6s %10.3f %10.2f %11s %11s %11s %8s %8s  %s\n", cases[ci].name, l->fp32_ops / 1e9, l->bytes / 1e6,
        km, fm, mm, pf, pm, l->bytes_what);
  }
  g_print ("fp32: 4 ops a DCBF neighbour (w = Gs Gc, w d, num +, den +; the contract forbids FMA), K^2 neighbours a "
      "pixel; the L1 colour distance\n(integer) and the two table lookups come on top.  kernels ms: paper, the DCBF "
      "kernel alone; stereo, both eyes' stages.\n%% fp32, %% mem: the limit's time / the kernels' median (100 = at "
      "the limit).\n");
}

/* ------------------------------------------------------------------------ */
/* tables */

static const Row *
find_row (int ci, RowKind kind, int threads_one)
{
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->case_i == ci && r->kind == kind && !r->m.skipped && (r->m.threads == 1) == threads_one)
      return r;
  }
  return NULL;
}

static void
speedups (int ci)
{
  const Row *c1 = find_row (ci, ROW_CPU, TRUE), *ca = find_row (ci, ROW_CPU, FALSE);

  for (guint i = 0; i < rows_arr->len; i++) {
    Row *r = &g_array_index (rows_arr, Row, i);
    if (r->case_i != ci || r->m.skipped || r->kind == ROW_PAPER)
      continue;
    r->x_cpu1 = c1 ? c1->m.ms / r->m.ms : NAN;
    r->x_cpu = ca ? ca->m.ms / r->m.ms : NAN;
    if (ci == CASE_PAPER) {
      r->x_cpu1_prop = c1 ? c1->warp_ms / r->warp_ms : NAN;
      r->x_cpu_prop = ca ? ca->warp_ms / r->warp_ms : NAN;
    }
  }
}

static void
print_case (int ci, const Clip * clip_info)
{
  const Case *c = &cases[ci];
  char pd[256];
  gboolean paper = ci == CASE_PAPER;

  describe_params (pd, sizeof (pd), &c->p);
  g_print ("\n== %s: %s, %dx%d ==\n%s\n", c->name, c->title, c->width, c->height, pd);
  if (paper)
    g_print ("%-16s %-5s %4s %10s %10s %8s %8s %8s %8s %8s %s\n", "implementation", "", "thr", "DCBF ms", "prop ms",
        "fps", "x cpu1", "x cpu", "prop x1", "prop x", "notes");
  else
    g_print ("%-16s %-5s %4s %9s %9s %9s %10s %8s %8s %8s %8s %s\n", "implementation", "", "thr", "clean", "warp",
        "fill", "ms/frame", "fps", "x cpu1", "x cpu", "mismatch", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (int kind = 0; kind < N_ROW_KINDS; kind++)
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      char thr[8], a[32], b[32], cc[32], ms[32], fps[32], x1[32], xa[32], p1[32], pa[32], mm[32];
      if (r->case_i != ci || (int) r->kind != kind)
        continue;
      if (r->m.threads > 0)
        g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
      else
        g_strlcpy (thr, "-", sizeof (thr));
      if (r->m.skipped) {
        g_print ("%-16s %-5s %4s %10s %s%s\n", row_kind_names[kind], r->what, thr, r->m.failed ? "FAILED" : "-",
            r->m.failed ? "" : "skipped: ", r->m.note);
        continue;
      }
      gcvb_fmt_num (a, sizeof (a), r->clean_ms, "%.3f");
      gcvb_fmt_num (b, sizeof (b), r->warp_ms, "%.3f");
      gcvb_fmt_num (cc, sizeof (cc), r->fill_ms, "%.3f");
      gcvb_fmt_num (ms, sizeof (ms), r->m.ms, "%.3f");
      gcvb_fmt_num (fps, sizeof (fps), r->m.fps, "%.1f");
      gcvb_fmt_num (x1, sizeof (x1), r->x_cpu1, "%.1f");
      gcvb_fmt_num (xa, sizeof (xa), r->x_cpu, "%.1f");
      gcvb_fmt_num (p1, sizeof (p1), r->x_cpu1_prop, "%.1f");
      gcvb_fmt_num (pa, sizeof (pa), r->x_cpu_prop, "%.1f");
      if (r->m.mismatch >= 0)
        g_snprintf (mm, sizeof (mm), "%" G_GINT64_FORMAT, r->m.mismatch);
      else
        g_strlcpy (mm, "-", sizeof (mm));
      if (paper) {
        /* the clean_depth row has the DCBF figure only */
        if (r->kind == ROW_CUDA_CLEAN)
          g_strlcpy (a, ms, sizeof (a));
        g_print ("%-16s %-5s %4s %10s %10s %8s %8s %8s %8s %8s ", row_kind_names[kind], r->what, thr, a, b, fps, x1, xa,
            p1, pa);
      } else {
        g_print ("%-16s %-5s %4s %9s %9s %9s %10s %8s %8s %8s %8s ", row_kind_names[kind], r->what, thr, a, b, cc, ms,
            fps, x1, xa, mm);
      }
      if (r->kind != ROW_PAPER)
        g_print ("%" G_GUINT64_FORMAT " runs", r->m.count);
      if (paper && r->m.mismatch >= 0)
        g_print ("; mismatch %" G_GINT64_FORMAT, r->m.mismatch);
      g_print ("%s%s\n", r->kind != ROW_PAPER && r->m.note[0] ? "; " : "", r->m.note);
    }
  if (paper) {
    g_print ("DCBF: stage 1 with the median off, DCBF %dx%d (cuda kernels: the clean stage's events of a render; "
        "cpu: gcv_dibr_cpu_clean_depth);\nprop: the warp stage (z-buffer by 64-bit atomic min + crack filling) of "
        "a render with median and DCBF off (raw depth, %.1f%% unknown);\nfps and x: of the DCBF; prop x: of the "
        "propagation.  %s\n", c->p.dcbf_size, c->p.dcbf_size, 100 * clip_info->holes, PAPER_WHAT);
  } else {
    g_print ("clean / warp / fill: medians of both eyes' stages summed (cuda: events of renders waited for one by "
        "one; cpu: wall);\nms/frame: the whole stereo frame (cuda stereo: upload .. both renders' downloads, events; "
        "cuda wall: host clock; cpu: both renders);\nmismatch: RGBA samples of the two eyes differing from the cpu "
        "backend on the first frame (0 expected).  Inputs %.1f%% unknown depth.\n", 100 * clip_info->holes);
  }
  g_print ("target (issue 8, H100): <= %g ms %s\n", c->target_ms, paper ? "the DCBF" : "a stereo frame");
}

/* ------------------------------------------------------------------------ */
/* JSON */

static GString *
results_json (void)
{
  char what[160] = "";
  double peak = device_fp32_peak (what, sizeof (what));
  GString *s = gcvb_json_begin (&host, "dibr", TRUE, NULL, NULL);

  g_string_append_printf (s, "  \"config\": {\"gpu_runs\": %d, \"warmup\": %d, \"cpu_max_runs\": %d, "
      "\"cpu_budget_s\": ", opt.runs, MAX (opt.warmup, 1), cpu_max_runs ());
  gcvb_json_num (s, cpu_budget_s ());
  g_string_append_printf (s, ", \"cpu_threads\": %d, \"variants\": %d, \"device\": %d, \"quick\": %s, "
      "\"dibr_cuda_built\": %s, \"fp32_peak_ops\": ", gcvb_cpu_threads (opt_cpu_threads), opt.variants, opt.device,
      opt.quick ? "true" : "false", GCVB_DIBR_CUDA ? "true" : "false");
  gcvb_json_num (s, peak > 0 ? peak : NAN);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "fp32_peak_assumed"), gcvb_json_str (s, what);
  g_string_append (s, "},\n  \"paper\": {\"cpu_prop_ms\": ");
  gcvb_json_num (s, PAPER_CPU_PROP_MS);
  g_string_append (s, ", \"cpu_dcbf_ms\": "), gcvb_json_num (s, PAPER_CPU_DCBF_MS);
  g_string_append (s, ", \"gpu_prop_ms\": "), gcvb_json_num (s, PAPER_GPU_PROP_MS);
  g_string_append (s, ", \"gpu_dcbf_ms\": "), gcvb_json_num (s, PAPER_GPU_DCBF_MS);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "what"), gcvb_json_str (s, PAPER_WHAT);
  g_string_append (s, "},\n  \"cases\": [\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    const Limit *l = &limits[ci];
    g_string_append_printf (s, "    {\"name\": \"%s\", \"ran\": %s, \"width\": %d, \"height\": %d, \"params\": ",
        c->name, case_ran[ci] ? "true" : "false", c->width, c->height);
    json_params (s, &c->p);
    if (ci == CASE_PAPER) {
      g_string_append (s, ", \"params_propagation\": ");
      json_params (s, &c->p_prop);
    }
    g_string_append (s, ", \"target_ms\": "), gcvb_json_num (s, c->target_ms);
    g_string_append (s, ", \"limits\": ");
    if (l->have) {
      double mem_ms = host.cuda.available && host.cuda.copy_gbps > 0 ? l->bytes / (host.cuda.copy_gbps * 1e9) * 1e3 :
          NAN;
      g_string_append (s, "{\"dcbf_fp32_ops\": "), gcvb_json_num (s, l->fp32_ops);
      g_string_append (s, ", \"bytes\": "), gcvb_json_num (s, l->bytes);
      g_string_append (s, ", "), GCVB_JKEY (s, "bytes_counted"), gcvb_json_str (s, l->bytes_what);
      g_string_append (s, ", \"fp32_limit_ms\": "), gcvb_json_num (s, peak > 0 ? l->fp32_ops / peak * 1e3 : NAN);
      g_string_append (s, ", \"mem_limit_ms\": "), gcvb_json_num (s, mem_ms);
      g_string_append (s, ", \"cuda_kernels_ms\": "), gcvb_json_num (s, l->kernels_ms);
      g_string_append (s, "}");
    } else {
      g_string_append (s, "null");
    }
    g_string_append_printf (s, "}%s\n", ci + 1 == N_CASES ? "" : ",");
  }
  g_string_append (s, "  ],\n  \"results\": [\n");
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    GString *extra = g_string_new (NULL);
    gboolean paper = r->case_i == CASE_PAPER;
    g_string_append (s, "    {");
    GCVB_JKEY (s, "case"), gcvb_json_str (s, cases[r->case_i].name);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "kind"), gcvb_json_str (s, row_kind_names[r->kind]);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "what"), gcvb_json_str (s, r->what);
    g_string_append_printf (s, ", \"width\": %d, \"height\": %d", cases[r->case_i].width, cases[r->case_i].height);
    gcvb_json_measurement (s, &r->m);
    g_string_append_printf (extra, ", \"units\": \"%s\"", paper ? "ms_per_frame: DCBF ms per frame" :
        "ms_per_frame: stereo frame (two renders)");
    g_string_append (extra, paper ? ", \"dcbf_ms\": " : ", \"clean_ms\": "), gcvb_json_num (extra, r->kind ==
        ROW_CUDA_CLEAN ? r->m.ms : r->clean_ms);
    g_string_append (extra, paper ? ", \"propagation_ms\": " : ", \"warp_ms\": "), gcvb_json_num (extra, r->warp_ms);
    if (!paper)
      g_string_append (extra, ", \"fill_ms\": "), gcvb_json_num (extra, r->fill_ms);
    g_string_append (extra, ", \"speedup_over_cpu_1_thread\": "), gcvb_json_num (extra, r->x_cpu1);
    g_string_append (extra, ", \"speedup_over_cpu_all_threads\": "), gcvb_json_num (extra, r->x_cpu);
    if (paper) {
      g_string_append (extra, ", \"propagation_speedup_over_cpu_1_thread\": "), gcvb_json_num (extra,
          r->x_cpu1_prop);
      g_string_append (extra, ", \"propagation_speedup_over_cpu_all_threads\": "), gcvb_json_num (extra,
          r->x_cpu_prop);
    }
    gcvb_json_row_end (s, &r->m, "mismatch_samples", extra->str, i + 1 == rows_arr->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ],\n  \"elements\": [\n");
  for (int i = 0, first = 1; i < N_ELEMENT_ROWS; i++) {
    if (!element_ran[i])
      continue;
    g_string_append (s, first ? "    {" : ",\n    {");
    GCVB_JKEY (s, "element"), gcvb_json_str (s, element_rows[i].impl);
    g_string_append (s, i == 2 ? ", \"case\": \"stereo\", \"input\": \"RGBA 3840x1080 side-by-side, pinned buffers\""
        : ", \"case\": \"stereo\", \"input\": \"RGBA 3840x1080 side-by-side\"");
    g_string_append (s, ", \"output\": \"stereo-side-by-side symmetric\"");
    gcvb_json_measurement (s, &element_rows[i]);
    g_string_append (s, "}");
    first = 0;
  }
  g_string_append (s, "\n  ]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */
/* elements: cudadibr / cpudibr end to end */

/* appsrc (RGBA, colour | depth side by side, 2W x H) ! element
 * (output=stereo-side-by-side symmetric=true: both eyes synthesized, the
 * stereo case's cameras and clean-up) ! fakesink; wall clock per frame
 * and the element's stats, GRAY8-free: the frames are the stereo clip's
 * variants with the depth as grey RGBA. */
static void
bench_element (const Clip * clip, int which)
{
  const char *factory = which == 1 ? "cpudibr" : "cudadibr";
  const gboolean pinned = which == 2;
  const Case *c = &cases[CASE_STEREO];
  GcvbResult *r = &element_rows[which];
  int W = clip->width, H = clip->height;
  size_t stride = (size_t) W * 8;
  guint8 **frames = g_new0 (guint8 *, clip->n);
  GcvbFrameSet fs;
  GcvbPipeline *pl;
  GstElement *e;
  GstCaps *caps;
  char buf[64];

  gcvb_result_init (r, pinned ? "cudadibr pinned" : factory, "elements %s%s", factory, pinned ? " pinned" : "");
  element_ran[which] = TRUE;
  if (!gcvb_have_factory (factory)) {
    gcvb_result_skip (r, "element %s not found", factory);
    g_free (frames);
    return;
  }
  if (which != 1 && !host.cuda.available) {
    gcvb_result_skip (r, "%s", host.cuda.why);
    g_free (frames);
    return;
  }
  for (int k = 0; k < clip->n; k++) {
    guint8 *f;
#if GCVB_CUDA
    if (pinned) {
      GcvError err;
      void *m = NULL;
      if (gcv_cuda_host_alloc (&m, stride * H, &err) != GCV_OK) {
        gcvb_result_skip (r, "pinned frames: %s", err.message);
        while (k-- > 0)
          gcv_cuda_host_free (frames[k]);
        g_free (frames);
        return;
      }
      frames[k] = m;
    } else
#endif
      frames[k] = g_malloc (stride * H);
    f = frames[k];
    for (int y = 0; y < H; y++) {
      memcpy (f + stride * y, clip->rgba[k] + (size_t) W * 4 * y, (size_t) W * 4);
      for (int x = 0; x < W; x++) {
        guint8 v = clip->depth[k][(size_t) W * y + x];
        guint8 *px = f + stride * y + (size_t) (W + x) * 4;
        px[0] = px[1] = px[2] = v;
        px[3] = 255;
      }
    }
  }
  memset (&fs, 0, sizeof (fs));
  g_strlcpy (fs.name, "stereo", sizeof (fs.name));
  fs.width = 2 * W;
  fs.height = H;
  fs.channels = 4;
  fs.stride = stride;
  fs.size = stride * H;
  fs.n = clip->n;
  fs.frames = frames;
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "RGBA", "width", G_TYPE_INT, 2 * W,
      "height", G_TYPE_INT, H, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  pl = gcvb_pipeline_new (factory, "dibr", caps, NULL, FALSE, r);
  gst_caps_unref (caps);
  if (pl != NULL) {
    e = gcvb_pipeline_element (pl);
#define SET_NUM(name, fmt, v) (g_snprintf (buf, sizeof (buf), fmt, (v)), gcvb_set_prop (e, name, buf))
    gcvb_set_prop (e, "layout", "side-by-side");
    gcvb_set_prop (e, "output", "stereo-side-by-side");
    gcvb_set_prop (e, "symmetric", "true");
    gcvb_set_prop (e, "zero-is-unknown", c->p.zero_is_unknown ? "true" : "false");
    SET_NUM ("z-near", "%.17g", c->p.z_near);
    SET_NUM ("z-far", "%.17g", c->p.z_far);
    SET_NUM ("focal-length", "%.17g", c->p.focal_length);
    SET_NUM ("baseline", "%.17g", c->p.baseline);
    SET_NUM ("convergence", "%.17g", c->p.convergence);
    SET_NUM ("median-size", "%d", c->p.median_size);
    SET_NUM ("dcbf-size", "%d", c->p.dcbf_size);
    SET_NUM ("sigma-spatial", "%.17g", c->p.sigma_spatial);
    SET_NUM ("sigma-color", "%.17g", c->p.sigma_color);
    if (which != 1) {
      SET_NUM ("cuda-device-id", "%d", opt.device);
      gcvb_set_prop (e, "fallback", "false");
    } else {
      gcvb_set_prop (e, "n-threads", "0");
    }
#undef SET_NUM
    if (gcvb_pipeline_time (pl, &fs, which != 1 ? MAX (opt.warmup, 1) : 1, which != 1 ? 100 : 5, 2, TRUE, r))
      gcvb_element_row_done (r, which != 1);
    gcvb_pipeline_free (pl);
  }
  for (int k = 0; k < clip->n; k++) {
#if GCVB_CUDA
    if (pinned) {
      gcv_cuda_host_free (frames[k]);
      continue;
    }
#endif
    g_free (frames[k]);
  }
  g_free (frames);
}

static void
print_elements (void)
{
  if (!element_ran[0] && !element_ran[1] && !element_ran[2])
    return;
  g_print ("\n== elements: appsrc (RGBA colour | depth, 3840x1080; application buffers, or pinned as from the "
      "element's pool) ! element output=stereo-side-by-side symmetric=true ! fakesink, wall clock ==\n");
  g_print ("%-16s %4s %10s %9s %8s %8s %8s %8s %-7s %s\n", "element", "thr", "ms/frame", "fps", "upload",
      "compute", "download", "total", "backend", "notes");
  g_print ("----------------------------------------------------------------------------------------------------"
      "------------------\n");
  for (int i = 0; i < N_ELEMENT_ROWS; i++) {
    const GcvbResult *r = &element_rows[i];
    GcvbCells cells;
    if (!element_ran[i])
      continue;
    if (r->skipped) {
      g_print ("%-16s %4s %10s %9s %8s %8s %8s %8s %-7s %s%s\n", r->impl, "-", r->failed ? "FAILED" : "-", "-",
          "-", "-", "-", "-", "-", r->failed ? "" : "skipped: ", r->note);
      continue;
    }
    gcvb_format_cells (r, "%.3f", &cells);
    g_print ("%-16s %4s %10s %9s %8s %8s %8s %8s %-7s %s\n", r->impl, i == 1 ? "all" : "-", cells.ms, cells.fps,
        cells.up, cells.comp, cells.down, cells.tot, r->backend, r->note);
  }
  g_print ("stats: the element's (upload / compute / download ms a frame); target (issue 8, H100): <= %.0f ms a "
      "stereo frame\n", TARGET_STEREO_MS);
}

/* ------------------------------------------------------------------------ */
/* main */

static gboolean
case_on (const GPtrArray * list, const char *name)
{
  for (guint i = 0; i < list->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (list, i), name) == 0)
      return TRUE;
  return FALSE;
}

int
main (int argc, char **argv)
{
  static const char *const known[] = { "paper", "stereo", "elements" };
  GPtrArray *list;
  Clip clips[N_CASES];
  int status;

  if (!gcvb_init (&argc, &argv, "- benchmark the DIBR backends (the paper's Table 5: DCBF 11x11 and depth "
          "propagation at 800x600; a 1080p 2D+Z stereo render)", entries, &opt, &quick))
    return 2;
  list = gcvb_split_list (opt_cases, "paper,stereo,elements");
  for (guint i = 0; i < list->len; i++) {
    gboolean ok = FALSE;
    for (guint k = 0; k < G_N_ELEMENTS (known); k++)
      ok |= g_ascii_strcasecmp (g_ptr_array_index (list, i), known[k]) == 0;
    if (!ok) {
      g_printerr ("error: unknown case '%s' (paper, stereo, elements)\n",
          (const char *) g_ptr_array_index (list, i));
      return 2;
    }
  }
  if (opt_cpu_threads < 0 || opt.variants < 4 || opt.variants > 64 || opt.runs < 1) {
    g_printerr ("error: --cpu-threads must be >= 0, --variants 4 .. 64, --runs >= 1\n");
    return 2;
  }
  /* the ray caster's photos: tests/data (--data-dir) is data/ of
   * GCV_TEST_DATA_DIR */
  if (opt.data_dir != NULL) {
    gchar *parent = g_path_get_dirname (opt.data_dir);
    g_setenv ("GCV_TEST_DATA_DIR", parent, TRUE);
    g_free (parent);
  }
  cases_init ();
  for (int ci = 0; ci < N_CASES; ci++) {
    const char *bad = gcv_dibr_params_check (&cases[ci].p);
    if (bad == NULL)
      bad = gcv_dibr_params_check (&cases[ci].p_prop);
    if (bad != NULL) {
      g_printerr ("error: case %s: %s\n", cases[ci].name, bad);
      return 1;
    }
  }
  rows_arr = g_array_sized_new (FALSE, FALSE, sizeof (Row), MAX_ROWS);
  gcvb_host_init (&host, "bench-dibr", &opt, case_on (list, "elements"), "cpudibr", TRUE);

  gcvb_print_host (&host, opt.device, "cuda backend rows");
  if (host.cuda.available && !GCVB_DIBR_CUDA)
    g_print ("note:       kernels/dibr.cu is not in this build: the cuda rows are skipped\n");
  g_print ("Timing:     GPU %d frames after %d warm-up (medians); CPU at most %d runs within %.0f s a row; CPU "
      "%d threads and 1%s\n", opt.runs, MAX (opt.warmup, 1), cpu_max_runs (), cpu_budget_s (), gcvb_cpu_threads (opt_cpu_threads),
      opt.quick ? " [--quick: rough numbers]" : "");
  if (dibr_scene_standard (&scene) != 0) {
    g_printerr ("error: the standard scene's photos could not be loaded (--data-dir DIR/tests/data)\n");
    return 1;
  }
  g_print ("Frames:     %d variants: the standard scene of tests/dibr_scene.h ray-cast (float64) from moved "
      "cameras, 8-bit depth, zero-is-unknown blobs\n", opt.variants);

  memset (clips, 0, sizeof (clips));
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    GcvDibrCamera virt[2];
    if (!case_on (list, c->name))
      continue;
    g_printerr ("%s (%dx%d): ray casting %d variants\n", c->name, c->width, c->height, opt.variants);
    clip_init (&clips[ci], c->width, c->height, opt.variants);
    case_cameras (ci, &clips[ci].src, virt);
    if (!gcvb_skipped (&opt, "cpu")) {
      bench_cpu (ci, &clips[ci], 0);
      if (!gcvb_skipped (&opt, "cpu1"))
        bench_cpu (ci, &clips[ci], 1);
    }
    if (gcvb_gpu_enabled (&opt))
      bench_cuda (ci, &clips[ci]);
    if (ci == CASE_PAPER)
      paper_rows ();
    check_case (ci);
    speedups (ci);
    limits_case (ci);
    case_ran[ci] = TRUE;
  }
  if (case_on (list, "elements")) {
    Clip clip;
    if (!case_ran[CASE_STEREO])
      g_printerr ("elements (1920x1080): ray casting %d variants\n", opt.variants);
    clip_init (&clip, cases[CASE_STEREO].width, cases[CASE_STEREO].height, opt.variants);
    if (gcvb_gpu_enabled (&opt)) {
      bench_element (&clip, 0);
      bench_element (&clip, 2);
    }
    if (!gcvb_skipped (&opt, "cpu"))
      bench_element (&clip, 1);
    clip_clear (&clip);
  }

  for (int ci = 0; ci < N_CASES; ci++)
    if (case_ran[ci])
      print_case (ci, &clips[ci]);
  print_limits ();
  print_elements ();
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (), &opt, "bench-dibr.json");

  for (int ci = 0; ci < N_CASES; ci++) {
    if (case_ran[ci])
      clip_clear (&clips[ci]);
    for (int w = 0; w < 2; w++)
      if (have_ref[ci][w])
        outs_clear (&ref_out[ci][w]);
  }
  dibr_scene_free (scene);
  g_array_free (rows_arr, TRUE);
  g_ptr_array_unref (list);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
