/* gst-cuda-video: the float64 reference of the spatio-temporal convolution
 * and the helpers the conv3d tests share (see conv3d_reference.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "conv3d_reference.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference ---------------------------------------------------------- */

int
conv3d_ref_border (GcvConv3dBorder border, long long i, long long n)
{
  if (i >= 0 && i < n)
    return (int) i;
  if (border == GCV_CONV3D_BORDER_ZERO)
    return -1;
  if (border == GCV_CONV3D_BORDER_REPLICATE)
    return i < 0 ? 0 : (int) (n - 1);
  /* mirror: reflect about -1/2 and n - 1/2 until inside */
  while (i < 0 || i >= n) {
    if (i < 0)
      i = -1 - i;
    if (i >= n)
      i = 2 * n - 1 - i;
  }
  return (int) i;
}

/* map[p + r] = the border index of p, p = -r .. n - 1 + r */
static int *
border_map (GcvConv3dBorder border, int n, int r)
{
  int *map = gcv_test_malloc (sizeof (int) * (n + 2 * r));
  for (int p = -r; p < n + r; p++)
    map[p + r] = conv3d_ref_border (border, p, n);
  return map;
}

void
conv3d_ref_convolve (const double *in, int width, int height, int channels, int frames,
    unsigned filter_mask, const GcvConv3dParams * p, double *out)
{
  const int kx = p->kx, ky = p->ky, kt = p->kt, rx = kx / 2, ry = ky / 2, rt = kt / 2;
  int *mx = border_map (p->border, width, rx);
  int *my = border_map (p->border, height, ry);
  int *mt = border_map (p->border, frames, rt);
  double *k = gcv_test_malloc (sizeof (double) * kx * ky * kt);

  for (int n = 0; n < kx * ky * kt; n++)
    k[n] = p->coefficients[n];
  for (int t = 0; t < frames; t++)
    for (int y = 0; y < height; y++)
      for (int x = 0; x < width; x++)
        for (int c = 0; c < channels; c++) {
          size_t o = (((size_t) t * height + y) * width + x) * channels + c;
          double acc = 0.0, v;
          if (!((filter_mask >> c) & 1)) {
            out[o] = in[o];
            continue;
          }
          /* V[x + rx - i, y + ry - j, t + rt - l]: map index (x + rx - i) + rx */
          for (int l = 0; l < kt; l++) {
            int s = mt[t + 2 * rt - l];
            if (s < 0)
              continue;
            for (int j = 0; j < ky; j++) {
              int sy = my[y + 2 * ry - j];
              if (sy < 0)
                continue;
              for (int i = 0; i < kx; i++) {
                int sx = mx[x + 2 * rx - i];
                if (sx < 0)
                  continue;
                acc += k[i + kx * (j + ky * l)]
                    * in[(((size_t) s * height + sy) * width + sx) * channels + c];
              }
            }
          }
          v = (double) p->scale * acc;
          if (p->absolute)
            v = fabs (v);
          out[o] = v + (double) p->offset;
        }
  free (mx);
  free (my);
  free (mt);
  free (k);
}

double
conv3d_ref_quantise (double v, GcvSampleType type)
{
  double hi = type == GCV_SAMPLE_U8 ? 255.0 : 65535.0;

  if (type == GCV_SAMPLE_F32)
    return (double) (float) v;
  v = nearbyint (v);            /* the default rounding mode: half to even */
  return v < 0.0 ? 0.0 : v > hi ? hi : v;
}

double
conv3d_ref_vmax (GcvSampleType type, const double *in, size_t n)
{
  double m = 1e-30;

  if (type == GCV_SAMPLE_U8)
    return 255.0;
  if (type == GCV_SAMPLE_U16)
    return 65535.0;
  for (size_t i = 0; i < n; i++)
    if (fabs (in[i]) > m)
      m = fabs (in[i]);
  return m;
}

double
conv3d_ref_tolerance (const GcvConv3dParams * p, double vmax)
{
  return fabs ((double) p->scale) * GCV_CONV3D_TOLERANCE
      * conv3d_test_abs_sum (p->coefficients, p->kx * p->ky * p->kt) * vmax;
}

/* ---- volumes ------------------------------------------------------------------ */

static GcvTestImage photos[4];
static int photos_loaded;

static int
photo_sample (int ph, int x, int y, int c)
{
  const GcvTestImage *im;
  const uint8_t *px;

  if (!photos_loaded) {
    gcv_test_load_photos (photos);
    photos_loaded = 1;
  }
  im = &photos[ph % gcv_test_n_photos];
  x = ((x % im->width) + im->width) % im->width;
  y = ((y % im->height) + im->height) % im->height;
  px = im->data + (size_t) y * im->stride + (size_t) x * im->channels;
  return im->channels == 1 ? px[0] : px[c % 3];
}

/* A byte of the padding / output pattern: a hash of (seed, frame, row,
 * byte), so that it can be recomputed to check it. */
static uint8_t
pattern_byte (uint32_t seed, int f, int y, size_t b)
{
  uint32_t h = seed * 0x9e3779b9u ^ (uint32_t) f * 0x85ebca6bu ^ (uint32_t) y * 0xc2b2ae35u
      ^ (uint32_t) b * 0x27d4eb2fu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return (uint8_t) h;
}

static void
put_sample (uint8_t * row, GcvSampleType t, size_t i, double v)
{
  if (t == GCV_SAMPLE_U8) {
    row[i] = (uint8_t) v;
  } else if (t == GCV_SAMPLE_U16) {
    uint16_t u = (uint16_t) v;
    memcpy (row + 2 * i, &u, 2);
  } else {
    float f = (float) v;
    memcpy (row + 4 * i, &f, 4);
  }
}

double
conv3d_test_get (const Conv3dVolume * v, int f, int x, int y, int c)
{
  return gcv_test_sample_get (v->data[f] + v->stride * y, v->type, (size_t) x * v->channels + c);
}

Conv3dVolume
conv3d_test_volume_new (GcvSampleType type, int channels, int width, int height, int frames,
    size_t pad_bytes, uint32_t seed)
{
  Conv3dVolume v;

  memset (&v, 0, sizeof (v));
  v.type = type;
  v.width = width;
  v.height = height;
  v.channels = channels;
  v.frames = frames;
  v.stride = (size_t) width * channels * gcv_sample_bytes (type) + pad_bytes;
  v.pad_seed = seed;
  v.data = gcv_test_malloc (sizeof (uint8_t *) * (frames > 0 ? frames : 1));
  for (int f = 0; f < frames; f++) {
    v.data[f] = gcv_test_malloc (v.stride * height);
    for (int y = 0; y < height; y++)
      for (size_t b = 0; b < v.stride; b++)
        v.data[f][v.stride * y + b] = pattern_byte (seed, f, y, b);
  }
  return v;
}

void
conv3d_test_volume_free (Conv3dVolume * v)
{
  for (int f = 0; v->data && f < v->frames; f++)
    free (v->data[f]);
  free (v->data);
  free (v->values);
  memset (v, 0, sizeof (*v));
}

GcvPlane
conv3d_test_plane (const Conv3dVolume * v, int f)
{
  GcvPlane p;
  p.data = v->data[f];
  p.width = v->width;
  p.height = v->height;
  p.stride = v->stride;
  return p;
}

int
conv3d_test_padding_intact (const Conv3dVolume * v)
{
  size_t row = (size_t) v->width * v->channels * gcv_sample_bytes (v->type);

  for (int f = 0; f < v->frames; f++)
    for (int y = 0; y < v->height; y++)
      for (size_t b = row; b < v->stride; b++)
        if (v->data[f][v->stride * y + b] != pattern_byte (v->pad_seed, f, y, b))
          return 0;
  return 1;
}

Conv3dVolume
conv3d_test_video (GcvSampleType type, int channels, int width, int height, int frames,
    size_t pad_bytes, uint32_t seed)
{
  Conv3dVolume v = conv3d_test_volume_new (type, channels, width, height, frames, pad_bytes, seed);
  uint32_t st = seed * 747796405u + 2891336453u;
  int ph = (int) (seed % 4);
  /* a start, a velocity of -3 .. 3 pixels per frame (never still) */
  int x0 = (int) (gcv_test_rand (&st) % 400), y0 = (int) (gcv_test_rand (&st) % 250);
  int dx = (int) (gcv_test_rand (&st) % 7) - 3, dy = (int) (gcv_test_rand (&st) % 5) - 2;
  size_t row = (size_t) width * channels * gcv_sample_bytes (type);

  if (dx == 0 && dy == 0)
    dx = 2;
  v.values = gcv_test_malloc (sizeof (double) * (size_t) frames * height * width * channels);
  for (int f = 0; f < frames; f++) {
    /* the padding: NaN and huge values for F32, the pattern otherwise */
    if (type == GCV_SAMPLE_F32)
      for (int y = 0; y < height; y++)
        for (size_t b = row, k = 0; b + 4 <= v.stride; b += 4, k++) {
          float g = (k & 1) ? FLT_MAX : NAN;
          memcpy (v.data[f] + v.stride * y + b, &g, 4);
        }
    for (int y = 0; y < height; y++)
      for (int x = 0; x < width; x++)
        for (int c = 0; c < channels; c++) {
          int u, noise = (int) (gcv_test_rand (&st) % 7) - 3;
          double d = (double) (gcv_test_rand (&st) % 257u) - 128.0, s;
          if (c < 3)
            u = photo_sample (ph, x0 + x + f * dx, y0 + y + f * dy, c);
          else                  /* an "alpha" from another photo, moving the other way */
            u = photo_sample (ph + 1, x0 + 2 * x - f * dx + 100, y0 + y - f * dy + 50, 1);
          u += noise;
          u = u < 0 ? 0 : u > 255 ? 255 : u;
          if (type == GCV_SAMPLE_U8) {
            s = u;
          } else if (type == GCV_SAMPLE_U16) {
            s = u * 257.0 + d;
            s = s < 0 ? 0 : s > 65535 ? 65535 : s;
          } else {
            s = (double) (float) ((u - 100) / 50.0 + d / 12800.0);
          }
          put_sample (v.data[f] + v.stride * y, type, (size_t) x * channels + c, s);
          v.values[(((size_t) f * height + y) * width + x) * channels + c] = s;
        }
  }
  return v;
}

/* ---- kernels ------------------------------------------------------------------ */

void
conv3d_test_random_kernel (int kx, int ky, int kt, uint32_t seed, float *out)
{
  uint32_t st = seed * 2654435761u + 12345u;

  for (int n = 0; n < kx * ky * kt; n++)
    out[n] = (float) ((gcv_test_rand (&st) % 20001u) / 10000.0 - 1.0);
  for (int l = 0; l < kt; l++)
    out[kx / 2 + kx * (ky / 2 + ky * l)] += 1.0f;
}

double
conv3d_test_abs_sum (const float *k, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += fabs ((double) k[i]);
  return s;
}

GcvConv3dParams
conv3d_test_params (int kx, int ky, int kt, GcvConv3dBorder border, GcvConv3dAlgorithm algorithm,
    const float *coefficients)
{
  GcvConv3dParams p;

  memset (&p, 0, sizeof (p));
  p.kx = kx;
  p.ky = ky;
  p.kt = kt;
  p.border = border;
  p.algorithm = algorithm;
  p.coefficients = coefficients;
  p.scale = 1.0f;
  p.offset = 0.0f;
  p.absolute = 0;
  return p;
}

GcvConv3dGeometry
conv3d_test_geometry (GcvSampleType type, int channels, unsigned filter_mask, int width, int height,
    int max_outputs)
{
  GcvConv3dGeometry g;

  memset (&g, 0, sizeof (g));
  g.type = type;
  g.channels = channels;
  g.filter_mask = filter_mask;
  g.width = width;
  g.height = height;
  g.max_outputs = max_outputs;
  return g;
}

/* ---- streaming ------------------------------------------------------------------ */

static GcvStatus
cpu_push (void *ctx, const GcvPlane * in, GcvError * err)
{
  return gcv_conv3d_cpu_push (ctx, in, err);
}

static void
cpu_end (void *ctx)
{
  gcv_conv3d_cpu_end (ctx);
}

static int
cpu_ready (void *ctx)
{
  return gcv_conv3d_cpu_ready (ctx);
}

static GcvStatus
cpu_process (void *ctx, const GcvConv3dParams * params, int n, GcvPlane * out, GcvError * err)
{
  return gcv_conv3d_cpu_process (ctx, params, n, out, err);
}

Conv3dBackend
conv3d_test_cpu_backend (GcvConv3dCpu * ctx)
{
  Conv3dBackend b;
  b.ctx = ctx;
  b.push = cpu_push;
  b.end = cpu_end;
  b.ready = cpu_ready;
  b.process = cpu_process;
  return b;
}

/* Processes n outputs from *done on. */
static int
run_process (const Conv3dBackend * b, const GcvConv3dParams * params, int n, Conv3dVolume * out,
    int *done, char *msg, size_t len)
{
  GcvPlane planes[GCV_CONV3D_MAX_OUTPUTS];
  GcvError err;

  if (n > GCV_CONV3D_MAX_OUTPUTS) {
    snprintf (msg, len, "runner: batch %d larger than GCV_CONV3D_MAX_OUTPUTS", n);
    return -1;
  }
  for (int o = 0; o < n; o++)
    planes[o] = conv3d_test_plane (out, *done + o);
  memset (&err, 0, sizeof (err));
  if (b->process (b->ctx, params, n, planes, &err) != GCV_OK) {
    snprintf (msg, len, "process of outputs %d .. %d refused: %s", *done, *done + n - 1, err.message);
    return -1;
  }
  *done += n;
  return 0;
}

int
conv3d_test_run (const Conv3dBackend * b, const Conv3dVolume * in, const GcvConv3dParams * params,
    int kt, int batch, Conv3dVolume * out, char *msg, size_t len)
{
  const int rt = kt / 2, frames = in->frames;
  uint32_t st = 0x1234567u ^ (uint32_t) frames * 977u ^ (uint32_t) (batch + 100);
  int done = 0, r, want;
  GcvError err;

#define NEXT_WANT() (batch > 0 ? batch : 1 + (int) (gcv_test_rand (&st) % (uint32_t) (-batch)))
  if (batch == 0) {
    snprintf (msg, len, "runner: batch 0");
    return -1;
  }
  want = NEXT_WANT ();
  for (int f = 0; f < frames; f++) {
    GcvPlane p = conv3d_test_plane (in, f);
    int expect = f + 1 - rt - done;
    memset (&err, 0, sizeof (err));
    if (b->push (b->ctx, &p, &err) != GCV_OK) {
      snprintf (msg, len, "push of frame %d (%d outputs done) refused: %s", f, done, err.message);
      return -1;
    }
    r = b->ready (b->ctx);
    if (r != (expect > 0 ? expect : 0)) {
      snprintf (msg, len, "after pushing frame %d (%d outputs done, kt %d) %d outputs ready, want %d",
          f, done, kt, r, expect > 0 ? expect : 0);
      return -1;
    }
    while (r >= want) {
      if (run_process (b, params, want, out, &done, msg, len) != 0)
        return -1;
      r = b->ready (b->ctx);
      want = NEXT_WANT ();
    }
  }
  b->end (b->ctx);
  r = b->ready (b->ctx);
  if (r != frames - done) {
    snprintf (msg, len, "after _end() of %d frames (%d outputs done) %d outputs ready, want %d",
        frames, done, r, frames - done);
    return -1;
  }
  while (done < frames) {
    int n = want < frames - done ? want : frames - done;
    if (run_process (b, params, n, out, &done, msg, len) != 0)
      return -1;
    want = NEXT_WANT ();
  }
  r = b->ready (b->ctx);
  if (r != 0) {
    snprintf (msg, len, "all %d outputs done, yet %d more ready", frames, r);
    return -1;
  }
#undef NEXT_WANT
  return 0;
}

/* ---- comparisons ----------------------------------------------------------------- */

static void
diff_init (Conv3dDiff * d, double tol)
{
  memset (d, 0, sizeof (*d));
  d->tol = tol;
  d->first_f = d->first_x = d->first_y = d->first_c = -1;
}

static void
diff_bad (Conv3dDiff * d, int f, int x, int y, int c, double got, double want, int copy)
{
  if (copy)
    d->bad_copy++;
  else
    d->bad++;
  if (d->first_f < 0) {
    d->first_f = f;
    d->first_x = x;
    d->first_y = y;
    d->first_c = c;
    d->first_got = got;
    d->first_ref = want;
  }
}

/* One sample: err of got against want (unquantised when raw). */
static void
diff_sample (Conv3dDiff * d, GcvSampleType type, int f, int x, int y, int c, double got, double want,
    int raw, int copy)
{
  double e;

  if (copy) {
    if (!(got == want))
      diff_bad (d, f, x, y, c, got, want, 1);
    return;
  }
  if (type == GCV_SAMPLE_F32) {
    e = fabs (got - want);
    if (!(e <= d->tol + ldexp (fabs (want), -22)))
      diff_bad (d, f, x, y, c, got, want, 0);
  } else {
    e = fabs (got - (raw ? conv3d_ref_quantise (want, type) : want));
    if (!(e <= 1.0))
      diff_bad (d, f, x, y, c, got, want, 0);
  }
  if (!(e <= d->max_err))
    d->max_err = isnan (e) ? INFINITY : e;
}

void
conv3d_test_compare (const Conv3dVolume * got, const double *ref, unsigned filter_mask, double tol,
    Conv3dDiff * d)
{
  diff_init (d, tol);
  for (int f = 0; f < got->frames; f++)
    for (int y = 0; y < got->height; y++)
      for (int x = 0; x < got->width; x++)
        for (int c = 0; c < got->channels; c++)
          diff_sample (d, got->type, f, x, y, c, conv3d_test_get (got, f, x, y, c),
              ref[(((size_t) f * got->height + y) * got->width + x) * got->channels + c], 1,
              !((filter_mask >> c) & 1));
}

void
conv3d_test_compare_volumes (const Conv3dVolume * a, const Conv3dVolume * b, unsigned filter_mask,
    double tol, Conv3dDiff * d)
{
  diff_init (d, tol);
  for (int f = 0; f < a->frames; f++)
    for (int y = 0; y < a->height; y++)
      for (int x = 0; x < a->width; x++)
        for (int c = 0; c < a->channels; c++)
          diff_sample (d, a->type, f, x, y, c, conv3d_test_get (a, f, x, y, c),
              conv3d_test_get (b, f, x, y, c), 0, !((filter_mask >> c) & 1));
}

const char *
conv3d_test_diff_string (const Conv3dDiff * d, char *buf, size_t len)
{
  if (d->first_f < 0)
    snprintf (buf, len, "max err %.3g (tol %.3g), no bad sample", d->max_err, d->tol);
  else
    snprintf (buf, len, "max err %.3g (tol %.3g), %ld bad, %ld bad copies, first at frame %d "
        "(%d,%d) channel %d: got %.9g, want %.9g", d->max_err, d->tol, d->bad, d->bad_copy,
        d->first_f, d->first_x, d->first_y, d->first_c, d->first_got, d->first_ref);
  return buf;
}
