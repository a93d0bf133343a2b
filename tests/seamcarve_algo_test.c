/* gst-cuda-video: algorithm tests of seam carving's CPU backend and shared
 * code (cpu/seamcarve.h), no GStreamer.
 *
 *  1. the shared code: isqrt (every value the energies can give, and far
 *     ones), pixel energy, forward costs, luma and alpha bias against the
 *     reference's own formulas; temporal weight, pass size, enlargement
 *     step; names;
 *  2. brute force: on tiny pictures (7x5, 5x7, 6x6, 8x4, 4x8, 9x3, 3x9,
 *     random, flat, two-level and cut from the photos), every energy, with
 *     and without an alpha bias, the first seam of the width and of the
 *     height stage (from the backend's and the reference's masks) is the
 *     minimum over all connected seams, with the contract's tie rule;
 *  3. what a seam does: a reduction keeps every other pixel in order
 *     (output row = input row without the marked pixels, every plane and
 *     channel), a single-step enlargement writes after each marked pixel
 *     the rounded mean of it and its right neighbour, k marks per row (or
 *     column); fast-mode seams of one pass are pixel-disjoint, never cross,
 *     and the first is exact mode's seam; on the four photos, 10 % and 25 %
 *     narrower, fast mode (4 .. 32 seams per pass) removes at most 10 %
 *     more gradient energy than exact mode, every seam asked for, and at
 *     16 seams per pass a seam map gives 3.5 seams or more;
 *  4. the backend against the reference (tests/seamcarve_reference.c),
 *     bit-exact output planes and masks: real-photo crops of odd sizes in
 *     every layout (GRAY8, Y444, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx), every
 *     energy, exact and fast (several seams per pass), both orders, width /
 *     height / both, down and up (multi-step enlargements past 1.5x), 1 and
 *     2 pixel outputs, 1xN and Nx1 inputs, padded strides, mask_alpha on
 *     and off, clips of several frames with temporal coherence (the state
 *     carried on both sides, order switches, resets), output only / mask
 *     only, 1, 2 and all threads; then random cases; all of it for every
 *     DP loop the CPU has (generic, AVX2, AVX-512).  Output padding is
 *     never written;
 *  5. the alpha mask: an alpha-255 object in a photo survives a 50 % width
 *     reduction unchanged and contiguous; an alpha-0 band goes first;
 *  6. temporal coherence: on a 1 px/frame pan over a photo with noise, the
 *     seams move clearly less from frame to frame with coherence 1 than 0;
 *  7. n_threads 1 / 2 / 0 agree; _reset forgets the last frame; profiling
 *     counts passes and seams;
 *  8. invalid geometries, parameters and planes are refused with a message
 *     naming the bad value, and leave the temporal state alone; a context
 *     too large for the (capped) address space fails with no-memory;
 *  9. gcv_seam_energy_sums (post-messages) against the reference's, on
 *     photo crops in every layout, 1x1 to 641x481, random and real seam
 *     masks.
 *
 * Exit status 0 when everything passes, 1 otherwise.  About 7-10 s on two
 * cores (the reference is most of it); GCV_TEST_QUICK=1 runs fewer random
 * cases and drops the largest crops.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "seamcarve_reference.h"

static int quick;
static GcvTestImage photos[4];

/* ---- helpers ------------------------------------------------------------------ */

static GcvPlane
mask_plane_new (int w, int h, size_t pad, uint32_t seed)
{
  SeamTestFrame f = seam_test_frame_new (1, 1, w, h, pad, seed);
  return f.plane[0];
}

static uint8_t
mask_at (const GcvPlane *m, int x, int y)
{
  return ((const uint8_t *) m->data)[m->stride * y + x];
}

static int
masks_equal (const GcvPlane *a, const GcvPlane *b, int w, int h, int *fx, int *fy)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (mask_at (a, x, y) != mask_at (b, x, y)) {
        *fx = x;
        *fy = y;
        return 0;
      }
  return 1;
}

static int
mask_padding_intact (const GcvPlane *m, uint32_t seed)
{
  SeamTestFrame f;

  memset (&f, 0, sizeof (f));
  f.n_planes = 1;
  f.channels = 1;
  f.width = m->width;
  f.height = m->height;
  f.plane[0] = *m;
  return seam_test_padding_intact (&f, seed);
}

/* A photo crop (wrapping around the photo) with noise of +-noise per
 * sample (none when 0). */
static GcvTestImage
crop (int photo, int x0, int y0, int w, int h, int noise, uint32_t seed)
{
  GcvTestImage img = gcv_test_image_window (&photos[photo], x0, y0, w, h);
  uint32_t st = seed | 1;

  if (noise > 0)
    for (size_t i = 0; i < img.stride * h; i++) {
      int v = img.data[i] + (int) (gcv_test_rand (&st) % (2 * noise + 1)) - noise;
      img.data[i] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
  return img;
}

/* An alpha picture with large 0 / 128 / 255 regions and some other
 * values, cut from another photo so that it has shapes. */
static uint8_t *
alpha_from_photo (int photo, int x0, int y0, int w, int h)
{
  GcvTestImage img = gcv_test_image_window (&photos[photo], x0, y0, w, h);
  uint8_t *a = gcv_test_malloc ((size_t) w * h + 1);

  for (int i = 0; i < w * h; i++) {
    int v = gcv_test_luma_rgb (img.data[3 * i], img.data[3 * i + 1], img.data[3 * i + 2]);
    a[i] = (uint8_t) (v < 50 ? 0 : v > 190 ? 255 : v > 170 ? v : 128);
  }
  gcv_test_image_clear (&img);
  return a;
}

static const char *const energy_short[3] = { "l1", "l2", "fwd" };

static const char *
params_string (const GcvSeamParams *p, char *buf, size_t len)
{
  snprintf (buf, len, "%s %s%s%.0d tc %.2f%s %s", energy_short[p->energy], gcv_seam_mode_name (p->mode),
      p->mode == GCV_SEAM_MODE_FAST ? "/" : "", p->mode == GCV_SEAM_MODE_FAST ? p->seams_per_pass : 0,
      p->temporal_coherence, p->mask_alpha ? " alpha" : "",
      p->order == GCV_SEAM_ORDER_WIDTH_FIRST ? "w-first" : "h-first");
  return buf;
}

/* ---- 1. shared code ---------------------------------------------------------------- */

static void
test_shared (void)
{
  uint32_t st = 12345;
  long bad;

  /* isqrt: every n the energies give, and a spread of larger ones */
  bad = 0;
  for (int n = 0; n <= 2 * 255 * 255 + 1000; n++)
    if (gcv_seam_isqrt (n) != seam_ref_isqrt (n) && bad++ < 3)
      GCV_TEST_CHECK (0, "isqrt(%d) = %d, want %d", n, gcv_seam_isqrt (n), seam_ref_isqrt (n));
  GCV_TEST_CHECK (bad == 0, "isqrt wrong for %ld values up to 2*255^2", bad);
  for (int k = 0; k < 200000; k++) {
    int n = (int) (gcv_test_rand (&st) & 0x7fffffff);
    if (k < 64)
      n = k < 32 ? (k + 1) * (k + 1) * 1000003 % 0x7fffffff : 0x7fffffff - k;
    GCV_TEST_CHECK (gcv_seam_isqrt (n) == seam_ref_isqrt (n), "isqrt(%d) = %d, want %d", n,
        gcv_seam_isqrt (n), seam_ref_isqrt (n));
  }
  {
    int sq[] = { 46340, 46341 };        /* around sqrt (2^31) */
    for (int i = 0; i < 2; i++) {
      long long n = (long long) sq[i] * sq[i] - 1;
      if (n <= 0x7fffffff)
        GCV_TEST_CHECK (gcv_seam_isqrt ((int) n) == sq[i] - 1, "isqrt(%lld) = %d", n,
            gcv_seam_isqrt ((int) n));
    }
  }

  /* pixel energy and forward cost against the definitions */
  for (int k = 0; k < 300000; k++) {
    int l = (int) (gcv_test_rand (&st) >> 24), r = (int) (gcv_test_rand (&st) >> 24);
    int u = (int) (gcv_test_rand (&st) >> 24), d = (int) (gcv_test_rand (&st) >> 24);
    int dx = r - l, dy = d - u, l1 = abs (dx) + abs (dy), l2 = seam_ref_isqrt ((int64_t) dx * dx + dy * dy);
    int cu = abs (r - l);
    if (k < 16) {
      l = k & 1 ? 255 : 0;
      r = k & 2 ? 255 : 0;
      u = k & 4 ? 255 : 0;
      d = k & 8 ? 255 : 0;
      dx = r - l;
      dy = d - u;
      l1 = abs (dx) + abs (dy);
      l2 = seam_ref_isqrt ((int64_t) dx * dx + dy * dy);
      cu = abs (r - l);
    }
    GCV_TEST_CHECK (gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1, l, r, u, d) == l1,
        "l1 energy (%d,%d,%d,%d) = %d, want %d", l, r, u, d,
        gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L1, l, r, u, d), l1);
    GCV_TEST_CHECK (gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L2, l, r, u, d) == l2,
        "l2 energy (%d,%d,%d,%d) = %d, want %d", l, r, u, d,
        gcv_seam_pixel_energy (GCV_SEAM_ENERGY_GRADIENT_L2, l, r, u, d), l2);
    GCV_TEST_CHECK (gcv_seam_forward_cost (0, l, r, u) == cu
        && gcv_seam_forward_cost (-1, l, r, u) == cu + abs (u - l)
        && gcv_seam_forward_cost (1, l, r, u) == cu + abs (u - r),
        "forward costs (l %d, r %d, u %d) = %d %d %d", l, r, u, gcv_seam_forward_cost (-1, l, r, u),
        gcv_seam_forward_cost (0, l, r, u), gcv_seam_forward_cost (1, l, r, u));
  }

  /* luma of every packed layout; alpha bias */
  for (int li = 0; li < SEAM_TEST_N_LAYOUTS; li++) {
    SeamTestLayout l = seam_test_layout (li);
    GcvSeamGeometry g = seam_test_geometry (&l, 4, 4, 4, 4);
    for (int k = 0; k < 2000; k++) {
      uint8_t px[4];
      for (int c = 0; c < 4; c++)
        px[c] = (uint8_t) (gcv_test_rand (&st) >> 24);
      if (k < 8)
        memset (px, k & 1 ? 255 : 0, 4);
      GCV_TEST_CHECK (gcv_seam_luma (px, l.luma.layout, l.luma.r_offset, l.luma.g_offset,
              l.luma.b_offset) == seam_ref_luma (&g, px), "%s luma of %d,%d,%d,%d = %d, want %d",
          l.name, px[0], px[1], px[2], px[3], gcv_seam_luma (px, l.luma.layout, l.luma.r_offset,
              l.luma.g_offset, l.luma.b_offset), seam_ref_luma (&g, px));
      if (l.channels == 4)
        GCV_TEST_CHECK (seam_ref_luma (&g, px) == gcv_test_luma_rgb (px[l.luma.r_offset],
                px[l.luma.g_offset], px[l.luma.b_offset]), "%s: reference luma differs from the kit's",
            l.name);
    }
  }
  for (int a = 0; a < 256; a++)
    GCV_TEST_CHECK (gcv_seam_alpha_bias (a) == (a == 0 ? -GCV_SEAM_ALPHA_BIAS : a == 255
            ? GCV_SEAM_ALPHA_BIAS : 0), "alpha bias(%d) = %d", a, gcv_seam_alpha_bias (a));

  /* temporal weight: round (tc * 64), tc clamped */
  {
    static const struct {
      double tc;
      int t;
    } tw[] = { {0.0, 0}, {1.0, 64}, {0.5, 32}, {0.25, 16}, {1.0 / 128, 1}, {0.0078, 0}, {0.99, 63},
    {0.9921875, 64}, {-1.0, 0}, {2.0, 64} };
    for (size_t i = 0; i < sizeof (tw) / sizeof (tw[0]); i++)
      GCV_TEST_CHECK (gcv_seam_temporal_weight (tw[i].tc) == tw[i].t, "temporal weight(%g) = %d, want %d",
          tw[i].tc, gcv_seam_temporal_weight (tw[i].tc), tw[i].t);
  }
  /* seams per pass; enlargement steps */
  {
    GcvSeamParams p = seam_test_params ();
    p.seams_per_pass = 5;
    for (int left = 1; left < 12; left++) {
      p.mode = GCV_SEAM_MODE_EXACT;
      GCV_TEST_CHECK (gcv_seam_pass_size (&p, left) == 1, "exact pass size(%d) = %d", left,
          gcv_seam_pass_size (&p, left));
      p.mode = GCV_SEAM_MODE_FAST;
      GCV_TEST_CHECK (gcv_seam_pass_size (&p, left) == (left < 5 ? left : 5), "fast/5 pass size(%d) = %d",
          left, gcv_seam_pass_size (&p, left));
    }
    /* a fast pass takes at most GCV_SEAM_FAST_TRIES seams */
    p.mode = GCV_SEAM_MODE_FAST;
    p.seams_per_pass = GCV_SEAM_MAX_PER_PASS;
    GCV_TEST_CHECK (gcv_seam_pass_size (&p, 1000) == GCV_SEAM_FAST_TRIES && gcv_seam_pass_size (&p, 7) == 7,
        "fast/%d pass size(1000) = %d, (7) = %d", GCV_SEAM_MAX_PER_PASS, gcv_seam_pass_size (&p, 1000),
        gcv_seam_pass_size (&p, 7));
    for (int w = 1; w < 40; w++)
      for (int left = 1; left < 50; left += 3) {
        int want = w / 2 > 1 ? w / 2 : 1;
        want = want < left ? want : left;
        GCV_TEST_CHECK (gcv_seam_insert_step (w, left) == want, "insert step(w %d, left %d) = %d, want %d",
            w, left, gcv_seam_insert_step (w, left), want);
      }
  }
  /* fast mode's parent order: every (d, s) pair round trips, the third is
   * the remaining d */
  for (int d = -1; d <= 1; d++)
    for (int sd = -1; sd <= 1; sd++) {
      const int code = gcv_seam_parent_code (d, sd);
      if (sd == d)
        continue;
      GCV_TEST_CHECK (code >= 0 && code < 16 && gcv_seam_parent_step (code, 0) == d
          && gcv_seam_parent_step (code, 1) == sd && gcv_seam_parent_step (code, 2) == -d - sd
          && gcv_seam_parent_step ((int8_t) code, 0) == d, "parent code (%d, %d) = %d: steps %d %d %d", d, sd,
          code, gcv_seam_parent_step (code, 0), gcv_seam_parent_step (code, 1), gcv_seam_parent_step (code, 2));
    }
  /* the plain parent byte (exact mode) reads as its own first step */
  for (int d = -1; d <= 1; d++)
    GCV_TEST_CHECK (gcv_seam_parent_step ((int8_t) d, 0) == d, "plain parent %d read as %d", d,
        gcv_seam_parent_step ((int8_t) d, 0));
  /* the limit: m0 + 3 max (m0, h) / 5 */
  GCV_TEST_CHECK (gcv_seam_fast_limit (1000, 100) == 1600 && gcv_seam_fast_limit (50, 100) == 110
      && gcv_seam_fast_limit (-20000, 1080) == -20000 + 648 && gcv_seam_fast_limit (7, 1) == 11
      && gcv_seam_fast_limit (2000000000, 32767) == 3200000000ll, "fast limits %lld %lld %lld %lld %lld",
      gcv_seam_fast_limit (1000, 100), gcv_seam_fast_limit (50, 100), gcv_seam_fast_limit (-20000, 1080),
      gcv_seam_fast_limit (7, 1), gcv_seam_fast_limit (2000000000, 32767));
  GCV_TEST_CHECK (strcmp (gcv_seam_energy_name (GCV_SEAM_ENERGY_GRADIENT_L1), "gradient-l1") == 0
      && strcmp (gcv_seam_energy_name (GCV_SEAM_ENERGY_GRADIENT_L2), "gradient-l2") == 0
      && strcmp (gcv_seam_energy_name (GCV_SEAM_ENERGY_FORWARD), "forward") == 0
      && strcmp (gcv_seam_energy_name (7), "invalid") == 0
      && strcmp (gcv_seam_mode_name (GCV_SEAM_MODE_EXACT), "exact") == 0
      && strcmp (gcv_seam_mode_name (GCV_SEAM_MODE_FAST), "fast") == 0, "energy / mode names");
}

/* ---- 2. brute force ------------------------------------------------------------------- */

/* One tiny picture: rgb (w x h) with alpha (NULL: GRAY8, no bias); the
 * first width seam and the first height seam of the backend and of the
 * reference against the brute-force minimum. */
static void
brute_case (const char *what, const GcvTestImage *rgb, const uint8_t *alpha, GcvSeamEnergy energy)
{
  const int w = rgb->width, h = rgb->height;
  SeamTestLayout l = seam_test_layout (alpha ? 2 : 0);  /* RGBA or GRAY8 */
  SeamTestFrame in = seam_test_frame_from_rgb (&l, rgb, alpha, 3, 77);
  uint8_t *luma = gcv_test_malloc ((size_t) w * h), *lt = gcv_test_malloc ((size_t) w * h);
  int32_t *bias = gcv_test_malloc (sizeof (int32_t) * w * h), *bt = gcv_test_malloc (sizeof (int32_t) * w * h);
  int *cols = gcv_test_malloc (sizeof (int) * (w > h ? w : h)), *got = gcv_test_malloc (sizeof (int) * (w > h ? w : h));
  GcvSeamParams p = seam_test_params ();

  p.energy = energy;
  p.mask_alpha = alpha != NULL;
  /* the luma and bias the contract defines, written out here */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *s = rgb->data + rgb->stride * y + 3 * x;
      int a = alpha ? alpha[y * w + x] : 128;
      luma[y * w + x] = gcv_test_luma_rgb (s[0], s[1], s[2]);
      bias[y * w + x] = a == 0 ? -16384 : a == 255 ? 16384 : 0;
      lt[x * h + y] = luma[y * w + x];
      bt[x * h + y] = bias[y * w + x];
    }

  for (int dir = 0; dir < 2; dir++) {
    const int W = dir == 0 ? w : h, H = dir == 0 ? h : w;   /* the stage's orientation */
    GcvSeamGeometry g = seam_test_geometry (&l, w, h, dir == 0 ? w - 1 : w, dir == 0 ? h : h - 1);
    GcvPlane mb = mask_plane_new (w, h, 2, 5), mr = mask_plane_new (w, h, 0, 6);
    GcvError err = { GCV_OK, "" };
    GcvSeamCpu *ctx;
    SeamRefState rs;
    int64_t best, cost;
    int ok = 1;

    if (W < 2)
      goto next;
    best = seam_ref_brute_force (dir == 0 ? luma : lt, bias ? (dir == 0 ? bias : bt) : NULL, W, H, energy,
        cols);
    ctx = gcv_seam_cpu_new (&g, &err);
    GCV_TEST_CHECK (ctx != NULL, "%s: _new: %s", what, err.message);
    if (!ctx)
      goto next;
    GCV_TEST_CHECK (gcv_seam_cpu_process (ctx, &p, in.plane, NULL, &mb, 1, &err) == GCV_OK,
        "%s: process: %s", what, err.message);
    gcv_seam_cpu_free (ctx);
    seam_ref_state_init (&rs);
    seam_ref_process (&g, &p, in.plane, NULL, &mr, &rs);
    seam_ref_state_clear (&rs);

    for (int src = 0; src < 2 && ok; src++) {
      const GcvPlane *m = src == 0 ? &mb : &mr;
      for (int i = 0; i < H && ok; i++) {
        int n = 0;
        for (int j = 0; j < W; j++) {
          int bits = dir == 0 ? mask_at (m, j, i) : mask_at (m, i, j);
          if (bits) {
            got[i] = j;
            n++;
          }
        }
        if (n != 1) {
          GCV_TEST_CHECK (0, "%s %s %s: %s stage row %d has %d seam pixels, want 1", what,
              src ? "reference" : "backend", energy_short[energy], dir ? "height" : "width", i, n);
          ok = 0;
        }
      }
      if (!ok)
        break;
      cost = seam_ref_seam_cost (dir == 0 ? luma : lt, dir == 0 ? bias : bt, W, H, energy, got);
      for (int i = 0; i < H; i++)
        if (got[i] != cols[i]) {
          GCV_TEST_CHECK (0, "%s %s %s%s: first %s seam differs from the brute-force minimum at row "
              "%d: column %d (cost %lld), want %d (cost %lld)", what, src ? "reference" : "backend",
              energy_short[energy], alpha ? " alpha" : "", dir ? "height" : "width", i, got[i],
              (long long) cost, cols[i], (long long) best);
          ok = 0;
          break;
        }
      if (ok)
        GCV_TEST_CHECK (cost == best, "%s: seam cost %lld != brute force %lld", what, (long long) cost,
            (long long) best);
    }
  next:
    free (mb.data);
    free (mr.data);
  }
  seam_test_frame_free (&in);
  free (luma);
  free (lt);
  free (bias);
  free (bt);
  free (cols);
  free (got);
}

static void
test_brute_force (void)
{
  static const int sizes[][2] = { {7, 5}, {5, 7}, {6, 6}, {8, 4}, {4, 8}, {9, 3}, {3, 9}, {2, 6}, {6, 2},
  {5, 1}, {1, 5}
  };
  uint32_t st = 4242;

  for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++) {
    const int w = sizes[s][0], h = sizes[s][1];
    for (int src = 0; src < 7; src++) {
      GcvTestImage img;
      char what[96];
      uint8_t *alpha = gcv_test_malloc ((size_t) w * h);
      if (src < 4) {
        /* photo crops; the camera's sky is nearly flat (ties) */
        int ph = src, x0 = (int) (gcv_test_rand (&st) % photos[ph].width);
        int y0 = src == 0 ? 10 + (int) (gcv_test_rand (&st) % 60) : (int) (gcv_test_rand (&st) % photos[ph].height);
        img = crop (ph, x0, y0, w, h, 0, 0);
        snprintf (what, sizeof (what), "%dx%d %s at (%d,%d)", w, h, gcv_test_photos[ph], x0, y0);
      } else {
        img = crop (0, 0, 0, w, h, 0, 0);
        for (size_t i = 0; i < img.stride * h; i += 3) {
          int v = src == 4 ? (int) (gcv_test_rand (&st) >> 24) /* noise */
              : src == 5 ? 90 /* flat: every seam ties */
              : (gcv_test_rand (&st) >> 31) ? 200 : 40;       /* two levels: many ties */
          img.data[i] = img.data[i + 1] = img.data[i + 2] = (uint8_t) v;
        }
        snprintf (what, sizeof (what), "%dx%d %s", w, h, src == 4 ? "noise" : src == 5 ? "flat" : "two-level");
      }
      for (int i = 0; i < w * h; i++) {
        uint32_t r = gcv_test_rand (&st) % 8;
        alpha[i] = (uint8_t) (r == 0 ? 0 : r == 1 ? 255 : r == 2 ? 17 : 128);
      }
      for (int e = 0; e < 3; e++) {
        brute_case (what, &img, NULL, e);
        brute_case (what, &img, alpha, e);
      }
      free (alpha);
      gcv_test_image_clear (&img);
    }
  }
}

/* ---- 3. what a seam does ------------------------------------------------------------------ */

/* Pixel (x, y) of plane p of a frame. */
static const uint8_t *
fpx (const SeamTestFrame *f, int p, int x, int y)
{
  return (const uint8_t *) f->plane[p].data + f->plane[p].stride * y + (size_t) x * f->channels;
}

/* Checks a one-stage change of k seams (k < 0: reduction by -k) along
 * direction dir (0 width, 1 height) against the mask: marks per line,
 * removal keeps the others in order, insertion writes the means. */
static void
check_semantics (const char *what, const SeamTestFrame *in, const SeamTestFrame *out, const GcvPlane *mask,
    int dir, int k)
{
  const int lines = dir == 0 ? in->height : in->width, len = dir == 0 ? in->width : in->height;
  const int nb = in->channels;
  const uint8_t bit = dir == 0 ? GCV_SEAM_MASK_WIDTH : GCV_SEAM_MASK_HEIGHT;
  int bad = 0;

  for (int i = 0; i < lines && bad < 3; i++) {
    int marks = 0, o = 0;
    for (int j = 0; j < len; j++) {
      int x = dir == 0 ? j : i, y = dir == 0 ? i : j;
      uint8_t m = mask_at (mask, x, y);
      if (m & ~bit) {
        GCV_TEST_CHECK (0, "%s: mask (%d,%d) = %d has the other direction's bit", what, x, y, m);
        bad++;
      }
      marks += (m & bit) != 0;
    }
    if (marks != (k < 0 ? -k : k)) {
      GCV_TEST_CHECK (0, "%s: %s %d has %d marks, want %d", what, dir ? "column" : "row", i, marks,
          k < 0 ? -k : k);
      bad++;
      continue;
    }
    for (int j = 0; j < len && !bad; j++) {
      int x = dir == 0 ? j : i, y = dir == 0 ? i : j;
      int marked = (mask_at (mask, x, y) & bit) != 0;
      if (k < 0 && marked)
        continue;
      for (int p = 0; p < in->n_planes; p++) {
        int ox = dir == 0 ? o : i, oy = dir == 0 ? i : o;
        if (memcmp (fpx (out, p, ox, oy), fpx (in, p, x, y), nb) != 0) {
          GCV_TEST_CHECK (0, "%s: output (%d,%d) plane %d is not input (%d,%d)", what, ox, oy, p, x, y);
          bad++;
        }
      }
      o++;
      if (k > 0 && marked) {
        int nx = dir == 0 ? (j + 1 < len ? j + 1 : len - 1) : i, ny = dir == 0 ? i : (j + 1 < len ? j + 1 : len - 1);
        for (int p = 0; p < in->n_planes && !bad; p++) {
          int ox = dir == 0 ? o : i, oy = dir == 0 ? i : o;
          const uint8_t *a = fpx (in, p, x, y), *b = fpx (in, p, nx, ny), *q = fpx (out, p, ox, oy);
          for (int c = 0; c < nb; c++)
            if (q[c] != (a[c] + b[c] + 1) >> 1) {
              GCV_TEST_CHECK (0, "%s: inserted (%d,%d) plane %d channel %d = %d, want (%d + %d + 1) / 2",
                  what, ox, oy, p, c, q[c], a[c], b[c]);
              bad++;
              break;
            }
        }
        o++;
      }
    }
    if (!bad)
      GCV_TEST_CHECK (o == (dir == 0 ? out->width : out->height), "%s: line %d gave %d pixels", what, i, o);
  }
  GCV_TEST_CHECK (bad == 0, "%s: seam semantics broken", what);
}

/* Runs the backend once; returns 0 on success. */
static int
run_backend (const GcvSeamGeometry *g, const GcvSeamParams *p, const SeamTestFrame *in, SeamTestFrame *out,
    GcvPlane *mask, int nt, const char *what)
{
  GcvError err = { GCV_OK, "" };
  GcvSeamCpu *ctx = gcv_seam_cpu_new (g, &err);
  GcvStatus s;

  GCV_TEST_CHECK (ctx != NULL, "%s: _new: %s", what, err.message);
  if (!ctx)
    return -1;
  s = gcv_seam_cpu_process (ctx, p, in->plane, out ? out->plane : NULL, mask, nt, &err);
  GCV_TEST_CHECK (s == GCV_OK, "%s: process: %s", what, err.message);
  gcv_seam_cpu_free (ctx);
  return s == GCV_OK ? 0 : -1;
}

static void
test_semantics (void)
{
  static const int layouts[] = { 0, 1, 2, 4 };
  char what[160];

  for (size_t li = 0; li < 4; li++)
    for (int e = 0; e < 3; e++)
      for (int dir = 0; dir < 2; dir++)
        for (int up = 0; up < 2; up++) {
          SeamTestLayout l = seam_test_layout (layouts[li]);
          const int w = 61, h = 43, k = up ? (dir == 0 ? 25 : 17) : (dir == 0 ? 19 : 13);
          GcvTestImage img = crop ((int) (li + e) % 4, 37 * e, 50 + 11 * dir, w, h, 0, 0);
          SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 5, 9);
          int ow = dir == 0 ? (up ? w + k : w - k) : w, oh = dir == 1 ? (up ? h + k : h - k) : h;
          SeamTestFrame out = seam_test_frame_new (l.n_planes, l.channels, ow, oh, 3, 10);
          GcvPlane mask = mask_plane_new (w, h, 1, 11);
          GcvSeamGeometry g = seam_test_geometry (&l, w, h, ow, oh);
          GcvSeamParams p = seam_test_params ();

          p.energy = e;
          p.mode = (e + dir) % 2 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT;
          p.seams_per_pass = 4;
          snprintf (what, sizeof (what), "semantics %s %s %s %s by %d (%s)", l.name, energy_short[e],
              dir ? "height" : "width", up ? "up" : "down", k, gcv_seam_mode_name (p.mode));
          if (run_backend (&g, &p, &in, &out, &mask, 0, what) == 0)
            check_semantics (what, &in, &out, &mask, dir, up ? k : -k);
          seam_test_frame_free (&in);
          seam_test_frame_free (&out);
          free (mask.data);
          gcv_test_image_clear (&img);
        }
}

/* Passes and seams of one run of the backend with profiling on. */
static int
run_profiled (const GcvSeamGeometry *g, const GcvSeamParams *p, const SeamTestFrame *in, GcvPlane *mask,
    GcvSeamProfile *pr, const char *what)
{
  GcvError err = { GCV_OK, "" };
  GcvSeamCpu *ctx = gcv_seam_cpu_new (g, &err);
  GcvStatus s = GCV_ERROR_INVALID;

  memset (pr, 0, sizeof (*pr));
  if (ctx) {
    gcv_seam_cpu_set_profiling (ctx, 1);
    s = gcv_seam_cpu_process (ctx, p, in->plane, NULL, mask, 0, &err);
    gcv_seam_cpu_profile (ctx, pr);
    gcv_seam_cpu_free (ctx);
  }
  GCV_TEST_CHECK (s == GCV_OK, "%s: %s", what, err.message);
  return s == GCV_OK ? 0 : -1;
}

/* Fast mode: the seams of one pass are disjoint, never cross (the m-th
 * mark of a row and of the next row are at most one column apart), and
 * contain exact mode's seam.  k is the most seams one pass finds on the
 * crop (searched down from GCV_SEAM_FAST_TRIES, the most a pass takes). */
static void
test_fast_disjoint (void)
{
  int multi = 0;

  for (int e = 0; e < 3; e++)
    for (int t = 0; t < 4; t++) {
      const int w = 157 + 10 * t, h = 21 + 9 * t;
      SeamTestLayout l = seam_test_layout (t % 2 ? 2 : 0);
      GcvTestImage img = crop (t, 60 * t + 13 * e, 40 + 30 * e, w, h, 0, 0);
      SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 0, 3);
      GcvPlane mf = mask_plane_new (w, h, 0, 1), me = mask_plane_new (w, h, 0, 2);
      GcvSeamGeometry g1 = seam_test_geometry (&l, w, h, w - 1, h);
      GcvSeamParams p = seam_test_params ();
      GcvSeamProfile pr;
      char what[128];
      int prev[GCV_SEAM_FAST_TRIES], cur[GCV_SEAM_FAST_TRIES];
      int bad = 0, k;

      p.energy = e;
      p.mode = GCV_SEAM_MODE_FAST;
      for (k = GCV_SEAM_FAST_TRIES; k >= 2; k--) {
        GcvSeamGeometry g = seam_test_geometry (&l, w, h, w - k, h);
        p.seams_per_pass = k;
        snprintf (what, sizeof (what), "fast %s %dx%d, %d seams", energy_short[e], w, h, k);
        if (run_profiled (&g, &p, &in, &mf, &pr, what) != 0 || pr.passes == 1)
          break;
      }
      /* the limit may leave a crop without any pass of 2 seams */
      if (k >= 2 && pr.passes == 1 && pr.seams == k)
        multi++;
      else
        k = 0;
      snprintf (what, sizeof (what), "fast %s %dx%d, %d seams in one pass", energy_short[e], w, h, k);
      for (int y = 0; y < h && bad < 2 && k >= 2; y++) {
        int n = 0;
        for (int x = 0; x < w; x++)
          if (mask_at (&mf, x, y)) {
            if (n < k)
              cur[n] = x;
            n++;
          }
        if (n != k) {
          GCV_TEST_CHECK (0, "%s: row %d has %d marks, want %d", what, y, n, k);
          bad++;
          break;
        }
        if (y > 0)
          for (int m = 0; m < k; m++)
            if (abs (cur[m] - prev[m]) > 1) {
              GCV_TEST_CHECK (0, "%s: seam %d jumps from column %d (row %d) to %d", what, m, prev[m], y - 1, cur[m]);
              bad++;
              break;
            }
        memcpy (prev, cur, sizeof (int) * k);
      }
      p.mode = GCV_SEAM_MODE_EXACT;
      if (k >= 2 && run_backend (&g1, &p, &in, NULL, &me, 0, what) == 0)
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++)
            if (mask_at (&me, x, y) && !mask_at (&mf, x, y)) {
              GCV_TEST_CHECK (0, "%s: exact mode's seam pixel (%d,%d) is not in the fast pass", what, x, y);
              y = h;
              bad++;
              break;
            }
      GCV_TEST_CHECK (bad == 0, "%s: the seams of one pass are not disjoint and apart", what);
      if (e == 0)
        printf ("  %s\n", what);
      free (mf.data);
      free (me.data);
      seam_test_frame_free (&in);
      gcv_test_image_clear (&img);
    }
  GCV_TEST_CHECK (multi >= 6, "only %d of 12 crops had a fast pass of 2 seams or more", multi);
  printf ("  %d of 12 crops: one fast pass took 2 or more disjoint seams\n", multi);
}

/* gradient-l1 of the photo's luma (replicate border) summed over the
 * pixels a width seam took, and the number of such pixels. */
static int64_t
removed_energy (const GcvTestImage *img, const GcvPlane *mask, int64_t *count)
{
  uint8_t *L = gcv_test_image_luma (img);
  const int w = img->width, h = img->height;
  int64_t sum = 0;

  *count = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (mask_at (mask, x, y) & GCV_SEAM_MASK_WIDTH) {
        const int l = L[(size_t) y * w + (x > 0 ? x - 1 : 0)], r = L[(size_t) y * w + (x < w - 1 ? x + 1 : w - 1)];
        const int u = L[(size_t) (y > 0 ? y - 1 : 0) * w + x], d = L[(size_t) (y < h - 1 ? y + 1 : h - 1) * w + x];
        sum += abs (r - l) + abs (d - u);
        (*count)++;
      }
  free (L);
  return sum;
}

/* Fast mode on the photos (issue 20's measure): a 10 % and a 25 % width
 * reduction of each photo removes at most 10 % more gradient energy (of
 * the input) than exact mode, with every seam asked for (k marks a row),
 * and a seam map gives several seams: at seams_per_pass 16 at least 3.5
 * on average (the previous fast mode, one seam per tree of the parents'
 * forest, found 1.2 to 3 there). */
static void
test_fast_photos (void)
{
  static const int spp[] = { 4, 8, 16, 32 };
  SeamTestLayout l = seam_test_layout (2);
  double worst = 0, least_per_map = 1e9;

  for (int ph = 0; ph < 4; ph++) {
    const GcvTestImage *img = &photos[ph];
    const int w = img->width, h = img->height;
    SeamTestFrame in = seam_test_frame_from_rgb (&l, img, NULL, 0, 11);
    GcvPlane mask = mask_plane_new (w, h, 0, 4);

    for (int red = 10; red <= 25; red += 15) {
      const int k = (w * red + 50) / 100;
      GcvSeamGeometry g = seam_test_geometry (&l, w, h, w - k, h);
      GcvSeamParams p = seam_test_params ();
      GcvSeamProfile pr;
      int64_t exact, n;
      char what[128];

      snprintf (what, sizeof (what), "%s %dx%d -%d%%, exact", gcv_test_photos[ph], w, h, red);
      if (run_profiled (&g, &p, &in, &mask, &pr, what) != 0)
        continue;
      exact = removed_energy (img, &mask, &n);
      GCV_TEST_CHECK (n == (int64_t) k * h && pr.passes == k, "%s: %lld marks in %d passes, want %d in %d", what,
          (long long) n, pr.passes, k * h, k);
      for (size_t i = 0; i < sizeof (spp) / sizeof (spp[0]); i++) {
        int64_t fast;
        double ratio, per_map;
        p.mode = GCV_SEAM_MODE_FAST;
        p.seams_per_pass = spp[i];
        snprintf (what, sizeof (what), "%s %dx%d -%d%%, fast/%d", gcv_test_photos[ph], w, h, red, spp[i]);
        if (run_profiled (&g, &p, &in, &mask, &pr, what) != 0)
          continue;
        fast = removed_energy (img, &mask, &n);
        ratio = (double) fast / (double) exact;
        per_map = (double) pr.seams / pr.passes;
        GCV_TEST_CHECK (n == (int64_t) k * h && pr.seams == k, "%s: %lld marks, %d seams, want %d, %d", what,
            (long long) n, pr.seams, k * h, k);
        for (int y = 0; y < h; y++) {
          int c = 0;
          for (int x = 0; x < w; x++)
            c += (mask_at (&mask, x, y) & GCV_SEAM_MASK_WIDTH) != 0;
          if (c != k) {
            GCV_TEST_CHECK (0, "%s: row %d has %d marks, want %d", what, y, c, k);
            break;
          }
        }
        GCV_TEST_CHECK (ratio <= 1.10, "%s: removes %.4f x exact mode's energy (%lld / %lld)", what, ratio,
            (long long) fast, (long long) exact);
        GCV_TEST_CHECK (pr.passes >= (k + spp[i] - 1) / spp[i], "%s: %d passes for %d seams at most %d a pass",
            what, pr.passes, k, spp[i]);
        if (spp[i] == 16) {
          GCV_TEST_CHECK (per_map >= 3.5, "%s: %.2f seams per seam map", what, per_map);
          least_per_map = per_map < least_per_map ? per_map : least_per_map;
        }
        worst = ratio > worst ? ratio : worst;
      }
    }
    free (mask.data);
    seam_test_frame_free (&in);
  }
  printf ("  fast / exact removed energy at most %.4f; at 16 seams per pass at least %.2f seams per seam map\n",
      worst, least_per_map);
}

/* ---- 4. backend against the reference --------------------------------------------------- */

typedef SeamTestCase Case;

static long n_cases_run;

static void
run_case (const Case *c)
{
  SeamTestLayout l = seam_test_layout (c->layout);
  GcvSeamGeometry g = seam_test_geometry (&l, c->in_w, c->in_h, c->out_w, c->out_h);
  GcvSeamParams p = c->p;
  GcvError err = { GCV_OK, "" };
  GcvSeamCpu *ctx = gcv_seam_cpu_new (&g, &err);
  SeamRefState rs;
  char what[256], ps[96];

  n_cases_run++;
  snprintf (what, sizeof (what), "%s %s %dx%d -> %dx%d, %s, pad %zu, %d frame(s)%s",
      gcv_test_photos[c->photo], l.name, c->in_w, c->in_h, c->out_w, c->out_h, params_string (&p, ps, sizeof (ps)),
      c->pad, c->frames, c->want_out && c->want_mask ? "" : c->want_out ? ", output only" : ", mask only");
  GCV_TEST_CHECK (ctx != NULL, "%s: _new: %s", what, err.message);
  if (!ctx)
    return;
  seam_ref_state_init (&rs);
  for (int f = 0; f < c->frames; f++) {
    const int photo = c->cut_at >= 0 && f >= c->cut_at ? (c->photo + 2) % 4 : c->photo;
    GcvTestImage img = crop (photo, c->x0 + f * c->pan, c->y0, c->in_w, c->in_h, c->frames > 1 ? 2 : 0,
        (uint32_t) (f * 7919 + c->photo));
    uint8_t *alpha = alpha_from_photo ((c->photo + 1) % 4, c->x0 + 3 * f, c->y0 + 50, c->in_w, c->in_h);
    SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, alpha, c->pad, (uint32_t) (100 + f));
    SeamTestFrame ob = seam_test_frame_new (l.n_planes, l.channels, c->out_w, c->out_h, c->pad + 1, 200);
    SeamTestFrame orf = seam_test_frame_new (l.n_planes, l.channels, c->out_w, c->out_h, 0, 201);
    GcvPlane mb = mask_plane_new (c->in_w, c->in_h, c->pad + 2, 300), mr = mask_plane_new (c->in_w, c->in_h, 0, 301);
    GcvStatus s;
    int pl, x, y;
    long nd;

    if (f == c->switch_order_at)
      p.order = p.order == GCV_SEAM_ORDER_WIDTH_FIRST ? GCV_SEAM_ORDER_HEIGHT_FIRST : GCV_SEAM_ORDER_WIDTH_FIRST;
    if (f == c->reset_at) {
      gcv_seam_cpu_reset (ctx);
      seam_ref_state_clear (&rs);
    }
    s = gcv_seam_cpu_process (ctx, &p, in.plane, c->want_out ? ob.plane : NULL, c->want_mask ? &mb : NULL,
        c->n_threads, &err);
    GCV_TEST_CHECK (s == GCV_OK, "%s frame %d: process: %s", what, f, err.message);
    GCV_TEST_CHECK (seam_ref_process (&g, &p, in.plane, orf.plane, &mr, &rs) == 0, "%s: reference refused", what);
    if (s == GCV_OK) {
      if (c->want_out) {
        nd = seam_test_frame_diff (&ob, &orf, &pl, &x, &y);
        GCV_TEST_CHECK (nd == 0, "%s frame %d: %ld output bytes differ from the reference, first at (%d,%d) plane %d",
            what, f, nd, x, y, pl);
        GCV_TEST_CHECK (seam_test_padding_intact (&ob, 200), "%s frame %d: output padding written", what, f);
      }
      if (c->want_mask) {
        GCV_TEST_CHECK (masks_equal (&mb, &mr, c->in_w, c->in_h, &x, &y),
            "%s frame %d: mask differs from the reference at (%d,%d): %d, want %d", what, f, x, y,
            mask_at (&mb, x, y), mask_at (&mr, x, y));
        GCV_TEST_CHECK (mask_padding_intact (&mb, 300), "%s frame %d: mask padding written", what, f);
      }
    }
    seam_test_frame_free (&in);
    seam_test_frame_free (&ob);
    seam_test_frame_free (&orf);
    free (mb.data);
    free (mr.data);
    free (alpha);
    gcv_test_image_clear (&img);
  }
  seam_ref_state_clear (&rs);
  gcv_seam_cpu_free (ctx);
}

static void
test_against_reference (void)
{
  /* the size changes: width / height / both, down / up / mixed, multi-step */
  static const int shapes[][4] = {
    {53, 41, 40, 41}, {53, 41, 53, 29}, {53, 41, 37, 30}, {29, 23, 47, 23}, {29, 23, 29, 51},
    {31, 27, 58, 40}, {45, 33, 30, 50}, {45, 33, 70, 21},
  };
  static const int layouts[] = { 0, 2, 1, 3, 4, 5, 6, 7 };
  int n = 0;

  /* every energy x mode x order x shape, layouts and photos rotating */
  for (int e = 0; e < 3; e++)
    for (int m = 0; m < 3; m++)
      for (int o = 0; o < 2; o++)
        for (size_t s = 0; s < sizeof (shapes) / sizeof (shapes[0]); s++, n++) {
          Case c = seam_test_case_make (n % 4, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], layouts[n % 8], e,
              m == 0 ? GCV_SEAM_MODE_EXACT : GCV_SEAM_MODE_FAST, m == 1 ? 3 : 16, o);
          c.pad = (size_t) (n % 3) * 7;
          c.p.mask_alpha = (n / 8) % 2;
          c.n_threads = n % 3;
          run_case (&c);
        }

  /* every layout with alpha on and off, padded, on a larger crop */
  for (int li = 0; li < SEAM_TEST_N_LAYOUTS; li++)
    for (int a = 0; a < 2; a++) {
      Case c = seam_test_case_make (li % 4, 121, 87, 96, 70, li, li % 3, a ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 5,
          li % 2);
      c.p.mask_alpha = a;
      c.pad = 13;
      run_case (&c);
    }

  /* the smallest outputs and inputs */
  {
    static const int tiny[][4] = {
      {37, 23, 1, 23}, {37, 23, 2, 23}, {37, 23, 37, 1}, {37, 23, 37, 2}, {37, 23, 1, 1}, {37, 23, 2, 2},
      {1, 40, 3, 40}, {1, 40, 1, 20}, {1, 40, 5, 13}, {40, 1, 20, 1}, {40, 1, 40, 3}, {40, 1, 13, 5},
      {1, 1, 1, 3}, {1, 1, 4, 1}, {1, 1, 3, 4}, {2, 2, 1, 1}, {2, 3, 5, 7}, {3, 2, 1, 9},
    };
    for (size_t t = 0; t < sizeof (tiny) / sizeof (tiny[0]); t++)
      for (int e = 0; e < 3; e++) {
        Case c = seam_test_case_make ((int) (t + e) % 4, tiny[t][0], tiny[t][1], tiny[t][2], tiny[t][3], (int) (t + e) % 8, e,
            t % 2 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 2, (t / 2) % 2);
        c.pad = t % 2 ? 3 : 0;
        c.p.mask_alpha = (int) (t % 3 == 0);
        run_case (&c);
      }
  }

  /* clips: temporal coherence with the state carried */
  for (int k = 0; k < 24; k++) {
    /* slow and fast pans, a scene cut, strong and weak coherence: seams
     * that stay, and seams that must go further than the penalty's range */
    static const int sh[][4] = { {64, 48, 50, 48}, {64, 48, 64, 36}, {64, 48, 52, 37}, {40, 30, 55, 38} };
    static const int pans[] = { 1, 6, 13 };
    static const double tcs[] = { 1.0, 0.5, 0.1, 0.05, 0.3 };
    Case c = seam_test_case_make (k % 4, sh[k % 4][0], sh[k % 4][1], sh[k % 4][2], sh[k % 4][3], (k * 3) % 8, k % 3,
        k % 2 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 4, (k / 2) % 2);
    c.frames = 4;
    c.pan = pans[k % 3];
    c.p.temporal_coherence = tcs[k % 5];
    if (k % 7 == 5)
      c.cut_at = 2;
    c.p.mask_alpha = k % 5 == 0;
    c.pad = (size_t) k % 4;
    if (k % 4 == 3)
      c.switch_order_at = 2;
    if (k % 6 == 1)
      c.reset_at = 2;
    run_case (&c);
  }

  /* clips with few seams in wide pictures: the previous seams are far
   * apart, so the penalty's cap at GCV_SEAM_TEMPORAL_RANGE matters */
  for (int k = 0; k < 6; k++) {
    Case c = k % 2 ? seam_test_case_make (k % 4, 37, 131, 37, 127, 2 + k, k % 3, GCV_SEAM_MODE_EXACT, 1, k % 2)
        : seam_test_case_make (k % 4, 131, 37, 127, 37, k, k % 3, k % 4 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 2, 0);
    c.frames = 5;
    c.pan = 3 + k;
    c.p.temporal_coherence = 0.05 + 0.1 * k;
    c.cut_at = k % 3 == 0 ? -1 : 1 + k % 3;
    run_case (&c);
  }

  /* clips removing 1 .. 4 seams with a weak penalty: seams wander, and
   * whether they take a pixel 7 or 8 columns from last frame's depends on
   * the cap */
  for (int k = 0; k < 36; k++) {
    int W = 40 + 7 * (k % 9), H = 30 + 5 * (k % 7);
    Case c = seam_test_case_make (k % 4, W, H, W - 1 - k % 4, H - (k % 3 == 0 ? 2 : 0), k % 8, k % 3, k % 2, 2, k % 2);
    c.frames = 6;
    c.pan = k % 5;
    c.p.temporal_coherence = 0.02 * (1 + k % 12);
    c.cut_at = k % 4 == 0 ? 3 : -1;
    run_case (&c);
  }

  /* output only, mask only */
  for (int k = 0; k < 4; k++) {
    Case c = seam_test_case_make (k, 47, 39, k % 2 ? 60 : 30, k < 2 ? 25 : 39, k * 2, k % 3, GCV_SEAM_MODE_FAST, 3, k % 2);
    c.want_out = k % 2 == 0;
    c.want_mask = !c.want_out;
    c.frames = 2;
    c.pan = 2;
    c.p.temporal_coherence = 0.3;
    run_case (&c);
  }

  /* larger crops, both stages: the threaded loops run (rows x columns
   * past the backend's threshold) */
  {
    Case c = seam_test_case_make (1, 241, 163, 190, 140, 2, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_EXACT, 1, 0);
    c.p.mask_alpha = 1;
    run_case (&c);
    c = seam_test_case_make (2, 233, 171, 290, 150, 0, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_FAST, 20, 1);
    c.pad = 5;
    run_case (&c);
    c = seam_test_case_make (3, 180, 131, 100, 200, 1, GCV_SEAM_ENERGY_GRADIENT_L2, GCV_SEAM_MODE_FAST,
        GCV_SEAM_MAX_PER_PASS, 0);
    run_case (&c);
    if (!quick) {
      c = seam_test_case_make (0, 320, 240, 290, 215, 2, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_EXACT, 1, 0);
      c.p.mask_alpha = 1;
      c.frames = 2;
      c.pan = 2;
      c.p.temporal_coherence = 0.5;
      run_case (&c);
      c = seam_test_case_make (1, 300, 200, 240, 200, 0, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST, 8, 0);
      c.frames = 3;
      c.pan = 1;
      c.p.temporal_coherence = 1.0;
      c.n_threads = 2;
      run_case (&c);
      c = seam_test_case_make (2, 257, 190, 257, 150, 1, GCV_SEAM_ENERGY_GRADIENT_L2, GCV_SEAM_MODE_EXACT, 1, 1);
      c.pad = 9;
      run_case (&c);
      c = seam_test_case_make (3, 280, 170, 380, 230, 7, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_FAST, 16, 1);
      c.frames = 2;
      c.p.temporal_coherence = 0.2;
      run_case (&c);
      c = seam_test_case_make (0, 200, 260, 150, 300, 5, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST,
          GCV_SEAM_MAX_PER_PASS, 0);
      c.p.mask_alpha = 1;
      run_case (&c);
      /* past the threshold of the per-pass threads (banded removal) */
      c = seam_test_case_make (2, 421, 331, 405, 320, 2, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_EXACT, 1, 0);
      c.p.mask_alpha = 1;
      c.n_threads = 2;
      run_case (&c);
      c = seam_test_case_make (3, 367, 401, 340, 390, 0, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST, 6, 1);
      c.n_threads = 3;
      c.frames = 2;
      c.p.temporal_coherence = 0.4;
      run_case (&c);
    }
  }
}

static void
test_random_cases (void)
{
  uint32_t st = 777;
  const int n = quick ? 20 : 200;

  for (int k = 0; k < n; k++) {
    int in_w = 1 + (int) (gcv_test_rand (&st) % 70), in_h = 1 + (int) (gcv_test_rand (&st) % 60);
    int out_w = 1 + (int) (gcv_test_rand (&st) % (uint32_t) (2 * in_w + 3));
    int out_h = 1 + (int) (gcv_test_rand (&st) % (uint32_t) (2 * in_h + 3));
    Case c;
    if (gcv_test_rand (&st) % 3 == 0)
      out_w = in_w;
    else if (gcv_test_rand (&st) % 3 == 0)
      out_h = in_h;
    c = seam_test_case_make ((int) (gcv_test_rand (&st) % 4), in_w, in_h, out_w, out_h, (int) (gcv_test_rand (&st) % 8),
        (int) (gcv_test_rand (&st) % 3), (int) (gcv_test_rand (&st) % 2), 1 + (int) (gcv_test_rand (&st) % 9),
        (int) (gcv_test_rand (&st) % 2));
    c.x0 = (int) (gcv_test_rand (&st) % 600);
    c.y0 = (int) (gcv_test_rand (&st) % 600);
    c.pad = gcv_test_rand (&st) % 9;
    c.p.mask_alpha = (int) (gcv_test_rand (&st) % 2);
    c.frames = 1 + (int) (gcv_test_rand (&st) % 3);
    c.pan = (int) (gcv_test_rand (&st) % 3);
    c.p.temporal_coherence = (gcv_test_rand (&st) % 4) / 3.0;
    c.n_threads = (int) (gcv_test_rand (&st) % 3);
    run_case (&c);
  }
}

/* ---- 5. the alpha mask ------------------------------------------------------------------------ */

static void
test_alpha_mask (void)
{
  /* a cup of coffee (alpha 255) in a 50 % narrower picture */
  const int w = 300, h = 200, ox0 = 95, ox1 = 185, oy0 = 40, oy1 = 160;
  GcvTestImage img = crop (2, 150, 100, w, h, 0, 0);
  uint8_t *alpha = gcv_test_malloc ((size_t) w * h);
  SeamTestLayout l = seam_test_layout (3);      /* BGRA */
  SeamTestFrame in, out;
  GcvPlane mask = mask_plane_new (w, h, 0, 1);
  GcvSeamGeometry g = seam_test_geometry (&l, w, h, w / 2, h);
  GcvSeamParams p = seam_test_params ();
  int bad = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      alpha[y * w + x] = x >= ox0 && x < ox1 && y >= oy0 && y < oy1 ? 255 : 128;
  in = seam_test_frame_from_rgb (&l, &img, alpha, 7, 2);
  out = seam_test_frame_new (1, 4, w / 2, h, 0, 3);
  p.mask_alpha = 1;
  p.energy = GCV_SEAM_ENERGY_FORWARD;
  if (run_backend (&g, &p, &in, &out, &mask, 0, "alpha object") == 0) {
    for (int y = oy0; y < oy1 && bad < 3; y++) {
      int removed_left = 0;
      for (int x = 0; x < ox0; x++)
        removed_left += mask_at (&mask, x, y) != 0;
      for (int x = ox0; x < ox1; x++)
        if (mask_at (&mask, x, y)) {
          GCV_TEST_CHECK (0, "alpha object: seam through protected pixel (%d,%d)", x, y);
          bad++;
          break;
        }
      if (memcmp (fpx (&out, 0, ox0 - removed_left, y), fpx (&in, 0, ox0, y), (size_t) 4 * (ox1 - ox0)) != 0) {
        GCV_TEST_CHECK (0, "alpha object: row %d of the object is not contiguous and unchanged in the output", y);
        bad++;
      }
    }
    GCV_TEST_CHECK (bad == 0, "alpha object damaged");
  }
  /* the same without mask_alpha does cut into the cup (so the test can tell) */
  p.mask_alpha = 0;
  if (run_backend (&g, &p, &in, &out, &mask, 0, "alpha object, mask off") == 0) {
    long inside = 0;
    for (int y = oy0; y < oy1; y++)
      for (int x = ox0; x < ox1; x++)
        inside += mask_at (&mask, x, y) != 0;
    GCV_TEST_CHECK (inside > 0, "without mask_alpha no seam crosses the object: the protection test proves nothing");
  }
  seam_test_frame_free (&in);
  seam_test_frame_free (&out);

  /* an alpha-0 band, 12 wide, wandering by a column now and then: removing
   * 12 seams takes exactly the band */
  for (int e = 0; e < 3; e++) {
    int band = 12, wrong = 0;
    g = seam_test_geometry (&l, w, h, w - band, h);
    for (int y = 0; y < h; y++) {
      int k = (y / 9) % 6, b0 = 200 + (k < 4 ? k : 6 - k);     /* 0 1 2 3 2 1 0 ...: connected */
      for (int x = 0; x < w; x++)
        alpha[y * w + x] = x >= b0 && x < b0 + band ? 0 : (x * 7 + y) % 3 ? 128 : 255;
    }
    in = seam_test_frame_from_rgb (&l, &img, alpha, 0, 4);
    p.mask_alpha = 1;
    p.energy = e;
    if (run_backend (&g, &p, &in, NULL, &mask, 0, "alpha-0 band") == 0)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          wrong += (mask_at (&mask, x, y) != 0) != (alpha[y * w + x] == 0);
    GCV_TEST_CHECK (wrong == 0, "alpha-0 band (%s): %d pixels where the mask is not the band", energy_short[e], wrong);
    seam_test_frame_free (&in);
  }
  free (mask.data);
  free (alpha);
  gcv_test_image_clear (&img);
}

/* ---- 6. temporal coherence ------------------------------------------------------------------- */

/* Mean over frames 1.. of the distance from each seam pixel to the nearest
 * seam pixel of the previous frame in its row; `pan` compensates the
 * camera's motion (content x of frame f is x + pan * f). */
static double
seam_motion (uint8_t *const *masks, int frames, int w, int h, int pan)
{
  double sum = 0.0;
  long n = 0;

  for (int f = 1; f < frames; f++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int best = w;
        if (!masks[f][y * w + x])
          continue;
        for (int x2 = 0; x2 < w; x2++)
          if (masks[f - 1][y * w + x2]) {
            int d = abs ((x + pan * f) - (x2 + pan * (f - 1)));
            best = d < best ? d : best;
          }
        sum += best;
        n++;
      }
  return n ? sum / n : 0.0;
}

static void
test_temporal (void)
{
  const int w = 200, h = 150, frames = 24, k = 40;
  SeamTestLayout l = seam_test_layout (0);
  GcvSeamGeometry g = seam_test_geometry (&l, w, h, w - k, h);
  double motion[2], raw[2];

  for (int t = 0; t < 2; t++) {
    GcvError err = { GCV_OK, "" };
    GcvSeamCpu *ctx = gcv_seam_cpu_new (&g, &err);
    GcvSeamParams p = seam_test_params ();
    uint8_t *masks[24];

    p.temporal_coherence = t;
    GCV_TEST_CHECK (ctx != NULL, "temporal: _new: %s", err.message);
    if (!ctx)
      return;
    for (int f = 0; f < frames; f++) {
      /* camera.png: the pan runs over the sky, the man and the grass */
      GcvTestImage img = crop (0, 150 + f, 60, w, h, 3, (uint32_t) (f * 31 + 5));
      SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 0, 1);
      GcvPlane m = { NULL, w, h, (size_t) w };
      masks[f] = gcv_test_malloc ((size_t) w * h);
      m.data = masks[f];
      GCV_TEST_CHECK (gcv_seam_cpu_process (ctx, &p, in.plane, NULL, &m, 0, &err) == GCV_OK, "temporal: %s",
          err.message);
      seam_test_frame_free (&in);
      gcv_test_image_clear (&img);
    }
    motion[t] = seam_motion (masks, frames, w, h, 1);
    raw[t] = seam_motion (masks, frames, w, h, 0);
    for (int f = 0; f < frames; f++)
      free (masks[f]);
    gcv_seam_cpu_free (ctx);
  }
  printf ("temporal coherence: mean seam motion per frame (pan-compensated) %.3f px without, %.3f px with "
      "(%.0f %% less); uncompensated %.3f / %.3f px\n", motion[0], motion[1],
      motion[0] > 0 ? 100.0 * (1.0 - motion[1] / motion[0]) : 0.0, raw[0], raw[1]);
  GCV_TEST_CHECK (motion[1] <= 0.7 * motion[0], "temporal coherence 1 moves seams %.3f px/frame, coherence 0 "
      "%.3f: want at least 30 %% less", motion[1], motion[0]);
}

/* ---- 7. threads, reset, profiling ------------------------------------------------------------ */

static void
test_threads_reset_profile (void)
{
  SeamTestLayout l = seam_test_layout (2);
  const int w = 431, h = 337;   /* past every threading threshold of the backend */
  GcvSeamGeometry g = seam_test_geometry (&l, w, h, 380, 360);
  GcvSeamParams p = seam_test_params ();
  SeamTestFrame in[3], out[3];
  GcvPlane mask[3];
  GcvError err = { GCV_OK, "" };

  p.mode = GCV_SEAM_MODE_FAST;
  p.seams_per_pass = 7;
  p.temporal_coherence = 0.75;
  p.mask_alpha = 1;
  for (int f = 0; f < 3; f++) {
    GcvTestImage img = crop (3, 100 + 4 * f, 90, w, h, 2, (uint32_t) f + 1);
    uint8_t *alpha = alpha_from_photo (1, 10 + f, 10, w, h);
    in[f] = seam_test_frame_from_rgb (&l, &img, alpha, 3, (uint32_t) f);
    free (alpha);
    gcv_test_image_clear (&img);
  }

  /* n_threads 1, 2, 0: the same frames and masks, with the state carried */
  for (int t = 0; t < 3; t++) {
    GcvSeamCpu *ctx = gcv_seam_cpu_new (&g, &err);
    GCV_TEST_CHECK (ctx != NULL, "threads: _new: %s", err.message);
    if (!ctx)
      return;
    for (int f = 0; f < 3; f++) {
      SeamTestFrame o = seam_test_frame_new (1, 4, 380, 360, 0, 1);
      GcvPlane m = mask_plane_new (w, h, 0, 2);
      GCV_TEST_CHECK (gcv_seam_cpu_process (ctx, &p, in[f].plane, o.plane, &m, t == 2 ? 0 : t + 1, &err) == GCV_OK,
          "threads %d: %s", t, err.message);
      if (t == 0) {
        out[f] = o;
        mask[f] = m;
      } else {
        int pl, x, y;
        GCV_TEST_CHECK (seam_test_frame_diff (&o, &out[f], &pl, &x, &y) == 0,
            "n_threads %d frame %d differs from 1 thread at (%d,%d)", t == 2 ? 0 : 2, f, x, y);
        GCV_TEST_CHECK (masks_equal (&m, &mask[f], w, h, &x, &y), "n_threads %d frame %d: mask differs at (%d,%d)",
            t == 2 ? 0 : 2, f, x, y);
        seam_test_frame_free (&o);
        free (m.data);
      }
    }
    gcv_seam_cpu_free (ctx);
  }

  /* _reset: frame 2 after a reset is frame 2 of a fresh context */
  {
    GcvSeamCpu *a = gcv_seam_cpu_new (&g, &err), *b = gcv_seam_cpu_new (&g, &err);
    SeamTestFrame oa = seam_test_frame_new (1, 4, 380, 360, 0, 1), ob = seam_test_frame_new (1, 4, 380, 360, 0, 1);
    GcvPlane ma = mask_plane_new (w, h, 0, 2), mb = mask_plane_new (w, h, 0, 2);
    int pl, x, y, differs = 0;
    if (a && b) {
      gcv_seam_cpu_process (a, &p, in[0].plane, oa.plane, &ma, 0, &err);
      gcv_seam_cpu_process (a, &p, in[1].plane, oa.plane, &ma, 0, &err);
      /* without a reset frame 2 depends on frame 1 ... */
      gcv_seam_cpu_process (a, &p, in[2].plane, oa.plane, &ma, 0, &err);
      gcv_seam_cpu_process (b, &p, in[2].plane, ob.plane, &mb, 0, &err);
      differs = !masks_equal (&ma, &mb, w, h, &x, &y);
      GCV_TEST_CHECK (differs, "temporal state made no difference to frame 2 (the reset test proves nothing)");
      /* ... and after one it does not */
      gcv_seam_cpu_reset (a);
      gcv_seam_cpu_process (a, &p, in[2].plane, oa.plane, &ma, 0, &err);
      GCV_TEST_CHECK (seam_test_frame_diff (&oa, &ob, &pl, &x, &y) == 0 && masks_equal (&ma, &mb, w, h, &x, &y),
          "after _reset frame 2 differs from a fresh context's");
    }
    gcv_seam_cpu_free (a);
    gcv_seam_cpu_free (b);
    seam_test_frame_free (&oa);
    seam_test_frame_free (&ob);
    free (ma.data);
    free (mb.data);
  }

  /* profiling: passes and seams */
  {
    static const struct {
      int out_w, out_h, mode, spp, seams, passes;       /* passes -1: at most seams */
    } pc[] = {
      {420, 337, GCV_SEAM_MODE_EXACT, 1, 11, 11}, {431, 324, GCV_SEAM_MODE_EXACT, 1, 13, 13},
      {420, 324, GCV_SEAM_MODE_EXACT, 1, 24, 24}, {431 + 100, 337, GCV_SEAM_MODE_EXACT, 1, 100, 100},
      {320, 337, GCV_SEAM_MODE_FAST, 16, 111, -1}, {431, 337 + 150, GCV_SEAM_MODE_FAST, GCV_SEAM_MAX_PER_PASS, 150, -1},
    };
    for (size_t i = 0; i < sizeof (pc) / sizeof (pc[0]); i++) {
      GcvSeamGeometry g2 = seam_test_geometry (&l, w, h, pc[i].out_w, pc[i].out_h);
      GcvSeamCpu *ctx = gcv_seam_cpu_new (&g2, &err);
      SeamTestFrame o = seam_test_frame_new (1, 4, pc[i].out_w, pc[i].out_h, 0, 1);
      GcvSeamParams q = seam_test_params ();
      GcvSeamProfile pr;
      double t0, wall;
      if (!ctx) {
        GCV_TEST_CHECK (0, "profile: _new: %s", err.message);
        continue;
      }
      q.mode = pc[i].mode;
      q.seams_per_pass = pc[i].spp;
      gcv_seam_cpu_set_profiling (ctx, 1);
      t0 = gcv_test_now_s ();
      gcv_seam_cpu_process (ctx, &q, in[0].plane, o.plane, NULL, 0, &err);
      wall = (gcv_test_now_s () - t0) * 1e3;
      gcv_seam_cpu_profile (ctx, &pr);
      GCV_TEST_CHECK (pr.seams == pc[i].seams, "profile %zu: %d seams, want %d", i, pr.seams, pc[i].seams);
      GCV_TEST_CHECK (pc[i].passes >= 0 ? pr.passes == pc[i].passes : pr.passes >= 1 && pr.passes < pc[i].seams,
          "profile %zu: %d passes (%d seams)", i, pr.passes, pr.seams);
      GCV_TEST_CHECK (pr.energy_ms >= 0 && pr.seam_map_ms > 0 && pr.backtrack_ms >= 0 && pr.carve_ms > 0
          && pr.energy_ms + pr.seam_map_ms + pr.backtrack_ms + pr.carve_ms <= wall * 1.05 + 0.5,
          "profile %zu: phases %.3f + %.3f + %.3f + %.3f ms, wall %.3f ms", i, pr.energy_ms, pr.seam_map_ms,
          pr.backtrack_ms, pr.carve_ms, wall);
      gcv_seam_cpu_free (ctx);
      seam_test_frame_free (&o);
    }
  }
  for (int f = 0; f < 3; f++) {
    seam_test_frame_free (&in[f]);
    seam_test_frame_free (&out[f]);
    free (mask[f].data);
  }
}

/* ---- 8. errors ------------------------------------------------------------------------------------- */

static void
check_msg (const char *what, const char *msg, const char *needle)
{
  GCV_TEST_CHECK (msg != NULL && strstr (msg, needle) != NULL, "%s: message \"%s\" does not name \"%s\"", what,
      msg ? msg : "(accepted)", needle);
}

static void
test_errors (void)
{
  SeamTestLayout gray = seam_test_layout (0), rgba = seam_test_layout (2);
  GcvSeamGeometry g;
  GcvSeamParams p;
  GcvError err;
  struct {
    GcvSeamGeometry g;
    const char *needle;
  } bad_geom[16];
  int n = 0;

  /* geometries */
#define BADG(field, value, why) do { g = seam_test_geometry (&rgba, 40, 30, 20, 30); g.field = value; \
    bad_geom[n].g = g; bad_geom[n].needle = why; n++; } while (0)
  BADG (in_width, 0, "0x30");
  BADG (in_height, 32768, "32768");
  BADG (out_width, 0, "0x30");
  BADG (out_height, 32768, "32768");
  BADG (out_width, -5, "-5");
  BADG (n_planes, 0, "0 planes");
  BADG (n_planes, 4, "4 planes");
  BADG (channels, 3, "3 channels");
  BADG (alpha_channel, 0, "alpha channel 0");    /* R of RGBA */
  BADG (alpha_channel, 4, "alpha channel 4");
  BADG (luma.g_offset, 0, "0, 0, 2");
  BADG (luma.layout, GCV_LUMA_GRAY16LE, "layout");
  g = seam_test_geometry (&gray, 40, 30, 20, 30);
  g.channels = 4;
  bad_geom[n].g = g;
  bad_geom[n++].needle = "1 channel";
  g = seam_test_geometry (&gray, 40, 30, 20, 30);
  g.alpha_channel = 0;
  bad_geom[n].g = g;
  bad_geom[n++].needle = "alpha channel 0";
#undef BADG
  for (int i = 0; i < n; i++) {
    const char *why = gcv_seam_geometry_check (&bad_geom[i].g);
    GcvSeamCpu *ctx;
    check_msg ("geometry check", why, bad_geom[i].needle);
    err.status = GCV_OK;
    err.message[0] = 0;
    ctx = gcv_seam_cpu_new (&bad_geom[i].g, &err);
    GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID, "_new took a bad geometry (%s)",
        bad_geom[i].needle);
    check_msg ("_new", err.message, bad_geom[i].needle);
    gcv_seam_cpu_free (ctx);
  }
  g = seam_test_geometry (&rgba, 32767, 1, 1, 32767);
  GCV_TEST_CHECK (gcv_seam_geometry_check (&g) == NULL, "32767 refused: %s", gcv_seam_geometry_check (&g));
  g = seam_test_geometry (&gray, 1, 1, 1, 1);
  GCV_TEST_CHECK (gcv_seam_geometry_check (&g) == NULL, "1x1 refused");
  GCV_TEST_CHECK (gcv_seam_geometry_check (NULL) != NULL, "NULL geometry accepted");

  /* parameters */
  {
    struct {
      int field;
      double v;
      const char *needle;
    } bp[] = {
      {0, 3, "energy 3"}, {0, -1, "energy -1"}, {1, 2, "mode 2"}, {2, 0, "seams_per_pass 0"},
      {2, 33, "seams_per_pass 33"}, {2, -3, "seams_per_pass -3"}, {3, 1.5, "1.5"}, {3, -0.25, "-0.25"},
      {3, NAN, "nan"}, {4, 2, "order 2"},
    };
    for (size_t i = 0; i < sizeof (bp) / sizeof (bp[0]); i++) {
      p = seam_test_params ();
      switch (bp[i].field) {
        case 0:
          p.energy = (GcvSeamEnergy) (int) bp[i].v;
          break;
        case 1:
          p.mode = (GcvSeamMode) (int) bp[i].v;
          break;
        case 2:
          p.seams_per_pass = (int) bp[i].v;
          break;
        case 3:
          p.temporal_coherence = bp[i].v;
          break;
        default:
          p.order = (GcvSeamOrder) (int) bp[i].v;
          break;
      }
      check_msg ("params check", gcv_seam_params_check (&p), bp[i].needle);
    }
    p = seam_test_params ();
    GCV_TEST_CHECK (gcv_seam_params_check (&p) == NULL, "default params refused");
    p.seams_per_pass = GCV_SEAM_MAX_PER_PASS;
    p.temporal_coherence = 1.0;
    p.mode = GCV_SEAM_MODE_FAST;
    GCV_TEST_CHECK (gcv_seam_params_check (&p) == NULL, "%d seams per pass / coherence 1 refused",
        GCV_SEAM_MAX_PER_PASS);
    p.seams_per_pass = 1;
    p.temporal_coherence = 0.0;
    GCV_TEST_CHECK (gcv_seam_params_check (&p) == NULL, "1 seam per pass / coherence 0 refused");
    GCV_TEST_CHECK (gcv_seam_params_check (NULL) != NULL, "NULL params accepted");
  }

  /* _process: bad calls are refused and leave the temporal state alone */
  {
    const int w = 50, h = 40;
    GcvTestImage img0 = crop (1, 0, 0, w, h, 0, 0), img1 = crop (1, 2, 0, w, h, 1, 9);
    SeamTestFrame in0 = seam_test_frame_from_rgb (&rgba, &img0, NULL, 0, 1);
    SeamTestFrame in1 = seam_test_frame_from_rgb (&rgba, &img1, NULL, 0, 2);
    SeamTestFrame out = seam_test_frame_new (1, 4, 35, 33, 0, 3), out2 = seam_test_frame_new (1, 4, 35, 33, 0, 3);
    GcvPlane mask = mask_plane_new (w, h, 0, 4), mask2 = mask_plane_new (w, h, 0, 4), bad;
    GcvSeamCpu *a, *b;
    int x, y, pl;

    g = seam_test_geometry (&rgba, w, h, 35, 33);
    a = gcv_seam_cpu_new (&g, &err);
    b = gcv_seam_cpu_new (&g, &err);
    p = seam_test_params ();
    p.temporal_coherence = 1.0;
    if (a && b) {
      GcvSeamParams q = p;
      gcv_seam_cpu_process (a, &p, in0.plane, out.plane, &mask, 1, &err);
      gcv_seam_cpu_process (b, &p, in0.plane, out.plane, &mask, 1, &err);

#define REFUSED(call, needle) do { err.status = GCV_OK; err.message[0] = 0; \
      GCV_TEST_CHECK ((call) == GCV_ERROR_INVALID && err.status == GCV_ERROR_INVALID, "not refused: %s", #call); \
      check_msg (#call, err.message, needle); } while (0)
      REFUSED (gcv_seam_cpu_process (a, &p, in1.plane, NULL, NULL, 1, &err), "neither");
      q.temporal_coherence = 1.5;
      REFUSED (gcv_seam_cpu_process (a, &q, in1.plane, out.plane, &mask, 1, &err), "1.5");
      q = p;
      q.seams_per_pass = 0;
      REFUSED (gcv_seam_cpu_process (a, &q, in1.plane, out.plane, &mask, 1, &err), "seams_per_pass 0");
      REFUSED (gcv_seam_cpu_process (a, NULL, in1.plane, out.plane, &mask, 1, &err), "no parameters");
      REFUSED (gcv_seam_cpu_process (a, &p, NULL, out.plane, &mask, 1, &err), "no input");
      bad = in1.plane[0];
      bad.width = w + 1;
      REFUSED (gcv_seam_cpu_process (a, &p, &bad, out.plane, &mask, 1, &err), "51x40");
      bad = in1.plane[0];
      bad.stride = (size_t) w * 4 - 1;
      REFUSED (gcv_seam_cpu_process (a, &p, &bad, out.plane, &mask, 1, &err), "stride 199");
      bad = out.plane[0];
      bad.height = 40;
      REFUSED (gcv_seam_cpu_process (a, &p, in1.plane, &bad, &mask, 1, &err), "35x40");
      bad = mask;
      bad.data = NULL;
      REFUSED (gcv_seam_cpu_process (a, &p, in1.plane, out.plane, &bad, 1, &err), "no data");
      bad = mask;
      bad.stride = w - 1;
      REFUSED (gcv_seam_cpu_process (a, &p, in1.plane, out.plane, &bad, 1, &err), "stride 49");
      REFUSED (gcv_seam_cpu_process (NULL, &p, in1.plane, out.plane, &mask, 1, &err), "no context");
#undef REFUSED
      /* frame 1 after the refusals = frame 1 of the context that saw none */
      GCV_TEST_CHECK (gcv_seam_cpu_process (a, &p, in1.plane, out.plane, &mask, 1, &err) == GCV_OK, "%s",
          err.message);
      GCV_TEST_CHECK (gcv_seam_cpu_process (b, &p, in1.plane, out2.plane, &mask2, 1, &err) == GCV_OK, "%s",
          err.message);
      GCV_TEST_CHECK (seam_test_frame_diff (&out, &out2, &pl, &x, &y) == 0 && masks_equal (&mask, &mask2, w, h, &x, &y),
          "refused calls changed the temporal state");
    } else {
      GCV_TEST_CHECK (0, "errors: _new: %s", err.message);
    }
    gcv_seam_cpu_free (a);
    gcv_seam_cpu_free (b);
    seam_test_frame_free (&in0);
    seam_test_frame_free (&in1);
    seam_test_frame_free (&out);
    seam_test_frame_free (&out2);
    free (mask.data);
    free (mask2.data);
    gcv_test_image_clear (&img0);
    gcv_test_image_clear (&img1);
  }

  /* no memory: the address space capped a little above what the test
   * uses, a 20000 x 20000 context cannot be made (allocations are not
   * touched: meson's MALLOC_PERTURB_ would fill them) */
  {
    struct rlimit old;
    long vm_kb = 0;
    FILE *f = fopen ("/proc/self/status", "r");
    char line[256];
    while (f && fgets (line, sizeof (line), f))
      if (sscanf (line, "VmSize: %ld kB", &vm_kb) == 1)
        break;
    if (f)
      fclose (f);
    if (vm_kb > 0 && getrlimit (RLIMIT_AS, &old) == 0) {
      struct rlimit lim = old;
      GcvSeamCpu *ctx;
      lim.rlim_cur = (rlim_t) vm_kb * 1024 + (rlim_t) 64 * 1024 * 1024;
      if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
        lim.rlim_cur = old.rlim_cur;
      if (setrlimit (RLIMIT_AS, &lim) == 0) {
        g = seam_test_geometry (&rgba, 20000, 20000, 19000, 21000);
        err.status = GCV_OK;
        err.message[0] = 0;
        ctx = gcv_seam_cpu_new (&g, &err);
        setrlimit (RLIMIT_AS, &old);
        GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_NO_MEMORY,
            "20000x20000 context under a 64 MB address-space margin: status %d (%s), want no memory",
            err.status, err.message);
        check_msg ("no memory", err.message, "20000x20000");
        gcv_seam_cpu_free (ctx);
      }
    }
  }
}

/* ---- 9. what post-messages report --------------------------------------------- */

static void
test_energy_sums (void)
{
  static const int sizes[][2] = { {1, 1}, {1, 7}, {9, 1}, {3, 5}, {64, 33}, {641, 481} };

  for (int l = 0; l < SEAM_TEST_N_LAYOUTS; l++)
    for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++) {
      SeamTestLayout lay = seam_test_layout (l);
      int w = sizes[s][0], h = sizes[s][1];
      GcvTestImage img = crop (l % 4, 17 * l + 5, 11 * (int) s + 3, w, h, 0, 0);
      SeamTestFrame f = seam_test_frame_from_rgb (&lay, &img, NULL, 3 + s, 7 + (uint32_t) l);
      GcvSeamGeometry g = seam_test_geometry (&lay, w, h, w, h);
      GcvPlane mask = seam_test_random_mask (w, h, (uint32_t) (l * 16 + s));
      GcvSeamEnergySums got, want;

      gcv_seam_energy_sums (&g, &f.plane[0], &mask, &got);
      seam_ref_energy_sums (&g, &f.plane[0], &mask, &want);
      GCV_TEST_CHECK (memcmp (&got, &want, sizeof (got)) == 0, "energy sums, %s %dx%d: frame %llu seams %llu "
          "(%llu pixels), the reference %llu %llu (%llu)", lay.name, w, h, (unsigned long long) got.frame_energy,
          (unsigned long long) got.seam_energy, (unsigned long long) got.seam_pixels,
          (unsigned long long) want.frame_energy, (unsigned long long) want.seam_energy,
          (unsigned long long) want.seam_pixels);
      free (mask.data);
      seam_test_frame_free (&f);
      gcv_test_image_clear (&img);
    }
  /* the mask of a real carve: seams cost less than the frame on average */
  {
    SeamTestLayout lay = seam_test_layout (2);
    GcvTestImage img = crop (1, 40, 30, 320, 200, 0, 0);
    SeamTestFrame f = seam_test_frame_from_rgb (&lay, &img, NULL, 0, 1);
    GcvSeamGeometry g = seam_test_geometry (&lay, 320, 200, 288, 200);
    GcvSeamParams p = seam_test_params ();
    GcvPlane mask = { gcv_test_malloc (320 * 200), 320, 200, 320 };
    GcvSeamCpu *ctx = gcv_seam_cpu_new (&g, NULL);
    GcvSeamEnergySums got, want;

    GCV_TEST_CHECK (ctx != NULL && gcv_seam_cpu_process (ctx, &p, f.plane, NULL, &mask, 1, NULL) == GCV_OK,
        "carving 320x200 to 288");
    gcv_seam_energy_sums (&g, &f.plane[0], &mask, &got);
    seam_ref_energy_sums (&g, &f.plane[0], &mask, &want);
    GCV_TEST_CHECK (memcmp (&got, &want, sizeof (got)) == 0 && got.seam_pixels == 32 * 200
        && got.seam_energy * 320 * 200 < got.frame_energy * got.seam_pixels, "a real carve: %llu seam pixels, "
        "mean seam energy %.2f, frame %.2f", (unsigned long long) got.seam_pixels,
        got.seam_pixels ? (double) got.seam_energy / got.seam_pixels : 0.0, got.frame_energy / 64000.0);
    gcv_seam_cpu_free (ctx);
    free (mask.data);
    seam_test_frame_free (&f);
    gcv_test_image_clear (&img);
  }
}

int
main (void)
{
  double t0 = gcv_test_now_s (), t;

  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  gcv_test_load_photos (photos);

#define RUN(fn) do { t = gcv_test_now_s (); fn (); \
    printf ("%-28s %.2f s (%ld checks so far)\n", #fn, gcv_test_now_s () - t, gcv_test_checks); fflush (stdout); } while (0)
  RUN (test_shared);
  RUN (test_errors);
  /* every DP loop the CPU has (the widest by default), capped through
   * GCV_SEAM_CPU_KERNEL at context creation */
  for (int k = 0; k < 3; k++) {
    static const char *const kernels[3] = { "widest", "avx2", "generic" };
    if (k == 0)
      unsetenv ("GCV_SEAM_CPU_KERNEL");
    else
      setenv ("GCV_SEAM_CPU_KERNEL", kernels[k], 1);
    printf ("DP kernel: %s\n", kernels[k]);
    RUN (test_brute_force);
    RUN (test_against_reference);
    RUN (test_random_cases);
  }
  unsetenv ("GCV_SEAM_CPU_KERNEL");
  RUN (test_semantics);
  RUN (test_fast_disjoint);
  RUN (test_fast_photos);
  RUN (test_alpha_mask);
  RUN (test_temporal);
  RUN (test_threads_reset_profile);
  RUN (test_energy_sums);
#undef RUN
  printf ("%ld backend / reference cases\n", n_cases_run);
  for (int i = 0; i < 4; i++)
    gcv_test_image_clear (&photos[i]);
  return gcv_test_summary (t0);
}
