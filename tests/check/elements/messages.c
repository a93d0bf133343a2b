/* gst-cuda-video: post-messages, the per-frame element messages of every
 * element whose result is more than pixels, checked against what the
 * frames themselves say, worked out again here:
 *  - motionest / vcm: the summary of the GstCudaVideoMotionMeta on the same
 *    buffer (records, moved, mean, largest, dominant by brute force);
 *  - canny: the 255 pixels of the edge map that came out; overlay mode the
 *    same count; magnitude mode no message;
 *  - seamcarve: on snow, with show-seams=true the seams are the pixels
 *    painted: their number and the mean eq. 1 energy of the input there and
 *    over the whole input, from the input frame (tee'd off);
 *  - dibr: the holes painted white by debug-output=holes (on a colour
 *    without white) and the same count without the debug output;
 * every message's name, field types and level's timestamps (the buffer's
 * PTS and duration, running time); none with post-messages=false.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/cudavideo/cudavideo.h>
#include <math.h>

#include "gcv-check.h"

/* ---- running a pipeline ------------------------------------------------- */

typedef struct
{
  GPtrArray *out;               /* GstSample of appsink "sink" */
  GPtrArray *in;                /* GstSample of appsink "in" (if any) */
  GPtrArray *messages;          /* GstStructure copies of the element messages */
} Run;

static void
run_clear (Run * r)
{
  g_ptr_array_unref (r->out);
  g_ptr_array_unref (r->in);
  g_ptr_array_unref (r->messages);
}

/* The samples of appsink @name until its EOS.  A pipeline that errors
 * never brings the sink to EOS: after 60 s without a sample the run fails
 * with the bus's error instead of waiting for ever. */
static void
pull_all (GstElement * pipe, const gchar * name, GPtrArray * into)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), name);
  GstSample *s;

  if (sink == NULL)
    return;
  while ((s = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 60 * GST_SECOND)) != NULL)
    g_ptr_array_add (into, s);
  if (!gst_app_sink_is_eos (GST_APP_SINK (sink))) {
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *m = bus_pop_type (bus, 0, GST_MESSAGE_ERROR);
    GError *error = NULL;

    if (m != NULL)
      gst_message_parse_error (m, &error, NULL);
    fail ("appsink %s: no sample for 60 s and no EOS: %s", name, error ? error->message : "no error posted");
  }
  gst_object_unref (sink);
}

/* Runs @launch to EOS (its appsinks: "sink", and "in" when there is one,
 * drained in turn: the queues before them hold the few frames), pushing
 * @frames into appsrc "src" when there is one. */
static Run
run (const gchar * launch, GstBuffer ** frames, guint n_frames)
{
  Run r = { g_ptr_array_new_with_free_func ((GDestroyNotify) gst_sample_unref),
    g_ptr_array_new_with_free_func ((GDestroyNotify) gst_sample_unref),
    g_ptr_array_new_with_free_func ((GDestroyNotify) gst_structure_free)
  };
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (launch, &error), *src;
  GstBus *bus;
  GstMessage *m;
  guint i;

  /* a missing element leaves a partial pipeline and the error set */
  fail_unless (pipe != NULL && error == NULL, "%s: %s", launch, error ? error->message : "?");
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s", launch);
  if ((src = gst_bin_get_by_name (GST_BIN (pipe), "src")) != NULL) {
    for (i = 0; i < n_frames; i++)
      fail_unless (gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_ref (frames[i])) == GST_FLOW_OK);
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    gst_object_unref (src);
  }
  pull_all (pipe, "sink", r.out);
  pull_all (pipe, "in", r.in);
  bus = gst_element_get_bus (pipe);
  while ((m = gst_bus_pop (bus)) != NULL) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &error, NULL);
      fail ("%s: %s", launch, error->message);
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT)
      g_ptr_array_add (r.messages, gst_structure_copy (gst_message_get_structure (m)));
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return r;
}

/* Field @field of @s, which must be there with type @type. */
static const GValue *
field_value (const GstStructure * s, const gchar * field, GType type)
{
  const GValue *v = gst_structure_get_value (s, field);

  fail_unless (v != NULL && G_VALUE_HOLDS (v, type), "%s: no %s %s", gst_structure_get_name (s),
      g_type_name (type), field);
  return v;
}

#define get_u64(s, f) g_value_get_uint64 (field_value ((s), (f), G_TYPE_UINT64))
#define get_double(s, f) g_value_get_double (field_value ((s), (f), G_TYPE_DOUBLE))
#define get_uint(s, f) g_value_get_uint (field_value ((s), (f), G_TYPE_UINT))

/* How many element messages named @name came. */
static guint
n_messages (const Run * r, const gchar * name)
{
  guint i, n = 0;

  for (i = 0; i < r->messages->len; i++)
    n += gst_structure_has_name (g_ptr_array_index (r->messages, i), name);
  return n;
}

/* The message @name about @buf (the one whose timestamp is its PTS), with
 * level's four timestamps right (segment from 0: running time = PTS). */
static const GstStructure *
message_of (const Run * r, const gchar * name, GstBuffer * buf)
{
  guint i;

  for (i = 0; i < r->messages->len; i++) {
    const GstStructure *s = g_ptr_array_index (r->messages, i);
    if (gst_structure_has_name (s, name) && get_u64 (s, "timestamp") == GST_BUFFER_PTS (buf)) {
      fail_unless (get_u64 (s, "stream-time") == GST_BUFFER_PTS (buf)
          && get_u64 (s, "running-time") == GST_BUFFER_PTS (buf)
          && get_u64 (s, "duration") == GST_BUFFER_DURATION (buf), "%s: timestamps",
          gst_structure_get_name (s));
      return s;
    }
  }
  fail ("no message %s about the buffer at %" GST_TIME_FORMAT, name, GST_TIME_ARGS (GST_BUFFER_PTS (buf)));
  return NULL;
}

/* Whether @a and @b have equal values in the NULL-terminated fields. */
static gboolean
fields_equal (const GstStructure * a, const GstStructure * b, ...)
{
  const gchar *f;
  gboolean equal = TRUE;
  va_list args;

  va_start (args, b);
  while (equal && (f = va_arg (args, const gchar *)) != NULL)
    equal = gst_structure_has_field (a, f) && gst_structure_has_field (b, f)
        && gst_value_compare (gst_structure_get_value (a, f), gst_structure_get_value (b, f)) == GST_VALUE_EQUAL;
  va_end (args);
  return equal;
}

/* ---- motion ------------------------------------------------------------- */

/* The summary of @m's records, by brute force: vectors in pixels and in
 * whole quarter pixels (lround: halves away from zero). */
static void
check_motion_summary (const GstStructure * s, GstCudaVideoMotionMeta * m, const gchar * count_field)
{
  guint n, i, j, moved = 0, best_count = 0;
  gdouble sum_dx = 0, sum_dy = 0, best_len = 0, lx = 0, ly = 0, ldx = 0, ldy = 0;
  glong best_qx = 0, best_qy = 0;
  struct { gdouble x, y, dx, dy; } *rec;

  if (m->kind == GST_CUDA_VIDEO_MOTION_KIND_BLOCKS) {
    const GstCudaVideoMotionVector *v = gst_cuda_video_motion_meta_get_vectors (m, &n);
    rec = g_malloc0_n (MAX (n, 1), sizeof (*rec));
    for (i = 0; i < n; i++) {
      rec[i].x = v[i].x;
      rec[i].y = v[i].y;
      rec[i].dx = v[i].dx / 4.0;
      rec[i].dy = v[i].dy / 4.0;
    }
  } else {
    const GstCudaVideoMotionPoint *p = gst_cuda_video_motion_meta_get_points (m, &n);
    rec = g_malloc0_n (MAX (n, 1), sizeof (*rec));
    for (i = 0; i < n; i++) {
      rec[i].x = p[i].x;
      rec[i].y = p[i].y;
      rec[i].dx = p[i].dx;
      rec[i].dy = p[i].dy;
    }
  }
  for (i = 0; i < n; i++) {
    glong qx = lround (rec[i].dx * 4), qy = lround (rec[i].dy * 4);
    gdouble len = hypot (rec[i].dx, rec[i].dy);
    guint same = 0;

    if (qx == 0 && qy == 0)
      continue;
    moved++;
    sum_dx += rec[i].dx;
    sum_dy += rec[i].dy;
    if (len > best_len) {
      best_len = len;
      lx = rec[i].x;
      ly = rec[i].y;
      ldx = rec[i].dx;
      ldy = rec[i].dy;
    }
    for (j = 0; j < n; j++)
      same += lround (rec[j].dx * 4) == qx && lround (rec[j].dy * 4) == qy;
    if (same > best_count || (same == best_count && (qx < best_qx || (qx == best_qx && qy < best_qy)))) {
      best_count = same;
      best_qx = qx;
      best_qy = qy;
    }
  }
  g_free (rec);
  fail_unless (get_u64 (s, "frame") == m->frame);
  fail_unless (get_uint (s, count_field) == n && get_uint (s, "moved") == moved, "%s: %u %s, %u moved; want %u, %u",
      gst_structure_get_name (s), get_uint (s, count_field), count_field, get_uint (s, "moved"), n, moved);
  fail_unless (fabs (get_double (s, "mean-dx") - (moved ? sum_dx / moved : 0)) < 1e-9
      && fabs (get_double (s, "mean-dy") - (moved ? sum_dy / moved : 0)) < 1e-9, "mean");
  fail_unless (get_double (s, "largest-x") == lx && get_double (s, "largest-y") == ly
      && get_double (s, "largest-dx") == ldx && get_double (s, "largest-dy") == ldy
      && fabs (get_double (s, "largest-length") - best_len) < 1e-9, "largest: (%g, %g) by (%g, %g), want (%g, %g) "
      "by (%g, %g)", get_double (s, "largest-x"), get_double (s, "largest-y"), get_double (s, "largest-dx"),
      get_double (s, "largest-dy"), lx, ly, ldx, ldy);
  fail_unless (get_double (s, "dominant-dx") == best_qx / 4.0 && get_double (s, "dominant-dy") == best_qy / 4.0
      && get_uint (s, "dominant-count") == best_count, "dominant (%g, %g) x %u, want (%g, %g) x %u",
      get_double (s, "dominant-dx"), get_double (s, "dominant-dy"), get_uint (s, "dominant-count"),
      best_qx / 4.0, best_qy / 4.0, best_count);
  {
    gboolean has_reference = FALSE;
    fail_unless (gst_structure_get_boolean (s, "has-reference", &has_reference)
        && has_reference == m->has_reference);
  }
}

GST_START_TEST (test_motion)
{
  static const gchar *prefixes[] = { "cpu", "cuda" };
  guint p, i, moved = 0;

  for (p = 0; p < G_N_ELEMENTS (prefixes); p++) {
    gchar *launch = g_strdup_printf ("videotestsrc pattern=ball num-buffers=5 "
        "! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
        "! %smotionest post-messages=true subpel=quarter ! %svcm post-messages=true ! appsink name=sink sync=false",
        prefixes[p], prefixes[p]);
    Run r = run (launch, NULL, 0);

    fail_unless_equals_int (r.out->len, 5);
    fail_unless_equals_int (n_messages (&r, "motionest"), 5);
    fail_unless_equals_int (n_messages (&r, "vcm"), 5);
    for (i = 0; i < r.out->len; i++) {
      GstBuffer *buf = gst_sample_get_buffer (g_ptr_array_index (r.out, i));
      const GstStructure *s = message_of (&r, "motionest", buf);

      check_motion_summary (s, gst_buffer_get_cuda_video_motion_meta (buf, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS),
          "blocks");
      check_motion_summary (message_of (&r, "vcm", buf), gst_buffer_get_cuda_video_motion_meta (buf,
              GST_CUDA_VIDEO_MOTION_KIND_POINTS), "points");
      moved += get_uint (s, "moved");
    }
    run_clear (&r);
    g_free (launch);
  }
  fail_unless (moved > 0, "nothing moved: the test proves little");

  /* post-messages=false (the default): none */
  {
    Run r = run ("videotestsrc pattern=ball num-buffers=2 ! video/x-raw,format=GRAY8,width=64,height=48 "
        "! cpumotionest ! cpucanny ! appsink name=sink sync=false", NULL, 0);
    fail_unless_equals_int (n_messages (&r, "motionest") + n_messages (&r, "canny"), 0);
    run_clear (&r);
  }
}

GST_END_TEST;

/* ---- canny ------------------------------------------------------------- */

static guint64
count_value (GstBuffer * buf, GstCaps * caps, guint8 value)
{
  GstVideoInfo info;
  GstVideoFrame f;
  guint64 n = 0;
  gint x, y;

  fail_unless (gst_video_info_from_caps (&info, caps));
  fail_unless (gst_video_frame_map (&f, &info, buf, GST_MAP_READ));
  for (y = 0; y < GST_VIDEO_FRAME_HEIGHT (&f); y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0);
    for (x = 0; x < GST_VIDEO_FRAME_WIDTH (&f); x++)
      n += row[x] == value;
  }
  gst_video_frame_unmap (&f);
  return n;
}

GST_START_TEST (test_canny)
{
  static const gchar *names[] = { "cpucanny", "cudacanny" };
  guint e, i;

  for (e = 0; e < G_N_ELEMENTS (names); e++) {
    gchar *edges = g_strdup_printf ("videotestsrc pattern=ball num-buffers=3 ! video/x-raw,format=GRAY8,width=97,"
        "height=61,framerate=30/1 ! %s post-messages=true ! appsink name=sink sync=false", names[e]);
    gchar *overlay = g_strdup_printf ("videotestsrc pattern=ball num-buffers=3 ! video/x-raw,format=RGBA,width=97,"
        "height=61,framerate=30/1 ! %s mode=overlay post-messages=true ! appsink name=sink sync=false", names[e]);
    gchar *magnitude = g_strdup_printf ("videotestsrc num-buffers=2 ! video/x-raw,format=GRAY8,width=32,height=32 "
        "! %s mode=magnitude post-messages=true ! appsink name=sink sync=false", names[e]);
    Run a = run (edges, NULL, 0), b = run (overlay, NULL, 0), c = run (magnitude, NULL, 0);

    fail_unless_equals_int (n_messages (&a, "canny"), 3);
    fail_unless_equals_int (n_messages (&b, "canny"), 3);
    fail_unless_equals_int (n_messages (&c, "canny"), 0);
    for (i = 0; i < a.out->len; i++) {
      GstSample *sa = g_ptr_array_index (a.out, i), *sb = g_ptr_array_index (b.out, i);
      const GstStructure *ma = message_of (&a, "canny", gst_sample_get_buffer (sa));
      const GstStructure *mb = message_of (&b, "canny", gst_sample_get_buffer (sb));
      guint64 want = count_value (gst_sample_get_buffer (sa), gst_sample_get_caps (sa), 255);

      fail_unless (get_u64 (ma, "edge-pixels") == want && want > 0, "%s: %" G_GUINT64_FORMAT " edge pixels, the "
          "map has %" G_GUINT64_FORMAT, names[e], get_u64 (ma, "edge-pixels"), want);
      fail_unless (get_u64 (ma, "pixels") == 97 * 61);
      /* the overlay finds the same edges (luma of RGBA ball = GRAY8 ball) */
      fail_unless (get_u64 (mb, "pixels") == 97 * 61 && get_u64 (mb, "edge-pixels") > 0);
    }
    run_clear (&a);
    run_clear (&b);
    run_clear (&c);
    g_free (edges);
    g_free (overlay);
    g_free (magnitude);
  }
}

GST_END_TEST;

/* ---- seam carving ------------------------------------------------------- */

static gint
luma_rgba (const guint8 * p)
{
  return (9798 * p[0] + 19235 * p[1] + 3735 * p[2] + 16384) >> 15;
}

/* @sample's RGBA frame, mapped for reading by its caps and video meta */
static void
map_rgba (GstVideoFrame * frame, GstSample * sample)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample))
      && GST_VIDEO_INFO_FORMAT (&info) == GST_VIDEO_FORMAT_RGBA);
  fail_unless (gst_video_frame_map (frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ));
}

static const guint8 *
rgba_at (const GstVideoFrame * frame, gint x, gint y)
{
  return (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, 0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0) + x * 4;
}

GST_START_TEST (test_seamcarve)
{
  static const gchar *names[] = { "cpuseamcarve", "cudaseamcarve" };
  const gint W = 96, H = 64, OW = 80;
  guint e, i;

  for (e = 0; e < G_N_ELEMENTS (names); e++) {
    gchar *show = g_strdup_printf ("videotestsrc pattern=snow num-buffers=2 ! video/x-raw,format=RGBA,width=%d,"
        "height=%d,framerate=30/1 ! tee name=t ! queue ! %s show-seams=true width=%d post-messages=true "
        "! appsink name=sink sync=false t. ! queue ! appsink name=in sync=false", W, H, names[e], OW);
    gchar *carve = g_strdup_printf ("videotestsrc pattern=snow num-buffers=2 ! video/x-raw,format=RGBA,width=%d,"
        "height=%d,framerate=30/1 ! %s post-messages=true ! video/x-raw,width=%d ! appsink name=sink sync=false",
        W, H, names[e], OW);
    Run a = run (show, NULL, 0), b = run (carve, NULL, 0);

    fail_unless_equals_int (n_messages (&a, "seamcarve"), 2);
    fail_unless_equals_int (a.in->len, 2);
    for (i = 0; i < a.out->len; i++) {
      GstBuffer *out = gst_sample_get_buffer (g_ptr_array_index (a.out, i));
      const GstStructure *s = message_of (&a, "seamcarve", out);
      const GstStructure *sb = message_of (&b, "seamcarve", gst_sample_get_buffer (g_ptr_array_index (b.out, i)));
      GstVideoFrame fi, fo;
      guint64 seam = 0, seam_energy = 0, frame_energy = 0;
      gint x, y, change;

      /* mapped as video frames: a cuda* element's output may come with
       * padded rows (its pool's stride, in the buffer's GstVideoMeta) */
      map_rgba (&fi, g_ptr_array_index (a.in, i));
      map_rgba (&fo, g_ptr_array_index (a.out, i));
      fail_unless (GST_VIDEO_FRAME_WIDTH (&fo) == W && GST_VIDEO_FRAME_HEIGHT (&fo) == H);
      for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
          const guint8 *p = rgba_at (&fi, x, y);
          gint l = luma_rgba (rgba_at (&fi, MAX (x - 1, 0), y)), r = luma_rgba (rgba_at (&fi, MIN (x + 1, W - 1), y));
          gint u = luma_rgba (rgba_at (&fi, x, MAX (y - 1, 0))), d = luma_rgba (rgba_at (&fi, x, MIN (y + 1, H - 1)));
          guint64 en = ABS (r - l) + ABS (d - u);
          frame_energy += en;
          /* a painted seam pixel differs from the input (snow is never
           * exactly the seams' red) */
          if (memcmp (p, rgba_at (&fo, x, y), 3) != 0) {
            seam++;
            seam_energy += en;
          }
        }
      gst_video_frame_unmap (&fi);
      gst_video_frame_unmap (&fo);
      fail_unless (gst_structure_get_int (s, "width-change", &change) && change == OW - W);
      fail_unless (gst_structure_get_int (s, "height-change", &change) && change == 0);
      fail_unless (get_u64 (s, "seam-pixels") == seam && seam == (guint64) (W - OW) * H, "%s: %" G_GUINT64_FORMAT
          " seam pixels, %" G_GUINT64_FORMAT " painted", names[e], get_u64 (s, "seam-pixels"), seam);
      fail_unless (fabs (get_double (s, "seam-energy") - (gdouble) seam_energy / seam) < 1e-9
          && fabs (get_double (s, "frame-energy") - (gdouble) frame_energy / (W * H)) < 1e-9,
          "%s: energies %g / %g, want %g / %g", names[e], get_double (s, "seam-energy"),
          get_double (s, "frame-energy"), (gdouble) seam_energy / seam, (gdouble) frame_energy / (W * H));
      /* carving for real reports the same seams */
      fail_unless (fields_equal (s, sb, "seam-pixels", "seam-energy", "frame-energy",
              "width-change", NULL));
    }
    run_clear (&a);
    run_clear (&b);
    g_free (show);
    g_free (carve);
  }
}

GST_END_TEST;

/* ---- DIBR ---------------------------------------------------------------- */

/* A side-by-side RGBA 2D+Z frame, W x H views: colour without white (at
 * most 200), depth (red of the right half) 40 with a near square of 240,
 * whose disocclusions are the holes. */
static GstBuffer *
dibr_frame (gint W, gint H, gint k)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) 2 * W * H * 4, NULL);
  GstMapInfo map;
  gint x, y;

  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (y = 0; y < H; y++)
    for (x = 0; x < 2 * W; x++) {
      guint8 *p = map.data + ((gsize) y * 2 * W + x) * 4;
      if (x < W) {
        p[0] = (guint8) ((x * 7 + k) % 200);
        p[1] = (guint8) ((y * 5) % 200);
        p[2] = (guint8) (((x + y) * 3) % 200);
      } else {
        gint dx = x - W;
        p[0] = p[1] = p[2] = dx > W / 3 && dx < 2 * W / 3 && y > H / 3 && y < 2 * H / 3 ? 240 : 40;
      }
      p[3] = 255;
    }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale_int (k * GST_SECOND, 1, 30);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale_int (GST_SECOND, 1, 30);
  return buf;
}

GST_START_TEST (test_dibr)
{
  static const gchar *names[] = { "cpudibr", "cudadibr" };
  const gint W = 64, H = 48;
  GstBuffer *frames[2] = { dibr_frame (W, H, 0), dibr_frame (W, H, 1) };
  guint e, i;

  for (e = 0; e < G_N_ELEMENTS (names); e++) {
    const gchar *common = "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=128,height=48,"
        "framerate=30/1 ! %s layout=side-by-side focal-length=60 z-near=1 z-far=10 baseline=0.4 convergence=0 "
        "post-messages=true %s ! appsink name=sink sync=false";
    gchar *holes = g_strdup_printf (common, names[e], "debug-output=holes");
    gchar *plain = g_strdup_printf (common, names[e], "");
    gchar *stereo = g_strdup_printf (common, names[e], "output=stereo-side-by-side symmetric=true");
    Run a = run (holes, frames, 2), b = run (plain, frames, 2), c = run (stereo, frames, 2);

    fail_unless_equals_int (n_messages (&a, "dibr"), 2);
    fail_unless_equals_int (n_messages (&c, "dibr"), 2);
    for (i = 0; i < a.out->len; i++) {
      GstSample *sa = g_ptr_array_index (a.out, i);
      const GstStructure *ma = message_of (&a, "dibr", gst_sample_get_buffer (sa));
      const GstStructure *mb = message_of (&b, "dibr", gst_sample_get_buffer (g_ptr_array_index (b.out, i)));
      const GstStructure *mc = message_of (&c, "dibr", gst_sample_get_buffer (g_ptr_array_index (c.out, i)));
      GstMapInfo map;
      guint64 white = 0;
      gsize p;

      fail_unless (gst_buffer_map (gst_sample_get_buffer (sa), &map, GST_MAP_READ));
      for (p = 0; p < map.size; p += 4)
        white += map.data[p] == 255 && map.data[p + 1] == 255 && map.data[p + 2] == 255;
      gst_buffer_unmap (gst_sample_get_buffer (sa), &map);
      fail_unless (get_uint (ma, "views") == 1 && get_u64 (ma, "view-pixels") == (guint64) W * H);
      fail_unless (get_u64 (ma, "hole-pixels") == white && white > 0, "%s: %" G_GUINT64_FORMAT " holes, %"
          G_GUINT64_FORMAT " white pixels", names[e], get_u64 (ma, "hole-pixels"), white);
      fail_unless (fields_equal (ma, mb, "views", "hole-pixels", "view-pixels", NULL));
      /* both eyes synthesized, at half the baseline each way */
      fail_unless (get_uint (mc, "views") == 2 && get_u64 (mc, "hole-pixels") > 0);
    }
    run_clear (&a);
    run_clear (&b);
    run_clear (&c);
    g_free (holes);
    g_free (plain);
    g_free (stereo);
  }
  gst_buffer_unref (frames[0]);
  gst_buffer_unref (frames[1]);
}

GST_END_TEST;

/* ---- the property -------------------------------------------------------- */

/* post-messages exists (default FALSE, mutable while playing) on the
 * elements whose result is more than pixels, and only there. */
GST_START_TEST (test_property)
{
  static const gchar *with[] = { "cpumotionest", "cudamotionest", "cpuvcm", "cudavcm", "cpucanny", "cudacanny",
    "cpuseamcarve", "cudaseamcarve", "cpudibr", "cudadibr"
  };
  static const gchar *without[] = { "cpuconv3d", "cudaconv3d", "cpubsplinescale", "cudabsplinescale" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (with); i++) {
    GstElement *e = gst_element_factory_make (with[i], NULL);
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "post-messages");
    gboolean v = TRUE;

    fail_unless (ps != NULL && G_IS_PARAM_SPEC_BOOLEAN (ps) && (ps->flags & GST_PARAM_MUTABLE_PLAYING), "%s",
        with[i]);
    g_object_get (e, "post-messages", &v, NULL);
    fail_unless (!v && !G_PARAM_SPEC_BOOLEAN (ps)->default_value, "%s: default", with[i]);
    g_object_set (e, "post-messages", TRUE, NULL);
    g_object_get (e, "post-messages", &v, NULL);
    fail_unless (v, "%s: set", with[i]);
    gst_object_unref (e);
  }
  for (i = 0; i < G_N_ELEMENTS (without); i++) {
    GstElement *e = gst_element_factory_make (without[i], NULL);
    fail_unless (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "post-messages") == NULL, "%s", without[i]);
    gst_object_unref (e);
  }
}

GST_END_TEST;

static Suite *
messages_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("messages", FALSE, &s);

  tcase_add_test (tc, test_property);
  tcase_add_test (tc, test_motion);
  tcase_add_test (tc, test_canny);
  tcase_add_test (tc, test_seamcarve);
  tcase_add_test (tc, test_dibr);
  return s;
}

GST_CHECK_MAIN (messages);
