#!/usr/bin/env python3
"""The motion metas read from Python through the GstCudaVideo-1.0 typelib.

Runs a moving ball through cpumotionest (JSON-lines export) and cpuvcm (its
own export), then into a tee whose branches end in appsinks: as they are,
through videoconvert to RGBA, through videoscale and cpubsplinescale /
cudabsplinescale to 320x180, and through videoflip and videocrop (when
gst-plugins-good is there).  Checks, with GstCudaVideo alone:

- every buffer carries both metas, one per element, told apart by kind and
  source, with their frame, timestamps (the reference's too) and geometry;
- the vectors and points read as fields equal the elements' own exports;
- videoconvert keeps both metas unchanged; the scalers rescale them (block
  positions and vectors rounded as documented, points exactly); flip and
  crop drop them.

Exit 0 pass, 1 fail, 77 skip (no gi, no typelib, no plugin)."""
import json
import math
import os
import struct
import tempfile

from gcv_gi import Failures, gst_and_typelib, require_elements

Gst, GstCudaVideo = gst_and_typelib()
require_elements(Gst, "cpumotionest", "cpuvcm", "cpubsplinescale", "cudabsplinescale")
require_elements(Gst, "videotestsrc", "videoconvert", "videoscale", "appsink", "tee", "queue", why="gst-plugins-base")
have_good = all(Gst.ElementFactory.find(f) for f in ("videoflip", "videocrop"))

W, H, SW, SH, FRAMES = 160, 120, 320, 180, 6
BLOCKS, POINTS = GstCudaVideo.MotionKind.BLOCKS, GstCudaVideo.MotionKind.POINTS
failures = Failures()
check = failures.check


def round_half_away(v):
    """C's lround."""
    return int(math.copysign(math.floor(abs(v) + 0.5), v))


def f32(v):
    return struct.unpack("=f", struct.pack("=f", v))[0]


tmp = tempfile.mkdtemp(prefix="gcv-typelib-")
blocks_json, points_json = os.path.join(tmp, "blocks.jsonl"), os.path.join(tmp, "points.jsonl")
branches = {
    "direct": "",
    "rgba": "videoconvert ! video/x-raw,format=RGBA ! ",
    "videoscale": f"videoscale ! video/x-raw,width={SW},height={SH} ! ",
    "cpubsplinescale": f"cpubsplinescale ! video/x-raw,width={SW},height={SH} ! ",
    "cudabsplinescale": f"cudabsplinescale ! video/x-raw,width={SW},height={SH} ! ",
    "passthrough": "cpubsplinescale ! ",
}
if have_good:
    branches["videoflip"] = "videoflip video-direction=horiz ! "
    branches["videocrop"] = "videocrop left=8 top=4 ! "
desc = (f"videotestsrc pattern=ball num-buffers={FRAMES} ! video/x-raw,format=I420,width={W},height={H},framerate=30/1 "
        f"! cpumotionest name=me location={blocks_json} ! cpuvcm name=vcm location={points_json} ! tee name=t ")
for name, chain in branches.items():
    desc += f" t. ! queue ! {chain}appsink name={name} sync=false"
pipe = Gst.parse_launch(desc)
pipe.set_state(Gst.State.PLAYING)
got = {}
for name in branches:
    sink = pipe.get_by_name(name)
    got[name] = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        got[name].append(sample.get_buffer())
msg = pipe.get_bus().pop_filtered(Gst.MessageType.ERROR)
pipe.set_state(Gst.State.NULL)
if msg is not None:
    failures.append("pipeline error: " + msg.parse_error()[0].message)
    failures.exit("")

with open(blocks_json) as f:
    blocks_ref = [json.loads(line) for line in f]
with open(points_json) as f:
    points_ref = [json.loads(line) for line in f]
for name in branches:
    check(len(got[name]) == FRAMES, f"{name}: {len(got[name])} buffers of {FRAMES}")
check(len(blocks_ref) == FRAMES and len(points_ref) == FRAMES,
      f"exports: {len(blocks_ref)} and {len(points_ref)} lines")


def metas_of(buf, what):
    """{kind: meta}, checking there is one meta of each kind, from the right element."""
    metas = GstCudaVideo.buffer_get_cuda_video_motion_metas(buf)
    kinds = {m.kind: m for m in metas}
    if not check(len(metas) == 2 and set(kinds) == {BLOCKS, POINTS},
                 f"{what}: metas {[(m.kind, m.source) for m in metas]}"):
        return None
    check(kinds[BLOCKS].source == "me" and kinds[POINTS].source == "vcm",
          f"{what}: sources {kinds[BLOCKS].source}, {kinds[POINTS].source}")
    check(GstCudaVideo.buffer_get_cuda_video_motion_meta(buf, POINTS).source == "vcm",
          f"{what}: buffer_get_cuda_video_motion_meta(POINTS) finds another meta")
    return kinds


# the direct branch against the exports
prev_pts = Gst.CLOCK_TIME_NONE
for t, buf in enumerate(got["direct"][:min(len(blocks_ref), len(points_ref))]):
    what = f"frame {t}"
    kinds = metas_of(buf, what)
    if kinds is None:
        continue
    b, p = kinds[BLOCKS], kinds[POINTS]
    jb, jp = blocks_ref[t], points_ref[t]
    for m, j, kind in ((b, jb, "blocks"), (p, jp, "points")):
        check(m.frame == j["frame"] == t and m.pts == j["pts"] == buf.pts
              and m.has_reference == j["has_reference"] == (t > 0)
              and (m.width, m.height) == (j["width"], j["height"]) == (W, H),
              f"{what} {kind}: frame {m.frame} pts {m.pts} ref {m.has_reference} {m.width}x{m.height}, "
              f"export {j['frame']} {j['pts']} {j['has_reference']}")
        check(m.reference_pts == (prev_pts if t > 0 else Gst.CLOCK_TIME_NONE),
              f"{what} {kind}: reference pts {m.reference_pts}, previous frame {prev_pts}")
    prev_pts = buf.pts
    check((b.block_width, b.block_height, b.grid_width, b.grid_height, b.method, b.subpel, b.vector_scale)
          == (jb["block_width"], jb["block_height"], jb["grid_width"], jb["grid_height"], jb["method"],
              jb["subpel"], 4), f"{what}: block geometry")
    vectors = b.get_vectors()
    rows = [[v.x, v.y, v.dx / b.vector_scale, v.dy / b.vector_scale, v.sad] for v in vectors]
    check(b.n_records == len(vectors) == b.grid_width * b.grid_height, f"{what}: {len(vectors)} vectors")
    check(rows == jb["blocks"], f"{what}: the vectors differ from the export")
    if t > 0:
        check(any(r[2] or r[3] for r in rows), f"{what}: no block moved")
    points = p.get_points()
    check((p.window_size, p.template_size, p.search_size) == (jp["window_size"], jp["template_size"],
                                                             jp["search_size"]), f"{what}: VCM sizes")
    check(p.n_records == len(points) == jp["n_points"] == len(jp["points"]),
          f"{what}: {len(points)} points, export {jp['n_points']}")
    if t > 0:
        check(len(points) > 0, f"{what}: no points")
    for k, (q, r) in enumerate(zip(points, jp["points"])):
        mine = [q.x, q.y, q.dx, q.dy, q.score]    # the export writes each float exactly
        if not check(mine == r, f"{what} point {k}: {mine}, export {r}"):
            break


def records(m):
    rb = m.get_records_buffer()
    return rb.extract_dup(0, rb.get_size())


# videoconvert and a scaler in passthrough: the same metas, the same records
for name in ("rgba", "passthrough"):
    for t, (buf, ref) in enumerate(zip(got[name], got["direct"])):
        kinds, kref = metas_of(buf, f"{name} frame {t}"), metas_of(ref, f"frame {t}")
        if kinds is None or kref is None:
            continue
        for kind in (BLOCKS, POINTS):
            a, r = kinds[kind], kref[kind]
            check((a.frame, a.pts, a.reference_pts, a.width, a.height, a.block_width, a.n_records)
                  == (r.frame, r.pts, r.reference_pts, r.width, r.height, r.block_width, r.n_records)
                  and records(a) == records(r), f"{name} frame {t}: the {kind.value_nick} meta changed")

# the scalers: x, y, dx, dy in the new frame's pixels
sx, sy = SW / W, SH / H
for name in ("videoscale", "cpubsplinescale", "cudabsplinescale"):
    for t, (buf, ref) in enumerate(zip(got[name], got["direct"])):
        what = f"{name} frame {t}"
        kinds, kref = metas_of(buf, what), metas_of(ref, f"frame {t}")
        if kinds is None or kref is None:
            continue
        b, rb = kinds[BLOCKS], kref[BLOCKS]
        check((b.width, b.height, b.block_width, b.block_height, b.grid_width, b.grid_height, b.frame, b.pts)
              == (SW, SH, round_half_away(rb.block_width * sx), round_half_away(rb.block_height * sy),
                  rb.grid_width, rb.grid_height, rb.frame, rb.pts), f"{what}: block geometry not rescaled")
        want = [(round_half_away(v.x * sx), round_half_away(v.y * sy), round_half_away(v.dx * sx),
                 round_half_away(v.dy * sy), v.sad) for v in rb.get_vectors()]
        check([(v.x, v.y, v.dx, v.dy, v.sad) for v in b.get_vectors()] == want, f"{what}: vectors not rescaled")
        p, rp = kinds[POINTS], kref[POINTS]
        check((p.width, p.height, p.n_records) == (SW, SH, rp.n_records), f"{what}: points geometry")
        want = [(f32(q.x * sx), f32(q.y * sy), f32(q.dx * sx), f32(q.dy * sy), q.score) for q in rp.get_points()]
        check([(q.x, q.y, q.dx, q.dy, q.score) for q in p.get_points()] == want, f"{what}: points not rescaled")

# what changes the geometry otherwise drops them
if have_good:
    for name in ("videoflip", "videocrop"):
        for t, buf in enumerate(got[name]):
            n = len(GstCudaVideo.buffer_get_cuda_video_motion_metas(buf))
            check(n == 0, f"{name} frame {t}: {n} motion metas kept")
else:
    print("note: videoflip / videocrop (gst-plugins-good) not found: flip and crop not checked")

failures.exit(f"{FRAMES} frames, both metas equal to the exports; kept through videoconvert, rescaled by "
              f"videoscale and the B-spline scalers" + (", dropped by videoflip and videocrop" if have_good else ""))
