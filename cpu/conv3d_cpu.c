/* gst-cuda-video: the CPU backend of the spatio-temporal convolution
 * (contract in conv3d.h; paper 000, "Case study: 3-D convolution").
 *
 * The ring: every pushed frame is turned into float planes, one per channel
 * (planar), each with its spatial border already applied: a frame of W x H
 * is stored as (W + 2 rx) x (H + 2 ry) samples, P[py][px] = V[py - ry][px - rx]
 * resolved with gcv_conv3d_border_index(), so that no inner loop checks a
 * bound.  Rows are `pw` floats apart, pw = W rounded up to ROW_BLOCK_MAX plus
 * 2 rx; the columns past W + 2 rx stay zero, so a row block that runs past
 * the right edge reads zeros.  Temporal taps come from GcvConv3dTimeline
 * (ring slots, -1 = a zero frame).  In these coordinates
 *   out[x, y, t] = sum_{l,j,i} K[i, j, l] * P_{src(l)}[y + 2 ry - j][x + 2 rx - i].
 *
 * Algorithms:
 *  - baseline: that sum as written, one output sample at a time, every tap
 *    read from the ring (scalar; OpenMP over output rows).
 *  - shared, streaming (one implementation; the CPU's caches do what the
 *    GPU's shared memory and register streaming do): an output row is cut
 *    into blocks of VB samples (32, 64 or 128: SSE2, AVX2 + FMA, AVX-512,
 *    chosen at run time) whose partial sums stay in vector registers while
 *    the kx * ky * kt taps stream past: per (j, l) one input row segment of
 *    VB + kx - 1 samples, read kx times from L1; consecutive output rows of
 *    one thread share ky - 1 of their ky input rows per frame in L2.  OpenMP
 *    over output rows (static chunks, so each thread keeps its band).
 *  - fft3d: the window of frames t0 - rt .. t0 + n - 1 + rt (time order,
 *    border-resolved) is copied into a zero-padded nz x ny x nx volume,
 *    nx >= W + kx - 1 (even), ny >= H + ky - 1, nz >= kt + max_outputs - 1
 *    (2, 3, 5, 7-smooth), and convolved circularly with the kernel (one forward
 *    and one inverse 3-D real FFT, in place: rows of 2 (nx / 2 + 1) floats,
 *    planes `vol_plane` complex values apart).  The padded sizes make
 *    the circular result exact where it is read: output o, row y, column x
 *    is at (o + kt - 1, y + ky - 1, x + kx - 1).  The kernel's spectrum
 *    (scaled by 1 / (nx ny nz)) is remade only when the coefficients change.
 *  - fft-hybrid: each pushed frame's bordered planes get their 2-D spectrum
 *    at push, kept in a ring of spectra; an output is
 *    sum_l Kspec_l x Vspec_{src(l)} (zero frames skipped) and one inverse
 *    2-D FFT, read at (y + ky - 1, x + kx - 1).  The kt kernel spectra are
 *    remade when the coefficients change.
 * The FFTs are FFTW3's, one axis at a time in chunks of bounded size
 * (cpu/conv3d_fft.h), so that a stop request is seen between chunks; their
 * plans are made once, in _new, with FFTW_ESTIMATE (FFTW_MEASURE took
 * about 0.6 s per plan at 720x560 and was no faster there).  All buffers
 * are made in _new; nothing is allocated per frame.  Every loop gets as
 * many threads as its work is worth (gcv-parallel.h), and every loop over
 * rows or spectrum blocks looks at the stop request before each of them
 * (baseline: each segment of BASELINE_SEGMENT outputs of a row, a row of
 * 32768 samples with 31 x 31 x 31 taps being seconds).
 * GCV_CONV3D_CPU_KERNEL=generic or avx2 caps the direct row kernel (the
 * tests run each).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "conv3d.h"
#include "gcv-parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef GCV_HAVE_FFTW
#include "conv3d_fft.h"
#endif

#define ROW_BLOCK_MAX 128       /* the widest row block of the direct kernels, floats */
#define SPEC_BLOCK 512          /* complex values per work item of the hybrid's tap sums */
#define BASELINE_SEGMENT 1024   /* outputs of a row per work item of the baseline */
/* One core's time per unit of the loops, what their teams are sized by: a
 * sample copied or stored, a tap of the baseline and of the vectorised
 * direct kernel (GRAY8 1080p, 5 x 5 x 5: 177 and 23 ms a frame, AVX-512),
 * a complex multiply-add. */
#define NS_PER_SAMPLE 1.0
#define NS_PER_BASELINE_TAP 0.7
#define NS_PER_VECTOR_TAP 0.09
#define NS_PER_COMPLEX_MAC 1.0

/* Computes acc[0 .. w) (and up to the next multiple of the block) of one
 * output row: acc[x] = sum_r sum_i krows[r][i] * rows[r][x - i]. */
typedef void (*RowKernel) (const float *const *rows, const float *const *krows, int nrows, int kx,
    int w, float *acc);

struct _GcvConv3dCpu
{
  GcvConv3dGeometry geom;
  GcvConv3dParams params;       /* shape, border, algorithm; coefficients = coef */
  float *coef;                  /* the coefficients the context works with */
  int have_coef;                /* coef (and the spectra) are valid */
  GcvConv3dTimeline tl;
  int n_threads;                /* as given to _new */
  int nt;                       /* the most threads a loop gets (acc rows) */
  const GcvCancel *cancel;
  int rx, ry, rt, n_taps;
  int ext_w, ext_h;             /* W + 2 rx, H + 2 ry */
  size_t pw;                    /* ring row stride, floats */
  size_t plane_size;            /* floats per ring plane */
  int n_filtered, filtered[GCV_CONV3D_MAX_CHANNELS];    /* the channels convolved */
  int filtered_index[GCV_CONV3D_MAX_CHANNELS];  /* channel -> index in filtered[] */
  float **plane;                /* [slot * channels + c]; NULL where not kept */
  float *ring;
  int *xmap, *ymap;             /* ext_w / ext_h: source column / row, or -1 */
  int *slots;                   /* max_outputs x kt: the sources of each output */
  float *acc;                   /* nt rows of acc_w floats */
  size_t acc_w;
  RowKernel row_kernel;
#ifdef GCV_HAVE_FFTW
  int nx, ny, nz;               /* FFT sizes (nz: fft3d only) */
  size_t nxh;                   /* nx / 2 + 1 complex per spectrum row */
  GcvRealFft *fft;
  size_t vol_plane;             /* fft3d: complex per plane of the volumes (ny nxh, rounded up to 8) */
  float *vol, *kvol;            /* fft3d: in-place volumes, rows of 2 nxh floats */
  int *window;                  /* fft3d: nz ring slots (-1: zero frame) */
  float *frame;                 /* hybrid: ny x nx, the bordered frame, zero around */
  float *kframe;                /* hybrid: ny x nx, one kernel slice */
  float *result;                /* hybrid: ny x nx, the inverse transform */
  fftwf_complex *spec;          /* hybrid: [slot * n_filtered + f] spectra */
  fftwf_complex *kspec;         /* hybrid: kt kernel spectra */
  fftwf_complex *sum;           /* hybrid: max_outputs tap sums */
  size_t spec_stride;           /* complex per spectrum (ny * nxh rounded up) */
#endif
};

/* ---- direct row kernels ---------------------------------------------------- */

#define MAC_PLAIN(k, s, a) ((a) + (k) * (s))
#define MAC_FUSED(k, s, a) __builtin_fmaf ((k), (s), (a))

/* VB partial sums in registers (a[] is a fixed-size array that the
 * compiler keeps in vector registers), taps streamed row by row. */
#define ROW_KERNEL_BODY(VB, MAC) \
  for (int x0 = 0; x0 < w; x0 += (VB)) { \
    float a[VB]; \
    for (int v = 0; v < (VB); v++) \
      a[v] = 0.0f; \
    for (int r = 0; r < nrows; r++) { \
      const float *s = rows[r] + x0; \
      const float *k = krows[r]; \
      for (int i = 0; i < kx; i++) { \
        const float ki = k[i]; \
        const float *si = s - i; \
        for (int v = 0; v < (VB); v++) \
          a[v] = MAC (ki, si[v], a[v]); \
      } \
    } \
    for (int v = 0; v < (VB); v++) \
      acc[x0 + v] = a[v]; \
  }

static void
row_kernel_generic (const float *const *rows, const float *const *krows, int nrows, int kx, int w,
    float *restrict acc)
{
  ROW_KERNEL_BODY (32, MAC_PLAIN);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_X86_KERNELS 1
__attribute__((target ("avx2,fma")))
static void
row_kernel_avx2 (const float *const *rows, const float *const *krows, int nrows, int kx, int w,
    float *restrict acc)
{
  ROW_KERNEL_BODY (64, MAC_FUSED);
}

__attribute__((target ("avx512f,fma")))
static void
row_kernel_avx512 (const float *const *rows, const float *const *krows, int nrows, int kx, int w,
    float *restrict acc)
{
  ROW_KERNEL_BODY (128, MAC_FUSED);
}
#endif

/* The widest kernel the CPU runs; GCV_CONV3D_CPU_KERNEL=generic or avx2
 * caps it (for the tests, which run every variant, and for comparisons). */
static RowKernel
choose_row_kernel (void)
{
#ifdef HAVE_X86_KERNELS
  const char *cap = getenv ("GCV_CONV3D_CPU_KERNEL");
  int level = cap && strcmp (cap, "generic") == 0 ? 0 : cap && strcmp (cap, "avx2") == 0 ? 1 : 2;

  __builtin_cpu_init ();
  if (level >= 2 && __builtin_cpu_supports ("avx512f"))
    return row_kernel_avx512;
  if (level >= 1 && __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return row_kernel_avx2;
#endif
  return row_kernel_generic;
}

/* ---- small helpers ---------------------------------------------------------- */

static int
filtered (const GcvConv3dGeometry * g, int c)
{
  return (g->filter_mask >> c) & 1;
}

/* The ring plane of channel c of a slot, or NULL (fft-hybrid keeps only
 * the spectra of filtered channels). */
static float *
ring_plane (const GcvConv3dCpu * ctx, int slot, int c)
{
  return ctx->plane[(size_t) slot * ctx->geom.channels + c];
}

/* Zeroes n floats at p a few megabytes at a time, until a stop is asked
 * for (the first touch of a large buffer is slow on some machines);
 * returns whether it finished. */
static int
zero_floats (float *p, size_t n, const GcvCancel * cancel)
{
  const size_t chunk = 1 << 20;
  size_t i;

  for (i = 0; i < n; i += chunk) {
    if (gcv_cancel_requested (cancel))
      return 0;
    memset (p + i, 0, sizeof (float) * (n - i < chunk ? n - i : chunk));
  }
  return 1;
}

/* Fills the bordered frame of channel c of `in` into dst (ext_h rows of
 * ext_w floats, rows dstride floats apart); the columns past ext_w are
 * left alone. */
#define FILL_ROW(T) do { \
    const T *s = (const T *) row + c; \
    for (int x = 0; x < W; x++) \
      d[rx + x] = (float) s[(size_t) x * C]; \
    for (int px = 0; px < rx; px++) { \
      int m0 = ctx->xmap[px], m1 = ctx->xmap[rx + W + px]; \
      d[px] = m0 < 0 ? 0.0f : (float) s[(size_t) m0 * C]; \
      d[rx + W + px] = m1 < 0 ? 0.0f : (float) s[(size_t) m1 * C]; \
    } \
  } while (0)

static void
fill_frame (const GcvConv3dCpu * ctx, const GcvPlane * in, int c, float *dst, size_t dstride)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int C = g->channels, W = g->width, rx = ctx->rx;
  const int nt = gcv_parallel_threads (ctx->n_threads, NS_PER_SAMPLE * ctx->ext_w * ctx->ext_h);
  int py;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (py = 0; py < ctx->ext_h; py++) {
    float *d = dst + dstride * py;
    int sy = ctx->ymap[py];
    const uint8_t *row;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (sy < 0) {
      memset (d, 0, sizeof (float) * ctx->ext_w);
      continue;
    }
    row = (const uint8_t *) in->data + in->stride * sy;
    if (g->type == GCV_SAMPLE_U8)
      FILL_ROW (uint8_t);
    else if (g->type == GCV_SAMPLE_U16)
      FILL_ROW (uint16_t);
    else
      FILL_ROW (float);
  }
}

/* The contract's output of samples x0 .. x0 + w - 1 of one row: v = scale
 * * acc, |v| when absolute, + offset; integers rounded half to even and
 * clamped. */
static void
store_row (const GcvPlane * out, GcvSampleType type, int C, int c, int y, int x0, const float *acc, int w,
    float scale, float offset, int absolute)
{
  uint8_t *row = (uint8_t *) out->data + out->stride * y + gcv_sample_bytes (type) * (size_t) C * x0;
  int x;

  if (type == GCV_SAMPLE_U8) {
    uint8_t *d = row + c;
    for (x = 0; x < w; x++) {
      float v = scale * acc[x];
      if (absolute)
        v = fabsf (v);
      v = rintf (v + offset);
      d[(size_t) x * C] = (uint8_t) (v >= 255.0f ? 255.0f : v >= 0.0f ? v : 0.0f);
    }
  } else if (type == GCV_SAMPLE_U16) {
    uint16_t *d = (uint16_t *) row + c;
    for (x = 0; x < w; x++) {
      float v = scale * acc[x];
      if (absolute)
        v = fabsf (v);
      v = rintf (v + offset);
      d[(size_t) x * C] = (uint16_t) (v >= 65535.0f ? 65535.0f : v >= 0.0f ? v : 0.0f);
    }
  } else {
    float *d = (float *) row + c;
    for (x = 0; x < w; x++) {
      float v = scale * acc[x];
      if (absolute)
        v = fabsf (v);
      d[(size_t) x * C] = v + offset;
    }
  }
}

/* A row of samples as they were pushed (exact: the ring holds integers
 * and floats unchanged). */
static void
copy_row (const GcvPlane * out, GcvSampleType type, int C, int c, int y, const float *src, int w)
{
  uint8_t *row = (uint8_t *) out->data + out->stride * y;
  int x;

  if (type == GCV_SAMPLE_U8) {
    for (x = 0; x < w; x++)
      row[(size_t) x * C + c] = (uint8_t) src[x];
  } else if (type == GCV_SAMPLE_U16) {
    uint16_t *d = (uint16_t *) row;
    for (x = 0; x < w; x++)
      d[(size_t) x * C + c] = (uint16_t) src[x];
  } else {
    float *d = (float *) row;
    for (x = 0; x < w; x++)
      d[(size_t) x * C + c] = src[x];
  }
}

/* ---- FFTW ------------------------------------------------------------------- */

int
gcv_conv3d_cpu_have_fft (void)
{
#ifdef GCV_HAVE_FFTW
  return 1;
#else
  return 0;
#endif
}

#ifdef GCV_HAVE_FFTW
static GcvStatus
fft_setup (GcvConv3dCpu * ctx, GcvError * err)
{
  const GcvConv3dParams *p = &ctx->params;
  const int fft3d = p->algorithm == GCV_CONV3D_FFT3D;
  size_t n2;

  ctx->nx = gcv_conv3d_fft_size (ctx->ext_w, 1);
  ctx->ny = gcv_conv3d_fft_size (ctx->ext_h, 0);
  ctx->nz = fft3d ? gcv_conv3d_fft_size (p->kt + ctx->geom.max_outputs - 1, 0) : 1;
  ctx->nxh = (size_t) ctx->nx / 2 + 1;
  n2 = (size_t) ctx->ny * ctx->nxh;

  if (fft3d) {
    size_t n;
    /* 64-byte steps: every plane aligned alike (conv3d_fft.h) */
    ctx->vol_plane = (n2 + 7) & ~(size_t) 7;
    n = (size_t) ctx->nz * ctx->vol_plane * 2;
    ctx->vol = fftwf_malloc (sizeof (float) * n);
    ctx->kvol = fftwf_malloc (sizeof (float) * n);
    ctx->window = malloc (sizeof (int) * ctx->nz);
    if (!ctx->vol || !ctx->kvol || !ctx->window)
      goto no_memory;
    /* what lies between the planes is never written again (the planes
     * themselves are, row by row, at every frame) */
    for (int z = 0; z < ctx->nz; z++)
      memset (ctx->vol + 2 * (ctx->vol_plane * z + n2), 0, sizeof (float) * 2 * (ctx->vol_plane - n2));
    ctx->fft = gcv_real_fft_new (ctx->nx, ctx->ny, ctx->nz, 2 * ctx->nxh, 2 * ctx->vol_plane, ctx->vol_plane,
        ctx->vol, (fftwf_complex *) ctx->vol, ctx->n_threads, err);
  } else {
    size_t frame = (size_t) ctx->nx * ctx->ny, n_spec;
    ctx->spec_stride = (n2 + 7) & ~(size_t) 7;  /* 64-byte steps: every spectrum aligned alike */
    n_spec = (size_t) ctx->tl.capacity * ctx->n_filtered;
    ctx->frame = fftwf_malloc (sizeof (float) * frame);
    ctx->kframe = fftwf_malloc (sizeof (float) * frame);
    ctx->result = fftwf_malloc (sizeof (float) * frame);
    ctx->spec = fftwf_malloc (sizeof (fftwf_complex) * ctx->spec_stride * n_spec);
    ctx->kspec = fftwf_malloc (sizeof (fftwf_complex) * ctx->spec_stride * p->kt);
    ctx->sum = fftwf_malloc (sizeof (fftwf_complex) * ctx->spec_stride * ctx->geom.max_outputs);
    if (!ctx->frame || !ctx->kframe || !ctx->result || !ctx->spec || !ctx->kspec || !ctx->sum)
      goto no_memory;
    /* the zero padding around the frame is never written again (the
     * kernel slices' are made with them) */
    for (int y = 0; y < ctx->ny; y++)
      memset (ctx->frame + (size_t) ctx->nx * y + (y < ctx->ext_h ? ctx->ext_w : 0), 0,
          sizeof (float) * (ctx->nx - (y < ctx->ext_h ? ctx->ext_w : 0)));
    ctx->fft = gcv_real_fft_new (ctx->nx, ctx->ny, 1, ctx->nx, frame, ctx->spec_stride, ctx->frame, ctx->spec,
        ctx->n_threads, err);
  }
  return ctx->fft ? GCV_OK : GCV_ERROR_INVALID;

no_memory:
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: no memory for the %s buffers (%dx%dx%d)",
      gcv_conv3d_algorithm_name (p->algorithm), ctx->nx, ctx->ny, ctx->nz);
  return GCV_ERROR_NO_MEMORY;
}

static void
fft_clear (GcvConv3dCpu * ctx)
{
  gcv_real_fft_free (ctx->fft);
  fftwf_free (ctx->vol);
  fftwf_free (ctx->kvol);
  free (ctx->window);
  fftwf_free (ctx->frame);
  fftwf_free (ctx->kframe);
  fftwf_free (ctx->result);
  fftwf_free (ctx->spec);
  fftwf_free (ctx->kspec);
  fftwf_free (ctx->sum);
}

/* The kernel's spectrum (fft3d) or its kt slice spectra (hybrid), scaled
 * by the inverse transform's 1 / N. */
static GcvStatus
fft_kernel_spectra (GcvConv3dCpu * ctx, GcvError * err)
{
  const GcvConv3dParams *p = &ctx->params;
  GcvStatus st = GCV_OK;
  int i, j, l;

  if (p->algorithm == GCV_CONV3D_FFT3D) {
    const size_t row = 2 * ctx->nxh, plane = 2 * ctx->vol_plane;
    const double norm = 1.0 / ((double) ctx->nx * ctx->ny * ctx->nz);
    if (!zero_floats (ctx->kvol, plane * ctx->nz, ctx->cancel))
      return gcv_cancel_check (ctx->cancel, "conv3d", err);
    for (l = 0; l < p->kt; l++)
      for (j = 0; j < p->ky; j++)
        for (i = 0; i < p->kx; i++)
          ctx->kvol[plane * l + row * j + i] = (float) (ctx->coef[i + p->kx * (j + p->ky * l)] * norm);
    return gcv_real_fft_forward (ctx->fft, ctx->kvol, (fftwf_complex *) ctx->kvol, ctx->cancel, err);
  }
  {
    const double norm = 1.0 / ((double) ctx->nx * ctx->ny);
    if (!zero_floats (ctx->kframe, (size_t) ctx->nx * ctx->ny, ctx->cancel))
      return gcv_cancel_check (ctx->cancel, "conv3d", err);
    for (l = 0; l < p->kt && st == GCV_OK; l++) {
      for (j = 0; j < p->ky; j++)
        for (i = 0; i < p->kx; i++)
          ctx->kframe[(size_t) ctx->nx * j + i] = (float) (ctx->coef[i + p->kx * (j + p->ky * l)] * norm);
      st = gcv_real_fft_forward (ctx->fft, ctx->kframe, ctx->kspec + ctx->spec_stride * l, ctx->cancel, err);
    }
  }
  return st;
}

/* fft3d: every filtered channel through the volume. */
static GcvStatus
process_fft3d (GcvConv3dCpu * ctx, int n, GcvPlane * out, float scale, float offset, int absolute,
    GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int kt = ctx->params.kt, kx = ctx->params.kx, ky = ctx->params.ky;
  const size_t row = 2 * ctx->nxh, plane = 2 * ctx->vol_plane, n_cplx = ctx->nz * ctx->vol_plane;
  const long n_rows = (long) ctx->nz * ctx->ny;
  const int nt_copy = gcv_parallel_threads (ctx->n_threads, NS_PER_SAMPLE * n_rows * row);
  const int nt_product = gcv_parallel_threads (ctx->n_threads, NS_PER_COMPLEX_MAC * n_cplx);
  const int nt_store = gcv_parallel_threads (ctx->n_threads, NS_PER_SAMPLE * n * g->width * g->height);
  GcvStatus st;
  int w, o, l, f;
  /* window frame w is source t0 - rt + w: tap l of output o reads w = o + kt - 1 - l */
  for (w = 0; w < ctx->nz; w++)
    ctx->window[w] = -1;
  for (o = 0; o < n; o++)
    for (l = 0; l < kt; l++)
      ctx->window[o + kt - 1 - l] = ctx->slots[o * kt + l];

  for (f = 0; f < ctx->n_filtered; f++) {
    const int c = ctx->filtered[f];
    fftwf_complex *v = (fftwf_complex *) ctx->vol;
    const fftwf_complex *k = (const fftwf_complex *) ctx->kvol;
    const long n_product_blocks = (long) ((n_cplx + SPEC_BLOCK - 1) / SPEC_BLOCK);
    long task, b;

#pragma omp parallel for num_threads(nt_copy) schedule(static) if (nt_copy > 1)
    for (task = 0; task < n_rows; task++) {
      int wz = (int) (task / ctx->ny), py = (int) (task % ctx->ny);
      float *d = ctx->vol + plane * wz + row * py;
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      if (ctx->window[wz] >= 0 && py < ctx->ext_h) {
        memcpy (d, ring_plane (ctx, ctx->window[wz], c) + ctx->pw * py,
            sizeof (float) * ctx->ext_w);
        memset (d + ctx->ext_w, 0, sizeof (float) * (row - ctx->ext_w));
      } else {
        memset (d, 0, sizeof (float) * row);
      }
    }
    if ((st = gcv_real_fft_forward (ctx->fft, ctx->vol, v, ctx->cancel, err)) != GCV_OK)
      return st;
#pragma omp parallel for num_threads(nt_product) schedule(static) if (nt_product > 1)
    for (b = 0; b < n_product_blocks; b++) {
      const long e1 = (b + 1) * SPEC_BLOCK < (long) n_cplx ? (b + 1) * SPEC_BLOCK : (long) n_cplx;
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      for (long e = b * SPEC_BLOCK; e < e1; e++) {
        float re = v[e][0] * k[e][0] - v[e][1] * k[e][1];
        float im = v[e][0] * k[e][1] + v[e][1] * k[e][0];
        v[e][0] = re;
        v[e][1] = im;
      }
    }
    if ((st = gcv_real_fft_inverse (ctx->fft, v, ctx->vol, ctx->cancel, err)) != GCV_OK)
      return st;
#pragma omp parallel for num_threads(nt_store) schedule(static) if (nt_store > 1)
    for (task = 0; task < (long) n * g->height; task++) {
      int oo = (int) (task / g->height), y = (int) (task % g->height);
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      store_row (&out[oo], g->type, g->channels, c, y, 0,
          ctx->vol + plane * (oo + kt - 1) + row * (y + ky - 1) + (kx - 1), g->width, scale, offset,
          absolute);
    }
  }
  return GCV_OK;
}

/* fft-hybrid: for each output, the sum of its kt spectrum products, then
 * one inverse 2-D FFT.  The sums of all n outputs are made in one pass
 * over the spectra, block by block, so that each frame's block is read
 * from memory once and used by every output that reads it. */
static GcvStatus
process_hybrid (GcvConv3dCpu * ctx, int n, GcvPlane * out, float scale, float offset, int absolute,
    GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int kt = ctx->params.kt, kx = ctx->params.kx, ky = ctx->params.ky;
  const size_t n2 = (size_t) ctx->ny * ctx->nxh;
  const long n_blocks = (long) ((n2 + SPEC_BLOCK - 1) / SPEC_BLOCK);
  const int nt_sums = gcv_parallel_threads (ctx->n_threads, NS_PER_COMPLEX_MAC * n2 * kt * n);
  const int nt_store = gcv_parallel_threads (ctx->n_threads, NS_PER_SAMPLE * g->width * g->height);
  GcvStatus st;
  int o, f;

  for (f = 0; f < ctx->n_filtered; f++) {
    const int c = ctx->filtered[f];
    long b;

#pragma omp parallel for num_threads(nt_sums) schedule(static) if (nt_sums > 1)
    for (b = 0; b < n_blocks; b++) {
      const size_t e0 = (size_t) b * SPEC_BLOCK, len = 2 * ((e0 + SPEC_BLOCK < n2 ? e0 + SPEC_BLOCK : n2)
          - e0);
      int oo;
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      for (oo = 0; oo < n; oo++) {
        const int *sl = ctx->slots + oo * kt;
        float *sum = (float *) (ctx->sum + ctx->spec_stride * oo + e0);
        size_t e;
        int l;
        memset (sum, 0, sizeof (float) * len);
        for (l = 0; l < kt; l++) {
          const float *k, *v;
          if (sl[l] < 0)
            continue;
          k = (const float *) (ctx->kspec + ctx->spec_stride * l + e0);
          v = (const float *) (ctx->spec + ctx->spec_stride * ((size_t) sl[l] * ctx->n_filtered + f)
              + e0);
          for (e = 0; e < len; e += 2) {
            sum[e] += k[e] * v[e] - k[e + 1] * v[e + 1];
            sum[e + 1] += k[e] * v[e + 1] + k[e + 1] * v[e];
          }
        }
      }
    }
    for (o = 0; o < n; o++) {
      int y;
      if ((st = gcv_real_fft_inverse (ctx->fft, ctx->sum + ctx->spec_stride * o, ctx->result, ctx->cancel,
                  err)) != GCV_OK)
        return st;
#pragma omp parallel for num_threads(nt_store) schedule(static) if (nt_store > 1)
      for (y = 0; y < g->height; y++)
        if (!gcv_cancel_requested (ctx->cancel))
          store_row (&out[o], g->type, g->channels, c, y, 0,
            ctx->result + (size_t) ctx->nx * (y + ky - 1) + (kx - 1), g->width, scale, offset,
            absolute);
    }
  }
  return GCV_OK;
}
#endif /* GCV_HAVE_FFTW */

/* ---- direct algorithms ------------------------------------------------------ */

/* A task is one output row of one channel (baseline: one segment of
 * BASELINE_SEGMENT samples of it). */
static void
process_direct (GcvConv3dCpu * ctx, int n, GcvPlane * out, float scale, float offset, int absolute)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int kx = ctx->params.kx, ky = ctx->params.ky, kt = ctx->params.kt;
  const int H = g->height, W = g->width, nf = ctx->n_filtered;
  const int baseline = ctx->params.algorithm == GCV_CONV3D_BASELINE;
  const int segs = baseline ? (W + BASELINE_SEGMENT - 1) / BASELINE_SEGMENT : 1;
  const size_t pw = ctx->pw;
  const long n_tasks = (long) n * nf * H * segs;
  const int nt = gcv_parallel_threads (ctx->n_threads, (double) n * nf * H * W * ctx->n_taps
      * (baseline ? NS_PER_BASELINE_TAP : NS_PER_VECTOR_TAP));
  long task;

#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (task = 0; task < n_tasks; task++) {
    const long row = task / segs;
    const int y = (int) (row % H), f = (int) ((row / H) % nf), o = (int) (row / H / nf);
    const int x0 = (int) (task % segs) * BASELINE_SEGMENT;
    const int c = ctx->filtered[f];
    const int *sl = ctx->slots + o * kt;
    float *acc = ctx->acc + ctx->acc_w * gcv_thread_index ();
    int w = W;

    if (gcv_cancel_requested (ctx->cancel))
      continue;
    if (baseline) {
      /* eq. 1 as written: one output sample, every tap read from the ring */
      int x, i, j, l;
      w = W - x0 < BASELINE_SEGMENT ? W - x0 : BASELINE_SEGMENT;
      for (x = x0; x < x0 + w; x++) {
        float sum = 0.0f;
        for (l = 0; l < kt; l++) {
          const float *P;
          if (sl[l] < 0)
            continue;
          P = ring_plane (ctx, sl[l], c);
          for (j = 0; j < ky; j++)
            for (i = 0; i < kx; i++)
              sum += ctx->coef[i + kx * (j + ky * l)]
                  * P[pw * (y + 2 * ctx->ry - j) + (x + 2 * ctx->rx - i)];
        }
        acc[x - x0] = sum;
      }
    } else {
      const float *rows[GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE];
      const float *krows[GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE];
      int nr = 0, j, l;
      for (l = 0; l < kt; l++) {
        const float *P;
        if (sl[l] < 0)
          continue;
        P = ring_plane (ctx, sl[l], c) + 2 * ctx->rx;
        for (j = 0; j < ky; j++, nr++) {
          rows[nr] = P + pw * (y + 2 * ctx->ry - j);
          krows[nr] = ctx->coef + kx * (j + ky * l);
        }
      }
      ctx->row_kernel (rows, krows, nr, kx, W, acc);
    }
    store_row (&out[o], g->type, g->channels, c, y, x0, acc, w, scale, offset, absolute);
  }
}

/* Channels not filtered: the centre frame's samples. */
static void
copy_unfiltered (GcvConv3dCpu * ctx, int n, GcvPlane * out)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  const int kt = ctx->params.kt, rt = ctx->rt, H = g->height;
  int c;

  for (c = 0; c < g->channels; c++) {
    const int nt = gcv_parallel_threads (ctx->n_threads, NS_PER_SAMPLE * n * H * g->width);
    long task;
    if (filtered (g, c))
      continue;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (task = 0; task < (long) n * H; task++) {
      const int o = (int) (task / H), y = (int) (task % H);
      const float *P = ring_plane (ctx, ctx->slots[o * kt + rt], c);
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      copy_row (&out[o], g->type, g->channels, c, y, P + ctx->pw * (y + ctx->ry) + ctx->rx, g->width);
    }
  }
}

/* ---- the API ------------------------------------------------------------------ */

void
gcv_conv3d_cpu_free (GcvConv3dCpu * ctx)
{
  if (ctx == NULL)
    return;
#ifdef GCV_HAVE_FFTW
  fft_clear (ctx);
#endif
  free (ctx->coef);
  free (ctx->plane);
  free (ctx->ring);
  free (ctx->xmap);
  free (ctx->ymap);
  free (ctx->slots);
  free (ctx->acc);
  free (ctx);
}

GcvConv3dCpu *
gcv_conv3d_cpu_new (const GcvConv3dGeometry * geom, const GcvConv3dParams * params, int n_threads,
    GcvError * err)
{
  GcvConv3dCpu *ctx;
  int fft, hybrid, c, s, n_planes = 0, i;
  size_t n_kept;

  if (gcv_conv3d_new_check (geom, params, err) != GCV_OK)
    return NULL;
  fft = params->algorithm == GCV_CONV3D_FFT3D || params->algorithm == GCV_CONV3D_FFT_HYBRID;
  hybrid = params->algorithm == GCV_CONV3D_FFT_HYBRID;
#ifndef GCV_HAVE_FFTW
  if (fft) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: algorithm %s: built without FFTW",
        gcv_conv3d_algorithm_name (params->algorithm));
    return NULL;
  }
#endif

  ctx = calloc (1, sizeof (*ctx));
  if (ctx == NULL) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: no memory for a context");
    return NULL;
  }
  ctx->geom = *geom;
  ctx->params = *params;
  ctx->rx = params->kx / 2;
  ctx->ry = params->ky / 2;
  ctx->rt = params->kt / 2;
  ctx->n_taps = params->kx * params->ky * params->kt;
  ctx->ext_w = geom->width + 2 * ctx->rx;
  ctx->ext_h = geom->height + 2 * ctx->ry;
  ctx->acc_w = ((size_t) geom->width + ROW_BLOCK_MAX - 1) / ROW_BLOCK_MAX * ROW_BLOCK_MAX;
  ctx->pw = ctx->acc_w + 2 * ctx->rx;
  ctx->plane_size = ctx->pw * ctx->ext_h;
  ctx->row_kernel = choose_row_kernel ();
  ctx->n_threads = n_threads;
  ctx->nt = gcv_parallel_max_threads (n_threads);
  for (c = 0; c < geom->channels; c++)
    if (filtered (geom, c)) {
      ctx->filtered_index[c] = ctx->n_filtered;
      ctx->filtered[ctx->n_filtered++] = c;
    }
  gcv_conv3d_timeline_init (&ctx->tl, params->kt, geom->max_outputs, params->border);

  ctx->coef = malloc (sizeof (float) * ctx->n_taps);
  ctx->plane = calloc ((size_t) ctx->tl.capacity * geom->channels, sizeof (float *));
  ctx->xmap = malloc (sizeof (int) * ctx->ext_w);
  ctx->ymap = malloc (sizeof (int) * ctx->ext_h);
  ctx->slots = malloc (sizeof (int) * geom->max_outputs * params->kt);
  ctx->acc = malloc (sizeof (float) * ctx->acc_w * ctx->nt);
  for (c = 0; c < geom->channels; c++)
    n_planes += !(hybrid && filtered (geom, c));
  n_kept = (size_t) ctx->tl.capacity * n_planes;
  ctx->ring = n_kept ? calloc (n_kept * ctx->plane_size, sizeof (float)) : NULL;
  if (!ctx->coef || !ctx->plane || !ctx->xmap || !ctx->ymap || !ctx->slots || !ctx->acc
      || (n_kept && !ctx->ring)) {
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "conv3d: no memory for a ring of %d frames of %dx%d",
        ctx->tl.capacity, ctx->ext_w, ctx->ext_h);
    gcv_conv3d_cpu_free (ctx);
    return NULL;
  }
  for (s = 0, i = 0; s < ctx->tl.capacity; s++)
    for (c = 0; c < geom->channels; c++)
      if (!(hybrid && filtered (geom, c)))
        ctx->plane[(size_t) s * geom->channels + c] = ctx->ring + ctx->plane_size * i++;
  for (i = 0; i < ctx->ext_w; i++)
    ctx->xmap[i] = gcv_conv3d_border_index (params->border, i - ctx->rx, geom->width);
  for (i = 0; i < ctx->ext_h; i++)
    ctx->ymap[i] = gcv_conv3d_border_index (params->border, i - ctx->ry, geom->height);
  memcpy (ctx->coef, params->coefficients, sizeof (float) * ctx->n_taps);
  ctx->params.coefficients = ctx->coef;

#ifdef GCV_HAVE_FFTW
  if (fft && ctx->n_filtered > 0 && fft_setup (ctx, err) != GCV_OK) {
    gcv_conv3d_cpu_free (ctx);
    return NULL;
  }
#endif
  (void) fft;
  return ctx;
}

GcvStatus
gcv_conv3d_cpu_push (GcvConv3dCpu * ctx, const GcvPlane * in, GcvError * err)
{
  const GcvConv3dGeometry *g = &ctx->geom;
  int slot, c;

  if (gcv_conv3d_push_check (g, &ctx->tl, in, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  slot = gcv_conv3d_timeline_slot (&ctx->tl, ctx->tl.pushed);
  for (c = 0; c < g->channels; c++) {
    float *P = ring_plane (ctx, slot, c);
    if (P) {
      fill_frame (ctx, in, c, P, ctx->pw);
    } else {
#ifdef GCV_HAVE_FFTW
      /* fft-hybrid, a filtered channel: its spectrum */
      GcvStatus st;
      fill_frame (ctx, in, c, ctx->frame, ctx->nx);
      st = gcv_real_fft_forward (ctx->fft, ctx->frame,
          ctx->spec + ctx->spec_stride * ((size_t) slot * ctx->n_filtered + ctx->filtered_index[c]),
          ctx->cancel, err);
      if (st != GCV_OK)
        return st;
#endif
    }
  }
  /* stopped: the frame is not pushed */
  if (gcv_cancel_requested (ctx->cancel))
    return gcv_cancel_check (ctx->cancel, "conv3d", err);
  ctx->tl.pushed++;
  return GCV_OK;
}

void
gcv_conv3d_cpu_end (GcvConv3dCpu * ctx)
{
  ctx->tl.ended = 1;
}

int
gcv_conv3d_cpu_ready (const GcvConv3dCpu * ctx)
{
  return gcv_conv3d_timeline_ready (&ctx->tl);
}

GcvStatus
gcv_conv3d_cpu_process (GcvConv3dCpu * ctx, const GcvConv3dParams * params, int n, GcvPlane * out,
    GcvError * err)
{
  const int kt = ctx->params.kt;
  GcvStatus st = GCV_OK;
  int o;

  if (gcv_conv3d_process_check (&ctx->geom, &ctx->params, &ctx->tl, params, n, out, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  if (!ctx->have_coef || memcmp (ctx->coef, params->coefficients, sizeof (float) * ctx->n_taps)) {
    memcpy (ctx->coef, params->coefficients, sizeof (float) * ctx->n_taps);
    /* (stopped half-way, the spectra are remade next time) */
    ctx->have_coef = 0;
#ifdef GCV_HAVE_FFTW
    if (ctx->fft && (st = fft_kernel_spectra (ctx, err)) != GCV_OK)
      return st;
#endif
    ctx->have_coef = 1;
  }
  for (o = 0; o < n; o++)
    gcv_conv3d_timeline_sources (&ctx->tl, ctx->tl.next_out + o, ctx->slots + o * kt);

  if (ctx->n_filtered > 0) {
    switch (ctx->params.algorithm) {
#ifdef GCV_HAVE_FFTW
      case GCV_CONV3D_FFT3D:
        st = process_fft3d (ctx, n, out, params->scale, params->offset, params->absolute, err);
        break;
      case GCV_CONV3D_FFT_HYBRID:
        st = process_hybrid (ctx, n, out, params->scale, params->offset, params->absolute, err);
        break;
#endif
      default:
        process_direct (ctx, n, out, params->scale, params->offset, params->absolute);
        break;
    }
  }
  if (st == GCV_OK)
    copy_unfiltered (ctx, n, out);
  /* stopped: the outputs stay pending */
  if (st == GCV_OK)
    st = gcv_cancel_check (ctx->cancel, "conv3d", err);
  if (st != GCV_OK)
    return st;
  ctx->tl.next_out += n;
  return GCV_OK;
}

void
gcv_conv3d_cpu_reset (GcvConv3dCpu * ctx)
{
  gcv_conv3d_timeline_reset (&ctx->tl);
}

void
gcv_conv3d_cpu_set_cancel (GcvConv3dCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}
