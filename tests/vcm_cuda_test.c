/* gst-cuda-video: the CUDA backend of VCM (kernels/vcm.cu) against the CPU
 * backend (cpu/vcm_cpu.c): identical point records (memcmp), and the same
 * count, frame after frame through one context of each.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure.
 * Sequences: synthetic motion from the test photos (tests/vcm_reference.h:
 * translation, fractional translation, rotation, zoom), posterised frames
 * (many equal st: ties in the window ranks and in the frame cap), random
 * texture shifted by whole pixels, the real video frames vtest-100..103.
 * Cases:
 *  - odd and tiny sizes (1x1, 3x3, 2x5, 13x7, 97x67, 641x481);
 *  - parameter sets over windows 4 / 8 / 16 / 32, points per window
 *    1 / 4 / 16 / 64, max-points caps on ties, templates 3 .. 13, searches
 *    4 .. 128, radii 0 .. 64, temporal weights 0 / 0.25 / 1 / 4, sub-pixel
 *    on and off, refinement windows 0 / 3 / 7 / 9 / 15 / 31, both interest
 *    measures (corner, the default, and the paper's edge), over several
 *    frames (the temporal history);
 *  - the parameters changing between the frames of one context (memory
 *    grows, the history survives it), set_reference in the middle of a
 *    sequence (history cleared);
 *  - tracks queued on one stream before one wait (each with its own point
 *    array and count, the weight tables changing every track, the current
 *    frame's device plane overwritten on the stream right after its track)
 *    == track by track;
 *  - bad calls (bad params, no reference, bad planes: host memory, wrong
 *    size; no point array; another device current) fail with
 *    GCV_ERROR_INVALID and leave the context working; a full device makes
 *    a track fail with GCV_ERROR_NO_MEMORY, and the next one works;
 *  - 1080p with 8192 points.
 * Then (not in quick mode) 640x480 / 2048 points and 1080p / 8192 points
 * are timed: the phases' event times of the tracks (median of 15 frames
 * after 3).  GCV_TEST_QUICK=1 (compute-sanitizer) runs the small cases,
 * every kernel and every VCM kernel size included.  The frames go to the
 * device through gcv_test_device_upload (pitched or with the host's padded
 * stride), the points and their count come back into page-locked memory.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcm_reference.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;
static int quick, n_devices;
static long n_cases, n_tracks, n_points_total, n_capped;

enum { SRC_WARP, SRC_FLAT, SRC_NOISE, SRC_VTEST, SRC_COUNT };
static const char *const src_name[SRC_COUNT] = { "warp", "flat", "noise", "vtest" };
static const char *const photo_files[4] = { "coffee.png", "astronaut.png", "camera.png", "chelsea.png" };
static uint8_t *photo[4], *vtest[4];
static int photo_w[4], photo_h[4], vtest_w[4], vtest_h[4];
static const VcmWarp *warps;
static int n_warps;

/* ---- frames ---------------------------------------------------------------------------- */

static GcvPlane
plane_new (int w, int h, size_t pad, uint32_t seed)
{
  GcvPlane pl;
  uint32_t st = seed | 1;
  pl.width = w;
  pl.height = h;
  pl.stride = (size_t) w + pad;
  pl.data = gcv_test_malloc (pl.stride * h + 1);
  for (size_t i = 0; i < pl.stride * h; i++)
    ((uint8_t *) pl.data)[i] = (uint8_t) gcv_test_rand (&st);
  return pl;
}

/* Frame k of a sequence (src, variant), w x h, rows w + pad apart with
 * garbage in the padding. */
static GcvPlane
frame (int src, int variant, int w, int h, int k, size_t pad)
{
  GcvPlane pl = plane_new (w, h, pad, (uint32_t) (k * 7919 + variant * 131 + w + 3));
  uint8_t *d = (uint8_t *) pl.data;
  const int ph = variant % 4;
  if (src == SRC_WARP || src == SRC_FLAT) {
    vcm_test_render (photo[ph], photo_w[ph], photo_h[ph], (size_t) photo_w[ph], &warps[variant % n_warps], k, d, w,
        h, pl.stride);
    if (src == SRC_FLAT)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          d[(size_t) y * pl.stride + x] &= 0xc0;
  } else if (src == SRC_NOISE) {
    /* a random texture (a hash of the source position) moving by (sx, sy)
     * whole pixels a frame, a little noise on top */
    const int sx = variant % 5 - 2, sy = variant % 3 - 1;
    uint32_t ns = (uint32_t) (k * 17 + 5);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        uint32_t X = (uint32_t) (x - sx * k + 1000), Y = (uint32_t) (y - sy * k + 1000);
        uint32_t v = (X * 73856093u) ^ (Y * 19349663u) ^ (uint32_t) variant * 83492791u;
        v ^= v >> 13;
        v *= 0x5bd1e995u;
        v ^= v >> 15;
        int q = (int) ((v >> 8) & 255) + (int) (gcv_test_rand (&ns) % 5) - 2;
        d[(size_t) y * pl.stride + x] = (uint8_t) (q < 0 ? 0 : q > 255 ? 255 : q);
      }
  } else {
    /* vtest-100 + (k % 4): the real frames, cropped (tiled when larger) */
    const int f = k % 4, ox = 13 * variant, oy = 7 * variant;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        d[(size_t) y * pl.stride + x] =
            vtest[f][(size_t) ((y + oy) % vtest_h[f]) * vtest_w[f] + (x + ox) % vtest_w[f]];
  }
  return pl;
}

/* A device copy of a host frame (gcv_test_device_upload, device 0, the
 * test's stream): pitched, or with the host's padded stride.  0 on
 * success; free dev->data with gcv_cuda_free. */
static int
frame_upload (const GcvPlane * host, int pitched, GcvPlane * dev, const char *what)
{
  return gcv_test_device_upload (host, (size_t) host->width, pitched, stream, dev, what);
}

/* ---- params ---------------------------------------------------------------------------- */

static GcvVcmParams
params (int ws, int ppw, int maxp, int thr, int t, int s, double rc, double sig, double tw, double ts, int sub)
{
  GcvVcmParams p;
  gcv_vcm_params_init (&p);
  p.window_size = ws;
  p.points_per_window = ppw;
  p.max_points = maxp;
  p.st_threshold = thr;
  p.template_size = t;
  p.search_size = s;
  p.coherence_radius = rc;
  p.coherence_sigma = sig;
  p.temporal_weight = tw;
  p.temporal_sigma = ts;
  p.subpixel = sub;
  return p;
}

static const char *
params_string (const GcvVcmParams * p, char *buf, size_t len)
{
  snprintf (buf, len, "ws %d ppw %d max %d thr %d t %d s %d rc %g sig %g tw %g ts %g%s refine %d %s", p->window_size,
      p->points_per_window, p->max_points, p->st_threshold, p->template_size, p->search_size, p->coherence_radius,
      p->coherence_sigma, p->temporal_weight, p->temporal_sigma, p->subpixel ? " sub" : "", p->refine_size,
      p->interest == GCV_VCM_INTEREST_EDGE ? "edge" : "corner");
  return buf;
}

static void
points_garbage (GcvVcmPoint * v, size_t n, uint32_t seed)
{
  uint32_t st = seed | 1;
  uint32_t *w = (uint32_t *) v;
  for (size_t i = 0; i < n * 5; i++)
    w[i] = gcv_test_rand (&st);
}

static void
compare (const char *what, int k, const GcvVcmPoint * a, int na, const GcvVcmPoint * b, int nb)
{
  int nd = 0, first = -1;
  GCV_TEST_CHECK (na == nb, "%s, frame %d: %d points (CUDA) vs %d (CPU)", what, k, na, nb);
  for (int i = 0; i < na && i < nb; i++)
    if (memcmp (&a[i], &b[i], sizeof (a[i])) != 0 && nd++ == 0)
      first = i;
  GCV_TEST_CHECK (nd == 0, "%s, frame %d: %d of %d points differ, first %d: CUDA (%g,%g) d (%.9g,%.9g) s %.9g, "
      "CPU (%g,%g) d (%.9g,%.9g) s %.9g", what, k, nd, na, first, first >= 0 ? a[first].x : 0,
      first >= 0 ? a[first].y : 0, first >= 0 ? a[first].dx : 0, first >= 0 ? a[first].dy : 0,
      first >= 0 ? a[first].score : 0, first >= 0 ? b[first].x : 0, first >= 0 ? b[first].y : 0,
      first >= 0 ? b[first].dx : 0, first >= 0 ? b[first].dy : 0, first >= 0 ? b[first].score : 0);
}

/* ---- sequences ------------------------------------------------------------------------- */

/* A sequence of `frames` frames through one CUDA and one CPU context;
 * frame k >= 1 is tracked with ps[(k - 1) % nps]; at frame `reset` (> 0)
 * both take the frame as a new reference instead (history cleared). */
static void
run_seq_ref (int src, int variant, int w, int h, int frames, const GcvVcmParams * ps, int nps, int reset,
    int with_ref)
{
  char what[512], pstr[200];
  GcvError err = { GCV_OK, "" };
  GcvVcmCuda *cu;
  GcvVcmCpu *cpu;
  int maxp = 0;

  for (int i = 0; i < nps; i++)
    maxp = ps[i].max_points > maxp ? ps[i].max_points : maxp;
  snprintf (what, sizeof (what), "%dx%d %s %d, %d frames, %s%s%s", w, h, src_name[src], variant, frames,
      params_string (&ps[0], pstr, sizeof (pstr)), nps > 1 ? " + changes" : "", reset > 0 ? " + reset" : "");
  n_cases++;
  GcvVcmPoint *pg = gcv_test_pinned_malloc ((size_t) maxp * sizeof (*pg));
  GcvVcmPoint *pc = gcv_test_malloc ((size_t) maxp * sizeof (*pc));
  GcvVcmPoint *pr = gcv_test_malloc ((size_t) maxp * sizeof (*pr));
  int *ng = gcv_test_pinned_malloc (sizeof (int));
  VcmRefHistory hist;
  GcvPlane prev = { 0 }, dev = { 0 };
  memset (&hist, 0, sizeof (hist));
  cu = gcv_vcm_cuda_new (w, h, &err);
  GCV_TEST_CHECK (cu != NULL, "%s: cuda_new: %s", what, err.message);
  cpu = gcv_vcm_cpu_new (w, h, &err);
  GCV_TEST_CHECK (cpu != NULL, "%s: cpu_new: %s", what, err.message);
  if (cu && cpu) {
    GcvPlane f = frame (src, variant, w, h, 0, (size_t) (w % 7));
    int ok = frame_upload (&f, 1, &dev, what) == 0 && gcv_vcm_cuda_set_reference (cu, &dev, stream, &err) == GCV_OK
        && gcv_vcm_cpu_set_reference (cpu, &f, &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "%s: set_reference: %s", what, err.message);
    prev = f;
    for (int k = 1; k < frames && ok; k++) {
      const GcvVcmParams *p = &ps[(k - 1) % nps];
      int nc = -2;
      f = frame (src, variant, w, h, k, (size_t) ((w + k) % 5));
      gcv_cuda_free (dev.data);
      dev.data = NULL;
      ok = frame_upload (&f, k % 2, &dev, what) == 0;
      if (ok && k == reset) {
        ok = gcv_vcm_cuda_set_reference (cu, &dev, stream, &err) == GCV_OK
            && gcv_vcm_cpu_set_reference (cpu, &f, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "%s: set_reference at %d: %s", what, k, err.message);
        free (prev.data);
        prev = f;
        vcm_ref_history_clear (&hist);
        continue;
      }
      points_garbage (pg, (size_t) maxp, (uint32_t) k);
      points_garbage (pc, (size_t) maxp, (uint32_t) k + 99);
      *ng = -1;
      /* the device plane is overwritten on the stream right after the
       * track: its copy must have been taken before */
      ok = ok && gcv_vcm_cuda_track (cu, p, &dev, pg, ng, stream, &err) == GCV_OK
          && gcv_cuda_memset_2d (dev.data, dev.stride, 0x5a, (size_t) w, (size_t) h, stream, &err) == GCV_OK
          && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
      GCV_TEST_CHECK (ok, "%s, frame %d: CUDA: %s", what, k, err.message);
      if (ok) {
        ok = gcv_vcm_cpu_process (cpu, p, &f, pc, &nc, 0, NULL, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "%s, frame %d: CPU: %s", what, k, err.message);
      }
      if (ok) {
        char w2[600];
        snprintf (w2, sizeof (w2), "%s [%s]", what, params_string (p, pstr, sizeof (pstr)));
        compare (w2, k, pg, *ng, pc, nc);
        if (with_ref) {
          int nr = vcm_reference_track (p, &prev, &f, &hist, pr);
          char w3[640];
          snprintf (w3, sizeof (w3), "%s vs the naive reference (as CPU)", w2);
          compare (w3, k, pg, *ng, pr, nr);
        }
        n_tracks++;
        n_points_total += *ng;
        n_capped += *ng == p->max_points;
        GCV_TEST_CHECK (*ng <= p->max_points, "%s: %d points > max %d", what, *ng, p->max_points);
      }
      free (prev.data);
      prev = f;
    }
  }
  free (prev.data);
  gcv_cuda_free (dev.data);
  vcm_ref_history_clear (&hist);
  gcv_vcm_cuda_free (cu);
  gcv_vcm_cpu_free (cpu);
  gcv_cuda_host_free (pg);
  gcv_cuda_host_free (ng);
  free (pc);
  free (pr);
}

static void
run_seq (int src, int variant, int w, int h, int frames, const GcvVcmParams * ps, int nps, int reset)
{
  run_seq_ref (src, variant, w, h, frames, ps, nps, reset, 0);
}

static void
test_matrix (void)
{
  static const int sizes[][2] = { {1, 1}, {3, 3}, {2, 5}, {13, 7}, {97, 67}, {160, 120}, {641, 481} };
  GcvVcmParams set[10];
  int ns = 0;
  /*                 ws ppw  max thr  t    s    rc   sig  tw    ts  sub */
  set[ns++] = params (16, 2, 2048, 8, 5, 64, 24, 12, 0.25, 4, 1);       /* defaults */
  set[ns++] = params (4, 1, 5000, 0, 3, 4, 0, 12, 0, 4, 0);
  set[ns++] = params (8, 16, 400, 4, 7, 32, 40, 3, 0.25, 0.5, 1);
  set[ns++] = params (32, 64, 300, 2, 13, 128, 64, 30, 4, 20, 1);
  set[ns++] = params (16, 4, 37, 0, 5, 16, 12, 8, 1, 2, 1);            /* the cap, ties */
  set[ns++] = params (5, 25, 1000, 1, 9, 44, 9.5, 2, 16, 0.1, 0);
  set[ns++] = params (12, 3, 1, 0, 3, 24, 5, 1000, 0.25, 1000, 1);
  set[ns++] = params (7, 49, quick ? 4000 : 65536, 254, 5, 10, 3, 1, 1, 1, 1);  /* threshold 254: few points */
  set[ns++] = params (16, 2, 2048, 8, 5, 64, 24, 12, 0.25, 4, 1);       /* defaults, interest=edge */
  /* the gradient refinement: the default 15 and 0 / 3 / 31 */
  set[2].refine_size = 3;
  set[3].refine_size = 31;
  set[4].refine_size = 0;
  set[6].refine_size = 9;
  /* the paper's interest measure (the others: the default corner one) */
  set[1].interest = GCV_VCM_INTEREST_EDGE;
  set[5].interest = GCV_VCM_INTEREST_EDGE;
  set[6].interest = GCV_VCM_INTEREST_EDGE;
  set[8].interest = GCV_VCM_INTEREST_EDGE;
  const int sizes_n = (int) (sizeof (sizes) / sizeof (sizes[0]));
  int n = 0;
  for (int s = 0; s < sizes_n; s++)
    for (int i = 0; i < ns; i++, n++) {
      const int w = sizes[s][0], h = sizes[s][1], src = n % SRC_COUNT;
      if (quick && (w * h > 160 * 120 || (i == 3 && w * h > 97 * 67)))
        continue;
      if (w * h >= 641 * 481 && (i == 3 || i == 5))
        continue;               /* the CPU takes long for these at this size */
      run_seq (src, n, w, h, quick ? 3 : 6, &set[i], 1, 0);
    }
  /* every source with the defaults and the cap */
  for (int src = 0; src < SRC_COUNT; src++) {
    run_seq (src, src + 3, quick ? 120 : 320, quick ? 90 : 240, quick ? 3 : 5, &set[0], 1, 0);
    run_seq (src, src + 7, quick ? 120 : 320, quick ? 90 : 240, 3, &set[4], 1, 0);
  }
  /* the paper's case: 640x480, 2048 points, several frames of every warp */
  if (!quick)
    for (int wi = 0; wi < n_warps; wi++)
      run_seq (SRC_WARP, wi, 640, 480, 5, &set[0], 1, 0);
}

/* The parameters changing between the frames of one context: window size
 * (the history holds positions), memory growth (max points, map size) with
 * the history kept, the search shrinking under a history of larger
 * vectors, radius and temporal weight; and set_reference in the middle. */
static void
test_changes (void)
{
  GcvVcmParams ps[5];
  ps[0] = params (16, 2, 100, 8, 5, 8, 24, 12, 0.25, 4, 1);
  ps[1] = params (8, 4, 900, 4, 5, 64, 16, 6, 1, 2, 1);
  ps[2] = params (32, 8, 300, 8, 7, 16, 40, 20, 4, 8, 0);
  ps[3] = params (4, 2, 3000, 2, 3, 100, 0, 12, 0.25, 4, 1);
  ps[4] = params (16, 2, 2048, 8, 5, 64, 24, 12, 0, 4, 1);
  ps[1].refine_size = 0;
  ps[2].refine_size = 31;
  ps[3].refine_size = 5;
  ps[1].interest = GCV_VCM_INTEREST_EDGE;       /* the measure changes too */
  ps[3].interest = GCV_VCM_INTEREST_EDGE;
  run_seq (SRC_WARP, 2, quick ? 96 : 256, quick ? 80 : 192, quick ? 7 : 11, ps, 5, 0);
  /* small: the naive reference too (it decides when CUDA and CPU differ) */
  run_seq_ref (SRC_WARP, 5, 64, 48, quick ? 4 : 7, ps, 5, 0, 1);
  run_seq_ref (SRC_NOISE, 6, 48, 40, quick ? 4 : 6, &ps[1], 3, 0, 1);
  {
    /* the frame cap on many equal st (posterised frames), against the
     * reference too */
    GcvVcmParams cap[3];
    cap[0] = params (8, 4, 23, 0, 3, 8, 10, 5, 1, 2, 1);
    cap[1] = params (4, 3, 50, 2, 5, 12, 6, 3, 0.25, 4, 0);
    cap[2] = params (16, 64, 7, 0, 3, 16, 64, 40, 4, 3, 1);
    cap[1].refine_size = 7;
    cap[2].interest = GCV_VCM_INTEREST_EDGE;
    run_seq_ref (SRC_FLAT, 3, 72, 56, quick ? 4 : 7, cap, 3, 0, 1);
    run_seq_ref (SRC_FLAT, 9, 72, 56, quick ? 4 : 7, &cap[1], 2, 3, 1);
  }
  run_seq (SRC_NOISE, 4, quick ? 96 : 256, quick ? 80 : 192, quick ? 7 : 11, ps, 5, 4);
  run_seq (SRC_VTEST, 1, quick ? 96 : 300, quick ? 80 : 200, quick ? 6 : 9, &ps[1], 2, 3);
}

/* Tracks queued on one stream before one wait, each with its own point
 * array and count, the weight tables changing every track (temporal
 * weight and sigmas alternate), each current frame copied on the stream
 * into one scratch device plane that is overwritten on the stream right
 * after its track: == a CPU context track by track (the history carried
 * over from queued track to queued track). */
static void
test_queued (int src, int variant, int w, int h)
{
  enum { FRAMES = 6 };
  GcvVcmParams ps[2];
  GcvPlane f[FRAMES], scratch = { 0 }, ref = { 0 };
  GcvVcmPoint *pg[FRAMES], *pc;
  int *ng = gcv_test_pinned_malloc (FRAMES * sizeof (int)), nc = 0;
  GcvError err = { GCV_OK, "" };
  GcvVcmCuda *cu;
  GcvVcmCpu *cpu;
  char what[160];
  int ok;

  /*                  ws ppw  max thr t   s   rc  sig  tw   ts  sub */
  ps[0] = params (8, 4, 700, 4, 5, 24, 16, 6, 0.25, 4, 1);
  ps[1] = params (8, 4, 700, 4, 5, 24, 16, 9, 1, 2, 1);
  ps[1].refine_size = 7;
  snprintf (what, sizeof (what), "%dx%d %s %d, %d tracks queued", w, h, src_name[src], variant, FRAMES - 1);
  n_cases++;
  for (int k = 0; k < FRAMES; k++) {
    f[k] = frame (src, variant, w, h, k, (size_t) (k % 3));
    pg[k] = gcv_test_pinned_malloc ((size_t) ps[0].max_points * sizeof (GcvVcmPoint));
    points_garbage (pg[k], (size_t) ps[0].max_points, (uint32_t) (k + 11));
    ng[k] = -1;
  }
  pc = gcv_test_malloc ((size_t) ps[0].max_points * sizeof (*pc));
  cu = gcv_vcm_cuda_new (w, h, &err);
  cpu = gcv_vcm_cpu_new (w, h, &err);
  ok = cu && cpu && frame_upload (&f[0], 0, &ref, what) == 0
      && gcv_test_device_alloc (w, h, (size_t) w, 1, 0, &scratch, what) == 0;
  GCV_TEST_CHECK (ok, "%s: new: %s", what, err.message);
  ok = ok && gcv_vcm_cuda_set_reference (cu, &ref, stream, &err) == GCV_OK;
  for (int k = 1; k < FRAMES && ok; k++)
    ok = gcv_cuda_upload_2d (scratch.data, scratch.stride, f[k].data, f[k].stride, (size_t) w, (size_t) h, stream,
        &err) == GCV_OK && gcv_vcm_cuda_track (cu, &ps[k % 2], &scratch, pg[k], &ng[k], stream, &err) == GCV_OK
        && gcv_cuda_memset_2d (scratch.data, scratch.stride, 0xa5 - k, (size_t) w, (size_t) h, stream, &err) == GCV_OK;
  ok = ok && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
  GCV_TEST_CHECK (ok, "%s: CUDA: %s", what, err.message);
  ok = ok && gcv_vcm_cpu_set_reference (cpu, &f[0], &err) == GCV_OK;
  for (int k = 1; k < FRAMES && ok; k++) {
    ok = gcv_vcm_cpu_process (cpu, &ps[k % 2], &f[k], pc, &nc, 0, NULL, &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "%s, frame %d: CPU: %s", what, k, err.message);
    if (ok) {
      compare (what, k, pg[k], ng[k], pc, nc);
      n_tracks++;
      n_points_total += ng[k];
    }
  }
  gcv_vcm_cuda_free (cu);
  gcv_vcm_cpu_free (cpu);
  gcv_cuda_free (ref.data);
  gcv_cuda_free (scratch.data);
  for (int k = 0; k < FRAMES; k++) {
    free (f[k].data);
    gcv_cuda_host_free (pg[k]);
  }
  gcv_cuda_host_free (ng);
  free (pc);
}

static void
test_errors (void)
{
  const int w = 97, h = 61;
  GcvVcmParams p = params (16, 2, 2048, 8, 5, 64, 24, 12, 0.25, 4, 1), bad;
  GcvPlane a = frame (SRC_WARP, 1, w, h, 0, 3), b = frame (SRC_WARP, 1, w, h, 1, 3);
  GcvPlane small = plane_new (w - 1, h, 0, 3), da = { 0 }, db = { 0 }, dsmall = { 0 };
  GcvVcmPoint *pg = gcv_test_pinned_malloc (65536 * sizeof (*pg)), *pc = gcv_test_malloc (65536 * sizeof (*pc));
  int *ng = gcv_test_pinned_malloc (sizeof (int)), nc = -1;
  GcvError err = { GCV_OK, "" };
  GcvVcmCuda *cu;
  GcvVcmCpu *cpu = NULL;
  GcvVcmTimes tm;
  GcvStatus s;

  n_cases++;
  GCV_TEST_CHECK (gcv_vcm_cuda_new (0, 10, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "new with width 0 did not fail with INVALID");
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_vcm_cuda_new (10, 40000, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "new with height 40000 did not fail with INVALID");
  cu = gcv_vcm_cuda_new (w, h, &err);
  GCV_TEST_CHECK (cu != NULL, "errors: new: %s", err.message);
  cpu = gcv_vcm_cpu_new (w, h, &err);
  GCV_TEST_CHECK (cpu != NULL, "errors: cpu_new: %s", err.message);
  if (cu && cpu && frame_upload (&a, 0, &da, "a") == 0 && frame_upload (&b, 1, &db, "b") == 0
      && frame_upload (&small, 1, &dsmall, "small") == 0) {
    memset (&err, 0, sizeof (err));
    s = gcv_vcm_cuda_track (cu, &p, &db, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "track without reference: %d", s);
    memset (&tm, 0xff, sizeof (tm));
    s = gcv_vcm_cuda_times (cu, &tm, &err);
    GCV_TEST_CHECK (s == GCV_OK && tm.points_ms == 0 && tm.ncm_ms == 0 && tm.vcm_ms == 0,
        "times before any track: %s (%g, %g, %g ms)", err.message, tm.points_ms, tm.ncm_ms, tm.vcm_ms);
    s = gcv_vcm_cuda_set_reference (cu, &dsmall, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set_reference of a %dx%d plane: %d", small.width, h, s);
    s = gcv_vcm_cuda_set_reference (cu, &a, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && strstr (err.message, "device memory"),
        "set_reference of a host plane: %d (%s)", s, err.message);
    s = gcv_vcm_cuda_set_reference (cu, NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set_reference of NULL: %d", s);
    if (n_devices >= 2) {
      /* the context belongs to device 0: another current device is refused */
      memset (&err, 0, sizeof (err));
      s = gcv_cuda_set_device (1, &err) == GCV_OK ? gcv_vcm_cuda_set_reference (cu, &da, stream, &err) : GCV_OK;
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID && strstr (err.message, "device"),
          "set_reference with device 1 current: %d (%s)", s, err.message);
      gcv_cuda_set_device (0, &err);
    }
    s = gcv_vcm_cuda_set_reference (cu, &da, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "set_reference: %s", err.message);
    {
      struct { const char *name; GcvVcmParams p; } bads[24];
      int nb = 0;
      bad = p; bad.window_size = 3; bads[nb].name = "window 3"; bads[nb++].p = bad;
      bad = p; bad.window_size = 33; bads[nb].name = "window 33"; bads[nb++].p = bad;
      bad = p; bad.points_per_window = 0; bads[nb].name = "ppw 0"; bads[nb++].p = bad;
      bad = p; bad.points_per_window = 65; bads[nb].name = "ppw 65"; bads[nb++].p = bad;
      bad = p; bad.max_points = 0; bads[nb].name = "max 0"; bads[nb++].p = bad;
      bad = p; bad.template_size = 4; bads[nb].name = "template 4"; bads[nb++].p = bad;
      bad = p; bad.search_size = 65; bads[nb].name = "search 65"; bads[nb++].p = bad;
      bad = p; bad.search_size = 130; bads[nb].name = "search 130"; bads[nb++].p = bad;
      bad = p; bad.template_size = 7; bad.search_size = 6; bads[nb].name = "template > search"; bads[nb++].p = bad;
      bad = p; bad.coherence_radius = 64.5; bads[nb].name = "radius 64.5"; bads[nb++].p = bad;
      bad = p; bad.temporal_weight = -1; bads[nb].name = "temporal -1"; bads[nb++].p = bad;
      bad = p; bad.st_threshold = 255; bads[nb].name = "threshold 255"; bads[nb++].p = bad;
      bad = p; bad.refine_size = 4; bads[nb].name = "refine 4"; bads[nb++].p = bad;
      bad = p; bad.refine_size = 1; bads[nb].name = "refine 1"; bads[nb++].p = bad;
      bad = p; bad.refine_size = 33; bads[nb].name = "refine 33"; bads[nb++].p = bad;
      bad = p; bad.refine_size = -1; bads[nb].name = "refine -1"; bads[nb++].p = bad;
      bad = p; bad.interest = 2; bads[nb].name = "interest 2"; bads[nb++].p = bad;
      for (int i = 0; i < nb; i++) {
        memset (&err, 0, sizeof (err));
        s = gcv_vcm_cuda_track (cu, &bads[i].p, &db, pg, ng, stream, &err);
        GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "track with %s: %d", bads[i].name, s);
      }
      s = gcv_vcm_cuda_track (cu, NULL, &db, pg, ng, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track without params: %d", s);
    }
    s = gcv_vcm_cuda_track (cu, &p, NULL, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track of NULL: %d", s);
    s = gcv_vcm_cuda_track (cu, &p, &b, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track of a host plane: %d", s);
    s = gcv_vcm_cuda_track (cu, &p, &dsmall, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track of a %dx%d plane: %d", small.width, h, s);
    s = gcv_vcm_cuda_track (cu, &p, &db, NULL, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track without a point array: %d", s);
    s = gcv_vcm_cuda_track (cu, &p, &db, pg, NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track without a count: %d", s);
    /* the context still works: the pair a, b */
    points_garbage (pg, 2048, 5);
    s = gcv_vcm_cuda_track (cu, &p, &db, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "track after the bad calls: %s", err.message);
    s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
    GCV_TEST_CHECK (s == GCV_OK, "wait after the bad calls: %s", err.message);
    s = s == GCV_OK ? gcv_vcm_cuda_times (cu, &tm, &err) : s;
    GCV_TEST_CHECK (s == GCV_OK && tm.points_ms >= 0 && tm.ncm_ms >= 0 && tm.vcm_ms >= 0
        && tm.points_ms + tm.ncm_ms + tm.vcm_ms > 0,
        "times after a track: %s (%g, %g, %g ms)", err.message, tm.points_ms, tm.ncm_ms, tm.vcm_ms);
    if (gcv_vcm_cpu_set_reference (cpu, &a, &err) == GCV_OK
        && gcv_vcm_cpu_process (cpu, &p, &b, pc, &nc, 0, NULL, &err) == GCV_OK)
      compare ("after the bad calls", 1, pg, *ng, pc, nc);
    else
      gcv_test_fail ("errors: CPU: %s", err.message);
    /* b is P now, with its history; a refused track changes nothing: the
     * pair b, a on both */
    s = gcv_vcm_cuda_track (cu, &bad, &da, pg, ng, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "track with refine -1: %d", s);
    s = gcv_vcm_cuda_track (cu, &p, &da, pg, ng, stream, &err);
    s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
    GCV_TEST_CHECK (s == GCV_OK, "track of the pair b, a: %s", err.message);
    if (s == GCV_OK && gcv_vcm_cpu_process (cpu, &p, &a, pc, &nc, 0, NULL, &err) == GCV_OK)
      compare ("after a refused track", 2, pg, *ng, pc, nc);

    /* out of device memory: the maps of 65536 points of 129 x 129 (2.2 GB) */
    {
      GcvTestDeviceHog hog;
      GcvVcmParams big = params (4, 16, 65536, 0, 13, 128, 64, 12, 0.25, 4, 1);
      s = gcv_vcm_cuda_set_reference (cu, &da, stream, &err);
      s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
      GCV_TEST_CHECK (s == GCV_OK, "oom: set_reference: %s", err.message);
      gcv_test_fill_device (&hog);
      memset (&err, 0, sizeof (err));
      s = gcv_vcm_cuda_track (cu, &big, &db, pg, ng, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_NO_MEMORY && err.message[0], "track on a full device: %d (%s)", s, err.message);
      printf ("full device (%.1f GiB taken): %s\n", hog.bytes / 1073741824.0, err.message);
      gcv_test_release_device (&hog);
      s = gcv_vcm_cuda_track (cu, &p, &db, pg, ng, stream, &err);
      GCV_TEST_CHECK (s == GCV_OK, "track after the full device: %s", err.message);
      s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
      GCV_TEST_CHECK (s == GCV_OK, "wait after the full device: %s", err.message);
      if (gcv_vcm_cpu_set_reference (cpu, &a, &err) == GCV_OK
          && gcv_vcm_cpu_process (cpu, &p, &b, pc, &nc, 0, NULL, &err) == GCV_OK)
        compare ("after the full device", 1, pg, *ng, pc, nc);
      else
        gcv_test_fail ("errors: CPU: %s", err.message);
    }
  }
  gcv_vcm_cuda_free (cu);
  gcv_vcm_cpu_free (cpu);
  gcv_cuda_free (da.data);
  gcv_cuda_free (db.data);
  gcv_cuda_free (dsmall.data);
  free (a.data);
  free (b.data);
  free (small.data);
  gcv_cuda_host_free (pg);
  gcv_cuda_host_free (ng);
  free (pc);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Median phase times of tracks (15 after 3 warm-up), frames of a warp
 * rotating (uploaded once); the first 3 tracks are also compared with the
 * CPU. */
static void
time_case (int w, int h, const GcvVcmParams * p, const char *label)
{
  enum { N_FRAMES = 6, N = 15, WARM = 3 };
  GcvPlane f[N_FRAMES], d[N_FRAMES];
  GcvError err = { GCV_OK, "" };
  GcvVcmCuda *cu = gcv_vcm_cuda_new (w, h, &err);
  GcvVcmCpu *cpu = gcv_vcm_cpu_new (w, h, &err);
  GcvVcmPoint *pg = gcv_test_pinned_malloc ((size_t) p->max_points * sizeof (*pg));
  GcvVcmPoint *pc = gcv_test_malloc ((size_t) p->max_points * sizeof (*pc));
  int *ng = gcv_test_pinned_malloc (sizeof (int));
  double tp[N], tn[N], tv[N], tt[N], host[N];
  char pstr[200];
  int ok, nc = 0;

  n_cases++;
  memset (d, 0, sizeof (d));
  *ng = 0;
  ok = cu && cpu;
  for (int i = 0; i < N_FRAMES; i++) {
    f[i] = frame (SRC_WARP, 0, w, h, i, 0);
    ok = ok && frame_upload (&f[i], 1, &d[i], label) == 0;
  }
  ok = ok && gcv_vcm_cuda_set_reference (cu, &d[0], stream, &err) == GCV_OK
      && gcv_vcm_cpu_set_reference (cpu, &f[0], &err) == GCV_OK;
  for (int k = 0; k < N + WARM && ok; k++) {
    GcvVcmTimes t;
    const int c = (k + 1) % N_FRAMES;
    double t0 = gcv_test_now_s ();
    ok = gcv_vcm_cuda_track (cu, p, &d[c], pg, ng, stream, &err) == GCV_OK
        && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
    double t1 = gcv_test_now_s ();
    ok = ok && gcv_vcm_cuda_times (cu, &t, &err) == GCV_OK;
    if (ok && k < WARM) {
      ok = gcv_vcm_cpu_process (cpu, p, &f[c], pc, &nc, 0, NULL, &err) == GCV_OK;
      if (ok)
        compare (label, k + 1, pg, *ng, pc, nc);
      if (k == WARM - 1)
        gcv_vcm_cpu_free (cpu), cpu = NULL;
    }
    if (ok && k >= WARM) {
      tp[k - WARM] = t.points_ms;
      tn[k - WARM] = t.ncm_ms;
      tv[k - WARM] = t.vcm_ms;
      tt[k - WARM] = t.points_ms + t.ncm_ms + t.vcm_ms;
      host[k - WARM] = (t1 - t0) * 1e3;
    }
  }
  GCV_TEST_CHECK (ok, "timing %s: %s", label, err.message);
  if (ok) {
    qsort (tp, N, sizeof (double), cmp_double);
    qsort (tn, N, sizeof (double), cmp_double);
    qsort (tv, N, sizeof (double), cmp_double);
    qsort (tt, N, sizeof (double), cmp_double);
    qsort (host, N, sizeof (double), cmp_double);
    printf ("timing %s: %dx%d %s: %d points; median points %.3f ms, ncm %.3f ms, vcm %.3f ms, total %.3f ms "
        "(min %.3f, max %.3f); track + wait on the host %.3f ms\n", label, w, h,
        params_string (p, pstr, sizeof (pstr)), *ng, tp[N / 2], tn[N / 2], tv[N / 2], tt[N / 2], tt[0], tt[N - 1],
        host[N / 2]);
  }
  gcv_cuda_stream_sync (stream, &err);
  gcv_vcm_cuda_free (cu);
  gcv_vcm_cpu_free (cpu);
  for (int i = 0; i < N_FRAMES; i++) {
    free (f[i].data);
    gcv_cuda_free (d[i].data);
  }
  gcv_cuda_host_free (pg);
  gcv_cuda_host_free (ng);
  free (pc);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  char name[64];

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  {
    GcvError err = { GCV_OK, "" };
    n_devices = gcv_cuda_device_count (&err);
  }
  n_warps = vcm_test_standard_warps (&warps);
  for (int i = 0; i < 4; i++) {
    photo[i] = vcm_test_photo_luma (photo_files[i], &photo_w[i], &photo_h[i]);
    snprintf (name, sizeof (name), "vtest-%d.png", 100 + i);
    vtest[i] = vcm_test_photo_luma (name, &vtest_w[i], &vtest_h[i]);
  }
  printf ("test data loaded%s\n", quick ? " (quick)" : "");

  test_errors ();
  printf ("errors done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_matrix ();
  printf ("matrix done (%ld cases, %ld tracks, %ld points, %ld failures, %.1f s)\n", n_cases, n_tracks,
      n_points_total, gcv_test_failures, gcv_test_now_s () - t0);
  test_changes ();
  test_queued (SRC_WARP, 4, quick ? 96 : 200, quick ? 72 : 150);
  test_queued (SRC_NOISE, 8, 80, 64);
  printf ("changes and queued tracks done (%ld cases, %ld tracks, %ld failures, %.1f s)\n", n_cases, n_tracks,
      gcv_test_failures, gcv_test_now_s () - t0);
  if (!quick) {
    GcvVcmParams pa = params (16, 2, 2048, 8, 5, 64, 24, 12, 0.25, 4, 1);
    GcvVcmParams pb = params (16, 2, 8192, 8, 5, 64, 24, 12, 0.25, 4, 1);
    time_case (640, 480, &pa, "640x480 defaults");
    time_case (1920, 1080, &pb, "1080p defaults, max 8192");
    /* 4 points a window: the caps are reached, N = 2048 and 8192 */
    pa.points_per_window = pb.points_per_window = 4;
    time_case (640, 480, &pa, "paper 640x480 / 2048 points (target <= 2 ms)");
    time_case (1920, 1080, &pb, "1080p / 8192 points (target <= 8 ms)");
  }
  printf ("%ld cases, %ld tracks (%ld of them at max-points), %ld points compared\n", n_cases, n_tracks, n_capped,
      n_points_total);
  GCV_TEST_CHECK (n_capped > 10, "only %ld tracks reached max-points", n_capped);
  for (int i = 0; i < 4; i++) {
    free (photo[i]);
    free (vtest[i]);
  }
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
