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
#ifndef __GST_CUDA_VIDEO_PRELUDE_H__
#define __GST_CUDA_VIDEO_PRELUDE_H__

#include <gst/gst.h>

/* The library is built with hidden symbols: only what carries
 * GST_CUDA_VIDEO_API is exported (libgstcudavideo-1.0's ABI). */
#if defined(BUILDING_GST_CUDA_VIDEO) && defined(__GNUC__)
#define GST_CUDA_VIDEO_API extern __attribute__ ((visibility ("default")))
#else
#define GST_CUDA_VIDEO_API extern
#endif

#endif /* __GST_CUDA_VIDEO_PRELUDE_H__ */
