/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#ifndef __GST_CUDA_HOST_ALLOCATOR_H__
#define __GST_CUDA_HOST_ALLOCATOR_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Page-locked (pinned) host memory from cudaHostAlloc, so that frames in it
 * move to and from the GPU by DMA without a staging copy.  Only used by the
 * CUDA backend (the CUDA runtime must be usable). */
#define GST_CUDA_HOST_MEMORY_TYPE "CudaVideoPinnedHostMemory"

/* The process-wide allocator (transfer none); NULL in a build without CUDA. */
GstAllocator *gst_cuda_host_allocator_get (void);

G_END_DECLS

#endif
