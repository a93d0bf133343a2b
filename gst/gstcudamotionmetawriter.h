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
/* The writing side of the motion meta (gstcudamotionmeta.h is the public,
 * reading side), the JSON-lines export and the arrows, for every element
 * that estimates motion. */
#ifndef __GST_CUDA_MOTION_META_WRITER_H__
#define __GST_CUDA_MOTION_META_WRITER_H__

#include <stdio.h>

#include <gst/video/video.h>

#include "gstcudamotionmeta.h"
#include "motionest.h"

G_BEGIN_DECLS

/* What the meta says besides the records. */
typedef struct
{
  gboolean has_reference;
  guint64 frame;
  gint width, height;
  const GcvMotionParams *params;
} GstCudaMotionFrameInfo;

/* Registers the custom meta (once; safe from any thread). */
void gst_cuda_motion_meta_register (void);

/* Adds the meta to @buffer (writable) with a copy of the grid's records. */
void gst_cuda_motion_meta_add (GstBuffer * buffer, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors);

/* Appends one JSON object and a newline to @line (emptied first); @pts may
 * be GST_CLOCK_TIME_NONE (written as null). */
void gst_cuda_motion_json_line (GString * line, const GstCudaMotionFrameInfo * info,
    GstClockTime pts, const GcvMotionVector * vectors);

/* Paints an arrow per block, from the block's centre along its vector
 * (pixels), into @mask (cleared first) and from there onto @frame. */
void gst_cuda_motion_draw (GstVideoFrame * frame, GcvPlane * mask, const GstCudaMotionFrameInfo * info,
    const GcvMotionVector * vectors);

/* Records for a frame without a reference: block origins, zero vectors. */
void gst_cuda_motion_zero_vectors (const GstCudaMotionFrameInfo * info, GcvMotionVector * vectors);

G_END_DECLS

#endif /* __GST_CUDA_MOTION_META_WRITER_H__ */
