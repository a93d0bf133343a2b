/* gst-cuda-video: NPP loaded at run time (see bench-npp.h).
 *
 * NPP's own CUDA runtime (libcudart.so, which libnpp* load) and the
 * benchmarks' static one both work in the device's primary context, so
 * device pointers and streams pass between them unchanged.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-npp.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace {

/* The NPP types the calls take, by value: as NPP's documentation gives
 * their fields. */
struct NppSize {
  int width, height;
};
struct NppPoint {
  int x, y;
};
struct NppRect {
  int x, y, width, height;
};
struct NppStreamCtx {
  cudaStream_t hStream;
  int nCudaDeviceId;
  int nMultiProcessorCount;
  int nMaxThreadsPerMultiProcessor;
  int nMaxThreadsPerBlock;
  size_t nSharedMemPerBlock;
  int nCudaDevAttrComputeCapabilityMajor;
  int nCudaDevAttrComputeCapabilityMinor;
  unsigned int nStreamFlags;
  int nReserved0;
};
struct NppVersion {
  int major, minor, build;
};

/* enumerators of nppFilterCannyBorder's arguments */
constexpr int kSobel = 0;               /* NPP_FILTER_SOBEL */
constexpr int kMask3x3 = 200;           /* NPP_MASK_SIZE_3_X_3 */
constexpr int kNormL1 = 1, kNormL2 = 2; /* nppiNormL1, nppiNormL2 */
constexpr int kBorderReplicate = 2;     /* NPP_BORDER_REPLICATE */

typedef const NppVersion *(*GetLibVersionFn) (void);
typedef int (*CannyBufferSizeFn) (NppSize roi, int *bytes);
typedef int (*CannyFn) (const uint8_t * src, int src_step, NppSize src_size, NppPoint src_offset, uint8_t * dst,
    int dst_step, NppSize roi, int filter, int mask, int16_t low, int16_t high, int norm, int border,
    uint8_t * scratch, NppStreamCtx ctx);
typedef int (*ResizeFn) (const uint8_t * src, int src_step, NppSize src_size, NppRect src_roi, uint8_t * dst,
    int dst_step, NppSize dst_size, NppRect dst_roi, int interpolation, NppStreamCtx ctx);

struct Npp {
  void *core, *filters, *geometry;
  GetLibVersionFn version;
  CannyBufferSizeFn canny_size;
  CannyFn canny;
  ResizeFn resize_c1, resize_c4;
  char version_text[96];
} npp;

/* dlopen of lib<name>.so.<13, 12, 11>, else lib<name>.so, on the loader's
 * path and then in the CUDA toolkit's library folder. */
void *
open_lib (const char *name, char *why, size_t why_len)
{
  static const char *const dirs[] = { "", "/usr/local/cuda/lib64/" };
  static const char *const versions[] = { ".13", ".12", ".11", "" };
  char path[256], first_error[256] = "";

  for (const char *dir : dirs)
    for (const char *v : versions) {
      std::snprintf (path, sizeof (path), "%slib%s.so%s", dir, name, v);
      void *h = dlopen (path, RTLD_NOW | RTLD_GLOBAL);
      if (h != nullptr)
        return h;
      if (first_error[0] == '\0')
        std::snprintf (first_error, sizeof (first_error), "%s", dlerror ());
    }
  std::snprintf (why, why_len, "NPP's lib%s not found (%s)", name, first_error);
  return nullptr;
}

bool
symbol (void *lib, const char *name, void **fn, char *why, size_t why_len)
{
  *fn = dlsym (lib, name);
  if (*fn == nullptr)
    std::snprintf (why, why_len, "%s missing from NPP (%s)", name, dlerror ());
  return *fn != nullptr;
}

/* NppStreamContext of `stream` on the current device */
bool
stream_ctx (void *stream, NppStreamCtx * c, char *err, size_t err_len)
{
  static int cached_device = -1;
  static cudaDeviceProp prop;
  int dev = 0;
  unsigned flags = 0;

  std::memset (c, 0, sizeof (*c));
  if (cudaGetDevice (&dev) != cudaSuccess || (dev != cached_device && cudaGetDeviceProperties (&prop, dev)
          != cudaSuccess) || cudaStreamGetFlags ((cudaStream_t) stream, &flags) != cudaSuccess) {
    std::snprintf (err, err_len, "NPP stream context: %s", cudaGetErrorString (cudaGetLastError ()));
    return false;
  }
  cached_device = dev;
  c->hStream = (cudaStream_t) stream;
  c->nCudaDeviceId = dev;
  c->nMultiProcessorCount = prop.multiProcessorCount;
  c->nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  c->nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  c->nSharedMemPerBlock = prop.sharedMemPerBlock;
  c->nCudaDevAttrComputeCapabilityMajor = prop.major;
  c->nCudaDevAttrComputeCapabilityMinor = prop.minor;
  c->nStreamFlags = flags;
  return true;
}

int
status_error (const char *what, int status, char *err, size_t err_len)
{
  /* NppStatus: 0 success, > 0 warnings (the result is still written) */
  if (status >= 0)
    return 0;
  std::snprintf (err, err_len, "%s: NppStatus %d", what, status);
  return -1;
}

}                               /* namespace */

extern "C" int
gcvb_npp_load (const char *lib, char *why, size_t why_len)
{
  const bool filters = std::strcmp (lib, "nppif") == 0;
  void **part = filters ? &npp.filters : &npp.geometry;

  if (npp.core == nullptr) {
    if ((npp.core = open_lib ("nppc", why, why_len)) == nullptr)
      return -1;
    if (!symbol (npp.core, "nppGetLibVersion", (void **) &npp.version, why, why_len))
      return -1;
    const NppVersion *v = npp.version ();
    std::snprintf (npp.version_text, sizeof (npp.version_text), "%d.%d.%d", v->major, v->minor, v->build);
  }
  if (*part != nullptr)
    return 0;
  if ((*part = open_lib (lib, why, why_len)) == nullptr)
    return -1;
  if (filters)
    return symbol (npp.filters, "nppiFilterCannyBorderGetBufferSize", (void **) &npp.canny_size, why, why_len)
        && symbol (npp.filters, "nppiFilterCannyBorder_8u_C1R_Ctx", (void **) &npp.canny, why, why_len) ? 0 : -1;
  return symbol (npp.geometry, "nppiResize_8u_C1R_Ctx", (void **) &npp.resize_c1, why, why_len)
      && symbol (npp.geometry, "nppiResize_8u_C4R_Ctx", (void **) &npp.resize_c4, why, why_len) ? 0 : -1;
}

extern "C" const char *
gcvb_npp_version (void)
{
  return npp.version_text;
}

extern "C" size_t
gcvb_npp_canny_scratch (int w, int h)
{
  int bytes = 0;

  if (npp.canny_size == nullptr || npp.canny_size (NppSize { w, h }, &bytes) != 0 || bytes < 0)
    return 0;
  return (size_t) bytes;
}

extern "C" int
gcvb_npp_canny (const uint8_t * src, size_t src_step, uint8_t * dst, size_t dst_step, int w, int h, int low,
    int high, int l2, void *scratch, void *stream, char *err, size_t err_len)
{
  NppStreamCtx ctx;

  if (npp.canny == nullptr) {
    std::snprintf (err, err_len, "NPP's Canny not loaded");
    return -1;
  }
  if (!stream_ctx (stream, &ctx, err, err_len))
    return -1;
  return status_error ("nppiFilterCannyBorder_8u_C1R_Ctx", npp.canny (src, (int) src_step, NppSize { w, h },
          NppPoint { 0, 0 }, dst, (int) dst_step, NppSize { w, h }, kSobel, kMask3x3, (int16_t) low,
          (int16_t) high, l2 ? kNormL2 : kNormL1, kBorderReplicate, (uint8_t *) scratch, ctx), err, err_len);
}

extern "C" int
gcvb_npp_resize (const uint8_t * src, size_t src_step, int sw, int sh, uint8_t * dst, size_t dst_step, int dw,
    int dh, int channels, int mode, void *stream, char *err, size_t err_len)
{
  ResizeFn fn = channels == 4 ? npp.resize_c4 : npp.resize_c1;
  NppStreamCtx ctx;

  if (fn == nullptr || (channels != 1 && channels != 4)) {
    std::snprintf (err, err_len, "NPP's resize not loaded, or %d channels", channels);
    return -1;
  }
  if (!stream_ctx (stream, &ctx, err, err_len))
    return -1;
  return status_error ("nppiResize_8u_C1R_Ctx", fn (src, (int) src_step, NppSize { sw, sh },
          NppRect { 0, 0, sw, sh }, dst, (int) dst_step, NppSize { dw, dh }, NppRect { 0, 0, dw, dh }, mode, ctx),
      err, err_len);
}
