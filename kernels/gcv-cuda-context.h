/* gst-cuda-video: host-side helpers shared by the .cu backends that keep a
 * per-frame-size context (motionest.cu, vcm.cu, dibr.cu): entering the context's
 * device for one API call, checked allocations, and the staged upload of
 * host GRAY8 planes through two pinned buffers.  Internal: included only by
 * .cu files.
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

/* Makes a context's device current for one API call and gives the caller
 * its own device back afterwards. */
struct GcvDeviceScope {
  int prev = -1;
  ~GcvDeviceScope () {
    if (prev >= 0)
      cudaSetDevice (prev);
  }
};

static inline GcvStatus
gcv_cuda_enter (int device, GcvDeviceScope & scope, GcvError * err, const char *tag)
{
  int cur = -1;
  if (cudaGetDevice (&cur) == cudaSuccess && cur != device)
    scope.prev = cur;
  cudaGetLastError ();
  GCV_CUDA_TRY_TAGGED (cudaSetDevice (device), err, tag, "cudaSetDevice");
  return GCV_OK;
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

/* Two pinned staging buffers for the uploads of host planes, each with the
 * event of the copy that reads it last (zero-initialise it).  GRAY8 planes
 * of a fixed size (_alloc, _upload), or any rows (_reserve, _upload_2d). */
struct GcvLumaStager {
  uint8_t *stage[2];
  cudaEvent_t ev[2];
  int used[2];
  int next;
  size_t cap;                   /* bytes of each buffer, set by _reserve (0: sized by _alloc) */
};

/* The two staging buffers of `bytes` each. */
static inline GcvStatus
gcv_luma_stager_alloc (GcvLumaStager * s, size_t bytes, GcvError * err, const char *tag)
{
  GcvStatus st;
  if ((st = gcv_cuda_pinned_alloc ((void **) &s->stage[0], bytes, err, tag, "staging")) != GCV_OK)
    return st;
  return gcv_cuda_pinned_alloc ((void **) &s->stage[1], bytes, err, tag, "staging");
}

/* Their events (separate from _alloc: the contexts create them later). */
static inline GcvStatus
gcv_luma_stager_events (GcvLumaStager * s, GcvError * err, const char *tag)
{
  for (int i = 0; i < 2; i++)
    GCV_CUDA_TRY_TAGGED (cudaEventCreateWithFlags (&s->ev[i], cudaEventDisableTiming), err, tag, "cudaEventCreate");
  return GCV_OK;
}

/* Frees what _alloc and _events made (the device current, the copies done). */
static inline void
gcv_luma_stager_free (GcvLumaStager * s)
{
  cudaFreeHost (s->stage[0]);
  cudaFreeHost (s->stage[1]);
  for (int i = 0; i < 2; i++)
    if (s->ev[i])
      cudaEventDestroy (s->ev[i]);
}

/* Grows both staging buffers to at least `bytes` each (for planes whose
 * size changes between uploads: dibr.cu's views); waits for the copies
 * still reading them first.  On failure the old buffers stay. */
static inline GcvStatus
gcv_luma_stager_reserve (GcvLumaStager * s, size_t bytes, GcvError * err, const char *tag)
{
  if (bytes <= s->cap)
    return GCV_OK;
  uint8_t *n[2] = { nullptr, nullptr };
  GcvStatus st;
  if ((st = gcv_cuda_pinned_alloc ((void **) &n[0], bytes, err, tag, "staging")) != GCV_OK)
    return st;
  if ((st = gcv_cuda_pinned_alloc ((void **) &n[1], bytes, err, tag, "staging")) != GCV_OK) {
    cudaFreeHost (n[0]);
    return st;
  }
  for (int i = 0; i < 2; i++) {
    if (s->used[i])
      GCV_CUDA_TRY_TAGGED (cudaEventSynchronize (s->ev[i]), err, tag, "cudaEventSynchronize");
    cudaFreeHost (s->stage[i]);
    s->stage[i] = n[i];
    s->used[i] = 0;
  }
  s->cap = bytes;
  return GCV_OK;
}

/* Copies `rows` rows of `row_bytes` bytes (host, `stride` bytes apart) into
 * the next staging buffer (once the copy queued from it two uploads ago is
 * done) and queues their upload to the pitched device plane `dst` on
 * `stream`.  The buffers must hold row_bytes * rows (_alloc, _reserve). */
static inline GcvStatus
gcv_luma_stager_upload_2d (GcvLumaStager * s, const void *src, size_t stride, size_t row_bytes, int rows,
    void *dst, size_t pitch, cudaStream_t stream, GcvError * err, const char *tag)
{
  const int i = s->next;
  /* the copy queued from this staging buffer two uploads ago may still run */
  if (s->used[i])
    GCV_CUDA_TRY_TAGGED (cudaEventSynchronize (s->ev[i]), err, tag, "cudaEventSynchronize");
  for (int y = 0; y < rows; y++)
    memcpy (s->stage[i] + row_bytes * y, (const uint8_t *) src + stride * y, row_bytes);
  GCV_CUDA_TRY_TAGGED (cudaMemcpy2DAsync (dst, pitch, s->stage[i], row_bytes, row_bytes, rows,
          cudaMemcpyHostToDevice, stream), err, tag, "cudaMemcpy2DAsync (upload)");
  GCV_CUDA_TRY_TAGGED (cudaEventRecord (s->ev[i], stream), err, tag, "cudaEventRecord");
  s->used[i] = 1;
  s->next = 1 - i;
  return GCV_OK;
}

/* Checks that `luma` is a width x height GRAY8 plane and stages and queues
 * its upload (gcv_luma_stager_upload_2d) to the pitched device plane `dst`
 * on `stream`.  `what` names the plane in messages ("reference"). */
static inline GcvStatus
gcv_luma_stager_upload (GcvLumaStager * s, const GcvPlane * luma, int width, int height, uint8_t * dst, size_t pitch,
    cudaStream_t stream, GcvError * err, const char *tag, const char *what)
{
  if (luma == nullptr || luma->data == nullptr || luma->width != width || luma->height != height
      || luma->stride < (size_t) width) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: %s: the plane must be %dx%d GRAY8 (got %dx%d, stride %zu)",
        tag, what, width, height, luma ? luma->width : 0, luma ? luma->height : 0, luma ? luma->stride : 0);
    return GCV_ERROR_INVALID;
  }
  return gcv_luma_stager_upload_2d (s, luma->data, luma->stride, (size_t) width, height, dst, pitch, stream, err,
      tag);
}

/* The device-scoped part of an upload entry point (set_reference, upload):
 * enters `device`, stages and queues the upload, gives the device back. */
static inline GcvStatus
gcv_cuda_upload_luma (int device, GcvLumaStager * s, const GcvPlane * luma, int width, int height, uint8_t * dst,
    size_t pitch, cudaStream_t stream, GcvError * err, const char *tag, const char *what)
{
  GcvDeviceScope scope;
  GcvStatus st;
  if ((st = gcv_cuda_enter (device, scope, err, tag)) != GCV_OK)
    return st;
  return gcv_luma_stager_upload (s, luma, width, height, dst, pitch, stream, err, tag, what);
}

/* The skeleton of a context's _free: on its device, once `stream` (if any)
 * is idle, release () frees what the context holds; errors are dropped. */
template <typename Release>
static inline void
gcv_cuda_context_release (int device, cudaStream_t stream, const char *tag, Release release)
{
  GcvDeviceScope scope;
  GcvError err;
  if (gcv_cuda_enter (device, scope, &err, tag) == GCV_OK) {
    if (stream)
      cudaStreamSynchronize (stream);
    release ();
    cudaGetLastError ();
  }
}

/* The skeleton of a context's _new, after the caller checked the frame
 * size: checks the device, makes a zeroed Ctx (fields device, width,
 * height), enters the device and runs alloc (ctx, stream, err); on failure
 * waits for the device, drops its error, destroys the context with
 * free_fn and returns NULL. */
template <typename Ctx>
static inline Ctx *
gcv_cuda_context_new (int device, int width, int height, void *stream, GcvError * err, const char *tag,
    GcvStatus (*alloc) (Ctx *, void *, GcvError *), void (*free_fn) (Ctx *))
{
  if (device < 0) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: bad device %d", tag, device);
    return NULL;
  }
  Ctx *ctx = new (std::nothrow) Ctx ();
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "%s: out of host memory", tag);
    return NULL;
  }
  ctx->device = device;
  ctx->width = width;
  ctx->height = height;
  GcvDeviceScope scope;
  if (gcv_cuda_enter (device, scope, err, tag) != GCV_OK) {
    delete ctx;
    return NULL;
  }
  if (alloc (ctx, stream, err) != GCV_OK) {
    cudaDeviceSynchronize ();
    cudaGetLastError ();
    free_fn (ctx);
    return NULL;
  }
  return ctx;
}

#endif /* GCV_CUDA_CONTEXT_H */
