#!/usr/bin/env python3
"""gst-cuda-video example: motion vectors in a Python program.

    GST_PLUGIN_PATH=build/gst python3 examples/motionest.py [ELEMENT] [FRAMES]

Runs videotestsrc (a moving ball) through ELEMENT (cudamotionest by default,
or cpumotionest) into an appsink and prints, for each frame, the mean motion
of the blocks that moved and the largest vector, read from the
GstCudaVideoMotionMeta that the element attaches to every buffer.  The meta
is a GstCustomMeta: its structure holds the grid and a "vectors" buffer of
records (x, y, dx, dy, sad: five 32-bit integers each, dx and dy in quarter
pixels).  Needs python3-gi and gir1.2-gstreamer-1.0."""
import struct
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def vectors_of(buffer):
    """(structure, [(x, y, dx_px, dy_px, sad), ...]) or (None, [])."""
    meta = buffer.get_custom_meta("GstCudaVideoMotionMeta")
    if meta is None:
        return None, []
    s = meta.get_structure()
    scale = s.get_value("vector-scale")
    records = s.get_value("vectors")
    raw = records.extract_dup(0, records.get_size())
    return s, [(x, y, dx / scale, dy / scale, sad) for x, y, dx, dy, sad in struct.iter_unpack("=iiiiI", raw)]


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
        s, vectors = vectors_of(sample.get_buffer())
        if s is None:
            print("buffer without motion meta")
            continue
        frame = s.get_value("frame")
        if not s.get_value("has-reference"):
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
