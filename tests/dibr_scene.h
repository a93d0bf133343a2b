/* gst-cuda-video: synthetic ground truth for the DIBR tests (algorithm,
 * CUDA, element and benchmark): a float64 ray caster.
 *
 *  - a scene: textured planar rectangles (and axis-aligned boxes made of
 *    six of them) in world space, the textures cut from the real photos in
 *    tests/data;
 *  - cameras with the conventions of cpu/dibr.h (pinhole, x right, y down,
 *    looking along +Z; K 3x3 and E 4x4 world -> camera, both row-major);
 *  - rendering: one ray through each pixel centre, the nearest hit in front
 *    of the camera, its colour (bilinear texture lookup in float64) and its
 *    camera-space Z;
 *  - the depth-plane encoder (the inverse of the contract's decode), the
 *    visibility of one view's pixels in another, and PSNR over a mask.
 *
 * One sample per pixel, at the pixel centre, and no supersampling: DIBR
 * warps pixel centres, so the ground truth of a synthesized pixel is the
 * surface point its centre sees, not an average over its area.  Aliasing
 * is kept low instead by scaling the photos down (box filter) so that a
 * texel covers about one screen pixel or more at 320x240.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef DIBR_SCENE_H
#define DIBR_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "gcv-test.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cameras ----------------------------------------------------------- */

/* K = [[fx, s, cx], [0, fy, cy], [0, 0, 1]] and E (world -> camera, last
 * row 0 0 0 1), both row-major: K[3 * r + c], E[4 * r + c].  E's 3x3 part
 * need not be a rotation (any invertible affine map works), but the
 * standard cameras are rigid. */
typedef struct {
  double K[9];
  double E[16];
  int width;
  int height;
} DibrCamera;

/* Camera-space point of world point w: c = E [w 1]. */
void dibr_world_to_camera (const DibrCamera * cam, const double w[3], double c[3]);
/* Projects world point w: (*u, *v) the image point, *z its camera-space Z.
 * Returns 1 when Z > 0 (then u, v are meaningful), else 0. */
int dibr_project (const DibrCamera * cam, const double w[3], double *u, double *v, double *z);
/* The world point at image point (u, v) and camera-space depth z (the
 * inverse of dibr_project). */
void dibr_unproject (const DibrCamera * cam, double u, double v, double z, double w[3]);

/* The simple (shift-sensor) camera pair of the contract: the source camera
 * with fx = fy = f, cx = (W - 1) / 2, cy = (H - 1) / 2, E = identity, and
 * the virtual camera moved by +b along X with cx_v = cx + f b / zc
 * (convergence at zc; zc <= 0 or infinite: parallel cameras, cx_v = cx). */
void dibr_camera_simple_source (int width, int height, double f, DibrCamera * cam);
void dibr_camera_simple_virtual (int width, int height, double f, double b, double zc,
    DibrCamera * cam);
/* A general camera: fx = fy = f, principal point (cx, cy), centre at
 * `centre` (world), rotated by yaw (about Y), pitch (about X) and roll (about
 * Z), degrees, applied in that order to the camera's axes: the camera-to-
 * world rotation is Ry(yaw) Rx(pitch) Rz(roll), E = [R^T | -R^T centre]. */
void dibr_camera_general (int width, int height, double f, double cx, double cy,
    const double centre[3], double yaw_deg, double pitch_deg, double roll_deg, DibrCamera * cam);

/* ---- scenes ------------------------------------------------------------ */

/* An 8-bit RGB texture (packed rows, 3 bytes a pixel). */
typedef struct {
  uint8_t *rgb;
  int width;
  int height;
  char name[64];
} DibrTexture;

/* A textured rectangle: the points origin + s u + t v, (s, t) in [0, 1]^2
 * (u and v: the edge vectors, their lengths the rectangle's size; they need
 * not be orthogonal but must not be parallel).  Texture coordinates: s runs
 * along the texture's rows (x), t down its columns (y); the texture is
 * repeated repeat_s x repeat_t times over the rectangle (1 x 1: once,
 * clamped at the edges; more: wrapped, so tiles join with a seam). */
typedef struct {
  double origin[3];
  double u[3];
  double v[3];
  int texture;                  /* index into DibrScene.textures */
  int repeat_s;
  int repeat_t;
} DibrRect;

typedef struct {
  DibrTexture *textures;
  int n_textures;
  DibrRect *rects;
  int n_rects;
  /* suggested depth-plane range: every surface any standard camera sees
   * lies in [z_near, z_far] */
  double z_near;
  double z_far;
} DibrScene;

DibrScene *dibr_scene_new (void);
void dibr_scene_free (DibrScene * scene);
/* Loads tests/data/<file> (gcv_test_path; gray becomes R = G = B, alpha is
 * dropped) and scales it down by an integer `shrink` >= 1 (mean of
 * shrink x shrink blocks, rounded; partial blocks at the right and bottom
 * dropped).  Returns the texture's index, or -1 with a message on stderr. */
int dibr_scene_add_texture (DibrScene * scene, const char *file, int shrink);
/* Adds a texture made from `rgb` (3 bytes a pixel, rows `stride` bytes apart;
 * copied).  Returns its index. */
int dibr_scene_add_texture_rgb (DibrScene * scene, const uint8_t * rgb, size_t stride, int width,
    int height, const char *name);
/* Adds a rectangle; returns its index (the surface id of the pixels that
 * see it). */
int dibr_scene_add_rect (DibrScene * scene, const double origin[3], const double u[3],
    const double v[3], int texture, int repeat_s, int repeat_t);
/* Adds the six faces of the axis-aligned box [lo, lo + size] (size > 0 in
 * each axis), each with the whole texture once: the faces facing -Z and +Z
 * with s along X, t along Y; the +-X faces s along Z, t along Y; the +-Y
 * faces s along X, t along Z (Y points down, so the pictures stand
 * upright).  Returns the index of the first face (-Z, +Z, -X, +X, -Y, +Y
 * follow in that order). */
int dibr_scene_add_box (DibrScene * scene, const double lo[3], const double size[3], int texture);

/* The standard scene (units: metres, say), from far to near:
 *  0    background: coffee.png (shrink 5) tiled 3 x 3 on the plane Z = 12,
 *       X -9..9, Y -7..7 (every ray of the standard cameras hits it);
 *  1    a wall: chelsea.png (shrink 4), fronto-parallel at Z = 8, X -4.5..0.5,
 *       Y -2.5..0.83;
 *  2    a panel: astronaut.png (shrink 6), 2.4 x 2.4, turned 25 degrees about
 *       Y, from (0.3, -1.2, 5) to (2.48, 1.2, 6.01) (depth varies across it);
 *  3-8  a box: camera.png (shrink 8) on each face, [-1.2, -0.4] x [0.2, 1.0]
 *       x [2.8, 3.6] (its front, right (+X) and top (-Y) faces are seen by
 *       camera A);
 * with z_near = 2.5, z_far = 14.  Returns 0, or -1 when a photo cannot be
 * loaded (message on stderr; *scene is NULL then). */
int dibr_scene_standard (DibrScene ** scene);

/* The standard cameras for a W x H frame (tests use 320 x 240; the focal
 * length scales with W: f = 300 W / 320):
 *  A  the simple-mode source: E = identity, cx = (W - 1) / 2, cy = (H - 1) / 2;
 *  B  the simple-mode virtual camera: baseline DIBR_STD_BASELINE (0.25) along
 *     +X, convergence DIBR_STD_ZC (6): cx_v = cx + f b / zc;
 *  C  a full camera: centre (0.15, -0.05, 0.05), yaw 4, pitch -2, roll 1
 *     degrees, fx = fy = 0.97 f, principal point (cx + 3, cy - 2).
 * dibr_std_focal gives f. */
#define DIBR_STD_BASELINE 0.25
#define DIBR_STD_ZC 6.0
double dibr_std_focal (int width);
void dibr_std_camera_a (int width, int height, DibrCamera * cam);
void dibr_std_camera_b (int width, int height, DibrCamera * cam);
void dibr_std_camera_c (int width, int height, DibrCamera * cam);

/* ---- rendering --------------------------------------------------------- */

/* A rendered view, packed rows: rgba width * 4 bytes a row (A = 255), z
 * the camera-space Z (metric, > 0) of the surface each pixel centre sees,
 * surface its rectangle index.  A pixel whose ray hits nothing (never in
 * the standard scene) has z = +INFINITY, surface = -1 and rgba 0 0 0 255. */
typedef struct {
  int width;
  int height;
  uint8_t *rgba;
  double *z;
  int *surface;
} DibrView;

/* Renders scene through cam (cam->width x cam->height) into *view
 * (allocated here; free with dibr_view_clear).  One ray from the camera
 * centre through each pixel centre (integer coordinates); the hit kept is
 * the one with the smallest camera-space Z > 0 (Z is the ray parameter,
 * the direction being scaled to camera-space Z = 1).  Colour: the hit's
 * texture, bilinear in float64 (texel centres at (i + 0.5) / size in
 * texture coordinates), rounded. */
void dibr_render (const DibrScene * scene, const DibrCamera * cam, DibrView * view);
void dibr_view_clear (DibrView * view);
/* The world point pixel (x, y) of view (rendered through cam) sees. */
void dibr_view_point (const DibrCamera * cam, const DibrView * view, int x, int y, double w[3]);

/* ---- depth planes ------------------------------------------------------ */

/* Encodes metric Z into a depth value of maximum vmax (255 or 65535):
 * v = round (vmax (1/Z - 1/z_far) / (1/z_near - 1/z_far)), clamped to
 * 1 .. vmax (0 is kept for "unknown").  Within [z_near, z_far] the decoded
 * 1/Z is off by at most half a quantum, (1/z_near - 1/z_far) / (2 vmax),
 * except where v would round to 0 (Z just under z_far): clamped to 1 there. */
unsigned dibr_depth_encode (double z, double z_near, double z_far, unsigned vmax);
/* The contract's decode: 1/Z = (v / vmax) (1/z_near - 1/z_far) + 1/z_far. */
double dibr_depth_decode (unsigned v, double z_near, double z_far, unsigned vmax);
/* A whole plane: out (bits 8: uint8_t, bits 16: uint16_t host order), rows
 * out_stride bytes apart, from view->z.  Pixels with an infinite Z get 1
 * (the farthest known). */
void dibr_depth_plane (const DibrView * view, double z_near, double z_far, int bits, void *out,
    size_t out_stride);

/* Frame k of the benchmarks' side-by-side 2D+Z sequence: the scene seen
 * by a camera (focal dibr_std_focal (view_width)) that moves and turns a
 * little with k, colour on the left and 8-bit depth (z_near .. z_far, 255
 * nearest) as grey opaque RGBA on the right.  dst: (2 view_width) x
 * view_height RGBA, rows dst_stride bytes apart. */
void dibr_scene_sbs_frame (const DibrScene * scene, int view_width, int view_height, int k,
    double z_near, double z_far, uint8_t * dst, size_t dst_stride);
/* Frames 0 .. n-1 of that sequence of the standard scene
 * (dibr_scene_standard) into frames[k].  0 on success. */
int dibr_scene_sbs_frames (int view_width, int view_height, double z_near, double z_far,
    uint8_t * const *frames, int n, size_t dst_stride);

/* ---- comparisons ------------------------------------------------------- */

/* Which pixels of view_b (through cam_b) show a surface point also visible
 * from cam_a: the point is unprojected from B's Z, projected into A, must
 * land inside A's frame (-0.5 <= u < W - 0.5, same for v) in front of A, and
 * A's Z at the nearest pixel must agree with the point's Z in A within
 * rel_tol (relative; 0.01 is a good value: slanted surfaces change Z by a
 * fraction of a pixel's footprint between the point and the pixel centre,
 * occluders differ by much more).  mask: B's width * height bytes, 1 =
 * visible, 0 = not.  Returns the number of visible pixels. */
long dibr_visibility_mask (const DibrCamera * cam_b, const DibrView * view_b,
    const DibrCamera * cam_a, const DibrView * view_a, double rel_tol, uint8_t * mask);

/* PSNR (dB) of the R, G, B samples of two w x h 8-bit images over the
 * pixels where mask (w bytes a row, may be NULL = all) is non-zero.  Pixels
 * are a_bpp / b_bpp bytes apart (3 or 4; R, G, B first), rows a_stride /
 * b_stride.  *n_pixels (may be NULL) gets the number compared.  +INFINITY
 * for identical samples, NAN for an empty mask. */
double dibr_psnr_rgb (const uint8_t * a, size_t a_stride, int a_bpp, const uint8_t * b,
    size_t b_stride, int b_bpp, const uint8_t * mask, int w, int h, long *n_pixels);

/* Writes the RGB of a view to a PNG (for looking at failures). 0 on
 * success. */
int dibr_view_write_png (const DibrView * view, const char *path);

#ifdef __cplusplus
}
#endif
#endif /* DIBR_SCENE_H */
