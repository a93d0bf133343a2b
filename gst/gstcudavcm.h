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
#ifndef __GST_CUDA_VIDEO_VCM_H__
#define __GST_CUDA_VIDEO_VCM_H__

#include "gstcudavideofilter.h"
#include "gstcudamotionmetawriter.h"
#include "gstcudamotionexport.h"
#include "vcm.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_VCM        (gst_cuda_video_vcm_get_type())
#define GST_CUDA_VIDEO_VCM(obj)        (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_VCM,GstCudaVideoVcm))
#define GST_TYPE_CUDA_VIDEO_VCM_INTEREST (gst_cuda_video_vcm_interest_get_type())

/**
 * GstCudaVideoVcmInterest:
 * @GST_CUDA_VIDEO_VCM_INTEREST_EDGE: the paper's: the Sobel gradient magnitude AND the change
 * @GST_CUDA_VIDEO_VCM_INTEREST_CORNER: the template's structure tensor (gradients in two directions) AND the change
 *
 * What makes a pixel an interest point (the values of GcvVcmParams.interest).
 */
typedef enum
{
  GST_CUDA_VIDEO_VCM_INTEREST_EDGE = GCV_VCM_INTEREST_EDGE,
  GST_CUDA_VIDEO_VCM_INTEREST_CORNER = GCV_VCM_INTEREST_CORNER,
} GstCudaVideoVcmInterest;

typedef struct _GstCudaVideoVcm GstCudaVideoVcm;
typedef struct _GstCudaVideoVcmClass GstCudaVideoVcmClass;

/**
 * GstCudaVideoVcm:
 *
 * Abstract base of cudavcm and cpuvcm.
 */
struct _GstCudaVideoVcm
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvVcmParams params;
  gboolean draw;
  gboolean ipc_meta;
  gint draw_scale;
  gchar *location;
  gboolean append;

  /* streaming thread (and start / stop) */
  GstCudaMotionExport *export;  /* location's file, from start to stop */
  guint64 frame_number;         /* frames since start, counted on arrival */
  gboolean has_reference;
  GstClockTime reference_pts;   /* the timestamp of the reference frame */
  gboolean frame_draw;          /* draw snapshot of the frame being mapped */
  GcvVcmPoint *points;          /* room for GCV_VCM_MAX_POINTS */
  guint8 *mask;                 /* draw: frame-size GRAY8 */
  GcvVcmCpu *cpu;
  GcvVcmCuda *cuda;
};

struct _GstCudaVideoVcmClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_vcm_get_type (void);
GType gst_cuda_video_vcm_interest_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudavcm);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_VCM_H__ */
