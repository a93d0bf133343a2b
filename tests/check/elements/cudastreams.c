/* gst-cuda-video: CUDA streams between neighbours (GStreamer 1.24 and
 * later), on a GPU (gst-check).
 *
 * Since 1.24 a GstCudaMemory carries the GstCudaStream of its producer,
 * which may push a buffer while its work writing it still runs there
 * (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC), and a pool's configuration may
 * name the stream its buffers are to be written on.  The element must
 * order its work after a neighbour's: never read a frame its producer
 * still writes, never overwrite one a consumer still reads, never hand one
 * downstream that it still writes.  Each case runs frames cut from the
 * photos of tests/data (NV12, panned a few pixels a frame) through
 * cudacanny in a GstHarness, with a slow copy (a kernel that waits
 * SPIN_MS before it copies, cudastreams-kernel.cu) standing for the
 * neighbour's work, and compares every output with cpucanny's of the
 * frame the neighbour meant:
 *  - a producer on a stream of its own writes each input with the slow
 *    copy over a frame of another photo and pushes it at once (edges in
 *    system memory, and in CUDA memory read back on the host);
 *  - a producer that takes the pool cudacanny proposes: it must be
 *    GStreamer's GstCudaBufferPool naming a stream, and the producer's
 *    slow copy on that stream is then in order with the element's work;
 *  - a consumer whose pool names its own stream: the element writes the
 *    edge map (NV12, as for GStreamer's cudadownload) into its buffers,
 *    which arrive with no work pending; the consumer reads each with the
 *    slow copy on its stream, without waiting, and gives the buffer back at
 *    once, so that the element's next frame goes into the buffer being
 *    read.
 *
 * Skipped (exit 77) without a GPU (GST_CUDA_VIDEO_REQUIRE_GPU=1: a
 * failure) and on GStreamer before 1.24, whose memories have no streams.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <string.h>

#include "gcv-check.h"
#include "gcv-cuda.h"

#if GCV_TEST_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>
#endif

#if GCV_TEST_GST_CUDA && GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>

/* cudastreams-kernel.cu */
int gcv_test_slow_copy_2d (void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
    size_t row_bytes, size_t rows, unsigned spin_ms, void *stream);
const char *gcv_test_cuda_error_string (int error);

#define W 320
#define H 240
#define N_FRAMES 4
/* longer than the element's work on a frame by far */
#define SPIN_MS 150

static GstCudaContext *context;

/* frame k of the clip the neighbours mean (photo 1), and what lies in the
 * buffers before their slow copy lands (photo 2) */
static Img *
clip_frame (gint k)
{
  return img_from_test_photo (GST_VIDEO_FORMAT_NV12, W, H, 1, 40 + 3 * k, 30 + 2 * k, 7 + k);
}

static Img *
stale_frame (void)
{
  return img_from_test_photo (GST_VIDEO_FORMAT_NV12, W, H, 2, 10, 10, 99);
}

/* cpucanny's edge map of frame k (GRAY8) */
static Img *
expected_edges (gint k)
{
  Img *in = clip_frame (k);
  Ctx ctx = ctx_new ("cpucanny", NULL);
  Img *out;

  ctx_set_caps (&ctx, &in->info);
  out = ctx_process (&ctx, in, LAYOUT_DEFAULT);
  ctx_free (&ctx);
  img_free (in);
  return out;
}

static void
check_cuda (int error, const gchar * what)
{
  fail_unless (error == 0, "%s: %s", what, gcv_test_cuda_error_string (error));
}

/* A device copy of @im (its layout), for the slow copies to read. */
static guint8 *
device_copy (const Img * im)
{
  GcvError err = { GCV_OK, "" };
  void *d = NULL;
  gsize size = GST_VIDEO_INFO_SIZE (&im->info);

  fail_unless (gcv_cuda_malloc (&d, size, &err) == GCV_OK, "cudaMalloc: %s", err.message);
  fail_unless (gcv_cuda_upload_2d (d, size, im->data, size, size, 1, NULL, &err) == GCV_OK
      && gcv_cuda_stream_sync (NULL, &err) == GCV_OK, "upload: %s", err.message);
  return d;
}

/* Queues on @stream the slow copy of every plane of @src (device, in the
 * layout of @info) into the mapped CUDA frame @dst. */
static void
slow_copy_into (GstVideoFrame * dst, const guint8 * src, const GstVideoInfo * info, GstCudaStream * stream)
{
  guint p;

  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (dst); p++) {
    gsize row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, p) * GST_VIDEO_INFO_COMP_PSTRIDE (info, p);
    check_cuda (gcv_test_slow_copy_2d (GST_VIDEO_FRAME_PLANE_DATA (dst, p), GST_VIDEO_FRAME_PLANE_STRIDE (dst,
                p), src + GST_VIDEO_INFO_PLANE_OFFSET (info, p), GST_VIDEO_INFO_PLANE_STRIDE (info, p), row,
            GST_VIDEO_INFO_COMP_HEIGHT (info, p), SPIN_MS, gst_cuda_stream_get_handle (stream)),
        "the slow copy");
  }
}

/* Device memory of the test: freed at the end of a test, in the context
 * (cudaFree waits for the device). */
static GPtrArray *device_blocks;

static void
free_device_blocks (void)
{
  fail_unless (gst_cuda_context_push (context));
  g_ptr_array_set_size (device_blocks, 0);
  gst_cuda_context_pop (NULL);
}

/* A frame of @pool holding a frame of another photo (written and waited
 * for), then frame @k written over it by the slow copy on @stream, left
 * running: the buffer as a producer that does not wait pushes it. */
static GstBuffer *
produce (GstBufferPool * pool, const GstVideoInfo * info, gint k, GstCudaStream * stream)
{
  Img *stale = stale_frame (), *frame = clip_frame (k);
  guint8 *d_stale, *d_frame;
  GstBuffer *buf = NULL;
  GstVideoFrame map;
  GcvError err = { GCV_OK, "" };

  fail_unless (gst_buffer_pool_acquire_buffer (pool, &buf, NULL) == GST_FLOW_OK);
  fail_unless (gst_cuda_context_push (context));
  d_stale = device_copy (stale);
  d_frame = device_copy (frame);
  fail_unless (gst_video_frame_map (&map, info, buf, GST_MAP_WRITE | GST_MAP_CUDA));
  fail_unless (gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (buf, 0))) == stream,
      "the pool's memory is not on the producer's stream");
  {
    guint p;
    for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&map); p++) {
      gsize row = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, p) * GST_VIDEO_INFO_COMP_PSTRIDE (info, p);
      fail_unless (gcv_cuda_copy_2d (GST_VIDEO_FRAME_PLANE_DATA (&map, p), GST_VIDEO_FRAME_PLANE_STRIDE (&map,
                  p), d_stale + GST_VIDEO_INFO_PLANE_OFFSET (info, p), GST_VIDEO_INFO_PLANE_STRIDE (info, p),
              row, GST_VIDEO_INFO_COMP_HEIGHT (info, p), gst_cuda_stream_get_handle (stream), &err) == GCV_OK,
          "%s", err.message);
    }
  }
  fail_unless (gcv_cuda_stream_sync (gst_cuda_stream_get_handle (stream), &err) == GCV_OK, "%s", err.message);
  slow_copy_into (&map, d_frame, info, stream);
  gst_video_frame_unmap (&map);
  /* the slow copy's source lives until the end of the test */
  g_ptr_array_add (device_blocks, d_frame);
  gcv_cuda_free (d_stale);
  gst_cuda_context_pop (NULL);
  fail_unless (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (buf, 0), GST_CUDA_MEMORY_TRANSFER_NEED_SYNC),
      "the producer's write map did not mark the memory as pending");
  img_free (stale);
  img_free (frame);
  GST_BUFFER_PTS (buf) = k * GST_SECOND / 30;
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  return buf;
}

/* A GstCudaBufferPool of @info's frames on @stream, active. */
static GstBufferPool *
pool_on_stream (const GstVideoInfo * info, GstCudaStream * stream)
{
  GstBufferPool *pool = gst_cuda_buffer_pool_new (context);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = gst_video_info_to_caps (info);

  gst_caps_set_features_simple (caps, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (info), 0, 0);
  gst_buffer_pool_config_set_cuda_stream (config, stream);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_caps_unref (caps);
  return pool;
}

/* the consumer's pool, answered from a probe on the harness' sink pad */
static GstPadProbeReturn
answer_allocation (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstBufferPool *pool = user_data;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_add_allocation_pool (query, pool, 0, 0, 0);
  return GST_PAD_PROBE_HANDLED;
}

/* cudacanny in a harness, in the test's GstCudaContext, @async_depth
 * frames in flight, input NV12 in CUDA memory, output as @out_caps says,
 * into @downstream_pool when not NULL (the element decides its allocation
 * when the caps arrive) */
static Ctx
canny_ctx (const GstVideoInfo * info, const gchar * out_caps, gint async_depth,
    GstBufferPool * downstream_pool)
{
  GstElement *e = gst_element_factory_make ("cudacanny", NULL);
  GstBus *bus = gst_bus_new ();
  GstContext *gst_context = gst_context_new_cuda_context (context);
  GstCaps *caps = gst_video_info_to_caps (info);
  Ctx ctx;

  fail_unless (e != NULL, "no cudacanny (GST_PLUGIN_PATH?)");
  gst_element_set_bus (e, bus);
  gst_element_set_context (e, gst_context);
  gst_context_unref (gst_context);
  ctx = ctx_adopt ("cudacanny", e, bus);
  g_object_set (e, "async-depth", async_depth, NULL);
  gst_harness_set_sink_caps_str (ctx.h, out_caps);
  if (downstream_pool)
    gst_pad_add_probe (ctx.h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_allocation,
        gst_object_ref (downstream_pool), gst_object_unref);
  gst_caps_set_features_simple (caps, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_harness_set_src_caps (ctx.h, caps);
  return ctx;
}

/* Pushes the frames, then EOS, and compares the outputs (plane 0) with
 * cpucanny's; every output arrives with no work pending. */
static void
push_and_check (Ctx * ctx, GstBuffer ** in, const gchar * what)
{
  gint k;

  for (k = 0; k < N_FRAMES; k++)
    fail_unless_equals_int (gst_harness_push (ctx->h, in[k]), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (ctx->h, gst_event_new_eos ()));
  check_backend (ctx->e, "cudacanny");
  for (k = 0; k < N_FRAMES; k++) {
    GstBuffer *out = gst_harness_pull (ctx->h);
    GstCaps *caps = ctx_out_caps (ctx);
    Img *got, *want = expected_edges (k);
    gchar *msg = g_strdup_printf ("%s, frame %d", what, k);
    GstMemory *mem = gst_buffer_peek_memory (out, 0);

    if (gst_is_cuda_memory (mem))
      fail_if (GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC), "%s: the output came "
          "with the element's work pending", msg);
    got = img_from_buffer (out, caps);
    assert_img_equal (got, want, msg);
    img_free (got);
    img_free (want);
    g_free (msg);
    gst_caps_unref (caps);
    gst_buffer_unref (out);
  }
}

/* a producer on a stream of its own, pushing without waiting */
GST_START_TEST (test_producer_stream)
{
  static const gchar *const outputs[] = { "video/x-raw", "video/x-raw(memory:CUDAMemory)" };
  GstVideoInfo info;
  guint i;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, W, H);
  for (i = 0; i < G_N_ELEMENTS (outputs); i++) {
    GstCudaStream *stream = gst_cuda_stream_new (context);
    GstBufferPool *pool;
    GstBuffer *in[N_FRAMES];
    Ctx ctx;
    gint k;

    fail_unless (stream != NULL);
    pool = pool_on_stream (&info, stream);
    /* frames in flight: the element's own work overlaps too */
    ctx = canny_ctx (&info, outputs[i], 2, NULL);
    for (k = 0; k < N_FRAMES; k++)
      in[k] = produce (pool, &info, k, stream);
    push_and_check (&ctx, in, outputs[i]);
    ctx_free (&ctx);
    free_device_blocks ();
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    gst_cuda_stream_unref (stream);
  }
}

GST_END_TEST;

/* a producer that takes the pool the element proposes, and its stream */
GST_START_TEST (test_proposed_pool)
{
  GstVideoInfo info;
  GstCaps *caps;
  GstQuery *query;
  GstBufferPool *pool = NULL;
  GstStructure *config;
  GstCudaStream *stream;
  GstBuffer *in[N_FRAMES];
  Ctx ctx;
  gint k;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, W, H);
  ctx = canny_ctx (&info, "video/x-raw", 2, NULL);
  caps = gst_video_info_to_caps (&info);
  gst_caps_set_features_simple (caps, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  query = gst_query_new_allocation (caps, TRUE);
  fail_unless (gst_pad_peer_query (ctx.h->srcpad, query), "cudacanny answered no ALLOCATION query");
  fail_unless (gst_query_get_n_allocation_pools (query) > 0);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  fail_unless (pool != NULL && GST_IS_CUDA_BUFFER_POOL (pool), "cudacanny proposed %" GST_PTR_FORMAT
      ", not GStreamer's CUDA pool (whose stream GStreamer's elements take)", pool);
  config = gst_buffer_pool_get_config (pool);
  stream = gst_buffer_pool_config_get_cuda_stream (config);
  fail_unless (stream != NULL, "the proposed pool names no stream");
  gst_structure_free (config);
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  for (k = 0; k < N_FRAMES; k++)
    in[k] = produce (pool, &info, k, stream);
  push_and_check (&ctx, in, "the proposed pool");
  ctx_free (&ctx);
  free_device_blocks ();
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_cuda_stream_unref (stream);
  gst_query_unref (query);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* a consumer whose pool names its stream, reading without waiting */
GST_START_TEST (test_consumer_stream)
{
  GstVideoInfo in_info, out_info;
  GstCudaStream *producer = gst_cuda_stream_new (context), *consumer = gst_cuda_stream_new (context);
  GstBufferPool *in_pool, *out_pool;
  GstCaps *out_caps;
  GstStructure *config;
  guint8 *read[N_FRAMES];
  GcvError err = { GCV_OK, "" };
  Ctx ctx;
  gint k;

  gst_video_info_set_format (&in_info, GST_VIDEO_FORMAT_NV12, W, H);
  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_NV12, W, H);
  in_pool = pool_on_stream (&in_info, producer);
  /* the consumer's pool, naming its stream (not yet active: the element
   * configures it again) */
  out_pool = gst_cuda_buffer_pool_new (context);
  config = gst_buffer_pool_get_config (out_pool);
  out_caps = gst_video_info_to_caps (&out_info);
  gst_caps_set_features_simple (out_caps, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY, NULL));
  gst_buffer_pool_config_set_params (config, out_caps, GST_VIDEO_INFO_SIZE (&out_info), 0, 0);
  gst_caps_unref (out_caps);
  gst_buffer_pool_config_set_cuda_stream (config, consumer);
  fail_unless (gst_buffer_pool_set_config (out_pool, config));
  /* one frame at a time: each output is read before the next is written */
  ctx = canny_ctx (&in_info, "video/x-raw(memory:CUDAMemory),format=NV12", 0, out_pool);

  for (k = 0; k < N_FRAMES; k++) {
    GstBuffer *out;
    GstVideoFrame map;
    void *d = NULL;

    fail_unless_equals_int (gst_harness_push (ctx.h, produce (in_pool, &in_info, k, producer)), GST_FLOW_OK);
    out = gst_harness_pull (ctx.h);
    fail_unless (gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST (gst_buffer_peek_memory (out, 0)))
        == consumer, "frame %d: the output is not from the consumer's pool", k);
    fail_if (GST_MEMORY_FLAG_IS_SET (gst_buffer_peek_memory (out, 0), GST_CUDA_MEMORY_TRANSFER_NEED_SYNC),
        "frame %d: the output came with the element's work pending", k);
    /* read on the buffer's own stream without waiting, as GStreamer's
     * elements do, and give the buffer back at once */
    fail_unless (gst_cuda_context_push (context));
    fail_unless (gcv_cuda_malloc (&d, GST_VIDEO_INFO_SIZE (&out_info), &err) == GCV_OK, "%s", err.message);
    g_ptr_array_add (device_blocks, d);
    read[k] = d;
    fail_unless (gst_video_frame_map (&map, &out_info, out, GST_MAP_READ | GST_MAP_CUDA));
    check_cuda (gcv_test_slow_copy_2d (read[k], GST_VIDEO_INFO_PLANE_STRIDE (&out_info, 0),
            GST_VIDEO_FRAME_PLANE_DATA (&map, 0), GST_VIDEO_FRAME_PLANE_STRIDE (&map, 0), W, H, SPIN_MS,
            gst_cuda_stream_get_handle (consumer)), "the consumer's slow read");
    gst_video_frame_unmap (&map);
    gst_cuda_context_pop (NULL);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_push_event (ctx.h, gst_event_new_eos ()));
  check_backend (ctx.e, "cudacanny");
  fail_unless (gst_cuda_context_push (context));
  fail_unless (gcv_cuda_stream_sync (gst_cuda_stream_get_handle (consumer), &err) == GCV_OK, "%s",
      err.message);
  for (k = 0; k < N_FRAMES; k++) {
    Img *got = img_new (GST_VIDEO_FORMAT_GRAY8, W, H), *want = expected_edges (k);
    gchar *msg = g_strdup_printf ("the consumer's read of frame %d", k);
    fail_unless (gcv_cuda_download_2d (got->data, GST_VIDEO_INFO_PLANE_STRIDE (&got->info, 0), read[k],
            GST_VIDEO_INFO_PLANE_STRIDE (&out_info, 0), W, H, NULL, &err) == GCV_OK
        && gcv_cuda_stream_sync (NULL, &err) == GCV_OK, "%s", err.message);
    assert_img_equal (got, want, msg);
    img_free (got);
    img_free (want);
    g_free (msg);
  }
  gst_cuda_context_pop (NULL);
  ctx_free (&ctx);
  free_device_blocks ();
  gst_buffer_pool_set_active (in_pool, FALSE);
  gst_object_unref (in_pool);
  gst_object_unref (out_pool);
  gst_cuda_stream_unref (producer);
  gst_cuda_stream_unref (consumer);
}

GST_END_TEST;

static Suite *
cuda_streams_suite (void)
{
  Suite *s;
  TCase *tc = element_suite_tcase ("cuda-streams", FALSE, &s);

  tcase_set_timeout (tc, 300);
  tcase_add_test (tc, test_producer_stream);
  tcase_add_test (tc, test_proposed_pool);
  tcase_add_test (tc, test_consumer_stream);
  return s;
}

int
main (int argc, char **argv)
{
  guint major, minor, micro, nano;

  gst_check_init (&argc, &argv);
  gst_version (&major, &minor, &micro, &nano);
  if (minor < 24) {
    /* a build against 1.24's headers does not load with an older core */
    g_print ("SKIP: GStreamer 1.%u has no streams on CUDA memory (1.24 and later)\n", minor);
    return GCV_TEST_SKIP;
  }
  /* exits 77 (or 1 with GST_CUDA_VIDEO_REQUIRE_GPU set) without a GPU */
  gcv_test_gpu_policy ();
  if (!gst_cuda_load_library () || (context = gst_cuda_context_new (0)) == NULL) {
    g_printerr ("FAIL: a GPU was found but GStreamer's CUDA library could not open a context on it\n");
    return 1;
  }
  device_blocks = g_ptr_array_new_with_free_func (gcv_cuda_free);
  return gst_check_run_suite (cuda_streams_suite (), "cuda-streams", __FILE__);
}

#else /* no gstreamer-cuda-1.0 of 1.24 or later */

int
main (int argc, char **argv)
{
#if GCV_TEST_GST_CUDA
  g_print ("SKIP: built against GStreamer %d.%d's CUDA library, whose memories have no streams "
      "(1.24 and later)\n", GST_VERSION_MAJOR, GST_VERSION_MINOR);
  return GCV_TEST_SKIP;
#else
  /* like elements-cuda-memory: a skip, a failure with the GPU required */
  gst_check_init (&argc, &argv);
  if (require_gpu ()) {
    g_printerr ("FAIL: GST_CUDA_VIDEO_REQUIRE_GPU=1 but the plugin was built without "
        "gstreamer-cuda-1.0\n");
    return 1;
  }
  g_print ("SKIP: built without gstreamer-cuda-1.0 (no CUDA memory)\n");
  return GCV_TEST_SKIP;
#endif
}

#endif
