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
#ifndef __GST_CUDA_VIDEO_MOTION_EST_H__
#define __GST_CUDA_VIDEO_MOTION_EST_H__

#include "gstcudavideofilter.h"
#include "gstcudamotionmetawriter.h"
#include "gstcudamotionexport.h"
#include "motionest.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_VIDEO_MOTION_EST        (gst_cuda_video_motion_est_get_type())
#define GST_CUDA_VIDEO_MOTION_EST(obj)        (G_TYPE_CHECK_INSTANCE_CAST((obj),GST_TYPE_CUDA_VIDEO_MOTION_EST,GstCudaVideoMotionEst))
#define GST_TYPE_CUDA_VIDEO_MOTION_SUBPEL     (gst_cuda_video_motion_subpel_get_type())
#define GST_TYPE_CUDA_VIDEO_MOTION_METHOD     (gst_cuda_video_motion_method_get_type())
#define GST_TYPE_CUDA_VIDEO_MOTION_SPLIT      (gst_cuda_video_motion_split_get_type())

typedef struct _GstCudaVideoMotionEst GstCudaVideoMotionEst;
typedef struct _GstCudaVideoMotionEstClass GstCudaVideoMotionEstClass;

/**
 * GstCudaVideoMotionSplit:
 * @GST_CUDA_VIDEO_MOTION_SPLIT_PARALLEL: each frame's block rows spread over the devices
 * @GST_CUDA_VIDEO_MOTION_SPLIT_SERIAL: consecutive frame pairs go to different devices
 */
typedef enum
{
  GST_CUDA_VIDEO_MOTION_SPLIT_PARALLEL = 0,
  GST_CUDA_VIDEO_MOTION_SPLIT_SERIAL = 1,
} GstCudaVideoMotionSplit;

/* One search context of the CUDA backend: on the element's own stream
 * (peer NULL) or on a peer device or stream of devices=. */
typedef struct _GstCudaVideoMotionContext GstCudaVideoMotionContext;

/**
 * GstCudaVideoMotionEst:
 *
 * Abstract base of cudamotionest and cpumotionest.
 */
struct _GstCudaVideoMotionEst
{
  GstCudaVideoFilter parent;

  /* < private > */
  /* properties, under the object lock */
  GcvMotionParams params;
  gboolean draw;
  gboolean ipc_meta;
  gchar *location;
  gboolean append;
  gchar *devices;               /* as set; "" = the element's device */
  GstCudaVideoMotionSplit split;

  /* streaming thread (and start / stop) */
  GstCudaMotionExport *export;  /* location's file, from start to stop */
  guint64 frame_number;         /* frames since start, counted on arrival */
  gboolean has_reference;
  GstClockTime reference_pts;   /* the timestamp of the reference frame */
  gboolean frame_draw;          /* draw snapshot of the frame being mapped */
  GcvMotionVector *vectors;     /* the whole grid for 4x4 blocks */
  guint8 *mask;                 /* draw: frame-size GRAY8 */
  GcvMotionCpu *cpu;
  /* CUDA: one context per entry of devices; serial splitting keeps the
   * previous luma on the element's device (the next pair's reference goes
   * to another context) */
  GstCudaVideoMotionContext *contexts;
  guint n_contexts;
  gboolean serial;               /* serial splitting over several contexts */
  GcvPlane previous[2];         /* serial: the last two frames' luma, ping-pong */
};

struct _GstCudaVideoMotionEstClass
{
  GstCudaVideoFilterClass parent_class;
};

GType gst_cuda_video_motion_est_get_type (void);
GType gst_cuda_video_motion_subpel_get_type (void);
GType gst_cuda_video_motion_method_get_type (void);
GType gst_cuda_video_motion_split_get_type (void);

GST_ELEMENT_REGISTER_DECLARE (cudamotionest);

G_END_DECLS

#endif /* __GST_CUDA_VIDEO_MOTION_EST_H__ */
