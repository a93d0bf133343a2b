/* gst-cuda-video: self-checks of the DIBR test scene (dibr_scene.h), the
 * float64 ray caster the DIBR tests take their ground truth from.
 *
 *  - a fronto-parallel plane at Z0 renders Z == Z0 wherever it is seen;
 *  - a rendered pixel's 3-D point projects back to the pixel centre;
 *  - depth encode / decode round trip within half a quantum;
 *  - the visibility mask of a camera w.r.t. itself is all ones;
 *  - a naive forward warp of camera A's pixels to camera B (and C) with
 *    A's true Z agrees with B's rendering at >= 30 dB on the pixels visible
 *    in A and hit by the warp: the scene and the camera math agree.
 *
 * Size: 320x240, or GCV_DIBR_SIZE=WxH (e.g. 1920x1080).  GCV_DIBR_DUMP=dir
 * writes the renderings and the warps there as PNG.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dibr_scene.h"

static const char *dump_dir;

static void
dump_view (const DibrView * v, const char *name)
{
  char path[1024];

  if (dump_dir == NULL)
    return;
  snprintf (path, sizeof (path), "%s/%s.png", dump_dir, name);
  if (dibr_view_write_png (v, path) != 0)
    fprintf (stderr, "could not write %s\n", path);
}

/* A rendered view's 8-bit depth plane (255 = z_near: the 2D+Z convention)
 * as <name>-depth.png: with <name>.png, the input of a DIBR picture. */
static void
dump_depth (const DibrView * v, const char *name, double z_near, double z_far)
{
  char path[1024];
  uint8_t *depth;

  if (dump_dir == NULL)
    return;
  depth = malloc ((size_t) v->width * v->height);
  dibr_depth_plane (v, z_near, z_far, 8, depth, v->width);
  snprintf (path, sizeof (path), "%s/%s-depth.png", dump_dir, name);
  if (gcv_test_write_png (path, depth, v->width, v->height, v->width, 1) != 0)
    fprintf (stderr, "could not write %s\n", path);
  free (depth);
}

/* A single textured rectangle fronto-parallel at Z0, seen by cameras with
 * E = identity, a translation, and a shifted principal point: Z == Z0. */
static void
test_fronto_parallel (int W, int H)
{
  DibrScene *s = dibr_scene_new ();
  const double Z0 = 3.7;
  double o[3] = { -1.3, -0.9, Z0 }, u[3] = { 2.1, 0, 0 }, v[3] = { 0, 1.6, 0 };
  DibrCamera cams[3];
  int tex = dibr_scene_add_texture (s, "chelsea.png", 2);

  GCV_TEST_CHECK (tex >= 0, "chelsea.png not loaded");
  if (tex < 0) {
    dibr_scene_free (s);
    return;
  }
  dibr_scene_add_rect (s, o, u, v, tex, 1, 1);
  dibr_std_camera_a (W, H, &cams[0]);
  dibr_std_camera_b (W, H, &cams[1]);
  dibr_camera_simple_virtual (W, H, dibr_std_focal (W) * 1.3, -0.4, 2.0, &cams[2]);
  for (int c = 0; c < 3; c++) {
    DibrView view;
    long covered = 0, bad = 0, expected = 0;
    double worst = 0;

    dibr_render (s, &cams[c], &view);
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        size_t i = (size_t) y * W + x;
        /* whether the pixel centre falls inside the rectangle's image */
        double X = (x - cams[c].K[2]) / cams[c].K[0] * Z0 - cams[c].E[3];
        double Y = (y - cams[c].K[5]) / cams[c].K[4] * Z0;
        int inside = X > o[0] + 1e-9 && X < o[0] + u[0] - 1e-9 && Y > o[1] + 1e-9
            && Y < o[1] + v[1] - 1e-9;
        int outside = X < o[0] - 1e-9 || X > o[0] + u[0] + 1e-9 || Y < o[1] - 1e-9
            || Y > o[1] + v[1] + 1e-9;
        if (view.surface[i] == 0) {
          double e = fabs (view.z[i] - Z0);
          covered++;
          if (e > worst)
            worst = e;
          if (e > 1e-9)
            bad++;
        } else if (!isinf (view.z[i]) || view.surface[i] != -1 || view.rgba[i * 4] != 0) {
          bad++;
        }
        expected += inside;
        if ((inside && view.surface[i] != 0) || (outside && view.surface[i] != -1))
          bad++;
      }
    GCV_TEST_CHECK (covered > 0 && covered >= expected && bad == 0,
        "fronto-parallel camera %d: %ld covered (%ld expected), %ld bad, max |Z - Z0| %.3g", c,
        covered, expected, bad, worst);
    printf ("fronto-parallel plane, camera %d: %ld pixels, max |Z - Z0| = %.3g\n", c, covered,
        worst);
    dibr_view_clear (&view);
  }
  dibr_scene_free (s);
}

/* Every pixel of the standard scene is hit, within [z_near, z_far], and its
 * 3-D point projects back to the pixel centre. */
static void
test_reprojection (const DibrScene * s, const DibrCamera * cam, const DibrView * view,
    const char *name)
{
  int W = view->width, H = view->height;
  long missed = 0, out_of_range = 0, bad = 0;
  double worst = 0;

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      size_t i = (size_t) y * W + x;
      double w[3], u, v, z, e;

      if (view->surface[i] < 0 || !isfinite (view->z[i])) {
        missed++;
        continue;
      }
      if (view->z[i] < s->z_near || view->z[i] > s->z_far)
        out_of_range++;
      dibr_view_point (cam, view, x, y, w);
      if (!dibr_project (cam, w, &u, &v, &z)) {
        bad++;
        continue;
      }
      e = fmax (fabs (u - x), fabs (v - y));
      e = fmax (e, fabs (z - view->z[i]) / view->z[i]);
      if (e > worst)
        worst = e;
      if (e > 1e-9)
        bad++;
    }
  GCV_TEST_CHECK (missed == 0 && out_of_range == 0 && bad == 0,
      "camera %s: %ld missed, %ld outside [z_near, z_far], %ld off the centre (max %.3g)",
      name, missed, out_of_range, bad, worst);
  printf ("camera %s: every pixel hit, reprojection max error %.3g px\n", name, worst);
}

static void
test_depth_codec (const DibrView * view, double zn, double zf)
{
  for (int bits = 8; bits <= 16; bits += 8) {
    unsigned vmax = bits == 16 ? 65535u : 255u;
    double half = 0.5 * (1.0 / zn - 1.0 / zf) / vmax;
    long bad = 0, n = 0;
    double worst = 0;
    size_t npx = (size_t) view->width * view->height;
    void *plane = gcv_test_malloc (npx * (bits / 8));

    /* every code decodes and encodes back to itself */
    for (unsigned v = 1; v <= vmax; v++)
      if (dibr_depth_encode (dibr_depth_decode (v, zn, zf, vmax), zn, zf, vmax) != v)
        bad++;
    GCV_TEST_CHECK (bad == 0, "%d-bit: %ld codes do not survive decode + encode", bits, bad);
    GCV_TEST_CHECK (dibr_depth_encode (zn, zn, zf, vmax) == vmax
        && dibr_depth_encode (zn * 0.5, zn, zf, vmax) == vmax
        && dibr_depth_encode (zf, zn, zf, vmax) == 1
        && dibr_depth_encode (zf * 10, zn, zf, vmax) == 1
        && dibr_depth_encode (INFINITY, zn, zf, vmax) == 1, "%d-bit: ends not clamped", bits);

    /* metric Z over the range: 1/Z back within half a quantum (where the
     * code does not round to 0 and get clamped to 1) */
    bad = 0;
    for (int k = 0; k <= 100000; k++) {
      double z = zn * pow (zf / zn, k / 100000.0), q, e;
      unsigned v = dibr_depth_encode (z, zn, zf, vmax);
      q = vmax * ((1.0 / z - 1.0 / zf) / (1.0 / zn - 1.0 / zf));
      if (q < 0.5)
        continue;
      e = fabs (1.0 / dibr_depth_decode (v, zn, zf, vmax) - 1.0 / z);
      if (e > worst)
        worst = e;
      if (e > half * (1 + 1e-9))
        bad++;
      n++;
    }
    GCV_TEST_CHECK (bad == 0, "%d-bit: %ld of %ld depths off by more than half a quantum "
        "(max %.3g quanta)", bits, bad, n, worst / (2 * half));

    /* the rendered plane */
    dibr_depth_plane (view, zn, zf, bits, plane, (size_t) view->width * (bits / 8));
    bad = 0;
    for (size_t i = 0; i < npx; i++) {
      unsigned v = bits == 16 ? ((uint16_t *) plane)[i] : ((uint8_t *) plane)[i];
      double e = fabs (1.0 / dibr_depth_decode (v, zn, zf, vmax) - 1.0 / view->z[i]);
      if (v < 1 || e > half * (1 + 1e-9))
        bad++;
    }
    GCV_TEST_CHECK (bad == 0, "%d-bit depth plane: %ld pixels off by more than half a quantum",
        bits, bad);
    printf ("depth %d-bit: round trip max error %.4f quanta (1/Z)\n", bits, worst / (2 * half));
    free (plane);
  }
}

static void
test_self_visibility (const DibrCamera * cam, const DibrView * view, const char *name)
{
  size_t n = (size_t) view->width * view->height;
  uint8_t *mask = gcv_test_malloc (n);
  long vis = dibr_visibility_mask (cam, view, cam, view, 1e-9, mask);

  GCV_TEST_CHECK (vis == (long) n, "camera %s: %ld of %zu pixels visible from itself", name, vis,
      n);
  free (mask);
}

/* Forward-warps view_a (through cam_a) into cam_b with A's true Z: each
 * pixel to the nearest pixel of B, a z-buffer keeping the nearest.  Returns
 * the PSNR against view_b on B's pixels visible in A and hit by the warp. */
static double
warp_psnr (const DibrCamera * cam_a, const DibrView * view_a, const DibrCamera * cam_b,
    const DibrView * view_b, const char *name, double min_db)
{
  int Wb = view_b->width, Hb = view_b->height, Wa = view_a->width, Ha = view_a->height;
  size_t nb = (size_t) Wb * Hb;
  double *zbuf = gcv_test_malloc (nb * sizeof (double)), psnr;
  uint8_t *mask = gcv_test_malloc (nb), *used = gcv_test_malloc (nb);
  DibrView warped = { Wb, Hb, gcv_test_malloc (nb * 4), NULL, NULL };
  long vis, n_cmp, hit = 0, holes_vis = 0;
  char dname[128];

  memset (warped.rgba, 0, nb * 4);
  for (size_t i = 0; i < nb; i++)
    zbuf[i] = INFINITY;
  for (int y = 0; y < Ha; y++)
    for (int x = 0; x < Wa; x++) {
      double w[3], u, v, z;
      long ub, vb;
      size_t o;
      dibr_view_point (cam_a, view_a, x, y, w);
      if (!dibr_project (cam_b, w, &u, &v, &z))
        continue;
      ub = lround (u);
      vb = lround (v);
      if (ub < 0 || ub >= Wb || vb < 0 || vb >= Hb)
        continue;
      o = (size_t) vb * Wb + ub;
      if (z < zbuf[o]) {
        zbuf[o] = z;
        memcpy (warped.rgba + o * 4, view_a->rgba + ((size_t) y * Wa + x) * 4, 4);
      }
    }
  vis = dibr_visibility_mask (cam_b, view_b, cam_a, view_a, 0.01, mask);
  for (size_t i = 0; i < nb; i++) {
    int h = isfinite (zbuf[i]);
    hit += h;
    holes_vis += mask[i] && !h;
    used[i] = mask[i] && h;
  }
  psnr = dibr_psnr_rgb (warped.rgba, (size_t) Wb * 4, 4, view_b->rgba, (size_t) Wb * 4, 4, used,
      Wb, Hb, &n_cmp);
  printf ("warp A -> %s: %ld of %zu pixels visible in A (%.1f%%), %ld hit by the warp, "
      "%ld compared, PSNR %.2f dB\n", name, vis, nb, 100.0 * vis / nb, hit, n_cmp, psnr);
  GCV_TEST_CHECK (psnr >= min_db, "warp A -> %s: PSNR %.2f dB < %.0f", name, psnr, min_db);
  {
    /* for information: away from B's surface boundaries (where rounding
     * the warp to the nearest pixel moves edges by up to half a pixel) */
    long n_in;
    double p_in;
    for (int y = 0; y < Hb; y++)
      for (int x = 0; x < Wb; x++) {
        int sid = view_b->surface[(size_t) y * Wb + x];
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx, yy = y + dy;
            if (xx >= 0 && xx < Wb && yy >= 0 && yy < Hb
                && view_b->surface[(size_t) yy * Wb + xx] != sid)
              used[(size_t) y * Wb + x] = 0;
          }
      }
    p_in = dibr_psnr_rgb (warped.rgba, (size_t) Wb * 4, 4, view_b->rgba, (size_t) Wb * 4, 4,
        used, Wb, Hb, &n_in);
    printf ("  away from surface boundaries: %ld pixels, PSNR %.2f dB\n", n_in, p_in);
  }
  /* the scene has disocclusions, but most of B is seen by A */
  GCV_TEST_CHECK (vis < (long) nb && vis > (long) (0.8 * nb),
      "warp A -> %s: %ld of %zu pixels visible in A", name, vis, nb);
  GCV_TEST_CHECK (n_cmp > (long) (0.75 * nb), "warp A -> %s: only %ld pixels compared", name,
      n_cmp);
  snprintf (dname, sizeof (dname), "warp-A-to-%s", name);
  dump_view (&warped, dname);
  free (zbuf);
  free (mask);
  free (used);
  free (warped.rgba);
  return psnr;
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  int W = 320, H = 240;
  const char *size = getenv ("GCV_DIBR_SIZE");
  DibrScene *s;
  DibrCamera cam[3];
  DibrView view[3];
  const char *names[3] = { "A", "B", "C" };

  dump_dir = getenv ("GCV_DIBR_DUMP");
  if (size && (sscanf (size, "%dx%d", &W, &H) != 2 || W < 16 || H < 16)) {
    fprintf (stderr, "FAIL: GCV_DIBR_SIZE=%s is not WxH (16x16 or more)\n", size);
    return 1;
  }
  printf ("size %dx%d\n", W, H);

  test_fronto_parallel (W, H);

  if (dibr_scene_standard (&s) != 0) {
    fprintf (stderr, "FAIL: the standard scene could not be built\n");
    return 1;
  }
  dibr_std_camera_a (W, H, &cam[0]);
  dibr_std_camera_b (W, H, &cam[1]);
  dibr_std_camera_c (W, H, &cam[2]);
  for (int c = 0; c < 3; c++) {
    double t = gcv_test_now_s ();
    dibr_render (s, &cam[c], &view[c]);
    printf ("render %s: %.1f ms\n", names[c], 1e3 * (gcv_test_now_s () - t));
    dump_view (&view[c], names[c]);
    dump_depth (&view[c], names[c], s->z_near, s->z_far);
    test_reprojection (s, &cam[c], &view[c], names[c]);
    test_self_visibility (&cam[c], &view[c], names[c]);
  }
  test_depth_codec (&view[0], s->z_near, s->z_far);

  /* B of the standard pair and the general camera C */
  warp_psnr (&cam[0], &view[0], &cam[1], &view[1], "B", 30.0);
  warp_psnr (&cam[0], &view[0], &cam[2], &view[2], "C", 28.0);

  for (int c = 0; c < 3; c++)
    dibr_view_clear (&view[c]);
  dibr_scene_free (s);
  return gcv_test_summary (t0);
}
