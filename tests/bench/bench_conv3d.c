/* gst-cuda-video: spatio-temporal 3-D convolution benchmark (issue 4).
 *
 * 1. The paper's Table 1 (GPU) and Table 2 (CPU) ("Case study: 3-D
 *    convolution"): a 720x560 single-channel video, a random non-separable
 *    k x k x k kernel for k = 5, 7, ... 15, k + 3 input frames -> 4 output
 *    frames, for every algorithm (baseline, shared, streaming, fft3d,
 *    fft-hybrid) on
 *     - the GPU: gcv_conv3d_cuda_* on frames already on the device, in the
 *       steady state of a stream: the ring holds the k + 3 frames that 4
 *       outputs read, and the timed unit is the _push of the 4 newest of
 *       them and one _process of the 4 outputs (a fresh ring takes only
 *       (k-1)/2 + 4 frames before its first outputs: the border frames
 *       before frame 0 count), between CUDA events (one more between the
 *       pushes and the _process), median of many runs after a warm-up, the
 *       input rotated through several frame sequences;
 *     - the CPU: gcv_conv3d_cpu_*, the same unit, wall clock, median of runs
 *       limited by a time budget (--cpu-budget, --cpu-max-run: the baseline
 *       at large k takes seconds a run).
 *    Every algorithm's output for the first sequence is compared with the
 *    first algorithm's (the contract's tolerance).  Tables in the paper's
 *    shape (rows k, columns the algorithms) with the paper's numbers beside
 *    ours, the best algorithm per k, what gcv_conv3d_choose() picks (auto)
 *    and how far that is from the best (issue 4's target: within 10%), for
 *    the GPU PyTorch's conv3d (cuDNN) as the peer, the achieved GFLOP/s
 *    (2 k^3 per output sample) against the FP32 peak and the direct
 *    algorithms' compulsory bytes against the memory bandwidth.
 * 2. The elements end to end: appsrc ! cudaconv3d|cpuconv3d ! appsink at
 *    1080p (GRAY8, I420; size 5 and 9; algorithm=auto), wall-clock fps in
 *    the steady state (the element holds (size - 1) / 2 frames back), and
 *    the element's stats (upload / compute / download / total).
 *
 * The frames are the test photos (tests/data) as luma, scaled and
 * mirror-tiled onto a canvas per sequence, and a crop panning across it (4
 * pixels right and 2 down per frame): every frame differs, none is flat.
 *
 * Prints tables and writes the same as JSON (--json FILE).  The GPU peer,
 * PyTorch's F.conv3d (cuDNN, fp32, TF32 off) on the tables' volume: this
 * program runs scripts/bench-torch-conv3d.py with the host's Python
 * ($GCVB_PYTHON) on the same frame size and k (--skip torch), which also
 * checks its output against float64; or its JSON is read with --peer-json
 * FILE; without either (no PyTorch or no GPU, said why) the issue's
 * measurement is quoted at 720x560 and nothing at other sizes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv3d.h"
#include "gcv-bench.h"

/* ------------------------------------------------------------------------ */
/* the paper's and the issue's figures */

#define N_PAPER_K 6
static const int paper_k[N_PAPER_K] = { 5, 7, 9, 11, 13, 15 };

/* ms for 4 output frames of 720x560; [k][algorithm - BASELINE]; NAN: not
 * in the table (SHARED MEMORY does not fit the GT200's shared memory) */
static const double paper_gpu[N_PAPER_K][5] = {
  {16, 11, 4, 24, 15},
  {44, 15, 8, 34, 17},
  {96, 48, 16, 39, 20},
  {180, 77, 27, 44, 23},
  {295, NAN, 45, 74, 24},
  {454, NAN, 75, 56, 26},
};

static const double paper_cpu[N_PAPER_K][5] = {
  {136, 117, 140, 128, 133},
  {362, 289, 317, 235, 152},
  {1018, 597, 614, 208, 213},
  {1954, 1065, 1135, 238, 237},
  {3590, 1733, 1771, 267, 271},
  {6453, 2676, 2633, 338, 356},
};

/* PyTorch F.conv3d (cuDNN, fp32, TF32 off) on an H100, same volume shape,
 * as measured for issue 4 (quoted, not measured by this program) */
static const double issue_torch_ms[N_PAPER_K] = { 0.208, 0.465, 0.844, 1.512, 2.348, 3.597 };

#define PAPER_GPU "Tesla S1070 (one GT200)"
#define PAPER_CPU "2 x dual-core 2.4 GHz Opteron"

static int
paper_row (int k)
{
  for (int i = 0; i < N_PAPER_K; i++)
    if (paper_k[i] == k)
      return i;
  return -1;
}

#define N_ALGOS 5               /* BASELINE .. FFT_HYBRID */
#define ALGO_INDEX(a) ((int) (a) - (int) GCV_CONV3D_BASELINE)

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 300, .warmup = 20, .cpu_frames = 0 /* 10 */ , .runs = 100, .cpu_runs = 0 /* 10 */ ,
  .variants = 4, .queue = 4, .device = 0,
};

/* --quick, for the counts left at their defaults */
static const GcvbOptions quick = {
  .frames = 30, .warmup = 3, .cpu_frames = 3, .runs = 20, .cpu_runs = 3, .variants = 4,
};

static gchar *opt_k = NULL;
static gchar *opt_algorithms = NULL;
static gchar *opt_frame = NULL;
static gchar *opt_type = NULL;
static gchar *opt_border = NULL;
static gchar *opt_el_sizes = NULL;
static gchar *opt_el_formats = NULL;
static gchar *opt_el_frame = NULL;
static gchar *opt_peer_json = NULL;
static gdouble opt_cpu_budget = -1;     /* s per (k, algorithm); default 20, quick 3 */
static gdouble opt_cpu_max_run = -1;    /* s; default 60, quick 8 */
static gint opt_cpu_threads = 0;

static GOptionEntry entries[] = {
  {"k", 'k', 0, G_OPTION_ARG_STRING, &opt_k,
      "Kernel sizes k (k x k x k taps, odd, <= 31), comma-separated (default 5,7,9,11,13,15)", "LIST"},
  {"sizes", 's', 0, G_OPTION_ARG_STRING, &opt_k, "Same as --k", "LIST"},
  {"algorithms", 'a', 0, G_OPTION_ARG_STRING, &opt_algorithms,
        "Algorithms, comma-separated: baseline, shared, streaming, fft3d, fft-hybrid (default all)",
      "LIST"},
  {"frame", 0, 0, G_OPTION_ARG_STRING, &opt_frame,
      "Frame size of the paper's tables (default 720x560)", "WxH"},
  {"type", 't', 0, G_OPTION_ARG_STRING, &opt_type,
        "Sample type of the input and output planes of the tables: u8 (video frames, the "
        "elements' case; default) or f32 (no quantisation, the paper's floats)", "TYPE"},
  {"border", 0, 0, G_OPTION_ARG_STRING, &opt_border,
      "Border of the tables: zero, replicate, mirror (default mirror, the elements' default)", "B"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs,
      "Timed GPU runs per (k, algorithm), median taken (default 100)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup,
      "GPU warm-up runs and element warm-up frames (default 20; the CPU rows use 1 run)", "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Most timed CPU runs per (k, algorithm), median taken (default 10; fewer by --cpu-budget)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
        "Seconds of timed CPU runs per (k, algorithm): fewer runs where one is long "
        "(default 20, --quick 3)", "S"},
  {"cpu-max-run", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_max_run,
        "Skip a CPU (k, algorithm) whose run would take longer than S seconds, as extrapolated from "
        "the smaller k (default 60, --quick 8)", "S"},
  {"cpu-threads", 0, 0, G_OPTION_ARG_INT, &opt_cpu_threads,
      "CPU threads of the tables (default 0: one per core)", "N"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Different input sequences, rotated through (default 4, at least 4)", "N"},
  {"element-sizes", 0, 0, G_OPTION_ARG_STRING, &opt_el_sizes,
      "The elements' size property values, comma-separated (default 5,9)", "LIST"},
  {"element-formats", 0, 0, G_OPTION_ARG_STRING, &opt_el_formats,
      "The elements' formats: gray8, i420, rgba (default gray8,i420)", "LIST"},
  {"element-frame", 0, 0, G_OPTION_ARG_STRING, &opt_el_frame,
      "The elements' frame size: 720p, 1080p, 4k or WxH (default 1080p)", "SIZE"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames,
      "Timed frames per cudaconv3d row (default 300)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames,
      "Timed frames per cpuconv3d row (default 10)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue,
      "Frames in flight in the element pipelines beyond the element's latency (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  {"peer-json", 0, 0, G_OPTION_ARG_FILENAME, &opt_peer_json,
        "JSON of scripts/bench-torch-conv3d.py run on this GPU host: its PyTorch times replace "
        "the issue's quoted ones", "FILE"},
  GCVB_OPTION_ENTRIES (opt, "bench-conv3d.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
        "Parts to skip, comma-separated: gpu (or cuda), cpu, elements, check (the comparison of "
        "the algorithms' outputs), torch (the GPU peer run here)", "LIST"},
  {NULL}
};

/* ------------------------------------------------------------------------ */
/* results */

typedef enum {
  PART_GPU,
  PART_CPU,
  PART_ELEMENT,
} Part;

static const char *part_names[] = { "gpu", "cpu", "element" };

typedef struct {
  GcvbResult m;                 /* ms: median per unit (4 pushes + 4 outputs) or per frame */
  Part part;
  int k;                        /* kernel size (tables) or the element's size */
  GcvConv3dAlgorithm algorithm; /* tables; AUTO for the elements */
  char selected[16];            /* elements: selected-algorithm */
  char format[8];
  int width, height;
  double push_ms, process_ms;   /* tables: medians of the two halves of the unit */
  double scratch_ms;            /* fft-hybrid: estimate with all k+3 spectra made, NAN n/a */
  double gflops;                /* 2 k^3 per output sample / ms */
  double flops_frac;            /* of the FP32 peak (GPU), NAN n/a */
  double bytes;                 /* compulsory: (k+3) input + 4 output frames */
  double max_diff;              /* against the reference, NAN n/a */
  double diff_limit;
  char reference[32];           /* "gpu baseline" */
  gboolean budget_limited;      /* CPU: fewer runs than asked */
} Result;

static GArray *results;         /* of Result */
static GcvbHost host;
static double fp32_peak_gflops = NAN;
static char fp32_peak_source[160] = "";

/* the tables' configuration */
static int vol_w = 720, vol_h = 560;
static GcvSampleType vol_type = GCV_SAMPLE_U8;
static GcvConv3dBorder vol_border = GCV_CONV3D_BORDER_MIRROR;
#define N_OUT 4                 /* outputs per unit, as the paper */

/* the PyTorch peer, per k (NAN unknown) */
typedef struct {
  gboolean measured;            /* run here or from --peer-json, else the issue's figures */
  char source[512];
  double ms[GCV_CONV3D_MAX_SIZE + 1];
  double rel_err[GCV_CONV3D_MAX_SIZE + 1];      /* its output against float64, NAN unknown */
} Peer;
static Peer peer;

static Result *
result_new (Part part, int k, GcvConv3dAlgorithm a, const char *format, int w, int h, const char *impl)
{
  Result r;

  memset (&r, 0, sizeof (r));
  if (part == PART_ELEMENT)
    gcvb_result_init (&r.m, impl, "element %-10s %-5s size %-2d", impl, format, k);
  else
    gcvb_result_init (&r.m, impl, "%-3s k=%-2d %-10s", part_names[part], k, gcv_conv3d_algorithm_name (a));
  r.part = part;
  r.k = k;
  r.algorithm = a;
  g_strlcpy (r.format, format, sizeof (r.format));
  r.width = w;
  r.height = h;
  r.push_ms = r.process_ms = r.scratch_ms = r.gflops = r.flops_frac = r.bytes = NAN;
  r.max_diff = r.diff_limit = NAN;
  g_array_append_val (results, r);
  return &g_array_index (results, Result, results->len - 1);
}

static const Result *
find_table_result (Part part, int k, GcvConv3dAlgorithm a)
{
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    if (r->part == part && r->k == k && r->algorithm == a && !r->m.skipped)
      return r;
  }
  return NULL;
}

static const char *
type_name (GcvSampleType t)
{
  return t == GCV_SAMPLE_U8 ? "u8" : t == GCV_SAMPLE_U16 ? "u16" : "f32";
}

/* ------------------------------------------------------------------------ */
/* FP32 peak of the GPU */

#if GCVB_CUDA
/* cudart is linked (statically, through gcv-cuda); gcv-cuda.h has no
 * wrapper for the attributes the FP32 peak needs (cudaDeviceAttr values
 * from driver_types.h: ClockRate 13, MultiProcessorCount 16, major 75,
 * minor 76). */
extern int cudaDeviceGetAttribute (int *value, int attr, int device);

static int
fp32_lanes_per_sm (int major, int minor)
{
  switch (major) {
    case 6:
      return minor == 0 ? 64 : 128;
    case 7:
      return 64;
    case 8:
      return minor == 0 ? 64 : 128;
    default:
      return major >= 9 || major == 5 ? 128 : 192;
  }
}
#endif

static void
probe_fp32_peak (void)
{
#if GCVB_CUDA
  int clock_khz = 0, sms = 0, major = 0, minor = 0;

  if (!host.cuda.available)
    return;
  if (cudaDeviceGetAttribute (&clock_khz, 13, opt.device) == 0
      && cudaDeviceGetAttribute (&sms, 16, opt.device) == 0
      && cudaDeviceGetAttribute (&major, 75, opt.device) == 0
      && cudaDeviceGetAttribute (&minor, 76, opt.device) == 0 && clock_khz > 0 && sms > 0) {
    int lanes = fp32_lanes_per_sm (major, minor);
    fp32_peak_gflops = 2.0 * lanes * sms * clock_khz * 1e-6;
    g_snprintf (fp32_peak_source, sizeof (fp32_peak_source), "%d SMs x %d FP32 lanes x 2 x %.0f MHz "
        "(cudaDevAttrClockRate, the boost clock)", sms, lanes, clock_khz * 1e-3);
  } else if (strstr (host.cuda.name, "H100") != NULL && strstr (host.cuda.name, "PCIe") == NULL) {
    fp32_peak_gflops = 66900;
    g_strlcpy (fp32_peak_source, "nominal 66.9 TFLOP/s (H100 SXM datasheet)", sizeof (fp32_peak_source));
  } else if (strstr (host.cuda.name, "H100") != NULL) {
    fp32_peak_gflops = 51200;
    g_strlcpy (fp32_peak_source, "nominal 51.2 TFLOP/s (H100 PCIe datasheet)", sizeof (fp32_peak_source));
  } else if (strstr (host.cuda.name, "H200") != NULL) {
    fp32_peak_gflops = 66900;
    g_strlcpy (fp32_peak_source, "nominal 66.9 TFLOP/s (H200 datasheet)", sizeof (fp32_peak_source));
  } else {
    g_strlcpy (fp32_peak_source, "unknown", sizeof (fp32_peak_source));
  }
#endif
}

/* ------------------------------------------------------------------------ */
/* the PyTorch peer */

/* The number after "key": inside [from, to), NAN when absent or null. */
static double
json_number (const char *from, const char *to, const char *key)
{
  gchar *pat = g_strdup_printf ("\"%s\"", key);
  const char *p = g_strstr_len (from, to - from, pat);
  double v = NAN;

  if (p != NULL) {
    p += strlen (pat);
    while (p < to && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':'))
      p++;
    if (p < to && (g_ascii_isdigit (*p) || *p == '-' || *p == '.')) {
      char *end;
      v = g_ascii_strtod (p, &end);
      if (end == p)
        v = NAN;
    }
  }
  g_free (pat);
  return v;
}

/* The string after "key": in text (first occurrence), NULL when absent. */
static gchar *
json_string (const char *text, const char *key)
{
  gchar *pat = g_strdup_printf ("\"%s\"", key);
  const char *p = strstr (text, pat), *q;
  gchar *v = NULL;

  if (p != NULL) {
    p += strlen (pat);
    while (*p == ' ' || *p == ':' || *p == '\n')
      p++;
    if (*p == '"' && (q = strchr (p + 1, '"')) != NULL)
      v = g_strndup (p + 1, q - p - 1);
  }
  g_free (pat);
  return v;
}

/* The fastest median_ms per k over the "results" objects of
 * scripts/bench-torch-conv3d.py's JSON (it times cuDNN with and without
 * cudnn.benchmark; rows with TF32 on are left out). */
static gboolean
peer_load (const char *path)
{
  gchar *text = NULL, *gpu, *torch_v, *date;
  GError *error = NULL;
  const char *p, *end;
  int n = 0;

  for (int k = 0; k <= GCV_CONV3D_MAX_SIZE; k++)
    peer.ms[k] = NAN;
  if (!g_file_get_contents (path, &text, NULL, &error)) {
    g_printerr ("error: --peer-json: %s\n", error->message);
    g_error_free (error);
    return FALSE;
  }
  p = strstr (text, "\"results\"");
  end = text + strlen (text);
  while (p != NULL && (p = strchr (p, '{')) != NULL) {
    const char *close = strchr (p, '}');
    double k, ms;
    if (close == NULL)
      break;
    k = json_number (p, close, "k");
    ms = json_number (p, close, "median_ms");
    /* rows timed with TF32 allowed (--tf32) are no FP32 peer */
    if (g_strstr_len (p, close - p, "\"tf32\": true") != NULL)
      ms = NAN;
    if (!isnan (k) && k >= 1 && k <= GCV_CONV3D_MAX_SIZE && !isnan (ms) && ms > 0) {
      int ki = (int) k;
      if (isnan (peer.ms[ki]) || ms < peer.ms[ki])
        peer.ms[ki] = ms;
      n++;
    }
    p = close + 1;
    if (p >= end)
      break;
  }
  gpu = json_string (text, "gpu");
  torch_v = json_string (text, "torch");
  date = json_string (text, "date");
  if (n == 0) {
    gchar *reason = json_string (text, "reason");
    g_printerr ("warning: --peer-json %s has no timed result%s%s; quoting the issue's figures\n", path,
        reason ? ": " : "", reason ? reason : "");
    g_free (reason);
  } else {
    peer.measured = TRUE;
    g_snprintf (peer.source, sizeof (peer.source), "measured: PyTorch %s F.conv3d (cuDNN, fp32, TF32 off) "
        "on %s, %s (%s)", torch_v ? torch_v : "?", gpu ? gpu : "?", date ? date : "?", path);
  }
  g_free (gpu);
  g_free (torch_v);
  g_free (date);
  g_free (text);
  return TRUE;
}

/* The issue's figures (720x560 only), until measured. */
static void
peer_init (void)
{
  for (int k = 0; k <= GCV_CONV3D_MAX_SIZE; k++)
    peer.ms[k] = peer.rel_err[k] = NAN;
  peer.measured = FALSE;
  if (vol_w != 720 || vol_h != 560) {
    g_snprintf (peer.source, sizeof (peer.source), "not measured (the issue quotes 720x560 only)");
    return;
  }
  for (int i = 0; i < N_PAPER_K; i++)
    peer.ms[paper_k[i]] = issue_torch_ms[i];
  g_strlcpy (peer.source, "issue's measurement: PyTorch F.conv3d (cuDNN, fp32, TF32 off) on an H100, "
      "not measured by this run", sizeof (peer.source));
}

/* The GPU peer run here: scripts/bench-torch-conv3d.py --rows on the
 * tables' frame size and k; the fastest fp32 median per k (cudnn.benchmark
 * off and on), its error against float64.  Unchanged (and why said) when
 * it cannot run. */
static void
peer_run (const GArray * ks)
{
  GString *klist = g_string_new (NULL);
  gchar *w = g_strdup_printf ("%d", vol_w), *h = g_strdup_printf ("%d", vol_h);
  gchar *runs = g_strdup_printf ("%d", opt.runs), *warm = g_strdup_printf ("%d", MAX (opt.warmup, 3));
  gchar *dev = g_strdup_printf ("%d", opt.device);
  const char *args[] = { "--k", NULL, "--width", w, "--height", h, "--runs", runs, "--warmup", warm, "--device",
    dev, NULL
  };
  gchar *version = NULL;
  GPtrArray *rows;
  char why[512];
  int n = 0;

  for (guint i = 0; i < ks->len; i++)
    g_string_append_printf (klist, "%s%d", i ? "," : "", g_array_index (ks, int, i));
  args[1] = klist->str;
  g_printerr ("\n== GPU peer: PyTorch F.conv3d, %dx%d, k %s ==\n", vol_w, vol_h, klist->str);
  rows = gcvb_python_peer ("bench-torch-conv3d.py", args, 1200, why, sizeof (why));
  for (guint i = 0; rows != NULL && i < rows->len; i++) {
    gchar **f = g_ptr_array_index (rows, i);
    guint nf = g_strv_length (f);
    int k;
    double ms;
    if (nf >= 5 && strcmp (f[0], "version") == 0) {
      g_free (version);
      version = g_strdup_printf ("PyTorch %s (CUDA %s, cuDNN %s) on %s", f[1], f[2], f[3], f[4]);
      continue;
    }
    if (nf < 6 || atoi (f[2]) != 0)
      continue;                 /* TF32 rows are no fp32 peer */
    k = atoi (f[0]);
    ms = g_ascii_strtod (f[3], NULL);
    if (k < 1 || k > GCV_CONV3D_MAX_SIZE || !(ms > 0))
      continue;
    if (n == 0 || !peer.measured)
      for (int j = 0; j <= GCV_CONV3D_MAX_SIZE; j++)
        peer.ms[j] = peer.rel_err[j] = NAN;
    peer.measured = TRUE;
    if (isnan (peer.ms[k]) || ms < peer.ms[k])
      peer.ms[k] = ms;
    peer.rel_err[k] = isnan (peer.rel_err[k]) ? g_ascii_strtod (f[5], NULL)
        : MAX (peer.rel_err[k], g_ascii_strtod (f[5], NULL));
    n++;
  }
  if (n > 0)
    g_snprintf (peer.source, sizeof (peer.source), "measured in this run: %s F.conv3d (fp32, TF32 off, the "
        "faster of cudnn.benchmark off / on), %dx%d", version ? version : "PyTorch", vol_w, vol_h);
  else
    g_snprintf (peer.source + strlen (peer.source), sizeof (peer.source) - strlen (peer.source),
        "; the run here failed: %s", rows ? "no rows" : why);
  g_printerr ("  %s\n", peer.source);
  if (rows != NULL)
    g_ptr_array_unref (rows);
  g_string_free (klist, TRUE);
  g_free (version);
  g_free (w);
  g_free (h);
  g_free (runs);
  g_free (warm);
  g_free (dev);
}

/* ------------------------------------------------------------------------ */
/* input: panning sequences */

#define PAN_DX 4                /* pixels per frame */
#define PAN_DY 2

/* nsets sequences of nseq frames of w x h, `channels` interleaved samples
 * (u8), rows `stride` bytes apart: sequence s is a crop panning across
 * canvas s (a test photo scaled and mirror-tiled, gcvb_frameset_init). */
typedef struct {
  int width, height, channels, nseq, nsets;
  size_t stride;
  guint8 ***frames;             /* [set][j] */
} Sequences;

static void
sequences_init (Sequences * sq, const GcvbPhoto * photos, int n_photos, int w, int h, size_t stride,
    int nseq, int nsets)
{
  GcvbFrameSet canvas;
  int C = photos[0].channels;

  memset (sq, 0, sizeof (*sq));
  sq->width = w;
  sq->height = h;
  sq->channels = C;
  sq->nseq = nseq;
  sq->nsets = nsets;
  sq->stride = stride ? stride : (size_t) w * C;
  gcvb_frameset_init (&canvas, "canvas", w + PAN_DX * (nseq - 1), h + PAN_DY * (nseq - 1), 0, TRUE,
      photos, n_photos, nsets);
  sq->frames = g_new0 (guint8 **, nsets);
  for (int s = 0; s < nsets; s++) {
    sq->frames[s] = g_new0 (guint8 *, nseq);
    for (int j = 0; j < nseq; j++) {
      guint8 *f = g_malloc0 (sq->stride * h);
      for (int y = 0; y < h; y++)
        memcpy (f + (size_t) y * sq->stride,
            canvas.frames[s] + (size_t) (y + PAN_DY * j) * canvas.stride + (size_t) PAN_DX * j * C,
            (size_t) w * C);
      sq->frames[s][j] = f;
    }
  }
  gcvb_frameset_clear (&canvas);
}

static void
sequences_clear (Sequences * sq)
{
  for (int s = 0; s < sq->nsets; s++) {
    for (int j = 0; j < sq->nseq; j++)
      g_free (sq->frames[s][j]);
    g_free (sq->frames[s]);
  }
  g_free (sq->frames);
  memset (sq, 0, sizeof (*sq));
}

/* The tables' planes: the sequences' u8 frames in the tables' sample type,
 * packed rows. */
typedef struct {
  int width, height, nseq, nsets;
  GcvSampleType type;
  size_t row;                   /* bytes */
  guint8 ***frames;             /* [set][j] */
} Volume;

static void
volume_init (Volume * v, const Sequences * sq, GcvSampleType type)
{
  size_t n = (size_t) sq->width * sq->height;

  memset (v, 0, sizeof (*v));
  v->width = sq->width;
  v->height = sq->height;
  v->nseq = sq->nseq;
  v->nsets = sq->nsets;
  v->type = type;
  v->row = (size_t) sq->width * gcv_sample_bytes (type);
  v->frames = g_new0 (guint8 **, v->nsets);
  for (int s = 0; s < v->nsets; s++) {
    v->frames[s] = g_new0 (guint8 *, v->nseq);
    for (int j = 0; j < v->nseq; j++) {
      const guint8 *src = sq->frames[s][j];
      guint8 *dst = g_malloc (v->row * v->height);
      if (type == GCV_SAMPLE_U8)
        memcpy (dst, src, n);
      else if (type == GCV_SAMPLE_U16)
        for (size_t i = 0; i < n; i++)
          ((guint16 *) dst)[i] = src[i] * 257;
      else
        for (size_t i = 0; i < n; i++)
          ((float *) dst)[i] = src[i];
      v->frames[s][j] = dst;
    }
  }
}

static void
volume_clear (Volume * v)
{
  for (int s = 0; s < v->nsets; s++) {
    for (int j = 0; j < v->nseq; j++)
      g_free (v->frames[s][j]);
    g_free (v->frames[s]);
  }
  g_free (v->frames);
  memset (v, 0, sizeof (*v));
}

/* ------------------------------------------------------------------------ */
/* kernels, geometry */

/* A random k x k x k kernel: taps uniform in [0, 1), normalised to sum 1
 * (so that u8 outputs stay in range), seed fixed per k; non-separable. */
static float *
random_kernel (int k)
{
  GRand *rnd = g_rand_new_with_seed (4000 + k);
  int n = k * k * k;
  float *c = g_new (float, n);
  double sum = 0;

  for (int i = 0; i < n; i++)
    sum += c[i] = (float) g_rand_double (rnd);
  for (int i = 0; i < n; i++)
    c[i] = (float) (c[i] / sum);
  g_rand_free (rnd);
  return c;
}

static GcvConv3dGeometry
vol_geometry (void)
{
  GcvConv3dGeometry g;

  memset (&g, 0, sizeof (g));
  g.type = vol_type;
  g.channels = 1;
  g.filter_mask = 1;
  g.width = vol_w;
  g.height = vol_h;
  g.max_outputs = N_OUT;
  return g;
}

static GcvConv3dParams
vol_params (int k, GcvConv3dAlgorithm a, const float *coef)
{
  GcvConv3dParams p;

  memset (&p, 0, sizeof (p));
  p.kx = p.ky = p.kt = k;
  p.border = vol_border;
  p.algorithm = a;
  p.coefficients = coef;
  p.scale = 1.0f;
  p.offset = 0.0f;
  p.absolute = 0;
  return p;
}

/* work of a unit: 2 k^3 flops per output sample, 4 outputs */
static double
unit_flops (int k)
{
  return 2.0 * k * k * k * (double) vol_w * vol_h * N_OUT;
}

/* compulsory bytes of a unit: k + 3 frames read, 4 written */
static double
unit_bytes (int k)
{
  return (double) (k + 3 + N_OUT) * vol_w * vol_h * gcv_sample_bytes (vol_type);
}

/* ------------------------------------------------------------------------ */
/* the outputs' agreement: each k's first output (for sequence 0) is the
 * reference of the others */

typedef struct {
  int k;
  char who[32];
  guint8 *planes;               /* N_OUT packed planes */
} Reference;

static GPtrArray *references;   /* of Reference */

static const Reference *
reference_get (int k)
{
  for (guint i = 0; i < references->len; i++) {
    const Reference *ref = g_ptr_array_index (references, i);
    if (ref->k == k)
      return ref;
  }
  return NULL;
}

static void
reference_free (gpointer p)
{
  Reference *ref = p;
  g_free (ref->planes);
  g_free (ref);
}

/* Compares out (N_OUT packed planes) with k's reference, or makes it that. */
static void
check_output (Result * r, const guint8 * out)
{
  size_t n = (size_t) vol_w * vol_h * N_OUT;
  const Reference *ref = reference_get (r->k);
  /* the contract: GCV_CONV3D_TOLERANCE * sum |K| (1 here) * vmax before
   * quantisation; u8 / u16 results may also round the other way */
  double vmax = vol_type == GCV_SAMPLE_U16 ? 65535 : 255;
  double limit = GCV_CONV3D_TOLERANCE * vmax;
  double worst = 0;
  gint64 over = 0;

  if (vol_type != GCV_SAMPLE_F32)
    limit = floor (limit) + 1;
  if (ref == NULL) {
    Reference *nr = g_new0 (Reference, 1);
    nr->k = r->k;
    g_snprintf (nr->who, sizeof (nr->who), "%s %s", part_names[r->part],
        gcv_conv3d_algorithm_name (r->algorithm));
    nr->planes = g_memdup2 (out, n * gcv_sample_bytes (vol_type));
    g_ptr_array_add (references, nr);
    g_strlcpy (r->reference, "(reference)", sizeof (r->reference));
    r->max_diff = 0;
    r->diff_limit = limit;
    r->m.mismatch = 0;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    double a, b, d;
    if (vol_type == GCV_SAMPLE_U8)
      a = out[i], b = ref->planes[i];
    else if (vol_type == GCV_SAMPLE_U16)
      a = ((const guint16 *) out)[i], b = ((const guint16 *) ref->planes)[i];
    else
      a = ((const float *) out)[i], b = ((const float *) ref->planes)[i];
    d = fabs (a - b);
    if (!(d <= limit))          /* NaN counts */
      over++;
    if (d > worst || isnan (d))
      worst = isnan (d) ? INFINITY : d;
  }
  g_strlcpy (r->reference, ref->who, sizeof (r->reference));
  r->max_diff = worst;
  r->diff_limit = limit;
  r->m.mismatch = over;
  if (over > 0)
    gcvb_result_note (&r->m, "DIFFERS from %s: %" G_GINT64_FORMAT " samples beyond %.4g (max %.4g)",
        ref->who, over, limit, worst);
}

/* fft-hybrid makes a frame's 2-D spectrum at its push, so in the steady
 * state a unit pays for N_OUT spectra and reuses the k - 1 older ones; the
 * paper's volume (and PyTorch) start from k + 3 frames.  The estimate adds
 * the pushes of those k - 1 frames at the measured cost of a push. */
static void
note_from_scratch (Result * r)
{
  if (r->algorithm != GCV_CONV3D_FFT_HYBRID || isnan (r->push_ms))
    return;
  r->scratch_ms = r->m.ms + (r->k - 1) * r->push_ms / N_OUT;
  gcvb_result_note (&r->m, "from scratch (k+3 spectra) ~%.4g ms (estimate)", r->scratch_ms);
}

/* ------------------------------------------------------------------------ */
/* CPU backend */

static double
cpu_budget_s (void)
{
  return gcvb_cpu_budget_s (&opt, opt_cpu_budget, 3, 20);
}

static double
cpu_max_run_s (void)
{
  return opt_cpu_max_run >= 0 ? opt_cpu_max_run : opt.quick ? 8 : 60;
}

/* Frame f of the endless input stream: the sequences one after the other,
 * rotated through. */
static const guint8 *
stream_frame (const Volume * v, long long f)
{
  return v->frames[(f / v->nseq) % v->nsets][f % v->nseq];
}

/* Pushes until N_OUT outputs are ready (rt + N_OUT frames into the fresh
 * stream), then processes them: the stream's first outputs (border in time),
 * the ones compared between the algorithms. */
static GcvStatus
cpu_prime (GcvConv3dCpu * ctx, const GcvConv3dParams * params, const Volume * v, long long *next,
    GcvPlane * out, GcvError * err)
{
  while (gcv_conv3d_cpu_ready (ctx) < N_OUT) {
    GcvPlane in = { (void *) stream_frame (v, *next), v->width, v->height, v->row };
    GcvStatus st = gcv_conv3d_cpu_push (ctx, &in, err);
    if (st != GCV_OK)
      return st;
    ++*next;
  }
  return gcv_conv3d_cpu_process (ctx, params, N_OUT, out, err);
}

/* One unit of the steady state: push N_OUT new frames (the ring then holds
 * the k + 3 frames the next N_OUT outputs read), process those outputs. */
static GcvStatus
cpu_unit (GcvConv3dCpu * ctx, const GcvConv3dParams * params, const Volume * v, long long *next,
    GcvPlane * out, double *push_ms, double *proc_ms, GcvError * err)
{
  double t0, t1;
  GcvStatus st;

  t0 = gcvb_now_ms ();
  for (int j = 0; j < N_OUT; j++) {
    GcvPlane in = { (void *) stream_frame (v, *next), v->width, v->height, v->row };
    if ((st = gcv_conv3d_cpu_push (ctx, &in, err)) != GCV_OK)
      return st;
    ++*next;
  }
  t1 = gcvb_now_ms ();
  if (gcv_conv3d_cpu_ready (ctx) < N_OUT) {
    gcv_error_set (err, GCV_ERROR_INVALID, "only %d outputs ready after %d more pushes",
        gcv_conv3d_cpu_ready (ctx), N_OUT);
    return GCV_ERROR_INVALID;
  }
  if ((st = gcv_conv3d_cpu_process (ctx, params, N_OUT, out, err)) != GCV_OK)
    return st;
  *push_ms = t1 - t0;
  *proc_ms = gcvb_now_ms () - t1;
  return GCV_OK;
}

/* Extrapolated seconds of one CPU unit of (k, a) from the largest smaller k
 * measured; NAN when none. */
static double
cpu_predict_s (int k, GcvConv3dAlgorithm a)
{
  const Result *best = NULL;

  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    if (r->part == PART_CPU && r->algorithm == a && !r->m.skipped && r->k < k && (best == NULL || r->k > best->k))
      best = r;
  }
  if (best == NULL)
    return NAN;
  if (a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID)
    return best->m.ms * 1e-3 * (k + 3.0) / (best->k + 3.0);
  return best->m.ms * 1e-3 * pow ((double) k / best->k, 3);
}

static void
bench_cpu (const Volume * v, int k, GcvConv3dAlgorithm a, const float *coef, gboolean do_check)
{
  Result *r = result_new (PART_CPU, k, a, type_name (vol_type), vol_w, vol_h, "cpu backend");
  GcvConv3dGeometry geom = vol_geometry ();
  GcvConv3dParams params = vol_params (k, a, coef);
  GcvError err = { 0 };
  GcvConv3dCpu *ctx = NULL;
  GcvPlane out[N_OUT];
  guint8 *out_mem;
  size_t plane = v->row * v->height;
  int max_runs = opt.cpu_runs ? opt.cpu_runs : 10, runs = 0;
  double budget = cpu_budget_s (), predicted = cpu_predict_s (k, a);
  double *t, *tp, *tq, push, proc, first;
  long long next = 0;           /* the next frame of the stream */

  r->m.threads = gcvb_cpu_threads (opt_cpu_threads);
  r->bytes = unit_bytes (k);
  if ((a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID) && !gcv_conv3d_cpu_have_fft ()) {
    gcvb_result_skip (&r->m, "built without FFTW");
    return;
  }
  if (!isnan (predicted) && predicted > cpu_max_run_s ()) {
    gcvb_result_skip (&r->m, "a run would take ~%.0f s (extrapolated from the smaller k) > --cpu-max-run %.0f s",
        predicted, cpu_max_run_s ());
    return;
  }
  ctx = gcv_conv3d_cpu_new (&geom, &params, opt_cpu_threads, &err);
  if (ctx == NULL) {
    gcvb_result_fail (&r->m, "gcv_conv3d_cpu_new: %s", err.message);
    return;
  }
  out_mem = g_malloc0 (plane * N_OUT);
  for (int i = 0; i < N_OUT; i++) {
    out[i].data = out_mem + plane * i;
    out[i].width = v->width;
    out[i].height = v->height;
    out[i].stride = v->row;
  }
  t = g_new (double, max_runs + 1);
  tp = g_new (double, max_runs + 1);
  tq = g_new (double, max_runs + 1);

  /* the stream's first outputs: checked */
  if (cpu_prime (ctx, &params, v, &next, out, &err) != GCV_OK) {
    gcvb_result_fail (&r->m, "%s", err.message);
    goto done;
  }
  if (do_check)
    check_output (r, out_mem);
  /* one warm-up unit, whose time sets how many runs fit the budget */
  if (cpu_unit (ctx, &params, v, &next, out, &push, &proc, &err) != GCV_OK) {
    gcvb_result_fail (&r->m, "%s", err.message);
    goto done;
  }
  first = push + proc;
  if (first * 1e-3 >= budget) {
    /* one run is over the budget: that run is the measurement */
    t[0] = first, tp[0] = push, tq[0] = proc;
    runs = 1;
    r->budget_limited = max_runs > 1;
    gcvb_result_note (&r->m, "1 run (the warm-up: it alone is over the %.0f s budget)", budget);
  } else {
    int n = (int) MIN ((double) max_runs, MAX (1.0, floor (budget / (first * 1e-3))));
    if (n < max_runs) {
      r->budget_limited = TRUE;
      gcvb_result_note (&r->m, "%d run%s (the %.0f s budget)", n, n == 1 ? "" : "s", budget);
    }
    for (int i = 0; i < n; i++) {
      if (cpu_unit (ctx, &params, v, &next, out, &push, &proc, &err) != GCV_OK) {
        gcvb_result_fail (&r->m, "%s", err.message);
        goto done;
      }
      t[i] = push + proc, tp[i] = push, tq[i] = proc;
    }
    runs = n;
  }
  r->m.count = runs;
  r->m.mean_ms = gcvb_mean (t, runs);
  r->m.ms = gcvb_median (t, runs);
  r->m.fps = 1000.0 * N_OUT / r->m.ms;   /* output frames per second */
  r->push_ms = gcvb_median (tp, runs);
  r->process_ms = gcvb_median (tq, runs);
  r->gflops = unit_flops (k) / (r->m.ms * 1e-3) / 1e9;
  r->m.compute_ms = r->m.ms;
  g_strlcpy (r->m.backend, "cpu", sizeof (r->m.backend));
  note_from_scratch (r);
  g_printerr ("  %s %10.3f ms (median of %d; push %.3f + process %.3f)  %.1f GFLOP/s%s%s\n", r->m.label,
      r->m.ms, runs, r->push_ms, r->process_ms, r->gflops, r->m.note[0] ? "  " : "", r->m.note);
done:
  gcv_conv3d_cpu_free (ctx);
  g_free (out_mem);
  g_free (t);
  g_free (tp);
  g_free (tq);
}

/* ------------------------------------------------------------------------ */
/* CUDA backend */

#if GCVB_CUDA

/* The tables' frames on the device (uploaded once), and N_OUT output
 * planes. */
typedef struct {
  gboolean ok;
  void *stream;
  void ***frames;               /* [set][j] */
  size_t **pitch;
  void *out[N_OUT];
  size_t out_pitch[N_OUT];
  char error[512];
} DeviceVolume;

static DeviceVolume dvol;

static gboolean
dvol_init (const Volume * v)
{
  GcvError err = { 0 };

  memset (&dvol, 0, sizeof (dvol));
  if (gcv_cuda_set_device (opt.device, &err) != GCV_OK || gcv_cuda_stream_new (&dvol.stream, &err) != GCV_OK)
    goto fail;
  dvol.frames = g_new0 (void **, v->nsets);
  dvol.pitch = g_new0 (size_t *, v->nsets);
  for (int s = 0; s < v->nsets; s++) {
    dvol.frames[s] = g_new0 (void *, v->nseq);
    dvol.pitch[s] = g_new0 (size_t, v->nseq);
    for (int j = 0; j < v->nseq; j++)
      if (gcv_cuda_malloc_2d (&dvol.frames[s][j], &dvol.pitch[s][j], v->row, v->height, &err) != GCV_OK
          || gcv_cuda_upload_2d (dvol.frames[s][j], dvol.pitch[s][j], v->frames[s][j], v->row, v->row,
              v->height, dvol.stream, &err) != GCV_OK)
        goto fail;
  }
  for (int i = 0; i < N_OUT; i++)
    if (gcv_cuda_malloc_2d (&dvol.out[i], &dvol.out_pitch[i], v->row, v->height, &err) != GCV_OK)
      goto fail;
  if (gcv_cuda_stream_sync (dvol.stream, &err) != GCV_OK)
    goto fail;
  dvol.ok = TRUE;
  return TRUE;
fail:
  g_strlcpy (dvol.error, err.message, sizeof (dvol.error));
  return FALSE;
}

static void
dvol_clear (const Volume * v)
{
  GcvError err = { 0 };

  if (dvol.stream)
    gcv_cuda_stream_sync (dvol.stream, &err);
  for (int s = 0; dvol.frames && s < v->nsets; s++) {
    for (int j = 0; dvol.frames[s] && j < v->nseq; j++)
      if (dvol.frames[s][j])
        gcv_cuda_free (dvol.frames[s][j]);
    g_free (dvol.frames[s]);
    g_free (dvol.pitch[s]);
  }
  g_free (dvol.frames);
  g_free (dvol.pitch);
  for (int i = 0; i < N_OUT; i++)
    if (dvol.out[i])
      gcv_cuda_free (dvol.out[i]);
  if (dvol.stream)
    gcv_cuda_stream_free (dvol.stream);
  memset (&dvol, 0, sizeof (dvol));
}

/* Device frame f of the endless input stream (as stream_frame). */
static GcvPlane
dvol_frame (const Volume * v, long long f)
{
  int set = (int) ((f / v->nseq) % v->nsets), j = (int) (f % v->nseq);
  GcvPlane p = { dvol.frames[set][j], v->width, v->height, dvol.pitch[set][j] };
  return p;
}

static void
dvol_outputs (const Volume * v, GcvPlane * out)
{
  for (int i = 0; i < N_OUT; i++) {
    out[i].data = dvol.out[i];
    out[i].width = v->width;
    out[i].height = v->height;
    out[i].stride = dvol.out_pitch[i];
  }
}

/* As cpu_prime, queued on the stream. */
static GcvStatus
gpu_prime (GcvConv3dCuda * ctx, const GcvConv3dParams * params, const Volume * v, long long *next,
    GcvError * err)
{
  GcvPlane out[N_OUT];
  GcvStatus st;

  while (gcv_conv3d_cuda_ready (ctx) < N_OUT) {
    GcvPlane in = dvol_frame (v, *next);
    if ((st = gcv_conv3d_cuda_push (ctx, &in, dvol.stream, err)) != GCV_OK)
      return st;
    ++*next;
  }
  dvol_outputs (v, out);
  return gcv_conv3d_cuda_process (ctx, params, N_OUT, out, dvol.stream, err);
}

/* As cpu_unit, queued on the stream: [ev0] push N_OUT frames [ev1] process
 * N_OUT outputs [ev2]; ev may be NULL. */
static GcvStatus
gpu_unit (GcvConv3dCuda * ctx, const GcvConv3dParams * params, const Volume * v, long long *next,
    GcvCudaEvent ** ev, GcvError * err)
{
  GcvPlane out[N_OUT];
  GcvStatus st;

  if (ev && (st = gcv_cuda_event_record (ev[0], dvol.stream, err)) != GCV_OK)
    return st;
  for (int j = 0; j < N_OUT; j++) {
    GcvPlane in = dvol_frame (v, *next);
    if ((st = gcv_conv3d_cuda_push (ctx, &in, dvol.stream, err)) != GCV_OK)
      return st;
    ++*next;
  }
  if (ev && (st = gcv_cuda_event_record (ev[1], dvol.stream, err)) != GCV_OK)
    return st;
  if (gcv_conv3d_cuda_ready (ctx) < N_OUT) {
    gcv_error_set (err, GCV_ERROR_INVALID, "only %d outputs ready after %d more pushes",
        gcv_conv3d_cuda_ready (ctx), N_OUT);
    return GCV_ERROR_INVALID;
  }
  dvol_outputs (v, out);
  if ((st = gcv_conv3d_cuda_process (ctx, params, N_OUT, out, dvol.stream, err)) != GCV_OK)
    return st;
  if (ev && (st = gcv_cuda_event_record (ev[2], dvol.stream, err)) != GCV_OK)
    return st;
  return GCV_OK;
}

#define GPU_TRY(call, what) \
  do { if ((call) != GCV_OK) { gcvb_result_fail (&r->m, "%s: %s", what, err.message); goto done; } } while (0)

static void
bench_gpu (const Volume * v, int k, GcvConv3dAlgorithm a, const float *coef, gboolean do_check)
{
  Result *r = result_new (PART_GPU, k, a, type_name (vol_type), vol_w, vol_h, "cuda backend");
  GcvConv3dGeometry geom = vol_geometry ();
  GcvConv3dParams params = vol_params (k, a, coef);
  GcvError err = { 0 };
  GcvConv3dCuda *ctx = NULL;
  int runs = opt.runs, warmup = MAX (opt.warmup, 1);
  GcvCudaEvent **ev = g_new0 (GcvCudaEvent *, 3 * runs);
  double *t = g_new (double, runs), *tp = g_new (double, runs), *tq = g_new (double, runs);
  guint8 *check = NULL;
  long long next = 0;           /* the next frame of the stream */

  r->bytes = unit_bytes (k);
  if (!dvol.ok) {
    gcvb_result_fail (&r->m, "device frames: %s", dvol.error);
    goto done;
  }
  if (a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID) {
    GcvError ferr = { 0 };
    if (!gcv_conv3d_cuda_have_fft (&ferr)) {
      gcvb_result_skip (&r->m, "no cuFFT: %s", ferr.message);
      goto done;
    }
  }
  GPU_TRY (gcv_cuda_set_device (opt.device, &err), "set device");
  ctx = gcv_conv3d_cuda_new (&geom, &params, dvol.stream, &err);
  if (ctx == NULL) {
    gcvb_result_fail (&r->m, "gcv_conv3d_cuda_new: %s", err.message);
    goto done;
  }
  for (int i = 0; i < 3 * runs; i++)
    GPU_TRY (gcv_cuda_event_new (&ev[i], &err), "event");

  /* the stream's first outputs, compared with the reference */
  GPU_TRY (gpu_prime (ctx, &params, v, &next, &err), "first outputs");
  if (do_check) {
    check = g_malloc (v->row * v->height * N_OUT);
    for (int i = 0; i < N_OUT; i++)
      GPU_TRY (gcv_cuda_download_2d (check + v->row * v->height * i, v->row, dvol.out[i], dvol.out_pitch[i],
              v->row, v->height, dvol.stream, &err), "download");
  }
  GPU_TRY (gcv_cuda_stream_sync (dvol.stream, &err), "stream sync");

  for (int i = 0; i < warmup; i++)
    GPU_TRY (gpu_unit (ctx, &params, v, &next, NULL, &err), "warm-up unit");
  GPU_TRY (gcv_cuda_stream_sync (dvol.stream, &err), "stream sync");
  for (int i = 0; i < runs; i++)
    GPU_TRY (gpu_unit (ctx, &params, v, &next, ev + 3 * i, &err), "timed unit");
  GPU_TRY (gcv_cuda_event_sync (ev[3 * runs - 1], &err), "event sync");
  GPU_TRY (gcv_cuda_stream_sync (dvol.stream, &err), "stream sync");
  {
    float span = 0;
    GPU_TRY (gcv_cuda_event_elapsed (ev[0], ev[3 * runs - 1], &span, &err), "event elapsed");
    r->m.mean_ms = span / runs; /* back to back */
  }
  for (int i = 0; i < runs; i++) {
    float a0, a1;
    GPU_TRY (gcv_cuda_event_elapsed (ev[3 * i], ev[3 * i + 1], &a0, &err), "event elapsed");
    GPU_TRY (gcv_cuda_event_elapsed (ev[3 * i + 1], ev[3 * i + 2], &a1, &err), "event elapsed");
    tp[i] = a0, tq[i] = a1, t[i] = (double) a0 + a1;
  }
  if (check != NULL)
    check_output (r, check);
  r->m.ms = gcvb_median (t, runs);
  r->push_ms = gcvb_median (tp, runs);
  r->process_ms = gcvb_median (tq, runs);
  gcvb_result_kernel (&r->m, runs, r->bytes, &host.cuda);
  r->m.fps = 1000.0 * N_OUT / r->m.ms;   /* output frames per second */
  r->gflops = unit_flops (k) / (r->m.ms * 1e-3) / 1e9;
  if (!isnan (fp32_peak_gflops))
    r->flops_frac = r->gflops / fp32_peak_gflops;
  note_from_scratch (r);
  g_printerr ("  %s %10.4f ms (median of %d; push %.4f + process %.4f; back-to-back %.4f)  %.0f GFLOP/s"
      "%s%s\n", r->m.label, r->m.ms, runs, r->push_ms, r->process_ms, r->m.mean_ms, r->gflops,
      r->m.note[0] ? "  " : "", r->m.note);
done:
  if (dvol.stream)
    gcv_cuda_stream_sync (dvol.stream, &err);
  for (int i = 0; i < 3 * runs; i++)
    if (ev[i])
      gcv_cuda_event_free (ev[i]);
  if (ctx)
    gcv_conv3d_cuda_free (ctx);
  g_free (ev);
  g_free (t);
  g_free (tp);
  g_free (tq);
  g_free (check);
}

#endif /* GCVB_CUDA */

/* ------------------------------------------------------------------------ */
/* elements */

typedef struct {
  const char *name;             /* GStreamer format */
  const char *photos;           /* format of the photos the frames come from */
  int channels;
} ElemFormat;

static const ElemFormat elem_formats[] = {
  {"GRAY8", "GRAY8", 1},
  {"I420", "GRAY8", 1},
  {"RGBA", "RGBA", 4},
};

/* n frames of `format` (w x h, GStreamer's layout) panning across the
 * photos, in a GcvbFrameSet (one buffer per frame).  I420: Y is the luma
 * crop, U and V are derived from its 2 x 2 means (never flat). */
static void
element_frames (GcvbFrameSet * fs, const ElemFormat * f, const GcvbPhoto * photos, int n_photos, int w, int h,
    int n)
{
  GstVideoInfo info;
  Sequences sq;
  int per = 8, nsets = (n + per - 1) / per;

  gst_video_info_set_format (&info, gst_video_format_from_string (f->name), w, h);
  sequences_init (&sq, photos, n_photos, w, h, GST_VIDEO_INFO_PLANE_STRIDE (&info, 0), per, MAX (nsets, 1));
  memset (fs, 0, sizeof (*fs));
  g_snprintf (fs->name, sizeof (fs->name), "%s %dx%d", f->name, w, h);
  fs->width = w;
  fs->height = h;
  fs->channels = f->channels;
  fs->stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  fs->size = GST_VIDEO_INFO_SIZE (&info);
  fs->n = n;
  fs->frames = g_new0 (guint8 *, n);
  for (int i = 0; i < n; i++) {
    const guint8 *y = sq.frames[i / per][i % per];
    guint8 *buf = g_malloc0 (fs->size);
    memcpy (buf + GST_VIDEO_INFO_PLANE_OFFSET (&info, 0), y, fs->stride * h);
    if (GST_VIDEO_INFO_N_PLANES (&info) == 3) {
      int cw = GST_VIDEO_INFO_COMP_WIDTH (&info, 1), ch = GST_VIDEO_INFO_COMP_HEIGHT (&info, 1);
      guint8 *u = buf + GST_VIDEO_INFO_PLANE_OFFSET (&info, 1);
      guint8 *v = buf + GST_VIDEO_INFO_PLANE_OFFSET (&info, 2);
      size_t us = GST_VIDEO_INFO_PLANE_STRIDE (&info, 1), vs = GST_VIDEO_INFO_PLANE_STRIDE (&info, 2);
      for (int cy = 0; cy < ch; cy++)
        for (int cx = 0; cx < cw; cx++) {
          int x0 = MIN (2 * cx, w - 1), x1 = MIN (2 * cx + 1, w - 1);
          int y0 = MIN (2 * cy, h - 1), y1 = MIN (2 * cy + 1, h - 1);
          int m = (y[(size_t) y0 * fs->stride + x0] + y[(size_t) y0 * fs->stride + x1]
              + y[(size_t) y1 * fs->stride + x0] + y[(size_t) y1 * fs->stride + x1] + 2) / 4;
          u[(size_t) cy * us + cx] = (guint8) (128 + (m - 128) / 2);
          v[(size_t) cy * vs + cx] = (guint8) (128 - (m - 128) / 3);
        }
    }
    fs->frames[i] = buf;
  }
  sequences_clear (&sq);
}

/* appsrc ! factory ! appsink (gcvb_pipeline_new), timed by
 * gcvb_pipeline_time_latency: the element holds `latency` frames back until
 * EOS, so after n pushes only n - latency frames have come out.  The clock
 * runs from the moment the warm-up's outputs are out to the moment the
 * timed frames' outputs are: one output per input in the steady state. */
static void
bench_element (const char *factory, const ElemFormat * f, int size, const GcvbFrameSet * fs, int warmup,
    int frames)
{
  gboolean is_cuda = g_str_has_prefix (factory, "cuda");
  Result *r = result_new (PART_ELEMENT, size, GCV_CONV3D_AUTO, f->name, fs->width, fs->height, factory);
  int latency = size / 2;
  GcvbPipeline *p;
  GstElement *elem;
  GstCaps *caps;
  gchar *s;
  char buf[32];

  r->m.threads = is_cuda ? 0 : (int) g_get_num_processors ();
  warmup = MAX (warmup, latency + 2);

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, f->name, "width", G_TYPE_INT, fs->width,
      "height", G_TYPE_INT, fs->height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  p = gcvb_pipeline_new (factory, "conv3d", caps, NULL, TRUE, &r->m);
  gst_caps_unref (caps);
  if (p == NULL)
    return;
  elem = gcvb_pipeline_element (p);
  g_snprintf (buf, sizeof (buf), "%d", size);
  gcvb_set_prop (elem, "size", buf);
  gcvb_set_prop (elem, "algorithm", "auto");
  if (is_cuda) {
    g_snprintf (buf, sizeof (buf), "%d", opt.device);
    gcvb_set_prop (elem, "cuda-device-id", buf);
    /* measure the GPU or fail: never time the CPU fallback by mistake */
    gcvb_set_prop (elem, "fallback", "false");
  } else {
    gcvb_set_prop (elem, "n-threads", "0");
  }

  if (gcvb_pipeline_time_latency (p, fs, warmup, frames, opt.queue, latency, TRUE, &r->m)) {
    s = gcvb_prop_string (elem, "selected-algorithm");
    g_strlcpy (r->selected, s ? s : "?", sizeof (r->selected));
    g_free (s);
    if (g_strcmp0 (r->m.backend, "cpu") == 0)
      r->m.upload_ms = r->m.download_ms = NAN;  /* no copies on the CPU */
    if (is_cuda && g_strcmp0 (r->m.backend, "cuda") != 0)
      gcvb_result_note (&r->m, "FELL BACK to %s", r->m.backend);
    g_printerr ("  %s %9.3f ms/frame %8.1f fps  up %.3f comp %.3f down %.3f total %.3f  [%s, %s]%s%s\n",
        r->m.label, r->m.ms, r->m.fps, r->m.upload_ms, r->m.compute_ms, r->m.download_ms, r->m.total_ms,
        r->m.backend, r->selected, r->m.note[0] ? "  " : "", r->m.note);
  }
  gcvb_pipeline_free (p);       /* EOS drains the held frames */
}

/* ------------------------------------------------------------------------ */
/* output */

typedef struct {
  gboolean measured;
  GcvConv3dAlgorithm best, pick;
  double best_ms, pick_ms, gap;     /* gap: pick / best - 1 */
  gboolean all_measured;            /* every algorithm asked was measured */
  char why[256];
} AutoCheck;

static gboolean
backend_has_fft (Part part)
{
  if (part == PART_CPU)
    return gcv_conv3d_cpu_have_fft ();
#if GCVB_CUDA
  {
    GcvError err = { 0 };
    return host.cuda.available && gcv_conv3d_cuda_have_fft (&err);
  }
#else
  return FALSE;
#endif
}

static AutoCheck
auto_check (Part part, int k, const GArray * algos)
{
  AutoCheck c;
  GcvConv3dGeometry geom = vol_geometry ();
  float dummy = 1;
  GcvConv3dParams params = vol_params (k, GCV_CONV3D_AUTO, &dummy);
  const Result *pr;

  memset (&c, 0, sizeof (c));
  c.best_ms = c.pick_ms = c.gap = NAN;
  c.all_measured = TRUE;
  for (guint i = 0; i < algos->len; i++) {
    GcvConv3dAlgorithm a = g_array_index (algos, int, i);
    const Result *r = find_table_result (part, k, a);
    if (r == NULL) {
      c.all_measured = FALSE;
      continue;
    }
    if (!c.measured || r->m.ms < c.best_ms) {
      c.measured = TRUE;
      c.best = a;
      c.best_ms = r->m.ms;
    }
  }
  c.pick = gcv_conv3d_choose (part == PART_GPU, &geom, &params, backend_has_fft (part), c.why, sizeof (c.why));
  pr = find_table_result (part, k, c.pick);
  if (pr != NULL && c.measured) {
    c.pick_ms = pr->m.ms;
    c.gap = pr->m.ms / c.best_ms - 1;
  }
  return c;
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
fmt_ms (char *buf, size_t len, double ms)
{
  if (isnan (ms))
    g_strlcpy (buf, "-", len);
  else if (ms < 10)
    g_snprintf (buf, len, "%.3f", ms);
  else if (ms < 1000)
    g_snprintf (buf, len, "%.1f", ms);
  else
    g_snprintf (buf, len, "%.0f", ms);
}

/* The paper-shaped table of one backend: rows k, per algorithm ours and the
 * paper's ms, then the best, auto and (GPU) the peer. */
static void
print_paper_table (Part part, const GArray * ks, const GArray * algos)
{
  const double (*paper)[5] = part == PART_GPU ? paper_gpu : paper_cpu;
  int n_ok = 0, n_checked = 0;

  if (!have_part (part))
    return;
  if (part == PART_GPU)
    g_print ("\n== Table 1, GPU: ms to compute %d frames of a k x k x k convolution of %dx%d (%s) ==\n"
        "ours: %s, CUDA events around _push of %d frames (on the device) + _process of %d outputs in a "
        "stream\n(the ring holds the k+3 frames they read), median;\npaper: %s\n", N_OUT, vol_w, vol_h,
        type_name (vol_type), host.cuda.available ? host.cuda.name : "no GPU", N_OUT, N_OUT, PAPER_GPU);
  else
    g_print ("\n== Table 2, CPU: ms to compute %d frames of a k x k x k convolution of %dx%d (%s) ==\n"
        "ours: %s, %d threads, wall clock around _push of %d frames + _process of %d outputs in a "
        "stream\n(the ring holds the k+3 frames they read), median;\npaper: %s\n", N_OUT, vol_w, vol_h,
        type_name (vol_type), host.cpu, gcvb_cpu_threads (opt_cpu_threads), N_OUT,
        N_OUT, PAPER_CPU);
  g_print ("%3s ", "k");
  for (guint i = 0; i < algos->len; i++)
    g_print (" %18s", gcv_conv3d_algorithm_name (g_array_index (algos, int, i)));
  g_print ("  %-22s %-30s", "best (ours)", "auto: choose() -> ours, vs best");
  if (part == PART_GPU)
    g_print (" %s", peer.measured ? "PyTorch (measured)" : "PyTorch (issue)");
  g_print ("\n%3s ", "");
  for (guint i = 0; i < algos->len; i++)
    g_print (" %10s %7s", "ours", "paper");
  g_print ("\n");
  for (guint ki = 0; ki < ks->len; ki++) {
    int k = g_array_index (ks, int, ki), pr = paper_row (k);
    AutoCheck c = auto_check (part, k, algos);
    char cell[64], best[64], pick[64];

    g_print ("%3d ", k);
    for (guint i = 0; i < algos->len; i++) {
      GcvConv3dAlgorithm a = g_array_index (algos, int, i);
      const Result *r = find_table_result (part, k, a);
      char ours[32], paper_s[32];
      fmt_ms (ours, sizeof (ours), r ? r->m.ms : NAN);
      if (r == NULL) {
        /* skipped or failed: say which */
        for (guint j = 0; j < results->len; j++) {
          const Result *x = &g_array_index (results, Result, j);
          if (x->part == part && x->k == k && x->algorithm == a)
            g_strlcpy (ours, x->m.failed ? "FAILED" : "skipped", sizeof (ours));
        }
      } else if (r->m.mismatch > 0)
        g_strlcat (ours, "!", sizeof (ours));
      else if (r->budget_limited && r->m.count <= 1)
        g_strlcat (ours, "*", sizeof (ours));
      if (pr >= 0 && !isnan (paper[pr][ALGO_INDEX (a)]))
        g_snprintf (paper_s, sizeof (paper_s), "%.0f", paper[pr][ALGO_INDEX (a)]);
      else
        g_strlcpy (paper_s, "-", sizeof (paper_s));
      g_snprintf (cell, sizeof (cell), " %10s %7s", ours, paper_s);
      g_print ("%s", cell);
    }
    if (c.measured) {
      char ms[32];
      fmt_ms (ms, sizeof (ms), c.best_ms);
      g_snprintf (best, sizeof (best), "%s %s%s", gcv_conv3d_algorithm_name (c.best), ms,
          c.all_measured ? "" : " (of measured)");
    } else
      g_strlcpy (best, "-", sizeof (best));
    if (!isnan (c.gap)) {
      char ms[32];
      fmt_ms (ms, sizeof (ms), c.pick_ms);
      g_snprintf (pick, sizeof (pick), "%s %s %+.1f%% %s", gcv_conv3d_algorithm_name (c.pick), ms, 100 * c.gap,
          c.gap <= 0.10 ? "ok" : "MISSED");
      n_checked++;
      n_ok += c.gap <= 0.10;
    } else
      g_snprintf (pick, sizeof (pick), "%s (not measured)", gcv_conv3d_algorithm_name (c.pick));
    g_print ("  %-22s %-30s", best, pick);
    if (part == PART_GPU) {
      char ms[32];
      fmt_ms (ms, sizeof (ms), peer.ms[k]);
      g_print (" %s", ms);
      if (!isnan (peer.ms[k]) && c.measured)
        g_print (" (ours best %.2fx)", peer.ms[k] / c.best_ms);
      if (!isnan (peer.rel_err[k]))
        g_print (" err %.1e", peer.rel_err[k]);
    }
    g_print ("\n");
  }
  g_print ("auto within 10%% of the best (issue 4's target): %d of %d sizes measured%s\n", n_ok, n_checked,
      n_checked == 0 ? "" : n_ok == n_checked ? " -- MET" : " -- MISSED");
  g_print ("(the gcv_conv3d_choose() model is the one compiled into this build; '!': output differs from the "
      "reference,\n'*': a single run, over the CPU budget; 'skipped': see the rows below.  fft-hybrid reuses the "
      "spectra of\nthe k-1 older frames in a stream: its rows below also estimate the paper's from-scratch "
      "volume)\n");
  if (part == PART_GPU)
    g_print ("PyTorch: %s%s\n", peer.source, peer.measured ? "; err: its output's largest difference from "
        "float64 over the largest output" : "");
}

/* GPU: effective GFLOP/s and, for the direct algorithms, the compulsory
 * bytes' bandwidth. */
static void
print_efficiency (const GArray * ks, const GArray * algos)
{
  if (!have_part (PART_GPU))
    return;
  g_print ("\n== GPU efficiency: GFLOP/s at 2 k^3 flops per output sample (FFT rows: the direct-equivalent "
      "rate)\n   and %% of the FP32 peak; direct algorithms: compulsory bytes ((k+3) frames in + %d out) / "
      "time, %% of peak bandwidth ==\n", N_OUT);
  {
    char peak[32];
    gcvb_fmt_num (peak, sizeof (peak), fp32_peak_gflops, "%.0f");
    g_print ("FP32 peak: %s GFLOP/s [%s]; memory: %.0f GB/s peak [%s]\n", peak, fp32_peak_source,
        host.cuda.peak_gbps, host.cuda.peak_source);
  }
  g_print ("%3s ", "k");
  for (guint i = 0; i < algos->len; i++)
    g_print (" %18s", gcv_conv3d_algorithm_name (g_array_index (algos, int, i)));
  g_print ("  | GB/s (%% peak):");
  for (guint i = 0; i < algos->len; i++) {
    GcvConv3dAlgorithm a = g_array_index (algos, int, i);
    if (a != GCV_CONV3D_FFT3D && a != GCV_CONV3D_FFT_HYBRID)
      g_print (" %16s", gcv_conv3d_algorithm_name (a));
  }
  g_print ("\n");
  for (guint ki = 0; ki < ks->len; ki++) {
    int k = g_array_index (ks, int, ki);
    g_print ("%3d ", k);
    for (guint i = 0; i < algos->len; i++) {
      const Result *r = find_table_result (PART_GPU, k, g_array_index (algos, int, i));
      char cell[40];
      if (r == NULL)
        g_strlcpy (cell, "-", sizeof (cell));
      else if (isnan (r->flops_frac))
        g_snprintf (cell, sizeof (cell), "%.0f", r->gflops);
      else
        g_snprintf (cell, sizeof (cell), "%.0f (%.1f%%)", r->gflops, 100 * r->flops_frac);
      g_print (" %18s", cell);
    }
    g_print ("  | %-14s", "");
    for (guint i = 0; i < algos->len; i++) {
      GcvConv3dAlgorithm a = g_array_index (algos, int, i);
      const Result *r = find_table_result (PART_GPU, k, a);
      char cell[40];
      if (a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID)
        continue;
      if (r == NULL)
        g_strlcpy (cell, "-", sizeof (cell));
      else if (isnan (r->m.peak_frac))
        g_snprintf (cell, sizeof (cell), "%.0f", r->m.gbps);
      else
        g_snprintf (cell, sizeof (cell), "%.0f (%.1f%%)", r->m.gbps, 100 * r->m.peak_frac);
      g_print (" %16s", cell);
    }
    g_print ("\n");
  }
  g_print ("A direct algorithm is compute-bound when its GFLOP/s nears the FP32 peak; the compulsory bytes are "
      "the least\nany algorithm moves (the baseline reads k^3 taps an output, from the caches).\n");
}

static void
table_row (const Result * r)
{
  char ms[32], mean[32], push[32], proc[32], gf[32], diff[48];
  const GcvbResult *m = &r->m;

  if (m->skipped) {
    g_print ("%-4s %3d %-11s %10s %10s %10s %10s %9s %5s %-14s %s%s\n", part_names[r->part], r->k,
        gcv_conv3d_algorithm_name (r->algorithm), "-", "-", "-", "-", "-", "-", "-", m->failed ? "" : "skipped: ",
        m->note);
    return;
  }
  gcvb_fmt_num (ms, sizeof (ms), m->ms, "%.4f");
  gcvb_fmt_num (mean, sizeof (mean), m->mean_ms, "%.4f");
  gcvb_fmt_num (push, sizeof (push), r->push_ms, "%.4f");
  gcvb_fmt_num (proc, sizeof (proc), r->process_ms, "%.4f");
  gcvb_fmt_num (gf, sizeof (gf), r->gflops, "%.1f");
  if (isnan (r->max_diff))
    g_strlcpy (diff, "-", sizeof (diff));
  else if (g_strcmp0 (r->reference, "(reference)") == 0)
    g_strlcpy (diff, "reference", sizeof (diff));
  else
    g_snprintf (diff, sizeof (diff), "%.3g%s", r->max_diff, r->m.mismatch > 0 ? " DIFF" : " ok");
  g_print ("%-4s %3d %-11s %10s %10s %10s %10s %9s %5" G_GUINT64_FORMAT " %-14s %s\n", part_names[r->part], r->k,
      gcv_conv3d_algorithm_name (r->algorithm), ms, mean, push, proc, gf, m->count, diff, m->note);
}

static void
element_row (const Result * r)
{
  GcvbCells c;
  const GcvbResult *m = &r->m;
  char thr[16];

  if (m->threads > 0)
    g_snprintf (thr, sizeof (thr), "%d", m->threads);
  else
    g_strlcpy (thr, "-", sizeof (thr));
  if (m->skipped) {
    g_print ("%-6s %4d %-11s %-10s %4s %9s %9s %8s %8s %8s %8s %-7s %s%s\n", r->format, r->k, m->impl, "-", thr,
        "-", "-", "-", "-", "-", "-", "-", m->failed ? "" : "skipped: ", m->note);
    return;
  }
  gcvb_format_cells (m, "%.3f", &c);
  g_print ("%-6s %4d %-11s %-10s %4s %9s %9s %8s %8s %8s %8s %-7s %" G_GUINT64_FORMAT " frames%s%s\n", r->format, r->k,
      m->impl, r->selected, thr, c.ms, c.fps, c.up, c.comp, c.down, c.tot, m->backend, m->count,
      m->note[0] ? "; " : "", m->note);
}

static void
print_tables (const GArray * ks, const GArray * algos)
{
  print_paper_table (PART_GPU, ks, algos);
  print_efficiency (ks, algos);
  print_paper_table (PART_CPU, ks, algos);

  if (have_part (PART_GPU) || have_part (PART_CPU)) {
    g_print ("\n== Every table row: %dx%d %s, border %s, %d frames pushed -> %d outputs (k+3 in the ring) ==\n",
        vol_w, vol_h, type_name (vol_type), gcv_conv3d_border_name (vol_border), N_OUT, N_OUT);
    g_print ("%-4s %3s %-11s %10s %10s %10s %10s %9s %5s %-14s %s\n", "part", "k", "algorithm", "ms", "mean ms",
        "push ms", "process ms", "GFLOP/s", "runs", "max diff", "notes");
    g_print ("-----------------------------------------------------------------------------------------------"
        "--------------\n");
    for (guint i = 0; i < results->len; i++) {
      const Result *r = &g_array_index (results, Result, i);
      if (r->part != PART_ELEMENT)
        table_row (r);
    }
    g_print ("ms: median of the unit (_push of %d frames, _process of %d outputs, in the steady state of a "
        "stream); mean ms:\nGPU, the span of all runs queued back to back / runs; CPU, the mean of the runs.  "
        "push / process: medians\nof the two halves.  max diff: largest |difference| of the stream's first %d "
        "outputs (border %s in time)\nfrom those of the first algorithm measured for that k ('ok': within the "
        "contract's tolerance).\n", N_OUT, N_OUT, N_OUT, gcv_conv3d_border_name (vol_border));
  }

  if (have_part (PART_ELEMENT)) {
    g_print ("\n== Elements: appsrc ! element size=N algorithm=auto ! appsink, steady state, wall clock ==\n");
    g_print ("%-6s %4s %-11s %-10s %4s %9s %9s %8s %8s %8s %8s %-7s %s\n", "format", "size", "element",
        "selected", "thr", "ms/frame", "fps", "upload", "compute", "download", "total", "backend", "notes");
    g_print ("-----------------------------------------------------------------------------------------------"
        "----------------------\n");
    for (guint i = 0; i < results->len; i++) {
      const Result *r = &g_array_index (results, Result, i);
      if (r->part == PART_ELEMENT)
        element_row (r);
    }
    g_print ("size=N: an N x N x N Gaussian (the element's default kernel); the element holds (N-1)/2 frames "
        "back, timed\nafter the warm-up's outputs are out, at most --queue more frames in flight.  upload / "
        "compute / download /\ntotal: the element's stats, means per frame over the timed frames.\n");
    /* cuda vs cpu */
    for (guint i = 0; i < results->len; i++) {
      const Result *a = &g_array_index (results, Result, i);
      if (a->part != PART_ELEMENT || a->m.skipped || strcmp (a->m.impl, "cudaconv3d") != 0)
        continue;
      for (guint j = 0; j < results->len; j++) {
        const Result *b = &g_array_index (results, Result, j);
        if (b->part == PART_ELEMENT && !b->m.skipped && strcmp (b->m.impl, "cpuconv3d") == 0
            && b->k == a->k && strcmp (b->format, a->format) == 0)
          g_print ("  %s %dx%d size %d: cudaconv3d %.1f fps, cpuconv3d %.1f fps: %.1fx\n", a->format, a->width,
              a->height, a->k, a->m.fps, b->m.fps, a->m.fps / b->m.fps);
      }
    }
  }
}

/* ------------------------------------------------------------------------ */
/* JSON */

static void
json_paper (GString * s, const double (*paper)[5])
{
  g_string_append (s, "{");
  for (int i = 0; i < N_PAPER_K; i++) {
    g_string_append_printf (s, "%s\"%d\": {", i ? ", " : "", paper_k[i]);
    for (int a = 0; a < N_ALGOS; a++) {
      g_string_append_printf (s, "%s\"%s\": ", a ? ", " : "",
          gcv_conv3d_algorithm_name ((GcvConv3dAlgorithm) (a + GCV_CONV3D_BASELINE)));
      gcvb_json_num (s, paper[i][a]);
    }
    g_string_append (s, "}");
  }
  g_string_append (s, "}");
}

static GString *
results_json (const GArray * ks, const GArray * algos)
{
  GString *s = gcvb_json_begin (&host, "conv3d", TRUE, "gpu_fp32_peak_source", fp32_peak_source);

  g_string_append_printf (s, "  \"config\": {\"width\": %d, \"height\": %d, \"type\": \"%s\", \"border\": \"%s\", "
      "\"outputs\": %d, \"unit\": \"steady state: 4 frames pushed (k+3 in the ring) + 4 outputs processed\", \"kernel\": \"random uniform [0,1), sum 1, non-separable\", "
      "\"gpu_runs\": %d, \"warmup\": %d, \"cpu_runs\": %d, \"cpu_budget_s\": ", vol_w, vol_h,
      type_name (vol_type), gcv_conv3d_border_name (vol_border), N_OUT, opt.runs, opt.warmup,
      opt.cpu_runs ? opt.cpu_runs : 10);
  gcvb_json_num (s, cpu_budget_s ());
  g_string_append (s, ", \"cpu_max_run_s\": ");
  gcvb_json_num (s, cpu_max_run_s ());
  g_string_append_printf (s, ", \"cpu_threads\": %d, \"variants\": %d, \"element_frames\": %d, "
      "\"element_cpu_frames\": %d, \"queue\": %d, \"device\": %d, \"quick\": %s},\n",
      gcvb_cpu_threads (opt_cpu_threads), opt.variants, opt.frames,
      opt.cpu_frames ? opt.cpu_frames : 10, opt.queue, opt.device, opt.quick ? "true" : "false");
  g_string_append (s, "  \"gpu_fp32_peak_gflops\": ");
  gcvb_json_num (s, fp32_peak_gflops);
  g_string_append (s, ",\n  \"paper\": {\"gpu\": \"" PAPER_GPU "\", \"cpu\": \"" PAPER_CPU "\", \"gpu_ms\": ");
  json_paper (s, paper_gpu);
  g_string_append (s, ", \"cpu_ms\": ");
  json_paper (s, paper_cpu);
  g_string_append (s, "},\n  \"pytorch_peer\": {\"measured\": ");
  g_string_append (s, peer.measured ? "true" : "false");
  g_string_append (s, ", \"source\": ");
  gcvb_json_str (s, peer.source);
  g_string_append (s, ", \"ms\": {");
  for (guint ki = 0; ki < ks->len; ki++) {
    int k = g_array_index (ks, int, ki);
    g_string_append_printf (s, "%s\"%d\": ", ki ? ", " : "", k);
    gcvb_json_num (s, peer.ms[k]);
  }
  g_string_append (s, "}, \"rel_err_vs_float64\": {");
  for (guint ki = 0; ki < ks->len; ki++) {
    int k = g_array_index (ks, int, ki);
    g_string_append_printf (s, "%s\"%d\": ", ki ? ", " : "", k);
    gcvb_json_num (s, peer.rel_err[k]);
  }
  g_string_append (s, "}},\n");

  /* auto against the best, per backend and k */
  g_string_append (s, "  \"auto\": [\n");
  {
    gboolean first = TRUE;
    for (Part part = PART_GPU; part <= PART_CPU; part++) {
      if (!have_part (part))
        continue;
      for (guint ki = 0; ki < ks->len; ki++) {
        int k = g_array_index (ks, int, ki);
        AutoCheck c = auto_check (part, k, algos);
        g_string_append_printf (s, "%s    {\"part\": \"%s\", \"k\": %d, \"best\": ", first ? "" : ",\n",
            part_names[part], k);
        if (c.measured)
          gcvb_json_str (s, gcv_conv3d_algorithm_name (c.best));
        else
          g_string_append (s, "null");
        g_string_append (s, ", \"best_ms\": "), gcvb_json_num (s, c.best_ms);
        g_string_append (s, ", \"all_measured\": ");
        g_string_append (s, c.all_measured ? "true" : "false");
        g_string_append (s, ", \"choose\": "), gcvb_json_str (s, gcv_conv3d_algorithm_name (c.pick));
        g_string_append (s, ", \"choose_ms\": "), gcvb_json_num (s, c.pick_ms);
        g_string_append (s, ", \"gap\": "), gcvb_json_num (s, c.gap);
        g_string_append (s, ", \"within_10_percent\": ");
        g_string_append (s, isnan (c.gap) ? "null" : c.gap <= 0.10 ? "true" : "false");
        g_string_append (s, ", \"why\": "), gcvb_json_str (s, c.why);
        g_string_append (s, "}");
        first = FALSE;
      }
    }
    g_string_append (s, "\n  ],\n");
  }

  g_string_append (s, "  \"results\": [\n");
  for (guint i = 0; i < results->len; i++) {
    const Result *r = &g_array_index (results, Result, i);
    GString *extra = g_string_new (NULL);
    int pr = paper_row (r->k);

    g_string_append (s, "    {");
    GCVB_JKEY (s, "part"), gcvb_json_str (s, part_names[r->part]);
    g_string_append_printf (s, ", \"k\": %d, \"width\": %d, \"height\": %d, ", r->k, r->width, r->height);
    GCVB_JKEY (s, "algorithm"), gcvb_json_str (s, gcv_conv3d_algorithm_name (r->algorithm));
    g_string_append (s, ", ");
    GCVB_JKEY (s, "format"), gcvb_json_str (s, r->format);
    g_string_append (s, ", ");
    GCVB_JKEY (s, "implementation"), gcvb_json_str (s, r->m.impl);
    gcvb_json_measurement (s, &r->m);

    g_string_append (extra, ", \"push_ms\": "), gcvb_json_num (extra, r->push_ms);
    g_string_append (extra, ", \"process_ms\": "), gcvb_json_num (extra, r->process_ms);
    g_string_append (extra, ", \"from_scratch_ms_estimate\": "), gcvb_json_num (extra, r->scratch_ms);
    g_string_append (extra, ", \"gflops\": "), gcvb_json_num (extra, r->gflops);
    g_string_append (extra, ", \"fraction_of_fp32_peak\": "), gcvb_json_num (extra, r->flops_frac);
    g_string_append (extra, ", \"compulsory_bytes\": "), gcvb_json_num (extra, r->bytes);
    g_string_append (extra, ", \"max_diff\": "), gcvb_json_num (extra, r->max_diff);
    g_string_append (extra, ", \"diff_limit\": "), gcvb_json_num (extra, r->diff_limit);
    g_string_append (extra, ", \"reference\": "), gcvb_json_str (extra, r->reference);
    g_string_append_printf (extra, ", \"budget_limited\": %s", r->budget_limited ? "true" : "false");
    g_string_append (extra, ", \"selected_algorithm\": ");
    if (r->part == PART_ELEMENT)
      gcvb_json_str (extra, r->selected);
    else
      g_string_append (extra, "null");
    g_string_append (extra, ", \"paper_ms\": ");
    if (r->part != PART_ELEMENT && pr >= 0)
      gcvb_json_num (extra, (r->part == PART_GPU ? paper_gpu : paper_cpu)[pr][ALGO_INDEX (r->algorithm)]);
    else
      g_string_append (extra, "null");
    gcvb_json_row_end (s, &r->m, "mismatch_samples", extra->str, i + 1 == results->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */
/* main */

static gboolean
parse_k (const char *text, gpointer out)
{
  char *end;
  long v = strtol (text, &end, 10);

  if (*end != '\0' || v < 1 || v > GCV_CONV3D_MAX_SIZE || v % 2 == 0)
    return FALSE;
  *(int *) out = (int) v;
  return TRUE;
}

static gboolean
parse_algorithm (const char *text, gpointer out)
{
  for (int a = GCV_CONV3D_BASELINE; a < GCV_CONV3D_N_ALGORITHMS; a++)
    if (g_ascii_strcasecmp (text, gcv_conv3d_algorithm_name (a)) == 0) {
      *(int *) out = a;
      return TRUE;
    }
  if (g_ascii_strcasecmp (text, "hybrid") == 0) {
    *(int *) out = GCV_CONV3D_FFT_HYBRID;
    return TRUE;
  }
  return FALSE;
}

/* an index into elem_formats */
static gboolean
parse_elem_format (const char *text, gpointer out)
{
  return GCVB_PARSE_INDEX (text, elem_formats, out);
}

static gboolean
parse_size (const char *text, int *w, int *h)
{
  gchar *t = g_ascii_strdown (text, -1);
  gboolean ok = gcvb_parse_dims (g_strstrip (t), w, h);
  g_free (t);
  return ok;
}

static int
int_cmp (gconstpointer a, gconstpointer b)
{
  return *(const int *) a - *(const int *) b;
}

int
main (int argc, char **argv)
{
  GArray *ks = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *algos = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *el_sizes = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *el_formats = g_array_new (FALSE, FALSE, sizeof (int));
  GcvbPhoto gray[GCVB_N_PHOTOS], rgba[GCVB_N_PHOTOS];
  int n_gray = 0, n_rgba = 0, el_w = 1920, el_h = 1080, kmax = 1, status;
  gboolean do_gpu, do_cpu, do_elements, do_check, do_torch;

  if (!gcvb_init (&argc, &argv, "- benchmark cudaconv3d / cpuconv3d and the 3-D convolution algorithms "
          "(the paper's Tables 1 and 2)\n\n"
          "GPU peer: PyTorch's F.conv3d (cuDNN, fp32, TF32 off) at the tables' frame size (--frame, e.g. "
          "1920x1080) and k, run by the host's Python (scripts/bench-torch-conv3d.py; $GCVB_PYTHON picks "
          "the interpreter; --skip torch), its output checked against float64; a host without PyTorch or "
          "a GPU gets the reason and, at 720x560, the issue's quoted figures", entries, &opt, &quick))
    return 2;
  if (!gcvb_parse_list (opt_k, "5,7,9,11,13,15", parse_k, ks, "bad kernel size", "(odd, 1 .. 31)")
      || !gcvb_parse_list (opt_algorithms, "baseline,shared,streaming,fft3d,fft-hybrid", parse_algorithm, algos,
          "unknown algorithm", "(baseline, shared, streaming, fft3d, fft-hybrid)")
      || !gcvb_parse_list (opt_el_sizes, "5,9", parse_k, el_sizes, "bad element size", "(odd, 1 .. 31)")
      || !gcvb_parse_list (opt_el_formats, "gray8,i420", parse_elem_format, el_formats, "unknown element format",
          "(gray8, i420, rgba)"))
    return 2;
  g_array_sort (ks, int_cmp);   /* the CPU extrapolation goes from small to large k */
  for (guint i = 0; i < ks->len; i++)
    kmax = MAX (kmax, g_array_index (ks, int, i));
  if (opt_frame && !parse_size (opt_frame, &vol_w, &vol_h)) {
    g_printerr ("error: bad --frame '%s' (WxH)\n", opt_frame);
    return 2;
  }
  if (opt_el_frame && !parse_size (opt_el_frame, &el_w, &el_h)) {
    g_printerr ("error: bad --element-frame '%s'\n", opt_el_frame);
    return 2;
  }
  if (opt_type == NULL || g_ascii_strcasecmp (opt_type, "u8") == 0)
    vol_type = GCV_SAMPLE_U8;
  else if (g_ascii_strcasecmp (opt_type, "f32") == 0)
    vol_type = GCV_SAMPLE_F32;
  else if (g_ascii_strcasecmp (opt_type, "u16") == 0)
    vol_type = GCV_SAMPLE_U16;
  else {
    g_printerr ("error: bad --type '%s' (u8, f32)\n", opt_type);
    return 2;
  }
  if (opt_border == NULL || g_ascii_strcasecmp (opt_border, "mirror") == 0)
    vol_border = GCV_CONV3D_BORDER_MIRROR;
  else if (g_ascii_strcasecmp (opt_border, "replicate") == 0)
    vol_border = GCV_CONV3D_BORDER_REPLICATE;
  else if (g_ascii_strcasecmp (opt_border, "zero") == 0)
    vol_border = GCV_CONV3D_BORDER_ZERO;
  else {
    g_printerr ("error: bad --border '%s' (zero, replicate, mirror)\n", opt_border);
    return 2;
  }
  if (opt_cpu_threads < 0) {
    g_printerr ("error: --cpu-threads must be >= 0\n");
    return 2;
  }
  peer_init ();
  if (opt_peer_json && !peer_load (opt_peer_json))
    return 2;
  do_torch = !opt_peer_json && !gcvb_skipped (&opt, "torch");

  do_gpu = !gcvb_skipped (&opt, "gpu") && !gcvb_skipped (&opt, "cuda");
  do_cpu = !gcvb_skipped (&opt, "cpu");
  do_elements = !gcvb_skipped (&opt, "elements");
  do_check = !gcvb_skipped (&opt, "check");

  results = g_array_new (FALSE, FALSE, sizeof (Result));
  references = g_ptr_array_new_with_free_func (reference_free);
  gcvb_host_init (&host, "bench-conv3d", &opt, do_elements, "cpuconv3d", TRUE);
  probe_fp32_peak ();
  if (do_torch && do_gpu && host.cuda.available)
    peer_run (ks);
  else if (do_torch)
    g_snprintf (peer.source + strlen (peer.source), sizeof (peer.source) - strlen (peer.source),
        "; not run here: %s", !do_gpu ? "--skip gpu" : host.cuda.why);

  gcvb_print_host (&host, opt.device, "GPU table and cudaconv3d rows");
  if (host.cuda.available) {
    g_print ("GPU memory: %.0f GB/s peak [%s]; %.0f GB/s measured device-to-device copy (read+write)\n",
        host.cuda.peak_gbps, host.cuda.peak_source, host.cuda.copy_gbps);
    char peak[32];
    gcvb_fmt_num (peak, sizeof (peak), fp32_peak_gflops, "%.0f");
    g_print ("GPU FP32:   %s GFLOP/s [%s]\n", peak, fp32_peak_source);
  }
  g_print ("GStreamer:  %s\n", gst_version_string ());
  if (do_elements)
    g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file : "NOT FOUND (the element rows will fail)");
  g_print ("FFT:        CPU %s; GPU %s\n", gcv_conv3d_cpu_have_fft () ? "FFTW3" : "none (built without FFTW)",
      host.cuda.available ? (backend_has_fft (PART_GPU) ? "cuFFT" : "cuFFT not loadable") : "-");
  g_print ("Tables:     %dx%d %s, 1 channel, border %s, k = ", vol_w, vol_h, type_name (vol_type),
      gcv_conv3d_border_name (vol_border));
  for (guint i = 0; i < ks->len; i++)
    g_print ("%s%d", i ? "," : "", g_array_index (ks, int, i));
  g_print ("; k x k x k random non-separable kernel (uniform taps, sum 1);\n"
      "            a stream; unit: %d frames pushed -> %d outputs (max_outputs %d; the ring holds the k+3 frames "
      "they read);\n            GPU %d runs after %d warm-up; CPU at most %d "
      "runs, %.0f s budget per (k, algorithm), none over %.0f s (extrapolated)%s\n", N_OUT, N_OUT, N_OUT,
      opt.runs, MAX (opt.warmup, 1), opt.cpu_runs ? opt.cpu_runs : 10, cpu_budget_s (), cpu_max_run_s (),
      opt.quick ? "  [--quick: rough numbers]" : "");
  if (do_elements)
    g_print ("Elements:   %dx%d, size ", el_w, el_h);
  for (guint i = 0; do_elements && i < el_sizes->len; i++)
    g_print ("%s%d", i ? "," : "", g_array_index (el_sizes, int, i));
  if (do_elements)
    g_print (", algorithm=auto; cudaconv3d %d frames, cpuconv3d %d frames\n", opt.frames,
        opt.cpu_frames ? opt.cpu_frames : 10);

  n_gray = gcvb_load_photos (&opt, "GRAY8", 1, gray);
  if (n_gray == 0)
    return 1;
  gcvb_print_frames (opt.variants, "table (sequences of kmax+3 frames, one after the other)", gray, n_gray,
      "scaled and mirror-tiled, a crop panning 4 px right and 2 down a frame");

  /* the paper's tables */
  if (do_gpu || do_cpu) {
    Sequences sq;
    Volume vol;
    GcvConv3dGeometry geom = vol_geometry ();
    const char *bad = gcv_conv3d_geometry_check (&geom);

    if (bad != NULL) {
      g_printerr ("error: geometry: %s\n", bad);
      return 2;
    }
    sequences_init (&sq, gray, n_gray, vol_w, vol_h, 0, kmax + 3, opt.variants);
    volume_init (&vol, &sq, vol_type);
    sequences_clear (&sq);
#if GCVB_CUDA
    if (do_gpu && host.cuda.available && !dvol_init (&vol))
      g_printerr ("error: cannot put the frames on the device: %s\n", dvol.error);
#endif
    for (guint ki = 0; ki < ks->len; ki++) {
      int k = g_array_index (ks, int, ki);
      float *coef = random_kernel (k);

      g_printerr ("\n== k = %d: %dx%d %s, %d outputs from %d frames ==\n", k, vol_w, vol_h, type_name (vol_type),
          N_OUT, k + 3);
      if (do_gpu)
        for (guint ai = 0; ai < algos->len; ai++) {
          GcvConv3dAlgorithm a = g_array_index (algos, int, ai);
#if GCVB_CUDA
          if (host.cuda.available) {
            bench_gpu (&vol, k, a, coef, do_check);
            continue;
          }
#endif
          gcvb_result_skip (&result_new (PART_GPU, k, a, type_name (vol_type), vol_w, vol_h, "cuda backend")->m,
              "%s", host.cuda.why);
        }
      if (do_cpu)
        for (guint ai = 0; ai < algos->len; ai++)
          bench_cpu (&vol, k, g_array_index (algos, int, ai), coef, do_check);
      g_free (coef);
    }
#if GCVB_CUDA
    if (do_gpu && host.cuda.available)
      dvol_clear (&vol);
#endif
    volume_clear (&vol);
  }

  /* the elements */
  if (do_elements) {
    int cpu_frames = opt.cpu_frames ? opt.cpu_frames : 10;
    int n_frames = 16;

    for (guint fi = 0; fi < el_formats->len; fi++) {
      const ElemFormat *f = &elem_formats[g_array_index (el_formats, int, fi)];
      const GcvbPhoto *ph = gray;
      int n_ph = n_gray;
      GcvbFrameSet fs;

      if (strcmp (f->photos, "RGBA") == 0) {
        if (n_rgba == 0 && (n_rgba = gcvb_load_photos (&opt, "RGBA", 4, rgba)) == 0)
          return 1;
        ph = rgba;
        n_ph = n_rgba;
      }
      element_frames (&fs, f, ph, n_ph, el_w, el_h, n_frames);
      for (guint si = 0; si < el_sizes->len; si++) {
        int size = g_array_index (el_sizes, int, si);
        g_printerr ("\n== elements: %s %dx%d, size %d ==\n", f->name, el_w, el_h, size);
        if (host.cuda.available)
          bench_element ("cudaconv3d", f, size, &fs, opt.warmup, opt.frames);
        else
          gcvb_result_skip (&result_new (PART_ELEMENT, size, GCV_CONV3D_AUTO, f->name, el_w, el_h,
                  "cudaconv3d")->m, "%s", host.cuda.why);
        bench_element ("cpuconv3d", f, size, &fs, MIN (opt.warmup, 3), cpu_frames);
      }
      gcvb_frameset_clear (&fs);
    }
  }

  print_tables (ks, algos);
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (ks, algos), &opt, "bench-conv3d.json");

  gcvb_photos_clear (gray, n_gray);
  gcvb_photos_clear (rgba, n_rgba);
  g_ptr_array_unref (references);
  g_array_free (results, TRUE);
  g_array_free (ks, TRUE);
  g_array_free (algos, TRUE);
  g_array_free (el_sizes, TRUE);
  g_array_free (el_formats, TRUE);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
