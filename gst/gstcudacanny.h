/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#ifndef __GST_CUDA_VIDEO_CANNY_H__
#define __GST_CUDA_VIDEO_CANNY_H__

#include "gstcudavideofilter.h"
#include "canny.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_CANNY            (gst_cuda_video_canny_get_type())
#define GST_CUDA_VIDEO_CANNY(obj)            (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_CANNY,GstCudaVideoCanny))
#define GST_TYPE_CUDA_VIDEO_CANNY_MODE       (gst_cuda_video_canny_mode_get_type())
#define GST_TYPE_CUDA_VIDEO_CANNY_BLUR       (gst_cuda_video_canny_blur_get_type())

typedef struct _GstCudaVideoCanny GstCudaVideoCanny;
typedef struct _GstCudaVideoCannyClass GstCudaVideoCannyClass;

/**
 * GstCudaVideoCannyMode:
 * @GST_CUDA_VIDEO_CANNY_MODE_EDGES: GRAY8 edge map, 255 on edges
 * @GST_CUDA_VIDEO_CANNY_MODE_MAGNITUDE: GRAY8 gradient magnitude / 4
 * @GST_CUDA_VIDEO_CANNY_MODE_OVERLAY: the input with edges painted
 */
typedef enum
{
  GST_CUDA_VIDEO_CANNY_MODE_EDGES,
  GST_CUDA_VIDEO_CANNY_MODE_MAGNITUDE,
  GST_CUDA_VIDEO_CANNY_MODE_OVERLAY,
} GstCudaVideoCannyMode;

/**
 * GstCudaVideoCannyBlur:
 * @GST_CUDA_VIDEO_CANNY_BLUR_NONE: no blur (as cv::Canny)
 * @GST_CUDA_VIDEO_CANNY_BLUR_3: 3 x 3 Gaussian
 * @GST_CUDA_VIDEO_CANNY_BLUR_5: 5 x 5 Gaussian
 * @GST_CUDA_VIDEO_CANNY_BLUR_7: 7 x 7 Gaussian
 *
 * The blur-size values: the Gaussian's aperture (the value is the size).
 */
typedef enum
{
  GST_CUDA_VIDEO_CANNY_BLUR_NONE = 0,
  GST_CUDA_VIDEO_CANNY_BLUR_3 = 3,
  GST_CUDA_VIDEO_CANNY_BLUR_5 = 5,
  GST_CUDA_VIDEO_CANNY_BLUR_7 = 7,
} GstCudaVideoCannyBlur;

struct _GstCudaVideoCanny
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvCannyParams params;
  GstCudaVideoCannyMode mode;
  guint32 overlay_color;

  /* per caps, streaming thread */
  GcvLumaInput luma;
  GcvCannyCpu *cpu;
  GcvCannyCuda *cuda;
  guint8 *mask;                 /* overlay: the edge map (CPU backend) */
  GcvPlane dev_mask;            /* overlay: the edge map (CUDA backend) */
  GcvPlane dev_count;           /* post-messages: the edge count on the device */
};

struct _GstCudaVideoCannyClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_canny_get_type (void);
GType gst_cuda_video_canny_mode_get_type (void);
GType gst_cuda_video_canny_blur_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudacanny);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_CANNY_H__ */
