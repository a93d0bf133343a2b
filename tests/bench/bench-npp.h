/* gst-cuda-video: NVIDIA's NPP as a GPU peer of the benchmarks (bench-canny:
 * nppiFilterCannyBorder; bench-bsplinescale: nppiResize), loaded at run
 * time from the CUDA toolkit's libnppc / libnppif / libnppig (sonames 13,
 * 12, 11, then unversioned): the build never needs NPP, and a host without
 * it gets skipped rows that say why.  Only in builds with CUDA
 * (bench_npp.cu, in gcv-bench).
 *
 * The declarations are ours, written from NPP's documentation (function
 * signatures, NppStreamContext's fields, the enumerators' values); no NPP
 * header is used.  Every function works on device memory of the current
 * device, on `stream` (a cudaStream_t), without synchronising.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BENCH_NPP_H
#define GCV_BENCH_NPP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Interpolation modes of nppiResize (NppiInterpolationMode's values). */
enum {
  GCVB_NPP_INTER_LINEAR = 2,
  GCVB_NPP_INTER_CUBIC = 4,             /* cubic convolution (B = 0, C = 1/2: Catmull-Rom) */
  GCVB_NPP_INTER_CUBIC2P_BSPLINE = 5,   /* the cubic B-spline kernel without prefilter: smooths */
  GCVB_NPP_INTER_CUBIC2P_CATMULLROM = 6,
  GCVB_NPP_INTER_SUPER = 8,             /* super-sampling: shrinking only */
  GCVB_NPP_INTER_LANCZOS = 16,
};

/* Loads libnppc and the part `lib` ("nppif": filters, Canny; "nppig":
 * geometry, resize) once; 0, or -1 with why. */
int gcvb_npp_load (const char *lib, char *why, size_t why_len);
/* "13.0.1 (libnppif.so.13)" once loaded, else "". */
const char *gcvb_npp_version (void);

/* Scratch bytes nppiFilterCannyBorder_8u_C1R_Ctx needs for w x h, 0 on an
 * error. */
size_t gcvb_npp_canny_scratch (int w, int h);
/* nppiFilterCannyBorder_8u_C1R_Ctx on a w x h GRAY8 image: Sobel 3 x 3,
 * L1 (l2 = 0) or L2 magnitude, hysteresis low / high, replicated border;
 * edges 255, others 0.  0, or -1 with the NppStatus in err. */
int gcvb_npp_canny (const uint8_t * src, size_t src_step, uint8_t * dst, size_t dst_step, int w, int h,
    int low, int high, int l2, void *scratch, void *stream, char *err, size_t err_len);

/* nppiResize_8u_C1R_Ctx / _C4R_Ctx (channels 1 or 4): the whole sw x sh
 * source into the whole dw x dh destination with `mode`.  0, or -1 with
 * the NppStatus in err. */
int gcvb_npp_resize (const uint8_t * src, size_t src_step, int sw, int sh, uint8_t * dst, size_t dst_step,
    int dw, int dh, int channels, int mode, void *stream, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif
#endif /* GCV_BENCH_NPP_H */
