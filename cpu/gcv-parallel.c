/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gcv-parallel.h"
#include "gcv-image.h"

#include <pthread.h>
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* The probe: at most one a second for the process; PROBE_FORKS empty
 * regions of one thread per core, stopped at the first late one.  The
 * first may have to wake workers that went to sleep (tens to hundreds of
 * microseconds in a VM); the others find them awake, and an idle machine
 * joins them in a few microseconds, a busy one in milliseconds.  A busy
 * machine now and then lets a probe through, so after a late probe the
 * cores count as free again only after GOOD_PROBES_AFTER_LATE good ones
 * in a row. */
#define PROBE_PERIOD_US 1000000
#define PROBE_FORKS 8
#define PROBE_WAKE_US 2000
#define PROBE_LATE_US 200
#define GOOD_PROBES_AFTER_LATE 3

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static int64_t probe_due_us;    /* under probe_lock */
static int good_streak, good_needed = 1;        /* under probe_lock */
static int cores_free = 1;      /* atomic: the last verdict */

static int64_t
now_us (void)
{
  return (int64_t) (gcv_now_ms () * 1000.0);
}

int
gcv_parallel_max_threads (int n_threads)
{
#ifdef _OPENMP
  return n_threads > 0 ? n_threads : omp_get_max_threads ();
#else
  (void) n_threads;
  return 1;
#endif
}

#ifdef _OPENMP
static int
probe_joins_promptly (int nt)
{
  int i;

  for (i = 0; i < PROBE_FORKS; i++) {
    int64_t t0 = now_us (), took;
    int joined = 0;
    /* (a region that does nothing would be compiled away: the fork and
     * the join are what is timed) */
#pragma omp parallel num_threads(nt)
    __atomic_fetch_add (&joined, 1, __ATOMIC_RELAXED);
    took = now_us () - t0;
    if (took > (i == 0 ? PROBE_WAKE_US : PROBE_LATE_US))
      return 0;
  }
  return 1;
}
#endif

int
gcv_parallel_cores_free (void)
{
#ifdef _OPENMP
  /* one thread probes; the others take the last verdict meanwhile */
  if (pthread_mutex_trylock (&probe_lock) == 0) {
    if (now_us () >= probe_due_us) {
      if (probe_joins_promptly (omp_get_num_procs ())) {
        good_streak++;
      } else {
        good_streak = 0;
        good_needed = GOOD_PROBES_AFTER_LATE;
      }
      __atomic_store_n (&cores_free, good_streak >= good_needed, __ATOMIC_RELAXED);
      probe_due_us = now_us () + PROBE_PERIOD_US;
    }
    pthread_mutex_unlock (&probe_lock);
  }
  return __atomic_load_n (&cores_free, __ATOMIC_RELAXED);
#else
  return 0;
#endif
}

int
gcv_parallel_threads_planned (int n_threads, double work_ns)
{
  int nt = gcv_parallel_max_threads (n_threads);
  double by_work = work_ns / (GCV_PARALLEL_MIN_NS / 2);

  if (nt <= 1 || work_ns < GCV_PARALLEL_MIN_NS)
    return 1;
  return by_work < nt ? (int) by_work : nt;
}

int
gcv_parallel_threads (int n_threads, double work_ns)
{
  int nt = gcv_parallel_threads_planned (n_threads, work_ns);

  if (nt > 1 && n_threads <= 0 && !gcv_parallel_cores_free ())
    return 1;
  return nt;
}
