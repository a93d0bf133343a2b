/* gst-cuda-video: what the benchmarks' OpenCV peers (bench_opencv_canny.cpp,
 * bench_opencv_lk.cpp) share behind their C APIs.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCVB_OPENCV_HPP
#define GCVB_OPENCV_HPP

#include <opencv2/core/utility.hpp>

#include <cstddef>
#include <cstdio>
#include <exception>

namespace gcvb {

/* Restores OpenCV's thread count however the call ends. */
struct ThreadGuard {
  int prev;
  ThreadGuard () : prev (cv::getNumThreads ()) {}
  ~ThreadGuard () { cv::setNumThreads (prev); }
};

/* "opencv: <what>" of the exception being handled into err: call it from a
 * catch (...) block (cv::Exception is a std::exception). */
inline void
describe_exception (char *err, size_t err_len)
{
  try {
    throw;
  } catch (const std::exception & e) {
    std::snprintf (err, err_len, "opencv: %s", e.what ());
  } catch (...) {
    std::snprintf (err, err_len, "opencv: unknown exception");
  }
}

}  // namespace gcvb

#endif
