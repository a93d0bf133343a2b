/* gst-cuda-video: 16-bit samples on the host (cpu/depth.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "depth.h"
#include "gcv-parallel.h"

/* One core's time per sample of either conversion (about): what the team
 * is sized by. */
#define NS_PER_SAMPLE 0.5

GcvStatus
gcv_luma8_check (const GcvPlane * src, const GcvPlane * dst, GcvError * err)
{
  if (src == NULL || dst == NULL || src->width < 0 || src->height < 0) {
    gcv_error_set (err, GCV_ERROR_INVALID, "16-bit luma to 8 bits: no plane, or negative size");
    return GCV_ERROR_INVALID;
  }
  if (dst->width < src->width || dst->height < src->height) {
    gcv_error_set (err, GCV_ERROR_INVALID, "16-bit luma to 8 bits: %dx%d output for %dx%d input",
        dst->width, dst->height, src->width, src->height);
    return GCV_ERROR_INVALID;
  }
  if (src->width == 0 || src->height == 0)
    return GCV_OK;
  if (src->data == NULL || dst->data == NULL || src->stride < (size_t) src->width * 2
      || dst->stride < (size_t) src->width) {
    gcv_error_set (err, GCV_ERROR_INVALID, "16-bit luma to 8 bits: plane without data or stride too "
        "small (%zu, %zu bytes for %d pixels)", src->stride, dst->stride, src->width);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

GcvStatus
gcv_round_low_bits_check (const GcvPlane * plane, int channels, int low_bits, GcvError * err)
{
  if (plane == NULL || plane->width < 0 || plane->height < 0 || channels < 1 || low_bits < 0
      || low_bits > GCV_DEPTH_MAX_LOW_BITS) {
    gcv_error_set (err, GCV_ERROR_INVALID, "rounding 16-bit samples: no plane, negative size, %d "
        "channels or %d low bits (0 .. %d)", channels, low_bits, GCV_DEPTH_MAX_LOW_BITS);
    return GCV_ERROR_INVALID;
  }
  if (plane->width == 0 || plane->height == 0)
    return GCV_OK;
  if (plane->data == NULL || plane->stride < (size_t) plane->width * channels * 2) {
    gcv_error_set (err, GCV_ERROR_INVALID, "rounding 16-bit samples: plane without data or stride "
        "too small (%zu bytes for %d x %d samples)", plane->stride, plane->width, channels);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

GcvStatus
gcv_luma8_cpu (const GcvPlane * src, const GcvPlane * dst, int n_threads, GcvError * err)
{
  GcvStatus st = gcv_luma8_check (src, dst, err);
  const int w = src ? src->width : 0, h = src ? src->height : 0;
  int nt, y;

  if (st != GCV_OK || w == 0 || h == 0)
    return st;
  nt = gcv_parallel_threads (n_threads, NS_PER_SAMPLE * w * h);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < h; y++) {
    const uint8_t *s = (const uint8_t *) src->data + (size_t) y * src->stride;
    uint8_t *d = (uint8_t *) dst->data + (size_t) y * dst->stride;
    int x;
    for (x = 0; x < w; x++)
      d[x] = gcv_luma16_to_8 ((uint32_t) s[2 * x] | ((uint32_t) s[2 * x + 1] << 8));
  }
  return GCV_OK;
}

GcvStatus
gcv_round_low_bits_cpu (const GcvPlane * plane, int channels, int low_bits, int n_threads, GcvError * err)
{
  GcvStatus st = gcv_round_low_bits_check (plane, channels, low_bits, err);
  const int n = plane ? plane->width * channels : 0, h = plane ? plane->height : 0;
  int nt, y;

  if (st != GCV_OK || n == 0 || h == 0 || low_bits == 0)
    return st;
  nt = gcv_parallel_threads (n_threads, NS_PER_SAMPLE * n * h);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (y = 0; y < h; y++) {
    uint8_t *row = (uint8_t *) plane->data + (size_t) y * plane->stride;
    int i;
    for (i = 0; i < n; i++) {
      uint16_t v = gcv_round_low_bits ((uint32_t) row[2 * i] | ((uint32_t) row[2 * i + 1] << 8), low_bits);
      row[2 * i] = (uint8_t) (v & 0xff);
      row[2 * i + 1] = (uint8_t) (v >> 8);
    }
  }
  return GCV_OK;
}
