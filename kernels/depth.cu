/* gst-cuda-video: 16-bit samples on the device, the CUDA twins of
 * cpu/depth.c: 8-bit luma of a 16-bit plane (cudamotionest and cudavcm on
 * P010_10LE) and rounding computed 16-bit samples to the codes of a format
 * that keeps low bits zero (P010 out of cudabsplinescale and cudaconv3d).
 * The per-sample rules are cpu/depth.h's gcv_luma16_to_8 and
 * gcv_round_low_bits, compiled for the device, so both backends give the
 * same bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "depth.h"
#include "gcv-cuda-check.h"

namespace {

constexpr int BLOCK_W = 32;     /* one warp along a row */
constexpr int BLOCK_H = 8;
constexpr int MAX_GRID_Y = 65535;

/* One thread per sample (x, y): reads the little-endian 16-bit sample at
 * src + y * src_stride + 2 x and writes its 8-bit luma at dst + y *
 * dst_stride + x.  Byte loads, so any stride and alignment works; a warp
 * reads 64 consecutive bytes of one row and writes 32.  No shared memory. */
__global__ void __launch_bounds__ (BLOCK_W * BLOCK_H)
luma8_kernel (const uint8_t * __restrict__ src, size_t src_stride, uint8_t * __restrict__ dst,
    size_t dst_stride, int w, int h)
{
  int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
  if (x >= w || y >= h)
    return;
  const uint8_t *s = src + (size_t) y * src_stride + 2 * (size_t) x;
  dst[(size_t) y * dst_stride + x] = gcv_luma16_to_8 ((uint32_t) s[0] | ((uint32_t) s[1] << 8));
}

/* One thread per 16-bit sample i of row y (n = width x channels samples a
 * row): rounds the sample at plane + y * stride + 2 i in place.  Same
 * access pattern as luma8_kernel. */
__global__ void __launch_bounds__ (BLOCK_W * BLOCK_H)
round_low_bits_kernel (uint8_t * __restrict__ plane, size_t stride, int n, int h, int low_bits)
{
  int i = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
  if (i >= n || y >= h)
    return;
  uint8_t *p = plane + (size_t) y * stride + 2 * (size_t) i;
  uint16_t v = gcv_round_low_bits ((uint32_t) p[0] | ((uint32_t) p[1] << 8), low_bits);
  p[0] = (uint8_t) (v & 0xff);
  p[1] = (uint8_t) (v >> 8);
}

/* The grid for n x h samples; FALSE (err set) when h needs more rows of
 * blocks than a launch has. */
bool
grid_for (int n, int h, dim3 * grid, const char *what, GcvError * err)
{
  *grid = dim3 ((n + BLOCK_W - 1) / BLOCK_W, (h + BLOCK_H - 1) / BLOCK_H);
  if (grid->y > MAX_GRID_Y) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s: %d rows (at most %d)", what, h, MAX_GRID_Y * BLOCK_H);
    return false;
  }
  return true;
}

}                               /* namespace */

extern "C" GcvStatus
gcv_luma8_cuda (const GcvPlane * src, const GcvPlane * dst, void *stream, GcvError * err)
{
  GcvStatus st = gcv_luma8_check (src, dst, err);
  dim3 grid;

  if (st != GCV_OK || src->width == 0 || src->height == 0)
    return st;
  if (!grid_for (src->width, src->height, &grid, "16-bit luma to 8 bits", err))
    return GCV_ERROR_INVALID;
  luma8_kernel <<<grid, dim3 (BLOCK_W, BLOCK_H), 0, (cudaStream_t) stream>>> ((const uint8_t *) src->data,
      src->stride, (uint8_t *) dst->data, dst->stride, src->width, src->height);
  GCV_CUDA_LAUNCHED (err, "16-bit luma to 8 bits: kernel launch");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_round_low_bits_cuda (const GcvPlane * plane, int channels, int low_bits, void *stream, GcvError * err)
{
  GcvStatus st = gcv_round_low_bits_check (plane, channels, low_bits, err);
  dim3 grid;

  if (st != GCV_OK || plane->width == 0 || plane->height == 0 || low_bits == 0)
    return st;
  const int n = plane->width * channels;
  if (!grid_for (n, plane->height, &grid, "rounding 16-bit samples", err))
    return GCV_ERROR_INVALID;
  round_low_bits_kernel <<<grid, dim3 (BLOCK_W, BLOCK_H), 0, (cudaStream_t) stream>>> ((uint8_t *)
      plane->data, plane->stride, n, plane->height, low_bits);
  GCV_CUDA_LAUNCHED (err, "rounding 16-bit samples: kernel launch");
  return GCV_OK;
}
