/* gst-cuda-video: B-spline scaling, FIR tables shared by both backends and
 * the CPU backend.
 *
 * The arithmetic follows the contract in bsplinescale.h step by step (this
 * file is compiled with -ffp-contract=off, so no multiply-add is fused and
 * kernels/bsplinescale.cu, which rounds every product and sum explicitly,
 * gets the same bits).  Vectorisation only ever runs independent scanlines
 * or output samples side by side; the order of operations within one sample
 * never changes.  The CPU backend's loops get as many threads as their
 * work is worth (gcv-parallel.h) and look at the stop request before every
 * work item (and every 64 taps of a vertical FIR row, which a large
 * reduction makes long).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bsplinescale.h"
#include "gcv-parallel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GCV_SCALE_STRINGIFY_ARG(x) #x
#define GCV_SCALE_STRINGIFY(x) GCV_SCALE_STRINGIFY_ARG (x)

#ifdef _OPENMP
#include <omp.h>
#endif

#define SEG GCV_BSPLINE_SEGMENT
#define WARM GCV_BSPLINE_WARMUP
#define WINDOW (SEG + 2 * WARM)         /* samples one segment's causal pass visits */
#define COLUMN_CHUNK 256                /* floats per vertical-prefilter work item */
#define ROW_GROUP 8                     /* scanlines the horizontal prefilter runs side by side */
/* One core's time per FIR tap of one sample and per sample of the two
 * prefilter passes (RGBA 1080p -> 4K: 181 ms a frame): what the team is
 * sized by. */
#define NS_PER_TAP 0.8
#define NS_PER_PREFILTER_SAMPLE 3.0

/* ---- tables ------------------------------------------------------------- */

const char *
gcv_scale_params_check (const GcvScaleParams * params)
{
  if (params == NULL)
    return "no parameters";
  if ((int) params->method < GCV_SCALE_BSPLINE || params->method > GCV_SCALE_NEAREST)
    return "method must be bspline, catmull-rom, bilinear or nearest";
  return NULL;
}

const char *
gcv_scale_geometry_check (const GcvScaleGeometry * geom)
{
  if (geom == NULL)
    return "no geometry";
  if ((int) geom->type < GCV_SAMPLE_U8 || geom->type > GCV_SAMPLE_F32)
    return "sample type must be 8-bit, 16-bit or float";
  if (geom->channels < 1 || geom->channels > GCV_SCALE_MAX_CHANNELS)
    return "channels must be 1 to 4";
  if (geom->in_width < 1 || geom->in_height < 1 || geom->out_width < 1 || geom->out_height < 1)
    return "input and output sizes must be at least 1x1";
  if (geom->in_width > GCV_SCALE_MAX_DIMENSION || geom->in_height > GCV_SCALE_MAX_DIMENSION
      || geom->out_width > GCV_SCALE_MAX_DIMENSION || geom->out_height > GCV_SCALE_MAX_DIMENSION)
    return "sizes must be at most " GCV_SCALE_STRINGIFY (GCV_SCALE_MAX_DIMENSION);
  return NULL;
}

int
gcv_scale_mirror (long long i, int n)
{
  long long period = 2LL * n;
  long long m = i % period;

  if (m < 0)
    m += period;
  return (int) (m >= n ? period - 1 - m : m);
}

double
gcv_scale_kernel (GcvScaleMethod method, double t)
{
  double a = fabs (t);

  switch (method) {
    case GCV_SCALE_BSPLINE:
      if (a < 1.0)
        return 2.0 / 3.0 - a * a + 0.5 * a * a * a;
      if (a < 2.0)
        return (2.0 - a) * (2.0 - a) * (2.0 - a) / 6.0;
      return 0.0;
    case GCV_SCALE_CATMULL_ROM:
      if (a < 1.0)
        return 1.5 * a * a * a - 2.5 * a * a + 1.0;
      if (a < 2.0)
        return -0.5 * a * a * a + 2.5 * a * a - 4.0 * a + 2.0;
      return 0.0;
    case GCV_SCALE_BILINEAR:
      return a < 1.0 ? 1.0 - a : 0.0;
    case GCV_SCALE_NEAREST:
    default:
      return a < 0.5 ? 1.0 : 0.0;
  }
}

static double
kernel_radius (GcvScaleMethod method)
{
  return method == GCV_SCALE_BILINEAR ? 1.0 : 2.0;
}

/* Kernel stretch of an axis: s when antialiasing a downscale, else 1. */
static double
axis_stretch (const GcvScaleParams * params, int n_in, int n_out)
{
  double s = (double) n_in / n_out;

  return params->antialias && params->method != GCV_SCALE_NEAREST && s > 1.0 ? s : 1.0;
}

/* Input position of output sample o, ((2o + 1) n_in - n_out) / (2 n_out):
 * exact in double for every size up to 32767. */
static double
axis_position (int o, int n_in, int n_out)
{
  return ((2.0 * o + 1.0) * n_in - n_out) / (2.0 * n_out);
}

/* Taps strictly inside the (stretched) support: |x - i| < r. */
static void
axis_tap_range (double x, double r, long long *first, long long *last)
{
  *first = (long long) floor (x - r) + 1;
  *last = (long long) ceil (x + r) - 1;
}

int
gcv_scale_axis_taps (const GcvScaleParams * params, int n_in, int n_out)
{
  double r;
  int o, taps = 1;

  if (params->method == GCV_SCALE_NEAREST)
    return 1;
  r = kernel_radius (params->method) * axis_stretch (params, n_in, n_out);
  for (o = 0; o < n_out; o++) {
    long long first, last;
    axis_tap_range (axis_position (o, n_in, n_out), r, &first, &last);
    if (last - first + 1 > taps)
      taps = (int) (last - first + 1);
  }
  return taps;
}

void
gcv_scale_axis_clear (GcvScaleAxis * axis)
{
  free (axis->index);
  free (axis->weight);
  memset (axis, 0, sizeof (*axis));
}

GcvStatus
gcv_scale_axis_init (GcvScaleAxis * axis, const GcvScaleParams * params, int n_in, int n_out,
    GcvError * err)
{
  int taps = gcv_scale_axis_taps (params, n_in, n_out);
  double stretch = axis_stretch (params, n_in, n_out);
  double r = kernel_radius (params->method) * stretch;
  double *w = malloc (sizeof (double) * taps);
  int o, t;

  memset (axis, 0, sizeof (*axis));
  axis->index = malloc (sizeof (int32_t) * (size_t) taps * n_out);
  axis->weight = malloc (sizeof (float) * (size_t) taps * n_out);
  if (w == NULL || axis->index == NULL || axis->weight == NULL) {
    free (w);
    gcv_scale_axis_clear (axis);
    gcv_error_set (err, GCV_ERROR_NO_MEMORY, "no memory for a %d x %d tap scaling table", n_out,
        taps);
    return GCV_ERROR_NO_MEMORY;
  }
  axis->n_in = n_in;
  axis->n_out = n_out;
  axis->taps = taps;

  for (o = 0; o < n_out; o++) {
    int32_t *index = axis->index + (size_t) o * taps;
    float *weight = axis->weight + (size_t) o * taps;
    long long first, last, i;
    double x = axis_position (o, n_in, n_out), sum = 0.0;
    int n = 0;

    if (params->method == GCV_SCALE_NEAREST) {
      /* floor (x + 0.5) = floor ((2o + 1) n_in / (2 n_out)), in integers */
      index[0] = gcv_scale_mirror (((2LL * o + 1) * n_in) / (2LL * n_out), n_in);
      weight[0] = 1.0f;
      continue;
    }
    axis_tap_range (x, r, &first, &last);
    for (i = first; i <= last; i++, n++) {
      w[n] = gcv_scale_kernel (params->method, (x - (double) i) / stretch) / stretch;
      sum += w[n];
      index[n] = gcv_scale_mirror (i, n_in);
    }
    for (t = 0; t < n; t++)
      weight[t] = (float) (w[t] / sum);
    for (t = n; t < taps; t++) {
      weight[t] = 0.0f;
      index[t] = index[n - 1];
    }
  }
  free (w);
  return GCV_OK;
}

/* ---- CPU backend ---------------------------------------------------------- */

typedef struct
{
  float *window;                /* WINDOW x COLUMN_CHUNK causal values (vertical prefilter) */
  float *state;                 /* COLUMN_CHUNK: recursion state of the vertical prefilter */
  float *group;                 /* WINDOW x ROW_GROUP (horizontal prefilter) */
  float *row;                   /* in_width * channels: one input row as float */
  float *acc;                   /* out_width * channels: vertical FIR sums */
} Scratch;

struct _GcvScaleCpu
{
  GcvScaleGeometry geom;
  GcvScaleParams params;        /* the tables below were made for these */
  int have_tables;
  GcvScaleAxis x_axis, y_axis;
  float *coef_v;                /* in_height x in_width*channels: after the vertical prefilter */
  float *coef;                  /* the B-spline coefficients */
  float *horiz;                 /* in_height x out_width*channels: after the horizontal FIR */
  int n_scratch;
  Scratch *scratch;
  const GcvCancel *cancel;
};

GcvStatus
gcv_scale_process_check (const GcvScaleGeometry * g, const GcvScaleParams * params,
    const GcvPlane * in, const GcvPlane * out, GcvError * err)
{
  const char *why = gcv_scale_params_check (params);
  size_t a = (size_t) gcv_sample_bytes (g->type), bpp = a * g->channels;

  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s", why);
    return GCV_ERROR_INVALID;
  }
  if ((uintptr_t) in->data % a != 0 || (uintptr_t) out->data % a != 0 || in->stride % a != 0
      || out->stride % a != 0) {
    gcv_error_set (err, GCV_ERROR_INVALID, "plane data and strides must be multiples of %zu bytes",
        a);
    return GCV_ERROR_INVALID;
  }
  if (in->width != g->in_width || in->height != g->in_height || out->width != g->out_width
      || out->height != g->out_height || in->stride < bpp * g->in_width
      || out->stride < bpp * g->out_width) {
    gcv_error_set (err, GCV_ERROR_INVALID,
        "planes %dx%d -> %dx%d (strides %zu, %zu) do not match the context's %dx%d -> %dx%d",
        in->width, in->height, out->width, out->height, in->stride, out->stride, g->in_width,
        g->in_height, g->out_width, g->out_height);
    return GCV_ERROR_INVALID;
  }
  return GCV_OK;
}

void
gcv_scale_cpu_free (GcvScaleCpu * ctx)
{
  int i;

  if (ctx == NULL)
    return;
  gcv_scale_axis_clear (&ctx->x_axis);
  gcv_scale_axis_clear (&ctx->y_axis);
  free (ctx->coef_v);
  free (ctx->coef);
  free (ctx->horiz);
  for (i = 0; ctx->scratch && i < ctx->n_scratch; i++) {
    free (ctx->scratch[i].window);
    free (ctx->scratch[i].state);
    free (ctx->scratch[i].group);
    free (ctx->scratch[i].row);
    free (ctx->scratch[i].acc);
  }
  free (ctx->scratch);
  free (ctx);
}

GcvScaleCpu *
gcv_scale_cpu_new (const GcvScaleGeometry * geom, GcvError * err)
{
  const char *why = gcv_scale_geometry_check (geom);
  GcvScaleCpu *ctx;
  size_t in_row, out_row;
  int i;

  if (why) {
    gcv_error_set (err, GCV_ERROR_INVALID, "%s", why);
    return NULL;
  }
  ctx = calloc (1, sizeof (*ctx));
  if (ctx == NULL)
    goto no_memory;
  ctx->geom = *geom;
  in_row = (size_t) geom->in_width * geom->channels;
  out_row = (size_t) geom->out_width * geom->channels;
#ifdef _OPENMP
  ctx->n_scratch = omp_get_num_procs ();
#else
  ctx->n_scratch = 1;
#endif
  ctx->coef_v = malloc (sizeof (float) * in_row * geom->in_height);
  ctx->coef = malloc (sizeof (float) * in_row * geom->in_height);
  ctx->horiz = malloc (sizeof (float) * out_row * geom->in_height);
  ctx->scratch = calloc (ctx->n_scratch, sizeof (Scratch));
  if (!ctx->coef_v || !ctx->coef || !ctx->horiz || !ctx->scratch)
    goto no_memory;
  for (i = 0; i < ctx->n_scratch; i++) {
    Scratch *s = &ctx->scratch[i];
    s->window = malloc (sizeof (float) * WINDOW * COLUMN_CHUNK);
    s->state = malloc (sizeof (float) * COLUMN_CHUNK);
    s->group = malloc (sizeof (float) * WINDOW * ROW_GROUP);
    s->row = malloc (sizeof (float) * in_row);
    s->acc = malloc (sizeof (float) * out_row);
    if (!s->window || !s->state || !s->group || !s->row || !s->acc)
      goto no_memory;
  }
  return ctx;

no_memory:
  gcv_scale_cpu_free (ctx);
  gcv_error_set (err, GCV_ERROR_NO_MEMORY, "no memory for scaling %dx%d to %dx%d",
      geom->in_width, geom->in_height, geom->out_width, geom->out_height);
  return NULL;
}

/* Samples [x0, x0 + n) of one row as float. */
static void
load_row (float *dst, const void *row, GcvSampleType type, int x0, int n)
{
  int i;

  if (type == GCV_SAMPLE_U8) {
    const uint8_t *s = (const uint8_t *) row + x0;
    for (i = 0; i < n; i++)
      dst[i] = (float) s[i];
  } else if (type == GCV_SAMPLE_U16) {
    const uint16_t *s = (const uint16_t *) row + x0;
    for (i = 0; i < n; i++)
      dst[i] = (float) s[i];
  } else {
    memcpy (dst, (const float *) row + x0, sizeof (float) * n);
  }
}

static void
store_row (void *row, const float *src, GcvSampleType type, int n)
{
  int i;

  if (type == GCV_SAMPLE_U8) {
    uint8_t *d = row;
    for (i = 0; i < n; i++) {
      float v = rintf (src[i]);
      d[i] = (uint8_t) (v < 0.0f ? 0.0f : v > 255.0f ? 255.0f : v);
    }
  } else if (type == GCV_SAMPLE_U16) {
    uint16_t *d = row;
    for (i = 0; i < n; i++) {
      float v = rintf (src[i]);
      d[i] = (uint16_t) (v < 0.0f ? 0.0f : v > 65535.0f ? 65535.0f : v);
    }
  } else {
    memcpy (row, src, sizeof (float) * n);
  }
}

/* The contract's recursion for one segment on `lanes` scanlines side by
 * side.  win[k * stride + l] holds sample a - WARM + k of lane l
 * (k < WINDOW); the causal pass overwrites it with its own values, and the
 * anticausal pass leaves the coefficient of sample a + k - WARM in rows
 * k = WARM .. WARM + SEG - 1.  state: `lanes` floats of scratch.  The
 * kernels' prefilter_window() is the same sequence of operations. */
static void
iir_segment (float *win, size_t stride, int lanes, float *state)
{
  const float z = GCV_BSPLINE_POLE;
  int k, l;

  for (l = 0; l < lanes; l++)
    state[l] = 0.0f;
  for (k = 0; k < WINDOW; k++) {
    float *y = win + k * stride;
    for (l = 0; l < lanes; l++) {
      state[l] = y[l] + z * state[l];
      y[l] = state[l];
    }
  }
  for (l = 0; l < lanes; l++)
    state[l] = 0.0f;
  for (k = WINDOW - 1; k >= WARM; k--) {
    float *y = win + k * stride;
    for (l = 0; l < lanes; l++)
      state[l] = z * (state[l] - y[l]);
    if (k < SEG + WARM)
      for (l = 0; l < lanes; l++)
        y[l] = 6.0f * state[l];
  }
}

/* Vertical prefilter of columns [e0, e0 + n) (floats of interleaved rows)
 * for the segment of rows from a, COLUMN_CHUNK columns side by side. */
static void
prefilter_columns (GcvScaleCpu * ctx, Scratch * s, const GcvPlane * in, int a, int e0, int n)
{
  const GcvScaleGeometry *g = &ctx->geom;
  size_t row_floats = (size_t) g->in_width * g->channels;
  int k;

  for (k = 0; k < WINDOW; k++) {
    const uint8_t *row = (const uint8_t *) in->data
        + in->stride * gcv_scale_mirror (a - WARM + k, g->in_height);
    load_row (s->window + (size_t) k * COLUMN_CHUNK, row, g->type, e0, n);
  }
  iir_segment (s->window, COLUMN_CHUNK, n, s->state);
  for (k = WARM; k < SEG + WARM && a + k - WARM < g->in_height; k++)
    memcpy (ctx->coef_v + row_floats * (a + k - WARM) + e0, s->window + (size_t) k * COLUMN_CHUNK,
        sizeof (float) * n);
}

/* Horizontal prefilter of ROW_GROUP rows from r0 (the last row repeated
 * past the bottom, its results not stored), channel c, the segment of
 * samples from a: the window is gathered into s->group, ROW_GROUP rows side
 * by side. */
static void
prefilter_rows (GcvScaleCpu * ctx, Scratch * s, int r0, int c, int a)
{
  const GcvScaleGeometry *g = &ctx->geom;
  size_t row_floats = (size_t) g->in_width * g->channels;
  const float *src[ROW_GROUP];
  float state[ROW_GROUP];
  int j, k, r, rows = g->in_height - r0 < ROW_GROUP ? g->in_height - r0 : ROW_GROUP;

  for (r = 0; r < ROW_GROUP; r++)
    src[r] = ctx->coef_v + row_floats * (r0 + (r < rows ? r : rows - 1)) + c;
  for (k = 0; k < WINDOW; k++) {
    size_t off = (size_t) gcv_scale_mirror (a - WARM + k, g->in_width) * g->channels;
    for (r = 0; r < ROW_GROUP; r++)
      s->group[k * ROW_GROUP + r] = src[r][off];
  }
  iir_segment (s->group, ROW_GROUP, ROW_GROUP, state);
  for (k = WARM, j = a; k < SEG + WARM && j < g->in_width; k++, j++)
    for (r = 0; r < rows; r++)
      ctx->coef[row_floats * (r0 + r) + (size_t) j * g->channels + c] = s->group[k * ROW_GROUP + r];
}

static void
fir_horizontal_row (GcvScaleCpu * ctx, Scratch * s, const GcvPlane * in, int y)
{
  const GcvScaleGeometry *g = &ctx->geom;
  const GcvScaleAxis *ax = &ctx->x_axis;
  const int C = g->channels, taps = ax->taps;
  const float *src;
  float *dst = ctx->horiz + (size_t) g->out_width * C * y;
  int ox, c, t;

  if (ctx->params.method == GCV_SCALE_BSPLINE) {
    src = ctx->coef + (size_t) g->in_width * C * y;
  } else {
    load_row (s->row, (const uint8_t *) in->data + in->stride * y, g->type, 0, g->in_width * C);
    src = s->row;
  }
  for (ox = 0; ox < g->out_width; ox++) {
    const int32_t *index = ax->index + (size_t) ox * taps;
    const float *weight = ax->weight + (size_t) ox * taps;
    for (c = 0; c < C; c++) {
      float acc = 0.0f;
      for (t = 0; t < taps; t++)
        acc = acc + weight[t] * src[(size_t) index[t] * C + c];
      dst[(size_t) ox * C + c] = acc;
    }
  }
}

static void
fir_vertical_row (GcvScaleCpu * ctx, Scratch * s, GcvPlane * out, int oy)
{
  const GcvScaleGeometry *g = &ctx->geom;
  const GcvScaleAxis *ay = &ctx->y_axis;
  const int n = g->out_width * g->channels, taps = ay->taps;
  const int32_t *index = ay->index + (size_t) oy * taps;
  const float *weight = ay->weight + (size_t) oy * taps;
  float *acc = s->acc;
  int e, t;

  for (e = 0; e < n; e++)
    acc[e] = 0.0f;
  for (t = 0; t < taps; t++) {
    const float w = weight[t];
    const float *src = ctx->horiz + (size_t) n * index[t];
    if (t % 64 == 63 && gcv_cancel_requested (ctx->cancel))
      return;
    for (e = 0; e < n; e++)
      acc[e] = acc[e] + w * src[e];
  }
  store_row ((uint8_t *) out->data + out->stride * oy, acc, g->type, n);
}

GcvStatus
gcv_scale_cpu_process (GcvScaleCpu * ctx, const GcvScaleParams * params, const GcvPlane * in,
    GcvPlane * out, int n_threads, GcvError * err)
{
  const GcvScaleGeometry *g = &ctx->geom;
  int nt, i;

  if (gcv_scale_process_check (g, params, in, out, err) != GCV_OK)
    return GCV_ERROR_INVALID;
  if (!ctx->have_tables || ctx->params.method != params->method
      || ctx->params.antialias != params->antialias) {
    gcv_scale_axis_clear (&ctx->x_axis);
    gcv_scale_axis_clear (&ctx->y_axis);
    ctx->have_tables = 0;
    if (gcv_scale_axis_init (&ctx->x_axis, params, g->in_width, g->out_width, err) != GCV_OK
        || gcv_scale_axis_init (&ctx->y_axis, params, g->in_height, g->out_height, err) != GCV_OK)
      return err ? err->status : GCV_ERROR_NO_MEMORY;
    ctx->params = *params;
    ctx->have_tables = 1;
  }

  nt = gcv_parallel_threads (n_threads, NS_PER_TAP * g->channels * g->out_width
      * ((double) g->in_height * ctx->x_axis.taps + (double) g->out_height * ctx->y_axis.taps)
      + (params->method == GCV_SCALE_BSPLINE ? NS_PER_PREFILTER_SAMPLE * g->channels * g->in_width
          * (double) g->in_height : 0.0));
  if (nt > ctx->n_scratch)
    nt = ctx->n_scratch;

  if (params->method == GCV_SCALE_BSPLINE) {
    int row_floats = g->in_width * g->channels;
    int n_chunks = (row_floats + COLUMN_CHUNK - 1) / COLUMN_CHUNK;
    int n_seg_y = (g->in_height + SEG - 1) / SEG;
    int n_seg_x = (g->in_width + SEG - 1) / SEG;
    int n_groups = (g->in_height + ROW_GROUP - 1) / ROW_GROUP;

#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (i = 0; i < n_seg_y * n_chunks; i++) {
      int a = (i / n_chunks) * SEG, e0 = (i % n_chunks) * COLUMN_CHUNK;
      int n = e0 + COLUMN_CHUNK < row_floats ? COLUMN_CHUNK : row_floats - e0;
      if (gcv_cancel_requested (ctx->cancel))
        continue;
      prefilter_columns (ctx, &ctx->scratch[gcv_thread_index ()], in, a, e0, n);
    }
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)
    for (i = 0; i < n_groups * g->channels; i++) {
      int r0 = (i / g->channels) * ROW_GROUP, c = i % g->channels, k;
      for (k = 0; k < n_seg_x && !gcv_cancel_requested (ctx->cancel); k++)
        prefilter_rows (ctx, &ctx->scratch[gcv_thread_index ()], r0, c, k * SEG);
    }
  }
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (i = 0; i < g->in_height; i++)
    if (!gcv_cancel_requested (ctx->cancel))
      fir_horizontal_row (ctx, &ctx->scratch[gcv_thread_index ()], in, i);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (i = 0; i < g->out_height; i++)
    if (!gcv_cancel_requested (ctx->cancel))
      fir_vertical_row (ctx, &ctx->scratch[gcv_thread_index ()], out, i);
  return gcv_cancel_check (ctx->cancel, "scaling", err);
}

void
gcv_scale_cpu_set_cancel (GcvScaleCpu * ctx, const GcvCancel * cancel)
{
  ctx->cancel = cancel;
}
