/* gst-cuda-video: benchmark helpers written in other languages.
 *
 *  - bench_opencv_canny.cpp (bench-canny, only when OpenCV 4 is found,
 *    GCVB_HAVE_OPENCV): times cv::Canny (optionally after cv::GaussianBlur)
 *    as a peer.
 *  - bench_cuda_mem.cu (in gcv-bench, only when built with CUDA,
 *    GCV_HAVE_CUDA): the device's theoretical and measured memory bandwidth,
 *    which gcv-cuda.h does not expose.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GCV_BENCH_CANNY_H
#define GCV_BENCH_CANNY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* OpenCV peer.  frames: n_frames GRAY8 images of width x height, rows
 * `stride` bytes apart; run r uses frames[r % n_frames].  blur_size 0:
 * cv::Canny alone; else cv::GaussianBlur (blur_size x blur_size, blur_sigma,
 * BORDER_REFLECT_101) then cv::Canny.  n_threads: 1 = cv::setNumThreads (1),
 * 0 = OpenCV's default (all cores).  Writes the median wall time of `runs`
 * timed runs (after `warmup` untimed ones) to *median_ms and the mean to
 * *mean_ms, the thread count OpenCV reported to *threads_used, and, when out0
 * is not NULL, the result for frames[0] to out0 (rows out0_stride apart).
 * Returns 0, or -1 with a message in err. */
int gcvb_opencv_canny_time (const uint8_t * const *frames, int n_frames, int width, int height,
    size_t stride, int blur_size, double blur_sigma, double low, double high, int l2_gradient,
    int n_threads, int warmup, int runs, double *median_ms, double *mean_ms, int *threads_used,
    uint8_t * out0, size_t out0_stride, char *err, size_t err_len);

/* "4.6.0" */
const char *gcvb_opencv_version (void);

/* Device memory: theoretical peak from the memory clock and bus width
 * (2 transfers per clock), 0 when the device does not report them, and the
 * bandwidth a device-to-device cudaMemcpy of `bytes` reaches (read + write
 * bytes per second, median of `runs`).  GB = 1e9 bytes.  Returns 0, or -1
 * with a message in err. */
int gcvb_cuda_mem_bandwidth (int device, size_t bytes, int runs, double *peak_gbps,
    double *copy_gbps, char *err, size_t err_len);

/* The device's PCI bus id ("0000:1B:00.0"); 0, or -1. */
int gcvb_cuda_pci_bus_id (int device, char *buf, int len);

#ifdef __cplusplus
}
#endif
#endif /* GCV_BENCH_CANNY_H */
