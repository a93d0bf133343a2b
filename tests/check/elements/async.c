/* gst-cuda-video: the frames in flight (async-depth) of every element,
 * through GstHarness (gst-check).
 *
 * async-depth N lets an element keep up to N frames submitted but not yet
 * pushed (on the GPU, so that the transfers of one frame overlap the
 * compute of another); -1 means 2 on the GPU and 0 on the CPU.  The CPU
 * backend honours an explicit value the same way (frames computed at once,
 * held), so these tests run without a GPU on the cpu* elements.  What is
 * checked, on all seven element types:
 *  - holding: after the push of frame k exactly frame k - N comes out (none
 *    for the first N pushes; the algorithm's own latency, conv3d's
 *    (temporal-size - 1) / 2 frames, comes on top), and the outputs are
 *    the frames of async-depth=0, pixel for pixel, with their timestamps,
 *    in order (motionest / vcm: the same motion meta on every frame);
 *  - release: EOS, a DRAIN query, a caps change, any serialized event
 *    (custom, GAP, SEGMENT, TAG) push the held frames first, in order, under
 *    the caps they were made with; a FLUSH drops them (none ever comes
 *    out), and what follows equals a fresh element;
 *  - the LATENCY query adds N frames at the input frame rate to the
 *    element's own latency; changing async-depth while playing releases the
 *    held frames at the next buffer and changes the latency (with a LATENCY
 *    message);
 *  - passthrough (bsplinescale with equal caps) holds nothing;
 *  - the cuda* elements with the default: nothing held on the CPU fallback,
 *    2 frames on a GPU (GST_CUDA_VIDEO_REQUIRE_GPU=1: the GPU is required).
 *
 * Input is crops of the photos in tests/data panned by (3, 2) pixels a
 * frame (2D-plus-depth frames for dibr); frames are small to keep the run
 * short.  The order of what goes downstream is read with the kit's Trace.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

/* the element test kit (tests/common): harness, frames, buffers, traces,
 * output frames with their motion meta */
#include "gcv-check.h"

/* the caps' frame rate (img_new) and one frame at it */
#define FPS 30
#define DUR ((GstClockTime) (GST_SECOND / FPS))
#define UPSTREAM_LATENCY (7 * GST_MSECOND)
/* run_init: leave async-depth at its default */
#define DEPTH_DEFAULT G_MININT
#define N_FRAMES 6

/* ------------------------------------------------------------------------ */
/* the seven element types, each with a small input it takes                */

typedef struct
{
  const gchar *suffix;          /* cpu<suffix>, cuda<suffix> */
  GstVideoFormat fmt;
  gint w, h;                    /* the input frame (dibr: 2D + Z side by side) */
  const gchar *downstream;      /* what the harness' sink takes, NULL: anything */
  const gchar *props[5];        /* name, value, ..., NULL */
  gint own;                     /* frames the algorithm itself holds back */
  gboolean in_place;            /* an analyser: its motion meta on every frame */
  gboolean dibr;
} Elem;

enum
{ CANNY, BSPLINE, CONV3D, SEAMCARVE, MOTIONEST, VCM, DIBR, N_ELEMS };

static const Elem elems[N_ELEMS] = {
  {"canny", GST_VIDEO_FORMAT_NV12, 48, 32, NULL, {NULL}, 0, FALSE, FALSE},
  {"bsplinescale", GST_VIDEO_FORMAT_RGBA, 40, 30,
      "video/x-raw,width=56,height=42", {NULL}, 0, FALSE, FALSE},
  {"conv3d", GST_VIDEO_FORMAT_I420, 32, 24, NULL,
      {"size", "3", "temporal-size", "3", NULL}, 1, FALSE, FALSE},
  {"seamcarve", GST_VIDEO_FORMAT_RGBA, 40, 30, NULL, {"width", "34", NULL}, 0,
      FALSE, FALSE},
  {"motionest", GST_VIDEO_FORMAT_I420, 64, 48, NULL, {NULL}, 0, TRUE, FALSE},
  {"vcm", GST_VIDEO_FORMAT_I420, 96, 72, NULL, {"max-points", "100", NULL}, 0,
      TRUE, FALSE},
  {"dibr", GST_VIDEO_FORMAT_RGBA, 64, 24, NULL, {NULL}, 0, FALSE, TRUE},
};

static const gchar *const prefixes[] = { "cpu", "cuda" };

/* frame k of a clip of @e's kind in fmt, w x h (from frame @first on) */
static Img **
clip_new (const Elem * e, GstVideoFormat fmt, gint w, gint h, gint first,
    gint n)
{
  return photo_clip_new (fmt, w, h, n, (gint) (e - elems), 50 + 3 * first,
      30 + 2 * first, e->dibr, 77 + first);
}

/* Frame number k of a stream: PTS k frames, a duration and an offset of
 * its own, so that a frame that comes out with another's stamps shows. */
static GstBuffer *
frame_buffer (const Img * im, gint k)
{
  GstBuffer *buf = img_to_buffer (im, k % N_LAYOUTS);

  GST_BUFFER_PTS (buf) = k * DUR;
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = DUR - 1000 * k;
  GST_BUFFER_OFFSET (buf) = k;
  return buf;
}

/* added latency of @frames at 30/1 */
static GstClockTime
frames_time (gint frames)
{
  return gst_util_uint64_scale_int (frames * GST_SECOND, 1, FPS);
}

/* "B<from> ... B<to - 1>", then @tail (when not NULL) */
static gchar *
frame_words (gint from, gint to, const gchar * tail)
{
  GString *s = g_string_new ("");
  gint k;

  for (k = from; k < to; k++)
    g_string_append_printf (s, "%sB%d", s->len ? " " : "", k);
  if (tail)
    g_string_append_printf (s, "%s%s", s->len ? " " : "", tail);
  return g_string_free (s, FALSE);
}

/* ------------------------------------------------------------------------ */
/* one element, step by step, with the frames it must hold at each step     */

typedef struct
{
  const Elem *e;
  gchar *name;
  Ctx ctx;
  Trace *trace;
  gint depth;                   /* frames in flight the element may keep */
  gint own_filled;              /* frames in the algorithm's own history */
  gint inflight;                /* frames in flight */
  GstCaps *caps;                /* the output caps of the frames now due */
  GPtrArray *outs;              /* OutFrame, in the order they came */
  gint next;                    /* the frame number due out next */
} Run;

/* A fresh cpu* / cuda* element of @e's type with its properties and
 * async-depth @depth (DEPTH_DEFAULT: not set, so 2 on the GPU, 0 on the
 * CPU); upstream latency 7 ms. */
static void
run_init (Run * r, const Elem * e, const gchar * prefix, gint depth)
{
  guint i;

  memset (r, 0, sizeof (*r));
  r->e = e;
  r->name = g_strconcat (prefix, e->suffix, NULL);
  /* one CPU thread: an oversubscribed OpenMP team costs more than these
   * small frames (what is held does not depend on it) */
  r->ctx = ctx_new (r->name, "n-threads", 1, NULL);
  for (i = 0; e->props[i] != NULL; i += 2)
    gst_util_set_object_arg (G_OBJECT (r->ctx.e), e->props[i],
        e->props[i + 1]);
  /* (ctx_new sets async-depth=0 for the other element tests: the
   * default is put back by hand) */
  g_object_set (r->ctx.e, "async-depth", depth == DEPTH_DEFAULT ? -1 : depth,
      NULL);
  if (depth >= 0) {
    r->depth = depth;
  } else {
    /* -1: 2 on the GPU, 0 on the CPU; the backend is chosen at start,
     * which the harness did */
    gchar *backend = get_backend (r->ctx.e);
    r->depth = g_strcmp0 (backend, "cuda") == 0 ? 2 : 0;
    g_free (backend);
  }
  /* system memory downstream: on a GPU the frames in flight are uploads,
   * kernels and downloads (memory:CUDAMemory out is cudamemory.c's) */
  ctx_set_downstream (&r->ctx, e->downstream ? e->downstream : "video/x-raw");
  gst_harness_set_upstream_latency (r->ctx.h, UPSTREAM_LATENCY);
  r->outs = g_ptr_array_new_with_free_func (out_frame_free);
  r->trace = trace_new (r->ctx.h->sinkpad, DUR);
}

/* Pulls the @n frames that must have come out now: the frames due next,
 * in order, with their stamps. */
static void
run_collect (Run * r, gint n, const gchar * what)
{
  guint queued = gst_harness_buffers_in_queue (r->ctx.h);
  gint i;

  fail_unless (queued == (guint) n, "%s async-depth=%d, %s: %u frames out, "
      "expected %d", r->name, r->depth, what, queued, n);
  for (i = 0; i < n; i++) {
    GstBuffer *buf = gst_harness_pull (r->ctx.h);
    OutFrame *o = out_frame_new (buf, r->caps);
    fail_unless (o->pts == r->next * DUR, "%s async-depth=%d, %s: frame "
        "with PTS %" GST_TIME_FORMAT " came out, frame %d (%" GST_TIME_FORMAT
        ") was due", r->name, r->depth, what, GST_TIME_ARGS (o->pts), r->next,
        GST_TIME_ARGS (r->next * DUR));
    fail_unless (o->dur == DUR - 1000 * r->next && o->offset ==
        (guint64) r->next, "%s, frame %d: duration %" G_GUINT64_FORMAT
        ", offset %" G_GUINT64_FORMAT " are not its own", r->name, r->next,
        o->dur, o->offset);
    g_ptr_array_add (r->outs, o);
    gst_buffer_unref (buf);
    r->next++;
  }
}

/* New input caps (those of @im): the held frames come out first, under the
 * caps they were made with; the algorithm's history restarts. */
static void
run_caps (Run * r, const Img * im)
{
  ctx_set_caps (&r->ctx, &im->info);
  run_collect (r, r->inflight + r->own_filled, "at the caps change");
  r->inflight = r->own_filled = 0;
  gst_clear_caps (&r->caps);
  r->caps = ctx_out_caps (&r->ctx);
}

/* Pushes @im as frame number k: the algorithm's history fills first, then
 * the frames in flight; what is beyond async-depth comes out. */
static void
run_push (Run * r, const Img * im, gint k)
{
  gchar *what = g_strdup_printf ("after the push of frame %d", k);
  gint out;

  if (r->own_filled < r->e->own)
    r->own_filled++;
  else
    r->inflight++;
  ctx_push_expect (&r->ctx, frame_buffer (im, k), GST_FLOW_OK, what);
  out = MAX (0, r->inflight - r->depth);
  r->inflight -= out;
  run_collect (r, out, what);
  g_free (what);
}

/* EOS: every held frame comes out, then the EOS. */
static void
run_eos (Run * r)
{
  GstEvent *ev;
  gboolean eos = FALSE;

  fail_unless (gst_harness_push_event (r->ctx.h, gst_event_new_eos ()));
  run_collect (r, r->inflight + r->own_filled, "at EOS");
  r->inflight = r->own_filled = 0;
  while ((ev = gst_harness_try_pull_event (r->ctx.h)) != NULL) {
    eos |= GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (eos, "%s: the EOS did not come out", r->name);
}

/* A DRAIN query on the sink pad: the frames in flight come out (the
 * algorithm's own history is no frame in flight and stays). */
static void
run_drain (Run * r)
{
  GstQuery *q = gst_query_new_drain ();

  /* the harness' sink does not answer DRAIN: the result is not the point */
  gst_pad_peer_query (r->ctx.h->srcpad, q);
  gst_query_unref (q);
  run_collect (r, r->inflight, "at the DRAIN query");
  r->inflight = 0;
}

/* FLUSH_START, FLUSH_STOP and a new segment: nothing comes out, the held
 * frames are gone and the history restarts; frame @next is due next. */
static void
run_flush (Run * r, gint next)
{
  GstSegment seg;

  fail_unless (gst_harness_push_event (r->ctx.h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (r->ctx.h,
          gst_event_new_flush_stop (TRUE)));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (r->ctx.h, gst_event_new_segment (&seg)));
  run_collect (r, 0, "after the flush");
  r->inflight = r->own_filled = 0;
  r->next = next;
}

/* The LATENCY query: upstream's plus async-depth and the algorithm's own
 * frames. */
static void
run_latency (Run * r)
{
  GstClockTime got = gst_harness_query_latency (r->ctx.h);
  GstClockTime want = UPSTREAM_LATENCY + frames_time (r->depth + r->e->own);

  fail_unless (got == want, "%s async-depth=%d: latency %" GST_TIME_FORMAT
      ", expected %" GST_TIME_FORMAT " (%d + %d frames)", r->name, r->depth,
      GST_TIME_ARGS (got), GST_TIME_ARGS (want), r->depth, r->e->own);
}

/* Tears the element down; returns what came out. */
static GPtrArray *
run_finish (Run * r)
{
  GPtrArray *outs = r->outs;

  trace_free (r->trace);
  ctx_free (&r->ctx);
  gst_clear_caps (&r->caps);
  g_free (r->name);
  memset (r, 0, sizeof (*r));
  return outs;
}

/* ------------------------------------------------------------------------ */
/* scenarios                                                                */

/* The n frames of @clip (numbered from @base), then EOS: one frame out per
 * push once the element holds what it may, the held ones before the EOS.
 * Analysers: the frames unchanged, the motion meta of every frame.  With
 * @fallback, the cuda* element's CPU fallback is checked too. */
static GPtrArray *
run_clip (const Elem * e, const gchar * prefix, gint depth, Img ** clip,
    gint n, gint base, gboolean fallback)
{
  Run r;
  gchar *want;
  gint k;

  run_init (&r, e, prefix, depth);
  run_caps (&r, clip[0]);
  r.next = base;
  g_free (trace_take (r.trace));
  run_latency (&r);
  for (k = 0; k < n; k++)
    run_push (&r, clip[k], base + k);
  run_eos (&r);
  want = frame_words (base, base + n, "E");
  trace_expect (r.trace, want, r.name);
  g_free (want);
  check_backend (r.ctx.e, r.name);

  for (k = 0; k < n && e->in_place; k++) {
    OutFrame *o = g_ptr_array_index (r.outs, k);
    gchar *msg = g_strdup_printf ("%s async-depth=%d, frame %d", r.name,
        r.depth, base + k);
    gboolean has_ref = FALSE;
    guint64 counter = G_MAXUINT64;
    fail_unless (o->meta != NULL, "%s: no motion meta", msg);
    fail_unless_equals_string (gst_structure_get_string (o->meta, "kind"),
        e - elems == MOTIONEST ? "blocks" : "points");
    fail_unless (gst_structure_get (o->meta, "has-reference", G_TYPE_BOOLEAN,
            &has_ref, "frame", G_TYPE_UINT64, &counter, NULL), "%s", msg);
    fail_unless (has_ref == (k > 0), "%s: has-reference %d", msg, has_ref);
    fail_unless (counter == (guint64) k, "%s: meta of frame %" G_GUINT64_FORMAT,
        msg, counter);
    /* in place: the pixels pass unchanged */
    assert_img_equal (o->im, clip[k], msg);
    g_free (msg);
  }
  if (fallback)
    ctx_check_fallback (&r.ctx);
  return run_finish (&r);
}

/* ======================================================================== */
/* tests                                                                    */

/* async-depth on every element: an int -1 .. 16, default -1, settable while
 * playing; values outside are refused with a warning */
GST_START_TEST (test_property)
{
  const Elem *e = &elems[__i__ / 2];
  gchar *name = g_strconcat (prefixes[__i__ % 2], e->suffix, NULL);
  GstElement *el = gst_element_factory_make (name, NULL);
  GParamSpec *ps;
  gint v, d;

  fail_unless (el != NULL, "no element %s", name);
  ps = g_object_class_find_property (G_OBJECT_GET_CLASS (el), "async-depth");
  fail_unless (ps != NULL, "%s has no async-depth", name);
  fail_unless (G_IS_PARAM_SPEC_INT (ps), "%s: async-depth is a %s", name,
      g_type_name (G_PARAM_SPEC_VALUE_TYPE (ps)));
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->minimum, -1);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->maximum, 16);
  fail_unless_equals_int (G_PARAM_SPEC_INT (ps)->default_value, -1);
  fail_unless ((ps->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE);
  fail_unless (ps->flags & GST_PARAM_MUTABLE_PLAYING, "%s: async-depth is "
      "not mutable while playing", name);
  g_object_get (el, "async-depth", &v, NULL);
  fail_unless_equals_int (v, -1);
  for (d = -1; d <= 16; d++) {
    g_object_set (el, "async-depth", d, NULL);
    g_object_get (el, "async-depth", &v, NULL);
    fail_unless_equals_int (v, d);
  }
  reject_int (el, "async-depth", 17, NULL);
  reject_int (el, "async-depth", -2, NULL);
  gst_object_unref (el);
  g_free (name);
}

GST_END_TEST;

/* async-depth 1 and 2 hold that many frames, and give the frames
 * of async-depth=0 (pixels, stamps, order, motion meta); EOS releases them
 * before it goes downstream */
GST_START_TEST (test_hold_release)
{
  const Elem *e = &elems[__i__ / 2];
  const gchar *prefix = prefixes[__i__ % 2];
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, N_FRAMES);
  GPtrArray *ref = run_clip (e, prefix, 0, clip, N_FRAMES, 0, FALSE);
  gint depth;

  for (depth = 1; depth <= 2; depth++) {
    GPtrArray *got = run_clip (e, prefix, depth, clip, N_FRAMES, 0, FALSE);
    gchar *what = g_strdup_printf ("%s%s async-depth=%d vs 0", prefix,
        e->suffix, depth);
    out_frames_compare (got, 0, ref, FALSE, what);
    g_ptr_array_unref (got);
    g_free (what);
  }
  /* a clip shorter than the depth: everything at EOS */
  {
    GPtrArray *got = run_clip (e, prefix, 5, clip, 3, 0, FALSE);
    GPtrArray *ref3 = run_clip (e, prefix, 0, clip, 3, 0, FALSE);
    out_frames_compare (got, 0, ref3, FALSE, "3 frames at async-depth=5");
    g_ptr_array_unref (ref3);
    g_ptr_array_unref (got);
  }
  g_ptr_array_unref (ref);
  photo_clip_free (clip, N_FRAMES);
}

GST_END_TEST;

static const gint release_elems[] = { CANNY, CONV3D, MOTIONEST };

/* 5 frames, a DRAIN query (the frames in flight come out during it), 4
 * frames, EOS */
static GPtrArray *
run_drained (const Elem * e, gint depth, Img ** clip)
{
  Run r;
  gint k;
  gchar *want;

  run_init (&r, e, "cpu", depth);
  run_caps (&r, clip[0]);
  g_free (trace_take (r.trace));
  for (k = 0; k < 5; k++)
    run_push (&r, clip[k], k);
  g_free (trace_take (r.trace));
  run_drain (&r);
  fail_unless_equals_int (r.next, 5 - e->own);
  /* the released frames went downstream during the query */
  want = frame_words (MIN (5 - e->own, MAX (0, 5 - e->own - depth)),
      5 - e->own, NULL);
  trace_expect (r.trace, want, "released by DRAIN");
  g_free (want);
  for (k = 5; k < 9; k++)
    run_push (&r, clip[k], k);
  run_eos (&r);
  return run_finish (&r);
}

/* a DRAIN query on the sink pad releases the frames in flight; the frames
 * are those of async-depth=0 */
GST_START_TEST (test_drain_query)
{
  const Elem *e = &elems[release_elems[__i__]];
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, 9);
  GPtrArray *ref = run_drained (e, 0, clip), *got = run_drained (e, 2, clip);
  gchar *what = g_strdup_printf ("cpu%s drained, async-depth=2 vs 0",
      e->suffix);

  out_frames_compare (got, 0, ref, FALSE, what);
  g_free (what);
  g_ptr_array_unref (got);
  g_ptr_array_unref (ref);
  photo_clip_free (clip, 9);
}

GST_END_TEST;

/* frames held at a FLUSH never come out; the frames after it equal a
 * fresh element's (the history restarts: no reference for the first) */
GST_START_TEST (test_flush)
{
  const Elem *e = &elems[release_elems[__i__ / 2]];
  gint depth = 1 + __i__ % 2;
  Img **a = clip_new (e, e->fmt, e->w, e->h, 0, 5);
  Img **b = clip_new (e, e->fmt, e->w, e->h, 40, 6);
  GPtrArray *fresh, *got;
  gchar *want, *before, *after;
  gint k, out_before;
  Run r;

  fresh = run_clip (e, "cpu", 0, b, 6, 100, FALSE);

  run_init (&r, e, "cpu", depth);
  run_caps (&r, a[0]);
  g_free (trace_take (r.trace));
  for (k = 0; k < 5; k++)
    run_push (&r, a[k], k);
  out_before = r.next;
  fail_unless_equals_int (out_before, MAX (0, 5 - e->own - depth));
  run_flush (&r, 100);
  for (k = 0; k < 6; k++)
    run_push (&r, b[k], 100 + k);
  run_eos (&r);
  /* the held frames of the first stream are nowhere */
  before = frame_words (0, out_before, "FS F S");
  after = frame_words (100, 106, "E");
  want = g_strdup_printf ("%s %s", before, after);
  trace_expect (r.trace, want, "a flush with frames held");
  got = run_finish (&r);
  out_frames_compare (got, out_before, fresh, TRUE, "after the flush vs a fresh "
      "element");
  if (e->in_place) {
    OutFrame *first = g_ptr_array_index (got, out_before);
    gboolean has_ref = TRUE;
    fail_unless (gst_structure_get_boolean (first->meta, "has-reference",
            &has_ref) && !has_ref, "the first frame after the flush has a "
        "reference");
  }
  g_free (want);
  g_free (before);
  g_free (after);
  g_ptr_array_unref (got);
  g_ptr_array_unref (fresh);
  photo_clip_free (a, 5);
  photo_clip_free (b, 6);
}

GST_END_TEST;

/* new input caps mid-stream push the held frames, under the old caps,
 * before the new caps; bsplinescale gets another size (and so gives one),
 * canny (overlay: the output has the input's format) another format */
typedef struct
{
  gint elem;
  const gchar *prop, *value, *downstream;
  GstVideoFormat fmt2;
  gint w2, h2;
  const gchar *caps_word;       /* the new output caps in the trace */
} CapsCase;

static const CapsCase caps_cases[] = {
  {BSPLINE, NULL, NULL, "video/x-raw,width=56", GST_VIDEO_FORMAT_RGBA, 40, 20,
      "C:RGBA:56x28"},
  {CANNY, "mode", "overlay", NULL, GST_VIDEO_FORMAT_I420, 48, 32,
      "C:I420:48x32"},
  /* a stream turning 10-bit (HDR) */
  {CANNY, "mode", "overlay", NULL, GST_VIDEO_FORMAT_P010_10LE, 48, 32,
      "C:P010_10LE:48x32"},
  {BSPLINE, NULL, NULL, "video/x-raw,width=56", GST_VIDEO_FORMAT_P010_10LE,
      40, 20, "C:P010_10LE:56x28"},
};

static GPtrArray *
run_caps_change (const CapsCase * cc, gint depth, Img ** a, Img ** b, gint n)
{
  const Elem *e = &elems[cc->elem];
  gchar *first, *second, *want;
  Run r;
  gint k;

  run_init (&r, e, "cpu", depth);
  if (cc->prop)
    gst_util_set_object_arg (G_OBJECT (r.ctx.e), cc->prop, cc->value);
  if (cc->downstream)
    ctx_set_downstream (&r.ctx, cc->downstream);
  run_caps (&r, a[0]);
  g_free (trace_take (r.trace));
  for (k = 0; k < n; k++)
    run_push (&r, a[k], k);
  run_caps (&r, b[0]);
  for (k = 0; k < n; k++)
    run_push (&r, b[k], n + k);
  run_eos (&r);
  first = frame_words (0, n, cc->caps_word);
  second = frame_words (n, 2 * n, "E");
  want = g_strdup_printf ("%s S %s", first, second);
  trace_expect (r.trace, want, "caps change");
  g_free (want);
  g_free (first);
  g_free (second);
  return run_finish (&r);
}

GST_START_TEST (test_caps_change)
{
  const CapsCase *cc = &caps_cases[__i__];
  const Elem *e = &elems[cc->elem];
  Img **a = clip_new (e, e->fmt, e->w, e->h, 0, 4);
  Img **b = clip_new (e, cc->fmt2, cc->w2, cc->h2, 4, 4);
  GPtrArray *ref = run_caps_change (cc, 0, a, b, 4);
  gint depth;

  for (depth = 1; depth <= 2; depth++) {
    GPtrArray *got = run_caps_change (cc, depth, a, b, 4);
    gchar *what = g_strdup_printf ("cpu%s caps change, async-depth=%d vs 0",
        e->suffix, depth);
    out_frames_compare (got, 0, ref, FALSE, what);
    g_ptr_array_unref (got);
    g_free (what);
  }
  g_ptr_array_unref (ref);
  photo_clip_free (a, 4);
  photo_clip_free (b, 4);
}

GST_END_TEST;

/* any serialized event releases the held frames before it goes on:
 * custom, GAP, SEGMENT, TAG */
GST_START_TEST (test_serialized_events)
{
  const Elem *e = &elems[CANNY];
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, 10);
  GPtrArray *got, *ref = run_clip (e, "cpu", 0, clip, 10, 0, FALSE);
  const gchar *words[] = { "X:gcv-marker", "G", "S", "tag" };
  GstSegment seg;
  Run r;
  gint k, i;

  run_init (&r, e, "cpu", 2);
  run_caps (&r, clip[0]);
  g_free (trace_take (r.trace));
  gst_segment_init (&seg, GST_FORMAT_TIME);
  for (i = 0, k = 0; i < (gint) G_N_ELEMENTS (words); i++) {
    /* 3 frames (one out, two held), then 2 (both held) each time */
    gint from = k, to = k + (i == 0 ? 3 : 2);
    GstEvent *ev = NULL;
    gchar *want;
    for (; k < to; k++)
      run_push (&r, clip[k], k);
    switch (i) {
      case 0:
        ev = gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM,
            gst_structure_new_empty ("gcv-marker"));
        break;
      case 1:
        ev = gst_event_new_gap (k * DUR, DUR);
        break;
      case 2:
        ev = gst_event_new_segment (&seg);
        break;
      default:
        ev = gst_event_new_tag (gst_tag_list_new (GST_TAG_TITLE, "held",
                NULL));
        break;
    }
    fail_unless (gst_harness_push_event (r.ctx.h, ev));
    run_collect (&r, r.inflight, words[i]);
    r.inflight = 0;
    want = frame_words (from, k, words[i]);
    trace_expect (r.trace, want, words[i]);
    g_free (want);
  }
  for (; k < 10; k++)
    run_push (&r, clip[k], k);
  run_eos (&r);
  got = run_finish (&r);
  out_frames_compare (got, 0, ref, FALSE, "released by events vs async-depth=0");
  g_ptr_array_unref (got);
  g_ptr_array_unref (ref);
  photo_clip_free (clip, 10);
}

GST_END_TEST;

/* the LATENCY query adds async-depth frames (and conv3d's own) at the
 * input frame rate; nothing at a variable rate; -1 is 0 on the CPU */
GST_START_TEST (test_latency)
{
  const gchar *prefix = prefixes[__i__];
  static const gint depths[] = { DEPTH_DEFAULT, -1, 0, 1, 2, 16 };
  static const gint rates[][2] = { {30, 1}, {25, 2}, {0, 1} };
  guint d, f, i;

  /* every element in one test (on a GPU each test pays CUDA's start) */
  for (i = 0; i < N_ELEMS; i++) {
    const Elem *e = &elems[i];
    for (d = 0; d < G_N_ELEMENTS (depths); d++) {
      for (f = 0; f < G_N_ELEMENTS (rates); f++) {
        Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, 1);
        Img *im = clip[0];
        GstClockTime got, want;
        gint frames;
        Run r;

        run_init (&r, e, prefix, depths[d]);
        GST_VIDEO_INFO_FPS_N (&im->info) = rates[f][0];
        GST_VIDEO_INFO_FPS_D (&im->info) = rates[f][1];
        ctx_set_caps (&r.ctx, &im->info);
        frames = r.depth + e->own;
        want = UPSTREAM_LATENCY + (rates[f][0] > 0 ?
            gst_util_uint64_scale_int (frames * GST_SECOND, rates[f][1],
                rates[f][0]) : 0);
        got = gst_harness_query_latency (r.ctx.h);
        fail_unless (got == want, "%s async-depth=%d at %d/%d: latency %"
            GST_TIME_FORMAT ", expected %" GST_TIME_FORMAT " (%d frames)",
            r.name, depths[d] == DEPTH_DEFAULT ? -1 : depths[d], rates[f][0],
            rates[f][1], GST_TIME_ARGS (got), GST_TIME_ARGS (want), frames);
        photo_clip_free (clip, 1);
        g_ptr_array_unref (run_finish (&r));
      }
    }
  }
}

GST_END_TEST;

/* async-depth changed while playing: a LATENCY message, the new latency */
static void
run_set_depth (Run * r, gint depth)
{
  GstMessage *msg;

  g_object_set (r->ctx.e, "async-depth", depth, NULL);
  msg = bus_pop_type (r->ctx.bus, 0, GST_MESSAGE_LATENCY);
  fail_unless (msg != NULL, "%s: no LATENCY message for async-depth %d -> %d",
      r->name, r->depth, depth);
  gst_message_unref (msg);
  r->depth = depth;
  run_latency (r);
}

/* async-depth 2 -> 0 while playing releases the held frames at the
 * next buffer and lowers the latency; back to 2 holds again */
static GPtrArray *
run_depth_changes (const Elem * e, const gchar * prefix, Img ** clip,
    gboolean change)
{
  Run r;
  gint k;

  run_init (&r, e, prefix, change ? 2 : 0);
  run_caps (&r, clip[0]);
  g_free (trace_take (r.trace));
  run_latency (&r);
  for (k = 0; k < 4; k++)
    run_push (&r, clip[k], k);
  if (change) {
    GstMessage *msg;
    /* setting async-depth=2 posted one already */
    while ((msg = bus_pop_type (r.ctx.bus, 0, GST_MESSAGE_LATENCY)))
      gst_message_unref (msg);
    run_set_depth (&r, 0);
    /* nothing came out yet: at the next buffer */
    fail_unless_equals_int (gst_harness_buffers_in_queue (r.ctx.h), 0);
  }
  for (; k < 6; k++)
    run_push (&r, clip[k], k);
  if (change) {
    gchar *want = frame_words (0, r.next, NULL);
    trace_expect (r.trace, want, "async-depth 2 -> 0");
    g_free (want);
    run_set_depth (&r, 2);
  }
  for (; k < 9; k++)
    run_push (&r, clip[k], k);
  run_eos (&r);
  return run_finish (&r);
}

GST_START_TEST (test_depth_change_playing)
{
  const Elem *e = &elems[__i__ / 2 ? CONV3D : CANNY];
  const gchar *prefix = prefixes[__i__ % 2];
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, 9);
  GPtrArray *ref = run_depth_changes (e, prefix, clip, FALSE);
  GPtrArray *got = run_depth_changes (e, prefix, clip, TRUE);

  out_frames_compare (got, 0, ref, FALSE, "async-depth changed while playing");
  g_ptr_array_unref (got);
  g_ptr_array_unref (ref);
  photo_clip_free (clip, 9);
}

GST_END_TEST;

/* passthrough (bsplinescale, equal caps) holds nothing: each push gives its
 * very buffer back at once, and no latency is added */
GST_START_TEST (test_passthrough)
{
  const Elem *e = &elems[BSPLINE];
  gchar *name = g_strconcat (prefixes[__i__], e->suffix, NULL);
  Ctx ctx = ctx_new (name, "async-depth", 2, NULL);
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, 1);
  Img *im = clip[0];
  gint k;

  /* any size, system memory */
  ctx_set_downstream (&ctx, "video/x-raw");
  gst_harness_set_upstream_latency (ctx.h, UPSTREAM_LATENCY);
  ctx_set_caps (&ctx, &im->info);
  for (k = 0; k < 4; k++) {
    GstBuffer *buf = frame_buffer (im, k), *out;
    gst_buffer_ref (buf);
    ctx_push_expect (&ctx, buf, GST_FLOW_OK, "passthrough");
    fail_unless_equals_int (gst_harness_buffers_in_queue (ctx.h), 1);
    out = gst_harness_pull (ctx.h);
    fail_unless (out == buf, "%s: passthrough gave another buffer", name);
    fail_unless (gst_base_transform_is_passthrough (GST_BASE_TRANSFORM
            (ctx.e)));
    gst_buffer_unref (out);
    gst_buffer_unref (buf);
  }
  fail_unless_equals_uint64 (gst_harness_query_latency (ctx.h),
      UPSTREAM_LATENCY);
  photo_clip_free (clip, 1);
  ctx_free (&ctx);
  g_free (name);
}

GST_END_TEST;

/* the cuda* elements with the default: nothing held on the CPU
 * fallback (one warning), 2 frames on a GPU; the frames of the cpu* twin */
GST_START_TEST (test_cuda_default)
{
  const Elem *e = &elems[__i__];
  Img **clip = clip_new (e, e->fmt, e->w, e->h, 0, N_FRAMES);
  GPtrArray *ref = run_clip (e, "cpu", 0, clip, N_FRAMES, 0, FALSE);
  GPtrArray *got = run_clip (e, "cuda", DEPTH_DEFAULT, clip, N_FRAMES, 0,
      TRUE);
  gchar *what = g_strdup_printf ("cuda%s (default async-depth) vs cpu%s",
      e->suffix, e->suffix);

  out_frames_compare (got, 0, ref, FALSE, what);
  g_free (what);
  g_ptr_array_unref (got);
  g_ptr_array_unref (ref);
  photo_clip_free (clip, N_FRAMES);
}

GST_END_TEST;

static Suite *
async_suite (void)
{
  Suite *s;
  /* every output buffer must be a frame of its caps */
  TCase *tc = element_suite_tcase ("async", TRUE, &s);

  tcase_set_timeout (tc, 120);
  tcase_add_loop_test (tc, test_property, 0, 2 * N_ELEMS);
  tcase_add_loop_test (tc, test_hold_release, 0, 2 * N_ELEMS);
  tcase_add_loop_test (tc, test_drain_query, 0, G_N_ELEMENTS (release_elems));
  tcase_add_loop_test (tc, test_flush, 0, 2 * G_N_ELEMENTS (release_elems));
  tcase_add_loop_test (tc, test_caps_change, 0, G_N_ELEMENTS (caps_cases));
  tcase_add_test (tc, test_serialized_events);
  tcase_add_loop_test (tc, test_latency, 0, 2);
  tcase_add_loop_test (tc, test_depth_change_playing, 0, 4);
  tcase_add_loop_test (tc, test_passthrough, 0, 2);
  tcase_add_loop_test (tc, test_cuda_default, 0, N_ELEMS);
  return s;
}

GST_CHECK_MAIN (async);
