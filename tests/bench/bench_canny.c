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
 *     (blur 0) and after a GaussianBlur (blur 5);
 *  5. GPU peer: NVIDIA NPP's nppiFilterCannyBorder_8u_C1R_Ctx (Sobel 3x3,
 *     L1, the same thresholds, replicated border; no Gaussian, so blur 0
 *     only), loaded at run time from the CUDA toolkit (skipped, with the
 *     reason, where missing), timed as our kernels are (CUDA events,
 *     frames on the device), its edges compared with ours and with
 *     OpenCV's.
 * Input frames are real photos (tests/data), luma, scaled and mirror-tiled to
 * each size with different scales and offsets, rotated through.
 *
 * Prints one table and writes the same as JSON (--json FILE).  What it shares
 * with bench-bsplinescale is in gcv-bench.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/gst.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "canny.h"
#include "bench-canny.h"
#include "gcv-bench.h"
#if GCVB_CUDA
#include "bench-npp.h"
#endif

/* ------------------------------------------------------------------------ */
/* options */

static GcvbOptions opt = {
  .frames = 500, .warmup = 50, .cpu_frames = 0 /* 200 up to 1080p, 50 above */ , .runs = 300,
  .cpu_runs = 0 /* 30 up to 1080p, 10 above */ , .variants = 8, .queue = 4, .device = 0,
};

/* --quick, for the counts left at their defaults */
static const GcvbOptions quick = {
  .frames = 60, .warmup = 5, .cpu_frames = 8, .runs = 50, .cpu_runs = 3, .variants = 8,
};

static gchar *opt_sizes = NULL;
static gchar *opt_dump = NULL;
static gdouble opt_low = 50, opt_high = 150, opt_sigma = 1.4;
static gint opt_blur = 5;

static GOptionEntry entries[] = {
  {"sizes", 's', 0, G_OPTION_ARG_STRING, &opt_sizes,
      "Frame sizes, comma-separated: 720p, 1080p, 4k or WxH (default 720p,1080p,4k)", "LIST"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames,
      "Timed frames per size for cudacanny (default 500)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup,
      "Warm-up frames / runs, not timed (default 50; cpucanny uses at most 10)", "N"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames,
      "Timed frames per size for cpucanny (default 200, 50 above 1080p)", "N"},
  {"runs", 'r', 0, G_OPTION_ARG_INT, &opt.runs,
      "Timed CUDA kernel / copy runs, median taken (default 300)", "N"},
  {"cpu-runs", 0, 0, G_OPTION_ARG_INT, &opt.cpu_runs,
      "Timed CPU / OpenCV algorithm runs, median taken (default 30, 10 above 1080p)", "N"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Different input frames per size, rotated through (default 8, at least 4)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue,
      "Frames in flight in the element pipelines (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  GCVB_OPTION_ENTRIES (opt, "bench-canny.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
      "Parts to skip, comma-separated: elements, cuda, cpu, opencv, npp (the GPU peer: NVIDIA NPP's "
        "nppiFilterCannyBorder, loaded at run time), transfers", "LIST"},
  {"dump-frames", 0, 0, G_OPTION_ARG_FILENAME, &opt_dump,
      "Also write the input frames as PGM files to DIR (to look at them)", "DIR"},
  {"low", 0, 0, G_OPTION_ARG_DOUBLE, &opt_low, "Low threshold (default 50)", "T"},
  {"high", 0, 0, G_OPTION_ARG_DOUBLE, &opt_high, "High threshold (default 150)", "T"},
  {"blur-size", 0, 0, G_OPTION_ARG_INT, &opt_blur,
      "Blur size of the elements and of the 'blur' rows (default 5)", "N"},
  {"blur-sigma", 0, 0, G_OPTION_ARG_DOUBLE, &opt_sigma, "Blur sigma (default 1.4)", "S"},
  {NULL}
};

/* ------------------------------------------------------------------------ */
/* results */

typedef struct {
  GcvbResult m;                 /* the measurement; mismatch: pixels differing from our CPU output */
  char size[16];
  int width, height;
  int blur;                     /* blur size used */
} Result;

static GArray *results;         /* of Result */
static GcvbHost host;

static Result *
result_new (const char *size, int w, int h, const char *impl, int blur)
{
  Result r;

  memset (&r, 0, sizeof (r));
  gcvb_result_init (&r.m, impl, "%-18s blur %d ", impl, blur);
  g_strlcpy (r.size, size, sizeof (r.size));
  r.width = w;
  r.height = h;
  r.blur = blur;
  g_array_append_val (results, r);
  return &g_array_index (results, Result, results->len - 1);
}

static void
skip_row (const GcvbFrameSet * fs, const char *impl, int blur, const char *why)
{
  Result *r = result_new (fs->name, fs->width, fs->height, impl, blur);
  gcvb_result_skip (&r->m, "%s", why);
}

static G_GNUC_UNUSED gint64
count_mismatch (const guint8 * a, const guint8 * b, int w, int h)
{
  gint64 n = 0;
  for (size_t i = 0; i < (size_t) w * h; i++)
    n += a[i] != b[i];
  return n;
}

/* ------------------------------------------------------------------------ */
/* input frames */

static void
dump_frames (const GcvbFrameSet * fs, const char *dir)
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

/* appsrc ! factory ! fakesink, wall clock over `frames` frames after
 * `warmup`. */
static void
bench_element (const GcvbFrameSet * fs, const char *factory, int warmup, int frames)
{
  Result *r = result_new (fs->name, fs->width, fs->height, factory, opt_blur);
  GcvbPipeline *p;
  GstElement *elem;
  GstCaps *caps;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8",
      "width", G_TYPE_INT, fs->width, "height", G_TYPE_INT, fs->height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  p = gcvb_pipeline_new (factory, "canny", caps, NULL, FALSE, &r->m);
  gst_caps_unref (caps);
  if (p == NULL)
    return;

  elem = gcvb_pipeline_element (p);
  gcvb_set_prop (elem, "low-threshold", g_ascii_dtostr (buf, sizeof (buf), opt_low));
  gcvb_set_prop (elem, "high-threshold", g_ascii_dtostr (buf, sizeof (buf), opt_high));
  g_snprintf (buf, sizeof (buf), "%d", opt_blur);
  gcvb_set_prop (elem, "blur-size", buf);
  gcvb_set_prop (elem, "blur-sigma", g_ascii_dtostr (buf, sizeof (buf), opt_sigma));
  if (g_str_has_prefix (factory, "cuda")) {
    g_snprintf (buf, sizeof (buf), "%d", opt.device);
    gcvb_set_prop (elem, "cuda-device-id", buf);
  }

  if (gcvb_pipeline_time (p, fs, warmup, frames, opt.queue, TRUE, &r->m)) {
    if (g_str_has_prefix (factory, "cuda") && g_strcmp0 (r->m.backend, "cuda") != 0)
      gcvb_result_note (&r->m, "FELL BACK to %s", r->m.backend);
    g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  up %.3f comp %.3f down %.3f total %.3f  [%s]\n",
        r->m.impl, r->blur, r->m.ms, r->m.fps, r->m.upload_ms, r->m.compute_ms, r->m.download_ms,
        r->m.total_ms, r->m.backend);
  }
  gcvb_pipeline_free (p);
}

/* ------------------------------------------------------------------------ */
/* CPU algorithm */

/* gcv_canny_cpu_process / gcv_canny_cuda_process with bound parameters */
typedef struct {
  GcvCannyParams params;
  GcvCannyCpu *cpu;
  GcvCannyCuda *cuda;
} CannyCall;

static GcvStatus
canny_cpu_process (gpointer data, const GcvPlane * in, GcvPlane * out, int n_threads, GcvError * err)
{
  CannyCall *c = data;
  return gcv_canny_cpu_process (c->cpu, &c->params, in, out, n_threads, err);
}

/* Our CPU output for frames[0] (blur `blur`), the reference the other
 * implementations are compared with.  NULL on failure. */
static guint8 *
cpu_reference (const GcvbFrameSet * fs, int blur)
{
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  CannyCall call = { make_params (blur), NULL, NULL };
  guint8 *out;

  call.cpu = gcv_canny_cpu_new (in_fmt, fs->width, fs->height, &err);
  if (call.cpu == NULL) {
    g_printerr ("  cpu reference: %s\n", err.message);
    return NULL;
  }
  out = gcvb_cpu_output (canny_cpu_process, &call, fs, fs->width, fs->height, fs->width);
  gcv_canny_cpu_free (call.cpu);
  return out;
}

static void
bench_cpu (const GcvbFrameSet * fs, int blur, int n_threads, int warmup, int runs, double *edge_frac)
{
  Result *r = result_new (fs->name, fs->width, fs->height,
      n_threads == 1 ? "cpu 1 thread" : "cpu all threads", blur);
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  CannyCall call = { make_params (blur), NULL, NULL };
  guint8 *out = g_malloc ((size_t) fs->width * fs->height);
  const char *msg;

  r->m.threads = n_threads ? n_threads : (int) g_get_num_processors ();
  if ((msg = gcv_canny_params_check (&call.params)) != NULL) {
    gcvb_result_fail (&r->m, "bad parameters: %s", msg);
    goto out;
  }
  call.cpu = gcv_canny_cpu_new (in_fmt, fs->width, fs->height, &err);
  if (call.cpu == NULL) {
    gcvb_result_fail (&r->m, "gcv_canny_cpu_new: %s", err.message);
    goto out;
  }
  if (!gcvb_cpu_time (canny_cpu_process, &call, "gcv_canny_cpu_process", fs, out, fs->width, fs->height,
          fs->width, n_threads, warmup, runs, &r->m))
    goto out;
  /* edge density over the variants, for the record (not timed) */
  if (edge_frac != NULL) {
    guint64 edges = 0;
    for (int k = 0; k < fs->n; k++) {
      GcvPlane in_p = { fs->frames[k], fs->width, fs->height, fs->width };
      GcvPlane out_p = { out, fs->width, fs->height, fs->width };
      if (canny_cpu_process (&call, &in_p, &out_p, n_threads, &err) != GCV_OK)
        break;
      for (size_t j = 0; j < (size_t) fs->width * fs->height; j++)
        edges += out[j] != 0;
    }
    *edge_frac = (double) edges / ((double) fs->width * fs->height * fs->n);
  }
  g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  (median of %d, %d threads)\n",
      r->m.impl, blur, r->m.ms, r->m.fps, runs, r->m.threads);
out:
  if (call.cpu)
    gcv_canny_cpu_free (call.cpu);
  g_free (out);
}

/* ------------------------------------------------------------------------ */
/* OpenCV */

/* keep, when not NULL, gets OpenCV's output for frames[0] (g_free it) */
static void
bench_opencv (const GcvbFrameSet * fs, int blur, int n_threads, int warmup, int runs, const guint8 * ref,
    guint8 ** keep)
{
  Result *r = result_new (fs->name, fs->width, fs->height,
      n_threads == 1 ? "opencv 1 thread" : "opencv all threads", blur);
#ifdef GCVB_HAVE_OPENCV
  char err[512] = "";
  int threads = 0;
  guint8 *out = ref || keep ? g_malloc ((size_t) fs->width * fs->height) : NULL;

  if (gcvb_opencv_canny_time ((const uint8_t * const *) fs->frames, fs->n, fs->width, fs->height,
          fs->width, blur, blur > 0 ? opt_sigma : 0, opt_low, opt_high, 0, n_threads, warmup, runs,
          &r->m.ms, &r->m.mean_ms, &threads, out, fs->width, err, sizeof (err)) != 0) {
    gcvb_result_fail (&r->m, "%s", err);
  } else {
    r->m.threads = threads;
    r->m.count = runs;
    r->m.fps = 1000.0 / r->m.ms;
    g_snprintf (r->m.backend, sizeof (r->m.backend), "opencv");
    if (ref != NULL) {
      r->m.mismatch = count_mismatch (out, ref, fs->width, fs->height);
      gcvb_result_note (&r->m, "%" G_GINT64_FORMAT " px differ from ours", r->m.mismatch);
    }
    g_printerr ("  %-18s blur %d  %8.3f ms/frame %8.1f fps  (median of %d, %d threads)%s%s\n",
        r->m.impl, blur, r->m.ms, r->m.fps, runs, threads, r->m.note[0] ? "  " : "", r->m.note);
    if (keep != NULL) {
      *keep = out;
      out = NULL;
    }
  }
  g_free (out);
#else
  gcvb_result_skip (&r->m, "built without OpenCV");
#endif
}

/* ------------------------------------------------------------------------ */
/* CUDA */

/* 1080p frame copies (ms, GB/s) */
typedef struct {
  gboolean have_copies;
  double h2d_pinned_ms, d2h_pinned_ms, h2d_pageable_ms, d2h_pageable_ms;
  size_t copy_bytes;
} Transfers;

static Transfers xfer;

#if GCVB_CUDA

#define CU_TRY(call, what) \
  do { if ((call) != GCV_OK) { g_snprintf (why, sizeof (why), "%s: %s", what, err.message); goto fail; } } while (0)

/* Median ms of `runs` copies of one w x h GRAY8 frame, host <-> device. */
static gboolean
time_copies (void *host_buf, void *dev, size_t pitch, int w, int h, gboolean upload, int runs, void *stream,
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
    s = upload ? gcv_cuda_upload_2d (dev, pitch, host_buf, w, w, h, stream, &err)
        : gcv_cuda_download_2d (host_buf, w, dev, pitch, w, h, stream, &err);
    if (s != GCV_OK || gcv_cuda_event_record (ev[1], stream, &err) != GCV_OK ||
        gcv_cuda_event_sync (ev[1], &err) != GCV_OK ||
        gcv_cuda_event_elapsed (ev[0], ev[1], &ms, &err) != GCV_OK)
      goto fail;
    if (i >= warm)
      t[i - warm] = ms;
  }
  *ms_out = gcvb_median (t, runs);
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

  xfer.copy_bytes = (size_t) w * h;
  CU_TRY (gcv_cuda_set_device (opt.device, &err), "set device");
  CU_TRY (gcv_cuda_stream_new (&stream, &err), "stream");
  CU_TRY (gcv_cuda_event_new (&ev[0], &err), "event");
  CU_TRY (gcv_cuda_event_new (&ev[1], &err), "event");
  CU_TRY (gcv_cuda_host_alloc (&pinned, xfer.copy_bytes, &err), "pinned alloc");
  CU_TRY (gcv_cuda_malloc_2d (&dev, &pitch, w, h, &err), "device alloc");
  pageable = g_malloc (xfer.copy_bytes);
  memset (pinned, 0x55, xfer.copy_bytes);
  memset (pageable, 0x55, xfer.copy_bytes);
  if (!time_copies (pinned, dev, pitch, w, h, TRUE, runs, stream, ev, &xfer.h2d_pinned_ms, why, sizeof (why)) ||
      !time_copies (pinned, dev, pitch, w, h, FALSE, runs, stream, ev, &xfer.d2h_pinned_ms, why, sizeof (why)) ||
      !time_copies (pageable, dev, pitch, w, h, TRUE, runs, stream, ev, &xfer.h2d_pageable_ms, why, sizeof (why)) ||
      !time_copies (pageable, dev, pitch, w, h, FALSE, runs, stream, ev, &xfer.d2h_pageable_ms, why, sizeof (why)))
    goto fail;
  xfer.have_copies = TRUE;
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

static GcvStatus
canny_cuda_process (gpointer data, const GcvPlane * in, GcvPlane * out, void *stream, GcvError * err)
{
  CannyCall *c = data;
  return gcv_canny_cuda_process (c->cuda, &c->params, in, out, stream, err);
}

/* Kernels only: the input frames already on the device, `runs` launches
 * queued back to back (each between two events), median event time. */
static void
bench_cuda_kernel (const GcvbFrameSet * fs, int blur, int warmup, int runs, const guint8 * ref)
{
  Result *r = result_new (fs->name, fs->width, fs->height, "cuda kernel", blur);
  GcvError err = { 0 };
  GcvLumaInput in_fmt = { GCV_LUMA_GRAY8, 0, 0, 0 };
  CannyCall call = { make_params (blur), NULL, NULL };
  int w = fs->width, h = fs->height;
  guint8 *check = ref ? g_malloc ((size_t) w * h) : NULL;
  const char *msg;

  if ((msg = gcv_canny_params_check (&call.params)) != NULL)
    gcvb_result_fail (&r->m, "bad parameters: %s", msg);
  else if (gcv_cuda_set_device (opt.device, &err) != GCV_OK)
    gcvb_result_fail (&r->m, "set device: %s", err.message);
  else if ((call.cuda = gcv_canny_cuda_new (in_fmt, w, h, &err)) == NULL)
    gcvb_result_fail (&r->m, "gcv_canny_cuda_new: %s", err.message);
  else if (gcvb_cuda_time_kernel (canny_cuda_process, &call, fs, w, h, w, warmup, runs, check, &r->m)) {
    /* correctness against our CPU backend (bit-identical by contract) */
    if (ref != NULL) {
      r->m.mismatch = count_mismatch (check, ref, w, h);
      gcvb_result_note (&r->m, "%" G_GINT64_FORMAT " px differ from cpu", r->m.mismatch);
    }
    gcvb_result_kernel (&r->m, runs, 2.0 * w * h, &host.cuda);
    gcvb_result_note (&r->m, "%.1f GB/s effective (in+out)", r->m.gbps);
    if (host.cuda.peak_gbps > 0)
      gcvb_result_note (&r->m, "%.2f%% of %.0f GB/s peak", 100 * r->m.peak_frac, host.cuda.peak_gbps);
    g_printerr ("  %-18s blur %d  %8.4f ms/frame %8.1f fps  (median of %d; back-to-back mean %.4f)  %s\n",
        r->m.impl, blur, r->m.ms, r->m.fps, runs, r->m.mean_ms, r->m.note);
  }
  g_free (check);
  if (call.cuda)
    gcv_canny_cuda_free (call.cuda);
}

/* NPP's Canny, bound to its scratch buffer */
typedef struct {
  void *scratch;
} NppCall;

static GcvStatus
npp_canny_process (gpointer data, const GcvPlane * in, GcvPlane * out, void *stream, GcvError * err)
{
  NppCall *c = data;
  char msg[256];

  if (gcvb_npp_canny (in->data, in->stride, out->data, out->stride, in->width, in->height, (int) opt_low,
          (int) opt_high, 0, c->scratch, stream, msg, sizeof (msg)) != 0) {
    gcv_error_set (err, GCV_ERROR_CUDA, "%s", msg);
    return GCV_ERROR_CUDA;
  }
  return GCV_OK;
}

/* The GPU peer: NPP's nppiFilterCannyBorder (Sobel 3x3, L1, no Gaussian:
 * blur 0 only), timed as bench_cuda_kernel times ours; its edges against
 * ours (ref) and OpenCV's (cv_out, NULL when not run). */
static void
bench_npp (const GcvbFrameSet * fs, int warmup, int runs, const guint8 * ref, const guint8 * cv_out)
{
  Result *r = result_new (fs->name, fs->width, fs->height, "npp canny", 0);
  GcvError err = { 0 };
  NppCall call = { NULL };
  int w = fs->width, h = fs->height;
  guint8 *check = g_malloc ((size_t) w * h);
  size_t scratch;
  char why[256];

  if (gcvb_npp_load ("nppif", why, sizeof (why)) != 0) {
    gcvb_result_skip (&r->m, "%s", why);
    goto out;
  }
  if ((scratch = gcvb_npp_canny_scratch (w, h)) == 0) {
    gcvb_result_fail (&r->m, "nppiFilterCannyBorderGetBufferSize failed for %dx%d", w, h);
    goto out;
  }
  if (gcv_cuda_set_device (opt.device, &err) != GCV_OK || gcv_cuda_malloc (&call.scratch, scratch, &err) != GCV_OK) {
    gcvb_result_fail (&r->m, "NPP scratch: %s", err.message);
    goto out;
  }
  if (gcvb_cuda_time_kernel (npp_canny_process, &call, fs, w, h, w, warmup, runs, check, &r->m)) {
    g_snprintf (r->m.backend, sizeof (r->m.backend), "npp");
    gcvb_result_note (&r->m, "NPP %s, Sobel 3x3, L1, no Gaussian", gcvb_npp_version ());
    if (ref != NULL) {
      r->m.mismatch = count_mismatch (check, ref, w, h);
      gcvb_result_note (&r->m, "%" G_GINT64_FORMAT " px differ from ours", r->m.mismatch);
    }
    if (cv_out != NULL)
      gcvb_result_note (&r->m, "%" G_GINT64_FORMAT " from OpenCV's", count_mismatch (check, cv_out, w, h));
    g_printerr ("  %-18s blur 0  %8.4f ms/frame %8.1f fps  (median of %d)  %s\n", r->m.impl, r->m.ms, r->m.fps,
        runs, r->m.note);
  }
out:
  if (call.scratch)
    gcv_cuda_free (call.scratch);
  g_free (check);
}

#endif /* GCVB_CUDA */

/* ------------------------------------------------------------------------ */
/* output */

static void
print_table (void)
{
  GcvbCells c;

  g_print ("\n%-9s %-18s %4s %10s %9s %8s %8s %8s %8s %-7s %s\n", "size", "implementation", "blur",
      "ms/frame", "fps", "upload", "compute", "download", "total", "backend", "notes");
  g_print ("%s\n", "-----------------------------------------------------------------------------------"
      "------------------------------------------");
  for (guint i = 0; i < results->len; i++) {
    Result *r = &g_array_index (results, Result, i);
    const GcvbResult *m = &r->m;
    if (i > 0 && strcmp (r->size, g_array_index (results, Result, i - 1).size) != 0)
      g_print ("\n");
    if (m->skipped) {
      g_print ("%-9s %-18s %4d %10s %9s %8s %8s %8s %8s %-7s %s%s\n", r->size, m->impl, r->blur,
          "-", "-", "-", "-", "-", "-", "-", m->failed ? "" : "skipped: ", m->note);
      continue;
    }
    gcvb_format_cells (m, m->ms < 1 ? "%.4f" : "%.3f", &c);
    g_print ("%-9s %-18s %4d %10s %9s %8s %8s %8s %8s %-7s ", r->size, m->impl, r->blur, c.ms, c.fps, c.up,
        c.comp, c.down, c.tot, m->backend);
    if (m->threads > 0)
      g_print ("%d thr; ", m->threads);
    if (strstr (m->impl, "canny") != NULL)
      g_print ("wall clock over %" G_GUINT64_FORMAT " frames", m->count);
    else
      g_print ("median of %" G_GUINT64_FORMAT, m->count);
    g_print ("%s%s\n", m->note[0] ? "; " : "", m->note);
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

static GString *
results_json (const GArray * edges)
{
#ifdef GCVB_HAVE_OPENCV
  GString *s = gcvb_json_begin (&host, "canny", FALSE, "opencv", gcvb_opencv_version ());
#else
  GString *s = gcvb_json_begin (&host, "canny", FALSE, "opencv", NULL);
#endif

  g_string_append_printf (s, "  \"config\": {\"low_threshold\": %g, \"high_threshold\": %g, "
      "\"blur_size\": %d, \"blur_sigma\": %g, \"l2_gradient\": false, \"warmup\": %d, "
      "\"gpu_frames\": %d, \"cpu_frames\": %d, \"kernel_runs\": %d, \"cpu_runs\": %d, "
      "\"variants\": %d, \"queue\": %d, \"device\": %d, \"quick\": %s},\n",
      opt_low, opt_high, opt_blur, opt_sigma, opt.warmup, opt.frames, opt.cpu_frames, opt.runs,
      opt.cpu_runs, opt.variants, opt.queue, opt.device, opt.quick ? "true" : "false");

  g_string_append (s, "  \"transfers_1080p\": ");
  if (xfer.have_copies) {
    double mb = xfer.copy_bytes / 1e6;
    g_string_append_printf (s, "{\"bytes\": %zu, \"h2d_pinned_ms\": ", xfer.copy_bytes);
    gcvb_json_num (s, xfer.h2d_pinned_ms);
    g_string_append (s, ", \"h2d_pinned_gbps\": "), gcvb_json_num (s, mb / xfer.h2d_pinned_ms);
    g_string_append (s, ", \"d2h_pinned_ms\": "), gcvb_json_num (s, xfer.d2h_pinned_ms);
    g_string_append (s, ", \"d2h_pinned_gbps\": "), gcvb_json_num (s, mb / xfer.d2h_pinned_ms);
    g_string_append (s, ", \"h2d_pageable_ms\": "), gcvb_json_num (s, xfer.h2d_pageable_ms);
    g_string_append (s, ", \"h2d_pageable_gbps\": "), gcvb_json_num (s, mb / xfer.h2d_pageable_ms);
    g_string_append (s, ", \"d2h_pageable_ms\": "), gcvb_json_num (s, xfer.d2h_pageable_ms);
    g_string_append (s, ", \"d2h_pageable_gbps\": "), gcvb_json_num (s, mb / xfer.d2h_pageable_ms);
    g_string_append (s, "},\n");
  } else {
    g_string_append (s, "null,\n");
  }

  g_string_append (s, "  \"edge_fraction\": {");
  for (guint i = 0; i < edges->len; i++) {
    const EdgeFrac *e = &g_array_index (edges, EdgeFrac, i);
    g_string_append (s, i ? ", " : "");
    GCVB_JKEY (s, e->size), gcvb_json_num (s, e->frac);
  }
  g_string_append (s, "},\n");

  g_string_append (s, "  \"results\": [\n");
  for (guint i = 0; i < results->len; i++) {
    Result *r = &g_array_index (results, Result, i);
    g_string_append (s, "    {");
    GCVB_JKEY (s, "size"), gcvb_json_str (s, r->size);
    g_string_append_printf (s, ", \"width\": %d, \"height\": %d, ", r->width, r->height);
    GCVB_JKEY (s, "implementation"), gcvb_json_str (s, r->m.impl);
    g_string_append_printf (s, ", \"blur_size\": %d", r->blur);
    gcvb_json_measurement (s, &r->m);
    gcvb_json_row_end (s, &r->m, "mismatch_px", NULL, i + 1 == results->len);
  }
  g_string_append (s, "  ]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */
/* main */

typedef struct {
  char name[16];
  int width, height;
} SizeSpec;

/* 720p, 1080p, 4k or WxH (at least 16 x 16) */
static gboolean
parse_size (const char *text, gpointer data)
{
  SizeSpec *out = data;
  char *t = g_strstrip (g_ascii_strdown (text, -1));
  gboolean ok = gcvb_parse_dims (t, &out->width, &out->height) && out->width >= 16 && out->height >= 16;

  g_strlcpy (out->name, t, sizeof (out->name));
  g_free (t);
  return ok;
}

int
main (int argc, char **argv)
{
  GcvbPhoto photos[GCVB_N_PHOTOS];
  int n_photos, status;
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (SizeSpec));
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (EdgeFrac));
  gboolean do_elements, do_cuda, do_cpu, do_opencv, do_transfers, do_npp;

  if (!gcvb_init (&argc, &argv, "- benchmark cudacanny / cpucanny and the Canny backends\n\n"
          "Peers: OpenCV's cv::Canny (CPU; linked when OpenCV 4 was found at configure time); on the GPU, "
          "NVIDIA NPP's nppiFilterCannyBorder_8u_C1R_Ctx (libnppif of the CUDA toolkit, loaded at run "
          "time: a host without it gets a skipped row saying why; --skip npp)", entries, &opt, &quick))
    return 2;
  {
    GcvCannyParams p = make_params (opt_blur);
    const char *msg = gcv_canny_params_check (&p);
    if (msg != NULL) {
      g_printerr ("error: bad Canny parameters: %s\n", msg);
      return 2;
    }
  }
  if (!gcvb_parse_list (opt_sizes, "720p,1080p,4k", parse_size, sizes, "unknown size",
          "(720p, 1080p, 4k or WxH)"))
    return 2;

  do_elements = !gcvb_skipped (&opt, "elements");
  do_cuda = !gcvb_skipped (&opt, "cuda");
  do_cpu = !gcvb_skipped (&opt, "cpu");
  do_opencv = !gcvb_skipped (&opt, "opencv");
  do_transfers = !gcvb_skipped (&opt, "transfers");
  do_npp = !gcvb_skipped (&opt, "npp");

  results = g_array_new (FALSE, FALSE, sizeof (Result));
  gcvb_host_init (&host, "bench-canny", &opt, do_elements, "cpucanny", FALSE);

  gcvb_print_host (&host, opt.device, "GPU parts");
  if (host.cuda.available && (host.cuda.peak_gbps > 0 || host.cuda.copy_gbps > 0))
    g_print ("GPU memory: %.0f GB/s theoretical peak, %.0f GB/s device-to-device copy (read+write)\n",
        host.cuda.peak_gbps, host.cuda.copy_gbps);
  g_print ("GStreamer:  %s\n", gst_version_string ());
#ifdef GCVB_HAVE_OPENCV
  g_print ("OpenCV:     %s\n", gcvb_opencv_version ());
#else
  g_print ("OpenCV:     not built in (peer rows skipped)\n");
#endif
  if (do_elements)
    g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file : "NOT FOUND (element rows will fail)");
#if GCVB_CUDA
  if (do_npp && host.cuda.available) {
    char why[256];
    if (gcvb_npp_load ("nppif", why, sizeof (why)) == 0)
      g_print ("GPU peer:   NPP %s, nppiFilterCannyBorder_8u_C1R_Ctx (blur 0 rows)\n", gcvb_npp_version ());
    else
      g_print ("GPU peer:   NPP skipped: %s\n", why);
  }
#endif
  g_print ("Canny:      low %g, high %g, blur %d sigma %g (and blur 0), L1 gradient, edges output\n",
      opt_low, opt_high, opt_blur, opt_sigma);
  {
    char cf[32], cr[32];
    g_snprintf (cf, sizeof (cf), opt.cpu_frames ? "%d" : "200 (50 above 1080p)", opt.cpu_frames);
    g_snprintf (cr, sizeof (cr), opt.cpu_runs ? "%d" : "30 (10 above 1080p)", opt.cpu_runs);
    g_print ("Runs:       warm-up %d; cudacanny %d frames, cpucanny %s frames; kernel %d runs, "
        "cpu/opencv %s runs%s\n", opt.warmup, opt.frames, cf, opt.runs, cr,
        opt.quick ? "  [--quick: rough numbers]" : "");
  }

  n_photos = gcvb_load_photos (&opt, "GRAY8", 1, photos);
  if (n_photos == 0)
    return 1;
  gcvb_print_frames (opt.variants, "size", photos, n_photos, "luma, scaled and mirror-tiled");

  (void) do_transfers;          /* unused without CUDA */
#if GCVB_CUDA
  if (host.cuda.available && do_transfers) {
    g_printerr ("\n== transfers (1920x1080 GRAY8) ==\n");
    bench_transfers (opt.runs);
  }
#endif

  for (guint si = 0; si < sizes->len; si++) {
    const SizeSpec *sz = &g_array_index (sizes, SizeSpec, si);
    gboolean big = (gint64) sz->width * sz->height > 1920 * 1080;
    int cpu_frames = opt.cpu_frames ? opt.cpu_frames : big ? 50 : 200;
    int cpu_warm = MIN (opt.warmup, 10);
    int cpu_runs = opt.cpu_runs ? opt.cpu_runs : big ? 10 : 30;
    int cpu_warm_runs = opt.quick ? 1 : 3;
    int blurs[2] = { opt_blur, 0 };
    int n_blurs = opt_blur ? 2 : 1;
    guint8 *ref[2] = { NULL, NULL }, *cv_blur0 = NULL;
    GcvbFrameSet fs;
    EdgeFrac ef;

    g_printerr ("\n== %s (%dx%d) ==\n", sz->name, sz->width, sz->height);
    /* packed GRAY8, plain bilinear scaling */
    gcvb_frameset_init (&fs, sz->name, sz->width, sz->height, 0, FALSE, photos, n_photos, opt.variants);
    if (opt_dump != NULL)
      dump_frames (&fs, opt_dump);

    if (do_elements) {
      if (host.cuda.available)
        bench_element (&fs, "cudacanny", opt.warmup, opt.frames);
      else
        skip_row (&fs, "cudacanny", opt_blur, host.cuda.why);
      bench_element (&fs, "cpucanny", cpu_warm, cpu_frames);
    }
    if (do_cuda || do_opencv || do_npp)
      for (int b = 0; b < n_blurs; b++)
        ref[b] = cpu_reference (&fs, blurs[b]);
    if (do_cuda)
      for (int b = 0; b < n_blurs; b++) {
#if GCVB_CUDA
        if (host.cuda.available)
          bench_cuda_kernel (&fs, blurs[b], MIN (opt.warmup, 50) + 5, opt.runs, ref[b]);
        else
#endif
          skip_row (&fs, "cuda kernel", blurs[b], host.cuda.why);
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
    /* OpenCV's all-threads blur-0 output, for NPP's agreement with it */
    if (do_opencv)
      for (int threads = 1; threads >= 0; threads--)
        for (int b = 0; b < n_blurs; b++)
          bench_opencv (&fs, blurs[b], threads, cpu_warm_runs, cpu_runs, ref[b],
              threads == 0 && blurs[b] == 0 && do_npp ? &cv_blur0 : NULL);
    if (do_npp) {
      const guint8 *ref0 = ref[n_blurs - 1];    /* blur 0 is the last */
#if GCVB_CUDA
      if (host.cuda.available)
        bench_npp (&fs, MIN (opt.warmup, 50) + 5, opt.runs, ref0, cv_blur0);
      else
#endif
        skip_row (&fs, "npp canny", 0, host.cuda.why);
      (void) ref0;
    }

    g_free (cv_blur0);
    g_free (ref[0]);
    g_free (ref[1]);
    gcvb_frameset_clear (&fs);
  }

  print_table ();
  if (xfer.have_copies) {
    double mb = xfer.copy_bytes / 1e6;
    g_print ("\nTransfers of one 1920x1080 GRAY8 frame (%zu bytes), median of %d:\n"
        "  H2D pinned   %.4f ms  %6.2f GB/s     D2H pinned   %.4f ms  %6.2f GB/s\n"
        "  H2D pageable %.4f ms  %6.2f GB/s     D2H pageable %.4f ms  %6.2f GB/s\n",
        xfer.copy_bytes, opt.runs,
        xfer.h2d_pinned_ms, mb / xfer.h2d_pinned_ms, xfer.d2h_pinned_ms, mb / xfer.d2h_pinned_ms,
        xfer.h2d_pageable_ms, mb / xfer.h2d_pageable_ms, xfer.d2h_pageable_ms, mb / xfer.d2h_pageable_ms);
  }
  gcvb_print_host_footer (&host, FALSE);
  status = gcvb_finish (results_json (edges), &opt, "bench-canny.json");

  gcvb_photos_clear (photos, n_photos);
  g_array_free (results, TRUE);
  g_array_free (sizes, TRUE);
  g_array_free (edges, TRUE);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
