/* gst-cuda-video: an independent float64 reference of the spatio-temporal
 * convolution (cpu/conv3d.h) and what the conv3d tests share: small
 * real-video volumes from the test photos, random kernels, garbage-filled
 * strided planes, a runner that streams a volume through any backend
 * (push / ready / process / end), and the comparisons with the contract's
 * tolerance.
 *
 * The reference is brute force, written from the header's definitions
 * alone: it has its own border map (conv3d_ref_border) and never calls
 * gcv_conv3d_border_index() or the GcvConv3dTimeline, so a mistake in the
 * shared code shows up as a difference.  It sees the whole stream at once,
 * which is what a backend sees after _end().
 *
 * Layout of every double volume here: frame f, row y, column x, channel c
 * at v[((f * height + y) * width + x) * channels + c] (packed, interleaved).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CONV3D_REFERENCE_H
#define GCV_CONV3D_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "conv3d.h"
#include "gcv-test.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the reference ---------------------------------------------------------- */

/* Index i of an axis of n samples (n >= 1) under border: in [0, n), or -1
 * where the zero border gives 0.  Mirror is half-sample symmetric
 * (... b a | a b c | c b ...), reflected as often as needed. */
int conv3d_ref_border (GcvConv3dBorder border, long long i, long long n);

/* The contract's output of the whole stream before quantisation: `in` holds
 * `frames` frames of width x height x channels samples (layout above, the
 * integer or float values as pushed); `out` (same size) receives, for every
 * channel whose bit is set in filter_mask, v = scale * acc, |v| when
 * absolute, + offset, with
 *   acc[x, y, t] = sum_{i,j,l} K[i, j, l] * V[x + rx - i, y + ry - j, t + rt - l]
 * summed in double over the borders of `params`; every other channel gets
 * the input sample of frame t.  Uses params->kx, ky, kt, border,
 * coefficients, scale, offset, absolute (not algorithm). */
void conv3d_ref_convolve (const double *in, int width, int height, int channels, int frames,
    unsigned filter_mask, const GcvConv3dParams * params, double *out);

/* The quantised output sample of v: U8 and U16 rounded half to even and
 * clamped, F32 rounded to float. */
double conv3d_ref_quantise (double v, GcvSampleType type);

/* The largest sample value the tolerance is relative to: 255, 65535, or
 * for F32 the largest |sample| of `in` (n values, at least 1e-30). */
double conv3d_ref_vmax (GcvSampleType type, const double *in, size_t n);

/* The contract's bound on |output - reference| before quantisation:
 * |scale| * GCV_CONV3D_TOLERANCE * sum |K| * vmax. */
double conv3d_ref_tolerance (const GcvConv3dParams * params, double vmax);

/* ---- volumes ------------------------------------------------------------------ */

/* `frames` host planes of one geometry, each its own allocation with rows
 * `stride` bytes apart (data and stride aligned to the sample), plus the
 * samples as a packed double volume (layout above) where known. */
typedef struct {
  GcvSampleType type;
  int width, height, channels, frames;
  size_t stride;
  uint8_t **data;               /* frames planes of stride * height bytes */
  double *values;               /* the samples (inputs: what was written) or NULL */
  uint32_t pad_seed;            /* the padding pattern, see conv3d_test_padding_intact */
} Conv3dVolume;

/* A real-video volume: a width x height window of test photo `seed % 4`
 * that moves by a few pixels per frame (a different direction and speed
 * for each seed; coordinates wrap around the photo) plus a little noise, so
 * that every frame differs from its neighbours.  Channels 0..2 follow the
 * photo's colour channels (gray photos repeat), channel 3 is another
 * picture (an "alpha" that moves differently).  U8: the 8-bit values with
 * noise of +-3 (clamped); U16: that * 257 + d, d in [-128, 128] (clamped);
 * F32: (that - 100) / 50 + d / 12800 (negative values too).  Rows are
 * width * channels * bytes + pad_bytes apart (pad_bytes a multiple of the
 * sample size), the padding is filled with a pattern (for F32: NaN and
 * huge values, which would show if they leaked into an output). */
Conv3dVolume conv3d_test_video (GcvSampleType type, int channels, int width, int height, int frames,
    size_t pad_bytes, uint32_t seed);

/* An output volume: every byte, padding included, set to a pseudo-random
 * pattern from seed (so an unwritten sample shows); values NULL. */
Conv3dVolume conv3d_test_volume_new (GcvSampleType type, int channels, int width, int height,
    int frames, size_t pad_bytes, uint32_t seed);
void conv3d_test_volume_free (Conv3dVolume * v);

/* Plane descriptor of frame f. */
GcvPlane conv3d_test_plane (const Conv3dVolume * v, int f);

/* Sample (x, y, c) of frame f as a double. */
double conv3d_test_get (const Conv3dVolume * v, int f, int x, int y, int c);

/* Whether every padding byte of an output volume made by
 * conv3d_test_volume_new still holds its pattern (the backend wrote no
 * byte outside width * channels samples of each row). */
int conv3d_test_padding_intact (const Conv3dVolume * v);

/* ---- kernels ------------------------------------------------------------------ */

/* kx * ky * kt coefficients, uniform in [-1, 1] plus a positive bump at
 * the centre of every frame slice, reproducible from seed. */
void conv3d_test_random_kernel (int kx, int ky, int kt, uint32_t seed, float *out);

/* sum |K| of n coefficients. */
double conv3d_test_abs_sum (const float *k, int n);

/* GcvConv3dParams / GcvConv3dGeometry constructors (scale 1, offset 0,
 * absolute off). */
GcvConv3dParams conv3d_test_params (int kx, int ky, int kt, GcvConv3dBorder border,
    GcvConv3dAlgorithm algorithm, const float *coefficients);
GcvConv3dGeometry conv3d_test_geometry (GcvSampleType type, int channels, unsigned filter_mask,
    int width, int height, int max_outputs);

/* ---- streaming a volume through a backend --------------------------------------- */

/* One backend context behind plain function pointers (the CPU backend:
 * conv3d_test_cpu_backend; a CUDA test wraps its device context, uploading
 * in push and downloading the outputs in process). */
typedef struct {
  void *ctx;
  GcvStatus (*push) (void *ctx, const GcvPlane * in, GcvError * err);
  void (*end) (void *ctx);
  int (*ready) (void *ctx);
  GcvStatus (*process) (void *ctx, const GcvConv3dParams * params, int n, GcvPlane * out,
      GcvError * err);
} Conv3dBackend;

/* The CPU backend's calls on a GcvConv3dCpu. */
Conv3dBackend conv3d_test_cpu_backend (GcvConv3dCpu * ctx);

/* Streams every frame of `in` through backend b, as an element would:
 * after each push, while at least `batch` outputs are ready, processes
 * `batch` of them; after the last push, _end() and the rest in calls of at
 * most `batch`.  batch <= 0: each call takes a pseudo-random count from 1
 * to -batch (at most what is ready).  Outputs go to out (a volume of
 * in->frames frames made by the caller).  Also checks the ready counts the
 * contract gives (nothing ready before frame rt is pushed, exactly
 * frames - rt - done after each push, all after _end()).  Returns 0, or -1
 * with a message in msg (a refused push or process, a wrong ready count). */
int conv3d_test_run (const Conv3dBackend * b, const Conv3dVolume * in, const GcvConv3dParams * params,
    int kt, int batch, Conv3dVolume * out, char *msg, size_t msg_len);

/* ---- comparisons ----------------------------------------------------------------- */

typedef struct {
  double max_err;               /* largest |got - ref| over filtered samples (F32), or in
                                 * levels against the quantised reference (U8, U16) */
  double tol;                   /* the bound max_err was held to */
  long bad;                     /* filtered samples beyond the bound */
  long bad_copy;                /* unfiltered samples not equal to the centre frame's */
  int first_f, first_x, first_y, first_c;       /* the first bad sample (-1: none) */
  double first_got, first_ref;
} Conv3dDiff;

/* Compares an output volume with the reference's unquantised values (ref,
 * layout above, as conv3d_ref_convolve gives).  F32: |got - ref| <= tol
 * (plus float rounding of the result, 2^-22 |ref|); U8, U16: |got -
 * quantise(ref)| <= 1 level.  Channels not in filter_mask must equal the
 * reference exactly. */
void conv3d_test_compare (const Conv3dVolume * got, const double *ref, unsigned filter_mask,
    double tol, Conv3dDiff * d);

/* Compares two output volumes of one geometry (e.g. two backends): F32
 * within tol, U8 and U16 within 1 level; channels not in filter_mask
 * exactly. */
void conv3d_test_compare_volumes (const Conv3dVolume * a, const Conv3dVolume * b, unsigned filter_mask,
    double tol, Conv3dDiff * d);

/* "max err E (tol T), N bad, first at frame f (x,y) c: got G, want R". */
const char *conv3d_test_diff_string (const Conv3dDiff * d, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* GCV_CONV3D_REFERENCE_H */
