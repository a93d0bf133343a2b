/* gst-cuda-video: depth-image-based rendering (virtual views from colour +
 * depth), the API both backends share.
 *
 * Paper 000 ("Synthesis example: depth image-based rendering", after the
 * authors' 3-D propagation algorithm): colour-based depth filling and
 * enhancement (median filter, then the depth-colour bilateral filter DCBF
 * with Gaussian lookup tables), propagation of colour + depth to the
 * virtual view with the closest pixel winning the conflicts (atomics on
 * the GPU), then rendering.  Written for N source views (colour + depth
 * cameras anywhere); cudadibr / cpudibr have one.
 *
 * Definitions (the contract of both backends):
 *
 *  - Cameras.  Pinhole, image x right, y down, camera space X right, Y
 *    down, Z forward; pixel centres at integer coordinates (pixel (u, v)
 *    covers u - 0.5 .. u + 0.5).  K = [[fx, s, cx], [0, fy, cy], [0, 0, 1]]
 *    (row-major, K[3 r + c]; the last row must be 0 0 1), E the 4x4
 *    world -> camera matrix (row-major, E[4 r + c], last row 0 0 0 1, E's
 *    3x3 part invertible; it need not be a rotation).  A camera-space point
 *    (X, Y, Z), Z > 0, is seen at u = fx X/Z + s Y/Z + cx, v = fy Y/Z + cy.
 *    Simple mode (gcv_dibr_camera_simple()): source fx = fy = f, s = 0,
 *    cx = (W - 1) / 2, cy = (H - 1) / 2, E = identity; virtual camera the
 *    same with cx_v = cx + f b / zc and E = translation by (-b, 0, 0) (its
 *    centre at X = +b), so u_v = u_s - f b (1/Z - 1/zc); zc <= 0 (or
 *    infinite) means parallel cameras: cx_v = cx.
 *
 *  - Depth decode.  A depth plane holds values v of `bits` 8 (vmax = 255)
 *    or 16 (vmax = 65535, native endian); v = vmax is the nearest, at
 *    z_near, v = 0 the farthest, at z_far:
 *        1/Z = (v / vmax) (1/z_near - 1/z_far) + 1/z_far.
 *    With zero_is_unknown, v = 0 means "no depth here" (unknown) instead.
 *    After the clean-up (stage 1) a depth value is a float d >= 0 in the
 *    same units, or GCV_DIBR_UNKNOWN (-1).  Its metric Z, in double:
 *        a = (1.0 / z_near - 1.0 / z_far) / vmax,  b = 1.0 / z_far
 *        (host, once, gcv_dibr_decode_make()),
 *        Z = 1.0 / ((double) d * a + b)           (gcv_dibr_value_to_z())
 *    one IEEE rounding per operation, in that order, no fused multiply-add.
 *
 *  - Stage 1a, median (median_size m odd, 1 .. 15; 1 = off).  The integer
 *    values of the plane, unknown ones excluded.  Output at (x, y): the
 *    lower median (sorted[(n - 1) / 2]) of the n known values in the
 *    m x m window centred on it, clipped to the frame; unknown when n = 0.
 *    Known pixels are replaced too (the filter removes speckle); unknown
 *    pixels with known neighbours get filled.  Exact integers: identical
 *    in every backend.
 *
 *  - Stage 1b, DCBF (dcbf_size K odd, 1 .. 31; 1 = off; r = K / 2) on the
 *    median's output (or the decoded plane when the median is off), with
 *    the view's colour I (R, G, B of its RGBA plane; A ignored):
 *        d(x) = sum_y Gs(y - x) Gc(|I(x) - I(y)|) d(y) / sum_y Gs Gc
 *    over y in the K x K window centred on x, inside the frame, with d(y)
 *    known (x itself included when known).  Tables, made once on the host
 *    in double and rounded to float (gcv_dibr_tables_make()):
 *        Gs[(dy + r) K + (dx + r)] = (float) exp (-(dx^2 + dy^2) / (2 sigma_spatial^2))
 *        Gc[D] = (float) exp (-D^2 / (2 sigma_color^2)),  D = 0 .. 765
 *    where D = |R(x) - R(y)| + |G(x) - G(y)| + |B(x) - B(y)| (the L1
 *    colour distance; the paper leaves the norm open, L1 needs no root).
 *    Per neighbour, in float, one rounding per operation, no fused
 *    multiply-add:  w = Gs * Gc;  num = num + w * d(y);  den = den + w;
 *    neighbours in raster order of the window (dy = -r .. r, then
 *    dx = -r .. r), num = den = 0 at the start.  Output d(x) = num / den
 *    when den > 0, else unknown (so an unknown pixel gets filled when any
 *    known neighbour has weight > 0).  Float division correctly rounded
 *    (CUDA: no fast math, no -ftz: denormal weights are kept, as on the
 *    host).  With these rules both backends give the same bits.
 *
 *  - Stage 2, forward warp with a z-buffer.  For every view i (0 .. N - 1)
 *    and every source pixel (x, y) with a known cleaned value d: Z by the
 *    decode above; with the host-made warp of the view
 *    (gcv_dibr_warp_make(): A = K_v R K_s^-1 and t = K_v T, [R | T] the
 *    3x4 top of E_v E_s^-1, all double):
 *        r_k = (A[k][0] x + A[k][1] y) + A[k][2]        k = 0, 1, 2
 *        h_k = Z r_k + t_k
 *    (double, one rounding per operation in that order, no FMA:
 *    gcv_dibr_warp_point()).  h_2 is the point's Z in the virtual camera.
 *    The point is dropped unless h_2 > 0 and zf = (float) h_2 is a normal
 *    float (>= FLT_MIN, finite).  Then u = h_0 / h_2, v = h_1 / h_2
 *    (double); it lands on target pixel (tx, ty) = (floor (u + 0.5),
 *    floor (v + 0.5)) (u + 0.5 rounded in double; a result of W, possible
 *    only by that rounding, becomes W - 1, likewise H) when
 *    -0.5 <= u < W - 0.5 and -0.5 <= v < H - 0.5 (else dropped).  Nearest
 *    pixel, no splatting: a point is up to half a pixel off on each axis
 *    (the paper's propagation is per pixel too).  Its key:
 *        key = (uint64) float_bits (zf) << 32 | i << 28 | (y w_i + x)
 *    (w_i the view's width; at most GCV_DIBR_MAX_VIEWS = 16 views and
 *    2^28 pixels a view).  Positive floats order like their bits, so the
 *    smallest key is the nearest point, ties (equal float Z) going to the
 *    lower view, then the lower source pixel index.  Every target pixel
 *    keeps the minimum key of the points landing on it (atomicMin on the
 *    GPU; the CPU does the same min): the result does not depend on the
 *    order of the points.  No key: GCV_DIBR_EMPTY (all ones).
 *
 *  - Crack filling (1-px gaps of stretched surfaces), reading the warp's
 *    keys and writing a second buffer (so the order does not matter): a
 *    pixel without a key whose left and right neighbours both have keys kl,
 *    kr with float depths zl, zr (the keys' high halves) such that
 *        fabsf (zl - zr) <= GCV_DIBR_CRACK_TOL * fminf (zl, zr)
 *    (float ops, GCV_DIBR_CRACK_TOL = 0.05f: one surface, not an edge)
 *    takes max (kl, kr) (the farther of the two: behind a crack lies the
 *    background more often than the foreground); else the same test with
 *    the up and down neighbours.  Pixels on the frame's border have no
 *    such pair on that axis.  Keys are copied, so a filled pixel shows the
 *    winner's colour and depth.
 *
 *  - Stage 3, disocclusion hole filling from the background side.  A hole
 *    is a pixel still without a key after crack filling (out_holes = 255
 *    there, 0 elsewhere).  For a hole (x, y): in its row, the nearest
 *    pixel with a key on the left (kl) and on the right (kr), from the
 *    crack-filled buffer (holes filled here do not feed other holes); both:
 *    the larger key (the larger Z, the background); one: that one.  When
 *    row y has no key at all, the same rule at column x of the nearest row
 *    with a key (|row - y| smallest, ties: the row above), where the pixel
 *    (x, row) itself, when it has a key, is the answer.  When no pixel of
 *    the frame has a key, every pixel is black (R = G = B = 0) with depth
 *    z_far.  Every pixel ends up with a colour.
 *
 *  - Output: per target pixel with key k: R, G, B of view (k >> 28) & 15's
 *    colour at source pixel k & (2^28 - 1), A = 255; depth (optional) the
 *    float Z in the virtual camera, the key's high half.
 *
 * Between backends every step above is integer or IEEE arithmetic with a
 * fixed order, so the outputs are meant to be identical.  What may still
 * differ: (1) exp() of the tables is only computed on the host, so it does
 * not; (2) the double division and the rounding of Z to float are exact
 * IEEE operations in both; (3) a CUDA build with fast math, -ftz or a
 * compiler that contracts a * b + c into FMA despite the rules breaks the
 * identity: the device code spells the operations with the _rn intrinsics.
 * Differences that remain are reported by the parity tests.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_DIBR_H
#define GCV_DIBR_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define GCV_DIBR_FN static __host__ __device__ __forceinline__
#else
#define GCV_DIBR_FN static inline
#endif

#define GCV_DIBR_MAX_VIEWS 16
#define GCV_DIBR_VIEW_SHIFT 28          /* key bits 28..31: the view */
#define GCV_DIBR_PIXEL_MASK ((1u << GCV_DIBR_VIEW_SHIFT) - 1u)
#define GCV_DIBR_MAX_DIMENSION 32767
#define GCV_DIBR_MAX_MEDIAN 15
#define GCV_DIBR_MAX_DCBF 31
#define GCV_DIBR_MAX_COLOR_DIST 765     /* 3 * 255 */
#define GCV_DIBR_UNKNOWN (-1.0f)        /* a cleaned depth value with no depth */
#define GCV_DIBR_EMPTY UINT64_MAX       /* a target pixel no point reached */
#define GCV_DIBR_CRACK_TOL 0.05f

/* A camera (conventions above): K row-major 3x3, E row-major 4x4 world ->
 * camera. */
typedef struct {
  double K[9];
  double E[16];
} GcvDibrCamera;

/* The simple-mode pair for a W x H frame (focal f pixels, baseline b along
 * +X, convergence zc; zc <= 0 or infinite: parallel).  Either output may
 * be NULL. */
void gcv_dibr_camera_simple (int width, int height, double f, double baseline, double convergence,
    GcvDibrCamera * src, GcvDibrCamera * virt);

typedef struct {
  int median_size;              /* odd, 1 .. 15; 1 = off */
  int dcbf_size;                /* odd, 1 .. 31; 1 = off */
  double sigma_spatial;         /* pixels, 0.1 .. 100 */
  double sigma_color;           /* L1 RGB distance units (0 .. 765), 0.1 .. 1000 */
  double z_near;                /* depth of value vmax; 0 < z_near < z_far */
  double z_far;                 /* depth of value 0; <= 1e9 */
  int zero_is_unknown;          /* value 0 = no depth */
  /* simple mode (the elements make the cameras with gcv_dibr_camera_simple) */
  double focal_length;          /* pixels, 1 .. 1e6 */
  double baseline;              /* z units, |b| <= 1e6 (0: the virtual view is the source) */
  double convergence;           /* z units, 0 (parallel) or z_near/1e3 .. 1e9 */
} GcvDibrParams;

/* Defaults of the elements' properties: median 3, DCBF 11x11 (the paper's
 * Table 5 case), sigma-spatial 3, sigma-color 12, z 1 .. 10, focal 1000,
 * baseline 0.06, convergence 3. */
void gcv_dibr_params_init (GcvDibrParams * params);
/* NULL when params are usable, else a message naming the property and its
 * accepted range (a thread-local buffer). */
const char *gcv_dibr_params_check (const GcvDibrParams * params);

/* The DCBF's Gaussian tables (host memory). */
typedef struct {
  int dcbf_size;
  float spatial[GCV_DIBR_MAX_DCBF * GCV_DIBR_MAX_DCBF];
  float color[GCV_DIBR_MAX_COLOR_DIST + 1];
} GcvDibrTables;

void gcv_dibr_tables_make (const GcvDibrParams * params, GcvDibrTables * tables);

/* The decode's a and b for a plane of `bits` (8 or 16). */
typedef struct {
  double a, b;
  int vmax;
} GcvDibrDecode;

void gcv_dibr_decode_make (const GcvDibrParams * params, int bits, GcvDibrDecode * dec);

GCV_DIBR_FN double
gcv_dibr_value_to_z (const GcvDibrDecode * dec, float d)
{
#ifdef __CUDA_ARCH__
  return __ddiv_rn (1.0, __dadd_rn (__dmul_rn ((double) d, dec->a), dec->b));
#else
  volatile double m = (double) d * dec->a;
  volatile double s = m + dec->b;
  return 1.0 / s;
#endif
}

/* The inverse for display (debug-output=depth): the value of metric Z,
 * vmax (1/Z - 1/z_far) / (1/z_near - 1/z_far), not rounded or clamped. */
GCV_DIBR_FN double
gcv_dibr_z_to_value (const GcvDibrDecode * dec, double z)
{
  return (1.0 / z - dec->b) / dec->a;
}

/* One view's warp into the virtual camera: h = Z (A [x y 1]) + t. */
typedef struct {
  double A[9];
  double t[3];
} GcvDibrWarp;

/* GCV_OK, or GCV_ERROR_INVALID when a K's last row is not 0 0 1, an E's
 * last row not 0 0 0 1, or a matrix is singular or not finite. */
GcvStatus gcv_dibr_warp_make (const GcvDibrCamera * src, const GcvDibrCamera * virt, GcvDibrWarp * warp,
    GcvError * err);

/* Warps source pixel (x, y) at depth z: returns 1 with the target pixel
 * and the float depth, 0 when the point is dropped (contract, stage 2). */
GCV_DIBR_FN int
gcv_dibr_warp_point (const GcvDibrWarp * w, int x, int y, double z, int width, int height, int *tx, int *ty,
    float *zf)
{
  double h0, h1, h2, u, v;
  float f;

#ifdef __CUDA_ARCH__
  double xd = (double) x, yd = (double) y;
  h0 = __dadd_rn (__dmul_rn (z, __dadd_rn (__dadd_rn (__dmul_rn (w->A[0], xd), __dmul_rn (w->A[1], yd)), w->A[2])), w->t[0]);
  h1 = __dadd_rn (__dmul_rn (z, __dadd_rn (__dadd_rn (__dmul_rn (w->A[3], xd), __dmul_rn (w->A[4], yd)), w->A[5])), w->t[1]);
  h2 = __dadd_rn (__dmul_rn (z, __dadd_rn (__dadd_rn (__dmul_rn (w->A[6], xd), __dmul_rn (w->A[7], yd)), w->A[8])), w->t[2]);
  if (!(h2 > 0.0))
    return 0;
  u = __ddiv_rn (h0, h2);
  v = __ddiv_rn (h1, h2);
#else
  {
    volatile double a0 = w->A[0] * (double) x, a1 = w->A[1] * (double) y, s0 = a0 + a1, r0 = s0 + w->A[2];
    volatile double b0 = w->A[3] * (double) x, b1 = w->A[4] * (double) y, s1 = b0 + b1, r1 = s1 + w->A[5];
    volatile double c0 = w->A[6] * (double) x, c1 = w->A[7] * (double) y, s2 = c0 + c1, r2 = s2 + w->A[8];
    volatile double m0 = z * r0, m1 = z * r1, m2 = z * r2;
    h0 = m0 + w->t[0];
    h1 = m1 + w->t[1];
    h2 = m2 + w->t[2];
  }
  if (!(h2 > 0.0))
    return 0;
  u = h0 / h2;
  v = h1 / h2;
#endif
  f = (float) h2;
  if (!(f >= FLT_MIN && f <= FLT_MAX))
    return 0;
  if (!(u >= -0.5 && u < width - 0.5 && v >= -0.5 && v < height - 0.5))
    return 0;
  *tx = (int) floor (u + 0.5);
  *ty = (int) floor (v + 0.5);
  /* u just below W - 0.5 may round to W - 0.5 + 0.5 = W only when u + 0.5
   * rounds up; keep the pixel inside */
  if (*tx >= width)
    *tx = width - 1;
  if (*ty >= height)
    *ty = height - 1;
  *zf = f;
  return 1;
}

GCV_DIBR_FN uint64_t
gcv_dibr_key (float zf, int view, uint32_t pixel)
{
  uint32_t bits;

  memcpy (&bits, &zf, 4);
  return ((uint64_t) bits << 32) | ((uint64_t) view << GCV_DIBR_VIEW_SHIFT) | pixel;
}

GCV_DIBR_FN float
gcv_dibr_key_z (uint64_t key)
{
  uint32_t bits = (uint32_t) (key >> 32);
  float f;

  memcpy (&f, &bits, 4);
  return f;
}

GCV_DIBR_FN int gcv_dibr_key_view (uint64_t key) { return (int) ((key >> GCV_DIBR_VIEW_SHIFT) & 15u); }
GCV_DIBR_FN uint32_t gcv_dibr_key_pixel (uint64_t key) { return (uint32_t) key & GCV_DIBR_PIXEL_MASK; }

/* The crack test of two neighbours' depths (float, no FMA). */
GCV_DIBR_FN int
gcv_dibr_same_surface (float za, float zb)
{
#ifdef __CUDA_ARCH__
  return fabsf (__fsub_rn (za, zb)) <= __fmul_rn (GCV_DIBR_CRACK_TOL, fminf (za, zb));
#else
  volatile float d = za - zb, m = GCV_DIBR_CRACK_TOL * fminf (za, zb);
  return fabsf (d) <= m;
#endif
}

/* Per-stage times of the last call, milliseconds (CPU: wall clock; CUDA:
 * events on the stream). */
typedef struct {
  double clean_ms;              /* median + DCBF, all views */
  double warp_ms;               /* z-buffer + crack filling */
  double fill_ms;               /* hole filling + colour / depth gather */
} GcvDibrTimes;

/* One source view: colour RGBA 8-bit (4 bytes a pixel, R G B A), depth
 * `depth_bits` 8 (GRAY8) or 16 (GRAY16 native endian), the same size;
 * strides in bytes; its camera. */
typedef struct {
  GcvPlane rgba;
  GcvPlane depth;
  int depth_bits;
  GcvDibrCamera camera;
} GcvDibrView;

/* ---- Packed 2D+Z frames (the elements' layouts) -------------------------
 * One view's colour and depth in one frame, as the elements receive it:
 *  - 4BYTE: pixels of 4 bytes (RGBA, BGRA, RGBx, BGRx, ...), 8-bit depth
 *    in one byte of the pixels of the depth part (side by side or top and
 *    bottom: a grey picture's R byte; alpha layout: the colour pixels' own
 *    A byte, depth part at 0, 0);
 *  - RGBA64: pixels of 4 16-bit little-endian samples (RGBA64_LE,
 *    BGRA64_LE), 16-bit depth in one sample of the depth part likewise,
 *    the colour's high bytes (sample >> 8, as videoconvert reduces 16 bits
 *    to 8);
 *  - I420: 8-bit depth in the luma of the depth part.
 * The colour part starts at pixel 0, 0.  Unpacking (both backends the
 * same integers, gcv_dibr_unpack_pixel()) gives the view's RGBA plane
 * (A = 255) and its depth plane, GRAY8, or GRAY16 (native endian) for
 * RGBA64 (gcv_dibr_packed_depth_bits()):
 *   4BYTE:  R, G, B = the bytes r, g, b of pixel (x, y) of plane 0;
 *           depth = byte d of pixel (x + depth_x, y + depth_y).
 *   RGBA64: R, G, B = the high bytes of the samples r, g, b of pixel
 *           (x, y); depth = sample d of pixel (x + depth_x, y + depth_y).
 *   I420:   BT.601 limited range (the inverse of videoconvert's default),
 *           with Y at (x, y), U, V at (x / 2, y / 2), c = 298 (Y - 16) + 128:
 *           R = clamp ((c + 409 (V - 128)) >> 8),
 *           G = clamp ((c - 100 (U - 128) - 208 (V - 128)) >> 8),
 *           B = clamp ((c + 516 (U - 128)) >> 8)   (arithmetic shift,
 *           clamp to 0 .. 255); depth = Y at (x + depth_x, y + depth_y). */
typedef enum {
  GCV_DIBR_PACKED_4BYTE = 0,
  GCV_DIBR_PACKED_I420 = 1,
  GCV_DIBR_PACKED_RGBA64 = 2
} GcvDibrPackedFormat;

typedef struct {
  GcvDibrPackedFormat format;
  GcvPlane planes[3];           /* 4BYTE, RGBA64: [0] the frame; I420: Y, U, V (width, height in samples) */
  int width, height;            /* the view: the colour part */
  int depth_x, depth_y;         /* where the depth part starts in plane 0, pixels */
  int r, g, b, d;               /* 4BYTE: byte offsets (0 .. 3) of R, G, B and of the depth in a pixel;
                                 * RGBA64: sample indices (0 .. 3) */
} GcvDibrPacked;

/* NULL when `p` describes a usable frame (planes large enough for both
 * parts, offsets in range), else what is wrong (a thread-local buffer). */
const char *gcv_dibr_packed_check (const GcvDibrPacked * p);

/* 16 for RGBA64 frames, else 8: the unpacked depth plane's bits. */
GCV_DIBR_FN int
gcv_dibr_packed_depth_bits (const GcvDibrPacked * p)
{
  return p->format == GCV_DIBR_PACKED_RGBA64 ? 16 : 8;
}

GCV_DIBR_FN uint8_t
gcv_dibr_clamp_u8 (int v)
{
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Pixel (x, y) of the view: rgba[0 .. 3] and *depth (8 or 16 bits). */
GCV_DIBR_FN void
gcv_dibr_unpack_pixel (const GcvDibrPacked * p, int x, int y, uint8_t * rgba, unsigned *depth)
{
  const uint8_t *p0 = (const uint8_t *) p->planes[0].data;
  const size_t s0 = p->planes[0].stride;

  if (p->format == GCV_DIBR_PACKED_I420) {
    const int c = 298 * (p0[s0 * y + x] - 16) + 128;
    const int u = ((const uint8_t *) p->planes[1].data)[p->planes[1].stride * (y / 2) + x / 2] - 128;
    const int v = ((const uint8_t *) p->planes[2].data)[p->planes[2].stride * (y / 2) + x / 2] - 128;
    rgba[0] = gcv_dibr_clamp_u8 ((c + 409 * v) >> 8);
    rgba[1] = gcv_dibr_clamp_u8 ((c - 100 * u - 208 * v) >> 8);
    rgba[2] = gcv_dibr_clamp_u8 ((c + 516 * u) >> 8);
    *depth = p0[s0 * (y + p->depth_y) + (x + p->depth_x)];
  } else if (p->format == GCV_DIBR_PACKED_RGBA64) {
    /* little-endian samples: the high byte is the second of each pair */
    const uint8_t *px = p0 + s0 * y + (size_t) x * 8;
    const uint8_t *dp = p0 + s0 * (y + p->depth_y) + (size_t) (x + p->depth_x) * 8 + 2 * p->d;
    rgba[0] = px[2 * p->r + 1];
    rgba[1] = px[2 * p->g + 1];
    rgba[2] = px[2 * p->b + 1];
    *depth = (unsigned) dp[0] | (unsigned) dp[1] << 8;
  } else {
    const uint8_t *px = p0 + s0 * y + (size_t) x * 4;
    rgba[0] = px[p->r];
    rgba[1] = px[p->g];
    rgba[2] = px[p->b];
    *depth = p0[s0 * (y + p->depth_y) + (size_t) (x + p->depth_x) * 4 + p->d];
  }
  rgba[3] = 255;
}

/* ---- Camera file (cpu/dibr_camera_file.c) -------------------------------
 * The full mode's cameras (the elements' camera-file property): a JSON
 * file with the source and the virtual camera, in the conventions above.
 *
 *   {
 *     "source": {
 *       "intrinsics": [1000, 0, 639.5,  0, 1000, 359.5,  0, 0, 1]
 *     },
 *     "virtual": {
 *       "intrinsics": { "fx": 1000, "fy": 1000, "cx": 639.5, "cy": 359.5 },
 *       "extrinsics": [ 0.9962, 0, -0.0872, -0.06,
 *                       0,      1,  0,       0,
 *                       0.0872, 0,  0.9962,  0,
 *                       0,      0,  0,       1 ]
 *     }
 *   }
 *
 *  - The top level holds exactly "source" and "virtual"; a camera holds
 *    "intrinsics" and, optionally, "extrinsics" (absent: identity, the
 *    camera at the world origin looking along +Z).
 *  - "intrinsics": K as 9 numbers, row-major, [fx, s, cx, 0, fy, cy, 0, 0,
 *    1] (K[3] must be 0 and the last row 0 0 1), or an object with "fx",
 *    "fy", "cx", "cy" and optionally "skew" (s, default 0).  fx and fy
 *    in pixels, GCV_DIBR_MIN_FOCAL .. GCV_DIBR_MAX_FOCAL (the
 *    focal-length property's range: 1e-300 passes "> 0" but makes K
 *    singular); cx, cy and s at most GCV_DIBR_MAX_PRINCIPAL pixels either
 *    way (a principal point 30 widths of the largest frame away from it).
 *  - Every value is bounded so that every warp the renderer makes from
 *    two such cameras is finite (gcv_dibr_warp_make(): with |det| >
 *    1e-12, K^-1 entries stay below 3e12, R^-1 entries below 3e24, the
 *    warp's A below 1e51 and t below 1e48, the projected points below
 *    1e65): a file that loads renders.
 *  - "extrinsics": E as 16 numbers, row-major, world -> camera (so a
 *    camera centred at world point C with rotation R has the last column
 *    -R C); the last row must be 0 0 0 1 and the 3x3 part invertible
 *    (|det| > 1e-12, finite; it need not be a rotation).  Entries of the
 *    3x3 part at most GCV_DIBR_MAX_LINEAR either way (a rotation's are at
 *    most 1), of the translation GCV_DIBR_MAX_TRANSLATION (z-far's limit).
 *  - Strict JSON (RFC 8259; a leading UTF-8 byte-order mark is skipped):
 *    no comments, no trailing commas, no NaN / Infinity, every number
 *    finite as a double, an integer (no fraction, no exponent) within 64
 *    bits (json-glib holds it so), no \u0000 in strings; nesting at most
 *    GCV_DIBR_CAMERA_FILE_MAX_DEPTH deep and at most
 *    GCV_DIBR_CAMERA_FILE_MAX_VALUES values.  Unknown and duplicate keys
 *    are errors (a typo must not pass silently).  Numbers are read the
 *    same whatever the locale's decimal point.
 * A bad file gives GCV_ERROR_INVALID and a message "<name>:<line>:<column>:
 * <what was expected> in <where>", e.g. "camera.json:3:17: expected a
 * number in source.intrinsics[4], got a string" (lines and columns from 1,
 * columns in characters). */
#define GCV_DIBR_CAMERA_FILE_MAX_DEPTH 16
#define GCV_DIBR_MIN_FOCAL 1.0
#define GCV_DIBR_MAX_FOCAL 1e6
#define GCV_DIBR_MAX_PRINCIPAL 1e6      /* |cx|, |cy|, |s|, pixels */
#define GCV_DIBR_MAX_LINEAR 1e6         /* |entry| of E's 3x3 part */
#define GCV_DIBR_MAX_TRANSLATION 1e9    /* |entry| of E's last column, z units */
#define GCV_DIBR_CAMERA_FILE_MAX_VALUES 10000
#define GCV_DIBR_CAMERA_FILE_MAX_BYTES (1 << 20)   /* _load() reads at most 1 MiB */

/* Parses len bytes of text (no terminating NUL needed); name_for_messages
 * (NULL: "camera file") starts the error messages.  source and virt (either
 * may be NULL) are written only on success. */
GcvStatus gcv_dibr_camera_file_parse (const char *text, size_t len, const char *name_for_messages,
    GcvDibrCamera * source, GcvDibrCamera * virt, GcvError * err);
/* Reads the file at path and parses it (messages start with the path). */
GcvStatus gcv_dibr_camera_file_load (const char *path, GcvDibrCamera * source, GcvDibrCamera * virt,
    GcvError * err);

/* ---- CPU backend (cpu/dibr_cpu.c) ---------------------------------------
 * The context holds the working memory for a W x H virtual view (the
 * z-buffers) and grows its per-view scratch with the views' sizes. */
typedef struct _GcvDibrCpu GcvDibrCpu;

GcvDibrCpu *gcv_dibr_cpu_new (int width, int height, GcvError * err);
/* Stage 1 alone on one view: the cleaned depth values (float, value units,
 * GCV_DIBR_UNKNOWN where none) into `out` (view size, F32 samples, stride
 * in bytes).  ms may be NULL. */
GcvStatus gcv_dibr_cpu_clean_depth (GcvDibrCpu * ctx, const GcvDibrParams * params, const GcvDibrView * view,
    GcvPlane * out, int n_threads, double *ms, GcvError * err);
/* The three stages: n_views (1 .. 16) views into the W x H virtual view of
 * camera `virt`.  out_rgba: RGBA 8-bit; out_depth (F32, may be NULL): the
 * virtual-camera Z; out_holes (GRAY8, may be NULL): 255 on the pixels
 * stage 3 filled.  n_threads: at most that many threads (0: one per
 * core), as many as each stage is worth (gcv-parallel.h); times may be
 * NULL.  Stopped (GCV_ERROR_CANCELLED, here and in _clean_depth): the
 * outputs are incomplete. */
GcvStatus gcv_dibr_cpu_render (GcvDibrCpu * ctx, const GcvDibrParams * params, const GcvDibrView * views,
    int n_views, const GcvDibrCamera * virt, GcvPlane * out_rgba, GcvPlane * out_depth, GcvPlane * out_holes,
    int n_threads, GcvDibrTimes * times, GcvError * err);
/* The stop request _render and _clean_depth watch (NULL: none). */
void gcv_dibr_cpu_set_cancel (GcvDibrCpu * ctx, const GcvCancel * cancel);
void gcv_dibr_cpu_free (GcvDibrCpu * ctx);
/* Unpacks a packed frame (host planes) into the view's RGBA (A = 255) and
 * depth planes (frame->width x frame->height; depth GRAY8, or GRAY16 for
 * RGBA64 frames); n_threads 0 = up to 4 of the cores.  Stops between rows
 * when @cancel (may be NULL) asks (GCV_ERROR_CANCELLED). */
GcvStatus gcv_dibr_unpack (const GcvDibrPacked * frame, GcvPlane * rgba, GcvPlane * depth, int n_threads,
    const GcvCancel * cancel, GcvError * err);

/* ---- Output frames: the eyes composed (both backends) -------------------
 * What the elements make of their one or two rendered eyes (stereo pairs,
 * anaglyphs, debug pictures): an output frame of 4-byte pixels (RGBA,
 * BGRA, RGBx, BGRx, ...).  An eye is W x H; each output pixel the compose
 * writes is, in this order:
 *  1. per eye, its colour after the show step (gcv_dibr_compose_eye()):
 *     COLOUR: R, G, B of the eye's RGBA (its fourth byte ignored);
 *     DEPTH: grey (v, v, v), v the eye's depth in `dec`'s coding,
 *       gcv_dibr_z_to_value() rounded half up (floor (value + 0.5), in
 *       double) and clamped to 0 .. 255, NaN -> 0 (gcv_dibr_depth_grey();
 *       the elements pass an 8-bit decode of their params, so near = 255);
 *     HOLES: (255, 255, 255) where the eye's holes mask is non-zero, its
 *       colour elsewhere;
 *  2. anaglyph (two eyes, one W x H picture at 0, 0 of the output; the
 *     eyes' ox, oy are not used): R of eye 0, G and B of eye 1; otherwise
 *     each eye's picture at its (ox, oy);
 *  3. stored in the output's byte order: bytes order.r, .g, .b of the
 *     pixel get R, G, B and byte order.x (A or x) gets 255
 *     (gcv_dibr_compose_put()).
 * Output pixels outside the pictures are not written.  An eye's RGBA may
 * be the very pixels of `out` it goes to (in place: every pixel is read
 * before it is written); no other overlap of inputs and output.  The
 * pictures of two eyes must not overlap. */
typedef enum {
  GCV_DIBR_SHOW_COLOUR = 0,
  GCV_DIBR_SHOW_DEPTH = 1,
  GCV_DIBR_SHOW_HOLES = 2
} GcvDibrShow;

typedef struct {
  GcvPlane rgba;                /* the eye's colour, 4 bytes a pixel (R, G, B, ignored), W x H */
  GcvPlane depth;               /* F32 virtual-camera Z, W x H (show DEPTH; else data may be NULL) */
  GcvPlane holes;               /* GRAY8, non-zero = filled by stage 3, W x H (show HOLES; else data may be NULL) */
  int ox, oy;                   /* where its top-left pixel goes in the output (not anaglyph) */
} GcvDibrEye;

/* Byte offsets (0 .. 3, all different) in the output's pixels: RGBA
 * {0, 1, 2, 3}, BGRA {2, 1, 0, 3}, RGBx {0, 1, 2, 3}, BGRx {2, 1, 0, 3}. */
typedef struct {
  int r, g, b;
  int x;                        /* the fourth byte (A or x), set to 255 */
} GcvDibrPixelOrder;

/* The grey of a virtual-camera Z in `dec`'s coding (show DEPTH). */
GCV_DIBR_FN uint8_t
gcv_dibr_depth_grey (const GcvDibrDecode * dec, float z)
{
  const double d = gcv_dibr_z_to_value (dec, (double) z);
  double f;

  if (d != d)
    return 0;
  f = floor (d + 0.5);
  return (uint8_t) (f > 255.0 ? 255.0 : f < 0.0 ? 0.0 : f);
}

/* Pixel (x, y) of an eye after the show step: rgb[0 .. 2]. */
GCV_DIBR_FN void
gcv_dibr_compose_eye (const GcvDibrEye * e, GcvDibrShow show, const GcvDibrDecode * dec, int x, int y,
    uint8_t * rgb)
{
  const uint8_t *s = (const uint8_t *) e->rgba.data + e->rgba.stride * (size_t) y + 4 * (size_t) x;

  if (show == GCV_DIBR_SHOW_DEPTH) {
    const float z = ((const float *) ((const uint8_t *) e->depth.data + e->depth.stride * (size_t) y))[x];
    rgb[0] = rgb[1] = rgb[2] = gcv_dibr_depth_grey (dec, z);
  } else if (show == GCV_DIBR_SHOW_HOLES
      && ((const uint8_t *) e->holes.data)[e->holes.stride * (size_t) y + (size_t) x] != 0) {
    rgb[0] = rgb[1] = rgb[2] = 255;
  } else {
    rgb[0] = s[0];
    rgb[1] = s[1];
    rgb[2] = s[2];
  }
}

/* Pixel (x, y) of picture `pic` (anaglyph: 0, the one picture; else the
 * eye's index) before it is stored: rgb[0 .. 2]. */
GCV_DIBR_FN void
gcv_dibr_compose_pixel (const GcvDibrEye * eyes, int pic, int anaglyph, GcvDibrShow show, const GcvDibrDecode * dec,
    int x, int y, uint8_t * rgb)
{
  if (anaglyph) {
    uint8_t right[3];
    gcv_dibr_compose_eye (&eyes[0], show, dec, x, y, rgb);
    gcv_dibr_compose_eye (&eyes[1], show, dec, x, y, right);
    rgb[1] = right[1];
    rgb[2] = right[2];
  } else {
    gcv_dibr_compose_eye (&eyes[pic], show, dec, x, y, rgb);
  }
}

/* Stores R, G, B into the output pixel px in `order`, the fourth byte 255. */
GCV_DIBR_FN void
gcv_dibr_compose_put (const GcvDibrPixelOrder * order, const uint8_t * rgb, uint8_t * px)
{
  px[order->r] = rgb[0];
  px[order->g] = rgb[1];
  px[order->b] = rgb[2];
  px[order->x] = 255;
}

/* NULL when the arguments describe a usable compose (n_eyes 1 or 2,
 * anaglyph only with 2 eyes of the same size, the planes the show step
 * reads present and of the eye's size with strides that hold a row, dec
 * given for DEPTH, a valid order, every picture inside `out`, two
 * pictures not overlapping), else what is wrong (a thread-local buffer).
 * Both backends check with it (cpu/dibr.c). */
const char *gcv_dibr_compose_check (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show,
    const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, const GcvPlane * out);

/* Writes n_eyes (1 or 2) eyes into `out` (host planes; 4 bytes a pixel)
 * as described above.  n_threads 0 = all cores.  Stops between rows when
 * @cancel (may be NULL) asks (GCV_ERROR_CANCELLED). */
GcvStatus gcv_dibr_compose (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show,
    const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, GcvPlane * out, int n_threads,
    const GcvCancel * cancel, GcvError * err);

/* ---- CUDA backend (kernels/dibr.cu; only when built with CUDA) ----------
 * A context works in the CUDA context current on the calling thread (it
 * never selects a device, creates a stream or synchronises a device or
 * stream: the caller owns those, and may have pushed a non-primary
 * CUcontext) and on the stream passed to each call; calls only queue work
 * (the caller waits for the stream before reading anything the calls
 * wrote, and before freeing or reusing the planes it passed).  The one
 * wait inside: when the DCBF's size or sigmas change, rewriting the pinned
 * host copy of its tables waits for the event of the copy that read it
 * last.  The calls on one context must be ordered: one stream, or the
 * caller makes a stream wait for the previous one.  Up to
 * GCV_DIBR_MAX_VIEWS views (memory allocated at a view's first set/unpack
 * and again only when it grows: wait for `stream` first), the W x H
 * virtual view's z-buffer.  Planes are device memory; the RGBA and F32
 * planes the context writes need 4-byte aligned rows (data and stride, as
 * cudaMallocPitch gives).  The results equal the CPU backend's (see the
 * contract's last paragraph). */
typedef struct _GcvDibrCuda GcvDibrCuda;

GcvDibrCuda *gcv_dibr_cuda_new (int width, int height, GcvError * err);
/* Queues the copy of view `index` (0 .. GCV_DIBR_MAX_VIEWS - 1) from
 * DEVICE planes (view->rgba RGBA 8-bit, view->depth GRAY8 or GRAY16 per
 * depth_bits, the view's camera) into the context. */
GcvStatus gcv_dibr_cuda_set_view (GcvDibrCuda * ctx, int index, const GcvDibrView * view, void *stream,
    GcvError * err);
/* Queues the unpacking of a packed frame whose planes are in device memory
 * into view `index` (as a set of that view with `camera`: RGBA with A =
 * 255, depth of gcv_dibr_packed_depth_bits()). */
GcvStatus gcv_dibr_cuda_unpack_view (GcvDibrCuda * ctx, int index, const GcvDibrPacked * frame,
    const GcvDibrCamera * camera, void *stream, GcvError * err);
/* The device plane holding view `index`'s colour (RGBA, A = 255) as set or
 * unpacked (written by the queued work); valid until that view is set or
 * unpacked again. */
GcvStatus gcv_dibr_cuda_view_colour (GcvDibrCuda * ctx, int index, GcvPlane * colour, GcvError * err);
/* Queues stage 1 of view `index` into `out` (device, F32, view size). */
GcvStatus gcv_dibr_cuda_clean_depth (GcvDibrCuda * ctx, const GcvDibrParams * params, int index, GcvPlane * out,
    void *stream, GcvError * err);
/* Queues the three stages for views 0 .. n_views - 1 (set or unpacked)
 * into the virtual view of `virt`: DEVICE planes out_rgba (RGBA 8-bit
 * W x H), out_depth (F32, may be NULL), out_holes (GRAY8, may be NULL),
 * as gcv_dibr_cpu_render()'s.  A second render queued on the same stream
 * with unchanged params and views (the other eye of a stereo pair) reuses
 * the cleaned depth. */
GcvStatus gcv_dibr_cuda_render (GcvDibrCuda * ctx, const GcvDibrParams * params, int n_views,
    const GcvDibrCamera * virt, GcvPlane * out_rgba, GcvPlane * out_depth, GcvPlane * out_holes, void *stream,
    GcvError * err);
/* The last render's stage times (CUDA events), once the caller waited for
 * the stream (all 0 before a render). */
GcvStatus gcv_dibr_cuda_times (GcvDibrCuda * ctx, GcvDibrTimes * times, GcvError * err);
/* Frees the context (the caller has waited for the streams). */
void gcv_dibr_cuda_free (GcvDibrCuda * ctx);
/* gcv_dibr_compose() on DEVICE planes, queued on `stream` (no context;
 * show DEPTH also needs the depth planes' rows 4-byte aligned). */
GcvStatus gcv_dibr_cuda_compose (const GcvDibrEye * eyes, int n_eyes, int anaglyph, GcvDibrShow show,
    const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, GcvPlane * out, void *stream, GcvError * err);

#ifdef __cplusplus
}
#endif
#endif /* GCV_DIBR_H */
