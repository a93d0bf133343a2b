/* gst-cuda-video: what the overlay tests (overlay_algo_test.c,
 * overlay_cuda_test.c) share: the list of cases and the random frames and
 * masks each case paints.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_OVERLAY_COMMON_H
#define GCV_OVERLAY_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "gcv-test.h"
#include "overlay.h"

/* One painting: a mask_w x mask_h mask on a comp_w x comp_h component. */
typedef struct {
  int mask_w, mask_h;
  int comp_w, comp_h;
  int pixel_stride, x_shift, y_shift, depth16, low_bits;
  uint8_t alpha, mask_bits;
} OverlayParams;

/* Every combination of: masks 1x1, 3x5, 6x4 and 641x481; x_shift and
 * y_shift 0 / 1; component sizes ceil and floor of the mask size / 2^shift
 * and, for the small masks, ceil + 1 (samples past the mask's edge), each
 * size once (a floor of 0 gives an empty component); pixel_stride 1, 2, 3,
 * 4, 8 with 8-bit and 2, 3, 4, 8 with 16-bit samples, these with low_bits
 * 0 (GRAY16) and 6 (P010); alpha 0, 1, 128, 255; mask_bits 0xff, 0x01,
 * 0x02.  malloc'd, *n entries. */
OverlayParams *overlay_params_all (int *n);

/* A case's buffers.  frame: frame.height rows (the component's, sometimes
 * one spare row below) of frame.stride bytes, all random: each row holds
 * `lead` bytes, comp_w pixels of pixel_stride bytes and a tail, together
 * frame.width bytes, then padding; the component is byte `offset` of each
 * pixel (comp.data = frame + lead + offset), so painting it must leave
 * every other byte alone.  mask: random GRAY8 values of several bit
 * patterns, never all zero (some pixel has bit 0x01 and some bit 0x02), its
 * padding 0xff so that a read past the mask's width would paint. */
typedef struct {
  OverlayParams p;
  GcvComponent comp;
  GcvPlane frame;               /* width = bytes per row that hold pixels */
  GcvPlane mask;
  size_t lead;
  int offset;
  uint8_t value;
  char name[256];
} OverlayCase;

/* The buffers of p, the frame layout, mask density and value drawn from
 * seed.  Free with overlay_case_free. */
void overlay_case_make (const OverlayParams * p, uint32_t seed, OverlayCase * c);
void overlay_case_free (OverlayCase * c);

/* Compares `got` with `want`, `rows` rows of `row_bytes` bytes (strides
 * got_stride, want_stride).  On a difference one failed check names the
 * case, `what`, the count and the first differing byte (row, byte in the
 * row, and which sample of the component or which other byte it is).
 * Returns the number of differing bytes. */
long overlay_compare (const OverlayCase * c, const char *what, const uint8_t * got, size_t got_stride,
    const uint8_t * want, size_t want_stride, size_t row_bytes, int rows);

/* Masks to count (gcv_overlay_count and its CUDA twin): the sizes and the
 * bits the tests try, and a w x h mask, rows w + pad bytes apart, in which
 * exactly `marked` pixels, at places drawn from seed, have a value with
 * (v & bits) != 0; every other pixel has a random value without those
 * bits, and the padding is 0xff (counted if read).  Free mask->data. */
typedef struct {
  int w, h;
  size_t pad;
  uint8_t bits;
} CountParams;
extern const CountParams count_params[];
extern const int n_count_params;
uint64_t count_mask_make (const CountParams * p, uint32_t seed, GcvPlane * mask);

#endif /* GCV_OVERLAY_COMMON_H */
