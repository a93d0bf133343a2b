/* gst-cuda-video: block-matching motion estimation benchmark
 * (cudamotionest / cpumotionest, the contract of cpu/motionest.h).
 *
 *   bench-motionest [--quick] [--cases hd,sd,mods,codec,elements,pictures]
 *       [--cpu-budget S] [--quality-pairs N] [--runs N] [--skip LIST]
 *       [--ffmpeg-libdir DIR] [--nvofa-grids LIST] [--nvofa-perf LIST]
 *       [--pictures DIR] [--json FILE]
 *
 * Cases (the issue's, from paper 004 and paper 003):
 * 1. hd: the paper's HD case: 1920x1080, 96x54 blocks (20 x 20 = 400),
 *    +-96 x +-54 pixels at half-pel, full search (paper 004: 7.23 s on one
 *    Tesla C1060, 8025 s on one Xeon E5520 core).
 * 2. sd: 720x480, 36x24 blocks (400), +-36 x +-24 (the paper's 72 x 48
 *    window) at half-pel, full search (paper 004: 15 fps on one C1060, 30
 *    fps on two with serial splitting).
 * 3. mods: 640x480, 16x16 macroblocks, MODS with +-64 horizontally as the
 *    paper (paper 003: 128 threads, x = -64 .. 63; ours -64 .. 64) and
 *    range_y 15, which reproduces its vertical steps exactly (0, +-4, +-8,
 *    +-12, then +-2, then +-1: reach 15); full search on the same window,
 *    and full search on +-64 x +-64 (FFmpeg's square window) for the peer.
 * 4. codec: 1920x1080, 16x16, +-32 x +-32 integer full search (target: >=
 *    1000 fps on an H100).
 *
 * Rows per case (and per method of the case):
 *  - cuda search: CUDA events around gcv_motion_cuda_search on frames
 *    already on the device (the search copies its device frame into the
 *    context, a device-to-device copy of a few microseconds, and queues
 *    the download of its vectors, 20 bytes a block, into page-locked
 *    memory: both are inside); cuda up+search+down: events from before
 *    the bench's upload of the next frame (gcv_cuda_upload_2d from the
 *    clip's pageable rows, the driver's staging included) to the end of
 *    the search; cuda wall: host clock per pair, the upload call to the
 *    return of the stream's synchronisation.  Medians of --runs pairs
 *    after --warmup.  The frames rotate (each pair is a new frame against
 *    the previous one, as in a stream).
 *  - cpu backend, all threads and 1 thread: wall clock around
 *    gcv_motion_cpu_process, within --cpu-budget a row.  Full search costs
 *    exactly (valid candidates x block pixels) SAD operations, counted
 *    here from the validity rule of the contract; a row first runs on a
 *    band of whole block rows at the bottom of the frames (edge rows
 *    included) and, when a full frame would not fit the budget, reports
 *    the band's time scaled by full-frame work / band work ("extrapolated",
 *    the note says from which band).  The band's first output is the
 *    reference for the check.
 *  - check: the CUDA backend's vectors for the same pair and band as the
 *    CPU reference: records (x, y, dx, dy, sad) that differ (0 by
 *    contract).
 *  - FFmpeg's mestimate filter (libavfilter, one thread), methods esa
 *    (exhaustive), epzs and umh, mb_size 16, search_param = the case's
 *    range, in one process, on the same frames (cases mods and codec:
 *    mestimate has square power-of-two blocks and whole pixels only).  See
 *    "FFmpeg" below for how its vectors map onto ours.
 *  - elements: appsrc ! cudamotionest|cpumotionest ! fakesink, GRAY8,
 *    wall clock per frame and the element's stats; with two or more GPUs
 *    also devices="0,1" split=parallel and split=serial.
 *  - multi-GPU (two or more devices): one device against two, backend
 *    level, the clip's frames page-locked once (as the element's pinned
 *    pool gives them).  Each context has its device (made current before
 *    its calls), a stream for its searches and one for its uploads, and
 *    --multi-depth pairs in flight (default 3; a slot of device planes,
 *    vectors and events each), the host waiting only for a context's
 *    oldest pair when it needs that slot, so the next pairs' uploads run
 *    during the search.  Rows: "1 gpu" (one context, upload, search and
 *    wait pair after pair, on one stream: the reference), "1 gpu,
 *    pipelined" (one context, pairs in flight), "1 gpu, 2 contexts"
 *    (serial splitting on one device: what overlap alone gives), parallel
 *    splitting (every frame to devices 0 and 1, block rows split in half)
 *    and serial splitting (pair i to device i % 2, which receives both of
 *    its frames); wall clock per pair and the speedups over both one-GPU
 *    rows.  Vectors are compared with the single-device ones.
 *  - nvofa (the GPU peer): NVIDIA's optical-flow engine (NVOFA, the
 *    Optical Flow SDK through the driver's libnvidia-opticalflow.so.1, run
 *    by nvof-bench in a process of its own: bench_nvof.c, nvof_bench.c) at
 *    each output grid it offers (1, 2, 4; 8 where a later engine does) and
 *    perf level (slow, medium, fast), on the case's frames: all of them
 *    uploaded once, the same rotation of pairs as the cuda rows (input =
 *    frames[i], reference = frames[i + 1]: the flow of P's pixels into C,
 *    as ours), CUDA events around nvOFExecute, the median of --runs after
 *    --warmup, and the host's clock to the end of the execute.  Where the
 *    library, the GPU's engine, the size or the grid is missing, the row is
 *    skipped and says why.  Its quality: below.
 *  - limits: for full search, the SAD operations per second (one |P - C|
 *    accumulated per pixel and candidate; at sub-pel the interpolation
 *    comes on top) against an assumed peak of the device (stated in the
 *    output).
 *
 * Quality (the paper 003 table): per method, the mean SAD of the chosen
 * vectors per 16x16 (or the case's) block and the PSNR of the motion
 * compensated prediction (each block of the previous frame P replaced by
 * the samples of the current frame C at +(dx, dy), the contract's
 * bilinear rule: its error is what the SAD sums), over the blocks of full
 * size, on the quality pairs of each source; on the camera pans also the
 * share of blocks within half a pixel of the true motion and their mean
 * endpoint error against it (EPE).  Our vectors come
 * from the CUDA backend when there is one, else from the CPU backend when
 * that fits in the budget; their SADs are recomputed here and compared
 * with the reported ones.
 *
 * Frames (never flat, never all zero): a clip made of sources, each a
 * short sequence: a camera pan over each test photo (tests/data, luma,
 * magnified to cover the frame with room to move, content moving by a
 * sub-pixel velocity per frame, a different one for each photo, scaled
 * with the frame height; bilinear) and real video (tests/data/vtest-100 ..
 * 103.png, four frames of OpenCV's vtest.avi: people walking past a fixed
 * camera; centre-cropped to the frame, or magnified to cover it first when
 * it is smaller).  The first pair of each source is a lead-in (FFmpeg's
 * temporal predictors need a previous field); the quality pairs are the
 * ones after it.  The timed rows rotate through the whole clip.
 *
 * FFmpeg (built with it when libavfilter is found at configure time,
 * GCVB_HAVE_FFMPEG): libavfilter and libavutil are dlopen'ed at run time
 * (the major versions of the headers; --ffmpeg-libdir DIR to take them
 * from DIR), so that the program starts where they are missing (the GPU
 * host: Debian's libavfilter pulls in ~180 MB of libraries) and the peer's
 * rows say why they are skipped.  The graph is buffer (gray) ! mestimate !
 * buffersink.  mestimate outputs frame k once frame k + 1 is in, with two
 * fields: source -1 (blocks of frame k found in frame k - 1) and source +1
 * (blocks of frame k found in frame k + 1).  Ours is "content of block B
 * of P found in C at +(dx, dy)", blocks tiling P: with P = frame k and C =
 * frame k + 1 that is exactly the source +1 field: its blocks tile frame k
 * (dst_x, dst_y = block centre), and src is where the block is found in
 * frame k + 1, so dx = 4 (src_x - dst_x), dy = 4 (src_y - dst_y) in
 * quarter pixels, and its cost (ff_me_cmp_sad) is our J at integer
 * positions.  Its blocks are the whole 16x16 ones (floor (W / 16) x floor
 * (H / 16)); its candidates stay within +-search_param and inside the
 * frame, so each is valid for us with range = search_param: no method of
 * it can find a smaller SAD than our full search on the same window
 * (codec; mods' "full 64x64") on any block ("beat full" counts blocks
 * where one did: must be 0), and esa finds the same SADs.  Each output
 * frame costs two fields: ms per field = the measured ms per frame / 2
 * (the table's number; per frame in the JSON).  The first two pushes of
 * each source are untimed.
 *
 * The GPU peer's quality, on the same quality pairs (each source a stream
 * from its lead-in pair, temporal hints off at the lead-in): its vectors
 * are S10.5 pixels, one per g x g cell; "cell EPE" scores every cell of
 * the pans whose centre, moved by the true motion, stays in the frame;
 * then, matched to our grid, a block's vector is the component-wise median
 * of the cells lying wholly in the block (of the case's first variant),
 * rounded to quarter pixels and kept inside the frame, and scored as ours
 * are (EPE and hit% on the pans, mean SAD and PSNR of the prediction on
 * both sources).
 *
 * With --pictures DIR: motionest-pair.png, the frame pair of the video
 * (vtest 102 and 103), the plain difference and the prediction error
 * after full search (16x16, +-16, half-pel), all at half size.
 * scripts/gen-motionest-pictures.sh makes docs/images/motionest-*.png with
 * it and with cpumotionest draw=true.
 *
 * Prints tables and writes the same as JSON (--json FILE).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "motionest.h"
#include "gcv-bench.h"
#include "bench-nvof.h"

#ifndef GCVB_DATA_DIR
#define GCVB_DATA_DIR "tests/data"
#endif
#ifndef GCVB_HAVE_FFMPEG
#define GCVB_HAVE_FFMPEG 0
#endif
#ifndef GCVB_AVFILTER_VERSION
#define GCVB_AVFILTER_VERSION "?"
#endif

#if GCVB_HAVE_FFMPEG
#include <dlfcn.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/motion_vector.h>
#endif

/* ------------------------------------------------------------------------ */
/* the papers' figures */

#define PAPER_HD_MS 7230.0      /* paper 004: one Tesla C1060, one HD pair */
#define PAPER_HD_CPU_MS 8025000.0       /* paper 004: Xeon E5520, one core */
#define PAPER_SD_MS (1000.0 / 15)       /* paper 004: 15 fps on one C1060 */
#define PAPER_SD_2GPU_MS (10100.0 / 300)        /* 10.1 s for 10 s at 30 fps, two C1060, serial */
#define CODEC_TARGET_FPS 1000.0
#define MULTI_TARGET 1.8
#define MULTI_MAX_DEPTH 8       /* --multi-depth */

#define MAX_VARS 3
#define N_PEER_METHODS 3
#define MAX_SOURCES (GCVB_N_PHOTOS + 1)
#define VIDEO_FRAMES 4

static const char *const peer_methods[N_PEER_METHODS] = { "esa", "epzs", "umh" };

/* content motion of the pans, pixels per frame at 480 lines (scaled with
 * the height): quarter-pixel fractions, every direction */
static const double pan_velocity[GCVB_N_PHOTOS][2] = {
  {2.25, 0.75}, {-1.75, 1.25}, {1.5, -2.5}, {-2.75, -0.5},
};

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 50, .warmup = 5, .cpu_frames = 0, .runs = 50, .cpu_runs = 0,
  .variants = 4, .queue = 2, .device = 0,
};

/* --quick, for the counts left at their defaults */
static const GcvbOptions quick = {
  .frames = 10, .warmup = 2, .cpu_frames = 1, .runs = 10, .cpu_runs = 3, .variants = 4,
};

static gchar *opt_cases = NULL;
static gchar *opt_pictures = NULL;
static gchar *opt_ffmpeg_libdir = NULL;
static gdouble opt_cpu_budget = -1;     /* s per row; default 10, quick 2 */
static gint opt_quality_pairs = 0;      /* per source; default 2, quick 1 */
static gint opt_cpu_threads = 0;
static gint opt_multi_depth = 3;        /* multi-GPU: pairs in flight per context */
static gchar *opt_nvofa_grids = NULL, *opt_nvofa_perf = NULL;

static GOptionEntry entries[] = {
  {"cases", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
        "Cases, comma-separated: hd, sd, mods, codec, elements, pictures (default all but pictures; "
        "pictures also with --pictures)", "LIST"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs,
      "Timed GPU frame pairs per row, median taken (default 50)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup, "GPU warm-up pairs and element warm-up frames (default 5)",
      "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Most timed CPU / FFmpeg runs per row (default 5; fewer by --cpu-budget)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
        "Seconds of timed CPU / FFmpeg runs per row: fewer runs, or a band of the frame extrapolated, where "
        "one is long (default 10, --quick 2)", "S"},
  {"cpu-threads", 0, 0, G_OPTION_ARG_INT, &opt_cpu_threads,
      "Threads of the 'all threads' CPU rows (default 0: one per core)", "N"},
  {"quality-pairs", 0, 0, G_OPTION_ARG_INT, &opt_quality_pairs,
      "Quality frame pairs per source after its lead-in pair (default 2, --quick 1; the video has 2 at most)",
      "N"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames, "Timed frames per cudamotionest row (default 50)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames,
      "Timed frames per cpumotionest row (default 3)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue, "Frames in flight in the element pipelines (default 2)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0; multi-GPU rows use 0 and 1)", "N"},
  {"multi-depth", 0, 0, G_OPTION_ARG_INT, &opt_multi_depth,
      "Multi-GPU rows: frame pairs in flight per context, 1 .. 8 (default 3)", "N"},
  {"ffmpeg-libdir", 0, 0, G_OPTION_ARG_FILENAME, &opt_ffmpeg_libdir,
      "Directory of libavfilter.so.N / libavutil.so.N (default: the dynamic linker's search)", "DIR"},
  {"pictures", 0, 0, G_OPTION_ARG_FILENAME, &opt_pictures,
      "Write the docs picture motionest-pair.png into DIR", "DIR"},
  GCVB_NVOF_OPTION_ENTRIES (opt_nvofa_grids, opt_nvofa_perf),
  GCVB_OPTION_ENTRIES (opt, "bench-motionest.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
        "Parts to skip, comma-separated: gpu (or cuda), cpu, cpu1 (the 1-thread rows), nvofa (the GPU peer), ffmpeg, "
        "esa, epzs, umh, "
        "multi, check, quality", "LIST"},
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
  return opt.cpu_runs ? opt.cpu_runs : 5;
}

static int
quality_pairs (void)
{
  return opt_quality_pairs > 0 ? opt_quality_pairs : opt.quick ? 1 : 2;
}

/* ------------------------------------------------------------------------ */
/* cases */

typedef struct {
  char label[32];               /* "full", "mods", "full 64x64" */
  GcvMotionParams p;
} Variant;

typedef struct {
  const char *name, *title;
  int width, height;
  int n_vars;
  Variant vars[MAX_VARS];
  int peer_p;                   /* FFmpeg's search_param, 0: no peer */
  int peer_var;                 /* the variant whose window is FFmpeg's, -1 */
  int compare_var;              /* mods: the full search on MODS' window, -1 */
  double paper_ms, paper_cpu_ms, paper_2gpu_ms;
  const char *paper_what;
} Case;

static GcvMotionParams
mparams (int bw, int bh, int rx, int ry, GcvMotionSubpel subpel, GcvMotionMethod method)
{
  GcvMotionParams p;

  memset (&p, 0, sizeof (p));
  p.block_width = bw;
  p.block_height = bh;
  p.range_x = rx;
  p.range_y = ry;
  p.subpel = subpel;
  p.method = method;
  p.zero_threshold = 0;
  return p;
}

#define N_CASES 4
static Case cases[N_CASES];

static void
cases_init (void)
{
  Case *c;

  memset (cases, 0, sizeof (cases));
  c = &cases[0];
  c->name = "hd";
  c->title = "the paper's HD case (paper 004)";
  c->width = 1920;
  c->height = 1080;
  c->n_vars = 1;
  g_strlcpy (c->vars[0].label, "full", sizeof (c->vars[0].label));
  c->vars[0].p = mparams (96, 54, 96, 54, GCV_MOTION_SUBPEL_HALF, GCV_MOTION_METHOD_FULL);
  c->peer_var = c->compare_var = -1;
  c->paper_ms = PAPER_HD_MS;
  c->paper_cpu_ms = PAPER_HD_CPU_MS;
  c->paper_2gpu_ms = NAN;
  c->paper_what = "7.23 s on one Tesla C1060; 8025 s on one Xeon E5520 core";

  c = &cases[1];
  c->name = "sd";
  c->title = "720x480 surveillance video (paper 004)";
  c->width = 720;
  c->height = 480;
  c->n_vars = 1;
  g_strlcpy (c->vars[0].label, "full", sizeof (c->vars[0].label));
  c->vars[0].p = mparams (36, 24, 36, 24, GCV_MOTION_SUBPEL_HALF, GCV_MOTION_METHOD_FULL);
  c->peer_var = c->compare_var = -1;
  c->paper_ms = PAPER_SD_MS;
  c->paper_cpu_ms = NAN;
  c->paper_2gpu_ms = PAPER_SD_2GPU_MS;
  c->paper_what = "15 fps on one C1060, 30 fps on two (serial splitting)";

  c = &cases[2];
  c->name = "mods";
  c->title = "MODS +-64 on 640x480 macroblocks (paper 003)";
  c->width = 640;
  c->height = 480;
  c->n_vars = 3;
  g_strlcpy (c->vars[0].label, "mods", sizeof (c->vars[0].label));
  c->vars[0].p = mparams (16, 16, 64, 15, GCV_MOTION_SUBPEL_INTEGER, GCV_MOTION_METHOD_MODS);
  g_strlcpy (c->vars[1].label, "full", sizeof (c->vars[1].label));
  c->vars[1].p = mparams (16, 16, 64, 15, GCV_MOTION_SUBPEL_INTEGER, GCV_MOTION_METHOD_FULL);
  g_strlcpy (c->vars[2].label, "full 64x64", sizeof (c->vars[2].label));
  c->vars[2].p = mparams (16, 16, 64, 64, GCV_MOTION_SUBPEL_INTEGER, GCV_MOTION_METHOD_FULL);
  c->peer_p = 64;
  c->peer_var = 2;
  c->compare_var = 1;
  c->paper_ms = c->paper_cpu_ms = c->paper_2gpu_ms = NAN;
  c->paper_what = "GTX 280: MODS 86-89x faster than MODS on the CPU, 9-20x faster than JMVC's EPZS";

  c = &cases[3];
  c->name = "codec";
  c->title = "codec-style 1080p full search";
  c->width = 1920;
  c->height = 1080;
  c->n_vars = 1;
  g_strlcpy (c->vars[0].label, "full", sizeof (c->vars[0].label));
  c->vars[0].p = mparams (16, 16, 32, 32, GCV_MOTION_SUBPEL_INTEGER, GCV_MOTION_METHOD_FULL);
  c->peer_p = 32;
  c->peer_var = 0;
  c->compare_var = -1;
  c->paper_ms = c->paper_cpu_ms = c->paper_2gpu_ms = NAN;
  c->paper_what = "target: >= 1000 fps on an H100";
}

static const char *
subpel_name (GcvMotionSubpel s)
{
  return s == GCV_MOTION_SUBPEL_QUARTER ? "quarter" : s == GCV_MOTION_SUBPEL_HALF ? "half" : "integer";
}

static const char *
method_name (GcvMotionMethod m)
{
  return m == GCV_MOTION_METHOD_MODS ? "mods" : "full";
}

static void
describe_params (char *buf, size_t len, const GcvMotionParams * p)
{
  g_snprintf (buf, len, "%s %dx%d +-%dx%d %s", method_name (p->method), p->block_width, p->block_height,
      p->range_x, p->range_y, subpel_name (p->subpel));
}

/* The SAD operations (one |P - C| per pixel and candidate) of a full
 * search of a w x h frame: for each block the valid candidates, counted
 * per axis from gcv_motion_candidate_valid's bounds, times its pixels. */
static int
axis_candidates (int pos, int size, int extent, int range, int step)
{
  int lo = MAX (-GCV_MOTION_Q * range, -GCV_MOTION_Q * pos);
  int hi = MIN (GCV_MOTION_Q * range, GCV_MOTION_Q * (extent - size - pos));

  /* lo <= 0 <= hi: the multiples of step in between */
  return hi / step + (-lo) / step + 1;
}

static double
full_work (int width, int height, const GcvMotionParams * p)
{
  int cols = gcv_motion_grid_cols (width, p), rows = gcv_motion_grid_rows (height, p);
  int step = GCV_MOTION_Q / p->subpel;
  double work = 0;

  for (int by = 0; by < rows; by++)
    for (int bx = 0; bx < cols; bx++) {
      int x0, y0, w, h;
      gcv_motion_block_rect (width, height, p, bx, by, &x0, &y0, &w, &h);
      work += (double) axis_candidates (x0, w, width, p->range_x, step)
          * axis_candidates (y0, h, height, p->range_y, step) * w * h;
    }
  return work;
}

/* ------------------------------------------------------------------------ */
/* frames */

typedef enum {
  SRC_PAN,
  SRC_VIDEO,
} SourceKind;

static const char *const source_kind_names[] = { "pan", "video" };

typedef struct {
  char name[48];
  SourceKind kind;
  double vx, vy;                /* pan: content motion, pixels per frame */
  int first, n;                 /* the clip's frames first .. first + n - 1 */
} Source;

/* A pair of the clip, P = frames[p], C = frames[p + 1]. */
typedef struct {
  int source;
  int p;
} Pair;

typedef struct {
  int width, height;
  size_t stride;                /* GST_ROUND_UP_4 (width): GRAY8 buffers as GStreamer lays them out */
  int n;
  guint8 **frames;
  int n_sources;
  Source sources[MAX_SOURCES];
  int n_pairs;                  /* quality pairs */
  Pair pairs[MAX_SOURCES * 16];
} Clip;

typedef struct {
  int width, height;
  guint8 *pixels;               /* packed */
} Gray;

static double
reflect (double u, int n)
{
  double period = 2.0 * (n - 1);

  if (n == 1)
    return 0;
  u = fmod (u, period);
  if (u < 0)
    u += period;
  return u > n - 1 ? period - u : u;
}

static double
bilinear (const Gray * g, double u, double v)
{
  int x0, y0, x1, y1;
  double fx, fy;
  const guint8 *px = g->pixels;

  u = reflect (u, g->width);
  v = reflect (v, g->height);
  x0 = (int) floor (u);
  y0 = (int) floor (v);
  fx = u - x0;
  fy = v - y0;
  x1 = MIN (x0 + 1, g->width - 1);
  y1 = MIN (y0 + 1, g->height - 1);
  return (1 - fy) * ((1 - fx) * px[(size_t) y0 * g->width + x0] + fx * px[(size_t) y0 * g->width + x1])
      + fy * ((1 - fx) * px[(size_t) y1 * g->width + x0] + fx * px[(size_t) y1 * g->width + x1]);
}

/* Frame k of a pan over `photo`: the photo magnified by z (to cover the
 * frame by 30% more), centred, content moved by k (vx, vy) pixels. */
static void
render_pan (const Gray * photo, int w, int h, size_t stride, double vx, double vy, int k, guint8 * dst)
{
  double z = 1.3 * MAX ((double) w / photo->width, (double) h / photo->height);
  double ox = 0.5 * (photo->width * z - w), oy = 0.5 * (photo->height * z - h);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double v = bilinear (photo, (x - k * vx + ox) / z, (y - k * vy + oy) / z);
      dst[(size_t) y * stride + x] = (guint8) CLAMP (lround (v), 0, 255);
    }
}

/* A video frame fitted to w x h: centre crop, magnified first (bilinear)
 * when smaller than the frame. */
static void
render_video (const Gray * f, int w, int h, size_t stride, guint8 * dst)
{
  double z = MAX (1.0, MAX ((double) w / f->width, (double) h / f->height));
  double ox = 0.5 * (f->width * z - w), oy = 0.5 * (f->height * z - h);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (z == 1.0) {
        dst[(size_t) y * stride + x] = f->pixels[(size_t) (y + (int) oy) * f->width + x + (int) ox];
      } else {
        double v = bilinear (f, (x + ox + 0.5) / z - 0.5, (y + oy + 0.5) / z - 0.5);
        dst[(size_t) y * stride + x] = (guint8) CLAMP (lround (v), 0, 255);
      }
    }
}

/* The clip of a case: the video first (so that a budget-cut peer still
 * sees it), then a pan per photo; quality pairs after each lead-in pair. */
static void
clip_init (Clip * clip, int w, int h, const Gray * photos, const char *const *photo_names, int n_photos,
    const Gray * video, int n_video)
{
  int q = quality_pairs (), idx = 0;
  double scale = h / 480.0;

  memset (clip, 0, sizeof (*clip));
  clip->width = w;
  clip->height = h;
  clip->stride = GST_ROUND_UP_4 (w);
  clip->n_sources = 0;
  clip->n = (n_video >= 3 ? MIN (q, n_video - 2) + 2 : 0) + n_photos * (MIN (q, 14) + 2);
  clip->frames = g_new0 (guint8 *, clip->n);
  for (int i = 0; i < clip->n; i++)
    clip->frames[i] = g_malloc0 (clip->stride * h);
  if (n_video >= 3) {
    Source *s = &clip->sources[clip->n_sources++];
    g_strlcpy (s->name, "video vtest", sizeof (s->name));
    s->kind = SRC_VIDEO;
    s->first = idx;
    s->n = MIN (q, n_video - 2) + 2;
    for (int k = 0; k < s->n; k++)
      render_video (&video[k], w, h, clip->stride, clip->frames[idx++]);
  }
  for (int i = 0; i < n_photos; i++) {
    Source *s = &clip->sources[clip->n_sources++];
    g_snprintf (s->name, sizeof (s->name), "pan %s", photo_names[i]);
    s->kind = SRC_PAN;
    s->vx = pan_velocity[i % GCVB_N_PHOTOS][0] * scale;
    s->vy = pan_velocity[i % GCVB_N_PHOTOS][1] * scale;
    s->first = idx;
    s->n = MIN (q, 14) + 2;
    for (int k = 0; k < s->n; k++)
      render_pan (&photos[i], w, h, clip->stride, s->vx, s->vy, k, clip->frames[idx++]);
  }
  for (int si = 0; si < clip->n_sources; si++)
    for (int k = 1; k + 1 < clip->sources[si].n; k++) {
      Pair *pr = &clip->pairs[clip->n_pairs++];
      pr->source = si;
      pr->p = clip->sources[si].first + k;
    }
}

static void
clip_clear (Clip * clip)
{
  for (int i = 0; i < clip->n; i++)
    g_free (clip->frames[i]);
  g_free (clip->frames);
  memset (clip, 0, sizeof (*clip));
}

static GcvPlane
clip_plane (const Clip * clip, int frame, int y0, int h)
{
  GcvPlane pl = { clip->frames[frame] + (size_t) y0 * clip->stride, clip->width, h, clip->stride };
  return pl;
}

/* Decodes a PNG to GRAY8 with GStreamer (pngdec ! videoconvert). */
static gboolean
load_gray (const char *path, Gray * g, GError ** error)
{
  GstElement *pipe, *src, *sink;
  GstSample *sample;
  gboolean ok = FALSE;

  pipe = gst_parse_launch ("filesrc name=src ! pngdec ! videoconvert ! video/x-raw,format=GRAY8 ! "
      "appsink name=sink sync=false", error);
  if (pipe == NULL)
    return FALSE;
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (src, "location", path, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  if (sample != NULL) {
    GstVideoInfo info;
    GstVideoFrame frame;
    if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
        && gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
      g->width = GST_VIDEO_INFO_WIDTH (&info);
      g->height = GST_VIDEO_INFO_HEIGHT (&info);
      g->pixels = g_malloc ((size_t) g->width * g->height);
      for (int y = 0; y < g->height; y++)
        memcpy (g->pixels + (size_t) y * g->width,
            (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) + (size_t) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame,
                0), g->width);
      gst_video_frame_unmap (&frame);
      ok = TRUE;
    }
    gst_sample_unref (sample);
  }
  if (!ok)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: cannot decode", path);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* vectors: SAD, prediction error, quality */

/* J (the contract's SAD) and the squared error of a block at (dx, dy). */
static void
block_error (const guint8 * P, const guint8 * C, size_t stride, int x0, int y0, int w, int h, int dx, int dy,
    guint64 * sad, guint64 * sse)
{
  guint64 s = 0, q = 0;

  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++) {
      int d = P[(size_t) y * stride + x] - gcv_motion_sample (C, stride, GCV_MOTION_Q * x + dx,
          GCV_MOTION_Q * y + dy);
      s += (guint64) ABS (d);
      q += (guint64) (d * d);
    }
  *sad = s;
  *sse = q;
}

typedef struct {
  int pairs;
  double sad;                   /* summed over the full-size blocks */
  gint64 blocks;
  double sse;
  gint64 pixels;
  gint64 hits;                  /* pan: within half a pixel of the true motion */
  gint64 pan_blocks;
  double epe;                   /* pan: endpoint errors summed, pixels */
  gint64 sad_mismatch;          /* reported SAD != recomputed */
  gint64 invalid;               /* vectors the contract would not allow */
  gint64 beat_full;             /* peer: blocks with a smaller SAD than our full search's */
} QStat;

static void
qstat_add (QStat * a, const QStat * b)
{
  a->pairs += b->pairs;
  a->sad += b->sad;
  a->blocks += b->blocks;
  a->sse += b->sse;
  a->pixels += b->pixels;
  a->hits += b->hits;
  a->pan_blocks += b->pan_blocks;
  a->epe += b->epe;
  a->sad_mismatch += b->sad_mismatch;
  a->invalid += b->invalid;
  a->beat_full += b->beat_full;
}

static double
qstat_mean_sad (const QStat * q)
{
  return q->blocks ? q->sad / q->blocks : NAN;
}

static double
qstat_psnr (const QStat * q)
{
  if (q->pixels == 0)
    return NAN;
  if (q->sse == 0)
    return INFINITY;
  return 10 * log10 (255.0 * 255.0 / (q->sse / q->pixels));
}

static double
qstat_hit (const QStat * q)
{
  return q->pan_blocks ? 100.0 * q->hits / q->pan_blocks : NAN;
}

static double
qstat_epe (const QStat * q)
{
  return q->pan_blocks ? q->epe / q->pan_blocks : NAN;
}

/* Statistics of one field over its full-size blocks (bw x bh of p):
 * vectors, cols x rows in raster order; `check` (range for validity);
 * full, when not NULL, our full search's field on the same grid: blocks
 * where v has a smaller SAD are counted. */
static void
field_stats (const Clip * clip, const Pair * pr, const GcvMotionParams * p, const GcvMotionVector * v, int cols,
    int rows, const GcvMotionVector * full, QStat * q)
{
  const Source *src = &clip->sources[pr->source];
  const guint8 *P = clip->frames[pr->p], *C = clip->frames[pr->p + 1];
  int tx = (int) lround (GCV_MOTION_Q * src->vx), ty = (int) lround (GCV_MOTION_Q * src->vy);

  memset (q, 0, sizeof (*q));
  q->pairs = 1;
  for (int i = 0; i < cols * rows; i++) {
    guint64 sad, sse;
    int x0 = v[i].x, y0 = v[i].y, w = p->block_width, h = p->block_height;
    if (x0 + w > clip->width || y0 + h > clip->height)
      continue;
    if (!gcv_motion_candidate_valid (clip->width, clip->height, p, x0, y0, w, h, v[i].dx, v[i].dy)) {
      q->invalid++;
      continue;
    }
    block_error (P, C, clip->stride, x0, y0, w, h, v[i].dx, v[i].dy, &sad, &sse);
    q->sad += sad;
    q->sse += sse;
    q->blocks++;
    q->pixels += (gint64) w * h;
    q->sad_mismatch += sad != v[i].sad;
    if (src->kind == SRC_PAN) {
      q->pan_blocks++;
      q->hits += ABS (v[i].dx - tx) <= 2 && ABS (v[i].dy - ty) <= 2;
      q->epe += hypot ((double) v[i].dx / GCV_MOTION_Q - src->vx, (double) v[i].dy / GCV_MOTION_Q - src->vy);
    }
    if (full != NULL && sad < full[i].sad)
      q->beat_full++;
  }
}

/* ------------------------------------------------------------------------ */
/* results */

typedef enum {
  ROW_CUDA_SEARCH,
  ROW_CUDA_PIPE,
  ROW_CUDA_WALL,
  ROW_CPU,
  ROW_PEER,
  ROW_ELEMENT,
  ROW_MULTI,
  ROW_NVOFA,                    /* the GPU peer */
} RowKind;

static const char *const row_kind_names[] = {
  "cuda search", "cuda up+search+down", "cuda wall", "cpu backend", "ffmpeg", "element", "multi-gpu", "nvofa"
};

typedef struct {
  GcvbResult m;
  RowKind kind;
  int case_i, var_i;            /* var_i -1: the peer */
  char what[48];                /* the peer's method, the element, the split */
  double work;                  /* SAD operations per pair (full search), NAN */
  gboolean extrapolated;
  int band_rows;                /* block rows of the band the CPU row ran on (0: whole frames) */
  double band_frac;             /* band work / full work */
  double frame_ms;              /* peer: per mestimate output frame (two fields) */
  int devices;
  double speedup;               /* multi: over one device */
  double speedup_overlap;       /* multi serial: over "1 gpu, 2 contexts" */
  double speedup_pipelined;     /* multi: over "1 gpu, pipelined" */
  int grid, perf;               /* nvofa */
  double wall_ms;               /* nvofa: host clock per pair, median */
} Row;

/* Of Row, reserved once: row_new hands out pointers into it that callers
 * keep while they add more rows, so it must never be reallocated. */
#define MAX_ROWS 4096
static GArray *rows_arr;
static GcvbHost host;
static GcvbNvof nvof;           /* the GPU peer's engine */
static int nvofa_grids[GCVB_NVOF_MAX_GRIDS], n_nvofa_grids, nvofa_perfs[3], n_nvofa_perfs;
static int n_devices;

static Row *
row_new (RowKind kind, int ci, int vi, const char *what, int threads)
{
  Row r;
  const Case *c = &cases[ci];
  char pd[96] = "";

  memset (&r, 0, sizeof (r));
  if (vi >= 0)
    describe_params (pd, sizeof (pd), &c->vars[vi].p);
  gcvb_result_init (&r.m, kind == ROW_PEER ? "ffmpeg mestimate" : row_kind_names[kind], "%-5s %-20s %s %s%s",
      c->name, kind == ROW_PEER ? "ffmpeg" : row_kind_names[kind], what ? what : "", pd,
      threads == 1 ? " 1 thread" : threads > 1 ? " all threads" : "");
  r.m.threads = threads;
  r.kind = kind;
  r.case_i = ci;
  r.var_i = vi;
  g_strlcpy (r.what, what ? what : "", sizeof (r.what));
  r.work = r.band_frac = r.frame_ms = r.speedup = r.speedup_overlap = r.speedup_pipelined = r.wall_ms = NAN;
  r.devices = kind == ROW_CUDA_SEARCH || kind == ROW_CUDA_PIPE || kind == ROW_CUDA_WALL ? 1 : 0;
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

/* Our fields per case and variant: per quality pair, the vectors (NULL when
 * not computed) and their statistics. */
typedef struct {
  gboolean have;
  char backend[16];
  char note[160];
  GcvMotionVector **fields;     /* [n_stats] */
  QStat *stats;                 /* [n_stats] */
  int *kinds;                   /* [n_stats]: the pair's SourceKind */
  int n_stats;                  /* the clip's quality pairs */
  int cols, rows;
} Fields;

static Fields fields[N_CASES][MAX_VARS];

/* The peer's quality per case and method. */
typedef struct {
  gboolean have;
  QStat by_kind[2];             /* pan, video */
  QStat ours_by_kind[2];        /* our full search (peer_var) on the same pairs */
} PeerQuality;

static PeerQuality peer_quality[N_CASES][N_PEER_METHODS];

/* The check reference: the all-threads CPU row's first output (pair
 * frames[0], frames[1], rows band_y0 .. band_y0 + band_h of the frames). */
typedef struct {
  GcvMotionVector *vec;
  int n;
  int band_y0, band_h;
} CheckRef;

/* ------------------------------------------------------------------------ */
/* CPU backend */

typedef struct {
  GcvMotionCpu *ctx;
  GcvMotionParams params;
  const Clip *clip;
  int y0, h;                    /* the band */
  GcvMotionVector *vec;
  int n_threads;
  GcvMotionVector *first;       /* NULL, or gets the output of call 0 */
  size_t n_vec;
} CpuRun;

static gboolean
cpu_call (gpointer data, int i, char *msg, size_t len)
{
  CpuRun *c = data;
  GcvError err = { 0 };
  GcvPlane cur = clip_plane (c->clip, (i + 1) % c->clip->n, c->y0, c->h);

  if (gcv_motion_cpu_process (c->ctx, &c->params, &cur, c->vec, c->n_threads, &err) != GCV_OK) {
    g_strlcpy (msg, err.message, len);
    return FALSE;
  }
  if (i == 0 && c->first != NULL)
    memcpy (c->first, c->vec, c->n_vec * sizeof (GcvMotionVector));
  return TRUE;
}

/* Times gcv_motion_cpu_process on the band y0 .. y0 + h of the clip's
 * frames (rotating: call i searches frames[i] in frames[i + 1]); r gets
 * ms etc.  first: the output of call 0 (frames[0] -> frames[1]). */
static gboolean
cpu_time_band (const Clip * clip, const GcvMotionParams * p, int y0, int h, int n_threads, double budget_s,
    GcvMotionVector ** first, GcvbResult * r)
{
  GcvError err = { 0 };
  CpuRun c;
  GcvPlane ref;
  gboolean ok = FALSE;

  memset (&c, 0, sizeof (c));
  c.ctx = gcv_motion_cpu_new (clip->width, h, &err);
  if (c.ctx == NULL) {
    gcvb_result_fail (r, "gcv_motion_cpu_new: %s", err.message);
    return FALSE;
  }
  c.params = *p;
  c.clip = clip;
  c.y0 = y0;
  c.h = h;
  c.n_threads = n_threads;
  c.n_vec = (size_t) gcv_motion_grid_cols (clip->width, p) * gcv_motion_grid_rows (h, p);
  c.vec = g_new0 (GcvMotionVector, c.n_vec);
  if (first != NULL)
    c.first = *first = g_new0 (GcvMotionVector, c.n_vec);
  ref = clip_plane (clip, 0, y0, h);
  if (gcv_motion_cpu_set_reference (c.ctx, &ref, &err) != GCV_OK)
    gcvb_result_fail (r, "gcv_motion_cpu_set_reference: %s", err.message);
  else
    ok = gcvb_time_budget (cpu_call, &c, "gcv_motion_cpu_process", cpu_max_runs (), budget_s, NULL, r);
  if (!ok && first != NULL)
    g_clear_pointer (first, g_free);
  gcv_motion_cpu_free (c.ctx);
  g_free (c.vec);
  return ok;
}

/* Block rows of the band a full-search CPU row starts on: enough for the
 * middle one to have its whole vertical range. */
static int
band_rows_of (int height, const GcvMotionParams * p)
{
  int rows = gcv_motion_grid_rows (height, p);

  return MIN (rows, 1 + 2 * ((p->range_y + p->block_height - 1) / p->block_height));
}

/* A CPU backend row.  Full search: the band at the bottom first; whole
 * frames when one fits the budget, else the band's time scaled by the
 * work.  MODS: whole frames.  ref, when not NULL, gets the check
 * reference (call 0's output). */
static void
bench_cpu (int ci, int vi, const Clip * clip, int n_threads, CheckRef * ref)
{
  const Case *c = &cases[ci];
  const GcvMotionParams *p = &c->vars[vi].p;
  int threads = n_threads ? n_threads : gcvb_cpu_threads (opt_cpu_threads);
  Row *r = row_new (ROW_CPU, ci, vi, NULL, threads);
  double budget = cpu_budget_s ();
  GcvMotionVector *first = NULL;

  if (p->method == GCV_MOTION_METHOD_FULL) {
    int rows = gcv_motion_grid_rows (clip->height, p), k = band_rows_of (clip->height, p);
    int y0 = (rows - k) * p->block_height, h = clip->height - y0;
    double work = full_work (clip->width, clip->height, p), band_work = full_work (clip->width, h, p);
    GcvbResult band;

    r->work = work;
    gcvb_result_init (&band, r->m.impl, "%s (band)", r->m.label);
    if (!cpu_time_band (clip, p, y0, h, n_threads, k < rows ? 0.5 * budget : budget, ref ? &first : NULL, &band)) {
      r->m.skipped = r->m.failed = TRUE;
      g_strlcpy (r->m.note, band.note, sizeof (r->m.note));
      return;
    }
    if (ref != NULL) {
      ref->vec = first;
      ref->n = gcv_motion_grid_cols (clip->width, p) * gcv_motion_grid_rows (h, p);
      ref->band_y0 = y0;
      ref->band_h = h;
    }
    if (k < rows && band.ms * work / band_work * 1e-3 > budget) {
      r->m.count = band.count;
      r->m.ms = band.ms * work / band_work;
      r->m.mean_ms = band.mean_ms * work / band_work;
      r->m.fps = 1000.0 / r->m.ms;
      r->extrapolated = TRUE;
      r->band_rows = k;
      r->band_frac = band_work / work;
      gcvb_result_note (&r->m, "EXTRAPOLATED from %d of %d block rows (%dx%d, %.1f%% of the work): %.1f ms x "
          "%.2f", k, rows, clip->width, h, 100 * band_work / work, band.ms, work / band_work);
      if (band.note[0])
        gcvb_result_note (&r->m, "band: %s", band.note);
    } else if (k < rows) {
      if (!cpu_time_band (clip, p, 0, clip->height, n_threads, budget, NULL, &r->m)) {
        print_row_progress (r);
        return;
      }
    } else {
      char label[sizeof (r->m.label)];
      g_strlcpy (label, r->m.label, sizeof (label));
      r->m = band;
      g_strlcpy (r->m.label, label, sizeof (r->m.label));
    }
  } else if (!cpu_time_band (clip, p, 0, clip->height, n_threads, budget, ref ? &first : NULL, &r->m)) {
    return;
  } else if (ref != NULL) {
    ref->vec = first;
    ref->n = gcv_motion_grid_cols (clip->width, p) * gcv_motion_grid_rows (clip->height, p);
    ref->band_y0 = 0;
    ref->band_h = clip->height;
  }
  g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
  r->m.compute_ms = r->m.ms;
  print_row_progress (r);
}

/* Our fields of the quality pairs with the CPU backend (all threads). */
static gboolean
cpu_fields (const Clip * clip, const GcvMotionParams * p, Fields * f, char *msg, size_t len)
{
  GcvError err = { 0 };
  GcvMotionCpu *ctx = gcv_motion_cpu_new (clip->width, clip->height, &err);
  GcvMotionVector *scratch = g_new (GcvMotionVector, (size_t) f->cols * f->rows);
  gboolean ok = ctx != NULL;

  for (int si = 0; ok && si < clip->n_sources; si++) {
    const Source *s = &clip->sources[si];
    GcvPlane pl = clip_plane (clip, s->first, 0, clip->height);
    ok = gcv_motion_cpu_set_reference (ctx, &pl, &err) == GCV_OK;
    for (int k = 1; ok && k < s->n; k++) {
      int pi = -1;
      for (int j = 0; j < clip->n_pairs; j++)
        if (clip->pairs[j].p == s->first + k - 1)
          pi = j;
      pl = clip_plane (clip, s->first + k, 0, clip->height);
      ok = gcv_motion_cpu_process (ctx, p, &pl, pi >= 0 ? (f->fields[pi] =
              g_new (GcvMotionVector, (size_t) f->cols * f->rows)) : scratch, opt_cpu_threads, &err) == GCV_OK;
    }
  }
  if (!ok)
    g_strlcpy (msg, err.message, len);
  if (ctx)
    gcv_motion_cpu_free (ctx);
  g_free (scratch);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* CUDA backend */

#if GCVB_CUDA

/* A device GRAY8 plane for the clip's frames (or bands of them), on the
 * current device; upload_plane queues a host frame's upload into it (from
 * the clip's pageable rows: the driver stages them) and takes its size. */
static GcvStatus
device_plane_new (GcvPlane * dev, const Clip * clip, GcvError * err)
{
  dev->width = clip->width;
  dev->height = clip->height;
  return gcv_cuda_malloc_2d (&dev->data, &dev->stride, (size_t) clip->width, (size_t) clip->height, err);
}

static GcvStatus
upload_plane (GcvPlane * dev, const GcvPlane * host, void *stream, GcvError * err)
{
  dev->width = host->width;
  dev->height = host->height;
  return gcv_cuda_upload_2d (dev->data, dev->stride, host->data, host->stride, (size_t) host->width,
      (size_t) host->height, stream, err);
}

/* Pairs i = 0 .. warmup + runs - 1 of the rotating clip on one context:
 * upload frames[i + 1], search, wait for the stream; the three rows get
 * the medians of the timed pairs. */
static void
bench_cuda (int ci, int vi, const Clip * clip, const CheckRef * ref)
{
  const Case *c = &cases[ci];
  const GcvMotionParams *p = &c->vars[vi].p;
  Row *rs = row_new (ROW_CUDA_SEARCH, ci, vi, NULL, 0);
  Row *rp = row_new (ROW_CUDA_PIPE, ci, vi, NULL, 0);
  Row *rw = row_new (ROW_CUDA_WALL, ci, vi, NULL, 0);
  int cols = gcv_motion_grid_cols (clip->width, p), rows = gcv_motion_grid_rows (clip->height, p);
  int warmup = MAX (opt.warmup, 1), runs = opt.runs;
  GcvMotionVector *vec = NULL;
  double *ts = g_new (double, runs), *tp = g_new (double, runs), *tw = g_new (double, runs);
  GcvCudaEvent *e_up = NULL, *e_s = NULL, *e_end = NULL;
  GcvMotionCuda *ctx = NULL;
  GcvPlane dev[2] = { { NULL, 0, 0, 0 }, { NULL, 0, 0, 0 } };    /* P, C */
  void *stream = NULL;
  GcvError err = { 0 };
  GcvPlane pl;
  double wall0 = 0;

  rs->work = rp->work = rw->work = p->method == GCV_MOTION_METHOD_FULL ?
      full_work (clip->width, clip->height, p) : NAN;
  if (gcv_cuda_set_device (opt.device, &err) != GCV_OK || gcv_cuda_stream_new (&stream, &err) != GCV_OK
      || gcv_cuda_event_new (&e_up, &err) != GCV_OK || gcv_cuda_event_new (&e_s, &err) != GCV_OK
      || gcv_cuda_event_new (&e_end, &err) != GCV_OK || device_plane_new (&dev[0], clip, &err) != GCV_OK
      || device_plane_new (&dev[1], clip, &err) != GCV_OK
      || gcv_cuda_host_alloc ((void **) &vec, sizeof (GcvMotionVector) * cols * rows, &err) != GCV_OK)
    goto fail;
  ctx = gcv_motion_cuda_new (clip->width, clip->height, &err);
  if (ctx == NULL)
    goto fail;
  pl = clip_plane (clip, 0, 0, clip->height);
  if (upload_plane (&dev[0], &pl, stream, &err) != GCV_OK
      || gcv_motion_cuda_set_reference (ctx, &dev[0], stream, &err) != GCV_OK)
    goto fail;
  for (int i = 0; i < warmup + runs; i++) {
    double t0 = gcvb_now_ms ();
    float ms_s, ms_p;
    if (i == warmup)
      wall0 = t0;
    pl = clip_plane (clip, (i + 1) % clip->n, 0, clip->height);
    if (gcv_cuda_event_record (e_up, stream, &err) != GCV_OK || upload_plane (&dev[1], &pl, stream, &err) != GCV_OK
        || gcv_cuda_event_record (e_s, stream, &err) != GCV_OK
        || gcv_motion_cuda_search (ctx, p, &dev[1], 0, -1, vec, stream, &err) != GCV_OK
        || gcv_cuda_event_record (e_end, stream, &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
      goto fail;
    if (i < warmup)
      continue;
    tw[i - warmup] = gcvb_now_ms () - t0;
    if (gcv_cuda_event_elapsed (e_s, e_end, &ms_s, &err) != GCV_OK
        || gcv_cuda_event_elapsed (e_up, e_end, &ms_p, &err) != GCV_OK)
      goto fail;
    ts[i - warmup] = ms_s;
    tp[i - warmup] = ms_p;
  }
  {
    double span = gcvb_now_ms () - wall0;
    Row *all[3] = { rs, rp, rw };
    double *t[3] = { ts, tp, tw };
    for (int k = 0; k < 3; k++) {
      all[k]->m.count = runs;
      all[k]->m.mean_ms = k == 2 ? span / runs : gcvb_mean (t[k], runs);
      all[k]->m.ms = gcvb_median (t[k], runs);
      all[k]->m.fps = 1000.0 / all[k]->m.ms;
      g_strlcpy (all[k]->m.backend, "cuda", sizeof (all[k]->m.backend));
    }
    rs->m.compute_ms = rs->m.ms;
  }

  /* the check: the CPU reference's pair and band on a context of that size */
  if (ref != NULL && ref->vec != NULL && !gcvb_skipped (&opt, "check")) {
    GcvMotionCuda *cc = ref->band_h == clip->height ? ctx : gcv_motion_cuda_new (clip->width, ref->band_h, &err);
    GcvMotionVector *got = g_new0 (GcvMotionVector, ref->n);
    GcvPlane a = clip_plane (clip, 0, ref->band_y0, ref->band_h), b = clip_plane (clip, 1, ref->band_y0,
        ref->band_h);
    if (cc == NULL || upload_plane (&dev[0], &a, stream, &err) != GCV_OK
        || gcv_motion_cuda_set_reference (cc, &dev[0], stream, &err) != GCV_OK
        || upload_plane (&dev[1], &b, stream, &err) != GCV_OK
        || gcv_motion_cuda_search (cc, p, &dev[1], 0, -1, got, stream, &err) != GCV_OK
        || gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
      gcvb_result_note (&rs->m, "check failed: %s", err.message);
      gcvb_n_failures++;
    } else {
      gint64 diff = 0;
      for (int i = 0; i < ref->n; i++)
        diff += memcmp (&got[i], &ref->vec[i], sizeof (GcvMotionVector)) != 0;
      rs->m.mismatch = diff;
      if (diff > 0) {
        gcvb_result_note (&rs->m, "DIFFERS from the cpu backend: %" G_GINT64_FORMAT " of %d blocks", diff, ref->n);
        gcvb_n_failures++;
      }
    }
    if (cc != NULL && cc != ctx)
      gcv_motion_cuda_free (cc);
    g_free (got);
  }
  print_row_progress (rs);
  print_row_progress (rp);
  print_row_progress (rw);
  goto done;
fail:
  gcvb_result_fail (&rs->m, "%s", err.message);
  gcvb_result_skip (&rp->m, "see the cuda search row");
  gcvb_result_skip (&rw->m, "see the cuda search row");
done:
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  if (ctx)
    gcv_motion_cuda_free (ctx);
  gcv_cuda_event_free (e_up);
  gcv_cuda_event_free (e_s);
  gcv_cuda_event_free (e_end);
  if (stream)
    gcv_cuda_stream_free (stream);
  gcv_cuda_free (dev[0].data);
  gcv_cuda_free (dev[1].data);
  gcv_cuda_host_free (vec);
  g_free (ts);
  g_free (tp);
  g_free (tw);
}

static gboolean
cuda_fields (const Clip * clip, const GcvMotionParams * p, Fields * f, char *msg, size_t len)
{
  GcvError err = { 0 };
  GcvMotionCuda *ctx = NULL;
  GcvMotionVector *scratch = g_new (GcvMotionVector, (size_t) f->cols * f->rows);
  GcvPlane dev = { NULL, 0, 0, 0 };
  void *stream = NULL;
  gboolean ok;

  ok = gcv_cuda_set_device (opt.device, &err) == GCV_OK && gcv_cuda_stream_new (&stream, &err) == GCV_OK
      && device_plane_new (&dev, clip, &err) == GCV_OK
      && (ctx = gcv_motion_cuda_new (clip->width, clip->height, &err)) != NULL;
  for (int si = 0; ok && si < clip->n_sources; si++) {
    const Source *s = &clip->sources[si];
    GcvPlane pl = clip_plane (clip, s->first, 0, clip->height);
    ok = upload_plane (&dev, &pl, stream, &err) == GCV_OK
        && gcv_motion_cuda_set_reference (ctx, &dev, stream, &err) == GCV_OK;
    for (int k = 1; ok && k < s->n; k++) {
      int pi = -1;
      GcvMotionVector *out = scratch;
      for (int j = 0; j < clip->n_pairs; j++)
        if (clip->pairs[j].p == s->first + k - 1)
          pi = j;
      if (pi >= 0)
        out = f->fields[pi] = g_new (GcvMotionVector, (size_t) f->cols * f->rows);
      pl = clip_plane (clip, s->first + k, 0, clip->height);
      /* in stream order: each upload comes after the search that copied
       * the frame before it */
      ok = upload_plane (&dev, &pl, stream, &err) == GCV_OK
          && gcv_motion_cuda_search (ctx, p, &dev, 0, -1, out, stream, &err) == GCV_OK;
    }
  }
  ok = ok && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
  if (!ok)
    g_strlcpy (msg, err.message, len);
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  if (ctx)
    gcv_motion_cuda_free (ctx);
  if (stream)
    gcv_cuda_stream_free (stream);
  gcv_cuda_free (dev.data);
  g_free (scratch);
  return ok;
}

/* ---- several GPUs ---- */

typedef enum {
  MULTI_ONE,                    /* one context, each pair waited for */
  MULTI_ONE_PIPELINED,          /* one context, pairs in flight */
  MULTI_ONE_2CTX,               /* serial splitting over two contexts of one device */
  MULTI_PARALLEL,
  MULTI_SERIAL,
} MultiMode;

static const char *const multi_names[] = {
  "1 gpu", "1 gpu, pipelined", "1 gpu, 2 contexts", "2 gpus parallel", "2 gpus serial"
};

/* One backend context of a multi-GPU run and what its pairs in flight
 * need.  Its m-th pair takes slot m % depth: device planes for P and C,
 * the vectors (page-locked) and two events; a slot is reused only after
 * the host waited for the pair that had it (retire), so nothing on the
 * device still reads its planes. */
typedef struct {
  int device;
  GcvMotionCuda *cuda;
  void *stream;                 /* set_reference, search, download of the vectors */
  void *copy;                   /* uploads: a stream of its own, or `stream` */
  int row0, row1;               /* the block rows it searches */
  int holds;                    /* the frame P is once its queued searches ran (-1: none) */
  int depth;
  guint64 queued, retired;      /* pairs */
  GcvPlane ref[MULTI_MAX_DEPTH], cur[MULTI_MAX_DEPTH];
  GcvMotionVector *vec[MULTI_MAX_DEPTH];
  GcvCudaEvent *uploaded[MULTI_MAX_DEPTH], *done[MULTI_MAX_DEPTH];
  int pair[MULTI_MAX_DEPTH];
} MultiCtx;

static gboolean
multi_ctx_init (MultiCtx * c, int device, const GcvPlane * frame, size_t vec_bytes, int row0, int row1,
    int depth, gboolean copy_stream, GcvError * err)
{
  gboolean ok;

  memset (c, 0, sizeof (*c));
  c->device = device;
  c->row0 = row0;
  c->row1 = row1;
  c->holds = -1;
  c->depth = depth;
  ok = gcv_cuda_set_device (device, err) == GCV_OK && gcv_cuda_stream_new (&c->stream, err) == GCV_OK
      && (!copy_stream || gcv_cuda_stream_new (&c->copy, err) == GCV_OK)
      && (c->cuda = gcv_motion_cuda_new (frame->width, frame->height, err)) != NULL;
  if (ok && !copy_stream)
    c->copy = c->stream;
  for (int s = 0; ok && s < depth; s++) {
    c->ref[s].width = c->cur[s].width = frame->width;
    c->ref[s].height = c->cur[s].height = frame->height;
    ok = gcv_cuda_malloc_2d (&c->ref[s].data, &c->ref[s].stride, (size_t) frame->width, (size_t) frame->height,
        err) == GCV_OK
        && gcv_cuda_malloc_2d (&c->cur[s].data, &c->cur[s].stride, (size_t) frame->width,
        (size_t) frame->height, err) == GCV_OK
        && gcv_cuda_host_alloc ((void **) &c->vec[s], vec_bytes, err) == GCV_OK
        && gcv_cuda_event_new (&c->uploaded[s], err) == GCV_OK && gcv_cuda_event_new (&c->done[s], err) == GCV_OK;
  }
  return ok;
}

/* Waits for the streams (errors ignored: the run failed or is over) and
 * frees what multi_ctx_init made. */
static void
multi_ctx_clear (MultiCtx * c)
{
  GcvError e = { 0 };

  if (c->stream == NULL)
    return;
  gcv_cuda_set_device (c->device, &e);
  gcv_cuda_stream_sync (c->stream, &e);
  if (c->copy && c->copy != c->stream)
    gcv_cuda_stream_sync (c->copy, &e);
  gcv_motion_cuda_free (c->cuda);
  for (int s = 0; s < c->depth; s++) {
    gcv_cuda_free (c->ref[s].data);
    gcv_cuda_free (c->cur[s].data);
    gcv_cuda_host_free (c->vec[s]);
    gcv_cuda_event_free (c->uploaded[s]);
    gcv_cuda_event_free (c->done[s]);
  }
  if (c->copy && c->copy != c->stream)
    gcv_cuda_stream_free (c->copy);
  gcv_cuda_stream_free (c->stream);
  memset (c, 0, sizeof (*c));
}

/* Waits for the context's oldest pair in flight; its band of vectors goes
 * to `keep` when it is pair keep_i. */
static gboolean
multi_retire (MultiCtx * c, int cols, int keep_i, GcvMotionVector * keep, GcvError * err)
{
  int s = (int) (c->retired % (guint64) c->depth);

  if (gcv_cuda_event_sync (c->done[s], err) != GCV_OK)
    return FALSE;
  if (c->pair[s] == keep_i)
    memcpy (keep + (size_t) c->row0 * cols, c->vec[s] + (size_t) c->row0 * cols,
        sizeof (GcvMotionVector) * cols * (c->row1 - c->row0));
  c->retired++;
  return TRUE;
}

/* Queues pair i (frames[i] -> frames[i + 1], of n rotating) on the
 * context, once a slot is free: the uploads of the frames it lacks on its
 * copy stream, the search on its stream after them.  Nothing else waits:
 * the uploads of the next pairs run while this one searches. */
static gboolean
multi_queue (MultiCtx * c, const GcvMotionParams * p, const GcvPlane * frames, int n, int i, int cols,
    int keep_i, GcvMotionVector * keep, GcvError * err)
{
  int s = (int) (c->queued % (guint64) c->depth);
  gboolean need_ref = c->holds != i;

  if (gcv_cuda_set_device (c->device, err) != GCV_OK)
    return FALSE;
  if (c->queued - c->retired == (guint64) c->depth && !multi_retire (c, cols, keep_i, keep, err))
    return FALSE;
  if (need_ref && gcv_cuda_upload_2d (c->ref[s].data, c->ref[s].stride, frames[i % n].data, frames[i % n].stride,
          (size_t) frames[i % n].width, (size_t) frames[i % n].height, c->copy, err) != GCV_OK)
    return FALSE;
  if (gcv_cuda_upload_2d (c->cur[s].data, c->cur[s].stride, frames[(i + 1) % n].data, frames[(i + 1) % n].stride,
          (size_t) frames[(i + 1) % n].width, (size_t) frames[(i + 1) % n].height, c->copy, err) != GCV_OK)
    return FALSE;
  if (c->copy != c->stream && (gcv_cuda_event_record (c->uploaded[s], c->copy, err) != GCV_OK
          || gcv_cuda_stream_wait_event (c->stream, c->uploaded[s], err) != GCV_OK))
    return FALSE;
  if (need_ref && gcv_motion_cuda_set_reference (c->cuda, &c->ref[s], c->stream, err) != GCV_OK)
    return FALSE;
  if (gcv_motion_cuda_search (c->cuda, p, &c->cur[s], c->row0, c->row1, c->vec[s], c->stream, err) != GCV_OK
      || gcv_cuda_event_record (c->done[s], c->stream, err) != GCV_OK)
    return FALSE;
  c->pair[s] = i;
  c->queued++;
  c->holds = i + 1;
  return TRUE;
}

/* Pairs i = 0 .. warmup + runs - 1 (frames[i] -> frames[i + 1], page-locked
 * copies of the rotating clip's) in the mode; *ms_per_pair: wall clock over
 * the timed ones, from the end of the warm-up pairs to the end of the last
 * pair; `keep` gets the vectors of pair `keep_i`.  MULTI_ONE uploads and
 * searches on one stream and waits for each pair; the other modes keep up
 * to `depth` pairs in flight per context, uploads on a stream of their
 * own, the host waiting only for a context's oldest pair when it needs its
 * slot.  Serial: pair i to context i % 2, which receives both frames;
 * parallel: every pair to both, each searching half of the block rows. */
static gboolean
multi_run (const GcvPlane * frames, int n_frames, const GcvMotionParams * p, MultiMode mode, int depth,
    int warmup, int runs, int keep_i, GcvMotionVector * keep, double *ms_per_pair, char *msg, size_t len)
{
  const int w = frames[0].width, h = frames[0].height;
  const int cols = gcv_motion_grid_cols (w, p), rows = gcv_motion_grid_rows (h, p);
  const size_t vec_bytes = sizeof (GcvMotionVector) * cols * rows;
  int n_ctx = mode == MULTI_ONE || mode == MULTI_ONE_PIPELINED ? 1 : 2;
  MultiCtx ctx[2];
  GcvError err = { 0 };
  gboolean ok = TRUE;
  double t0 = 0;

  memset (ctx, 0, sizeof (ctx));
  if (mode == MULTI_ONE)
    depth = 1;
  for (int k = 0; ok && k < n_ctx; k++) {
    int dev = mode == MULTI_PARALLEL || mode == MULTI_SERIAL ? k : 0;
    int row0 = mode == MULTI_PARALLEL ? k * (rows / 2) : 0, row1 = mode == MULTI_PARALLEL && k == 0 ? rows / 2 : rows;
    ok = multi_ctx_init (&ctx[k], dev, &frames[0], vec_bytes, row0, row1, depth, mode != MULTI_ONE, &err);
  }
  for (int i = 0; ok && i <= warmup + runs; i++) {
    if (i == warmup) {
      /* the warm-up pairs done before the clock starts */
      for (int k = 0; ok && k < n_ctx; k++)
        while (ok && ctx[k].retired < ctx[k].queued)
          ok = multi_retire (&ctx[k], cols, keep_i, keep, &err);
      t0 = gcvb_now_ms ();
    }
    if (!ok || i == warmup + runs)
      break;
    if (mode == MULTI_PARALLEL) {
      for (int k = 0; ok && k < 2; k++)
        ok = multi_queue (&ctx[k], p, frames, n_frames, i, cols, keep_i, keep, &err);
    } else {
      MultiCtx *c = &ctx[i % n_ctx];
      ok = multi_queue (c, p, frames, n_frames, i, cols, keep_i, keep, &err)
          && (mode != MULTI_ONE || multi_retire (c, cols, keep_i, keep, &err));
    }
  }
  for (int k = 0; ok && k < n_ctx; k++)
    while (ok && ctx[k].retired < ctx[k].queued)
      ok = multi_retire (&ctx[k], cols, keep_i, keep, &err);
  *ms_per_pair = (gcvb_now_ms () - t0) / runs;
  if (!ok)
    g_strlcpy (msg, err.message, len);
  for (int k = 0; k < n_ctx; k++)
    multi_ctx_clear (&ctx[k]);
  gcv_cuda_set_device (opt.device, &err);
  return ok;
}

static void
bench_multi (int ci, int vi, const Clip * clip)
{
  const GcvMotionParams *p = &cases[ci].vars[vi].p;
  size_t n = (size_t) gcv_motion_grid_cols (clip->width, p) * gcv_motion_grid_rows (clip->height, p);
  int warmup = MAX (opt.warmup, 2), runs = MAX (opt.runs, 4), keep_i = warmup + 1;
  int n_frames = MIN (clip->n, warmup + runs + 1);
  const size_t frame_bytes = clip->stride * clip->height;
  GcvMotionVector *base = g_new0 (GcvMotionVector, n), *got = g_new0 (GcvMotionVector, n);
  GcvPlane *frames = g_new0 (GcvPlane, n_frames);
  double one_ms = NAN, pipe_ms = NAN, two_ctx_ms = NAN;
  guint8 *pinned = NULL;
  GcvError err = { 0 };

  /* the frames the pairs use, page-locked once (as the element's upstream
   * pool gives them): their uploads are DMA the host does not wait for */
  if (gcv_cuda_host_alloc ((void **) &pinned, frame_bytes * n_frames, &err) != GCV_OK) {
    Row *r = row_new (ROW_MULTI, ci, vi, multi_names[MULTI_ONE], 0);
    gcvb_result_fail (&r->m, "%s", err.message);
  }
  for (int f = 0; pinned != NULL && f < n_frames; f++) {
    memcpy (pinned + frame_bytes * f, clip->frames[f], frame_bytes);
    frames[f] = clip_plane (clip, f, 0, clip->height);
    frames[f].data = pinned + frame_bytes * f;
  }
  for (int mode = MULTI_ONE; pinned != NULL && mode <= MULTI_SERIAL; mode++) {
    Row *r = row_new (ROW_MULTI, ci, vi, multi_names[mode], 0);
    char msg[512];
    double ms;
    r->devices = mode >= MULTI_PARALLEL ? 2 : 1;
    memset (got, 0, sizeof (GcvMotionVector) * n);
    if (!multi_run (frames, n_frames, p, (MultiMode) mode, opt_multi_depth, warmup, runs, keep_i,
            mode == MULTI_ONE ? base : got, &ms, msg, sizeof (msg))) {
      gcvb_result_fail (&r->m, "%s", msg);
      continue;
    }
    r->m.count = runs;
    r->m.ms = r->m.mean_ms = ms;
    r->m.fps = 1000.0 / ms;
    g_strlcpy (r->m.backend, "cuda", sizeof (r->m.backend));
    if (mode == MULTI_ONE) {
      one_ms = ms;
    } else {
      gint64 diff = 0;
      for (size_t i = 0; i < n; i++)
        diff += memcmp (&got[i], &base[i], sizeof (GcvMotionVector)) != 0;
      r->m.mismatch = diff;
      if (diff > 0) {
        gcvb_result_note (&r->m, "DIFFERS from one device: %" G_GINT64_FORMAT " blocks", diff);
        gcvb_n_failures++;
      }
      r->speedup = one_ms / ms;
      if (mode == MULTI_ONE_PIPELINED)
        pipe_ms = ms;
      else
        r->speedup_pipelined = pipe_ms / ms;
      if (mode == MULTI_ONE_2CTX)
        two_ctx_ms = ms;
      if (mode == MULTI_SERIAL)
        r->speedup_overlap = two_ctx_ms / ms;
    }
    print_row_progress (r);
  }
  gcv_cuda_host_free (pinned);
  g_free (frames);
  g_free (base);
  g_free (got);
}

#endif /* GCVB_CUDA */

/* ------------------------------------------------------------------------ */
/* FFmpeg's mestimate */

#if GCVB_HAVE_FFMPEG

#define AV_FUNCS(X) \
  X (avutil, av_frame_alloc) X (avutil, av_frame_free) X (avutil, av_frame_get_buffer) \
  X (avutil, av_frame_get_side_data) X (avutil, av_strerror) X (avutil, av_log_set_level) \
  X (avutil, avutil_version) X (avfilter, avfilter_version) X (avfilter, avfilter_graph_alloc) \
  X (avfilter, avfilter_graph_free) X (avfilter, avfilter_get_by_name) \
  X (avfilter, avfilter_graph_create_filter) X (avfilter, avfilter_link) X (avfilter, avfilter_graph_config) \
  X (avfilter, av_buffersrc_add_frame_flags) X (avfilter, av_buffersink_get_frame)

static struct {
  gboolean tried, ok;
  char why[512];
  char version[64];
  void *avutil, *avfilter;
#define AV_MEMBER(lib, f) __typeof__ (f) *f;
  AV_FUNCS (AV_MEMBER)
#undef AV_MEMBER
} av;

static void *
av_open (const char *base, int major)
{
  gchar *name = g_strdup_printf ("%s.so.%d", base, major);
  gchar *path = opt_ffmpeg_libdir ? g_build_filename (opt_ffmpeg_libdir, name, NULL) : g_strdup (name);
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);

  if (h == NULL)
    g_snprintf (av.why, sizeof (av.why), "cannot load %s: %s", path, dlerror ());
  g_free (name);
  g_free (path);
  return h;
}

/* Loads libavutil and libavfilter of the headers' major versions. */
static gboolean
av_load (void)
{
  if (av.tried)
    return av.ok;
  av.tried = TRUE;
  if ((av.avutil = av_open ("libavutil", LIBAVUTIL_VERSION_MAJOR)) == NULL
      || (av.avfilter = av_open ("libavfilter", LIBAVFILTER_VERSION_MAJOR)) == NULL)
    return FALSE;
#define AV_SYM(lib, f) \
  if ((*(void **) &av.f = dlsym (av.lib, #f)) == NULL) { \
    g_snprintf (av.why, sizeof (av.why), "lib%s has no %s", #lib, #f); \
    return FALSE; \
  }
  AV_FUNCS (AV_SYM)
#undef AV_SYM
  if (AV_VERSION_MAJOR (av.avfilter_version ()) != LIBAVFILTER_VERSION_MAJOR) {
    g_snprintf (av.why, sizeof (av.why), "libavfilter %u.x loaded, the headers are %d.x",
        AV_VERSION_MAJOR (av.avfilter_version ()), LIBAVFILTER_VERSION_MAJOR);
    return FALSE;
  }
  av.av_log_set_level (AV_LOG_ERROR);
  g_snprintf (av.version, sizeof (av.version), "libavfilter %u.%u.%u", AV_VERSION_MAJOR (av.avfilter_version ()),
      AV_VERSION_MINOR (av.avfilter_version ()), AV_VERSION_MICRO (av.avfilter_version ()));
  av.ok = TRUE;
  return TRUE;
}

typedef struct {
  AVFilterGraph *graph;
  AVFilterContext *src, *sink;
  int width, height;
  gint64 pts;
} MeGraph;

static void
av_err (char *msg, size_t len, const char *what, int ret)
{
  char e[128];
  av.av_strerror (ret, e, sizeof (e));
  g_snprintf (msg, len, "%s: %s", what, e);
}

static gboolean
me_graph_new (MeGraph * g, int w, int h, const char *method, int p, char *msg, size_t len)
{
  AVFilterContext *me;
  char args[256];
  int ret;

  memset (g, 0, sizeof (*g));
  g->width = w;
  g->height = h;
  g->graph = av.avfilter_graph_alloc ();
  if (g->graph == NULL) {
    g_strlcpy (msg, "avfilter_graph_alloc failed", len);
    return FALSE;
  }
  g_snprintf (args, sizeof (args), "video_size=%dx%d:pix_fmt=gray:time_base=1/30:pixel_aspect=1/1", w, h);
  if ((ret = av.avfilter_graph_create_filter (&g->src, av.avfilter_get_by_name ("buffer"), "in", args, NULL,
              g->graph)) < 0) {
    av_err (msg, len, "buffer", ret);
    return FALSE;
  }
  g_snprintf (args, sizeof (args), "method=%s:mb_size=16:search_param=%d", method, p);
  if (av.avfilter_get_by_name ("mestimate") == NULL) {
    g_strlcpy (msg, "this libavfilter has no mestimate filter", len);
    return FALSE;
  }
  if ((ret = av.avfilter_graph_create_filter (&me, av.avfilter_get_by_name ("mestimate"), "me", args, NULL,
              g->graph)) < 0) {
    av_err (msg, len, "mestimate", ret);
    return FALSE;
  }
  if ((ret = av.avfilter_graph_create_filter (&g->sink, av.avfilter_get_by_name ("buffersink"), "out", NULL,
              NULL, g->graph)) < 0) {
    av_err (msg, len, "buffersink", ret);
    return FALSE;
  }
  if ((ret = av.avfilter_link (g->src, 0, me, 0)) < 0 || (ret = av.avfilter_link (me, 0, g->sink, 0)) < 0
      || (ret = av.avfilter_graph_config (g->graph, NULL)) < 0) {
    av_err (msg, len, "linking the graph", ret);
    return FALSE;
  }
  return TRUE;
}

static void
me_graph_free (MeGraph * g)
{
  if (g->graph)
    av.avfilter_graph_free (&g->graph);
}

/* An AVFrame holding a copy of the clip's frame (outside the timing). */
static AVFrame *
me_frame (MeGraph * g, const Clip * clip, int frame, char *msg, size_t len)
{
  AVFrame *f = av.av_frame_alloc ();
  int ret;

  if (f == NULL) {
    g_strlcpy (msg, "av_frame_alloc failed", len);
    return NULL;
  }
  f->format = AV_PIX_FMT_GRAY8;
  f->width = g->width;
  f->height = g->height;
  if ((ret = av.av_frame_get_buffer (f, 0)) < 0) {
    av_err (msg, len, "av_frame_get_buffer", ret);
    av.av_frame_free (&f);
    return NULL;
  }
  for (int y = 0; y < g->height; y++)
    memcpy (f->data[0] + (size_t) y * f->linesize[0], clip->frames[frame] + (size_t) y * clip->stride, g->width);
  f->pts = g->pts++;
  return f;
}

/* Pushes f (taken); *out gets mestimate's output frame, NULL when it has
 * none yet.  FALSE on an error. */
static gboolean
me_push (MeGraph * g, AVFrame * f, AVFrame ** out, char *msg, size_t len)
{
  AVFrame *o;
  int ret = av.av_buffersrc_add_frame_flags (g->src, f, AV_BUFFERSRC_FLAG_PUSH);

  av.av_frame_free (&f);
  *out = NULL;
  if (ret < 0) {
    av_err (msg, len, "av_buffersrc_add_frame_flags", ret);
    return FALSE;
  }
  o = av.av_frame_alloc ();
  ret = av.av_buffersink_get_frame (g->sink, o);
  if (ret == AVERROR (EAGAIN)) {
    av.av_frame_free (&o);
    return TRUE;
  }
  if (ret < 0) {
    av_err (msg, len, "av_buffersink_get_frame", ret);
    av.av_frame_free (&o);
    return FALSE;
  }
  *out = o;
  return TRUE;
}

/* The source +1 field of an output frame as our records on the grid of
 * whole 16x16 blocks (cols x rows; see the top comment for the mapping).
 * FALSE when a block is missing or outside that grid. */
static gboolean
me_field (const AVFrame * o, int cols, int rows, GcvMotionVector * v, char *msg, size_t len)
{
  const AVFrameSideData *sd = av.av_frame_get_side_data (o, AV_FRAME_DATA_MOTION_VECTORS);
  const AVMotionVector *mv;
  int n, found = 0;

  if (sd == NULL) {
    g_strlcpy (msg, "no motion vector side data", len);
    return FALSE;
  }
  mv = (const AVMotionVector *) sd->data;
  n = (int) (sd->size / sizeof (AVMotionVector));
  memset (v, 0xff, sizeof (GcvMotionVector) * cols * rows);
  for (int i = 0; i < n; i++) {
    int x0 = mv[i].dst_x - mv[i].w / 2, y0 = mv[i].dst_y - mv[i].h / 2, bx = x0 / 16, by = y0 / 16;
    if (mv[i].source != 1)
      continue;
    if (mv[i].w != 16 || mv[i].h != 16 || x0 % 16 || y0 % 16 || bx >= cols || by >= rows) {
      g_snprintf (msg, len, "unexpected block %dx%d at %d,%d", mv[i].w, mv[i].h, x0, y0);
      return FALSE;
    }
    v[by * cols + bx].x = x0;
    v[by * cols + bx].y = y0;
    v[by * cols + bx].dx = GCV_MOTION_Q * (mv[i].src_x - mv[i].dst_x);
    v[by * cols + bx].dy = GCV_MOTION_Q * (mv[i].src_y - mv[i].dst_y);
    v[by * cols + bx].sad = 0;
    found++;
  }
  if (found != cols * rows) {
    g_snprintf (msg, len, "%d forward vectors, expected %d", found, cols * rows);
    return FALSE;
  }
  return TRUE;
}

#endif /* GCVB_HAVE_FFMPEG */

static gboolean
peer_enabled (const char *method)
{
  return GCVB_HAVE_FFMPEG && !gcvb_skipped (&opt, "ffmpeg") && !gcvb_skipped (&opt, method);
}

/* One mestimate method on a case: source by source (video first), a fresh
 * graph each; the first two pushes untimed, the rest timed until the
 * budget is spent (at least one); the field of every pair it did goes into
 * the quality, with our full search's on the same pairs. */
static void
bench_peer (int ci, int mi, const Clip * clip)
{
  const Case *c = &cases[ci];
  const char *method = peer_methods[mi];
  Row *r = row_new (ROW_PEER, ci, -1, method, 1);
  PeerQuality *pq = &peer_quality[ci][mi];

  g_snprintf (r->m.label, sizeof (r->m.label), "%-5s ffmpeg mestimate method=%s mb_size=16 search_param=%d",
      c->name, method, c->peer_p);
#if GCVB_HAVE_FFMPEG
  {
    int cols = clip->width / 16, rows = clip->height / 16;
    GcvMotionParams pp = mparams (16, 16, c->peer_p, c->peer_p, GCV_MOTION_SUBPEL_INTEGER, GCV_MOTION_METHOD_FULL);
    const Fields *ours = c->peer_var >= 0 ? &fields[ci][c->peer_var] : NULL;
    int ours_cols = ours && ours->have ? ours->cols : 0;
    GcvMotionVector *v = g_new (GcvMotionVector, (size_t) cols * rows);
    GcvMotionVector *fv = g_new (GcvMotionVector, (size_t) cols * rows);
    GArray *times = g_array_new (FALSE, FALSE, sizeof (double));
    double spent = 0, budget = cpu_budget_s () * 1e3;
    char msg[512] = "";
    gboolean ok = TRUE;

    if (!av_load ()) {
      gcvb_result_skip (&r->m, "%s", av.why);
      goto out;
    }
    for (int si = 0; ok && si < clip->n_sources && (times->len == 0 || spent < budget); si++) {
      const Source *s = &clip->sources[si];
      MeGraph g;
      ok = me_graph_new (&g, clip->width, clip->height, method, c->peer_p, msg, sizeof (msg));
      for (int k = 0; ok && k < s->n; k++) {
        AVFrame *f = me_frame (&g, clip, s->first + k, msg, sizeof (msg)), *o = NULL;
        double t0 = gcvb_now_ms (), t;
        if (f == NULL || !me_push (&g, f, &o, msg, sizeof (msg))) {
          ok = FALSE;
          break;
        }
        t = gcvb_now_ms () - t0;
        spent += t;
        if (k >= 2)
          g_array_append_val (times, t);
        if (o == NULL && k >= 1) {
          g_snprintf (msg, sizeof (msg), "no output after %d frames", k + 1);
          ok = FALSE;
        }
        if (o != NULL) {
          /* frame k - 1 with its field towards frame k */
          int pi = -1;
          for (int j = 0; j < clip->n_pairs; j++)
            if (clip->pairs[j].p == s->first + k - 1)
              pi = j;
          if (pi >= 0 && (ok = me_field (o, cols, rows, v, msg, sizeof (msg)))) {
            QStat q;
            const GcvMotionVector *full = NULL;
            /* SADs by our definition; our full search's on the same grid */
            for (int i = 0; i < cols * rows; i++) {
              guint64 sad, sse;
              if (gcv_motion_candidate_valid (clip->width, clip->height, &pp, v[i].x, v[i].y, 16, 16, v[i].dx,
                      v[i].dy)) {
                block_error (clip->frames[s->first + k - 1], clip->frames[s->first + k], clip->stride, v[i].x,
                    v[i].y, 16, 16, v[i].dx, v[i].dy, &sad, &sse);
                v[i].sad = (guint32) sad;
              }
            }
            if (ours_cols > 0 && ours->fields[pi] != NULL) {
              for (int by = 0; by < rows; by++)
                for (int bx = 0; bx < cols; bx++)
                  fv[by * cols + bx] = ours->fields[pi][by * ours_cols + bx];
              full = fv;
            }
            field_stats (clip, &clip->pairs[pi], &pp, v, cols, rows, full, &q);
            qstat_add (&pq->by_kind[s->kind], &q);
            if (full != NULL) {
              field_stats (clip, &clip->pairs[pi], &pp, fv, cols, rows, NULL, &q);
              qstat_add (&pq->ours_by_kind[s->kind], &q);
            }
            pq->have = TRUE;
          }
          av.av_frame_free (&o);
        }
        if (k >= 2 && spent >= budget)
          break;
      }
      me_graph_free (&g);
    }
    if (!ok) {
      gcvb_result_fail (&r->m, "%s", msg);
    } else if (times->len == 0) {
      gcvb_result_fail (&r->m, "no timed frame (sources too short)");
    } else {
      double fr = gcvb_median ((double *) times->data, times->len);
      r->frame_ms = fr;
      r->m.count = times->len;
      r->m.ms = fr / 2;
      r->m.mean_ms = gcvb_mean ((double *) times->data, times->len) / 2;
      r->m.fps = 1000.0 / r->m.ms;
      r->m.compute_ms = r->m.ms;
      /* esa's SAD operations a field: its window is full search on the
       * area of the whole blocks */
      if (strcmp (method, "esa") == 0)
        r->work = full_work (cols * 16, rows * 16, &pp);
      g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
      gcvb_result_note (&r->m, "%.1f ms per output frame (2 fields)", fr);
      if (spent >= budget && pq->have)
        gcvb_result_note (&r->m, "%.0f s budget: quality on the pairs done", cpu_budget_s ());
      print_row_progress (r);
    }
  out:
    g_array_free (times, TRUE);
    g_free (v);
    g_free (fv);
  }
#else
  (void) pq;
  gcvb_result_skip (&r->m, "built without libavfilter");
#endif
}

/* ------------------------------------------------------------------------ */
/* the GPU peer: NVIDIA's optical-flow engine */

/* Per case, a result per grid and perf level: its timing row and what its
 * flows score on the quality pairs. */
typedef struct {
  int grid, perf;
  Row *row;
  gboolean scored;
  QStat by_kind[2];             /* block medians on the first variant's blocks: pan, video */
  GcvbEpe cells;                /* every cell of the pans */
  gint64 clamped;               /* block vectors moved to keep the block inside the frame */
} Nvofa;

static Nvofa *nvofa_res[N_CASES];
static int n_nvofa_res[N_CASES];

/* Scores flow k of run r as the quality pair pr (see the header comment):
 * the cells against the pan's motion, then a vector per block of p. */
static void
nvofa_score_pair (const Clip * clip, const Pair * pr, const GcvMotionParams * p, const GcvbNvofRun * r, int k,
    GcvMotionVector * v, Nvofa * out)
{
  const Source *src = &clip->sources[pr->source];
  const guint8 *P = clip->frames[pr->p], *C = clip->frames[pr->p + 1];
  int W = clip->width, H = clip->height, g = r->grid;
  int cols = gcv_motion_grid_cols (W, p), rows = gcv_motion_grid_rows (H, p);
  GcvMotionParams wide = *p;
  QStat q;

  if (src->kind == SRC_PAN)
    for (int cy = 0; cy < r->rows; cy++)
      for (int cx = 0; cx < r->cols; cx++) {
        double x = cx * g + (g - 1) / 2.0, y = cy * g + (g - 1) / 2.0, fx, fy;
        if (x > W - 1 || y > H - 1 || x + src->vx < 0 || x + src->vx > W - 1 || y + src->vy < 0
            || y + src->vy > H - 1)
          continue;
        gcvb_nvof_cell (r, k, cx, cy, &fx, &fy);
        gcvb_epe_add (&out->cells, fx, fy, src->vx, src->vy);
      }
  /* the engine's range is its own: only the frame bounds the vector */
  wide.range_x = wide.range_y = 1024 / GCV_MOTION_Q;
  for (int by = 0; by < rows; by++)
    for (int bx = 0; bx < cols; bx++) {
      GcvMotionVector *b = &v[by * cols + bx];
      int x0, y0, w, h, dx, dy;
      double fx, fy;
      guint64 sad = 0, sse;
      gcv_motion_block_rect (W, H, p, bx, by, &x0, &y0, &w, &h);
      gcvb_nvof_block_median (r, k, x0, y0, w, h, &fx, &fy);
      dx = CLAMP ((int) lround (GCV_MOTION_Q * fx), -GCV_MOTION_Q * x0, GCV_MOTION_Q * (W - w - x0));
      dy = CLAMP ((int) lround (GCV_MOTION_Q * fy), -GCV_MOTION_Q * y0, GCV_MOTION_Q * (H - h - y0));
      out->clamped += dx != lround (GCV_MOTION_Q * fx) || dy != lround (GCV_MOTION_Q * fy);
      if (x0 + p->block_width <= W && y0 + p->block_height <= H)
        block_error (P, C, clip->stride, x0, y0, w, h, dx, dy, &sad, &sse);
      b->x = x0;
      b->y = y0;
      b->dx = dx;
      b->dy = dy;
      b->sad = (guint32) sad;
    }
  field_stats (clip, pr, &wide, v, cols, rows, NULL, &q);
  qstat_add (&out->by_kind[src->kind], &q);
}

/* The engine on the case's clip: the cuda rows' rotation timed, the
 * quality pairs' flows scored; a row per grid and perf level. */
static void
bench_nvofa (int ci, const Clip * clip)
{
  const GcvMotionParams *p = &cases[ci].vars[0].p;
  const int n = n_nvofa_grids * n_nvofa_perfs;
  int *flow_of = g_new (int, MAX (clip->n_pairs, 1));
  GcvMotionVector *v = g_new (GcvMotionVector, (size_t) gcv_motion_grid_cols (clip->width, p)
      * gcv_motion_grid_rows (clip->height, p));
  GcvbNvofJob job;
  GcvbNvofRun *runs;

  gcvb_nvof_job_init (&job, clip->width, clip->height, clip->stride, clip->n, clip->frames, MAX (opt.warmup, 1),
      opt.runs);
  for (int i = 0; i < clip->n; i++)
    gcvb_nvof_job_add (job.time, i, (i + 1) % clip->n, i == 0);
  for (int pi = 0; pi < clip->n_pairs; pi++)
    flow_of[pi] = -1;
  /* each source a stream from its lead-in pair */
  for (int si = 0; si < clip->n_sources && !gcvb_skipped (&opt, "quality"); si++) {
    const Source *s = &clip->sources[si];
    for (int k = 0; k + 1 < s->n; k++) {
      for (int pi = 0; pi < clip->n_pairs; pi++)
        if (clip->pairs[pi].p == s->first + k)
          flow_of[pi] = (int) job.flow->len;
      gcvb_nvof_job_add (job.flow, s->first + k, s->first + k + 1, k == 0);
    }
  }
  runs = gcvb_nvof_run (&nvof, opt.device, &job, nvofa_grids, n_nvofa_grids, nvofa_perfs, n_nvofa_perfs);
  nvofa_res[ci] = g_new0 (Nvofa, MAX (n, 1));
  n_nvofa_res[ci] = n;
  for (int i = 0; i < n; i++) {
    const GcvbNvofRun *r = &runs[i];
    Nvofa *a = &nvofa_res[ci][i];
    char name[32];
    gcvb_nvof_run_name (r, name, sizeof (name));
    a->grid = r->grid;
    a->perf = r->perf;
    a->row = row_new (ROW_NVOFA, ci, -1, name, 0);
    a->row->grid = r->grid;
    a->row->perf = r->perf;
    if (strcmp (r->state, "skipped") == 0) {
      gcvb_result_skip (&a->row->m, "%s", r->why);
      continue;
    }
    if (strcmp (r->state, "ok") != 0) {
      gcvb_result_fail (&a->row->m, "%s", r->why);
      continue;
    }
    a->row->m.count = r->count;
    a->row->m.ms = a->row->m.compute_ms = r->ev_ms;
    a->row->m.mean_ms = r->ev_mean_ms;
    a->row->m.fps = 1000.0 / r->ev_ms;
    a->row->wall_ms = r->wall_ms;
    g_strlcpy (a->row->m.backend, "nvofa", sizeof (a->row->m.backend));
    if (*gcvb_nvof_timing_note (r))
      gcvb_result_note (&a->row->m, "%s", gcvb_nvof_timing_note (r));
    gcvb_result_note (&a->row->m, "wall %.4f ms; %dx%d vectors; session setup %.0f ms, first execute %.2f ms",
        r->wall_ms, r->cols, r->rows, r->setup_ms, r->first_ms);
    for (int pi = 0; pi < clip->n_pairs; pi++)
      if (flow_of[pi] >= 0 && flow_of[pi] < r->n_flows) {
        nvofa_score_pair (clip, &clip->pairs[pi], p, r, flow_of[pi], v, a);
        a->scored = TRUE;
      }
  }
  gcvb_nvof_runs_free (runs, n);
  gcvb_nvof_job_clear (&job);
  g_free (flow_of);
  g_free (v);
}

/* ------------------------------------------------------------------------ */
/* the elements */

static void
bench_element (int ci, int vi, const Clip * clip, const char *factory, const char *devices, const char *split)
{
  const Case *c = &cases[ci];
  const GcvMotionParams *p = &c->vars[vi].p;
  gboolean is_cuda = g_str_has_prefix (factory, "cuda");
  char what[48], buf[32];
  Row *r;
  GcvbPipeline *pl;
  GstElement *e;
  GcvbFrameSet fs;
  int latency = 0;

  if (devices)
    g_snprintf (what, sizeof (what), "%s devices=%s split=%s", factory, devices, split);
  else
    g_strlcpy (what, factory, sizeof (what));
  r = row_new (ROW_ELEMENT, ci, vi, what, is_cuda ? 0 : gcvb_cpu_threads (opt_cpu_threads));
  r->devices = devices ? 2 : 1;
  if (!is_cuda && p->method == GCV_MOTION_METHOD_FULL) {
    /* a full-search frame of this case on the CPU: see its backend rows */
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *b = &g_array_index (rows_arr, Row, i);
      if (b->kind == ROW_CPU && b->case_i == ci && b->var_i == vi && b->m.threads == gcvb_cpu_threads (opt_cpu_threads) && !b->m.skipped
          && b->m.ms * 1e-3 > cpu_budget_s ()) {
        gcvb_result_skip (&r->m, "a frame takes ~%.0f s on this CPU (the cpu backend row)", b->m.ms * 1e-3);
        return;
      }
    }
  }
  gcvb_frameset_wrap_gray8 (&fs, c->name, clip->width, clip->height, clip->stride, clip->n, clip->frames);
  pl = gcvb_gray8_element_pipeline (&host, factory, "me", &fs, opt.device, &r->m);
  if (pl == NULL)
    return;
  e = gcvb_pipeline_element (pl);
  g_snprintf (buf, sizeof (buf), "%d", p->block_width);
  gcvb_set_prop (e, "block-width", buf);
  g_snprintf (buf, sizeof (buf), "%d", p->block_height);
  gcvb_set_prop (e, "block-height", buf);
  g_snprintf (buf, sizeof (buf), "%d", p->range_x);
  gcvb_set_prop (e, "search-range-x", buf);
  g_snprintf (buf, sizeof (buf), "%d", p->range_y);
  gcvb_set_prop (e, "search-range-y", buf);
  gcvb_set_prop (e, "subpel", subpel_name (p->subpel));
  gcvb_set_prop (e, "method", method_name (p->method));
  gcvb_set_prop (e, "zero-threshold", "0");
  if (is_cuda && devices) {
    gcvb_set_prop (e, "devices", devices);
    gcvb_set_prop (e, "split", split);
    if (strcmp (split, "serial") == 0)
      latency = 1;              /* devices - 1 frames held back */
  }
  if (gcvb_pipeline_time_latency (pl, &fs, is_cuda ? MAX (opt.warmup, latency + 1) : 1,
          is_cuda ? opt.frames : (opt.cpu_frames ? opt.cpu_frames : 3), opt.queue, latency, TRUE, &r->m))
    gcvb_element_row_done (&r->m, is_cuda);
  gcvb_pipeline_free (pl);
}

/* ------------------------------------------------------------------------ */
/* a case */

static void
compute_fields (int ci, int vi, const Clip * clip)
{
  const GcvMotionParams *p = &cases[ci].vars[vi].p;
  Fields *f = &fields[ci][vi];
  char msg[512] = "";
  gboolean ok = FALSE;

  f->cols = gcv_motion_grid_cols (clip->width, p);
  f->rows = gcv_motion_grid_rows (clip->height, p);
  f->n_stats = clip->n_pairs;
  f->fields = g_new0 (GcvMotionVector *, clip->n_pairs);
  f->stats = g_new0 (QStat, clip->n_pairs);
  f->kinds = g_new0 (int, clip->n_pairs);
  for (int pi = 0; pi < clip->n_pairs; pi++)
    f->kinds[pi] = clip->sources[clip->pairs[pi].source].kind;
#if GCVB_CUDA
  if (host.cuda.available && gcvb_gpu_enabled (&opt)) {
    ok = cuda_fields (clip, p, f, msg, sizeof (msg));
    g_strlcpy (f->backend, "cuda", sizeof (f->backend));
  }
#endif
  if (!ok && f->backend[0] == '\0') {
    /* the CPU, when the clip's pairs fit in six budgets (at least a
     * minute: the peer's quality rows compare with these) */
    double per_pair = NAN;
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      if (r->kind == ROW_CPU && r->case_i == ci && r->var_i == vi && r->m.threads == gcvb_cpu_threads (opt_cpu_threads) && !r->m.skipped)
        per_pair = r->m.ms;
    }
    if (gcvb_skipped (&opt, "cpu") && isnan (per_pair) && (p->method == GCV_MOTION_METHOD_MODS
            || full_work (clip->width, clip->height, p) < 2e10))
      per_pair = 0;             /* not timed (--skip cpu), and not heavy: try */
    if (!isnan (per_pair) && per_pair * 1e-3 * clip->n <= MAX (6 * cpu_budget_s (), 60)) {
      ok = cpu_fields (clip, p, f, msg, sizeof (msg));
      g_strlcpy (f->backend, "cpu", sizeof (f->backend));
    } else {
      if (isnan (per_pair))
        g_strlcpy (f->note, "needs the CUDA backend (too heavy for an untimed CPU run)", sizeof (f->note));
      else
        g_snprintf (f->note, sizeof (f->note), "needs the CUDA backend (the CPU would take ~%.0f s)",
            per_pair * 1e-3 * clip->n);
      return;
    }
  }
  if (!ok) {
    g_snprintf (f->note, sizeof (f->note), "FAILED: %s", msg);
    gcvb_n_failures++;
    return;
  }
  for (int pi = 0; pi < clip->n_pairs; pi++)
    if (f->fields[pi] != NULL)
      field_stats (clip, &clip->pairs[pi], p, f->fields[pi], f->cols, f->rows, NULL, &f->stats[pi]);
  f->have = TRUE;
}

static void
run_case (int ci, const Clip * clip, gboolean do_elements)
{
  const Case *c = &cases[ci];

  g_printerr ("\n== %d. %s: %dx%d, %s ==\n", ci + 1, c->name, c->width, c->height, c->title);
  for (int vi = 0; vi < c->n_vars; vi++) {
    CheckRef ref = { NULL, 0, 0, 0 };
    if (!gcvb_skipped (&opt, "cpu")) {
      bench_cpu (ci, vi, clip, opt_cpu_threads, &ref);
      if (!gcvb_skipped (&opt, "cpu1") && gcvb_cpu_threads (opt_cpu_threads) > 1)
        bench_cpu (ci, vi, clip, 1, NULL);
    }
    if (gcvb_gpu_enabled (&opt)) {
#if GCVB_CUDA
      if (host.cuda.available)
        bench_cuda (ci, vi, clip, &ref);
      else
#endif
      {
        Row *r = row_new (ROW_CUDA_SEARCH, ci, vi, NULL, 0);
        gcvb_result_skip (&r->m, "%s", host.cuda.why);
      }
    }
    g_free (ref.vec);
    if (!gcvb_skipped (&opt, "quality"))
      compute_fields (ci, vi, clip);
  }
  if (c->peer_p > 0)
    for (int mi = 0; mi < N_PEER_METHODS; mi++)
      if (peer_enabled (peer_methods[mi]))
        bench_peer (ci, mi, clip);
  if (!gcvb_skipped (&opt, "nvofa")) {
    if (gcvb_nvof_present (&nvof)) {
      bench_nvofa (ci, clip);
    } else {
      Row *r = row_new (ROW_NVOFA, ci, -1, "", 0);
      gcvb_result_skip (&r->m, "NVIDIA's optical-flow engine %s: %s", nvof.state, nvof.detail);
    }
  }
  if (gcvb_gpu_enabled (&opt) && !gcvb_skipped (&opt, "multi")) {
#if GCVB_CUDA
    if (host.cuda.available && n_devices >= 2)
      bench_multi (ci, 0, clip);
#endif
  }
  if (do_elements) {
    bench_element (ci, 0, clip, "cudamotionest", NULL, NULL);
    bench_element (ci, 0, clip, "cpumotionest", NULL, NULL);
    if (n_devices >= 2 && !gcvb_skipped (&opt, "multi")) {
      bench_element (ci, 0, clip, "cudamotionest", "0,1", "parallel");
      bench_element (ci, 0, clip, "cudamotionest", "0,1", "serial");
    }
  }
}

/* ------------------------------------------------------------------------ */
/* pictures */

static GPtrArray *pictures;     /* paths written */

/* A w x h gray image halved (2x2 means) into an RGBA panel at (px, py) of
 * a sheet W pixels wide. */
static void
sheet_put_half (guint8 * sheet, int W, int px, int py, const guint8 * g, int w, int h)
{
  for (int y = 0; y < h / 2; y++)
    for (int x = 0; x < w / 2; x++) {
      const guint8 *a = g + (size_t) (2 * y) * w + 2 * x;
      guint8 v = (guint8) ((a[0] + a[1] + a[w] + a[w + 1] + 2) / 4);
      guint8 *d = sheet + ((size_t) (py + y) * W + px + x) * 4;
      d[0] = d[1] = d[2] = v;
      d[3] = 255;
    }
}

/* The video pair (frames 102 and 103), |C - P| and the prediction error
 * |P - P'| after full search, a 2 x 2 sheet at half size. */
static void
case_pictures (const Gray * video, int n_video)
{
  GcvMotionParams p = mparams (16, 16, 16, 16, GCV_MOTION_SUBPEL_HALF, GCV_MOTION_METHOD_FULL);
  const Gray *P, *C;
  int w, h, cols, rows, gap = 12, label_h = 26, W, H;
  GcvMotionVector *v;
  GcvMotionCpu *ctx;
  GcvError err = { 0 };
  guint8 *diff, *err_img, *sheet;
  double mean_diff = 0, mean_err = 0;
  char l[4][128];
  GcvbLabel labels[4];
  gchar *path;
  GError *error = NULL;

  if (n_video < VIDEO_FRAMES) {
    g_printerr ("error: pictures: the video frames are missing\n");
    gcvb_n_failures++;
    return;
  }
  if (g_mkdir_with_parents (opt_pictures, 0755) != 0) {
    g_printerr ("error: cannot make %s\n", opt_pictures);
    gcvb_n_failures++;
    return;
  }
  P = &video[2];
  C = &video[3];
  w = P->width;
  h = P->height;
  cols = gcv_motion_grid_cols (w, &p);
  rows = gcv_motion_grid_rows (h, &p);
  g_printerr ("\n== pictures: vtest 102 -> 103 (%dx%d), into %s ==\n", w, h, opt_pictures);
  v = g_new0 (GcvMotionVector, (size_t) cols * rows);
  ctx = gcv_motion_cpu_new (w, h, &err);
  {
    GcvPlane a = { P->pixels, w, h, (size_t) w }, b = { C->pixels, w, h, (size_t) w };
    if (ctx == NULL || gcv_motion_cpu_set_reference (ctx, &a, &err) != GCV_OK
        || gcv_motion_cpu_process (ctx, &p, &b, v, 0, &err) != GCV_OK) {
      g_printerr ("error: pictures: %s\n", err.message);
      gcvb_n_failures++;
      if (ctx)
        gcv_motion_cpu_free (ctx);
      g_free (v);
      return;
    }
    gcv_motion_cpu_free (ctx);
  }
  diff = g_malloc ((size_t) w * h);
  err_img = g_malloc ((size_t) w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int d = C->pixels[(size_t) y * w + x] - P->pixels[(size_t) y * w + x];
      diff[(size_t) y * w + x] = (guint8) (255 - MIN (255, 4 * ABS (d)));
      mean_diff += ABS (d);
    }
  for (int i = 0; i < cols * rows; i++) {
    int x0, y0, bw, bh;
    gcv_motion_block_rect (w, h, &p, i % cols, i / cols, &x0, &y0, &bw, &bh);
    for (int y = y0; y < y0 + bh; y++)
      for (int x = x0; x < x0 + bw; x++) {
        int d = P->pixels[(size_t) y * w + x] - gcv_motion_sample (C->pixels, (size_t) w, GCV_MOTION_Q * x + v[i].dx,
            GCV_MOTION_Q * y + v[i].dy);
        err_img[(size_t) y * w + x] = (guint8) (255 - MIN (255, 4 * ABS (d)));
        mean_err += ABS (d);
      }
  }
  mean_diff /= (double) w * h;
  mean_err /= (double) w * h;
  W = 2 * (w / 2) + gap;
  H = 2 * (h / 2 + label_h) + gap;
  sheet = g_malloc ((size_t) W * H * 4);
  memset (sheet, 255, (size_t) W * H * 4);
  sheet_put_half (sheet, W, 0, label_h, P->pixels, w, h);
  sheet_put_half (sheet, W, w / 2 + gap, label_h, C->pixels, w, h);
  sheet_put_half (sheet, W, 0, 2 * label_h + h / 2 + gap, diff, w, h);
  sheet_put_half (sheet, W, w / 2 + gap, 2 * label_h + h / 2 + gap, err_img, w, h);
  g_snprintf (l[0], sizeof (l[0]), "previous frame P (vtest 102)");
  g_snprintf (l[1], sizeof (l[1]), "current frame C (vtest 103)");
  g_snprintf (l[2], sizeof (l[2]), "|C - P| x4 (zero vectors): mean %.2f", mean_diff);
  g_snprintf (l[3], sizeof (l[3]), "|P - P'| x4, full search 16x16 +-16 half: %.2f", mean_err);
  for (int i = 0; i < 4; i++) {
    labels[i].text = l[i];
    labels[i].x = (i % 2) * (w / 2 + gap) + 2;
    labels[i].y = (i / 2) * (label_h + h / 2 + gap) + 3;
    labels[i].font = "Sans 10";
  }
  path = g_build_filename (opt_pictures, "motionest-pair.png", NULL);
  if (gcvb_write_png (path, sheet, W, H, (size_t) W * 4, "RGBA", labels, 4, &error)) {
    g_print ("Picture:    %s (%dx%d)\n", path, W, H);
    g_ptr_array_add (pictures, path);
  } else {
    g_printerr ("error: %s\n", error->message);
    g_error_free (error);
    gcvb_n_failures++;
    g_free (path);
  }
  g_free (sheet);
  g_free (diff);
  g_free (err_img);
  g_free (v);
}

/* ------------------------------------------------------------------------ */
/* tables */

static gboolean case_ran[N_CASES];

static void
fmt_ms (char *buf, size_t len, const GcvbResult * m)
{
  if (m->skipped)
    g_strlcpy (buf, m->failed ? "FAILED" : "skipped", len);
  else if (m->ms < 1)
    g_snprintf (buf, len, "%.4f", m->ms);
  else if (m->ms < 100)
    g_snprintf (buf, len, "%.3f", m->ms);
  else
    g_snprintf (buf, len, "%.1f", m->ms);
}

static const char *
row_impl (const Row * r, char *buf, size_t len)
{
  if (r->kind == ROW_PEER)
    g_snprintf (buf, len, "ffmpeg %s", r->what);
  else if (r->kind == ROW_NVOFA)
    g_snprintf (buf, len, "nvofa %s", r->what);
  else if (r->kind == ROW_ELEMENT || r->kind == ROW_MULTI)
    g_strlcpy (buf, r->what, len);
  else
    g_strlcpy (buf, row_kind_names[r->kind], len);
  return buf;
}

static const char *
row_method (const Row * r, char *buf, size_t len)
{
  const Case *c = &cases[r->case_i];

  if (r->var_i >= 0)
    g_strlcpy (buf, c->vars[r->var_i].label, len);
  else if (r->kind == ROW_NVOFA)
    g_strlcpy (buf, "flow", len);
  else
    g_snprintf (buf, len, "p=%d", c->peer_p);
  return buf;
}

/* The paper's time for the same work and kind of machine, NAN none. */
static double
row_vs_paper (const Row * r)
{
  const Case *c = &cases[r->case_i];

  if (r->m.skipped || r->var_i != 0)
    return NAN;
  if (r->kind == ROW_CUDA_SEARCH || r->kind == ROW_CUDA_PIPE || r->kind == ROW_CUDA_WALL
      || (r->kind == ROW_ELEMENT && g_str_has_prefix (r->what, "cuda") && r->devices == 1))
    return c->paper_ms / r->m.ms;
  if (r->kind == ROW_CPU)
    return c->paper_cpu_ms / r->m.ms;
  if ((r->kind == ROW_MULTI || r->kind == ROW_ELEMENT) && r->devices == 2)
    return c->paper_2gpu_ms / r->m.ms;
  return NAN;
}

static void
print_case (int ci)
{
  const Case *c = &cases[ci];

  g_print ("\n== %d. %s: %dx%d, %s ==\n", ci + 1, c->name, c->width, c->height, c->title);
  for (int vi = 0; vi < c->n_vars; vi++) {
    const GcvMotionParams *p = &c->vars[vi].p;
    g_print ("%-11s %s, %dx%d blocks (%d x %d = %d), +-%d x +-%d px, %s-pel", c->vars[vi].label,
        method_name (p->method), p->block_width, p->block_height, gcv_motion_grid_cols (c->width, p),
        gcv_motion_grid_rows (c->height, p), gcv_motion_grid_cols (c->width, p) * gcv_motion_grid_rows (c->height,
            p), p->range_x, p->range_y, subpel_name (p->subpel));
    if (p->method == GCV_MOTION_METHOD_FULL)
      g_print (": %d x %d candidates, %.3g SAD operations a pair\n", 2 * p->range_x * p->subpel + 1,
          2 * p->range_y * p->subpel + 1, full_work (c->width, c->height, p));
    else
      g_print (": columns dx = -%d .. %d, dy steps 0, +-4 .. +-%d, +-2, +-1\n", p->range_x, p->range_x,
          4 * (p->range_y / 4));
  }
  g_print ("paper: %s\n", c->paper_what);
  if (c->peer_p == 0)
    g_print ("ffmpeg: no row (mestimate has square power-of-two blocks and whole pixels only)\n");
  g_print ("%-24s %-11s %4s %11s %10s %9s %8s %6s  %s\n", "implementation", "method", "thr", "ms/pair", "fps",
      "vs paper", "G SAD/s", "check", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  if (!isnan (c->paper_ms))
    g_print ("%-24s %-11s %4s %11.1f %10.2f %9s %8s %6s  %s\n", "paper: one Tesla C1060", c->vars[0].label, "-",
        c->paper_ms, 1000 / c->paper_ms, "1.0x", "-", "-", "");
  if (!isnan (c->paper_2gpu_ms))
    g_print ("%-24s %-11s %4s %11.1f %10.2f %9s %8s %6s  %s\n", "paper: two C1060 serial", c->vars[0].label, "-",
        c->paper_2gpu_ms, 1000 / c->paper_2gpu_ms, "1.0x", "-", "-", "");
  if (!isnan (c->paper_cpu_ms))
    g_print ("%-24s %-11s %4d %11.1f %10.6f %9s %8s %6s  %s\n", "paper: Xeon E5520 CPU", c->vars[0].label, 1,
        c->paper_cpu_ms, 1000 / c->paper_cpu_ms, "1.0x", "-", "-", "");
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    char impl[64], md[32], thr[8], ms[32], fps[32], vs[32], gs[32], chk[16];
    if (r->case_i != ci || r->kind == ROW_ELEMENT || r->kind == ROW_MULTI)
      continue;
    row_impl (r, impl, sizeof (impl));
    row_method (r, md, sizeof (md));
    if (r->m.threads > 0)
      g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
    else
      g_strlcpy (thr, "-", sizeof (thr));
    fmt_ms (ms, sizeof (ms), &r->m);
    gcvb_fmt_num (fps, sizeof (fps), r->m.skipped ? NAN : r->m.fps, r->m.fps < 1 ? "%.4f" : "%.1f");
    gcvb_fmt_num (vs, sizeof (vs), row_vs_paper (r), "%.1fx");
    gcvb_fmt_num (gs, sizeof (gs), r->m.skipped ? NAN : r->work / (r->m.ms * 1e-3) / 1e9, "%.1f");
    if (r->m.mismatch >= 0)
      g_snprintf (chk, sizeof (chk), r->m.mismatch == 0 ? "same" : "%" G_GINT64_FORMAT, r->m.mismatch);
    else
      g_strlcpy (chk, "-", sizeof (chk));
    g_print ("%-24s %-11s %4s %11s %10s %9s %8s %6s  %s%s\n", impl, md, thr, ms, fps, vs, gs, chk,
        r->m.skipped && !r->m.failed ? "skipped: " : "", r->m.note);
  }
  g_print ("cuda search: CUDA events around the search (+ the copy of its device frame, its vectors' download); "
      "up+search+down:\nfrom before the upload of the next frame; wall: host clock per pair.  cpu: wall clock.  "
      "ffmpeg: one thread,\nms per field (mestimate makes two per frame).  nvofa: the optical-flow engine's execute, CUDA events,\nframes on the device (the GPU peer table below).  G SAD/s: full search's SAD operations "
      "(valid candidates x pixels)\nper second.  check: the cuda backend's vectors against the cpu backend's for "
      "the same pair (same = identical).\n");
  if (strcmp (c->name, "codec") == 0) {
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      if (r->case_i == ci && (r->kind == ROW_CUDA_SEARCH || r->kind == ROW_CUDA_PIPE) && !r->m.skipped)
        g_print ("target >= %.0f fps (the issue): %s %.0f fps: %s\n", CODEC_TARGET_FPS, row_kind_names[r->kind],
            r->m.fps, r->m.fps >= CODEC_TARGET_FPS ? "MET" : "MISSED");
    }
  }
  if (strcmp (c->name, "hd") == 0) {
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      if (r->case_i == ci && r->kind == ROW_CUDA_SEARCH && !r->m.skipped)
        g_print ("target <= 50 ms per frame (the issue): cuda search %.2f ms: %s\n", r->m.ms,
            r->m.ms <= 50 ? "MET" : "MISSED");
    }
  }
}

static void
print_qline (const char *cs, const char *method, const char *backend, const char *kind, const QStat * q,
    const char *note)
{
  char sad[32], px[32], ps[32], hit[32], epe[32];

  if (q->pairs == 0)
    return;
  gcvb_fmt_num (sad, sizeof (sad), qstat_mean_sad (q), "%.1f");
  gcvb_fmt_num (px, sizeof (px), q->pixels ? q->sad / q->pixels : NAN, "%.3f");
  gcvb_fmt_num (ps, sizeof (ps), qstat_psnr (q), "%.2f");
  gcvb_fmt_num (hit, sizeof (hit), qstat_hit (q), "%.1f");
  gcvb_fmt_num (epe, sizeof (epe), qstat_epe (q), "%.3f");
  g_print ("%-5s %-30s %-7s %-6s %5d %7" G_GINT64_FORMAT " %10s %7s %8s %7s %7s  %s\n", cs, method, backend, kind,
      q->pairs, q->blocks, sad, px, ps, hit, epe, note ? note : "");
}

static void
print_quality (void)
{
  gboolean any = FALSE;

  for (int ci = 0; ci < N_CASES; ci++)
    for (int vi = 0; vi < MAX_VARS; vi++)
      any |= fields[ci][vi].fields != NULL;
  if (!any)
    return;
  g_print ("\n== Quality: mean SAD of the chosen vectors and PSNR of the motion-compensated prediction ==\n");
  g_print ("over the full-size blocks of the quality pairs (after each source's lead-in pair); SAD/px = mean "
      "|P - P'|;\nhit%%, EPE px: camera pans, blocks within half a pixel of the true motion, mean endpoint error; ffmpeg rows: its vectors, SADs "
      "by our definition,\nwith our full search on the same window and pairs below (beat full: blocks where it "
      "found a smaller SAD: must be 0)\n");
  g_print ("%-5s %-30s %-7s %-6s %5s %7s %10s %7s %8s %7s %7s  %s\n", "case", "method", "vectors", "source", "pairs",
      "blocks", "SAD/block", "SAD/px", "PSNR dB", "hit%", "EPE px", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    if (!case_ran[ci])
      continue;
    for (int vi = 0; vi < c->n_vars; vi++) {
      const Fields *f = &fields[ci][vi];
      char md[96];
      describe_params (md, sizeof (md), &c->vars[vi].p);
      if (!f->have) {
        if (f->note[0])
          g_print ("%-5s %-30s %-7s %-6s %5s %7s %10s %7s %8s %7s %7s  %s\n", c->name, md, "-", "-", "-", "-", "-",
              "-", "-", "-", "-", f->note);
        continue;
      }
      for (int k = 0; k < 2; k++) {
        QStat q;
        char note[96] = "";
        memset (&q, 0, sizeof (q));
        for (int pi = 0; pi < f->n_stats; pi++)
          if (f->kinds[pi] == (int) k)
            qstat_add (&q, &f->stats[pi]);
        if (q.sad_mismatch || q.invalid)
          g_snprintf (note, sizeof (note), "%" G_GINT64_FORMAT " reported SADs wrong, %" G_GINT64_FORMAT
              " invalid vectors", q.sad_mismatch, q.invalid);
        print_qline (c->name, md, f->backend, source_kind_names[k], &q, note);
      }
    }
    if (c->compare_var >= 0 && fields[ci][0].have && fields[ci][c->compare_var].have) {
      for (int k = 0; k < 2; k++) {
        QStat a, b;
        memset (&a, 0, sizeof (a));
        memset (&b, 0, sizeof (b));
        for (int pi = 0; pi < fields[ci][0].n_stats; pi++)
          if (fields[ci][0].kinds[pi] == k) {
            qstat_add (&a, &fields[ci][0].stats[pi]);
            qstat_add (&b, &fields[ci][c->compare_var].stats[pi]);
          }
        if (a.pairs > 0)
          g_print ("%-5s mods vs full on the same window, %s: mean SAD x%.4f, PSNR %+.3f dB\n", c->name,
              source_kind_names[k], qstat_mean_sad (&a) / qstat_mean_sad (&b), qstat_psnr (&a) - qstat_psnr (&b));
      }
    }
    for (int mi = 0; mi < N_PEER_METHODS; mi++) {
      const PeerQuality *pq = &peer_quality[ci][mi];
      char md[64], od[96];
      if (!pq->have)
        continue;
      g_snprintf (md, sizeof (md), "ffmpeg %s 16x16 p=%d", peer_methods[mi], c->peer_p);
      if (c->peer_var >= 0)
        describe_params (od, sizeof (od), &c->vars[c->peer_var].p);
      for (int k = 0; k < 2; k++) {
        char note[128];
        g_snprintf (note, sizeof (note), "beat full: %" G_GINT64_FORMAT "%s", pq->by_kind[k].beat_full,
            pq->by_kind[k].invalid ? "; INVALID vectors" : "");
        print_qline (c->name, md, "ffmpeg", source_kind_names[k], &pq->by_kind[k], note);
        if (c->peer_var >= 0)
          print_qline (c->name, od, fields[ci][c->peer_var].backend, source_kind_names[k], &pq->ours_by_kind[k],
              "ours, the same pairs");
      }
    }
    for (int i = 0; i < n_nvofa_res[ci]; i++) {
      const Nvofa *a = &nvofa_res[ci][i];
      char md[64], note[96] = "";
      if (!a->scored)
        continue;
      g_snprintf (md, sizeof (md), "nvofa g%d %s, block medians", a->grid, gcvb_nvof_perf_name (a->perf));
      if (a->clamped)
        g_snprintf (note, sizeof (note), "%" G_GINT64_FORMAT " block vectors kept inside the frame", a->clamped);
      for (int k = 0; k < 2; k++)
        print_qline (c->name, md, "nvofa", source_kind_names[k], &a->by_kind[k], note);
    }
  }
}

/* Ours (the case's first variant) and the engine's rows: speed and the
 * quality figures side by side. */
static void
print_nvofa (void)
{
  gboolean any = FALSE;

  for (int ci = 0; ci < N_CASES; ci++)
    any |= n_nvofa_res[ci] > 0;
  if (!any) {
    if (!gcvb_skipped (&opt, "nvofa"))
      g_print ("\n== GPU peer NVIDIA's optical-flow engine (NVOFA): no rows: %s: %s ==\n", nvof.state, nvof.detail);
    return;
  }
  g_print ("\n== GPU peer: NVIDIA's optical-flow engine (NVOFA) against the cuda backend, the same frames ==\n");
  g_print ("engine: %s\nms/pair: CUDA events around the search (ours: cuda search, the case's first variant) or "
      "nvOFExecute (the engine's,\nframes on the device); wall: host clock to the execute's end; x ours: its ms / "
      "ours (> 1: ours faster).\nThe engine's vectors are S10.5 pixels, one per g x g cell.  cell EPE: every cell "
      "of the pans against the true\nmotion (median, mean); at our grid: a block's vector is the median of the cells "
      "lying wholly in the block (of\nthe first variant), rounded to quarter pixels and kept inside the frame: EPE, "
      "hit%% (within half a pixel) on the\npans, PSNR of the motion-compensated prediction; ours: the search's "
      "vectors, scored the same way.\n", nvof.detail);
  g_print ("%-5s %-26s %10s %10s %7s %9s %9s %8s %6s %8s %8s  %s\n", "case", "implementation", "ms/pair",
      "wall ms", "x ours", "cell med", "cell mean", "blk EPE", "hit%", "PSNR pan", "PSNR vid", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    const Fields *f = &fields[ci][0];
    const Row *ours = NULL;
    QStat q[2];
    char ms[32], e[32], h[32], p0[32], p1[32], impl[48];
    if (!case_ran[ci] || n_nvofa_res[ci] == 0)
      continue;
    for (guint i = 0; i < rows_arr->len; i++) {
      const Row *r = &g_array_index (rows_arr, Row, i);
      if (r->case_i == ci && r->kind == ROW_CUDA_SEARCH && r->var_i == 0 && !r->m.skipped)
        ours = r;
    }
    memset (q, 0, sizeof (q));
    for (int pi = 0; f->have && pi < f->n_stats; pi++)
      qstat_add (&q[f->kinds[pi]], &f->stats[pi]);
    gcvb_fmt_num (ms, sizeof (ms), ours ? ours->m.ms : NAN, "%.4f");
    gcvb_fmt_num (e, sizeof (e), qstat_epe (&q[SRC_PAN]), "%.3f");
    gcvb_fmt_num (h, sizeof (h), qstat_hit (&q[SRC_PAN]), "%.1f");
    gcvb_fmt_num (p0, sizeof (p0), q[SRC_PAN].pairs ? qstat_psnr (&q[SRC_PAN]) : NAN, "%.2f");
    gcvb_fmt_num (p1, sizeof (p1), q[SRC_VIDEO].pairs ? qstat_psnr (&q[SRC_VIDEO]) : NAN, "%.2f");
    g_snprintf (impl, sizeof (impl), "ours, %s %dx%d", c->vars[0].label, c->vars[0].p.block_width,
        c->vars[0].p.block_height);
    g_print ("%-5s %-26s %10s %10s %7s %9s %9s %8s %6s %8s %8s  %s%s\n", c->name, impl, ms, "-", "1", "-", "-", e, h,
        p0, p1, f->have ? f->backend : "", f->have ? " backend's vectors" : f->note);
    for (int i = 0; i < n_nvofa_res[ci]; i++) {
      const Nvofa *a = &nvofa_res[ci][i];
      const Row *r = a->row;
      char wall[32], x[32], cm[32], cme[32];
      g_snprintf (impl, sizeof (impl), "nvofa g%d %s", a->grid, gcvb_nvof_perf_name (a->perf));
      if (r->m.skipped) {
        g_print ("%-5s %-26s %10s %10s %7s %9s %9s %8s %6s %8s %8s  %s%s\n", c->name, impl, r->m.failed ? "FAILED" :
            "skipped", "-", "-", "-", "-", "-", "-", "-", "-", r->m.failed ? "" : "skipped: ", r->m.note);
        continue;
      }
      gcvb_fmt_num (ms, sizeof (ms), r->m.ms, "%.4f");
      gcvb_fmt_num (wall, sizeof (wall), r->wall_ms, "%.4f");
      gcvb_fmt_num (x, sizeof (x), ours ? r->m.ms / ours->m.ms : NAN, "%.2f");
      gcvb_fmt_num (cm, sizeof (cm), gcvb_epe_quantile (&a->cells, 0.5), "%.3f");
      gcvb_fmt_num (cme, sizeof (cme), gcvb_epe_mean (&a->cells), "%.3f");
      gcvb_fmt_num (e, sizeof (e), qstat_epe (&a->by_kind[SRC_PAN]), "%.3f");
      gcvb_fmt_num (h, sizeof (h), qstat_hit (&a->by_kind[SRC_PAN]), "%.1f");
      gcvb_fmt_num (p0, sizeof (p0), a->by_kind[SRC_PAN].pairs ? qstat_psnr (&a->by_kind[SRC_PAN]) : NAN, "%.2f");
      gcvb_fmt_num (p1, sizeof (p1), a->by_kind[SRC_VIDEO].pairs ? qstat_psnr (&a->by_kind[SRC_VIDEO]) : NAN,
          "%.2f");
      g_print ("%-5s %-26s %10s %10s %7s %9s %9s %8s %6s %8s %8s  %s%s%s\n", c->name, impl, ms, wall, x, cm, cme, e, h,
          p0, p1, gcvb_epe_reversed_note (&a->cells), *gcvb_epe_reversed_note (&a->cells) && a->clamped ? "; " : "",
          a->clamped ? "some block vectors kept inside the frame" : "");
    }
  }
}

static void
print_multi (void)
{
  gboolean any = FALSE;

  for (guint i = 0; i < rows_arr->len; i++)
    any |= g_array_index (rows_arr, Row, i).kind == ROW_MULTI;
  if (!any) {
    if (host.cuda.available && gcvb_gpu_enabled (&opt))
      g_print ("\n== Multi-GPU: skipped (%d device%s; needs 2%s) ==\n", n_devices, n_devices == 1 ? "" : "s",
          gcvb_skipped (&opt, "multi") ? ", --skip multi" : "");
    return;
  }
  g_print ("\n== Multi-GPU: %d devices; backend contexts on devices 0 and 1, wall clock per pair ==\n", n_devices);
  g_print ("frames page-locked; 1 gpu: one context, upload, search, wait, pair after pair; the others keep %d pairs "
      "in flight\nper context, uploads on a stream of their own: 1 gpu, pipelined: one context; 1 gpu, 2 contexts: "
      "serial\nsplitting on one device; parallel: every frame to both, block rows split in half; serial: pair i to "
      "device i %% 2\n", opt_multi_depth);
  g_print ("%-5s %-11s %-19s %4s %10s %10s %8s %8s %8s %9s %6s  %s\n", "case", "method", "mode", "gpus", "ms/pair",
      "fps", "speedup", "vs pipe", "target", "vs paper", "check", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "----------------------------\n");
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    char ms[32], fps[32], sp[32], spp[32], vs[32], chk[16], tgt[16] = "-", md[32];
    if (r->kind != ROW_MULTI)
      continue;
    fmt_ms (ms, sizeof (ms), &r->m);
    gcvb_fmt_num (fps, sizeof (fps), r->m.skipped ? NAN : r->m.fps, "%.1f");
    gcvb_fmt_num (sp, sizeof (sp), r->speedup, "%.2fx");
    gcvb_fmt_num (spp, sizeof (spp), r->speedup_pipelined, "%.2fx");
    gcvb_fmt_num (vs, sizeof (vs), row_vs_paper (r), "%.1fx");
    /* against the faster of the two one-GPU loops */
    if (r->devices == 2 && !isnan (r->speedup))
      g_strlcpy (tgt, MIN (r->speedup, isnan (r->speedup_pipelined) ? r->speedup : r->speedup_pipelined)
          >= MULTI_TARGET ? "MET" : "MISSED", sizeof (tgt));
    if (r->m.mismatch >= 0)
      g_snprintf (chk, sizeof (chk), r->m.mismatch == 0 ? "same" : "%" G_GINT64_FORMAT, r->m.mismatch);
    else
      g_strlcpy (chk, "-", sizeof (chk));
    g_print ("%-5s %-11s %-19s %4d %10s %10s %8s %8s %8s %9s %6s  ", cases[r->case_i].name, row_method (r, md,
            sizeof (md)), r->what, r->devices, ms, fps, sp, spp, tgt, vs, chk);
    if (!isnan (r->speedup_overlap))
      g_print ("%.2fx over 1 gpu, 2 contexts; ", r->speedup_overlap);
    g_print ("%s\n", r->m.note);
  }
  g_print ("speedup: over \"1 gpu\"; vs pipe: over \"1 gpu, pipelined\"; target (the issue): two GPUs >= %.1fx one, "
      "against the\nfaster one-GPU row; check: the vectors of one pair against one device's; vs paper: sd's two "
      "C1060 (serial) / ours\n", MULTI_TARGET);
}

static void
print_elements (void)
{
  gboolean any = FALSE;

  for (guint i = 0; i < rows_arr->len; i++)
    any |= g_array_index (rows_arr, Row, i).kind == ROW_ELEMENT;
  if (!any)
    return;
  gcvb_print_element_table_head (40);
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    if (r->kind == ROW_ELEMENT)
      gcvb_print_element_table_row (cases[r->case_i].name, r->what, 40, &r->m);
  }
  g_print ("upload / compute / download / total: the element's stats, means per frame over the timed frames.\n");
}

/* The device's limits for pixel differences, for the GPUs whose figures
 * are known (Hopper): SMs (from its description) x boost clock x pixel
 * differences per clock and SM, 248 with VABSDIFF4.U8.ACC (4 bytes per
 * instruction, 62 instructions / clock / SM measured on an H100 by the
 * kernel's author, see kernels/motionest.cu) and 64 with float |a - b|
 * (128 FP32 lanes, two instructions a difference).  FALSE when none is
 * assumed. */
static gboolean
device_peak (double *int32_ops, double *fp32_ops, char *what, size_t len)
{
  int sms;
  double ghz;

  if (!gcvb_device_clock (&host, &sms, &ghz))
    return FALSE;
  *int32_ops = sms * ghz * 1e9 * 248;
  *fp32_ops = sms * ghz * 1e9 * 64;
  g_snprintf (what, len, "%d SMs x %.3f GHz (the datasheet boost clock) x 248 differences / clock with "
      "VABSDIFF4.ACC = %.1f T/s (float |a - b|: 64 / clock = %.1f T/s)", sms, ghz, *int32_ops / 1e12,
      *fp32_ops / 1e12);
  return TRUE;
}

static void
print_limits (void)
{
  double pi = NAN, pf = NAN;
  char what[256] = "";
  gboolean peak = device_peak (&pi, &pf, what, sizeof (what)), any = FALSE;

  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    any |= !isnan (r->work) && !r->m.skipped && (r->kind == ROW_CUDA_SEARCH || r->kind == ROW_CPU
        || r->kind == ROW_PEER);
  }
  if (!any)
    return;
  g_print ("\n== Limits: full search, SAD operations (one |P - C| accumulated per pixel and candidate) a second "
      "==\n");
  if (peak)
    g_print ("limits of %s: %s\none SAD operation = one pixel difference accumulated (sub-pel candidates read "
        "precomputed phase planes)\n", host.cuda.name, what);
  else if (host.cuda.available)
    g_print ("no peak assumed for %s (known: H100, H200)\n", host.cuda.name);
  g_print ("%-5s %-11s %-9s %-24s %4s %12s %11s %10s %9s %9s\n", "case", "method", "grid", "implementation", "thr",
      "G ops/pair", "ms/pair", "G ops/s", "% vabsd4", "% float");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    char impl[64], md[32], thr[8], a[32], b[32];
    double rate;
    const GcvMotionParams *p;
    if (isnan (r->work) || r->m.skipped || !(r->kind == ROW_CUDA_SEARCH || r->kind == ROW_CPU
            || r->kind == ROW_PEER))
      continue;
    p = r->var_i >= 0 ? &cases[r->case_i].vars[r->var_i].p : NULL;
    rate = r->work / (r->m.ms * 1e-3);
    if (r->m.threads > 0)
      g_snprintf (thr, sizeof (thr), "%d", r->m.threads);
    else
      g_strlcpy (thr, "-", sizeof (thr));
    gcvb_fmt_num (a, sizeof (a), r->kind == ROW_CUDA_SEARCH && peak ? 100 * rate / pi : NAN, "%.1f");
    gcvb_fmt_num (b, sizeof (b), r->kind == ROW_CUDA_SEARCH && peak ? 100 * rate / pf : NAN, "%.1f");
    g_print ("%-5s %-11s %-9s %-24s %4s %12.2f %11.3f %10.1f %9s %9s\n", cases[r->case_i].name,
        row_method (r, md, sizeof (md)), p ? subpel_name (p->subpel) : "integer", row_impl (r, impl, sizeof (impl)),
        thr, r->work / 1e9, r->m.ms, rate / 1e9, a, b);
  }
  g_print ("ffmpeg esa: its own window (+-p inside the area of the whole 16x16 blocks), per field; cpu rows marked "
      "EXTRAPOLATED\nabove ran on a band of the frame.\n");
}

/* ------------------------------------------------------------------------ */
/* JSON */

static void
json_params (GString * s, const GcvMotionParams * p)
{
  g_string_append_printf (s, "{\"method\": \"%s\", \"block_width\": %d, \"block_height\": %d, \"range_x\": %d, "
      "\"range_y\": %d, \"subpel\": \"%s\"}", method_name (p->method), p->block_width, p->block_height, p->range_x,
      p->range_y, subpel_name (p->subpel));
}

static void
json_qstat (GString * s, const QStat * q)
{
  g_string_append_printf (s, "{\"pairs\": %d, \"blocks\": %" G_GINT64_FORMAT ", \"mean_sad_per_block\": ", q->pairs,
      q->blocks);
  gcvb_json_num (s, qstat_mean_sad (q));
  g_string_append (s, ", \"mean_abs_error\": "), gcvb_json_num (s, q->pixels ? q->sad / q->pixels : NAN);
  g_string_append (s, ", \"psnr_db\": "), gcvb_json_num (s, qstat_psnr (q));
  g_string_append (s, ", \"pan_hit_percent\": "), gcvb_json_num (s, qstat_hit (q));
  g_string_append (s, ", \"pan_epe_px\": "), gcvb_json_num (s, qstat_epe (q));
  g_string_append_printf (s, ", \"sad_mismatch\": %" G_GINT64_FORMAT ", \"invalid\": %" G_GINT64_FORMAT
      ", \"beat_full\": %" G_GINT64_FORMAT "}", q->sad_mismatch, q->invalid, q->beat_full);
}

static GString *
results_json (void)
{
  char pw[256] = "";
  double pi = NAN, pf = NAN;
  GString *s = gcvb_json_begin (&host, "motionest", TRUE, "ffmpeg",
#if GCVB_HAVE_FFMPEG
      av.ok ? av.version : NULL
#else
      NULL
#endif
      );
  gboolean peak = device_peak (&pi, &pf, pw, sizeof (pw));

  g_string_append_printf (s, "  \"config\": {\"gpu_runs\": %d, \"warmup\": %d, \"cpu_max_runs\": %d, "
      "\"cpu_budget_s\": ", opt.runs, opt.warmup, cpu_max_runs ());
  gcvb_json_num (s, cpu_budget_s ());
  g_string_append_printf (s, ", \"cpu_threads\": %d, \"quality_pairs\": %d, \"element_frames\": %d, "
      "\"element_cpu_frames\": %d, \"queue\": %d, \"device\": %d, \"devices\": %d, \"quick\": %s, "
      "\"ffmpeg_built\": %s, \"limit_vabsdiff4_ops\": ", gcvb_cpu_threads (opt_cpu_threads), quality_pairs (), opt.frames,
      opt.cpu_frames ? opt.cpu_frames : 3, opt.queue, opt.device, n_devices, opt.quick ? "true" : "false",
      GCVB_HAVE_FFMPEG ? "true" : "false");
  gcvb_json_num (s, peak ? pi : NAN);
  g_string_append (s, ", \"limit_float_ops\": "), gcvb_json_num (s, peak ? pf : NAN);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "limits_assumed"), gcvb_json_str (s, pw);
  gcvb_json_nvof (s, &nvof, nvofa_grids, n_nvofa_grids, nvofa_perfs, n_nvofa_perfs);
  g_string_append (s, "},\n  \"cases\": [\n");
  for (int ci = 0; ci < N_CASES; ci++) {
    const Case *c = &cases[ci];
    g_string_append_printf (s, "    {\"name\": \"%s\", \"ran\": %s, \"width\": %d, \"height\": %d, \"variants\": [",
        c->name, case_ran[ci] ? "true" : "false", c->width, c->height);
    for (int vi = 0; vi < c->n_vars; vi++) {
      g_string_append_printf (s, "%s{\"label\": \"%s\", \"params\": ", vi ? ", " : "", c->vars[vi].label);
      json_params (s, &c->vars[vi].p);
      g_string_append (s, ", \"sad_operations_per_pair\": ");
      gcvb_json_num (s, c->vars[vi].p.method == GCV_MOTION_METHOD_FULL ? full_work (c->width, c->height,
              &c->vars[vi].p) : NAN);
      g_string_append (s, "}");
    }
    g_string_append_printf (s, "], \"ffmpeg_search_param\": %d, \"paper_ms\": ", c->peer_p);
    gcvb_json_num (s, c->paper_ms);
    g_string_append (s, ", \"paper_cpu_ms\": "), gcvb_json_num (s, c->paper_cpu_ms);
    g_string_append (s, ", \"paper_two_gpus_ms\": "), gcvb_json_num (s, c->paper_2gpu_ms);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "paper"), gcvb_json_str (s, c->paper_what);
    g_string_append_printf (s, "}%s\n", ci + 1 == N_CASES ? "" : ",");
  }
  g_string_append (s, "  ],\n  \"results\": [\n");
  for (guint i = 0; i < rows_arr->len; i++) {
    const Row *r = &g_array_index (rows_arr, Row, i);
    GString *extra = g_string_new (NULL);
    char impl[64];
    g_string_append (s, "    {");
    GCVB_JKEY (s, "case"), gcvb_json_str (s, cases[r->case_i].name);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "kind"), gcvb_json_str (s, r->kind == ROW_PEER ? "ffmpeg" : row_kind_names[r->kind]);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "implementation"), gcvb_json_str (s, row_impl (r, impl, sizeof (impl)));
    g_string_append (s, ", \"params\": ");
    if (r->var_i >= 0) {
      json_params (s, &cases[r->case_i].vars[r->var_i].p);
      g_string_append (s, ", ");
      GCVB_JKEY (s, "variant"), gcvb_json_str (s, cases[r->case_i].vars[r->var_i].label);
    } else if (r->kind == ROW_NVOFA) {
      g_string_append_printf (s, "{\"grid\": %d, \"perf\": \"%s\"}", r->grid, gcvb_nvof_perf_name (r->perf));
    } else {
      g_string_append_printf (s, "{\"method\": \"%s\", \"mb_size\": 16, \"search_param\": %d}", r->what,
          cases[r->case_i].peer_p);
    }
    gcvb_json_measurement (s, &r->m);
    g_string_append (extra, ", \"sad_operations_per_pair\": "), gcvb_json_num (extra, r->work);
    g_string_append (extra, ", \"sad_operations_per_s\": ");
    gcvb_json_num (extra, r->m.skipped ? NAN : r->work / (r->m.ms * 1e-3));
    g_string_append_printf (extra, ", \"extrapolated\": %s, \"band_block_rows\": %d, \"band_work_fraction\": ",
        r->extrapolated ? "true" : "false", r->band_rows);
    gcvb_json_num (extra, r->band_frac);
    g_string_append (extra, ", \"ms_per_output_frame\": "), gcvb_json_num (extra, r->frame_ms);
    g_string_append_printf (extra, ", \"devices\": %d, \"speedup\": ", r->devices);
    gcvb_json_num (extra, r->speedup);
    g_string_append (extra, ", \"speedup_over_one_gpu_two_contexts\": "), gcvb_json_num (extra, r->speedup_overlap);
    g_string_append (extra, ", \"speedup_over_one_gpu_pipelined\": ");
    gcvb_json_num (extra, r->speedup_pipelined);
    g_string_append (extra, ", \"vs_paper\": "), gcvb_json_num (extra, row_vs_paper (r));
    g_string_append (extra, ", \"wall_ms\": "), gcvb_json_num (extra, r->wall_ms);
    gcvb_json_row_end (s, &r->m, "mismatch_blocks", extra->str, i + 1 == rows_arr->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ],\n  \"quality\": [\n");
  {
    gboolean first = TRUE;
    for (int ci = 0; ci < N_CASES; ci++) {
      const Case *c = &cases[ci];
      for (int vi = 0; vi < c->n_vars; vi++) {
        const Fields *f = &fields[ci][vi];
        if (!case_ran[ci] || f->fields == NULL)
          continue;
        g_string_append_printf (s, "%s    {\"case\": \"%s\", \"variant\": \"%s\", \"params\": ", first ? "" : ",\n",
            c->name, c->vars[vi].label);
        json_params (s, &c->vars[vi].p);
        g_string_append (s, ", ");
        GCVB_JKEY (s, "vectors_from"), gcvb_json_str (s, f->backend);
        g_string_append (s, ", ");
        GCVB_JKEY (s, "note"), gcvb_json_str (s, f->note);
        for (int k = 0; k < 2; k++) {
          QStat q;
          memset (&q, 0, sizeof (q));
          for (int pi = 0; pi < f->n_stats; pi++)
            if (f->kinds[pi] == k)
              qstat_add (&q, &f->stats[pi]);
          g_string_append_printf (s, ", \"%s\": ", source_kind_names[k]);
          json_qstat (s, &q);
        }
        g_string_append (s, "}");
        first = FALSE;
      }
      for (int mi = 0; mi < N_PEER_METHODS; mi++) {
        const PeerQuality *pq = &peer_quality[ci][mi];
        if (!pq->have)
          continue;
        g_string_append_printf (s, "%s    {\"case\": \"%s\", \"variant\": \"ffmpeg %s\", \"params\": {\"method\": "
            "\"%s\", \"mb_size\": 16, \"search_param\": %d}, \"vectors_from\": \"ffmpeg\"", first ? "" : ",\n",
            c->name, peer_methods[mi], peer_methods[mi], c->peer_p);
        for (int k = 0; k < 2; k++) {
          g_string_append_printf (s, ", \"%s\": ", source_kind_names[k]);
          json_qstat (s, &pq->by_kind[k]);
          g_string_append_printf (s, ", \"ours_full_same_pairs_%s\": ", source_kind_names[k]);
          json_qstat (s, &pq->ours_by_kind[k]);
        }
        g_string_append (s, "}");
        first = FALSE;
      }
      for (int i = 0; case_ran[ci] && i < n_nvofa_res[ci]; i++) {
        const Nvofa *a = &nvofa_res[ci][i];
        if (!a->scored)
          continue;
        g_string_append_printf (s, "%s    {\"case\": \"%s\", \"variant\": \"nvofa g%d %s\", \"params\": "
            "{\"grid\": %d, \"perf\": \"%s\"}, \"vectors_from\": \"nvofa\", \"matched_to\": ", first ? "" : ",\n",
            c->name, a->grid, gcvb_nvof_perf_name (a->perf), a->grid, gcvb_nvof_perf_name (a->perf));
        json_params (s, &c->vars[0].p);
        g_string_append_printf (s, ", \"clamped_blocks\": %" G_GINT64_FORMAT, a->clamped);
        for (int k = 0; k < 2; k++) {
          g_string_append_printf (s, ", \"%s\": ", source_kind_names[k]);
          json_qstat (s, &a->by_kind[k]);
        }
        g_string_append_printf (s, ", \"pan_cells\": {\"n\": %" G_GUINT64_FORMAT ", \"epe_median_px\": ",
            a->cells.n);
        gcvb_json_num (s, gcvb_epe_quantile (&a->cells, 0.5));
        g_string_append (s, ", \"epe_p90_px\": "), gcvb_json_num (s, gcvb_epe_quantile (&a->cells, 0.9));
        g_string_append (s, ", \"epe_mean_px\": "), gcvb_json_num (s, gcvb_epe_mean (&a->cells));
        g_string_append (s, ", \"epe_mean_against_negated_truth_px\": ");
        gcvb_json_num (s, a->cells.n ? a->cells.sum_reversed / a->cells.n : NAN);
        g_string_append (s, "}}");
        first = FALSE;
      }
    }
    g_string_append (s, first ? "" : "\n");
  }
  g_string_append (s, "  ],\n  \"pictures\": [");
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
  static const char *const known[] = { "hd", "sd", "mods", "codec", "elements", "pictures" };
  static const char *const photo_short[GCVB_N_PHOTOS] = { "camera", "chelsea", "coffee", "astronaut" };
  const char *data_dir;
  GPtrArray *list;
  GcvbPhoto photos[GCVB_N_PHOTOS];
  Gray gphotos[GCVB_N_PHOTOS], video[VIDEO_FRAMES];
  const char *photo_names[GCVB_N_PHOTOS];
  int n_photos, n_video = 0, status;
  gboolean do_elements, do_pictures;

  if (!gcvb_init (&argc, &argv, "- benchmark cudamotionest / cpumotionest and the block-matching backends "
          "(the papers' cases, MODS vs full search, FFmpeg's mestimate, several GPUs)\n\n"
          "GPU peer: NVIDIA's optical-flow engine (NVOFA: the Optical Flow SDK's API 3.0 through the driver's "
          "libnvidia-opticalflow.so.1, loaded at run time by nvof-bench, a process of its own), at each output "
          "grid and perf level (--nvofa-grids, --nvofa-perf), on every case's frames: time per pair and, on the "
          "quality pairs, endpoint error against the pans' true motion and the prediction's PSNR at our blocks; "
          "a missing library, engine, size or grid is a skipped row that says why (--skip nvofa)",
          entries, &opt, &quick))
    return 2;
  list = gcvb_split_list (opt_cases, "hd,sd,mods,codec,elements");
  for (guint i = 0; i < list->len; i++) {
    gboolean ok = FALSE;
    for (guint k = 0; k < G_N_ELEMENTS (known); k++)
      ok |= g_ascii_strcasecmp (g_ptr_array_index (list, i), known[k]) == 0;
    if (!ok) {
      g_printerr ("error: unknown case '%s' (hd, sd, mods, codec, elements, pictures)\n",
          (const char *) g_ptr_array_index (list, i));
      return 2;
    }
  }
  if (opt_cpu_threads < 0 || opt_quality_pairs < 0 || opt_quality_pairs > 14 || opt_multi_depth < 1
      || opt_multi_depth > MULTI_MAX_DEPTH) {
    g_printerr ("error: --cpu-threads must be >= 0, --quality-pairs 1 .. 14, --multi-depth 1 .. %d\n",
        MULTI_MAX_DEPTH);
    return 2;
  }
  do_elements = case_on (list, "elements");
  do_pictures = opt_pictures != NULL;
  if (case_on (list, "pictures") && !do_pictures) {
    opt_pictures = g_strdup ("motionest-pictures");
    do_pictures = TRUE;
  }
  cases_init ();
  rows_arr = g_array_sized_new (FALSE, FALSE, sizeof (Row), MAX_ROWS);
  pictures = g_ptr_array_new_with_free_func (g_free);
  gcvb_host_init (&host, "bench-motionest", &opt, do_elements, "cpumotionest", TRUE);
#if GCVB_CUDA
  if (host.cuda.available) {
    GcvError err = { 0 };
    n_devices = gcv_cuda_device_count (&err);
  }
#endif

  gcvb_print_host (&host, opt.device, "cuda backend, multi-GPU and cudamotionest rows");
  if (host.cuda.available)
    g_print ("GPUs:       %d device%s%s\n", n_devices, n_devices == 1 ? "" : "s",
        n_devices >= 2 ? " (multi-GPU rows on 0 and 1)" : " (multi-GPU rows skipped: one device)");
  g_print ("GStreamer:  %s\n", gst_version_string ());
  if (do_elements)
    g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file :
        "no cpumotionest found (the element rows are skipped)");
#if GCVB_HAVE_FFMPEG
  if (peer_enabled ("esa") || peer_enabled ("epzs") || peer_enabled ("umh")) {
    if (av_load ())
      g_print ("Peer:       FFmpeg's mestimate (%s, built against %s), one thread, mb_size 16\n", av.version,
          GCVB_AVFILTER_VERSION);
    else
      g_print ("Peer:       FFmpeg's mestimate NOT LOADED (%s): its rows are skipped\n", av.why);
  } else {
    g_print ("Peer:       FFmpeg's mestimate skipped (--skip)\n");
  }
#else
  g_print ("Peer:       FFmpeg's mestimate not built in (no libavfilter at configure time: apt install "
      "libavfilter-dev)\n");
#endif
  gcvb_nvof_peer (opt.device, gcvb_skipped (&opt, "nvofa"), &nvof);
  if (!gcvb_nvof_configs (&nvof, opt_nvofa_grids, opt_nvofa_perf, nvofa_grids, &n_nvofa_grids, nvofa_perfs,
          &n_nvofa_perfs))
    return 2;
  g_print ("Timing:     GPU %d pairs after %d warm-up; CPU and FFmpeg at most %d runs within %.0f s a row; CPU "
      "%d threads and 1%s\n", opt.runs, MAX (opt.warmup, 1), cpu_max_runs (), cpu_budget_s (), gcvb_cpu_threads (opt_cpu_threads),
      opt.quick ? " [--quick: rough numbers]" : "");

  n_photos = gcvb_load_photos (&opt, "GRAY8", 1, photos);
  if (n_photos == 0)
    return 1;
  for (int i = 0; i < n_photos; i++) {
    gphotos[i].width = photos[i].width;
    gphotos[i].height = photos[i].height;
    gphotos[i].pixels = photos[i].pixels;
    photo_names[i] = photo_short[0];
    for (int k = 0; k < GCVB_N_PHOTOS; k++)
      if (g_str_has_prefix (photos[i].name, photo_short[k]))
        photo_names[i] = photo_short[k];
  }
  data_dir = opt.data_dir ? opt.data_dir : GCVB_DATA_DIR;
  for (int k = 0; k < VIDEO_FRAMES; k++) {
    gchar *name = g_strdup_printf ("vtest-%d.png", 100 + k), *path = g_build_filename (data_dir, name, NULL);
    GError *error = NULL;
    if (!load_gray (path, &video[n_video], &error)) {
      g_printerr ("warning: %s (the video source is left out)\n", error->message);
      g_error_free (error);
      g_free (name);
      g_free (path);
      break;
    }
    n_video++;
    g_free (name);
    g_free (path);
  }
  g_print ("Frames:     per case, the video (vtest-100..%d.png, %s) and a pan over each test photo (",
      99 + MIN (n_video, quality_pairs () + 2), n_video ? "768x576, cropped or magnified to the frame" : "MISSING");
  for (int i = 0; i < n_photos; i++)
    g_print ("%s%s %+.2f,%+.2f", i ? ", " : "", photo_names[i], pan_velocity[i][0], pan_velocity[i][1]);
  g_print (" px/frame at 480 lines); %d quality pair%s per source after a lead-in pair\n", quality_pairs (),
      quality_pairs () == 1 ? "" : "s");

  for (int ci = 0; ci < N_CASES; ci++) {
    Clip clip;
    if (!case_on (list, cases[ci].name))
      continue;
    clip_init (&clip, cases[ci].width, cases[ci].height, gphotos, photo_names, n_photos, video, n_video);
    run_case (ci, &clip, do_elements);
    case_ran[ci] = TRUE;
    clip_clear (&clip);
  }
  if (do_pictures)
    case_pictures (video, n_video);

  for (int ci = 0; ci < N_CASES; ci++)
    if (case_ran[ci])
      print_case (ci);
  print_quality ();
  print_nvofa ();
  print_multi ();
  print_elements ();
  print_limits ();
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (), &opt, "bench-motionest.json");

  for (int ci = 0; ci < N_CASES; ci++)
    for (int vi = 0; vi < MAX_VARS; vi++) {
      Fields *f = &fields[ci][vi];
      for (int pi = 0; f->fields && pi < f->n_stats; pi++)
        g_free (f->fields[pi]);
      g_free (f->fields);
      g_free (f->stats);
      g_free (f->kinds);
    }
  for (int ci = 0; ci < N_CASES; ci++) {
    for (int i = 0; i < n_nvofa_res[ci]; i++)
      gcvb_epe_clear (&nvofa_res[ci][i].cells);
    g_free (nvofa_res[ci]);
  }
  for (int k = 0; k < n_video; k++)
    g_free (video[k].pixels);
  gcvb_photos_clear (photos, n_photos);
  g_array_free (rows_arr, TRUE);
  g_ptr_array_unref (pictures);
  g_ptr_array_unref (list);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
