/* gst-cuda-video: C wrapper over the CUDA runtime (see gcv-cuda.h).
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gcv-cuda.h"
#include "gcv-cuda-check.h"

#include <new>
#include <stdio.h>

struct _GcvCudaEvent
{
  cudaEvent_t ev;
};

extern "C" int
gcv_cuda_device_count (GcvError * err)
{
  int n = 0;
  cudaError_t e = cudaGetDeviceCount (&n);
  if (e != cudaSuccess) {
    if (e == cudaErrorInsufficientDriver || e == cudaErrorNoDevice)
      gcv_error_set (err, GCV_ERROR_NO_DEVICE, "no NVIDIA GPU usable: %s (%s: %s; this build "
          "needs an NVIDIA driver for CUDA %d.%d or newer)",
          e == cudaErrorNoDevice ? "no CUDA device found" : "no NVIDIA driver (libcuda.so.1) "
          "found, or it is too old", cudaGetErrorName (e), cudaGetErrorString (e),
          CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    else
      gcv_cuda_report (e, err, "cudaGetDeviceCount", __FILE__, __LINE__);
    cudaGetLastError ();        /* leave no error behind for the next call */
    return 0;
  }
  if (n == 0)
    gcv_error_set (err, GCV_ERROR_NO_DEVICE, "no CUDA device found");
  return n;
}

extern "C" GcvStatus
gcv_cuda_device_describe (int device, char *buf, size_t len, GcvError * err)
{
  cudaDeviceProp p;
  GCV_CUDA_TRY (cudaGetDeviceProperties (&p, device), err, "cudaGetDeviceProperties");
  snprintf (buf, len, "%s (sm_%d%d, %d SMs, %.1f GiB)", p.name, p.major, p.minor,
      p.multiProcessorCount, p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_mem_info (size_t * free_bytes, size_t * total_bytes, GcvError * err)
{
  GCV_CUDA_TRY (cudaMemGetInfo (free_bytes, total_bytes), err, "cudaMemGetInfo");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_set_device (int device, GcvError * err)
{
  GCV_CUDA_TRY (cudaSetDevice (device), err, "cudaSetDevice");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_stream_new (void **stream, GcvError * err)
{
  cudaStream_t s;
  GCV_CUDA_TRY (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking), err, "cudaStreamCreate");
  *stream = (void *) s;
  return GCV_OK;
}

extern "C" void
gcv_cuda_stream_free (void *stream)
{
  if (stream)
    cudaStreamDestroy ((cudaStream_t) stream);
}

extern "C" GcvStatus
gcv_cuda_stream_sync (void *stream, GcvError * err)
{
  GCV_CUDA_TRY (cudaStreamSynchronize ((cudaStream_t) stream), err, "cudaStreamSynchronize");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_malloc_2d (void **ptr, size_t * pitch, size_t row_bytes, size_t rows, GcvError * err)
{
  *ptr = NULL;
  GCV_CUDA_TRY (cudaMallocPitch (ptr, pitch, row_bytes, rows), err, "cudaMallocPitch");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_malloc (void **ptr, size_t bytes, GcvError * err)
{
  *ptr = NULL;
  GCV_CUDA_TRY (cudaMalloc (ptr, bytes), err, "cudaMalloc");
  return GCV_OK;
}

extern "C" void
gcv_cuda_free (void *ptr)
{
  if (ptr)
    cudaFree (ptr);
}

extern "C" GcvStatus
gcv_cuda_host_alloc (void **ptr, size_t bytes, GcvError * err)
{
  *ptr = NULL;
  GCV_CUDA_TRY (cudaHostAlloc (ptr, bytes, cudaHostAllocPortable), err, "cudaHostAlloc (pinned)");
  return GCV_OK;
}

extern "C" void
gcv_cuda_host_free (void *ptr)
{
  if (ptr)
    cudaFreeHost (ptr);
}

extern "C" int
gcv_cuda_host_is_pinned (const void *ptr)
{
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes (&attr, ptr) != cudaSuccess) {
    cudaGetLastError ();
    return 0;
  }
  return attr.type == cudaMemoryTypeHost;
}

extern "C" GcvStatus
gcv_cuda_upload_2d (void *dst, size_t dpitch, const void *src, size_t sstride, size_t row_bytes,
    size_t rows, void *stream, GcvError * err)
{
  GCV_CUDA_TRY (cudaMemcpy2DAsync (dst, dpitch, src, sstride, row_bytes, rows,
          cudaMemcpyHostToDevice, (cudaStream_t) stream), err, "cudaMemcpy2DAsync (upload)");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_download_2d (void *dst, size_t dstride, const void *src, size_t spitch, size_t row_bytes,
    size_t rows, void *stream, GcvError * err)
{
  GCV_CUDA_TRY (cudaMemcpy2DAsync (dst, dstride, src, spitch, row_bytes, rows,
          cudaMemcpyDeviceToHost, (cudaStream_t) stream), err, "cudaMemcpy2DAsync (download)");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_memset_2d (void *dst, size_t pitch, int value, size_t row_bytes, size_t rows, void *stream,
    GcvError * err)
{
  GCV_CUDA_TRY (cudaMemset2DAsync (dst, pitch, value, row_bytes, rows, (cudaStream_t) stream), err,
      "cudaMemset2DAsync");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_copy_2d (void *dst, size_t dpitch, const void *src, size_t spitch, size_t row_bytes, size_t rows,
    void *stream, GcvError * err)
{
  GCV_CUDA_TRY (cudaMemcpy2DAsync (dst, dpitch, src, spitch, row_bytes, rows, cudaMemcpyDefault,
          (cudaStream_t) stream), err, "cudaMemcpy2DAsync");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_event_new (GcvCudaEvent ** ev, GcvError * err)
{
  GcvCudaEvent *e = new (std::nothrow) GcvCudaEvent;
  if (e == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "out of host memory for a CUDA event");
    return GCV_ERROR_NO_MEMORY;
  }
  cudaError_t r = cudaEventCreate (&e->ev);
  if (r != cudaSuccess) {
    delete e;
    return gcv_cuda_report (r, err, "cudaEventCreate", __FILE__, __LINE__);
  }
  *ev = e;
  return GCV_OK;
}

extern "C" void
gcv_cuda_event_free (GcvCudaEvent * ev)
{
  if (ev) {
    cudaEventDestroy (ev->ev);
    delete ev;
  }
}

extern "C" GcvStatus
gcv_cuda_event_record (GcvCudaEvent * ev, void *stream, GcvError * err)
{
  GCV_CUDA_TRY (cudaEventRecord (ev->ev, (cudaStream_t) stream), err, "cudaEventRecord");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_event_sync (GcvCudaEvent * ev, GcvError * err)
{
  GCV_CUDA_TRY (cudaEventSynchronize (ev->ev), err, "cudaEventSynchronize");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_cuda_stream_wait_event (void *stream, GcvCudaEvent * ev, GcvError * err)
{
  GCV_CUDA_TRY (cudaStreamWaitEvent ((cudaStream_t) stream, ev->ev, 0), err, "cudaStreamWaitEvent");
  return GCV_OK;
}

extern "C" int
gcv_cuda_event_query (GcvCudaEvent * ev, GcvError * err)
{
  cudaError_t e = cudaEventQuery (ev->ev);
  if (e == cudaSuccess)
    return 1;
  if (e == cudaErrorNotReady) {
    cudaGetLastError ();
    return 0;
  }
  gcv_cuda_report (e, err, "cudaEventQuery", __FILE__, __LINE__);
  return -1;
}

extern "C" GcvStatus
gcv_cuda_event_elapsed (GcvCudaEvent * start, GcvCudaEvent * end, float *ms, GcvError * err)
{
  GCV_CUDA_TRY (cudaEventElapsedTime (ms, start->ev, end->ev), err, "cudaEventElapsedTime");
  return GCV_OK;
}
