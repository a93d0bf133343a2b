/* gst-cuda-video: cudadibr / cpudibr on a real stereo pair (gst-check).
 *
 * tests/data/aloeL.jpg, aloeR.jpg and aloeGT.png (Middlebury 2006 "Aloe",
 * see tests/data/README.md): the left photograph with its ground-truth
 * disparity as 8-bit depth goes in side by side; with focal-length 255,
 * baseline 1, z-near 1, z-far 1e9 and parallel cameras the virtual camera
 * sees a point of depth value v shifted by 255 * 1 * v / 255 = v pixels
 * to the left, which is what the disparity says of the right camera.  So
 * the synthesized view is compared with the real right photograph:
 *  - PSNR over the pixels that were not hole-filled (debug-output=holes)
 *    and over all pixels, each far above the unshifted left photograph's
 *    PSNR against the right one;
 *  - the holes: the right border strip the left camera does not see and
 *    the disocclusions, a plausible fraction of the frame;
 *  - output=anaglyph: red is the left photograph's, green and blue the
 *    synthesized view's;
 *  - on a GPU, cudadibr == cpudibr byte for byte (virtual and stereo).
 * The JPEGs are decoded by GStreamer's jpegdec (gst-plugins-good); without
 * it the test is skipped (exit 77).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "gcv-check.h"
#include "dibr_scene.h"

/* measured with cpudibr on the full-size pair (2026-11-25): 27.4 dB on the
 * pixels not hole-filled, 23.1 dB on all, 14.5% holes; the left
 * photograph against the right one: 15.0 dB */
#define MIN_PSNR_KNOWN 26.5
#define MIN_PSNR_ALL 22.5
#define MIN_GAIN_OVER_LEFT 7.0
#define MIN_HOLES 0.05
#define MAX_HOLES 0.17
/* quick mode (GCV_TEST_QUICK=1): the pair shrunk 3 times, measured the
 * same way: 27.0 dB on the pixels not hole-filled, 23.9 dB on all, 13.6%
 * holes; the left photograph against the right one: 15.5 dB */
#define QUICK_K 3

/* A JPEG under tests/ decoded to RGBA by jpegdec ! videoconvert. */
static Img *
decode_jpeg (const gchar * rel)
{
  gchar *path = gcv_test_path (rel), *data = NULL;
  gsize len = 0;
  GstHarness *h;
  GstBuffer *out;
  GstCaps *caps;
  Img *im;

  fail_unless (g_file_get_contents (path, &data, &len, NULL), "cannot read %s", path);
  h = gst_harness_new_parse ("jpegdec ! videoconvert");
  gst_harness_set_src_caps_str (h, "image/jpeg");
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  fail_unless (gst_harness_push (h, gst_buffer_new_wrapped (data, len)) == GST_FLOW_OK, "decoding %s", path);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  out = gst_harness_pull (h);
  fail_unless (out != NULL, "no frame decoded from %s", path);
  caps = gst_pad_get_current_caps (h->sinkpad);
  im = img_from_buffer (out, caps);
  gst_caps_unref (caps);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (path);
  return im;
}

typedef struct
{
  Img *left, *right;            /* the photographs, RGBA */
  GcvTestImage disparity;       /* GRAY8 */
  Img *frame;                   /* left | disparity, RGBA 2W x H */
  gint w, h;
  gint k;                       /* the photographs shrunk k times */
} Pair;

static Pair pair;

/* @im (RGBA) shrunk k times: the mean of each k x k block */
static Img *
img_shrink (const Img * im, gint k)
{
  gint w = img_w (im) / k, h = img_h (im) / k, x, y, c, i, j;
  Img *out = img_new (GST_VIDEO_FORMAT_RGBA, w, h);
  gsize is = GST_VIDEO_INFO_PLANE_STRIDE (&im->info, 0);
  gsize os = GST_VIDEO_INFO_PLANE_STRIDE (&out->info, 0);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      for (c = 0; c < 4; c++) {
        guint sum = 0;
        for (j = 0; j < k; j++)
          for (i = 0; i < k; i++)
            sum += im->data[(gsize) (k * y + j) * is + 4 * (k * x + i) + c];
        out->data[(gsize) y * os + 4 * x + c] = (sum + k * k / 2) / (k * k);
      }
  return out;
}

static void
pair_once (void)
{
  gint x, y, c;

  if (pair.frame)
    return;
  pair.left = decode_jpeg ("data/aloeL.jpg");
  pair.right = decode_jpeg ("data/aloeR.jpg");
  pair.disparity = load_png_or_fail ("data/aloeGT.png");
  pair.w = img_w (pair.left);
  pair.h = img_h (pair.left);
  fail_unless (pair.w == 1282 && pair.h == 1110 && img_w (pair.right) == pair.w && img_h (pair.right) == pair.h
      && pair.disparity.width == pair.w && pair.disparity.height == pair.h && pair.disparity.channels == 1,
      "unexpected sizes of the pair");
  /* quick mode: the pair shrunk QUICK_K times (photographs by the block
   * mean, the disparity by its top-left sample, focal-length divided by
   * k: the same geometry, the same thresholds) */
  pair.k = gcv_check_quick () ? QUICK_K : 1;
  if (pair.k > 1) {
    Img *l = pair.left, *r = pair.right;
    pair.left = img_shrink (l, pair.k);
    pair.right = img_shrink (r, pair.k);
    pair.w = img_w (pair.left);
    pair.h = img_h (pair.left);
    img_free (l);
    img_free (r);
  }
  pair.frame = img_new (GST_VIDEO_FORMAT_RGBA, 2 * pair.w, pair.h);
  for (y = 0; y < pair.h; y++)
    for (x = 0; x < pair.w; x++) {
      guint d = pair.disparity.data[(gsize) pair.k * y * pair.disparity.stride + pair.k * x];
      for (c = 0; c < 3; c++) {
        img_set (pair.frame, c, x, y, img_get (pair.left, c, x, y));
        img_set (pair.frame, c, x + pair.w, y, d);
      }
      img_set (pair.frame, GST_VIDEO_COMP_A, x, y, 255);
      img_set (pair.frame, GST_VIDEO_COMP_A, x + pair.w, y, 255);
    }
}

/* An element with the pair's cameras and the properties of @ap (name,
 * value, ..., NULL), its caps set. */
static Ctx
pair_ctx_valist (const gchar * name, const gchar * first_prop, va_list ap)
{
  Ctx ctx;

  pair_once ();
  ctx = ctx_new (name, "layout", 0, "zero-is-unknown", TRUE, "focal-length", 255.0 / pair.k, "baseline", 1.0,
      "z-near", 1.0, "z-far", 1e9, "convergence", 0.0, NULL);
  if (first_prop)
    g_object_set_valist (G_OBJECT (ctx.e), first_prop, ap);
  ctx_set_caps (&ctx, &pair.frame->info);
  return ctx;
}

static Ctx
pair_ctx (const gchar * name, const gchar * first_prop, ...)
{
  Ctx ctx;
  va_list ap;

  va_start (ap, first_prop);
  ctx = pair_ctx_valist (name, first_prop, ap);
  va_end (ap);
  return ctx;
}

/* The pair through a fresh element with these properties. */
static Img *
render (const gchar * name, const gchar * first_prop, ...)
{
  Ctx ctx;
  va_list ap;
  Img *out;

  va_start (ap, first_prop);
  ctx = pair_ctx_valist (name, first_prop, ap);
  va_end (ap);
  out = ctx_process (&ctx, pair.frame, LAYOUT_DEFAULT);
  ctx_free (&ctx);
  return out;
}

/* PSNR of two RGBA images (R, G, B) over the pixels where mask is non-zero
 * (NULL: all), by the DIBR tests' dibr_psnr_rgb. */
static gdouble
psnr (const Img * a, const Img * b, const guint8 * mask)
{
  gdouble db = dibr_psnr_rgb (img_comp_ptr (a, 0, 0, 0), GST_VIDEO_INFO_PLANE_STRIDE (&a->info, 0), 4,
      img_comp_ptr (b, 0, 0, 0), GST_VIDEO_INFO_PLANE_STRIDE (&b->info, 0), 4, mask, img_w (a), img_h (a), NULL);

  fail_unless (isfinite (db));
  return db;
}

/* The synthesized right view against the real right photograph. */
GST_START_TEST (test_real_right_view)
{
  Img *virt = render ("cpudibr", NULL);
  Img *holes = render ("cpudibr", "debug-output", 2, NULL);
  gsize n = (gsize) pair.w * pair.h, n_holes = 0, i;
  guint8 *known = g_malloc (n);         /* 1 where not hole-filled */
  gdouble psnr_known, all, left;
  gint x, y;

  /* debug-output=holes paints the hole-filled pixels white */
  for (y = 0; y < pair.h; y++)
    for (x = 0; x < pair.w; x++) {
      gboolean hole = img_get (holes, 0, x, y) == 255 && img_get (holes, 1, x, y) == 255
          && img_get (holes, 2, x, y) == 255;
      known[(gsize) y * pair.w + x] = !hole;
      n_holes += hole;
    }
  /* the right border strip (x >= W - 43, the smallest disparity; / k in
   * quick mode) has no source pixel */
  for (y = 0; y < pair.h; y++)
    for (x = pair.w - 43 / pair.k; x < pair.w; x++)
      if (G_UNLIKELY (known[(gsize) y * pair.w + x]))
        fail ("(%d, %d) in the unseen border is not a hole", x, y);
  psnr_known = psnr (virt, pair.right, known);
  all = psnr (virt, pair.right, NULL);
  left = psnr (pair.left, pair.right, NULL);
  GST_INFO ("synthesized vs right: %.2f dB without the %.1f%% holes, %.2f dB all; left vs right %.2f dB",
      psnr_known, 100.0 * n_holes / n, all, left);
  g_print ("synthesized vs real right view: %.2f dB on the %.1f%% pixels not hole-filled, %.2f dB on all; the left "
      "photograph vs the right one: %.2f dB\n", psnr_known, 100.0 * (n - n_holes) / n, all, left);
  fail_unless (n_holes >= MIN_HOLES * n && n_holes <= MAX_HOLES * n, "%.3f of the pixels are holes",
      (gdouble) n_holes / n);
  fail_unless (psnr_known >= MIN_PSNR_KNOWN, "%.2f dB on the pixels not hole-filled (want >= %.1f)", psnr_known,
      MIN_PSNR_KNOWN);
  fail_unless (all >= MIN_PSNR_ALL, "%.2f dB on all pixels (want >= %.1f)", all, MIN_PSNR_ALL);
  fail_unless (all >= left + MIN_GAIN_OVER_LEFT, "%.2f dB, the unshifted left photograph %.2f dB", all, left);
  /* outside the holes debug-output=holes leaves the colours alone */
  for (i = 0; i < n; i++)
    if (known[i]) {
      x = (gint) (i % pair.w);
      y = (gint) (i / pair.w);
      if (G_UNLIKELY (img_get (holes, 0, x, y) != img_get (virt, 0, x, y)
              || img_get (holes, 2, x, y) != img_get (virt, 2, x, y)))
        fail ("(%d, %d) differs outside the holes", x, y);
    }
  g_free (known);
  img_free (virt);
  img_free (holes);
}

GST_END_TEST;

/* Red from the left photograph, green and blue from the synthesized view. */
GST_START_TEST (test_real_anaglyph)
{
  Img *virt = render ("cpudibr", NULL);
  Img *ana = render ("cpudibr", "output", 3, NULL);
  gint x, y;

  fail_unless (img_w (ana) == pair.w && img_h (ana) == pair.h);
  for (y = 0; y < pair.h; y++)
    for (x = 0; x < pair.w; x++) {
      /* (fail_unless logs every pass: test first, 1.4 million pixels) */
      if (G_UNLIKELY (img_get (ana, 0, x, y) != img_get (pair.left, 0, x, y)))
        fail ("red at (%d, %d): %u, the left photograph %u", x, y, img_get (ana, 0, x, y),
            img_get (pair.left, 0, x, y));
      if (G_UNLIKELY (img_get (ana, 1, x, y) != img_get (virt, 1, x, y)
              || img_get (ana, 2, x, y) != img_get (virt, 2, x, y)))
        fail ("green / blue at (%d, %d)", x, y);
    }
  img_free (virt);
  img_free (ana);
}

GST_END_TEST;

/* cudadibr == cpudibr on the real pair; only on a GPU. */
GST_START_TEST (test_real_cuda_equals_cpu)
{
  gint o;

  for (o = 0; o < 2; o++) {
    /* output virtual, and stereo-side-by-side (the left eye the source) */
    Ctx gpu = pair_ctx ("cudadibr", "output", o, NULL);
    Img *a, *b = ctx_process (&gpu, pair.frame, LAYOUT_ALIGNED);

    if (!ctx_check_fallback (&gpu)) {
      GST_INFO ("no GPU: cudadibr ran on the CPU, parity skipped");
      img_free (b);
      ctx_free (&gpu);
      break;
    }
    a = render ("cpudibr", "output", o, NULL);
    assert_img_equal (a, b, o ? "cudadibr vs cpudibr, stereo" : "cudadibr vs cpudibr, virtual");
    img_free (a);
    img_free (b);
    ctx_free (&gpu);
  }
}

GST_END_TEST;

static Suite *
dibr_stereo_pair_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("dibr-stereo-pair", TRUE, &s);

  tcase_add_test (tc, test_real_right_view);
  tcase_add_test (tc, test_real_anaglyph);
  tcase_add_test (tc, test_real_cuda_equals_cpu);
  return s;
}

int
main (int argc, char **argv)
{
  GstPluginFeature *jpegdec;

  gst_check_init (&argc, &argv);
  jpegdec = gst_registry_find_feature (gst_registry_get (), "jpegdec", GST_TYPE_ELEMENT_FACTORY);
  if (jpegdec == NULL) {
    g_print ("SKIP: no jpegdec (gstreamer1.0-plugins-good) to decode the stereo pair\n");
    return 77;
  }
  gst_object_unref (jpegdec);
  return gst_check_run_suite (dibr_stereo_pair_suite (), "dibr-stereo-pair", __FILE__);
}
