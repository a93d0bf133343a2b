/* GStreamer
 * Copyright (C) 2026 gst-cuda-video developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2 of the License, or (at your option) any later version.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudahostallocator.h"


#include "gcv-cuda.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_host_allocator_debug);
#define GST_CAT_DEFAULT gst_cuda_host_allocator_debug

typedef struct
{
  GstMemory mem;
  guint8 *data;                 /* the whole cudaHostAlloc block (shared by sub-memories) */
} GstCudaHostMemory;

typedef struct
{
  GstAllocator parent;
} GstCudaHostAllocator;

typedef struct
{
  GstAllocatorClass parent_class;
} GstCudaHostAllocatorClass;

GType gst_cuda_host_allocator_get_type (void);
G_DEFINE_TYPE (GstCudaHostAllocator, gst_cuda_host_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
host_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstCudaHostMemory *mem;
  gsize maxsize = size + params->prefix + params->padding;
  GcvError err;
  void *data;

  /* cudaHostAlloc returns page-aligned memory: enough for any GStreamer alignment */
  if (gcv_cuda_host_alloc (&data, maxsize, &err) != GCV_OK) {
    GST_WARNING ("%s", err.message);
    return NULL;
  }
  mem = g_new0 (GstCudaHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL, maxsize, params->align,
      params->prefix, size);
  mem->data = data;
  return GST_MEMORY_CAST (mem);
}

static void
host_free (GstAllocator * allocator, GstMemory * memory)
{
  GstCudaHostMemory *mem = (GstCudaHostMemory *) memory;

  if (memory->parent == NULL)
    gcv_cuda_host_free (mem->data);
  g_free (mem);
}

static gpointer
host_map (GstMemory * memory, gsize maxsize, GstMapFlags flags)
{
  return ((GstCudaHostMemory *) memory)->data;
}

static void
host_unmap (GstMemory * memory)
{
}

static GstMemory *
host_share (GstMemory * memory, gssize offset, gssize size)
{
  GstCudaHostMemory *mem = (GstCudaHostMemory *) memory, *sub;
  GstMemory *parent = memory->parent ? memory->parent : memory;

  if (size == -1)
    size = memory->size - offset;
  sub = g_new0 (GstCudaHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, memory->allocator,
      parent, memory->maxsize, memory->align, memory->offset + offset, size);
  sub->data = mem->data;
  return GST_MEMORY_CAST (sub);
}

static void
gst_cuda_host_allocator_class_init (GstCudaHostAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = host_alloc;
  allocator_class->free = host_free;
  GST_DEBUG_CATEGORY_INIT (gst_cuda_host_allocator_debug, "cudahostallocator", 0,
      "pinned host memory");
}

static void
gst_cuda_host_allocator_init (GstCudaHostAllocator * self)
{
  GstAllocator *alloc = GST_ALLOCATOR_CAST (self);

  alloc->mem_type = GST_CUDA_HOST_MEMORY_TYPE;
  alloc->mem_map = host_map;
  alloc->mem_unmap = host_unmap;
  alloc->mem_share = host_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
gst_cuda_host_allocator_get (void)
{
  static GstAllocator *allocator = NULL;

  if (g_once_init_enter (&allocator)) {
    GstAllocator *a = g_object_new (gst_cuda_host_allocator_get_type (), NULL);
    gst_object_ref_sink (a);
    GST_OBJECT_FLAG_SET (a, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, a);
  }
  return allocator;
}
