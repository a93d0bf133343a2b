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
#ifndef __GST_CUDA_VIDEO_DIBR_H__
#define __GST_CUDA_VIDEO_DIBR_H__

#include "gstcudavideofilter.h"
#include "dibr.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_DIBR        (gst_cuda_video_dibr_get_type())
#define GST_CUDA_VIDEO_DIBR(obj)        (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_DIBR,GstCudaVideoDibr))

/**
 * GstCudaVideoDibrLayout:
 * @GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE: colour in the left half, depth in the right half
 * @GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM: colour in the top half, depth in the bottom half
 * @GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA: RGBA / BGRA with the depth in the alpha channel
 */
typedef enum
{
  GST_CUDA_VIDEO_DIBR_LAYOUT_SIDE_BY_SIDE,
  GST_CUDA_VIDEO_DIBR_LAYOUT_TOP_BOTTOM,
  GST_CUDA_VIDEO_DIBR_LAYOUT_ALPHA,
} GstCudaVideoDibrLayout;

/**
 * GstCudaVideoDibrOutput:
 * @GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL: the virtual view alone
 * @GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE: left and right views side by side
 * @GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM: left view above the right view
 * @GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH: red-cyan anaglyph of the two views
 */
typedef enum
{
  GST_CUDA_VIDEO_DIBR_OUTPUT_VIRTUAL,
  GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_SIDE_BY_SIDE,
  GST_CUDA_VIDEO_DIBR_OUTPUT_STEREO_TOP_BOTTOM,
  GST_CUDA_VIDEO_DIBR_OUTPUT_ANAGLYPH,
} GstCudaVideoDibrOutput;

/**
 * GstCudaVideoDibrDebug:
 * @GST_CUDA_VIDEO_DIBR_DEBUG_NONE: the synthesized colour
 * @GST_CUDA_VIDEO_DIBR_DEBUG_DEPTH: each view's depth as grey (near = white)
 * @GST_CUDA_VIDEO_DIBR_DEBUG_HOLES: the disocclusion holes painted white over each view
 */
typedef enum
{
  GST_CUDA_VIDEO_DIBR_DEBUG_NONE,
  GST_CUDA_VIDEO_DIBR_DEBUG_DEPTH,
  GST_CUDA_VIDEO_DIBR_DEBUG_HOLES,
} GstCudaVideoDibrDebug;

GType gst_cuda_video_dibr_layout_get_type (void);
GType gst_cuda_video_dibr_output_get_type (void);
GType gst_cuda_video_dibr_debug_get_type (void);
#define GST_TYPE_CUDA_VIDEO_DIBR_LAYOUT (gst_cuda_video_dibr_layout_get_type ())
#define GST_TYPE_CUDA_VIDEO_DIBR_OUTPUT (gst_cuda_video_dibr_output_get_type ())
#define GST_TYPE_CUDA_VIDEO_DIBR_DEBUG (gst_cuda_video_dibr_debug_get_type ())

typedef struct _GstCudaVideoDibr GstCudaVideoDibr;
typedef struct _GstCudaVideoDibrClass GstCudaVideoDibrClass;

/**
 * GstCudaVideoDibr:
 *
 * Abstract base of cudadibr and cpudibr.
 */
struct _GstCudaVideoDibr
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvDibrParams params;         /* focal_length 0 = the colour width */
  GstCudaVideoDibrLayout layout;
  GstCudaVideoDibrOutput output;
  GstCudaVideoDibrDebug debug;
  gboolean symmetric;
  gchar *camera_file;
  gboolean camera_file_changed;

  /* streaming thread: the negotiated geometry (setup) */
  GstCudaVideoDibrLayout cur_layout;
  GstCudaVideoDibrOutput cur_output;
  gint width, height;           /* the colour (and every view) size */
  gboolean file_loaded;         /* cameras below valid */
  GcvDibrCamera file_src, file_virt;
  /* CPU scratch, W x H each: the source colour as RGBA and its depth (8
   * or 16 bits), two eyes' RGBA, their depth (F32) and hole masks */
  guint8 *colour, *depth, *eye[2], *holes[2];
  gfloat *zbuf[2];
  GcvDibrCpu *cpu;
  /* CUDA: the context and the same eye planes on the device */
  GcvDibrCuda *cuda;
  GcvPlane dev_eye[2], dev_zbuf[2], dev_holes[2];
  GcvPlane dev_count;           /* post-messages: the eyes' hole counts (2 x guint64) */
};

struct _GstCudaVideoDibrClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_dibr_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudadibr);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_DIBR_H__ */
