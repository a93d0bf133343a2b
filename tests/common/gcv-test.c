/* gst-cuda-video: helpers shared by the C test programs (see gcv-test.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gcv-test.h"

#include <math.h>
#include <stdarg.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

#define GCV_TEST_WITH_CUDA 1
#else
#define GCV_TEST_WITH_CUDA 0
#endif

long gcv_test_checks;
long gcv_test_failures;

#define MAX_PRINTED_FAILURES 60

void
gcv_test_fail (const char *fmt, ...)
{
  va_list ap;

  gcv_test_failures++;
  if (gcv_test_failures > MAX_PRINTED_FAILURES) {
    if (gcv_test_failures == MAX_PRINTED_FAILURES + 1)
      fprintf (stderr, "FAIL: ... (further failures counted, not printed)\n");
    return;
  }
  fprintf (stderr, "FAIL: ");
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  fflush (stderr);
}

double
gcv_test_now_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
gcv_test_summary (double t0)
{
  printf ("%s: %ld checks, %ld failures (%.1f s)\n", gcv_test_failures ? "FAIL" : "PASS", gcv_test_checks,
      gcv_test_failures, gcv_test_now_s () - t0);
  return gcv_test_failures ? 1 : 0;
}

int
gcv_test_env_flag (const char *name)
{
  const char *v = getenv (name);

  return v != NULL && atoi (v) > 0;
}

void *
gcv_test_malloc (size_t size)
{
  void *p = malloc (size ? size : 1);

  if (p == NULL) {
    fprintf (stderr, "FAIL: out of memory allocating %zu bytes\n", size);
    exit (1);
  }
  return p;
}

uint32_t
gcv_test_rand (uint32_t * state)
{
  uint32_t x = *state ? *state : 0x9e3779b9u;

  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *state = x;
  return x;
}

/* ---- PNG ----------------------------------------------------------------- */

static void
png_error_to_buf (png_structp png, png_const_charp msg)
{
  char *buf = png_get_error_ptr (png);

  if (buf != NULL)
    snprintf (buf, 256, "%s", msg);
  png_longjmp (png, 1);
}

static void
png_warning_ignore (png_structp png, png_const_charp msg)
{
  /* e.g. "iCCP: known incorrect sRGB profile" in coffee.png: harmless. */
  (void) png;
  (void) msg;
}

int
gcv_test_load_png (const char *path, GcvTestImage * img, char *errbuf, size_t errlen)
{
  FILE *f;
  png_structp png;
  png_infop info;
  char pngerr[256] = "";
  uint8_t *volatile data = NULL;
  png_bytep *volatile rows = NULL;
  png_uint_32 w, h;
  int bit_depth, color_type, channels;
  size_t stride;

  memset (img, 0, sizeof (*img));
  f = fopen (path, "rb");
  if (f == NULL) {
    snprintf (errbuf, errlen, "cannot open %s", path);
    return -1;
  }
  png = png_create_read_struct (PNG_LIBPNG_VER_STRING, pngerr, png_error_to_buf, png_warning_ignore);
  info = png ? png_create_info_struct (png) : NULL;
  if (png == NULL || info == NULL) {
    snprintf (errbuf, errlen, "%s: cannot create libpng reader", path);
    png_destroy_read_struct (png ? &png : NULL, NULL, NULL);
    fclose (f);
    return -1;
  }
  if (setjmp (png_jmpbuf (png))) {
    snprintf (errbuf, errlen, "%s: libpng: %s", path, pngerr);
    png_destroy_read_struct (&png, &info, NULL);
    free (data);
    free (rows);
    fclose (f);
    return -1;
  }
  png_init_io (png, f);
  png_read_info (png, info);
  png_get_IHDR (png, info, &w, &h, &bit_depth, &color_type, NULL, NULL, NULL);

  if (bit_depth == 16)
    png_set_strip_16 (png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
    png_set_expand_gray_1_2_4_to_8 (png);
  if (color_type == PNG_COLOR_TYPE_PALETTE)
    png_set_palette_to_rgb (png);
  if (png_get_valid (png, info, PNG_INFO_tRNS))
    png_set_tRNS_to_alpha (png);
  if (color_type == PNG_COLOR_TYPE_GRAY_ALPHA
      || (color_type == PNG_COLOR_TYPE_GRAY && png_get_valid (png, info, PNG_INFO_tRNS)))
    png_set_gray_to_rgb (png);
  if (png_set_interlace_handling (png) < 1)
    png_error (png, "interlace handling failed");
  png_read_update_info (png, info);

  channels = png_get_channels (png, info);
  if (png_get_bit_depth (png, info) != 8 || (channels != 1 && channels != 3 && channels != 4)) {
    snprintf (pngerr, sizeof (pngerr), "unsupported layout after conversion: %d channels, %d bits",
        channels, png_get_bit_depth (png, info));
    png_longjmp (png, 1);
  }
  stride = png_get_rowbytes (png, info);
  data = gcv_test_malloc (stride * h);
  rows = gcv_test_malloc (sizeof (png_bytep) * h);
  for (png_uint_32 y = 0; y < h; y++)
    rows[y] = data + y * stride;
  png_read_image (png, rows);
  png_read_end (png, NULL);
  png_destroy_read_struct (&png, &info, NULL);
  free (rows);
  fclose (f);

  img->data = data;
  img->width = (int) w;
  img->height = (int) h;
  img->channels = channels;
  img->stride = stride;
  return 0;
}

int
gcv_test_write_png (const char *path, const uint8_t * data, int width, int height, size_t stride,
    int channels)
{
  FILE *f = fopen (path, "wb");
  png_structp png;
  png_infop info;
  char pngerr[256] = "";

  if (f == NULL)
    return -1;
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, pngerr, png_error_to_buf, png_warning_ignore);
  info = png ? png_create_info_struct (png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct (png ? &png : NULL, NULL);
    fclose (f);
    return -1;
  }
  if (setjmp (png_jmpbuf (png))) {
    png_destroy_write_struct (&png, &info);
    fclose (f);
    return -1;
  }
  png_init_io (png, f);
  png_set_IHDR (png, info, width, height, 8, channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_GRAY,
      PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  for (int y = 0; y < height; y++)
    png_write_row (png, (png_const_bytep) (data + (size_t) y * stride));
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  return fclose (f) == 0 ? 0 : -1;
}

void
gcv_test_image_clear (GcvTestImage * img)
{
  free (img->data);
  memset (img, 0, sizeof (*img));
}

/* ---- luma and planes ---------------------------------------------------- */

uint8_t *
gcv_test_image_luma (const GcvTestImage * img)
{
  uint8_t *l = gcv_test_malloc ((size_t) img->width * img->height);

  for (int y = 0; y < img->height; y++) {
    const uint8_t *row = img->data + (size_t) y * img->stride;
    for (int x = 0; x < img->width; x++) {
      const uint8_t *p = row + (size_t) x * img->channels;
      l[(size_t) y * img->width + x] = img->channels == 1 ? p[0] : gcv_test_luma_rgb (p[0], p[1], p[2]);
    }
  }
  return l;
}

GcvTestImage
gcv_test_image_window (const GcvTestImage * src, int x0, int y0, int w, int h)
{
  GcvTestImage out;

  out.width = w;
  out.height = h;
  out.channels = 3;
  out.stride = (size_t) w * 3;
  out.data = gcv_test_malloc (out.stride * h);
  for (int y = 0; y < h; y++) {
    int sy = ((y0 + y) % src->height + src->height) % src->height;
    for (int x = 0; x < w; x++) {
      int sx = ((x0 + x) % src->width + src->width) % src->width;
      const uint8_t *p = src->data + (size_t) sy * src->stride + (size_t) sx * src->channels;
      uint8_t *q = out.data + (size_t) y * out.stride + (size_t) x * 3;
      if (src->channels == 1) {
        q[0] = q[1] = q[2] = p[0];
      } else {
        q[0] = p[0];
        q[1] = p[1];
        q[2] = p[2];
      }
    }
  }
  return out;
}

GcvPlane
gcv_test_make_plane (GcvLumaInput input, const GcvTestImage * rgb, size_t pad_bytes, uint32_t seed)
{
  GcvPlane plane;
  int bpp = gcv_luma_bytes_per_pixel (input.layout);
  uint32_t st = seed * 2654435761u + 12345u;
  uint8_t *buf;

  plane.width = rgb->width;
  plane.height = rgb->height;
  plane.stride = (size_t) rgb->width * bpp + pad_bytes;
  buf = gcv_test_malloc (plane.stride * rgb->height);
  /* garbage everywhere first: padding keeps it */
  for (size_t i = 0; i < plane.stride * rgb->height; i++)
    buf[i] = (uint8_t) (gcv_test_rand (&st) >> 24);
  for (int y = 0; y < rgb->height; y++) {
    uint8_t *row = buf + (size_t) y * plane.stride;
    for (int x = 0; x < rgb->width; x++) {
      const uint8_t *p = rgb->data + (size_t) y * rgb->stride + (size_t) x * rgb->channels;
      unsigned r = p[0], g = rgb->channels >= 3 ? p[1] : p[0], b = rgb->channels >= 3 ? p[2] : p[0];
      unsigned l = gcv_test_luma_rgb (r, g, b);
      switch (input.layout) {
        case GCV_LUMA_GRAY8:
          row[x] = (uint8_t) l;
          break;
        case GCV_LUMA_GRAY16LE:{
          int d = (int) (gcv_test_rand (&st) % 257u) - 128;
          int v;
          /* make sure the extreme offsets occur often */
          if ((x + y) % 7 == 0)
            d = ((x + y) / 7) % 2 ? 128 : -128;
          v = (int) l * 257 + d;
          if (v < 0)
            v = 0;
          if (v > 65535)
            v = 65535;
          row[2 * x] = (uint8_t) (v & 0xff);
          row[2 * x + 1] = (uint8_t) (v >> 8);
          break;
        }
        case GCV_LUMA_PACKED32:{
          uint8_t *q = row + 4 * x;
          /* the fourth byte keeps its garbage */
          q[input.r_offset] = (uint8_t) r;
          q[input.g_offset] = (uint8_t) g;
          q[input.b_offset] = (uint8_t) b;
          break;
        }
      }
    }
  }
  plane.data = buf;
  return plane;
}

uint8_t *
gcv_test_plane_luma (GcvLumaInput input, const GcvPlane * plane)
{
  uint8_t *l = gcv_test_malloc ((size_t) plane->width * plane->height);

  for (int y = 0; y < plane->height; y++) {
    const uint8_t *row = (const uint8_t *) plane->data + (size_t) y * plane->stride;
    for (int x = 0; x < plane->width; x++) {
      unsigned v;
      switch (input.layout) {
        case GCV_LUMA_GRAY8:
          v = row[x];
          break;
        case GCV_LUMA_GRAY16LE:
          v = ((unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8));
          v = (v + 128u) / 257u;
          break;
        default:{
          const uint8_t *q = row + 4 * x;
          v = gcv_test_luma_rgb (q[input.r_offset], q[input.g_offset], q[input.b_offset]);
          break;
        }
      }
      l[(size_t) y * plane->width + x] = (uint8_t) v;
    }
  }
  return l;
}

GcvLumaInput
gcv_test_layout_gray8 (void)
{
  GcvLumaInput in = { GCV_LUMA_GRAY8, 0, 0, 0 };
  return in;
}

GcvLumaInput
gcv_test_layout_gray16le (void)
{
  GcvLumaInput in = { GCV_LUMA_GRAY16LE, 0, 0, 0 };
  return in;
}

GcvLumaInput
gcv_test_layout_packed32 (int r_offset, int g_offset, int b_offset)
{
  GcvLumaInput in = { GCV_LUMA_PACKED32, (uint8_t) r_offset, (uint8_t) g_offset, (uint8_t) b_offset };
  return in;
}

const char *
gcv_test_layout_name (GcvLumaInput input, char *buf, size_t len)
{
  if (input.layout == GCV_LUMA_GRAY8) {
    snprintf (buf, len, "GRAY8");
  } else if (input.layout == GCV_LUMA_GRAY16LE) {
    snprintf (buf, len, "GRAY16LE");
  } else {
    char n[5] = "xxxx";
    n[input.r_offset & 3] = 'R';
    n[input.g_offset & 3] = 'G';
    n[input.b_offset & 3] = 'B';
    snprintf (buf, len, "%s", n);
  }
  return buf;
}

/* ---- environment ---------------------------------------------------------- */

const char *
gcv_test_data_dir (void)
{
  const char *d = getenv ("GCV_TEST_DATA_DIR");

  if (d != NULL && *d)
    return d;
#ifdef GCV_TEST_DATA_DIR_DEFAULT
  return GCV_TEST_DATA_DIR_DEFAULT;
#else
  return ".";
#endif
}

char *
gcv_test_path (const char *rel)
{
  const char *dir = gcv_test_data_dir ();
  size_t n = strlen (dir) + strlen (rel) + 2;
  char *p = gcv_test_malloc (n);

  snprintf (p, n, "%s/%s", dir, rel);
  return p;
}

const char *
gcv_test_dump_dir (void)
{
  const char *d = getenv ("GCV_TEST_DUMP_DIR");

  return d != NULL && *d ? d : NULL;
}

int
gcv_test_gpu_policy (void)
{
  const char *req = getenv ("GST_CUDA_VIDEO_REQUIRE_GPU");
  int require = req != NULL && *req && strcmp (req, "0") != 0;
  char why[600];
  int n = 0;

#if GCV_TEST_WITH_CUDA
  {
    GcvError err;
    memset (&err, 0, sizeof (err));
    n = gcv_cuda_device_count (&err);
    if (n > 0)
      return 1;
    snprintf (why, sizeof (why), "no usable CUDA device: %s",
        err.message[0] ? err.message : "gcv_cuda_device_count() returned 0");
  }
#else
  snprintf (why, sizeof (why), "built without CUDA (GCV_HAVE_CUDA unset)");
#endif
  (void) n;
  if (require) {
    fprintf (stderr, "FAIL: GST_CUDA_VIDEO_REQUIRE_GPU=%s but %s\n", req, why);
    fflush (stderr);
    exit (1);
  }
  printf ("SKIP: %s (set GST_CUDA_VIDEO_REQUIRE_GPU=1 to make this a failure)\n", why);
  fflush (stdout);
  exit (GCV_TEST_SKIP);
}

/* ---- comparison ------------------------------------------------------------ */

long
gcv_test_compare_u8 (const uint8_t * a, size_t a_stride, const uint8_t * b, size_t b_stride, int w,
    int h, int *first_x, int *first_y)
{
  long n = 0;

  *first_x = *first_y = -1;
  for (int y = 0; y < h; y++) {
    const uint8_t *ra = a + (size_t) y * a_stride, *rb = b + (size_t) y * b_stride;
    for (int x = 0; x < w; x++)
      if (ra[x] != rb[x]) {
        if (n == 0) {
          *first_x = x;
          *first_y = y;
        }
        n++;
      }
  }
  return n;
}

/* ---- scenes ------------------------------------------------------------------ */

const char *const gcv_test_photos[] = { "camera.png", "chelsea.png", "coffee.png", "astronaut.png" };
const int gcv_test_n_photos = 4;

void
gcv_test_load_photos (GcvTestImage * photos)
{
  for (int i = 0; i < gcv_test_n_photos; i++) {
    char rel[128], err[512], *path;
    snprintf (rel, sizeof (rel), "data/%s", gcv_test_photos[i]);
    path = gcv_test_path (rel);
    if (gcv_test_load_png (path, &photos[i], err, sizeof (err)) != 0) {
      fprintf (stderr, "FAIL: %s (set GCV_TEST_DATA_DIR to the source tests/ directory)\n", err);
      exit (1);
    }
    free (path);
  }
}

static GcvTestImage
rgb_new (int w, int h)
{
  GcvTestImage img;

  img.width = w;
  img.height = h;
  img.channels = 3;
  img.stride = (size_t) w * 3;
  img.data = gcv_test_malloc (img.stride * h);
  memset (img.data, 0, img.stride * h);
  return img;
}

static void
rgb_put (GcvTestImage * img, int x, int y, int r, int g, int b)
{
  uint8_t *p;

  if (x < 0 || y < 0 || x >= img->width || y >= img->height)
    return;
  p = img->data + (size_t) y * img->stride + (size_t) x * 3;
  p[0] = (uint8_t) (r < 0 ? 0 : r > 255 ? 255 : r);
  p[1] = (uint8_t) (g < 0 ? 0 : g > 255 ? 255 : g);
  p[2] = (uint8_t) (b < 0 ? 0 : b > 255 ? 255 : b);
}

long
gcv_test_spiral_path (int w, int h, int gap, int *xs, int *ys, long max)
{
  int step = gap + 1;
  int l = 1, t = 1, r = w - 2, b = h - 2;
  int x = l, y = t;
  long n = 0;

#define ADD() do { if (n < max) { xs[n] = x; ys[n] = y; } n++; } while (0)
  if (r < l || b < t)
    return 0;
  ADD ();
  for (;;) {
    while (x < r) {
      x++;
      ADD ();
    }
    if (t + step > b)
      break;
    while (y < b) {
      y++;
      ADD ();
    }
    if (r - step < l)
      break;
    while (x > l) {
      x--;
      ADD ();
    }
    if (b - step < t + step)
      break;
    while (y > t + step) {
      y--;
      ADD ();
    }
    l += step;
    t += step;
    r -= step;
    b -= step;
    if (l > r || t > b)
      break;
  }
#undef ADD
  return n;
}

GcvTestImage
gcv_test_spiral_image (int w, int h, int gap, int bg, int line, int strong_block)
{
  GcvTestImage img = rgb_new (w, h);
  long n = gcv_test_spiral_path (w, h, gap, NULL, NULL, 0);
  int *xs = gcv_test_malloc (sizeof (int) * (size_t) (n > 0 ? n : 1));
  int *ys = gcv_test_malloc (sizeof (int) * (size_t) (n > 0 ? n : 1));

  gcv_test_spiral_path (w, h, gap, xs, ys, n);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      rgb_put (&img, x, y, bg, bg, bg);
  for (long i = 0; i < n; i++)
    rgb_put (&img, xs[i], ys[i], line, line, line);
  if (n > 0)
    for (int j = 0; j < strong_block; j++)
      for (int i = 0; i < strong_block; i++)
        rgb_put (&img, xs[0] + i, ys[0] + j, 255, 255, 255);
  free (xs);
  free (ys);
  return img;
}

static GcvTestScene *
scene_add (GcvTestScene ** scenes, int *n, int *cap)
{
  GcvTestScene *s;

  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 32;
    *scenes = realloc (*scenes, sizeof (GcvTestScene) * (size_t) * cap);
    if (*scenes == NULL) {
      fprintf (stderr, "FAIL: out of memory\n");
      exit (1);
    }
  }
  s = &(*scenes)[(*n)++];
  memset (s, 0, sizeof (*s));
  return s;
}

GcvTestScene *
gcv_test_scenes_new (int *n_scenes)
{
  static const int win[][2] = {
    {1, 1}, {2, 2}, {3, 3}, {7, 5}, {5, 7}, {1, 37}, {37, 1}, {2, 9}, {9, 2}, {16, 16}, {33, 17},
    {64, 48}, {127, 65},
  };
  GcvTestScene *scenes = NULL, *s;
  GcvTestImage photos[4];
  int n = 0, cap = 0;
  uint32_t st = 20240601u;

  gcv_test_load_photos (photos);
  for (int i = 0; i < gcv_test_n_photos; i++) {
    s = scene_add (&scenes, &n, &cap);
    snprintf (s->name, sizeof (s->name), "%s", gcv_test_photos[i]);
    s->rgb = gcv_test_image_window (&photos[i], 0, 0, photos[i].width, photos[i].height);
    s->large = 1;
  }
  /* a frame larger than the photo, odd in both directions */
  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "chelsea.png tiled 641x481 from (200,100)");
  s->rgb = gcv_test_image_window (&photos[1], 200, 100, 641, 481);
  s->large = 1;

  for (size_t k = 0; k < sizeof (win) / sizeof (win[0]); k++) {
    int places = win[k][0] * win[k][1] <= 16 ? 4 : 2;
    for (int p = 0; p < places; p++) {
      int ph = (int) ((k + p) % 4);
      int x0 = (int) (gcv_test_rand (&st) % (uint32_t) photos[ph].width);
      int y0 = (int) (gcv_test_rand (&st) % (uint32_t) photos[ph].height);
      s = scene_add (&scenes, &n, &cap);
      snprintf (s->name, sizeof (s->name), "%s window %dx%d at (%d,%d)", gcv_test_photos[ph],
          win[k][0], win[k][1], x0, y0);
      s->rgb = gcv_test_image_window (&photos[ph], x0, y0, win[k][0], win[k][1]);
    }
  }

  /* synthetic patterns */
  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "flat 50x40");
  s->rgb = rgb_new (50, 40);
  memset (s->rgb.data, 128, s->rgb.stride * s->rgb.height);

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "noise 97x61");
  s->rgb = rgb_new (97, 61);
  for (size_t i = 0; i < s->rgb.stride * s->rgb.height; i++)
    s->rgb.data[i] = (uint8_t) (gcv_test_rand (&st) >> 24);

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "checkerboard 1px 0/255 40x30");
  s->rgb = rgb_new (40, 30);
  for (int y = 0; y < 30; y++)
    for (int x = 0; x < 40; x++) {
      int v = ((x + y) & 1) ? 255 : 0;
      rgb_put (&s->rgb, x, y, v, v, v);
    }

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "checkerboard 3px colour 45x31");
  s->rgb = rgb_new (45, 31);
  for (int y = 0; y < 31; y++)
    for (int x = 0; x < 45; x++) {
      int c = ((x / 3 + y / 3) & 1);
      rgb_put (&s->rgb, x, y, c ? 255 : 0, c ? 0 : 255, (x * 5) & 255);
    }

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "steps 64x64");
  s->rgb = rgb_new (64, 64);
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 64; x++) {
      int v = 20 + (x >= 20) * 60 + (y >= 40) * 50 + (x + y >= 70) * 40 + (2 * x - y >= 50) * 30
          + (x - 2 * y >= 5) * 25;
      rgb_put (&s->rgb, x, y, v, v, v);
    }

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "rings 128x96");
  s->rgb = rgb_new (128, 96);
  for (int y = 0; y < 96; y++)
    for (int x = 0; x < 128; x++) {
      double r = sqrt ((x - 61.3) * (x - 61.3) + (y - 50.7) * (y - 50.7));
      int v = (int) (128.0 + 110.0 * sin (r / 2.7));
      rgb_put (&s->rgb, x, y, v, 255 - v, v / 2);
    }

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "ramp 70x50");
  s->rgb = rgb_new (70, 50);
  for (int y = 0; y < 50; y++)
    for (int x = 0; x < 70; x++) {
      int v = 3 * x + 2 * y;
      rgb_put (&s->rgb, x, y, v, v, v);
    }

  s = scene_add (&scenes, &n, &cap);
  snprintf (s->name, sizeof (s->name), "spiral line 300x300");
  s->rgb = gcv_test_spiral_image (300, 300, 5, 100, 120, 5);
  s->large = 1;

  for (int i = 0; i < gcv_test_n_photos; i++)
    gcv_test_image_clear (&photos[i]);
  *n_scenes = n;
  return scenes;
}

void
gcv_test_scenes_free (GcvTestScene * scenes, int n_scenes)
{
  for (int i = 0; i < n_scenes; i++)
    gcv_test_image_clear (&scenes[i].rgb);
  free (scenes);
}

GcvLumaInput
gcv_test_layout_by_index (int i)
{
  switch (i) {
    case 0:
      return gcv_test_layout_gray8 ();
    case 1:
      return gcv_test_layout_gray16le ();
    case 2:
      return gcv_test_layout_packed32 (0, 1, 2);        /* RGBA / RGBx */
    case 3:
      return gcv_test_layout_packed32 (2, 1, 0);        /* BGRA / BGRx */
    case 4:
      return gcv_test_layout_packed32 (1, 2, 3);        /* ARGB / xRGB */
    default:
      return gcv_test_layout_packed32 (3, 2, 1);        /* ABGR / xBGR */
  }
}

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
void
gcv_test_fill_device (GcvTestDeviceHog * hog)
{
  const int max = (int) (sizeof (hog->blocks) / sizeof (hog->blocks[0]));
  size_t chunk = (size_t) 1 << 30;
  GcvError err;

  hog->n = 0;
  hog->bytes = 0;
  while (hog->n < max && chunk >= ((size_t) 1 << 20)) {
    if (gcv_cuda_malloc (&hog->blocks[hog->n], chunk, &err) == GCV_OK) {
      hog->n++;
      hog->bytes += chunk;
    } else {
      chunk >>= 1;
    }
  }
}

void
gcv_test_release_device (GcvTestDeviceHog * hog)
{
  while (hog->n > 0)
    gcv_cuda_free (hog->blocks[--hog->n]);
  hog->bytes = 0;
}

void *
gcv_test_cuda_setup (void)
{
  void *stream = NULL;
  char desc[256] = "";
  GcvError err;

  gcv_test_gpu_policy ();
  memset (&err, 0, sizeof (err));
  if (gcv_cuda_set_device (0, &err) != GCV_OK || gcv_cuda_stream_new (&stream, &err) != GCV_OK) {
    fprintf (stderr, "FAIL: CUDA setup: %s\n", err.message);
    exit (1);
  }
  gcv_cuda_device_describe (0, desc, sizeof (desc), &err);
  printf ("device: %s\n", desc);
  return stream;
}

int
gcv_test_device_upload (const GcvPlane * host, size_t row_bytes, int pitched, void *stream, GcvPlane * dev,
    const char *what)
{
  GcvError err;

  memset (&err, 0, sizeof (err));
  *dev = *host;
  dev->data = NULL;
  if (pitched) {
    if (gcv_cuda_malloc_2d (&dev->data, &dev->stride, row_bytes, host->height, &err) != GCV_OK
        || gcv_cuda_memset_2d (dev->data, dev->stride, 0xcd, dev->stride, host->height, stream, &err) != GCV_OK
        || gcv_cuda_upload_2d (dev->data, dev->stride, host->data, host->stride, row_bytes, host->height, stream,
            &err) != GCV_OK) {
      gcv_test_fail ("%s %dx%d: %s", what, host->width, host->height, err.message);
      return -1;
    }
  } else if (gcv_cuda_malloc (&dev->data, host->stride * host->height, &err) != GCV_OK
      || gcv_cuda_upload_2d (dev->data, host->stride, host->data, host->stride, host->stride, host->height, stream,
          &err) != GCV_OK) {
    gcv_test_fail ("%s %dx%d: %s", what, host->width, host->height, err.message);
    return -1;
  }
  if (gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
    gcv_test_fail ("upload: %s", err.message);
    return -1;
  }
  return 0;
}

int
gcv_test_device_alloc (int w, int h, size_t row_bytes, int pitched, size_t pad, GcvPlane * dev, const char *what)
{
  GcvError err;

  memset (&err, 0, sizeof (err));
  dev->width = w;
  dev->height = h;
  dev->data = NULL;
  if (pitched) {
    if (gcv_cuda_malloc_2d (&dev->data, &dev->stride, row_bytes, h, &err) != GCV_OK) {
      gcv_test_fail ("%s %dx%d: %s", what, w, h, err.message);
      return -1;
    }
  } else {
    dev->stride = row_bytes + pad;
    if (gcv_cuda_malloc (&dev->data, dev->stride * h, &err) != GCV_OK) {
      gcv_test_fail ("%s %dx%d: %s", what, w, h, err.message);
      return -1;
    }
  }
  return 0;
}

void *
gcv_test_pinned_malloc (size_t size)
{
  GcvError err;
  void *p = NULL;

  memset (&err, 0, sizeof (err));
  if (gcv_cuda_host_alloc (&p, size ? size : 1, &err) != GCV_OK) {
    fprintf (stderr, "FAIL: page-locked allocation of %zu bytes: %s\n", size, err.message);
    exit (1);
  }
  return p;
}
#endif

/* ---- typed samples ------------------------------------------------------------- */

double
gcv_test_sample_get (const void *row, GcvSampleType t, size_t i)
{
  const uint8_t *r = row;
  if (t == GCV_SAMPLE_U8)
    return r[i];
  if (t == GCV_SAMPLE_U16) {
    uint16_t v;
    memcpy (&v, r + 2 * i, 2);
    return v;
  }
  {
    float v;
    memcpy (&v, r + 4 * i, 4);
    return v;
  }
}

void
gcv_test_sample_put (void *row, GcvSampleType t, size_t i, double v)
{
  uint8_t *r = row;
  if (t == GCV_SAMPLE_U8) {
    r[i] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
  } else if (t == GCV_SAMPLE_U16) {
    uint16_t u = (uint16_t) (v < 0 ? 0 : v > 65535 ? 65535 : v);
    memcpy (r + 2 * i, &u, 2);
  } else {
    float f = (float) v;
    memcpy (r + 4 * i, &f, 4);
  }
}
