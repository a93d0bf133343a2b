/* gst-cuda-video: non-separable spatio-temporal (x, y, t) convolution, the
 * API both backends share.
 *
 * Paper 000 (Kirk/Hwu et al.), "Case study: 3-D convolution", eq. 1:
 *   (V * K)[x, y, t] = sum_m sum_n sum_l V[x - m, y - n, t - l] K[m, n, l]
 * with K general (not separable), and its five algorithms: BASELINE,
 * SHARED MEMORY, STREAMING (direct) and 3-D FOURIER, HYBRID FOURIER (FFT).
 *
 * Definitions (the contract of both backends and of every algorithm):
 *  - Kernel: kx, ky, kt odd, 1 .. GCV_CONV3D_MAX_SIZE; radii rx = (kx-1)/2,
 *    ry, rt likewise.  Coefficient K[i, j, l] (i = 0 .. kx-1, j, l likewise)
 *    is stored at index i + kx * (j + ky * l): x fastest, then y, then t.
 *    Tap (i, j, l) is the paper's K[m, n, l'] with m = i - rx, n = j - ry,
 *    l' = l - rt, so
 *      out[x, y, t] = sum_{i,j,l} K[i, j, l] * V[x + rx - i, y + ry - j, t + rt - l]
 *    (a true convolution: the kernel is flipped against correlation).
 *    Output frame t thus uses input frames t - rt .. t + rt, and is
 *    centred on input frame t: the latency is rt frames.
 *  - Borders (spatial and temporal alike), for an index i outside [0, n):
 *    zero (V = 0 there), replicate (the nearest sample, clamp), mirror
 *    (half-sample symmetric: ... b a | a b c ... z | z y ..., period 2 n,
 *    any distance).  In time, n is unknown until the stream ends: frames
 *    after the last pushed one are only resolved after _end(), with n the
 *    number of frames pushed; frames before 0 are resolved at once.
 *    gcv_conv3d_border_index() is the map; both backends use it.
 *  - Accumulation in float (the FFT algorithms in float with their own
 *    rounding): results of different algorithms and backends agree to
 *    GCV_CONV3D_TOLERANCE * sum |K| * vmax before quantisation, vmax =
 *    255 (U8), 65535 (U16), the largest |sample| (F32).
 *  - Output: v = scale * acc; v = |v| when absolute; v += offset; U8 and U16
 *    round half to even (rintf) and clamp to [0, 255] / [0, 65535]; F32
 *    keeps v.  Input samples are used as their integer values (0 .. 255).
 *  - Channels: `channels` interleaved samples per pixel (RGBA 4, NV12's UV
 *    2), each convolved on its own.  Channels whose bit in filter_mask is
 *    clear (alpha, the x of RGBx, chroma when only luma is filtered) are
 *    copied unchanged from the centre frame t (no scale or offset), so they
 *    stay in step with the filtered ones.
 *  - Streaming: frames are pushed one at a time into a ring of
 *    kt + max_outputs - 1 frames kept by the context (on the device for
 *    CUDA).  Output frames come out in order, 0, 1, 2, ...: output t is
 *    ready once frame t + rt has been pushed, or after _end() for the last
 *    rt frames.  _process computes the next n ready outputs at once (the
 *    paper's benchmark: kt + 3 frames in, 4 outputs out).  A push that would
 *    overwrite a frame a pending output still needs is refused.
 *  - Planes: data and stride aligned to the sample size; any width and
 *    height >= 1 (a kernel larger than the frame is fine with every border).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CONV3D_H
#define GCV_CONV3D_H

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCV_CONV3D_MAX_SIZE 31
#define GCV_CONV3D_MAX_DIMENSION 32768  /* frame width and height */
#define GCV_CONV3D_MAX_CHANNELS 4
#define GCV_CONV3D_MAX_OUTPUTS 16
/* agreement between algorithms and with a float64 reference, relative to
 * sum |K| * vmax (see above) */
#define GCV_CONV3D_TOLERANCE 1e-4

typedef enum {
  GCV_CONV3D_BORDER_ZERO = 0,
  GCV_CONV3D_BORDER_REPLICATE,
  GCV_CONV3D_BORDER_MIRROR,
} GcvConv3dBorder;

typedef enum {
  GCV_CONV3D_AUTO = 0,          /* gcv_conv3d_choose() picks; never given to _new */
  GCV_CONV3D_BASELINE,          /* one output per task, every tap read from memory */
  GCV_CONV3D_SHARED,            /* input tile with apron staged once (GPU: shared memory) */
  GCV_CONV3D_STREAMING,         /* slices streamed along one axis, partial sums in registers */
  GCV_CONV3D_FFT3D,             /* 3-D FFT of the window, pointwise product, inverse */
  GCV_CONV3D_FFT_HYBRID,        /* 2-D FFT per frame (once, at push), complex 1-D
                                 * convolution along t, 2-D inverse per output */
  GCV_CONV3D_N_ALGORITHMS
} GcvConv3dAlgorithm;

typedef enum {
  GCV_CONV3D_KERNEL_GAUSSIAN = 0,
  GCV_CONV3D_KERNEL_BOX,
  GCV_CONV3D_KERNEL_GABOR,
  GCV_CONV3D_KERNEL_CUSTOM,
} GcvConv3dKernelType;

/* What _new fixes (shape, border, algorithm) and what may change between
 * _process calls (coefficient values, scale, offset, absolute): a context
 * keeps a copy of the coefficients and redoes what depends on them (FFT
 * spectra, device copy) only when they change. */
typedef struct {
  int kx, ky, kt;
  GcvConv3dBorder border;
  GcvConv3dAlgorithm algorithm;
  const float *coefficients;    /* kx * ky * kt values, layout above */
  float scale, offset;
  int absolute;                 /* boolean */
} GcvConv3dParams;

/* One plane stream: sample type, interleaved channels and size. */
typedef struct {
  GcvSampleType type;           /* of the input and the output planes */
  int channels;                 /* 1 .. GCV_CONV3D_MAX_CHANNELS */
  unsigned filter_mask;         /* bit c: channel c is convolved, else copied */
  int width, height;
  int max_outputs;              /* most outputs per _process, 1 .. GCV_CONV3D_MAX_OUTPUTS */
} GcvConv3dGeometry;

/* Synthetic kernels (the element's kernel property). */
typedef struct {
  GcvConv3dKernelType type;
  int kx, ky, kt;
  double sigma;                 /* spatial Gaussian sigma (gaussian, gabor); <= 0: from kx, ky */
  double temporal_sigma;        /* temporal sigma (gaussian, gabor); <= 0: from kt */
  double wavelength;            /* gabor carrier wavelength, pixels (> 0) */
  double orientation;           /* gabor carrier direction, degrees, 0 = along +x */
  double speed;                 /* gabor drift, pixels per frame along the orientation */
  int normalize;                /* boolean, see gcv_conv3d_kernel_normalize() */
} GcvConv3dKernelSpec;

/* ---- shared (cpu/conv3d.c) --------------------------------------------- */

const char *gcv_conv3d_algorithm_name (GcvConv3dAlgorithm algorithm);
const char *gcv_conv3d_border_name (GcvConv3dBorder border);

/* NULL when usable, else a message naming the bad value (sizes, enums, a
 * missing coefficient array, non-finite coefficients or scale/offset). */
const char *gcv_conv3d_params_check (const GcvConv3dParams * params);
const char *gcv_conv3d_geometry_check (const GcvConv3dGeometry * geom);

/* Index i of an axis of n samples under @border: in [0, n), or -1 where
 * the zero border gives 0. */
int gcv_conv3d_border_index (GcvConv3dBorder border, long long i, long long n);

/* The smallest 2,3,5,7-smooth size >= n, even when @even (the FFT sizes
 * of both backends and of the cost model). */
int gcv_conv3d_fft_size (int n, int even);

/* Default sigma for a kernel of @size taps when none is given (OpenCV's
 * getGaussianKernel rule): 0.3 * ((size - 1) / 2 - 1) + 0.8. */
double gcv_conv3d_default_sigma (int size);

/* Fills @out (spec->kx * ky * kt floats, layout above) with the kernel of
 * @spec; returns NULL or a message naming the bad field.
 *  gaussian: exp (-(x^2 + y^2) / (2 sigma^2) - t^2 / (2 sigma_t^2))
 *  box:      1
 *  gabor:    a drifting-grating (spatio-temporal) Gabor, tuned to patterns
 *            along the orientation that move at `speed` pixels per frame:
 *            x' = x cos(theta) + y sin(theta), envelope
 *            E = exp (-(x^2 + y^2) / (2 sigma^2) - t^2 / (2 sigma_t^2)),
 *            K = E * (cos (2 pi (x' - speed * t) / wavelength) - c), with c
 *            the E-weighted mean of the cosine, so that sum K = 0 (no
 *            response to flat regions).
 *  custom:   refused (the coefficients come from the user).
 * x, y, t are tap offsets from the centre (i - rx, j - ry, l - rt).  Then
 * normalised when spec->normalize, as gcv_conv3d_kernel_normalize(). */
const char *gcv_conv3d_kernel_build (const GcvConv3dKernelSpec * spec, float *out);

/* Normalises n coefficients in place: divided by their sum, so that flat
 * input keeps its level; when the sum is ~0 (|sum| <= 1e-6 * sum |K|: a
 * band-pass like the Gabor) by the sum of the positive coefficients, so
 * that a pattern matching the kernel's sign gives at most the input range.
 * An all-zero kernel is refused (returns FALSE). */
int gcv_conv3d_kernel_normalize (float *k, int n);

/* Parses a kernel file: numbers separated by white space or commas, '#'
 * starts a comment to the end of the line; a number's decimal point is '.'
 * whatever the locale (g_ascii_strtod).  On success *out (malloc'd, free
 * with free()) holds the *n values.  NULL or a message with the line
 * number of the bad token. */
const char *gcv_conv3d_kernel_parse (const char *text, float **out, int *n);

/* The ring bookkeeping both backends use: which frames are held, which
 * outputs are ready, and where each tap's frame is. */
typedef struct {
  int kt;                       /* temporal taps */
  int capacity;                 /* ring slots: kt + max_outputs - 1 */
  GcvConv3dBorder border;
  long long pushed;             /* frames pushed since the last reset */
  long long next_out;           /* the next output frame */
  int ended;                    /* _end() called: pushed is the stream length */
} GcvConv3dTimeline;

void gcv_conv3d_timeline_init (GcvConv3dTimeline * tl, int kt, int max_outputs, GcvConv3dBorder border);
void gcv_conv3d_timeline_reset (GcvConv3dTimeline * tl);
/* Outputs that _process may compute now. */
int gcv_conv3d_timeline_ready (const GcvConv3dTimeline * tl);
/* TRUE when a push may overwrite the oldest slot (no pending output needs it). */
int gcv_conv3d_timeline_can_push (const GcvConv3dTimeline * tl);
/* The ring slot of frame f (f >= 0): f mod capacity. */
int gcv_conv3d_timeline_slot (const GcvConv3dTimeline * tl, long long f);
/* For output frame t, slots[l] (l = 0 .. kt-1) is the ring slot of the frame
 * tap l reads (t + rt - l, border-resolved), or -1 for a zero frame.
 * Output t must be ready. */
void gcv_conv3d_timeline_sources (const GcvConv3dTimeline * tl, long long t, int *slots);

/* Picks the algorithm for a backend (cuda = 1 for the GPU) from the
 * calibrated cost model in cpu/conv3d.c (constants measured by
 * tests/bench/bench_conv3d on an H100 and on this project's CPU host);
 * fft_available = 0 leaves the FFT algorithms out.  *why (may be NULL)
 * receives a short explanation for the log. */
GcvConv3dAlgorithm gcv_conv3d_choose (int cuda, const GcvConv3dGeometry * geom,
    const GcvConv3dParams * params, int fft_available, char *why, size_t why_len);

/* The argument checks both backends' _new start with (params and geometry
 * usable, algorithm not AUTO).  GCV_OK or GCV_ERROR_INVALID. */
GcvStatus gcv_conv3d_new_check (const GcvConv3dGeometry * geom, const GcvConv3dParams * params,
    GcvError * err);
/* The checks of _process: params shape/border/algorithm equal to the
 * context's, 1 <= n <= ready and <= max_outputs, output planes of the
 * geometry's size with aligned data and strides. */
GcvStatus gcv_conv3d_process_check (const GcvConv3dGeometry * geom, const GcvConv3dParams * ctx_params,
    const GcvConv3dTimeline * tl, const GcvConv3dParams * params, int n, const GcvPlane * out,
    GcvError * err);
/* The check of _push: a plane of the geometry's size, aligned, and room
 * in the ring. */
GcvStatus gcv_conv3d_push_check (const GcvConv3dGeometry * geom, const GcvConv3dTimeline * tl,
    const GcvPlane * in, GcvError * err);

/* ---- CPU backend (cpu/conv3d_cpu.c) -------------------------------------
 * All working memory (the float ring, FFTW plans and buffers) is made in
 * _new; FFTW plans are made once there.  n_threads: at most that many
 * threads (0: one per core), as many as each loop is worth
 * (gcv-parallel.h).
 * baseline: the direct loops as written (one output at a time, every tap
 * read from the ring); shared and streaming: the cache-blocked direct
 * algorithm (tiles of the output with their apron in cache, the CPU's
 * equivalent of both GPU schemes); fft3d, fft-hybrid: FFTW3 (GCV_ERROR_INVALID
 * "built without FFTW" when the build has none). */
typedef struct _GcvConv3dCpu GcvConv3dCpu;

int gcv_conv3d_cpu_have_fft (void);
GcvConv3dCpu *gcv_conv3d_cpu_new (const GcvConv3dGeometry * geom, const GcvConv3dParams * params,
    int n_threads, GcvError * err);
/* Copies frame `pushed` (a host plane) into the ring (fft-hybrid: and its
 * 2-D spectrum). */
GcvStatus gcv_conv3d_cpu_push (GcvConv3dCpu * ctx, const GcvPlane * in, GcvError * err);
/* The stream has ended: the last outputs become ready. */
void gcv_conv3d_cpu_end (GcvConv3dCpu * ctx);
int gcv_conv3d_cpu_ready (const GcvConv3dCpu * ctx);
/* Computes the next n outputs into out[0 .. n-1] (host planes). */
GcvStatus gcv_conv3d_cpu_process (GcvConv3dCpu * ctx, const GcvConv3dParams * params, int n,
    GcvPlane * out, GcvError * err);
/* Forgets every frame (FLUSH): the next push is frame 0. */
void gcv_conv3d_cpu_reset (GcvConv3dCpu * ctx);
/* The stop request _push and _process watch (NULL: none).  Stopped, they
 * return GCV_ERROR_CANCELLED: the frame is not pushed, the outputs stay
 * pending (incomplete in `out`). */
void gcv_conv3d_cpu_set_cancel (GcvConv3dCpu * ctx, const GcvCancel * cancel);
void gcv_conv3d_cpu_free (GcvConv3dCpu * ctx);

/* ---- CUDA backend (kernels/conv3d.cu; only when built with CUDA) --------
 * The same calls on device planes, launched on `stream` (a cudaStream_t)
 * without synchronising.  Every call on one context must use the same
 * stream (or the caller orders them): the ring, the coefficient uploads and
 * the spectra rely on stream order.  The ring, spectra and cuFFT plans (made in _new,
 * cached for the life of the context, never per frame) live on the device.
 * cuFFT is loaded at run time (libcufft.so.12 / .11 / libcufft.so); when it
 * cannot be loaded the FFT algorithms fail in _new with GCV_ERROR_INVALID
 * and a message saying so. */
typedef struct _GcvConv3dCuda GcvConv3dCuda;

/* 1 when cuFFT could be loaded (why, if not, in err). */
int gcv_conv3d_cuda_have_fft (GcvError * err);
GcvConv3dCuda *gcv_conv3d_cuda_new (const GcvConv3dGeometry * geom, const GcvConv3dParams * params,
    void *stream, GcvError * err);
GcvStatus gcv_conv3d_cuda_push (GcvConv3dCuda * ctx, const GcvPlane * in, void *stream, GcvError * err);
void gcv_conv3d_cuda_end (GcvConv3dCuda * ctx);
int gcv_conv3d_cuda_ready (const GcvConv3dCuda * ctx);
GcvStatus gcv_conv3d_cuda_process (GcvConv3dCuda * ctx, const GcvConv3dParams * params, int n,
    GcvPlane * out, void *stream, GcvError * err);
void gcv_conv3d_cuda_reset (GcvConv3dCuda * ctx);
/* The stop request _process watches (NULL: none): a baseline frame of more
 * than some tens of milliseconds of the device then goes in bands of
 * rows, the host at most two bands ahead, and returns GCV_ERROR_CANCELLED
 * between them when asked (what was queued still runs: the caller waits
 * for the stream); the outputs stay pending. */
void gcv_conv3d_cuda_set_cancel (GcvConv3dCuda * ctx, const GcvCancel * cancel);
void gcv_conv3d_cuda_free (GcvConv3dCuda * ctx);

#ifdef __cplusplus
}
#endif
#endif /* GCV_CONV3D_H */
