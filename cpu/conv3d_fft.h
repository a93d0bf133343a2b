/* gst-cuda-video: the real FFTs of the CPU conv3d (cpu/conv3d_cpu.c), in
 * passes of bounded size.
 *
 * One FFTW call on a frame of 8192 x 8192 (or a window of 32 of them)
 * takes seconds and cannot be stopped.  So a 2-D or 3-D real transform is
 * done the way FFTW does it inside, one axis at a time, each pass cut into
 * chunks of about GCV_FFT_CHUNK_POINTS points (a few milliseconds), and a
 * stop request is looked at between chunks:
 *   forward:  x (real -> complex rows), y (complex, along columns), z;
 *   inverse:  z, y, x (complex -> real rows).
 * The spectrum: nz planes of ny rows of nxh = nx / 2 + 1 complex values,
 * rows nxh apart, planes `plane` (>= ny * nxh) apart; FFTW's unnormalised
 * transforms (forward then inverse multiplies by nx * ny * nz).  The real
 * side: rows `row` floats apart, planes `real_plane` floats apart (the
 * same memory as the spectrum for an in-place transform: row = 2 nxh,
 * real_plane = 2 plane).  Arrays given at execution are laid out as the
 * ones the transform was made with (FFTW_ESTIMATE plans made once, in
 * _new, never per frame) and aligned alike (fftwf_malloc'd, offsets
 * multiples of 32 bytes); chunk offsets are multiples of 4 complex values
 * and 4 rows, so the plans' alignment holds for every chunk.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_CONV3D_FFT_H
#define GCV_CONV3D_FFT_H

#include <fftw3.h>

#include "gcv-image.h"

/* points (complex values or samples) of one chunk of a pass */
#define GCV_FFT_CHUNK_POINTS (1 << 20)

typedef struct _GcvRealFft GcvRealFft;

/* A transform of nz (1: 2-D) x ny x nx real samples (nx even), whose
 * spectrum planes are `plane` complex values apart (a multiple of 4,
 * >= ny * (nx / 2 + 1)); `real` and `cplx` are arrays of the layout the
 * transform will run on (the same pointer: in place).  n_threads as the
 * CPU backends take it. */
GcvRealFft *gcv_real_fft_new (int nx, int ny, int nz, size_t row, size_t real_plane, size_t plane, float *real,
    fftwf_complex * cplx, int n_threads, GcvError * err);
/* real -> cplx (out of place: real is kept).  GCV_OK, or
 * GCV_ERROR_CANCELLED when @cancel asked for a stop (cplx incomplete). */
GcvStatus gcv_real_fft_forward (GcvRealFft * fft, float *real, fftwf_complex * cplx, const GcvCancel * cancel,
    GcvError * err);
/* cplx -> real (cplx is overwritten either way); as _forward. */
GcvStatus gcv_real_fft_inverse (GcvRealFft * fft, fftwf_complex * cplx, float *real, const GcvCancel * cancel,
    GcvError * err);
void gcv_real_fft_free (GcvRealFft * fft);

#endif /* GCV_CONV3D_FFT_H */
