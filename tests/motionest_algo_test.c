/* gst-cuda-video: the CPU backend of motion estimation (cpu/motionest_cpu.c)
 * against the contract (cpu/motionest.h) and the independent reference
 * (tests/motionest_reference.c).
 *
 *  - the contract's inline formulas: the bilinear sample against float64
 *    bilinear interpolation rounded half up, for every fraction; the packed
 *    key's order against the tuple (SAD, |dx| + |dy|, dy, dx); validity at
 *    the borders;
 *  - CPU backend == reference, every record, over random cases: sizes from
 *    1x1 to 641x481, block sizes 4 .. 128 that do not divide the frame,
 *    ranges 0 .. 40 (128 on small frames), every subpel, both methods, the
 *    zero threshold, padded strides, 1 thread and all;
 *  - real photos moved by known integer, half- and quarter-pixel offsets:
 *    full search finds every interior block's offset exactly with SAD 0
 *    (interior: the true vector is a valid candidate), except 8x8 blocks
 *    of flat sky that match exactly at a shorter vector too (counted, at
 *    most 1%, the tie rule's choice checked: SAD 0); MODS where its
 *    geometry guarantees it (whole pixels, dy a multiple of 4 px: step 1
 *    visits the true vector), and its recovery rate elsewhere is printed
 *    and held above a floor measured on these photos;
 *  - the zero threshold, the reference handover, errors.
 * Then the 1080p 16x16 +-32 integer search is timed (informative).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "motionest_reference.h"

static uint8_t *photo[4];
static int pw[4], ph[4];

static void
test_formulas (void)
{
  uint32_t seed = 7;
  uint8_t img[5 * 5];
  int i, X, Y;

  for (i = 0; i < 25; i++)
    img[i] = (uint8_t) gcv_test_rand (&seed);
  for (Y = 0; Y <= 16; Y++)
    for (X = 0; X <= 16; X++) {
      double fx = (X & 3) / 4.0, fy = (Y & 3) / 4.0;
      int x = X >> 2, y = Y >> 2, x1 = x + 1 < 5 ? x + 1 : x, y1 = y + 1 < 5 ? y + 1 : y;
      double v = (1 - fx) * (1 - fy) * img[y * 5 + x] + fx * (1 - fy) * img[y * 5 + x1]
          + (1 - fx) * fy * img[y1 * 5 + x] + fx * fy * img[y1 * 5 + x1];
      int expect = (int) floor (v + 0.5);
      GCV_TEST_CHECK (gcv_motion_sample (img, 5, X, Y) == expect, "sample at %d,%d q: %d, float64 %d",
          X, Y, gcv_motion_sample (img, 5, X, Y), expect);
      GCV_TEST_CHECK (motion_reference_sample (img, 5, X, Y) == expect, "reference sample at %d,%d q", X, Y);
    }
  for (i = 0; i < 20000; i++) {
    uint32_t sa = gcv_test_rand (&seed) % 5, sb = gcv_test_rand (&seed) % 5;
    int ax = (int) (gcv_test_rand (&seed) % 1025) - 512, ay = (int) (gcv_test_rand (&seed) % 1025) - 512;
    int bx = (int) (gcv_test_rand (&seed) % 5) - 2, by = (int) (gcv_test_rand (&seed) % 5) - 2;
    uint64_t ka = gcv_motion_key (sa + 4194000u, ax, ay), kb = gcv_motion_key (sb + 4194000u, bx, by);
    int la = abs (ax) + abs (ay), lb = abs (bx) + abs (by);
    int a_first = sa != sb ? sa < sb : la != lb ? la < lb : ay != by ? ay < by : ax < bx;
    GCV_TEST_CHECK ((ka < kb) == a_first || (ka == kb && ax == bx && ay == by), "key order %u,%d,%d vs %u,%d,%d",
        sa, ax, ay, sb, bx, by);
    GCV_TEST_CHECK (gcv_motion_key_dx (ka) == ax && gcv_motion_key_dy (ka) == ay
        && gcv_motion_key_sad (ka) == sa + 4194000u, "key fields of %u,%d,%d", sa, ax, ay);
  }
  {
    GcvMotionParams p = motion_test_params (16, 16, 8, 8, 4, GCV_MOTION_METHOD_FULL, 0);
    /* a 16x16 block at x0 = 4 in a 30-wide frame: dx from -16 q to +40 q */
    GCV_TEST_CHECK (gcv_motion_candidate_valid (30, 20, &p, 4, 0, 16, 16, -16, 0), "left edge valid");
    GCV_TEST_CHECK (!gcv_motion_candidate_valid (30, 20, &p, 4, 0, 16, 16, -17, 0), "left edge invalid");
    GCV_TEST_CHECK (gcv_motion_candidate_valid (30, 20, &p, 4, 0, 16, 16, 32, 4), "range end valid");
    GCV_TEST_CHECK (!gcv_motion_candidate_valid (30, 20, &p, 4, 0, 16, 16, 33, 0), "beyond range");
    GCV_TEST_CHECK (!gcv_motion_candidate_valid (30, 20, &p, 4, 0, 16, 16, 0, 17), "below the frame");
  }
}

static long
compare (const GcvMotionVector * a, const GcvMotionVector * b, int n, const char *what)
{
  int i;

  for (i = 0; i < n; i++)
    if (memcmp (&a[i], &b[i], sizeof (*a)) != 0) {
      GCV_TEST_CHECK (0, "%s: block %d (%d,%d): cpu (%d,%d) sad %u, reference (%d,%d) sad %u", what, i,
          b[i].x, b[i].y, a[i].dx, a[i].dy, a[i].sad, b[i].dx, b[i].dy, b[i].sad);
      return 1;
    }
  GCV_TEST_CHECK (1, "%s", what);
  return 0;
}

static void
test_random_cases (void)
{
  static const int sizes[][2] = { {1, 1}, {3, 2}, {33, 17}, {64, 48}, {111, 30}, {160, 97}, {641, 481} };
  static const int blocks[][2] = { {4, 4}, {8, 8}, {16, 16}, {5, 7}, {36, 24}, {13, 128}, {128, 9} };
  uint32_t seed = 1234;
  int c, n_cases = 0;

  for (c = 0; c < 170; c++) {
    int si = c % 7, bi = (c / 7) % 7, phi = c % 4;
    int w = sizes[si][0], h = sizes[si][1];
    int small = w * h <= 64 * 48;
    int rx = small ? (int) (gcv_test_rand (&seed) % 41) : (int) (gcv_test_rand (&seed) % 9);
    int ry = small ? (int) (gcv_test_rand (&seed) % 41) : (int) (gcv_test_rand (&seed) % 9);
    int subpel = 1 << (gcv_test_rand (&seed) % 3);
    GcvMotionMethod m = gcv_test_rand (&seed) % 2 ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL;
    double zt = gcv_test_rand (&seed) % 3 == 0 ? (gcv_test_rand (&seed) % 160) / 16.0 : 0.0;
    GcvMotionParams p;
    GcvPlane prev, cur;
    GcvMotionCpu *ctx;
    GcvMotionVector *vc, *vr;
    GcvError err;
    char what[200];
    int n;

    if (c % 37 == 0 && small)
      rx = ry = 128;
    /* the big frame with quarter-pel full search is costly for the reference */
    if (w * h > 100000 && subpel == 4 && m == GCV_MOTION_METHOD_FULL)
      subpel = 2;
    p = motion_test_params (blocks[bi][0], blocks[bi][1], rx, ry, subpel, m, zt);
    motion_test_random_pair (photo[phi], pw[phi], ph[phi], w, h, 6, 2, (size_t) (c % 3) * 7,
        seed + c, &prev, &cur);
    n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
    vc = gcv_test_malloc (sizeof (*vc) * n);
    vr = gcv_test_malloc (sizeof (*vr) * n);
    memset (vc, 0xa5, sizeof (*vc) * n);
    GCV_TEST_CHECK (motion_reference_search (&p, &prev, &cur, vr) == 0, "reference");
    ctx = gcv_motion_cpu_new (w, h, &err);
    GCV_TEST_CHECK (ctx != NULL, "cpu_new %dx%d: %s", w, h, err.message);
    if (ctx) {
      GCV_TEST_CHECK (gcv_motion_cpu_set_reference (ctx, &prev, &err) == GCV_OK, "set_reference");
      GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, vc, c % 2 ? 1 : 0, &err) == GCV_OK,
          "process: %s", err.message);
      snprintf (what, sizeof (what), "%dx%d stride %zu blocks %dx%d +-%dx%d subpel %d %s zt %.4g", w, h,
          prev.stride, p.block_width, p.block_height, rx, ry, subpel,
          m == GCV_MOTION_METHOD_FULL ? "full" : "mods", zt);
      compare (vc, vr, n, what);
      gcv_motion_cpu_free (ctx);
    }
    n_cases++;
    free (vc);
    free (vr);
    free (prev.data);
    free (cur.data);
  }
  printf ("  %d random cases\n", n_cases);
}

/* Shifted photos: every interior block's offset found exactly. */
static void
test_known_shifts (void)
{
  static const int shifts[][2] = { {28, -12}, {-20, 8}, {10, -6}, {-13, 3}, {5, 7}, {0, 0}, {-64, 16} };
  static const int blocks[][2] = { {8, 8}, {16, 16}, {36, 24}, {96, 54} };
  long mods_checked = 0, mods_found = 0, guaranteed = 0, ambiguous = 0, all_interior = 0;
  int s, b, i, k;

  for (i = 0; i < 4; i++)
    for (s = 0; s < 7; s++)
      for (b = 0; b < 4; b++) {
        int dx = shifts[s][0], dy = shifts[s][1];
        int subpel = (dx | dy) & 1 ? 4 : (dx | dy) & 2 ? 2 : 1;
        int bw = blocks[b][0], bh = blocks[b][1];
        int w = b == 3 ? 384 : 192, h = b == 3 ? 216 : 144;
        int rx = (abs (dx) + 3) / 4 + 1 + b, ry = (abs (dy) + 3) / 4 + 1;
        int cx = (pw[i] - w) / 2, cy = (ph[i] - h) / 2;
        GcvMotionParams p;
        GcvPlane prev, cur;
        GcvMotionCpu *ctx;
        GcvMotionVector *v;
        GcvError err;
        int n, m, wrong = 0, interior = 0;

        motion_test_shifted_pair (photo[i], pw[i], ph[i], cx, cy, w, h, dx, dy, 5, &prev, &cur);
        for (m = 0; m < 2; m++) {
          p = motion_test_params (bw, bh, rx, m ? ry + 4 : ry, subpel, m ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, 0);
          if (m && subpel == 4)
            continue;
          n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
          v = gcv_test_malloc (sizeof (*v) * n);
          ctx = gcv_motion_cpu_new (w, h, &err);
          gcv_motion_cpu_set_reference (ctx, &prev, &err);
          GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_OK, "process");
          wrong = interior = 0;
          for (k = 0; k < n; k++) {
            int x0, y0, bw2, bh2, ok;
            gcv_motion_block_rect (w, h, &p, k % gcv_motion_grid_cols (w, &p), k / gcv_motion_grid_cols (w, &p),
                &x0, &y0, &bw2, &bh2);
            if (!gcv_motion_candidate_valid (w, h, &p, x0, y0, bw2, bh2, dx, dy))
              continue;
            interior++;
            ok = v[k].dx == dx && v[k].dy == dy && v[k].sad == 0;
            if (!ok && v[k].sad == 0 && (!m || (dy % 16 == 0 && subpel == 1))) {
              /* another displacement matches exactly too: a flat block
               * (the dark sky of astronaut.png at 8x8), the tie rule
               * picked the shorter vector.  Allowed at 8x8 only. */
              ambiguous++;
              if (bw > 8)
                wrong++;
            } else if (!m) {
              if (!ok)
                wrong++;
            } else if (dy % 16 == 0 && subpel == 1) {
              guaranteed++;
              if (!ok)
                wrong++;
            } else {
              mods_checked++;
              mods_found += ok;
            }
          }
          GCV_TEST_CHECK (wrong == 0, "%s %s: %s blocks %dx%d moved (%g, %g) px: %d of %d interior blocks wrong",
              gcv_test_photos[i], m ? "mods" : "full", subpel == 1 ? "int" : subpel == 2 ? "half" : "quarter",
              bw, bh, dx / 4.0, dy / 4.0, wrong, interior);
          GCV_TEST_CHECK (interior > 0 || b == 3, "no interior block for %dx%d", bw, bh);
          all_interior += interior;
          free (v);
          gcv_motion_cpu_free (ctx);
        }
        free (prev.data);
        free (cur.data);
      }
  printf ("  full search: %ld interior blocks, %ld flat 8x8 blocks matched equally well elsewhere "
      "(SAD 0 at a shorter vector)\n", all_interior, ambiguous);
  GCV_TEST_CHECK (ambiguous * 100 <= all_interior, "too many ambiguous blocks: %ld", ambiguous);
  printf ("  MODS: %ld guaranteed blocks exact; elsewhere %ld of %ld (%.1f%%) exact\n", guaranteed,
      mods_found, mods_checked, mods_checked ? 100.0 * mods_found / mods_checked : 0.0);
  /* measured 2026-11-22 on the four photos: 92.0% */
  GCV_TEST_CHECK (mods_checked == 0 || mods_found * 100 >= mods_checked * 85,
      "MODS found only %ld of %ld offsets its geometry does not guarantee", mods_found, mods_checked);
}

static void
test_zero_threshold (void)
{
  int w = 160, h = 96, i, n;
  GcvPlane prev, cur;
  GcvMotionParams p0 = motion_test_params (16, 16, 6, 6, 2, GCV_MOTION_METHOD_FULL, 0), p;
  GcvMotionVector v0[60], vz[60], vzero[60];
  GcvMotionParams pz = motion_test_params (16, 16, 0, 0, 1, GCV_MOTION_METHOD_FULL, 0);
  GcvMotionCpu *ctx;
  GcvError err;
  double cs[] = { 0.5, 2.0, 6.0, 255.0 };
  int c;

  motion_test_random_pair (photo[1], pw[1], ph[1], w, h, 4, 3, 0, 99, &prev, &cur);
  n = gcv_motion_grid_cols (w, &p0) * gcv_motion_grid_rows (h, &p0);
  ctx = gcv_motion_cpu_new (w, h, &err);
  gcv_motion_cpu_set_reference (ctx, &prev, &err);
  gcv_motion_cpu_process (ctx, &p0, &cur, v0, 0, &err);
  gcv_motion_cpu_set_reference (ctx, &prev, &err);
  gcv_motion_cpu_process (ctx, &pz, &cur, vzero, 0, &err);     /* J (0, 0) of every block */
  for (c = 0; c < 4; c++) {
    int suppressed = 0;
    p = p0;
    p.zero_threshold = cs[c];
    gcv_motion_cpu_set_reference (ctx, &prev, &err);
    gcv_motion_cpu_process (ctx, &p, &cur, vz, 0, &err);
    for (i = 0; i < n; i++) {
      int sup = (double) v0[i].sad <= cs[c] * 16 * 16;
      suppressed += sup;
      if (sup)
        GCV_TEST_CHECK (vz[i].dx == 0 && vz[i].dy == 0 && vz[i].sad == vzero[i].sad,
            "C %g block %d: suppressed block reports (%d,%d) sad %u", cs[c], i, vz[i].dx, vz[i].dy, vz[i].sad);
      else
        GCV_TEST_CHECK (memcmp (&vz[i], &v0[i], sizeof (vz[i])) == 0, "C %g block %d kept", cs[c], i);
    }
    printf ("  zero-threshold %g: %d of %d blocks report no motion\n", cs[c], suppressed, n);
    if (c == 3)
      GCV_TEST_CHECK (suppressed == n, "C = 255 suppresses every block");
  }
  gcv_motion_cpu_free (ctx);
  free (prev.data);
  free (cur.data);
}

static void
test_semantics (void)
{
  int w = 128, h = 96, i, n;
  GcvPlane prev, cur;
  GcvMotionParams p = motion_test_params (16, 16, 8, 8, 1, GCV_MOTION_METHOD_FULL, 0);
  GcvMotionVector v[48], back[48];
  GcvMotionCpu *ctx;
  GcvError err;
  const char *msg;

  motion_test_shifted_pair (photo[2], pw[2], ph[2], 100, 80, w, h, 12, -8, 0, &prev, &cur);
  n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
  ctx = gcv_motion_cpu_new (w, h, &err);
  GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_ERROR_INVALID
      && strstr (err.message, "reference"), "process without reference: %s", err.message);
  gcv_motion_cpu_set_reference (ctx, &prev, &err);
  GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_OK, "forward");
  /* cur is now the reference: searching prev gives the opposite motion */
  GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &prev, back, 0, &err) == GCV_OK, "backward");
  for (i = 0; i < n; i++)
    if (v[i].x >= 16 && v[i].y >= 16 && v[i].x + 32 <= w && v[i].y + 32 <= h)
      GCV_TEST_CHECK (v[i].dx == 12 && v[i].dy == -8 && back[i].dx == -12 && back[i].dy == 8,
          "block %d: forward (%d,%d) backward (%d,%d)", i, v[i].dx, v[i].dy, back[i].dx, back[i].dy);
  p.block_width = 3;
  GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_ERROR_INVALID
      && strstr (err.message, "block-width"), "bad block: %s", err.message);
  p.block_width = 16;
  p.range_y = 129;
  msg = gcv_motion_params_check (&p);
  GCV_TEST_CHECK (msg && strstr (msg, "search-range"), "bad range: %s", msg ? msg : "accepted");
  p.range_y = 8;
  p.subpel = (GcvMotionSubpel) 3;
  msg = gcv_motion_params_check (&p);
  GCV_TEST_CHECK (msg && strstr (msg, "subpel"), "bad subpel: %s", msg ? msg : "accepted");
  p.subpel = GCV_MOTION_SUBPEL_INTEGER;
  p.zero_threshold = -1;
  msg = gcv_motion_params_check (&p);
  GCV_TEST_CHECK (msg && strstr (msg, "zero-threshold"), "bad threshold: %s", msg ? msg : "accepted");
  cur.width = 127;
  GCV_TEST_CHECK (gcv_motion_cpu_set_reference (ctx, &cur, &err) == GCV_ERROR_INVALID, "wrong size refused");
  GCV_TEST_CHECK (gcv_motion_cpu_new (0, 5, &err) == NULL && err.status == GCV_ERROR_INVALID, "0x5 refused");
  gcv_motion_cpu_free (ctx);
  free (prev.data);
  free (cur.data);
}

static void
time_codec_case (void)
{
  int w = 1920, h = 1080, n, t;
  GcvPlane prev, cur;
  GcvMotionParams p = motion_test_params (16, 16, 32, 32, 1, GCV_MOTION_METHOD_FULL, 0);
  GcvMotionVector *v;
  GcvMotionCpu *ctx;
  GcvError err;

  motion_test_random_pair (photo[3], pw[3], ph[3], w, h, 8, 2, 0, 5, &prev, &cur);
  n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
  v = gcv_test_malloc (sizeof (*v) * n);
  ctx = gcv_motion_cpu_new (w, h, &err);
  for (t = 0; t < 2; t++) {
    double t0 = gcv_test_now_s ();
    gcv_motion_cpu_set_reference (ctx, &prev, &err);
    GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_OK, "1080p");
    printf ("  1080p 16x16 +-32 integer full search, all threads: %.1f ms\n", 1e3 * (gcv_test_now_s () - t0));
  }
  gcv_motion_cpu_free (ctx);
  free (v);
  free (prev.data);
  free (cur.data);
}

int
main (void)
{
  double t0 = gcv_test_now_s (), t;
  int i;

  for (i = 0; i < 4; i++)
    photo[i] = motion_test_photo_luma (i, &pw[i], &ph[i]);
#define RUN(fn) do { t = gcv_test_now_s (); fn (); \
    printf ("%-24s %.2f s (%ld checks so far)\n", #fn, gcv_test_now_s () - t, gcv_test_checks); fflush (stdout); } while (0)
  RUN (test_formulas);
  RUN (test_semantics);
  RUN (test_zero_threshold);
  RUN (test_known_shifts);
  RUN (test_random_cases);
  RUN (time_codec_case);
  for (i = 0; i < 4; i++)
    free (photo[i]);
  return gcv_test_summary (t0);
}
