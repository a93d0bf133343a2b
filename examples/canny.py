#!/usr/bin/env python3
# gst-cuda-video example: the edges of a PNG with cudacanny from Python.
#
#   GST_PLUGIN_PATH=build/gst python3 examples/canny.py tests/data/camera.png edges.png
#
# Runs  filesrc ! pngdec ! videoconvert ! cudacanny ! videoconvert ! pngenc ! filesink
# built with Gst.parse_launch, then prints which backend ran and the element's
# stats.  Needs PyGObject and GStreamer's introspection data (Debian:
# python3-gi, gir1.2-gstreamer-1.0).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def parse_args():
    p = argparse.ArgumentParser(description="Canny edge detection of a PNG with cudacanny / cpucanny.")
    p.add_argument("input", help="input PNG")
    p.add_argument("output", nargs="?", default="edges.png", help="output PNG (default: edges.png)")
    p.add_argument("--low", type=float, default=50.0, help="low threshold (default 50)")
    p.add_argument("--high", type=float, default=150.0, help="high threshold (default 150)")
    p.add_argument("--blur-size", type=int, choices=(0, 3, 5, 7), default=5,
                   help="Gaussian blur size, 0 = none (default 5)")
    p.add_argument("--blur-sigma", type=float, default=1.4, help="Gaussian sigma (default 1.4)")
    p.add_argument("--l2", action="store_true", help="Euclidean gradient magnitude")
    p.add_argument("--mode", choices=("edges", "magnitude", "overlay"), default="edges",
                   help="edges (default), magnitude, or the input with the edges painted on it")
    p.add_argument("--overlay-color", default="0xffff0000",
                   help="edge colour for --mode overlay, 0xAARRGGBB (default opaque red)")
    p.add_argument("--element", choices=("cudacanny", "cpucanny"), default="cudacanny",
                   help="cudacanny (GPU, falls back to the CPU) or cpucanny")
    p.add_argument("--no-fallback", action="store_true",
                   help="cudacanny: fail instead of running on the CPU when there is no GPU")
    return p.parse_args()


def main():
    args = parse_args()
    if args.low > args.high:
        sys.exit("error: --low must not exceed --high")
    try:
        overlay_color = int(args.overlay_color, 0)
    except ValueError:
        sys.exit("error: --overlay-color must be a number such as 0xff00ff00")

    Gst.init([])  # not None: GStreamer 1.28's typelib refuses it with PyGObject 3.42
    if Gst.ElementFactory.find(args.element) is None:
        sys.exit(f"error: no element {args.element}; set GST_PLUGIN_PATH to the directory "
                 "holding libgstcudavideo.so (e.g. build/gst)")

    # overlay paints into the input frame, so give it an RGB format; edges and
    # magnitude take the luma of whatever videoconvert offers.
    to_canny = "video/x-raw,format=RGBA ! " if args.mode == "overlay" else ""
    pipeline = Gst.parse_launch(
        "filesrc name=src ! pngdec ! videoconvert ! " + to_canny +
        f"{args.element} name=canny ! videoconvert ! pngenc ! filesink name=sink")
    # File names are set as properties, so spaces or '!' in them need no quoting.
    pipeline.get_by_name("src").set_property("location", args.input)
    pipeline.get_by_name("sink").set_property("location", args.output)

    canny = pipeline.get_by_name("canny")
    canny.set_property("low-threshold", args.low)
    canny.set_property("high-threshold", args.high)
    canny.set_property("blur-size", args.blur_size)
    canny.set_property("blur-sigma", args.blur_sigma)
    canny.set_property("l2-gradient", args.l2)
    canny.set_property("overlay-color", overlay_color)
    Gst.util_set_object_arg(canny, "mode", args.mode)   # enum by its nick
    if args.no_fallback and canny.find_property("fallback") is not None:
        canny.set_property("fallback", False)

    bus = pipeline.get_bus()
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        msg = bus.pop_filtered(Gst.MessageType.ERROR)   # before NULL, which flushes the bus
        pipeline.set_state(Gst.State.NULL)
        if msg is None:
            sys.exit("error: cannot start the pipeline")
        err, dbg = msg.parse_error()
        sys.exit(f"error: cannot start the pipeline: {msg.src.get_name()}: {err.message}\n  ({dbg})")

    ok = True
    while True:
        msg = bus.timed_pop_filtered(
            30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.WARNING)
        if msg is None:
            print("error: timed out", file=sys.stderr)
            ok = False
            break
        if msg.type == Gst.MessageType.WARNING:
            err, dbg = msg.parse_warning()
            print(f"warning from {msg.src.get_name()}: {err.message}", file=sys.stderr)
            continue
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print(f"error from {msg.src.get_name()}: {err.message}\n  ({dbg})", file=sys.stderr)
            ok = False
        break

    # Read before stopping: the statistics belong to the running element.
    backend = canny.get_property("backend")
    stats = canny.get_property("stats")
    pipeline.set_state(Gst.State.NULL)
    if not ok:
        return 1

    print(f"{args.input} -> {args.output} ({args.element}, mode={args.mode})")
    print(f"backend: {backend}")
    if stats is not None:
        fields = {stats.nth_field_name(i): stats.get_value(stats.nth_field_name(i))
                  for i in range(stats.n_fields())}
        print("stats: " + ", ".join(
            f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in fields.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
