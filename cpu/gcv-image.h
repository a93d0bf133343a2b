/* gst-cuda-video: plane descriptors and error reporting shared by the CPU and
 * CUDA backends.  Nothing here knows GStreamer or CUDA.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_IMAGE_H
#define GCV_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  GCV_OK = 0,
  GCV_ERROR_INVALID,            /* bad argument: size, format, parameter */
  GCV_ERROR_NO_MEMORY,          /* host or device allocation failed */
  GCV_ERROR_NO_DEVICE,          /* no usable CUDA device / driver */
  GCV_ERROR_CUDA,               /* any other CUDA runtime error */
  GCV_ERROR_CANCELLED,          /* stopped on request (GcvCancel): not a failure, the
                                 * output is incomplete and the temporal state is to be reset */
} GcvStatus;

/* Human-readable detail of a failure: what failed and, for CUDA, the error
 * name and string.  Filled by the backends, shown by the elements. */
typedef struct {
  GcvStatus status;
  char message[512];
} GcvError;

void gcv_error_set (GcvError * err, GcvStatus status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 3, 4)))
#endif
    ;

/* A request to stop the work in progress, made by another thread (an
 * element's change to READY, a flushing seek) and read by the backends at
 * the boundaries of their chunks of work: between rows, tiles or passes on
 * the CPU (from any thread of a parallel loop), between launches on the
 * GPU.  They then return GCV_ERROR_CANCELLED promptly (within a chunk's
 * time) and leave their context usable after its reset.  A context given
 * none (NULL) never stops.  The word is read and written with atomics;
 * a CUDA backend may also read it from its kernels when it lives in
 * page-locked memory. */
typedef struct {
  int requested;
} GcvCancel;

void gcv_cancel_request (GcvCancel * cancel);
void gcv_cancel_clear (GcvCancel * cancel);
/* Whether a stop was requested (0 for NULL). */
static inline int
gcv_cancel_requested (const GcvCancel * cancel)
{
  return cancel != NULL && __atomic_load_n (&cancel->requested, __ATOMIC_RELAXED);
}
/* When a stop was requested: fills err (GCV_ERROR_CANCELLED, "<what>:
 * stopped on request") and returns GCV_ERROR_CANCELLED; else GCV_OK. */
GcvStatus gcv_cancel_check (const GcvCancel * cancel, const char *what, GcvError * err);

/* The calling thread's number in the current OpenMP team (0 outside one,
 * or without OpenMP): the index of per-thread scratch. */
int gcv_thread_index (void);

/* A monotonic clock in milliseconds (the CPU backends' per-phase times). */
double gcv_now_ms (void);

/* Makes *ptr hold at least n elements of sz bytes (*cap counts them; the
 * contents are not kept when it grows).  0 when out of memory (*ptr and
 * *cap unchanged). */
int gcv_ensure_capacity (void **ptr, size_t * cap, size_t n, size_t sz);

/* Reads the settings file at `path` (a kernel, a camera) into *text (NUL
 * terminated, free() it), *len bytes.  Only a regular text file of at most
 * max_bytes is read: a FIFO without a writer, a device (/dev/zero) or a
 * huge file would block or exhaust the element that reads it, and a NUL
 * byte would silently end the text there.  Errors (GCV_ERROR_INVALID, or
 * NO_MEMORY): "<what> \"path\": why". */
GcvStatus gcv_read_settings_file (const char *path, size_t max_bytes, const char *what, char **text,
    size_t * len, GcvError * err);

/* Line and column (both from 1; columns in characters: UTF-8
 * continuation bytes do not count) of byte offset `off` of `text` (`len`
 * bytes), for messages about text files. */
void gcv_text_position (const char *text, size_t len, size_t off, int *line, int *col);

/* Sample type of a plane whose pixels hold `channels` interleaved samples. */
typedef enum {
  GCV_SAMPLE_U8 = 0,
  GCV_SAMPLE_U16,               /* native-endian 16-bit */
  GCV_SAMPLE_F32,               /* float, not quantised (for accuracy tests) */
} GcvSampleType;

static inline int
gcv_sample_bytes (GcvSampleType type)
{
  return type == GCV_SAMPLE_U8 ? 1 : type == GCV_SAMPLE_U16 ? 2 : 4;
}

/* One image plane, host or device memory.  Rows are `stride` bytes apart
 * (never assume packed rows); width and height are in samples of the plane. */
typedef struct {
  void *data;
  int width;
  int height;
  size_t stride;
} GcvPlane;

/* How to read luma from the input plane. */
typedef enum {
  GCV_LUMA_GRAY8,               /* 1 byte per pixel, used as is */
  GCV_LUMA_GRAY16LE,            /* 2 bytes per pixel, little-endian (GRAY16_LE, and P010_10LE's
                                 * Y plane: the 10-bit value in the high bits, the word as it
                                 * is), reduced to 8 bits: (v + 128) / 257 (gcv_luma16_to_8,
                                 * depth.h) */
  GCV_LUMA_PACKED32,            /* 4 bytes per pixel, R, G, B at the offsets below;
                                 * integer BT.601 as cv::cvtColor (OpenCV 4.6):
                                 * (9798 R + 19235 G + 3735 B + 16384) >> 15 */
} GcvLumaLayout;

typedef struct {
  GcvLumaLayout layout;
  uint8_t r_offset, g_offset, b_offset;   /* GCV_LUMA_PACKED32 only */
} GcvLumaInput;

static inline int
gcv_luma_bytes_per_pixel (GcvLumaLayout layout)
{
  return layout == GCV_LUMA_GRAY8 ? 1 : layout == GCV_LUMA_GRAY16LE ? 2 : 4;
}

#ifdef __cplusplus
}
#endif
#endif /* GCV_IMAGE_H */
