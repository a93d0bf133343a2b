/* gst-cuda-video: the CUDA backend of seam carving (kernels/seamcarve.cu)
 * against the CPU backend (cpu/seamcarve_cpu.c), bit for bit.
 *
 * Exits 77 (skip) when there is no usable GPU or no CUDA in the build,
 * unless GST_CUDA_VIDEO_REQUIRE_GPU=1, which makes that a failure (see
 * gcv_test_gpu_policy).  Every case runs the same frames through both
 * backends, the CUDA one on device planes (uploaded pitched, padding 0xcd,
 * or linear with the host's odd strides and garbage padding; outputs and
 * mask into device planes whose padding holds 0xa5 / 0x5a and must still
 * do so), and wants identical output planes (every channel of every plane)
 * and seam masks, and the same number of passes and seams in the profile.
 * Cases (crops of the test photos, wrapping around them for large sizes):
 *  - every energy x exact / fast (3, 16 and GCV_SEAM_MAX_PER_PASS seams per
 *    pass, more than the seams wanted) x both orders x width /
 *    height / both, down / up /
 *    mixed, multi-step enlargements past 1.5x; layouts, paddings, pitched /
 *    linear planes and mask_alpha rotating;
 *  - every layout (GRAY8, Y444, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx) with
 *    mask_alpha on and off;
 *  - 1 and 2 pixel outputs, 1x1, 1xN, Nx1 inputs;
 *  - widths and heights around the seam map's band (64 columns) and phase
 *    (32 rows) sizes, many bands, odd sizes (641x481 ...);
 *  - 1920x1080 (exact 192 seams, fast 480) and 3840x2160; fast mode's
 *    candidates and paths at 1080p on every photo, 16 and 32 seams per
 *    pass (many paths squeezed out, pipelines of 32 candidates), with
 *    alpha (a negative cheapest seam) and forward energy;
 *  - clips with temporal coherence, the state carried on both sides, an
 *    order switch and a reset mid-clip; output only, mask only;
 *  - the fallback path (GCV_SEAM_CUDA_FALLBACK=1: separate launches, one
 *    per seam-map phase) on a subset, a 1080p fast case among them;
 *  - the post-messages sums (gcv_seam_cuda_energy_sums) equal the CPU's on
 *    photo crops in every layout (1x1 to 1920x1080, pitched and linear
 *    planes), random masks and the mask of a carve made on the GPU;
 *  - errors: bad parameters and planes give GCV_ERROR_INVALID and leave the
 *    context working; a full device (device hog) makes _new fail with
 *    GCV_ERROR_NO_MEMORY, after which a new context works;
 *  - the watchdog: a block that leaves the pass loop early
 *    (GCV_SEAM_CUDA_FAULT=barrier) strands the others at a grid barrier;
 *    within the watchdog's time (300 ms here) the frame ends as an error
 *    naming that barrier and the block gone, later frames of the context
 *    are refused, and a new context works.
 * GCV_TEST_QUICK=1 (for compute-sanitizer) runs the small cases only;
 * GCV_TEST_FILTER=text only the cases whose description holds text.
 * GCV_TEST_TIMING=1 also times 1080p cases with CUDA events (median of 20
 * after a warm-up) and prints the profile's phase split.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seamcarve_reference.h"

#if defined(GCV_HAVE_CUDA) && GCV_HAVE_CUDA
#include "gcv-cuda.h"

static void *stream;
static int quick;
static GcvTestImage photos[4];
static long n_cases, n_frames;
static const char *path_name = "cooperative";
static const char *filter;      /* GCV_TEST_FILTER: only the cases whose name holds it */

static const char *const energy_short[3] = { "l1", "l2", "fwd" };

static const char *
params_string (const GcvSeamParams * p, char *buf, size_t len)
{
  snprintf (buf, len, "%s %s%s%.0d tc %.2f%s %s", energy_short[p->energy], gcv_seam_mode_name (p->mode),
      p->mode == GCV_SEAM_MODE_FAST ? "/" : "", p->mode == GCV_SEAM_MODE_FAST ? p->seams_per_pass : 0,
      p->temporal_coherence, p->mask_alpha ? " alpha" : "",
      p->order == GCV_SEAM_ORDER_WIDTH_FIRST ? "w-first" : "h-first");
  return buf;
}

/* An alpha picture with large 0 / 128 / 255 regions, cut from a photo. */
static uint8_t *
alpha_from_photo (int photo, int x0, int y0, int w, int h)
{
  GcvTestImage img = gcv_test_image_window (&photos[photo], x0, y0, w, h);
  uint8_t *a = gcv_test_malloc ((size_t) w * h + 1);

  for (size_t i = 0; i < (size_t) w * h; i++) {
    int v = gcv_test_luma_rgb (img.data[3 * i], img.data[3 * i + 1], img.data[3 * i + 2]);
    a[i] = (uint8_t) (v < 50 ? 0 : v > 190 ? 255 : v > 170 ? v : 128);
  }
  gcv_test_image_clear (&img);
  return a;
}

/* A photo crop with noise of +-noise per sample. */
static GcvTestImage
crop (int photo, int x0, int y0, int w, int h, int noise, uint32_t seed)
{
  GcvTestImage img = gcv_test_image_window (&photos[photo], x0, y0, w, h);
  uint32_t st = seed | 1;

  if (noise > 0)
    for (size_t i = 0; i < img.stride * h; i++) {
      int v = img.data[i] + (int) (gcv_test_rand (&st) % (2 * noise + 1)) - noise;
      img.data[i] = (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
    }
  return img;
}

/* ---- one case ----------------------------------------------------------------------- */

typedef SeamTestCase Case;

/* Downloads a device plane (rows of `stride` bytes, padding too) into a
 * host buffer of the same stride; returns it (malloc'd) or NULL. */
static uint8_t *
download_plane (const GcvPlane * d, const char *what)
{
  GcvError err;
  uint8_t *h = gcv_test_malloc (d->stride * d->height + 1);

  memset (&err, 0, sizeof (err));
  if (gcv_cuda_download_2d (h, d->stride, d->data, d->stride, d->stride, d->height, stream, &err) != GCV_OK
      || gcv_cuda_stream_sync (stream, &err) != GCV_OK) {
    gcv_test_fail ("%s: download: %s", what, err.message);
    free (h);
    return NULL;
  }
  return h;
}

/* Compares host rows (row_bytes of each) with the reference plane, and the
 * padding bytes with `fill`.  Returns the number of differing bytes. */
static long
compare_rows (const uint8_t * got, size_t stride, const GcvPlane * ref, size_t row_bytes, int h, uint8_t fill,
    long *pad_bad, int *fx, int *fy)
{
  long nd = 0;

  *fx = *fy = -1;
  for (int y = 0; y < h; y++) {
    const uint8_t *g = got + stride * y, *r = (const uint8_t *) ref->data + ref->stride * y;
    for (size_t b = 0; b < row_bytes; b++)
      if (g[b] != r[b]) {
        if (nd++ == 0) {
          *fx = (int) b;
          *fy = y;
        }
      }
    for (size_t b = row_bytes; b < stride; b++)
      *pad_bad += g[b] != fill;
  }
  return nd;
}

static void
run_case (const Case * c)
{
  SeamTestLayout l = seam_test_layout (c->layout);
  GcvSeamGeometry g = seam_test_geometry (&l, c->in_w, c->in_h, c->out_w, c->out_h);
  GcvSeamParams p = c->p;
  GcvError err = { GCV_OK, "" };
  GcvSeamCuda *cu;
  GcvSeamCpu *cpu;
  GcvPlane dout[GCV_SEAM_MAX_PLANES], dmask;
  const size_t in_row = (size_t) c->in_w * l.channels, out_row = (size_t) c->out_w * l.channels;
  char what[320], ps[96];
  int ok = 1;

  snprintf (what, sizeof (what), "[%s] %s %s %dx%d -> %dx%d, %s, pad %zu%s%s", path_name,
      gcv_test_photos[c->photo], l.name, c->in_w, c->in_h, c->out_w, c->out_h, params_string (&p, ps, sizeof (ps)),
      c->pad, c->pitched ? ", pitched" : ", linear",
      c->want_out && c->want_mask ? "" : c->want_out ? ", output only" : ", mask only");
  if (filter && !strstr (what, filter))
    return;
  n_cases++;
  cu = gcv_seam_cuda_new (&g, &err);
  GCV_TEST_CHECK (cu != NULL, "%s: cuda_new: %s", what, err.message);
  cpu = gcv_seam_cpu_new (&g, &err);
  GCV_TEST_CHECK (cpu != NULL, "%s: cpu_new: %s", what, err.message);
  if (!cu || !cpu) {
    gcv_seam_cuda_free (cu);
    gcv_seam_cpu_free (cpu);
    return;
  }
  gcv_seam_cuda_set_profiling (cu, 1);
  gcv_seam_cpu_set_profiling (cpu, 1);
  memset (dout, 0, sizeof (dout));
  memset (&dmask, 0, sizeof (dmask));
  for (int q = 0; q < l.n_planes && ok; q++)
    ok = gcv_test_device_alloc (c->out_w, c->out_h, out_row, c->pitched, c->pad + 3, &dout[q], "device output") == 0;
  if (ok)
    ok = gcv_test_device_alloc (c->in_w, c->in_h, (size_t) c->in_w, c->pitched, c->pad + 5, &dmask,
        "device mask") == 0;

  for (int f = 0; f < c->frames && ok; f++) {
    GcvTestImage img = crop (c->photo, c->x0 + f * c->pan, c->y0, c->in_w, c->in_h, c->frames > 1 ? 2 : 0,
        (uint32_t) (f * 7919 + c->photo));
    uint8_t *alpha = alpha_from_photo ((c->photo + 1) % 4, c->x0 + 3 * f, c->y0 + 50, c->in_w, c->in_h);
    SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, alpha, c->pad, (uint32_t) (100 + f));
    SeamTestFrame ref = seam_test_frame_new (l.n_planes, l.channels, c->out_w, c->out_h, 0, 201);
    SeamTestFrame rmask = seam_test_frame_new (1, 1, c->in_w, c->in_h, 0, 301);
    GcvPlane din[GCV_SEAM_MAX_PLANES];
    GcvSeamProfile pc, pg;
    GcvStatus s, sc;
    int fx, fy;

    n_frames++;
    memset (din, 0, sizeof (din));
    if (f == c->switch_order_at)
      p.order = p.order == GCV_SEAM_ORDER_WIDTH_FIRST ? GCV_SEAM_ORDER_HEIGHT_FIRST : GCV_SEAM_ORDER_WIDTH_FIRST;
    if (f == c->spp_change_at)
      p.seams_per_pass = p.seams_per_pass * 2 > GCV_SEAM_MAX_PER_PASS ? 1 : p.seams_per_pass * 2;
    if (f == c->reset_at) {
      gcv_seam_cuda_reset (cu);
      gcv_seam_cpu_reset (cpu);
    }
    for (int q = 0; q < l.n_planes && ok; q++)
      ok = gcv_test_device_upload (&in.plane[q], in_row, c->pitched, stream, &din[q], "device input") == 0;
    for (int q = 0; q < l.n_planes && ok; q++)
      ok = gcv_cuda_memset_2d (dout[q].data, dout[q].stride, 0xa5, dout[q].stride, c->out_h, stream, &err) == GCV_OK;
    if (ok)
      ok = gcv_cuda_memset_2d (dmask.data, dmask.stride, 0x5a, dmask.stride, c->in_h, stream, &err) == GCV_OK;
    GCV_TEST_CHECK (ok, "%s: device planes: %s", what, err.message);
    if (!ok)
      goto next;

    s = gcv_seam_cuda_process (cu, &p, din, c->want_out ? dout : NULL, c->want_mask ? &dmask : NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "%s frame %d: cuda_process: %s", what, f, err.message);
    if (s == GCV_OK) {
      GcvError e2;
      memset (&e2, 0, sizeof (e2));
      s = gcv_cuda_stream_sync (stream, &e2);
      GCV_TEST_CHECK (s == GCV_OK, "%s frame %d: stream sync after process: %s", what, f, e2.message);
    }
    sc = gcv_seam_cpu_process (cpu, &p, in.plane, c->want_out ? ref.plane : NULL,
        c->want_mask ? &rmask.plane[0] : NULL, 0, &err);
    GCV_TEST_CHECK (sc == GCV_OK, "%s frame %d: cpu_process: %s", what, f, err.message);
    if (s != GCV_OK || sc != GCV_OK) {
      ok = 0;
      goto next;
    }
    if (c->want_out)
      for (int q = 0; q < l.n_planes; q++) {
        uint8_t *h = download_plane (&dout[q], what);
        long pad_bad = 0, nd;
        if (!h)
          continue;
        nd = compare_rows (h, dout[q].stride, &ref.plane[q], out_row, c->out_h, 0xa5, &pad_bad, &fx, &fy);
        GCV_TEST_CHECK (nd == 0, "%s frame %d: plane %d: %ld bytes differ from the CPU backend, first at byte %d "
            "of row %d", what, f, q, nd, fx, fy);
        GCV_TEST_CHECK (pad_bad == 0, "%s frame %d: plane %d: %ld padding bytes written", what, f, q, pad_bad);
        free (h);
      }
    if (c->want_mask) {
      uint8_t *h = download_plane (&dmask, what);
      long pad_bad = 0, nd;
      if (h) {
        nd = compare_rows (h, dmask.stride, &rmask.plane[0], (size_t) c->in_w, c->in_h, 0x5a, &pad_bad, &fx, &fy);
        GCV_TEST_CHECK (nd == 0, "%s frame %d: mask: %ld pixels differ from the CPU backend, first at (%d,%d): "
            "%d, want %d", what, f, nd, fx, fy, nd ? h[dmask.stride * fy + fx] : 0,
            nd ? ((uint8_t *) rmask.plane[0].data)[rmask.plane[0].stride * fy + fx] : 0);
        GCV_TEST_CHECK (pad_bad == 0, "%s frame %d: mask: %ld padding bytes written", what, f, pad_bad);
        free (h);
      }
    }
    gcv_seam_cuda_profile (cu, &pg);
    gcv_seam_cpu_profile (cpu, &pc);
    GCV_TEST_CHECK (pg.passes == pc.passes && pg.seams == pc.seams, "%s frame %d: profile: %d passes, %d seams; "
        "the CPU backend: %d, %d", what, f, pg.passes, pg.seams, pc.passes, pc.seams);
    GCV_TEST_CHECK (pg.energy_ms >= 0 && pg.seam_map_ms >= 0 && pg.backtrack_ms >= 0 && pg.carve_ms >= 0
        && pg.energy_ms + pg.seam_map_ms + pg.backtrack_ms + pg.carve_ms > 0, "%s frame %d: profile times %g %g %g %g",
        what, f, pg.energy_ms, pg.seam_map_ms, pg.backtrack_ms, pg.carve_ms);
  next:
    for (int q = 0; q < l.n_planes; q++)
      gcv_cuda_free (din[q].data);
    seam_test_frame_free (&in);
    seam_test_frame_free (&ref);
    seam_test_frame_free (&rmask);
    free (alpha);
    gcv_test_image_clear (&img);
  }
  for (int q = 0; q < l.n_planes; q++)
    gcv_cuda_free (dout[q].data);
  gcv_cuda_free (dmask.data);
  gcv_seam_cuda_free (cu);
  gcv_seam_cpu_free (cpu);
}

/* ---- the case sets -------------------------------------------------------------------- */

/* every energy x mode x order x shape, layouts, photos, paddings rotating */
static void
test_matrix (int small)
{
  static const int shapes[][4] = {
    {53, 41, 40, 41}, {53, 41, 53, 29}, {53, 41, 37, 30}, {29, 23, 47, 23}, {29, 23, 29, 51},
    {31, 27, 58, 40}, {45, 33, 30, 50}, {45, 33, 70, 21}, {130, 70, 101, 70}, {97, 140, 97, 99},
  };
  static const int spp[4] = { 1, 3, 16, GCV_SEAM_MAX_PER_PASS };
  const int n_shapes = small ? 4 : (int) (sizeof (shapes) / sizeof (shapes[0]));
  int n = 0;

  for (int e = 0; e < 3; e++)
    for (int m = 0; m < 4; m++)
      for (int o = 0; o < 2; o++)
        for (int s = 0; s < n_shapes; s++, n++) {
          const int sh = small ? (n * 3) % (int) (sizeof (shapes) / sizeof (shapes[0])) : s;
          Case c = seam_test_case_make (n % 4, shapes[sh][0], shapes[sh][1], shapes[sh][2], shapes[sh][3], n % 8, e,
              m == 0 ? GCV_SEAM_MODE_EXACT : GCV_SEAM_MODE_FAST, spp[m], o);
          c.pad = (size_t) (n % 3) * 7;
          c.pitched = n % 2;
          c.p.mask_alpha = (n / 8) % 2;
          run_case (&c);
        }
}

static void
test_layouts (void)
{
  for (int li = 0; li < SEAM_TEST_N_LAYOUTS; li++)
    for (int a = 0; a < 2; a++) {
      Case c = seam_test_case_make (li % 4, quick ? 121 : 301, quick ? 87 : 197, quick ? 96 : 250, quick ? 70 : 160, li, li % 3,
          a ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 5, li % 2);
      c.p.mask_alpha = a;
      c.pad = 13;
      c.pitched = a;
      run_case (&c);
    }
}

static void
test_tiny (void)
{
  static const int tiny[][4] = {
    {37, 23, 1, 23}, {37, 23, 2, 23}, {37, 23, 37, 1}, {37, 23, 37, 2}, {37, 23, 1, 1}, {37, 23, 2, 2},
    {1, 40, 3, 40}, {1, 40, 1, 20}, {1, 40, 5, 13}, {40, 1, 20, 1}, {40, 1, 40, 3}, {40, 1, 13, 5},
    {1, 1, 1, 3}, {1, 1, 4, 1}, {1, 1, 3, 4}, {2, 2, 1, 1}, {2, 3, 5, 7}, {3, 2, 1, 9}, {1, 1, 1, 1},
    {300, 1, 150, 1}, {1, 300, 1, 150}, {200, 2, 1, 1},
  };
  for (size_t t = 0; t < sizeof (tiny) / sizeof (tiny[0]); t++)
    for (int e = 0; e < 3; e++) {
      Case c = seam_test_case_make ((int) (t + e) % 4, tiny[t][0], tiny[t][1], tiny[t][2], tiny[t][3], (int) (t + e) % 8, e,
          t % 2 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 2, (t / 2) % 2);
      c.pad = t % 2 ? 3 : 0;
      c.pitched = (int) (t + e) % 2;
      c.p.mask_alpha = (int) (t % 3 == 0);
      run_case (&c);
    }
}

/* sizes around the band (64 columns) and phase (32 rows) of the seam map */
static void
test_band_sizes (void)
{
  static const int sz[][4] = {
    {63, 31, 60, 31}, {64, 32, 61, 32}, {65, 33, 62, 33}, {127, 64, 120, 64}, {128, 65, 125, 65},
    {129, 95, 126, 95}, {191, 96, 180, 96}, {193, 97, 190, 97}, {641, 481, 600, 481}, {641, 481, 641, 440},
    {641, 481, 603, 452}, {1000, 97, 900, 97}, {97, 1000, 97, 950}, {257, 33, 385, 33}, {33, 257, 33, 385},
    {700, 200, 683, 190},
  };
  const int n = (int) (sizeof (sz) / sizeof (sz[0]));
  for (int k = 0; k < n; k++) {
    if (quick && (sz[k][0] * sz[k][1] > 70000))
      continue;
    for (int m = 0; m < 2; m++) {
      Case c = seam_test_case_make (k % 4, sz[k][0], sz[k][1], sz[k][2], sz[k][3], (k + m) % 8, (k + m) % 3,
          m ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 7, (k / 2) % 2);
      c.pitched = (k + m) % 2;
      c.pad = (size_t) (k % 5);
      c.p.mask_alpha = k % 3 == 1;
      run_case (&c);
    }
  }
}

/* clips with temporal coherence, order switches, resets, parameter changes */
static void
test_clips (void)
{
  for (int k = 0; k < 12; k++) {
    static const int sh[][4] = { {96, 72, 80, 72}, {96, 72, 96, 50}, {96, 72, 70, 55}, {60, 40, 85, 52} };
    Case c = seam_test_case_make (k % 4, sh[k % 4][0], sh[k % 4][1], sh[k % 4][2], sh[k % 4][3], (k * 3) % 8, k % 3,
        k % 2 ? GCV_SEAM_MODE_FAST : GCV_SEAM_MODE_EXACT, 4, (k / 2) % 2);
    c.frames = quick ? 3 : 5;
    c.pan = 1;
    c.p.temporal_coherence = k % 3 == 2 ? 0.5 : 1.0;
    c.p.mask_alpha = k % 5 == 0;
    c.pad = (size_t) k % 4;
    c.pitched = k % 2;
    if (k % 4 == 3)
      c.switch_order_at = 2;
    if (k % 6 == 1)
      c.reset_at = 2;
    if (k % 6 == 5)
      c.spp_change_at = 1;
    run_case (&c);
  }
  for (int k = 0; k < 4; k++) {
    Case c = seam_test_case_make (k, 47, 39, k % 2 ? 60 : 30, k < 2 ? 25 : 39, k * 2, k % 3, GCV_SEAM_MODE_FAST, 3, k % 2);
    c.want_out = k % 2 == 0;
    c.want_mask = !c.want_out;
    c.frames = 3;
    c.pan = 2;
    c.p.temporal_coherence = 0.3;
    c.pitched = k / 2;
    run_case (&c);
  }
}

/* Fast mode at 1080p on every photo: 16 and 32 seams per pass, the
 * gradient energies and forward, alpha with 0 and 255 regions (whose
 * cheapest seam costs far below 0: the limit then counts from h). */
static void
test_fast_1080p (void)
{
  for (int ph = 0; ph < 4; ph++) {
    Case c = seam_test_case_make (ph, 1920, 1080, 1728, 1080, 2, (GcvSeamEnergy) (ph % 3), GCV_SEAM_MODE_FAST,
        ph % 2 ? 32 : 16, 0);
    c.x0 = c.y0 = 0;
    c.pitched = 1;
    c.p.mask_alpha = ph == 3;
    run_case (&c);
  }
}

static void
test_large (void)
{
  Case c = seam_test_case_make (1, 1920, 1080, 1728, 1080, 2, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_EXACT, 1, 0);
  c.pitched = 1;
  run_case (&c);
  c = seam_test_case_make (2, 1920, 1080, 1440, 1080, 3, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST, 16, 0);
  c.pad = 6;
  run_case (&c);
  c = seam_test_case_make (3, 1920, 1080, 1800, 1000, 1, GCV_SEAM_ENERGY_GRADIENT_L2, GCV_SEAM_MODE_FAST, 8, 1);
  c.pitched = 1;
  c.frames = 2;
  c.pan = 3;
  c.p.temporal_coherence = 1.0;
  run_case (&c);
  /* the timed configuration (an earlier version of the seam map got a
   * different number of passes on it) */
  c = seam_test_case_make (3, 1920, 1080, 1728, 1080, 2, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_FAST, 8, 0);
  c.x0 = c.y0 = 0;
  c.pitched = 1;
  run_case (&c);
  c = seam_test_case_make (0, 1920, 1080, 1980, 1080, 6, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_FAST, 32, 0);
  c.pitched = 1;
  run_case (&c);
  c = seam_test_case_make (0, 3840, 2160, 3712, 2100, 2, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST, 32, 0);
  c.pitched = 1;
  c.p.mask_alpha = 1;
  run_case (&c);
  c = seam_test_case_make (1, 3840, 2160, 3830, 2160, 0, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_EXACT, 1, 1);
  c.pitched = 1;
  run_case (&c);
  test_fast_1080p ();
}

/* ---- errors ------------------------------------------------------------------------------ */

/* A small case run on an existing context (after errors): 0 when it
 * matched the CPU backend. */
static void
check_context_works (GcvSeamCuda * cu, const GcvSeamGeometry * g, const char *what)
{
  SeamTestLayout l = seam_test_layout (2);
  GcvTestImage img = crop (0, 10, 10, g->in_width, g->in_height, 0, 1);
  SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 0, 5);
  SeamTestFrame ref = seam_test_frame_new (1, 4, g->out_width, g->out_height, 0, 6);
  GcvSeamCpu *cpu;
  GcvSeamParams p = seam_test_params ();
  GcvPlane din, dout;
  GcvError err;
  int fx, fy;

  memset (&err, 0, sizeof (err));
  cpu = gcv_seam_cpu_new (g, &err);
  if (gcv_test_device_upload (&in.plane[0], (size_t) g->in_width * 4, 1, stream, &din, what) == 0
      && gcv_test_device_alloc (g->out_width, g->out_height, (size_t) g->out_width * 4, 1, 0, &dout, what) == 0
      && cpu) {
    GcvStatus s = gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err);
    GCV_TEST_CHECK (s == GCV_OK, "%s: process: %s", what, err.message);
    gcv_seam_cpu_process (cpu, &p, in.plane, ref.plane, NULL, 0, &err);
    if (s == GCV_OK) {
      uint8_t *h = download_plane (&dout, what);
      long pad = 0;
      if (h)
        GCV_TEST_CHECK (compare_rows (h, dout.stride, &ref.plane[0], (size_t) g->out_width * 4, g->out_height,
                0, &pad, &fx, &fy) == 0,
            "%s: output differs from the CPU backend at byte %d of row %d", what, fx, fy);
      free (h);
    }
    gcv_cuda_free (din.data);
    gcv_cuda_free (dout.data);
  }
  gcv_seam_cpu_free (cpu);
  seam_test_frame_free (&in);
  seam_test_frame_free (&ref);
  gcv_test_image_clear (&img);
}

static void
test_errors (void)
{
  SeamTestLayout l = seam_test_layout (2);
  GcvSeamGeometry g = seam_test_geometry (&l, 90, 60, 70, 50);
  GcvSeamGeometry bad = g;
  GcvSeamParams p = seam_test_params ();
  GcvError err;
  GcvSeamCuda *cu;
  GcvPlane din, dout, dmask, wrong;

  /* geometry */
  memset (&err, 0, sizeof (err));
  bad.channels = 3;
  cu = gcv_seam_cuda_new (&bad, &err);
  GCV_TEST_CHECK (cu == NULL && err.status == GCV_ERROR_INVALID && strstr (err.message, "channels"),
      "3 channels: want GCV_ERROR_INVALID naming channels, got %d \"%s\"", err.status, err.message);
  gcv_seam_cuda_free (cu);
  bad = g;
  bad.out_width = 0;
  memset (&err, 0, sizeof (err));
  cu = gcv_seam_cuda_new (&bad, &err);
  GCV_TEST_CHECK (cu == NULL && err.status == GCV_ERROR_INVALID, "output width 0 accepted (%s)", err.message);
  gcv_seam_cuda_free (cu);
  gcv_seam_cuda_free (NULL);

  memset (&err, 0, sizeof (err));
  cu = gcv_seam_cuda_new (&g, &err);
  GCV_TEST_CHECK (cu != NULL, "cuda_new 90x60 -> 70x50: %s", err.message);
  if (!cu)
    return;
  if (gcv_test_device_alloc (90, 60, 360, 1, 0, &din, "in") != 0 || gcv_test_device_alloc (70, 50, 280, 1, 0, &dout,
          "out") != 0 || gcv_test_device_alloc (90, 60, 90, 1, 0, &dmask, "mask") != 0) {
    gcv_seam_cuda_free (cu);
    return;
  }
  /* bad parameters */
  {
    GcvSeamParams bp = p;
    bp.seams_per_pass = 0;
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &bp, &din, &dout, NULL, stream, &err) == GCV_ERROR_INVALID
        && strstr (err.message, "seams_per_pass"), "seams_per_pass 0: got \"%s\"", err.message);
    bp = p;
    bp.energy = (GcvSeamEnergy) 7;
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &bp, &din, &dout, NULL, stream, &err) == GCV_ERROR_INVALID
        && strstr (err.message, "energy"), "energy 7: got \"%s\"", err.message);
    bp = p;
    bp.temporal_coherence = 1.5;
    memset (&err, 0, sizeof (err));
    GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &bp, &din, &dout, NULL, stream, &err) == GCV_ERROR_INVALID,
        "temporal_coherence 1.5 accepted");
  }
  /* bad planes */
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &din, NULL, NULL, stream, &err) == GCV_ERROR_INVALID,
      "neither output nor mask accepted");
  wrong = dout;
  wrong.width = 71;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &din, &wrong, NULL, stream, &err) == GCV_ERROR_INVALID
      && strstr (err.message, "71"), "output 71 wide: got \"%s\"", err.message);
  wrong = din;
  wrong.stride = 100;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &wrong, &dout, NULL, stream, &err) == GCV_ERROR_INVALID,
      "input stride 100 for 90 RGBA pixels accepted");
  wrong = dmask;
  wrong.height = 59;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &din, &dout, &wrong, stream, &err) == GCV_ERROR_INVALID,
      "mask 90x59 accepted");
  wrong = din;
  wrong.data = NULL;
  memset (&err, 0, sizeof (err));
  GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &wrong, &dout, NULL, stream, &err) == GCV_ERROR_INVALID,
      "input without data accepted");
  gcv_cuda_free (din.data);
  gcv_cuda_free (dout.data);
  gcv_cuda_free (dmask.data);
  /* and the context still works */
  check_context_works (cu, &g, "after refused calls");
  gcv_seam_cuda_free (cu);
}

static int
cuda_tool_attached (void)
{
  const char *v = getenv ("CUDA_INJECTION64_PATH");
  return v && *v;
}

/* The watchdog of the cooperative path (kernels/seamcarve.cu, "Bounded
 * waits"), exact and fast mode: 320x240 -> 280x240 takes several passes,
 * and the fault makes the last block leave before the second. */
static void
test_watchdog (void)
{
  const int modes[2] = { GCV_SEAM_MODE_EXACT, GCV_SEAM_MODE_FAST };
  SeamTestLayout l = seam_test_layout (2);
  GcvSeamGeometry g = seam_test_geometry (&l, 320, 240, 280, 240);

  /* under compute-sanitizer a legitimate wait may last 300 ms */
  if (cuda_tool_attached ()) {
    printf ("watchdog: skipped under a CUDA tool\n");
    return;
  }
  for (int m = 0; m < 2; m++) {
    GcvTestImage img = crop (1, 0, 0, g.in_width, g.in_height, 0, 1);
    SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 0, 5);
    GcvSeamParams p = seam_test_params ();
    GcvPlane din, dout;
    GcvError err;
    GcvSeamCuda *cu;
    GcvStatus s;
    double t0, waited;

    p.mode = (GcvSeamMode) modes[m];
    p.seams_per_pass = 4;
    setenv ("GCV_SEAM_CUDA_FAULT", "barrier", 1);
    setenv ("GCV_SEAM_CUDA_WATCHDOG_MS", "300", 1);
    memset (&err, 0, sizeof (err));
    cu = gcv_seam_cuda_new (&g, &err);
    unsetenv ("GCV_SEAM_CUDA_FAULT");
    unsetenv ("GCV_SEAM_CUDA_WATCHDOG_MS");
    GCV_TEST_CHECK (cu != NULL, "watchdog: cuda_new: %s", err.message);
    if (cu != NULL && gcv_test_device_upload (&in.plane[0], (size_t) g.in_width * 4, 1, stream, &din,
            "watchdog") == 0) {
      if (gcv_test_device_alloc (g.out_width, g.out_height, (size_t) g.out_width * 4, 1, 0, &dout,
              "watchdog") == 0) {
        t0 = gcv_test_now_s ();
        s = gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err);
        GCV_TEST_CHECK (s == GCV_OK, "watchdog %s: the launch: %s", gcv_seam_mode_name (p.mode), err.message);
        s = gcv_cuda_stream_sync (stream, &err);
        waited = gcv_test_now_s () - t0;
        GCV_TEST_CHECK (s == GCV_OK, "watchdog %s: the stream: %s", gcv_seam_mode_name (p.mode), err.message);
        /* 300 ms, and the 5 s default would show as a longer wait */
        GCV_TEST_CHECK (waited > 0.25 && waited < 4.0, "watchdog %s: the frame took %.2f s, not about 0.3",
            gcv_seam_mode_name (p.mode), waited);
        memset (&err, 0, sizeof (err));
        s = gcv_seam_cuda_check (cu, &err);
        GCV_TEST_CHECK (s == GCV_ERROR_CUDA && strstr (err.message, "grid barrier 1 of pass 1")
            && strstr (err.message, "gone from the pass loop: 1 "), "watchdog %s: want the stranded barrier, "
            "got %d \"%s\"", gcv_seam_mode_name (p.mode), s, err.message);
        printf ("watchdog %s: %.2f s: %s\n", gcv_seam_mode_name (p.mode), waited, err.message);
        memset (&err, 0, sizeof (err));
        s = gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err);
        GCV_TEST_CHECK (s == GCV_ERROR_CUDA && strstr (err.message, "gave up a frame"),
            "watchdog %s: the next frame: %d \"%s\"", gcv_seam_mode_name (p.mode), s, err.message);
        gcv_cuda_free (dout.data);
      }
      gcv_cuda_free (din.data);
    }
    gcv_seam_cuda_free (cu);
    seam_test_frame_free (&in);
    gcv_test_image_clear (&img);
  }
  /* a context without the fault works */
  {
    GcvError err;
    GcvSeamCuda *cu;
    memset (&err, 0, sizeof (err));
    cu = gcv_seam_cuda_new (&g, &err);
    GCV_TEST_CHECK (cu != NULL, "watchdog: a new context: %s", err.message);
    if (cu)
      check_context_works (cu, &g, "after the watchdog");
    gcv_seam_cuda_free (cu);
  }
}

static void
test_out_of_memory (void)
{
  SeamTestLayout l = seam_test_layout (2);
  GcvSeamGeometry g = seam_test_geometry (&l, 1920, 1080, 1700, 900);
  GcvTestDeviceHog hog;
  GcvError err;
  GcvSeamCuda *cu;
  size_t fb = 0, tb = 0;

  gcv_test_fill_device (&hog);
  memset (&err, 0, sizeof (err));
  gcv_cuda_mem_info (&fb, &tb, &err);
  printf ("out of memory: %zu MiB held in %d blocks, %zu MiB free\n", hog.bytes >> 20, hog.n, fb >> 20);
  memset (&err, 0, sizeof (err));
  cu = gcv_seam_cuda_new (&g, &err);
  GCV_TEST_CHECK (cu == NULL, "cuda_new (1920x1080 -> 1700x900) succeeded with the device full");
  GCV_TEST_CHECK (err.status == GCV_ERROR_NO_MEMORY && strstr (err.message, "cudaErrorMemoryAllocation")
      && strstr (err.message, "MiB"), "out of memory reported as status %d: %s", err.status, err.message);
  gcv_seam_cuda_free (cu);
  gcv_test_release_device (&hog);
  {
    size_t f0 = 0, f1 = 0;
    gcv_cuda_mem_info (&f0, &tb, &err);
    memset (&err, 0, sizeof (err));
    cu = gcv_seam_cuda_new (&g, &err);
    GCV_TEST_CHECK (cu != NULL, "cuda_new after the memory came back: %s", err.message);
    if (cu) {
      GcvSeamGeometry sg = seam_test_geometry (&l, 1920, 1080, 1700, 900);
      check_context_works (cu, &sg, "after out of memory");
      gcv_seam_cuda_free (cu);
    }
    gcv_cuda_mem_info (&f1, &tb, &err);
    if (!cuda_tool_attached ())
      GCV_TEST_CHECK (f1 == f0, "a context left %.1f MiB of device memory behind",
          ((double) f0 - (double) f1) / 1048576.0);
  }
}

/* ---- timing --------------------------------------------------------------------------------- */

static void
time_case (int in_w, int in_h, int out_w, int out_h, GcvSeamMode mode, int spp, GcvSeamEnergy e)
{
  SeamTestLayout l = seam_test_layout (2);
  GcvSeamGeometry g = seam_test_geometry (&l, in_w, in_h, out_w, out_h);
  GcvSeamParams p = seam_test_params ();
  GcvTestImage img = crop (3, 0, 0, in_w, in_h, 0, 1);
  SeamTestFrame in = seam_test_frame_from_rgb (&l, &img, NULL, 0, 5);
  GcvError err;
  GcvSeamCuda *cu;
  GcvPlane din, dout;
  GcvCudaEvent *e0 = NULL, *e1 = NULL;
  GcvSeamProfile pr;
  float t[20];
  const int n = 20;

  p.mode = mode;
  p.seams_per_pass = spp;
  p.energy = e;
  memset (&err, 0, sizeof (err));
  cu = gcv_seam_cuda_new (&g, &err);
  if (!cu || gcv_test_device_upload (&in.plane[0], (size_t) in_w * 4, 1, stream, &din, "in") != 0
      || gcv_test_device_alloc (out_w, out_h, (size_t) out_w * 4, 1, 0, &dout, "out") != 0
      || gcv_cuda_event_new (&e0, &err) != GCV_OK || gcv_cuda_event_new (&e1, &err) != GCV_OK) {
    gcv_test_fail ("timing setup: %s", err.message);
    return;
  }
  for (int k = 0; k < 3; k++)
    gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err);
  for (int k = 0; k < n; k++) {
    gcv_cuda_event_record (e0, stream, &err);
    GCV_TEST_CHECK (gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err) == GCV_OK, "timing: %s",
        err.message);
    gcv_cuda_event_record (e1, stream, &err);
    gcv_cuda_event_sync (e1, &err);
    gcv_cuda_event_elapsed (e0, e1, &t[k], &err);
  }
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && t[b] < t[b - 1]; b--) {
      float x = t[b];
      t[b] = t[b - 1];
      t[b - 1] = x;
    }
  gcv_seam_cuda_set_profiling (cu, 1);
  gcv_seam_cuda_process (cu, &p, &din, &dout, NULL, stream, &err);
  gcv_seam_cuda_profile (cu, &pr);
  {
    /* the timed output is the CPU backend's too */
    GcvSeamCpu *cpu = gcv_seam_cpu_new (&g, &err);
    SeamTestFrame ref = seam_test_frame_new (1, 4, out_w, out_h, 0, 7);
    GcvSeamProfile pc;
    uint8_t *h = download_plane (&dout, "timing");
    long pad = 0;
    int fx, fy;
    if (cpu && h) {
      gcv_seam_cpu_set_profiling (cpu, 1);
      gcv_seam_cpu_process (cpu, &p, in.plane, ref.plane, NULL, 0, &err);
      gcv_seam_cpu_profile (cpu, &pc);
      GCV_TEST_CHECK (compare_rows (h, dout.stride, &ref.plane[0], (size_t) out_w * 4, out_h, 0, &pad, &fx, &fy) == 0,
          "timing %dx%d -> %dx%d %s: output differs from the CPU backend at byte %d of row %d", in_w, in_h, out_w,
          out_h, gcv_seam_mode_name (mode), fx, fy);
      GCV_TEST_CHECK (pc.passes == pr.passes, "timing: %d passes, the CPU backend %d", pr.passes, pc.passes);
    }
    free (h);
    seam_test_frame_free (&ref);
    gcv_seam_cpu_free (cpu);
  }
  printf ("timing %dx%d -> %dx%d %s %s/%d: median %.3f ms (min %.3f, max %.3f) = %.1f fps; %.1f us/seam; "
      "profile: energy %.3f, seam map %.3f, backtrack %.3f, carve %.3f ms, %d passes, %d seams\n",
      in_w, in_h, out_w, out_h, energy_short[e], gcv_seam_mode_name (mode), spp, (t[n / 2 - 1] + t[n / 2]) / 2,
      t[0], t[n - 1], 2000.0 / (t[n / 2 - 1] + t[n / 2]),
      1000.0 * (t[n / 2 - 1] + t[n / 2]) / 2 / (abs (in_w - out_w) + abs (in_h - out_h)), pr.energy_ms,
      pr.seam_map_ms, pr.backtrack_ms, pr.carve_ms, pr.passes, pr.seams);
  gcv_cuda_event_free (e0);
  gcv_cuda_event_free (e1);
  gcv_cuda_free (din.data);
  gcv_cuda_free (dout.data);
  gcv_seam_cuda_free (cu);
  seam_test_frame_free (&in);
  gcv_test_image_clear (&img);
}

static void
test_timing (void)
{
  time_case (1920, 1080, 1728, 1080, GCV_SEAM_MODE_EXACT, 1, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1920, 1080, 1728, 1080, GCV_SEAM_MODE_EXACT, 1, GCV_SEAM_ENERGY_FORWARD);
  time_case (1920, 1080, 1728, 1080, GCV_SEAM_MODE_FAST, 8, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1920, 1080, 1728, 1080, GCV_SEAM_MODE_FAST, 16, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1920, 1080, 1728, 1080, GCV_SEAM_MODE_FAST, 32, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1920, 1080, 1440, 1080, GCV_SEAM_MODE_EXACT, 1, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1920, 1080, 1440, 1080, GCV_SEAM_MODE_FAST, 16, GCV_SEAM_ENERGY_GRADIENT_L1);
  time_case (1200, 900, 1199, 900, GCV_SEAM_MODE_EXACT, 1, GCV_SEAM_ENERGY_GRADIENT_L1);
}

/* The energy sums of post-messages on the device against the CPU's: photo
 * crops in every layout and size, random masks, pitched and linear
 * planes, and the mask of a 1080p carve made on the GPU (the same carve
 * on the CPU gives the same mask, so the same sums). */
static void
test_energy_sums (void)
{
  static const int sizes[][2] = { {1, 1}, {1, 9}, {33, 1}, {3, 5}, {641, 481}, {1920, 1080} };
  GcvSeamEnergySums *dev = NULL, *host = gcv_test_pinned_malloc (sizeof (GcvSeamEnergySums));
  GcvError err;

  memset (&err, 0, sizeof (err));
  if (gcv_cuda_malloc ((void **) &dev, sizeof (*dev), &err) != GCV_OK) {
    gcv_test_fail ("energy sums scratch: %s", err.message);
    gcv_cuda_host_free (host);
    return;
  }
  for (int l = 0; l < SEAM_TEST_N_LAYOUTS; l++)
    for (size_t s = 0; s < sizeof (sizes) / sizeof (sizes[0]); s++) {
      SeamTestLayout lay = seam_test_layout (l);
      int w = sizes[s][0], h = sizes[s][1], pitched = (int) ((l + s) & 1);
      GcvTestImage img = gcv_test_image_window (&photos[l % 4], 13 * l, 7 * (int) s, w, h);
      SeamTestFrame f = seam_test_frame_from_rgb (&lay, &img, NULL, 5, 3 + (uint32_t) l);
      GcvSeamGeometry g = seam_test_geometry (&lay, w, h, w, h);
      GcvPlane mask = seam_test_random_mask (w, h, (uint32_t) (l * 8 + s)), din, dmask;
      GcvSeamEnergySums want;

      gcv_seam_energy_sums (&g, &f.plane[0], &mask, &want);
      memset (&din, 0, sizeof (din));
      memset (&dmask, 0, sizeof (dmask));
      memset (host, 0xab, sizeof (*host));
      if (gcv_test_device_upload (&f.plane[0], (size_t) w * lay.channels, pitched, stream, &din, "sums frame") == 0
          && gcv_test_device_upload (&mask, (size_t) w, pitched, stream, &dmask, "sums mask") == 0) {
        gcv_test_checks++;
        if (gcv_seam_cuda_energy_sums (&g, &din, &dmask, dev, host, stream, &err) != GCV_OK
            || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
          gcv_test_fail ("energy sums %s %dx%d: %s", lay.name, w, h, err.message);
        else
          GCV_TEST_CHECK (memcmp (host, &want, sizeof (want)) == 0, "energy sums %s %dx%d (%s): CUDA %llu %llu "
              "(%llu pixels), CPU %llu %llu (%llu)", lay.name, w, h, pitched ? "pitched" : "linear",
              (unsigned long long) host->frame_energy, (unsigned long long) host->seam_energy,
              (unsigned long long) host->seam_pixels, (unsigned long long) want.frame_energy,
              (unsigned long long) want.seam_energy, (unsigned long long) want.seam_pixels);
      }
      gcv_cuda_free (din.data);
      gcv_cuda_free (dmask.data);
      free (mask.data);
      seam_test_frame_free (&f);
      gcv_test_image_clear (&img);
    }
  /* a carve on the GPU, its mask summed there */
  {
    SeamTestLayout lay = seam_test_layout (2);
    GcvTestImage img = gcv_test_image_window (&photos[1], 0, 0, 1920, 1080);
    SeamTestFrame f = seam_test_frame_from_rgb (&lay, &img, NULL, 0, 9);
    GcvSeamGeometry g = seam_test_geometry (&lay, 1920, 1080, 1728, 1080);
    GcvSeamParams p = seam_test_params ();
    GcvPlane mask = { gcv_test_malloc (1920 * 1080), 1920, 1080, 1920 }, din, dmask;
    GcvSeamCpu *cpu = gcv_seam_cpu_new (&g, &err);
    GcvSeamCuda *cuda = gcv_seam_cuda_new (&g, &err);
    GcvSeamEnergySums want;

    p.mode = GCV_SEAM_MODE_FAST;
    p.seams_per_pass = 16;
    memset (&din, 0, sizeof (din));
    memset (&dmask, 0, sizeof (dmask));
    GCV_TEST_CHECK (cpu && cuda && gcv_seam_cpu_process (cpu, &p, f.plane, NULL, &mask, 0, &err) == GCV_OK,
        "1080p carve: %s", err.message);
    gcv_seam_energy_sums (&g, &f.plane[0], &mask, &want);
    if (cuda && gcv_test_device_upload (&f.plane[0], 1920 * 4, 1, stream, &din, "carve frame") == 0
        && gcv_test_device_alloc (1920, 1080, 1920, 1, 0, &dmask, "carve mask") == 0) {
      gcv_test_checks++;
      if (gcv_seam_cuda_process (cuda, &p, &din, NULL, &dmask, stream, &err) != GCV_OK
          || gcv_seam_cuda_energy_sums (&g, &din, &dmask, dev, host, stream, &err) != GCV_OK
          || gcv_cuda_stream_sync (stream, &err) != GCV_OK)
        gcv_test_fail ("1080p carve on the GPU: %s", err.message);
      else
        GCV_TEST_CHECK (memcmp (host, &want, sizeof (want)) == 0 && want.seam_pixels == 192 * 1080,
            "1080p carve: CUDA sums %llu %llu (%llu pixels), CPU %llu %llu (%llu)",
            (unsigned long long) host->frame_energy, (unsigned long long) host->seam_energy,
            (unsigned long long) host->seam_pixels, (unsigned long long) want.frame_energy,
            (unsigned long long) want.seam_energy, (unsigned long long) want.seam_pixels);
    }
    gcv_cuda_free (din.data);
    gcv_cuda_free (dmask.data);
    gcv_seam_cpu_free (cpu);
    gcv_seam_cuda_free (cuda);
    free (mask.data);
    seam_test_frame_free (&f);
    gcv_test_image_clear (&img);
  }
  {
    SeamTestLayout gray = seam_test_layout (0);
    GcvSeamGeometry g = seam_test_geometry (&gray, 4, 4, 4, 4);
    GcvPlane none = { NULL, 4, 4, 4 };
    GCV_TEST_CHECK (gcv_seam_cuda_energy_sums (&g, &none, &none, dev, host, stream, &err) == GCV_ERROR_INVALID,
        "energy sums of planes without data must be refused");
  }
  gcv_cuda_free (dev);
  gcv_cuda_host_free (host);
}

int
main (void)
{
  double t0 = gcv_test_now_s ();

  setvbuf (stdout, NULL, _IOLBF, 0);
  stream = gcv_test_cuda_setup ();
  quick = gcv_test_env_flag ("GCV_TEST_QUICK");
  filter = getenv ("GCV_TEST_FILTER");
  if (filter && !*filter)
    filter = NULL;
  gcv_test_load_photos (photos);
  printf ("test data: %s%s\n", gcv_test_data_dir (), quick ? " (quick)" : "");

  if (gcv_test_env_flag ("GCV_TEST_TIMING")) {
    test_timing ();
    gcv_cuda_stream_free (stream);
    return gcv_test_summary (t0);
  }
  if (!filter) {
    test_errors ();
    test_watchdog ();
  }
  printf ("errors done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  test_tiny ();
  printf ("tiny sizes done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures, gcv_test_now_s () - t0);
  test_matrix (quick);
  printf ("matrix done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures, gcv_test_now_s () - t0);
  test_layouts ();
  test_band_sizes ();
  printf ("layouts, band sizes done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures,
      gcv_test_now_s () - t0);
  test_clips ();
  printf ("clips done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures, gcv_test_now_s () - t0);
  test_energy_sums ();
  printf ("energy sums done (%ld failures, %.1f s)\n", gcv_test_failures, gcv_test_now_s () - t0);
  if (!quick) {
    test_large ();
    printf ("large frames done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures,
        gcv_test_now_s () - t0);
    if (!filter)
      test_out_of_memory ();
  }
  /* the fallback path: separate launches */
  setenv ("GCV_SEAM_CUDA_FALLBACK", "1", 1);
  path_name = "fallback";
  test_matrix (1);
  test_tiny ();
  {
    Case c = seam_test_case_make (2, 641, 481, 603, 452, 2, GCV_SEAM_ENERGY_FORWARD, GCV_SEAM_MODE_FAST, 6, 1);
    c.frames = 2;
    c.p.temporal_coherence = 1.0;
    c.p.mask_alpha = 1;
    run_case (&c);
    if (!quick) {
      c = seam_test_case_make (1, 1920, 1080, 1728, 1080, 2, GCV_SEAM_ENERGY_GRADIENT_L1, GCV_SEAM_MODE_FAST, 32, 0);
      c.pitched = 1;
      run_case (&c);
    }
  }
  unsetenv ("GCV_SEAM_CUDA_FALLBACK");
  printf ("fallback path done (%ld cases, %ld failures, %.1f s)\n", n_cases, gcv_test_failures,
      gcv_test_now_s () - t0);
  printf ("%ld cases, %ld frames\n", n_cases, n_frames);
  for (int i = 0; i < 4; i++)
    gcv_test_image_clear (&photos[i]);
  gcv_cuda_stream_free (stream);
  return gcv_test_summary (t0);
}

#else /* no CUDA in this build: skip (77), or fail with GST_CUDA_VIDEO_REQUIRE_GPU=1 */

GCV_TEST_MAIN_WITHOUT_CUDA ()

#endif
