/* gst-cuda-video: algorithm tests of the 16-bit sample helpers on the host
 * (cpu/depth.c: the 8-bit luma of P010 / GRAY16 words for the elements that
 * work on 8-bit luma, and the rounding of computed words to P010's 10-bit
 * codes), no GStreamer, no GPU.
 *
 *  1. the per-sample rules on every 16-bit value (and every low_bits 0 ..
 *     15) against the references of depth_common.c, written apart: the
 *     nearest integer to v / 257, the nearest multiple of 2^low_bits;
 *     and what they promise for P010: an 8-bit value stored as its 10-bit
 *     replica reads back as itself, every 10-bit code read is the nearest
 *     8-bit value to code * 255 / 1023 within one level, rounding keeps
 *     codes and is idempotent;
 *  2. gcv_luma8_cpu and gcv_round_low_bits_cpu on every case of
 *     depth_cases (empty to 1920x1080, 1 and 2 channels, odd strides, low
 *     bits 0, 1, 6, 15, random and decoder-like samples) with 1, 3 and all
 *     threads, compared on whole buffers (the padding must survive);
 *  3. the refused arguments.
 * depth_cuda_test.c checks the CUDA twins against these.
 *
 * Exit status 0 when everything passes, 1 otherwise.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depth_common.h"

/* ---- 1. the rules --------------------------------------------------------------- */

static void
test_rules (void)
{
  long bad_luma = 0, bad_round = 0;

  for (uint32_t v = 0; v <= 65535; v++) {
    bad_luma += gcv_luma16_to_8 (v) != depth_ref_luma8 (v);
    for (int lb = 0; lb <= GCV_DEPTH_MAX_LOW_BITS; lb++) {
      uint32_t r = gcv_round_low_bits (v, lb);
      bad_round += r != depth_ref_round (v, lb) || gcv_round_low_bits (r, lb) != r;
    }
  }
  GCV_TEST_CHECK (bad_luma == 0, "gcv_luma16_to_8 differs from round (v / 257) on %ld values", bad_luma);
  GCV_TEST_CHECK (bad_round == 0, "gcv_round_low_bits differs from the reference (or is not idempotent) on "
      "%ld value x low-bits pairs", bad_round);

  for (uint32_t b = 0; b < 256; b++) {
    uint32_t code = (b * 257) >> 6;
    GCV_TEST_CHECK (gcv_luma16_to_8 (code << 6) == b, "the 10-bit replica %u of %u reads back as %u", code, b,
        gcv_luma16_to_8 (code << 6));
  }
  for (uint32_t code = 0; code < 1024; code++) {
    double exact = code * 255.0 / 1023.0;
    uint32_t got = gcv_luma16_to_8 (code << 6);
    GCV_TEST_CHECK (fabs (got - exact) < 1.0, "10-bit code %u reads as %u, %.3f on the 8-bit scale", code, got,
        exact);
    GCV_TEST_CHECK (gcv_round_low_bits (code << 6, 6) == code << 6, "P010 code %u is not kept", code);
  }
  GCV_TEST_CHECK (gcv_round_low_bits (65535, 6) == 65472 && gcv_round_low_bits (31, 6) == 0
      && gcv_round_low_bits (32, 6) == 64 && gcv_round_low_bits (0x12a3, 6) == 0x12c0,
      "P010 rounding of 65535, 31, 32, 0x12a3: %u %u %u 0x%x", gcv_round_low_bits (65535, 6),
      gcv_round_low_bits (31, 6), gcv_round_low_bits (32, 6), gcv_round_low_bits (0x12a3, 6));
}

/* ---- 2. planes -------------------------------------------------------------------- */

static void
test_planes (void)
{
  static const int threads[] = { 1, 3, 0 };
  int n;
  DepthCase *all = depth_cases (&n);

  for (int i = 0; i < n; i++) {
    const DepthCase *c = &all[i];
    GcvPlane in = depth_plane16 (c, (uint32_t) i);
    size_t in_bytes = in.stride * (c->height ? c->height : 1);
    uint8_t *want_round = depth_expect_round (c, &in), *work = gcv_test_malloc (in_bytes);
    GcvError err;

    for (size_t t = 0; t < sizeof (threads) / sizeof (threads[0]); t++) {
      GcvPlane plane = in;
      char what[64];

      memset (&err, 0, sizeof (err));
      if (c->channels == 1) {
        GcvPlane out = depth_plane8 (c);
        uint8_t *want = depth_expect_luma8 (&in, &out);
        snprintf (what, sizeof (what), "gcv_luma8_cpu, %d threads", threads[t]);
        GCV_TEST_CHECK (gcv_luma8_cpu (&in, &out, threads[t], &err) == GCV_OK, "%s: %s", what, err.message);
        depth_compare (what, c, out.data, out.stride, want, out.stride, out.stride, c->height);
        free (want);
        free (out.data);
      }
      memcpy (work, in.data, in_bytes);
      plane.data = work;
      snprintf (what, sizeof (what), "gcv_round_low_bits_cpu, %d threads", threads[t]);
      GCV_TEST_CHECK (gcv_round_low_bits_cpu (&plane, c->channels, c->low_bits, threads[t], &err) == GCV_OK,
          "%s: %s", what, err.message);
      depth_compare (what, c, work, in.stride, want_round, in.stride, in.stride, c->height);
    }
    free (work);
    free (want_round);
    free (in.data);
  }
  printf ("plane cases: %d\n", n);
  free (all);
}

/* ---- 3. refused arguments ----------------------------------------------------------- */

static void
test_arguments (void)
{
  uint8_t buf[64];
  GcvPlane in = { buf, 4, 2, 8 }, out = { buf, 4, 2, 4 };
  const struct {
    GcvPlane in, out;
    const char *what;
  } luma[] = {
    { { buf, -1, 2, 8 }, { buf, 4, 2, 4 }, "negative width" },
    { { buf, 4, 2, 8 }, { buf, 3, 2, 4 }, "output narrower than the input" },
    { { buf, 4, 2, 8 }, { buf, 4, 1, 4 }, "output shorter than the input" },
    { { buf, 4, 2, 7 }, { buf, 4, 2, 4 }, "input stride under 2 bytes a pixel" },
    { { buf, 4, 2, 8 }, { buf, 4, 2, 3 }, "output stride under a byte a pixel" },
    { { NULL, 4, 2, 8 }, { buf, 4, 2, 4 }, "input without data" },
  };
  const struct {
    GcvPlane plane;
    int channels, low_bits;
    const char *what;
  } round[] = {
    { { buf, 4, 2, 16 }, 0, 6, "0 channels" },
    { { buf, 4, 2, 16 }, 1, 16, "16 low bits" },
    { { buf, 4, 2, 16 }, 1, -1, "-1 low bits" },
    { { buf, 4, 2, 15 }, 2, 6, "stride under 2 samples a pixel" },
    { { NULL, 4, 2, 16 }, 2, 6, "plane without data" },
    { { buf, 4, -2, 16 }, 1, 6, "negative height" },
  };
  GcvError err;

  for (size_t i = 0; i < sizeof (luma) / sizeof (luma[0]); i++) {
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_luma8_cpu (&luma[i].in, &luma[i].out, 1, &err) == GCV_ERROR_INVALID
        && strstr (err.message, "16-bit luma") != NULL, "gcv_luma8_cpu: %s must be refused (got: %s)",
        luma[i].what, err.message);
  }
  GCV_TEST_CHECK (gcv_luma8_cpu (NULL, &out, 1, &err) == GCV_ERROR_INVALID
      && gcv_luma8_cpu (&in, NULL, 1, &err) == GCV_ERROR_INVALID, "gcv_luma8_cpu: no plane must be refused");
  for (size_t i = 0; i < sizeof (round) / sizeof (round[0]); i++) {
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_round_low_bits_cpu (&round[i].plane, round[i].channels, round[i].low_bits, 1, &err)
        == GCV_ERROR_INVALID && strstr (err.message, "rounding") != NULL,
        "gcv_round_low_bits_cpu: %s must be refused (got: %s)", round[i].what, err.message);
  }
  {
    /* nothing to do: no data needed */
    GcvPlane empty = { NULL, 0, 5, 0 }, empty8 = { NULL, 0, 5, 0 };
    GCV_TEST_CHECK (gcv_luma8_cpu (&empty, &empty8, 1, &err) == GCV_OK
        && gcv_round_low_bits_cpu (&empty, 2, 6, 1, &err) == GCV_OK, "empty planes must be accepted: %s",
        err.message);
  }
}

int
main (void)
{
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  test_rules ();
  test_planes ();
  test_arguments ();
  return gcv_test_summary (t0);
}
