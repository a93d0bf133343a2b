/* gst-cuda-video: GstHarness tests for the cudaconv3d and cpuconv3d elements
 * (spatio-temporal 3-D convolution).
 *
 * Every content test runs against both element names: on a machine without a
 * usable GPU cudaconv3d falls back to the CPU twin.  With
 * GST_CUDA_VIDEO_REQUIRE_GPU=1 in the environment, cudaconv3d must report
 * backend "cuda", and test_cpu_cuda compares it with cpuconv3d.
 *
 * Pixels are compared with the float64 brute-force reference the conv3d
 * tests share (tests/conv3d_reference.h: out[x, y, t] = sum K[i, j, l]
 * V[x + rx - i, y + ry - j, t + rt - l] with the zero / replicate / mirror
 * borders in space and in time, the stream's length known at its end; then
 * scale, absolute, offset, rounding half to even and clamping), run plane
 * by plane on whole clips.  The kernels are computed here from the
 * formulas of the documentation (gaussian, box, gabor, custom with the
 * normalisation rule), independently of cpu/conv3d.c.  Filtered samples
 * must be within 1 level of the reference; samples that are only delayed
 * (alpha, the x of RGBx, chroma with planes=luma) must equal the centre
 * frame's exactly.  The reference is checked against a hand-computed
 * impulse response (test_impulse_orientation), so that a flipped kernel or
 * a shifted centre cannot hide in both.
 *
 * Input is real photos (tests/data) panned across by a few pixels a frame,
 * so that consecutive frames differ; small frames keep the run short.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

/* the element test kit (tests/common): harness, frames, buffers, PNG
 * loading and the test data directory */
#include "gcv-check.h"
/* the enums and gcv_conv3d_cpu_have_fft () */
#include "conv3d.h"
/* the float64 reference the conv3d tests share (tests/conv3d_reference.h) */
#include "conv3d_reference.h"

static const gchar *const element_names[] = { "cpuconv3d", "cudaconv3d" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)

static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx,
};

#define N_FORMATS G_N_ELEMENTS (all_formats)

static const gchar *const algorithm_nicks[] = { "auto", "baseline", "shared",
  "streaming", "fft3d", "fft-hybrid"
};

#define N_ALGORITHMS G_N_ELEMENTS (algorithm_nicks)

static const gchar *const border_nicks[] = { "zero", "replicate", "mirror" };

#define N_BORDERS G_N_ELEMENTS (border_nicks)

/* ------------------------------------------------------------------------ */
/* content: the photos in tests/data, panned across                         */

static Img *
img_copy (const Img * src)
{
  Img *im = img_new (img_format (src), img_w (src), img_h (src));
  im->info = src->info;
  memcpy (im->data, src->data, GST_VIDEO_INFO_SIZE (&src->info));
  return im;
}

/* A short video: n frames of the same format and size. */
typedef struct
{
  Img **f;
  gint n;
} Clip;

static Clip *
clip_alloc (gint n)
{
  Clip *c = g_new0 (Clip, 1);
  c->n = n;
  c->f = g_new0 (Img *, MAX (n, 1));
  return c;
}

/* n frames of photo @which panned by (3, 2) pixels a frame (the content
 * moves left and up), from an offset that depends on @seed */
static Clip *
clip_new (GstVideoFormat fmt, gint w, gint h, gint n, gint which,
    guint32 seed)
{
  Clip *c = clip_alloc (n);
  gint t, x0 = 40 + (gint) (seed % 97) * 3, y0 = 60 + (gint) (seed % 53) * 2;

  for (t = 0; t < n; t++)
    c->f[t] = img_from_test_photo_t (fmt, w, h, which, x0 + 3 * t, y0 + 2 * t, t,
        seed * 131 + t);
  return c;
}

static void
clip_free (Clip * c)
{
  gint t;
  if (!c)
    return;
  for (t = 0; t < c->n; t++)
    img_free (c->f[t]);
  g_free (c->f);
  g_free (c);
}

/* frames [from, to) of @c as a clip of their own (copies) */
static Clip *
clip_sub (const Clip * c, gint from, gint to)
{
  Clip *s = clip_alloc (to - from);
  gint t;
  for (t = from; t < to; t++)
    s->f[t - from] = img_copy (c->f[t]);
  return s;
}

/* ------------------------------------------------------------------------ */
/* the element settings a test runs with                                    */

typedef struct
{
  const gchar *kernel;          /* nick */
  gint size, tsize;             /* tsize 0: size */
  gdouble sigma, tsigma, wavelength, orientation, speed;
  const gfloat *coef;           /* kernel=custom (set when n_coef > 0) */
  guint n_coef;
  gboolean normalize;
  gdouble scale, offset;
  gboolean absolute;
  const gchar *border, *algorithm, *planes;
} Cfg;

static Cfg
cfg_default (void)
{
  Cfg c = { "gaussian", 5, 0, 0.0, 0.0, 8.0, 0.0, 0.0, NULL, 0, TRUE, 1.0,
    0.0, FALSE, "mirror", "auto", "all"
  };
  return c;
}

static gint
cfg_kt (const Cfg * c)
{
  return c->tsize ? c->tsize : c->size;
}

static gchar *
cfg_describe (const Cfg * c)
{
  return g_strdup_printf ("kernel=%s size=%d temporal-size=%d sigma=%g "
      "temporal-sigma=%g wavelength=%g orientation=%g speed=%g (%u "
      "coefficients) normalize=%d scale=%g offset=%g absolute=%d border=%s "
      "algorithm=%s planes=%s", c->kernel, c->size, c->tsize, c->sigma,
      c->tsigma, c->wavelength, c->orientation, c->speed, c->n_coef,
      c->normalize, c->scale, c->offset, c->absolute, c->border, c->algorithm,
      c->planes);
}

/* v[0 .. n-1] as the GstValueArray of floats the coefficients property
 * takes (g_value_unset it) */
static void
coefficients_value (GValue * arr, const gfloat * v, guint n)
{
  guint i;

  g_value_init (arr, GST_TYPE_ARRAY);
  for (i = 0; i < n; i++) {
    GValue f = G_VALUE_INIT;
    g_value_init (&f, G_TYPE_FLOAT);
    g_value_set_float (&f, v[i]);
    gst_value_array_append_and_take_value (arr, &f);
  }
}

static void
set_coefficients (GstElement * e, const gfloat * v, guint n)
{
  GValue arr = G_VALUE_INIT;

  coefficients_value (&arr, v, n);
  g_object_set_property (G_OBJECT (e), "coefficients", &arr);
  g_value_unset (&arr);
}

/* the coefficients property (g_free) */
static gfloat *
get_coefficients (GstElement * e, guint * n)
{
  GValue arr = G_VALUE_INIT;
  gfloat *v;
  guint i;

  g_value_init (&arr, GST_TYPE_ARRAY);
  g_object_get_property (G_OBJECT (e), "coefficients", &arr);
  *n = gst_value_array_get_size (&arr);
  v = g_new0 (gfloat, MAX (*n, 1));
  for (i = 0; i < *n; i++) {
    const GValue *f = gst_value_array_get_value (&arr, i);
    fail_unless (G_VALUE_HOLDS_FLOAT (f), "coefficient %u is a %s", i,
        G_VALUE_TYPE_NAME (f));
    v[i] = g_value_get_float (f);
  }
  g_value_unset (&arr);
  return v;
}

static void
apply_cfg (GstElement * e, const Cfg * c)
{
  gint size, tsize;

  gst_util_set_object_arg (G_OBJECT (e), "kernel", c->kernel);
  g_object_set (e, "size", c->size, "temporal-size", c->tsize, "sigma",
      c->sigma, "temporal-sigma", c->tsigma, "wavelength", c->wavelength,
      "orientation", c->orientation, "speed", c->speed, "normalize",
      c->normalize, "scale", c->scale, "offset", c->offset, "absolute",
      c->absolute, NULL);
  if (c->n_coef)
    set_coefficients (e, c->coef, c->n_coef);
  gst_util_set_object_arg (G_OBJECT (e), "border", c->border);
  gst_util_set_object_arg (G_OBJECT (e), "algorithm", c->algorithm);
  gst_util_set_object_arg (G_OBJECT (e), "planes", c->planes);
  g_object_get (e, "size", &size, "temporal-size", &tsize, NULL);
  fail_unless_equals_int (size, c->size);
  fail_unless_equals_int (tsize, c->tsize);
  fail_unless_equals_string (enum_nick (e, "kernel"), c->kernel);
  fail_unless_equals_string (enum_nick (e, "border"), c->border);
  fail_unless_equals_string (enum_nick (e, "algorithm"), c->algorithm);
  fail_unless_equals_string (enum_nick (e, "planes"), c->planes);
}

/* ------------------------------------------------------------------------ */
/* the float64 reference                                                    */

static gdouble
ref_default_sigma (gint size)
{
  return 0.3 * ((size - 1) * 0.5 - 1.0) + 0.8;
}

/* divided by the sum, or by the sum of the positive taps when the sum is
 * ~0 (|sum| <= 1e-6 sum |K|) */
static void
ref_normalize (gdouble * k, gint n)
{
  gdouble sum = 0, abs_sum = 0, pos = 0, div;
  gint i;

  for (i = 0; i < n; i++) {
    sum += k[i];
    abs_sum += fabs (k[i]);
    pos += k[i] > 0 ? k[i] : 0;
  }
  fail_unless (abs_sum > 0, "reference: all-zero kernel");
  div = fabs (sum) > 1e-6 * abs_sum ? sum : pos;
  for (i = 0; i < n; i++)
    k[i] /= div;
}

/* The kernel of @c from the formulas of the documentation, x fastest, then
 * y, then t (g_free). */
static gdouble *
ref_kernel (const Cfg * c, gint * kx, gint * ky, gint * kt)
{
  gint rx, ry, rt, i, j, l, n;
  gdouble *k, sig, sig_t, theta, c_num = 0, c_den = 0, cm;

  *kx = *ky = c->size;
  *kt = cfg_kt (c);
  n = *kx * *ky * *kt;
  k = g_new0 (gdouble, n);
  rx = *kx / 2;
  ry = *ky / 2;
  rt = *kt / 2;
  sig = c->sigma > 0 ? c->sigma : ref_default_sigma (c->size);
  sig_t = c->tsigma > 0 ? c->tsigma : ref_default_sigma (*kt);
  theta = c->orientation * G_PI / 180.0;

  if (g_str_equal (c->kernel, "custom")) {
    fail_unless ((gint) c->n_coef == n, "reference: %u coefficients for "
        "%d taps", c->n_coef, n);
    for (i = 0; i < n; i++)
      k[i] = c->coef[i];
  } else if (g_str_equal (c->kernel, "box")) {
    for (i = 0; i < n; i++)
      k[i] = 1.0;
  } else {
    gboolean gabor = g_str_equal (c->kernel, "gabor");
    fail_unless (gabor || g_str_equal (c->kernel, "gaussian"));
    for (l = 0; l < *kt; l++)
      for (j = 0; j < *ky; j++)
        for (i = 0; i < *kx; i++) {
          gdouble x = i - rx, y = j - ry, t = l - rt;
          gdouble e = exp (-(x * x + y * y) / (2 * sig * sig) -
              t * t / (2 * sig_t * sig_t));
          k[i + *kx * (j + *ky * l)] = e;
          if (gabor) {
            gdouble xr = x * cos (theta) + y * sin (theta);
            c_num += e * cos (2 * G_PI * (xr - c->speed * t) / c->wavelength);
            c_den += e;
          }
        }
    if (gabor) {
      cm = c_num / c_den;
      for (l = 0; l < *kt; l++)
        for (j = 0; j < *ky; j++)
          for (i = 0; i < *kx; i++) {
            gdouble x = i - rx, y = j - ry, t = l - rt;
            gdouble xr = x * cos (theta) + y * sin (theta);
            gint idx = i + *kx * (j + *ky * l);
            k[idx] *= cos (2 * G_PI * (xr - c->speed * t) / c->wavelength) -
                cm;
          }
    }
  }
  if (c->normalize)
    ref_normalize (k, n);
  return k;
}

/* the property's nicks are in the order of GcvConv3dBorder (checked in
 * test_properties) */
static GcvConv3dBorder
border_from_nick (const gchar * nick)
{
  guint b;
  for (b = 0; b < N_BORDERS; b++)
    if (g_str_equal (nick, border_nicks[b]))
      return (GcvConv3dBorder) b;
  fail ("unknown border %s", nick);
  return GCV_CONV3D_BORDER_MIRROR;
}

/* One plane as the element sees it: interleaved channels (the pixel
 * stride over the sample size), the filtered ones in mask. */
typedef struct
{
  gint w, h, channels, bytes;
  guint mask;
} PlaneGeom;

/* alpha is never filtered, the x of RGBx is no component; with
 * @luma_only only Y of YUV formats */
static void
plane_geom (const GstVideoInfo * info, gint p, gboolean luma_only,
    PlaneGeom * g)
{
  gint c0 = plane_first_comp (info, p), c;

  g->bytes = GST_VIDEO_INFO_COMP_DEPTH (info, c0) > 8 ? 2 : 1;
  g->channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, c0) / g->bytes;
  g->w = GST_VIDEO_INFO_COMP_WIDTH (info, c0);
  g->h = GST_VIDEO_INFO_COMP_HEIGHT (info, c0);
  g->mask = 0;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if ((gint) GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    if (GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A)
      continue;
    if (luma_only && GST_VIDEO_INFO_IS_YUV (info) && c != GST_VIDEO_COMP_Y)
      continue;
    g->mask |= 1u << (comp_byte_offset (info, c) / g->bytes);
  }
}

static guint8 *
sample_ptr (const Img * im, gint p, const PlaneGeom * g, gint x, gint y,
    gint ch)
{
  return im->data + GST_VIDEO_INFO_PLANE_OFFSET (&im->info, p) +
      (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&im->info, p) +
      ((gsize) x * g->channels + ch) * g->bytes;
}

static guint
sample_get (const Img * im, gint p, const PlaneGeom * g, gint x, gint y,
    gint ch)
{
  const guint8 *s = sample_ptr (im, p, g, x, y, ch);
  return g->bytes == 2 ? GST_READ_UINT16_LE (s) : *s;
}

static void
sample_set (Img * im, gint p, const PlaneGeom * g, gint x, gint y, gint ch,
    guint v)
{
  guint8 *s = sample_ptr (im, p, g, x, y, ch);
  if (g->bytes == 2)
    GST_WRITE_UINT16_LE (s, v);
  else
    *s = v;
}

typedef struct
{
  const gdouble *k;
  gint kx, ky, kt;
  gint border;
  gdouble scale, offset;
  gboolean absolute, luma_only;
} RefParams;

/* The whole clip @in (a stream from its first to its last frame) through
 * the 3-D convolution of @rp, plane by plane, by conv3d_ref_convolve ()
 * (float64, brute force) and conv3d_ref_quantise (), P010's words then
 * rounded to 10-bit codes (p010_round); unfiltered channels are the centre
 * frame's. */
static Clip *
ref_clip_params (const Clip * in, const RefParams * rp)
{
  Clip *out = clip_alloc (in->n);
  const GstVideoInfo *info = &in->f[0]->info;
  gint n = in->n, nk = rp->kx * rp->ky * rp->kt, p, t, i;
  gfloat *kf = g_new (gfloat, nk);
  GcvConv3dParams params;

  /* the element's kernel is float too */
  for (i = 0; i < nk; i++)
    kf[i] = (gfloat) rp->k[i];
  memset (&params, 0, sizeof (params));
  params.kx = rp->kx;
  params.ky = rp->ky;
  params.kt = rp->kt;
  params.border = (GcvConv3dBorder) rp->border;
  params.algorithm = GCV_CONV3D_BASELINE;
  params.coefficients = kf;
  params.scale = (gfloat) rp->scale;
  params.offset = (gfloat) rp->offset;
  params.absolute = rp->absolute;

  for (t = 0; t < n; t++)
    out->f[t] = img_copy (in->f[t]);
  for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (info); p++) {
    PlaneGeom g;
    gsize fs;
    gdouble *src, *dst;
    gint x, y, ch;
    GcvSampleType type;

    plane_geom (info, p, rp->luma_only, &g);
    if (!g.mask)
      continue;
    type = g.bytes == 2 ? GCV_SAMPLE_U16 : GCV_SAMPLE_U8;
    fs = (gsize) g.w * g.h * g.channels;
    src = g_new (gdouble, fs * n);
    dst = g_new (gdouble, fs * n);
    for (t = 0; t < n; t++)
      for (y = 0; y < g.h; y++)
        for (x = 0; x < g.w; x++)
          for (ch = 0; ch < g.channels; ch++)
            src[t * fs + ((gsize) y * g.w + x) * g.channels + ch] =
                sample_get (in->f[t], p, &g, x, y, ch);
    conv3d_ref_convolve (src, g.w, g.h, g.channels, n, g.mask, &params, dst);
    for (t = 0; t < n; t++)
      for (y = 0; y < g.h; y++)
        for (x = 0; x < g.w; x++)
          for (ch = 0; ch < g.channels; ch++)
            if (g.mask & (1u << ch)) {
              guint v = (guint) conv3d_ref_quantise (dst[t * fs + ((gsize) y *
                      g.w + x) * g.channels + ch], type);
              if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_P010_10LE)
                v = p010_round (v);
              sample_set (out->f[t], p, &g, x, y, ch, v);
            }
    g_free (src);
    g_free (dst);
  }
  g_free (kf);
  return out;
}

static Clip *
ref_clip (const Clip * in, const Cfg * cfg)
{
  RefParams rp;
  gdouble *k;
  Clip *out;

  k = ref_kernel (cfg, &rp.kx, &rp.ky, &rp.kt);
  rp.k = k;
  rp.border = border_from_nick (cfg->border);
  rp.scale = cfg->scale;
  rp.offset = cfg->offset;
  rp.absolute = cfg->absolute;
  rp.luma_only = g_str_equal (cfg->planes, "luma");
  out = ref_clip_params (in, &rp);
  g_free (k);
  return out;
}

/* Filtered samples of every frame within @tol of @ref (P010: @tol 10-bit
 * codes, a word one level off rounds to the next code), the others equal;
 * the frames are of the same format and size. */
static void
assert_clip_close (const Clip * out, const Clip * ref, gboolean luma_only,
    gint tol, const gchar * what)
{
  gint t, p;

  fail_unless_equals_int (out->n, ref->n);
  for (t = 0; t < out->n; t++) {
    const GstVideoInfo *info = &ref->f[t]->info;
    fail_unless (img_format (out->f[t]) == img_format (ref->f[t]) &&
        img_w (out->f[t]) == img_w (ref->f[t]) &&
        img_h (out->f[t]) == img_h (ref->f[t]), "%s: frame %d is %s %dx%d, "
        "expected %s %dx%d", what, t,
        gst_video_format_to_string (img_format (out->f[t])),
        img_w (out->f[t]), img_h (out->f[t]),
        gst_video_format_to_string (img_format (ref->f[t])),
        img_w (ref->f[t]), img_h (ref->f[t]));
    for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (info); p++) {
      PlaneGeom g;
      gint x, y, ch, bad = 0, worst = 0, fx = 0, fy = 0, fch = 0;
      guint fa = 0, fb = 0;

      plane_geom (info, p, luma_only, &g);
      for (y = 0; y < g.h; y++)
        for (x = 0; x < g.w; x++)
          for (ch = 0; ch < g.channels; ch++) {
            gint a = sample_get (out->f[t], p, &g, x, y, ch);
            gint b = sample_get (ref->f[t], p, &g, x, y, ch);
            gint lim = (g.mask & (1u << ch)) ? tol : 0;
            if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_P010_10LE)
              lim *= 64;
            if (ABS (a - b) > lim) {
              if (bad++ == 0) {
                fx = x;
                fy = y;
                fch = ch;
                fa = a;
                fb = b;
              }
              worst = MAX (worst, ABS (a - b));
            }
          }
      fail_unless (bad == 0, "%s: %s %dx%d frame %d plane %d: %d samples "
          "off (worst by %d), first at (%d,%d) channel %d%s: %u, expected %u",
          what, gst_video_format_to_string (img_format (ref->f[t])),
          img_w (ref->f[t]), img_h (ref->f[t]), t, p, bad, worst, fx, fy, fch,
          (g.mask & (1u << fch)) ? "" : " (delayed, not filtered)", fa, fb);
    }
  }
}

/* frames [from, from + part->n) of @out against the reference's output for
 * @part (the input those frames came from) under @cfg, within 1 */
static void
assert_part_close (const Clip * out, gint from, const Clip * part,
    const Cfg * cfg, gboolean luma_only, const gchar * what)
{
  Clip *o = clip_sub (out, from, from + part->n), *ref = ref_clip (part, cfg);
  assert_clip_close (o, ref, luma_only, 1, what);
  clip_free (o);
  clip_free (ref);
}

/* every sample of both clips equal (byte-exact outputs of two runs) */
static void
assert_clip_equal (const Clip * a, const Clip * b, const gchar * what)
{
  assert_clip_close (a, b, FALSE, 0, what);
}

/* ------------------------------------------------------------------------ */
/* running clips through an element                                         */

/* distinct timestamps for input frame i */
static void
stamp_expect (gint i, GstClockTime * pts, GstClockTime * dts,
    GstClockTime * dur, guint64 * off, guint64 * off_end)
{
  *pts = 1000 + (GstClockTime) i * 33333333 + (GstClockTime) i * i * 1000;
  *dts = *pts + 17;
  *dur = 33333333 + i * 7;
  *off = 100 + 3 * i;
  *off_end = 101 + 3 * i;
}

static GstBuffer *
frame_buffer (const Img * im, Layout layout, gint stamp)
{
  GstBuffer *buf = img_to_buffer (im, layout);
  stamp_expect (stamp, &GST_BUFFER_PTS (buf), &GST_BUFFER_DTS (buf),
      &GST_BUFFER_DURATION (buf), &GST_BUFFER_OFFSET (buf),
      &GST_BUFFER_OFFSET_END (buf));
  return buf;
}

static void
check_stamps (GstBuffer * out, gint i, const gchar * what)
{
  GstClockTime pts, dts, dur;
  guint64 off, off_end;

  stamp_expect (i, &pts, &dts, &dur, &off, &off_end);
  fail_unless (GST_BUFFER_PTS (out) == pts && GST_BUFFER_DTS (out) == dts &&
      GST_BUFFER_DURATION (out) == dur && GST_BUFFER_OFFSET (out) == off &&
      GST_BUFFER_OFFSET_END (out) == off_end, "%s: output for input frame %d "
      "has pts %" GST_TIME_FORMAT " dts %" GST_TIME_FORMAT " duration %"
      G_GUINT64_FORMAT " offset %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
      ", the input had %" GST_TIME_FORMAT " %" GST_TIME_FORMAT " %"
      G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, what, i,
      GST_TIME_ARGS (GST_BUFFER_PTS (out)),
      GST_TIME_ARGS (GST_BUFFER_DTS (out)), GST_BUFFER_DURATION (out),
      GST_BUFFER_OFFSET (out), GST_BUFFER_OFFSET_END (out),
      GST_TIME_ARGS (pts), GST_TIME_ARGS (dts), dur, off, off_end);
}

/* Pulls one output buffer (there must be one) and checks that it belongs
 * to input frame @i: its stamps, its size for @info. */
static Img *
pull_frame (Ctx * ctx, const GstVideoInfo * info, gint i, const gchar * what)
{
  GstBuffer *out = gst_harness_try_pull (ctx->h);
  GstCaps *caps;
  Img *im;

  fail_unless (out != NULL, "%s: no output for input frame %d", what, i);
  check_stamps (out, i, what);
  check_buffer_layout (out, info, what);
  caps = gst_video_info_to_caps ((GstVideoInfo *) info);
  im = img_from_buffer (out, caps);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  return im;
}

/* Pushes frames [from, to) of @in (stamps stamp0 + index), checking that
 * the element holds @rt frames back of a history that started at frame
 * @hist: after the push of frame i the output of frame i - rt comes out
 * when i - rt >= hist, nothing otherwise.  The output of frame k goes to
 * out->f[k]. */
static void
push_range (Ctx * ctx, const Clip * in, gint from, gint to, gint rt, gint hist,
    Layout layout, gint stamp0, Clip * out, const gchar * what)
{
  gint i;

  for (i = from; i < to; i++) {
    GstFlowReturn ret = gst_harness_push (ctx->h, frame_buffer (in->f[i],
            layout, stamp0 + i));
    gint k = i - rt;
    fail_unless (ret == GST_FLOW_OK, "%s: push of frame %d returned %s",
        what, i, gst_flow_get_name (ret));
    if (k >= hist) {
      fail_unless (gst_harness_buffers_in_queue (ctx->h) == 1, "%s: %u "
          "buffers out after frame %d, expected the output of frame %d",
          what, gst_harness_buffers_in_queue (ctx->h), i, k);
      out->f[k] = pull_frame (ctx, &in->f[0]->info, stamp0 + k, what);
    } else {
      fail_unless (gst_harness_buffers_in_queue (ctx->h) == 0, "%s: %u "
          "buffers out after frame %d, the first %d of a history are held",
          what, gst_harness_buffers_in_queue (ctx->h), i, rt);
    }
  }
}

/* the outputs of the last min (rt, to - hist) frames of a history that
 * started at @hist, which must all be out (after an EOS or a drain) */
static void
pull_held (Ctx * ctx, const Clip * in, gint hist, gint to, gint rt,
    gint stamp0, Clip * out, const gchar * what)
{
  gint held = MIN (rt, to - hist), k;

  fail_unless (gst_harness_buffers_in_queue (ctx->h) == (guint) held,
      "%s: %u buffers drained, %d frames were held", what,
      gst_harness_buffers_in_queue (ctx->h), held);
  for (k = to - held; k < to; k++)
    out->f[k] = pull_frame (ctx, &in->f[0]->info, stamp0 + k, what);
}

/* EOS in, and out after the drained frames */
static void
push_eos (Ctx * ctx, const gchar * what)
{
  GstEvent *ev;
  gboolean eos = FALSE;

  fail_unless (gst_harness_push_event (ctx->h, gst_event_new_eos ()));
  while ((ev = gst_harness_try_pull_event (ctx->h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      eos = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (eos, "%s: EOS did not come out", what);
}

/* A fresh element with @cfg, the whole clip and an EOS: as many outputs as
 * inputs, each with its frame's stamps. */
static Clip *
run_clip_full (const gchar * name, const Cfg * cfg, const Clip * in,
    Layout layout, gchar ** selected)
{
  Ctx ctx = ctx_new (name, NULL);
  Clip *out = clip_alloc (in->n);
  gchar *what = cfg_describe (cfg);
  gint rt = cfg_kt (cfg) / 2;

  apply_cfg (ctx.e, cfg);
  ctx_set_caps (&ctx, &in->f[0]->info);
  push_range (&ctx, in, 0, in->n, rt, 0, layout, 0, out, what);
  push_eos (&ctx, what);
  pull_held (&ctx, in, 0, in->n, rt, 0, out, what);
  check_backend (ctx.e, name);
  if (selected)
    *selected = g_strdup (enum_nick (ctx.e, "selected-algorithm"));
  ctx_free (&ctx);
  g_free (what);
  return out;
}

static Clip *
run_clip (const gchar * name, const Cfg * cfg, const Clip * in, Layout layout)
{
  return run_clip_full (name, cfg, in, layout, NULL);
}

/* run, compare with the reference within 1 level */
static void
check_clip (const gchar * name, const Cfg * cfg, const Clip * in,
    Layout layout, const gchar * what)
{
  Clip *out = run_clip (name, cfg, in, layout), *ref = ref_clip (in, cfg);
  gchar *d = cfg_describe (cfg), *msg = g_strdup_printf ("%s %s (%s, %s "
      "input): %s", name, what, gst_video_format_to_string (img_format
          (in->f[0])), layout_names[layout], d);

  assert_clip_close (out, ref, g_str_equal (cfg->planes, "luma"), 1, msg);
  g_free (msg);
  g_free (d);
  clip_free (out);
  clip_free (ref);
}

/* a sequence of the element's downstream traffic, for ordering checks */
static GstPadProbeReturn
sequence_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GString *s = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    g_string_append (s, "B ");
  } else if (info->type & (GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM |
          GST_PAD_PROBE_TYPE_EVENT_FLUSH)) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      GstCaps *caps;
      GstVideoInfo vi;
      gst_event_parse_caps (ev, &caps);
      fail_unless (gst_video_info_from_caps (&vi, caps));
      g_string_append_printf (s, "C:%s:%dx%d ", GST_VIDEO_INFO_NAME (&vi),
          GST_VIDEO_INFO_WIDTH (&vi), GST_VIDEO_INFO_HEIGHT (&vi));
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS) {
      g_string_append (s, "E ");
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_STOP) {
      g_string_append (s, "F ");
    }
  }
  return GST_PAD_PROBE_OK;
}

static GString *
watch_sequence (Ctx * ctx)
{
  GString *s = g_string_new ("");
  GstPad *src = gst_element_get_static_pad (ctx->e, "src");
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH,
      sequence_probe, s, NULL);
  gst_object_unref (src);
  return s;
}

static void
reject_coefficients (GstElement * e, const gfloat * v, guint n)
{
  GValue arr = G_VALUE_INIT;
  guint n_before, n_after;
  gfloat *before = get_coefficients (e, &n_before), *after;

  coefficients_value (&arr, v, n);
  expect_rejected (e, "coefficients", &arr, NULL);
  g_value_unset (&arr);
  /* bit for bit (a NaN compares equal to everything in gst_value_compare) */
  after = get_coefficients (e, &n_after);
  fail_unless_equals_int (n_after, n_before);
  fail_unless (memcmp (before, after, sizeof (gfloat) * n_before) == 0,
      "rejected coefficients changed the property");
  g_free (before);
  g_free (after);
}

static void
reject_kernel_file (GstElement * e, const gchar * path, const gchar * also)
{
  GValue val = G_VALUE_INIT;
  guint n_before, n_after;
  gfloat *before = get_coefficients (e, &n_before), *after;

  g_value_init (&val, G_TYPE_STRING);
  g_value_set_string (&val, path);
  expect_rejected (e, "kernel-file", &val, also);
  g_value_unset (&val);
  /* and the coefficients it would have replaced are kept */
  after = get_coefficients (e, &n_after);
  fail_unless_equals_int (n_after, n_before);
  fail_unless (memcmp (before, after, sizeof (gfloat) * n_before) == 0,
      "a rejected kernel-file changed the coefficients");
  g_free (before);
  g_free (after);
}

/* the messages of @type (ERROR or WARNING) on @bus: their number; the
 * texts joined in *texts */
static guint
bus_texts (GstBus * bus, GstMessageType type, gchar ** texts)
{
  GstMessage *msg;
  GString *s = g_string_new ("");
  guint n = 0;

  while ((msg = bus_pop_type (bus, 0, type))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    if (type == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    g_string_append_printf (s, "[%s | %s] ", err->message, GST_STR_NULL (dbg));
    n++;
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  *texts = g_string_free (s, FALSE);
  return n;
}

static guint
count_substrings (const gchar * text, const gchar * what)
{
  guint n = 0;
  const gchar *at = text;

  while ((at = strstr (at, what)) != NULL) {
    n++;
    at += strlen (what);
  }
  return n;
}

static guint
bus_errors (GstBus * bus, gchar ** texts)
{
  return bus_texts (bus, GST_MESSAGE_ERROR, texts);
}

static guint
bus_count_type (GstBus * bus, GstMessageType type)
{
  GstMessage *msg;
  guint n = 0;
  while ((msg = bus_pop_type (bus, 0, type))) {
    n++;
    gst_message_unref (msg);
  }
  return n;
}

/* the element's added latency for @cfg-like size settings at fps */
static GstClockTime
frames_latency (gint frames, gint fps_n, gint fps_d)
{
  if (fps_n <= 0 || frames == 0)
    return 0;
  return gst_util_uint64_scale_int (frames * GST_SECOND, fps_d, fps_n);
}

/* ======================================================================== */
/* tests                                                                    */

GST_START_TEST (test_properties)
{
  const gchar *name = element_names[__i__];
  GstElement *e = gst_element_factory_make (name, NULL);
  GObjectClass *klass;
  GParamSpec *pspec;
  static const struct
  {
    const gchar *name;
    gdouble min, max, def;
    gboolean controllable;
  } doubles[] = {
    {"sigma", 0.0, 1000.0, 0.0, TRUE},
    {"temporal-sigma", 0.0, 1000.0, 0.0, TRUE},
    {"wavelength", 0.5, 1000.0, 8.0, TRUE},
    {"orientation", -360.0, 360.0, 0.0, TRUE},
    {"speed", -64.0, 64.0, 0.0, TRUE},
    {"scale", -1e6, 1e6, 1.0, TRUE},
    {"offset", -1e6, 1e6, 0.0, TRUE},
  };
  static const struct
  {
    const gchar *name;
    const gchar *type;
    const gchar *def;
    const gchar *const nicks[7];
  } enums[] = {
    {"kernel", "GstCudaVideoConv3dKernel", "gaussian",
        {"gaussian", "box", "gabor", "custom", NULL}},
    {"border", "GstCudaVideoConv3dBorder", "mirror",
        {"zero", "replicate", "mirror", NULL}},
    {"algorithm", "GstCudaVideoConv3dAlgorithm", "auto",
        {"auto", "baseline", "shared", "streaming", "fft3d", "fft-hybrid",
            NULL}},
    {"planes", "GstCudaVideoConv3dPlanes", "all", {"all", "luma", NULL}},
    {"selected-algorithm", "GstCudaVideoConv3dAlgorithm", "auto",
        {"auto", "baseline", "shared", "streaming", "fft3d", "fft-hybrid",
            NULL}},
  };
  guint i, n;
  gint iv;
  gboolean bv;
  gchar *sv;
  gfloat *coef;

  fail_unless (e != NULL, "no element %s (is GST_PLUGIN_PATH set?)", name);
  klass = G_OBJECT_GET_CLASS (e);

  /* registration: metadata of the pair */
  {
    GstElementFactory *f = gst_element_get_factory (e);
    const gchar *klass_str = gst_element_factory_get_metadata (f,
        GST_ELEMENT_METADATA_KLASS);
    const gchar *longname = gst_element_factory_get_metadata (f,
        GST_ELEMENT_METADATA_LONGNAME);
    fail_unless_equals_string (klass_str, g_str_has_prefix (name, "cuda") ?
        "Filter/Effect/Video/Hardware" : "Filter/Effect/Video");
    fail_unless (strstr (longname, "3-D convolution") != NULL, "%s", longname);
    fail_unless (g_str_has_prefix (longname, g_str_has_prefix (name, "cuda") ?
            "CUDA" : "CPU"), "%s", longname);
    fail_unless (GST_IS_BASE_TRANSFORM (e));
  }

  /* size: odd 1 .. 31, 5 */
  pspec = g_object_class_find_property (klass, "size");
  fail_unless (pspec && G_IS_PARAM_SPEC_INT (pspec));
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, 1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->maximum, 31);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, 5);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  pspec = g_object_class_find_property (klass, "temporal-size");
  fail_unless (pspec && G_IS_PARAM_SPEC_INT (pspec));
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->minimum, 0);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->maximum, 31);
  fail_unless_equals_int (G_PARAM_SPEC_INT (pspec)->default_value, 0);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  g_object_get (e, "size", &iv, NULL);
  fail_unless_equals_int (iv, 5);
  g_object_get (e, "temporal-size", &iv, NULL);
  fail_unless_equals_int (iv, 0);

  for (i = 0; i < G_N_ELEMENTS (doubles); i++) {
    gdouble v;
    pspec = g_object_class_find_property (klass, doubles[i].name);
    fail_unless (pspec && G_IS_PARAM_SPEC_DOUBLE (pspec), "no double %s",
        doubles[i].name);
    fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->minimum,
        doubles[i].min);
    fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->maximum,
        doubles[i].max);
    fail_unless_equals_float (G_PARAM_SPEC_DOUBLE (pspec)->default_value,
        doubles[i].def);
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s",
        doubles[i].name);
    fail_unless (!doubles[i].controllable ||
        (pspec->flags & GST_PARAM_CONTROLLABLE), "%s is not controllable",
        doubles[i].name);
    g_object_get (e, doubles[i].name, &v, NULL);
    fail_unless_equals_float (v, doubles[i].def);
    /* the ends of the range are taken */
    g_object_set (e, doubles[i].name, doubles[i].max, NULL);
    g_object_get (e, doubles[i].name, &v, NULL);
    fail_unless_equals_float (v, doubles[i].max);
    g_object_set (e, doubles[i].name, doubles[i].min, NULL);
    g_object_get (e, doubles[i].name, &v, NULL);
    fail_unless_equals_float (v, doubles[i].min);
    g_object_set (e, doubles[i].name, doubles[i].def, NULL);
  }

  for (i = 0; i < G_N_ELEMENTS (enums); i++) {
    GEnumClass *ec;
    guint k;
    pspec = g_object_class_find_property (klass, enums[i].name);
    fail_unless (pspec && G_IS_PARAM_SPEC_ENUM (pspec), "no enum %s",
        enums[i].name);
    fail_unless_equals_string (g_type_name (pspec->value_type),
        enums[i].type);
    ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    for (k = 0; enums[i].nicks[k]; k++)
      fail_unless (g_enum_get_value_by_nick (ec, enums[i].nicks[k]) != NULL,
          "%s has no value %s", enums[i].name, enums[i].nicks[k]);
    fail_unless_equals_int (ec->n_values, k);
    fail_unless_equals_int (G_PARAM_SPEC_ENUM (pspec)->default_value,
        g_enum_get_value_by_nick (ec, enums[i].def)->value);
    fail_unless_equals_string (enum_nick (e, enums[i].name), enums[i].def);
    if (g_str_equal (enums[i].name, "selected-algorithm")) {
      fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);
    } else {
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
      for (k = 0; enums[i].nicks[k]; k++) {
        gst_util_set_object_arg (G_OBJECT (e), enums[i].name,
            enums[i].nicks[k]);
        fail_unless_equals_string (enum_nick (e, enums[i].name),
            enums[i].nicks[k]);
      }
      gst_util_set_object_arg (G_OBJECT (e), enums[i].name, enums[i].def);
    }
  }
  /* the nicks are the documented numbering of the shared enums */
  {
    GEnumClass *bc = G_PARAM_SPEC_ENUM (g_object_class_find_property (klass,
            "border"))->enum_class;
    fail_unless_equals_int (g_enum_get_value_by_nick (bc, "zero")->value,
        GCV_CONV3D_BORDER_ZERO);
    fail_unless_equals_int (g_enum_get_value_by_nick (bc, "replicate")->value,
        GCV_CONV3D_BORDER_REPLICATE);
    fail_unless_equals_int (g_enum_get_value_by_nick (bc, "mirror")->value,
        GCV_CONV3D_BORDER_MIRROR);
  }
  fail_unless_equals_int (g_enum_get_value_by_nick (G_PARAM_SPEC_ENUM
          (g_object_class_find_property (klass, "algorithm"))->enum_class,
          "fft-hybrid")->value, GCV_CONV3D_FFT_HYBRID);

  /* coefficients: an array of floats, empty */
  pspec = g_object_class_find_property (klass, "coefficients");
  fail_unless (pspec && GST_IS_PARAM_SPEC_ARRAY_LIST (pspec));
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  coef = get_coefficients (e, &n);
  fail_unless_equals_int (n, 0);
  g_free (coef);
  {
    static const gfloat v[] = { 0.5f, -1.25f, 3e10f, -7e-9f, 0.0f };
    set_coefficients (e, v, G_N_ELEMENTS (v));
    coef = get_coefficients (e, &n);
    fail_unless_equals_int (n, G_N_ELEMENTS (v));
    fail_unless (memcmp (coef, v, sizeof (v)) == 0);
    g_free (coef);
    set_coefficients (e, NULL, 0);
    coef = get_coefficients (e, &n);
    fail_unless_equals_int (n, 0);
    g_free (coef);
  }

  /* kernel-file: a string, unset */
  pspec = g_object_class_find_property (klass, "kernel-file");
  fail_unless (pspec && G_IS_PARAM_SPEC_STRING (pspec));
  g_object_get (e, "kernel-file", &sv, NULL);
  fail_unless (sv == NULL, "kernel-file defaults to '%s'", sv);

  /* booleans */
  pspec = g_object_class_find_property (klass, "normalize");
  fail_unless (pspec && G_IS_PARAM_SPEC_BOOLEAN (pspec));
  g_object_get (e, "normalize", &bv, NULL);
  fail_unless (bv == TRUE);
  pspec = g_object_class_find_property (klass, "absolute");
  fail_unless (pspec && G_IS_PARAM_SPEC_BOOLEAN (pspec));
  g_object_get (e, "absolute", &bv, NULL);
  fail_unless (bv == FALSE);

  /* the base class' ones */
  pspec = g_object_class_find_property (klass, "backend");
  fail_unless (pspec != NULL && pspec->value_type == G_TYPE_STRING);
  fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);
  fail_unless (g_object_class_find_property (klass, "stats") != NULL);
  fail_unless (g_object_class_find_property (klass, "n-threads") != NULL);
  check_device_properties (e, name);
  gst_object_unref (e);

  /* the launch-line syntax of the documentation */
  {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("%s kernel=gabor size=15 temporal-size=7 "
        "wavelength=10 orientation=-30 speed=2 absolute=true scale=2 "
        "border=replicate algorithm=fft-hybrid planes=luma", name);
    GstElement *p = gst_parse_launch (desc, &err);
    gdouble wl, orient, speed, scale;
    gboolean absolute;
    gint size, tsize;

    fail_unless (err == NULL && p != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    g_object_get (p, "size", &size, "temporal-size", &tsize, "wavelength", &wl,
        "orientation", &orient, "speed", &speed, "scale", &scale, "absolute",
        &absolute, NULL);
    fail_unless_equals_int (size, 15);
    fail_unless_equals_int (tsize, 7);
    fail_unless_equals_float (wl, 10.0);
    fail_unless_equals_float (orient, -30.0);
    fail_unless_equals_float (speed, 2.0);
    fail_unless_equals_float (scale, 2.0);
    fail_unless (absolute);
    fail_unless_equals_string (enum_nick (p, "kernel"), "gabor");
    fail_unless_equals_string (enum_nick (p, "border"), "replicate");
    fail_unless_equals_string (enum_nick (p, "algorithm"), "fft-hybrid");
    fail_unless_equals_string (enum_nick (p, "planes"), "luma");
    gst_object_unref (p);
    g_free (desc);

    desc = g_strdup_printf ("%s kernel=custom size=3 temporal-size=1 "
        "coefficients=\"<1, 2, 1, 2, 4, 2, 1, 2, -1.5>\"", name);
    p = gst_parse_launch (desc, &err);
    fail_unless (err == NULL && p != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    coef = get_coefficients (p, &n);
    fail_unless_equals_int (n, 9);
    fail_unless_equals_float (coef[4], 4.0);
    fail_unless_equals_float (coef[8], -1.5);
    g_free (coef);
    gst_object_unref (p);
    g_free (desc);

    /* names that are no value of the enums */
    desc = g_strdup_printf ("%s border=wrap", name);
    p = gst_parse_launch (desc, &err);
    fail_unless (err != NULL, "'%s' parsed without an error", desc);
    fail_unless (strstr (err->message, "border") != NULL, "%s", err->message);
    g_clear_error (&err);
    if (p)
      gst_object_unref (p);
    g_free (desc);
  }
}

GST_END_TEST;

/* invalid values: a g_warning naming the property, the previous value
 * kept; the element then runs with the kept values */
GST_START_TEST (test_property_rejection)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  static const gfloat good[] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  gint i;

  g_object_set (ctx.e, "size", 3, "temporal-size", 3, NULL);
  /* even sizes, by the element; out of range, by GObject */
  for (i = 2; i <= 30; i += 4)
    reject_int (ctx.e, "size", i, "odd");
  reject_int (ctx.e, "size", 0, NULL);
  reject_int (ctx.e, "size", 33, NULL);
  reject_int (ctx.e, "size", -1, NULL);
  for (i = 2; i <= 30; i += 4)
    reject_int (ctx.e, "temporal-size", i, "odd");
  reject_int (ctx.e, "temporal-size", -1, NULL);
  reject_int (ctx.e, "temporal-size", 33, NULL);
  /* temporal-size 0 is "same as size" */
  g_object_set (ctx.e, "temporal-size", 0, NULL);
  g_object_get (ctx.e, "temporal-size", &i, NULL);
  fail_unless_equals_int (i, 0);
  g_object_set (ctx.e, "temporal-size", 3, NULL);

  /* numbers out of range */
  reject_double (ctx.e, "sigma", -0.5);
  reject_double (ctx.e, "wavelength", 0.25);
  reject_double (ctx.e, "scale", 2e6);
  reject_double (ctx.e, "speed", 65.0);

  /* coefficients that are no finite numbers */
  set_coefficients (ctx.e, good, 9);
  {
    gfloat bad[9];
    static const gfloat nonfinite[] = { NAN, INFINITY, -INFINITY };
    guint k;
    for (k = 0; k < G_N_ELEMENTS (nonfinite); k++) {
      memcpy (bad, good, sizeof (bad));
      bad[k * 3 + 1] = nonfinite[k];
      reject_coefficients (ctx.e, bad, 9);
    }
  }
  {
    /* an array element of another type than float (GObject's validation
     * refuses it, as it refuses NaN and infinite floats before the
     * element's own check sees them) */
    GValue arr = G_VALUE_INIT, d = G_VALUE_INIT;
    g_value_init (&arr, GST_TYPE_ARRAY);
    g_value_init (&d, G_TYPE_DOUBLE);
    g_value_set_double (&d, NAN);
    gst_value_array_append_and_take_value (&arr, &d);
    expect_rejected (ctx.e, "coefficients", &arr, NULL);
    g_value_unset (&arr);
  }

  /* still running with the kept values: custom 3 x 3 x 3 of the good
   * spatial taps, not normalised */
  {
    gfloat k27[27];
    Cfg cfg = cfg_default ();
    Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 24, 16, 4, 1, 5);
    Clip *out = clip_alloc (in->n), *ref;
    for (i = 0; i < 27; i++)
      k27[i] = good[i % 9] * (i / 9 == 1 ? 2.0f : 1.0f) / 64.0f;
    cfg.kernel = "custom";
    cfg.size = 3;
    cfg.tsize = 3;
    cfg.coef = k27;
    cfg.n_coef = 27;
    cfg.normalize = FALSE;
    set_coefficients (ctx.e, k27, 27);
    gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
    g_object_set (ctx.e, "normalize", FALSE, NULL);
    reject_int (ctx.e, "size", 4, "odd");
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, 2, 1, 0, LAYOUT_DEFAULT, 0, out, "rejections");
    /* rejected while playing: nothing changes, no frame is lost */
    reject_int (ctx.e, "size", 6, "odd");
    reject_int (ctx.e, "temporal-size", 8, "odd");
    {
      gfloat bad[27];
      memcpy (bad, k27, sizeof (bad));
      bad[13] = NAN;
      reject_coefficients (ctx.e, bad, 27);
    }
    push_range (&ctx, in, 2, 4, 1, 0, LAYOUT_DEFAULT, 0, out, "rejections");
    push_eos (&ctx, "rejections");
    pull_held (&ctx, in, 0, 4, 1, 0, out, "rejections");
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, "after rejected values");
    clip_free (ref);
    clip_free (out);
    clip_free (in);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

/* kernel-file: white space, commas, comments, exponents; replaces the
 * coefficients; a missing file or a bad token is refused with a warning
 * naming the path / the line, and nothing changes */
GST_START_TEST (test_kernel_file)
{
  const gchar *name = element_names[__i__];
  gchar *dir = g_dir_make_tmp ("conv3d-XXXXXX", NULL);
  gchar *good = g_build_filename (dir, "good.txt", NULL);
  gchar *good2 = g_build_filename (dir, "good2.txt", NULL);
  gchar *bad = g_build_filename (dir, "bad.txt", NULL);
  gchar *bad_last = g_build_filename (dir, "bad-last.txt", NULL);
  gchar *empty = g_build_filename (dir, "empty.txt", NULL);
  gchar *nul = g_build_filename (dir, "nul.txt", NULL);
  gchar *missing = g_build_filename (dir, "no-such-file.txt", NULL);
  /* a 3 x 3 x 3 kernel, t = 0 .. 2 */
  static const gchar good_text[] =
      "# a 3 x 3 x 3 kernel, x fastest\n"
      "\n"
      "  1, 2, 1   # t = 0, y = 0\n"
      "2,4,2\n"
      "1 , 2 ,1\n"
      "# t = 1\n"
      "2e0 4 2\t0.4E1, 8, 4\n"
      "2 4 2.0\r\n"
      "-1, -2, -1,  # t = 2: a negative slice\n"
      "-2 -4 -2 -1 -2 -1\n";
  static const gfloat good_values[27] = {
    1, 2, 1, 2, 4, 2, 1, 2, 1,
    2, 4, 2, 4, 8, 4, 2, 4, 2,
    -1, -2, -1, -2, -4, -2, -1, -2, -1
  };
  static const gchar good2_text[] = "0 0 0 0 1 0 0 0 0";
  static const gchar bad_text[] = "1 2 1\n# fine so far\n2 4 x2\n1 2 1\n";
  static const gchar bad_last_text[] = "1, 2, 1,\n2, 4, 2,\n1, 2, 1,\n0 0 inf";
  /* a NUL byte used to end the text there: 9 numbers read, 18 lost */
  static const gchar nul_text[] = "1 2 1\n2 4 2\n1 2 1\n\0" "2 4 2 4 8 4 2 4 2\n1 2 1 2 4 2 1 2 1\n";
  Ctx ctx;
  gfloat *coef;
  gchar *path = NULL;
  guint n;

  fail_unless (dir != NULL);
  fail_unless (g_file_set_contents (good, good_text, -1, NULL));
  fail_unless (g_file_set_contents (good2, good2_text, -1, NULL));
  fail_unless (g_file_set_contents (bad, bad_text, -1, NULL));
  fail_unless (g_file_set_contents (bad_last, bad_last_text, -1, NULL));
  fail_unless (g_file_set_contents (empty, "# only a comment\n\n", -1, NULL));
  fail_unless (g_file_set_contents (nul, nul_text, sizeof (nul_text) - 1, NULL));

  ctx = ctx_new (name, NULL);
  g_object_set (ctx.e, "kernel-file", good, NULL);
  g_object_get (ctx.e, "kernel-file", &path, NULL);
  fail_unless_equals_string (path, good);
  g_free (path);
  coef = get_coefficients (ctx.e, &n);
  fail_unless_equals_int (n, 27);
  fail_unless (memcmp (coef, good_values, sizeof (good_values)) == 0,
      "kernel-file read wrongly (first values %g %g %g, [9] %g [12] %g)",
      coef[0], coef[1], coef[2], coef[9], coef[12]);
  g_free (coef);

  /* refused: the path in the warning for a missing file, the line (and
   * the token) for a bad one; kernel-file and coefficients unchanged */
  reject_kernel_file (ctx.e, missing, "no-such-file.txt");
  reject_kernel_file (ctx.e, bad, "line 3");
  fail_unless (strstr (last_warning, "x2") != NULL, "%s", last_warning);
  reject_kernel_file (ctx.e, bad_last, "line 4");
  reject_kernel_file (ctx.e, empty, NULL);
  reject_kernel_file (ctx.e, nul, "a NUL byte at line 4, column 1");
  g_object_get (ctx.e, "kernel-file", &path, NULL);
  fail_unless_equals_string (path, good);
  g_free (path);

  /* the file's kernel runs, normalised (sum 32) and not */
  {
    Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 21, 13, 4, 2, 8);
    Cfg cfg = cfg_default ();
    Clip *out = clip_alloc (in->n), *ref;
    cfg.kernel = "custom";
    cfg.size = 3;
    cfg.tsize = 3;
    cfg.coef = good_values;
    cfg.n_coef = 27;
    gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
    g_object_set (ctx.e, "size", 3, NULL);
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, in->n, 1, 0, LAYOUT_DEFAULT, 0, out,
        "kernel-file");
    push_eos (&ctx, "kernel-file");
    pull_held (&ctx, in, 0, in->n, 1, 0, out, "kernel-file");
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, "kernel-file kernel");
    clip_free (ref);
    clip_free (out);
    clip_free (in);
  }
  ctx_free (&ctx);

  /* a second file replaces the coefficients; then the coefficients
   * property replaces the file's values; an empty name is taken (no file) */
  ctx = ctx_new (name, NULL);
  g_object_set (ctx.e, "kernel-file", good, NULL);
  g_object_set (ctx.e, "kernel-file", good2, NULL);
  coef = get_coefficients (ctx.e, &n);
  fail_unless_equals_int (n, 9);
  fail_unless_equals_float (coef[4], 1.0);
  g_free (coef);
  {
    static const gfloat v[] = { 0.25f, 0.5f, 0.25f };
    set_coefficients (ctx.e, v, 3);
    coef = get_coefficients (ctx.e, &n);
    fail_unless_equals_int (n, 3);
    fail_unless_equals_float (coef[1], 0.5);
    g_free (coef);
  }
  g_object_set (ctx.e, "kernel-file", NULL, NULL);
  g_object_get (ctx.e, "kernel-file", &path, NULL);
  fail_unless (path == NULL || *path == '\0', "kernel-file %s", path);
  g_free (path);
  /* a kernel-file on the launch line */
  {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("%s kernel=custom size=3 temporal-size=3 "
        "kernel-file=\"%s\"", name, good);
    GstElement *p = gst_parse_launch (desc, &err);
    fail_unless (err == NULL && p != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    coef = get_coefficients (p, &n);
    fail_unless_equals_int (n, 27);
    fail_unless_equals_float (coef[26], -1.0);
    g_free (coef);
    gst_object_unref (p);
    g_free (desc);
  }
  ctx_free (&ctx);

  g_unlink (good);
  g_unlink (good2);
  g_unlink (bad);
  g_unlink (bad_last);
  g_unlink (empty);
  g_unlink (nul);
  g_rmdir (dir);
  g_free (good);
  g_free (good2);
  g_free (bad);
  g_free (bad_last);
  g_free (empty);
  g_free (nul);
  g_free (missing);
  g_free (dir);
}

GST_END_TEST;

/* every format goes through with the same caps (and its pixels right);
 * other formats and media are refused */
GST_START_TEST (test_caps_formats)
{
  const gchar *name = element_names[__i__];
  static const gchar *const rejected[] = {
    "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1",
    "video/x-raw,format=RGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_BE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=NV21,width=64,height=48,framerate=30/1",
    "video/x-raw,format=I420_10LE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=ARGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=Y42B,width=64,height=48,framerate=30/1",
    "video/x-raw,format=I420,width=0,height=48,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  };
  guint f;

  {
    Ctx ctx = ctx_new (name, NULL);
    GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
    GstPad *srcpad = gst_element_get_static_pad (ctx.e, "src");
    GstCaps *peer, *in;

    for (f = 0; f < N_FORMATS; f++) {
      gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=33,"
          "height=17,framerate=25/1",
          gst_video_format_to_string (all_formats[f]));
      GstCaps *c = gst_caps_from_string (str);
      fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused", str);
      gst_caps_unref (c);
      g_free (str);
    }
    check_caps_refused (sinkpad, rejected, G_N_ELEMENTS (rejected));
  check_device_caps (ctx.e, sinkpad, "video/x-raw(memory:CUDAMemory),format=I420,width=64,"
      "height=48,framerate=30/1");

    /* for I420 in, only I420 of the same size can come out */
    in = gst_caps_from_string ("video/x-raw,format=I420,width=64,height=48,"
        "framerate=30/1");
    gst_harness_set_src_caps (ctx.h, gst_caps_ref (in));
    peer = gst_pad_query_caps (srcpad, NULL);
    {
      /* (in CUDA memory too, where the element takes it) */
      GstCaps *system = caps_in_system_memory (peer);
      gchar *str = gst_caps_to_string (peer);
      fail_unless (gst_caps_is_equal (system, in), "src pad offers %s for "
          "I420 64x48 input", str);
      g_free (str);
      gst_caps_unref (system);
    }
    gst_caps_unref (peer);
    gst_caps_unref (in);
    gst_object_unref (sinkpad);
    gst_object_unref (srcpad);
    ctx_free (&ctx);
  }

  /* each format: the output caps are the input caps, the pixels right */
  for (f = 0; f < N_FORMATS; f++) {
    Clip *in = clip_new (all_formats[f], 23, 15, 3, f, 20 + f);
    Cfg cfg = cfg_default ();
    Ctx ctx = ctx_new (name, NULL);
    GstCaps *incaps = gst_video_info_to_caps (&in->f[0]->info), *outcaps;
    Clip *out = clip_alloc (in->n), *ref;
    gchar *what = g_strdup_printf ("%s %s", name,
        gst_video_format_to_string (all_formats[f]));

    cfg.size = 3;
    apply_cfg (ctx.e, &cfg);
    gst_harness_set_src_caps (ctx.h, gst_caps_ref (incaps));
    push_range (&ctx, in, 0, in->n, 1, 0, f % N_LAYOUTS, 0, out, what);
    outcaps = ctx_out_caps (&ctx);
    fail_unless (gst_caps_is_equal (incaps, outcaps), "%s: %" GST_PTR_FORMAT
        " in, %" GST_PTR_FORMAT " out", what, incaps, outcaps);
    push_eos (&ctx, what);
    pull_held (&ctx, in, 0, in->n, 1, 0, out, what);
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, what);
    gst_caps_unref (outcaps);
    gst_caps_unref (incaps);
    clip_free (ref);
    clip_free (out);
    clip_free (in);
    g_free (what);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* LATENCY adds (kt - 1) / 2 frames at the caps' frame rate */
GST_START_TEST (test_latency_query)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gint size, tsize, fps_n, fps_d, frames;
  } cases[] = {
    {5, 0, 30, 1, 2},
    {5, 1, 30, 1, 0},
    {3, 9, 30, 1, 4},
    {9, 0, 25, 1, 4},
    {1, 0, 25, 1, 0},
    {7, 31, 30000, 1001, 15},
    {31, 3, 60, 1, 1},
    {5, 0, 0, 1, 2},            /* variable frame rate: no time to add */
  };
  const GstClockTime upstream = 7 * GST_MSECOND;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    Ctx ctx = ctx_new (name, "size", cases[i].size, "temporal-size",
        cases[i].tsize, NULL);
    Img *im = img_new (GST_VIDEO_FORMAT_GRAY8, 16, 8);
    GstClockTime want = upstream + frames_latency (cases[i].frames,
        cases[i].fps_n, cases[i].fps_d), got;

    GST_VIDEO_INFO_FPS_N (&im->info) = cases[i].fps_n;
    GST_VIDEO_INFO_FPS_D (&im->info) = cases[i].fps_d;
    gst_harness_set_upstream_latency (ctx.h, upstream);
    ctx_set_caps (&ctx, &im->info);
    got = gst_harness_query_latency (ctx.h);
    fail_unless (got == want, "%s size=%d temporal-size=%d at %d/%d: latency "
        "%" GST_TIME_FORMAT ", expected %" GST_TIME_FORMAT " (%d frames)",
        name, cases[i].size, cases[i].tsize, cases[i].fps_n, cases[i].fps_d,
        GST_TIME_ARGS (got), GST_TIME_ARGS (want), cases[i].frames);
    /* the same once frames flow */
    fail_unless_equals_int (gst_harness_push (ctx.h, img_to_buffer (im,
                LAYOUT_DEFAULT)), GST_FLOW_OK);
    fail_unless_equals_uint64 (gst_harness_query_latency (ctx.h), want);
    img_free (im);
    ctx_free (&ctx);
  }
  /* the exact values the issue names */
  fail_unless_equals_uint64 (frames_latency (2, 30, 1), 66666666);
  fail_unless_equals_uint64 (frames_latency (4, 25, 1), 160 * GST_MSECOND);
}

GST_END_TEST;

/* The first rt pushes give nothing; output i carries the PTS, DTS,
 * duration and offsets of input i; the EOS drains the held frames, before
 * the EOS goes on: as many frames out as in, also for streams shorter than
 * rt. */
GST_START_TEST (test_timestamps_drain)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gint size, tsize, n;
    const gchar *border;
  } cases[] = {
    {3, 7, 9, "mirror"},
    {7, 0, 8, "zero"},
    {7, 0, 1, "mirror"},
    {7, 0, 2, "replicate"},
    {7, 0, 2, "mirror"},
    {3, 7, 3, "zero"},
    {5, 0, 4, "mirror"},
    {3, 1, 3, "mirror"},
    {1, 9, 5, "replicate"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    Cfg cfg = cfg_default ();
    Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 19, 11, cases[i].n, i, 30 + i);
    Ctx ctx = ctx_new (name, NULL);
    Clip *out = clip_alloc (in->n), *ref;
    GString *seq = watch_sequence (&ctx);
    gchar *what, *expect;
    gint rt, k;

    cfg.size = cases[i].size;
    cfg.tsize = cases[i].tsize;
    cfg.border = cases[i].border;
    rt = cfg_kt (&cfg) / 2;
    what = g_strdup_printf ("%s size=%d temporal-size=%d border=%s, %d "
        "frames", name, cfg.size, cfg.tsize, cfg.border, in->n);
    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, in->n, rt, 0, LAYOUT_DEFAULT, 0, out, what);
    push_eos (&ctx, what);
    pull_held (&ctx, in, 0, in->n, rt, 0, out, what);
    for (k = 0; k < in->n; k++)
      fail_unless (out->f[k] != NULL);
    /* the caps, the n frames, the EOS after the last one */
    {
      GString *e = g_string_new ("");
      g_string_append_printf (e, "C:GRAY8:19x11 ");
      for (k = 0; k < in->n; k++)
        g_string_append (e, "B ");
      g_string_append (e, "E ");
      expect = g_string_free (e, FALSE);
    }
    fail_unless_equals_string (seq->str, expect);
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, what);
    g_free (expect);
    g_string_free (seq, TRUE);
    clip_free (ref);
    clip_free (out);
    clip_free (in);
    g_free (what);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* the reference's convolution is a convolution (flipped kernel), centred
 * on the frame it is stamped with: a unit impulse gives the kernel back,
 * checked by hand, and the element agrees */
GST_START_TEST (test_impulse_orientation)
{
  const gchar *name = element_names[__i__];
  /* 3 x 3 x 5, every tap distinct: K[i, j, l] = 1 + i + 3 j + 9 l */
  gfloat k[45];
  Cfg cfg = cfg_default ();
  Clip *in = clip_alloc (7), *out, *ref;
  gint t, x, y, i;
  const gint w = 9, h = 7, px = 4, py = 3, pt = 3, amp = 4;

  for (i = 0; i < 45; i++)
    k[i] = 1 + i;
  for (t = 0; t < in->n; t++)
    in->f[t] = img_new (GST_VIDEO_FORMAT_GRAY8, w, h);
  img_set (in->f[pt], 0, px, py, amp);
  cfg.kernel = "custom";
  cfg.size = 3;
  cfg.tsize = 5;
  cfg.coef = k;
  cfg.n_coef = 45;
  cfg.normalize = FALSE;
  cfg.border = "zero";

  /* out[x, y, t] = K[x - px + 1, y - py + 1, t - pt + 2] * amp near the
   * impulse, 0 elsewhere */
  ref = ref_clip (in, &cfg);
  out = run_clip (name, &cfg, in, LAYOUT_DEFAULT);
  for (t = 0; t < in->n; t++)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        gint di = x - px + 1, dj = y - py + 1, dl = t - pt + 2;
        guint want = 0;
        if (di >= 0 && di < 3 && dj >= 0 && dj < 3 && dl >= 0 && dl < 5)
          want = MIN (255, (guint) k[di + 3 * (dj + 3 * dl)] * amp);
        fail_unless (img_get (ref->f[t], 0, x, y) == want, "reference: "
            "frame %d (%d,%d) = %u, the impulse response is %u", t, x, y,
            img_get (ref->f[t], 0, x, y), want);
        fail_unless (img_get (out->f[t], 0, x, y) == want, "%s: frame %d "
            "(%d,%d) = %u, the impulse response is %u", name, t, x, y,
            img_get (out->f[t], 0, x, y), want);
      }
  clip_free (out);
  clip_free (ref);
  clip_free (in);
}

GST_END_TEST;

/* the kernels on photos, GRAY8 */
GST_START_TEST (test_kernels)
{
  const gchar *name = element_names[__i__];
  static const gfloat signed27[27] = {
    0.5f, -1, 0.25f, 2, 3, -0.75f, 0, 1, 1,
    -1, 2, 1, 3, 6, 2, 1, -2, 0.5f,
    0.25f, 0.5f, -1, 0, 2, 1, -0.5f, 1, 0
  };
  static gfloat box_like[3 * 3 * 5];
  Cfg cfgs[12];
  /* quick mode: 5 frames (still one with the whole 5-frame support), and
   * not cases 1, 3 and 7 (gaussian, box and custom run in other cases) */
  const gboolean quick = gcv_check_quick ();
  Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 40, 30, quick ? 5 : 7, 0, 3);
  guint i, n = 0;

  for (i = 0; i < G_N_ELEMENTS (box_like); i++)
    box_like[i] = 1.0f + (i % 7) * 0.125f;

  cfgs[n++] = cfg_default ();
  cfgs[n] = cfg_default ();
  cfgs[n].size = 7;
  cfgs[n].tsize = 3;
  cfgs[n].sigma = 1.5;
  cfgs[n++].tsigma = 0.8;
  cfgs[n] = cfg_default ();
  cfgs[n].size = 3;
  cfgs[n].tsize = 9;
  cfgs[n].tsigma = 3.0;
  cfgs[n].normalize = FALSE;
  cfgs[n++].scale = 0.15;
  cfgs[n] = cfg_default ();
  cfgs[n].kernel = "box";
  cfgs[n].size = 3;
  cfgs[n++].tsize = 5;
  cfgs[n] = cfg_default ();
  cfgs[n].kernel = "box";
  cfgs[n].size = 5;
  cfgs[n].tsize = 1;
  cfgs[n].normalize = FALSE;
  cfgs[n].scale = 1.0 / 30;
  cfgs[n++].offset = 3;
  cfgs[n] = cfg_default ();
  cfgs[n].kernel = "custom";
  cfgs[n].size = 3;
  cfgs[n].tsize = 3;
  cfgs[n].coef = signed27;
  cfgs[n++].n_coef = 27;
  cfgs[n] = cfgs[n - 1];
  cfgs[n].normalize = FALSE;
  cfgs[n].scale = 0.1;
  cfgs[n].offset = 128;
  cfgs[n++].border = "replicate";
  cfgs[n] = cfg_default ();
  cfgs[n].kernel = "custom";
  cfgs[n].size = 3;
  cfgs[n].tsize = 5;
  cfgs[n].coef = box_like;
  cfgs[n++].n_coef = 45;
  cfgs[n] = cfg_default ();
  cfgs[n].kernel = "gabor";
  cfgs[n].size = 9;
  cfgs[n].tsize = 5;
  cfgs[n].wavelength = 6;
  cfgs[n].orientation = 30;
  cfgs[n].speed = 1.5;
  cfgs[n].absolute = TRUE;
  cfgs[n++].scale = 2;
  cfgs[n] = cfgs[n - 1];
  cfgs[n].absolute = FALSE;
  cfgs[n].scale = 1;
  cfgs[n].offset = 128;
  cfgs[n].orientation = -90;
  cfgs[n].speed = -2;
  cfgs[n].sigma = 2.5;
  cfgs[n++].tsigma = 1.2;
  fail_unless (n <= G_N_ELEMENTS (cfgs));

  for (i = 0; i < n; i++) {
    gchar *what;
    if (quick && (i == 1 || i == 3 || i == 7))
      continue;
    what = g_strdup_printf ("kernel case %u", i);
    check_clip (name, &cfgs[i], in, LAYOUT_DEFAULT, what);
    g_free (what);
  }
  /* the parameters matter: sigma, wavelength, speed change the output */
  {
    Cfg a = cfgs[8], b = cfgs[8];
    Clip *oa, *ob;
    b.speed = -1.5;
    oa = run_clip (name, &a, in, LAYOUT_DEFAULT);
    ob = run_clip (name, &b, in, LAYOUT_DEFAULT);
    fail_if (memcmp (oa->f[3]->data, ob->f[3]->data,
            GST_VIDEO_INFO_SIZE (&oa->f[3]->info)) == 0,
        "gabor speed 1.5 and -1.5 give the same output");
    clip_free (oa);
    clip_free (ob);
  }
  clip_free (in);
}

GST_END_TEST;

/* every border in space and time: the first and last frames of a stream
 * are reached by the kernel (kt larger than the stream as well) */
GST_START_TEST (test_borders)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h, n, size, tsize;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 33, 17, 5, 5, 7},
    {GST_VIDEO_FORMAT_RGBA, 20, 12, 6, 3, 5},
    {GST_VIDEO_FORMAT_I420, 18, 10, 3, 7, 9},
    {GST_VIDEO_FORMAT_GRAY16_LE, 15, 9, 4, 9, 3},
  };
  guint c, b;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Clip *in = clip_new (cases[c].fmt, cases[c].w, cases[c].h, cases[c].n,
        c, 40 + c);
    Clip *outs[N_BORDERS];
    for (b = 0; b < N_BORDERS; b++) {
      Cfg cfg = cfg_default ();
      Clip *ref;
      gchar *what;
      cfg.size = cases[c].size;
      cfg.tsize = cases[c].tsize;
      cfg.border = border_nicks[b];
      outs[b] = run_clip (name, &cfg, in, (c + b) % N_LAYOUTS);
      ref = ref_clip (in, &cfg);
      what = g_strdup_printf ("%s border=%s (case %u)", name, cfg.border, c);
      assert_clip_close (outs[b], ref, FALSE, 1, what);
      g_free (what);
      clip_free (ref);
    }
    /* the borders differ, in the first and in the last frame */
    for (b = 0; b < N_BORDERS; b++) {
      guint o = (b + 1) % N_BORDERS;
      gint t;
      for (t = 0; t < in->n; t += in->n - 1) {
        fail_if (memcmp (outs[b]->f[t]->data, outs[o]->f[t]->data,
                GST_VIDEO_INFO_SIZE (&in->f[0]->info)) == 0, "%s: border=%s "
            "and border=%s give the same frame %d (case %u)", name,
            border_nicks[b], border_nicks[o], t, c);
        if (in->n == 1)
          break;
      }
    }
    for (b = 0; b < N_BORDERS; b++)
      clip_free (outs[b]);
    clip_free (in);
  }
}

GST_END_TEST;

/* frames from 1 x 1 up, kernels larger than the frame; size=1
 * temporal-size=1 is the identity */
GST_START_TEST (test_sizes)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][2] = { {1, 1}, {7, 5}, {33, 17}, {2, 1}, {1, 9} };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBx
  };
  static const gint kernels[][2] = { {1, 1}, {9, 3}, {3, 1}, {31, 1},
  {1, 5}
  };
  guint s, f, k;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      Clip *in = clip_new (fmts[f], sizes[s][0], sizes[s][1], 4, s + f,
          50 + 7 * s + f);
      for (k = 0; k < G_N_ELEMENTS (kernels); k++) {
        Cfg cfg = cfg_default ();
        gchar *what;
        if (kernels[k][0] == 31 && sizes[s][0] > 7)
          continue;             /* slow in the reference; 7 x 5 suffices */
        cfg.size = kernels[k][0];
        cfg.tsize = kernels[k][1];
        cfg.border = border_nicks[(s + k) % N_BORDERS];
        what = g_strdup_printf ("%dx%d", sizes[s][0], sizes[s][1]);
        if (k == 0) {
          /* the identity, exactly */
          Clip *out = run_clip (name, &cfg, in, (s + f) % N_LAYOUTS);
          gchar *msg = g_strdup_printf ("%s %s %s size=1 temporal-size=1",
              name, gst_video_format_to_string (fmts[f]), what);
          assert_clip_equal (out, in, msg);
          g_free (msg);
          clip_free (out);
        } else {
          check_clip (name, &cfg, in, (s + f + k) % N_LAYOUTS, what);
        }
        g_free (what);
      }
      clip_free (in);
    }
  }
}

GST_END_TEST;

/* padded and odd input strides (GstVideoMeta): the reference's output,
 * and the same bytes as the default layout */
GST_START_TEST (test_layouts)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_BGRx
  };
  const gboolean quick = gcv_check_quick ();
  guint f, l;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Clip *in;
    Cfg cfg = cfg_default ();
    Clip *outs[N_LAYOUTS], *ref;

    /* quick mode: GRAY16_LE, NV12 and BGRx (16 bits, two planes, four
     * channels; every border), every layout */
    if (quick && f % 2 == 0)
      continue;
    in = clip_new (fmts[f], 29, 19, 4, f, 60 + f);

    cfg.size = 3;
    cfg.tsize = 5;
    cfg.border = border_nicks[f % N_BORDERS];
    ref = ref_clip (in, &cfg);
    for (l = 0; l < N_LAYOUTS; l++) {
      gchar *what = g_strdup_printf ("%s %s, %s input", name,
          gst_video_format_to_string (fmts[f]), layout_names[l]);
      outs[l] = run_clip (name, &cfg, in, l);
      assert_clip_close (outs[l], ref, FALSE, 1, what);
      if (l > 0)
        assert_clip_equal (outs[l], outs[0], what);
      g_free (what);
    }
    for (l = 0; l < N_LAYOUTS; l++)
      clip_free (outs[l]);
    clip_free (ref);
    clip_free (in);
  }
}

GST_END_TEST;

/* multi-channel formats: colour filtered, alpha and the x of RGBx delayed
 * (the centre frame's, exactly); planes=luma: chroma delayed exactly,
 * and the same as planes=all for GRAY and RGB */
GST_START_TEST (test_channels_planes)
{
  const gchar *name = element_names[__i__];
  guint f;

  for (f = 0; f < N_FORMATS; f++) {
    GstVideoFormat fmt = all_formats[f];
    Clip *in = clip_new (fmt, 26, 14, 5, f + 1, 70 + f);
    gint pl;

    for (pl = 0; pl < 2; pl++) {
      Cfg cfg = cfg_default ();
      Clip *out, *ref;
      gchar *what;
      gint t, c, x, y;

      cfg.size = 3;
      cfg.tsize = 5;
      cfg.planes = pl ? "luma" : "all";
      /* scale and offset must not reach the delayed samples */
      cfg.scale = 0.75;
      cfg.offset = 20;
      what = g_strdup_printf ("%s %s planes=%s", name,
          gst_video_format_to_string (fmt), cfg.planes);
      out = run_clip (name, &cfg, in, f % N_LAYOUTS);
      ref = ref_clip (in, &cfg);
      assert_clip_close (out, ref, pl == 1, 1, what);

      /* what is only delayed, checked on its own */
      for (t = 0; t < in->n; t++) {
        const GstVideoInfo *info = &in->f[t]->info;
        for (c = 0; c < img_n_comps (in->f[t]); c++) {
          gboolean delayed = (GST_VIDEO_INFO_HAS_ALPHA (info)
              && c == GST_VIDEO_COMP_A) || (pl == 1
              && GST_VIDEO_INFO_IS_YUV (info) && c != GST_VIDEO_COMP_Y);
          gint same = 0, total = 0;
          for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, c); y++)
            for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, c); x++) {
              guint a = img_get (out->f[t], c, x, y);
              guint b = img_get (in->f[t], c, x, y);
              total++;
              if (a == b)
                same++;
              else if (delayed)
                fail ("%s: frame %d component %d at (%d,%d) is %u, the "
                    "centre frame has %u (it must only be delayed)", what, t,
                    c, x, y, a, b);
            }
          /* and the filtered ones were filtered */
          if (!delayed)
            fail_unless (same < total, "%s: frame %d component %d is the "
                "input unchanged", what, t, c);
        }
        /* the x of RGBx / BGRx: the fourth byte of each pixel, delayed */
        if (fmt == GST_VIDEO_FORMAT_RGBx || fmt == GST_VIDEO_FORMAT_BGRx) {
          PlaneGeom g;
          plane_geom (info, 0, FALSE, &g);
          fail_unless_equals_int (g.channels, 4);
          fail_unless_equals_int (g.mask, 0x7);
          for (y = 0; y < g.h; y++)
            for (x = 0; x < g.w; x++)
              fail_unless (sample_get (out->f[t], 0, &g, x, y, 3) ==
                  sample_get (in->f[t], 0, &g, x, y, 3), "%s: frame %d: the "
                  "x byte of (%d,%d) is %u, the centre frame's is %u", what,
                  t, x, y, sample_get (out->f[t], 0, &g, x, y, 3),
                  sample_get (in->f[t], 0, &g, x, y, 3));
        }
      }
      g_free (what);
      clip_free (out);
      clip_free (ref);
    }

    /* planes=luma changes nothing for GRAY and RGB (quick mode: checked
     * on GRAY16_LE and RGBx only; planes=luma still meets the reference
     * on every format above) */
    if (!GST_VIDEO_FORMAT_INFO_IS_YUV (gst_video_format_get_info (fmt))
        && (!gcv_check_quick () || fmt == GST_VIDEO_FORMAT_GRAY16_LE
            || fmt == GST_VIDEO_FORMAT_RGBx)) {
      Cfg a = cfg_default (), b = cfg_default ();
      Clip *oa, *ob;
      gchar *what = g_strdup_printf ("%s %s planes=luma vs all", name,
          gst_video_format_to_string (fmt));
      a.size = b.size = 3;
      b.planes = "luma";
      oa = run_clip (name, &a, in, LAYOUT_DEFAULT);
      ob = run_clip (name, &b, in, LAYOUT_DEFAULT);
      assert_clip_equal (oa, ob, what);
      clip_free (oa);
      clip_free (ob);
      g_free (what);
    }
    clip_free (in);
  }
}

GST_END_TEST;

/* scale, offset and absolute on a signed (Gabor) response, U8 and U16;
 * scale=0 gives the offset everywhere */
GST_START_TEST (test_scale_offset_absolute)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gdouble scale, offset;
    gboolean absolute;
  } cases[] = {
    {1, 128, FALSE}, {-2, 128, FALSE}, {3, 0, TRUE}, {1, 10, TRUE},
    {0.5, -20, TRUE}, {0, 77, FALSE},
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_GRAY16_LE
  };
  /* quick mode: each case and each clamping direction in one of the two
   * formats only (both formats, every case still) */
  const gboolean quick = gcv_check_quick ();
  guint f, i;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Clip *in = clip_new (fmts[f], 30, 20, 5, 3, 80 + f);
    gdouble unit = fmts[f] == GST_VIDEO_FORMAT_GRAY16_LE ? 257.0 : 1.0;
    for (i = 0; i < G_N_ELEMENTS (cases); i++) {
      Cfg cfg = cfg_default ();
      Clip *out, *ref;
      gchar *what;
      if (quick && i % 2 != f)
        continue;
      cfg.kernel = "gabor";
      cfg.size = 7;
      cfg.tsize = 3;
      cfg.wavelength = 5;
      cfg.orientation = 60;
      cfg.speed = 1;
      cfg.scale = cases[i].scale;
      cfg.offset = cases[i].offset * unit;
      cfg.absolute = cases[i].absolute;
      what = g_strdup_printf ("%s %s scale=%g offset=%g absolute=%d", name,
          gst_video_format_to_string (fmts[f]), cfg.scale, cfg.offset,
          cfg.absolute);
      out = run_clip (name, &cfg, in, LAYOUT_DEFAULT);
      ref = ref_clip (in, &cfg);
      assert_clip_close (out, ref, FALSE, 1, what);
      if (cases[i].scale == 0) {
        gint t, x, y;
        for (t = 0; t < in->n; t++)
          for (y = 0; y < img_h (in->f[t]); y++)
            for (x = 0; x < img_w (in->f[t]); x++)
              fail_unless (img_get (out->f[t], 0, x, y) == (guint) cfg.offset,
                  "%s: (%d,%d) of frame %d is %u", what, x, y, t,
                  img_get (out->f[t], 0, x, y));
      }
      g_free (what);
      clip_free (out);
      clip_free (ref);
    }
    /* a brightened Gaussian and a darkened one: many samples clamp at
     * both ends of the range */
    for (i = 0; i < 2; i++) {
      Cfg cfg = cfg_default ();
      Clip *out, *ref;
      gchar *what;
      gdouble vmax = fmts[f] == GST_VIDEO_FORMAT_GRAY16_LE ? 65535 : 255;
      gint t, x, y, at_end = 0, total = 0;
      if (quick && i != f)
        continue;
      cfg.size = 3;
      cfg.scale = i ? 1.8 : 0.4;
      cfg.offset = (i ? 40 : -80) * unit;
      what = g_strdup_printf ("%s %s clamping scale=%g offset=%g", name,
          gst_video_format_to_string (fmts[f]), cfg.scale, cfg.offset);
      out = run_clip (name, &cfg, in, LAYOUT_ALIGNED);
      ref = ref_clip (in, &cfg);
      assert_clip_close (out, ref, FALSE, 1, what);
      for (t = 0; t < in->n; t++)
        for (y = 0; y < img_h (in->f[t]); y++)
          for (x = 0; x < img_w (in->f[t]); x++) {
            guint v = img_get (ref->f[t], 0, x, y);
            at_end += v == (i ? (guint) vmax : 0);
            total++;
          }
      fail_unless (at_end > total / 50 && at_end < total, "%s: %d of %d "
          "samples at the end of the range: not a clamping test", what,
          at_end, total);
      g_free (what);
      clip_free (out);
      clip_free (ref);
    }
    clip_free (in);
  }
}

GST_END_TEST;

/* every algorithm gives the reference's output within 1 level, and the
 * others' within 1 level; selected-algorithm names what runs */
GST_START_TEST (test_algorithms)
{
  const gchar *name = element_names[__i__];
  static const gfloat signed45[45] = {
    1, -2, 1, 0, 3, 0, -1, 2, -1,
    2, 1, -1, 1, 5, 1, -1, 1, 2,
    0.5f, 0.5f, 0, -3, 8, -3, 0, 0.5f, 0.5f,
    2, 1, -1, 1, 5, 1, -1, 1, 2,
    1, -2, 1, 0, 3, 0, -1, 2, -1,
  };
  Cfg cfgs[4];
  GstVideoFormat fmts[4] = { GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_NV12
  };
  gint sizes[4][2] = { {40, 30}, {21, 13}, {24, 18}, {30, 22} };
  gboolean have_fft = gcv_conv3d_cpu_have_fft ();
  const gboolean quick = gcv_check_quick ();
  guint c, a;

  cfgs[0] = cfg_default ();
  cfgs[1] = cfg_default ();
  cfgs[1].kernel = "custom";
  cfgs[1].size = 3;
  cfgs[1].tsize = 5;
  cfgs[1].coef = signed45;
  cfgs[1].n_coef = 45;
  cfgs[1].normalize = FALSE;
  cfgs[1].scale = 0.05;
  cfgs[1].offset = 100;
  cfgs[1].border = "zero";
  cfgs[2] = cfg_default ();
  cfgs[2].kernel = "box";
  cfgs[2].size = 7;
  cfgs[2].tsize = 3;
  cfgs[2].border = "replicate";
  cfgs[3] = cfg_default ();
  cfgs[3].kernel = "gabor";
  cfgs[3].size = 9;
  cfgs[3].tsize = 3;
  cfgs[3].speed = 1;
  cfgs[3].absolute = TRUE;
  cfgs[3].planes = "luma";

  for (c = 0; c < G_N_ELEMENTS (cfgs); c++) {
    Clip *in = clip_new (fmts[c], sizes[c][0], sizes[c][1], 5, c, 90 + c);
    Clip *ref = ref_clip (in, &cfgs[c]), *first = NULL;
    gboolean luma = g_str_equal (cfgs[c].planes, "luma");

    for (a = 0; a < N_ALGORITHMS; a++) {
      Cfg cfg = cfgs[c];
      gboolean fft = g_str_has_prefix (algorithm_nicks[a], "fft");
      gchar *selected = NULL, *what;
      Clip *out;

      /* quick mode: half the algorithms per configuration, every
       * algorithm in two configurations */
      if (quick && (a + c) % 2 != 0)
        continue;
      cfg.algorithm = algorithm_nicks[a];
      what = g_strdup_printf ("%s %s algorithm=%s (config %u)", name,
          gst_video_format_to_string (fmts[c]), cfg.algorithm, c);
      if (fft && !have_fft && g_str_has_prefix (name, "cpu")) {
        /* this build has no FFTW: an error naming it, no crash */
        Ctx ctx = ctx_new (name, NULL);
        gchar *texts = NULL;
        apply_cfg (ctx.e, &cfg);
        ctx_set_caps (&ctx, &in->f[0]->info);
        fail_if (gst_harness_push (ctx.h, img_to_buffer (in->f[0],
                    LAYOUT_DEFAULT)) == GST_FLOW_OK);
        fail_unless (bus_errors (ctx.bus, &texts) >= 1);
        fail_unless (strstr (texts, "FFTW") != NULL, "%s: %s", what, texts);
        g_free (texts);
        ctx_free (&ctx);
        g_free (what);
        continue;
      }
      out = run_clip_full (name, &cfg, in, (a + c) % N_LAYOUTS, &selected);
      assert_clip_close (out, ref, luma, 1, what);
      if (a == 0)
        fail_if (g_str_equal (selected, "auto"), "%s: selected-algorithm is "
            "auto after caps", what);
      else
        fail_unless_equals_string (selected, algorithm_nicks[a]);
      if (first)
        assert_clip_close (out, first, luma, 1, what);
      else
        first = out, out = NULL;
      clip_free (out);
      g_free (selected);
      g_free (what);
    }
    clip_free (first);
    clip_free (ref);
    clip_free (in);
  }
}

GST_END_TEST;

/* frames wider than the CPU's row blocks (up to 128 samples) and large
 * enough for its threads (and several GPU tiles, partial ones at the
 * edges): every algorithm against the reference; the thread count changes
 * nothing */
GST_START_TEST (test_large_frames)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h, n;
    const gchar *kernel;
    gint size, tsize;
    const gchar *border;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 331, 263, 4, "gaussian", 5, 3, "mirror"},
    {GST_VIDEO_FORMAT_I420, 259, 131, 3, "gabor", 7, 3, "zero"},
    {GST_VIDEO_FORMAT_BGRA, 161, 97, 3, "box", 3, 5, "replicate"},
  };
  const gboolean quick = gcv_check_quick ();
  guint c, a;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Clip *in = clip_new (cases[c].fmt, cases[c].w, cases[c].h, cases[c].n, c,
        180 + c);
    Cfg cfg = cfg_default ();
    Clip *ref, *first = NULL;

    cfg.kernel = cases[c].kernel;
    cfg.size = cases[c].size;
    cfg.tsize = cases[c].tsize;
    cfg.border = cases[c].border;
    if (g_str_equal (cfg.kernel, "gabor")) {
      cfg.speed = -1;
      cfg.wavelength = 5;
      cfg.offset = 128;
    }
    ref = ref_clip (in, &cfg);
    for (a = 1; a < N_ALGORITHMS; a++) {
      Clip *out;
      gchar *what;
      /* quick mode: one algorithm on the first case, two on each of the
       * others (every algorithm once) */
      if (quick && (a + c) % 3 != 0)
        continue;
      cfg.algorithm = algorithm_nicks[a];
      if (g_str_has_prefix (cfg.algorithm, "fft") && !gcv_conv3d_cpu_have_fft ()
          && g_str_has_prefix (name, "cpu"))
        continue;
      what = g_strdup_printf ("%s %s %dx%d algorithm=%s", name,
          gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h,
          cfg.algorithm);
      out = run_clip (name, &cfg, in, (a + c) % N_LAYOUTS);
      assert_clip_close (out, ref, FALSE, 1, what);
      if (first)
        assert_clip_close (out, first, FALSE, 1, what);
      else
        first = out, out = NULL;
      clip_free (out);
      g_free (what);
    }
    clip_free (first);
    clip_free (ref);
    clip_free (in);
  }

  /* n-threads=1 and the default (one per core) give the same bytes */
  {
    Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY16_LE, 300, 230, 3, 2, 185);
    Clip *outs[2];
    gint k;
    for (k = 0; k < 2; k++) {
      Ctx ctx = ctx_new (name, "size", 5, "temporal-size", 3,
          "n-threads", k == 0 ? 1u : 0u, NULL);
      Cfg cfg = cfg_default ();
      cfg.tsize = 3;
      cfg.algorithm = "streaming";
      apply_cfg (ctx.e, &cfg);
      outs[k] = clip_alloc (in->n);
      ctx_set_caps (&ctx, &in->f[0]->info);
      push_range (&ctx, in, 0, in->n, 1, 0, LAYOUT_DEFAULT, 0, outs[k],
          "threads");
      push_eos (&ctx, "threads");
      pull_held (&ctx, in, 0, in->n, 1, 0, outs[k], "threads");
      ctx_free (&ctx);
    }
    assert_clip_equal (outs[0], outs[1], "n-threads=1 vs n-threads=0");
    clip_free (outs[0]);
    clip_free (outs[1]);
    clip_free (in);
  }
}

GST_END_TEST;

/* selected-algorithm: auto before caps, a concrete one after (auto's
 * choice or the property's); follows a live algorithm change */
GST_START_TEST (test_selected_algorithm)
{
  const gchar *name = element_names[__i__];
  Clip *in = clip_new (GST_VIDEO_FORMAT_I420, 32, 24, 6, 2, 101);
  Ctx ctx = ctx_new (name, NULL);
  Clip *out = clip_alloc (in->n);
  GEnumClass *ec;
  const gchar *sel;

  fail_unless_equals_string (enum_nick (ctx.e, "selected-algorithm"), "auto");
  ctx_set_caps (&ctx, &in->f[0]->info);
  sel = enum_nick (ctx.e, "selected-algorithm");
  fail_if (g_str_equal (sel, "auto"), "selected-algorithm auto after caps");
  ec = G_PARAM_SPEC_ENUM (g_object_class_find_property (G_OBJECT_GET_CLASS
          (ctx.e), "selected-algorithm"))->enum_class;
  fail_unless (g_enum_get_value_by_nick (ec, sel) != NULL);
  push_range (&ctx, in, 0, 3, 2, 0, LAYOUT_DEFAULT, 0, out, "selected");
  /* a live change to an explicit algorithm: drains, then runs it */
  gst_util_set_object_arg (G_OBJECT (ctx.e), "algorithm", "shared");
  fail_unless_equals_int (gst_harness_push (ctx.h, frame_buffer (in->f[3],
              LAYOUT_DEFAULT, 3)), GST_FLOW_OK);
  fail_unless_equals_string (enum_nick (ctx.e, "selected-algorithm"),
      "shared");
  gst_util_set_object_arg (G_OBJECT (ctx.e), "algorithm", "baseline");
  fail_unless_equals_int (gst_harness_push (ctx.h, frame_buffer (in->f[4],
              LAYOUT_DEFAULT, 4)), GST_FLOW_OK);
  fail_unless_equals_string (enum_nick (ctx.e, "selected-algorithm"),
      "baseline");
  /* back to auto: auto chooses again, as a fresh element would */
  gst_util_set_object_arg (G_OBJECT (ctx.e), "algorithm", "auto");
  fail_unless_equals_int (gst_harness_push (ctx.h, frame_buffer (in->f[5],
              LAYOUT_DEFAULT, 5)), GST_FLOW_OK);
  fail_unless_equals_string (enum_nick (ctx.e, "selected-algorithm"), sel);
  push_eos (&ctx, "selected");
  /* 6 frames in, 6 out (each change drained the held ones): one pulled,
   * two drained by the first change, one by the second, one by the third,
   * one at EOS */
  fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 5);
  ctx_free (&ctx);
  clip_free (out);
  clip_free (in);
}

GST_END_TEST;

/* a custom kernel whose coefficient count does not match the sizes: an
 * ERROR naming the counts when the caps come (and when it is set while
 * playing), no crash; fixed, the element runs */
GST_START_TEST (test_coefficient_mismatch)
{
  const gchar *name = element_names[__i__];
  static const gfloat eight[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
  static const gfloat nine[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
  static const gfloat zero9[9] = { 0 };
  Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 16, 12, 4, 0, 111);
  gchar *texts = NULL;

  /* at caps time */
  {
    Ctx ctx = ctx_new (name, "size", 3, "temporal-size", 1, NULL);
    GstFlowReturn ret;
    gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
    set_coefficients (ctx.e, eight, 8);
    ctx_set_caps (&ctx, &in->f[0]->info);
    fail_unless (bus_errors (ctx.bus, &texts) >= 1, "%s: no ERROR for 8 "
        "coefficients with size=3 temporal-size=1", name);
    fail_unless (strstr (texts, "8 coefficients") != NULL &&
        strstr (texts, "9") != NULL, "the error does not give the counts: %s",
        texts);
    g_free (texts);
    ret = gst_harness_push (ctx.h, frame_buffer (in->f[0], LAYOUT_DEFAULT, 0));
    fail_if (ret == GST_FLOW_OK, "a frame went through with 8 coefficients");
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    bus_errors (ctx.bus, &texts);
    g_free (texts);
    /* too many */
    {
      gfloat ten[10] = { 1, 2, 1, 2, 4, 2, 1, 2, 1, 1 };
      set_coefficients (ctx.e, ten, 10);
      ret = gst_harness_push (ctx.h, frame_buffer (in->f[0], LAYOUT_DEFAULT,
              0));
      fail_if (ret == GST_FLOW_OK, "a frame went through with 10 "
          "coefficients for 9 taps");
      fail_unless (bus_errors (ctx.bus, &texts) >= 1);
      fail_unless (strstr (texts, "10 coefficients") != NULL, "%s", texts);
      g_free (texts);
    }
    /* 27 for a 3 x 3 x 1 kernel (the count of 3 x 3 x 3) */
    {
      gfloat k27[27];
      gint i;
      for (i = 0; i < 27; i++)
        k27[i] = 1;
      set_coefficients (ctx.e, k27, 27);
      ret = gst_harness_push (ctx.h, frame_buffer (in->f[0], LAYOUT_DEFAULT,
              0));
      fail_if (ret == GST_FLOW_OK, "a frame went through with 27 "
          "coefficients for 9 taps");
      fail_unless (bus_errors (ctx.bus, &texts) >= 1);
      fail_unless (strstr (texts, "27 coefficients") != NULL, "%s", texts);
      g_free (texts);
    }
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    /* no coefficients at all */
    set_coefficients (ctx.e, NULL, 0);
    ret = gst_harness_push (ctx.h, frame_buffer (in->f[0], LAYOUT_DEFAULT, 0));
    fail_if (ret == GST_FLOW_OK);
    fail_unless (bus_errors (ctx.bus, &texts) >= 1);
    fail_unless (strstr (texts, "no coefficients") != NULL, "%s", texts);
    g_free (texts);
    /* fixed: the caps are taken at the next frame and it runs */
    {
      Cfg cfg = cfg_default ();
      Clip *out = clip_alloc (in->n), *ref;
      cfg.kernel = "custom";
      cfg.size = 3;
      cfg.tsize = 1;
      cfg.coef = nine;
      cfg.n_coef = 9;
      set_coefficients (ctx.e, nine, 9);
      push_range (&ctx, in, 0, in->n, 0, 0, LAYOUT_DEFAULT, 0, out,
          "fixed coefficients");
      push_eos (&ctx, "fixed coefficients");
      ref = ref_clip (in, &cfg);
      assert_clip_close (out, ref, FALSE, 1, "after fixing the coefficients");
      clip_free (ref);
      clip_free (out);
    }
    ctx_free (&ctx);
  }
  /* an all-zero kernel cannot be normalised */
  {
    Ctx ctx = ctx_new (name, "size", 3, "temporal-size", 1, NULL);
    gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
    set_coefficients (ctx.e, zero9, 9);
    ctx_set_caps (&ctx, &in->f[0]->info);
    fail_unless (bus_errors (ctx.bus, &texts) >= 1, "no ERROR for an "
        "all-zero kernel with normalize=true");
    fail_unless (strstr (texts, "zero") != NULL, "%s", texts);
    g_free (texts);
    ctx_release (&ctx);
  }
  /* while playing: the change is refused when applied, with a WARNING
   * naming the counts; the frames go on with the kernel in use, and the
   * warning is not repeated for every frame */
  {
    Ctx ctx = ctx_new (name, "size", 3, "temporal-size", 1, NULL);
    Cfg cfg = cfg_default ();
    Clip *out = clip_alloc (in->n), *ref;
    guint n_before;

    cfg.kernel = "custom";
    cfg.size = 3;
    cfg.tsize = 1;
    cfg.coef = nine;
    cfg.n_coef = 9;
    gst_util_set_object_arg (G_OBJECT (ctx.e), "kernel", "custom");
    set_coefficients (ctx.e, nine, 9);
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, 2, 0, 0, LAYOUT_DEFAULT, 0, out, "mismatch");
    set_coefficients (ctx.e, eight, 8);
    n_before = n_warnings;
    push_range (&ctx, in, 2, in->n, 0, 0, LAYOUT_DEFAULT, 0, out,
        "after 8 coefficients while playing");
    push_eos (&ctx, "after 8 coefficients while playing");
    /* (popping one type discards the others: the warnings first; a
     * cuda* element without a GPU also warns that it runs on the CPU) */
    bus_texts (ctx.bus, GST_MESSAGE_WARNING, &texts);
    fail_unless (count_substrings (texts, "8 coefficients") == 1,
        "not one WARNING giving the count for 8 coefficients while playing: "
        "%s", texts);
    fail_unless_equals_int (n_warnings - n_before, 0);
    g_free (texts);
    fail_unless (bus_errors (ctx.bus, &texts) == 0, "an ERROR for a refused "
        "live change: %s", texts);
    g_free (texts);
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, "the kernel in use kept after a "
        "refused change");
    clip_free (ref);
    clip_free (out);
    ctx_release (&ctx);
  }
  clip_free (in);
}

GST_END_TEST;

/* FLUSH forgets the history: what follows is a fresh stream (temporal
 * border at its start), exactly what a fresh element gives; the frames
 * held before the flush never come out */
GST_START_TEST (test_flush)
{
  const gchar *name = element_names[__i__];
  Clip *a = clip_new (GST_VIDEO_FORMAT_I420, 24, 16, 4, 1, 121);
  Clip *b = clip_new (GST_VIDEO_FORMAT_I420, 24, 16, 6, 3, 122);
  Cfg cfg = cfg_default ();
  gint held;

  cfg.border = "zero";
  cfg.tsize = 5;
  cfg.size = 3;
  for (held = 1; held <= 4; held += 3) {
    Ctx ctx = ctx_new (name, NULL);
    Clip *out_a = clip_alloc (a->n), *out_b = clip_alloc (b->n), *fresh, *ref;
    GString *seq = watch_sequence (&ctx);
    GstSegment seg;
    gchar *expect;

    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &a->f[0]->info);
    /* held = 1: nothing out yet; held = 4: two out, two held */
    push_range (&ctx, a, 0, held, 2, 0, LAYOUT_DEFAULT, 0, out_a, "before");
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (ctx.h,
            gst_event_new_flush_stop (TRUE)));
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_segment (&seg)));
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    push_range (&ctx, b, 0, b->n, 2, 0, LAYOUT_DEFAULT, 50, out_b, "after");
    push_eos (&ctx, "after flush");
    pull_held (&ctx, b, 0, b->n, 2, 50, out_b, "after flush");
    expect = g_strdup_printf ("C:I420:24x16 %sF B B B B B B E ",
        held == 4 ? "B B " : "");
    fail_unless_equals_string (seq->str, expect);
    g_free (expect);
    ctx_free (&ctx);

    fresh = run_clip (name, &cfg, b, LAYOUT_DEFAULT);
    assert_clip_equal (out_b, fresh, "after FLUSH vs a fresh element");
    ref = ref_clip (b, &cfg);
    assert_clip_close (out_b, ref, FALSE, 1, "after FLUSH vs the reference");
    g_string_free (seq, TRUE);
    clip_free (fresh);
    clip_free (ref);
    clip_free (out_a);
    clip_free (out_b);
  }
  clip_free (a);
  clip_free (b);
}

GST_END_TEST;

/* new caps mid-stream (size, then format): the frames held under the old
 * caps come out under them, before the new caps, as the end of their
 * stream; then a fresh stream starts.  The same caps again change
 * nothing. */
GST_START_TEST (test_caps_change)
{
  const gchar *name = element_names[__i__];
  Clip *s1 = clip_new (GST_VIDEO_FORMAT_GRAY8, 64, 48, 4, 0, 131);
  Clip *s2 = clip_new (GST_VIDEO_FORMAT_GRAY8, 48, 32, 3, 1, 132);
  Clip *s3 = clip_new (GST_VIDEO_FORMAT_I420, 48, 32, 5, 2, 133);
  Clip *clips[3] = { s1, s2, s3 };
  Clip *outs[3];
  Cfg cfg = cfg_default ();
  Ctx ctx = ctx_new (name, NULL);
  GString *seq = watch_sequence (&ctx);
  gint rt = 2, stamp = 0, k;

  cfg.border = "replicate";
  apply_cfg (ctx.e, &cfg);
  for (k = 0; k < 3; k++) {
    outs[k] = clip_alloc (clips[k]->n);
    if (k > 0) {
      /* the new caps drain the previous stream, under its caps */
      ctx_set_caps (&ctx, &clips[k]->f[0]->info);
      pull_held (&ctx, clips[k - 1], 0, clips[k - 1]->n, rt,
          stamp - clips[k - 1]->n, outs[k - 1], "drained before new caps");
    } else {
      ctx_set_caps (&ctx, &clips[k]->f[0]->info);
    }
    push_range (&ctx, clips[k], 0, clips[k]->n, rt, 0, k % N_LAYOUTS, stamp,
        outs[k], "caps change");
    stamp += clips[k]->n;
  }
  push_eos (&ctx, "caps change");
  pull_held (&ctx, s3, 0, s3->n, rt, stamp - s3->n, outs[2], "EOS");
  fail_unless_equals_string (seq->str, "C:GRAY8:64x48 B B B B "
      "C:GRAY8:48x32 B B B C:I420:48x32 B B B B B E ");
  for (k = 0; k < 3; k++) {
    Clip *ref = ref_clip (clips[k], &cfg);
    gchar *what = g_strdup_printf ("%s stream %d of a caps change", name, k);
    assert_clip_close (outs[k], ref, FALSE, 1, what);
    g_free (what);
    clip_free (ref);
    clip_free (outs[k]);
  }
  ctx_free (&ctx);
  g_string_free (seq, TRUE);

  /* the same caps again (with a new segment) neither drain nor reset:
   * the stream goes on as if nothing happened */
  {
    Clip *in = clip_new (GST_VIDEO_FORMAT_NV12, 20, 14, 6, 3, 134), *ref;
    Clip *out = clip_alloc (in->n);
    ctx = ctx_new (name, NULL);
    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, 3, rt, 0, LAYOUT_DEFAULT, 0, out, "same caps");
    ctx_set_caps (&ctx, &in->f[0]->info);
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    push_range (&ctx, in, 3, in->n, rt, 0, LAYOUT_DEFAULT, 0, out,
        "same caps");
    push_eos (&ctx, "same caps");
    pull_held (&ctx, in, 0, in->n, rt, 0, out, "same caps");
    ref = ref_clip (in, &cfg);
    assert_clip_close (out, ref, FALSE, 1, "the same caps again mid-stream");
    clip_free (ref);
    clip_free (out);
    ctx_free (&ctx);
    clip_free (in);
  }
  clip_free (s1);
  clip_free (s2);
  clip_free (s3);
}

GST_END_TEST;

/* Kernel values (scale, offset, sigma) changed while playing apply from the
 * next output on, no frame lost, no drain; a new size drains the held
 * frames (end of a stream), restarts the history and changes the latency
 * (with a LATENCY message). */
GST_START_TEST (test_live_changes)
{
  const gchar *name = element_names[__i__];

  /* same shape: scale and offset at push 5 (output 3 on), sigma at push 7 */
  {
    Clip *in = clip_new (GST_VIDEO_FORMAT_GRAY8, 30, 20, 10, 1, 141);
    Clip *out = clip_alloc (in->n), *ref[3];
    Cfg cfg[3];
    Ctx ctx = ctx_new (name, NULL);
    GString *seq = watch_sequence (&ctx);
    gint rt = 2, t;

    cfg[0] = cfg_default ();
    cfg[0].size = 3;
    cfg[0].tsize = 5;
    cfg[1] = cfg[0];
    cfg[1].scale = 0.5;
    cfg[1].offset = 40;
    cfg[2] = cfg[1];
    cfg[2].sigma = 3.0;
    cfg[2].tsigma = 0.6;
    for (t = 0; t < 3; t++)
      ref[t] = ref_clip (in, &cfg[t]);
    apply_cfg (ctx.e, &cfg[0]);
    ctx_set_caps (&ctx, &in->f[0]->info);
    gst_harness_set_upstream_latency (ctx.h, 0);
    push_range (&ctx, in, 0, 5, rt, 0, LAYOUT_DEFAULT, 0, out, "live scale");
    bus_count_type (ctx.bus, GST_MESSAGE_LATENCY);
    g_object_set (ctx.e, "scale", 0.5, "offset", 40.0, NULL);
    push_range (&ctx, in, 5, 7, rt, 0, LAYOUT_DEFAULT, 0, out, "live scale");
    g_object_set (ctx.e, "sigma", 3.0, "temporal-sigma", 0.6, NULL);
    push_range (&ctx, in, 7, in->n, rt, 0, LAYOUT_DEFAULT, 0, out,
        "live sigma");
    fail_unless_equals_uint64 (gst_harness_query_latency (ctx.h),
        frames_latency (2, 30, 1));
    fail_unless_equals_int (bus_count_type (ctx.bus, GST_MESSAGE_LATENCY), 0);
    push_eos (&ctx, "live");
    pull_held (&ctx, in, 0, in->n, rt, 0, out, "live");
    fail_unless_equals_string (seq->str, "C:GRAY8:30x20 B B B B B B B B B B "
        "E ");
    /* outputs 0 .. 2 (computed at pushes 2 .. 4): the first settings;
     * 3, 4: the new scale; 5 .. 9: the new sigma as well */
    for (t = 0; t < in->n; t++) {
      gint which = t < 3 ? 0 : t < 5 ? 1 : 2;
      Clip one = { &out->f[t], 1 }, r = { &ref[which]->f[t], 1 };
      gchar *what = g_strdup_printf ("%s live change: output %d with "
          "settings %d", name, t, which);
      assert_clip_close (&one, &r, FALSE, 1, what);
      g_free (what);
    }
    for (t = 0; t < 3; t++)
      clip_free (ref[t]);
    g_string_free (seq, TRUE);
    clip_free (out);
    clip_free (in);
    ctx_free (&ctx);
  }

  /* a new size at frame 5: frames 0 .. 4 a stream of size 3, 5 .. 11 one
   * of size 7; the latency goes from 1 to 3 frames */
  {
    Clip *in = clip_new (GST_VIDEO_FORMAT_RGBA, 22, 14, 12, 2, 142);
    Clip *part1 = clip_sub (in, 0, 5), *part2 = clip_sub (in, 5, 12);
    Clip *out = clip_alloc (in->n);
    Cfg c1 = cfg_default (), c2;
    Ctx ctx = ctx_new (name, NULL);
    GString *seq = watch_sequence (&ctx);

    c1.size = 3;
    c1.border = "mirror";
    c2 = c1;
    c2.size = 7;
    apply_cfg (ctx.e, &c1);
    ctx_set_caps (&ctx, &in->f[0]->info);
    gst_harness_set_upstream_latency (ctx.h, 0);
    fail_unless_equals_uint64 (gst_harness_query_latency (ctx.h),
        frames_latency (1, 30, 1));
    push_range (&ctx, in, 0, 5, 1, 0, LAYOUT_DEFAULT, 0, out, "size 3");
    bus_count_type (ctx.bus, GST_MESSAGE_LATENCY);
    g_object_set (ctx.e, "size", 7, NULL);
    /* the next push drains frame 4 (held by size 3), then holds 3 */
    fail_unless_equals_int (gst_harness_push (ctx.h, frame_buffer (in->f[5],
                LAYOUT_DEFAULT, 5)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 1);
    out->f[4] = pull_frame (&ctx, &in->f[0]->info, 4, "drained by size");
    fail_unless (bus_count_type (ctx.bus, GST_MESSAGE_LATENCY) >= 1,
        "no LATENCY message after the latency changed");
    fail_unless_equals_uint64 (gst_harness_query_latency (ctx.h),
        frames_latency (3, 30, 1));
    push_range (&ctx, in, 6, 12, 3, 5, LAYOUT_DEFAULT, 0, out, "size 7");
    push_eos (&ctx, "size 7");
    pull_held (&ctx, in, 5, 12, 3, 0, out, "size 7 drained");
    fail_unless_equals_string (seq->str, "C:RGBA:22x14 B B B B B B B B B B "
        "B B E ");
    assert_part_close (out, 0, part1, &c1, FALSE, "before the size change");
    assert_part_close (out, 5, part2, &c2, FALSE, "after the size change");
    clip_free (part1);
    clip_free (part2);
    g_string_free (seq, TRUE);
    clip_free (out);
    clip_free (in);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* the other changes that restart the history: temporal-size alone (same
 * spatial size), border, planes: each drains, then a fresh stream */
GST_START_TEST (test_live_reshape)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    const gchar *prop, *value;
    gint rt_before, rt_after;
  } changes[] = {
    {"temporal-size", "7", 1, 3},
    {"temporal-size", "1", 1, 0},
    {"border", "zero", 1, 1},
    {"planes", "luma", 1, 1},
    {"algorithm", "baseline", 1, 1},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (changes); c++) {
    Clip *in = clip_new (GST_VIDEO_FORMAT_I420, 20, 14, 9, c, 170 + c);
    Clip *part1 = clip_sub (in, 0, 4), *part2 = clip_sub (in, 4, 9);
    Clip *out = clip_alloc (in->n);
    Cfg c1 = cfg_default (), c2;
    Ctx ctx = ctx_new (name, NULL);
    gint rt1 = changes[c].rt_before, rt2 = changes[c].rt_after, k;
    gchar *what = g_strdup_printf ("%s live %s=%s", name, changes[c].prop,
        changes[c].value);

    c1.size = 3;
    c1.tsize = 3;
    c1.border = "mirror";
    c1.algorithm = "streaming";
    c2 = c1;
    if (g_str_equal (changes[c].prop, "temporal-size"))
      c2.tsize = atoi (changes[c].value);
    else if (g_str_equal (changes[c].prop, "border"))
      c2.border = changes[c].value;
    else if (g_str_equal (changes[c].prop, "planes"))
      c2.planes = changes[c].value;
    else
      c2.algorithm = changes[c].value;
    apply_cfg (ctx.e, &c1);
    ctx_set_caps (&ctx, &in->f[0]->info);
    push_range (&ctx, in, 0, 4, rt1, 0, LAYOUT_DEFAULT, 0, out, what);
    gst_util_set_object_arg (G_OBJECT (ctx.e), changes[c].prop,
        changes[c].value);
    /* frame 4: the held frame of the first part comes out, then the new
     * history holds rt2 frames (none with rt2 = 0: frame 4 itself) */
    fail_unless_equals_int (gst_harness_push (ctx.h, frame_buffer (in->f[4],
                LAYOUT_DEFAULT, 4)), GST_FLOW_OK);
    fail_unless (gst_harness_buffers_in_queue (ctx.h) == (guint) (rt1 +
            (rt2 == 0)), "%s: %u buffers after the change", what,
        gst_harness_buffers_in_queue (ctx.h));
    for (k = 4 - rt1; k < 4 + (rt2 == 0); k++)
      out->f[k] = pull_frame (&ctx, &in->f[0]->info, k, what);
    push_range (&ctx, in, 5, 9, rt2, 4, LAYOUT_DEFAULT, 0, out, what);
    push_eos (&ctx, what);
    pull_held (&ctx, in, 4, 9, rt2, 0, out, what);
    assert_part_close (out, 0, part1, &c1, FALSE, what);
    assert_part_close (out, 4, part2, &c2, g_str_equal (c2.planes, "luma"),
        what);
    clip_free (part1);
    clip_free (part2);
    clip_free (out);
    clip_free (in);
    g_free (what);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* cudaconv3d == cpuconv3d within 1 level, every algorithm, several
 * formats; on the GPU when there is one (and must be, with
 * GST_CUDA_VIDEO_REQUIRE_GPU=1) */
GST_START_TEST (test_cpu_cuda)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h, n;
    const gchar *kernel;
    gint size, tsize;
    const gchar *border, *planes;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 64, 48, 6, "gaussian", 5, 0, "mirror", "all"},
    {GST_VIDEO_FORMAT_I420, 37, 23, 5, "gabor", 7, 3, "zero", "luma"},
    {GST_VIDEO_FORMAT_RGBA, 33, 17, 4, "box", 3, 5, "replicate", "all"},
    {GST_VIDEO_FORMAT_GRAY16_LE, 40, 30, 5, "gaussian", 9, 3, "mirror",
        "all"},
    {GST_VIDEO_FORMAT_NV12, 26, 18, 3, "gaussian", 3, 7, "replicate", "all"},
    {GST_VIDEO_FORMAT_P010_10LE, 31, 19, 5, "gabor", 5, 3, "mirror", "all"},
    {GST_VIDEO_FORMAT_P010_10LE, 24, 10, 4, "box", 3, 3, "zero", "luma"},
  };
  gchar *cuda_backend = NULL;
  const gboolean quick = gcv_check_quick ();
  guint c, a, n_compared = 0;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Clip *in = clip_new (cases[c].fmt, cases[c].w, cases[c].h, cases[c].n, c,
        150 + c);
    for (a = 0; a < N_ALGORITHMS; a++) {
      Cfg cfg = cfg_default ();
      Clip *oa, *ob;
      gchar *what, *d;
      /* quick mode: half the algorithms per case, every algorithm in two
       * cases or three */
      if (quick && (a + c) % 2 != 0)
        continue;
      cfg.kernel = cases[c].kernel;
      cfg.size = cases[c].size;
      cfg.tsize = cases[c].tsize;
      cfg.border = cases[c].border;
      cfg.planes = cases[c].planes;
      cfg.algorithm = algorithm_nicks[a];
      if (g_str_equal (cfg.kernel, "gabor")) {
        cfg.absolute = TRUE;
        cfg.scale = 2;
        cfg.speed = 1;
      }
      if (g_str_has_prefix (cfg.algorithm, "fft") && !gcv_conv3d_cpu_have_fft ())
        continue;
      oa = run_clip ("cpuconv3d", &cfg, in, LAYOUT_DEFAULT);
      if (cuda_backend == NULL) {
        Ctx ctx = ctx_new ("cudaconv3d", NULL);
        gst_harness_play (ctx.h);
        cuda_backend = get_backend (ctx.e);
        ctx_free (&ctx);
      }
      ob = run_clip ("cudaconv3d", &cfg, in, (a + c) % N_LAYOUTS);
      d = cfg_describe (&cfg);
      what = g_strdup_printf ("cudaconv3d vs cpuconv3d: %s %dx%d, %s",
          gst_video_format_to_string (cases[c].fmt), cases[c].w, cases[c].h,
          d);
      assert_clip_close (ob, oa, g_str_equal (cfg.planes, "luma"), 1, what);
      n_compared += in->n;
      g_free (what);
      g_free (d);
      clip_free (oa);
      clip_free (ob);
    }
    clip_free (in);
  }
  if (g_strcmp0 (cuda_backend, "cuda") == 0) {
    g_print ("test_cpu_cuda: %u frames, CUDA within 1 level of the CPU\n",
        n_compared);
  } else {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but cudaconv3d "
        "runs on %s", GST_STR_NULL (cuda_backend));
    g_print ("test_cpu_cuda: no GPU, cudaconv3d fell back: compared CPU with "
        "CPU (%u frames)\n", n_compared);
  }
  g_free (cuda_backend);
}

GST_END_TEST;

/* P010 by another route: each of Y, U, V as a GRAY16_LE clip (the words as
 * they are, low bits that are not zero included) through the element with
 * the same settings, rounded to 10-bit codes, is the P010 output's
 * component; with planes=luma U and V are the centre frame's words,
 * exactly. */
GST_START_TEST (test_p010_by_gray16)
{
  const gchar *name = element_names[__i__];
  static const gchar *const planes[] = { "all", "luma" };
  Clip *in = clip_new (GST_VIDEO_FORMAT_P010_10LE, 27, 15, 5, 2, 91);
  guint pl;
  gint t, c, x, y;

  for (t = 0; t < in->n; t++)
    img_p010_low_bits (in->f[t], 300 + t);
  for (pl = 0; pl < G_N_ELEMENTS (planes); pl++) {
    Cfg cfg = cfg_default ();
    Clip *out;

    cfg.size = 3;
    cfg.tsize = 3;
    cfg.scale = 0.9;
    cfg.offset = 1000.0;        /* 16-bit words */
    cfg.algorithm = "baseline";
    cfg.planes = planes[pl];
    out = run_clip (name, &cfg, in, pl % N_LAYOUTS);
    for (c = 0; c < 3; c++) {
      gboolean filtered = pl == 0 || c == GST_VIDEO_COMP_Y;
      Clip *gin = clip_alloc (in->n), *gout = NULL;
      gchar *what = g_strdup_printf ("%s P010 planes=%s component %d vs "
          "GRAY16_LE", name, cfg.planes, c);

      for (t = 0; t < in->n; t++)
        gin->f[t] = img_comp_gray16 (in->f[t], c);
      if (filtered)
        gout = run_clip (name, &cfg, gin, LAYOUT_DEFAULT);
      for (t = 0; t < in->n; t++)
        for (y = 0; y < img_h (gin->f[t]); y++)
          for (x = 0; x < img_w (gin->f[t]); x++) {
            guint got = img_get (out->f[t], c, x, y);
            guint want = filtered ? p010_round (img_get (gout->f[t], 0, x, y))
                : img_get (in->f[t], c, x, y);
            fail_unless (got == want, "%s: frame %d at (%d,%d) is 0x%04x, "
                "expected 0x%04x (%s)", what, t, x, y, got, want,
                filtered ? "by GRAY16_LE" : "delayed");
          }
      clip_free (gin);
      clip_free (gout);
      g_free (what);
    }
    clip_free (out);
  }
  clip_free (in);
}

GST_END_TEST;

/* cudaconv3d without CUDA: one warning and the CPU backend, or with
 * fallback=false a RESOURCE error and no start */
GST_START_TEST (test_cuda_fallback)
{
  Clip *in = clip_new (GST_VIDEO_FORMAT_I420, 32, 24, 4, 1, 161);
  Cfg cfg = cfg_default ();
  Ctx ctx = ctx_new ("cudaconv3d", NULL);
  Clip *out = clip_alloc (in->n), *ref;
  gboolean on_gpu;

  cfg.size = 3;
  apply_cfg (ctx.e, &cfg);
  ctx_set_caps (&ctx, &in->f[0]->info);
  push_range (&ctx, in, 0, in->n, 1, 0, LAYOUT_DEFAULT, 0, out, "fallback");
  push_eos (&ctx, "fallback");
  pull_held (&ctx, in, 0, in->n, 1, 0, out, "fallback");
  ref = ref_clip (in, &cfg);
  assert_clip_close (out, ref, FALSE, 1, "cudaconv3d (maybe fallen back)");
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  if (!on_gpu)
    check_no_fallback_fails ("cudaconv3d");
  clip_free (ref);
  clip_free (out);
  clip_free (in);
}

GST_END_TEST;

static Suite *
conv3d_suite (void)
{
  Suite *s;
  /* every output buffer must be a frame of its caps */
  TCase *tc = element_suite_tcase ("conv3d", TRUE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties, 0, n);
  tcase_add_loop_test (tc, test_property_rejection, 0, n);
  tcase_add_loop_test (tc, test_kernel_file, 0, n);
  tcase_add_loop_test (tc, test_caps_formats, 0, n);
  tcase_add_loop_test (tc, test_latency_query, 0, n);
  tcase_add_loop_test (tc, test_timestamps_drain, 0, n);
  tcase_add_loop_test (tc, test_impulse_orientation, 0, n);
  tcase_add_loop_test (tc, test_kernels, 0, n);
  tcase_add_loop_test (tc, test_borders, 0, n);
  tcase_add_loop_test (tc, test_sizes, 0, n);
  tcase_add_loop_test (tc, test_layouts, 0, n);
  tcase_add_loop_test (tc, test_channels_planes, 0, n);
  tcase_add_loop_test (tc, test_scale_offset_absolute, 0, n);
  tcase_add_loop_test (tc, test_algorithms, 0, n);
  tcase_add_loop_test (tc, test_large_frames, 0, n);
  tcase_add_loop_test (tc, test_selected_algorithm, 0, n);
  tcase_add_loop_test (tc, test_coefficient_mismatch, 0, n);
  tcase_add_loop_test (tc, test_flush, 0, n);
  tcase_add_loop_test (tc, test_caps_change, 0, n);
  tcase_add_loop_test (tc, test_live_changes, 0, n);
  tcase_add_loop_test (tc, test_live_reshape, 0, n);
  tcase_add_loop_test (tc, test_p010_by_gray16, 0, n);
  tcase_add_test (tc, test_cpu_cuda);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

GST_CHECK_MAIN (conv3d);
