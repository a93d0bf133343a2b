/* gst-cuda-video: the CUDA Canny (kernels/canny.cu) must equal the CPU one
 * (cpu/canny.c, itself checked against the reference and OpenCV by
 * canny_algo_test.c) bit for bit.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Covers the scenes of gcv_test_scenes_new, every
 * blur / threshold / norm / output case, GRAY8, GRAY16LE and four PACKED32
 * byte orders, device planes from cudaMallocPitch and packed-ish ones with
 * odd strides and garbage in the padding, output padding left untouched,
 * repeated runs (determinism of the parallel hysteresis), one context reused
 * across parameters, a weak chain thousands of pixels long, and 1920x1080 /
 * 3840x2160 frames.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canny.h"
#include "canny_reference.h"
#include "gcv-test.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"


static void *stream;



/* A device copy of a host plane (gcv_test_device_upload): pitched from
 * cudaMallocPitch, padding 0xcd; else the host stride and padding garbage. */
static int
dev_plane_new (const GcvPlane * host, int bpp, int pitched, GcvPlane * dev)
{
  return gcv_test_device_upload (host, (size_t) host->width * bpp, pitched, stream, dev, "device plane");
}

/* A GRAY8 output plane on the device (cuda_case fills it with 0xa5). */
static int
dev_out_new (int w, int h, int pitched, int pad, GcvPlane * dev)
{
  return gcv_test_device_alloc (w, h, (size_t) w, pitched, (size_t) pad, dev, "output plane");
}

/* Runs CUDA on dev_in -> dev_out and compares with expect (packed). */
static void
cuda_case (GcvCannyCuda * ctx, const char *scene, const char *lname, const GcvCannyParams * p,
    const GcvPlane * dev_in, GcvPlane * dev_out, const uint8_t * expect, const char *note)
{
  int w = dev_out->width, h = dev_out->height;
  uint8_t *got = gcv_test_malloc (dev_out->stride * h);
  GcvError err;
  char pd[160];
  int fx, fy;
  long n;

  memset (&err, 0, sizeof (err));
  gcv_test_checks++;
  if (gcv_cuda_memset_2d (dev_out->data, dev_out->stride, 0xa5, dev_out->stride, h, stream, &err) != GCV_OK
      || gcv_canny_cuda_process (ctx, p, dev_in, dev_out, stream, &err) != GCV_OK
      || gcv_cuda_download_2d (got, dev_out->stride, dev_out->data, dev_out->stride, dev_out->stride, h, stream,
          &err) != GCV_OK || gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
    gcv_test_fail ("CUDA %s, %s input, %s%s: %s", scene, lname, ref_params_describe (p, pd, sizeof (pd)), note,
        err.message);
    free (got);
    return;
  }
  n = gcv_test_compare_u8 (expect, (size_t) w, got, dev_out->stride, w, h, &fx, &fy);
  if (n != 0)
    gcv_test_fail ("CUDA vs CPU: %s, %s input (in stride %zu, out stride %zu), %s%s: %ld of %d pixels differ; "
        "first at (x=%d, y=%d): got %d, expected %d", scene, lname, dev_in->stride, dev_out->stride,
        ref_params_describe (p, pd, sizeof (pd)), note, n, w * h, fx, fy, got[(size_t) fy * dev_out->stride + fx],
        expect[(size_t) fy * w + fx]);
  for (int y = 0; y < h && n == 0; y++)
    for (int x = w; x < (int) dev_out->stride; x++)
      if (got[(size_t) y * dev_out->stride + x] != 0xa5) {
        gcv_test_fail ("CUDA %s, %s input, %s%s: output padding byte (x=%d, y=%d) overwritten", scene, lname,
            ref_params_describe (p, pd, sizeof (pd)), note, x, y);
        y = h;
        break;
      }
  free (got);
}

/* CPU result (n_threads 0) of one host plane. */
static int
cpu_expect (GcvLumaInput layout, const GcvPlane * host, const GcvCannyParams * p, uint8_t * expect)
{
  GcvError err;
  GcvCannyCpu *cpu;
  GcvPlane out = { expect, host->width, host->height, (size_t) host->width };
  GcvStatus st;

  memset (&err, 0, sizeof (err));
  cpu = gcv_canny_cpu_new (layout, host->width, host->height, &err);
  if (cpu == NULL) {
    gcv_test_fail ("cpu_new: %s", err.message);
    return -1;
  }
  st = gcv_canny_cpu_process (cpu, p, host, &out, 0, &err);
  gcv_canny_cpu_free (cpu);
  if (st != GCV_OK) {
    gcv_test_fail ("cpu_process: %s", err.message);
    return -1;
  }
  return 0;
}

static size_t
pad_for (GcvLumaLayout layout, int k)
{
  static const size_t p8[] = { 0, 3, 17, 64 }, p16[] = { 0, 2, 18, 64 }, p32[] = { 0, 4, 12, 64 };
  k &= 3;
  return layout == GCV_LUMA_GRAY8 ? p8[k] : layout == GCV_LUMA_GRAY16LE ? p16[k] : p32[k];
}

static void
test_scene (const GcvTestScene * sc, int si, int repeats)
{
  int w = sc->rgb.width, h = sc->rgb.height;
  uint8_t *expect = gcv_test_malloc ((size_t) w * h);
  int combo = 0;

  for (int li = 0; li < GCV_TEST_N_LAYOUTS; li++) {
    GcvLumaInput layout = gcv_test_layout_by_index (li);
    int bpp = gcv_luma_bytes_per_pixel (layout.layout);
    GcvPlane host = gcv_test_make_plane (layout, &sc->rgb, pad_for (layout.layout, si + li),
        (uint32_t) (si * 31 + li));
    GcvPlane dev_in[2], dev_out[2];
    GcvCannyCuda *ctx;
    GcvError err;
    char lname[16];
    int ok = 1;

    gcv_test_layout_name (layout, lname, sizeof (lname));
    memset (&err, 0, sizeof (err));
    ctx = gcv_canny_cuda_new (layout, w, h, &err);
    GCV_TEST_CHECK (ctx != NULL, "cuda_new(%s, %dx%d): %s", lname, w, h, err.message);
    memset (dev_in, 0, sizeof (dev_in));
    memset (dev_out, 0, sizeof (dev_out));
    for (int m = 0; m < 2; m++) {
      ok &= dev_plane_new (&host, bpp, m == 0, &dev_in[m]) == 0;
      ok &= dev_out_new (w, h, m == 0, 1 + 2 * ((si + li) % 3), &dev_out[m]) == 0;
    }
    for (int b = 0; ok && ctx && b < ref_n_blur_cases; b++)
      for (int d = 0; d < ref_n_detect_cases; d++, combo++) {
        GcvCannyParams p;
        int m;
        /* large scenes: each parameter set on one layout only */
        if (sc->large && (combo % GCV_TEST_N_LAYOUTS) != li)
          continue;
        ref_make_params (&ref_blur_cases[b], &ref_detect_cases[d], &p);
        if (cpu_expect (layout, &host, &p, expect) != 0)
          continue;
        m = (combo + li) & 1;
        for (int r = 0; r < repeats; r++)
          cuda_case (ctx, sc->name, lname, &p, &dev_in[m], &dev_out[m], expect, m ? " (flat planes)" : "");
      }
    for (int m = 0; m < 2; m++) {
      gcv_cuda_free (dev_in[m].data);
      gcv_cuda_free (dev_out[m].data);
    }
    gcv_canny_cuda_free (ctx);
    free (host.data);
  }
  free (expect);
}

static void
test_big_frames (const GcvTestScene * scenes)
{
  /* HD and 4K tiles of a photo, one edges and one magnitude case each, run
   * three times on one context */
  static const int sizes[][2] = { {1920, 1080}, {3840, 2160} };
  for (int k = 0; k < 2; k++) {
    GcvTestScene sc;
    memset (&sc, 0, sizeof (sc));
    snprintf (sc.name, sizeof (sc.name), "astronaut.png tiled %dx%d", sizes[k][0], sizes[k][1]);
    sc.rgb = gcv_test_image_window (&scenes[3].rgb, 17, 5, sizes[k][0], sizes[k][1]);
    sc.large = 1;
    test_scene (&sc, 100 + k, 3);
    gcv_test_image_clear (&sc.rgb);
  }
}

static void
test_long_chain (void)
{
  const int W = 300, H = 300;
  GcvCannyParams p;
  RefBlurCase b = { 0, 0 };
  RefDetectCase d = { 40, 200, 0, GCV_CANNY_OUTPUT_EDGES };

  ref_make_params (&b, &d, &p);
  for (int strong = 1; strong >= 0; strong--) {
    GcvTestScene sc;
    memset (&sc, 0, sizeof (sc));
    snprintf (sc.name, sizeof (sc.name), "spiral line 300x300 %s strong square", strong ? "with" : "without");
    sc.rgb = gcv_test_spiral_image (W, H, 5, 100, 120, strong ? 5 : 0);
    {
      GcvLumaInput layout = gcv_test_layout_gray8 ();
      GcvPlane host = gcv_test_make_plane (layout, &sc.rgb, 0, 7), din, dout;
      uint8_t *expect = gcv_test_malloc ((size_t) W * H);
      GcvError err;
      GcvCannyCuda *ctx;
      long n_edges = 0;
      memset (&err, 0, sizeof (err));
      ctx = gcv_canny_cuda_new (layout, W, H, &err);
      GCV_TEST_CHECK (ctx != NULL, "cuda_new: %s", err.message);
      if (ctx && cpu_expect (layout, &host, &p, expect) == 0 && dev_plane_new (&host, 1, 1, &din) == 0
          && dev_out_new (W, H, 1, 0, &dout) == 0) {
        for (int i = 0; i < W * H; i++)
          n_edges += expect[i] != 0;
        GCV_TEST_CHECK (strong ? n_edges > 10000 : n_edges == 0, "long chain: CPU kept %ld edge pixels", n_edges);
        for (int r = 0; r < 5; r++)
          cuda_case (ctx, sc.name, "GRAY8", &p, &din, &dout, expect, "");
        gcv_cuda_free (din.data);
        gcv_cuda_free (dout.data);
      }
      gcv_canny_cuda_free (ctx);
      free (expect);
      free (host.data);
    }
    gcv_test_image_clear (&sc.rgb);
  }
}

static void
test_arguments (void)
{
  GcvError err;
  GcvCannyCuda *ctx;
  GcvCannyParams p;
  RefBlurCase b = { 4, 0 };
  RefDetectCase d = { 10, 20, 0, GCV_CANNY_OUTPUT_EDGES };
  GcvPlane in = { NULL, 8, 8, 512 }, out = { NULL, 8, 8, 512 };

  memset (&err, 0, sizeof (err));
  ctx = gcv_canny_cuda_new (gcv_test_layout_gray8 (), 0, 8, &err);
  GCV_TEST_CHECK (ctx == NULL && err.status == GCV_ERROR_INVALID, "cuda_new(0x8) must fail with GCV_ERROR_INVALID");
  gcv_canny_cuda_free (ctx);
  ctx = gcv_canny_cuda_new (gcv_test_layout_gray8 (), 8, 8, &err);
  GCV_TEST_CHECK (ctx != NULL, "cuda_new(8x8): %s", err.message);
  if (ctx == NULL)
    return;
  ref_make_params (&b, &d, &p);
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_canny_cuda_process (ctx, &p, &in, &out, stream, &err) == GCV_ERROR_INVALID,
      "cuda_process with blur_size 4 must fail with GCV_ERROR_INVALID");
  gcv_canny_cuda_free (ctx);
  gcv_canny_cuda_free (NULL);
}

/* Out of device memory is an error value with CUDA's reason, never a crash,
 * and leaves nothing behind: once memory is free again all works. */
static void
test_out_of_memory (void)
{
  GcvTestDeviceHog hog;
  GcvError err;
  GcvCannyCuda *ctx;

  gcv_test_fill_device (&hog);
  {
    size_t fb = 0, tb = 0;
    gcv_cuda_mem_info (&fb, &tb, &err);
    printf ("out of memory: %zu MiB held in %d blocks, %zu MiB free\n", hog.bytes >> 20, hog.n, fb >> 20);
  }
  memset (&err, 0, sizeof (err));
  ctx = gcv_canny_cuda_new (gcv_test_layout_gray8 (), 8192, 8192, &err);
  GCV_TEST_CHECK (ctx == NULL, "cuda_new(8192x8192) succeeded with the device full (%zu MiB held)",
      hog.bytes >> 20);
  GCV_TEST_CHECK (err.status == GCV_ERROR_NO_MEMORY && strstr (err.message, "cudaErrorMemoryAllocation"),
      "out of memory reported as status %d: %s", err.status, err.message);
  gcv_canny_cuda_free (ctx);
  gcv_test_release_device (&hog);

  /* the failed allocation must not leak into the next launch check */
  memset (&err, 0, sizeof (err));
  ctx = gcv_canny_cuda_new (gcv_test_layout_gray8 (), 64, 48, &err);
  GCV_TEST_CHECK (ctx != NULL, "cuda_new after freeing memory: %s", err.message);
  if (ctx) {
    GcvPlane in, out;
    GcvCannyParams p = { 20, 60, 5, 1.4, 0, GCV_CANNY_OUTPUT_EDGES };
    size_t pitch;
    if (gcv_cuda_malloc_2d (&in.data, &pitch, 64, 48, &err) == GCV_OK) {
      in.width = out.width = 64;
      in.height = out.height = 48;
      in.stride = out.stride = pitch;
      gcv_cuda_memset_2d (in.data, pitch, 77, 64, 48, stream, &err);
      out.data = NULL;
      if (gcv_cuda_malloc_2d (&out.data, &pitch, 64, 48, &err) == GCV_OK) {
        size_t fb = 0, tb = 0;
        GcvStatus st;
        gcv_cuda_mem_info (&fb, &tb, &err);
        printf ("out of memory: %zu of %zu MiB free after releasing\n", fb >> 20, tb >> 20);
        /* On an H100 (driver 580), the first launch after ~all of the
         * device was released reported cudaErrorMemoryAllocation in 3 of 3
         * runs when nothing queried the device in between, and in 0 of 5
         * with the cudaMemGetInfo above: not understood yet.  Either way it
         * must be a clean error, and the next call must work: nothing may
         * stay stuck. */
        memset (&err, 0, sizeof (err));
        st = gcv_canny_cuda_process (ctx, &p, &in, &out, stream, &err);
        if (st != GCV_OK) {
          printf ("out of memory: first launch after releasing reported: %s; retrying\n", err.message);
          memset (&err, 0, sizeof (err));
          st = gcv_canny_cuda_process (ctx, &p, &in, &out, stream, &err);
        }
        GCV_TEST_CHECK (st == GCV_OK && gcv_cuda_stream_sync (stream, &err) == GCV_OK,
            "process after an out-of-memory error: %s", err.message);
      }
      gcv_cuda_free (out.data);
      gcv_cuda_free (in.data);
    }
    gcv_canny_cuda_free (ctx);
  }
  printf ("out of memory: reported and recovered\n");
}

int
main (void)
{
  GcvTestScene *scenes;
  int n_scenes, quick;
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  /* GCV_TEST_QUICK=1 (for compute-sanitizer runs): a few scenes, still every
   * layout and parameter set, so every kernel instantiation runs */
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  printf ("test data: %s\n", gcv_test_data_dir ());

  scenes = gcv_test_scenes_new (&n_scenes);
  test_arguments ();
  if (!quick)                   /* filling the device would starve compute-sanitizer too */
    test_out_of_memory ();
  test_long_chain ();
  for (int s = 0; s < n_scenes && (!quick || s < 4); s++)
    test_scene (&scenes[s], s, scenes[s].large ? 2 : 1);
  printf ("scenes done: %d (%.1f s, %ld failures)\n", quick && n_scenes > 4 ? 4 : n_scenes, gcv_test_now_s () - t0,
      gcv_test_failures);
  if (!quick)
    test_big_frames (scenes);

  gcv_test_scenes_free (scenes, n_scenes);
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
