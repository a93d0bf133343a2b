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

#include <gst/gst.h>

#include "gstcudabsplinescale.h"
#include "gstcudacanny.h"
#include "gstcudaconv3d.h"
#include "gstcudaseamcarve.h"
#include "gstcudamotionest.h"
#include "gstcudavcm.h"
#include "gstcudadibr.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  /* each registers its cuda* and cpu* element */
  ret |= GST_ELEMENT_REGISTER (cudacanny, plugin);
  ret |= GST_ELEMENT_REGISTER (cudabsplinescale, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaconv3d, plugin);
  ret |= GST_ELEMENT_REGISTER (cudaseamcarve, plugin);
  ret |= GST_ELEMENT_REGISTER (cudamotionest, plugin);
  ret |= GST_ELEMENT_REGISTER (cudavcm, plugin);
  ret |= GST_ELEMENT_REGISTER (cudadibr, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, cudavideo,
    "Video processing on NVIDIA GPUs with CUDA, with a CPU twin of every element",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
