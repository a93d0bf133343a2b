/* gst-cuda-video: separable video scaling with prefiltered cubic B-splines,
 * the API both backends share.
 *
 * Paper 000 (Kirk/Hwu et al., "Enhancement example: spatial interpolation";
 * Unser's B-spline signal processing): the interpolating cubic spline is
 * evaluated in two steps, a prefilter that turns samples into B-spline
 * coefficients (a causal and an anticausal single-pole IIR per row and per
 * column, pole z = sqrt(3) - 2) and a 4x4 separable FIR with the cubic
 * B-spline basis.  Catmull-Rom, bilinear and nearest run through the same
 * FIR code with other weights and no prefilter, so they compare fairly.
 *
 * Definitions (the contract of both backends; they follow it operation by
 * operation and give bit-identical output):
 *  - Geometry, per axis with n_in input and n_out output samples, scale
 *    s = n_in / n_out: output sample o sits at x = (o + 0.5) * s - 0.5 in
 *    input coordinates (pixel centres aligned).  Indices outside [0, n_in)
 *    are mirrored half-sample symmetrically (... b a | a b c ... z | z y ...),
 *    with period 2 n_in, in the prefilter and in the FIR.
 *  - Kernels phi: bspline = cubic B-spline beta3 (radius 2) applied to the
 *    prefiltered coefficients; catmull-rom = Keys' cubic with a = -0.5
 *    (radius 2); bilinear = triangle (radius 1); nearest = the sample at
 *    floor(x + 0.5) (one tap).
 *  - Antialias (params.antialias and s > 1, every method but nearest): the
 *    kernel is stretched, phi_s(t) = phi(t / s) / s, radius r * s, so that
 *    the filter's cut-off follows the output's Nyquist frequency.  For
 *    bspline the stretched beta3 is applied to the coefficients, so the
 *    filter is (1 / B3(w)) * beta3-hat(s w): the prefilter's sharpening
 *    followed by a cubic B-spline low-pass of width 4 s.
 *  - Weights: taps i = ceil(x - r) .. floor(x + r) (r the possibly stretched
 *    radius; a tap at exactly |x - i| = r has weight 0 and is dropped),
 *    w_i = phi(x - i) computed in double, divided by their sum, rounded to
 *    float.  gcv_scale_axis_init() builds these tables; both backends use it.
 *  - Prefilter (bspline only): on float samples, first along y (every column
 *    of every channel), then along x.  A scanline of n samples is cut into
 *    segments of S = GCV_BSPLINE_SEGMENT samples; for the segment starting
 *    at a the causal recursion y = f[j] + z * y runs over
 *    j = a - W .. a + S + W - 1 from y = 0 (W = GCV_BSPLINE_WARMUP, f
 *    mirrored, also past n in the last segment), then the anticausal one
 *    q = z * (q - y[j]) from q = 0 over j = a + S + W - 1 .. a, and
 *    c[j] = 6 * q for j in [a, min (a + S, n)).  The warm-up replaces the exact boundary
 *    initialisation: |z|^16 < 1e-9, far below float resolution, and every
 *    segment is independent, which is what lets the GPU run them in
 *    parallel.
 *  - FIR: horizontal pass first, R[y][ox] = sum_t wx[ox][t] * S[y][ix[ox][t]]
 *    (S = coefficients for bspline, the samples otherwise), then vertical,
 *    v = sum_t wy[oy][t] * R[iy[oy][t]][ox]; sums start at 0 and run over t
 *    in order, every product and sum rounded to float (no fused
 *    multiply-add).
 *  - Output: float kept as is (GCV_SAMPLE_F32); integers rounded half to
 *    even and clamped to [0, 255] or [0, 65535].
 *  - Channels are interleaved (RGBA: 4, NV12's UV plane: 2) and filtered
 *    independently; alpha is not premultiplied.
 *  - Planes: data and stride aligned to the sample size (2 bytes for U16,
 *    4 for F32); _process refuses others.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BSPLINESCALE_H
#define GCV_BSPLINESCALE_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCV_BSPLINE_POLE (-0.267949192431122706f)       /* sqrt(3) - 2 */
#define GCV_BSPLINE_SEGMENT 32
#define GCV_BSPLINE_WARMUP 16
#define GCV_SCALE_MAX_CHANNELS 4
#define GCV_SCALE_MAX_DIMENSION 32767   /* input and output width and height */

typedef enum {
  GCV_SCALE_BSPLINE = 0,        /* prefiltered cubic B-spline: the interpolating spline */
  GCV_SCALE_CATMULL_ROM,        /* Keys cubic, a = -0.5, on the samples */
  GCV_SCALE_BILINEAR,
  GCV_SCALE_NEAREST,
} GcvScaleMethod;

typedef struct {
  GcvScaleMethod method;
  int antialias;                /* boolean: stretch the kernel when downscaling */
} GcvScaleParams;

/* One plane to scale: `channels` interleaved samples of `type` per pixel. */
typedef struct {
  GcvSampleType type;
  int channels;                 /* 1 .. GCV_SCALE_MAX_CHANNELS */
  int in_width, in_height;
  int out_width, out_height;
} GcvScaleGeometry;

/* The FIR table of one axis: for output sample o, taps t = 0 .. taps-1 read
 * input index index[o * taps + t] (already mirrored into [0, n_in)) with
 * weight weight[o * taps + t].  Unused trailing taps have weight 0. */
typedef struct {
  int n_in, n_out;
  int taps;
  int32_t *index;
  float *weight;
} GcvScaleAxis;

/* NULL when usable, else a message naming the bad value. */
const char *gcv_scale_params_check (const GcvScaleParams * params);
const char *gcv_scale_geometry_check (const GcvScaleGeometry * geom);

/* Half-sample symmetric mirror of any integer index into [0, n). */
int gcv_scale_mirror (long long i, int n);
/* Kernel value phi(t) of @method (unstretched). */
double gcv_scale_kernel (GcvScaleMethod method, double t);
/* The most taps any output sample of this axis needs (>= 1). */
int gcv_scale_axis_taps (const GcvScaleParams * params, int n_in, int n_out);
/* Fills @axis for @params (allocates index and weight; taps =
 * gcv_scale_axis_taps()).  Returns GCV_OK or GCV_ERROR_NO_MEMORY. */
GcvStatus gcv_scale_axis_init (GcvScaleAxis * axis, const GcvScaleParams * params, int n_in,
    int n_out, GcvError * err);
void gcv_scale_axis_clear (GcvScaleAxis * axis);
/* The argument checks both _process functions start with: usable params,
 * planes of the context's sizes, rows at least as long as their pixels,
 * data and strides multiples of the sample size.  GCV_OK, or
 * GCV_ERROR_INVALID with a message naming what is wrong. */
GcvStatus gcv_scale_process_check (const GcvScaleGeometry * geom, const GcvScaleParams * params,
    const GcvPlane * in, const GcvPlane * out, GcvError * err);

/* CPU backend: one context per plane geometry, all working memory made in
 * _new.  Planes: width/height in pixels, stride in bytes.  n_threads: at
 * most that many threads (0: one per core), as many as the frame is worth
 * (gcv-parallel.h). */
typedef struct _GcvScaleCpu GcvScaleCpu;

GcvScaleCpu *gcv_scale_cpu_new (const GcvScaleGeometry * geom, GcvError * err);
GcvStatus gcv_scale_cpu_process (GcvScaleCpu * ctx, const GcvScaleParams * params,
    const GcvPlane * in, GcvPlane * out, int n_threads, GcvError * err);
/* The stop request _process watches (NULL: none); stopped, it returns
 * GCV_ERROR_CANCELLED with the output incomplete. */
void gcv_scale_cpu_set_cancel (GcvScaleCpu * ctx, const GcvCancel * cancel);
void gcv_scale_cpu_free (GcvScaleCpu * ctx);

/* CUDA backend (kernels/bsplinescale.cu; only when built with CUDA).  All
 * device memory (float intermediates, FIR tables) is made in _new; tables
 * are rebuilt and uploaded only when params change.  _process launches on
 * `stream` (a cudaStream_t) and does not synchronise; in/out are device
 * planes. */
typedef struct _GcvScaleCuda GcvScaleCuda;

GcvScaleCuda *gcv_scale_cuda_new (const GcvScaleGeometry * geom, GcvError * err);
GcvStatus gcv_scale_cuda_process (GcvScaleCuda * ctx, const GcvScaleParams * params,
    const GcvPlane * in, GcvPlane * out, void *stream, GcvError * err);
void gcv_scale_cuda_free (GcvScaleCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_BSPLINESCALE_H */
