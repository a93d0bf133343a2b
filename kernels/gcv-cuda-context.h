/* gst-cuda-video: host-side helpers shared by the .cu backends that keep a
 * per-frame-size context (motionest.cu, vcm.cu, dibr.cu): checked
 * allocations, the creation of a context, the check of its device, the
 * queued copy of a caller's device GRAY8 plane into the context's pitched
 * layout, and its events' teardown.  Internal: included only by .cu
 * files.
 *
 * Every message starts with the caller's tag ("motionest", "vcm"):
 * "tag: what failed: cudaErrorName: string".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CUDA_CONTEXT_H
#define GCV_CUDA_CONTEXT_H

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "gcv-cuda-check.h"

/* GCV_CUDA_TRY with the what prefixed by "tag: " */
static inline GcvStatus
gcv_cuda_report_tagged (cudaError_t e, GcvError * err, const char *tag, const char *what, const char *file, int line)
{
  char buf[128];
  snprintf (buf, sizeof buf, "%s: %s", tag, what);
  return gcv_cuda_report (e, err, buf, file, line);
}

#define GCV_CUDA_TRY_TAGGED(call, err, tag, what) do {                       \
    cudaError_t _e = (call);                                                 \
    if (_e != cudaSuccess)                                                   \
      return gcv_cuda_report_tagged (_e, (err), (tag), (what), __FILE__, __LINE__); \
  } while (0)

static inline size_t
gcv_round_up (size_t v, size_t m)
{
  return (v + m - 1) / m * m;
}

/* cudaMalloc (pinned: cudaHostAlloc) of `bytes` (16 for 0); on failure *p
 * is NULL and err says "tag: cudaMalloc of 1.5 MiB (what) failed: ..." */
static inline GcvStatus
gcv_cuda_alloc_failed (cudaError_t e, void **p, size_t bytes, GcvError * err, const char *tag, const char *call,
    const char *what)
{
  *p = nullptr;
  GcvStatus st = gcv_cuda_status (e);
  gcv_error_set (err, st, "%s: %s of %.1f MiB (%s) failed: %s: %s", tag, call, bytes / 1048576.0, what,
      cudaGetErrorName (e), cudaGetErrorString (e));
  cudaGetLastError ();
  return st;
}

static inline GcvStatus
gcv_cuda_dev_alloc (void **p, size_t bytes, GcvError * err, const char *tag, const char *what)
{
  cudaError_t e = cudaMalloc (p, bytes ? bytes : 16);
  return e == cudaSuccess ? GCV_OK : gcv_cuda_alloc_failed (e, p, bytes, err, tag, "cudaMalloc", what);
}

static inline GcvStatus
gcv_cuda_pinned_alloc (void **p, size_t bytes, GcvError * err, const char *tag, const char *what)
{
  cudaError_t e = cudaHostAlloc (p, bytes ? bytes : 16, cudaHostAllocDefault);
  return e == cudaSuccess ? GCV_OK : gcv_cuda_alloc_failed (e, p, bytes, err, tag, "cudaHostAlloc", what);
}

/* ---- contexts on the caller's device and stream --------------------------------------- */

/* The skeleton of such a context's _new, after the caller checked the
 * frame size: a zeroed Ctx (fields device: the current one, width,
 * height), then alloc (ctx, err), which only allocates and queues nothing;
 * on failure free_fn (ctx) and NULL. */
template <typename Ctx>
static inline Ctx *
gcv_cuda_backend_new (int width, int height, GcvError * err, const char *tag,
    GcvStatus (*alloc) (Ctx *, GcvError *), void (*free_fn) (Ctx *))
{
  Ctx *ctx = new (std::nothrow) Ctx ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "%s: out of host memory", tag);
    return NULL;
  }
  ctx->width = width;
  ctx->height = height;
  cudaError_t e = cudaGetDevice (&ctx->device);
  if (e != cudaSuccess) {
    gcv_cuda_report_tagged (e, err, tag, "cudaGetDevice", __FILE__, __LINE__);
    delete ctx;
    return NULL;
  }
  if (alloc (ctx, err) != GCV_OK) {
    free_fn (ctx);
    return NULL;
  }
  return ctx;
}

/* Checks that the calling thread's current device is the context's
 * (the caller makes it current: the contexts never change it). */
static inline GcvStatus
gcv_cuda_check_device (int device, GcvError * err, const char *tag)
{
  int cur = -1;
  GCV_CUDA_TRY_TAGGED (cudaGetDevice (&cur), err, tag, "cudaGetDevice");
  if (cur != device) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: the context was made on device %d, but device %d is current", tag,
        device, cur);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

/* Checks that `luma` is a width x height GRAY8 plane in device memory (of
 * this device or another one).  `what` names the plane in messages
 * ("reference"). */
static inline GcvStatus
gcv_cuda_luma_check (const GcvPlane * luma, int width, int height, GcvError * err, const char *tag,
    const char *what)
{
  if (luma == nullptr || luma->data == nullptr || luma->width != width || luma->height != height
      || luma->stride < (size_t) width) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: %s: the plane must be %dx%d GRAY8 (got %dx%d, stride %zu)",
        tag, what, width, height, luma ? luma->width : 0, luma ? luma->height : 0, luma ? luma->stride : 0);
    return GCV_ERROR_INVALID;
  }
  cudaPointerAttributes attr;
  GCV_CUDA_TRY_TAGGED (cudaPointerGetAttributes (&attr, luma->data), err, tag, "cudaPointerGetAttributes");
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: %s: the plane must be in device memory (got %s host memory)", tag,
        what, attr.type == cudaMemoryTypeHost ? "page-locked" : "pageable");
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

/* Queues on `stream` the copy of the checked (gcv_cuda_luma_check) plane
 * `luma` into the pitched device plane `dst`: cudaMemcpyDefault, a copy
 * within the device or from a peer. */
static inline GcvStatus
gcv_cuda_luma_copy (const GcvPlane * luma, uint8_t * dst, size_t pitch, cudaStream_t stream, GcvError * err,
    const char *tag)
{
  GCV_CUDA_TRY_TAGGED (cudaMemcpy2DAsync (dst, pitch, luma->data, luma->stride, (size_t) luma->width,
          (size_t) luma->height, cudaMemcpyDefault, stream), err, tag, "cudaMemcpy2DAsync (frame)");
  return GCV_OK;
}

/* Destroys the n events of `ev` that were created (a context's _free). */
static inline void
gcv_cuda_events_destroy (cudaEvent_t * ev, int n)
{
  for (int i = 0; i < n; i++)
    if (ev[i])
      cudaEventDestroy (ev[i]);
}

#endif /* GCV_CUDA_CONTEXT_H */
