/* gst-cuda-video: the slow copy of the CUDA streams test (cudastreams.c):
 * a neighbour's work that is still running on its stream when the buffer
 * it writes (or reads) has already been passed on.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* One block per row: every thread first waits @spin_ns of wall time (the
 * GPU's global timer), then copies its bytes of the row.  No shared
 * memory. */
__global__ static void
slow_copy_rows (uint8_t * dst, size_t dst_pitch, const uint8_t * src, size_t src_pitch, size_t row_bytes,
    size_t rows, unsigned long long spin_ns)
{
  unsigned long long start, now;
  size_t y = blockIdx.x, x;

  if (y >= rows)
    return;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l" (start));
  do {
    asm volatile ("mov.u64 %0, %%globaltimer;" : "=l" (now));
  } while (now - start < spin_ns);
  for (x = threadIdx.x; x < row_bytes; x += blockDim.x)
    dst[y * dst_pitch + x] = src[y * src_pitch + x];
}

/* Queues the copy of @rows rows of @row_bytes (device to device) on
 * @stream, each row starting after @spin_ms; returns the launch's error
 * (cudaSuccess: queued). */
extern "C" int
gcv_test_slow_copy_2d (void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t row_bytes,
    size_t rows, unsigned spin_ms, void *stream)
{
  if (rows == 0 || row_bytes == 0)
    return cudaSuccess;
  slow_copy_rows <<< (unsigned) rows, 128, 0, (cudaStream_t) stream >>> ((uint8_t *) dst, dst_pitch,
      (const uint8_t *) src, src_pitch, row_bytes, rows, (unsigned long long) spin_ms * 1000000ull);
  return cudaGetLastError ();
}

extern "C" const char *
gcv_test_cuda_error_string (int error)
{
  return cudaGetErrorString ((cudaError_t) error);
}
