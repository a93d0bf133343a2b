/* gst-cuda-video: NVIDIA's optical-flow engine (NVOFA) timed and read
 * back on frames the motion benchmarks give it: their GPU peer.
 *
 *   nvof-bench caps [DEVICE]
 *   nvof-bench run JOB
 *
 * A process of its own, run by bench-motionest and bench-vcm (bench_nvof.c,
 * under coreutils' timeout), so that nothing the driver does can take a
 * benchmark down: a crash, a hang or an error here is a row that says why.
 * Plain C, built in every configuration: the driver's libraries are loaded
 * at run time (libnvidia-opticalflow.so.1 and libcuda.so.1, or the files
 * named by GCVB_NVOF_LIBRARY and GCVB_NVOF_CUDA_LIBRARY: the tests' double,
 * nvof_mock.c), declared in nvof-abi.h from NVIDIA's documentation.
 *
 * caps: prints tab-separated lines
 *   state  present|absent|unknown  <what was seen>
 *   grids  1,2,4                   (the output grids the engine offers, ? unknown)
 *   size   WMIN HMIN WMAX HMAX     (the frame sizes it takes, 0 unknown)
 * absent: no library, or nvCreateOpticalFlowCuda says the GPU has no
 * engine; unknown: anything else that went wrong (the NV_OF_STATUS or
 * CUresult named).
 *
 * run: JOB is a text file, one item a line:
 *   device N
 *   size W H
 *   frames FILE N        N GRAY8 frames of W x H, packed, one after the other
 *   warmup N             untimed executes before the timed ones
 *   runs N               timed executes
 *   config GRID PERF     a session each (perf 5 slow, 10 medium, 20 fast)
 *   time IN REF NOHINTS  the timed pairs, cycled through for warmup + runs
 *   flow IN REF NOHINTS  executed after the timed ones, in order, the flow
 *                        of each written
 *   out DIR
 *   limit S              seconds a config may take: then SIGALRM ends the
 *                        program (a hung driver call), 0 none
 * Each config gets a session of its own: nvCreateOpticalFlowCuda on the
 * device's primary context, nvOFInit (W x H, the grid, the perf level,
 * GRAY8 in, forward flow, no hints, no cost), an input buffer per frame and
 * one output buffer (CUdeviceptr buffers; frames uploaded once), input and
 * output on one stream of ours.  An execute is timed by CUDA events
 * recorded on that stream around nvOFExecute (what the engine's work takes
 * in stream order) and by the host's clock from the call to the event's
 * completion; each waits for its end.  IN and REF are frame indices: the
 * flow of each pixel of IN into REF (NV_OF_PRED_DIRECTION_FORWARD).
 * NOHINTS 1 sets disableTemporalHints (a new sequence starts: the
 * previous execute's flow is no hint).  DIR/result.tsv gets, flushed as
 * they come:
 *   begin  GRID PERF
 *   row    GRID PERF ok|skipped|failed WHY EV_MEDIAN WALL_MEDIAN EV_MEAN
 *          WALL_MEAN COUNT COLS ROWS FLOWS SETUP_MS FIRST_MS
 * (ms; nan where none), and DIR/flow-gGRID-pPERF.bin the flows: per flow
 * line COLS x ROWS vectors, two int16 each (x, y in 1/32 pixel, S10.5),
 * rows top to bottom.  A size or grid the engine refuses is "skipped".
 *
 * Exit status 0 when the job was read (rows may still say skipped or
 * failed), 2 on a usage or job error.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvof-abi.h"

#define MAX_CONFIGS 32
#define MAX_PAIRS 4096

static const char *const of_status_names[GCVB_OF_N_STATUS] = {
  "NV_OF_SUCCESS", "NV_OF_ERR_OF_NOT_AVAILABLE", "NV_OF_ERR_UNSUPPORTED_DEVICE",
  "NV_OF_ERR_DEVICE_DOES_NOT_EXIST", "NV_OF_ERR_INVALID_PTR", "NV_OF_ERR_INVALID_PARAM",
  "NV_OF_ERR_INVALID_CALL", "NV_OF_ERR_INVALID_VERSION", "NV_OF_ERR_OUT_OF_MEMORY",
  "NV_OF_ERR_NOT_INITIALIZED", "NV_OF_ERR_UNSUPPORTED_FEATURE", "NV_OF_ERR_GENERIC",
};

static const char *
of_status (int s)
{
  static char buf[4][32];
  static int k;

  if (s >= 0 && s < GCVB_OF_N_STATUS)
    return of_status_names[s];
  k = (k + 1) % 4;
  snprintf (buf[k], sizeof (buf[k]), "NV_OF_STATUS %d", s);
  return buf[k];
}

/* ------------------------------------------------------------------------ */
/* the driver */

#define DECLARE_CU(name, ret, args) static ret (*p_##name) args;
GCVB_CU_FUNCTIONS (DECLARE_CU)
#undef DECLARE_CU

typedef struct {
  GcvbOfCudaApi of;
  void *ctx;
  int device;
  char name[128];
  int driver;                   /* cuDriverGetVersion */
  uint32_t max_api;             /* NvOFGetMaxSupportedApiVersion, 0 unknown */
} Engine;

static const char *
cu_error (int r)
{
  static char buf[4][64];
  static int k;
  const char *name = NULL;

  k = (k + 1) % 4;
  if (p_cuGetErrorName != NULL && p_cuGetErrorName (r, &name) == 0 && name != NULL)
    snprintf (buf[k], sizeof (buf[k]), "%s", name);
  else
    snprintf (buf[k], sizeof (buf[k]), "CUresult %d", r);
  return buf[k];
}

static void *
open_library (const char *env, const char *soname, char *why, size_t len, const char *what)
{
  const char *path = getenv (env) && *getenv (env) ? getenv (env) : soname;
  void *lib = dlopen (path, RTLD_NOW | RTLD_LOCAL);

  if (lib == NULL)
    snprintf (why, len, "no %s (%s): %s", path, what, dlerror ());
  return lib;
}

/* The engine's entry points and the device's primary context.  1 ready,
 * 0 absent (no library), -1 unknown (why says). */
static int
engine_open (Engine * e, int device, char *why, size_t len)
{
  void *of_lib, *cuda;
  GcvbOfCreateInstanceFn create;
  GcvbOfMaxApiVersionFn max_api;
  GcvbOfCudaTable table;
  int r, dev = 0;

  memset (e, 0, sizeof (*e));
  e->device = device;
  of_lib = open_library ("GCVB_NVOF_LIBRARY", "libnvidia-opticalflow.so.1", why, len,
      "the driver's Optical Flow library");
  if (of_lib == NULL)
    return 0;
  create = (GcvbOfCreateInstanceFn) dlsym (of_lib, "NvOFAPICreateInstanceCuda");
  max_api = (GcvbOfMaxApiVersionFn) dlsym (of_lib, "NvOFGetMaxSupportedApiVersion");
  if (create == NULL) {
    snprintf (why, len, "the Optical Flow library has no NvOFAPICreateInstanceCuda");
    return -1;
  }
  cuda = open_library ("GCVB_NVOF_CUDA_LIBRARY", "libcuda.so.1", why, len, "the NVIDIA driver");
  if (cuda == NULL)
    return -1;
#define LOAD_CU(name, ret, args) \
  if ((p_##name = (ret (*) args) dlsym (cuda, #name)) == NULL) { \
    snprintf (why, len, "the NVIDIA driver (libcuda.so.1) has no %s", #name); \
    return -1; \
  }
  GCVB_CU_FUNCTIONS (LOAD_CU)
#undef LOAD_CU
  if ((r = p_cuInit (0)) != 0 || (r = p_cuDeviceGet (&dev, device)) != 0) {
    snprintf (why, len, "no CUDA device %d (%s)", device, cu_error (r));
    return -1;
  }
  p_cuDriverGetVersion (&e->driver);
  if (p_cuDeviceGetName (e->name, sizeof (e->name) - 1, dev) != 0)
    snprintf (e->name, sizeof (e->name), "?");
  if ((r = p_cuDevicePrimaryCtxRetain (&e->ctx, dev)) != 0 || (r = p_cuCtxSetCurrent (e->ctx)) != 0) {
    snprintf (why, len, "device %d's primary context: %s", device, cu_error (r));
    return -1;
  }
  if (max_api != NULL && max_api (&e->max_api) != GCVB_OF_SUCCESS)
    e->max_api = 0;
  memset (&table, 0, sizeof (table));
  r = create (GCVB_OF_API_VERSION, &table);
  if (r != GCVB_OF_SUCCESS) {
    if (e->max_api)
      snprintf (why, len, "NvOFAPICreateInstanceCuda (API 3.0): %s (the driver's newest API: %u.%u)", of_status (r),
          e->max_api >> 4, e->max_api & 15);
    else
      snprintf (why, len, "NvOFAPICreateInstanceCuda (API 3.0): %s", of_status (r));
    return -1;
  }
  e->of = table.fn;
  if (e->of.create == NULL || e->of.init == NULL || e->of.create_buffer == NULL || e->of.buffer_pointer == NULL
      || e->of.buffer_strides == NULL || e->of.set_streams == NULL || e->of.execute == NULL
      || e->of.destroy_buffer == NULL || e->of.destroy == NULL || e->of.last_error == NULL || e->of.caps == NULL) {
    snprintf (why, len, "NvOFAPICreateInstanceCuda (API 3.0) left entries of the function table empty");
    return -1;
  }
  return 1;
}

static void
describe_engine (const Engine * e, char *buf, size_t len)
{
  char api[48] = "";

  if (e->max_api)
    snprintf (api, sizeof (api), ", the driver's newest %u.%u", e->max_api >> 4, e->max_api & 15);
  snprintf (buf, len, "device %d (%s), CUDA driver %d.%d, Optical Flow API 3.0%s", e->device, e->name,
      e->driver / 1000, e->driver % 1000 / 10, api);
}

/* " (last error: ...)" from nvOFGetLastError, or "" */
static const char *
last_error (const Engine * e, GcvbOfHandle h)
{
  static char out[320];
  char text[256] = "";
  uint32_t size = sizeof (text) - 1;

  out[0] = '\0';
  if (h != NULL && e->of.last_error (h, text, &size) == GCVB_OF_SUCCESS) {
    text[sizeof (text) - 1] = '\0';
    for (char *p = text; *p; p++)
      if (*p == '\t' || *p == '\n' || *p == '\r')
        *p = ' ';
    if (text[0])
      snprintf (out, sizeof (out), " (last error: %s)", text);
  }
  return out;
}

/* ------------------------------------------------------------------------ */
/* capabilities */

typedef struct {
  int n_grids;                  /* -1 unknown */
  uint32_t grids[8];
  uint32_t size[4];             /* width min, height min, width max, height max; 0 unknown */
  char note[256];
} Caps;

/* One capability (nvOFGetCaps' two calls: how many, then the values). */
static int
query_cap (const Engine * e, GcvbOfHandle h, uint32_t what, uint32_t * values, uint32_t room, uint32_t * n)
{
  int r;

  *n = 0;
  if ((r = e->of.caps (h, what, NULL, n)) != GCVB_OF_SUCCESS)
    return r;
  if (*n == 0 || *n > room)
    return GCVB_OF_ERR_GENERIC;
  return e->of.caps (h, what, values, n);
}

/* A session for the question: 1 present (caps filled as far as the engine
 * answers), 0 absent, -1 unknown. */
static int
engine_caps (const Engine * e, Caps * c, char *why, size_t len)
{
  static const uint32_t size_caps[4] = { GCVB_OF_CAPS_WIDTH_MIN, GCVB_OF_CAPS_HEIGHT_MIN, GCVB_OF_CAPS_WIDTH_MAX,
    GCVB_OF_CAPS_HEIGHT_MAX
  };
  GcvbOfHandle h = NULL;
  uint32_t n = 0, v[8];
  int r;

  memset (c, 0, sizeof (*c));
  c->n_grids = -1;
  r = e->of.create (e->ctx, &h);
  if (r == GCVB_OF_ERR_OF_NOT_AVAILABLE || r == GCVB_OF_ERR_UNSUPPORTED_DEVICE) {
    snprintf (why, len, "nvCreateOpticalFlowCuda on device %d: %s (no optical-flow engine, or not one this API "
        "drives)", e->device, of_status (r));
    return 0;
  }
  if (r != GCVB_OF_SUCCESS || h == NULL) {
    snprintf (why, len, "nvCreateOpticalFlowCuda on device %d: %s", e->device, of_status (r));
    return -1;
  }
  r = query_cap (e, h, GCVB_OF_CAPS_OUTPUT_GRID_SIZES, c->grids, 8, &n);
  if (r == GCVB_OF_SUCCESS) {
    c->n_grids = (int) n;
  } else {
    snprintf (c->note, sizeof (c->note), "output grids not answered (%s%s)", of_status (r), last_error (e, h));
  }
  for (int i = 0; i < 4; i++)
    if (query_cap (e, h, size_caps[i], v, 8, &n) == GCVB_OF_SUCCESS)
      c->size[i] = v[0];
  e->of.destroy (h);
  return 1;
}

static int
cmd_caps (int device)
{
  Engine e;
  Caps c;
  char why[512] = "", what[512];
  int state = engine_open (&e, device, why, sizeof (why));

  if (state == 1)
    state = engine_caps (&e, &c, why, sizeof (why));
  if (state != 1) {
    printf ("state\t%s\t%s\n", state == 0 ? "absent" : "unknown", why);
    return 0;
  }
  describe_engine (&e, what, sizeof (what));
  printf ("state\tpresent\t%s%s%s\n", what, c.note[0] ? "; " : "", c.note);
  printf ("grids\t");
  if (c.n_grids < 0)
    printf ("?");
  for (int i = 0; i < c.n_grids; i++)
    printf ("%s%u", i ? "," : "", c.grids[i]);
  printf ("\nsize\t%u\t%u\t%u\t%u\n", c.size[0], c.size[1], c.size[2], c.size[3]);
  return 0;
}

/* ------------------------------------------------------------------------ */
/* a job */

typedef struct {
  int in, ref, no_hints;
} Pair;

typedef struct {
  int device, width, height, n_frames, warmup, runs, limit_s;
  char frames_path[1024], out_dir[1024];
  int n_configs;
  int grid[MAX_CONFIGS], perf[MAX_CONFIGS];
  int n_time, n_flow;
  Pair time[MAX_PAIRS], flow[MAX_PAIRS];
  unsigned char *frames;
} Job;

static int
read_job (const char *path, Job * j)
{
  FILE *f = fopen (path, "r");
  char line[2048], key[32];
  long size;

  memset (j, 0, sizeof (*j));
  if (f == NULL) {
    fprintf (stderr, "nvof-bench: cannot read %s\n", path);
    return -1;
  }
  while (fgets (line, sizeof (line), f) != NULL) {
    Pair p;
    if (line[0] == '#' || sscanf (line, "%31s", key) != 1)
      continue;
    if (strcmp (key, "device") == 0 && sscanf (line, "%*s %d", &j->device) == 1)
      continue;
    if (strcmp (key, "size") == 0 && sscanf (line, "%*s %d %d", &j->width, &j->height) == 2)
      continue;
    if (strcmp (key, "frames") == 0 && sscanf (line, "%*s %1023s %d", j->frames_path, &j->n_frames) == 2)
      continue;
    if (strcmp (key, "warmup") == 0 && sscanf (line, "%*s %d", &j->warmup) == 1)
      continue;
    if (strcmp (key, "runs") == 0 && sscanf (line, "%*s %d", &j->runs) == 1)
      continue;
    if (strcmp (key, "limit") == 0 && sscanf (line, "%*s %d", &j->limit_s) == 1)
      continue;
    if (strcmp (key, "out") == 0 && sscanf (line, "%*s %1023s", j->out_dir) == 1)
      continue;
    if (strcmp (key, "config") == 0 && j->n_configs < MAX_CONFIGS
        && sscanf (line, "%*s %d %d", &j->grid[j->n_configs], &j->perf[j->n_configs]) == 2) {
      j->n_configs++;
      continue;
    }
    if ((strcmp (key, "time") == 0 || strcmp (key, "flow") == 0)
        && sscanf (line, "%*s %d %d %d", &p.in, &p.ref, &p.no_hints) == 3) {
      int *n = key[0] == 't' ? &j->n_time : &j->n_flow;
      if (*n < MAX_PAIRS && p.in >= 0 && p.ref >= 0) {
        (key[0] == 't' ? j->time : j->flow)[(*n)++] = p;
        continue;
      }
    }
    fprintf (stderr, "nvof-bench: %s: bad line: %s", path, line);
    fclose (f);
    return -1;
  }
  fclose (f);
  if (j->width < 1 || j->height < 1 || j->n_frames < 2 || j->out_dir[0] == '\0' || j->n_configs == 0
      || j->warmup < 0 || j->runs < 0) {
    fprintf (stderr, "nvof-bench: %s: size, frames (2 or more), out and a config are needed\n", path);
    return -1;
  }
  for (int i = 0; i < j->n_time + j->n_flow; i++) {
    const Pair *p = i < j->n_time ? &j->time[i] : &j->flow[i - j->n_time];
    if (p->in >= j->n_frames || p->ref >= j->n_frames) {
      fprintf (stderr, "nvof-bench: %s: a pair names frame %d of %d\n", path, p->in > p->ref ? p->in : p->ref,
          j->n_frames);
      return -1;
    }
  }
  size = (long) j->width * j->height * j->n_frames;
  f = fopen (j->frames_path, "rb");
  j->frames = malloc ((size_t) size);
  if (f == NULL || j->frames == NULL || fread (j->frames, 1, (size_t) size, f) != (size_t) size) {
    fprintf (stderr, "nvof-bench: %s: cannot read %ld bytes of frames\n", j->frames_path, size);
    if (f)
      fclose (f);
    return -1;
  }
  fclose (f);
  return 0;
}

static double
now_ms (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *v, int n)
{
  if (n == 0)
    return NAN;
  qsort (v, (size_t) n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double
mean (const double *v, int n)
{
  double s = 0;

  for (int i = 0; i < n; i++)
    s += v[i];
  return n ? s / n : NAN;
}

/* One config's session and what it holds. */
typedef struct {
  GcvbOfHandle h;
  GcvbOfBuffer *in, out;
  GcvbCuDevicePtr *in_ptr, out_ptr;
  size_t in_pitch, out_pitch;
  int cols, rows;
  void *stream, *e0, *e1;
} Session;

static void
session_free (const Engine * e, Session * s, int n_frames)
{
  if (s->stream)
    p_cuStreamSynchronize (s->stream);
  for (int i = 0; s->in != NULL && i < n_frames; i++)
    if (s->in[i])
      e->of.destroy_buffer (s->in[i]);
  if (s->out)
    e->of.destroy_buffer (s->out);
  if (s->h)
    e->of.destroy (s->h);
  if (s->e0)
    p_cuEventDestroy_v2 (s->e0);
  if (s->e1)
    p_cuEventDestroy_v2 (s->e1);
  if (s->stream)
    p_cuStreamDestroy_v2 (s->stream);
  free (s->in);
  free (s->in_ptr);
  memset (s, 0, sizeof (*s));
}

/* A buffer of the session and its device pointer and row pitch. */
static int
make_buffer (const Engine * e, Session * s, uint32_t w, uint32_t h, uint32_t usage, uint32_t format,
    size_t min_pitch, GcvbOfBuffer * buf, GcvbCuDevicePtr * ptr, size_t *pitch, char *why, size_t len)
{
  GcvbOfBufferDesc d = { w, h, usage, format };
  GcvbOfStrides st;
  int r;

  memset (&st, 0, sizeof (st));
  if ((r = e->of.create_buffer (s->h, &d, GCVB_OF_CUDA_DEVICE_POINTER, buf)) != GCVB_OF_SUCCESS || *buf == NULL) {
    snprintf (why, len, "nvOFCreateGPUBufferCuda (%ux%u, usage %u, format %u): %s%s", w, h, usage, format,
        of_status (r), last_error (e, s->h));
    return -1;
  }
  if ((*ptr = e->of.buffer_pointer (*buf)) == 0) {
    snprintf (why, len, "nvOFGPUBufferGetCUdeviceptr gave 0");
    return -1;
  }
  if ((r = e->of.buffer_strides (*buf, &st)) != GCVB_OF_SUCCESS) {
    snprintf (why, len, "nvOFGPUBufferGetStrideInfo: %s", of_status (r));
    return -1;
  }
  if (st.plane[0].x_bytes < min_pitch) {
    snprintf (why, len, "nvOFGPUBufferGetStrideInfo: row pitch %u bytes for rows of %zu (%u planes)",
        st.plane[0].x_bytes, min_pitch, st.n_planes);
    return -1;
  }
  *pitch = st.plane[0].x_bytes;
  return 0;
}

static int
copy_2d (const void *src_host, GcvbCuDevicePtr src_dev, size_t src_pitch, void *dst_host, GcvbCuDevicePtr dst_dev,
    size_t dst_pitch, size_t width_bytes, size_t height, char *why, size_t len)
{
  GcvbCuCopy2D c;
  int r;

  memset (&c, 0, sizeof (c));
  c.src_type = src_host ? GCVB_CU_MEMORY_HOST : GCVB_CU_MEMORY_DEVICE;
  c.src_host = src_host;
  c.src_device = src_dev;
  c.src_pitch = src_pitch;
  c.dst_type = dst_host ? GCVB_CU_MEMORY_HOST : GCVB_CU_MEMORY_DEVICE;
  c.dst_host = dst_host;
  c.dst_device = dst_dev;
  c.dst_pitch = dst_pitch;
  c.width_bytes = width_bytes;
  c.height = height;
  if ((r = p_cuMemcpy2D_v2 (&c)) != 0) {
    snprintf (why, len, "cuMemcpy2D (%zux%zu %s): %s", width_bytes, height, src_host ? "up" : "down", cu_error (r));
    return -1;
  }
  return 0;
}

/* One execute of pair p, waited for: the events' ms and the host's. */
static int
execute (const Engine * e, Session * s, const Pair * p, double *ev_ms, double *wall_ms, char *why, size_t len)
{
  GcvbOfExecIn in;
  GcvbOfExecOut out;
  float ms = 0;
  double t0;
  int r;

  memset (&in, 0, sizeof (in));
  memset (&out, 0, sizeof (out));
  in.input = s->in[p->in];
  in.reference = s->in[p->ref];
  in.no_temporal_hints = p->no_hints ? 1 : 0;
  out.flow = s->out;
  t0 = now_ms ();
  if ((r = p_cuEventRecord (s->e0, s->stream)) != 0) {
    snprintf (why, len, "cuEventRecord: %s", cu_error (r));
    return -1;
  }
  if ((r = e->of.execute (s->h, &in, &out)) != GCVB_OF_SUCCESS) {
    snprintf (why, len, "nvOFExecute (frames %d -> %d): %s%s", p->in, p->ref, of_status (r), last_error (e, s->h));
    return -1;
  }
  if ((r = p_cuEventRecord (s->e1, s->stream)) != 0 || (r = p_cuEventSynchronize (s->e1)) != 0) {
    snprintf (why, len, "after nvOFExecute: cuEventRecord / cuEventSynchronize: %s", cu_error (r));
    return -1;
  }
  *wall_ms = now_ms () - t0;
  if ((r = p_cuEventElapsedTime (&ms, s->e0, s->e1)) != 0) {
    snprintf (why, len, "cuEventElapsedTime: %s", cu_error (r));
    return -1;
  }
  *ev_ms = ms;
  return 0;
}

static void
row_out (FILE * res, int grid, int perf, const char *state, const char *why, double ev_med, double wall_med,
    double ev_mean, double wall_mean, int count, int cols, int rows, int flows, double setup_ms, double first_ms)
{
  fprintf (res, "row\t%d\t%d\t%s\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%d\t%d\t%d\t%d\t%.3f\t%.6f\n", grid, perf, state,
      why && *why ? why : "-", ev_med, wall_med, ev_mean, wall_mean, count, cols, rows, flows, setup_ms, first_ms);
  fflush (res);
}

static void
run_config (const Engine * e, const Caps * caps, const Job * j, int ci, FILE * res)
{
  const int grid = j->grid[ci], perf = j->perf[ci], total = j->warmup + j->runs;
  Session s;
  GcvbOfInit init;
  char why[1400] = "", path[1200];
  double *ev = calloc ((size_t) total + 1, sizeof (double)), *wall = calloc ((size_t) total + 1, sizeof (double));
  double setup0 = now_ms (), setup_ms = NAN, first_ms = NAN;
  int r, timed = 0, flows = 0, known = 0;
  FILE *flow_file = NULL;
  GcvbOfVector *vec = NULL;
  const char *state = "failed";

  fprintf (res, "begin\t%d\t%d\n", grid, perf);
  fflush (res);
  memset (&s, 0, sizeof (s));
  /* what the engine said it takes */
  for (int i = 0; i < caps->n_grids; i++)
    known |= caps->grids[i] == (uint32_t) grid;
  if (caps->n_grids >= 0 && !known) {
    snprintf (why, sizeof (why), "the engine offers no output grid %d (NV_OF_CAPS_SUPPORTED_OUTPUT_GRID_SIZES)", grid);
    state = "skipped";
    goto out;
  }
  if ((caps->size[0] && (uint32_t) j->width < caps->size[0]) || (caps->size[1] && (uint32_t) j->height < caps->size[1])
      || (caps->size[2] && (uint32_t) j->width > caps->size[2])
      || (caps->size[3] && (uint32_t) j->height > caps->size[3])) {
    snprintf (why, sizeof (why), "the engine takes %ux%u to %ux%u (NV_OF_CAPS_WIDTH/HEIGHT_MIN/MAX), not %dx%d",
        caps->size[0], caps->size[1], caps->size[2], caps->size[3], j->width, j->height);
    state = "skipped";
    goto out;
  }
  if ((r = e->of.create (e->ctx, &s.h)) != GCVB_OF_SUCCESS || s.h == NULL) {
    snprintf (why, sizeof (why), "nvCreateOpticalFlowCuda: %s", of_status (r));
    goto out;
  }
  memset (&init, 0, sizeof (init));
  init.width = (uint32_t) j->width;
  init.height = (uint32_t) j->height;
  init.out_grid = (uint32_t) grid;
  init.mode = GCVB_OF_MODE_OPTICAL_FLOW;
  init.perf_level = (uint32_t) perf;
  init.direction = GCVB_OF_DIRECTION_FORWARD;
  init.input_format = GCVB_OF_FORMAT_GRAY8;
  if ((r = e->of.init (s.h, &init)) != GCVB_OF_SUCCESS) {
    snprintf (why, sizeof (why), "nvOFInit (%dx%d, grid %d, perf %d): %s%s", j->width, j->height, grid, perf,
        of_status (r), last_error (e, s.h));
    /* a size, grid or level the engine refuses */
    if (r == GCVB_OF_ERR_INVALID_PARAM || r == GCVB_OF_ERR_UNSUPPORTED_FEATURE)
      state = "skipped";
    goto out;
  }
  s.cols = (j->width + grid - 1) / grid;
  s.rows = (j->height + grid - 1) / grid;
  s.in = calloc ((size_t) j->n_frames, sizeof (GcvbOfBuffer));
  s.in_ptr = calloc ((size_t) j->n_frames, sizeof (GcvbCuDevicePtr));
  vec = malloc ((size_t) s.cols * s.rows * sizeof (GcvbOfVector));
  if (s.in == NULL || s.in_ptr == NULL || vec == NULL || ev == NULL || wall == NULL) {
    snprintf (why, sizeof (why), "out of host memory");
    goto out;
  }
  for (int i = 0; i < j->n_frames; i++)
    if (make_buffer (e, &s, (uint32_t) j->width, (uint32_t) j->height, GCVB_OF_USAGE_INPUT, GCVB_OF_FORMAT_GRAY8,
            (size_t) j->width, &s.in[i], &s.in_ptr[i], &s.in_pitch, why, sizeof (why)) != 0
        || copy_2d (j->frames + (size_t) i * j->width * j->height, 0, (size_t) j->width, NULL, s.in_ptr[i],
            s.in_pitch, (size_t) j->width, (size_t) j->height, why, sizeof (why)) != 0)
      goto out;
  if (make_buffer (e, &s, (uint32_t) s.cols, (uint32_t) s.rows, GCVB_OF_USAGE_OUTPUT, GCVB_OF_FORMAT_SHORT2,
          (size_t) s.cols * sizeof (GcvbOfVector), &s.out, &s.out_ptr, &s.out_pitch, why, sizeof (why)) != 0)
    goto out;
  if ((r = p_cuStreamCreate (&s.stream, 0)) != 0 || (r = p_cuEventCreate (&s.e0, 0)) != 0
      || (r = p_cuEventCreate (&s.e1, 0)) != 0) {
    snprintf (why, sizeof (why), "cuStreamCreate / cuEventCreate: %s", cu_error (r));
    goto out;
  }
  if ((r = e->of.set_streams (s.h, s.stream, s.stream)) != GCVB_OF_SUCCESS) {
    snprintf (why, sizeof (why), "nvOFSetIOCudaStreams: %s%s", of_status (r), last_error (e, s.h));
    goto out;
  }
  setup_ms = now_ms () - setup0;
  /* the timed pairs: warm-up first */
  for (int i = 0; j->n_time > 0 && i < total; i++) {
    double a, b;
    if (execute (e, &s, &j->time[i % j->n_time], &a, &b, why, sizeof (why)) != 0)
      goto out;
    if (i == 0)
      first_ms = b;
    if (i >= j->warmup) {
      ev[timed] = a;
      wall[timed] = b;
      timed++;
    }
  }
  /* the flows */
  if (j->n_flow > 0) {
    snprintf (path, sizeof (path), "%s/flow-g%d-p%d.bin", j->out_dir, grid, perf);
    if ((flow_file = fopen (path, "wb")) == NULL) {
      snprintf (why, sizeof (why), "cannot write %s", path);
      goto out;
    }
  }
  for (int i = 0; i < j->n_flow; i++) {
    double a, b;
    if (execute (e, &s, &j->flow[i], &a, &b, why, sizeof (why)) != 0)
      goto out;
    if (j->n_time == 0 && i == 0)
      first_ms = b;
    if (copy_2d (NULL, s.out_ptr, s.out_pitch, vec, 0, (size_t) s.cols * sizeof (GcvbOfVector),
            (size_t) s.cols * sizeof (GcvbOfVector), (size_t) s.rows, why, sizeof (why)) != 0)
      goto out;
    if (fwrite (vec, sizeof (GcvbOfVector), (size_t) s.cols * s.rows, flow_file) != (size_t) s.cols * s.rows) {
      snprintf (why, sizeof (why), "cannot write %s", path);
      goto out;
    }
    flows++;
  }
  state = "ok";
  why[0] = '\0';
out:
  if (flow_file != NULL && fclose (flow_file) != 0 && strcmp (state, "ok") == 0) {
    snprintf (why, sizeof (why), "cannot write %s", path);
    state = "failed";
  }
  {
    double em = mean (ev, timed), wm = mean (wall, timed);
    double emed = median (ev, timed), wmed = median (wall, timed);
    row_out (res, grid, perf, state, why, emed, wmed, em, wm, timed, s.cols, s.rows, flows, setup_ms, first_ms);
  }
  session_free (e, &s, j->n_frames);
  free (vec);
  free (ev);
  free (wall);
}

static int
cmd_run (const char *job_path)
{
  static Job j;
  Engine e;
  Caps caps;
  char why[512] = "", path[1100];
  FILE *res;
  int state;

  if (read_job (job_path, &j) != 0)
    return 2;
  snprintf (path, sizeof (path), "%s/result.tsv", j.out_dir);
  if ((res = fopen (path, "a")) == NULL) {
    fprintf (stderr, "nvof-bench: cannot write %s\n", path);
    return 2;
  }
  state = engine_open (&e, j.device, why, sizeof (why));
  if (state == 1)
    state = engine_caps (&e, &caps, why, sizeof (why));
  if (state != 1) {
    for (int ci = 0; ci < j.n_configs; ci++)
      row_out (res, j.grid[ci], j.perf[ci], state == 0 ? "skipped" : "failed", why, NAN, NAN, NAN, NAN, 0, 0, 0, 0,
          NAN, NAN);
  } else {
    for (int ci = 0; ci < j.n_configs; ci++) {
      /* default action: the program ends, the benchmark names the config */
      alarm (j.limit_s > 0 ? (unsigned) j.limit_s : 0);
      run_config (&e, &caps, &j, ci, res);
      alarm (0);
    }
  }
  fclose (res);
  free (j.frames);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "caps") == 0)
    return cmd_caps (argc > 2 ? atoi (argv[2]) : 0);
  if (argc == 3 && strcmp (argv[1], "run") == 0)
    return cmd_run (argv[2]);
  fprintf (stderr, "usage: nvof-bench caps [DEVICE] | nvof-bench run JOB\n");
  return 2;
}
