/* gst-cuda-video: the one checking macro every .cu file uses.
 * GCV_CUDA_TRY (call, err, "what") evaluates a CUDA runtime call; on failure
 * it fills err with "what: cudaErrorName: string" and returns a GcvStatus
 * from the enclosing function.  Launches are followed by GCV_CUDA_LAUNCHED.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CUDA_CHECK_H
#define GCV_CUDA_CHECK_H

#include <cuda_runtime.h>
#include "gcv-image.h"

static inline GcvStatus
gcv_cuda_status (cudaError_t e)
{
  switch (e) {
    case cudaSuccess:
      return GCV_OK;
    case cudaErrorMemoryAllocation:
      return GCV_ERROR_NO_MEMORY;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:
    case cudaErrorDevicesUnavailable:
      return GCV_ERROR_NO_DEVICE;
    case cudaErrorInvalidValue:
      return GCV_ERROR_INVALID;
    default:
      return GCV_ERROR_CUDA;
  }
}

static inline GcvStatus
gcv_cuda_report (cudaError_t e, GcvError * err, const char *what, const char *file, int line)
{
  GcvStatus st = gcv_cuda_status (e);
  gcv_error_set (err, st, "%s failed: %s: %s (%s:%d)", what, cudaGetErrorName (e),
      cudaGetErrorString (e), file, line);
  /* a failed call (say, out of memory) also stays the thread's "last error",
   * which the next launch check would report again: it is handled now */
  cudaGetLastError ();
  return st;
}

#define GCV_CUDA_TRY(call, err, what) do {                                   \
    cudaError_t _e = (call);                                                 \
    if (_e != cudaSuccess)                                                   \
      return gcv_cuda_report (_e, (err), (what), __FILE__, __LINE__);        \
  } while (0)

#define GCV_CUDA_LAUNCHED(err, what) GCV_CUDA_TRY (cudaGetLastError (), err, what)

#endif
