/* gst-cuda-video: the CUDA B-spline scaler (kernels/bsplinescale.cu) must
 * equal the CPU one (cpu/bsplinescale.c, itself checked against SciPy and a
 * float64 reference by bsplinescale_algo_test.c) bit for bit.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Covers:
 *  - every method x antialias x U8 / U16 / F32 x 1..4 channels on 1x1 ->
 *    7x5, 7x5 -> 1x1, 1x1 -> 1x1, 17x9 -> 5x23, 33x65 -> 100x7, 2x3 ->
 *    1x40, 300x2 -> 1x500, 256x256 -> 512x512, 641x481 -> 1283x963,
 *    1920x1080 -> 1280x720, 176x144 -> 1232x1008, 1920x1080 -> 7x5 (long
 *    antialias filters): memcmp against the CPU output; one context per
 *    geometry, type and channel count, so the FIR tables are rebuilt and
 *    re-uploaded at every parameter change;
 *  - device planes from cudaMallocPitch and linear ones with odd strides
 *    and garbage (NaN for F32) in the input padding; the output padding
 *    must stay untouched;
 *  - F32 against the SciPy fixtures (tests/fixtures/scipy-bspline/) to 1e-4
 *    of the data range, and bit-identical to the CPU there too;
 *  - parameters changing between frames on one context (and back), the
 *    same parameters twice, other planes on the same context;
 *  - the sizes and the parameter changes again with each kernel path
 *    forced (GCV_BSPLINE_CUDA_PATH=separate, =fused: the four kernels per
 *    plane and the small-frame prefilter_tile + fir_tile, whichever the
 *    size would choose), so both are held to the CPU at every size; the
 *    small-frame kernels run as a CUDA graph by default and are run once
 *    more launched one by one (GCV_BSPLINE_CUDA_GRAPH=0);
 *  - argument checks of _new and _process, and of GCV_BSPLINE_CUDA_PATH.
 * GCV_TEST_QUICK=1 (for compute-sanitizer): the small sizes and 256x256 ->
 * 512x512 only (all of them fused sizes), still every method, type and
 * channel count, then the separate path forced, every method, antialias
 * and type once per size.
 * (On an H100 the full run takes seconds, most of it the CPU side.)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplinescale_common.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;

/* ---- host planes ---------------------------------------------------------- */

static GcvPlane
host_new (GcvSampleType type, int C, int w, int h, size_t pad)
{
  GcvPlane p;
  p.width = w;
  p.height = h;
  p.stride = (size_t) w * C * (size_t) gcv_sample_bytes (type) + pad;
  p.data = gcv_test_malloc (p.stride * h);
  return p;
}

static void
host_put (GcvPlane * p, GcvSampleType type, int C, int x, int y, int c, double v)
{
  gcv_test_sample_put ((uint8_t *) p->data + (size_t) y * p->stride, type, (size_t) x * C + c, v);
}

static double
host_get (const GcvPlane * p, GcvSampleType type, int C, int x, int y, int c)
{
  return gcv_test_sample_get ((const uint8_t *) p->data + (size_t) y * p->stride, type, (size_t) x * C + c);
}

/* A photo tile (channel 3: another part of the photo), noise in a corner
 * block so that clamping and overshoot occur; U16 v * 257 + d, F32
 * (v - 100) / 50 + d / 12800 with d pseudo-random in [-128, 128].  The
 * padding holds garbage, NaN / FLT_MAX words for F32. */
static GcvPlane
make_input (GcvSampleType type, int C, int w, int h, int variant, size_t pad, uint32_t seed)
{
  GcvPlane p = host_new (type, C, w, h, pad);
  uint32_t st = seed * 2654435761u + 7u;
  int ph = variant % 4;
  garbage_fill (&p, type, C, &st);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < C; c++) {
        int v;
        double d = (double) (gcv_test_rand (&st) % 257u) - 128.0;
        if (x < 12 && y < 12)
          v = (int) (gcv_test_rand (&st) >> 24);
        else if (c == 3)
          v = 255 - photo_sample ((ph + 1) % 4, 3 * x + 17, y + 31, 1);
        else
          v = photo_sample (ph, x + 29 * variant, y + 13 * variant, c);
        if (type == GCV_SAMPLE_U8)
          host_put (&p, type, C, x, y, c, v);
        else if (type == GCV_SAMPLE_U16)
          host_put (&p, type, C, x, y, c, v * 257.0 + d);
        else
          host_put (&p, type, C, x, y, c, (v - 100) / 50.0 + d / 12800.0);
      }
  return p;
}

/* ---- device planes -------------------------------------------------------- */

/* A device copy of a host plane (gcv_test_device_upload): pitched from
 * cudaMallocPitch, padding 0xcd; else the host stride and padding garbage. */
static int
dev_in_new (const GcvPlane * host, size_t row_bytes, int pitched, GcvPlane * dev)
{
  return gcv_test_device_upload (host, row_bytes, pitched, stream, dev, "device input");
}

static int
dev_out_new (int w, int h, size_t row_bytes, int pitched, size_t pad, GcvPlane * dev)
{
  return gcv_test_device_alloc (w, h, row_bytes, pitched, pad, dev, "device output");
}

/* CPU result (n_threads 0), packed rows. */
static int
cpu_expect (const GcvScaleGeometry * g, const GcvScaleParams * p, const GcvPlane * host_in, GcvPlane * expect)
{
  GcvError err;
  GcvScaleCpu *cpu;
  GcvStatus st;
  memset (&err, 0, sizeof (err));
  *expect = host_new (g->type, g->channels, g->out_width, g->out_height, 0);
  cpu = gcv_scale_cpu_new (g, &err);
  if (cpu == NULL) {
    gcv_test_fail ("cpu_new: %s", err.message);
    return -1;
  }
  st = gcv_scale_cpu_process (cpu, p, host_in, expect, 0, &err);
  gcv_scale_cpu_free (cpu);
  if (st != GCV_OK) {
    gcv_test_fail ("cpu_process: %s", err.message);
    return -1;
  }
  return 0;
}

/* Runs ctx on dev_in -> dev_out (output prefilled with 0xa5), downloads it
 * into got (dev_out->stride per row), checks the padding.  0 on success. */
static int
cuda_run (GcvScaleCuda * ctx, const GcvScaleGeometry * g, const GcvScaleParams * p, const GcvPlane * dev_in,
    GcvPlane * dev_out, uint8_t * got, const char *what)
{
  GcvError err;
  size_t row = (size_t) g->out_width * g->channels * (size_t) gcv_sample_bytes (g->type);
  memset (&err, 0, sizeof (err));
  if (gcv_cuda_memset_2d (dev_out->data, dev_out->stride, 0xa5, dev_out->stride, dev_out->height, stream, &err)
      != GCV_OK || gcv_scale_cuda_process (ctx, p, dev_in, dev_out, stream, &err) != GCV_OK
      || gcv_cuda_download_2d (got, dev_out->stride, dev_out->data, dev_out->stride, dev_out->stride,
          dev_out->height, stream, &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
    gcv_test_fail ("CUDA %s: %s", what, err.message);
    return -1;
  }
  for (int y = 0; y < dev_out->height; y++)
    for (size_t b = row; b < dev_out->stride; b++)
      if (got[(size_t) y * dev_out->stride + b] != 0xa5) {
        gcv_test_fail ("CUDA %s: output padding byte %zu of row %d (stride %zu) overwritten", what, b, y,
            dev_out->stride);
        return -1;
      }
  return 0;
}

/* memcmp of got (stride) against expect (packed); reports the first
 * differing sample. */
static long
compare_bits (const GcvScaleGeometry * g, const uint8_t * got, size_t got_stride, const GcvPlane * expect,
    const char *what)
{
  int C = g->channels;
  size_t sb = (size_t) gcv_sample_bytes (g->type);
  long n = 0;
  int fx = -1, fy = -1, fc = 0;
  for (int y = 0; y < g->out_height; y++) {
    const uint8_t *a = got + (size_t) y * got_stride, *b = (const uint8_t *) expect->data + (size_t) y * expect->stride;
    if (memcmp (a, b, (size_t) g->out_width * C * sb) == 0)
      continue;
    for (int i = 0; i < g->out_width * C; i++)
      if (memcmp (a + i * sb, b + i * sb, sb) != 0) {
        if (n == 0) {
          fx = i / C;
          fy = y;
          fc = i % C;
        }
        n++;
      }
  }
  gcv_test_checks++;
  if (n) {
    GcvPlane gp = { (void *) got, g->out_width, g->out_height, got_stride };
    gcv_test_fail ("CUDA vs CPU: %s: %ld of %d samples differ; first at (x=%d, y=%d, c=%d): got %.9g, CPU %.9g",
        what, n, g->out_width * g->out_height * C, fx, fy, fc, host_get (&gp, g->type, C, fx, fy, fc),
        host_get (expect, g->type, C, fx, fy, fc));
  }
  return n;
}

/* ---- CUDA vs CPU over sizes ------------------------------------------------ */

typedef struct {
  int iw, ih, ow, oh;
  int large;
} SizeCase;

static const SizeCase size_cases[] = {
  {1, 1, 7, 5, 0}, {7, 5, 1, 1, 0}, {1, 1, 1, 1, 0}, {17, 9, 5, 23, 0}, {33, 65, 100, 7, 0}, {2, 3, 1, 40, 0},
  {300, 2, 1, 500, 0}, {256, 256, 512, 512, 1}, {641, 481, 1283, 963, 1}, {1920, 1080, 1280, 720, 1},
  {176, 144, 1232, 1008, 1}, {1920, 1080, 7, 5, 1},
};

/* thin: at every size, as quick does for the large ones */
static void
test_sizes (int quick, int thin)
{
  long runs = 0, combo = 0;
  double t0 = gcv_test_now_s ();
  for (size_t k = 0; k < sizeof (size_cases) / sizeof (size_cases[0]); k++) {
    const SizeCase *z = &size_cases[k];
    if (quick && z->large && z->iw != 256)
      continue;
    for (int t = 0; t < 3; t++)
      for (int C = 1; C <= 4; C++) {
        GcvSampleType type = (GcvSampleType) t;
        GcvScaleGeometry g = geom_make (type, C, z->iw, z->ih, z->ow, z->oh);
        size_t sb = (size_t) gcv_sample_bytes (type), in_row = (size_t) z->iw * C * sb, out_row = (size_t) z->ow * C * sb;
        int pitched = (int) ((k + t + C) & 1);
        /* linear planes: odd strides for U8, whole samples otherwise */
        size_t in_pad = sb == 1 ? 3 + 2 * (size_t) C : sb * (5 + C), out_pad = sb == 1 ? 1 + (size_t) C : sb * 3;
        GcvPlane host = make_input (type, C, z->iw, z->ih, (int) k + C, in_pad, (uint32_t) (k * 100 + t * 10 + C));
        GcvPlane din, dout;
        GcvScaleCuda *ctx;
        GcvError err;
        uint8_t *got = NULL;
        int any = 0;

        /* quick: large sizes get every method x antialias x type once,
         * channels rotating */
        const int rotate = thin || (quick && z->large);
        for (int m = 0; m < 4; m++)
          for (int aa = 0; aa < 2; aa++)
            any |= !rotate || (int) ((k + t + m + aa) % 4) + 1 == C;
        if (!any) {
          free (host.data);
          continue;
        }
        memset (&err, 0, sizeof (err));
        ctx = gcv_scale_cuda_new (&g, &err);
        GCV_TEST_CHECK (ctx != NULL, "cuda_new(%s x %d, %dx%d -> %dx%d): %s", type_names[t], C, z->iw, z->ih, z->ow,
            z->oh, err.message);
        if (ctx && dev_in_new (&host, in_row, pitched, &din) == 0) {
          if (dev_out_new (z->ow, z->oh, out_row, !pitched, out_pad, &dout) == 0) {
            got = gcv_test_malloc (dout.stride * z->oh);
            for (int m = 0; m < 4; m++)
              for (int aa = 0; aa < 2; aa++, combo++) {
                GcvScaleParams p = params_make ((GcvScaleMethod) m, aa);
                GcvPlane expect;
                char what[300];
                if (rotate && (int) ((k + t + m + aa) % 4) + 1 != C)
                  continue;
                snprintf (what, sizeof (what), "%dx%d -> %dx%d, %s antialias %d, %s x %d, strides %zu -> %zu",
                    z->iw, z->ih, z->ow, z->oh, method_names[m], aa, type_names[t], C, din.stride, dout.stride);
                if (cpu_expect (&g, &p, &host, &expect) == 0) {
                  if (cuda_run (ctx, &g, &p, &din, &dout, got, what) == 0)
                    compare_bits (&g, got, dout.stride, &expect, what);
                  runs++;
                }
                free (expect.data);
              }
            free (got);
            gcv_cuda_free (dout.data);
          }
          gcv_cuda_free (din.data);
        }
        gcv_scale_cuda_free (ctx);
        free (host.data);
      }
    printf ("  %dx%d -> %dx%d done (%ld runs so far, %.1f s, %ld failures)\n", z->iw, z->ih, z->ow, z->oh, runs,
        gcv_test_now_s () - t0, gcv_test_failures);
  }
  (void) combo;
}

/* ---- parameters changing on one context ------------------------------------------- */

static void
test_param_changes (void)
{
  static const int seq[][2] = {
    {0, 1}, {0, 1}, {2, 1}, {0, 0}, {1, 1}, {3, 0}, {3, 1}, {0, 1}, {1, 0}, {2, 0}, {2, 0}, {0, 1},
  };
  for (int t = 0; t < 3; t++) {
    GcvSampleType type = (GcvSampleType) t;
    int C = t == 0 ? 4 : t == 1 ? 2 : 1;
    /* downscale in x, upscale in y: antialias changes the x table only */
    GcvScaleGeometry g = geom_make (type, C, 150, 90, 61, 200);
    size_t sb = (size_t) gcv_sample_bytes (type);
    GcvPlane host[2], din[2], dout;
    GcvScaleCuda *ctx;
    GcvError err;
    uint8_t *got;
    int ok = 1;
    memset (&err, 0, sizeof (err));
    ctx = gcv_scale_cuda_new (&g, &err);
    GCV_TEST_CHECK (ctx != NULL, "cuda_new: %s", err.message);
    if (ctx == NULL)
      continue;
    for (int i = 0; i < 2; i++) {
      host[i] = make_input (type, C, 150, 90, 5 + i, sb * 8, (uint32_t) (900 + i));
      ok &= dev_in_new (&host[i], (size_t) 150 * C * sb, i, &din[i]) == 0;
    }
    ok &= dev_out_new (61, 200, (size_t) 61 * C * sb, 1, 0, &dout) == 0;
    got = gcv_test_malloc (dout.stride * 200);
    for (size_t i = 0; ok && i < sizeof (seq) / sizeof (seq[0]); i++) {
      GcvScaleParams p = params_make ((GcvScaleMethod) seq[i][0], seq[i][1]);
      GcvPlane expect;
      char what[200];
      int pl = (int) (i % 3 == 2);
      snprintf (what, sizeof (what), "one context, frame %zu: %s antialias %d, %s x %d, input %d", i,
          method_names[seq[i][0]], seq[i][1], type_names[t], C, pl);
      if (cpu_expect (&g, &p, &host[pl], &expect) == 0 && cuda_run (ctx, &g, &p, &din[pl], &dout, got, what) == 0)
        compare_bits (&g, got, dout.stride, &expect, what);
      free (expect.data);
    }
    free (got);
    gcv_cuda_free (dout.data);
    for (int i = 0; i < 2; i++) {
      gcv_cuda_free (din[i].data);
      free (host[i].data);
    }
    gcv_scale_cuda_free (ctx);
  }
}

/* ---- SciPy fixtures --------------------------------------------------------------- */

static void
test_scipy_fixtures (void)
{
  int n_cases;
  ScipyCase *cases = scipy_cases_load (&n_cases);
  double worst_all = 0;
  GcvScaleParams p = params_make (GCV_SCALE_BSPLINE, 0);
  if (cases == NULL)
    return;
  for (int k = 0; k < n_cases; k++) {
    const ScipyCase *sc = &cases[k];
    const char *fout = sc->out_name;
    int iw = sc->iw, ih = sc->ih, ow = sc->ow, oh = sc->oh;
    const float *vin = sc->in, *vout = sc->out;
    char what[400];
    double lo = INFINITY, hi = -INFINITY, worst = 0;
    GcvScaleGeometry g = geom_make (GCV_SAMPLE_F32, 1, iw, ih, ow, oh);
    GcvPlane host = host_new (GCV_SAMPLE_F32, 1, iw, ih, 0), din, dout, expect;
    GcvScaleCuda *ctx;
    GcvError err;
    uint8_t *got;
    for (int i = 0; i < iw * ih; i++) {
      ((float *) host.data)[i] = vin[i];
      lo = fmin (lo, vin[i]);
      hi = fmax (hi, vin[i]);
    }
    snprintf (what, sizeof (what), "scipy %s (%dx%d -> %dx%d) F32", fout, iw, ih, ow, oh);
    memset (&err, 0, sizeof (err));
    ctx = gcv_scale_cuda_new (&g, &err);
    GCV_TEST_CHECK (ctx != NULL, "%s: cuda_new: %s", what, err.message);
    if (ctx && dev_in_new (&host, (size_t) iw * 4, 1, &din) == 0) {
      if (dev_out_new (ow, oh, (size_t) ow * 4, 1, 0, &dout) == 0) {
        got = gcv_test_malloc (dout.stride * oh);
        if (cuda_run (ctx, &g, &p, &din, &dout, got, what) == 0) {
          GcvPlane gp = { got, ow, oh, dout.stride };
          for (int y = 0; y < oh; y++)
            for (int x = 0; x < ow; x++) {
              double e = fabs (host_get (&gp, GCV_SAMPLE_F32, 1, x, y, 0) - vout[y * ow + x]) / (hi - lo);
              worst = !(e <= worst) ? (isnan (e) ? INFINITY : e) : worst;
            }
          GCV_TEST_CHECK (worst <= SCIPY_TOL_F32, "%s: max error %.3g of the data range > %g", what, worst,
              SCIPY_TOL_F32);
          if (cpu_expect (&g, &p, &host, &expect) == 0)
            compare_bits (&g, got, dout.stride, &expect, what);
          free (expect.data);
        }
        free (got);
        gcv_cuda_free (dout.data);
      }
      gcv_cuda_free (din.data);
    }
    if (worst > worst_all)
      worst_all = worst;
    gcv_scale_cuda_free (ctx);
    free (host.data);
  }
  scipy_cases_free (cases, n_cases);
  GCV_TEST_CHECK (n_cases >= 5, "scipy manifest lists only %d cases", n_cases);
  printf ("scipy fixtures: %d cases, CUDA F32 max error %.3g of the data range (limit %g)\n", n_cases, worst_all,
      SCIPY_TOL_F32);
}

/* ---- arguments -------------------------------------------------------------------- */

static void
test_arguments (void)
{
  static const struct { int ch, iw, ih; const char *what; } bad_geoms[] = {
    {0, 8, 8, "0 channels"}, {1, 8, 0, "8x0 input"},
  };
  static const struct { int iw, oh; const char *what; } bad_planes[] = {
    {7, 4, "a 7x8 input on an 8x8 context"}, {8, 5, "a 16x5 output on a 16x4 context"},
  };
  GcvError err;
  GcvScaleCuda *ctx;
  GcvScaleGeometry g;
  GcvScaleParams p = params_make ((GcvScaleMethod) 4, 0);
  GcvPlane in = { NULL, 8, 8, 512 }, out = { NULL, 16, 4, 512 };

  g = geom_make (GCV_SAMPLE_U8, 1, 8, 8, 16, 4);
  setenv ("GCV_BSPLINE_CUDA_PATH", "fast", 1);
  memset (&err, 0, sizeof (err));
  ctx = gcv_scale_cuda_new (&g, &err);
  GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID && strstr (err.message, "GCV_BSPLINE_CUDA_PATH"),
      "cuda_new with GCV_BSPLINE_CUDA_PATH=fast must fail with GCV_ERROR_INVALID naming the variable");
  gcv_scale_cuda_free (ctx);
  unsetenv ("GCV_BSPLINE_CUDA_PATH");

  for (size_t i = 0; i < sizeof (bad_geoms) / sizeof (bad_geoms[0]); i++) {
    g = geom_make (GCV_SAMPLE_U8, bad_geoms[i].ch, bad_geoms[i].iw, bad_geoms[i].ih, 8, 8);
    memset (&err, 0, sizeof (err));
    ctx = gcv_scale_cuda_new (&g, &err);
    GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID && err.message[0],
        "cuda_new(%s) must fail with GCV_ERROR_INVALID and a message", bad_geoms[i].what);
    gcv_scale_cuda_free (ctx);
  }
  g = geom_make (GCV_SAMPLE_U8, 1, 8, 8, 16, 4);
  memset (&err, 0, sizeof (err));
  ctx = gcv_scale_cuda_new (&g, &err);
  GCV_TEST_CHECK (ctx != NULL, "cuda_new(8x8 -> 16x4): %s", err.message);
  if (ctx == NULL)
    return;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_scale_cuda_process (ctx, &p, &in, &out, stream, &err) == GCV_ERROR_INVALID && err.message[0],
      "cuda_process with method 4 must fail with GCV_ERROR_INVALID and a message");
  p = params_make (GCV_SCALE_BSPLINE, 1);
  for (size_t i = 0; i < sizeof (bad_planes) / sizeof (bad_planes[0]); i++) {
    GcvPlane bi = in, bo = out;
    bi.width = bad_planes[i].iw;
    bo.height = bad_planes[i].oh;
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_scale_cuda_process (ctx, &p, &bi, &bo, stream, &err) == GCV_ERROR_INVALID && err.message[0],
        "cuda_process with %s must fail with GCV_ERROR_INVALID", bad_planes[i].what);
  }
  gcv_scale_cuda_free (ctx);
  gcv_scale_cuda_free (NULL);
}

int
main (void)
{
  int quick;
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  printf ("test data: %s%s\n", gcv_test_data_dir (), quick ? " (quick)" : "");
  photos_load ();

  test_arguments ();
  test_scipy_fixtures ();
  test_param_changes ();
  printf ("arguments, scipy, parameter changes done (%ld failures, %.1f s)\n", gcv_test_failures,
      gcv_test_now_s () - t0);
  test_sizes (quick, 0);
  /* quick: every size of the quick run is a fused one already; the
   * separate kernels once per method, antialias and type */
  for (int i = 0; i < (quick ? 1 : 3); i++) {
    const char *path = i == 0 ? "separate" : "fused";
    printf ("GCV_BSPLINE_CUDA_PATH=%s%s:\n", path, i == 2 ? ", GCV_BSPLINE_CUDA_GRAPH=0" : "");
    setenv ("GCV_BSPLINE_CUDA_PATH", path, 1);
    if (i == 2)
      setenv ("GCV_BSPLINE_CUDA_GRAPH", "0", 1);
    test_param_changes ();
    test_sizes (quick, quick);
    unsetenv ("GCV_BSPLINE_CUDA_PATH");
    unsetenv ("GCV_BSPLINE_CUDA_GRAPH");
  }

  photos_free ();
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
