/* gst-cuda-video: what the benchmark programs (bench-canny,
 * bench-bsplinescale) share: options, statistics, the host and GPU they run
 * on, input frames made from the test photos, the appsrc ! element ! sink
 * timing harness, the CUDA kernel timing loop, results and JSON output.
 *
 * Built as the static library gcv-bench (tests/bench/meson.build), with
 * bench_cuda_mem.cu when CUDA is built.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BENCH_H
#define GCV_BENCH_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gcv-image.h"

/* GCVB_CUDA: built with the CUDA kernels (and gcv-cuda.h) */
#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#define GCVB_CUDA 1
#include "gcv-cuda.h"
#else
#define GCVB_CUDA 0
#endif

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* options */

/* The options both programs have; each program's GOptionEntry table points
 * into one of these (with its own defaults and help texts). */
typedef struct {
  gint frames;                  /* timed frames of the CUDA element */
  gint warmup;                  /* warm-up frames / runs */
  gint cpu_frames;              /* timed frames of the CPU elements, 0: by size */
  gint runs;                    /* timed CUDA kernel runs */
  gint cpu_runs;                /* timed CPU backend runs, 0: by size */
  gint variants;                /* different input frames, rotated through */
  gint queue;                   /* frames in flight in the element pipelines */
  gint device;                  /* CUDA device */
  gboolean quick;
  gchar *json, *data_dir, *plugin, *skip;
} GcvbOptions;

/* The option entries both programs have word for word: --quick, --json
 * (default_json: a string literal), --data-dir and --plugin. */
#define GCVB_OPTION_ENTRIES(opt, default_json) \
  {"quick", 'q', 0, G_OPTION_ARG_NONE, &(opt).quick, \
      "Few frames and runs: checks that everything works, numbers are rough", NULL}, \
  {"json", 'j', 0, G_OPTION_ARG_FILENAME, &(opt).json, \
      "Write the results as JSON to FILE (default " default_json ")", "FILE"}, \
  {"data-dir", 0, 0, G_OPTION_ARG_FILENAME, &(opt).data_dir, \
      "Directory with camera.png, chelsea.png, coffee.png, astronaut.png", "DIR"}, \
  {"plugin", 0, 0, G_OPTION_ARG_FILENAME, &(opt).plugin, \
      "libgstcudavideo.so to load (default: the one of this build; \"\" = registry only)", "FILE"}

/* Parses the command line (the program's entries and GStreamer's), then
 * gst_init.  With --quick, every count still at its default (the value *opt
 * had before parsing) takes the one of *quick.  Checks the counts' ranges.
 * FALSE, with a message printed, on a usage error (exit status 2). */
gboolean gcvb_init (int *argc, char ***argv, const char *summary, const GOptionEntry * entries,
    GcvbOptions * opt, const GcvbOptions * quick);

/* Whether --skip names `part` (case-insensitive). */
gboolean gcvb_skipped (const GcvbOptions * opt, const char *part);
/* The GPU rows are on: neither "gpu" nor "cuda" in --skip. */
gboolean gcvb_gpu_enabled (const GcvbOptions * opt);
/* Threads of the 'all threads' CPU rows: `requested` (--cpu-threads) when
 * > 0, else one per core. */
int gcvb_cpu_threads (int requested);
/* Seconds of timed CPU runs a row: `requested` (--cpu-budget) when >= 0,
 * else quick_s with --quick, full_s without. */
double gcvb_cpu_budget_s (const GcvbOptions * opt, double requested, double quick_s, double full_s);

/* A comma list (text, or fallback when text is NULL) as a GPtrArray of
 * stripped, non-empty strings. */
GPtrArray *gcvb_split_list (const char *text, const char *fallback);

/* A frame size, lower case: qcif, 720p, 1080p, 4k (2160p, uhd) or WxH, each
 * side 1 .. 16384. */
gboolean gcvb_parse_dims (const char *text, int *w, int *h);

/* Parses one item of a list into *out (an element of the list's array). */
typedef gboolean (*GcvbParseItem) (const char *item, gpointer out);

/* The index (into *(int *) out) of the entry of table (n entries, stride
 * bytes apart, each starting with its name as a const char *: an array of
 * names or of structures named by their first member) whose name is text,
 * case-insensitive.  FALSE when none is. */
gboolean gcvb_parse_index (const char *text, gconstpointer table, gsize stride, guint n, gpointer out);
#define GCVB_PARSE_INDEX(text, table, out) \
  gcvb_parse_index (text, table, sizeof ((table)[0]), G_N_ELEMENTS (table), out)

/* Appends each item of a comma list (text, or fallback when text is NULL)
 * to dst through parse.  FALSE, after "error: <what> '<item>' <hint>", at
 * the first item that does not parse. */
gboolean gcvb_parse_list (const char *text, const char *fallback, GcvbParseItem parse, GArray * dst,
    const char *what, const char *hint);

/* ------------------------------------------------------------------------ */
/* statistics */

double gcvb_now_ms (void);
/* Sorts v. */
double gcvb_median (double *v, int n);
double gcvb_mean (const double *v, int n);

/* The process's resident set size in KiB (/proc/self/statm: resident
 * pages x page size); -1 where it cannot be read. */
gint64 gcvb_rss_kib (void);

/* ------------------------------------------------------------------------ */
/* host and GPU */

typedef struct {
  gboolean available;
  char why[128];                /* when not available, short */
  char detail[512];             /* when not available, the error */
  char name[256];
  double peak_gbps, copy_gbps;  /* memory: theoretical peak, measured D2D copy */
  char peak_source[160];        /* where peak_gbps comes from */
} GcvbCuda;

typedef struct {
  const char *program;          /* "bench-canny" */
  gchar *date;                  /* local time, "%Y-%m-%d %H:%M:%S %z" */
  gchar *cpu;                   /* CPU model */
  gchar *plugin_file;           /* where the elements come from, NULL */
  GcvbCuda cuda;
} GcvbHost;

/* Date and CPU; when load_plugin, loads --plugin or the plugin of this build
 * (so that its elements, not an installed copy, are measured; exits on
 * error) and looks up the file `factory` comes from; then probes CUDA device
 * --device.  nominal_peak: when the device reports no memory clock, take a
 * datasheet peak for the H100 and H200 (else the measured copy) as
 * peak_gbps. */
void gcvb_host_init (GcvbHost * h, const char *program, const GcvbOptions * opt, gboolean load_plugin,
    const char *factory, gboolean nominal_peak);
void gcvb_host_clear (GcvbHost * h);

/* "<program>  <date>", "CPU: ..." and "GPU: ..." lines; without a GPU that
 * line says which rows are skipped (`skipped_rows`) and why. */
void gcvb_print_host (const GcvbHost * h, int device, const char *skipped_rows);
/* The closing "GPU ..." and "CPU ..." lines (peak_source: name where the
 * peak bandwidth comes from). */
void gcvb_print_host_footer (const GcvbHost * h, gboolean peak_source);

gboolean gcvb_have_factory (const char *name);

/* memcpy between two pageable host buffers of `bytes` (pages faulted in
 * first), split over `threads` threads: the median of `runs` (after one
 * untimed), GB/s of bytes copied (1e9 bytes). */
double gcvb_host_memcpy_gbps (size_t bytes, int threads, int runs);
/* "N CPUs online, M NUMA nodes; GPU d at <PCI bus id>, node k; this thread
 * on CPU c, node n" (-1 where unknown; the GPU's bus only with CUDA). */
void gcvb_describe_numa (int device, char *buf, size_t len);

/* The SMs and the datasheet boost clock (GHz) of the GPUs whose figures
 * the physical-limit tables assume (sm_90: H100 SXM / PCIe, H200), parsed
 * from h->cuda.name; FALSE (and 0, 0) for any other or without a GPU.  A
 * peak is then sms x ghz x 1e9 x (operations an SM does a clock). */
gboolean gcvb_device_clock (const GcvbHost * h, int *sms, double *ghz);

/* ------------------------------------------------------------------------ */
/* input frames */

#define GCVB_N_PHOTOS 4

typedef struct {
  char *name;
  int width, height, channels;
  guint8 *pixels;               /* packed, channels interleaved */
} GcvbPhoto;

/* The test photos (camera, chelsea, coffee, astronaut) from --data-dir (or
 * tests/data) as `format` (GRAY8 is luma, RGBA keeps the photo's alpha), a
 * warning for each that fails.  Returns how many; 0 after an error message. */
int gcvb_load_photos (const GcvbOptions * opt, const char *format, int channels,
    GcvbPhoto photos[GCVB_N_PHOTOS]);
void gcvb_photos_clear (GcvbPhoto * photos, int n);
/* "Frames:     N variants per <per> from a.png (WxH) ..., <how>" */
void gcvb_print_frames (int variants, const char *per, const GcvbPhoto * photos, int n, const char *how);

typedef struct {
  char name[32];
  int width, height, channels;
  size_t stride;                /* bytes between rows */
  size_t size;                  /* bytes of one frame: stride * height */
  int n;
  guint8 **frames;
} GcvbFrameSet;

/* n frames of w x h (channels of the photos), rows `stride` bytes apart (0:
 * packed); frame k is photo k % n_photos scaled by a factor that depends on
 * k and on sqrt (h / 720), mirror-tiled, shifted and, for odd k, flipped.
 * area_average: average sub-samples where that shrinks (else bilinear
 * only). */
void gcvb_frameset_init (GcvbFrameSet * fs, const char *name, int w, int h, size_t stride,
    gboolean area_average, const GcvbPhoto * photos, int n_photos, int n);
void gcvb_frameset_clear (GcvbFrameSet * fs);
/* n zeroed frames of one video frame of info each (its first plane's
 * width, pixel stride and row stride; GST_VIDEO_INFO_SIZE bytes: every
 * plane, in GStreamer's default layout), to be filled by the caller. */
void gcvb_frameset_alloc (GcvbFrameSet * fs, const char *name, const GstVideoInfo * info, int n);
/* Frame k of fs as a read-only buffer wrapping it (no copy), timestamped
 * as the i-th frame of a 30 fps stream. */
GstBuffer *gcvb_frame_buffer (const GcvbFrameSet * fs, int k, gint64 i);

/* ------------------------------------------------------------------------ */
/* results */

/* What every row measures; the programs' rows start with one. */
typedef struct {
  char impl[40];
  char label[96];               /* names the row in the progress lines on stderr */
  int threads;                  /* CPU threads, 0 n/a */
  gboolean skipped;
  gboolean failed;              /* skipped because something went wrong */
  double ms;                    /* per frame: wall (elements), median (backends) */
  double mean_ms;               /* kernel: back-to-back mean; cpu: mean of the runs */
  double fps;
  double upload_ms, compute_ms, download_ms, total_ms;  /* element stats; NAN n/a */
  double gbps;                  /* kernel: effective bandwidth; NAN n/a */
  double peak_frac;             /* gbps / device peak; NAN n/a */
  guint64 count;                /* timed frames or runs */
  gint64 mismatch;              /* samples differing from our CPU output, -1 n/a */
  char backend[16];
  char note[256];
} GcvbResult;

/* Measurements failed so far (gcvb_result_fail, gcvb_finish). */
extern int gcvb_n_failures;

void gcvb_result_init (GcvbResult * r, const char *impl, const char *label_fmt, ...) G_GNUC_PRINTF (3, 4);
void gcvb_result_skip (GcvbResult * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
void gcvb_result_fail (GcvbResult * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);
/* Appends to the note, "; " between. */
void gcvb_result_note (GcvbResult * r, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

/* v with fmt, "-" when NAN. */
void gcvb_fmt_num (char *buf, size_t len, double v, const char *fmt);

/* A row's times as table cells: ms with ms_fmt, fps "%.1f", the element
 * stats "%.4f"; "-" where NAN. */
typedef struct {
  char ms[32], fps[32], up[32], comp[32], down[32], tot[32];
} GcvbCells;
void gcvb_format_cells (const GcvbResult * r, const char *ms_fmt, GcvbCells * c);

/* ------------------------------------------------------------------------ */
/* element pipelines */

typedef struct _GcvbPipeline GcvbPipeline;

/* appsrc (in_caps) ! factory [! capsfilter (out_caps)] ! sink; the sink is
 * an appsink that records the first output caps when check_output, else a
 * fakesink.  Set the element's properties on gcvb_pipeline_element ().
 * NULL, after gcvb_result_fail (r), when an element is missing or the
 * pipeline does not link. */
GcvbPipeline *gcvb_pipeline_new (const char *factory, const char *name, GstCaps * in_caps,
    GstCaps * out_caps, gboolean check_output, GcvbResult * r);
GstElement *gcvb_pipeline_element (GcvbPipeline * p);
/* The first output sample's caps (check_output), 0 / NULL unknown. */
void gcvb_pipeline_output (GcvbPipeline * p, int *width, int *height, const char **format);

/* Plays the pipeline and pushes warmup + frames buffers made from fs's
 * frames in turn, at most `queue` in flight; r gets the wall clock per frame
 * over the last `frames` (count, ms, fps), the element's "backend" property
 * (else its stats' backend, else "?") and its "stats" (upload / compute /
 * download / total ms) differenced over the same frames, with a note when
 * they counted other frames, or, when stats_note, when there are none.
 * FALSE after gcvb_result_fail (r). */
gboolean gcvb_pipeline_time (GcvbPipeline * p, const GcvbFrameSet * fs, int warmup, int frames,
    int queue, gboolean stats_note, GcvbResult * r);
/* The same for an element that holds `latency` frames back until EOS
 * (gcvb_pipeline_time: latency 0): after n pushes only n - latency frames
 * have come out, so the warm-up is drained to warmup - latency outputs
 * before the clock starts, `queue` frames are in flight beyond the
 * latency, and the clock stops when warmup + frames - latency are out (one
 * output per input in the steady state).  warmup should exceed latency.
 * EOS at gcvb_pipeline_free drains the held frames (waited for 60 s). */
gboolean gcvb_pipeline_time_latency (GcvbPipeline * p, const GcvbFrameSet * fs, int warmup, int frames,
    int queue, int latency, gboolean stats_note, GcvbResult * r);
/* Ends the stream (after a run that did not fail), stops and frees. */
void gcvb_pipeline_free (GcvbPipeline * p);

/* A property of any type as a string (an enum's nick: "cuda"), NULL when
 * the element has no such property; g_free it. */
gchar *gcvb_prop_string (GstElement * e, const char *name);

/* A property from a string, with a note when the element has no such
 * property. */
gboolean gcvb_set_prop (GstElement * e, const char *name, const char *value);
/* "name=value name=value ...": each with gcvb_set_prop; FALSE when one
 * was not set (no such property, or no '='). */
gboolean gcvb_set_props (GstElement * e, const char *props);

/* The motion elements' rows (cudamotionest, cudavcm and their cpu twins):
 * GRAY8 frames wrapped as a frame set (channels 1; frames are not copied);
 * then the pipeline appsrc ! factory ! fakesink with cuda-device-id =
 * device and fallback=false on a cuda* element (never time the CPU
 * fallback by mistake), n-threads=0 on a cpu* one.  NULL after
 * gcvb_result_skip (r) when the element is missing or, for cuda*, h has no
 * usable GPU; or after gcvb_result_fail (r). */
void gcvb_frameset_wrap_gray8 (GcvbFrameSet * fs, const char *name, int width, int height, size_t stride,
    int n, guint8 ** frames);
GcvbPipeline *gcvb_gray8_element_pipeline (const GcvbHost * h, const char *factory, const char *name,
    const GcvbFrameSet * fs, int device, GcvbResult * r);
/* After such a row was timed: transfers n/a on the CPU backend, a note when
 * a cuda* element ran on something else, the progress line on stderr. */
void gcvb_element_row_done (GcvbResult * r, gboolean is_cuda);
/* Their table (bench-motionest, bench-vcm): the title and column heads,
 * the element column `name_width` wide; then a line per row: case,
 * element, threads ("-" for 0), the times and the element's stats, backend,
 * frames and note (or FAILED / skipped with the note). */
void gcvb_print_element_table_head (int name_width);
void gcvb_print_element_table_row (const char *case_name, const char *element, int name_width,
    const GcvbResult * m);

/* ------------------------------------------------------------------------ */
/* pipelines of several elements */

/* One element of a chain: its factory, its name in the pipeline (NULL: the
 * factory's default) and the caps of a capsfilter after it (NULL: none). */
typedef struct {
  const char *factory;
  const char *name;
  GstCaps *caps_after;
} GcvbStage;

/* appsrc (in_caps) ! stages[0] [! capsfilter] ! stages[1] ... ! fakesink,
 * the sink counting what arrives; gcvb_pipeline_element is stages[0].
 * NULL, after gcvb_result_fail (r), when an element is missing or the
 * chain does not link.  Runs with gcvb_pipeline_set_state, _push, _wait_arrived
 * and _finish (or _time for the first element alone); gcvb_pipeline_free. */
GcvbPipeline *gcvb_pipeline_new_chain (const GcvbStage * stages, int n, GstCaps * in_caps, GcvbResult * r);
int gcvb_pipeline_n_stages (GcvbPipeline * p);
GstElement *gcvb_pipeline_stage (GcvbPipeline * p, int i);
GstElement *gcvb_pipeline_appsrc (GcvbPipeline * p);
/* Bus warnings (e.g. one for each element that falls back to the CPU) are
 * counted and the first kept, instead of printed. */
void gcvb_pipeline_quiet_warnings (GcvbPipeline * p, gboolean quiet);
/* The first warning ("element: text"), NULL when none; *n gets their number. */
const char *gcvb_pipeline_first_warning (GcvbPipeline * p, int *n);

/* Sets the pipeline's state (PAUSED: the pads are active, nothing pushed
 * yet; PLAYING).  FALSE with *message (g_free it) after a bus error or a
 * failed state change; the pipeline is then back in NULL. */
gboolean gcvb_pipeline_set_state (GcvbPipeline * p, GstState state, gchar ** message);
/* Pushes b (taken) into the appsrc (which queues without limit): FALSE with
 * *message when the pipeline stopped. */
gboolean gcvb_pipeline_push (GcvbPipeline * p, GstBuffer * b, gchar ** message);
/* Waits until `target` frames reached the sink (none: TRUE at once); FALSE
 * with *message after a bus error or when nothing arrived for timeout_s. */
gboolean gcvb_pipeline_wait_arrived (GcvbPipeline * p, gint64 target, double timeout_s, gchar ** message);
/* Frames at the sink so far; first_us / last_us (may be NULL) get the
 * g_get_monotonic_time of the first and the latest. */
guint64 gcvb_pipeline_arrived (GcvbPipeline * p, gint64 * first_us, gint64 * last_us);
/* Ends the stream and waits for the EOS message (the held frames drained);
 * FALSE with *message after a bus error or when nothing reached the sink
 * for timeout_s.  gcvb_pipeline_free then only stops the pipeline. */
gboolean gcvb_pipeline_finish (GcvbPipeline * p, double timeout_s, gchar ** message);
/* After a failed run: gcvb_pipeline_free stops the pipeline without an EOS. */
void gcvb_pipeline_abandon (GcvbPipeline * p);

/* An element's "stats" (NAN where absent; ok FALSE without the property). */
typedef struct {
  gboolean ok;
  guint64 frames;
  double upload_ms, compute_ms, download_ms, total_ms;  /* means per frame */
  char backend[16];
} GcvbStats;
void gcvb_stats_read (GstElement * e, GcvbStats * st);
/* The means over the frames counted between two readings (the stats are
 * means since the element started); frames: how many; ok FALSE when none. */
void gcvb_stats_between (const GcvbStats * before, const GcvbStats * after, GcvbStats * out);

/* ------------------------------------------------------------------------ */
/* backends on the CPU */

/* One call of the CPU backend: ctx's process function on host planes. */
typedef GcvStatus (*GcvbCpuProcess) (gpointer ctx, const GcvPlane * in, GcvPlane * out, int n_threads,
    GcvError * err);

/* The output for frames[0] (one call, all threads) in a new buffer, rows
 * out_row bytes apart: the reference other implementations are compared
 * with.  NULL, after printing why, on failure. */
guint8 *gcvb_cpu_output (GcvbCpuProcess process, gpointer ctx, const GcvbFrameSet * fs, int out_w,
    int out_h, size_t out_row);

/* `warmup` untimed calls, then `runs` timed ones (wall clock), on fs's
 * frames in turn, writing out (out_w x out_h, rows out_row bytes apart)
 * with n_threads (0: all); r gets count, ms (median), mean_ms, fps and
 * backend "cpu".  FALSE after gcvb_result_fail (r, "<what>: <error>"). */
gboolean gcvb_cpu_time (GcvbCpuProcess process, gpointer ctx, const char *what, const GcvbFrameSet * fs,
    guint8 * out, int out_w, int out_h, size_t out_row, int n_threads, int warmup, int runs,
    GcvbResult * r);

/* Call i of gcvb_time_budget (0: the warm-up); FALSE after writing why into
 * err. */
typedef gboolean (*GcvbTimedCall) (gpointer data, int i, char *err, size_t err_len);

/* Wall-clock timing of slow code (a CPU backend, a peer library) within a
 * time budget: call 0 is a warm-up whose duration sets how many timed
 * calls 1 .. n follow, n = min (max_runs, budget_s / warm-up) (at least 1);
 * when the warm-up alone takes budget_s or more, it is the measurement (a
 * note says so; *first_timed, when not NULL, gets 0, else 1: the calls
 * first_timed .. first_timed + count - 1 were timed).  r gets count, ms
 * (median), mean_ms, fps and a note when the budget cut the runs below
 * max_runs.  FALSE after gcvb_result_fail (r, "<what>: <err>"). */
gboolean gcvb_time_budget (GcvbTimedCall call, gpointer data, const char *what, int max_runs,
    double budget_s, int *first_timed, GcvbResult * r);

/* ------------------------------------------------------------------------ */
/* pictures */

/* A text drawn onto a picture by gcvb_write_png: its top-left corner at
 * (x, y) pixels, black, font-desc `font` (NULL: "Sans 12"). */
typedef struct {
  const char *text;
  int x, y;
  const char *font;
} GcvbLabel;

/* Writes a w x h picture of `format` (a GStreamer format with one plane:
 * "RGBA", "RGB", "GRAY8", ...; rows `stride` bytes apart) to a PNG file
 * through GStreamer (videoconvert ! [textoverlay ...] ! pngenc), as RGB (or
 * GRAY8 for grey formats: alpha is dropped), with the labels drawn on it
 * when textoverlay exists (else without them, and a warning).  FALSE with
 * *error set on failure. */
gboolean gcvb_write_png (const char *path, const guint8 * pixels, int w, int h, size_t stride,
    const char *format, const GcvbLabel * labels, int n_labels, GError ** error);

/* ------------------------------------------------------------------------ */
/* CUDA kernels */

/* r after a kernel timing (ms, mean_ms set): count, fps, compute_ms, the
 * effective bandwidth of `bytes` moved a call and its fraction of the
 * device's peak, backend "cuda". */
void gcvb_result_kernel (GcvbResult * r, int runs, double bytes, const GcvbCuda * cuda);

/* Host <-> device copy bandwidth of device `device`: `bytes` (rounded down
 * to 4 KiB rows) between a host buffer, page-locked (`pinned`) or pageable
 * (malloc), and device memory, each way the median of `runs` copies (after
 * 2 untimed), timed by CUDA events (pinned) or by the host's clock up to
 * the copy's end (pageable: the driver's staging included); GB/s, 1e9
 * bytes.  FALSE (NAN, and why) without a GPU or CUDA. */
gboolean gcvb_cuda_copy_bandwidth (int device, size_t bytes, int runs, gboolean pinned, double *h2d_gbps,
    double *d2h_gbps, char *why, size_t why_len);

#if GCVB_CUDA
/* One call of the timed kernels: ctx's process function on device planes. */
typedef GcvStatus (*GcvbCudaProcess) (gpointer ctx, const GcvPlane * in, GcvPlane * out,
    void *stream, GcvError * err);

/* Kernels only, on the current device: fs's frames uploaded once and
 * rotated through, written to an out_w x out_h plane of out_row bytes a
 * row; `warmup` untimed calls, then `runs` calls queued back to back, each
 * between two CUDA events.  r->ms: the median event time; r->mean_ms: the
 * span of all runs divided by their number.  check, when not NULL, first
 * gets the output for frames[0] (rows out_row apart).  FALSE after
 * gcvb_result_fail (r). */
gboolean gcvb_cuda_time_kernel (GcvbCudaProcess process, gpointer ctx, const GcvbFrameSet * fs,
    int out_w, int out_h, size_t out_row, int warmup, int runs, guint8 * check, GcvbResult * r);
#endif

/* ------------------------------------------------------------------------ */
/* peers run by the host's Python */

/* fs's frames, packed rows (width x channels bytes), one after the other,
 * into the file `path`. */
gboolean gcvb_write_frames (const GcvbFrameSet * fs, const char *path, GError ** error);

/* Runs a peer script of scripts/ (GCVB_SCRIPTS_DIR: the source tree's)
 * with the host's Python ($GCVB_PYTHON, a command line such as "env -u
 * PYTHONPATH /opt/venv/bin/python3", else python3) and `args`
 * (NULL-terminated) plus "--rows FILE", under coreutils' timeout of
 * timeout_s; the script writes its rows into FILE, one a line, fields
 * tab-separated ('#' lines are comments).  Its stderr is passed on.  The
 * rows (each a NULL-terminated array of fields), or NULL with why: the
 * script's last line on stderr when it failed (no PyTorch, no GPU). */
GPtrArray *gcvb_python_peer (const char *script, const char *const *args, int timeout_s, char *why,
    size_t why_len);

/* ------------------------------------------------------------------------ */
/* JSON */

void gcvb_json_str (GString * s, const char *v);
/* null for NAN and infinities */
void gcvb_json_num (GString * s, double v);
#define GCVB_JKEY(s, k) g_string_append_printf (s, "\"%s\": ", k)

/* {"benchmark", "date", "host": {cpu, cpu_threads, gpu, gpu_skipped_reason,
 * gpu_error, gpu_mem_peak_gbps, [gpu_mem_peak_source,] gpu_mem_d2d_copy_gbps,
 * gstreamer, [extra_key (extra_value, null when NULL),] plugin}, and a
 * newline: the caller goes on with its own keys. */
GString *gcvb_json_begin (const GcvbHost * h, const char *benchmark, gboolean peak_source,
    const char *extra_key, const char *extra_value);
/* , "skipped", "failed", "ms_per_frame", "mean_ms", "fps", "upload_ms",
 * "compute_ms", "download_ms", "total_ms", "effective_gbps",
 * "fraction_of_peak_bw" */
void gcvb_json_measurement (GString * s, const GcvbResult * r);
/* , "threads", "count", "<mismatch_key>", [extra,] "backend", "note"} and
 * a comma unless last */
void gcvb_json_row_end (GString * s, const GcvbResult * r, const char *mismatch_key, const char *extra,
    gboolean last);

/* Writes (and frees) s to --json or default_json, prints the closing "...
 * written" and failure lines.  Returns the exit status. */
int gcvb_finish (GString * s, const GcvbOptions * opt, const char *default_json);

G_END_DECLS
#endif /* GCV_BENCH_H */
