/* gst-cuda-video: algorithm tests of the spatio-temporal convolution's CPU
 * backend and shared code (cpu/conv3d.h), no GStreamer.
 *
 *  1. the shared code: gcv_conv3d_border_index against the reference's own
 *     map (every border, tiny axes, far indices); the kernel builders
 *     (Gaussian values, symmetry, sum 1 when normalised; box; Gabor: sum 0,
 *     a grating drifting at v px/frame excites the kernel of speed v most,
 *     v = -2 .. 2, and the opposite speed little); gcv_conv3d_kernel_normalize;
 *     gcv_conv3d_kernel_parse (commas, comments, the line of a bad token);
 *     GcvConv3dTimeline against a model that knows the stream's length
 *     (ready counts, can_push, every tap's slot holding the frame the
 *     border gives, no deadlock);
 *  2. every CPU algorithm against the float64 reference
 *     (tests/conv3d_reference.c) on moving crops of the test photos: fixed
 *     cases for every border in space and time, stream start and end,
 *     streams shorter than kt, kernels larger than the frame (1x1, 2x3 with
 *     k = 7), kx != ky != kt, kt = 1, sizes 1 and 31, channels 1..4 with
 *     filter masks, max_outputs 1 and 4 with fixed and random batches,
 *     scale / offset / absolute, padded strides with garbage; then random
 *     cases.  F32 within GCV_CONV3D_TOLERANCE * sum |K| * vmax * |scale|,
 *     U8 and U16 within one level of the quantised reference, unfiltered
 *     channels exact, output padding untouched;
 *  3. batches equal one-at-a-time outputs; n_threads 1, 2, 0 agree
 *     (bit-identical for the direct algorithms); every direct row kernel
 *     (generic, AVX2, AVX-512 as the CPU has them) against the reference;
 *     reset mid-stream and after the end gives a fresh context's output;
 *     a coefficient change between _process calls is followed (FFT spectra
 *     remade), in both directions;
 *  4. rounding half to even and clamping (exact for the direct algorithms);
 *  5. errors: invalid sizes, coefficient arrays, enums, geometries, a push
 *     into a full ring or after the end, processing more than is ready or
 *     than max_outputs, planes of the wrong size, stride or alignment,
 *     parameters that differ from the context's: each GCV_ERROR_INVALID
 *     with a message naming the offending value.
 *
 * Exit status 0 when everything passes, 1 otherwise.  A few seconds on two
 * cores (tens of seconds when they are busy with other tests);
 * GCV_TEST_QUICK=1 runs a tenth of the random cases and drops the largest.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv3d_reference.h"

static int quick;
static int have_fft;

static const char *const type_names[3] = { "U8", "U16", "F32" };

static const GcvConv3dAlgorithm all_algorithms[] = {
  GCV_CONV3D_BASELINE, GCV_CONV3D_SHARED, GCV_CONV3D_STREAMING, GCV_CONV3D_FFT3D,
  GCV_CONV3D_FFT_HYBRID
};

#define N_ALGORITHMS 5

static int
is_fft (GcvConv3dAlgorithm a)
{
  return a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID;
}

/* The algorithms this build can run. */
static int
usable (GcvConv3dAlgorithm a)
{
  return have_fft || !is_fft (a);
}

/* ---- 1. shared code ------------------------------------------------------------ */

static void
test_border_index (void)
{
  static const long long far[] = { -1000003, -65, -64, -63, -17, 1LL << 33, -(1LL << 33) };

  for (int b = 0; b < 3; b++)
    for (int n = 1; n <= 9; n++) {
      for (long long i = -45; i < n + 45; i++) {
        int got = gcv_conv3d_border_index (b, i, n), want = conv3d_ref_border (b, i, n);
        GCV_TEST_CHECK (got == want, "border_index(%s, %lld, %d) = %d, want %d",
            gcv_conv3d_border_name (b), i, n, got, want);
      }
      for (size_t k = 0; k < sizeof (far) / sizeof (far[0]); k++) {
        /* far indices: zero and replicate by sign, mirror with period 2 n */
        long long i = far[k], m = ((i % (2LL * n)) + 2LL * n) % (2LL * n);
        int want = b == GCV_CONV3D_BORDER_ZERO ? -1 : b == GCV_CONV3D_BORDER_REPLICATE
            ? (i < 0 ? 0 : n - 1) : conv3d_ref_border (b, m, n);
        GCV_TEST_CHECK (gcv_conv3d_border_index (b, i, n) == want,
            "border_index(%s, %lld, %d) = %d, want %d", gcv_conv3d_border_name (b), i, n,
            gcv_conv3d_border_index (b, i, n), want);
      }
    }
  /* the contract's picture: ... b a | a b c | c b ... */
  GCV_TEST_CHECK (gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, -1, 3) == 0
      && gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, -2, 3) == 1
      && gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, 3, 3) == 2
      && gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, 4, 3) == 1
      && gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, 6, 3) == 0
      && gcv_conv3d_border_index (GCV_CONV3D_BORDER_MIRROR, 7, 3) == 1,
      "mirror is not half-sample symmetric (... b a | a b c | c b ...)");
}

static GcvConv3dKernelSpec
spec_make (GcvConv3dKernelType type, int kx, int ky, int kt, int normalize)
{
  GcvConv3dKernelSpec s;
  memset (&s, 0, sizeof (s));
  s.type = type;
  s.kx = kx;
  s.ky = ky;
  s.kt = kt;
  s.wavelength = 6.0;
  s.normalize = normalize;
  return s;
}

#define KIDX(kx, ky, i, j, l) ((i) + (kx) * ((j) + (ky) * (l)))

/* Mean |response| of a Gabor kernel (orientation 0) to the grating
 * cos (2 pi (x - v t) / wavelength), over the inner region of the middle
 * frame, by the float64 reference. */
static double
gabor_response (const float *k, int kx, int ky, int kt, double wavelength, double v)
{
  const int w = 40, h = 12, frames = kt + 2;
  double *in = gcv_test_malloc (sizeof (double) * w * h * frames);
  double *out = gcv_test_malloc (sizeof (double) * w * h * frames), sum = 0.0;
  GcvConv3dParams p = conv3d_test_params (kx, ky, kt, GCV_CONV3D_BORDER_MIRROR, GCV_CONV3D_SHARED, k);
  int n = 0;

  for (int t = 0; t < frames; t++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        in[((size_t) t * h + y) * w + x] = 100.0 * cos (2 * M_PI * (x - v * t) / wavelength);
  conv3d_ref_convolve (in, w, h, 1, frames, 1, &p, out);
  for (int y = ky; y < h - ky; y++)
    for (int x = kx; x < w - kx; x++, n++)
      sum += fabs (out[((size_t) (frames / 2) * h + y) * w + x]);
  free (in);
  free (out);
  return sum / n;
}

static void
test_kernel_build (void)
{
  float k[31 * 31 * 31];
  const char *why;
  GcvConv3dKernelSpec s;

  /* Gaussian: the formula, symmetric, sum 1 normalised */
  s = spec_make (GCV_CONV3D_KERNEL_GAUSSIAN, 7, 5, 3, 0);
  s.sigma = 1.5;
  s.temporal_sigma = 0.8;
  why = gcv_conv3d_kernel_build (&s, k);
  GCV_TEST_CHECK (why == NULL, "gaussian 7x5x3: %s", why ? why : "");
  if (!why) {
    double max_err = 0.0;
    for (int l = 0; l < 3; l++)
      for (int j = 0; j < 5; j++)
        for (int i = 0; i < 7; i++) {
          double x = i - 3, y = j - 2, t = l - 1;
          double want = exp (-(x * x + y * y) / (2 * 1.5 * 1.5) - t * t / (2 * 0.8 * 0.8));
          double e = fabs (k[KIDX (7, 5, i, j, l)] - want);
          max_err = e > max_err ? e : max_err;
          GCV_TEST_CHECK (k[KIDX (7, 5, i, j, l)] == k[KIDX (7, 5, 6 - i, 4 - j, 2 - l)],
              "gaussian 7x5x3 not symmetric at (%d,%d,%d)", i, j, l);
        }
    GCV_TEST_CHECK (max_err < 1e-6, "gaussian 7x5x3 (sigma 1.5, 0.8) differs from the formula by %g",
        max_err);
  }
  for (int n = 0; n < 3; n++) {
    static const int sz[3][3] = { {5, 5, 5}, {9, 3, 7}, {1, 1, 31} };
    int kx = sz[n][0], ky = sz[n][1], kt = sz[n][2], peak = KIDX (kx, ky, kx / 2, ky / 2, kt / 2);
    double sum = 0.0;
    s = spec_make (GCV_CONV3D_KERNEL_GAUSSIAN, kx, ky, kt, 1);
    why = gcv_conv3d_kernel_build (&s, k);
    GCV_TEST_CHECK (why == NULL, "gaussian %dx%dx%d: %s", kx, ky, kt, why ? why : "");
    if (why)
      continue;
    for (int i = 0; i < kx * ky * kt; i++) {
      sum += k[i];
      GCV_TEST_CHECK (k[i] > 0 && k[i] <= k[peak], "gaussian %dx%dx%d: tap %d = %g (peak %g)", kx,
          ky, kt, i, k[i], k[peak]);
    }
    GCV_TEST_CHECK (fabs (sum - 1.0) < 1e-5, "normalised gaussian %dx%dx%d sums to %.9g", kx, ky, kt,
        sum);
  }
  /* default sigma: OpenCV's rule */
  GCV_TEST_CHECK (fabs (gcv_conv3d_default_sigma (5) - 1.1) < 1e-12
      && fabs (gcv_conv3d_default_sigma (15) - 2.6) < 1e-12, "default sigma(5) = %g, sigma(15) = %g",
      gcv_conv3d_default_sigma (5), gcv_conv3d_default_sigma (15));

  /* box */
  s = spec_make (GCV_CONV3D_KERNEL_BOX, 3, 5, 7, 0);
  GCV_TEST_CHECK (gcv_conv3d_kernel_build (&s, k) == NULL, "box 3x5x7 refused");
  for (int i = 0; i < 105; i++)
    GCV_TEST_CHECK (k[i] == 1.0f, "box tap %d = %g, want 1", i, k[i]);
  s.normalize = 1;
  GCV_TEST_CHECK (gcv_conv3d_kernel_build (&s, k) == NULL, "normalised box 3x5x7 refused");
  for (int i = 0; i < 105; i++)
    GCV_TEST_CHECK (fabsf (k[i] - 1.0f / 105) < 1e-8f, "normalised box tap %d = %g, want 1/105", i,
        k[i]);

  /* Gabor: zero sum, tuned to its speed */
  {
    const int kx = 11, ky = 5, kt = 7, n = kx * ky * kt;
    double sum = 0.0, pos = 0.0, r_tuned, r_opposite, r_still;
    s = spec_make (GCV_CONV3D_KERNEL_GABOR, kx, ky, kt, 0);
    s.wavelength = 6.0;
    s.speed = 1.0;
    s.sigma = 3.0;
    s.temporal_sigma = 2.0;
    why = gcv_conv3d_kernel_build (&s, k);
    GCV_TEST_CHECK (why == NULL, "gabor: %s", why ? why : "");
    sum = 0.0;
    for (int i = 0; i < n; i++)
      sum += k[i];
    GCV_TEST_CHECK (fabs (sum) < 1e-5 * conv3d_test_abs_sum (k, n), "gabor sums to %g (sum |K| %g)",
        sum, conv3d_test_abs_sum (k, n));
    r_tuned = gabor_response (k, kx, ky, kt, 6.0, 1.0);
    r_opposite = gabor_response (k, kx, ky, kt, 6.0, -1.0);
    r_still = gabor_response (k, kx, ky, kt, 6.0, 0.0);
    GCV_TEST_CHECK (r_tuned > 3.0 * r_opposite && r_tuned > 1.5 * r_still,
        "gabor (speed 1) responds %g to a grating moving at 1, %g at -1, %g still", r_tuned,
        r_opposite, r_still);
    s.speed = -1.0;
    gcv_conv3d_kernel_build (&s, k);
    r_tuned = gabor_response (k, kx, ky, kt, 6.0, -1.0);
    r_opposite = gabor_response (k, kx, ky, kt, 6.0, 1.0);
    GCV_TEST_CHECK (r_tuned > 3.0 * r_opposite, "gabor (speed -1) responds %g at -1, %g at 1", r_tuned,
        r_opposite);
    /* the kernel that responds most to a grating drifting at v is the one
     * tuned to v */
    for (int v = -2; v <= 2; v++) {
      int best = 99;
      double best_r = -1.0;
      for (int sp = -2; sp <= 2; sp++) {
        double r;
        s.speed = sp;
        gcv_conv3d_kernel_build (&s, k);
        r = gabor_response (k, kx, ky, kt, 6.0, v);
        if (r > best_r) {
          best_r = r;
          best = sp;
        }
      }
      GCV_TEST_CHECK (best == v, "a grating drifting at %d px/frame excites the gabor of speed %d most",
          v, best);
    }
    /* normalised: the positive coefficients sum to 1 */
    s.normalize = 1;
    GCV_TEST_CHECK (gcv_conv3d_kernel_build (&s, k) == NULL, "normalised gabor refused");
    for (int i = 0; i < n; i++)
      pos += k[i] > 0 ? k[i] : 0.0;
    GCV_TEST_CHECK (fabs (pos - 1.0) < 1e-5, "normalised gabor: positive taps sum to %.9g", pos);
  }

  /* refusals name the field */
  s = spec_make (GCV_CONV3D_KERNEL_GAUSSIAN, 4, 5, 5, 0);
  why = gcv_conv3d_kernel_build (&s, k);
  GCV_TEST_CHECK (why && strstr (why, "4x5x5"), "gaussian 4x5x5: %s", why ? why : "accepted");
  s = spec_make (GCV_CONV3D_KERNEL_GABOR, 5, 5, 5, 0);
  s.wavelength = 0.0;
  why = gcv_conv3d_kernel_build (&s, k);
  GCV_TEST_CHECK (why && strstr (why, "wavelength"), "gabor wavelength 0: %s", why ? why : "accepted");
  /* wavelength 1 (the carrier the same at every pixel): too short, not
   * too long */
  s = spec_make (GCV_CONV3D_KERNEL_GABOR, 5, 5, 1, 1);
  s.wavelength = 1.0;
  why = gcv_conv3d_kernel_build (&s, k);
  GCV_TEST_CHECK (why && strstr (why, "too short") && strstr (why, "wavelength 1 "),
      "normalised gabor wavelength 1: %s", why ? why : "accepted");
  s = spec_make (GCV_CONV3D_KERNEL_CUSTOM, 5, 5, 5, 0);
  why = gcv_conv3d_kernel_build (&s, k);
  GCV_TEST_CHECK (why && strstr (why, "custom"), "custom: %s", why ? why : "accepted");
}

static void
test_kernel_normalize (void)
{
  float a[4] = { 1, 2, 3, 4 }, b[4] = { 1, -1, 2, -2 }, z[3] = { 0, 0, 0 };

  GCV_TEST_CHECK (gcv_conv3d_kernel_normalize (a, 4) && fabsf (a[0] - 0.1f) < 1e-7f
      && fabsf (a[3] - 0.4f) < 1e-7f, "normalize {1,2,3,4} -> {%g,%g,%g,%g}", a[0], a[1], a[2], a[3]);
  /* zero sum: by the positive sum (3) */
  GCV_TEST_CHECK (gcv_conv3d_kernel_normalize (b, 4) && fabsf (b[0] - 1.0f / 3) < 1e-7f
      && fabsf (b[3] + 2.0f / 3) < 1e-7f, "normalize {1,-1,2,-2} -> {%g,%g,%g,%g}", b[0], b[1], b[2],
      b[3]);
  GCV_TEST_CHECK (!gcv_conv3d_kernel_normalize (z, 3), "an all-zero kernel was normalised");
}

static void
test_kernel_parse (void)
{
  float *v = NULL;
  int n = -1;
  const char *why;

  why = gcv_conv3d_kernel_parse ("# a 3x1x1 kernel, then one more row\n1, 2.5,-3e0\n\n"
      "  0.25 # trailing comment 9 9\n,,\t-0\n", &v, &n);
  GCV_TEST_CHECK (why == NULL && n == 5 && v && v[0] == 1.0f && v[1] == 2.5f && v[2] == -3.0f
      && v[3] == 0.25f && v[4] == 0.0f, "parse good text: %s, n %d", why ? why : "ok", n);
  free (v);
  v = NULL;
  why = gcv_conv3d_kernel_parse ("1 2 3\n# fine\n4 5x 6\n", &v, &n);
  GCV_TEST_CHECK (why && strstr (why, "line 3") && strstr (why, "5x") && v == NULL,
      "parse bad token on line 3: %s", why ? why : "accepted");
  why = gcv_conv3d_kernel_parse ("1 nan 3\n", &v, &n);
  GCV_TEST_CHECK (why && strstr (why, "line 1"), "parse nan: %s", why ? why : "accepted");
  why = gcv_conv3d_kernel_parse ("# nothing\n\n", &v, &n);
  GCV_TEST_CHECK (why != NULL, "parse of no numbers accepted");
}

/* The timeline against a model that knows the stream's length N: an
 * output's tap l reads frame border(t + rt - l, N); the slot must hold
 * that frame when the output is ready.  Drives pushes, _end and processes
 * of random sizes until every output is done. */
static void
timeline_case (int kt, int M, GcvConv3dBorder border, int N, uint32_t seed)
{
  GcvConv3dTimeline tl;
  int rt = kt / 2, holds[GCV_CONV3D_MAX_SIZE + GCV_CONV3D_MAX_OUTPUTS], slots[GCV_CONV3D_MAX_SIZE];
  uint32_t st = seed;
  int steps = 0;

  gcv_conv3d_timeline_init (&tl, kt, M, border);
  GCV_TEST_CHECK (tl.capacity == kt + M - 1, "timeline capacity %d, want %d", tl.capacity, kt + M - 1);
  for (int s = 0; s < tl.capacity; s++)
    holds[s] = -1;
  while (tl.next_out < N && steps++ < 10 * (N + kt + 4)) {
    int ready = gcv_conv3d_timeline_ready (&tl), can = gcv_conv3d_timeline_can_push (&tl);
    int want_ready = tl.ended ? (int) (tl.pushed - tl.next_out)
        : (int) (tl.pushed - rt - tl.next_out > 0 ? tl.pushed - rt - tl.next_out : 0);
    /* a push is refused exactly when it would overwrite (frame pushed -
     * capacity) a frame an output to come reads */
    int want_can = !tl.ended;
    for (long long t = tl.next_out; want_can && t < N; t++)
      for (int l = 0; l < kt; l++)
        if (tl.pushed - tl.capacity >= 0
            && conv3d_ref_border (border, t + rt - l, N) == tl.pushed - tl.capacity)
          want_can = 0;
    GCV_TEST_CHECK (ready == want_ready, "timeline kt %d M %d %s N %d: pushed %lld next %lld ended %d: "
        "ready %d, want %d", kt, M, gcv_conv3d_border_name (border), N, tl.pushed, tl.next_out,
        tl.ended, ready, want_ready);
    GCV_TEST_CHECK (can == want_can, "timeline kt %d M %d %s N %d: pushed %lld next %lld: can_push %d, "
        "want %d", kt, M, gcv_conv3d_border_name (border), N, tl.pushed, tl.next_out, can, want_can);
    if (ready != want_ready || can != want_can)
      return;
    /* every ready output's taps */
    for (int o = 0; o < ready; o++) {
      long long t = tl.next_out + o;
      gcv_conv3d_timeline_sources (&tl, t, slots);
      for (int l = 0; l < kt; l++) {
        int f = conv3d_ref_border (border, t + rt - l, N);
        int ok = f < 0 ? slots[l] == -1 : slots[l] >= 0 && slots[l] < tl.capacity
            && holds[slots[l]] == f;
        GCV_TEST_CHECK (ok, "timeline kt %d M %d %s N %d: output %lld tap %d reads slot %d (holding "
            "frame %d), want frame %d", kt, M, gcv_conv3d_border_name (border), N, t, l, slots[l],
            slots[l] >= 0 && slots[l] < tl.capacity ? holds[slots[l]] : -9, f);
      }
    }
    /* next step: push when possible (sometimes process first), else end, else process */
    if (can && tl.pushed < N && !(ready > 0 && gcv_test_rand (&st) % 3 == 0)) {
      int slot = gcv_conv3d_timeline_slot (&tl, tl.pushed);
      GCV_TEST_CHECK (slot == (int) (tl.pushed % tl.capacity), "slot of frame %lld is %d", tl.pushed,
          slot);
      holds[slot] = (int) tl.pushed;
      tl.pushed++;
    } else if (tl.pushed == N && !tl.ended && (ready == 0 || gcv_test_rand (&st) % 2)) {
      tl.ended = 1;
    } else if (ready > 0) {
      int n = 1 + (int) (gcv_test_rand (&st) % (uint32_t) (ready < M ? ready : M));
      tl.next_out += n;
    } else {
      GCV_TEST_CHECK (0, "timeline kt %d M %d %s N %d: stuck at pushed %lld next %lld", kt, M,
          gcv_conv3d_border_name (border), N, tl.pushed, tl.next_out);
      return;
    }
  }
  GCV_TEST_CHECK (tl.next_out == N, "timeline kt %d M %d %s N %d: %lld of %d outputs", kt, M,
      gcv_conv3d_border_name (border), N, tl.next_out, N);
  gcv_conv3d_timeline_reset (&tl);
  GCV_TEST_CHECK (tl.pushed == 0 && tl.next_out == 0 && !tl.ended
      && gcv_conv3d_timeline_ready (&tl) == 0 && gcv_conv3d_timeline_can_push (&tl),
      "timeline reset leaves pushed %lld next %lld ended %d", tl.pushed, tl.next_out, tl.ended);
}

static void
test_timeline (void)
{
  static const int kts[] = { 1, 3, 5, 7, 31 }, Ms[] = { 1, 2, 4, 16 }, Ns[] = { 1, 2, 3, 6, 11, 40 };
  uint32_t seed = 1;

  for (size_t a = 0; a < sizeof (kts) / sizeof (kts[0]); a++)
    for (size_t b = 0; b < sizeof (Ms) / sizeof (Ms[0]); b++)
      for (int border = 0; border < 3; border++)
        for (size_t c = 0; c < sizeof (Ns) / sizeof (Ns[0]); c++)
          timeline_case (kts[a], Ms[b], border, Ns[c], seed++);
}

/* ---- 2. against the reference --------------------------------------------------- */

typedef struct {
  int w, h, frames;
  int kx, ky, kt;
  GcvConv3dBorder border;
  GcvSampleType type;
  int channels;
  unsigned mask;
  int max_outputs, batch;       /* batch <= 0: random 1 .. -batch */
  size_t pad;                   /* bytes of padding per row (a multiple of the sample) */
  float scale, offset;
  int absolute;
  int n_threads;
} Case;

static Case
case_make (int w, int h, int frames, int kx, int ky, int kt, GcvConv3dBorder border,
    GcvSampleType type, int channels, unsigned mask, int max_outputs, int batch)
{
  Case c;
  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.frames = frames;
  c.kx = kx;
  c.ky = ky;
  c.kt = kt;
  c.border = border;
  c.type = type;
  c.channels = channels;
  c.mask = mask;
  c.max_outputs = max_outputs;
  c.batch = batch;
  c.pad = (size_t) gcv_sample_bytes (type) * 3;
  c.scale = 1.0f;
  return c;
}

static const char *
case_name (const Case * c, char *buf, size_t len)
{
  snprintf (buf, len, "%dx%d x %d frames, %s %dch mask 0x%x, kernel %dx%dx%d %s, max_outputs %d batch "
      "%d, scale %g offset %g%s, %d threads", c->w, c->h, c->frames, type_names[c->type], c->channels,
      c->mask, c->kx, c->ky, c->kt, gcv_conv3d_border_name (c->border), c->max_outputs, c->batch,
      c->scale, c->offset, c->absolute ? " absolute" : "", c->n_threads);
  return buf;
}

/* A scale that keeps the integer outputs mostly in range: 1 / sum |K|
 * (times the case's own scale). */
static float
case_scale (const Case * c, const float *k)
{
  if (c->type == GCV_SAMPLE_F32)
    return c->scale;
  return (float) (c->scale / conv3d_test_abs_sum (k, c->kx * c->ky * c->kt));
}

/* Runs one algorithm over `video`: returns the output volume (frames =
 * 0 when the context could not be made or the run failed: a failed check). */
static Conv3dVolume
run_algorithm (const Case * c, const GcvConv3dParams * p, const Conv3dVolume * video, uint32_t seed,
    const char *name)
{
  GcvConv3dGeometry g = conv3d_test_geometry (c->type, c->channels, c->mask, c->w, c->h, c->max_outputs);
  GcvError err;
  GcvConv3dCpu *ctx;
  Conv3dVolume out;
  Conv3dBackend b;
  char msg[768];

  memset (&err, 0, sizeof (err));
  ctx = gcv_conv3d_cpu_new (&g, p, c->n_threads, &err);
  GCV_TEST_CHECK (ctx != NULL, "%s, %s: _new failed: %s", gcv_conv3d_algorithm_name (p->algorithm), name,
      err.message);
  if (!ctx) {
    memset (&out, 0, sizeof (out));
    return out;
  }
  out = conv3d_test_volume_new (c->type, c->channels, c->w, c->h, c->frames,
      (size_t) gcv_sample_bytes (c->type) * (seed % 5), seed ^ 0x5a5a5a5au);
  b = conv3d_test_cpu_backend (ctx);
  if (conv3d_test_run (&b, video, p, c->kt, c->batch, &out, msg, sizeof (msg)) != 0) {
    GCV_TEST_CHECK (0, "%s, %s: %s", gcv_conv3d_algorithm_name (p->algorithm), name, msg);
    conv3d_test_volume_free (&out);
  }
  gcv_conv3d_cpu_free (ctx);
  return out;
}

static double worst_f32_ratio;  /* largest F32 error / tolerance seen */

/* Every usable algorithm on one case against the reference. */
static void
run_case (const Case * c, uint32_t seed)
{
  const int n = c->kx * c->ky * c->kt;
  float *k = gcv_test_malloc (sizeof (float) * n);
  Conv3dVolume video = conv3d_test_video (c->type, c->channels, c->w, c->h, c->frames, c->pad, seed);
  size_t n_samples = (size_t) c->frames * c->h * c->w * c->channels;
  double *ref = gcv_test_malloc (sizeof (double) * n_samples), tol;
  GcvConv3dParams p;
  char name[256], dmsg[512];

  conv3d_test_random_kernel (c->kx, c->ky, c->kt, seed, k);
  p = conv3d_test_params (c->kx, c->ky, c->kt, c->border, GCV_CONV3D_BASELINE, k);
  p.scale = case_scale (c, k);
  p.offset = c->offset;
  p.absolute = c->absolute;
  conv3d_ref_convolve (video.values, c->w, c->h, c->channels, c->frames, c->mask, &p, ref);
  tol = conv3d_ref_tolerance (&p, conv3d_ref_vmax (c->type, video.values, n_samples));
  case_name (c, name, sizeof (name));

  for (int a = 0; a < N_ALGORITHMS; a++) {
    Conv3dVolume out;
    Conv3dDiff d;
    if (!usable (all_algorithms[a]))
      continue;
    p.algorithm = all_algorithms[a];
    out = run_algorithm (c, &p, &video, seed + a, name);
    if (out.frames == 0)
      continue;
    conv3d_test_compare (&out, ref, c->mask, tol, &d);
    GCV_TEST_CHECK (d.bad == 0 && d.bad_copy == 0, "%s, %s: %s", gcv_conv3d_algorithm_name (p.algorithm),
        name, conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
    GCV_TEST_CHECK (conv3d_test_padding_intact (&out), "%s, %s: output padding written",
        gcv_conv3d_algorithm_name (p.algorithm), name);
    if (c->type == GCV_SAMPLE_F32 && d.max_err / tol > worst_f32_ratio)
      worst_f32_ratio = d.max_err / tol;
    conv3d_test_volume_free (&out);
  }
  free (ref);
  free (k);
  conv3d_test_volume_free (&video);
}

static void
test_reference_fixed (void)
{
  uint32_t seed = 100;
  Case c;

  for (int b = 0; b < 3; b++) {
    /* the plain case, every border; a frame wider than the widest row block */
    run_case ((c = case_make (23, 17, 8, 5, 5, 5, b, GCV_SAMPLE_U8, 1, 1, 4, 4), &c), seed++);
    run_case ((c = case_make (133, 9, 5, 3, 3, 3, b, GCV_SAMPLE_F32, 1, 1, 2, -2), &c), seed++);
    /* rectangular kernels */
    run_case ((c = case_make (64, 48, 9, 7, 3, 5, b, GCV_SAMPLE_F32, 3, 0x5, 4, -4), &c), seed++);
    run_case ((c = case_make (37, 29, 7, 9, 3, 5, b, GCV_SAMPLE_U16, 1, 1, 3, 3), &c), seed++);
    run_case ((c = case_make (30, 20, 6, 3, 7, 1, b, GCV_SAMPLE_U8, 2, 0x3, 1, 1), &c), seed++);
    run_case ((c = case_make (25, 19, 6, 1, 5, 3, b, GCV_SAMPLE_F32, 1, 1, 4, 1), &c), seed++);
    /* kernels larger than the frame */
    run_case ((c = case_make (1, 1, 5, 7, 7, 7, b, GCV_SAMPLE_U16, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (2, 3, 6, 7, 7, 7, b, GCV_SAMPLE_F32, 1, 1, 2, -2), &c), seed++);
    run_case ((c = case_make (3, 2, 4, 9, 9, 3, b, GCV_SAMPLE_U8, 4, 0xf, 4, -3), &c), seed++);
    /* streams shorter than kt */
    run_case ((c = case_make (9, 7, 1, 3, 3, 7, b, GCV_SAMPLE_F32, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (9, 7, 2, 3, 3, 7, b, GCV_SAMPLE_F32, 1, 1, 4, 4), &c), seed++);
    run_case ((c = case_make (8, 5, 3, 5, 3, 9, b, GCV_SAMPLE_U8, 1, 1, 2, -2), &c), seed++);
    /* size 31, on tiny frames */
    run_case ((c = case_make (4, 3, 4, 31, 1, 3, b, GCV_SAMPLE_F32, 1, 1, 2, 2), &c), seed++);
    run_case ((c = case_make (5, 4, 3, 1, 31, 1, b, GCV_SAMPLE_U16, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (3, 3, 5, 1, 1, 31, b, GCV_SAMPLE_F32, 1, 1, 3, -3), &c), seed++);
    if (!quick)
      run_case ((c = case_make (2, 2, 3, 31, 31, 31, b, GCV_SAMPLE_F32, 1, 1, 1, 1), &c), seed++);
  }
  /* a 1x1x1 kernel: the frame scaled */
  run_case ((c = case_make (16, 16, 3, 1, 1, 1, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 1, 1, 2, 2), &c),
      seed++);
  /* channels 1..4 with filter masks: RGBA (alpha copied), RGBx, luma only,
   * NV12-like UV, nothing filtered */
  run_case ((c = case_make (21, 13, 6, 3, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_U8, 4, 0x7, 4,
              -4), &c), seed++);
  run_case ((c = case_make (21, 13, 6, 5, 3, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_F32, 4, 0x6, 2,
              2), &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 5, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 3, 0x2, 1, 1),
          &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 3, 5, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 2, 0x3, 3, 3),
          &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 3, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 2, 0x0, 2, 2),
          &c), seed++);
  /* scale, offset, absolute */
  c = case_make (24, 18, 6, 5, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_U8, 1, 1, 4, -4);
  c.scale = 3.0f;
  c.offset = 20.0f;
  c.absolute = 1;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U16, 2, 0x1, 2, 2);
  c.scale = -0.75f;
  c.offset = 30000.0f;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 3, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 1, 1, 2, -2);
  c.offset = -30000.0f;         /* |v| - 30000: both clamps */
  c.absolute = 1;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 3, 5, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 1, 1, 3, 3);
  c.scale = -0.5f;
  c.offset = 3.0f;
  c.absolute = 1;
  run_case (&c, seed++);
  /* frames large enough for every loop to run on all threads */
  run_case ((c = case_make (320, 240, 6, 5, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4),
          &c), seed++);
  if (!quick) {
    c = case_make (331, 250, 5, 3, 5, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_F32, 2, 0x3, 2, -2);
    c.n_threads = 2;
    run_case (&c, seed++);
    run_case ((c = case_make (640, 480, 4, 3, 3, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 1, 1, 2, 2),
            &c), seed++);
  }
  /* packed rows; other thread counts */
  c = case_make (40, 30, 7, 5, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4);
  c.pad = 0;
  c.n_threads = 1;
  run_case (&c, seed++);
  c = case_make (40, 30, 7, 5, 5, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 3, 0x7, 16, -16);
  c.n_threads = 3;
  run_case (&c, seed++);
}

static int
rand_odd (uint32_t * st, int max)
{
  return 1 + 2 * (int) (gcv_test_rand (st) % (uint32_t) ((max + 1) / 2));
}

static void
test_reference_random (int n_cases)
{
  uint32_t st = 4242;

  for (int i = 0; i < n_cases; i++) {
    Case c;
    int ch = 1 + (int) (gcv_test_rand (&st) % 4);
    int M = 1 + (int) (gcv_test_rand (&st) % 6);
    int big = i % 8 == 7;       /* kernels up to 15 on smaller frames */
    int w = 1 + (int) (gcv_test_rand (&st) % (big ? 24 : 48));
    int h = 1 + (int) (gcv_test_rand (&st) % (big ? 16 : 32));
    int frames = 1 + (int) (gcv_test_rand (&st) % (big ? 18 : 10));
    c = case_make (w, h, frames, rand_odd (&st, big ? 15 : 9), rand_odd (&st, big ? 15 : 9),
        rand_odd (&st, big ? 15 : 7),
        (GcvConv3dBorder) (gcv_test_rand (&st) % 3), (GcvSampleType) (gcv_test_rand (&st) % 3), ch,
        (unsigned) (gcv_test_rand (&st) % (1u << ch)), M,
        gcv_test_rand (&st) % 2 ? M : -M);
    c.pad = (size_t) gcv_sample_bytes (c.type) * (gcv_test_rand (&st) % 9);
    if (gcv_test_rand (&st) % 3 == 0) {
      c.scale = (float) ((int) (gcv_test_rand (&st) % 41) - 20) / 8.0f;
      c.offset = (float) ((int) (gcv_test_rand (&st) % 201) - 100);
      c.absolute = (int) (gcv_test_rand (&st) % 2);
    }
    c.n_threads = (int) (gcv_test_rand (&st) % 4);
    run_case (&c, 1000 + i);
  }
}

/* ---- 3. consistency ------------------------------------------------------------- */

/* One context run over a video; returns the output (frames 0 after a failed check). */
static Conv3dVolume
run_simple (GcvSampleType type, int channels, unsigned mask, const Conv3dVolume * video, int M,
    int batch, const GcvConv3dParams * p, int n_threads, const char *what)
{
  Case c = case_make (video->width, video->height, video->frames, p->kx, p->ky, p->kt, p->border, type,
      channels, mask, M, batch);
  c.n_threads = n_threads;
  return run_algorithm (&c, p, video, 77, what);
}

static int
volumes_identical (const Conv3dVolume * a, const Conv3dVolume * b)
{
  size_t row = (size_t) a->width * a->channels * gcv_sample_bytes (a->type);
  for (int f = 0; f < a->frames; f++)
    for (int y = 0; y < a->height; y++)
      if (memcmp (a->data[f] + a->stride * y, b->data[f] + b->stride * y, row) != 0)
        return 0;
  return 1;
}

static void
test_batches_and_threads (void)
{
  const int w = 45, h = 31, frames = 11;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, 2, w, h, frames, 8, 31);
  float k[7 * 5 * 5];
  double tol;
  char dmsg[512];

  conv3d_test_random_kernel (7, 5, 5, 5, k);
  for (int a = 0; a < N_ALGORITHMS; a++) {
    GcvConv3dParams p = conv3d_test_params (7, 5, 5, GCV_CONV3D_BORDER_MIRROR, all_algorithms[a], k);
    const char *an = gcv_conv3d_algorithm_name (p.algorithm);
    Conv3dVolume one, four, rnd, t1, t2;
    Conv3dDiff d;
    if (!usable (p.algorithm))
      continue;
    tol = conv3d_ref_tolerance (&p, conv3d_ref_vmax (GCV_SAMPLE_F32, video.values,
            (size_t) frames * h * w * 2));
    one = run_simple (GCV_SAMPLE_F32, 2, 0x3, &video, 1, 1, &p, 0, "one at a time");
    four = run_simple (GCV_SAMPLE_F32, 2, 0x3, &video, 4, 4, &p, 0, "batches of 4");
    rnd = run_simple (GCV_SAMPLE_F32, 2, 0x3, &video, 16, -16, &p, 0, "random batches");
    t1 = run_simple (GCV_SAMPLE_F32, 2, 0x3, &video, 4, 4, &p, 1, "1 thread");
    t2 = run_simple (GCV_SAMPLE_F32, 2, 0x3, &video, 4, 4, &p, 2, "2 threads");
    if (one.frames && four.frames && rnd.frames && t1.frames && t2.frames) {
      conv3d_test_compare_volumes (&four, &one, 0x3, tol, &d);
      GCV_TEST_CHECK (d.bad == 0, "%s: batches of 4 differ from one at a time: %s", an,
          conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      conv3d_test_compare_volumes (&rnd, &one, 0x3, tol, &d);
      GCV_TEST_CHECK (d.bad == 0, "%s: random batches differ from one at a time: %s", an,
          conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      if (!is_fft (p.algorithm)) {
        GCV_TEST_CHECK (volumes_identical (&one, &four) && volumes_identical (&one, &rnd),
            "%s: the batch size changes the bits of a direct algorithm", an);
        GCV_TEST_CHECK (volumes_identical (&t1, &four) && volumes_identical (&t2, &four),
            "%s: the thread count changes the bits of a direct algorithm", an);
      } else {
        conv3d_test_compare_volumes (&t1, &four, 0x3, tol, &d);
        GCV_TEST_CHECK (d.bad == 0, "%s: 1 thread differs from all: %s", an,
            conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      }
    }
    conv3d_test_volume_free (&one);
    conv3d_test_volume_free (&four);
    conv3d_test_volume_free (&rnd);
    conv3d_test_volume_free (&t1);
    conv3d_test_volume_free (&t2);
  }
  conv3d_test_volume_free (&video);
}

/* Every direct row kernel the CPU can run (GCV_CONV3D_CPU_KERNEL caps the
 * choice) against the reference, on widths around the row blocks. */
static void
test_row_kernels (void)
{
  static const char *const caps[] = { "generic", "avx2", "avx512" };
  static const int widths[] = { 1, 31, 33, 64, 65, 127, 129, 200 };
  char name[64], dmsg[512];

  for (size_t v = 0; v < 3; v++) {
    setenv ("GCV_CONV3D_CPU_KERNEL", caps[v], 1);
    for (size_t wi = 0; wi < sizeof (widths) / sizeof (widths[0]); wi++) {
      const int w = widths[wi], h = 5, frames = 4;
      Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, 1, w, h, frames, 4, 50 + (uint32_t) wi);
      double *ref = gcv_test_malloc (sizeof (double) * w * h * frames);
      float k[9 * 3 * 3];
      GcvConv3dParams p = conv3d_test_params (9, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_CONV3D_SHARED, k);
      Conv3dVolume out;
      Conv3dDiff d;

      conv3d_test_random_kernel (9, 3, 3, 60 + (uint32_t) wi, k);
      conv3d_ref_convolve (video.values, w, h, 1, frames, 1, &p, ref);
      snprintf (name, sizeof (name), "row kernel %s, width %d", caps[v], w);
      out = run_simple (GCV_SAMPLE_F32, 1, 1, &video, 2, 2, &p, 0, name);
      if (out.frames) {
        conv3d_test_compare (&out, ref, 1, conv3d_ref_tolerance (&p, conv3d_ref_vmax (GCV_SAMPLE_F32,
                    video.values, (size_t) w * h * frames)), &d);
        GCV_TEST_CHECK (d.bad == 0, "%s: %s", name, conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      }
      conv3d_test_volume_free (&out);
      conv3d_test_volume_free (&video);
      free (ref);
    }
  }
  unsetenv ("GCV_CONV3D_CPU_KERNEL");
}

/* Reset mid-stream (some outputs taken, more ready) and after the end:
 * the next stream gives what a fresh context gives. */
static void
test_reset (void)
{
  const int w = 26, h = 19, frames = 9;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_U16, 1, w, h, frames, 2, 71);
  Conv3dVolume other = conv3d_test_video (GCV_SAMPLE_U16, 1, w, h, frames, 2, 72);
  float k[5 * 5 * 5];

  conv3d_test_random_kernel (5, 5, 5, 9, k);
  for (int a = 0; a < N_ALGORITHMS; a++) {
    GcvConv3dParams p = conv3d_test_params (5, 5, 5, GCV_CONV3D_BORDER_MIRROR, all_algorithms[a], k);
    GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_U16, 1, 1, w, h, 2);
    const char *an = gcv_conv3d_algorithm_name (p.algorithm);
    Conv3dVolume fresh, out = conv3d_test_volume_new (GCV_SAMPLE_U16, 1, w, h, frames, 0, 5);
    Conv3dVolume scratch = conv3d_test_volume_new (GCV_SAMPLE_U16, 1, w, h, frames, 0, 6);
    GcvConv3dCpu *ctx;
    GcvError err;
    Conv3dBackend b;
    char msg[768];

    if (!usable (p.algorithm)) {
      conv3d_test_volume_free (&out);
      conv3d_test_volume_free (&scratch);
      continue;
    }
    p.scale = (float) (1.0 / conv3d_test_abs_sum (k, 125));
    p.offset = 1000.0f;
    fresh = run_simple (GCV_SAMPLE_U16, 1, 1, &video, 2, 2, &p, 0, "fresh");
    ctx = gcv_conv3d_cpu_new (&g, &p, 0, &err);
    GCV_TEST_CHECK (ctx != NULL, "%s reset: _new: %s", an, err.message);
    if (ctx && fresh.frames) {
      GcvPlane o = conv3d_test_plane (&scratch, 0);
      b = conv3d_test_cpu_backend (ctx);
      /* another stream, partly processed, then a flush */
      for (int f = 0; f < 4; f++) {
        GcvPlane in = conv3d_test_plane (&other, f);
        gcv_conv3d_cpu_push (ctx, &in, &err);
      }
      GCV_TEST_CHECK (gcv_conv3d_cpu_process (ctx, &p, 1, &o, &err) == GCV_OK, "%s: process: %s", an,
          err.message);
      gcv_conv3d_cpu_reset (ctx);
      GCV_TEST_CHECK (gcv_conv3d_cpu_ready (ctx) == 0, "%s: %d ready after reset", an,
          gcv_conv3d_cpu_ready (ctx));
      if (conv3d_test_run (&b, &video, &p, 5, 2, &out, msg, sizeof (msg)) != 0)
        GCV_TEST_CHECK (0, "%s after a reset mid-stream: %s", an, msg);
      else
        GCV_TEST_CHECK (volumes_identical (&out, &fresh), "%s: output after a reset mid-stream differs "
            "from a fresh context's", an);
      /* after the end: a whole new stream */
      gcv_conv3d_cpu_reset (ctx);
      if (conv3d_test_run (&b, &video, &p, 5, 2, &out, msg, sizeof (msg)) != 0)
        GCV_TEST_CHECK (0, "%s after a reset at the end: %s", an, msg);
      else
        GCV_TEST_CHECK (volumes_identical (&out, &fresh), "%s: output after a reset at the end differs "
            "from a fresh context's", an);
    }
    gcv_conv3d_cpu_free (ctx);
    conv3d_test_volume_free (&fresh);
    conv3d_test_volume_free (&out);
    conv3d_test_volume_free (&scratch);
  }
  conv3d_test_volume_free (&video);
  conv3d_test_volume_free (&other);
}

/* Coefficients changed between _process calls: output t takes kernel
 * A or B after a pattern (single outputs and a batch of 3), each checked
 * against the reference of its own kernel. */
static void
test_coefficient_change (void)
{
  const int w = 33, h = 21, frames = 12, kx = 5, ky = 3, kt = 5, n = kx * ky * kt;
  /* the kernel of each output (0 = A, 1 = B) and the batch sizes */
  static const int which[12] = { 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0 };
  static const int batches[] = { 1, 1, 1, 3, 1, 1, 1, 1, 2 };
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, 1, w, h, frames, 4, 91);
  double *ref[2];
  float ka[5 * 3 * 5], kb[5 * 3 * 5], kcur[5 * 3 * 5];
  char dmsg[512];

  conv3d_test_random_kernel (kx, ky, kt, 1, ka);
  conv3d_test_random_kernel (kx, ky, kt, 2, kb);
  for (int i = 0; i < n; i++)
    kb[i] *= 3.0f;              /* a different size too: a stale spectrum shows */
  for (int r = 0; r < 2; r++) {
    GcvConv3dParams p = conv3d_test_params (kx, ky, kt, GCV_CONV3D_BORDER_REPLICATE, GCV_CONV3D_SHARED,
        r ? kb : ka);
    ref[r] = gcv_test_malloc (sizeof (double) * w * h * frames);
    conv3d_ref_convolve (video.values, w, h, 1, frames, 1, &p, ref[r]);
  }
  for (int a = 0; a < N_ALGORITHMS; a++) {
    GcvConv3dParams p = conv3d_test_params (kx, ky, kt, GCV_CONV3D_BORDER_REPLICATE, all_algorithms[a],
        ka);
    GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_F32, 1, 1, w, h, 4);
    const char *an = gcv_conv3d_algorithm_name (p.algorithm);
    double vmax = conv3d_ref_vmax (GCV_SAMPLE_F32, video.values, (size_t) w * h * frames);
    GcvConv3dCpu *ctx;
    GcvError err;
    Conv3dVolume out;
    int pushed = 0, done = 0, bi = 0;

    if (!usable (p.algorithm))
      continue;
    ctx = gcv_conv3d_cpu_new (&g, &p, 0, &err);
    GCV_TEST_CHECK (ctx != NULL, "%s coefficient change: _new: %s", an, err.message);
    if (!ctx)
      continue;
    out = conv3d_test_volume_new (GCV_SAMPLE_F32, 1, w, h, frames, 0, 3);
    while (done < frames) {
      int nb = batches[bi % (int) (sizeof (batches) / sizeof (batches[0]))];
      if (nb > frames - done)
        nb = frames - done;
      while (gcv_conv3d_cpu_ready (ctx) < nb && pushed < frames) {
        GcvPlane in = conv3d_test_plane (&video, pushed++);
        gcv_conv3d_cpu_push (ctx, &in, &err);
      }
      if (pushed == frames)
        gcv_conv3d_cpu_end (ctx);
      {
        GcvPlane o[4];
        /* a batch takes the kernel of its first output; a fresh copy
         * each time, so the backend cannot rely on the pointer */
        memcpy (kcur, which[done] ? kb : ka, sizeof (kcur));
        p.coefficients = kcur;
        for (int i = 0; i < nb; i++)
          o[i] = conv3d_test_plane (&out, done + i);
        if (gcv_conv3d_cpu_process (ctx, &p, nb, o, &err) != GCV_OK) {
          GCV_TEST_CHECK (0, "%s coefficient change: process: %s", an, err.message);
          break;
        }
        for (int i = 0; i < nb; i++) {
          Conv3dVolume one = out;
          Conv3dDiff d;
          int r = which[done];
          GcvConv3dParams pr = p;
          pr.coefficients = r ? kb : ka;
          one.frames = 1;
          one.data = &out.data[done + i];
          conv3d_test_compare (&one, ref[r] + (size_t) (done + i) * w * h, 1,
              conv3d_ref_tolerance (&pr, vmax), &d);
          GCV_TEST_CHECK (d.bad == 0, "%s: output %d after a change to kernel %c: %s", an, done + i,
              r ? 'B' : 'A', conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
        }
        done += nb;
        bi++;
      }
    }
    gcv_conv3d_cpu_free (ctx);
    conv3d_test_volume_free (&out);
  }
  free (ref[0]);
  free (ref[1]);
  conv3d_test_volume_free (&video);
}

/* ---- 4. rounding and clamping ------------------------------------------------------ */

static void
test_rounding (void)
{
  const int w = 64, h = 4, frames = 3;
  float one = 1.0f;
  static const struct {
    GcvSampleType type;
    float scale, offset;
    int absolute;
  } cases[] = {
    {GCV_SAMPLE_U8, 0.5f, 0.0f, 0},   /* ties: half to even */
    {GCV_SAMPLE_U8, 0.5f, 0.25f, 0},
    {GCV_SAMPLE_U8, 3.0f, 0.0f, 0},   /* clamps at 255 */
    {GCV_SAMPLE_U8, 1.0f, -100.5f, 0},        /* clamps at 0, ties below */
    {GCV_SAMPLE_U8, -1.0f, 0.0f, 0},  /* all negative: 0 */
    {GCV_SAMPLE_U8, -1.0f, -100.0f, 1},       /* |v| first, then the offset */
    {GCV_SAMPLE_U16, 0.5f, 0.0f, 0},
    {GCV_SAMPLE_U16, 300.0f, 0.0f, 0},        /* clamps at 65535 */
    {GCV_SAMPLE_U16, -2.0f, 40000.5f, 0},
  };

  for (size_t ci = 0; ci < sizeof (cases) / sizeof (cases[0]); ci++) {
    GcvSampleType type = cases[ci].type;
    Conv3dVolume in = conv3d_test_volume_new (type, 1, w, h, frames, 0, 1);
    for (int f = 0; f < frames; f++)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int v = x * 4 + y + f;
          if (type == GCV_SAMPLE_U8)
            in.data[f][in.stride * y + x] = (uint8_t) v;
          else
            ((uint16_t *) (void *) (in.data[f] + in.stride * y))[x] = (uint16_t) (v * 257 + x);
        }
    for (int a = 0; a < N_ALGORITHMS; a++) {
      GcvConv3dParams p = conv3d_test_params (1, 1, 1, GCV_CONV3D_BORDER_ZERO, all_algorithms[a], &one);
      Conv3dVolume out;
      long wrong = 0, far = 0;
      int first = -1;
      if (!usable (p.algorithm))
        continue;
      p.scale = cases[ci].scale;
      p.offset = cases[ci].offset;
      p.absolute = cases[ci].absolute;
      out = run_simple (type, 1, 1, &in, 1, 1, &p, 0, "rounding");
      for (int f = 0; f < out.frames; f++)
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            double v = conv3d_test_get (&in, f, x, y, 0) * (double) p.scale;
            double want, got = conv3d_test_get (&out, f, x, y, 0);
            if (p.absolute)
              v = fabs (v);
            want = conv3d_ref_quantise (v + p.offset, type);
            if (got != want) {
              wrong++;
              if (first < 0)
                first = x;
            }
            if (fabs (got - want) > 1)
              far++;
          }
      if (is_fft (p.algorithm))       /* an FFT's rounding may tip a tie */
        GCV_TEST_CHECK (far == 0, "%s %s: scale %g offset %g%s: %ld outputs more than a level off",
            gcv_conv3d_algorithm_name (p.algorithm), type_names[type], p.scale, p.offset,
            p.absolute ? " absolute" : "", far);
      else
        GCV_TEST_CHECK (wrong == 0, "%s %s: scale %g offset %g%s: %ld outputs not rounded half to "
            "even and clamped (first at x %d)", gcv_conv3d_algorithm_name (p.algorithm),
            type_names[type], p.scale, p.offset, p.absolute ? " absolute" : "", wrong, first);
      conv3d_test_volume_free (&out);
    }
    conv3d_test_volume_free (&in);
  }
}

/* ---- 5. errors ----------------------------------------------------------------------- */

static void
expect_new_refused (const GcvConv3dGeometry * g, const GcvConv3dParams * p, const char *needle,
    const char *what)
{
  GcvError err;
  GcvConv3dCpu *ctx;

  memset (&err, 0, sizeof (err));
  ctx = gcv_conv3d_cpu_new (g, p, 0, &err);
  GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID && strstr (err.message, needle),
      "_new with %s: %s (status %d, message \"%s\", want one naming \"%s\")", what,
      ctx ? "accepted" : "refused", err.status, err.message, needle);
  gcv_conv3d_cpu_free (ctx);
}

static void
expect_invalid (GcvStatus st, const GcvError * err, const char *needle, const char *what)
{
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && err->status == GCV_ERROR_INVALID
      && strstr (err->message, needle), "%s: status %d, message \"%s\" (want GCV_ERROR_INVALID naming "
      "\"%s\")", what, st, err->message, needle);
}

static void
test_errors (void)
{
  float k[5 * 5 * 5];
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_U16, 2, 0x3, 20, 10, 2), gb;
  GcvConv3dParams p = conv3d_test_params (5, 5, 5, GCV_CONV3D_BORDER_ZERO, GCV_CONV3D_SHARED, k), pb;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_U16, 2, 20, 10, 8, 4, 3);
  Conv3dVolume out = conv3d_test_volume_new (GCV_SAMPLE_U16, 2, 20, 10, 4, 4, 4);
  GcvConv3dCpu *ctx;
  GcvError err;
  GcvPlane in, o[3], bad;
  uint8_t *odd;
  char what[128];

  conv3d_test_random_kernel (5, 5, 5, 3, k);

  /* sizes: even, 0, too large, in every dimension */
  for (int d = 0; d < 3; d++) {
    static const int bad_sizes[] = { 4, 0, 33, -1 };
    for (int s = 0; s < 4; s++) {
      char dims[32];
      pb = p;
      *(d == 0 ? &pb.kx : d == 1 ? &pb.ky : &pb.kt) = bad_sizes[s];
      snprintf (dims, sizeof (dims), "%dx%dx%d", pb.kx, pb.ky, pb.kt);
      snprintf (what, sizeof (what), "kernel %s", dims);
      expect_new_refused (&g, &pb, dims, what);
    }
  }
  pb = p;
  pb.coefficients = NULL;
  expect_new_refused (&g, &pb, "coefficients", "no coefficients");
  pb = p;
  k[7] = NAN;
  expect_new_refused (&g, &pb, "coefficient 7", "a NaN coefficient");
  conv3d_test_random_kernel (5, 5, 5, 3, k);
  pb = p;
  pb.border = (GcvConv3dBorder) 3;
  expect_new_refused (&g, &pb, "border", "border 3");
  pb = p;
  pb.algorithm = GCV_CONV3D_AUTO;
  expect_new_refused (&g, &pb, "auto", "algorithm auto");
  pb = p;
  pb.algorithm = GCV_CONV3D_N_ALGORITHMS;
  expect_new_refused (&g, &pb, "algorithm", "an unknown algorithm");
  pb = p;
  pb.scale = INFINITY;
  expect_new_refused (&g, &pb, "scale", "an infinite scale");
  gb = g;
  gb.channels = 0;
  expect_new_refused (&gb, &p, "channels", "0 channels");
  gb = g;
  gb.channels = 5;
  expect_new_refused (&gb, &p, "channels", "5 channels");
  gb = g;
  gb.filter_mask = 0x4;
  expect_new_refused (&gb, &p, "mask", "a mask naming channel 2 of 2");
  gb = g;
  gb.width = 0;
  expect_new_refused (&gb, &p, "0x10", "width 0");
  gb = g;
  gb.max_outputs = 0;
  expect_new_refused (&gb, &p, "max_outputs", "max_outputs 0");
  gb = g;
  gb.max_outputs = GCV_CONV3D_MAX_OUTPUTS + 1;
  expect_new_refused (&gb, &p, "max_outputs", "max_outputs 17");
  expect_new_refused (&g, NULL, "parameters", "no parameters");
  expect_new_refused (NULL, &p, "geometry", "no geometry");
  for (int a = GCV_CONV3D_FFT3D; a <= GCV_CONV3D_FFT_HYBRID; a++) {
    pb = p;
    pb.algorithm = (GcvConv3dAlgorithm) a;
    if (have_fft) {
      ctx = gcv_conv3d_cpu_new (&g, &pb, 0, &err);
      GCV_TEST_CHECK (ctx != NULL, "%s refused although FFTW is there: %s",
          gcv_conv3d_algorithm_name (pb.algorithm), err.message);
      gcv_conv3d_cpu_free (ctx);
    } else {
      expect_new_refused (&g, &pb, "built without FFTW", gcv_conv3d_algorithm_name (pb.algorithm));
    }
  }

  /* the ring: kt 5, max_outputs 2 -> 6 slots; output t needs frame t + 2 */
  memset (&err, 0, sizeof (err));
  ctx = gcv_conv3d_cpu_new (&g, &p, 0, &err);
  GCV_TEST_CHECK (ctx != NULL, "errors: _new: %s", err.message);
  if (ctx) {
    GcvStatus st;
    for (int i = 0; i < 3; i++)
      o[i] = conv3d_test_plane (&out, i);
    for (int f = 0; f < 2; f++) {
      in = conv3d_test_plane (&video, f);
      GCV_TEST_CHECK (gcv_conv3d_cpu_push (ctx, &in, &err) == GCV_OK, "push %d: %s", f, err.message);
    }
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, o, &err);
    expect_invalid (st, &err, "ready", "processing 1 output with 0 ready");
    /* six frames fill the ring (no output taken, none overwritten) */
    for (int f = 2; f < 6; f++) {
      in = conv3d_test_plane (&video, f);
      GCV_TEST_CHECK (gcv_conv3d_cpu_push (ctx, &in, &err) == GCV_OK, "push %d: %s", f, err.message);
    }
    GCV_TEST_CHECK (gcv_conv3d_cpu_ready (ctx) == 4, "6 frames, kt 5: %d ready, want 4",
        gcv_conv3d_cpu_ready (ctx));
    in = conv3d_test_plane (&video, 6);
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, &in, &err);
    expect_invalid (st, &err, "full", "a push into a full ring");
    GCV_TEST_CHECK (gcv_conv3d_cpu_ready (ctx) == 4, "a refused push changed ready to %d",
        gcv_conv3d_cpu_ready (ctx));
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 3, o, &err);
    expect_invalid (st, &err, "at most 2", "processing 3 outputs with max_outputs 2");
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 0, o, &err);
    expect_invalid (st, &err, "outputs", "processing 0 outputs");
    /* planes */
    bad = o[0];
    bad.width = 19;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, &bad, &err);
    expect_invalid (st, &err, "19x10", "an output plane 19x10");
    bad = o[0];
    bad.stride = 20 * 2 * 2 - 2;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, &bad, &err);
    expect_invalid (st, &err, "stride", "an output stride of 78 bytes for 80");
    odd = gcv_test_malloc (out.stride * 10 + 1);
    bad = o[0];
    bad.data = odd + 1;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, &bad, &err);
    expect_invalid (st, &err, "align", "an output plane at an odd address (U16)");
    bad.data = NULL;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, &bad, &err);
    expect_invalid (st, &err, "output", "no output data");
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &p, 1, NULL, &err);
    expect_invalid (st, &err, "output", "no output planes");
    /* parameters that _new fixed */
    pb = p;
    pb.border = GCV_CONV3D_BORDER_MIRROR;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &pb, 1, o, &err);
    expect_invalid (st, &err, "mirror", "process with another border");
    pb = p;
    pb.algorithm = GCV_CONV3D_BASELINE;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &pb, 1, o, &err);
    expect_invalid (st, &err, "baseline", "process with another algorithm");
    pb = p;
    pb.coefficients = NULL;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_process (ctx, &pb, 1, o, &err);
    expect_invalid (st, &err, "coefficients", "process without coefficients");
    GCV_TEST_CHECK (gcv_conv3d_cpu_ready (ctx) == 4, "refused processes changed ready to %d",
        gcv_conv3d_cpu_ready (ctx));
    /* input planes, into a ring with room: outputs 0 .. 3 taken */
    for (int i = 0; i < 2; i++)
      GCV_TEST_CHECK (gcv_conv3d_cpu_process (ctx, &p, 2, o, &err) == GCV_OK, "process 2: %s",
          err.message);
    bad = conv3d_test_plane (&video, 6);
    bad.height = 11;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, &bad, &err);
    expect_invalid (st, &err, "20x11", "an input plane 20x11");
    bad = conv3d_test_plane (&video, 6);
    bad.data = odd + 1;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, &bad, &err);
    expect_invalid (st, &err, "align", "an input plane at an odd address (U16)");
    bad = conv3d_test_plane (&video, 6);
    bad.stride = 3;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, &bad, &err);
    expect_invalid (st, &err, "stride", "an input stride of 3 bytes");
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, NULL, &err);
    expect_invalid (st, &err, "input", "no input plane");
    /* after the end */
    gcv_conv3d_cpu_end (ctx);
    in = conv3d_test_plane (&video, 6);
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cpu_push (ctx, &in, &err);
    expect_invalid (st, &err, "end", "a push after _end()");
    GCV_TEST_CHECK (gcv_conv3d_cpu_ready (ctx) == 2, "after _end() of 6 frames with 4 done: %d ready, "
        "want 2", gcv_conv3d_cpu_ready (ctx));
    free (odd);
  }
  gcv_conv3d_cpu_free (ctx);
  gcv_conv3d_cpu_free (NULL);
  conv3d_test_volume_free (&video);
  conv3d_test_volume_free (&out);
}

int
main (void)
{
  double t0 = gcv_test_now_s (), t;

  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  have_fft = gcv_conv3d_cpu_have_fft ();
  printf ("conv3d CPU backend: FFTW %s%s\n", have_fft ? "yes" : "no (fft3d, fft-hybrid not tested)",
      quick ? ", quick" : "");

  test_border_index ();
  test_kernel_build ();
  test_kernel_normalize ();
  test_kernel_parse ();
  test_timeline ();
  printf ("shared code: %.1f s\n", gcv_test_now_s () - t0);

  t = gcv_test_now_s ();
  test_reference_fixed ();
  printf ("fixed cases against the reference: %.1f s\n", gcv_test_now_s () - t);
  t = gcv_test_now_s ();
  test_reference_random (quick ? 24 : 240);
  printf ("random cases against the reference: %.1f s\n", gcv_test_now_s () - t);
  printf ("largest F32 error against the reference: %.3g of the tolerance\n", worst_f32_ratio);

  t = gcv_test_now_s ();
  test_batches_and_threads ();
  test_row_kernels ();
  test_reset ();
  test_coefficient_change ();
  test_rounding ();
  test_errors ();
  printf ("consistency, rounding, errors: %.1f s\n", gcv_test_now_s () - t);
  return gcv_test_summary (t0);
}
