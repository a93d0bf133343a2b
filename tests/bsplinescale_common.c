/* gst-cuda-video: what the B-spline algorithm and CUDA tests share (see
 * bsplinescale_common.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bsplinescale_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const method_names[4] = { "bspline", "catmull-rom", "bilinear", "nearest" };
const char *const type_names[3] = { "U8", "U16", "F32" };

GcvScaleParams
params_make (GcvScaleMethod m, int aa)
{
  GcvScaleParams p;
  memset (&p, 0, sizeof (p));
  p.method = m;
  p.antialias = aa;
  return p;
}

GcvScaleGeometry
geom_make (GcvSampleType type, int channels, int iw, int ih, int ow, int oh)
{
  GcvScaleGeometry g;
  memset (&g, 0, sizeof (g));
  g.type = type;
  g.channels = channels;
  g.in_width = iw;
  g.in_height = ih;
  g.out_width = ow;
  g.out_height = oh;
  return g;
}

/* ---- typed samples, garbage ------------------------------------------------ */

void
garbage_fill (GcvPlane * p, GcvSampleType t, int channels, uint32_t * state)
{
  uint8_t *data = p->data;
  for (size_t i = 0; i < p->stride * p->height; i++)
    data[i] = (uint8_t) (gcv_test_rand (state) >> 24);
  if (t == GCV_SAMPLE_F32)
    for (int y = 0; y < p->height; y++)
      for (size_t b = (size_t) p->width * channels * 4; b + 4 <= p->stride; b += 4) {
        uint32_t v = (b / 4) & 1 ? 0x7fc00001u : 0x7f7fffffu;   /* NaN, FLT_MAX */
        memcpy (data + (size_t) y * p->stride + b, &v, 4);
      }
}

/* ---- photos ------------------------------------------------------------------ */

GcvTestImage photos[4];

void
photos_load (void)
{
  gcv_test_load_photos (photos);
}

void
photos_free (void)
{
  for (int i = 0; i < gcv_test_n_photos; i++)
    gcv_test_image_clear (&photos[i]);
}

int
photo_sample (int ph, int x, int y, int c)
{
  const GcvTestImage *im = &photos[ph];
  const uint8_t *p;
  x = ((x % im->width) + im->width) % im->width;
  y = ((y % im->height) + im->height) % im->height;
  p = im->data + (size_t) y * im->stride + (size_t) x * im->channels;
  return im->channels == 1 ? p[0] : p[c % 3];
}

/* ---- SciPy fixtures -------------------------------------------------------------- */

float *
read_f32 (const char *rel, size_t n)
{
  char *path = gcv_test_path (rel);
  FILE *f = fopen (path, "rb");
  float *v = gcv_test_malloc (sizeof (float) * n);
  uint8_t *b = gcv_test_malloc (4 * n);
  if (f == NULL || fread (b, 4, n, f) != n || fgetc (f) != EOF) {
    fprintf (stderr, "FAIL: cannot read %zu floats from %s (run tests/gen_scipy_fixtures.py?)\n", n, path);
    exit (1);
  }
  fclose (f);
  for (size_t i = 0; i < n; i++) {       /* little-endian on any host */
    uint32_t u = (uint32_t) b[4 * i] | (uint32_t) b[4 * i + 1] << 8 | (uint32_t) b[4 * i + 2] << 16
        | (uint32_t) b[4 * i + 3] << 24;
    memcpy (&v[i], &u, 4);
  }
  free (b);
  free (path);
  return v;
}

ScipyCase *
scipy_cases_load (int *n_cases)
{
  char *path = gcv_test_path (SCIPY_MANIFEST);
  FILE *mf = fopen (path, "r");
  char line[4096];
  ScipyCase *cases;
  int n = 0, cap = 16;

  *n_cases = 0;
  if (mf == NULL) {
    gcv_test_fail ("cannot open %s", path);
    free (path);
    return NULL;
  }
  cases = gcv_test_malloc (sizeof (ScipyCase) * cap);
  while (fgets (line, sizeof (line), mf)) {
    ScipyCase *sc;
    char rel[400];
    if (line[0] == '#' || line[0] == '\n')
      continue;
    if (n == cap) {
      ScipyCase *more = gcv_test_malloc (sizeof (ScipyCase) * cap * 2);
      memcpy (more, cases, sizeof (ScipyCase) * n);
      free (cases);
      cases = more;
      cap *= 2;
    }
    sc = &cases[n];
    if (sscanf (line, "%255s %d %d %d %d %255s %15s", sc->in_name, &sc->iw, &sc->ih, &sc->ow, &sc->oh,
            sc->out_name, sc->kind) != 7) {
      gcv_test_fail ("scipy manifest: bad line: %s", line);
      continue;
    }
    snprintf (rel, sizeof (rel), "fixtures/scipy-bspline/%s", sc->in_name);
    sc->in = read_f32 (rel, (size_t) sc->iw * sc->ih);
    snprintf (rel, sizeof (rel), "fixtures/scipy-bspline/%s", sc->out_name);
    sc->out = read_f32 (rel, (size_t) sc->ow * sc->oh);
    n++;
  }
  fclose (mf);
  free (path);
  *n_cases = n;
  return cases;
}

void
scipy_cases_free (ScipyCase * cases, int n_cases)
{
  for (int i = 0; i < n_cases; i++) {
    free (cases[i].in);
    free (cases[i].out);
  }
  free (cases);
}
