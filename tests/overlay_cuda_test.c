/* gst-cuda-video: the CUDA overlay painter (kernels/overlay.cu) must equal
 * the CPU one (gcv_overlay_component_bits, cpu/overlay.c, itself checked
 * against an independent reference by overlay_algo_test.c) byte for byte,
 * on the whole frame buffer.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Covers every case of overlay_params_all (masks 1x1,
 * 3x5, 6x4 and 641x481, component sizes ceil / floor of mask / 2^shift and
 * past the mask, shifts 0/1, pixel strides 1, 2, 3, 4, 8, 8- and 16-bit
 * samples, 16-bit ones also rounded to P010's codes, alpha 0/1/128/255,
 * mask bits 0xff/0x01/0x02) with random frames whose component is one byte
 * (or two) of larger interleaved pixels inside padded rows: device frames
 * and masks from cudaMallocPitch (padding 0xcd, which must survive) or
 * with the host's stride and its garbage padding (mask padding 0xff, which
 * would paint if read); several paintings of one frame queued on the stream
 * before one synchronisation; and the refused arguments.  The count of
 * marked mask pixels (gcv_overlay_cuda_count) equals the CPU's and the
 * number the test marked, on every mask of count_params (pitched and
 * host-stride uploads: padding 0xcd, 0xff), several counts queued before
 * one synchronisation.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlay_common.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;

/* The device frame `dev` (rows dev->stride bytes apart) after painting must
 * hold `want` (the host frame's layout) in every row's first frame.width
 * bytes and, past them, 0xcd (pitched) or the host's padding. */
static void
check_device_frame (const OverlayCase * c, const char *what, const GcvPlane * dev, int pitched,
    const uint8_t * want)
{
  size_t bytes = dev->stride * c->frame.height;
  uint8_t *got = gcv_test_malloc (bytes), *expect = gcv_test_malloc (bytes);
  GcvError err;

  memset (&err, 0, sizeof (err));
  if (gcv_cuda_download_2d (got, dev->stride, dev->data, dev->stride, dev->stride, c->frame.height, stream,
          &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
    gcv_test_fail ("%s: %s: download: %s", what, c->name, err.message);
  } else {
    memset (expect, 0xcd, bytes);
    for (int y = 0; y < c->frame.height; y++)
      memcpy (expect + (size_t) y * dev->stride, want + (size_t) y * c->frame.stride,
          pitched ? (size_t) c->frame.width : c->frame.stride);
    overlay_compare (c, what, got, dev->stride, expect, dev->stride, dev->stride, c->frame.height);
  }
  free (expect);
  free (got);
}

/* Case i: the CPU paints a host copy, CUDA the device copy. */
static void
test_case (const OverlayParams * p, int i)
{
  OverlayCase c;
  GcvPlane dev_frame, dev_mask;
  GcvComponent comp;
  GcvError err;
  int pitched = i & 1, mask_pitched = (i >> 1) & 1;
  uint8_t *want;

  overlay_case_make (p, (uint32_t) i, &c);
  want = gcv_test_malloc (c.frame.stride * c.frame.height);
  memcpy (want, c.frame.data, c.frame.stride * c.frame.height);
  comp = c.comp;
  comp.data = want + c.lead + c.offset;
  gcv_overlay_component_bits (&comp, &c.mask, p->mask_bits, c.value, p->alpha);

  memset (&err, 0, sizeof (err));
  memset (&dev_frame, 0, sizeof (dev_frame));
  memset (&dev_mask, 0, sizeof (dev_mask));
  if (gcv_test_device_upload (&c.frame, (size_t) c.frame.width, pitched, stream, &dev_frame, "frame") == 0
      && gcv_test_device_upload (&c.mask, (size_t) c.mask.width, mask_pitched, stream, &dev_mask, "mask") == 0) {
    comp.data = (uint8_t *) dev_frame.data + c.lead + c.offset;
    comp.stride = dev_frame.stride;
    gcv_test_checks++;
    if (gcv_overlay_cuda_component (&comp, &dev_mask, p->mask_bits, c.value, p->alpha, stream, &err) != GCV_OK)
      gcv_test_fail ("gcv_overlay_cuda_component: %s: %s", c.name, err.message);
    else
      check_device_frame (&c, pitched ? "CUDA vs CPU (pitched frame)" : "CUDA vs CPU (host stride)",
          &dev_frame, pitched, want);
  }
  gcv_cuda_free (dev_frame.data);
  gcv_cuda_free (dev_mask.data);
  free (want);
  overlay_case_free (&c);
}

/* The use of the elements: every component of a frame painted (RGBA 8-bit
 * with three mask layers, then a 16-bit 4:2:0-like chroma pair, then the
 * same as P010 keeps it) by calls queued on one stream, one
 * synchronisation at the end. */
static void
test_queued (void)
{
  static const struct {
    int pixel_stride, offset, x_shift, y_shift, depth16, low_bits;
    uint8_t mask_bits, value, alpha;
  } paint[] = {
    { 4, 0, 0, 0, 0, 0, 0x01, 255, 255 }, { 4, 1, 0, 0, 0, 0, 0x02, 0, 128 },
    { 4, 2, 0, 0, 0, 0, 0xff, 17, 1 }, { 4, 0, 1, 1, 1, 0, 0x01, 240, 200 },
    { 4, 2, 1, 1, 1, 0, 0x02, 16, 255 }, { 4, 0, 1, 1, 1, 6, 0x02, 90, 255 },
    { 4, 2, 1, 1, 1, 6, 0x01, 240, 77 },
  };
  OverlayParams p = { 641, 481, 641, 481, 4, 0, 0, 0, 0, 255, 0xff };
  OverlayCase c;
  GcvPlane dev_frame, dev_mask;
  uint8_t *want;
  GcvError err;
  int ok = 1;

  overlay_case_make (&p, 4242, &c);
  want = gcv_test_malloc (c.frame.stride * c.frame.height);
  memcpy (want, c.frame.data, c.frame.stride * c.frame.height);
  memset (&err, 0, sizeof (err));
  memset (&dev_frame, 0, sizeof (dev_frame));
  memset (&dev_mask, 0, sizeof (dev_mask));
  if (gcv_test_device_upload (&c.frame, (size_t) c.frame.width, 1, stream, &dev_frame, "frame") == 0
      && gcv_test_device_upload (&c.mask, (size_t) c.mask.width, 1, stream, &dev_mask, "mask") == 0) {
    for (size_t k = 0; k < sizeof (paint) / sizeof (paint[0]) && ok; k++) {
      GcvComponent comp = c.comp;
      comp.x_shift = paint[k].x_shift;
      comp.y_shift = paint[k].y_shift;
      comp.depth16 = paint[k].depth16;
      comp.low_bits = paint[k].low_bits;
      comp.width = (p.comp_w + (1 << comp.x_shift) - 1) >> comp.x_shift;
      comp.height = (p.comp_h + (1 << comp.y_shift) - 1) >> comp.y_shift;
      comp.data = want + c.lead + paint[k].offset;
      gcv_overlay_component_bits (&comp, &c.mask, paint[k].mask_bits, paint[k].value, paint[k].alpha);
      comp.data = (uint8_t *) dev_frame.data + c.lead + paint[k].offset;
      comp.stride = dev_frame.stride;
      gcv_test_checks++;
      if (gcv_overlay_cuda_component (&comp, &dev_mask, paint[k].mask_bits, paint[k].value, paint[k].alpha,
              stream, &err) != GCV_OK) {
        gcv_test_fail ("queued painting %zu: %s", k, err.message);
        ok = 0;
      }
    }
    /* the case's own component, offset and shifts no longer describe the
     * frame: the name says which frame and mask it is */
    c.offset = 0;
    c.p.comp_w = 0;
    if (ok)
      check_device_frame (&c, "CUDA vs CPU, seven paintings queued", &dev_frame, 1, want);
  }
  gcv_cuda_free (dev_frame.data);
  gcv_cuda_free (dev_mask.data);
  free (want);
  overlay_case_free (&c);
}

/* Refused arguments, and calls that have nothing to paint: GCV_OK without
 * touching the (here absent) data. */
static void
test_arguments (void)
{
  uint8_t dummy = 0;
  GcvPlane mask = { NULL, 4, 4, 4 };
  GcvComponent nodata = { NULL, 8, 2, 4, 4, 0, 0, 1 }, bad;
  GcvError err;

  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_overlay_cuda_component (&nodata, &mask, 0xff, 200, 0, stream, &err) == GCV_OK,
      "alpha 0 with no data must do nothing: %s", err.message);
  GCV_TEST_CHECK (gcv_overlay_cuda_component (&nodata, &mask, 0x00, 200, 255, stream, &err) == GCV_OK,
      "mask bits 0 with no data must do nothing: %s", err.message);
  bad = nodata;
  bad.width = 0;
  GCV_TEST_CHECK (gcv_overlay_cuda_component (&bad, &mask, 0xff, 200, 255, stream, &err) == GCV_OK,
      "an empty component with no data must do nothing: %s", err.message);
  GCV_TEST_CHECK (gcv_overlay_cuda_component (&nodata, &mask, 0xff, 200, 255, stream, &err) == GCV_ERROR_INVALID,
      "a component to paint without data must be refused");
  {
    const struct {
      GcvComponent comp;
      int mask_w, mask_h;
      const char *what;
    } t[] = {
      { { &dummy, 8, 1, 4, 4, 0, 0, 1 }, 4, 4, "16-bit samples 1 byte apart" },
      { { &dummy, 8, 0, 4, 4, 0, 0, 0 }, 4, 4, "pixel stride 0" },
      { { &dummy, 8, 2, 4, 4, -1, 0, 0 }, 4, 4, "x_shift -1" },
      { { &dummy, 8, 2, 4, 4, 0, 16, 0 }, 4, 4, "y_shift 16" },
      { { &dummy, 8, 2, -1, 4, 0, 0, 0 }, 4, 4, "width -1" },
      { { &dummy, 8, 2, 4, 4, 0, 0, 0 }, -4, 4, "mask width -4" },
      { { &dummy, 8, 2, 4, 600000, 0, 0, 0 }, 4, 600000, "600000 rows to paint" },
      { { &dummy, 8, 2, 4, 4, 0, 0, 1, 16 }, 4, 4, "16 low bits zero" },
      { { &dummy, 8, 2, 4, 4, 0, 0, 1, -1 }, 4, 4, "-1 low bits zero" },
      { { &dummy, 8, 2, 4, 4, 0, 0, 0, 6 }, 4, 4, "low bits zero of 8-bit samples" },
    };
    for (size_t i = 0; i < sizeof (t) / sizeof (t[0]); i++) {
      GcvPlane m = { &dummy, t[i].mask_w, t[i].mask_h, 4 };
      memset (&err, 0, sizeof (err));
      GCV_TEST_CHECK (gcv_overlay_cuda_component (&t[i].comp, &m, 0xff, 200, 255, stream, &err)
          == GCV_ERROR_INVALID && err.status == GCV_ERROR_INVALID && strstr (err.message, "overlay:") != NULL,
          "%s must be refused with GCV_ERROR_INVALID (got status %d: %s)", t[i].what, err.status, err.message);
    }
  }
}

/* Counts on the device: each mask of count_params in both layouts, its
 * count and that of bits 0 queued on the stream before one wait. */
static void
test_count (void)
{
  uint64_t *dev = NULL, *host = gcv_test_pinned_malloc (4 * sizeof (uint64_t));
  GcvError err;

  memset (&err, 0, sizeof (err));
  if (gcv_cuda_malloc ((void **) &dev, 4 * sizeof (uint64_t), &err) != GCV_OK) {
    gcv_test_fail ("count scratch: %s", err.message);
    gcv_cuda_host_free (host);
    return;
  }
  for (int i = 0; i < n_count_params; i++)
    for (int pitched = 0; pitched < 2; pitched++) {
      GcvPlane mask, dev_mask;
      uint64_t marked = count_mask_make (&count_params[i], (uint32_t) i, &mask);
      uint64_t cpu = gcv_overlay_count (&mask, count_params[i].bits);

      memset (&dev_mask, 0, sizeof (dev_mask));
      if (gcv_test_device_upload (&mask, (size_t) mask.width, pitched, stream, &dev_mask, "count mask") == 0) {
        memset (host, 0xab, 4 * sizeof (uint64_t));
        gcv_test_checks++;
        if (gcv_overlay_cuda_count (&dev_mask, count_params[i].bits, &dev[0], &host[0], stream, &err) != GCV_OK
            || gcv_overlay_cuda_count (&dev_mask, 0, &dev[1], &host[1], stream, &err) != GCV_OK
            || gcv_overlay_cuda_count (&dev_mask, 0xff, &dev[2], &host[2], stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
          gcv_test_fail ("count %dx%d: %s", mask.width, mask.height, err.message);
        else {
          GCV_TEST_CHECK (host[0] == cpu && cpu == marked, "CUDA count of a %dx%d mask (%s, bits 0x%02x): "
              "%llu, CPU %llu, marked %llu", mask.width, mask.height, pitched ? "pitched" : "host stride",
              count_params[i].bits, (unsigned long long) host[0], (unsigned long long) cpu,
              (unsigned long long) marked);
          GCV_TEST_CHECK (host[1] == 0, "bits 0 counted %llu", (unsigned long long) host[1]);
          GCV_TEST_CHECK (host[2] == gcv_overlay_count (&mask, 0xff), "bits 0xff: CUDA %llu, CPU %llu",
              (unsigned long long) host[2], (unsigned long long) gcv_overlay_count (&mask, 0xff));
        }
      }
      gcv_cuda_free (dev_mask.data);
      free (mask.data);
    }
  {
    GcvPlane bad = { dev, -1, 4, 4 }, tall = { dev, 4, 600000, 4 };
    GCV_TEST_CHECK (gcv_overlay_cuda_count (&bad, 0xff, &dev[3], &host[3], stream, &err) == GCV_ERROR_INVALID,
        "a mask of width -1 must be refused");
    GCV_TEST_CHECK (gcv_overlay_cuda_count (&tall, 0xff, &dev[3], &host[3], stream, &err) == GCV_ERROR_INVALID,
        "600000 rows must be refused");
    GCV_TEST_CHECK (gcv_overlay_cuda_count (&bad, 0xff, NULL, &host[3], stream, &err) == GCV_ERROR_INVALID,
        "no device count must be refused");
  }
  gcv_cuda_free (dev);
  gcv_cuda_host_free (host);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();
  OverlayParams *all;
  int n;

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  test_arguments ();
  test_count ();
  all = overlay_params_all (&n);
  for (int i = 0; i < n; i++)
    test_case (&all[i], i);
  printf ("cases: %d (%.1f s, %ld failures)\n", n, gcv_test_now_s () - t0, gcv_test_failures);
  free (all);
  test_queued ();
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
