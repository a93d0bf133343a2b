/* gst-cuda-video: GstHarness tests for the cudacanny and cpucanny elements.
 *
 * Every content test runs against both element names: on a machine without a
 * usable GPU cudacanny falls back to the CPU twin and must give the very same
 * output.  With GST_CUDA_VIDEO_REQUIRE_GPU=1 in the environment, cudacanny
 * must report backend "cuda".
 *
 * Pixel content is checked against an independent reference implementation
 * of the documented algorithm (cpu/canny.h) for blur-size=0: 3x3 Sobel with
 * replicated border, OpenCV 4.6 non-maximum suppression and exact 8-connected
 * hysteresis.  Blurred output has no reference here; it is checked for its
 * structure (step edges, flat frames), across formats, thread counts and
 * against the other element.  The photos in tests/data are run against the
 * OpenCV fixtures in tests/fixtures (set GCV_TEST_DATA_DIR to the source
 * tests/ directory when the built-in default does not point there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the element test kit (tests/common): harness, frames, buffers, PNG
 * loading and the test data directory */
#include "gcv-check.h"
#if GCV_HAVE_CUDA
#include "gcv-cuda.h"
#endif

static const gchar *const element_names[] = { "cpucanny", "cudacanny" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)

static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
  GST_VIDEO_FORMAT_BGRx,
};

static const gchar *const all_modes[] = { "edges", "magnitude", "overlay" };

/* ------------------------------------------------------------------------ */
/* luma test patterns (w * h bytes, packed)                                 */

static guint8 *
luma_flat (gint w, gint h, guint8 v)
{
  guint8 *L = g_malloc (w * h);
  memset (L, v, w * h);
  return L;
}

/* columns < x0 are lo, columns >= x0 are hi */
static guint8 *
luma_vstep (gint w, gint h, gint x0, guint8 lo, guint8 hi)
{
  guint8 *L = g_malloc (w * h);
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      L[y * w + x] = x < x0 ? lo : hi;
  return L;
}

/* rows < y0 are lo, rows >= y0 are hi */
static guint8 *
luma_hstep (gint w, gint h, gint y0, guint8 lo, guint8 hi)
{
  guint8 *L = g_malloc (w * h);
  gint x, y;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      L[y * w + x] = y < y0 ? lo : hi;
  return L;
}

static guint8 *
luma_noise (gint w, gint h, guint32 seed)
{
  guint8 *L = g_malloc (w * h);
  gint i;

  rng_seed (seed);
  for (i = 0; i < w * h; i++)
    L[i] = rng_next () >> 24;
  return L;
}

/* a "scene": ramp background, rectangles, disks, thin lines, mild noise */
static guint8 *
luma_scene (gint w, gint h, guint32 seed)
{
  guint8 *L = g_malloc (w * h);
  gint x, y, i, n;

  rng_seed (seed);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      L[y * w + x] = 40 + (x * 90) / w + (y * 50) / h;

  n = 6 + (w * h) / 15000;
  for (i = 0; i < n; i++) {
    gint x0 = rng_range (0, w - 1), y0 = rng_range (0, h - 1);
    gint rw = rng_range (1, w / 3 + 1), rh = rng_range (1, h / 3 + 1);
    guint8 v = rng_range (0, 255);
    for (y = y0; y < MIN (h, y0 + rh); y++)
      for (x = x0; x < MIN (w, x0 + rw); x++)
        L[y * w + x] = v;
  }
  for (i = 0; i < n; i++) {
    gint cx = rng_range (0, w - 1), cy = rng_range (0, h - 1);
    gint r = rng_range (1, MIN (w, h) / 5 + 1);
    guint8 v = rng_range (0, 255);
    for (y = MAX (0, cy - r); y <= MIN (h - 1, cy + r); y++)
      for (x = MAX (0, cx - r); x <= MIN (w - 1, cx + r); x++)
        if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
          L[y * w + x] = v;
  }
  for (i = 0; i < n / 2; i++) {
    /* a thin line at a random angle */
    gdouble a = rng_range (0, 359) * G_PI / 180.0;
    gint cx = rng_range (0, w - 1), cy = rng_range (0, h - 1);
    gint len = rng_range (5, MAX (w, h) / 2 + 5), t;
    guint8 v = rng_range (0, 255);
    for (t = 0; t < len; t++) {
      gint px = cx + (gint) lround (t * cos (a));
      gint py = cy + (gint) lround (t * sin (a));
      if (px >= 0 && px < w && py >= 0 && py < h)
        L[py * w + px] = v;
    }
  }
  for (i = 0; i < w * h; i++)
    L[i] = CLAMP ((gint) L[i] + rng_range (-2, 2), 0, 255);
  return L;
}

/* ------------------------------------------------------------------------ */
/* reference Canny (blur-size 0), written from the contract in cpu/canny.h  */
/* BEGIN-REFERENCE */

static gint
ref_isqrt (gint64 v)
{
  gint64 r = (gint64) sqrt ((double) v);
  while (r * r > v)
    r--;
  while ((r + 1) * (r + 1) <= v)
    r++;
  return (gint) r;
}

/* edges (255/0) and magnitude (min(255, |g|/4)) for luma L; either output
 * may be NULL */
static void
ref_canny (const guint8 * L, gint w, gint h, gdouble low_thresh,
    gdouble high_thresh, gboolean l2, guint8 * edges, guint8 * mag_out)
{
  gint *dx = g_new (gint, w * h), *dy = g_new (gint, w * h);
  gint *m = g_new (gint, w * h);
  guint8 *cls = g_new0 (guint8, w * h);
  gint *stack = g_new (gint, w * h + 1);
  gint sp = 0, x, y, low, high;

  for (y = 0; y < h; y++) {
    gint ym = MAX (y - 1, 0), yp = MIN (y + 1, h - 1);
    for (x = 0; x < w; x++) {
      gint xm = MAX (x - 1, 0), xp = MIN (x + 1, w - 1);
#define P(yy, xx) ((gint) L[(yy) * w + (xx)])
      gint gx = (P (ym, xp) + 2 * P (y, xp) + P (yp, xp)) -
          (P (ym, xm) + 2 * P (y, xm) + P (yp, xm));
      gint gy = (P (yp, xm) + 2 * P (yp, x) + P (yp, xp)) -
          (P (ym, xm) + 2 * P (ym, x) + P (ym, xp));
#undef P
      gint i = y * w + x;
      dx[i] = gx;
      dy[i] = gy;
      m[i] = l2 ? gx * gx + gy * gy : ABS (gx) + ABS (gy);
      if (mag_out) {
        gint g = l2 ? ref_isqrt ((gint64) gx * gx + (gint64) gy * gy) :
            ABS (gx) + ABS (gy);
        mag_out[i] = MIN (255, g / 4);
      }
    }
  }

  if (l2) {
    low_thresh = MIN (32767.0, low_thresh);
    high_thresh = MIN (32767.0, high_thresh);
    if (low_thresh > 0)
      low_thresh *= low_thresh;
    if (high_thresh > 0)
      high_thresh *= high_thresh;
  }
  low = (gint) floor (low_thresh);
  high = (gint) floor (high_thresh);

#define M(yy, xx) (((yy) < 0 || (yy) >= h || (xx) < 0 || (xx) >= w) ? 0 : \
    m[(yy) * w + (xx)])
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      gint i = y * w + x, mv = m[i], keep = 0;

      if (mv > low) {
        gint xs = dx[i], ys = dy[i];
        gint ax = ABS (xs), ay = ABS (ys) << 15;
        gint tg22x = ax * 13573;

        if (ay < tg22x) {
          keep = mv > M (y, x - 1) && mv >= M (y, x + 1);
        } else {
          gint tg67x = tg22x + (ax << 16);
          if (ay > tg67x) {
            keep = mv > M (y - 1, x) && mv >= M (y + 1, x);
          } else {
            gint s = (xs ^ ys) < 0 ? -1 : 1;
            keep = mv > M (y - 1, x - s) && mv > M (y + 1, x + s);
          }
        }
      }
      if (keep)
        cls[i] = mv > high ? 2 : 1;
    }
  }
#undef M

  if (edges) {
    memset (edges, 0, w * h);
    for (x = 0; x < w * h; x++) {
      if (cls[x] == 2) {
        edges[x] = 255;
        stack[sp++] = x;
      }
    }
    while (sp > 0) {
      gint i = stack[--sp], cx = i % w, cy = i / w, ox, oy;
      for (oy = -1; oy <= 1; oy++) {
        for (ox = -1; ox <= 1; ox++) {
          gint nx = cx + ox, ny = cy + oy, j;
          if (nx < 0 || nx >= w || ny < 0 || ny >= h)
            continue;
          j = ny * w + nx;
          if (cls[j] != 0 && edges[j] == 0) {
            edges[j] = 255;
            stack[sp++] = j;
          }
        }
      }
    }
  }

  g_free (dx);
  g_free (dy);
  g_free (m);
  g_free (cls);
  g_free (stack);
}

/* END-REFERENCE */

/* ------------------------------------------------------------------------ */
/* images in GStreamer's default layout for a format                        */

/* The frame as the plane-luma the contract defines */
static guint8 *
img_luma (const Img * im)
{
  gint w = img_w (im), h = img_h (im), x, y;
  GstVideoFormat fmt = img_format (im);
  guint8 *L = g_malloc (w * h);

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint v;
      if (format_is_rgb (fmt)) {
        guint r = img_get (im, GST_VIDEO_COMP_R, x, y);
        guint g = img_get (im, GST_VIDEO_COMP_G, x, y);
        guint b = img_get (im, GST_VIDEO_COMP_B, x, y);
        v = (9798 * r + 19235 * g + 3735 * b + 16384) >> 15;   /* cv::cvtColor, OpenCV 4.6 */
      } else if (fmt == GST_VIDEO_FORMAT_GRAY16_LE
          || fmt == GST_VIDEO_FORMAT_P010_10LE) {
        /* the 16-bit word as it is, P010's low bits included */
        v = (img_get (im, 0, x, y) + 128) / 257;
      } else {
        v = img_get (im, 0, x, y);
      }
      L[y * w + x] = v;
    }
  }
  return L;
}

/* A frame of format fmt whose luma (by the contract) is exactly L.  Bytes
 * the luma must not depend on (alpha / x, chroma, GRAY16 low bits within
 * rounding) are pseudo random; P010 words are any that read as the luma,
 * half of them with the low 6 bits zero as decoders give them. */
static Img *
img_from_luma (GstVideoFormat fmt, const guint8 * L, gint w, gint h,
    guint32 seed)
{
  Img *im = img_new (fmt, w, h);
  const GstVideoInfo *info = &im->info;
  gint x, y, p;

  rng_seed (seed);
  /* garbage everywhere first, including row padding and the x bytes */
  for (p = 0; p < (gint) GST_VIDEO_INFO_SIZE (info); p++)
    im->data[p] = rng_next () >> 24;

  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint v = L[y * w + x];
      if (format_is_rgb (fmt)) {
        img_set (im, GST_VIDEO_COMP_R, x, y, v);
        img_set (im, GST_VIDEO_COMP_G, x, y, v);
        img_set (im, GST_VIDEO_COMP_B, x, y, v);
      } else if (fmt == GST_VIDEO_FORMAT_GRAY16_LE) {
        gint v16 = (gint) v * 257 + rng_range (-128, 128);
        img_set (im, 0, x, y, CLAMP (v16, 0, 65535));
      } else if (fmt == GST_VIDEO_FORMAT_P010_10LE) {
        gint v16 = CLAMP ((gint) v * 257 + rng_range (-128, 128), 0, 65535);
        if ((rng_next () & 1) && ((v16 & 0xffc0) + 128) / 257 == (gint) v)
          v16 &= 0xffc0;
        img_set (im, 0, x, y, v16);
      } else {
        img_set (im, 0, x, y, v);
      }
    }
  }
  /* chroma planes keep their random content: it must not matter */
  return im;
}

/* packed RGB family frame from an arbitrary colour picture (3 bytes/pixel) */
static Img *
img_from_rgb (GstVideoFormat fmt, const guint8 * rgb, gint w, gint h,
    guint32 seed)
{
  Img *im = img_new (fmt, w, h);
  gint x, y, p;

  fail_unless (format_is_rgb (fmt));
  rng_seed (seed);
  for (p = 0; p < (gint) GST_VIDEO_INFO_SIZE (&im->info); p++)
    im->data[p] = rng_next () >> 24;
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      const guint8 *px = rgb + 3 * (y * w + x);
      img_set (im, GST_VIDEO_COMP_R, x, y, px[0]);
      img_set (im, GST_VIDEO_COMP_G, x, y, px[1]);
      img_set (im, GST_VIDEO_COMP_B, x, y, px[2]);
    }
  }
  return im;
}

/* GRAY8 output vs an expected w*h plane; prints a neighbourhood on failure */
static void
assert_plane_equal (const Img * out, const guint8 * expect, const gchar * what)
{
  gint w = img_w (out), h = img_h (out), x, y, bad = 0, fx = -1, fy = -1;

  fail_unless_equals_int (img_format (out), GST_VIDEO_FORMAT_GRAY8);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      if (img_get (out, 0, x, y) != expect[y * w + x]) {
        if (bad++ == 0) {
          fx = x;
          fy = y;
        }
      }
    }
  }
  if (bad) {
    gint ox, oy;
    GString *s = g_string_new (NULL);
    g_string_append_printf (s, "%s: %d of %d pixels differ (%dx%d); first at "
        "(%d,%d) got %u expected %u\n  got / expected around it:\n", what,
        bad, w * h, w, h, fx, fy, img_get (out, 0, fx, fy),
        expect[fy * w + fx]);
    for (oy = MAX (0, fy - 3); oy <= MIN (h - 1, fy + 3); oy++) {
      g_string_append (s, "  ");
      for (ox = MAX (0, fx - 5); ox <= MIN (w - 1, fx + 5); ox++)
        g_string_append_printf (s, "%4u", img_get (out, 0, ox, oy));
      g_string_append (s, "   |");
      for (ox = MAX (0, fx - 5); ox <= MIN (w - 1, fx + 5); ox++)
        g_string_append_printf (s, "%4u", expect[oy * w + ox]);
      g_string_append (s, "\n");
    }
    g_printerr ("%s", s->str);
    fail ("%s", s->str);
    g_string_free (s, TRUE);
  }
}

/* ------------------------------------------------------------------------ */
/* element configuration and harness helpers                                */

typedef struct
{
  gdouble low, high;
  gint blur;
  gdouble sigma;
  gboolean l2;
  const gchar *mode;
  guint color;
  guint n_threads;
} Cfg;

static Cfg
cfg_default (void)
{
  Cfg c = { 50.0, 150.0, 5, 1.4, FALSE, "edges", 0xFFFF0000u, 0 };
  return c;
}

/* blur off: the reference applies exactly */
static Cfg
cfg_exact (const gchar * mode)
{
  Cfg c = cfg_default ();
  c.blur = 0;
  c.mode = mode;
  return c;
}

static void
apply_cfg (GstElement * e, const Cfg * c)
{
  gdouble cur_high = 0;

  g_object_get (e, "high-threshold", &cur_high, NULL);
  /* low must never exceed high in between: order the two sets */
  if (c->low > cur_high) {
    g_object_set (e, "high-threshold", c->high, NULL);
    g_object_set (e, "low-threshold", c->low, NULL);
  } else {
    g_object_set (e, "low-threshold", c->low, NULL);
    g_object_set (e, "high-threshold", c->high, NULL);
  }
  g_object_set (e, "blur-size", c->blur, "blur-sigma", c->sigma,
      "l2-gradient", c->l2, "overlay-color", c->color,
      "n-threads", c->n_threads, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "mode", c->mode);
  {
    gdouble low, high;
    g_object_get (e, "low-threshold", &low, "high-threshold", &high, NULL);
    fail_unless (low == c->low && high == c->high,
        "thresholds not taken: %g/%g, wanted %g/%g", low, high, c->low,
        c->high);
  }
}

/* run one frame through a fresh element */
static Img *
run_one (const gchar * name, const Cfg * cfg, const Img * in, Layout layout)
{
  Ctx ctx = ctx_new (name, NULL);
  Img *out;

  apply_cfg (ctx.e, cfg);
  ctx_set_caps (&ctx, &in->info);
  out = ctx_process (&ctx, in, layout);
  ctx_free (&ctx);
  return out;
}

/* ------------------------------------------------------------------------ */
/* expected output checks                                                   */

static gboolean
mode_is_gray_out (const gchar * mode)
{
  return !g_str_equal (mode, "overlay");
}

/* what the colour becomes in each component of the format (before blending) */
static gdouble
overlay_target (GstVideoFormat fmt, gint c, guint argb)
{
  gdouble r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  if (format_is_rgb (fmt)) {
    return c == GST_VIDEO_COMP_R ? r : c == GST_VIDEO_COMP_G ? g : b;
  } else if (format_is_gray (fmt)) {
    gdouble l = (9798.0 * r + 19235.0 * g + 3735.0 * b) / 32768.0;
    return fmt == GST_VIDEO_FORMAT_GRAY16_LE ? l * 257.0 : l;
  } else {
    /* BT.601, limited range; 16-bit words (P010) scale by 257 */
    gdouble unit = fmt == GST_VIDEO_FORMAT_P010_10LE ? 257.0 : 1.0;
    if (c == 0)
      return unit * (16.0 + (65.481 * r + 128.553 * g + 24.966 * b) / 255.0);
    if (c == 1)
      return unit * (128.0 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255.0);
    return unit * (128.0 + (112.0 * r - 93.786 * g - 18.214 * b) / 255.0);
  }
}

/* out must be in with the edge pixels (edges: w*h, 255 = edge) blended with
 * argb; subsampled chroma is painted when any luma pixel it covers is an
 * edge; painted P010 samples are 10-bit codes (low 6 bits zero), the others
 * keep their 16 bits. */
static void
check_overlay (const Img * in, const Img * out, const guint8 * edges,
    guint argb, const gchar * what)
{
  GstVideoFormat fmt = img_format (in);
  const GstVideoFormatInfo *finfo = in->info.finfo;
  gint w = img_w (in), h = img_h (in), c, x, y;
  guint alpha = argb >> 24;
  gboolean rgb = format_is_rgb (fmt);
  gboolean deep = GST_VIDEO_INFO_COMP_DEPTH (&in->info, 0) > 8;
  gboolean p010 = fmt == GST_VIDEO_FORMAT_P010_10LE;
  gint n_comp = (gint) GST_VIDEO_INFO_N_COMPONENTS (&in->info);
  guint n_painted = 0;

  fail_unless_equals_int (img_format (out), fmt);
  fail_unless_equals_int (img_w (out), w);
  fail_unless_equals_int (img_h (out), h);

  for (c = 0; c < n_comp; c++) {
    gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (finfo, c);
    gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (finfo, c);
    gint cw = GST_VIDEO_INFO_COMP_WIDTH (&in->info, c);
    gint ch = GST_VIDEO_INFO_COMP_HEIGHT (&in->info, c);
    gdouble target = overlay_target (fmt, c, argb);
    gboolean is_alpha = rgb && c == GST_VIDEO_COMP_A;

    for (y = 0; y < ch; y++) {
      for (x = 0; x < cw; x++) {
        gboolean painted = FALSE;
        gint lx, ly;
        guint vin = img_get (in, c, x, y), vout = img_get (out, c, x, y);

        for (ly = y << hs; ly < MIN (h, (y + 1) << hs); ly++)
          for (lx = x << ws; lx < MIN (w, (x + 1) << ws); lx++)
            if (edges[ly * w + lx])
              painted = TRUE;

        if (!painted || alpha == 0) {
          fail_unless (vin == vout, "%s: comp %d at (%d,%d) is no edge but "
              "changed %u -> %u", what, c, x, y, vin, vout);
        } else if (!is_alpha) {
          gdouble expect = (target * alpha + vin * (255.0 - alpha)) / 255.0;
          gdouble tol = (rgb && alpha == 255) ? 0.0 : 1.5;
          if (deep)
            tol = 1.5 * 257.0;
          fail_unless (fabs (vout - expect) <= tol, "%s: comp %d at (%d,%d) "
              "is an edge: got %u, expected %.2f (input %u, colour %08x)",
              what, c, x, y, vout, expect, vin, argb);
          fail_unless (!p010 || (vout & 0x3f) == 0, "%s: comp %d at (%d,%d) "
              "is an edge: got 0x%04x, no 10-bit P010 code", what, c, x, y,
              vout);
          n_painted++;
        }
      }
    }
  }
  (void) n_painted;
}

/* check out (of mode cfg->mode) against the reference for in; blur must be
 * 0.  Returns the reference edge map when wanted. */
static void
check_exact (const Img * in, const Img * out, const Cfg * cfg,
    const gchar * what)
{
  gint w = img_w (in), h = img_h (in);
  guint8 *L = img_luma (in);
  guint8 *edges = g_malloc (w * h), *mag = g_malloc (w * h);
  gchar *msg;

  fail_unless_equals_int (cfg->blur, 0);
  ref_canny (L, w, h, cfg->low, cfg->high, cfg->l2, edges, mag);
  msg = g_strdup_printf ("%s [%s %s %dx%d low=%g high=%g l2=%d]", what,
      gst_video_format_to_string (img_format (in)), cfg->mode, w, h, cfg->low,
      cfg->high, cfg->l2);
  fail_unless_equals_int (img_w (out), w);
  fail_unless_equals_int (img_h (out), h);
  if (g_str_equal (cfg->mode, "edges"))
    assert_plane_equal (out, edges, msg);
  else if (g_str_equal (cfg->mode, "magnitude"))
    assert_plane_equal (out, mag, msg);
  else
    check_overlay (in, out, edges, cfg->color, msg);
  g_free (msg);
  g_free (L);
  g_free (edges);
  g_free (mag);
}

static guint
count_edges (const Img * out)
{
  gint x, y;
  guint n = 0;
  for (y = 0; y < img_h (out); y++)
    for (x = 0; x < img_w (out); x++)
      n += img_get (out, 0, x, y) != 0;
  return n;
}

/* ======================================================================== */
/* tests                                                                    */

GST_START_TEST (test_properties_defaults)
{
  const gchar *name = element_names[__i__];
  GstElement *e = gst_element_factory_make (name, NULL);
  gdouble low, high, sigma;
  gint blur;
  gboolean l2;
  guint color;
  GParamSpec *pspec;
  GObjectClass *klass;

  fail_unless (e != NULL, "no element %s", name);
  klass = G_OBJECT_GET_CLASS (e);
  g_object_get (e, "low-threshold", &low, "high-threshold", &high,
      "blur-size", &blur, "blur-sigma", &sigma, "l2-gradient", &l2,
      "overlay-color", &color, NULL);
  fail_unless_equals_float (low, 50.0);
  fail_unless_equals_float (high, 150.0);
  fail_unless_equals_int (blur, 5);
  fail_unless_equals_float (sigma, 1.4);
  fail_unless (l2 == FALSE);
  fail_unless_equals_uint64 (color, 0xFFFF0000u);
  /* cuda-device-id and fallback: the cuda* element's alone */
  check_device_properties (e, name);

  /* mode is an enum with the documented nicks, edges by default */
  pspec = g_object_class_find_property (klass, "mode");
  fail_unless (pspec != NULL);
  fail_unless (G_IS_PARAM_SPEC_ENUM (pspec));
  {
    GEnumClass *ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    fail_unless (g_enum_get_value_by_nick (ec, "edges") != NULL);
    fail_unless (g_enum_get_value_by_nick (ec, "magnitude") != NULL);
    fail_unless (g_enum_get_value_by_nick (ec, "overlay") != NULL);
    fail_unless_equals_int (G_PARAM_SPEC_ENUM (pspec)->default_value,
        g_enum_get_value_by_nick (ec, "edges")->value);
    fail_unless_equals_string (g_type_name (G_PARAM_SPEC_VALUE_TYPE (pspec)),
        "GstCudaVideoCannyMode");
  }
  {
    GValue v = G_VALUE_INIT;
    GEnumClass *ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    g_value_init (&v, G_PARAM_SPEC_VALUE_TYPE (pspec));
    g_object_get_property (G_OBJECT (e), "mode", &v);
    fail_unless_equals_string (g_enum_get_value (ec,
            g_value_get_enum (&v))->value_nick, "edges");
    g_value_unset (&v);
  }

  /* read-only ones */
  pspec = g_object_class_find_property (klass, "backend");
  fail_unless (pspec != NULL);
  fail_unless (pspec->value_type == G_TYPE_STRING);
  fail_unless ((pspec->flags & G_PARAM_READABLE) != 0);
  fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);
  pspec = g_object_class_find_property (klass, "stats");
  fail_unless (pspec != NULL);
  fail_unless (pspec->value_type == GST_TYPE_STRUCTURE);
  fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);
  pspec = g_object_class_find_property (klass, "n-threads");
  fail_unless (pspec != NULL);
  fail_unless (pspec->value_type == G_TYPE_UINT);

  /* property types */
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (g_object_class_find_property (klass,
              "low-threshold")));
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (g_object_class_find_property (klass,
              "high-threshold")));
  fail_unless (G_IS_PARAM_SPEC_ENUM (g_object_class_find_property (klass, "blur-size")));
  fail_unless (G_IS_PARAM_SPEC_DOUBLE (g_object_class_find_property (klass,
              "blur-sigma")));
  fail_unless (G_IS_PARAM_SPEC_BOOLEAN (g_object_class_find_property (klass,
              "l2-gradient")));
  fail_unless (G_IS_PARAM_SPEC_UINT (g_object_class_find_property (klass,
              "overlay-color")));

  /* accepted values are taken */
  g_object_set (e, "high-threshold", 300.0, NULL);
  g_object_set (e, "low-threshold", 200.0, NULL);
  g_object_set (e, "blur-size", 0, "blur-sigma", 0.0, "l2-gradient", TRUE,
      "overlay-color", 0x8000FF00u, "n-threads", 3u, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "mode", "magnitude");
  g_object_get (e, "low-threshold", &low, "high-threshold", &high,
      "blur-size", &blur, "blur-sigma", &sigma, "l2-gradient", &l2,
      "overlay-color", &color, NULL);
  fail_unless_equals_float (low, 200.0);
  fail_unless_equals_float (high, 300.0);
  fail_unless_equals_int (blur, 0);
  fail_unless_equals_float (sigma, 0.0);
  fail_unless (l2 == TRUE);
  fail_unless_equals_uint64 (color, 0x8000FF00u);
  if (g_str_has_prefix (name, "cuda")) {
    gint dev;
    gboolean fallback;
    g_object_set (e, "cuda-device-id", 0, "fallback", FALSE, NULL);
    g_object_get (e, "cuda-device-id", &dev, "fallback", &fallback, NULL);
    fail_unless_equals_int (dev, 0);
    fail_unless (fallback == FALSE);
    g_object_set (e, "cuda-device-id", 63, NULL);
    g_object_get (e, "cuda-device-id", &dev, NULL);
    fail_unless_equals_int (dev, 63);
  }
  {
    guint nt;
    g_object_get (e, "n-threads", &nt, NULL);
    fail_unless_equals_int (nt, 3);
  }
  for (blur = 3; blur <= 7; blur += 2) {
    gint got;
    g_object_set (e, "blur-size", blur, NULL);
    g_object_get (e, "blur-size", &got, NULL);
    fail_unless_equals_int (got, blur);
  }
  g_object_set (e, "low-threshold", 300.0, NULL);      /* low == high is fine */
  g_object_get (e, "low-threshold", &low, NULL);
  fail_unless_equals_float (low, 300.0);

  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_property_validation)
{
  const gchar *name = element_names[__i__];
  Ctx ctx;
  gint i;

  ctx = ctx_new (name, NULL);

  /* the blur sizes that do not exist */
  for (i = -1; i <= 9; i++) {
    if (i == 0 || i == 3 || i == 5 || i == 7)
      continue;
    reject_int (ctx.e, "blur-size", i, NULL);
  }
  reject_int (ctx.e, "blur-size", 100, NULL);

  /* thresholds: values outside the GParamSpec are refused */
  reject_double (ctx.e, "low-threshold", -1.0);
  reject_double (ctx.e, "high-threshold", -1.0);
  reject_double (ctx.e, "high-threshold", 100001.0);
  reject_double (ctx.e, "low-threshold", 100001.0);
  reject_double (ctx.e, "blur-sigma", -0.5);
  reject_double (ctx.e, "blur-sigma", 100.5);
  if (g_str_has_prefix (name, "cuda")) {
    reject_int (ctx.e, "cuda-device-id", -2, NULL);
    reject_int (ctx.e, "cuda-device-id", 64, NULL);
  }

  /* the two thresholds are checked together where they are used, so the
   * order in which they are set does not matter (low 200 before high 250:
   * both stay) */
  {
    gdouble low, high;
    g_object_set (ctx.e, "low-threshold", 200.0, "high-threshold", 250.0, NULL);
    g_object_get (ctx.e, "low-threshold", &low, "high-threshold", &high, NULL);
    fail_unless (low == 200.0 && high == 250.0, "low 200, high 250 set in this order: %g, %g", low,
        high);
    g_object_set (ctx.e, "low-threshold", 50.0, "high-threshold", 150.0, NULL);
  }

  /* and the element still works with the old values, on real content */
  {
    guint8 *L = luma_scene (67, 45, 11);
    Img *in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, 67, 45, 1);
    Img *out;
    Cfg cfg = cfg_exact ("edges");
    g_object_set (ctx.e, "blur-size", 0, NULL);
    reject_int (ctx.e, "blur-size", 4, NULL);
    ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    check_exact (in, out, &cfg, "after rejections");
    img_free (out);
    /* an unusable pair while playing: one warning on the bus naming it,
     * and the frames keep the last usable thresholds */
    {
      gchar *text = NULL;
      g_object_set (ctx.e, "low-threshold", 151.0, NULL);
      reject_int (ctx.e, "blur-size", 6, NULL);
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      check_exact (in, out, &cfg, "unusable thresholds while playing");
      img_free (out);
      fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, &text), 1);
      fail_unless (strstr (text, "low-threshold=151") != NULL, "warning: %s", text);
      g_free (text);
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      img_free (out);
      fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_WARNING, 0, NULL), 0);
      g_object_set (ctx.e, "low-threshold", 50.0, NULL);
    }
    img_free (in);
    g_free (L);
  }
  ctx_free (&ctx);

  /* an unusable pair at start: the caps are refused with an error naming
   * the thresholds, posted once */
  {
    Img *in = img_new (GST_VIDEO_FORMAT_GRAY8, 16, 16);
    gchar *text = NULL;
    ctx = ctx_new (name, "low-threshold", 200.0, "high-threshold", 100.0, NULL);
    gst_harness_set_src_caps (ctx.h, gst_video_info_to_caps (&in->info));
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, "low > high");
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT), GST_FLOW_NOT_NEGOTIATED, "low > high");
    fail_unless_equals_int (bus_count (ctx.bus, GST_MESSAGE_ERROR, GST_LIBRARY_ERROR, &text), 1);
    fail_unless (strstr (text, "low-threshold=200") != NULL, "error: %s", text);
    g_free (text);
    img_free (in);
    ctx_release (&ctx);
  }
}

GST_END_TEST;

GST_START_TEST (test_template_caps)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
  GstPad *srcpad = gst_element_get_static_pad (ctx.e, "src");
  GstCaps *tmpl = gst_pad_get_pad_template_caps (sinkpad);
  GstCaps *stmpl = gst_pad_get_pad_template_caps (srcpad);
  guint i;
  static const gchar *const rejected[] = {
    "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1",
    "video/x-raw,format=RGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=ARGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_BE,width=64,height=48,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  };

  for (i = 0; i < G_N_ELEMENTS (all_formats); i++) {
    const gchar *f = gst_video_format_to_string (all_formats[i]);
    gchar *s = g_strdup_printf ("video/x-raw,format=%s,width=1,height=1,"
        "framerate=0/1", f);
    GstCaps *c = gst_caps_from_string (s);
    fail_unless (gst_caps_can_intersect (tmpl, c), "sink template lacks %s", f);
    fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused", s);
    gst_caps_unref (c);
    g_free (s);
    s = g_strdup_printf ("video/x-raw,format=%s,width=1920,height=1080,"
        "framerate=60/1", f);
    c = gst_caps_from_string (s);
    fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused", s);
    gst_caps_unref (c);
    g_free (s);
  }
  check_caps_refused (sinkpad, rejected, G_N_ELEMENTS (rejected));
  /* GRAY8 comes out of edges / magnitude mode */
  {
    GstCaps *c = gst_caps_from_string ("video/x-raw,format=GRAY8");
    fail_unless (gst_caps_can_intersect (stmpl, c));
    gst_caps_unref (c);
  }
  gst_caps_unref (tmpl);
  gst_caps_unref (stmpl);
  gst_object_unref (sinkpad);
  gst_object_unref (srcpad);
  ctx_free (&ctx);
}

GST_END_TEST;

/* every format in every mode: output caps and content */
GST_START_TEST (test_negotiation_formats_modes)
{
  const gchar *name = element_names[__i__];
  guint f, m;
  const gint w = 53, h = 37;
  guint8 *L = luma_scene (w, h, 1234);

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    for (m = 0; m < G_N_ELEMENTS (all_modes); m++) {
      Img *in = img_from_luma (all_formats[f], L, w, h, 100 + f);
      Cfg cfg = cfg_exact (all_modes[m]);
      Ctx ctx = ctx_new (name, NULL);
      GstCaps *caps;
      GstVideoInfo oinfo;
      Img *out;
      gchar *what;

      apply_cfg (ctx.e, &cfg);
      /* unusual framerate and pixel-aspect-ratio must be carried over */
      GST_VIDEO_INFO_FPS_N (&in->info) = 25;
      GST_VIDEO_INFO_FPS_D (&in->info) = 2;
      GST_VIDEO_INFO_PAR_N (&in->info) = 4;
      GST_VIDEO_INFO_PAR_D (&in->info) = 3;
      ctx_set_caps (&ctx, &in->info);
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);

      caps = ctx_out_caps (&ctx);
      fail_unless (gst_video_info_from_caps (&oinfo, caps));
      what = g_strdup_printf ("%s %s %s", name,
          gst_video_format_to_string (all_formats[f]), all_modes[m]);
      fail_unless_equals_string (gst_video_format_to_string
          (GST_VIDEO_INFO_FORMAT (&oinfo)), mode_is_gray_out (all_modes[m]) ?
          "GRAY8" : gst_video_format_to_string (all_formats[f]));
      fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&oinfo), w);
      fail_unless_equals_int (GST_VIDEO_INFO_HEIGHT (&oinfo), h);
      fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&oinfo), 25);
      fail_unless_equals_int (GST_VIDEO_INFO_FPS_D (&oinfo), 2);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_N (&oinfo), 4);
      fail_unless_equals_int (GST_VIDEO_INFO_PAR_D (&oinfo), 3);
      gst_caps_unref (caps);

      check_exact (in, out, &cfg, what);
      g_free (what);
      img_free (out);
      img_free (in);
      ctx_free (&ctx);
    }
  }
  g_free (L);
}

GST_END_TEST;

/* the hand-worked cases: a vertical step between columns x0-1 (dark) and x0
 * (bright) gives |dx| = 4 s at both columns; the horizontal-sector rule
 * m > left && m >= right keeps x0-1 only. */
GST_START_TEST (test_step_edges)
{
  const gchar *name = element_names[__i__];
  const gint w = 64, h = 48, x0 = 20, y0 = 30;
  guint8 *L;
  Img *in, *out;
  Cfg cfg = cfg_exact ("edges");
  const gboolean quick = gcv_check_quick ();
  gint x, y, blur;

  /* vertical step of 100 levels: one column of 255 at x0 - 1 */
  L = luma_vstep (w, h, x0, 50, 150);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (img_get (out, 0, x, y), x == x0 - 1 ? 255 : 0);
  img_free (out);

  /* the same with L2 */
  cfg.l2 = TRUE;
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (img_get (out, 0, x, y), x == x0 - 1 ? 255 : 0);
  img_free (out);
  cfg.l2 = FALSE;

  /* magnitude: s at both columns of the step, 0 elsewhere */
  cfg.mode = "magnitude";
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (img_get (out, 0, x, y),
          (x == x0 - 1 || x == x0) ? 100 : 0);
  img_free (out);
  cfg.mode = "edges";

  /* blurred: still exactly one column, right at the step, and nothing else */
  for (blur = 3; blur <= 7; blur += 2) {
    gint col = -1;
    cfg.blur = blur;
    out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
    for (y = 0; y < h; y++) {
      gint n = 0;
      for (x = 0; x < w; x++) {
        if (img_get (out, 0, x, y)) {
          fail_unless_equals_int (img_get (out, 0, x, y), 255);
          if (col < 0)
            col = x;
          fail_unless (x == col, "blur %d: edge at (%d,%d), column %d "
              "before", blur, x, y, col);
          n++;
        }
      }
      fail_unless_equals_int (n, 1);
    }
    fail_unless (col == x0 - 1 || col == x0, "blur %d: edge column %d, step "
        "at %d", blur, col, x0);
    img_free (out);
  }
  cfg.blur = 0;
  img_free (in);
  g_free (L);

  /* the bright side first: the step goes the other way, same place */
  L = luma_vstep (w, h, x0, 200, 20);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (img_get (out, 0, x, y), x == x0 - 1 ? 255 : 0);
  img_free (out);
  img_free (in);
  g_free (L);

  /* horizontal step: one row of 255 at y0 - 1 (m > up && m >= down) */
  L = luma_hstep (w, h, y0, 30, 180);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (img_get (out, 0, x, y), y == y0 - 1 ? 255 : 0);
  img_free (out);
  img_free (in);
  g_free (L);

  /* a step of 30 levels: m = 120 is between low (50) and high (150), weak
   * only, so hysteresis leaves nothing */
  L = luma_vstep (w, h, x0, 100, 130);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), 0);
  img_free (out);
  /* ... until high drops below 120 */
  cfg.high = 119.0;
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), h);
  img_free (out);
  /* and low at 120 suppresses it (m > low is needed) */
  cfg.low = 120.0;
  cfg.high = 120.0;
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), 0);
  img_free (out);
  /* fractional thresholds are floored: 119.9 acts as 119 */
  cfg.low = 119.9;
  cfg.high = 119.9;
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), h);
  img_free (out);
  cfg = cfg_exact ("edges");
  img_free (in);
  g_free (L);

  /* hysteresis at any distance: a strong step on the top rows continues as
   * a weak one down the rest of the frame; the whole column is an edge */
  L = g_malloc (w * h);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      L[y * w + x] = x < x0 ? 100 : (y < 4 ? 200 : 130);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  check_exact (in, out, &cfg, "strong + weak step");
  /* (rows 3 and 4, at the junction, bend through column x0) */
  for (y = 0; y < h; y++)
    if (y < 3 || y > 4)
      fail_unless_equals_int (img_get (out, 0, x0 - 1, y), 255);
  img_free (out);
  img_free (in);
  g_free (L);

  /* flat frames: nothing, in every mode and blur (quick mode: one mode
   * per blur size, every mode and every blur size still once) */
  L = luma_flat (w, h, 77);
  in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  for (blur = 0; blur <= 7; blur += (blur == 0 ? 3 : 2)) {
    gint qm = (blur / 2) % 3;   /* 0 1 2 0 for blur 0 3 5 7 */
    cfg.blur = blur;
    cfg.mode = "edges";
    if (!quick || qm == 0) {
      out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      fail_unless_equals_int (count_edges (out), 0);
      img_free (out);
    }
    cfg.mode = "magnitude";
    if (!quick || qm == 1) {
      out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      fail_unless_equals_int (count_edges (out), 0);
      img_free (out);
    }
    cfg.mode = "overlay";
    if (!quick || qm == 2) {
      out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      assert_img_equal (in, out, "overlay of a flat frame");
      img_free (out);
    }
  }
  img_free (in);
  g_free (L);
}

GST_END_TEST;

/* a rich scene and pure noise in every format: exact against the
 * reference, for L1 and L2 and several thresholds */
GST_START_TEST (test_exact_content)
{
  const gchar *name = element_names[__i__];
  const gint w = 161, h = 121;
  guint8 *scene = luma_scene (w, h, 77), *noise = luma_noise (w, h, 78);
  static const gdouble thr[][2] = {
    {50, 150}, {0, 0}, {10, 400}, {100.5, 100.7}, {300, 900}, {20, 60},
  };
  const gboolean quick = gcv_check_quick ();
  guint f, t;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    Img *in_scene = img_from_luma (all_formats[f], scene, w, h, 7 * f + 1);
    Img *in_noise = img_from_luma (all_formats[f], noise, w, h, 7 * f + 2);
    Ctx ctx = ctx_new (name, NULL);

    ctx_set_caps (&ctx, &in_scene->info);
    for (t = 0; t < G_N_ELEMENTS (thr); t++) {
      gint l2;
      /* quick mode: one threshold pair and L1 or L2 per format (every
       * format, every pair and both norms still once) */
      if (quick && t != f % G_N_ELEMENTS (thr))
        continue;
      for (l2 = 0; l2 <= 1; l2++) {
        Cfg cfg = cfg_exact ("edges");
        Img *out;
        if (quick && l2 != (gint) (f % 2))
          continue;
        cfg.low = thr[t][0];
        cfg.high = thr[t][1];
        cfg.l2 = l2;
        apply_cfg (ctx.e, &cfg);
        out = ctx_process (&ctx, in_scene, LAYOUT_DEFAULT);
        check_exact (in_scene, out, &cfg, "scene");
        img_free (out);
        out = ctx_process (&ctx, in_noise, LAYOUT_DEFAULT);
        check_exact (in_noise, out, &cfg, "noise");
        img_free (out);
      }
    }
    {
      gint l2;
      for (l2 = 0; l2 <= 1; l2++) {
        Cfg cfg = cfg_exact ("magnitude");
        Img *out;
        if (quick && l2 == (gint) (f % 2))
          continue;             /* quick mode: the other norm only */
        cfg.l2 = l2;
        apply_cfg (ctx.e, &cfg);
        out = ctx_process (&ctx, in_noise, LAYOUT_DEFAULT);
        check_exact (in_noise, out, &cfg, "noise magnitude");
        img_free (out);
      }
    }
    ctx_free (&ctx);
    img_free (in_scene);
    img_free (in_noise);
  }
  g_free (scene);
  g_free (noise);
}

GST_END_TEST;

/* colour content: the luma weights and channel order of the RGB formats */
GST_START_TEST (test_rgb_luma)
{
  const gchar *name = element_names[__i__];
  const gint w = 97, h = 71;
  guint8 *rgb = g_malloc (3 * w * h);
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA,
    GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx
  };
  guint f;
  gint i, x, y;

  /* independent channels: blocks of different colours whose luma edges
   * depend on the channel weights, plus noise */
  rng_seed (4242);
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint8 *p = rgb + 3 * (y * w + x);
      p[0] = ((x / 9) % 2) ? 230 : 10;
      p[1] = ((y / 7) % 2) ? 200 : 30;
      p[2] = (((x + y) / 11) % 2) ? 250 : 0;
    }
  }
  for (i = 0; i < w * h / 4; i++) {
    gint k = rng_range (0, 3 * w * h - 1);
    rgb[k] = rng_next () >> 24;
  }

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Img *in = img_from_rgb (fmts[f], rgb, w, h, 99 + f);
    guint m;
    for (m = 0; m < G_N_ELEMENTS (all_modes); m++) {
      Cfg cfg = cfg_exact (all_modes[m]);
      Img *out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      check_exact (in, out, &cfg, "colour");
      img_free (out);
    }
    img_free (in);
  }
  g_free (rgb);
}

GST_END_TEST;

/* one gray picture through every format gives the same edges, blur on */
GST_START_TEST (test_format_equivalence)
{
  const gchar *name = element_names[__i__];
  const gint w = 203, h = 150;
  guint8 *L = luma_scene (w, h, 555);
  Img *ref_out[G_N_ELEMENTS (all_modes) - 1] = { NULL, };
  const gboolean quick = gcv_check_quick ();
  guint f, m;
  gint blur;

  for (blur = 3; blur <= 7; blur += 2) {
    for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      Img *in;
      /* quick mode: GRAY8 (the reference) and a third of the other
       * formats per blur size, every format still once */
      if (quick && f != 0 && (f - 1) % 3 != (guint) (blur - 3) / 2)
        continue;
      in = img_from_luma (all_formats[f], L, w, h, 31 * f + blur);
      for (m = 0; m < 2; m++) {
        Cfg cfg = cfg_default ();
        Img *out;
        gchar *what;
        cfg.blur = blur;
        cfg.mode = all_modes[m];
        out = run_one (name, &cfg, in, f % 2 ? LAYOUT_ALIGNED :
            LAYOUT_DEFAULT);
        what = g_strdup_printf ("%s blur %d %s vs GRAY8", all_modes[m], blur,
            gst_video_format_to_string (all_formats[f]));
        if (f == 0) {
          fail_unless (m != 0 || count_edges (out) > 100,
              "suspiciously few edges (%u) in the scene", count_edges (out));
          ref_out[m] = out;
        } else {
          assert_img_equal (ref_out[m], out, what);
          img_free (out);
        }
        g_free (what);
      }
      img_free (in);
    }
    for (m = 0; m < 2; m++) {
      img_free (ref_out[m]);
      ref_out[m] = NULL;
    }
  }
  g_free (L);
}

GST_END_TEST;

GST_START_TEST (test_sizes)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {1, 7}, {7, 1}, {3, 2},
  {641, 481}
  };
  const gboolean quick = gcv_check_quick ();
  guint s, f, m;
  gint x, y, blur;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint w = sizes[s][0], h = sizes[s][1];
    guint8 *L;
    /* quick mode: 131x97 stands in for 641x481 (odd, still no blur pass),
     * and each size runs two formats (every format once on a tiny size,
     * two on the large one) */
    if (quick && s == G_N_ELEMENTS (sizes) - 1)
      w = 131, h = 97;
    L = w * h > 16 ? luma_scene (w, h, 9 + s) : luma_noise (w, h, 9 + s);
    for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      Img *in;
      if (quick && f % 5 != s % 5)
        continue;
      in = img_from_luma (all_formats[f], L, w, h, s * 13 + f);
      for (m = 0; m < G_N_ELEMENTS (all_modes); m++) {
        Cfg cfg = cfg_exact (all_modes[m]);
        Img *out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
        gchar *what = g_strdup_printf ("size %dx%d", w, h);
        check_exact (in, out, &cfg, what);
        g_free (what);
        img_free (out);
      }
      /* every blur size on tiny frames (reflect-101 of 1 or 2 samples) */
      for (blur = 3; blur <= 7 && w * h < 64; blur += 2) {
        Cfg cfg = cfg_default ();
        Img *out;
        cfg.blur = blur;
        out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
        fail_unless_equals_int (img_w (out), w);
        fail_unless_equals_int (img_h (out), h);
        img_free (out);
      }
      img_free (in);
    }
    g_free (L);
  }

  /* 1x1 of any value has no edge; 2x2 dark|bright: the left column
   * (quick mode: the 1x1 case on the even formats, the 2x2 one on the odd
   * ones) */
  {
    guint8 one = 200, two[4] = { 40, 200, 40, 200 };
    for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      Cfg cfg = cfg_exact ("edges");
      Img *in, *out;
      if (!quick || f % 2 == 0) {
        in = img_from_luma (all_formats[f], &one, 1, 1, f);
        out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
        fail_unless_equals_int (img_get (out, 0, 0, 0), 0);
        img_free (out);
        img_free (in);
      }
      if (quick && f % 2 == 0)
        continue;
      in = img_from_luma (all_formats[f], two, 2, 2, f);
      out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      for (y = 0; y < 2; y++)
        for (x = 0; x < 2; x++)
          fail_unless_equals_int (img_get (out, 0, x, y), x == 0 ? 255 : 0);
      img_free (out);
      img_free (in);
    }
  }

  /* full HD, a few formats (quick mode: 320x180 stands in, the same
   * formats and modes) */
  {
    static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_BGRx
    };
    const gint w = quick ? 320 : 1920, h = quick ? 180 : 1080;
    guint8 *L = luma_scene (w, h, 1080);
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      Img *in = img_from_luma (fmts[f], L, w, h, 1920 + f);
      Cfg cfg = cfg_exact (f == 1 ? "overlay" : "edges");
      Img *out = run_one (name, &cfg, in, LAYOUT_DEFAULT);
      check_exact (in, out, &cfg, "1080p");
      img_free (out);
      img_free (in);
    }
    g_free (L);
  }
}

GST_END_TEST;

/* padded strides (GstVideoMeta) and garbage in the padding */
GST_START_TEST (test_padded_strides)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][2] = { {97, 61}, {641, 481}, {1, 1}, {2, 3} };
  const gboolean quick = gcv_check_quick ();
  guint s, f, m, l;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint w = sizes[s][0], h = sizes[s][1];
    guint8 *L;
    /* quick mode: no 641x481 (97x61 is odd and padded as well) */
    if (quick && s == 1)
      continue;
    L = w * h > 16 ? luma_scene (w, h, 600 + s) : luma_noise (w, h, 600 + s);
    for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
      Img *in = img_from_luma (all_formats[f], L, w, h, 17 * f + s);
      if (s == 1 && f % 3 != 0) {
        img_free (in);
        continue;               /* the large size for a few formats only */
      }
      for (m = 0; m < G_N_ELEMENTS (all_modes); m++) {
        Cfg cfg = cfg_exact (all_modes[m]);
        Img *plain = NULL;
        Ctx ctx;
        /* quick mode: one mode per format and size (every format in every
         * layout, every mode in every layout on each size) */
        if (quick && m != (f + s) % G_N_ELEMENTS (all_modes))
          continue;
        ctx = ctx_new (name, NULL);
        apply_cfg (ctx.e, &cfg);
        ctx_set_caps (&ctx, &in->info);
        for (l = 0; l < G_N_ELEMENTS (layout_names); l++) {
          Img *out = ctx_process (&ctx, in, l);
          gchar *what = g_strdup_printf ("%s layout", layout_names[l]);
          check_exact (in, out, &cfg, what);
          g_free (what);
          if (l == 0) {
            plain = out;
          } else {
            assert_img_equal (plain, out, "padded vs packed");
            img_free (out);
          }
        }
        /* and blurred, compared with the default layout */
        cfg.blur = 5;
        apply_cfg (ctx.e, &cfg);
        img_free (plain);
        plain = ctx_process (&ctx, in, LAYOUT_DEFAULT);
        for (l = 1; l < G_N_ELEMENTS (layout_names); l++) {
          Img *out = ctx_process (&ctx, in, l);
          assert_img_equal (plain, out, "blurred: padded vs packed");
          img_free (out);
        }
        img_free (plain);
        ctx_free (&ctx);
      }
      img_free (in);
    }
    g_free (L);
  }
}

GST_END_TEST;

/* upstream has to know that strides of its own are fine */
GST_START_TEST (test_allocation_video_meta)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GstCaps *caps = gst_caps_from_string ("video/x-raw,format=I420,width=64,"
      "height=48,framerate=30/1");
  GstQuery *q;

  gst_harness_set_src_caps (ctx.h, gst_caps_ref (caps));
  q = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (ctx.h->srcpad, q));
  fail_unless (gst_query_find_allocation_meta (q, GST_VIDEO_META_API_TYPE,
          NULL), "%s does not announce GstVideoMeta support", name);
  gst_query_unref (q);
  gst_caps_unref (caps);
  ctx_free (&ctx);
}

GST_END_TEST;

static Img *
run_cfg_element (const gchar * name, const Cfg * cfg, const Img * in)
{
  return run_one (name, cfg, in, LAYOUT_DEFAULT);
}

/* cpucanny and cudacanny give byte-identical output */
GST_START_TEST (test_cpu_cuda_identical)
{
  /* quick mode: a 161x121 frame, every case */
  const gboolean quick = gcv_check_quick ();
  const gint w = quick ? 161 : 641, h = quick ? 121 : 481;
  guint8 *scene = luma_scene (w, h, 2024), *noise = luma_noise (w, h, 2025);
  static const struct
  {
    gint blur;
    gdouble sigma;
    gboolean l2;
    gdouble low, high;
    const gchar *mode;
    GstVideoFormat fmt;
    gboolean noise;
  } cases[] = {
    {0, 1.4, FALSE, 50, 150, "edges", GST_VIDEO_FORMAT_GRAY8, FALSE},
    {3, 0.0, FALSE, 50, 150, "edges", GST_VIDEO_FORMAT_GRAY8, FALSE},
    {5, 1.4, FALSE, 50, 150, "edges", GST_VIDEO_FORMAT_GRAY8, FALSE},
    {7, 0.0, FALSE, 50, 150, "edges", GST_VIDEO_FORMAT_GRAY8, FALSE},
    {7, 3.0, TRUE, 30, 90, "edges", GST_VIDEO_FORMAT_GRAY8, FALSE},
    {5, 0.5, TRUE, 100, 200, "edges", GST_VIDEO_FORMAT_I420, TRUE},
    {3, 1.0, FALSE, 10, 40, "edges", GST_VIDEO_FORMAT_NV12, TRUE},
    {5, 1.4, FALSE, 50, 150, "magnitude", GST_VIDEO_FORMAT_RGBA, FALSE},
    {7, 2.0, TRUE, 50, 150, "magnitude", GST_VIDEO_FORMAT_GRAY16_LE, TRUE},
    {5, 1.4, FALSE, 30, 90, "edges", GST_VIDEO_FORMAT_P010_10LE, TRUE},
    {3, 1.0, TRUE, 50, 150, "overlay", GST_VIDEO_FORMAT_P010_10LE, FALSE},
    {5, 1.4, FALSE, 50, 150, "overlay", GST_VIDEO_FORMAT_I420, FALSE},
    {5, 1.4, FALSE, 50, 150, "overlay", GST_VIDEO_FORMAT_BGRx, FALSE},
    {0, 1.4, FALSE, 0, 0, "edges", GST_VIDEO_FORMAT_Y444, TRUE},
    {3, 99.0, FALSE, 1, 2, "edges", GST_VIDEO_FORMAT_Y42B, TRUE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    Cfg cfg = cfg_default ();
    Img *in = img_from_luma (cases[i].fmt, cases[i].noise ? noise : scene, w,
        h, 500 + i);
    Img *a, *b;
    gchar *what;

    cfg.blur = cases[i].blur;
    cfg.sigma = cases[i].sigma;
    cfg.l2 = cases[i].l2;
    cfg.low = cases[i].low;
    cfg.high = cases[i].high;
    cfg.mode = cases[i].mode;
    a = run_cfg_element ("cpucanny", &cfg, in);
    b = run_cfg_element ("cudacanny", &cfg, in);
    what = g_strdup_printf ("cpucanny vs cudacanny, case %u", i);
    assert_img_equal (a, b, what);
    g_free (what);
    img_free (a);
    img_free (b);
    img_free (in);
  }
  g_free (scene);
  g_free (noise);
}

GST_END_TEST;

/* the blur parameters do something, and n-threads changes nothing */
GST_START_TEST (test_blur_and_threads)
{
  const gchar *name = element_names[__i__];
  /* quick mode: 201x151 (rows for every thread count), every check */
  const gboolean quick = gcv_check_quick ();
  const gint w = quick ? 201 : 641, h = quick ? 151 : 481;
  guint8 *L = luma_scene (w, h, 31337);
  guint8 *N = luma_noise (w, h, 31338);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_GRAY8, L, w, h, 1);
  Img *innoise = img_from_luma (GST_VIDEO_FORMAT_I420, N, w, h, 2);
  Cfg cfg = cfg_default ();
  Img *b0, *b5, *s1, *s3;
  static const guint threads[] = { 1, 2, 3, 7, 0 };
  guint t;

  cfg.blur = 0;
  b0 = run_one (name, &cfg, innoise, LAYOUT_DEFAULT);
  cfg.blur = 5;
  b5 = run_one (name, &cfg, innoise, LAYOUT_DEFAULT);
  fail_unless (count_edges (b5) < count_edges (b0),
      "blur-size 5 does not reduce noise edges (%u vs %u)", count_edges (b5),
      count_edges (b0));
  cfg.sigma = 0.5;
  s1 = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  cfg.sigma = 3.0;
  s3 = run_one (name, &cfg, in, LAYOUT_DEFAULT);
  fail_unless (memcmp (s1->data, s3->data, GST_VIDEO_INFO_SIZE (&s1->info))
      != 0, "blur-sigma 0.5 and 3.0 give the same output");
  img_free (b0);
  img_free (b5);
  img_free (s1);
  img_free (s3);

  /* thread counts, in a few configurations */
  {
    Cfg cfgs[3];
    guint c;
    cfgs[0] = cfg_default ();
    cfgs[1] = cfg_default ();
    cfgs[1].blur = 0;
    cfgs[1].low = 5;
    cfgs[1].high = 30;
    cfgs[2] = cfg_default ();
    cfgs[2].blur = 7;
    cfgs[2].mode = "overlay";
    for (c = 0; c < G_N_ELEMENTS (cfgs); c++) {
      Img *first = NULL;
      for (t = 0; t < G_N_ELEMENTS (threads); t++) {
        Img *out;
        cfgs[c].n_threads = threads[t];
        out = run_one (name, &cfgs[c], c == 1 ? innoise : in, LAYOUT_DEFAULT);
        if (c == 1)
          check_exact (innoise, out, &cfgs[c], "n-threads");
        if (!first) {
          first = out;
        } else {
          gchar *what = g_strdup_printf ("n-threads %u vs %u (config %u)",
              threads[t], threads[0], c);
          assert_img_equal (first, out, what);
          g_free (what);
          img_free (out);
        }
      }
      img_free (first);
    }
  }
  img_free (in);
  img_free (innoise);
  g_free (L);
  g_free (N);
}

GST_END_TEST;

GST_START_TEST (test_overlay)
{
  const gchar *name = element_names[__i__];
  const gint w = 75, h = 55;
  guint8 *L = luma_scene (w, h, 8080);
  static const guint colors[] = { 0xFFFF0000u, 0xFF00FF00u, 0xFF0000FFu,
    0xFFFFFFFFu, 0xFF000000u, 0x80FFFF00u, 0x4000FFFFu, 0x00FF0000u,
  };
  const gboolean quick = gcv_check_quick ();
  guint f, c;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    Img *in = img_from_luma (all_formats[f], L, w, h, 3 * f);
    Ctx ctx = ctx_new (name, NULL);
    Cfg cfg = cfg_exact ("overlay");
    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &in->info);
    for (c = 0; c < G_N_ELEMENTS (colors); c++) {
      Img *out;
      gchar *what;
      /* quick mode: two colours per format, one in each layout (every
       * colour still once, every format in both layouts) */
      if (quick && c != f % 8 && c != (f + 3) % 8)
        continue;
      what = g_strdup_printf ("overlay colour %08x", colors[c]);
      cfg.color = colors[c];
      g_object_set (ctx.e, "overlay-color", colors[c], NULL);
      out = ctx_process (&ctx, in, c % 2 ? LAYOUT_ALIGNED : LAYOUT_DEFAULT);
      check_exact (in, out, &cfg, what);
      g_free (what);
      img_free (out);
    }
    ctx_free (&ctx);
    img_free (in);
  }
  g_free (L);
}

GST_END_TEST;

/* mode changes between frames renegotiate the src pad */
GST_START_TEST (test_mode_switch)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_GRAY8
  };
  static const gchar *const seq[] = { "edges", "overlay", "magnitude",
    "overlay", "edges", "edges", "magnitude", "edges"
  };
  const gint w = 90, h = 64;
  guint8 *L = luma_scene (w, h, 90);
  guint f, s;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Img *in = img_from_luma (fmts[f], L, w, h, f);
    Ctx ctx = ctx_new (name, NULL);
    Cfg cfg = cfg_exact ("edges");
    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &in->info);
    for (s = 0; s < G_N_ELEMENTS (seq); s++) {
      GstCaps *caps;
      GstVideoInfo oinfo;
      Img *out;
      gchar *what;

      cfg.mode = seq[s];
      gst_util_set_object_arg (G_OBJECT (ctx.e), "mode", seq[s]);
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      caps = ctx_out_caps (&ctx);
      fail_unless (gst_video_info_from_caps (&oinfo, caps));
      fail_unless_equals_string (gst_video_format_to_string
          (GST_VIDEO_INFO_FORMAT (&oinfo)), mode_is_gray_out (seq[s]) ?
          "GRAY8" : gst_video_format_to_string (fmts[f]));
      gst_caps_unref (caps);
      what = g_strdup_printf ("mode switch step %u", s);
      check_exact (in, out, &cfg, what);
      g_free (what);
      img_free (out);
    }
    ctx_free (&ctx);
    img_free (in);
  }
  g_free (L);
}

GST_END_TEST;

/* to a neighbour that takes no GRAY8 (GStreamer's cudadownload) the maps
 * come out as NV12: the luma is the map, the chroma 128 */
GST_START_TEST (test_map_as_nv12)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_P010_10LE
  };
  static const gchar *const modes[] = { "edges", "magnitude" };
  /* chroma rows of 66 bytes in a stride of 68, and an odd last row */
  const gint w = 66, h = 45;
  guint8 *L = luma_scene (w, h, 66);
  guint f, m;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    for (m = 0; m < G_N_ELEMENTS (modes); m++) {
      Img *in = img_from_luma (fmts[f], L, w, h, 40 + f);
      Img *luma = img_new (GST_VIDEO_FORMAT_GRAY8, w, h);
      Ctx ctx = ctx_new (name, NULL);
      Cfg cfg = cfg_exact (modes[m]);
      gchar *what = g_strdup_printf ("%s %s %s as NV12", name,
          gst_video_format_to_string (fmts[f]), modes[m]);
      Img *out;
      gint x, y, c;

      apply_cfg (ctx.e, &cfg);
      ctx_set_downstream (&ctx, "video/x-raw,format=NV12");
      ctx_set_caps (&ctx, &in->info);
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_NV12, w, h, 1, 1, what);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
          img_set (luma, 0, x, y, img_get (out, 0, x, y));
      check_exact (in, luma, &cfg, what);
      for (c = 1; c < 3; c++)
        for (y = 0; y < (h + 1) / 2; y++)
          for (x = 0; x < (w + 1) / 2; x++)
            fail_unless (img_get (out, c, x, y) == 128, "%s: chroma %d at "
                "(%d, %d) is %u, not 128", what, c, x, y, img_get (out, c, x,
                    y));
      g_free (what);
      img_free (out);
      img_free (luma);
      img_free (in);
      ctx_free (&ctx);
    }
  }
  g_free (L);
}

GST_END_TEST;

/* thresholds, blur and l2 changed between frames take effect */
GST_START_TEST (test_property_change_midstream)
{
  const gchar *name = element_names[__i__];
  const gint w = 64, h = 48;
  guint8 *L = luma_vstep (w, h, 20, 100, 130);     /* m = 120 */
  guint8 *S = luma_scene (w, h, 64);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_NV12, L, w, h, 1);
  Img *scene = img_from_luma (GST_VIDEO_FORMAT_NV12, S, w, h, 2);
  Ctx ctx = ctx_new (name, NULL);
  Cfg cfg = cfg_exact ("edges");
  Img *out;

  apply_cfg (ctx.e, &cfg);
  ctx_set_caps (&ctx, &in->info);
  out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), 0);
  img_free (out);

  g_object_set (ctx.e, "high-threshold", 110.0, NULL);
  out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
  fail_unless_equals_int (count_edges (out), h);
  img_free (out);

  cfg.high = 110.0;
  cfg.l2 = TRUE;
  g_object_set (ctx.e, "l2-gradient", TRUE, NULL);
  out = ctx_process (&ctx, scene, LAYOUT_DEFAULT);
  check_exact (scene, out, &cfg, "after l2 on");
  img_free (out);

  cfg.l2 = FALSE;
  cfg.low = 5;
  cfg.high = 20;
  apply_cfg (ctx.e, &cfg);
  out = ctx_process (&ctx, scene, LAYOUT_DEFAULT);
  check_exact (scene, out, &cfg, "after thresholds");
  img_free (out);

  /* blur on and off again */
  g_object_set (ctx.e, "blur-size", 7, NULL);
  out = ctx_process (&ctx, scene, LAYOUT_DEFAULT);
  img_free (out);
  g_object_set (ctx.e, "blur-size", 0, NULL);
  out = ctx_process (&ctx, scene, LAYOUT_DEFAULT);
  check_exact (scene, out, &cfg, "after blur off");
  img_free (out);

  ctx_free (&ctx);
  img_free (in);
  img_free (scene);
  g_free (L);
  g_free (S);
}

GST_END_TEST;

GST_START_TEST (test_flush)
{
  const gchar *name = element_names[__i__];
  const gint w = 120, h = 80;
  guint8 *L = luma_scene (w, h, 4);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_I420, L, w, h, 4);
  Ctx ctx = ctx_new (name, NULL);
  Cfg cfg = cfg_exact ("edges");
  GstSegment seg;
  Img *out;
  gint round;

  apply_cfg (ctx.e, &cfg);
  ctx_set_caps (&ctx, &in->info);
  for (round = 0; round < 3; round++) {
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    check_exact (in, out, &cfg, "before flush");
    img_free (out);

    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (ctx.h,
            gst_event_new_flush_stop (TRUE)));
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_segment (&seg)));

    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    check_exact (in, out, &cfg, "after flush");
    img_free (out);
  }
  /* the flushes reached downstream */
  {
    GstEvent *ev;
    gint starts = 0, stops = 0;
    while ((ev = gst_harness_try_pull_event (ctx.h))) {
      if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_START)
        starts++;
      if (GST_EVENT_TYPE (ev) == GST_EVENT_FLUSH_STOP)
        stops++;
      gst_event_unref (ev);
    }
    fail_unless_equals_int (starts, 3);
    fail_unless_equals_int (stops, 3);
  }
  ctx_free (&ctx);
  img_free (in);
  g_free (L);
}

GST_END_TEST;

/* new caps mid-stream: size and format */
GST_START_TEST (test_caps_change)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
    const gchar *mode;
  } steps[] = {
    {GST_VIDEO_FORMAT_GRAY8, 64, 48, "edges"},
    {GST_VIDEO_FORMAT_GRAY8, 100, 80, "edges"},
    {GST_VIDEO_FORMAT_I420, 33, 21, "edges"},
    {GST_VIDEO_FORMAT_I420, 33, 21, "overlay"},
    {GST_VIDEO_FORMAT_RGBx, 321, 241, "overlay"},
    {GST_VIDEO_FORMAT_GRAY16_LE, 2, 2, "magnitude"},
    {GST_VIDEO_FORMAT_P010_10LE, 111, 31, "overlay"},
    {GST_VIDEO_FORMAT_P010_10LE, 111, 31, "edges"},
    {GST_VIDEO_FORMAT_Y42B, 641, 481, "edges"},
    {GST_VIDEO_FORMAT_GRAY8, 64, 48, "edges"},
  };
  const gboolean quick = gcv_check_quick ();
  Ctx ctx = ctx_new (name, NULL);
  guint s;

  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    /* quick mode: the frames over 300 wide a third of the size (still
     * odd, still growing and shrinking), every step */
    gint w = quick && steps[s].w > 300 ? steps[s].w / 3 | 1 : steps[s].w;
    gint h = quick && steps[s].w > 300 ? steps[s].h / 3 | 1 : steps[s].h;
    gint k;
    guint8 *L = luma_scene (w, h, 70 + s);
    Img *in = img_from_luma (steps[s].fmt, L, w, h, s);
    Cfg cfg = cfg_exact (steps[s].mode);
    apply_cfg (ctx.e, &cfg);
    ctx_set_caps (&ctx, &in->info);
    for (k = 0; k < 2; k++) {
      Img *out = ctx_process (&ctx, in, k ? LAYOUT_ALIGNED : LAYOUT_DEFAULT);
      gchar *what = g_strdup_printf ("caps change step %u", s);
      check_exact (in, out, &cfg, what);
      g_free (what);
      img_free (out);
    }
    img_free (in);
    g_free (L);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

GST_START_TEST (test_eos)
{
  const gchar *name = element_names[__i__];
  const gint w = 40, h = 30;
  guint8 *L = luma_scene (w, h, 5);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_BGRA, L, w, h, 5);
  Ctx ctx = ctx_new (name, NULL);
  Cfg cfg = cfg_exact ("overlay");
  GstEvent *ev;
  gboolean eos = FALSE;
  gint i;

  apply_cfg (ctx.e, &cfg);
  ctx_set_caps (&ctx, &in->info);
  for (i = 0; i < 3; i++) {
    Img *out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    check_exact (in, out, &cfg, "before EOS");
    img_free (out);
  }
  fail_unless (gst_harness_push_event (ctx.h, gst_event_new_eos ()));
  while ((ev = gst_harness_try_pull_event (ctx.h))) {
    if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS)
      eos = TRUE;
    gst_event_unref (ev);
  }
  fail_unless (eos, "EOS did not come out of %s", name);
  fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
  fail_unless_equals_int (gst_harness_push (ctx.h, img_to_buffer (in,
              LAYOUT_DEFAULT)), GST_FLOW_EOS);
  ctx_free (&ctx);
  img_free (in);
  g_free (L);
}

GST_END_TEST;

GST_START_TEST (test_stats)
{
  const gchar *name = element_names[__i__];
  const gint w = 160, h = 120;
  guint8 *L = luma_scene (w, h, 6);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_NV12, L, w, h, 6);
  Ctx ctx = ctx_new (name, NULL);
  GstStructure *st = NULL;
  guint64 frames = 0;
  gdouble up = -1, comp = -1, down = -1, total = -1;
  gchar *backend = NULL, *backend_prop = NULL;
  const gchar *sbackend;
  gint i;

  for (i = 0; i < 7; i++) {
    Img *out;
    if (i == 0)
      ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    img_free (out);
  }

  g_object_get (ctx.e, "stats", &st, "backend", &backend_prop, NULL);
  fail_unless (st != NULL);
  fail_unless (gst_structure_has_name (st, "stats"),
      "stats structure named %s", gst_structure_get_name (st));
  fail_unless (gst_structure_get_uint64 (st, "frames", &frames),
      "no guint64 frames in %" GST_PTR_FORMAT, st);
  fail_unless_equals_uint64 (frames, 7);
  fail_unless (gst_structure_get_double (st, "upload-ms", &up));
  fail_unless (gst_structure_get_double (st, "compute-ms", &comp));
  fail_unless (gst_structure_get_double (st, "download-ms", &down));
  fail_unless (gst_structure_get_double (st, "total-ms", &total));
  fail_unless (up >= 0 && comp >= 0 && down >= 0 && total >= 0,
      "negative times in %" GST_PTR_FORMAT, st);
  fail_unless (isfinite (up) && isfinite (comp) && isfinite (down)
      && isfinite (total));
  fail_unless (total > 0, "total-ms is 0 after 7 frames");
  fail_unless (total >= comp, "total-ms %g < compute-ms %g", total, comp);
  sbackend = gst_structure_get_string (st, "backend");
  fail_unless (sbackend != NULL);
  backend = g_strdup (sbackend);
  fail_unless_equals_string (backend, backend_prop);
  gst_structure_free (st);

  ctx_free (&ctx);
  img_free (in);
  g_free (L);
  g_free (backend);
  g_free (backend_prop);
}

GST_END_TEST;

/* cudacanny without CUDA: one warning and the CPU backend, or with
 * fallback=false an error and no start */
GST_START_TEST (test_cuda_fallback)
{
  const gint w = 64, h = 48;
  guint8 *L = luma_scene (w, h, 7);
  Img *in = img_from_luma (GST_VIDEO_FORMAT_I420, L, w, h, 7);
  Cfg cfg = cfg_exact ("edges");
  Ctx ctx = ctx_new ("cudacanny", NULL);
  gboolean on_gpu;
  gint i;

  apply_cfg (ctx.e, &cfg);
  ctx_set_caps (&ctx, &in->info);
  for (i = 0; i < 3; i++) {
    Img *out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    check_exact (in, out, &cfg, "cudacanny");
    img_free (out);
  }
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  /* fallback=false */
  {
    GstElement *e = gst_element_factory_make ("cudacanny", NULL);
    GstBus *bus = gst_bus_new ();
    GstStateChangeReturn sret;
    gchar *text = NULL;

    g_object_set (e, "fallback", FALSE, NULL);
    gst_element_set_bus (e, bus);
    sret = gst_element_set_state (e, GST_STATE_PLAYING);
    if (on_gpu) {
      Ctx c2;
      Img *out;
      fail_unless (sret == GST_STATE_CHANGE_SUCCESS);
      c2 = ctx_adopt ("cudacanny", e, bus);
      apply_cfg (e, &cfg);
      ctx_set_caps (&c2, &in->info);
      out = ctx_process (&c2, in, LAYOUT_DEFAULT);
      check_exact (in, out, &cfg, "cudacanny fallback=false");
      img_free (out);
      /* ctx_free drops the Ctx's references; ours are dropped below */
      gst_object_ref (bus);
      gst_object_ref (e);
      ctx_free (&c2);
    } else if (sret == GST_STATE_CHANGE_FAILURE) {
      /* failed to start, as it should */
      guint errors = bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
          &text);
      fail_unless (errors >= 1, "no RESOURCE error when failing to start "
          "(%s)", GST_STR_NULL (text));
      gst_element_set_state (e, GST_STATE_NULL);
    } else {
      /* started lazily: it must fail on the first caps or buffer */
      GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
      GstCaps *caps = gst_video_info_to_caps (&in->info);
      GstSegment seg;
      GstFlowReturn fret;
      guint errors;
      gboolean caps_ok;

      caps_ok = gst_harness_push_event (h, gst_event_new_caps (caps));
      gst_caps_unref (caps);
      gst_segment_init (&seg, GST_FORMAT_TIME);
      gst_harness_push_event (h, gst_event_new_segment (&seg));
      fret = gst_harness_push (h, img_to_buffer (in, LAYOUT_DEFAULT));
      fail_unless (fret != GST_FLOW_OK || !caps_ok,
          "cudacanny fallback=false without GPU processed a frame");
      fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
      errors = bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR, &text);
      fail_unless (errors >= 1, "no RESOURCE error (%s)", GST_STR_NULL (text));
      gst_harness_teardown (h);
    }
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
    gst_object_unref (e);
    g_free (text);
  }
  img_free (in);
  g_free (L);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* photos                                                                   */

/* the photo as a frame of format fmt (gray photos through their luma) */
static Img *
img_from_photo (const GcvTestImage * photo, GstVideoFormat fmt, guint32 seed)
{
  GcvTestImage rgb = gcv_test_image_window (photo, 0, 0, photo->width,
      photo->height);
  Img *im;

  if (format_is_rgb (fmt)) {
    im = img_from_rgb (fmt, rgb.data, rgb.width, rgb.height, seed);
  } else {
    uint8_t *L = gcv_test_image_luma (&rgb);
    im = img_from_luma (fmt, L, rgb.width, rgb.height, seed);
    free (L);
  }
  gcv_test_image_clear (&rgb);
  return im;
}

/* every photo and threshold pair in tests/fixtures/opencv-canny.txt: the
 * element's edges equal cv::Canny's, in gray and colour formats */
GST_START_TEST (test_photos_opencv)
{
  const gchar *name = element_names[__i__];
  char *list = gcv_test_path ("fixtures/opencv-canny.txt");
  gchar *contents = NULL;
  gchar **lines;
  GError *err = NULL;
  const gboolean quick = gcv_check_quick ();
  guint k, n_checked = 0, n_lines = 0;

  fail_unless (g_file_get_contents (list, &contents, NULL, &err),
      "%s: %s (set GCV_TEST_DATA_DIR to the source tests/ directory)", list,
      err ? err->message : "?");
  lines = g_strsplit (contents, "\n", -1);
  for (k = 0; lines[k]; k++) {
    char photo_name[128], fixture_name[128];
    double low, high;
    int l2;
    gchar *rel;
    GcvTestImage photo, fixture;
    GstVideoFormat fmt;
    Img *in, *out;
    Cfg cfg = cfg_exact ("edges");
    guint8 *expect;
    gint x, y;
    gchar *what;

    if (lines[k][0] == '#' || lines[k][0] == '\0')
      continue;
    /* quick mode: every fifth fixture (each photo once, L1 and L2, the
     * gray photo as NV12, the colour ones as RGBA and BGRx, default and
     * aligned layouts) */
    if (quick && n_lines++ % 5 != 0)
      continue;
    fail_unless (sscanf (lines[k], "%127s %lf %lf %d %127s", photo_name, &low,
            &high, &l2, fixture_name) == 5, "bad fixture line: %s", lines[k]);
    rel = g_strdup_printf ("data/%s", photo_name);
    photo = load_png_or_fail (rel);
    g_free (rel);
    rel = g_strdup_printf ("fixtures/%s", fixture_name);
    fixture = load_png_or_fail (rel);
    g_free (rel);
    fail_unless_equals_int (fixture.channels, 1);
    fail_unless_equals_int (fixture.width, photo.width);
    fail_unless_equals_int (fixture.height, photo.height);

    if (photo.channels == 1)
      fmt = (k % 2) ? GST_VIDEO_FORMAT_NV12 : GST_VIDEO_FORMAT_GRAY8;
    else
      fmt = (k % 2) ? GST_VIDEO_FORMAT_BGRx : GST_VIDEO_FORMAT_RGBA;
    in = img_from_photo (&photo, fmt, k);
    cfg.low = low;
    cfg.high = high;
    cfg.l2 = l2;
    out = run_one (name, &cfg, in, (k % 3 == 2) ? LAYOUT_ALIGNED :
        LAYOUT_DEFAULT);

    expect = g_malloc ((gsize) photo.width * photo.height);
    for (y = 0; y < photo.height; y++)
      for (x = 0; x < photo.width; x++)
        expect[y * photo.width + x] =
            fixture.data[(gsize) y * fixture.stride + x] ? 255 : 0;
    what = g_strdup_printf ("%s %s vs OpenCV fixture %s",
        gst_video_format_to_string (fmt), photo_name, fixture_name);
    assert_plane_equal (out, expect, what);
    check_exact (in, out, &cfg, what);
    g_free (what);
    n_checked++;

    g_free (expect);
    img_free (out);
    img_free (in);
    gcv_test_image_clear (&photo);
    gcv_test_image_clear (&fixture);
  }
  fail_unless (n_checked >= (quick ? 4 : 16), "only %u fixtures checked",
      n_checked);
  g_strfreev (lines);
  g_free (contents);
  free (list);
}

GST_END_TEST;

/* the photos through both elements in many configurations: byte-identical */
GST_START_TEST (test_photos_cpu_cuda_identical)
{
  static const struct
  {
    gint blur;
    gdouble sigma;
    gboolean l2;
    gdouble low, high;
    const gchar *mode;
  } cfgs[] = {
    {0, 1.4, FALSE, 50, 150, "edges"},
    {3, 0.0, FALSE, 50, 150, "edges"},
    {5, 1.4, FALSE, 50, 150, "edges"},
    {7, 0.0, TRUE, 50, 150, "edges"},
    {5, 2.5, TRUE, 20.9, 60.6, "edges"},
    {5, 1.4, FALSE, 50, 150, "magnitude"},
    {3, 0.8, TRUE, 50, 150, "magnitude"},
    {5, 1.4, FALSE, 50, 150, "overlay"},
  };
  gint p;

  for (p = 0; p < gcv_test_n_photos; p++) {
    gchar *rel = g_strdup_printf ("data/%s", gcv_test_photos[p]);
    GcvTestImage photo = load_png_or_fail (rel);
    guint c;

    g_free (rel);
    for (c = 0; c < G_N_ELEMENTS (cfgs); c++) {
      GstVideoFormat fmt = photo.channels == 1 ? GST_VIDEO_FORMAT_GRAY8 :
          all_formats[(p + c) % G_N_ELEMENTS (all_formats)];
      Img *in;
      Cfg cfg = cfg_default ();
      Img *a, *b;
      gchar *what;

      /* quick mode: two configurations per photo, every one once */
      if (gcv_check_quick () && (gint) c % gcv_test_n_photos != p)
        continue;
      in = img_from_photo (&photo, fmt, 10 * p + c);

      cfg.blur = cfgs[c].blur;
      cfg.sigma = cfgs[c].sigma;
      cfg.l2 = cfgs[c].l2;
      cfg.low = cfgs[c].low;
      cfg.high = cfgs[c].high;
      cfg.mode = cfgs[c].mode;
      a = run_one ("cpucanny", &cfg, in, LAYOUT_DEFAULT);
      b = run_one ("cudacanny", &cfg, in, LAYOUT_ALIGNED);
      what = g_strdup_printf ("%s as %s, config %u: cpucanny vs cudacanny",
          gcv_test_photos[p], gst_video_format_to_string (fmt), c);
      assert_img_equal (a, b, what);
      if (cfg.blur == 0)
        check_exact (in, a, &cfg, what);
      g_free (what);
      img_free (a);
      img_free (b);
      img_free (in);
    }
    gcv_test_image_clear (&photo);
  }
}

GST_END_TEST;

/* Out of device memory while setting up for new caps: a RESOURCE /
 * NO_SPACE_LEFT error on the bus and a refused buffer, never a crash.  Runs
 * where a GPU is (and must, with GST_CUDA_VIDEO_REQUIRE_GPU=1). */
GST_START_TEST (test_cuda_out_of_memory)
{
#if GCV_HAVE_CUDA
  GcvTestDeviceHog hog;
  GstElement *e;
  GstBus *bus;
  GstHarness *h;
  GstMessage *msg;
  GstBuffer *buf;
  GstFlowReturn ret;
  gchar *backend = NULL;
  gboolean oom_seen = FALSE;

  e = gst_element_factory_make ("cudacanny", NULL);
  bus = gst_bus_new ();
  g_object_set (e, "fallback", TRUE, NULL);
  gst_element_set_bus (e, bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_play (h);
  g_object_get (e, "backend", &backend, NULL);
  if (g_strcmp0 (backend, "cuda") != 0) {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but backend is %s", backend);
    goto done;                  /* no GPU here: nothing to exhaust */
  }

  /* fill the device (the element's stream already exists) */
  gcv_test_fill_device (&hog);
  gst_harness_set_src_caps_str (h,
      "video/x-raw,format=GRAY8,width=8192,height=8192,framerate=30/1");
  buf = gst_buffer_new_allocate (NULL, 8192 * 8192, NULL);
  gst_buffer_memset (buf, 0, 0x5a, 8192 * 8192);
  ret = gst_harness_push (h, buf);
  fail_unless (ret != GST_FLOW_OK, "a frame went through with the device full");
  while ((msg = bus_pop_type (bus, 0, GST_MESSAGE_ERROR))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    if (err->domain == GST_RESOURCE_ERROR && err->code == GST_RESOURCE_ERROR_NO_SPACE_LEFT
        && strstr (dbg, "cudaErrorMemoryAllocation"))
      oom_seen = TRUE;
    GST_INFO ("error: %s (%s)", err->message, dbg);
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  gcv_test_release_device (&hog);
  fail_unless (oom_seen, "no RESOURCE/NO_SPACE_LEFT error naming cudaErrorMemoryAllocation");

done:
  g_free (backend);
  gst_harness_teardown (h);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
#endif
}

GST_END_TEST;

static Suite *
canny_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("canny", FALSE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties_defaults, 0, n);
  tcase_add_loop_test (tc, test_property_validation, 0, n);
  tcase_add_loop_test (tc, test_template_caps, 0, n);
  tcase_add_loop_test (tc, test_negotiation_formats_modes, 0, n);
  tcase_add_loop_test (tc, test_step_edges, 0, n);
  tcase_add_loop_test (tc, test_exact_content, 0, n);
  tcase_add_loop_test (tc, test_rgb_luma, 0, n);
  tcase_add_loop_test (tc, test_format_equivalence, 0, n);
  tcase_add_loop_test (tc, test_sizes, 0, n);
  tcase_add_loop_test (tc, test_padded_strides, 0, n);
  tcase_add_loop_test (tc, test_allocation_video_meta, 0, n);
  tcase_add_test (tc, test_cpu_cuda_identical);
  tcase_add_loop_test (tc, test_blur_and_threads, 0, n);
  tcase_add_loop_test (tc, test_overlay, 0, n);
  tcase_add_loop_test (tc, test_mode_switch, 0, n);
  tcase_add_loop_test (tc, test_map_as_nv12, 0, n);
  tcase_add_loop_test (tc, test_property_change_midstream, 0, n);
  tcase_add_loop_test (tc, test_flush, 0, n);
  tcase_add_loop_test (tc, test_caps_change, 0, n);
  tcase_add_loop_test (tc, test_eos, 0, n);
  tcase_add_loop_test (tc, test_stats, 0, n);
  tcase_add_test (tc, test_cuda_fallback);
  tcase_add_test (tc, test_cuda_out_of_memory);
  tcase_add_loop_test (tc, test_photos_opencv, 0, n);
  tcase_add_test (tc, test_photos_cpu_cuda_identical);
  return s;
}

GST_CHECK_MAIN (canny);
