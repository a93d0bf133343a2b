/* gst-cuda-video: the CUDA backend of motion estimation (kernels/motionest.cu)
 * against the CPU backend (cpu/motionest_cpu.c) and the independent
 * reference (tests/motionest_reference.c): identical vectors and SADs.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Every case searches the same frame pair(s) with
 * the three (the reference only where its brute force stays affordable,
 * see ref_case_budget)
 * and wants every vector record equal; the vector arrays start filled with
 * garbage, so a record nobody wrote shows.  Frames are crops of the test
 * photos with padded strides (garbage in the padding): shifted by known
 * integer or fractional offsets, unrelated pairs, and posterised pairs
 * whose flat areas make many candidates tie.  Cases:
 *  - tiny and odd sizes (1x1 .. 641x481), edge blocks (sizes that do not
 *    divide the frame), block sizes 4 .. 128 and ranges 0 .. 128, every
 *    subpel, both methods, the zero threshold;
 *  - the papers' geometries (1920x1080 96x54 +-96x54 half-pel, 720x480
 *    36x24 +-36x24 half-pel, MODS +-64 on 640x480 16x16, 1080p 16x16 +-32)
 *    and 3840x2160;
 *  - clips through one context with the parameters changing between
 *    frames; several frames queued on one stream before one wait (each
 *    with its own result array, the current frame's device plane
 *    overwritten on the stream right after its search) == frame by frame;
 *  - the element's splits: parallel (two contexts, each a band of block
 *    rows of the same pair, merged == one context) and serial (two contexts
 *    alternating frame pairs with set_reference == one context), each
 *    context with its own stream and its device made current before its
 *    calls, on one device and, with two or more, on devices 0 and 1 (the
 *    frames on device 0: the other device's context copies them across);
 *  - bad calls (search without reference, bad parameters, rows and planes:
 *    host memory, wrong size; another device current) fail with
 *    GCV_ERROR_INVALID and leave the context working; a full device makes
 *    _new fail with GCV_ERROR_NO_MEMORY.
 * The frames go to the device through gcv_test_device_upload (pitched or
 * with the host's padded stride), the vectors come back into page-locked
 * host arrays.
 * Then the two target cases are timed with CUDA events (median of 21 after
 * a warm-up, frames rotating; informative).
 * GCV_TEST_QUICK=1 (for compute-sanitizer) runs the small cases only;
 * GCV_TEST_FILTER=text only the cases whose description holds text.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motionest_reference.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;
static int quick;
static const char *filter;
static GcvTestImage photos[4];
static int n_devices;
static long n_cases;
/* the brute-force reference (some 1e8 absolute differences a second) runs
 * on the cases of at most ref_case_budget absolute differences, and only
 * until ref_total_budget were spent: the CPU backend checks every case */
static const double ref_case_budget = 4e8, ref_total_budget = 4e9;
static double ref_spent;
static long n_ref_cases;

static const char *const subpel_name[5] = { "", "int", "half", "", "quarter" };

static const char *
params_string (const GcvMotionParams * p, char *buf, size_t len)
{
  snprintf (buf, len, "%dx%d +-%dx%d %s %s zt %.2f", p->block_width, p->block_height, p->range_x, p->range_y,
      subpel_name[p->subpel], p->method == GCV_MOTION_METHOD_FULL ? "full" : "mods", p->zero_threshold);
  return buf;
}

/* Absolute differences a search computes (FULL: valid candidates x pixels;
 * MODS: at most (2 rx + 1) (2 floor (ry / 4) + 5) + 16 candidates a block). */
static double
search_work (int w, int h, const GcvMotionParams * p)
{
  if (p->method == GCV_MOTION_METHOD_MODS)
    return (double) w * h * ((2 * p->range_x + 1) * (2 * (p->range_y / 4) + 5) + 16);
  const int cols = gcv_motion_grid_cols (w, p), rows = gcv_motion_grid_rows (h, p), s = 4 / p->subpel;
  double total = 0;
  for (int by = 0; by < rows; by++)
    for (int bx = 0; bx < cols; bx++) {
      int x0, y0, bw, bh, lo, hi;
      double nx, ny;
      gcv_motion_block_rect (w, h, p, bx, by, &x0, &y0, &bw, &bh);
      lo = -4 * p->range_x > -4 * x0 ? -4 * p->range_x : -4 * x0;
      hi = 4 * p->range_x < 4 * (w - x0 - bw) ? 4 * p->range_x : 4 * (w - x0 - bw);
      nx = (hi - lo) / s + 1;
      lo = -4 * p->range_y > -4 * y0 ? -4 * p->range_y : -4 * y0;
      hi = 4 * p->range_y < 4 * (h - y0 - bh) ? 4 * p->range_y : 4 * (h - y0 - bh);
      ny = (hi - lo) / s + 1;
      total += nx * ny * bw * bh;
    }
  return total;
}

/* ---- frames ---------------------------------------------------------------------------- */

/* A host GRAY8 plane with rows w + pad bytes apart, garbage in the padding. */
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

static void
plane_free (GcvPlane * pl)
{
  free (pl->data);
  pl->data = NULL;
}

/* Frame kinds: a photo crop shifted by (sx, sy) q between frames (bilinear,
 * the contract's rule), an unrelated crop, a posterised crop (values in
 * steps of 32: large flat areas, many equal SADs) shifted by whole pixels. */
enum { PAIR_SHIFT, PAIR_RANDOM, PAIR_FLAT, PAIR_KNOWN, PAIR_LOCAL };
static const char *const pair_name[5] = { "shift", "random", "flat", "known", "local" };
/* the photos' luma for the reference library's pairs: PAIR_KNOWN
 * (motion_test_shifted_pair: P a bilinear shift of C by (sx, sy) q, when
 * the frame fits inside the photo; else PAIR_LOCAL), PAIR_LOCAL
 * (motion_test_random_pair: a pan with local motion and noise) */
static uint8_t *photo_luma[4];
static int photo_w[4], photo_h[4];

/* Frame t of a clip: the photo window at (x0, y0) seen t steps later; each
 * step moves the content by (sx, sy) q.  The photo's luma is sampled with
 * gcv_motion_sample, so fractional steps give exact bilinear shifts. */
static GcvPlane
clip_frame (int kind, int photo, int w, int h, int x0, int y0, int sx, int sy, int t, size_t pad, uint32_t seed)
{
  GcvPlane pl = plane_new (w, h, pad, seed);
  const int mx = (abs (sx * t) + 3) / 4 + 1, my = (abs (sy * t) + 3) / 4 + 1;
  const int ww = w + 2 * mx, wh = h + 2 * my;
  GcvTestImage img;
  uint8_t *luma;
  uint32_t st = seed * 2654435761u + 17u;

  if (kind == PAIR_RANDOM && t > 0) {
    x0 += 97 * t + 13;
    y0 += 61 * t + 7;
  }
  img = gcv_test_image_window (&photos[photo], x0 - mx, y0 - my, ww, wh);
  luma = gcv_test_image_luma (&img);
  for (int y = 0; y < h; y++) {
    uint8_t *row = (uint8_t *) pl.data + pl.stride * y;
    for (int x = 0; x < w; x++) {
      /* content of P at x is found at x + s t in frame t: frame t at x
       * shows the source at x - s t */
      int X = 4 * (x + mx), Y = 4 * (y + my), v;
      if (kind != PAIR_RANDOM) {
        X -= sx * t;
        Y -= sy * t;
      }
      v = gcv_motion_sample (luma, (size_t) ww, X, Y);
      if (kind == PAIR_FLAT)
        v &= 0xe0;
      else if (kind == PAIR_SHIFT && t > 0)
        v += (int) (gcv_test_rand (&st) % 3) - 1;         /* a little noise: not every SAD is 0 */
      row[x] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
  }
  free (luma);
  gcv_test_image_clear (&img);
  return pl;
}

/* ---- comparing --------------------------------------------------------------------------- */

static void
vectors_garbage (GcvMotionVector * v, size_t n, uint32_t seed)
{
  uint32_t st = seed | 1;
  for (size_t i = 0; i < n; i++) {
    v[i].x = (int32_t) gcv_test_rand (&st);
    v[i].y = (int32_t) gcv_test_rand (&st);
    v[i].dx = (int32_t) gcv_test_rand (&st);
    v[i].dy = (int32_t) gcv_test_rand (&st);
    v[i].sad = gcv_test_rand (&st);
  }
}

/* Checks a == b over n records; returns the number that differ. */
static long
vectors_compare (const GcvMotionVector * a, const GcvMotionVector * b, size_t n, const char *what,
    const char *a_name, const char *b_name)
{
  long nd = 0;
  size_t first = 0;
  for (size_t i = 0; i < n; i++)
    if (memcmp (&a[i], &b[i], sizeof (a[i])) != 0 && nd++ == 0)
      first = i;
  GCV_TEST_CHECK (nd == 0, "%s: %ld of %zu vectors differ (%s vs %s), first block %zu: (%d,%d) d (%d,%d) sad %u "
      "vs (%d,%d) d (%d,%d) sad %u", what, nd, n, a_name, b_name, first, a[first].x, a[first].y, a[first].dx,
      a[first].dy, a[first].sad, b[first].x, b[first].y, b[first].dx, b[first].dy, b[first].sad);
  return nd;
}

/* Device copies of host frames (gcv_test_device_upload on the test's
 * stream, device 0: frame i pitched when i is odd, else with the host's
 * padded stride); 0 on success.  Free with devices_free. */
static int
devices_upload (const GcvPlane * host, GcvPlane * dev, int n, const char *what)
{
  int ok = 1;
  memset (dev, 0, sizeof (*dev) * n);
  for (int i = 0; i < n && ok; i++)
    ok = gcv_test_device_upload (&host[i], (size_t) host[i].width, i % 2, stream, &dev[i], what) == 0;
  return ok ? 0 : -1;
}

static void
devices_free (GcvPlane * dev, int n)
{
  for (int i = 0; i < n; i++) {
    gcv_cuda_free (dev[i].data);
    dev[i].data = NULL;
  }
}

/* The CUDA search of one pair on one context (upload, set_reference,
 * search, wait for the stream).  0 on success. */
static int
cuda_pair (GcvMotionCuda * cu, const GcvMotionParams * p, const GcvPlane * prev, const GcvPlane * cur,
    int row0, int row1, GcvMotionVector * out, const char *what)
{
  GcvError err = { GCV_OK, "" };
  GcvPlane host[2] = { *prev, *cur }, dev[2];
  int ok = devices_upload (host, dev, 2, what) == 0;
  if (ok && (gcv_motion_cuda_set_reference (cu, &dev[0], stream, &err) != GCV_OK
          || gcv_motion_cuda_search (cu, p, &dev[1], row0, row1, out, stream, &err) != GCV_OK
          || gcv_cuda_stream_sync (stream, &err) != GCV_OK)) {
    gcv_test_fail ("%s: CUDA: %s", what, err.message);
    ok = 0;
  }
  devices_free (dev, 2);
  return ok ? 0 : -1;
}

static int
cpu_pair (const GcvMotionParams * p, const GcvPlane * prev, const GcvPlane * cur, GcvMotionVector * out,
    const char *what)
{
  GcvError err = { GCV_OK, "" };
  GcvMotionCpu *cpu = gcv_motion_cpu_new (prev->width, prev->height, &err);
  int ok = cpu && gcv_motion_cpu_set_reference (cpu, prev, &err) == GCV_OK
      && gcv_motion_cpu_process (cpu, p, cur, out, 0, &err) == GCV_OK;
  if (!ok)
    gcv_test_fail ("%s: CPU backend: %s", what, err.message);
  gcv_motion_cpu_free (cpu);
  return ok ? 0 : -1;
}

/* ---- one pair --------------------------------------------------------------------------- */

typedef struct {
  int w, h;
  size_t pad;
  int kind, photo, x0, y0, sx, sy;
  GcvMotionParams p;
} PairCase;

static void
run_pair (const PairCase * c)
{
  char what[256], ps[96];
  const GcvMotionParams *p = &c->p;
  const size_t n = (size_t) gcv_motion_grid_cols (c->w, p) * gcv_motion_grid_rows (c->h, p);
  const double work = search_work (c->w, c->h, p);
  const int with_ref = work <= ref_case_budget && ref_spent + work <= ref_total_budget;
  GcvError err = { GCV_OK, "" };
  GcvMotionVector *vg, *vc, *vr;
  GcvPlane prev, cur;
  GcvMotionCuda *cu;

  snprintf (what, sizeof (what), "%dx%d pad %zu %s %s (%d,%d)q, %s", c->w, c->h, c->pad, gcv_test_photos[c->photo],
      pair_name[c->kind], c->sx, c->sy, params_string (p, ps, sizeof (ps)));
  if (filter && !strstr (what, filter))
    return;
  n_cases++;
  if (c->kind == PAIR_KNOWN) {
    const int mx = (abs (c->sx) + 3) / 4, my = (abs (c->sy) + 3) / 4, k = c->photo;
    const int cx = mx + c->x0 % (photo_w[k] - c->w - 2 * mx + 1 > 1 ? photo_w[k] - c->w - 2 * mx + 1 : 1);
    const int cy = my + c->y0 % (photo_h[k] - c->h - 2 * my + 1 > 1 ? photo_h[k] - c->h - 2 * my + 1 : 1);
    if (cx + c->w + mx <= photo_w[k] && cy + c->h + my <= photo_h[k])
      motion_test_shifted_pair (photo_luma[k], photo_w[k], photo_h[k], cx, cy, c->w, c->h, c->sx, c->sy, c->pad,
          &prev, &cur);
    else
      motion_test_random_pair (photo_luma[k], photo_w[k], photo_h[k], c->w, c->h, 9, 2, c->pad, (uint32_t) n_cases,
          &prev, &cur);
  } else if (c->kind == PAIR_LOCAL) {
    motion_test_random_pair (photo_luma[c->photo], photo_w[c->photo], photo_h[c->photo], c->w, c->h,
        1 + abs (c->sx) + abs (c->sy), 3, c->pad, (uint32_t) n_cases, &prev, &cur);
  } else {
    prev = clip_frame (c->kind, c->photo, c->w, c->h, c->x0, c->y0, c->sx, c->sy, 0, c->pad, (uint32_t) n_cases);
    cur = clip_frame (c->kind, c->photo, c->w, c->h, c->x0, c->y0, c->sx, c->sy, 1, c->pad + 3,
        (uint32_t) n_cases + 7);
  }
  vg = gcv_test_pinned_malloc (n * sizeof (*vg));
  vc = gcv_test_malloc (n * sizeof (*vc));
  vr = gcv_test_malloc (n * sizeof (*vr));
  vectors_garbage (vg, n, 1);
  vectors_garbage (vc, n, 2);
  vectors_garbage (vr, n, 3);
  cu = gcv_motion_cuda_new (c->w, c->h, &err);
  GCV_TEST_CHECK (cu != NULL, "%s: cuda_new: %s", what, err.message);
  if (cu && cuda_pair (cu, p, &prev, &cur, 0, -1, vg, what) == 0 && cpu_pair (p, &prev, &cur, vc, what) == 0) {
    vectors_compare (vg, vc, n, what, "CUDA", "CPU");
    if (with_ref) {
      ref_spent += work;
      n_ref_cases++;
      GCV_TEST_CHECK (motion_reference_search (p, &prev, &cur, vr) == 0, "%s: reference failed", what);
      vectors_compare (vg, vr, n, what, "CUDA", "reference");
    }
  }
  gcv_motion_cuda_free (cu);
  gcv_cuda_host_free (vg);
  free (vc);
  free (vr);
  plane_free (&prev);
  plane_free (&cur);
}

static PairCase
pair_case (int w, int h, int kind, int photo, int sx, int sy, GcvMotionParams p)
{
  PairCase c;
  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.pad = (size_t) ((w * 7 + h) % 13);
  c.kind = kind;
  c.photo = photo;
  c.x0 = 37 * photo + 11;
  c.y0 = 23 * photo + 5;
  c.sx = sx;
  c.sy = sy;
  c.p = p;
  return c;
}

/* ---- the case sets --------------------------------------------------------------------- */

/* tiny frames, odd sizes, every block geometry class, both methods, every
 * subpel, the zero threshold */
static void
test_matrix (void)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {5, 4}, {7, 9}, {4, 4}, {17, 5}, {3, 40}, {64, 48}, {127, 65}, {160, 120}, {641, 481},
  };
  static const int blocks[][2] = {
    {4, 4}, {8, 8}, {16, 16}, {5, 7}, {12, 10}, {32, 8}, {7, 31}, {128, 4}, {4, 128}, {96, 54}, {128, 128},
  };
  static const int ranges[][2] = { {0, 0}, {1, 1}, {3, 2}, {7, 7}, {16, 16}, {2, 9}, {32, 5}, {33, 17} };
  static const int subpels[3] = { 1, 2, 4 };
  static const double zts[4] = { 0, 0, 2.5, 40 };
  const int ns = (int) (sizeof (sizes) / sizeof (sizes[0]));
  const int nb = (int) (sizeof (blocks) / sizeof (blocks[0])), nr = (int) (sizeof (ranges) / sizeof (ranges[0]));
  int n = 0;

  for (int s = 0; s < ns; s++) {
    if (quick && sizes[s][0] * sizes[s][1] > 160 * 120)
      continue;
    for (int b = 0; b < nb; b++)
      for (int m = 0; m < 2; m++, n++) {
        const int r = (n * 5 + s) % nr, sp = subpels[(n + b) % 3], kind = n % 5;
        if (quick && (n % 3) != 0)
          continue;
        if (sizes[s][0] * sizes[s][1] >= 641 * 481 && b % 2)
          continue;
        GcvMotionParams p = motion_test_params (blocks[b][0], blocks[b][1], ranges[r][0], ranges[r][1], sp,
            m ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, zts[n % 4]);
        PairCase c = pair_case (sizes[s][0], sizes[s][1], kind, n % 4, (n % 7) - 3, (n % 5) * 3 - 6, p);
        run_pair (&c);
      }
  }
  /* every subpel x method with a fractional shift, and long ranges */
  for (int sp = 0; sp < 3; sp++)
    for (int m = 0; m < 2; m++) {
      GcvMotionParams p = motion_test_params (16, 16, 8, 8, subpels[sp], m ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, 0);
      PairCase c = pair_case (quick ? 96 : 203, quick ? 80 : 157, PAIR_SHIFT, sp + m, 5, -3, p);
      run_pair (&c);
      c = pair_case (quick ? 96 : 203, quick ? 80 : 157, PAIR_KNOWN, sp + m, 7 - 3 * sp, 2 + m, p);
      run_pair (&c);
      if (!quick) {
        p = motion_test_params (8, 8, 128, 128, subpels[sp], m ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, 1.0);
        c = pair_case (300, 220, PAIR_SHIFT, 3 - sp, -9, 14, p);
        run_pair (&c);
        p = motion_test_params (128, 128, 128, 100, subpels[sp], m ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, 0);
        c = pair_case (333, 290, PAIR_FLAT, sp, 8, 4, p);
        run_pair (&c);
      }
    }
}

/* the papers' geometries, 4K */
static void
test_large (void)
{
  PairCase c;
  c = pair_case (720, 480, PAIR_SHIFT, 1, 6, -2, motion_test_params (36, 24, 36, 24, 2, GCV_MOTION_METHOD_FULL, 4.0));
  run_pair (&c);
  c = pair_case (640, 480, PAIR_SHIFT, 2, 13, 4, motion_test_params (16, 16, 64, 64, 1, GCV_MOTION_METHOD_MODS, 0));
  run_pair (&c);
  c = pair_case (1920, 1080, PAIR_SHIFT, 3, -20, 12, motion_test_params (16, 16, 32, 32, 1, GCV_MOTION_METHOD_FULL, 0));
  run_pair (&c);
  c = pair_case (1920, 1080, PAIR_SHIFT, 0, 30, -10, motion_test_params (96, 54, 96, 54, 2, GCV_MOTION_METHOD_FULL, 4.0));
  run_pair (&c);
  c = pair_case (3840, 2160, PAIR_SHIFT, 1, 9, 7, motion_test_params (16, 16, 16, 16, 4, GCV_MOTION_METHOD_MODS, 0));
  run_pair (&c);
  c = pair_case (3840, 2160, PAIR_RANDOM, 2, 0, 0, motion_test_params (32, 32, 8, 8, 4, GCV_MOTION_METHOD_FULL, 0));
  run_pair (&c);
  c = pair_case (1280, 720, PAIR_LOCAL, 1, 4, 3, motion_test_params (16, 16, 16, 16, 4, GCV_MOTION_METHOD_FULL, 1.0));
  run_pair (&c);
  c = pair_case (500, 380, PAIR_KNOWN, 2, -26, 18, motion_test_params (20, 20, 24, 24, 2, GCV_MOTION_METHOD_FULL, 0));
  run_pair (&c);
}

/* A clip through one context.  First frames 1 .. 3 queued on the stream
 * before one wait, each with other parameters and its own result array,
 * each current frame copied on the stream into one scratch device plane
 * that is overwritten (memset) on the stream right after its search: each
 * == the CPU's pair.  Then the parameters changing every frame, frame by
 * frame, against a CPU context. */
static void
test_clip (int w, int h, int frames)
{
  GcvMotionParams ps[4];
  GcvPlane f[8], d[8], scratch = { 0 };
  GcvMotionVector *vg, *vc, *vq[4] = { NULL, NULL, NULL, NULL };
  GcvError err = { GCV_OK, "" };
  GcvMotionCuda *cu;
  GcvMotionCpu *cpu;
  char what[96];
  size_t nmax = (size_t) ((w + 3) / 4) * ((h + 3) / 4);

  memset (d, 0, sizeof (d));
  snprintf (what, sizeof (what), "clip %dx%d, %d frames", w, h, frames);
  if (filter && !strstr (what, filter))
    return;
  n_cases++;
  ps[0] = motion_test_params (16, 16, 7, 5, 2, GCV_MOTION_METHOD_FULL, 0);
  ps[1] = motion_test_params (8, 12, 9, 9, 4, GCV_MOTION_METHOD_MODS, 1.5);
  ps[2] = motion_test_params (24, 20, 12, 3, 1, GCV_MOTION_METHOD_FULL, 3.0);
  ps[3] = motion_test_params (16, 16, 16, 16, 4, GCV_MOTION_METHOD_FULL, 0);
  for (int t = 0; t < frames; t++)
    f[t] = clip_frame (PAIR_SHIFT, 1, w, h, 40, 30, 3, -2, t, (size_t) t, (uint32_t) (500 + t));
  vg = gcv_test_pinned_malloc (nmax * sizeof (*vg));
  vc = gcv_test_malloc (nmax * sizeof (*vc));
  for (int t = 1; t < 4; t++)
    vq[t] = gcv_test_pinned_malloc (nmax * sizeof (GcvMotionVector));
  cu = gcv_motion_cuda_new (w, h, &err);
  cpu = gcv_motion_cpu_new (w, h, &err);
  GCV_TEST_CHECK (cu && cpu, "%s: new: %s", what, err.message);
  if (cu && cpu && devices_upload (f, d, frames, what) == 0
      && gcv_test_device_alloc (w, h, (size_t) w, 1, 0, &scratch, what) == 0) {
    int ok = gcv_motion_cuda_set_reference (cu, &d[0], stream, &err) == GCV_OK;
    for (int t = 1; t < 4 && ok; t++) {
      vectors_garbage (vq[t], nmax, (uint32_t) (5 + t));
      ok = gcv_cuda_upload_2d (scratch.data, scratch.stride, f[t].data, f[t].stride, (size_t) w, (size_t) h, stream,
          &err) == GCV_OK && gcv_motion_cuda_search (cu, &ps[t], &scratch, 0, -1, vq[t], stream, &err) == GCV_OK
          && gcv_cuda_memset_2d (scratch.data, scratch.stride, 0xc3 + t, (size_t) w, (size_t) h, stream,
          &err) == GCV_OK;
    }
    ok = ok && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "%s: queued calls: %s", what, err.message);
    for (int t = 1; t < 4 && ok; t++) {
      char fw[256], pstr[96];
      snprintf (fw, sizeof (fw), "%s: queued search %d (%s)", what, t, params_string (&ps[t], pstr, sizeof (pstr)));
      if (cpu_pair (&ps[t], &f[t - 1], &f[t], vc, fw) == 0)
        vectors_compare (vq[t], vc, (size_t) gcv_motion_grid_cols (w, &ps[t]) * gcv_motion_grid_rows (h, &ps[t]), fw,
            "CUDA", "CPU");
    }

    /* the parameters change every frame, one context each side */
    ok = gcv_motion_cuda_set_reference (cu, &d[0], stream, &err) == GCV_OK
        && gcv_motion_cpu_set_reference (cpu, &f[0], &err) == GCV_OK;
    for (int t = 1; t < frames && ok; t++) {
      const GcvMotionParams *p = &ps[t % 4];
      const size_t n = (size_t) gcv_motion_grid_cols (w, p) * gcv_motion_grid_rows (h, p);
      char fw[256], pstr[96];
      snprintf (fw, sizeof (fw), "%s frame %d (%s)", what, t, params_string (p, pstr, sizeof (pstr)));
      vectors_garbage (vg, nmax, (uint32_t) t);
      ok = gcv_motion_cuda_search (cu, p, &d[t], 0, -1, vg, stream, &err) == GCV_OK
          && gcv_cuda_stream_sync (stream, &err) == GCV_OK;
      GCV_TEST_CHECK (ok, "%s: CUDA: %s", fw, err.message);
      ok = ok && gcv_motion_cpu_process (cpu, p, &f[t], vc, 0, &err) == GCV_OK;
      GCV_TEST_CHECK (ok, "%s: CPU: %s", fw, err.message);
      if (ok)
        vectors_compare (vg, vc, n, fw, "CUDA", "CPU");
    }
  }
  gcv_motion_cuda_free (cu);
  gcv_motion_cpu_free (cpu);
  devices_free (d, frames);
  gcv_cuda_free (scratch.data);
  for (int t = 0; t < frames; t++)
    plane_free (&f[t]);
  gcv_cuda_host_free (vg);
  for (int t = 1; t < 4; t++)
    gcv_cuda_host_free (vq[t]);
  free (vc);
}

/* The element's splits with contexts on devices da and db (the same device
 * or two), each context with its own stream and its device made current
 * before its calls; the frames live on device 0 (a context of another
 * device copies them across): parallel (each context a band of block rows
 * of the same pair, merged into one array) and serial (pairs alternating
 * between the contexts, each given its reference with set_reference, two
 * in flight), both == one context (the whole clip queued before one wait)
 * == the CPU backend. */
static void
test_splits (int da, int db, int w, int h, const GcvMotionParams * p)
{
  const int frames = 6;
  const int rows = gcv_motion_grid_rows (h, p);
  const size_t n = (size_t) gcv_motion_grid_cols (w, p) * rows;
  const int dev[3] = { da, da, db };    /* one context; ca, cb */
  GcvPlane f[6], d[6];
  GcvMotionVector *one[6], *vs, *vk[2], *vc;
  GcvMotionCuda *cx[3] = { NULL, NULL, NULL };
  void *sx[3] = { NULL, NULL, NULL };
  GcvError err = { GCV_OK, "" };
  char what[192], pstr[96];
  int ok = 1;

  memset (d, 0, sizeof (d));
  snprintf (what, sizeof (what), "splits on devices %d, %d: %dx%d %s", da, db, w, h,
      params_string (p, pstr, sizeof (pstr)));
  if (filter && !strstr (what, filter))
    return;
  n_cases++;
  for (int t = 0; t < frames; t++) {
    f[t] = clip_frame (PAIR_SHIFT, 2, w, h, 100, 70, 6, 5, t, 11, (uint32_t) (900 + t));
    one[t] = gcv_test_pinned_malloc (n * sizeof (GcvMotionVector));
  }
  vs = gcv_test_pinned_malloc (n * sizeof (*vs));
  vk[0] = gcv_test_pinned_malloc (n * sizeof (GcvMotionVector));
  vk[1] = gcv_test_pinned_malloc (n * sizeof (GcvMotionVector));
  vc = gcv_test_malloc (n * sizeof (*vc));
  for (int k = 0; k < 3 && ok; k++)
    ok = gcv_cuda_set_device (dev[k], &err) == GCV_OK && gcv_cuda_stream_new (&sx[k], &err) == GCV_OK
        && (cx[k] = gcv_motion_cuda_new (w, h, &err)) != NULL;
  ok = ok && gcv_cuda_set_device (0, &err) == GCV_OK;
  GCV_TEST_CHECK (ok, "%s: new: %s", what, err.message);
  ok = ok && devices_upload (f, d, frames, what) == 0;

  /* one context, the whole clip queued before one wait */
  ok = ok && gcv_cuda_set_device (dev[0], &err) == GCV_OK
      && gcv_motion_cuda_set_reference (cx[0], &d[0], sx[0], &err) == GCV_OK;
  for (int t = 1; t < frames && ok; t++) {
    vectors_garbage (one[t], n, (uint32_t) t);
    ok = gcv_motion_cuda_search (cx[0], p, &d[t], 0, -1, one[t], sx[0], &err) == GCV_OK;
  }
  ok = ok && gcv_cuda_stream_sync (sx[0], &err) == GCV_OK;
  GCV_TEST_CHECK (ok, "%s: one context: %s", what, err.message);
  if (ok && cpu_pair (p, &f[frames - 2], &f[frames - 1], vc, what) == 0)
    vectors_compare (one[frames - 1], vc, n, what, "one context", "CPU");

  /* parallel: both contexts keep the clip, each searches its band; the
   * split point moves every frame, one band is empty once */
  ok = ok && gcv_cuda_set_device (dev[1], &err) == GCV_OK
      && gcv_motion_cuda_set_reference (cx[1], &d[0], sx[1], &err) == GCV_OK
      && gcv_cuda_set_device (dev[2], &err) == GCV_OK
      && gcv_motion_cuda_set_reference (cx[2], &d[0], sx[2], &err) == GCV_OK;
  for (int t = 1; t < frames && ok; t++) {
    const int split = t == frames - 1 ? rows : (int) ((long) rows * t / frames);
    vectors_garbage (vs, n, (uint32_t) (40 + t));
    ok = gcv_cuda_set_device (dev[1], &err) == GCV_OK
        && gcv_motion_cuda_search (cx[1], p, &d[t], 0, split, vs, sx[1], &err) == GCV_OK
        && gcv_cuda_set_device (dev[2], &err) == GCV_OK
        && gcv_motion_cuda_search (cx[2], p, &d[t], split, rows, vs, sx[2], &err) == GCV_OK
        && gcv_cuda_stream_sync (sx[1], &err) == GCV_OK && gcv_cuda_stream_sync (sx[2], &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "%s: parallel frame %d: %s", what, t, err.message);
    if (ok) {
      char fw[256];
      snprintf (fw, sizeof (fw), "%s: parallel frame %d (split at row %d)", what, t, split);
      vectors_compare (vs, one[t], n, fw, "split", "one context");
    }
  }

  /* serial: pair (t-1, t) on context t % 2, two pairs in flight */
  {
    int pending[2] = { -1, -1 };
    for (int t = 1; t < frames + 2 && ok; t++) {
      const int k = t % 2;
      if (pending[k] >= 0) {
        char fw[256];
        ok = gcv_cuda_stream_sync (sx[1 + k], &err) == GCV_OK;
        snprintf (fw, sizeof (fw), "%s: serial pair %d", what, pending[k]);
        if (ok)
          vectors_compare (vk[k], one[pending[k]], n, fw, "serial", "one context");
        pending[k] = -1;
      }
      if (t < frames && ok) {
        vectors_garbage (vk[k], n, (uint32_t) (80 + t));
        ok = gcv_cuda_set_device (dev[1 + k], &err) == GCV_OK
            && gcv_motion_cuda_set_reference (cx[1 + k], &d[t - 1], sx[1 + k], &err) == GCV_OK
            && gcv_motion_cuda_search (cx[1 + k], p, &d[t], 0, -1, vk[k], sx[1 + k], &err) == GCV_OK;
        pending[k] = t;
      }
    }
    GCV_TEST_CHECK (ok, "%s: serial: %s", what, err.message);
  }
  for (int k = 0; k < 3; k++) {
    if (sx[k])
      gcv_cuda_stream_sync (sx[k], &err);
    gcv_cuda_set_device (dev[k], &err);
    gcv_motion_cuda_free (cx[k]);
    gcv_cuda_stream_free (sx[k]);
  }
  gcv_cuda_set_device (0, &err);
  devices_free (d, frames);
  for (int t = 0; t < frames; t++) {
    plane_free (&f[t]);
    gcv_cuda_host_free (one[t]);
  }
  gcv_cuda_host_free (vs);
  gcv_cuda_host_free (vk[0]);
  gcv_cuda_host_free (vk[1]);
  free (vc);
}

/* Bad calls fail cleanly (GCV_ERROR_INVALID, a message, nothing queued)
 * and leave the context working; a full device gives GCV_ERROR_NO_MEMORY. */
static void
test_errors (void)
{
  const int w = 97, h = 61;
  GcvMotionParams p = motion_test_params (16, 16, 8, 8, 2, GCV_MOTION_METHOD_FULL, 0), bad;
  GcvPlane host[3], dev[3];
  const size_t n = (size_t) gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
  GcvMotionVector *vg = gcv_test_pinned_malloc (n * sizeof (*vg)), *vc = gcv_test_malloc (n * sizeof (*vc));
  GcvError err = { GCV_OK, "" };
  GcvPlane pinned;
  GcvMotionCuda *cu;
  GcvStatus s;

  n_cases++;
  memset (dev, 0, sizeof (dev));
  host[0] = clip_frame (PAIR_SHIFT, 0, w, h, 10, 10, 4, 4, 0, 3, 1);
  host[1] = clip_frame (PAIR_SHIFT, 0, w, h, 10, 10, 4, 4, 1, 3, 2);
  host[2] = plane_new (w - 1, h, 0, 3);
  pinned = host[0];
  pinned.data = gcv_test_pinned_malloc (pinned.stride * h);
  memcpy (pinned.data, host[0].data, pinned.stride * h);
  GCV_TEST_CHECK (gcv_motion_cuda_new (0, 10, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "new with width 0 did not fail with INVALID");
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_motion_cuda_new (10, GCV_MOTION_MAX_DIMENSION + 1, &err) == NULL
      && err.status == GCV_ERROR_INVALID, "new with height %d did not fail with INVALID", GCV_MOTION_MAX_DIMENSION + 1);
  cu = gcv_motion_cuda_new (w, h, &err);
  GCV_TEST_CHECK (cu != NULL, "errors: new: %s", err.message);
  if (cu && devices_upload (host, dev, 3, "errors") == 0) {
    const GcvPlane *a = &dev[0], *b = &dev[1], *small = &dev[2];
    memset (&err, 0, sizeof (err));
    s = gcv_motion_cuda_search (cu, &p, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "search without reference: %d", s);
    s = gcv_motion_cuda_set_reference (cu, small, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set_reference of a %dx%d plane: %d", small->width, h, s);
    s = gcv_motion_cuda_set_reference (cu, &host[0], stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && strstr (err.message, "device memory"),
        "set_reference of a host plane: %d (%s)", s, err.message);
    s = gcv_motion_cuda_set_reference (cu, &pinned, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && strstr (err.message, "device memory"),
        "set_reference of a page-locked host plane: %d (%s)", s, err.message);
    s = gcv_motion_cuda_set_reference (cu, NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set_reference of NULL: %d", s);
    if (n_devices >= 2) {
      /* the context belongs to device 0: another current device is refused */
      memset (&err, 0, sizeof (err));
      s = gcv_cuda_set_device (1, &err) == GCV_OK ? gcv_motion_cuda_set_reference (cu, a, stream, &err) : GCV_OK;
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID && strstr (err.message, "device"),
          "set_reference with device 1 current: %d (%s)", s, err.message);
      gcv_cuda_set_device (0, &err);
    }
    s = gcv_motion_cuda_set_reference (cu, a, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "set_reference: %s", err.message);
    bad = p;
    bad.block_width = 3;
    s = gcv_motion_cuda_search (cu, &bad, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search with 3-pixel blocks: %d", s);
    bad = p;
    bad.range_y = GCV_MOTION_MAX_RANGE + 1;
    s = gcv_motion_cuda_search (cu, &bad, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search with range %d: %d", bad.range_y, s);
    bad = p;
    bad.subpel = (GcvMotionSubpel) 3;
    s = gcv_motion_cuda_search (cu, &bad, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search with subpel 3: %d", s);
    s = gcv_motion_cuda_search (cu, &p, b, -1, 2, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of rows -1 .. 2: %d", s);
    s = gcv_motion_cuda_search (cu, &p, b, 0, 99, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of rows 0 .. 99: %d", s);
    s = gcv_motion_cuda_search (cu, &p, b, 3, 2, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of rows 3 .. 2: %d", s);
    s = gcv_motion_cuda_search (cu, NULL, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search without parameters: %d", s);
    s = gcv_motion_cuda_search (cu, &p, b, 0, -1, NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search without a vector array: %d", s);
    s = gcv_motion_cuda_search (cu, &p, small, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of a %dx%d plane: %d", small->width, h, s);
    s = gcv_motion_cuda_search (cu, &p, &host[1], 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of a host plane: %d", s);
    s = gcv_motion_cuda_search (cu, &p, NULL, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search of NULL: %d", s);
    /* the context still works: the pair a, b */
    vectors_garbage (vg, n, 9);
    s = gcv_motion_cuda_search (cu, &p, b, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "search after the bad calls: %s", err.message);
    s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
    GCV_TEST_CHECK (s == GCV_OK, "wait after the bad calls: %s", err.message);
    if (s == GCV_OK && cpu_pair (&p, &host[0], &host[1], vc, "errors") == 0)
      vectors_compare (vg, vc, n, "search after the bad calls", "CUDA", "CPU");
    /* b is the reference now, a refused search changes nothing: the pair b, a */
    s = gcv_motion_cuda_search (cu, &bad, a, 0, -1, vg, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "search with subpel 3: %d", s);
    vectors_garbage (vg, n, 10);
    s = gcv_motion_cuda_search (cu, &p, a, 0, -1, vg, stream, &err);
    s = s == GCV_OK ? gcv_cuda_stream_sync (stream, &err) : s;
    GCV_TEST_CHECK (s == GCV_OK, "search of the pair b, a: %s", err.message);
    if (s == GCV_OK && cpu_pair (&p, &host[1], &host[0], vc, "errors") == 0)
      vectors_compare (vg, vc, n, "search after a refused search", "CUDA", "CPU");
  }
  gcv_motion_cuda_free (cu);
  if (!quick) {
    GcvTestDeviceHog hog;
    gcv_test_fill_device (&hog);
    memset (&err, 0, sizeof (err));
    cu = gcv_motion_cuda_new (3840, 2160, &err);
    GCV_TEST_CHECK (cu == NULL && err.status == GCV_ERROR_NO_MEMORY, "new on a full device (%.1f GiB taken): %s",
        hog.bytes / 1073741824.0, cu ? "succeeded" : err.message);
    gcv_motion_cuda_free (cu);
    gcv_test_release_device (&hog);
    cu = gcv_motion_cuda_new (3840, 2160, &err);
    GCV_TEST_CHECK (cu != NULL, "new after the device was freed: %s", err.message);
    gcv_motion_cuda_free (cu);
  }
  devices_free (dev, 3);
  for (int i = 0; i < 3; i++)
    plane_free (&host[i]);
  gcv_cuda_host_free (pinned.data);
  gcv_cuda_host_free (vg);
  free (vc);
}

/* ---- timing -------------------------------------------------------------------------------- */

static int
cmp_float (const void *a, const void *b)
{
  const float x = *(const float *) a, y = *(const float *) b;
  return x < y ? -1 : x > y;
}

/* Median kernel time of one search (the copy of the current frame from a
 * device plane, phase planes, search, vectors and their download) over 21
 * frames after 3 warm-up ones, 6 frames rotating (uploaded once). */
static void
time_case (int w, int h, const GcvMotionParams * p, const char *label)
{
  enum { N_FRAMES = 6, N = 21 };
  GcvPlane f[N_FRAMES], d[N_FRAMES];
  GcvError err = { GCV_OK, "" };
  GcvMotionCuda *cu = gcv_motion_cuda_new (w, h, &err);
  GcvCudaEvent *e0 = NULL, *e1 = NULL;
  const size_t n = (size_t) gcv_motion_grid_cols (w, p) * gcv_motion_grid_rows (h, p);
  GcvMotionVector *v = gcv_test_pinned_malloc (n * sizeof (*v));
  float t[N];
  char pstr[96];
  int ok;

  memset (d, 0, sizeof (d));
  for (int i = 0; i < N_FRAMES; i++)
    f[i] = clip_frame (PAIR_SHIFT, i % 4, w, h, 50 * i, 30 * i, 7, -5, i, 0, (uint32_t) (i + 1));
  ok = cu && devices_upload (f, d, N_FRAMES, label) == 0 && gcv_cuda_event_new (&e0, &err) == GCV_OK
      && gcv_cuda_event_new (&e1, &err) == GCV_OK && gcv_motion_cuda_set_reference (cu, &d[0], stream, &err) == GCV_OK;
  for (int k = 0; k < N + 3 && ok; k++) {
    ok = gcv_cuda_event_record (e0, stream, &err) == GCV_OK
        && gcv_motion_cuda_search (cu, p, &d[(k + 1) % N_FRAMES], 0, -1, v, stream, &err) == GCV_OK
        && gcv_cuda_event_record (e1, stream, &err) == GCV_OK && gcv_cuda_event_sync (e1, &err) == GCV_OK
        && gcv_cuda_event_elapsed (e0, e1, &t[k < 3 ? 0 : k - 3], &err) == GCV_OK;
  }
  GCV_TEST_CHECK (ok, "timing %s: %s", label, err.message);
  if (ok) {
    const double work = search_work (w, h, p);
    qsort (t, N, sizeof (float), cmp_float);
    printf ("timing %s: %dx%d %s: median %.3f ms (min %.3f, max %.3f) = %.0f fps; %.3g absolute differences, "
        "%.1f G/s\n", label, w, h, params_string (p, pstr, sizeof (pstr)), t[N / 2], t[0], t[N - 1],
        1000.0 / t[N / 2], work, work / t[N / 2] / 1e6);
  }
  gcv_cuda_stream_sync (stream, &err);
  gcv_cuda_event_free (e0);
  gcv_cuda_event_free (e1);
  gcv_motion_cuda_free (cu);
  devices_free (d, N_FRAMES);
  for (int i = 0; i < N_FRAMES; i++)
    plane_free (&f[i]);
  gcv_cuda_host_free (v);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  GcvError err = { GCV_OK, "" };

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  filter = getenv ("GCV_TEST_FILTER");
  if (filter && !*filter)
    filter = NULL;
  n_devices = gcv_cuda_device_count (&err);
  gcv_test_load_photos (photos);
  for (int i = 0; i < 4; i++)
    photo_luma[i] = motion_test_photo_luma (i, &photo_w[i], &photo_h[i]);
  printf ("test data: %s%s, %d device%s\n", gcv_test_data_dir (), quick ? " (quick)" : "", n_devices,
      n_devices == 1 ? "" : "s");

  if (!filter)
    test_errors ();
  printf ("errors done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_matrix ();
  printf ("matrix done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures, gcv_test_now_s () - t0);
  test_clip (quick ? 67 : 211, quick ? 45 : 143, 8);
  {
    GcvMotionParams p1 = motion_test_params (16, 16, 12, 10, 2, GCV_MOTION_METHOD_FULL, 2.0);
    GcvMotionParams p2 = motion_test_params (12, 8, 20, 6, 4, GCV_MOTION_METHOD_MODS, 0);
    test_splits (0, 0, quick ? 90 : 333, quick ? 70 : 251, &p1);
    test_splits (0, 0, quick ? 90 : 333, quick ? 70 : 251, &p2);
    if (n_devices >= 2) {
      test_splits (0, 1, quick ? 90 : 333, quick ? 70 : 251, &p1);
      test_splits (1, 0, quick ? 90 : 333, quick ? 70 : 251, &p2);
    } else {
      printf ("one device: the two-device splits are not run\n");
    }
  }
  printf ("clips and splits done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures,
      gcv_test_now_s () - t0);
  if (!quick) {
    test_large ();
    printf ("large frames done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures,
        gcv_test_now_s () - t0);
    if (!filter) {
      GcvMotionParams pa = motion_test_params (96, 54, 96, 54, 2, GCV_MOTION_METHOD_FULL, 0);
      GcvMotionParams pb = motion_test_params (16, 16, 32, 32, 1, GCV_MOTION_METHOD_FULL, 0);
      GcvMotionParams pc = motion_test_params (16, 16, 64, 64, 1, GCV_MOTION_METHOD_MODS, 0);
      time_case (1920, 1080, &pa, "paper 004 HD (target <= 50 ms)");
      time_case (1920, 1080, &pb, "codec 1080p (target >= 1000 fps)");
      time_case (640, 480, &pc, "paper 003 MODS");
    }
  }
  printf ("%ld cases, %ld of them also against the reference\n", n_cases, n_ref_cases);
  for (int i = 0; i < 4; i++) {
    gcv_test_image_clear (&photos[i]);
    free (photo_luma[i]);
  }
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
