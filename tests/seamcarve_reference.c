/* gst-cuda-video: the independent seam-carving reference and the seam
 * tests' frames (see seamcarve_reference.h).
 *
 * Everything here follows the text of cpu/seamcarve.h step by step:
 *  - an image is h rows of w packed pixels (every sample of every plane of
 *    one pixel together, plane 0 first), with each pixel's stage-input
 *    column (src) and, during an enlargement step, its column in the step's
 *    input (col);
 *  - a height stage runs on an explicit transposed copy and its output is
 *    transposed back;
 *  - every pass computes the luma, the energy and the whole seam map M
 *    (int64) of the working image again, then finds each end column's
 *    root by following the parents to row 0, the candidates and the P
 *    chosen seams, and builds the image without them.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "seamcarve_reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- images ------------------------------------------------------------------- */

typedef struct {
  int w, h, nb;
  uint8_t *px;
  int *src;
  int *col;
} Img;

static Img
img_new (int w, int h, int nb)
{
  Img m;
  size_t n = (size_t) w * h;

  m.w = w;
  m.h = h;
  m.nb = nb;
  m.px = gcv_test_malloc (n * nb + 1);
  m.src = gcv_test_malloc (sizeof (int) * n + 1);
  m.col = gcv_test_malloc (sizeof (int) * n + 1);
  memset (m.src, 0, sizeof (int) * n);
  memset (m.col, 0, sizeof (int) * n);
  return m;
}

static void
img_free (Img * m)
{
  free (m->px);
  free (m->src);
  free (m->col);
  memset (m, 0, sizeof (*m));
}

static uint8_t *
img_px (const Img * m, int i, int j)
{
  return m->px + ((size_t) i * m->w + j) * m->nb;
}

static Img
img_copy (const Img * m)
{
  Img c = img_new (m->w, m->h, m->nb);
  size_t n = (size_t) m->w * m->h;

  memcpy (c.px, m->px, n * m->nb);
  memcpy (c.src, m->src, sizeof (int) * n);
  memcpy (c.col, m->col, sizeof (int) * n);
  return c;
}

/* rows <-> columns (pixels, src and col alike) */
static Img
img_transpose (const Img * m)
{
  Img t = img_new (m->h, m->w, m->nb);

  for (int i = 0; i < m->h; i++)
    for (int j = 0; j < m->w; j++) {
      memcpy (img_px (&t, j, i), img_px (m, i, j), m->nb);
      t.src[(size_t) j * t.w + i] = m->src[(size_t) i * m->w + j];
      t.col[(size_t) j * t.w + i] = m->col[(size_t) i * m->w + j];
    }
  return t;
}

/* ---- formulas ------------------------------------------------------------------- */

int
seam_ref_isqrt (int64_t n)
{
  int64_t r = (int64_t) sqrt ((double) n);

  while (r * r > n)
    r--;
  while ((r + 1) * (r + 1) <= n)
    r++;
  return (int) r;
}

int
seam_ref_luma (const GcvSeamGeometry * g, const uint8_t * px)
{
  if (g->luma.layout == GCV_LUMA_PACKED32) {
    int64_t r = px[g->luma.r_offset], gr = px[g->luma.g_offset], b = px[g->luma.b_offset];
    return (int) ((9798 * r + 19235 * gr + 3735 * b + 16384) / 32768);
  }
  return px[0];
}

static int64_t
labs64 (int64_t v)
{
  return v < 0 ? -v : v;
}

/* L(i, j) with the replicate border */
static int64_t
lum (const int *L, int w, int h, int i, int j)
{
  i = i < 0 ? 0 : i >= h ? h - 1 : i;
  j = j < 0 ? 0 : j >= w ? w - 1 : j;
  return L[(size_t) i * w + j];
}

/* Pixel energy without bias (gradient energies). */
static int64_t
grad_energy (const int *L, int w, int h, int i, int j, GcvSeamEnergy energy)
{
  int64_t dx = lum (L, w, h, i, j + 1) - lum (L, w, h, i, j - 1);
  int64_t dy = lum (L, w, h, i + 1, j) - lum (L, w, h, i - 1, j);

  if (energy == GCV_SEAM_ENERGY_GRADIENT_L2)
    return seam_ref_isqrt (dx * dx + dy * dy);
  return labs64 (dx) + labs64 (dy);
}

/* Forward cost of entering (i, j) from (i-1, j+d). */
static int64_t
fwd_cost (const int *L, int w, int h, int i, int j, int d)
{
  int64_t cu = labs64 (lum (L, w, h, i, j + 1) - lum (L, w, h, i, j - 1));

  if (d == -1)
    return cu + labs64 (lum (L, w, h, i - 1, j) - lum (L, w, h, i, j - 1));
  if (d == 1)
    return cu + labs64 (lum (L, w, h, i - 1, j) - lum (L, w, h, i, j + 1));
  return cu;
}

/* ---- one pass ------------------------------------------------------------------- */

typedef struct {
  const GcvSeamGeometry *g;
  const GcvSeamParams *p;
  const int64_t *B;             /* rows x a: the stage's bias */
  int a;
  uint8_t *smask;               /* rows x a: the stage's mask */
} StageCtx;

/* What eq. 2 compares for d at (i, j), i > 0: M (i-1, j+d), plus C_d - CU
 * for forward energy. */
static int64_t
ref_compared (const StageCtx * sc, const int *L, const int64_t * M, int w, int h, int i, int j, int d)
{
  int64_t v = M[(size_t) (i - 1) * w + j + d];

  if (sc->p->energy == GCV_SEAM_ENERGY_FORWARD)
    v += fwd_cost (L, w, h, i, j, d) - fwd_cost (L, w, h, i, j, 0);
  return v;
}

/* What eq. 2 adds at (i, j) reached from (i-1, j+d) (d = 0 in row 0). */
static int64_t
ref_added (const StageCtx * sc, const Img * m, const int *L, int i, int j, int d)
{
  int64_t B = sc->B[(size_t) i * sc->a + m->src[(size_t) i * m->w + j]];

  if (sc->p->energy == GCV_SEAM_ENERGY_FORWARD)
    return B + fwd_cost (L, m->w, m->h, i, j, i == 0 ? 0 : d);
  return B + grad_energy (L, m->w, m->h, i, j, sc->p->energy);
}

static const int64_t *sort_last;
static const int *sort_root;

/* end columns: the roots' cheapest first, then by (M, j) */
static int
cmp_order (const void *pa, const void *pb)
{
  int a = *(const int *) pa, b = *(const int *) pb;
  int ga = sort_root[a] < 0, gb = sort_root[b] < 0;     /* root < 0 marks "not the cheapest" here */

  if (ga != gb)
    return ga - gb;
  if (sort_last[a] != sort_last[b])
    return sort_last[a] < sort_last[b] ? -1 : 1;
  return a - b;
}

/* Fast mode's pass (P > 1): the candidates, their paths and the P chosen
 * (cpu/seamcarve.h, "One pass"), written from the text: every rule by
 * plain search.  Candidate k's path in path[k * h + i]; the chosen
 * candidates into ends[].  Returns how many. */
static int
ref_fast (const StageCtx * sc, const Img * m, const int *L, const int64_t * M, const int *root, int P, int *path,
    int *ends)
{
  const int w = m->w, h = m->h, T = GCV_SEAM_FAST_TRIES;
  const int64_t *last = M + (size_t) (h - 1) * w;
  int *order = gcv_test_malloc (sizeof (int) * w), *cheapest = gcv_test_malloc (sizeof (int) * w);
  int end[GCV_SEAM_FAST_TRIES], top[GCV_SEAM_FAST_TRIES], pick[GCV_SEAM_FAST_TRIES];
  int64_t cost[GCV_SEAM_FAST_TRIES], m0 = last[0], base, limit;
  int no = 0, nc = 0, n = 0;

  for (int j = 1; j < w; j++)
    if (last[j] < m0)
      m0 = last[j];
  base = m0 > h ? m0 : h;
  limit = m0 + 3 * base / 5;

  /* the order */
  for (int j = 0; j < w; j++) {
    int is_cheapest = 1;
    for (int q = 0; q < w; q++)
      if (root[q] == root[j] && (last[q] < last[j] || (last[q] == last[j] && q < j)))
        is_cheapest = 0;
    cheapest[j] = is_cheapest ? 0 : -1;
    if (last[j] <= limit)
      order[no++] = j;
  }
  sort_last = last;
  sort_root = cheapest;
  qsort (order, no, sizeof (int), cmp_order);

  /* the candidates */
  for (int q = 0; q < no && q < GCV_SEAM_FAST_SCAN && nc < T; q++) {
    int j = order[q], l = -1, r = -1;
    for (int k = 0; k < nc; k++) {
      if (end[k] < j && (l < 0 || end[k] > end[l]))
        l = k;
      if (end[k] > j && (r < 0 || end[k] < end[r]))
        r = k;
    }
    if (l >= 0 && r >= 0 && root[end[l]] == root[end[r]])
      continue;
    end[nc++] = j;
  }

  /* the paths, in rank order */
  for (int k = 0; k < nc; k++) {
    int *pk = path + (size_t) k * h;
    int c = end[k], i;
    pk[h - 1] = c;
    for (i = h - 1; i > 0; i--) {
      int lo = 0, hi = w - 1, ord[3], no3 = 0, t;
      for (int q = 0; q < k; q++) {
        if (top[q] > i - 1)
          continue;             /* q's path does not reach row i - 1 */
        if (end[q] < end[k] && path[(size_t) q * h + i - 1] + 1 > lo)
          lo = path[(size_t) q * h + i - 1] + 1;
        if (end[q] > end[k] && path[(size_t) q * h + i - 1] - 1 < hi)
          hi = path[(size_t) q * h + i - 1] - 1;
      }
      /* (i, c)'s parent order: insertion by (compared value, d) */
      for (int d = -1; d <= 1; d++) {
        int at;
        if (c + d < 0 || c + d >= w)
          continue;
        at = no3++;
        while (at > 0 && ref_compared (sc, L, M, w, h, i, c, ord[at - 1]) > ref_compared (sc, L, M, w, h, i, c, d)) {
          ord[at] = ord[at - 1];
          at--;
        }
        ord[at] = d;
      }
      for (t = 0; t < no3; t++)
        if (c + ord[t] >= lo && c + ord[t] <= hi)
          break;
      if (t == no3)
        break;
      c += ord[t];
      pk[i - 1] = c;
    }
    top[k] = i;
    cost[k] = 0;
    if (i == 0)
      for (int r = 0; r < h; r++)
        cost[k] += ref_added (sc, m, L, r, pk[r], r > 0 ? pk[r - 1] - pk[r] : 0);
  }

  /* the chosen: whole, within the limit, the P smallest (cost, rank) */
  for (int k = 0; k < nc; k++)
    if (top[k] == 0 && cost[k] <= limit)
      pick[n++] = k;
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && (cost[pick[b - 1]] > cost[pick[b]]
            || (cost[pick[b - 1]] == cost[pick[b]] && pick[b - 1] > pick[b])); b--) {
      int t = pick[b];
      pick[b] = pick[b - 1];
      pick[b - 1] = t;
    }
  if (n > P)
    n = P;
  memcpy (ends, pick, sizeof (int) * n);
  free (order);
  free (cheapest);
  return n;
}

/* Finds up to P seams on *m, marks them (stage mask through src; `chosen`
 * through col when not NULL), removes them.  Returns how many. */
static int
ref_pass (const StageCtx * sc, Img * m, int P, uint8_t *chosen, int chosen_w)
{
  const int w = m->w, h = m->h;
  const int forward = sc->p->energy == GCV_SEAM_ENERGY_FORWARD;
  int *L = gcv_test_malloc (sizeof (int) * w * h);
  int64_t *M = gcv_test_malloc (sizeof (int64_t) * w * h);
  int *par = gcv_test_malloc (sizeof (int) * w * h);
  int *root = gcv_test_malloc (sizeof (int) * w);
  int *path = gcv_test_malloc (sizeof (int) * h * GCV_SEAM_FAST_TRIES);    /* candidate k's row i at k * h + i */
  int *ends = gcv_test_malloc (sizeof (int) * GCV_SEAM_FAST_TRIES);       /* the chosen candidates */
  uint8_t *gone = gcv_test_malloc ((size_t) w * h);
  int n = 0;

  /* luma and bias of the working image as it is now */
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      L[(size_t) i * w + j] = seam_ref_luma (sc->g, img_px (m, i, j));

  /* eq. 2 */
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      int64_t B = sc->B[(size_t) i * sc->a + m->src[(size_t) i * w + j]];
      int64_t own = forward ? B : grad_energy (L, w, h, i, j, sc->p->energy) + B;
      if (i == 0) {
        M[j] = forward ? B + fwd_cost (L, w, h, 0, j, 0) : own;
        par[j] = 0;
        continue;
      }
      {
        int have = 0, bd = 0;
        int64_t best = 0;
        for (int d = -1; d <= 1; d++) {
          int64_t v;
          if (j + d < 0 || j + d >= w)
            continue;
          v = M[(size_t) (i - 1) * w + j + d] + (forward ? fwd_cost (L, w, h, i, j, d) : 0);
          if (!have || v < best) {
            best = v;
            bd = d;
            have = 1;
          }
        }
        M[(size_t) i * w + j] = best + own;
        par[(size_t) i * w + j] = bd;
      }
    }

  /* the seams: exact mode's, or fast mode's candidates, paths and choice */
  for (int j = 0; j < w; j++) {
    int c = j;
    for (int i = h - 1; i > 0; i--)
      c += par[(size_t) i * w + c];
    root[j] = c;
  }
  memset (gone, 0, (size_t) w * h);
  if (P == 1) {
    const int64_t *last = M + (size_t) (h - 1) * w;
    int j0 = 0, c;
    for (int j = 1; j < w; j++)
      if (last[j] < last[j0])
        j0 = j;
    c = j0;
    for (int i = h - 1; i >= 0; i--) {
      path[i] = c;
      if (i > 0)
        c += par[(size_t) i * w + c];
    }
    ends[0] = 0;
    n = 1;
  } else {
    n = ref_fast (sc, m, L, M, root, P, path, ends);
  }

  /* mark */
  for (int k = 0; k < n; k++) {
    const int *pk = path + (size_t) ends[k] * h;
    for (int i = 0; i < h; i++) {
      size_t at = (size_t) i * w + pk[i];
      if (gone[at])
        fprintf (stderr, "seam_ref: seams of one pass share pixel (%d, %d)\n", i, pk[i]);
      gone[at] = 1;
      sc->smask[(size_t) i * sc->a + m->src[at]] = 1;
      if (chosen)
        chosen[(size_t) i * chosen_w + m->col[at]] = 1;
    }
  }

  /* the image without them */
  {
    Img r = img_new (w - n, h, m->nb);
    for (int i = 0; i < h; i++) {
      int o = 0;
      for (int j = 0; j < w; j++) {
        size_t at = (size_t) i * w + j;
        if (gone[at])
          continue;
        if (o >= r.w)
          fprintf (stderr, "seam_ref: row %d keeps more than %d pixels\n", i, r.w);
        else {
          memcpy (img_px (&r, i, o), img_px (m, i, j), m->nb);
          r.src[(size_t) i * r.w + o] = m->src[at];
          r.col[(size_t) i * r.w + o] = m->col[at];
        }
        o++;
      }
    }
    img_free (m);
    *m = r;
  }

  free (L);
  free (M);
  free (par);
  free (root);
  free (path);
  free (ends);
  free (gone);
  return n;
}

/* Passes until `want` seams are found on *m. */
static void
ref_passes (const StageCtx * sc, Img * m, int want, uint8_t *chosen, int chosen_w)
{
  int found = 0;

  while (found < want) {
    int left = want - found;
    int P = sc->p->mode == GCV_SEAM_MODE_FAST ? sc->p->seams_per_pass : 1;
    if (P > left)
      P = left;
    found += ref_pass (sc, m, P, chosen, chosen_w);
  }
}

/* The stage on X (stage orientation, src = identity): its output replaces X. */
static void
ref_stage (const StageCtx * sc, Img * X, int target)
{
  if (target < X->w) {
    ref_passes (sc, X, X->w - target, NULL, 0);
    return;
  }
  while (X->w < target) {
    const int w = X->w, h = X->h;
    int n = target - w, most = w / 2 < 1 ? 1 : w / 2;
    Img Y = img_copy (X);
    uint8_t *chosen = gcv_test_malloc ((size_t) w * h);
    Img O;

    if (n > most)
      n = most;
    memset (chosen, 0, (size_t) w * h);
    for (int i = 0; i < h; i++)
      for (int j = 0; j < w; j++)
        Y.col[(size_t) i * w + j] = j;
    ref_passes (sc, &Y, n, chosen, w);
    img_free (&Y);

    O = img_new (w + n, h, X->nb);
    for (int i = 0; i < h; i++) {
      int o = 0;
      for (int c = 0; c < w; c++) {
        memcpy (img_px (&O, i, o), img_px (X, i, c), X->nb);
        O.src[(size_t) i * O.w + o] = X->src[(size_t) i * w + c];
        o++;
        if (chosen[(size_t) i * w + c]) {
          const uint8_t *p0 = img_px (X, i, c), *p1 = img_px (X, i, c + 1 < w ? c + 1 : w - 1);
          uint8_t *q = img_px (&O, i, o);
          for (int b = 0; b < X->nb; b++)
            q[b] = (uint8_t) ((p0[b] + p1[b] + 1) / 2);
          O.src[(size_t) i * O.w + o] = X->src[(size_t) i * w + c];
          o++;
        }
      }
      if (o != w + n)
        fprintf (stderr, "seam_ref: enlargement row %d has %d pixels, not %d\n", i, o, w + n);
    }
    free (chosen);
    img_free (X);
    *X = O;
  }
}

/* ---- the frame ------------------------------------------------------------------- */

void
seam_ref_state_init (SeamRefState * s)
{
  memset (s, 0, sizeof (*s));
}

void
seam_ref_state_clear (SeamRefState * s)
{
  free (s->mask[0]);
  free (s->mask[1]);
  seam_ref_state_init (s);
}

int
seam_ref_process (const GcvSeamGeometry * g, const GcvSeamParams * p, const GcvPlane * in,
    GcvPlane * out, GcvPlane * mask, SeamRefState * state)
{
  const int nb = g->n_planes * g->channels, ch = g->channels;
  struct {
    int dir, rows, a;
    int *src;                   /* rows x (output width): the stage's src map */
    int b;
    uint8_t *smask;
  } st[2];
  int ns = 0, T, use_prev;
  Img cur;

  if (gcv_seam_geometry_check (g) || gcv_seam_params_check (p) || (!out && !mask))
    return -1;

  /* the frame as packed pixels, normal orientation */
  cur = img_new (g->in_width, g->in_height, nb);
  for (int y = 0; y < g->in_height; y++)
    for (int x = 0; x < g->in_width; x++)
      for (int pl = 0; pl < g->n_planes; pl++)
        memcpy (img_px (&cur, y, x) + pl * ch,
            (const uint8_t *) in[pl].data + in[pl].stride * y + (size_t) x * ch, ch);

  T = (int) floor (p->temporal_coherence * GCV_SEAM_TEMPORAL_MAX_WEIGHT + 0.5);
  use_prev = state->valid && state->order == p->order && T != 0;

  for (int s = 0; s < 2; s++) {
    int dir = (s == 0) == (p->order == GCV_SEAM_ORDER_WIDTH_FIRST) ? 0 : 1;
    int target = dir == 0 ? g->out_width : g->out_height;
    Img X;
    int64_t *B;
    StageCtx sc;
    const uint8_t *prev = NULL;

    if ((dir == 0 ? cur.w : cur.h) == target)
      continue;
    X = dir == 0 ? img_copy (&cur) : img_transpose (&cur);
    for (int i = 0; i < X.h; i++)
      for (int j = 0; j < X.w; j++)
        X.src[(size_t) i * X.w + j] = j;
    if (use_prev && state->rows[dir] == X.h && state->cols[dir] == X.w)
      prev = state->mask[dir];

    /* B(i, c) of the stage input */
    B = gcv_test_malloc (sizeof (int64_t) * X.w * X.h);
    for (int i = 0; i < X.h; i++)
      for (int c = 0; c < X.w; c++) {
        int64_t b = 0;
        if (p->mask_alpha && g->alpha_channel >= 0) {
          int alpha = img_px (&X, i, c)[g->alpha_channel];
          b += alpha == 0 ? -GCV_SEAM_ALPHA_BIAS : alpha == 255 ? GCV_SEAM_ALPHA_BIAS : 0;
        }
        if (prev) {
          int d = GCV_SEAM_TEMPORAL_RANGE;
          for (int c2 = 0; c2 < X.w; c2++)
            if (prev[(size_t) i * X.w + c2] && abs (c2 - c) < d)
              d = abs (c2 - c);
          b += (int64_t) T * d;
        }
        B[(size_t) i * X.w + c] = b;
      }

    st[ns].dir = dir;
    st[ns].rows = X.h;
    st[ns].a = X.w;
    st[ns].smask = gcv_test_malloc ((size_t) X.w * X.h);
    memset (st[ns].smask, 0, (size_t) X.w * X.h);
    sc.g = g;
    sc.p = p;
    sc.B = B;
    sc.a = X.w;
    sc.smask = st[ns].smask;
    ref_stage (&sc, &X, target);
    free (B);

    st[ns].b = X.w;
    st[ns].src = gcv_test_malloc (sizeof (int) * X.w * X.h);
    memcpy (st[ns].src, X.src, sizeof (int) * X.w * X.h);
    img_free (&cur);
    if (dir == 0) {
      cur = X;
    } else {
      cur = img_transpose (&X);
      img_free (&X);
    }
    ns++;
  }

  if (out)
    for (int y = 0; y < g->out_height; y++)
      for (int x = 0; x < g->out_width; x++)
        for (int pl = 0; pl < g->n_planes; pl++)
          memcpy ((uint8_t *) out[pl].data + out[pl].stride * y + (size_t) x * ch,
              img_px (&cur, y, x) + pl * ch, ch);

  if (mask) {
    for (int y = 0; y < g->in_height; y++)
      memset ((uint8_t *) mask->data + mask->stride * y, 0, g->in_width);
    for (int s = 0; s < ns; s++) {
      const uint8_t bit = st[s].dir == 0 ? GCV_SEAM_MASK_WIDTH : GCV_SEAM_MASK_HEIGHT;
      for (int r = 0; r < st[s].rows; r++)
        for (int c = 0; c < st[s].a; c++) {
          int x, y;
          if (!st[s].smask[(size_t) r * st[s].a + c])
            continue;
          /* the stage-input pixel in the picture's orientation */
          x = st[s].dir == 0 ? c : r;
          y = st[s].dir == 0 ? r : c;
          if (s == 1) {
            /* a pixel of stage 0's output: back through its src */
            int i = st[0].dir == 0 ? y : x, j = st[0].dir == 0 ? x : y;
            int c0 = st[0].src[(size_t) i * st[0].b + j];
            x = st[0].dir == 0 ? c0 : i;
            y = st[0].dir == 0 ? i : c0;
          }
          ((uint8_t *) mask->data)[mask->stride * y + x] |= bit;
        }
    }
  }

  /* what the next frame sees */
  seam_ref_state_clear (state);
  for (int s = 0; s < ns; s++) {
    state->mask[st[s].dir] = st[s].smask;
    state->rows[st[s].dir] = st[s].rows;
    state->cols[st[s].dir] = st[s].a;
    free (st[s].src);
  }
  state->valid = 1;
  state->order = p->order;
  img_free (&cur);
  return 0;
}

/* ---- brute force ------------------------------------------------------------------- */

typedef struct {
  const int *L;
  const int32_t *bias;
  int w, h;
  GcvSeamEnergy energy;
  int *path, *best_path;
  int64_t best;
  int have;
} Brute;

static int64_t
bias_of (const int32_t *bias, int w, int i, int j)
{
  return bias ? bias[(size_t) i * w + j] : 0;
}

/* Cost of row i at column c reached from column `from` of row i - 1. */
static int64_t
row_cost (const int *L, const int32_t *bias, int w, int h, GcvSeamEnergy energy, int i, int c, int from)
{
  int64_t b = bias_of (bias, w, i, c);

  if (energy != GCV_SEAM_ENERGY_FORWARD)
    return grad_energy (L, w, h, i, c, energy) + b;
  if (i == 0)
    return b + fwd_cost (L, w, h, 0, c, 0);
  return b + fwd_cost (L, w, h, i, c, from - c);
}

static void
brute_rec (Brute * b, int i, int c, int64_t acc)
{
  b->path[i] = c;
  if (i == 0) {
    int64_t total = acc + row_cost (b->L, b->bias, b->w, b->h, b->energy, 0, c, c);
    if (!b->have || total < b->best) {
      b->have = 1;
      b->best = total;
      memcpy (b->best_path, b->path, sizeof (int) * b->h);
    }
    return;
  }
  for (int up = c - 1; up <= c + 1; up++)
    if (up >= 0 && up < b->w)
      brute_rec (b, i - 1, up, acc + row_cost (b->L, b->bias, b->w, b->h, b->energy, i, c, up));
}

static int *
luma_ints (const uint8_t *luma, int w, int h)
{
  int *L = gcv_test_malloc (sizeof (int) * w * h);

  for (int i = 0; i < w * h; i++)
    L[i] = luma[i];
  return L;
}

int64_t
seam_ref_brute_force (const uint8_t *luma, const int32_t *bias, int w, int h, GcvSeamEnergy energy,
    int *cols)
{
  Brute b;

  b.L = luma_ints (luma, w, h);
  b.bias = bias;
  b.w = w;
  b.h = h;
  b.energy = energy;
  b.path = gcv_test_malloc (sizeof (int) * h);
  b.best_path = cols;
  b.have = 0;
  b.best = 0;
  /* bottom row first, columns in increasing order at every level: the
   * first of equal costs is the lexicographically smallest from the bottom */
  for (int j = 0; j < w; j++)
    brute_rec (&b, h - 1, j, 0);
  free ((void *) b.L);
  free (b.path);
  return b.best;
}

int64_t
seam_ref_seam_cost (const uint8_t *luma, const int32_t *bias, int w, int h, GcvSeamEnergy energy,
    const int *cols)
{
  int *L = luma_ints (luma, w, h);
  int64_t sum = 0;

  for (int i = 0; i < h; i++)
    sum += row_cost (L, bias, w, h, energy, i, cols[i], i > 0 ? cols[i - 1] : cols[0]);
  free (L);
  return sum;
}

/* ---- frames -------------------------------------------------------------------------- */

SeamTestLayout
seam_test_layout (int i)
{
  static const struct {
    const char *name;
    int n_planes, channels, packed, r, g, b, a;
  } t[SEAM_TEST_N_LAYOUTS] = {
    {"GRAY8", 1, 1, 0, 0, 0, 0, -1},
    {"Y444", 3, 1, 0, 0, 0, 0, -1},
    {"RGBA", 1, 4, 1, 0, 1, 2, 3},
    {"BGRA", 1, 4, 1, 2, 1, 0, 3},
    {"ARGB", 1, 4, 1, 1, 2, 3, 0},
    {"ABGR", 1, 4, 1, 3, 2, 1, 0},
    {"RGBx", 1, 4, 1, 0, 1, 2, -1},
    {"BGRx", 1, 4, 1, 2, 1, 0, -1},
  };
  SeamTestLayout l;

  memset (&l, 0, sizeof (l));
  l.name = t[i].name;
  l.n_planes = t[i].n_planes;
  l.channels = t[i].channels;
  l.luma.layout = t[i].packed ? GCV_LUMA_PACKED32 : GCV_LUMA_GRAY8;
  l.luma.r_offset = (uint8_t) t[i].r;
  l.luma.g_offset = (uint8_t) t[i].g;
  l.luma.b_offset = (uint8_t) t[i].b;
  l.alpha_channel = t[i].a;
  return l;
}

GcvSeamGeometry
seam_test_geometry (const SeamTestLayout * l, int in_w, int in_h, int out_w, int out_h)
{
  GcvSeamGeometry g;

  memset (&g, 0, sizeof (g));
  g.in_width = in_w;
  g.in_height = in_h;
  g.out_width = out_w;
  g.out_height = out_h;
  g.n_planes = l->n_planes;
  g.channels = l->channels;
  g.luma = l->luma;
  g.alpha_channel = l->alpha_channel;
  return g;
}

GcvSeamParams
seam_test_params (void)
{
  GcvSeamParams p;

  memset (&p, 0, sizeof (p));
  p.energy = GCV_SEAM_ENERGY_GRADIENT_L1;
  p.mode = GCV_SEAM_MODE_EXACT;
  p.seams_per_pass = 8;
  p.temporal_coherence = 0.0;
  p.mask_alpha = 0;
  p.order = GCV_SEAM_ORDER_WIDTH_FIRST;
  return p;
}

SeamTestFrame
seam_test_frame_new (int n_planes, int channels, int w, int h, size_t pad, uint32_t seed)
{
  SeamTestFrame f;
  uint32_t st = seed ? seed : 1;

  memset (&f, 0, sizeof (f));
  f.n_planes = n_planes;
  f.channels = channels;
  f.width = w;
  f.height = h;
  f.pad = pad;
  for (int p = 0; p < n_planes; p++) {
    size_t stride = (size_t) w * channels + pad, n = stride * h;
    uint8_t *d = gcv_test_malloc (n + 1);
    for (size_t i = 0; i < n; i++)
      d[i] = (uint8_t) (gcv_test_rand (&st) >> 24);
    f.plane[p].data = d;
    f.plane[p].width = w;
    f.plane[p].height = h;
    f.plane[p].stride = stride;
  }
  return f;
}

void
seam_test_frame_free (SeamTestFrame * f)
{
  for (int p = 0; p < f->n_planes; p++)
    free (f->plane[p].data);
  memset (f, 0, sizeof (*f));
}

SeamTestFrame
seam_test_frame_from_rgb (const SeamTestLayout * l, const GcvTestImage * rgb, const uint8_t * alpha,
    size_t pad, uint32_t seed)
{
  SeamTestFrame f = seam_test_frame_new (l->n_planes, l->channels, rgb->width, rgb->height, pad, seed);
  uint32_t st = seed * 2654435761u + 7;

  for (int y = 0; y < rgb->height; y++)
    for (int x = 0; x < rgb->width; x++) {
      const uint8_t *s = rgb->data + rgb->stride * y + (size_t) x * rgb->channels;
      int r = s[0], g = rgb->channels >= 3 ? s[1] : s[0], b = rgb->channels >= 3 ? s[2] : s[0];
      if (l->channels == 1) {
        int v[3] = { gcv_test_luma_rgb (r, g, b), r, b };
        for (int p = 0; p < l->n_planes; p++)
          ((uint8_t *) f.plane[p].data)[f.plane[p].stride * y + x] = (uint8_t) v[p];
      } else {
        uint8_t *d = (uint8_t *) f.plane[0].data + f.plane[0].stride * y + (size_t) x * 4;
        int other = 6 - l->luma.r_offset - l->luma.g_offset - l->luma.b_offset;
        d[l->luma.r_offset] = (uint8_t) r;
        d[l->luma.g_offset] = (uint8_t) g;
        d[l->luma.b_offset] = (uint8_t) b;
        if (l->alpha_channel >= 0 && alpha)
          d[other] = alpha[(size_t) y * rgb->width + x];
        else
          d[other] = (uint8_t) (gcv_test_rand (&st) >> 24);
      }
    }
  return f;
}

long
seam_test_frame_diff (const SeamTestFrame * a, const SeamTestFrame * b, int *plane, int *x, int *y)
{
  long n = 0;

  *plane = *x = *y = -1;
  for (int p = 0; p < a->n_planes; p++)
    for (int r = 0; r < a->height; r++) {
      const uint8_t *ra = (const uint8_t *) a->plane[p].data + a->plane[p].stride * r;
      const uint8_t *rb = (const uint8_t *) b->plane[p].data + b->plane[p].stride * r;
      for (int i = 0; i < a->width * a->channels; i++)
        if (ra[i] != rb[i]) {
          if (n == 0) {
            *plane = p;
            *x = i / a->channels;
            *y = r;
          }
          n++;
        }
    }
  return n;
}

int
seam_test_padding_intact (const SeamTestFrame * f, uint32_t seed)
{
  uint32_t st = seed ? seed : 1;

  for (int p = 0; p < f->n_planes; p++) {
    size_t stride = f->plane[p].stride, row = (size_t) f->width * f->channels;
    for (int r = 0; r < f->height; r++)
      for (size_t i = 0; i < stride; i++) {
        uint8_t want = (uint8_t) (gcv_test_rand (&st) >> 24);
        if (i >= row && ((const uint8_t *) f->plane[p].data)[stride * r + i] != want)
          return 0;
      }
  }
  return 1;
}

SeamTestCase
seam_test_case_make (int photo, int in_w, int in_h, int out_w, int out_h, int layout, GcvSeamEnergy e,
    GcvSeamMode mode, int spp, GcvSeamOrder order)
{
  SeamTestCase c;

  memset (&c, 0, sizeof (c));
  c.photo = photo;
  c.x0 = 31 * photo + 17;
  c.y0 = 23 * photo + 40;
  c.in_w = in_w;
  c.in_h = in_h;
  c.out_w = out_w;
  c.out_h = out_h;
  c.layout = layout;
  c.p = seam_test_params ();
  c.p.energy = e;
  c.p.mode = mode;
  c.p.seams_per_pass = spp;
  c.p.order = order;
  c.frames = 1;
  c.want_out = c.want_mask = 1;
  c.switch_order_at = c.reset_at = c.cut_at = c.spp_change_at = -1;
  return c;
}

void
seam_ref_energy_sums (const GcvSeamGeometry * g, const GcvPlane * in0, const GcvPlane * mask,
    GcvSeamEnergySums * sums)
{
  int w = g->in_width, h = g->in_height;
  int *luma = gcv_test_malloc (sizeof (int) * (size_t) w * h);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      luma[y * w + x] = seam_ref_luma (g, (const uint8_t *) in0->data + in0->stride * y + (size_t) x * g->channels);
  memset (sums, 0, sizeof (*sums));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int xl = x > 0 ? x - 1 : 0, xr = x < w - 1 ? x + 1 : w - 1;
      int yu = y > 0 ? y - 1 : 0, yd = y < h - 1 ? y + 1 : h - 1;
      int64_t e = llabs ((int64_t) luma[y * w + xr] - luma[y * w + xl])
          + llabs ((int64_t) luma[yd * w + x] - luma[yu * w + x]);
      sums->frame_energy += (uint64_t) e;
      if (((const uint8_t *) mask->data)[mask->stride * y + x]) {
        sums->seam_pixels++;
        sums->seam_energy += (uint64_t) e;
      }
    }
  free (luma);
}

GcvPlane
seam_test_random_mask (int w, int h, uint32_t seed)
{
  GcvPlane m = { gcv_test_malloc ((size_t) w * h + 1), w, h, (size_t) w };
  uint32_t st = seed * 2246822519u + 3;

  for (size_t i = 0; i < (size_t) w * h; i++) {
    uint32_t r = gcv_test_rand (&st) >> 24;
    ((uint8_t *) m.data)[i] = (uint8_t) (r < 32 ? 1 + (r % 3) : 0);
  }
  return m;
}
