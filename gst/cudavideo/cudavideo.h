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
/* libgstcudavideo-1.0: what applications read from the buffers of the
 * gst-cuda-video elements (pkg-config gstreamer-cudavideo-1.0; in Python
 * the GstCudaVideo-1.0 typelib). */
#ifndef __GST_CUDA_VIDEO_H__
#define __GST_CUDA_VIDEO_H__

#include <gst/cudavideo/cudavideo-prelude.h>
#include <gst/cudavideo/gstcudamotionmeta.h>

#endif /* __GST_CUDA_VIDEO_H__ */
