/* gst-cuda-video: helpers shared by the gst-check element tests
 * (tests/check/elements/): the log handler that fails a test on any
 * unexpected warning, the GPU policy, a deterministic PRNG, frames in
 * GStreamer's default layout (Img), buffers in several layouts with garbage
 * between the pixels, and a GstHarness around a fresh element with a bus of
 * its own (Ctx).
 *
 * The names are the short ones the test files have always used; this kit is
 * linked into the element test programs only.  Failures go through gst-check
 * (fail, fail_unless), so these helpers may only be called from a test.
 *
 * GCV_TEST_QUICK=1 (gcv_check_quick, valgrind setup): heavy tests do less.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CHECK_H
#define GCV_CHECK_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

/* PNG loading and the test data directory */
#include "gcv-test.h"

G_BEGIN_DECLS

/* GST_CUDA_VIDEO_REQUIRE_GPU=1: the cuda elements must run on the GPU. */
gboolean require_gpu (void);

/* GCV_TEST_QUICK=1 (a positive number): the heavy tests run fewer and
 * smaller cases, still every format, mode and code path at least once and
 * with the same checks (for memcheck: meson test --setup valgrind). */
gboolean gcv_check_quick (void);

/* ------------------------------------------------------------------------ */
/* warnings: property rejections are expected to g_warning; anything else   */
/* that warns fails the test                                                */

/* While expecting_warning is TRUE a warning (not a critical) is counted in
 * n_warnings and its text kept in last_warning instead of failing. */
extern gboolean expecting_warning;
extern guint n_warnings;
extern gchar *last_warning;

/* The checked fixture of every test case: installs the handler on the
 * default and the known domains and as the default handler. */
void setup_log_handlers (void);

/* ------------------------------------------------------------------------ */
/* deterministic pseudo random numbers (xorshift32, one global state)       */

void rng_seed (guint32 seed);
guint32 rng_next (void);
/* uniform in [lo, hi] */
gint rng_range (gint lo, gint hi);

/* ------------------------------------------------------------------------ */
/* images in GStreamer's default layout for a format                        */

typedef struct
{
  GstVideoInfo info;
  guint8 *data;
} Img;

/* A zeroed w x h frame of fmt at 30/1 fps. */
Img *img_new (GstVideoFormat fmt, gint w, gint h);
void img_free (Img * im);
gint img_w (const Img * im);
gint img_h (const Img * im);
GstVideoFormat img_format (const Img * im);
gint img_n_comps (const Img * im);
/* the byte offset of component c in its pixel (P010's V: 2, where
 * GStreamer 1.22's poffset says 1) */
gint comp_byte_offset (const GstVideoInfo * info, gint c);
guint8 *img_comp_ptr (const Img * im, gint c, gint x, gint y);
/* component c at (x, y) in component coordinates (16-bit ones little
 * endian) */
guint img_get (const Img * im, gint c, gint x, gint y);
void img_set (Img * im, gint c, gint x, gint y, guint v);

/* A computed 16-bit word as P010 keeps it, the contract's rounding written
 * for the tests: the nearest 10-bit code (ties up), at most 1023, in the
 * high bits. */
guint p010_round (guint v);

/* Component c of @im as a GRAY16_LE frame of the component's size (its
 * 16-bit words as they are). */
Img *img_comp_gray16 (const Img * im, gint c);
/* P010 as general input has it: pseudo-random low 6 bits (@seed) that are
 * not zero in about a third of the words of every component. */
void img_p010_low_bits (Img * im, guint32 seed);

gboolean format_is_rgb (GstVideoFormat fmt);
gboolean format_is_gray (GstVideoFormat fmt);

/* bytes of a plane's row that hold pixels */
gsize plane_row_bytes (const GstVideoInfo * info, gint p);
/* rows of plane p */
gint plane_rows (const GstVideoInfo * info, gint p);
/* the first component stored in plane p */
gint plane_first_comp (const GstVideoInfo * info, gint p);

/* ------------------------------------------------------------------------ */
/* buffers                                                                  */

typedef enum
{
  LAYOUT_DEFAULT,               /* GStreamer's default strides, no meta */
  LAYOUT_ALIGNED,               /* gst_video_info_align padding + GstVideoMeta */
  LAYOUT_ODD_STRIDE,            /* packed planes with odd extra stride + GstVideoMeta */
} Layout;

#define N_LAYOUTS 3
extern const gchar *const layout_names[N_LAYOUTS];

/* Buffer holding im in the given layout; every byte that is not a pixel is
 * garbage.  Timestamps count frames at 30/1 fps over the whole program. */
GstBuffer *img_to_buffer (const Img * im, Layout layout);

/* An output buffer must hold a frame of its caps: without GstVideoMeta
 * exactly the default layout's size, with one a layout of the caps' format
 * and size whose planes fit in the buffer. */
void check_buffer_layout (GstBuffer * buf, const GstVideoInfo * info,
    const gchar * what);

/* When TRUE, img_from_buffer (and so ctx_process) runs check_buffer_layout
 * on every buffer it reads.  FALSE at start. */
extern gboolean check_output_layouts;

/* The pixels of buf (caps describe it; a GstVideoMeta on it wins) */
Img *img_from_buffer (GstBuffer * buf, GstCaps * caps);

/* pixel-exact equality of two frames of the same format and size, every
 * component (alpha included) */
void assert_img_equal (const Img * a, const Img * b, const gchar * what);

/* a copy of im (same layout) */
Img *img_dup (const Img * im);

/* ------------------------------------------------------------------------ */
/* element and harness helpers                                              */

typedef struct
{
  GstHarness *h;
  GstElement *e;
  GstBus *bus;
  const gchar *name;
} Ctx;

/* A harness around a fresh element with a bus of its own (so that its
 * messages can be checked); props (NULL terminated) are set before it
 * starts. */
Ctx ctx_new (const gchar * name, const gchar * first_prop, ...);

/* The same harness around an element the test made and configured itself,
 * with its bus (the Ctx takes both references: ctx_free drops them) */
Ctx ctx_adopt (const gchar * name, GstElement * e, GstBus * bus);

/* The next message of @types on @bus, waiting up to @timeout (0: not at
 * all, GST_CLOCK_TIME_NONE: for ever); the messages before it of other
 * types are dropped.  Use it, not gst_bus_(timed_)pop_filtered: those drop
 * the others under the bus's lock, and a dropped message that holds the
 * last reference of a pad (a harness's, torn down) disposes the pad, whose
 * unlink posts to the same bus and waits for that lock for ever (seen with
 * GStreamer 1.28.6). */
GstMessage *bus_pop_type (GstBus * bus, GstClockTime timeout, GstMessageType types);

/* Pops every message of type off bus; returns how many are errors or
 * warnings of domain (0: any).  The first counted one's text goes to
 * *text (when text is not NULL and *text is NULL; g_free it). */
guint bus_count (GstBus * bus, GstMessageType type, GQuark domain,
    gchar ** text);

/* Fails when the element posted an error; tears the harness down. */
void ctx_free (Ctx * ctx);
/* ctx_free without its check for ERROR messages: for tests that looked
 * at the bus themselves. */
void ctx_release (Ctx * ctx);

/* The "backend" property (g_free it). */
gchar *get_backend (GstElement * e);

/* The backend a started element reports: "cpu" for the cpu* elements; for
 * the cuda ones "cuda" or "cpu", only "cuda" with
 * GST_CUDA_VIDEO_REQUIRE_GPU=1. */
void check_backend (GstElement * e, const gchar * name);

/* every caps string of list[0 .. n-1] is refused by pad (ACCEPT_CAPS) */
void check_caps_refused (GstPad * pad, const gchar * const *list, guint n);

void ctx_set_caps (Ctx * ctx, const GstVideoInfo * info);
/* What a harness source pushes before data (stream start, @caps, taken,
 * and a segment), without the harness' assertion that the caps were
 * taken: for caps the element must refuse. */
void ctx_push_caps_unchecked (Ctx * ctx, GstCaps * caps);
/* the caps downstream of the element (must be set; unref them) */
GstCaps *ctx_out_caps (Ctx * ctx);
/* What the harness' sink accepts from now on (caps_str NULL: any raw video
 * in system memory, as ctx_new sets),
 * followed by a RECONFIGURE upstream, so that a running element
 * renegotiates on its next buffer. */
void ctx_set_downstream (Ctx * ctx, const gchar * caps_str);
/* The caps downstream of the element are fmt, w x h (and, when par_n > 0,
 * that pixel aspect ratio). */
void ctx_check_out_caps (Ctx * ctx, GstVideoFormat fmt, gint w, gint h,
    gint par_n, gint par_d, const gchar * what);
/* Pushes buf (taking it) and fails unless the flow return is want. */
void ctx_push_expect (Ctx * ctx, GstBuffer * buf, GstFlowReturn want,
    const gchar * what);

/* push one frame, pull the result (checking timestamps and backend), return
 * it as an image */
Img *ctx_process (Ctx * ctx, const Img * in, Layout layout);

/* After frames through a cuda element that may have fallen back: with
 * GST_CUDA_VIDEO_REQUIRE_GPU=1 its backend must be "cuda"; on the GPU it
 * posted no warning, on the CPU fallback exactly one.  Returns whether it
 * runs on the GPU. */
gboolean ctx_check_fallback (Ctx * ctx);

/* ------------------------------------------------------------------------ */
/* test data                                                                */

/* A PNG under the tests/ directory (rel: "data/camera.png"); fails the test
 * when it cannot be loaded. */
GcvTestImage load_png_or_fail (const gchar * rel);

/* Photo i (any integer, taken modulo their number) of gcv_test_photos,
 * loaded on first use and kept. */
const GcvTestImage *test_photo (gint i);

/* A w x h frame of fmt cut out of photo @which at (x0, y0) (tiling it when
 * the frame is larger): RGB components straight from the photo, alpha a
 * mix of the colour, the position and @t (a frame index; 0 for a single
 * frame), Y'CbCr BT.601 of the pixel each (subsampled) sample sits on
 * (10-bit P010 samples from the same matrix with two more bits, shifted to
 * the high bits as decoders give them), GRAY16 the luma * 257 with
 * pseudo-random low bits.  Every other byte
 * (row padding, the x of RGBx) is pseudo-random. */
Img *img_from_test_photo_t (GstVideoFormat fmt, gint w, gint h, gint which,
    gint x0, gint y0, gint t, guint32 seed);
/* img_from_test_photo_t at t = 0 */
Img *img_from_test_photo (GstVideoFormat fmt, gint w, gint h, gint which,
    gint x0, gint y0, guint32 seed);

/* ------------------------------------------------------------------------ */
/* property rejection                                                       */

/* Sets a property to a bad value: fails unless the value is unchanged and a
 * warning names the property (and contains @also, when not NULL): the
 * element's WARNING on its bus (the settings policy), or GObject's
 * g_warning for a value outside the GParamSpec.  The text is left in
 * last_warning. */
void expect_rejected (GstElement * e, const gchar * prop, const GValue * bad,
    const gchar * also);

/* Every property of @e: a nick, a blurb of 10 characters or more, and
 * (readable and writable ones, GstObject's aside) its default in a fresh
 * element.  Returns the number of properties. */
guint check_properties_documented (GstElement * e, const gchar * name);
/* cuda-device-id (int -1 .. 63, default -1, READY) and fallback (boolean,
 * default TRUE, READY) on @e when @name is a cuda* element, neither on a
 * cpu* element (they would do nothing there). */
void check_device_properties (GstElement * e, const gchar * name);
/* Without a GPU: @factory (a cuda* element) with fallback=false fails to
 * start, with a RESOURCE error on its bus (not a crash). */
void check_no_fallback_fails (const gchar * factory);
/* The nick of enum property @prop's current value. */
const gchar *enum_nick (GstElement * e, const gchar * prop);
/* expect_rejected for an int / double value */
void reject_int (GstElement * e, const gchar * prop, gint v,
    const gchar * also);
void reject_double (GstElement * e, const gchar * prop, gdouble v);

/* ------------------------------------------------------------------------ */
/* what reaches a pad, in order                                             */

/* A probe on a pad that writes down every buffer and downstream event
 * (flushes included) that reaches it, in arrival order, as words separated
 * by spaces: a buffer "B<k>" where k = PTS / frame_duration ("B@<pts>" when
 * the PTS is no whole multiple of it, "B-" without a PTS); the events
 * "C:<format>:<w>x<h>" (caps, "C:<caps>" when they are no video), "S"
 * (segment), "E" (EOS), "FS" (flush start), "F" (flush stop), "G" (gap),
 * "SS" (stream start), "X:<structure name>" (custom events) and the event
 * type's name for the others.  Safe from any thread. */
typedef struct _Trace Trace;

Trace *trace_new (GstPad * pad, GstClockTime frame_duration);
/* What was written down since the last take (g_free it); the record is
 * emptied. */
gchar *trace_take (Trace * t);
/* fails unless the record since the last take is exactly @want; empties
 * it */
void trace_expect (Trace * t, const gchar * want, const gchar * what);
/* removes the probe and frees the record */
void trace_free (Trace * t);

/* ------------------------------------------------------------------------ */
/* frames that came out, for comparing runs                                 */

/* An output frame: its pixels (read through a plain gst_video_frame_map,
 * so memory:CUDAMemory too), stamps, whether its caps have
 * memory:CUDAMemory, and its (first) GstCudaVideoMotionMeta as a
 * structure of its fields but the element's name (motionest, vcm; NULL
 * without one). */
typedef struct
{
  Img *im;
  GstClockTime pts, dur;
  guint64 offset;
  gboolean device;
  GstStructure *meta;
} OutFrame;

OutFrame *out_frame_new (GstBuffer * buf, GstCaps * caps);
/* (a GDestroyNotify, for pointer arrays) */
void out_frame_free (gpointer f);
/* What motion_meta_compare leaves out: the "frame" counter, and the
 * stream's stamps ("pts", "reference-pts": a second clip whose stamps
 * count on from a first one). */
typedef enum
{
  MOTION_META_IGNORE_COUNTER = 1 << 0,
  MOTION_META_IGNORE_STAMPS = 1 << 1,
} MotionMetaIgnore;

/* The same motion meta (both NULL, or equal field for field, the records
 * byte for byte), but for the fields @ignore names. */
void motion_meta_compare (const GstStructure * a, const GstStructure * b,
    MotionMetaIgnore ignore, const gchar * what);
/* got[from ..] (OutFrame) against all of ref: as many, with the same
 * stamps, pixels and motion meta. */
void out_frames_compare (GPtrArray * got, guint from, GPtrArray * ref,
    gboolean ignore_counter, const gchar * what);

/* ------------------------------------------------------------------------ */
/* 2D-plus-depth frames for the DIBR elements                               */

/* A side-by-side 2D-plus-depth frame, (2 w) x h, of fmt (RGBA, BGRA, RGBx,
 * BGRx or I420): in the left half the w x h window of photo @which at
 * (x0, y0) (img_from_test_photo_t with @t and @seed), in the right half a
 * depth map (R = G = B, or the luma of I420; chroma grey): a ramp from far
 * on the left to nearer on the right with a near disc whose centre moves
 * with @t, so that warping opens disocclusions that differ from frame to
 * frame. */
Img *img_2d_plus_depth (GstVideoFormat fmt, gint w, gint h, gint which,
    gint x0, gint y0, gint t, guint32 seed);

/* A clip of n frames of fmt, w x h, panning across photo @which: frame k
 * is the window at (x0 + 3 k, y0 + 2 k) (img_from_test_photo_t with t = k
 * and seed + k), so that the content moves 3 pixels left and 2 up a
 * frame; with @depth, img_2d_plus_depth frames (w the whole width). */
Img **photo_clip_new (GstVideoFormat fmt, gint w, gint h, gint n, gint which,
    gint x0, gint y0, gboolean depth, guint32 seed);
void photo_clip_free (Img ** clip, gint n);

/* ------------------------------------------------------------------------ */
/* the suite                                                                */

/* A suite `name` with one test case "general" (300 s timeout,
 * setup_log_handlers as its checked fixture), returned in *suite;
 * check_layouts sets check_output_layouts (every output buffer must be a
 * frame of its caps).  Returns the test case. */
TCase *element_suite_tcase (const gchar * name, gboolean check_layouts,
    Suite ** suite);

/* ------------------------------------------------------------------------ */
/* memory:CUDAMemory                                                        */

/* The system-memory structures of @e's @pad template; checks that CUDA
 * memory structures, when there are any, come first, are the same caps
 * and belong to a cuda* element (unref the result). */
GstCaps *template_system_caps (GstElement * e, const gchar * pad);
/* @caps with every structure in system memory, duplicates merged: what an
 * element offers whatever memory it can also put its frames in */
GstCaps *caps_in_system_memory (GstCaps * caps);

/* Whether @e (started) takes memory:CUDAMemory: a cuda* element of a build
 * with GStreamer's CUDA memory, running on the GPU. */
gboolean element_takes_device_memory (GstElement * e);
/* @caps_str (memory:CUDAMemory caps) is accepted by @sinkpad exactly when
 * element_takes_device_memory (@e). */
void check_device_caps (GstElement * e, GstPad * sinkpad, const gchar * caps_str);

G_END_DECLS
#endif /* GCV_CHECK_H */
