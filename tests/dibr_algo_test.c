/* gst-cuda-video: the CPU backend of DIBR (cpu/dibr_cpu.c) against the
 * contract (cpu/dibr.h) and independent references written here.
 *
 *  - median: exact against a brute-force median (qsort of the window's
 *    known values, lower median) on random 8- and 16-bit planes with
 *    unknown pixels, sizes 1x1 .. 64x48, windows 3 .. 15;
 *  - DCBF: against a float64 brute force of the paper's formula (weights
 *    exp () in double, no tables, sums in double) on a crop of a real photo
 *    with a synthetic depth of planes, noise and unknown holes; the largest
 *    difference is printed and must stay <= 1e-3 value units (8-bit) and
 *    <= 0.05 (16-bit, values up to 65535: float sums of 121 terms) where
 *    the reference's weight sum is not negligible; known / unknown agree;
 *  - stages 2 and 3 against a serial reference of the contract's z-buffer,
 *    crack and hole rules (straight loops, no scans), byte for byte, and
 *    the same bytes with 1 and 4 threads: random depths (many conflicts),
 *    two views, sizes 1x1, 3x2, 641x479;
 *  - z-buffer: a near and a far plane landing on the same pixels, from two
 *    views in either order: the nearer always wins; equal depths: view 0;
 *  - holes: a foreground square on a far background, baseline to the
 *    right: the disoccluded strip is background colour and depth, the
 *    square's left part covers the background; every pixel filled; an
 *    empty frame is black at z_far;
 *  - bad params rejected naming the property; bad views and cameras;
 *  - the output frame (gcv_dibr_compose) against the element's former
 *    finishing code written out (scratch pictures, debug paint, anaglyph,
 *    byte order): every show mode, the elements' placements of the eyes
 *    and more, six byte orders, odd sizes, padded rows (nothing outside
 *    the pictures written), NaN / infinite / out-of-range depths, 1 and 4
 *    threads, in place; bad arguments refused;
 *  - the synthetic scene of tests/dibr_scene.h (float64 ray caster): the
 *    warp lands every pixel of A where the ray caster projects it; DIBR
 *    from camera A gives B (simple mode) at >= 30 dB PSNR on the pixels of
 *    B visible in A, 8- and 16-bit depth, with and without the clean-up;
 *    the full camera C (turned, zoomed) >= 29 dB (see test_scene).
 * GCV_TEST_QUICK=1: fewer random cases.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dibr.h"
#include "dibr_scene.h"
#include "gcv-test.h"

static int quick;
static uint32_t rng_state = 12345u;

static uint32_t
rnd (void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static GcvPlane
plane_of (void *data, int w, int h, size_t stride)
{
  GcvPlane p;

  p.data = data;
  p.width = w;
  p.height = h;
  p.stride = stride;
  return p;
}

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);

  if (!p) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  return p;
}

/* A view of w x h: colour (padded stride), depth of `bits`, camera. */
typedef struct {
  GcvDibrView v;
  uint8_t *rgba;
  uint8_t *depth;
} TView;

static void
tview_alloc (TView * t, int w, int h, int bits)
{
  size_t cs = (size_t) w * 4 + 12, ds = (size_t) w * (bits / 8) + 6;

  t->rgba = (uint8_t *) xmalloc (cs * h);
  t->depth = (uint8_t *) xmalloc (ds * h);
  memset (t->rgba, 0, cs * h);
  memset (t->depth, 0, ds * h);
  t->v.rgba = plane_of (t->rgba, w, h, cs);
  t->v.depth = plane_of (t->depth, w, h, ds);
  t->v.depth_bits = bits;
  gcv_dibr_camera_simple (w, h, 100.0, 0.0, 0.0, &t->v.camera, NULL);
}

static void
tview_free (TView * t)
{
  free (t->rgba);
  free (t->depth);
}

static uint8_t *
px_rgba (TView * t, int x, int y)
{
  return t->rgba + (size_t) y * t->v.rgba.stride + 4 * (size_t) x;
}

static void
set_depth (TView * t, int x, int y, unsigned v)
{
  uint8_t *row = t->depth + (size_t) y * t->v.depth.stride;

  if (t->v.depth_bits == 16)
    ((uint16_t *) row)[x] = (uint16_t) v;
  else
    row[x] = (uint8_t) v;
}

static unsigned
get_depth (const TView * t, int x, int y)
{
  const uint8_t *row = t->depth + (size_t) y * t->v.depth.stride;

  return t->v.depth_bits == 16 ? ((const uint16_t *) row)[x] : row[x];
}

/* Colour from a photo (tiled), or random when img is NULL. */
static void
fill_colour (TView * t, const GcvTestImage * img, int ox, int oy)
{
  int x, y, w = t->v.rgba.width, h = t->v.rgba.height;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint8_t *p = px_rgba (t, x, y);
      if (img) {
        const uint8_t *s = img->data + (size_t) ((y + oy) % img->height) * img->stride
            + (size_t) ((x + ox) % img->width) * img->channels;
        p[0] = s[0];
        p[1] = img->channels >= 3 ? s[1] : s[0];
        p[2] = img->channels >= 3 ? s[2] : s[0];
      } else {
        uint32_t r = rnd ();
        p[0] = r & 255;
        p[1] = (r >> 8) & 255;
        p[2] = (r >> 16) & 255;
      }
      p[3] = 255;
    }
}

/* ---- params ------------------------------------------------------------ */

static void
check_bad (GcvDibrParams p, const char *property)
{
  const char *msg = gcv_dibr_params_check (&p);

  GCV_TEST_CHECK (msg && strstr (msg, property), "params: a bad %s was %s (%s)", property,
      msg ? "rejected without naming it" : "accepted", msg ? msg : "");
}

static void
test_params (void)
{
  GcvDibrParams d, p;

  gcv_dibr_params_init (&d);
  GCV_TEST_CHECK (gcv_dibr_params_check (&d) == NULL, "params: the defaults are rejected: %s",
      gcv_dibr_params_check (&d));
  GCV_TEST_CHECK (d.dcbf_size == 11, "params: dcbf-size default %d, not 11", d.dcbf_size);
  p = d; p.median_size = 4; check_bad (p, "median-size");
  p = d; p.median_size = 0; check_bad (p, "median-size");
  p = d; p.median_size = 17; check_bad (p, "median-size");
  p = d; p.dcbf_size = 2; check_bad (p, "dcbf-size");
  p = d; p.dcbf_size = 33; check_bad (p, "dcbf-size");
  p = d; p.sigma_spatial = 0.0; check_bad (p, "sigma-spatial");
  p = d; p.sigma_spatial = NAN; check_bad (p, "sigma-spatial");
  p = d; p.sigma_color = 0.0; check_bad (p, "sigma-color");
  p = d; p.z_near = 0.0; check_bad (p, "z-near");
  p = d; p.z_near = -1.0; check_bad (p, "z-near");
  p = d; p.z_far = p.z_near; check_bad (p, "z-far");
  p = d; p.z_far = INFINITY; check_bad (p, "z-far");
  p = d; p.focal_length = 0.0; check_bad (p, "focal-length");
  p = d; p.baseline = NAN; check_bad (p, "baseline");
  p = d; p.convergence = -1.0; check_bad (p, "convergence");
  p = d; p.convergence = 0.0;
  GCV_TEST_CHECK (gcv_dibr_params_check (&p) == NULL, "params: convergence 0 (parallel) rejected");
  p = d; p.median_size = 1; p.dcbf_size = 1;
  GCV_TEST_CHECK (gcv_dibr_params_check (&p) == NULL, "params: the filters off rejected");
}

/* ---- median ------------------------------------------------------------ */

static int
cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

static void
test_median (void)
{
  static const int sizes[][2] = { {1, 1}, {3, 2}, {2, 7}, {17, 13}, {64, 48} };
  static const int msz[] = { 3, 5, 9, 15 };
  int si, mi, bits, zu;
  long compared = 0;

  for (si = 0; si < 5; si++)
    for (mi = 0; mi < 4; mi++)
      for (bits = 8; bits <= 16; bits += 8)
        for (zu = 0; zu <= 1; zu++) {
          int w = sizes[si][0], h = sizes[si][1], m = msz[mi], r = m / 2, x, y, bad = 0;
          GcvDibrParams p;
          GcvError err;
          TView t;
          float *out;
          GcvPlane op;
          GcvDibrCpu *ctx;
          unsigned vmax = bits == 16 ? 65535u : 255u;

          if (quick && si == 4 && mi > 1)
            continue;
          out = (float *) xmalloc ((size_t) w * h * 4);
          op = plane_of (out, w, h, (size_t) w * 4);
          ctx = gcv_dibr_cpu_new (w, h, &err);
          tview_alloc (&t, w, h, bits);
          fill_colour (&t, NULL, 0, 0);
          for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
              uint32_t q = rnd ();
              /* a third unknown (0), a few runs of equal values */
              set_depth (&t, x, y, q % 3 == 0 ? 0 : (q >> 8) % 7 == 0 ? 100 : (q >> 4) % (vmax + 1));
            }
          gcv_dibr_params_init (&p);
          p.median_size = m;
          p.dcbf_size = 1;
          p.zero_is_unknown = zu;
          GCV_TEST_CHECK (gcv_dibr_cpu_clean_depth (ctx, &p, &t.v, &op, 2, NULL, &err) == GCV_OK,
              "median: %s", err.message);
          for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
              int buf[225], n = 0, xx, yy;
              float want;
              for (yy = y - r; yy <= y + r; yy++)
                for (xx = x - r; xx <= x + r; xx++) {
                  unsigned v;
                  if (xx < 0 || yy < 0 || xx >= w || yy >= h)
                    continue;
                  v = get_depth (&t, xx, yy);
                  if (zu && v == 0)
                    continue;
                  buf[n++] = (int) v;
                }
              qsort (buf, n, sizeof (int), cmp_int);
              want = n ? (float) buf[(n - 1) / 2] : GCV_DIBR_UNKNOWN;
              compared++;
              if (out[(size_t) y * w + x] != want && bad++ == 0)
                GCV_TEST_CHECK (0, "median %dx%d m %d bits %d zu %d at (%d, %d): %g, want %g", w, h, m, bits,
                    zu, x, y, out[(size_t) y * w + x], want);
            }
          GCV_TEST_CHECK (bad == 0, "median %dx%d m %d bits %d: %d pixels differ", w, h, m, bits, bad);
          tview_free (&t);
          free (out);
          gcv_dibr_cpu_free (ctx);
        }
  printf ("median: %ld pixels equal to the brute-force median\n", compared);
}

/* ---- DCBF -------------------------------------------------------------- */

/* The paper's formula in float64 on the values `in` (packed, -1 unknown). */
static void
dcbf_reference (const float *in, const TView * t, int k, double ss, double sc, double *out, double *wsum)
{
  int w = t->v.rgba.width, h = t->v.rgba.height, r = k / 2, x, y, dx, dy;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      const uint8_t *c = t->rgba + (size_t) y * t->v.rgba.stride + 4 * (size_t) x;
      double num = 0.0, den = 0.0;
      for (dy = -r; dy <= r; dy++)
        for (dx = -r; dx <= r; dx++) {
          int xx = x + dx, yy = y + dy;
          const uint8_t *n;
          double dist, wgt, d;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h)
            continue;
          d = in[(size_t) yy * w + xx];
          if (d < 0.0)
            continue;
          n = t->rgba + (size_t) yy * t->v.rgba.stride + 4 * (size_t) xx;
          dist = abs (n[0] - c[0]) + abs (n[1] - c[1]) + abs (n[2] - c[2]);
          wgt = exp (-(double) (dx * dx + dy * dy) / (2.0 * ss * ss)) * exp (-dist * dist / (2.0 * sc * sc));
          num += wgt * d;
          den += wgt;
        }
      out[(size_t) y * w + x] = den > 0.0 ? num / den : -1.0;
      wsum[(size_t) y * w + x] = den;
    }
}

static void
test_dcbf (const GcvTestImage * photo)
{
  static const struct {
    int w, h, k, bits;
    double ss, sc;
  } cases[] = {
    {120, 90, 11, 8, 3.0, 12.0},
    {97, 61, 5, 8, 1.5, 30.0},
    {64, 48, 31, 8, 8.0, 50.0},
    {33, 17, 3, 8, 0.5, 5.0},
    {1, 1, 11, 8, 3.0, 12.0},
    {3, 2, 11, 8, 3.0, 12.0},
    {120, 90, 11, 16, 3.0, 12.0},
  };
  size_t ci;

  for (ci = 0; ci < sizeof (cases) / sizeof (cases[0]); ci++) {
    int w = cases[ci].w, h = cases[ci].h, x, y, zu;
    unsigned vmax = cases[ci].bits == 16 ? 65535u : 255u;
    double tol = cases[ci].bits == 16 ? 0.05 : 1e-3;

    for (zu = 0; zu <= 1; zu++) {
      GcvDibrParams p;
      GcvError err;
      TView t;
      float *in = (float *) xmalloc ((size_t) w * h * 4), *out = (float *) xmalloc ((size_t) w * h * 4);
      double *ref = (double *) xmalloc ((size_t) w * h * 8), *ws = (double *) xmalloc ((size_t) w * h * 8);
      GcvPlane op = plane_of (out, w, h, (size_t) w * 4);
      GcvDibrCpu *ctx = gcv_dibr_cpu_new (w, h, &err);
      double maxd = 0.0;
      long known_mismatch = 0, compared = 0, tiny = 0;

      tview_alloc (&t, w, h, cases[ci].bits);
      fill_colour (&t, photo, 37 * (int) ci, 11 * (int) ci);
      /* depth: a slanted plane, a near block, noise, unknown holes */
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          double v = 0.2 + 0.3 * x / (double) (w > 1 ? w : 2) + 0.1 * y / (double) (h > 1 ? h : 2);
          uint32_t q = rnd ();
          unsigned iv;
          if (x > w / 3 && x < 2 * w / 3 && y > h / 4 && y < 3 * h / 4)
            v = 0.85;
          v += ((double) (q % 1000) / 1000.0 - 0.5) * 0.02;
          iv = (unsigned) floor (v * vmax + 0.5);
          if ((q >> 12) % 9 == 0 || (x > w / 8 && x < w / 8 + 4 && y > h / 8 && y < h / 8 + 4))
            iv = 0;
          set_depth (&t, x, y, iv);
        }
      gcv_dibr_params_init (&p);
      p.median_size = 1;
      p.dcbf_size = cases[ci].k;
      p.sigma_spatial = cases[ci].ss;
      p.sigma_color = cases[ci].sc;
      p.zero_is_unknown = zu;
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          unsigned v = get_depth (&t, x, y);
          in[(size_t) y * w + x] = zu && v == 0 ? -1.0f : (float) v;
        }
      GCV_TEST_CHECK (gcv_dibr_cpu_clean_depth (ctx, &p, &t.v, &op, 3, NULL, &err) == GCV_OK, "dcbf: %s",
          err.message);
      dcbf_reference (in, &t, cases[ci].k, cases[ci].ss, cases[ci].sc, ref, ws);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
          size_t i = (size_t) y * w + x;
          int kg = out[i] >= 0.0f, kr = ref[i] >= 0.0;
          GCV_TEST_CHECK (out[i] == out[i], "dcbf: NaN at (%d, %d)", x, y);
          if (kg != kr) {
            /* only where every weight is below float's range (the float
             * tables hold 0 there) */
            if (ws[i] > 1e-36)
              known_mismatch++;
            continue;
          }
          if (!kg)
            continue;
          if (ws[i] < 1e-20) {
            tiny++;
            continue;
          }
          compared++;
          if (fabs (out[i] - ref[i]) > maxd)
            maxd = fabs (out[i] - ref[i]);
        }
      GCV_TEST_CHECK (known_mismatch == 0, "dcbf case %zu: %ld pixels known in one, unknown in the other",
          ci, known_mismatch);
      GCV_TEST_CHECK (maxd <= tol, "dcbf case %zu (%dx%d K %d bits %d): max |cpu - float64| %.3g > %g", ci,
          w, h, cases[ci].k, cases[ci].bits, maxd, tol);
      printf ("dcbf %3dx%-3d K %2d sigma %4.1f / %4.1f bits %2d zero-unknown %d: max |cpu - float64| = %.3g "
          "value units over %ld pixels (%ld with weight sums < 1e-20 not compared)\n", w, h, cases[ci].k,
          cases[ci].ss, cases[ci].sc, cases[ci].bits, zu, maxd, compared, tiny);
      tview_free (&t);
      free (in);
      free (out);
      free (ref);
      free (ws);
      gcv_dibr_cpu_free (ctx);
    }
  }
}

/* ---- stages 2 and 3: a serial reference --------------------------------- */

/* The contract's stages 2 and 3 with the views' cleaned planes from
 * gcv_dibr_cpu_clean_depth (stage 1 is tested above). */
static void
render_reference (const GcvDibrParams * p, const TView * views, int n, const GcvDibrCamera * virt, int W,
    int H, uint8_t * rgba, float *depth, uint8_t * holes)
{
  uint64_t *k = (uint64_t *) xmalloc ((size_t) W * H * 8), *k2 = (uint64_t *) xmalloc ((size_t) W * H * 8);
  uint64_t *k3 = (uint64_t *) xmalloc ((size_t) W * H * 8);
  int i, x, y, any_frame = 0;
  GcvError err;

  for (i = 0; i < W * H; i++)
    k[i] = UINT64_MAX;
  for (i = 0; i < n; i++) {
    int w = views[i].v.rgba.width, h = views[i].v.rgba.height;
    float *c = (float *) xmalloc ((size_t) w * h * 4);
    GcvPlane cp = plane_of (c, w, h, (size_t) w * 4);
    GcvDibrCpu *ctx = gcv_dibr_cpu_new (w, h, &err);
    GcvDibrWarp wp;
    GcvDibrDecode dec;

    gcv_dibr_cpu_clean_depth (ctx, p, &views[i].v, &cp, 1, NULL, &err);
    gcv_dibr_cpu_free (ctx);
    gcv_dibr_warp_make (&views[i].v.camera, virt, &wp, &err);
    gcv_dibr_decode_make (p, views[i].v.depth_bits, &dec);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int tx, ty;
        float zf;
        double z;
        uint64_t key;
        uint32_t bits;
        if (c[(size_t) y * w + x] < 0.0f)
          continue;
        z = 1.0 / ((double) c[(size_t) y * w + x] * dec.a + dec.b);
        if (!gcv_dibr_warp_point (&wp, x, y, z, W, H, &tx, &ty, &zf))
          continue;
        memcpy (&bits, &zf, 4);
        key = ((uint64_t) bits << 32) | ((uint64_t) i << 28) | (uint64_t) (y * w + x);
        if (key < k[ty * W + tx])
          k[ty * W + tx] = key;
      }
    free (c);
  }
  /* cracks */
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      uint64_t a, b;
      float za, zb;
      k2[y * W + x] = k[y * W + x];
      if (k[y * W + x] != UINT64_MAX)
        continue;
      if (x > 0 && x < W - 1 && (a = k[y * W + x - 1]) != UINT64_MAX && (b = k[y * W + x + 1]) != UINT64_MAX) {
        za = gcv_dibr_key_z (a);
        zb = gcv_dibr_key_z (b);
        if (fabsf (za - zb) <= 0.05f * (za < zb ? za : zb)) {
          k2[y * W + x] = a > b ? a : b;
          continue;
        }
      }
      if (y > 0 && y < H - 1 && (a = k[(y - 1) * W + x]) != UINT64_MAX
          && (b = k[(y + 1) * W + x]) != UINT64_MAX) {
        za = gcv_dibr_key_z (a);
        zb = gcv_dibr_key_z (b);
        if (fabsf (za - zb) <= 0.05f * (za < zb ? za : zb))
          k2[y * W + x] = a > b ? a : b;
      }
    }
  for (i = 0; i < W * H; i++)
    any_frame |= k2[i] != UINT64_MAX;
  /* holes */
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      int row = -1, d, xx;
      uint64_t l = UINT64_MAX, r = UINT64_MAX;
      holes[y * W + x] = k2[y * W + x] == UINT64_MAX ? 255 : 0;
      k3[y * W + x] = k2[y * W + x];
      if (k2[y * W + x] != UINT64_MAX || !any_frame)
        continue;
      for (d = 0; d < H && row < 0; d++) {
        for (xx = 0; xx < W && row < 0; xx++)
          if (y - d >= 0 && k2[(y - d) * W + xx] != UINT64_MAX)
            row = y - d;
        for (xx = 0; xx < W && row < 0; xx++)
          if (y + d < H && k2[(y + d) * W + xx] != UINT64_MAX)
            row = y + d;
      }
      if (k2[row * W + x] != UINT64_MAX) {
        k3[y * W + x] = k2[row * W + x];
        continue;
      }
      for (xx = x - 1; xx >= 0; xx--)
        if (k2[row * W + xx] != UINT64_MAX) {
          l = k2[row * W + xx];
          break;
        }
      for (xx = x + 1; xx < W; xx++)
        if (k2[row * W + xx] != UINT64_MAX) {
          r = k2[row * W + xx];
          break;
        }
      k3[y * W + x] = l == UINT64_MAX ? r : r == UINT64_MAX ? l : (l > r ? l : r);
    }
  for (i = 0; i < W * H; i++) {
    uint64_t key = k3[i];
    if (key == UINT64_MAX) {
      rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = 0;
      depth[i] = (float) p->z_far;
    } else {
      const TView *v = &views[(key >> 28) & 15];
      uint32_t s = (uint32_t) key & 0x0fffffffu;
      int sx = (int) (s % (uint32_t) v->v.rgba.width), sy = (int) (s / (uint32_t) v->v.rgba.width);
      memcpy (rgba + 4 * (size_t) i, v->rgba + (size_t) sy * v->v.rgba.stride + 4 * (size_t) sx, 3);
      depth[i] = gcv_dibr_key_z (key);
    }
    rgba[4 * i + 3] = 255;
  }
  free (k);
  free (k2);
  free (k3);
}

/* Output planes with padded strides; compare packed copies. */
typedef struct {
  int W, H;
  size_t cs, ds, hs;
  uint8_t *rgba, *holes;
  float *depth;
  GcvPlane pr, pd, ph;
} TOut;

static void
tout_alloc (TOut * o, int W, int H)
{
  o->W = W;
  o->H = H;
  o->cs = (size_t) W * 4 + 8;
  o->ds = (size_t) W * 4 + 16;
  o->hs = (size_t) W + 3;
  o->rgba = (uint8_t *) xmalloc (o->cs * H);
  o->depth = (float *) xmalloc (o->ds * H);
  o->holes = (uint8_t *) xmalloc (o->hs * H);
  memset (o->rgba, 0x5a, o->cs * H);
  memset (o->depth, 0x5a, o->ds * H);
  memset (o->holes, 0x5a, o->hs * H);
  o->pr = plane_of (o->rgba, W, H, o->cs);
  o->pd = plane_of (o->depth, W, H, o->ds);
  o->ph = plane_of (o->holes, W, H, o->hs);
}

static void
tout_free (TOut * o)
{
  free (o->rgba);
  free (o->depth);
  free (o->holes);
}

static uint8_t *
o_rgba (const TOut * o, int x, int y)
{
  return o->rgba + (size_t) y * o->cs + 4 * (size_t) x;
}

static float
o_depth (const TOut * o, int x, int y)
{
  return ((const float *) ((const uint8_t *) o->depth + (size_t) y * o->ds))[x];
}

static uint8_t
o_hole (const TOut * o, int x, int y)
{
  return o->holes[(size_t) y * o->hs + x];
}

/* The number of pixels of o whose colour, depth bits or holes mask differ
 * from the packed reference planes (rr, rd, rh). */
static long
render_diff (const TOut * o, const uint8_t * rr, const float *rd, const uint8_t * rh)
{
  long bad = 0;
  int x, y;

  for (y = 0; y < o->H; y++)
    for (x = 0; x < o->W; x++) {
      size_t i = (size_t) y * o->W + x;
      float d = o_depth (o, x, y);
      if (memcmp (o_rgba (o, x, y), rr + 4 * i, 4) != 0 || memcmp (&d, rd + i, 4) != 0 || o_hole (o, x, y) != rh[i])
        bad++;
    }
  return bad;
}

static void
test_parity (const GcvTestImage * photo)
{
  static const struct {
    int W, H, n, bits, median, dcbf, zu;
    double f, b, zc;
  } cases[] = {
    {1, 1, 1, 8, 3, 11, 0, 100.0, 0.1, 3.0},
    {3, 2, 1, 8, 1, 1, 1, 100.0, 0.1, 3.0},
    {3, 2, 2, 16, 3, 5, 1, 50.0, -0.2, 0.0},
    {64, 48, 1, 8, 1, 1, 1, 80.0, 0.3, 2.0},
    {64, 48, 2, 8, 3, 11, 0, 80.0, 0.3, 2.0},
    {101, 77, 1, 16, 5, 7, 1, 150.0, -0.5, 4.0},
    {641, 479, 1, 8, 3, 11, 1, 600.0, 0.2, 3.0},
    {641, 479, 2, 16, 1, 1, 0, 600.0, 0.2, 0.0},
  };
  size_t ci;

  for (ci = 0; ci < sizeof (cases) / sizeof (cases[0]); ci++) {
    int W = cases[ci].W, H = cases[ci].H, n = cases[ci].n, i, x, y;
    TView views[2];
    GcvDibrParams p;
    GcvDibrCamera virt;
    GcvError err;
    TOut o1, o4;
    GcvDibrCpu *ctx;
    uint8_t *rr, *rh;
    float *rd;
    GcvDibrView vv[2];
    GcvDibrTimes tm;
    long holes = 0, bad1, bad4, b14 = 0;
    unsigned vmax = cases[ci].bits == 16 ? 65535u : 255u;

    if (quick && W > 600 && ci == 6)
      continue;
    ctx = gcv_dibr_cpu_new (W, H, &err);
    rr = (uint8_t *) xmalloc ((size_t) W * H * 4);
    rh = (uint8_t *) xmalloc ((size_t) W * H);
    rd = (float *) xmalloc ((size_t) W * H * 4);
    gcv_dibr_params_init (&p);
    p.median_size = cases[ci].median;
    p.dcbf_size = cases[ci].dcbf;
    p.zero_is_unknown = cases[ci].zu;
    p.z_near = 1.0;
    p.z_far = 8.0;
    for (i = 0; i < n; i++) {
      tview_alloc (&views[i], W, H, cases[ci].bits);
      fill_colour (&views[i], photo, 13 * i, 7 * i);
      /* coarse random blocks of depth: many surfaces at different depths,
       * so conflicts, cracks and holes; some equal values (ties) */
      for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
          uint32_t q = (uint32_t) ((x / 9) * 7919 + (y / 7) * 104729 + i * 31) * 2654435761u;
          unsigned v = (q >> 8) % 4 == 0 ? vmax / 2 : (q >> 12) % (vmax + 1);
          if (cases[ci].zu && rnd () % 50 == 0)
            v = 0;
          set_depth (&views[i], x, y, v);
        }
      gcv_dibr_camera_simple (W, H, cases[ci].f, 0.0, 0.0, &views[i].v.camera, NULL);
      /* the second view a little to the left */
      if (i == 1)
        views[i].v.camera.E[3] = 0.1;
      vv[i] = views[i].v;
    }
    gcv_dibr_camera_simple (W, H, cases[ci].f, cases[ci].b, cases[ci].zc, NULL, &virt);
    render_reference (&p, views, n, &virt, W, H, rr, rd, rh);
    tout_alloc (&o1, W, H);
    tout_alloc (&o4, W, H);
    GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, vv, n, &virt, &o1.pr, &o1.pd, &o1.ph, 1, &tm, &err) == GCV_OK,
        "render: %s", err.message);
    GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, vv, n, &virt, &o4.pr, &o4.pd, &o4.ph, 4, NULL, &err) == GCV_OK,
        "render: %s", err.message);
    bad1 = render_diff (&o1, rr, rd, rh);
    bad4 = render_diff (&o4, rr, rd, rh);
    for (y = 0; y < H; y++) {
      b14 += memcmp (o1.rgba + y * o1.cs, o4.rgba + y * o4.cs, (size_t) W * 4) != 0;
      b14 += memcmp ((uint8_t *) o1.depth + y * o1.ds, (uint8_t *) o4.depth + y * o4.ds, (size_t) W * 4) != 0;
      b14 += memcmp (o1.holes + y * o1.hs, o4.holes + y * o4.hs, (size_t) W) != 0;
      for (x = 0; x < W; x++) {
        holes += o_hole (&o1, x, y) != 0;
        GCV_TEST_CHECK (o_rgba (&o1, x, y)[3] == 255 && o_depth (&o1, x, y) > 0.0f,
            "render %dx%d: pixel (%d, %d) not filled", W, H, x, y);
      }
    }
    GCV_TEST_CHECK (bad1 == 0 && bad4 == 0, "render case %zu %dx%d, %d views: %ld / %ld pixels differ from the "
        "serial reference (1 / 4 threads)", ci, W, H, n, bad1, bad4);
    GCV_TEST_CHECK (b14 == 0, "render case %zu: 1 and 4 threads differ in %ld rows", ci, b14);
    printf ("render %3dx%-3d %d view(s) %2d-bit median %d dcbf %2d: equal to the serial reference, 1 = 4 "
        "threads; %ld holes filled; clean %.2f warp %.2f fill %.2f ms (1 thread)\n", W, H, n, cases[ci].bits,
        cases[ci].median, cases[ci].dcbf, holes, tm.clean_ms, tm.warp_ms, tm.fill_ms);
    for (i = 0; i < n; i++)
      tview_free (&views[i]);
    tout_free (&o1);
    tout_free (&o4);
    free (rr);
    free (rh);
    free (rd);
    gcv_dibr_cpu_free (ctx);
  }
}

/* ---- z-buffer and holes ------------------------------------------------ */

static void
test_zbuffer (void)
{
  int W = 40, H = 30, order, x, y;
  GcvDibrParams p;
  GcvError err;

  gcv_dibr_params_init (&p);
  p.median_size = 1;
  p.dcbf_size = 1;
  for (order = 0; order < 3; order++) {
    TView t[2];
    GcvDibrView vv[2];
    GcvDibrCamera virt;
    TOut o;
    GcvDibrCpu *ctx = gcv_dibr_cpu_new (W, H, &err);
    long wrong = 0;

    for (x = 0; x < 2; x++) {
      tview_alloc (&t[x], W, H, 8);
      for (y = 0; y < H; y++) {
        int xx;
        for (xx = 0; xx < W; xx++) {
          uint8_t *c = px_rgba (&t[x], xx, y);
          c[0] = x == 0 ? 200 : 10;
          c[1] = 50;
          c[2] = x == 0 ? 10 : 200;
          c[3] = 255;
          /* order 0: view 0 near, 1: view 1 near, 2: equal depths */
          set_depth (&t[x], xx, y, order == 2 ? 120 : (order == x ? 230 : 20));
        }
      }
      vv[x] = t[x].v;
    }
    gcv_dibr_camera_simple (W, H, 100.0, 0.0, 0.0, NULL, &virt);
    tout_alloc (&o, W, H);
    GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, vv, 2, &virt, &o.pr, &o.pd, &o.ph, 4, NULL, &err) == GCV_OK,
        "zbuffer: %s", err.message);
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        int want = order == 1 ? 1 : 0;  /* ties: view 0 */
        if (o_rgba (&o, x, y)[0] != (want == 0 ? 200 : 10) || o_hole (&o, x, y))
          wrong++;
      }
    GCV_TEST_CHECK (wrong == 0, "zbuffer: order %d: %ld pixels not from the %s view", order, wrong,
        order == 2 ? "first (tie)" : "nearer");
    tview_free (&t[0]);
    tview_free (&t[1]);
    tout_free (&o);
    gcv_dibr_cpu_free (ctx);
  }
}

/* A red foreground square on a blue background, the camera moved right. */
static void
test_holes (void)
{
  int W = 160, H = 100, x, y, pass;
  double f = 200.0, b = 0.2, zn = 1.0, zf = 10.0, zfg = 2.0, zbg = 8.0;
  int sx0 = 60, sx1 = 99, sy0 = 30, sy1 = 69;

  for (pass = 0; pass < 2; pass++) {
    GcvDibrParams p;
    GcvError err;
    TView t;
    TOut o;
    GcvDibrCamera virt;
    GcvDibrCpu *ctx = gcv_dibr_cpu_new (W, H, &err);
    unsigned vfg, vbg;
    double dfg, dbg;
    long strip = 0, strip_bad = 0, cover_bad = 0, holes = 0;

    gcv_dibr_params_init (&p);
    p.z_near = zn;
    p.z_far = zf;
    if (pass == 0) {
      p.median_size = 1;
      p.dcbf_size = 1;
    }
    vfg = (unsigned) floor (255.0 * (1.0 / zfg - 1.0 / zf) / (1.0 / zn - 1.0 / zf) + 0.5);
    vbg = (unsigned) floor (255.0 * (1.0 / zbg - 1.0 / zf) / (1.0 / zn - 1.0 / zf) + 0.5);
    tview_alloc (&t, W, H, 8);
    gcv_dibr_camera_simple (W, H, f, 0.0, 0.0, &t.v.camera, NULL);
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        int fg = x >= sx0 && x <= sx1 && y >= sy0 && y <= sy1;
        uint8_t *c = px_rgba (&t, x, y);
        c[0] = fg ? 220 : 20;
        c[1] = 40;
        c[2] = fg ? 20 : 220;
        c[3] = 255;
        set_depth (&t, x, y, fg ? vfg : vbg);
      }
    gcv_dibr_camera_simple (W, H, f, b, 0.0, NULL, &virt);
    tout_alloc (&o, W, H);
    GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &t.v, 1, &virt, &o.pr, &o.pd, &o.ph, 0, NULL, &err) == GCV_OK,
        "holes: %s", err.message);
    /* shifts (parallel cameras): dx = -f b / Z, of the decoded depths */
    dfg = -f * b * ((vfg / 255.0) * (1.0 / zn - 1.0 / zf) + 1.0 / zf);
    dbg = -f * b * ((vbg / 255.0) * (1.0 / zn - 1.0 / zf) + 1.0 / zf);
    for (y = sy0 + 1; y < sy1; y++)
      for (x = 0; x < W; x++) {
        const uint8_t *c = o_rgba (&o, x, y);
        /* the disoccluded strip: right of the moved square's right edge,
         * left of where the background behind that edge went (a pixel of
         * margin for the rounding) */
        if (x > sx1 + dfg + 1.5 && x < sx1 + dbg + 0.5) {
          strip++;
          if (!(c[2] > 200 && c[0] < 40))
            strip_bad++;
          if (fabsf (o_depth (&o, x, y) - (float) (1.0 / ((vbg / 255.0) * (1.0 / zn - 1.0 / zf) + 1.0 / zf)))
              > 1e-3f)
            strip_bad++;
        }
        /* the moved square covers the background left of the old one */
        if (x >= sx0 + dfg + 1 && x <= sx1 + dfg - 1 && !(c[0] > 200 && c[2] < 40))
          cover_bad++;
      }
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        holes += o_hole (&o, x, y) != 0;
        GCV_TEST_CHECK (o_rgba (&o, x, y)[3] == 255, "holes: pixel (%d, %d) not filled", x, y);
      }
    GCV_TEST_CHECK (strip > 0 && strip_bad == 0, "holes (pass %d): %ld of %ld disoccluded pixels not the "
        "background's colour / depth", pass, strip_bad, strip);
    GCV_TEST_CHECK (cover_bad == 0, "holes (pass %d): %ld pixels of the moved square not foreground", pass,
        cover_bad);
    GCV_TEST_CHECK (holes >= strip, "holes (pass %d): the holes mask has %ld pixels, the strip %ld", pass,
        holes, strip);
    printf ("holes (%s): shifts fg %.2f bg %.2f px, strip of %ld pixels all background, %ld holes filled\n",
        pass ? "median 3 + dcbf 11" : "no clean-up", dfg, dbg, strip, holes);
    tview_free (&t);
    tout_free (&o);
    gcv_dibr_cpu_free (ctx);
  }

  /* an empty frame: every depth unknown */
  {
    GcvDibrParams p;
    GcvError err;
    TView t;
    TOut o;
    GcvDibrCamera virt;
    GcvDibrCpu *ctx = gcv_dibr_cpu_new (7, 5, &err);
    long bad = 0;

    gcv_dibr_params_init (&p);
    p.zero_is_unknown = 1;
    tview_alloc (&t, 7, 5, 16);
    fill_colour (&t, NULL, 0, 0);
    gcv_dibr_camera_simple (7, 5, 10.0, 0.1, 2.0, &t.v.camera, &virt);
    tout_alloc (&o, 7, 5);
    GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &t.v, 1, &virt, &o.pr, &o.pd, NULL, 2, NULL, &err) == GCV_OK,
        "empty: %s", err.message);
    for (x = 0; x < 35; x++) {
      const uint8_t *c = o_rgba (&o, x % 7, x / 7);
      if (c[0] || c[1] || c[2] || c[3] != 255 || o_depth (&o, x % 7, x / 7) != (float) p.z_far)
        bad++;
    }
    GCV_TEST_CHECK (bad == 0, "empty frame: %ld pixels not black at z-far", bad);
    tview_free (&t);
    tout_free (&o);
    gcv_dibr_cpu_free (ctx);
  }
}

static void
test_bad_input (void)
{
  GcvDibrParams p;
  GcvError err;
  TView t;
  TOut o;
  GcvDibrCamera virt;
  GcvDibrCpu *ctx = gcv_dibr_cpu_new (8, 8, &err);
  GcvDibrView v;

  GCV_TEST_CHECK (gcv_dibr_cpu_new (0, 8, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "a 0x8 context was made");
  gcv_dibr_params_init (&p);
  tview_alloc (&t, 8, 8, 8);
  tout_alloc (&o, 8, 8);
  gcv_dibr_camera_simple (8, 8, 10.0, 0.1, 2.0, &t.v.camera, &virt);
  p.dcbf_size = 4;
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &t.v, 1, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID && strstr (err.message, "dcbf-size"), "bad dcbf-size accepted by render: %s",
      err.message);
  gcv_dibr_params_init (&p);
  v = t.v;
  v.depth_bits = 12;
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &v, 1, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID, "12-bit depth accepted");
  v = t.v;
  v.camera.K[8] = 2.0;
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &v, 1, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID, "a K with last row 0 0 2 accepted");
  v = t.v;
  v.camera.E[0] = 0.0;
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &v, 1, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID, "a singular E accepted");
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &t.v, 17, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID, "17 views accepted");
  o.pr.width = 7;
  GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &t.v, 1, &virt, &o.pr, NULL, NULL, 1, NULL, &err)
      == GCV_ERROR_INVALID, "a 7x8 output accepted by an 8x8 context");
  tview_free (&t);
  tout_free (&o);
  gcv_dibr_cpu_free (ctx);
}

/* ---- the synthetic scene ------------------------------------------------ */

static void
camera_of (const DibrCamera * c, GcvDibrCamera * g)
{
  memcpy (g->K, c->K, sizeof (g->K));
  memcpy (g->E, c->E, sizeof (g->E));
}

static void
test_scene (void)
{
  DibrScene *scene = NULL;
  int W = 320, H = 240, target, bits, clean;

  if (dibr_scene_standard (&scene) != 0) {
    GCV_TEST_CHECK (0, "scene: the standard scene could not be made");
    return;
  }
  for (target = 0; target < 2; target++)
    for (bits = 8; bits <= 16; bits += 8)
      for (clean = 0; clean < 2; clean++) {
        DibrCamera ca, cb;
        DibrView va, vb;
        GcvDibrParams p;
        GcvDibrView v;
        GcvDibrCamera virt;
        GcvError err;
        TOut o;
        GcvDibrCpu *ctx = gcv_dibr_cpu_new (W, H, &err);
        uint8_t *mask = (uint8_t *) xmalloc ((size_t) W * H), *depth;
        size_t ds = (size_t) W * (bits / 8);
        long n_vis, n_cmp, holes = 0, x;
        double psnr, psnr_all;

        dibr_std_camera_a (W, H, &ca);
        if (target == 0)
          dibr_std_camera_b (W, H, &cb);
        else
          dibr_std_camera_c (W, H, &cb);
        dibr_render (scene, &ca, &va);
        dibr_render (scene, &cb, &vb);
        depth = (uint8_t *) xmalloc (ds * H);
        dibr_depth_plane (&va, scene->z_near, scene->z_far, bits, depth, ds);
        gcv_dibr_params_init (&p);
        p.z_near = scene->z_near;
        p.z_far = scene->z_far;
        if (!clean) {
          p.median_size = 1;
          p.dcbf_size = 1;
        }
        v.rgba = plane_of (va.rgba, W, H, (size_t) W * 4);
        v.depth = plane_of (depth, W, H, ds);
        v.depth_bits = bits;
        camera_of (&ca, &v.camera);
        camera_of (&cb, &virt);
        tout_alloc (&o, W, H);
        GCV_TEST_CHECK (gcv_dibr_cpu_render (ctx, &p, &v, 1, &virt, &o.pr, &o.pd, &o.ph, 0, NULL, &err)
            == GCV_OK, "scene: %s", err.message);
        if (bits == 8 && clean == 0) {
          /* the warp's geometry against the ray caster's projection: every
           * pixel of A at its true Z lands where dibr_project puts it */
          GcvDibrWarp wp;
          long off = 0, n_in = 0, y;
          double maxz = 0.0;
          gcv_dibr_warp_make (&v.camera, &virt, &wp, &err);
          for (y = 0; y < H; y++)
            for (x = 0; x < W; x++) {
              double w3[3], u, vv, z;
              int tx, ty, ok;
              float zf;
              dibr_view_point (&ca, &va, (int) x, (int) y, w3);
              ok = dibr_project (&cb, w3, &u, &vv, &z);
              if (!ok || u < -0.49 || vv < -0.49 || u > W - 0.51 || vv > H - 0.51
                  || fabs (u + 0.5 - floor (u + 0.5)) < 1e-6 || fabs (vv + 0.5 - floor (vv + 0.5)) < 1e-6)
                continue;
              n_in++;
              if (!gcv_dibr_warp_point (&wp, (int) x, (int) y, va.z[y * W + x], W, H, &tx, &ty, &zf)
                  || tx != (int) floor (u + 0.5) || ty != (int) floor (vv + 0.5))
                off++;
              else if (fabs (zf - z) / z > maxz)
                maxz = fabs (zf - z) / z;
            }
          GCV_TEST_CHECK (off == 0 && maxz < 1e-6, "scene: A -> %s: %ld of %ld warped pixels not where the ray "
              "caster projects them (relative Z error %.3g)", target ? "C" : "B", off, n_in, maxz);
        }
        n_vis = dibr_visibility_mask (&cb, &vb, &ca, &va, 0.01, mask);
        psnr = dibr_psnr_rgb (o.rgba, o.cs, 4, vb.rgba, (size_t) W * 4, 4, mask, W, H, &n_cmp);
        psnr_all = dibr_psnr_rgb (o.rgba, o.cs, 4, vb.rgba, (size_t) W * 4, 4, NULL, W, H, NULL);
        for (x = 0; x < (long) W * H; x++)
          holes += o_hole (&o, (int) (x % W), (int) (x / W)) != 0;
        /* B (the case, simple mode): >= 30 dB.  C (full mode: turned
         * 4 degrees, 3% wider view, shifted principal point): the warp puts
         * each source pixel centre on the nearest target pixel, up to half
         * a pixel off on both axes, which costs ~2.5 dB on these textures
         * (a backward bilinear colour fetch measured 32.5 dB instead of
         * 29.9); 29 dB there. */
        GCV_TEST_CHECK (psnr >= (target ? 29.0 : 30.0), "scene: A -> %s, %d-bit depth, %s: PSNR %.2f dB < %d on "
            "the %ld pixels visible in A", target ? "C" : "B", bits, clean ? "defaults" : "no clean-up", psnr,
            target ? 29 : 30, n_cmp);
        printf ("scene A -> %s %2d-bit depth, %-19s PSNR %.2f dB on %ld pixels visible in A (%.1f%%), %.2f dB "
            "on all; %ld holes filled\n", target ? "C (full)" : "B (simple)", bits,
            clean ? "median 3, dcbf 11:" : "no clean-up:", psnr, n_vis, 100.0 * n_vis / (W * H), psnr_all,
            holes);
        if (gcv_test_dump_dir () && psnr < 30.0) {
          char path[512];
          uint8_t *rgb = (uint8_t *) xmalloc ((size_t) W * H * 3);
          for (x = 0; x < (long) W * H; x++)
            memcpy (rgb + 3 * x, o_rgba (&o, (int) (x % W), (int) (x / W)), 3);
          snprintf (path, sizeof (path), "%s/dibr-scene-%d-%d-%d.png", gcv_test_dump_dir (), target, bits,
              clean);
          gcv_test_write_png (path, rgb, W, H, (size_t) W * 3, 3);
          free (rgb);
        }
        dibr_view_clear (&va);
        dibr_view_clear (&vb);
        free (depth);
        free (mask);
        tout_free (&o);
        gcv_dibr_cpu_free (ctx);
      }
  dibr_scene_free (scene);
}

/* ---- packed frames ---------------------------------------------------------------------- */

/* The I420 conversion written out independently: floor division instead
 * of the shift, explicit clamps. */
static uint8_t
ref_clamp (double v)
{
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

static void
ref_i420 (int Y, int U, int V, uint8_t * rgb)
{
  const double c = 298.0 * (Y - 16) + 128.0, u = U - 128.0, v = V - 128.0;
  rgb[0] = ref_clamp (floor ((c + 409.0 * v) / 256.0));
  rgb[1] = ref_clamp (floor ((c - 100.0 * u - 208.0 * v) / 256.0));
  rgb[2] = ref_clamp (floor ((c + 516.0 * u) / 256.0));
}

/* gcv_dibr_unpack against the definitions, every layout the elements use,
 * odd sizes, 1 and 4 threads; and the frame checks. */
static void
test_unpack (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 7, 5 }, { 64, 33 }, { 301, 299 } };
  static const int offs[][4] = { { 0, 1, 2, 0 }, { 2, 1, 0, 2 }, { 0, 1, 2, 3 }, { 3, 2, 1, 0 } };
  long checked = 0;

  for (int si = 0; si < 5; si++)
    for (int layout = 0; layout < 3; layout++)      /* side by side, top-bottom, in the colour pixels */
      for (int fmt = 0; fmt < 7; fmt++) {          /* 4 byte orders, I420, 2 orders of 16-bit samples */
        const int w = sizes[si][0], h = sizes[si][1], i420 = fmt == 4, wide = fmt >= 5;
        if (i420 && layout == 2)
          continue;
        const int fw = layout == 0 ? 2 * w : w, fh = layout == 1 ? 2 * h : h, bpp = i420 ? 1 : wide ? 8 : 4;
        const int *o4 = offs[wide ? fmt - 5 : fmt < 4 ? fmt : 0];
        GcvDibrPacked f;
        uint8_t *mem[3] = { NULL, NULL, NULL };
        memset (&f, 0, sizeof (f));
        f.format = i420 ? GCV_DIBR_PACKED_I420 : wide ? GCV_DIBR_PACKED_RGBA64 : GCV_DIBR_PACKED_4BYTE;
        f.width = w;
        f.height = h;
        f.depth_x = layout == 0 ? w : 0;
        f.depth_y = layout == 1 ? h : 0;
        if (!i420) {
          f.r = o4[0];
          f.g = o4[1];
          f.b = o4[2];
          f.d = layout == 2 ? o4[3] == 0 ? 3 : o4[3] : o4[3];
        }
        for (int i = 0; i < (i420 ? 3 : 1); i++) {
          const int pw = i ? (fw + 1) / 2 : fw, ph = i ? (fh + 1) / 2 : fh;
          const size_t stride = (size_t) pw * bpp + 3;
          mem[i] = (uint8_t *) gcv_test_malloc (stride * ph);
          for (size_t k = 0; k < stride * ph; k++)
            mem[i][k] = (uint8_t) rnd ();
          f.planes[i] = plane_of (mem[i], pw, ph, stride);
        }
        GCV_TEST_CHECK (gcv_dibr_packed_check (&f) == NULL, "unpack: a good frame refused: %s",
            gcv_dibr_packed_check (&f));
        GCV_TEST_CHECK (gcv_dibr_packed_depth_bits (&f) == (wide ? 16 : 8), "unpack: depth bits");
        for (int nt = 1; nt <= 4; nt += 3) {
          const int db = wide ? 2 : 1;
          uint8_t *rgba = (uint8_t *) gcv_test_malloc ((size_t) w * 4 * h);
          uint8_t *dep = (uint8_t *) gcv_test_malloc ((size_t) w * h * db);
          GcvPlane pr = plane_of (rgba, w, h, (size_t) w * 4), pd = plane_of (dep, w, h, (size_t) w * db);
          GcvError err = { GCV_OK, "" };
          long bad = 0;
          GCV_TEST_CHECK (gcv_dibr_unpack (&f, &pr, &pd, nt, NULL, &err) == GCV_OK, "unpack: %s", err.message);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
              uint8_t want[4];
              unsigned wd, got;
              const uint8_t *p0 = mem[0];
              const size_t s0 = f.planes[0].stride;
              if (wide) {
                /* little-endian 16-bit samples: colour the high bytes */
                const uint8_t *px = p0 + s0 * y + 8 * x, *dp = p0 + s0 * (y + f.depth_y) + 8 * (x + f.depth_x);
                want[0] = px[2 * f.r + 1];
                want[1] = px[2 * f.g + 1];
                want[2] = px[2 * f.b + 1];
                wd = dp[2 * f.d] + 256u * dp[2 * f.d + 1];
              } else if (i420) {
                ref_i420 (p0[s0 * y + x], mem[1][f.planes[1].stride * (y / 2) + x / 2],
                    mem[2][f.planes[2].stride * (y / 2) + x / 2], want);
                wd = p0[s0 * (y + f.depth_y) + x + f.depth_x];
              } else {
                want[0] = p0[s0 * y + 4 * x + f.r];
                want[1] = p0[s0 * y + 4 * x + f.g];
                want[2] = p0[s0 * y + 4 * x + f.b];
                wd = p0[s0 * (y + f.depth_y) + 4 * (x + f.depth_x) + f.d];
              }
              want[3] = 255;
              got = wide ? ((const uint16_t *) dep)[(size_t) w * y + x] : dep[(size_t) w * y + x];
              bad += memcmp (rgba + (size_t) w * 4 * y + 4 * x, want, 4) != 0 || got != wd;
              checked++;
            }
          GCV_TEST_CHECK (bad == 0, "unpack %dx%d layout %d format %d, %d threads: %ld pixels differ from the "
              "definition", w, h, layout, fmt, nt, bad);
          free (rgba);
          free (dep);
        }
        /* refused: a plane too small for the depth part, chroma missing,
         * an offset out of range, outputs of another size */
        {
          GcvDibrPacked b = f;
          GcvError err = { GCV_OK, "" };
          uint8_t one[4 * 4];
          GcvPlane p1 = plane_of (one, 1, 1, 4), p1d = plane_of (one, 1, 1, 2);
          b.depth_x += 1;
          if (layout != 0)
            b.depth_y += 1;
          GCV_TEST_CHECK (gcv_dibr_packed_check (&b) != NULL, "unpack: depth part outside the frame accepted");
          b = f;
          if (i420)
            b.planes[2].data = NULL;
          else
            b.d = 4;
          GCV_TEST_CHECK (gcv_dibr_unpack (&b, &p1, &p1d, 1, NULL, &err) == GCV_ERROR_INVALID && err.message[0],
              "unpack: bad frame accepted");
          if (w > 1) {
            GCV_TEST_CHECK (gcv_dibr_unpack (&f, &p1, &p1d, 1, NULL, &err) == GCV_ERROR_INVALID,
                "unpack: outputs of another size accepted");
          }
        }
        for (int i = 0; i < 3; i++)
          free (mem[i]);
      }
  printf ("unpack: %ld pixels equal the definitions\n", checked);
}

/* ---- output frames (gcv_dibr_compose) ----------------------------------- */

/* An eye for the compose tests: colour (padded rows, garbage in the
 * padding and the fourth bytes), F32 depth (random values of the 8-bit
 * coding, values half-way between two codes, NaN, infinity, 0, negative,
 * nearer than z_near, farther than z_far) and a holes mask (non-zero
 * values of several sizes on a third of the pixels). */
typedef struct {
  GcvDibrEye e;
  uint8_t *rgba, *holes;
  float *depth;
} CEye;

static void
ceye_make (CEye * c, int w, int h, const GcvDibrDecode * dec)
{
  const size_t cs = (size_t) w * 4 + 4 * (rnd () % 3) + rnd () % 4, ds = (size_t) w * 4 + 4 * (rnd () % 3);
  const size_t hs = (size_t) w + rnd () % 5;

  c->rgba = (uint8_t *) xmalloc (cs * h);
  c->depth = (float *) xmalloc (ds * h);
  c->holes = (uint8_t *) xmalloc (hs * h);
  for (size_t i = 0; i < cs * h; i++)
    c->rgba[i] = (uint8_t) rnd ();
  for (size_t i = 0; i < hs * h; i++)
    c->holes[i] = rnd () % 3 ? 0 : (uint8_t) (1u << (rnd () % 8));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float *z = (float *) ((uint8_t *) c->depth + ds * y) + x;
      const uint32_t r = rnd () % 16;
      double v = (rnd () % 25600) / 100.0;
      if (r == 0)
        *z = NAN;
      else if (r == 1)
        *z = INFINITY;
      else if (r == 2)
        *z = 0.0f;
      else if (r == 3)
        *z = -1.0f - (float) (rnd () % 100);
      else if (r == 4)
        *z = (float) (1.0 / ((rnd () % 255 + 0.5) * dec->a + dec->b));
      else if (r == 5)
        *z = (float) (2.0 / dec->b);    /* beyond z_far */
      else if (r == 6)
        *z = (float) (0.5 / (255.0 * dec->a + dec->b));        /* nearer than z_near */
      else
        *z = (float) (1.0 / (v * dec->a + dec->b));
    }
  memset (&c->e, 0, sizeof (c->e));
  c->e.rgba = plane_of (c->rgba, w, h, cs);
  c->e.depth = plane_of (c->depth, w, h, ds);
  c->e.holes = plane_of (c->holes, w, h, hs);
}

static void
ceye_free (CEye * c)
{
  free (c->rgba);
  free (c->depth);
  free (c->holes);
}

/* The element's finishing of a frame, written out as it was
 * (gst/gstcudadibr.c before the compose moved into the contract): each
 * eye's RGBA copied into a packed scratch picture, the debug paint on it
 * (depth: grey of the rounded, clamped value; holes: white), the anaglyph
 * (eye 0's R into eye 1's picture, which goes to 0, 0), then each picture
 * into the output with R, G, B at the order's offsets and 255 in the byte
 * that is neither (6 - r - g - b). */
static void
ref_compose (const CEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show, const GcvDibrDecode * dec,
    const GcvDibrPixelOrder * o, uint8_t * out, size_t out_stride)
{
  const int w = eyes[0].e.rgba.width, h = eyes[0].e.rgba.height;
  uint8_t *pic[2] = { NULL, NULL };

  for (int k = 0; k < n_eyes; k++) {
    const GcvDibrEye *e = &eyes[k].e;
    pic[k] = (uint8_t *) xmalloc ((size_t) w * h * 4);
    for (int y = 0; y < h; y++) {
      uint8_t *p = pic[k] + (size_t) w * 4 * y;
      memcpy (p, (const uint8_t *) e->rgba.data + e->rgba.stride * y, (size_t) w * 4);
      for (int x = 0; x < w; x++) {
        int v;
        if (show == GCV_DIBR_SHOW_DEPTH) {
          const float z = ((const float *) ((const uint8_t *) e->depth.data + e->depth.stride * y))[x];
          const double d = gcv_dibr_z_to_value (dec, z);
          if (isnan (d)) {
            v = 0;
          } else {
            double f = floor (d + 0.5);
            v = f < 0.0 ? 0 : f > 255.0 ? 255 : (int) f;
          }
        } else if (show == GCV_DIBR_SHOW_HOLES) {
          if (((const uint8_t *) e->holes.data)[e->holes.stride * y + x] == 0)
            continue;
          v = 255;
        } else {
          continue;
        }
        p[4 * x + 0] = p[4 * x + 1] = p[4 * x + 2] = (uint8_t) v;
        p[4 * x + 3] = 255;
      }
    }
  }
  if (anaglyph)
    for (size_t i = 0; i < (size_t) w * h; i++)
      pic[1][4 * i] = pic[0][4 * i];
  for (int k = anaglyph ? 1 : 0; k < n_eyes; k++) {
    const int ox = anaglyph ? 0 : eyes[k].e.ox, oy = anaglyph ? 0 : eyes[k].e.oy, a = 6 - o->r - o->g - o->b;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        const uint8_t *i = pic[k] + ((size_t) w * y + x) * 4;
        uint8_t *d = out + out_stride * (y + oy) + 4 * (size_t) (x + ox);
        d[o->r] = i[0];
        d[o->g] = i[1];
        d[o->b] = i[2];
        d[a] = 255;
      }
  }
  free (pic[0]);
  free (pic[1]);
}

/* The element's output modes: where the eyes go in a frame of *ow x *oh. */
enum { PLACE_VIRTUAL, PLACE_SIDE_BY_SIDE, PLACE_TOP_BOTTOM, PLACE_ANAGLYPH, PLACE_OFFSET, PLACE_SWAPPED,
  N_PLACES };
static const char *const place_names[] = { "virtual", "side-by-side", "top-bottom", "anaglyph",
  "one eye at 3, 2 of a larger frame", "side-by-side, eye 0 right" };

static int
place_eyes (int place, CEye * eyes, int w, int h, int *ow, int *oh)
{
  *ow = place == PLACE_SIDE_BY_SIDE || place == PLACE_SWAPPED ? 2 * w : place == PLACE_OFFSET ? w + 5 : w;
  *oh = place == PLACE_TOP_BOTTOM ? 2 * h : place == PLACE_OFFSET ? h + 3 : h;
  eyes[0].e.ox = place == PLACE_OFFSET ? 3 : place == PLACE_SWAPPED ? w : 0;
  eyes[0].e.oy = place == PLACE_OFFSET ? 2 : 0;
  eyes[1].e.ox = place == PLACE_SIDE_BY_SIDE ? w : 0;
  eyes[1].e.oy = place == PLACE_TOP_BOTTOM ? h : 0;
  return place == PLACE_VIRTUAL || place == PLACE_OFFSET ? 1 : 2;
}

static const struct {
  const char *name;
  GcvDibrPixelOrder o;
} compose_orders[] = {
  { "RGBA", { 0, 1, 2, 3 } }, { "BGRA", { 2, 1, 0, 3 } }, { "RGBx", { 0, 1, 2, 3 } },
  { "BGRx", { 2, 1, 0, 3 } }, { "xRGB", { 1, 2, 3, 0 } }, { "xBGR", { 3, 2, 1, 0 } },
};

/* One case of gcv_dibr_compose against ref_compose: two fresh eyes of
 * w x h placed as `place` says, into an output whose rows are padded and
 * whose bytes start random (those outside the pictures must stay).  Adds
 * the output's pixels to *pixels. */
static void
compose_case (int w, int h, int place, GcvDibrShow show, int oi, int nt, const GcvDibrDecode * dec, long *pixels)
{
  const int anaglyph = place == PLACE_ANAGLYPH;
  const GcvDibrPixelOrder *order = &compose_orders[oi].o;
  CEye eyes[2];
  GcvDibrEye ge[2];
  GcvError err = { GCV_OK, "" };
  int ow, oh, n;
  long bad = 0;

  ceye_make (&eyes[0], w, h, dec);
  ceye_make (&eyes[1], w, h, dec);
  n = place_eyes (place, eyes, w, h, &ow, &oh);
  const size_t os = (size_t) ow * 4 + 4 * (size_t) (oi % 3) + (size_t) (w % 2);
  uint8_t *got = (uint8_t *) xmalloc (os * oh), *want = (uint8_t *) xmalloc (os * oh);
  GcvPlane out = plane_of (got, ow, oh, os);
  for (size_t i = 0; i < os * oh; i++)
    got[i] = want[i] = (uint8_t) rnd ();
  ge[0] = eyes[0].e;
  ge[1] = eyes[1].e;
  GCV_TEST_CHECK (gcv_dibr_compose (ge, n, anaglyph, show, dec, order, &out, nt, NULL, &err) == GCV_OK, "compose: %s",
      err.message);
  ref_compose (eyes, n, anaglyph, show, dec, order, want, os);
  for (int y = 0; y < oh; y++)
    if (memcmp (got + os * y, want + os * y, os)) {
      if (!bad)
        for (size_t i = 0; i < os; i++)
          if (got[os * y + i] != want[os * y + i]) {
            printf ("  compose %dx%d %s show %d %s: first difference at byte %zu of row %d: %u, reference %u\n", w,
                h, place_names[place], (int) show, compose_orders[oi].name, i, y, got[os * y + i], want[os * y + i]);
            break;
          }
      bad++;
    }
  GCV_TEST_CHECK (bad == 0, "compose %dx%d %s, show %d, %s, %d threads: %ld rows differ from the reference", w, h,
      place_names[place], (int) show, compose_orders[oi].name, nt, bad);
  *pixels += (long) ow * oh;
  free (got);
  free (want);
  ceye_free (&eyes[0]);
  ceye_free (&eyes[1]);
}

/* In place: eye 0's colour is the output's own pixels (side by side, in
 * BGRx), eye 1 elsewhere. */
static void
test_compose_in_place (const GcvDibrDecode * dec)
{
  const int w = 37, h = 21, ow = 2 * w, oh = h;
  const size_t os = (size_t) ow * 4 + 12;
  const GcvDibrPixelOrder *order = &compose_orders[3].o;

  for (int show = 0; show < 3; show++) {
    CEye eyes[2];
    GcvDibrEye ge[2];
    uint8_t *got = (uint8_t *) xmalloc (os * oh), *want = (uint8_t *) xmalloc (os * oh);
    GcvPlane out = plane_of (got, ow, oh, os);
    GcvError err = { GCV_OK, "" };
    int ow2, oh2;
    ceye_make (&eyes[0], w, h, dec);
    ceye_make (&eyes[1], w, h, dec);
    place_eyes (PLACE_SIDE_BY_SIDE, eyes, w, h, &ow2, &oh2);
    for (size_t i = 0; i < os * oh; i++)
      got[i] = (uint8_t) rnd ();
    for (int y = 0; y < h; y++)
      memcpy (got + os * y, eyes[0].rgba + eyes[0].e.rgba.stride * y, (size_t) w * 4);
    memcpy (want, got, os * oh);
    ref_compose (eyes, 2, 0, (GcvDibrShow) show, dec, order, want, os);
    ge[0] = eyes[0].e;
    ge[0].rgba = plane_of (got, w, h, os);
    ge[1] = eyes[1].e;
    GCV_TEST_CHECK (gcv_dibr_compose (ge, 2, 0, (GcvDibrShow) show, dec, order, &out, 4, NULL, &err) == GCV_OK
        && memcmp (got, want, os * oh) == 0, "compose in place, show %d: differs from the reference (%s)", show,
        err.message);
    free (got);
    free (want);
    ceye_free (&eyes[0]);
    ceye_free (&eyes[1]);
  }
}

/* Arguments gcv_dibr_compose must refuse (GCV_ERROR_INVALID, a message). */
static void
test_compose_refused (const GcvDibrDecode * dec)
{
  const int w = 8, h = 6;
  uint8_t buf[16 * 6 * 4];
  GcvPlane out = plane_of (buf, 16, 6, 64), small = plane_of (buf, 8, 6, 32);
  GcvDibrPixelOrder dup = { 0, 1, 1, 3 }, range = { 0, 1, 2, 4 };
  const GcvDibrPixelOrder *rgba = &compose_orders[0].o;
  CEye eyes[2];
  GcvDibrEye g[2], b[2];
  GcvError err;
  int ow, oh;

  ceye_make (&eyes[0], w, h, dec);
  ceye_make (&eyes[1], w, h, dec);
  place_eyes (PLACE_SIDE_BY_SIDE, eyes, w, h, &ow, &oh);
  g[0] = eyes[0].e;
  g[1] = eyes[1].e;
#define REFUSED(what_, call_) do { GcvStatus st_; memset (&err, 0, sizeof (err)); st_ = (call_); \
      GCV_TEST_CHECK (st_ == GCV_ERROR_INVALID && err.message[0], "compose: %s accepted (%d)", what_, st_); \
    } while (0)
  GCV_TEST_CHECK (gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_DEPTH, dec, rgba, &out, 1, NULL, &err) == GCV_OK,
      "compose: a good call refused: %s", err.message);
  REFUSED ("0 eyes", gcv_dibr_compose (g, 0, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  REFUSED ("3 eyes", gcv_dibr_compose (g, 3, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  REFUSED ("NULL eyes", gcv_dibr_compose (NULL, 1, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  REFUSED ("an anaglyph of 1 eye", gcv_dibr_compose (g, 1, 1, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  REFUSED ("show 3", gcv_dibr_compose (g, 2, 0, (GcvDibrShow) 3, dec, rgba, &out, 1, NULL, &err));
  REFUSED ("show depth without a decode", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_DEPTH, NULL, rgba, &out, 1, NULL,
          &err));
  REFUSED ("order with G and B in byte 1", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, &dup, &out, 1, NULL,
          &err));
  REFUSED ("order with byte 4", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, &range, &out, 1, NULL, &err));
  REFUSED ("no order", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, NULL, &out, 1, NULL, &err));
  REFUSED ("no output", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, NULL, 1, NULL, &err));
  REFUSED ("eye 1 outside the output", gcv_dibr_compose (g, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &small, 1, NULL,
          &err));
  b[0] = g[0];
  b[1] = g[1];
  b[1].ox = 4;
  REFUSED ("overlapping eyes", gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  b[1].ox = -1;
  REFUSED ("an eye at x -1", gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out, 1, NULL, &err));
  b[1] = g[1];
  b[1].depth.data = NULL;
  REFUSED ("show depth, eye 1 without depth", gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_DEPTH, dec, rgba, &out, 1, NULL,
          &err));
  GCV_TEST_CHECK (gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_HOLES, dec, rgba, &out, 1, NULL, &err) == GCV_OK,
      "compose: the holes refused for a missing depth plane: %s", err.message);
  b[1] = g[1];
  b[1].holes.width = w - 1;
  REFUSED ("show holes, a smaller holes plane", gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_HOLES, NULL, rgba, &out,
          1, NULL, &err));
  b[1] = g[1];
  b[1].rgba.stride = (size_t) w * 4 - 1;
  REFUSED ("a colour stride shorter than a row", gcv_dibr_compose (b, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out,
          1, NULL, &err));
  b[1] = g[1];
  b[1].rgba.width = w + 1;
  REFUSED ("an anaglyph of eyes of two sizes", gcv_dibr_compose (b, 2, 1, GCV_DIBR_SHOW_COLOUR, NULL, rgba, &out,
          1, NULL, &err));
#undef REFUSED
  ceye_free (&eyes[0]);
  ceye_free (&eyes[1]);
}

/* gcv_dibr_compose against ref_compose: every show mode, placement and
 * byte order, odd sizes, padded rows, 1 and 4 threads; in place; bad
 * arguments refused. */
static void
test_compose (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 3, 2 }, { 7, 5 }, { 64, 33 }, { 301, 299 } };
  const int n_orders = (int) (sizeof (compose_orders) / sizeof (compose_orders[0]));
  GcvDibrParams p;
  GcvDibrDecode dec;
  long cases = 0, pixels = 0;

  gcv_dibr_params_init (&p);
  p.z_near = 1.5;
  p.z_far = 40.0;
  gcv_dibr_decode_make (&p, 8, &dec);
  for (int si = 0; si < 5; si++)
    for (int place = 0; place < N_PLACES; place++)
      for (int show = 0; show < 3; show++)
        for (int oi = 0; oi < n_orders; oi++) {
          if (quick && si == 4 && oi > 1)
            continue;
          compose_case (sizes[si][0], sizes[si][1], place, (GcvDibrShow) show, oi, (oi + show) % 2 ? 1 : 4, &dec,
              &pixels);
          cases++;
        }
  printf ("compose: %ld cases, %ld output pixels equal the reference\n", cases, pixels);
  test_compose_in_place (&dec);
  test_compose_refused (&dec);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  GcvTestImage photo;
  char errbuf[256];
  char *path;

  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  path = gcv_test_path ("data/coffee.png");
  if (gcv_test_load_png (path, &photo, errbuf, sizeof (errbuf)) != 0) {
    fprintf (stderr, "%s\n", errbuf);
    return 1;
  }
  free (path);
  test_params ();
  test_median ();
  test_dcbf (&photo);
  test_zbuffer ();
  test_holes ();
  test_bad_input ();
  test_unpack ();
  test_compose ();
  test_parity (&photo);
  test_scene ();
  gcv_test_image_clear (&photo);
  return gcv_test_summary (t0);
}
