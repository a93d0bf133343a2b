/* gst-cuda-video: OpenCV's sparse tracker (cv::goodFeaturesToTrack +
 * cv::calcOpticalFlowPyrLK) as the peer of bench-vcm, behind a C API (the
 * prototypes are in bench_vcm.c, GCVB_HAVE_OPENCV).
 *
 * One call tracks one frame pair the way a sparse tracker built on OpenCV
 * does it: corners of the previous frame (Shi-Tomasi), then pyramidal
 * Lucas-Kanade from the previous frame into the current one.  Both steps
 * are inside the time; the image pyramids are rebuilt every call (no reuse
 * from the previous pair, as VCM gets none either).  A second call,
 * gcvb_opencv_lk_points, runs the same pyramidal Lucas-Kanade on points the
 * caller gives (bench-vcm's quality case: OpenCV tracking VCM's points).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gcvb-opencv.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

/* OpenCV's pyramidal Lucas-Kanade as both calls run it: a win x win
 * window, max_level + 1 levels, 30 iterations or 0.01 px (OpenCV's
 * defaults). */
void
pyr_lk (const cv::Mat & prev, const cv::Mat & cur, const std::vector<cv::Point2f> & p0,
    std::vector<cv::Point2f> & p1, std::vector<uchar> & status, int win, int max_level)
{
  std::vector<float> error;

  cv::calcOpticalFlowPyrLK (prev, cur, p0, p1, status, error, cv::Size (win, win), max_level,
      cv::TermCriteria (cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 0.01));
}

}  // namespace

/* Tracks prev -> cur (GRAY8, rows `stride` bytes apart): at most
 * max_corners corners (quality_level, min_distance, 3x3 blocks), then
 * calcOpticalFlowPyrLK with a win x win window and max_level + 1 pyramid
 * levels (criteria: 30 iterations or 0.01 px, OpenCV's defaults).  out
 * gets 4 floats per point whose status is 1 (x, y, dx, dy: the corner in
 * prev and where it went), *n_out how many, *n_corners how many corners
 * were found; *ms the wall clock of both steps.  n_threads: 0 OpenCV's
 * default (all cores), else that many.  0, or -1 with err set. */
extern "C" int
gcvb_opencv_lk_track (const uint8_t * prev, const uint8_t * cur, int width, int height, size_t stride,
    int max_corners, double quality_level, double min_distance, int win, int max_level, int n_threads,
    float *out, int *n_out, int *n_corners, int *threads_used, double *ms, char *err, size_t err_len)
{
  if (prev == nullptr || cur == nullptr || width <= 0 || height <= 0 || max_corners <= 0 || out == nullptr) {
    std::snprintf (err, err_len, "opencv: bad arguments");
    return -1;
  }
  try {
    gcvb::ThreadGuard guard;
    cv::setNumThreads (n_threads > 0 ? n_threads : -1);
    *threads_used = cv::getNumThreads ();

    cv::Mat p (height, width, CV_8UC1, const_cast<uint8_t *> (prev), stride);
    cv::Mat c (height, width, CV_8UC1, const_cast<uint8_t *> (cur), stride);
    std::vector<cv::Point2f> p0, p1;
    std::vector<uchar> status;

    auto t0 = std::chrono::steady_clock::now ();
    cv::goodFeaturesToTrack (p, p0, max_corners, quality_level, min_distance, cv::noArray (), 3, false, 0.04);
    if (!p0.empty ())
      pyr_lk (p, c, p0, p1, status, win, max_level);
    auto t1 = std::chrono::steady_clock::now ();
    *ms = std::chrono::duration<double, std::milli> (t1 - t0).count ();

    int n = 0;
    for (size_t i = 0; i < p0.size () && i < p1.size (); i++) {
      if (!status[i])
        continue;
      out[4 * n + 0] = p0[i].x;
      out[4 * n + 1] = p0[i].y;
      out[4 * n + 2] = p1[i].x - p0[i].x;
      out[4 * n + 3] = p1[i].y - p0[i].y;
      n++;
    }
    *n_out = n;
    *n_corners = (int) p0.size ();
    return 0;
  } catch (...) {
    gcvb::describe_exception (err, err_len);
  }
  return -1;
}

/* Tracks given points of prev into cur with calcOpticalFlowPyrLK alone (the
 * same window, levels and criteria as gcvb_opencv_lk_track, no initial
 * flow): xy holds n points (x, y) of prev.  flow gets (dx, dy) per point
 * and status 1 where OpenCV tracked it, 0 where it did not (then flow is
 * 0, 0).  0, or -1 with err set. */
extern "C" int
gcvb_opencv_lk_points (const uint8_t * prev, const uint8_t * cur, int width, int height, size_t stride,
    const float *xy, int n, int win, int max_level, int n_threads, float *flow, uint8_t * status_out,
    char *err, size_t err_len)
{
  if (prev == nullptr || cur == nullptr || width <= 0 || height <= 0 || n < 0 || (n > 0 && (xy == nullptr
              || flow == nullptr || status_out == nullptr))) {
    std::snprintf (err, err_len, "opencv: bad arguments");
    return -1;
  }
  if (n == 0)
    return 0;
  try {
    gcvb::ThreadGuard guard;
    cv::setNumThreads (n_threads > 0 ? n_threads : -1);

    cv::Mat p (height, width, CV_8UC1, const_cast<uint8_t *> (prev), stride);
    cv::Mat c (height, width, CV_8UC1, const_cast<uint8_t *> (cur), stride);
    std::vector<cv::Point2f> p0 (n), p1;
    std::vector<uchar> status;

    for (int i = 0; i < n; i++)
      p0[i] = cv::Point2f (xy[2 * i], xy[2 * i + 1]);
    pyr_lk (p, c, p0, p1, status, win, max_level);
    for (int i = 0; i < n; i++) {
      int ok = (size_t) i < status.size () && (size_t) i < p1.size () && status[i];
      status_out[i] = ok ? 1 : 0;
      flow[2 * i + 0] = ok ? p1[i].x - p0[i].x : 0.0f;
      flow[2 * i + 1] = ok ? p1[i].y - p0[i].y : 0.0f;
    }
    return 0;
  } catch (...) {
    gcvb::describe_exception (err, err_len);
  }
  return -1;
}

extern "C" const char *
gcvb_opencv_lk_version (void)
{
  return CV_VERSION;
}
