/* gst-cuda-video: helpers shared by the C test programs.
 *
 * PNG loading (libpng), luma, test-data lookup, synthetic planes in every
 * GcvLumaInput layout with padded strides, and the GPU policy of the CUDA
 * tests.  Test programs exit 0 on success, 77 when skipped (meson's skip
 * code) and anything else on failure.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_TEST_H
#define GCV_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "gcv-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GCV_TEST_SKIP 77

/* Check counting for the plain-C test programs: a failed check prints its
 * message (the first 60; later ones are only counted) and the program ends
 * with gcv_test_failures != 0. */
extern long gcv_test_checks;
extern long gcv_test_failures;
void gcv_test_fail (const char *fmt, ...)
#ifdef __GNUC__
    __attribute__ ((format (printf, 1, 2)))
#endif
    ;
#define GCV_TEST_CHECK(cond, ...) \
  do { gcv_test_checks++; if (!(cond)) gcv_test_fail (__VA_ARGS__); } while (0)
/* Monotonic seconds. */
double gcv_test_now_s (void);
/* The last line of a test program: "PASS: <n> checks, 0 failures (<t> s)"
 * or "FAIL: ...", t0 being gcv_test_now_s () at its start.  Returns the
 * program's exit status: 0, or 1 when a check failed. */
int gcv_test_summary (double t0);
/* Whether the environment variable `name` holds a positive number
 * (GCV_TEST_QUICK, GCV_TEST_EXHAUSTIVE). */
int gcv_test_env_flag (const char *name);

/* An 8-bit image in host memory: channels 1 (gray), 3 (RGB) or 4 (RGBA),
 * rows `stride` bytes apart. */
typedef struct {
  uint8_t *data;
  int width;
  int height;
  int channels;
  size_t stride;
} GcvTestImage;

/* Loads a PNG.  Gray of any bit depth becomes 1 channel, RGB 3, RGBA 4
 * (gray+alpha becomes RGBA, palette RGB or RGBA); 16-bit samples are reduced
 * to 8 bits and 1/2/4-bit gray is scaled to 0..255.  Returns 0 on success,
 * else -1 with a message in errbuf. */
int gcv_test_load_png (const char *path, GcvTestImage * img, char *errbuf, size_t errlen);
/* Writes an 8-bit gray or RGB image (for dumping failures). 0 on success. */
int gcv_test_write_png (const char *path, const uint8_t * data, int width, int height,
    size_t stride, int channels);
void gcv_test_image_clear (GcvTestImage * img);

/* The GCV_LUMA_PACKED32 formula (gcv-image.h; cv::cvtColor RGB2GRAY of
 * OpenCV 4.6): (9798 R + 19235 G + 3735 B + 16384) >> 15. */
static inline uint8_t
gcv_test_luma_rgb (unsigned r, unsigned g, unsigned b)
{
  return (uint8_t) ((9798u * r + 19235u * g + 3735u * b + 16384u) >> 15);
}

/* Packed width*height luma of img (gray as is, colour by the formula above).
 * malloc'd; never NULL (aborts on out of memory). */
uint8_t *gcv_test_image_luma (const GcvTestImage * img);

/* An RGB image (3 channels, packed rows) cut out of src: the w x h window
 * whose top-left corner is (x0, y0); coordinates wrap around src (so windows
 * larger than src tile it).  Gray sources are expanded to R = G = B. */
GcvTestImage gcv_test_image_window (const GcvTestImage * src, int x0, int y0, int w, int h);

/* A host plane in `input`'s layout holding the RGB image `rgb` (3 channels):
 *  GRAY8     the luma of each pixel;
 *  GRAY16LE  luma * 257 + d, d a pseudo-random offset in [-128, 128] (clamped
 *            to 0..65535), so (v + 128) / 257 gives the luma back and the
 *            rounding is exercised at both ends;
 *  PACKED32  R, G, B at the layout's offsets, pseudo-random bytes in the
 *            fourth byte.
 * Rows are width * bpp + pad_bytes apart; the padding is filled with
 * pseudo-random garbage.  `seed` makes the noise reproducible.  Free
 * plane->data with free(). */
GcvPlane gcv_test_make_plane (GcvLumaInput input, const GcvTestImage * rgb, size_t pad_bytes,
    uint32_t seed);

/* Luma the contract defines for one plane in `input`'s layout. malloc'd,
 * packed width*height. */
uint8_t *gcv_test_plane_luma (GcvLumaInput input, const GcvPlane * plane);

/* GcvLumaInput constructors and names ("GRAY8", "GRAY16LE", "RGBA", ...). */
GcvLumaInput gcv_test_layout_gray8 (void);
GcvLumaInput gcv_test_layout_gray16le (void);
GcvLumaInput gcv_test_layout_packed32 (int r_offset, int g_offset, int b_offset);
const char *gcv_test_layout_name (GcvLumaInput input, char *buf, size_t len);
/* The layouts every backend test covers, by index 0 .. GCV_TEST_N_LAYOUTS-1:
 * GRAY8, GRAY16LE, then packed32 RGBx, BGRx, xRGB, xBGR. */
#define GCV_TEST_N_LAYOUTS 6
GcvLumaInput gcv_test_layout_by_index (int i);

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
/* Device memory taken in ever smaller blocks (1 GiB down to 1 MiB) until
 * none is left, for out-of-memory tests; give it back with
 * gcv_test_release_device. */
typedef struct {
  void *blocks[1024];
  int n;
  size_t bytes;
} GcvTestDeviceHog;
void gcv_test_fill_device (GcvTestDeviceHog * hog);
void gcv_test_release_device (GcvTestDeviceHog * hog);

/* The start of a CUDA test program: gcv_test_gpu_policy (which exits when
 * no GPU is usable), device 0, a new stream (returned), and the line
 * "device: <description>" on stdout.  Exits 1 with a message when the device
 * or the stream cannot be set up. */
void *gcv_test_cuda_setup (void);

/* Device planes (the host plane's width, height and stride travel along).
 * gcv_test_device_upload: a device copy of `host`, whose rows hold row_bytes
 * of samples.  pitched: cudaMallocPitch, padding set to 0xcd; else one
 * cudaMalloc block with the host stride, the host's padding (garbage)
 * uploaded with the rows.  Synchronises `stream`.
 * gcv_test_device_alloc: a w x h plane of row_bytes rows, from
 * cudaMallocPitch (pitched) or one cudaMalloc block with rows row_bytes + pad
 * apart; contents undefined.
 * Both return 0, or -1 after a failed check "<what> WxH: <error>" (or
 * "upload: <error>"); dev->data is NULL or device memory either way, for
 * gcv_cuda_free. */
int gcv_test_device_upload (const GcvPlane * host, size_t row_bytes, int pitched, void *stream,
    GcvPlane * dev, const char *what);
int gcv_test_device_alloc (int w, int h, size_t row_bytes, int pitched, size_t pad, GcvPlane * dev,
    const char *what);

/* Page-locked host memory (gcv_cuda_host_alloc) for results that the
 * backends download asynchronously; exits 1 with a message on failure.
 * Free it with gcv_cuda_host_free. */
void *gcv_test_pinned_malloc (size_t size);
#endif

/* A small deterministic PRNG (xorshift32); never returns 0 state. */
uint32_t gcv_test_rand (uint32_t * state);

/* malloc that aborts with a message on failure. */
void *gcv_test_malloc (size_t size);

/* Number of differing samples between two w x h GRAY8 planes; the first one
 * (row-major order) goes to *first_x, *first_y (-1 when equal). */
long gcv_test_compare_u8 (const uint8_t * a, size_t a_stride, const uint8_t * b, size_t b_stride,
    int w, int h, int *first_x, int *first_y);

/* The photos in tests/data (file names), in a fixed order. */
extern const char *const gcv_test_photos[];
extern const int gcv_test_n_photos;
/* Loads them into photos[0 .. gcv_test_n_photos - 1]; exits 1 with a
 * message when one cannot be loaded. */
void gcv_test_load_photos (GcvTestImage * photos);

/* A test picture: an RGB image (3 channels) and a name for messages. */
typedef struct {
  char name[96];
  GcvTestImage rgb;
  int large;                    /* many pixels: callers test fewer combinations */
} GcvTestScene;

/* The scene set the algorithm tests share: the four photos, a 641x481 tile
 * of one of them (wrapping around it), small windows (1x1, 2x2, 3x3, 7x5,
 * 5x7, 1x37, 37x1, 2x9, 9x2, 16x16, 33x17, 64x48, 127x65) cut at several
 * places, and synthetic patterns (flat, noise, 1-pixel checkerboard, steps
 * in several directions, rings, a ramp, a thin spiral line).  Exits with a
 * message when a photo cannot be loaded. */
GcvTestScene *gcv_test_scenes_new (int *n_scenes);
void gcv_test_scenes_free (GcvTestScene * scenes, int n_scenes);

/* Points of a rectangular spiral inside a w x h image, from the outer
 * top-left corner inwards; consecutive points are 4-neighbours and rings are
 * `gap` empty pixels apart (gap >= 1), so no two rings touch, not even
 * diagonally.  Writes at most max points; returns how many the spiral has. */
long gcv_test_spiral_path (int w, int h, int gap, int *xs, int *ys, long max);

/* A gray RGB image w x h of value bg with a 1-pixel spiral line of value
 * line (gap as above) and, when strong_block > 0, a strong_block x
 * strong_block square of value 255 at the spiral's outer start.  The line
 * is what a Canny with a low threshold under 4 * |line - bg| and a high one
 * over it turns into one very long weak chain, held only by the square. */
GcvTestImage gcv_test_spiral_image (int w, int h, int gap, int bg, int line, int strong_block);

/* The tests/ source directory: $GCV_TEST_DATA_DIR, else the compile-time
 * GCV_TEST_DATA_DIR_DEFAULT, else ".".  gcv_test_path returns
 * "<dir>/<rel>" in a malloc'd string. */
const char *gcv_test_data_dir (void);
char *gcv_test_path (const char *rel);

/* Whether the CUDA tests should run.  Returns 1 when a CUDA device is usable
 * (only possible when built with GCV_HAVE_CUDA).  Otherwise it does not
 * return: it exits 77 (skip) when GST_CUDA_VIDEO_REQUIRE_GPU is unset or
 * "0", and exits 1 with a message when GST_CUDA_VIDEO_REQUIRE_GPU is set to
 * anything else. */
int gcv_test_gpu_policy (void);

/* The main of a CUDA test program in a build without CUDA: the policy above
 * skips (77), or fails with GST_CUDA_VIDEO_REQUIRE_GPU=1. */
#define GCV_TEST_MAIN_WITHOUT_CUDA() \
  int main (void) { gcv_test_gpu_policy (); return 1; }

/* Where failing outputs are written as PNG: $GCV_TEST_DUMP_DIR or NULL. */
const char *gcv_test_dump_dir (void);

/* Sample i of a row of `t` samples (host byte order, unaligned rows fine).
 * gcv_test_sample_put clamps U8 and U16 to their range (truncating), and
 * rounds F32 to float. */
double gcv_test_sample_get (const void *row, GcvSampleType t, size_t i);
void gcv_test_sample_put (void *row, GcvSampleType t, size_t i, double v);

#ifdef __cplusplus
}
#endif
#endif /* GCV_TEST_H */
