/**
 * SECTION:gstcudavideofilter
 * @title: GstCudaVideoFilter
 * @short_description: Base class of the gst-cuda-video elements
 *
 * Every algorithm element (cudacanny/cpucanny, ...) derives from this class.
 * It picks the backend when the element starts: the cpu* elements always run
 * the C implementation; the cuda* elements open the CUDA device given by
 * their cuda-device-id property, in the pipeline's GstCudaContext when
 * GStreamer's CUDA library is there (shared with cudaupload, the NVDEC
 * decoders and the other cuda* elements through the "gst.cuda.context"
 * GstContext), and make three streams: uploads, compute and downloads.
 * When no usable device exists, their fallback property decides between
 * running the CPU twin (one warning message) and failing with a RESOURCE
 * error.  The cpu* elements have neither property.
 *
 * On the GPU, frames in memory:CUDAMemory are used where they are (device
 * pointers, no copy), and outputs go downstream in CUDA memory when the
 * next element takes it; frames in system memory are uploaded into device
 * buffers of the element and downloaded from them, through page-locked
 * staging unless the buffers are page-locked already (the pools this class
 * offers upstream and uses downstream are).  Up to
 * #GstCudaVideoFilter:async-depth frames stay in flight, so that the upload
 * of one frame, the compute of the one before and the download of the one
 * before that overlap; they are pushed in order, before any serialized
 * event (EOS, caps, segment) and on a DRAIN query, and dropped on a flush.
 * Device buffers are allocated once per caps and reused for every frame;
 * each CUDA frame is timed with CUDA events and the means are readable in
 * #GstCudaVideoFilter:stats.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudavideofilter-private.h"
#include "gstcudavideocontext.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cuda_video_filter_debug);
/* what an element logs goes to its own category ("cudacanny", "cpucanny") */
#define GST_CAT_DEFAULT GST_CUDA_VIDEO_FILTER_CAT (self)

enum
{
  PROP_0,
  PROP_CUDA_DEVICE_ID,
  PROP_FALLBACK,
  PROP_BACKEND,
  PROP_N_THREADS,
  PROP_STATS,
  PROP_ASYNC_DEPTH,
};

#define DEFAULT_PROP_CUDA_DEVICE_ID -1
#define DEFAULT_PROP_FALLBACK TRUE
#define DEFAULT_PROP_N_THREADS 0
#define DEFAULT_PROP_ASYNC_DEPTH -1

#define gst_cuda_video_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstCudaVideoFilter, gst_cuda_video_filter,
    GST_TYPE_BASE_TRANSFORM, G_ADD_PRIVATE (GstCudaVideoFilter);
    GST_DEBUG_CATEGORY_INIT (gst_cuda_video_filter_debug, "cudavideofilter", 0,
        "gst-cuda-video base class"));

static void gst_cuda_video_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_cuda_video_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static void gst_cuda_video_filter_finalize (GObject * object);
static GstStateChangeReturn gst_cuda_video_filter_change_state (GstElement * element,
    GstStateChange transition);
static gboolean gst_cuda_video_filter_start (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_stop (GstBaseTransform * trans);
static gboolean gst_cuda_video_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps);
static gboolean gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event);
static gboolean gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query);
static void gst_cuda_video_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer);
static gboolean gst_cuda_video_filter_transform_size (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize);

static void
gst_cuda_video_filter_class_init (GstCudaVideoFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_video_filter_set_property;
  gobject_class->get_property = gst_cuda_video_filter_get_property;
  gobject_class->finalize = gst_cuda_video_filter_finalize;

  /* cuda-device-id and fallback are the cuda* elements' own: see
   * pair_class_init */
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_string ("backend", "Backend",
          "Implementation in use once started: \"cuda\" or \"cpu\" (NULL before start)",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_N_THREADS,
      g_param_spec_uint ("n-threads", "CPU threads",
          "Most threads for the CPU implementation (0 = one per core); a frame gets as many as its "
          "work is worth, and with 0 several only while the machine's cores are free (small frames "
          "and busy machines run on one)",
          0, 1024, DEFAULT_PROP_N_THREADS,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Frames processed and mean milliseconds per frame: upload-ms, compute-ms and "
          "download-ms (CUDA events; compute only for the CPU), total-ms (host time spent "
          "on the frame in the element, waits included), backend",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_ASYNC_DEPTH,
      g_param_spec_int ("async-depth", "Frames in flight",
          "Frames kept in flight before the oldest is pushed, so that the transfers and the "
          "compute of successive frames overlap; each adds a frame of latency (reported in the "
          "LATENCY query).  0 = every frame is finished before it is pushed (lowest latency, "
          "for live sources); -1 = 2 on the GPU, 0 on the CPU.  While playing it may rise to 2, "
          "higher from the next caps",
          -1, MAX_ASYNC_DEPTH, DEFAULT_PROP_ASYNC_DEPTH,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_set_caps);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform);
  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_ip);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_generate_output);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_submit_input_buffer);
  /* passthrough (same caps in scalers) must not reach transform_ip */
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_query);
  trans_class->transform_size = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_size);
  trans_class->accept_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_accept_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_fixate_caps);
  trans_class->before_transform = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_before_transform);
  trans_class->transform_meta = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_transform_meta);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cuda_video_filter_decide_allocation);
  trans_class->passthrough_on_same_caps = FALSE;

  klass->debug_category = gst_cuda_video_filter_debug;
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_VIDEO_FILTER, 0);
}

static void
gst_cuda_video_filter_init (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = gst_cuda_video_filter_get_instance_private (self);

  self->priv = priv;
  priv->device_id = DEFAULT_PROP_CUDA_DEVICE_ID;
  priv->fallback = DEFAULT_PROP_FALLBACK;
  priv->n_threads = DEFAULT_PROP_N_THREADS;
  priv->async_depth = DEFAULT_PROP_ASYNC_DEPTH;
  priv->device_allocs = g_ptr_array_new ();
  g_queue_init (&priv->inflight);
  g_queue_init (&priv->held_events);
  g_mutex_init (&priv->stats_lock);
}

static void
gst_cuda_video_filter_finalize (GObject * object)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;

  g_ptr_array_unref (priv->device_allocs);
  gst_clear_object (&priv->context);
  g_free (priv->settings_warned);
  g_clear_pointer (&priv->usable_params, g_bytes_unref);
  g_free (priv->setup_failed);
  g_free (priv->luma8);
  g_mutex_clear (&priv->stats_lock);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static GstStructure *
gst_cuda_video_filter_make_stats (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterPrivate *priv = self->priv;
  gdouble n;
  GstStructure *s;

  g_mutex_lock (&priv->stats_lock);
  n = priv->frames > 0 ? (gdouble) priv->frames : 1.0;
  s = gst_structure_new ("stats",
      "frames", G_TYPE_UINT64, priv->frames,
      "upload-ms", G_TYPE_DOUBLE, priv->sum_ms[0] / n,
      "compute-ms", G_TYPE_DOUBLE, priv->sum_ms[1] / n,
      "download-ms", G_TYPE_DOUBLE, priv->sum_ms[2] / n,
      "total-ms", G_TYPE_DOUBLE, priv->sum_ms[3] / n,
      "backend", G_TYPE_STRING, priv->started ?
      (priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu") : "none", NULL);
  g_mutex_unlock (&priv->stats_lock);
  return s;
}

static void
gst_cuda_video_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;
  gboolean latency_changed = FALSE;

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_N_THREADS:
      priv->n_threads = g_value_get_uint (value);
      break;
    case PROP_ASYNC_DEPTH:
      latency_changed = priv->async_depth != g_value_get_int (value);
      priv->async_depth = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
  if (latency_changed)
    gst_element_post_message (GST_ELEMENT (object), gst_message_new_latency (GST_OBJECT (object)));
}

static void
gst_cuda_video_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (object);
  GstCudaVideoFilterPrivate *priv = self->priv;

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, gst_cuda_video_filter_make_stats (self));
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_N_THREADS:
      g_value_set_uint (value, priv->n_threads);
      break;
    case PROP_BACKEND:
      g_value_set_string (value, !priv->started ? NULL :
          priv->backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu");
      break;
    case PROP_ASYNC_DEPTH:
      g_value_set_int (value, priv->async_depth);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static gboolean
gst_cuda_video_filter_start (GstBaseTransform * trans)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GcvError err = { GCV_OK, "" };
  gboolean fallback, ok = FALSE;
  gint device_id;

  GST_OBJECT_LOCK (self);
  fallback = priv->fallback;
  device_id = priv->device_id;
  GST_OBJECT_UNLOCK (self);

  gcv_cancel_clear (&priv->cancel);
  g_mutex_lock (&priv->stats_lock);
  priv->frames = 0;
  memset (priv->sum_ms, 0, sizeof (priv->sum_ms));
  g_mutex_unlock (&priv->stats_lock);
  priv->slow_logged_us = 0;
  priv->slow_frames = 0;
  priv->slowest_us = 0;

  priv->backend = GST_CUDA_VIDEO_BACKEND_CPU;
  if (klass->backend == GST_CUDA_VIDEO_BACKEND_CUDA) {
    ok = gst_cuda_video_filter_open_cuda (self, device_id, &err);
    if (!ok)
      gst_cuda_video_filter_close_cuda (self);
    if (!ok && !fallback) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device for %s", GST_OBJECT_NAME (self)),
          ("%s; set fallback=true to run the CPU implementation instead", err.message));
      return FALSE;
    }
    if (!ok)
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device: %s runs the CPU implementation", GST_OBJECT_NAME (self)),
          ("%s", err.message));
  }
  GST_OBJECT_LOCK (self);
  priv->backend = ok ? GST_CUDA_VIDEO_BACKEND_CUDA : GST_CUDA_VIDEO_BACKEND_CPU;
  priv->started = TRUE;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "backend: %s", ok ? "cuda" : "cpu");
  return TRUE;
}

static void
free_per_caps (GstCudaVideoFilter * self)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  gboolean entered = on_gpu (self) && gst_cuda_video_filter_enter (self, NULL);
  guint i;

  if (entered) {
    /* nothing may still run on what is freed below */
    for (i = 0; i < N_STREAMS; i++)
      if (priv->streams[i])
        gcv_cuda_stream_sync (priv->streams[i], NULL);
  }
  /* a failed setup may have made part of its state: teardown frees that
   * too (every teardown takes a partial setup) */
  if (priv->set_up && klass->teardown)
    klass->teardown (self);
  priv->set_up = FALSE;
  priv->configured = FALSE;
  if (entered) {
    gst_cuda_video_filter_free_slots (self);
    for (i = 0; i < priv->device_allocs->len; i++)
      gcv_cuda_free (g_ptr_array_index (priv->device_allocs, i));
    gst_cuda_video_filter_leave (self);
  }
  g_ptr_array_set_size (priv->device_allocs, 0);
  priv->results_size = 0;
  g_clear_pointer (&priv->luma8, g_free);
}

static gboolean
gst_cuda_video_filter_stop (GstBaseTransform * trans)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  gst_cuda_video_filter_discard_inflight (self);
  gst_cuda_video_filter_flush_events (self, FALSE);
  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
  gst_cuda_video_filter_close_cuda (self);
  g_clear_pointer (&self->priv->setup_failed, g_free);
  self->priv->negotiation_explained = FALSE;
  g_clear_pointer (&self->priv->settings_warned, g_free);
  g_clear_pointer (&self->priv->usable_params, g_bytes_unref);
  GST_OBJECT_LOCK (self);
  self->priv->started = FALSE;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* The streaming thread must leave the frame it works on before the pads
 * can stop (the sink pad waits for its stream lock): a frame of minutes
 * would hold the change to READY that long.  The request goes out before
 * the pads are deactivated; the backends see it between chunks of their
 * work and the frame ends as flushing (nothing pushed, no error). */
static GstStateChangeReturn
gst_cuda_video_filter_change_state (GstElement * element, GstStateChange transition)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    GST_DEBUG_OBJECT (self, "asking the frame in progress to stop");
    gcv_cancel_request (&self->priv->cancel);
  }
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  /* still PAUSED: frames go on */
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY && ret == GST_STATE_CHANGE_FAILURE)
    gcv_cancel_clear (&self->priv->cancel);
  return ret;
}

static gboolean
gst_cuda_video_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstCudaVideoFilterPrivate *priv = self->priv;
  GstVideoInfo in_info, out_info;
  GError *error = NULL;
  gboolean ok;

  if (!gst_video_info_from_caps (&in_info, incaps) || !gst_video_info_from_caps (&out_info, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Invalid caps"),
        ("in %" GST_PTR_FORMAT ", out %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "caps in %" GST_PTR_FORMAT " out %" GST_PTR_FORMAT, incaps, outcaps);

  /* frames of the old caps go out under them (the source pad still has
   * them: basetransform sets the new ones after this) */
  if (priv->configured && gst_cuda_video_filter_drain_inflight (self) != GST_FLOW_OK)
  gst_cuda_video_filter_discard_inflight (self);
  if (klass->reset)
    klass->reset (self);
  free_per_caps (self);
  self->in_info = in_info;
  self->out_info = out_info;
  priv->in_device = on_gpu (self) && priv->context && gst_cuda_video_caps_are_device (incaps);
  priv->out_device = on_gpu (self) && priv->context && gst_cuda_video_caps_are_device (outcaps);
  priv->in_planes = priv->out_planes = GST_CUDA_VIDEO_ALL_PLANES;
  priv->results_size = 0;
  priv->warned_foreign = FALSE;

  if (!gst_cuda_video_filter_enter (self, &error)) {
    gst_cuda_video_filter_post_error (self, "Entering the CUDA context", error);
    return FALSE;
  }
  priv->set_up = TRUE;
  /* no algorithm here knows fields: their lines would be blended as the
   * lines of one picture */
  if (GST_VIDEO_INFO_INTERLACE_MODE (&in_info) != GST_VIDEO_INTERLACE_MODE_PROGRESSIVE) {
    g_set_error (&error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT, "interlaced video (interlace-mode=%s) "
        "is not supported, only progressive video: deinterlace it first (the deinterlace element)",
        gst_video_interlace_mode_to_string (GST_VIDEO_INFO_INTERLACE_MODE (&in_info)));
    ok = FALSE;
  } else {
    ok = klass->setup == NULL || klass->setup (self, priv->backend, &error);
  }
  priv->configured = ok;
  if (ok && on_gpu (self) && !gst_base_transform_is_passthrough (trans))
    ok = gst_cuda_video_filter_alloc_slots (self, &error);
  gst_cuda_video_filter_leave (self);
  if (!ok) {
    /* basetransform tries the same caps again at every buffer: the error
     * is posted once */
    gchar *what = g_strdup_printf ("%" GST_PTR_FORMAT ": %s", incaps, error ? error->message : "");
    free_per_caps (self);
    if (g_strcmp0 (what, priv->setup_failed) == 0) {
      GST_DEBUG_OBJECT (self, "setup failed again: %s", what);
      g_clear_error (&error);
      g_free (what);
      return FALSE;
    }
    g_free (priv->setup_failed);
    priv->setup_failed = what;
    gst_cuda_video_filter_post_error (self, "Setting up for the new caps", error);
    return FALSE;
  }
  g_clear_pointer (&priv->setup_failed, g_free);
  priv->negotiation_explained = FALSE;
  GST_INFO_OBJECT (self, "%s %dx%d (%s memory) -> %s %dx%d (%s memory) on the %s",
      GST_VIDEO_INFO_NAME (&in_info), GST_VIDEO_INFO_WIDTH (&in_info), GST_VIDEO_INFO_HEIGHT (&in_info),
      priv->in_device ? "CUDA" : "system", GST_VIDEO_INFO_NAME (&out_info),
      GST_VIDEO_INFO_WIDTH (&out_info), GST_VIDEO_INFO_HEIGHT (&out_info),
      priv->out_device ? "CUDA" : "system", on_gpu (self) ? "GPU" : "CPU");
  return TRUE;
}

void
gst_cuda_video_filter_get_memory (GstCudaVideoFilter * self, gboolean * in_device, gboolean * out_device)
{
  *in_device = self->priv->in_device;
  *out_device = self->priv->out_device;
}

void
gst_cuda_video_filter_set_device_planes (GstCudaVideoFilter * self, guint in_planes, guint out_planes)
{
  self->priv->in_planes = in_planes;
  self->priv->out_planes = out_planes;
}

void
gst_cuda_video_filter_set_results_size (GstCudaVideoFilter * self, gsize size)
{
  self->priv->results_size = size;
}

gpointer
gst_cuda_video_filter_get_results (GstCudaVideoFilter * self)
{
  return self->priv->current ? self->priv->current->results : NULL;
}

/* The output size follows from the output caps alone: input buffers may be
 * larger than their caps say (padded strides described by GstVideoMeta). */
static gboolean
gst_cuda_video_filter_transform_size (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, gsize size, GstCaps * othercaps, gsize * othersize)
{
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, othercaps))
    return FALSE;
  *othersize = GST_VIDEO_INFO_SIZE (&info);
  return TRUE;
}

/* ---- per frame: controlled properties ------------------------------------ */

/* Properties with a control binding (GST_PARAM_CONTROLLABLE) take their
 * value for the frame's stream time before the frame is worked on, as
 * GstVideoFilter does. */
static void
gst_cuda_video_filter_before_transform (GstBaseTransform * trans, GstBuffer * buffer)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstClockTime stream_time = gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buffer));

  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " (stream time %" GST_TIME_FORMAT ")",
      GST_TIME_ARGS (GST_BUFFER_PTS (buffer)), GST_TIME_ARGS (stream_time));
  if (GST_CLOCK_TIME_IS_VALID (stream_time))
    gst_object_sync_values (GST_OBJECT (self), stream_time);
}

/* ---- helpers ---------------------------------------------------------------- */

gint
gst_cuda_video_filter_get_device (GstCudaVideoFilter * self)
{
  return self->priv->device;
}

GstCudaVideoBackend
gst_cuda_video_filter_get_backend (GstCudaVideoFilter * self)
{
  return self->priv->backend;
}

gint
gst_cuda_video_filter_get_n_threads (GstCudaVideoFilter * self)
{
  gint n;

  GST_OBJECT_LOCK (self);
  n = (gint) self->priv->n_threads;
  GST_OBJECT_UNLOCK (self);
  return n;
}

const GcvCancel *
gst_cuda_video_filter_get_cancel (GstCudaVideoFilter * self)
{
  return &self->priv->cancel;
}

gpointer
gst_cuda_video_filter_get_stream (GstCudaVideoFilter * self)
{
  return self->priv->streams[STREAM_COMPUTE];
}

gboolean
gst_cuda_video_filter_device_alloc (GstCudaVideoFilter * self, gsize row_bytes, guint rows,
    GcvPlane * plane, gint width, GError ** error)
{
  GcvError err;
  size_t pitch;
  void *ptr;

  if (gcv_cuda_malloc_2d (&ptr, &pitch, row_bytes, rows, &err) != GCV_OK)
    return gst_cuda_video_filter_set_error (error, &err);
  g_ptr_array_add (self->priv->device_allocs, ptr);
  plane->data = ptr;
  plane->stride = pitch;
  plane->width = width;
  plane->height = rows;
  return TRUE;
}

/* ---- events and queries ------------------------------------------------------ */

/* Pushes everything the element holds, in order: the frames in flight,
 * then what the algorithm holds back (its drain), the events held behind
 * them released as their frames leave and the rest after; before @event,
 * which ends the stream so far. */
static void
drain_all (GstCudaVideoFilter * self, GstEvent * event)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstFlowReturn ret = GST_FLOW_OK;

  if (self->priv->configured) {
    ret = gst_cuda_video_filter_drain_inflight (self);
    if (ret == GST_FLOW_OK && klass->drain)
      ret = klass->drain (self);
  }
  if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
    GST_WARNING_OBJECT (self, "draining before %s: %s", GST_EVENT_TYPE_NAME (event), gst_flow_get_name (ret));
  gst_cuda_video_filter_release_events (self, TRUE);
}

static gboolean
gst_cuda_video_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);
  GstFlowReturn ret;
  gboolean res;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      /* a flushing seek: the frame in progress is of no use any more
       * (this thread is not the streaming one) */
      gcv_cancel_request (&self->priv->cancel);
      break;
    case GST_EVENT_FLUSH_STOP:
      /* the streaming thread left the frame: the next ones run */
      gcv_cancel_clear (&self->priv->cancel);
      gst_cuda_video_filter_discard_inflight (self);
      if (klass->reset)
        klass->reset (self);
      res = GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
      gst_cuda_video_filter_flush_events (self, TRUE);
      return res;
    case GST_EVENT_CAPS:
      /* frames held back under the old caps go out under them, before the
       * new caps reach set_caps (which resets the history) */
      if (self->priv->configured) {
        GstCaps *caps, *current = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (trans));
        gst_event_parse_caps (event, &caps);
        if (current && !gst_caps_is_equal (current, caps))
          drain_all (self, event);
        if (current)
          gst_caps_unref (current);
      }
      break;
    default:
      /* every other serialized event comes after the frames that came
       * before it: those in flight are pushed; what the algorithm holds
       * back is drained before the end of a stream (EOS, SEGMENT, ...),
       * and other events (GAP, TAG, ...) wait behind it */
      if (!GST_EVENT_IS_SERIALIZED (event))
        break;
      if (gst_cuda_video_filter_event_ends_stream (self, event)) {
        drain_all (self, event);
        break;
      }
      ret = gst_cuda_video_filter_drain_inflight (self);
      if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING && ret != GST_FLOW_EOS)
        GST_WARNING_OBJECT (self, "draining before %s: %s", GST_EVENT_TYPE_NAME (event),
            gst_flow_get_name (ret));
      if (gst_cuda_video_filter_hold_event (self, event))
        return TRUE;
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_cuda_video_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstCudaVideoFilter *self = GST_CUDA_VIDEO_FILTER (trans);
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_GET_CLASS (self);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gst_cuda_video_context_query (GST_ELEMENT (self), query, self->priv->context))
        return TRUE;
      break;
    case GST_QUERY_CAPS:
      /* basetransform answers in the order of the query's filter (the
       * neighbour's preference, often system memory first, as cudaupload
       * offers): ours comes first, frames staying on the GPU */
      if (GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query)) {
        GstCaps *caps;
        gst_query_parse_caps_result (query, &caps);
        if (caps && gst_cuda_video_filter_device_memory_possible (self)) {
          GstCaps *ordered = gst_cuda_video_filter_device_first (caps);
          gst_query_set_caps_result (query, ordered);
          gst_caps_unref (ordered);
        }
        return TRUE;
      }
      return FALSE;
    case GST_QUERY_DRAIN:
      /* upstream wants every frame it gave back: push what is in flight */
      if (direction == GST_PAD_SINK && gst_cuda_video_filter_drain_inflight (self) != GST_FLOW_OK)
        GST_DEBUG_OBJECT (self, "draining for the DRAIN query failed");
      break;
    case GST_QUERY_LATENCY:
      if (direction == GST_PAD_SRC) {
        GstClockTime min, max, ours = 0;
        gboolean live;
        guint frames = (klass->latency_frames ? klass->latency_frames (self) : 0)
            + gst_cuda_video_filter_effective_depth (self);

        if (!gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (trans), query))
          return FALSE;
        gst_query_parse_latency (query, &live, &min, &max);
        if (frames > 0 && GST_VIDEO_INFO_FPS_N (&self->in_info) > 0)
          ours = gst_util_uint64_scale_int (frames * GST_SECOND,
              GST_VIDEO_INFO_FPS_D (&self->in_info), GST_VIDEO_INFO_FPS_N (&self->in_info));
        GST_DEBUG_OBJECT (self, "adding latency of %u frames: %" GST_TIME_FORMAT, frames,
            GST_TIME_ARGS (ours));
        min += ours;
        if (max != GST_CLOCK_TIME_NONE)
          max += ours;
        gst_query_set_latency (query, live, min, max);
        return TRUE;
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

/* ---- cuda / cpu registration -------------------------------------------- */

typedef struct
{
  GstCudaVideoBackend backend;
  gchar *long_name, *classification, *description;
  GstDebugCategory *category;
} PairClassData;

/* The properties of the cuda* elements alone (a cpu* element has no
 * device to choose and nothing to fall back from).  GObject hands a
 * property to the set / get_property of the class that installed it: the
 * pair's class, whose handlers take these two (by name: the element's own
 * ids may be any) and pass the element's own (install_cuda_properties) on
 * to the element's class. */
static void
pair_set_property (GObject * object, guint prop_id, const GValue * value, GParamSpec * pspec)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;
  GObjectClass *element_class = g_type_class_peek_parent (g_type_class_peek (pspec->owner_type));

  if (g_str_equal (pspec->name, "cuda-device-id")) {
    GST_OBJECT_LOCK (object);
    priv->device_id = g_value_get_int (value);
    GST_OBJECT_UNLOCK (object);
  } else if (g_str_equal (pspec->name, "fallback")) {
    GST_OBJECT_LOCK (object);
    priv->fallback = g_value_get_boolean (value);
    GST_OBJECT_UNLOCK (object);
  } else {
    element_class->set_property (object, prop_id, value, pspec);
  }
}

static void
pair_get_property (GObject * object, guint prop_id, GValue * value, GParamSpec * pspec)
{
  GstCudaVideoFilterPrivate *priv = GST_CUDA_VIDEO_FILTER (object)->priv;
  GObjectClass *element_class = g_type_class_peek_parent (g_type_class_peek (pspec->owner_type));

  if (g_str_equal (pspec->name, "cuda-device-id")) {
    GST_OBJECT_LOCK (object);
    g_value_set_int (value, priv->device_id);
    GST_OBJECT_UNLOCK (object);
  } else if (g_str_equal (pspec->name, "fallback")) {
    GST_OBJECT_LOCK (object);
    g_value_set_boolean (value, priv->fallback);
    GST_OBJECT_UNLOCK (object);
  } else {
    element_class->get_property (object, prop_id, value, pspec);
  }
}

static void
install_pair_properties (GObjectClass * gobject_class)
{
  GstCudaVideoFilterClass *klass = GST_CUDA_VIDEO_FILTER_CLASS (gobject_class);

  gobject_class->set_property = pair_set_property;
  gobject_class->get_property = pair_get_property;
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to run on (-1 = the device of the pipeline's CUDA context, else the "
          "default device, 0 unless CUDA_VISIBLE_DEVICES says otherwise); ignored by the cpu* "
          "elements",
          -1, 63, DEFAULT_PROP_CUDA_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_FALLBACK,
      g_param_spec_boolean ("fallback", "Fallback to CPU",
          "When no usable CUDA device is found: TRUE runs the CPU implementation and posts "
          "one warning, FALSE fails with a resource error",
          DEFAULT_PROP_FALLBACK,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));
  if (klass->install_cuda_properties)
    klass->install_cuda_properties (gobject_class);
}

/* The cuda* element's pads take memory:CUDAMemory too (first: preferred),
 * when this build can; the templates are the abstract class's otherwise. */
static void
add_device_templates (GstElementClass * klass)
{
  GList *l, *templates = g_list_copy (gst_element_class_get_pad_template_list (klass));

  for (l = templates; l != NULL; l = l->next) {
    GstPadTemplate *templ = l->data;
    GstCaps *caps = gst_pad_template_get_caps (templ);
    GstCaps *both = gst_caps_merge (gst_cuda_video_caps_with_memory (caps), gst_caps_ref (caps));

    gst_element_class_add_pad_template (klass, gst_pad_template_new (GST_PAD_TEMPLATE_NAME_TEMPLATE (templ),
            GST_PAD_TEMPLATE_DIRECTION (templ), GST_PAD_TEMPLATE_PRESENCE (templ), both));
    gst_caps_unref (both);
    gst_caps_unref (caps);
  }
  g_list_free (templates);
}

static void
pair_class_init (gpointer klass, gpointer class_data)
{
  PairClassData *d = class_data;

  GST_CUDA_VIDEO_FILTER_CLASS (klass)->backend = d->backend;
  GST_CUDA_VIDEO_FILTER_CLASS (klass)->debug_category = d->category;
  gst_element_class_set_metadata (GST_ELEMENT_CLASS (klass), d->long_name, d->classification,
      d->description, "gst-cuda-video developers");
  if (d->backend == GST_CUDA_VIDEO_BACKEND_CUDA)
    install_pair_properties (G_OBJECT_CLASS (klass));
  if (d->backend == GST_CUDA_VIDEO_BACKEND_CUDA && gst_cuda_video_memory_available ())
    add_device_templates (GST_ELEMENT_CLASS (klass));
}

gboolean
gst_cuda_video_filter_register_pair (GstPlugin * plugin, GType parent, const gchar * suffix,
    const gchar * long_name, const gchar * classification, const gchar * description)
{
  GTypeQuery query;
  gint i;

  g_type_query (parent, &query);
  for (i = 0; i < 2; i++) {
    GstCudaVideoBackend backend = i == 0 ? GST_CUDA_VIDEO_BACKEND_CUDA : GST_CUDA_VIDEO_BACKEND_CPU;
    const gchar *prefix = backend == GST_CUDA_VIDEO_BACKEND_CUDA ? "cuda" : "cpu";
    gchar *element_name = g_strconcat (prefix, suffix, NULL);
    gchar *type_name = g_strdup_printf ("Gst%c%s%c%s", g_ascii_toupper (prefix[0]), prefix + 1,
        g_ascii_toupper (suffix[0]), suffix + 1);
    GType type = g_type_from_name (type_name);
    gboolean ok;

    if (type == 0) {
      /* the class data lives as long as the type, i.e. the process */
      PairClassData *d = g_new0 (PairClassData, 1);
      GTypeInfo info = { 0, };

      d->backend = backend;
      d->long_name = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("CUDA %s", long_name) : g_strdup_printf ("CPU %s", long_name);
      /* as GStreamer's own GPU elements say it */
      d->classification = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("%s/Hardware", classification) : g_strdup (classification);
      GST_DEBUG_CATEGORY_INIT (d->category, element_name, 0, d->long_name);
      d->description = backend == GST_CUDA_VIDEO_BACKEND_CUDA ?
          g_strdup_printf ("%s, on an NVIDIA GPU with CUDA (runs the CPU implementation "
          "when no GPU is usable and fallback=true)", description) :
          g_strdup_printf ("%s, on the CPU (the same output as the CUDA element)", description);
      info.class_size = query.class_size;
      info.class_init = pair_class_init;
      info.class_data = d;
      info.instance_size = query.instance_size;
      type = g_type_register_static (parent, type_name, &info, 0);
    }
    ok = gst_element_register (plugin, element_name, GST_RANK_NONE, type);
    g_free (element_name);
    g_free (type_name);
    if (!ok)
      return FALSE;
  }
  return TRUE;
}
