/* gst-cuda-video: a frame of any cost ends when the element stops.
 *
 * For every element, settings and sizes whose frames take seconds to
 * hours on the CPU (the largest the caps and this machine's memory allow,
 * 8192 x 8192 where that fits): the slow frame is pushed from a thread of
 * its own, and while the element works on it, the change to NULL must
 * return within STOP_LIMIT_S (the frame must still be in progress then,
 * else the case proves nothing), with no ERROR on the bus and the push
 * answered FLUSHING; a FLUSH_START sent instead must end the frame as
 * quickly.  Afterwards the same element must give, on a small clip, the
 * frames a fresh one gives.  The cuda* elements run the same cases where
 * there is no GPU (their CPU fallback) and on the GPU where there is one.
 *
 * GCV_TEST_QUICK (the valgrind setup): five of the cases (no FFT: see
 * quick_cases) on 512 x 512 frames, which memcheck makes as slow, for what
 * the stop does to memory; the times are not checked there.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gcv-check.h"
#include "gcv-cuda.h"

#include <string.h>

/* What a stop may take.  Measured on two vCPUs shared with six busy
 * builds (load average 10): the slowest of these cases stopped in 0.05 s
 * (docs/performance.md); the rest of the second is the margin for a
 * loaded CI machine. */
#define STOP_LIMIT_S 1.0
/* (memcheck: what it makes of a stop) */
#define STOP_LIMIT_QUICK_S 60.0
/* How long the element works on the slow frame before it is stopped: past
 * the frame's set-up, into the work itself. */
#define SETTLE_US (600 * G_TIME_SPAN_MILLISECOND)
/* Longest wait for the slow frame to reach the element (making 8192 x
 * 8192 frames and setting the element up for them). */
#define ARRIVAL_TIMEOUT_S 240

/* GST_DEBUG=stopping:4 shows what each stop took */
GST_DEBUG_CATEGORY_STATIC (stopping_debug);
#undef GST_CAT_DEFAULT
#define GST_CAT_DEFAULT stopping_debug

typedef struct
{
  const gchar *factory;
  const gchar *props;           /* "name=value ..." as gst-launch-1.0 takes them */
  GstVideoFormat format;
  gint width, height;           /* of the slow frames */
  const gchar *sink_caps;       /* what downstream takes (scalers), or NULL */
  guint frames;                 /* frames pushed, the last the slow one (motion: a reference first) */
  gboolean eos;                 /* then an EOS (conv3d: the held frame's output comes at the drain) */
  gboolean depth;               /* 2D-plus-depth input (dibr): width is the whole frame's */
  const gchar *small_props;     /* settings of the clip after the stop (NULL: the same) */
  const gchar *small_sink_caps;
  gboolean may_finish;          /* a second or two: a fast machine may finish it before the stop */
} SlowCase;

static const SlowCase cases[] = {
  /* the issue's: about 13 minutes a frame */
  {"conv3d", "size=31 temporal-size=31 algorithm=baseline", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 1, TRUE},
  {"conv3d", "size=31 temporal-size=31 algorithm=streaming", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 1, TRUE},
  /* an FFT window of 31 frames of 8192 x 8192 needs 17 GB: 3 frames of 4096 x 4096 */
  {"conv3d", "size=31 temporal-size=3 algorithm=fft3d", GST_VIDEO_FORMAT_GRAY8, 4096, 4096, NULL, 1, TRUE,
        FALSE, NULL, NULL, TRUE},
  {"conv3d", "size=31 temporal-size=1 algorithm=fft-hybrid", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 1, FALSE},
  /* the issue's: about 70 minutes a frame */
  {"motionest", "search-range-x=128 search-range-y=128 subpel=quarter block-width=4 block-height=4",
      GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 2, FALSE},
  {"motionest", "search-range-x=128 search-range-y=128 subpel=quarter block-width=4 block-height=4 "
        "method=mods", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 2, FALSE},
  {"vcm", "max-points=16384 search-size=128 template-size=13 coherence-radius=64 points-per-window=16",
      GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 2, FALSE, FALSE, NULL, NULL, TRUE},
  /* the issue's: 2D-plus-depth 8192 x 4096 */
  {"dibr", "dcbf-size=31 median-size=15", GST_VIDEO_FORMAT_RGBA, 8192, 4096, NULL, 1, FALSE, TRUE},
  /* just under the cost bound: 128 exact passes over 8192 x 8192 */
  {"seamcarve", "width=8064 mode=exact", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 1, FALSE, FALSE,
      "width=56 mode=exact"},
  /* frames of a second or two (first writes to fresh memory included) */
  {"canny", "", GST_VIDEO_FORMAT_GRAY8, 8192, 8192, NULL, 1, FALSE, FALSE, NULL, NULL, TRUE},
  {"bsplinescale", "", GST_VIDEO_FORMAT_GRAY8, 4096, 4096, "video/x-raw,width=16384,height=16384", 1, FALSE,
        FALSE, NULL, "video/x-raw,width=96,height=72", TRUE},
};

/* Sets "name=value ..." on @e. */
static void
set_props (GstElement * e, const gchar * props)
{
  gchar **kv = g_strsplit (props ? props : "", " ", -1);
  guint i;

  for (i = 0; kv[i] != NULL; i++) {
    gchar **p = g_strsplit (kv[i], "=", 2);
    if (p[0] && p[0][0] && p[1])
      gst_util_set_object_arg (G_OBJECT (e), p[0], p[1]);
    g_strfreev (p);
  }
  g_strfreev (kv);
}

/* Frame k of a case (k = 0, 1, ...: the content moves between frames). */
static Img *
case_frame (const SlowCase * c, GstVideoFormat fmt, gint w, gint h, gint k)
{
  if (c->depth)
    return img_2d_plus_depth (fmt, w / 2, h, 0, 3 * k, 2 * k, k, 11 + k);
  return img_from_test_photo_t (fmt, w, h, 1, 3 * k, 2 * k, k, 11 + k);
}

/* Frame k of a case at its slow size, as a buffer: a photo's 256 x 256
 * window (moving with k) repeated, the rows copied whole (a frame of
 * 8192 x 8192 made pixel by pixel takes seconds). */
static GstBuffer *
slow_frame_buffer (const SlowCase * c, gint k)
{
  const gint T = 256;
  Img *tile;
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  gsize row, tile_row;
  gint y, x;

  if (c->depth) {
    Img *im = case_frame (c, c->format, c->width, c->height, k);
    buf = img_to_buffer (im, LAYOUT_DEFAULT);
    img_free (im);
    return buf;
  }
  tile = case_frame (c, c->format, T, T, k);
  gst_video_info_set_format (&info, c->format, c->width, c->height);
  fail_unless (GST_VIDEO_INFO_N_PLANES (&info) == 1, "slow frames are of one plane");
  row = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  tile_row = (gsize) T * GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (buf != NULL && gst_buffer_map (buf, &map, GST_MAP_WRITE));
  for (y = 0; y < c->height; y++) {
    const guint8 *src = tile->data + GST_VIDEO_INFO_PLANE_STRIDE (&tile->info, 0) * (y % T);
    for (x = 0; (gsize) x < row; x += tile_row)
      memcpy (map.data + row * y + x, src, MIN (tile_row, row - x));
  }
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale_int (k * GST_SECOND, 1, 30);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale_int (GST_SECOND, 1, 30);
  img_free (tile);
  return buf;
}

/* What the element's sink pad saw, and what the pushing thread got back. */
typedef struct
{
  GMutex lock;
  GCond cond;
  guint buffers;
  gboolean eos;
  gint64 done_us;               /* when the pushes returned; 0 before */
  GstFlowReturn last;
  const SlowCase *c;
  GstHarness *h;
  GstBuffer **bufs;
} Pusher;

static GstPadProbeReturn
count_arrivals (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Pusher *p = user_data;

  g_mutex_lock (&p->lock);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER)
    p->buffers++;
  else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS)
    p->eos = TRUE;
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
  return GST_PAD_PROBE_OK;
}

static gpointer
push_frames (gpointer data)
{
  Pusher *p = data;
  GstFlowReturn ret = GST_FLOW_OK;
  guint k;

  for (k = 0; k < p->c->frames && ret == GST_FLOW_OK; k++) {
    ret = gst_harness_push (p->h, p->bufs[k]);
    p->bufs[k] = NULL;
  }
  if (ret == GST_FLOW_OK && p->c->eos)
    gst_harness_push_event (p->h, gst_event_new_eos ());
  g_mutex_lock (&p->lock);
  p->last = ret;
  p->done_us = g_get_monotonic_time ();
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
  return NULL;
}

/* Waits until the slow frame (and the EOS that makes it, for conv3d) has
 * reached the element. */
static void
wait_arrival (Pusher * p, const gchar * what)
{
  gint64 end = g_get_monotonic_time () + ARRIVAL_TIMEOUT_S * G_TIME_SPAN_SECOND;
  gboolean arrived;

  g_mutex_lock (&p->lock);
  while (!(arrived = p->buffers >= p->c->frames && (!p->c->eos || p->eos)) && p->done_us == 0)
    if (!g_cond_wait_until (&p->cond, &p->lock, end))
      break;
  g_mutex_unlock (&p->lock);
  fail_unless (arrived, "%s: the slow frame did not reach the element within %d s", what, ARRIVAL_TIMEOUT_S);
}

typedef enum
{
  STOP_BY_STATE,                /* set_state (NULL) */
  STOP_BY_FLUSH,                /* a flushing seek's FLUSH_START */
} StopKind;

/* Starts the slow frame on @e, stops it, and checks the time, the flow
 * return and the bus. */
static void
stop_slow_frame (const SlowCase * c, const gchar * name, GstElement * e, GstBus * bus, StopKind kind)
{
  gchar *what = g_strdup_printf ("%s %s at %dx%d, %s", name, c->props, c->width, c->height,
      kind == STOP_BY_STATE ? "set_state (NULL)" : "FLUSH_START");
  Pusher p = { 0, };
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  GstPad *sinkpad = gst_element_get_static_pad (e, "sink");
  GstVideoInfo info;
  const gdouble limit_s = gcv_check_quick () ? STOP_LIMIT_QUICK_S : STOP_LIMIT_S;
  GThread *thread;
  gint64 t0, t1;
  gchar *errors = NULL;
  guint k;

  g_mutex_init (&p.lock);
  g_cond_init (&p.cond);
  p.c = c;
  p.h = h;
  gst_harness_set_sink_caps_str (h, c->sink_caps ? c->sink_caps : "video/x-raw");
  gst_video_info_set_format (&info, c->format, c->width, c->height);
  GST_VIDEO_INFO_FPS_N (&info) = 30;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  {
    GstCaps *caps = gst_video_info_to_caps (&info);
    gst_harness_set_src_caps (h, caps);
  }
  p.bufs = g_new0 (GstBuffer *, c->frames);
  for (k = 0; k < c->frames; k++)
    p.bufs[k] = slow_frame_buffer (c, (gint) k);
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, count_arrivals,
      &p, NULL);

  thread = g_thread_new ("push", push_frames, &p);
  wait_arrival (&p, what);
  g_usleep (SETTLE_US);

  t0 = g_get_monotonic_time ();
  if (kind == STOP_BY_STATE) {
    fail_unless (gst_element_set_state (e, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS, "%s: the change to NULL "
        "failed", what);
  } else {
    gst_pad_send_event (sinkpad, gst_event_new_flush_start ());
    g_mutex_lock (&p.lock);
    while (p.done_us == 0)
      g_cond_wait (&p.cond, &p.lock);
    g_mutex_unlock (&p.lock);
  }
  t1 = g_get_monotonic_time ();
  g_thread_join (thread);

  GST_INFO ("%s: stopped in %.3f s", what, (t1 - t0) / 1e6);
  fail_unless (t1 - t0 <= limit_s * G_TIME_SPAN_SECOND, "%s: stopping took %.2f s (at most %.1f s)", what,
      (t1 - t0) / 1e6, limit_s);
  if (p.done_us > t0) {
    /* (conv3d: the slow frame is rendered by the EOS, whose push has no flow return) */
    fail_unless (c->eos || p.last == GST_FLOW_FLUSHING, "%s: the slow push returned %s, not flushing", what,
        gst_flow_get_name (p.last));
  } else {
    /* a frame of a second or two on a fast machine, or on the GPU */
    fail_unless (c->may_finish || g_str_has_prefix (name, "cuda"), "%s: the frame ended before it was stopped: "
        "not a slow case", what);
    GST_INFO ("%s: the frame ended before the stop", what);
  }
  fail_unless (bus_count (bus, GST_MESSAGE_ERROR, 0, &errors) == 0, "%s: an error was posted: %s", what, errors);
  if (kind == STOP_BY_FLUSH)
    fail_unless (gst_pad_send_event (sinkpad, gst_event_new_flush_stop (TRUE)));

  gst_object_unref (sinkpad);
  gst_harness_teardown (h);
  g_free (p.bufs);
  g_mutex_clear (&p.lock);
  g_cond_clear (&p.cond);
  g_free (what);
}

/* A small clip (then EOS) through @e with @c's small settings: the frames
 * that came out. */
static GPtrArray *
run_clip (const SlowCase * c, GstElement * e)
{
  const gint w = c->depth ? 128 : 64, h = 48, n = 4;
  GPtrArray *outs = g_ptr_array_new_with_free_func (out_frame_free);
  GstHarness *hn;
  GstCaps *caps;
  GstBuffer *buf;
  gint k;

  hn = gst_harness_new_with_element (e, "sink", "src");
  gst_harness_set_sink_caps_str (hn, c->small_sink_caps ? c->small_sink_caps : "video/x-raw");
  for (k = 0; k < n; k++) {
    Img *im = case_frame (c, c->format, w, h, k);
    if (k == 0)
      gst_harness_set_src_caps (hn, gst_video_info_to_caps (&im->info));
    fail_unless_equals_int (gst_harness_push (hn, img_to_buffer (im, LAYOUT_DEFAULT)), GST_FLOW_OK);
    img_free (im);
  }
  fail_unless (gst_harness_push_event (hn, gst_event_new_eos ()));
  caps = gst_pad_get_current_caps (hn->sinkpad);
  while ((buf = gst_harness_try_pull (hn)) != NULL) {
    g_ptr_array_add (outs, out_frame_new (buf, caps));
    gst_buffer_unref (buf);
  }
  gst_caps_unref (caps);
  gst_harness_teardown (hn);
  return outs;
}

/* The same frames: pixels and motion meta, but for the meta's stamps
 * (the element's stamps count on from the first clip). */
static void
compare_clips (GPtrArray * got, GPtrArray * ref, const gchar * what)
{
  guint i;

  fail_unless (got->len == ref->len, "%s: %u frames, the reference %u", what, got->len, ref->len);
  for (i = 0; i < got->len; i++) {
    const OutFrame *a = g_ptr_array_index (got, i), *b = g_ptr_array_index (ref, i);
    gchar *which = g_strdup_printf ("%s, frame %u", what, i);
    assert_img_equal (a->im, b->im, which);
    motion_meta_compare (a->meta, b->meta, MOTION_META_IGNORE_STAMPS, which);
    g_free (which);
  }
}

static void
check_case (const SlowCase * c, const gchar * prefix, StopKind kind)
{
  gchar *name = g_strconcat (prefix, c->factory, NULL);
  GstElement *e = gst_element_factory_make (name, NULL), *fresh;
  GstBus *bus = gst_bus_new ();
  GPtrArray *got, *ref;
  gchar *what;

  fail_unless (e != NULL, "no element %s", name);
  gst_object_ref_sink (e);
  gst_element_set_bus (e, bus);
  set_props (e, c->props);
  stop_slow_frame (c, name, e, bus, kind);

  /* the element stopped (or flushed and stopped) starts again cleanly: a
   * small clip gives what a fresh element gives */
  fail_unless (gst_element_set_state (e, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  if (c->small_props)
    set_props (e, c->small_props);
  got = run_clip (c, e);
  fresh = gst_object_ref_sink (gst_element_factory_make (name, NULL));
  set_props (fresh, c->props);
  if (c->small_props)
    set_props (fresh, c->small_props);
  ref = run_clip (c, fresh);
  what = g_strdup_printf ("%s %s: a clip after the stop vs a fresh element", name, c->props);
  fail_unless (ref->len > 0, "%s: no frame came out", what);
  compare_clips (got, ref, what);
  fail_unless (bus_count (bus, GST_MESSAGE_ERROR, 0, NULL) == 0, "%s: an error was posted", what);

  g_free (what);
  g_ptr_array_unref (got);
  g_ptr_array_unref (ref);
  gst_object_unref (fresh);
  gst_element_set_bus (e, NULL);
  gst_object_unref (e);
  gst_bus_set_flushing (bus, TRUE);
  gst_object_unref (bus);
  g_free (name);
}

GST_START_TEST (test_stop_slow_frame)
{
  check_case (&cases[__i__], "cpu", STOP_BY_STATE);
}

GST_END_TEST;

/* The same on the GPU (without one, the cuda* elements run the cpu* code
 * above). */
GST_START_TEST (test_stop_slow_frame_gpu)
{
  GcvError err;

  if (gcv_cuda_device_count (&err) < 1) {
    fail_if (require_gpu (), "GST_CUDA_VIDEO_REQUIRE_GPU=1 but no GPU: %s", err.message);
    return;
  }
  check_case (&cases[__i__], "cuda", STOP_BY_STATE);
}

GST_END_TEST;

/* A flushing seek: FLUSH_START ends the frame in progress as quickly (the
 * same request as the change to READY: three of the cases). */
static const guint flush_cases[] = { 0, 4, 7 };

GST_START_TEST (test_flush_slow_frame)
{
  check_case (&cases[flush_cases[__i__]], "cpu", STOP_BY_FLUSH);
}

GST_END_TEST;

/* GCV_TEST_QUICK: conv3d baseline, motionest full and MODS, dibr and
 * seamcarve, small (every frame may end first: memcheck's speed varies).
 * No FFT case: FFTW's planner, made once by fftwf_init_threads, shows as
 * definitely lost under memcheck once a streaming thread that ran an FFT
 * has exited (the same with the plugin before the stop request: a
 * gst-launch-1.0 of cpuconv3d algorithm=fft-hybrid at 512 x 512). */
static const SlowCase quick_cases[] = {
  {"conv3d", "size=31 temporal-size=31 algorithm=baseline", GST_VIDEO_FORMAT_GRAY8, 512, 512, NULL, 1, TRUE,
        FALSE, NULL, NULL, TRUE},
  {"motionest", "search-range-x=128 search-range-y=128 subpel=quarter block-width=4 block-height=4 "
        "method=mods", GST_VIDEO_FORMAT_GRAY8, 512, 512, NULL, 2, FALSE, FALSE, NULL, NULL, TRUE},
  {"motionest", "search-range-x=128 search-range-y=128 subpel=quarter block-width=4 block-height=4",
      GST_VIDEO_FORMAT_GRAY8, 512, 512, NULL, 2, FALSE, FALSE, NULL, NULL, TRUE},
  {"dibr", "dcbf-size=31 median-size=15", GST_VIDEO_FORMAT_RGBA, 1024, 512, NULL, 1, FALSE, TRUE, NULL, NULL,
        TRUE},
  {"seamcarve", "width=384 mode=exact", GST_VIDEO_FORMAT_GRAY8, 512, 512, NULL, 1, FALSE, FALSE,
      "width=56 mode=exact", NULL, TRUE},
};

GST_START_TEST (test_stop_quick)
{
  check_case (&quick_cases[__i__], "cpu", __i__ % 2 ? STOP_BY_FLUSH : STOP_BY_STATE);
}

GST_END_TEST;

static Suite *
stopping_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("stopping", FALSE, &s);

  GST_DEBUG_CATEGORY_INIT (stopping_debug, "stopping", 0, "the stopping tests");
  tcase_set_timeout (tc, 600);
  if (gcv_check_quick ()) {
    tcase_add_loop_test (tc, test_stop_quick, 0, G_N_ELEMENTS (quick_cases));
    return s;
  }
  tcase_add_loop_test (tc, test_stop_slow_frame, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_stop_slow_frame_gpu, 0, G_N_ELEMENTS (cases));
  tcase_add_loop_test (tc, test_flush_slow_frame, 0, G_N_ELEMENTS (flush_cases));
  return s;
}

GST_CHECK_MAIN (stopping);
