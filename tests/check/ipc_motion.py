#!/usr/bin/env python3
"""The motion metas in another process, through GStreamer's own IPC.

A producer process (gst-launch-1.0) runs the moving ball through
cpumotionest and cpuvcm, each writing its JSON-lines export, into
unixfdsink; this process reads the frames from unixfdsrc and their metas
through the GstCudaVideo typelib, and wants every frame, with both metas,
equal to the producer's exports (vectors exactly, points to the exports'
three decimals), frame numbers and the producer's timestamps included.

    ipc_motion.py            unixfdsink / unixfdsrc, system memory (1.24+)
    ipc_motion.py --packed   the same with ipc-meta=true on both elements:
                             each meta also travels packed, and is
                             unpacked here (what --cuda needs, on the CPU)
    ipc_motion.py --cuda     cudaupload ! cudamotionest ipc-meta=true !
                             cudavcm ipc-meta=true ! cudaipcsink, and
                             cudaipcsrc here: frames stay on the GPU, the
                             metas travel packed (cudaipcsink forwards
                             custom metas only) and are unpacked here

Exit 0 pass, 1 fail, 77 skip (no gi / typelib / plugin, no unixfd or
cudaipc elements: GStreamer older than 1.24, or no GPU for --cuda)."""
import json
import os
import subprocess
import sys
import tempfile
import time

from gcv_gi import Failures, gst_and_typelib, launch_env, require_elements, skip

cuda = "--cuda" in sys.argv[1:]
packed = cuda or "--packed" in sys.argv[1:]
Gst, GstCudaVideo = gst_and_typelib()
# before the first buffer: the metas are recreated here only once registered
GstCudaVideo.MotionMeta.get_info()
require_elements(Gst, "videotestsrc", "appsink", *(["cudaupload", "cudaipcsink", "cudaipcsrc", "cudamotionest",
                                                   "cudavcm"] if cuda else ["unixfdsink", "unixfdsrc", "cpumotionest",
                                                                           "cpuvcm"]),
                 why="unixfd and cudaipc need GStreamer >= 1.24; GST_PLUGIN_PATH?")
launch, env = launch_env()

# unixfdsink waits for the reader (wait-for-connection, GStreamer 1.26 and
# later): every frame arrives.  cudaipcsink, and 1.24's unixfdsink, serve
# whoever is connected: a live source gives the reader time to connect, and
# the frames it sees (at least FRAMES) are compared.
waits = not cuda and Gst.ElementFactory.make("unixfdsink").find_property("wait-for-connection") is not None
FRAMES = 12
SENT = FRAMES if waits else 60
tmp = tempfile.mkdtemp(prefix="gcv-ipc-")
socket, blocks_json, points_json = (os.path.join(tmp, n) for n in ("socket", "blocks.jsonl", "points.jsonl"))
source = (f"videotestsrc pattern=ball num-buffers={SENT} is-live={'false' if waits else 'true'} "
          "! video/x-raw,format=I420,width=160,height=120,framerate=30/1")
if cuda:
    producer = (f"{source} ! cudaupload ! cudamotionest fallback=false ipc-meta=true subpel=quarter "
                f"location={blocks_json} ! cudavcm fallback=false ipc-meta=true location={points_json} "
                f"! cudaipcsink address={socket}")
    consumer = f"cudaipcsrc address={socket} ! appsink name=sink sync=false"
else:
    ipc = " ipc-meta=true" if packed else ""
    producer = (f"{source} ! cpumotionest subpel=quarter location={blocks_json}{ipc} ! cpuvcm "
                f"location={points_json}{ipc} ! unixfdsink{' wait-for-connection=true' if waits else ''} socket-path={socket}")
    consumer = f"unixfdsrc socket-path={socket} ! appsink name=sink sync=false"

proc = subprocess.Popen([launch, "-q"] + producer.split(), env=env, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, text=True)
deadline = time.monotonic() + 60
while not os.path.exists(socket) and proc.poll() is None and time.monotonic() < deadline:
    time.sleep(0.05)
if not os.path.exists(socket):
    out, err = proc.communicate(timeout=30) if proc.poll() is not None else ("", "")
    proc.kill()
    if cuda and ("no usable" in err.lower() or "cuda" in err.lower()):
        skip("the producer found no usable GPU: " + err.strip()[-300:])
    print(f"FAIL: the producer made no socket (exit {proc.poll()}): {err.strip()[-500:]}")
    sys.exit(1)

pipe = Gst.parse_launch(consumer)
sink = pipe.get_by_name("sink")
pipe.set_state(Gst.State.PLAYING)
failures = Failures()
received = []
unpacked = 0
while True:
    sample = sink.emit("try-pull-sample", 20 * Gst.SECOND)
    if sample is None:
        break
    buf = sample.get_buffer()
    if packed:
        # packed by the producer for cudaipcsink: back into metas here (a
        # copy that shares the frame's memory)
        unpacked += buf.get_custom_meta("GstCudaVideoMotionMetaPacked") is not None
        buf = GstCudaVideo.buffer_unpack_cuda_video_motion_metas(buf)
        if buf.get_custom_meta("GstCudaVideoMotionMetaPacked") is not None:
            failures.append(f"frame at {buf.pts}: a packed meta is left")
    received.append((buf, {m.kind: m for m in GstCudaVideo.buffer_get_cuda_video_motion_metas(buf)}))
msg = pipe.get_bus().pop_filtered(Gst.MessageType.ERROR)
pipe.set_state(Gst.State.NULL)
try:
    out, err = proc.communicate(timeout=120)
except subprocess.TimeoutExpired:
    proc.kill()
    out, err = proc.communicate()
if msg is not None:
    failures.append("consumer error: " + msg.parse_error()[0].message)
if proc.returncode != 0:
    failures.append(f"producer exited {proc.returncode}: {err.strip()[-500:]}")

with open(blocks_json) as f:
    blocks_ref = {j["frame"]: j for j in map(json.loads, f)}
with open(points_json) as f:
    points_ref = {j["frame"]: j for j in map(json.loads, f)}
if len(received) < FRAMES or (waits and len(received) != FRAMES):
    failures.append(f"{len(received)} frames received of {SENT} sent")
BLOCKS, POINTS = GstCudaVideo.MotionKind.BLOCKS, GstCudaVideo.MotionKind.POINTS
for buf, metas in received:
    if set(metas) != {BLOCKS, POINTS}:
        failures.append(f"buffer at {buf.pts}: metas {list(metas)}")
        continue
    b, p = metas[BLOCKS], metas[POINTS]
    jb, jp = blocks_ref.get(b.frame), points_ref.get(p.frame)
    if jb is None or jp is None:
        failures.append(f"frame {b.frame} / {p.frame} is not in the exports")
        continue
    what = f"frame {b.frame}"
    # (the buffer's own timestamp is the consumer's: unixfd retimes it; the
    # meta keeps the producer's)
    if not (b.pts == jb["pts"] and p.pts == jp["pts"] and b.has_reference == jb["has_reference"]
            and (b.width, b.height, b.grid_width, b.grid_height) == (jb["width"], jb["height"], jb["grid_width"],
                                                                     jb["grid_height"])):
        failures.append(f"{what}: fields differ from the export")
    if b.source is None or p.source is None or not b.source.endswith("motionest0") or not p.source.endswith("vcm0"):
        failures.append(f"{what}: sources {b.source}, {p.source}")
    rows = [[v.x, v.y, v.dx / b.vector_scale, v.dy / b.vector_scale, v.sad] for v in b.get_vectors()]
    if rows != jb["blocks"]:
        failures.append(f"{what}: the vectors differ from the producer's export")
    pts = [[q.x, q.y, q.dx, q.dy, q.score] for q in p.get_points()]    # the export writes each float exactly
    if pts != jp["points"]:
        failures.append(f"{what}: the points differ from the producer's export ({len(pts)}, {len(jp['points'])})")
if packed and unpacked != len(received):
    failures.append(f"{unpacked} of {len(received)} frames came with packed metas")
moved = sum(1 for _, m in received if BLOCKS in m and any(v.dx or v.dy for v in m[BLOCKS].get_vectors()))
if received and moved == 0:
    failures.append("no frame with motion: the comparison proves little")

failures.exit(f"{len(received)} frames from another process ({'cudaipc' if cuda else 'unixfd'}"
              f"{', packed' if packed else ''}), "
              f"vectors and points equal to the producer's exports ({moved} frames with motion)")
