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
 * PUBLIC HEADER: applications include this file to read the vectors; it
 * needs only GStreamer core (>= 1.20) and links to nothing of this plugin.
 *
 * The meta is a #GstCustomMeta registered under the name
 * %GST_CUDA_MOTION_META_NAME, so that C reads it with
 * gst_buffer_get_custom_meta() and Python through gi with
 * `buf.get_custom_meta ("GstCudaVideoMotionMeta")`.  Its #GstStructure has:
 *
 * - "kind" (string): "blocks" (block matching, cudamotionest / cpumotionest:
 *   one record per block of a grid that tiles the frame, below) or "points"
 *   (sparse tracking, cudavcm / cpuvcm: one record per tracked point, see
 *   "Points" further down).  Read "kind" first: the two carry different
 *   fields and records.
 * - "has-reference" (boolean): FALSE on the first frame after start, a
 *   FLUSH or a caps change: there was no previous frame, every vector is
 *   (0, 0) with SAD 0.
 * - "frame" (guint64): frames since the element started.
 * - "width", "height" (int): the frame size the vectors refer to.
 * - "block-width", "block-height" (int): the block size; blocks in the
 *   last column / row are clipped to the frame (narrower / shorter).
 * - "grid-width", "grid-height" (int): ceil (width / block-width) by
 *   ceil (height / block-height) blocks.
 * - "subpel" (int): the search grid, 1 (integer), 2 (half), 4 (quarter
 *   pixels).
 * - "vector-scale" (int): units of dx, dy per pixel, always 4 (quarter
 *   pixels).
 * - "method" (string): "full" or "mods".
 * - "vectors" (#GstBuffer): grid-width * grid-height records of
 *   #GstCudaMotionVector in raster order (5 native-endian 32-bit integers
 *   each: x, y, dx, dy, sad).
 *
 * Direction (eq. 1 of Massanes et al.): the block at (x, y) of the previous
 * frame is found at (x + dx / 4, y + dy / 4) in this frame: content moving
 * right gives dx > 0, moving down dy > 0.
 *
 * In Python: `numpy.frombuffer (vectors.extract_dup (0, vectors.get_size ()),
 * dtype=[("x", "<i4"), ("y", "<i4"), ("dx", "<i4"), ("dy", "<i4"),
 * ("sad", "<u4")])` (on little-endian machines), or the struct module with
 * format "=iiiiI".
 *
 * Points (kind "points", vector coherence mapping): the structure has
 * "has-reference", "frame", "width" and "height" as above (on a frame
 * without a reference there are no points: n-points is 0), and
 *
 * - "n-points" (int): how many points were tracked (at most the element's
 *   max-points).
 * - "window-size" (int): side of the windows the points were picked in.
 * - "template-size" (int): side of the correlation template (odd).
 * - "search-size" (int): side of the search area: vectors reach
 *   search-size / 2 pixels either way.
 * - "vectors" (#GstBuffer): n-points records of #GstCudaMotionPoint (5
 *   native-endian 32-bit IEEE floats each: x, y, dx, dy, score), in window
 *   raster order.
 *
 * The point (x, y) of the previous frame (whole pixels) is found at
 * (x + dx, y + dy) in this frame (fractional with sub-pixel refinement).
 * Python: struct format "=fffff", or numpy dtype "<f4" x 5.
 */
#ifndef __GST_CUDA_MOTION_META_H__
#define __GST_CUDA_MOTION_META_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_CUDA_MOTION_META_NAME "GstCudaVideoMotionMeta"

/**
 * GstCudaMotionVector:
 * @x: left column of the block in the previous frame, pixels
 * @y: top row of the block in the previous frame, pixels
 * @dx: horizontal displacement, quarter pixels
 * @dy: vertical displacement, quarter pixels
 * @sad: sum of absolute luma differences of the block at that displacement
 *
 * One record of the "vectors" buffer.
 */
typedef struct
{
  gint32 x, y;
  gint32 dx, dy;
  guint32 sad;
} GstCudaMotionVector;

G_STATIC_ASSERT (sizeof (GstCudaMotionVector) == 20);

/**
 * GstCudaMotionPoint:
 * @x: column of the point in the previous frame, pixels
 * @y: row of the point in the previous frame, pixels
 * @dx: horizontal displacement to this frame, pixels
 * @dy: vertical displacement to this frame, pixels
 * @score: coherence of the vector: the vector coherence map at the vector
 *     over its largest possible value (1 when every neighbour's normalised
 *     correlation is perfect there; may be negative)
 *
 * One record of the "vectors" buffer of a "points" meta.
 */
typedef struct
{
  gfloat x, y;
  gfloat dx, dy;
  gfloat score;
} GstCudaMotionPoint;

G_STATIC_ASSERT (sizeof (GstCudaMotionPoint) == 20);

/**
 * gst_buffer_get_cuda_motion_meta_structure:
 * @buffer: a buffer that went through cudamotionest, cpumotionest, cudavcm or cpuvcm
 *
 * Returns: (transfer none) (nullable): the meta's structure, or %NULL when
 * @buffer has no motion meta (or the plugin was never loaded).
 */
static inline GstStructure *
gst_buffer_get_cuda_motion_meta_structure (GstBuffer * buffer)
{
  GstCustomMeta *meta;

  if (gst_meta_get_info (GST_CUDA_MOTION_META_NAME) == NULL)
    return NULL;
  meta = gst_buffer_get_custom_meta (buffer, GST_CUDA_MOTION_META_NAME);
  return meta ? gst_custom_meta_get_structure (meta) : NULL;
}

/**
 * gst_cuda_motion_meta_map_vectors:
 * @meta: the structure from gst_buffer_get_cuda_motion_meta_structure()
 * @map: (out caller-allocates): the mapping, for gst_cuda_motion_meta_unmap_vectors()
 * @n_vectors: (out): grid-width * grid-height
 *
 * Returns: (transfer none) (nullable): the records, valid until the unmap;
 * %NULL when the structure holds no well-formed vectors (or is a "points"
 * meta: see gst_cuda_motion_meta_map_points()).
 */
static inline const GstCudaMotionVector *
gst_cuda_motion_meta_map_vectors (const GstStructure * meta, GstMapInfo * map, guint * n_vectors)
{
  const GValue *value = gst_structure_get_value (meta, "vectors");
  const gchar *kind = gst_structure_get_string (meta, "kind");
  GstBuffer *vectors;
  gint gw = 0, gh = 0;

  if (value == NULL || !GST_VALUE_HOLDS_BUFFER (value) || g_strcmp0 (kind, "blocks") != 0
      || !gst_structure_get_int (meta, "grid-width", &gw)
      || !gst_structure_get_int (meta, "grid-height", &gh))
    return NULL;
  vectors = gst_value_get_buffer (value);
  if (!gst_buffer_map (vectors, map, GST_MAP_READ))
    return NULL;
  if (map->size != (gsize) gw * gh * sizeof (GstCudaMotionVector)) {
    gst_buffer_unmap (vectors, map);
    return NULL;
  }
  *n_vectors = (guint) gw * gh;
  return (const GstCudaMotionVector *) map->data;
}

static inline void
gst_cuda_motion_meta_unmap_vectors (const GstStructure * meta, GstMapInfo * map)
{
  gst_buffer_unmap (gst_value_get_buffer (gst_structure_get_value (meta, "vectors")), map);
}

/**
 * gst_cuda_motion_meta_map_points:
 * @meta: the structure from gst_buffer_get_cuda_motion_meta_structure()
 * @map: (out caller-allocates): the mapping, for gst_cuda_motion_meta_unmap_vectors()
 * @n_points: (out): n-points
 *
 * Returns: (transfer none) (nullable): the records, valid until the unmap
 * (not %NULL when n-points is 0, but then there is nothing to read); %NULL
 * when the structure holds no well-formed points (or is a "blocks" meta:
 * see gst_cuda_motion_meta_map_vectors()).
 */
static inline const GstCudaMotionPoint *
gst_cuda_motion_meta_map_points (const GstStructure * meta, GstMapInfo * map, guint * n_points)
{
  static const GstCudaMotionPoint none = { 0, 0, 0, 0, 0 };
  const GValue *value = gst_structure_get_value (meta, "vectors");
  const gchar *kind = gst_structure_get_string (meta, "kind");
  GstBuffer *points;
  gint n = -1;

  if (value == NULL || !GST_VALUE_HOLDS_BUFFER (value) || g_strcmp0 (kind, "points") != 0
      || !gst_structure_get_int (meta, "n-points", &n) || n < 0)
    return NULL;
  points = gst_value_get_buffer (value);
  if (!gst_buffer_map (points, map, GST_MAP_READ))
    return NULL;
  if (map->size != (gsize) n * sizeof (GstCudaMotionPoint)) {
    gst_buffer_unmap (points, map);
    return NULL;
  }
  *n_points = (guint) n;
  return map->data != NULL ? (const GstCudaMotionPoint *) map->data : &none;
}

G_END_DECLS

#endif /* __GST_CUDA_MOTION_META_H__ */
