/* gst-cuda-video: a test double of the driver's libnvidia-opticalflow.so.1
 * and of the part of libcuda.so.1 that nvof-bench calls, on the host (the
 * "device" memory is malloc'ed), for running nvof-bench and the motion
 * benchmarks' NVOFA rows on a machine without a GPU:
 *
 *   GCVB_NVOF_LIBRARY=.../libgcvb-nvof-mock.so \
 *   GCVB_NVOF_CUDA_LIBRARY=.../libgcvb-nvof-mock.so GCVB_NVOF_MOCK=... nvof-bench caps
 *
 * It checks what nvof-bench passes as the documented API requires (the
 * version, the init parameters, the buffers, the execute parameters) and
 * answers NV_OF_ERR_INVALID_PARAM where something is off.  GCVB_NVOF_MOCK,
 * comma-separated, says how it behaves (default: an engine with grids 1, 2
 * and 4, 32x32 .. 4096x4096, every flow vector 0):
 *   no-device       cuInit fails (CUDA_ERROR_NO_DEVICE)
 *   old-api         NvOFAPICreateInstanceCuda refuses the version
 *   no-engine       nvCreateOpticalFlowCuda: NV_OF_ERR_OF_NOT_AVAILABLE
 *   no-caps         nvOFGetCaps: NV_OF_ERR_NOT_INITIALIZED
 *   grids=1:2:4     the output grids offered
 *   min=WxH max=WxH the sizes taken (nvOFInit refuses others)
 *   flow=X:Y        every vector (X, Y) pixels
 *   fail-init, fail-exec   the call fails (NV_OF_ERR_GENERIC, with a last error)
 *   crash-exec      nvOFExecute dies of SIGSEGV
 *   hang-exec       nvOFExecute never returns
 *   slow=MS         nvOFExecute takes MS milliseconds (of the host's clock)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvof-abi.h"

#define EXPORT __attribute__ ((visibility ("default")))

typedef struct {
  int no_device, old_api, no_engine, no_caps, fail_init, fail_exec, crash_exec, hang_exec;
  int n_grids;
  uint32_t grids[8];
  uint32_t min_w, min_h, max_w, max_h;
  double fx, fy, slow_ms;
} Mock;

static Mock mock;
static int mock_read;

static const Mock *
get_mock (void)
{
  const char *env = getenv ("GCVB_NVOF_MOCK");
  char *copy, *tok, *save = NULL;

  if (mock_read)
    return &mock;
  mock_read = 1;
  mock.n_grids = 3;
  mock.grids[0] = 1, mock.grids[1] = 2, mock.grids[2] = 4;
  mock.min_w = mock.min_h = 32;
  mock.max_w = mock.max_h = 4096;
  copy = strdup (env ? env : "");
  for (tok = strtok_r (copy, ",", &save); tok != NULL; tok = strtok_r (NULL, ",", &save)) {
    if (strcmp (tok, "no-device") == 0)
      mock.no_device = 1;
    else if (strcmp (tok, "old-api") == 0)
      mock.old_api = 1;
    else if (strcmp (tok, "no-engine") == 0)
      mock.no_engine = 1;
    else if (strcmp (tok, "no-caps") == 0)
      mock.no_caps = 1;
    else if (strcmp (tok, "fail-init") == 0)
      mock.fail_init = 1;
    else if (strcmp (tok, "fail-exec") == 0)
      mock.fail_exec = 1;
    else if (strcmp (tok, "crash-exec") == 0)
      mock.crash_exec = 1;
    else if (strcmp (tok, "hang-exec") == 0)
      mock.hang_exec = 1;
    else if (strncmp (tok, "grids=", 6) == 0) {
      char *p = tok + 6;
      mock.n_grids = 0;
      while (*p && mock.n_grids < 8) {
        mock.grids[mock.n_grids++] = (uint32_t) strtoul (p, &p, 10);
        if (*p == ':')
          p++;
        else
          break;
      }
    } else if (strncmp (tok, "min=", 4) == 0)
      sscanf (tok + 4, "%ux%u", &mock.min_w, &mock.min_h);
    else if (strncmp (tok, "max=", 4) == 0)
      sscanf (tok + 4, "%ux%u", &mock.max_w, &mock.max_h);
    else if (strncmp (tok, "flow=", 5) == 0)
      sscanf (tok + 5, "%lf:%lf", &mock.fx, &mock.fy);
    else if (strncmp (tok, "slow=", 5) == 0)
      mock.slow_ms = atof (tok + 5);
  }
  free (copy);
  return &mock;
}

static double
now_ms (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* ------------------------------------------------------------------------ */
/* libcuda.so.1 */

static int cuda_ready;

EXPORT int
cuInit (unsigned flags)
{
  if (flags != 0)
    return 1;                   /* CUDA_ERROR_INVALID_VALUE */
  if (get_mock ()->no_device)
    return 100;                 /* CUDA_ERROR_NO_DEVICE */
  cuda_ready = 1;
  return 0;
}

EXPORT int
cuDriverGetVersion (int *v)
{
  *v = 13000;
  return 0;
}

EXPORT int
cuDeviceGet (int *device, int ordinal)
{
  if (!cuda_ready)
    return 3;                   /* CUDA_ERROR_NOT_INITIALIZED */
  if (ordinal != 0)
    return 101;                 /* CUDA_ERROR_INVALID_DEVICE */
  *device = 0;
  return 0;
}

EXPORT int
cuDeviceGetName (char *name, int len, int device)
{
  (void) device;
  snprintf (name, (size_t) len, "nvof mock");
  return 0;
}

static int the_context;

EXPORT int
cuDevicePrimaryCtxRetain (void **ctx, int device)
{
  (void) device;
  *ctx = &the_context;
  return 0;
}

EXPORT int
cuCtxSetCurrent (void *ctx)
{
  return ctx == &the_context ? 0 : 201;        /* CUDA_ERROR_INVALID_CONTEXT */
}

EXPORT int
cuStreamCreate (void **stream, unsigned flags)
{
  (void) flags;
  *stream = malloc (1);
  return 0;
}

EXPORT int
cuStreamSynchronize (void *stream)
{
  (void) stream;
  return 0;
}

EXPORT int
cuStreamDestroy_v2 (void *stream)
{
  free (stream);
  return 0;
}

EXPORT int
cuEventCreate (void **event, unsigned flags)
{
  (void) flags;
  *event = calloc (1, sizeof (double));
  return 0;
}

EXPORT int
cuEventRecord (void *event, void *stream)
{
  (void) stream;
  *(double *) event = now_ms ();
  return 0;
}

EXPORT int
cuEventSynchronize (void *event)
{
  (void) event;
  return 0;
}

EXPORT int
cuEventElapsedTime (float *ms, void *start, void *end)
{
  *ms = (float) (*(double *) end - *(double *) start);
  return 0;
}

EXPORT int
cuEventDestroy_v2 (void *event)
{
  free (event);
  return 0;
}

EXPORT int
cuMemcpy2D_v2 (const GcvbCuCopy2D * c)
{
  const unsigned char *src = c->src_type == GCVB_CU_MEMORY_HOST ? c->src_host : (const void *) (uintptr_t) c->src_device;
  unsigned char *dst = c->dst_type == GCVB_CU_MEMORY_HOST ? c->dst_host : (void *) (uintptr_t) c->dst_device;

  if (src == NULL || dst == NULL || c->src_pitch < c->width_bytes || c->dst_pitch < c->width_bytes
      || c->src_array || c->dst_array)
    return 1;
  for (size_t y = 0; y < c->height; y++)
    memcpy (dst + (c->dst_y + y) * c->dst_pitch + c->dst_x_bytes, src + (c->src_y + y) * c->src_pitch
        + c->src_x_bytes, c->width_bytes);
  return 0;
}

EXPORT int
cuGetErrorName (int error, const char **name)
{
  *name = error == 100 ? "CUDA_ERROR_NO_DEVICE" : error == 1 ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_UNKNOWN";
  return 0;
}

/* ------------------------------------------------------------------------ */
/* libnvidia-opticalflow.so.1 */

struct GcvbOfSession_ {
  int inited;
  GcvbOfInit init;
  char last[128];
};

struct GcvbOfBuffer_ {
  GcvbOfBufferDesc desc;
  GcvbOfHandle of;
  unsigned char *mem;
  size_t pitch;
};

static int
fail (GcvbOfHandle of, int status, const char *what)
{
  if (of != NULL)
    snprintf (of->last, sizeof (of->last), "mock: %s", what);
  return status;
}

static int
mock_create (void *ctx, GcvbOfHandle * of)
{
  if (ctx != &the_context || of == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (get_mock ()->no_engine)
    return GCVB_OF_ERR_OF_NOT_AVAILABLE;
  *of = calloc (1, sizeof (**of));
  return GCVB_OF_SUCCESS;
}

static int
grid_offered (uint32_t g)
{
  for (int i = 0; i < mock.n_grids; i++)
    if (mock.grids[i] == g)
      return 1;
  return 0;
}

static int
mock_init (GcvbOfHandle of, const GcvbOfInit * p)
{
  if (of == NULL || p == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (of->inited)
    return fail (of, GCVB_OF_ERR_INVALID_CALL, "initialised twice");
  if (mock.fail_init)
    return fail (of, GCVB_OF_ERR_GENERIC, "fail-init");
  if (p->mode != GCVB_OF_MODE_OPTICAL_FLOW || p->reserved != NULL || p->hint_grid != 0 || p->external_hints
      || p->output_cost || p->disparity_range || p->roi || p->direction != GCVB_OF_DIRECTION_FORWARD
      || p->global_flow || p->input_format != GCVB_OF_FORMAT_GRAY8)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "unexpected init parameters");
  if (p->perf_level != GCVB_OF_PERF_SLOW && p->perf_level != GCVB_OF_PERF_MEDIUM && p->perf_level != GCVB_OF_PERF_FAST)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "perf level");
  if (!grid_offered (p->out_grid))
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "output grid");
  if (p->width < mock.min_w || p->height < mock.min_h || p->width > mock.max_w || p->height > mock.max_h)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "size out of range");
  of->init = *p;
  of->inited = 1;
  return GCVB_OF_SUCCESS;
}

static int
mock_create_buffer (GcvbOfHandle of, const GcvbOfBufferDesc * d, uint32_t type, GcvbOfBuffer * out)
{
  GcvbOfBuffer b;
  uint32_t g;

  if (of == NULL || d == NULL || out == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (!of->inited)
    return fail (of, GCVB_OF_ERR_NOT_INITIALIZED, "buffer before init");
  g = of->init.out_grid;
  if (type != GCVB_OF_CUDA_DEVICE_POINTER)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "buffer type");
  if (d->usage == GCVB_OF_USAGE_INPUT) {
    if (d->format != GCVB_OF_FORMAT_GRAY8 || d->width != of->init.width || d->height != of->init.height)
      return fail (of, GCVB_OF_ERR_INVALID_PARAM, "input buffer");
  } else if (d->usage == GCVB_OF_USAGE_OUTPUT) {
    if (d->format != GCVB_OF_FORMAT_SHORT2 || d->width != (of->init.width + g - 1) / g
        || d->height != (of->init.height + g - 1) / g)
      return fail (of, GCVB_OF_ERR_INVALID_PARAM, "output buffer");
  } else {
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "buffer usage");
  }
  b = calloc (1, sizeof (*b));
  b->desc = *d;
  b->of = of;
  b->pitch = ((size_t) d->width * (d->format == GCVB_OF_FORMAT_SHORT2 ? 4 : 1) + 255) / 256 * 256;
  b->mem = calloc (b->pitch, d->height);
  *out = b;
  return GCVB_OF_SUCCESS;
}

static void *
mock_buffer_array (GcvbOfBuffer b)
{
  (void) b;
  return NULL;
}

static unsigned long long
mock_buffer_pointer (GcvbOfBuffer b)
{
  return b ? (unsigned long long) (uintptr_t) b->mem : 0;
}

static int
mock_buffer_strides (GcvbOfBuffer b, GcvbOfStrides * s)
{
  if (b == NULL || s == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  memset (s, 0, sizeof (*s));
  s->plane[0].x_bytes = (uint32_t) b->pitch;
  s->plane[0].y_bytes = b->desc.height;
  s->n_planes = 1;
  return GCVB_OF_SUCCESS;
}

static int
mock_set_streams (GcvbOfHandle of, void *in, void *out)
{
  if (of == NULL || in == NULL || out == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  return GCVB_OF_SUCCESS;
}

static int
mock_execute (GcvbOfHandle of, const GcvbOfExecIn * in, GcvbOfExecOut * out)
{
  GcvbOfVector v;
  double t0 = now_ms ();

  if (of == NULL || in == NULL || out == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (!of->inited)
    return fail (of, GCVB_OF_ERR_NOT_INITIALIZED, "execute before init");
  if (in->input == NULL || in->reference == NULL || in->input->of != of || in->reference->of != of
      || in->input->desc.usage != GCVB_OF_USAGE_INPUT || in->reference->desc.usage != GCVB_OF_USAGE_INPUT
      || in->hints != NULL || in->no_temporal_hints > 1 || in->pad0 || in->reserved || in->pad1 || in->n_rois
      || in->rois)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "execute input parameters");
  if (out->flow == NULL || out->flow->of != of || out->flow->desc.usage != GCVB_OF_USAGE_OUTPUT || out->cost
      || out->reserved || out->backward_flow || out->backward_cost || out->global_flow)
    return fail (of, GCVB_OF_ERR_INVALID_PARAM, "execute output parameters");
  if (mock.fail_exec)
    return fail (of, GCVB_OF_ERR_GENERIC, "fail-exec");
  if (mock.crash_exec)
    raise (SIGSEGV);
  while (mock.hang_exec)
    pause ();
  v.x = (int16_t) lround (mock.fx * 32);
  v.y = (int16_t) lround (mock.fy * 32);
  for (uint32_t y = 0; y < out->flow->desc.height; y++)
    for (uint32_t x = 0; x < out->flow->desc.width; x++)
      memcpy (out->flow->mem + y * out->flow->pitch + x * sizeof (v), &v, sizeof (v));
  while (now_ms () - t0 < mock.slow_ms);
  return GCVB_OF_SUCCESS;
}

static int
mock_destroy_buffer (GcvbOfBuffer b)
{
  if (b == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  free (b->mem);
  free (b);
  return GCVB_OF_SUCCESS;
}

static int
mock_destroy (GcvbOfHandle of)
{
  if (of == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  free (of);
  return GCVB_OF_SUCCESS;
}

static int
mock_last_error (GcvbOfHandle of, char *text, uint32_t * size)
{
  if (of == NULL || text == NULL || size == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  snprintf (text, *size, "%s", of->last);
  *size = (uint32_t) strlen (text);
  return GCVB_OF_SUCCESS;
}

static int
mock_caps (GcvbOfHandle of, uint32_t what, uint32_t * values, uint32_t * n)
{
  uint32_t one;

  if (of == NULL || n == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (mock.no_caps)
    return GCVB_OF_ERR_NOT_INITIALIZED;
  switch (what) {
    case GCVB_OF_CAPS_OUTPUT_GRID_SIZES:
      if (values != NULL) {
        if (*n < (uint32_t) mock.n_grids)
          return GCVB_OF_ERR_INVALID_PARAM;
        memcpy (values, mock.grids, sizeof (uint32_t) * mock.n_grids);
      }
      *n = (uint32_t) mock.n_grids;
      return GCVB_OF_SUCCESS;
    case GCVB_OF_CAPS_WIDTH_MIN:
      one = mock.min_w;
      break;
    case GCVB_OF_CAPS_HEIGHT_MIN:
      one = mock.min_h;
      break;
    case GCVB_OF_CAPS_WIDTH_MAX:
      one = mock.max_w;
      break;
    case GCVB_OF_CAPS_HEIGHT_MAX:
      one = mock.max_h;
      break;
    default:
      return GCVB_OF_ERR_INVALID_PARAM;
  }
  if (values != NULL)
    values[0] = one;
  *n = 1;
  return GCVB_OF_SUCCESS;
}

EXPORT int
NvOFGetMaxSupportedApiVersion (uint32_t * version)
{
  *version = get_mock ()->old_api ? 0x20 : 0x50;
  return GCVB_OF_SUCCESS;
}

EXPORT int
NvOFAPICreateInstanceCuda (uint32_t version, void *table)
{
  GcvbOfCudaApi *fn = table;

  if (table == NULL)
    return GCVB_OF_ERR_INVALID_PTR;
  if (get_mock ()->old_api ? version > 0x20 : version > 0x50)
    return GCVB_OF_ERR_INVALID_VERSION;
  fn->create = mock_create;
  fn->init = mock_init;
  fn->create_buffer = mock_create_buffer;
  fn->buffer_array = mock_buffer_array;
  fn->buffer_pointer = mock_buffer_pointer;
  fn->buffer_strides = mock_buffer_strides;
  fn->set_streams = mock_set_streams;
  fn->execute = mock_execute;
  fn->destroy_buffer = mock_destroy_buffer;
  fn->destroy = mock_destroy;
  fn->last_error = mock_last_error;
  fn->caps = mock_caps;
  return GCVB_OF_SUCCESS;
}
