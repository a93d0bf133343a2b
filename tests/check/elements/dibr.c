/* gst-cuda-video: cudadibr / cpudibr element tests (gst-check).
 *
 * The algorithm is tested against float64 references in
 * tests/dibr_algo_test.c and tests/dibr_cuda_test.c; here the element:
 * caps of every layout and output (sizes, multiview-mode), every output
 * pixel written, the ray-cast scene of tests/dibr_scene.h synthesized at
 * >= 30 dB (8- and 16-bit depth), the stereo / anaglyph / symmetric / debug outputs, property
 * validation, a bad camera file, odd sizes, caps changes and, on a GPU,
 * cudadibr == cpudibr.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gcv-check.h"
#include "dibr_scene.h"

static const gchar *const element_names[] = { "cpudibr", "cudadibr" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)
#define SW 320
#define SH 240

/* The scene's cameras A (source) and B (the simple-mode virtual camera),
 * rendered once. */
static DibrScene *scene;
static DibrCamera cam_a, cam_b;
static DibrView view_a, view_b;

static void
scene_once (void)
{
  if (scene)
    return;
  fail_unless (dibr_scene_standard (&scene) == 0, "no scene");
  dibr_std_camera_a (SW, SH, &cam_a);
  dibr_std_camera_b (SW, SH, &cam_b);
  dibr_render (scene, &cam_a, &view_a);
  dibr_render (scene, &cam_b, &view_b);
}

/* The 2D-plus-depth frame of view A in @layout (0 side-by-side, 1
 * top-bottom, 2 alpha) and @fmt (RGBA, BGRA, RGBx, BGRx or I420: colour
 * and its 8-bit depth; RGBA64_LE, BGRA64_LE: colour * 257 and its 16-bit
 * depth). */
static gboolean
format_is_16bit (GstVideoFormat fmt)
{
  return fmt == GST_VIDEO_FORMAT_RGBA64_LE || fmt == GST_VIDEO_FORMAT_BGRA64_LE;
}

static Img *
scene_frame (gint layout, GstVideoFormat fmt)
{
  gint W = SW, H = SH, x, y;
  gint iw = layout == 0 ? 2 * W : W, ih = layout == 1 ? 2 * H : H;
  Img *im = img_new (fmt, iw, ih);
  gboolean wide = format_is_16bit (fmt);
  guint8 *depth = g_malloc ((gsize) W * H * 2);
  gint dx = layout == 0 ? W : 0, dy = layout == 1 ? H : 0;
  /* colour samples: 8 bits, or 16 (the 8-bit value * 257) */
  guint cs = wide ? 257 : 1;

  scene_once ();
  dibr_depth_plane (&view_a, scene->z_near, scene->z_far, wide ? 16 : 8, depth, wide ? 2 * W : W);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      const guint8 *p = view_a.rgba + ((gsize) y * W + x) * 4;
      guint d = wide ? ((guint16 *) depth)[y * W + x] : depth[y * W + x];
      if (fmt == GST_VIDEO_FORMAT_I420) {
        /* colour only through luma here: a grey scene for I420 */
        img_set (im, 0, x, y, (p[0] * 77 + p[1] * 150 + p[2] * 29) >> 8);
        img_set (im, 0, x + dx, y + dy, d);
        continue;
      }
      img_set (im, GST_VIDEO_COMP_R, x, y, p[0] * cs);
      img_set (im, GST_VIDEO_COMP_G, x, y, p[1] * cs);
      img_set (im, GST_VIDEO_COMP_B, x, y, p[2] * cs);
      if (layout == 2) {
        img_set (im, GST_VIDEO_COMP_A, x, y, d);
      } else {
        img_set (im, GST_VIDEO_COMP_R, x + dx, y + dy, d);
        img_set (im, GST_VIDEO_COMP_G, x + dx, y + dy, d);
        img_set (im, GST_VIDEO_COMP_B, x + dx, y + dy, d);
      }
    }
  if (fmt == GST_VIDEO_FORMAT_I420) {
    for (y = 0; y < (ih + 1) / 2; y++)
      for (x = 0; x < (iw + 1) / 2; x++) {
        img_set (im, 1, x, y, 128);
        img_set (im, 2, x, y, 128);
      }
  }
  g_free (depth);
  return im;
}

/* An element with the scene's camera settings. */
static Ctx
scene_ctx (const gchar * name, const gchar * first_prop, ...)
{
  Ctx ctx;
  va_list ap;

  scene_once ();
  ctx = ctx_new (name, "focal-length", dibr_std_focal (SW), "baseline", DIBR_STD_BASELINE,
      "convergence", DIBR_STD_ZC, "z-near", scene->z_near, "z-far", scene->z_far, NULL);
  if (first_prop) {
    va_start (ap, first_prop);
    g_object_set_valist (G_OBJECT (ctx.e), first_prop, ap);
    va_end (ap);
  }
  return ctx;
}

static const gchar *
out_multiview (Ctx * ctx)
{
  GstCaps *caps = ctx_out_caps (ctx);
  const gchar *m = gst_structure_get_string (gst_caps_get_structure (caps, 0), "multiview-mode");
  static gchar buf[32];

  g_strlcpy (buf, m ? m : "(none)", sizeof (buf));
  gst_caps_unref (caps);
  return buf;
}

/* Pushes @in and pulls the output; before, fills every buffer the pool
 * holds with a pattern (the fourth byte 0x5a), so that a pixel the element
 * did not write shows. */
static Img *
process_checked (Ctx * ctx, const Img * in, const gchar * what)
{
  Img *res = NULL;
  gint round, x, y;

  /* the pool's buffers come back patterned: three rounds so that every
   * buffer of it has been patterned once */
  for (round = 0; round < 3; round++) {
    GstBuffer *out;
    GstMapInfo map;
    Img *im;

    fail_unless (gst_harness_push (ctx->h, img_to_buffer (in, LAYOUT_DEFAULT)) == GST_FLOW_OK,
        "%s: push failed", what);
    out = gst_harness_pull (ctx->h);
    fail_unless (out != NULL);
    {
      GstCaps *caps = ctx_out_caps (ctx);
      im = img_from_buffer (out, caps);
      gst_caps_unref (caps);
    }
    /* the alpha / x byte: always 255 */
    for (y = 0; y < img_h (im); y++) {
      const guint8 *row = img_comp_ptr (im, 0, 0, y) - GST_VIDEO_INFO_COMP_POFFSET (&im->info, 0);
      for (x = 0; x < img_w (im); x++) {
        gint r = GST_VIDEO_INFO_COMP_POFFSET (&im->info, GST_VIDEO_COMP_R);
        gint g = GST_VIDEO_INFO_COMP_POFFSET (&im->info, GST_VIDEO_COMP_G);
        gint b = GST_VIDEO_INFO_COMP_POFFSET (&im->info, GST_VIDEO_COMP_B);
        /* tested first: fail_unless logs every pass */
        if (G_UNLIKELY (row[4 * x + 6 - r - g - b] != 255))
          fail ("%s: pixel (%d, %d) not written (fourth byte %d)", what, x, y, row[4 * x + 6 - r - g - b]);
      }
    }
    if (res) {
      assert_img_equal (res, im, what);
      img_free (im);
    } else {
      res = im;
    }
    if (gst_buffer_map (out, &map, GST_MAP_WRITE)) {
      memset (map.data, 0x5a, map.size);
      gst_buffer_unmap (out, &map);
    }
    gst_buffer_unref (out);
  }
  check_backend (ctx->e, ctx->name);
  return res;
}

/* ------------------------------------------------------------------------ */

/* Every layout x output x format: the output caps (size, format,
 * multiview-mode) and every pixel written. */
GST_START_TEST (test_caps_layouts_outputs)
{
  static const gchar *const layouts[] = { "side-by-side", "top-bottom", "alpha" };
  static const gchar *const outputs[] = { "virtual", "stereo-side-by-side", "stereo-top-bottom",
    "anaglyph"
  };
  static const gchar *const modes[] = { "mono", "side-by-side", "top-bottom", "mono" };
  static const GstVideoFormat fmts[] = { GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRx,
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGRA64_LE
  };
  const gboolean quick = gcv_check_quick ();
  guint l, o, f, k;

  for (l = 0; l < 3; l++)
    for (f = 0, k = 0; f < G_N_ELEMENTS (fmts); f++) {
      Img *in;
      gboolean alpha_ok = fmts[f] == GST_VIDEO_FORMAT_RGBA || fmts[f] == GST_VIDEO_FORMAT_BGRA
          || format_is_16bit (fmts[f]);
      if (l == 2 && !alpha_ok)
        continue;
      in = scene_frame (l, fmts[f]);
      for (o = 0; o < 4; o++) {
        Ctx ctx;
        gchar *what;
        GstVideoFormat of = fmts[f] == GST_VIDEO_FORMAT_I420 || fmts[f] == GST_VIDEO_FORMAT_RGBA64_LE ?
            GST_VIDEO_FORMAT_RGBA : fmts[f] == GST_VIDEO_FORMAT_BGRA64_LE ? GST_VIDEO_FORMAT_BGRA : fmts[f];
        Img *out;

        /* quick mode: one output per layout and format, by turns (every
         * output in every layout, every format in every layout it takes) */
        if (quick && o != (k + l) % 4)
          continue;
        ctx = scene_ctx ("cpudibr", "layout", l, "output", o, "dcbf-size", 5, NULL);
        what = g_strdup_printf ("layout=%s output=%s %s", layouts[l], outputs[o],
            gst_video_format_to_string (fmts[f]));

        gst_util_set_object_arg (G_OBJECT (ctx.e), "layout", layouts[l]);
        gst_util_set_object_arg (G_OBJECT (ctx.e), "output", outputs[o]);
        ctx_set_caps (&ctx, &in->info);
        out = process_checked (&ctx, in, what);
        ctx_check_out_caps (&ctx, of, o == 1 ? 2 * SW : SW, o == 2 ? 2 * SH : SH, 1, 1, what);
        fail_unless_equals_string (out_multiview (&ctx), modes[o]);
        img_free (out);
        ctx_free (&ctx);
        g_free (what);
      }
      img_free (in);
      k++;
    }
}

GST_END_TEST;

/* The ray-cast scene: B from A at >= 30 dB on the pixels visible in A,
 * in every layout; the same for the stereo pair's right half. */
GST_START_TEST (test_scene_psnr)
{
  guint8 *mask;
  long n_vis;
  gint l;

  scene_once ();
  mask = g_malloc ((gsize) SW * SH);
  n_vis = dibr_visibility_mask (&cam_b, &view_b, &cam_a, &view_a, 0.01, mask);
  fail_unless (n_vis > SW * SH / 2);
  /* the three layouts with 8-bit depth, then side-by-side and alpha with
   * 16-bit depth (RGBA64_LE in, RGBA out) */
  for (l = 0; l < 5; l++) {
    gint layout = l < 3 ? l : l == 3 ? 0 : 2;
    Img *in = scene_frame (layout, l < 3 ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_RGBA64_LE), *out;
    Ctx ctx = scene_ctx ("cpudibr", "layout", layout, NULL);
    gdouble psnr;
    long n = 0;

    ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_ALIGNED);
    fail_unless (img_format (out) == GST_VIDEO_FORMAT_RGBA);
    psnr = dibr_psnr_rgb (view_b.rgba, (gsize) SW * 4, 4, img_comp_ptr (out, 0, 0, 0),
        GST_VIDEO_INFO_PLANE_STRIDE (&out->info, 0), 4, mask, SW, SH, &n);
    GST_INFO ("layout %d, %d-bit depth: %.2f dB over %ld pixels", layout, l < 3 ? 8 : 16, psnr, n);
    fail_unless (psnr >= 30.0, "layout %d, %d-bit depth: PSNR %.2f dB < 30 dB over %ld visible pixels",
        layout, l < 3 ? 8 : 16, psnr, n);
    img_free (out);
    img_free (in);
    ctx_free (&ctx);
  }
  g_free (mask);
}

GST_END_TEST;

/* The right half of a pair is the virtual output; the left the source
 * (symmetric=false); the anaglyph's red comes from the left view, green
 * and blue from the right, also symmetric; the symmetric pair differs
 * from the source on the left and matches output=virtual on the right;
 * output virtual <-> anaglyph (the same caps) changes while playing. */
GST_START_TEST (test_stereo_anaglyph_symmetric)
{
  Img *in = scene_frame (0, GST_VIDEO_FORMAT_RGBA);
  gint sym, x, y, c;

  for (sym = 0; sym < 2; sym++) {
    Ctx cv = scene_ctx ("cpudibr", "symmetric", sym, NULL);
    Ctx cs = scene_ctx ("cpudibr", "symmetric", sym, "output", 1, NULL);
    Ctx ca = scene_ctx ("cpudibr", "symmetric", sym, "output", 3, NULL);
    Img *v, *s, *a;
    glong left_diff = 0;

    ctx_set_caps (&cv, &in->info);
    ctx_set_caps (&cs, &in->info);
    ctx_set_caps (&ca, &in->info);
    v = ctx_process (&cv, in, LAYOUT_DEFAULT);
    s = ctx_process (&cs, in, LAYOUT_ODD_STRIDE);
    a = ctx_process (&ca, in, LAYOUT_DEFAULT);
    for (y = 0; y < SH; y++)
      for (x = 0; x < SW; x++) {
        for (c = 0; c < 3; c++) {
          fail_unless_equals_int (img_get (s, c, x + SW, y), img_get (v, c, x, y));
          if (img_get (s, c, x, y) != img_get (in, c, x, y))
            left_diff++;
        }
        fail_unless_equals_int (img_get (a, 0, x, y), img_get (s, 0, x, y));
        fail_unless_equals_int (img_get (a, 1, x, y), img_get (s, 1, x + SW, y));
        fail_unless_equals_int (img_get (a, 2, x, y), img_get (s, 2, x + SW, y));
        fail_unless_equals_int (img_get (a, 3, x, y), 255);
      }
    if (sym)
      fail_unless (left_diff > SW * SH / 10, "symmetric: the left view is the source");
    else
      fail_unless (left_diff == 0, "left view is not the source (%ld samples differ)", left_diff);
    /* virtual -> anaglyph -> virtual while playing: the caps stay, the
     * output changes at the next frame */
    {
      Img *a2, *v2;
      g_object_set (cv.e, "output", 3, NULL);
      a2 = ctx_process (&cv, in, LAYOUT_DEFAULT);
      assert_img_equal (a2, a, "output changed to anaglyph while playing");
      g_object_set (cv.e, "output", 0, NULL);
      v2 = ctx_process (&cv, in, LAYOUT_DEFAULT);
      assert_img_equal (v2, v, "output changed back to virtual while playing");
      img_free (a2);
      img_free (v2);
    }
    img_free (v);
    img_free (s);
    img_free (a);
    ctx_free (&cv);
    ctx_free (&cs);
    ctx_free (&ca);
  }
  img_free (in);
}

GST_END_TEST;

/* debug-output=depth: a flat depth plane comes out as its own grey;
 * debug-output=holes: white holes over the virtual view, the rest the
 * plain view. */
GST_START_TEST (test_debug_outputs)
{
  Img *flat = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 2 * 64, 48, 0, 10, 10, 3);
  Img *in = scene_frame (0, GST_VIDEO_FORMAT_RGBA), *plain, *holes, *d;
  Ctx ctx;
  gint x, y, c;
  glong n_holes = 0;

  for (y = 0; y < 48; y++)
    for (x = 64; x < 128; x++)
      for (c = 0; c < 3; c++)
        img_set (flat, c, x, y, 128);
  ctx = ctx_new ("cpudibr", "debug-output", 1, "baseline", 0.0, NULL);
  ctx_set_caps (&ctx, &flat->info);
  d = ctx_process (&ctx, flat, LAYOUT_DEFAULT);
  for (y = 0; y < 48; y++)
    for (x = 0; x < 64; x++) {
      fail_unless (abs ((gint) img_get (d, 0, x, y) - 128) <= 1, "depth grey %d at (%d, %d)",
          img_get (d, 0, x, y), x, y);
      fail_unless (img_get (d, 1, x, y) == img_get (d, 0, x, y)
          && img_get (d, 2, x, y) == img_get (d, 0, x, y));
    }
  img_free (d);
  ctx_free (&ctx);

  ctx = scene_ctx ("cpudibr", NULL);
  ctx_set_caps (&ctx, &in->info);
  plain = ctx_process (&ctx, in, LAYOUT_DEFAULT);
  ctx_free (&ctx);
  ctx = scene_ctx ("cpudibr", "debug-output", 2, NULL);
  ctx_set_caps (&ctx, &in->info);
  holes = ctx_process (&ctx, in, LAYOUT_DEFAULT);
  ctx_free (&ctx);
  for (y = 0; y < SH; y++)
    for (x = 0; x < SW; x++) {
      gboolean same = TRUE;
      for (c = 0; c < 3; c++)
        same &= img_get (holes, c, x, y) == img_get (plain, c, x, y);
      if (!same) {
        n_holes++;
        for (c = 0; c < 3; c++)
          fail_unless_equals_int (img_get (holes, c, x, y), 255);
      }
    }
  fail_unless (n_holes > 0 && n_holes < SW * SH / 5, "%ld hole pixels", n_holes);
  img_free (plain);
  img_free (holes);
  img_free (flat);
  img_free (in);
}

GST_END_TEST;

/* Values a GParamSpec range cannot refuse; relations at start and while
 * playing (LIBRARY SETTINGS); every property documented. */
GST_START_TEST (test_bad_properties)
{
  guint i;

  for (i = 0; i < N_ELEMENTS; i++) {
    const gchar *name = element_names[i];
    GstElement *e = gst_element_factory_make (name, NULL);
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=64,"
        "height=32 ! %s z-near=5 z-far=2 ! fakesink", name);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    GError *err = NULL;
    Img *in = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 64, 32, 1, 0, 0, 5), *out;
    Ctx ctx;

    check_properties_documented (e, name);
    reject_int (e, "median-size", 4, "odd");
    reject_int (e, "dcbf-size", 10, "odd");
    reject_double (e, "focal-length", 0.5);
    gst_object_unref (e);

    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = bus_pop_type (bus, 10 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
        "%s started with z-near > z-far", name);
    gst_message_parse_error (msg, &err, NULL);
    fail_unless (g_error_matches (err, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS)
        && strstr (err->message, "z-far"), "error %s", err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_free (desc);

    /* while playing (the settings policy): one WARNING, and the frames
     * keep coming with the last usable settings, byte for byte */
    ctx = ctx_new (name, NULL);
    ctx_set_caps (&ctx, &in->info);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    g_object_set (ctx.e, "convergence", 1e-5, NULL);
    {
      Img *kept = ctx_process (&ctx, in, LAYOUT_DEFAULT), *again;
      gchar *text = NULL;

      assert_img_equal (out, kept, "the last usable settings after convergence=1e-5");
      again = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      img_free (again);
      fail_unless (bus_count (ctx.bus, GST_MESSAGE_WARNING, GST_LIBRARY_ERROR, &text) == 1,
          "%s: not one WARNING for two frames with unusable settings", name);
      fail_unless (text && strstr (text, "convergence"), "warning %s", GST_STR_NULL (text));
      g_free (text);
      img_free (kept);
    }
    img_free (out);
    g_object_set (ctx.e, "convergence", 0.0, NULL);
    out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
    img_free (out);
    ctx_free (&ctx);
    img_free (in);
  }
}

GST_END_TEST;

/* A camera file that is missing, malformed or holds a value beyond its
 * bound (cx 1e300 used to start and fail at the first frame): an error on
 * the bus at start naming the file (and the line and column), no crash. */
GST_START_TEST (test_bad_camera_file)
{
  gchar *dir = g_dir_make_tmp ("dibr-XXXXXX", NULL);
  gchar *bad = g_build_filename (dir, "bad.json", NULL);
  gchar *far = g_build_filename (dir, "far.json", NULL);
  const gchar *const files[] = { "/nonexistent/cameras.json", bad, far };
  const gchar *const says[] = { "cameras.json", ":1:26:", ":2:38: virtual.intrinsics: cx" };
  guint i, f;

  fail_unless (g_file_set_contents (bad, "{ \"source\": { \"K\": [1, 2,, 3] }\n", -1, NULL));
  fail_unless (g_file_set_contents (far, "{ \"source\": { \"intrinsics\": [60, 0, 32, 0, 60, 16, 0, 0, 1] },\n"
          "  \"virtual\": { \"intrinsics\": [60, 0, 1e300, 0, 60, 16, 0, 0, 1] } }\n", -1, NULL));
  for (i = 0; i < N_ELEMENTS; i++)
    for (f = 0; f < G_N_ELEMENTS (files); f++) {
      gchar *desc = g_strdup_printf ("videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,"
          "width=64,height=32 ! %s camera-file=%s ! fakesink", element_names[i], files[f]);
      GstElement *pipe = gst_parse_launch (desc, NULL);
      GstBus *bus = gst_element_get_bus (pipe);
      GstMessage *msg;
      GError *err = NULL;

      gst_element_set_state (pipe, GST_STATE_PLAYING);
      msg = bus_pop_type (bus, 10 * GST_SECOND, GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
      fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
          "%s started with camera file %s", element_names[i], files[f]);
      gst_message_parse_error (msg, &err, NULL);
      GST_INFO ("%s: %s", files[f], err->message);
      fail_unless (strstr (err->message, files[f]) != NULL && strstr (err->message, says[f]) != NULL,
          "the error does not name the file (and \"%s\"): %s", says[f], err->message);
      g_clear_error (&err);
      gst_message_unref (msg);
      gst_element_set_state (pipe, GST_STATE_NULL);
      gst_object_unref (bus);
      gst_object_unref (pipe);
      g_free (desc);
    }
  g_unlink (bad);
  g_unlink (far);
  g_rmdir (dir);
  g_free (bad);
  g_free (far);
  g_free (dir);
}

GST_END_TEST;

/* Odd view sizes (321 x 241) in every layout, and caps changes mid-stream
 * (size, format, layout). */
GST_START_TEST (test_odd_sizes_caps_change)
{
  Img *a = img_from_test_photo (GST_VIDEO_FORMAT_RGBA, 2 * 321, 241, 0, 3, 5, 7);
  Img *b = img_from_test_photo (GST_VIDEO_FORMAT_I420, 321, 2 * 241, 1, 3, 5, 7);
  Img *c = img_from_test_photo (GST_VIDEO_FORMAT_BGRx, 2 * 64, 48, 2, 3, 5, 7);
  Img *out;
  Ctx ctx = ctx_new ("cudadibr", "output", 2, "zero-is-unknown", TRUE, NULL);

  ctx_set_caps (&ctx, &a->info);
  out = process_checked (&ctx, a, "321x241 side-by-side");
  ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_RGBA, 321, 2 * 241, 0, 0, "321x241");
  img_free (out);
  ctx_set_caps (&ctx, &c->info);
  out = process_checked (&ctx, c, "64x48 BGRx");
  ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_BGRx, 64, 96, 0, 0, "64x48");
  img_free (out);
  g_object_set (ctx.e, "layout", 1, "output", 1, NULL);
  ctx_set_caps (&ctx, &b->info);
  out = process_checked (&ctx, b, "321x241 I420 top-bottom");
  ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_RGBA, 2 * 321, 241, 0, 0, "I420 top-bottom");
  fail_unless_equals_string (out_multiview (&ctx), "side-by-side");
  img_free (out);
  ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  /* an odd side-by-side width has no colour | depth split */
  {
    Img *odd = img_new (GST_VIDEO_FORMAT_RGBA, 321, 10);
    GstCaps *caps = gst_video_info_to_caps (&odd->info);
    ctx = ctx_new ("cpudibr", NULL);
    fail_if (gst_pad_peer_query_accept_caps (ctx.h->srcpad, caps), "odd width accepted");
    gst_caps_unref (caps);
    img_free (odd);
    ctx_release (&ctx);
  }
  img_free (a);
  img_free (b);
  img_free (c);
}

GST_END_TEST;

/* cudadibr == cpudibr, byte for byte, on the scene (every output); only
 * on a GPU. */
GST_START_TEST (test_cuda_equals_cpu)
{
  Img *in8 = scene_frame (0, GST_VIDEO_FORMAT_RGBA), *in16 = scene_frame (2, GST_VIDEO_FORMAT_BGRA64_LE);
  gint o;

  /* every output from 8-bit depth, then two from 16-bit depth (alpha) */
  for (o = 0; o < 6; o++) {
    const Img *in = o < 4 ? in8 : in16;
    gint layout = o < 4 ? 0 : 2, output = o < 4 ? o : o == 4 ? 0 : 1;
    Ctx cpu = scene_ctx ("cpudibr", "layout", layout, "output", output, "symmetric", o == 3, NULL);
    Ctx gpu = scene_ctx ("cudadibr", "layout", layout, "output", output, "symmetric", o == 3, NULL);
    Img *a, *b;

    ctx_set_caps (&cpu, &in->info);
    ctx_set_caps (&gpu, &in->info);
    b = ctx_process (&gpu, in, LAYOUT_ALIGNED);
    if (!ctx_check_fallback (&gpu)) {
      GST_INFO ("no GPU: cudadibr ran on the CPU, parity skipped");
      img_free (b);
      ctx_free (&cpu);
      ctx_free (&gpu);
      break;
    }
    a = ctx_process (&cpu, in, LAYOUT_DEFAULT);
    assert_img_equal (a, b, "cudadibr vs cpudibr");
    img_free (a);
    img_free (b);
    ctx_free (&cpu);
    ctx_free (&gpu);
  }
  img_free (in8);
  img_free (in16);
}

GST_END_TEST;

/* camera-file with the scene's cameras A and B gives the simple mode's
 * frame, byte for byte; a malformed file's error says file:line:col. */
GST_START_TEST (test_camera_file)
{
  Img *in = scene_frame (0, GST_VIDEO_FORMAT_RGBA), *a, *b;
  gchar *dir = g_dir_make_tmp ("dibr-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "cams.json", NULL);
  GString *j = g_string_new ("{ \"source\": { \"intrinsics\": [");
  Ctx simple, file;
  gint k;

  scene_once ();
  for (k = 0; k < 9; k++)
    g_string_append_printf (j, "%s%.17g", k ? ", " : "", cam_a.K[k]);
  g_string_append (j, "] },\n \"virtual\": { \"intrinsics\": [");
  for (k = 0; k < 9; k++)
    g_string_append_printf (j, "%s%.17g", k ? ", " : "", cam_b.K[k]);
  g_string_append (j, "], \"extrinsics\": [");
  for (k = 0; k < 16; k++)
    g_string_append_printf (j, "%s%.17g", k ? ", " : "", cam_b.E[k]);
  g_string_append (j, "] } }\n");
  fail_unless (g_file_set_contents (path, j->str, -1, NULL));

  simple = scene_ctx ("cpudibr", NULL);
  file = scene_ctx ("cpudibr", "camera-file", path, "baseline", 3.0, NULL);
  ctx_set_caps (&simple, &in->info);
  ctx_set_caps (&file, &in->info);
  a = ctx_process (&simple, in, LAYOUT_DEFAULT);
  b = ctx_process (&file, in, LAYOUT_DEFAULT);
  assert_img_equal (a, b, "camera-file vs simple mode");
  img_free (a);
  img_free (b);

  /* broken while playing: a WARNING naming file:line:col, and the
   * cameras in force stay (the settings policy) */
  fail_unless (g_file_set_contents (path, "{ \"source\": [1, 2,, 3] }\n", -1, NULL));
  g_object_set (file.e, "camera-file", path, NULL);
  {
    gchar *text = NULL, *where = g_strdup_printf ("%s:1:", path);
    a = ctx_process (&simple, in, LAYOUT_DEFAULT);
    b = ctx_process (&file, in, LAYOUT_DEFAULT);
    assert_img_equal (a, b, "the file's cameras kept after a broken file");
    img_free (a);
    img_free (b);
    fail_unless (bus_count (file.bus, GST_MESSAGE_WARNING, GST_RESOURCE_ERROR, &text) == 1);
    fail_unless (text && strstr (text, where), "warning %s", GST_STR_NULL (text));
    g_free (text);
    g_free (where);
  }

  /* a translation beyond its bound (1e300 made the warp infinite at the
   * next frame, a fatal error): refused when read, a WARNING, and the
   * cameras in force stay */
  fail_unless (g_file_set_contents (path, "{ \"source\": { \"intrinsics\": [500, 0, 60, 0, 500, 40, 0, 0, 1] },\n"
          " \"virtual\": { \"intrinsics\": [500, 0, 60, 0, 500, 40, 0, 0, 1], \"extrinsics\": [1, 0, 0, 1e300, "
          "0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] } }\n", -1, NULL));
  g_object_set (file.e, "camera-file", path, NULL);
  {
    gchar *text = NULL, *where = g_strdup_printf ("%s:2:88: virtual.extrinsics[3] (a translation)", path);
    a = ctx_process (&simple, in, LAYOUT_DEFAULT);
    b = ctx_process (&file, in, LAYOUT_DEFAULT);
    assert_img_equal (a, b, "the file's cameras kept after a translation of 1e300");
    img_free (a);
    img_free (b);
    fail_unless (bus_count (file.bus, GST_MESSAGE_WARNING, GST_RESOURCE_ERROR, &text) == 1);
    fail_unless (text && strstr (text, where), "warning %s", GST_STR_NULL (text));
    fail_unless (bus_count (file.bus, GST_MESSAGE_ERROR, 0, NULL) == 0);
    g_free (text);
    g_free (where);
  }
  ctx_free (&simple);
  ctx_free (&file);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  g_string_free (j, TRUE);
  img_free (in);
}

GST_END_TEST;

/* The largest camera values a file may hold (dibr.h's bounds, the worst
 * combination of tests/dibr_camera_file_test.c) load and render frames on
 * both elements, without an error: what loads, renders. */
GST_START_TEST (test_camera_file_extremes)
{
  Img *in = scene_frame (0, GST_VIDEO_FORMAT_RGBA);
  gchar *dir = g_dir_make_tmp ("dibr-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "extremes.json", NULL);
  guint i, k;

  fail_unless (g_file_set_contents (path, "{\"source\": {\"intrinsics\": [1, 1e6, 1e6, 0, 1, -1e6, 0, 0, 1],\n"
          "  \"extrinsics\": [1e6, 1e6, 0, 1e9, 999999.9999999998, 1e6, 0, 1e9, 0, 0, 1e-6, 1e9, 0, 0, 0, 1]},\n"
          " \"virtual\": {\"intrinsics\": {\"fx\": 1e6, \"fy\": 1, \"cx\": -1e6, \"cy\": 1e6, \"skew\": -1e6},\n"
          "  \"extrinsics\": [1e6, -1e6, 1e6, -1e9, 1e6, 1e6, -1e6, -1e9, -1e6, 1e6, 1e6, 1e9, 0, 0, 0, 1]}}\n",
          -1, NULL));
  for (i = 0; i < N_ELEMENTS; i++) {
    Ctx ctx = scene_ctx (element_names[i], "camera-file", path, "output", 1, NULL);
    ctx_set_caps (&ctx, &in->info);
    for (k = 0; k < 2; k++) {
      Img *out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
      img_free (out);
    }
    fail_unless (bus_count (ctx.bus, GST_MESSAGE_ERROR, 0, NULL) == 0, "%s: an error with the extreme cameras",
        element_names[i]);
    ctx_free (&ctx);
  }
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  img_free (in);
}

GST_END_TEST;

static Suite *
dibr_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("dibr", TRUE, &s);

  tcase_add_test (tc, test_caps_layouts_outputs);
  tcase_add_test (tc, test_scene_psnr);
  tcase_add_test (tc, test_stereo_anaglyph_symmetric);
  tcase_add_test (tc, test_debug_outputs);
  tcase_add_test (tc, test_bad_properties);
  tcase_add_test (tc, test_bad_camera_file);
  tcase_add_test (tc, test_camera_file);
  tcase_add_test (tc, test_camera_file_extremes);
  tcase_add_test (tc, test_odd_sizes_caps_change);
  tcase_add_test (tc, test_cuda_equals_cpu);
  return s;
}

GST_CHECK_MAIN (dibr);
