/* gst-cuda-video: Vector Coherence Mapping benchmark (cudavcm / cpuvcm,
 * the contract of cpu/vcm.h).
 *
 *   bench-vcm [--quick] [--cases paper,hd,quality,elements] [--runs N]
 *       [--cpu-budget S] [--quality-pairs N] [--points-per-window P,H]
 *       [--skip gpu,cpu,cpu1,opencv,nvofa,check] [--nvofa-grids LIST]
 *       [--nvofa-perf LIST] [--json FILE]
 *
 * Cases (issue 7, paper 002 section 4):
 * 1. paper: 640x480, the paper's setting: 16x16 windows, 5x5 template,
 *    64x64 search (+-32, a 65x65 NCM), 2048 points.  4 points per window
 *    (--points-per-window): 1200 windows give up to 4800 candidates and the
 *    frame cap keeps 2048 on every pair of the sequences (with 2 a window
 *    only ~1300 are found with the default corner measure, ~1500 with the
 *    paper's edge one: the smooth parts of the photos and the slow centre
 *    of the rotation have none).  The N
 *    actually found is reported.  Paper 002 (4.3.5): 2048 IPs, the
 *    8800 GTS-512 22.96x and the 8600M GT 3.15x faster than the same
 *    algorithm on a 2.4 GHz Core 2.
 * 2. hd: 1920x1080, 8192 points: 120 x 68 = 8160 windows, 6 points a
 *    window and st-threshold 4 (the corner measure at the default 8
 *    finds only ~3100 points on the smooth, magnified chelsea's fractional
 *    translation; at 4 every sequence gives 8192).
 *    Target on an H100: <= 2 ms a frame (paper), <= 8 ms (hd).
 *
 * Rows per case:
 *  - cuda kernels: the three phases' CUDA event times (GcvVcmTimes of
 *    gcv_vcm_cuda_times), each a median, and their sum's median;
 *  - cuda track: events around gcv_vcm_cuda_track on a frame already on
 *    the device (the copy of that device frame into the context, a few
 *    microseconds, the phases, the on-device point selection and the
 *    download of the points and their number into page-locked memory);
 *  - cuda up+track+down: events from before the bench's upload of C
 *    (gcv_cuda_upload_2d from the clip's pageable rows, the driver's
 *    staging included) to the end;
 *  - cuda wall: host clock, the upload call to the return of the stream's
 *    synchronisation.  Medians of --runs pairs after --warmup;
 *  - cpu backend, all threads and 1 thread: wall clock around
 *    gcv_vcm_cpu_process (and its per-phase times), within --cpu-budget a
 *    row (a warm-up call sets how many of at most --cpu-runs follow);
 *  - opencv: goodFeaturesToTrack (maxCorners = the case's max points,
 *    qualityLevel 0.01, minDistance 5) + calcOpticalFlowPyrLK (21x21, 3
 *    levels) on the same pairs, all threads and 1 thread;
 *  - nvofa (the GPU peer): NVIDIA's optical-flow engine (NVOFA, the
 *    Optical Flow SDK through the driver's libnvidia-opticalflow.so.1, run
 *    by nvof-bench in a process of its own: bench_nvof.c, nvof_bench.c) at
 *    each output grid it offers (1, 2, 4; 8 where a later engine does) and
 *    perf level, dense flow (a vector per cell) on the same pairs in the
 *    same rotation as the cuda rows (temporal hints off where a sequence
 *    starts, as set_reference there), all frames uploaded once: CUDA events
 *    around nvOFExecute, median of --runs after --warmup; the host's clock
 *    to the execute's end in the note.  Skipped with the reason where the
 *    library, the engine, the size or the grid is missing;
 *  - check: the CUDA backend's points for the first pair against the CPU
 *    backend's (all threads): records that differ (0 by contract).
 * Speed-ups: the 1-thread CPU row's and the all-threads CPU row's median
 * over the row's.
 *
 * Limits (per case, with a GPU): the bytes the three phases must move at
 * least (P and C read once by the point phase, every NCM written once and
 * read once, 2 bytes an entry) over the measured device-to-device copy
 * bandwidth, and the integer operations (st: ~20 a pixel; NCM: 3 a
 * template pixel and displacement, sum W, W^2 and T W; VCM: one multiply-
 * add a neighbour and displacement, neighbours counted on the first pair's
 * points) over the device's INT32 peak (SMs x boost clock x 64 lanes, for
 * the H100 and H200): how far the kernels are from either limit.
 *
 * Frames (never flat, never all zero): sequences made from the test photos
 * by the synthetic motion of tests/vcm_reference.h (each photo magnified
 * to cover the frame with room for the motion, then warped bicubically by
 * the k-th power of one of the standard warps: integer and fractional
 * translation, rotation 1 degree a frame, zoom 1% a frame).  The timed rows rotate
 * through the pairs of all sequences as a stream would (the history of the
 * temporal term is live); the first pair of each sequence starts with
 * set_reference, which is not timed.
 *
 * Quality (case quality, 640x480): on every standard warp and photo, the
 * endpoint error |(dx, dy) - true vector at the point| over all points of
 * --quality-pairs pairs, for VCM (CPU backend, the paper's case's params
 * with the element's defaults otherwise; the CUDA one is identical), VCM
 * with the paper's interest measure (interest=edge, our refinement), the
 * paper's VCM (interest=edge, refine-size 0), OpenCV's tracker (its own
 * points, status 1 only) and OpenCV's pyramidal LK alone on the points of
 * the first two VCM rows, pair by pair (the same 21x21 window and 3
 * levels, no initial flow; status 1 only): the trackers compared on the
 * same points; median, 90th percentile, mean, and the OpenCV time per pair
 * (gftt + LK only).  The GPU peer on the same pairs (each sequence from its
 * first pair, temporal hints off there): its vectors are S10.5 pixels, one
 * per g x g cell; "all cells" scores every cell whose centre, moved by the
 * true vector, stays in the frame (the true vector at the cell's centre);
 * "vcm's pts" takes, at each point of the first VCM row, the vector of the
 * cell holding it: the same points as VCM, at the engine's grid.
 *
 * Elements: appsrc ! cudavcm|cpuvcm ! fakesink, GRAY8, 640x480 and 1080p
 * with the cases' params, wall clock per frame and the elements' stats.
 *
 * Prints tables and writes the same as JSON (--json FILE).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcm.h"
#include "vcm_reference.h"
#include "gcv-bench.h"
#include "bench-nvof.h"

#ifdef GCVB_HAVE_OPENCV
int gcvb_opencv_lk_track (const uint8_t * prev, const uint8_t * cur, int width, int height, size_t stride,
    int max_corners, double quality_level, double min_distance, int win, int max_level, int n_threads,
    float *out, int *n_out, int *n_corners, int *threads_used, double *ms, char *err, size_t err_len);
int gcvb_opencv_lk_points (const uint8_t * prev, const uint8_t * cur, int width, int height, size_t stride,
    const float *xy, int n, int win, int max_level, int n_threads, float *flow, uint8_t * status, char *err,
    size_t err_len);
const char *gcvb_opencv_lk_version (void);
#endif

/* ------------------------------------------------------------------------ */
/* the paper's figures (002, 4.3.4 and 4.3.5) and the targets */

#define PAPER_SPEEDUP_8800 22.96        /* 8800 GTS-512 over a 2.4 GHz Core 2 */
#define PAPER_SPEEDUP_8600 3.15         /* 8600M GT (MacBook Pro) over the same */
#define PAPER_FRAME_MS 177.0            /* overall per frame, frame loading after the VCM phase */
#define PAPER_FRAME_OVERLAP_MS 125.0    /* frame loading during the VCM phase */
#define PAPER_WHAT "paper 002 (4.3.5): 2048 IPs, 16x16 windows, 5x5 template, 64x64 NCM: 8800 GTS-512 22.96x, " \
  "8600M GT 3.15x the CPU version on a 2.4 GHz Core 2 (absolute times only in Figure 9); 4.3.4: 0.177 s a " \
  "frame overall, 0.125 s with frame loading overlapped with the VCM phase"

/* OpenCV peer: the settings */
#define CV_QUALITY 0.01
#define CV_MIN_DIST 5.0
#define CV_WIN 21
#define CV_MAX_LEVEL 2          /* 3 pyramid levels */

#define SEQ_FRAMES 4            /* frames of a timing sequence (3 pairs) */
#define DEFAULT_PPW "4,6"       /* enough candidates for max-points: see cases_init */

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 50, .warmup = 5, .cpu_frames = 0, .runs = 100, .cpu_runs = 0,
  .variants = 4, .queue = 2, .device = 0,
};

static const GcvbOptions quick = {
  .frames = 10, .warmup = 2, .cpu_frames = 2, .runs = 12, .cpu_runs = 3, .variants = 4,
};

static gchar *opt_cases = NULL;
static gdouble opt_cpu_budget = -1;     /* s per row; default 10, quick 2 */
static gint opt_quality_pairs = 0;      /* per sequence; default 4, quick 2 */
static gint opt_cpu_threads = 0;
static gchar *opt_ppw = NULL;           /* points per window: paper,hd */
static gchar *opt_nvofa_grids = NULL, *opt_nvofa_perf = NULL;

static GOptionEntry entries[] = {
  {"cases", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
      "Cases, comma-separated: paper, hd, quality, elements (default all)", "LIST"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs, "Timed GPU frame pairs per row, median taken (default 100)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup, "GPU warm-up pairs and element warm-up frames (default 5)",
      "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Most timed CPU / OpenCV runs per row (default 10; fewer by --cpu-budget)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
      "Seconds of timed CPU runs per row (default 10, --quick 2)", "S"},
  {"cpu-threads", 0, 0, G_OPTION_ARG_INT, &opt_cpu_threads,
      "Threads of the 'all threads' CPU rows (default 0: one per core)", "N"},
  {"quality-pairs", 0, 0, G_OPTION_ARG_INT, &opt_quality_pairs,
      "Frame pairs per photo and warp in the quality case (default 4, --quick 2)", "N"},
  {"points-per-window", 0, 0, G_OPTION_ARG_STRING, &opt_ppw,
      "Points per window of the cases paper and hd (default " DEFAULT_PPW ")", "P,H"},
  {"sequences", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Sequences (photo, warp) the timed rows rotate through (default 4)", "N"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames, "Timed frames per cudavcm row (default 50)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames, "Timed frames per cpuvcm row (default 5)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue, "Frames in flight in the element pipelines (default 2)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  GCVB_NVOF_OPTION_ENTRIES (opt_nvofa_grids, opt_nvofa_perf),
  GCVB_OPTION_ENTRIES (opt, "bench-vcm.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
      "Parts to skip, comma-separated: gpu (or cuda), cpu, cpu1 (the 1-thread rows), opencv, nvofa (the GPU peer), "
        "check", "LIST"},
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

static int
quality_pairs (void)
{
  return opt_quality_pairs > 0 ? opt_quality_pairs : opt.quick ? 2 : 4;
}

/* ------------------------------------------------------------------------ */
/* cases */

typedef struct {
  const char *name, *title;
  int width, height;
  GcvVcmParams p;
  double target_ms;             /* the target on an H100 */
} Case;

#define N_CASES 2
static Case cases[N_CASES];
static gboolean case_ran[N_CASES];

static void
cases_init (void)
{
  Case *c = &cases[0];

  c->name = "paper";
  c->title = "the paper's setting (640x480, 2048 points)";
  c->width = 640;
  c->height = 480;
  gcv_vcm_params_init (&c->p);
  c->p.window_size = 16;
  c->p.points_per_window = 2;
  c->p.max_points = 2048;
  c->p.template_size = 5;
  c->p.search_size = 64;
  c->target_ms = 2.0;

  c = &cases[1];
  c->name = "hd";
  c->title = "1080p, 8192 points";
  c->width = 1920;
  c->height = 1080;
  gcv_vcm_params_init (&c->p);
  c->p.window_size = 16;
  c->p.points_per_window = 2;
  c->p.max_points = 8192;
  c->p.st_threshold = 4;
  c->p.template_size = 5;
  c->p.search_size = 64;
  c->target_ms = 8.0;
}

static void
describe_params (char *buf, size_t len, const GcvVcmParams * p)
{
  g_snprintf (buf, len, "%dx%d windows, %d a window, max %d, template %d, search %d (+-%d), st > %d, radius %.0f "
      "sigma %.0f, temporal %.2f, %s, refine %d, interest %s", p->window_size, p->window_size, p->points_per_window,
      p->max_points, p->template_size, p->search_size, gcv_vcm_radius (p), p->st_threshold, p->coherence_radius,
      p->coherence_sigma, p->temporal_weight, p->subpixel ? "sub-pixel" : "integer", p->refine_size,
      p->interest == GCV_VCM_INTEREST_EDGE ? "edge" : "corner");
}

static void
json_params (GString * s, const GcvVcmParams * p)
{
  g_string_append_printf (s, "{\"window_size\": %d, \"points_per_window\": %d, \"max_points\": %d, "
      "\"st_threshold\": %d, \"template_size\": %d, \"search_size\": %d, \"coherence_radius\": %g, "
      "\"coherence_sigma\": %g, \"temporal_weight\": %g, \"temporal_sigma\": %g, \"subpixel\": %s, "
      "\"refine_size\": %d, \"interest\": \"%s\"}",
      p->window_size, p->points_per_window, p->max_points, p->st_threshold, p->template_size, p->search_size,
      p->coherence_radius, p->coherence_sigma, p->temporal_weight, p->temporal_sigma,
      p->subpixel ? "true" : "false", p->refine_size, p->interest == GCV_VCM_INTEREST_EDGE ? "edge" : "corner");
}

/* ------------------------------------------------------------------------ */
/* frames */

/* Sequences of `len` frames: sequence s is photo s % n_photos (luma)
 * warped by standard warp s % n_warps (or warp_only), rendered by
 * vcm_test_render (which magnifies the photo to cover the frame and the
 * motion of 8 frames, bicubic). */
typedef struct {
  int width, height;
  size_t stride;
  int n_seq, len;
  guint8 **frames;              /* [n_seq * len] */
  const VcmWarp **warp;         /* [n_seq] */
  int *photo;                   /* [n_seq] */
  int n_pairs;                  /* n_seq * (len - 1) */
} Clip;

static const VcmWarp *warps;
static int n_warps;

static void
clip_init (Clip * clip, int W, int H, const GcvbPhoto * photos, int n_photos, int n_seq, int len, int warp_only)
{
  memset (clip, 0, sizeof (*clip));
  clip->width = W;
  clip->height = H;
  clip->stride = (size_t) W;
  clip->n_seq = n_seq;
  clip->len = len;
  clip->n_pairs = n_seq * (len - 1);
  clip->frames = g_new0 (guint8 *, (size_t) n_seq * len);
  clip->warp = g_new0 (const VcmWarp *, n_seq);
  clip->photo = g_new0 (int, n_seq);
  for (int s = 0; s < n_seq; s++) {
    const GcvbPhoto *ph;
    clip->photo[s] = s % n_photos;
    clip->warp[s] = &warps[warp_only >= 0 ? warp_only : s % n_warps];
    ph = &photos[clip->photo[s]];
    for (int k = 0; k < len; k++) {
      guint8 *f = g_malloc (clip->stride * H);
      vcm_test_render (ph->pixels, ph->width, ph->height, ph->width, clip->warp[s], k, f, W, H, (int) clip->stride);
      clip->frames[s * len + k] = f;
    }
  }
}

static void
clip_clear (Clip * clip)
{
  for (int i = 0; i < clip->n_seq * clip->len; i++)
    g_free (clip->frames[i]);
  g_free (clip->frames);
  g_free (clip->warp);
  g_free (clip->photo);
  memset (clip, 0, sizeof (*clip));
}

static GcvPlane
clip_plane (const Clip * clip, int seq, int k)
{
  GcvPlane p = { clip->frames[seq * clip->len + k], clip->width, clip->height, clip->stride };
  return p;
}

/* Pair j of the rotation: sequence and index of P (C is the next frame). */
static void
clip_pair (const Clip * clip, int j, int *seq, int *k)
{
  j %= clip->n_pairs;
  *seq = j / (clip->len - 1);
  *k = j % (clip->len - 1);
}

/* ------------------------------------------------------------------------ */
/* rows */

typedef enum {
  ROW_CUDA_KERNELS,
  ROW_CUDA_TRACK,
  ROW_CUDA_PIPE,
  ROW_CUDA_WALL,
  ROW_CPU,
  ROW_PEER,
  ROW_NVOFA,                    /* the GPU peer */
  ROW_ELEMENT,
  N_ROW_KINDS
} RowKind;

static const char *const row_kind_names[] = {
  "cuda kernels", "cuda track", "cuda up+track+down", "cuda wall", "cpu backend", "opencv gftt+pyrlk", "nvofa",
  "element"
};

typedef struct {
  GcvbResult m;
  RowKind kind;
  int case_i;
  char what[48];                /* the element */
  double points_ms, ncm_ms, vcm_ms;     /* medians of the phases, NAN */
  double n_med;                 /* points (OpenCV: tracked) per pair, median; NAN */
  int n_min, n_max;
  double x_cpu1, x_cpu;         /* speed-ups over the cpu rows */
  int grid, perf;               /* nvofa */
  double wall_ms;               /* nvofa: host clock per pair, median */
} Row;

/* row_new hands out pointers into it: reserved once, never reallocated */
#define MAX_ROWS 256
static GArray *rows_arr;
static GcvbHost host;
static GcvbNvof nvof;           /* the GPU peer's engine */
static int nvofa_grids[GCVB_NVOF_MAX_GRIDS], n_nvofa_grids, nvofa_perfs[3], n_nvofa_perfs;

static Row *
row_new (RowKind kind, int ci, const char *what, int threads)
{
  Row r;

  memset (&r, 0, sizeof (r));
  gcvb_result_init (&r.m, row_kind_names[kind], "%-5s %-18s %s%s", cases[ci].name, row_kind_names[kind],
      what ? what : "", threads == 1 ? " 1 thread" : threads > 1 ? " all threads" : "");
  r.m.threads = threads;
  r.kind = kind;
  r.case_i = ci;
  g_strlcpy (r.what, what ? what : "", sizeof (r.what));
  r.points_ms = r.ncm_ms = r.vcm_ms = r.n_med = r.x_cpu1 = r.x_cpu = r.wall_ms = NAN;
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

/* per-run samples -> a row's medians */
typedef struct {
  double *t, *pts, *ncm, *vcm, *n;
  int count;
} Samples;

static void
samples_init (Samples * s, int n)
{
  s->t = g_new (double, n);
  s->pts = g_new (double, n);
  s->ncm = g_new (double, n);
  s->vcm = g_new (double, n);
  s->n = g_new (double, n);
  s->count = 0;
}

static void
samples_clear (Samples * s)
{
  g_free (s->t);
  g_free (s->pts);
  g_free (s->ncm);
  g_free (s->vcm);
  g_free (s->n);
}

static void
samples_to_row (Samples * s, Row * r, gboolean phases, double span_ms)
{
  int n = s->count;

  r->m.count = n;
  r->m.mean_ms = span_ms > 0 ? span_ms / n : gcvb_mean (s->t, n);
  r->m.ms = gcvb_median (s->t, n);
  r->m.fps = 1000.0 / r->m.ms;
  if (phases) {
    r->points_ms = gcvb_median (s->pts, n);
    r->ncm_ms = gcvb_median (s->ncm, n);
    r->vcm_ms = gcvb_median (s->vcm, n);
  }
  r->n_min = r->n_max = (int) s->n[0];
  for (int i = 0; i < n; i++) {
    r->n_min = MIN (r->n_min, (int) s->n[i]);
    r->n_max = MAX (r->n_max, (int) s->n[i]);
  }
  r->n_med = gcvb_median (s->n, n);
}

/* What the limits need of the first pair: its points. */
typedef struct {
  GcvVcmPoint *pts;
  int n;
} PointList;

static PointList ref_points[N_CASES];   /* cpu backend, all threads, pair 0 */
static PointList gpu_points[N_CASES];   /* cuda, pair 0 */

/* ------------------------------------------------------------------------ */
/* CPU backend */

static void
bench_cpu (int ci, const Clip * clip, int n_threads)
{
  const Case *c = &cases[ci];
  Row *r = row_new (ROW_CPU, ci, NULL, n_threads == 1 ? 1 : gcvb_cpu_threads (opt_cpu_threads));
  GcvVcmPoint *pts = g_new0 (GcvVcmPoint, c->p.max_points);
  GcvVcmCpu *ctx;
  GcvError err = { 0 };
  Samples s;
  int runs = 0, max_runs = cpu_max_runs ();
  double budget = cpu_budget_s ();

  samples_init (&s, max_runs + 1);
  ctx = gcv_vcm_cpu_new (clip->width, clip->height, &err);
  if (ctx == NULL)
    goto fail;
  /* call 0: the warm-up (pair 0, the check's reference); then as many of
   * at most max_runs calls as fit the budget */
  for (int i = 0; i <= runs; i++) {
    int seq, k, n = 0;
    GcvPlane pl;
    GcvVcmTimes tm;
    double t0, t;
    clip_pair (clip, i, &seq, &k);
    if (k == 0 || i == 0) {
      pl = clip_plane (clip, seq, k);
      if (gcv_vcm_cpu_set_reference (ctx, &pl, &err) != GCV_OK)
        goto fail;
    }
    pl = clip_plane (clip, seq, k + 1);
    t0 = gcvb_now_ms ();
    if (gcv_vcm_cpu_process (ctx, &c->p, &pl, pts, &n, n_threads == 1 ? 1 : gcvb_cpu_threads (opt_cpu_threads), &tm, &err) != GCV_OK)
      goto fail;
    t = gcvb_now_ms () - t0;
    if (i == 0) {
      if (n_threads != 1 && ref_points[ci].pts == NULL) {
        ref_points[ci].pts = g_memdup2 (pts, sizeof (GcvVcmPoint) * MAX (n, 1));
        ref_points[ci].n = n;
      }
      if (t * 1e-3 >= budget) {
        /* the warm-up alone is the measurement */
        s.t[0] = t, s.pts[0] = tm.points_ms, s.ncm[0] = tm.ncm_ms, s.vcm[0] = tm.vcm_ms, s.n[0] = n;
        s.count = 1;
        gcvb_result_note (&r->m, "one call (the warm-up) took the budget of %.0f s", budget);
        break;
      }
      runs = (int) CLAMP (budget / MAX (t * 1e-3, 1e-6), 1, max_runs);
      if (runs < max_runs)
        gcvb_result_note (&r->m, "%d runs within %.0f s", runs, budget);
      continue;
    }
    s.t[s.count] = t;
    s.pts[s.count] = tm.points_ms;
    s.ncm[s.count] = tm.ncm_ms;
    s.vcm[s.count] = tm.vcm_ms;
    s.n[s.count] = n;
    s.count++;
  }
  samples_to_row (&s, r, TRUE, 0);
  g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
  print_row_progress (r);
  goto done;
fail:
  gcvb_result_fail (&r->m, "cpu backend: %s", err.message);
done:
  if (ctx)
    gcv_vcm_cpu_free (ctx);
  samples_clear (&s);
  g_free (pts);
}

/* ------------------------------------------------------------------------ */
/* CUDA backend */

static void
bench_cuda (int ci, const Clip * clip)
{
  Row *rk = row_new (ROW_CUDA_KERNELS, ci, NULL, 0);
  Row *rt = row_new (ROW_CUDA_TRACK, ci, NULL, 0);
  Row *rp = row_new (ROW_CUDA_PIPE, ci, NULL, 0);
  Row *rw = row_new (ROW_CUDA_WALL, ci, NULL, 0);

  if (!host.cuda.available) {
    const char *why = host.cuda.why[0] ? host.cuda.why : "no CUDA device";
    gcvb_result_skip (&rk->m, "%s", why);
    gcvb_result_skip (&rt->m, "%s", why);
    gcvb_result_skip (&rp->m, "%s", why);
    gcvb_result_skip (&rw->m, "%s", why);
    return;
  }
#if GCVB_CUDA
  {
    const Case *c = &cases[ci];
    int warmup = MAX (opt.warmup, 1), runs = opt.runs;
    GcvVcmPoint *pts = NULL;
    int *n = NULL;
    GcvCudaEvent *e_up = NULL, *e_tr = NULL, *e_end = NULL;
    GcvVcmCuda *ctx = NULL;
    GcvPlane dev[2] = { { NULL, clip->width, clip->height, 0 }, { NULL, clip->width, clip->height, 0 } };
    void *stream = NULL;
    GcvError err = { 0 };
    Samples sk, st, sp, sw;
    double wall0 = 0;

    samples_init (&sk, runs);
    samples_init (&st, runs);
    samples_init (&sp, runs);
    samples_init (&sw, runs);
    /* P and C on the device; the points and their number come back into
     * page-locked memory */
    if (gcv_cuda_set_device (opt.device, &err) != GCV_OK || gcv_cuda_stream_new (&stream, &err) != GCV_OK
        || gcv_cuda_event_new (&e_up, &err) != GCV_OK || gcv_cuda_event_new (&e_tr, &err) != GCV_OK
        || gcv_cuda_event_new (&e_end, &err) != GCV_OK
        || gcv_cuda_malloc_2d (&dev[0].data, &dev[0].stride, (size_t) clip->width, (size_t) clip->height,
            &err) != GCV_OK
        || gcv_cuda_malloc_2d (&dev[1].data, &dev[1].stride, (size_t) clip->width, (size_t) clip->height,
            &err) != GCV_OK
        || gcv_cuda_host_alloc ((void **) &pts, sizeof (GcvVcmPoint) * c->p.max_points, &err) != GCV_OK
        || gcv_cuda_host_alloc ((void **) &n, sizeof (int), &err) != GCV_OK)
      goto fail;
    ctx = gcv_vcm_cuda_new (clip->width, clip->height, &err);
    if (ctx == NULL)
      goto fail;
    for (int i = 0; i < warmup + runs; i++) {
      int seq, k;
      GcvPlane pl;
      GcvVcmTimes tm;
      float ms_t, ms_p;
      double t0, t;
      /* pair i % pairs; pair 0 first (the check) */
      clip_pair (clip, i, &seq, &k);
      if (k == 0 || i == 0) {
        /* a new sequence: its first frame becomes P, outside the clock */
        pl = clip_plane (clip, seq, k);
        if (gcv_cuda_upload_2d (dev[0].data, dev[0].stride, pl.data, pl.stride, (size_t) pl.width,
                (size_t) pl.height, stream, &err) != GCV_OK
            || gcv_vcm_cuda_set_reference (ctx, &dev[0], stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
          goto fail;
      }
      pl = clip_plane (clip, seq, k + 1);
      t0 = gcvb_now_ms ();
      if (i == warmup)
        wall0 = t0;
      if (gcv_cuda_event_record (e_up, stream, &err) != GCV_OK
          || gcv_cuda_upload_2d (dev[1].data, dev[1].stride, pl.data, pl.stride, (size_t) pl.width,
              (size_t) pl.height, stream, &err) != GCV_OK
          || gcv_cuda_event_record (e_tr, stream, &err) != GCV_OK
          || gcv_vcm_cuda_track (ctx, &c->p, &dev[1], pts, n, stream, &err) != GCV_OK
          || gcv_cuda_event_record (e_end, stream, &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK
          || gcv_vcm_cuda_times (ctx, &tm, &err) != GCV_OK)
        goto fail;
      t = gcvb_now_ms () - t0;
      if (i == 0) {
        gpu_points[ci].pts = g_memdup2 (pts, sizeof (GcvVcmPoint) * MAX (*n, 1));
        gpu_points[ci].n = *n;
      }
      if (i < warmup)
        continue;
      if (gcv_cuda_event_elapsed (e_tr, e_end, &ms_t, &err) != GCV_OK
          || gcv_cuda_event_elapsed (e_up, e_end, &ms_p, &err) != GCV_OK)
        goto fail;
      sk.t[sk.count] = tm.points_ms + tm.ncm_ms + tm.vcm_ms;
      sk.pts[sk.count] = tm.points_ms;
      sk.ncm[sk.count] = tm.ncm_ms;
      sk.vcm[sk.count] = tm.vcm_ms;
      st.t[st.count] = ms_t;
      sp.t[sp.count] = ms_p;
      sw.t[sw.count] = t;
      sk.n[sk.count] = st.n[st.count] = sp.n[sp.count] = sw.n[sw.count] = *n;
      sk.count++, st.count++, sp.count++, sw.count++;
    }
    {
      double span = gcvb_now_ms () - wall0;
      samples_to_row (&sk, rk, TRUE, 0);
      samples_to_row (&st, rt, FALSE, 0);
      samples_to_row (&sp, rp, FALSE, 0);
      samples_to_row (&sw, rw, FALSE, span);
      rk->m.compute_ms = rk->m.ms;
      g_strlcpy (rk->m.backend, "cuda", sizeof (rk->m.backend));
      g_strlcpy (rt->m.backend, "cuda", sizeof (rt->m.backend));
      g_strlcpy (rp->m.backend, "cuda", sizeof (rp->m.backend));
      g_strlcpy (rw->m.backend, "cuda", sizeof (rw->m.backend));
      gcvb_result_note (&rw->m, "mean over the run %.4f ms (the upload call to the stream's sync returned, back to "
          "back)", rw->m.mean_ms);
    }
    print_row_progress (rk);
    print_row_progress (rt);
    print_row_progress (rp);
    print_row_progress (rw);
    goto done;
  fail:
    gcvb_result_fail (&rk->m, "%s", err.message);
    gcvb_result_skip (&rt->m, "see the cuda kernels row");
    gcvb_result_skip (&rp->m, "see the cuda kernels row");
    gcvb_result_skip (&rw->m, "see the cuda kernels row");
  done:
    if (stream)
      gcv_cuda_stream_sync (stream, &err);
    if (ctx)
      gcv_vcm_cuda_free (ctx);
    gcv_cuda_event_free (e_up);
    gcv_cuda_event_free (e_tr);
    gcv_cuda_event_free (e_end);
    if (stream)
      gcv_cuda_stream_free (stream);
    gcv_cuda_free (dev[0].data);
    gcv_cuda_free (dev[1].data);
    samples_clear (&sk);
    samples_clear (&st);
    samples_clear (&sp);
    samples_clear (&sw);
    gcv_cuda_host_free (pts);
    gcv_cuda_host_free (n);
  }
#else
  gcvb_result_skip (&rk->m, "built without CUDA");
  gcvb_result_skip (&rt->m, "built without CUDA");
  gcvb_result_skip (&rp->m, "built without CUDA");
  gcvb_result_skip (&rw->m, "built without CUDA");
#endif
}

/* CUDA's first pair against the CPU's: records that differ. */
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
  if (ref_points[ci].pts == NULL || gpu_points[ci].pts == NULL) {
    gcvb_result_note (&rk->m, "no check (no cpu backend row)");
    return;
  }
  {
    const PointList *a = &ref_points[ci], *b = &gpu_points[ci];
    gint64 diff = ABS (a->n - b->n);
    for (int i = 0; i < MIN (a->n, b->n); i++)
      diff += memcmp (&a->pts[i], &b->pts[i], sizeof (GcvVcmPoint)) != 0;
    rk->m.mismatch = diff;
    if (diff > 0) {
      gcvb_result_note (&rk->m, "DIFFERS from the cpu backend: %" G_GINT64_FORMAT " records (N %d vs %d)", diff,
          b->n, a->n);
      gcvb_n_failures++;
    } else {
      gcvb_result_note (&rk->m, "identical to the cpu backend (%d points, first pair)", a->n);
    }
  }
}

/* ------------------------------------------------------------------------ */
/* the GPU peer: NVIDIA's optical-flow engine */

/* The engine on the case's clip, the cuda rows' rotation of pairs; a row
 * per grid and perf level. */
static void
bench_nvofa (int ci, const Clip * clip)
{
  const int n = n_nvofa_grids * n_nvofa_perfs;
  const Row *ours = NULL;
  GcvbNvofJob job;
  GcvbNvofRun *runs;

  if (!gcvb_nvof_present (&nvof)) {
    Row *r = row_new (ROW_NVOFA, ci, NULL, 0);
    gcvb_result_skip (&r->m, "NVIDIA's optical-flow engine %s: %s", nvof.state, nvof.detail);
    return;
  }
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->case_i == ci && r->kind == ROW_CUDA_TRACK && !r->m.skipped)
      ours = r;
  }
  gcvb_nvof_job_init (&job, clip->width, clip->height, clip->stride, clip->n_seq * clip->len, clip->frames,
      MAX (opt.warmup, 1), opt.runs);
  for (int j = 0; j < clip->n_pairs; j++) {
    int seq, k;
    clip_pair (clip, j, &seq, &k);
    gcvb_nvof_job_add (job.time, seq * clip->len + k, seq * clip->len + k + 1, k == 0);
  }
  runs = gcvb_nvof_run (&nvof, opt.device, &job, nvofa_grids, n_nvofa_grids, nvofa_perfs, n_nvofa_perfs);
  for (int i = 0; i < n; i++) {
    const GcvbNvofRun *nr = &runs[i];
    char name[32];
    Row *r;
    gcvb_nvof_run_name (nr, name, sizeof (name));
    r = row_new (ROW_NVOFA, ci, name, 0);
    r->grid = nr->grid;
    r->perf = nr->perf;
    if (strcmp (nr->state, "skipped") == 0) {
      gcvb_result_skip (&r->m, "%s", nr->why);
      continue;
    }
    if (strcmp (nr->state, "ok") != 0) {
      gcvb_result_fail (&r->m, "%s", nr->why);
      continue;
    }
    r->m.count = nr->count;
    r->m.ms = r->m.compute_ms = nr->ev_ms;
    r->m.mean_ms = nr->ev_mean_ms;
    r->m.fps = 1000.0 / nr->ev_ms;
    r->wall_ms = nr->wall_ms;
    r->n_min = r->n_max = nr->cols * nr->rows;
    r->n_med = r->n_min;
    g_strlcpy (r->m.backend, "nvofa", sizeof (r->m.backend));
    if (ours != NULL)
      gcvb_result_note (&r->m, "%.2fx the cuda track row's time", r->m.ms / ours->m.ms);
    if (*gcvb_nvof_timing_note (nr))
      gcvb_result_note (&r->m, "%s", gcvb_nvof_timing_note (nr));
    gcvb_result_note (&r->m, "wall %.4f ms; N: %dx%d vectors; session setup %.0f ms, first execute %.2f ms",
        nr->wall_ms, nr->cols, nr->rows, nr->setup_ms, nr->first_ms);
  }
  gcvb_nvof_runs_free (runs, n);
  gcvb_nvof_job_clear (&job);
}

/* ------------------------------------------------------------------------ */
/* OpenCV */

#ifdef GCVB_HAVE_OPENCV
static gboolean
opencv_pair (const Clip * clip, int seq, int k, int max_corners, int n_threads, float *out, int *n_out,
    int *n_corners, int *threads_used, double *ms, char *msg, size_t len)
{
  GcvPlane p = clip_plane (clip, seq, k), c = clip_plane (clip, seq, k + 1);

  return gcvb_opencv_lk_track (p.data, c.data, clip->width, clip->height, clip->stride, max_corners, CV_QUALITY,
      CV_MIN_DIST, CV_WIN, CV_MAX_LEVEL, n_threads, out, n_out, n_corners, threads_used, ms, msg, len) == 0;
}
#endif

static void
bench_opencv (int ci, const Clip * clip, int n_threads)
{
  Row *r = row_new (ROW_PEER, ci, NULL, n_threads == 1 ? 1 : gcvb_cpu_threads (opt_cpu_threads));
#ifdef GCVB_HAVE_OPENCV
  const Case *c = &cases[ci];
  float *out = g_new (float, 4 * (size_t) c->p.max_points);
  int max_runs = cpu_max_runs () * 2, runs = max_runs, used = 0;
  double budget = cpu_budget_s ();
  char msg[512] = "";
  Samples s;

  samples_init (&s, max_runs);
  for (int i = 0; i <= runs; i++) {
    int seq, k, n = 0, nc = 0;
    double ms;
    clip_pair (clip, i, &seq, &k);
    if (!opencv_pair (clip, seq, k, c->p.max_points, n_threads, out, &n, &nc, &used, &ms, msg, sizeof (msg))) {
      gcvb_result_fail (&r->m, "%s", msg);
      goto done;
    }
    if (i == 0) {
      runs = (int) CLAMP (budget / MAX (ms * 1e-3, 1e-6), 1, max_runs);
      continue;
    }
    s.t[s.count] = ms;
    s.n[s.count] = n;
    s.count++;
  }
  samples_to_row (&s, r, FALSE, 0);
  r->m.threads = used;
  g_strlcpy (r->m.backend, "opencv", sizeof (r->m.backend));
  gcvb_result_note (&r->m, "OpenCV %s; maxCorners %d, quality %.2f, minDistance %.0f, %dx%d, %d levels; N = tracked",
      gcvb_opencv_lk_version (), c->p.max_points, CV_QUALITY, CV_MIN_DIST, CV_WIN, CV_WIN, CV_MAX_LEVEL + 1);
  print_row_progress (r);
done:
  samples_clear (&s);
  g_free (out);
#else
  (void) clip;
  gcvb_result_skip (&r->m, "not built with OpenCV (apt install libopencv-dev, then reconfigure)");
#endif
}

/* ------------------------------------------------------------------------ */
/* elements */

static void
bench_element (int ci, const Clip * clip, gboolean is_cuda)
{
  const Case *c = &cases[ci];
  const char *factory = is_cuda ? "cudavcm" : "cpuvcm";
  Row *r = row_new (ROW_ELEMENT, ci, factory, is_cuda ? 0 : gcvb_cpu_threads (opt_cpu_threads));
  GcvbFrameSet fs;
  GcvbPipeline *pl;
  GstElement *e;
  char buf[64];

  gcvb_frameset_wrap_gray8 (&fs, c->name, clip->width, clip->height, clip->stride, clip->n_seq * clip->len,
      clip->frames);
  pl = gcvb_gray8_element_pipeline (&host, factory, "vcm", &fs, opt.device, &r->m);
  if (pl == NULL)
    return;
  e = gcvb_pipeline_element (pl);
#define SET_INT(name, v) (g_snprintf (buf, sizeof (buf), "%d", (v)), gcvb_set_prop (e, name, buf))
  SET_INT ("window-size", c->p.window_size);
  SET_INT ("points-per-window", c->p.points_per_window);
  SET_INT ("max-points", c->p.max_points);
  SET_INT ("template-size", c->p.template_size);
  SET_INT ("search-size", c->p.search_size);
#undef SET_INT
  if (gcvb_pipeline_time (pl, &fs, is_cuda ? MAX (opt.warmup, 1) : 1,
          is_cuda ? opt.frames : (opt.cpu_frames ? opt.cpu_frames : 5), opt.queue, TRUE, &r->m))
    gcvb_element_row_done (&r->m, is_cuda);
  gcvb_pipeline_free (pl);
}

/* ------------------------------------------------------------------------ */
/* limits */

typedef struct {
  gboolean have;
  int n;                        /* points of the first pair */
  double neighbours;            /* sum over points of neighbours with weight > 0 (self included) */
  double bytes;                 /* the least device memory traffic of one pair */
  double ops;                   /* integer operations of one pair */
  double ops_points, ops_ncm, ops_vcm;
  double ncc_fp64;              /* double divisions (and square roots) */
  double kernels_ms;            /* the cuda kernels row */
} Limit;

static Limit limits[N_CASES];

/* INT32 lanes x SMs x boost clock for the GPUs whose figures are known
 * (Hopper: 64 INT32 lanes an SM); 0 when none is assumed. */
static double
device_int_peak (char *what, size_t len)
{
  int sms;
  double ghz;

  if (!gcvb_device_clock (&host, &sms, &ghz))
    return 0;
  g_snprintf (what, len, "%d SMs x %.3f GHz (datasheet boost) x 64 INT32 lanes = %.1f T int ops/s", sms, ghz,
      sms * ghz * 64e9 / 1e12);
  return sms * ghz * 64e9;
}

static void
limits_case (int ci)
{
  const Case *c = &cases[ci];
  const PointList *pl = gpu_points[ci].pts ? &gpu_points[ci] : &ref_points[ci];
  Limit *l = &limits[ci];
  GcvVcmTables *tab;
  int M = gcv_vcm_map_side (&c->p), t2 = c->p.template_size * c->p.template_size;
  double m2 = (double) M * M;

  if (pl->pts == NULL)
    return;
  tab = g_new0 (GcvVcmTables, 1);
  gcv_vcm_tables_make (&c->p, tab);
  l->have = TRUE;
  l->n = pl->n;
  l->neighbours = 0;
  for (int i = 0; i < pl->n; i++)
    for (int j = 0; j < pl->n; j++) {
      double ddx = pl->pts[j].x - pl->pts[i].x, ddy = pl->pts[j].y - pl->pts[i].y;
      int d2 = (int) (ddx * ddx + ddy * ddy);
      if (d2 <= tab->rc2 && tab->spatial[d2] > 0)
        l->neighbours++;
    }
  l->bytes = 2.0 * c->width * c->height + 2.0 * 2.0 * pl->n * m2 + (double) pl->n * sizeof (GcvVcmPoint);
  l->ops_points = 20.0 * c->width * c->height;
  l->ops_ncm = 3.0 * t2 * pl->n * m2;
  l->ops_vcm = l->neighbours * m2;
  l->ops = l->ops_points + l->ops_ncm + l->ops_vcm;
  l->ncc_fp64 = pl->n * m2;
  l->kernels_ms = NAN;
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->kind == ROW_CUDA_KERNELS && r->case_i == ci && !r->m.skipped)
      l->kernels_ms = r->m.ms;
  }
  g_free (tab);
}

static void
print_limits (void)
{
  char what[160] = "";
  double peak = device_int_peak (what, sizeof (what)), gbps = host.cuda.copy_gbps;
  gboolean any = FALSE;

  for (int ci = 0; ci < N_CASES; ci++)
    any |= limits[ci].have;
  if (!any)
    return;
  g_print ("\n== Limits: least memory traffic and integer work of one pair ==\n");
  g_print ("memory: P and C read once, every NCM written once and read once (2 bytes an entry), the points "
      "written;\nint ops: st ~20 a pixel, NCM 3 a template pixel and displacement, VCM 1 a neighbour (weight > 0) "
      "and displacement\n(an optimistic bound: the paper case's NCMs, ~17 MB, fit an H100's 50 MB L2, so DRAM need "
      "not see them at all)\n");
  if (host.cuda.available)
    g_print ("device: %s; %.0f GB/s measured D2D copy; %s\n", host.cuda.name, gbps,
        peak > 0 ? what : "no INT32 peak assumed (known: H100, H200)");
  g_print ("%-5s %6s %9s %10s %10s %10s %10s %10s %10s %9s %9s\n", "case", "N", "nbrs/pt", "MB/pair", "G ops",
      "ncm G", "vcm G", "kernels ms", "mem ms", "% mem", "% int");
  g_print ("---------------------------------------------------------------------------------------------------"
      "---------\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Limit *l = &limits[ci];
    char km[32], mm[32], pm[32], pi[32];
    double mem_ms = host.cuda.available && gbps > 0 ? l->bytes / (gbps * 1e9) * 1e3 : NAN;
    double int_ms = peak > 0 ? l->ops / peak * 1e3 : NAN;
    if (!l->have)
      continue;
    gcvb_fmt_num (km, sizeof (km), l->kernels_ms, "%.4f");
    gcvb_fmt_num (mm, sizeof (mm), mem_ms, "%.4f");
    gcvb_fmt_num (pm, sizeof (pm), 100 * mem_ms / l->kernels_ms, "%.1f");
    gcvb_fmt_num (pi, sizeof (pi), 100 * int_ms / l->kernels_ms, "%.1f");
    g_print ("%-5s %6d %9.1f %10.2f %10.3f %10.3f %10.3f %10s %10s %9s %9s\n", cases[ci].name, l->n,
        l->n ? l->neighbours / l->n : 0.0, l->bytes / 1e6, l->ops / 1e9, l->ops_ncm / 1e9, l->ops_vcm / 1e9, km, mm,
        pm, pi);
    if (peak > 0)
      g_print ("      int limit %.4f ms; plus %.2f M double divisions and square roots (the NCC)\n", int_ms,
          l->ncc_fp64 / 1e6);
  }
  g_print ("%% mem, %% int: the limit's time / the cuda kernels' median time (100 = at the limit).\n");
}

/* ------------------------------------------------------------------------ */
/* quality */

typedef struct {
  GArray *epe;                  /* double */
  double points;                /* over all pairs */
  double corners;               /* OpenCV: corners found */
  int pairs;
  GArray *ms;                   /* OpenCV: per pair */
} QAcc;

/* VCM as the elements run it (the defaults: corner measure, parabola,
 * then the gradient refinement), the same with the paper's interest
 * measure (interest=edge), the paper's VCM (edge, parabola only:
 * refine-size 0), the peer on its own points, and the peer's pyramidal LK
 * alone on the points of the first two rows, pair by pair */
#define N_QMETHODS 6
#define QMETHOD_VCM 0
#define QMETHOD_VCM_EDGE 1
#define QMETHOD_PAPER 2
#define QMETHOD_OPENCV 3
#define QMETHOD_OPENCV_SAME 4   /* at QMETHOD_VCM's points */
#define QMETHOD_OPENCV_EDGE 5   /* at QMETHOD_VCM_EDGE's points */
static const char *const qmethod_names[N_QMETHODS] = { "vcm (cpu backend)", "vcm, interest=edge",
  "vcm, paper's method", "opencv gftt+pyrlk", "opencv pyrlk, vcm's pts", "opencv pyrlk, edge pts"
};
static QAcc *qacc;              /* [N_QMETHODS * (n_warps + 1)], the last: all warps */

/* The GPU peer's quality, per grid and perf level: every cell, and the
 * cells under VCM's points; per warp and (the last) all. */
typedef struct {
  int grid, perf;
  char why[512];                /* why it has none, or its first failure */
  GcvbEpe *cells, *at_pts;      /* [n_warps + 1] */
  int *pairs;                   /* [n_warps + 1] */
} NvofaQ;
static NvofaQ *nvq;
static int n_nvq;
static gboolean quality_ran;
static char quality_note[256];

static VcmEpeStats
epe_stats (GArray * a)
{
  VcmEpeStats s = { 0, NAN, NAN, NAN, NAN };
  double *v;

  if (a->len == 0)
    return s;
  v = g_memdup2 (a->data, sizeof (double) * a->len);
  s = vcm_test_stats (v, a->len);
  g_free (v);
  return s;
}

static void
qacc_add (QAcc * q, double e)
{
  g_array_append_val (q->epe, e);
}

#ifdef GCVB_HAVE_OPENCV
/* OpenCV's pyramidal LK (no corner detection, not timed) on VCM's points of
 * pair (P, C) = frames k, k + 1 of sequence s: endpoint errors of the
 * points it tracked (status 1), into method m. */
static gboolean
quality_opencv_same (const Clip * clip, int m, int wi, int s, int k, const GcvVcmPoint * pts, int n, char *msg,
    size_t len)
{
  QAcc *a = &qacc[m * (n_warps + 1) + wi];
  QAcc *all = &qacc[m * (n_warps + 1) + n_warps];
  GcvPlane p = clip_plane (clip, s, k), c = clip_plane (clip, s, k + 1);
  float *xy = g_new (float, 2 * (size_t) MAX (n, 1)), *flow = g_new (float, 2 * (size_t) MAX (n, 1));
  uint8_t *st = g_new0 (uint8_t, MAX (n, 1));
  int tracked = 0, ok;

  for (int i = 0; i < n; i++) {
    xy[2 * i] = pts[i].x;
    xy[2 * i + 1] = pts[i].y;
  }
  ok = gcvb_opencv_lk_points (p.data, c.data, clip->width, clip->height, clip->stride, xy, n, CV_WIN,
      CV_MAX_LEVEL, 0, flow, st, msg, len) == 0;
  for (int i = 0; ok && i < n; i++) {
    double tx, ty, e;
    if (!st[i])
      continue;
    vcm_test_true_vector (clip->warp[s], k, clip->width, clip->height, xy[2 * i], xy[2 * i + 1], &tx, &ty);
    e = hypot (flow[2 * i] - tx, flow[2 * i + 1] - ty);
    qacc_add (a, e);
    qacc_add (all, e);
    tracked++;
  }
  if (ok) {
    a->points += tracked, a->corners += n, a->pairs++;
    all->points += tracked, all->corners += n, all->pairs++;
  }
  g_free (xy);
  g_free (flow);
  g_free (st);
  return ok;
}
#endif

/* VCM's endpoint errors on one clip (one warp, a sequence per photo):
 * each sequence as a stream (set_reference on its first frame).  With
 * same_cv and *same_cv, OpenCV's LK tracks the same points of every pair
 * into method same_m (a failure there clears *same_cv and goes to
 * quality_note). */
static gboolean
quality_vcm (GcvVcmCpu * ctx, const GcvVcmParams * p, int m, const Clip * clip, int wi, GcvVcmPoint * pts,
    gboolean * same_cv, int same_m, PointList * keep, GcvError * err)
{
  QAcc *a = &qacc[m * (n_warps + 1) + wi], *all = &qacc[m * (n_warps + 1) + n_warps];

  for (int s = 0; s < clip->n_seq; s++) {
    GcvPlane pl = clip_plane (clip, s, 0);
    if (gcv_vcm_cpu_set_reference (ctx, &pl, err) != GCV_OK)
      return FALSE;
    for (int k = 0; k + 1 < clip->len; k++) {
      int n = 0;
      pl = clip_plane (clip, s, k + 1);
      if (gcv_vcm_cpu_process (ctx, p, &pl, pts, &n, 0, NULL, err) != GCV_OK)
        return FALSE;
      for (int i = 0; i < n; i++) {
        double tx, ty, e;
        vcm_test_true_vector (clip->warp[s], k, clip->width, clip->height, pts[i].x, pts[i].y, &tx, &ty);
        e = hypot (pts[i].dx - tx, pts[i].dy - ty);
        qacc_add (a, e);
        qacc_add (all, e);
      }
      a->points += n, a->pairs++;
      all->points += n, all->pairs++;
      if (keep != NULL) {
        PointList *kp = &keep[s * (clip->len - 1) + k];
        kp->pts = g_memdup2 (pts, sizeof (GcvVcmPoint) * MAX (n, 1));
        kp->n = n;
      }
#ifdef GCVB_HAVE_OPENCV
      if (same_cv != NULL && *same_cv) {
        char msg[512];
        if (!quality_opencv_same (clip, same_m, wi, s, k, pts, n, msg, sizeof (msg))) {
          g_strlcpy (quality_note, msg, sizeof (quality_note));
          gcvb_n_failures++;
          *same_cv = FALSE;
        }
      }
#else
      (void) same_cv;
      (void) same_m;
#endif
    }
  }
  return TRUE;
}

#ifdef GCVB_HAVE_OPENCV
/* OpenCV's on the same clip, after VCM's pass (not interleaved with it: the
 * CPU backend's idle OpenMP threads would spin into OpenCV's time); the
 * first call is an untimed warm-up. */
static gboolean
quality_opencv (const Clip * clip, int wi, int max_corners, float *cv, char *msg, size_t len)
{
  QAcc *a = &qacc[QMETHOD_OPENCV * (n_warps + 1) + wi];
  QAcc *all = &qacc[QMETHOD_OPENCV * (n_warps + 1) + n_warps];
  int nt = 0, nc = 0, used = 0;
  double ms;

  if (!opencv_pair (clip, 0, 0, max_corners, 0, cv, &nt, &nc, &used, &ms, msg, len))
    return FALSE;
  for (int s = 0; s < clip->n_seq; s++)
    for (int k = 0; k + 1 < clip->len; k++) {
      if (!opencv_pair (clip, s, k, max_corners, 0, cv, &nt, &nc, &used, &ms, msg, len))
        return FALSE;
      for (int i = 0; i < nt; i++) {
        double tx, ty, e;
        vcm_test_true_vector (clip->warp[s], k, clip->width, clip->height, cv[4 * i], cv[4 * i + 1], &tx, &ty);
        e = hypot (cv[4 * i + 2] - tx, cv[4 * i + 3] - ty);
        qacc_add (a, e);
        qacc_add (all, e);
      }
      a->points += nt, a->corners += nc, a->pairs++;
      all->points += nt, all->corners += nc, all->pairs++;
      g_array_append_val (a->ms, ms);
      g_array_append_val (all->ms, ms);
    }
  return TRUE;
}
#endif

/* The engine on one warp's clip (a sequence per photo, each from its first
 * pair): the endpoint errors of every cell and at VCM's points (keep:
 * per pair s * (len - 1) + k, NULL entries when VCM did not run). */
static void
quality_nvofa (const Clip * clip, int wi, const PointList * keep)
{
  const int W = clip->width, H = clip->height;
  GcvbNvofJob job;
  GcvbNvofRun *runs;

  if (!gcvb_nvof_present (&nvof))
    return;
  gcvb_nvof_job_init (&job, W, H, clip->stride, clip->n_seq * clip->len, clip->frames, 0, 0);
  for (int s = 0; s < clip->n_seq; s++)
    for (int k = 0; k + 1 < clip->len; k++)
      gcvb_nvof_job_add (job.flow, s * clip->len + k, s * clip->len + k + 1, k == 0);
  runs = gcvb_nvof_run (&nvof, opt.device, &job, nvofa_grids, n_nvofa_grids, nvofa_perfs, n_nvofa_perfs);
  for (int i = 0; i < n_nvq; i++) {
    const GcvbNvofRun *r = &runs[i];
    NvofaQ *q = &nvq[i];
    const int g = r->grid;
    if (strcmp (r->state, "ok") != 0 || r->n_flows != (int) job.flow->len) {
      if (q->why[0] == '\0')
        g_snprintf (q->why, sizeof (q->why), "%s: %s", r->state, strcmp (r->state, "ok") ? r->why : "flows missing");
      if (strcmp (r->state, "skipped") != 0)
        gcvb_n_failures++;
      continue;
    }
    for (int s = 0; s < clip->n_seq; s++)
      for (int k = 0; k + 1 < clip->len; k++) {
        const int f = s * (clip->len - 1) + k;
        const PointList *kp = &keep[f];
        for (int cy = 0; cy < r->rows; cy++)
          for (int cx = 0; cx < r->cols; cx++) {
            double x = cx * g + (g - 1) / 2.0, y = cy * g + (g - 1) / 2.0, tx, ty, fx, fy;
            if (x > W - 1 || y > H - 1)
              continue;
            vcm_test_true_vector (clip->warp[s], k, W, H, x, y, &tx, &ty);
            if (x + tx < 0 || x + tx > W - 1 || y + ty < 0 || y + ty > H - 1)
              continue;
            gcvb_nvof_cell (r, f, cx, cy, &fx, &fy);
            gcvb_epe_add (&q->cells[wi], fx, fy, tx, ty);
          }
        for (int j = 0; kp->pts != NULL && j < kp->n; j++) {
          double tx, ty, fx, fy;
          vcm_test_true_vector (clip->warp[s], k, W, H, kp->pts[j].x, kp->pts[j].y, &tx, &ty);
          gcvb_nvof_at (r, f, kp->pts[j].x, kp->pts[j].y, &fx, &fy);
          gcvb_epe_add (&q->at_pts[wi], fx, fy, tx, ty);
        }
        q->pairs[wi]++;
      }
    gcvb_epe_merge (&q->cells[n_warps], &q->cells[wi]);
    gcvb_epe_merge (&q->at_pts[n_warps], &q->at_pts[wi]);
    q->pairs[n_warps] += q->pairs[wi];
  }
  gcvb_nvof_runs_free (runs, n_nvq);
  gcvb_nvof_job_clear (&job);
}

static void
run_quality (const GcvbPhoto * photos, int n_photos)
{
  const Case *c = &cases[0];    /* the paper's params at 640x480 */
  int W = c->width, H = c->height, Q = quality_pairs ();
  GcvVcmPoint *pts = g_new0 (GcvVcmPoint, c->p.max_points);
  float *cv = g_new (float, 4 * (size_t) c->p.max_points);
  GcvVcmCpu *ctx;
  GcvError err = { 0 };
  gboolean do_cv = !gcvb_skipped (&opt, "opencv"), do_vcm = TRUE, do_cv_same = do_cv;

  qacc = g_new0 (QAcc, N_QMETHODS * (n_warps + 1));
  if (!gcvb_skipped (&opt, "nvofa")) {
    n_nvq = n_nvofa_grids * n_nvofa_perfs;
    nvq = g_new0 (NvofaQ, MAX (n_nvq, 1));
    for (int gi = 0; gi < n_nvofa_grids; gi++)
      for (int pi = 0; pi < n_nvofa_perfs; pi++) {
        NvofaQ *q = &nvq[gi * n_nvofa_perfs + pi];
        q->grid = nvofa_grids[gi];
        q->perf = nvofa_perfs[pi];
        q->cells = g_new0 (GcvbEpe, n_warps + 1);
        q->at_pts = g_new0 (GcvbEpe, n_warps + 1);
        q->pairs = g_new0 (int, n_warps + 1);
        if (!gcvb_nvof_present (&nvof))
          g_snprintf (q->why, sizeof (q->why), "skipped: engine %s: %s", nvof.state, nvof.detail);
      }
  }
  for (int i = 0; i < N_QMETHODS * (n_warps + 1); i++) {
    qacc[i].epe = g_array_new (FALSE, FALSE, sizeof (double));
    qacc[i].ms = g_array_new (FALSE, FALSE, sizeof (double));
  }
  ctx = gcv_vcm_cpu_new (W, H, &err);
  if (ctx == NULL) {
    g_snprintf (quality_note, sizeof (quality_note), "cpu backend: %s", err.message);
    gcvb_n_failures++;
    do_vcm = FALSE;
  }
  for (int wi = 0; wi < n_warps; wi++) {
    Clip clip;
    /* one sequence per photo, all with warp wi */
    clip_init (&clip, W, H, photos, n_photos, n_photos, Q + 1, wi);
    GcvVcmParams edge = c->p, paper = c->p;
    edge.interest = GCV_VCM_INTEREST_EDGE;
    paper.interest = GCV_VCM_INTEREST_EDGE;
    paper.refine_size = 0;
    PointList *keep = g_new0 (PointList, clip.n_pairs);
    if (do_vcm && (!quality_vcm (ctx, &c->p, QMETHOD_VCM, &clip, wi, pts, &do_cv_same, QMETHOD_OPENCV_SAME, keep,
                &err)
            || !quality_vcm (ctx, &edge, QMETHOD_VCM_EDGE, &clip, wi, pts, &do_cv_same, QMETHOD_OPENCV_EDGE, NULL,
                &err)
            || !quality_vcm (ctx, &paper, QMETHOD_PAPER, &clip, wi, pts, NULL, -1, NULL, &err))) {
      g_snprintf (quality_note, sizeof (quality_note), "cpu backend: %s", err.message);
      gcvb_n_failures++;
      do_vcm = FALSE;
    }
#ifdef GCVB_HAVE_OPENCV
    if (do_cv) {
      char msg[512];
      if (!quality_opencv (&clip, wi, c->p.max_points, cv, msg, sizeof (msg))) {
        g_strlcpy (quality_note, msg, sizeof (quality_note));
        gcvb_n_failures++;
        do_cv = FALSE;
      }
    }
#else
    (void) do_cv;
#endif
    if (nvq != NULL)
      quality_nvofa (&clip, wi, keep);
    for (int j = 0; j < clip.n_pairs; j++)
      g_free (keep[j].pts);
    g_free (keep);
    clip_clear (&clip);
  }
  quality_ran = TRUE;
  if (ctx)
    gcv_vcm_cpu_free (ctx);
  g_free (pts);
  g_free (cv);
}

static void
print_quality (void)
{
  if (!quality_ran)
    return;
  g_print ("\n== Quality: endpoint error on the synthetic sequences (640x480, %d pairs per photo and warp, "
      "the paper's params) ==\n", quality_pairs ());
  g_print ("EPE = |vector - true vector of the warp at the point|, pixels, at each method's own points (\"opencv "
      "pyrlk, ... pts\": OpenCV's LK at the points of the first (vcm's pts) or second (edge pts) VCM rows); OpenCV: "
      "status 1 only, tracked %% of its corners or of VCM's points\n");
  g_print ("%-24s %-24s %9s %9s %9s %9s %10s %10s\n", "method", "warp", "median", "p90", "mean", "pts/pair",
      "tracked %", "ms/pair");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------\n");
  for (int m = 0; m < N_QMETHODS; m++)
    for (int wi = 0; wi <= n_warps; wi++) {
      QAcc *q = &qacc[m * (n_warps + 1) + wi];
      VcmEpeStats s = epe_stats (q->epe);
      char a[32], b[32], cc[32], d[32], e[32];
      double *ms;
      if (q->pairs == 0)
        continue;
      ms = g_memdup2 (q->ms->data, sizeof (double) * MAX (q->ms->len, 1));
      gcvb_fmt_num (a, sizeof (a), s.median, "%.3f");
      gcvb_fmt_num (b, sizeof (b), s.p90, "%.3f");
      gcvb_fmt_num (cc, sizeof (cc), s.mean, "%.3f");
      gcvb_fmt_num (d, sizeof (d), m >= QMETHOD_OPENCV && q->corners > 0 ? 100 * q->points / q->corners : NAN, "%.1f");
      gcvb_fmt_num (e, sizeof (e), q->ms->len ? gcvb_median (ms, q->ms->len) : NAN, "%.3f");
      g_print ("%-24s %-24s %9s %9s %9s %9.0f %10s %10s\n", qmethod_names[m], wi == n_warps ? "all" : warps[wi].name,
          a, b, cc, q->points / q->pairs, d, e);
      g_free (ms);
    }
  for (int i = 0; i < n_nvq; i++) {
    const NvofaQ *q = &nvq[i];
    for (int kind = 0; kind < 2; kind++)
      for (int wi = 0; wi <= n_warps; wi++) {
        const GcvbEpe *e = kind ? &q->at_pts[wi] : &q->cells[wi];
        char name[48], a[32], b[32], cc[32];
        if (q->pairs[wi] == 0)
          continue;
        g_snprintf (name, sizeof (name), "nvofa g%d %s, %s", q->grid, gcvb_nvof_perf_name (q->perf),
            kind ? "vcm's pts" : "all cells");
        gcvb_fmt_num (a, sizeof (a), gcvb_epe_quantile (e, 0.5), "%.3f");
        gcvb_fmt_num (b, sizeof (b), gcvb_epe_quantile (e, 0.9), "%.3f");
        gcvb_fmt_num (cc, sizeof (cc), gcvb_epe_mean (e), "%.3f");
        g_print ("%-24s %-24s %9s %9s %9s %9.0f %10s %10s  %s\n", name, wi == n_warps ? "all" : warps[wi].name, a, b,
            cc, (double) e->n / q->pairs[wi], "-", "-", gcvb_epe_reversed_note (e));
      }
    if (q->why[0])
      g_print ("%-24s nvofa g%d %s: %s\n", "", q->grid, gcvb_nvof_perf_name (q->perf), q->why);
  }
  if (n_nvq > 0)
    g_print ("nvofa: NVIDIA's optical-flow engine, S10.5 vectors, one per g x g cell; all cells: every cell whose "
        "centre moved by the\ntrue vector stays in the frame; vcm's pts: at the points of the first row, the vector "
        "of the cell holding each.\n");
  if (quality_note[0])
    g_print ("note: %s\n", quality_note);
  g_print ("targets (issue 7): VCM median <= 0.5 px, p90 <= 1.5 px, no worse than OpenCV's pyramidal LK.\n");
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
    /* of our rows only (the peer is another algorithm) */
    if (r->case_i != ci || r->m.skipped || r->kind == ROW_ELEMENT || r->kind == ROW_PEER || r->kind == ROW_NVOFA)
      continue;
    r->x_cpu1 = c1 ? c1->m.ms / r->m.ms : NAN;
    r->x_cpu = ca ? ca->m.ms / r->m.ms : NAN;
  }
}

static void
print_case (int ci)
{
  const Case *c = &cases[ci];
  char pd[256];

  describe_params (pd, sizeof (pd), &c->p);
  g_print ("\n== %s: %s, %dx%d ==\n%s\n", c->name, c->title, c->width, c->height, pd);
  g_print ("%-20s %4s %11s %9s %9s %9s %10s %9s %8s %8s %s\n", "implementation", "thr", "N", "points", "ncm", "vcm",
      "ms/pair", "fps", "x cpu1", "x cpu", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (int kind = 0; kind < ROW_ELEMENT; kind++)
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      char thr[8], nn[32], a[32], b[32], cc[32], ms[32], fps[32], x1[32], xa[32], impl[40];
      if (r->case_i != ci || (int) r->kind != kind)
        continue;
      if (r->m.threads > 0)
        g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
      else
        g_strlcpy (thr, "-", sizeof (thr));
      if (kind == ROW_NVOFA)
        g_snprintf (impl, sizeof (impl), "nvofa %s", r->what);
      else
        g_strlcpy (impl, row_kind_names[kind], sizeof (impl));
      if (r->m.skipped) {
        g_print ("%-20s %4s %11s %9s %9s %9s %10s %9s %8s %8s %s%s\n", impl, thr, "-", "-", "-", "-",
            r->m.failed ? "FAILED" : "-", "-", "-", "-", r->m.failed ? "" : "skipped: ", r->m.note);
        continue;
      }
      if (r->n_min == r->n_max)
        g_snprintf (nn, sizeof (nn), "%d", r->n_min);
      else
        g_snprintf (nn, sizeof (nn), "%d-%d", r->n_min, r->n_max);
      gcvb_fmt_num (a, sizeof (a), r->points_ms, "%.3f");
      gcvb_fmt_num (b, sizeof (b), r->ncm_ms, "%.3f");
      gcvb_fmt_num (cc, sizeof (cc), r->vcm_ms, "%.3f");
      gcvb_fmt_num (ms, sizeof (ms), r->m.ms, "%.3f");
      gcvb_fmt_num (fps, sizeof (fps), r->m.fps, "%.1f");
      gcvb_fmt_num (x1, sizeof (x1), r->x_cpu1, "%.1f");
      gcvb_fmt_num (xa, sizeof (xa), r->x_cpu, "%.1f");
      g_print ("%-20s %4s %11s %9s %9s %9s %10s %9s %8s %8s %" G_GUINT64_FORMAT " runs%s%s\n", impl,
          thr, nn, a, b, cc, ms, fps, x1, xa, r->m.count, r->m.note[0] ? "; " : "", r->m.note);
    }
  g_print ("N: points per pair (min-max over the runs; opencv: tracked; nvofa: vectors, one per cell); points / ncm / "
      "vcm: medians of the\nphases (cuda: events; cpu: wall); nvofa: the optical-flow engine's execute, CUDA events, "
      "frames on the device\n");
  if (ci == 0) {
    const Row *w = find_row (ci, ROW_CUDA_WALL, FALSE), *k = find_row (ci, ROW_CUDA_KERNELS, FALSE);
    g_print ("paper: %s\n", PAPER_WHAT);
    if (w != NULL && k != NULL && !isnan (w->x_cpu1))
      g_print ("ours:  cuda wall %.1fx and cuda kernels %.1fx the 1-thread cpu backend (paper: %.2fx), %.1fx and "
          "%.1fx the all-threads one\n", w->x_cpu1, k->x_cpu1, PAPER_SPEEDUP_8800, w->x_cpu, k->x_cpu);
  }
  g_print ("target (issue 7, H100): <= %.0f ms a frame\n", c->target_ms);
}

static void
print_elements (void)
{
  gboolean any = FALSE;

  for (guint i = 0; i < rows_arr->len; i++)
    any |= g_array_index (rows_arr, Row, i).kind == ROW_ELEMENT;
  if (!any)
    return;
  gcvb_print_element_table_head (10);
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->kind == ROW_ELEMENT)
      gcvb_print_element_table_row (cases[r->case_i].name, r->what, 10, &r->m);
  }
  g_print ("frames: the timing sequences back to back (a cut between sequences); upload / compute / download / "
      "total: the element's stats.\n");
}

/* ------------------------------------------------------------------------ */
/* JSON */

static GString *
results_json (void)
{
  char what[160] = "";
  double peak = device_int_peak (what, sizeof (what));
  GString *s = gcvb_json_begin (&host, "vcm", TRUE, "opencv",
#ifdef GCVB_HAVE_OPENCV
      gcvb_opencv_lk_version ()
#else
      NULL
#endif
      );

  g_string_append_printf (s, "  \"config\": {\"gpu_runs\": %d, \"warmup\": %d, \"cpu_max_runs\": %d, "
      "\"cpu_budget_s\": ", opt.runs, opt.warmup, cpu_max_runs ());
  gcvb_json_num (s, cpu_budget_s ());
  g_string_append_printf (s, ", \"cpu_threads\": %d, \"sequences\": %d, \"sequence_frames\": %d, "
      "\"quality_pairs\": %d, \"element_frames\": %d, \"element_cpu_frames\": %d, \"queue\": %d, \"device\": %d, "
      "\"quick\": %s, \"opencv\": {\"max_corners\": \"max_points\", \"quality_level\": %g, \"min_distance\": %g, "
      "\"win_size\": %d, \"pyramid_levels\": %d}, \"int_peak_ops\": ", gcvb_cpu_threads (opt_cpu_threads), opt.variants, SEQ_FRAMES,
      quality_pairs (), opt.frames, opt.cpu_frames ? opt.cpu_frames : 5, opt.queue, opt.device,
      opt.quick ? "true" : "false", CV_QUALITY, CV_MIN_DIST, CV_WIN, CV_MAX_LEVEL + 1);
  gcvb_json_num (s, peak > 0 ? peak : NAN);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "int_peak_assumed"), gcvb_json_str (s, what);
  gcvb_json_nvof (s, &nvof, nvofa_grids, n_nvofa_grids, nvofa_perfs, n_nvofa_perfs);
  g_string_append (s, "},\n  \"paper\": {\"speedup_8800gts512\": ");
  gcvb_json_num (s, PAPER_SPEEDUP_8800);
  g_string_append (s, ", \"speedup_8600mgt\": "), gcvb_json_num (s, PAPER_SPEEDUP_8600);
  g_string_append (s, ", \"frame_ms_sequential_loading\": "), gcvb_json_num (s, PAPER_FRAME_MS);
  g_string_append (s, ", \"frame_ms_overlapped_loading\": "), gcvb_json_num (s, PAPER_FRAME_OVERLAP_MS);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "what"), gcvb_json_str (s, PAPER_WHAT);
  g_string_append (s, "},\n  \"cases\": [\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    const Limit *l = &limits[ci];
    g_string_append_printf (s, "    {\"name\": \"%s\", \"ran\": %s, \"width\": %d, \"height\": %d, \"params\": ",
        c->name, case_ran[ci] ? "true" : "false", c->width, c->height);
    json_params (s, &c->p);
    g_string_append (s, ", \"target_ms\": "), gcvb_json_num (s, c->target_ms);
    g_string_append (s, ", \"limits\": ");
    if (l->have) {
      double mem_ms = host.cuda.available && host.cuda.copy_gbps > 0 ? l->bytes / (host.cuda.copy_gbps * 1e9) * 1e3 :
          NAN;
      g_string_append_printf (s, "{\"points\": %d, \"neighbours\": ", l->n);
      gcvb_json_num (s, l->neighbours);
      g_string_append (s, ", \"bytes\": "), gcvb_json_num (s, l->bytes);
      g_string_append (s, ", \"int_ops\": "), gcvb_json_num (s, l->ops);
      g_string_append (s, ", \"int_ops_points\": "), gcvb_json_num (s, l->ops_points);
      g_string_append (s, ", \"int_ops_ncm\": "), gcvb_json_num (s, l->ops_ncm);
      g_string_append (s, ", \"int_ops_vcm\": "), gcvb_json_num (s, l->ops_vcm);
      g_string_append (s, ", \"fp64_div_sqrt\": "), gcvb_json_num (s, l->ncc_fp64);
      g_string_append (s, ", \"mem_limit_ms\": "), gcvb_json_num (s, mem_ms);
      g_string_append (s, ", \"int_limit_ms\": "), gcvb_json_num (s, peak > 0 ? l->ops / peak * 1e3 : NAN);
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
    g_string_append (s, "    {");
    GCVB_JKEY (s, "case"), gcvb_json_str (s, cases[r->case_i].name);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "kind"), gcvb_json_str (s, row_kind_names[r->kind]);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "implementation"), gcvb_json_str (s, r->kind == ROW_ELEMENT ? r->what : row_kind_names[r->kind]);
    g_string_append (s, ", \"width\": ");
    gcvb_json_num (s, cases[r->case_i].width);
    g_string_append (s, ", \"height\": ");
    gcvb_json_num (s, cases[r->case_i].height);
    g_string_append (s, ", \"params\": ");
    if (r->kind == ROW_NVOFA)
      g_string_append_printf (s, "{\"grid\": %d, \"perf\": \"%s\"}", r->grid, gcvb_nvof_perf_name (r->perf));
    else
      json_params (s, &cases[r->case_i].p);
    gcvb_json_measurement (s, &r->m);
    g_string_append (extra, ", \"units\": \"ms per frame pair\", \"points_ms\": ");
    gcvb_json_num (extra, r->points_ms);
    g_string_append (extra, ", \"ncm_ms\": "), gcvb_json_num (extra, r->ncm_ms);
    g_string_append (extra, ", \"vcm_ms\": "), gcvb_json_num (extra, r->vcm_ms);
    g_string_append (extra, ", \"n_points_median\": "), gcvb_json_num (extra, r->n_med);
    g_string_append (extra, ", \"n_points_min\": "), gcvb_json_num (extra, r->m.count ? r->n_min : NAN);
    g_string_append (extra, ", \"n_points_max\": "), gcvb_json_num (extra, r->m.count ? r->n_max : NAN);
    g_string_append (extra, ", \"speedup_over_cpu_1_thread\": "), gcvb_json_num (extra, r->x_cpu1);
    g_string_append (extra, ", \"speedup_over_cpu_all_threads\": "), gcvb_json_num (extra, r->x_cpu);
    g_string_append (extra, ", \"wall_ms\": "), gcvb_json_num (extra, r->wall_ms);
    gcvb_json_row_end (s, &r->m, "mismatch_records", extra->str, i + 1 == rows_arr->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ],\n  \"quality\": [\n");
  if (quality_ran) {
    gboolean first = TRUE;
    for (int m = 0; m < N_QMETHODS; m++)
      for (int wi = 0; wi <= n_warps; wi++) {
        QAcc *q = &qacc[m * (n_warps + 1) + wi];
        VcmEpeStats e = epe_stats (q->epe);
        double *ms;
        if (q->pairs == 0)
          continue;
        g_string_append_printf (s, "%s    {", first ? "" : ",\n");
        GCVB_JKEY (s, "method"), gcvb_json_str (s, qmethod_names[m]);
        g_string_append (s, ", ");
        GCVB_JKEY (s, "warp"), gcvb_json_str (s, wi == n_warps ? "all" : warps[wi].name);
        if (wi < n_warps)
          g_string_append_printf (s, ", \"warp_params\": {\"tx\": %g, \"ty\": %g, \"angle_deg\": %g, \"scale\": %g}",
              warps[wi].tx, warps[wi].ty, warps[wi].angle_deg, warps[wi].scale);
        g_string_append_printf (s, ", \"width\": 640, \"height\": 480, \"pairs\": %d, \"vectors\": %d, "
            "\"units\": \"pixels\", \"epe_median\": ", q->pairs, e.n);
        gcvb_json_num (s, e.median);
        g_string_append (s, ", \"epe_p90\": "), gcvb_json_num (s, e.p90);
        g_string_append (s, ", \"epe_mean\": "), gcvb_json_num (s, e.mean);
        g_string_append (s, ", \"points_per_pair\": "), gcvb_json_num (s, q->points / q->pairs);
        g_string_append (s, ", \"corners_per_pair\": "), gcvb_json_num (s, m >= QMETHOD_OPENCV ? q->corners / q->pairs : NAN);
        ms = g_memdup2 (q->ms->data, sizeof (double) * MAX (q->ms->len, 1));
        g_string_append (s, ", \"ms_per_pair_median\": "), gcvb_json_num (s, q->ms->len ? gcvb_median (ms,
                q->ms->len) : NAN);
        g_free (ms);
        g_string_append (s, "}");
        first = FALSE;
      }
    for (int i = 0; i < n_nvq; i++)
      for (int kind = 0; kind < 2; kind++)
        for (int wi = 0; wi <= n_warps; wi++) {
          const NvofaQ *q = &nvq[i];
          const GcvbEpe *e = kind ? &q->at_pts[wi] : &q->cells[wi];
          if (q->pairs[wi] == 0)
            continue;
          g_string_append_printf (s, "%s    {\"method\": \"nvofa g%d %s, %s\", \"params\": {\"grid\": %d, "
              "\"perf\": \"%s\"}, ", first ? "" : ",\n", q->grid, gcvb_nvof_perf_name (q->perf),
              kind ? "vcm's pts" : "all cells", q->grid, gcvb_nvof_perf_name (q->perf));
          GCVB_JKEY (s, "warp"), gcvb_json_str (s, wi == n_warps ? "all" : warps[wi].name);
          g_string_append_printf (s, ", \"width\": 640, \"height\": 480, \"pairs\": %d, \"vectors\": %"
              G_GUINT64_FORMAT ", \"units\": \"pixels\", \"epe_median\": ", q->pairs[wi], e->n);
          gcvb_json_num (s, gcvb_epe_quantile (e, 0.5));
          g_string_append (s, ", \"epe_p90\": "), gcvb_json_num (s, gcvb_epe_quantile (e, 0.9));
          g_string_append (s, ", \"epe_mean\": "), gcvb_json_num (s, gcvb_epe_mean (e));
          g_string_append (s, ", \"epe_mean_against_negated_truth\": ");
          gcvb_json_num (s, e->n ? e->sum_reversed / e->n : NAN);
          g_string_append (s, ", \"points_per_pair\": "), gcvb_json_num (s, (double) e->n / q->pairs[wi]);
          g_string_append (s, "}");
          first = FALSE;
        }
    g_string_append (s, first ? "" : "\n");
  }
  g_string_append (s, "  ]\n}\n");
  return s;
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
  static const char *const known[] = { "paper", "hd", "quality", "elements" };
  GPtrArray *list;
  GcvbPhoto photos[GCVB_N_PHOTOS];
  int n_photos, status;
  gboolean do_elements, do_quality;

  if (!gcvb_init (&argc, &argv, "- benchmark cudavcm / cpuvcm and the VCM backends (the paper's 640x480 / 2048 "
          "points, 1080p / 8192, OpenCV's pyramidal LK as the peer)\n\n"
          "GPU peer: NVIDIA's optical-flow engine (NVOFA: the Optical Flow SDK's API 3.0 through the driver's "
          "libnvidia-opticalflow.so.1, loaded at run time by nvof-bench, a process of its own), at each output "
          "grid and perf level (--nvofa-grids, --nvofa-perf): time per pair on the cases' pairs and, in the quality "
          "case, the endpoint error of every cell and at VCM's points; a missing library, engine, size or grid is "
          "a skipped row that says why (--skip nvofa)",
          entries, &opt, &quick))
    return 2;
  list = gcvb_split_list (opt_cases, "paper,hd,quality,elements");
  for (guint i = 0; i < list->len; i++) {
    gboolean ok = FALSE;
    for (guint k = 0; k < G_N_ELEMENTS (known); k++)
      ok |= g_ascii_strcasecmp (g_ptr_array_index (list, i), known[k]) == 0;
    if (!ok) {
      g_printerr ("error: unknown case '%s' (paper, hd, quality, elements)\n",
          (const char *) g_ptr_array_index (list, i));
      return 2;
    }
  }
  if (opt_cpu_threads < 0 || opt_quality_pairs < 0 || opt_quality_pairs > 30 || opt.variants < 1) {
    g_printerr ("error: --cpu-threads must be >= 0, --quality-pairs 1 .. 30, --sequences >= 1\n");
    return 2;
  }
  do_elements = case_on (list, "elements");
  do_quality = case_on (list, "quality");
  cases_init ();
  {
    int a = 0, b = 0;
    if (sscanf (opt_ppw ? opt_ppw : DEFAULT_PPW, "%d,%d", &a, &b) != 2) {
      g_printerr ("error: --points-per-window wants two numbers, P,H\n");
      return 2;
    }
    cases[0].p.points_per_window = a;
    cases[1].p.points_per_window = b;
  }
  for (int ci = 0; ci < N_CASES; ci++) {
    const char *bad = gcv_vcm_params_check (&cases[ci].p);
    if (bad != NULL) {
      g_printerr ("error: case %s: %s\n", cases[ci].name, bad);
      return 1;
    }
  }
  n_warps = vcm_test_standard_warps (&warps);
  rows_arr = g_array_sized_new (FALSE, FALSE, sizeof (Row), MAX_ROWS);
  gcvb_host_init (&host, "bench-vcm", &opt, do_elements, "cpuvcm", TRUE);

  gcvb_print_host (&host, opt.device, "cuda backend and cudavcm rows");
  g_print ("GStreamer:  %s\n", gst_version_string ());
  if (do_elements)
    g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file :
        "no cpuvcm found (the element rows are skipped)");
#ifdef GCVB_HAVE_OPENCV
  g_print ("Peer:       OpenCV %s goodFeaturesToTrack (maxCorners = max points, quality %.2f, minDistance %.0f) + "
      "calcOpticalFlowPyrLK (%dx%d, %d levels)\n", gcvb_opencv_lk_version (), CV_QUALITY, CV_MIN_DIST, CV_WIN, CV_WIN,
      CV_MAX_LEVEL + 1);
#else
  g_print ("Peer:       OpenCV not built in (no opencv4 with the video module at configure time)\n");
#endif
  gcvb_nvof_peer (opt.device, gcvb_skipped (&opt, "nvofa"), &nvof);
  if (!gcvb_nvof_configs (&nvof, opt_nvofa_grids, opt_nvofa_perf, nvofa_grids, &n_nvofa_grids, nvofa_perfs,
          &n_nvofa_perfs))
    return 2;
  g_print ("Timing:     GPU %d pairs after %d warm-up; CPU and OpenCV at most %d runs within %.0f s a row; CPU "
      "%d threads and 1%s\n", opt.runs, MAX (opt.warmup, 1), cpu_max_runs (), cpu_budget_s (), gcvb_cpu_threads (opt_cpu_threads),
      opt.quick ? " [--quick: rough numbers]" : "");

  n_photos = gcvb_load_photos (&opt, "GRAY8", 1, photos);
  if (n_photos == 0)
    return 1;
  g_print ("Frames:     %d sequences of %d frames (photo, warp): ", opt.variants, SEQ_FRAMES);
  for (int s = 0; s < opt.variants; s++)
    g_print ("%s%s %s", s ? ", " : "", photos[s % n_photos].name, warps[s % n_warps].name);
  g_print ("; rendered by tests/vcm_reference.h (bicubic warp of the magnified photo)\n");

  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    gboolean timed = case_on (list, c->name);
    Clip clip;
    if (!timed && !do_elements)
      continue;
    clip_init (&clip, c->width, c->height, photos, n_photos, opt.variants, SEQ_FRAMES, -1);
    if (timed) {
      g_printerr ("%s (%dx%d):\n", c->name, c->width, c->height);
      if (!gcvb_skipped (&opt, "cpu")) {
        bench_cpu (ci, &clip, 0);
        if (!gcvb_skipped (&opt, "cpu1"))
          bench_cpu (ci, &clip, 1);
      }
      if (gcvb_gpu_enabled (&opt))
        bench_cuda (ci, &clip);
      if (!gcvb_skipped (&opt, "nvofa"))
        bench_nvofa (ci, &clip);
      if (!gcvb_skipped (&opt, "opencv")) {
        bench_opencv (ci, &clip, 0);
        if (!gcvb_skipped (&opt, "cpu1"))
          bench_opencv (ci, &clip, 1);
      }
      check_case (ci);
      speedups (ci);
      limits_case (ci);
      case_ran[ci] = TRUE;
    }
    if (do_elements) {
      if (gcvb_gpu_enabled (&opt))
        bench_element (ci, &clip, TRUE);
      if (!gcvb_skipped (&opt, "cpu"))
        bench_element (ci, &clip, FALSE);
    }
    clip_clear (&clip);
  }
  if (do_quality) {
    g_printerr ("quality (640x480):\n");
    run_quality (photos, n_photos);
  }

  for (int ci = 0; ci < N_CASES; ci++)
    if (case_ran[ci])
      print_case (ci);
  print_limits ();
  print_quality ();
  print_elements ();
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (), &opt, "bench-vcm.json");

  for (int ci = 0; ci < N_CASES; ci++) {
    g_free (ref_points[ci].pts);
    g_free (gpu_points[ci].pts);
  }
  if (qacc != NULL) {
    for (int i = 0; i < N_QMETHODS * (n_warps + 1); i++) {
      g_array_unref (qacc[i].epe);
      g_array_unref (qacc[i].ms);
    }
    g_free (qacc);
  }
  for (int i = 0; i < n_nvq; i++) {
    for (int wi = 0; wi <= n_warps; wi++) {
      gcvb_epe_clear (&nvq[i].cells[wi]);
      gcvb_epe_clear (&nvq[i].at_pts[wi]);
    }
    g_free (nvq[i].cells);
    g_free (nvq[i].at_pts);
    g_free (nvq[i].pairs);
  }
  g_free (nvq);
  gcvb_photos_clear (photos, n_photos);
  g_array_free (rows_arr, TRUE);
  g_ptr_array_unref (list);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
