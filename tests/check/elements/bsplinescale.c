/* gst-cuda-video: GstHarness tests for the cudabsplinescale and
 * cpubsplinescale elements.
 *
 * Every content test runs against both element names: on a machine without a
 * usable GPU cudabsplinescale falls back to the CPU twin and must give the
 * very same output.  With GST_CUDA_VIDEO_REQUIRE_GPU=1 in the environment,
 * cudabsplinescale must report backend "cuda".
 *
 * Pixel content is checked against the CPU API of cpu/bsplinescale.h called
 * directly on the same planes (gcv_scale_cpu_new / _process, one context per
 * plane at the plane's own size and channel count): the elements must give
 * exactly those bytes, for every format, size, method and antialias setting.
 * The algorithm itself (the spline, its accuracy against scipy) is the
 * subject of the algorithm tests; here a few properties that hold whatever
 * the arithmetic are checked independently of the API: constant frames stay
 * constant, a 1x1 input fills the output with its value, nearest picks the
 * sample at floor((o + 0.5) * in / out) and antialias flattens a one-pixel
 * checkerboard.  Input content is photos from tests/data (set
 * GCV_TEST_DATA_DIR to the source tests/ directory when the built-in default
 * does not point there), tiled where the frame is larger than the photo.
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
/* the CPU API the element output is compared with */
#include "bsplinescale.h"

static const gchar *const element_names[] = { "cpubsplinescale",
  "cudabsplinescale"
};

#define N_ELEMENTS G_N_ELEMENTS (element_names)

static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE,
  GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
  GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
};

#define N_FORMATS G_N_ELEMENTS (all_formats)

static const gchar *const all_methods[] = { "bspline", "catmull-rom",
  "bilinear", "nearest"
};

#define N_METHODS G_N_ELEMENTS (all_methods)

/* ------------------------------------------------------------------------ */
/* content: the photos in tests/data                                        */

/* the value component c of a constant frame has (distinct per component) */
static guint
const_value (GstVideoFormat fmt, gint c)
{
  static const guint v8[] = { 93, 200, 31, 17 };
  if (fmt == GST_VIDEO_FORMAT_GRAY16_LE)
    return 51234;
  /* P010: 10-bit codes in the high bits */
  if (fmt == GST_VIDEO_FORMAT_P010_10LE)
    return (v8[c] * 4 + c) << 6;
  return v8[c];
}


static Img *
img_constant (GstVideoFormat fmt, gint w, gint h, guint32 seed)
{
  Img *im = img_new (fmt, w, h);
  gint c, x, y;
  gsize i;

  rng_seed (seed);
  for (i = 0; i < GST_VIDEO_INFO_SIZE (&im->info); i++)
    im->data[i] = rng_next () >> 24;
  for (c = 0; c < img_n_comps (im); c++)
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&im->info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&im->info, c); x++)
        img_set (im, c, x, y, const_value (fmt, c));
  return im;
}

/* ------------------------------------------------------------------------ */
/* the reference: the CPU API on every plane                                */

typedef struct
{
  const gchar *method;
  gboolean antialias;
} Params;

static GcvScaleMethod
method_from_nick (const gchar * nick)
{
  guint m;
  for (m = 0; m < N_METHODS; m++)
    if (g_str_equal (nick, all_methods[m]))
      return (GcvScaleMethod) m;
  fail ("unknown method %s", nick);
  return GCV_SCALE_BSPLINE;
}

/* @in scaled to ow x oh by gcv_scale_cpu_process, plane by plane: the
 * channels of a plane are its pixel stride over the sample size (RGBA 4,
 * NV12's and P010's UV 2), chroma planes at their own size; P010's words
 * then rounded to 10-bit codes. */
static Img *
ref_scale (const Img * in, gint ow, gint oh, const Params * prm)
{
  Img *out = img_new (img_format (in), ow, oh);
  GcvScaleParams params;
  gint p;

  params.method = method_from_nick (prm->method);
  params.antialias = prm->antialias;
  /* the bytes no sample of a plane covers (RGBx's x is one) stay defined */
  memset (out->data, 0, GST_VIDEO_INFO_SIZE (&out->info));
  for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (&in->info); p++) {
    gint c = plane_first_comp (&in->info, p);
    gint bytes = GST_VIDEO_INFO_COMP_DEPTH (&in->info, c) > 8 ? 2 : 1;
    GcvScaleGeometry geom;
    GcvScaleCpu *ctx;
    GcvPlane ip, op;
    GcvError err = { GCV_OK, "" };

    geom.type = bytes == 2 ? GCV_SAMPLE_U16 : GCV_SAMPLE_U8;
    geom.channels = GST_VIDEO_INFO_COMP_PSTRIDE (&in->info, c) / bytes;
    geom.in_width = GST_VIDEO_INFO_COMP_WIDTH (&in->info, c);
    geom.in_height = GST_VIDEO_INFO_COMP_HEIGHT (&in->info, c);
    geom.out_width = GST_VIDEO_INFO_COMP_WIDTH (&out->info, c);
    geom.out_height = GST_VIDEO_INFO_COMP_HEIGHT (&out->info, c);
    ctx = gcv_scale_cpu_new (&geom, &err);
    fail_unless (ctx != NULL, "gcv_scale_cpu_new: %s", err.message);
    ip.data = in->data + GST_VIDEO_INFO_PLANE_OFFSET (&in->info, p);
    ip.width = geom.in_width;
    ip.height = geom.in_height;
    ip.stride = GST_VIDEO_INFO_PLANE_STRIDE (&in->info, p);
    op.data = out->data + GST_VIDEO_INFO_PLANE_OFFSET (&out->info, p);
    op.width = geom.out_width;
    op.height = geom.out_height;
    op.stride = GST_VIDEO_INFO_PLANE_STRIDE (&out->info, p);
    fail_unless (gcv_scale_cpu_process (ctx, &params, &ip, &op, 0,
            &err) == GCV_OK, "gcv_scale_cpu_process: %s", err.message);
    gcv_scale_cpu_free (ctx);
  }
  if (img_format (in) == GST_VIDEO_FORMAT_P010_10LE) {
    gint c, x, y;
    for (c = 0; c < img_n_comps (out); c++)
      for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&out->info, c); y++)
        for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&out->info, c); x++)
          img_set (out, c, x, y, p010_round (img_get (out, c, x, y)));
  }
  return out;
}

/* every sample of component c is v */
static void
assert_img_constant (const Img * im, const gchar * what)
{
  gint c, x, y;

  for (c = 0; c < img_n_comps (im); c++) {
    guint v = const_value (img_format (im), c);
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&im->info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&im->info, c); x++)
        fail_unless (img_get (im, c, x, y) == v, "%s: comp %d at (%d,%d) is "
            "%u, the constant frame has %u", what, c, x, y,
            img_get (im, c, x, y), v);
  }
}

/* ------------------------------------------------------------------------ */
/* element and harness helpers                                              */

/* What downstream accepts (NULL: anything), followed by a RECONFIGURE so
 * that a running element renegotiates on its next buffer. */
static void
ctx_set_sink_caps_str (Ctx * ctx, const gchar * str)
{
  gst_harness_set_sink_caps (ctx->h, str ? gst_caps_from_string (str) :
      gst_caps_new_any ());
  gst_pad_push_event (ctx->h->sinkpad, gst_event_new_reconfigure ());
}

/* downstream wants this size, any format and rate */
static void
ctx_set_out_size (Ctx * ctx, gint w, gint h)
{
  gchar *s = g_strdup_printf ("video/x-raw,width=%d,height=%d", w, h);
  ctx_set_sink_caps_str (ctx, s);
  g_free (s);
}

/* downstream wants ow x oh, upstream sends in's caps */
static void
ctx_set_sizes (Ctx * ctx, const Img * in, gint ow, gint oh)
{
  ctx_set_out_size (ctx, ow, oh);
  ctx_set_caps (ctx, &in->info);
}

/* the nick of the element's method */
static const gchar *
method_nick (GstElement * e)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      "method");
  GValue v = G_VALUE_INIT;
  const gchar *nick;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), "method", &v);
  nick = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class,
      g_value_get_enum (&v))->value_nick;
  g_value_unset (&v);
  return nick;
}

static void
ctx_set_params (Ctx * ctx, const Params * prm)
{
  gboolean aa;

  gst_util_set_object_arg (G_OBJECT (ctx->e), "method", prm->method);
  g_object_set (ctx->e, "antialias", prm->antialias, NULL);
  g_object_get (ctx->e, "antialias", &aa, NULL);
  fail_unless_equals_string (method_nick (ctx->e), prm->method);
  fail_unless (aa == prm->antialias);
}

/* the output caps' size and format */
static void
check_out_caps (Ctx * ctx, GstVideoFormat fmt, gint w, gint h,
    const gchar * what)
{
  GstCaps *caps = ctx_out_caps (ctx);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (GST_VIDEO_INFO_FORMAT (&info) == fmt && GST_VIDEO_INFO_WIDTH
      (&info) == w && GST_VIDEO_INFO_HEIGHT (&info) == h,
      "%s: output caps %" GST_PTR_FORMAT ", wanted %s %dx%d", what, caps,
      gst_video_format_to_string (fmt), w, h);
  gst_caps_unref (caps);
}

/* one frame through a running element at output size ow x oh (set by
 * downstream caps), compared with the reference; returns the output */
static Img *
ctx_scale_check (Ctx * ctx, const Img * in, gint ow, gint oh,
    const Params * prm, Layout layout, const gchar * what)
{
  Img *out = ctx_process (ctx, in, layout), *ref;
  gchar *msg = g_strdup_printf ("%s %s: %s %dx%d -> %dx%d method=%s "
      "antialias=%d, %s input", ctx->name, what,
      gst_video_format_to_string (img_format (in)), img_w (in), img_h (in),
      ow, oh, prm->method, prm->antialias, layout_names[layout]);

  check_out_caps (ctx, img_format (in), ow, oh, msg);
  ref = ref_scale (in, ow, oh, prm);
  assert_img_equal (out, ref, msg);
  img_free (ref);
  g_free (msg);
  return out;
}

/* a fresh element, one frame in ->  ow x oh, compared with the reference */
static void
run_check (const gchar * name, const Img * in, gint ow, gint oh,
    const Params * prm, Layout layout, const gchar * what)
{
  Ctx ctx = ctx_new (name, NULL);

  ctx_set_params (&ctx, prm);
  ctx_set_sizes (&ctx, in, ow, oh);
  img_free (ctx_scale_check (&ctx, in, ow, oh, prm, layout, what));
  ctx_free (&ctx);
}

static const Params default_params = { "bspline", TRUE };

/* ======================================================================== */
/* tests                                                                    */

GST_START_TEST (test_properties_defaults)
{
  const gchar *name = element_names[__i__];
  GstElement *e = gst_element_factory_make (name, NULL);
  GObjectClass *klass;
  GParamSpec *pspec;
  gboolean aa;
  guint m, nt;

  fail_unless (e != NULL, "no element %s", name);
  klass = G_OBJECT_GET_CLASS (e);

  /* method: an enum with the documented nicks, bspline by default */
  pspec = g_object_class_find_property (klass, "method");
  fail_unless (pspec != NULL);
  fail_unless (G_IS_PARAM_SPEC_ENUM (pspec));
  fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
  fail_unless ((pspec->flags & GST_PARAM_MUTABLE_PLAYING) != 0,
      "method is not changeable in PLAYING");
  {
    GEnumClass *ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    for (m = 0; m < N_METHODS; m++)
      fail_unless (g_enum_get_value_by_nick (ec, all_methods[m]) != NULL,
          "no method %s", all_methods[m]);
    fail_unless_equals_int (ec->n_values, N_METHODS);
    fail_unless_equals_int (G_PARAM_SPEC_ENUM (pspec)->default_value,
        g_enum_get_value_by_nick (ec, "bspline")->value);
  }
  fail_unless_equals_string (method_nick (e), "bspline");

  /* antialias: boolean, TRUE by default */
  pspec = g_object_class_find_property (klass, "antialias");
  fail_unless (pspec != NULL);
  fail_unless (G_IS_PARAM_SPEC_BOOLEAN (pspec));
  fail_unless ((pspec->flags & GST_PARAM_MUTABLE_PLAYING) != 0,
      "antialias is not changeable in PLAYING");
  g_object_get (e, "antialias", &aa, "n-threads", &nt, NULL);
  fail_unless (aa == TRUE);
  fail_unless_equals_int (nt, 0);
  check_device_properties (e, name);

  /* the base class' read-only ones */
  pspec = g_object_class_find_property (klass, "backend");
  fail_unless (pspec != NULL && pspec->value_type == G_TYPE_STRING);
  fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);
  pspec = g_object_class_find_property (klass, "stats");
  fail_unless (pspec != NULL && pspec->value_type == GST_TYPE_STRUCTURE);
  fail_unless ((pspec->flags & G_PARAM_WRITABLE) == 0);

  /* every value is taken and read back */
  for (m = 0; m < N_METHODS; m++) {
    gst_util_set_object_arg (G_OBJECT (e), "method", all_methods[m]);
    fail_unless_equals_string (method_nick (e), all_methods[m]);
  }
  /* by value as well */
  g_object_set (e, "method", 1, NULL);
  fail_unless_equals_string (method_nick (e), "catmull-rom");
  g_object_set (e, "antialias", FALSE, NULL);
  g_object_get (e, "antialias", &aa, NULL);
  fail_unless (aa == FALSE);
  g_object_set (e, "antialias", TRUE, NULL);
  g_object_get (e, "antialias", &aa, NULL);
  fail_unless (aa == TRUE);

  gst_object_unref (e);
}

GST_END_TEST;

/* an invalid method: refused with a warning naming the property, the old
 * value kept; the parser refuses the name as well */
GST_START_TEST (test_property_rejection)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (ctx.e), "method");
  static const gint bad_values[] = { 4, 17, -1 };
  guint i;

  gst_util_set_object_arg (G_OBJECT (ctx.e), "method", "bilinear");
  for (i = 0; i < G_N_ELEMENTS (bad_values); i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, pspec->value_type);
    g_value_set_enum (&v, bad_values[i]);       /* not validated here */
    expecting_warning = TRUE;
    n_warnings = 0;
    g_object_set_property (G_OBJECT (ctx.e), "method", &v);
    expecting_warning = FALSE;
    fail_unless (n_warnings >= 1, "method=%d rejected without a warning",
        bad_values[i]);
    fail_unless (last_warning && strstr (last_warning, "method") != NULL,
        "warning for method=%d does not name the property: %s",
        bad_values[i], GST_STR_NULL (last_warning));
    fail_unless_equals_string (method_nick (ctx.e), "bilinear");
    g_value_unset (&v);
  }

  /* strings that are no method (the string interface behind gst-launch) */
  {
    static const gchar *const bad[] = { "lanczos", "BSPLINE ", "bicubic",
      "4", "-1", "bspline,nearest"
    };
    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      GValue v = G_VALUE_INIT;
      g_value_init (&v, pspec->value_type);
      fail_if (gst_value_deserialize_with_pspec (&v, bad[i], pspec),
          "method '%s' deserialised", bad[i]);
      g_value_unset (&v);
    }
  }
  {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("%s method=lanczos", name);
    GstElement *p = gst_parse_launch (desc, &err);
    fail_unless (err != NULL, "'%s' parsed without an error", desc);
    fail_unless (err->domain == GST_PARSE_ERROR);
    fail_unless (strstr (err->message, "method") != NULL, "%s",
        err->message);
    g_clear_error (&err);
    if (p)
      gst_object_unref (p);
    g_free (desc);
    desc = g_strdup_printf ("%s method=catmull-rom antialias=false", name);
    p = gst_parse_launch (desc, &err);
    fail_unless (err == NULL && p != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    fail_unless_equals_string (method_nick (p), "catmull-rom");
    gst_object_unref (p);
    g_free (desc);
  }

  /* still working with the old value */
  {
    Params prm = { "bilinear", TRUE };
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_I420, 64, 48, 2, 100, 50, 1);
    ctx_set_sizes (&ctx, in, 40, 30);
    img_free (ctx_scale_check (&ctx, in, 40, 30, &prm, LAYOUT_DEFAULT,
            "after rejections"));
    img_free (in);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

GST_START_TEST (test_template_caps)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
  GstPad *srcpad = gst_element_get_static_pad (ctx.e, "src");
  GstCaps *stmpl = gst_pad_get_pad_template_caps (srcpad);
  guint i;
  static const gchar *const rejected[] = {
    "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1",
    "video/x-raw,format=RGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_BE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=I420,width=32768,height=48,framerate=30/1",
    "video/x-raw,format=I420,width=64,height=32768,framerate=30/1",
    "video/x-raw,format=I420,width=0,height=48,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  };

  for (i = 0; i < N_FORMATS; i++) {
    const gchar *f = gst_video_format_to_string (all_formats[i]);
    static const gint sizes[][2] = { {1, 1}, {1920, 1080}, {32767, 32767},
    {7, 32767}
    };
    guint s;
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=30/1", f, sizes[s][0], sizes[s][1]);
      GstCaps *c = gst_caps_from_string (str);
      fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused", str);
      fail_unless (gst_caps_can_intersect (stmpl, c), "src template lacks %s",
          str);
      gst_caps_unref (c);
      g_free (str);
    }
  }
  check_caps_refused (sinkpad, rejected, G_N_ELEMENTS (rejected));
  /* the format never changes: for I420 in, only I420 can come out */
  {
    GstCaps *in = gst_caps_from_string ("video/x-raw,format=I420,width=64,"
        "height=48,framerate=30/1");
    GstCaps *peer;
    gst_harness_set_src_caps (ctx.h, gst_caps_ref (in));
    peer = gst_pad_query_caps (srcpad, NULL);
    fail_if (gst_caps_is_empty (peer));
    for (i = 0; i < gst_caps_get_size (peer); i++) {
      const GValue *f = gst_structure_get_value (gst_caps_get_structure (peer,
              i), "format");
      fail_unless (f && G_VALUE_HOLDS_STRING (f)
          && g_str_equal (g_value_get_string (f), "I420"),
          "src pad offers %" GST_PTR_FORMAT " for I420 input", peer);
    }
    gst_caps_unref (peer);
    gst_caps_unref (in);
  }
  gst_caps_unref (stmpl);
  gst_object_unref (sinkpad);
  gst_object_unref (srcpad);
  ctx_free (&ctx);
}

GST_END_TEST;

/* every format, 1x1 -> 3x2 and 3x2 -> 1x1, every method and antialias:
 * exact against the reference; a 1x1 frame fills the output with its value */
GST_START_TEST (test_tiny_sizes)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = { {1, 1, 3, 2}, {3, 2, 1, 1}, {1, 1, 1, 7},
  {2, 1, 1, 1}, {1, 2, 5, 1}, {2, 2, 3, 3}
  };
  const gboolean quick = gcv_check_quick ();
  guint f, s, m;
  gint aa, c, x, y;

  for (f = 0; f < N_FORMATS; f++) {
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gint iw = sizes[s][0], ih = sizes[s][1], ow = sizes[s][2],
          oh = sizes[s][3];
      Img *in;
      Ctx ctx;

      /* quick mode: 1x1 and one or two other sizes per format (every
       * size with four formats or more) */
      if (quick && s % 3 != f % 3 && s != 0)
        continue;
      in = img_from_test_photo (all_formats[f], iw, ih, f + s, 211 + 37 * f,
          123 + 11 * s, 1000 + f * 16 + s);
      ctx = ctx_new (name, NULL);
      ctx_set_sizes (&ctx, in, ow, oh);
      for (m = 0; m < N_METHODS; m++) {
        for (aa = 0; aa <= 1; aa++) {
          Params prm = { all_methods[m], aa };
          Img *out;
          /* quick mode: every method, antialias on or off by turns */
          if (quick && (m + aa + f + s) % 2 != 0)
            continue;
          ctx_set_params (&ctx, &prm);
          out = ctx_scale_check (&ctx, in, ow, oh, &prm,
              (m + aa) % N_LAYOUTS, "tiny");
          if (iw == 1 && ih == 1) {
            /* every output sample is the one input sample */
            for (c = 0; c < img_n_comps (out); c++)
              for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&out->info, c); y++)
                for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&out->info, c);
                    x++)
                  fail_unless (img_get (out, c, x, y) == img_get (in, c, 0,
                          0), "%s %s 1x1 -> %dx%d %s: comp %d (%d,%d) = %u, "
                      "input %u", name,
                      gst_video_format_to_string (all_formats[f]), ow, oh,
                      all_methods[m], c, x, y, img_get (out, c, x, y),
                      img_get (in, c, 0, 0));
          }
          img_free (out);
        }
      }
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* one size pair for every format (one frame each, fresh element); with
 * @step > 1 every step-th format only */
static void
check_size_all_formats (const gchar * name, gint iw, gint ih, gint ow,
    gint oh, gint photo_idx, guint step)
{
  guint f;

  for (f = 0; f < N_FORMATS; f += step) {
    Img *in = img_from_test_photo (all_formats[f], iw, ih, photo_idx + f, 17 * f,
        29 * f, 77 + f);
    gchar *what = g_strdup_printf ("%dx%d -> %dx%d", iw, ih, ow, oh);
    run_check (name, in, ow, oh, &default_params, f % N_LAYOUTS, what);
    g_free (what);
    img_free (in);
  }
}

GST_START_TEST (test_size_odd_upscale)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_ABGR
  };
  /* quick mode: 61x41 -> 123x83 stands in for 641x481 -> 1283x963,
   * every format and method still */
  const gboolean quick = gcv_check_quick ();
  const gint iw = quick ? 61 : 641, ih = quick ? 41 : 481;
  const gint ow = quick ? 123 : 1283, oh = quick ? 83 : 963;
  guint f, m;

  /* 641x481 -> 1283x963 (about x2, odd sizes, odd chroma) */
  check_size_all_formats (name, iw, ih, ow, oh, 0, 1);

  /* the other methods on a few formats, one element changing methods */
  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Img *in = img_from_test_photo (fmts[f], iw, ih, 3 + f, 5, 7, 300 + f);
    Ctx ctx = ctx_new (name, NULL);
    ctx_set_sizes (&ctx, in, ow, oh);
    for (m = 1; m < N_METHODS; m++) {
      Params prm = { all_methods[m], TRUE };
      ctx_set_params (&ctx, &prm);
      img_free (ctx_scale_check (&ctx, in, ow, oh, &prm, LAYOUT_DEFAULT,
              "odd upscale"));
    }
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

GST_START_TEST (test_size_1080p_downscale)
{
  const gchar *name = element_names[__i__];
  Img *in;
  Ctx ctx;
  Params prm = { "catmull-rom", FALSE };
  /* quick mode: 240x135 -> 160x90 (the same 2/3) stands in for 1080p ->
   * 720p, on every fourth format (every layout; the others scale down
   * elsewhere) */
  const gboolean quick = gcv_check_quick ();
  const gint iw = quick ? 240 : 1920, ih = quick ? 135 : 1080;
  const gint ow = quick ? 160 : 1280, oh = quick ? 90 : 720;

  check_size_all_formats (name, iw, ih, ow, oh, 1, quick ? 4 : 1);

  /* without antialias as well (a different filter width) */
  in = img_from_test_photo (GST_VIDEO_FORMAT_I420, iw, ih, 2, 0, 0, 5);
  ctx = ctx_new (name, NULL);
  ctx_set_params (&ctx, &prm);
  ctx_set_sizes (&ctx, in, ow, oh);
  img_free (ctx_scale_check (&ctx, in, ow, oh, &prm, LAYOUT_ALIGNED,
          "1080p"));
  prm.method = "bspline";
  ctx_set_params (&ctx, &prm);
  img_free (ctx_scale_check (&ctx, in, ow, oh, &prm, LAYOUT_DEFAULT,
          "1080p"));
  ctx_free (&ctx);
  img_free (in);
}

GST_END_TEST;

/* the paper's case: QCIF x7 */
GST_START_TEST (test_size_qcif_x7)
{
  const gchar *name = element_names[__i__];
  /* quick mode: 22x18 -> 154x126, x7 as well, every format */
  if (gcv_check_quick ())
    check_size_all_formats (name, 22, 18, 154, 126, 2, 1);
  else
    check_size_all_formats (name, 176, 144, 1232, 1008, 2, 1);
}

GST_END_TEST;

/* nearest, independently of the API: output sample o of an axis is input
 * sample floor((o + 0.5) * in / out) (mirrored), in every plane */
GST_START_TEST (test_nearest_exact)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = { {64, 48, 128, 96}, {97, 61, 40, 33},
  {33, 17, 100, 20}, {5, 3, 16, 11}, {300, 200, 71, 199}
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_ARGB,
    GST_VIDEO_FORMAT_Y42B
  };
  const gboolean quick = gcv_check_quick ();
  guint s, f;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      gint iw = sizes[s][0], ih = sizes[s][1], ow = sizes[s][2],
          oh = sizes[s][3], c, x, y;
      Img *in;
      Params prm = { "nearest", (gint) (s + f) % 2 };
      Ctx ctx;
      Img *out;

      /* quick mode: two formats per size (every format, size, layout
       * and antialias still) */
      if (quick && f != s && f != (s + 2) % G_N_ELEMENTS (fmts))
        continue;
      in = img_from_test_photo (fmts[f], iw, ih, s, 40 * f, 30 * s, s + f);
      ctx = ctx_new (name, NULL);
      ctx_set_params (&ctx, &prm);
      ctx_set_sizes (&ctx, in, ow, oh);
      out = ctx_scale_check (&ctx, in, ow, oh, &prm, f % N_LAYOUTS,
          "nearest");
      for (c = 0; c < img_n_comps (out); c++) {
        gint ciw = GST_VIDEO_INFO_COMP_WIDTH (&in->info, c);
        gint cih = GST_VIDEO_INFO_COMP_HEIGHT (&in->info, c);
        gint cow = GST_VIDEO_INFO_COMP_WIDTH (&out->info, c);
        gint coh = GST_VIDEO_INFO_COMP_HEIGHT (&out->info, c);
        for (y = 0; y < coh; y++) {
          gint sy = (gint) (((2LL * y + 1) * cih) / (2LL * coh));
          for (x = 0; x < cow; x++) {
            gint sx = (gint) (((2LL * x + 1) * ciw) / (2LL * cow));
            fail_unless (img_get (out, c, x, y) == img_get (in, c, sx, sy),
                "%s nearest %s %dx%d -> %dx%d: comp %d (%d,%d) = %u, input "
                "(%d,%d) = %u", name, gst_video_format_to_string (fmts[f]),
                iw, ih, ow, oh, c, x, y, img_get (out, c, x, y), sx, sy,
                img_get (in, c, sx, sy));
          }
        }
      }
      img_free (out);
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* constant frames stay constant: every format, method, antialias, up and
 * down */
GST_START_TEST (test_constant_frames)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = { {37, 23, 101, 7}, {64, 48, 16, 100},
  {5, 5, 5, 1}
  };
  const gboolean quick = gcv_check_quick ();
  guint f, s, m;
  gint aa;

  for (f = 0; f < N_FORMATS; f++) {
    Ctx ctx = ctx_new (name, NULL);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      Img *in;
      /* quick mode: one size per format (every size with four or five
       * formats), every method with antialias on or off by turns */
      if (quick && s != f % G_N_ELEMENTS (sizes))
        continue;
      in = img_constant (all_formats[f], sizes[s][0], sizes[s][1], f * 7 + s);
      ctx_set_sizes (&ctx, in, sizes[s][2], sizes[s][3]);
      for (m = 0; m < N_METHODS; m++) {
        for (aa = 0; aa <= 1; aa++) {
          Params prm = { all_methods[m], aa };
          Img *out;
          gchar *what;
          if (quick && (m + aa + f) % 2 != 0)
            continue;
          ctx_set_params (&ctx, &prm);
          out = ctx_process (&ctx, in, (m + s) % N_LAYOUTS);
          what = g_strdup_printf ("%s %s constant %dx%d -> %dx%d %s "
              "antialias=%d", name,
              gst_video_format_to_string (all_formats[f]), sizes[s][0],
              sizes[s][1], sizes[s][2], sizes[s][3], all_methods[m], aa);
          fail_unless_equals_int (img_w (out), sizes[s][2]);
          fail_unless_equals_int (img_h (out), sizes[s][3]);
          assert_img_constant (out, what);
          g_free (what);
          img_free (out);
        }
      }
      img_free (in);
    }
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* padded and odd input strides (GstVideoMeta) give the same output as the
 * default layout, and the reference's */
GST_START_TEST (test_padded_strides)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = { {97, 61, 150, 40}, {33, 65, 32, 131} };
  const gboolean quick = gcv_check_quick ();
  guint f, s, l;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    for (f = 0; f < N_FORMATS; f++) {
      Img *in;
      Ctx ctx;
      Img *plain = NULL;
      /* quick mode: one of the two sizes per format, every layout */
      if (quick && s != f % 2)
        continue;
      in = img_from_test_photo (all_formats[f], sizes[s][0], sizes[s][1],
          f + s, 3 * f, 5 * s, f * 3 + s);
      ctx = ctx_new (name, NULL);
      ctx_set_sizes (&ctx, in, sizes[s][2], sizes[s][3]);
      for (l = 0; l < N_LAYOUTS; l++) {
        Img *out = ctx_scale_check (&ctx, in, sizes[s][2], sizes[s][3],
            &default_params, l, "padded");
        if (l == 0) {
          plain = out;
        } else {
          assert_img_equal (plain, out, "padded vs packed input");
          img_free (out);
        }
      }
      img_free (plain);
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* output buffers described by GstVideoMeta when downstream supports it
 * (the element may use any layout then), the default layout otherwise */
GST_START_TEST (test_output_video_meta)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_I420,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_GRAY16_LE
  };
  const gboolean quick = gcv_check_quick ();
  guint f;
  gint meta;

  for (meta = 0; meta <= 1; meta++) {
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      Img *in;
      Ctx ctx;
      gint k;
      /* quick mode: half the formats each way (every format once), three
       * frames (every layout, buffers still back from the pool) */
      if (quick && (gint) (f % 2) != meta)
        continue;
      in = img_from_test_photo (fmts[f], 81, 47, f, 0, 0, f);
      ctx = ctx_new (name, NULL);
      if (meta)
        gst_harness_add_propose_allocation_meta (ctx.h,
            GST_VIDEO_META_API_TYPE, NULL);
      ctx_set_sizes (&ctx, in, 163, 95);
      /* a few frames: buffers come back from a pool */
      for (k = 0; k < (quick ? 3 : 4); k++)
        img_free (ctx_scale_check (&ctx, in, 163, 95, &default_params,
                k % N_LAYOUTS, meta ? "downstream with meta" :
                "downstream without meta"));
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* new input caps mid-stream (size and format), downstream size fixed */
GST_START_TEST (test_renegotiate_input)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } steps[] = {
    {GST_VIDEO_FORMAT_I420, 320, 240},
    {GST_VIDEO_FORMAT_I420, 160, 90},
    {GST_VIDEO_FORMAT_I420, 641, 481},
    {GST_VIDEO_FORMAT_RGBA, 641, 481},
    {GST_VIDEO_FORMAT_NV12, 1, 1},
    {GST_VIDEO_FORMAT_GRAY16_LE, 200, 150},     /* the output size: passthrough */
    {GST_VIDEO_FORMAT_Y444, 99, 301},
    {GST_VIDEO_FORMAT_I420, 320, 240},
  };
  const gboolean quick = gcv_check_quick ();
  Ctx ctx = ctx_new (name, NULL);
  guint s;

  ctx_set_out_size (&ctx, 200, 150);
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    /* quick mode: 401x301 (still a downscale) stands in for 641x481 */
    gint w = quick && steps[s].w == 641 ? 401 : steps[s].w;
    gint h = quick && steps[s].w == 641 ? 301 : steps[s].h;
    Img *in = img_from_test_photo (steps[s].fmt, w, h, s, 10 * s, 20 * s,
        900 + s);
    gint k;
    ctx_set_caps (&ctx, &in->info);
    for (k = 0; k < 2; k++) {
      gchar *what = g_strdup_printf ("input caps step %u, frame %d", s, k);
      img_free (ctx_scale_check (&ctx, in, 200, 150, &default_params,
              (s + k) % N_LAYOUTS, what));
      g_free (what);
    }
    img_free (in);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

/* downstream asks for another size mid-stream (RECONFIGURE) */
GST_START_TEST (test_renegotiate_output)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][2] = { {100, 80}, {300, 200}, {7, 1}, {160, 120},
  {1283, 963}, {100, 80}, {160, 120}
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_YV12,
    GST_VIDEO_FORMAT_BGRA
  };
  const gboolean quick = gcv_check_quick ();
  guint f, s;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Img *in = img_from_test_photo (fmts[f], 160, 120, f, 50, 60, f);
    Ctx ctx = ctx_new (name, NULL);
    ctx_set_caps (&ctx, &in->info);
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      /* quick mode: 401x301 stands in for 1283x963, every step */
      gint ow = quick && sizes[s][0] == 1283 ? 401 : sizes[s][0];
      gint oh = quick && sizes[s][0] == 1283 ? 301 : sizes[s][1];
      gint k;
      ctx_set_out_size (&ctx, ow, oh);
      for (k = 0; k < 2; k++) {
        gchar *what = g_strdup_printf ("output size step %u, frame %d", s, k);
        img_free (ctx_scale_check (&ctx, in, ow, oh,
                &default_params, k, what));
        g_free (what);
      }
    }
    /* and back to anything: the input size, passed through */
    ctx_set_sink_caps_str (&ctx, NULL);
    img_free (ctx_scale_check (&ctx, in, 160, 120, &default_params,
            LAYOUT_DEFAULT, "downstream open again"));
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

typedef struct
{
  gint iw, ih, ipar_n, ipar_d;
  const gchar *downstream;
  gint ow, oh, opar_n, opar_d;
} NegCase;

/* how the output size is chosen, as videoscale does it */
GST_START_TEST (test_negotiation_dar)
{
  const gchar *name = element_names[__i__];
  static const NegCase cases[] = {
    /* width fixed: height keeps the display aspect ratio */
    {640, 480, 1, 1, "video/x-raw,width=320", 320, 240, 1, 1},
    {641, 481, 1, 1, "video/x-raw,width=1283", 1283, 963, 1, 1},
    {640, 480, 4, 3, "video/x-raw,width=320", 320, 240, 4, 3},
    {640, 480, 4, 3, "video/x-raw,width=320,pixel-aspect-ratio=1/1", 320, 180,
        1, 1},
    {720, 576, 16, 15, "video/x-raw,width=768,pixel-aspect-ratio=1/1", 768,
        576, 1, 1},
    /* height fixed */
    {640, 480, 1, 1, "video/x-raw,height=120", 160, 120, 1, 1},
    {720, 576, 16, 15, "video/x-raw,height=480,pixel-aspect-ratio=1/1", 640,
        480, 1, 1},
    {1920, 1080, 1, 1, "video/x-raw,height=720", 1280, 720, 1, 1},
    /* both fixed: the pixel aspect ratio keeps the DAR where it is free */
    {640, 480, 1, 1, "video/x-raw,width=123,height=45", 123, 45, 20, 41},
    {640, 480, 1, 1, "video/x-raw,width=123,height=45,pixel-aspect-ratio=1/1",
        123, 45, 1, 1},
    {176, 144, 1, 1, "video/x-raw,width=1232,height=1008", 1232, 1008, 1, 1},
    /* neither: the input size; only the pixel aspect ratio: the height
     * kept, the width from the DAR */
    {640, 480, 4, 3, "video/x-raw", 640, 480, 4, 3},
    {640, 480, 4, 3, "video/x-raw,pixel-aspect-ratio=1/1", 853, 480, 1, 1},
    /* downstream's range cannot hold the DAR-keeping size: the free pixel
     * aspect ratio keeps the DAR instead (videoscale gives the same) */
    {640, 480, 4, 3, "video/x-raw,width=[100,200]", 200, 480, 64, 15},
    {640, 480, 4, 3, "video/x-raw,width=320,height=[1,100]", 320, 100, 5, 9},
  };
  const gboolean quick = gcv_check_quick ();
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const NegCase *nc = &cases[i];
    Img *in;
    Ctx ctx;
    GstCaps *caps;
    GstVideoInfo oinfo;
    Img *out, *ref;
    gchar *what;

    /* quick mode: not the cases with a frame over a megapixel (1080p in,
     * 1283x963 and 1232x1008 out); every rule keeps other cases */
    if (quick && (nc->iw * nc->ih > 1000000 || nc->ow * nc->oh > 1000000))
      continue;
    in = img_from_test_photo (GST_VIDEO_FORMAT_I420, nc->iw, nc->ih, i, 0, 0,
        i);
    ctx = ctx_new (name, NULL);
    what = g_strdup_printf ("%s: %dx%d par %d/%d, downstream %s",
        name, nc->iw, nc->ih, nc->ipar_n, nc->ipar_d, nc->downstream);

    GST_VIDEO_INFO_PAR_N (&in->info) = nc->ipar_n;
    GST_VIDEO_INFO_PAR_D (&in->info) = nc->ipar_d;
    GST_VIDEO_INFO_FPS_N (&in->info) = 25;
    GST_VIDEO_INFO_FPS_D (&in->info) = 2;
    ctx_set_sink_caps_str (&ctx, nc->downstream);
    ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    caps = ctx_out_caps (&ctx);
    fail_unless (gst_video_info_from_caps (&oinfo, caps));
    fail_unless (GST_VIDEO_INFO_WIDTH (&oinfo) == nc->ow &&
        GST_VIDEO_INFO_HEIGHT (&oinfo) == nc->oh &&
        GST_VIDEO_INFO_PAR_N (&oinfo) == nc->opar_n &&
        GST_VIDEO_INFO_PAR_D (&oinfo) == nc->opar_d,
        "%s: got %" GST_PTR_FORMAT ", wanted %dx%d par %d/%d", what, caps,
        nc->ow, nc->oh, nc->opar_n, nc->opar_d);
    fail_unless_equals_string (gst_video_format_to_string
        (GST_VIDEO_INFO_FORMAT (&oinfo)), "I420");
    /* the frame rate is carried over */
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&oinfo), 25);
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_D (&oinfo), 2);
    gst_caps_unref (caps);
    ref = ref_scale (in, nc->ow, nc->oh, &default_params);
    assert_img_equal (out, ref, what);
    img_free (ref);
    img_free (out);
    g_free (what);
    ctx_free (&ctx);
    img_free (in);
  }

  /* input caps without a pixel-aspect-ratio field: square pixels */
  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_NV12, 640, 480, 3, 9, 9, 3);
    Ctx ctx = ctx_new (name, NULL);
    Img *out;
    ctx_set_sink_caps_str (&ctx, "video/x-raw,height=120");
    gst_harness_set_src_caps_str (ctx.h, "video/x-raw,format=NV12,"
        "width=640,height=480,framerate=30/1");
    out = ctx_scale_check (&ctx, in, 160, 120, &default_params,
        LAYOUT_DEFAULT, "input caps without pixel-aspect-ratio");
    img_free (out);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* downstream leaves the size open (or asks for the input's): the element
 * passes the very input buffer through, whatever the method; a size
 * request afterwards makes it scale again */
GST_START_TEST (test_passthrough)
{
  const gchar *name = element_names[__i__];
  static const gchar *const downstream[] = { NULL, "video/x-raw",
    "video/x-raw,width=97,height=61"
  };
  guint d, f;

  for (d = 0; d < G_N_ELEMENTS (downstream); d++) {
    for (f = 0; f < N_FORMATS; f += 4) {
      Img *in = img_from_test_photo (all_formats[f], 97, 61, f, 1, 2, f);
      Ctx ctx = ctx_new (name, NULL);
      guint m;

      if (downstream[d])
        ctx_set_sink_caps_str (&ctx, downstream[d]);
      ctx_set_caps (&ctx, &in->info);
      for (m = 0; m < N_METHODS; m++) {
        GstBuffer *buf = img_to_buffer (in, m % N_LAYOUTS), *out;
        Params prm = { all_methods[m], m % 2 };
        ctx_set_params (&ctx, &prm);
        gst_buffer_ref (buf);
        fail_unless_equals_int (gst_harness_push (ctx.h, buf), GST_FLOW_OK);
        out = gst_harness_pull (ctx.h);
        fail_unless (out == buf, "%s, downstream %s, %s: output is not the "
            "input buffer (no passthrough)", name,
            GST_STR_NULL (downstream[d]),
            gst_video_format_to_string (all_formats[f]));
        fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
                (ctx.e)));
        check_out_caps (&ctx, all_formats[f], 97, 61, "passthrough");
        gst_buffer_unref (out);
        gst_buffer_unref (buf);
      }
      /* now downstream wants another size: scaling again */
      ctx_set_params (&ctx, &default_params);
      ctx_set_out_size (&ctx, 50, 122);
      img_free (ctx_scale_check (&ctx, in, 50, 122, &default_params,
              LAYOUT_ALIGNED, "after passthrough"));
      fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (ctx.e)));
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* method and antialias changed between frames while PLAYING take effect */
GST_START_TEST (test_property_change_playing)
{
  const gchar *name = element_names[__i__];
  static const Params seq[] = {
    {"bspline", TRUE}, {"nearest", TRUE}, {"catmull-rom", TRUE},
    {"catmull-rom", FALSE}, {"bilinear", FALSE}, {"bilinear", TRUE},
    {"bspline", FALSE}, {"bspline", TRUE},
  };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_RGBA
  };
  guint f, s;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    /* x up, y down by 3: antialias matters in y */
    Img *in = img_from_test_photo (fmts[f], 200, 150, 1 + f, 33, 44, f);
    Ctx ctx = ctx_new (name, NULL);
    Img *prev = NULL;
    GstState state;

    ctx_set_sizes (&ctx, in, 301, 50);
    fail_unless (gst_element_get_state (ctx.e, &state, NULL, 0) ==
        GST_STATE_CHANGE_SUCCESS);
    fail_unless (state == GST_STATE_PLAYING, "%s is in %s, not PLAYING", name,
        gst_element_state_get_name (state));
    for (s = 0; s < G_N_ELEMENTS (seq); s++) {
      gchar *what = g_strdup_printf ("property sequence step %u", s);
      Img *out;
      ctx_set_params (&ctx, &seq[s]);
      out = ctx_scale_check (&ctx, in, 301, 50, &seq[s], LAYOUT_DEFAULT,
          what);
      if (prev) {
        fail_if (memcmp (prev->data, out->data, GST_VIDEO_INFO_SIZE
                (&out->info)) == 0, "%s: output unchanged after switching "
            "to method=%s antialias=%d", what, seq[s].method,
            seq[s].antialias);
        img_free (prev);
      }
      prev = out;
      g_free (what);
    }
    img_free (prev);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* a one-pixel checkerboard downscaled by 3: nearly flat with antialias
 * (standard deviation under 2 levels away from the borders), for every
 * method but nearest; without it bilinear and bspline sample the input at
 * whole positions and give the checkerboard back */
static void
checker_stats (const Img * out, gint margin, gdouble * mean, gdouble * sd)
{
  gdouble s = 0, s2 = 0;
  gint x, y, n = 0;

  for (y = margin; y < img_h (out) - margin; y++)
    for (x = margin; x < img_w (out) - margin; x++) {
      gdouble v = img_get (out, 0, x, y);
      s += v;
      s2 += v * v;
      n++;
    }
  *mean = s / n;
  *sd = sqrt (MAX (0.0, s2 / n - *mean * *mean));
}

GST_START_TEST (test_antialias_checkerboard)
{
  const gchar *name = element_names[__i__];
  const gint w = 300, h = 240;
  Img *in = img_new (GST_VIDEO_FORMAT_GRAY8, w, h);
  Ctx ctx = ctx_new (name, NULL);
  gint x, y;
  guint m;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      img_set (in, 0, x, y, ((x + y) & 1) ? 230 : 20);
  ctx_set_sizes (&ctx, in, w / 3, h / 3);
  for (m = 0; m < N_METHODS; m++) {
    gint aa;
    for (aa = 0; aa <= 1; aa++) {
      Params prm = { all_methods[m], aa };
      Img *out;
      gdouble mean, sd;
      ctx_set_params (&ctx, &prm);
      out = ctx_scale_check (&ctx, in, w / 3, h / 3, &prm, LAYOUT_DEFAULT,
          "checkerboard");
      checker_stats (out, 3, &mean, &sd);
      GST_INFO ("%s %s antialias=%d: mean %.2f sd %.2f", name, prm.method,
          aa, mean, sd);
      if (aa && m != GCV_SCALE_NEAREST) {
        fail_unless (sd < 2.0, "%s method=%s antialias=true: checkerboard / 3 "
            "has standard deviation %.2f (mean %.2f)", name, prm.method, sd,
            mean);
        fail_unless (fabs (mean - 125.0) < 2.0, "%s %s: mean %.2f", name,
            prm.method, mean);
      } else if (m == GCV_SCALE_BILINEAR || m == GCV_SCALE_BSPLINE
          || m == GCV_SCALE_NEAREST) {
        /* x = 3 o + 1 exactly: the input samples themselves */
        fail_unless (sd > 100.0, "%s method=%s antialias=%d: sd %.2f, the "
            "checkerboard should survive", name, prm.method, aa, sd);
      }
      img_free (out);
    }
  }
  ctx_free (&ctx);
  img_free (in);
}

GST_END_TEST;

/* cpubsplinescale and cudabsplinescale give byte-identical output, every
 * format, method and antialias, up and down */
GST_START_TEST (test_cpu_cuda_identical)
{
  static const gint full_sizes[][4] = { {173, 131, 400, 301},
  {641, 481, 211, 157}, {64, 64, 64, 129}
  };
  /* quick mode: a third of the sizes (the same up / down / mixed), one of
   * them per format, every method with antialias on or off by turns */
  static const gint quick_sizes[][4] = { {59, 43, 133, 101},
  {161, 121, 53, 39}, {22, 22, 22, 43}
  };
  const gboolean quick = gcv_check_quick ();
  const gint (*sizes)[4] = quick ? quick_sizes : full_sizes;
  gchar *cuda_backend = NULL;
  guint f, s, m;
  gint aa;
  guint n_compared = 0;

  for (f = 0; f < N_FORMATS; f++) {
    Ctx a = ctx_new ("cpubsplinescale", NULL);
    Ctx b = ctx_new ("cudabsplinescale", NULL);
    for (s = 0; s < G_N_ELEMENTS (full_sizes); s++) {
      Img *in;
      if (quick && s != f % G_N_ELEMENTS (full_sizes))
        continue;
      in = img_from_test_photo (all_formats[f], sizes[s][0], sizes[s][1],
          f + s, 13 * f, 7 * s, 4000 + 8 * f + s);
      ctx_set_out_size (&a, sizes[s][2], sizes[s][3]);
      ctx_set_out_size (&b, sizes[s][2], sizes[s][3]);
      ctx_set_caps (&a, &in->info);
      ctx_set_caps (&b, &in->info);
      for (m = 0; m < N_METHODS; m++) {
        for (aa = 0; aa <= 1; aa++) {
          Params prm = { all_methods[m], aa };
          Img *oa, *ob;
          gchar *what;
          if (quick && (m + aa + f) % 2 != 0)
            continue;
          ctx_set_params (&a, &prm);
          ctx_set_params (&b, &prm);
          oa = ctx_process (&a, in, LAYOUT_DEFAULT);
          ob = ctx_process (&b, in, (m + aa) % N_LAYOUTS);
          what = g_strdup_printf ("cpubsplinescale vs cudabsplinescale: %s "
              "%dx%d -> %dx%d method=%s antialias=%d",
              gst_video_format_to_string (all_formats[f]), sizes[s][0],
              sizes[s][1], sizes[s][2], sizes[s][3], all_methods[m], aa);
          fail_unless_equals_int (img_w (oa), sizes[s][2]);
          fail_unless_equals_int (img_h (oa), sizes[s][3]);
          assert_img_equal (oa, ob, what);
          n_compared++;
          g_free (what);
          img_free (oa);
          img_free (ob);
        }
      }
      img_free (in);
    }
    if (cuda_backend == NULL)
      cuda_backend = get_backend (b.e);
    ctx_free (&a);
    ctx_free (&b);
  }
  if (g_strcmp0 (cuda_backend, "cuda") == 0) {
    g_print ("test_cpu_cuda_identical: %u frames, CUDA compared with CPU: "
        "identical\n", n_compared);
  } else {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but "
        "cudabsplinescale runs on %s", GST_STR_NULL (cuda_backend));
    g_print ("test_cpu_cuda_identical: no GPU, cudabsplinescale fell back: "
        "compared CPU with CPU (%u frames)\n", n_compared);
  }
  g_free (cuda_backend);
}

GST_END_TEST;

/* P010 by another route: its Y, U and V, each a GRAY16_LE frame of its own
 * size (the 16-bit words as they are, low bits that are not zero
 * included), scaled by the element to the P010 output's plane sizes, then
 * rounded to 10-bit codes, must be the P010 output: every plane scaled, U
 * and V each on its own, chroma at its own size, the words rounded once. */
GST_START_TEST (test_p010_by_gray16)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = { {641, 481, 320, 241}, {111, 30, 222, 61},
  {2, 2, 1, 1}, {1, 1, 5, 3}
  };
  guint s, m;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint iw = sizes[s][0], ih = sizes[s][1], ow = sizes[s][2], oh = sizes[s][3];
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_P010_10LE, iw, ih, s,
        33 * s, 20, 400 + s);
    gint c, x, y;

    img_p010_low_bits (in, 77 + s);
    for (m = 0; m < N_METHODS; m++) {
      Params prm = { all_methods[m], m % 2 == 0 };
      Img *out;
      Ctx ctx;
      gchar *what;

      /* quick mode: two methods a size, every method twice */
      if (gcv_check_quick () && (m + s) % 2)
        continue;
      what = g_strdup_printf ("%s P010 %dx%d -> %dx%d %s antialias=%d "
          "vs its planes as GRAY16_LE", name, iw, ih, ow, oh, prm.method,
          prm.antialias);
      ctx = ctx_new (name, NULL);
      ctx_set_params (&ctx, &prm);
      ctx_set_sizes (&ctx, in, ow, oh);
      out = ctx_process (&ctx, in, (s + m) % N_LAYOUTS);
      check_out_caps (&ctx, GST_VIDEO_FORMAT_P010_10LE, ow, oh, what);
      ctx_free (&ctx);
      for (c = 0; c < 3; c++) {
        Img *plane = img_comp_gray16 (in, c), *scaled;
        gint cw = GST_VIDEO_INFO_COMP_WIDTH (&out->info, c);
        gint ch = GST_VIDEO_INFO_COMP_HEIGHT (&out->info, c);
        Ctx g = ctx_new (name, NULL);
        ctx_set_params (&g, &prm);
        ctx_set_sizes (&g, plane, cw, ch);
        scaled = ctx_process (&g, plane, LAYOUT_DEFAULT);
        ctx_free (&g);
        fail_unless (img_w (scaled) == cw && img_h (scaled) == ch);
        for (y = 0; y < ch; y++)
          for (x = 0; x < cw; x++) {
            guint want = p010_round (img_get (scaled, 0, x, y));
            fail_unless (img_get (out, c, x, y) == want, "%s: comp %d at "
                "(%d,%d) is 0x%04x, by GRAY16_LE 0x%04x", what, c, x, y,
                img_get (out, c, x, y), want);
          }
        img_free (scaled);
        img_free (plane);
      }
      img_free (out);
      g_free (what);
    }
    img_free (in);
  }
}

GST_END_TEST;

/* cudabsplinescale without CUDA: one warning and the CPU backend, or with
 * fallback=false an error and no frame */
GST_START_TEST (test_cuda_fallback)
{
  Img *in = img_from_test_photo (GST_VIDEO_FORMAT_I420, 64, 48, 1, 0, 0, 7);
  Ctx ctx = ctx_new ("cudabsplinescale", NULL);
  gboolean on_gpu;
  gint i;

  ctx_set_sizes (&ctx, in, 100, 75);
  for (i = 0; i < 3; i++)
    img_free (ctx_scale_check (&ctx, in, 100, 75, &default_params,
            LAYOUT_DEFAULT, "fallback"));
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  if (!on_gpu) {
    GstElement *e = gst_element_factory_make ("cudabsplinescale", NULL);
    GstBus *bus = gst_bus_new ();
    GstStateChangeReturn sret;
    gchar *text = NULL;

    g_object_set (e, "fallback", FALSE, NULL);
    gst_element_set_bus (e, bus);
    sret = gst_element_set_state (e, GST_STATE_PLAYING);
    if (sret == GST_STATE_CHANGE_FAILURE) {
      fail_unless (bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
              &text) >= 1, "no RESOURCE error when failing to start (%s)",
          GST_STR_NULL (text));
    } else {
      fail ("cudabsplinescale fallback=false started without a GPU");
    }
    gst_element_set_state (e, GST_STATE_NULL);
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
    gst_object_unref (e);
    g_free (text);
  }
  img_free (in);
}

GST_END_TEST;

static Suite *
bsplinescale_suite (void)
{
  Suite *s;
  /* every output buffer must be a frame of its caps */
  TCase *tc = element_suite_tcase ("bsplinescale", TRUE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties_defaults, 0, n);
  tcase_add_loop_test (tc, test_property_rejection, 0, n);
  tcase_add_loop_test (tc, test_template_caps, 0, n);
  tcase_add_loop_test (tc, test_tiny_sizes, 0, n);
  tcase_add_loop_test (tc, test_size_odd_upscale, 0, n);
  tcase_add_loop_test (tc, test_size_1080p_downscale, 0, n);
  tcase_add_loop_test (tc, test_size_qcif_x7, 0, n);
  tcase_add_loop_test (tc, test_nearest_exact, 0, n);
  tcase_add_loop_test (tc, test_constant_frames, 0, n);
  tcase_add_loop_test (tc, test_padded_strides, 0, n);
  tcase_add_loop_test (tc, test_output_video_meta, 0, n);
  tcase_add_loop_test (tc, test_renegotiate_input, 0, n);
  tcase_add_loop_test (tc, test_renegotiate_output, 0, n);
  tcase_add_loop_test (tc, test_negotiation_dar, 0, n);
  tcase_add_loop_test (tc, test_passthrough, 0, n);
  tcase_add_loop_test (tc, test_property_change_playing, 0, n);
  tcase_add_loop_test (tc, test_antialias_checkerboard, 0, n);
  tcase_add_loop_test (tc, test_p010_by_gray16, 0, n);
  tcase_add_test (tc, test_cpu_cuda_identical);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

GST_CHECK_MAIN (bsplinescale);
