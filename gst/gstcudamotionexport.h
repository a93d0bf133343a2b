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
 * cudamotionest and cudavcm): one JSON object per frame and line. */
#ifndef __GST_CUDA_MOTION_EXPORT_H__
#define __GST_CUDA_MOTION_EXPORT_H__

#include <stdio.h>

#include "gstcudamotionmetawriter.h"

G_BEGIN_DECLS

/* Appends one JSON object and a newline to @line (emptied first); @pts may
 * be GST_CLOCK_TIME_NONE (written as null). */
void gst_cuda_motion_json_line (GString * line, const GstCudaMotionFrameInfo * info,
    GstClockTime pts, const GcvMotionVector * vectors);

/* One JSON object and a newline into @line (emptied first): the frame's
 * fields, then "points": [[x, y, dx, dy, score], ...] with 3 decimals. */
void gst_cuda_motion_json_points_line (GString * line, const GstCudaMotionPointsInfo * info,
    GstClockTime pts, const GcvVcmPoint * points, guint n_points);

/* The JSON-lines file of the location property, opened for appending
 * (@location NULL or "": none, *file NULL).  FALSE, with a RESOURCE
 * OPEN_WRITE error posted on @element, when it cannot be opened; @what
 * names the records ("motion vectors"). */
gboolean gst_cuda_motion_json_open (GstElement * element, const gchar * location, const gchar * what,
    FILE ** file);
/* Appends @line to @file; FALSE, with a RESOURCE WRITE error posted, when
 * it could not be written. */
gboolean gst_cuda_motion_json_write (GstElement * element, FILE * file, const GString * line,
    const gchar * what);
/* Closes *file (a warning is posted when the last writes fail) and sets it
 * to NULL; nothing when it is NULL. */
void gst_cuda_motion_json_close (GstElement * element, FILE ** file, const gchar * what);

G_END_DECLS

#endif /* __GST_CUDA_MOTION_EXPORT_H__ */
