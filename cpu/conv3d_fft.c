/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "conv3d_fft.h"
#include "gcv-parallel.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/* One core's time per point and level (log2 n) of a 1-D transform of a
 * pass (FFTW 3.3.10, about): what a chunk's plan is threaded by. */
#define NS_PER_POINT_LEVEL 0.5

/* The three passes; [0]: a full chunk, [1]: the last, shorter one (NULL
 * when the chunk size divides the count). */
struct _GcvRealFft
{
  int nx, ny, nz, nxh;
  size_t row, real_plane, plane;
  int rows_chunk, cols_chunk, pos_chunk;        /* transforms per chunk: x, y, z passes */
  fftwf_plan x_fwd[2], x_inv[2], y_fwd[2], y_inv[2], z_fwd[2], z_inv[2];
};

static pthread_once_t fftw_once = PTHREAD_ONCE_INIT;
/* FFTW's planner is made thread safe, but plan_with_nthreads is a global
 * setting: plans are made and destroyed under this lock. */
static pthread_mutex_t fftw_lock = PTHREAD_MUTEX_INITIALIZER;
static int fftw_threads;

#ifdef _OPENMP
/* FFTW's parallel loops on the OpenMP team the other loops use: with
 * FFTW's own thread pool next to OpenMP's, an OpenMP worker still spinning
 * after a loop competes with FFTW's workers for the cores.  A plan is
 * threaded when its chunk is worth it; whether the cores come when called
 * is known only now (gcv-parallel.h). */
static void
fftw_omp_loop (void *(*work) (char *), char *jobdata, size_t elsize, int njobs, void *data)
{
  const int team = njobs > 1 && gcv_parallel_cores_free ();
  int i;

#pragma omp parallel for num_threads(njobs) schedule(static) if (team)
  for (i = 0; i < njobs; i++)
    work (jobdata + elsize * i);
}
#endif

static void
fftw_init (void)
{
  fftw_threads = fftwf_init_threads ();
  fftwf_make_planner_thread_safe ();
#ifdef _OPENMP
  fftwf_threads_set_callback (fftw_omp_loop, NULL);
#endif
}

/* Transforms of a chunk: about GCV_FFT_CHUNK_POINTS points, a multiple of
 * 4 (the alignment of every chunk's offset), all of @count when fewer. */
static int
chunk_of (int n, int count)
{
  int k = GCV_FFT_CHUNK_POINTS / n / 4 * 4;

  if (k < 4)
    k = 4;
  return k < count ? k : count;
}

static void
plan_with_threads (int n_threads, int n, int howmany)
{
  if (fftw_threads)
    fftwf_plan_with_nthreads (gcv_parallel_threads_planned (n_threads,
            NS_PER_POINT_LEVEL * n * howmany * log2 (n + 1.0)));
}

void
gcv_real_fft_free (GcvRealFft * fft)
{
  fftwf_plan *plans;
  int i;

  if (fft == NULL)
    return;
  plans = &fft->x_fwd[0];
  pthread_mutex_lock (&fftw_lock);
  for (i = 0; i < 12; i++)
    if (plans[i])
      fftwf_destroy_plan (plans[i]);
  pthread_mutex_unlock (&fftw_lock);
  free (fft);
}

GcvRealFft *
gcv_real_fft_new (int nx, int ny, int nz, size_t row, size_t real_plane, size_t plane, float *real,
    fftwf_complex * cplx, int n_threads, GcvError * err)
{
  const unsigned flags = FFTW_ESTIMATE;
  GcvRealFft *fft = calloc (1, sizeof (*fft));
  int k, last, ok = 1;

  if (fft == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: no memory for an FFT");
    return NULL;
  }
  pthread_once (&fftw_once, fftw_init);
  fft->nx = nx;
  fft->ny = ny;
  fft->nz = nz;
  fft->nxh = nx / 2 + 1;
  fft->row = row;
  fft->real_plane = real_plane;
  fft->plane = plane;
  fft->rows_chunk = chunk_of (nx, ny);
  fft->cols_chunk = chunk_of (ny, fft->nxh);
  fft->pos_chunk = chunk_of (nz, (int) plane);

  pthread_mutex_lock (&fftw_lock);
  for (last = 0; last < 2; last++) {
    k = last ? ny % fft->rows_chunk : fft->rows_chunk;
    if (k > 0) {
      plan_with_threads (n_threads, nx, k);
      fft->x_fwd[last] = fftwf_plan_many_dft_r2c (1, &nx, k, real, NULL, 1, (int) row, cplx, NULL, 1, fft->nxh,
          flags);
      fft->x_inv[last] = fftwf_plan_many_dft_c2r (1, &nx, k, cplx, NULL, 1, fft->nxh, real, NULL, 1, (int) row,
          flags);
      ok = ok && fft->x_fwd[last] && fft->x_inv[last];
    }
    k = last ? fft->nxh % fft->cols_chunk : fft->cols_chunk;
    if (k > 0) {
      plan_with_threads (n_threads, ny, k);
      fft->y_fwd[last] = fftwf_plan_many_dft (1, &ny, k, cplx, NULL, fft->nxh, 1, cplx, NULL, fft->nxh, 1,
          FFTW_FORWARD, flags);
      fft->y_inv[last] = fftwf_plan_many_dft (1, &ny, k, cplx, NULL, fft->nxh, 1, cplx, NULL, fft->nxh, 1,
          FFTW_BACKWARD, flags);
      ok = ok && fft->y_fwd[last] && fft->y_inv[last];
    }
    k = last ? (int) (plane % fft->pos_chunk) : fft->pos_chunk;
    if (nz > 1 && k > 0) {
      plan_with_threads (n_threads, nz, k);
      fft->z_fwd[last] = fftwf_plan_many_dft (1, &nz, k, cplx, NULL, (int) plane, 1, cplx, NULL, (int) plane, 1,
          FFTW_FORWARD, flags);
      fft->z_inv[last] = fftwf_plan_many_dft (1, &nz, k, cplx, NULL, (int) plane, 1, cplx, NULL, (int) plane, 1,
          FFTW_BACKWARD, flags);
      ok = ok && fft->z_fwd[last] && fft->z_inv[last];
    }
  }
  pthread_mutex_unlock (&fftw_lock);
  if (!ok) {
    gcv_real_fft_free (fft);
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: FFTW could not plan a %dx%dx%d transform", nx, ny, nz);
    return NULL;
  }
  return fft;
}

/* The y pass of every plane (forward or inverse). */
static GcvStatus
columns (GcvRealFft * fft, fftwf_plan * plans, fftwf_complex * cplx, const GcvCancel * cancel, GcvError * err)
{
  int z, x0;

  for (z = 0; z < fft->nz; z++)
    for (x0 = 0; x0 < fft->nxh; x0 += fft->cols_chunk) {
      fftwf_complex *c = cplx + fft->plane * z + x0;
      if (gcv_cancel_requested (cancel))
        return gcv_cancel_check (cancel, "conv3d: FFT", err);
      fftwf_execute_dft (plans[x0 + fft->cols_chunk > fft->nxh], c, c);
    }
  return GCV_OK;
}

/* The z pass (3-D only). */
static GcvStatus
depth (GcvRealFft * fft, fftwf_plan * plans, fftwf_complex * cplx, const GcvCancel * cancel, GcvError * err)
{
  size_t f0;

  if (fft->nz == 1)
    return GCV_OK;
  for (f0 = 0; f0 < fft->plane; f0 += fft->pos_chunk) {
    if (gcv_cancel_requested (cancel))
      return gcv_cancel_check (cancel, "conv3d: FFT", err);
    fftwf_execute_dft (plans[f0 + fft->pos_chunk > fft->plane], cplx + f0, cplx + f0);
  }
  return GCV_OK;
}

GcvStatus
gcv_real_fft_forward (GcvRealFft * fft, float *real, fftwf_complex * cplx, const GcvCancel * cancel,
    GcvError * err)
{
  GcvStatus st;
  int z, r0;

  for (z = 0; z < fft->nz; z++)
    for (r0 = 0; r0 < fft->ny; r0 += fft->rows_chunk) {
      if (gcv_cancel_requested (cancel))
        return gcv_cancel_check (cancel, "conv3d: FFT", err);
      fftwf_execute_dft_r2c (fft->x_fwd[r0 + fft->rows_chunk > fft->ny],
          real + fft->real_plane * z + fft->row * r0, cplx + fft->plane * z + (size_t) fft->nxh * r0);
    }
  if ((st = columns (fft, fft->y_fwd, cplx, cancel, err)) != GCV_OK)
    return st;
  return depth (fft, fft->z_fwd, cplx, cancel, err);
}

GcvStatus
gcv_real_fft_inverse (GcvRealFft * fft, fftwf_complex * cplx, float *real, const GcvCancel * cancel,
    GcvError * err)
{
  GcvStatus st;
  int z, r0;

  if ((st = depth (fft, fft->z_inv, cplx, cancel, err)) != GCV_OK
      || (st = columns (fft, fft->y_inv, cplx, cancel, err)) != GCV_OK)
    return st;
  for (z = 0; z < fft->nz; z++)
    for (r0 = 0; r0 < fft->ny; r0 += fft->rows_chunk) {
      if (gcv_cancel_requested (cancel))
        return gcv_cancel_check (cancel, "conv3d: FFT", err);
      fftwf_execute_dft_c2r (fft->x_inv[r0 + fft->rows_chunk > fft->ny], cplx + fft->plane * z
          + (size_t) fft->nxh * r0, real + fft->real_plane * z + fft->row * r0);
    }
  return GCV_OK;
}
