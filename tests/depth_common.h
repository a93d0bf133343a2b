/* gst-cuda-video: what the 16-bit sample tests (depth_algo_test.c,
 * depth_cuda_test.c) share: the plane sizes and layouts, random planes with
 * canaries in their padding, and the independent per-sample references.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_DEPTH_COMMON_H
#define GCV_DEPTH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "depth.h"
#include "gcv-test.h"

/* One case: a width x height plane of `channels` 16-bit samples a pixel,
 * its rows `pad` bytes longer than the samples (odd pads give odd strides);
 * for the luma, an 8-bit output with rows `out_pad` bytes longer. */
typedef struct {
  int width, height, channels;
  size_t pad, out_pad;
  int low_bits;
  int decoder;                  /* samples with the low bits zero, as decoders give P010 */
} DepthCase;

/* Sizes 0x0, 1x1, 2x2, 3x1, 1x3, 33x17, 111x30, 641x481, 1920x1080 (not
 * with GCV_TEST_QUICK) by channels 1 and 2, pads 0, 1, 7, 64, low bits 6,
 * 0, 1 and 15, samples of any value or with the low bits zero: every size
 * with every other parameter at least once.  malloc'd, *n entries. */
DepthCase *depth_cases (int *n);
/* "WxH xC, pad P/O, L low bits (decoder samples)" */
const char *depth_case_name (const DepthCase * c, char *buf, size_t len);

/* A plane of the case: random 16-bit samples (low bits zero with
 * c->decoder), random padding bytes.  data malloc'd. */
GcvPlane depth_plane16 (const DepthCase * c, uint32_t seed);
/* An 8-bit plane for the case's luma: every byte 0xa5 (the padding must
 * stay so).  data malloc'd. */
GcvPlane depth_plane8 (const DepthCase * c);

/* The references, written apart from cpu/depth.h: the nearest integer to
 * v / 257, and the nearest multiple of 2^low_bits to v (ties up) not above
 * 65535. */
uint8_t depth_ref_luma8 (uint32_t v);
uint32_t depth_ref_round (uint32_t v, int low_bits);

/* The expected result of the luma (into a copy of `out`, padding kept) and
 * of the rounding (a copy of `in` with its samples rounded, padding kept):
 * malloc'd buffers of the plane's stride x height. */
uint8_t *depth_expect_luma8 (const GcvPlane * in, const GcvPlane * out);
uint8_t *depth_expect_round (const DepthCase * c, const GcvPlane * in);

/* Compares rows x row_bytes bytes; one failed check naming the case and
 * the first difference.  Returns the number of differing bytes. */
long depth_compare (const char *what, const DepthCase * c, const uint8_t * got, size_t got_stride,
    const uint8_t * want, size_t want_stride, size_t row_bytes, int rows);

#endif /* GCV_DEPTH_COMMON_H */
