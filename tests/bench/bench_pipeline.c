/* gst-cuda-video: pipeline benchmark.  It measures PIPELINES, not kernels:
 * the elements chained as an application would chain them, fed from
 * memory, in several memory modes and with several independent streams.
 *
 *   bench-pipeline [--quick] [--cases LIST] [--modes sync,async,pool,cuda] [--streams 1,4,8,16]
 *       [--frames N] [--warmup N] [--budget S] [--cpu-budget S] [--skip gpu,cpu] [--json FILE]
 *
 * Pipelines (--cases), each appsrc ! ... ! fakesink sync=false:
 *   canny        cudacanny, GRAY8 1920x1080
 *   canny-nv12   cudacanny, NV12 1920x1080 in (edges of the luma, GRAY8 out)
 *   bspline      cudabsplinescale, GRAY8 1920x1080 -> 3840x2160
 *   conv3d       cudaconv3d size=5, GRAY8 1920x1080 (2 frames held back)
 *   seamcarve    cudaseamcarve width=1728 mode=fast, RGBA 1920x1080 (-10% width)
 *   motionest    cudamotionest 16x16 blocks +-16 (full search), GRAY8 1920x1080
 *   vcm          cudavcm (defaults), GRAY8 1920x1080
 *   dibr         cudadibr, RGBA 3840x1080 side-by-side 2D+Z -> stereo-side-by-side
 *   scale-canny  cudabsplinescale (1080p -> 4K) ! cudacanny, GRAY8 in
 *   chain        cudaconv3d size=5 ! cudabsplinescale ! 3840x2160 ! cudacanny ! cudamotionest
 *   chain-cpu    the same with the cpu* twins: the CPU baseline (--cpu-budget)
 *   upload-canny GStreamer's cudaupload ! cudacanny, NV12 1920x1080 in (nvcodec's
 *                cudaupload into CUDA memory, cudacanny downloads the edges):
 *                against canny-nv12, where cudacanny uploads itself (sync and
 *                async only; skipped where nvcodec's cudaupload is missing)
 * The cuda* elements keep fallback=true: without a GPU they run on the CPU
 * and their rows say "cpu fallback" (the elements' "backend" property).
 *
 * Memory modes (--modes), each pipeline in each:
 *   sync   application buffers (pageable system memory, the frames pre-loaded)
 *          in, system memory between the elements and out; async-depth=0 on
 *          every element that has the property: each frame finished before
 *          the element pushes it.
 *   async  the same with async-depth left at its default (frames in flight
 *          inside the elements, transfers overlapping compute).
 *   pool   system memory from the pool the first element proposes, as
 *          videotestsrc, v4l2src and the decoders use it: the cuda* elements
 *          propose page-locked memory, which they copy by DMA without
 *          staging.  Loaded as in cuda mode below (--variants buffers of the
 *          pool, pushed in rotation); a pool of other memory is noted, no
 *          pool at all (the CPU fallback proposes none) skips the row.
 *          async-depth at its default.
 *   cuda   CUDA memory end to end: caps video/x-raw(memory:CUDAMemory) at the
 *          appsrc, after every element and at the sink.  The frames are
 *          loaded once onto the GPU: the pipeline goes to PAUSED, an
 *          ALLOCATION query from the appsrc's pad gets the first element's
 *          pool (its caps are sent first when the element answers only once
 *          negotiated), --variants buffers are acquired from it, filled
 *          through gst_video_frame_map (GST_MAP_WRITE) (GstCudaMemory uploads
 *          at the next CUDA map, in the warm-up) and pushed in rotation, a
 *          ref each time (the elements only read their input; no timestamps
 *          are written on them).  No pool, or caps that do not negotiate: the
 *          row is "skipped: <why>".  async-depth at its default.
 * Streams (--streams): each row for 1, 4, 8 and 16 independent pipelines
 * in one process, each with its own appsrc and pushing thread, timed
 * together: the aggregate fps and the per-stream ms/frame.
 *
 * Timing: every stream pushes --warmup frames (at most --queue frames in
 * flight beyond those the elements hold back), waits for their outputs,
 * then all streams start together: t0 and the frames already out are
 * taken, the timed frames pushed, EOS sent and waited for on the bus (the
 * held frames drained), t1.  fps = frames out in [t0, t1] of all streams /
 * (the last t1 - the first t0); ms/frame = the mean over the streams of
 * (t1 - t0) / its frames.  The timed frames per stream: --frames at most,
 * fewer when the warm-up's rate says they would take over --budget seconds
 * (--cpu-budget for CPU rows and fallbacks).
 * kernels: the sum over the pipeline's elements of their "stats"
 * compute-ms per frame.  The stats are means since the element started,
 * warm-up included: they are read before t0 and after the EOS and
 * differenced (mean x frames), so only the frames processed in between
 * count.  upload / download likewise.
 * PCIe limit: bytes that must cross PCIe per frame in the mode (system
 * memory: each element uploads its input frame and downloads its output
 * frame, except cudamotionest / cudavcm, whose output is their input
 * buffer; cuda mode: none after the head) over the pinned host <-> device
 * copy bandwidth measured once at the start, each direction on its own
 * (PCIe is full duplex): fps <= 1 / max (H2D bytes / H2D, D2H bytes / D2H).
 * The start also prints, so that a job explains itself: the pageable
 * host <-> device bandwidth (what the driver reaches from malloc'd memory),
 * the host's memcpy bandwidth with 1 and 4 threads (the elements copy
 * pageable frames into page-locked staging with up to 4), and where the
 * GPU and this process sit on the NUMA nodes.
 *
 * Input frames: the test photos (tests/data) scaled, mirror-tiled and
 * shifted into --variants different frames per format (gcvb_frameset_init;
 * NV12 converted from the RGBA ones by GstVideoConverter), rotated through;
 * the 2D+Z frames are the standard DIBR scene of tests/dibr_scene.h
 * ray-cast from moved cameras, colour left, depth as grey RGBA right.
 * All made before any timing.
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
  .frames = 2000, .warmup = 50, .cpu_frames = 50, .runs = 1, .cpu_runs = 0, .variants = 8, .queue = 4,
  .device = 0,
};

static const GcvbOptions quick = {
  .frames = 200, .warmup = 10, .cpu_frames = 10, .runs = 1, .variants = 8,
};

static gchar *opt_cases = NULL, *opt_modes = NULL, *opt_streams = NULL;
static gdouble opt_budget = -1;         /* s of timed frames per GPU row; default 0.5, quick 0.2 */
static gdouble opt_cpu_budget = -1;     /* s per CPU row; default 5, quick 1 */

static GOptionEntry entries[] = {
  {"cases", 'c', 0, G_OPTION_ARG_STRING, &opt_cases,
      "Pipelines, comma-separated: canny, canny-nv12, bspline, conv3d, seamcarve, motionest, vcm, dibr, "
        "scale-canny, chain, chain-cpu, upload-canny (default all)", "LIST"},
  {"modes", 'm', 0, G_OPTION_ARG_STRING, &opt_modes,
      "Memory modes, comma-separated: sync, async, pool (the element's page-locked pool), cuda (default all)",
      "LIST"},
  {"streams", 's', 0, G_OPTION_ARG_STRING, &opt_streams,
      "Parallel pipelines per row, comma-separated (default 1,4,8,16; --quick 1,4)", "LIST"},
  {"frames", 'n', 0, G_OPTION_ARG_INT, &opt.frames,
      "Most timed frames per stream of a GPU row (default 2000; fewer by --budget)", "N"},
  {"warmup", 'w', 0, G_OPTION_ARG_INT, &opt.warmup,
      "Warm-up frames per stream (default 50; CPU rows the held frames + 2)", "N"},
  {"budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_budget,
      "Seconds of timed frames per GPU row (default 0.5, --quick 0.2)", "S"},
  {"cpu-frames", 0, 0, G_OPTION_ARG_INT, &opt.cpu_frames,
      "Most timed frames per stream of a CPU row (cpu* twins, fallbacks; default 50, --quick 10)", "N"},
  {"cpu-budget", 0, 0, G_OPTION_ARG_DOUBLE, &opt_cpu_budget,
      "Seconds of timed frames per CPU row (default 5, --quick 1)", "S"},
  {"variants", 0, 0, G_OPTION_ARG_INT, &opt.variants,
      "Different input frames per format, rotated through (default 8)", "N"},
  {"queue", 0, 0, G_OPTION_ARG_INT, &opt.queue,
      "Frames in flight per stream beyond those the elements hold (default 4)", "N"},
  {"device", 'd', 0, G_OPTION_ARG_INT, &opt.device, "CUDA device (default 0)", "N"},
  GCVB_OPTION_ENTRIES (opt, "bench-pipeline.json"),
  {"skip", 0, 0, G_OPTION_ARG_STRING, &opt.skip,
      "Parts to skip, comma-separated: gpu (or cuda: the cuda* pipelines), cpu (chain-cpu)", "LIST"},
  {NULL}
};

static double
budget_s (gboolean cpu_row)
{
  return cpu_row ? gcvb_cpu_budget_s (&opt, opt_cpu_budget, 1, 5) : gcvb_cpu_budget_s (&opt, opt_budget, 0.2, 0.5);
}

/* ------------------------------------------------------------------------ */
/* input frames */

enum { IN_GRAY8, IN_NV12, IN_RGBA, IN_SBS, N_INPUTS };

/* frames in GStreamer's default layout of info (plane strides and
 * offsets), so that a wrapped frame needs no video meta; fs.frames[k],
 * fs.size bytes each */
typedef struct {
  const char *name, *format;
  int width, height;
  gboolean made;
  GstVideoInfo info;
  GcvbFrameSet fs;
} Input;

static Input inputs[N_INPUTS] = {
  {"GRAY8 1920x1080", "GRAY8", 1920, 1080},
  {"NV12 1920x1080", "NV12", 1920, 1080},
  {"RGBA 1920x1080", "RGBA", 1920, 1080},
  {"RGBA 3840x1080 2D+Z", "RGBA", 3840, 1080},
};

static GcvbPhoto photos_gray[GCVB_N_PHOTOS], photos_rgba[GCVB_N_PHOTOS];
static int n_gray, n_rgba;

/* The DIBR scene's z range and the cameras' focal length (the element's
 * properties must match the frames). */
#define SBS_Z_NEAR 2.5
#define SBS_Z_FAR 14.0

/* NV12 from the RGBA frames (GStreamer's converter, its default matrix). */
static gboolean
make_nv12 (Input * in, const Input * rgba)
{
  GstVideoConverter *conv = gst_video_converter_new ((GstVideoInfo *) & rgba->info, &in->info, NULL);

  if (conv == NULL)
    return FALSE;
  gcvb_frameset_alloc (&in->fs, "nv12", &in->info, rgba->fs.n);
  for (int k = 0; k < in->fs.n; k++) {
    GstBuffer *a = gst_buffer_new_wrapped_full (0, rgba->fs.frames[k], rgba->fs.size, 0, rgba->fs.size, NULL, NULL);
    GstBuffer *b = gst_buffer_new_wrapped_full (0, in->fs.frames[k], in->fs.size, 0, in->fs.size, NULL, NULL);
    GstVideoFrame fa, fb;
    if (gst_video_frame_map (&fa, (GstVideoInfo *) & rgba->info, a, GST_MAP_READ)) {
      if (gst_video_frame_map (&fb, &in->info, b, GST_MAP_WRITE)) {
        gst_video_converter_frame (conv, &fa, &fb);
        gst_video_frame_unmap (&fb);
      }
      gst_video_frame_unmap (&fa);
    }
    gst_buffer_unref (a);
    gst_buffer_unref (b);
  }
  gst_video_converter_free (conv);
  return TRUE;
}

/* Side-by-side 2D+Z: the standard scene ray-cast from a camera that moves
 * and turns a little with k, colour in the left half, the 8-bit depth
 * (255 nearest) as grey RGBA (A = 255) in the right half. */
static gboolean
make_sbs (Input * in)
{
  gcvb_frameset_alloc (&in->fs, "sbs", &in->info, opt.variants);
  return dibr_scene_sbs_frames (in->width / 2, in->height, SBS_Z_NEAR, SBS_Z_FAR, in->fs.frames, in->fs.n,
      in->fs.stride) == 0;
}

/* The frames of input `which`, made on first use; NULL after a message. */
static const Input *
input_get (int which)
{
  Input *in = &inputs[which];
  gboolean ok = TRUE;

  if (in->made)
    return in->fs.n > 0 ? in : NULL;
  in->made = TRUE;
  gst_video_info_set_format (&in->info, gst_video_format_from_string (in->format), in->width, in->height);
  switch (which) {
    case IN_GRAY8:
    case IN_RGBA:
      ok = (which == IN_GRAY8 ? n_gray : n_rgba) > 0;
      if (ok)
        gcvb_frameset_init (&in->fs, in->format, in->width, in->height, GST_VIDEO_INFO_PLANE_STRIDE (&in->info, 0),
            FALSE, which == IN_GRAY8 ? photos_gray : photos_rgba, which == IN_GRAY8 ? n_gray : n_rgba,
            opt.variants);
      break;
    case IN_NV12:
      ok = input_get (IN_RGBA) != NULL && make_nv12 (in, &inputs[IN_RGBA]);
      break;
    case IN_SBS:
      ok = make_sbs (in);
      break;
  }
  for (int k = 0; ok && k < in->fs.n; k++) {
    size_t i = 0;
    while (i < in->fs.size && in->fs.frames[k][i] == 0)
      i++;
    ok = i < in->fs.size;       /* never time on zeros */
  }
  if (!ok) {
    g_printerr ("error: cannot make the %s frames\n", in->name);
    gcvb_frameset_clear (&in->fs);
    return NULL;
  }
  return in;
}

/* ------------------------------------------------------------------------ */
/* pipelines */

typedef struct {
  const char *factory;          /* the cuda* name; the CPU twin is cpu + factory + 4 */
  const char *props;            /* "name=value ..." */
  int out_w, out_h;             /* a capsfilter with this size after it (0: none) */
  const char *out_format;       /* NULL: the input's */
  gboolean analyzer;            /* in place: its output is its input buffer */
  int hold;                     /* frames held back until EOS */
  gboolean device_out;          /* not ours (nvcodec's cudaupload): its output is CUDA memory, in every mode */
} Stage;

typedef struct {
  const char *name, *title;
  int input;
  gboolean cpu;                 /* the cpu* twins */
  int n_stages;
  Stage stages[4];
} Case;

#define CANNY {"cudacanny", "", 0, 0, "GRAY8", FALSE, 0}
#define SCALE_4K {"cudabsplinescale", "", 3840, 2160, NULL, FALSE, 0}
#define CONV3D {"cudaconv3d", "size=5", 0, 0, NULL, FALSE, 2}
#define MOTIONEST {"cudamotionest", "block-width=16 block-height=16 search-range-x=16 search-range-y=16 method=full", \
    0, 0, NULL, TRUE, 0}

#define CUDAUPLOAD {"cudaupload", "", 0, 0, NULL, FALSE, 0, TRUE}

static char dibr_props[256];

static Case cases[] = {
  {"canny", "cudacanny", IN_GRAY8, FALSE, 1, {CANNY}},
  {"canny-nv12", "cudacanny (NV12 in, GRAY8 edges out)", IN_NV12, FALSE, 1, {CANNY}},
  {"bspline", "cudabsplinescale ! video/x-raw,width=3840,height=2160", IN_GRAY8, FALSE, 1, {SCALE_4K}},
  {"conv3d", "cudaconv3d size=5", IN_GRAY8, FALSE, 1, {CONV3D}},
  {"seamcarve", "cudaseamcarve width=1728 mode=fast ! video/x-raw,width=1728", IN_RGBA, FALSE, 1,
      {{"cudaseamcarve", "width=1728 mode=fast", 1728, 1080, NULL, FALSE, 0}}},
  {"motionest", "cudamotionest 16x16 +-16 full search", IN_GRAY8, FALSE, 1, {MOTIONEST}},
  {"vcm", "cudavcm", IN_GRAY8, FALSE, 1, {{"cudavcm", "", 0, 0, NULL, TRUE, 0}}},
  {"dibr", "cudadibr layout=side-by-side output=stereo-side-by-side symmetric=true", IN_SBS, FALSE, 1,
      {{"cudadibr", dibr_props, 0, 0, NULL, FALSE, 0}}},
  {"scale-canny", "cudabsplinescale ! video/x-raw,width=3840,height=2160 ! cudacanny", IN_GRAY8, FALSE, 2,
      {SCALE_4K, CANNY}},
  {"chain", "cudaconv3d size=5 ! cudabsplinescale ! video/x-raw,width=3840,height=2160 ! cudacanny ! "
        "cudamotionest", IN_GRAY8, FALSE, 4, {CONV3D, SCALE_4K, CANNY, MOTIONEST}},
  {"chain-cpu", "cpuconv3d size=5 ! cpubsplinescale ! video/x-raw,width=3840,height=2160 ! cpucanny ! "
        "cpumotionest", IN_GRAY8, TRUE, 4, {CONV3D, SCALE_4K, CANNY, MOTIONEST}},
  {"upload-canny", "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudacanny (NV12 in, GRAY8 edges out)", IN_NV12,
      FALSE, 2, {CUDAUPLOAD, CANNY}},
};

#define N_CASES G_N_ELEMENTS (cases)

static void
stage_factory (const Case * c, int i, char *buf, size_t len)
{
  g_snprintf (buf, len, "%s%s", c->cpu ? "cpu" : "", c->stages[i].factory + (c->cpu ? 4 : 0));
}

enum { MODE_SYNC, MODE_ASYNC, MODE_POOL, MODE_CUDA, N_MODES };
static const char *const mode_names[N_MODES] = { "sync", "async", "pool", "cuda" };

#define CUDA_FEATURE "memory:CUDAMemory"

/* video/x-raw[(memory:CUDAMemory)] with the format and size of info, or
 * only the feature (info NULL), or a size only (format NULL) */
static GstCaps *
make_caps (gboolean cuda, const char *format, int w, int h, gboolean rate)
{
  GstCaps *caps = gst_caps_new_empty_simple ("video/x-raw");

  if (format != NULL)
    gst_caps_set_simple (caps, "format", G_TYPE_STRING, format, NULL);
  if (w > 0)
    gst_caps_set_simple (caps, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, NULL);
  if (rate)
    gst_caps_set_simple (caps, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, "framerate", GST_TYPE_FRACTION, 30, 1,
        NULL);
  if (cuda)
    gst_caps_set_features (caps, 0, gst_caps_features_new (CUDA_FEATURE, NULL));
  return caps;
}

/* Whether the element's pad templates take CUDA memory: without it the
 * cuda mode does not link. */
static gboolean
takes_cuda_memory (const char *factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);
  GstCaps *cuda = make_caps (TRUE, NULL, 0, 0, FALSE);
  gboolean sink = FALSE, src = FALSE;

  for (const GList * l = f ? gst_element_factory_get_static_pad_templates (f) : NULL; l != NULL; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    GstCaps *tc = gst_static_pad_template_get_caps (t);
    if (gst_caps_can_intersect (tc, cuda))
      *(t->direction == GST_PAD_SINK ? &sink : &src) = TRUE;
    gst_caps_unref (tc);
  }
  gst_caps_unref (cuda);
  if (f != NULL)
    gst_object_unref (f);
  return sink && src;
}

/* Bytes crossing PCIe per frame in system memory: each element uploads its
 * input and downloads its output (not an analyzer's), unless the output
 * stays on the GPU for the next (device_out). */
static void
pcie_bytes (const Case * c, const Input * in, double *h2d, double *d2h)
{
  GstVideoInfo cur = in->info;

  *h2d = *d2h = 0;
  for (int i = 0; i < c->n_stages; i++) {
    const Stage *s = &c->stages[i];
    GstVideoInfo out;
    if (i == 0 || !c->stages[i - 1].device_out)
      *h2d += GST_VIDEO_INFO_SIZE (&cur);
    gst_video_info_set_format (&out, s->out_format ? gst_video_format_from_string (s->out_format)
        : GST_VIDEO_INFO_FORMAT (&cur), s->out_w ? s->out_w : GST_VIDEO_INFO_WIDTH (&cur),
        s->out_h ? s->out_h : GST_VIDEO_INFO_HEIGHT (&cur));
    if (!s->analyzer && !s->device_out)
      *d2h += GST_VIDEO_INFO_SIZE (&out);
    cur = out;
  }
}

/* ------------------------------------------------------------------------ */
/* results */

typedef struct {
  GcvbResult m;                 /* fps: all streams; ms: per stream; compute_ms: the elements' sum */
  int ci, mode, streams;
  int frames;                   /* timed frames pushed per stream */
  double h2d_bytes, d2h_bytes;  /* per frame, system memory modes */
  double pcie_fps;              /* the PCIe limit, NAN n/a, INFINITY none */
  int n_elems;
  char elem_name[4][32];
  double elem_compute[4];       /* mean over the streams, ms per frame */
  char elem_backend[4][16];
  char async_depth[64];         /* the elements' async-depth, "-" without */
  gboolean fallback;
} Row;

static GArray *rows;            /* of Row */
static GcvbHost host;
static double pcie_h2d = NAN, pcie_d2h = NAN;   /* GB/s */
static char pcie_why[256] = "";
static double pageable_h2d = NAN, pageable_d2h = NAN;   /* GB/s, from malloc'd memory */
static char pageable_why[256] = "";
static double memcpy_gbps[2] = { NAN, NAN };    /* host memcpy, 1 and 4 threads */
static char numa[256] = "";
static gchar *command_line;

/* ------------------------------------------------------------------------ */
/* streams */

typedef struct {
  GMutex lock;
  GCond cond;
  int n_warm;                   /* streams through their warm-up (or failed) */
  gboolean go, abort;
  int warmup, frames;           /* per stream */
  int hold;                     /* frames the elements may hold back */
  int allowance;                /* most frames in flight */
  double timeout_s;
} Shared;

typedef struct {
  Shared *sh;
  int index;
  GcvbPipeline *p;
  const Input *in;
  GstBufferPool *pool;          /* cuda mode */
  GstBuffer **bufs;             /* cuda mode: in->fs.n frames on the GPU */
  GThread *thread;
  gchar *error;
  double t0, t1;
  guint64 a0, count;
  GcvbStats before[4], after[4];
} Stream;

/* Pushes frame i of the stream, at most sh->allowance frames in flight. */
static gboolean
push_frame (Stream * s, int i, gchar ** msg)
{
  const GcvbFrameSet *fs = &s->in->fs;
  int k = (i + 3 * s->index) % fs->n;
  GstBuffer *b;

  if (!gcvb_pipeline_wait_arrived (s->p, (gint64) i - s->sh->allowance + 1, s->sh->timeout_s, msg))
    return FALSE;
  if (s->bufs != NULL) {
    b = gst_buffer_ref (s->bufs[k]);
  } else {
    b = gcvb_frame_buffer (fs, k, i);
  }
  return gcvb_pipeline_push (s->p, b, msg);
}

static gpointer
stream_thread (gpointer data)
{
  Stream *s = data;
  Shared *sh = s->sh;
  gchar *msg = NULL;
  gboolean ok = TRUE;
  int i;

  for (i = 0; i < sh->warmup && ok; i++)
    ok = push_frame (s, i, &msg);
  if (ok)
    ok = gcvb_pipeline_wait_arrived (s->p, (gint64) sh->warmup - sh->hold, sh->timeout_s, &msg);

  g_mutex_lock (&sh->lock);
  s->error = msg;
  sh->n_warm++;
  g_cond_broadcast (&sh->cond);
  while (!sh->go)
    g_cond_wait (&sh->cond, &sh->lock);
  g_mutex_unlock (&sh->lock);
  if (!ok || sh->abort) {
    gcvb_pipeline_abandon (s->p);
    return NULL;
  }

  s->t0 = gcvb_now_ms ();
  s->a0 = gcvb_pipeline_arrived (s->p, NULL, NULL);
  for (int k = 0; k < sh->frames && ok; k++, i++)
    ok = push_frame (s, i, &msg);
  if (!ok)
    gcvb_pipeline_abandon (s->p);
  else
    ok = gcvb_pipeline_finish (s->p, sh->timeout_s, &msg);
  s->t1 = gcvb_now_ms ();
  s->count = gcvb_pipeline_arrived (s->p, NULL, NULL) - s->a0;
  s->error = msg;
  return NULL;
}

/* The memory type of the cuda* elements' page-locked pool (gst/gstcudahostallocator.h) */
#define PINNED_MEMORY_TYPE "CudaVideoPinnedHostMemory"

/* cuda and pool modes: the first element's pool for `caps` (CUDA memory or
 * system memory), --variants buffers from it holding the frames.  FALSE
 * with why; in pool mode a pool of other than page-locked memory is said
 * in note (the row runs). */
static gboolean
pool_preload (Stream * s, GstCaps * caps, char *note, size_t note_len, char *why, size_t why_len)
{
  gboolean cuda = gst_caps_features_contains (gst_caps_get_features (caps, 0), CUDA_FEATURE);
  GstPad *pad = gst_element_get_static_pad (gcvb_pipeline_appsrc (s->p), "src");
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  const GcvbFrameSet *fs = &s->in->fs;
  GstVideoInfo info;
  GstStructure *config;
  gchar *msg = NULL;
  guint size = 0, min = 0, max = 0;
  gboolean ok = FALSE;

  if (!gcvb_pipeline_set_state (s->p, GST_STATE_PAUSED, &msg)) {
    g_snprintf (why, why_len, "%s", msg);
    goto done;
  }
  if (!gst_pad_peer_query_accept_caps (pad, caps)) {
    g_snprintf (why, why_len, "%s does not accept %s", GST_OBJECT_NAME (gcvb_pipeline_stage (s->p, 0)),
        cuda ? "video/x-raw(" CUDA_FEATURE ")" : "the caps");
    goto done;
  }
  {
    /* Caps first, as in a pipeline: a GstBaseTransform (1.22) that has
     * no caps yet may answer the ALLOCATION query TRUE with nothing in it
     * (its check for a pending reconfigure leaves the answer TRUE) */
    GstEvent *ss = gst_pad_get_sticky_event (pad, GST_EVENT_STREAM_START, 0);
    if (ss != NULL)
      gst_event_unref (ss);
    else
      gst_pad_push_event (pad, gst_event_new_stream_start ("bench-pipeline"));
    if (!gst_pad_push_event (pad, gst_event_new_caps (caps))) {
      g_snprintf (why, why_len, "%s does not negotiate through the pipeline",
          cuda ? "video/x-raw(" CUDA_FEATURE ")" : "system memory");
      goto done;
    }
  }
  if (!gst_pad_peer_query (pad, q)) {
    g_snprintf (why, why_len, "%s does not answer the ALLOCATION query", GST_OBJECT_NAME (gcvb_pipeline_stage (s->p,
                0)));
    goto done;
  }
  if (gst_query_get_n_allocation_pools (q) > 0)
    gst_query_parse_nth_allocation_pool (q, 0, &s->pool, &size, &min, &max);
  if (s->pool == NULL) {
    g_snprintf (why, why_len, "no pool in %s's ALLOCATION answer%s", GST_OBJECT_NAME (gcvb_pipeline_stage (s->p, 0)),
        cuda ? "" : " (a cuda* element proposes one only on the GPU)");
    goto done;
  }
  config = gst_buffer_pool_get_config (s->pool);
  if (max != 0 && max < (guint) fs->n) {
    gst_buffer_pool_config_set_params (config, caps, size, min, 0);
    gst_buffer_pool_set_config (s->pool, config);
  } else {
    gst_structure_free (config);
  }
  if (!gst_buffer_pool_set_active (s->pool, TRUE)) {
    g_snprintf (why, why_len, "cannot activate the pool of %s", GST_OBJECT_NAME (gcvb_pipeline_stage (s->p, 0)));
    goto done;
  }
  gst_video_info_from_caps (&info, caps);
  s->bufs = g_new0 (GstBuffer *, fs->n);
  for (int k = 0; k < fs->n; k++) {
    GstVideoFrame vf;
    GstMemory *mem;
    if (gst_buffer_pool_acquire_buffer (s->pool, &s->bufs[k], NULL) != GST_FLOW_OK) {
      g_snprintf (why, why_len, "cannot acquire buffer %d of the pool", k);
      goto done;
    }
    mem = gst_buffer_peek_memory (s->bufs[k], 0);
    if (cuda && !gst_memory_is_type (mem, "gst.cuda.memory")) {
      g_snprintf (why, why_len, "the pool gives %s memory, not gst.cuda.memory",
          mem->allocator ? mem->allocator->mem_type : "?");
      goto done;
    }
    if (!cuda && k == 0 && !gst_memory_is_type (mem, PINNED_MEMORY_TYPE))
      g_snprintf (note, note_len, "the pool gives %s memory, not page-locked",
          mem->allocator && mem->allocator->mem_type ? mem->allocator->mem_type : "plain");
    if (!gst_video_frame_map (&vf, &info, s->bufs[k], GST_MAP_WRITE)) {
      g_snprintf (why, why_len, "cannot map a pool buffer for writing");
      goto done;
    }
    for (guint pl = 0; pl < GST_VIDEO_FRAME_N_PLANES (&vf); pl++) {
      const GstVideoInfo *src = &s->in->info;
      size_t row = (size_t) GST_VIDEO_INFO_COMP_WIDTH (src, pl) * GST_VIDEO_INFO_COMP_PSTRIDE (src, pl);
      for (int y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (src, pl); y++)
        memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, pl) + (size_t) y * GST_VIDEO_FRAME_PLANE_STRIDE (&vf, pl),
            fs->frames[k] + GST_VIDEO_INFO_PLANE_OFFSET (src, pl) + (size_t) y * GST_VIDEO_INFO_PLANE_STRIDE (src, pl),
            row);
    }
    gst_video_frame_unmap (&vf);
  }
  ok = TRUE;
done:
  if (!ok)
    gcvb_pipeline_abandon (s->p);
  g_free (msg);
  gst_query_unref (q);
  gst_object_unref (pad);
  return ok;
}

static void
stream_clear (Stream * s)
{
  if (s->p != NULL)
    gcvb_pipeline_free (s->p);
  for (int k = 0; s->bufs != NULL && k < s->in->fs.n; k++)
    if (s->bufs[k] != NULL)
      gst_buffer_unref (s->bufs[k]);
  g_free (s->bufs);
  if (s->pool != NULL) {
    gst_buffer_pool_set_active (s->pool, FALSE);
    gst_object_unref (s->pool);
  }
  g_free (s->error);
}

/* The frames e may hold in flight as set for the mode: 0 in sync mode,
 * else its async-depth (-1 without the property). */
static int
set_async_depth (GstElement * e, int mode)
{
  gchar *v;
  int depth;

  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "async-depth") == NULL)
    return -1;
  if (mode == MODE_SYNC)
    gcvb_set_prop (e, "async-depth", "0");
  v = gcvb_prop_string (e, "async-depth");
  depth = v ? atoi (v) : 0;
  g_free (v);
  /* -1 (the default): 2 frames on the GPU, 0 on the CPU fallback, which
   * is not known before the pipeline starts: allowing for 2 only makes the
   * warm-up wait for 2 frames fewer there */
  return depth < 0 ? 2 : depth;
}

/* Builds stream s's pipeline and sets its elements; FALSE after
 * gcvb_result_fail / _skip (r). *hold_async: the frames the elements may
 * keep in flight (async-depth). */
static gboolean
stream_build (Stream * s, const Case * c, int mode, Row * r, int *hold_async)
{
  gboolean cuda = mode == MODE_CUDA;
  GcvbStage st[4];
  char factories[4][32], buf[32];
  GstCaps *in_caps = make_caps (cuda, s->in->format, s->in->width, s->in->height, TRUE);
  GString *depths = g_string_new (NULL);

  for (int i = 0; i < c->n_stages; i++) {
    stage_factory (c, i, factories[i], sizeof (factories[i]));
    st[i].factory = st[i].name = factories[i];
    st[i].caps_after = c->stages[i].out_w > 0 || cuda || c->stages[i].device_out ?
        make_caps (cuda || c->stages[i].device_out, NULL, c->stages[i].out_w, c->stages[i].out_h, FALSE) : NULL;
  }
  s->p = gcvb_pipeline_new_chain (st, c->n_stages, in_caps, &r->m);
  for (int i = 0; i < c->n_stages; i++)
    if (st[i].caps_after != NULL)
      gst_caps_unref (st[i].caps_after);
  gst_caps_unref (in_caps);
  if (s->p == NULL) {
    g_string_free (depths, TRUE);
    return FALSE;
  }
  gcvb_pipeline_quiet_warnings (s->p, TRUE);
  *hold_async = 0;
  for (int i = 0; i < c->n_stages; i++) {
    GstElement *e = gcvb_pipeline_stage (s->p, i);
    int depth;
    gcvb_set_props (e, c->stages[i].props);
    if (!c->cpu) {
      g_snprintf (buf, sizeof (buf), "%d", opt.device);
      gcvb_set_prop (e, "cuda-device-id", buf);
    }
    depth = set_async_depth (e, mode);
    if (depth > 0)
      *hold_async += depth;
    if (depth < 0)
      g_string_append_printf (depths, "%s-", i ? "," : "");
    else
      g_string_append_printf (depths, "%s%d", i ? "," : "", depth);
  }
  g_strlcpy (r->async_depth, depths->str, sizeof (r->async_depth));
  g_string_free (depths, TRUE);
  return TRUE;
}

/* The timed frames per stream: --frames (--cpu-frames) at most, fewer when
 * the warm-up's rate (the slowest stream's time between outputs) says they
 * would take over the budget. */
static int
timed_frames (Stream * st, int n, gboolean cpu_row)
{
  double interval_us = 0;
  int most = cpu_row ? MAX (opt.cpu_frames, 1) : opt.frames, least = cpu_row ? 1 : MIN (20, opt.frames);

  for (int i = 0; i < n; i++) {
    gint64 first, last;
    guint64 arrived = gcvb_pipeline_arrived (st[i].p, &first, &last);
    if (arrived >= 2)
      interval_us = MAX (interval_us, (double) (last - first) / (arrived - 1));
  }
  if (interval_us <= 0)
    return least;
  return (int) CLAMP (budget_s (cpu_row) * 1e6 / interval_us, least, most);
}

static gboolean
have_async_depth (const Row * r)
{
  return strpbrk (r->async_depth, "0123456789") != NULL;
}

/* One row: `streams` pipelines of case ci in `mode`, timed together. */
static void
run_row (int ci, int mode, int streams)
{
  const Case *c = &cases[ci];
  gboolean cpu_row = c->cpu || !host.cuda.available;
  const Input *in = input_get (c->input);
  Shared sh;
  Stream *st = g_new0 (Stream, streams);
  Row row, *r = &row;
  int hold = 0, hold_async = 0, built = 0;
  gboolean failed = FALSE, preload = mode == MODE_CUDA || mode == MODE_POOL;
  char why[256] = "", note[128] = "";

  memset (r, 0, sizeof (*r));
  gcvb_result_init (&r->m, c->cpu ? "cpu" : "cuda", "%-11s %-5s x%-2d", c->name, mode_names[mode], streams);
  r->ci = ci;
  r->mode = mode;
  r->streams = streams;
  r->n_elems = c->n_stages;
  r->pcie_fps = NAN;
  g_strlcpy (r->async_depth, "-", sizeof (r->async_depth));
  for (int i = 0; i < c->n_stages; i++) {
    stage_factory (c, i, r->elem_name[i], sizeof (r->elem_name[i]));
    r->elem_compute[i] = NAN;
  }
  memset (&sh, 0, sizeof (sh));
  g_mutex_init (&sh.lock);
  g_cond_init (&sh.cond);

  for (int i = 0; i < c->n_stages; i++) {
    if (!gcvb_have_factory (r->elem_name[i])) {
      gcvb_result_skip (&r->m, "element %s not found%s", r->elem_name[i], c->stages[i].device_out ?
          " (GStreamer's nvcodec plugin: gst-plugins-bad >= 1.22 and an NVIDIA driver)" : " in this plugin build");
      goto out;
    }
    if (c->stages[i].device_out && (mode == MODE_CUDA || mode == MODE_POOL)) {
      gcvb_result_skip (&r->m, "%s's row compares system-memory input (sync and async modes)", r->elem_name[i]);
      goto out;
    }
    if (mode == MODE_CUDA && !takes_cuda_memory (r->elem_name[i])) {
      gcvb_result_skip (&r->m, "%s's pads take no video/x-raw(" CUDA_FEATURE ")%s", r->elem_name[i],
          c->cpu ? ": the cpu* twins take system memory" : " in this build");
      goto out;
    }
    hold += c->stages[i].hold;
  }
  if (in == NULL) {
    gcvb_result_fail (&r->m, "no %s frames", inputs[c->input].name);
    goto out;
  }
  if (!c->cpu && mode != MODE_CUDA) {
    pcie_bytes (c, in, &r->h2d_bytes, &r->d2h_bytes);
    if (pcie_h2d > 0 && pcie_d2h > 0)
      r->pcie_fps = 1.0 / MAX (r->h2d_bytes / (pcie_h2d * 1e9), r->d2h_bytes / (pcie_d2h * 1e9));
  } else if (!c->cpu && host.cuda.available) {
    r->pcie_fps = INFINITY;     /* nothing crosses PCIe after the head */
  }

  /* build (and in cuda mode pre-load) every stream before any runs */
  for (int i = 0; i < streams; i++) {
    Stream *s = &st[i];
    GstCaps *caps;
    s->sh = &sh;
    s->index = i;
    s->in = in;
    if (!stream_build (s, c, mode, r, &hold_async))
      goto out;
    built++;
    if (!preload)
      continue;
    caps = make_caps (mode == MODE_CUDA, in->format, in->width, in->height, TRUE);
    if (!pool_preload (s, caps, note, sizeof (note), why, sizeof (why))) {
      gst_caps_unref (caps);
      gcvb_result_skip (&r->m, "%s", why);
      goto out;
    }
    gst_caps_unref (caps);
  }
  /* async-depth keeps its default in cuda and pool modes too: frames in
   * flight there are held as in async mode */
  if (mode != MODE_SYNC)
    hold += hold_async;
  sh.hold = hold;
  sh.allowance = opt.queue + hold;
  sh.warmup = cpu_row ? hold + 2 : MAX (opt.warmup, hold + 2);
  if (preload)
    sh.warmup = MAX (sh.warmup, in->fs.n + hold + 2);   /* every pre-loaded buffer used once */
  sh.timeout_s = cpu_row ? 300 : 60;
  for (int i = 0; i < streams; i++) {
    gchar *msg = NULL;
    if (!gcvb_pipeline_set_state (st[i].p, GST_STATE_PLAYING, &msg)) {
      gcvb_result_fail (&r->m, "stream %d: %s", i, msg);
      g_free (msg);
      goto out;
    }
  }

  /* warm-up, all streams at once; then the timed frames, started together */
  for (int i = 0; i < streams; i++)
    st[i].thread = g_thread_new ("stream", stream_thread, &st[i]);
  g_mutex_lock (&sh.lock);
  while (sh.n_warm < streams)
    g_cond_wait (&sh.cond, &sh.lock);
  for (int i = 0; i < streams; i++)
    if (st[i].error != NULL && !failed) {
      gcvb_result_fail (&r->m, "stream %d warm-up: %s", i, st[i].error);
      failed = sh.abort = TRUE;
    }
  if (!failed) {
    sh.frames = timed_frames (st, streams, cpu_row);
    for (int i = 0; i < streams; i++)
      for (int e = 0; e < c->n_stages; e++)
        gcvb_stats_read (gcvb_pipeline_stage (st[i].p, e), &st[i].before[e]);
  }
  sh.go = TRUE;
  g_cond_broadcast (&sh.cond);
  g_mutex_unlock (&sh.lock);
  for (int i = 0; i < streams; i++) {
    g_thread_join (st[i].thread);
    if (st[i].error != NULL && !failed) {
      gcvb_result_fail (&r->m, "stream %d: %s", i, st[i].error);
      failed = TRUE;
    }
  }
  if (failed)
    goto out;

  /* the row */
  {
    double first_t0 = st[0].t0, last_t1 = st[0].t1, ms = 0, up = 0, down = 0, comp = 0, tot = 0;
    guint64 count = 0;
    gboolean have_stats = TRUE;
    for (int i = 0; i < streams; i++) {
      first_t0 = MIN (first_t0, st[i].t0);
      last_t1 = MAX (last_t1, st[i].t1);
      count += st[i].count;
      ms += (st[i].t1 - st[i].t0) / MAX (st[i].count, 1) / streams;
      for (int e = 0; e < c->n_stages; e++) {
        GcvbStats d;
        gcvb_stats_read (gcvb_pipeline_stage (st[i].p, e), &st[i].after[e]);
        gcvb_stats_between (&st[i].before[e], &st[i].after[e], &d);
        have_stats = have_stats && d.ok && !isnan (d.compute_ms);
        comp += d.compute_ms / streams;
        r->elem_compute[e] = (i ? r->elem_compute[e] : 0) + d.compute_ms / streams;
        up += isnan (d.upload_ms) ? 0 : d.upload_ms / streams;
        down += isnan (d.download_ms) ? 0 : d.download_ms / streams;
        tot += d.total_ms / streams;
      }
    }
    r->frames = sh.frames;
    r->m.count = count;
    r->m.fps = count / ((last_t1 - first_t0) * 1e-3);
    r->m.ms = ms;
    r->m.threads = c->cpu ? gcvb_cpu_threads (0) : 0;
    if (have_stats) {
      r->m.compute_ms = comp;
      r->m.total_ms = tot;
    } else {
      gcvb_result_note (&r->m, "stats missing");
    }
    for (int e = 0; e < c->n_stages; e++) {
      gchar *b = gcvb_prop_string (gcvb_pipeline_stage (st[0].p, e), "backend");
      g_strlcpy (r->elem_backend[e], b ? b : "?", sizeof (r->elem_backend[e]));
      g_free (b);
      if (!c->cpu && g_strcmp0 (r->elem_backend[e], "cuda") != 0)
        r->fallback = TRUE;
      if (e == 0 || strcmp (r->elem_backend[e], r->m.backend) == 0)
        g_strlcpy (r->m.backend, r->elem_backend[e], sizeof (r->m.backend));
      else
        g_strlcpy (r->m.backend, "mixed", sizeof (r->m.backend));
    }
    if (g_strcmp0 (r->m.backend, "cpu") != 0) {
      r->m.upload_ms = up;
      r->m.download_ms = down;
    }
    if (r->fallback)
      gcvb_result_note (&r->m, "cpu fallback");
    if (mode == MODE_ASYNC && !have_async_depth (r))
      gcvb_result_note (&r->m, "no async-depth property: as sync");
    if (mode == MODE_CUDA)
      gcvb_result_note (&r->m, "CUDA memory from %s's pool", r->elem_name[0]);
    if (mode == MODE_POOL)
      gcvb_result_note (&r->m, "%s", note[0] ? note : "page-locked memory from the element's pool");
    if (cpu_row && sh.frames < opt.cpu_frames)
      gcvb_result_note (&r->m, "%d frame%s a stream (the %g s budget)", sh.frames, sh.frames == 1 ? "" : "s",
          budget_s (TRUE));
    g_printerr ("  %s %10.1f fps %9.3f ms/frame/stream  kernels %.4f ms  [%s]%s%s\n", r->m.label, r->m.fps,
        r->m.ms, r->m.compute_ms, r->m.backend, r->m.note[0] ? "  " : "", r->m.note);
  }

out:
  for (int i = 0; i < built; i++) {
    if (r->m.skipped)
      gcvb_pipeline_abandon (st[i].p);  /* stopped without an EOS */
    stream_clear (&st[i]);
  }
  g_free (st);
  g_mutex_clear (&sh.lock);
  g_cond_clear (&sh.cond);
  g_array_append_val (rows, row);
}

/* ------------------------------------------------------------------------ */
/* output */

static void
fmt_pcie_limit (char *buf, size_t len, const Row * r)
{
  if (isinf (r->pcie_fps))
    g_strlcpy (buf, "none", len);
  else if (isnan (r->pcie_fps))
    g_strlcpy (buf, "n/a", len);
  else
    g_snprintf (buf, len, "%.0f", r->pcie_fps);
}

static void
print_case (int ci)
{
  const Case *c = &cases[ci];
  gboolean any = FALSE;

  for (guint i = 0; i < rows->len && !any; i++)
    any = g_array_index (rows, Row, i).ci == ci;
  if (!any)
    return;
  g_print ("\n== %s: appsrc (%s) ! %s ! fakesink ==\n", c->name, inputs[c->input].name, c->title);
  g_print ("%-5s %7s %10s %9s %8s %8s %8s %7s %9s %-7s %-9s %6s %s\n", "mode", "streams", "fps (all)",
      "ms/frame", "kernels", "upload", "download", "PCIe MB", "PCIe fps", "backend", "async", "frames", "notes");
  g_print ("------------------------------------------------------------------------------------------------------"
      "--------------------\n");
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = &g_array_index (rows, Row, i);
    GcvbCells cells;
    char mb[16], lim[16];
    if (r->ci != ci)
      continue;
    if (r->m.skipped) {
      g_print ("%-5s %7d %10s %9s %8s %8s %8s %7s %9s %-7s %-9s %6s %s%s\n", mode_names[r->mode], r->streams,
          r->m.failed ? "FAILED" : "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", r->m.failed ? "" : "skipped: ",
          r->m.note);
      continue;
    }
    gcvb_format_cells (&r->m, "%.3f", &cells);
    if (r->mode == MODE_CUDA || c->cpu)
      g_strlcpy (mb, "0", sizeof (mb));
    else
      g_snprintf (mb, sizeof (mb), "%.1f", (r->h2d_bytes + r->d2h_bytes) / 1e6);
    fmt_pcie_limit (lim, sizeof (lim), r);
    g_print ("%-5s %7d %10s %9s %8s %8s %8s %7s %9s %-7s %-9s %6d %s\n", mode_names[r->mode], r->streams, cells.fps,
        cells.ms, cells.comp, cells.up, cells.down, mb, lim, r->m.backend, r->async_depth, r->frames, r->m.note);
  }
}

/* The row of a case, mode and stream count, NULL when not measured. */
static const Row *
find_row_streams (const char *name, int mode, int streams)
{
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = &g_array_index (rows, Row, i);
    if (strcmp (cases[r->ci].name, name) == 0 && r->mode == mode && r->streams == streams && !r->m.skipped)
      return r;
  }
  return NULL;
}

/* The streams-1 row of a case and mode, NULL when not measured. */
static const Row *
find_row (const char *name, int mode)
{
  return find_row_streams (name, mode, 1);
}

typedef struct {
  const char *what;
  char target[48], value[64], verdict[16];
  double v, goal;
} Target;

static GArray *targets;         /* of Target */

static void
add_target (const char *what, const Row * r, double value, const char *unit, double goal, gboolean at_least,
    const char *goal_text)
{
  Target t;

  memset (&t, 0, sizeof (t));
  t.what = what;
  t.v = value;
  t.goal = goal;
  g_strlcpy (t.target, goal_text, sizeof (t.target));
  if (!host.cuda.available)
    g_strlcpy (t.verdict, "n/a: no GPU", sizeof (t.verdict)), t.v = NAN;
  else if (r == NULL || isnan (value))
    g_strlcpy (t.verdict, "not run", sizeof (t.verdict)), t.v = NAN;
  else if (isnan (goal))
    g_strlcpy (t.verdict, "no stats", sizeof (t.verdict));
  else if (r->fallback)
    g_strlcpy (t.verdict, "fallback", sizeof (t.verdict));
  else
    g_strlcpy (t.verdict, (at_least ? value >= goal : value <= goal) ? "met" : "MISSED", sizeof (t.verdict));
  if (!isnan (t.v))
    g_snprintf (t.value, sizeof (t.value), "%.1f %s (%s, %d stream%s)", value, unit, mode_names[r->mode],
        r->streams, r->streams == 1 ? "" : "s");
  else
    g_strlcpy (t.value, "-", sizeof (t.value));
  g_array_append_val (targets, t);
}

static void
targets_table (void)
{
  const Row *sync = find_row ("canny", MODE_SYNC), *async = find_row ("canny", MODE_ASYNC);
  const Row *best = sync && (!async || sync->m.fps >= async->m.fps) ? sync : async;
  const Row *cuda = find_row ("canny", MODE_CUDA), *sc = find_row ("scale-canny", MODE_CUDA);
  const Row *chain = find_row ("chain", MODE_CUDA), *chain_sync = find_row ("chain", MODE_SYNC);
  /* the kernels' sum from the sync row: with frames in flight a frame's
   * compute time includes its wait behind the previous frame's kernels */
  double kernels = chain_sync ? chain_sync->m.compute_ms : NAN;
  char goal[64];

  targets = g_array_new (FALSE, FALSE, sizeof (Target));
  add_target ("cudacanny 1080p GRAY8, system memory (best of sync / async)", best, best ? best->m.fps : NAN, "fps",
      5000, TRUE, ">= 5000 fps");
  add_target ("cudacanny 1080p GRAY8, CUDA memory", cuda, cuda ? cuda->m.fps : NAN, "fps", 8000, TRUE, ">= 8000 fps");
  {
    /* the element's page-locked pool, 8 streams: near the PCIe limit */
    const Row *pool8 = find_row_streams ("canny", MODE_POOL, 8);
    double frac = pool8 && isfinite (pool8->pcie_fps) && pool8->pcie_fps > 0 ? pool8->m.fps / pool8->pcie_fps : NAN;
    add_target ("cudacanny 1080p GRAY8, the element's pool, 8 streams", pool8, 100 * frac, "% of PCIe", 85,
        TRUE, ">= 85% of the PCIe limit");
  }
  add_target ("cudabsplinescale 1080p->4K ! cudacanny, CUDA memory", sc, sc ? sc->m.fps : NAN, "fps", 2500, TRUE,
      ">= 2500 fps");
  if (!isnan (kernels))
    g_snprintf (goal, sizeof (goal), "<= 1.3 x kernels (sync row: %.3f ms)", 1.3 * kernels);
  else
    g_strlcpy (goal, "<= 1.3 x kernels (needs the sync row)", sizeof (goal));
  add_target ("chain conv3d ! bspline ! canny ! motionest, CUDA memory", chain, chain ? chain->m.ms : NAN,
      "ms/frame", 1.3 * kernels, FALSE, goal);

  g_print ("\n== Targets (GPU only) ==\n");
  g_print ("%-62s %-28s %-36s %s\n", "pipeline", "target", "measured", "verdict");
  g_print ("------------------------------------------------------------------------------------------------------"
      "--------------------\n");
  for (guint i = 0; i < targets->len; i++) {
    const Target *t = &g_array_index (targets, Target, i);
    g_print ("%-62s %-28s %-36s %s\n", t->what, t->target, t->value, t->verdict);
  }
}

/* GStreamer's cudaupload in front of cudacanny against cudacanny uploading
 * the same NV12 frames itself (README: let the first cuda* element upload). */
static void
upload_table (void)
{
  gboolean header = FALSE;

  for (int mode = MODE_SYNC; mode <= MODE_ASYNC; mode++) {
    const Row *own = find_row ("canny-nv12", mode), *up = find_row ("upload-canny", mode);
    char a[48] = "-", b[48] = "-", d[64] = "-";
    if (own == NULL && up == NULL)
      continue;
    if (!header) {
      g_print ("\n== cudaupload ! cudacanny against cudacanny alone (NV12 1920x1080 in, 1 stream) ==\n");
      g_print ("%-6s %-26s %-30s %s\n", "mode", "cudacanny alone", "cudaupload ! cudacanny", "cudaupload's cost");
      header = TRUE;
    }
    if (own != NULL)
      g_snprintf (a, sizeof (a), "%.1f fps, %.3f ms", own->m.fps, own->m.ms);
    if (up != NULL)
      g_snprintf (b, sizeof (b), "%.1f fps, %.3f ms", up->m.fps, up->m.ms);
    if (own != NULL && up != NULL)
      g_snprintf (d, sizeof (d), "%+.3f ms a frame (%.2fx the time)", up->m.ms - own->m.ms, up->m.ms / own->m.ms);
    g_print ("%-6s %-26s %-30s %s\n", mode_names[mode], a, b, d);
  }
}

static GString *
results_json (void)
{
  GString *s = gcvb_json_begin (&host, "pipeline", TRUE, "command_line", command_line);
  GPtrArray *streams = gcvb_split_list (opt_streams, opt.quick ? "1,4" : "1,4,8,16");

  g_string_append_printf (s, "  \"config\": {\"warmup\": %d, \"frames\": %d, \"cpu_frames\": %d, \"budget_s\": %g, "
      "\"cpu_budget_s\": %g, \"variants\": %d, \"queue\": %d, \"device\": %d, \"quick\": %s, \"streams\": [",
      opt.warmup, opt.frames, opt.cpu_frames, budget_s (FALSE), budget_s (TRUE), opt.variants, opt.queue,
      opt.device, opt.quick ? "true" : "false");
  for (guint i = 0; i < streams->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) g_ptr_array_index (streams, i));
  g_string_append (s, "], \"stats\": \"differenced: read before the timed frames and after the EOS\"},\n");
  g_ptr_array_unref (streams);
  g_string_append (s, "  \"pcie\": {\"bytes\": 33554432, \"h2d_pinned_gbps\": ");
  gcvb_json_num (s, pcie_h2d);
  g_string_append (s, ", \"d2h_pinned_gbps\": ");
  gcvb_json_num (s, pcie_d2h);
  g_string_append (s, ", \"note\": ");
  gcvb_json_str (s, pcie_why);
  g_string_append (s, ", \"h2d_pageable_gbps\": ");
  gcvb_json_num (s, pageable_h2d);
  g_string_append (s, ", \"d2h_pageable_gbps\": ");
  gcvb_json_num (s, pageable_d2h);
  g_string_append (s, ", \"host_memcpy_gbps_1_thread\": ");
  gcvb_json_num (s, memcpy_gbps[0]);
  g_string_append (s, ", \"host_memcpy_gbps_4_threads\": ");
  gcvb_json_num (s, memcpy_gbps[1]);
  g_string_append (s, ", \"numa\": ");
  gcvb_json_str (s, numa);
  g_string_append (s, "},\n  \"results\": [\n");
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = &g_array_index (rows, Row, i);
    const Case *c = &cases[r->ci];
    GString *extra = g_string_new (NULL);
    g_string_append (s, "    {\"pipeline\": ");
    gcvb_json_str (s, c->name);
    g_string_append (s, ", \"description\": ");
    gcvb_json_str (s, c->title);
    g_string_append (s, ", \"input\": ");
    gcvb_json_str (s, inputs[c->input].name);
    g_string_append_printf (s, ", \"mode\": \"%s\", \"streams\": %d, \"frames_per_stream\": %d, \"implementation\": ",
        mode_names[r->mode], r->streams, r->frames);
    gcvb_json_str (s, r->m.impl);
    gcvb_json_measurement (s, &r->m);
    g_string_append (extra, ", \"kernels_ms\": ");
    gcvb_json_num (extra, r->m.compute_ms);
    g_string_append (extra, ", \"pcie_h2d_bytes\": ");
    gcvb_json_num (extra, r->mode == MODE_CUDA || c->cpu ? 0 : r->h2d_bytes);
    g_string_append (extra, ", \"pcie_d2h_bytes\": ");
    gcvb_json_num (extra, r->mode == MODE_CUDA || c->cpu ? 0 : r->d2h_bytes);
    g_string_append (extra, ", \"pcie_limit_fps\": ");
    if (isinf (r->pcie_fps))
      g_string_append (extra, "\"none\"");
    else
      gcvb_json_num (extra, r->pcie_fps);
    g_string_append (extra, ", \"async_depth\": ");
    gcvb_json_str (extra, r->async_depth);
    g_string_append_printf (extra, ", \"cpu_fallback\": %s, \"elements\": [", r->fallback ? "true" : "false");
    for (int e = 0; e < r->n_elems; e++) {
      g_string_append_printf (extra, "%s{\"factory\": ", e ? ", " : "");
      gcvb_json_str (extra, r->elem_name[e]);
      g_string_append (extra, ", \"compute_ms\": ");
      gcvb_json_num (extra, r->elem_compute[e]);
      g_string_append (extra, ", \"backend\": ");
      gcvb_json_str (extra, r->elem_backend[e]);
      g_string_append (extra, "}");
    }
    g_string_append (extra, "]");
    gcvb_json_row_end (s, &r->m, "mismatch", extra->str, i + 1 == rows->len);
    g_string_free (extra, TRUE);
  }
  g_string_append (s, "  ],\n  \"targets\": [\n");
  for (guint i = 0; i < targets->len; i++) {
    const Target *t = &g_array_index (targets, Target, i);
    g_string_append (s, "    {\"pipeline\": ");
    gcvb_json_str (s, t->what);
    g_string_append (s, ", \"target\": ");
    gcvb_json_str (s, t->target);
    g_string_append (s, ", \"value\": ");
    gcvb_json_num (s, t->v);
    g_string_append (s, ", \"goal\": ");
    gcvb_json_num (s, t->goal);
    g_string_append (s, ", \"verdict\": ");
    gcvb_json_str (s, t->verdict);
    g_string_append_printf (s, "}%s\n", i + 1 == targets->len ? "" : ",");
  }
  g_string_append (s, "  ]\n}\n");
  return s;
}

/* ------------------------------------------------------------------------ */
/* main */

static gboolean
parse_streams (const char *text, gpointer out)
{
  char *end;
  long v = strtol (text, &end, 10);

  *(int *) out = (int) v;
  return *end == '\0' && v >= 1 && v <= 64;
}

static gboolean
parse_mode (const char *text, gpointer out)
{
  return gcvb_parse_index (text, mode_names, sizeof (mode_names[0]), N_MODES, out);
}

static gboolean
parse_case (const char *text, gpointer out)
{
  return GCVB_PARSE_INDEX (text, cases, out);
}

int
main (int argc, char **argv)
{
  GArray *case_list = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *mode_list = g_array_new (FALSE, FALSE, sizeof (int));
  GArray *stream_list = g_array_new (FALSE, FALSE, sizeof (int));
  int status;

  command_line = g_strjoinv (" ", argv);
  if (!gcvb_init (&argc, &argv, "- benchmark pipelines of the cuda* elements: memory modes and parallel streams",
          entries, &opt, &quick))
    return 2;
  if (!gcvb_parse_list (opt_cases, "canny,canny-nv12,bspline,conv3d,seamcarve,motionest,vcm,dibr,scale-canny,"
          "chain,chain-cpu,upload-canny", parse_case, case_list, "unknown case", NULL)
      || !gcvb_parse_list (opt_modes, "sync,async,pool,cuda", parse_mode, mode_list, "unknown mode",
          "(sync, async, pool, cuda)")
      || !gcvb_parse_list (opt_streams, opt.quick ? "1,4" : "1,4,8,16", parse_streams, stream_list,
          "bad stream count", "(1 .. 64)"))
    return 2;
  g_snprintf (dibr_props, sizeof (dibr_props), "layout=side-by-side output=stereo-side-by-side symmetric=true "
      "z-near=%g z-far=%g focal-length=%.17g baseline=%g convergence=%g", SBS_Z_NEAR, SBS_Z_FAR,
      dibr_std_focal (inputs[IN_SBS].width / 2), DIBR_STD_BASELINE, DIBR_STD_ZC);

  rows = g_array_new (FALSE, FALSE, sizeof (Row));
  gcvb_host_init (&host, "bench-pipeline", &opt, TRUE, "cudacanny", TRUE);
  gcvb_print_host (&host, opt.device, "PCIe limits and targets");
  if (host.cuda.available && gcvb_cuda_copy_bandwidth (opt.device, (size_t) 32 << 20, 20, TRUE, &pcie_h2d, &pcie_d2h,
          pcie_why, sizeof (pcie_why)))
    g_print ("PCIe:       %.1f GB/s host -> device, %.1f GB/s device -> host (pinned 32 MiB copies, median of 20)\n",
        pcie_h2d, pcie_d2h);
  else
    g_print ("PCIe:       n/a (%s)\n", host.cuda.available ? pcie_why : host.cuda.why);
  if (host.cuda.available && gcvb_cuda_copy_bandwidth (opt.device, (size_t) 32 << 20, 10, FALSE, &pageable_h2d,
          &pageable_d2h, pageable_why, sizeof (pageable_why)))
    g_print ("            %.1f GB/s host -> device, %.1f GB/s device -> host from pageable memory (the driver's "
        "staging; host clock, median of 10)\n", pageable_h2d, pageable_d2h);
  else if (host.cuda.available)
    g_print ("            pageable: n/a (%s)\n", pageable_why);
  memcpy_gbps[0] = gcvb_host_memcpy_gbps ((size_t) 32 << 20, 1, 10);
  memcpy_gbps[1] = gcvb_host_memcpy_gbps ((size_t) 32 << 20, 4, 10);
  g_print ("memcpy:     %.1f GB/s one thread, %.1f GB/s four threads (pageable 32 MiB; the elements copy pageable "
      "frames into page-locked staging with up to 4)\n", memcpy_gbps[0], memcpy_gbps[1]);
  gcvb_describe_numa (opt.device, numa, sizeof (numa));
  g_print ("NUMA:       %s\n", numa);
  if (!host.cuda.available)
    g_strlcpy (pcie_why, host.cuda.why, sizeof (pcie_why));
  g_print ("GStreamer:  %s\n", gst_version_string ());
  g_print ("Plugin:     %s\n", host.plugin_file ? host.plugin_file : "NOT FOUND (the rows will be skipped)");
  g_print ("Timing:     warm-up %d frames a stream (CPU rows: the held frames + 2), then at most %d frames a stream "
      "or %.2f s (CPU rows: %d frames or %.1f s); %d frames in flight beyond those held%s\n", opt.warmup, opt.frames,
      budget_s (FALSE), opt.cpu_frames, budget_s (TRUE), opt.queue, opt.quick ? "  [--quick: rough numbers]" : "");
  n_gray = gcvb_load_photos (&opt, "GRAY8", 1, photos_gray);
  n_rgba = gcvb_load_photos (&opt, "RGBA", 4, photos_rgba);
  if (n_gray == 0 || n_rgba == 0)
    return 1;
  gcvb_print_frames (opt.variants, "format", photos_gray, n_gray, "GRAY8 / RGBA (NV12 converted from RGBA) "
      "scaled and mirror-tiled; 2D+Z: the DIBR test scene ray-cast");

  for (guint i = 0; i < case_list->len; i++) {
    int ci = g_array_index (case_list, int, i);
    if ((cases[ci].cpu && gcvb_skipped (&opt, "cpu")) || (!cases[ci].cpu && !gcvb_gpu_enabled (&opt)))
      continue;
    g_printerr ("\n== %s ==\n", cases[ci].name);
    for (guint m = 0; m < mode_list->len; m++)
      for (guint k = 0; k < stream_list->len; k++)
        run_row (ci, g_array_index (mode_list, int, m), g_array_index (stream_list, int, k));
  }

  for (guint ci = 0; ci < N_CASES; ci++)
    print_case (ci);
  g_print ("\nfps (all): frames out of all the streams' sinks / the timed section's wall time; ms/frame: per stream;\n"
      "kernels / upload / download: the elements' stats (compute-ms, upload-ms, download-ms) summed over the\n"
      "pipeline, ms a frame, differenced over the timed frames; PCIe MB: bytes that cross PCIe a frame (system\n"
      "memory: each element's input up and output down); PCIe fps: that over the pinned copy bandwidth (none: CUDA\n"
      "memory); async: each element's async-depth (- no such property); frames: timed frames a stream.\n");
  targets_table ();
  upload_table ();
  g_print ("\n");
  gcvb_print_host_footer (&host, TRUE);
  status = gcvb_finish (results_json (), &opt, "bench-pipeline.json");

  for (int i = 0; i < N_INPUTS; i++)
    if (inputs[i].made)
      gcvb_frameset_clear (&inputs[i].fs);
  gcvb_photos_clear (photos_gray, n_gray);
  gcvb_photos_clear (photos_rgba, n_rgba);
  g_array_free (targets, TRUE);
  g_array_free (rows, TRUE);
  g_array_free (case_list, TRUE);
  g_array_free (mode_list, TRUE);
  g_array_free (stream_list, TRUE);
  g_free (command_line);
  gcvb_host_clear (&host);
  gst_deinit ();
  return status;
}
