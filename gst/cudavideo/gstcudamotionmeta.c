/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 *
 * This library is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Library General Public License for more details.
 */
/**
 * SECTION:gstcudamotionmeta
 * @title: GstCudaVideoMotionMeta
 * @short_description: the block vectors (cudamotionest) and tracked points (cudavcm) on every buffer
 *
 * cudamotionest / cpumotionest and cudavcm / cpuvcm attach a
 * #GstCudaVideoMotionMeta to every buffer they pass.  A buffer that went
 * through several of them carries one meta per element, told apart by
 * #GstCudaVideoMotionMeta.kind and #GstCudaVideoMotionMeta.source.
 *
 * In C (`pkg-config --cflags --libs gstreamer-cudavideo-1.0`):
 * |[<!-- language="C" -->
 * #include <gst/cudavideo/cudavideo.h>
 *
 * GstCudaVideoMotionMeta *meta =
 *     gst_buffer_get_cuda_video_motion_meta (buffer, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS);
 * guint n, i;
 * const GstCudaVideoMotionVector *v = gst_cuda_video_motion_meta_get_vectors (meta, &n);
 * for (i = 0; i < n; i++)
 *   g_print ("(%d, %d) moved (%d, %d) / 4 px\n", v[i].x, v[i].y, v[i].dx, v[i].dy);
 * ]|
 *
 * In Python (the GstCudaVideo-1.0 typelib):
 * |[<!-- language="Python" -->
 * gi.require_version("GstCudaVideo", "1.0")
 * from gi.repository import GstCudaVideo
 *
 * for meta in GstCudaVideo.buffer_get_cuda_video_motion_metas(buffer):
 *     if meta.kind == GstCudaVideo.MotionKind.BLOCKS:
 *         for v in meta.get_vectors():
 *             print(v.x, v.y, v.dx / meta.vector_scale, v.dy / meta.vector_scale)
 * ]|
 *
 * gst_cuda_video_motion_meta_get_records_buffer() gives the records as one
 * #GstBuffer, which Python maps (gst-python's Gst.Buffer.map) into a
 * memoryview that numpy.frombuffer wraps without a copy.
 *
 * From GStreamer 1.24 on the meta serializes (gst_meta_serialize()), so
 * that it crosses unixfdsink / unixfdsrc and cudaipcsink / cudaipcsrc into
 * another process.  That process must have registered the meta before its
 * first buffer arrives: gst_cuda_video_motion_meta_get_info() (or loading
 * the plugin: any of its elements) does it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudamotionmeta.h"

#include <gst/video/video.h>
#include <math.h>
#include <string.h>

#define RECORD_SIZE 20
G_STATIC_ASSERT (sizeof (GstCudaVideoMotionVector) == RECORD_SIZE);
G_STATIC_ASSERT (sizeof (GstCudaVideoMotionPoint) == RECORD_SIZE);

GType
gst_cuda_video_motion_kind_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, "block vectors (cudamotionest)", "blocks"},
    {GST_CUDA_VIDEO_MOTION_KIND_POINTS, "tracked points (cudavcm)", "points"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstCudaVideoMotionKind", values);
    g_once_init_leave (&id, t);
  }
  return (GType) id;
}

static gpointer
vector_copy (gpointer v)
{
  GstCudaVideoMotionVector *copy = g_new (GstCudaVideoMotionVector, 1);

  *copy = *(GstCudaVideoMotionVector *) v;
  return copy;
}

static gpointer
point_copy (gpointer p)
{
  GstCudaVideoMotionPoint *copy = g_new (GstCudaVideoMotionPoint, 1);

  *copy = *(GstCudaVideoMotionPoint *) p;
  return copy;
}

G_DEFINE_BOXED_TYPE (GstCudaVideoMotionVector, gst_cuda_video_motion_vector, vector_copy, g_free);
G_DEFINE_BOXED_TYPE (GstCudaVideoMotionPoint, gst_cuda_video_motion_point, point_copy, g_free);

GType
gst_cuda_video_motion_meta_api_get_type (void)
{
  static gsize type = 0;
  /* the records describe the frame's geometry: what keeps it keeps them,
   * scalers rescale them (the transform function), croppers and flips
   * drop them */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
  };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstCudaVideoMotionMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return (GType) type;
}

static gboolean
motion_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstCudaVideoMotionMeta *m = (GstCudaVideoMotionMeta *) meta;

  /* gst_buffer_add_meta does not clear the memory */
  memset ((guint8 *) m + sizeof (GstMeta), 0, sizeof (*m) - sizeof (GstMeta));
  m->pts = m->reference_pts = GST_CLOCK_TIME_NONE;
  m->vector_scale = 1;
  return TRUE;
}

static void
motion_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  GstCudaVideoMotionMeta *m = (GstCudaVideoMotionMeta *) meta;

  g_clear_pointer (&m->records, g_bytes_unref);
}

/* Everything of @src but the records (and the GstMeta) onto @dst. */
static void
copy_fields (GstCudaVideoMotionMeta * dst, const GstCudaVideoMotionMeta * src)
{
  GBytes *records = dst->records;

  memcpy ((guint8 *) dst + sizeof (GstMeta), (const guint8 *) src + sizeof (GstMeta),
      sizeof (*dst) - sizeof (GstMeta));
  dst->records = records;
}

/* The records of @meta rescaled by @sx, @sy: block positions to the
 * nearest pixel and block vectors to the nearest unit of vector_scale
 * (halves away from zero), points exactly (to the nearest float). */
static GBytes *
scale_records (const GstCudaVideoMotionMeta * meta, gdouble sx, gdouble sy)
{
  gsize size;
  gconstpointer in = g_bytes_get_data (meta->records, &size);
  guint n = size / RECORD_SIZE, i;
  gpointer out = g_malloc (MAX (size, 1));

  for (i = 0; i < n; i++) {
    if (meta->kind == GST_CUDA_VIDEO_MOTION_KIND_BLOCKS) {
      const GstCudaVideoMotionVector *v = (const GstCudaVideoMotionVector *) in + i;
      GstCudaVideoMotionVector *o = (GstCudaVideoMotionVector *) out + i;
      o->x = (gint32) lround (v->x * sx);
      o->y = (gint32) lround (v->y * sy);
      o->dx = (gint32) lround (v->dx * sx);
      o->dy = (gint32) lround (v->dy * sy);
      o->sad = v->sad;
    } else {
      const GstCudaVideoMotionPoint *p = (const GstCudaVideoMotionPoint *) in + i;
      GstCudaVideoMotionPoint *o = (GstCudaVideoMotionPoint *) out + i;
      o->x = (gfloat) (p->x * sx);
      o->y = (gfloat) (p->y * sy);
      o->dx = (gfloat) (p->dx * sx);
      o->dy = (gfloat) (p->dy * sy);
      o->score = p->score;
    }
  }
  return g_bytes_new_take (out, size);
}

/* Whether @buffer already carries a meta with @meta's results: the same
 * kind from the same element for the same frame. */
static gboolean
has_same_results (GstBuffer * buffer, const GstCudaVideoMotionMeta * meta)
{
  gpointer state = NULL;
  GstMeta *m;

  while ((m = gst_buffer_iterate_meta_filtered (buffer, &state, GST_CUDA_VIDEO_MOTION_META_API_TYPE)) != NULL) {
    const GstCudaVideoMotionMeta *other = (const GstCudaVideoMotionMeta *) m;
    if (other != meta && other->kind == meta->kind && other->frame == meta->frame
        && g_strcmp0 (other->source, meta->source) == 0)
      return TRUE;
  }
  return FALSE;
}

static gboolean
motion_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer, GQuark type, gpointer data)
{
  GstCudaVideoMotionMeta *src = (GstCudaVideoMotionMeta *) meta, *dst;
  gint width = src->width, height = src->height;
  GBytes *records;

  if (GST_META_TRANSFORM_IS_COPY (type)) {
    GstMetaTransformCopy *copy = data;
    /* a part of the buffer's memory is not the frame the records describe */
    if (copy->region)
      return FALSE;
    /* GStreamer 1.20's videoscale scales the meta onto the output and then
     * lets the base class copy it too: the scaled one stands */
    if (has_same_results (dest, src))
      return TRUE;
    records = g_bytes_ref (src->records);
  } else if (GST_VIDEO_META_TRANSFORM_IS_SCALE (type)) {
    GstVideoMetaTransform *trans = data;
    gdouble sx, sy;

    width = GST_VIDEO_INFO_WIDTH (trans->out_info);
    height = GST_VIDEO_INFO_HEIGHT (trans->out_info);
    if (width <= 0 || height <= 0 || src->width <= 0 || src->height <= 0)
      return FALSE;
    /* videoconvert asks for a "scale" to the same size: a copy */
    if (width == src->width && height == src->height) {
      records = g_bytes_ref (src->records);
    } else {
      sx = (gdouble) width / src->width;
      sy = (gdouble) height / src->height;
      records = scale_records (src, sx, sy);
    }
  } else {
    /* anything else may change the geometry in ways we cannot follow */
    return FALSE;
  }

  dst = gst_buffer_add_cuda_video_motion_meta (dest, src->kind, src->source, records);
  g_bytes_unref (records);
  if (dst == NULL)
    return FALSE;
  copy_fields (dst, src);
  if (width != src->width || height != src->height) {
    gdouble sx = (gdouble) width / src->width, sy = (gdouble) height / src->height;
    dst->width = width;
    dst->height = height;
    if (dst->kind == GST_CUDA_VIDEO_MOTION_KIND_BLOCKS) {
      dst->block_width = MAX (1, (gint) lround (src->block_width * sx));
      dst->block_height = MAX (1, (gint) lround (src->block_height * sy));
    }
  }
  return TRUE;
}

#if GST_CHECK_VERSION(1, 24, 0)
/* Serialized form (version 0), little-endian whatever the host:
 *   u8 kind, u8 has_reference, u16 0
 *   u64 frame, pts, reference_pts
 *   i32 each of int_fields below
 *   u32 n_records
 *   u16 length + bytes of source, then of method (0xffff: NULL)
 *   n_records records of 5 x 32 bits (i32 x, y, dx, dy, u32 sad; or 5 f32) */
static const glong int_fields[] = {
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, width), G_STRUCT_OFFSET (GstCudaVideoMotionMeta, height),
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, block_width), G_STRUCT_OFFSET (GstCudaVideoMotionMeta, block_height),
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, grid_width), G_STRUCT_OFFSET (GstCudaVideoMotionMeta, grid_height),
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, subpel), G_STRUCT_OFFSET (GstCudaVideoMotionMeta, vector_scale),
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, window_size), G_STRUCT_OFFSET (GstCudaVideoMotionMeta, template_size),
  G_STRUCT_OFFSET (GstCudaVideoMotionMeta, search_size),
};

#define FIXED_SIZE (4 + 3 * 8 + G_N_ELEMENTS (int_fields) * 4 + 4)
#define NO_STRING 0xffff

static guint8 *
write_string (guint8 * p, const gchar * s)
{
  gsize len = s ? strlen (s) : 0;

  GST_WRITE_UINT16_LE (p, s ? (guint16) len : NO_STRING);
  memcpy (p + 2, s ? s : "", len);
  return p + 2 + len;
}

static gboolean
motion_meta_serialize (const GstMeta * meta, GstByteArrayInterface * data, guint8 * version)
{
  const GstCudaVideoMotionMeta *m = (const GstCudaVideoMotionMeta *) meta;
  gsize size, src_len = m->source ? strlen (m->source) : 0, method_len = m->method ? strlen (m->method) : 0;
  const guint8 *records = g_bytes_get_data (m->records, &size);
  guint8 *p;
  guint i;

  if (src_len >= NO_STRING || method_len >= NO_STRING || size != (gsize) m->n_records * RECORD_SIZE)
    return FALSE;
  p = gst_byte_array_interface_append (data, FIXED_SIZE + 4 + src_len + method_len + size);
  if (p == NULL)
    return FALSE;
  p[0] = (guint8) m->kind;
  p[1] = m->has_reference ? 1 : 0;
  GST_WRITE_UINT16_LE (p + 2, 0);
  GST_WRITE_UINT64_LE (p + 4, m->frame);
  GST_WRITE_UINT64_LE (p + 12, m->pts);
  GST_WRITE_UINT64_LE (p + 20, m->reference_pts);
  p += 28;
  for (i = 0; i < G_N_ELEMENTS (int_fields); i++, p += 4)
    GST_WRITE_UINT32_LE (p, (guint32) G_STRUCT_MEMBER (gint32, m, int_fields[i]));
  GST_WRITE_UINT32_LE (p, m->n_records);
  p = write_string (p + 4, m->source);
  p = write_string (p, m->method);
  /* every field of both record types is 32 bits wide */
  for (i = 0; i < size / 4; i++)
    GST_WRITE_UINT32_LE (p + 4 * i, ((const guint32 *) records)[i]);
  *version = 0;
  return TRUE;
}

/* The string at *p (advanced past it), interned; FALSE when it runs past
 * @end or is not UTF-8. */
static gboolean
read_string (const guint8 ** p, const guint8 * end, const gchar ** s)
{
  guint16 len;
  gchar *copy;

  if (end - *p < 2)
    return FALSE;
  len = GST_READ_UINT16_LE (*p);
  *p += 2;
  if (len == NO_STRING) {
    *s = NULL;
    return TRUE;
  }
  if (end - *p < len || !g_utf8_validate ((const gchar *) *p, len, NULL))
    return FALSE;
  copy = g_strndup ((const gchar *) *p, len);
  *s = g_intern_string (copy);
  g_free (copy);
  *p += len;
  return TRUE;
}

static GstMeta *
motion_meta_deserialize (const GstMetaInfo * info, GstBuffer * buffer, const guint8 * data, gsize size,
    guint8 version)
{
  const guint8 *p = data, *end = data + size;
  GstCudaVideoMotionMeta fields, *m;
  const gchar *source, *method;
  guint32 *records;
  guint i, n;

  if (version != 0 || size < FIXED_SIZE || data[0] > GST_CUDA_VIDEO_MOTION_KIND_POINTS)
    return NULL;
  memset (&fields, 0, sizeof (fields));
  fields.kind = (GstCudaVideoMotionKind) data[0];
  fields.has_reference = data[1] != 0;
  fields.frame = GST_READ_UINT64_LE (p + 4);
  fields.pts = GST_READ_UINT64_LE (p + 12);
  fields.reference_pts = GST_READ_UINT64_LE (p + 20);
  p += 28;
  for (i = 0; i < G_N_ELEMENTS (int_fields); i++, p += 4)
    G_STRUCT_MEMBER (gint32, &fields, int_fields[i]) = (gint32) GST_READ_UINT32_LE (p);
  n = GST_READ_UINT32_LE (p);
  p += 4;
  if (!read_string (&p, end, &source) || !read_string (&p, end, &method))
    return NULL;
  if ((gsize) (end - p) != (gsize) n * RECORD_SIZE || fields.width <= 0 || fields.height <= 0
      || (fields.kind == GST_CUDA_VIDEO_MOTION_KIND_BLOCKS
          && (fields.grid_width <= 0 || fields.grid_height <= 0
              || (guint64) fields.grid_width * fields.grid_height != n)))
    return NULL;

  records = g_new (guint32, MAX ((gsize) n * 5, 1));
  for (i = 0; i < n * 5; i++)
    records[i] = GST_READ_UINT32_LE (p + 4 * i);
  {
    GBytes *bytes = g_bytes_new_take (records, (gsize) n * RECORD_SIZE);
    m = gst_buffer_add_cuda_video_motion_meta (buffer, fields.kind, source, bytes);
    g_bytes_unref (bytes);
  }
  if (m == NULL)
    return NULL;
  copy_fields (m, &fields);
  m->source = source;
  m->method = method;
  m->n_records = n;
  return (GstMeta *) m;
}
#endif

#if GST_CHECK_VERSION(1, 24, 0)
/* The meta packed into a GstCustomMeta: cudaipcsink (1.24 to 1.28 at
 * least) forwards custom metas only.  Its structure's "data" holds
 * gst_meta_serialize()'s bytes.  Tagged as the meta, so that what would
 * drop or rescale the meta drops it. */
#define PACKED_META_NAME "GstCudaVideoMotionMetaPacked"

static void
register_packed_meta (void)
{
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
  };

  gst_meta_register_custom (PACKED_META_NAME, tags, NULL, NULL, NULL);
}
#endif

/**
 * gst_cuda_video_motion_meta_get_info:
 *
 * Registers the meta (once; and, from GStreamer 1.24 on, its packed form,
 * gst_cuda_video_motion_meta_pack()) and returns its #GstMetaInfo.  An
 * application that receives buffers from another process (unixfdsrc,
 * cudaipcsrc) calls it before the first buffer arrives, so that the metas
 * are recreated there.
 *
 * Returns: (transfer none): the #GstMetaInfo of #GstCudaVideoMotionMeta
 */
const GstMetaInfo *
gst_cuda_video_motion_meta_get_info (void)
{
  static const GstMetaInfo *meta_info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & meta_info)) {
    const GstMetaInfo *mi;
#if GST_CHECK_VERSION(1, 24, 0)
    GstMetaInfo *info = gst_meta_info_new (GST_CUDA_VIDEO_MOTION_META_API_TYPE, "GstCudaVideoMotionMeta",
        sizeof (GstCudaVideoMotionMeta));
    info->init_func = motion_meta_init;
    info->free_func = motion_meta_free;
    info->transform_func = motion_meta_transform;
    info->serialize_func = motion_meta_serialize;
    info->deserialize_func = motion_meta_deserialize;
    mi = gst_meta_info_register (info);
    register_packed_meta ();
#else
    mi = gst_meta_register (GST_CUDA_VIDEO_MOTION_META_API_TYPE, "GstCudaVideoMotionMeta",
        sizeof (GstCudaVideoMotionMeta), motion_meta_init, motion_meta_free, motion_meta_transform);
#endif
    g_once_init_leave ((GstMetaInfo **) & meta_info, (GstMetaInfo *) mi);
  }
  return meta_info;
}

/**
 * gst_buffer_get_cuda_video_motion_meta:
 * @buffer: a #GstBuffer
 * @kind: the records wanted
 *
 * The first motion meta of @kind on @buffer (use
 * gst_buffer_get_cuda_video_motion_metas() when several elements of one
 * kind analysed it).
 *
 * Returns: (transfer none) (nullable): the meta, or %NULL when @buffer has
 * none of @kind
 */
GstCudaVideoMotionMeta *
gst_buffer_get_cuda_video_motion_meta (GstBuffer * buffer, GstCudaVideoMotionKind kind)
{
  gpointer state = NULL;
  GstMeta *meta;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state, GST_CUDA_VIDEO_MOTION_META_API_TYPE)))
    if (((GstCudaVideoMotionMeta *) meta)->kind == kind)
      return (GstCudaVideoMotionMeta *) meta;
  return NULL;
}

/**
 * gst_buffer_get_cuda_video_motion_metas:
 * @buffer: a #GstBuffer
 *
 * Every motion meta of @buffer: one per motion element the buffer went
 * through (block vectors of cudamotionest, points of cudavcm, ...), in no
 * particular order; #GstCudaVideoMotionMeta.kind and
 * #GstCudaVideoMotionMeta.source tell them apart.
 *
 * Returns: (transfer container) (element-type GstCudaVideoMotionMeta): the
 * metas, owned by @buffer (free the list with g_list_free())
 */
GList *
gst_buffer_get_cuda_video_motion_metas (GstBuffer * buffer)
{
  gpointer state = NULL;
  GstMeta *meta;
  GList *list = NULL;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state, GST_CUDA_VIDEO_MOTION_META_API_TYPE)))
    list = g_list_prepend (list, meta);
  return g_list_reverse (list);
}

/**
 * gst_buffer_add_cuda_video_motion_meta:
 * @buffer: a writable #GstBuffer
 * @kind: what @records are
 * @source: (nullable): the name of the element that found them
 * @records: (nullable): #GstCudaVideoMotionVector or #GstCudaVideoMotionPoint
 *     records (20 bytes each), native-endian; %NULL for none
 *
 * Attaches a motion meta with @records (a reference is taken) to @buffer,
 * in place of a meta of the same @kind and @source the buffer had.  The
 * other fields start at 0 (#GstCudaVideoMotionMeta.vector_scale at 1, the
 * timestamps at %GST_CLOCK_TIME_NONE): the caller fills them in.
 *
 * Returns: (transfer none) (nullable): the meta, or %NULL when @records is
 * not a whole number of records
 */
GstCudaVideoMotionMeta *
gst_buffer_add_cuda_video_motion_meta (GstBuffer * buffer, GstCudaVideoMotionKind kind, const gchar * source,
    GBytes * records)
{
  GstCudaVideoMotionMeta *meta;
  gsize size = records ? g_bytes_get_size (records) : 0;
  gboolean found;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (size % RECORD_SIZE == 0, NULL);

  source = g_intern_string (source);
  do {
    gpointer state = NULL;
    GstMeta *m;

    found = FALSE;
    while ((m = gst_buffer_iterate_meta_filtered (buffer, &state, GST_CUDA_VIDEO_MOTION_META_API_TYPE)))
      if (((GstCudaVideoMotionMeta *) m)->kind == kind && ((GstCudaVideoMotionMeta *) m)->source == source)
        break;
    if (m != NULL)
      found = gst_buffer_remove_meta (buffer, m);
  } while (found);

  meta = (GstCudaVideoMotionMeta *) gst_buffer_add_meta (buffer, GST_CUDA_VIDEO_MOTION_META_INFO, NULL);
  if (meta == NULL)
    return NULL;
  meta->kind = kind;
  meta->source = source;
  meta->records = records ? g_bytes_ref (records) : g_bytes_new (NULL, 0);
  meta->n_records = (guint) (size / RECORD_SIZE);
  return meta;
}

/**
 * gst_cuda_video_motion_meta_get_vectors:
 * @meta: a %GST_CUDA_VIDEO_MOTION_KIND_BLOCKS meta
 * @n_vectors: (out): how many records there are
 *
 * The block vectors, in raster order of the grid, as long as @meta lives.
 *
 * Returns: (transfer none) (array length=n_vectors) (nullable): the
 * records; %NULL (and 0) for a points meta
 */
/* The records of @meta when it is of @kind (and has some), else NULL, 0. */
static gconstpointer
records_of_kind (GstCudaVideoMotionMeta * meta, GstCudaVideoMotionKind kind, guint * n)
{
  *n = 0;
  if (meta->kind != kind || meta->n_records == 0)
    return NULL;
  *n = meta->n_records;
  return g_bytes_get_data (meta->records, NULL);
}

const GstCudaVideoMotionVector *
gst_cuda_video_motion_meta_get_vectors (GstCudaVideoMotionMeta * meta, guint * n_vectors)
{
  g_return_val_if_fail (meta != NULL && n_vectors != NULL, NULL);

  return records_of_kind (meta, GST_CUDA_VIDEO_MOTION_KIND_BLOCKS, n_vectors);
}

/**
 * gst_cuda_video_motion_meta_get_points:
 * @meta: a %GST_CUDA_VIDEO_MOTION_KIND_POINTS meta
 * @n_points: (out): how many points there are
 *
 * The tracked points, in raster order of the windows they were picked in,
 * as long as @meta lives.
 *
 * Returns: (transfer none) (array length=n_points) (nullable): the
 * records; %NULL (and 0) without points or for a blocks meta
 */
const GstCudaVideoMotionPoint *
gst_cuda_video_motion_meta_get_points (GstCudaVideoMotionMeta * meta, guint * n_points)
{
  g_return_val_if_fail (meta != NULL && n_points != NULL, NULL);

  return records_of_kind (meta, GST_CUDA_VIDEO_MOTION_KIND_POINTS, n_points);
}

/**
 * gst_cuda_video_motion_meta_get_records:
 * @meta: a #GstCudaVideoMotionMeta
 *
 * Returns: (transfer none): the records as they are stored:
 * #GstCudaVideoMotionMeta.n_records times 20 bytes, native-endian
 */
GBytes *
gst_cuda_video_motion_meta_get_records (GstCudaVideoMotionMeta * meta)
{
  g_return_val_if_fail (meta != NULL, NULL);

  return meta->records;
}

/**
 * gst_cuda_video_motion_meta_get_records_buffer:
 * @meta: a #GstCudaVideoMotionMeta
 *
 * The records as one read-only #GstBuffer that shares their memory (no
 * copy): #GstCudaVideoMotionMeta.n_records times 20 bytes, native-endian.
 * In Python, gst-python's `Gst.Buffer.map()` gives a memoryview of it that
 * `numpy.frombuffer()` wraps without a copy (the dtypes are in
 * #GstCudaVideoMotionVector and #GstCudaVideoMotionPoint); the array is
 * valid until the buffer is unmapped.
 *
 * Returns: (transfer full): a buffer of the records (without memory when
 * there are none)
 */
GstBuffer *
gst_cuda_video_motion_meta_get_records_buffer (GstCudaVideoMotionMeta * meta)
{
  GstBuffer *buffer;

  g_return_val_if_fail (meta != NULL, NULL);

  if (g_bytes_get_size (meta->records) == 0)
    return gst_buffer_new ();
  buffer = gst_buffer_new_wrapped_bytes (meta->records);
  /* the records are shared with every copy of the meta */
  GST_MINI_OBJECT_FLAG_SET (gst_buffer_peek_memory (buffer, 0), GST_MEMORY_FLAG_READONLY);
  return buffer;
}

/**
 * gst_cuda_video_motion_meta_pack:
 * @meta: a #GstCudaVideoMotionMeta
 * @buffer: (transfer none): a writable buffer (the one of @meta, or another)
 *
 * Adds to @buffer a copy of @meta packed into a #GstCustomMeta (its
 * serialized bytes), for the way into other processes through elements
 * that forward custom metas only: GStreamer's cudaipcsink (1.24 to at
 * least 1.28).  unixfdsink carries the meta itself.  The receiving side
 * turns it back with gst_buffer_unpack_cuda_video_motion_metas().
 * cudamotionest and cudavcm do it themselves with ipc-meta=true.
 *
 * Returns: %TRUE when packed; %FALSE where metas do not serialize (built
 * against GStreamer older than 1.24)
 */
gboolean
gst_cuda_video_motion_meta_pack (GstCudaVideoMotionMeta * meta, GstBuffer * buffer)
{
#if GST_CHECK_VERSION(1, 24, 0)
  GByteArray *data;
  GstCustomMeta *packed;
  GstBuffer *bytes;
  guint len;

  g_return_val_if_fail (meta != NULL && GST_IS_BUFFER (buffer), FALSE);

  gst_cuda_video_motion_meta_get_info ();
  data = g_byte_array_new ();
  if (!gst_meta_serialize_simple ((GstMeta *) meta, data)
      || (packed = gst_buffer_add_custom_meta (buffer, PACKED_META_NAME)) == NULL) {
    g_byte_array_unref (data);
    return FALSE;
  }
  len = data->len;
  bytes = gst_buffer_new_wrapped (g_byte_array_free (data, FALSE), len);
  gst_structure_set (gst_custom_meta_get_structure (packed), "data", GST_TYPE_BUFFER, bytes, NULL);
  gst_buffer_unref (bytes);
  return TRUE;
#else
  return FALSE;
#endif
}

/**
 * gst_buffer_unpack_cuda_video_motion_metas:
 * @buffer: (transfer none): a buffer, perhaps with packed metas (after
 *     cudaipcsrc)
 *
 * Turns the packed metas of @buffer (gst_cuda_video_motion_meta_pack())
 * back into #GstCudaVideoMotionMeta, each in place of a meta of the same
 * kind and source, in a copy of @buffer that shares its memory (a
 * buffer from appsink is not writable).  A packed meta that does not
 * unpack (corrupt, or of a newer format) is dropped.  In a pad probe:
 * |[<!-- language="C" -->
 * GstBuffer *in = GST_PAD_PROBE_INFO_BUFFER (info);
 * GST_PAD_PROBE_INFO_DATA (info) = gst_buffer_unpack_cuda_video_motion_metas (in);
 * gst_buffer_unref (in);
 * ]|
 *
 * Returns: (transfer full): @buffer itself (a new reference) when it has no
 * packed metas, else the copy with its metas unpacked
 */
GstBuffer *
gst_buffer_unpack_cuda_video_motion_metas (GstBuffer * buffer)
{
#if GST_CHECK_VERSION(1, 24, 0)
  GstCustomMeta *packed;
  GstBuffer *copy;

  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  gst_cuda_video_motion_meta_get_info ();
  if (gst_buffer_get_custom_meta (buffer, PACKED_META_NAME) == NULL)
    return gst_buffer_ref (buffer);
  copy = gst_buffer_copy (buffer);
  while ((packed = gst_buffer_get_custom_meta (copy, PACKED_META_NAME)) != NULL) {
    const GValue *value = gst_structure_get_value (gst_custom_meta_get_structure (packed), "data");
    GstBuffer *bytes = value && GST_VALUE_HOLDS_BUFFER (value) ? gst_buffer_ref (gst_value_get_buffer (value)) : NULL;
    GstMapInfo map;
    guint32 consumed = 0;

    /* removed first: the data is held by our reference */
    if (!gst_buffer_remove_meta (copy, (GstMeta *) packed)) {
      gst_clear_buffer (&bytes);
      break;
    }
    if (bytes && gst_buffer_map (bytes, &map, GST_MAP_READ)) {
      gst_meta_deserialize (copy, map.data, map.size, &consumed);
      gst_buffer_unmap (bytes, &map);
    }
    gst_clear_buffer (&bytes);
  }
  return copy;
#else
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);

  return gst_buffer_ref (buffer);
#endif
}
