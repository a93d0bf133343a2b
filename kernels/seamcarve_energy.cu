/* gst-cuda-video: what a seam carve took, for cudaseamcarve's
 * post-messages: the CUDA twin of gcv_seam_energy_sums (cpu/seamcarve.c).
 * The luma and the energy are cpu/seamcarve.h's gcv_seam_luma and
 * gcv_seam_pixel_energy compiled for the device, and the sums are of
 * integers, so both backends give the same numbers.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdint>

#include "seamcarve.h"
#include "gcv-cuda-check.h"

namespace {

constexpr int BLOCK_W = 32;     /* one warp along a row */
constexpr int BLOCK_H = 8;
constexpr int MAX_GRID_Y = 65535;

/* Plane 0's luma at (x, y), both clamped to the w x h frame; pixels are
 * `channels` bytes wide. */
__device__ __forceinline__ int
clamped_luma (const uint8_t * in, size_t stride, int w, int h, int channels, GcvLumaInput luma, int x, int y)
{
  x = min (max (x, 0), w - 1);
  y = min (max (y, 0), h - 1);
  return gcv_seam_luma (in + (size_t) y * stride + (size_t) x * channels, luma.layout, luma.r_offset,
      luma.g_offset, luma.b_offset);
}

/* One thread per input pixel (x, y), 32 x 8 pixels a block, a warp 32
 * consecutive pixels of one row: the pixel's eq. 1 L1 energy from the
 * luma of its four clamped neighbours (read straight from plane 0; the
 * rows above and below are the neighbouring warps', so they come from L1
 * / L2, no shared memory), whether its mask byte is non-zero, and the
 * warp's three sums (shuffles; at most 32 x 510 each, 32 bits suffice)
 * added by lane 0 to sums[0] (every pixel's energy), sums[1] (seam pixels)
 * and sums[2] (their energy), 64-bit atomics.  Pixels past the frame's
 * edge count 0, so every lane takes part in the shuffles. */
__global__ void __launch_bounds__ (BLOCK_W * BLOCK_H)
energy_sums_kernel (const uint8_t * __restrict__ in, size_t stride, int w, int h, int channels,
    GcvLumaInput luma, const uint8_t * __restrict__ mask, size_t mask_stride, unsigned long long *sums)
{
  const int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
  unsigned int energy = 0, seam = 0, seam_energy = 0;

  if (x < w && y < h) {
    energy = (unsigned int) gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1,
        clamped_luma (in, stride, w, h, channels, luma, x - 1, y),
        clamped_luma (in, stride, w, h, channels, luma, x + 1, y),
        clamped_luma (in, stride, w, h, channels, luma, x, y - 1),
        clamped_luma (in, stride, w, h, channels, luma, x, y + 1));
    seam = mask[(size_t) y * mask_stride + x] != 0;
    seam_energy = seam ? energy : 0;
  }
  for (int offset = BLOCK_W / 2; offset > 0; offset >>= 1) {
    energy += __shfl_down_sync (0xffffffffu, energy, offset);
    seam += __shfl_down_sync (0xffffffffu, seam, offset);
    seam_energy += __shfl_down_sync (0xffffffffu, seam_energy, offset);
  }
  if (threadIdx.x == 0) {
    atomicAdd (&sums[0], (unsigned long long) energy);
    atomicAdd (&sums[1], (unsigned long long) seam);
    atomicAdd (&sums[2], (unsigned long long) seam_energy);
  }
}

}                               /* namespace */

extern "C" GcvStatus
gcv_seam_cuda_energy_sums (const GcvSeamGeometry * geom, const GcvPlane * in0, const GcvPlane * mask,
    GcvSeamEnergySums * dev_sums, GcvSeamEnergySums * host_sums, void *stream, GcvError * err)
{
  cudaStream_t s = (cudaStream_t) stream;

  static_assert (sizeof (GcvSeamEnergySums) == 3 * sizeof (unsigned long long), "three 64-bit sums");
  if (geom == NULL || in0 == NULL || mask == NULL || dev_sums == NULL || host_sums == NULL
      || in0->data == NULL || mask->data == NULL || geom->in_width < 1 || geom->in_height < 1
      || (geom->channels != 1 && geom->channels != 4)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seam carving: energy sums of no frame, no mask or a %dx%d frame",
        geom ? geom->in_width : 0, geom ? geom->in_height : 0);
    return GCV_ERROR_INVALID;
  }
  dim3 block (BLOCK_W, BLOCK_H), grid ((geom->in_width + BLOCK_W - 1) / BLOCK_W,
      (geom->in_height + BLOCK_H - 1) / BLOCK_H);
  if (grid.y > MAX_GRID_Y) {
    gcv_error_set (err, GCV_ERROR_INVALID, "seam carving: energy sums of %d rows (at most %d)",
        geom->in_height, MAX_GRID_Y * BLOCK_H);
    return GCV_ERROR_INVALID;
  }
  GCV_CUDA_TRY (cudaMemsetAsync (dev_sums, 0, sizeof (*dev_sums), s), err, "seam carving: clearing the sums");
  energy_sums_kernel <<<grid, block, 0, s>>> ((const uint8_t *) in0->data, in0->stride, geom->in_width,
      geom->in_height, geom->channels, geom->luma, (const uint8_t *) mask->data, mask->stride,
      (unsigned long long *) dev_sums);
  GCV_CUDA_LAUNCHED (err, "seam carving: energy sums kernel launch");
  GCV_CUDA_TRY (cudaMemcpyAsync (host_sums, dev_sums, sizeof (*host_sums), cudaMemcpyDeviceToHost, s), err,
      "seam carving: reading back the sums");
  return GCV_OK;
}
