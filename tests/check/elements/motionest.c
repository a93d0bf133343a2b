/* gst-cuda-video: GstHarness tests for the cudamotionest and cpumotionest
 * elements (block-matching motion estimation) and their
 * GstCudaVideoMotionMeta.
 *
 * Every content test runs against both element names: on a machine without
 * a usable GPU cudamotionest falls back to the CPU twin (one warning) and
 * must give the very same vectors; on the GPU host the same assertions
 * check the CUDA backend.  With GST_CUDA_VIDEO_REQUIRE_GPU=1 in the
 * environment, cudamotionest must report backend "cuda" and the
 * multi-device cases (devices="0,0", split=parallel / serial) must run.
 *
 * The vectors and SADs of every frame are compared exactly with the
 * independent reference of tests/motionest_reference.h, run on the luma of
 * the previous and the current frame as pushed.  Besides, the truth is
 * checked where it is known: a photo window moved by an integer or a
 * quarter-pixel offset matches at SAD 0 at that offset.  The pixels must
 * come out unchanged byte for byte (padding and GstVideoMeta included)
 * unless draw=true, whose arrows are checked against the vectors; the JSON
 * lines of location= are parsed (a strict little parser below) and compared
 * with the meta.
 *
 * Input is crops of the photos in tests/data (set GCV_TEST_DATA_DIR to the
 * source tests/ directory when the built-in default does not point there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

/* the element test kit (tests/common): harness, frames, buffers, photos */
#include "gcv-check.h"
/* the contract: limits, enums, the record */
#include "motionest.h"
/* the independent reference and the frame pairs with known motion */
#include "motionest_reference.h"
/* the public reading side of the meta (gst/) */
#include <gst/cudavideo/cudavideo.h>

static const gchar *const element_names[] = { "cpumotionest", "cudamotionest" };

#define N_ELEMENTS G_N_ELEMENTS (element_names)

/* the template's formats, in its order */
static const GstVideoFormat all_formats[] = {
  GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
  GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_Y444,
};

#define N_FORMATS G_N_ELEMENTS (all_formats)

#define INT GCV_MOTION_SUBPEL_INTEGER
#define HALF GCV_MOTION_SUBPEL_HALF
#define QUARTER GCV_MOTION_SUBPEL_QUARTER
#define FULL GCV_MOTION_METHOD_FULL
#define MODS GCV_MOTION_METHOD_MODS

/* the element's defaults */
static const GcvMotionParams default_prm = { 16, 16, 16, 16, INT, FULL, 0.0 };

static const gchar *
subpel_nick (GcvMotionSubpel s)
{
  return s == QUARTER ? "quarter" : s == HALF ? "half" : "integer";
}

static const gchar *
method_nick (GcvMotionMethod m)
{
  return m == MODS ? "mods" : "full";
}

static gchar *
prm_describe (const GcvMotionParams * p)
{
  return g_strdup_printf ("block %dx%d range %d,%d subpel=%s method=%s "
      "zero-threshold=%g", p->block_width, p->block_height, p->range_x,
      p->range_y, subpel_nick (p->subpel), method_nick (p->method),
      p->zero_threshold);
}

/* the nick of an enum property */
/* sets the search properties (enums by nick) and reads them back */
static void
apply_prm (GstElement * e, const GcvMotionParams * p)
{
  gint bw, bh, rx, ry;
  gdouble zt;

  g_object_set (e, "block-width", p->block_width, "block-height",
      p->block_height, "search-range-x", p->range_x, "search-range-y",
      p->range_y, "zero-threshold", p->zero_threshold, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "subpel", subpel_nick (p->subpel));
  gst_util_set_object_arg (G_OBJECT (e), "method", method_nick (p->method));
  g_object_get (e, "block-width", &bw, "block-height", &bh, "search-range-x",
      &rx, "search-range-y", &ry, "zero-threshold", &zt, NULL);
  fail_unless (bw == p->block_width && bh == p->block_height
      && rx == p->range_x && ry == p->range_y && zt == p->zero_threshold);
  fail_unless_equals_string (enum_nick (e, "subpel"), subpel_nick (p->subpel));
  fail_unless_equals_string (enum_nick (e, "method"), method_nick (p->method));
}

/* ------------------------------------------------------------------------ */
/* frames                                                                   */

/* the luma of photo i, loaded once per test process */
typedef struct
{
  guint8 *luma;
  gint w, h;
} PhotoLuma;

static PhotoLuma photo_lumas[8];

static const PhotoLuma *
photo_luma (gint i)
{
  gint k = ((i % gcv_test_n_photos) + gcv_test_n_photos) % gcv_test_n_photos;

  fail_unless (k < (gint) G_N_ELEMENTS (photo_lumas));
  if (photo_lumas[k].luma == NULL)
    photo_lumas[k].luma = motion_test_photo_luma (k, &photo_lumas[k].w,
        &photo_lumas[k].h);
  return &photo_lumas[k];
}

/* The 8-bit luma of a frame as the contract reads it, a copy (g_free its
 * data): plane 0 as it is, P010's 16-bit words v as (v + 128) / 257. */
static GcvPlane
img_luma (const Img * im)
{
  GcvPlane p;
  gint x, y;

  p.width = img_w (im);
  p.height = img_h (im);
  p.stride = p.width;
  p.data = g_malloc ((gsize) p.width * p.height);
  for (y = 0; y < p.height; y++)
    for (x = 0; x < p.width; x++) {
      guint v = img_get (im, 0, x, y);
      if (img_format (im) == GST_VIDEO_FORMAT_P010_10LE)
        v = (v + 128) / 257;
      ((guint8 *) p.data)[y * p.width + x] = v;
    }
  return p;
}

/* A frame of fmt whose luma is @luma; chroma and padding pseudo-random
 * (@seed), so that an element that looked at them would show it.  P010:
 * the 10-bit replica of each value, (v * 257) >> 6, with pseudo-random low
 * 6 bits, which read back as v. */
static Img *
img_with_luma (GstVideoFormat fmt, const GcvPlane * luma, guint32 seed)
{
  Img *im = img_new (fmt, luma->width, luma->height);
  gsize i;
  gint x, y;

  rng_seed (seed);
  for (i = 0; i < GST_VIDEO_INFO_SIZE (&im->info); i++)
    im->data[i] = rng_next () >> 24;
  for (y = 0; y < luma->height; y++)
    for (x = 0; x < luma->width; x++) {
      guint v = ((const guint8 *) luma->data)[(gsize) y * luma->stride + x];
      if (fmt == GST_VIDEO_FORMAT_P010_10LE)
        v = (((v * 257) >> 6) << 6) | (rng_next () & 63);
      img_set (im, 0, x, y, v);
    }
  return im;
}

/* prev / cur of motion_test_shifted_pair (photo @which, window w x h at
 * (cx, cy), true motion (dx, dy) q) as two frames of fmt */
static void
shifted_pair (GstVideoFormat fmt, gint which, gint cx, gint cy, gint w, gint h,
    gint dx, gint dy, guint32 seed, Img ** prev, Img ** cur)
{
  const PhotoLuma *ph = photo_luma (which);
  GcvPlane p, c;

  motion_test_shifted_pair (ph->luma, ph->w, ph->h, cx, cy, w, h, dx, dy, 5,
      &p, &c);
  *prev = img_with_luma (fmt, &p, seed);
  *cur = img_with_luma (fmt, &c, seed + 1);
  free (p.data);
  free (c.data);
}

/* prev / cur of motion_test_random_pair (local motion up to @shift px,
 * noise of +-@noise levels) as two frames of fmt */
static void
random_pair (GstVideoFormat fmt, gint which, gint w, gint h, gint shift,
    gint noise, guint32 seed, Img ** prev, Img ** cur)
{
  const PhotoLuma *ph = photo_luma (which);
  GcvPlane p, c;

  motion_test_random_pair (ph->luma, ph->w, ph->h, w, h, shift, noise, 3, seed,
      &p, &c);
  *prev = img_with_luma (fmt, &p, seed);
  *cur = img_with_luma (fmt, &c, seed + 1);
  free (p.data);
  free (c.data);
}

/* n frames of photo @which in fmt (colour from the photo), the w x h
 * window of frame t at (x0 + pan[t][0], y0 + pan[t][1]): between frames
 * t-1 and t the content moves by -(pan[t] - pan[t-1]) pixels */
static Img **
pan_seq (GstVideoFormat fmt, gint w, gint h, gint n, gint which, gint x0,
    gint y0, const gint pan[][2], guint32 seed)
{
  Img **f = g_new0 (Img *, n);
  gint t;

  for (t = 0; t < n; t++)
    f[t] = img_from_test_photo_t (fmt, w, h, which, x0 + pan[t][0],
        y0 + pan[t][1], t, seed * 131 + t);
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

/* ------------------------------------------------------------------------ */
/* the meta                                                                 */

typedef struct
{
  gchar *kind, *method;
  gboolean has_reference;
  guint64 frame;
  GstClockTime pts, reference_pts;
  gint width, height, block_width, block_height, grid_width, grid_height;
  gint subpel, vector_scale;
  GcvMotionVector *v;           /* grid_width * grid_height, raster order */
  guint n;
} Meta;

static void
meta_clear (Meta * m)
{
  g_free (m->kind);
  g_free (m->method);
  g_free (m->v);
  memset (m, 0, sizeof (*m));
}

/* Reads the block meta of @buf through the public library: the one this
 * element (@buf went through no other) attached, every field, the records
 * as fields and as one block (which must be the same bytes). */
static void
meta_read (GstBuffer * buf, Meta * m, const gchar * what)
{
  GstCudaVideoMotionMeta *meta =
      gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
  GList *all = gst_buffer_get_cuda_video_motion_metas (buf);
  const GstCudaVideoMotionVector *rec;
  GstBuffer *block;
  guint i, n = 0, np = 1;

  memset (m, 0, sizeof (*m));
  fail_unless (meta != NULL, "%s: the output buffer has no block meta", what);
  fail_unless (g_list_length (all) == 1 && all->data == meta, "%s: %u motion "
      "metas", what, g_list_length (all));
  g_list_free (all);
  fail_unless (meta->source != NULL && (g_str_has_prefix (meta->source, "cpumotionest")
          || g_str_has_prefix (meta->source, "cudamotionest")), "%s: source %s", what,
      GST_STR_NULL (meta->source));
  m->kind = g_strdup ("blocks");
  m->method = g_strdup (meta->method);
  m->has_reference = meta->has_reference;
  m->frame = meta->frame;
  m->pts = meta->pts;
  m->reference_pts = meta->reference_pts;
  m->width = meta->width;
  m->height = meta->height;
  m->block_width = meta->block_width;
  m->block_height = meta->block_height;
  m->grid_width = meta->grid_width;
  m->grid_height = meta->grid_height;
  m->subpel = meta->subpel;
  m->vector_scale = meta->vector_scale;
  fail_unless (meta->window_size == 0 && meta->template_size == 0 && meta->search_size == 0,
      "%s: points fields set on a blocks meta", what);
  fail_unless (meta->pts == GST_BUFFER_PTS (buf), "%s: meta pts %" GST_TIME_FORMAT ", buffer %"
      GST_TIME_FORMAT, what, GST_TIME_ARGS (meta->pts), GST_TIME_ARGS (GST_BUFFER_PTS (buf)));

  fail_unless (gst_cuda_video_motion_meta_get_points (meta, &np) == NULL && np == 0,
      "%s: the points reader accepted a blocks meta", what);
  rec = gst_cuda_video_motion_meta_get_vectors (meta, &n);
  fail_unless (rec != NULL && n == meta->n_records && n == (guint) m->grid_width * m->grid_height,
      "%s: %u records (n_records %u) for a %dx%d grid", what, n, meta->n_records, m->grid_width,
      m->grid_height);
  block = gst_cuda_video_motion_meta_get_records_buffer (meta);
  fail_unless (gst_buffer_get_size (block) == n * sizeof (GstCudaVideoMotionVector)
      && gst_buffer_memcmp (block, 0, rec, n * sizeof (GstCudaVideoMotionVector)) == 0,
      "%s: the records buffer differs from the records", what);
  gst_buffer_unref (block);
  m->n = n;
  m->v = g_new (GcvMotionVector, MAX (n, 1));
  for (i = 0; i < n; i++) {
    m->v[i].x = rec[i].x;
    m->v[i].y = rec[i].y;
    m->v[i].dx = rec[i].dx;
    m->v[i].dy = rec[i].dy;
    m->v[i].sad = rec[i].sad;
  }
}

/* The reference vectors of the luma of @prev and @cur with @p (g_free) */
static GcvMotionVector *
ref_vectors (const GcvMotionParams * p, const Img * prev, const Img * cur)
{
  GcvPlane a = img_luma (prev), b = img_luma (cur);
  gint n = gcv_motion_grid_cols (a.width, p) * gcv_motion_grid_rows (a.height,
      p);
  GcvMotionVector *v = g_new (GcvMotionVector, n);

  fail_unless (motion_reference_search (p, &a, &b, v) == 0);
  g_free (a.data);
  g_free (b.data);
  return v;
}

/* The meta of a w x h frame searched with @p: every field, and the records:
 * @want, or (want NULL) the frame without a reference: block origins, zero
 * vectors, SAD 0.  @frame < 0: the frame counter is not checked. */
static void
check_meta (const Meta * m, const GcvMotionParams * p, gint w, gint h,
    const GcvMotionVector * want, gint64 frame, const gchar * what)
{
  gint gw = gcv_motion_grid_cols (w, p), gh = gcv_motion_grid_rows (h, p);
  gchar *d = prm_describe (p);
  guint i, bad = 0, first = 0;

  fail_unless_equals_string (m->kind, "blocks");
  fail_unless (!m->has_reference == !want, "%s (%s): has-reference %d, "
      "expected %d", what, d, m->has_reference, want != NULL);
  if (frame >= 0)
    fail_unless (m->frame == (guint64) frame, "%s: meta frame %"
        G_GUINT64_FORMAT ", expected %" G_GINT64_FORMAT, what, m->frame, frame);
  fail_unless (m->width == w && m->height == h, "%s: meta size %dx%d, frame "
      "%dx%d", what, m->width, m->height, w, h);
  fail_unless (m->block_width == p->block_width
      && m->block_height == p->block_height, "%s: meta blocks %dx%d, set %dx%d",
      what, m->block_width, m->block_height, p->block_width, p->block_height);
  fail_unless (m->grid_width == gw && m->grid_height == gh, "%s (%s): grid "
      "%dx%d, expected %dx%d", what, d, m->grid_width, m->grid_height, gw, gh);
  fail_unless_equals_int (m->subpel, p->subpel);
  fail_unless_equals_int (m->vector_scale, GCV_MOTION_Q);
  fail_unless_equals_string (m->method, method_nick (p->method));
  fail_unless_equals_int (m->n, gw * gh);

  for (i = 0; i < m->n; i++) {
    GcvMotionVector e = { (gint32) (i % gw) * p->block_width,
      (gint32) (i / gw) * p->block_height, 0, 0, 0
    };
    const GcvMotionVector *g = &m->v[i];
    if (want)
      e = want[i];
    if (g->x != e.x || g->y != e.y || g->dx != e.dx || g->dy != e.dy
        || g->sad != e.sad) {
      if (bad++ == 0)
        first = i;
    }
  }
  if (bad) {
    const GcvMotionVector *g = &m->v[first];
    GcvMotionVector e = { (gint32) (first % gw) * p->block_width,
      (gint32) (first / gw) * p->block_height, 0, 0, 0
    };
    if (want)
      e = want[first];
    fail ("%s (%s, %dx%d): %u of %u blocks differ from the %s, first block "
        "%u: got x %d y %d dx %d dy %d sad %u, expected x %d y %d dx %d dy %d "
        "sad %u", what, d, w, h, bad, m->n, want ? "reference" :
        "zero vectors of a frame without reference", first, g->x, g->y, g->dx,
        g->dy, g->sad, e.x, e.y, e.dx, e.dy, e.sad);
  }
  g_free (d);
}

/* Where the truth is known: the content of @m's frame moved by (tdx, tdy) q
 * (the same everywhere).  Every block for which that displacement is a
 * candidate of the full search (on the grid, in range, inside the frame)
 * must find a match of SAD 0, and at least @min_percent of those blocks
 * that very displacement (in flat areas a shorter vector may tie at SAD 0
 * and wins by the tie rule).  Returns how many blocks had the truth. */
static guint
check_truth (const Meta * m, const GcvMotionParams * p, gint tdx, gint tdy,
    gint min_percent, const gchar * what)
{
  gint step = GCV_MOTION_Q / p->subpel;
  guint i, candidates = 0, exact = 0;

  fail_unless (p->method == FULL);
  for (i = 0; i < m->n; i++) {
    const GcvMotionVector *v = &m->v[i];
    gint w = MIN (p->block_width, m->width - v->x);
    gint h = MIN (p->block_height, m->height - v->y);
    if (tdx % step || tdy % step || ABS (tdx) > 4 * p->range_x
        || ABS (tdy) > 4 * p->range_y || 4 * v->x + tdx < 0
        || 4 * v->y + tdy < 0 || 4 * (v->x + w - 1) + tdx > 4 * (m->width - 1)
        || 4 * (v->y + h - 1) + tdy > 4 * (m->height - 1))
      continue;
    candidates++;
    fail_unless (v->sad == 0, "%s: block at %d,%d moved by %d,%d q: best SAD "
        "%u at %d,%d, but the true displacement matches exactly", what, v->x,
        v->y, tdx, tdy, v->sad, v->dx, v->dy);
    if (v->dx == tdx && v->dy == tdy)
      exact++;
  }
  fail_unless (candidates > 0, "%s: no block can show the motion", what);
  fail_unless (exact * 100 >= candidates * (guint) min_percent, "%s: only %u "
      "of %u blocks found the true motion %d,%d q", what, exact, candidates,
      tdx, tdy);
  return exact;
}

/* ------------------------------------------------------------------------ */
/* pushing frames                                                           */

/* the plane layout of a buffer: its GstVideoMeta, or none */
static gboolean
video_meta_layout (GstBuffer * buf, gint * n_planes, gsize * offset,
    gint * stride)
{
  GstVideoMeta *vm = gst_buffer_get_video_meta (buf);
  guint p;

  if (vm == NULL)
    return FALSE;
  *n_planes = vm->n_planes;
  for (p = 0; p < vm->n_planes; p++) {
    offset[p] = vm->offset[p];
    stride[p] = vm->stride[p];
  }
  return TRUE;
}

/* What an input buffer was, to check the output against. */
typedef struct
{
  GstClockTime pts, duration;
  guint8 *bytes;
  gsize size;
  gboolean has_vmeta;
  gint n_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
} Sent;

static void
sent_take (Sent * s, GstBuffer * buf)
{
  memset (s, 0, sizeof (*s));
  s->pts = GST_BUFFER_PTS (buf);
  s->duration = GST_BUFFER_DURATION (buf);
  gst_buffer_extract_dup (buf, 0, gst_buffer_get_size (buf),
      (gpointer *) & s->bytes, &s->size);
  s->has_vmeta = video_meta_layout (buf, &s->n_planes, s->offset, s->stride);
}

static void
sent_clear (Sent * s)
{
  g_free (s->bytes);
  memset (s, 0, sizeof (*s));
}

/* @out is what @s was: same timestamps, same plane layout, and (unless
 * @drawn) the same bytes, padding included. */
static void
check_sent (const Sent * s, GstBuffer * out, gboolean drawn, const gchar * what)
{
  gint n_planes = 0, stride[GST_VIDEO_MAX_PLANES], p;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gboolean has_vmeta = video_meta_layout (out, &n_planes, offset, stride);
  GstMapInfo map;

  fail_unless (GST_BUFFER_PTS (out) == s->pts, "%s: PTS %" GST_TIME_FORMAT
      ", sent %" GST_TIME_FORMAT, what, GST_TIME_ARGS (GST_BUFFER_PTS (out)),
      GST_TIME_ARGS (s->pts));
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), s->duration);
  fail_unless (gst_buffer_get_size (out) == s->size, "%s: %" G_GSIZE_FORMAT
      " bytes out, %" G_GSIZE_FORMAT " in", what, gst_buffer_get_size (out),
      s->size);
  fail_unless (!has_vmeta == !s->has_vmeta, "%s: GstVideoMeta %s", what,
      has_vmeta ? "added" : "lost");
  if (has_vmeta) {
    fail_unless_equals_int (n_planes, s->n_planes);
    for (p = 0; p < n_planes; p++)
      fail_unless (offset[p] == s->offset[p] && stride[p] == s->stride[p],
          "%s: plane %d moved", what, p);
  }
  if (drawn)
    return;
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  if (memcmp (map.data, s->bytes, s->size) != 0) {
    gsize i = 0;
    while (map.data[i] == s->bytes[i])
      i++;
    gst_buffer_unmap (out, &map);
    fail ("%s: draw=false but byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
        " changed", what, i, s->size);
  }
  gst_buffer_unmap (out, &map);
}

/* The timestamp of the last frame process() pushed into @e (the reference
 * of the next one when that has a reference), kept on the element. */
#define LAST_PTS "gcv-test-last-pts"

static GstClockTime
last_pushed_pts (GstElement * e)
{
  GstClockTime *pts = g_object_get_data (G_OBJECT (e), LAST_PTS);

  return pts ? *pts : GST_CLOCK_TIME_NONE;
}

/* Pushes @in (in @layout) through a running element and pulls the result:
 * the same timestamps and bytes (unless @drawn), the backend as allowed,
 * the meta read into @m, its reference timestamp the previous frame's.
 * Returns the output buffer. */
static GstBuffer *
process (Ctx * ctx, const Img * in, Layout layout, gboolean drawn, Meta * m,
    const gchar * what)
{
  GstBuffer *buf = img_to_buffer (in, layout), *out;
  Sent s;

  sent_take (&s, buf);
  ctx_push_expect (ctx, buf, GST_FLOW_OK, what);
  out = gst_harness_try_pull (ctx->h);
  fail_unless (out != NULL, "%s: %s produced no buffer", what, ctx->name);
  check_sent (&s, out, drawn, what);
  check_backend (ctx->e, ctx->name);
  meta_read (out, m, what);
  fail_unless (m->reference_pts == (m->has_reference ? last_pushed_pts (ctx->e) : GST_CLOCK_TIME_NONE),
      "%s: reference pts %" GST_TIME_FORMAT ", the previous frame's %" GST_TIME_FORMAT, what,
      GST_TIME_ARGS (m->reference_pts), GST_TIME_ARGS (last_pushed_pts (ctx->e)));
  g_object_set_data_full (G_OBJECT (ctx->e), LAST_PTS, g_memdup2 (&s.pts, sizeof (s.pts)), g_free);
  sent_clear (&s);
  return out;
}

/* process() and check_meta() against the reference of (@prev, @in) (prev
 * NULL: no reference expected) */
static void
process_check (Ctx * ctx, const GcvMotionParams * p, const Img * prev,
    const Img * in, Layout layout, gint64 frame, const gchar * what)
{
  GcvMotionVector *want = prev ? ref_vectors (p, prev, in) : NULL;
  gchar *msg = g_strdup_printf ("%s %s: %s %dx%d, %s input", ctx->name, what,
      gst_video_format_to_string (img_format (in)), img_w (in), img_h (in),
      layout_names[layout]);
  Meta m;

  gst_buffer_unref (process (ctx, in, layout, FALSE, &m, msg));
  check_meta (&m, p, img_w (in), img_h (in), want, frame, msg);
  meta_clear (&m);
  g_free (want);
  g_free (msg);
}

/* A fresh element with @p: seq[0 .. n-1] through it, frame t in layout
 * (layout0 + t) mod N_LAYOUTS; each output checked against the reference */
static void
check_seq (const gchar * name, const GcvMotionParams * p, Img ** seq, gint n,
    Layout layout0, const gchar * what)
{
  Ctx ctx = ctx_new (name, NULL);
  gint t;

  apply_prm (ctx.e, p);
  ctx_set_caps (&ctx, &seq[0]->info);
  for (t = 0; t < n; t++) {
    gchar *msg = g_strdup_printf ("%s, frame %d", what, t);
    process_check (&ctx, p, t ? seq[t - 1] : NULL, seq[t],
        (layout0 + t) % N_LAYOUTS, t, msg);
    g_free (msg);
  }
  ctx_free (&ctx);
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

/* EOS in; whatever buffers come out before it are left in the queue */
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

/* ------------------------------------------------------------------------ */
/* JSON: a strict parser of one line (RFC 8259), enough to check what the    */
/* location property writes without another library                          */

typedef enum
{
  JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} JsonType;

typedef struct _Json Json;
struct _Json
{
  JsonType type;
  gboolean boolean;
  gdouble number;
  gchar *text;                  /* a number's literal, a string's value */
  GPtrArray *items;             /* an array's values, an object's values */
  GPtrArray *keys;              /* an object's keys, in order */
};

static void
json_free (Json * j)
{
  if (j == NULL)
    return;
  g_free (j->text);
  if (j->items)
    g_ptr_array_free (j->items, TRUE);
  if (j->keys)
    g_ptr_array_free (j->keys, TRUE);
  g_free (j);
}

typedef struct
{
  const gchar *p, *start;
  gchar *error;
} JsonParser;

static Json *json_value (JsonParser * ps, gint depth);

static Json *
json_fail (JsonParser * ps, const gchar * msg)
{
  if (ps->error == NULL)
    ps->error = g_strdup_printf ("%s at column %ld", msg,
        (long) (ps->p - ps->start) + 1);
  return NULL;
}

static void
json_ws (JsonParser * ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n')
    ps->p++;
}

static Json *
json_new (JsonType type)
{
  Json *j = g_new0 (Json, 1);
  j->type = type;
  return j;
}

static gchar *
json_string_body (JsonParser * ps)
{
  GString *s = g_string_new (NULL);

  ps->p++;                      /* the opening quote */
  for (;;) {
    guchar c = (guchar) * ps->p;
    if (c == '"') {
      ps->p++;
      return g_string_free (s, FALSE);
    }
    if (c < 0x20) {
      json_fail (ps, c ? "control character in a string" :
          "unterminated string");
      g_string_free (s, TRUE);
      return NULL;
    }
    if (c == '\\') {
      static const gchar from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
      const gchar *e = ps->p[1] ? strchr (from, ps->p[1]) : NULL;
      if (e) {
        g_string_append_c (s, to[e - from]);
        ps->p += 2;
      } else if (ps->p[1] == 'u' && g_ascii_isxdigit (ps->p[2])
          && g_ascii_isxdigit (ps->p[3]) && g_ascii_isxdigit (ps->p[4])
          && g_ascii_isxdigit (ps->p[5])) {
        gunichar u = (g_ascii_xdigit_value (ps->p[2]) << 12) |
            (g_ascii_xdigit_value (ps->p[3]) << 8) |
            (g_ascii_xdigit_value (ps->p[4]) << 4) |
            g_ascii_xdigit_value (ps->p[5]);
        g_string_append_unichar (s, u);
        ps->p += 6;
      } else {
        json_fail (ps, "bad escape");
        g_string_free (s, TRUE);
        return NULL;
      }
      continue;
    }
    g_string_append_c (s, (gchar) c);
    ps->p++;
  }
}

static Json *
json_number (JsonParser * ps)
{
  const gchar *b = ps->p;
  Json *j;

  if (*ps->p == '-')
    ps->p++;
  if (*ps->p == '0')
    ps->p++;
  else if (*ps->p >= '1' && *ps->p <= '9')
    while (g_ascii_isdigit (*ps->p))
      ps->p++;
  else
    return json_fail (ps, "bad number");
  if (*ps->p == '.') {
    ps->p++;
    if (!g_ascii_isdigit (*ps->p))
      return json_fail (ps, "no digit after the decimal point");
    while (g_ascii_isdigit (*ps->p))
      ps->p++;
  }
  if (*ps->p == 'e' || *ps->p == 'E') {
    ps->p++;
    if (*ps->p == '+' || *ps->p == '-')
      ps->p++;
    if (!g_ascii_isdigit (*ps->p))
      return json_fail (ps, "bad exponent");
    while (g_ascii_isdigit (*ps->p))
      ps->p++;
  }
  j = json_new (JSON_NUMBER);
  j->text = g_strndup (b, ps->p - b);
  j->number = g_ascii_strtod (j->text, NULL);
  return j;
}

static Json *
json_value (JsonParser * ps, gint depth)
{
  Json *j;

  if (depth > 32)
    return json_fail (ps, "nested too deep");
  json_ws (ps);
  switch (*ps->p) {
    case '{':
    case '[':{
      gboolean object = *ps->p == '{';
      gchar close = object ? '}' : ']';
      j = json_new (object ? JSON_OBJECT : JSON_ARRAY);
      j->items = g_ptr_array_new_with_free_func ((GDestroyNotify) json_free);
      if (object)
        j->keys = g_ptr_array_new_with_free_func (g_free);
      ps->p++;
      json_ws (ps);
      if (*ps->p == close) {
        ps->p++;
        return j;
      }
      for (;;) {
        Json *v;
        if (object) {
          gchar *key;
          guint k;
          json_ws (ps);
          if (*ps->p != '"' || (key = json_string_body (ps)) == NULL) {
            json_free (j);
            return json_fail (ps, "expected a key");
          }
          for (k = 0; k < j->keys->len; k++)
            if (g_str_equal (g_ptr_array_index (j->keys, k), key)) {
              g_free (key);
              json_free (j);
              return json_fail (ps, "duplicate key");
            }
          g_ptr_array_add (j->keys, key);
          json_ws (ps);
          if (*ps->p != ':') {
            json_free (j);
            return json_fail (ps, "expected ':'");
          }
          ps->p++;
        }
        if ((v = json_value (ps, depth + 1)) == NULL) {
          json_free (j);
          return NULL;
        }
        g_ptr_array_add (j->items, v);
        json_ws (ps);
        if (*ps->p == ',') {
          ps->p++;
          continue;
        }
        if (*ps->p == close) {
          ps->p++;
          return j;
        }
        json_free (j);
        return json_fail (ps, object ? "expected ',' or '}'" :
            "expected ',' or ']'");
      }
    }
    case '"':{
      gchar *s = json_string_body (ps);
      if (s == NULL)
        return NULL;
      j = json_new (JSON_STRING);
      j->text = s;
      return j;
    }
    case 't':
    case 'f':
    case 'n':{
      static const gchar *const words[] = { "true", "false", "null" };
      guint w;
      for (w = 0; w < G_N_ELEMENTS (words); w++)
        if (strncmp (ps->p, words[w], strlen (words[w])) == 0) {
          ps->p += strlen (words[w]);
          j = json_new (w == 2 ? JSON_NULL : JSON_BOOL);
          j->boolean = w == 0;
          return j;
        }
      return json_fail (ps, "bad literal");
    }
    default:
      return json_number (ps);
  }
}

/* one JSON text and nothing else; NULL with *error set otherwise */
static Json *
json_parse (const gchar * text, gchar ** error)
{
  JsonParser ps = { text, text, NULL };
  Json *j = json_value (&ps, 0);

  if (j) {
    json_ws (&ps);
    if (*ps.p != '\0') {
      json_free (j);
      j = json_fail (&ps, "trailing characters");
    }
  }
  *error = ps.error;
  return j;
}

static Json *
json_member (const Json * obj, const gchar * key)
{
  guint k;

  for (k = 0; k < obj->keys->len; k++)
    if (g_str_equal (g_ptr_array_index (obj->keys, k), key))
      return g_ptr_array_index (obj->items, k);
  return NULL;
}

#define JSON_ITEM(j, i) ((Json *) g_ptr_array_index ((j)->items, (i)))

/* a JSON number whose literal is exactly the decimal integer v */
static void
check_json_int (const Json * j, gint64 v, const gchar * key,
    const gchar * what)
{
  gchar *want = g_strdup_printf ("%" G_GINT64_FORMAT, v);

  fail_unless (j != NULL && j->type == JSON_NUMBER, "%s: \"%s\" is no number",
      what, key);
  fail_unless (g_str_equal (j->text, want), "%s: \"%s\" is %s, expected %s",
      what, key, j->text, want);
  g_free (want);
}

/* a displacement in pixels, written as a plain decimal number (no
 * exponent), equal to q quarter pixels exactly */
static void
check_json_pixels (const Json * j, gint32 q, const gchar * what)
{
  const gchar *t;

  fail_unless (j != NULL && j->type == JSON_NUMBER, "%s: not a number", what);
  t = j->text + (j->text[0] == '-');
  while (g_ascii_isdigit (*t))
    t++;
  if (*t == '.') {
    t++;
    while (g_ascii_isdigit (*t))
      t++;
  }
  fail_unless (*t == '\0', "%s: %s is not a plain decimal number", what,
      j->text);
  fail_unless (j->number * 4.0 == (gdouble) q, "%s: %s px, the meta says %d "
      "quarter pixels", what, j->text, q);
}

/* One line the location property wrote, against the meta of its buffer
 * (pts: the buffer's). */
static void
check_json_line (const gchar * line, const Meta * m, GstClockTime pts,
    const gchar * what)
{
  static const gchar *const field_names[] = { "x", "y", "dx", "dy", "sad" };
  gchar *error = NULL;
  Json *j = json_parse (line, &error), *f, *blocks;
  guint i, k;

  fail_unless (j != NULL, "%s: not JSON (%s): %.200s", what, error, line);
  fail_unless (j->type == JSON_OBJECT, "%s: not a JSON object", what);
  check_json_int (json_member (j, "frame"), (gint64) m->frame, "frame", what);
  f = json_member (j, "pts");
  if (GST_CLOCK_TIME_IS_VALID (pts))
    check_json_int (f, (gint64) pts, "pts", what);
  else
    fail_unless (f != NULL && f->type == JSON_NULL, "%s: \"pts\" is not null "
        "for a buffer without PTS", what);
  f = json_member (j, "has_reference");
  fail_unless (f != NULL && f->type == JSON_BOOL
      && !f->boolean == !m->has_reference, "%s: \"has_reference\" wrong", what);
  check_json_int (json_member (j, "width"), m->width, "width", what);
  check_json_int (json_member (j, "height"), m->height, "height", what);
  check_json_int (json_member (j, "block_width"), m->block_width,
      "block_width", what);
  check_json_int (json_member (j, "block_height"), m->block_height,
      "block_height", what);
  check_json_int (json_member (j, "grid_width"), m->grid_width, "grid_width",
      what);
  check_json_int (json_member (j, "grid_height"), m->grid_height,
      "grid_height", what);
  f = json_member (j, "fields");
  fail_unless (f != NULL && f->type == JSON_ARRAY && f->items->len == 5,
      "%s: \"fields\" is not an array of 5", what);
  for (k = 0; k < 5; k++)
    fail_unless (JSON_ITEM (f, k)->type == JSON_STRING
        && g_str_equal (JSON_ITEM (f, k)->text, field_names[k]), "%s: "
        "\"fields\"[%u] is not \"%s\"", what, k, field_names[k]);
  blocks = json_member (j, "blocks");
  fail_unless (blocks != NULL && blocks->type == JSON_ARRAY, "%s: no "
      "\"blocks\" array", what);
  fail_unless (blocks->items->len == m->n, "%s: %u blocks in JSON, %u in "
      "the meta", what, blocks->items->len, m->n);
  for (i = 0; i < m->n; i++) {
    Json *b = JSON_ITEM (blocks, i);
    gchar *bw = g_strdup_printf ("%s, block %u", what, i);
    fail_unless (b->type == JSON_ARRAY && b->items->len == 5, "%s: not an "
        "array of 5", bw);
    check_json_int (JSON_ITEM (b, 0), m->v[i].x, "x", bw);
    check_json_int (JSON_ITEM (b, 1), m->v[i].y, "y", bw);
    check_json_pixels (JSON_ITEM (b, 2), m->v[i].dx, bw);
    check_json_pixels (JSON_ITEM (b, 3), m->v[i].dy, bw);
    check_json_int (JSON_ITEM (b, 4), m->v[i].sad, "sad", bw);
    g_free (bw);
  }
  json_free (j);
  g_free (error);
}

/* ------------------------------------------------------------------------ */
/* arrows                                                                   */

/* every painted pixel lies within this many pixels of its arrow's shaft:
 * heads are at most 8 pixels long, and the end is rounded */
#define ARROW_REACH 10

/* The frame @out is @in with draw=true and @m's vectors: an arrow per block
 * from its centre (x0 + w/2, y0 + h/2) along (dx/4, dy/4).  Every luma
 * pixel that changed got one colour V, near an arrow; the centre of every
 * block and a pixel at every step along every shaft has V; in YUV the
 * colour is green (Cb and Cr below neutral), the same everywhere; every
 * sample of every component far from all arrows is unchanged. */
static void
check_drawing (const Img * in, const Img * out, const Meta * m,
    const gchar * what)
{
  gint w = img_w (in), h = img_h (in), x, y, c, V = -1, U = -1, Cr = -1;
  guint8 *near = g_new0 (guint8, (gsize) w * h);
  gboolean yuv = !format_is_gray (img_format (in));
  /* 128 in the format's samples (P010: 16-bit words) */
  gint half = GST_VIDEO_INFO_COMP_DEPTH (&in->info, 0) > 8 ? 128 << 8 : 128;
  guint i, changed = 0;

  fail_unless (m->width == w && m->height == h);
  for (i = 0; i < m->n; i++) {
    const GcvMotionVector *v = &m->v[i];
    gint bw = MIN (m->block_width, w - v->x), bh = MIN (m->block_height,
        h - v->y);
    gdouble cx = v->x + bw / 2, cy = v->y + bh / 2;
    gdouble ex = cx + v->dx / 4.0, ey = cy + v->dy / 4.0;
    gdouble len2 = (ex - cx) * (ex - cx) + (ey - cy) * (ey - cy);
    gint xa = MAX (0, (gint) floor (MIN (cx, ex)) - ARROW_REACH);
    gint xb = MIN (w - 1, (gint) ceil (MAX (cx, ex)) + ARROW_REACH);
    gint ya = MAX (0, (gint) floor (MIN (cy, ey)) - ARROW_REACH);
    gint yb = MIN (h - 1, (gint) ceil (MAX (cy, ey)) + ARROW_REACH);
    for (y = ya; y <= yb; y++)
      for (x = xa; x <= xb; x++) {
        gdouble t = len2 > 0 ? ((x - cx) * (ex - cx) + (y - cy) * (ey -
                cy)) / len2 : 0;
        gdouble px, py;
        t = CLAMP (t, 0.0, 1.0);
        px = cx + t * (ex - cx) - x;
        py = cy + t * (ey - cy) - y;
        if (px * px + py * py <= ARROW_REACH * ARROW_REACH)
          near[y * w + x] = 1;
      }
  }

  /* what changed in the luma: one colour, near arrows */
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      gint a = img_get (in, 0, x, y), b = img_get (out, 0, x, y);
      if (a == b)
        continue;
      changed++;
      fail_unless (near[y * w + x], "%s: luma at %d,%d changed (%d -> %d) "
          "%d+ pixels away from every arrow", what, x, y, a, b, ARROW_REACH);
      if (V < 0)
        V = b;
      fail_unless (b == V, "%s: painted luma %d at %d,%d, elsewhere %d", what,
          b, x, y, V);
    }
  fail_unless (changed > 0, "%s: draw=true changed no pixel", what);

  /* every other component: unchanged far from the arrows (a subsampled
   * sample is near when any pixel it covers is) */
  for (c = 0; c < img_n_comps (in); c++) {
    gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (in->info.finfo, c);
    gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (in->info.finfo, c);
    for (y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&in->info, c); y++)
      for (x = 0; x < GST_VIDEO_INFO_COMP_WIDTH (&in->info, c); x++) {
        gint xx, yy, is_near = 0;
        for (yy = y << hs; yy < MIN (h, (y + 1) << hs); yy++)
          for (xx = x << ws; xx < MIN (w, (x + 1) << ws); xx++)
            is_near |= near[yy * w + xx];
        if (!is_near)
          fail_unless (img_get (in, c, x, y) == img_get (out, c, x, y),
              "%s: component %d at %d,%d changed far from every arrow", what,
              c, x, y);
      }
  }

  /* every arrow is there: its centre, a pixel at each step of its shaft */
  for (i = 0; i < m->n; i++) {
    const GcvMotionVector *v = &m->v[i];
    gint bw = MIN (m->block_width, w - v->x), bh = MIN (m->block_height,
        h - v->y);
    gint cx = v->x + bw / 2, cy = v->y + bh / 2, steps, s;
    gdouble ex = cx + v->dx / 4.0, ey = cy + v->dy / 4.0;

    fail_unless ((gint) img_get (out, 0, cx, cy) == V, "%s: block %u (at "
        "%d,%d): centre %d,%d is %u, not the arrow colour %d", what, i, v->x,
        v->y, cx, cy, img_get (out, 0, cx, cy), V);
    if (yuv) {
      for (c = 1; c <= 2; c++) {
        gint ws = GST_VIDEO_FORMAT_INFO_W_SUB (in->info.finfo, c);
        gint hs = GST_VIDEO_FORMAT_INFO_H_SUB (in->info.finfo, c);
        gint got = img_get (out, c, cx >> ws, cy >> hs);
        gint *want = c == 1 ? &U : &Cr;
        if (*want < 0)
          *want = got;
        fail_unless (got == *want && got < half, "%s: block %u: %s %d at its "
            "centre (elsewhere %d; green has both below 128)", what, i,
            c == 1 ? "Cb" : "Cr", got, *want);
      }
    }
    steps = (gint) lround (MAX (fabs (ex - cx), fabs (ey - cy)));
    for (s = 1; s <= steps; s++) {
      gint px = (gint) lround (cx + (ex - cx) * s / steps);
      gint py = (gint) lround (cy + (ey - cy) * s / steps);
      gint found = 0, xx, yy;
      for (yy = MAX (0, py - 1); yy <= MIN (h - 1, py + 1); yy++)
        for (xx = MAX (0, px - 1); xx <= MIN (w - 1, px + 1); xx++)
          found |= (gint) img_get (out, 0, xx, yy) == V;
      fail_unless (found, "%s: block %u (vector %d,%d q from %d,%d): no "
          "arrow pixel near %d,%d", what, i, v->dx, v->dy, cx, cy, px, py);
    }
  }
  g_free (near);
}

/* ======================================================================== */
/* tests                                                                    */

/* gst-inspect style: every property has a nick and a blurb, a fresh
 * element holds the defaults; ranges, defaults, enum values and the flags
 * as documented; the metadata and the pad templates */
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
    {"block-width", 4, 128, 16},
    {"block-height", 4, 128, 16},
    {"search-range-x", 0, 128, 16},
    {"search-range-y", 0, 128, 16},
  };
  static const gchar *const subpel_nicks[] = { "integer", "half", "quarter" };
  static const gint subpel_values[] = { 1, 2, 4 };
  static const gchar *const method_nicks[] = { "full", "mods" };
  static const gchar *const split_nicks[] = { "parallel", "serial" };
  static const struct
  {
    const gchar *prop;
    const gchar *const *nicks;
    const gint *values;         /* NULL: 0, 1, ... */
    guint n;
    const gchar *def;
    gboolean ready_only;
  } enums[] = {
    {"subpel", subpel_nicks, subpel_values, 3, "integer", FALSE},
    {"method", method_nicks, NULL, 2, "full", FALSE},
    {"split", split_nicks, NULL, 2, "parallel", TRUE},
  };
  /* devices and split: cudamotionest's alone (more GPUs to share the
   * work); cpumotionest has neither */
  const gboolean cuda = g_str_has_prefix (name, "cuda");

  fail_unless (e != NULL, "no element %s (is GST_PLUGIN_PATH set?)", name);
  klass = G_OBJECT_GET_CLASS (e);

  /* every property: a nick, a blurb that says something, the default */
  n = check_properties_documented (e, name);
  fail_unless (n >= (cuda ? 19u : 15u), "%s has only %u properties", name, n);
  fail_unless ((g_object_class_find_property (klass, "devices") != NULL) == cuda
      && (g_object_class_find_property (klass, "split") != NULL) == cuda,
      "%s: devices and split are cudamotionest's alone", name);

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
    g_object_set (e, ints[i].prop, ints[i].max, NULL);
    g_object_get (e, ints[i].prop, &v, NULL);
    fail_unless_equals_int (v, ints[i].max);
    g_object_set (e, ints[i].prop, ints[i].min, NULL);
    g_object_get (e, ints[i].prop, &v, NULL);
    fail_unless_equals_int (v, ints[i].min);
    g_object_set (e, ints[i].prop, ints[i].def, NULL);
  }
  fail_unless_equals_int (GCV_MOTION_MIN_BLOCK, 4);
  fail_unless_equals_int (GCV_MOTION_MAX_BLOCK, 128);
  fail_unless_equals_int (GCV_MOTION_MAX_RANGE, 128);

  pspec = g_object_class_find_property (klass, "zero-threshold");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_DOUBLE (pspec));
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->minimum == 0.0);
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->maximum == 255.0);
  fail_unless (G_PARAM_SPEC_DOUBLE (pspec)->default_value == 0.0);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);
  {
    gdouble zt;
    g_object_set (e, "zero-threshold", 3.75, NULL);
    g_object_get (e, "zero-threshold", &zt, NULL);
    fail_unless (zt == 3.75);
    g_object_set (e, "zero-threshold", 255.0, NULL);
    g_object_get (e, "zero-threshold", &zt, NULL);
    fail_unless (zt == 255.0);
    g_object_set (e, "zero-threshold", 0.0, NULL);
  }

  pspec = g_object_class_find_property (klass, "draw");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_BOOLEAN (pspec));
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING);

  /* append: false (the file is emptied at start, as filesink's), settable
   * before start only */
  pspec = g_object_class_find_property (klass, "append");
  fail_unless (pspec != NULL && G_IS_PARAM_SPEC_BOOLEAN (pspec));
  fail_unless (G_PARAM_SPEC_BOOLEAN (pspec)->default_value == FALSE);
  fail_unless ((pspec->flags & GST_PARAM_MUTABLE_READY) && !(pspec->flags & GST_PARAM_MUTABLE_PLAYING));

  /* strings, settable before start only */
  {
    static const struct
    {
      const gchar *prop, *def, *value;
    } strs[] = {
      {"location", NULL, "/tmp/some-vectors.jsonl"},
      {"devices", "", "0,1"},
    };
    for (i = 0; i < G_N_ELEMENTS (strs); i++) {
      gchar *s = NULL;
      if (!cuda && g_str_equal (strs[i].prop, "devices"))
        continue;
      pspec = g_object_class_find_property (klass, strs[i].prop);
      fail_unless (pspec != NULL && G_IS_PARAM_SPEC_STRING (pspec), "no "
          "string %s", strs[i].prop);
      fail_unless_equals_string (G_PARAM_SPEC_STRING (pspec)->default_value,
          strs[i].def);
      fail_unless ((pspec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_READY, "%s is not "
          "flagged changeable in READY", strs[i].prop);
      fail_if (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s is flagged "
          "changeable in PLAYING", strs[i].prop);
      g_object_set (e, strs[i].prop, strs[i].value, NULL);
      g_object_get (e, strs[i].prop, &s, NULL);
      fail_unless_equals_string (s, strs[i].value);
      g_free (s);
      g_object_set (e, strs[i].prop, strs[i].def, NULL);
    }
  }

  /* enums: the documented nicks and values */
  for (i = 0; i < G_N_ELEMENTS (enums); i++) {
    GEnumClass *ec;
    guint k;
    if (!cuda && g_str_equal (enums[i].prop, "split"))
      continue;
    pspec = g_object_class_find_property (klass, enums[i].prop);
    fail_unless (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec), "no enum %s",
        enums[i].prop);
    if (enums[i].ready_only)
      fail_unless ((pspec->flags & GST_PARAM_MUTABLE_READY)
          && !(pspec->flags & GST_PARAM_MUTABLE_PLAYING), "%s: not flagged "
          "READY-only", enums[i].prop);
    else
      fail_unless (pspec->flags & GST_PARAM_MUTABLE_PLAYING, "%s is not "
          "changeable in PLAYING", enums[i].prop);
    ec = G_PARAM_SPEC_ENUM (pspec)->enum_class;
    fail_unless_equals_int (ec->n_values, enums[i].n);
    for (k = 0; k < enums[i].n; k++) {
      GEnumValue *ev = g_enum_get_value_by_nick (ec, enums[i].nicks[k]);
      fail_unless (ev != NULL, "%s: no value %s", enums[i].prop,
          enums[i].nicks[k]);
      fail_unless_equals_int (ev->value, enums[i].values ?
          enums[i].values[k] : (gint) k);
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
  /* the contract's values are the subpel enum's */
  fail_unless_equals_int (GCV_MOTION_SUBPEL_INTEGER, 1);
  fail_unless_equals_int (GCV_MOTION_SUBPEL_HALF, 2);
  fail_unless_equals_int (GCV_MOTION_SUBPEL_QUARTER, 4);

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
        "Filter/Analyzer/Video/Hardware" : "Filter/Analyzer/Video");
    fail_unless (longname && strstr (longname, "otion") != NULL,
        "long name %s", GST_STR_NULL (longname));
    fail_unless (g_str_has_prefix (longname, g_str_has_prefix (name, "cuda") ?
            "CUDA" : "CPU"), "long name %s", longname);
    fail_unless (strlen (gst_element_class_get_metadata (ek,
                GST_ELEMENT_METADATA_DESCRIPTION)) > 20);
    fail_unless (GST_IS_BASE_TRANSFORM (e));
  }

  /* the pad templates: always, video/x-raw in exactly the documented
   * formats, sizes 1 .. 32767 */
  {
    static const gchar *const pads[] = { "sink", "src" };
    guint p, f;
    for (p = 0; p < 2; p++) {
      GstPadTemplate *t = gst_element_class_get_pad_template
          (GST_ELEMENT_GET_CLASS (e), pads[p]);
      GstCaps *caps;
      GstStructure *s;
      const GValue *formats, *width;
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
      width = gst_structure_get_value (s, "width");
      fail_unless (width && GST_VALUE_HOLDS_INT_RANGE (width));
      fail_unless_equals_int (gst_value_get_int_range_min (width), 1);
      fail_unless_equals_int (gst_value_get_int_range_max (width), 32767);
      gst_caps_unref (caps);
    }
  }
  gst_object_unref (e);
}

GST_END_TEST;

/* values out of range: refused with a warning naming the property, the old
 * value kept; malformed device lists likewise; the element estimates on
 * with the values it kept */
GST_START_TEST (test_property_rejection)
{
  const gchar *name = element_names[__i__];
  Ctx ctx = ctx_new (name, NULL);
  GcvMotionParams p = motion_test_params (12, 8, 5, 3, HALF, MODS, 1.5);
  static const struct
  {
    const gchar *prop;
    gint v;
  } bad_ints[] = {
    {"block-width", 3}, {"block-width", 129}, {"block-width", 0},
    {"block-width", -16}, {"block-height", 3}, {"block-height", 1000},
    {"search-range-x", -1}, {"search-range-x", 129}, {"search-range-y", -5},
    {"search-range-y", G_MAXINT},
  };
  static const struct
  {
    const gchar *prop;
    gint v;
  } bad_enums[] = {
    {"subpel", 0}, {"subpel", 3}, {"subpel", 8}, {"method", 2},
    {"method", -1}, {"split", 2},
  };
  static const gchar *const bad_devices[] = {
    "0,x", "-1", "0,,1", "x", "0,", ",0", "1.5", "0;1", "0 1",
  };
  /* devices and split: cudamotionest's alone */
  const gboolean cuda = g_str_has_prefix (name, "cuda");
  guint i;

  apply_prm (ctx.e, &p);
  if (cuda)
    g_object_set (ctx.e, "devices", "0,0", NULL);
  for (i = 0; i < G_N_ELEMENTS (bad_ints); i++)
    reject_int (ctx.e, bad_ints[i].prop, bad_ints[i].v, NULL);
  reject_double (ctx.e, "zero-threshold", -0.5);
  reject_double (ctx.e, "zero-threshold", 255.5);
  reject_double (ctx.e, "zero-threshold", 1e300);
  for (i = 0; i < G_N_ELEMENTS (bad_enums); i++) {
    GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
        (ctx.e), bad_enums[i].prop);
    GValue v = G_VALUE_INIT;
    if (!cuda && g_str_equal (bad_enums[i].prop, "split"))
      continue;
    g_value_init (&v, pspec->value_type);
    g_value_set_enum (&v, bad_enums[i].v);
    expect_rejected (ctx.e, bad_enums[i].prop, &v, NULL);
    g_value_unset (&v);
  }
  for (i = 0; i < G_N_ELEMENTS (bad_devices) && cuda; i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_STRING);
    g_value_set_string (&v, bad_devices[i]);
    expect_rejected (ctx.e, "devices", &v, bad_devices[i]);
    g_value_unset (&v);
  }
  /* lists that are fine, repeats included */
  {
    static const gchar *const good[] = { "0", "0,1", "0,0", "3,1,2", "" };
    for (i = 0; i < G_N_ELEMENTS (good) && cuda; i++) {
      gchar *s = NULL;
      g_object_set (ctx.e, "devices", good[i], NULL);
      g_object_get (ctx.e, "devices", &s, NULL);
      fail_unless_equals_string (s, good[i]);
      g_free (s);
    }
  }
  apply_prm (ctx.e, &p);

  /* launch lines: unknown nicks are errors naming the property */
  {
    static const gchar *const bad[] = { "subpel=eighth", "method=hexagon",
      "split=both"
    };
    for (i = 0; i < G_N_ELEMENTS (bad); i++) {
      GError *err = NULL;
      gchar *desc = g_strdup_printf ("%s %s", name, bad[i]);
      /* (on cpumotionest split is no property: an error naming it too) */
      gchar *prop = g_strndup (bad[i], strchr (bad[i], '=') - bad[i]);
      GstElement *el = gst_parse_launch (desc, &err);
      fail_unless (err != NULL, "'%s' parsed", desc);
      fail_unless (strstr (err->message, prop) != NULL, "%s: %s", desc,
          err->message);
      g_clear_error (&err);
      if (el)
        gst_object_unref (el);
      g_free (prop);
      g_free (desc);
    }
  }
  {
    GError *err = NULL;
    gchar *desc = g_strdup_printf ("%s block-width=24 block-height=6 "
        "search-range-x=40 search-range-y=0 subpel=quarter method=mods "
        "zero-threshold=2.5 draw=true%s", name, cuda ? " devices=0,0 split=serial" : "");
    GstElement *el = gst_parse_launch (desc, &err);
    gint bw, bh, rx, ry;
    gdouble zt;
    gboolean draw;
    gchar *dev = NULL;
    fail_unless (err == NULL && el != NULL, "'%s': %s", desc,
        err ? err->message : "?");
    g_object_get (el, "block-width", &bw, "block-height", &bh,
        "search-range-x", &rx, "search-range-y", &ry, "zero-threshold", &zt,
        "draw", &draw, NULL);
    fail_unless (bw == 24 && bh == 6 && rx == 40 && ry == 0 && zt == 2.5
        && draw);
    fail_unless_equals_string (enum_nick (el, "subpel"), "quarter");
    fail_unless_equals_string (enum_nick (el, "method"), "mods");
    if (cuda) {
      g_object_get (el, "devices", &dev, NULL);
      fail_unless_equals_string (dev, "0,0");
      fail_unless_equals_string (enum_nick (el, "split"), "serial");
    }
    g_free (dev);
    gst_object_unref (el);
    g_free (desc);
  }

  /* still estimating with the values it kept */
  {
    Img *a, *b;
    random_pair (GST_VIDEO_FORMAT_I420, 1, 64, 40, 3, 2, 77, &a, &b);
    if (cuda)
      g_object_set (ctx.e, "devices", "", NULL);
    ctx_set_caps (&ctx, &a->info);
    process_check (&ctx, &p, NULL, a, LAYOUT_DEFAULT, 0, "after rejections");
    process_check (&ctx, &p, a, b, LAYOUT_ALIGNED, 1, "after rejections");
    img_free (a);
    img_free (b);
  }
  ctx_free (&ctx);
}

GST_END_TEST;

/* the template's formats and sizes are accepted, others refused; the caps
 * never change across the element */
GST_START_TEST (test_caps)
{
  const gchar *name = element_names[__i__];
  static const gchar *const rejected[] = {
    "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1",
    "video/x-raw,format=BGRx,width=64,height=48,framerate=30/1",
    "video/x-raw,format=YUY2,width=64,height=48,framerate=30/1",
    "video/x-raw,format=GRAY16_LE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=I420_10LE,width=64,height=48,framerate=30/1",
    "video/x-raw,format=NV21,width=64,height=48,framerate=30/1",
    "video/x-raw,format=I420,width=0,height=48,framerate=30/1",
    "video/x-raw,format=GRAY8,width=64,height=32768,framerate=30/1",
    "audio/x-raw,format=S16LE,rate=48000,channels=2,layout=interleaved",
  };
  Ctx ctx = ctx_new (name, NULL);
  GstPad *sinkpad = gst_element_get_static_pad (ctx.e, "sink");
  GstPad *srcpad = gst_element_get_static_pad (ctx.e, "src");
  GstCaps *peer, *in;
  guint f, k;

  for (f = 0; f < N_FORMATS; f++) {
    static const gint sizes[][2] = { {1, 1}, {641, 481}, {32767, 32767} };
    guint s;
    for (s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gchar *str = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
          "height=%d,framerate=25/1",
          gst_video_format_to_string (all_formats[f]), sizes[s][0],
          sizes[s][1]);
      GstCaps *c = gst_caps_from_string (str);
      fail_unless (gst_pad_query_accept_caps (sinkpad, c), "%s refused", str);
      gst_caps_unref (c);
      g_free (str);
    }
  }
  check_caps_refused (sinkpad, rejected, G_N_ELEMENTS (rejected));
  check_device_caps (ctx.e, sinkpad, "video/x-raw(memory:CUDAMemory),format=I420,width=64,"
      "height=48,framerate=30/1");

  in = gst_caps_from_string ("video/x-raw,format=NV12,width=71,height=33,"
      "framerate=30/1");
  gst_harness_set_src_caps (ctx.h, gst_caps_ref (in));
  peer = gst_pad_query_caps (srcpad, NULL);
  fail_if (gst_caps_is_empty (peer));
  for (k = 0; k < gst_caps_get_size (peer); k++) {
    GstStructure *s = gst_caps_get_structure (peer, k);
    const GValue *v = gst_structure_get_value (s, "format");
    gint w = 0, h = 0;
    gchar *str = gst_caps_to_string (peer);
    fail_unless (v && G_VALUE_HOLDS_STRING (v)
        && g_str_equal (g_value_get_string (v), "NV12")
        && gst_structure_get_int (s, "width", &w) && w == 71
        && gst_structure_get_int (s, "height", &h) && h == 33,
        "src pad offers %s for NV12 71x33 input", str);
    g_free (str);
  }
  gst_caps_unref (peer);
  {
    Img *a = img_from_test_photo (GST_VIDEO_FORMAT_NV12, 71, 33, 0, 10, 10, 1);
    Meta m;
    gst_buffer_unref (process (&ctx, a, LAYOUT_DEFAULT, FALSE, &m, "NV12"));
    ctx_check_out_caps (&ctx, GST_VIDEO_FORMAT_NV12, 71, 33, 1, 1, "NV12");
    {
      GstCaps *out = ctx_out_caps (&ctx);
      fail_unless (gst_caps_is_equal (out, in));
      gst_caps_unref (out);
    }
    meta_clear (&m);
    img_free (a);
  }
  gst_caps_unref (in);
  gst_object_unref (sinkpad);
  gst_object_unref (srcpad);
  ctx_free (&ctx);
}

GST_END_TEST;

/* every format and buffer layout: a panned photo (real colour, the luma of
 * each format), the vectors of every frame exactly the reference's, the
 * true motion found, the pixels untouched */
GST_START_TEST (test_formats_layouts)
{
  const gchar *name = element_names[__i__];
  /* crop origins: the content moves by minus the step between frames */
  static const gint pan[][2] = { {0, 0}, {3, 1}, {1, -2}, {-4, 0}, {-4, 0} };
  /* quick mode: the first three frames (two motions, every layout) */
  const gint n = gcv_check_quick () ? 3 : G_N_ELEMENTS (pan);
  guint f;

  for (f = 0; f < N_FORMATS; f++) {
    Img **seq = pan_seq (all_formats[f], 72, 56, n, f, 150 + 20 * f, 140, pan,
        30 + f);
    Ctx ctx = ctx_new (name, NULL);
    gint t;

    ctx_set_caps (&ctx, &seq[0]->info);
    for (t = 0; t < n; t++) {
      gchar *what = g_strdup_printf ("%s %s frame %d", name,
          gst_video_format_to_string (all_formats[f]), t);
      GcvMotionVector *want = t ? ref_vectors (&default_prm, seq[t - 1],
          seq[t]) : NULL;
      Layout layout = (f + t) % N_LAYOUTS;
      Meta m;
      Img *out;
      GstBuffer *buf = process (&ctx, seq[t], layout, FALSE, &m, what);
      GstCaps *caps = ctx_out_caps (&ctx);

      out = img_from_buffer (buf, caps);
      assert_img_equal (out, seq[t], what);
      check_meta (&m, &default_prm, 72, 56, want, t, what);
      if (t > 0)
        check_truth (&m, &default_prm, -4 * (pan[t][0] - pan[t - 1][0]),
            -4 * (pan[t][1] - pan[t - 1][1]), 75, what);
      gst_caps_unref (caps);
      gst_buffer_unref (buf);
      img_free (out);
      meta_clear (&m);
      g_free (want);
      g_free (what);
    }
    ctx_free (&ctx);
    seq_free (seq, n);
  }
}

GST_END_TEST;

/* fractional motion: a photo window moved by known quarter-pixel offsets
 * (P sampled bilinearly off the photo, so the true displacement matches at
 * SAD 0); chroma is random in every frame.  Full search on the half and
 * quarter grids finds the truth; full and MODS equal the reference. */
GST_START_TEST (test_subpel)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gint dx, dy;                /* true motion, q */
    GcvMotionSubpel subpel;
    GcvMotionMethod method;
    gint range, bw, bh;
  } cases[] = {
    {5, -3, QUARTER, FULL, 3, 16, 16},
    {-6, 2, HALF, FULL, 4, 16, 8},
    {1, 1, QUARTER, FULL, 2, 8, 8},
    {-7, -9, QUARTER, FULL, 3, 12, 20},
    {10, -2, HALF, FULL, 3, 16, 16},
    {9, 4, QUARTER, MODS, 8, 16, 16},
    {-14, 6, HALF, MODS, 16, 8, 16},
    {12, -8, INT, MODS, 6, 16, 12},
    {5, -3, INT, FULL, 4, 16, 16},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GcvMotionParams p = motion_test_params (cases[c].bw, cases[c].bh, cases[c].range,
        cases[c].range, cases[c].subpel, cases[c].method, 0);
    GstVideoFormat fmt = all_formats[c % N_FORMATS];
    Img *a, *b;
    Ctx ctx = ctx_new (name, NULL);
    gchar *what = g_strdup_printf ("motion %d,%d q, %s", cases[c].dx,
        cases[c].dy, gst_video_format_to_string (fmt));
    GcvMotionVector *want;
    Meta m;

    shifted_pair (fmt, c, 60 + 10 * c, 50 + 7 * c, 80, 64, cases[c].dx,
        cases[c].dy, 900 + c, &a, &b);
    apply_prm (ctx.e, &p);
    ctx_set_caps (&ctx, &a->info);
    process_check (&ctx, &p, NULL, a, c % N_LAYOUTS, 0, what);
    want = ref_vectors (&p, a, b);
    gst_buffer_unref (process (&ctx, b, (c + 1) % N_LAYOUTS, FALSE, &m,
            what));
    check_meta (&m, &p, 80, 64, want, 1, what);
    if (p.method == FULL && cases[c].dx % (4 / p.subpel) == 0
        && cases[c].dy % (4 / p.subpel) == 0)
      check_truth (&m, &p, cases[c].dx, cases[c].dy, 75, what);
    /* and back: the reverse motion, from the other frame */
    meta_clear (&m);
    g_free (want);
    process_check (&ctx, &p, b, a, (c + 2) % N_LAYOUTS, 2, what);
    ctx_free (&ctx);
    g_free (what);
    img_free (a);
    img_free (b);
  }
}

GST_END_TEST;

/* sizes that blocks do not divide, tiny frames, one block larger than the
 * frame, the largest blocks and ranges, 641x481; local motion with noise */
GST_START_TEST (test_odd_sizes)
{
  const gchar *name = element_names[__i__];
  static const struct
  {
    gint w, h;
    GcvMotionParams p;
  } cases[] = {
    {1, 1, {16, 16, 16, 16, INT, FULL, 0}},
    {1, 1, {4, 4, 3, 3, QUARTER, MODS, 0}},
    {2, 3, {4, 4, 2, 2, QUARTER, FULL, 0}},
    {5, 3, {4, 4, 2, 1, HALF, FULL, 0}},
    {3, 9, {4, 5, 5, 5, INT, MODS, 0}},
    {111, 30, {7, 5, 6, 4, HALF, FULL, 0}},
    {111, 30, {13, 9, 10, 10, INT, MODS, 0}},
    {111, 30, {128, 128, 128, 128, INT, FULL, 0}},
    {111, 30, {128, 4, 128, 3, QUARTER, MODS, 0}},
    {30, 111, {4, 128, 2, 128, HALF, MODS, 0}},
    {33, 17, {4, 4, 2, 2, QUARTER, FULL, 0}},
    {37, 29, {36, 28, 1, 1, QUARTER, FULL, 0}},
    {641, 481, {24, 20, 6, 5, INT, FULL, 0}},
    {641, 481, {16, 16, 8, 8, QUARTER, MODS, 0}},
  };
  guint c;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    GstVideoFormat fmt = all_formats[(c + 2) % N_FORMATS];
    Img *seq[3];
    /* quick mode: 161x121 (no block size divides it either) stands in for
     * 641x481 */
    gint w = gcv_check_quick () && cases[c].w == 641 ? 161 : cases[c].w;
    gint h = gcv_check_quick () && cases[c].w == 641 ? 121 : cases[c].h;
    gchar *what = g_strdup_printf ("%dx%d %s", w, h,
        gst_video_format_to_string (fmt));

    random_pair (fmt, c, w, h, 4, 3, 300 + c, &seq[0], &seq[1]);
    seq[2] = seq[0];
    check_seq (name, &cases[c].p, seq, 3, c % N_LAYOUTS, what);
    img_free (seq[0]);
    img_free (seq[1]);
    g_free (what);
  }
}

GST_END_TEST;

/* the zero-motion threshold (eq. 4): a block whose best SAD per pixel is at
 * most C reports (0, 0) with the SAD of (0, 0); checked against the
 * reference and against that rule applied to the unthresholded vectors,
 * with thresholds taken from the data so that some blocks are suppressed
 * and some not */
GST_START_TEST (test_zero_threshold)
{
  const gchar *name = element_names[__i__];
  const gint w = 96, h = 72;
  GcvMotionParams p = motion_test_params (8, 8, 4, 4, HALF, FULL, 0);
  GcvMotionParams still = motion_test_params (8, 8, 0, 0, HALF, FULL, 0);
  Img *a, *b;
  GcvMotionVector *free_v, *zero_v;
  gdouble thresholds[5];
  guint n, i, k;

  random_pair (GST_VIDEO_FORMAT_Y42B, 2, w, h, 3, 6, 41, &a, &b);
  free_v = ref_vectors (&p, a, b);
  zero_v = ref_vectors (&still, a, b);
  n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
  /* per-pixel best SADs of a few blocks as thresholds (on the boundary of
   * the rule), a small one and the largest allowed */
  for (k = 0; k < 3; k++)
    thresholds[k] = free_v[(k + 1) * n / 4].sad / 64.0;
  thresholds[3] = 0.25;
  thresholds[4] = 255.0;

  for (k = 0; k < G_N_ELEMENTS (thresholds); k++) {
    Ctx ctx = ctx_new (name, NULL);
    GcvMotionVector *want = g_new (GcvMotionVector, n);
    guint32 cq = (guint32) floor (256.0 * thresholds[k] + 0.5);
    guint suppressed = 0, moved = 0;
    gchar *what = g_strdup_printf ("zero-threshold=%g", thresholds[k]);
    GcvMotionVector *ref;
    Meta m;

    p.zero_threshold = thresholds[k];
    for (i = 0; i < n; i++) {
      gint bw = MIN (8, w - free_v[i].x), bh = MIN (8, h - free_v[i].y);
      want[i] = free_v[i];
      if ((guint64) free_v[i].sad * 256 <= (guint64) cq * bw * bh) {
        want[i] = zero_v[i];
        if (free_v[i].dx || free_v[i].dy)
          suppressed++;
      } else if (free_v[i].dx || free_v[i].dy) {
        moved++;
      }
    }
    /* the reference says the same */
    ref = ref_vectors (&p, a, b);
    fail_unless (memcmp (ref, want, n * sizeof (GcvMotionVector)) == 0,
        "%s: the reference disagrees with eq. 4", what);
    if (k < 3)
      fail_unless (suppressed > 0 && moved > 0, "%s: %u blocks suppressed, "
          "%u moved: the case tests nothing", what, suppressed, moved);
    if (k == 4)
      fail_unless (moved == 0);

    apply_prm (ctx.e, &p);
    ctx_set_caps (&ctx, &a->info);
    process_check (&ctx, &p, NULL, a, LAYOUT_ODD_STRIDE, 0, what);
    gst_buffer_unref (process (&ctx, b, LAYOUT_ALIGNED, FALSE, &m, what));
    check_meta (&m, &p, w, h, want, 1, what);
    meta_clear (&m);
    ctx_free (&ctx);
    g_free (ref);
    g_free (want);
    g_free (what);
  }
  g_free (free_v);
  g_free (zero_v);
  img_free (a);
  img_free (b);
}

GST_END_TEST;

/* the search properties change while playing and take effect at the next
 * frame: grid, subpel and method in the meta and the vectors follow */
GST_START_TEST (test_params_playing)
{
  const gchar *name = element_names[__i__];
  static const gint pan[][2] = { {0, 0}, {2, 1}, {5, 1}, {5, -2}, {3, -3},
  {3, -3}, {0, 0}
  };
  const GcvMotionParams steps[] = {
    {16, 16, 16, 16, INT, FULL, 0},
    {8, 12, 5, 5, HALF, FULL, 0},
    {32, 8, 9, 4, QUARTER, MODS, 0},
    {4, 4, 3, 3, INT, MODS, 1.5},
    {128, 128, 0, 0, INT, FULL, 0},
    {20, 10, 4, 4, QUARTER, FULL, 0.5},
    {16, 16, 16, 16, INT, FULL, 0},
  };
  const gint n = G_N_ELEMENTS (pan);
  Img **seq = pan_seq (GST_VIDEO_FORMAT_I420, 80, 64, n, 3, 200, 150, pan, 9);
  Ctx ctx = ctx_new (name, NULL);
  gint t;

  ctx_set_caps (&ctx, &seq[0]->info);
  for (t = 0; t < n; t++) {
    gchar *what = g_strdup_printf ("parameters of step %d", t);
    apply_prm (ctx.e, &steps[t]);
    process_check (&ctx, &steps[t], t ? seq[t - 1] : NULL, seq[t],
        t % N_LAYOUTS, t, what);
    g_free (what);
  }
  ctx_free (&ctx);
  seq_free (seq, n);
}

GST_END_TEST;

/* the meta's bookkeeping: frame counts since start, restart from 0 after a
 * stop; a buffer that arrived with motion metas keeps another element's
 * and has this element's replaced; the public library's readers */
GST_START_TEST (test_meta)
{
  const gchar *name = element_names[__i__];
  static const gint pan[][2] = { {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4} };
  const gint n = G_N_ELEMENTS (pan);
  Img **seq = pan_seq (GST_VIDEO_FORMAT_GRAY8, 48, 40, n, 1, 100, 100, pan, 3);
  Ctx ctx = ctx_new (name, NULL);
  gint t;

  ctx_set_caps (&ctx, &seq[0]->info);
  for (t = 0; t < 3; t++)
    process_check (&ctx, &default_prm, t ? seq[t - 1] : NULL, seq[t],
        LAYOUT_DEFAULT, t, "counting");

  /* stopped and started again: frame 0, no reference */
  fail_unless (gst_element_set_state (ctx.e, GST_STATE_NULL) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless (gst_element_set_state (ctx.e, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_SUCCESS);
  ctx_push_caps_unchecked (&ctx, gst_video_info_to_caps (&seq[3]->info));
  process_check (&ctx, &default_prm, NULL, seq[3], LAYOUT_ALIGNED, 0,
      "after a restart");

  /* a buffer that comes with the motion metas of an earlier estimator and
   * of this one (a stale one, as a buffer that went through it twice):
   * the other element's stays as it was, this element's is replaced */
  {
    GstBuffer *buf = img_to_buffer (seq[4], LAYOUT_DEFAULT), *out;
    GcvMotionVector *want = ref_vectors (&default_prm, seq[3], seq[4]);
    GstCudaVideoMotionMeta *other, *stale, *got;
    GBytes *none = g_bytes_new (NULL, 0);
    gchar *own = gst_element_get_name (ctx.e);
    GList *all, *l;
    Meta m;

    other = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, "upstream0", none);
    fail_unless (other != NULL);
    other->frame = 999;
    stale = gst_buffer_add_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, own, none);
    fail_unless (stale != NULL);
    stale->frame = 998;
    g_bytes_unref (none);
    ctx_push_expect (&ctx, buf, GST_FLOW_OK, "stale meta");
    out = gst_harness_pull (ctx.h);
    all = gst_buffer_get_cuda_video_motion_metas (out);
    fail_unless_equals_int (g_list_length (all), 2);
    got = NULL;
    for (l = all; l; l = l->next) {
      GstCudaVideoMotionMeta *mm = l->data;
      if (g_strcmp0 (mm->source, "upstream0") == 0) {
        fail_unless (mm->frame == 999 && mm->n_records == 0, "the upstream meta changed");
      } else {
        fail_unless_equals_string (mm->source, own);
        got = mm;
      }
    }
    g_list_free (all);
    fail_unless (got != NULL && got->frame == 1, "this element's meta is not its own");
    /* meta_read wants this element's meta alone */
    {
      gpointer state = NULL;
      GstMeta *mm;
      while ((mm = gst_buffer_iterate_meta_filtered (out, &state, GST_CUDA_VIDEO_MOTION_META_API_TYPE)))
        if (((GstCudaVideoMotionMeta *) mm)->source != got->source)
          break;
      fail_unless (mm != NULL && gst_buffer_remove_meta (out, mm));
    }
    meta_read (out, &m, "a buffer with a stale meta");
    check_meta (&m, &default_prm, 48, 40, want, 1, "a buffer with a stale meta");
    meta_clear (&m);
    gst_buffer_unref (out);
    g_free (want);
    g_free (own);
  }
  ctx_free (&ctx);
  seq_free (seq, n);
}

GST_END_TEST;

/* FLUSH and caps changes (size, format) drop the reference: the next frame
 * says has-reference=false with zero vectors; the frame count goes on */
GST_START_TEST (test_reset)
{
  const gchar *name = element_names[__i__];
  GcvMotionParams p = motion_test_params (8, 16, 6, 6, HALF, FULL, 0);
  Img *a, *b, *c, *d, *e1, *e2;
  Ctx ctx = ctx_new (name, NULL);
  gint k;

  random_pair (GST_VIDEO_FORMAT_I420, 0, 64, 48, 3, 1, 5, &a, &b);
  random_pair (GST_VIDEO_FORMAT_I420, 1, 70, 33, 3, 1, 6, &c, &d);
  /* the same lumas as a, b in NV12 */
  {
    GcvPlane la = img_luma (a), lb = img_luma (b);
    e1 = img_with_luma (GST_VIDEO_FORMAT_NV12, &la, 7);
    e2 = img_with_luma (GST_VIDEO_FORMAT_NV12, &lb, 8);
    g_free (la.data);
    g_free (lb.data);
  }
  apply_prm (ctx.e, &p);
  ctx_set_caps (&ctx, &a->info);
  process_check (&ctx, &p, NULL, a, LAYOUT_DEFAULT, 0, "start");
  process_check (&ctx, &p, a, b, LAYOUT_DEFAULT, 1, "start");
  for (k = 0; k < 2; k++) {
    push_flush (&ctx);
    process_check (&ctx, &p, NULL, a, LAYOUT_ALIGNED, 2 + 2 * k,
        "after a flush");
    process_check (&ctx, &p, a, b, LAYOUT_ODD_STRIDE, 3 + 2 * k,
        "after a flush");
  }
  /* another size */
  ctx_set_caps (&ctx, &c->info);
  process_check (&ctx, &p, NULL, c, LAYOUT_DEFAULT, 6, "after a size change");
  process_check (&ctx, &p, c, d, LAYOUT_DEFAULT, 7, "after a size change");
  /* back to 64x48 in another format: the old frame b must not be used */
  ctx_set_caps (&ctx, &e1->info);
  process_check (&ctx, &p, NULL, e2, LAYOUT_DEFAULT, 8,
      "after a format change");
  process_check (&ctx, &p, e2, e1, LAYOUT_ALIGNED, 9, "after a format change");
  /* I420 again at the same size */
  ctx_set_caps (&ctx, &a->info);
  process_check (&ctx, &p, NULL, b, LAYOUT_DEFAULT, 10,
      "after a format change back");
  process_check (&ctx, &p, b, a, LAYOUT_DEFAULT, 11,
      "after a format change back");
  ctx_free (&ctx);
  img_free (a);
  img_free (b);
  img_free (c);
  img_free (d);
  img_free (e1);
  img_free (e2);
}

GST_END_TEST;

/* location with append=true: one JSON object per frame and line, appended
 * to what the file held; every value as in the meta, dx and dy in pixels
 * (quarter-pixel decimals), pts null for a buffer without one; a second
 * run appends; a file that cannot be opened stops the start with an error
 * (without append the file is emptied at start: tests/check/elements/
 * export.c) */
GST_START_TEST (test_location)
{
  const gchar *name = element_names[__i__];
  GcvMotionParams p = motion_test_params (16, 12, 3, 3, QUARTER, FULL, 0);
  const gchar *old_line = "{\"an earlier line\": true}\n";
  GError *err = NULL;
  gchar *path = NULL, *contents = NULL, **lines;
  GPtrArray *metas = g_ptr_array_new ();
  GArray *pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  Img *a, *b;
  gint fd, run, k;
  guint i, fractions = 0;
  gsize len;

  fd = g_file_open_tmp ("motionest-XXXXXX.jsonl", &path, &err);
  fail_unless (fd >= 0, "no temporary file: %s", err ? err->message : "?");
  close (fd);
  fail_unless (g_file_set_contents (path, old_line, -1, NULL));
  /* 5 q right, 2 q up: quarter and half pixels in the JSON */
  shifted_pair (GST_VIDEO_FORMAT_I420, 2, 100, 80, 64, 48, 5, -2, 12, &a, &b);

  for (run = 0; run < 2; run++) {
    Ctx ctx = ctx_new (name, "location", path, "append", TRUE, NULL);
    const Img *order[] = { a, b, a, b };
    gint nf = run ? 2 : 4;

    apply_prm (ctx.e, &p);
    ctx_set_caps (&ctx, &a->info);
    for (k = 0; k < nf; k++) {
      GstBuffer *buf = img_to_buffer (order[k], k % N_LAYOUTS), *out;
      Meta *m = g_new0 (Meta, 1);
      GstClockTime t;
      if (k == 2)
        GST_BUFFER_PTS (buf) = GST_CLOCK_TIME_NONE;
      t = GST_BUFFER_PTS (buf);
      ctx_push_expect (&ctx, buf, GST_FLOW_OK, "location");
      out = gst_harness_pull (ctx.h);
      meta_read (out, m, "location");
      fail_unless (m->frame == (guint64) k && !m->has_reference == !k);
      gst_buffer_unref (out);
      g_ptr_array_add (metas, m);
      g_array_append_val (pts, t);
    }
    ctx_free (&ctx);            /* stops the element: the file is complete */
  }

  fail_unless (g_file_get_contents (path, &contents, &len, NULL));
  fail_unless (g_str_has_prefix (contents, old_line), "the file's earlier "
      "content is gone: %.100s", contents);
  fail_unless (len > 0 && contents[len - 1] == '\n', "the last line is not "
      "terminated");
  lines = g_strsplit (contents + strlen (old_line), "\n", -1);
  fail_unless_equals_int (g_strv_length (lines), metas->len + 1);
  fail_unless (*lines[metas->len] == '\0');
  for (i = 0; i < metas->len; i++) {
    const Meta *m = g_ptr_array_index (metas, i);
    gchar *what = g_strdup_printf ("%s location line %u", name, i);
    guint v;
    check_json_line (lines[i], m, g_array_index (pts, GstClockTime, i), what);
    for (v = 0; v < m->n; v++)
      fractions += (m->v[v].dx & 3) != 0 || (m->v[v].dy & 3) != 0;
    g_free (what);
  }
  fail_unless (fractions > 0, "no fractional vector was written: the case "
      "tests nothing");
  g_strfreev (lines);
  g_free (contents);
  for (i = 0; i < metas->len; i++) {
    meta_clear (g_ptr_array_index (metas, i));
    g_free (g_ptr_array_index (metas, i));
  }
  g_ptr_array_free (metas, TRUE);
  g_array_free (pts, TRUE);
  g_unlink (path);
  g_free (path);

  /* a location that cannot be opened: no start, an error, no crash */
  {
    GstElement *e = gst_element_factory_make (name, NULL);
    GstBus *bus = gst_bus_new ();
    gchar *text = NULL;

    g_object_set (e, "location", "/nonexistent-motionest-dir/v.jsonl", NULL);
    gst_element_set_bus (e, bus);
    fail_unless (gst_element_set_state (e, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE, "%s started with an unwritable location",
        name);
    fail_unless (bus_count (bus, GST_MESSAGE_ERROR, GST_RESOURCE_ERROR,
            &text) >= 1, "no RESOURCE error for an unwritable location (%s)",
        GST_STR_NULL (text));
    gst_element_set_state (e, GST_STATE_NULL);
    gst_bus_set_flushing (bus, TRUE);
    gst_object_unref (bus);
    gst_object_unref (e);
    g_free (text);
  }
  img_free (a);
  img_free (b);
}

GST_END_TEST;

/* draw=true: arrows from the block centres along the vectors, nothing else
 * touched, the buffer the caller still holds left alone; draw=false again:
 * byte-identical */
GST_START_TEST (test_draw)
{
  const gchar *name = element_names[__i__];
  static const gint full_pan[][2] = { {0, 0}, {5, 3}, {-2, 5}, {-2, 5},
  {0, 0}
  };
  /* quick mode: three 88x76 frames (drawn with motion, the held buffer,
   * the last one not drawn; partial blocks still), every format */
  static const gint quick_pan[][2] = { {0, 0}, {5, 3}, {-2, 5} };
  const gboolean quick = gcv_check_quick ();
  const gint (*pan)[2] = quick ? quick_pan : full_pan;
  const gint n = quick ? G_N_ELEMENTS (quick_pan) : G_N_ELEMENTS (full_pan);
  GcvMotionParams p = motion_test_params (32, 24, 12, 12, INT, FULL, 0);
  const gint w = quick ? 88 : 120, h = quick ? 76 : 100;
  guint f;

  for (f = 0; f < N_FORMATS; f++) {
    Img **seq = pan_seq (all_formats[f], w, h, n, f + 1, 120, 110, pan,
        70 + f);
    Ctx ctx = ctx_new (name, "draw", TRUE, NULL);
    gint t;

    apply_prm (ctx.e, &p);
    ctx_set_caps (&ctx, &seq[0]->info);
    for (t = 0; t < n; t++) {
      gboolean draw = t < n - 1;
      gchar *what = g_strdup_printf ("%s draw=%d %s frame %d", name, draw,
          gst_video_format_to_string (all_formats[f]), t);
      GcvMotionVector *want = t ? ref_vectors (&p, seq[t - 1], seq[t]) : NULL;
      GstBuffer *buf = img_to_buffer (seq[t], (f + t) % N_LAYOUTS), *out;
      GstCaps *caps;
      Sent s, held;
      Img *img;
      Meta m;

      g_object_set (ctx.e, "draw", draw, NULL);
      sent_take (&s, buf);
      /* the caller keeps a reference to the second frame's buffer */
      if (t == 1)
        sent_take (&held, gst_buffer_ref (buf));
      ctx_push_expect (&ctx, buf, GST_FLOW_OK, what);
      out = gst_harness_pull (ctx.h);
      check_sent (&s, out, draw, what);
      meta_read (out, &m, what);
      check_meta (&m, &p, w, h, want, t, what);
      caps = ctx_out_caps (&ctx);
      img = img_from_buffer (out, caps);
      if (draw)
        check_drawing (seq[t], img, &m, what);
      else
        assert_img_equal (img, seq[t], what);
      if (t == 1) {
        check_sent (&held, buf, FALSE, "the buffer the caller held");
        gst_buffer_unref (buf);
        sent_clear (&held);
      }
      gst_caps_unref (caps);
      gst_buffer_unref (out);
      img_free (img);
      meta_clear (&m);
      sent_clear (&s);
      g_free (want);
      g_free (what);
    }
    ctx_free (&ctx);
    seq_free (seq, n);
  }
}

GST_END_TEST;

/* devices and split: the CPU backend ignores them (no frame held, no added
 * latency, the same vectors); with async-depth=N-1, split=serial over N
 * contexts holds N-1 frames (reported as latency; on the GPU their pairs
 * are searched at once), sends them in order and drains them at EOS, and
 * every split gives exactly the single-device vectors */
typedef struct
{
  const gchar *devices, *split;
  gint gpu_lag;                 /* frames held (async-depth) */
} DevCase;

static const DevCase dev_cases[] = {
  {"", "parallel", 0}, {"0", "serial", 0}, {"0,0", "parallel", 0},
  {"0,0", "serial", 1}, {"0,0,0", "serial", 2}, {"0,0,0", "parallel", 0},
};

/* Pulls every buffer now queued: they must be frames next .. of @seq, in
 * order, with the reference vectors; returns the new next. */
static gint
pull_in_order (Ctx * ctx, const GcvMotionParams * p, Img ** seq, Sent * sent,
    gint next, gint first_of_stream, gint frame0, const gchar * what)
{
  GstBuffer *out;

  while ((out = gst_harness_try_pull (ctx->h)) != NULL) {
    gchar *msg = g_strdup_printf ("%s, output %d", what, next);
    GcvMotionVector *want = next > first_of_stream ? ref_vectors (p,
        seq[next - 1], seq[next]) : NULL;
    Meta m;
    check_sent (&sent[next], out, FALSE, msg);
    meta_read (out, &m, msg);
    check_meta (&m, p, img_w (seq[next]), img_h (seq[next]), want,
        frame0 + next, msg);
    meta_clear (&m);
    g_free (want);
    g_free (msg);
    gst_buffer_unref (out);
    next++;
  }
  return next;
}

static void
check_devices (const gchar * name, const DevCase * dc, Img ** seq, gint n,
    const GcvMotionParams * p)
{
  /* serial splitting overlaps the pairs of its contexts when the frames
   * in flight (async-depth) let them: N - 1 of them, on either backend */
  Ctx ctx = ctx_new (name, "devices", dc->devices, "async-depth", dc->gpu_lag, NULL);
  const GstClockTime upstream = 7 * GST_MSECOND;
  gchar *what = g_strdup_printf ("%s devices=\"%s\" split=%s", name,
      dc->devices, dc->split);
  Sent *sent = g_new0 (Sent, n);
  gchar *backend;
  gint lag, t, next = 0;

  gst_util_set_object_arg (G_OBJECT (ctx.e), "split", dc->split);
  apply_prm (ctx.e, p);
  gst_harness_set_upstream_latency (ctx.h, upstream);
  ctx_set_caps (&ctx, &seq[0]->info);
  check_backend (ctx.e, name);
  backend = get_backend (ctx.e);
  lag = dc->gpu_lag;
  for (t = 0; t < n; t++) {
    GstBuffer *buf = img_to_buffer (seq[t], t % N_LAYOUTS);
    sent_take (&sent[t], buf);
    ctx_push_expect (&ctx, buf, GST_FLOW_OK, what);
    next = pull_in_order (&ctx, p, seq, sent, next, 0, 0, what);
    fail_unless (next == MAX (0, t + 1 - lag), "%s (backend %s): %d frames "
        "out after %d in, expected %d held", what, backend, next, t + 1, lag);
    if (t == 0) {
      GstClockTime got = gst_harness_query_latency (ctx.h);
      GstClockTime want = upstream + gst_util_uint64_scale_int (lag *
          GST_SECOND, 1, 30);
      fail_unless (got == want, "%s (backend %s): latency %" GST_TIME_FORMAT
          ", expected %" GST_TIME_FORMAT, what, backend, GST_TIME_ARGS (got),
          GST_TIME_ARGS (want));
    }
  }
  push_eos (&ctx, what);
  next = pull_in_order (&ctx, p, seq, sent, next, 0, 0, what);
  fail_unless (next == n, "%s: %d of %d frames out after EOS", what, next, n);
  for (t = 0; t < n; t++)
    sent_clear (&sent[t]);
  g_free (sent);
  g_free (backend);
  g_free (what);
  ctx_free (&ctx);
}

/* a FLUSH with frames held: they are dropped, the stream restarts without
 * reference and in order */
static void
check_devices_flush (const gchar * name, const DevCase * dc, Img ** seq,
    gint n, const GcvMotionParams * p)
{
  /* serial splitting overlaps the pairs of its contexts when the frames
   * in flight (async-depth) let them: N - 1 of them, on either backend */
  Ctx ctx = ctx_new (name, "devices", dc->devices, "async-depth", dc->gpu_lag, NULL);
  gchar *what = g_strdup_printf ("%s devices=\"%s\" split=%s, flushed",
      name, dc->devices, dc->split);
  Sent *sent = g_new0 (Sent, n);
  gint cut = n / 2, lag, t, next = 0;
  gchar *backend;

  gst_util_set_object_arg (G_OBJECT (ctx.e), "split", dc->split);
  apply_prm (ctx.e, p);
  ctx_set_caps (&ctx, &seq[0]->info);
  backend = get_backend (ctx.e);
  lag = dc->gpu_lag;
  for (t = 0; t < n; t++) {
    GstBuffer *buf;
    if (t == cut) {
      push_flush (&ctx);
      fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 0);
      next = cut;
    }
    buf = img_to_buffer (seq[t], LAYOUT_DEFAULT);
    sent_take (&sent[t], buf);
    ctx_push_expect (&ctx, buf, GST_FLOW_OK, what);
    next = pull_in_order (&ctx, p, seq, sent, next, t < cut ? 0 : cut, 0,
        what);
    fail_unless (next == MAX (t < cut ? 0 : cut, t + 1 - lag), "%s: %d "
        "frames out after %d in", what, next, t + 1);
  }
  push_eos (&ctx, what);
  next = pull_in_order (&ctx, p, seq, sent, next, cut, 0, what);
  fail_unless (next == n, "%s: %d of %d frames out after EOS", what, next, n);
  for (t = 0; t < n; t++)
    sent_clear (&sent[t]);
  g_free (sent);
  g_free (backend);
  g_free (what);
  ctx_free (&ctx);
}

GST_START_TEST (test_devices)
{
  const gchar *name = element_names[__i__];
  static const gint pan[][2] = { {0, 0}, {2, 1}, {4, 1}, {4, -1}, {3, -3},
  {1, -3}, {0, 0}
  };
  /* quick mode: five 64x48 frames (still more than any lag plus one, the
   * flush after two) and a search range of 3 (the pan moves 2 at most),
   * every device case */
  const gboolean quick = gcv_check_quick ();
  const gint n = quick ? 5 : G_N_ELEMENTS (pan);
  GcvMotionParams p = motion_test_params (16, 16, quick ? 3 : 6,
      quick ? 3 : 6, QUARTER, FULL, 0);
  Img **seq = pan_seq (GST_VIDEO_FORMAT_I420, quick ? 64 : 96,
      quick ? 48 : 64, n, 2, 100, 60, pan, 5);
  gchar *backend;
  guint c;

  /* devices and split are cudamotionest's alone */
  if (g_str_has_prefix (name, "cpu")) {
    GstElement *e = gst_element_factory_make (name, NULL);
    fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "devices") == NULL
        && g_object_class_find_property (G_OBJECT_GET_CLASS (e), "split") == NULL);
    gst_object_unref (e);
    seq_free (seq, n);
    return;
  }
  for (c = 0; c < G_N_ELEMENTS (dev_cases); c++)
    check_devices (name, &dev_cases[c], seq, n, &p);
  check_devices_flush (name, &dev_cases[4], seq, n, &p);

  {
    Ctx ctx = ctx_new (name, NULL);
    ctx_set_caps (&ctx, &seq[0]->info);
    backend = get_backend (ctx.e);
    ctx_free (&ctx);
  }
  if (g_str_equal (name, "cudamotionest") && !g_str_equal (backend, "cuda")) {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but %s runs on %s",
        name, backend);
    g_print ("test_devices: no GPU, cudamotionest runs on the CPU: "
        "multi-device splitting (parallel, serial) skipped; checked that the "
        "CPU backend ignores devices and split\n");
  } else if (g_str_equal (backend, "cuda")) {
    g_print ("test_devices: split=parallel and split=serial over 1-3 CUDA "
        "contexts: single-device vectors, serial lag and drain as documented\n");
  }
  g_free (backend);
  seq_free (seq, n);
}

GST_END_TEST;

/* a buffer smaller than its caps: an error, no crash; good frames after it
 * are estimated right */
GST_START_TEST (test_invalid_input)
{
  const gchar *name = element_names[__i__];
  Img *a, *b;
  Ctx ctx = ctx_new (name, NULL);
  gsize sizes[3];
  guint i;

  random_pair (GST_VIDEO_FORMAT_I420, 3, 64, 48, 3, 1, 51, &a, &b);
  sizes[0] = 10;
  sizes[1] = GST_VIDEO_INFO_SIZE (&a->info) - 1;
  sizes[2] = 0;
  ctx_set_caps (&ctx, &a->info);
  process_check (&ctx, &default_prm, NULL, a, LAYOUT_DEFAULT, 0, "before");
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
  /* the next good frame: either against a (the last good frame) or
   * without reference, never against garbage */
  {
    Meta m;
    GcvMotionVector *want = ref_vectors (&default_prm, a, b);
    gst_buffer_unref (process (&ctx, b, LAYOUT_DEFAULT, FALSE, &m,
            "after bad buffers"));
    check_meta (&m, &default_prm, 64, 48, m.has_reference ? want : NULL, -1,
        "after bad buffers");
    meta_clear (&m);
    g_free (want);
  }
  ctx_free (&ctx);
  img_free (a);
  img_free (b);
}

GST_END_TEST;

/* P010 by another route: the element on P010 frames (10-bit photo pans,
 * low bits that are not zero in a third of the words) gives the vectors
 * and SADs it gives on GRAY8 frames holding (v + 128) / 257 of each luma
 * word, at every sub-pixel grid and with the zero threshold on */
GST_START_TEST (test_p010_as_gray8)
{
  const gchar *name = element_names[__i__];
  static const gint pan[][2] = { {0, 0}, {5, -3}, {4, 1}, {-2, 6} };
  static const GcvMotionParams prms[] = {
    {16, 16, 16, 16, INT, FULL, 0}, {8, 8, 6, 6, QUARTER, FULL, 1.5},
    {12, 8, 10, 6, HALF, MODS, 0},
  };
  const gint n = G_N_ELEMENTS (pan), w = 99, h = 61;
  Img **seq = pan_seq (GST_VIDEO_FORMAT_P010_10LE, w, h, n, 2, 160, 120, pan,
      44);
  Img **gray = g_new0 (Img *, n);
  guint k;
  gint t;

  for (t = 0; t < n; t++) {
    GcvPlane l;
    img_p010_low_bits (seq[t], 500 + t);
    l = img_luma (seq[t]);
    gray[t] = img_with_luma (GST_VIDEO_FORMAT_GRAY8, &l, 600 + t);
    g_free (l.data);
  }
  for (k = 0; k < G_N_ELEMENTS (prms); k++) {
    Ctx a = ctx_new (name, NULL), b = ctx_new (name, NULL);
    apply_prm (a.e, &prms[k]);
    apply_prm (b.e, &prms[k]);
    ctx_set_caps (&a, &seq[0]->info);
    ctx_set_caps (&b, &gray[0]->info);
    for (t = 0; t < n; t++) {
      gchar *d = prm_describe (&prms[k]);
      gchar *what = g_strdup_printf ("%s P010 vs GRAY8, %s, frame %d", name, d,
          t);
      Meta ma, mb;
      gst_buffer_unref (process (&a, seq[t], t % N_LAYOUTS, FALSE, &ma, what));
      gst_buffer_unref (process (&b, gray[t], LAYOUT_DEFAULT, FALSE, &mb,
              what));
      check_meta (&ma, &prms[k], w, h, mb.has_reference ? mb.v : NULL, t,
          what);
      meta_clear (&ma);
      meta_clear (&mb);
      g_free (what);
      g_free (d);
    }
    ctx_free (&a);
    ctx_free (&b);
  }
  seq_free (seq, n);
  seq_free (gray, n);
}

GST_END_TEST;

/* cudamotionest and cpumotionest give identical vectors */
GST_START_TEST (test_cpu_cuda_identical)
{
  static const struct
  {
    GstVideoFormat fmt;
    gint w, h;
    GcvMotionParams p;
  } cases[] = {
    {GST_VIDEO_FORMAT_GRAY8, 160, 120, {16, 16, 16, 16, INT, FULL, 0}},
    {GST_VIDEO_FORMAT_I420, 111, 30, {7, 5, 6, 4, QUARTER, FULL, 0}},
    {GST_VIDEO_FORMAT_NV12, 96, 80, {8, 8, 12, 12, HALF, MODS, 0}},
    {GST_VIDEO_FORMAT_Y444, 33, 47, {4, 4, 3, 3, QUARTER, MODS, 0}},
    {GST_VIDEO_FORMAT_Y42B, 128, 72, {32, 24, 20, 10, INT, FULL, 2.0}},
    {GST_VIDEO_FORMAT_YV12, 1, 1, {16, 16, 16, 16, QUARTER, FULL, 0}},
    {GST_VIDEO_FORMAT_GRAY8, 200, 90, {128, 128, 32, 8, HALF, MODS, 0}},
    {GST_VIDEO_FORMAT_P010_10LE, 97, 61, {8, 8, 6, 6, QUARTER, FULL, 1.0}},
    {GST_VIDEO_FORMAT_P010_10LE, 64, 48, {16, 16, 16, 16, HALF, MODS, 0}},
  };
  gchar *cuda_backend = NULL;
  guint c, compared = 0;

  for (c = 0; c < G_N_ELEMENTS (cases); c++) {
    Img *pair[2];
    Ctx a = ctx_new ("cpumotionest", NULL), b = ctx_new ("cudamotionest",
        NULL);
    gint t;

    random_pair (cases[c].fmt, c, cases[c].w, cases[c].h, 5, 2, 600 + c,
        &pair[0], &pair[1]);
    apply_prm (a.e, &cases[c].p);
    apply_prm (b.e, &cases[c].p);
    ctx_set_caps (&a, &pair[0]->info);
    ctx_set_caps (&b, &pair[0]->info);
    for (t = 0; t < 3; t++) {
      gchar *what = g_strdup_printf ("cpu vs cuda case %u frame %d", c, t);
      Meta ma, mb;
      gst_buffer_unref (process (&a, pair[t % 2], LAYOUT_DEFAULT, FALSE, &ma,
              what));
      gst_buffer_unref (process (&b, pair[t % 2], t % N_LAYOUTS, FALSE, &mb,
              what));
      check_meta (&mb, &cases[c].p, cases[c].w, cases[c].h,
          ma.has_reference ? ma.v : NULL, t, what);
      if (t > 0) {
        GcvMotionVector *want = ref_vectors (&cases[c].p, pair[(t + 1) % 2],
            pair[t % 2]);
        check_meta (&ma, &cases[c].p, cases[c].w, cases[c].h, want, t, what);
        g_free (want);
      }
      compared++;
      meta_clear (&ma);
      meta_clear (&mb);
      g_free (what);
    }
    if (cuda_backend == NULL)
      cuda_backend = get_backend (b.e);
    ctx_free (&a);
    ctx_free (&b);
    img_free (pair[0]);
    img_free (pair[1]);
  }
  if (g_strcmp0 (cuda_backend, "cuda") == 0) {
    g_print ("test_cpu_cuda_identical: %u frames, CUDA compared with CPU: "
        "identical\n", compared);
  } else {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but "
        "cudamotionest runs on %s", GST_STR_NULL (cuda_backend));
    g_print ("test_cpu_cuda_identical: no GPU, cudamotionest fell back: "
        "compared CPU with CPU (%u frames)\n", compared);
  }
  g_free (cuda_backend);
}

GST_END_TEST;

/* cudamotionest without CUDA: one warning and the CPU backend, or with
 * fallback=false a RESOURCE error and no start */
GST_START_TEST (test_cuda_fallback)
{
  static const gint pan[][2] = { {0, 0}, {2, 2}, {4, 1} };
  Img **seq = pan_seq (GST_VIDEO_FORMAT_I420, 64, 48, 3, 0, 200, 200, pan, 8);
  Ctx ctx = ctx_new ("cudamotionest", NULL);
  gboolean on_gpu;
  gint t;

  ctx_set_caps (&ctx, &seq[0]->info);
  for (t = 0; t < 3; t++)
    process_check (&ctx, &default_prm, t ? seq[t - 1] : NULL, seq[t],
        LAYOUT_DEFAULT, t, "fallback");
  on_gpu = ctx_check_fallback (&ctx);
  ctx_free (&ctx);

  if (!on_gpu)
    check_no_fallback_fails ("cudamotionest");
  seq_free (seq, 3);
}

GST_END_TEST;

static Suite *
motionest_suite (void)
{
  Suite *s;
  /* every output buffer must be a frame of its caps */
  TCase *tc = element_suite_tcase ("motionest", TRUE, &s);
  gint n = N_ELEMENTS;

  tcase_add_loop_test (tc, test_properties, 0, n);
  tcase_add_loop_test (tc, test_property_rejection, 0, n);
  tcase_add_loop_test (tc, test_caps, 0, n);
  tcase_add_loop_test (tc, test_formats_layouts, 0, n);
  tcase_add_loop_test (tc, test_subpel, 0, n);
  tcase_add_loop_test (tc, test_odd_sizes, 0, n);
  tcase_add_loop_test (tc, test_zero_threshold, 0, n);
  tcase_add_loop_test (tc, test_params_playing, 0, n);
  tcase_add_loop_test (tc, test_meta, 0, n);
  tcase_add_loop_test (tc, test_reset, 0, n);
  tcase_add_loop_test (tc, test_location, 0, n);
  tcase_add_loop_test (tc, test_draw, 0, n);
  tcase_add_loop_test (tc, test_devices, 0, n);
  tcase_add_loop_test (tc, test_invalid_input, 0, n);
  tcase_add_loop_test (tc, test_p010_as_gray8, 0, n);
  tcase_add_test (tc, test_cpu_cuda_identical);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

GST_CHECK_MAIN (motionest);
