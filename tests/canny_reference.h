/* gst-cuda-video: an independent, deliberately simple reference of the Canny
 * contract in cpu/canny.h, for the tests only.
 *
 * It is written to be read against canny.h, not to be fast: whole-image
 * arrays, one stage at a time, explicit border functions, a direct 2-D blur
 * and a breadth-first hysteresis with an explicit queue.  It shares no code
 * with cpu/canny.c or kernels/canny.cu; the only inputs it takes from them are
 * the integer blur weights (gcv_canny_blur_weights), which canny.h makes part
 * of the contract.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CANNY_REFERENCE_H
#define GCV_CANNY_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "canny.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything the reference needs, already reduced to integers. */
typedef struct {
  int blur_radius;              /* 0: no blur; else blur_size / 2 */
  int weights[GCV_CANNY_MAX_BLUR_SIZE];  /* 2 * blur_radius + 1 taps */
  int32_t low, high;            /* compared as m > low, m > high */
  int l2;
  GcvCannyOutput output;
} RefCannyConfig;

/* Border index maps. */
int ref_reflect101 (int p, int n);      /* cv::BORDER_REFLECT_101, repeated for tiny n */
int ref_replicate (int p, int n);       /* cv::BORDER_REPLICATE */

/* OpenCV's threshold rule: L2: t = min(t, 32767), squared; then floored. */
void ref_int_thresholds (double low, double high, int l2, int32_t * ilow, int32_t * ihigh);

/* Config from params plus the contract's integer weights (radius as returned
 * by gcv_canny_blur_weights). */
void ref_config_from_params (const GcvCannyParams * params, const int weights[GCV_CANNY_MAX_BLUR_SIZE],
    int radius, RefCannyConfig * cfg);

/* Blur B of luma L (w x h), as int.  The direct version uses the 2-D kernel
 * w[i] * w[j] (sum 65536) once; the two-pass version follows canny.h's
 * H / B formulas literally.  Both must agree, since H is not rounded. */
void ref_blur_direct (const uint8_t * L, int w, int h, const int *weights, int radius, int32_t * B);
void ref_blur_two_pass (const uint8_t * L, int w, int h, const int *weights, int radius, int32_t * B);

/* 3x3 Sobel with replicated border. */
void ref_sobel (const int32_t * B, int w, int h, int32_t * dx, int32_t * dy);

/* Classes after non-maximum suppression: 0 none, 1 weak, 2 strong. */
#define REF_NONE 0
#define REF_WEAK 1
#define REF_STRONG 2
void ref_nms_classes (const int32_t * dx, const int32_t * dy, int w, int h, int l2, int32_t low,
    int32_t high, uint8_t * classes);

/* Hysteresis: out[i] = 255 when classes[i] is strong or a weak pixel
 * 8-connected through weak/strong pixels to a strong one, else 0.  Returns
 * the number of edge pixels. */
long ref_hysteresis (const uint8_t * classes, int w, int h, uint8_t * out);

/* floor(sqrt(v)) for v >= 0, integer only. */
int32_t ref_isqrt (int64_t v);

/* Magnitude output: min(255, |g| / 4). */
void ref_magnitude_output (const int32_t * dx, const int32_t * dy, int w, int h, int l2, uint8_t * out);

/* The whole pipeline on packed luma; out is packed w x h GRAY8. */
void ref_canny (const uint8_t * luma, int w, int h, const RefCannyConfig * cfg, uint8_t * out);

/* ---- the parameter sets the Canny tests share ---------------------------- */

typedef struct {
  int size;                     /* blur_size */
  double sigma;                 /* blur_sigma */
} RefBlurCase;

typedef struct {
  double low, high;
  int l2;
  GcvCannyOutput output;
} RefDetectCase;

/* blur 0; 3, 5, 7 with sigma 0, 1.4, 2.5 */
extern const RefBlurCase ref_blur_cases[];
extern const int ref_n_blur_cases;
/* edges with integer and fractional, equal and zero thresholds, L1 and L2;
 * magnitude L1 and L2 */
extern const RefDetectCase ref_detect_cases[];
extern const int ref_n_detect_cases;

void ref_make_params (const RefBlurCase * b, const RefDetectCase * d, GcvCannyParams * p);
/* "blur=5 sigma=1.4 low=30.5 high=90.7 L2 edges" */
const char *ref_params_describe (const GcvCannyParams * p, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* GCV_CANNY_REFERENCE_H */
