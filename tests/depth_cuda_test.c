/* gst-cuda-video: the CUDA 16-bit sample helpers (kernels/depth.cu) must
 * equal the host ones (cpu/depth.c, checked against independent references
 * by depth_algo_test.c) byte for byte, padding included.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Covers every case of depth_cases (empty to
 * 1920x1080, 1 and 2 channels, odd strides, low bits 0, 1, 6, 15, random
 * and decoder-like samples) on device planes from cudaMallocPitch (padding
 * 0xcd, which must survive) and with the host's odd strides (byte loads:
 * any alignment), the luma and the rounding of one plane queued on the
 * stream before one synchronisation; and the refused arguments.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depth_common.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;

/* The rows of device plane `dev` (dev->stride apart): its first row_bytes
 * bytes of each row. */
static uint8_t *
download (const GcvPlane * dev, int rows, const char *what)
{
  size_t bytes = dev->stride * (rows ? rows : 1);
  uint8_t *host = gcv_test_malloc (bytes);
  GcvError err;

  memset (&err, 0, sizeof (err));
  if (rows > 0 && (gcv_cuda_download_2d (host, dev->stride, dev->data, dev->stride, dev->stride, rows, stream,
              &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK))
    gcv_test_fail ("%s: download: %s", what, err.message);
  return host;
}

static void
test_case (const DepthCase * c, int i)
{
  int pitched = i & 1, out_pitched = !pitched;
  GcvPlane in = depth_plane16 (c, (uint32_t) i), out = depth_plane8 (c), dev_in, dev_out;
  size_t row16 = (size_t) c->width * c->channels * 2;
  uint8_t *want_luma = NULL, *want_round = gcv_test_malloc (in.stride * (c->height ? c->height : 1));
  char name[128], what[64];
  GcvError err;

  memset (&err, 0, sizeof (err));
  memset (&dev_in, 0, sizeof (dev_in));
  memset (&dev_out, 0, sizeof (dev_out));
  depth_case_name (c, name, sizeof (name));
  snprintf (what, sizeof (what), "CUDA vs CPU (%s)", pitched ? "pitched" : "host stride");

  /* the host results */
  if (c->channels == 1) {
    GCV_TEST_CHECK (gcv_luma8_cpu (&in, &out, 0, &err) == GCV_OK, "gcv_luma8_cpu: %s: %s", name, err.message);
    want_luma = out.data;
    out = depth_plane8 (c);
  }
  memcpy (want_round, in.data, in.stride * (c->height ? c->height : 1));
  {
    GcvPlane p = in;
    p.data = want_round;
    GCV_TEST_CHECK (gcv_round_low_bits_cpu (&p, c->channels, c->low_bits, 0, &err) == GCV_OK,
        "gcv_round_low_bits_cpu: %s: %s", name, err.message);
  }

  if (c->width == 0 || c->height == 0) {
    /* nothing to do, no data needed */
    GcvPlane e16 = { NULL, c->width, c->height, 0 }, e8 = { NULL, c->width, c->height, 0 };
    GCV_TEST_CHECK ((c->channels != 1 || gcv_luma8_cuda (&e16, &e8, stream, &err) == GCV_OK)
        && gcv_round_low_bits_cuda (&e16, c->channels, c->low_bits, stream, &err) == GCV_OK,
        "%s: empty planes must be accepted: %s", name, err.message);
  } else if (gcv_test_device_upload (&in, row16, pitched, stream, &dev_in, "16-bit plane") == 0
      && (c->channels != 1 || gcv_test_device_upload (&out, (size_t) c->width, out_pitched, stream, &dev_out,
              "8-bit plane") == 0)) {
    /* both queued, then one synchronisation (in download) */
    gcv_test_checks++;
    if (c->channels == 1 && gcv_luma8_cuda (&dev_in, &dev_out, stream, &err) != GCV_OK)
      gcv_test_fail ("gcv_luma8_cuda: %s: %s", name, err.message);
    gcv_test_checks++;
    if (gcv_round_low_bits_cuda (&dev_in, c->channels, c->low_bits, stream, &err) != GCV_OK)
      gcv_test_fail ("gcv_round_low_bits_cuda: %s: %s", name, err.message);
    if (c->channels == 1) {
      uint8_t *got = download (&dev_out, c->height, name);
      char w[192];
      snprintf (w, sizeof (w), "gcv_luma8_cuda, %s", what);
      depth_compare (w, c, got, dev_out.stride, want_luma, out.stride, (size_t) c->width, c->height);
      if (!out_pitched)
        depth_compare (w, c, got, dev_out.stride, want_luma, out.stride, out.stride, c->height);
      free (got);
    }
    {
      uint8_t *got = download (&dev_in, c->height, name);
      char w[192];
      snprintf (w, sizeof (w), "gcv_round_low_bits_cuda, %s", what);
      depth_compare (w, c, got, dev_in.stride, want_round, in.stride, row16, c->height);
      if (!pitched)
        depth_compare (w, c, got, dev_in.stride, want_round, in.stride, in.stride, c->height);
      free (got);
    }
  }
  gcv_cuda_free (dev_in.data);
  gcv_cuda_free (dev_out.data);
  free (want_luma);
  free (want_round);
  free (in.data);
  free (out.data);
}

static void
test_arguments (void)
{
  uint8_t dummy[64];
  GcvPlane in = { dummy, 4, 2, 8 }, out = { dummy, 4, 2, 4 }, bad;
  GcvError err;

  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_luma8_cuda (NULL, &out, stream, &err) == GCV_ERROR_INVALID, "no input must be refused");
  bad = out;
  bad.width = 3;
  GCV_TEST_CHECK (gcv_luma8_cuda (&in, &bad, stream, &err) == GCV_ERROR_INVALID
      && strstr (err.message, "16-bit luma") != NULL, "a narrow output must be refused (got: %s)",
      err.message);
  bad = in;
  bad.stride = 7;
  GCV_TEST_CHECK (gcv_luma8_cuda (&bad, &out, stream, &err) == GCV_ERROR_INVALID,
      "an input stride under 2 bytes a pixel must be refused");
  GCV_TEST_CHECK (gcv_round_low_bits_cuda (&in, 1, 16, stream, &err) == GCV_ERROR_INVALID
      && strstr (err.message, "rounding") != NULL, "16 low bits must be refused (got: %s)", err.message);
  GCV_TEST_CHECK (gcv_round_low_bits_cuda (&in, 0, 6, stream, &err) == GCV_ERROR_INVALID,
      "0 channels must be refused");
  bad = in;
  bad.data = NULL;
  GCV_TEST_CHECK (gcv_round_low_bits_cuda (&bad, 1, 6, stream, &err) == GCV_ERROR_INVALID,
      "a plane without data must be refused");
  bad = in;
  bad.height = 600000;
  bad.stride = 8;
  GCV_TEST_CHECK (gcv_round_low_bits_cuda (&bad, 1, 6, stream, &err) == GCV_ERROR_INVALID,
      "600000 rows must be refused (more than a launch's grid)");
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  DepthCase *all;
  int n;

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  test_arguments ();
  all = depth_cases (&n);
  for (int i = 0; i < n; i++)
    test_case (&all[i], i);
  printf ("cases: %d (%.1f s, %ld failures)\n", n, gcv_test_now_s () - t0, gcv_test_failures);
  free (all);
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
