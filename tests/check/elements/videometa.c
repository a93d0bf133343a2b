/* gst-cuda-video: buffers whose GstVideoMeta disagrees with the caps, on
 * every element and every format family (gst-check).
 *
 * gst_video_frame_map() takes a frame's size from its GstVideoMeta: a
 * meta larger than the caps made the frame larger than every plane the
 * element had sized for the caps (a heap overflow in the 8-bit luma of
 * P010 in cpumotionest / cpuvcm), and a smaller one or one of another
 * format trips GStreamer's own g_return_val_if_fail (a CRITICAL).  Each
 * element is given, after a plain frame that sizes its planes, one buffer
 * large enough for what its meta says but whose meta is
 *  - larger (twice the width and height of the caps),
 *  - smaller (half of them),
 *  - of another format of the same family and size,
 * in each format family the element takes: 8-bit gray, planar YUV,
 * semi-planar YUV, P010_10LE and packed RGB.  The push must fail with one
 * STREAM / FORMAT error that names the meta's and the caps' format and
 * size; any CRITICAL or GLib warning fails the test (the kit's log
 * handler), and the valgrind setup (meson test --setup valgrind) sees any
 * write past a buffer.  A buffer without a meta and too few bytes is
 * refused the same way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "gcv-check.h"

static const gchar *const all_elements[] = {
  "cpucanny", "cudacanny", "cpubsplinescale", "cudabsplinescale", "cpuconv3d", "cudaconv3d",
  "cpuseamcarve", "cudaseamcarve", "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm", "cpudibr",
  "cudadibr",
};

/* The caps' size: even both ways (dibr halves the width), small. */
#define W 64
#define H 48

/* A format family: the formats tried in order (the first the element
 * takes is used), each with another format of its family whose meta it
 * is given (the same planes, where the family has such a twin). */
typedef struct
{
  const gchar *name;
  GstVideoFormat formats[4], others[4];
} Family;

static const Family families[] = {
  {"8-bit gray", {GST_VIDEO_FORMAT_GRAY8}, {GST_VIDEO_FORMAT_GRAY16_LE}},
  {"planar YUV", {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444},
      {GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_Y42B}},
  {"semi-planar YUV", {GST_VIDEO_FORMAT_NV12}, {GST_VIDEO_FORMAT_NV21}},
  {"P010", {GST_VIDEO_FORMAT_P010_10LE}, {GST_VIDEO_FORMAT_NV12}},
  {"packed RGB", {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBx,
          GST_VIDEO_FORMAT_BGRx}, {GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBA,
          GST_VIDEO_FORMAT_BGRx, GST_VIDEO_FORMAT_RGBx}},
};

typedef enum
{
  META_LARGER,
  META_SMALLER,
  META_OTHER_FORMAT,
  NO_META_SHORT,
  N_VARIANTS
} Variant;

static const gchar *const variant_names[N_VARIANTS] = {
  "larger meta", "smaller meta", "meta of another format", "no meta, too few bytes"
};

/* Whether @name's sink pad takes @fmt at W x H in system memory. */
static gboolean
element_takes (const gchar * name, GstVideoFormat fmt)
{
  GstElementFactory *f = gst_element_factory_find (name);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      gst_video_format_to_string (fmt), "width", G_TYPE_INT, W, "height", G_TYPE_INT, H,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  gboolean takes = FALSE;
  const GList *l;

  fail_unless (f != NULL, "no element %s", name);
  for (l = gst_element_factory_get_static_pad_templates (f); l; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    if (t->direction == GST_PAD_SINK) {
      GstCaps *templ = gst_static_pad_template_get_caps (t);
      takes = gst_caps_can_intersect (templ, caps);
      gst_caps_unref (templ);
    }
  }
  gst_caps_unref (caps);
  gst_object_unref (f);
  return takes;
}

/* A buffer of @bytes pseudo-random bytes (at least what @info needs)
 * with a GstVideoMeta describing @info in its default layout. */
static GstBuffer *
buffer_with_meta (const GstVideoInfo * info, gsize bytes)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, MAX (bytes, GST_VIDEO_INFO_SIZE (info)), NULL);
  GstMapInfo map;
  gsize i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < map.size; i++)
    map.data[i] = rng_next () >> 24;
  gst_buffer_unmap (buf, &map);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  return buf;
}

/* The buffer of @variant for caps of @fmt (W x H); @meta_text gets what
 * the error must name of it. */
static GstBuffer *
bad_buffer (Variant variant, GstVideoFormat fmt, GstVideoFormat other, gchar ** meta_text)
{
  GstVideoInfo caps_info, meta_info;
  GstBuffer *buf;

  gst_video_info_set_format (&caps_info, fmt, W, H);
  switch (variant) {
    case META_LARGER:
      gst_video_info_set_format (&meta_info, fmt, 2 * W, 2 * H);
      break;
    case META_SMALLER:
      gst_video_info_set_format (&meta_info, fmt, W / 2, H / 2);
      break;
    case META_OTHER_FORMAT:
      gst_video_info_set_format (&meta_info, other, W, H);
      break;
    default:
      buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&caps_info) / 2, NULL);
      gst_buffer_memset (buf, 0, 0x5a, GST_VIDEO_INFO_SIZE (&caps_info) / 2);
      *meta_text = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes", GST_VIDEO_INFO_SIZE (&caps_info) / 2);
      return buf;
  }
  *meta_text = g_strdup_printf ("%s %dx%d", GST_VIDEO_INFO_NAME (&meta_info),
      GST_VIDEO_INFO_WIDTH (&meta_info), GST_VIDEO_INFO_HEIGHT (&meta_info));
  buf = buffer_with_meta (&meta_info, GST_VIDEO_INFO_SIZE (&caps_info));
  GST_BUFFER_PTS (buf) = GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* One element, one format, one variant: a plain frame, then the bad
 * buffer, refused with one error naming both geometries. */
static void
check_refused (const gchar * name, GstVideoFormat fmt, GstVideoFormat other, Variant variant)
{
  Ctx ctx = ctx_new (name, NULL);
  Img *im = img_from_test_photo (fmt, W, H, 2, 10, 6, 11);
  gchar *what = g_strdup_printf ("%s %s: %s", name, gst_video_format_to_string (fmt),
      variant_names[variant]);
  gchar *caps_text = g_strdup_printf ("%s %dx%d", gst_video_format_to_string (fmt), W, H);
  gchar *meta_text = NULL, *text = NULL;
  GstBuffer *out;
  guint errors;

  ctx_set_caps (&ctx, &im->info);
  /* sizes the element's planes, as a stream's first frame does */
  ctx_push_expect (&ctx, img_to_buffer (im, LAYOUT_DEFAULT), GST_FLOW_OK, what);
  while ((out = gst_harness_try_pull (ctx.h)) != NULL)
    gst_buffer_unref (out);
  fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, &text) == 0, "%s: error on a plain frame: %s",
      what, text);

  ctx_push_expect (&ctx, bad_buffer (variant, fmt, other, &meta_text), GST_FLOW_ERROR, what);
  fail_unless (gst_harness_try_pull (ctx.h) == NULL, "%s: a frame came out", what);
  errors = bus_count (ctx.bus, GST_MESSAGE_ERROR, GST_STREAM_ERROR, &text);
  fail_unless (errors == 1, "%s: %u STREAM errors (%s)", what, errors, GST_STR_NULL (text));
  fail_unless (strstr (text, meta_text) != NULL && strstr (text, caps_text) != NULL,
      "%s: the error does not name %s and %s: %s", what, meta_text, caps_text, text);
  GST_INFO ("%s: %s", what, text);

  g_free (text);
  g_free (meta_text);
  g_free (caps_text);
  g_free (what);
  img_free (im);
  ctx_release (&ctx);
}

GST_START_TEST (test_meta_disagrees_with_caps)
{
  guint e, f, k, tried = 0;
  Variant v;

  for (e = 0; e < G_N_ELEMENTS (all_elements); e++) {
    for (f = 0; f < G_N_ELEMENTS (families); f++) {
      const Family *fam = &families[f];
      for (k = 0; k < G_N_ELEMENTS (fam->formats) && fam->formats[k] != 0; k++)
        if (element_takes (all_elements[e], fam->formats[k]))
          break;
      if (k == G_N_ELEMENTS (fam->formats) || fam->formats[k] == 0) {
        GST_INFO ("%s takes no %s format", all_elements[e], fam->name);
        continue;
      }
      for (v = 0; v < N_VARIANTS; v++)
        check_refused (all_elements[e], fam->formats[k], fam->others[k], v);
      tried++;
    }
  }
  /* every element takes at least two families (dibr: packed RGB and I420) */
  fail_unless (tried >= 2 * G_N_ELEMENTS (all_elements), "only %u element / family pairs", tried);
}

GST_END_TEST;

/* The reproducer of the heap overflow, P010_10LE 64x48 with a 128x96 meta
 * on the second of several frames, on the four elements that convert P010
 * luma to 8 bits in a plane sized at the first frame; the frames after the
 * refused one are not looked at (the element stopped with an error). */
GST_START_TEST (test_p010_luma_plane)
{
  static const gchar *const names[] = { "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm" };
  guint n;

  for (n = 0; n < G_N_ELEMENTS (names); n++)
    check_refused (names[n], GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_NV12, META_LARGER);
}

GST_END_TEST;

static Suite *
videometa_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("videometa", FALSE, &s);

  tcase_add_test (tc, test_p010_luma_plane);
  tcase_add_test (tc, test_meta_disagrees_with_caps);
  return s;
}

GST_CHECK_MAIN (videometa);
