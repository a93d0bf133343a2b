/* gst-cuda-video: the overlay tests' cases, frames and masks
 * (overlay_common.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "overlay_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int mask_sizes[][2] = { { 1, 1 }, { 3, 5 }, { 6, 4 }, { 641, 481 } };
static const int pixel_strides[] = { 1, 2, 3, 4, 8 };
static const uint8_t alphas[] = { 0, 1, 128, 255 };
static const uint8_t bit_sets[] = { 0xff, 0x01, 0x02 };

/* The component sizes of one mask dimension: ceil, floor, ceil + 1 (small
 * masks), without repeats.  Returns how many. */
static int
comp_sizes (int mask_size, int shift, int small, int *out)
{
  int cand[3] = { (mask_size + (1 << shift) - 1) >> shift, mask_size >> shift, 0 }, n = 0;

  cand[2] = cand[0] + 1;
  for (int i = 0; i < (small ? 3 : 2); i++) {
    int seen = 0;
    for (int j = 0; j < n; j++)
      seen |= out[j] == cand[i];
    if (!seen)
      out[n++] = cand[i];
  }
  return n;
}

OverlayParams *
overlay_params_all (int *n)
{
  OverlayParams *all = NULL;
  int count = 0, cap = 0;

  for (size_t m = 0; m < sizeof (mask_sizes) / sizeof (mask_sizes[0]); m++)
    for (int ys = 0; ys <= 1; ys++)
      for (int xs = 0; xs <= 1; xs++) {
        int mw = mask_sizes[m][0], mh = mask_sizes[m][1], small = mw * mh < 100;
        int cws[3], chs[3], ncw = comp_sizes (mw, xs, small, cws), nch = comp_sizes (mh, ys, small, chs);
        /* ceil x ceil, each other size of one dimension with the other's
         * ceil, and the two second sizes together (floor x floor where both
         * differ from ceil): every size of each dimension, not every pair */
        int pairs[6][2], np = 0;
        pairs[np][0] = cws[0];
        pairs[np++][1] = chs[0];
        for (int i = 1; i < ncw; i++) {
          pairs[np][0] = cws[i];
          pairs[np++][1] = chs[0];
        }
        for (int i = 1; i < nch; i++) {
          pairs[np][0] = cws[0];
          pairs[np++][1] = chs[i];
        }
        if (ncw > 1 && nch > 1) {
          pairs[np][0] = cws[1];
          pairs[np++][1] = chs[1];
        }
        /* depth 0: 8 bits; 1: 16 (GRAY16); 2: 16 keeping 6 low bits zero (P010) */
        for (int s = 0; s < np; s++)
          for (int depth = 0; depth <= 2; depth++)
            for (size_t ps = 0; ps < sizeof (pixel_strides) / sizeof (pixel_strides[0]); ps++)
              for (size_t a = 0; a < sizeof (alphas); a++)
                for (size_t b = 0; b < sizeof (bit_sets); b++) {
                  int d16 = depth > 0;
                  OverlayParams p = { mw, mh, pairs[s][0], pairs[s][1], pixel_strides[ps], xs, ys, d16,
                    depth == 2 ? 6 : 0, alphas[a], bit_sets[b]
                  };
                  if (d16 && p.pixel_stride < 2)
                    continue;
                  if (count == cap) {
                    cap = cap ? 2 * cap : 1024;
                    all = realloc (all, sizeof (*all) * cap);
                    if (all == NULL) {
                      fprintf (stderr, "FAIL: out of memory for the case list\n");
                      exit (1);
                    }
                  }
                  all[count++] = p;
                }
      }
  *n = count;
  return all;
}

void
overlay_case_make (const OverlayParams * p, uint32_t seed, OverlayCase * c)
{
  static const size_t leads[] = { 0, 1, 5, 16 }, tails[] = { 0, 1, 3, 7 }, pads[] = { 0, 1, 13, 64 };
  static const size_t mask_pads[] = { 0, 3, 32 };
  static const uint8_t marks[] = { 0x01, 0x02, 0x03, 0x04, 0x80, 0xfc, 0xfd, 0xfe, 0xff };
  static const uint32_t densities[] = { 4, 32, 128, 256 };    /* of 256 */
  uint32_t st = seed * 2654435761u + 0x6d2b79f5u;
  int sample_bytes = p->depth16 ? 2 : 1, have1 = 0, have2 = 0;
  size_t mask_stride;
  uint32_t density;

  memset (c, 0, sizeof (*c));
  c->p = *p;
  c->lead = leads[gcv_test_rand (&st) % 4];
  c->offset = (int) (gcv_test_rand (&st) % (uint32_t) (p->pixel_stride - sample_bytes + 1));
  c->frame.width = (int) (c->lead + (size_t) p->comp_w * p->pixel_stride + tails[gcv_test_rand (&st) % 4]);
  c->frame.height = p->comp_h + (int) (gcv_test_rand (&st) & 1);
  if (c->frame.width == 0)      /* an empty component: a byte that must stay as it is */
    c->frame.width = 1;
  if (c->frame.height == 0)
    c->frame.height = 1;
  c->frame.stride = (size_t) c->frame.width + pads[gcv_test_rand (&st) % 4];
  c->frame.data = gcv_test_malloc (c->frame.stride * c->frame.height);
  for (size_t i = 0; i < c->frame.stride * c->frame.height; i++)
    ((uint8_t *) c->frame.data)[i] = (uint8_t) (gcv_test_rand (&st) >> 24);

  c->comp.data = (uint8_t *) c->frame.data + c->lead + c->offset;
  c->comp.stride = c->frame.stride;
  c->comp.pixel_stride = p->pixel_stride;
  c->comp.width = p->comp_w;
  c->comp.height = p->comp_h;
  c->comp.x_shift = p->x_shift;
  c->comp.y_shift = p->y_shift;
  c->comp.depth16 = p->depth16;
  c->comp.low_bits = p->low_bits;

  mask_stride = (size_t) p->mask_w + mask_pads[gcv_test_rand (&st) % 3];
  c->mask.width = p->mask_w;
  c->mask.height = p->mask_h;
  c->mask.stride = mask_stride;
  c->mask.data = gcv_test_malloc (mask_stride * p->mask_h);
  memset (c->mask.data, 0xff, mask_stride * p->mask_h);
  density = densities[gcv_test_rand (&st) % 4];
  for (int y = 0; y < p->mask_h; y++)
    for (int x = 0; x < p->mask_w; x++) {
      uint8_t m = 0;
      if ((gcv_test_rand (&st) >> 24) < density)
        m = marks[gcv_test_rand (&st) % sizeof (marks)];
      ((uint8_t *) c->mask.data)[(size_t) y * mask_stride + x] = m;
      have1 |= m & 1;
      have2 |= m & 2;
    }
  if (!have1)
    ((uint8_t *) c->mask.data)[(size_t) (gcv_test_rand (&st) % p->mask_h) * mask_stride
        + gcv_test_rand (&st) % p->mask_w] |= 0x01;
  if (!have2)
    ((uint8_t *) c->mask.data)[(size_t) (gcv_test_rand (&st) % p->mask_h) * mask_stride
        + gcv_test_rand (&st) % p->mask_w] |= 0x02;
  c->value = (uint8_t) (gcv_test_rand (&st) >> 24);

  snprintf (c->name, sizeof (c->name), "mask %dx%d (stride %zu, density %u/256), component %dx%d, "
      "shifts %d/%d, %d-bit (%d low bits zero), pixel stride %d, byte %d, row %d bytes from byte %zu "
      "(stride %zu, %d rows), value %d, alpha %d, mask bits 0x%02x", p->mask_w, p->mask_h, mask_stride,
      density, p->comp_w, p->comp_h, p->x_shift, p->y_shift, p->depth16 ? 16 : 8, p->low_bits,
      p->pixel_stride, c->offset, c->frame.width, c->lead, c->frame.stride, c->frame.height, c->value,
      p->alpha, p->mask_bits);
}

void
overlay_case_free (OverlayCase * c)
{
  free (c->frame.data);
  free (c->mask.data);
  c->frame.data = c->mask.data = NULL;
}

long
overlay_compare (const OverlayCase * c, const char *what, const uint8_t * got, size_t got_stride,
    const uint8_t * want, size_t want_stride, size_t row_bytes, int rows)
{
  int fx, fy;
  long n;
  char where[96];

  gcv_test_checks++;
  n = gcv_test_compare_u8 (got, got_stride, want, want_stride, (int) row_bytes, rows, &fx, &fy);
  if (n == 0)
    return 0;
  {
    long rel = (long) fx - (long) c->lead - c->offset;
    int sample_bytes = c->p.depth16 ? 2 : 1;
    if (fy < c->p.comp_h && rel >= 0 && rel < (long) c->p.comp_w * c->p.pixel_stride
        && rel % c->p.pixel_stride < sample_bytes)
      snprintf (where, sizeof (where), "sample (x=%ld, y=%d), byte %ld", rel / c->p.pixel_stride, fy,
          rel % c->p.pixel_stride);
    else
      snprintf (where, sizeof (where), "not a byte of the component");
  }
  gcv_test_fail ("%s: %s: %ld bytes differ; first at row %d, byte %d (%s): got %d, expected %d", what,
      c->name, n, fy, fx, where, got[(size_t) fy * got_stride + fx], want[(size_t) fy * want_stride + fx]);
  return n;
}

/* 1x1, sizes that are not multiples of a warp or a block, a frame of
 * several thousand blocks; padded and packed rows; all bits, one bit of a
 * layered mask, 255 (an edge map) */
const CountParams count_params[] = {
  { 1, 1, 0, 0xff }, { 1, 1, 3, 0x01 }, { 3, 5, 1, 0x02 }, { 33, 9, 0, 0xff }, { 31, 17, 7, 0x01 },
  { 641, 481, 13, 0xff }, { 640, 480, 0, 0x02 }, { 1920, 1080, 64, 0xff }, { 4, 70000, 0, 0xff },
};
const int n_count_params = (int) (sizeof (count_params) / sizeof (count_params[0]));

uint64_t
count_mask_make (const CountParams * p, uint32_t seed, GcvPlane * mask)
{
  size_t stride = (size_t) p->w + p->pad, n = (size_t) p->w * p->h, i;
  uint32_t state = seed * 2654435761u + 1;
  uint8_t *data = gcv_test_malloc (stride * p->h);
  uint64_t marked = 0;

  memset (data, 0xff, stride * p->h);
  for (i = 0; i < n; i++)
    data[(i / p->w) * stride + i % p->w] = (uint8_t) ((gcv_test_rand (&state) >> 24) & ~p->bits);
  /* about a third marked, at random places (a place drawn twice counts once) */
  for (i = 0; i < n / 3 + 1; i++) {
    size_t k = gcv_test_rand (&state) % n;
    uint8_t *m = &data[(k / p->w) * stride + k % p->w];
    if ((*m & p->bits) == 0) {
      /* one of the bits, or all of them, and random others */
      uint8_t bit = (uint8_t) (p->bits & (0x01u << ((gcv_test_rand (&state) >> 24) % 8)));
      *m |= bit ? bit : p->bits;
      marked++;
    }
  }
  mask->data = data;
  mask->width = p->w;
  mask->height = p->h;
  mask->stride = stride;
  return marked;
}
