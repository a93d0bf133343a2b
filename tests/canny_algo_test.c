/* gst-cuda-video: algorithm tests of Canny (cpu/canny.h), no GStreamer.
 *
 *  1. gcv_canny_params_check, gcv_canny_int_thresholds, gcv_canny_blur_weights
 *     and the CPU context's argument checks;
 *  2. self-checks of the reference (tests/canny_reference.c): borders, the
 *     direct blur against the literal two-pass formula, integer sqrt, hand
 *     computed step edges, hysteresis along a spiral tens of thousands of
 *     pixels long;
 *  3. the reference against OpenCV 4.6's cv::Canny (tests/fixtures/), also
 *     after cv::GaussianBlur with OpenCV's integer weights;
 *  4. gcv_canny_cpu_process against the OpenCV fixtures (blurred ones where
 *     gcv_canny_blur_weights gives OpenCV's weights);
 *  5. gcv_canny_cpu_process against the reference on every scene of
 *     gcv_test_scenes_new (photos, a 641x481 tile, windows from 1x1 up,
 *     synthetic patterns), every blur / threshold / norm / output case, in
 *     GRAY8, GRAY16LE and four PACKED32 byte orders, with padded strides
 *     holding garbage, n_threads 1 and 0 (and 3); output padding must stay
 *     untouched;
 *  6. a weak chain thousands of pixels long held by one strong square.
 *
 * Exit status 0 when everything passes, 1 otherwise; every failure names
 * the scene, the input layout, the parameters, the number of differing
 * pixels and the first one.  GCV_TEST_DUMP_DIR=dir writes the expected and
 * actual images of failures there.  GCV_TEST_EXHAUSTIVE=1 runs every input
 * layout on the large scenes too (slower).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canny.h"
#include "canny_reference.h"
#include "gcv-test.h"


static void
dump_failure (const char *tag, const uint8_t * expect, size_t es, const uint8_t * got, size_t gs,
    int w, int h)
{
  const char *dir = gcv_test_dump_dir ();
  static int n_dumps;
  char path[1024];

  if (dir == NULL || n_dumps >= 20)
    return;
  n_dumps++;
  snprintf (path, sizeof (path), "%s/%03d-%s-expected.png", dir, n_dumps, tag);
  gcv_test_write_png (path, expect, w, h, es, 1);
  snprintf (path, sizeof (path), "%s/%03d-%s-got.png", dir, n_dumps, tag);
  gcv_test_write_png (path, got, w, h, gs, 1);
  fprintf (stderr, "      dumped %s/%03d-%s-{expected,got}.png\n", dir, n_dumps, tag);
}

/* Compares got (with stride) against expect (packed); reports and returns
 * the number of differing pixels. */
static long
compare_report (const char *what, const char *tag, const uint8_t * expect, const uint8_t * got,
    size_t got_stride, int w, int h)
{
  int fx, fy;
  long n = gcv_test_compare_u8 (expect, (size_t) w, got, got_stride, w, h, &fx, &fy);

  gcv_test_checks++;
  if (n != 0) {
    gcv_test_fail ("%s: %ld of %d pixels differ; first at (x=%d, y=%d): got %d, expected %d", what, n, w * h,
        fx, fy, got[(size_t) fy * got_stride + fx], expect[(size_t) fy * w + fx]);
    dump_failure (tag, expect, (size_t) w, got, got_stride, w, h);
  }
  return n;
}

/* ---- 1. parameters --------------------------------------------------------------- */

static GcvCannyParams
params_make (double low, double high, int blur, double sigma, int l2)
{
  GcvCannyParams p;

  memset (&p, 0, sizeof (p));
  p.low_threshold = low;
  p.high_threshold = high;
  p.blur_size = blur;
  p.blur_sigma = sigma;
  p.l2_gradient = l2;
  p.output = GCV_CANNY_OUTPUT_EDGES;
  return p;
}

static void
test_params_check (void)
{
  static const int good_blur[] = { 0, 3, 5, 7 };
  static const int bad_blur[] = { 1, 2, 4, 6, 8, 9, -1, -3, 11 };
  GcvCannyParams p;
  char d[160];

  for (size_t i = 0; i < sizeof (good_blur) / sizeof (good_blur[0]); i++) {
    p = params_make (50, 150, good_blur[i], 0, 0);
    GCV_TEST_CHECK (gcv_canny_params_check (&p) == NULL, "params_check rejects valid %s: %s",
        ref_params_describe (&p, d, sizeof (d)), gcv_canny_params_check (&p));
    p = params_make (0, 0, good_blur[i], 1.4, 1);
    GCV_TEST_CHECK (gcv_canny_params_check (&p) == NULL, "params_check rejects valid %s: %s",
        ref_params_describe (&p, d, sizeof (d)), gcv_canny_params_check (&p));
    p = params_make (33.3, 33.3, good_blur[i], 2.5, 0);
    p.output = GCV_CANNY_OUTPUT_MAGNITUDE;
    GCV_TEST_CHECK (gcv_canny_params_check (&p) == NULL, "params_check rejects valid %s: %s",
        ref_params_describe (&p, d, sizeof (d)), gcv_canny_params_check (&p));
  }
  for (size_t i = 0; i < sizeof (bad_blur) / sizeof (bad_blur[0]); i++) {
    p = params_make (50, 150, bad_blur[i], 0, 0);
    GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts blur_size %d", bad_blur[i]);
  }
  p = params_make (100, 50, 0, 0, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts low 100 > high 50");
  p = params_make (50.5, 50.25, 3, 0, 1);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts low 50.5 > high 50.25");
  p = params_make (-1, 50, 0, 0, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts low -1");
  p = params_make (10, 50, 5, -0.5, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts blur_sigma -0.5");
  p = params_make (10, 50, 5, -1e-9, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts blur_sigma -1e-9");
  p = params_make (NAN, 50, 0, 0, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts low NaN");
  p = params_make (10, NAN, 0, 0, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts high NaN");
  p = params_make (10, 50, 3, NAN, 0);
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts blur_sigma NaN");
  p = params_make (10, 50, 3, 0, 0);
  p.output = (GcvCannyOutput) 7;
  GCV_TEST_CHECK (gcv_canny_params_check (&p) != NULL, "params_check accepts output mode 7");
}

static void
test_thresholds (void)
{
  static const struct { double low, high; int l2; } t[] = {
    {0, 0, 0}, {0, 0, 1}, {50, 150, 0}, {50, 150, 1}, {20.9, 60.6, 0}, {30.5, 90.7, 1},
    {0.5, 0.99, 0}, {0.5, 0.99, 1}, {1.0, 1.0, 1}, {255.999, 1000.5, 0}, {181.02, 1442.5, 1},
    {32767, 40000, 1}, {1e6, 1e9, 1}, {40000, 1e6, 0}, {2.5e9, 3e9, 0},
  };
  for (size_t i = 0; i < sizeof (t) / sizeof (t[0]); i++) {
    GcvCannyParams p = params_make (t[i].low, t[i].high, 0, 0, t[i].l2);
    int32_t lo, hi, rlo, rhi;
    gcv_canny_int_thresholds (&p, &lo, &hi);
    ref_int_thresholds (t[i].low, t[i].high, t[i].l2, &rlo, &rhi);
    GCV_TEST_CHECK (lo == rlo && hi == rhi, "int_thresholds(%g, %g, %s) = (%d, %d), expected (%d, %d)",
        t[i].low, t[i].high, t[i].l2 ? "L2" : "L1", lo, hi, rlo, rhi);
  }
}

static void
test_blur_weights (void)
{
  static const int sizes[] = { 3, 5, 7 };
  static const double sigmas[] = { 0, 0.3, 0.5, 0.8, 1.0, 1.4, 2.0, 2.5, 5, 10, 100 };
  double worst_dev = 0;
  int worst_size = 0;
  double worst_sigma = 0;
  int w[GCV_CANNY_MAX_BLUR_SIZE];
  GcvCannyParams p = params_make (10, 20, 0, 0, 0);

  for (int k = 0; k < GCV_CANNY_MAX_BLUR_SIZE; k++)
    w[k] = 12345;
  GCV_TEST_CHECK (gcv_canny_blur_weights (&p, w) == 0, "blur_weights(size 0) radius != 0");

  for (size_t si = 0; si < sizeof (sizes) / sizeof (sizes[0]); si++)
    for (size_t gi = 0; gi < sizeof (sigmas) / sizeof (sigmas[0]); gi++) {
      int n = sizes[si], r, sum = 0, mono = 1;
      double sigma = sigmas[gi] > 0 ? sigmas[gi] : 0.3 * ((n - 1) * 0.5 - 1) + 0.8;
      double g[GCV_CANNY_MAX_BLUR_SIZE], gs = 0;
      p = params_make (10, 20, n, sigmas[gi], 0);
      r = gcv_canny_blur_weights (&p, w);
      GCV_TEST_CHECK (r == n / 2, "blur_weights(size %d, sigma %g) radius %d, expected %d", n, sigmas[gi], r, n / 2);
      if (r != n / 2)
        continue;
      for (int k = 0; k < n; k++) {
        g[k] = exp (-(double) (k - r) * (k - r) / (2 * sigma * sigma));
        gs += g[k];
      }
      for (int k = 0; k < n; k++) {
        double dev = fabs (w[k] - 256.0 * g[k] / gs);
        sum += w[k];
        GCV_TEST_CHECK (w[k] >= 0, "blur_weights(size %d, sigma %g): w[%d] = %d < 0", n, sigmas[gi], k, w[k]);
        GCV_TEST_CHECK (w[k] == w[n - 1 - k], "blur_weights(size %d, sigma %g) not symmetric: w[%d] %d, w[%d] %d",
            n, sigmas[gi], k, w[k], n - 1 - k, w[n - 1 - k]);
        if (sigmas[gi] == 0)
          continue;             /* OpenCV's binomial tables, checked exactly below */
        if (dev > worst_dev) {
          worst_dev = dev;
          worst_size = n;
          worst_sigma = sigmas[gi];
        }
        /* gross errors only: the rounding scheme is the implementation's choice */
        GCV_TEST_CHECK (dev <= 4.0, "blur_weights(size %d, sigma %g): w[%d] = %d, the Gaussian gives %.2f",
            n, sigmas[gi], k, w[k], 256.0 * g[k] / gs);
        if (k > 0 && k <= r && w[k] < w[k - 1])
          mono = 0;
      }
      GCV_TEST_CHECK (sum == GCV_CANNY_BLUR_WEIGHT_SUM, "blur_weights(size %d, sigma %g) sum %d != 256", n,
          sigmas[gi], sum);
      if (!mono) {
        printf ("note: blur_weights(size %d, sigma %g) not decreasing from the centre:", n, sigmas[gi]);
        for (int k = 0; k < n; k++)
          printf (" %d", w[k]);
        printf ("\n");
      }
      if (sigmas[gi] == 0) {
        /* cv::getGaussianKernel's fixed tables (small_gaussian_tab) x 256 */
        static const int cv_tab[3][GCV_CANNY_MAX_BLUR_SIZE] = {
          {64, 128, 64}, {16, 64, 96, 64, 16}, {8, 28, 56, 72, 56, 28, 8},
        };
        GCV_TEST_CHECK (memcmp (w, cv_tab[n / 2 - 1], sizeof (int) * n) == 0,
            "blur_weights(size %d, sigma 0) is not OpenCV's fixed kernel", n);
      }
    }
  printf ("blur weights: largest deviation from the rounded Gaussian %.2f (size %d, sigma %g)\n",
      worst_dev, worst_size, worst_sigma);
}

static void
test_cpu_arguments (void)
{
  GcvError err;
  GcvCannyCpu *ctx;
  GcvCannyParams p = params_make (10, 20, 0, 0, 0);
  uint8_t inbuf[64], outbuf[64];
  GcvPlane in = { inbuf, 8, 8, 8 }, out = { outbuf, 8, 8, 8 };
  static const int bad[][2] = { {0, 5}, {5, 0}, {-1, 5}, {5, -1}, {0, 0} };

  for (size_t i = 0; i < sizeof (bad) / sizeof (bad[0]); i++) {
    memset (&err, 0, sizeof (err));
    ctx = gcv_canny_cpu_new (gcv_test_layout_gray8 (), bad[i][0], bad[i][1], &err);
    GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID && err.message[0],
        "cpu_new(%dx%d) must fail with GCV_ERROR_INVALID and a message", bad[i][0], bad[i][1]);
    gcv_canny_cpu_free (ctx);
  }
  memset (inbuf, 0, sizeof (inbuf));
  memset (&err, 0, sizeof (err));
  ctx = gcv_canny_cpu_new (gcv_test_layout_gray8 (), 8, 8, &err);
  GCV_TEST_CHECK (ctx != NULL, "cpu_new(8x8) failed: %s", err.message);
  if (ctx == NULL)
    return;
  p.blur_size = 4;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_canny_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_ERROR_INVALID && err.message[0],
      "cpu_process with blur_size 4 must fail with GCV_ERROR_INVALID");
  p.blur_size = 0;
  p.low_threshold = 30;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_canny_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_ERROR_INVALID,
      "cpu_process with low > high must fail with GCV_ERROR_INVALID");
  p.low_threshold = 10;
  in.width = 7;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_canny_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_ERROR_INVALID,
      "cpu_process with a 7x8 input on an 8x8 context must fail with GCV_ERROR_INVALID");
  in.width = 8;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_canny_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_OK, "cpu_process(8x8 zeros) failed: %s",
      err.message);
  for (int i = 0; i < 64; i++)
    GCV_TEST_CHECK (outbuf[i] == 0, "cpu_process(8x8 zeros): pixel %d is %d", i, outbuf[i]);
  gcv_canny_cpu_free (ctx);
  gcv_canny_cpu_free (NULL);
}

/* ---- 2. reference self-checks -------------------------------------------------------- */

static void
test_reference_borders (void)
{
  static const struct { int p, n, r101, rep; } t[] = {
    {0, 5, 0, 0}, {4, 5, 4, 4}, {-1, 5, 1, 0}, {-2, 5, 2, 0}, {-3, 5, 3, 0}, {5, 5, 3, 4},
    {6, 5, 2, 4}, {7, 5, 1, 4}, {-4, 5, 4, 0}, {-5, 5, 3, 0}, {-1, 2, 1, 0}, {-2, 2, 0, 0},
    {-3, 2, 1, 0}, {2, 2, 0, 1}, {3, 2, 1, 1}, {4, 2, 0, 1}, {-3, 1, 0, 0}, {3, 1, 0, 0},
    {-3, 3, 1, 0}, {5, 3, 1, 2}, {-3, 4, 3, 0},
  };
  for (size_t i = 0; i < sizeof (t) / sizeof (t[0]); i++) {
    GCV_TEST_CHECK (ref_reflect101 (t[i].p, t[i].n) == t[i].r101, "reference reflect101(%d, %d) = %d, expected %d",
        t[i].p, t[i].n, ref_reflect101 (t[i].p, t[i].n), t[i].r101);
    GCV_TEST_CHECK (ref_replicate (t[i].p, t[i].n) == t[i].rep, "reference replicate(%d, %d) = %d, expected %d",
        t[i].p, t[i].n, ref_replicate (t[i].p, t[i].n), t[i].rep);
  }
}

static void
test_reference_isqrt (void)
{
  for (int64_t v = 0; v <= 2 * 1020 * 1020 + 10; v += (v < 5000 ? 1 : 97)) {
    int64_t r = ref_isqrt (v);
    GCV_TEST_CHECK (r * r <= v && (r + 1) * (r + 1) > v, "reference isqrt(%lld) = %lld", (long long) v, (long long) r);
  }
}

static void
test_reference_blur (GcvTestScene * scenes, int n_scenes)
{
  /* the direct 2-D blur equals the literal two passes of canny.h */
  for (int si = 0; si < n_scenes; si++) {
    GcvTestScene *sc = &scenes[si];
    int w = sc->rgb.width, h = sc->rgb.height;
    uint8_t *L;
    int32_t *B1, *B2;
    if (sc->large && si != 0 && si != 2)
      continue;
    L = gcv_test_image_luma (&sc->rgb);
    B1 = gcv_test_malloc (sizeof (int32_t) * w * h);
    B2 = gcv_test_malloc (sizeof (int32_t) * w * h);
    for (int b = 1; b < ref_n_blur_cases; b++) {
      GcvCannyParams p = params_make (1, 2, ref_blur_cases[b].size, ref_blur_cases[b].sigma, 0);
      int wt[GCV_CANNY_MAX_BLUR_SIZE];
      int r = gcv_canny_blur_weights (&p, wt);
      ref_blur_direct (L, w, h, wt, r, B1);
      ref_blur_two_pass (L, w, h, wt, r, B2);
      gcv_test_checks++;
      if (memcmp (B1, B2, sizeof (int32_t) * w * h) != 0)
        gcv_test_fail ("reference: direct 2-D blur != two-pass blur on %s, size %d sigma %g", sc->name,
            ref_blur_cases[b].size, ref_blur_cases[b].sigma);
    }
    free (L);
    free (B1);
    free (B2);
  }
}

static void
run_ref (const uint8_t * L, int w, int h, const GcvCannyParams * p, uint8_t * out)
{
  RefCannyConfig cfg;
  int wt[GCV_CANNY_MAX_BLUR_SIZE];
  int r = gcv_canny_blur_weights (p, wt);

  ref_config_from_params (p, wt, r, &cfg);
  ref_canny (L, w, h, &cfg, out);
}

static void
test_reference_steps (void)
{
  /* A vertical step 10 -> 110 between columns 5 and 6: Sobel dx = 400 at
   * columns 5 and 6, 0 elsewhere; the tie rule (m > left && m >= right)
   * keeps column 5 only.  Same for a horizontal step (up/down rule). */
  enum { W = 12, H = 9 };
  uint8_t L[W * H], out[W * H], Lt[H * W], outt[H * W];
  GcvCannyParams p = params_make (50, 150, 0, 0, 0);

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      L[y * W + x] = x < 6 ? 10 : 110;
      Lt[x * H + y] = L[y * W + x];     /* transposed: W rows of H */
    }
  for (int l2 = 0; l2 <= 1; l2++) {
    p = params_make (l2 ? 100 : 50, l2 ? 300 : 150, 0, 0, l2);
    run_ref (L, W, H, &p, out);
    run_ref (Lt, H, W, &p, outt);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int e = x == 5 ? 255 : 0;
        GCV_TEST_CHECK (out[y * W + x] == e, "reference, vertical step %s: (x=%d, y=%d) = %d, expected %d",
            l2 ? "L2" : "L1", x, y, out[y * W + x], e);
        GCV_TEST_CHECK (outt[x * H + y] == e, "reference, horizontal step %s: (x=%d, y=%d) = %d, expected %d",
            l2 ? "L2" : "L1", y, x, outt[x * H + y], e);
      }
    p.output = GCV_CANNY_OUTPUT_MAGNITUDE;
    run_ref (L, W, H, &p, out);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        int e = (x == 5 || x == 6) ? 100 : 0;   /* a step of 100 levels reads 100 */
        GCV_TEST_CHECK (out[y * W + x] == e, "reference, magnitude of step %s: (x=%d, y=%d) = %d, expected %d",
            l2 ? "L2" : "L1", x, y, out[y * W + x], e);
      }
  }
  /* threshold is strict: m == high is weak, m == low is nothing */
  p = params_make (400, 400, 0, 0, 0);
  run_ref (L, W, H, &p, out);
  for (int i = 0; i < W * H; i++)
    GCV_TEST_CHECK (out[i] == 0, "reference: m == low == 400 must give no edge (pixel %d = %d)", i, out[i]);
  p = params_make (399, 400, 0, 0, 0);
  run_ref (L, W, H, &p, out);
  for (int i = 0; i < W * H; i++)
    GCV_TEST_CHECK (out[i] == 0, "reference: m == high must be weak only (pixel %d = %d)", i, out[i]);
  p = params_make (399, 399.99, 0, 0, 0);
  run_ref (L, W, H, &p, out);
  GCV_TEST_CHECK (out[5] == 255, "reference: m = 400 > floor(399.99) must be strong");
}

static void
test_reference_hysteresis (void)
{
  const int W = 401, H = 397;
  long n = gcv_test_spiral_path (W, H, 1, NULL, NULL, 0);
  int *xs = gcv_test_malloc (sizeof (int) * n), *ys = gcv_test_malloc (sizeof (int) * n);
  uint8_t *cls = gcv_test_malloc ((size_t) W * H), *out = gcv_test_malloc ((size_t) W * H);
  long edges, k;

  gcv_test_spiral_path (W, H, 1, xs, ys, n);
  GCV_TEST_CHECK (n > 30000, "spiral path only %ld pixels long", n);
  /* consecutive points are neighbours, and no point is an 8-neighbour of any
   * point further along than the next one (rings do not touch) */
  memset (cls, 0, (size_t) W * H);
  for (k = 0; k < n; k++) {
    GCV_TEST_CHECK (cls[(size_t) ys[k] * W + xs[k]] == 0, "spiral path visits (%d,%d) twice", xs[k], ys[k]);
    cls[(size_t) ys[k] * W + xs[k]] = REF_WEAK;
    if (k > 0)
      GCV_TEST_CHECK (abs (xs[k] - xs[k - 1]) + abs (ys[k] - ys[k - 1]) == 1, "spiral path step %ld is not a 4-step", k);
  }
  {
    /* rings never touch: 8-neighbours on the path are at most 2 steps apart
     * along it (2 at corners, where the points before and after touch) */
    long *idx = gcv_test_malloc (sizeof (long) * W * H);
    for (long i = 0; i < (long) W * H; i++)
      idx[i] = -1;
    for (k = 0; k < n; k++)
      idx[(size_t) ys[k] * W + xs[k]] = k;
    for (k = 0; k < n; k++) {
      int ok = 1;
      for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++) {
          int x = xs[k] + i, y = ys[k] + j;
          long o;
          if ((!i && !j) || x < 0 || y < 0 || x >= W || y >= H)
            continue;
          o = idx[(size_t) y * W + x];
          if (o >= 0 && labs (o - k) > 2)
            ok = 0;
        }
      GCV_TEST_CHECK (ok, "spiral path point %ld (%d,%d) touches another ring", k, xs[k], ys[k]);
      if (!ok)
        break;
    }
    free (idx);
  }

  /* no strong pixel: nothing */
  edges = ref_hysteresis (cls, W, H, out);
  GCV_TEST_CHECK (edges == 0, "reference hysteresis: weak-only spiral gave %ld edge pixels", edges);
  /* one strong pixel at the inner end: the whole chain */
  cls[(size_t) ys[n - 1] * W + xs[n - 1]] = REF_STRONG;
  edges = ref_hysteresis (cls, W, H, out);
  GCV_TEST_CHECK (edges == n, "reference hysteresis: spiral of %ld pixels held by its inner end kept %ld", n, edges);
  GCV_TEST_CHECK (out[(size_t) ys[0] * W + xs[0]] == 255, "reference hysteresis: outer end of the spiral lost");
  cls[(size_t) ys[n - 1] * W + xs[n - 1]] = REF_WEAK;
  /* one strong pixel in the middle */
  cls[(size_t) ys[n / 2] * W + xs[n / 2]] = REF_STRONG;
  edges = ref_hysteresis (cls, W, H, out);
  GCV_TEST_CHECK (edges == n, "reference hysteresis: spiral of %ld pixels held by its middle kept %ld", n, edges);
  /* cut the chain on a straight stretch: the part before the cut is lost */
  for (k = n / 4; k < n / 2 - 1; k++)
    if (abs (xs[k + 1] - xs[k - 1]) + abs (ys[k + 1] - ys[k - 1]) == 2
        && (xs[k + 1] == xs[k - 1] || ys[k + 1] == ys[k - 1]))
      break;
  cls[(size_t) ys[k] * W + xs[k]] = REF_NONE;
  edges = ref_hysteresis (cls, W, H, out);
  GCV_TEST_CHECK (edges == n - k - 1, "reference hysteresis: spiral cut at %ld kept %ld, expected %ld", k, edges, n - k - 1);
  GCV_TEST_CHECK (out[(size_t) ys[0] * W + xs[0]] == 0, "reference hysteresis: spiral cut, outer end still kept");

  /* diagonal-only connection counts (8-connectivity) */
  {
    uint8_t c[5 * 5] = { 0 }, o[5 * 5];
    for (int i = 0; i < 5; i++)
      c[i * 5 + i] = REF_WEAK;
    c[0] = REF_STRONG;
    GCV_TEST_CHECK (ref_hysteresis (c, 5, 5, o) == 5 && o[24] == 255, "reference hysteresis: diagonal chain not kept");
  }
  free (xs);
  free (ys);
  free (cls);
  free (out);
}

/* ---- 3 and 4. OpenCV fixtures ----------------------------------------------------------- */

typedef struct {
  char image[64];
  double low, high;
  int l2;
  char fixture[128];
} FixtureLine;

static int
read_manifest (FixtureLine ** lines_out)
{
  char *path = gcv_test_path ("fixtures/opencv-canny.txt");
  FILE *f = fopen (path, "r");
  char buf[512];
  FixtureLine *lines = NULL;
  int n = 0;

  if (f == NULL) {
    gcv_test_fail ("cannot open %s (set GCV_TEST_DATA_DIR to the source tests/ directory)", path);
    free (path);
    *lines_out = NULL;
    return 0;
  }
  while (fgets (buf, sizeof (buf), f)) {
    FixtureLine fl;
    if (buf[0] == '#' || buf[0] == '\n')
      continue;
    if (sscanf (buf, "%63s %lf %lf %d %127s", fl.image, &fl.low, &fl.high, &fl.l2, fl.fixture) != 5) {
      gcv_test_fail ("%s: bad line: %s", path, buf);
      continue;
    }
    lines = realloc (lines, sizeof (FixtureLine) * (n + 1));
    lines[n++] = fl;
  }
  fclose (f);
  free (path);
  *lines_out = lines;
  return n;
}

static void
test_fixtures (void)
{
  FixtureLine *lines;
  int n = read_manifest (&lines);
  long ref_bad = 0, cpu_bad = 0;

  GCV_TEST_CHECK (n >= 16, "fixtures manifest lists %d fixtures, expected at least 16", n);
  for (int i = 0; i < n; i++) {
    FixtureLine *fl = &lines[i];
    char rel[256], err[512], what[512], lname[16];
    char *path;
    GcvTestImage photo, fix, rgb;
    GcvCannyParams p = params_make (fl->low, fl->high, 0, 0, fl->l2);
    GcvLumaInput layout;
    GcvPlane in, out;
    GcvCannyCpu *ctx;
    GcvError gerr;
    uint8_t *L, *ref;
    int w, h;

    snprintf (rel, sizeof (rel), "data/%s", fl->image);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &photo, err, sizeof (err)) != 0) {
      gcv_test_fail ("%s", err);
      free (path);
      continue;
    }
    free (path);
    snprintf (rel, sizeof (rel), "fixtures/%s", fl->fixture);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &fix, err, sizeof (err)) != 0) {
      gcv_test_fail ("%s", err);
      free (path);
      gcv_test_image_clear (&photo);
      continue;
    }
    free (path);
    w = photo.width;
    h = photo.height;
    gcv_test_checks++;
    if (fix.width != w || fix.height != h || fix.channels != 1) {
      gcv_test_fail ("fixture %s is %dx%d with %d channels, photo %s is %dx%d", fl->fixture, fix.width, fix.height,
          fix.channels, fl->image, w, h);
      goto next;
    }
    /* (a) reference vs OpenCV */
    L = gcv_test_image_luma (&photo);
    ref = gcv_test_malloc ((size_t) w * h);
    run_ref (L, w, h, &p, ref);
    snprintf (what, sizeof (what), "reference vs OpenCV %s (%s low=%g high=%g %s)", fl->fixture, fl->image,
        fl->low, fl->high, fl->l2 ? "L2" : "L1");
    /* compare_report takes the packed one as "expected": here OpenCV */
    {
      uint8_t *fixp = gcv_test_malloc ((size_t) w * h);
      for (int y = 0; y < h; y++)
        memcpy (fixp + (size_t) y * w, fix.data + (size_t) y * fix.stride, w);
      ref_bad += compare_report (what, "ref-vs-opencv", fixp, ref, (size_t) w, w, h) != 0;

      /* (c) CPU vs OpenCV, from the photo's natural layout */
      layout = photo.channels == 1 ? gcv_test_layout_gray8 () : gcv_test_layout_packed32 (0, 1, 2);
      rgb = gcv_test_image_window (&photo, 0, 0, w, h);
      in = gcv_test_make_plane (layout, &rgb, 8, (uint32_t) i);
      out.width = w;
      out.height = h;
      out.stride = (size_t) w + 3;
      out.data = gcv_test_malloc (out.stride * h);
      memset (out.data, 0x5a, out.stride * h);
      memset (&gerr, 0, sizeof (gerr));
      ctx = gcv_canny_cpu_new (layout, w, h, &gerr);
      gcv_test_checks++;
      if (ctx == NULL) {
        gcv_test_fail ("cpu_new(%s %dx%d): %s", gcv_test_layout_name (layout, lname, sizeof (lname)), w, h, gerr.message);
      } else if (gcv_canny_cpu_process (ctx, &p, &in, &out, 0, &gerr) != GCV_OK) {
        gcv_test_fail ("cpu_process(%s, %s): %s", fl->image, fl->fixture, gerr.message);
      } else {
        snprintf (what, sizeof (what), "CPU (%s input) vs OpenCV %s (%s low=%g high=%g %s)",
            gcv_test_layout_name (layout, lname, sizeof (lname)), fl->fixture, fl->image, fl->low, fl->high,
            fl->l2 ? "L2" : "L1");
        cpu_bad += compare_report (what, "cpu-vs-opencv", fixp, out.data, out.stride, w, h) != 0;
      }
      gcv_canny_cpu_free (ctx);
      free (in.data);
      free (out.data);
      gcv_test_image_clear (&rgb);
      free (fixp);
    }
    free (L);
    free (ref);
  next:
    gcv_test_image_clear (&photo);
    gcv_test_image_clear (&fix);
  }
  printf ("OpenCV fixtures: %d; reference differs on %ld, CPU differs on %ld\n", n, ref_bad, cpu_bad);
  free (lines);
}

/* tests/fixtures/opencv-canny-blur.txt: cv2.Canny after cv2.GaussianBlur,
 * with OpenCV's integer blur weights.  The reference must reproduce them with
 * those weights; the CPU too wherever gcv_canny_blur_weights gives the same
 * weights (all of them since sigma 0 uses OpenCV's fixed tables too). */
static void
test_blur_fixtures (void)
{
  char *mpath = gcv_test_path ("fixtures/opencv-canny-blur.txt");
  FILE *f = fopen (mpath, "r");
  char buf[512];
  int n = 0, ref_bad = 0, cpu_bad = 0, cpu_run = 0;

  if (f == NULL) {
    gcv_test_fail ("cannot open %s", mpath);
    free (mpath);
    return;
  }
  while (fgets (buf, sizeof (buf), f)) {
    char image[64], wstr[128], wcopy[128], fixture[128], rel[256], err[512], what[600];
    double low, high, sigma;
    int l2, size, ow[GCV_CANNY_MAX_BLUR_SIZE], lw[GCV_CANNY_MAX_BLUR_SIZE], nw = 0, r;
    GcvTestImage photo, fix;
    GcvCannyParams p;
    RefCannyConfig cfg;
    uint8_t *L, *ref, *fixp;
    char *path, *tok, *save;
    int w, h;

    if (buf[0] == '#' || buf[0] == '\n')
      continue;
    if (sscanf (buf, "%63s %lf %lf %d %d %lf %127s %127s", image, &low, &high, &l2, &size, &sigma, wstr,
            fixture) != 8) {
      gcv_test_fail ("%s: bad line: %s", mpath, buf);
      continue;
    }
    snprintf (wcopy, sizeof (wcopy), "%s", wstr);
    for (tok = strtok_r (wcopy, ",", &save); tok && nw < GCV_CANNY_MAX_BLUR_SIZE; tok = strtok_r (NULL, ",", &save))
      ow[nw++] = atoi (tok);
    gcv_test_checks++;
    if (nw != size || (size != 3 && size != 5 && size != 7)) {
      gcv_test_fail ("%s: %s: %d weights for size %d", mpath, fixture, nw, size);
      continue;
    }
    n++;
    snprintf (rel, sizeof (rel), "data/%s", image);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &photo, err, sizeof (err)) != 0) {
      gcv_test_fail ("%s", err);
      free (path);
      continue;
    }
    free (path);
    snprintf (rel, sizeof (rel), "fixtures/%s", fixture);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &fix, err, sizeof (err)) != 0) {
      gcv_test_fail ("%s", err);
      free (path);
      gcv_test_image_clear (&photo);
      continue;
    }
    free (path);
    w = photo.width;
    h = photo.height;
    if (fix.width != w || fix.height != h || fix.channels != 1) {
      gcv_test_fail ("fixture %s does not match %s", fixture, image);
      gcv_test_image_clear (&photo);
      gcv_test_image_clear (&fix);
      continue;
    }
    fixp = gcv_test_malloc ((size_t) w * h);
    for (int y = 0; y < h; y++)
      memcpy (fixp + (size_t) y * w, fix.data + (size_t) y * fix.stride, w);
    L = gcv_test_image_luma (&photo);
    ref = gcv_test_malloc ((size_t) w * h);
    p = params_make (low, high, size, sigma, l2);

    /* reference with OpenCV's weights */
    ref_config_from_params (&p, ow, size / 2, &cfg);
    ref_canny (L, w, h, &cfg, ref);
    snprintf (what, sizeof (what), "reference (OpenCV's weights %s) vs OpenCV %s", wstr, fixture);
    ref_bad += compare_report (what, "ref-vs-opencv-blur", fixp, ref, (size_t) w, w, h) != 0;

    /* CPU, where our weights are OpenCV's */
    r = gcv_canny_blur_weights (&p, lw);
    if (r == size / 2 && memcmp (lw, ow, sizeof (int) * size) == 0) {
      GcvLumaInput layout = photo.channels == 1 ? gcv_test_layout_gray8 () : gcv_test_layout_packed32 (2, 1, 0);
      GcvTestImage rgb = gcv_test_image_window (&photo, 0, 0, w, h);
      GcvPlane in = gcv_test_make_plane (layout, &rgb, 4, (uint32_t) n), out;
      GcvError gerr;
      GcvCannyCpu *ctx;
      memset (&gerr, 0, sizeof (gerr));
      out.width = w;
      out.height = h;
      out.stride = (size_t) w;
      out.data = gcv_test_malloc ((size_t) w * h);
      ctx = gcv_canny_cpu_new (layout, w, h, &gerr);
      gcv_test_checks++;
      if (ctx == NULL || gcv_canny_cpu_process (ctx, &p, &in, &out, 0, &gerr) != GCV_OK) {
        gcv_test_fail ("cpu on %s: %s", fixture, gerr.message);
      } else {
        snprintf (what, sizeof (what), "CPU vs OpenCV %s (blur %d sigma %g)", fixture, size, sigma);
        cpu_bad += compare_report (what, "cpu-vs-opencv-blur", fixp, out.data, out.stride, w, h) != 0;
        cpu_run++;
      }
      gcv_canny_cpu_free (ctx);
      free (in.data);
      free (out.data);
      gcv_test_image_clear (&rgb);
    } else {
      printf ("note: %s: gcv_canny_blur_weights(size %d, sigma %g) =", fixture, size, sigma);
      for (int k = 0; k < size; k++)
        printf (" %d", lw[k]);
      printf (", OpenCV uses %s; CPU not compared with this fixture\n", wstr);
    }
    free (L);
    free (ref);
    free (fixp);
    gcv_test_image_clear (&photo);
    gcv_test_image_clear (&fix);
  }
  fclose (f);
  free (mpath);
  GCV_TEST_CHECK (n >= 6, "blurred fixtures manifest lists %d fixtures, expected at least 6", n);
  printf ("OpenCV blurred fixtures: %d; reference differs on %d; CPU compared on %d, differs on %d\n", n, ref_bad,
      cpu_run, cpu_bad);
}

/* ---- 5. CPU against the reference --------------------------------------------------------- */



static size_t
pad_for (GcvLumaLayout layout, int k)
{
  static const size_t p8[] = { 0, 3, 17, 64 }, p16[] = { 0, 2, 18, 64 }, p32[] = { 0, 4, 12, 64 };
  k &= 3;
  return layout == GCV_LUMA_GRAY8 ? p8[k] : layout == GCV_LUMA_GRAY16LE ? p16[k] : p32[k];
}

typedef struct {
  GcvCannyCpu *ctx[GCV_TEST_N_LAYOUTS];
  GcvPlane in[GCV_TEST_N_LAYOUTS];
} SceneInputs;

static long cpu_runs;

/* One CPU run vs the expected output; output padding must stay untouched. */
static void
cpu_case (const GcvTestScene * sc, SceneInputs * si, int li, const GcvCannyParams * p, int n_threads,
    const uint8_t * expect, int out_pad)
{
  int w = sc->rgb.width, h = sc->rgb.height;
  GcvPlane out;
  GcvError err;
  char pd[160], lname[16], what[600];
  GcvLumaInput layout = gcv_test_layout_by_index (li);

  out.width = w;
  out.height = h;
  out.stride = (size_t) w + out_pad;
  out.data = gcv_test_malloc (out.stride * h);
  memset (out.data, 0xa5, out.stride * h);
  memset (&err, 0, sizeof (err));
  snprintf (what, sizeof (what), "CPU vs reference: %s, %s input (stride %zu), %s, n_threads %d", sc->name,
      gcv_test_layout_name (layout, lname, sizeof (lname)), si->in[li].stride,
      ref_params_describe (p, pd, sizeof (pd)), n_threads);
  cpu_runs++;
  gcv_test_checks++;
  if (gcv_canny_cpu_process (si->ctx[li], p, &si->in[li], &out, n_threads, &err) != GCV_OK) {
    gcv_test_fail ("%s: process failed: %s", what, err.message);
  } else {
    compare_report (what, "cpu-vs-ref", expect, out.data, out.stride, w, h);
    for (int y = 0; y < h; y++)
      for (int x = w; x < (int) out.stride; x++)
        if (((uint8_t *) out.data)[(size_t) y * out.stride + x] != 0xa5) {
          gcv_test_fail ("%s: output padding byte (x=%d, y=%d) overwritten", what, x, y);
          y = h;
          break;
        }
  }
  free (out.data);
}

static void
test_cpu_vs_reference (GcvTestScene * scenes, int n_scenes)
{
  int exhaustive = gcv_test_env_flag ("GCV_TEST_EXHAUSTIVE");
  double t0 = gcv_test_now_s ();
  long fails_before = gcv_test_failures;

  for (int s = 0; s < n_scenes; s++) {
    GcvTestScene *sc = &scenes[s];
    int w = sc->rgb.width, h = sc->rgb.height;
    size_t n = (size_t) w * h;
    uint8_t *L = gcv_test_image_luma (&sc->rgb);
    SceneInputs si;
    int32_t *B = gcv_test_malloc (sizeof (int32_t) * n);
    int32_t *dx = gcv_test_malloc (sizeof (int32_t) * n), *dy = gcv_test_malloc (sizeof (int32_t) * n);
    uint8_t *cls = gcv_test_malloc (n), *expect = gcv_test_malloc (n);
    int combo = 0;

    memset (&si, 0, sizeof (si));
    for (int li = 0; li < GCV_TEST_N_LAYOUTS; li++) {
      GcvLumaInput layout = gcv_test_layout_by_index (li);
      GcvError err;
      uint8_t *pl;
      char lname[16];
      memset (&err, 0, sizeof (err));
      si.in[li] = gcv_test_make_plane (layout, &sc->rgb, pad_for (layout.layout, s + li), (uint32_t) (s * 31 + li));
      /* harness sanity: every layout carries the same luma */
      pl = gcv_test_plane_luma (layout, &si.in[li]);
      gcv_test_checks++;
      if (memcmp (pl, L, n) != 0)
        gcv_test_fail ("test harness: %s plane of %s does not carry the scene's luma", gcv_test_layout_name (layout,
                lname, sizeof (lname)), sc->name);
      free (pl);
      si.ctx[li] = gcv_canny_cpu_new (layout, w, h, &err);
      gcv_test_checks++;
      if (si.ctx[li] == NULL)
        gcv_test_fail ("cpu_new(%s, %dx%d): %s", gcv_test_layout_name (layout, lname, sizeof (lname)), w, h, err.message);
    }

    for (int b = 0; b < ref_n_blur_cases; b++) {
      GcvCannyParams p0;
      int wt[GCV_CANNY_MAX_BLUR_SIZE], r;
      ref_make_params (&ref_blur_cases[b], &ref_detect_cases[0], &p0);
      r = gcv_canny_blur_weights (&p0, wt);
      /* stages shared by every detect case of this blur */
      ref_blur_direct (L, w, h, wt, p0.blur_size ? r : 0, B);
      ref_sobel (B, w, h, dx, dy);
      for (int d = 0; d < ref_n_detect_cases; d++, combo++) {
        GcvCannyParams p;
        int32_t lo, hi;
        ref_make_params (&ref_blur_cases[b], &ref_detect_cases[d], &p);
        if (p.output == GCV_CANNY_OUTPUT_MAGNITUDE) {
          ref_magnitude_output (dx, dy, w, h, p.l2_gradient, expect);
        } else {
          ref_int_thresholds (p.low_threshold, p.high_threshold, p.l2_gradient, &lo, &hi);
          ref_nms_classes (dx, dy, w, h, p.l2_gradient, lo, hi, cls);
          ref_hysteresis (cls, w, h, expect);
        }
        for (int li = 0; li < GCV_TEST_N_LAYOUTS; li++) {
          int pick = exhaustive || !sc->large || li == combo % GCV_TEST_N_LAYOUTS;
          if (!pick || si.ctx[li] == NULL)
            continue;
          cpu_case (sc, &si, li, &p, 1, expect, (combo + li) % 4 == 0 ? 0 : (combo + li) % 4 * 7 - 6);
          cpu_case (sc, &si, li, &p, 0, expect, (combo + li) % 3);
          if ((combo + li) % 5 == 0)
            cpu_case (sc, &si, li, &p, 3, expect, 2);
        }
      }
    }
    for (int li = 0; li < GCV_TEST_N_LAYOUTS; li++) {
      gcv_canny_cpu_free (si.ctx[li]);
      free (si.in[li].data);
    }
    free (L);
    free (B);
    free (dx);
    free (dy);
    free (cls);
    free (expect);
  }
  printf ("CPU vs reference: %d scenes, %d parameter sets, %ld runs, %ld failures (%.1f s)\n", n_scenes,
      ref_n_blur_cases * ref_n_detect_cases, cpu_runs, gcv_test_failures - fails_before, gcv_test_now_s () - t0);
}

/* ---- 6. a very long weak chain ----------------------------------------------------------------- */

static void
test_long_chain (void)
{
  const int W = 300, H = 300, GAP = 5;
  GcvCannyParams p = params_make (40, 200, 0, 0, 0);
  long path_n = gcv_test_spiral_path (W, H, GAP, NULL, NULL, 0);

  for (int with_strong = 1; with_strong >= 0; with_strong--) {
    GcvTestImage img = gcv_test_spiral_image (W, H, GAP, 100, 120, with_strong ? 5 : 0);
    uint8_t *L = gcv_test_image_luma (&img), *ref = gcv_test_malloc ((size_t) W * H);
    uint8_t *cls = gcv_test_malloc ((size_t) W * H);
    int32_t *dx = gcv_test_malloc (sizeof (int32_t) * W * H), *dy = gcv_test_malloc (sizeof (int32_t) * W * H);
    int32_t *B = gcv_test_malloc (sizeof (int32_t) * W * H);
    long n_cand = 0, n_edges = 0, inner_edges = 0;
    GcvPlane in = { L, W, H, (size_t) W }, out;
    GcvError err;
    GcvCannyCpu *ctx;

    ref_blur_direct (L, W, H, NULL, 0, B);
    ref_sobel (B, W, H, dx, dy);
    ref_nms_classes (dx, dy, W, H, 0, 40, 200, cls);
    n_edges = ref_hysteresis (cls, W, H, ref);
    for (int i = 0; i < W * H; i++)
      n_cand += cls[i] != REF_NONE;
    for (int y = H / 2 - 10; y < H / 2 + 10; y++)
      for (int x = W / 2 - 10; x < W / 2 + 10; x++)
        inner_edges += ref[y * W + x] != 0;
    if (with_strong) {
      printf ("long chain: spiral path %ld pixels, %ld candidate pixels, %ld edge pixels\n", path_n, n_cand,
          n_edges);
      /* the line has an edge on each side; at least one side is one chain
       * from the square to the centre */
      GCV_TEST_CHECK (n_edges >= path_n * 9 / 10, "long chain: reference kept only %ld edge pixels", n_edges);
      GCV_TEST_CHECK (inner_edges > 0, "long chain: reference lost the inner end of the spiral");
    } else {
      GCV_TEST_CHECK (n_edges == 0, "long chain without the strong square: reference kept %ld pixels", n_edges);
    }
    out.width = W;
    out.height = H;
    out.stride = W;
    out.data = gcv_test_malloc ((size_t) W * H);
    memset (&err, 0, sizeof (err));
    ctx = gcv_canny_cpu_new (gcv_test_layout_gray8 (), W, H, &err);
    GCV_TEST_CHECK (ctx != NULL, "cpu_new(300x300): %s", err.message);
    for (int t = 0; ctx && t < 3; t++) {
      int nt = t == 0 ? 1 : t == 1 ? 0 : 7;
      char what[200];
      memset (out.data, 0x5a, (size_t) W * H);
      if (gcv_canny_cpu_process (ctx, &p, &in, &out, nt, &err) != GCV_OK) {
        gcv_test_fail ("long chain: cpu_process: %s", err.message);
        continue;
      }
      snprintf (what, sizeof (what), "long chain (%s strong square), CPU n_threads %d vs reference",
          with_strong ? "with" : "without", nt);
      compare_report (what, "long-chain", ref, out.data, out.stride, W, H);
    }
    gcv_canny_cpu_free (ctx);
    free (out.data);
    gcv_test_image_clear (&img);
    free (L);
    free (ref);
    free (cls);
    free (dx);
    free (dy);
    free (B);
  }
}

int
main (void)
{
  GcvTestScene *scenes;
  int n_scenes;
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("test data: %s\n", gcv_test_data_dir ());
  scenes = gcv_test_scenes_new (&n_scenes);

  test_params_check ();
  test_thresholds ();
  test_blur_weights ();
  test_cpu_arguments ();
  printf ("API checks done (%ld failures so far)\n", gcv_test_failures);

  test_reference_borders ();
  test_reference_isqrt ();
  test_reference_blur (scenes, n_scenes);
  test_reference_steps ();
  test_reference_hysteresis ();
  printf ("reference self-checks done (%ld failures so far)\n", gcv_test_failures);

  test_fixtures ();
  test_blur_fixtures ();
  test_long_chain ();
  test_cpu_vs_reference (scenes, n_scenes);

  gcv_test_scenes_free (scenes, n_scenes);
  return gcv_test_summary (t0);
}
