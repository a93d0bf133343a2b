/* gst-cuda-video: libgstcudavideo-1.0's GstCudaVideoMotionMeta on its own
 * (no element of the plugin): adding, replacing, listing, the records as
 * fields and as a buffer, what copies keep, what scales rescale (its
 * transform function directly and through videoconvert, videoscale,
 * videoflip and videocrop), and, on GStreamer >= 1.24, serialization
 * there and back, with truncated and corrupted data refused, and the
 * packed form that cudaipcsink forwards.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <gst/cudavideo/cudavideo.h>

#include <math.h>
#include <string.h>

#define W 64
#define H 48
#define BLOCK 16
#define COLS (W / BLOCK)
#define ROWS (H / BLOCK)

/* A blocks meta of a W x H frame in 16 x 16 blocks from "me0", vectors
 * with odd quarter-pixel components (rounding shows), and a points meta
 * from "vcm0". */
static GstBuffer *
buffer_with_metas (void)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H * 3 / 2, NULL);
  GstCudaVideoMotionVector v[COLS * ROWS];
  GstCudaVideoMotionPoint p[3] = { {10, 20, 1.5f, -0.75f, 0.9f}, {33, 7, -3.25f, 2, 0.5f}, {63, 47, 0, 0, -0.1f} };
  GstCudaVideoMotionMeta *m;
  GBytes *bytes;
  gint i;

  gst_buffer_memset (buf, 0, 0x80, W * H * 3 / 2);
  GST_BUFFER_PTS (buf) = 2 * GST_SECOND;
  gst_buffer_add_video_meta (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420, W, H);
  for (i = 0; i < COLS * ROWS; i++) {
    v[i].x = (i % COLS) * BLOCK;
    v[i].y = (i / COLS) * BLOCK;
    v[i].dx = 2 * i - 7;
    v[i].dy = 3 - i;
    v[i].sad = 100 + i;
  }
  bytes = g_bytes_new (v, sizeof (v));
  m = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, "me0", bytes);
  g_bytes_unref (bytes);
  fail_unless (m != NULL);
  m->frame = 7;
  m->has_reference = TRUE;
  m->pts = GST_BUFFER_PTS (buf);
  m->reference_pts = GST_BUFFER_PTS (buf) - GST_SECOND / 30;
  m->width = W;
  m->height = H;
  m->block_width = m->block_height = BLOCK;
  m->grid_width = COLS;
  m->grid_height = ROWS;
  m->subpel = 4;
  m->vector_scale = 4;
  m->method = "full";

  bytes = g_bytes_new (p, sizeof (p));
  m = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS, "vcm0", bytes);
  g_bytes_unref (bytes);
  fail_unless (m != NULL);
  m->frame = 7;
  m->has_reference = TRUE;
  m->width = W;
  m->height = H;
  m->window_size = 16;
  m->template_size = 5;
  m->search_size = 64;
  return buf;
}

/* Every field and record of @a and @b equal (the source compared as text). */
static void
assert_meta_equal (GstCudaVideoMotionMeta * a, GstCudaVideoMotionMeta * b, const gchar * what)
{
  gsize sa, sb;
  gconstpointer ra = g_bytes_get_data (gst_cuda_video_motion_meta_get_records (a), &sa);
  gconstpointer rb = g_bytes_get_data (gst_cuda_video_motion_meta_get_records (b), &sb);

  fail_unless (a->kind == b->kind && g_strcmp0 (a->source, b->source) == 0 && a->frame == b->frame
      && a->has_reference == b->has_reference && a->pts == b->pts && a->reference_pts == b->reference_pts
      && a->width == b->width && a->height == b->height && a->block_width == b->block_width
      && a->block_height == b->block_height && a->grid_width == b->grid_width
      && a->grid_height == b->grid_height && a->subpel == b->subpel && a->vector_scale == b->vector_scale
      && g_strcmp0 (a->method, b->method) == 0 && a->window_size == b->window_size
      && a->template_size == b->template_size && a->search_size == b->search_size
      && a->n_records == b->n_records, "%s: fields differ", what);
  fail_unless (sa == sb && (sa == 0 || memcmp (ra, rb, sa) == 0), "%s: records differ", what);
}

GST_START_TEST (test_add_get_replace)
{
  GstBuffer *buf = buffer_with_metas ();
  GstCudaVideoMotionMeta *b = gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GstCudaVideoMotionMeta *p = gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS);
  GstCudaVideoMotionMeta *again;
  const GstCudaVideoMotionVector *v;
  const GstCudaVideoMotionPoint *pt;
  GList *all;
  GBytes *one;
  GstBuffer *rb;
  guint n = 99;

  fail_unless (b != NULL && p != NULL && b != p);
  fail_unless_equals_string (b->source, "me0");
  fail_unless_equals_string (p->source, "vcm0");
  all = gst_buffer_get_cuda_video_motion_metas (buf);
  fail_unless_equals_int (g_list_length (all), 2);
  fail_unless (g_list_find (all, b) && g_list_find (all, p));
  g_list_free (all);

  v = gst_cuda_video_motion_meta_get_vectors (b, &n);
  fail_unless (v != NULL && n == COLS * ROWS && b->n_records == n);
  fail_unless (v[5].x == 16 && v[5].y == 16 && v[5].dx == 3 && v[5].dy == -2 && v[5].sad == 105);
  fail_unless (gst_cuda_video_motion_meta_get_points (b, &n) == NULL && n == 0);
  pt = gst_cuda_video_motion_meta_get_points (p, &n);
  fail_unless (pt != NULL && n == 3 && pt[1].dx == -3.25f && pt[2].score == -0.1f);
  fail_unless (gst_cuda_video_motion_meta_get_vectors (p, &n) == NULL && n == 0);
  rb = gst_cuda_video_motion_meta_get_records_buffer (b);
  fail_unless (gst_buffer_get_size (rb) == COLS * ROWS * 20 && gst_buffer_memcmp (rb, 0, v, COLS * ROWS * 20) == 0);
  gst_buffer_unref (rb);

  /* the same element again replaces its meta; another element adds one */
  one = g_bytes_new (pt, sizeof (*pt));
  again = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS, "vcm0", one);
  fail_unless (again != NULL && again->n_records == 1);
  fail_unless (again->pts == GST_CLOCK_TIME_NONE && again->reference_pts == GST_CLOCK_TIME_NONE
      && again->vector_scale == 1 && again->frame == 0 && again->width == 0 && again->method == NULL);
  p = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS, "vcm1", NULL);
  fail_unless (p != NULL && p->n_records == 0 && gst_cuda_video_motion_meta_get_points (p, &n) == NULL && n == 0);
  rb = gst_cuda_video_motion_meta_get_records_buffer (p);
  fail_unless (gst_buffer_get_size (rb) == 0);
  gst_buffer_unref (rb);
  all = gst_buffer_get_cuda_video_motion_metas (buf);
  fail_unless_equals_int (g_list_length (all), 3);
  fail_unless (g_list_find (all, again) && g_list_find (all, p) && g_list_find (all, b));
  g_list_free (all);

  /* records that are not whole records are refused */
  g_bytes_unref (one);
  one = g_bytes_new_static ("abc", 3);
  ASSERT_CRITICAL (fail_unless (gst_buffer_add_cuda_video_motion_meta (buf,
              GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, "bad", one) == NULL));
  g_bytes_unref (one);
  gst_buffer_unref (buf);

  buf = gst_buffer_new ();
  fail_unless (gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS) == NULL);
  fail_unless (gst_buffer_get_cuda_video_motion_metas (buf) == NULL);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* A copy shares the records; a copy of part of the memory drops the metas. */
GST_START_TEST (test_copy)
{
  GstBuffer *buf = buffer_with_metas (), *copy, *part;
  GstCudaVideoMotionMeta *a = gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GstCudaVideoMotionMeta *c;

  copy = gst_buffer_copy (buf);
  c = gst_buffer_get_cuda_video_motion_meta (copy, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  fail_unless (c != NULL && c != a);
  assert_meta_equal (a, c, "copy");
  fail_unless (gst_cuda_video_motion_meta_get_records (a) == gst_cuda_video_motion_meta_get_records (c));
  fail_unless (gst_buffer_get_cuda_video_motion_meta (copy, GST_CUDA_VIDEO_MOTION_KIND_POINTS) != NULL);

  part = gst_buffer_copy_region (buf, GST_BUFFER_COPY_ALL, 0, W * H);
  fail_unless (gst_buffer_get_cuda_video_motion_metas (part) == NULL);
  gst_buffer_unref (part);
  gst_buffer_unref (copy);
  gst_buffer_unref (buf);
}

GST_END_TEST;

static gint32
lround32 (gdouble v)
{
  return (gint32) (v < 0 ? -floor (-v + 0.5) : floor (v + 0.5));
}

/* The meta of @out against the one of @in scaled to @w x @h: block
 * positions and vectors rounded half away from zero, points exact. */
static void
check_scaled (GstBuffer * in, GstBuffer * out, gint w, gint h, const gchar * what)
{
  GstCudaVideoMotionMeta *a = gst_buffer_get_cuda_video_motion_meta (in, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GstCudaVideoMotionMeta *b = gst_buffer_get_cuda_video_motion_meta (out, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GstCudaVideoMotionMeta *pa = gst_buffer_get_cuda_video_motion_meta (in, GST_CUDA_VIDEO_MOTION_KIND_POINTS);
  GstCudaVideoMotionMeta *pb = gst_buffer_get_cuda_video_motion_meta (out, GST_CUDA_VIDEO_MOTION_KIND_POINTS);
  gdouble sx = (gdouble) w / W, sy = (gdouble) h / H;
  const GstCudaVideoMotionVector *va, *vb;
  const GstCudaVideoMotionPoint *qa, *qb;
  guint n, m, i;

  fail_unless (b != NULL && pb != NULL, "%s: metas dropped", what);
  fail_unless (b->width == w && b->height == h && pb->width == w && pb->height == h, "%s: size %dx%d", what,
      b->width, b->height);
  fail_unless (b->block_width == lround32 (BLOCK * sx) && b->block_height == lround32 (BLOCK * sy)
      && b->grid_width == COLS && b->grid_height == ROWS, "%s: blocks %dx%d", what, b->block_width,
      b->block_height);
  fail_unless (b->frame == a->frame && b->pts == a->pts && b->reference_pts == a->reference_pts
      && g_strcmp0 (b->source, a->source) == 0 && b->vector_scale == 4 && pb->window_size == pa->window_size,
      "%s: fields not kept", what);
  va = gst_cuda_video_motion_meta_get_vectors (a, &n);
  vb = gst_cuda_video_motion_meta_get_vectors (b, &m);
  fail_unless (n == m);
  for (i = 0; i < n; i++)
    fail_unless (vb[i].x == lround32 (va[i].x * sx) && vb[i].y == lround32 (va[i].y * sy)
        && vb[i].dx == lround32 (va[i].dx * sx) && vb[i].dy == lround32 (va[i].dy * sy)
        && vb[i].sad == va[i].sad, "%s: vector %u (%d, %d, %d, %d) from (%d, %d, %d, %d)", what, i, vb[i].x,
        vb[i].y, vb[i].dx, vb[i].dy, va[i].x, va[i].y, va[i].dx, va[i].dy);
  qa = gst_cuda_video_motion_meta_get_points (pa, &n);
  qb = gst_cuda_video_motion_meta_get_points (pb, &m);
  fail_unless (n == m && n == 3);
  for (i = 0; i < n; i++)
    fail_unless (qb[i].x == (gfloat) (qa[i].x * sx) && qb[i].y == (gfloat) (qa[i].y * sy)
        && qb[i].dx == (gfloat) (qa[i].dx * sx) && qb[i].dy == (gfloat) (qa[i].dy * sy)
        && qb[i].score == qa[i].score, "%s: point %u", what, i);
}

/* The transform function with GstVideoMetaTransform: the same size copies,
 * another size rescales (1.5 x 0.75: halves to round both ways). */
GST_START_TEST (test_scale_transform)
{
  GstBuffer *buf = buffer_with_metas (), *out = gst_buffer_new ();
  GstCudaVideoMotionMeta *a = gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GstVideoInfo in, same, other;
  GstVideoMetaTransform t = { &in, &same };

  gst_video_info_set_format (&in, GST_VIDEO_FORMAT_I420, W, H);
  gst_video_info_set_format (&same, GST_VIDEO_FORMAT_RGBA, W, H);
  gst_video_info_set_format (&other, GST_VIDEO_FORMAT_I420, 96, 36);
  fail_unless (a->meta.info->transform_func (out, (GstMeta *) a, buf, gst_video_meta_transform_scale_get_quark (), &t));
  assert_meta_equal (a, gst_buffer_get_cuda_video_motion_meta (out, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS),
      "same size");
  gst_buffer_unref (out);

  out = gst_buffer_new ();
  t.out_info = &other;
  fail_unless (a->meta.info->transform_func (out, (GstMeta *) a, buf, gst_video_meta_transform_scale_get_quark (), &t));
  a = gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_POINTS);
  fail_unless (a->meta.info->transform_func (out, (GstMeta *) a, buf, gst_video_meta_transform_scale_get_quark (), &t));
  check_scaled (buf, out, 96, 36, "transform to 96x36");
  gst_buffer_unref (out);

  /* a transform it does not know drops it */
  out = gst_buffer_new ();
  fail_if (a->meta.info->transform_func (out, (GstMeta *) a, buf, g_quark_from_static_string ("rotate"), NULL));
  fail_unless (gst_buffer_get_cuda_video_motion_metas (out) == NULL);
  gst_buffer_unref (out);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* One buffer through @launch (I420 64x48 in): what comes out. */
static GstBuffer *
through (const gchar * launch, GstBuffer * in)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=I420,width=64,height=48,framerate=30/1");
  out = gst_harness_push_and_pull (h, gst_buffer_ref (in));
  gst_harness_teardown (h);
  fail_unless (out != NULL, "%s: no output", launch);
  return out;
}

GST_START_TEST (test_through_elements)
{
  GstBuffer *in = buffer_with_metas (), *out;
  GstCudaVideoMotionMeta *a = gst_buffer_get_cuda_video_motion_meta (in, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);

  out = through ("videoconvert ! capsfilter caps=video/x-raw,format=RGBA", in);
  assert_meta_equal (a, gst_buffer_get_cuda_video_motion_meta (out, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS),
      "videoconvert");
  fail_unless (gst_buffer_get_cuda_video_motion_meta (out, GST_CUDA_VIDEO_MOTION_KIND_POINTS) != NULL);
  gst_buffer_unref (out);

  out = through ("videoscale ! capsfilter caps=video/x-raw,width=96,height=36", in);
  check_scaled (in, out, 96, 36, "videoscale");
  gst_buffer_unref (out);

  if (gst_registry_check_feature_version (gst_registry_get (), "videoflip", 1, 0, 0)) {
    out = through ("videoflip video-direction=horiz", in);
    fail_unless (gst_buffer_get_cuda_video_motion_metas (out) == NULL, "videoflip kept the metas");
    gst_buffer_unref (out);
    out = through ("videocrop left=4", in);
    fail_unless (gst_buffer_get_cuda_video_motion_metas (out) == NULL, "videocrop kept the metas");
    gst_buffer_unref (out);
  } else {
    GST_INFO ("no videoflip (gst-plugins-good): flip and crop not checked");
  }
  gst_buffer_unref (in);
}

GST_END_TEST;

#if GST_CHECK_VERSION(1, 24, 0)
/* Serialized and deserialized onto another buffer: the same meta; every
 * truncation and every single corrupted byte of the payload is refused or
 * gives a well-formed meta, never a crash. */
GST_START_TEST (test_serialize)
{
  GstBuffer *buf = buffer_with_metas ();
  GList *metas = gst_buffer_get_cuda_video_motion_metas (buf), *l;

  for (l = metas; l; l = l->next) {
    GstCudaVideoMotionMeta *a = l->data, *b;
    GByteArray *data = g_byte_array_new ();
    GstBuffer *other = gst_buffer_new ();
    guint32 consumed = 0;
    gsize cut;

    fail_unless (gst_meta_serialize_simple ((GstMeta *) a, data));
    b = (GstCudaVideoMotionMeta *) gst_meta_deserialize (other, data->data, data->len, &consumed);
    fail_unless (b != NULL && consumed == data->len);
    assert_meta_equal (a, b, "deserialized");
    gst_buffer_unref (other);

    for (cut = 0; cut < data->len; cut++) {
      other = gst_buffer_new ();
      /* the outer header's length is the whole: patch it to the cut */
      {
        guint8 *copy = g_memdup2 (data->data, data->len);
        if (cut >= 4)
          GST_WRITE_UINT32_LE (copy, cut);
        fail_unless (gst_meta_deserialize (other, copy, cut, &consumed) == NULL, "a cut at %" G_GSIZE_FORMAT
            " gave a meta", cut);
        g_free (copy);
      }
      gst_buffer_unref (other);
    }
    for (cut = 0; cut < data->len; cut++) {
      guint8 *copy = g_memdup2 (data->data, data->len);
      GstCudaVideoMotionMeta *c;

      copy[cut] ^= 0xa5;
      other = gst_buffer_new ();
      c = (GstCudaVideoMotionMeta *) gst_meta_deserialize (other, copy, data->len, &consumed);
      if (c != NULL) {
        guint n;
        fail_unless (c->n_records * 20 == g_bytes_get_size (gst_cuda_video_motion_meta_get_records (c)));
        if (c->kind == GST_CUDA_VIDEO_MOTION_KIND_BLOCKS && gst_cuda_video_motion_meta_get_vectors (c, &n))
          fail_unless (n == (guint) c->grid_width * c->grid_height);
      }
      gst_buffer_unref (other);
      g_free (copy);
    }
    g_byte_array_unref (data);
  }
  g_list_free (metas);
  gst_buffer_unref (buf);
}

GST_END_TEST;

/* Packed into custom metas (what cudaipcsink forwards), the custom metas
 * serialized and deserialized onto another buffer (what cudaipcsink and
 * cudaipcsrc do), unpacked there: the same metas, and no packed one left. */
GST_START_TEST (test_pack)
{
  GstBuffer *buf = buffer_with_metas (), *other = gst_buffer_new (), *unpacked, *again;
  GList *metas = gst_buffer_get_cuda_video_motion_metas (buf), *l;
  gpointer state = NULL;
  GstMeta *m;
  guint n_custom = 0;

  for (l = metas; l; l = l->next)
    fail_unless (gst_cuda_video_motion_meta_pack (l->data, buf));
  while ((m = gst_buffer_iterate_meta (buf, &state)) != NULL) {
    GByteArray *data;
    guint32 consumed = 0;
    if (!gst_meta_info_is_custom (m->info))
      continue;
    data = g_byte_array_new ();
    fail_unless (gst_meta_serialize_simple (m, data));
    fail_unless (gst_meta_deserialize (other, data->data, data->len, &consumed) != NULL && consumed == data->len);
    g_byte_array_unref (data);
    n_custom++;
  }
  fail_unless_equals_int (n_custom, 2);
  fail_unless (gst_buffer_get_cuda_video_motion_metas (other) == NULL);
  /* a reference held elsewhere (appsink's sample): not writable, and left so */
  gst_buffer_ref (other);
  unpacked = gst_buffer_unpack_cuda_video_motion_metas (other);
  fail_unless (unpacked != other && gst_buffer_get_cuda_video_motion_metas (other) == NULL);
  gst_buffer_unref (other);
  for (l = metas; l; l = l->next) {
    GstCudaVideoMotionMeta *a = l->data, *b = gst_buffer_get_cuda_video_motion_meta (unpacked, a->kind);
    fail_unless (b != NULL);
    assert_meta_equal (a, b, "packed and unpacked");
  }
  /* nothing packed is left; unpacking again gives the buffer itself */
  state = NULL;
  while ((m = gst_buffer_iterate_meta (unpacked, &state)) != NULL)
    fail_if (gst_meta_info_is_custom (m->info), "a packed meta is left");
  again = gst_buffer_unpack_cuda_video_motion_metas (unpacked);
  fail_unless (again == unpacked);
  gst_buffer_unref (again);
  /* unpacked where the metas are: each replaces its own */
  again = gst_buffer_unpack_cuda_video_motion_metas (buf);
  {
    GList *all = gst_buffer_get_cuda_video_motion_metas (again);
    fail_unless_equals_int (g_list_length (all), 2);
    g_list_free (all);
  }
  gst_buffer_unref (again);
  gst_buffer_unref (unpacked);
  g_list_free (metas);
  gst_buffer_unref (other);
  gst_buffer_unref (buf);
}

GST_END_TEST;
#endif

#if !GST_CHECK_VERSION(1, 24, 0)
GST_START_TEST (test_pack_unsupported)
{
  GstBuffer *buf = buffer_with_metas ();

  GstBuffer *same;

  fail_if (gst_cuda_video_motion_meta_pack (gst_buffer_get_cuda_video_motion_meta (buf,
              GST_CUDA_VIDEO_MOTION_KIND_BLOCKS), buf));
  same = gst_buffer_unpack_cuda_video_motion_metas (buf);
  fail_unless (same == buf);
  gst_buffer_unref (same);
  gst_buffer_unref (buf);
}

GST_END_TEST;
#endif

static Suite *
motionmeta_suite (void)
{
  Suite *s = suite_create ("cudavideo-motionmeta");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_add_get_replace);
  tcase_add_test (tc, test_copy);
  tcase_add_test (tc, test_scale_transform);
  tcase_add_test (tc, test_through_elements);
#if GST_CHECK_VERSION(1, 24, 0)
  tcase_add_test (tc, test_serialize);
  tcase_add_test (tc, test_pack);
#else
  /* no serialization before 1.24: packing says so */
  tcase_add_test (tc, test_pack_unsupported);
#endif
  return s;
}

GST_CHECK_MAIN (motionmeta);
