/* gst-cuda-video: synthetic ground truth for the DIBR tests, a float64 ray
 * caster.  See dibr_scene.h.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "dibr_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small linear algebra ---------------------------------------------- */

static void
cross3 (const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double
dot3 (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Inverse of the row-major 3x3 m (by cofactors); returns 0 when singular. */
static int
inv3 (const double m[9], double r[9])
{
  double det;

  r[0] = m[4] * m[8] - m[5] * m[7];
  r[1] = m[2] * m[7] - m[1] * m[8];
  r[2] = m[1] * m[5] - m[2] * m[4];
  r[3] = m[5] * m[6] - m[3] * m[8];
  r[4] = m[0] * m[8] - m[2] * m[6];
  r[5] = m[2] * m[3] - m[0] * m[5];
  r[6] = m[3] * m[7] - m[4] * m[6];
  r[7] = m[1] * m[6] - m[0] * m[7];
  r[8] = m[0] * m[4] - m[1] * m[3];
  det = m[0] * r[0] + m[1] * r[3] + m[2] * r[6];
  if (det == 0.0)
    return 0;
  for (int i = 0; i < 9; i++)
    r[i] /= det;
  return 1;
}

static void
mul3v (const double m[9], const double x[3], double y[3])
{
  for (int r = 0; r < 3; r++)
    y[r] = m[3 * r] * x[0] + m[3 * r + 1] * x[1] + m[3 * r + 2] * x[2];
}

/* What a camera's rays need: M = (K R)^-1 maps (u, v, 1) to a world
 * direction (scaled below to camera-space Z = 1), the centre C = -R^-1 t. */
typedef struct {
  double Rinv[9];
  double Kinv[9];
  double centre[3];
} CamInv;

static void
cam_inverse (const DibrCamera * cam, CamInv * ci)
{
  double R[9], t[3];

  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++)
      R[3 * r + c] = cam->E[4 * r + c];
    t[r] = cam->E[4 * r + 3];
  }
  if (!inv3 (R, ci->Rinv) || !inv3 (cam->K, ci->Kinv)) {
    fprintf (stderr, "dibr_scene: singular camera matrix\n");
    abort ();
  }
  mul3v (ci->Rinv, t, ci->centre);
  for (int i = 0; i < 3; i++)
    ci->centre[i] = -ci->centre[i];
}

/* ---- cameras ----------------------------------------------------------- */

void
dibr_world_to_camera (const DibrCamera * cam, const double w[3], double c[3])
{
  for (int r = 0; r < 3; r++)
    c[r] = cam->E[4 * r] * w[0] + cam->E[4 * r + 1] * w[1] + cam->E[4 * r + 2] * w[2]
        + cam->E[4 * r + 3];
}

int
dibr_project (const DibrCamera * cam, const double w[3], double *u, double *v, double *z)
{
  double c[3];
  const double *K = cam->K;

  dibr_world_to_camera (cam, w, c);
  *z = c[2];
  if (!(c[2] > 0.0)) {
    *u = *v = NAN;
    return 0;
  }
  *u = K[0] * c[0] / c[2] + K[1] * c[1] / c[2] + K[2];
  *v = K[4] * c[1] / c[2] + K[5];
  return 1;
}

void
dibr_unproject (const DibrCamera * cam, double u, double v, double z, double w[3])
{
  CamInv ci;
  double p[3] = { u, v, 1.0 }, d[3], c[3], rc[3];

  cam_inverse (cam, &ci);
  mul3v (ci.Kinv, p, d);
  /* camera-space point at depth z on the ray through (u, v) */
  for (int i = 0; i < 3; i++)
    c[i] = d[i] / d[2] * z;
  mul3v (ci.Rinv, c, rc);
  for (int i = 0; i < 3; i++)
    w[i] = rc[i] + ci.centre[i];
}

static void
camera_set_k (DibrCamera * cam, int width, int height, double fx, double fy, double cx, double cy)
{
  memset (cam, 0, sizeof (*cam));
  cam->width = width;
  cam->height = height;
  cam->K[0] = fx;
  cam->K[2] = cx;
  cam->K[4] = fy;
  cam->K[5] = cy;
  cam->K[8] = 1.0;
  for (int i = 0; i < 4; i++)
    cam->E[5 * i] = 1.0;
}

void
dibr_camera_simple_source (int width, int height, double f, DibrCamera * cam)
{
  camera_set_k (cam, width, height, f, f, (width - 1) / 2.0, (height - 1) / 2.0);
}

void
dibr_camera_simple_virtual (int width, int height, double f, double b, double zc,
    DibrCamera * cam)
{
  double shift = (zc > 0.0 && isfinite (zc)) ? f * b / zc : 0.0;

  camera_set_k (cam, width, height, f, f, (width - 1) / 2.0 + shift, (height - 1) / 2.0);
  cam->E[3] = -b;
}

void
dibr_camera_general (int width, int height, double f, double cx, double cy,
    const double centre[3], double yaw_deg, double pitch_deg, double roll_deg, DibrCamera * cam)
{
  double a = yaw_deg * M_PI / 180.0, p = pitch_deg * M_PI / 180.0, r = roll_deg * M_PI / 180.0;
  double Ry[9] = { cos (a), 0, sin (a), 0, 1, 0, -sin (a), 0, cos (a) };
  double Rx[9] = { 1, 0, 0, 0, cos (p), -sin (p), 0, sin (p), cos (p) };
  double Rz[9] = { cos (r), -sin (r), 0, sin (r), cos (r), 0, 0, 0, 1 };
  double T[9], R[9], t[3];

  /* R = Ry Rx Rz: camera -> world */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      T[3 * i + j] = 0;
      for (int k = 0; k < 3; k++)
        T[3 * i + j] += Ry[3 * i + k] * Rx[3 * k + j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      R[3 * i + j] = 0;
      for (int k = 0; k < 3; k++)
        R[3 * i + j] += T[3 * i + k] * Rz[3 * k + j];
    }
  camera_set_k (cam, width, height, f, f, cx, cy);
  /* E = [R^T | -R^T centre] */
  for (int i = 0; i < 3; i++) {
    t[i] = 0;
    for (int j = 0; j < 3; j++) {
      cam->E[4 * i + j] = R[3 * j + i];
      t[i] -= R[3 * j + i] * centre[j];
    }
    cam->E[4 * i + 3] = t[i];
  }
}

/* ---- scenes ------------------------------------------------------------ */

DibrScene *
dibr_scene_new (void)
{
  DibrScene *s = gcv_test_malloc (sizeof (DibrScene));

  memset (s, 0, sizeof (*s));
  s->z_near = 1.0;
  s->z_far = 100.0;
  return s;
}

void
dibr_scene_free (DibrScene * scene)
{
  if (scene == NULL)
    return;
  for (int i = 0; i < scene->n_textures; i++)
    free (scene->textures[i].rgb);
  free (scene->textures);
  free (scene->rects);
  free (scene);
}

int
dibr_scene_add_texture_rgb (DibrScene * scene, const uint8_t * rgb, size_t stride, int width,
    int height, const char *name)
{
  DibrTexture *t;

  scene->textures = realloc (scene->textures, (scene->n_textures + 1) * sizeof (DibrTexture));
  if (scene->textures == NULL) {
    fprintf (stderr, "dibr_scene: out of memory\n");
    abort ();
  }
  t = &scene->textures[scene->n_textures];
  t->width = width;
  t->height = height;
  snprintf (t->name, sizeof (t->name), "%s", name ? name : "");
  t->rgb = gcv_test_malloc ((size_t) width * height * 3);
  for (int y = 0; y < height; y++)
    memcpy (t->rgb + (size_t) y * width * 3, rgb + y * stride, (size_t) width * 3);
  return scene->n_textures++;
}

int
dibr_scene_add_texture (DibrScene * scene, const char *file, int shrink)
{
  char rel[256], err[512], name[64], *path;
  GcvTestImage img;
  uint8_t *rgb;
  int w, h, idx;

  if (shrink < 1)
    shrink = 1;
  snprintf (rel, sizeof (rel), "data/%s", file);
  path = gcv_test_path (rel);
  if (gcv_test_load_png (path, &img, err, sizeof (err)) != 0) {
    fprintf (stderr, "dibr_scene: %s (set GCV_TEST_DATA_DIR to the source tests/ directory)\n",
        err);
    free (path);
    return -1;
  }
  free (path);
  w = img.width / shrink;
  h = img.height / shrink;
  if (w < 1 || h < 1) {
    fprintf (stderr, "dibr_scene: %s is smaller than shrink %d\n", file, shrink);
    gcv_test_image_clear (&img);
    return -1;
  }
  rgb = gcv_test_malloc ((size_t) w * h * 3);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++) {
        /* gray: every channel reads sample 0; RGB(A): channel c */
        int ch = img.channels >= 3 ? c : 0;
        unsigned sum = 0;
        for (int j = 0; j < shrink; j++)
          for (int i = 0; i < shrink; i++)
            sum += img.data[(size_t) (y * shrink + j) * img.stride
                + (size_t) (x * shrink + i) * img.channels + ch];
        rgb[((size_t) y * w + x) * 3 + c] =
            (uint8_t) ((sum + shrink * shrink / 2) / (shrink * shrink));
      }
  snprintf (name, sizeof (name), "%s/%d", file, shrink);
  idx = dibr_scene_add_texture_rgb (scene, rgb, (size_t) w * 3, w, h, name);
  free (rgb);
  gcv_test_image_clear (&img);
  return idx;
}

int
dibr_scene_add_rect (DibrScene * scene, const double origin[3], const double u[3],
    const double v[3], int texture, int repeat_s, int repeat_t)
{
  DibrRect *r;

  scene->rects = realloc (scene->rects, (scene->n_rects + 1) * sizeof (DibrRect));
  if (scene->rects == NULL) {
    fprintf (stderr, "dibr_scene: out of memory\n");
    abort ();
  }
  r = &scene->rects[scene->n_rects];
  memcpy (r->origin, origin, sizeof (r->origin));
  memcpy (r->u, u, sizeof (r->u));
  memcpy (r->v, v, sizeof (r->v));
  r->texture = texture;
  r->repeat_s = repeat_s < 1 ? 1 : repeat_s;
  r->repeat_t = repeat_t < 1 ? 1 : repeat_t;
  return scene->n_rects++;
}

int
dibr_scene_add_box (DibrScene * scene, const double lo[3], const double size[3], int texture)
{
  double X[3] = { size[0], 0, 0 }, Y[3] = { 0, size[1], 0 }, Z[3] = { 0, 0, size[2] };
  double o[3];
  int first;

  first = dibr_scene_add_rect (scene, lo, X, Y, texture, 1, 1);       /* -Z */
  memcpy (o, lo, sizeof (o));
  o[2] += size[2];
  dibr_scene_add_rect (scene, o, X, Y, texture, 1, 1);  /* +Z */
  dibr_scene_add_rect (scene, lo, Z, Y, texture, 1, 1); /* -X */
  memcpy (o, lo, sizeof (o));
  o[0] += size[0];
  dibr_scene_add_rect (scene, o, Z, Y, texture, 1, 1);  /* +X */
  dibr_scene_add_rect (scene, lo, X, Z, texture, 1, 1); /* -Y */
  memcpy (o, lo, sizeof (o));
  o[1] += size[1];
  dibr_scene_add_rect (scene, o, X, Z, texture, 1, 1);  /* +Y */
  return first;
}

int
dibr_scene_standard (DibrScene ** out)
{
  DibrScene *s = dibr_scene_new ();
  int t_bg, t_wall, t_panel, t_box;
  double ang = 25.0 * M_PI / 180.0;

  *out = NULL;
  t_bg = dibr_scene_add_texture (s, "coffee.png", 5);
  t_wall = dibr_scene_add_texture (s, "chelsea.png", 4);
  t_panel = dibr_scene_add_texture (s, "astronaut.png", 6);
  t_box = dibr_scene_add_texture (s, "camera.png", 8);
  if (t_bg < 0 || t_wall < 0 || t_panel < 0 || t_box < 0) {
    dibr_scene_free (s);
    return -1;
  }
  {
    double o[3] = { -9, -7, 12 }, u[3] = { 18, 0, 0 }, v[3] = { 0, 14, 0 };
    dibr_scene_add_rect (s, o, u, v, t_bg, 3, 3);
  }
  {
    double o[3] = { -4.5, -2.5, 8 }, u[3] = { 5, 0, 0 }, v[3] = { 0, 5.0 * 300 / 451, 0 };
    dibr_scene_add_rect (s, o, u, v, t_wall, 1, 1);
  }
  {
    double o[3] = { 0.3, -1.2, 5 }, u[3] = { 2.4 * cos (ang), 0, 2.4 * sin (ang) };
    double v[3] = { 0, 2.4, 0 };
    dibr_scene_add_rect (s, o, u, v, t_panel, 1, 1);
  }
  {
    double lo[3] = { -1.2, 0.2, 2.8 }, size[3] = { 0.8, 0.8, 0.8 };
    dibr_scene_add_box (s, lo, size, t_box);
  }
  s->z_near = 2.5;
  s->z_far = 14.0;
  *out = s;
  return 0;
}

double
dibr_std_focal (int width)
{
  return 300.0 * width / 320.0;
}

void
dibr_std_camera_a (int width, int height, DibrCamera * cam)
{
  dibr_camera_simple_source (width, height, dibr_std_focal (width), cam);
}

void
dibr_std_camera_b (int width, int height, DibrCamera * cam)
{
  dibr_camera_simple_virtual (width, height, dibr_std_focal (width), DIBR_STD_BASELINE,
      DIBR_STD_ZC, cam);
}

void
dibr_std_camera_c (int width, int height, DibrCamera * cam)
{
  double centre[3] = { 0.15, -0.05, 0.05 };

  dibr_camera_general (width, height, 0.97 * dibr_std_focal (width), (width - 1) / 2.0 + 3.0,
      (height - 1) / 2.0 - 2.0, centre, 4.0, -2.0, 1.0, cam);
}

/* ---- rendering --------------------------------------------------------- */

/* Bilinear lookup at texture coordinates (s, t) in [0, 1]^2 (times the
 * repeat counts): texel (i, j) has its centre at ((i + 0.5) / W, (j + 0.5) /
 * H); outside the centres, clamped (repeat 1) or wrapped (repeat > 1). */
static void
texture_lookup (const DibrTexture * tex, const DibrRect * r, double s, double t, double rgb[3])
{
  double x = s * r->repeat_s * tex->width - 0.5, y = t * r->repeat_t * tex->height - 0.5;
  double fx = floor (x), fy = floor (y), ax = x - fx, ay = y - fy;
  long x0 = (long) fx, y0 = (long) fy, x1 = x0 + 1, y1 = y0 + 1;
  const uint8_t *p00, *p01, *p10, *p11;

  if (r->repeat_s > 1) {
    x0 = ((x0 % tex->width) + tex->width) % tex->width;
    x1 = ((x1 % tex->width) + tex->width) % tex->width;
  } else {
    x0 = x0 < 0 ? 0 : (x0 >= tex->width ? tex->width - 1 : x0);
    x1 = x1 < 0 ? 0 : (x1 >= tex->width ? tex->width - 1 : x1);
  }
  if (r->repeat_t > 1) {
    y0 = ((y0 % tex->height) + tex->height) % tex->height;
    y1 = ((y1 % tex->height) + tex->height) % tex->height;
  } else {
    y0 = y0 < 0 ? 0 : (y0 >= tex->height ? tex->height - 1 : y0);
    y1 = y1 < 0 ? 0 : (y1 >= tex->height ? tex->height - 1 : y1);
  }
  p00 = tex->rgb + ((size_t) y0 * tex->width + x0) * 3;
  p01 = tex->rgb + ((size_t) y0 * tex->width + x1) * 3;
  p10 = tex->rgb + ((size_t) y1 * tex->width + x0) * 3;
  p11 = tex->rgb + ((size_t) y1 * tex->width + x1) * 3;
  for (int c = 0; c < 3; c++)
    rgb[c] = (1 - ay) * ((1 - ax) * p00[c] + ax * p01[c]) + ay * ((1 - ax) * p10[c] + ax * p11[c]);
}

/* Per-rectangle constants of the intersection: the normal n = u x v and
 * the inverse Gram matrix of (u, v), to solve P - O = s u + t v. */
typedef struct {
  double n[3];
  double g_uu, g_uv, g_vv, inv_det;
} RectPre;

static void
rect_pre (const DibrRect * r, RectPre * p)
{
  double det;

  cross3 (r->u, r->v, p->n);
  p->g_uu = dot3 (r->u, r->u);
  p->g_uv = dot3 (r->u, r->v);
  p->g_vv = dot3 (r->v, r->v);
  det = p->g_uu * p->g_vv - p->g_uv * p->g_uv;
  p->inv_det = det > 0 ? 1.0 / det : 0.0;
}

void
dibr_render (const DibrScene * scene, const DibrCamera * cam, DibrView * view)
{
  int W = cam->width, H = cam->height;
  CamInv ci;
  double M[9];
  RectPre *pre = gcv_test_malloc ((scene->n_rects > 0 ? scene->n_rects : 1) * sizeof (RectPre));

  cam_inverse (cam, &ci);
  /* M = R^-1 K^-1 */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      M[3 * i + j] = 0;
      for (int k = 0; k < 3; k++)
        M[3 * i + j] += ci.Rinv[3 * i + k] * ci.Kinv[3 * k + j];
    }
  for (int i = 0; i < scene->n_rects; i++)
    rect_pre (&scene->rects[i], &pre[i]);

  view->width = W;
  view->height = H;
  view->rgba = gcv_test_malloc ((size_t) W * H * 4);
  view->z = gcv_test_malloc ((size_t) W * H * sizeof (double));
  view->surface = gcv_test_malloc ((size_t) W * H * sizeof (int));

  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      double p[3] = { x, y, 1.0 }, dc[3], d[3], best = INFINITY, bs = 0, bt = 0;
      int bi = -1;
      size_t o = (size_t) y * W + x;
      uint8_t *px = view->rgba + o * 4;

      /* camera-space direction scaled to Z = 1, so the ray parameter is the
       * camera-space Z of the point */
      mul3v (ci.Kinv, p, dc);
      for (int i = 0; i < 3; i++)
        dc[i] /= dc[2];
      mul3v (ci.Rinv, dc, d);
      for (int i = 0; i < scene->n_rects; i++) {
        const DibrRect *r = &scene->rects[i];
        const RectPre *q = &pre[i];
        double nd = dot3 (q->n, d), oc[3], lam, hp[3], a, b, s, t;

        if (nd == 0.0 || q->inv_det == 0.0)
          continue;
        for (int k = 0; k < 3; k++)
          oc[k] = r->origin[k] - ci.centre[k];
        lam = dot3 (q->n, oc) / nd;
        if (!(lam > 0.0) || !(lam < best))
          continue;
        for (int k = 0; k < 3; k++)
          hp[k] = ci.centre[k] + lam * d[k] - r->origin[k];
        a = dot3 (hp, r->u);
        b = dot3 (hp, r->v);
        s = (q->g_vv * a - q->g_uv * b) * q->inv_det;
        t = (q->g_uu * b - q->g_uv * a) * q->inv_det;
        if (s < 0.0 || s > 1.0 || t < 0.0 || t > 1.0)
          continue;
        best = lam;
        bi = i;
        bs = s;
        bt = t;
      }
      view->z[o] = best;
      view->surface[o] = bi;
      if (bi >= 0) {
        const DibrRect *r = &scene->rects[bi];
        double rgb[3];
        texture_lookup (&scene->textures[r->texture], r, bs, bt, rgb);
        for (int c = 0; c < 3; c++) {
          long v = lround (rgb[c]);
          px[c] = (uint8_t) (v < 0 ? 0 : (v > 255 ? 255 : v));
        }
      } else {
        px[0] = px[1] = px[2] = 0;
      }
      px[3] = 255;
    }
  free (pre);
}

void
dibr_view_clear (DibrView * view)
{
  free (view->rgba);
  free (view->z);
  free (view->surface);
  memset (view, 0, sizeof (*view));
}

void
dibr_view_point (const DibrCamera * cam, const DibrView * view, int x, int y, double w[3])
{
  dibr_unproject (cam, x, y, view->z[(size_t) y * view->width + x], w);
}

/* ---- depth planes ------------------------------------------------------ */

unsigned
dibr_depth_encode (double z, double z_near, double z_far, unsigned vmax)
{
  double q = vmax * ((1.0 / z - 1.0 / z_far) / (1.0 / z_near - 1.0 / z_far));
  double v = round (q);

  if (!(v >= 1.0))              /* also NaN */
    return 1;
  if (v > vmax)
    return vmax;
  return (unsigned) v;
}

double
dibr_depth_decode (unsigned v, double z_near, double z_far, unsigned vmax)
{
  return 1.0 / ((double) v / vmax * (1.0 / z_near - 1.0 / z_far) + 1.0 / z_far);
}

void
dibr_depth_plane (const DibrView * view, double z_near, double z_far, int bits, void *out,
    size_t out_stride)
{
  unsigned vmax = bits == 16 ? 65535u : 255u;

  for (int y = 0; y < view->height; y++) {
    uint8_t *row = (uint8_t *) out + (size_t) y * out_stride;
    for (int x = 0; x < view->width; x++) {
      double z = view->z[(size_t) y * view->width + x];
      unsigned v = isfinite (z) ? dibr_depth_encode (z, z_near, z_far, vmax) : 1u;
      if (bits == 16)
        ((uint16_t *) row)[x] = (uint16_t) v;
      else
        row[x] = (uint8_t) v;
    }
  }
}

/* ---- comparisons ------------------------------------------------------- */

long
dibr_visibility_mask (const DibrCamera * cam_b, const DibrView * view_b,
    const DibrCamera * cam_a, const DibrView * view_a, double rel_tol, uint8_t * mask)
{
  int Wb = view_b->width, Hb = view_b->height, Wa = view_a->width, Ha = view_a->height;
  long n = 0;
  CamInv ci;

  cam_inverse (cam_b, &ci);
  for (int y = 0; y < Hb; y++)
    for (int x = 0; x < Wb; x++) {
      size_t o = (size_t) y * Wb + x;
      double zb = view_b->z[o], p[3] = { x, y, 1.0 }, dc[3], rc[3], w[3], u, v, za, zref;
      long ua, va;

      mask[o] = 0;
      if (!isfinite (zb))
        continue;
      /* dibr_unproject without recomputing the inverses */
      mul3v (ci.Kinv, p, dc);
      for (int i = 0; i < 3; i++)
        dc[i] = dc[i] / dc[2] * zb;
      mul3v (ci.Rinv, dc, rc);
      for (int i = 0; i < 3; i++)
        w[i] = rc[i] + ci.centre[i];
      if (!dibr_project (cam_a, w, &u, &v, &za))
        continue;
      if (!(u >= -0.5 && u < Wa - 0.5 && v >= -0.5 && v < Ha - 0.5))
        continue;
      ua = lround (u);
      va = lround (v);
      if (ua >= Wa)             /* u just under W - 0.5 rounds down anyway */
        ua = Wa - 1;
      if (va >= Ha)
        va = Ha - 1;
      zref = view_a->z[(size_t) va * Wa + ua];
      if (fabs (zref - za) <= rel_tol * za) {
        mask[o] = 1;
        n++;
      }
    }
  return n;
}

void
dibr_scene_sbs_frame (const DibrScene * scene, int view_width, int view_height, int k,
    double z_near, double z_far, uint8_t * dst, size_t dst_stride)
{
  const int W = view_width, H = view_height;
  const double centre[3] = { 0.06 * sin (1.1 * k), 0.02 * cos (0.9 * k) - 0.02, 0.04 * sin (0.5 * k) };
  uint8_t *depth = gcv_test_malloc ((size_t) W * H);
  DibrCamera cam;
  DibrView view;

  dibr_camera_general (W, H, dibr_std_focal (W), (W - 1) / 2.0, (H - 1) / 2.0, centre, 1.2 * sin (0.7 * k),
      -0.8 * sin (0.4 * k), 0.0, &cam);
  dibr_render (scene, &cam, &view);
  dibr_depth_plane (&view, z_near, z_far, 8, depth, (size_t) W);
  for (int y = 0; y < H; y++) {
    uint8_t *row = dst + dst_stride * y;
    memcpy (row, view.rgba + (size_t) W * 4 * y, (size_t) W * 4);
    for (int x = 0; x < W; x++) {
      uint8_t *px = row + (size_t) (W + x) * 4;
      px[0] = px[1] = px[2] = depth[(size_t) W * y + x];
      px[3] = 255;
    }
  }
  dibr_view_clear (&view);
  free (depth);
}

int
dibr_scene_sbs_frames (int view_width, int view_height, double z_near, double z_far,
    uint8_t * const *frames, int n, size_t dst_stride)
{
  DibrScene *scene = NULL;

  if (dibr_scene_standard (&scene) != 0)
    return -1;
  for (int k = 0; k < n; k++)
    dibr_scene_sbs_frame (scene, view_width, view_height, k, z_near, z_far, frames[k], dst_stride);
  dibr_scene_free (scene);
  return 0;
}

double
dibr_psnr_rgb (const uint8_t * a, size_t a_stride, int a_bpp, const uint8_t * b,
    size_t b_stride, int b_bpp, const uint8_t * mask, int w, int h, long *n_pixels)
{
  double sse = 0;
  long n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const uint8_t *pa = a + y * a_stride + (size_t) x * a_bpp;
      const uint8_t *pb = b + y * b_stride + (size_t) x * b_bpp;
      if (mask && !mask[(size_t) y * w + x])
        continue;
      for (int c = 0; c < 3; c++) {
        double d = (double) pa[c] - pb[c];
        sse += d * d;
      }
      n++;
    }
  if (n_pixels)
    *n_pixels = n;
  if (n == 0)
    return NAN;
  if (sse == 0)
    return INFINITY;
  return 10.0 * log10 (255.0 * 255.0 / (sse / (3.0 * n)));
}

int
dibr_view_write_png (const DibrView * view, const char *path)
{
  size_t n = (size_t) view->width * view->height;
  uint8_t *rgb = gcv_test_malloc (n * 3);
  int rc;

  for (size_t i = 0; i < n; i++)
    memcpy (rgb + i * 3, view->rgba + i * 4, 3);
  rc = gcv_test_write_png (path, rgb, view->width, view->height, (size_t) view->width * 3, 3);
  free (rgb);
  return rc;
}
