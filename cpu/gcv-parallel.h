/* gst-cuda-video: how many threads a loop of the CPU backends gets.
 *
 * libgomp makes a team wait for its slowest thread at every barrier, and
 * how it waits (spinning, then sleeping) is fixed when libgomp starts
 * (OMP_WAIT_POLICY, GOMP_SPINCOUNT, read before any code of a plugin runs;
 * OpenMP has no call to change it later).  On a machine whose cores are
 * busy with other work a worker may wait a scheduler slice before it runs,
 * and the team's thread 0 spins meanwhile on the core the worker needs:
 * measured on two busy vCPUs, an empty parallel region took 8 to 30 ms
 * instead of 3 us, and cpumotionest at 64x48 ran at about 200 fps instead
 * of thousands (docs/performance.md, "OpenMP on shared machines").  So a
 * loop runs on the calling thread unless both
 *  - its work is worth a team: about GCV_PARALLEL_MIN_NS of one core's
 *    time, and each thread gets at least half of that, and
 *  - with the default thread count (n_threads 0), the machine's cores come
 *    when called: a probe (a few empty parallel regions, at most once a
 *    second for the whole process) saw every thread of the team join
 *    within a fraction of a millisecond.  An explicit thread count (the
 *    element's n-threads) is taken as the user's decision and not probed.
 * The outputs never depend on the number of threads.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_PARALLEL_H
#define GCV_PARALLEL_H

#ifdef __cplusplus
extern "C" {
#endif

/* One core's time under which a team costs more than it saves
 * (tests/bench/bench-parallel measures where a region starts to pay). */
#define GCV_PARALLEL_MIN_NS 100000.0

/* The num_threads of a parallel loop of about @work_ns nanoseconds of one
 * core's work (the loop's measured cost per item times its items):
 * @n_threads > 0 at most that many, 0 at most OpenMP's default
 * (OMP_NUM_THREADS, else one per core); 1 runs it on the calling thread
 * (use `num_threads (nt) if (nt > 1)`). */
int gcv_parallel_threads (int n_threads, double work_ns);

/* The same decision by the work alone, without the probe: for work planned
 * once and run many times (FFTW's threaded plans), whose loops look at
 * gcv_parallel_cores_free() when they run. */
int gcv_parallel_threads_planned (int n_threads, double work_ns);

/* The most threads gcv_parallel_threads() gives for @n_threads (per-thread
 * scratch is sized with it). */
int gcv_parallel_max_threads (int n_threads);

/* Whether the last probe found the cores free (probing when it is due):
 * what gcv_parallel_threads() decides with, for the benchmarks' notes. */
int gcv_parallel_cores_free (void);

#ifdef __cplusplus
}
#endif
#endif /* GCV_PARALLEL_H */
