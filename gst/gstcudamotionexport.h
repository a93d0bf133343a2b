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
/* The JSON-lines export of the motion elements (the location property of
 * cudamotionest and cudavcm): one JSON object per frame and line, each
 * line written whole as its frame leaves the element. */
#ifndef __GST_CUDA_MOTION_EXPORT_H__
#define __GST_CUDA_MOTION_EXPORT_H__

#include "gstcudamotionmetawriter.h"

G_BEGIN_DECLS

/* An open export file. */
typedef struct _GstCudaMotionExport GstCudaMotionExport;

/* Opens @location for the export (NULL or "": none, *export NULL),
 * emptied, or kept and appended to with @append.  Only a regular file
 * (created when missing): a FIFO would block the state change until a
 * reader comes and end the process with SIGPIPE when it goes, a device
 * never fills.  FALSE, with a RESOURCE OPEN_WRITE error posted on
 * @element, when it cannot be opened; @what names the records in messages
 * ("motion vectors"). */
gboolean gst_cuda_motion_export_open (GstElement * element, const gchar * location, gboolean append,
    const gchar * what, GstCudaMotionExport ** export);
/* Writes one frame's line (built with json-glib) into the file, whole:
 * for a block grid the frame's fields and "blocks": [[x, y, dx, dy, sad],
 * ...] (dx, dy in pixels, exact quarter-pixel decimals), for points
 * "points": [[x, y, dx, dy, score], ...] (each float with the digits that
 * read back as that float); pts GST_CLOCK_TIME_NONE is null.  Whole:
 * a line that cannot be written completely is taken out again, so the
 * file only ever holds whole lines.  FALSE, with a RESOURCE error posted
 * (NO_SPACE_LEFT for a full filesystem or quota), when it could not. */
gboolean gst_cuda_motion_export_vectors (GstCudaMotionExport * export, GstElement * element,
    const GstCudaMotionFrameInfo * info, GstClockTime pts, const GcvMotionVector * vectors);
gboolean gst_cuda_motion_export_points (GstCudaMotionExport * export, GstElement * element,
    const GstCudaMotionPointsInfo * info, GstClockTime pts, const GcvVcmPoint * points, guint n_points);
/* At EOS (the elements' drain), before EOS goes downstream: what was
 * written reaches the storage (fdatasync, which reports what a network
 * filesystem only finds when it writes back); FALSE, with a RESOURCE
 * error posted, when it does not. */
gboolean gst_cuda_motion_export_finish (GstCudaMotionExport * export, GstElement * element);
/* Closes *export and sets it to NULL (nothing when NULL); an error is
 * posted when the file cannot be closed. */
void gst_cuda_motion_export_close (GstCudaMotionExport ** export, GstElement * element);

/* For set_property of location and append: NULL when they may change
 * now, else why not (for gst_cuda_video_filter_warn_rejected()): the file
 * is open while the element is PAUSED or PLAYING.  Under the object
 * lock. */
const gchar *gst_cuda_motion_export_refuses_change (GstElement * element);

G_END_DECLS

#endif /* __GST_CUDA_MOTION_EXPORT_H__ */
