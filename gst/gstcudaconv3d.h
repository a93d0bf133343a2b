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
#ifndef __GST_CUDA_VIDEO_CONV3D_H__
#define __GST_CUDA_VIDEO_CONV3D_H__

#include "gstcudavideofilter.h"
#include "conv3d.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_CONV3D               (gst_cuda_video_conv3d_get_type())
#define GST_CUDA_VIDEO_CONV3D(obj)               (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_CONV3D,GstCudaVideoConv3d))
#define GST_TYPE_CUDA_VIDEO_CONV3D_KERNEL        (gst_cuda_video_conv3d_kernel_get_type())
#define GST_TYPE_CUDA_VIDEO_CONV3D_BORDER        (gst_cuda_video_conv3d_border_get_type())
#define GST_TYPE_CUDA_VIDEO_CONV3D_ALGORITHM     (gst_cuda_video_conv3d_algorithm_get_type())
#define GST_TYPE_CUDA_VIDEO_CONV3D_PLANES        (gst_cuda_video_conv3d_planes_get_type())

typedef struct _GstCudaVideoConv3d GstCudaVideoConv3d;
typedef struct _GstCudaVideoConv3dClass GstCudaVideoConv3dClass;

/**
 * GstCudaVideoConv3dPlanes:
 * @GST_CUDA_VIDEO_CONV3D_PLANES_ALL: every colour component is filtered
 * @GST_CUDA_VIDEO_CONV3D_PLANES_LUMA: only Y of YUV formats; chroma is delayed unfiltered
 */
typedef enum
{
  GST_CUDA_VIDEO_CONV3D_PLANES_ALL = 0,
  GST_CUDA_VIDEO_CONV3D_PLANES_LUMA = 1,
} GstCudaVideoConv3dPlanes;

/* What the properties say, under the object lock; the streaming thread
 * works on a snapshot. */
typedef struct
{
  GcvConv3dKernelSpec spec;     /* kernel type, sigmas, Gabor, normalize; sizes from size */
  gint size, temporal_size;     /* temporal_size 0 = size */
  GArray *custom;               /* floats: coefficients / kernel-file */
  gchar *kernel_file;
  gdouble scale, offset;
  gboolean absolute;
  GcvConv3dBorder border;
  GcvConv3dAlgorithm algorithm;
  GstCudaVideoConv3dPlanes planes;
} GstCudaVideoConv3dSettings;

/* The timestamps and metas of a frame held in the history (the output
 * centred on it gets them). */
typedef struct
{
  GstClockTime pts, dts, duration;
  guint64 offset, offset_end;
  GstBuffer *metas;             /* an empty buffer carrying copies of its metas */
} GstCudaVideoConv3dStamp;

struct _GstCudaVideoConv3d
{
  GstCudaVideoFilter parent;

  /* < private > */
  GstCudaVideoConv3dSettings settings;  /* under the object lock */
  guint serial;                 /* bumped by every property change */
  GcvConv3dAlgorithm selected;  /* what plane 0 runs, for the read-only property */
  guint latency;                /* frames, for LATENCY (object lock) */

  /* streaming thread: the contexts and the kernel they run */
  guint applied_serial;
  GstCudaVideoConv3dSettings usable;    /* the run's last settings that made a kernel */
  gboolean have_usable;
  GcvConv3dAlgorithm requested; /* the algorithm property the contexts were made for */
  GcvConv3dParams params[GST_VIDEO_MAX_PLANES];
  gfloat *coefficients;         /* kx * ky * kt, shared by the filtered planes */
  gfloat *delay;                /* kt taps for planes that are only delayed */
  guint n_planes;
  GcvConv3dGeometry geom[GST_VIDEO_MAX_PLANES];
  GcvConv3dCpu *cpu[GST_VIDEO_MAX_PLANES];
  GcvConv3dCuda *cuda[GST_VIDEO_MAX_PLANES];
  GQueue stamps;                /* GstCudaVideoConv3dStamp *, oldest first */
};

struct _GstCudaVideoConv3dClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_conv3d_get_type (void);
GType gst_cuda_video_conv3d_kernel_get_type (void);
GType gst_cuda_video_conv3d_border_get_type (void);
GType gst_cuda_video_conv3d_algorithm_get_type (void);
GType gst_cuda_video_conv3d_planes_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudaconv3d);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_CONV3D_H__ */
