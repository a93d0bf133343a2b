#!/usr/bin/env python3
"""gst-cuda-video example: tracked points in a Python program.

    GST_PLUGIN_PATH=build/gst GI_TYPELIB_PATH=build/gst/cudavideo \
    LD_LIBRARY_PATH=build/gst/cudavideo python3 examples/vcm.py [ELEMENT] [SOURCE]

Runs a video through ELEMENT (cudavcm by default, or cpuvcm) into an
appsink and prints, for each frame, how many points were tracked, their
median vector and the strongest few, read from the GstCudaVideoMotionMeta
(kind "points") the element attaches to every buffer.  SOURCE is "ball"
(videotestsrc pattern=ball, the default) or "vtest" (tests/data/vtest-*.png:
real frames of people walking).  The points are read through the
GstCudaVideo-1.0 typelib as GstCudaVideo.MotionPoint records (x, y, dx, dy,
score; the point (x, y) of the previous frame went to (x + dx, y + dy)).
Needs python3-gi, gir1.2-gstreamer-1.0 and this project's typelib."""
import os
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCudaVideo", "1.0")
from gi.repository import Gst, GstCudaVideo  # noqa: E402


def points_of(buffer):
    """(meta, [(x, y, dx, dy, score), ...]) or (None, [])."""
    meta = GstCudaVideo.buffer_get_cuda_video_motion_meta(buffer, GstCudaVideo.MotionKind.POINTS)
    if meta is None:
        return None, []
    return meta, [(p.x, p.y, p.dx, p.dy, p.score) for p in meta.get_points()]


def median(values):
    v = sorted(values)
    return v[len(v) // 2]


def main():
    element = sys.argv[1] if len(sys.argv) > 1 else "cudavcm"
    source = sys.argv[2] if len(sys.argv) > 2 else "ball"
    Gst.init([])  # not None: GStreamer 1.28's typelib refuses it with PyGObject 3.42
    if source == "vtest":
        data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")
        src = (f'multifilesrc location="{data}/vtest-%d.png" start-index=100 stop-index=103 '
               'caps=image/png,framerate=10/1 ! pngdec ! videoconvert ! video/x-raw,format=I420')
    else:
        src = "videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=I420,width=640,height=480"
    pipeline = Gst.parse_launch(f"{src} ! {element} max-points=512 ! appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        meta, points = points_of(sample.get_buffer())
        if meta is None:
            print("buffer without a points meta")
            continue
        frame = meta.frame
        if not meta.has_reference:
            print(f"frame {frame:3d}: first frame, no points yet")
            continue
        if not points:
            print(f"frame {frame:3d}: nothing moved")
            continue
        print(f"frame {frame:3d}: {len(points)} points, median vector "
              f"({median([p[2] for p in points]):+.2f}, {median([p[3] for p in points]):+.2f}) px")
        for x, y, dx, dy, score in sorted(points, key=lambda p: -p[4])[:3]:
            print(f"    ({x:4.0f}, {y:4.0f}) -> ({x + dx:7.2f}, {y + dy:7.2f})  score {score:.3f}")
    bus = pipeline.get_bus()
    msg = bus.pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg is not None:
        err, _ = msg.parse_error()
        print("error:", err.message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
