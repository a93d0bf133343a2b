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
#ifndef __GST_CUDA_VIDEO_MOTION_META_H__
#define __GST_CUDA_VIDEO_MOTION_META_H__

#include <gst/gst.h>
#include <gst/cudavideo/cudavideo-prelude.h>

G_BEGIN_DECLS

/**
 * GstCudaVideoMotionKind:
 * @GST_CUDA_VIDEO_MOTION_KIND_BLOCKS: block matching (cudamotionest,
 *     cpumotionest): one #GstCudaVideoMotionVector per block of a grid that
 *     tiles the frame, in raster order
 * @GST_CUDA_VIDEO_MOTION_KIND_POINTS: sparse tracking by vector coherence
 *     mapping (cudavcm, cpuvcm): one #GstCudaVideoMotionPoint per tracked
 *     point
 *
 * What the records of a #GstCudaVideoMotionMeta are.
 */
typedef enum
{
  GST_CUDA_VIDEO_MOTION_KIND_BLOCKS = 0,
  GST_CUDA_VIDEO_MOTION_KIND_POINTS = 1,
} GstCudaVideoMotionKind;

GST_CUDA_VIDEO_API
GType gst_cuda_video_motion_kind_get_type (void);
#define GST_TYPE_CUDA_VIDEO_MOTION_KIND (gst_cuda_video_motion_kind_get_type ())

/**
 * GstCudaVideoMotionVector:
 * @x: left column of the block in the previous frame, pixels
 * @y: top row of the block in the previous frame, pixels
 * @dx: horizontal displacement, in 1 / vector_scale pixels (quarter pixels)
 * @dy: vertical displacement, in 1 / vector_scale pixels (quarter pixels)
 * @sad: sum of absolute luma differences of the block at that displacement
 *
 * One record of a %GST_CUDA_VIDEO_MOTION_KIND_BLOCKS meta: 5 native-endian
 * 32-bit integers, 20 bytes (numpy dtype `[("x", "=i4"), ("y", "=i4"),
 * ("dx", "=i4"), ("dy", "=i4"), ("sad", "=u4")]`).  The block at (x, y)
 * of the previous frame is found at (x + dx / 4, y + dy / 4) in this one:
 * content moving right gives dx > 0, moving down dy > 0.
 */
typedef struct
{
  gint32 x;
  gint32 y;
  gint32 dx;
  gint32 dy;
  guint32 sad;
} GstCudaVideoMotionVector;

GST_CUDA_VIDEO_API
GType gst_cuda_video_motion_vector_get_type (void);
#define GST_TYPE_CUDA_VIDEO_MOTION_VECTOR (gst_cuda_video_motion_vector_get_type ())

/**
 * GstCudaVideoMotionPoint:
 * @x: column of the point in the previous frame, pixels
 * @y: row of the point in the previous frame, pixels
 * @dx: horizontal displacement to this frame, pixels
 * @dy: vertical displacement to this frame, pixels
 * @score: coherence of the vector: the vector coherence map at the vector
 *     over its largest possible value (1 when every neighbour's normalised
 *     correlation is perfect there; may be negative)
 *
 * One record of a %GST_CUDA_VIDEO_MOTION_KIND_POINTS meta: 5 native-endian
 * 32-bit IEEE floats, 20 bytes (numpy dtype `[("x", "=f4"), ("y", "=f4"),
 * ("dx", "=f4"), ("dy", "=f4"), ("score", "=f4")]`).  The point (x, y) of
 * the previous frame is found at (x + dx, y + dy) in this one.
 */
typedef struct
{
  gfloat x;
  gfloat y;
  gfloat dx;
  gfloat dy;
  gfloat score;
} GstCudaVideoMotionPoint;

GST_CUDA_VIDEO_API
GType gst_cuda_video_motion_point_get_type (void);
#define GST_TYPE_CUDA_VIDEO_MOTION_POINT (gst_cuda_video_motion_point_get_type ())

typedef struct _GstCudaVideoMotionMeta GstCudaVideoMotionMeta;

/**
 * GstCudaVideoMotionMeta:
 * @meta: the parent #GstMeta
 * @kind: what the records are: block vectors or tracked points
 * @source: the name of the element that made the meta ("cudamotionest0"):
 *     a buffer carries one meta per motion element it went through
 * @frame: frames the element had seen before this one since it started
 * @has_reference: %FALSE on the first frame after start, a FLUSH or a caps
 *     change: there was no previous frame (blocks: every vector is (0, 0)
 *     with SAD 0; points: there are none)
 * @pts: the presentation timestamp of the frame when it was analysed
 *     (%GST_CLOCK_TIME_NONE when it had none)
 * @reference_pts: the presentation timestamp of the previous frame the
 *     vectors come from (%GST_CLOCK_TIME_NONE without a reference)
 * @width: width of the frame the coordinates refer to, pixels
 * @height: height of the frame the coordinates refer to, pixels
 * @block_width: blocks: block width, pixels (blocks in the last column are
 *     clipped to the frame); 0 for points
 * @block_height: blocks: block height, pixels; 0 for points
 * @grid_width: blocks: ceil (width / block_width) blocks a row; 0 for points
 * @grid_height: blocks: ceil (height / block_height) rows; 0 for points
 * @subpel: blocks: the search grid, 1 (integer), 2 (half) or 4 (quarter
 *     pixels); 0 for points
 * @vector_scale: blocks: units of dx, dy per pixel (4: quarter pixels);
 *     1 for points (dx, dy in pixels)
 * @method: blocks: the search, "full" or "mods"; %NULL for points
 * @window_size: points: side of the windows the points were picked in;
 *     0 for blocks
 * @template_size: points: side of the correlation template; 0 for blocks
 * @search_size: points: side of the search area (vectors reach
 *     search_size / 2 pixels either way); 0 for blocks
 * @n_records: how many records the meta holds (blocks: grid_width *
 *     grid_height; points: the tracked points, 0 without a reference)
 *
 * The motion an element of gst-cuda-video found between the previous frame
 * and this one, as records of 20 bytes that
 * gst_cuda_video_motion_meta_get_vectors(),
 * gst_cuda_video_motion_meta_get_points() (as fields) and
 * gst_cuda_video_motion_meta_get_records_buffer() (one contiguous block)
 * give.
 *
 * The meta is tagged "video", "size" and "orientation": a conversion that
 * keeps the frame's geometry (videoconvert to another format, an element in
 * passthrough) keeps it, a scaler (videoscale, cudabsplinescale) rescales
 * it (x, y, dx, dy, width, height, block_width and block_height in the new
 * frame's pixels: block coordinates and vectors rounded to the nearest
 * pixel and quarter pixel, point coordinates exact; the search parameters
 * are left as they were), and what crops, flips or rotates drops it.
 */
struct _GstCudaVideoMotionMeta
{
  GstMeta meta;

  GstCudaVideoMotionKind kind;
  const gchar *source;
  guint64 frame;
  gboolean has_reference;
  GstClockTime pts;
  GstClockTime reference_pts;
  gint width;
  gint height;

  gint block_width;
  gint block_height;
  gint grid_width;
  gint grid_height;
  gint subpel;
  gint vector_scale;
  const gchar *method;

  gint window_size;
  gint template_size;
  gint search_size;

  guint n_records;

  /* < private > */
  GBytes *records;
  gpointer _gst_reserved[GST_PADDING];
};

GST_CUDA_VIDEO_API
GType gst_cuda_video_motion_meta_api_get_type (void);
#define GST_CUDA_VIDEO_MOTION_META_API_TYPE (gst_cuda_video_motion_meta_api_get_type ())

GST_CUDA_VIDEO_API
const GstMetaInfo *gst_cuda_video_motion_meta_get_info (void);
#define GST_CUDA_VIDEO_MOTION_META_INFO (gst_cuda_video_motion_meta_get_info ())

GST_CUDA_VIDEO_API
GstCudaVideoMotionMeta *gst_buffer_get_cuda_video_motion_meta (GstBuffer * buffer,
    GstCudaVideoMotionKind kind);

GST_CUDA_VIDEO_API
GList *gst_buffer_get_cuda_video_motion_metas (GstBuffer * buffer);

GST_CUDA_VIDEO_API
GstCudaVideoMotionMeta *gst_buffer_add_cuda_video_motion_meta (GstBuffer * buffer,
    GstCudaVideoMotionKind kind, const gchar * source, GBytes * records);

GST_CUDA_VIDEO_API
const GstCudaVideoMotionVector *gst_cuda_video_motion_meta_get_vectors (GstCudaVideoMotionMeta * meta,
    guint * n_vectors);

GST_CUDA_VIDEO_API
const GstCudaVideoMotionPoint *gst_cuda_video_motion_meta_get_points (GstCudaVideoMotionMeta * meta,
    guint * n_points);

GST_CUDA_VIDEO_API
GBytes *gst_cuda_video_motion_meta_get_records (GstCudaVideoMotionMeta * meta);

GST_CUDA_VIDEO_API
GstBuffer *gst_cuda_video_motion_meta_get_records_buffer (GstCudaVideoMotionMeta * meta);

GST_CUDA_VIDEO_API
gboolean gst_cuda_video_motion_meta_pack (GstCudaVideoMotionMeta * meta, GstBuffer * buffer);

GST_CUDA_VIDEO_API
GstBuffer *gst_buffer_unpack_cuda_video_motion_metas (GstBuffer * buffer);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_MOTION_META_H__ */
