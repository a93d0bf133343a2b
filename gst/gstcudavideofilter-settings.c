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
/* The settings policy (refused values, unusable combinations), how backend
 * failures become element errors, and results posted on the bus. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include <string.h>

#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

G_DEFINE_QUARK (gst-cuda-video-filter-stopped, gst_cuda_video_filter_stopped);

void
gst_cuda_video_filter_warn_rejected (GstCudaVideoFilter * self, GParamSpec * pspec, const GValue * value,
    const gchar * why)
{
  gchar *contents = g_strdup_value_contents (value);
  GstBus *bus = gst_element_get_bus (GST_ELEMENT (self));

  /* an element not in a pipeline yet (gst-launch-1.0 sets the properties
   * of the launch line before it adds the element) has no bus to post to:
   * a GLib warning, which gst-launch-1.0 and applications show, as
   * GObject's own for a value out of range */
  if (bus == NULL)
    g_warning ("%s: %s=%s refused: %s; %s keeps its previous value", GST_OBJECT_NAME (self), pspec->name,
        contents, why, pspec->name);
  else if (G_IS_PARAM_SPEC_INT (pspec))
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s=%s refused: %s; %s keeps its previous value",
            pspec->name, contents, why, pspec->name), ("accepted: %d .. %d", G_PARAM_SPEC_INT (pspec)->minimum,
            G_PARAM_SPEC_INT (pspec)->maximum));
  else
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("%s=%s refused: %s; %s keeps its previous value",
            pspec->name, contents, why, pspec->name), (NULL));
  gst_clear_object (&bus);
  g_free (contents);
}

gboolean
gst_cuda_video_filter_settings_ok (GstCudaVideoFilter * self, const gchar * bad)
{
  return gst_cuda_video_filter_settings_ok_values (self, bad, NULL);
}

gboolean
gst_cuda_video_filter_settings_ok_values (GstCudaVideoFilter * self, const gchar * bad, const gchar * values)
{
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (bad == NULL) {
    g_clear_pointer (&priv->settings_warned, g_free);
    return TRUE;
  }
  /* the rule broken is the change, not the values breaking it: a control
   * binding that moves a threshold every frame is one warning */
  if (g_strcmp0 (bad, priv->settings_warned) != 0) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("Unusable settings: %s%s%s; the last usable ones stay in "
            "force", bad, values ? " " : "", values ? values : ""), (NULL));
    g_free (priv->settings_warned);
    priv->settings_warned = g_strdup (bad);
  }
  return FALSE;
}

gboolean
gst_cuda_video_filter_usable_params (GstCudaVideoFilter * self, gpointer params, gsize size,
    const gchar * what, const gchar * bad)
{
  return gst_cuda_video_filter_apply_params (self, params, size, what, bad, NULL, NULL);
}

gboolean
gst_cuda_video_filter_apply_params (GstCudaVideoFilter * self, gpointer params, gsize size,
    const gchar * what, const gchar * bad, const gchar * values, GError ** error)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gchar *text;

  if (bad == NULL) {
    gst_cuda_video_filter_settings_ok (self, NULL);
    g_clear_pointer (&priv->usable_params, g_bytes_unref);
    priv->usable_params = g_bytes_new (params, size);
    return TRUE;
  }
  text = g_strdup_printf ("invalid %s settings: %s", what, bad);
  if (priv->usable_params == NULL || g_bytes_get_size (priv->usable_params) != size) {
    /* nothing ever ran with these settings in this run: the element
     * cannot run */
    if (error != NULL)
      g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "%s%s%s", text, values ? " " : "",
          values ? values : "");
    else
      GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS, ("%c%s%s%s", g_ascii_toupper (text[0]), text + 1,
              values ? " " : "", values ? values : ""), ("%s", bad));
    g_free (text);
    return FALSE;
  }
  gst_cuda_video_filter_settings_ok_values (self, text, values);
  g_free (text);
  memcpy (params, g_bytes_get_data (priv->usable_params, NULL), size);
  return TRUE;
}

gboolean
gst_cuda_video_filter_set_error (GError ** error, const GcvError * err)
{
  GstResourceError code;

  /* a stop request is no failure: post_error recognises it */
  if (err->status == GCV_ERROR_CANCELLED) {
    g_set_error_literal (error, GST_CUDA_VIDEO_FILTER_STOPPED, 0, err->message);
    return FALSE;
  }
  code = err->status == GCV_ERROR_NO_MEMORY ? GST_RESOURCE_ERROR_NO_SPACE_LEFT :
      err->status == GCV_ERROR_NO_DEVICE ? GST_RESOURCE_ERROR_NOT_FOUND : GST_RESOURCE_ERROR_FAILED;

  g_set_error_literal (error, GST_RESOURCE_ERROR, code, err->message);
  return FALSE;
}
GstFlowReturn
gst_cuda_video_filter_post_error (GstCudaVideoFilter * self, const gchar * what, GError * error)
{
  gint code = error && error->domain == GST_RESOURCE_ERROR ? error->code : GST_RESOURCE_ERROR_FAILED;

  /* the work stopped because the element is stopping or flushing
   * (gst_cuda_video_filter_get_cancel): nothing failed and nothing is
   * posted; the frame goes nowhere */
  if (error && error->domain == GST_CUDA_VIDEO_FILTER_STOPPED) {
    GST_DEBUG_OBJECT (self, "%s: %s", what, error->message);
    g_clear_error (&error);
    return GST_FLOW_FLUSHING;
  }
  /* settings and negotiation problems are the user's to fix: the message
   * itself is the text */
  if (error && (error->domain == GST_LIBRARY_ERROR || error->domain == GST_CORE_ERROR
          || error->domain == GST_STREAM_ERROR)) {
    gst_element_message_full (GST_ELEMENT (self), GST_MESSAGE_ERROR, error->domain, error->code,
        g_strdup_printf ("%s: %s", what, error->message), NULL, __FILE__, GST_FUNCTION, __LINE__);
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  if (code == GST_RESOURCE_ERROR_NO_SPACE_LEFT)
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
        ("%s: out of memory (%s backend)", what,
            self->priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "CUDA" : "CPU"),
        ("%s", error ? error->message : "unknown"));
  else
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("%s failed", what),
        ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  return GST_FLOW_ERROR;
}
GstFlowReturn
gst_cuda_video_filter_backend_failed (GstCudaVideoFilter * self, const gchar * what, const GcvError * err)
{
  GError *error = NULL;

  gst_cuda_video_filter_set_error (&error, err);
  return gst_cuda_video_filter_post_error (self, what, error);
}

/* ---- results on the bus ----------------------------------------------- */

void
gst_cuda_video_filter_install_post_messages (GObjectClass * klass, guint prop_id, const gchar * message)
{
  /* the blurb lives as long as the class: interned */
  gchar *blurb = g_strdup_printf ("Post an element message \"%s\" with a summary of each frame's results "
      "on the bus", message);

  g_object_class_install_property (klass, prop_id,
      g_param_spec_boolean ("post-messages", "Post messages", g_intern_string (blurb), FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_NAME | G_PARAM_STATIC_NICK | G_PARAM_STATIC_BLURB
          | GST_PARAM_MUTABLE_PLAYING));
  g_free (blurb);
}

/* atomic rather than under the object lock: the elements' set_property
 * hold that lock around their switch */
void
gst_cuda_video_filter_set_post_messages (GstCudaVideoFilter * self, gboolean post)
{
  g_atomic_int_set (&self->priv->post_messages, post ? 1 : 0);
}

gboolean
gst_cuda_video_filter_get_post_messages (GstCudaVideoFilter * self)
{
  return g_atomic_int_get (&self->priv->post_messages) != 0;
}

void
gst_cuda_video_filter_post_results (GstCudaVideoFilter * self, GstBuffer * buffer, GstStructure * results)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  GstClockTime pts = GST_BUFFER_PTS (buffer);
  GstClockTime stream_time = GST_CLOCK_TIME_NONE, running_time = GST_CLOCK_TIME_NONE;

  if (GST_CLOCK_TIME_IS_VALID (pts) && segment->format == GST_FORMAT_TIME) {
    stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME, pts);
    running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME, pts);
  }
  gst_structure_set (results,
      "timestamp", G_TYPE_UINT64, pts,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (buffer), NULL);
  gst_element_post_message (GST_ELEMENT (self), gst_message_new_element (GST_OBJECT (self), results));
}
