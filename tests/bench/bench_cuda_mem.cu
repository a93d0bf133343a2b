/* gst-cuda-video: device memory bandwidth for the benchmarks (gcv-bench.c;
 * the reference the kernels' effective bandwidth is compared with).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-canny.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(call, what)                                                           \
  do {                                                                              \
    cudaError_t e_ = (call);                                                        \
    if (e_ != cudaSuccess) {                                                        \
      std::snprintf (err, err_len, "%s: %s: %s", what, cudaGetErrorName (e_),        \
          cudaGetErrorString (e_));                                                 \
      goto out;                                                                     \
    }                                                                               \
  } while (0)

extern "C" int
gcvb_cuda_mem_bandwidth (int device, size_t bytes, int runs, double *peak_gbps, double *copy_gbps,
    char *err, size_t err_len)
{
  int ret = -1, clock_khz = 0, bus_bits = 0;
  void *a = nullptr, *b = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev0 = nullptr, ev1 = nullptr;
  std::vector<float> times;

  *peak_gbps = 0;
  *copy_gbps = 0;
  if (runs < 1)
    runs = 1;
  CHECK (cudaSetDevice (device), "cudaSetDevice");
  /* Not fatal: some devices (and CUDA versions) report 0. */
  if (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
      cudaDeviceGetAttribute (&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess) {
    (void) cudaGetLastError ();
    clock_khz = bus_bits = 0;
  }
  *peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;

  CHECK (cudaMalloc (&a, bytes), "cudaMalloc");
  CHECK (cudaMalloc (&b, bytes), "cudaMalloc");
  CHECK (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CHECK (cudaEventCreate (&ev0), "cudaEventCreate");
  CHECK (cudaEventCreate (&ev1), "cudaEventCreate");
  CHECK (cudaMemsetAsync (a, 1, bytes, stream), "cudaMemsetAsync");
  CHECK (cudaMemsetAsync (b, 2, bytes, stream), "cudaMemsetAsync");
  for (int r = 0; r < runs + 3; r++) {
    float ms = 0;
    CHECK (cudaEventRecord (ev0, stream), "cudaEventRecord");
    CHECK (cudaMemcpyAsync (r % 2 ? a : b, r % 2 ? b : a, bytes, cudaMemcpyDeviceToDevice, stream),
        "cudaMemcpyAsync D2D");
    CHECK (cudaEventRecord (ev1, stream), "cudaEventRecord");
    CHECK (cudaEventSynchronize (ev1), "cudaEventSynchronize");
    CHECK (cudaEventElapsedTime (&ms, ev0, ev1), "cudaEventElapsedTime");
    if (r >= 3)
      times.push_back (ms);
  }
  std::sort (times.begin (), times.end ());
  *copy_gbps = 2.0 * bytes / (times[times.size () / 2] * 1e-3) / 1e9;
  ret = 0;
out:
  if (ev0)
    cudaEventDestroy (ev0);
  if (ev1)
    cudaEventDestroy (ev1);
  if (stream)
    cudaStreamDestroy (stream);
  cudaFree (a);
  cudaFree (b);
  return ret;
}

extern "C" int
gcvb_cuda_pci_bus_id (int device, char *buf, int len)
{
  if (cudaDeviceGetPCIBusId (buf, len, device) != cudaSuccess) {
    (void) cudaGetLastError ();
    return -1;
  }
  return 0;
}
