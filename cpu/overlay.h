/* gst-cuda-video: painting a GRAY8 mask (255 = paint) onto one component of
 * a video frame, for the elements' overlay modes: on the host
 * (gcv_overlay_component, cpu/overlay.c) or, for frames in device memory, on
 * a CUDA stream (gcv_overlay_cuda_component, kernels/overlay.cu).  Both use
 * the coverage and blend rules below, so their output is the same byte for
 * byte.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_OVERLAY_H
#define GCV_OVERLAY_H

#include "depth.h"
#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One component of a frame: `data` points at the component's first sample,
 * samples are `pixel_stride` bytes apart, rows `stride` bytes apart; the
 * component is subsampled by 2^x_shift, 2^y_shift relative to the mask.
 * Sample (x, y) covers the mask pixels [x << x_shift, (x + 1) << x_shift) x
 * [y << y_shift, (y + 1) << y_shift), clipped to the mask (none at all past
 * its edge).  It is painted when any of them is non-zero (for _bits: has
 * (m & mask_bits) != 0, so one mask can carry several layers):
 *   out = (alpha * value + (255 - alpha) * in + 127) / 255
 * (16-bit components, little-endian, 2 bytes of each pixel_stride: value is
 * scaled by 257 first, and when the format keeps low_bits low bits zero,
 * P010's 6, out is rounded to its nearest code, gcv_round_low_bits of
 * depth.h).  alpha 0 paints nothing. */
typedef struct {
  uint8_t *data;
  size_t stride;
  int pixel_stride;
  int width, height;
  int x_shift, y_shift;
  int depth16;
  int low_bits;                 /* depth16 only: 0 .. 15 */
} GcvComponent;

void gcv_overlay_component (const GcvComponent * comp, const GcvPlane * mask, uint8_t value, uint8_t alpha);
void gcv_overlay_component_bits (const GcvComponent * comp, const GcvPlane * mask, uint8_t mask_bits,
    uint8_t value, uint8_t alpha);

/* ---- the rules both backends use (host and device) ---------------------- */
#ifdef __CUDACC__
#define GCV_OVERLAY_FN static __host__ __device__ __forceinline__
#else
#define GCV_OVERLAY_FN static inline
#endif

/* Whether sample (cx, cy) of a component subsampled by 2^xs, 2^ys is
 * painted: one of the mask pixels it covers has (m & bits) != 0.  mask
 * points at a mask_w x mask_h GRAY8 plane, rows mask_stride bytes apart. */
GCV_OVERLAY_FN int
gcv_overlay_covered (const uint8_t * mask, size_t mask_stride, int mask_w, int mask_h, int cx, int cy,
    int xs, int ys, uint8_t bits)
{
  int x0 = cx << xs, y0 = cy << ys, x1 = (cx + 1) << xs, y1 = (cy + 1) << ys, x, y;

  if (x1 > mask_w)
    x1 = mask_w;
  if (y1 > mask_h)
    y1 = mask_h;
  for (y = y0; y < y1; y++) {
    const uint8_t *m = mask + (size_t) y * mask_stride;
    for (x = x0; x < x1; x++)
      if (m[x] & bits)
        return 1;
  }
  return 0;
}

/* Blends value over the sample at p with alpha (1 .. 255): one byte, or
 * with depth16 two (little-endian), value scaled by 257 and the result
 * rounded to the codes that keep low_bits low bits zero. */
GCV_OVERLAY_FN void
gcv_overlay_blend (uint8_t * p, int depth16, int low_bits, uint8_t value, uint8_t alpha)
{
  const uint32_t a = alpha, na = 255u - alpha;

  if (depth16) {
    uint32_t in = (uint32_t) p[0] | ((uint32_t) p[1] << 8);
    uint32_t o = gcv_round_low_bits ((a * (value * 257u) + na * in + 127u) / 255u, low_bits);
    p[0] = (uint8_t) (o & 0xff);
    p[1] = (uint8_t) (o >> 8);
  } else {
    p[0] = (uint8_t) ((a * value + na * p[0] + 127u) / 255u);
  }
}

/* CUDA backend (kernels/overlay.cu; only when built with CUDA): the same as
 * gcv_overlay_component_bits with comp->data and mask->data in device
 * memory.  Queued on `stream` (a cudaStream_t) without synchronising;
 * nothing is launched when alpha or mask_bits is 0 or there is nothing to
 * paint.  GCV_ERROR_INVALID for a component it cannot address (negative
 * sizes, pixel_stride under the sample size, shifts outside 0 .. 15, more
 * than 524280 rows to paint) or low_bits outside 0 .. 15 (0 for 8-bit). */
GcvStatus gcv_overlay_cuda_component (const GcvComponent * comp, const GcvPlane * mask, uint8_t mask_bits,
    uint8_t value, uint8_t alpha, void *stream, GcvError * err);

/* How many pixels of the GRAY8 plane `mask` have (m & bits) != 0: the
 * edge pixels of an edge map, the holes of a holes mask (for the
 * elements' post-messages). */
uint64_t gcv_overlay_count (const GcvPlane * mask, uint8_t bits);

/* CUDA backend (kernels/overlay.cu): the same count of a mask in device
 * memory, queued on `stream`: *dev_count (8 bytes of device memory, the
 * caller's scratch) is cleared, counted into and copied to *host_count
 * (page-locked host memory), which holds the count once the stream has
 * passed.  GCV_ERROR_INVALID for negative sizes or more than 524280
 * rows. */
GcvStatus gcv_overlay_cuda_count (const GcvPlane * mask, uint8_t bits, uint64_t * dev_count,
    uint64_t * host_count, void *stream, GcvError * err);

/* Sets to 255 the mask pixels of a 1-pixel line from (x0, y0) to (x1, y1)
 * (Bresenham, clipped to the mask) and, when the line is at least 2 pixels
 * long, of an arrow head at (x1, y1): two strokes of a third of the length
 * (at least 2, at most 8 pixels) at +-30 degrees.  A zero-length arrow
 * marks the single pixel. */
void gcv_overlay_arrow (GcvPlane * mask, int x0, int y0, int x1, int y1);

/* ARGB colour to BT.601 limited-range Y'CbCr (8 bit) and to full-range luma
 * (the GCV_LUMA_PACKED32 formula), for painting YUV and GRAY frames. */
void gcv_argb_to_ycbcr601 (uint32_t argb, uint8_t * y, uint8_t * cb, uint8_t * cr);
uint8_t gcv_argb_to_luma (uint32_t argb);

#ifdef __cplusplus
}
#endif
#endif
