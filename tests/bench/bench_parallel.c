/* gst-cuda-video: where an OpenMP team starts to pay, on this machine now.
 *
 * For loops of 5 us to 10 ms of one core's work (rows of a small filter,
 * the shape of the CPU backends' loops), the median time on the calling
 * thread and as a team of --threads (default: one per core), and what
 * cpu/gcv-parallel.h decides for them; then the probe's verdict.  Run it on
 * an idle machine and with the other cores busy to see why the backends
 * keep small loops on one thread and teams off a busy machine
 * (docs/performance.md, "OpenMP on shared machines").
 *
 *   build/tests/bench/bench-parallel [--threads N] [--runs N]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "gcv-image.h"
#include "gcv-parallel.h"

#define ROW 4096                /* bytes a row */

static guint8 *src, *dst;

/* One row of a 3-tap filter: about ROW / 4 ns on one core. */
static void
filter_row (int y)
{
  const guint8 *s = src + (size_t) ROW * y;
  guint8 *d = dst + (size_t) ROW * y;
  int x;

  d[0] = s[0];
  for (x = 1; x < ROW - 1; x++)
    d[x] = (guint8) ((s[x - 1] + 2 * s[x] + s[x + 1] + d[x]) >> 2);
  d[ROW - 1] = s[ROW - 1];
}

static double
run_rows (int rows, int nt)
{
  double t0 = gcv_now_ms ();
  int y;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < rows; y++)
    filter_row (y);
  return gcv_now_ms () - t0;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* The median (@q = 0.5) or another quantile of @runs runs. */
static double
quantile_ms (int rows, int nt, int runs, double q)
{
  double *t = g_new (double, runs), m;
  int i;

  for (i = 0; i < runs; i++)
    t[i] = run_rows (rows, nt);
  qsort (t, runs, sizeof (double), cmp_double);
  m = t[(int) (q * (runs - 1))];
  g_free (t);
  return m;
}

int
main (int argc, char **argv)
{
  static const double work_us[] = { 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000 };
  gint threads = 0, runs = 200;
  GOptionEntry entries[] = {
    {"threads", 't', 0, G_OPTION_ARG_INT, &threads, "Threads of the team (default 0: one per core)", "N"},
    {"runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Runs per row, median taken (default 200, fewer for long rows)",
        "N"},
    {NULL}
  };
  GOptionContext *oc = g_option_context_new ("- where an OpenMP team of the CPU backends starts to pay");
  GError *error = NULL;
  double ns_per_row;
  int nt, max_rows, i;

  g_option_context_add_main_entries (oc, entries, NULL);
  if (!g_option_context_parse (oc, &argc, &argv, &error)) {
    g_printerr ("%s\n", error->message);
    return 1;
  }
  g_option_context_free (oc);
  nt = gcv_parallel_max_threads (threads);
  max_rows = (int) (work_us[G_N_ELEMENTS (work_us) - 1] * 1000 / (ROW / 8.0)) + 1;
  src = g_malloc ((size_t) ROW * max_rows);
  dst = g_malloc0 ((size_t) ROW * max_rows);
  for (i = 0; i < ROW * max_rows; i++)
    src[i] = (guint8) g_random_int ();

  /* one core's time per row: the fastest of many short runs (the others
   * may have waited for the core) */
  run_rows (max_rows, 1);
  ns_per_row = quantile_ms (64, 1, 200, 0.0) * 1e6 / 64;
  printf ("bench-parallel: a team of %d thread(s); one row %.0f ns on one core; OMP_WAIT_POLICY=%s\n", nt,
      ns_per_row, g_getenv ("OMP_WAIT_POLICY") ? g_getenv ("OMP_WAIT_POLICY") : "(unset)");
  printf ("%10s %8s %12s %12s %8s %10s\n", "work us", "rows", "1 thread us", "team us", "speedup", "decided");
  for (i = 0; i < (int) G_N_ELEMENTS (work_us); i++) {
    int rows = (int) (work_us[i] * 1000 / ns_per_row + 0.5), n = runs;
    double one, team;

    if (rows < 1)
      rows = 1;
    if (rows > max_rows)
      rows = max_rows;
    if (work_us[i] >= 1000 && n > 20)
      n = 20;
    one = quantile_ms (rows, 1, n, 0.5) * 1000;
    team = quantile_ms (rows, nt, n, 0.5) * 1000;
    printf ("%10.0f %8d %12.1f %12.1f %8.2f %10d\n", work_us[i], rows, one, team, one / team,
        gcv_parallel_threads (threads, rows * ns_per_row));
  }
  printf ("probe: the cores %s\n", gcv_parallel_cores_free () ? "come when called (teams allowed)"
      : "do not come promptly (teams off)");
  g_free (src);
  g_free (dst);
  return 0;
}
