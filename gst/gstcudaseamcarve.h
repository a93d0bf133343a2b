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
#ifndef __GST_CUDA_VIDEO_SEAM_CARVE_H__
#define __GST_CUDA_VIDEO_SEAM_CARVE_H__

#include "gstcudavideofilter.h"
#include "seamcarve.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_SEAM_CARVE         (gst_cuda_video_seam_carve_get_type())
#define GST_CUDA_VIDEO_SEAM_CARVE(obj)         (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_SEAM_CARVE,GstCudaVideoSeamCarve))
#define GST_TYPE_CUDA_VIDEO_SEAM_ENERGY        (gst_cuda_video_seam_energy_get_type())
#define GST_TYPE_CUDA_VIDEO_SEAM_MODE          (gst_cuda_video_seam_mode_get_type())
#define GST_TYPE_CUDA_VIDEO_SEAM_ORDER         (gst_cuda_video_seam_order_get_type())

typedef struct _GstCudaVideoSeamCarve GstCudaVideoSeamCarve;
typedef struct _GstCudaVideoSeamCarveClass GstCudaVideoSeamCarveClass;

/**
 * GstCudaVideoSeamCarve:
 *
 * Abstract base of cudaseamcarve and cpuseamcarve.
 */
struct _GstCudaVideoSeamCarve
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvSeamParams params;
  gint width, height;           /* 0 = from the caps */
  gboolean show_seams;

  /* per caps, streaming thread only */
  GcvSeamGeometry geom;
  gboolean showing;             /* show_seams when the caps were set */
  GcvSeamCpu *cpu;
  /* show-seams and post-messages on the CPU: the seam mask (in_width x
   * in_height, packed rows) and, right after it, the scratch one colour's
   * layer is painted from */
  guint8 *host_mask;
  GcvSeamCuda *cuda;
  GcvPlane dev_mask;            /* show-seams and post-messages on the GPU: the seam mask */
  GcvPlane dev_sums;            /* post-messages on the GPU: GcvSeamEnergySums */
};

struct _GstCudaVideoSeamCarveClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_seam_carve_get_type (void);
GType gst_cuda_video_seam_energy_get_type (void);
GType gst_cuda_video_seam_mode_get_type (void);
GType gst_cuda_video_seam_order_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudaseamcarve);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_SEAM_CARVE_H__ */
