#!/usr/bin/env python3
"""Reads cpuvcm's tracked points (GstCudaVideoMotionMeta, kind "points")
from Python through gi and the GstCudaVideo-1.0 typelib.

Pushes three crops of tests/data/coffee.png (appsrc, GRAY8), each moved 3
pixels right and 2 up from the last, through cpuvcm into an appsink, and
checks what a Python program sees: the meta on every buffer with kind
"points", has-reference false (no points) on the first frame, then
n-points records of 5 floats (x, y, dx, dy, score) whose median vector is
(3, -2).  Exit 0 pass, 1 fail, 77 skip (no gi, no typelib or no plugin)."""
import sys

from gcv_gi import gst_and_typelib, load_gray, photo_path, require_elements

Gst, GstCudaVideo = gst_and_typelib()
require_elements(Gst, "cpuvcm")

W, H, DX, DY, N = 192, 128, 3, -2, 3


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


rows = load_gray(photo_path("coffee.png"))
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
    meta = GstCudaVideo.buffer_get_cuda_video_motion_meta(sample.get_buffer(), GstCudaVideo.MotionKind.POINTS)
    if meta is None:
        failures.append(f"frame {i}: no points meta")
        continue
    if meta.has_reference != (i > 0) or meta.frame != i:
        failures.append(f"frame {i}: has-reference {meta.has_reference}, frame {meta.frame}")
    if (meta.width, meta.height) != (W, H):
        failures.append(f"frame {i}: size {meta.width}x{meta.height}")
    n = meta.n_records
    points = [(p.x, p.y, p.dx, p.dy, p.score) for p in meta.get_points()]
    if len(points) != n or n > 500:
        failures.append(f"frame {i}: {len(points)} records, n_records {n}")
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
