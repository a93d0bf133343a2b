/* gst-cuda-video: does this GPU have NVIDIA's optical-flow engine (NVOFA)?
 * The motion benchmarks' GPU peer would be NVIDIA's Optical Flow SDK,
 * which the driver exposes through libnvidia-opticalflow.so.1 (the SDK's
 * programming guide: loaded at run time, its entry point
 * NvOFAPICreateInstanceCuda fills a table of functions, the first of
 * which, nvCreateOpticalFlowCuda, opens a session on a CUDA context and
 * fails on a GPU without the engine).
 *
 *   nvof-probe [DEVICE]
 *
 * prints one line, tab-separated: "present", "absent" or "unknown", then
 * what was seen.  It runs as a process of its own (gcvb_nvof_probe), so
 * that nothing it calls can take a benchmark down: the API's structures
 * beyond the entry point and the first function are not declared here
 * (no SDK header is used), and the function table is given far more room
 * than the SDK's.  The CUDA context comes from the driver API, loaded at
 * run time too (libcuda.so.1: cuInit, cuDeviceGet,
 * cuDevicePrimaryCtxRetain, cuCtxSetCurrent), so the probe is plain C and
 * built in every configuration.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*CreateInstanceFn) (uint32_t api_version, void *function_table);
typedef int (*CreateSessionFn) (void *cu_context, void **session);
typedef int (*CuInitFn) (unsigned flags);
typedef int (*CuDeviceGetFn) (int *device, int ordinal);
typedef int (*CuPrimaryCtxRetainFn) (void **context, int device);
typedef int (*CuCtxSetCurrentFn) (void *context);

/* The device's primary context, made current; NULL with why. */
static void *
cuda_context (int ordinal, char *why, size_t why_len)
{
  void *cuda = dlopen ("libcuda.so.1", RTLD_NOW);
  CuInitFn init = cuda ? (CuInitFn) dlsym (cuda, "cuInit") : NULL;
  CuDeviceGetFn get = cuda ? (CuDeviceGetFn) dlsym (cuda, "cuDeviceGet") : NULL;
  CuPrimaryCtxRetainFn retain = cuda ? (CuPrimaryCtxRetainFn) dlsym (cuda, "cuDevicePrimaryCtxRetain") : NULL;
  CuCtxSetCurrentFn set = cuda ? (CuCtxSetCurrentFn) dlsym (cuda, "cuCtxSetCurrent") : NULL;
  void *ctx = NULL;
  int dev = 0, r;

  if (init == NULL || get == NULL || retain == NULL || set == NULL) {
    snprintf (why, why_len, "no NVIDIA driver (libcuda.so.1): %s", cuda ? "symbols missing" : dlerror ());
    return NULL;
  }
  if ((r = init (0)) != 0 || (r = get (&dev, ordinal)) != 0 || (r = retain (&ctx, dev)) != 0 || (r = set (ctx)) != 0) {
    snprintf (why, why_len, "no CUDA device %d (CUresult %d)", ordinal, r);
    return NULL;
  }
  return ctx;
}

int
main (int argc, char **argv)
{
  /* the SDK's API versions, (major << 4) | minor, newest first */
  static const uint32_t versions[] = { 0x52, 0x51, 0x50, 0x40, 0x30, 0x20, 0x10 };
  const int device = argc > 1 ? atoi (argv[1]) : 0;
  void *table[256] = { NULL }, *ctx, *session = NULL, *of;
  CreateInstanceFn create;
  int status = -1;
  uint32_t used = 0;
  char why[256];

  alarm (60);                   /* never a hang */
  of = dlopen ("libnvidia-opticalflow.so.1", RTLD_NOW);
  if (of == NULL) {
    printf ("absent\tno libnvidia-opticalflow.so.1 (the driver's Optical Flow library): %s\n", dlerror ());
    return 0;
  }
  create = (CreateInstanceFn) dlsym (of, "NvOFAPICreateInstanceCuda");
  if (create == NULL) {
    printf ("unknown\tlibnvidia-opticalflow.so.1 has no NvOFAPICreateInstanceCuda\n");
    return 0;
  }
  if ((ctx = cuda_context (device, why, sizeof (why))) == NULL) {
    printf ("unknown\t%s\n", why);
    return 0;
  }
  for (size_t i = 0; i < sizeof (versions) / sizeof (versions[0]); i++) {
    status = create (versions[i], table);
    if (status == 0) {
      used = versions[i];
      break;
    }
  }
  if (status != 0 || table[0] == NULL) {
    printf ("unknown\tNvOFAPICreateInstanceCuda refused API versions 5.2 .. 1.0 (status %d)\n", status);
    return 0;
  }
  status = ((CreateSessionFn) table[0]) (ctx, &session);
  /* NV_OF_STATUS: 0 success, 1 NV_OF_ERR_OF_NOT_AVAILABLE, 2
   * NV_OF_ERR_UNSUPPORTED_DEVICE (no engine, or not this GPU) */
  if (status == 0)
    printf ("present\tnvCreateOpticalFlowCuda opened a session on device %d (API %u.%u)\n", device,
        used >> 4, used & 15);
  else if (status == 1 || status == 2)
    printf ("absent\tnvCreateOpticalFlowCuda on device %d: %s (API %u.%u)\n", device, status == 1
        ? "NV_OF_ERR_OF_NOT_AVAILABLE" : "NV_OF_ERR_UNSUPPORTED_DEVICE", used >> 4, used & 15);
  else
    printf ("unknown\tnvCreateOpticalFlowCuda on device %d: NV_OF_STATUS %d (API %u.%u)\n", device, status,
        used >> 4, used & 15);
  return 0;
}
