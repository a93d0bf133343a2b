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
/* Negotiation: caps (memory:CUDAMemory or system memory, the templates,
 * fixation), the allocation queries (pools offered upstream, output
 * buffers), which metas of an input stay true of its output, and whether
 * a buffer holds a frame of the negotiated caps. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include <gst/video/gstvideopool.h>
#include "gstcudahostallocator.h"
#include "gstcudavideocontext.h"

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

/* ---- allocation ------------------------------------------------------------ */

/* A video buffer pool for @caps whose memory comes from @allocator (NULL =
 * system memory), at least @min buffers; NULL if the configuration is
 * refused. */
static GstBufferPool *
new_video_pool (GstCaps * caps, guint size, GstAllocator * allocator, guint min)
{
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, min, 0);
  if (allocator)
    gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
/* Buffers the element itself holds besides the one being worked on: the
 * frames in flight (upstream's pool must not run dry because of them). */
guint
gst_cuda_video_filter_held_buffers (GstCudaVideoFilter * self)
{
  return gst_cuda_video_filter_effective_depth (self) + 1;
}

/* Upstream gets, for memory:CUDAMemory, a pool of CUDA memory of our
 * context that names our compute stream (1.24 on: a producer that takes
 * it writes our input in order with our work, see gstcudavideocontext.c),
 * and for system memory on the GPU a pool of page-locked host memory, so
 * that frames go to the GPU by DMA without a staging copy.  In
 * passthrough (the analysis elements: frames go out as they came) the
 * query is downstream's to answer; where downstream has no pool (a sink
 * that answers nothing), ours is offered all the same. */
gboolean
gst_cuda_video_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  guint min = gst_cuda_video_filter_held_buffers (self);

  gboolean answered = GST_CUDA_VIDEO_FILTER_PARENT_CLASS->propose_allocation (trans, decide_query, query);

  if (decide_query != NULL && !answered)
    return FALSE;
  if (decide_query == NULL && answered && gst_query_get_n_allocation_pools (query) > 0)
    return TRUE;
  /* every backend maps frames with gst_video_frame_map: any stride is
   * fine (in passthrough downstream reads the frames too: its word) */
  if (decide_query != NULL)
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return TRUE;
  if (gst_cuda_video_caps_are_device (caps)) {
    if (on_gpu (self) && priv->context)
      pool = gst_cuda_video_pool_new (priv->context, priv->compute_stream, caps, min, 0);
  } else if (on_gpu (self)) {
    pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), gst_cuda_host_allocator_get (), min);
    gst_query_add_allocation_param (query, gst_cuda_host_allocator_get (), NULL);
  }
  if (pool && gst_query_get_n_allocation_pools (query) == 0)
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), min, 0);
  else if (gst_query_get_n_allocation_pools (query) == 0)
    gst_query_add_allocation_pool (query, NULL, GST_VIDEO_INFO_SIZE (&info), min, 0);
  if (pool)
    gst_object_unref (pool);
  return TRUE;
}

/* Output buffers: for memory:CUDAMemory, downstream's CUDA pool when it is
 * of our context (given our stream unless it names its own), else ours;
 * for system memory, downstream's pool or one
 * of ours (page-locked on the GPU: the download lands in it by DMA; plain
 * on the CPU: no fresh pages to fault in every frame).  A pool with a
 * maximum gets room for the frames in flight. */
gboolean
gst_cuda_video_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;
  GstCaps *caps;
  guint i, n = gst_query_get_n_allocation_pools (query), size, min, max;
  guint held = gst_cuda_video_filter_held_buffers (self);

  gst_query_parse_allocation (query, &caps, NULL);
  if (caps == NULL || !gst_video_info_from_caps (&info, caps))
    return GST_CUDA_VIDEO_FILTER_PARENT_CLASS->decide_allocation (trans, query);

  for (i = 0; i < n; i++) {
    gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
    if (max > 0)
      gst_query_set_nth_allocation_pool (query, i, pool, size, min, max + held);
    if (pool)
      gst_object_unref (pool);
  }
  pool = NULL;
  if (priv->out_device) {
    for (i = 0; i < n; i++) {
      gst_query_parse_nth_allocation_pool (query, i, &pool, &size, &min, &max);
      if (gst_cuda_video_pool_is_usable (pool, priv->context)) {
        gboolean ok;
        GST_DEBUG_OBJECT (self, "output buffers from downstream's CUDA pool");
        gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
        gst_object_unref (pool);
        pool = NULL;
        /* basetransform configures it (caps, size); then our stream goes
         * into that configuration, unless downstream named its own */
        ok = GST_CUDA_VIDEO_FILTER_PARENT_CLASS->decide_allocation (trans, query);
        if (ok && gst_query_get_n_allocation_pools (query) > 0)
          gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
        if (pool && gst_cuda_video_pool_is_usable (pool, priv->context)
            && !gst_cuda_video_pool_offer_stream (pool, priv->compute_stream))
          GST_WARNING_OBJECT (self, "downstream's CUDA pool refused our stream in its configuration");
        gst_clear_object (&pool);
        return ok;
      }
      if (pool)
        gst_object_unref (pool);
    }
    pool = gst_cuda_video_pool_new (priv->context, priv->compute_stream, caps, held, 0);
    GST_DEBUG_OBJECT (self, "output buffers from our own CUDA pool");
  } else if (n == 0) {
    pool = new_video_pool (caps, GST_VIDEO_INFO_SIZE (&info), on_gpu (self) ?
        gst_cuda_host_allocator_get () : NULL, held);
    GST_DEBUG_OBJECT (self, "output buffers from our own %s pool", on_gpu (self) ? "pinned" : "system");
  }
  if (pool) {
    if (n > 0)
      gst_query_set_nth_allocation_pool (query, 0, pool, GST_VIDEO_INFO_SIZE (&info), held, 0);
    else
      gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), held, 0);
    gst_object_unref (pool);
    return TRUE;
  }
  return GST_CUDA_VIDEO_FILTER_PARENT_CLASS->decide_allocation (trans, query);
}

/* The tags of metas that stay true while the frame keeps its size
 * (GstVideoMeta and other "memory" or "colorspace" metas do not). */
static const gchar *const geometry_tags[] = {
  GST_META_TAG_VIDEO_STR, GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR, NULL
};

/* Whether @meta is tagged with nothing but video / size / orientation
 * (regions of interest, our motion vectors): true of any frame with the
 * same geometry. */
static gboolean
meta_is_geometric (GstMeta * meta)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);
  guint i;

  for (i = 0; tags != NULL && tags[i] != NULL; i++)
    if (!g_strv_contains (geometry_tags, tags[i]))
      return FALSE;
  return TRUE;
}

/* Whether @meta of an input frame stays true of the output frame: tagless
 * metas always, and, when the output has the input's size, the geometric
 * ones. */
static gboolean
meta_survives (GstCudaVideoFilter * self, GstMeta * meta)
{
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);

  if (tags == NULL || tags[0] == NULL)
    return TRUE;
  if (GST_VIDEO_INFO_WIDTH (&self->in_info) != GST_VIDEO_INFO_WIDTH (&self->out_info)
      || GST_VIDEO_INFO_HEIGHT (&self->in_info) != GST_VIDEO_INFO_HEIGHT (&self->out_info))
    return FALSE;
  return meta_is_geometric (meta);
}

gboolean
gst_cuda_video_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf, GstMeta * meta,
    GstBuffer * inbuf)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  /* an element whose outputs lag its inputs (conv3d) gives each output
   * the metas of the frame it is centred on itself (copy_metas) */
  if (klass->latency_frames && klass->latency_frames (self) > 0)
    return FALSE;
  if (meta_survives (self, meta)) {
    GST_LOG_OBJECT (self, "keeping %s", g_type_name (meta->info->api));
    return TRUE;
  }
  /* a scaler adds the meta rescaled itself, as videoscale does (and the
   * meta, told the sizes, may decline) */
  if (klass->scales_frame && meta_is_geometric (meta) && meta->info->transform_func != NULL
      && gst_meta_api_type_has_tag (meta->info->api, g_quark_from_static_string (GST_META_TAG_VIDEO_SIZE_STR))) {
    GstVideoMetaTransform scale = { &self->in_info, &self->out_info };

    if (meta->info->transform_func (outbuf, meta, inbuf, gst_video_meta_transform_scale_get_quark (), &scale))
      GST_LOG_OBJECT (self, "rescaled %s", g_type_name (meta->info->api));
  }
  return FALSE;
}

void
gst_cuda_video_filter_copy_metas (GstCudaVideoFilter * self, GstBuffer * from, GstBuffer * to)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta (from, &state)) != NULL) {
    GstMetaTransformCopy copy = { FALSE, 0, -1 };
    if (meta->info->transform_func == NULL || !meta_survives (self, meta))
      continue;
    if (!meta->info->transform_func (to, meta, from, _gst_meta_transform_copy, &copy))
      GST_WARNING_OBJECT (self, "could not copy %s", g_type_name (meta->info->api));
  }
}

/* ---- buffers against the caps ------------------------------------------------- */

gboolean
gst_cuda_video_filter_check_frame (const GstVideoInfo * info, GstBuffer * buf, GError ** error)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  gsize size = gst_buffer_get_size (buf);
  guint p;

  if (meta == NULL) {
    /* the default layout of the caps */
    if (size >= GST_VIDEO_INFO_SIZE (info))
      return TRUE;
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "a buffer of %" G_GSIZE_FORMAT " bytes cannot hold a frame of the negotiated caps (%s %dx%d: %"
        G_GSIZE_FORMAT " bytes)", size, GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_SIZE (info));
    return FALSE;
  }
  /* gst_video_frame_map() takes the frame's size from the meta (a larger
   * one would overrun every buffer sized for the caps) and g_critical()s on
   * a smaller one or another format: the meta must say what the caps say */
  if (meta->format != GST_VIDEO_INFO_FORMAT (info) || meta->width != (guint) GST_VIDEO_INFO_WIDTH (info)
      || meta->height != (guint) GST_VIDEO_INFO_HEIGHT (info)
      || meta->n_planes != GST_VIDEO_INFO_N_PLANES (info)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the buffer's video meta says %s %ux%u (%u plane%s), the negotiated caps %s %dx%d (%u plane%s)",
        gst_video_format_to_string (meta->format), meta->width, meta->height, meta->n_planes,
        meta->n_planes == 1 ? "" : "s", GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
        GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
        GST_VIDEO_INFO_N_PLANES (info) == 1 ? "" : "s");
    return FALSE;
  }
  /* gst_video_frame_map() checks only where each plane starts: the
   * backends would read past the end of a buffer whose strides lie */
  for (p = 0; p < meta->n_planes; p++) {
    gint comp = gst_cuda_video_filter_plane_component (info, p);
    gsize row, rows;

    if (comp < 0)
      continue;
    row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, comp) * GST_VIDEO_INFO_COMP_PSTRIDE (info, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp);
    if (meta->stride[p] < 0 || (gsize) meta->stride[p] < row || meta->offset[p] > size
        || rows * meta->stride[p] - meta->stride[p] + row > size - meta->offset[p]) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "plane %u of the buffer's video meta (offset %" G_GSIZE_FORMAT ", stride %d, %" G_GSIZE_FORMAT
          " rows of %" G_GSIZE_FORMAT " bytes) does not fit in its %" G_GSIZE_FORMAT " bytes", p,
          meta->offset[p], meta->stride[p], rows, row, size);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean
gst_cuda_video_filter_map_frame (GstCudaVideoFilter * self, GstVideoFrame * frame, const GstVideoInfo * info,
    GstBuffer * buf, GstMapFlags flags)
{
  GError *error = NULL;

  if (!gst_cuda_video_filter_check_frame (info, buf, &error)) {
    gst_cuda_video_filter_post_error (self, "The buffer does not hold a frame of the negotiated caps",
        error);
    return FALSE;
  }
  if (!gst_video_frame_map (frame, info, buf, flags)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Could not map the video frame"),
        ("%s %dx%d, buffer of %" G_GSIZE_FORMAT " bytes, flags 0x%x", GST_VIDEO_INFO_NAME (info),
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), gst_buffer_get_size (buf), flags));
    return FALSE;
  }
  return TRUE;
}

/* A renegotiation failed before any setup could say why (no output caps
 * for the input with the element's settings, or none that downstream
 * takes): an error that says it, instead of a bare not-negotiated from
 * upstream. */
static void
post_not_negotiated (GstCudaVideoFilter * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_GET_CLASS (trans);
  GstCaps *incaps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *outcaps = NULL, *peer = NULL;
  GstVideoInfo info;
  gchar *why = NULL, *what;

  if (incaps == NULL || !gst_video_info_from_caps (&info, incaps)) {
    gst_clear_caps (&incaps);
    return;
  }
  if (klass->caps_problem)
    why = klass->caps_problem (self, incaps);
  /* (basetransform's identity where the element has no transform_caps) */
  outcaps = trans_class->transform_caps ? trans_class->transform_caps (trans, GST_PAD_SINK, incaps, NULL)
      : gst_caps_ref (incaps);
  peer = gst_pad_peer_query_caps (GST_BASE_TRANSFORM_SRC_PAD (trans), NULL);
  if (why == NULL && (outcaps == NULL || gst_caps_is_empty (outcaps)))
    why = g_strdup ("the element's settings make no output of it");
  else if (why == NULL)
    why = g_strdup ("downstream takes none of the outputs the element's settings make of it");
  what = g_strdup_printf ("%s %dx%d", GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info));
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Could not negotiate the output for %s input: %s", what, why),
      ("input %" GST_PTR_FORMAT "; outputs with the current settings %" GST_PTR_FORMAT
          "; downstream takes %" GST_PTR_FORMAT, incaps, outcaps, peer));
  g_free (what);
  g_free (why);
  gst_clear_caps (&outcaps);
  gst_clear_caps (&peer);
  gst_caps_unref (incaps);
}

/* Every input buffer enters here (before basetransform's transform,
 * transform_ip or passthrough): one that is no frame of the negotiated
 * caps goes no further.  basetransform renegotiates here too (a property
 * changed the output): a failure no setup explained is explained, once. */
GstFlowReturn
gst_cuda_video_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont, GstBuffer * input)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GError *error = NULL;
  GstFlowReturn ret;

  if (priv->configured && !gst_cuda_video_filter_check_frame (&self->in_info, input, &error)) {
    gst_buffer_unref (input);
    return gst_cuda_video_filter_post_error (self,
        "The input buffer does not hold a frame of the negotiated caps", error);
  }
  ret = GST_CUDA_VIDEO_FILTER_PARENT_CLASS->submit_input_buffer (trans, is_discont, input);
  if (ret == GST_FLOW_NOT_NEGOTIATED && priv->setup_failed == NULL && !priv->negotiation_explained) {
    post_not_negotiated (self);
    priv->negotiation_explained = TRUE;
  }
  return ret;
}

/* ---- caps ------------------------------------------------------------------ */

/* Whether this instance may exchange memory:CUDAMemory: a cuda* element
 * of a build with gstreamer-cuda, before start (the caps it may take) or
 * running on the GPU in a GstCudaContext. */
gboolean
gst_cuda_video_filter_device_memory_possible (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gboolean started, gpu, context;

  if (GST_CUDA_VIDEO_FILTER_GET_CLASS (self)->backend != GST_CUDA_VIDEO_BACKEND_CUDA
      || !gst_cuda_video_memory_available ())
    return FALSE;
  GST_OBJECT_LOCK (self);
  started = priv->started;
  gpu = priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA;
  context = priv->context != NULL;
  GST_OBJECT_UNLOCK (self);
  return !started || (gpu && context);
}

/* @caps (not taken) with its memory:CUDAMemory structures first, each
 * group in its order. */
GstCaps *
gst_cuda_video_filter_device_first (GstCaps * caps)
{
  GstCaps *device = gst_caps_new_empty (), *other = gst_caps_new_empty ();
  guint i;

  if (gst_caps_is_any (caps)) {
    gst_caps_unref (device);
    gst_caps_unref (other);
    return gst_caps_ref (caps);
  }
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    gboolean on_device = f && gst_caps_features_contains (f, GST_CUDA_VIDEO_MEMORY_FEATURE);
    gst_caps_append_structure_full (on_device ? device : other,
        gst_structure_copy (gst_caps_get_structure (caps, i)), f ? gst_caps_features_copy (f) : NULL);
  }
  gst_caps_append (device, other);
  return device;
}

/* The templates of a cuda* element take memory:CUDAMemory; once it runs
 * on the CPU (or without a GstCudaContext) it takes system memory only. */
gboolean
gst_cuda_video_filter_accept_caps (GstBaseTransform * trans, GstPadDirection direction, GstCaps * caps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);

  if (gst_cuda_video_caps_are_device (caps) && !gst_cuda_video_filter_device_memory_possible (self)) {
    GST_DEBUG_OBJECT (self, "memory:CUDAMemory refused: not running on the GPU in a CUDA context");
    return FALSE;
  }
  return GST_CUDA_VIDEO_FILTER_PARENT_CLASS->accept_caps (trans, direction, caps);
}

GstCaps *
gst_cuda_video_filter_prefer_device (GstBaseTransform * trans, GstCaps * othercaps)
{
  GstCaps *ordered;

  if (!gst_cuda_video_filter_device_memory_possible (GST_CUDA_VIDEO_FILTER (trans)))
    return othercaps;
  ordered = gst_cuda_video_filter_device_first (othercaps);
  gst_caps_unref (othercaps);
  return ordered;
}

GstCaps *
gst_cuda_video_filter_fixate_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * othercaps)
{
  return gst_caps_fixate (gst_cuda_video_filter_prefer_device (trans, othercaps));
}

/* Every structure of @caps twice: in memory:CUDAMemory first (preferred:
 * frames stay on the GPU), then in system memory; or system memory only. */
static GstCaps *
memory_variants (GstCaps * caps, gboolean device)
{
  GstCaps *out = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    if (device)
      out = gst_caps_merge_structure_full (out, gst_structure_copy (s),
          gst_caps_features_new (GST_CUDA_VIDEO_MEMORY_FEATURE, NULL));
    out = gst_caps_merge_structure_full (out, gst_structure_copy (s),
        gst_caps_features_new_empty ());
  }
  gst_caps_unref (caps);
  return out;
}

GstCaps *
gst_cuda_video_filter_clip_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * result, GstCaps * filter)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCaps *templ = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *tmp;

  result = memory_variants (result, gst_cuda_video_filter_device_memory_possible (self));
  tmp = gst_caps_intersect_full (result, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (result);
  gst_caps_unref (templ);
  result = tmp;
  if (filter) {
    tmp = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = tmp;
  }
  GST_DEBUG_OBJECT (self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, result);
  return result;
}

GstCaps *
gst_cuda_video_filter_size_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter, gint width, gint height, gboolean free_par)
{
  GstCaps *result = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_structure_copy (gst_caps_get_structure (caps, i));
    GstCapsFeatures *f = gst_caps_get_features (caps, i);

    if (width > 0)
      gst_structure_set (s, "width", G_TYPE_INT, width, NULL);
    else
      gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, 32767, NULL);
    if (height > 0)
      gst_structure_set (s, "height", G_TYPE_INT, height, NULL);
    else
      gst_structure_set (s, "height", GST_TYPE_INT_RANGE, 1, 32767, NULL);
    if (free_par && gst_structure_has_field (s, "pixel-aspect-ratio"))
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION_RANGE, 1, 32767, 32767, 1, NULL);
    result = gst_caps_merge_structure_full (result, s, f ? gst_caps_features_copy (f) : NULL);
  }
  if (width <= 0 && height <= 0)
    result = gst_caps_merge (gst_caps_ref (caps), result);
  return gst_cuda_video_filter_clip_caps (trans, direction, caps, result, filter);
}
