#!/usr/bin/env python3
"""What scripts/gpu-peers.sh's cudascale part needs from Python (numpy and
OpenCV, the GPU host's): test frames, a comparison of two raw frames, and
an element's time in a gst-launch pipeline.

  gpu-peers-helper.py frames DIR
      DIR/in-1920x1080.raw and DIR/in-3840x2160.raw: RGBA frames made from
      tests/data/chelsea.png (scaled, mirror-tiled), never flat.
  gpu-peers-helper.py compare OUT REF
      "x% of samples differ, max m, RMS r" between two raw uint8 frames of
      the same size (or why not).
  gpu-peers-helper.py time --env A.sh[,B.sh] [--plugin-path DIR] --in W,H --out W,H --element EL
      EL's milliseconds a frame in videotestsrc ! RGBA W x H ! cudaupload !
      EL ! video/x-raw(memory:CUDAMemory),OUT ! fakesink, run by
      gst-launch-1.0 with the env files sourced in order (GST_PLUGIN_PATH
      set to DIR, else unset): the slope between 150 and 1050
      frames (start-up cancels) minus the same pipeline without EL (the
      source and the upload cancel), the median of three.

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def frames(out_dir):
    import cv2
    import numpy as np
    photo = cv2.imread(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                                    "chelsea.png"), cv2.IMREAD_COLOR)
    for w, h in ((1920, 1080), (3840, 2160)):
        s = h / photo.shape[0] / 1.7
        img = cv2.resize(photo, (int(photo.shape[1] * s), int(photo.shape[0] * s)), interpolation=cv2.INTER_AREA)
        tile = np.concatenate([img, img[:, ::-1]], 1)
        tile = np.concatenate([tile, tile[::-1]], 0)
        tile = np.tile(tile, (h // tile.shape[0] + 1, w // tile.shape[1] + 1, 1))[:h, :w]
        rgba = cv2.cvtColor(np.ascontiguousarray(tile), cv2.COLOR_BGR2RGBA)
        rgba.tofile(os.path.join(out_dir, "in-%dx%d.raw" % (w, h)))
    return 0


def compare(out, ref):
    import numpy as np
    try:
        a, b = np.fromfile(out, np.uint8).astype(np.int32), np.fromfile(ref, np.uint8).astype(np.int32)
    except OSError as e:
        print("no output (%s)" % e.strerror)
        return 0
    if a.size != b.size or a.size == 0:
        print("no output to compare (%d bytes against %d)" % (a.size, b.size))
        return 0
    d = np.abs(a - b)
    print("%.1f%% of samples differ, max %d, RMS %.3f" % (100.0 * np.count_nonzero(d) / d.size, d.max(),
                                                         float(np.sqrt(np.mean(d.astype(np.float64) ** 2)))))
    return 0


def time_element(args):
    opts = dict(zip(args[::2], args[1::2]))
    iw, ih = opts["--in"].split(",")
    ow, oh = opts["--out"].split(",")
    plugin = opts.get("--plugin-path", "")

    def run(n, element):
        mid = " ! %s ! video/x-raw(memory:CUDAMemory),width=%s,height=%s" % (element, ow, oh) if element else ""
        pipe = ("videotestsrc pattern=ball num-buffers=%d ! video/x-raw,format=RGBA,width=%s,height=%s,"
                "framerate=30/1 ! cudaupload%s ! fakesink sync=false" % (n, iw, ih, mid))
        cmd = "%s && %s && exec gst-launch-1.0 -q %s" % (
            " && ".join("source %s" % shlex.quote(e) for e in opts["--env"].split(",")),
            "export GST_PLUGIN_PATH=%s" % shlex.quote(plugin) if plugin else "unset GST_PLUGIN_PATH",
            " ".join(shlex.quote(p) for p in pipe.split()))
        t0 = time.monotonic()
        r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError((r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1])
        return time.monotonic() - t0

    try:
        est = []
        for _ in range(3):
            slope = (run(1050, opts["--element"]) - run(150, opts["--element"])) / 900
            base = (run(1050, None) - run(150, None)) / 900
            est.append((slope - base) * 1000)
        print("%.3f" % statistics.median(est))
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print("nan  (%s)" % e)
    return 0


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "frames":
        return frames(sys.argv[2])
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        return compare(sys.argv[2], sys.argv[3])
    if len(sys.argv) >= 2 and sys.argv[1] == "time":
        return time_element(sys.argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
