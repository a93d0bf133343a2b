/* gst-cuda-video: NVIDIA's optical-flow engine (NVOFA, the Optical Flow
 * SDK through the driver's libnvidia-opticalflow.so.1) as the GPU peer of
 * bench-motionest and bench-vcm: the benchmarks' side of nvof-bench (the
 * program that talks to the engine, in a process of its own: see
 * nvof_bench.c), part of gcv-bench.
 *
 * gcvb_nvof_peer asks nvof-bench whether the GPU has the engine and what it
 * offers; gcvb_nvof_run gives it frames and pairs and gets back, per output
 * grid and perf level, the time of a pair and the flow of the pairs asked
 * for; the rest turns flows into what the benchmarks score (a cell's
 * vector, a block's median, endpoint-error statistics).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BENCH_NVOF_H
#define GCV_BENCH_NVOF_H

#include "gcv-bench.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------------ */
/* the engine */

#define GCVB_NVOF_MAX_GRIDS 8

/* What nvof-bench caps said (state "present" | "absent" | "unknown" |
 * "skipped"), and what the engine offers where present: its output grids
 * (n_grids -1: not answered) and the frame sizes it takes (width min, height
 * min, width max, height max; 0 unknown). */
typedef struct {
  char state[16];
  char detail[384];
  int n_grids;
  int grids[GCVB_NVOF_MAX_GRIDS];
  int size[4];
} GcvbNvof;

/* Unless skipped: asks nvof-bench caps DEVICE (under timeout), prints the
 * "GPU peer:" line and fills out. */
void gcvb_nvof_peer (int device, gboolean skipped, GcvbNvof * out);
gboolean gcvb_nvof_present (const GcvbNvof * n);
/* , "nvofa": {"state", "detail", "grids", "sizes"}, "nvofa_grids": [the
 * grids run], "nvofa_perf": [the levels run, by name] */
void gcvb_json_nvof (GString * s, const GcvbNvof * n, const int *grids, int n_grids, const int *perfs, int n_perfs);

/* The perf levels (NV_OF_PERF_LEVEL) by name. */
typedef struct {
  const char *name;
  int value;
} GcvbNvofPerf;
extern const GcvbNvofPerf gcvb_nvof_perfs[3];   /* slow 5, medium 10, fast 20 */
const char *gcvb_nvof_perf_name (int value);

/* --nvofa-grids / --nvofa-perf: the grids to run (default: those the
 * engine offers, else 1, 2, 4 and 8) and the levels (default all three),
 * parsed into grids / perfs (room for GCVB_NVOF_MAX_GRIDS and 3).  FALSE
 * after an error message. */
gboolean gcvb_nvof_configs (const GcvbNvof * n, const char *grids_opt, const char *perf_opt, int *grids,
    int *n_grids, int *perfs, int *n_perfs);
/* The options' GOptionEntry lines (two) for the programs' tables. */
#define GCVB_NVOF_OPTION_ENTRIES(grids_var, perf_var) \
  {"nvofa-grids", 0, 0, G_OPTION_ARG_STRING, &(grids_var), \
      "GPU peer NVOFA: output grids, comma-separated, of 1, 2, 4, 8 (default: those the engine offers)", "LIST"}, \
  {"nvofa-perf", 0, 0, G_OPTION_ARG_STRING, &(perf_var), \
      "GPU peer NVOFA: perf levels, comma-separated, of slow, medium, fast (default all)", "LIST"}

/* ------------------------------------------------------------------------ */
/* a run */

typedef struct {
  int in, ref;                  /* frame indices: the flow of in's pixels into ref */
  gboolean no_hints;            /* a new sequence: the previous flow is no hint */
} GcvbNvofPair;

/* Frames (GRAY8, width x height, rows stride bytes apart), the pairs to
 * time (cycled through for warmup + runs executes; none: no timing) and
 * the pairs whose flow comes back, in order (after the timed ones). */
typedef struct {
  int width, height;
  size_t stride;
  int n_frames;
  guint8 *const *frames;
  int warmup, runs;
  GArray *time, *flow;          /* GcvbNvofPair */
} GcvbNvofJob;

void gcvb_nvof_job_init (GcvbNvofJob * j, int width, int height, size_t stride, int n_frames,
    guint8 * const *frames, int warmup, int runs);
void gcvb_nvof_job_add (GArray * pairs, int in, int ref, gboolean no_hints);
void gcvb_nvof_job_clear (GcvbNvofJob * j);

/* One grid and perf level of a run. */
typedef struct {
  int grid, perf;
  char state[12];               /* "ok", "skipped" (the engine refused it, or has none), "failed" */
  char why[512];
  double ev_ms, wall_ms;        /* medians of the timed pairs: CUDA events, host clock */
  double ev_mean_ms, wall_mean_ms;
  double setup_ms;              /* session, buffers and uploads */
  double first_ms;              /* the first execute (host clock) */
  int count;                    /* timed pairs */
  int cols, rows;               /* grid cells */
  int n_flows;
  gint16 *flows;                /* n_flows x rows x cols x (x, y), 1/32 pixel */
} GcvbNvofRun;

/* Every grid x perf level through nvof-bench (each run of the program
 * under coreutils' timeout; when it dies, the config it was in fails with
 * why and the program runs again for the ones after it; once it hangs,
 * the rest and every later run fail at once, saying where it hung).  An
 * array of n_grids x n_perfs runs, grid-major; free with
 * gcvb_nvof_runs_free.  Progress lines on stderr. */
GcvbNvofRun *gcvb_nvof_run (const GcvbNvof * n, int device, const GcvbNvofJob * job, const int *grids,
    int n_grids, const int *perfs, int n_perfs);
void gcvb_nvof_runs_free (GcvbNvofRun * runs, int n);

/* A warning when the CUDA events saw far less time than the host's clock
 * (the engine's work would not be ordered in the stream, and wall is the
 * measure), else "". */
const char *gcvb_nvof_timing_note (const GcvbNvofRun * r);

/* "g4 slow" */
void gcvb_nvof_run_name (const GcvbNvofRun * r, char *buf, size_t len);

/* The vector (pixels) of cell (cx, cy) of flow k. */
void gcvb_nvof_cell (const GcvbNvofRun * r, int k, int cx, int cy, double *fx, double *fy);
/* The vector of the cell that holds pixel (x, y) (clamped to the frame). */
void gcvb_nvof_at (const GcvbNvofRun * r, int k, double x, double y, double *fx, double *fy);
/* The component-wise median of the cells lying wholly in the block at
 * (x0, y0), w x h pixels (the cell under its centre when none does). */
void gcvb_nvof_block_median (const GcvbNvofRun * r, int k, int x0, int y0, int w, int h, double *fx,
    double *fy);

/* ------------------------------------------------------------------------ */
/* endpoint errors */

/* A histogram of endpoint errors (1/256 pixel bins up to 64 pixels, the
 * rest in the last) for any number of them: count, mean, median, p90; and
 * the mean against the negated truth, which tells a reversed flow. */
typedef struct {
  guint64 n;
  double sum, sum_reversed;
  guint32 *bins;                /* allocated by the first add */
} GcvbEpe;

void gcvb_epe_add (GcvbEpe * a, double fx, double fy, double tx, double ty);
void gcvb_epe_merge (GcvbEpe * a, const GcvbEpe * b);
double gcvb_epe_mean (const GcvbEpe * a);
/* q in 0 .. 1 (0.5 the median), NAN when empty */
double gcvb_epe_quantile (const GcvbEpe * a, double q);
void gcvb_epe_clear (GcvbEpe * a);
/* A note when the flow looks reversed (its mean error is more than twice
 * the one against the negated truth), else "". */
const char *gcvb_epe_reversed_note (const GcvbEpe * a);

G_END_DECLS
#endif /* GCV_BENCH_NVOF_H */
