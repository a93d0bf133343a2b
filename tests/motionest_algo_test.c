/* gst-cuda-video: the CPU backend of motion estimation (cpu/motionest_cpu.c)
 * against the contract (cpu/motionest.h) and the independent reference
 * (tests/motionest_reference.c).
 *
 *  - the contract's inline formulas: the bilinear sample against float64
 *    bilinear interpolation rounded half up, for every fraction; the packed
 *    key's order against the tuple (SAD, |dx| + |dy|, dy, dx); validity at
 *    the borders;
 *  - CPU backend == reference, every record, over 300 random cases: sizes
 *    from 1x1 to 641x481, block sizes 4 .. 128 that do not divide the
 *    frame, ranges 0 .. 40 (128 on small frames; shorter on the larger
 *    frames, where the plain reference is slow), every subpel, both
 *    methods, the zero threshold, padded strides, 1 thread and all; and one
 *    context whose parameters change from call to call;
 *  - real photos moved by known integer, half- and quarter-pixel offsets,
 *    block sizes 8x8 .. 96x54, two ranges each: full search finds every
 *    interior block's offset exactly with SAD 0 (interior: the true vector
 *    is a valid candidate).  The windows are textured: no block matches
 *    exactly at a second vector (such blocks would be printed; asserted
 *    none).  MODS finds them exactly where its geometry guarantees it
 *    (whole pixels, dy a multiple of 4 px: step 1 visits the true vector);
 *    its recovery rate elsewhere is printed and held above a floor
 *    measured on these photos;
 *  - the zero threshold, the reference handover, errors.
 * Then the 1080p 16x16 +-32 integer search is timed on 1 thread and all
 * (informative).
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

  for (c = 0; c < 300; c++) {
    int si = c % 7, bi = (c / 7) % 7, phi = c % 4;
    int w = sizes[si][0], h = sizes[si][1];
    int small = w * h <= 64 * 48;
    /* the plain reference bounds the range on larger frames */
    uint32_t reach = small ? 41 : w * h <= 160 * 97 ? 25 : 9;
    int rx = (int) (gcv_test_rand (&seed) % reach), ry = (int) (gcv_test_rand (&seed) % reach);
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
    /* (2 r subpel + 1)^2 candidates per block: the fine grids get shorter
     * ranges on all but the small frames */
    if (!small && m == GCV_MOTION_METHOD_FULL && subpel > 1) {
      rx /= subpel;
      ry /= subpel;
    }
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

/* Shifted photos: every interior block's offset found exactly.  The
 * windows are textured parts of the photos: a block of flat or saturated
 * pixels (the white suit and dark sky of astronaut.png) matches exactly at
 * more than one displacement, and the tie rule then rightly picks the
 * shorter vector.  Such blocks are counted apart and printed; on these
 * windows there are none (asserted), so every interior block is checked. */
/* MODS's exact recoveries where its geometry does not guarantee them
 * (half pixels, dy not a multiple of 4 px): 92.1% measured on these windows
 * (2026-11-22), held above 90%. */
#define MODS_FLOOR_PERCENT 90

static const int shift_crops[4][2][2] = {
  /* origin of the 192 x 144 window, then of the 384 x 216 one (96x54) */
  { {160, 184}, {64, 148} },    /* camera.png */
  { {129, 78}, {33, 42} },      /* chelsea.png */
  { {96, 104}, {108, 92} },     /* coffee.png */
  { {184, 24}, {64, 148} },     /* astronaut.png */
};

static void
test_known_shifts (void)
{
  /* quarter pixels: (7, -3), (-5, 2), (2.5, -1.5), (-3.25, 0.75),
   * (1.25, 1.75), (0, 0), (-16, 4) px */
  static const int shifts[][2] = { {28, -12}, {-20, 8}, {10, -6}, {-13, 3}, {5, 7}, {0, 0}, {-64, 16} };
  static const int blocks[][2] = { {8, 8}, {16, 16}, {36, 24}, {96, 54} };
  long mods_checked = 0, mods_found = 0, guaranteed = 0, ambiguous = 0, all_interior = 0;
  int s, b, i, k, r;

  for (i = 0; i < 4; i++)
    for (s = 0; s < 7; s++)
      for (b = 0; b < 4; b++) {
        int dx = shifts[s][0], dy = shifts[s][1];
        int subpel = (dx | dy) & 1 ? 4 : (dx | dy) & 2 ? 2 : 1;
        int bw = blocks[b][0], bh = blocks[b][1];
        int w = b == 3 ? 384 : 192, h = b == 3 ? 216 : 144;
        int cx = shift_crops[i][b == 3][0], cy = shift_crops[i][b == 3][1];
        GcvPlane prev, cur;
        GcvMotionCpu *ctx;
        GcvError err;

        motion_test_shifted_pair (photo[i], pw[i], ph[i], cx, cy, w, h, dx, dy, 5, &prev, &cur);
        ctx = gcv_motion_cpu_new (w, h, &err);
        /* r = 0: full search, the smallest range that holds the shift, and
         * wider by the block size index; r = 1: full search, 6 px more;
         * r = 2: MODS (not at quarter pixels: its refinement reaches 1 q
         * from an integer result only) */
        for (r = 0; r < 3; r++) {
          int mods = r == 2;
          int rx = (abs (dx) + 3) / 4 + 1 + b + (r == 1 ? 6 : 0);
          int ry = (abs (dy) + 3) / 4 + 1 + (r == 1 ? 6 : 0) + (mods ? 4 : 0);
          GcvMotionParams p = motion_test_params (bw, bh, rx, ry, subpel,
              mods ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, 0);
          GcvMotionVector *v;
          int n, cols, wrong = 0, interior = 0, amb = 0;

          if (mods && subpel == 4)
            continue;
          cols = gcv_motion_grid_cols (w, &p);
          n = cols * gcv_motion_grid_rows (h, &p);
          v = gcv_test_malloc (sizeof (*v) * n);
          gcv_motion_cpu_set_reference (ctx, &prev, &err);
          GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, 0, &err) == GCV_OK, "process: %s",
              err.message);
          for (k = 0; k < n; k++) {
            int x0, y0, bw2, bh2, ok;
            gcv_motion_block_rect (w, h, &p, k % cols, k / cols, &x0, &y0, &bw2, &bh2);
            if (!gcv_motion_candidate_valid (w, h, &p, x0, y0, bw2, bh2, dx, dy))
              continue;
            interior++;
            ok = v[k].dx == dx && v[k].dy == dy && v[k].sad == 0;
            if (!ok && v[k].sad == 0) {
              amb++;
              printf ("  %s %dx%d block at %d,%d moved (%d, %d) q: SAD 0 at (%d, %d) q too\n",
                  gcv_test_photos[i], bw, bh, x0, y0, dx, dy, v[k].dx, v[k].dy);
            } else if (!mods || (dy % 16 == 0 && subpel == 1)) {
              /* full search, or MODS with the true vector in its step 1 */
              guaranteed += mods;
              wrong += !ok;
            } else {
              mods_checked++;
              mods_found += ok;
            }
          }
          GCV_TEST_CHECK (wrong == 0, "%s %s +-%dx%d: %s blocks %dx%d moved (%g, %g) px: %d of %d interior "
              "blocks wrong", gcv_test_photos[i], mods ? "mods" : "full", rx, ry,
              subpel == 1 ? "int" : subpel == 2 ? "half" : "quarter", bw, bh, dx / 4.0, dy / 4.0, wrong,
              interior);
          GCV_TEST_CHECK (interior > 0, "no interior block for %dx%d +-%dx%d", bw, bh, rx, ry);
          all_interior += interior;
          ambiguous += amb;
          free (v);
        }
        gcv_motion_cpu_free (ctx);
        free (prev.data);
        free (cur.data);
      }
  printf ("  full search and MODS: %ld interior blocks, %ld matched exactly at another vector too\n",
      all_interior, ambiguous);
  GCV_TEST_CHECK (ambiguous == 0, "%ld ambiguous blocks in windows chosen to have none", ambiguous);
  printf ("  MODS: %ld guaranteed blocks exact; elsewhere %ld of %ld (%.1f%%) exact\n", guaranteed,
      mods_found, mods_checked, mods_checked ? 100.0 * mods_found / mods_checked : 0.0);
  GCV_TEST_CHECK (mods_checked == 0 || mods_found * 100 >= mods_checked * MODS_FLOOR_PERCENT,
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

/* One context, parameters changing from call to call (block size, range,
 * subpel, method, threshold, threads): each call's result is the
 * reference's for that pair, and the frame searched becomes the next
 * call's reference.  Quarter pixels come late, so the phase planes are
 * allocated in the middle of the sequence. */
static void
test_param_changes (void)
{
  static const int seq[][7] = {
    /* bw, bh, range, subpel, mods, threshold x 4, threads */
    {16, 16, 6, 1, 0, 0, 0}, {8, 8, 5, 2, 1, 0, 1}, {36, 24, 7, 1, 1, 8, 2}, {4, 4, 3, 4, 0, 0, 0},
    {128, 9, 9, 2, 0, 0, 1}, {5, 7, 4, 4, 1, 4, 0}, {16, 16, 6, 1, 0, 0, 0}, {13, 128, 8, 4, 0, 2, 2},
  };
  int w = 111, h = 70, k;
  GcvPlane f[2];
  GcvMotionCpu *ctx;
  GcvMotionVector vc[28 * 18], vr[28 * 18];
  GcvError err;

  motion_test_random_pair (photo[2], pw[2], ph[2], w, h, 4, 2, 9, 77, &f[0], &f[1]);
  ctx = gcv_motion_cpu_new (w, h, &err);
  gcv_motion_cpu_set_reference (ctx, &f[0], &err);
  for (k = 0; k < (int) (sizeof (seq) / sizeof (seq[0])); k++) {
    const GcvPlane *ref = &f[k % 2], *cur = &f[(k + 1) % 2];
    GcvMotionParams p = motion_test_params (seq[k][0], seq[k][1], seq[k][2], seq[k][2], seq[k][3],
        seq[k][4] ? GCV_MOTION_METHOD_MODS : GCV_MOTION_METHOD_FULL, seq[k][5] / 4.0);
    int n = gcv_motion_grid_cols (w, &p) * gcv_motion_grid_rows (h, &p);
    char what[120];

    memset (vc, 0xa5, sizeof (vc));
    GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, cur, vc, seq[k][6], &err) == GCV_OK, "call %d: %s", k,
        err.message);
    motion_reference_search (&p, ref, cur, vr);
    snprintf (what, sizeof (what), "call %d: blocks %dx%d +-%d subpel %d %s zt %g, %d threads", k,
        p.block_width, p.block_height, p.range_x, p.subpel, seq[k][4] ? "mods" : "full", p.zero_threshold,
        seq[k][6]);
    compare (vc, vr, n, what);
  }
  gcv_motion_cpu_free (ctx);
  free (f[0].data);
  free (f[1].data);
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
  /* the first call of each also warms the caches and the thread pool */
  for (t = 0; t < 4; t++) {
    int nt = t < 2 ? 1 : 0;
    double t0 = gcv_test_now_s ();
    gcv_motion_cpu_set_reference (ctx, &prev, &err);
    GCV_TEST_CHECK (gcv_motion_cpu_process (ctx, &p, &cur, v, nt, &err) == GCV_OK, "1080p");
    printf ("  1080p 16x16 +-32 integer full search, %s: %.1f ms\n", nt ? "1 thread" : "all threads",
        1e3 * (gcv_test_now_s () - t0));
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
  RUN (test_param_changes);
  RUN (test_known_shifts);
  RUN (test_random_cases);
  RUN (time_codec_case);
  for (i = 0; i < 4; i++)
    free (photo[i]);
  return gcv_test_summary (t0);
}
