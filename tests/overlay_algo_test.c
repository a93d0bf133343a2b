/* gst-cuda-video: algorithm tests of the overlay painter's CPU side
 * (cpu/overlay.c), no GStreamer, no GPU.
 *
 *  1. the blend on literal numbers: 8- and 16-bit samples, 16-bit ones
 *     rounded to P010's 10-bit codes too, alpha 0, 1, 128, 254, 255, the
 *     rounding at both ends;
 *  2. coverage on a 3x5 mask with one marked pixel at each place, shifts 1/1
 *     and 0/0: exactly the sample that covers it is painted; a mark whose
 *     bits miss mask_bits (or mask_bits 0) paints nothing;
 *  3. gcv_overlay_component_bits against the independent reference below on
 *     every case of overlay_params_all (odd and even masks, 1x1 to 641x481,
 *     component sizes ceil / floor / past the mask, shifts, pixel strides 1
 *     to 8, 8 and 16 bits, 6 low bits zero or not, alpha, mask bits; random
 *     frames with the
 *     component inside larger interleaved rows, padded strides), compared on
 *     the whole frame buffer; and gcv_overlay_component equal to _bits with
 *     mask_bits 0xff.
 *  4. gcv_overlay_count on masks with a known number of marked pixels
 *     (count_params: 1x1 to 1920x1080, padded rows of 0xff that must not
 *     count, one bit of a layered mask or all).
 * overlay_cuda_test.c checks the CUDA twins against these.
 *
 * Exit status 0 when everything passes, 1 otherwise.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlay_common.h"

/* ---- the reference ------------------------------------------------------------ */

/* (alpha * value + (255 - alpha) * in) / 255 rounded half up, the rounding
 * spelled out: quotient, plus one when the remainder is 128 or more. */
static uint32_t
ref_blend (uint32_t in, uint32_t value, uint32_t alpha)
{
  uint32_t num = alpha * value + (255 - alpha) * in;

  return num / 255 + (num % 255 >= 128 ? 1 : 0);
}

/* v to the nearest multiple of 2^low_bits, ties up, at most the largest
 * such multiple below 65536 (P010: 65472) */
static uint32_t
ref_round_low_bits (uint32_t v, int low_bits)
{
  uint32_t step = 1u << low_bits, r = (v + step / 2) / step * step;

  return low_bits == 0 ? v : r > 65535 ? 65536 - step : r;
}

/* Paints c's component in `frame` (a copy of c->frame, same stride): walks
 * the mask, not the component, marking the sample each selected mask pixel
 * falls in (mx >> x_shift, my >> y_shift), then blends every marked sample.
 * Alpha 0 paints nothing, as the contract says (the blend gives the input
 * back, but the rounding to P010's codes would not). */
static void
ref_paint (const OverlayCase * c, uint8_t * frame)
{
  const OverlayParams *p = &c->p;
  uint8_t *hit = calloc ((size_t) p->comp_w * p->comp_h + 1, 1);

  for (int my = 0; my < p->mask_h; my++)
    for (int mx = 0; mx < p->mask_w; mx++) {
      int cx = mx >> p->x_shift, cy = my >> p->y_shift;
      if ((((const uint8_t *) c->mask.data)[(size_t) my * c->mask.stride + mx] & p->mask_bits)
          && cx < p->comp_w && cy < p->comp_h)
        hit[(size_t) cy * p->comp_w + cx] = 1;
    }
  for (int cy = 0; cy < p->comp_h; cy++)
    for (int cx = 0; cx < p->comp_w; cx++) {
      uint8_t *s = frame + c->lead + c->offset + (size_t) cy * c->frame.stride + (size_t) cx * p->pixel_stride;
      if (!hit[(size_t) cy * p->comp_w + cx])
        continue;
      if (p->depth16) {
        uint32_t o = ref_blend (s[0] + 256u * s[1], c->value * 0x101u, p->alpha);
        if (p->alpha != 0)
          o = ref_round_low_bits (o, p->low_bits);
        s[0] = (uint8_t) (o % 256);
        s[1] = (uint8_t) (o / 256);
      } else {
        s[0] = (uint8_t) ref_blend (s[0], c->value, p->alpha);
      }
    }
  free (hit);
}

/* ---- 1. the blend on literal numbers ----------------------------------------- */

static void
test_blend_literals (void)
{
  static const struct {
    int depth16, low_bits;
    uint32_t in;
    uint8_t value, alpha;
    uint32_t expect;
  } t[] = {
    { 0, 0, 100, 200, 128, 150 }, { 0, 0, 0, 255, 1, 1 }, { 0, 0, 255, 0, 1, 254 },
    { 0, 0, 200, 100, 254, 100 }, { 0, 0, 77, 33, 0, 77 }, { 0, 0, 9, 240, 255, 240 },
    { 1, 0, 0x1234, 0x80, 1, 0x12a3 }, { 1, 0, 0, 0xab, 255, 0xabab }, { 1, 0, 0xffff, 0, 128, 0x7f7f },
    { 1, 0, 0xbeef, 9, 0, 0xbeef },
    /* P010: the blend rounded to the nearest 10-bit code, ties up; white
     * saturates at 1023 << 6 */
    { 1, 6, 0x1234, 0x80, 1, 0x12c0 }, { 1, 6, 0, 0xab, 255, 0xabc0 }, { 1, 6, 0xffff, 0, 128, 0x7f80 },
    { 1, 6, 0, 0xff, 255, 0xffc0 }, { 1, 6, 0x0fc0, 0x10, 128, 0x1000 },
  };
  uint8_t mark = 0xff;
  GcvPlane mask = { &mark, 1, 1, 1 };

  for (size_t i = 0; i < sizeof (t) / sizeof (t[0]); i++) {
    /* a 1x1 component in the middle of a 4-byte pixel */
    uint8_t px[4] = { 0x5a, (uint8_t) (t[i].in & 0xff), (uint8_t) (t[i].in >> 8), 0xa5 };
    GcvComponent comp = { px + 1, 4, 4, 1, 1, 0, 0, t[i].depth16, t[i].low_bits };
    uint32_t got, ref;

    if (!t[i].depth16)
      px[2] = 0x3c;
    gcv_overlay_component (&comp, &mask, t[i].value, t[i].alpha);
    got = t[i].depth16 ? px[1] | ((uint32_t) px[2] << 8) : px[1];
    ref = ref_round_low_bits (ref_blend (t[i].in, t[i].depth16 ? t[i].value * 257u : t[i].value, t[i].alpha),
        t[i].low_bits);
    GCV_TEST_CHECK (got == t[i].expect && ref == t[i].expect, "blend %d-bit (%d low bits zero) in %u value %u "
        "alpha %u: got %u, reference %u, expected %u", t[i].depth16 ? 16 : 8, t[i].low_bits, t[i].in,
        t[i].value, t[i].alpha, got, ref, t[i].expect);
    GCV_TEST_CHECK (px[0] == 0x5a && px[3] == 0xa5 && (t[i].depth16 || px[2] == 0x3c),
        "blend %d-bit in %u: a byte beside the sample changed", t[i].depth16 ? 16 : 8, t[i].in);
  }
}

/* ---- 2. coverage, one marked pixel at a time ------------------------------- */

static void
test_single_marks (void)
{
  enum { MW = 3, MH = 5 };
  uint8_t mask_px[MH][MW], frame[3][2];
  GcvPlane mask = { mask_px, MW, MH, MW };

  for (int sh = 0; sh <= 1; sh++)
    for (int my = 0; my < MH; my++)
      for (int mx = 0; mx < MW; mx++) {
        /* shift 1: the ceil-sized 2x3 component; shift 0: its top-left 2x3 */
        GcvComponent comp = { &frame[0][0], 2, 1, 2, 3, sh, sh, 0 };
        int cx = mx >> sh, cy = my >> sh;
        memset (mask_px, 0, sizeof (mask_px));
        mask_px[my][mx] = 0x02;
        memset (frame, 10, sizeof (frame));
        gcv_overlay_component_bits (&comp, &mask, 0x01, 200, 255);
        gcv_overlay_component_bits (&comp, &mask, 0x00, 200, 255);
        for (int y = 0; y < 3; y++)
          for (int x = 0; x < 2; x++)
            GCV_TEST_CHECK (frame[y][x] == 10, "shift %d, mark 0x02 at (%d, %d), mask bits 0x01 / 0x00: "
                "sample (%d, %d) painted", sh, mx, my, x, y);
        gcv_overlay_component_bits (&comp, &mask, 0x02, 200, 255);
        for (int y = 0; y < 3; y++)
          for (int x = 0; x < 2; x++) {
            int want = x == cx && y == cy ? 200 : 10;
            GCV_TEST_CHECK (frame[y][x] == want, "shift %d, mark at (%d, %d): sample (%d, %d) is %d, "
                "expected %d", sh, mx, my, x, y, frame[y][x], want);
          }
      }
}

/* ---- 3. every case against the reference --------------------------------------- */

static void
test_cases (void)
{
  int n, changed = 0, painting = 0;
  OverlayParams *all = overlay_params_all (&n);

  for (int i = 0; i < n; i++) {
    OverlayCase c;
    overlay_case_make (&all[i], (uint32_t) i, &c);
    size_t bytes = c.frame.stride * c.frame.height;
    uint8_t *want = gcv_test_malloc (bytes), *got = gcv_test_malloc (bytes);
    GcvComponent comp = c.comp;

    memcpy (want, c.frame.data, bytes);
    ref_paint (&c, want);
    memcpy (got, c.frame.data, bytes);
    comp.data = got + c.lead + c.offset;
    gcv_overlay_component_bits (&comp, &c.mask, c.p.mask_bits, c.value, c.p.alpha);
    overlay_compare (&c, "gcv_overlay_component_bits vs reference", got, c.frame.stride, want,
        c.frame.stride, c.frame.stride, c.frame.height);
    if (c.p.mask_bits == 0xff) {
      memcpy (got, c.frame.data, bytes);
      gcv_overlay_component (&comp, &c.mask, c.value, c.p.alpha);
      overlay_compare (&c, "gcv_overlay_component vs reference", got, c.frame.stride, want,
          c.frame.stride, c.frame.stride, c.frame.height);
    }
    painting += c.p.alpha != 0 && c.p.comp_w > 0 && c.p.comp_h > 0;
    changed += memcmp (want, c.frame.data, bytes) != 0;
    free (want);
    free (got);
    overlay_case_free (&c);
  }
  /* not vacuous: most paintings change bytes (alpha 1 or a value equal to
   * the sample may change none) */
  GCV_TEST_CHECK (changed > painting / 2, "only %d of %d cases with alpha > 0 changed the frame", changed,
      painting);
  printf ("cases: %d (%d with alpha > 0 and samples, %d changed the frame)\n", n, painting, changed);
  free (all);
}

/* ---- 4. counting marked pixels ------------------------------------------------- */

static void
test_count (void)
{
  for (int i = 0; i < n_count_params; i++) {
    GcvPlane mask;
    uint64_t want = count_mask_make (&count_params[i], (uint32_t) i, &mask), got;

    got = gcv_overlay_count (&mask, count_params[i].bits);
    GCV_TEST_CHECK (got == want, "count of a %dx%d mask (pad %zu, bits 0x%02x): %llu, %llu marked",
        mask.width, mask.height, count_params[i].pad, count_params[i].bits, (unsigned long long) got,
        (unsigned long long) want);
    GCV_TEST_CHECK (gcv_overlay_count (&mask, 0) == 0, "bits 0 must count nothing");
    GCV_TEST_CHECK (want > 0 || mask.width * mask.height < 3, "%dx%d: no pixel marked", mask.width,
        mask.height);
    free (mask.data);
  }
}

int
main (void)
{
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  test_blend_literals ();
  test_single_marks ();
  test_cases ();
  test_count ();
  return gcv_test_summary (t0);
}
