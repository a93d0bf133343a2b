/* gst-cuda-video: helpers shared by the gst-check element tests (see
 * gcv-check.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "gcv-check.h"

#include <gst/cudavideo/cudavideo.h>

#include <stdlib.h>
#include <string.h>

gboolean
require_gpu (void)
{
  return g_strcmp0 (g_getenv ("GST_CUDA_VIDEO_REQUIRE_GPU"), "1") == 0;
}

gboolean
gcv_check_quick (void)
{
  return gcv_test_env_flag ("GCV_TEST_QUICK") != 0;
}

/* ------------------------------------------------------------------------ */
/* warnings                                                                 */

gboolean expecting_warning = FALSE;
guint n_warnings = 0;
gchar *last_warning = NULL;

static void
log_handler (const gchar * domain, GLogLevelFlags level, const gchar * message,
    gpointer user_data)
{
  if (level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)) {
    if (expecting_warning && (level & G_LOG_LEVEL_WARNING)) {
      n_warnings++;
      g_free (last_warning);
      last_warning = g_strdup (message);
      return;
    }
    g_printerr ("\nUnexpected %s [%s]: %s\n",
        (level & G_LOG_LEVEL_CRITICAL) ? "critical" : "warning",
        domain ? domain : "(default)", message);
    fail ("Unexpected critical/warning [%s]: %s",
        domain ? domain : "(default)", message);
    return;
  }
  g_log_default_handler (domain, level, message, user_data);
}

void
setup_log_handlers (void)
{
  static const gchar *const domains[] = { "GLib-GObject", "GStreamer", "GLib",
    "GLib-GIO", "GStreamer-Video", "GStreamer-Base", "cudavideo",
    "gst-cuda-video", "GStreamer-CudaVideo",
  };
  guint i;

  /* the plugin's own log domain is not known here: catch every domain that
   * has no handler of its own through the default handler as well */
  g_log_set_always_fatal (G_LOG_FATAL_MASK);
  g_log_set_handler (NULL, G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL,
      log_handler, NULL);
  for (i = 0; i < G_N_ELEMENTS (domains); i++)
    g_log_set_handler (domains[i], G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL,
        log_handler, NULL);
  g_log_set_default_handler (log_handler, NULL);
  expecting_warning = FALSE;
  n_warnings = 0;
}

/* ------------------------------------------------------------------------ */
/* deterministic pseudo random numbers                                      */

static guint32 rng_state = 0x9e3779b9;

void
rng_seed (guint32 seed)
{
  rng_state = seed ? seed : 0x9e3779b9;
}

guint32
rng_next (void)
{
  guint32 x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

gint
rng_range (gint lo, gint hi)
{
  return lo + (gint) (rng_next () % (guint32) (hi - lo + 1));
}

/* ------------------------------------------------------------------------ */
/* images in GStreamer's default layout for a format                        */

Img *
img_new (GstVideoFormat fmt, gint w, gint h)
{
  Img *im = g_new0 (Img, 1);

  fail_unless (gst_video_info_set_format (&im->info, fmt, w, h));
  GST_VIDEO_INFO_FPS_N (&im->info) = 30;
  GST_VIDEO_INFO_FPS_D (&im->info) = 1;
  im->data = g_malloc0 (GST_VIDEO_INFO_SIZE (&im->info));
  return im;
}

void
img_free (Img * im)
{
  if (im) {
    g_free (im->data);
    g_free (im);
  }
}

gint
img_w (const Img * im)
{
  return GST_VIDEO_INFO_WIDTH (&im->info);
}

gint
img_h (const Img * im)
{
  return GST_VIDEO_INFO_HEIGHT (&im->info);
}

GstVideoFormat
img_format (const Img * im)
{
  return GST_VIDEO_INFO_FORMAT (&im->info);
}

gint
img_n_comps (const Img * im)
{
  return (gint) GST_VIDEO_INFO_N_COMPONENTS (&im->info);
}

gint
comp_byte_offset (const GstVideoInfo * info, gint c)
{
  /* P010: U in bytes 0-1, V in bytes 2-3 of each UV pair (GStreamer 1.22's
   * poffset of V says 1) */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_P010_10LE)
    return c == GST_VIDEO_COMP_V ? 2 : 0;
  return (gint) GST_VIDEO_INFO_COMP_POFFSET (info, c);
}

guint8 *
img_comp_ptr (const Img * im, gint c, gint x, gint y)
{
  const GstVideoInfo *info = &im->info;
  gint p = GST_VIDEO_INFO_COMP_PLANE (info, c);

  return im->data + GST_VIDEO_INFO_PLANE_OFFSET (info, p) +
      (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (info, p) +
      (gsize) x * GST_VIDEO_INFO_COMP_PSTRIDE (info, c) +
      comp_byte_offset (info, c);
}

guint
img_get (const Img * im, gint c, gint x, gint y)
{
  const guint8 *p = img_comp_ptr (im, c, x, y);
  if (GST_VIDEO_INFO_COMP_DEPTH (&im->info, c) > 8)
    return GST_READ_UINT16_LE (p);
  return *p;
}

void
img_set (Img * im, gint c, gint x, gint y, guint v)
{
  guint8 *p = img_comp_ptr (im, c, x, y);
  if (GST_VIDEO_INFO_COMP_DEPTH (&im->info, c) > 8)
    GST_WRITE_UINT16_LE (p, v);
  else
    *p = v;
}

guint
p010_round (guint v)
{
  guint code = (v + 32) / 64;

  return MIN (code, 1023) << 6;
}

Img *
img_comp_gray16 (const Img * im, gint c)
{
  gint w = GST_VIDEO_INFO_COMP_WIDTH (&im->info, c);
  gint h = GST_VIDEO_INFO_COMP_HEIGHT (&im->info, c), x, y;
  Img *g = img_new (GST_VIDEO_FORMAT_GRAY16_LE, w, h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      img_set (g, 0, x, y, img_get (im, c, x, y));
  return g;
}

void
img_p010_low_bits (Img * im, guint32 seed)
{
  gint c, x, y;

  fail_unless (img_format (im) == GST_VIDEO_FORMAT_P010_10LE);
  rng_seed (seed);
  for (c = 0; c < img_n_comps (im); c++)
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&im->info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&im->info, c); x++)
        if (rng_next () % 3 == 0)
          img_set (im, c, x, y, (img_get (im, c, x, y) & 0xffc0) | rng_range (1, 63));
}

gboolean
format_is_rgb (GstVideoFormat fmt)
{
  return GST_VIDEO_FORMAT_INFO_IS_RGB (gst_video_format_get_info (fmt));
}

gboolean
format_is_gray (GstVideoFormat fmt)
{
  return GST_VIDEO_FORMAT_INFO_IS_GRAY (gst_video_format_get_info (fmt));
}

gsize
plane_row_bytes (const GstVideoInfo * info, gint p)
{
  gint c;
  gsize bytes = 0;

  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if ((gint) GST_VIDEO_INFO_COMP_PLANE (info, c) == p) {
      gsize b = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) *
          GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
      bytes = MAX (bytes, b);
    }
  }
  return bytes;
}

gint
plane_rows (const GstVideoInfo * info, gint p)
{
  gint c;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if ((gint) GST_VIDEO_INFO_COMP_PLANE (info, c) == p)
      return GST_VIDEO_INFO_COMP_HEIGHT (info, c);
  g_assert_not_reached ();
  return 0;
}

gint
plane_first_comp (const GstVideoInfo * info, gint p)
{
  gint c;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if ((gint) GST_VIDEO_INFO_COMP_PLANE (info, c) == p)
      return c;
  g_assert_not_reached ();
  return -1;
}

/* ------------------------------------------------------------------------ */
/* buffers                                                                  */

const gchar *const layout_names[N_LAYOUTS] = { "default", "aligned", "odd" };

static guint32 frame_counter = 0;

GstBuffer *
img_to_buffer (const Img * im, Layout layout)
{
  GstVideoInfo info = im->info;
  GstVideoFrame frame;
  GstBuffer *buf;
  GstMapInfo map;
  gint p, y;
  gsize i;

  if (layout == LAYOUT_ALIGNED) {
    GstVideoAlignment align;
    gst_video_alignment_reset (&align);
    align.padding_top = 4;
    align.padding_bottom = 2;
    align.padding_left = 6;
    align.padding_right = 10;
    for (p = 0; p < GST_VIDEO_MAX_PLANES; p++)
      align.stride_align[p] = 31;
    fail_unless (gst_video_info_align (&info, &align));
  } else if (layout == LAYOUT_ODD_STRIDE) {
    /* rows packed as tightly as the samples allow plus a few samples: odd
     * strides for 8-bit planes, strides that are a multiple of the sample
     * size otherwise; planes 16-byte aligned */
    gsize offset = 0;
    for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (&info); p++) {
      gint c, unit = 1;
      for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (&info); c++)
        if ((gint) GST_VIDEO_INFO_COMP_PLANE (&info, c) == p)
          unit = MAX (unit, GST_VIDEO_INFO_COMP_PSTRIDE (&info, c));
      offset = (offset + 16 + 15) & ~(gsize) 15;
      GST_VIDEO_INFO_PLANE_STRIDE (&info, p) = plane_row_bytes (&info, p) +
          (unit == 1 ? 3 + 2 * p : 3 * unit);
      GST_VIDEO_INFO_PLANE_OFFSET (&info, p) = offset;
      offset += (gsize) GST_VIDEO_INFO_PLANE_STRIDE (&info, p) *
          plane_rows (&info, p);
    }
    GST_VIDEO_INFO_SIZE (&info) = offset + 7;
  }

  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (buf != NULL);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  rng_seed (0xC0FFEE ^ (frame_counter * 7919u) ^ (guint32) map.size);
  for (i = 0; i < map.size; i++)
    map.data[i] = rng_next () >> 24;
  gst_buffer_unmap (buf, &map);

  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gsize row = plane_row_bytes (&im->info, p);
    for (y = 0; y < plane_rows (&im->info, p); y++) {
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
          im->data + GST_VIDEO_INFO_PLANE_OFFSET (&im->info, p) +
          (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&im->info, p), row);
    }
  }
  gst_video_frame_unmap (&frame);

  if (layout != LAYOUT_DEFAULT) {
    fail_unless (gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
            GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_INFO_WIDTH (&info),
            GST_VIDEO_INFO_HEIGHT (&info), (gint) GST_VIDEO_INFO_N_PLANES (&info),
            info.offset, info.stride) != NULL);
  }

  GST_BUFFER_PTS (buf) = frame_counter * (GST_SECOND / 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  frame_counter++;
  return buf;
}

void
check_buffer_layout (GstBuffer * buf, const GstVideoInfo * info,
    const gchar * what)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  gint p;

  if (meta == NULL) {
    fail_unless (size == GST_VIDEO_INFO_SIZE (info), "%s: buffer of %"
        G_GSIZE_FORMAT " bytes without GstVideoMeta, caps (%s %dx%d) say %"
        G_GSIZE_FORMAT, what, size, GST_VIDEO_INFO_NAME (info),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        (gsize) GST_VIDEO_INFO_SIZE (info));
    return;
  }
  fail_unless_equals_int (meta->format, GST_VIDEO_INFO_FORMAT (info));
  fail_unless_equals_int (meta->width, GST_VIDEO_INFO_WIDTH (info));
  fail_unless_equals_int (meta->height, GST_VIDEO_INFO_HEIGHT (info));
  fail_unless_equals_int (meta->n_planes, GST_VIDEO_INFO_N_PLANES (info));
  for (p = 0; p < (gint) meta->n_planes; p++) {
    gsize row = plane_row_bytes (info, p);
    gint rows = plane_rows (info, p);
    fail_unless (meta->stride[p] >= (gint) row, "%s: plane %d stride %d < "
        "%" G_GSIZE_FORMAT " bytes of pixels", what, p, meta->stride[p], row);
    fail_unless (meta->offset[p] + (gsize) meta->stride[p] * (rows - 1) + row
        <= size, "%s: plane %d (offset %" G_GSIZE_FORMAT ", stride %d, %d "
        "rows) does not fit in %" G_GSIZE_FORMAT " bytes", what, p,
        meta->offset[p], meta->stride[p], rows, size);
  }
}

gboolean check_output_layouts = FALSE;

Img *
img_from_buffer (GstBuffer * buf, GstCaps * caps)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  Img *im;
  gint p, y;

  fail_unless (gst_video_info_from_caps (&info, caps));
  if (check_output_layouts)
    check_buffer_layout (buf, &info, "output");
  im = img_new (GST_VIDEO_INFO_FORMAT (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info));
  im->info.fps_n = info.fps_n;
  im->info.fps_d = info.fps_d;
  im->info.par_n = info.par_n;
  im->info.par_d = info.par_d;
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ),
      "could not map output buffer of %" G_GSIZE_FORMAT " bytes",
      gst_buffer_get_size (buf));
  for (p = 0; p < (gint) GST_VIDEO_INFO_N_PLANES (&im->info); p++) {
    gsize row = plane_row_bytes (&im->info, p);
    for (y = 0; y < plane_rows (&im->info, p); y++) {
      memcpy (im->data + GST_VIDEO_INFO_PLANE_OFFSET (&im->info, p) +
          (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&im->info, p),
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p), row);
    }
  }
  gst_video_frame_unmap (&frame);
  return im;
}

void
assert_img_equal (const Img * a, const Img * b, const gchar * what)
{
  gint c, x, y, bad = 0, fx = -1, fy = -1, fc = -1;
  guint va = 0, vb = 0;

  fail_unless (img_format (a) == img_format (b), "%s: format %s vs %s", what,
      gst_video_format_to_string (img_format (a)),
      gst_video_format_to_string (img_format (b)));
  fail_unless (img_w (a) == img_w (b) && img_h (a) == img_h (b),
      "%s: size %dx%d vs %dx%d", what, img_w (a), img_h (a), img_w (b),
      img_h (b));
  for (c = 0; c < img_n_comps (a); c++) {
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&a->info, c); y++) {
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&a->info, c); x++) {
        guint u = img_get (a, c, x, y), v = img_get (b, c, x, y);
        if (u != v) {
          if (bad++ == 0) {
            fx = x;
            fy = y;
            fc = c;
            va = u;
            vb = v;
          }
        }
      }
    }
  }
  fail_unless (bad == 0, "%s: %d samples differ, first at comp %d (%d,%d): "
      "%u vs %u", what, bad, fc, fx, fy, va, vb);
}

Img *
img_dup (const Img * im)
{
  Img *c = g_new0 (Img, 1);

  c->info = im->info;
  c->data = g_malloc (GST_VIDEO_INFO_SIZE (&im->info));
  memcpy (c->data, im->data, GST_VIDEO_INFO_SIZE (&im->info));
  return c;
}

/* ------------------------------------------------------------------------ */
/* element and harness helpers                                              */

/* what every harness of these tests does to its element: one frame in, one
 * out (no frames in flight: tests/check/elements/async.c tests them),
 * unless the test sets async-depth itself afterwards */
static void
ctx_prepare_element (GstElement * e)
{
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "async-depth"))
    g_object_set (e, "async-depth", 0, NULL);
}

static void
ctx_attach_harness (Ctx * ctx)
{
  ctx->h = gst_harness_new_with_element (ctx->e, "sink", "src");
  /* the frames come back in system memory (cudamemory.c tests CUDA
   * memory out) */
  gst_harness_set_sink_caps_str (ctx->h, "video/x-raw");
}

Ctx
ctx_new (const gchar * name, const gchar * first_prop, ...)
{
  Ctx ctx = { NULL, };
  va_list ap;

  ctx.name = name;
  ctx.e = gst_element_factory_make (name, NULL);
  fail_unless (ctx.e != NULL, "no element %s (is GST_PLUGIN_PATH set?)", name);
  ctx.bus = gst_bus_new ();
  gst_element_set_bus (ctx.e, ctx.bus);
  ctx_prepare_element (ctx.e);
  if (first_prop) {
    va_start (ap, first_prop);
    g_object_set_valist (G_OBJECT (ctx.e), first_prop, ap);
    va_end (ap);
  }
  ctx_attach_harness (&ctx);
  return ctx;
}

Ctx
ctx_adopt (const gchar * name, GstElement * e, GstBus * bus)
{
  Ctx ctx = { NULL, };

  ctx.name = name;
  ctx.e = e;
  ctx.bus = bus;
  ctx_prepare_element (e);
  ctx_attach_harness (&ctx);
  return ctx;
}

GstMessage *
bus_pop_type (GstBus * bus, GstClockTime timeout, GstMessageType types)
{
  gint64 deadline = GST_CLOCK_TIME_IS_VALID (timeout) ? g_get_monotonic_time () + (gint64) (timeout / GST_USECOND) : 0;

  for (;;) {
    GstClockTime wait = GST_CLOCK_TIME_NONE;
    GstMessage *msg;

    if (GST_CLOCK_TIME_IS_VALID (timeout))
      wait = MAX (deadline - g_get_monotonic_time (), 0) * GST_USECOND;
    if ((msg = gst_bus_timed_pop (bus, wait)) == NULL)
      return NULL;
    if (GST_MESSAGE_TYPE (msg) & types)
      return msg;
    gst_message_unref (msg);    /* outside the bus's lock */
  }
}

guint
bus_count (GstBus * bus, GstMessageType type, GQuark domain, gchar ** text)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = bus_pop_type (bus, 0, type))) {
    GError *err = NULL;
    gchar *dbg = NULL;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      gst_message_parse_warning (msg, &err, &dbg);
    if (err && (domain == 0 || err->domain == domain)) {
      n++;
      if (text && !*text)
        *text = g_strdup_printf ("%s (%s)", err->message, GST_STR_NULL (dbg));
    }
    g_clear_error (&err);
    g_free (dbg);
    gst_message_unref (msg);
  }
  return n;
}

void
ctx_free (Ctx * ctx)
{
  gchar *text = NULL;
  guint errors = bus_count (ctx->bus, GST_MESSAGE_ERROR, 0, &text);

  fail_unless (errors == 0, "%s posted an error: %s", ctx->name, text);
  g_free (text);
  ctx_release (ctx);
}

void
ctx_release (Ctx * ctx)
{
  /* the harness takes its own reference: ours (the floating one from
   * gst_element_factory_make) goes too, as gst_harness_new_full does */
  gst_harness_teardown (ctx->h);
  gst_object_unref (ctx->e);
  /* the messages left on the bus hold the element */
  gst_bus_set_flushing (ctx->bus, TRUE);
  gst_object_unref (ctx->bus);
  memset (ctx, 0, sizeof (*ctx));
}

gchar *
get_backend (GstElement * e)
{
  gchar *backend = NULL;
  g_object_get (e, "backend", &backend, NULL);
  return backend;
}

void
check_backend (GstElement * e, const gchar * name)
{
  gchar *backend = get_backend (e);

  fail_unless (backend != NULL, "%s: backend unset after start", name);
  if (g_str_has_prefix (name, "cpu")) {
    fail_unless_equals_string (backend, "cpu");
  } else if (require_gpu ()) {
    fail_unless (g_str_equal (backend, "cuda"),
        "GST_CUDA_VIDEO_REQUIRE_GPU=1 but %s runs on backend '%s'", name,
        backend);
  } else {
    fail_unless (g_str_equal (backend, "cuda") || g_str_equal (backend, "cpu"),
        "%s: unexpected backend '%s'", name, backend);
  }
  g_free (backend);
}

void
check_caps_refused (GstPad * pad, const gchar * const *list, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    GstCaps *c = gst_caps_from_string (list[i]);
    fail_if (gst_pad_query_accept_caps (pad, c), "%s accepted", list[i]);
    gst_caps_unref (c);
  }
}

void
ctx_set_caps (Ctx * ctx, const GstVideoInfo * info)
{
  GstCaps *caps = gst_video_info_to_caps ((GstVideoInfo *) info);
  gst_harness_set_src_caps (ctx->h, caps);
}

void
ctx_push_caps_unchecked (Ctx * ctx, GstCaps * caps)
{
  GstSegment seg;

  gst_pad_push_event (ctx->h->srcpad, gst_event_new_stream_start (ctx->name));
  gst_pad_push_event (ctx->h->srcpad, gst_event_new_caps (caps));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  gst_pad_push_event (ctx->h->srcpad, gst_event_new_segment (&seg));
  gst_caps_unref (caps);
}

GstCaps *
ctx_out_caps (Ctx * ctx)
{
  GstCaps *caps = gst_pad_get_current_caps (ctx->h->sinkpad);
  fail_unless (caps != NULL, "no caps downstream of %s", ctx->name);
  return caps;
}

void
ctx_set_downstream (Ctx * ctx, const gchar * caps_str)
{
  gst_harness_set_sink_caps (ctx->h, gst_caps_from_string (caps_str ? caps_str : "video/x-raw"));
  gst_pad_push_event (ctx->h->sinkpad, gst_event_new_reconfigure ());
}

void
ctx_check_out_caps (Ctx * ctx, GstVideoFormat fmt, gint w, gint h,
    gint par_n, gint par_d, const gchar * what)
{
  GstCaps *caps = ctx_out_caps (ctx);
  /* (check's messages do not know GST_PTR_FORMAT) */
  gchar *str = gst_caps_to_string (caps);
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, caps), "%s: output caps %s "
      "are no video", what, str);
  fail_unless (GST_VIDEO_INFO_FORMAT (&info) == fmt
      && GST_VIDEO_INFO_WIDTH (&info) == w
      && GST_VIDEO_INFO_HEIGHT (&info) == h, "%s: output caps %s, wanted %s "
      "%dx%d", what, str, gst_video_format_to_string (fmt), w, h);
  if (par_n > 0)
    fail_unless (GST_VIDEO_INFO_PAR_N (&info) == par_n
        && GST_VIDEO_INFO_PAR_D (&info) == par_d, "%s: output caps %s, "
        "wanted pixel-aspect-ratio %d/%d", what, str, par_n, par_d);
  g_free (str);
  gst_caps_unref (caps);
}

void
ctx_push_expect (Ctx * ctx, GstBuffer * buf, GstFlowReturn want,
    const gchar * what)
{
  GstFlowReturn ret = gst_harness_push (ctx->h, buf);

  fail_unless (ret == want, "%s: %s: push returned %s, expected %s",
      ctx->name, what, gst_flow_get_name (ret), gst_flow_get_name (want));
}

Img *
ctx_process (Ctx * ctx, const Img * in, Layout layout)
{
  GstBuffer *buf = img_to_buffer (in, layout), *out;
  GstClockTime pts = GST_BUFFER_PTS (buf), dur = GST_BUFFER_DURATION (buf);
  GstFlowReturn ret;
  GstCaps *caps;
  Img *res;

  ret = gst_harness_push (ctx->h, buf);
  fail_unless (ret == GST_FLOW_OK, "%s: push returned %s", ctx->name,
      gst_flow_get_name (ret));
  out = gst_harness_pull (ctx->h);
  fail_unless (out != NULL, "%s produced no buffer", ctx->name);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), pts);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), dur);
  caps = ctx_out_caps (ctx);
  res = img_from_buffer (out, caps);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  check_backend (ctx->e, ctx->name);
  return res;
}

gboolean
ctx_check_fallback (Ctx * ctx)
{
  gchar *backend = get_backend (ctx->e), *text = NULL;
  gboolean on_gpu = g_strcmp0 (backend, "cuda") == 0;
  guint warnings;

  if (require_gpu ())
    fail_unless (on_gpu, "GST_CUDA_VIDEO_REQUIRE_GPU=1 but backend is %s",
        backend);
  warnings = bus_count (ctx->bus, GST_MESSAGE_WARNING, 0, &text);
  if (on_gpu)
    fail_unless (warnings == 0, "%u warnings on the GPU: %s", warnings,
        GST_STR_NULL (text));
  else
    fail_unless (warnings == 1, "%u warnings for the CPU fallback, "
        "expected exactly 1", warnings);
  g_free (text);
  g_free (backend);
  return on_gpu;
}

/* ------------------------------------------------------------------------ */
/* test data                                                                */

GcvTestImage
load_png_or_fail (const gchar * rel)
{
  GcvTestImage img;
  char err[512];
  char *path = gcv_test_path (rel);

  if (gcv_test_load_png (path, &img, err, sizeof (err)) != 0)
    fail ("%s (set GCV_TEST_DATA_DIR to the source tests/ directory)", err);
  free (path);
  return img;
}

static GcvTestImage photos[8];
static gboolean photos_loaded = FALSE;

const GcvTestImage *
test_photo (gint i)
{
  if (!photos_loaded) {
    gint p;
    fail_unless (gcv_test_n_photos <= (gint) G_N_ELEMENTS (photos));
    for (p = 0; p < gcv_test_n_photos; p++) {
      gchar *rel = g_strdup_printf ("data/%s", gcv_test_photos[p]);
      photos[p] = load_png_or_fail (rel);
      g_free (rel);
    }
    photos_loaded = TRUE;
  }
  return &photos[((i % gcv_test_n_photos) + gcv_test_n_photos) %
      gcv_test_n_photos];
}

Img *
img_from_test_photo_t (GstVideoFormat fmt, gint w, gint h, gint which,
    gint x0, gint y0, gint t, guint32 seed)
{
  GcvTestImage win = gcv_test_image_window (test_photo (which), x0, y0, w + 1,
      h + 1);
  Img *im = img_new (fmt, w, h);
  const GstVideoInfo *info = &im->info;
  gint c, x, y;
  gsize i;

  rng_seed (seed);
  for (i = 0; i < GST_VIDEO_INFO_SIZE (info); i++)
    im->data[i] = rng_next () >> 24;

  for (c = 0; c < img_n_comps (im); c++) {
    gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (info->finfo, c);
    gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (info->finfo, c);
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (info, c); y++) {
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (info, c); x++) {
        const guint8 *px = win.data + (gsize) (y << hs) * win.stride +
            (gsize) (x << ws) * 3;
        gint r = px[0], g = px[1], b = px[2], v;

        if (format_is_rgb (fmt)) {
          if (c == GST_VIDEO_COMP_A)
            v = (r + 2 * g + 3 * b + 5 * x + 3 * y + 41 * t) & 0xff;
          else
            v = px[c];
        } else if (format_is_gray (fmt)) {
          v = gcv_test_luma_rgb (r, g, b);
          if (fmt == GST_VIDEO_FORMAT_GRAY16_LE)
            v = CLAMP (v * 257 + rng_range (-128, 128), 0, 65535);
        } else if (fmt == GST_VIDEO_FORMAT_P010_10LE) {
          if (c == 0)
            v = ((66 * r + 129 * g + 25 * b + 32) >> 6) + 64;
          else if (c == 1)
            v = ((-38 * r - 74 * g + 112 * b + 32) >> 6) + 512;
          else
            v = ((112 * r - 94 * g - 18 * b + 32) >> 6) + 512;
          v <<= 6;
        } else if (c == 0) {
          v = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
        } else if (c == 1) {
          v = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
        } else {
          v = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
        }
        img_set (im, c, x, y, v);
      }
    }
  }
  gcv_test_image_clear (&win);
  return im;
}

Img *
img_from_test_photo (GstVideoFormat fmt, gint w, gint h, gint which, gint x0,
    gint y0, guint32 seed)
{
  return img_from_test_photo_t (fmt, w, h, which, x0, y0, 0, seed);
}

/* ------------------------------------------------------------------------ */
/* property rejection                                                       */

void
expect_rejected (GstElement * e, const gchar * prop, const GValue * bad,
    const gchar * also)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (e), prop);
  GValue before = G_VALUE_INIT, after = G_VALUE_INIT;
  gchar *bad_str = g_strdup_value_contents (bad), *b, *a, *posted = NULL;
  const gchar *said;
  GstBus *bus = gst_element_get_bus (e);
  gboolean own_bus = bus == NULL;

  fail_unless (pspec != NULL, "no property %s", prop);
  /* the element posts its refusals on its bus (GObject itself, for values
   * out of the GParamSpec's range, g_warns) */
  if (own_bus) {
    bus = gst_bus_new ();
    gst_element_set_bus (e, bus);
  }
  bus_count (bus, GST_MESSAGE_WARNING, 0, NULL);
  g_value_init (&before, pspec->value_type);
  g_value_init (&after, pspec->value_type);
  g_object_get_property (G_OBJECT (e), prop, &before);

  expecting_warning = TRUE;
  n_warnings = 0;
  g_object_set_property (G_OBJECT (e), prop, bad);
  expecting_warning = FALSE;
  bus_count (bus, GST_MESSAGE_WARNING, 0, &posted);
  if (posted) {
    /* what a test reads after a refusal, whoever said it */
    g_free (last_warning);
    last_warning = g_strdup (posted);
  }
  said = last_warning;

  g_object_get_property (G_OBJECT (e), prop, &after);
  b = g_strdup_value_contents (&before);
  a = g_strdup_value_contents (&after);
  fail_unless (gst_value_compare (&before, &after) == GST_VALUE_EQUAL,
      "%s=%s was not rejected (was %s, now %s)", prop, bad_str, b, a);
  fail_unless (posted != NULL || n_warnings >= 1, "%s=%s rejected without "
      "a warning", prop, bad_str);
  fail_unless (said && strstr (said, prop) != NULL,
      "warning for %s=%s does not name the property: %s", prop, bad_str,
      GST_STR_NULL (said));
  if (also)
    fail_unless (strstr (said, also) != NULL, "warning for %s=%s "
        "does not say '%s': %s", prop, bad_str, also, said);
  if (own_bus)
    gst_element_set_bus (e, NULL);
  gst_object_unref (bus);
  g_value_unset (&before);
  g_value_unset (&after);
  g_free (bad_str);
  g_free (posted);
  g_free (a);
  g_free (b);
}

void
reject_int (GstElement * e, const gchar * prop, gint v, const gchar * also)
{
  GValue val = G_VALUE_INIT;
  g_value_init (&val, G_TYPE_INT);
  g_value_set_int (&val, v);
  expect_rejected (e, prop, &val, also);
  g_value_unset (&val);
}

void
reject_double (GstElement * e, const gchar * prop, gdouble v)
{
  GValue val = G_VALUE_INIT;
  g_value_init (&val, G_TYPE_DOUBLE);
  g_value_set_double (&val, v);
  expect_rejected (e, prop, &val, NULL);
  g_value_unset (&val);
}

/* ------------------------------------------------------------------------ */
/* the suite                                                                */

TCase *
element_suite_tcase (const gchar * name, gboolean check_layouts,
    Suite ** suite)
{
  Suite *s = suite_create (name);
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 300);
  if (check_layouts)
    check_output_layouts = TRUE;
  tcase_add_checked_fixture (tc, setup_log_handlers, NULL);
  *suite = s;
  return tc;
}

guint
check_properties_documented (GstElement * e, const gchar * name)
{
  guint n, i;
  GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (e), &n);

  for (i = 0; i < n; i++) {
    GParamSpec *ps = specs[i];
    const gchar *nick = g_param_spec_get_nick (ps);
    const gchar *blurb = g_param_spec_get_blurb (ps);
    GValue v = G_VALUE_INIT;

    fail_unless (nick != NULL && *nick != '\0', "%s: property %s has no nick",
        name, ps->name);
    fail_unless (blurb != NULL && strlen (blurb) >= 10, "%s: property %s has "
        "no blurb", name, ps->name);
    /* ctx_new sets async-depth to 0 (elements-async checks its default);
     * qos is on by default where frames stand alone (elements-behaviour) */
    if (!(ps->flags & G_PARAM_READABLE) || ps->owner_type == GST_TYPE_OBJECT
        || !(ps->flags & G_PARAM_WRITABLE) || g_str_equal (ps->name, "async-depth")
        || g_str_equal (ps->name, "qos"))
      continue;
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (e), ps->name, &v);
    fail_unless (g_param_value_defaults (ps, &v), "%s: %s is not at its "
        "default in a fresh element", name, ps->name);
    g_value_unset (&v);
  }
  g_free (specs);
  return n;
}

const gchar *
enum_nick (GstElement * e, const gchar * prop)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
      prop);
  GValue v = G_VALUE_INIT;
  const gchar *nick;

  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec), "no enum %s",
      prop);
  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (e), prop, &v);
  nick = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class,
      g_value_get_enum (&v))->value_nick;
  g_value_unset (&v);
  return nick;
}

void
check_device_properties (GstElement * e, const gchar * name)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (e);
  GParamSpec *dev = g_object_class_find_property (klass, "cuda-device-id");
  GParamSpec *fb = g_object_class_find_property (klass, "fallback");

  if (!g_str_has_prefix (name, "cuda")) {
    fail_unless (dev == NULL && fb == NULL, "%s shows cuda-device-id or fallback", name);
    return;
  }
  fail_unless (dev != NULL && G_IS_PARAM_SPEC_INT (dev), "%s: no int cuda-device-id", name);
  fail_unless (G_PARAM_SPEC_INT (dev)->minimum == -1 && G_PARAM_SPEC_INT (dev)->maximum == 63
      && G_PARAM_SPEC_INT (dev)->default_value == -1, "%s: cuda-device-id range", name);
  fail_unless (fb != NULL && G_IS_PARAM_SPEC_BOOLEAN (fb), "%s: no boolean fallback", name);
  fail_unless (G_PARAM_SPEC_BOOLEAN (fb)->default_value == TRUE, "%s: fallback default", name);
  fail_unless ((dev->flags & GST_PARAM_MUTABLE_READY) && (fb->flags & GST_PARAM_MUTABLE_READY)
      && (dev->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE
      && (fb->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE, "%s: device property flags", name);
  {
    gint d;
    gboolean f;
    g_object_get (e, "cuda-device-id", &d, "fallback", &f, NULL);
    fail_unless (d == -1 && f == TRUE, "%s: cuda-device-id %d, fallback %d in a fresh element", name, d, f);
  }
}

void
check_no_fallback_fails (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  GstBus *bus = gst_bus_new ();
  gchar *text = NULL;

  fail_unless (e != NULL, "no element %s", factory);
  g_object_set (e, "fallback", FALSE, NULL);
  gst_element_set_bus (e, bus);
  fail_unless (gst_element_set_state (e, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "%s fallback=false started without a GPU",
      factory);
  fail_unless (bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
          &text) >= 1, "no RESOURCE error when failing to start (%s)",
      GST_STR_NULL (text));
  gst_element_set_state (e, GST_STATE_NULL);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
  gst_object_unref (e);
  g_free (text);
}

/* ------------------------------------------------------------------------ */
/* what reaches a pad, in order                                             */

struct _Trace
{
  GstPad *pad;
  gulong probe;
  GstClockTime frame_duration;
  GMutex lock;
  GString *text;
};

static void
trace_word (Trace * t, const gchar * word)
{
  g_mutex_lock (&t->lock);
  if (t->text->len > 0)
    g_string_append_c (t->text, ' ');
  g_string_append (t->text, word);
  g_mutex_unlock (&t->lock);
}

static gchar *
trace_buffer_word (Trace * t, GstBuffer * buf)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return g_strdup ("B-");
  if (t->frame_duration > 0 && pts % t->frame_duration == 0)
    return g_strdup_printf ("B%" G_GUINT64_FORMAT, pts / t->frame_duration);
  return g_strdup_printf ("B@%" G_GUINT64_FORMAT, pts);
}

static gchar *
trace_event_word (GstEvent * ev)
{
  switch (GST_EVENT_TYPE (ev)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      GstVideoInfo vi;
      gchar *str, *word;
      gst_event_parse_caps (ev, &caps);
      if (gst_video_info_from_caps (&vi, caps))
        return g_strdup_printf ("C:%s:%dx%d", GST_VIDEO_INFO_NAME (&vi),
            GST_VIDEO_INFO_WIDTH (&vi), GST_VIDEO_INFO_HEIGHT (&vi));
      str = gst_caps_to_string (caps);
      word = g_strdup_printf ("C:%s", str);
      g_free (str);
      return word;
    }
    case GST_EVENT_SEGMENT:
      return g_strdup ("S");
    case GST_EVENT_EOS:
      return g_strdup ("E");
    case GST_EVENT_FLUSH_START:
      return g_strdup ("FS");
    case GST_EVENT_FLUSH_STOP:
      return g_strdup ("F");
    case GST_EVENT_GAP:
      return g_strdup ("G");
    case GST_EVENT_STREAM_START:
      return g_strdup ("SS");
    case GST_EVENT_CUSTOM_DOWNSTREAM:
    case GST_EVENT_CUSTOM_DOWNSTREAM_OOB:
    case GST_EVENT_CUSTOM_DOWNSTREAM_STICKY:
    case GST_EVENT_CUSTOM_BOTH:
    case GST_EVENT_CUSTOM_BOTH_OOB:{
      const GstStructure *s = gst_event_get_structure (ev);
      return g_strdup_printf ("X:%s", s ? gst_structure_get_name (s) : "");
    }
    default:
      return g_strdup (GST_EVENT_TYPE_NAME (ev));
  }
}

static gboolean
trace_list_item (GstBuffer ** buf, guint idx, gpointer user_data)
{
  Trace *t = user_data;
  gchar *word = trace_buffer_word (t, *buf);

  trace_word (t, word);
  g_free (word);
  return TRUE;
}

static GstPadProbeReturn
trace_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Trace *t = user_data;
  gchar *word = NULL;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    word = trace_buffer_word (t, GST_PAD_PROBE_INFO_BUFFER (info));
  else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST)
    gst_buffer_list_foreach (GST_PAD_PROBE_INFO_BUFFER_LIST (info),
        trace_list_item, t);
  else if (info->type & GST_PAD_PROBE_TYPE_EVENT_BOTH)
    word = trace_event_word (GST_PAD_PROBE_INFO_EVENT (info));
  if (word)
    trace_word (t, word);
  g_free (word);
  return GST_PAD_PROBE_OK;
}

Trace *
trace_new (GstPad * pad, GstClockTime frame_duration)
{
  Trace *t = g_new0 (Trace, 1);

  t->pad = gst_object_ref (pad);
  t->frame_duration = frame_duration;
  g_mutex_init (&t->lock);
  t->text = g_string_new ("");
  t->probe = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM |
      GST_PAD_PROBE_TYPE_EVENT_FLUSH, trace_probe, t, NULL);
  fail_unless (t->probe != 0, "could not add a probe on %s:%s",
      GST_DEBUG_PAD_NAME (pad));
  return t;
}

gchar *
trace_take (Trace * t)
{
  gchar *text;

  g_mutex_lock (&t->lock);
  text = g_strdup (t->text->str);
  g_string_truncate (t->text, 0);
  g_mutex_unlock (&t->lock);
  return text;
}

void
trace_expect (Trace * t, const gchar * want, const gchar * what)
{
  gchar *got = trace_take (t);

  fail_unless (g_str_equal (got, want), "%s: downstream got \"%s\", expected "
      "\"%s\"", what, got, want);
  g_free (got);
}

void
trace_free (Trace * t)
{
  if (t == NULL)
    return;
  gst_pad_remove_probe (t->pad, t->probe);
  gst_object_unref (t->pad);
  g_string_free (t->text, TRUE);
  g_mutex_clear (&t->lock);
  g_free (t);
}

/* ------------------------------------------------------------------------ */
/* 2D-plus-depth frames                                                     */

Img *
img_2d_plus_depth (GstVideoFormat fmt, gint w, gint h, gint which, gint x0,
    gint y0, gint t, guint32 seed)
{
  /* the left half of a 2w-wide window at (x0, y0) is the w-wide one */
  Img *im = img_from_test_photo_t (fmt, 2 * w, h, which, x0, y0, t, seed);
  gint r = MAX (1, MIN (w, h) / 4), cx = (w / 3 + 2 * t) % MAX (1, w);
  gint cy = h / 2, x, y;

  fail_unless (fmt == GST_VIDEO_FORMAT_I420 || (format_is_rgb (fmt)
          && GST_VIDEO_INFO_COMP_PSTRIDE (&im->info, 0) == 4),
      "no 2D-plus-depth frames of %s", gst_video_format_to_string (fmt));
  for (y = 0; y < h; y++) {
    for (x = 0; x < w; x++) {
      guint d = 40 + (150 * x) / MAX (1, w - 1);
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
        d = 230;
      if (fmt == GST_VIDEO_FORMAT_I420) {
        img_set (im, 0, w + x, y, d);
      } else {
        img_set (im, GST_VIDEO_COMP_R, w + x, y, d);
        img_set (im, GST_VIDEO_COMP_G, w + x, y, d);
        img_set (im, GST_VIDEO_COMP_B, w + x, y, d);
        if (GST_VIDEO_INFO_HAS_ALPHA (&im->info))
          img_set (im, GST_VIDEO_COMP_A, w + x, y, 255);
      }
    }
  }
  if (fmt == GST_VIDEO_FORMAT_I420) {
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&im->info, 1); y++)
      for (x = (w + 1) / 2; x < GST_VIDEO_INFO_COMP_WIDTH (&im->info, 1); x++) {
        img_set (im, 1, x, y, 128);
        img_set (im, 2, x, y, 128);
      }
  }
  return im;
}

/* ------------------------------------------------------------------------ */
/* frames that came out                                                     */

/* The first motion meta of @buf as a structure of its fields ("kind" the
 * enum's nick, "records" the records as a buffer), to compare outputs with
 * each other; the element's name ("source") is left out, since a cuda
 * element's outputs are compared with its cpu twin's.  NULL without one. */
static GstStructure *
motion_meta_structure (GstBuffer * buf)
{
  GList *metas = gst_buffer_get_cuda_video_motion_metas (buf);
  GstCudaVideoMotionMeta *m = metas ? metas->data : NULL;
  GEnumClass *kinds;
  GstStructure *s;
  GstBuffer *records;

  g_list_free (metas);
  if (m == NULL)
    return NULL;
  kinds = g_type_class_ref (GST_TYPE_CUDA_VIDEO_MOTION_KIND);
  records = gst_cuda_video_motion_meta_get_records_buffer (m);
  s = gst_structure_new ("motion",
      "kind", G_TYPE_STRING, g_enum_get_value (kinds, m->kind)->value_nick,
      "has-reference", G_TYPE_BOOLEAN, m->has_reference,
      "frame", G_TYPE_UINT64, m->frame,
      "pts", G_TYPE_UINT64, m->pts,
      "reference-pts", G_TYPE_UINT64, m->reference_pts,
      "width", G_TYPE_INT, m->width, "height", G_TYPE_INT, m->height,
      "block-width", G_TYPE_INT, m->block_width, "block-height", G_TYPE_INT, m->block_height,
      "grid-width", G_TYPE_INT, m->grid_width, "grid-height", G_TYPE_INT, m->grid_height,
      "subpel", G_TYPE_INT, m->subpel, "vector-scale", G_TYPE_INT, m->vector_scale,
      "method", G_TYPE_STRING, m->method,
      "window-size", G_TYPE_INT, m->window_size, "template-size", G_TYPE_INT, m->template_size,
      "search-size", G_TYPE_INT, m->search_size,
      "n-records", G_TYPE_UINT, m->n_records,
      "records", GST_TYPE_BUFFER, records, NULL);
  gst_buffer_unref (records);
  g_type_class_unref (kinds);
  return s;
}

OutFrame *
out_frame_new (GstBuffer * buf, GstCaps * caps)
{
  OutFrame *o = g_new0 (OutFrame, 1);

  o->im = img_from_buffer (buf, caps);
  o->pts = GST_BUFFER_PTS (buf);
  o->dur = GST_BUFFER_DURATION (buf);
  o->offset = GST_BUFFER_OFFSET (buf);
  o->device = gst_caps_get_size (caps) > 0
      && gst_caps_features_contains (gst_caps_get_features (caps, 0),
      "memory:CUDAMemory");
  o->meta = motion_meta_structure (buf);
  return o;
}

void
out_frame_free (gpointer f)
{
  OutFrame *o = f;

  if (o == NULL)
    return;
  img_free (o->im);
  if (o->meta)
    gst_structure_free (o->meta);
  g_free (o);
}

void
motion_meta_compare (const GstStructure * a, const GstStructure * b,
    MotionMetaIgnore ignore, const gchar * what)
{
  GstStructure *ca, *cb;

  if (a == NULL && b == NULL)
    return;
  fail_unless (a != NULL && b != NULL, "%s: motion meta on one side only",
      what);
  ca = gst_structure_copy (a);
  cb = gst_structure_copy (b);
  if (ignore & MOTION_META_IGNORE_COUNTER) {
    gst_structure_remove_field (ca, "frame");
    gst_structure_remove_field (cb, "frame");
  }
  if (ignore & MOTION_META_IGNORE_STAMPS) {
    gst_structure_remove_fields (ca, "pts", "reference-pts", NULL);
    gst_structure_remove_fields (cb, "pts", "reference-pts", NULL);
  }
  /* a GstBuffer field (the records) compares by its bytes */
  if (!gst_structure_is_equal (ca, cb)) {
    gchar *sa = gst_structure_to_string (ca), *sb = gst_structure_to_string (cb);
    fail ("%s: the motion meta differs:\n  %.400s\n  %.400s", what, sa, sb);
    g_free (sa);
    g_free (sb);
  }
  gst_structure_free (ca);
  gst_structure_free (cb);
}

void
out_frames_compare (GPtrArray * got, guint from, GPtrArray * ref,
    gboolean ignore_counter, const gchar * what)
{
  guint i;

  fail_unless (got->len >= from && got->len - from == ref->len, "%s: %u "
      "frames out, the reference gave %u", what, got->len - from, ref->len);
  for (i = 0; i < ref->len; i++) {
    OutFrame *a = g_ptr_array_index (got, from + i);
    OutFrame *b = g_ptr_array_index (ref, i);
    gchar *msg = g_strdup_printf ("%s, output %u", what, from + i);
    fail_unless (a->pts == b->pts && a->dur == b->dur && a->offset ==
        b->offset, "%s: stamps %" GST_TIME_FORMAT " +%" G_GUINT64_FORMAT
        " #%" G_GUINT64_FORMAT ", the reference %" GST_TIME_FORMAT " +%"
        G_GUINT64_FORMAT " #%" G_GUINT64_FORMAT, msg, GST_TIME_ARGS (a->pts),
        a->dur, a->offset, GST_TIME_ARGS (b->pts), b->dur, b->offset);
    assert_img_equal (a->im, b->im, msg);
    motion_meta_compare (a->meta, b->meta, ignore_counter ? MOTION_META_IGNORE_COUNTER : 0, msg);
    g_free (msg);
  }
}

Img **
photo_clip_new (GstVideoFormat fmt, gint w, gint h, gint n, gint which,
    gint x0, gint y0, gboolean depth, guint32 seed)
{
  Img **clip = g_new0 (Img *, MAX (n, 1));
  gint k;

  for (k = 0; k < n; k++)
    clip[k] = depth ? img_2d_plus_depth (fmt, w / 2, h, which, x0 + 3 * k,
        y0 + 2 * k, k, seed + k) : img_from_test_photo_t (fmt, w, h, which,
        x0 + 3 * k, y0 + 2 * k, k, seed + k);
  return clip;
}

void
photo_clip_free (Img ** clip, gint n)
{
  gint k;

  for (k = 0; k < n && clip; k++)
    img_free (clip[k]);
  g_free (clip);
}

/* ------------------------------------------------------------------------ */
/* memory:CUDAMemory                                                        */

static gboolean
caps_structure_on_device (GstCaps * caps, guint i)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, i);
  return f != NULL && gst_caps_features_contains (f, "memory:CUDAMemory");
}

GstCaps *
caps_in_system_memory (GstCaps * caps)
{
  GstCaps *res = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++)
    res = gst_caps_merge_structure_full (res,
        gst_structure_copy (gst_caps_get_structure (caps, i)), NULL);
  return res;
}

GstCaps *
template_system_caps (GstElement * e, const gchar * pad)
{
  GstPadTemplate *t = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), pad);
  GstCaps *caps, *system = gst_caps_new_empty (), *device = gst_caps_new_empty ();
  const gchar *factory = GST_OBJECT_NAME (gst_element_get_factory (e));
  guint i;

  fail_unless (t != NULL, "%s: no %s template", factory, pad);
  caps = gst_pad_template_get_caps (t);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    if (caps_structure_on_device (caps, i)) {
      /* CUDA memory first, then the same caps in system memory */
      fail_unless (gst_caps_is_empty (system), "%s: %s template: CUDA memory after system memory",
          factory, pad);
      gst_caps_append_structure (device, s);
    } else {
      gst_caps_append_structure (system, s);
    }
  }
  if (!gst_caps_is_empty (device)) {
    fail_unless (g_str_has_prefix (factory, "cuda"), "%s: CUDA memory in the %s template", factory, pad);
    fail_unless (gst_caps_is_equal (device, system), "%s: %s template: CUDA and system memory differ",
        factory, pad);
  }
  gst_caps_unref (device);
  gst_caps_unref (caps);
  return system;
}

gboolean
element_takes_device_memory (GstElement * e)
{
  GstPadTemplate *t = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (e), "sink");
  GstCaps *caps = t ? gst_pad_template_get_caps (t) : NULL;
  gchar *backend = get_backend (e);
  gboolean on_device = caps && gst_caps_get_size (caps) > 0 && caps_structure_on_device (caps, 0)
      && g_strcmp0 (backend, "cuda") == 0;

  if (caps)
    gst_caps_unref (caps);
  g_free (backend);
  return on_device;
}

void
check_device_caps (GstElement * e, GstPad * sinkpad, const gchar * caps_str)
{
  GstCaps *c = gst_caps_from_string (caps_str);
  gboolean accepted = gst_pad_query_accept_caps (sinkpad, c);

  if (element_takes_device_memory (e))
    fail_unless (accepted, "%s refused on the GPU", caps_str);
  else
    fail_unless (!accepted, "%s accepted without CUDA memory", caps_str);
  gst_caps_unref (c);
}
