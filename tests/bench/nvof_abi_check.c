/* gst-cuda-video: the CUDA driver structure of nvof-abi.h against the
 * toolkit's cuda.h, at compile time (built only with CUDA; nothing runs).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda.h>

#include "nvof-abi.h"

#define SAME_FIELD(ours, theirs) \
  _Static_assert (offsetof (GcvbCuCopy2D, ours) == offsetof (CUDA_MEMCPY2D, theirs) \
      && sizeof (((GcvbCuCopy2D *) 0)->ours) == sizeof (((CUDA_MEMCPY2D *) 0)->theirs), #theirs)

_Static_assert (sizeof (GcvbCuCopy2D) == sizeof (CUDA_MEMCPY2D), "CUDA_MEMCPY2D");
SAME_FIELD (src_x_bytes, srcXInBytes);
SAME_FIELD (src_y, srcY);
SAME_FIELD (src_type, srcMemoryType);
SAME_FIELD (src_host, srcHost);
SAME_FIELD (src_device, srcDevice);
SAME_FIELD (src_array, srcArray);
SAME_FIELD (src_pitch, srcPitch);
SAME_FIELD (dst_x_bytes, dstXInBytes);
SAME_FIELD (dst_y, dstY);
SAME_FIELD (dst_type, dstMemoryType);
SAME_FIELD (dst_host, dstHost);
SAME_FIELD (dst_device, dstDevice);
SAME_FIELD (dst_array, dstArray);
SAME_FIELD (dst_pitch, dstPitch);
SAME_FIELD (width_bytes, WidthInBytes);
SAME_FIELD (height, Height);
_Static_assert (sizeof (GcvbCuDevicePtr) == sizeof (CUdeviceptr), "CUdeviceptr");
_Static_assert ((int) GCVB_CU_MEMORY_HOST == (int) CU_MEMORYTYPE_HOST
    && (int) GCVB_CU_MEMORY_DEVICE == (int) CU_MEMORYTYPE_DEVICE,
    "CUmemorytype");

/* an object file needs something in it */
int gcvb_nvof_abi_checked = 1;
