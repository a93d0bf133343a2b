/* gst-cuda-video: the CUDA backend of the spatio-temporal convolution
 * (kernels/conv3d.cu) against the float64 reference (conv3d_reference.c)
 * and the CPU backend (cpu/conv3d_cpu.c).
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Every CUDA algorithm (baseline, shared, streaming,
 * fft3d, fft-hybrid) streams real-video volumes (moving crops of the test
 * photos) through the device: inputs uploaded into device planes (pitched,
 * or linear with odd strides and garbage, NaN for F32, in the padding),
 * outputs into device planes whose padding is filled with 0xa5 and must
 * stay so.  F32 within GCV_CONV3D_TOLERANCE * sum |K| * vmax * |scale| of
 * the reference, U8 / U16 within one level of the quantised reference,
 * unfiltered channels exact; the same bound against the CPU backend's
 * streaming algorithm on the same stream.  Covers:
 *  - fixed cases: every border in space and time, stream start and end,
 *    streams shorter than kt, kernels larger than the frame, rectangular
 *    kernels, kt = 1 with max_outputs 1 (fft3d's 2-D case), sizes 31,
 *    channels 1..4 with filter masks (nothing filtered too), max_outputs 1,
 *    4, 7 and 16 with fixed and random batch sizes, scale / offset /
 *    absolute with both clamps, odd frame sizes;
 *  - every kernel instantiation: kx = 1 .. 31 for the streaming kernel
 *    with chunks of 4, 2 and 1 output frames, every batch size 1 .. 16 (the
 *    fft-hybrid accumulator), kernels beyond 16K floats (baseline and
 *    shared reading global memory), five contexts at once sharing the
 *    __constant__ slices, interleaved on one stream;
 *  - a coefficient change between _process calls (spectra remade), and
 *    back; reset mid-stream and after the end;
 *  - errors: the shared checks reach the CUDA calls (bad sizes, enums,
 *    geometry, a full ring, a push after the end, more outputs than ready
 *    or than max_outputs, planes of the wrong size or alignment, changed
 *    shape), each GCV_ERROR_INVALID with a message; a geometry too large
 *    for the device and a nearly full device give GCV_ERROR_NO_MEMORY and
 *    leave no device memory behind;
 *  - larger frames (640 x 480 up to 720 x 560 at k = 9 and 15).
 * GCV_TEST_QUICK=1 (for compute-sanitizer: a few seconds natively, about
 * 5 s under memcheck and initcheck, 2.5 min under racecheck on an H100):
 * the small cases, still every kernel instantiation; no large frames, no
 * full device, fewer random cases.  Under a CUDA tool, which keeps device
 * memory of its own, free device memory is not compared after the failed
 * _new calls (memcheck's leak check covers that).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv3d_reference.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;
static int quick;
static int have_fft;

static const char *const type_names[3] = { "U8", "U16", "F32" };

static const GcvConv3dAlgorithm all_algorithms[] = {
  GCV_CONV3D_BASELINE, GCV_CONV3D_SHARED, GCV_CONV3D_STREAMING, GCV_CONV3D_FFT3D, GCV_CONV3D_FFT_HYBRID
};

#define N_ALGORITHMS 5

static int
is_fft (GcvConv3dAlgorithm a)
{
  return a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID;
}

/* ---- the CUDA backend behind Conv3dBackend ---------------------------------- */

/* Device planes for one context: inputs uploaded into din[] (used in
 * turn), outputs computed into dout[] and downloaded whole (padding too)
 * into scratch, where the padding must still hold 0xa5. */
typedef struct {
  GcvConv3dCuda *ctx;
  GcvConv3dGeometry g;
  GcvPlane din[2];
  int next_in;
  GcvPlane dout[GCV_CONV3D_MAX_OUTPUTS];
  uint8_t *scratch;
  size_t row_bytes;
  long pad_bad;                 /* output padding bytes the backend wrote */
} CudaRun;

static GcvStatus
cuda_push (void *c, const GcvPlane * in, GcvError * err)
{
  CudaRun *r = c;
  GcvPlane *d = &r->din[r->next_in];
  /* linear planes take the host rows with their garbage padding */
  size_t bytes = d->stride == in->stride ? in->stride : r->row_bytes;
  GcvStatus st = gcv_cuda_upload_2d (d->data, d->stride, in->data, in->stride, bytes, in->height, stream, err);
  if (st != GCV_OK)
    return st;
  r->next_in ^= 1;
  return gcv_conv3d_cuda_push (r->ctx, d, stream, err);
}

static void
cuda_end (void *c)
{
  gcv_conv3d_cuda_end (((CudaRun *) c)->ctx);
}

static int
cuda_ready (void *c)
{
  return gcv_conv3d_cuda_ready (((CudaRun *) c)->ctx);
}

static GcvStatus
cuda_process (void *c, const GcvConv3dParams * params, int n, GcvPlane * out, GcvError * err)
{
  CudaRun *r = c;
  GcvStatus st;
  int h = r->g.height;

  for (int o = 0; o < n; o++)
    if ((st = gcv_cuda_memset_2d (r->dout[o].data, r->dout[o].stride, 0xa5, r->dout[o].stride, h, stream,
                err)) != GCV_OK)
      return st;
  if ((st = gcv_conv3d_cuda_process (r->ctx, params, n, r->dout, stream, err)) != GCV_OK)
    return st;
  for (int o = 0; o < n; o++) {
    const GcvPlane *d = &r->dout[o];
    if ((st = gcv_cuda_download_2d (r->scratch, d->stride, d->data, d->stride, d->stride, h, stream, err)) != GCV_OK
        || (st = gcv_cuda_stream_sync (stream, err)) != GCV_OK)
      return st;
    for (int y = 0; y < h; y++) {
      const uint8_t *row = r->scratch + d->stride * y;
      for (size_t b = r->row_bytes; b < d->stride; b++)
        r->pad_bad += row[b] != 0xa5;
      memcpy ((uint8_t *) out[o].data + out[o].stride * y, row, r->row_bytes);
    }
  }
  return GCV_OK;
}

static Conv3dBackend
cuda_backend (CudaRun * r)
{
  Conv3dBackend b;
  b.ctx = r;
  b.push = cuda_push;
  b.end = cuda_end;
  b.ready = cuda_ready;
  b.process = cuda_process;
  return b;
}

static void
cuda_run_free (CudaRun * r)
{
  gcv_conv3d_cuda_free (r->ctx);
  for (int i = 0; i < 2; i++)
    gcv_cuda_free (r->din[i].data);
  for (int o = 0; o < GCV_CONV3D_MAX_OUTPUTS; o++)
    gcv_cuda_free (r->dout[o].data);
  free (r->scratch);
  memset (r, 0, sizeof (*r));
}

/* A context and its planes; in_stride is the host videos' stride (linear
 * device inputs use it), pitched picks cudaMallocPitch for the inputs
 * (the outputs get the other kind, linear ones an odd padding).  0, or -1
 * after a failed check. */
static int
cuda_run_new (CudaRun * r, const GcvConv3dGeometry * g, const GcvConv3dParams * p, size_t in_stride,
    int pitched, const char *what)
{
  GcvError err;
  size_t sb = (size_t) gcv_sample_bytes (g->type);

  memset (r, 0, sizeof (*r));
  memset (&err, 0, sizeof (err));
  r->g = *g;
  r->row_bytes = (size_t) g->width * g->channels * sb;
  r->ctx = gcv_conv3d_cuda_new (g, p, stream, &err);
  GCV_TEST_CHECK (r->ctx != NULL, "%s: cuda_new: %s", what, err.message);
  if (r->ctx == NULL)
    return -1;
  for (int i = 0; i < 2; i++) {
    int ok;
    r->din[i].width = g->width;
    r->din[i].height = g->height;
    if (pitched) {
      ok = gcv_cuda_malloc_2d (&r->din[i].data, &r->din[i].stride, r->row_bytes, g->height, &err) == GCV_OK
          && gcv_cuda_memset_2d (r->din[i].data, r->din[i].stride, 0xcd, r->din[i].stride, g->height, stream,
          &err) == GCV_OK;
    } else {
      r->din[i].stride = in_stride;
      ok = gcv_cuda_malloc (&r->din[i].data, in_stride * g->height, &err) == GCV_OK;
    }
    GCV_TEST_CHECK (ok, "%s: device input: %s", what, err.message);
    if (!ok)
      return -1;
  }
  for (int o = 0; o < g->max_outputs; o++) {
    size_t pad = sb == 1 ? 3 : sb * 3;
    if (gcv_test_device_alloc (g->width, g->height, r->row_bytes, !pitched, pad, &r->dout[o], "device output") != 0)
      return -1;
  }
  r->scratch = gcv_test_malloc (r->dout[0].stride * g->height);
  return 0;
}

/* ---- cases -------------------------------------------------------------------- */

typedef struct {
  int w, h, frames, kx, ky, kt;
  GcvConv3dBorder border;
  GcvSampleType type;
  int channels;
  unsigned mask;
  int max_outputs, batch;       /* batch <= 0: random 1 .. -batch */
  size_t pad;                   /* host row padding, bytes */
  float scale, offset;
  int absolute;
  int pitched;
} Case;

static Case
case_make (int w, int h, int frames, int kx, int ky, int kt, int border, GcvSampleType type, int channels,
    unsigned mask, int max_outputs, int batch)
{
  Case c;
  memset (&c, 0, sizeof (c));
  c.w = w;
  c.h = h;
  c.frames = frames;
  c.kx = kx;
  c.ky = ky;
  c.kt = kt;
  c.border = (GcvConv3dBorder) border;
  c.type = type;
  c.channels = channels;
  c.mask = mask;
  c.max_outputs = max_outputs;
  c.batch = batch;
  c.pad = (size_t) gcv_sample_bytes (type) * (type == GCV_SAMPLE_U8 ? 5 : 3);
  c.scale = 1.0f;
  c.pitched = (w + h + kx) & 1;
  return c;
}

static void
case_name (const Case * c, char *buf, size_t len)
{
  snprintf (buf, len, "%dx%d x %d frames, kernel %dx%dx%d, %s, %s x %d mask 0x%x, max_outputs %d batch %d, "
      "scale %g offset %g abs %d, %s inputs", c->w, c->h, c->frames, c->kx, c->ky, c->kt,
      gcv_conv3d_border_name (c->border), type_names[c->type], c->channels, c->mask, c->max_outputs, c->batch,
      c->scale, c->offset, c->absolute, c->pitched ? "pitched" : "linear");
}

/* The U8 / U16 cases scale the kernel so that outputs span the range
 * (a random kernel's sum can be anything). */
static float
case_scale (const Case * c, const float *k)
{
  double sum = conv3d_test_abs_sum (k, c->kx * c->ky * c->kt);
  if (c->type == GCV_SAMPLE_F32 || c->scale != 1.0f)
    return c->scale;
  return (float) (1.5 / sum);
}

static double worst_f32_ratio;
static long cases_run, streams_run;

/* One CUDA algorithm over the video; the output volume (frames 0 after a
 * failed check). */
static Conv3dVolume
run_cuda (const Case * c, const GcvConv3dParams * p, const Conv3dVolume * video, uint32_t seed, const char *name)
{
  GcvConv3dGeometry g = conv3d_test_geometry (c->type, c->channels, c->mask, c->w, c->h, c->max_outputs);
  Conv3dVolume out = conv3d_test_volume_new (c->type, c->channels, c->w, c->h, c->frames, c->pad + 2 * 4, seed);
  CudaRun r;
  Conv3dBackend b;
  char msg[600];

  if (cuda_run_new (&r, &g, p, video->stride, c->pitched, name) != 0) {
    cuda_run_free (&r);
    conv3d_test_volume_free (&out);
    return out;
  }
  b = cuda_backend (&r);
  msg[0] = '\0';
  if (conv3d_test_run (&b, video, p, c->kt, c->batch, &out, msg, sizeof (msg)) != 0) {
    gcv_test_fail ("%s, %s: %s", gcv_conv3d_algorithm_name (p->algorithm), name, msg);
    conv3d_test_volume_free (&out);
  } else {
    GCV_TEST_CHECK (r.pad_bad == 0, "%s, %s: %ld bytes of the device output padding written",
        gcv_conv3d_algorithm_name (p->algorithm), name, r.pad_bad);
  }
  streams_run++;
  cuda_run_free (&r);
  return out;
}

static Conv3dVolume
run_cpu (const Case * c, const GcvConv3dParams * p, const Conv3dVolume * video, const char *name)
{
  GcvConv3dGeometry g = conv3d_test_geometry (c->type, c->channels, c->mask, c->w, c->h, c->max_outputs);
  Conv3dVolume out = conv3d_test_volume_new (c->type, c->channels, c->w, c->h, c->frames, 4, 9);
  GcvConv3dParams pc = *p;
  GcvConv3dCpu *ctx;
  Conv3dBackend b;
  GcvError err;
  char msg[600];

  pc.algorithm = GCV_CONV3D_STREAMING;
  memset (&err, 0, sizeof (err));
  ctx = gcv_conv3d_cpu_new (&g, &pc, 0, &err);
  GCV_TEST_CHECK (ctx != NULL, "CPU, %s: cpu_new: %s", name, err.message);
  if (ctx == NULL) {
    conv3d_test_volume_free (&out);
    return out;
  }
  b = conv3d_test_cpu_backend (ctx);
  if (conv3d_test_run (&b, video, &pc, c->kt, c->batch, &out, msg, sizeof (msg)) != 0) {
    gcv_test_fail ("CPU, %s: %s", name, msg);
    conv3d_test_volume_free (&out);
  }
  gcv_conv3d_cpu_free (ctx);
  return out;
}

/* Every CUDA algorithm (those in `algorithms`, a bit mask by enum value)
 * against the reference and the CPU backend. */
static void
run_case_algorithms (const Case * c, uint32_t seed, unsigned algorithms)
{
  const int n = c->kx * c->ky * c->kt;
  float *k = gcv_test_malloc (sizeof (float) * n);
  Conv3dVolume video = conv3d_test_video (c->type, c->channels, c->w, c->h, c->frames, c->pad, seed);
  size_t n_samples = (size_t) c->frames * c->h * c->w * c->channels;
  double *ref = gcv_test_malloc (sizeof (double) * n_samples), tol;
  Conv3dVolume cpu;
  GcvConv3dParams p;
  char name[320], dmsg[512];

  conv3d_test_random_kernel (c->kx, c->ky, c->kt, seed, k);
  p = conv3d_test_params (c->kx, c->ky, c->kt, c->border, GCV_CONV3D_BASELINE, k);
  p.scale = case_scale (c, k);
  p.offset = c->offset;
  p.absolute = c->absolute;
  conv3d_ref_convolve (video.values, c->w, c->h, c->channels, c->frames, c->mask, &p, ref);
  tol = conv3d_ref_tolerance (&p, conv3d_ref_vmax (c->type, video.values, n_samples));
  case_name (c, name, sizeof (name));
  cpu = run_cpu (c, &p, &video, name);

  for (int a = 0; a < N_ALGORITHMS; a++) {
    Conv3dVolume out;
    Conv3dDiff d;
    if (!(algorithms >> all_algorithms[a] & 1) || (!have_fft && is_fft (all_algorithms[a])))
      continue;
    p.algorithm = all_algorithms[a];
    out = run_cuda (c, &p, &video, seed + a, name);
    if (out.frames == 0)
      continue;
    conv3d_test_compare (&out, ref, c->mask, tol, &d);
    GCV_TEST_CHECK (d.bad == 0 && d.bad_copy == 0, "CUDA %s vs reference, %s: %s",
        gcv_conv3d_algorithm_name (p.algorithm), name, conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
    if (c->type == GCV_SAMPLE_F32 && d.max_err / tol > worst_f32_ratio)
      worst_f32_ratio = d.max_err / tol;
    if (cpu.frames) {
      /* the CPU output is itself within tol of the reference */
      conv3d_test_compare_volumes (&out, &cpu, c->mask, 2 * tol, &d);
      GCV_TEST_CHECK (d.bad == 0 && d.bad_copy == 0, "CUDA %s vs CPU streaming, %s: %s",
          gcv_conv3d_algorithm_name (p.algorithm), name, conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
    }
    GCV_TEST_CHECK (conv3d_test_padding_intact (&out), "CUDA %s, %s: host output padding written",
        gcv_conv3d_algorithm_name (p.algorithm), name);
    conv3d_test_volume_free (&out);
  }
  cases_run++;
  conv3d_test_volume_free (&cpu);
  free (ref);
  free (k);
  conv3d_test_volume_free (&video);
}

static void
run_case (const Case * c, uint32_t seed)
{
  run_case_algorithms (c, seed, ~0u);
}

static void
test_fixed (void)
{
  uint32_t seed = 100;
  Case c;

  for (int b = 0; b < 3; b++) {
    run_case ((c = case_make (23, 17, 8, 5, 5, 5, b, GCV_SAMPLE_U8, 1, 1, 4, 4), &c), seed++);
    run_case ((c = case_make (133, 9, 5, 3, 3, 3, b, GCV_SAMPLE_F32, 1, 1, 2, -2), &c), seed++);
    run_case ((c = case_make (64, 48, 9, 7, 3, 5, b, GCV_SAMPLE_F32, 3, 0x5, 4, -4), &c), seed++);
    run_case ((c = case_make (37, 29, 7, 9, 3, 5, b, GCV_SAMPLE_U16, 1, 1, 3, 3), &c), seed++);
    run_case ((c = case_make (30, 20, 6, 3, 7, 1, b, GCV_SAMPLE_U8, 2, 0x3, 1, 1), &c), seed++);
    run_case ((c = case_make (25, 19, 6, 1, 5, 3, b, GCV_SAMPLE_F32, 1, 1, 4, 1), &c), seed++);
    /* kernels larger than the frame */
    run_case ((c = case_make (1, 1, 5, 7, 7, 7, b, GCV_SAMPLE_U16, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (2, 3, 6, 7, 7, 7, b, GCV_SAMPLE_F32, 1, 1, 2, -2), &c), seed++);
    run_case ((c = case_make (3, 2, 4, 9, 9, 3, b, GCV_SAMPLE_U8, 4, 0xf, 4, -3), &c), seed++);
    /* streams shorter than kt */
    run_case ((c = case_make (9, 7, 1, 3, 3, 7, b, GCV_SAMPLE_F32, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (9, 7, 2, 3, 3, 7, b, GCV_SAMPLE_F32, 1, 1, 4, 4), &c), seed++);
    run_case ((c = case_make (8, 5, 3, 5, 3, 9, b, GCV_SAMPLE_U8, 1, 1, 2, -2), &c), seed++);
    /* size 31 in each direction */
    run_case ((c = case_make (4, 3, 4, 31, 1, 3, b, GCV_SAMPLE_F32, 1, 1, 2, 2), &c), seed++);
    run_case ((c = case_make (5, 4, 3, 1, 31, 1, b, GCV_SAMPLE_U16, 1, 1, 1, 1), &c), seed++);
    run_case ((c = case_make (3, 3, 5, 1, 1, 31, b, GCV_SAMPLE_F32, 1, 1, 3, -3), &c), seed++);
    run_case ((c = case_make (2, 2, 3, 31, 31, 31, b, GCV_SAMPLE_F32, 1, 1, 1, 1), &c), seed++);
    /* a window of one frame: fft3d's 2-D transform */
    run_case ((c = case_make (19, 11, 4, 5, 3, 1, b, GCV_SAMPLE_F32, 2, 0x2, 1, 1), &c), seed++);
  }
  /* a 1x1x1 kernel: the frame scaled */
  run_case ((c = case_make (16, 16, 3, 1, 1, 1, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 1, 1, 2, 2), &c), seed++);
  /* channels and filter masks: RGBA (alpha copied), luma of 3, UV, nothing filtered */
  run_case ((c = case_make (21, 13, 6, 3, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_U8, 4, 0x7, 4, -4), &c),
      seed++);
  run_case ((c = case_make (21, 13, 6, 5, 3, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_F32, 4, 0x6, 2, 2), &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 5, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 3, 0x2, 1, 1), &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 3, 5, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 2, 0x3, 3, 3), &c), seed++);
  run_case ((c = case_make (17, 11, 5, 3, 3, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 2, 0x0, 2, 2), &c), seed++);
  run_case ((c = case_make (33, 9, 7, 5, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U16, 4, 0x9, 4, 4), &c), seed++);
  /* scale, offset, absolute, both clamps */
  c = case_make (24, 18, 6, 5, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_U8, 1, 1, 4, -4);
  c.scale = 3.0f;
  c.offset = 20.0f;
  c.absolute = 1;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U16, 2, 0x1, 2, 2);
  c.scale = -0.75f;
  c.offset = 30000.0f;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 3, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 1, 1, 2, -2);
  c.offset = -30000.0f;
  c.absolute = 1;
  run_case (&c, seed++);
  c = case_make (24, 18, 6, 3, 3, 5, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 1, 1, 3, 3);
  c.scale = -0.5f;
  c.offset = 3.0f;
  c.absolute = 1;
  run_case (&c, seed++);
  /* packed host rows; max_outputs 16 */
  c = case_make (40, 30, 7, 5, 5, 3, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4);
  c.pad = 0;
  run_case (&c, seed++);
  run_case ((c = case_make (40, 30, 21, 5, 5, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_F32, 3, 0x7, 16, -16), &c), seed++);
  run_case ((c = case_make (45, 23, 20, 3, 3, 9, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_U8, 1, 1, 16, 16), &c),
      seed++);
  /* odd frame sizes, a few blocks of every kernel */
  run_case ((c = case_make (111, 30, 6, 5, 5, 5, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4), &c), seed++);
  run_case ((c = case_make (97, 61, 7, 7, 5, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_F32, 2, 0x1, 4, -4), &c),
      seed++);
}

/* Every streaming instantiation: kx = 1 .. 31 with max_outputs 7 and
 * batches of 7 (chunks of 4, 2, 1 frames); the other algorithms too. */
static void
test_kernel_widths (void)
{
  for (int kx = 1; kx <= GCV_CONV3D_MAX_SIZE; kx += 2) {
    Case c = case_make (kx % 3 == 0 ? 41 : 29, 6, 10, kx, kx % 4 == 1 ? 3 : 1, 3, kx % 3,
        (GcvSampleType) (kx % 3), 1, 1, 7, 7);
    run_case_algorithms (&c, 500 + kx, quick && kx > 5 ? (1u << GCV_CONV3D_STREAMING) : ~0u);
  }
}

/* Batches of every size 1 .. 16 (max_outputs 16) on one context, then the
 * end of the stream in batches of 3: every hybrid_mac instantiation. */
static void
test_batch_sizes (void)
{
  const int w = 13, h = 7, C = 2, frames = 150, kt = 5, M = GCV_CONV3D_MAX_OUTPUTS;
  const unsigned mask = 0x2;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, C, w, h, frames, 12, 41);
  size_t n_samples = (size_t) frames * h * w * C;
  double *ref = gcv_test_malloc (sizeof (double) * n_samples), tol;
  float k[3 * 3 * 5];
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_F32, C, mask, w, h, M);
  GcvConv3dParams p;
  char dmsg[512];

  conv3d_test_random_kernel (3, 3, kt, 41, k);
  p = conv3d_test_params (3, 3, kt, GCV_CONV3D_BORDER_MIRROR, GCV_CONV3D_BASELINE, k);
  conv3d_ref_convolve (video.values, w, h, C, frames, mask, &p, ref);
  tol = conv3d_ref_tolerance (&p, conv3d_ref_vmax (GCV_SAMPLE_F32, video.values, n_samples));
  for (int a = 0; a < N_ALGORITHMS; a++) {
    Conv3dVolume out = conv3d_test_volume_new (GCV_SAMPLE_F32, C, w, h, frames, 8, 42);
    CudaRun r;
    Conv3dBackend b;
    GcvError err;
    Conv3dDiff d;
    int pushed = 0, done = 0, n = 1, ok = 1;
    if (!have_fft && is_fft (all_algorithms[a]))
      continue;
    p.algorithm = all_algorithms[a];
    if (cuda_run_new (&r, &g, &p, video.stride, a & 1, "batch sizes") != 0) {
      cuda_run_free (&r);
      conv3d_test_volume_free (&out);
      continue;
    }
    b = cuda_backend (&r);
    memset (&err, 0, sizeof (err));
    while (ok && done < frames) {
      int ready = b.ready (&r);
      if (ready >= n || (pushed == frames && ready > 0)) {
        GcvPlane planes[GCV_CONV3D_MAX_OUTPUTS];
        int m = n < ready ? n : ready;
        for (int o = 0; o < m; o++)
          planes[o] = conv3d_test_plane (&out, done + o);
        ok = b.process (&r, &p, m, planes, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "batch sizes, %s: process %d at %d: %s", gcv_conv3d_algorithm_name (p.algorithm), m,
            done, err.message);
        done += m;
        n = n < M ? n + 1 : 3;
      } else if (pushed < frames) {
        GcvPlane in = conv3d_test_plane (&video, pushed);
        ok = b.push (&r, &in, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "batch sizes, %s: push %d: %s", gcv_conv3d_algorithm_name (p.algorithm), pushed,
            err.message);
        if (++pushed == frames)
          b.end (&r);
      } else {
        GCV_TEST_CHECK (0, "batch sizes, %s: stuck at %d of %d", gcv_conv3d_algorithm_name (p.algorithm), done,
            frames);
        ok = 0;
      }
    }
    if (ok) {
      conv3d_test_compare (&out, ref, mask, tol, &d);
      GCV_TEST_CHECK (d.bad == 0 && d.bad_copy == 0 && r.pad_bad == 0, "batch sizes 1 .. 16, %s: %s, %ld padding "
          "bytes written", gcv_conv3d_algorithm_name (p.algorithm), conv3d_test_diff_string (&d, dmsg,
              sizeof (dmsg)), r.pad_bad);
    }
    cuda_run_free (&r);
    conv3d_test_volume_free (&out);
  }
  free (ref);
  conv3d_test_volume_free (&video);
}

/* Coefficients in global memory: more than 16K floats (baseline and
 * shared get no __constant__ slice). */
static void
test_global_coefficients (void)
{
  Case c = case_make (5, 4, 4, 31, 31, 17, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_F32, 1, 1, 4, -4);
  run_case_algorithms (&c, 777, 1u << GCV_CONV3D_BASELINE | 1u << GCV_CONV3D_SHARED);
  c = case_make (6, 5, 9, 31, 29, 17, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U8, 1, 1, 7, 7);
  run_case_algorithms (&c, 778, 1u << GCV_CONV3D_BASELINE | 1u << GCV_CONV3D_SHARED);
}

/* Five contexts alive at once, interleaved frame by frame on one stream:
 * k = 15 (3600 floats each, rows padded) fills the 16K floats of
 * __constant__ memory after four, so the fifth reads global memory; each
 * must still see its own coefficients. */
static void
test_many_contexts (void)
{
  enum { N_CTX = 5 };
  const int w = 24, h = 10, frames = 9, k = 15;
  const int n = k * k * k;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, 1, w, h, frames, 8, 51);
  size_t n_samples = (size_t) frames * h * w;
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_F32, 1, 1, w, h, 2);
  CudaRun r[N_CTX];
  Conv3dVolume out[N_CTX];
  float *coef[N_CTX];
  GcvConv3dParams p[N_CTX];
  int done[N_CTX] = { 0 }, ok = 1;
  GcvError err;
  char dmsg[512];

  for (int i = 0; i < N_CTX; i++) {
    coef[i] = gcv_test_malloc (sizeof (float) * n);
    conv3d_test_random_kernel (k, k, k, 60 + i, coef[i]);
    p[i] = conv3d_test_params (k, k, k, (GcvConv3dBorder) (i % 3), i % 2 ? GCV_CONV3D_SHARED : GCV_CONV3D_BASELINE,
        coef[i]);
    out[i] = conv3d_test_volume_new (GCV_SAMPLE_F32, 1, w, h, frames, 4, 70 + i);
    ok &= cuda_run_new (&r[i], &g, &p[i], video.stride, i & 1, "five contexts") == 0;
  }
  memset (&err, 0, sizeof (err));
  for (int f = 0; ok && f <= frames; f++) {
    for (int i = 0; ok && i < N_CTX; i++) {
      Conv3dBackend b = cuda_backend (&r[i]);
      if (f < frames) {
        GcvPlane in = conv3d_test_plane (&video, f);
        ok = b.push (&r[i], &in, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "five contexts: push %d into %d: %s", f, i, err.message);
      } else {
        b.end (&r[i]);
      }
      while (ok && b.ready (&r[i]) > 0) {
        GcvPlane plane = conv3d_test_plane (&out[i], done[i]);
        ok = b.process (&r[i], &p[i], 1, &plane, &err) == GCV_OK;
        GCV_TEST_CHECK (ok, "five contexts: process %d of %d: %s", done[i], i, err.message);
        done[i]++;
      }
    }
  }
  for (int i = 0; i < N_CTX; i++) {
    if (ok) {
      double *ref = gcv_test_malloc (sizeof (double) * n_samples), tol;
      Conv3dDiff d;
      conv3d_ref_convolve (video.values, w, h, 1, frames, 1, &p[i], ref);
      tol = conv3d_ref_tolerance (&p[i], conv3d_ref_vmax (GCV_SAMPLE_F32, video.values, n_samples));
      conv3d_test_compare (&out[i], ref, 1, tol, &d);
      GCV_TEST_CHECK (done[i] == frames && d.bad == 0 && r[i].pad_bad == 0, "five contexts, context %d (%s, %s "
          "border): %d outputs, %s", i, gcv_conv3d_algorithm_name (p[i].algorithm),
          gcv_conv3d_border_name (p[i].border), done[i], conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      free (ref);
    }
    cuda_run_free (&r[i]);
    conv3d_test_volume_free (&out[i]);
    free (coef[i]);
  }
  conv3d_test_volume_free (&video);
}

/* Kernel A, then B, then A again, on one context, two outputs per call. */
static void
test_coefficient_change (void)
{
  const int w = 31, h = 17, C = 1, frames = 12;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_F32, C, w, h, frames, 4, 81);
  size_t n_samples = (size_t) frames * h * w * C, frame_samples = (size_t) h * w * C;
  float ka[5 * 3 * 3], kb[5 * 3 * 3];
  double *ref_a = gcv_test_malloc (sizeof (double) * n_samples), *ref_b = gcv_test_malloc (sizeof (double) * n_samples);
  double *want = gcv_test_malloc (sizeof (double) * n_samples), tol;
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_F32, C, 1, w, h, 2);
  GcvConv3dParams pa, pb;
  char dmsg[512];

  conv3d_test_random_kernel (5, 3, 3, 81, ka);
  conv3d_test_random_kernel (5, 3, 3, 82, kb);
  pa = conv3d_test_params (5, 3, 3, GCV_CONV3D_BORDER_REPLICATE, GCV_CONV3D_BASELINE, ka);
  pb = pa;
  pb.coefficients = kb;
  pb.scale = 0.5f;
  conv3d_ref_convolve (video.values, w, h, C, frames, 1, &pa, ref_a);
  conv3d_ref_convolve (video.values, w, h, C, frames, 1, &pb, ref_b);
  tol = fmax (conv3d_ref_tolerance (&pa, conv3d_ref_vmax (GCV_SAMPLE_F32, video.values, n_samples)),
      conv3d_ref_tolerance (&pb, conv3d_ref_vmax (GCV_SAMPLE_F32, video.values, n_samples)));
  for (int a = 0; a < N_ALGORITHMS; a++) {
    Conv3dVolume out = conv3d_test_volume_new (GCV_SAMPLE_F32, C, w, h, frames, 4, 83);
    CudaRun r;
    Conv3dBackend b;
    GcvError err;
    Conv3dDiff d;
    int done = 0, call = 0, ok = 1;
    if (!have_fft && is_fft (all_algorithms[a]))
      continue;
    pa.algorithm = pb.algorithm = all_algorithms[a];
    if (cuda_run_new (&r, &g, &pa, video.stride, 1, "coefficient change") != 0) {
      cuda_run_free (&r);
      conv3d_test_volume_free (&out);
      continue;
    }
    b = cuda_backend (&r);
    memset (&err, 0, sizeof (err));
    for (int f = 0; ok && f <= frames; f++) {
      if (f < frames) {
        GcvPlane in = conv3d_test_plane (&video, f);
        ok = b.push (&r, &in, &err) == GCV_OK;
      } else {
        b.end (&r);
      }
      while (ok && (b.ready (&r) >= 2 || (f == frames && b.ready (&r) > 0))) {
        /* calls 0, 3, 4: A; 1, 2, 5: B (so both A -> B and B -> A, and B twice) */
        const GcvConv3dParams *p = (call % 6 == 1 || call % 6 == 2 || call % 6 == 5) ? &pb : &pa;
        int m = b.ready (&r) >= 2 ? 2 : 1;
        GcvPlane planes[2];
        for (int o = 0; o < m; o++) {
          planes[o] = conv3d_test_plane (&out, done + o);
          memcpy (want + frame_samples * (done + o), (p == &pb ? ref_b : ref_a) + frame_samples * (done + o),
              sizeof (double) * frame_samples);
        }
        ok = b.process (&r, p, m, planes, &err) == GCV_OK;
        done += m;
        call++;
      }
    }
    GCV_TEST_CHECK (ok && done == frames, "coefficient change, %s: %d outputs: %s",
        gcv_conv3d_algorithm_name (pa.algorithm), done, err.message);
    if (ok) {
      conv3d_test_compare (&out, want, 1, tol, &d);
      GCV_TEST_CHECK (d.bad == 0, "coefficient change A -> B -> A, %s: %s", gcv_conv3d_algorithm_name (pa.algorithm),
          conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
    }
    cuda_run_free (&r);
    conv3d_test_volume_free (&out);
  }
  free (ref_a);
  free (ref_b);
  free (want);
  conv3d_test_volume_free (&video);
}

/* Reset mid-stream and after the end: the next stream comes out as from
 * a fresh context. */
static void
test_reset (void)
{
  const int w = 19, h = 13, C = 2, frames = 9;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_U8, C, w, h, frames, 3, 91);
  Conv3dVolume other = conv3d_test_video (GCV_SAMPLE_U8, C, w, h, frames, 3, 92);
  size_t n_samples = (size_t) frames * h * w * C;
  double *ref = gcv_test_malloc (sizeof (double) * n_samples), tol;
  float k[3 * 5 * 5];
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_U8, C, 0x1, w, h, 3);
  GcvConv3dParams p;
  char dmsg[512], msg[600];

  conv3d_test_random_kernel (3, 5, 5, 91, k);
  p = conv3d_test_params (3, 5, 5, GCV_CONV3D_BORDER_MIRROR, GCV_CONV3D_BASELINE, k);
  p.scale = (float) (1.0 / conv3d_test_abs_sum (k, 75));
  conv3d_ref_convolve (video.values, w, h, C, frames, 0x1, &p, ref);
  tol = conv3d_ref_tolerance (&p, 255.0);
  for (int a = 0; a < N_ALGORITHMS; a++) {
    CudaRun r;
    Conv3dBackend b;
    GcvError err;
    if (!have_fft && is_fft (all_algorithms[a]))
      continue;
    p.algorithm = all_algorithms[a];
    if (cuda_run_new (&r, &g, &p, video.stride, 0, "reset") != 0) {
      cuda_run_free (&r);
      continue;
    }
    b = cuda_backend (&r);
    for (int round = 0; round < 2; round++) {
      Conv3dVolume out = conv3d_test_volume_new (GCV_SAMPLE_U8, C, w, h, frames, 4, 93);
      Conv3dVolume junk = conv3d_test_volume_new (GCV_SAMPLE_U8, C, w, h, frames, 4, 94);
      Conv3dDiff d;
      memset (&err, 0, sizeof (err));
      if (round == 0) {
        /* part of another stream, then reset mid-stream */
        for (int f = 0; f < 5; f++) {
          GcvPlane in = conv3d_test_plane (&other, f);
          GCV_TEST_CHECK (b.push (&r, &in, &err) == GCV_OK, "reset: push: %s", err.message);
        }
        GcvPlane jp = conv3d_test_plane (&junk, 0);
        GCV_TEST_CHECK (b.process (&r, &p, 1, &jp, &err) == GCV_OK, "reset: process: %s", err.message);
      }
      gcv_conv3d_cuda_reset (r.ctx);
      GCV_TEST_CHECK (b.ready (&r) == 0, "reset: %d outputs ready after reset", b.ready (&r));
      if (conv3d_test_run (&b, &video, &p, 5, 2, &out, msg, sizeof (msg)) != 0) {
        gcv_test_fail ("reset %s, round %d: %s", gcv_conv3d_algorithm_name (p.algorithm), round, msg);
      } else {
        conv3d_test_compare (&out, ref, 0x1, tol, &d);
        GCV_TEST_CHECK (d.bad == 0 && d.bad_copy == 0, "reset %s %s: %s", round ? "after the end" : "mid-stream",
            gcv_conv3d_algorithm_name (p.algorithm), conv3d_test_diff_string (&d, dmsg, sizeof (dmsg)));
      }
      conv3d_test_volume_free (&out);
      conv3d_test_volume_free (&junk);
    }
    cuda_run_free (&r);
  }
  free (ref);
  conv3d_test_volume_free (&video);
  conv3d_test_volume_free (&other);
}

/* Random cases: sizes, kernels, borders, types, channels, masks, batches. */
static int
rand_odd (uint32_t * st, int max)
{
  return 1 + 2 * (int) (gcv_test_rand (st) % (uint32_t) ((max + 1) / 2));
}

static void
test_random (int n_cases)
{
  uint32_t st = 5151;

  for (int i = 0; i < n_cases; i++) {
    int ch = 1 + (int) (gcv_test_rand (&st) % 4);
    int M = 1 + (int) (gcv_test_rand (&st) % 8);
    Case c = case_make (1 + (int) (gcv_test_rand (&st) % 70), 1 + (int) (gcv_test_rand (&st) % 40),
        1 + (int) (gcv_test_rand (&st) % 12), rand_odd (&st, 11), rand_odd (&st, 11), rand_odd (&st, 9),
        (int) (gcv_test_rand (&st) % 3), (GcvSampleType) (gcv_test_rand (&st) % 3), ch,
        (unsigned) (gcv_test_rand (&st) % (1u << ch)), M, gcv_test_rand (&st) % 2 ? M : -M);
    c.pad = (size_t) gcv_sample_bytes (c.type) * (gcv_test_rand (&st) % 9);
    c.pitched = (int) (gcv_test_rand (&st) % 2);
    if (gcv_test_rand (&st) % 3 == 0) {
      c.scale = (float) ((int) (gcv_test_rand (&st) % 41) - 20) / 8.0f;
      c.offset = (float) ((int) (gcv_test_rand (&st) % 201) - 100);
      c.absolute = (int) (gcv_test_rand (&st) % 2);
    }
    run_case (&c, 3000 + i);
  }
}

/* Real frame sizes (the paper's 720 x 560 at k = 9 and 15). */
static void
test_large (void)
{
  Case c = case_make (720, 560, 8, 9, 9, 9, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4);
  run_case (&c, 9001);
  c = case_make (641, 481, 6, 15, 15, 15, GCV_CONV3D_BORDER_REPLICATE, GCV_SAMPLE_F32, 1, 1, 4, -4);
  c.frames = 5;
  run_case (&c, 9002);
  c = case_make (640, 480, 5, 7, 5, 3, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U16, 4, 0x7, 2, 2);
  run_case (&c, 9003);
}

/* ---- errors ---------------------------------------------------------------------- */

static void
expect_invalid (GcvStatus st, const GcvError * err, const char *needle, const char *what)
{
  GCV_TEST_CHECK (st == GCV_ERROR_INVALID && err->status == GCV_ERROR_INVALID && strstr (err->message, needle),
      "%s: status %d, message \"%s\" (want GCV_ERROR_INVALID naming \"%s\")", what, st, err->message, needle);
}

static void
expect_new_refused (const GcvConv3dGeometry * g, const GcvConv3dParams * p, const char *needle, const char *what)
{
  GcvError err;
  GcvConv3dCuda *ctx;
  memset (&err, 0, sizeof (err));
  ctx = gcv_conv3d_cuda_new (g, p, stream, &err);
  expect_invalid (ctx ? GCV_OK : err.status, &err, needle, what);
  gcv_conv3d_cuda_free (ctx);
}

static void
test_errors (void)
{
  float k[5 * 5 * 5];
  GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_U16, 2, 0x3, 20, 10, 2), gb;
  GcvConv3dParams p = conv3d_test_params (5, 5, 5, GCV_CONV3D_BORDER_ZERO, GCV_CONV3D_STREAMING, k), pb;
  Conv3dVolume video = conv3d_test_video (GCV_SAMPLE_U16, 2, 20, 10, 8, 4, 3);
  CudaRun r;
  GcvError err;
  char what[160];

  conv3d_test_random_kernel (5, 5, 5, 3, k);
  for (int d = 0; d < 3; d++) {
    static const int bad_sizes[] = { 4, 0, 33, -1 };
    for (int s = 0; s < 4; s++) {
      char dims[32];
      pb = p;
      *(d == 0 ? &pb.kx : d == 1 ? &pb.ky : &pb.kt) = bad_sizes[s];
      snprintf (dims, sizeof (dims), "%dx%dx%d", pb.kx, pb.ky, pb.kt);
      snprintf (what, sizeof (what), "kernel %s", dims);
      expect_new_refused (&g, &pb, dims, what);
    }
  }
  pb = p;
  pb.coefficients = NULL;
  expect_new_refused (&g, &pb, "coefficients", "no coefficients");
  k[7] = INFINITY;
  expect_new_refused (&g, &p, "coefficient 7", "an infinite coefficient");
  conv3d_test_random_kernel (5, 5, 5, 3, k);
  pb = p;
  pb.algorithm = GCV_CONV3D_AUTO;
  expect_new_refused (&g, &pb, "auto", "algorithm auto");
  pb = p;
  pb.algorithm = GCV_CONV3D_N_ALGORITHMS;
  expect_new_refused (&g, &pb, "algorithm", "an unknown algorithm");
  pb = p;
  pb.border = (GcvConv3dBorder) 7;
  expect_new_refused (&g, &pb, "border", "border 7");
  gb = g;
  gb.channels = 5;
  expect_new_refused (&gb, &p, "channels", "5 channels");
  gb = g;
  gb.filter_mask = 0x4;
  expect_new_refused (&gb, &p, "mask", "a mask naming channel 2 of 2");
  gb = g;
  gb.height = 0;
  expect_new_refused (&gb, &p, "20x0", "height 0");
  gb = g;
  gb.max_outputs = GCV_CONV3D_MAX_OUTPUTS + 1;
  expect_new_refused (&gb, &p, "max_outputs", "max_outputs 17");
  expect_new_refused (&g, NULL, "parameters", "no parameters");
  expect_new_refused (NULL, &p, "geometry", "no geometry");
  {
    int fft_loaded;
    memset (&err, 0, sizeof (err));
    fft_loaded = gcv_conv3d_cuda_have_fft (&err);
    GCV_TEST_CHECK (fft_loaded == have_fft, "gcv_conv3d_cuda_have_fft changed its answer");
    if (!fft_loaded) {
      GCV_TEST_CHECK (strstr (err.message, "cuFFT could not be loaded") != NULL, "no cuFFT, but the message is "
          "\"%s\"", err.message);
      pb = p;
      pb.algorithm = GCV_CONV3D_FFT_HYBRID;
      expect_new_refused (&g, &pb, "cuFFT", "fft-hybrid without cuFFT");
    }
  }

  /* the ring: kt 5, max_outputs 2 -> 6 slots; output t needs frames t - 2 .. t + 2 */
  if (cuda_run_new (&r, &g, &p, video.stride, 1, "errors") == 0) {
    Conv3dBackend b = cuda_backend (&r);
    GcvPlane in, o[GCV_CONV3D_MAX_OUTPUTS], bad;
    GcvStatus st;
    memset (&err, 0, sizeof (err));
    for (int f = 0; f < 6; f++) {
      in = conv3d_test_plane (&video, f);
      GCV_TEST_CHECK (b.push (&r, &in, &err) == GCV_OK, "push %d of 6 into 6 slots: %s", f, err.message);
    }
    GCV_TEST_CHECK (b.ready (&r) == 4, "6 frames, kt 5: %d ready, want 4", b.ready (&r));
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_push (r.ctx, &r.din[0], stream, &err);
    expect_invalid (st, &err, "full", "a push into a full ring");
    for (int i = 0; i < GCV_CONV3D_MAX_OUTPUTS; i++)
      o[i] = r.dout[i % 2];
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &p, 5, o, stream, &err);
    expect_invalid (st, &err, "4 ready", "5 outputs when 4 are ready");
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &p, 3, o, stream, &err);
    expect_invalid (st, &err, "at most 2", "3 outputs with max_outputs 2");
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &p, 0, o, stream, &err);
    expect_invalid (st, &err, "0 outputs", "0 outputs");
    /* wrong output plane size, misaligned U16 plane, changed shape */
    bad = o[0];
    bad.width = 19;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &p, 1, &bad, stream, &err);
    expect_invalid (st, &err, "19x10", "an output plane of 19x10");
    bad = o[0];
    bad.data = (uint8_t *) bad.data + 1;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &p, 1, &bad, stream, &err);
    expect_invalid (st, &err, "aligned", "an odd U16 output address");
    pb = p;
    pb.kt = 3;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &pb, 1, o, stream, &err);
    expect_invalid (st, &err, "fixed", "a kernel of another shape at _process");
    pb = p;
    pb.algorithm = GCV_CONV3D_BASELINE;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_process (r.ctx, &pb, 1, o, stream, &err);
    expect_invalid (st, &err, "fixed", "another algorithm at _process");
    GCV_TEST_CHECK (b.ready (&r) == 4, "refused calls changed ready to %d", b.ready (&r));
    /* outputs 0..3 done: frame 0 is no longer needed, the push fits */
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_conv3d_cuda_process (r.ctx, &p, 2, o, stream, &err) == GCV_OK
        && gcv_conv3d_cuda_process (r.ctx, &p, 2, o, stream, &err) == GCV_OK, "process 2 + 2: %s", err.message);
    GCV_TEST_CHECK (gcv_conv3d_cuda_push (r.ctx, &r.din[1], stream, &err) == GCV_OK, "push after process: %s",
        err.message);
    bad = r.din[1];
    bad.height = 9;
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_push (r.ctx, &bad, stream, &err);
    expect_invalid (st, &err, "20x9", "an input plane of 20x9");
    gcv_conv3d_cuda_end (r.ctx);
    memset (&err, 0, sizeof (err));
    st = gcv_conv3d_cuda_push (r.ctx, &r.din[0], stream, &err);
    expect_invalid (st, &err, "end", "a push after the end");
    GCV_TEST_CHECK (gcv_conv3d_cuda_ready (r.ctx) == 3, "after the end of 7 frames with 4 done: %d ready, want 3",
        gcv_conv3d_cuda_ready (r.ctx));
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_cuda_stream_sync (stream, &err) == GCV_OK, "errors: stream: %s", err.message);
  }
  cuda_run_free (&r);
  gcv_conv3d_cuda_free (NULL);
  conv3d_test_volume_free (&video);
}

/* Whether compute-sanitizer (or another CUDA tool injected into the
 * process) is attached: its libraries are mapped into the process. */
static int
cuda_tool_attached (void)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  char line[1024];
  int found = 0;
  if (f == NULL)
    return 0;
  while (!found && fgets (line, sizeof (line), f))
    found = strstr (line, "sanitizer") != NULL || strstr (line, "InjectionTarget") != NULL;
  fclose (f);
  return found;
}

/* Out of device memory: GCV_ERROR_NO_MEMORY, and every byte _new took is
 * given back (memcheck's leak check covers this where a tool runs). */
static void
test_out_of_memory (void)
{
  float *k = gcv_test_malloc (sizeof (float) * 31 * 31 * 31);
  GcvError err;
  size_t free0, free1, total;

  conv3d_test_random_kernel (31, 31, 31, 5, k);
  for (int round = 0; round < 2; round++) {
    /* round 0 only warms up: a tool such as compute-sanitizer's initcheck
     * keeps device memory of its own after the first large allocations */
    if (round == 1) {
      memset (&err, 0, sizeof (err));
      GCV_TEST_CHECK (gcv_cuda_stream_sync (stream, &err) == GCV_OK
          && gcv_cuda_mem_info (&free0, &total, &err) == GCV_OK, "mem info: %s", err.message);
    }
    for (int a = 0; a < N_ALGORITHMS; a++) {
      /* 4 x 32768 x 32798 floats x 46 frames: about 800 GB */
      GcvConv3dGeometry g = conv3d_test_geometry (GCV_SAMPLE_U8, 4, 0xf, 32768, 32768, GCV_CONV3D_MAX_OUTPUTS);
      GcvConv3dParams p = conv3d_test_params (31, 31, 31, GCV_CONV3D_BORDER_MIRROR, all_algorithms[a], k);
      GcvConv3dCuda *ctx;
      if (!have_fft && is_fft (all_algorithms[a]))
        continue;
      memset (&err, 0, sizeof (err));
      ctx = gcv_conv3d_cuda_new (&g, &p, stream, &err);
      GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_NO_MEMORY && strstr (err.message, "MiB"),
          "%s for 32768x32768 RGBA, kernel 31^3, 16 outputs: want GCV_ERROR_NO_MEMORY, got status %d \"%s\"",
          gcv_conv3d_algorithm_name (p.algorithm), err.status, err.message);
      gcv_conv3d_cuda_free (ctx);
    }
  }
  /* a device too full for a small context (not in quick mode: a tool
   * such as compute-sanitizer needs device memory of its own) */
  if (!quick) {
    GcvTestDeviceHog hog;
    Case c = case_make (720, 560, 1, 9, 9, 9, GCV_CONV3D_BORDER_ZERO, GCV_SAMPLE_U8, 1, 1, 4, 4);
    GcvConv3dGeometry g = conv3d_test_geometry (c.type, 1, 1, c.w, c.h, c.max_outputs);
    gcv_test_fill_device (&hog);
    for (int a = 0; a < N_ALGORITHMS; a++) {
      GcvConv3dParams p = conv3d_test_params (9, 9, 9, GCV_CONV3D_BORDER_ZERO, all_algorithms[a], k);
      GcvConv3dCuda *ctx;
      if (!have_fft && is_fft (all_algorithms[a]))
        continue;
      memset (&err, 0, sizeof (err));
      ctx = gcv_conv3d_cuda_new (&g, &p, stream, &err);
      GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_NO_MEMORY, "%s on a full device (%.1f GiB taken): "
          "want GCV_ERROR_NO_MEMORY, got status %d \"%s\"", gcv_conv3d_algorithm_name (p.algorithm),
          hog.bytes / 1073741824.0, err.status, err.message);
      gcv_conv3d_cuda_free (ctx);
    }
    gcv_test_release_device (&hog);
  }
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_cuda_stream_sync (stream, &err) == GCV_OK && gcv_cuda_mem_info (&free1, &total, &err) == GCV_OK,
      "mem info: %s", err.message);
  if (!cuda_tool_attached ())
    GCV_TEST_CHECK (free1 == free0, "failed _new calls left %.1f MiB of device memory taken",
        ((double) free0 - (double) free1) / 1048576.0);
  else
    printf ("a CUDA tool is attached (it takes device memory of its own): free memory before and after "
        "the failed _new calls not compared (%.1f MiB apart)\n", ((double) free0 - (double) free1) / 1048576.0);
  /* and the device still works */
  {
    Case c = case_make (33, 21, 6, 5, 5, 5, GCV_CONV3D_BORDER_MIRROR, GCV_SAMPLE_U8, 1, 1, 4, 4);
    run_case (&c, 4242);
  }
  free (k);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  GcvError err;

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  memset (&err, 0, sizeof (err));
  have_fft = gcv_conv3d_cuda_have_fft (&err);
  printf ("test data: %s%s; cuFFT: %s\n", gcv_test_data_dir (), quick ? " (quick)" : "",
      have_fft ? "loaded" : err.message);

  test_errors ();
  printf ("errors done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_fixed ();
  printf ("fixed cases done (%ld cases, %ld failures, %.1f s)\n", cases_run, gcv_test_failures,
      gcv_test_now_s () - t0);
  test_kernel_widths ();
  test_batch_sizes ();
  test_global_coefficients ();
  test_many_contexts ();
  printf ("instantiations done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_coefficient_change ();
  test_reset ();
  test_out_of_memory ();
  printf ("coefficients, reset, out of memory done (%ld failures, %.1f s)\n", gcv_test_failures,
      gcv_test_now_s () - t0);
  test_random (quick ? 6 : 40);
  if (!quick)
    test_large ();
  printf ("%ld cases, %ld CUDA streams; worst F32 error %.3g of the tolerance\n", cases_run, streams_run,
      worst_f32_ratio);
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
