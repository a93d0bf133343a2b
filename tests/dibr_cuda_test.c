/* gst-cuda-video: the CUDA backend of DIBR (kernels/dibr.cu) against the
 * CPU backend (cpu/dibr_cpu.c): the cleaned depth (stage 1), the rendered
 * colour, depth and holes mask, and the composed output frames, byte for
 * byte (memcmp).  The backend takes device planes and the test's stream
 * and only queues work: the test uploads its host frames
 * (gcv_test_device_upload: pitched, or one block with the host's padded
 * stride and its garbage), downloads the outputs and waits for the stream
 * itself.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure.
 * Cases:
 *  - the ray-cast scene of tests/dibr_scene.h: camera A -> B (simple mode)
 *    and A -> C (full mode), 8- and 16-bit depth, the defaults and median
 *    1 / 3 / 7 x DCBF 1 / 5 / 11 / 31 with several sigmas; A -> B with
 *    zero_is_unknown and unknown blocks;
 *  - random block depths (many z-buffer conflicts, ties), 1 and 2 views
 *    (the second moved and of another size), zero_is_unknown with unknown
 *    pixels, sizes 1x1, 3x2, 64x48, 101x77, 641x479; padded and pitched
 *    device planes in and out: the outputs' row padding stays untouched;
 *  - a 1920x1080 stereo pair: both eyes rendered on the stream before one
 *    wait (the second reusing the cleaned depth), then a new view set and
 *    rendered without a wait in between (the cleaned depth made again);
 *    the eyes composed on the device (every show mode, side by side and
 *    anaglyph) equal the CPU's composition of the CPU's eyes;
 *  - packed 2D+Z frames (the elements' layouts: 4-byte pixels side by
 *    side, top and bottom, depth in a colour byte; I420; 16-bit samples
 *    with 16-bit depth) in device memory unpacked by the GPU: the view's
 *    colour plane (gcv_dibr_cuda_view_colour) equals gcv_dibr_unpack()'s,
 *    a render of the unpacked view the CPU's render of the CPU-unpacked
 *    one; sizes 1x1 .. 1920x1080; bad frames rejected;
 *  - gcv_dibr_cuda_compose == gcv_dibr_compose: every show mode, the
 *    elements' placements (virtual, side by side, top-bottom, anaglyph)
 *    and an eye inside a larger frame, six byte orders, odd sizes, NaN and
 *    out-of-range depths, aligned (32-bit stores) and unaligned output rows,
 *    in place; the whole output buffer compared (nothing else written);
 *  - bad calls rejected with GCV_ERROR_INVALID (bad params, view index out
 *    of range, render or clean without views set, wrong plane sizes,
 *    unaligned output rows, bad cameras) and the context working after
 *    them; a full device makes the set of a larger view fail with
 *    GCV_ERROR_NO_MEMORY, and the context works after it.
 * Then (not in quick mode) the per-stage event times of 800x600 with a
 * DCBF 11x11 (the paper's Table 5 case) and of a 1080p render.
 * GCV_TEST_QUICK=1 (compute-sanitizer) runs the small cases, every kernel
 * and every window size included.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dibr.h"
#include "dibr_scene.h"
#include "gcv-test.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;
static int quick;
static long n_cases, n_pixels;
static uint32_t rng = 987654321u;
static DibrScene *scene;

static GcvPlane
plane_of (void *data, int w, int h, size_t stride)
{
  GcvPlane p;
  p.data = data;
  p.width = w;
  p.height = h;
  p.stride = stride;
  return p;
}

static int
sync_stream (GcvError * err)
{
  return gcv_cuda_stream_sync (stream, err) == GCV_OK;
}

/* ---- views and outputs ------------------------------------------------------------------ */

typedef struct {
  GcvDibrView v;
  uint8_t *rgba, *depth;
} TView;

static void
tview_alloc (TView * t, int w, int h, int bits)
{
  size_t cs = (size_t) w * 4 + 12, ds = (size_t) w * (bits / 8) + 6;
  t->rgba = (uint8_t *) gcv_test_malloc (cs * h);
  t->depth = (uint8_t *) gcv_test_malloc (ds * h);
  /* garbage in the padding */
  for (size_t i = 0; i < cs * h; i++)
    t->rgba[i] = (uint8_t) gcv_test_rand (&rng);
  for (size_t i = 0; i < ds * h; i++)
    t->depth[i] = (uint8_t) gcv_test_rand (&rng);
  t->v.rgba = plane_of (t->rgba, w, h, cs);
  t->v.depth = plane_of (t->depth, w, h, ds);
  t->v.depth_bits = bits;
  gcv_dibr_camera_simple (w, h, 100.0, 0.0, 0.0, &t->v.camera, NULL);
}

static void
tview_free (TView * t)
{
  free (t->rgba);
  free (t->depth);
}

static void
set_depth (TView * t, int x, int y, unsigned v)
{
  uint8_t *row = t->depth + (size_t) y * t->v.depth.stride;
  if (t->v.depth_bits == 16)
    ((uint16_t *) row)[x] = (uint16_t) v;
  else
    row[x] = (uint8_t) v;
}

/* Colour of random 4x3 blocks with noise; depth of random 9x7 blocks (a
 * quarter of them at vmax / 2: ties), unknown (0) at random with
 * zero_unknown. */
static void
tview_random (TView * t, int seed, int zero_unknown)
{
  const int w = t->v.rgba.width, h = t->v.rgba.height;
  const unsigned vmax = t->v.depth_bits == 16 ? 65535u : 255u;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = t->rgba + (size_t) y * t->v.rgba.stride + 4 * (size_t) x;
      uint32_t q = (uint32_t) ((x / 4) * 7919 + (y / 3) * 104729 + seed * 31) * 2654435761u;
      uint32_t r = gcv_test_rand (&rng);
      p[0] = (uint8_t) ((q >> 8) + (r & 7));
      p[1] = (uint8_t) ((q >> 16) + ((r >> 3) & 7));
      p[2] = (uint8_t) ((q >> 24) + ((r >> 6) & 7));
      p[3] = (uint8_t) r;
      q = (uint32_t) ((x / 9) * 7919 + (y / 7) * 104729 + seed * 17) * 2654435761u;
      unsigned v = (q >> 8) % 4 == 0 ? vmax / 2 : (q >> 12) % (vmax + 1);
      if (zero_unknown && gcv_test_rand (&rng) % 40 == 0)
        v = 0;
      set_depth (t, x, y, v);
    }
}

static void
camera_of (const DibrCamera * c, GcvDibrCamera * g)
{
  memcpy (g->K, c->K, sizeof (g->K));
  memcpy (g->E, c->E, sizeof (g->E));
}

/* View of camera A of the standard scene: colour and depth (bits), with
 * unknown 8x8 blocks when zero_unknown. */
static void
tview_scene (TView * t, int w, int h, int bits, int zero_unknown)
{
  DibrCamera ca;
  DibrView va;
  tview_alloc (t, w, h, bits);
  dibr_std_camera_a (w, h, &ca);
  dibr_render (scene, &ca, &va);
  for (int y = 0; y < h; y++)
    memcpy (t->rgba + (size_t) y * t->v.rgba.stride, va.rgba + (size_t) y * w * 4, (size_t) w * 4);
  dibr_depth_plane (&va, scene->z_near, scene->z_far, bits, t->depth, t->v.depth.stride);
  if (zero_unknown)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        if (((x / 8) * 13 + (y / 8) * 7) % 11 == 0)
          set_depth (t, x, y, 0);
  camera_of (&ca, &t->v.camera);
  dibr_view_clear (&va);
}

/* ---- device planes ------------------------------------------------------------------------ */

/* A device copy of a host view (colour and depth; the camera travels
 * along): pitched, or one block with the host's padded stride. */
typedef struct {
  GcvDibrView v;
} DView;

static int
dview_upload (DView * d, const TView * t, int pitched)
{
  const int w = t->v.rgba.width;
  d->v = t->v;
  d->v.rgba.data = d->v.depth.data = NULL;
  return gcv_test_device_upload (&t->v.rgba, (size_t) w * 4, pitched, stream, &d->v.rgba, "view colour") == 0
      && gcv_test_device_upload (&t->v.depth, (size_t) w * (t->v.depth_bits / 8), pitched, stream, &d->v.depth,
      "view depth") == 0;
}

static void
dview_free (DView * d)
{
  gcv_cuda_free (d->v.rgba.data);
  gcv_cuda_free (d->v.depth.data);
}

/* Host outputs of a render: RGBA, float depth, holes, padded rows. */
typedef struct {
  uint8_t *rgba, *holes;
  float *depth;
  GcvPlane pr, pd, ph;
} TOut;

static void
tout_alloc (TOut * o, int W, int H)
{
  size_t cs = (size_t) W * 4 + 8, ds = (size_t) W * 4 + 4, hs = (size_t) W + 3;
  o->rgba = (uint8_t *) gcv_test_malloc (cs * H);
  o->depth = (float *) gcv_test_malloc (ds * H);
  o->holes = (uint8_t *) gcv_test_malloc (hs * H);
  memset (o->rgba, 0x5a, cs * H);
  memset (o->depth, 0x77, ds * H);
  memset (o->holes, 0x11, hs * H);
  o->pr = plane_of (o->rgba, W, H, cs);
  o->pd = plane_of (o->depth, W, H, ds);
  o->ph = plane_of (o->holes, W, H, hs);
}

static void
tout_free (TOut * o)
{
  free (o->rgba);
  free (o->depth);
  free (o->holes);
}

/* Device outputs of a render (pitched, or padded by 8, 4 and 3 bytes), the
 * rows' padding set to 0xee (it must stay so). */
typedef struct {
  GcvPlane pr, pd, ph;
} DOut;

static int
dout_alloc (DOut * o, int W, int H, int pitched)
{
  GcvError err = { GCV_OK, "" };
  memset (o, 0, sizeof (*o));
  if (gcv_test_device_alloc (W, H, (size_t) W * 4, pitched, 8, &o->pr, "device colour output") != 0
      || gcv_test_device_alloc (W, H, (size_t) W * 4, pitched, 4, &o->pd, "device depth output") != 0
      || gcv_test_device_alloc (W, H, (size_t) W, pitched, 3, &o->ph, "device holes output") != 0)
    return 0;
  if (gcv_cuda_memset_2d (o->pr.data, o->pr.stride, 0xee, o->pr.stride, H, stream, &err) != GCV_OK
      || gcv_cuda_memset_2d (o->pd.data, o->pd.stride, 0xee, o->pd.stride, H, stream, &err) != GCV_OK
      || gcv_cuda_memset_2d (o->ph.data, o->ph.stride, 0xee, o->ph.stride, H, stream, &err) != GCV_OK) {
    gcv_test_fail ("device outputs: %s", err.message);
    return 0;
  }
  return 1;
}

static void
dout_free (DOut * o)
{
  gcv_cuda_free (o->pr.data);
  gcv_cuda_free (o->pd.data);
  gcv_cuda_free (o->ph.data);
}

/* Queues the download of a device plane's rows (row_bytes of each) into a
 * host plane. */
static int
download (const GcvPlane * dev, const GcvPlane * host, size_t row_bytes, GcvError * err)
{
  return gcv_cuda_download_2d (host->data, host->stride, dev->data, dev->stride, row_bytes, dev->height, stream,
      err) == GCV_OK;
}

/* Queues the downloads of a render's outputs (depth and holes when given). */
static int
dout_download (const DOut * d, TOut * t, int depth, int holes, GcvError * err)
{
  const size_t W = (size_t) d->pr.width;
  return download (&d->pr, &t->pr, W * 4, err) && (!depth || download (&d->pd, &t->pd, W * 4, err))
      && (!holes || download (&d->ph, &t->ph, W, err));
}

/* Bytes of the device plane's row padding (after row_bytes) that are not
 * 0xee (waits for the stream). */
static long
padding_changed (const GcvPlane * dev, size_t row_bytes)
{
  GcvError err = { GCV_OK, "" };
  uint8_t *h = (uint8_t *) gcv_test_malloc (dev->stride * dev->height);
  long n = 0;
  if (gcv_cuda_download_2d (h, dev->stride, dev->data, dev->stride, dev->stride, dev->height, stream, &err) != GCV_OK
      || !sync_stream (&err)) {
    gcv_test_fail ("padding download: %s", err.message);
    free (h);
    return -1;
  }
  for (int y = 0; y < dev->height; y++)
    for (size_t i = row_bytes; i < dev->stride; i++)
      n += h[dev->stride * y + i] != 0xee;
  free (h);
  return n;
}

/* Rows of the three outputs that differ; the first differing pixel is
 * reported. */
static long
tout_diff (const char *label, const TOut * a, const TOut * b, int W, int H)
{
  long bad = 0;
  int reported = 0;
  for (int y = 0; y < H; y++) {
    const uint8_t *ra = a->rgba + y * a->pr.stride, *rb = b->rgba + y * b->pr.stride;
    const float *da = (const float *) ((const uint8_t *) a->depth + y * a->pd.stride);
    const float *db = (const float *) ((const uint8_t *) b->depth + y * b->pd.stride);
    const uint8_t *ha = a->holes + y * a->ph.stride, *hb = b->holes + y * b->ph.stride;
    if (memcmp (ra, rb, (size_t) W * 4) == 0 && memcmp (da, db, (size_t) W * 4) == 0 && memcmp (ha, hb, W) == 0)
      continue;
    bad++;
    for (int x = 0; x < W && !reported; x++)
      if (memcmp (ra + 4 * x, rb + 4 * x, 4) || memcmp (da + x, db + x, 4) || ha[x] != hb[x]) {
        printf ("  %s: first difference at (%d, %d): CUDA %u %u %u %u z %.9g hole %u, CPU %u %u %u %u z %.9g "
            "hole %u\n", label, x, y, ra[4 * x], ra[4 * x + 1], ra[4 * x + 2], ra[4 * x + 3], da[x], ha[x],
            rb[4 * x], rb[4 * x + 1], rb[4 * x + 2], rb[4 * x + 3], db[x], hb[x]);
        reported = 1;
      }
  }
  return bad;
}

static GcvDibrParams
params (int median, int dcbf, double ss, double sc, double zn, double zf, int zu)
{
  GcvDibrParams p;
  gcv_dibr_params_init (&p);
  p.median_size = median;
  p.dcbf_size = dcbf;
  p.sigma_spatial = ss;
  p.sigma_color = sc;
  p.z_near = zn;
  p.z_far = zf;
  p.zero_is_unknown = zu;
  return p;
}

/* Sets views 0 .. n - 1 of cu from device views.  The stream is waited for
 * first (a view that grows frees its old memory: the header's rule). */
static int
set_views (GcvDibrCuda * cu, const DView * d, int n, int wait_first, GcvError * err)
{
  if (wait_first && !sync_stream (err))
    return 0;
  for (int i = 0; i < n; i++)
    if (gcv_dibr_cuda_set_view (cu, i, &d[i].v, stream, err) != GCV_OK)
      return 0;
  return 1;
}

/* Stage 1 of every view and the render, CUDA (context cu, the views set
 * here from device copies) against the CPU; device planes pitched or
 * padded. */
static void
compare_case (const char *label, GcvDibrCuda * cu, const GcvDibrParams * p, TView * views, int n,
    const GcvDibrCamera * virt, int W, int H, int pitched)
{
  GcvError err = { GCV_OK, "" };
  GcvDibrCpu *cpu = gcv_dibr_cpu_new (W, H, &err);
  GcvDibrView vv[GCV_DIBR_MAX_VIEWS];
  DView dv[GCV_DIBR_MAX_VIEWS];
  TOut oc, og;
  DOut od;
  long bad_clean = 0, bad;
  int ok = cpu != NULL, n_dv = 0;

  n_cases++;
  for (int i = 0; i < n; i++)
    vv[i] = views[i].v;
  for (int i = 0; i < n && ok; i++, n_dv++)
    ok = dview_upload (&dv[i], &views[i], pitched);
  ok = ok && set_views (cu, dv, n, 1, &err);
  /* stage 1 alone */
  for (int i = 0; i < n && ok; i++) {
    const int w = vv[i].rgba.width, h = vv[i].rgba.height;
    const size_t st = (size_t) w * 4 + 4;
    float *a = (float *) gcv_test_malloc (st * h), *b = (float *) gcv_test_malloc (st * h);
    GcvPlane pa = plane_of (a, w, h, st), pb = plane_of (b, w, h, st), dc;
    memset (a, 0x33, st * h);
    ok = gcv_test_device_alloc (w, h, (size_t) w * 4, !pitched, 4, &dc, "device cleaned depth") == 0
        && gcv_dibr_cuda_clean_depth (cu, p, i, &dc, stream, &err) == GCV_OK && download (&dc, &pa, (size_t) w * 4,
        &err) && sync_stream (&err) && gcv_dibr_cpu_clean_depth (cpu, p, &vv[i], &pb, 0, NULL, &err) == GCV_OK;
    for (int y = 0; y < h && ok; y++)
      if (memcmp ((uint8_t *) a + st * y, (uint8_t *) b + st * y, (size_t) w * 4)) {
        if (!bad_clean)
          for (int x = 0; x < w; x++) {
            float fa = ((float *) ((uint8_t *) a + st * y))[x], fb = ((float *) ((uint8_t *) b + st * y))[x];
            if (memcmp (&fa, &fb, 4)) {
              printf ("  %s: view %d cleaned depth differs first at (%d, %d): CUDA %.9g CPU %.9g\n", label, i, x, y,
                  fa, fb);
              break;
            }
          }
        bad_clean++;
      }
    gcv_cuda_free (dc.data);
    free (a);
    free (b);
  }
  GCV_TEST_CHECK (ok, "%s: %s", label, err.message);
  GCV_TEST_CHECK (bad_clean == 0, "%s: the cleaned depth differs in %ld rows", label, bad_clean);
  if (ok) {
    tout_alloc (&oc, W, H);
    tout_alloc (&og, W, H);
    ok = gcv_dibr_cpu_render (cpu, p, vv, n, virt, &oc.pr, &oc.pd, &oc.ph, 0, NULL, &err) == GCV_OK
        && dout_alloc (&od, W, H, pitched);
    /* the views set again (same sizes: no wait), so that stage 1 runs
     * inside the render too */
    ok = ok && set_views (cu, dv, n, 0, &err)
        && gcv_dibr_cuda_render (cu, p, n, virt, &od.pr, &od.pd, &od.ph, stream, &err) == GCV_OK
        && dout_download (&od, &og, 1, 1, &err) && sync_stream (&err);
    GCV_TEST_CHECK (ok, "%s: render: %s", label, err.message);
    if (ok) {
      long holes = 0, pad = padding_changed (&od.pr, (size_t) W * 4) + padding_changed (&od.pd, (size_t) W * 4)
          + padding_changed (&od.ph, (size_t) W);
      bad = tout_diff (label, &og, &oc, W, H);
      GCV_TEST_CHECK (bad == 0, "%s: %dx%d, %d view(s): %ld rows differ from the CPU", label, W, H, n, bad);
      GCV_TEST_CHECK (pad == 0, "%s: %ld bytes of the outputs' row padding were written", label, pad);
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          holes += oc.holes[y * oc.ph.stride + x] != 0;
      n_pixels += (long) W * H;
      printf ("%-44s %4dx%-4d %d view(s) median %2d dcbf %2d: %s (%ld holes)\n", label, W, H, n, p->median_size,
          p->dcbf_size, bad == 0 && bad_clean == 0 ? "equal" : "DIFFERENT", holes);
    }
    dout_free (&od);
    tout_free (&oc);
    tout_free (&og);
  }
  /* the views' device copies may go once the queued copies are done */
  sync_stream (&err);
  for (int i = 0; i < n_dv; i++)
    dview_free (&dv[i]);
  gcv_dibr_cpu_free (cpu);
}

static void
test_scene (void)
{
  const int W = quick ? 160 : 320, H = quick ? 120 : 240;
  GcvError err = { GCV_OK, "" };
  GcvDibrCuda *cu = gcv_dibr_cuda_new (W, H, &err);
  const double zn = scene->z_near, zf = scene->z_far;
  char label[128];

  GCV_TEST_CHECK (cu != NULL, "scene: new: %s", err.message);
  if (!cu)
    return;
  for (int target = 0; target < 2; target++)
    for (int bits = 8; bits <= 16; bits += 8) {
      DibrCamera cb;
      GcvDibrCamera virt;
      TView t;
      if (target == 0)
        dibr_std_camera_b (W, H, &cb);
      else
        dibr_std_camera_c (W, H, &cb);
      camera_of (&cb, &virt);
      tview_scene (&t, W, H, bits, 0);
      static const int med[] = { 1, 3, 7 }, dcbf[] = { 1, 5, 11, 31 };
      static const double sig[][2] = { {3, 12}, {1.5, 4}, {8, 40}, {0.3, 900} };
      for (int m = 0; m < 3; m++)
        for (int d = 0; d < 4; d++) {
          const int si = (m + d + target + bits / 8) % 4;
          if (quick && (m + d) % 2)
            continue;
          GcvDibrParams p = params (med[m], dcbf[d], sig[si][0], sig[si][1], zn, zf, 0);
          snprintf (label, sizeof (label), "scene A -> %s %2d-bit s %.1f/%.0f", target ? "C" : "B", bits,
              sig[si][0], sig[si][1]);
          compare_case (label, cu, &p, &t, 1, &virt, W, H, (m + d) % 2);
        }
      /* the defaults */
      GcvDibrParams p = params (3, 11, 3, 12, zn, zf, 0);
      snprintf (label, sizeof (label), "scene A -> %s %2d-bit defaults", target ? "C" : "B", bits);
      compare_case (label, cu, &p, &t, 1, &virt, W, H, target);
      tview_free (&t);
      /* unknown blocks */
      tview_scene (&t, W, H, bits, 1);
      p.zero_is_unknown = 1;
      snprintf (label, sizeof (label), "scene A -> %s %2d-bit zero-is-unknown", target ? "C" : "B", bits);
      compare_case (label, cu, &p, &t, 1, &virt, W, H, 0);
      p.median_size = 1;
      p.dcbf_size = 5;
      compare_case (label, cu, &p, &t, 1, &virt, W, H, 1);
      tview_free (&t);
    }
  sync_stream (&err);
  gcv_dibr_cuda_free (cu);
}

static void
test_random (void)
{
  static const struct {
    int W, H, n, bits, median, dcbf, zu;
    double f, b, zc;
  } cases[] = {
    {1, 1, 1, 8, 3, 11, 0, 100.0, 0.1, 3.0},
    {1, 1, 2, 16, 15, 31, 1, 100.0, 0.1, 3.0},
    {3, 2, 1, 8, 1, 1, 1, 100.0, 0.1, 3.0},
    {3, 2, 2, 16, 3, 5, 1, 50.0, -0.2, 0.0},
    {64, 48, 1, 8, 1, 1, 1, 80.0, 0.3, 2.0},
    {64, 48, 2, 8, 3, 11, 0, 80.0, 0.3, 2.0},
    {64, 48, 2, 16, 15, 31, 1, 80.0, -0.3, 2.0},
    {101, 77, 1, 16, 5, 7, 1, 150.0, -0.5, 4.0},
    {101, 77, 2, 8, 9, 3, 0, 150.0, 0.5, 0.0},
    {641, 479, 1, 8, 3, 11, 1, 600.0, 0.2, 3.0},
    {641, 479, 2, 16, 1, 1, 0, 600.0, 0.2, 0.0},
    {641, 479, 2, 16, 7, 31, 1, 600.0, -0.4, 3.0},
  };
  char label[128];
  for (size_t ci = 0; ci < sizeof (cases) / sizeof (cases[0]); ci++) {
    const int W = cases[ci].W, H = cases[ci].H, n = cases[ci].n;
    if (quick && W > 600)
      continue;
    GcvError err = { GCV_OK, "" };
    GcvDibrCuda *cu = gcv_dibr_cuda_new (W, H, &err);
    GCV_TEST_CHECK (cu != NULL, "random: new: %s", err.message);
    if (!cu)
      continue;
    TView views[2];
    for (int i = 0; i < n; i++) {
      /* the second view: another size, moved to the left */
      const int w = i ? W + 5 : W, h = i ? (H > 3 ? H - 3 : H + 1) : H;
      tview_alloc (&views[i], w, h, cases[ci].bits);
      tview_random (&views[i], (int) ci * 3 + i, cases[ci].zu);
      gcv_dibr_camera_simple (w, h, cases[ci].f, 0.0, 0.0, &views[i].v.camera, NULL);
      if (i == 1)
        views[i].v.camera.E[3] = 0.1;
    }
    GcvDibrCamera virt;
    gcv_dibr_camera_simple (W, H, cases[ci].f, cases[ci].b, cases[ci].zc, NULL, &virt);
    GcvDibrParams p = params (cases[ci].median, cases[ci].dcbf, 2.0 + ci % 3, 10.0 + 7 * (ci % 4), 1.0, 8.0,
        cases[ci].zu);
    snprintf (label, sizeof (label), "random %2d-bit%s", cases[ci].bits, cases[ci].zu ? " zero-is-unknown" : "");
    compare_case (label, cu, &p, views, n, &virt, W, H, (int) (ci % 2));
    for (int i = 0; i < n; i++)
      tview_free (&views[i]);
    sync_stream (&err);
    gcv_dibr_cuda_free (cu);
  }
}

/* ---- output frames ------------------------------------------------------------------------ */

/* Byte order number i (0 .. 23) of the output's 4-byte pixels: every
 * placement of R, G, B and the fourth byte (0: RGBA / RGBx, 2: BGRA /
 * BGRx ...), and its name ("RGBx", "xBGR": x the fourth byte). */
static GcvDibrPixelOrder
order_of (int i, char name[5])
{
  static const int fact[4] = { 6, 2, 1, 1 };
  int left[4] = { 0, 1, 2, 3 }, *dst[4], n = 4;
  GcvDibrPixelOrder o;

  dst[0] = &o.r;
  dst[1] = &o.g;
  dst[2] = &o.b;
  dst[3] = &o.x;
  i %= 24;
  /* i in the factorial number system: which of the bytes left each takes */
  for (int k = 0; k < 4; k++) {
    const int j = i / fact[k];
    i %= fact[k];
    *dst[k] = left[j];
    for (int m = j; m < n - 1; m++)
      left[m] = left[m + 1];
    n--;
  }
  name[o.r] = 'R';
  name[o.g] = 'G';
  name[o.b] = 'B';
  name[o.x] = 'x';
  name[4] = '\0';
  return o;
}

/* gcv_dibr_cuda_compose (device eyes) and gcv_dibr_compose (host eyes)
 * into an ow x oh output of the same initial bytes (random, padding
 * included): the whole buffers must be equal.  Output rows padded by
 * `pad` bytes (pad % 4 != 0: the kernel's byte stores) or pitched (pad <
 * 0: 32-bit stores).  Returns the differing rows. */
static long
compose_compare (const char *label, const GcvDibrEye * host, const GcvDibrEye * dev, int n, int anaglyph,
    GcvDibrShow show, const GcvDibrDecode * dec, const GcvDibrPixelOrder * order, int ow, int oh, int pad)
{
  GcvError err = { GCV_OK, "" };
  GcvPlane dout;
  const size_t row = (size_t) ow * 4;
  uint8_t *want, *got;
  GcvPlane hout;
  long bad = 0;
  int ok;

  n_cases++;
  if (gcv_test_device_alloc (ow, oh, row, pad < 0, pad < 0 ? 0 : (size_t) pad, &dout, "compose output") != 0)
    return -1;
  want = (uint8_t *) gcv_test_malloc (dout.stride * oh);
  got = (uint8_t *) gcv_test_malloc (dout.stride * oh);
  for (size_t i = 0; i < dout.stride * oh; i++)
    want[i] = (uint8_t) gcv_test_rand (&rng);
  hout = plane_of (want, ow, oh, dout.stride);
  ok = gcv_cuda_upload_2d (dout.data, dout.stride, want, dout.stride, dout.stride, oh, stream, &err) == GCV_OK
      && gcv_dibr_cuda_compose (dev, n, anaglyph, show, dec, order, &dout, stream, &err) == GCV_OK
      && gcv_cuda_download_2d (got, dout.stride, dout.data, dout.stride, dout.stride, oh, stream, &err) == GCV_OK
      && sync_stream (&err) && gcv_dibr_compose (host, n, anaglyph, show, dec, order, &hout, 0, NULL, &err) == GCV_OK;
  GCV_TEST_CHECK (ok, "%s: %s", label, err.message);
  for (int y = 0; y < oh && ok; y++)
    if (memcmp (got + dout.stride * y, want + dout.stride * y, dout.stride)) {
      if (!bad)
        for (size_t i = 0; i < dout.stride; i++)
          if (got[dout.stride * y + i] != want[dout.stride * y + i]) {
            printf ("  %s: first difference at byte %zu of row %d: CUDA %u CPU %u\n", label, i, y,
                got[dout.stride * y + i], want[dout.stride * y + i]);
            break;
          }
      bad++;
    }
  GCV_TEST_CHECK (bad == 0, "%s: %ld rows of the output differ from the CPU's", label, bad);
  if (ok)
    n_pixels += (long) ow * oh;
  gcv_cuda_free (dout.data);
  free (want);
  free (got);
  return ok ? bad : -1;
}

/* Both eyes of a stereo pair queued before one wait; a new view rendered
 * right after; the eyes composed on the device against the CPU. */
static void
test_stereo (void)
{
  const int W = quick ? 480 : 1920, H = quick ? 270 : 1080;
  GcvError err = { GCV_OK, "" };
  GcvDibrCuda *cu = gcv_dibr_cuda_new (W, H, &err);
  GcvDibrCpu *cpu = gcv_dibr_cpu_new (W, H, &err);
  GcvDibrParams p = params (3, 11, 3, 12, scene->z_near, scene->z_far, 0);
  const double f = dibr_std_focal (W);
  GcvDibrCamera left, right;
  TView t, t2;
  DView d, d2;
  TOut g[2], c[2];
  DOut o[2];
  int ok = cu && cpu;

  n_cases++;
  memset (&d, 0, sizeof (d));
  memset (&d2, 0, sizeof (d2));
  memset (o, 0, sizeof (o));
  tview_scene (&t, W, H, 16, 0);
  tview_alloc (&t2, W, H, 16);
  tview_random (&t2, 77, 0);
  t2.v.camera = t.v.camera;
  gcv_dibr_camera_simple (W, H, f, -0.03, 3.0, NULL, &left);
  gcv_dibr_camera_simple (W, H, f, 0.03, 3.0, NULL, &right);
  for (int e = 0; e < 2; e++) {
    tout_alloc (&g[e], W, H);
    tout_alloc (&c[e], W, H);
  }
  ok = ok && dview_upload (&d, &t, 1) && dview_upload (&d2, &t2, 0) && dout_alloc (&o[0], W, H, 1)
      && dout_alloc (&o[1], W, H, 0) && sync_stream (&err)
      && gcv_dibr_cuda_set_view (cu, 0, &d.v, stream, &err) == GCV_OK
      && gcv_dibr_cuda_render (cu, &p, 1, &left, &o[0].pr, &o[0].pd, &o[0].ph, stream, &err) == GCV_OK
      && gcv_dibr_cuda_render (cu, &p, 1, &right, &o[1].pr, &o[1].pd, &o[1].ph, stream, &err) == GCV_OK
      && dout_download (&o[0], &g[0], 1, 1, &err) && dout_download (&o[1], &g[1], 1, 1, &err) && sync_stream (&err)
      && gcv_dibr_cpu_render (cpu, &p, &t.v, 1, &left, &c[0].pr, &c[0].pd, &c[0].ph, 0, NULL, &err) == GCV_OK
      && gcv_dibr_cpu_render (cpu, &p, &t.v, 1, &right, &c[1].pr, &c[1].pd, &c[1].ph, 0, NULL, &err) == GCV_OK;
  GCV_TEST_CHECK (ok, "stereo: %s", err.message);
  if (ok) {
    long b0 = tout_diff ("stereo left", &g[0], &c[0], W, H), b1 = tout_diff ("stereo right", &g[1], &c[1], W, H);
    GcvDibrTimes tm;
    GCV_TEST_CHECK (b0 == 0 && b1 == 0, "stereo %dx%d: %ld / %ld rows differ from the CPU (left / right)", W, H, b0,
        b1);
    GCV_TEST_CHECK (gcv_dibr_cuda_times (cu, &tm, &err) == GCV_OK && tm.clean_ms >= 0 && tm.warp_ms > 0
        && tm.fill_ms > 0, "stereo: times of the second eye: %s", err.message);
    n_pixels += 2L * W * H;
    printf ("stereo pair %dx%d, both eyes before one wait: %s; the second eye's stages %.3f / %.3f / %.3f ms "
        "(clean reused)\n", W, H, b0 == 0 && b1 == 0 ? "equal" : "DIFFERENT", tm.clean_ms, tm.warp_ms, tm.fill_ms);
  }

  /* the eyes composed as the element does, on the device and on the host */
  for (int show = 0; show < 3 && ok; show++)
    for (int mode = 0; mode < 2; mode++) {
      const int anaglyph = mode == 1;
      GcvDibrEye he[2], de[2];
      GcvDibrDecode dec;
      char label[128], oname[5];
      const GcvDibrPixelOrder order = order_of (5 * show + 7 * mode, oname);
      gcv_dibr_decode_make (&p, 8, &dec);
      for (int e = 0; e < 2; e++) {
        he[e].rgba = c[e].pr;
        he[e].depth = c[e].pd;
        he[e].holes = c[e].ph;
        de[e].rgba = o[e].pr;
        de[e].depth = o[e].pd;
        de[e].holes = o[e].ph;
        he[e].ox = de[e].ox = !anaglyph && e == 1 ? W : 0;
        he[e].oy = de[e].oy = 0;
      }
      snprintf (label, sizeof (label), "stereo eyes composed, show %d, %s %s", show,
          anaglyph ? "anaglyph" : "side by side", oname);
      long bad = compose_compare (label, he, de, 2, anaglyph, (GcvDibrShow) show, &dec, &order,
          anaglyph ? W : 2 * W, H, mode ? 3 : -1);
      printf ("%s: %s\n", label, bad == 0 ? "equal" : "DIFFERENT");
    }

  /* a new view set and rendered with no wait after the pair: the cleaned
   * depth is made again (not the first view's) */
  if (ok) {
    ok = gcv_dibr_cuda_render (cu, &p, 1, &left, &o[0].pr, &o[0].pd, &o[0].ph, stream, &err) == GCV_OK
        && gcv_dibr_cuda_set_view (cu, 0, &d2.v, stream, &err) == GCV_OK
        && gcv_dibr_cuda_render (cu, &p, 1, &right, &o[1].pr, &o[1].pd, &o[1].ph, stream, &err) == GCV_OK
        && dout_download (&o[1], &g[1], 1, 1, &err) && sync_stream (&err)
        && gcv_dibr_cpu_render (cpu, &p, &t2.v, 1, &right, &c[1].pr, &c[1].pd, &c[1].ph, 0, NULL, &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "stereo, a new view: %s", err.message);
    if (ok) {
      long b = tout_diff ("a new view after the pair", &g[1], &c[1], W, H);
      GCV_TEST_CHECK (b == 0, "a new view set after a stereo pair: %ld rows differ from the CPU", b);
      n_pixels += (long) W * H;
    }
  }
  sync_stream (&err);
  for (int e = 0; e < 2; e++) {
    tout_free (&g[e]);
    tout_free (&c[e]);
    dout_free (&o[e]);
  }
  dview_free (&d);
  dview_free (&d2);
  tview_free (&t);
  tview_free (&t2);
  gcv_dibr_cuda_free (cu);
  gcv_dibr_cpu_free (cpu);
}

/* Eyes for the compose cases: random colour, holes on about a quarter of
 * the pixels, depths of every code of `dec` and NaN, infinity, 0, negative
 * values; host planes with padded rows and their device copies. */
typedef struct {
  GcvDibrEye h, d;
  void *mem[3];
} CEye;

static int
ceye_make (CEye * c, int w, int h, const GcvDibrDecode * dec, int pitched)
{
  static const float special[] = { NAN, INFINITY, 0.0f, -3.0f, 1e30f, 1e-30f };
  const size_t rs[3] = { (size_t) w * 4 + 3, (size_t) w * 4 + 8, (size_t) w + 1 };
  const size_t rb[3] = { (size_t) w * 4, (size_t) w * 4, (size_t) w };
  GcvPlane *hp[3] = { &c->h.rgba, &c->h.depth, &c->h.holes }, *dp[3] = { &c->d.rgba, &c->d.depth, &c->d.holes };
  memset (c, 0, sizeof (*c));
  for (int k = 0; k < 3; k++) {
    c->mem[k] = gcv_test_malloc (rs[k] * h);
    for (size_t i = 0; i < rs[k] * h; i++)
      ((uint8_t *) c->mem[k])[i] = (uint8_t) gcv_test_rand (&rng);
    *hp[k] = plane_of (c->mem[k], w, h, rs[k]);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float *z = (float *) ((uint8_t *) c->mem[1] + rs[1] * y) + x;
      const uint32_t r = gcv_test_rand (&rng);
      *z = r % 9 == 0 ? special[(r >> 8) % 6] : (float) (1.0 / (((r >> 8) % 512) * 0.5 * dec->a + dec->b));
      if ((r >> 20) % 4)
        ((uint8_t *) c->mem[2])[rs[2] * y + x] = 0;
    }
  for (int k = 0; k < 3; k++)
    if (gcv_test_device_upload (hp[k], rb[k], pitched, stream, dp[k], "compose eye") != 0)
      return 0;
  return 1;
}

static void
ceye_free (CEye * c)
{
  for (int k = 0; k < 3; k++)
    free (c->mem[k]);
  gcv_cuda_free (c->d.rgba.data);
  gcv_cuda_free (c->d.depth.data);
  gcv_cuda_free (c->d.holes.data);
}

/* gcv_dibr_cuda_compose against gcv_dibr_compose. */
static void
test_compose (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 3, 2 }, { 65, 33 }, { 333, 201 }, { 1920, 1080 } };
  static const char *const places[] = { "virtual", "side by side", "top-bottom", "anaglyph", "inside a larger frame" };
  GcvDibrParams p = params (3, 11, 3, 12, 0.7, 25.0, 0);
  GcvDibrDecode dec;
  long bad_cases = 0, cases = 0;

  gcv_dibr_decode_make (&p, 8, &dec);
  for (int si = 0; si < (quick ? 4 : 5); si++)
    for (int place = 0; place < 5; place++)
      for (int show = 0; show < 3; show++)
        for (int oi = 0; oi < 6; oi++) {
          const int w = sizes[si][0], h = sizes[si][1], anaglyph = place == 3, n = place == 0 || place == 4 ? 1 : 2;
          const int ow = place == 1 ? 2 * w : place == 4 ? w + 3 : w, oh = place == 2 ? 2 * h : place == 4 ? h + 2 : h;
          const int pad = (oi + show + place) % 3 == 0 ? -1 : (oi % 2 ? 3 : 8);
          CEye e[2];
          GcvDibrEye he[2], de[2];
          char label[160], oname[5];
          /* 6 of the 24 byte orders a case, all of them over the cases */
          const GcvDibrPixelOrder order = order_of (oi * 4 + place + 3 * show, oname);
          memset (e, 0, sizeof (e));
          if (si == 4 && (oi > 1 || show == 1))
            continue;
          if (!ceye_make (&e[0], w, h, &dec, (oi + place) % 2) || !ceye_make (&e[1], w, h, &dec, (oi + place + 1) % 2)) {
            ceye_free (&e[0]);
            ceye_free (&e[1]);
            return;
          }
          for (int k = 0; k < 2; k++) {
            he[k] = e[k].h;
            de[k] = e[k].d;
            he[k].ox = de[k].ox = place == 1 && k == 1 ? w : place == 4 ? 2 : 0;
            he[k].oy = de[k].oy = place == 2 && k == 1 ? h : place == 4 ? 1 : 0;
          }
          snprintf (label, sizeof (label), "compose %dx%d %s show %d %s, output rows %s", w, h, places[place], show,
              oname, pad < 0 ? "pitched" : pad == 3 ? "+3 bytes" : "+8 bytes");
          bad_cases += compose_compare (label, he, de, n, anaglyph, (GcvDibrShow) show, &dec, &order, ow, oh,
              pad) != 0;
          cases++;
          ceye_free (&e[0]);
          ceye_free (&e[1]);
        }
  printf ("compose: %ld cases, %ld different from the CPU\n", cases, bad_cases);

  /* in place: eye 0's colour is the output's own pixels */
  {
    const int w = 129, h = 65;
    char oname[5];
    const GcvDibrPixelOrder order = order_of (14, oname), *o = &order;
    GcvError err = { GCV_OK, "" };
    CEye e[2];
    GcvDibrEye he[2], de[2];
    GcvPlane dout, hout;
    uint8_t *got = NULL, *want = NULL;
    int ok;
    memset (e, 0, sizeof (e));
    ok = ceye_make (&e[0], w, h, &dec, 1) && ceye_make (&e[1], w, h, &dec, 0)
        && gcv_test_device_alloc (2 * w, h, (size_t) w * 8, 1, 0, &dout, "compose output") == 0;
    if (ok) {
      want = (uint8_t *) gcv_test_malloc (dout.stride * h);
      got = (uint8_t *) gcv_test_malloc (dout.stride * h);
      for (size_t i = 0; i < dout.stride * h; i++)
        want[i] = (uint8_t) gcv_test_rand (&rng);
      for (int y = 0; y < h; y++)
        memcpy (want + dout.stride * y, (uint8_t *) e[0].h.rgba.data + e[0].h.rgba.stride * y, (size_t) w * 4);
      hout = plane_of (want, 2 * w, h, dout.stride);
      for (int k = 0; k < 2; k++) {
        he[k] = e[k].h;
        de[k] = e[k].d;
        he[k].ox = de[k].ox = k * w;
        he[k].oy = de[k].oy = 0;
      }
      he[0].rgba = plane_of (want, w, h, dout.stride);
      de[0].rgba = plane_of (dout.data, w, h, dout.stride);
      ok = gcv_cuda_upload_2d (dout.data, dout.stride, want, dout.stride, dout.stride, h, stream, &err) == GCV_OK
          && gcv_dibr_cuda_compose (de, 2, 0, GCV_DIBR_SHOW_HOLES, &dec, o, &dout, stream, &err) == GCV_OK
          && gcv_cuda_download_2d (got, dout.stride, dout.data, dout.stride, dout.stride, h, stream, &err) == GCV_OK
          && sync_stream (&err) && gcv_dibr_compose (he, 2, 0, GCV_DIBR_SHOW_HOLES, &dec, o, &hout, 0, NULL, &err) == GCV_OK;
      GCV_TEST_CHECK (ok && memcmp (got, want, dout.stride * h) == 0, "compose in place: differs from the CPU (%s)",
          err.message);
      /* refused like the CPU: eyes overlapping */
      de[1].ox = w - 1;
      GCV_TEST_CHECK (gcv_dibr_cuda_compose (de, 2, 0, GCV_DIBR_SHOW_COLOUR, NULL, o, &dout, stream, &err)
          == GCV_ERROR_INVALID && err.message[0], "compose of overlapping eyes accepted");
      GCV_TEST_CHECK (gcv_dibr_cuda_compose (de, 1, 1, GCV_DIBR_SHOW_COLOUR, NULL, o, &dout, stream, &err)
          == GCV_ERROR_INVALID, "an anaglyph of one eye accepted");
      de[1].ox = w;
      de[1].depth.stride += 2;
      GCV_TEST_CHECK (gcv_dibr_cuda_compose (de, 2, 0, GCV_DIBR_SHOW_DEPTH, &dec, o, &dout, stream, &err)
          == GCV_ERROR_INVALID, "the depth of rows 2 bytes off accepted");
      GCV_TEST_CHECK (gcv_dibr_cuda_compose (de, 2, 0, GCV_DIBR_SHOW_HOLES, &dec, o, &dout, stream, &err)
          == GCV_OK && sync_stream (&err), "the holes refused for the depth's rows: %s", err.message);
      gcv_cuda_free (dout.data);
    }
    GCV_TEST_CHECK (ok, "compose in place: %s", err.message);
    free (got);
    free (want);
    ceye_free (&e[0]);
    ceye_free (&e[1]);
  }
}

static void
test_errors (void)
{
  const int W = 97, H = 61;
  GcvError err = { GCV_OK, "" };
  GcvDibrParams p = params (3, 11, 3, 12, 1.0, 8.0, 0), bad;
  GcvDibrCamera virt;
  GcvDibrTimes tm;
  TView t, big;
  DView dt, dbig;
  DOut o, small;
  GcvPlane pl;
  GcvStatus s;
  GcvDibrCuda *cu;

  n_cases++;
  GCV_TEST_CHECK (gcv_dibr_cuda_new (0, 10, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "new with width 0 did not fail with INVALID");
  GCV_TEST_CHECK (gcv_dibr_cuda_new (10, 40000, &err) == NULL && err.status == GCV_ERROR_INVALID,
      "new with height 40000 did not fail with INVALID");
  cu = gcv_dibr_cuda_new (W, H, &err);
  GCV_TEST_CHECK (cu != NULL, "errors: new: %s", err.message);
  if (!cu)
    return;
  tview_alloc (&t, W, H, 8);
  tview_random (&t, 5, 0);
  gcv_dibr_camera_simple (W, H, 100.0, 0.2, 3.0, NULL, &virt);
  if (!dview_upload (&dt, &t, 0) || !dout_alloc (&o, W, H, 1) || !dout_alloc (&small, W - 1, H, 0)) {
    tview_free (&t);
    gcv_dibr_cuda_free (cu);
    return;
  }

  s = gcv_dibr_cuda_times (cu, &tm, &err);
  GCV_TEST_CHECK (s == GCV_OK && tm.clean_ms == 0 && tm.warp_ms == 0 && tm.fill_ms == 0,
      "times before any render: %d %s", s, err.message);
  s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "render without views: %d", s);
  s = gcv_dibr_cuda_clean_depth (cu, &p, 0, &o.pd, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "clean_depth without views: %d", s);
  s = gcv_dibr_cuda_view_colour (cu, 0, &pl, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "the colour of a view never set: %d", s);
  s = gcv_dibr_cuda_set_view (cu, GCV_DIBR_MAX_VIEWS, &dt.v, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set of view %d: %d", GCV_DIBR_MAX_VIEWS, s);
  s = gcv_dibr_cuda_set_view (cu, -1, &dt.v, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set of view -1: %d", s);
  s = gcv_dibr_cuda_set_view (cu, 0, NULL, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set of NULL: %d", s);
  {
    GcvDibrView v = dt.v;
    v.depth.width = W - 1;
    s = gcv_dibr_cuda_set_view (cu, 0, &v, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set of a view with depth smaller than colour: %d", s);
    v = dt.v;
    v.depth_bits = 12;
    s = gcv_dibr_cuda_set_view (cu, 0, &v, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set of 12-bit depth: %d", s);
    v = dt.v;
    v.rgba.stride = (size_t) W * 4 - 1;
    s = gcv_dibr_cuda_set_view (cu, 0, &v, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "set with a short stride: %d", s);
  }
  s = gcv_dibr_cuda_set_view (cu, 0, &dt.v, stream, &err);
  GCV_TEST_CHECK (s == GCV_OK, "set: %s", err.message);
  s = gcv_dibr_cuda_view_colour (cu, 0, &pl, &err);
  GCV_TEST_CHECK (s == GCV_OK && pl.data && pl.width == W && pl.height == H && pl.stride >= (size_t) W * 4,
      "the colour of a view: %d (%dx%d, stride %zu)", s, pl.width, pl.height, pl.stride);
  s = gcv_dibr_cuda_view_colour (cu, 0, NULL, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "the colour of a view into NULL: %d", s);
  s = gcv_dibr_cuda_view_colour (cu, 1, &pl, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "the colour of view 1, never set: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 2, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render of 2 views with 1 set: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 0, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render of 0 views: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 17, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render of 17 views: %d", s);
  s = gcv_dibr_cuda_clean_depth (cu, &p, 16, &o.pd, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "clean_depth of view 16: %d", s);
  s = gcv_dibr_cuda_clean_depth (cu, &p, 0, &small.pd, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "clean_depth into a smaller plane: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &small.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render into a smaller colour plane: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &o.pr, &small.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render into a smaller depth plane: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &o.pr, &o.pd, &small.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render into a smaller holes plane: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 1, &virt, NULL, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render without colour output: %d", s);
  s = gcv_dibr_cuda_render (cu, &p, 1, NULL, &o.pr, &o.pd, &o.ph, stream, &err);
  GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render without camera: %d", s);
  {
    /* the kernels store uchar4 and float: rows must be 4-byte aligned */
    GcvPlane odd = o.pr;
    odd.data = (uint8_t *) odd.data + 1;
    s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &odd, &o.pd, &o.ph, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render into colour rows at an odd address: %d", s);
    odd = o.pd;
    odd.stride += 2;
    s = gcv_dibr_cuda_render (cu, &p, 1, &virt, &o.pr, &odd, &o.ph, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render into depth rows 2 bytes off: %d", s);
    s = gcv_dibr_cuda_clean_depth (cu, &p, 0, &odd, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "clean_depth into rows 2 bytes off: %d", s);
  }
  {
    GcvDibrCamera sing = virt;
    sing.K[8] = 2.0;
    s = gcv_dibr_cuda_render (cu, &p, 1, &sing, &o.pr, &o.pd, &o.ph, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render with a bad camera: %d", s);
  }
  {
    struct { const char *name; GcvDibrParams p; } bads[8];
    int nb = 0;
    bad = p; bad.median_size = 4; bads[nb].name = "median 4"; bads[nb++].p = bad;
    bad = p; bad.median_size = 17; bads[nb].name = "median 17"; bads[nb++].p = bad;
    bad = p; bad.dcbf_size = 33; bads[nb].name = "dcbf 33"; bads[nb++].p = bad;
    bad = p; bad.dcbf_size = 0; bads[nb].name = "dcbf 0"; bads[nb++].p = bad;
    bad = p; bad.sigma_spatial = 0; bads[nb].name = "sigma-spatial 0"; bads[nb++].p = bad;
    bad = p; bad.sigma_color = NAN; bads[nb].name = "sigma-color NaN"; bads[nb++].p = bad;
    bad = p; bad.z_far = bad.z_near; bads[nb].name = "z-far = z-near"; bads[nb++].p = bad;
    bad = p; bad.focal_length = 0; bads[nb].name = "focal 0"; bads[nb++].p = bad;
    for (int i = 0; i < nb; i++) {
      memset (&err, 0, sizeof (err));
      s = gcv_dibr_cuda_render (cu, &bads[i].p, 1, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "render with %s: %d", bads[i].name, s);
      s = gcv_dibr_cuda_clean_depth (cu, &bads[i].p, 0, &o.pd, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "clean_depth with %s: %d", bads[i].name, s);
    }
    GCV_TEST_CHECK (gcv_dibr_cuda_render (cu, NULL, 1, &virt, &o.pr, &o.pd, &o.ph, stream, &err)
        == GCV_ERROR_INVALID, "render without params");
  }
  /* the context still works */
  compare_case ("after the bad calls", cu, &p, &t, 1, &virt, W, H, 0);

  /* out of device memory: a larger view cannot be allocated (its device
   * planes made first; the stream waited for, as the header asks before a
   * view grows) */
  tview_alloc (&big, 1500, 1000, 16);
  tview_random (&big, 9, 1);
  if (dview_upload (&dbig, &big, 1) && sync_stream (&err)) {
    GcvTestDeviceHog hog;
    gcv_test_fill_device (&hog);
    memset (&err, 0, sizeof (err));
    s = gcv_dibr_cuda_set_view (cu, 1, &dbig.v, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_NO_MEMORY && err.message[0], "set on a full device: %d (%s)", s, err.message);
    printf ("full device (%.1f GiB taken): %s\n", hog.bytes / 1073741824.0, err.message);
    gcv_test_release_device (&hog);
    s = gcv_dibr_cuda_render (cu, &p, 2, &virt, &o.pr, &o.pd, &o.ph, stream, &err);
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "render of a view whose set failed: %d", s);
  }
  compare_case ("after the full device", cu, &p, &t, 1, &virt, W, H, 1);
  sync_stream (&err);
  dview_free (&dbig);
  dview_free (&dt);
  tview_free (&big);
  tview_free (&t);
  dout_free (&o);
  dout_free (&small);
  gcv_dibr_cuda_free (cu);
}

/* ---- packed frames: unpacked on the GPU ---------------------------------------------------- */

typedef struct {
  const char *name;
  GcvDibrPackedFormat format;
  int sbs, tb;                  /* depth right of / below the colour (neither: in the colour pixels) */
  int r, g, b, d;
} PackCase;

/* One packed frame of random bytes (padded strides, garbage included)
 * unpacked by the CPU and by the GPU: the view's colour plane must equal
 * the CPU's, and a render from the unpacked view the CPU's render from
 * the CPU-unpacked view (the depth plane, compared through the outputs). */
static void
unpack_case (GcvDibrCuda * cu, const PackCase * c, int w, int h, int pitched)
{
  GcvError err = { GCV_OK, "" };
  const int fw = c->sbs ? 2 * w : w, fh = c->tb ? 2 * h : h;
  const int n_planes = c->format == GCV_DIBR_PACKED_I420 ? 3 : 1;
  const int bpp = c->format == GCV_DIBR_PACKED_I420 ? 1 : c->format == GCV_DIBR_PACKED_RGBA64 ? 8 : 4;
  const int db = c->format == GCV_DIBR_PACKED_RGBA64 ? 2 : 1;     /* depth bytes */
  GcvDibrPacked host, dev;
  void *hmem[3] = { NULL, NULL, NULL }, *dmem[3] = { NULL, NULL, NULL };
  uint8_t *crgba = (uint8_t *) gcv_test_malloc ((size_t) w * 4 * h);
  uint8_t *cdepth = (uint8_t *) gcv_test_malloc ((size_t) w * h * db);
  const size_t gst = (size_t) w * 4 + 8;
  uint8_t *grgba = (uint8_t *) gcv_test_malloc (gst * h);
  GcvPlane pc = plane_of (crgba, w, h, (size_t) w * 4), pd = plane_of (cdepth, w, h, (size_t) w * db);
  GcvPlane pg = plane_of (grgba, w, h, gst), colour;
  GcvDibrParams p = params (3, 5, 3, 12, 1.0, 10.0, 1);
  GcvDibrCamera src, virt;
  char label[160];
  int ok = 1;
  long bad = 0;

  snprintf (label, sizeof (label), "unpack %s %dx%d%s", c->name, w, h, pitched ? " (pitched frame)" : "");
  n_cases++;
  memset (&host, 0, sizeof (host));
  host.format = c->format;
  host.width = w;
  host.height = h;
  host.depth_x = c->sbs ? w : 0;
  host.depth_y = c->tb ? h : 0;
  host.r = c->r;
  host.g = c->g;
  host.b = c->b;
  host.d = c->d;
  dev = host;
  for (int i = 0; i < n_planes; i++) {
    const int pw = i == 0 ? fw : (fw + 1) / 2, ph = i == 0 ? fh : (fh + 1) / 2;
    const size_t stride = (size_t) pw * bpp + 5 + i;
    uint8_t *m = (uint8_t *) gcv_test_malloc (stride * ph);
    for (size_t k = 0; k < stride * ph; k++)
      m[k] = (uint8_t) gcv_test_rand (&rng);
    /* a smooth part too (the DCBF and the warp see surfaces, not only noise) */
    for (int y = 0; y < ph; y++)
      for (int x = 0; x < pw * bpp; x++)
        if ((x / 8 + y / 8) % 3 == 0)
          m[stride * y + x] = (uint8_t) (40 + (x / 8) * 3 + y);
    hmem[i] = m;
    host.planes[i] = plane_of (m, pw, ph, stride);
    ok = ok && gcv_test_device_upload (&host.planes[i], (size_t) pw * bpp, pitched, stream, &dev.planes[i],
        "packed frame") == 0;
    dmem[i] = dev.planes[i].data;
  }
  ok = ok && gcv_dibr_unpack (&host, &pc, &pd, 0, NULL, &err) == GCV_OK;
  gcv_dibr_camera_simple (w, h, 0.8 * w + 1, 0.3, 0.0, &src, &virt);
  /* the view may grow: wait first */
  ok = ok && sync_stream (&err) && gcv_dibr_cuda_unpack_view (cu, 0, &dev, &src, stream, &err) == GCV_OK
      && gcv_dibr_cuda_view_colour (cu, 0, &colour, &err) == GCV_OK && download (&colour, &pg, (size_t) w * 4, &err)
      && sync_stream (&err);
  GCV_TEST_CHECK (ok, "%s: %s", label, err.message);
  GCV_TEST_CHECK (!ok || (colour.width == w && colour.height == h && colour.stride >= (size_t) w * 4),
      "%s: the colour plane is %dx%d, stride %zu", label, colour.width, colour.height, colour.stride);
  for (int y = 0; y < h && ok; y++)
    if (memcmp ((uint8_t *) pg.data + gst * y, crgba + (size_t) w * 4 * y, (size_t) w * 4)) {
      if (!bad)
        for (int x = 0; x < w; x++)
          if (memcmp ((uint8_t *) pg.data + gst * y + 4 * x, crgba + (size_t) w * 4 * y + 4 * x, 4)) {
            const uint8_t *a = (uint8_t *) pg.data + gst * y + 4 * x, *b = crgba + (size_t) w * 4 * y + 4 * x;
            printf ("  %s: first colour difference at (%d, %d): CUDA %u %u %u %u CPU %u %u %u %u\n", label, x, y,
                a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
            break;
          }
      bad++;
    }
  GCV_TEST_CHECK (bad == 0, "%s: the unpacked colour differs from the CPU's in %ld rows", label, bad);
  if (ok) {
    GcvDibrCpu *cpu = gcv_dibr_cpu_new (w, h, &err);
    GcvDibrView view;
    TOut oc, og;
    DOut od;
    memset (&view, 0, sizeof (view));
    memset (&od, 0, sizeof (od));
    view.rgba = pc;
    view.depth = pd;
    view.depth_bits = 8 * db;
    view.camera = src;
    tout_alloc (&oc, w, h);
    tout_alloc (&og, w, h);
    ok = cpu != NULL && gcv_dibr_cpu_render (cpu, &p, &view, 1, &virt, &oc.pr, &oc.pd, &oc.ph, 0, NULL, &err) == GCV_OK
        && dout_alloc (&od, w, h, !pitched)
        && gcv_dibr_cuda_render (cu, &p, 1, &virt, &od.pr, &od.pd, &od.ph, stream, &err) == GCV_OK
        && dout_download (&od, &og, 1, 1, &err) && sync_stream (&err);
    GCV_TEST_CHECK (ok, "%s: render: %s", label, err.message);
    if (ok) {
      bad = tout_diff (label, &og, &oc, w, h);
      GCV_TEST_CHECK (bad == 0, "%s: the render of the unpacked view differs from the CPU's in %ld rows", label, bad);
      n_pixels += (long) w * h;
    }
    dout_free (&od);
    tout_free (&oc);
    tout_free (&og);
    gcv_dibr_cpu_free (cpu);
  }
  sync_stream (&err);
  for (int i = 0; i < n_planes; i++) {
    free (hmem[i]);
    gcv_cuda_free (dmem[i]);
  }
  free (crgba);
  free (cdepth);
  free (grgba);
}

static void
test_unpack (void)
{
  static const PackCase cases[] = {
    { "RGBA side by side", GCV_DIBR_PACKED_4BYTE, 1, 0, 0, 1, 2, 0 },
    { "BGRx top-bottom", GCV_DIBR_PACKED_4BYTE, 0, 1, 2, 1, 0, 2 },
    { "BGRA alpha", GCV_DIBR_PACKED_4BYTE, 0, 0, 2, 1, 0, 3 },
    { "ARGB-like offsets side by side", GCV_DIBR_PACKED_4BYTE, 1, 0, 1, 2, 3, 1 },
    { "I420 side by side", GCV_DIBR_PACKED_I420, 1, 0, 0, 0, 0, 0 },
    { "I420 top-bottom", GCV_DIBR_PACKED_I420, 0, 1, 0, 0, 0, 0 },
    { "RGBA64_LE side by side (16-bit depth)", GCV_DIBR_PACKED_RGBA64, 1, 0, 0, 1, 2, 0 },
    { "BGRA64_LE alpha (16-bit depth)", GCV_DIBR_PACKED_RGBA64, 0, 0, 2, 1, 0, 3 },
  };
  static const int sizes[][2] = { { 1, 1 }, { 3, 2 }, { 65, 33 }, { 333, 201 }, { 1920, 1080 } };
  const int n_sizes = quick ? 4 : 5;
  GcvError err = { GCV_OK, "" };
  GcvDibrCuda *cu = gcv_dibr_cuda_new (1920, 1080, &err);

  GCV_TEST_CHECK (cu != NULL, "unpack: new: %s", err.message);
  if (cu == NULL)
    return;
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    for (int k = 0; k < n_sizes; k++) {
      /* the context's size is the virtual view's: a context per size */
      GcvDibrCuda *c = sizes[k][0] == 1920 ? cu : gcv_dibr_cuda_new (sizes[k][0], sizes[k][1], &err);
      GCV_TEST_CHECK (c != NULL, "unpack: new: %s", err.message);
      if (c == NULL)
        continue;
      unpack_case (c, &cases[i], sizes[k][0], sizes[k][1], i % 2 == 1);
      if (c != cu)
        gcv_dibr_cuda_free (c);
    }

  /* bad frames and calls */
  {
    uint8_t *m = NULL;
    size_t pitch = 0;
    GcvDibrPacked f, bad;
    GcvDibrCamera cam;
    GcvStatus s;
    uint8_t out[64 * 4];
    GcvPlane po = plane_of (out, 4, 4, 16), colour;
    GcvDibrCuda *fresh = gcv_dibr_cuda_new (4, 4, &err);

    GCV_TEST_CHECK (fresh != NULL, "unpack errors: new: %s", err.message);
    s = fresh ? gcv_dibr_cuda_view_colour (fresh, 0, &colour, &err) : GCV_ERROR_INVALID;
    GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "the colour of a view never unpacked: %d", s);
    GCV_TEST_CHECK (gcv_cuda_malloc_2d ((void **) &m, &pitch, 8 * 4, 4, &err) == GCV_OK, "malloc: %s", err.message);
    memset (&f, 0, sizeof (f));
    f.format = GCV_DIBR_PACKED_4BYTE;
    f.planes[0] = plane_of (m, 8, 4, pitch);
    f.width = 4;
    f.height = 4;
    f.depth_x = 4;
    f.r = 0; f.g = 1; f.b = 2; f.d = 0;
    gcv_dibr_camera_simple (4, 4, 10, 0, 0, &cam, NULL);
    struct { const char *what; GcvDibrPacked f; } bads[8];
    int nb = 0;
    bad = f; bad.depth_x = 5; bads[nb].what = "depth part outside the frame"; bads[nb++].f = bad;
    bad = f; bad.planes[0].stride = 8; bads[nb].what = "stride shorter than a row"; bads[nb++].f = bad;
    bad = f; bad.d = 4; bads[nb].what = "depth byte 4"; bads[nb++].f = bad;
    bad = f; bad.format = (GcvDibrPackedFormat) 7; bads[nb].what = "format 7"; bads[nb++].f = bad;
    bad = f; bad.format = GCV_DIBR_PACKED_I420; bads[nb].what = "I420 without chroma"; bads[nb++].f = bad;
    bad = f; bad.width = 0; bads[nb].what = "width 0"; bads[nb++].f = bad;
    bad = f; bad.planes[0].data = NULL; bads[nb].what = "no data"; bads[nb++].f = bad;
    bad = f; bad.depth_y = -1; bads[nb].what = "depth row -1"; bads[nb++].f = bad;
    for (int i = 0; i < nb && fresh; i++) {
      memset (&err, 0, sizeof (err));
      s = gcv_dibr_cuda_unpack_view (fresh, 0, &bads[i].f, &cam, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID && err.message[0], "unpack with %s: %d", bads[i].what, s);
      GCV_TEST_CHECK (gcv_dibr_packed_check (&bads[i].f) != NULL, "packed_check passes %s", bads[i].what);
    }
    if (fresh) {
      s = gcv_dibr_cuda_unpack_view (fresh, GCV_DIBR_MAX_VIEWS, &f, &cam, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "unpack into view %d: %d", GCV_DIBR_MAX_VIEWS, s);
      s = gcv_dibr_cuda_unpack_view (fresh, 0, &f, NULL, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "unpack without a camera: %d", s);
      s = gcv_dibr_cuda_unpack_view (fresh, 0, NULL, &cam, stream, &err);
      GCV_TEST_CHECK (s == GCV_ERROR_INVALID, "unpack of NULL: %d", s);
      GCV_TEST_CHECK (gcv_cuda_memset_2d (m, pitch, 7, 8 * 4, 4, stream, &err) == GCV_OK, "memset: %s", err.message);
      s = gcv_dibr_cuda_unpack_view (fresh, 0, &f, &cam, stream, &err);
      GCV_TEST_CHECK (s == GCV_OK, "unpack: %s", err.message);
      s = gcv_dibr_cuda_view_colour (fresh, 0, &colour, &err);
      GCV_TEST_CHECK (s == GCV_OK && colour.width == 4 && colour.height == 4, "the colour plane: %d %dx%d", s,
          colour.width, colour.height);
      GCV_TEST_CHECK (s == GCV_OK && download (&colour, &po, 16, &err) && sync_stream (&err), "download: %s",
          err.message);
      GCV_TEST_CHECK (out[0] == 7 && out[1] == 7 && out[2] == 7 && out[3] == 255 && out[16 * 3 + 12] == 7
          && out[16 * 3 + 15] == 255, "unpacked colour of a frame of 7s: %u %u %u %u", out[0], out[1], out[2], out[3]);
      gcv_dibr_cuda_free (fresh);
    }
    gcv_cuda_free (m);
  }
  gcv_dibr_cuda_free (cu);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Median stage times of N renders (after 3), the view set before each (so
 * stage 1 runs every time). */
static void
time_case (int W, int H, const char *label)
{
  enum { N = 15, WARM = 3 };
  GcvError err = { GCV_OK, "" };
  GcvDibrCuda *cu = gcv_dibr_cuda_new (W, H, &err);
  GcvDibrParams p = params (3, 11, 3, 12, scene->z_near, scene->z_far, 0);
  GcvDibrCamera virt;
  DibrCamera cb;
  TView t;
  DView d;
  DOut o;
  double tc[N], tw[N], tf[N], tt[N], host[N];
  int ok = cu != NULL;

  n_cases++;
  memset (&d, 0, sizeof (d));
  memset (&o, 0, sizeof (o));
  tview_scene (&t, W, H, 8, 0);
  dibr_std_camera_b (W, H, &cb);
  camera_of (&cb, &virt);
  ok = ok && dview_upload (&d, &t, 1) && dout_alloc (&o, W, H, 1) && sync_stream (&err);
  for (int k = 0; k < N + WARM && ok; k++) {
    GcvDibrTimes tm;
    double t0 = gcv_test_now_s ();
    ok = gcv_dibr_cuda_set_view (cu, 0, &d.v, stream, &err) == GCV_OK
        && gcv_dibr_cuda_render (cu, &p, 1, &virt, &o.pr, &o.pd, &o.ph, stream, &err) == GCV_OK
        && sync_stream (&err) && gcv_dibr_cuda_times (cu, &tm, &err) == GCV_OK;
    double t1 = gcv_test_now_s ();
    if (ok && k >= WARM) {
      tc[k - WARM] = tm.clean_ms;
      tw[k - WARM] = tm.warp_ms;
      tf[k - WARM] = tm.fill_ms;
      tt[k - WARM] = tm.clean_ms + tm.warp_ms + tm.fill_ms;
      host[k - WARM] = (t1 - t0) * 1e3;
    }
  }
  GCV_TEST_CHECK (ok, "timing %s: %s", label, err.message);
  if (ok) {
    qsort (tc, N, sizeof (double), cmp_double);
    qsort (tw, N, sizeof (double), cmp_double);
    qsort (tf, N, sizeof (double), cmp_double);
    qsort (tt, N, sizeof (double), cmp_double);
    qsort (host, N, sizeof (double), cmp_double);
    printf ("timing %s: %dx%d median 3, dcbf 11x11: median of %d renders: clean %.3f ms, warp %.3f ms, fill %.3f "
        "ms, total %.3f ms (min %.3f, max %.3f); set + render + stream wait on the host %.3f ms\n", label, W, H, N,
        tc[N / 2], tw[N / 2], tf[N / 2], tt[N / 2], tt[0], tt[N - 1], host[N / 2]);
  }
  sync_stream (&err);
  dout_free (&o);
  dview_free (&d);
  tview_free (&t);
  gcv_dibr_cuda_free (cu);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  if (dibr_scene_standard (&scene) != 0) {
    fprintf (stderr, "the standard scene could not be made\n");
    return 1;
  }
  printf ("scene loaded%s\n", quick ? " (quick)" : "");
  test_errors ();
  printf ("errors done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_random ();
  printf ("random done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_scene ();
  printf ("scene done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_stereo ();
  printf ("stereo done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_unpack ();
  printf ("unpack done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_compose ();
  printf ("compose done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  if (!quick) {
    time_case (800, 600, "paper Table 5 case");
    time_case (1920, 1080, "1080p");
  }
  printf ("%ld cases, %ld output pixels compared\n", n_cases, n_pixels);
  dibr_scene_free (scene);
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
