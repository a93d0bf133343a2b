/* gst-cuda-video: what the benchmark programs share (see gcv-bench.h).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* sched_getcpu */
#endif
#include "gcv-bench.h"

#include <glib/gstdio.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <unistd.h>

#if GCVB_CUDA
#include "bench-canny.h"        /* gcvb_cuda_mem_bandwidth (bench_cuda_mem.cu) */
#endif

#ifndef GCVB_DATA_DIR
#define GCVB_DATA_DIR "tests/data"
#endif
#ifndef GCVB_SCRIPTS_DIR
#define GCVB_SCRIPTS_DIR "scripts"
#endif
#ifndef GCVB_PLUGIN_FILE
#define GCVB_PLUGIN_FILE ""
#endif

static const char *photo_names[GCVB_N_PHOTOS] = { "camera.png", "chelsea.png", "coffee.png", "astronaut.png" };

int gcvb_n_failures;

/* ------------------------------------------------------------------------ */
/* options */

gboolean
gcvb_init (int *argc, char ***argv, const char *summary, const GOptionEntry * entries,
    GcvbOptions * opt, const GcvbOptions * quick)
{
  GcvbOptions dflt = *opt;
  GOptionContext *octx;
  GError *error = NULL;

  octx = g_option_context_new (summary);
  g_option_context_add_main_entries (octx, entries, NULL);
  g_option_context_add_group (octx, gst_init_get_option_group ());
  if (!g_option_context_parse (octx, argc, argv, &error)) {
    g_printerr ("%s\n", error->message);
    g_error_free (error);
    g_option_context_free (octx);
    return FALSE;
  }
  g_option_context_free (octx);
  gst_init (argc, argv);

  if (opt->quick) {
    /* keep what was given explicitly (anything not the default) */
    gint *o[] = { &opt->frames, &opt->warmup, &opt->cpu_frames, &opt->runs, &opt->cpu_runs, &opt->variants };
    const gint d[] = { dflt.frames, dflt.warmup, dflt.cpu_frames, dflt.runs, dflt.cpu_runs, dflt.variants };
    const gint q[] = { quick->frames, quick->warmup, quick->cpu_frames, quick->runs, quick->cpu_runs,
      quick->variants
    };
    for (guint i = 0; i < G_N_ELEMENTS (o); i++)
      if (*o[i] == d[i])
        *o[i] = q[i];
  }
  if (opt->frames < 1 || opt->warmup < 0 || opt->cpu_frames < 0 || opt->runs < 1 || opt->cpu_runs < 0 ||
      opt->queue < 1) {
    g_printerr ("error: --frames, --runs and --queue must be >= 1, --warmup and others >= 0\n");
    return FALSE;
  }
  if (opt->variants < 4 || opt->variants > 64) {
    g_printerr ("error: --variants must be 4 .. 64\n");
    return FALSE;
  }
  return TRUE;
}

gboolean
gcvb_skipped (const GcvbOptions * opt, const char *part)
{
  gboolean found = FALSE;
  gchar **v;

  if (opt->skip == NULL)
    return FALSE;
  v = g_strsplit (opt->skip, ",", -1);
  for (int i = 0; v[i] != NULL; i++)
    if (g_ascii_strcasecmp (g_strstrip (v[i]), part) == 0)
      found = TRUE;
  g_strfreev (v);
  return found;
}

GPtrArray *
gcvb_split_list (const char *text, const char *fallback)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  gchar **v = g_strsplit (text ? text : fallback, ",", -1);

  for (int i = 0; v[i] != NULL; i++) {
    g_strstrip (v[i]);
    if (v[i][0] != '\0')
      g_ptr_array_add (a, g_strdup (v[i]));
  }
  g_strfreev (v);
  return a;
}

gboolean
gcvb_parse_dims (const char *t, int *w, int *h)
{
  char tail;

  if (strcmp (t, "qcif") == 0)
    *w = 176, *h = 144;
  else if (strcmp (t, "720p") == 0)
    *w = 1280, *h = 720;
  else if (strcmp (t, "1080p") == 0)
    *w = 1920, *h = 1080;
  else if (strcmp (t, "4k") == 0 || strcmp (t, "2160p") == 0 || strcmp (t, "uhd") == 0)
    *w = 3840, *h = 2160;
  else if (sscanf (t, "%dx%d%c", w, h, &tail) != 2)
    return FALSE;
  return *w >= 1 && *h >= 1 && *w <= 16384 && *h <= 16384;
}

gboolean
gcvb_parse_index (const char *text, gconstpointer table, gsize stride, guint n, gpointer out)
{
  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (text, *(const char *const *) ((const guint8 *) table + i * stride)) == 0) {
      *(int *) out = (int) i;
      return TRUE;
    }
  return FALSE;
}

gboolean
gcvb_parse_list (const char *text, const char *fallback, GcvbParseItem parse, GArray * dst,
    const char *what, const char *hint)
{
  GPtrArray *list = gcvb_split_list (text, fallback);
  gpointer item = g_malloc0 (g_array_get_element_size (dst));
  gboolean ok = TRUE;

  for (guint i = 0; i < list->len && ok; i++) {
    const char *t = g_ptr_array_index (list, i);
    if (parse (t, item))
      g_array_append_vals (dst, item, 1);
    else {
      g_printerr ("error: %s '%s'%s%s\n", what, t, hint ? " " : "", hint ? hint : "");
      ok = FALSE;
    }
  }
  g_free (item);
  g_ptr_array_unref (list);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* statistics */

double
gcvb_now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

double
gcvb_median (double *v, int n)
{
  qsort (v, n, sizeof (double), cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double
gcvb_mean (const double *v, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s / n;
}

gint64
gcvb_rss_kib (void)
{
  FILE *f = fopen ("/proc/self/statm", "r");
  unsigned long size = 0, resident = 0;
  long page = sysconf (_SC_PAGESIZE);
  int n;

  if (f == NULL)
    return -1;
  n = fscanf (f, "%lu %lu", &size, &resident);
  fclose (f);
  if (n != 2 || page <= 0)
    return -1;
  return (gint64) resident * (page / 1024);
}

/* ------------------------------------------------------------------------ */
/* host and GPU */

typedef struct {
  const guint8 *src;
  guint8 *dst;
  size_t bytes;
} CopySlice;

static gpointer
copy_slice (gpointer data)
{
  CopySlice *c = data;

  memcpy (c->dst, c->src, c->bytes);
  return NULL;
}

double
gcvb_host_memcpy_gbps (size_t bytes, int threads, int runs)
{
  guint8 *src = g_malloc (bytes), *dst = g_malloc (bytes);
  CopySlice *slices = g_new (CopySlice, threads);
  GThread **th = g_new (GThread *, threads);
  double *t = g_new (double, runs), gbps;

  memset (src, 0x5a, bytes);
  memset (dst, 0xa5, bytes);    /* pages faulted in before timing */
  for (int k = 0; k < threads; k++) {
    size_t a = bytes * k / threads, b = bytes * (k + 1) / threads;
    slices[k].src = src + a;
    slices[k].dst = dst + a;
    slices[k].bytes = b - a;
  }
  for (int i = -1; i < runs; i++) {
    double t0 = gcvb_now_ms ();
    for (int k = 1; k < threads; k++)
      th[k] = g_thread_new ("memcpy", copy_slice, &slices[k]);
    copy_slice (&slices[0]);
    for (int k = 1; k < threads; k++)
      g_thread_join (th[k]);
    if (i >= 0)
      t[i] = gcvb_now_ms () - t0;
  }
  gbps = bytes / (gcvb_median (t, runs) * 1e-3) / 1e9;
  g_free (t);
  g_free (th);
  g_free (slices);
  g_free (src);
  g_free (dst);
  return gbps;
}

/* An integer from a one-line file of sysfs, -1 when unreadable (the GPU's
 * NUMA node: only in builds with CUDA). */
static G_GNUC_UNUSED int
sysfs_int (const char *path)
{
  gchar *text = NULL;
  int v = -1;

  if (g_file_get_contents (path, &text, NULL, NULL))
    v = atoi (text);
  g_free (text);
  return v;
}

/* The NUMA node of CPU `cpu` (the nodeN link in its sysfs directory), -1. */
static int
cpu_node (int cpu)
{
  gchar *dir = g_strdup_printf ("/sys/devices/system/cpu/cpu%d", cpu);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;
  int node = -1;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_prefix (name, "node") && g_ascii_isdigit (name[4]))
      node = atoi (name + 4);
  if (d != NULL)
    g_dir_close (d);
  g_free (dir);
  return node;
}

void
gcvb_describe_numa (int device, char *buf, size_t len)
{
  int nodes = 0, cpu = sched_getcpu (), gpu_node = -1;
  char bus[64] = "";
  gchar *path;

  while ((path = g_strdup_printf ("/sys/devices/system/node/node%d", nodes)) != NULL
      && g_file_test (path, G_FILE_TEST_IS_DIR)) {
    g_free (path);
    nodes++;
  }
  g_free (path);
#if GCVB_CUDA
  if (gcvb_cuda_pci_bus_id (device, bus, sizeof (bus)) == 0) {
    gchar *lower = g_ascii_strdown (bus, -1);
    path = g_strdup_printf ("/sys/bus/pci/devices/%s/numa_node", lower);
    gpu_node = sysfs_int (path);
    g_free (path);
    g_free (lower);
  }
#endif
  g_snprintf (buf, len, "%ld CPUs online, %d NUMA node%s; GPU %d %s%s%s, node %d; this thread on CPU %d, node %d",
      sysconf (_SC_NPROCESSORS_ONLN), nodes, nodes == 1 ? "" : "s", device, bus[0] ? "at " : "", bus[0] ? bus : "",
      bus[0] ? "" : "(bus unknown)", gpu_node, cpu, cpu >= 0 ? cpu_node (cpu) : -1);
}

static char *
cpu_model (void)
{
  gchar *text = NULL, *model = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL)) {
    gchar **lines = g_strsplit (text, "\n", -1);
    for (int i = 0; lines[i] != NULL && model == NULL; i++) {
      if (g_str_has_prefix (lines[i], "model name")) {
        const char *colon = strchr (lines[i], ':');
        if (colon != NULL)
          model = g_strstrip (g_strdup (colon + 1));
      }
    }
    g_strfreev (lines);
    g_free (text);
  }
  return model ? model : g_strdup ("unknown");
}

/* Loads the plugin file.  Returns the file `factory` comes from. */
static gchar *
load_plugin (const GcvbOptions * opt, const char *factory)
{
  const char *file = opt->plugin ? opt->plugin : GCVB_PLUGIN_FILE;
  GstElementFactory *f;
  gchar *used = NULL;

  if (file[0] != '\0') {
    if (!g_file_test (file, G_FILE_TEST_EXISTS)) {
      if (opt->plugin != NULL) {
        g_printerr ("error: plugin %s does not exist\n", file);
        exit (1);
      }
      g_printerr ("note: %s not built; looking for the elements in the registry\n", file);
    } else {
      GError *error = NULL;
      GstPlugin *p = gst_plugin_load_file (file, &error);
      if (p == NULL) {
        g_printerr ("error: cannot load %s: %s\n", file, error ? error->message : "?");
        exit (1);
      }
      gst_object_unref (p);
    }
  }
  f = gst_element_factory_find (factory);
  if (f != NULL) {
    GstPlugin *p = gst_plugin_feature_get_plugin (GST_PLUGIN_FEATURE (f));
    if (p != NULL) {
      used = g_strdup (gst_plugin_get_filename (p));
      gst_object_unref (p);
    }
    gst_object_unref (f);
  }
  return used;
}

#if GCVB_CUDA

static void
cuda_probe (GcvbCuda * c, int device)
{
  GcvError err = { 0 };
  int n = gcv_cuda_device_count (&err);
  char msg[512];

  if (n <= 0) {
    g_snprintf (c->why, sizeof (c->why), "no CUDA device");
    g_snprintf (c->detail, sizeof (c->detail), "%s", err.message[0] ? err.message : "none found");
    return;
  }
  if (device < 0 || device >= n) {
    g_snprintf (c->why, sizeof (c->why), "device %d does not exist (%d found)", device, n);
    return;
  }
  if (gcv_cuda_set_device (device, &err) != GCV_OK ||
      gcv_cuda_device_describe (device, c->name, sizeof (c->name), &err) != GCV_OK) {
    g_snprintf (c->why, sizeof (c->why), "device %d unusable: %s", device, err.message);
    return;
  }
  c->available = TRUE;
  if (gcvb_cuda_mem_bandwidth (device, (size_t) 256 << 20, 20, &c->peak_gbps, &c->copy_gbps,
          msg, sizeof (msg)) != 0) {
    g_printerr ("warning: device bandwidth: %s\n", msg);
    c->peak_gbps = c->copy_gbps = 0;
  }
}

#else /* !GCVB_CUDA */

static void
cuda_probe (GcvbCuda * c, int device)
{
  g_snprintf (c->why, sizeof (c->why), "built without CUDA");
}

#endif

/* Where the peak bandwidth comes from; with nominal, a datasheet figure
 * when the device reports none. */
static void
cuda_peak_source (GcvbCuda * c, gboolean nominal)
{
  if (c->peak_gbps > 0) {
    g_strlcpy (c->peak_source, "queried: 2 x cudaDevAttrMemoryClockRate x "
        "cudaDevAttrGlobalMemoryBusWidth", sizeof (c->peak_source));
  } else if (!nominal) {
    g_strlcpy (c->peak_source, "unknown", sizeof (c->peak_source));
  } else if (strstr (c->name, "H100") != NULL && strstr (c->name, "PCIe") == NULL) {
    c->peak_gbps = 3350;
    g_strlcpy (c->peak_source, "nominal 3350 GB/s (H100 SXM datasheet): the memory clock / "
        "bus width query returned nothing", sizeof (c->peak_source));
  } else if (strstr (c->name, "H200") != NULL) {
    c->peak_gbps = 4800;
    g_strlcpy (c->peak_source, "nominal 4800 GB/s (H200 datasheet): the memory clock / "
        "bus width query returned nothing", sizeof (c->peak_source));
  } else if (c->copy_gbps > 0) {
    c->peak_gbps = c->copy_gbps;
    g_strlcpy (c->peak_source, "measured device-to-device copy (no peak reported)",
        sizeof (c->peak_source));
  } else {
    g_strlcpy (c->peak_source, "unknown", sizeof (c->peak_source));
  }
}

void
gcvb_host_init (GcvbHost * h, const char *program, const GcvbOptions * opt, gboolean load,
    const char *factory, gboolean nominal_peak)
{
  GDateTime *now = g_date_time_new_now_local ();

  memset (h, 0, sizeof (*h));
  h->program = program;
  h->date = g_date_time_format (now, "%Y-%m-%d %H:%M:%S %z");
  g_date_time_unref (now);
  h->cpu = cpu_model ();
  h->plugin_file = load ? load_plugin (opt, factory) : NULL;
  cuda_probe (&h->cuda, opt->device);
  if (h->cuda.available)
    cuda_peak_source (&h->cuda, nominal_peak);
}

void
gcvb_host_clear (GcvbHost * h)
{
  g_free (h->date);
  g_free (h->cpu);
  g_free (h->plugin_file);
  memset (h, 0, sizeof (*h));
}

void
gcvb_print_host (const GcvbHost * h, int device, const char *skipped_rows)
{
  const GcvbCuda *c = &h->cuda;

  g_print ("%s  %s\n", h->program, h->date);
  g_print ("CPU:        %s, %u threads\n", h->cpu, g_get_num_processors ());
  if (c->available)
    g_print ("GPU:        %s (device %d)\n", c->name, device);
  else
    g_print ("GPU:        none -- %s SKIPPED: %s%s%s%s\n", skipped_rows, c->why, c->detail[0] ? " (" : "",
        c->detail, c->detail[0] ? ")" : "");
}

void
gcvb_print_host_footer (const GcvbHost * h, gboolean peak_source)
{
  const GcvbCuda *c = &h->cuda;

  if (c->available && peak_source)
    g_print ("GPU %s: memory %.0f GB/s peak (%s), %.0f GB/s measured D2D copy\n", c->name, c->peak_gbps,
        c->peak_source, c->copy_gbps);
  else if (c->available)
    g_print ("GPU %s: memory %.0f GB/s peak, %.0f GB/s measured D2D copy\n", c->name, c->peak_gbps,
        c->copy_gbps);
  else
    g_print ("GPU parts skipped: %s\n", c->why);
  g_print ("CPU %s, %u threads; %s\n", h->cpu, g_get_num_processors (), h->date);
}

gboolean
gcvb_gpu_enabled (const GcvbOptions * opt)
{
  return !gcvb_skipped (opt, "gpu") && !gcvb_skipped (opt, "cuda");
}

int
gcvb_cpu_threads (int requested)
{
  return requested > 0 ? requested : (int) g_get_num_processors ();
}

double
gcvb_cpu_budget_s (const GcvbOptions * opt, double requested, double quick_s, double full_s)
{
  return requested >= 0 ? requested : opt->quick ? quick_s : full_s;
}

gboolean
gcvb_device_clock (const GcvbHost * h, int *sms, double *ghz)
{
  const char *name = h->cuda.name, *s;

  *sms = 0;
  *ghz = 0;
  if (!h->cuda.available)
    return FALSE;
  s = strstr (name, " SMs");
  if (s != NULL) {
    const char *b = s;
    while (b > name && g_ascii_isdigit (b[-1]))
      b--;
    *sms = atoi (b);
  }
  if (strstr (name, "H100") != NULL)
    *ghz = strstr (name, "PCIe") != NULL ? 1.755 : 1.98;
  else if (strstr (name, "H200") != NULL)
    *ghz = 1.98;
  if (*sms <= 0 || *ghz <= 0 || strstr (name, "sm_90") == NULL) {
    *sms = 0;
    *ghz = 0;
    return FALSE;
  }
  return TRUE;
}

gboolean
gcvb_have_factory (const char *name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f == NULL)
    return FALSE;
  gst_object_unref (f);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* input frames */

/* Decodes a PNG with GStreamer itself and converts it to `format`. */
static gboolean
load_photo (const char *path, const char *format, int channels, GcvbPhoto * photo, GError ** error)
{
  GstElement *pipe, *src, *sink;
  GstSample *sample = NULL;
  gboolean ok = FALSE;
  gchar *desc = g_strdup_printf ("filesrc name=src ! pngdec ! videoconvert ! "
      "video/x-raw,format=%s ! appsink name=sink sync=false", format);

  pipe = gst_parse_launch (desc, error);
  g_free (desc);
  if (pipe == NULL)
    return FALSE;
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_object_set (src, "location", path, NULL);

  if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE, "%s: cannot start decoder", path);
    goto done;
  }
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
  if (sample == NULL) {
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg != NULL) {
      GError *e = NULL;
      gst_message_parse_error (msg, &e, NULL);
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: %s", path, e->message);
      g_error_free (e);
      gst_message_unref (msg);
    } else {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: no frame decoded", path);
    }
    gst_object_unref (bus);
    goto done;
  } else {
    GstVideoInfo info;
    GstVideoFrame frame;
    size_t row;
    if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
        !gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample), GST_MAP_READ)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: cannot map frame", path);
      goto done;
    }
    photo->name = g_path_get_basename (path);
    photo->width = GST_VIDEO_INFO_WIDTH (&info);
    photo->height = GST_VIDEO_INFO_HEIGHT (&info);
    photo->channels = channels;
    row = (size_t) photo->width * photo->channels;
    photo->pixels = g_malloc (row * photo->height);
    for (int y = 0; y < photo->height; y++)
      memcpy (photo->pixels + (size_t) y * row,
          (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) + (size_t) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0),
          row);
    gst_video_frame_unmap (&frame);
    ok = TRUE;
  }
done:
  if (sample)
    gst_sample_unref (sample);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return ok;
}

int
gcvb_load_photos (const GcvbOptions * opt, const char *format, int channels, GcvbPhoto photos[GCVB_N_PHOTOS])
{
  const char *data_dir = opt->data_dir ? opt->data_dir : GCVB_DATA_DIR;
  GError *error = NULL;
  int n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (photo_names); i++) {
    gchar *path = g_build_filename (data_dir, photo_names[i], NULL);
    if (load_photo (path, format, channels, &photos[n], &error))
      n++;
    else {
      g_printerr ("warning: %s\n", error->message);
      g_clear_error (&error);
    }
    g_free (path);
  }
  if (n == 0)
    g_printerr ("error: no test photo could be loaded from %s (use --data-dir)\n", data_dir);
  return n;
}

void
gcvb_photos_clear (GcvbPhoto * photos, int n)
{
  for (int i = 0; i < n; i++) {
    g_free (photos[i].name);
    g_free (photos[i].pixels);
  }
}

void
gcvb_print_frames (int variants, const char *per, const GcvbPhoto * photos, int n, const char *how)
{
  g_print ("Frames:     %d variants per %s from", variants, per);
  for (int i = 0; i < n; i++)
    g_print (" %s (%dx%d)", photos[i].name, photos[i].width, photos[i].height);
  g_print (", %s\n", how);
}

/* Mirror a (possibly negative or large) coordinate into [0, n - 1]
 * without repeating the edge sample (period 2 (n - 1)). */
static double
reflect (double u, int n)
{
  double period = 2.0 * (n - 1);
  double r;

  if (n < 2)
    return 0;
  r = fmod (u, period);
  if (r < 0)
    r += period;
  return r > n - 1 ? period - r : r;
}

/* Variant k of a frame of w x h: photo p scaled by mult[k] * sqrt (h / 720)
 * (bilinear; with area_average, averaged over ss x ss sub-samples when that
 * shrinks, so small frames look like downscaled video rather than aliased
 * noise), mirror-tiled to fill the frame, shifted by an offset that depends
 * on k, and flipped left-right for odd k.  The sqrt keeps the edge density
 * from falling as fast as plain upscaling would (4K content has more detail
 * than a 7x enlarged 512x512 photo), without tiling the photo at its native
 * size. */
static void
make_variant (const GcvbPhoto * p, int w, int h, size_t stride, int k, gboolean area_average, guint8 * dst)
{
  static const double mult[] = { 1.5, 1.0, 2.2, 1.25, 1.8, 1.1, 2.6, 1.4 };
  const int C = p->channels;
  double s = sqrt (h / 720.0) * mult[k % G_N_ELEMENTS (mult)];
  int ss = area_average && s < 1.0 ? (int) ceil (1.0 / s) : 1;
  double ox = fmod (k * 0.37, 1.0) * p->width * s, oy = fmod (k * 0.23, 1.0) * p->height * s;
  int n_x = w * ss;
  int *x0 = g_new (int, n_x), *x1 = g_new (int, n_x);
  float *fx = g_new (float, n_x), *acc = g_new (float, (size_t) w * C);
  float norm = 1.0f / (ss * ss);

  for (int x = 0; x < w; x++) {
    int xx = (k & 1) ? w - 1 - x : x;
    for (int sx = 0; sx < ss; sx++) {
      double u = reflect ((xx + (sx + 0.5) / ss + ox) / s - 0.5, p->width);
      int i = x * ss + sx;
      x0[i] = (int) u;
      x1[i] = MIN (x0[i] + 1, p->width - 1);
      fx[i] = (float) (u - x0[i]);
    }
  }
  for (int y = 0; y < h; y++) {
    guint8 *d = dst + (size_t) y * stride;
    memset (acc, 0, sizeof (float) * w * C);
    for (int sy = 0; sy < ss; sy++) {
      double v = reflect ((y + (sy + 0.5) / ss + oy) / s - 0.5, p->height);
      int y0 = (int) v, y1 = MIN (y0 + 1, p->height - 1);
      float fy = (float) (v - y0);
      const guint8 *r0 = p->pixels + (size_t) y0 * p->width * C;
      const guint8 *r1 = p->pixels + (size_t) y1 * p->width * C;
      for (int x = 0; x < w; x++)
        for (int sx = 0; sx < ss; sx++) {
          int i = x * ss + sx;
          const guint8 *a0 = r0 + (size_t) x0[i] * C, *a1 = r0 + (size_t) x1[i] * C;
          const guint8 *b0 = r1 + (size_t) x0[i] * C, *b1 = r1 + (size_t) x1[i] * C;
          for (int c = 0; c < C; c++) {
            float top = a0[c] + fx[i] * (a1[c] - a0[c]);
            float bot = b0[c] + fx[i] * (b1[c] - b0[c]);
            acc[x * C + c] += top + fy * (bot - top);
          }
        }
    }
    for (int e = 0; e < w * C; e++)
      d[e] = (guint8) MIN (acc[e] * norm + 0.5f, 255.0f);
  }
  g_free (x0);
  g_free (x1);
  g_free (fx);
  g_free (acc);
}

void
gcvb_frameset_init (GcvbFrameSet * fs, const char *name, int w, int h, size_t stride,
    gboolean area_average, const GcvbPhoto * photos, int n_photos, int n)
{
  memset (fs, 0, sizeof (*fs));
  g_strlcpy (fs->name, name, sizeof (fs->name));
  fs->width = w;
  fs->height = h;
  fs->channels = photos[0].channels;
  fs->stride = stride ? stride : (size_t) w * fs->channels;
  fs->size = fs->stride * h;
  fs->n = n;
  fs->frames = g_new0 (guint8 *, n);
  for (int k = 0; k < n; k++) {
    fs->frames[k] = g_malloc0 (fs->size);
    make_variant (&photos[k % n_photos], w, h, fs->stride, k, area_average, fs->frames[k]);
  }
}

void
gcvb_frameset_alloc (GcvbFrameSet * fs, const char *name, const GstVideoInfo * info, int n)
{
  memset (fs, 0, sizeof (*fs));
  g_strlcpy (fs->name, name, sizeof (fs->name));
  fs->width = GST_VIDEO_INFO_WIDTH (info);
  fs->height = GST_VIDEO_INFO_HEIGHT (info);
  fs->channels = GST_VIDEO_INFO_COMP_PSTRIDE (info, 0);
  fs->stride = GST_VIDEO_INFO_PLANE_STRIDE (info, 0);
  fs->size = GST_VIDEO_INFO_SIZE (info);
  fs->n = n;
  fs->frames = g_new0 (guint8 *, n);
  for (int k = 0; k < n; k++)
    fs->frames[k] = g_malloc0 (fs->size);
}

GstBuffer *
gcvb_frame_buffer (const GcvbFrameSet * fs, int k, gint64 i)
{
  GstBuffer *b = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, fs->frames[k], fs->size, 0, fs->size,
      NULL, NULL);

  GST_BUFFER_PTS (b) = gst_util_uint64_scale (i, GST_SECOND, 30);
  GST_BUFFER_DURATION (b) = gst_util_uint64_scale (1, GST_SECOND, 30);
  return b;
}

void
gcvb_frameset_clear (GcvbFrameSet * fs)
{
  for (int k = 0; k < fs->n; k++)
    g_free (fs->frames[k]);
  g_free (fs->frames);
  memset (fs, 0, sizeof (*fs));
}

/* ------------------------------------------------------------------------ */
/* results */

void
gcvb_result_init (GcvbResult * r, const char *impl, const char *label_fmt, ...)
{
  va_list ap;

  memset (r, 0, sizeof (*r));
  g_strlcpy (r->impl, impl, sizeof (r->impl));
  va_start (ap, label_fmt);
  g_vsnprintf (r->label, sizeof (r->label), label_fmt, ap);
  va_end (ap);
  r->ms = r->mean_ms = r->fps = NAN;
  r->upload_ms = r->compute_ms = r->download_ms = r->total_ms = NAN;
  r->gbps = r->peak_frac = NAN;
  r->mismatch = -1;
}

void
gcvb_result_skip (GcvbResult * r, const char *fmt, ...)
{
  va_list ap;

  r->skipped = TRUE;
  va_start (ap, fmt);
  g_vsnprintf (r->note, sizeof (r->note), fmt, ap);
  va_end (ap);
  g_printerr ("  %s SKIPPED: %s\n", r->label, r->note);
}

void
gcvb_result_fail (GcvbResult * r, const char *fmt, ...)
{
  va_list ap;

  r->skipped = TRUE;
  r->failed = TRUE;
  gcvb_n_failures++;
  g_strlcpy (r->note, "FAILED: ", sizeof (r->note));
  va_start (ap, fmt);
  g_vsnprintf (r->note + 8, sizeof (r->note) - 8, fmt, ap);
  va_end (ap);
  g_printerr ("  %s %s\n", r->label, r->note);
}

void
gcvb_result_note (GcvbResult * r, const char *fmt, ...)
{
  va_list ap;
  size_t len = strlen (r->note);

  if (len > 0 && len + 2 < sizeof (r->note)) {
    g_strlcat (r->note, "; ", sizeof (r->note));
    len += 2;
  }
  va_start (ap, fmt);
  g_vsnprintf (r->note + len, sizeof (r->note) - len, fmt, ap);
  va_end (ap);
}

void
gcvb_fmt_num (char *buf, size_t len, double v, const char *fmt)
{
  if (isnan (v))
    g_strlcpy (buf, "-", len);
  else
    g_snprintf (buf, len, fmt, v);
}

void
gcvb_format_cells (const GcvbResult * r, const char *ms_fmt, GcvbCells * c)
{
  gcvb_fmt_num (c->ms, sizeof (c->ms), r->ms, ms_fmt);
  gcvb_fmt_num (c->fps, sizeof (c->fps), r->fps, "%.1f");
  gcvb_fmt_num (c->up, sizeof (c->up), r->upload_ms, "%.4f");
  gcvb_fmt_num (c->comp, sizeof (c->comp), r->compute_ms, "%.4f");
  gcvb_fmt_num (c->down, sizeof (c->down), r->download_ms, "%.4f");
  gcvb_fmt_num (c->tot, sizeof (c->tot), r->total_ms, "%.4f");
}

/* ------------------------------------------------------------------------ */
/* element pipelines */

struct _GcvbPipeline {
  char factory[64];
  GstElement *pipe, *src, *elem, *sink;
  GstBus *bus;
  gboolean started;             /* playing (else only freed) */
  gboolean broken;              /* a run failed: no EOS at the end */
  int latency;                  /* frames the element holds back until EOS */
  /* what reached the sink */
  GMutex lock;
  GCond cond;
  guint64 arrived;
  gint64 first_us, last_us;     /* monotonic times of the first and the latest */
  int out_w, out_h;             /* of the first sample's caps, 0 unknown */
  gchar *out_format;
  /* gcvb_pipeline_new_chain */
  GstElement **stages;
  int n_stages;
  gboolean finished;            /* EOS sent and seen (gcvb_pipeline_finish) */
  gboolean quiet;               /* bus warnings counted, not printed */
  int n_warnings;
  gchar *first_warning;
};

static void
arrived_one (GcvbPipeline * p, GstSample * first)
{
  gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&p->lock);
  if (p->arrived == 0)
    p->first_us = now;
  p->last_us = now;
  if (p->arrived == 0 && first != NULL) {
    GstCaps *caps = gst_sample_get_caps (first);
    GstStructure *s = caps ? gst_caps_get_structure (caps, 0) : NULL;
    if (s != NULL) {
      gst_structure_get_int (s, "width", &p->out_w);
      gst_structure_get_int (s, "height", &p->out_h);
      p->out_format = g_strdup (gst_structure_get_string (s, "format"));
    }
  }
  p->arrived++;
  g_cond_signal (&p->cond);
  g_mutex_unlock (&p->lock);
}

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer user_data)
{
  arrived_one (user_data, NULL);
}

static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user_data)
{
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (sample == NULL)
    return GST_FLOW_EOS;
  arrived_one (user_data, sample);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* An error or warning message (taken): printed (a warning of a quiet
 * pipeline is counted instead, the first kept); an error's text into
 * *message unless set.  TRUE for an error. */
static gboolean
bus_message (GcvbPipeline * p, GstMessage * msg, gchar ** message)
{
  GError *e = NULL;
  gchar *dbg = NULL;
  gboolean is_error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

  if (is_error)
    gst_message_parse_error (msg, &e, &dbg);
  else
    gst_message_parse_warning (msg, &e, &dbg);
  if (!is_error && p->quiet) {
    if (p->n_warnings++ == 0)
      p->first_warning = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message);
  } else {
    g_printerr ("    %s from %s: %s\n      %s\n", is_error ? "ERROR" : "warning",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message, dbg ? dbg : "");
  }
  if (is_error && *message == NULL)
    *message = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message);
  g_error_free (e);
  g_free (dbg);
  gst_message_unref (msg);
  return is_error;
}

/* First error on the bus (warnings are printed and skipped). */
static gboolean
bus_failed (GcvbPipeline * p, gchar ** message)
{
  GstMessage *msg;

  while ((msg = gst_bus_pop_filtered (p->bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING)) != NULL)
    if (bus_message (p, msg, message))
      return TRUE;
  return FALSE;
}

/* Waits until `target` frames reached the sink; FALSE on a bus error or
 * when nothing arrived for timeout_s seconds. */
static gboolean
wait_arrived (GcvbPipeline * p, gint64 target, double timeout_s, gchar ** message)
{
  guint64 last;
  gint64 deadline;

  if (target <= 0)
    return TRUE;
  g_mutex_lock (&p->lock);
  last = p->arrived;
  deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  while (p->arrived < (guint64) target) {
    gboolean signalled = g_cond_wait_until (&p->cond, &p->lock, g_get_monotonic_time () + 50000);
    if (p->arrived >= (guint64) target)
      break;
    if (p->arrived != last) {
      last = p->arrived;
      deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
    }
    if (!signalled) {
      g_mutex_unlock (&p->lock);
      if (bus_failed (p, message))
        return FALSE;
      if (g_get_monotonic_time () > deadline) {
        *message = g_strdup_printf ("no frame reached the sink for %.0f s", timeout_s);
        return FALSE;
      }
      g_mutex_lock (&p->lock);
    }
  }
  g_mutex_unlock (&p->lock);
  return TRUE;
}

typedef struct {
  gboolean ok;
  guint64 frames;
  double upload, compute, download, total;      /* means per frame */
  char backend[16];
} Stats;

static gboolean
structure_get_double_any (const GstStructure * s, const char *field, double *out)
{
  const GValue *v = gst_structure_get_value (s, field);
  GValue d = G_VALUE_INIT;

  if (v == NULL)
    return FALSE;
  g_value_init (&d, G_TYPE_DOUBLE);
  if (!g_value_transform (v, &d)) {
    g_value_unset (&d);
    return FALSE;
  }
  *out = g_value_get_double (&d);
  g_value_unset (&d);
  return TRUE;
}

gchar *
gcvb_prop_string (GstElement * e, const char *name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e), name);
  GValue v = G_VALUE_INIT;
  gchar *s;

  if (ps == NULL)
    return NULL;
  g_value_init (&v, ps->value_type);
  g_object_get_property (G_OBJECT (e), name, &v);
  if (G_VALUE_HOLDS_STRING (&v))
    s = g_value_dup_string (&v);
  else if (G_VALUE_HOLDS_ENUM (&v)) {
    GEnumValue *ev = g_enum_get_value (G_ENUM_CLASS (g_type_class_peek (ps->value_type)),
        g_value_get_enum (&v));
    s = g_strdup (ev ? ev->value_nick : "?");
  } else
    s = gst_value_serialize (&v);
  g_value_unset (&v);
  return s;
}

static void
read_stats (GstElement * e, Stats * st)
{
  GstStructure *s = NULL;
  double frames = 0;
  const gchar *backend;

  memset (st, 0, sizeof (*st));
  st->upload = st->compute = st->download = st->total = NAN;
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), "stats") == NULL)
    return;
  g_object_get (e, "stats", &s, NULL);
  if (s == NULL)
    return;
  if (structure_get_double_any (s, "frames", &frames)) {
    st->ok = TRUE;
    st->frames = (guint64) frames;
  }
  structure_get_double_any (s, "upload-ms", &st->upload);
  structure_get_double_any (s, "compute-ms", &st->compute);
  structure_get_double_any (s, "download-ms", &st->download);
  structure_get_double_any (s, "total-ms", &st->total);
  backend = gst_structure_get_string (s, "backend");
  g_strlcpy (st->backend, backend ? backend : "", sizeof (st->backend));
  gst_structure_free (s);
}

/* Mean per frame over the frames between two stats readings. */
static double
stats_diff (double mean_after, guint64 n_after, double mean_before, guint64 n_before)
{
  if (n_after <= n_before || isnan (mean_after))
    return NAN;
  if (n_before == 0 || isnan (mean_before))
    return n_before == 0 ? mean_after : NAN;
  return (mean_after * n_after - mean_before * n_before) / (double) (n_after - n_before);
}

gboolean
gcvb_set_prop (GstElement * e, const char *name, const char *value)
{
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), name) == NULL) {
    g_printerr ("    note: %s has no property %s\n", GST_OBJECT_NAME (e), name);
    return FALSE;
  }
  gst_util_set_object_arg (G_OBJECT (e), name, value);
  return TRUE;
}

gboolean
gcvb_set_props (GstElement * e, const char *props)
{
  gchar **kv = g_strsplit (props, " ", -1);
  gboolean ok = TRUE;

  for (int i = 0; kv[i] != NULL; i++) {
    gchar *eq = strchr (kv[i], '=');
    if (kv[i][0] == '\0')
      continue;
    if (eq == NULL) {
      ok = FALSE;
      continue;
    }
    *eq = '\0';
    ok &= gcvb_set_prop (e, kv[i], eq + 1);
  }
  g_strfreev (kv);
  return ok;
}

/* The appsrc's caps and queue, the sink's counting (appsink with
 * check_output, else fakesink), neither synchronised to the clock. */
static void
pipeline_set_ends (GcvbPipeline * p, GstCaps * in_caps, gboolean check_output)
{
  g_object_set (p->src, "caps", in_caps, "format", GST_FORMAT_TIME, "is-live", FALSE,
      "max-bytes", (guint64) 0, NULL);
  if (check_output) {
    GstAppSinkCallbacks callbacks;
    g_object_set (p->sink, "sync", FALSE, "async", FALSE, "enable-last-sample", FALSE,
        "max-buffers", 0, "drop", FALSE, NULL);
    memset (&callbacks, 0, sizeof (callbacks));
    callbacks.new_sample = on_new_sample;
    gst_app_sink_set_callbacks (GST_APP_SINK (p->sink), &callbacks, p, NULL);
  } else {
    g_object_set (p->sink, "sync", FALSE, "async", FALSE, "signal-handoffs", TRUE, NULL);
    g_signal_connect (p->sink, "handoff", G_CALLBACK (on_handoff), p);
  }
}

GcvbPipeline *
gcvb_pipeline_new (const char *factory, const char *name, GstCaps * in_caps, GstCaps * out_caps,
    gboolean check_output, GcvbResult * r)
{
  GcvbPipeline *p = g_new0 (GcvbPipeline, 1);
  const char *sink_factory = check_output ? "appsink" : "fakesink";
  GstElement *filter = NULL;

  g_strlcpy (p->factory, factory, sizeof (p->factory));
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  p->pipe = gst_pipeline_new ("bench");
  p->src = gst_element_factory_make ("appsrc", "src");
  p->elem = gst_element_factory_make (factory, name);
  if (out_caps != NULL)
    filter = gst_element_factory_make ("capsfilter", "size");
  p->sink = gst_element_factory_make (sink_factory, "sink");
  if (p->elem == NULL || p->src == NULL || (out_caps != NULL && filter == NULL) || p->sink == NULL) {
    if (p->elem == NULL)
      gcvb_result_fail (r, "element %s not found (plugin not loaded?)", factory);
    else
      gcvb_result_fail (r, "element %s missing", p->src == NULL ? "appsrc" :
          p->sink == NULL ? sink_factory : "capsfilter");
    g_clear_object (&p->src);
    g_clear_object (&p->elem);
    g_clear_object (&filter);
    g_clear_object (&p->sink);
    gcvb_pipeline_free (p);
    return NULL;
  }
  gst_bin_add_many (GST_BIN (p->pipe), p->src, p->elem, p->sink, NULL);
  if (filter != NULL)
    gst_bin_add (GST_BIN (p->pipe), filter);
  if (!gst_element_link_many (p->src, p->elem, filter ? filter : p->sink, filter ? p->sink : NULL, NULL)) {
    gcvb_result_fail (r, "cannot link appsrc ! %s%s ! %s", factory, filter ? " ! capsfilter" : "",
        sink_factory);
    gcvb_pipeline_free (p);
    return NULL;
  }

  if (filter != NULL)
    g_object_set (filter, "caps", out_caps, NULL);
  pipeline_set_ends (p, in_caps, check_output);
  return p;
}

GstElement *
gcvb_pipeline_element (GcvbPipeline * p)
{
  return p->elem;
}

void
gcvb_pipeline_output (GcvbPipeline * p, int *width, int *height, const char **format)
{
  *width = p->out_w;
  *height = p->out_h;
  *format = p->out_format;
}

gboolean
gcvb_pipeline_time (GcvbPipeline * p, const GcvbFrameSet * fs, int warmup, int frames, int queue,
    gboolean stats_note, GcvbResult * r)
{
  return gcvb_pipeline_time_latency (p, fs, warmup, frames, queue, 0, stats_note, r);
}

/* The frames the pipeline's elements hold back (temporal history, frames
 * in flight: async-depth), from the LATENCY query at the last element's
 * source pad, which the elements answer once their caps are set: waits up
 * to 60 s for those after the first push (the first frame sets up the
 * element: a CUDA context, module loading, allocations; seconds on a
 * freshly started GPU host), *waited_s the time it took; -1 when unknown
 * (no frame rate, no answer), -2 when the caps did not come, after which
 * the caller cannot know which output to wait for, or after an error on
 * the bus (*message set). */
static int
pipeline_held_frames (GcvbPipeline * p, double *waited_s, gchar ** message)
{
  GstElement *last = p->stages != NULL ? p->stages[p->n_stages - 1] : p->elem;
  GstPad *src = gst_element_get_static_pad (last, "src"), *sink = gst_element_get_static_pad (p->elem, "sink");
  GstQuery *q = gst_query_new_latency ();
  GstCaps *caps = NULL;
  GstClockTime min = 0;
  GstVideoInfo info;
  double t0 = gcvb_now_ms ();
  int held = -1;

  while (!gst_pad_has_current_caps (src) && gcvb_now_ms () - t0 < 60000 && !bus_failed (p, message))
    g_usleep (1000);
  *waited_s = (gcvb_now_ms () - t0) / 1000;
  if (*message != NULL || !gst_pad_has_current_caps (src))
    held = -2;
  caps = gst_pad_get_current_caps (sink);
  if (held != -2 && caps != NULL && gst_video_info_from_caps (&info, caps) && GST_VIDEO_INFO_FPS_N (&info) > 0
      && gst_pad_query (src, q)) {
    gst_query_parse_latency (q, NULL, &min, NULL);
    held = (int) gst_util_uint64_scale_round (min, GST_VIDEO_INFO_FPS_N (&info),
        (guint64) GST_VIDEO_INFO_FPS_D (&info) * GST_SECOND);
  }
  if (caps != NULL)
    gst_caps_unref (caps);
  gst_query_unref (q);
  gst_object_unref (src);
  gst_object_unref (sink);
  return held;
}

gboolean
gcvb_pipeline_time_latency (GcvbPipeline * p, const GcvbFrameSet * fs, int warmup, int frames, int queue,
    int latency, gboolean stats_note, GcvbResult * r)
{
  Stats before, after;
  gchar *message = NULL, *backend = NULL;
  double t0 = 0, t1;

  queue = MAX (queue, 1);
  latency = MAX (latency, 0);
  p->latency = latency;
  p->bus = gst_element_get_bus (p->pipe);
  if (gst_element_set_state (p->pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    bus_failed (p, &message);
    gcvb_result_fail (r, "cannot start pipeline%s%s", message ? ": " : "", message ? message : "");
    gst_element_set_state (p->pipe, GST_STATE_NULL);
    g_free (message);
    return FALSE;
  }
  p->started = TRUE;

  /* after i pushes, only i - latency frames can have come out */
  for (int i = 0; i < warmup + frames; i++) {
    GstBuffer *b;
    GstFlowReturn fr;

    if (i == warmup) {
      /* drain the warm-up frames, then start the clock */
      if (!wait_arrived (p, (gint64) warmup - latency, 60, &message))
        break;
      read_stats (p->elem, &before);
      t0 = gcvb_now_ms ();
    } else if (!wait_arrived (p, (gint64) i - latency - queue + 1, 60, &message))
      break;
    b = gcvb_frame_buffer (fs, i % fs->n, i);
    fr = gst_app_src_push_buffer (GST_APP_SRC (p->src), b);
    if (fr != GST_FLOW_OK) {
      message = g_strdup_printf ("push-buffer: %s", gst_flow_get_name (fr));
      break;
    }
    if (i == 0) {
      /* frames in flight (async-depth) are held too: waiting for the
       * output of frames still held would never end */
      double waited_s;
      int held = pipeline_held_frames (p, &waited_s, &message);
      if (held == -2) {
        if (message == NULL)
          message = g_strdup_printf ("no caps on the element's source pad %.1f s after the first frame: its "
              "setup did not finish", waited_s);
        break;
      }
      if (waited_s > 5)
        gcvb_result_note (r, "the first frame's setup took %.1f s", waited_s);
      if (held > latency)
        p->latency = latency = held;
    }
  }
  if (message != NULL || !wait_arrived (p, (gint64) warmup + frames - latency, 60, &message)) {
    gcvb_result_fail (r, "%s", message ? message : "unknown error");
    p->broken = TRUE;
    g_free (message);
    return FALSE;
  }
  t1 = gcvb_now_ms ();
  read_stats (p->elem, &after);
  backend = gcvb_prop_string (p->elem, "backend");

  r->count = frames;
  r->ms = (t1 - t0) / frames;
  r->fps = 1000.0 / r->ms;
  g_strlcpy (r->backend, backend ? backend : (after.backend[0] ? after.backend : "?"), sizeof (r->backend));
  g_free (backend);
  if (after.ok) {
    r->upload_ms = stats_diff (after.upload, after.frames, before.upload, before.frames);
    r->compute_ms = stats_diff (after.compute, after.frames, before.compute, before.frames);
    r->download_ms = stats_diff (after.download, after.frames, before.download, before.frames);
    r->total_ms = stats_diff (after.total, after.frames, before.total, before.frames);
    if (after.frames - before.frames != (guint64) frames)
      gcvb_result_note (r, "stats counted %" G_GUINT64_FORMAT " frames, not %d",
          after.frames - before.frames, frames);
  } else if (stats_note) {
    gcvb_result_note (r, "no stats property");
  }
  return TRUE;
}

void
gcvb_pipeline_free (GcvbPipeline * p)
{
  /* finish cleanly: EOS, then wait for it (bounded) */
  if (p->started && !p->broken && !p->finished) {
    GstMessage *m;
    gst_app_src_end_of_stream (GST_APP_SRC (p->src));
    /* EOS drains the frames an element with latency holds back */
    m = gst_bus_timed_pop_filtered (p->bus, (p->latency > 0 ? 60 : 10) * GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (m == NULL || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      g_printerr ("    warning: %s did not finish cleanly\n", p->factory);
    if (m)
      gst_message_unref (m);
  }
  if (p->started && gst_element_set_state (p->pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE)
    g_printerr ("    warning: cannot stop the %s pipeline\n", p->factory);
  if (p->bus)
    gst_object_unref (p->bus);
  gst_object_unref (p->pipe);
  g_free (p->out_format);
  g_free (p->stages);
  g_free (p->first_warning);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  g_free (p);
}

/* ------------------------------------------------------------------------ */
/* pipelines of several elements */

GcvbPipeline *
gcvb_pipeline_new_chain (const GcvbStage * stages, int n, GstCaps * in_caps, GcvbResult * r)
{
  GcvbPipeline *p = g_new0 (GcvbPipeline, 1);
  GstElement *last;

  g_snprintf (p->factory, sizeof (p->factory), "%s%s", stages[0].factory, n > 1 ? " ! ..." : "");
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  p->pipe = gst_pipeline_new ("bench");
  p->stages = g_new0 (GstElement *, n);
  p->n_stages = n;
  p->src = gst_element_factory_make ("appsrc", "src");
  p->sink = gst_element_factory_make ("fakesink", "sink");
  if (p->src == NULL || p->sink == NULL) {
    gcvb_result_fail (r, "element %s missing", p->src == NULL ? "appsrc" : "fakesink");
    g_clear_object (&p->src);
    g_clear_object (&p->sink);
    gcvb_pipeline_free (p);
    return NULL;
  }
  gst_bin_add_many (GST_BIN (p->pipe), p->src, p->sink, NULL);
  last = p->src;
  for (int i = 0; i < n; i++) {
    GstElement *e = gst_element_factory_make (stages[i].factory, stages[i].name);
    GstElement *f = NULL;
    if (e == NULL) {
      gcvb_result_fail (r, "element %s not found (plugin not loaded?)", stages[i].factory);
      gcvb_pipeline_free (p);
      return NULL;
    }
    gst_bin_add (GST_BIN (p->pipe), e);
    p->stages[i] = e;
    if (stages[i].caps_after != NULL && (f = gst_element_factory_make ("capsfilter", NULL)) != NULL) {
      g_object_set (f, "caps", stages[i].caps_after, NULL);
      gst_bin_add (GST_BIN (p->pipe), f);
    }
    if (!gst_element_link (last, e) || (f != NULL && !gst_element_link (e, f))) {
      gcvb_result_fail (r, "cannot link %s", stages[i].factory);
      gcvb_pipeline_free (p);
      return NULL;
    }
    last = f != NULL ? f : e;
  }
  if (!gst_element_link (last, p->sink)) {
    gcvb_result_fail (r, "cannot link the sink");
    gcvb_pipeline_free (p);
    return NULL;
  }
  p->elem = p->stages[0];
  pipeline_set_ends (p, in_caps, FALSE);
  return p;
}

int
gcvb_pipeline_n_stages (GcvbPipeline * p)
{
  return p->stages != NULL ? p->n_stages : 1;
}

GstElement *
gcvb_pipeline_stage (GcvbPipeline * p, int i)
{
  return p->stages != NULL ? p->stages[i] : p->elem;
}

GstElement *
gcvb_pipeline_appsrc (GcvbPipeline * p)
{
  return p->src;
}

void
gcvb_pipeline_quiet_warnings (GcvbPipeline * p, gboolean quiet)
{
  p->quiet = quiet;
}

const char *
gcvb_pipeline_first_warning (GcvbPipeline * p, int *n)
{
  *n = p->n_warnings;
  return p->first_warning;
}

gboolean
gcvb_pipeline_set_state (GcvbPipeline * p, GstState state, gchar ** message)
{
  if (p->bus == NULL)
    p->bus = gst_element_get_bus (p->pipe);
  if (gst_element_set_state (p->pipe, state) == GST_STATE_CHANGE_FAILURE) {
    bus_failed (p, message);
    if (*message == NULL)
      *message = g_strdup_printf ("cannot set the pipeline to %s", gst_element_state_get_name (state));
    gst_element_set_state (p->pipe, GST_STATE_NULL);
    return FALSE;
  }
  p->started = TRUE;
  return TRUE;
}

gboolean
gcvb_pipeline_push (GcvbPipeline * p, GstBuffer * b, gchar ** message)
{
  GstFlowReturn fr = gst_app_src_push_buffer (GST_APP_SRC (p->src), b);

  if (fr == GST_FLOW_OK)
    return TRUE;
  if (!bus_failed (p, message))
    *message = g_strdup_printf ("push-buffer: %s", gst_flow_get_name (fr));
  return FALSE;
}

gboolean
gcvb_pipeline_wait_arrived (GcvbPipeline * p, gint64 target, double timeout_s, gchar ** message)
{
  return wait_arrived (p, target, timeout_s, message);
}

guint64
gcvb_pipeline_arrived (GcvbPipeline * p, gint64 * first_us, gint64 * last_us)
{
  guint64 n;

  g_mutex_lock (&p->lock);
  n = p->arrived;
  if (first_us != NULL)
    *first_us = p->first_us;
  if (last_us != NULL)
    *last_us = p->last_us;
  g_mutex_unlock (&p->lock);
  return n;
}

gboolean
gcvb_pipeline_finish (GcvbPipeline * p, double timeout_s, gchar ** message)
{
  guint64 last = gcvb_pipeline_arrived (p, NULL, NULL), now;
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  GstMessage *m;

  p->finished = TRUE;
  gst_app_src_end_of_stream (GST_APP_SRC (p->src));
  for (;;) {
    m = gst_bus_timed_pop_filtered (p->bus, 100 * GST_MSECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (m != NULL && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      gst_message_unref (m);
      return TRUE;
    }
    if (m != NULL && bus_message (p, m, message))
      break;
    if ((now = gcvb_pipeline_arrived (p, NULL, NULL)) != last) {
      last = now;
      deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
    } else if (g_get_monotonic_time () > deadline) {
      *message = g_strdup_printf ("no EOS: nothing reached the sink for %.0f s", timeout_s);
      break;
    }
  }
  p->broken = TRUE;
  return FALSE;
}

void
gcvb_pipeline_abandon (GcvbPipeline * p)
{
  p->broken = TRUE;
}

void
gcvb_stats_read (GstElement * e, GcvbStats * st)
{
  Stats s;

  read_stats (e, &s);
  st->ok = s.ok;
  st->frames = s.frames;
  st->upload_ms = s.upload;
  st->compute_ms = s.compute;
  st->download_ms = s.download;
  st->total_ms = s.total;
  g_strlcpy (st->backend, s.backend, sizeof (st->backend));
}

void
gcvb_stats_between (const GcvbStats * before, const GcvbStats * after, GcvbStats * out)
{
  GcvbStats d = *after;

  d.ok = after->ok && after->frames > before->frames;
  d.frames = after->frames >= before->frames ? after->frames - before->frames : 0;
  d.upload_ms = stats_diff (after->upload_ms, after->frames, before->upload_ms, before->frames);
  d.compute_ms = stats_diff (after->compute_ms, after->frames, before->compute_ms, before->frames);
  d.download_ms = stats_diff (after->download_ms, after->frames, before->download_ms, before->frames);
  d.total_ms = stats_diff (after->total_ms, after->frames, before->total_ms, before->frames);
  *out = d;
}

/* ------------------------------------------------------------------------ */
/* backends on the CPU */

guint8 *
gcvb_cpu_output (GcvbCpuProcess process, gpointer ctx, const GcvbFrameSet * fs, int out_w, int out_h,
    size_t out_row)
{
  GcvError err = { 0 };
  guint8 *out = g_malloc (out_row * out_h);
  GcvPlane in_p = { fs->frames[0], fs->width, fs->height, fs->stride };
  GcvPlane out_p = { out, out_w, out_h, out_row };

  if (process (ctx, &in_p, &out_p, 0, &err) != GCV_OK) {
    g_printerr ("  cpu reference: %s\n", err.message);
    g_clear_pointer (&out, g_free);
  }
  return out;
}

gboolean
gcvb_cpu_time (GcvbCpuProcess process, gpointer ctx, const char *what, const GcvbFrameSet * fs,
    guint8 * out, int out_w, int out_h, size_t out_row, int n_threads, int warmup, int runs,
    GcvbResult * r)
{
  GcvError err = { 0 };
  double *t = g_new (double, runs);

  for (int i = 0; i < warmup + runs; i++) {
    int k = i % fs->n;
    GcvPlane in_p = { fs->frames[k], fs->width, fs->height, fs->stride };
    GcvPlane out_p = { out, out_w, out_h, out_row };
    double t0 = gcvb_now_ms ();
    if (process (ctx, &in_p, &out_p, n_threads, &err) != GCV_OK) {
      gcvb_result_fail (r, "%s: %s", what, err.message);
      g_free (t);
      return FALSE;
    }
    if (i >= warmup)
      t[i - warmup] = gcvb_now_ms () - t0;
  }
  r->count = runs;
  r->mean_ms = gcvb_mean (t, runs);
  r->ms = gcvb_median (t, runs);
  r->fps = 1000.0 / r->ms;
  g_strlcpy (r->backend, "cpu", sizeof (r->backend));
  g_free (t);
  return TRUE;
}

gboolean
gcvb_time_budget (GcvbTimedCall call, gpointer data, const char *what, int max_runs, double budget_s,
    int *first_timed, GcvbResult * r)
{
  char msg[512] = "";
  double *t, t0, first;
  int n;

  max_runs = MAX (max_runs, 1);
  t0 = gcvb_now_ms ();
  if (!call (data, 0, msg, sizeof (msg))) {
    gcvb_result_fail (r, "%s: %s", what, msg);
    return FALSE;
  }
  first = gcvb_now_ms () - t0;
  if (first * 1e-3 >= budget_s) {
    /* one call is over the budget: the warm-up is the measurement */
    r->count = 1;
    r->ms = r->mean_ms = first;
    r->fps = 1000.0 / first;
    if (first_timed)
      *first_timed = 0;
    gcvb_result_note (r, "1 run (the warm-up: it alone is over the %.0f s budget)", budget_s);
    return TRUE;
  }
  n = (int) MIN ((double) max_runs, MAX (1.0, floor (budget_s / (first * 1e-3))));
  t = g_new (double, n);
  for (int i = 0; i < n; i++) {
    t0 = gcvb_now_ms ();
    if (!call (data, i + 1, msg, sizeof (msg))) {
      gcvb_result_fail (r, "%s: %s", what, msg);
      g_free (t);
      return FALSE;
    }
    t[i] = gcvb_now_ms () - t0;
  }
  if (n < max_runs)
    gcvb_result_note (r, "%d run%s (the %.0f s budget)", n, n == 1 ? "" : "s", budget_s);
  if (first_timed)
    *first_timed = 1;
  r->count = n;
  r->mean_ms = gcvb_mean (t, n);
  r->ms = gcvb_median (t, n);
  r->fps = 1000.0 / r->ms;
  g_free (t);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* pictures */

static GstElement *
make_element (const char *factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (e == NULL)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN, "element %s not found", factory);
  return e;
}

gboolean
gcvb_write_png (const char *path, const guint8 * pixels, int w, int h, size_t stride, const char *format,
    const GcvbLabel * labels, int n_labels, GError ** error)
{
  GstVideoInfo info;
  GstElement *pipe = NULL, *src, *conv, *last, *conv2, *enc, *sink;
  GstBuffer *buf;
  GstMessage *msg = NULL;
  GstBus *bus = NULL;
  GstCaps *caps;
  gboolean ok = FALSE, have_text = gcvb_have_factory ("textoverlay");
  static gboolean warned;
  size_t row;

  if (!gst_video_info_set_format (&info, gst_video_format_from_string (format), w, h)
      || GST_VIDEO_INFO_N_PLANES (&info) != 1) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION, "%s: bad picture format %s %dx%d",
        path, format, w, h);
    return FALSE;
  }
  if (n_labels > 0 && !have_text && !warned) {
    g_printerr ("warning: no textoverlay element (gst-plugins-base pango): pictures without labels\n");
    warned = TRUE;
  }
  pipe = gst_pipeline_new ("png");
  {
    static const char *const names[] = { "appsrc", "videoconvert", "videoconvert", "pngenc", "filesink" };
    GstElement **dst[] = { &src, &conv, &conv2, &enc, &sink };
    for (guint i = 0; i < G_N_ELEMENTS (names); i++) {
      if ((*dst[i] = make_element (names[i], error)) == NULL)
        goto done;
      gst_bin_add (GST_BIN (pipe), *dst[i]);
    }
  }
  if (!gst_element_link (src, conv))
    goto link_error;
  last = conv;
  for (int i = 0; have_text && i < n_labels; i++) {
    GstElement *t = make_element ("textoverlay", error);
    if (t == NULL)
      goto done;
    g_object_set (t, "text", labels[i].text, "font-desc", labels[i].font ? labels[i].font : "Sans 12",
        "halignment", 0 /* left */ , "valignment", 2 /* top */ , "xpad", 0, "ypad", 0,
        "deltax", labels[i].x, "deltay", labels[i].y, "color", 0xff000000u, "draw-outline", FALSE,
        "draw-shadow", FALSE, "shaded-background", FALSE, "auto-resize", FALSE, NULL);
    gst_bin_add (GST_BIN (pipe), t);
    if (!gst_element_link (last, t))
      goto link_error;
    last = t;
  }
  {
    /* no alpha in the file: RGB, or GRAY8 for grey formats */
    GstCaps *png_caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
        GST_VIDEO_INFO_IS_GRAY (&info) ? "GRAY8" : "RGB", NULL);
    gboolean linked = gst_element_link (last, conv2) && gst_element_link_filtered (conv2, enc, png_caps)
        && gst_element_link (enc, sink);
    gst_caps_unref (png_caps);
    if (!linked)
      goto link_error;
  }
  g_object_set (enc, "compression-level", 9, NULL);
  caps = gst_video_info_to_caps (&info);
  gst_caps_set_simple (caps, "framerate", GST_TYPE_FRACTION, 1, 1, NULL);
  g_object_set (src, "caps", caps, "format", GST_FORMAT_TIME, NULL);
  gst_caps_unref (caps);
  g_object_set (sink, "location", path, NULL);

  if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE, "%s: cannot start the PNG pipeline", path);
    goto done;
  }
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  {
    GstMapInfo map;
    gst_buffer_map (buf, &map, GST_MAP_WRITE);
    row = (size_t) GST_VIDEO_INFO_COMP_PSTRIDE (&info, 0) * w;
    for (int y = 0; y < h; y++)
      memcpy (map.data + (size_t) y * GST_VIDEO_INFO_PLANE_STRIDE (&info, 0), pixels + (size_t) y * stride, row);
    gst_buffer_unmap (buf, &map);
  }
  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = GST_SECOND;
  gst_app_src_push_buffer (GST_APP_SRC (src), buf);
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  bus = gst_element_get_bus (pipe);
  msg = gst_bus_timed_pop_filtered (bus, 30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (msg == NULL) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: the PNG pipeline did not finish", path);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gst_message_parse_error (msg, &e, NULL);
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s: %s", path, e->message);
    g_error_free (e);
  } else {
    ok = TRUE;
  }
  goto done;
link_error:
  g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION, "%s: cannot link the PNG pipeline", path);
done:
  if (msg)
    gst_message_unref (msg);
  if (bus)
    gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* CUDA kernels */

void
gcvb_result_kernel (GcvbResult * r, int runs, double bytes, const GcvbCuda * cuda)
{
  r->count = runs;
  r->fps = 1000.0 / r->ms;
  r->compute_ms = r->ms;
  r->gbps = bytes / (r->ms * 1e-3) / 1e9;
  if (cuda->peak_gbps > 0)
    r->peak_frac = r->gbps / cuda->peak_gbps;
  g_strlcpy (r->backend, "cuda", sizeof (r->backend));
}

#if GCVB_CUDA

#define CU_TRY(call, what) \
  do { if ((call) != GCV_OK) { gcvb_result_fail (r, "%s: %s", what, err.message); goto done; } } while (0)

gboolean
gcvb_cuda_time_kernel (GcvbCudaProcess process, gpointer ctx, const GcvbFrameSet * fs, int out_w,
    int out_h, size_t out_row, int warmup, int runs, guint8 * check, GcvbResult * r)
{
  GcvError err = { 0 };
  int n_in = fs->n;
  size_t in_row = (size_t) fs->width * fs->channels;
  void **d_in = g_new0 (void *, n_in), *d_out = NULL, *stream = NULL;
  size_t *in_pitch = g_new0 (size_t, n_in), out_pitch = 0;
  GcvCudaEvent **ev = g_new0 (GcvCudaEvent *, 2 * runs);
  double *t = g_new (double, runs);
  gboolean ok = FALSE;

  CU_TRY (gcv_cuda_stream_new (&stream, &err), "stream");
  for (int k = 0; k < n_in; k++) {
    CU_TRY (gcv_cuda_malloc_2d (&d_in[k], &in_pitch[k], in_row, fs->height, &err), "device alloc");
    CU_TRY (gcv_cuda_upload_2d (d_in[k], in_pitch[k], fs->frames[k], fs->stride, in_row, fs->height,
            stream, &err), "upload");
  }
  CU_TRY (gcv_cuda_malloc_2d (&d_out, &out_pitch, out_row, out_h, &err), "device alloc");
  for (int i = 0; i < 2 * runs; i++)
    CU_TRY (gcv_cuda_event_new (&ev[i], &err), "event");
  CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");

  /* the output for frames[0], to compare with the CPU's */
  if (check != NULL) {
    GcvPlane in_p = { d_in[0], fs->width, fs->height, in_pitch[0] };
    GcvPlane out_p = { d_out, out_w, out_h, out_pitch };
    CU_TRY (process (ctx, &in_p, &out_p, stream, &err), "process");
    CU_TRY (gcv_cuda_download_2d (check, out_row, d_out, out_pitch, out_row, out_h, stream, &err), "download");
    CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");
  }

  for (int i = 0; i < warmup; i++) {
    GcvPlane in_p = { d_in[i % n_in], fs->width, fs->height, in_pitch[i % n_in] };
    GcvPlane out_p = { d_out, out_w, out_h, out_pitch };
    CU_TRY (process (ctx, &in_p, &out_p, stream, &err), "process");
  }
  CU_TRY (gcv_cuda_stream_sync (stream, &err), "stream sync");
  for (int i = 0; i < runs; i++) {
    GcvPlane in_p = { d_in[i % n_in], fs->width, fs->height, in_pitch[i % n_in] };
    GcvPlane out_p = { d_out, out_w, out_h, out_pitch };
    CU_TRY (gcv_cuda_event_record (ev[2 * i], stream, &err), "event record");
    CU_TRY (process (ctx, &in_p, &out_p, stream, &err), "process");
    CU_TRY (gcv_cuda_event_record (ev[2 * i + 1], stream, &err), "event record");
  }
  CU_TRY (gcv_cuda_event_sync (ev[2 * runs - 1], &err), "event sync");
  {
    float span = 0;
    CU_TRY (gcv_cuda_event_elapsed (ev[0], ev[2 * runs - 1], &span, &err), "event elapsed");
    r->mean_ms = span / runs;   /* back to back: throughput per frame */
  }
  for (int i = 0; i < runs; i++) {
    float ms;
    CU_TRY (gcv_cuda_event_elapsed (ev[2 * i], ev[2 * i + 1], &ms, &err), "event elapsed");
    t[i] = ms;
  }
  r->ms = gcvb_median (t, runs);
  ok = TRUE;
done:
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  for (int i = 0; i < 2 * runs; i++)
    if (ev[i])
      gcv_cuda_event_free (ev[i]);
  for (int k = 0; k < n_in; k++)
    if (d_in[k])
      gcv_cuda_free (d_in[k]);
  if (d_out)
    gcv_cuda_free (d_out);
  if (stream)
    gcv_cuda_stream_free (stream);
  g_free (d_in);
  g_free (in_pitch);
  g_free (ev);
  g_free (t);
  return ok;
}

/* Median ms of `runs` copies (after 2 untimed) of `bytes` between a host
 * buffer and device memory, in one direction: CUDA events around a copy
 * from or to page-locked memory; the host's clock around a copy from or to
 * pageable memory and its end (the driver stages it through page-locked
 * buffers of its own, partly before the copy reaches the stream). */
static gboolean
time_host_copies (void *host, gboolean pinned, void *dev, size_t pitch, size_t row, size_t rows,
    gboolean upload, int runs, void *stream, GcvCudaEvent ** ev, double *ms, GcvError * err)
{
  double *t = g_new (double, runs);
  gboolean ok = TRUE;

  for (int i = -2; i < runs && ok; i++) {
    float e = 0;
    double t0 = gcvb_now_ms ();
    ok = gcv_cuda_event_record (ev[0], stream, err) == GCV_OK
        && (upload ? gcv_cuda_upload_2d (dev, pitch, host, row, row, rows, stream, err)
        : gcv_cuda_download_2d (host, row, dev, pitch, row, rows, stream, err)) == GCV_OK
        && gcv_cuda_event_record (ev[1], stream, err) == GCV_OK && gcv_cuda_event_sync (ev[1], err) == GCV_OK
        && gcv_cuda_event_elapsed (ev[0], ev[1], &e, err) == GCV_OK;
    if (!pinned)
      e = gcvb_now_ms () - t0;
    if (i >= 0)
      t[i] = e;
  }
  if (ok)
    *ms = gcvb_median (t, runs);
  g_free (t);
  return ok;
}

gboolean
gcvb_cuda_copy_bandwidth (int device, size_t bytes, int runs, gboolean pinned, double *h2d_gbps, double *d2h_gbps,
    char *why, size_t why_len)
{
  GcvError err = { 0 };
  const size_t row = 4096, rows = MAX (bytes / row, 1);
  void *host = NULL, *dev = NULL, *stream = NULL;
  GcvCudaEvent *ev[2] = { NULL, NULL };
  size_t pitch = 0;
  double up = NAN, down = NAN;
  gboolean ok;

  runs = MAX (runs, 1);
  ok = gcv_cuda_set_device (device, &err) == GCV_OK && gcv_cuda_stream_new (&stream, &err) == GCV_OK
      && gcv_cuda_event_new (&ev[0], &err) == GCV_OK && gcv_cuda_event_new (&ev[1], &err) == GCV_OK
      && gcv_cuda_malloc_2d (&dev, &pitch, row, rows, &err) == GCV_OK;
  if (ok && pinned)
    ok = gcv_cuda_host_alloc (&host, row * rows, &err) == GCV_OK;
  else if (ok)
    host = g_malloc (row * rows);
  if (ok) {
    memset (host, 0x5a, row * rows);
    ok = time_host_copies (host, pinned, dev, pitch, row, rows, TRUE, runs, stream, ev, &up, &err)
        && time_host_copies (host, pinned, dev, pitch, row, rows, FALSE, runs, stream, ev, &down, &err);
  }
  if (!ok)
    g_snprintf (why, why_len, "host <-> device copies: %s", err.message);
  if (stream)
    gcv_cuda_stream_sync (stream, &err);
  for (int i = 0; i < 2; i++)
    if (ev[i])
      gcv_cuda_event_free (ev[i]);
  if (host && pinned)
    gcv_cuda_host_free (host);
  else
    g_free (host);
  if (dev)
    gcv_cuda_free (dev);
  if (stream)
    gcv_cuda_stream_free (stream);
  *h2d_gbps = ok ? row * rows / (up * 1e-3) / 1e9 : NAN;
  *d2h_gbps = ok ? row * rows / (down * 1e-3) / 1e9 : NAN;
  return ok;
}

#else /* !GCVB_CUDA */

gboolean
gcvb_cuda_copy_bandwidth (int device, size_t bytes, int runs, gboolean pinned, double *h2d_gbps, double *d2h_gbps,
    char *why, size_t why_len)
{
  *h2d_gbps = *d2h_gbps = NAN;
  g_snprintf (why, why_len, "built without CUDA");
  return FALSE;
}

#endif /* GCVB_CUDA */

/* ------------------------------------------------------------------------ */
/* peers run by the host's Python */

gboolean
gcvb_write_frames (const GcvbFrameSet * fs, const char *path, GError ** error)
{
  size_t row = (size_t) fs->width * fs->channels;
  GString *all = g_string_sized_new (row * fs->height * fs->n);
  gboolean ok;

  for (int k = 0; k < fs->n; k++)
    for (int y = 0; y < fs->height; y++)
      g_string_append_len (all, (const gchar *) fs->frames[k] + (size_t) y * fs->stride, row);
  ok = g_file_set_contents (path, all->str, all->len, error);
  g_string_free (all, TRUE);
  return ok;
}

GPtrArray *
gcvb_python_peer (const char *script, const char *const *args, int timeout_s, char *why, size_t why_len)
{
  const char *python = g_getenv ("GCVB_PYTHON") ? g_getenv ("GCVB_PYTHON") : "python3";
  gchar **python_argv = NULL;
  gchar *dir = g_dir_make_tmp ("gcvb-peer-XXXXXX", NULL);
  gchar *rows_path = dir ? g_build_filename (dir, "rows.tsv", NULL) : NULL;
  gchar *script_path = g_build_filename (GCVB_SCRIPTS_DIR, script, NULL);
  gchar *timeout_arg = g_strdup_printf ("%d", timeout_s), *out = NULL, *err_text = NULL, *text = NULL;
  GPtrArray *argv = g_ptr_array_new (), *rows = NULL;
  GError *error = NULL;
  gint status = 0;

  if (dir == NULL) {
    g_snprintf (why, why_len, "cannot make a temporary directory");
    goto done;
  }
  if (!g_file_test (script_path, G_FILE_TEST_IS_REGULAR)) {
    g_snprintf (why, why_len, "%s not found", script_path);
    goto done;
  }
  if (!g_shell_parse_argv (python, NULL, &python_argv, &error)) {
    g_snprintf (why, why_len, "GCVB_PYTHON \"%s\": %s", python, error->message);
    g_clear_error (&error);
    goto done;
  }
  /* coreutils' timeout bounds a peer that hangs */
  g_ptr_array_add (argv, (gpointer) "timeout");
  g_ptr_array_add (argv, timeout_arg);
  for (int i = 0; python_argv[i] != NULL; i++)
    g_ptr_array_add (argv, python_argv[i]);
  g_ptr_array_add (argv, script_path);
  for (int i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) "--rows");
  g_ptr_array_add (argv, rows_path);
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err_text,
          &status, &error)) {
    g_snprintf (why, why_len, "cannot run %s: %s", python, error->message);
    g_error_free (error);
    goto done;
  }
  if (err_text != NULL && *err_text != '\0')
    g_printerr ("%s", err_text);
  if (!g_spawn_check_wait_status (status, &error) || !g_file_get_contents (rows_path, &text, NULL, NULL)) {
    /* the peer's last line on stderr says why (no torch, no GPU, ...) */
    gchar **lines = g_strsplit (g_strstrip (err_text ? err_text : (gchar *) ""), "\n", -1);
    guint n = g_strv_length (lines);
    g_snprintf (why, why_len, "%s %s: %s", python, script, n > 0 && lines[n - 1][0] ? lines[n - 1]
        : error ? error->message : "no rows");
    g_strfreev (lines);
    g_clear_error (&error);
    goto done;
  }
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  {
    gchar **lines = g_strsplit (text, "\n", -1);
    for (int i = 0; lines[i] != NULL; i++)
      if (lines[i][0] != '\0' && lines[i][0] != '#')
        g_ptr_array_add (rows, g_strsplit (lines[i], "\t", -1));
    g_strfreev (lines);
  }
done:
  if (rows_path != NULL)
    g_unlink (rows_path);
  if (dir != NULL)
    g_rmdir (dir);
  g_free (dir);
  g_free (rows_path);
  g_free (script_path);
  g_free (timeout_arg);
  g_free (out);
  g_free (err_text);
  g_free (text);
  g_strfreev (python_argv);
  g_ptr_array_free (argv, TRUE);
  return rows;
}

/* ------------------------------------------------------------------------ */
/* JSON */

void
gcvb_json_str (GString * s, const char *v)
{
  g_string_append_c (s, '"');
  for (const char *p = v; *p; p++) {
    unsigned char c = *p;
    if (c == '"' || c == '\\')
      g_string_append_printf (s, "\\%c", c);
    else if (c < 0x20)
      g_string_append_printf (s, "\\u%04x", c);
    else
      g_string_append_c (s, c);
  }
  g_string_append_c (s, '"');
}

void
gcvb_json_num (GString * s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  if (isnan (v) || isinf (v))
    g_string_append (s, "null");
  else
    g_string_append (s, g_ascii_formatd (buf, sizeof (buf), "%.6g", v));
}

GString *
gcvb_json_begin (const GcvbHost * h, const char *benchmark, gboolean peak_source, const char *extra_key,
    const char *extra_value)
{
  const GcvbCuda *c = &h->cuda;
  GString *s = g_string_new ("{\n");

  g_string_append_printf (s, "  \"benchmark\": \"%s\",\n  \"date\": ", benchmark);
  gcvb_json_str (s, h->date);
  g_string_append (s, ",\n");
  g_string_append (s, "  \"host\": {");
  GCVB_JKEY (s, "cpu"), gcvb_json_str (s, h->cpu);
  g_string_append_printf (s, ", \"cpu_threads\": %u, ", g_get_num_processors ());
  GCVB_JKEY (s, "gpu"), gcvb_json_str (s, c->available ? c->name : "");
  g_string_append (s, ", ");
  GCVB_JKEY (s, "gpu_skipped_reason"), gcvb_json_str (s, c->available ? "" : c->why);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "gpu_error"), gcvb_json_str (s, c->detail);
  g_string_append (s, ", \"gpu_mem_peak_gbps\": "), gcvb_json_num (s, c->available ? c->peak_gbps : NAN);
  if (peak_source) {
    g_string_append (s, ", ");
    GCVB_JKEY (s, "gpu_mem_peak_source"), gcvb_json_str (s, c->available ? c->peak_source : "");
  }
  g_string_append (s, ", \"gpu_mem_d2d_copy_gbps\": "), gcvb_json_num (s, c->available ? c->copy_gbps : NAN);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "gstreamer"), gcvb_json_str (s, gst_version_string ());
  g_string_append (s, ", ");
  if (extra_key != NULL) {
    GCVB_JKEY (s, extra_key);
    if (extra_value != NULL)
      gcvb_json_str (s, extra_value);
    else
      g_string_append (s, "null");
    g_string_append (s, ", ");
  }
  GCVB_JKEY (s, "plugin"), gcvb_json_str (s, h->plugin_file ? h->plugin_file : "");
  g_string_append (s, "},\n");
  return s;
}

void
gcvb_json_measurement (GString * s, const GcvbResult * r)
{
  g_string_append_printf (s, ", \"skipped\": %s, \"failed\": %s", r->skipped ? "true" : "false",
      r->failed ? "true" : "false");
  g_string_append (s, ", \"ms_per_frame\": "), gcvb_json_num (s, r->ms);
  g_string_append (s, ", \"mean_ms\": "), gcvb_json_num (s, r->mean_ms);
  g_string_append (s, ", \"fps\": "), gcvb_json_num (s, r->fps);
  g_string_append (s, ", \"upload_ms\": "), gcvb_json_num (s, r->upload_ms);
  g_string_append (s, ", \"compute_ms\": "), gcvb_json_num (s, r->compute_ms);
  g_string_append (s, ", \"download_ms\": "), gcvb_json_num (s, r->download_ms);
  g_string_append (s, ", \"total_ms\": "), gcvb_json_num (s, r->total_ms);
  g_string_append (s, ", \"effective_gbps\": "), gcvb_json_num (s, r->gbps);
  g_string_append (s, ", \"fraction_of_peak_bw\": "), gcvb_json_num (s, r->peak_frac);
}

void
gcvb_json_row_end (GString * s, const GcvbResult * r, const char *mismatch_key, const char *extra,
    gboolean last)
{
  g_string_append_printf (s, ", \"threads\": %d, \"count\": %" G_GUINT64_FORMAT ", ", r->threads, r->count);
  GCVB_JKEY (s, mismatch_key);
  if (r->mismatch >= 0)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, r->mismatch);
  else
    g_string_append (s, "null");
  if (extra != NULL)
    g_string_append (s, extra);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "backend"), gcvb_json_str (s, r->backend);
  g_string_append (s, ", ");
  GCVB_JKEY (s, "note"), gcvb_json_str (s, r->note);
  g_string_append_printf (s, "}%s\n", last ? "" : ",");
}

void
gcvb_frameset_wrap_gray8 (GcvbFrameSet * fs, const char *name, int width, int height, size_t stride, int n,
    guint8 ** frames)
{
  memset (fs, 0, sizeof (*fs));
  g_strlcpy (fs->name, name, sizeof (fs->name));
  fs->width = width;
  fs->height = height;
  fs->channels = 1;
  fs->stride = stride;
  fs->size = stride * height;
  fs->n = n;
  fs->frames = frames;
}

GcvbPipeline *
gcvb_gray8_element_pipeline (const GcvbHost * h, const char *factory, const char *name, const GcvbFrameSet * fs,
    int device, GcvbResult * r)
{
  gboolean is_cuda = g_str_has_prefix (factory, "cuda");
  GcvbPipeline *pl;
  GstElement *e;
  GstCaps *caps;
  char buf[16];

  if (!gcvb_have_factory (factory)) {
    gcvb_result_skip (r, "element %s not found (not built yet, or not in %s)", factory,
        h->plugin_file ? h->plugin_file : "the plugin");
    return NULL;
  }
  if (is_cuda && !h->cuda.available) {
    gcvb_result_skip (r, "%s", h->cuda.why);
    return NULL;
  }
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "GRAY8", "width", G_TYPE_INT, fs->width,
      "height", G_TYPE_INT, fs->height, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);
  pl = gcvb_pipeline_new (factory, name, caps, NULL, FALSE, r);
  gst_caps_unref (caps);
  if (pl == NULL)
    return NULL;
  e = gcvb_pipeline_element (pl);
  if (is_cuda) {
    g_snprintf (buf, sizeof (buf), "%d", device);
    gcvb_set_prop (e, "cuda-device-id", buf);
    gcvb_set_prop (e, "fallback", "false");
  } else {
    gcvb_set_prop (e, "n-threads", "0");
  }
  return pl;
}

void
gcvb_element_row_done (GcvbResult * r, gboolean is_cuda)
{
  if (g_strcmp0 (r->backend, "cpu") == 0)
    r->upload_ms = r->download_ms = NAN;
  if (is_cuda && g_strcmp0 (r->backend, "cuda") != 0)
    gcvb_result_note (r, "FELL BACK to %s", r->backend);
  g_printerr ("  %s %9.3f ms/frame %8.2f fps  up %.3f comp %.3f down %.3f total %.3f  [%s]%s%s\n", r->label,
      r->ms, r->fps, r->upload_ms, r->compute_ms, r->download_ms, r->total_ms, r->backend,
      r->note[0] ? "  " : "", r->note);
}

void
gcvb_print_element_table_head (int name_width)
{
  g_print ("\n== Elements: appsrc ! element ! fakesink, GRAY8, wall clock ==\n");
  g_print ("%-5s %-*s %4s %10s %9s %8s %8s %8s %8s %-7s %s\n", "case", name_width, "element", "thr", "ms/frame",
      "fps", "upload", "compute", "download", "total", "backend", "notes");
  g_print ("---------------------------------------------------------------------------------------------------"
      "-------------------\n");
}

void
gcvb_print_element_table_row (const char *case_name, const char *element, int name_width, const GcvbResult * m)
{
  GcvbCells c;
  char thr[8];

  if (m->threads > 0)
    g_snprintf (thr, sizeof (thr), "%d", m->threads);
  else
    g_strlcpy (thr, "-", sizeof (thr));
  if (m->skipped) {
    g_print ("%-5s %-*s %4s %10s %9s %8s %8s %8s %8s %-7s %s%s\n", case_name, name_width, element, thr,
        m->failed ? "FAILED" : "-", "-", "-", "-", "-", "-", "-", m->failed ? "" : "skipped: ", m->note);
    return;
  }
  gcvb_format_cells (m, "%.3f", &c);
  g_print ("%-5s %-*s %4s %10s %9s %8s %8s %8s %8s %-7s %" G_GUINT64_FORMAT " frames%s%s\n", case_name,
      name_width, element, thr, c.ms, c.fps, c.up, c.comp, c.down, c.tot, m->backend, m->count,
      m->note[0] ? "; " : "", m->note);
}

int
gcvb_finish (GString * s, const GcvbOptions * opt, const char *default_json)
{
  const char *path = opt->json ? opt->json : default_json;
  GError *error = NULL;

  if (g_file_set_contents (path, s->str, s->len, &error)) {
    g_print ("Results written to %s\n", path);
  } else {
    g_printerr ("cannot write %s: %s\n", path, error->message);
    g_error_free (error);
    gcvb_n_failures++;
  }
  g_string_free (s, TRUE);
  if (gcvb_n_failures > 0)
    g_print ("%d measurement(s) FAILED, see above\n", gcvb_n_failures);
  return gcvb_n_failures > 0 ? 1 : 0;
}
