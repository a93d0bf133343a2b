/* gst-cuda-video: the part of NVIDIA's Optical Flow API (NVOF, the driver's
 * libnvidia-opticalflow.so.1) and of the CUDA driver API (libcuda.so.1)
 * that nvof-bench calls, and that its test double (nvof_mock.c)
 * implements.  No SDK or toolkit header is used: the declarations are
 * written here from NVIDIA's published documentation, with our own names.
 *
 * Optical Flow API: the layouts follow the Optical Flow SDK 3.0 (3.0.15)
 * documentation, API version 3.0 (the value NvOFAPICreateInstanceCuda is
 * asked for: (major << 4) | minor = 0x30).  The SDK documents the API as
 * backward compatible (a client of an older API keeps working on newer
 * drivers); 3.0's structures are 2.0's with fields appended, which stay
 * zero here.  Field order, types and enumerator values are the
 * documentation's; the structures are naturally aligned (the SDK packs
 * nothing), enumerations are 4-byte ints, and the sizes below are those of
 * the LP64 ABI (the only one built for: static asserts).  The function
 * table is the documented 12 entries, given spare room in case a driver
 * writes more.
 *
 * CUDA driver API: the handful of calls nvof-bench makes (as exported by
 * libcuda.so.1, the _v2 names where the driver API renamed a call) and
 * CUDA_MEMCPY2D, from the CUDA driver API reference; nvof_abi_check.c
 * compares that structure with the toolkit's cuda.h in builds with CUDA.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_NVOF_ABI_H
#define GCV_NVOF_ABI_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* Optical Flow API */

#define GCVB_OF_API_VERSION 0x30u       /* 3.0 */

/* NV_OF_STATUS */
enum {
  GCVB_OF_SUCCESS = 0,
  GCVB_OF_ERR_OF_NOT_AVAILABLE = 1,     /* no optical-flow hardware */
  GCVB_OF_ERR_UNSUPPORTED_DEVICE = 2,
  GCVB_OF_ERR_DEVICE_DOES_NOT_EXIST = 3,
  GCVB_OF_ERR_INVALID_PTR = 4,
  GCVB_OF_ERR_INVALID_PARAM = 5,
  GCVB_OF_ERR_INVALID_CALL = 6,
  GCVB_OF_ERR_INVALID_VERSION = 7,
  GCVB_OF_ERR_OUT_OF_MEMORY = 8,
  GCVB_OF_ERR_NOT_INITIALIZED = 9,
  GCVB_OF_ERR_UNSUPPORTED_FEATURE = 10,
  GCVB_OF_ERR_GENERIC = 11,
};
#define GCVB_OF_N_STATUS 12

/* NV_OF_CAPS: what nvOFGetCaps answers (arrays of uint32_t) */
enum {
  GCVB_OF_CAPS_OUTPUT_GRID_SIZES = 0,   /* the output grids the engine supports */
  GCVB_OF_CAPS_WIDTH_MIN = 4,
  GCVB_OF_CAPS_HEIGHT_MIN = 5,
  GCVB_OF_CAPS_WIDTH_MAX = 6,
  GCVB_OF_CAPS_HEIGHT_MAX = 7,
};

/* NV_OF_PERF_LEVEL: slower is better quality */
enum {
  GCVB_OF_PERF_SLOW = 5,
  GCVB_OF_PERF_MEDIUM = 10,
  GCVB_OF_PERF_FAST = 20,
};

/* NV_OF_MODE, NV_OF_PRED_DIRECTION, NV_OF_BUFFER_USAGE, NV_OF_BUFFER_FORMAT,
 * NV_OF_CUDA_BUFFER_TYPE: the values used here */
enum {
  GCVB_OF_MODE_OPTICAL_FLOW = 1,
  GCVB_OF_DIRECTION_FORWARD = 0,        /* the flow of each pixel of inputFrame into referenceFrame */
  GCVB_OF_USAGE_INPUT = 1,
  GCVB_OF_USAGE_OUTPUT = 2,
  GCVB_OF_FORMAT_GRAY8 = 1,
  GCVB_OF_FORMAT_SHORT2 = 5,            /* flow vectors: two int16, S10.5 */
  GCVB_OF_CUDA_DEVICE_POINTER = 2,
};

/* One flow vector (NV_OF_FLOW_VECTOR): pixels x 32, signed (S10.5). */
typedef struct {
  int16_t x, y;
} GcvbOfVector;

typedef struct GcvbOfSession_ *GcvbOfHandle;    /* NvOFHandle */
typedef struct GcvbOfBuffer_ *GcvbOfBuffer;     /* NvOFGPUBufferHandle */

/* NV_OF_INIT_PARAMS (3.0) */
typedef struct {
  uint32_t width, height;
  uint32_t out_grid;                    /* 1, 2, 4 (3.0 documents no 8) */
  uint32_t hint_grid;                   /* 0: no external hints */
  uint32_t mode;
  uint32_t perf_level;
  uint32_t external_hints;              /* NV_OF_BOOL */
  uint32_t output_cost;                 /* NV_OF_BOOL */
  void *reserved;                       /* hPrivData: NULL */
  uint32_t disparity_range;             /* stereo only: 0 */
  uint32_t roi;                         /* NV_OF_BOOL */
  uint32_t direction;
  uint32_t global_flow;                 /* NV_OF_BOOL */
  uint32_t input_format;
} GcvbOfInit;

/* NV_OF_BUFFER_DESCRIPTOR: output buffers count grid cells, not pixels */
typedef struct {
  uint32_t width, height;
  uint32_t usage;
  uint32_t format;
} GcvbOfBufferDesc;

/* NV_OF_EXECUTE_INPUT_PARAMS (3.0) */
typedef struct {
  GcvbOfBuffer input;                   /* the flow goes from this frame ... */
  GcvbOfBuffer reference;               /* ... into this one */
  GcvbOfBuffer hints;                   /* NULL */
  uint32_t no_temporal_hints;           /* NV_OF_BOOL: 1 = ignore the previous execute's flow */
  uint32_t pad0;
  void *reserved;                       /* hPrivData: NULL */
  uint32_t pad1;
  uint32_t n_rois;
  void *rois;
} GcvbOfExecIn;

/* NV_OF_EXECUTE_OUTPUT_PARAMS (3.0) */
typedef struct {
  GcvbOfBuffer flow;
  GcvbOfBuffer cost;                    /* NULL */
  void *reserved;                       /* hPrivData: NULL */
  GcvbOfBuffer backward_flow, backward_cost, global_flow;       /* NULL */
} GcvbOfExecOut;

/* NV_OF_CUDA_BUFFER_STRIDE_INFO: per plane, the row pitch (x) and the
 * rows allocated (y), in bytes */
typedef struct {
  struct {
    uint32_t x_bytes, y_bytes;
  } plane[3];
  uint32_t n_planes;
} GcvbOfStrides;

typedef int (*GcvbOfCreateInstanceFn) (uint32_t api_version, void *table);
typedef int (*GcvbOfMaxApiVersionFn) (uint32_t * version);

/* NV_OF_CUDA_API_FUNCTION_LIST, in the documented order */
typedef struct {
  int (*create) (void *cu_context, GcvbOfHandle * of);
  int (*init) (GcvbOfHandle of, const GcvbOfInit * init);
  int (*create_buffer) (GcvbOfHandle of, const GcvbOfBufferDesc * desc, uint32_t cuda_type, GcvbOfBuffer * buf);
  void *(*buffer_array) (GcvbOfBuffer buf);
  unsigned long long (*buffer_pointer) (GcvbOfBuffer buf);
  int (*buffer_strides) (GcvbOfBuffer buf, GcvbOfStrides * strides);
  int (*set_streams) (GcvbOfHandle of, void *input_stream, void *output_stream);
  int (*execute) (GcvbOfHandle of, const GcvbOfExecIn * in, GcvbOfExecOut * out);
  int (*destroy_buffer) (GcvbOfBuffer buf);
  int (*destroy) (GcvbOfHandle of);
  int (*last_error) (GcvbOfHandle of, char *text, uint32_t * size);
  int (*caps) (GcvbOfHandle of, uint32_t what, uint32_t * values, uint32_t * n);
} GcvbOfCudaApi;

/* What NvOFAPICreateInstanceCuda fills: the table and spare room */
typedef union {
  GcvbOfCudaApi fn;
  void *room[64];
} GcvbOfCudaTable;

#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert (sizeof (GcvbOfVector) == 4, "NV_OF_FLOW_VECTOR");
_Static_assert (sizeof (GcvbOfInit) == 64, "NV_OF_INIT_PARAMS 3.0");
_Static_assert (offsetof (GcvbOfInit, reserved) == 32, "NV_OF_INIT_PARAMS.hPrivData");
_Static_assert (offsetof (GcvbOfInit, input_format) == 56, "NV_OF_INIT_PARAMS.inputBufferFormat");
_Static_assert (sizeof (GcvbOfBufferDesc) == 16, "NV_OF_BUFFER_DESCRIPTOR");
_Static_assert (sizeof (GcvbOfExecIn) == 56, "NV_OF_EXECUTE_INPUT_PARAMS 3.0");
_Static_assert (offsetof (GcvbOfExecIn, no_temporal_hints) == 24, "disableTemporalHints");
_Static_assert (offsetof (GcvbOfExecIn, reserved) == 32, "NV_OF_EXECUTE_INPUT_PARAMS.hPrivData");
_Static_assert (offsetof (GcvbOfExecIn, rois) == 48, "NV_OF_EXECUTE_INPUT_PARAMS.roiData");
_Static_assert (sizeof (GcvbOfExecOut) == 48, "NV_OF_EXECUTE_OUTPUT_PARAMS 3.0");
_Static_assert (sizeof (GcvbOfStrides) == 28, "NV_OF_CUDA_BUFFER_STRIDE_INFO");
_Static_assert (sizeof (GcvbOfCudaApi) == 12 * sizeof (void *), "NV_OF_CUDA_API_FUNCTION_LIST");
_Static_assert (offsetof (GcvbOfCudaApi, execute) == 7 * sizeof (void *), "nvOFExecute's slot");
_Static_assert (offsetof (GcvbOfCudaApi, caps) == 11 * sizeof (void *), "nvOFGetCaps's slot");
#else
#error "nvof-abi.h: the layouts are checked for LP64 only"
#endif

/* ------------------------------------------------------------------------ */
/* CUDA driver API */

typedef unsigned long long GcvbCuDevicePtr;     /* CUdeviceptr */

/* CUmemorytype */
enum {
  GCVB_CU_MEMORY_HOST = 1,
  GCVB_CU_MEMORY_DEVICE = 2,
};

/* CUDA_MEMCPY2D */
typedef struct {
  size_t src_x_bytes, src_y;
  uint32_t src_type;
  const void *src_host;
  GcvbCuDevicePtr src_device;
  void *src_array;
  size_t src_pitch;
  size_t dst_x_bytes, dst_y;
  uint32_t dst_type;
  void *dst_host;
  GcvbCuDevicePtr dst_device;
  void *dst_array;
  size_t dst_pitch;
  size_t width_bytes, height;
} GcvbCuCopy2D;

_Static_assert (sizeof (GcvbCuCopy2D) == 128, "CUDA_MEMCPY2D");

/* the calls, by their exported names */
#define GCVB_CU_FUNCTIONS(X) \
  X (cuInit, int, (unsigned flags)) \
  X (cuDriverGetVersion, int, (int *version)) \
  X (cuDeviceGet, int, (int *device, int ordinal)) \
  X (cuDeviceGetName, int, (char *name, int len, int device)) \
  X (cuDevicePrimaryCtxRetain, int, (void **context, int device)) \
  X (cuCtxSetCurrent, int, (void *context)) \
  X (cuStreamCreate, int, (void **stream, unsigned flags)) \
  X (cuStreamSynchronize, int, (void *stream)) \
  X (cuStreamDestroy_v2, int, (void *stream)) \
  X (cuEventCreate, int, (void **event, unsigned flags)) \
  X (cuEventRecord, int, (void *event, void *stream)) \
  X (cuEventSynchronize, int, (void *event)) \
  X (cuEventElapsedTime, int, (float *ms, void *start, void *end)) \
  X (cuEventDestroy_v2, int, (void *event)) \
  X (cuMemcpy2D_v2, int, (const GcvbCuCopy2D * copy)) \
  X (cuGetErrorName, int, (int error, const char **name))

#endif /* GCV_NVOF_ABI_H */
