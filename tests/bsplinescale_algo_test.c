/* gst-cuda-video: algorithm tests of the B-spline scaler's CPU backend
 * (cpu/bsplinescale.h), no GStreamer.
 *
 *  1. the small API: gcv_scale_mirror, gcv_scale_kernel, gcv_scale_axis_taps
 *     and gcv_scale_axis_init against tables computed here from the
 *     contract (tap ranges in exact integer arithmetic, weights in double);
 *     invalid parameters and geometries rejected, with a message, by the
 *     checks, by _new and by _process;
 *  2. SciPy: gcv_scale_cpu_process (bspline, antialias off) against
 *     scipy.ndimage.map_coordinates(order=3, mode='reflect') on photo crops
 *     (tests/fixtures/scipy-bspline/, tests/gen_scipy_fixtures.py): F32 to
 *     1e-4 of the data range, U8 and U16 within one level;
 *  3. an independent float64 reference of the contract (exact prefilter as
 *     the symmetric FIR c[k] = sqrt(3) sum_j z^|j| f[k - j] over the
 *     mirrored signal, not the segmented IIR; weights from the kernel
 *     definitions in double, unrounded): every method x antialias x
 *     channels 1, 2, 4 (and 3 on some) x U8 / U16 / F32 over sizes from
 *     1x1 to 641x481 -> 1283x963, non-integer ratios, large downscales;
 *     F32 within REF_TOL_F32 of the data scale (the range, at least the
 *     largest magnitude), integers within 0.5 +
 *     REF_TOL_INT levels of the unrounded value (so within one level of
 *     the rounded one, and a wrong rounding mode fails); rounding half to
 *     even on exact halves; strided planes with garbage (NaN for F32) in
 *     the padding, output padding untouched, garbage never leaking
 *     (bit-identical output with other garbage and with packed rows);
 *  4. n_threads 1, 0 and 3 give identical output; one context reused across
 *     parameter changes gives what fresh contexts give;
 *  5. antialias: a one-pixel 0/255 checkerboard 300x300 -> 100x100 is flat
 *     (standard deviation < 2 levels) with antialias for bspline,
 *     catmull-rom and bilinear, and is not (> 50) without;
 *  6. round trip on the photos of tests/data (down by 2, up by 2, same
 *     method, antialias on): PSNR table of every method; bspline must beat
 *     bilinear on every photo.
 *
 * Exit status 0 when everything passes, 1 otherwise.  Runs in a few seconds
 * to a few tens of seconds; GCV_TEST_EXHAUSTIVE=1 runs every combination on
 * the large sizes too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bsplinescale_common.h"

/* Tolerances of the comparison with the float64 reference (section 3).  The
 * backend computes in float: weights rounded to float, float pole, every
 * product and sum rounded, the prefilter's warm-up truncation (|z|^16 <
 * 1.5e-9).  Measured largest errors are printed; these bounds keep about an
 * order of magnitude of margin on them while still catching e.g. a warm-up
 * of 8 samples (|z|^8 = 2.6e-5) or a pole rounded to 1e-5. */
#define REF_TOL_F32 1e-5        /* of the input's data scale */
#define REF_TOL_INT 0.02        /* levels beyond the 0.5 that rounding allows, U8 */
#define REF_TOL_U16 0.15        /* the same for U16: float has ~1/256 of a level there */

static double
type_max (GcvSampleType t)
{
  return t == GCV_SAMPLE_U8 ? 255.0 : 65535.0;
}

/* ---- typed host planes ---------------------------------------------------- */

/* A plane of `type` x `channels` with rows `stride` bytes apart. */
typedef struct {
  GcvSampleType type;
  int channels, width, height;
  size_t stride;
  uint8_t *data;
} Plane;

static Plane
plane_new (GcvSampleType type, int channels, int w, int h, size_t pad_bytes)
{
  Plane p;
  p.type = type;
  p.channels = channels;
  p.width = w;
  p.height = h;
  p.stride = (size_t) w * channels * (size_t) gcv_sample_bytes (type) + pad_bytes;
  p.data = gcv_test_malloc (p.stride * h);
  return p;
}

static GcvPlane
plane_desc (const Plane * p)
{
  GcvPlane d;
  d.data = p->data;
  d.width = p->width;
  d.height = p->height;
  d.stride = p->stride;
  return d;
}

/* Fills every byte (padding too) with pseudo-random garbage (garbage_fill:
 * NaN and FLT_MAX in the padding of F32 planes). */
static void
plane_fill_garbage (Plane * p, uint32_t seed)
{
  uint32_t st = seed * 2654435761u + 1u;
  GcvPlane d = plane_desc (p);
  garbage_fill (&d, p->type, p->channels, &st);
}

static double
plane_get (const Plane * p, int x, int y, int c)
{
  return gcv_test_sample_get (p->data + (size_t) y * p->stride, p->type, (size_t) x * p->channels + c);
}

static void
plane_put (Plane * p, int x, int y, int c, double v)
{
  gcv_test_sample_put (p->data + (size_t) y * p->stride, p->type, (size_t) x * p->channels + c, v);
}

/* Packed double copy (h x w*channels) of the samples as stored. */
static double *
plane_values (const Plane * p)
{
  int n = p->width * p->channels;
  double *v = gcv_test_malloc (sizeof (double) * n * p->height);
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++)
      for (int c = 0; c < p->channels; c++)
        v[(size_t) y * n + (size_t) x * p->channels + c] = plane_get (p, x, y, c);
  return v;
}

static int
rows_equal (const Plane * p, const Plane * q)
{
  size_t row = (size_t) p->width * p->channels * (size_t) gcv_sample_bytes (p->type);
  for (int y = 0; y < p->height; y++)
    if (memcmp (p->data + y * p->stride, q->data + y * q->stride, row) != 0)
      return 0;
  return 1;
}

/* ---- test pictures (the photos: bsplinescale_common.c) ---------------------- */

typedef enum { SRC_PHOTO, SRC_NOISE, SRC_CHECKER, SRC_STEPS } SourceKind;
static const char *const source_names[] = { "photo", "noise", "checkerboard", "steps" };

/* An 8-bit value of channel c at (x, y) of a test picture. */
static int
source_u8 (SourceKind k, int variant, int x, int y, int c)
{
  switch (k) {
    case SRC_PHOTO:{
      int ph = variant % 4, x0 = 37 * variant + 11, y0 = 53 * variant + 7;
      if (c == 3)               /* an "alpha" from elsewhere in the photo */
        return 255 - photo_sample ((ph + 1) % 4, x0 + 2 * x + 100, y0 + y + 50, 1);
      return photo_sample (ph, x0 + x, y0 + y, c);
    }
    case SRC_NOISE:{
      uint32_t h = (uint32_t) x * 73856093u ^ (uint32_t) y * 19349663u ^ (uint32_t) c * 83492791u
          ^ (uint32_t) variant * 2654435761u;
      h ^= h >> 13;
      h *= 0x5bd1e995u;
      h ^= h >> 15;
      return (int) (h & 255);
    }
    case SRC_CHECKER:
      return ((x + y + c) & 1) ? 255 : 0;
    default:{                   /* hard steps: the spline overshoots, the integer outputs clamp */
      int v = 20 + (x >= 5) * 200 - (y >= 3) * 15 + (x + y >= 11) * 40 + c * 7;
      return v > 255 ? 255 : v;
    }
  }
}

/* Input plane: the 8-bit picture as U8; as U16 v * 257 + d, d pseudo-random
 * in [-128, 128] (full range, both rounding directions); as F32
 * (v - 100) / 50 plus a small non-integer offset (negative values too). */
static Plane
make_input (GcvSampleType type, int channels, int w, int h, SourceKind k, int variant, size_t pad_bytes,
    uint32_t seed)
{
  Plane p = plane_new (type, channels, w, h, pad_bytes);
  uint32_t st = seed * 747796405u + 2891336453u;
  plane_fill_garbage (&p, seed ^ 0xabcdefu);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++) {
        int v = source_u8 (k, variant, x, y, c);
        double d = (double) (gcv_test_rand (&st) % 257u) - 128.0;
        if (type == GCV_SAMPLE_U8)
          plane_put (&p, x, y, c, v);
        else if (type == GCV_SAMPLE_U16)
          plane_put (&p, x, y, c, v * 257.0 + d);
        else
          plane_put (&p, x, y, c, (v - 100) / 50.0 + d / 12800.0);
      }
  return p;
}

/* ---- the float64 reference -------------------------------------------------------- */

static int
ref_mirror (long long i, int n)
{
  /* ... b a | a b c ... z | z y ...: reflect until inside */
  while (i < 0 || i >= n) {
    if (i < 0)
      i = -1 - i;
    if (i >= n)
      i = 2LL * n - 1 - i;
  }
  return (int) i;
}

static double
ref_kernel (GcvScaleMethod m, double t)
{
  double a = fabs (t);
  switch (m) {
    case GCV_SCALE_BSPLINE:
      /* beta3 as the sum of truncated powers */
      if (a >= 2)
        return 0;
      if (a >= 1)
        return (2 - a) * (2 - a) * (2 - a) / 6;
      return ((2 - a) * (2 - a) * (2 - a) - 4 * (1 - a) * (1 - a) * (1 - a)) / 6;
    case GCV_SCALE_CATMULL_ROM:{
      /* Keys (1981), a = -0.5 */
      const double k = -0.5;
      if (a >= 2)
        return 0;
      if (a >= 1)
        return k * a * a * a - 5 * k * a * a + 8 * k * a - 4 * k;
      return (k + 2) * a * a * a - (k + 3) * a * a + 1;
    }
    case GCV_SCALE_BILINEAR:
      return a >= 1 ? 0 : 1 - a;
    default:
      return 0;
  }
}

static int
ref_radius (GcvScaleMethod m)
{
  return m == GCV_SCALE_BILINEAR ? 1 : m == GCV_SCALE_NEAREST ? 0 : 2;
}

static long long
floor_div (long long a, long long b)
{
  long long q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* One axis of the reference: for each output sample its taps (in order)
 * with double weights (normalised, not rounded). */
typedef struct {
  int n_in, n_out, max_taps;
  int *count;                   /* n_out */
  int *index;                   /* n_out * max_taps, mirrored */
  double *weight;               /* n_out * max_taps */
  long long *first;             /* unmirrored first tap */
} RefAxis;

static void
ref_axis_free (RefAxis * a)
{
  free (a->count);
  free (a->index);
  free (a->weight);
  free (a->first);
  memset (a, 0, sizeof (*a));
}

static void
ref_axis_make (RefAxis * a, GcvScaleMethod m, int aa, int n_in, int n_out)
{
  int stretch = aa && m != GCV_SCALE_NEAREST && n_in > n_out;
  double s = stretch ? (double) n_in / n_out : 1.0;
  long long R = ref_radius (m);
  /* x = num / (2 n_out) with num = (2o + 1) n_in - n_out; |x - i| < r is
   * |num - 2 i n_out| < D with D = 2 R n_out, or 2 R n_in when stretched */
  long long D = stretch ? 2 * R * n_in : 2 * R * n_out, den = 2LL * n_out;

  memset (a, 0, sizeof (*a));
  a->n_in = n_in;
  a->n_out = n_out;
  a->count = gcv_test_malloc (sizeof (int) * n_out);
  a->first = gcv_test_malloc (sizeof (long long) * n_out);
  a->max_taps = 1;
  for (int o = 0; o < n_out; o++) {
    long long num = (2LL * o + 1) * n_in - n_out, first, last;
    if (m == GCV_SCALE_NEAREST) {
      first = last = floor_div ((2LL * o + 1) * n_in, den);     /* floor (x + 0.5) */
    } else {
      first = floor_div (num - D, den) + 1;
      last = -floor_div (-(num + D), den) - 1;  /* ceil - 1 */
    }
    a->first[o] = first;
    a->count[o] = (int) (last - first + 1);
    if (a->count[o] > a->max_taps)
      a->max_taps = a->count[o];
  }
  a->index = gcv_test_malloc (sizeof (int) * (size_t) n_out * a->max_taps);
  a->weight = gcv_test_malloc (sizeof (double) * (size_t) n_out * a->max_taps);
  for (int o = 0; o < n_out; o++) {
    double x = ((2.0 * o + 1) * n_in - n_out) / (2.0 * n_out), sum = 0;
    int *idx = a->index + (size_t) o * a->max_taps;
    double *w = a->weight + (size_t) o * a->max_taps;
    for (int t = 0; t < a->count[o]; t++) {
      long long i = a->first[o] + t;
      idx[t] = ref_mirror (i, n_in);
      w[t] = m == GCV_SCALE_NEAREST ? 1.0 : ref_kernel (m, (x - (double) i) / s) / s;
      sum += w[t];
    }
    for (int t = 0; t < a->count[o]; t++)
      w[t] /= sum;
  }
}

/* Exact B-spline coefficients of one mirrored line (stride `step` doubles):
 * c[k] = sqrt(3) sum_{|j| <= 40} z^|j| f[mirror(k - j)], z = sqrt(3) - 2
 * (the impulse response of 6 / (z^-1 + 4 + z); |z|^41 < 1e-23). */
#define REF_FIR_HALF 40
static void
ref_prefilter_line (const double *f, double *c, int n, size_t step, const double *zp)
{
  for (int k = 0; k < n; k++) {
    double acc = 0;
    for (int j = -REF_FIR_HALF; j <= REF_FIR_HALF; j++)
      acc += zp[j < 0 ? -j : j] * f[(size_t) ref_mirror ((long long) k - j, n) * step];
    c[(size_t) k * step] = sqrt (3.0) * acc;
  }
}

/* The whole contract in double: in is h x w*C, out oh x ow*C. */
static void
ref_scale (const double *in, int w, int h, int C, GcvScaleMethod m, int aa, int ow, int oh, double *out)
{
  size_t n_in = (size_t) w * C, n_out = (size_t) ow * C;
  const double *src = in;
  double *coef = NULL, *tmp = gcv_test_malloc (sizeof (double) * n_out * h);
  RefAxis ax, ay;

  if (m == GCV_SCALE_BSPLINE) {
    double zp[REF_FIR_HALF + 1], z = sqrt (3.0) - 2;
    double *cv = gcv_test_malloc (sizeof (double) * n_in * h);
    coef = gcv_test_malloc (sizeof (double) * n_in * h);
    zp[0] = 1;
    for (int j = 1; j <= REF_FIR_HALF; j++)
      zp[j] = zp[j - 1] * z;
    for (size_t e = 0; e < n_in; e++)   /* columns */
      ref_prefilter_line (in + e, cv + e, h, n_in, zp);
    for (int y = 0; y < h; y++)         /* rows, per channel */
      for (int c = 0; c < C; c++)
        ref_prefilter_line (cv + (size_t) y * n_in + c, coef + (size_t) y * n_in + c, w, (size_t) C, zp);
    free (cv);
    src = coef;
  }
  ref_axis_make (&ax, m, aa, w, ow);
  ref_axis_make (&ay, m, aa, h, oh);
  for (int y = 0; y < h; y++)
    for (int o = 0; o < ow; o++)
      for (int c = 0; c < C; c++) {
        double acc = 0;
        for (int t = 0; t < ax.count[o]; t++)
          acc += ax.weight[(size_t) o * ax.max_taps + t] * src[(size_t) y * n_in
              + (size_t) ax.index[(size_t) o * ax.max_taps + t] * C + c];
        tmp[(size_t) y * n_out + (size_t) o * C + c] = acc;
      }
  for (int o = 0; o < oh; o++)
    for (size_t e = 0; e < n_out; e++) {
      double acc = 0;
      for (int t = 0; t < ay.count[o]; t++)
        acc += ay.weight[(size_t) o * ay.max_taps + t] * tmp[(size_t) ay.index[(size_t) o * ay.max_taps + t] * n_out
            + e];
      out[(size_t) o * n_out + e] = acc;
    }
  ref_axis_free (&ax);
  ref_axis_free (&ay);
  free (tmp);
  free (coef);
}

/* ---- running the backend ------------------------------------------------------------ */

/* Scales in into a new output plane (out_pad bytes of padding per row,
 * everything prefilled with 0xa5).  Returns 0 on success. */
static int
run_cpu (const Plane * in, int ow, int oh, const GcvScaleParams * p, size_t out_pad, int n_threads, Plane * out,
    const char *what)
{
  GcvScaleGeometry g = geom_make (in->type, in->channels, in->width, in->height, ow, oh);
  GcvError err;
  GcvScaleCpu *ctx;
  GcvPlane pi = plane_desc (in), po;
  GcvStatus st;

  memset (&err, 0, sizeof (err));
  *out = plane_new (in->type, in->channels, ow, oh, out_pad);
  memset (out->data, 0xa5, out->stride * oh);
  po = plane_desc (out);
  ctx = gcv_scale_cpu_new (&g, &err);
  if (ctx == NULL) {
    gcv_test_fail ("%s: cpu_new: %s", what, err.message);
    return -1;
  }
  st = gcv_scale_cpu_process (ctx, p, &pi, &po, n_threads, &err);
  gcv_scale_cpu_free (ctx);
  if (st != GCV_OK) {
    gcv_test_fail ("%s: cpu_process: %s", what, err.message);
    return -1;
  }
  return 0;
}

static int
padding_is (const Plane * p, uint8_t v)
{
  size_t row = (size_t) p->width * p->channels * (size_t) gcv_sample_bytes (p->type);
  for (int y = 0; y < p->height; y++)
    for (size_t b = row; b < p->stride; b++)
      if (p->data[(size_t) y * p->stride + b] != v)
        return 0;
  return 1;
}

/* Largest errors seen per method and type (section 3). */
static double worst_f32[4], worst_int_excess[4][2];
static char worst_f32_where[4][300];

/* Compares out against the unrounded reference values; returns the number
 * of samples out of tolerance. */
static long
compare_to_ref (const Plane * out, const double *ref, double range, GcvScaleMethod m, const char *what)
{
  int n = out->width * out->channels;
  long bad = 0;
  double worst = 0;
  int wx = -1, wy = -1, wc = 0;
  for (int y = 0; y < out->height; y++)
    for (int x = 0; x < out->width; x++)
      for (int c = 0; c < out->channels; c++) {
        double r = ref[(size_t) y * n + (size_t) x * out->channels + c], g = plane_get (out, x, y, c), e;
        if (out->type == GCV_SAMPLE_F32) {
          e = fabs (g - r) / range;
          if (!(e <= REF_TOL_F32))
            bad++;
        } else {
          double mx = type_max (out->type), rc = r < 0 ? 0 : r > mx ? mx : r;
          e = fabs (g - rc) - 0.5;
          if (!(e <= (out->type == GCV_SAMPLE_U8 ? REF_TOL_INT : REF_TOL_U16)) || fabs (g - nearbyint (rc)) > 1)
            bad++;
        }
        if (!(e <= worst)) {
          worst = isnan (e) ? INFINITY : e;
          wx = x;
          wy = y;
          wc = c;
        }
      }
  if (out->type == GCV_SAMPLE_F32) {
    if (worst > worst_f32[m]) {
      worst_f32[m] = worst;
      snprintf (worst_f32_where[m], sizeof (worst_f32_where[m]), "%s", what);
    }
  } else if (worst > worst_int_excess[m][out->type])
    worst_int_excess[m][out->type] = worst;
  gcv_test_checks++;
  if (bad)
    gcv_test_fail ("%s: %ld of %d samples off the float64 reference; worst at (x=%d, y=%d, c=%d): got %.9g, "
        "reference %.9g (%s %.3g)", what, bad, n * out->height, wx, wy, wc, plane_get (out, wx, wy, wc),
        ref[(size_t) wy * n + (size_t) wx * out->channels + wc],
        out->type == GCV_SAMPLE_F32 ? "error/range" : "|error| - 0.5 =", worst);
  return bad;
}

/* ---- 1. API ---------------------------------------------------------------------- */

static void
test_mirror_kernel (void)
{
  static const int ns[] = { 1, 2, 3, 5, 8, 33 };
  static const double ts[] = { 0, 0.1, 0.25, 0.5, 0.75, 0.999, 1, 1.25, 1.5, 1.9, 2, 2.5, 7 };
  for (size_t k = 0; k < sizeof (ns) / sizeof (ns[0]); k++)
    for (long long i = -5LL * ns[k] - 3; i <= 5LL * ns[k] + 3; i++)
      GCV_TEST_CHECK (gcv_scale_mirror (i, ns[k]) == ref_mirror (i, ns[k]), "gcv_scale_mirror(%lld, %d) = %d, "
          "expected %d", i, ns[k], gcv_scale_mirror (i, ns[k]), ref_mirror (i, ns[k]));
  GCV_TEST_CHECK (gcv_scale_mirror (-1000000007LL, 7) == ref_mirror (-1000000007LL, 7)
      && gcv_scale_mirror (4000000000LL, 32767) == ref_mirror (4000000000LL, 32767), "gcv_scale_mirror: far indices");
  /* hand values: b = 2/3, 1/6 at 0, 1; Keys 1, 0, -0.0625 at 0, 1, 1.5 */
  GCV_TEST_CHECK (fabs (gcv_scale_kernel (GCV_SCALE_BSPLINE, 0) - 2.0 / 3) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_BSPLINE, 1) - 1.0 / 6) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_CATMULL_ROM, 0) - 1) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_CATMULL_ROM, 1)) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_CATMULL_ROM, 1.5) + 0.0625) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_CATMULL_ROM, 0.5) - 0.5625) < 1e-15
      && fabs (gcv_scale_kernel (GCV_SCALE_BILINEAR, 0.25) - 0.75) < 1e-15, "gcv_scale_kernel: hand values wrong");
  for (int m = 0; m < 3; m++)
    for (size_t k = 0; k < sizeof (ts) / sizeof (ts[0]); k++)
      for (int sg = -1; sg <= 1; sg += 2) {
        double t = sg * ts[k], v = gcv_scale_kernel ((GcvScaleMethod) m, t), r = ref_kernel ((GcvScaleMethod) m, t);
        GCV_TEST_CHECK (fabs (v - r) <= 1e-15, "gcv_scale_kernel(%s, %g) = %.17g, expected %.17g", method_names[m], t,
            v, r);
      }
}

/* gcv_scale_axis_taps / _init against the reference's exact tap ranges and
 * double weights rounded to float (allowing one float ulp: the kernel
 * polynomial is written differently here). */
static void
test_axis_tables (void)
{
  static const int sizes[][2] = {
    {1, 1}, {1, 7}, {7, 1}, {2, 5}, {5, 2}, {5, 23}, {17, 5}, {9, 23}, {300, 100}, {100, 300}, {641, 1283},
    {481, 963}, {1920, 1280}, {1080, 720}, {176, 1232}, {144, 1008}, {256, 512}, {100, 33}, {3, 2}, {640, 1},
    {37, 80}, {64, 45}, {1000, 999}, {999, 1000}, {4096, 3}, {32767, 2},
  };
  long n_checked = 0;
  for (size_t k = 0; k < sizeof (sizes) / sizeof (sizes[0]); k++)
    for (int m = 0; m < 4; m++)
      for (int aa = 0; aa < 2; aa++) {
        int n_in = sizes[k][0], n_out = sizes[k][1], taps, bad = 0;
        GcvScaleParams p = params_make ((GcvScaleMethod) m, aa);
        GcvScaleAxis axis;
        GcvError err;
        RefAxis r;
        memset (&err, 0, sizeof (err));
        ref_axis_make (&r, (GcvScaleMethod) m, aa, n_in, n_out);
        taps = gcv_scale_axis_taps (&p, n_in, n_out);
        GCV_TEST_CHECK (taps == r.max_taps, "axis_taps(%s, aa %d, %d -> %d) = %d, expected %d", method_names[m], aa,
            n_in, n_out, taps, r.max_taps);
        if (gcv_scale_axis_init (&axis, &p, n_in, n_out, &err) != GCV_OK) {
          gcv_test_fail ("axis_init(%s, aa %d, %d -> %d): %s", method_names[m], aa, n_in, n_out, err.message);
          ref_axis_free (&r);
          continue;
        }
        GCV_TEST_CHECK (axis.taps == taps && axis.n_in == n_in && axis.n_out == n_out,
            "axis_init(%s, aa %d, %d -> %d): taps %d n_in %d n_out %d", method_names[m], aa, n_in, n_out, axis.taps,
            axis.n_in, axis.n_out);
        for (int o = 0; o < n_out && !bad && axis.taps == taps; o++) {
          const int32_t *idx = axis.index + (size_t) o * taps;
          const float *w = axis.weight + (size_t) o * taps;
          double wsum = 0;
          for (int t = 0; t < taps && !bad; t++) {
            float rw = t < r.count[o] ? (float) r.weight[(size_t) o * r.max_taps + t] : 0.0f;
            int ri = t < r.count[o] ? r.index[(size_t) o * r.max_taps + t] : -1;
            wsum += w[t];
            n_checked++;
            if (idx[t] < 0 || idx[t] >= n_in) {
              gcv_test_fail ("axis_init(%s, aa %d, %d -> %d): output %d tap %d index %d outside [0, %d)",
                  method_names[m], aa, n_in, n_out, o, t, idx[t], n_in);
              bad = 1;
            } else if ((ri >= 0 && idx[t] != ri) || fabsf (w[t] - rw) > ldexpf (fabsf (rw), -23)) {
              gcv_test_fail ("axis_init(%s, aa %d, %d -> %d): output %d tap %d is (index %d, weight %.9g), "
                  "expected (%d, %.9g)", method_names[m], aa, n_in, n_out, o, t, idx[t], w[t], ri, rw);
              bad = 1;
            }
          }
          if (!bad && fabs (wsum - 1) > 1e-6) {
            gcv_test_fail ("axis_init(%s, aa %d, %d -> %d): weights of output %d sum to %.9g", method_names[m], aa,
                n_in, n_out, o, wsum);
            bad = 1;
          }
        }
        gcv_test_checks++;
        gcv_scale_axis_clear (&axis);
        ref_axis_free (&r);
      }
  printf ("axis tables: %ld taps checked against the contract\n", n_checked);
}

static void
test_arguments (void)
{
  static const int bad_methods[] = { -1, 4, 100 };
  static const struct { int type, ch, iw, ih, ow, oh; } bad_geoms[] = {
    {0, 0, 8, 8, 8, 8}, {0, 5, 8, 8, 8, 8}, {0, -1, 8, 8, 8, 8}, {3, 1, 8, 8, 8, 8}, {-1, 1, 8, 8, 8, 8},
    {0, 1, 0, 8, 8, 8}, {0, 1, 8, 0, 8, 8}, {0, 1, 8, 8, 0, 8}, {0, 1, 8, 8, 8, 0}, {1, 2, -3, 8, 8, 8},
    {2, 4, 8, 8, 8, -1}, {0, 1, 0, 0, 0, 0},
  };
  GcvError err;
  GcvScaleCpu *ctx;
  GcvScaleGeometry g;
  GcvScaleParams p;
  uint8_t inbuf[8 * 8 * 2], outbuf[16 * 4 * 2];
  GcvPlane in = { inbuf, 8, 8, 16 }, out = { outbuf, 16, 4, 32 };

  for (int m = 0; m < 4; m++)
    for (int aa = 0; aa < 2; aa++) {
      p = params_make ((GcvScaleMethod) m, aa);
      GCV_TEST_CHECK (gcv_scale_params_check (&p) == NULL, "params_check rejects method %s antialias %d: %s",
          method_names[m], aa, gcv_scale_params_check (&p));
    }
  for (size_t i = 0; i < sizeof (bad_methods) / sizeof (bad_methods[0]); i++) {
    const char *msg;
    p = params_make ((GcvScaleMethod) bad_methods[i], 1);
    msg = gcv_scale_params_check (&p);
    GCV_TEST_CHECK (msg != NULL && msg[0], "params_check accepts method %d", bad_methods[i]);
  }
  for (int t = 0; t < 3; t++)
    for (int c = 1; c <= GCV_SCALE_MAX_CHANNELS; c++) {
      g = geom_make ((GcvSampleType) t, c, 1, 1, 1, 1);
      GCV_TEST_CHECK (gcv_scale_geometry_check (&g) == NULL, "geometry_check rejects %s x %d 1x1 -> 1x1: %s",
          type_names[t], c, gcv_scale_geometry_check (&g));
    }
  g = geom_make (GCV_SAMPLE_U16, 2, 1920, 1080, 1, 4000);
  GCV_TEST_CHECK (gcv_scale_geometry_check (&g) == NULL, "geometry_check rejects U16 x 2 1920x1080 -> 1x4000: %s",
      gcv_scale_geometry_check (&g));
  for (size_t i = 0; i < sizeof (bad_geoms) / sizeof (bad_geoms[0]); i++) {
    const char *msg;
    g = geom_make ((GcvSampleType) bad_geoms[i].type, bad_geoms[i].ch, bad_geoms[i].iw, bad_geoms[i].ih,
        bad_geoms[i].ow, bad_geoms[i].oh);
    msg = gcv_scale_geometry_check (&g);
    GCV_TEST_CHECK (msg != NULL && msg[0], "geometry_check accepts type %d channels %d %dx%d -> %dx%d",
        bad_geoms[i].type, bad_geoms[i].ch, bad_geoms[i].iw, bad_geoms[i].ih, bad_geoms[i].ow, bad_geoms[i].oh);
    memset (&err, 0, sizeof (err));
    ctx = gcv_scale_cpu_new (&g, &err);
    GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID && err.message[0],
        "cpu_new(type %d channels %d %dx%d -> %dx%d) must fail with GCV_ERROR_INVALID and a message (status %d)",
        bad_geoms[i].type, bad_geoms[i].ch, bad_geoms[i].iw, bad_geoms[i].ih, bad_geoms[i].ow, bad_geoms[i].oh,
        err.status);
    gcv_scale_cpu_free (ctx);
  }

  /* _process: bad parameters and planes that do not match the context */
  g = geom_make (GCV_SAMPLE_U16, 1, 8, 8, 16, 4);
  memset (&err, 0, sizeof (err));
  ctx = gcv_scale_cpu_new (&g, &err);
  GCV_TEST_CHECK (ctx != NULL, "cpu_new(U16 8x8 -> 16x4): %s", err.message);
  if (ctx == NULL)
    return;
  memset (inbuf, 0, sizeof (inbuf));
  memset (outbuf, 0x5a, sizeof (outbuf));
  p = params_make ((GcvScaleMethod) 4, 0);
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_scale_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_ERROR_INVALID && err.message[0],
      "cpu_process with method 4 must fail with GCV_ERROR_INVALID and a message");
  p = params_make (GCV_SCALE_BSPLINE, 1);
  {
    struct { int iw, ih, ow, oh; size_t is, os; const char *what; } bad[] = {
      {7, 8, 16, 4, 16, 32, "input 7x8"}, {8, 9, 16, 4, 16, 32, "input 8x9"}, {8, 8, 15, 4, 16, 32, "output 15x4"},
      {8, 8, 16, 5, 16, 32, "output 16x5"}, {8, 8, 16, 4, 15, 32, "input stride 15 < 8 * 2"},
      {8, 8, 16, 4, 16, 31, "output stride 31 < 16 * 2"},
    };
    for (size_t i = 0; i < sizeof (bad) / sizeof (bad[0]); i++) {
      GcvPlane bi = { inbuf, bad[i].iw, bad[i].ih, bad[i].is }, bo = { outbuf, bad[i].ow, bad[i].oh, bad[i].os };
      memset (&err, 0, sizeof (err));
      GCV_TEST_CHECK (gcv_scale_cpu_process (ctx, &p, &bi, &bo, 1, &err) == GCV_ERROR_INVALID && err.message[0],
          "cpu_process on a U16 8x8 -> 16x4 context with %s must fail with GCV_ERROR_INVALID and a message",
          bad[i].what);
    }
  }
  for (size_t i = 0; i < sizeof (outbuf); i++)
    GCV_TEST_CHECK (outbuf[i] == 0x5a, "a rejected cpu_process wrote output byte %zu", i);
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_scale_cpu_process (ctx, &p, &in, &out, 1, &err) == GCV_OK, "cpu_process(U16 8x8 zeros): %s",
      err.message);
  for (size_t i = 0; i < sizeof (outbuf); i++)
    GCV_TEST_CHECK (outbuf[i] == 0, "cpu_process(U16 8x8 zeros): output byte %zu is %d", i, outbuf[i]);
  gcv_scale_cpu_free (ctx);
  gcv_scale_cpu_free (NULL);
}

/* ---- 2. SciPy fixtures --------------------------------------------------------------- */

static void
test_scipy_fixtures (void)
{
  int n_all;
  ScipyCase *cases = scipy_cases_load (&n_all);
  double worst_f = 0, worst_u8 = 0, worst_u16 = 0;
  GcvScaleParams p = params_make (GCV_SCALE_BSPLINE, 0);

  if (cases == NULL)
    return;
  for (int k = 0; k < n_all; k++) {
    const ScipyCase *sc = &cases[k];
    int n_cases = k + 1;        /* cases so far: the garbage seeds */
    const char *fout = sc->out_name, *kind = sc->kind;
    int iw = sc->iw, ih = sc->ih, ow = sc->ow, oh = sc->oh;
    const float *vin = sc->in, *vout = sc->out;
    double lo = INFINITY, hi = -INFINITY, range;
    for (int i = 0; i < iw * ih; i++) {
      lo = fmin (lo, vin[i]);
      hi = fmax (hi, vin[i]);
    }
    range = hi > lo ? hi - lo : 1;

    /* F32 with 1 to 4 channels: channel c holds (c + 1) * img - c * range / 4,
     * so it must give (c + 1) * scipy - c * range / 4 (the spline is linear
     * and reproduces constants) */
    for (int C = 1; C <= 4; C++) {
      Plane in = plane_new (GCV_SAMPLE_F32, C, iw, ih, (size_t) 4 * (C + 1)), out;
      double worst = 0;
      char what[400];
      plane_fill_garbage (&in, (uint32_t) (n_cases * 7 + C));
      for (int y = 0; y < ih; y++)
        for (int x = 0; x < iw; x++)
          for (int c = 0; c < C; c++)
            plane_put (&in, x, y, c, (float) ((c + 1) * (double) vin[y * iw + x] - 0.25 * c * range));
      snprintf (what, sizeof (what), "scipy %s (%dx%d -> %dx%d) F32 x %d", fout, iw, ih, ow, oh, C);
      if (run_cpu (&in, ow, oh, &p, 12, 0, &out, what) == 0) {
        for (int y = 0; y < oh; y++)
          for (int x = 0; x < ow; x++)
            for (int c = 0; c < C; c++) {
              double e = fabs (plane_get (&out, x, y, c) - ((c + 1) * (double) vout[y * ow + x] - 0.25 * c * range))
                  / ((c + 1) * range);
              worst = !(e <= worst) ? (isnan (e) ? INFINITY : e) : worst;
            }
        GCV_TEST_CHECK (worst <= SCIPY_TOL_F32, "%s: max error %.3g of the data range > %g", what, worst,
            SCIPY_TOL_F32);
        GCV_TEST_CHECK (padding_is (&out, 0xa5), "%s: output padding overwritten", what);
        if (worst > worst_f)
          worst_f = worst;
        free (out.data);
      }
      free (in.data);
    }

    /* U8 and U16 (input x 257) on integer inputs: within one level of the
     * rounded SciPy value, and within 0.5 + 0.05 of the unrounded one */
    if (strcmp (kind, "u8") == 0)
      for (int t = 0; t < 2; t++) {
        GcvSampleType type = t ? GCV_SAMPLE_U16 : GCV_SAMPLE_U8;
        double scale = t ? 257.0 : 1.0, mx = type_max (type), worst = 0;
        Plane in = plane_new (type, 1, iw, ih, (2 * t + 3) * (size_t) gcv_sample_bytes (type)), out;
        char what[400];
        plane_fill_garbage (&in, (uint32_t) n_cases);
        for (int y = 0; y < ih; y++)
          for (int x = 0; x < iw; x++)
            plane_put (&in, x, y, 0, nearbyint (vin[y * iw + x]) * scale);
        snprintf (what, sizeof (what), "scipy %s (%dx%d -> %dx%d) %s", fout, iw, ih, ow, oh, type_names[type]);
        if (run_cpu (&in, ow, oh, &p, 5 * (size_t) gcv_sample_bytes (type), 0, &out, what) == 0) {
          long off = 0;
          for (int y = 0; y < oh; y++)
            for (int x = 0; x < ow; x++) {
              double r = vout[y * ow + x] * scale, g = plane_get (&out, x, y, 0), e;
              r = r < 0 ? 0 : r > mx ? mx : r;
              e = fabs (g - r);
              if (e > worst)
                worst = e;
              if (fabs (g - nearbyint (r)) > 1 || e > 0.55)
                off++;
            }
          GCV_TEST_CHECK (off == 0, "%s: %ld samples more than 0.55 levels from SciPy (worst %.3f)", what, off, worst);
          if (t == 0 && worst > worst_u8)
            worst_u8 = worst;
          if (t == 1 && worst > worst_u16)
            worst_u16 = worst;
          free (out.data);
        }
        free (in.data);
      }
  }
  scipy_cases_free (cases, n_all);
  GCV_TEST_CHECK (n_all >= 5, "scipy manifest %s/%s lists only %d cases", gcv_test_data_dir (), SCIPY_MANIFEST,
      n_all);
  printf ("scipy fixtures: %d cases; F32 max error %.3g of the data range (limit %g); U8 max |error| %.3f levels, "
      "U16 %.3f levels (unrounded SciPy value)\n", n_all, worst_f, SCIPY_TOL_F32, worst_u8, worst_u16);
}

/* ---- 3. float64 reference ------------------------------------------------------------ */

typedef struct {
  int iw, ih, ow, oh;
  SourceKind src;
  int large;                    /* many samples: a subset of the combinations */
} SizeCase;

static const SizeCase size_cases[] = {
  {1, 1, 1, 1, SRC_PHOTO, 0}, {1, 1, 7, 5, SRC_PHOTO, 0}, {7, 5, 1, 1, SRC_NOISE, 0}, {7, 5, 1, 1, SRC_PHOTO, 0},
  {2, 2, 5, 3, SRC_NOISE, 0}, {3, 3, 2, 2, SRC_PHOTO, 0}, {17, 9, 5, 23, SRC_PHOTO, 0},
  {17, 9, 5, 23, SRC_CHECKER, 0}, {9, 2, 2, 9, SRC_NOISE, 0}, {1, 37, 3, 11, SRC_PHOTO, 0},
  {37, 1, 80, 2, SRC_STEPS, 0}, {33, 17, 33, 17, SRC_PHOTO, 0}, {37, 29, 80, 61, SRC_PHOTO, 0},
  {64, 48, 45, 31, SRC_PHOTO, 0}, {65, 67, 31, 140, SRC_NOISE, 0}, {100, 75, 33, 26, SRC_PHOTO, 0},
  {20, 14, 61, 43, SRC_STEPS, 0}, {31, 23, 100, 70, SRC_CHECKER, 0}, {120, 90, 7, 5, SRC_PHOTO, 0},
  {200, 150, 640, 1, SRC_PHOTO, 0}, {50, 40, 150, 120, SRC_PHOTO, 0}, {96, 96, 32, 32, SRC_CHECKER, 0},
  {641, 481, 1283, 963, SRC_PHOTO, 1}, {640, 480, 211, 157, SRC_PHOTO, 1},
};

static void
test_against_reference (int exhaustive)
{
  static const int chans[] = { 1, 2, 4, 3 };
  static const size_t in_pads[] = { 0, 4, 28, 64 }, out_pads[] = { 0, 8, 4, 60 };
  long runs = 0, combo = 0;
  double t0 = gcv_test_now_s ();

  for (size_t sc = 0; sc < sizeof (size_cases) / sizeof (size_cases[0]); sc++) {
    const SizeCase *z = &size_cases[sc];
    for (int ci = 0; ci < 4; ci++)
      for (int t = 0; t < 3; t++)
        for (int m = 0; m < 4; m++)
          for (int aa = 0; aa < 2; aa++, combo++) {
            GcvSampleType type = (GcvSampleType) t;
            int C = chans[ci];
            Plane in, out;
            double *vin, *ref, lo = INFINITY, hi = -INFINITY, scale;
            char what[300];
            GcvScaleParams p = params_make ((GcvScaleMethod) m, aa);
            /* 3 channels only on every other case; large cases: every
             * method x antialias x type once, channels rotating */
            if (ci == 3 && (sc & 1))
              continue;
            if (z->large && !exhaustive && ci != (int) ((sc + t + m + aa) % 3))
              continue;
            in = make_input (type, C, z->iw, z->ih, z->src, (int) sc, in_pads[combo & 3] * (t == 1 ? 2 : 1),
                (uint32_t) combo);
            vin = plane_values (&in);
            for (size_t i = 0; i < (size_t) z->iw * z->ih * C; i++) {
              lo = fmin (lo, vin[i]);
              hi = fmax (hi, vin[i]);
            }
            snprintf (what, sizeof (what), "%s %dx%d -> %dx%d, %s antialias %d, %s x %d, strides %zu -> %zu",
                source_names[z->src], z->iw, z->ih, z->ow, z->oh, method_names[m], aa, type_names[t], C, in.stride,
                (size_t) z->ow * C * (size_t) gcv_sample_bytes (type) + out_pads[(combo >> 2) & 3]);
            if (run_cpu (&in, z->ow, z->oh, &p, out_pads[(combo >> 2) & 3], (int) (combo % 3), &out, what) == 0) {
              ref = gcv_test_malloc (sizeof (double) * z->ow * z->oh * C);
              ref_scale (vin, z->iw, z->ih, C, (GcvScaleMethod) m, aa, z->ow, z->oh, ref);
              /* the data range, but at least the largest magnitude: float
               * errors scale with the values (think of a 1x1 input) */
              scale = fmax (hi - lo, fmax (fabs (hi), fabs (lo)));
              compare_to_ref (&out, ref, scale > 0 ? scale : 1, (GcvScaleMethod) m, what);
              GCV_TEST_CHECK (padding_is (&out, 0xa5), "%s: output padding overwritten", what);
              free (ref);
              free (out.data);
              runs++;
            }
            free (vin);
            free (in.data);
          }
  }
  printf ("float64 reference: %ld runs (%.1f s); largest errors:\n", runs, gcv_test_now_s () - t0);
  for (int m = 0; m < 4; m++)
    printf ("  %-12s F32 %.3g of the data scale (limit %g; at %s)\n  %-12s U8 |err| 0.5 %+.4f, U16 0.5 %+.4f levels "
        "(limits +%g, +%g)\n", method_names[m], worst_f32[m], REF_TOL_F32, worst_f32_where[m], "", worst_int_excess[m][0],
        worst_int_excess[m][1], REF_TOL_INT, REF_TOL_U16);
}

/* Exact halves round to even: bilinear 8x1 -> 4x1 without antialias
 * averages pairs (weights 0.5, 0.5, exact in float). */
static void
test_rounding (void)
{
  static const int pairs[][2] = { {0, 1}, {1, 2}, {2, 3}, {3, 4}, {254, 255}, {253, 254}, {7, 8}, {8, 9} };
  GcvScaleParams p = params_make (GCV_SCALE_BILINEAR, 0);
  for (int t = 0; t < 3; t++)
    for (int half = 0; half < 2; half++) {
      Plane in = plane_new ((GcvSampleType) t, 1, 8, 1, 0), out;
      double base = t == GCV_SAMPLE_U16 ? 65000 : 0;
      char what[128];
      snprintf (what, sizeof (what), "rounding of exact halves, %s", type_names[t]);
      for (int k = 0; k < 4; k++) {
        plane_put (&in, 2 * k, 0, 0, base + pairs[4 * half + k][0]);
        plane_put (&in, 2 * k + 1, 0, 0, base + pairs[4 * half + k][1]);
      }
      if (run_cpu (&in, 4, 1, &p, 0, 1, &out, what) == 0) {
        for (int k = 0; k < 4; k++) {
          double mid = base + (pairs[4 * half + k][0] + pairs[4 * half + k][1]) / 2.0;
          /* F32 as is; integers the even neighbour of the half */
          double expect = t == GCV_SAMPLE_F32 ? mid : ((long) floor (mid)) % 2 == 0 ? floor (mid) : ceil (mid);
          GCV_TEST_CHECK (plane_get (&out, k, 0, 0) == expect, "%s: %g rounded to %g, expected %g", what, mid,
              plane_get (&out, k, 0, 0), expect);
        }
        free (out.data);
      }
      free (in.data);
    }
}

/* Padding garbage must not leak: the same samples with other garbage and
 * with packed rows give bit-identical output (every method, type, 1..4
 * channels); and a plane wider in bytes than any row (stride >> width) */
static void
test_strides (void)
{
  int n = 0;
  for (int t = 0; t < 3; t++)
    for (int C = 1; C <= 4; C++)
      for (int m = 0; m < 4; m++) {
        static const int sz[][4] = { {37, 29, 80, 61}, {64, 48, 21, 17}, {9, 40, 9, 3} };
        const int *s = sz[(t + C + m) % 3];
        GcvScaleParams p = params_make ((GcvScaleMethod) m, 1);
        Plane a = make_input ((GcvSampleType) t, C, s[0], s[1], SRC_PHOTO, m, 0, 5);
        Plane b = plane_new ((GcvSampleType) t, C, s[0], s[1], 4 * 97);
        Plane c = plane_new ((GcvSampleType) t, C, s[0], s[1], 4 * 3);
        Plane oa, ob, oc;
        char what[200];
        plane_fill_garbage (&b, 1000 + n);
        plane_fill_garbage (&c, 2000 + n);
        for (int y = 0; y < s[1]; y++) {
          memcpy (b.data + y * b.stride, a.data + y * a.stride, a.stride);
          memcpy (c.data + y * c.stride, a.data + y * a.stride, a.stride);
        }
        snprintf (what, sizeof (what), "strides: %s x %d %dx%d -> %dx%d %s", type_names[t], C, s[0], s[1], s[2], s[3],
            method_names[m]);
        if (run_cpu (&a, s[2], s[3], &p, 0, 0, &oa, what) == 0) {
          if (run_cpu (&b, s[2], s[3], &p, 4 * 33, 1, &ob, what) == 0) {
            GCV_TEST_CHECK (rows_equal (&oa, &ob), "%s: input stride %zu (garbage padding) changes the output", what,
                b.stride);
            GCV_TEST_CHECK (padding_is (&ob, 0xa5), "%s: output padding (stride %zu) overwritten", what, ob.stride);
            free (ob.data);
          }
          if (run_cpu (&c, s[2], s[3], &p, 1 * (int) (size_t) gcv_sample_bytes ((GcvSampleType) t), 0, &oc, what) == 0) {
            GCV_TEST_CHECK (rows_equal (&oa, &oc), "%s: input stride %zu (garbage padding) changes the output", what,
                c.stride);
            GCV_TEST_CHECK (padding_is (&oc, 0xa5), "%s: output padding (stride %zu) overwritten", what, oc.stride);
            free (oc.data);
          }
          free (oa.data);
        }
        free (a.data);
        free (b.data);
        free (c.data);
        n++;
      }
}

/* ---- 4. threads, context reuse --------------------------------------------------- */

static void
test_threads_and_reuse (void)
{
  static const int sz[][4] = { {641, 481, 320, 241}, {200, 150, 413, 311}, {33, 900, 70, 50} };
  for (int k = 0; k < 3; k++)
    for (int m = 0; m < 4; m++) {
      GcvSampleType type = (GcvSampleType) ((k + m) % 3);
      int C = 1 + (k + m) % 4;
      GcvScaleParams p = params_make ((GcvScaleMethod) m, (m + k) & 1);
      Plane in = make_input (type, C, sz[k][0], sz[k][1], SRC_PHOTO, k + 1, 8, 77), o0, o1, o3;
      char what[200];
      snprintf (what, sizeof (what), "threads: %s x %d %dx%d -> %dx%d %s antialias %d", type_names[type], C, sz[k][0],
          sz[k][1], sz[k][2], sz[k][3], method_names[m], p.antialias);
      if (run_cpu (&in, sz[k][2], sz[k][3], &p, 0, 1, &o1, what) == 0) {
        if (run_cpu (&in, sz[k][2], sz[k][3], &p, 0, 0, &o0, what) == 0) {
          GCV_TEST_CHECK (memcmp (o0.data, o1.data, o0.stride * o0.height) == 0, "%s: n_threads 0 != n_threads 1",
              what);
          free (o0.data);
        }
        if (run_cpu (&in, sz[k][2], sz[k][3], &p, 0, 3, &o3, what) == 0) {
          GCV_TEST_CHECK (memcmp (o3.data, o1.data, o3.stride * o3.height) == 0, "%s: n_threads 3 != n_threads 1",
              what);
          free (o3.data);
        }
        free (o1.data);
      }
      free (in.data);
    }

  /* one context, parameters changing between frames, vs fresh contexts */
  for (int t = 0; t < 3; t++) {
    static const int seq[][2] = { {0, 1}, {2, 1}, {0, 0}, {1, 1}, {3, 0}, {3, 1}, {0, 1}, {1, 0}, {2, 0}, {0, 1} };
    int C = t + 2 > 4 ? 4 : t + 2;
    Plane in = make_input ((GcvSampleType) t, C, 150, 90, SRC_PHOTO, t, 16, 3);
    GcvScaleGeometry g = geom_make ((GcvSampleType) t, C, 150, 90, 61, 200);
    GcvError err;
    GcvScaleCpu *ctx;
    memset (&err, 0, sizeof (err));
    ctx = gcv_scale_cpu_new (&g, &err);
    GCV_TEST_CHECK (ctx != NULL, "cpu_new: %s", err.message);
    for (size_t i = 0; ctx && i < sizeof (seq) / sizeof (seq[0]); i++) {
      GcvScaleParams p = params_make ((GcvScaleMethod) seq[i][0], seq[i][1]);
      Plane fresh, reused = plane_new ((GcvSampleType) t, C, 61, 200, 0);
      GcvPlane pi = plane_desc (&in), po = plane_desc (&reused);
      char what[200];
      snprintf (what, sizeof (what), "context reuse, frame %zu: %s antialias %d, %s x %d", i, method_names[seq[i][0]],
          seq[i][1], type_names[t], C);
      memset (reused.data, 0, reused.stride * reused.height);
      memset (&err, 0, sizeof (err));
      GCV_TEST_CHECK (gcv_scale_cpu_process (ctx, &p, &pi, &po, 0, &err) == GCV_OK, "%s: %s", what, err.message);
      if (run_cpu (&in, 61, 200, &p, 0, 0, &fresh, what) == 0) {
        GCV_TEST_CHECK (rows_equal (&fresh, &reused), "%s: differs from a fresh context", what);
        free (fresh.data);
      }
      free (reused.data);
    }
    gcv_scale_cpu_free (ctx);
    free (in.data);
  }
}

/* ---- 5. antialias ------------------------------------------------------------------ */

static double
plane_std (const Plane * p, double *mean_out)
{
  double s = 0, s2 = 0;
  long n = (long) p->width * p->height * p->channels;
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++)
      for (int c = 0; c < p->channels; c++) {
        double v = plane_get (p, x, y, c);
        s += v;
        s2 += v * v;
      }
  s /= n;
  if (mean_out)
    *mean_out = s;
  s2 = s2 / n - s * s;
  return sqrt (s2 > 0 ? s2 : 0);
}

static void
test_antialias_checkerboard (void)
{
  Plane in = make_input (GCV_SAMPLE_U8, 1, 300, 300, SRC_CHECKER, 0, 0, 1);
  printf ("antialias: 1-pixel 0/255 checkerboard 300x300 -> 100x100, U8, standard deviation (mean):\n");
  for (int m = 0; m < 3; m++)
    for (int aa = 1; aa >= 0; aa--) {
      GcvScaleParams p = params_make ((GcvScaleMethod) m, aa);
      Plane out;
      char what[128];
      snprintf (what, sizeof (what), "checkerboard /3, %s antialias %d", method_names[m], aa);
      if (run_cpu (&in, 100, 100, &p, 0, 0, &out, what) == 0) {
        double mean, sd = plane_std (&out, &mean);
        printf ("  %-12s antialias %d: %7.3f (%.2f)\n", method_names[m], aa, sd, mean);
        if (aa)
          GCV_TEST_CHECK (sd < 2.0 && fabs (mean - 127.5) < 2, "%s: standard deviation %.3f (mean %.2f), expected "
              "< 2 around 127.5", what, sd, mean);
        else
          GCV_TEST_CHECK (sd > 50.0, "%s: standard deviation %.3f: without antialias the checkerboard must alias "
              "(else this test could not fail)", what, sd);
        free (out.data);
      }
    }
  free (in.data);
}

/* ---- 6. round trip on the photos ------------------------------------------------------ */

static void
test_round_trip (void)
{
  double psnr[4][4];
  printf ("round trip (down x2, up x2, antialias on, U8, all channels): PSNR in dB\n  %-14s", "photo");
  for (int m = 0; m < 4; m++)
    printf (" %12s", method_names[m]);
  printf ("\n");
  for (int ph = 0; ph < gcv_test_n_photos; ph++) {
    const GcvTestImage *im = &photos[ph];
    int C = im->channels == 1 ? 1 : 3, w = im->width & ~1, h = im->height & ~1;
    Plane in = plane_new (GCV_SAMPLE_U8, C, w, h, 0);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        for (int c = 0; c < C; c++)
          plane_put (&in, x, y, c, im->data[(size_t) y * im->stride + (size_t) x * im->channels + c]);
    printf ("  %-14s", gcv_test_photos[ph]);
    for (int m = 0; m < 4; m++) {
      GcvScaleParams p = params_make ((GcvScaleMethod) m, 1);
      Plane half, back;
      char what[128];
      psnr[ph][m] = -1;
      snprintf (what, sizeof (what), "round trip %s %dx%d, %s", gcv_test_photos[ph], w, h, method_names[m]);
      if (run_cpu (&in, w / 2, h / 2, &p, 0, 0, &half, what) == 0) {
        if (run_cpu (&half, w, h, &p, 0, 0, &back, what) == 0) {
          double se = 0;
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
              for (int c = 0; c < C; c++) {
                double d = plane_get (&back, x, y, c) - plane_get (&in, x, y, c);
                se += d * d;
              }
          psnr[ph][m] = 10 * log10 (255.0 * 255.0 / (se / ((double) w * h * C)));
          free (back.data);
        }
        free (half.data);
      }
      printf (" %12.2f", psnr[ph][m]);
    }
    printf ("\n");
    GCV_TEST_CHECK (psnr[ph][GCV_SCALE_BSPLINE] > psnr[ph][GCV_SCALE_BILINEAR], "round trip on %s: bspline PSNR %.2f dB "
        "does not beat bilinear %.2f dB", gcv_test_photos[ph], psnr[ph][GCV_SCALE_BSPLINE],
        psnr[ph][GCV_SCALE_BILINEAR]);
    GCV_TEST_CHECK (psnr[ph][GCV_SCALE_BILINEAR] > 20 && psnr[ph][GCV_SCALE_NEAREST] > 15, "round trip on %s: PSNR "
        "implausibly low (bilinear %.2f, nearest %.2f dB)", gcv_test_photos[ph], psnr[ph][GCV_SCALE_BILINEAR],
        psnr[ph][GCV_SCALE_NEAREST]);
    free (in.data);
  }
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  int exhaustive = gcv_test_env_flag ("GCV_TEST_EXHAUSTIVE");

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("test data: %s\n", gcv_test_data_dir ());
  photos_load ();

  test_mirror_kernel ();
  test_axis_tables ();
  test_arguments ();
  printf ("API checks done (%ld failures so far, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_scipy_fixtures ();
  test_rounding ();
  test_against_reference (exhaustive);
  test_strides ();
  printf ("reference and stride checks done (%ld failures so far, %.1f s)\n", gcv_test_failures,
      gcv_test_now_s () - t0);
  test_threads_and_reuse ();
  test_antialias_checkerboard ();
  test_round_trip ();

  photos_free ();
  return gcv_test_summary (t0);
}
