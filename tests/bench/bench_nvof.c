/* gst-cuda-video: the motion benchmarks' GPU peer, NVIDIA's optical-flow
 * engine, through nvof-bench (see bench-nvof.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-nvof.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifndef GCVB_NVOF_BENCH
#define GCVB_NVOF_BENCH "nvof-bench"
#endif

const GcvbNvofPerf gcvb_nvof_perfs[3] = { {"slow", 5}, {"medium", 10}, {"fast", 20} };

const char *
gcvb_nvof_perf_name (int value)
{
  for (guint i = 0; i < G_N_ELEMENTS (gcvb_nvof_perfs); i++)
    if (gcvb_nvof_perfs[i].value == value)
      return gcvb_nvof_perfs[i].name;
  return "?";
}

/* ------------------------------------------------------------------------ */
/* running nvof-bench */

/* The program: $GCVB_NVOF_BENCH, else the one of this build, else the one
 * beside the running benchmark (a build directory moved to another host),
 * else nvof-bench on the PATH. */
static const char *
nvof_bench_path (void)
{
  static gchar *path;

  if (path == NULL) {
    const char *env = g_getenv ("GCVB_NVOF_BENCH");
    gchar *self = g_file_read_link ("/proc/self/exe", NULL), *dir = self ? g_path_get_dirname (self) : NULL;
    gchar *beside = dir ? g_build_filename (dir, "nvof-bench", NULL) : NULL;
    if (env != NULL && *env != '\0')
      path = g_strdup (env);
    else if (g_file_test (GCVB_NVOF_BENCH, G_FILE_TEST_IS_EXECUTABLE))
      path = g_strdup (GCVB_NVOF_BENCH);
    else if (beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
      path = g_strdup (beside);
    else
      path = g_strdup ("nvof-bench");
    g_free (self);
    g_free (dir);
    g_free (beside);
  }
  return path;
}

/* argv under coreutils' timeout (limit_s; GCVB_NVOF_TIMEOUT overrides it):
 * TRUE when it ran and exited 0; else why (it could not start, exited
 * with a status, was killed by a signal, timed out).  out: its stdout. */
static gboolean
spawn_nvof_bench (const char *const *args, double limit_s, gchar ** out, gboolean * hung, char *why, size_t len)
{
  const char *env = g_getenv ("GCVB_NVOF_TIMEOUT");
  gchar *limit = g_strdup_printf ("%.0f", env && atof (env) > 0 ? atof (env) : limit_s);
  GPtrArray *argv = g_ptr_array_new ();
  GError *error = NULL;
  gint status = 0;
  gboolean ok = FALSE;

  g_ptr_array_add (argv, (gpointer) "timeout");
  g_ptr_array_add (argv, (gpointer) "-k");
  g_ptr_array_add (argv, (gpointer) "5");
  g_ptr_array_add (argv, limit);
  g_ptr_array_add (argv, (gpointer) nvof_bench_path ());
  for (int i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  if (out)
    *out = NULL;
  if (hung)
    *hung = FALSE;
  if (!g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, NULL, &status,
          &error)) {
    g_snprintf (why, len, "cannot run %s: %s", nvof_bench_path (), error->message);
    g_error_free (error);
  } else if (WIFSIGNALED (status) || (WIFEXITED (status) && WEXITSTATUS (status) > 128
          && WEXITSTATUS (status) != 137)) {
    /* coreutils' timeout dies of the signal its command died of */
    int sig = WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status) - 128;
    if (sig == SIGALRM)
      g_snprintf (why, len, "nvof-bench stopped by its own time limit for a config (a call that never returned)");
    else
      g_snprintf (why, len, "nvof-bench died of signal %d (%s)", sig, g_strsignal (sig));
    if (hung)
      *hung = sig == SIGALRM;
  } else if (WIFEXITED (status) && (WEXITSTATUS (status) == 124 || WEXITSTATUS (status) == 137)) {
    g_snprintf (why, len, "nvof-bench did not finish in %s s (timeout)%s", limit, WEXITSTATUS (status) == 137 ?
        " and was killed" : "");
    if (hung)
      *hung = TRUE;
  } else if (!WIFEXITED (status) || WEXITSTATUS (status) != 0) {
    g_snprintf (why, len, "nvof-bench exited with status %d", WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  } else {
    ok = TRUE;
  }
  g_ptr_array_free (argv, TRUE);
  g_free (limit);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* the engine */

void
gcvb_nvof_peer (int device, gboolean skipped, GcvbNvof * n)
{
  gchar *dev = g_strdup_printf ("%d", device), *out = NULL;
  const char *args[] = { "caps", dev, NULL };
  char why[256];

  memset (n, 0, sizeof (*n));
  n->n_grids = -1;
  if (skipped) {
    g_strlcpy (n->state, "skipped", sizeof (n->state));
    g_strlcpy (n->detail, "--skip nvofa", sizeof (n->detail));
  } else if (!spawn_nvof_bench (args, 90, &out, NULL, why, sizeof (why))) {
    g_strlcpy (n->state, "unknown", sizeof (n->state));
    g_strlcpy (n->detail, why, sizeof (n->detail));
  } else {
    gchar **lines = g_strsplit (out, "\n", -1);
    g_strlcpy (n->state, "unknown", sizeof (n->state));
    g_strlcpy (n->detail, "nvof-bench caps said nothing", sizeof (n->detail));
    for (int i = 0; lines[i] != NULL; i++) {
      gchar **f = g_strsplit (lines[i], "\t", -1);
      guint nf = g_strv_length (f);
      if (nf >= 3 && strcmp (f[0], "state") == 0) {
        g_strlcpy (n->state, f[1], sizeof (n->state));
        g_strlcpy (n->detail, f[2], sizeof (n->detail));
      } else if (nf == 2 && strcmp (f[0], "grids") == 0 && strcmp (f[1], "?") != 0) {
        gchar **g = g_strsplit (f[1], ",", -1);
        n->n_grids = 0;
        for (int k = 0; g[k] != NULL && n->n_grids < GCVB_NVOF_MAX_GRIDS; k++)
          n->grids[n->n_grids++] = atoi (g[k]);
        g_strfreev (g);
      } else if (nf == 5 && strcmp (f[0], "size") == 0) {
        for (int k = 0; k < 4; k++)
          n->size[k] = atoi (f[k + 1]);
      }
      g_strfreev (f);
    }
    g_strfreev (lines);
  }
  g_print ("GPU peer:   NVIDIA's optical-flow engine (NVOFA; Optical Flow API 3.0, the driver's "
      "libnvidia-opticalflow.so.1, through nvof-bench; --skip nvofa): %s: %s", n->state, n->detail);
  if (gcvb_nvof_present (n)) {
    g_print ("; output grids ");
    if (n->n_grids < 0)
      g_print ("not answered");
    for (int i = 0; i < n->n_grids; i++)
      g_print ("%s%d", i ? ", " : "", n->grids[i]);
    if (n->size[2] > 0)
      g_print ("; frames %dx%d to %dx%d", n->size[0], n->size[1], n->size[2], n->size[3]);
  }
  g_print ("\n");
  g_free (dev);
  g_free (out);
}

gboolean
gcvb_nvof_present (const GcvbNvof * n)
{
  return strcmp (n->state, "present") == 0;
}

void
gcvb_json_nvof (GString * s, const GcvbNvof * n, const int *grids, int n_grids, const int *perfs, int n_perfs)
{
  g_string_append (s, ", \"nvofa\": {\"state\": ");
  gcvb_json_str (s, n->state);
  g_string_append (s, ", \"detail\": ");
  gcvb_json_str (s, n->detail);
  g_string_append (s, ", \"grids\": ");
  if (n->n_grids < 0) {
    g_string_append (s, "null");
  } else {
    g_string_append (s, "[");
    for (int i = 0; i < n->n_grids; i++)
      g_string_append_printf (s, "%s%d", i ? ", " : "", n->grids[i]);
    g_string_append (s, "]");
  }
  g_string_append_printf (s, ", \"sizes\": [%d, %d, %d, %d]}", n->size[0], n->size[1], n->size[2], n->size[3]);
  g_string_append (s, ", \"nvofa_grids\": [");
  for (int i = 0; i < n_grids; i++)
    g_string_append_printf (s, "%s%d", i ? ", " : "", grids[i]);
  g_string_append (s, "], \"nvofa_perf\": [");
  for (int i = 0; i < n_perfs; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? ", " : "", gcvb_nvof_perf_name (perfs[i]));
  g_string_append (s, "]");
}

gboolean
gcvb_nvof_configs (const GcvbNvof * n, const char *grids_opt, const char *perf_opt, int *grids, int *n_grids,
    int *perfs, int *n_perfs)
{
  GPtrArray *list;
  gboolean ok = TRUE;

  *n_grids = *n_perfs = 0;
  if (grids_opt == NULL && n->n_grids > 0) {
    for (int i = 0; i < n->n_grids && *n_grids < GCVB_NVOF_MAX_GRIDS; i++)
      if (n->grids[i] == 1 || n->grids[i] == 2 || n->grids[i] == 4 || n->grids[i] == 8)
        grids[(*n_grids)++] = n->grids[i];
  } else {
    list = gcvb_split_list (grids_opt, "1,2,4,8");
    for (guint i = 0; ok && i < list->len; i++) {
      int g = atoi (g_ptr_array_index (list, i));
      if ((g != 1 && g != 2 && g != 4 && g != 8) || *n_grids >= GCVB_NVOF_MAX_GRIDS) {
        g_printerr ("error: --nvofa-grids: '%s' is not one of 1, 2, 4, 8\n", (const char *) g_ptr_array_index (list,
                i));
        ok = FALSE;
      } else {
        grids[(*n_grids)++] = g;
      }
    }
    g_ptr_array_unref (list);
  }
  list = gcvb_split_list (perf_opt, "slow,medium,fast");
  for (guint i = 0; ok && i < list->len; i++) {
    int k;
    if (!GCVB_PARSE_INDEX (g_ptr_array_index (list, i), gcvb_nvof_perfs, &k) || *n_perfs >= 3) {
      g_printerr ("error: --nvofa-perf: '%s' is not one of slow, medium, fast\n",
          (const char *) g_ptr_array_index (list, i));
      ok = FALSE;
    } else {
      perfs[(*n_perfs)++] = gcvb_nvof_perfs[k].value;
    }
  }
  g_ptr_array_unref (list);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* a run */

void
gcvb_nvof_job_init (GcvbNvofJob * j, int width, int height, size_t stride, int n_frames, guint8 * const *frames,
    int warmup, int runs)
{
  memset (j, 0, sizeof (*j));
  j->width = width;
  j->height = height;
  j->stride = stride;
  j->n_frames = n_frames;
  j->frames = frames;
  j->warmup = warmup;
  j->runs = runs;
  j->time = g_array_new (FALSE, FALSE, sizeof (GcvbNvofPair));
  j->flow = g_array_new (FALSE, FALSE, sizeof (GcvbNvofPair));
}

void
gcvb_nvof_job_add (GArray * pairs, int in, int ref, gboolean no_hints)
{
  GcvbNvofPair p = { in, ref, no_hints };

  g_array_append_val (pairs, p);
}

void
gcvb_nvof_job_clear (GcvbNvofJob * j)
{
  if (j->time)
    g_array_unref (j->time);
  if (j->flow)
    g_array_unref (j->flow);
  memset (j, 0, sizeof (*j));
}

void
gcvb_nvof_run_name (const GcvbNvofRun * r, char *buf, size_t len)
{
  g_snprintf (buf, len, "g%d %s", r->grid, gcvb_nvof_perf_name (r->perf));
}

static void
write_job (const GcvbNvofJob * job, int device, const char *dir, const char *frames, const GcvbNvofRun * runs,
    const int *todo, int n_todo, int limit_s, const char *path)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "device %d\nsize %d %d\nframes %s %d\nwarmup %d\nruns %d\nout %s\nlimit %d\n",
      device, job->width, job->height, frames, job->n_frames, job->warmup, job->runs, dir, limit_s);
  for (int i = 0; i < n_todo; i++)
    g_string_append_printf (s, "config %d %d\n", runs[todo[i]].grid, runs[todo[i]].perf);
  for (guint i = 0; i < job->time->len; i++) {
    const GcvbNvofPair *p = &g_array_index (job->time, GcvbNvofPair, i);
    g_string_append_printf (s, "time %d %d %d\n", p->in, p->ref, p->no_hints ? 1 : 0);
  }
  for (guint i = 0; i < job->flow->len; i++) {
    const GcvbNvofPair *p = &g_array_index (job->flow, GcvbNvofPair, i);
    g_string_append_printf (s, "flow %d %d %d\n", p->in, p->ref, p->no_hints ? 1 : 0);
  }
  g_file_set_contents (path, s->str, s->len, NULL);
  g_string_free (s, TRUE);
}

static GcvbNvofRun *
find_run (GcvbNvofRun * runs, int n, int grid, int perf)
{
  for (int i = 0; i < n; i++)
    if (runs[i].grid == grid && runs[i].perf == perf)
      return &runs[i];
  return NULL;
}

/* A row of result.tsv into its run; the flows from their file. */
static void
parse_row (gchar ** f, GcvbNvofRun * r, const char *dir)
{
  g_strlcpy (r->state, f[3], sizeof (r->state));
  g_strlcpy (r->why, strcmp (f[4], "-") == 0 ? "" : f[4], sizeof (r->why));
  r->ev_ms = g_ascii_strtod (f[5], NULL);
  r->wall_ms = g_ascii_strtod (f[6], NULL);
  r->ev_mean_ms = g_ascii_strtod (f[7], NULL);
  r->wall_mean_ms = g_ascii_strtod (f[8], NULL);
  r->count = atoi (f[9]);
  r->cols = atoi (f[10]);
  r->rows = atoi (f[11]);
  r->n_flows = atoi (f[12]);
  r->setup_ms = g_ascii_strtod (f[13], NULL);
  r->first_ms = g_ascii_strtod (f[14], NULL);
  if (strcmp (r->state, "ok") == 0 && r->n_flows > 0) {
    gchar *path = g_strdup_printf ("%s/flow-g%d-p%d.bin", dir, r->grid, r->perf), *data = NULL;
    gsize size = 0;
    gsize want = (gsize) r->n_flows * r->cols * r->rows * 2 * sizeof (gint16);
    if (!g_file_get_contents (path, &data, &size, NULL) || size != want) {
      g_strlcpy (r->state, "failed", sizeof (r->state));
      g_snprintf (r->why, sizeof (r->why), "%s: %" G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, path, size, want);
      g_free (data);
      r->n_flows = 0;
    } else {
      r->flows = (gint16 *) data;
    }
    g_unlink (path);
    g_free (path);
  }
}

/* Once nvof-bench hung, the process runs it no more (each try would cost
 * its time limit again): why, else "". */
static char hung_before[600];

GcvbNvofRun *
gcvb_nvof_run (const GcvbNvof * n, int device, const GcvbNvofJob * job, const int *grids, int n_grids,
    const int *perfs, int n_perfs)
{
  const int n_runs = n_grids * n_perfs;
  GcvbNvofRun *runs = g_new0 (GcvbNvofRun, MAX (n_runs, 1));
  gchar *dir = g_dir_make_tmp ("gcvb-nvof-XXXXXX", NULL);
  gchar *frames = dir ? g_build_filename (dir, "frames.raw", NULL) : NULL;
  gchar *job_path = dir ? g_build_filename (dir, "job", NULL) : NULL;
  gchar *res_path = dir ? g_build_filename (dir, "result.tsv", NULL) : NULL;
  int *todo = g_new (int, MAX (n_runs, 1)), n_todo = 0;
  GcvbFrameSet fs;
  GError *error = NULL;
  char why[512] = "";

  for (int gi = 0; gi < n_grids; gi++)
    for (int pi = 0; pi < n_perfs; pi++) {
      GcvbNvofRun *r = &runs[gi * n_perfs + pi];
      r->grid = grids[gi];
      r->perf = perfs[pi];
      g_strlcpy (r->state, "failed", sizeof (r->state));
      r->ev_ms = r->wall_ms = r->ev_mean_ms = r->wall_mean_ms = r->setup_ms = r->first_ms = NAN;
    }
  if (!gcvb_nvof_present (n)) {
    for (int i = 0; i < n_runs; i++) {
      g_strlcpy (runs[i].state, "skipped", sizeof (runs[i].state));
      g_snprintf (runs[i].why, sizeof (runs[i].why), "engine %s: %s", n->state, n->detail);
    }
    goto done;
  }
  if (hung_before[0]) {
    for (int i = 0; i < n_runs; i++)
      g_snprintf (runs[i].why, sizeof (runs[i].why), "not run: nvof-bench hung before (%s)", hung_before);
    goto done;
  }
  memset (&fs, 0, sizeof (fs));
  fs.width = job->width;
  fs.height = job->height;
  fs.channels = 1;
  fs.stride = job->stride;
  fs.size = job->stride * job->height;
  fs.n = job->n_frames;
  fs.frames = (guint8 **) job->frames;
  if (dir == NULL || !gcvb_write_frames (&fs, frames, &error)) {
    g_snprintf (why, sizeof (why), "cannot write the frames for nvof-bench: %s", error ? error->message :
        "no temporary directory");
    g_clear_error (&error);
    for (int i = 0; i < n_runs; i++)
      g_strlcpy (runs[i].why, why, sizeof (runs[i].why));
    goto done;
  }
  for (int i = 0; i < n_runs; i++)
    todo[n_todo++] = i;
  while (n_todo > 0) {
    const char *args[] = { "run", job_path, NULL };
    double executes = (double) (job->time->len ? job->warmup + job->runs : 0) + job->flow->len;
    /* a config: a session, its buffers, uploads and executes (an H200's
     * engine takes milliseconds an execute) */
    int config_limit = (int) (30 + 0.1 * executes);
    gboolean ran, hung;
    gchar *text = NULL, **lines;
    GcvbNvofRun *begun = NULL;
    int left = 0;

    g_unlink (res_path);
    write_job (job, device, dir, frames, runs, todo, n_todo, config_limit, job_path);
    ran = spawn_nvof_bench (args, 30 + 1.5 * config_limit * n_todo, NULL, &hung, why, sizeof (why));
    if (g_file_get_contents (res_path, &text, NULL, NULL)) {
      lines = g_strsplit (text, "\n", -1);
      for (int i = 0; lines[i] != NULL; i++) {
        gchar **f = g_strsplit (lines[i], "\t", -1);
        guint nf = g_strv_length (f);
        GcvbNvofRun *r = nf >= 3 ? find_run (runs, n_runs, atoi (f[1]), atoi (f[2])) : NULL;
        if (r != NULL && strcmp (f[0], "begin") == 0) {
          begun = r;
        } else if (r != NULL && strcmp (f[0], "row") == 0 && nf == 15) {
          parse_row (f, r, dir);
          r->count = r->count < 0 ? 0 : r->count;
          if (begun == r)
            begun = NULL;
          for (int k = 0; k < n_todo; k++)
            if (&runs[todo[k]] == r)
              todo[k] = -1;
        }
        g_strfreev (f);
      }
      g_strfreev (lines);
      g_free (text);
    }
    /* the config it died in, and those it never reached: run again after
     * a crash (it may be that config's), not after a hang (it would cost
     * the limit again and again) */
    if (begun != NULL) {
      g_snprintf (begun->why, sizeof (begun->why), "%s", ran ? "nvof-bench ended without its row" : why);
      for (int k = 0; k < n_todo; k++)
        if (todo[k] >= 0 && &runs[todo[k]] == begun)
          todo[k] = -1;
    }
    for (int k = 0; k < n_todo; k++)
      if (todo[k] >= 0)
        todo[left++] = todo[k];
    if (left == n_todo || ran || hung) {
      char name[32] = "";
      if (begun != NULL)
        gcvb_nvof_run_name (begun, name, sizeof (name));
      if (hung)
        g_snprintf (hung_before, sizeof (hung_before), "%dx%d %s: %s", job->width, job->height, name, why);
      for (int k = 0; k < left; k++) {
        if (ran)
          g_strlcpy (runs[todo[k]].why, "nvof-bench gave no row", sizeof (runs[todo[k]].why));
        else if (hung && begun != NULL)
          g_snprintf (runs[todo[k]].why, sizeof (runs[todo[k]].why), "not run: nvof-bench hung in %s", name);
        else
          g_strlcpy (runs[todo[k]].why, why, sizeof (runs[todo[k]].why));
      }
      left = 0;
    }
    n_todo = left;
  }
done:
  for (int i = 0; i < n_runs; i++) {
    GcvbNvofRun *r = &runs[i];
    char name[32];
    gcvb_nvof_run_name (r, name, sizeof (name));
    if (strcmp (r->state, "ok") == 0 && r->count == 0)
      g_printerr ("  nvofa %dx%d %-9s %d flows, setup %.1f ms, first execute %.3f ms\n", job->width, job->height, name,
          r->n_flows, r->setup_ms, r->first_ms);
    else if (strcmp (r->state, "ok") == 0)
      g_printerr ("  nvofa %dx%d %-9s %10.4f ms (events, median of %d), wall %.4f ms, setup %.1f ms, first "
          "execute %.3f ms\n", job->width, job->height, name, r->ev_ms, r->count, r->wall_ms, r->setup_ms,
          r->first_ms);
    else
      g_printerr ("  nvofa %dx%d %-9s %s: %s\n", job->width, job->height, name, r->state, r->why);
  }
  if (dir != NULL) {
    g_unlink (frames);
    g_unlink (job_path);
    g_unlink (res_path);
    g_rmdir (dir);
  }
  g_free (todo);
  g_free (frames);
  g_free (job_path);
  g_free (res_path);
  g_free (dir);
  return runs;
}

const char *
gcvb_nvof_timing_note (const GcvbNvofRun * r)
{
  static char buf[200];

  buf[0] = '\0';
  if (r->count > 0 && r->ev_ms < 0.25 * r->wall_ms && r->wall_ms - r->ev_ms > 0.05)
    g_snprintf (buf, sizeof (buf), "CHECK: the events (%.4f ms) see far less than the host's clock (%.4f ms): the "
        "engine's work may not be in stream order, read wall", r->ev_ms, r->wall_ms);
  return buf;
}

void
gcvb_nvof_runs_free (GcvbNvofRun * runs, int n)
{
  for (int i = 0; runs != NULL && i < n; i++)
    g_free (runs[i].flows);
  g_free (runs);
}

/* ------------------------------------------------------------------------ */
/* flows */

void
gcvb_nvof_cell (const GcvbNvofRun * r, int k, int cx, int cy, double *fx, double *fy)
{
  const gint16 *v = r->flows + (((gsize) k * r->rows + cy) * r->cols + cx) * 2;

  *fx = v[0] / 32.0;
  *fy = v[1] / 32.0;
}

void
gcvb_nvof_at (const GcvbNvofRun * r, int k, double x, double y, double *fx, double *fy)
{
  int cx = CLAMP ((int) floor ((x + 0.5) / r->grid), 0, r->cols - 1);
  int cy = CLAMP ((int) floor ((y + 0.5) / r->grid), 0, r->rows - 1);

  gcvb_nvof_cell (r, k, cx, cy, fx, fy);
}

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

void
gcvb_nvof_block_median (const GcvbNvofRun * r, int k, int x0, int y0, int w, int h, double *fx, double *fy)
{
  const int g = r->grid;
  int cx0 = (x0 + g - 1) / g, cy0 = (y0 + g - 1) / g;
  int cx1 = MIN ((x0 + w) / g, r->cols), cy1 = MIN ((y0 + h) / g, r->rows);     /* exclusive */
  int n = MAX (cx1 - cx0, 0) * MAX (cy1 - cy0, 0), i = 0;
  double *vx, *vy;

  if (n == 0) {
    gcvb_nvof_at (r, k, x0 + (w - 1) / 2.0, y0 + (h - 1) / 2.0, fx, fy);
    return;
  }
  vx = g_new (double, n);
  vy = g_new (double, n);
  for (int cy = cy0; cy < cy1; cy++)
    for (int cx = cx0; cx < cx1; cx++, i++)
      gcvb_nvof_cell (r, k, cx, cy, &vx[i], &vy[i]);
  qsort (vx, n, sizeof (double), cmp_double);
  qsort (vy, n, sizeof (double), cmp_double);
  *fx = n % 2 ? vx[n / 2] : 0.5 * (vx[n / 2 - 1] + vx[n / 2]);
  *fy = n % 2 ? vy[n / 2] : 0.5 * (vy[n / 2 - 1] + vy[n / 2]);
  g_free (vx);
  g_free (vy);
}

/* ------------------------------------------------------------------------ */
/* endpoint errors */

#define EPE_BINS_PER_PX 256
#define EPE_BINS (64 * EPE_BINS_PER_PX + 1)

void
gcvb_epe_add (GcvbEpe * a, double fx, double fy, double tx, double ty)
{
  double e = hypot (fx - tx, fy - ty);

  if (a->bins == NULL)
    a->bins = g_new0 (guint32, EPE_BINS);
  a->bins[MIN ((int) (e * EPE_BINS_PER_PX), EPE_BINS - 1)]++;
  a->n++;
  a->sum += e;
  a->sum_reversed += hypot (fx + tx, fy + ty);
}

void
gcvb_epe_merge (GcvbEpe * a, const GcvbEpe * b)
{
  if (b->n == 0)
    return;
  if (a->bins == NULL)
    a->bins = g_new0 (guint32, EPE_BINS);
  for (int i = 0; i < EPE_BINS; i++)
    a->bins[i] += b->bins[i];
  a->n += b->n;
  a->sum += b->sum;
  a->sum_reversed += b->sum_reversed;
}

double
gcvb_epe_mean (const GcvbEpe * a)
{
  return a->n ? a->sum / a->n : NAN;
}

double
gcvb_epe_quantile (const GcvbEpe * a, double q)
{
  guint64 want, seen = 0;

  if (a->n == 0)
    return NAN;
  want = (guint64) ceil (q * a->n);
  want = MAX (want, 1);
  for (int i = 0; i < EPE_BINS; i++) {
    seen += a->bins[i];
    if (seen >= want)
      return (i + 0.5) / EPE_BINS_PER_PX;
  }
  return 64;
}

void
gcvb_epe_clear (GcvbEpe * a)
{
  g_free (a->bins);
  memset (a, 0, sizeof (*a));
}

const char *
gcvb_epe_reversed_note (const GcvbEpe * a)
{
  static char buf[160];

  buf[0] = '\0';
  if (a->n > 0 && a->sum / a->n > 0.5 && a->sum_reversed < 0.5 * a->sum)
    g_snprintf (buf, sizeof (buf), "the flow looks REVERSED: mean error %.2f px against the negated truth",
        a->sum_reversed / a->n);
  return buf;
}
