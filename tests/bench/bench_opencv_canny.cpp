/* gst-cuda-video: OpenCV cv::Canny as a peer for bench-canny.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-canny.h"

#include "gcvb-opencv.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

void
run_once (const cv::Mat & in, cv::Mat & blurred, cv::Mat & dst, int blur_size, double blur_sigma,
    double low, double high, bool l2)
{
  if (blur_size > 0) {
    cv::GaussianBlur (in, blurred, cv::Size (blur_size, blur_size), blur_sigma, blur_sigma,
        cv::BORDER_REFLECT_101);
    cv::Canny (blurred, dst, low, high, 3, l2);
  } else {
    cv::Canny (in, dst, low, high, 3, l2);
  }
}

}  // namespace

extern "C" int
gcvb_opencv_canny_time (const uint8_t * const *frames, int n_frames, int width, int height,
    size_t stride, int blur_size, double blur_sigma, double low, double high, int l2_gradient,
    int n_threads, int warmup, int runs, double *median_ms, double *mean_ms, int *threads_used,
    uint8_t * out0, size_t out0_stride, char *err, size_t err_len)
{
  if (frames == nullptr || n_frames <= 0 || width <= 0 || height <= 0 || runs <= 0 || warmup < 0) {
    std::snprintf (err, err_len, "opencv: bad arguments");
    return -1;
  }
  try {
    gcvb::ThreadGuard guard;
    /* 1: one thread; a negative value restores OpenCV's default (all cores). */
    cv::setNumThreads (n_threads > 0 ? n_threads : -1);
    *threads_used = cv::getNumThreads ();

    std::vector<cv::Mat> src;
    src.reserve (n_frames);
    for (int i = 0; i < n_frames; i++)
      src.emplace_back (height, width, CV_8UC1, const_cast<uint8_t *> (frames[i]), stride);
    cv::Mat blurred (height, width, CV_8UC1), dst (height, width, CV_8UC1);

    std::vector<double> times;
    times.reserve (runs);
    for (int r = 0; r < warmup + runs; r++) {
      const cv::Mat & in = src[r % n_frames];
      auto t0 = std::chrono::steady_clock::now ();
      run_once (in, blurred, dst, blur_size, blur_sigma, low, high, l2_gradient != 0);
      auto t1 = std::chrono::steady_clock::now ();
      if (r >= warmup)
        times.push_back (std::chrono::duration<double, std::milli> (t1 - t0).count ());
    }
    double sum = 0;
    for (double t : times)
      sum += t;
    *mean_ms = sum / times.size ();
    std::sort (times.begin (), times.end ());
    size_t n = times.size ();
    *median_ms = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);

    if (out0 != nullptr) {
      cv::Mat out (height, width, CV_8UC1, out0, out0_stride);
      run_once (src[0], blurred, dst, blur_size, blur_sigma, low, high, l2_gradient != 0);
      dst.copyTo (out);
    }
    return 0;
  } catch (...) {
    gcvb::describe_exception (err, err_len);
  }
  return -1;
}

extern "C" const char *
gcvb_opencv_version (void)
{
  return CV_VERSION;
}
