/* gst-cuda-video: Canny edge detection, the API both backends share.
 *
 * Paper 002 (Park, Ponce, Huang, Cao, Quek: "Low-Cost, High-Speed Computer
 * Vision Using NVIDIA's CUDA Architecture"), section 3: Gaussian blur,
 * 3x3 Sobel, non-maximum suppression, hysteresis.  Everything after the luma
 * read is integer arithmetic, so the CPU (cpu/canny.c) and CUDA
 * (kernels/canny.cu) backends produce bit-identical output.
 *
 * Definitions (the contract of both backends):
 *  - luma L: see GcvLumaInput in gcv-image.h.
 *  - blur (blur_size > 0): separable Gaussian, integer weights w[k] summing to
 *    256 (gcv_canny_blur_weights; sigma 0 = cv::getGaussianKernel's fixed
 *    tables, so the blur then equals cv::GaussianBlur exactly), border
 *    reflect-101 (as cv::GaussianBlur), repeated when the frame is smaller
 *    than the radius:
 *    H(y,x) = sum_k w[k] L(y, refl(x+k));   B(y,x) = (sum_k w[k] H(refl(y+k),x) + 32768) >> 16
 *    blur_size == 0: B = L.
 *  - gradient: 3x3 Sobel on B with replicated border (as cv::Canny), int dx, dy.
 *    m = |dx| + |dy| (L1) or dx*dx + dy*dy (L2, compared with squared thresholds).
 *  - non-maximum suppression: OpenCV 4.6 cv::Canny's integer sector test and
 *    tie rules (tan 22.5 deg = 13573 / 2^15), magnitude outside the image = 0.
 *  - classes: strong = NMS kept and m > high, weak = NMS kept and m > low
 *    (thresholds floored to integers, squared first for L2, as OpenCV).
 *  - hysteresis: a weak pixel is an edge iff it is 8-connected through weak or
 *    strong pixels to a strong pixel, at any distance.
 *  - edges output: 255 edge, 0 not.  magnitude output: min(255, |g| / 4) where
 *    |g| = |dx| + |dy| (L1) or floor(sqrt(dx^2 + dy^2)) (L2); an intensity step
 *    of s levels reads about s.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CANNY_H
#define GCV_CANNY_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCV_CANNY_MAX_BLUR_SIZE 7
#define GCV_CANNY_MAX_DIMENSION 32768   /* frame width and height */
#define GCV_CANNY_BLUR_WEIGHT_SUM 256   /* per pass: weights are 8-bit fixed point */

typedef enum {
  GCV_CANNY_OUTPUT_EDGES = 0,   /* 255 edge, 0 not */
  GCV_CANNY_OUTPUT_MAGNITUDE,   /* scaled gradient magnitude */
} GcvCannyOutput;

typedef struct {
  double low_threshold;         /* >= 0 */
  double high_threshold;        /* >= low_threshold */
  int blur_size;                /* 0 (off), 3, 5 or 7 */
  double blur_sigma;            /* > 0, or 0: OpenCV's fixed kernel for the size:
                                 * [64 128 64], [16 64 96 64 16], [8 28 56 72 56 28 8] / 256 */
  int l2_gradient;              /* boolean */
  GcvCannyOutput output;
} GcvCannyParams;

/* Integer Gaussian weights for blur_size taps (w[0] .. w[size-1]), symmetric,
 * summing exactly to GCV_CANNY_BLUR_WEIGHT_SUM.  Returns the radius
 * (size / 2), 0 when blur is off. */
int gcv_canny_blur_weights (const GcvCannyParams * params, int weights[GCV_CANNY_MAX_BLUR_SIZE]);

/* The integer thresholds the comparisons use (OpenCV rule). */
void gcv_canny_int_thresholds (const GcvCannyParams * params, int32_t * low, int32_t * high);

/* NULL when params are usable, else a message naming the bad value. */
const char *gcv_canny_params_check (const GcvCannyParams * params);

/* CPU backend.  The context holds all working memory for one frame size. */
typedef struct _GcvCannyCpu GcvCannyCpu;

GcvCannyCpu *gcv_canny_cpu_new (GcvLumaInput input, int width, int height, GcvError * err);
/* in: the luma-bearing plane (layout as given to _new); out: GRAY8 plane of
 * the same size.  n_threads: at most that many threads (0: one per core),
 * as many as the frame is worth (gcv-parallel.h). */
GcvStatus gcv_canny_cpu_process (GcvCannyCpu * ctx, const GcvCannyParams * params,
    const GcvPlane * in, GcvPlane * out, int n_threads, GcvError * err);
void gcv_canny_cpu_free (GcvCannyCpu * ctx);
/* The stop request _process watches (between rows, and in the flood fill
 * of the hysteresis); NULL: none. */
void gcv_canny_cpu_set_cancel (GcvCannyCpu * ctx, const GcvCancel * cancel);

/* CUDA backend (kernels/canny.cu; only when built with CUDA).  All device
 * memory is allocated in _new; _process only launches on `stream` (a
 * cudaStream_t) and does not synchronise.  in and out are device planes. */
typedef struct _GcvCannyCuda GcvCannyCuda;

GcvCannyCuda *gcv_canny_cuda_new (GcvLumaInput input, int width, int height, GcvError * err);
GcvStatus gcv_canny_cuda_process (GcvCannyCuda * ctx, const GcvCannyParams * params,
    const GcvPlane * in, GcvPlane * out, void *stream, GcvError * err);
void gcv_canny_cuda_free (GcvCannyCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_CANNY_H */
