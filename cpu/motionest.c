/* gst-cuda-video: motion estimation, what both backends share on the host.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "motionest.h"

#include <stdio.h>

const char *
gcv_motion_params_check (const GcvMotionParams * p)
{
  static __thread char msg[160];

  if (!p)
    return "no parameters";
  if (p->block_width < GCV_MOTION_MIN_BLOCK || p->block_width > GCV_MOTION_MAX_BLOCK
      || p->block_height < GCV_MOTION_MIN_BLOCK || p->block_height > GCV_MOTION_MAX_BLOCK) {
    snprintf (msg, sizeof (msg), "block size %dx%d: block-width and block-height must be %d .. %d",
        p->block_width, p->block_height, GCV_MOTION_MIN_BLOCK, GCV_MOTION_MAX_BLOCK);
    return msg;
  }
  if (p->range_x < 0 || p->range_x > GCV_MOTION_MAX_RANGE || p->range_y < 0
      || p->range_y > GCV_MOTION_MAX_RANGE) {
    snprintf (msg, sizeof (msg), "search range %dx%d: search-range-x and search-range-y must be 0 .. %d",
        p->range_x, p->range_y, GCV_MOTION_MAX_RANGE);
    return msg;
  }
  if (p->subpel != GCV_MOTION_SUBPEL_INTEGER && p->subpel != GCV_MOTION_SUBPEL_HALF
      && p->subpel != GCV_MOTION_SUBPEL_QUARTER) {
    snprintf (msg, sizeof (msg), "subpel %d: must be integer (1), half (2) or quarter (4)", (int) p->subpel);
    return msg;
  }
  if ((unsigned) p->method > GCV_MOTION_METHOD_MODS) {
    snprintf (msg, sizeof (msg), "method %d: must be full (0) or mods (1)", (int) p->method);
    return msg;
  }
  if (!(p->zero_threshold >= 0.0 && p->zero_threshold <= 255.0)) {
    snprintf (msg, sizeof (msg), "zero-threshold %g: must be 0 .. 255", p->zero_threshold);
    return msg;
  }
  return NULL;
}
