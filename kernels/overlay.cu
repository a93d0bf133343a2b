/* gst-cuda-video: painting a mask onto one component of a frame in device
 * memory, the CUDA twin of gcv_overlay_component_bits (cpu/overlay.c) for
 * the overlay modes of elements whose frames stay on the GPU (Canny's
 * overlay, seam carving's show-seams).  The coverage test and the blend are
 * cpu/overlay.h's gcv_overlay_covered and gcv_overlay_blend, compiled for
 * the device, so both backends paint the same bytes.
 *
 * It also counts a mask's pixels on the device (gcv_overlay_cuda_count),
 * the twin of gcv_overlay_count, for the elements' post-messages.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "overlay.h"
#include "gcv-cuda-check.h"

namespace {

constexpr int BLOCK_W = 32;     /* one warp along a component row */
constexpr int BLOCK_H = 8;
constexpr int MAX_GRID_Y = 65535;
constexpr int MAX_SHIFT = 15;

/* One thread per component sample (x, y): tests the (1 << xs) x (1 << ys)
 * mask pixels the sample covers, clipped to the mask, and when one has
 * (m & bits) != 0 blends value into the sample's 1 (or, depth16, 2
 * little-endian, rounded to keep low_bits low bits zero) bytes in place.
 * Layout: sample (x, y) at comp + y * comp_stride + x * pixel_stride; the
 * other bytes of the row (other components of interleaved pixels, padding)
 * are neither read nor written.  Mask pixel (mx, my) at mask + my *
 * mask_stride + mx.  A block is 32 x 8 samples, a warp 32 consecutive
 * samples of one row: its loads and stores walk the row pixel_stride bytes
 * apart, its mask reads 32 << xs consecutive bytes of 1 << ys mask rows.
 * No shared memory: a mask byte is read by one sample only. */
__global__ void __launch_bounds__ (BLOCK_W * BLOCK_H)
overlay_component_kernel (uint8_t * __restrict__ comp, size_t comp_stride, int pixel_stride, int w, int h,
    int xs, int ys, int depth16, int low_bits, const uint8_t * __restrict__ mask, size_t mask_stride,
    int mask_w, int mask_h, uint8_t bits, uint8_t value, uint8_t alpha)
{
  int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
  if (x >= w || y >= h)
    return;
  if (gcv_overlay_covered (mask, mask_stride, mask_w, mask_h, x, y, xs, ys, bits))
    gcv_overlay_blend (comp + (size_t) y * comp_stride + (size_t) x * pixel_stride, depth16, low_bits, value,
        alpha);
}

/* One thread per mask pixel (x, y), 32 x 8 pixels a block, a warp 32
 * consecutive pixels of one row: the warp's ballot of the pixels with
 * (m & bits) != 0 (pixels past the mask's edge vote 0, so that every lane
 * takes part) and one 64-bit atomic add of its population count per warp
 * into *count.  Integer counts: any order of the adds gives the same sum,
 * the host's gcv_overlay_count. */
__global__ void __launch_bounds__ (BLOCK_W * BLOCK_H)
count_kernel (const uint8_t * __restrict__ mask, size_t stride, int w, int h, uint8_t bits,
    unsigned long long *count)
{
  int x = blockIdx.x * BLOCK_W + threadIdx.x, y = blockIdx.y * BLOCK_H + threadIdx.y;
  int hit = x < w && y < h && (mask[(size_t) y * stride + x] & bits) != 0;
  unsigned int votes = __ballot_sync (0xffffffffu, hit);

  if (threadIdx.x == 0 && votes != 0)
    atomicAdd (count, (unsigned long long) __popc (votes));
}

/* Samples from n on cover no mask pixel: ceil (mask_size / 2^shift),
 * capped at the component's size. */
int
painted_extent (int comp_size, int mask_size, int shift)
{
  int64_t n = ((int64_t) mask_size + (1 << shift) - 1) >> shift;
  return n < comp_size ? (int) n : comp_size;
}

}                               /* namespace */

extern "C" GcvStatus
gcv_overlay_cuda_component (const GcvComponent * comp, const GcvPlane * mask, uint8_t mask_bits,
    uint8_t value, uint8_t alpha, void *stream, GcvError * err)
{
  if (comp == NULL || mask == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: no component or no mask");
    return GCV_ERROR_INVALID;
  }
  if (comp->width < 0 || comp->height < 0 || mask->width < 0 || mask->height < 0
      || comp->pixel_stride < (comp->depth16 ? 2 : 1) || comp->x_shift < 0 || comp->x_shift > MAX_SHIFT
      || comp->y_shift < 0 || comp->y_shift > MAX_SHIFT || comp->low_bits < 0
      || comp->low_bits > (comp->depth16 ? GCV_DEPTH_MAX_LOW_BITS : 0)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: unsupported component %dx%d (pixel stride %d, %d-bit, "
        "%d low bits zero, shifts %d, %d; shifts 0 .. %d) or mask %dx%d", comp->width, comp->height,
        comp->pixel_stride, comp->depth16 ? 16 : 8, comp->low_bits, comp->x_shift, comp->y_shift, MAX_SHIFT,
        mask->width, mask->height);
    return GCV_ERROR_INVALID;
  }
  const int w = painted_extent (comp->width, mask->width, comp->x_shift);
  const int h = painted_extent (comp->height, mask->height, comp->y_shift);
  if (alpha == 0 || mask_bits == 0 || w == 0 || h == 0)
    return GCV_OK;
  if (comp->data == NULL || mask->data == NULL) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: component or mask without data");
    return GCV_ERROR_INVALID;
  }
  dim3 block (BLOCK_W, BLOCK_H), grid ((w + BLOCK_W - 1) / BLOCK_W, (h + BLOCK_H - 1) / BLOCK_H);
  if (grid.y > MAX_GRID_Y) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: component of %d rows (at most %d)", h,
        MAX_GRID_Y * BLOCK_H);
    return GCV_ERROR_INVALID;
  }
  overlay_component_kernel <<<grid, block, 0, (cudaStream_t) stream>>> (comp->data, comp->stride,
      comp->pixel_stride, w, h, comp->x_shift, comp->y_shift, comp->depth16, comp->low_bits,
      (const uint8_t *) mask->data, mask->stride, mask->width, mask->height, mask_bits, value, alpha);
  GCV_CUDA_LAUNCHED (err, "overlay: component kernel launch");
  return GCV_OK;
}

extern "C" GcvStatus
gcv_overlay_cuda_count (const GcvPlane * mask, uint8_t bits, uint64_t * dev_count, uint64_t * host_count,
    void *stream, GcvError * err)
{
  cudaStream_t s = (cudaStream_t) stream;

  if (mask == NULL || dev_count == NULL || host_count == NULL || mask->width < 0 || mask->height < 0) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: count of no mask or of a %dx%d mask",
        mask ? mask->width : 0, mask ? mask->height : 0);
    return GCV_ERROR_INVALID;
  }
  dim3 block (BLOCK_W, BLOCK_H), grid ((mask->width + BLOCK_W - 1) / BLOCK_W,
      (mask->height + BLOCK_H - 1) / BLOCK_H);
  if (grid.y > MAX_GRID_Y) {
    gcv_error_set (err, GCV_ERROR_INVALID, "overlay: count of a mask of %d rows (at most %d)", mask->height,
        MAX_GRID_Y * BLOCK_H);
    return GCV_ERROR_INVALID;
  }
  GCV_CUDA_TRY (cudaMemsetAsync (dev_count, 0, sizeof (*dev_count), s), err, "overlay: clearing the count");
  if (mask->width > 0 && mask->height > 0 && bits != 0) {
    if (mask->data == NULL) {
      gcv_error_set (err, GCV_ERROR_INVALID, "overlay: count of a mask without data");
      return GCV_ERROR_INVALID;
    }
    count_kernel <<<grid, block, 0, s>>> ((const uint8_t *) mask->data, mask->stride, mask->width,
        mask->height, bits, (unsigned long long *) dev_count);
    GCV_CUDA_LAUNCHED (err, "overlay: count kernel launch");
  }
  GCV_CUDA_TRY (cudaMemcpyAsync (host_count, dev_count, sizeof (*host_count), cudaMemcpyDeviceToHost, s), err,
      "overlay: reading back the count");
  return GCV_OK;
}
