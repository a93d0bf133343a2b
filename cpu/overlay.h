/* gst-cuda-video: painting a GRAY8 mask (255 = paint) onto one component of
 * a video frame, for the elements' overlay modes.  Both backends call this on
 * the host after the mask is computed, so overlay output is the same for both.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_OVERLAY_H
#define GCV_OVERLAY_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One component of a frame: `data` points at the component's first sample,
 * samples are `pixel_stride` bytes apart, rows `stride` bytes apart; the
 * component is subsampled by 2^x_shift, 2^y_shift relative to the mask.
 * A sample is painted when any mask pixel it covers is non-zero:
 *   out = (alpha * value + (255 - alpha) * in + 127) / 255
 * (16-bit components: value is scaled by 257 first). */
typedef struct {
  uint8_t *data;
  size_t stride;
  int pixel_stride;
  int width, height;
  int x_shift, y_shift;
  int depth16;
} GcvComponent;

void gcv_overlay_component (const GcvComponent * comp, const GcvPlane * mask, uint8_t value, uint8_t alpha);

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
