/* gst-cuda-video: cuFFT loaded with dlopen (see gcv-cufft.h).
 *
 * libcufft.so.12 is cuFFT of CUDA 12.x and 13.x, .so.11 that of CUDA 11.x,
 * the unversioned name a toolkit's development link.  A library found
 * without one of the entry points used here counts as not found.  The
 * handle is kept for the life of the process (cuFFT keeps device state
 * that must not be unloaded under live plans).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gcv-cufft.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static GcvCufft cufft;
static int loaded;
static char load_error[480];

/* Typed dlsym: the pointer types are those of cufft.h's declarations. */
template <typename F> static bool
find_symbol (void *lib, const char *name, F * out)
{
  void *p = dlsym (lib, name);
  *out = (F) p;
  return p != NULL;
}

static bool
bind_all (void *lib, const char **missing)
{
#define GCV_BIND(field, name) \
  if (!find_symbol (lib, name, &cufft.field)) { *missing = name; return false; }
  GCV_BIND (create, "cufftCreate");
  GCV_BIND (set_auto_allocation, "cufftSetAutoAllocation");
  GCV_BIND (make_plan_many, "cufftMakePlanMany");
  GCV_BIND (make_plan_3d, "cufftMakePlan3d");
  GCV_BIND (get_size, "cufftGetSize");
  GCV_BIND (set_work_area, "cufftSetWorkArea");
  GCV_BIND (set_stream, "cufftSetStream");
  GCV_BIND (exec_r2c, "cufftExecR2C");
  GCV_BIND (exec_c2r, "cufftExecC2R");
  GCV_BIND (destroy, "cufftDestroy");
#undef GCV_BIND
  /* optional */
  find_symbol (lib, "cufftMakePlanMany64", &cufft.make_plan_many64);
  return true;
}

static void
append_error (size_t * used, const char *fmt, const char *a, const char *b)
{
  int n;
  if (*used >= sizeof (load_error) - 1)
    return;
  n = snprintf (load_error + *used, sizeof (load_error) - *used, fmt, *used ? "; " : "", a, b);
  if (n > 0)
    *used += (size_t) n;
}

static void
load (void)
{
  static const char *const names[] = { "libcufft.so.12", "libcufft.so.11", "libcufft.so" };
  size_t used = 0;

  load_error[0] = '\0';
  for (size_t i = 0; i < sizeof (names) / sizeof (names[0]); i++) {
    const char *missing = NULL;
    void *lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
      const char *why = dlerror ();
      append_error (&used, "%sdlopen %s: %s", names[i], why ? why : "unknown error");
      continue;
    }
    if (!bind_all (lib, &missing)) {
      append_error (&used, "%s%s has no %s", names[i], missing);
      memset (&cufft, 0, sizeof (cufft));
      dlclose (lib);
      continue;
    }
    cufftResult (*get_version) (int *) = NULL;
    cufft.library = names[i];
    if (find_symbol (lib, "cufftGetVersion", &get_version) && get_version (&cufft.version) != CUFFT_SUCCESS)
      cufft.version = 0;
    loaded = 1;
    return;
  }
}

extern "C" const GcvCufft *
gcv_cufft_get (GcvError * err)
{
  pthread_once (&load_once, load);
  if (loaded)
    return &cufft;
  gcv_error_set (err, GCV_ERROR_INVALID, "cuFFT could not be loaded (%s)", load_error);
  return NULL;
}

extern "C" const char *
gcv_cufft_result_name (cufftResult r)
{
  switch (r) {
#define GCV_NAME(x) case x: return #x;
      GCV_NAME (CUFFT_SUCCESS);
      GCV_NAME (CUFFT_INVALID_PLAN);
      GCV_NAME (CUFFT_ALLOC_FAILED);
      GCV_NAME (CUFFT_INVALID_TYPE);
      GCV_NAME (CUFFT_INVALID_VALUE);
      GCV_NAME (CUFFT_INTERNAL_ERROR);
      GCV_NAME (CUFFT_EXEC_FAILED);
      GCV_NAME (CUFFT_SETUP_FAILED);
      GCV_NAME (CUFFT_INVALID_SIZE);
      GCV_NAME (CUFFT_UNALIGNED_DATA);
      GCV_NAME (CUFFT_INVALID_DEVICE);
      GCV_NAME (CUFFT_NO_WORKSPACE);
      GCV_NAME (CUFFT_NOT_IMPLEMENTED);
      GCV_NAME (CUFFT_NOT_SUPPORTED);
      GCV_NAME (CUFFT_MISSING_DEPENDENCY);
#undef GCV_NAME
    default:
      return "CUFFT error";
  }
}

extern "C" GcvStatus
gcv_cufft_status (cufftResult r)
{
  switch (r) {
    case CUFFT_SUCCESS:
      return GCV_OK;
    case CUFFT_ALLOC_FAILED:
      return GCV_ERROR_NO_MEMORY;
    case CUFFT_INVALID_SIZE:
    case CUFFT_INVALID_VALUE:
    case CUFFT_INVALID_TYPE:
    case CUFFT_UNALIGNED_DATA:
      return GCV_ERROR_INVALID;
    case CUFFT_INVALID_DEVICE:
      return GCV_ERROR_NO_DEVICE;
    default:
      return GCV_ERROR_CUDA;
  }
}
