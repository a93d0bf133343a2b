/* gst-cuda-video: GstHarness tests for the cudaseamcarve and cpuseamcarve
 * elements (content-aware resizing by seam carving).
 *
 * Every content test runs against both element names: on a machine without
 * a usable GPU cudaseamcarve falls back to the CPU twin (one warning) and
 * must give the very same frames; on the GPU host the same assertions check
 * the CUDA backend.  With GST_CUDA_VIDEO_REQUIRE_GPU=1 in the environment,
 * cudaseamcarve must report backend "cuda".
 *
 * Pixels are compared bit for bit with the independent reference of
 * tests/seamcarve_reference.h (the contract of cpu/seamcarve.h written
 * plainly: full recomputation, no shortcuts), frame by frame with its
 * temporal state where the element keeps one.  Besides, a few properties
 * that hold whatever the arithmetic are checked without the reference: a
 * 1x1 frame enlarged stays its colour, a band of alpha 0 goes first and
 * exactly, a region of alpha 255 survives untouched, the seams show-seams
 * paints are exactly the pixels the carving removes (one per row and seam),
 * and show-seams leaves every other pixel alone.
 *
 * Input is crops of the photos in tests/data (set GCV_TEST_DATA_DIR to the
 * source tests/ directory when the built-in default does not point there);
 * small frames keep the run short, one case is 641x481.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the element test kit (tests/common): harness, frames, buffers, photos */
#include "gcv-check.h"
/* the contract: enums, limits, mask bits */
#include "seamcarve.h"
/* the independent reference the seam carving tests share */
#include "seamcarve_reference.h"

static const gchar *const element_names[] = { "cpuseamcarve", "cudaseamcarve" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)

/* the template's formats, in its order */
static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_RGBA,
  GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
  GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_xRGB,
  GST_VIDEO_FORMAT_xBGR,
};

#define N_FORMATS G_N_ELEMENTS (all_formats)

/* the nicks, indexed by the contract's enum values */
static const gchar *const energy_nicks[] = { "gradient-l1", "gradient-l2",
  "forward"
};
static const gchar *const mode_nicks[] = { "exact", "fast" };
static const gchar *const order_nicks[] = { "width-first", "height-first" };

/* the element's defaults */
static const GcvSeamParams default_prm = { GCV_SEAM_ENERGY_GRADIENT_L1,
  GCV_SEAM_MODE_EXACT, GCV_SEAM_MAX_PER_PASS, 0.0, 0, GCV_SEAM_ORDER_WIDTH_FIRST
};

static GcvSeamParams
prm_make (GcvSeamEnergy energy, GcvSeamMode mode, gint spp, GcvSeamOrder order)
{
  GcvSeamParams p = default_prm;

  p.energy = energy;
  p.mode = mode;
  p.seams_per_pass = spp;
  p.order = order;
  return p;
}

static gchar *
prm_describe (const GcvSeamParams * p)
{
  return g_strdup_printf ("energy=%s mode=%s seams-per-pass=%d order=%s "
      "temporal-coherence=%g mask-alpha=%d", energy_nicks[p->energy],
      mode_nicks[p->mode], p->seams_per_pass, order_nicks[p->order],
      p->temporal_coherence, p->mask_alpha);
}

/* sets the algorithm properties (enums by nick) and reads them back */
static void
apply_prm (GstElement * e, const GcvSeamParams * p)
{
  gint spp;
  gdouble tc;
  gboolean ma;

  gst_util_set_object_arg (G_OBJECT (e), "energy", energy_nicks[p->energy]);
  gst_util_set_object_arg (G_OBJECT (e), "mode", mode_nicks[p->mode]);
  gst_util_set_object_arg (G_OBJECT (e), "order", order_nicks[p->order]);
  g_object_set (e, "seams-per-pass", p->seams_per_pass, "temporal-coherence",
      p->temporal_coherence, "mask-alpha", p->mask_alpha, NULL);
  g_object_get (e, "seams-per-pass", &spp, "temporal-coherence", &tc,
      "mask-alpha", &ma, NULL);
  fail_unless_equals_string (enum_nick (e, "energy"), energy_nicks[p->energy]);
  fail_unless_equals_string (enum_nick (e, "mode"), mode_nicks[p->mode]);
  fail_unless_equals_string (enum_nick (e, "order"), order_nicks[p->order]);
  fail_unless_equals_int (spp, p->seams_per_pass);
  fail_unless (tc == p->temporal_coherence);
  fail_unless (!ma == !p->mask_alpha);
}

/* ------------------------------------------------------------------------ */
/* frames                                                                   */

/* n frames of photo @which panned by (3, 1) pixels a frame */
static Img **
seq_new (GstVideoFormat fmt, gint w, gint h, gint n, gint which, gint x0,
    gint y0, guint32 seed)
{
  Img **f = g_new0 (Img *, n);
  gint t;

  for (t = 0; t < n; t++)
    f[t] = img_from_test_photo_t (fmt, w, h, which, x0 + 3 * t, y0 + t, t,
        seed * 131 + t);
  return f;
}

static void
seq_free (Img ** f, gint n)
{
  gint t;

  for (t = 0; t < n; t++)
    img_free (f[t]);
  g_free (f);
}

/* the alpha component of every pixel set to a */
static void
img_fill_alpha (Img * im, gint x0, gint y0, gint w, gint h, guint a)
{
  gint x, y;

  fail_unless (GST_VIDEO_INFO_HAS_ALPHA (&im->info));
  for (y = y0; y < y0 + h; y++)
    for (x = x0; x < x0 + w; x++)
      img_set (im, GST_VIDEO_COMP_A, x, y, a);
}

/* whether the w x h block of a at (ax, ay) equals the one of b at (bx, by),
 * every component */
static gboolean
block_equal (const Img * a, gint ax, gint ay, const Img * b, gint bx, gint by,
    gint w, gint h)
{
  gint c, x, y;

  for (c = 0; c < img_n_comps (a); c++)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (img_get (a, c, ax + x, ay + y) != img_get (b, c, bx + x, by + y))
          return FALSE;
  return TRUE;
}

static gboolean
img_equal (const Img * a, const Img * b)
{
  return img_format (a) == img_format (b) && img_w (a) == img_w (b)
      && img_h (a) == img_h (b) && block_equal (a, 0, 0, b, 0, 0, img_w (a),
      img_h (a));
}

/* ------------------------------------------------------------------------ */
/* the reference                                                            */

/* The contract's view of a format: GRAY8 one plane, Y444 three, the 4-byte
 * RGB formats one plane of 4 channels with the luma from R, G, B and the
 * alpha channel where there is one. */
static void
seam_geometry (const GstVideoInfo * info, gint ow, gint oh,
    GcvSeamGeometry * g)
{
  GstVideoFormat fmt = GST_VIDEO_INFO_FORMAT (info);

  memset (g, 0, sizeof (*g));
  g->in_width = GST_VIDEO_INFO_WIDTH (info);
  g->in_height = GST_VIDEO_INFO_HEIGHT (info);
  g->out_width = ow;
  g->out_height = oh;
  g->alpha_channel = -1;
  if (fmt == GST_VIDEO_FORMAT_GRAY8 || fmt == GST_VIDEO_FORMAT_Y444) {
    g->n_planes = fmt == GST_VIDEO_FORMAT_Y444 ? 3 : 1;
    g->channels = 1;
    g->luma.layout = GCV_LUMA_GRAY8;
  } else {
    fail_unless (format_is_rgb (fmt)
        && GST_VIDEO_INFO_COMP_PSTRIDE (info, 0) == 4, "no seam geometry "
        "for %s", gst_video_format_to_string (fmt));
    g->n_planes = 1;
    g->channels = 4;
    g->luma.layout = GCV_LUMA_PACKED32;
    g->luma.r_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R);
    g->luma.g_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G);
    g->luma.b_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B);
    if (GST_VIDEO_INFO_HAS_ALPHA (info))
      g->alpha_channel = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_A);
  }
}

static void
img_planes (const Img * im, gint n_planes, GcvPlane * planes)
{
  gint p;

  for (p = 0; p < n_planes; p++) {
    planes[p].data = im->data + GST_VIDEO_INFO_PLANE_OFFSET (&im->info, p);
    planes[p].width = img_w (im);
    planes[p].height = img_h (im);
    planes[p].stride = GST_VIDEO_INFO_PLANE_STRIDE (&im->info, p);
  }
}

/* a reference context: one stream of frames of one size and format, with
 * the temporal state of the contract */
typedef struct
{
  GcvSeamGeometry geom;
  GstVideoFormat fmt;
  SeamRefState state;
} Ref;

static Ref *
ref_new (const GstVideoInfo * info, gint ow, gint oh)
{
  Ref *ref = g_new0 (Ref, 1);

  seam_geometry (info, ow, oh, &ref->geom);
  ref->fmt = GST_VIDEO_INFO_FORMAT (info);
  seam_ref_state_init (&ref->state);
  return ref;
}

/* the next frame of the stream; *mask (when mask is not NULL) the seam
 * mask, in_width x in_height packed (g_free) */
static Img *
ref_frame (Ref * ref, const Img * in, const GcvSeamParams * prm,
    guint8 ** mask)
{
  const GcvSeamGeometry *g = &ref->geom;
  Img *out = img_new (ref->fmt, g->out_width, g->out_height);
  GcvPlane ip[GCV_SEAM_MAX_PLANES], op[GCV_SEAM_MAX_PLANES], mp;

  fail_unless (img_format (in) == ref->fmt && img_w (in) == g->in_width
      && img_h (in) == g->in_height);
  img_planes (in, g->n_planes, ip);
  img_planes (out, g->n_planes, op);
  mp.width = g->in_width;
  mp.height = g->in_height;
  mp.stride = g->in_width;
  mp.data = g_malloc0 ((gsize) g->in_width * g->in_height);
  fail_unless (seam_ref_process (g, prm, ip, op, &mp, &ref->state) == 0,
      "reference: refused %s %dx%d -> %dx%d",
      gst_video_format_to_string (ref->fmt), g->in_width, g->in_height,
      g->out_width, g->out_height);
  if (mask)
    *mask = mp.data;
  else
    g_free (mp.data);
  return out;
}

static void
ref_reset (Ref * ref)
{
  seam_ref_state_clear (&ref->state);
}

static void
ref_free (Ref * ref)
{
  if (ref) {
    seam_ref_state_clear (&ref->state);
    g_free (ref);
  }
}

/* one frame on its own */
static Img *
ref_carve (const Img * in, gint ow, gint oh, const GcvSeamParams * prm,
    guint8 ** mask)
{
  Ref *ref = ref_new (&in->info, ow, oh);
  Img *out = ref_frame (ref, in, prm, mask);

  ref_free (ref);
  return out;
}

/* ------------------------------------------------------------------------ */
/* element helpers                                                          */

/* A fresh element with the algorithm properties prm, carving to ow x oh:
 * by the width and height properties (by_props), else by downstream caps
 * (a dimension <= 0 left open either way). */
static Ctx
sc_ctx (const gchar * name, const GcvSeamParams * prm, gint ow, gint oh,
    gboolean by_props)
{
  Ctx ctx = ctx_new (name, NULL);

  apply_prm (ctx.e, prm);
  if (by_props) {
    g_object_set (ctx.e, "width", MAX (ow, 0), "height", MAX (oh, 0), NULL);
  } else if (ow > 0 || oh > 0) {
    gchar *s = ow > 0 && oh > 0 ?
        g_strdup_printf ("video/x-raw,width=%d,height=%d", ow, oh) : ow > 0 ?
        g_strdup_printf ("video/x-raw,width=%d", ow) :
        g_strdup_printf ("video/x-raw,height=%d", oh);
    ctx_set_downstream (&ctx, s);
    g_free (s);
  }
  return ctx;
}

/* One frame through a running element; the output caps must be in's format
 * and pixel aspect ratio at ow x oh, the pixels those of want. */
static Img *
sc_process_check (Ctx * ctx, const Img * in, const Img * want, Layout layout,
    const gchar * what)
{
  Img *out = ctx_process (ctx, in, layout);
  gchar *msg = g_strdup_printf ("%s %s: %s %dx%d -> %dx%d, %s input",
      ctx->name, what, gst_video_format_to_string (img_format (in)),
      img_w (in), img_h (in), img_w (want), img_h (want),
      layout_names[layout]);

  ctx_check_out_caps (ctx, img_format (in), img_w (want), img_h (want),
      GST_VIDEO_INFO_PAR_N (&in->info), GST_VIDEO_INFO_PAR_D (&in->info),
      msg);
  assert_img_equal (out, want, msg);
  g_free (msg);
  return out;
}

/* A fresh element carves in to ow x oh with prm (target by the properties
 * or by downstream caps); the output must equal the reference.  Returns the
 * output. */
static Img *
check_carve (const gchar * name, const Img * in, gint ow, gint oh,
    const GcvSeamParams * prm, gboolean by_props, Layout layout,
    const gchar * what)
{
  Ctx ctx = sc_ctx (name, prm, ow, oh, by_props);
  Img *ref = ref_carve (in, ow, oh, prm, NULL), *out;
  gchar *d = prm_describe (prm);
  gchar *msg = g_strdup_printf ("%s (%s, target by %s)", what, d,
      by_props ? "properties" : "downstream caps");

  ctx_set_caps (&ctx, &in->info);
  out = sc_process_check (&ctx, in, ref, layout, msg);
  ctx_free (&ctx);
  img_free (ref);
  g_free (msg);
  g_free (d);
  return out;
}

/* ======================================================================== */
/* tests                                                                    */

/* gst-inspect style: every property has a nick and a blurb, its default
 * is what a fresh element holds; ranges, defaults and enum values as
 * documented; the metadata and the pad templates */
GST_START_TEST (test_properties)
{
  const gchar *name = element_names[__i__];
  GstElement *e = gst_element_factory_make (name, NULL);
  GObjectClass *klass;
  GParamSpec *pspec;
  guint n, i;
  static const struct
  {
    const gchar *prop;
    gint min, max, def;
  } ints[] = {
    {"width", 0, 32767, 0},
    {"height", 0, 32767, 0},
    {"seams-per-pass", 1, 32, 32},
  };
  static const struct
  {
    const gchar *prop;
    const gchar *const *nicks;
    guint n;
    const gchar *def;
  } enums[] = {
    {"energy", energy_nicks, G_N_ELEMENTS (energy_nicks), "gradient-l1"},
    {"mode", mode_nicks, G_N_ELEMENTS (mode_nicks), "exact"},
    {"order", order_nicks, G_N_ELEMENTS (order_nicks), "width-first"},
  };

  fail_unless (e != NULL, "no element %s (is GST_PLUGIN_PATH set?)", name);
  klass = G_OBJECT_GET_CLASS (e);

  /* every property: a nick, a blurb that says something, the default */
  n = check_properties_documented (e, name);
  fail_unless (n >= 14, "%s has only %u properties", name, n);

  for (i = 0; i < G_N_ELEMENTS (ints); i++) {
    GParamSpecInt *pi;
    gint v;
    pspec = g_object_class_find_property (klass, ints[i].prop);
    fail_unless (pspec != NULL && G_IS_PARAM_SPEC_INT (pspec), "no int %s",
        ints[i].prop);
    pi = G_PARAM_SPEC_INT (pspec);
    fail_unless (pi->minimum == ints[i].min && pi->maximum == ints[i].max
        && pi->default_value == ints[i].def, "%s: %d .. %d default %d, "
        "documented %d .. %d default %d", ints[i].prop, pi->minimum,
        pi->maximum, pi->default_value, ints[i].min, ints[i].max,
        ints[i].def);
    fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s is not "
        "changeable in PLAYING", ints[i].prop);
    /* the whole range is taken */
    g_object_set (e, ints[i].prop, ints[i].max, NULL);
    g_object_get (e, ints[i].prop, &v, NULL);
    fail_unless_equals_int (v, ints[i].max);
    g_object_set (e, ints[i].prop, ints[i].min, NULL);
    g_object_get (e, ints[i].prop, &v, NULL);
    fail_unless_equals_int (v, ints[i].min);
    g_object_set (e, ints[i].prop, ints[i].def, NULL);
  }
  fail_unless_equals_int (GCV_SEAM_MAX_DIMENSION, 32767);
  fail_unless_equals_int (GCV_SEAM_MAX_PER_PASS, GCV_SEAM_FAST_TRIES);

  pspec = g_object_class_find_property (klass, "temporal-coherence");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->minimum == 0.0);
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->maximum == 1.0);
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->default_value == 0.0);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  {
    gdouble tc;
    g_object_set (e, "temporal-coherence", 0.375, NULL);
    g_object_get (e, "temporal-coherence", &tc, NULL);
    fail_unless (tc == 0.375);
    g_object_set (e, "temporal-coherence", 0.0, NULL);
  }

  {
    static const gchar *const bools[] = { "mask-alpha", "show-seams" };
    for (i = 0; i < G_N_ELEMENTS (bools); i++) {
      gboolean b;
      pspec = g_object_class_find_property (klass, bools[i]);
      fail_unless (pspec != NULL && G_IS_PARAM_SPEC_BOOLEAN (pspec), "no "
          "boolean %s", bools[i]);
      fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
      g_object_set (e, bools[i], TRUE, NULL);
      g_object_get (e, bools[i], &b, NULL);
      fail_unless (b == TRUE);
      g_object_set (e, bools[i], FALSE, NULL);
    }
  }

  /* enums: the documented nicks, in the order of the contract's values */
  for (i = 0; i < G_N_ELEMENTS (enums); i++) {
    GEnumClass *ec;
    guint k;
    pspec = g_object_class_find_property (klass, enums[i].prop);
    fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec), "no enum %s",
        enums[i].prop);
    fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
    ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    fail_unless_equals_int (ec->n_values, enums[i].n);
    for (k = 0; k < enums[i].n; k++) {
      GEnumValue *ev = g_enum_get_value_by_nick (ec, enums[i].nicks[k]);
      fail_unless (ev != NULL, "%s: no value %s", enums[i].prop,
          enums[i].nicks[k]);
      fail_unless_equals_int (ev->value, k);
      fail_unless (ev->value_name != NULL && strlen (ev->value_name) >= 10,
          "%s=%s has no description", enums[i].prop, enums[i].nicks[k]);
      gst_util_set_object_arg (G_OBJECT (e), enums[i].prop, enums[i].nicks[k]);
      fail_unless_equals_string (enum_nick (e, enums[i].prop),
          enums[i].nicks[k]);
    }
    fail_unless_equals_int (G_PARAM_SPEC_ENUM (pspec)->default_value,
        g_enum_get_value_by_nick (ec, enums[i].def)->value);
    gst_util_set_object_arg (G_OBJECT (e), enums[i].prop, enums[i].def);
  }

  /* the base class' */
  {
    guint nt;
    gchar *backend = get_backend (e);
    g_object_get (e, "n-threads", &nt, NULL);
    fail_unless_equals_int (nt, 0);
    check_device_properties (e, name);
    fail_unless (backend == NULL, "backend %s before start", backend);
    pspec = g_object_class_find_property (klass, "backend");
    fail_unless (pspec != NULL && !(pspec->flags & G_PARAM_WRITABLE));
    pspec = g_object_class_find_property (klass, "stats");
    fail_unless (pspec != NULL && !(pspec->flags & G_PARAM_WRITABLE));
  }

  /* metadata */
  {
    GstElementClass *ek = GST_ELEMENT_GET_CLASS (e);
    const gchar *longname = gst_element_class_get_metadata (ek,
        GST_ELEMENT_METADATA_LONGNAME);
    fail_unless_equals_string (gst_element_class_get_metadata (ek,
            GST_ELEMENT_METADATA_KLASS), g_str_has_prefix (name, "cuda") ?
        "Filter/Converter/Video/Scaler/Hardware" :
        "Filter/Converter/Video/Scaler");
    fail_unless (longname && strstr (longname, "eam carving") != NULL,
        "long name %s", GST_STR_NULL (longname));
    fail_unless (g_str_has_prefix (longname, g_str_has_prefix (name, "cuda") ?
            "CUDA" : "CPU"), "long name %s", longname);
    fail_unless (strlen (gst_element_class_get_metadata (ek,
                GST_ELEMENT_METADATA_DESCRIPTION)) > 20);
  }

  /* the pad templates: always, video/x-raw in exactly the documented
   * formats */
  {
    static const gchar *const pads[] = { "sink", "src" };
    guint p, f;
    for (p = 0; p < 2; p++) {
      GstPadTemplate *t = gst_element_class_get_pad_template
          (GST_ELEMENT_GET_CLASS (e), pads[p]);
      GstCaps *caps;
      GstStructure *s;
      const GValue *formats;
      fail_unless (t != NULL, "no %s template", pads[p]);
      fail_unless (GST_PAD_TEMPLATE_PRESENCE (t) == GST_PAD_ALWAYS);
      caps = template_system_caps (e, pads[p]);
      fail_unless_equals_int (gst_caps_get_size (caps), 1);
      s = gst_caps_get_structure (caps, 0);
      fail_unless (gst_structure_has_name (s, "video/x-raw"));
      formats = gst_structure_get_value (s, "format");
      fail_unless (formats && GST_VALUE_HOLDS_LIST (formats));
      fail_unless_equals_int (gst_value_list_get_size (formats), N_FORMATS);
      for (f = 0; f < N_FORMATS; f++)
        fail_unless_equals_string (g_value_get_string (gst_value_list_get_value
                (formats, f)), gst_video_format_to_string (all_formats[f]));
      gst_caps_unref (caps);
    }
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* values out of range: refused with a warning naming the property, the old
 * value kept, and the element works on with the old values */
GST_START_TEST (test_property_rejection)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, "width", 40, "height", 33, NULL);
  GcvSeamParams prm = prm_make (GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST,
      5, GCV_SEAM_ORDER_HEIGHT_FIRST);
  static const struct
  {
    const gchar *prop;
    gint v;
  } bad_ints[] = {
    {"width", -1}, {"width", 40000}, {"width", 32768}, {"width", G_MININT},
    {"height", -1}, {"height", 40000}, {"seams-per-pass", 0},
    {"seams-per-pass", -3}, {"seams-per-pass", 33},
  };
  static const struct
  {
    const gchar *prop;
    gint v;
  } bad_enums[] = {
    {"energy", 3}, {"energy", -1}, {"mode", 2}, {"order", 2}, {"order", 77},
  };
  guint i;

  prm.temporal_coherence = 0.25;
  apply_prm (ctx.e, &prm);
  for (i = 0; i < G_N_ELEMENTS (bad_ints); i++)
    reject_int (ctx.e, bad_ints[i].prop, bad_ints[i].v, NULL);
  reject_double (ctx.e, "temporal-coherence", 1.5);
  reject_double (ctx.e, "temporal-coherence", -0.1);
  reject_double (ctx.e, "temporal-coherence", 1e300);
  for (i = 0; i < G_N_ELEMENTS (bad_enums); i++) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
        (ctx.e), bad_enums[i].prop);
    GValue v = G_VALUE_INIT;
    g_value_init (&v, pspec->value_type);
    g_value_set_enum (&v, bad_enums[i].v);
    expect_rejected (ctx.e, bad_enums[i].prop, &v, NULL);
    g_value_unset (&v);
  }
  /* the old values are all still there */
  apply_prm (ctx.e, &prm);
  {
    gint w, h;
    g_object_get (ctx.e, "width", &w, "height", &h, NULL);
    fail_unless_equals_int (w, 40);
    fail_unless_equals_int (h, 33);
  }

  /* names the launch line cannot parse */
  {
    static const gchar *const bad[] = { "energy=sobel", "mode=exactly",
      "order=both", "width=-1", "seams-per-pass=0"
    };
    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      GError *err = NULL;
      gchar *desc = g_strdup_printf ("%s %s", name, bad[i]);
      GstElement *p;
      gchar *prop = g_strndup (bad[i], strchr (bad[i], '=') - bad[i]);
      if (g_str_has_prefix (bad[i], "width") || g_str_has_prefix (bad[i],
              "seams"))
        expecting_warning = TRUE;       /* the range check warns as well */
      p = gst_parse_launch (desc, &err);
      expecting_warning = FALSE;
      if (err == NULL) {
        /* out-of-range numbers: the property kept its default */
        gint v;
        fail_unless (p != NULL);
        g_object_get (p, prop, &v, NULL);
        fail_unless_equals_int (v, g_str_equal (prop, "width") ? 0 : GCV_SEAM_MAX_PER_PASS);
      } else {
        fail_unless (strstr (err->message, prop) != NULL, "%s: %s", desc,
            err->message);
      }
      g_clear_error (&err);
      if (p)
        gst_object_unref (p);
      g_free (prop);
      g_free (desc);
    }
  }
  {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("%s width=17 height=9 energy=forward "
        "mode=fast seams-per-pass=16 order=height-first temporal-coherence=0.5 "
        "mask-alpha=true show-seams=true", name);
    GstElement *p = gst_parse_launch (desc, &err);
    gint w, h, spp;
    gdouble tc;
    gboolean ma, ss;
    fail_unless (err == NULL && p != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    g_object_get (p, "width", &w, "height", &h, "seams-per-pass", &spp,
        "temporal-coherence", &tc, "mask-alpha", &ma, "show-seams", &ss, NULL);
    fail_unless (w == 17 && h == 9 && spp == 16 && tc == 0.5 && ma && ss);
    fail_unless_equals_string (enum_nick (p, "energy"), "forward");
    fail_unless_equals_string (enum_nick (p, "mode"), "fast");
    fail_unless_equals_string (enum_nick (p, "order"), "height-first");
    gst_object_unref (p);
    g_free (desc);
  }

  /* still carving with the values it kept */
  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 64, 48, 2, 100, 50,
        1);
    Img *ref = ref_carve (in, 40, 33, &prm, NULL);
    ctx_set_caps (&ctx, &in->info);
    img_free (sc_process_check (&ctx, in, ref, LAYOUT_DEFAULT,
            "after rejections"));
    img_free (ref);
    img_free (in);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

/* every template format is accepted and carved right; others (subsampled
 * YUV above all) are refused at negotiation */
GST_START_TEST (test_caps_formats)
{
  const gchar *name = element_names[__i__];
  static const gchar *const rejected[] = {
    "video/x-raw,format=I420,width=64,height=48,framerate=30/1",
    "video/x-raw,format=NV12,width=64,height=48,framerate=30/1",
    "video/x-raw,format=YV12,width=64,height=48,framerate=30/1",
    "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1",
    "video/x-raw,format=Y42B,width=64,height=48,framerate=30/1",
    "video/x-raw,format=AYUV,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_LE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=RGB,width=64,height=48,framerate=30/1",
    "video/x-raw,format=RGBA,width=0,height=48,framerate=30/1",
    "video/x-raw,format=RGBA,width=64,height=32768,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  };
  guint f;

  {
    Ctx ctx = ctx_new (name, NULL);
    GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
    GstPad *srcpad = gst_element_get_static_pad (ctx.e, "src");
    GstCaps *peer, *in;

    for (f = 0; f < N_FORMATS; f++) {
      static const gint sizes[][2] = { {1, 1}, {64, 48}, {32767, 32767} };
      guint s;
      for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
        gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
            "height=%d,framerate=25/1",
            gst_video_format_to_string (all_formats[f]), sizes[s][0],
            sizes[s][1]);
        GstCaps *c = gst_caps_from_string (str);
        fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused",
            str);
        gst_caps_unref (c);
        g_free (str);
      }
    }
    check_caps_refused (sinkpad, rejected, G_N_ELEMENTS (rejected));
  check_device_caps (ctx.e, sinkpad, "video/x-raw(memory:CUDAMemory),format=RGBA,width=64,"
      "height=48,framerate=30/1");

    /* the format never changes: for BGRx in, only BGRx can come out */
    in = gst_caps_from_string ("video/x-raw,format=BGRx,width=64,height=48,"
        "framerate=30/1");
    gst_harness_set_src_caps (ctx.h, gst_caps_ref (in));
    peer = gst_pad_query_caps (srcpad, NULL);
    fail_if (gst_caps_is_empty (peer));
    for (f = 0; f < gst_caps_get_size (peer); f++) {
      const GValue *v = gst_structure_get_value (gst_caps_get_structure (peer,
              f), "format");
      gchar *str = gst_caps_to_string (peer);
      fail_unless (v && G_VALUE_HOLDS_STRING (v)
          && g_str_equal (g_value_get_string (v), "BGRx"), "src pad offers %s "
          "for BGRx input", str);
      g_free (str);
    }
    gst_caps_unref (peer);
    gst_caps_unref (in);
    gst_object_unref (sinkpad);
    gst_object_unref (srcpad);
    ctx_free (&ctx);
  }

  /* I420 and NV12 pushed anyway: the caps are not taken, data gets
   * not-negotiated, nothing crashes */
  {
    static const GstVideoFormat subsampled[] = { GST_VIDEO_FORMAT_I420,
      GST_VIDEO_FORMAT_NV12
    };
    for (f = 0; f < G_N_ELEMENTS (subsampled); f++) {
      Ctx ctx = ctx_new (name, "width", 30, NULL);
      Img *in = img_new (subsampled[f], 48, 32);
      GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
      GstCaps *cur;
      ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in->info));
      cur = gst_pad_get_current_caps (sinkpad);
      fail_unless (cur == NULL, "%s took %s caps", name,
          gst_video_format_to_string (subsampled[f]));
      ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT),
          GST_FLOW_NOT_NEGOTIATED, gst_video_format_to_string (subsampled[f]));
      fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
      bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL);
      gst_object_unref (sinkpad);
      img_free (in);
      ctx_free (&ctx);
    }
  }

  /* each format: carved right, with the format kept */
  for (f = 0; f < N_FORMATS; f++) {
    Img *in = img_from_test_photo (all_formats[f], 45, 33, f, 120 + 7 * f,
        80 + 5 * f, 30 + f);
    GcvSeamParams prm = default_prm;
    gchar *what = g_strdup_printf ("format %s",
        gst_video_format_to_string (all_formats[f]));
    prm.energy = (GcvSeamEnergy) (f % 3);
    img_free (check_carve (name, in, 30, 33, &prm, f % 2, f % N_LAYOUTS,
            what));
    img_free (check_carve (name, in, 45, 21, &prm, (f + 1) % 2,
            (f + 1) % N_LAYOUTS, what));
    g_free (what);
    img_free (in);
  }
}

GST_END_TEST;

typedef struct
{
  gint iw, ih, par_n, par_d;
  gint prop_w, prop_h;
  const gchar *downstream;      /* NULL: anything */
  gint ow, oh;
} NegCase;

/* the output size: the properties where set, else downstream caps, else
 * the input's; the pixel aspect ratio and the frame rate kept */
GST_START_TEST (test_negotiation)
{
  const gchar *name = element_names[__i__];
  static const NegCase cases[] = {
    /* downstream fixes the width only / the height only / both */
    {64, 48, 1, 1, 0, 0, "video/x-raw,width=40", 40, 48},
    {64, 48, 1, 1, 0, 0, "video/x-raw,height=30", 64, 30},
    {64, 48, 1, 1, 0, 0, "video/x-raw,width=50,height=36", 50, 36},
    {64, 48, 1, 1, 0, 0, "video/x-raw,width=90,height=30", 90, 30},
    /* the properties (0 = from the caps) */
    {64, 48, 1, 1, 40, 0, NULL, 40, 48},
    {64, 48, 1, 1, 0, 60, NULL, 64, 60},
    {64, 48, 1, 1, 41, 27, NULL, 41, 27},
    {64, 48, 1, 1, 0, 0, NULL, 64, 48},
    /* properties and caps together */
    {64, 48, 1, 1, 40, 0, "video/x-raw,height=30", 40, 30},
    {64, 48, 1, 1, 0, 30, "video/x-raw,width=77", 77, 30},
    {64, 48, 1, 1, 40, 30, "video/x-raw", 40, 30},
    /* ranges downstream: the nearest to the input's */
    {64, 48, 1, 1, 0, 0, "video/x-raw,width=[10,30]", 30, 48},
    {64, 48, 1, 1, 0, 0, "video/x-raw,width=[80,100],height=[1,20]", 80, 20},
    /* the pixel aspect ratio is kept (the picture's shape changes) */
    {64, 48, 4, 3, 0, 0, "video/x-raw,width=40", 40, 48},
    {60, 44, 16, 15, 0, 50, NULL, 60, 50},
    {60, 44, 10, 11, 0, 0, "video/x-raw,width=50,height=30", 50, 30},
    /* odd sizes */
    {111, 30, 1, 1, 0, 0, "video/x-raw,width=37", 37, 30},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    const NegCase *nc = &cases[i];
    Img *in = img_from_test_photo (all_formats[i % N_FORMATS], nc->iw, nc->ih,
        i, 30 * i, 20 * i, 500 + i);
    Ctx ctx = ctx_new (name, "width", nc->prop_w, "height", nc->prop_h,
        NULL);
    gchar *what = g_strdup_printf ("%s: %dx%d par %d/%d, properties %dx%d, "
        "downstream %s", name, nc->iw, nc->ih, nc->par_n, nc->par_d,
        nc->prop_w, nc->prop_h, GST_STR_NULL (nc->downstream));
    GstCaps *caps;
    GstVideoInfo oinfo;
    Img *ref, *out;

    GST_VIDEO_INFO_PAR_N (&in->info) = nc->par_n;
    GST_VIDEO_INFO_PAR_D (&in->info) = nc->par_d;
    GST_VIDEO_INFO_FPS_N (&in->info) = 25;
    GST_VIDEO_INFO_FPS_D (&in->info) = 2;
    if (nc->downstream)
      ctx_set_downstream (&ctx, nc->downstream);
    ctx_set_caps (&ctx, &in->info);
    ref = ref_carve (in, nc->ow, nc->oh, &default_prm, NULL);
    out = sc_process_check (&ctx, in, ref, i % N_LAYOUTS, what);
    caps = ctx_out_caps (&ctx);
    fail_unless (gst_video_info_from_caps (&oinfo, caps));
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_N (&oinfo), 25);
    fail_unless_equals_int (GST_VIDEO_INFO_FPS_D (&oinfo), 2);
    gst_caps_unref (caps);
    fail_unless (!gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
            (ctx.e)) == !(nc->ow == nc->iw && nc->oh == nc->ih), "%s: "
        "passthrough %d", what,
        gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (ctx.e)));
    img_free (out);
    img_free (ref);
    g_free (what);
    ctx_free (&ctx);
    img_free (in);
  }

  /* input caps without a pixel-aspect-ratio field: square pixels out */
  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 50, 40, 3, 9, 9, 3);
    Ctx ctx = ctx_new (name, NULL);
    Img *ref = ref_carve (in, 50, 25, &default_prm, NULL);
    ctx_set_downstream (&ctx, "video/x-raw,height=25");
    gst_harness_set_src_caps_str (ctx.h, "video/x-raw,format=GRAY8,"
        "width=50,height=40,framerate=30/1");
    img_free (sc_process_check (&ctx, in, ref, LAYOUT_DEFAULT,
            "input caps without pixel-aspect-ratio"));
    img_free (ref);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* nothing asks for another size (or the properties ask for the input's):
 * the very input buffer comes out; a size request afterwards carves */
GST_START_TEST (test_passthrough)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    const gchar *downstream;
    gint prop_w, prop_h;
  } cases[] = {
    {NULL, 0, 0}, {"video/x-raw", 0, 0}, {"video/x-raw,width=57,height=41",
        0, 0}, {NULL, 57, 0}, {NULL, 57, 41}, {"video/x-raw,height=41", 0, 0},
  };
  guint c, f;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    for (f = c % 3; f < N_FORMATS; f += 3) {
      Img *in = img_from_test_photo (all_formats[f], 57, 41, f, 11, 22, f);
      Ctx ctx = ctx_new (name, "width", cases[c].prop_w, "height",
          cases[c].prop_h, NULL);
      gint k;

      if (cases[c].downstream)
        ctx_set_downstream (&ctx, cases[c].downstream);
      ctx_set_caps (&ctx, &in->info);
      for (k = 0; k < 3; k++) {
        GstBuffer *buf = img_to_buffer (in, k % N_LAYOUTS), *out;
        GcvSeamParams prm = prm_make ((GcvSeamEnergy) k, (GcvSeamMode) (k % 2),
            3, (GcvSeamOrder) (k % 2));
        apply_prm (ctx.e, &prm);
        gst_buffer_ref (buf);
        fail_unless_equals_int (gst_harness_push (ctx.h, buf), GST_FLOW_OK);
        out = gst_harness_pull (ctx.h);
        fail_unless (out == buf, "%s, downstream %s, properties %dx%d, %s: "
            "the output is not the input buffer", name,
            GST_STR_NULL (cases[c].downstream), cases[c].prop_w,
            cases[c].prop_h, gst_video_format_to_string (all_formats[f]));
        fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
                (ctx.e)));
        ctx_check_out_caps (&ctx, all_formats[f], 57, 41, 1, 1,
            "passthrough");
        gst_buffer_unref (out);
        gst_buffer_unref (buf);
      }
      /* now the width property asks for less: carving */
      {
        Img *ref = ref_carve (in, 40, 41, &default_prm, NULL);
        apply_prm (ctx.e, &default_prm);
        if (cases[c].downstream && strstr (cases[c].downstream, "width"))
          ctx_set_downstream (&ctx, NULL);
        g_object_set (ctx.e, "width", 40, "height", 0, NULL);
        img_free (sc_process_check (&ctx, in, ref, LAYOUT_ALIGNED,
                "after passthrough"));
        fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
                (ctx.e)));
        img_free (ref);
      }
      ctx_free (&ctx);
      img_free (in);
    }
  }
}

GST_END_TEST;

typedef struct
{
  GstVideoFormat fmt;
  gint iw, ih, ow, oh;
  GcvSeamEnergy energy;
  GcvSeamMode mode;
  gint spp;
  GcvSeamOrder order;
  gint photo, x0, y0;
} CarveCase;

#define L1 GCV_SEAM_ENERGY_GRADIENT_L1
#define L2 GCV_SEAM_ENERGY_GRADIENT_L2
#define FWD GCV_SEAM_ENERGY_FORWARD
#define EXACT GCV_SEAM_MODE_EXACT
#define FAST GCV_SEAM_MODE_FAST
#define WF GCV_SEAM_ORDER_WIDTH_FIRST
#define HF GCV_SEAM_ORDER_HEIGHT_FIRST

/* real photos, several formats: width and height, down and up, exact and
 * fast, the three energies, both orders, odd sizes; bit-exact against the
 * reference */
GST_START_TEST (test_photos)
{
  const gchar *name = element_names[__i__];
  static const CarveCase cases[] = {
    /* width down */
    {GST_VIDEO_FORMAT_GRAY8, 64, 48, 40, 48, L1, EXACT, 8, WF, 0, 200, 150},
    {GST_VIDEO_FORMAT_RGBA, 80, 40, 51, 40, FWD, EXACT, 8, WF, 1, 100, 60},
    {GST_VIDEO_FORMAT_Y444, 72, 36, 50, 36, L2, FAST, 4, WF, 2, 150, 90},
    /* height down */
    {GST_VIDEO_FORMAT_BGRA, 48, 64, 48, 41, L2, EXACT, 8, WF, 3, 200, 100},
    {GST_VIDEO_FORMAT_xRGB, 40, 70, 40, 33, L1, FAST, 16, HF, 0, 20, 20},
    /* width up, height up */
    {GST_VIDEO_FORMAT_BGRx, 48, 40, 80, 40, FWD, EXACT, 8, WF, 1, 300, 120},
    {GST_VIDEO_FORMAT_ABGR, 40, 32, 40, 55, L1, FAST, 3, WF, 2, 220, 180},
    {GST_VIDEO_FORMAT_GRAY8, 37, 29, 100, 29, L2, EXACT, 8, WF, 3, 60, 40},
    /* both, every mix */
    {GST_VIDEO_FORMAT_ARGB, 60, 45, 41, 60, FWD, FAST, 8, HF, 0, 300, 300},
    {GST_VIDEO_FORMAT_xBGR, 57, 43, 80, 30, L2, EXACT, 8, HF, 1, 180, 30},
    {GST_VIDEO_FORMAT_RGBx, 52, 46, 30, 28, L1, EXACT, 8, WF, 2, 40, 200},
    {GST_VIDEO_FORMAT_Y444, 45, 37, 70, 55, FWD, FAST, GCV_SEAM_MAX_PER_PASS, WF, 3, 120, 10},
    /* odd sizes */
    {GST_VIDEO_FORMAT_RGBA, 111, 30, 80, 30, L1, EXACT, 8, WF, 0, 100, 200},
    {GST_VIDEO_FORMAT_GRAY8, 111, 30, 111, 17, FWD, FAST, 5, WF, 1, 0, 0},
    {GST_VIDEO_FORMAT_BGRA, 111, 30, 163, 41, L2, FAST, 7, HF, 2, 200, 60},
    {GST_VIDEO_FORMAT_Y444, 31, 111, 17, 90, L1, EXACT, 8, HF, 3, 300, 5},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    const CarveCase *cc = &cases[c];
    Img *in = img_from_test_photo (cc->fmt, cc->iw, cc->ih, cc->photo, cc->x0,
        cc->y0, 700 + c);
    GcvSeamParams prm = prm_make (cc->energy, cc->mode, cc->spp, cc->order);
    gchar *what = g_strdup_printf ("photo case %u", c);
    img_free (check_carve (name, in, cc->ow, cc->oh, &prm, c % 2,
            c % N_LAYOUTS, what));
    g_free (what);
    img_free (in);
  }
}

GST_END_TEST;

/* one frame, both dimensions changing: every energy, mode and order on one
 * running element (the properties change between frames), each against
 * the reference; the two orders do give different pictures */
GST_START_TEST (test_modes_orders)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint iw, ih, ow, oh;
  } frames[] = {
    {GST_VIDEO_FORMAT_RGBA, 56, 44, 38, 30},
    {GST_VIDEO_FORMAT_GRAY8, 41, 37, 60, 25},
  };
  guint f;

  for (f = 0; f < G_N_ELEMENTS (frames); f++) {
    Img *in = img_from_test_photo (frames[f].fmt, frames[f].iw, frames[f].ih,
        f + 1, 250, 120, 40 + f);
    Ctx ctx = ctx_new (name, "width", frames[f].ow, "height", frames[f].oh,
        NULL);
    gint e, m, o, n_order_diff = 0, n_mode_diff = 0;

    ctx_set_caps (&ctx, &in->info);
    for (e = 0; e < 3; e++) {
      Img *outs[2][2];
      for (m = 0; m < 2; m++) {
        for (o = 0; o < 2; o++) {
          GcvSeamParams prm = prm_make ((GcvSeamEnergy) e, (GcvSeamMode) m,
              m ? 4 + e : 8, (GcvSeamOrder) o);
          Img *ref = ref_carve (in, frames[f].ow, frames[f].oh, &prm, NULL);
          gchar *d = prm_describe (&prm);
          apply_prm (ctx.e, &prm);
          outs[m][o] = sc_process_check (&ctx, in, ref, (e + m + o) %
              N_LAYOUTS, d);
          g_free (d);
          img_free (ref);
        }
        n_order_diff += !img_equal (outs[m][0], outs[m][1]);
      }
      n_mode_diff += !img_equal (outs[0][0], outs[1][0]);
      for (m = 0; m < 2; m++)
        for (o = 0; o < 2; o++)
          img_free (outs[m][o]);
    }
    fail_unless (n_order_diff > 0, "%s: width-first and height-first always "
        "gave the same frame", name);
    fail_unless (n_mode_diff > 0, "%s: exact and fast always gave the same "
        "frame", name);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* the smallest sizes: 1 and 2 pixel outputs, 1x1 and thin inputs enlarged;
 * a 1x1 frame enlarged fills the output with its colour */
GST_START_TEST (test_tiny_sizes)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][4] = {
    {30, 20, 1, 20}, {30, 20, 2, 20}, {30, 20, 30, 1}, {30, 20, 30, 2},
    {30, 20, 1, 1}, {30, 20, 2, 2}, {2, 2, 1, 1}, {1, 1, 5, 3}, {1, 1, 1, 9},
    {1, 37, 1, 10}, {37, 1, 80, 1}, {2, 9, 5, 2}, {1, 1, 64, 1},
  };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    gint iw = sizes[s][0], ih = sizes[s][1], ow = sizes[s][2],
        oh = sizes[s][3];
    GstVideoFormat fmt = all_formats[(s * 3) % N_FORMATS];
    Img *in = img_from_test_photo (fmt, iw, ih, s, 211 + 37 * s, 123 + 11 * s,
        1000 + s);
    GcvSeamParams prm = prm_make ((GcvSeamEnergy) (s % 3),
        (GcvSeamMode) (s % 2), 2, (GcvSeamOrder) ((s / 2) % 2));
    gchar *what = g_strdup_printf ("tiny %dx%d -> %dx%d", iw, ih, ow, oh);
    Img *out = check_carve (name, in, ow, oh, &prm, s % 2, s % N_LAYOUTS,
        what);

    if (iw == 1 && ih == 1) {
      gint c, x, y;
      for (c = 0; c < img_n_comps (out); c++)
        for (y = 0; y < oh; y++)
          for (x = 0; x < ow; x++)
            fail_unless (img_get (out, c, x, y) == img_get (in, c, 0, 0),
                "%s %s: comp %d (%d,%d) = %u, the input %u", name, what, c, x,
                y, img_get (out, c, x, y), img_get (in, c, 0, 0));
    }
    img_free (out);
    g_free (what);
    img_free (in);
  }
}

GST_END_TEST;

/* the one bigger case: 641x481 reduced (exact in width, fast in height) */
GST_START_TEST (test_large_frame)
{
  const gchar *name = element_names[__i__];
  /* quick mode: 201x151 stands in for 641x481 (41 and 35 seams: still
   * more than one pass of 32 each way; then 10 seams exact) */
  const gboolean quick = gcv_check_quick ();
  const gint w = quick ? 201 : 641, h = quick ? 151 : 481;
  Img *in = img_from_test_photo (GST_VIDEO_FORMAT_BGRA, w, h, 3, 0, 0, 9);
  GcvSeamParams prm = prm_make (L1, FAST, 32, WF);

  /* width by 81 seams, height by 60, fast; then width alone, exact */
  img_free (check_carve (name, in, quick ? 160 : 560, quick ? 116 : 421, &prm,
          TRUE, LAYOUT_ALIGNED, quick ? "201x151 fast" : "641x481 fast"));
  prm.mode = EXACT;
  prm.energy = FWD;
  img_free (check_carve (name, in, quick ? 191 : 611, h, &prm, FALSE,
          LAYOUT_ODD_STRIDE, quick ? "201x151 exact" : "641x481 exact"));
  img_free (in);
}

GST_END_TEST;

/* padded and odd input strides (GstVideoMeta) give the same frames as the
 * default layout, and the reference's */
GST_START_TEST (test_padded_strides)
{
  const gchar *name = element_names[__i__];
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_xBGR
  };
  guint f, l;

  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    Img *in = img_from_test_photo (fmts[f], 47, 35, f, 60 * f, 70, 90 + f);
    GcvSeamParams prm = prm_make ((GcvSeamEnergy) (f % 3), (GcvSeamMode) (f %
            2), 4, (GcvSeamOrder) (f / 2));
    Ctx ctx = sc_ctx (name, &prm, 33, 50, f % 2);
    Img *ref = ref_carve (in, 33, 50, &prm, NULL);

    ctx_set_caps (&ctx, &in->info);
    for (l = 0; l < N_LAYOUTS; l++) {
      gchar *what = g_strdup_printf ("%s layout", layout_names[l]);
      img_free (sc_process_check (&ctx, in, ref, l, what));
      g_free (what);
    }
    img_free (ref);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* new input caps mid-stream (size, then format): the frames go on being
 * right at the target the properties or downstream give */
GST_START_TEST (test_caps_change)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
  } steps[] = {
    {GST_VIDEO_FORMAT_RGBA, 64, 48},
    {GST_VIDEO_FORMAT_RGBA, 50, 36},
    {GST_VIDEO_FORMAT_RGBA, 91, 33},
    {GST_VIDEO_FORMAT_GRAY8, 91, 33},
    {GST_VIDEO_FORMAT_Y444, 40, 30},    /* the target: passthrough */
    {GST_VIDEO_FORMAT_BGRx, 25, 17},
    {GST_VIDEO_FORMAT_RGBA, 64, 48},
  };
  gint by_props;

  for (by_props = 0; by_props <= 1; by_props++) {
    GcvSeamParams prm = prm_make (L2, by_props ? FAST : EXACT, 6, WF);
    Ctx ctx = sc_ctx (name, &prm, 40, 30, by_props);
    guint s;

    for (s = 0; s < G_N_ELEMENTS (steps); s++) {
      Img **seq = seq_new (steps[s].fmt, steps[s].w, steps[s].h, 2, s, 30 * s,
          10 * s, 900 + s);
      gint k;
      ctx_set_caps (&ctx, &seq[0]->info);
      for (k = 0; k < 2; k++) {
        gchar *what = g_strdup_printf ("input caps step %u, frame %d", s, k);
        Img *ref = ref_carve (seq[k], 40, 30, &prm, NULL);
        img_free (sc_process_check (&ctx, seq[k], ref, (s + k) % N_LAYOUTS,
                what));
        img_free (ref);
        g_free (what);
      }
      seq_free (seq, 2);
    }
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* while PLAYING: the width and height properties renegotiate (new output
 * caps) on the next frame, downstream's new size as well; energy, mode and
 * order apply from the next frame */
GST_START_TEST (test_property_change_playing)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gint prop_w, prop_h;
    const gchar *downstream;    /* "" = unchanged */
    gint ow, oh;
    GcvSeamEnergy energy;
    GcvSeamMode mode;
  } steps[] = {
    {40, 0, "", 40, 44, L1, EXACT},
    {30, 0, "", 30, 44, L1, EXACT},
    {30, 0, "", 30, 44, FWD, EXACT},
    {30, 50, "", 30, 50, FWD, FAST},
    {0, 50, "", 56, 50, FWD, FAST},
    {0, 0, "video/x-raw,width=20", 20, 44, L2, FAST},
    {0, 22, "", 20, 22, L2, EXACT},
    {0, 0, "", 20, 44, L2, EXACT},
    {70, 0, NULL, 70, 44, L1, FAST},
    {0, 0, "", 56, 44, L1, FAST},     /* passthrough */
    {41, 0, "", 41, 44, L1, EXACT},
  };
  Img **seq = seq_new (GST_VIDEO_FORMAT_BGRA, 56, 44, G_N_ELEMENTS (steps),
      1, 70, 40, 33);
  Ctx ctx = ctx_new (name, NULL);
  GstState state;
  guint s;

  ctx_set_caps (&ctx, &seq[0]->info);
  fail_unless (gst_element_get_state (ctx.e, &state, NULL, 0) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (state == GST_STATE_PLAYING, "%s is in %s, not PLAYING", name,
      gst_element_state_get_name (state));
  for (s = 0; s < G_N_ELEMENTS (steps); s++) {
    GcvSeamParams prm = prm_make (steps[s].energy, steps[s].mode, 5, s % 2 ?
        HF : WF);
    gchar *what = g_strdup_printf ("property step %u", s);
    Img *ref = ref_carve (seq[s], steps[s].ow, steps[s].oh, &prm, NULL);

    g_object_set (ctx.e, "width", steps[s].prop_w, "height", steps[s].prop_h,
        NULL);
    if (steps[s].downstream == NULL || *steps[s].downstream)
      ctx_set_downstream (&ctx, steps[s].downstream);
    apply_prm (ctx.e, &prm);
    img_free (sc_process_check (&ctx, seq[s], ref, s % N_LAYOUTS, what));
    fail_unless (!gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
            (ctx.e)) == !(steps[s].ow == 56 && steps[s].oh == 44));
    img_free (ref);
    g_free (what);
  }
  ctx_free (&ctx);
  seq_free (seq, G_N_ELEMENTS (steps));
}

GST_END_TEST;

/* temporal-coherence: a stream follows the reference with its history;
 * the history matters (some frame differs from its carving alone); a
 * FLUSH forgets it (the frame after it is a fresh element's); new caps
 * forget it; with temporal-coherence 0 no frame depends on the ones before
 */
GST_START_TEST (test_temporal)
{
  const gchar *name = element_names[__i__];
  const gint n = 8, flush_at = 5;
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h, ow, oh;
    GcvSeamMode mode;
    GcvSeamEnergy energy;
    gdouble tc;
    GcvSeamOrder order;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 64, 40, 44, 30, EXACT, L1, 1.0, WF},
    {GST_VIDEO_FORMAT_RGBA, 60, 36, 44, 30, FAST, FWD, 0.5, HF},
    {GST_VIDEO_FORMAT_Y444, 56, 40, 44, 30, EXACT, L2, 0.25, WF},
    /* enlargements: the seams of every step are the history */
    {GST_VIDEO_FORMAT_xRGB, 36, 30, 50, 24, EXACT, FWD, 1.0, WF},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    const gint ow = cases[c].ow, oh = cases[c].oh;
    Img **seq = seq_new (cases[c].fmt, cases[c].w, cases[c].h, n, c + 1,
        150 + 40 * c, 100, 60 + c);
    GcvSeamParams prm = prm_make (cases[c].energy, cases[c].mode, 4,
        cases[c].order);
    Ref *ref;
    Ctx ctx;
    gint t, n_diff = 0;
    gchar *d;

    /* with history: frame by frame as the reference, flush at flush_at */
    prm.temporal_coherence = cases[c].tc;
    d = prm_describe (&prm);
    ref = ref_new (&seq[0]->info, ow, oh);
    ctx = sc_ctx (name, &prm, ow, oh, c % 2);
    ctx_set_caps (&ctx, &seq[0]->info);
    for (t = 0; t < n; t++) {
      gchar *what = g_strdup_printf ("temporal stream %s, frame %d%s", d, t,
          t == flush_at ? " (after a FLUSH)" : "");
      Img *want, *alone = ref_carve (seq[t], ow, oh, &prm, NULL);
      if (t == flush_at) {
        GstSegment seg;
        /* the history would have mattered here */
        want = ref_frame (ref, seq[t], &prm, NULL);
        fail_if (img_equal (want, alone), "%s: the history makes no "
            "difference at the flush frame: the flush test proves nothing",
            what);
        img_free (want);
        fail_unless (gst_harness_push_event (ctx.h,
                gst_event_new_flush_start ()));
        fail_unless (gst_harness_push_event (ctx.h,
                gst_event_new_flush_stop (TRUE)));
        gst_segment_init (&seg, GST_FORMAT_TIME);
        fail_unless (gst_harness_push_event (ctx.h,
                gst_event_new_segment (&seg)));
        ref_reset (ref);
      }
      want = ref_frame (ref, seq[t], &prm, NULL);
      if (t == flush_at)
        assert_img_equal (want, alone, "reference after reset vs alone");
      n_diff += !img_equal (want, alone);
      img_free (sc_process_check (&ctx, seq[t], want, t % N_LAYOUTS, what));
      img_free (want);
      img_free (alone);
      g_free (what);
    }
    fail_unless (n_diff > 0, "%s: temporal-coherence=%g never changed a "
        "frame", name, cases[c].tc);
    ctx_free (&ctx);

    /* the frame after the flush is what a fresh element gives on it */
    {
      Ctx fresh = sc_ctx (name, &prm, ow, oh, c % 2);
      Ctx again = sc_ctx (name, &prm, ow, oh, c % 2);
      Img *a, *b;
      ctx_set_caps (&fresh, &seq[flush_at]->info);
      a = ctx_process (&fresh, seq[flush_at], LAYOUT_DEFAULT);
      ctx_set_caps (&again, &seq[0]->info);
      for (t = 0; t < flush_at; t++)
        img_free (ctx_process (&again, seq[t], LAYOUT_DEFAULT));
      fail_unless (gst_harness_push_event (again.h,
              gst_event_new_flush_start ()));
      fail_unless (gst_harness_push_event (again.h,
              gst_event_new_flush_stop (TRUE)));
      {
        GstSegment seg;
        gst_segment_init (&seg, GST_FORMAT_TIME);
        fail_unless (gst_harness_push_event (again.h,
                gst_event_new_segment (&seg)));
      }
      b = ctx_process (&again, seq[flush_at], LAYOUT_DEFAULT);
      assert_img_equal (b, a, "after FLUSH vs a fresh element");
      img_free (a);
      img_free (b);
      ctx_free (&fresh);
      ctx_free (&again);
    }

    /* new caps (another size) forget the history too: the first frame of
     * the new size is its carving alone */
    {
      Img **seq2 = seq_new (cases[c].fmt, cases[c].w - 2, cases[c].h, 2, c,
          40, 40, 70 + c);
      Ctx ctx2 = sc_ctx (name, &prm, ow, oh, TRUE);
      ctx_set_caps (&ctx2, &seq[0]->info);
      for (t = 0; t < 3; t++)
        img_free (ctx_process (&ctx2, seq[t], LAYOUT_DEFAULT));
      ctx_set_caps (&ctx2, &seq2[0]->info);
      ref_free (ref);
      ref = ref_new (&seq2[0]->info, ow, oh);
      for (t = 0; t < 2; t++) {
        Img *want = ref_frame (ref, seq2[t], &prm, NULL);
        img_free (sc_process_check (&ctx2, seq2[t], want, LAYOUT_DEFAULT,
                "after new caps"));
        img_free (want);
      }
      ctx_free (&ctx2);
      seq_free (seq2, 2);
    }

    /* temporal-coherence 0: every frame is its carving alone */
    prm.temporal_coherence = 0.0;
    ctx = sc_ctx (name, &prm, ow, oh, c % 2);
    ctx_set_caps (&ctx, &seq[0]->info);
    for (t = 0; t < n; t++) {
      Img *alone = ref_carve (seq[t], ow, oh, &prm, NULL);
      gchar *what = g_strdup_printf ("temporal-coherence=0, frame %d", t);
      img_free (sc_process_check (&ctx, seq[t], alone, LAYOUT_DEFAULT, what));
      img_free (alone);
      g_free (what);
    }
    ctx_free (&ctx);

    /* and temporal-coherence switched on while PLAYING: from then on with
     * the history of the frames before (the masks are kept anyway) */
    ctx = sc_ctx (name, &prm, ow, oh, c % 2);
    ctx_set_caps (&ctx, &seq[0]->info);
    ref_free (ref);
    ref = ref_new (&seq[0]->info, ow, oh);
    for (t = 0; t < 4; t++) {
      Img *want;
      if (t == 2) {
        prm.temporal_coherence = cases[c].tc;
        g_object_set (ctx.e, "temporal-coherence", prm.temporal_coherence,
            NULL);
      }
      want = ref_frame (ref, seq[t], &prm, NULL);
      img_free (sc_process_check (&ctx, seq[t], want, LAYOUT_DEFAULT,
              "temporal-coherence switched on"));
      img_free (want);
    }
    ctx_free (&ctx);

    /* the order changed while PLAYING: that frame has no history (the
     * stages differ), the next ones have again */
    ctx = sc_ctx (name, &prm, ow, oh, c % 2);
    ctx_set_caps (&ctx, &seq[0]->info);
    ref_free (ref);
    ref = ref_new (&seq[0]->info, ow, oh);
    for (t = 0; t < 6; t++) {
      Img *want;
      gchar *what;
      if (t == 3 || t == 5) {
        prm.order = prm.order == WF ? HF : WF;
        gst_util_set_object_arg (G_OBJECT (ctx.e), "order",
            order_nicks[prm.order]);
      }
      what = g_strdup_printf ("temporal stream, order %s at frame %d",
          order_nicks[prm.order], t);
      want = ref_frame (ref, seq[t], &prm, NULL);
      img_free (sc_process_check (&ctx, seq[t], want, t % N_LAYOUTS, what));
      img_free (want);
      g_free (what);
    }
    ctx_free (&ctx);
    ref_free (ref);
    g_free (d);
    seq_free (seq, n);
  }
}

GST_END_TEST;

/* every format, each direction (width down / up, height down / up), the
 * energies, modes and orders in turn: bit-exact against the reference */
GST_START_TEST (test_formats_directions)
{
  const gchar *name = element_names[__i__];
  static const gint dirs[][4] = {
    {43, 31, 29, 31}, {43, 31, 60, 31}, {31, 43, 31, 29}, {31, 43, 31, 60},
    {40, 40, 27, 53}, {40, 40, 53, 27},
  };
  guint f, d;

  for (f = 0; f < N_FORMATS; f++) {
    for (d = 0; d < G_N_ELEMENTS (dirs); d++) {
      Img *in = img_from_test_photo (all_formats[f], dirs[d][0], dirs[d][1],
          f + d, 37 * f + 11 * d, 23 * d + 5 * f, 2000 + 8 * f + d);
      GcvSeamParams prm = prm_make ((GcvSeamEnergy) ((f + d) % 3),
          (GcvSeamMode) ((f + d / 2) % 2), 2 + d, (GcvSeamOrder) (d % 2));
      gchar *what = g_strdup_printf ("%s %dx%d -> %dx%d",
          gst_video_format_to_string (all_formats[f]), dirs[d][0],
          dirs[d][1], dirs[d][2], dirs[d][3]);
      img_free (check_carve (name, in, dirs[d][2], dirs[d][3], &prm,
              (f + d) % 2, (f + d) % N_LAYOUTS, what));
      g_free (what);
      img_free (in);
    }
  }
}

GST_END_TEST;

/* mask-alpha: a region of alpha 255 survives a 50% reduction untouched
 * (found whole in the output), a band of alpha 0 goes first and exactly;
 * without alpha (RGBx) the property changes nothing */
GST_START_TEST (test_mask_alpha)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint iw, ih, ow, oh;
    gint rx, ry, rw, rh;        /* the protected region */
    GcvSeamMode mode;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 96, 64, 48, 64, 36, 18, 24, 24, EXACT},
    {GST_VIDEO_FORMAT_ARGB, 90, 50, 45, 50, 10, 5, 20, 30, EXACT},
    {GST_VIDEO_FORMAT_BGRA, 64, 96, 64, 48, 20, 40, 24, 20, EXACT},
    {GST_VIDEO_FORMAT_ABGR, 80, 60, 50, 40, 44, 12, 16, 18, EXACT},
    /* fast mode takes the seams-per-pass cheapest candidates even when
     * some cross the region: only the reference's frame is required */
    {GST_VIDEO_FORMAT_RGBA, 70, 44, 35, 44, 20, 10, 16, 20, FAST},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Img *in = img_from_test_photo (cases[c].fmt, cases[c].iw, cases[c].ih,
        c, 100 + 50 * c, 80, 300 + c);
    GcvSeamParams prm = prm_make ((GcvSeamEnergy) (c % 3), cases[c].mode, 6,
        (GcvSeamOrder) (c % 2));
    gint ow = cases[c].ow, oh = cases[c].oh, rw = cases[c].rw,
        rh = cases[c].rh, x, y, fx = -1, fy = -1;
    gchar *what = g_strdup_printf ("mask-alpha %s %dx%d -> %dx%d, region "
        "%dx%d at (%d,%d)", gst_video_format_to_string (cases[c].fmt),
        cases[c].iw, cases[c].ih, ow, oh, rw, rh, cases[c].rx, cases[c].ry);
    Img *out, *plain;

    img_fill_alpha (in, 0, 0, cases[c].iw, cases[c].ih, 128);
    img_fill_alpha (in, cases[c].rx, cases[c].ry, rw, rh, 255);
    prm.mask_alpha = TRUE;
    out = check_carve (name, in, ow, oh, &prm, c % 2, c % N_LAYOUTS, what);
    for (y = 0; y + rh <= oh && fy < 0; y++)
      for (x = 0; x + rw <= ow && fy < 0; x++)
        if (block_equal (out, x, y, in, cases[c].rx, cases[c].ry, rw, rh)) {
          fx = x;
          fy = y;
        }
    fail_unless (fy >= 0 || cases[c].mode == FAST, "%s %s: the protected "
        "region is not in the output unchanged", name, what);
    /* a width-only change keeps its rows, a height-only one its columns */
    if (fy >= 0 && oh == cases[c].ih)
      fail_unless_equals_int (fy, cases[c].ry);
    if (fy >= 0 && ow == cases[c].iw)
      fail_unless_equals_int (fx, cases[c].rx);

    /* without mask-alpha the same frame is carved otherwise */
    prm.mask_alpha = FALSE;
    plain = check_carve (name, in, ow, oh, &prm, c % 2, LAYOUT_DEFAULT,
        what);
    fail_if (img_equal (out, plain), "%s %s: mask-alpha made no difference",
        name, what);
    img_free (plain);
    img_free (out);
    g_free (what);
    img_free (in);
  }

  /* a full-height band of alpha 0, 10 columns wide: 10 seams remove it
   * exactly, whatever the picture */
  {
    static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_ABGR,
      GST_VIDEO_FORMAT_RGBA
    };
    guint f;
    for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
      const gint w = 80, h = 40, bx = 30 + 7 * f, bw = 10;
      Img *in = img_from_test_photo (fmts[f], w, h, 2 + f, 40, 90, 77 + f);
      Img *want = img_new (fmts[f], w - bw, h), *out;
      GcvSeamParams prm = prm_make ((GcvSeamEnergy) (f + 1), EXACT, 8, WF);
      gint c, x, y;

      img_fill_alpha (in, 0, 0, w, h, 128);
      img_fill_alpha (in, bx, 0, bw, h, 0);
      for (c = 0; c < img_n_comps (in); c++)
        for (y = 0; y < h; y++)
          for (x = 0; x < w - bw; x++)
            img_set (want, c, x, y, img_get (in, c, x < bx ? x : x + bw, y));
      prm.mask_alpha = TRUE;
      out = check_carve (name, in, w - bw, h, &prm, f % 2, LAYOUT_DEFAULT,
          "alpha 0 band");
      assert_img_equal (out, want, "a band of alpha 0 removed exactly");
      img_free (out);
      img_free (want);
      img_free (in);
    }
  }

  /* RGBx has no alpha: mask-alpha changes nothing */
  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_RGBx, 60, 40, 1, 10, 10,
        5);
    GcvSeamParams prm = default_prm;
    Img *a, *b;
    prm.mask_alpha = TRUE;
    a = check_carve (name, in, 40, 30, &prm, TRUE, LAYOUT_DEFAULT,
        "RGBx mask-alpha=true");
    prm.mask_alpha = FALSE;
    b = check_carve (name, in, 40, 30, &prm, TRUE, LAYOUT_DEFAULT,
        "RGBx mask-alpha=false");
    assert_img_equal (a, b, "RGBx: mask-alpha true vs false");
    img_free (a);
    img_free (b);
    img_free (in);
  }
}

GST_END_TEST;

/* the colour show-seams paints, component c of fmt */
static guint
seam_colour (GstVideoFormat fmt, gint c, gboolean width_seam)
{
  guint r = width_seam ? 255 : 0, g = width_seam ? 0 : 255, b = 0;

  if (fmt == GST_VIDEO_FORMAT_GRAY8)
    return gcv_test_luma_rgb (r, g, b);
  if (fmt == GST_VIDEO_FORMAT_Y444) {
    if (c == 0)
      return ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    if (c == 1)
      return ((-38 * (gint) r - 74 * (gint) g + 112 * (gint) b + 128) >> 8) +
          128;
    return ((112 * (gint) r - 94 * (gint) g - 18 * (gint) b + 128) >> 8) + 128;
  }
  return c == GST_VIDEO_COMP_R ? r : c == GST_VIDEO_COMP_G ? g : b;
}

/* show-seams: the output keeps the input size; the pixels of the
 * reference's seam mask are painted (width seams red, height seams green
 * over them), every other pixel and alpha unchanged; a width reduction
 * marks exactly in - out pixels per row, and those are the pixels the
 * carving removes */
GST_START_TEST (test_show_seams)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    GstVideoFormat fmt;
    gint iw, ih, ow, oh;        /* ow / oh 0: the property left at 0 */
    GcvSeamMode mode;
  } cases[] = {
    {GST_VIDEO_FORMAT_RGBA, 60, 40, 42, 0, EXACT},
    {GST_VIDEO_FORMAT_BGRx, 50, 44, 0, 30, FAST},
    {GST_VIDEO_FORMAT_GRAY8, 48, 36, 30, 25, EXACT},
    {GST_VIDEO_FORMAT_Y444, 40, 30, 25, 0, FAST},
    {GST_VIDEO_FORMAT_xRGB, 45, 33, 60, 0, EXACT},
    {GST_VIDEO_FORMAT_ABGR, 39, 41, 50, 30, FAST},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstVideoFormat fmt = cases[c].fmt;
    gint iw = cases[c].iw, ih = cases[c].ih;
    gint ow = cases[c].ow ? cases[c].ow : iw, oh = cases[c].oh ?
        cases[c].oh : ih;
    Img *in = img_from_test_photo (fmt, iw, ih, c + 2, 90 * c, 40, 400 + c);
    GcvSeamParams prm = prm_make ((GcvSeamEnergy) (c % 3), cases[c].mode, 5,
        (GcvSeamOrder) (c % 2));
    Ctx ctx = ctx_new (name, "show-seams", TRUE, "width", cases[c].ow,
        "height", cases[c].oh, NULL);
    guint8 *mask = NULL;
    Img *carved = ref_carve (in, ow, oh, &prm, &mask), *want, *out;
    gchar *what = g_strdup_printf ("show-seams %s %dx%d -> %dx%d",
        gst_video_format_to_string (fmt), iw, ih, ow, oh);
    gint x, y, k;

    apply_prm (ctx.e, &prm);
    want = img_dup (in);
    for (y = 0; y < ih; y++)
      for (x = 0; x < iw; x++)
        for (k = 0; k < 2; k++) {
          guint bit = k == 0 ? GCV_SEAM_MASK_WIDTH : GCV_SEAM_MASK_HEIGHT;
          gint comp;
          if (!(mask[y * iw + x] & bit))
            continue;
          for (comp = 0; comp < img_n_comps (want); comp++)
            if (!(GST_VIDEO_INFO_HAS_ALPHA (&want->info)
                    && comp == GST_VIDEO_COMP_A))
              img_set (want, comp, x, y, seam_colour (fmt, comp, k == 0));
        }
    /* the reference's mask: k pixels per row for k width seams taken
     * out, per column for height seams */
    if (ow < iw && oh == ih) {
      for (y = 0; y < ih; y++) {
        gint n = 0;
        for (x = 0; x < iw; x++)
          n += (mask[y * iw + x] & GCV_SEAM_MASK_WIDTH) != 0;
        fail_unless_equals_int (n, iw - ow);
      }
    }
    if (oh < ih && ow == iw) {
      for (x = 0; x < iw; x++) {
        gint n = 0;
        for (y = 0; y < ih; y++)
          n += (mask[y * iw + x] & GCV_SEAM_MASK_HEIGHT) != 0;
        fail_unless_equals_int (n, ih - oh);
      }
    }

    ctx_set_caps (&ctx, &in->info);
    out = sc_process_check (&ctx, in, want, c % N_LAYOUTS, what);
    fail_if (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM (ctx.e)));

    /* the painted pixels, counted in the output itself (pure red / green
     * where the input had another colour) */
    if (ow < iw && oh == ih && format_is_rgb (fmt)) {
      for (y = 0; y < ih; y++) {
        gint n = 0;
        for (x = 0; x < iw; x++)
          n += img_get (out, GST_VIDEO_COMP_R, x, y) == 255
              && img_get (out, GST_VIDEO_COMP_G, x, y) == 0
              && img_get (out, GST_VIDEO_COMP_B, x, y) == 0;
        fail_unless (n >= iw - ow, "%s %s: row %d has %d red pixels, %d seams",
            name, what, y, n, iw - ow);
      }
    }

    /* the same element carving for real (show-seams off while PLAYING):
     * the reference's frame; for a reduction in one dimension, the input
     * without the painted pixels */
    g_object_set (ctx.e, "show-seams", FALSE, NULL);
    img_free (sc_process_check (&ctx, in, carved, LAYOUT_DEFAULT,
            "show-seams switched off"));
    if (ow < iw && oh == ih) {
      Img *rest = img_new (fmt, ow, ih);
      for (y = 0; y < ih; y++) {
        gint j = 0;
        for (x = 0; x < iw; x++) {
          if (mask[y * iw + x] & GCV_SEAM_MASK_WIDTH)
            continue;
          fail_unless (j < ow);
          for (k = 0; k < img_n_comps (in); k++)
            img_set (rest, k, j, y, img_get (in, k, x, y));
          j++;
        }
      }
      assert_img_equal (carved, rest, "the carved frame vs the input "
          "without the seams shown");
      img_free (rest);
    }
    if (oh < ih && ow == iw) {
      Img *rest = img_new (fmt, iw, oh);
      for (x = 0; x < iw; x++) {
        gint j = 0;
        for (y = 0; y < ih; y++) {
          if (mask[y * iw + x] & GCV_SEAM_MASK_HEIGHT)
            continue;
          fail_unless (j < oh);
          for (k = 0; k < img_n_comps (in); k++)
            img_set (rest, k, x, j, img_get (in, k, x, y));
          j++;
        }
      }
      assert_img_equal (carved, rest, "the carved frame vs the input "
          "without the seams shown");
      img_free (rest);
    }
    /* and on again */
    g_object_set (ctx.e, "show-seams", TRUE, NULL);
    img_free (sc_process_check (&ctx, in, want, LAYOUT_ODD_STRIDE,
            "show-seams switched on again"));

    img_free (out);
    img_free (want);
    img_free (carved);
    g_free (mask);
    g_free (what);
    ctx_free (&ctx);
    img_free (in);
  }

  /* show-seams with the properties at the input size: nothing to paint,
   * yet a copy (never the input buffer, which might be read-only) */
  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 30, 20, 1, 5, 5, 6);
    Ctx ctx = ctx_new (name, "show-seams", TRUE, NULL);
    ctx_set_caps (&ctx, &in->info);
    img_free (sc_process_check (&ctx, in, in, LAYOUT_ALIGNED,
            "show-seams without seams"));
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* invalid input is refused clearly, without a crash: show-seams against a
 * downstream that wants another size, properties against downstream caps,
 * a buffer smaller than its caps */
/* What a frame may cost is bounded (GCV_SEAM_MAX_FRAME_WORK): a carve
 * that would take minutes a frame is refused at setup with the cost and
 * what helps, posted once; a live change of mode that would exceed it is
 * a WARNING and the frames go on with the last usable settings. */
GST_START_TEST (test_work_bound)
{
  const gchar *name = element_names[__i__];

  {
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, 64, 48, 0, 50, 50, 8);
    Ctx ctx = ctx_new (name, "width", 8192, "height", 8192, NULL);
    GcvSeamGeometry g = { 64, 48, 8192, 8192, 1, 1, {GCV_LUMA_GRAY8}, -1 };
    gchar *text = NULL;

    fail_unless (gcv_seam_frame_work (&g, &default_prm) > GCV_SEAM_MAX_FRAME_WORK);
    ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in->info));
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT),
        GST_FLOW_NOT_NEGOTIATED, "64x48 -> 8192x8192");
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT),
        GST_FLOW_NOT_NEGOTIATED, "64x48 -> 8192x8192 again");
    fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, GST_LIBRARY_ERROR,
            &text) == 1, "%s: not one settings error for two frames", name);
    fail_unless (text && strstr (text, "pixel visits")
        && strstr (text, "mode=fast"), "%s: %s", name, GST_STR_NULL (text));
    g_free (text);
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    ctx_release (&ctx);
    img_free (in);
  }

  /* 8192x320 -> 1024x320: exact mode costs 1.3e10, fast mode with the
   * most seams a pass (GCV_SEAM_FAST_TRIES: 224 passes on a flat frame,
   * every seam equally cheap) some 5e8 */
  {
    Img *in = img_new (GST_VIDEO_FORMAT_GRAY8, 8192, 320), *out;
    Ctx ctx = ctx_new (name, "width", 1024, "mode", GCV_SEAM_MODE_FAST,
        "seams-per-pass", GCV_SEAM_MAX_PER_PASS, NULL);
    GcvSeamParams fast = prm_make (GCV_SEAM_ENERGY_GRADIENT_L1,
        GCV_SEAM_MODE_FAST, GCV_SEAM_MAX_PER_PASS, GCV_SEAM_ORDER_WIDTH_FIRST);
    GcvSeamGeometry g = { 8192, 320, 1024, 320, 1, 1, {GCV_LUMA_GRAY8}, -1 };
    gchar *text = NULL;
    gint x, y, k;

    fail_unless (gcv_seam_frame_work (&g, &default_prm) > GCV_SEAM_MAX_FRAME_WORK);
    fail_unless (gcv_seam_frame_work (&g, &fast) < GCV_SEAM_MAX_FRAME_WORK / 10);
    for (y = 0; y < 320; y++)
      for (x = 0; x < 8192; x++)
        img_set (in, 0, x, y, 100);
    ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    fail_unless_equals_int (img_w (out), 1024);
    img_free (out);
    g_object_set (ctx.e, "mode", GCV_SEAM_MODE_EXACT, NULL);
    for (k = 0; k < 2; k++) {
      out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      fail_unless_equals_int (img_w (out), 1024);
      img_free (out);
    }
    fail_unless (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR,
            &text) == 1, "%s: not one warning for two frames", name);
    fail_unless (text && strstr (text, "exact mode"), "%s: %s", name,
        GST_STR_NULL (text));
    g_free (text);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

GST_START_TEST (test_invalid_input)
{
  const gchar *name = element_names[__i__];
  Img *in = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 64, 48, 0, 50, 50, 8);

  /* show-seams keeps the size: a downstream that wants 40 wide cannot be
   * served; the stream gets not-negotiated; when downstream changes its
   * mind the element works */
  {
    Ctx ctx = ctx_new (name, "show-seams", TRUE, "width", 40, NULL);
    Img *want;
    guint8 *mask = NULL;
    gint x, y, c;

    ctx_set_downstream (&ctx, "video/x-raw,width=40");
    ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in->info));
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT),
        GST_FLOW_NOT_NEGOTIATED, "show-seams, downstream 40 wide");
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL);

    img_free (ref_carve (in, 40, 48, &default_prm, &mask));
    want = img_dup (in);
    for (y = 0; y < 48; y++)
      for (x = 0; x < 64; x++)
        if (mask[y * 64 + x] & GCV_SEAM_MASK_WIDTH)
          for (c = 0; c < 3; c++)
            img_set (want, c, x, y, seam_colour (GST_VIDEO_FORMAT_RGBA, c,
                    TRUE));
    ctx_set_downstream (&ctx, NULL);
    ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in->info));
    img_free (sc_process_check (&ctx, in, want, LAYOUT_DEFAULT,
            "show-seams after downstream opened up"));
    img_free (want);
    g_free (mask);
    ctx_free (&ctx);
  }

  /* the same in a pipeline: the source reports not-negotiated (needs
   * videotestsrc of gst-plugins-base) */
  {
    GstElementFactory *vts = gst_element_factory_find ("videotestsrc");
    if (vts == NULL) {
      g_print ("test_invalid_input: no videotestsrc, pipeline check skipped\n");
    } else {
      GError *err = NULL;
      gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
          "video/x-raw,format=RGBA,width=64,height=48 ! %s show-seams=true "
          "width=40 ! video/x-raw,width=40 ! fakesink", name);
      GstElement *p = gst_parse_launch (desc, &err), *e;
      GstBus *bus;
      GstMessage *msg;
      gchar *dbg = NULL;
      /* refused when the launch line links it */
      fail_unless (err != NULL, "%s linked", desc);
      g_clear_error (&err);
      if (p)
        gst_object_unref (p);
      g_free (desc);
      /* show-seams set after linking: refused when the data flows */
      desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
          "video/x-raw,format=RGBA,width=64,height=48 ! %s name=sc width=40 ! "
          "video/x-raw,width=40 ! fakesink", name);
      p = gst_parse_launch (desc, &err);
      fail_unless (p != NULL && err == NULL, "%s: %s", desc,
          err ? err->message : "?");
      e = gst_bin_get_by_name (GST_BIN (p), "sc");
      g_object_set (e, "show-seams", TRUE, NULL);
      gst_object_unref (e);
      bus = gst_element_get_bus (p);
      gst_element_set_state (p, GST_STATE_PLAYING);
      msg = bus_pop_type (bus, 20 * GST_SECOND,
          GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
          "%s: no error", desc);
      gst_message_parse_error (msg, &err, &dbg);
      fail_unless ((dbg && strstr (dbg, "not-negotiated"))
          || g_error_matches (err, GST_CORE_ERROR,
              GST_CORE_ERROR_NEGOTIATION), "%s: error %s (%s), not "
          "not-negotiated", desc, err->message, GST_STR_NULL (dbg));
      g_clear_error (&err);
      g_free (dbg);
      gst_message_unref (msg);
      gst_element_set_state (p, GST_STATE_NULL);
      gst_object_unref (bus);
      gst_object_unref (p);
      gst_object_unref (vts);
      g_free (desc);
    }
  }

  /* the width property against a downstream that wants another width */
  {
    Ctx ctx = ctx_new (name, "width", 50, NULL);
    ctx_set_downstream (&ctx, "video/x-raw,width=40");
    ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in->info));
    ctx_push_expect (&ctx, img_to_buffer (in, LAYOUT_DEFAULT),
        GST_FLOW_NOT_NEGOTIATED, "width=50, downstream 40 wide");
    bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL);
    ctx_free (&ctx);
  }

  /* the pixel aspect ratio is kept: a downstream that wants another one
   * cannot be served */
  {
    Ctx ctx = ctx_new (name, NULL);
    Img *in43 = img_dup (in);
    GST_VIDEO_INFO_PAR_N (&in43->info) = 4;
    GST_VIDEO_INFO_PAR_D (&in43->info) = 3;
    ctx_set_downstream (&ctx, "video/x-raw,width=40,pixel-aspect-ratio=1/1");
    ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&in43->info));
    ctx_push_expect (&ctx, img_to_buffer (in43, LAYOUT_DEFAULT),
        GST_FLOW_NOT_NEGOTIATED, "par 4/3, downstream par 1/1");
    bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL);
    ctx_free (&ctx);
    img_free (in43);
  }

  /* a buffer smaller than its caps: an error message, no crash, and the
   * next good buffer is carved right */
  {
    Ctx ctx = ctx_new (name, "width", 40, NULL);
    Img *ref = ref_carve (in, 40, 48, &default_prm, NULL);
    GstBuffer *small;
    gchar *text = NULL;
    gsize sizes[] = { 10, GST_VIDEO_INFO_SIZE (&in->info) - 1, 0 };
    guint i;

    ctx_set_caps (&ctx, &in->info);
    img_free (sc_process_check (&ctx, in, ref, LAYOUT_DEFAULT, "before"));
    for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
      small = gst_buffer_new_allocate (NULL, sizes[i], NULL);
      if (sizes[i])
        gst_buffer_memset (small, 0, 0x5a, sizes[i]);
      GST_BUFFER_PTS (small) = 0;
      ctx_push_expect (&ctx, small, GST_FLOW_ERROR, "buffer smaller than "
          "its caps");
      fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
      fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, &text) == 1,
          "%s: no error message for a buffer of %" G_GSIZE_FORMAT " bytes",
          name, sizes[i]);
      fail_unless (text != NULL && strlen (text) > 10);
      GST_INFO ("small buffer: %s", text);
      g_clear_pointer (&text, g_free);
    }
    /* a GstVideoMeta whose rows run past the end of the buffer (a stride
     * far larger than the buffer, a plane offset beyond it) */
    for (i = 0; i < 2; i++) {
      gsize offset[GST_VIDEO_MAX_PLANES] = { i ? 64 * 4 * 48 : 0, };
      gint stride[GST_VIDEO_MAX_PLANES] = { i ? 64 * 4 : 1 << 20, };
      small = gst_buffer_new_allocate (NULL, 64 * 4 * 48, NULL);
      gst_buffer_memset (small, 0, 0x5a, 64 * 4 * 48);
      fail_unless (gst_buffer_add_video_meta_full (small,
              GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_RGBA, 64, 48, 1,
              offset, stride) != NULL);
      GST_BUFFER_PTS (small) = 0;
      ctx_push_expect (&ctx, small, GST_FLOW_ERROR, "GstVideoMeta past the "
          "end of its buffer");
      fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
      fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, &text) == 1,
          "%s: no error message for a GstVideoMeta past the end of its "
          "buffer", name);
      g_clear_pointer (&text, g_free);
    }
    img_free (sc_process_check (&ctx, in, ref, LAYOUT_DEFAULT,
            "a good buffer after the bad ones"));
    img_free (ref);
    ctx_free (&ctx);
  }
  img_free (in);
}

GST_END_TEST;

/* cudaseamcarve and cpuseamcarve give identical frames: formats, energies,
 * modes, orders, up and down, show-seams, mask-alpha, temporal sequences */
GST_START_TEST (test_cpu_cuda_identical)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint iw, ih, ow, oh, n;
    GcvSeamEnergy energy;
    GcvSeamMode mode;
    gint spp;
    GcvSeamOrder order;
    gdouble tc;
    gboolean mask_alpha, show;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 64, 48, 40, 48, 1, L1, EXACT, 8, WF, 0, 0, 0},
    {GST_VIDEO_FORMAT_RGBA, 70, 50, 50, 36, 1, FWD, FAST, 8, HF, 0, 1, 0},
    {GST_VIDEO_FORMAT_Y444, 45, 37, 70, 55, 1, L2, EXACT, 8, WF, 0, 0, 0},
    {GST_VIDEO_FORMAT_xBGR, 111, 30, 80, 41, 1, L1, FAST, GCV_SEAM_MAX_PER_PASS, HF, 0, 0, 0},
    {GST_VIDEO_FORMAT_ARGB, 60, 44, 44, 30, 1, FWD, EXACT, 8, WF, 0, 0, 1},
    {GST_VIDEO_FORMAT_BGRx, 56, 40, 40, 30, 6, L1, FAST, 3, WF, 1.0, 0, 0},
    {GST_VIDEO_FORMAT_GRAY8, 60, 40, 45, 28, 6, FWD, EXACT, 8, HF, 0.5, 0,
        0},
    {GST_VIDEO_FORMAT_ABGR, 48, 40, 30, 40, 4, L2, EXACT, 8, WF, 0.75, 1, 1},
    {GST_VIDEO_FORMAT_BGRA, 1, 1, 7, 3, 1, L1, EXACT, 8, WF, 0, 0, 0},
    {GST_VIDEO_FORMAT_RGBx, 30, 20, 1, 2, 1, L2, FAST, 2, HF, 0, 0, 0},
  };
  gchar *cuda_backend = NULL;
  guint c, n_compared = 0;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Img **seq = seq_new (cases[c].fmt, cases[c].iw, cases[c].ih, cases[c].n,
        c, 60 + 20 * c, 50, 4000 + c);
    GcvSeamParams prm = prm_make (cases[c].energy, cases[c].mode,
        cases[c].spp, cases[c].order);
    Ctx a = ctx_new ("cpuseamcarve", "width", cases[c].ow, "height",
        cases[c].oh, "show-seams", cases[c].show, NULL);
    Ctx b = ctx_new ("cudaseamcarve", "width", cases[c].ow, "height",
        cases[c].oh, "show-seams", cases[c].show, NULL);
    gchar *d;
    gint t;

    prm.temporal_coherence = cases[c].tc;
    prm.mask_alpha = cases[c].mask_alpha;
    if (prm.mask_alpha)
      for (t = 0; t < cases[c].n; t++) {
        img_fill_alpha (seq[t], 0, 0, cases[c].iw, cases[c].ih, 128);
        img_fill_alpha (seq[t], cases[c].iw / 3, cases[c].ih / 4,
            cases[c].iw / 4, cases[c].ih / 2, 255);
        img_fill_alpha (seq[t], cases[c].iw - 6, 0, 3, cases[c].ih, 0);
      }
    d = prm_describe (&prm);
    apply_prm (a.e, &prm);
    apply_prm (b.e, &prm);
    ctx_set_caps (&a, &seq[0]->info);
    ctx_set_caps (&b, &seq[0]->info);
    for (t = 0; t < cases[c].n; t++) {
      Img *oa = ctx_process (&a, seq[t], LAYOUT_DEFAULT);
      Img *ob = ctx_process (&b, seq[t], (c + t) % N_LAYOUTS);
      gchar *what = g_strdup_printf ("cpuseamcarve vs cudaseamcarve: %s "
          "%dx%d -> %dx%d %s show-seams=%d, frame %d",
          gst_video_format_to_string (cases[c].fmt), cases[c].iw, cases[c].ih,
          cases[c].ow, cases[c].oh, d, cases[c].show, t);
      fail_unless_equals_int (img_w (oa), cases[c].show ? cases[c].iw :
          cases[c].ow);
      fail_unless_equals_int (img_h (oa), cases[c].show ? cases[c].ih :
          cases[c].oh);
      assert_img_equal (ob, oa, what);
      n_compared++;
      g_free (what);
      img_free (oa);
      img_free (ob);
    }
    if (cuda_backend == NULL)
      cuda_backend = get_backend (b.e);
    g_free (d);
    ctx_free (&a);
    ctx_free (&b);
    seq_free (seq, cases[c].n);
  }
  if (g_strcmp0 (cuda_backend, "cuda") == 0) {
    g_print ("test_cpu_cuda_identical: %u frames, CUDA compared with CPU: "
        "identical\n", n_compared);
  } else {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but "
        "cudaseamcarve runs on %s", GST_STR_NULL (cuda_backend));
    g_print ("test_cpu_cuda_identical: no GPU, cudaseamcarve fell back: "
        "compared CPU with CPU (%u frames)\n", n_compared);
  }
  g_free (cuda_backend);
}

GST_END_TEST;

/* cudaseamcarve without CUDA: one warning and the CPU backend, or with
 * fallback=false a RESOURCE error and no start */
GST_START_TEST (test_cuda_fallback)
{
  Img **seq = seq_new (GST_VIDEO_FORMAT_RGBA, 48, 36, 3, 1, 0, 0, 7);
  GcvSeamParams prm = prm_make (L1, FAST, 4, WF);
  Ctx ctx = sc_ctx ("cudaseamcarve", &prm, 30, 30, TRUE);
  gboolean on_gpu;
  gint t;

  ctx_set_caps (&ctx, &seq[0]->info);
  for (t = 0; t < 3; t++) {
    Img *ref = ref_carve (seq[t], 30, 30, &prm, NULL);
    img_free (sc_process_check (&ctx, seq[t], ref, LAYOUT_DEFAULT,
            "fallback"));
    img_free (ref);
  }
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  if (!on_gpu)
    check_no_fallback_fails ("cudaseamcarve");
  seq_free (seq, 3);
}

GST_END_TEST;

static Suite *
seamcarve_suite (void)
{
  Suite *s;
  /* every output buffer must be a frame of its caps */
  TCase *tc = element_suite_tcase ("seamcarve", TRUE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties, 0, n);
  tcase_add_loop_test (tc, test_property_rejection, 0, n);
  tcase_add_loop_test (tc, test_caps_formats, 0, n);
  tcase_add_loop_test (tc, test_negotiation, 0, n);
  tcase_add_loop_test (tc, test_passthrough, 0, n);
  tcase_add_loop_test (tc, test_photos, 0, n);
  tcase_add_loop_test (tc, test_formats_directions, 0, n);
  tcase_add_loop_test (tc, test_modes_orders, 0, n);
  tcase_add_loop_test (tc, test_tiny_sizes, 0, n);
  tcase_add_loop_test (tc, test_large_frame, 0, n);
  tcase_add_loop_test (tc, test_padded_strides, 0, n);
  tcase_add_loop_test (tc, test_caps_change, 0, n);
  tcase_add_loop_test (tc, test_property_change_playing, 0, n);
  tcase_add_loop_test (tc, test_temporal, 0, n);
  tcase_add_loop_test (tc, test_mask_alpha, 0, n);
  tcase_add_loop_test (tc, test_show_seams, 0, n);
  tcase_add_loop_test (tc, test_invalid_input, 0, n);
  tcase_add_loop_test (tc, test_work_bound, 0, n);
  tcase_add_test (tc, test_cpu_cuda_identical);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

GST_CHECK_MAIN (seamcarve);
