/* gst-cuda-video: the small C API over the CUDA runtime that the elements,
 * tests and benchmarks use, so that no C file needs cuda_runtime.h.
 * Implemented in gcv-cuda.cu; only linked when built with CUDA.
 *
 * Every function checks its CUDA calls and reports failures in GcvError
 * ("what failed: cudaErrorName: cuda error string"); none aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CUDA_H
#define GCV_CUDA_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _GcvCudaEvent GcvCudaEvent;

/* Number of usable devices; 0 (and err set) when there is no driver or no
 * device.  Never crashes on a machine without NVIDIA driver. */
int gcv_cuda_device_count (GcvError * err);
/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
GcvStatus gcv_cuda_device_describe (int device, char *buf, size_t len, GcvError * err);

/* Free and total memory of the current device, in bytes. */
GcvStatus gcv_cuda_mem_info (size_t * free_bytes, size_t * total_bytes, GcvError * err);

/* Makes `device` current for the calling thread (call from every thread). */
GcvStatus gcv_cuda_set_device (int device, GcvError * err);

/* A non-blocking stream, returned as an opaque cudaStream_t. */
GcvStatus gcv_cuda_stream_new (void **stream, GcvError * err);
void gcv_cuda_stream_free (void *stream);
GcvStatus gcv_cuda_stream_sync (void *stream, GcvError * err);

/* Pitched 2-D device allocation; *pitch in bytes. */
GcvStatus gcv_cuda_malloc_2d (void **ptr, size_t * pitch, size_t row_bytes, size_t rows, GcvError * err);
GcvStatus gcv_cuda_malloc (void **ptr, size_t bytes, GcvError * err);
void gcv_cuda_free (void *ptr);

/* Page-locked host memory (for fast, asynchronous transfers), portable:
 * page-locked for every CUDA context of the process, so that memory one
 * element (or GStreamer's own CUDA context) allocated is DMA-able by
 * another. */
GcvStatus gcv_cuda_host_alloc (void **ptr, size_t bytes, GcvError * err);
void gcv_cuda_host_free (void *ptr);

/* TRUE when ptr is page-locked host memory known to CUDA (cudaHostAlloc'd
 * or registered, by anyone in the process): such memory can be copied
 * asynchronously without staging. */
int gcv_cuda_host_is_pinned (const void *ptr);

/* Asynchronous 2-D copies on `stream`. */
GcvStatus gcv_cuda_upload_2d (void *dst_dev, size_t dst_pitch, const void *src_host, size_t src_stride,
    size_t row_bytes, size_t rows, void *stream, GcvError * err);
GcvStatus gcv_cuda_download_2d (void *dst_host, size_t dst_stride, const void *src_dev, size_t src_pitch,
    size_t row_bytes, size_t rows, void *stream, GcvError * err);
GcvStatus gcv_cuda_memset_2d (void *dst_dev, size_t pitch, int value, size_t row_bytes, size_t rows,
    void *stream, GcvError * err);
/* Asynchronous 2-D copy in any direction (cudaMemcpyDefault): host or
 * device memory, a device pointer of another device or context included. */
GcvStatus gcv_cuda_copy_2d (void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t row_bytes,
    size_t rows, void *stream, GcvError * err);

/* Events for timing device work. */
GcvStatus gcv_cuda_event_new (GcvCudaEvent ** ev, GcvError * err);
void gcv_cuda_event_free (GcvCudaEvent * ev);
GcvStatus gcv_cuda_event_record (GcvCudaEvent * ev, void *stream, GcvError * err);
GcvStatus gcv_cuda_event_sync (GcvCudaEvent * ev, GcvError * err);
/* Makes `stream` wait (on the device, the host goes on) for the work
 * recorded in `ev`, which may belong to another stream, context or device. */
GcvStatus gcv_cuda_stream_wait_event (void *stream, GcvCudaEvent * ev, GcvError * err);
/* 1 when the work recorded in `ev` is done, 0 while it runs, -1 on an
 * error (err set). */
int gcv_cuda_event_query (GcvCudaEvent * ev, GcvError * err);
/* Milliseconds between two recorded, completed events. */
GcvStatus gcv_cuda_event_elapsed (GcvCudaEvent * start, GcvCudaEvent * end, float *ms, GcvError * err);

#ifdef __cplusplus
}
#endif
#endif /* GCV_CUDA_H */
