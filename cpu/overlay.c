/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "overlay.h"

#include <math.h>
#include <stdlib.h>

void
gcv_overlay_component_bits (const GcvComponent * c, const GcvPlane * mask, uint8_t mask_bits, uint8_t value,
    uint8_t alpha)
{
  int x, y;

  if (alpha == 0 || mask_bits == 0)
    return;
  for (y = 0; y < c->height; y++) {
    uint8_t *row = c->data + (size_t) y * c->stride;
    for (x = 0; x < c->width; x++)
      if (gcv_overlay_covered ((const uint8_t *) mask->data, mask->stride, mask->width, mask->height, x, y,
              c->x_shift, c->y_shift, mask_bits))
        gcv_overlay_blend (row + (size_t) x * c->pixel_stride, c->depth16, c->low_bits, value, alpha);
  }
}

void
gcv_overlay_component (const GcvComponent * c, const GcvPlane * mask, uint8_t value, uint8_t alpha)
{
  gcv_overlay_component_bits (c, mask, 0xff, value, alpha);
}

void
gcv_argb_to_ycbcr601 (uint32_t argb, uint8_t * y, uint8_t * cb, uint8_t * cr)
{
  int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  *y = (uint8_t) (((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
  *cb = (uint8_t) (((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
  *cr = (uint8_t) (((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
}

uint8_t
gcv_argb_to_luma (uint32_t argb)
{
  int r = (argb >> 16) & 0xff, g = (argb >> 8) & 0xff, b = argb & 0xff;

  return (uint8_t) ((9798 * r + 19235 * g + 3735 * b + 16384) >> 15);
}

static void
mask_line (GcvPlane * mask, int x0, int y0, int x1, int y1)
{
  int dx = abs (x1 - x0), dy = -abs (y1 - y0);
  int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;

  for (;;) {
    if (x0 >= 0 && y0 >= 0 && x0 < mask->width && y0 < mask->height)
      ((uint8_t *) mask->data)[(size_t) y0 * mask->stride + x0] = 255;
    int e2 = 2 * e;             /* both tests see the error before either step */
    if (x0 == x1 && y0 == y1)
      break;
    if (e2 >= dy) {
      e += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y0 += sy;
    }
  }
}

uint64_t
gcv_overlay_count (const GcvPlane * mask, uint8_t bits)
{
  uint64_t n = 0;
  int x, y;

  for (y = 0; y < mask->height; y++) {
    const uint8_t *row = (const uint8_t *) mask->data + (size_t) y * mask->stride;
    for (x = 0; x < mask->width; x++)
      n += (row[x] & bits) != 0;
  }
  return n;
}

void
gcv_overlay_arrow (GcvPlane * mask, int x0, int y0, int x1, int y1)
{
  double len = hypot (x1 - x0, y1 - y0), head, ux, uy;
  int k;

  mask_line (mask, x0, y0, x1, y1);
  if (len < 2.0)
    return;
  head = len / 3.0 < 2.0 ? 2.0 : len / 3.0 > 8.0 ? 8.0 : len / 3.0;
  ux = (x0 - x1) / len;
  uy = (y0 - y1) / len;
  for (k = -1; k <= 1; k += 2) {
    /* the back-pointing unit vector turned by +-30 degrees */
    double c = 0.8660254037844386, s = 0.5 * k;
    double hx = ux * c - uy * s, hy = ux * s + uy * c;
    mask_line (mask, x1, y1, x1 + (int) lround (head * hx), y1 + (int) lround (head * hy));
  }
}
