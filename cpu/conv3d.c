/* gst-cuda-video: what both conv3d backends share: argument checks, the
 * border map, the ring bookkeeping (GcvConv3dTimeline), the synthetic
 * kernels and the kernel-file parser, and the algorithm choice.
 * The contract is in conv3d.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "conv3d.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

static const char *const algorithm_names[GCV_CONV3D_N_ALGORITHMS] = {
  "auto", "baseline", "shared", "streaming", "fft3d", "fft-hybrid"
};

static const char *const border_names[3] = { "zero", "replicate", "mirror" };

const char *
gcv_conv3d_algorithm_name (GcvConv3dAlgorithm algorithm)
{
  return (unsigned) algorithm < GCV_CONV3D_N_ALGORITHMS ? algorithm_names[algorithm] : "invalid";
}

const char *
gcv_conv3d_border_name (GcvConv3dBorder border)
{
  return (unsigned) border < 3 ? border_names[border] : "invalid";
}

static int
size_ok (int k)
{
  return k >= 1 && k <= GCV_CONV3D_MAX_SIZE && (k & 1) == 1;
}

const char *
gcv_conv3d_params_check (const GcvConv3dParams * p)
{
  static __thread char msg[160];
  int i, n;

  if (!p)
    return "no parameters";
  if (!size_ok (p->kx) || !size_ok (p->ky) || !size_ok (p->kt)) {
    snprintf (msg, sizeof (msg), "kernel size %dx%dx%d: every size must be odd, 1 .. %d",
        p->kx, p->ky, p->kt, GCV_CONV3D_MAX_SIZE);
    return msg;
  }
  if ((unsigned) p->border > GCV_CONV3D_BORDER_MIRROR)
    return "border must be zero, replicate or mirror";
  if ((unsigned) p->algorithm >= GCV_CONV3D_N_ALGORITHMS)
    return "unknown algorithm";
  if (!p->coefficients)
    return "no kernel coefficients";
  n = p->kx * p->ky * p->kt;
  for (i = 0; i < n; i++)
    if (!isfinite (p->coefficients[i])) {
      snprintf (msg, sizeof (msg), "kernel coefficient %d is not a finite number", i);
      return msg;
    }
  if (!isfinite (p->scale) || !isfinite (p->offset))
    return "scale and offset must be finite numbers";
  return NULL;
}

const char *
gcv_conv3d_geometry_check (const GcvConv3dGeometry * g)
{
  static __thread char msg[160];

  if (!g)
    return "no geometry";
  if ((unsigned) g->type > GCV_SAMPLE_F32)
    return "unknown sample type";
  if (g->channels < 1 || g->channels > GCV_CONV3D_MAX_CHANNELS) {
    snprintf (msg, sizeof (msg), "%d channels: must be 1 .. %d", g->channels, GCV_CONV3D_MAX_CHANNELS);
    return msg;
  }
  if (g->filter_mask >> g->channels) {
    snprintf (msg, sizeof (msg), "filter mask 0x%x names channels beyond the %d there are",
        g->filter_mask, g->channels);
    return msg;
  }
  if (g->width < 1 || g->height < 1 || g->width > GCV_CONV3D_MAX_DIMENSION || g->height > GCV_CONV3D_MAX_DIMENSION) {
    snprintf (msg, sizeof (msg), "frame size %dx%d: must be 1 .. %d each way", g->width, g->height,
        GCV_CONV3D_MAX_DIMENSION);
    return msg;
  }
  if (g->max_outputs < 1 || g->max_outputs > GCV_CONV3D_MAX_OUTPUTS) {
    snprintf (msg, sizeof (msg), "max_outputs %d: must be 1 .. %d", g->max_outputs, GCV_CONV3D_MAX_OUTPUTS);
    return msg;
  }
  return NULL;
}

int
gcv_conv3d_border_index (GcvConv3dBorder border, long long i, long long n)
{
  if (i >= 0 && i < n)
    return (int) i;
  switch (border) {
    case GCV_CONV3D_BORDER_REPLICATE:
      return i < 0 ? 0 : (int) (n - 1);
    case GCV_CONV3D_BORDER_MIRROR:{
      long long period = 2 * n, m = i % period;
      if (m < 0)
        m += period;
      return (int) (m < n ? m : period - 1 - m);
    }
    case GCV_CONV3D_BORDER_ZERO:
    default:
      return -1;
  }
}

int
gcv_conv3d_fft_size (int n, int even)
{
  for (;; n++) {
    int m = n;
    if (even && (n & 1))
      continue;
    while (m % 2 == 0)
      m /= 2;
    while (m % 3 == 0)
      m /= 3;
    while (m % 5 == 0)
      m /= 5;
    while (m % 7 == 0)
      m /= 7;
    if (m == 1)
      return n;
  }
}

double
gcv_conv3d_default_sigma (int size)
{
  return 0.3 * ((size - 1) * 0.5 - 1.0) + 0.8;
}

/* ---- kernels ------------------------------------------------------------ */

int
gcv_conv3d_kernel_normalize (float *k, int n)
{
  double sum = 0.0, abs_sum = 0.0, pos = 0.0, div;
  int i;

  for (i = 0; i < n; i++) {
    sum += k[i];
    abs_sum += fabs (k[i]);
    if (k[i] > 0)
      pos += k[i];
  }
  if (abs_sum == 0.0)
    return 0;
  div = fabs (sum) > 1e-6 * abs_sum ? sum : pos;
  if (div == 0.0)
    return 0;
  for (i = 0; i < n; i++)
    k[i] = (float) (k[i] / div);
  return 1;
}

const char *
gcv_conv3d_kernel_build (const GcvConv3dKernelSpec * s, float *out)
{
  static __thread char msg[240];
  int rx, ry, rt, i, j, l, n;
  double sig, sig_t, *env, c_num = 0.0, c_den = 0.0, theta, c;

  if (!size_ok (s->kx) || !size_ok (s->ky) || !size_ok (s->kt)) {
    snprintf (msg, sizeof (msg), "kernel size %dx%dx%d: every size must be odd, 1 .. %d",
        s->kx, s->ky, s->kt, GCV_CONV3D_MAX_SIZE);
    return msg;
  }
  if (s->type == GCV_CONV3D_KERNEL_CUSTOM)
    return "a custom kernel has no formula: give its coefficients";
  if ((unsigned) s->type > GCV_CONV3D_KERNEL_CUSTOM)
    return "unknown kernel type";
  if (!isfinite (s->sigma) || !isfinite (s->temporal_sigma) || !isfinite (s->orientation)
      || !isfinite (s->speed) || !isfinite (s->wavelength))
    return "kernel parameters must be finite numbers";
  if (s->type == GCV_CONV3D_KERNEL_GABOR && !(s->wavelength > 0.0))
    return "the Gabor wavelength must be > 0 pixels";

  rx = s->kx / 2;
  ry = s->ky / 2;
  rt = s->kt / 2;
  n = s->kx * s->ky * s->kt;
  sig = s->sigma > 0 ? s->sigma : gcv_conv3d_default_sigma (s->kx > s->ky ? s->kx : s->ky);
  sig_t = s->temporal_sigma > 0 ? s->temporal_sigma : gcv_conv3d_default_sigma (s->kt);
  theta = s->orientation * M_PI / 180.0;

  if (s->type == GCV_CONV3D_KERNEL_BOX) {
    for (i = 0; i < n; i++)
      out[i] = 1.0f;
  } else {
    env = malloc (sizeof (double) * n);
    if (!env)
      return "out of memory";
    for (l = 0; l < s->kt; l++)
      for (j = 0; j < s->ky; j++)
        for (i = 0; i < s->kx; i++) {
          double x = i - rx, y = j - ry, t = l - rt;
          double e = exp (-(x * x + y * y) / (2 * sig * sig) - t * t / (2 * sig_t * sig_t));
          int idx = i + s->kx * (j + s->ky * l);
          env[idx] = e;
          if (s->type == GCV_CONV3D_KERNEL_GABOR) {
            double xr = x * cos (theta) + y * sin (theta);
            c_num += e * cos (2 * M_PI * (xr - s->speed * t) / s->wavelength);
            c_den += e;
          }
        }
    c = c_den > 0 ? c_num / c_den : 0.0;
    for (l = 0; l < s->kt; l++)
      for (j = 0; j < s->ky; j++)
        for (i = 0; i < s->kx; i++) {
          int idx = i + s->kx * (j + s->ky * l);
          if (s->type == GCV_CONV3D_KERNEL_GABOR) {
            double x = i - rx, y = j - ry, t = l - rt;
            double xr = x * cos (theta) + y * sin (theta);
            out[idx] = (float) (env[idx] * (cos (2 * M_PI * (xr - s->speed * t) / s->wavelength) - c));
          } else {
            out[idx] = (float) env[idx];
          }
        }
    free (env);
  }
  if (s->normalize && !gcv_conv3d_kernel_normalize (out, n)) {
    /* a zero-mean Gabor cancels out where its carrier is the same at
     * every pixel of the window: sampled once a period or more often
     * than it can show (wavelength 1, 1/2, ... along the orientation:
     * too short), or barely turning across the window (far too long) */
    if (s->type == GCV_CONV3D_KERNEL_GABOR && s->wavelength <= 2.0)
      snprintf (msg, sizeof (msg), "the kernel is zero everywhere: the Gabor wavelength %g is too "
          "short (the carrier is the same at every pixel; use more than 2 pixels)", s->wavelength);
    else if (s->type == GCV_CONV3D_KERNEL_GABOR)
      snprintf (msg, sizeof (msg), "the kernel is zero everywhere: the Gabor wavelength %g is too "
          "long for the %dx%dx%d window (the carrier does not turn across it)", s->wavelength, s->kx,
          s->ky, s->kt);
    else
      snprintf (msg, sizeof (msg), "the kernel is zero everywhere");
    strncat (msg, ": cannot normalise it (normalize=false keeps it as is)", sizeof (msg) - strlen (msg) - 1);
    return msg;
  }
  return NULL;
}

const char *
gcv_conv3d_kernel_parse (const char *text, float **out, int *n_out)
{
  static __thread char msg[200];
  const char *p = text;
  int line = 1, n = 0, cap = 0;
  float *v = NULL;

  *out = NULL;
  *n_out = 0;
  while (*p) {
    if (*p == '\n') {
      line++;
      p++;
    } else if (g_ascii_isspace (*p) || *p == ',') {
      p++;
    } else if (*p == '#') {
      while (*p && *p != '\n')
        p++;
    } else {
      char *end;
      double d;
      errno = 0;
      d = g_ascii_strtod (p, &end);
      if (end == p || (*end && !g_ascii_isspace (*end) && *end != ',' && *end != '#')
          || !isfinite (d) || fabs (d) > 3.4e38) {
        int len = 0;
        while (p[len] && !g_ascii_isspace (p[len]) && p[len] != ',' && len < 24)
          len++;
        snprintf (msg, sizeof (msg), "line %d: \"%.*s\" is not a finite number", line, len, p);
        free (v);
        return msg;
      }
      if (n == cap) {
        float *nv;
        cap = cap ? cap * 2 : 256;
        if (cap > GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE * GCV_CONV3D_MAX_SIZE * 2) {
          free (v);
          return "more numbers than the largest kernel (31 x 31 x 31) has";
        }
        nv = realloc (v, sizeof (float) * cap);
        if (!nv) {
          free (v);
          return "out of memory";
        }
        v = nv;
      }
      v[n++] = (float) d;
      p = end;
    }
  }
  if (n == 0) {
    free (v);
    return "no numbers in the kernel file";
  }
  *out = v;
  *n_out = n;
  return NULL;
}

/* ---- ring bookkeeping --------------------------------------------------- */

void
gcv_conv3d_timeline_init (GcvConv3dTimeline * tl, int kt, int max_outputs, GcvConv3dBorder border)
{
  tl->kt = kt;
  tl->capacity = kt + max_outputs - 1;
  tl->border = border;
  gcv_conv3d_timeline_reset (tl);
}

void
gcv_conv3d_timeline_reset (GcvConv3dTimeline * tl)
{
  tl->pushed = 0;
  tl->next_out = 0;
  tl->ended = 0;
}

int
gcv_conv3d_timeline_ready (const GcvConv3dTimeline * tl)
{
  long long last;

  /* output t needs frame t + rt (or the end of the stream) */
  last = tl->ended ? tl->pushed - 1 : tl->pushed - 1 - tl->kt / 2;
  return last >= tl->next_out ? (int) (last - tl->next_out + 1) : 0;
}

int
gcv_conv3d_timeline_can_push (const GcvConv3dTimeline * tl)
{
  /* the oldest frame a pending output reads is next_out - rt (frames
   * before 0 are border-resolved to frames >= 0); the push overwrites frame
   * pushed - capacity */
  long long oldest = tl->next_out - tl->kt / 2;

  return !tl->ended && tl->pushed - tl->capacity < (oldest > 0 ? oldest : 0);
}

int
gcv_conv3d_timeline_slot (const GcvConv3dTimeline * tl, long long f)
{
  return (int) (f % tl->capacity);
}

void
gcv_conv3d_timeline_sources (const GcvConv3dTimeline * tl, long long t, int *slots)
{
  int rt = tl->kt / 2, l;

  for (l = 0; l < tl->kt; l++) {
    long long s = t + rt - l;
    int f;
    if (s < tl->pushed && s >= 0) {
      f = (int) (s % tl->capacity);
      slots[l] = f;
      continue;
    }
    /* before the start: resolved at once; after the last frame: the stream
     * has ended (ready() guarantees it), so pushed is its length */
    f = gcv_conv3d_border_index (tl->border, s, s < 0 ? (tl->ended ? tl->pushed : 1LL << 40) : tl->pushed);
    slots[l] = f < 0 ? -1 : (int) (f % tl->capacity);
  }
}

/* ---- checks ------------------------------------------------------------- */

GcvStatus
gcv_conv3d_new_check (const GcvConv3dGeometry * geom, const GcvConv3dParams * params, GcvError * err)
{
  const char *why;

  if ((why = gcv_conv3d_geometry_check (geom)) || (why = gcv_conv3d_params_check (params))) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (params->algorithm == GCV_CONV3D_AUTO) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: resolve algorithm auto with gcv_conv3d_choose() "
        "before making a context");
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

static GcvStatus
plane_check (const GcvConv3dGeometry * geom, const GcvPlane * p, const char *what, GcvError * err)
{
  size_t bytes = (size_t) gcv_sample_bytes (geom->type);

  if (!p || !p->data) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: no %s plane", what);
    return GCV_ERROR_INVALID;
  }
  if (p->width != geom->width || p->height != geom->height) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %s plane is %dx%d, the context was made for %dx%d",
        what, p->width, p->height, geom->width, geom->height);
    return GCV_ERROR_INVALID;
  }
  if (p->stride < (size_t) geom->width * geom->channels * bytes || p->stride % bytes
      || (uintptr_t) p->data % bytes) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %s plane stride %zu too small or data/stride not "
        "aligned to the %zu-byte sample", what, p->stride, bytes);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

GcvStatus
gcv_conv3d_push_check (const GcvConv3dGeometry * geom, const GcvConv3dTimeline * tl, const GcvPlane * in,
    GcvError * err)
{
  if (tl->ended) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: push after the end of the stream (reset first)");
    return GCV_ERROR_INVALID;
  }
  if (!gcv_conv3d_timeline_can_push (tl)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: the ring of %d frames is full: process the %d ready "
        "output(s) before pushing frame %lld", tl->capacity, gcv_conv3d_timeline_ready (tl), tl->pushed);
    return GCV_ERROR_INVALID;
  }
  return plane_check (geom, in, "input", err);
}

GcvStatus
gcv_conv3d_process_check (const GcvConv3dGeometry * geom, const GcvConv3dParams * ctx_params,
    const GcvConv3dTimeline * tl, const GcvConv3dParams * params, int n, const GcvPlane * out,
    GcvError * err)
{
  const char *why = gcv_conv3d_params_check (params);
  int ready = gcv_conv3d_timeline_ready (tl), i;

  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %s", why);
    return GCV_ERROR_INVALID;
  }
  if (params->kx != ctx_params->kx || params->ky != ctx_params->ky || params->kt != ctx_params->kt
      || params->border != ctx_params->border || params->algorithm != ctx_params->algorithm) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: kernel size, border and algorithm are fixed when the "
        "context is made (%dx%dx%d %s %s), got %dx%dx%d %s %s", ctx_params->kx, ctx_params->ky,
        ctx_params->kt, gcv_conv3d_border_name (ctx_params->border),
        gcv_conv3d_algorithm_name (ctx_params->algorithm), params->kx, params->ky, params->kt,
        gcv_conv3d_border_name (params->border), gcv_conv3d_algorithm_name (params->algorithm));
    return GCV_ERROR_INVALID;
  }
  if (n < 1 || n > ready || n > geom->max_outputs) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: %d outputs asked, %d ready, at most %d per call",
        n, ready, geom->max_outputs);
    return GCV_ERROR_INVALID;
  }
  if (!out) {
    gcv_error_set (err, GCV_ERROR_INVALID, "conv3d: no output planes");
    return GCV_ERROR_INVALID;
  }
  for (i = 0; i < n; i++)
    if (plane_check (geom, &out[i], "output", err) != GCV_OK)
      return GCV_ERROR_INVALID;
  return GCV_OK;
}

/* ---- algorithm choice --------------------------------------------------- */

/* Cost model, microseconds per output frame of one plane, steady state
 * (the frame's push included):
 *   direct (baseline, shared, streaming): fixed + per_mac * W * H * kx * ky * kt
 *   fft3d:  fixed + per_fft * N3 log2 (N3) / max_outputs, N3 = Nx * Ny * T,
 *           T = kt + max_outputs - 1 (one 3-D transform pair per call)
 *   hybrid: fixed + per_fft * 2 N2 log2 (N2) (a forward transform at push,
 *           an inverse per output) + per_cmac * (N2 / 2) * kt
 * with Nx, Ny the padded FFT sizes (gcv_conv3d_fft_size).  The constants
 * are fitted to bench-conv3d at 720x560 (k = 5 .. 15, 4 outputs per call):
 * GPU on an H100 (2026-11-22), CPU with AVX-512 on 2 cores.  Only their
 * ratios matter: the model picks, it does not predict. */
typedef struct {
  double fixed;                 /* per call, us */
  double per_mac;               /* direct: us per multiply-add */
  double per_fft;               /* us per N log2 N of a transform */
  double per_cmac;              /* hybrid: us per complex multiply-add */
} CostModel;

GcvConv3dAlgorithm
gcv_conv3d_choose (int cuda, const GcvConv3dGeometry * geom, const GcvConv3dParams * params,
    int fft_available, char *why, size_t why_len)
{
  /* [backend][algorithm]: filled from bench-conv3d (docs/performance.md) */
  static const CostModel model[2][GCV_CONV3D_N_ALGORITHMS] = {
    /* CPU: baseline 474 ms, shared 23 ms, hybrid 10.5 ms per 4 outputs at k = 9 */
    {{0}, {200, 4.0e-4, 0, 0}, {200, 1.8e-5, 0, 0}, {200, 1.8e-5, 0, 0},
        {200, 0, 2.4e-4, 0}, {100, 0, 1.3e-4, 3.3e-4}},
    /* CUDA: streaming 27 us, hybrid 31 us, fft3d 37 us per output at k = 9 */
    {{0}, {8, 6.0e-7, 0, 0}, {8, 2.7e-7, 0, 0}, {8, 6.0e-8, 0, 0},
        {20, 0, 1.27e-6, 0}, {10, 0, 1.0e-6, 2.7e-6}},
  };
  const CostModel *m = model[cuda ? 1 : 0];
  double px = (double) geom->width * geom->height;
  double macs = px * params->kx * params->ky * params->kt;
  int nx = gcv_conv3d_fft_size (geom->width + params->kx - 1, 1);
  int ny = gcv_conv3d_fft_size (geom->height + params->ky - 1, 0);
  double n2 = (double) nx * ny;
  double n3 = n2 * gcv_conv3d_fft_size (params->kt + geom->max_outputs - 1, 0);
  double cost[GCV_CONV3D_N_ALGORITHMS];
  GcvConv3dAlgorithm best = GCV_CONV3D_STREAMING, a;

  for (a = GCV_CONV3D_BASELINE; a < GCV_CONV3D_N_ALGORITHMS; a++) {
    const CostModel *c = &m[a];
    switch (a) {
      case GCV_CONV3D_FFT3D:
        cost[a] = c->fixed + c->per_fft * n3 * log2 (n3) / geom->max_outputs;
        break;
      case GCV_CONV3D_FFT_HYBRID:
        cost[a] = c->fixed + c->per_fft * 2 * n2 * log2 (n2) + c->per_cmac * (n2 / 2) * params->kt;
        break;
      default:
        cost[a] = c->fixed + c->per_mac * macs;
        break;
    }
  }
  for (a = GCV_CONV3D_BASELINE; a < GCV_CONV3D_N_ALGORITHMS; a++) {
    if (!fft_available && (a == GCV_CONV3D_FFT3D || a == GCV_CONV3D_FFT_HYBRID))
      continue;
    if (cost[a] < cost[best])
      best = a;
  }
  if (why && why_len)
    snprintf (why, why_len, "%s for %dx%d, kernel %dx%dx%d on the %s (model: streaming %.0f, fft3d %.0f, "
        "fft-hybrid %.0f us per frame%s)", gcv_conv3d_algorithm_name (best), geom->width, geom->height,
        params->kx, params->ky, params->kt, cuda ? "GPU" : "CPU", cost[GCV_CONV3D_STREAMING],
        cost[GCV_CONV3D_FFT3D], cost[GCV_CONV3D_FFT_HYBRID], fft_available ? "" : "; no FFT library");
  return best;
}
