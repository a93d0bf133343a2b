#!/usr/bin/env python3
"""gst-cuda-video example: motion vectors in a Python program.

    GST_PLUGIN_PATH=build/gst GI_TYPELIB_PATH=build/gst/cudavideo \
    LD_LIBRARY_PATH=build/gst/cudavideo python3 examples/motionest.py [ELEMENT] [FRAMES]

(the last two variables only until the project is installed).  Runs
videotestsrc (a moving ball) through ELEMENT (cudamotionest by default, or
cpumotionest) into an appsink and prints, for each frame, the mean motion of
the blocks that moved and the largest vector, read from the
GstCudaVideoMotionMeta that the element attaches to every buffer, through
the GstCudaVideo-1.0 typelib: the meta's fields (grid, frame, timestamps) and
its records as GstCudaVideo.MotionVector (x, y, dx, dy in quarter pixels,
sad).  Needs python3-gi, gir1.2-gstreamer-1.0 and this project's typelib."""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCudaVideo", "1.0")
from gi.repository import Gst, GstCudaVideo  # noqa: E402


def vectors_of(buffer):
    """(meta, [(x, y, dx_px, dy_px, sad), ...]) or (None, [])."""
    meta = GstCudaVideo.buffer_get_cuda_video_motion_meta(buffer, GstCudaVideo.MotionKind.BLOCKS)
    if meta is None:
        return None, []
    scale = meta.vector_scale
    return meta, [(v.x, v.y, v.dx / scale, v.dy / scale, v.sad) for v in meta.get_vectors()]


def main():
    element = sys.argv[1] if len(sys.argv) > 1 else "cudamotionest"
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    Gst.init([])  # not None: GStreamer 1.28's typelib refuses it with PyGObject 3.42
    pipeline = Gst.parse_launch(
        f"videotestsrc pattern=ball num-buffers={frames} ! video/x-raw,format=I420,width=640,height=480 "
        f"! {element} search-range-x=24 search-range-y=24 ! appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        meta, vectors = vectors_of(sample.get_buffer())
        if meta is None:
            print("buffer without motion meta")
            continue
        frame = meta.frame
        if not meta.has_reference:
            print(f"frame {frame:3d}: first frame, no vectors yet")
            continue
        moved = [v for v in vectors if v[2] or v[3]]
        if not moved:
            print(f"frame {frame:3d}: nothing moved")
            continue
        mean_dx = sum(v[2] for v in moved) / len(moved)
        mean_dy = sum(v[3] for v in moved) / len(moved)
        x, y, dx, dy, sad = max(moved, key=lambda v: abs(v[2]) + abs(v[3]))
        print(f"frame {frame:3d}: {len(moved)} of {len(vectors)} blocks moved, mean ({mean_dx:+.2f}, "
              f"{mean_dy:+.2f}) px; largest: block ({x}, {y}) by ({dx:+.2f}, {dy:+.2f}) px, SAD {sad}")
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
