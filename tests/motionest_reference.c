/* gst-cuda-video: the motion-estimation test reference (see the header).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "motionest_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GcvMotionParams
motion_test_params (int bw, int bh, int rx, int ry, int subpel, GcvMotionMethod method, double zero_threshold)
{
  GcvMotionParams p;

  memset (&p, 0, sizeof (p));
  p.block_width = bw;
  p.block_height = bh;
  p.range_x = rx;
  p.range_y = ry;
  p.subpel = (GcvMotionSubpel) subpel;
  p.method = method;
  p.zero_threshold = zero_threshold;
  return p;
}

int
motion_reference_sample (const uint8_t * img, size_t stride, int X, int Y)
{
  int i = X / 4, j = Y / 4, fx = X - 4 * i, fy = Y - 4 * j;
  int w00 = (4 - fx) * (4 - fy), w10 = fx * (4 - fy), w01 = (4 - fx) * fy, w11 = fx * fy;
  int sum = w00 * img[(size_t) j * stride + i];

  /* X, Y >= 0 here, so / and - give floor and the fraction */
  if (w10)
    sum += w10 * img[(size_t) j * stride + i + 1];
  if (w01)
    sum += w01 * img[(size_t) (j + 1) * stride + i];
  if (w11)
    sum += w11 * img[(size_t) (j + 1) * stride + i + 1];
  return (sum + 8) / 16;
}

typedef struct {
  const GcvMotionParams *p;
  const GcvPlane *prev, *cur;
  int x0, y0, w, h;
} Block;

typedef struct {
  int valid;
  uint32_t sad;
  int dx, dy;
} Cand;

static int
inside (const Block * b, int dx, int dy)
{
  int W = b->cur->width, H = b->cur->height;

  if (abs (dx) > 4 * b->p->range_x || abs (dy) > 4 * b->p->range_y)
    return 0;
  /* the displaced block's first and last pixel, in quarter pixels */
  return 4 * b->x0 + dx >= 0 && 4 * (b->x0 + b->w - 1) + dx <= 4 * (W - 1)
      && 4 * b->y0 + dy >= 0 && 4 * (b->y0 + b->h - 1) + dy <= 4 * (H - 1);
}

static Cand
evaluate (const Block * b, int dx, int dy)
{
  Cand c = { 0, 0, dx, dy };
  int x, y;

  if (!inside (b, dx, dy))
    return c;
  c.valid = 1;
  for (y = 0; y < b->h; y++)
    for (x = 0; x < b->w; x++) {
      int a = ((const uint8_t *) b->prev->data)[(size_t) (b->y0 + y) * b->prev->stride + b->x0 + x];
      int s = motion_reference_sample (b->cur->data, b->cur->stride, 4 * (b->x0 + x) + dx,
          4 * (b->y0 + y) + dy);
      c.sad += (uint32_t) abs (a - s);
    }
  return c;
}

/* The tie order as a tuple: SAD, |dx| + |dy|, dy, dx. */
static int
better (const Cand * a, const Cand * b)
{
  int la = abs (a->dx) + abs (a->dy), lb = abs (b->dx) + abs (b->dy);

  if (!a->valid)
    return 0;
  if (!b->valid)
    return 1;
  if (a->sad != b->sad)
    return a->sad < b->sad;
  if (la != lb)
    return la < lb;
  if (a->dy != b->dy)
    return a->dy < b->dy;
  return a->dx < b->dx;
}

static Cand
full_search (const Block * b)
{
  int step = 4 / b->p->subpel, dx, dy;
  Cand best = { 0, 0, 0, 0 };

  for (dy = -4 * b->p->range_y; dy <= 4 * b->p->range_y; dy += step)
    for (dx = -4 * b->p->range_x; dx <= 4 * b->p->range_x; dx += step) {
      Cand c = evaluate (b, dx, dy);
      if (better (&c, &best))
        best = c;
    }
  return best;
}

/* The best of centre and centre + k * delta for the listed k. */
static Cand
line_step (const Block * b, Cand centre, int ddx, int ddy, int reach)
{
  Cand best = centre;
  int k;

  for (k = -reach; k <= reach; k++) {
    Cand c;
    if (k == 0)
      continue;
    c = evaluate (b, centre.dx + k * ddx, centre.dy + k * ddy);
    if (better (&c, &best))
      best = c;
  }
  return best;
}

static Cand
ring_step (const Block * b, Cand centre, int d)
{
  Cand best = centre;
  int i, j;

  for (j = -1; j <= 1; j++)
    for (i = -1; i <= 1; i++) {
      Cand c;
      if (i == 0 && j == 0)
        continue;
      c = evaluate (b, centre.dx + i * d, centre.dy + j * d);
      if (better (&c, &best))
        best = c;
    }
  return best;
}

static Cand
mods_search (const Block * b)
{
  Cand best = { 0, 0, 0, 0 };
  int k;

  for (k = -b->p->range_x; k <= b->p->range_x; k++) {
    Cand c = evaluate (b, 4 * k, 0);
    if (!c.valid)
      continue;
    c = line_step (b, c, 0, 16, b->p->range_y / 4);     /* 0, +-4, +-8 ... px */
    c = line_step (b, c, 0, 8, 1);      /* +-2 px */
    c = line_step (b, c, 0, 4, 1);      /* +-1 px */
    if (better (&c, &best))
      best = c;
  }
  if (b->p->subpel >= 2)
    best = ring_step (b, best, 2);
  if (b->p->subpel == 4)
    best = ring_step (b, best, 1);
  return best;
}

int
motion_reference_search (const GcvMotionParams * p, const GcvPlane * prev, const GcvPlane * cur,
    GcvMotionVector * out)
{
  int W = prev->width, H = prev->height, cols, rows, bx, by;
  uint32_t cq;

  if (gcv_motion_params_check (p) != NULL || W < 1 || H < 1 || cur->width != W || cur->height != H)
    return -1;
  cq = p->zero_threshold > 0 ? (uint32_t) (256.0 * p->zero_threshold + 0.5) : 0;
  cols = (W + p->block_width - 1) / p->block_width;
  rows = (H + p->block_height - 1) / p->block_height;
  for (by = 0; by < rows; by++)
    for (bx = 0; bx < cols; bx++) {
      Block b = { p, prev, cur, bx * p->block_width, by * p->block_height, 0, 0 };
      Cand best;
      GcvMotionVector *v = &out[by * cols + bx];

      b.w = W - b.x0 < p->block_width ? W - b.x0 : p->block_width;
      b.h = H - b.y0 < p->block_height ? H - b.y0 : p->block_height;
      best = p->method == GCV_MOTION_METHOD_FULL ? full_search (&b) : mods_search (&b);
      if (cq > 0 && (uint64_t) best.sad * 256 <= (uint64_t) cq * b.w * b.h)
        best = evaluate (&b, 0, 0);
      v->x = b.x0;
      v->y = b.y0;
      v->dx = best.dx;
      v->dy = best.dy;
      v->sad = best.sad;
    }
  return 0;
}

static void
fill_garbage (GcvPlane * p, size_t pad, uint32_t seed)
{
  int y;
  size_t i;

  for (y = 0; y < p->height; y++)
    for (i = 0; i < pad; i++)
      ((uint8_t *) p->data)[(size_t) y * p->stride + p->width + i] = (uint8_t) gcv_test_rand (&seed);
}

static GcvPlane
plane_new (int w, int h, size_t pad)
{
  GcvPlane p;

  p.width = w;
  p.height = h;
  p.stride = (size_t) w + pad;
  p.data = gcv_test_malloc (p.stride * h + 1);
  return p;
}

void
motion_test_shifted_pair (const uint8_t * photo, int pw, int ph, int cx, int cy, int w, int h,
    int dx, int dy, size_t pad, GcvPlane * prev, GcvPlane * cur)
{
  int x, y;

  if (cx < 0 || cy < 0 || cx + w > pw || cy + h > ph || 4 * cx + dx < 0 || 4 * cy + dy < 0
      || 4 * (cx + w - 1) + dx > 4 * (pw - 1) || 4 * (cy + h - 1) + dy > 4 * (ph - 1)) {
    fprintf (stderr, "motion_test_shifted_pair: window %dx%d at %d,%d moved %d,%d q leaves the %dx%d photo\n",
        w, h, cx, cy, dx, dy, pw, ph);
    abort ();
  }
  *prev = plane_new (w, h, pad);
  *cur = plane_new (w, h, pad);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      ((uint8_t *) cur->data)[(size_t) y * cur->stride + x] = photo[(size_t) (cy + y) * pw + cx + x];
      ((uint8_t *) prev->data)[(size_t) y * prev->stride + x] =
          (uint8_t) motion_reference_sample (photo, pw, 4 * (cx + x) + dx, 4 * (cy + y) + dy);
    }
  fill_garbage (prev, pad, 11);
  fill_garbage (cur, pad, 12);
}

void
motion_test_random_pair (const uint8_t * photo, int pw, int ph, int w, int h, int max_shift,
    int noise, size_t pad, uint32_t seed, GcvPlane * prev, GcvPlane * cur)
{
  int tiles_x = (w + 7) / 8, tiles_y = (h + 7) / 8, x, y;
  int *sx = gcv_test_malloc (sizeof (int) * tiles_x * tiles_y);
  int *sy = gcv_test_malloc (sizeof (int) * tiles_x * tiles_y);
  int ox = (int) (gcv_test_rand (&seed) % (uint32_t) pw), oy = (int) (gcv_test_rand (&seed) % (uint32_t) ph);
  int gx = (int) (gcv_test_rand (&seed) % (2u * max_shift + 1)) - max_shift;
  int gy = (int) (gcv_test_rand (&seed) % (2u * max_shift + 1)) - max_shift;

  /* a global motion, locally disturbed: as a camera pan with objects */
  for (y = 0; y < tiles_x * tiles_y; y++) {
    sx[y] = gx + (int) (gcv_test_rand (&seed) % 3) - 1;
    sy[y] = gy + (int) (gcv_test_rand (&seed) % 3) - 1;
  }
  *prev = plane_new (w, h, pad);
  *cur = plane_new (w, h, pad);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int t = (y / 8) * tiles_x + x / 8;
      int px = ((ox + x) % pw + pw) % pw, py = ((oy + y) % ph + ph) % ph;
      int qx = ((ox + x + sx[t]) % pw + pw) % pw, qy = ((oy + y + sy[t]) % ph + ph) % ph;
      int n = noise ? (int) (gcv_test_rand (&seed) % (2u * noise + 1)) - noise : 0;
      int v = photo[(size_t) qy * pw + qx] + n;
      ((uint8_t *) prev->data)[(size_t) y * prev->stride + x] = photo[(size_t) py * pw + px];
      ((uint8_t *) cur->data)[(size_t) y * cur->stride + x] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
  fill_garbage (prev, pad, seed + 1);
  fill_garbage (cur, pad, seed + 2);
  free (sx);
  free (sy);
}

uint8_t *
motion_test_photo_luma (int i, int *width, int *height)
{
  char err[256], rel[128];
  char *path;
  GcvTestImage img;
  uint8_t *luma;

  snprintf (rel, sizeof (rel), "data/%s", gcv_test_photos[i]);
  path = gcv_test_path (rel);
  if (gcv_test_load_png (path, &img, err, sizeof (err)) != 0) {
    fprintf (stderr, "%s\n", err);
    exit (1);
  }
  free (path);
  luma = gcv_test_image_luma (&img);
  *width = img.width;
  *height = img.height;
  gcv_test_image_clear (&img);
  return luma;
}
