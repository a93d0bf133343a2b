/* gst-cuda-video: simple reference of the Canny contract (see
 * canny_reference.h and cpu/canny.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "canny_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *
ref_alloc (size_t n)
{
  void *p = calloc (n ? n : 1, 1);

  if (p == NULL) {
    fprintf (stderr, "FAIL: reference: out of memory (%zu bytes)\n", n);
    exit (1);
  }
  return p;
}

/* ---- borders ------------------------------------------------------------ */

int
ref_reflect101 (int p, int n)
{
  /* ... 3 2 1 | 0 1 2 ... n-1 | n-2 n-3 ...   (edge sample not repeated);
   * reflected again for as long as needed (n smaller than the radius). */
  if (n == 1)
    return 0;
  while (p < 0 || p >= n) {
    if (p < 0)
      p = -p;
    else
      p = 2 * (n - 1) - p;
  }
  return p;
}

int
ref_replicate (int p, int n)
{
  if (p < 0)
    return 0;
  if (p >= n)
    return n - 1;
  return p;
}

/* ---- thresholds --------------------------------------------------------- */

static int32_t
floor_to_int32 (double t)
{
  double f = floor (t);

  if (f >= 2147483647.0)
    return INT32_MAX;
  if (f <= -2147483648.0)
    return INT32_MIN;
  return (int32_t) f;
}

void
ref_int_thresholds (double low, double high, int l2, int32_t * ilow, int32_t * ihigh)
{
  if (l2) {
    if (low > 32767.0)
      low = 32767.0;
    if (high > 32767.0)
      high = 32767.0;
    if (low > 0)
      low = low * low;
    if (high > 0)
      high = high * high;
  }
  *ilow = floor_to_int32 (low);
  *ihigh = floor_to_int32 (high);
}

void
ref_config_from_params (const GcvCannyParams * params, const int weights[GCV_CANNY_MAX_BLUR_SIZE],
    int radius, RefCannyConfig * cfg)
{
  memset (cfg, 0, sizeof (*cfg));
  cfg->blur_radius = params->blur_size > 0 ? radius : 0;
  for (int k = 0; k < 2 * cfg->blur_radius + 1 && k < GCV_CANNY_MAX_BLUR_SIZE; k++)
    cfg->weights[k] = weights[k];
  ref_int_thresholds (params->low_threshold, params->high_threshold, params->l2_gradient,
      &cfg->low, &cfg->high);
  cfg->l2 = params->l2_gradient ? 1 : 0;
  cfg->output = params->output;
}

/* ---- blur ----------------------------------------------------------------- */

void
ref_blur_direct (const uint8_t * L, int w, int h, const int *weights, int radius, int32_t * B)
{
  int n = 2 * radius + 1;
  int64_t kernel[GCV_CANNY_MAX_BLUR_SIZE][GCV_CANNY_MAX_BLUR_SIZE];

  if (radius == 0) {
    for (long i = 0; i < (long) w * h; i++)
      B[i] = L[i];
    return;
  }
  /* 2-D kernel: row weight (vertical tap) times column weight (horizontal tap) */
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      kernel[j][i] = (int64_t) weights[j] * weights[i];

  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      int64_t acc = 0;
      for (int j = -radius; j <= radius; j++) {
        int sy = ref_reflect101 (y + j, h);
        for (int i = -radius; i <= radius; i++) {
          int sx = ref_reflect101 (x + i, w);
          acc += kernel[j + radius][i + radius] * L[(long) sy * w + sx];
        }
      }
      B[(long) y * w + x] = (int32_t) ((acc + 32768) >> 16);
    }
  }
}

void
ref_blur_two_pass (const uint8_t * L, int w, int h, const int *weights, int radius, int32_t * B)
{
  int32_t *H;

  if (radius == 0) {
    for (long i = 0; i < (long) w * h; i++)
      B[i] = L[i];
    return;
  }
  H = ref_alloc (sizeof (int32_t) * w * h);
  /* H(y,x) = sum_k w[k] L(y, refl(x+k)) */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int32_t s = 0;
      for (int k = -radius; k <= radius; k++)
        s += weights[k + radius] * L[(long) y * w + ref_reflect101 (x + k, w)];
      H[(long) y * w + x] = s;
    }
  /* B(y,x) = (sum_k w[k] H(refl(y+k),x) + 32768) >> 16 */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int64_t s = 0;
      for (int k = -radius; k <= radius; k++)
        s += (int64_t) weights[k + radius] * H[(long) ref_reflect101 (y + k, h) * w + x];
      B[(long) y * w + x] = (int32_t) ((s + 32768) >> 16);
    }
  free (H);
}

/* ---- gradient --------------------------------------------------------------- */

void
ref_sobel (const int32_t * B, int w, int h, int32_t * dx, int32_t * dy)
{
  /* dx kernel            dy kernel
   *  -1  0  1            -1 -2 -1
   *  -2  0  2             0  0  0
   *  -1  0  1             1  2  1     (row index grows downwards) */
  static const int kx[3][3] = { {-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1} };
  static const int ky[3][3] = { {-1, -2, -1}, {0, 0, 0}, {1, 2, 1} };

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int32_t sx = 0, sy = 0;
      for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++) {
          int32_t v = B[(long) ref_replicate (y + j, h) * w + ref_replicate (x + i, w)];
          sx += kx[j + 1][i + 1] * v;
          sy += ky[j + 1][i + 1] * v;
        }
      dx[(long) y * w + x] = sx;
      dy[(long) y * w + x] = sy;
    }
}

static int32_t
grad_m (int32_t gx, int32_t gy, int l2)
{
  return l2 ? gx * gx + gy * gy : abs (gx) + abs (gy);
}

/* ---- non-maximum suppression ------------------------------------------------ */

typedef struct {
  const int32_t *m;
  int w, h;
} MagImage;

/* the magnitude, 0 outside the image */
static int32_t
mag_at (const MagImage * mi, int y, int x)
{
  if (y < 0 || y >= mi->h || x < 0 || x >= mi->w)
    return 0;
  return mi->m[(long) y * mi->w + x];
}

void
ref_nms_classes (const int32_t * dx, const int32_t * dy, int w, int h, int l2, int32_t low,
    int32_t high, uint8_t * classes)
{
  int32_t *m = ref_alloc (sizeof (int32_t) * w * h);
  MagImage mi = { m, w, h };
  const int32_t TG22 = 13573;   /* tan(22.5 deg) * 2^15 */

  for (long i = 0; i < (long) w * h; i++)
    m[i] = grad_m (dx[i], dy[i], l2);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      long i = (long) y * w + x;
      int32_t c = m[i];
      int32_t gx = dx[i], gy = dy[i];
      int32_t ax = abs (gx);
      int32_t ay = abs (gy) << 15;
      int32_t tg22x = ax * TG22;
      int kept;

      classes[i] = REF_NONE;
      if (!(c > low))
        continue;
      if (ay < tg22x) {
        /* gradient within 22.5 deg of horizontal: compare left / right */
        kept = c > mag_at (&mi, y, x - 1) && c >= mag_at (&mi, y, x + 1);
      } else if (ay > tg22x + (ax << 16)) {
        /* within 22.5 deg of vertical: compare up / down */
        kept = c > mag_at (&mi, y - 1, x) && c >= mag_at (&mi, y + 1, x);
      } else {
        /* diagonal: same signs -> up-left / down-right, else up-right / down-left */
        int s = ((gx ^ gy) < 0) ? -1 : 1;
        kept = c > mag_at (&mi, y - 1, x - s) && c > mag_at (&mi, y + 1, x + s);
      }
      if (kept)
        classes[i] = c > high ? REF_STRONG : REF_WEAK;
    }
  free (m);
}

/* ---- hysteresis --------------------------------------------------------------- */

long
ref_hysteresis (const uint8_t * classes, int w, int h, uint8_t * out)
{
  long n = (long) w * h;
  long *queue = ref_alloc (sizeof (long) * (size_t) (n > 0 ? n : 1));
  long head = 0, tail = 0, count = 0;

  for (long i = 0; i < n; i++) {
    out[i] = 0;
  }
  for (long i = 0; i < n; i++)
    if (classes[i] == REF_STRONG) {
      out[i] = 255;
      queue[tail++] = i;
    }
  /* every pixel enters the queue at most once (when it is marked) */
  while (head < tail) {
    long i = queue[head++];
    int y = (int) (i / w), x = (int) (i % w);
    count++;
    for (int j = -1; j <= 1; j++)
      for (int k = -1; k <= 1; k++) {
        int ny = y + j, nx = x + k;
        long ni;
        if ((j == 0 && k == 0) || ny < 0 || ny >= h || nx < 0 || nx >= w)
          continue;
        ni = (long) ny * w + nx;
        if (classes[ni] != REF_NONE && out[ni] == 0) {
          out[ni] = 255;
          queue[tail++] = ni;
        }
      }
  }
  free (queue);
  return count;
}

/* ---- magnitude output ------------------------------------------------------------ */

int32_t
ref_isqrt (int64_t v)
{
  /* bit-by-bit square root: largest r with r * r <= v */
  int64_t r = 0, bit = (int64_t) 1 << 62;

  if (v <= 0)
    return 0;
  while (bit > v)
    bit >>= 2;
  while (bit != 0) {
    if (v >= r + bit) {
      v -= r + bit;
      r = (r >> 1) + bit;
    } else {
      r >>= 1;
    }
    bit >>= 2;
  }
  return (int32_t) r;
}

void
ref_magnitude_output (const int32_t * dx, const int32_t * dy, int w, int h, int l2, uint8_t * out)
{
  for (long i = 0; i < (long) w * h; i++) {
    int32_t g = l2 ? ref_isqrt ((int64_t) dx[i] * dx[i] + (int64_t) dy[i] * dy[i])
        : abs (dx[i]) + abs (dy[i]);
    int32_t v = g / 4;
    out[i] = (uint8_t) (v > 255 ? 255 : v);
  }
}

/* ---- pipeline ----------------------------------------------------------------------- */

void
ref_canny (const uint8_t * luma, int w, int h, const RefCannyConfig * cfg, uint8_t * out)
{
  size_t n = (size_t) w * h;
  int32_t *B = ref_alloc (sizeof (int32_t) * n);
  int32_t *dx = ref_alloc (sizeof (int32_t) * n);
  int32_t *dy = ref_alloc (sizeof (int32_t) * n);

  ref_blur_direct (luma, w, h, cfg->weights, cfg->blur_radius, B);
  ref_sobel (B, w, h, dx, dy);
  if (cfg->output == GCV_CANNY_OUTPUT_MAGNITUDE) {
    ref_magnitude_output (dx, dy, w, h, cfg->l2, out);
  } else {
    uint8_t *classes = ref_alloc (n);
    ref_nms_classes (dx, dy, w, h, cfg->l2, cfg->low, cfg->high, classes);
    ref_hysteresis (classes, w, h, out);
    free (classes);
  }
  free (B);
  free (dx);
  free (dy);
}

/* ---- shared parameter sets ----------------------------------------------------------- */

const RefBlurCase ref_blur_cases[] = {
  {0, 0.0},
  {3, 0.0}, {3, 1.4}, {3, 2.5},
  {5, 0.0}, {5, 1.4}, {5, 2.5},
  {7, 0.0}, {7, 1.4}, {7, 2.5},
};
const int ref_n_blur_cases = sizeof (ref_blur_cases) / sizeof (ref_blur_cases[0]);

const RefDetectCase ref_detect_cases[] = {
  {50, 150, 0, GCV_CANNY_OUTPUT_EDGES},
  {20.9, 60.6, 0, GCV_CANNY_OUTPUT_EDGES},
  {0, 0, 0, GCV_CANNY_OUTPUT_EDGES},
  {10, 10, 0, GCV_CANNY_OUTPUT_EDGES},
  {100, 200, 1, GCV_CANNY_OUTPUT_EDGES},
  {30.5, 90.7, 1, GCV_CANNY_OUTPUT_EDGES},
  {0, 0, 1, GCV_CANNY_OUTPUT_EDGES},
  {50, 150, 0, GCV_CANNY_OUTPUT_MAGNITUDE},
  {50, 150, 1, GCV_CANNY_OUTPUT_MAGNITUDE},
};
const int ref_n_detect_cases = sizeof (ref_detect_cases) / sizeof (ref_detect_cases[0]);

void
ref_make_params (const RefBlurCase * b, const RefDetectCase * d, GcvCannyParams * p)
{
  memset (p, 0, sizeof (*p));
  p->blur_size = b->size;
  p->blur_sigma = b->sigma;
  p->low_threshold = d->low;
  p->high_threshold = d->high;
  p->l2_gradient = d->l2;
  p->output = d->output;
}

const char *
ref_params_describe (const GcvCannyParams * p, char *buf, size_t len)
{
  snprintf (buf, len, "blur=%d sigma=%g low=%g high=%g %s %s", p->blur_size, p->blur_sigma,
      p->low_threshold, p->high_threshold, p->l2_gradient ? "L2" : "L1",
      p->output == GCV_CANNY_OUTPUT_EDGES ? "edges" : "magnitude");
  return buf;
}
