/* gst-cuda-video: the 16-bit sample tests' cases and planes
 * (depth_common.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "depth_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[][2] = {
  { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 1 }, { 1, 3 }, { 33, 17 }, { 111, 30 }, { 641, 481 }, { 1920, 1080 },
};
static const size_t pads[] = { 0, 1, 7, 64 };
static const int low_bits[] = { 6, 0, 1, 15 };

DepthCase *
depth_cases (int *n)
{
  int ns = (int) (sizeof (sizes) / sizeof (sizes[0])), count = 0;
  DepthCase *all = gcv_test_malloc (sizeof (*all) * ns * 8);

  /* GCV_TEST_QUICK (memcheck): 641x481 is the largest */
  if (gcv_test_env_flag ("GCV_TEST_QUICK"))
    ns--;

  for (int s = 0; s < ns; s++)
    for (int k = 0; k < 8; k++) {
      DepthCase *c = &all[count++];
      c->width = sizes[s][0];
      c->height = sizes[s][1];
      c->channels = 1 + (k & 1);
      c->pad = pads[(k + s) % 4];
      c->out_pad = pads[(k / 2 + s) % 4];
      c->low_bits = low_bits[k / 2];
      c->decoder = (k + s) % 3 == 0;
    }
  *n = count;
  return all;
}

const char *
depth_case_name (const DepthCase * c, char *buf, size_t len)
{
  snprintf (buf, len, "%dx%d x%d, pad %zu/%zu, %d low bits%s", c->width, c->height, c->channels, c->pad,
      c->out_pad, c->low_bits, c->decoder ? " (decoder samples)" : "");
  return buf;
}

GcvPlane
depth_plane16 (const DepthCase * c, uint32_t seed)
{
  GcvPlane p;
  uint32_t st = seed * 2654435761u + 0x9e3779b9u;
  size_t bytes;

  p.width = c->width;
  p.height = c->height;
  p.stride = (size_t) c->width * c->channels * 2 + c->pad;
  bytes = p.stride * (c->height ? c->height : 1);
  p.data = gcv_test_malloc (bytes);
  for (size_t i = 0; i < bytes; i++)
    ((uint8_t *) p.data)[i] = (uint8_t) (gcv_test_rand (&st) >> 24);
  for (int y = 0; y < c->height; y++)
    for (int i = 0; i < c->width * c->channels; i++) {
      uint8_t *s = (uint8_t *) p.data + (size_t) y * p.stride + 2 * (size_t) i;
      uint32_t v = gcv_test_rand (&st) >> 16;
      /* the ends of the range now and then: 0, 65535, the largest P010 code */
      switch (gcv_test_rand (&st) % 64) {
        case 0:
          v = 0;
          break;
        case 1:
          v = 65535;
          break;
        case 2:
          v = 65472;
          break;
        default:
          break;
      }
      if (c->decoder)
        v &= 0xffc0;
      s[0] = (uint8_t) (v & 0xff);
      s[1] = (uint8_t) (v >> 8);
    }
  return p;
}

GcvPlane
depth_plane8 (const DepthCase * c)
{
  GcvPlane p;
  size_t bytes;

  p.width = c->width;
  p.height = c->height;
  p.stride = (size_t) c->width + c->out_pad;
  bytes = p.stride * (c->height ? c->height : 1);
  p.data = gcv_test_malloc (bytes ? bytes : 1);
  memset (p.data, 0xa5, bytes ? bytes : 1);
  return p;
}

uint8_t
depth_ref_luma8 (uint32_t v)
{
  return (uint8_t) floor (v / 257.0 + 0.5);
}

uint32_t
depth_ref_round (uint32_t v, int lb)
{
  double step = ldexp (1.0, lb), r = floor (v / step + 0.5) * step;

  while (r > 65535.0)
    r -= step;
  return (uint32_t) r;
}

uint8_t *
depth_expect_luma8 (const GcvPlane * in, const GcvPlane * out)
{
  size_t bytes = out->stride * (out->height ? out->height : 1);
  uint8_t *e = gcv_test_malloc (bytes ? bytes : 1);

  memcpy (e, out->data, bytes ? bytes : 1);
  for (int y = 0; y < in->height; y++)
    for (int x = 0; x < in->width; x++) {
      const uint8_t *s = (const uint8_t *) in->data + (size_t) y * in->stride + 2 * (size_t) x;
      e[(size_t) y * out->stride + x] = depth_ref_luma8 (s[0] + 256u * s[1]);
    }
  return e;
}

uint8_t *
depth_expect_round (const DepthCase * c, const GcvPlane * in)
{
  size_t bytes = in->stride * (in->height ? in->height : 1);
  uint8_t *e = gcv_test_malloc (bytes);

  memcpy (e, in->data, bytes);
  for (int y = 0; y < in->height; y++)
    for (int i = 0; i < in->width * c->channels; i++) {
      uint8_t *s = e + (size_t) y * in->stride + 2 * (size_t) i;
      uint32_t v = depth_ref_round (s[0] + 256u * s[1], c->low_bits);
      s[0] = (uint8_t) (v % 256);
      s[1] = (uint8_t) (v / 256);
    }
  return e;
}

long
depth_compare (const char *what, const DepthCase * c, const uint8_t * got, size_t got_stride,
    const uint8_t * want, size_t want_stride, size_t row_bytes, int rows)
{
  char name[128];
  int fx, fy;
  long n;

  gcv_test_checks++;
  if (rows == 0 || row_bytes == 0)
    return 0;
  n = gcv_test_compare_u8 (got, got_stride, want, want_stride, (int) row_bytes, rows, &fx, &fy);
  if (n > 0)
    gcv_test_fail ("%s: %s: %ld bytes differ; first at row %d, byte %d: got 0x%02x, expected 0x%02x", what,
        depth_case_name (c, name, sizeof (name)), n, fy, fx, got[(size_t) fy * got_stride + fx],
        want[(size_t) fy * want_stride + fx]);
  return n;
}
