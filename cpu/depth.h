/* gst-cuda-video: samples deeper than 8 bits, for the formats whose
 * components are 16-bit little-endian words (GRAY16_LE, and P010_10LE as
 * hardware decoders give it: the 10-bit value in the high bits, value << 6):
 *
 *  - 8-bit luma of a 16-bit word, for the elements that work on 8-bit luma
 *    (cudamotionest, cudavcm; cudacanny's GCV_LUMA_GRAY16LE reads the same
 *    way): (v + 128) / 257, the whole word as it is (low bits that are not
 *    zero count as in GRAY16).  An 8-bit value b stored as its 10-bit
 *    replica ((b * 257) >> 6) << 6 reads back as b;
 *  - rounding a computed 16-bit word to a format that keeps `low_bits` low
 *    bits zero (P010: 6): min (v + 2^(low_bits - 1), 65535) with the low
 *    bits cleared, the nearest code of the format (ties up), saturating at
 *    its largest, 65472 for P010.
 *
 * The host (cpu/depth.c) and CUDA (kernels/depth.cu) versions use the
 * per-sample rules below, so they give the same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_DEPTH_H
#define GCV_DEPTH_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GCV_DEPTH_FN static __host__ __device__ __forceinline__
#else
#define GCV_DEPTH_FN static inline
#endif

/* The largest low_bits gcv_round_low_bits takes. */
#define GCV_DEPTH_MAX_LOW_BITS 15

/* 8-bit luma of a 16-bit sample. */
GCV_DEPTH_FN uint8_t
gcv_luma16_to_8 (uint32_t v)
{
  return (uint8_t) ((v + 128u) / 257u);
}

/* The code of a format keeping `low_bits` (0 .. 15) low bits zero nearest
 * to the 16-bit value v (0 .. 65535). */
GCV_DEPTH_FN uint16_t
gcv_round_low_bits (uint32_t v, int low_bits)
{
  uint32_t r;

  if (low_bits <= 0)
    return (uint16_t) v;
  r = v + (1u << (low_bits - 1));
  if (r > 0xffffu)
    r = 0xffffu;
  return (uint16_t) (r & ~((1u << low_bits) - 1u));
}

/* Host: dst (8-bit, at least src's width x height) = gcv_luma16_to_8 of
 * each sample of src (16-bit, one channel).  n_threads 0: all cores. */
GcvStatus gcv_luma8_cpu (const GcvPlane * src, const GcvPlane * dst, int n_threads, GcvError * err);
/* Host: each of the width x channels 16-bit samples of every row of plane,
 * in place, = gcv_round_low_bits (sample, low_bits). */
GcvStatus gcv_round_low_bits_cpu (const GcvPlane * plane, int channels, int low_bits, int n_threads,
    GcvError * err);

/* CUDA backend (kernels/depth.cu): the same on device planes, queued on
 * `stream` (a cudaStream_t) without synchronising.
 *
 * Both backends: GCV_ERROR_INVALID for negative sizes, a dst smaller than
 * src, channels below 1, low_bits outside 0 .. 15, rows that overlap
 * (stride below the row's bytes) or planes without data (unless empty). */
/* The argument checks both backends make (GCV_OK or GCV_ERROR_INVALID with
 * err saying what is wrong). */
GcvStatus gcv_luma8_check (const GcvPlane * src, const GcvPlane * dst, GcvError * err);
GcvStatus gcv_round_low_bits_check (const GcvPlane * plane, int channels, int low_bits, GcvError * err);

GcvStatus gcv_luma8_cuda (const GcvPlane * src, const GcvPlane * dst, void *stream, GcvError * err);
GcvStatus gcv_round_low_bits_cuda (const GcvPlane * plane, int channels, int low_bits, void *stream,
    GcvError * err);

#ifdef __cplusplus
}
#endif
#endif /* GCV_DEPTH_H */
