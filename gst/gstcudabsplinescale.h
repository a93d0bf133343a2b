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
#ifndef __GST_CUDA_VIDEO_BSPLINE_SCALE_H__
#define __GST_CUDA_VIDEO_BSPLINE_SCALE_H__

#include "gstcudavideofilter.h"
#include "bsplinescale.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_BSPLINE_SCALE        (gst_cuda_video_bspline_scale_get_type())
#define GST_CUDA_VIDEO_BSPLINE_SCALE(obj)        (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_BSPLINE_SCALE,GstCudaVideoBsplineScale))
#define GST_TYPE_CUDA_VIDEO_SCALE_METHOD         (gst_cuda_video_scale_method_get_type())

typedef struct _GstCudaVideoBsplineScale GstCudaVideoBsplineScale;
typedef struct _GstCudaVideoBsplineScaleClass GstCudaVideoBsplineScaleClass;

/**
 * GstCudaVideoScaleMethod:
 * @GST_CUDA_VIDEO_SCALE_METHOD_BSPLINE: prefiltered cubic B-spline (the interpolating spline)
 * @GST_CUDA_VIDEO_SCALE_METHOD_CATMULL_ROM: Catmull-Rom (Keys cubic, a = -0.5)
 * @GST_CUDA_VIDEO_SCALE_METHOD_BILINEAR: bilinear
 * @GST_CUDA_VIDEO_SCALE_METHOD_NEAREST: nearest neighbour
 */
typedef enum
{
  GST_CUDA_VIDEO_SCALE_METHOD_BSPLINE = GCV_SCALE_BSPLINE,
  GST_CUDA_VIDEO_SCALE_METHOD_CATMULL_ROM = GCV_SCALE_CATMULL_ROM,
  GST_CUDA_VIDEO_SCALE_METHOD_BILINEAR = GCV_SCALE_BILINEAR,
  GST_CUDA_VIDEO_SCALE_METHOD_NEAREST = GCV_SCALE_NEAREST,
} GstCudaVideoScaleMethod;

struct _GstCudaVideoBsplineScale
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvScaleParams params;

  /* per caps, streaming thread: one context per plane */
  guint n_planes;
  GcvScaleCpu *cpu[GST_VIDEO_MAX_PLANES];
  GcvScaleCuda *cuda[GST_VIDEO_MAX_PLANES];
};

struct _GstCudaVideoBsplineScaleClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_bspline_scale_get_type (void);
GType gst_cuda_video_scale_method_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudabsplinescale);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_BSPLINE_SCALE_H__ */
