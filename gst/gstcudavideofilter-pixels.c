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
/* Pixel helpers the elements share: luma planes of any input format, the
 * planes of a frame as the backends see them, rounding to a format's
 * codes, painting masks (overlays, arrows) on host and device frames. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include "gcv-cuda.h"
#include "depth.h"
#include "overlay.h"

#include <string.h>

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

gboolean
gst_cuda_video_filter_luma_input (const GstVideoInfo * info, GcvLumaInput * luma)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  memset (luma, 0, sizeof (*luma));
  /* GRAY16_LE; P010_10LE (10 bits << 6, hardware decoders' HDR output) */
  if ((GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo) || GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
      && GST_VIDEO_FORMAT_INFO_IS_LE (finfo) && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 2
      && GST_VIDEO_FORMAT_INFO_POFFSET (finfo, 0) == 0
      && GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) + GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0) == 16) {
    luma->layout = GCV_LUMA_GRAY16LE;
    return TRUE;
  }
  if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) != 8)
    return FALSE;
  if (GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo)
      || (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 1)) {
    luma->layout = GCV_LUMA_GRAY8;
    return TRUE;
  }
  if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo) && GST_VIDEO_INFO_N_PLANES (info) == 1
      && GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0) == 4) {
    luma->layout = GCV_LUMA_PACKED32;
    luma->r_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_R);
    luma->g_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_G);
    luma->b_offset = GST_VIDEO_INFO_COMP_POFFSET (info, GST_VIDEO_COMP_B);
    return TRUE;
  }
  return FALSE;
}

/* How plane 0 of @info gives 8-bit luma: as it is (*@convert FALSE) or
 * through gcv_luma16_to_8; FALSE, with @error, for formats without a luma
 * plane of 8 or 16 bits. */
static gboolean
luma8_source (GstCudaVideoFilter * self, const GstVideoInfo * info, gboolean * convert, GError ** error)
{
  GcvLumaInput luma;

  if (!gst_cuda_video_filter_luma_input (info, &luma) || luma.layout == GCV_LUMA_PACKED32) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "format %s has no 8- or 16-bit luma plane", GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }
  *convert = luma.layout == GCV_LUMA_GRAY16LE;
  return TRUE;
}

gboolean
gst_cuda_video_filter_luma8 (GstCudaVideoFilter * self, GstVideoFrame * frame, GcvPlane * luma,
    GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gint w = GST_VIDEO_FRAME_WIDTH (frame), h = GST_VIDEO_FRAME_HEIGHT (frame);
  GcvPlane src;
  gboolean convert;
  GcvError err;

  gst_cuda_video_filter_frame_planes (frame, 1, &src);
  if (!luma8_source (self, &frame->info, &convert, error))
    return FALSE;
  if (!convert) {
    *luma = src;
    return TRUE;
  }
  /* one frame at a time on the CPU: one plane of the caps' size, never
   * written with another (frames of other sizes are refused where they
   * enter; this keeps the plane safe whatever the caller maps) */
  if (w != GST_VIDEO_INFO_WIDTH (&self->in_info) || h != GST_VIDEO_INFO_HEIGHT (&self->in_info)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "a %dx%d frame where the caps say %dx%d", w, h, GST_VIDEO_INFO_WIDTH (&self->in_info),
        GST_VIDEO_INFO_HEIGHT (&self->in_info));
    return FALSE;
  }
  if (priv->luma8 == NULL && (priv->luma8 = g_try_malloc ((gsize) w * h)) == NULL) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "out of host memory for %dx%d 8-bit luma", w, h);
    return FALSE;
  }
  luma->data = priv->luma8;
  luma->width = w;
  luma->height = h;
  luma->stride = w;
  if (gcv_luma8_cpu (&src, luma, gst_cuda_video_filter_get_n_threads (self), &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

gboolean
gst_cuda_video_filter_luma8_device (GstCudaVideoFilter * self, const GstCudaVideoDeviceFrame * frame,
    GcvPlane * luma, GError ** error)
{
  Slot *slot = self->priv->current;
  gint w = GST_VIDEO_INFO_WIDTH (frame->info), h = GST_VIDEO_INFO_HEIGHT (frame->info);
  gboolean convert;
  GcvError err;

  if (!luma8_source (self, frame->info, &convert, error))
    return FALSE;
  if (!convert) {
    *luma = frame->planes[0];
    return TRUE;
  }
  /* the frame's own plane: readers of another stream (motionest's peers)
   * may still copy it while the next frame is converted; made for the
   * first frame of the caps, never written with another size */
  if (slot->luma8.data == NULL && !gst_cuda_video_filter_device_alloc (self, w, h, &slot->luma8, w, error))
    return FALSE;
  if (slot->luma8.width != w || slot->luma8.height != h) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "a %dx%d frame where the caps say %dx%d", w, h, slot->luma8.width, slot->luma8.height);
    return FALSE;
  }
  *luma = slot->luma8;
  if (gcv_luma8_cuda (&frame->planes[0], luma, self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  return TRUE;
}

/* The low bits of plane @p's 16-bit samples that @info's format keeps
 * zero (P010_10LE: 6), with the samples per pixel; 0 when the plane has
 * none (8-bit, full 16-bit or other layouts). */
static gint
plane_low_bits (const GstVideoInfo * info, guint p, gint * channels)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gint c, low_bits = 0;
  GcvSampleType type;

  if (gst_cuda_video_filter_plane_samples (info, p, &type, channels) < 0 || type != GCV_SAMPLE_U16
      || !GST_VIDEO_FORMAT_INFO_IS_LE (finfo))
    return 0;
  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    gint shift = (gint) GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c);
    if ((guint) GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    /* every component of the plane a word with its value in the high bits */
    if ((gint) GST_VIDEO_FORMAT_INFO_DEPTH (finfo, c) + shift != 16 || (low_bits > 0 && shift != low_bits))
      return 0;
    low_bits = shift;
  }
  return low_bits;
}

gboolean
gst_cuda_video_filter_round_to_format (GstCudaVideoFilter * self, GstVideoFrame * frame, guint planes,
    GError ** error)
{
  GcvPlane plane[GST_VIDEO_MAX_PLANES];
  GcvError err;
  guint p;

  gst_cuda_video_filter_frame_planes (frame, GST_VIDEO_FRAME_N_PLANES (frame), plane);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    gint channels, low_bits = plane_low_bits (&frame->info, p, &channels);
    if (!(planes & (1u << p)) || low_bits == 0)
      continue;
    if (gcv_round_low_bits_cpu (&plane[p], channels, low_bits, gst_cuda_video_filter_get_n_threads (self),
            &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

gboolean
gst_cuda_video_filter_round_to_format_device (GstCudaVideoFilter * self,
    const GstCudaVideoDeviceFrame * frame, guint planes, GError ** error)
{
  GcvError err;
  guint p;

  for (p = 0; p < GST_VIDEO_INFO_N_PLANES (frame->info); p++) {
    gint channels, low_bits = plane_low_bits (frame->info, p, &channels);
    if (!(planes & (1u << p)) || low_bits == 0 || frame->planes[p].data == NULL)
      continue;
    if (gcv_round_low_bits_cuda (&frame->planes[p], channels, low_bits, self->priv->streams[STREAM_COMPUTE],
            &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}

gint
gst_cuda_video_filter_comp_offset (const GstVideoInfo * info, guint c)
{
  gint offset = (gint) GST_VIDEO_INFO_COMP_POFFSET (info, c);

  if (GST_VIDEO_INFO_COMP_DEPTH (info, c) > 8 && (offset & 1))
    offset *= 2;
  return offset;
}

gint
gst_cuda_video_filter_plane_component (const GstVideoInfo * info, guint plane)
{
  gint c;

  for (c = 0; c < (gint) GST_VIDEO_INFO_N_COMPONENTS (info); c++)
    if ((guint) GST_VIDEO_INFO_COMP_PLANE (info, c) == plane)
      return c;
  return -1;
}
gint
gst_cuda_video_filter_plane_samples (const GstVideoInfo * info, guint plane, GcvSampleType * type,
    gint * channels)
{
  gint comp = gst_cuda_video_filter_plane_component (info, plane), bytes;

  if (comp < 0)
    return -1;
  bytes = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, comp) > 8 ? 2 : 1;
  *type = bytes == 2 ? GCV_SAMPLE_U16 : GCV_SAMPLE_U8;
  *channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, comp) / bytes;
  return comp;
}
void
gst_cuda_video_filter_frame_planes (GstVideoFrame * frame, guint n_planes, GcvPlane * planes)
{
  guint p;

  for (p = 0; p < n_planes; p++) {
    gint comp = gst_cuda_video_filter_plane_component (&frame->info, p);
    planes[p].data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    planes[p].width = GST_VIDEO_FRAME_COMP_WIDTH (frame, comp);
    planes[p].height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp);
  }
}
/* The colour of @argb in each component of @finfo's frames (an 8-bit
 * value; 16-bit components scale it), as the overlays paint it. */
static void
paint_values (const GstVideoFormatInfo * finfo, guint32 argb, guint8 value[GST_VIDEO_MAX_COMPONENTS])
{
  memset (value, 0, GST_VIDEO_MAX_COMPONENTS);
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo)) {
    gcv_argb_to_ycbcr601 (argb, &value[GST_VIDEO_COMP_Y], &value[GST_VIDEO_COMP_U],
        &value[GST_VIDEO_COMP_V]);
  } else if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
    value[GST_VIDEO_COMP_R] = (argb >> 16) & 0xff;
    value[GST_VIDEO_COMP_G] = (argb >> 8) & 0xff;
    value[GST_VIDEO_COMP_B] = argb & 0xff;
  } else {
    value[0] = gcv_argb_to_luma (argb);
  }
}

/* Component @c of a frame whose plane @p starts at @data with rows
 * @stride bytes apart, as the overlay painter sees it. */
static void
component_of (const GstVideoInfo * info, guint c, guint8 * plane_data, gsize stride, GcvComponent * comp)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  comp->data = plane_data + gst_cuda_video_filter_comp_offset (info, c);
  comp->stride = stride;
  comp->pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
  comp->width = GST_VIDEO_INFO_COMP_WIDTH (info, c);
  comp->height = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
  comp->x_shift = finfo->w_sub[c];
  comp->y_shift = finfo->h_sub[c];
  comp->depth16 = finfo->depth[c] > 8;
  comp->low_bits = comp->depth16 && finfo->depth[c] + finfo->shift[c] == 16 ? finfo->shift[c] : 0;
}

void
gst_cuda_video_filter_paint_mask (GstVideoFrame * frame, const GcvPlane * mask, guint32 argb)
{
  guint8 value[GST_VIDEO_MAX_COMPONENTS];
  guint8 alpha = (argb >> 24) & 0xff;
  guint c;

  paint_values (frame->info.finfo, argb, value);
  for (c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++) {
    GcvComponent comp;
    guint p = GST_VIDEO_FRAME_COMP_PLANE (frame, c);
    if (GST_VIDEO_INFO_HAS_ALPHA (&frame->info) && c == GST_VIDEO_COMP_A)
      continue;
    component_of (&frame->info, c, GST_VIDEO_FRAME_PLANE_DATA (frame, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (frame, p), &comp);
    gcv_overlay_component (&comp, mask, value[c], alpha);
  }
}

gboolean
gst_cuda_video_filter_paint_mask_device (GstCudaVideoFilter * self, GstCudaVideoDeviceFrame * frame,
    const GcvPlane * mask, guint8 mask_bits, guint32 argb, GError ** error)
{
  const GstVideoInfo *info = frame->info;
  guint8 value[GST_VIDEO_MAX_COMPONENTS];
  guint8 alpha = (argb >> 24) & 0xff;
  GcvError err;
  guint c;

  paint_values (info->finfo, argb, value);
  for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    GcvComponent comp;
    guint p = GST_VIDEO_INFO_COMP_PLANE (info, c);
    if ((GST_VIDEO_INFO_HAS_ALPHA (info) && c == GST_VIDEO_COMP_A) || frame->planes[p].data == NULL)
      continue;
    component_of (info, c, frame->planes[p].data, frame->planes[p].stride, &comp);
    if (gcv_overlay_cuda_component (&comp, mask, mask_bits, value[c], alpha,
            self->priv->streams[STREAM_COMPUTE], &err) != GCV_OK)
      return gst_cuda_video_filter_set_error (error, &err);
  }
  return TRUE;
}
