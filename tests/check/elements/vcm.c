/* gst-cuda-video: cudavcm / cpuvcm element tests (gst-check).
 *
 * The algorithm itself is tested against an independent reference in
 * tests/vcm_algo_test.c and tests/vcm_cuda_test.c; here the element: caps
 * of every format, passthrough, the "points" meta and its public reader,
 * a real photo translated by (3, -2) pixels per frame, FLUSH and caps
 * changes resetting the history, property validation, the JSON-lines
 * export, the arrows, cudavcm == cpuvcm, P010 tracked as the GRAY8 of its
 * 8-bit luma, and the CPU fallback.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gcv-check.h"
#include <gst/cudavideo/cudavideo.h>
#include "vcm.h"

static const gchar *const element_names[] = { "cpuvcm", "cudavcm" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)

static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
};

/* the motion of the translation tests: content moves 3 right, 2 up */
#define TDX 3
#define TDY (-2)

/* Frame t of the translation: the w x h window of photo @which at
 * (x0 - t TDX, y0 - t TDY), so that the content moves by (TDX, TDY) per
 * frame. */
static Img *
translated (GstVideoFormat fmt, gint w, gint h, gint which, gint t)
{
  return img_from_test_photo_t (fmt, w, h, which, 160 - t * TDX,
      120 - t * TDY, t, 17 + t);
}

/* ------------------------------------------------------------------------ */
/* the meta                                                                 */

typedef struct
{
  gboolean has_reference;
  guint64 frame;
  gint width, height, window_size, template_size, search_size;
  guint n;
  GstCudaVideoMotionPoint *p;
} Meta;

static void
meta_clear (Meta * m)
{
  g_free (m->p);
  memset (m, 0, sizeof (*m));
}

/* The points meta of @buf through the public library: the only motion
 * meta, made by a vcm element, every field, the records as fields and as
 * one block (the same bytes); the blocks reader must refuse them. */
static void
meta_read (GstBuffer * buf, Meta * m, const gchar * what)
{
  GstCudaVideoMotionMeta *meta =
      gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS);
  GList *all = gst_buffer_get_cuda_video_motion_metas (buf);
  const GstCudaVideoMotionPoint *rec;
  GstBuffer *block;
  guint n = G_MAXUINT, nv = 1;

  memset (m, 0, sizeof (*m));
  fail_unless (meta != NULL, "%s: no points meta", what);
  fail_unless (g_list_length (all) == 1 && all->data == meta, "%s: %u motion metas", what,
      g_list_length (all));
  g_list_free (all);
  fail_unless (meta->source != NULL && (g_str_has_prefix (meta->source, "cpuvcm")
          || g_str_has_prefix (meta->source, "cudavcm")), "%s: source %s", what, GST_STR_NULL (meta->source));
  m->has_reference = meta->has_reference;
  m->frame = meta->frame;
  m->width = meta->width;
  m->height = meta->height;
  m->window_size = meta->window_size;
  m->template_size = meta->template_size;
  m->search_size = meta->search_size;
  fail_unless (meta->pts == GST_BUFFER_PTS (buf), "%s: meta pts %" GST_TIME_FORMAT ", buffer %"
      GST_TIME_FORMAT, what, GST_TIME_ARGS (meta->pts), GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  fail_unless (meta->has_reference || meta->reference_pts == GST_CLOCK_TIME_NONE,
      "%s: a reference timestamp without a reference", what);
  fail_unless (meta->block_width == 0 && meta->grid_width == 0 && meta->method == NULL
      && meta->vector_scale == 1, "%s: blocks fields set on a points meta", what);
  fail_unless (gst_cuda_video_motion_meta_get_vectors (meta, &nv) == NULL && nv == 0,
      "%s: the blocks reader accepted a points meta", what);
  rec = gst_cuda_video_motion_meta_get_points (meta, &n);
  fail_unless (n == meta->n_records && (rec != NULL) == (n > 0), "%s: %u records, n_records %u",
      what, n, meta->n_records);
  block = gst_cuda_video_motion_meta_get_records_buffer (meta);
  fail_unless (gst_buffer_get_size (block) == n * sizeof (GstCudaVideoMotionPoint)
      && (n == 0 || gst_buffer_memcmp (block, 0, rec, n * sizeof (GstCudaVideoMotionPoint)) == 0),
      "%s: the records buffer differs from the records", what);
  gst_buffer_unref (block);
  m->n = n;
  m->p = g_new (GstCudaVideoMotionPoint, MAX (n, 1));
  if (n > 0)
    memcpy (m->p, rec, n * sizeof (GstCudaVideoMotionPoint));
}

/* Pushes @in through a running element and pulls the output: its pixels
 * the input's unless @drawn may change them, the meta in @m. */
static GstBuffer *
process (Ctx * ctx, const Img * in, gboolean drawn, Meta * m,
    const gchar * what)
{
  GstBuffer *buf = img_to_buffer (in, LAYOUT_DEFAULT), *out;
  GstMapInfo a, b;
  GstBuffer *copy = gst_buffer_copy_deep (buf);

  ctx_push_expect (ctx, buf, GST_FLOW_OK, what);
  out = gst_harness_try_pull (ctx->h);
  fail_unless (out != NULL, "%s: %s produced no buffer", what, ctx->name);
  check_backend (ctx->e, ctx->name);
  if (!drawn) {
    fail_unless (gst_buffer_map (out, &a, GST_MAP_READ));
    fail_unless (gst_buffer_map (copy, &b, GST_MAP_READ));
    fail_unless (a.size == b.size && memcmp (a.data, b.data, a.size) == 0,
        "%s: draw=false but the pixels changed", what);
    gst_buffer_unmap (out, &a);
    gst_buffer_unmap (copy, &b);
  }
  gst_buffer_unref (copy);
  meta_read (out, m, what);
  return out;
}

/* process() and the frame fields: @has_ref, frame number, size, the params
 * of the element, at most max-points points inside the frame */
static void
process_check (Ctx * ctx, const Img * in, gboolean has_ref, guint64 frame,
    Meta * m, const gchar * what)
{
  gint ws, ts, ss, maxp;
  guint i;

  gst_buffer_unref (process (ctx, in, FALSE, m, what));
  g_object_get (ctx->e, "window-size", &ws, "template-size", &ts,
      "search-size", &ss, "max-points", &maxp, NULL);
  fail_unless (m->has_reference == has_ref, "%s: has-reference %d", what,
      m->has_reference);
  fail_unless (m->frame == frame, "%s: frame %" G_GUINT64_FORMAT
      ", expected %" G_GUINT64_FORMAT, what, m->frame, frame);
  fail_unless (m->width == img_w (in) && m->height == img_h (in));
  fail_unless (m->window_size == ws && m->template_size == ts
      && m->search_size == ss, "%s: params in the meta", what);
  fail_unless (m->n <= (guint) maxp, "%s: %u points > max-points %d", what,
      m->n, maxp);
  if (!has_ref)
    fail_unless (m->n == 0, "%s: %u points without a reference", what, m->n);
  for (i = 0; i < m->n; i++) {
    const GstCudaVideoMotionPoint *p = &m->p[i];
    fail_unless (p->x == floorf (p->x) && p->y == floorf (p->y)
        && p->x >= 0 && p->y >= 0 && p->x < m->width && p->y < m->height,
        "%s: point %u at (%g, %g)", what, i, p->x, p->y);
    fail_unless (fabsf (p->dx) <= ss / 2 && fabsf (p->dy) <= ss / 2
        && p->score <= 1.0f + 1e-6f, "%s: point %u (%g, %g) score %g", what,
        i, p->dx, p->dy, p->score);
  }
}

static gint
cmp_float (gconstpointer a, gconstpointer b)
{
  gfloat x = *(const gfloat *) a, y = *(const gfloat *) b;
  return x < y ? -1 : x > y;
}

/* the median of dx (@axis 0) or dy (1) over the points */
static gdouble
median (const Meta * m, gint axis)
{
  gfloat *v = g_new (gfloat, MAX (m->n, 1));
  gdouble med;
  guint i;

  fail_unless (m->n > 0);
  for (i = 0; i < m->n; i++)
    v[i] = axis ? m->p[i].dy : m->p[i].dx;
  qsort (v, m->n, sizeof (gfloat), cmp_float);
  med = m->n % 2 ? v[m->n / 2] : 0.5 * (v[m->n / 2 - 1] + v[m->n / 2]);
  g_free (v);
  return med;
}

static void
assert_same_points (const Meta * a, const Meta * b, const gchar * what)
{
  fail_unless (a->n == b->n, "%s: %u points vs %u", what, a->n, b->n);
  fail_unless (a->has_reference == b->has_reference, "%s: has-reference",
      what);
  if (a->n > 0)
    fail_unless (memcmp (a->p, b->p, a->n * sizeof (GstCudaVideoMotionPoint)) == 0,
        "%s: the records differ", what);
}

static void
push_flush (Ctx * ctx)
{
  GstSegment seg;

  fail_unless (gst_harness_push_event (ctx->h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (ctx->h,
          gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (ctx->h, gst_event_new_segment (&seg)));
}

/* ------------------------------------------------------------------------ */
/* tests                                                                    */

/* documented properties with gcv_vcm_params_init's defaults; values out of
 * range, even templates and odd search sizes, interest values outside the
 * enum refused with a warning */
GST_START_TEST (test_properties)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GcvVcmParams d;
  gint ws, ppw, mp, st, ts, ss, scale, rs, interest;
  gdouble cr, cs, tw, tsg;
  gboolean sub, draw;
  GParamSpec *ps;
  GValue bad = G_VALUE_INIT;

  check_properties_documented (ctx.e, name);
  gcv_vcm_params_init (&d);
  g_object_get (ctx.e, "window-size", &ws, "points-per-window", &ppw,
      "max-points", &mp, "st-threshold", &st, "template-size", &ts,
      "search-size", &ss, "coherence-radius", &cr, "coherence-sigma", &cs,
      "temporal-weight", &tw, "temporal-sigma", &tsg, "subpixel", &sub,
      "refine-size", &rs, "interest", &interest,
      "draw", &draw, "draw-scale", &scale, NULL);
  fail_unless (ws == d.window_size && ppw == d.points_per_window
      && mp == d.max_points && st == d.st_threshold
      && ts == d.template_size && ss == d.search_size
      && cr == d.coherence_radius && cs == d.coherence_sigma
      && tw == d.temporal_weight && tsg == d.temporal_sigma
      && sub == (d.subpixel != 0) && rs == d.refine_size
      && interest == d.interest && !draw && scale == 1,
      "defaults differ from gcv_vcm_params_init");
  fail_unless (interest == GCV_VCM_INTEREST_CORNER,
      "interest defaults to %d, not corner", interest);

  /* interest: corner and edge by name; other numbers refused */
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (ctx.e), "interest");
  fail_unless (ps != NULL && G_IS_PARAM_SPEC_ENUM (ps));
  g_value_init (&bad, ps->value_type);
  g_value_set_enum (&bad, 7);
  expect_rejected (ctx.e, "interest", &bad, NULL);
  g_value_unset (&bad);
  gst_util_set_object_arg (G_OBJECT (ctx.e), "interest", "edge");
  g_object_get (ctx.e, "interest", &interest, NULL);
  fail_unless (interest == GCV_VCM_INTEREST_EDGE, "interest=edge gave %d",
      interest);
  gst_util_set_object_arg (G_OBJECT (ctx.e), "interest", "corner");
  g_object_get (ctx.e, "interest", &interest, NULL);
  fail_unless (interest == GCV_VCM_INTEREST_CORNER,
      "interest=corner gave %d", interest);

  reject_int (ctx.e, "template-size", 4, "odd");
  reject_int (ctx.e, "template-size", 12, "odd");
  reject_int (ctx.e, "template-size", 15, NULL);
  reject_int (ctx.e, "template-size", 1, NULL);
  reject_int (ctx.e, "search-size", 63, "even");
  reject_int (ctx.e, "search-size", 5, "even");
  reject_int (ctx.e, "search-size", 2, NULL);
  reject_int (ctx.e, "search-size", 130, NULL);
  reject_int (ctx.e, "window-size", 3, NULL);
  reject_int (ctx.e, "window-size", 33, NULL);
  reject_int (ctx.e, "points-per-window", 0, NULL);
  reject_int (ctx.e, "points-per-window", 65, NULL);
  reject_int (ctx.e, "max-points", 0, NULL);
  reject_int (ctx.e, "max-points", 65537, NULL);
  reject_int (ctx.e, "st-threshold", 255, NULL);
  reject_int (ctx.e, "draw-scale", 0, NULL);
  reject_double (ctx.e, "coherence-radius", 64.5);
  reject_double (ctx.e, "coherence-sigma", 0.05);
  reject_double (ctx.e, "temporal-weight", -1.0);
  reject_double (ctx.e, "temporal-sigma", 1001.0);
  /* accepted values stay */
  g_object_set (ctx.e, "template-size", 13, "search-size", 4, NULL);
  g_object_get (ctx.e, "template-size", &ts, "search-size", &ss, NULL);
  fail_unless (ts == 13 && ss == 4);
  ctx_free (&ctx);
}

GST_END_TEST;

/* every format: the caps pass unchanged, the pixels too (draw=false), the
 * first frame has no reference and no points, later ones the meta */
GST_START_TEST (test_formats)
{
  const gchar *name = element_names[__i__];
  guint f;

  for (f = 0; f < G_N_ELEMENTS (all_formats); f++) {
    GstVideoFormat fmt = all_formats[f];
    Ctx ctx = ctx_new (name, "max-points", 100, NULL);
    gchar *what;
    gint t;

    for (t = 0; t < 3; t++) {
      Img *in = translated (fmt, 96, 72, f, t);
      Meta m;
      if (t == 0)
        ctx_set_caps (&ctx, &in->info);
      what = g_strdup_printf ("%s %s frame %d", name,
          gst_video_format_to_string (fmt), t);
      process_check (&ctx, in, t > 0, t, &m, what);
      if (t > 0)
        fail_unless (m.n > 0, "%s: no points", what);
      ctx_check_out_caps (&ctx, fmt, 96, 72, 0, 0, what);
      meta_clear (&m);
      img_free (in);
      g_free (what);
    }
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* a real photo moving (3, -2) pixels a frame: the median vector is within
 * 0.5 px of it (the brief's minimum; the algorithm tests check far more) */
GST_START_TEST (test_translation)
{
  const gchar *name = element_names[__i__];
  gint which;

  for (which = 0; which < 3; which++) {
    static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
      GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_P010_10LE
    };
    Ctx ctx = ctx_new (name, NULL);
    gint t;

    for (t = 0; t < 4; t++) {
      Img *in = translated (fmts[which], 320, 240, which, t);
      gchar *what = g_strdup_printf ("%s photo %d frame %d", name, which, t);
      Meta m;
      if (t == 0)
        ctx_set_caps (&ctx, &in->info);
      process_check (&ctx, in, t > 0, t, &m, what);
      if (t > 0) {
        gdouble mx = median (&m, 0), my = median (&m, 1);
        fail_unless (m.n >= 20, "%s: only %u points", what, m.n);
        fail_unless (fabs (mx - TDX) <= 0.5 && fabs (my - TDY) <= 0.5,
            "%s: median vector (%g, %g), expected (%d, %d)", what, mx, my,
            TDX, TDY);
      }
      meta_clear (&m);
      img_free (in);
      g_free (what);
    }
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* FLUSH: the next frame has no reference, and what follows equals a fresh
 * element's output (the temporal history is gone too); a caps change
 * (size, then format) resets the same way */
GST_START_TEST (test_reset)
{
  const gchar *name = element_names[__i__];
  Img *f[5];
  Ctx ctx = ctx_new (name, NULL), fresh = ctx_new (name, NULL);
  Meta m, r;
  Img *small0, *small1, *nv0;
  gint t;

  for (t = 0; t < 5; t++)
    f[t] = translated (GST_VIDEO_FORMAT_I420, 160, 120, 2, t);
  ctx_set_caps (&ctx, &f[0]->info);
  ctx_set_caps (&fresh, &f[0]->info);
  for (t = 0; t < 3; t++) {
    process_check (&ctx, f[t], t > 0, t, &m, "before the flush");
    meta_clear (&m);
  }
  push_flush (&ctx);
  for (t = 3; t < 5; t++) {
    process_check (&ctx, f[t], t > 3, t, &m, "after the flush");
    process_check (&fresh, f[t], t > 3, t - 3, &r, "fresh element");
    assert_same_points (&m, &r, "after a flush vs a fresh element");
    meta_clear (&m);
    meta_clear (&r);
  }

  /* another size, then the same size in another format */
  small0 = translated (GST_VIDEO_FORMAT_I420, 128, 96, 2, 0);
  small1 = translated (GST_VIDEO_FORMAT_I420, 128, 96, 2, 1);
  ctx_set_caps (&ctx, &small0->info);
  process_check (&ctx, small0, FALSE, 5, &m, "after a size change");
  meta_clear (&m);
  process_check (&ctx, small1, TRUE, 6, &m, "after a size change");
  meta_clear (&m);
  nv0 = translated (GST_VIDEO_FORMAT_NV12, 128, 96, 2, 2);
  ctx_set_caps (&ctx, &nv0->info);
  process_check (&ctx, nv0, FALSE, 7, &m, "after a format change");
  meta_clear (&m);

  for (t = 0; t < 5; t++)
    img_free (f[t]);
  img_free (small0);
  img_free (small1);
  img_free (nv0);
  ctx_free (&ctx);
  ctx_free (&fresh);
}

GST_END_TEST;

/* template-size > search-size: a LIBRARY SETTINGS error naming both when
 * the element starts, and at the next frame when set while playing */
GST_START_TEST (test_template_larger_than_search)
{
  const gchar *name = element_names[__i__];
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! %s name=v "
      "template-size=13 search-size=12 ! fakesink", name);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  GError *err = NULL;
  Img *a = translated (GST_VIDEO_FORMAT_GRAY8, 64, 48, 0, 0);
  Ctx ctx;
  Meta m;
  gchar *text = NULL;

  fail_unless (pipe != NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = bus_pop_type (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "%s started with template-size > search-size", name);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_SETTINGS), "error %s", err->message);
  fail_unless (strstr (err->message, "template-size 13") != NULL
      && strstr (err->message, "search-size 12") != NULL, "message: %s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);

  /* while playing (the settings policy): one WARNING, and the frames go
   * on with the last usable settings (the meta says which) */
  ctx = ctx_new (name, NULL);
  ctx_set_caps (&ctx, &a->info);
  process_check (&ctx, a, FALSE, 0, &m, "before the change");
  {
    gint kept = m.search_size, k;

    meta_clear (&m);
    g_object_set (ctx.e, "search-size", 4, NULL);
    for (k = 1; k <= 2; k++) {
      gst_buffer_unref (process (&ctx, a, FALSE, &m, "search-size 4"));
      fail_unless (m.search_size == kept && m.frame == (guint64) k,
          "%s: frame %" G_GUINT64_FORMAT " searched %d, not the last usable "
          "%d", name, m.frame, m.search_size, kept);
      meta_clear (&m);
    }
  }
  fail_unless (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR,
          &text) == 1, "not one settings warning for two frames");
  fail_unless (text && strstr (text, "search-size 4"), "message: %s",
      GST_STR_NULL (text));
  g_free (text);
  /* fixed: the new settings are taken */
  g_object_set (ctx.e, "search-size", 8, NULL);
  process_check (&ctx, a, TRUE, 3, &m, "after the fix");
  meta_clear (&m);
  img_free (a);
  ctx_free (&ctx);
}

GST_END_TEST;

/* points-per-window larger than window-size^2: a settings error naming it
 * when the element starts */
GST_START_TEST (test_points_per_window_too_many)
{
  const gchar *name = element_names[__i__];
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=64,height=48 ! %s "
      "window-size=4 points-per-window=17 ! fakesink", name);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = bus_pop_type (bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
      "%s started with 17 points in 4x4 windows", name);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR,
          GST_LIBRARY_ERROR_SETTINGS)
      && strstr (err->message, "points-per-window 17") != NULL, "error: %s",
      err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_free (desc);
}

GST_END_TEST;

/* properties set while playing are taken at the next frame (the meta
 * reports them; max-points holds) */
GST_START_TEST (test_params_playing)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  gint t;

  for (t = 0; t < 4; t++) {
    Img *in = translated (GST_VIDEO_FORMAT_NV12, 160, 120, 5, t);
    Meta m;
    if (t == 0)
      ctx_set_caps (&ctx, &in->info);
    if (t == 2)
      g_object_set (ctx.e, "max-points", 7, "window-size", 8,
          "template-size", 7, "search-size", 16, "subpixel", FALSE, NULL);
    /* process_check compares the meta with the properties */
    process_check (&ctx, in, t > 0, t, &m, "params while playing");
    if (t >= 2) {
      guint i;
      fail_unless (m.n > 0 && m.n <= 7, "%u points, max-points 7", m.n);
      for (i = 0; i < m.n; i++)
        fail_unless (m.p[i].dx == floorf (m.p[i].dx)
            && m.p[i].dy == floorf (m.p[i].dy), "subpixel=false: (%g, %g)",
            m.p[i].dx, m.p[i].dy);
    }
    meta_clear (&m);
    img_free (in);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

/* the next number of a JSON array at *p (after '[' or ','), skipping
 * those */
static gdouble
json_next_number (const gchar ** p, const gchar * what)
{
  gchar *end;
  gdouble v;

  while (**p == '[' || **p == ',')
    (*p)++;
  v = g_ascii_strtod (*p, &end);
  fail_unless (end != *p, "%s: no number at \"%.20s\"", what, *p);
  *p = end;
  return v;
}

/* location: one JSON line per frame, the fields and the points of the meta
 * (each float written with the digits that read back as that float: the
 * numbers equal the meta's exactly) */
GST_START_TEST (test_location)
{
  const gchar *name = element_names[__i__];
  gchar *path = g_build_filename (g_get_tmp_dir (), "gcv-vcm-XXXXXX.jsonl",
      NULL), *contents = NULL, **lines;
  gint fd = g_mkstemp (path), t;
  Meta ms[3];
  Ctx ctx;

  fail_unless (fd >= 0);
  g_close (fd, NULL);
  ctx = ctx_new (name, "location", path, "max-points", 200, NULL);
  for (t = 0; t < 3; t++) {
    Img *in = translated (GST_VIDEO_FORMAT_Y42B, 96, 64, 3, t);
    if (t == 0)
      ctx_set_caps (&ctx, &in->info);
    process_check (&ctx, in, t > 0, t, &ms[t], "location");
    img_free (in);
  }
  ctx_free (&ctx);              /* stops: the file is closed */

  fail_unless (g_file_get_contents (path, &contents, NULL, NULL));
  fail_unless (g_str_has_suffix (contents, "\n"));
  lines = g_strsplit (contents, "\n", -1);
  fail_unless (g_strv_length (lines) == 4 && lines[3][0] == '\0',
      "%u lines", g_strv_length (lines));
  for (t = 0; t < 3; t++) {
    const gchar *l = lines[t], *p;
    gchar *head = g_strdup_printf ("{\"frame\":%d,\"pts\":", t);
    gchar *fields = g_strdup_printf ("\"has_reference\":%s,\"width\":96,"
        "\"height\":64,\"n_points\":%u,\"window_size\":16,"
        "\"template_size\":5,\"search_size\":64,\"fields\":[\"x\",\"y\","
        "\"dx\",\"dy\",\"score\"],\"points\":[", t ? "true" : "false",
        ms[t].n);
    guint i, k;

    fail_unless (g_str_has_prefix (l, head), "line %d: %s", t, l);
    fail_unless (strstr (l, fields) != NULL, "line %d lacks %s", t, fields);
    fail_unless (g_str_has_suffix (l, "]}"), "line %d end", t);
    p = strstr (l, "\"points\":[") + strlen ("\"points\":[");
    for (i = 0; i < ms[t].n; i++) {
      const gfloat *rec = &ms[t].p[i].x;
      for (k = 0; k < 5; k++) {
        gdouble v = json_next_number (&p, "location");
        fail_unless ((gfloat) v == rec[k] && (gdouble) (gfloat) v == v,
            "line %d point %u field %u: %.17g vs %.9g", t, i, k, v, rec[k]);
      }
      fail_unless (*p == ']', "line %d point %u: 5 numbers", t, i);
      p++;
    }
    fail_unless (g_str_equal (p, "]}"), "line %d: after the points: %s", t,
        p);
    g_free (head);
    g_free (fields);
    meta_clear (&ms[t]);
  }
  g_strfreev (lines);
  g_free (contents);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* draw=true paints arrows where points are (luma changed, same meta as
 * without drawing); the first frame, without points, stays as it was */
GST_START_TEST (test_draw)
{
  const gchar *name = element_names[__i__];
  Ctx plain = ctx_new (name, NULL), drawn = ctx_new (name, "draw", TRUE,
      "draw-scale", 2, NULL);
  gint t;

  for (t = 0; t < 3; t++) {
    Img *in = translated (GST_VIDEO_FORMAT_I420, 160, 120, 1, t), *out;
    GstBuffer *ob;
    GstCaps *caps;
    Meta a, b;
    guint changed = 0, i, painted = 0;
    gint x, y;

    if (t == 0) {
      ctx_set_caps (&plain, &in->info);
      ctx_set_caps (&drawn, &in->info);
    }
    gst_buffer_unref (process (&plain, in, FALSE, &a, "draw=false"));
    ob = process (&drawn, in, TRUE, &b, "draw=true");
    assert_same_points (&a, &b, "draw=true vs false");
    caps = gst_pad_get_current_caps (drawn.h->sinkpad);
    out = img_from_buffer (ob, caps);
    gst_caps_unref (caps);
    for (y = 0; y < 120; y++)
      for (x = 0; x < 160; x++)
        if (img_get (out, 0, x, y) != img_get (in, 0, x, y)) {
          changed++;
          painted = img_get (out, 0, x, y);
        }
    if (t == 0) {
      fail_unless (changed == 0, "frame 0: %u pixels painted", changed);
    } else {
      fail_unless (b.n > 0 && changed > 0, "frame %d: %u points, %u pixels "
          "painted", t, b.n, changed);
      /* every arrow starts at its point: painted in the arrows' luma */
      for (i = 0; i < b.n; i++)
        fail_unless (img_get (out, 0, (gint) b.p[i].x, (gint) b.p[i].y) ==
            painted, "no arrow at point %u (%g, %g)", i, b.p[i].x, b.p[i].y);
    }
    gst_buffer_unref (ob);
    meta_clear (&a);
    meta_clear (&b);
    img_free (out);
    img_free (in);
  }
  ctx_free (&plain);
  ctx_free (&drawn);
}

GST_END_TEST;

/* P010 by another route: the element on P010 frames (a translated photo,
 * low bits that are not zero in a third of the words) gives the points it
 * gives on GRAY8 frames holding (v + 128) / 257 of each luma word, with
 * both interest measures and the temporal term on */
GST_START_TEST (test_p010_as_gray8)
{
  const gchar *name = element_names[__i__];
  static const gchar *const interest[] = { "corner", "edge" };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (interest); k++) {
    Ctx a = ctx_new (name, "temporal-weight", 1.0, NULL);
    Ctx b = ctx_new (name, "temporal-weight", 1.0, NULL);
    gint t;

    gst_util_set_object_arg (G_OBJECT (a.e), "interest", interest[k]);
    gst_util_set_object_arg (G_OBJECT (b.e), "interest", interest[k]);
    for (t = 0; t < 4; t++) {
      Img *in = translated (GST_VIDEO_FORMAT_P010_10LE, 173, 131, 3, t);
      Img *gray = img_new (GST_VIDEO_FORMAT_GRAY8, 173, 131);
      gchar *what = g_strdup_printf ("%s P010 vs GRAY8, interest=%s, frame %d",
          name, interest[k], t);
      Meta ma, mb;
      gint x, y;

      img_p010_low_bits (in, 900 + t);
      for (y = 0; y < 131; y++)
        for (x = 0; x < 173; x++)
          img_set (gray, 0, x, y, (img_get (in, 0, x, y) + 128) / 257);
      if (t == 0) {
        ctx_set_caps (&a, &in->info);
        ctx_set_caps (&b, &gray->info);
      }
      gst_buffer_unref (process (&a, in, FALSE, &ma, what));
      gst_buffer_unref (process (&b, gray, FALSE, &mb, what));
      fail_unless (t == 0 || mb.n > 0, "%s: no points", what);
      assert_same_points (&ma, &mb, what);
      meta_clear (&ma);
      meta_clear (&mb);
      img_free (in);
      img_free (gray);
      g_free (what);
    }
    ctx_free (&a);
    ctx_free (&b);
  }
}

GST_END_TEST;

/* cudavcm gives cpuvcm's records byte for byte (compared CPU with CPU when
 * cudavcm fell back) */
GST_START_TEST (test_cpu_cuda_identical)
{
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_P010_10LE
  };
  Ctx a = ctx_new ("cpuvcm", "temporal-weight", 1.0, NULL);
  Ctx b = ctx_new ("cudavcm", "temporal-weight", 1.0, NULL);
  gchar *backend;
  guint f, compared = 0;
  gint t;

  /* both interest measures: the corner one (the default) on GRAY8 and
   * NV12, the paper's edge one on Y444 and P010 */
  for (f = 0; f < G_N_ELEMENTS (fmts); f++) {
    if (f == 2) {
      gst_util_set_object_arg (G_OBJECT (a.e), "interest", "edge");
      gst_util_set_object_arg (G_OBJECT (b.e), "interest", "edge");
    }
    for (t = 0; t < 4; t++) {
      Img *in = translated (fmts[f], 200 - 37 * f, 150 - 21 * f, f, t);
      Meta ma, mb;
      if (t == 0) {
        ctx_set_caps (&a, &in->info);
        ctx_set_caps (&b, &in->info);
      }
      gst_buffer_unref (process (&a, in, FALSE, &ma, "cpu"));
      gst_buffer_unref (process (&b, in, FALSE, &mb, "cuda"));
      assert_same_points (&ma, &mb, "cpuvcm vs cudavcm");
      compared += ma.n;
      meta_clear (&ma);
      meta_clear (&mb);
      img_free (in);
    }
  }
  backend = get_backend (b.e);
  if (g_strcmp0 (backend, "cuda") == 0) {
    g_print ("test_cpu_cuda_identical: %u points, CUDA identical to CPU\n",
        compared);
  } else {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but cudavcm runs "
        "on %s", GST_STR_NULL (backend));
    g_print ("test_cpu_cuda_identical: no GPU, cudavcm fell back: compared "
        "CPU with CPU (%u points)\n", compared);
  }
  g_free (backend);
  ctx_free (&a);
  ctx_free (&b);
}

GST_END_TEST;

/* cudavcm without CUDA: one warning and the CPU backend, or with
 * fallback=false a RESOURCE error and no start */
GST_START_TEST (test_cuda_fallback)
{
  Ctx ctx = ctx_new ("cudavcm", NULL);
  gboolean on_gpu;
  gint t;

  for (t = 0; t < 2; t++) {
    Img *in = translated (GST_VIDEO_FORMAT_I420, 64, 48, 0, t);
    Meta m;
    if (t == 0)
      ctx_set_caps (&ctx, &in->info);
    process_check (&ctx, in, t > 0, t, &m, "fallback");
    meta_clear (&m);
    img_free (in);
  }
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);
  if (!on_gpu)
    check_no_fallback_fails ("cudavcm");
}

GST_END_TEST;

/* tiny and odd frames (smaller than a window, than the template) never
 * crash: no points */
GST_START_TEST (test_odd_sizes)
{
  const gchar *name = element_names[__i__];
  static const gint sizes[][2] = { {1, 1}, {2, 3}, {7, 5}, {17, 3}, {41, 29} };
  guint s;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
    Ctx ctx = ctx_new (name, NULL);
    gint t;
    for (t = 0; t < 3; t++) {
      Img *in = translated (s % 2 ? GST_VIDEO_FORMAT_P010_10LE :
          GST_VIDEO_FORMAT_I420, sizes[s][0], sizes[s][1], s, t);
      Meta m;
      if (t == 0)
        ctx_set_caps (&ctx, &in->info);
      process_check (&ctx, in, t > 0, t, &m, "odd size");
      meta_clear (&m);
      img_free (in);
    }
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* a buffer smaller than its caps: an error, no crash; a good frame after
 * it is tracked against the last good frame or has no reference */
GST_START_TEST (test_invalid_input)
{
  const gchar *name = element_names[__i__];
  Img *a = translated (GST_VIDEO_FORMAT_I420, 64, 48, 4, 0);
  Img *b = translated (GST_VIDEO_FORMAT_I420, 64, 48, 4, 1);
  const gsize sizes[] = { 10, GST_VIDEO_INFO_SIZE (&a->info) - 1, 0 };
  Ctx ctx = ctx_new (name, NULL);
  Meta m;
  guint i;

  ctx_set_caps (&ctx, &a->info);
  process_check (&ctx, a, FALSE, 0, &m, "before");
  meta_clear (&m);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GstBuffer *small = gst_buffer_new_allocate (NULL, sizes[i], NULL);
    gchar *text = NULL;
    if (sizes[i])
      gst_buffer_memset (small, 0, 0x5a, sizes[i]);
    GST_BUFFER_PTS (small) = 0;
    ctx_push_expect (&ctx, small, GST_FLOW_ERROR, "buffer smaller than its "
        "caps");
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
    fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, &text) == 1,
        "%s: no error message for a buffer of %" G_GSIZE_FORMAT " bytes",
        name, sizes[i]);
    g_free (text);
  }
  gst_buffer_unref (process (&ctx, b, FALSE, &m, "after bad buffers"));
  fail_unless (m.has_reference || m.n == 0);
  meta_clear (&m);
  ctx_free (&ctx);
  img_free (a);
  img_free (b);
}

GST_END_TEST;

static Suite *
vcm_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("vcm", TRUE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties, 0, n);
  tcase_add_loop_test (tc, test_formats, 0, n);
  tcase_add_loop_test (tc, test_translation, 0, n);
  tcase_add_loop_test (tc, test_reset, 0, n);
  tcase_add_loop_test (tc, test_template_larger_than_search, 0, n);
  tcase_add_loop_test (tc, test_points_per_window_too_many, 0, n);
  tcase_add_loop_test (tc, test_params_playing, 0, n);
  tcase_add_loop_test (tc, test_location, 0, n);
  tcase_add_loop_test (tc, test_draw, 0, n);
  tcase_add_loop_test (tc, test_odd_sizes, 0, n);
  tcase_add_loop_test (tc, test_invalid_input, 0, n);
  tcase_add_loop_test (tc, test_p010_as_gray8, 0, n);
  tcase_add_test (tc, test_cpu_cuda_identical);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

GST_CHECK_MAIN (vcm);
