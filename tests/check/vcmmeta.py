#!/usr/bin/env python3
"""Reads cpuvcm's tracked points (GstCudaVideoMotionMeta, kind "points")
from Python through gi.

Pushes three crops of tests/data/coffee.png (appsrc, GRAY8), each moved 3
pixels right and 2 up from the last, through cpuvcm into an appsink, and
checks what a Python program sees: the meta on every buffer with kind
"points", has-reference false (no points) on the first frame, then
n-points records of 5 floats (x, y, dx, dy, score) whose median vector is
(3, -2).  Exit 0 pass, 1 fail, 77 skip (no gi or no plugin)."""
import struct
import sys

import gcvgi

Gst = gcvgi.gst()
gcvgi.require(Gst, "cpuvcm")

W, H, DX, DY, N = 192, 128, 3, -2, 3


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


rows = gcvgi.load_gray(gcvgi.photo_path("coffee.png"))
x0, y0 = 200, 120
# frame t: the crop at (x0 - t DX, y0 - t DY): the content moves (DX, DY) a frame
frames = [b"".join(rows[y0 - t * DY + y][x0 - t * DX:x0 - t * DX + W] for y in range(H))
          for t in range(N)]

pipe = Gst.parse_launch(f"appsrc name=src format=time caps=video/x-raw,format=GRAY8,width={W},height={H},"
                        "framerate=30/1 ! cpuvcm max-points=500 ! appsink name=sink sync=false")
src, sink = pipe.get_by_name("src"), pipe.get_by_name("sink")
pipe.set_state(Gst.State.PLAYING)
for i, frame in enumerate(frames):
    buf = Gst.Buffer.new_wrapped(frame)
    buf.pts = i * Gst.SECOND // 30
    src.emit("push-buffer", buf)
src.emit("end-of-stream")

failures = []
for i in range(N):
    sample = sink.emit("pull-sample")
    if sample is None:
        failures.append(f"frame {i}: no sample")
        break
    meta = sample.get_buffer().get_custom_meta("GstCudaVideoMotionMeta")
    if meta is None:
        failures.append(f"frame {i}: no GstCudaVideoMotionMeta")
        continue
    s = meta.get_structure()
    if s.get_value("kind") != "points":
        failures.append(f"frame {i}: kind {s.get_value('kind')}")
        continue
    if s.get_value("has-reference") != (i > 0) or s.get_value("frame") != i:
        failures.append(f"frame {i}: has-reference {s.get_value('has-reference')}, "
                        f"frame {s.get_value('frame')}")
    if (s.get_value("width"), s.get_value("height")) != (W, H):
        failures.append(f"frame {i}: size {s.get_value('width')}x{s.get_value('height')}")
    n = s.get_value("n-points")
    vb = s.get_value("vectors")
    points = list(struct.iter_unpack("=fffff", vb.extract_dup(0, vb.get_size())))
    if len(points) != n or n > 500:
        failures.append(f"frame {i}: {len(points)} records, n-points {n}")
    if i == 0:
        if n != 0:
            failures.append(f"frame 0: {n} points without a reference")
        continue
    if n < 20:
        failures.append(f"frame {i}: only {n} points")
        continue
    mdx, mdy = median([p[2] for p in points]), median([p[3] for p in points])
    if abs(mdx - DX) > 0.5 or abs(mdy - DY) > 0.5:
        failures.append(f"frame {i}: median vector ({mdx:.3f}, {mdy:.3f}), expected ({DX}, {DY})")
    for x, y, dx, dy, score in points:
        if not (0 <= x < W and 0 <= y < H and x == int(x) and y == int(y) and score <= 1.0 + 1e-6):
            failures.append(f"frame {i}: bad record {(x, y, dx, dy, score)}")
            break
pipe.set_state(Gst.State.NULL)

if failures:
    print("FAIL:\n  " + "\n  ".join(failures[:20]))
    sys.exit(1)
print("PASS: points meta read through gi, vectors as expected")
