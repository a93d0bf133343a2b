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
/* The writing side of the motion meta (the meta itself is
 * libgstcudavideo-1.0's: cudavideo/gstcudamotionmeta.h) and the arrows (the JSON-lines export:
 * gstcudamotionexport.h), for every element
 * that estimates motion: block grids (cudamotionest, kind "blocks") and
 * tracked points (cudavcm, kind "points"). */
#ifndef __GST_CUDA_MOTION_META_WRITER_H__
#define __GST_CUDA_MOTION_META_WRITER_H__

#include <gst/video/video.h>

#include <gst/cudavideo/cudavideo.h>
#include "gstcudavideofilter.h"
#include "motionest.h"
#include "vcm.h"

G_BEGIN_DECLS

/* What the meta says besides the records: @source is the element's name,
 * @pts the frame's timestamp, @reference_pts the previous frame's; @pack:
 * the meta is also packed for cudaipcsink (ipc-meta). */
typedef struct
{
  const gchar *source;
  gboolean pack;
  gboolean has_reference;
  guint64 frame;
  GstClockTime pts, reference_pts;
  gint width, height;
  const GcvMotionParams *params;
} GstCudaMotionFrameInfo;

/* The records of a block grid: grid columns x rows. */
guint gst_cuda_motion_n_blocks (const GstCudaMotionFrameInfo * info);

/* Registers the meta (once; safe from any thread), so that a process
 * that loads the plugin recreates metas that arrive serialized. */
void gst_cuda_motion_meta_register (void);

/* Adds the meta to @buffer (writable) with a copy of the grid's records,
 * in place of one that the same element (info->source) added before. */
void gst_cuda_motion_meta_add (GstBuffer * buffer, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors);

/* Paints an arrow per block, from the block's centre along its vector
 * (pixels), into @mask (cleared first) and from there onto @frame. */
void gst_cuda_motion_draw (GstVideoFrame * frame, GcvPlane * mask, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors);

/* Records for a frame without a reference: block origins, zero vectors. */
void gst_cuda_motion_zero_vectors (const GstCudaMotionFrameInfo * info, GcvMotionVector * vectors);

/* What a "points" meta says besides the records (as above). */
typedef struct
{
  const gchar *source;
  gboolean pack;
  gboolean has_reference;
  guint64 frame;
  GstClockTime pts, reference_pts;
  gint width, height;
  const GcvVcmParams *params;
} GstCudaMotionPointsInfo;

/* Adds a "points" meta to @buffer (writable) with a copy of the records. */
void gst_cuda_motion_meta_add_points (GstBuffer * buffer, const GstCudaMotionPointsInfo * info,
    const GcvVcmPoint * points, guint n_points);

/* Paints an arrow per point, from (x, y) along @scale times its vector
 * (rounded to whole pixels), into @mask (cleared first) and from there onto
 * @frame. */
void gst_cuda_motion_draw_points (GstVideoFrame * frame, GcvPlane * mask, const GcvVcmPoint * points,
    guint n_points, gint scale);

/* ipc-meta, a property of both motion elements: also attach the meta
 * packed into a GstCustomMeta, which cudaipcsink forwards
 * (gst_cuda_video_motion_meta_pack). */
#define DEFAULT_PROP_IPC_META FALSE
GParamSpec *gst_cuda_motion_ipc_meta_pspec (void);
/* NULL where this build can pack metas (built against GStreamer 1.24 or
 * later), else why not: for the setter's refusal of ipc-meta=true. */
const gchar *gst_cuda_motion_ipc_meta_unsupported (void);

/* post-messages: the "motionest" / "vcm" element message of a frame (its
 * fields: the elements' documentation), without the timestamps
 * (gst_cuda_video_filter_post_results adds them). */
GstStructure *gst_cuda_motion_summary_blocks (const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors);
GstStructure *gst_cuda_motion_summary_points (const GstCudaMotionPointsInfo * info,
    const GcvVcmPoint * points, guint n_points);

/* ---- what the motion elements share besides the meta ---------------- */

/* Their pads: formats whose plane 0 is the luma, 8-bit or P010_10LE's
 * 16-bit words, which they read as 8 bits (gst_cuda_video_filter_luma8). */
#define GST_CUDA_MOTION_FORMATS "{ GRAY8, I420, YV12, NV12, P010_10LE, Y42B, Y444 }"
#define GST_CUDA_MOTION_CAPS GST_CUDA_VIDEO_CAPS_MAKE_MAX (GST_CUDA_MOTION_FORMATS, GCV_MOTION_MAX_DIMENSION)

G_END_DECLS

#endif /* __GST_CUDA_MOTION_META_WRITER_H__ */
