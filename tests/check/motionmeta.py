#!/usr/bin/env python3
"""Reads cpumotionest's GstCudaVideoMotionMeta from Python through gi and
the GstCudaVideo-1.0 typelib.

Pushes a crop of tests/data/coffee.png and the same crop moved 3 pixels to
the right and 2 down (appsrc, GRAY8) through cpumotionest into an appsink,
and checks what a Python program sees: the meta on every buffer, the grid,
has-reference false then true, and the vector (12, 8) quarter pixels with
SAD 0 on the interior blocks.  Exit 0 pass, 1 fail, 77 skip (no gi, no
typelib or no plugin)."""
import sys

from gcv_gi import gst_and_typelib, load_gray, photo_path, require_elements

Gst, GstCudaVideo = gst_and_typelib()
require_elements(Gst, "cpumotionest")

W, H, DX, DY, BLOCK = 160, 96, 3, 2, 16


rows = load_gray(photo_path("coffee.png"))
x0, y0 = 200, 120
# previous frame: the crop at (x0, y0); current: the crop at (x0 - DX, y0 - DY),
# so the previous frame's content appears DX right, DY down
prev = b"".join(rows[y0 + y][x0:x0 + W] for y in range(H))
cur = b"".join(rows[y0 - DY + y][x0 - DX:x0 - DX + W] for y in range(H))

pipe = Gst.parse_launch(f"appsrc name=src format=time caps=video/x-raw,format=GRAY8,width={W},height={H},"
                        "framerate=30/1 ! cpumotionest search-range-x=6 search-range-y=6 "
                        "! appsink name=sink sync=false")
src, sink = pipe.get_by_name("src"), pipe.get_by_name("sink")
pipe.set_state(Gst.State.PLAYING)
for i, frame in enumerate((prev, cur)):
    buf = Gst.Buffer.new_wrapped(frame)
    buf.pts = i * Gst.SECOND // 30
    src.emit("push-buffer", buf)
src.emit("end-of-stream")

failures = []
for i in range(2):
    sample = sink.emit("pull-sample")
    if sample is None:
        failures.append(f"frame {i}: no sample")
        break
    meta = GstCudaVideo.buffer_get_cuda_video_motion_meta(sample.get_buffer(), GstCudaVideo.MotionKind.BLOCKS)
    if meta is None:
        failures.append(f"frame {i}: no GstCudaVideoMotionMeta")
        continue
    gw, gh = meta.grid_width, meta.grid_height
    if (gw, gh) != (W // BLOCK, H // BLOCK) or meta.vector_scale != 4:
        failures.append(f"frame {i}: grid {gw}x{gh}, scale {meta.vector_scale}")
    if meta.has_reference != (i == 1):
        failures.append(f"frame {i}: has-reference {meta.has_reference}")
    records = [(v.x, v.y, v.dx, v.dy, v.sad) for v in meta.get_vectors()]
    if len(records) != gw * gh:
        failures.append(f"frame {i}: {len(records)} records")
    for x, y, dx, dy, sad in records:
        interior = BLOCK <= x and BLOCK <= y and x + 2 * BLOCK <= W and y + 2 * BLOCK <= H
        want = (4 * DX, 4 * DY, 0) if i == 1 else (0, 0, 0)
        if (i == 0 or interior) and (dx, dy, sad) != want:
            failures.append(f"frame {i} block ({x},{y}): ({dx},{dy}) sad {sad}, expected {want}")
pipe.set_state(Gst.State.NULL)

if failures:
    print("FAIL:\n  " + "\n  ".join(failures[:20]))
    sys.exit(1)
print("PASS: meta read through gi, vectors as expected")
