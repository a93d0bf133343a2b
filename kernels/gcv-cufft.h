/* gst-cuda-video: cuFFT loaded at run time.
 *
 * The plugin never links cuFFT: it must keep loading (and its CPU elements
 * keep working) where no CUDA library is installed, and cuFFT is large.
 * gcv_cufft_get() dlopens libcufft.so.12, then .so.11, then libcufft.so,
 * once per process (thread-safe), and hands out the entry points the
 * kernels use.  Types come from the toolkit's cufft.h (header only).
 * For the .cu files of kernels/ only.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CUFFT_H
#define GCV_CUFFT_H

#include <cufft.h>

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *library;          /* the name dlopen accepted, e.g. "libcufft.so.12" */
  int version;                  /* cufftGetVersion (), e.g. 12000; 0 if unknown */
  cufftResult (*create) (cufftHandle * plan);
  cufftResult (*set_auto_allocation) (cufftHandle plan, int auto_allocate);
  cufftResult (*make_plan_many) (cufftHandle plan, int rank, int *n, int *inembed, int istride,
      int idist, int *onembed, int ostride, int odist, cufftType type, int batch, size_t * work_size);
  /* NULL in libraries that lack it; then sizes must fit an int */
  cufftResult (*make_plan_many64) (cufftHandle plan, int rank, long long int *n,
      long long int *inembed, long long int istride, long long int idist, long long int *onembed,
      long long int ostride, long long int odist, cufftType type, long long int batch,
      size_t * work_size);
  cufftResult (*make_plan_3d) (cufftHandle plan, int nx, int ny, int nz, cufftType type,
      size_t * work_size);
  cufftResult (*get_size) (cufftHandle plan, size_t * work_size);
  cufftResult (*set_work_area) (cufftHandle plan, void *work_area);
  cufftResult (*set_stream) (cufftHandle plan, cudaStream_t stream);
  cufftResult (*exec_r2c) (cufftHandle plan, cufftReal * in, cufftComplex * out);
  cufftResult (*exec_c2r) (cufftHandle plan, cufftComplex * in, cufftReal * out);
  cufftResult (*destroy) (cufftHandle plan);
} GcvCufft;

/* The loaded library, or NULL with err set (GCV_ERROR_INVALID, "cuFFT could
 * not be loaded (dlopen libcufft.so.12: <dlerror>; ...)").  The first call
 * loads it; later calls return the same answer at once. */
const GcvCufft *gcv_cufft_get (GcvError * err);

/* "CUFFT_ALLOC_FAILED" ... */
const char *gcv_cufft_result_name (cufftResult r);

/* A GcvStatus for a cuFFT result: CUFFT_ALLOC_FAILED is GCV_ERROR_NO_MEMORY,
 * bad sizes and values GCV_ERROR_INVALID, the rest GCV_ERROR_CUDA. */
GcvStatus gcv_cufft_status (cufftResult r);

#ifdef __cplusplus
}
#endif

/* GCV_CUFFT_TRY (call, err, "what"): on failure fills err with "what
 * failed: CUFFT_...(n) (file:line)" and returns its GcvStatus from the
 * enclosing function. */
#define GCV_CUFFT_TRY(call, err, what) do {                                         \
    cufftResult _r = (call);                                                        \
    if (_r != CUFFT_SUCCESS) {                                                      \
      GcvStatus _st = gcv_cufft_status (_r);                                        \
      gcv_error_set ((err), _st, "%s failed: %s (%d) (%s:%d)", (what),              \
          gcv_cufft_result_name (_r), (int) _r, __FILE__, __LINE__);                \
      return _st;                                                                   \
    }                                                                               \
  } while (0)

#endif /* GCV_CUFFT_H */
