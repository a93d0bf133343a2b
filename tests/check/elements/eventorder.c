/* gst-cuda-video: serialized events in order with the frames an element
 * holds back (gst-check), through cpuconv3d and cudaconv3d (on the GPU or
 * its CPU fallback: the order is the base class's either way).
 *
 * conv3d holds (temporal-size - 1) / 2 frames: output t is centred on
 * input t and needs the inputs after it.  Events must not overtake those
 * frames: a GAP, a TAG or a custom event waits behind them and leaves in
 * order with the frames; a SEGMENT (concat, a new stream), STREAM_START
 * or EOS makes the element push every held frame first (the previous
 * stream's last frames under the previous segment).  Each case pushes a
 * sequence of frames and events and checks that downstream sees exactly
 * the same sequence: every frame (its PTS) and every event, in the order
 * they went in, so timestamps never go backwards (frames and GAPs ascend
 * in every sequence).  Cases run with frames in flight too (async-depth),
 * and with events that come while the history still fills.  A FLUSH drops
 * the held frames and GAPs; a held TAG (sticky) follows the FLUSH_STOP.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "gcv-check.h"

#define DUR (GST_SECOND / 30)
#define W 32
#define H 24

static const gchar *const names[] = { "cpuconv3d", "cudaconv3d" };

/* One item of a sequence: "B<k>" a frame with PTS k frames, "G<k>" a GAP
 * at k frames, "X" a custom downstream event, "T" a tag, "SS" a stream
 * start, "S<k>" a segment whose running time starts at k frames (concat's
 * next stream), "E" EOS.  Returns the word the kit's Trace writes for it
 * downstream. */
static const gchar *
push_item (Ctx * ctx, const Img * im, const gchar * item, const gchar * what)
{
  gint64 k = g_ascii_strtoll (item + (item[0] == 'S' && item[1] == 'S' ? 2 : 1), NULL, 10);
  GstEvent *ev = NULL;
  const gchar *word = NULL;

  switch (item[0]) {
    case 'B':{
      GstBuffer *buf = img_to_buffer (im, LAYOUT_DEFAULT);
      GST_BUFFER_PTS (buf) = k * DUR;
      GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
      GST_BUFFER_DURATION (buf) = DUR;
      ctx_push_expect (ctx, buf, GST_FLOW_OK, what);
      return item;
    }
    case 'G':
      ev = gst_event_new_gap (k * DUR, DUR);
      word = "G";
      break;
    case 'X':
      ev = gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty ("gcv-marker"));
      word = "X:gcv-marker";
      break;
    case 'T':
      ev = gst_event_new_tag (gst_tag_list_new (GST_TAG_TITLE, "gcv-held", NULL));
      word = "tag";
      break;
    case 'E':
      ev = gst_event_new_eos ();
      word = "E";
      break;
    case 'S':
      if (item[1] == 'S') {
        ev = gst_event_new_stream_start (item);
        word = "SS";
      } else {
        GstSegment seg;
        gst_segment_init (&seg, GST_FORMAT_TIME);
        seg.base = k * DUR;
        ev = gst_event_new_segment (&seg);
        word = "S";
      }
      break;
    default:
      fail ("%s: bad item %s", what, item);
  }
  fail_unless (gst_harness_push_event (ctx->h, ev), "%s: %s refused", what, item);
  return word;
}

/* Pushes @sequence (items separated by spaces) through @name with
 * temporal-size @kt and async-depth @depth; downstream must see exactly
 * the same sequence. */
static void
check_sequence (const gchar * name, gint kt, gint depth, const gchar * sequence, const gchar * label)
{
  Ctx ctx = ctx_new (name, "size", 3, "temporal-size", kt, "async-depth", depth, NULL);
  Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, W, H, 1, 20, 10, 5);
  gchar **items = g_strsplit (sequence, " ", -1);
  gchar *what = g_strdup_printf ("%s temporal-size=%d async-depth=%d, %s", name, kt, depth, label);
  GString *want = g_string_new ("");
  GstBuffer *out;
  Trace *trace;
  guint i;

  ctx_set_caps (&ctx, &im->info);
  trace = trace_new (ctx.h->sinkpad, DUR);
  for (i = 0; items[i] != NULL; i++) {
    const gchar *word = push_item (&ctx, im, items[i], what);
    g_string_append_printf (want, "%s%s", want->len ? " " : "", word);
    while ((out = gst_harness_try_pull (ctx.h)) != NULL)
      gst_buffer_unref (out);
  }
  trace_expect (trace, want->str, what);

  trace_free (trace);
  g_string_free (want, TRUE);
  g_free (what);
  g_strfreev (items);
  img_free (im);
  ctx_free (&ctx);
}

/* "B<from> ... B<to - 1>" */
static gchar *
frames (gint from, gint to)
{
  GString *s = g_string_new ("");
  gint k;

  for (k = from; k < to; k++)
    g_string_append_printf (s, "%sB%d", s->len ? " " : "", k);
  return g_string_free (s, FALSE);
}

/* Every temporal size, frames in flight or not, both elements. */
static void
check_all (const gchar * sequence, const gchar * label)
{
  static const gint sizes[] = { 3, 7 }, depths[] = { 0, 2 };
  guint n, s, d;

  for (n = 0; n < G_N_ELEMENTS (names); n++)
    for (s = 0; s < G_N_ELEMENTS (sizes); s++)
      for (d = 0; d < G_N_ELEMENTS (depths); d++)
        check_sequence (names[n], sizes[s], depths[d], sequence, label);
}

/* GAPs between frames (every third frame missing), a custom event and a
 * tag among them, and GAPs while the history fills. */
GST_START_TEST (test_gap_order)
{
  GString *seq = g_string_new ("G0 B1 G2 X B3 B4 G5");
  gint k;

  for (k = 6; k < 30; k++) {
    if (k % 3 == 2)
      g_string_append_printf (seq, " G%d", k);
    else
      g_string_append_printf (seq, " B%d", k);
    if (k == 13)
      g_string_append (seq, " T");
    if (k == 20)
      g_string_append (seq, " X");
  }
  g_string_append (seq, " E");
  check_all (seq->str, "GAPs between frames");
  g_string_free (seq, TRUE);
}

GST_END_TEST;

/* concat: a second stream after a new SEGMENT, its timestamps from 0
 * again (running time from frame 10 on); the first stream's last frames
 * must come out before that SEGMENT, under their own. */
GST_START_TEST (test_segment_order)
{
  gchar *a = frames (0, 10), *b = frames (3, 10);
  gchar *concat = g_strdup_printf ("%s S10 B0 B1 B2 %s E", a, b);
  gchar *stream = g_strdup_printf ("%s SS S10 B0 B1 G2 %s E", a, b);
  const gchar *short_streams = "B0 S1 B0 B1 S3 B0 S4 G0 B1 E";

  check_all (concat, "concat: SEGMENT between two streams");
  check_all (stream, "a new stream (STREAM_START, SEGMENT) after a GAP");
  /* streams shorter than the history */
  check_all (short_streams, "streams of one and two frames");
  g_free (stream);
  g_free (concat);
  g_free (b);
  g_free (a);
}

GST_END_TEST;

/* A FLUSH with frames, a GAP and a tag held: the frames and the GAP are
 * gone, the tag (sticky: GStreamer keeps it over a flush) follows the
 * FLUSH_STOP, and the next stream starts clean. */
GST_START_TEST (test_flush_with_events_held)
{
  static const gchar *const before[] = { "B0", "B1", "B2", "B3", "G4", "T" };
  static const gchar *const after[] = { "B0", "B1", "B2", "E" };
  guint n, i;

  for (n = 0; n < G_N_ELEMENTS (names); n++) {
    Ctx ctx = ctx_new (names[n], "size", 3, "temporal-size", 5, NULL);
    Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, W, H, 1, 20, 10, 5);
    Trace *trace;
    GstSegment seg;

    ctx_set_caps (&ctx, &im->info);
    trace = trace_new (ctx.h->sinkpad, DUR);
    for (i = 0; i < G_N_ELEMENTS (before); i++)
      push_item (&ctx, im, before[i], names[n]);
    /* 4 frames in, 2 held: B0 and B1 out; G4 and the tag wait */
    trace_expect (trace, "B0 B1", names[n]);
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_flush_stop (TRUE)));
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (ctx.h, gst_event_new_segment (&seg)));
    trace_expect (trace, "FS F tag S", names[n]);
    for (i = 0; i < G_N_ELEMENTS (after); i++)
      push_item (&ctx, im, after[i], names[n]);
    trace_expect (trace, "B0 B1 B2 E", names[n]);

    trace_free (trace);
    img_free (im);
    ctx_free (&ctx);
  }
}

GST_END_TEST;

/* The segment in force sent again (a source that sends its caps and
 * segment anew) ends nothing: it waits behind the held frames like a GAP,
 * and the history goes on (no frame comes out early). */
GST_START_TEST (test_same_segment_again)
{
  static const gchar *const items[] = { "B0", "B1", "B2", "B3", "S0", "B4", "B5", "E" };
  static const gchar *const want[] = { "", "", "B0", "B0 B1", "B0 B1", "B0 B1 B2",
    "B0 B1 B2 B3 S", "B0 B1 B2 B3 S B4 B5 E"
  };
  GString *seen = g_string_new ("");
  guint n, i;

  for (n = 0; n < G_N_ELEMENTS (names); n++) {
    Ctx ctx = ctx_new (names[n], "size", 3, "temporal-size", 5, NULL);
    Img *im = img_from_test_photo (GST_VIDEO_FORMAT_GRAY8, W, H, 1, 20, 10, 5);
    Trace *trace;

    ctx_set_caps (&ctx, &im->info);
    trace = trace_new (ctx.h->sinkpad, DUR);
    for (i = 0; i < G_N_ELEMENTS (items); i++) {
      gchar *what = g_strdup_printf ("%s after %s", names[n], items[i]);
      gchar *got;
      push_item (&ctx, im, items[i], what);
      got = trace_take (trace);
      g_string_append_printf (seen, "%s%s", seen->len && *got ? " " : "", got);
      fail_unless (g_str_equal (seen->str, want[i]), "%s: downstream got \"%s\", expected \"%s\"", what,
          seen->str, want[i]);
      g_free (what);
      g_free (got);
    }
    trace_free (trace);
    g_string_truncate (seen, 0);
    img_free (im);
    ctx_free (&ctx);
  }
  g_string_free (seen, TRUE);
}

GST_END_TEST;

static Suite *
eventorder_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("eventorder", FALSE, &s);

  tcase_add_test (tc, test_gap_order);
  tcase_add_test (tc, test_segment_order);
  tcase_add_test (tc, test_flush_with_events_held);
  tcase_add_test (tc, test_same_segment_again);
  return s;
}

GST_CHECK_MAIN (eventorder);
