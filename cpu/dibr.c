/* gst-cuda-video: depth-image-based rendering, what both backends share on
 * the host: defaults, parameter checks, the DCBF tables, the decode
 * constants and the cameras' warp matrices (cpu/dibr.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dibr.h"

#include <stdio.h>

void
gcv_dibr_params_init (GcvDibrParams * p)
{
  p->median_size = 3;
  p->dcbf_size = 11;
  p->sigma_spatial = 3.0;
  p->sigma_color = 12.0;
  p->z_near = 1.0;
  p->z_far = 10.0;
  p->zero_is_unknown = 0;
  p->focal_length = 1000.0;
  p->baseline = 0.06;
  p->convergence = 3.0;
}

const char *
gcv_dibr_params_check (const GcvDibrParams * p)
{
  static __thread char msg[200];

  if (!p)
    return "no parameters";
  if (p->median_size < 1 || p->median_size > GCV_DIBR_MAX_MEDIAN || p->median_size % 2 == 0) {
    snprintf (msg, sizeof (msg), "median-size %d: must be odd, 1 (off) .. %d", p->median_size,
        GCV_DIBR_MAX_MEDIAN);
    return msg;
  }
  if (p->dcbf_size < 1 || p->dcbf_size > GCV_DIBR_MAX_DCBF || p->dcbf_size % 2 == 0) {
    snprintf (msg, sizeof (msg), "dcbf-size %d: must be odd, 1 (off) .. %d", p->dcbf_size, GCV_DIBR_MAX_DCBF);
    return msg;
  }
  if (!(p->sigma_spatial >= 0.1 && p->sigma_spatial <= 100.0)) {
    snprintf (msg, sizeof (msg), "sigma-spatial %g: must be 0.1 .. 100 pixels", p->sigma_spatial);
    return msg;
  }
  if (!(p->sigma_color >= 0.1 && p->sigma_color <= 1000.0)) {
    snprintf (msg, sizeof (msg), "sigma-color %g: must be 0.1 .. 1000 (sum of the R, G, B differences)",
        p->sigma_color);
    return msg;
  }
  if (!(p->z_near > 0.0 && p->z_near <= 1e9)) {
    snprintf (msg, sizeof (msg), "z-near %g: must be > 0 and <= 1e9", p->z_near);
    return msg;
  }
  if (!(p->z_far > p->z_near && p->z_far <= 1e9)) {
    snprintf (msg, sizeof (msg), "z-far %g: must be larger than z-near %g and <= 1e9", p->z_far, p->z_near);
    return msg;
  }
  if (!(p->focal_length >= GCV_DIBR_MIN_FOCAL && p->focal_length <= GCV_DIBR_MAX_FOCAL)) {
    snprintf (msg, sizeof (msg), "focal-length %g: must be %g .. %g pixels", p->focal_length, GCV_DIBR_MIN_FOCAL,
        GCV_DIBR_MAX_FOCAL);
    return msg;
  }
  if (!(p->baseline >= -1e6 && p->baseline <= 1e6)) {
    snprintf (msg, sizeof (msg), "baseline %g: must be -1e6 .. 1e6 (z units)", p->baseline);
    return msg;
  }
  if (!(p->convergence == 0.0 || (p->convergence >= p->z_near * 1e-3 && p->convergence <= 1e9))) {
    snprintf (msg, sizeof (msg), "convergence %g: must be 0 (parallel cameras) or z-near / 1000 .. 1e9",
        p->convergence);
    return msg;
  }
  return NULL;
}

const char *
gcv_dibr_packed_check (const GcvDibrPacked * p)
{
  static __thread char msg[200];
  const GcvPlane *p0;
  int w, h;

  if (!p)
    return "no frame";
  w = p->width;
  h = p->height;
  p0 = &p->planes[0];
  if (p->format != GCV_DIBR_PACKED_4BYTE && p->format != GCV_DIBR_PACKED_I420
      && p->format != GCV_DIBR_PACKED_RGBA64) {
    snprintf (msg, sizeof (msg), "packed frame: unknown format %d", (int) p->format);
    return msg;
  }
  if (w < 1 || h < 1 || w > GCV_DIBR_MAX_DIMENSION || h > GCV_DIBR_MAX_DIMENSION || p->depth_x < 0
      || p->depth_y < 0 || p->depth_x > GCV_DIBR_MAX_DIMENSION || p->depth_y > GCV_DIBR_MAX_DIMENSION) {
    snprintf (msg, sizeof (msg), "packed frame: view %dx%d with depth at %d, %d", w, h, p->depth_x, p->depth_y);
    return msg;
  }
  if (!p0->data || p0->width < w || p0->height < h || p0->width < p->depth_x + w
      || p0->height < p->depth_y + h
      || p0->stride < (size_t) p0->width * (p->format == GCV_DIBR_PACKED_4BYTE ? 4
          : p->format == GCV_DIBR_PACKED_RGBA64 ? 8 : 1)) {
    snprintf (msg, sizeof (msg), "packed frame: plane 0 of %dx%d (stride %zu) does not hold a %dx%d colour "
        "part and a depth part at %d, %d", p0->width, p0->height, p0->stride, w, h, p->depth_x, p->depth_y);
    return msg;
  }
  if (p->format != GCV_DIBR_PACKED_I420) {
    if (p->r < 0 || p->r > 3 || p->g < 0 || p->g > 3 || p->b < 0 || p->b > 3 || p->d < 0 || p->d > 3) {
      snprintf (msg, sizeof (msg), "packed frame: offsets r %d g %d b %d depth %d must be 0 .. 3", p->r,
          p->g, p->b, p->d);
      return msg;
    }
  } else {
    for (int i = 1; i < 3; i++) {
      const GcvPlane *c = &p->planes[i];
      if (!c->data || c->width < (w + 1) / 2 || c->height < (h + 1) / 2 || c->stride < (size_t) c->width) {
        snprintf (msg, sizeof (msg), "packed frame: chroma plane %d of %dx%d (stride %zu) does not cover a %dx%d "
            "view", i, c->width, c->height, c->stride, w, h);
        return msg;
      }
    }
  }
  return NULL;
}

void
gcv_dibr_tables_make (const GcvDibrParams * p, GcvDibrTables * t)
{
  int k = p->dcbf_size, r = k / 2, dx, dy, d;
  double two_s2 = 2.0 * p->sigma_spatial * p->sigma_spatial;
  double two_c2 = 2.0 * p->sigma_color * p->sigma_color;

  t->dcbf_size = k;
  for (dy = -r; dy <= r; dy++)
    for (dx = -r; dx <= r; dx++)
      t->spatial[(dy + r) * k + (dx + r)] = (float) exp (-(double) (dx * dx + dy * dy) / two_s2);
  for (d = 0; d <= GCV_DIBR_MAX_COLOR_DIST; d++)
    t->color[d] = (float) exp (-(double) d * (double) d / two_c2);
}

void
gcv_dibr_decode_make (const GcvDibrParams * p, int bits, GcvDibrDecode * dec)
{
  dec->vmax = bits == 16 ? 65535 : 255;
  dec->a = (1.0 / p->z_near - 1.0 / p->z_far) / (double) dec->vmax;
  dec->b = 1.0 / p->z_far;
}

static void
camera_identity (GcvDibrCamera * c)
{
  memset (c, 0, sizeof (*c));
  c->K[0] = c->K[4] = c->K[8] = 1.0;
  c->E[0] = c->E[5] = c->E[10] = c->E[15] = 1.0;
}

void
gcv_dibr_camera_simple (int width, int height, double f, double baseline, double convergence,
    GcvDibrCamera * src, GcvDibrCamera * virt)
{
  GcvDibrCamera s;
  double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;

  camera_identity (&s);
  s.K[0] = s.K[4] = f;
  s.K[2] = cx;
  s.K[5] = cy;
  if (src)
    *src = s;
  if (virt) {
    *virt = s;
    if (convergence > 0.0 && isfinite (convergence))
      virt->K[2] = cx + f * baseline / convergence;
    virt->E[3] = -baseline;
  }
}

/* Inverse of a 3x3 matrix (row-major) by the adjugate; 0 when singular. */
static int
inv3 (const double *m, double *o)
{
  double c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6];
  double det = m[0] * c00 + m[1] * c01 + m[2] * c02;

  if (!(fabs (det) > 0.0) || !isfinite (det))
    return 0;
  o[0] = c00 / det;
  o[1] = (m[2] * m[7] - m[1] * m[8]) / det;
  o[2] = (m[1] * m[5] - m[2] * m[4]) / det;
  o[3] = c01 / det;
  o[4] = (m[0] * m[8] - m[2] * m[6]) / det;
  o[5] = (m[2] * m[3] - m[0] * m[5]) / det;
  o[6] = c02 / det;
  o[7] = (m[1] * m[6] - m[0] * m[7]) / det;
  o[8] = (m[0] * m[4] - m[1] * m[3]) / det;
  return 1;
}

static int
camera_ok (const GcvDibrCamera * c)
{
  int i;

  for (i = 0; i < 9; i++)
    if (!isfinite (c->K[i]))
      return 0;
  for (i = 0; i < 16; i++)
    if (!isfinite (c->E[i]))
      return 0;
  return c->K[6] == 0.0 && c->K[7] == 0.0 && c->K[8] == 1.0 && c->E[12] == 0.0 && c->E[13] == 0.0
      && c->E[14] == 0.0 && c->E[15] == 1.0;
}

GcvStatus
gcv_dibr_warp_make (const GcvDibrCamera * src, const GcvDibrCamera * virt, GcvDibrWarp * w, GcvError * err)
{
  double ks_inv[9], rs[9], rs_inv[9], r[9], tt[3], m[9];
  int i, j, k;

  if (!camera_ok (src) || !camera_ok (virt)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: a camera's K must end with the row 0 0 1 and its E "
        "with 0 0 0 1, all entries finite");
    return GCV_ERROR_INVALID;
  }
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++)
      rs[3 * i + j] = src->E[4 * i + j];
  if (!inv3 (src->K, ks_inv) || !inv3 (rs, rs_inv)) {
    gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the source camera's K or E is singular");
    return GCV_ERROR_INVALID;
  }
  {
    double rv[9];
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++)
        rv[3 * i + j] = virt->E[4 * i + j];
    if (!inv3 (virt->K, m) || !inv3 (rv, m)) {
      gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the virtual camera's K or E is singular");
      return GCV_ERROR_INVALID;
    }
    /* E_v E_s^-1: E_s^-1 = [Rs^-1 | -Rs^-1 ts]; R = Rv Rs^-1, T = tv - R ts */
    for (i = 0; i < 3; i++)
      for (j = 0; j < 3; j++) {
        double s = 0.0;
        for (k = 0; k < 3; k++)
          s += rv[3 * i + k] * rs_inv[3 * k + j];
        r[3 * i + j] = s;
      }
    for (i = 0; i < 3; i++) {
      double s = virt->E[4 * i + 3];
      for (k = 0; k < 3; k++)
        s -= r[3 * i + k] * src->E[4 * k + 3];
      tt[i] = s;
    }
  }
  /* m = K_v R, A = m K_s^-1, t = K_v T */
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      double s = 0.0;
      for (k = 0; k < 3; k++)
        s += virt->K[3 * i + k] * r[3 * k + j];
      m[3 * i + j] = s;
    }
  for (i = 0; i < 3; i++)
    for (j = 0; j < 3; j++) {
      double s = 0.0;
      for (k = 0; k < 3; k++)
        s += m[3 * i + k] * ks_inv[3 * k + j];
      w->A[3 * i + j] = s;
    }
  for (i = 0; i < 3; i++) {
    double s = 0.0;
    for (k = 0; k < 3; k++)
      s += virt->K[3 * i + k] * tt[k];
    w->t[i] = s;
  }
  for (i = 0; i < 9; i++)
    if (!isfinite (w->A[i])) {
      gcv_error_set (err, GCV_ERROR_INVALID, "dibr: the cameras' warp is not finite");
      return GCV_ERROR_INVALID;
    }
  return GCV_OK;
}

static const char *
eye_plane_check (const GcvPlane * p, int w, int h, size_t bpp)
{
  if (!p->data)
    return "no data";
  if (p->width != w || p->height != h)
    return "not the eye's size";
  if (p->stride < (size_t) w * bpp)
    return "a stride shorter than a row";
  return NULL;
}

const char *
gcv_dibr_compose_check (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show,
    const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, const GcvPlane * out)
{
  static __thread char msg[200];
  int i, seen = 0;

  if (!eyes || n_eyes < 1 || n_eyes > 2) {
    snprintf (msg, sizeof (msg), "compose: %d eyes (1 or 2)", eyes ? n_eyes : 0);
    return msg;
  }
  if (anaglyph && n_eyes != 2)
    return "compose: an anaglyph needs 2 eyes";
  if (show != GCV_DIBR_SHOW_COLOUR && show != GCV_DIBR_SHOW_DEPTH && show != GCV_DIBR_SHOW_HOLES) {
    snprintf (msg, sizeof (msg), "compose: unknown show mode %d", (int) show);
    return msg;
  }
  if (show == GCV_DIBR_SHOW_DEPTH && !dec)
    return "compose: showing the depth needs its decode";
  if (!order)
    return "compose: no pixel order";
  if (order->r >= 0 && order->r < 4)
    seen |= 1 << order->r;
  if (order->g >= 0 && order->g < 4)
    seen |= 1 << order->g;
  if (order->b >= 0 && order->b < 4)
    seen |= 1 << order->b;
  if (order->x >= 0 && order->x < 4)
    seen |= 1 << order->x;
  if (seen != 15) {
    snprintf (msg, sizeof (msg), "compose: pixel order r %d g %d b %d x %d must be 0 .. 3, all different",
        order->r, order->g, order->b, order->x);
    return msg;
  }
  if (!out || !out->data || out->width < 1 || out->height < 1 || out->stride < (size_t) out->width * 4) {
    snprintf (msg, sizeof (msg), "compose: the output must be a plane of 4-byte pixels (got %dx%d, stride %zu)",
        out ? out->width : 0, out ? out->height : 0, out ? out->stride : 0);
    return msg;
  }
  for (i = 0; i < n_eyes; i++) {
    const GcvDibrEye *e = &eyes[i];
    const int w = e->rgba.width, h = e->rgba.height;
    const char *bad;
    if (w < 1 || h < 1) {
      snprintf (msg, sizeof (msg), "compose: eye %d of %dx%d", i, w, h);
      return msg;
    }
    {
      const char *which = "colour";
      if (!(bad = eye_plane_check (&e->rgba, w, h, 4)) && show == GCV_DIBR_SHOW_DEPTH) {
        which = "depth";
        bad = eye_plane_check (&e->depth, w, h, sizeof (float));
      } else if (!bad && show == GCV_DIBR_SHOW_HOLES) {
        which = "holes";
        bad = eye_plane_check (&e->holes, w, h, 1);
      }
      if (bad) {
        snprintf (msg, sizeof (msg), "compose: eye %d (%dx%d): the %s plane: %s", i, w, h, which, bad);
        return msg;
      }
    }
    if (anaglyph) {
      if (w != eyes[0].rgba.width || h != eyes[0].rgba.height || w > out->width || h > out->height) {
        snprintf (msg, sizeof (msg), "compose: an anaglyph of eyes of %dx%d and %dx%d into %dx%d: the eyes must "
            "be of one size, inside the output", eyes[0].rgba.width, eyes[0].rgba.height, w, h, out->width,
            out->height);
        return msg;
      }
    } else if (e->ox < 0 || e->oy < 0 || e->ox > out->width - w || e->oy > out->height - h) {
      snprintf (msg, sizeof (msg), "compose: eye %d (%dx%d at %d, %d) is not inside the %dx%d output", i, w, h,
          e->ox, e->oy, out->width, out->height);
      return msg;
    }
  }
  if (!anaglyph && n_eyes == 2) {
    const GcvDibrEye *a = &eyes[0], *b = &eyes[1];
    if (a->ox < b->ox + b->rgba.width && b->ox < a->ox + a->rgba.width && a->oy < b->oy + b->rgba.height
        && b->oy < a->oy + a->rgba.height)
      return "compose: the two eyes' pictures overlap";
  }
  return NULL;
}
