/* gst-cuda-video: the VCM test reference and synthetic motion (see the
 * header).  The reference re-derives every rule of cpu/vcm.h in the most
 * direct way it can: st from its own Sobel (the corner measure's square
 * root by trying every value), a pixel's rank by counting the pixels of
 * its window that come before it, the cutoff by trying every value, every
 * sum of every displacement computed from scratch, every pair of points,
 * the peak order as a tuple, the refinement's cubic weights from the two
 * pieces of Keys' kernel and one 2-D sum per sample.  Only the double
 * steps are written as the contract gives them (there is one way to round
 * them).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vcm_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the naive reference --------------------------------------------- */

void
vcm_ref_history_clear (VcmRefHistory * h)
{
  free (h->x);
  free (h->y);
  free (h->ex);
  free (h->ey);
  memset (h, 0, sizeof (*h));
}

static int
px_at (const GcvPlane * pl, int x, int y)
{
  return ((const uint8_t *) pl->data)[(size_t) y * pl->stride + x];
}

/* The 3x3 Sobel of P at (x, y), from the kernel's table. */
static void
ref_sobel (const GcvPlane * P, int x, int y, long long *gx, long long *gy)
{
  static const int kx[3][3] = { {-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1} };
  int i, j;

  *gx = *gy = 0;
  for (j = 0; j < 3; j++)
    for (i = 0; i < 3; i++) {
      *gx += kx[j][i] * px_at (P, x + i - 1, y + j - 1);
      *gy += kx[i][j] * px_at (P, x + i - 1, y + j - 1);
    }
}

/* The corner membership E of (x, y): the structure tensor of the template
 * (Sobel products summed over its t x t pixels), floor (det / trace), over
 * 4 n, then the largest e <= 255 whose square does not exceed it (tried
 * from 255 down). */
static int
ref_corner (const GcvVcmParams * p, const GcvPlane * P, int x, int y)
{
  int t = p->template_size, tr = t / 2, n = t * t, u, v, e;
  long long sxx = 0, sxy = 0, syy = 0, gx, gy, det, trace, q;

  for (v = -tr; v <= tr; v++)
    for (u = -tr; u <= tr; u++) {
      ref_sobel (P, x + u, y + v, &gx, &gy);
      sxx += gx * gx;
      sxy += gx * gy;
      syy += gy * gy;
    }
  det = sxx * syy - sxy * sxy;
  trace = sxx + syy;
  if (trace == 0)
    return 0;
  q = (det / trace) / (4LL * n);
  for (e = 255; e > 0; e--)
    if ((long long) e * e <= q)
      break;
  return e;
}

/* The margin of the contract's "Eligible pixels", in its own words. */
static int
ref_margin (const GcvVcmParams * p)
{
  int m = 1, tr = p->template_size / 2;

  if (tr > m)
    m = tr;
  if (p->interest == GCV_VCM_INTEREST_CORNER && tr + 1 > m)
    m = tr + 1;
  if (p->subpixel && p->refine_size > 0 && p->refine_size / 2 + 1 > m)
    m = p->refine_size / 2 + 1;
  return m;
}

/* st of (x, y), -1 when the pixel is not eligible. */
static int
ref_st (const GcvVcmParams * p, const GcvPlane * P, const GcvPlane * C, int x, int y)
{
  int W = P->width, H = P->height, m = ref_margin (p), d, st;
  long long gx, gy, g;

  if (x < m || y < m || x > W - 1 - m || y > H - 1 - m)
    return -1;
  d = abs (px_at (C, x, y) - px_at (P, x, y));
  if (p->interest == GCV_VCM_INTEREST_CORNER) {
    g = ref_corner (p, P, x, y);
  } else {
    ref_sobel (P, x, y, &gx, &gy);
    g = (llabs (gx) + llabs (gy)) / 8;
  }
  st = g < d ? (int) g : d;
  return st > p->st_threshold ? st : -1;
}

/* 2^25 times Keys' cubic convolution kernel (a = -1/2) at k / 256 pixel,
 * 0 <= k <= 512, from its two pieces: 1.5 s^3 - 2.5 s^2 + 1 for s <= 1,
 * -0.5 s^3 + 2.5 s^2 - 4 s + 2 for 1 < s < 2 (exact in long long). */
static long long
ref_keys (long long k)
{
  if (k <= 256)
    return 3 * k * k * k - 1280 * k * k + (1LL << 25);
  return -k * k * k + 1280 * k * k - 524288 * k + (1LL << 26);
}

/* floor (a / b), b > 0, for any sign of a. */
static long long
ref_floor_div (long long a, long long b)
{
  long long q = a / b;

  return q * b > a ? q - 1 : q;
}

/* 65536 times C at (sx + fx / 256, sy + fy / 256), rounded down after
 * adding a half: the 4 x 4 samples around it weighted by the kernel at
 * their distances (1 + f, f, 1 - f, 2 - f in 1/256), one 2-D sum. */
static long long
ref_cubic (const GcvPlane * C, long long sx, long long sy, long long fx, long long fy)
{
  long long dist_x[4] = { 256 + fx, fx, 256 - fx, 512 - fx }, dist_y[4] = { 256 + fy, fy, 256 - fy, 512 - fy };
  long long s = 0;
  int i, j;

  for (j = 0; j < 4; j++)
    for (i = 0; i < 4; i++)
      s += ref_keys (dist_y[j]) * ref_keys (dist_x[i]) * px_at (C, (int) sx + i - 1, (int) sy + j - 1);
  return ref_floor_div (s + (1LL << 33), 1LL << 34);
}

/* Whether the r2 x r2 window around (x, y), shifted by q / 256 pixel and
 * sampled by the cubic, reads only pixels of C: every sample reads columns
 * floor (x + u + qx / 256) - 1 .. + 2, rows likewise. */
static int
ref_refine_inside (int W, int H, int x, int y, int r, long long qx, long long qy)
{
  long long ix = ref_floor_div (qx, 256), iy = ref_floor_div (qy, 256);

  return x - r + ix - 1 >= 0 && x + r + ix + 2 <= W - 1 && y - r + iy - 1 >= 0 && y + r + iy + 2 <= H - 1;
}

/* The gradient refinement, from the words of cpu/vcm.h ("Gradient
 * refinement"), not from gcv_vcm_refine(): q0 is the parabola's vector in
 * 1/256 pixel; returns the refined one in *qx, *qy (q0 when the refinement
 * is not done or is rejected). */
static void
ref_refine (const GcvPlane * P, const GcvPlane * C, int x, int y, int r2, long long q0x, long long q0y,
    long long *qx, long long *qy)
{
  int W = P->width, H = P->height, r = r2 / 2, u, v, step;
  long long gxx = 0, gxy = 0, gyy = 0, det, cx = q0x, cy = q0y, lx, ly;
  int have_last = 0;

  *qx = q0x;
  *qy = q0y;
  /* the window with its border (the central differences' pixels) in P */
  if (x - r - 1 < 0 || y - r - 1 < 0 || x + r + 1 > W - 1 || y + r + 1 > H - 1)
    return;
  for (v = -r; v <= r; v++)
    for (u = -r; u <= r; u++) {
      long long gx = px_at (P, x + u + 1, y + v) - px_at (P, x + u - 1, y + v);
      long long gy = px_at (P, x + u, y + v + 1) - px_at (P, x + u, y + v - 1);
      gxx += gx * gx;
      gxy += gx * gy;
      gyy += gy * gy;
    }
  det = gxx * gyy - gxy * gxy;
  if (det <= 0)
    return;
  lx = cx;
  ly = cy;
  for (step = 0; step <= GCV_VCM_REFINE_STEPS; step++) {
    long long ix, iy, fx, fy, bx = 0, by = 0;
    volatile double d, a1, a2, b1, b2, n1, n2, s1, s2, h1, h2;
    double sx, sy;

    /* every q met, the one after the last step included, must have its
     * window inside C; the result is the last one that has */
    if (!ref_refine_inside (W, H, x, y, r, cx, cy))
      break;
    have_last = 1;
    lx = cx;
    ly = cy;
    if (step == GCV_VCM_REFINE_STEPS)
      break;
    ix = ref_floor_div (cx, 256);
    iy = ref_floor_div (cy, 256);
    fx = cx - 256 * ix;
    fy = cy - 256 * iy;
    for (v = -r; v <= r; v++)
      for (u = -r; u <= r; u++) {
        long long gx = px_at (P, x + u + 1, y + v) - px_at (P, x + u - 1, y + v);
        long long gy = px_at (P, x + u, y + v + 1) - px_at (P, x + u, y + v - 1);
        long long e = ref_cubic (C, x + u + ix, y + v + iy, fx, fy) - 65536LL * px_at (P, x + u, y + v);
        bx += gx * e;
        by += gy * e;
      }
    /* sx = floor ((Gyy bx - Gxy by) / (128 det) + 0.5), sy = floor ((Gxx by
     * - Gxy bx) / (128 det) + 0.5): one rounding per operation */
    d = (double) det * 128.0;
    a1 = (double) gyy * (double) bx;
    a2 = (double) gxy * (double) by;
    n1 = a1 - a2;
    s1 = n1 / d;
    h1 = s1 + 0.5;
    sx = floor (h1);
    b1 = (double) gxx * (double) by;
    b2 = (double) gxy * (double) bx;
    n2 = b1 - b2;
    s2 = n2 / d;
    h2 = s2 + 0.5;
    sy = floor (h2);
    if (sx == 0.0 && sy == 0.0)
      break;
    /* a step this large puts the window outside any frame: the next check
     * stops with this q (and keeps long long exact) */
    if (fabs (sx) > 1e12 || fabs (sy) > 1e12)
      break;
    cx -= (long long) sx;
    cy -= (long long) sy;
  }
  if (!have_last)
    return;
  if (llabs (lx - q0x) > 256 || llabs (ly - q0y) > 256)
    return;
  *qx = lx;
  *qy = ly;
}

/* Candidates in candidate order; returns the count. */
static int
ref_candidates (const GcvVcmParams * p, const GcvPlane * P, const GcvPlane * C, int **xs, int **ys, int **sts)
{
  int W = P->width, H = P->height, ws = p->window_size, cols = (W + ws - 1) / ws, rows = (H + ws - 1) / ws;
  int *st = gcv_test_malloc (sizeof (int) * (size_t) W * H);
  int n = 0, cap = 64, wy, wx, r, x, y, a, b;

  *xs = gcv_test_malloc (sizeof (int) * cap);
  *ys = gcv_test_malloc (sizeof (int) * cap);
  *sts = gcv_test_malloc (sizeof (int) * cap);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      st[y * W + x] = ref_st (p, P, C, x, y);
  for (wy = 0; wy < rows; wy++)
    for (wx = 0; wx < cols; wx++)
    {
      /* every eligible pixel's rank: how many of the window come before */
      int slot_x[GCV_VCM_MAX_POINTS_PER_WINDOW], slot_y[GCV_VCM_MAX_POINTS_PER_WINDOW];
      int slot_s[GCV_VCM_MAX_POINTS_PER_WINDOW], used = 0;
      for (y = wy * ws; y < (wy + 1) * ws && y < H; y++)
        for (x = wx * ws; x < (wx + 1) * ws && x < W; x++) {
          int s = st[y * W + x], rank = 0;
          if (s < 0)
            continue;
          for (b = wy * ws; b < (wy + 1) * ws && b < H; b++)
            for (a = wx * ws; a < (wx + 1) * ws && a < W; a++) {
              int o = st[b * W + a];
              if (o < 0)
                continue;
              if (o > s || (o == s && (b < y || (b == y && a < x))))
                rank++;
            }
          if (rank < p->points_per_window) {
            slot_x[rank] = x;
            slot_y[rank] = y;
            slot_s[rank] = s;
            used++;
          }
        }
      for (r = 0; r < used; r++) {
        if (n == cap) {
          cap *= 2;
          *xs = realloc (*xs, sizeof (int) * cap);
          *ys = realloc (*ys, sizeof (int) * cap);
          *sts = realloc (*sts, sizeof (int) * cap);
        }
        (*xs)[n] = slot_x[r];
        (*ys)[n] = slot_y[r];
        (*sts)[n] = slot_s[r];
        n++;
      }
    }
  free (st);
  return n;
}

int
vcm_reference_candidates (const GcvVcmParams * p, const GcvPlane * prev, const GcvPlane * cur, int **pos_xy,
    int **st)
{
  int *xs, *ys, n, i;

  n = ref_candidates (p, prev, cur, &xs, &ys, st);
  *pos_xy = gcv_test_malloc (sizeof (int) * 2 * (n ? n : 1));
  for (i = 0; i < n; i++) {
    (*pos_xy)[2 * i] = xs[i];
    (*pos_xy)[2 * i + 1] = ys[i];
  }
  free (xs);
  free (ys);
  return n;
}

static int
ref_ncc (int n, long long st, long long stt, long long sw, long long sww, long long stw)
{
  long long a = n * stt - st * st, b = n * sww - sw * sw, num = n * stw - st * sw;
  double den, q;

  if (a == 0 || b == 0)
    return 0;
  den = sqrt ((double) a * (double) b);
  q = floor ((double) (num * 32767) / den + 0.5);
  if (q > 32767)
    return 32767;
  if (q < -32767)
    return -32767;
  return (int) q;
}

/* The NCM of (x, y): M * M entries, INT32_MIN for invalid. */
static void
ref_ncm (const GcvVcmParams * p, const GcvPlane * P, const GcvPlane * C, int x, int y, int *map)
{
  int R = p->search_size / 2, M = 2 * R + 1, t = p->template_size, tr = t / 2, n = t * t;
  int W = C->width, H = C->height, dx, dy, u, v;

  for (dy = -R; dy <= R; dy++)
    for (dx = -R; dx <= R; dx++) {
      long long st = 0, stt = 0, sw = 0, sww = 0, stw = 0;
      int *e = &map[(dy + R) * M + dx + R];
      if (x + dx - tr < 0 || x + dx + tr > W - 1 || y + dy - tr < 0 || y + dy + tr > H - 1) {
        *e = INT32_MIN;
        continue;
      }
      for (v = -tr; v <= tr; v++)
        for (u = -tr; u <= tr; u++) {
          long long a = px_at (P, x + u, y + v), b = px_at (C, x + dx + u, y + dy + v);
          st += a;
          stt += a * a;
          sw += b;
          sww += b * b;
          stw += a * b;
        }
      *e = ref_ncc (n, st, stt, sw, sww, stw);
    }
}

/* Whether (va, dxa, dya) comes before (vb, dxb, dyb) in the peak order. */
static int
ref_better (long long va, int dxa, int dya, long long vb, int dxb, int dyb)
{
  int la = abs (dxa) + abs (dya), lb = abs (dxb) + abs (dyb);

  if (va != vb)
    return va > vb;
  if (la != lb)
    return la < lb;
  if (dya != dyb)
    return dya < dyb;
  return dxa < dxb;
}

int
vcm_reference_track (const GcvVcmParams * p, const GcvPlane * prev, const GcvPlane * cur, VcmRefHistory * hist,
    GcvVcmPoint * out)
{
  int *xs, *ys, *sts, nc, n, i, j, k, c, R, M, rc2, tw;
  int *keep, *maps, *nex, *ney;
  long long *V;

  if (gcv_vcm_params_check (p) || prev->width != cur->width || prev->height != cur->height)
    return -1;
  nc = ref_candidates (p, prev, cur, &xs, &ys, &sts);
  keep = gcv_test_malloc (sizeof (int) * (nc ? nc : 1));
  for (i = 0; i < nc; i++)
    keep[i] = 1;
  if (nc > p->max_points) {
    int above = 0, quota;
    for (c = 255; c >= 0; c--) {
      int at_least = 0;
      for (i = 0; i < nc; i++)
        at_least += sts[i] >= c;
      if (at_least >= p->max_points)
        break;
    }
    for (i = 0; i < nc; i++)
      above += sts[i] > c;
    quota = p->max_points - above;
    for (i = 0; i < nc; i++) {
      if (sts[i] > c)
        continue;
      if (sts[i] == c && quota > 0) {
        quota--;
        continue;
      }
      keep[i] = 0;
    }
  }
  n = 0;
  for (i = 0; i < nc; i++)
    if (keep[i]) {
      xs[n] = xs[i];
      ys[n] = ys[i];
      n++;
    }

  R = p->search_size / 2;
  M = 2 * R + 1;
  maps = gcv_test_malloc (sizeof (int) * (size_t) M * M * (n ? n : 1));
  for (i = 0; i < n; i++)
    ref_ncm (p, prev, cur, xs[i], ys[i], maps + (size_t) i * M * M);

  rc2 = (int) floor (p->coherence_radius * p->coherence_radius);
  tw = (int) floor (256.0 * p->temporal_weight + 0.5);
  V = gcv_test_malloc (sizeof (long long) * M * M);
  nex = gcv_test_malloc (sizeof (int) * (n ? n : 1));
  ney = gcv_test_malloc (sizeof (int) * (n ? n : 1));
  for (i = 0; i < n; i++) {
    const int *own = maps + (size_t) i * M * M;
    long long wsum = 0, bv = 0;
    int hk = -1, hd2 = 0, bx = 0, by = 0, have = 0, dx, dy;
    double fx = 0, fy = 0;

    memset (V, 0, sizeof (long long) * M * M);
    for (j = 0; j < n; j++) {
      int d2 = (xs[j] - xs[i]) * (xs[j] - xs[i]) + (ys[j] - ys[i]) * (ys[j] - ys[i]);
      long long w;
      if (d2 > rc2)
        continue;
      w = (long long) floor (256.0 * exp (-d2 / (2.0 * p->coherence_sigma * p->coherence_sigma)) + 0.5);
      wsum += w;
      for (k = 0; k < M * M; k++)
        if (maps[(size_t) j * M * M + k] != INT32_MIN)
          V[k] += w * maps[(size_t) j * M * M + k];
    }
    if (tw > 0)
      for (k = 0; k < hist->n; k++) {
        int d2 = (hist->x[k] - xs[i]) * (hist->x[k] - xs[i]) + (hist->y[k] - ys[i]) * (hist->y[k] - ys[i]);
        if (d2 <= rc2 && (hk < 0 || d2 < hd2)) {
          hk = k;
          hd2 = d2;
        }
      }
    if (hk >= 0) {
      double two = 2.0 * p->temporal_sigma * p->temporal_sigma;
      wsum += tw;
      for (dy = -R; dy <= R; dy++)
        for (dx = -R; dx <= R; dx++) {
          int e2 = (dx - hist->ex[hk]) * (dx - hist->ex[hk]) + (dy - hist->ey[hk]) * (dy - hist->ey[hk]);
          V[(dy + R) * M + dx + R] += (long long) tw * (long long) floor (32767.0 * exp (-e2 / two) + 0.5);
        }
    }
    for (dy = -R; dy <= R; dy++)
      for (dx = -R; dx <= R; dx++) {
        long long v = V[(dy + R) * M + dx + R];
        if (own[(dy + R) * M + dx + R] == INT32_MIN)
          continue;
        if (!have || ref_better (v, dx, dy, bv, bx, by)) {
          have = 1;
          bv = v;
          bx = dx;
          by = dy;
        }
      }
    if (p->subpixel) {
      /* x: (bx - 1, by), (bx + 1, by); y likewise; both in the map and valid */
      if (bx - 1 >= -R && bx + 1 <= R && own[(by + R) * M + bx - 1 + R] != INT32_MIN
          && own[(by + R) * M + bx + 1 + R] != INT32_MIN) {
        long long a = V[(by + R) * M + bx - 1 + R], c2 = V[(by + R) * M + bx + 1 + R];
        long long den = a - 2 * bv + c2;
        if (den < 0)
          fx = (double) (a - c2) / (double) (2 * den);
      }
      if (by - 1 >= -R && by + 1 <= R && own[(by - 1 + R) * M + bx + R] != INT32_MIN
          && own[(by + 1 + R) * M + bx + R] != INT32_MIN) {
        long long a = V[(by - 1 + R) * M + bx + R], c2 = V[(by + 1 + R) * M + bx + R];
        long long den = a - 2 * bv + c2;
        if (den < 0)
          fy = (double) (a - c2) / (double) (2 * den);
      }
    }
    out[i].x = (float) xs[i];
    out[i].y = (float) ys[i];
    if (p->subpixel && p->refine_size > 0) {
      /* q = floor (256 d + 0.5) of the parabola's d, then the refinement */
      volatile double d1 = (double) bx + fx, d2 = (double) by + fy, m1 = d1 * 256.0, m2 = d2 * 256.0;
      double h1 = m1 + 0.5, h2 = m2 + 0.5;
      long long qx, qy;
      ref_refine (prev, cur, xs[i], ys[i], p->refine_size, (long long) floor (h1), (long long) floor (h2),
          &qx, &qy);
      out[i].dx = (float) ((double) qx / 256.0);
      out[i].dy = (float) ((double) qy / 256.0);
    } else {
      out[i].dx = (float) (bx + fx);
      out[i].dy = (float) (by + fy);
    }
    {
      double den = 32767.0 * (double) wsum;
      out[i].score = (float) ((double) bv / den);
    }
    nex[i] = bx;
    ney[i] = by;
  }

  vcm_ref_history_clear (hist);
  hist->n = n;
  hist->x = gcv_test_malloc (sizeof (int) * (n ? n : 1));
  hist->y = gcv_test_malloc (sizeof (int) * (n ? n : 1));
  memcpy (hist->x, xs, sizeof (int) * n);
  memcpy (hist->y, ys, sizeof (int) * n);
  hist->ex = nex;
  hist->ey = ney;
  free (V);
  free (maps);
  free (keep);
  free (xs);
  free (ys);
  free (sts);
  return n;
}

/* ---- synthetic motion ------------------------------------------------ */

static const VcmWarp standard_warps[] = {
  {"translation (3,-2)", 3.0, -2.0, 0.0, 1.0},
  {"translation (1.5,0.75)", 1.5, 0.75, 0.0, 1.0},
  {"rotation 1 deg", 0.0, 0.0, 1.0, 1.0},
  {"zoom 1%", 0.0, 0.0, 0.0, 1.01},
};

int
vcm_test_standard_warps (const VcmWarp ** warps)
{
  *warps = standard_warps;
  return (int) (sizeof (standard_warps) / sizeof (standard_warps[0]));
}

/* p' = c + s R (p - c) + t (forward) or its inverse. */
static void
warp_apply (const VcmWarp * w, double cx, double cy, int inverse, double *x, double *y)
{
  double a = w->angle_deg * M_PI / 180.0, ca = cos (a), sa = sin (a);
  double px = *x, py = *y;

  if (!inverse) {
    double rx = ca * (px - cx) - sa * (py - cy), ry = sa * (px - cx) + ca * (py - cy);
    *x = cx + w->scale * rx + w->tx;
    *y = cy + w->scale * ry + w->ty;
  } else {
    double qx = (px - cx - w->tx) / w->scale, qy = (py - cy - w->ty) / w->scale;
    *x = cx + ca * qx + sa * qy;
    *y = cy - sa * qx + ca * qy;
  }
}

/* Photo pixels per frame pixel: 1, or less so that 8 frames of the warp
 * stay inside the photo (with the bicubic's reach). */
static double
photo_scale (const VcmWarp * w, int pw, int ph, int W, int H)
{
  double cx = (W - 1) / 2.0, cy = (H - 1) / 2.0, ex = cx, ey = cy, m = 1.0;
  int k, c;

  for (c = 0; c < 4; c++) {
    double x = c & 1 ? W - 1 : 0, y = c & 2 ? H - 1 : 0;
    for (k = 0; k <= 8; k++) {
      if (fabs (x - cx) > ex)
        ex = fabs (x - cx);
      if (fabs (y - cy) > ey)
        ey = fabs (y - cy);
      warp_apply (w, cx, cy, 1, &x, &y);
    }
  }
  if ((pw - 1) / 2.0 - 3.0 < m * ex)
    m = ((pw - 1) / 2.0 - 3.0) / ex;
  if ((ph - 1) / 2.0 - 3.0 < m * ey)
    m = ((ph - 1) / 2.0 - 3.0) / ey;
  return m;
}

static double
keys (double t)
{
  t = fabs (t);
  if (t < 1.0)
    return (1.5 * t - 2.5) * t * t + 1.0;
  if (t < 2.0)
    return ((-0.5 * t + 2.5) * t - 4.0) * t + 2.0;
  return 0.0;
}

static double
bicubic (const uint8_t * img, int pw, int ph, int stride, double x, double y)
{
  int x0 = (int) floor (x), y0 = (int) floor (y), i, j;
  double s = 0.0;

  for (j = -1; j <= 2; j++) {
    int yy = y0 + j < 0 ? 0 : y0 + j >= ph ? ph - 1 : y0 + j;
    double wy = keys (y - (y0 + j)), r = 0.0;
    if (wy == 0.0)
      continue;
    for (i = -1; i <= 2; i++) {
      int xx = x0 + i < 0 ? 0 : x0 + i >= pw ? pw - 1 : x0 + i;
      r += keys (x - (x0 + i)) * img[(size_t) yy * stride + xx];
    }
    s += wy * r;
  }
  return s;
}

void
vcm_test_render (const uint8_t * photo, int pw, int ph, int pstride, const VcmWarp * w, int frame_index,
    uint8_t * out, int W, int H, int stride)
{
  double m = photo_scale (w, pw, ph, W, H), cx = (W - 1) / 2.0, cy = (H - 1) / 2.0;
  double pcx = (pw - 1) / 2.0, pcy = (ph - 1) / 2.0;
  int x, y, k;

  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      double qx = x, qy = y, v;
      for (k = 0; k < frame_index; k++)
        warp_apply (w, cx, cy, 1, &qx, &qy);
      v = bicubic (photo, pw, ph, pstride, pcx + m * (qx - cx), pcy + m * (qy - cy));
      v = floor (v + 0.5);
      out[(size_t) y * stride + x] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

void
vcm_test_true_vector (const VcmWarp * w, int frame_index, int W, int H, double x, double y, double *dx,
    double *dy)
{
  double qx = x, qy = y;

  /* every frame moves by the same warp: the index does not matter */
  (void) frame_index;
  warp_apply (w, (W - 1) / 2.0, (H - 1) / 2.0, 0, &qx, &qy);
  *dx = qx - x;
  *dy = qy - y;
}

uint8_t *
vcm_test_photo_luma (const char *file, int *width, int *height)
{
  GcvTestImage img;
  char errbuf[256];
  char *path = gcv_test_path (file);
  char rel[256];
  uint8_t *luma;

  if (gcv_test_load_png (path, &img, errbuf, sizeof (errbuf)) != 0) {
    free (path);
    snprintf (rel, sizeof (rel), "data/%s", file);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &img, errbuf, sizeof (errbuf)) != 0) {
      fprintf (stderr, "cannot load %s: %s\n", path, errbuf);
      exit (1);
    }
  }
  free (path);
  luma = gcv_test_image_luma (&img);
  *width = img.width;
  *height = img.height;
  gcv_test_image_clear (&img);
  return luma;
}

/* ---- endpoint error -------------------------------------------------- */

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

VcmEpeStats
vcm_test_stats (double *e, int n)
{
  VcmEpeStats s = { n, 0, 0, 0, 0 };
  int i;

  if (n <= 0)
    return s;
  qsort (e, (size_t) n, sizeof (double), cmp_double);
  s.median = n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
  s.p90 = e[(int) ceil (0.9 * n) - 1];
  for (i = 0; i < n; i++)
    s.mean += e[i];
  s.mean /= n;
  s.max = e[n - 1];
  return s;
}

VcmEpeStats
vcm_test_epe (const GcvVcmPoint * pts, int n, const VcmWarp * w, int frame_index, int W, int H)
{
  double *e = gcv_test_malloc (sizeof (double) * (n ? n : 1));
  VcmEpeStats s;
  int i;

  for (i = 0; i < n; i++) {
    double tx, ty;
    vcm_test_true_vector (w, frame_index, W, H, pts[i].x, pts[i].y, &tx, &ty);
    e[i] = hypot (pts[i].dx - tx, pts[i].dy - ty);
  }
  s = vcm_test_stats (e, n);
  free (e);
  return s;
}
