#!/usr/bin/env python3
# gst-cuda-video example: the motion vectors of a video, read in Python
# through the GstCudaVideo-1.0 typelib.
#
#   python3 examples/motion_vectors.py [--input VIDEO] [--element cpumotionest] [--reference FILE]
#
# Runs the video (any file decodebin plays; by default videotestsrc's moving
# ball) through cudamotionest (or cpumotionest) into an appsink and prints,
# for each frame, one JSON line with the frame number and the count and sum
# of dx and dy (pixels) of the vectors read from its GstCudaVideoMotionMeta:
#
#   {"frame": 1, "count": 1200, "sum_dx": 130.0, "sum_dy": 130.0}
#
# With --reference FILE the element also writes its own JSON-lines export of
# this run into FILE (its location property), and the script compares its
# lines with the export's at the end: exit status 1 on any difference.
#
# From a build tree (nothing installed):
#   GST_PLUGIN_PATH=build/gst GI_TYPELIB_PATH=build/gst/cudavideo \
#   LD_LIBRARY_PATH=build/gst/cudavideo python3 examples/motion_vectors.py
#
# Needs PyGObject and GStreamer's introspection data (Debian: python3-gi,
# gir1.2-gstreamer-1.0) and the GstCudaVideo-1.0 typelib of this project.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import json
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCudaVideo", "1.0")
from gi.repository import Gst, GstCudaVideo  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description="Per-frame sums of the motion vectors of a video, read through "
                                "the GstCudaVideo typelib.")
    p.add_argument("--input", help="a video file (default: videotestsrc pattern=ball)")
    p.add_argument("--frames", type=int, default=30, help="frames of the test pattern (default 30)")
    p.add_argument("--element", default="cudamotionest", choices=("cudamotionest", "cpumotionest"),
                   help="the motion estimator (default cudamotionest: the GPU, or its CPU fallback)")
    p.add_argument("--options", default="search-range-x=24 search-range-y=24",
                   help="the element's properties, as gst-launch-1.0 takes them")
    p.add_argument("--reference", metavar="FILE",
                   help="have the element export its vectors into FILE and compare them with ours")
    return p.parse_args()


def summary(meta):
    """The frame's line: count and sums (pixels) of the vectors, read as fields."""
    vectors = meta.get_vectors()
    return {"frame": meta.frame, "count": len(vectors),
            "sum_dx": sum(v.dx for v in vectors) / meta.vector_scale,
            "sum_dy": sum(v.dy for v in vectors) / meta.vector_scale}


def summary_of_export(line):
    """The same from a line of the element's JSON-lines export (pixels)."""
    j = json.loads(line)
    return {"frame": j["frame"], "count": len(j["blocks"]),
            "sum_dx": sum(b[2] for b in j["blocks"]), "sum_dy": sum(b[3] for b in j["blocks"])}


def compare(lines, reference):
    """What differs between our lines and those of the export in the file @reference: a list of
    (ours, exported) pairs (None where one side has no such frame); empty when they are equal."""
    with open(reference) as f:
        exported = [summary_of_export(line) for line in f if line.strip()]
    n = max(len(lines), len(exported))
    pad = [None] * n
    return [(a, b) for a, b in zip(lines + pad[len(lines):], exported + pad[len(exported):]) if a != b]


def main():
    args = parse_args()
    Gst.init([])
    if args.input:
        src = f'filesrc location="{args.input}" ! decodebin ! videoconvert ! video/x-raw,format=I420'
    else:
        src = f"videotestsrc pattern=ball num-buffers={args.frames} ! video/x-raw,format=I420,width=640,height=480"
    element = f"{args.element} name=motion {args.options}"
    if args.reference:
        # the export of this run alone, whether the element appends or not
        open(args.reference, "w").close()
        element += f' location="{args.reference}"'
    pipeline = Gst.parse_launch(f"{src} ! {element} ! appsink name=sink sync=false")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    lines = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        meta = GstCudaVideo.buffer_get_cuda_video_motion_meta(sample.get_buffer(), GstCudaVideo.MotionKind.BLOCKS)
        if meta is None:
            print("a buffer without a motion meta", file=sys.stderr)
            continue
        lines.append(summary(meta))
        print(json.dumps(lines[-1]), flush=True)
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    # NULL closes the export
    pipeline.set_state(Gst.State.NULL)
    if msg is not None:
        print("error:", msg.parse_error()[0].message, file=sys.stderr)
        return 1
    if args.reference:
        differences = compare(lines, args.reference)
        if differences:
            print(f"{len(differences)} frames differ from {args.reference}:", file=sys.stderr)
            for a, b in differences[:5]:
                print(f"  read {a}\n  file {b}", file=sys.stderr)
            return 1
        print(f"{len(lines)} frames, equal to {args.reference}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
