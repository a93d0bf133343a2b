#!/usr/bin/env python3
"""The records of a motion meta as one numpy array, without a copy.

GstCudaVideo.MotionMeta.get_records_buffer() gives a Gst.Buffer that shares
the meta's records; gst-python's Gst.Buffer.map() gives a memoryview of it
that numpy.frombuffer() wraps.  Checks, on the metas of cpumotionest and
cpuvcm and on a 4K grid of 4x4 blocks (518,400 records) made in Python:

- the array holds the same values as the records read as fields;
- two records buffers of one meta, mapped at the same time, give arrays at
  the same address: neither the buffer nor the map copied the records (a
  copy would live elsewhere);
- writing through a writable map leaves the meta as it was (the map
  writes to a copy of its own).

Exit 0 pass, 1 fail, 77 skip (no gi, typelib, plugin, numpy or gst-python's
overrides)."""
from gcv_gi import Failures, gst_and_typelib, require_elements, skip

Gst, GstCudaVideo = gst_and_typelib()
from gi.repository import GLib  # noqa: E402
try:
    import numpy
except ImportError:
    skip("no numpy (Debian: python3-numpy)")
if not hasattr(Gst, "MapInfo") or not hasattr(Gst.MapInfo, "__enter__"):
    skip("no gst-python overrides (Debian: python3-gst-1.0): Gst.Buffer.map() copies without them")
require_elements(Gst, "cpumotionest", "cpuvcm")

VECTOR = numpy.dtype([("x", "=i4"), ("y", "=i4"), ("dx", "=i4"), ("dy", "=i4"), ("sad", "=u4")])
POINT = numpy.dtype([("x", "=f4"), ("y", "=f4"), ("dx", "=f4"), ("dy", "=f4"), ("score", "=f4")])
failures = Failures()
check = failures.check


def check_meta(meta, what):
    blocks = meta.kind == GstCudaVideo.MotionKind.BLOCKS
    dtype = VECTOR if blocks else POINT
    # (the fields of a few thousand records: the big grid is compared whole below)
    fields = (meta.get_vectors() if blocks else meta.get_points()) if meta.n_records < 10000 else None
    first, second = meta.get_records_buffer(), meta.get_records_buffer()
    with first.map(Gst.MapFlags.READ) as a, second.map(Gst.MapFlags.READ) as b:
        check(isinstance(a.data, memoryview), f"{what}: map gave {type(a.data)}, not a memoryview")
        va, vb = numpy.frombuffer(a.data, dtype), numpy.frombuffer(b.data, dtype)
        check(len(va) == meta.n_records and (fields is None or len(fields) == len(va)),
              f"{what}: {len(va)} records, n_records {meta.n_records}")
        if len(va):
            check(va.ctypes.data == vb.ctypes.data, f"{what}: two maps at {va.ctypes.data:#x} and "
                  f"{vb.ctypes.data:#x}: the records were copied")
        names = VECTOR.names if blocks else POINT.names
        check(fields is None or all(tuple(va[i]) == tuple(getattr(f, n) for n in names) for i, f in enumerate(fields)),
              f"{what}: the array differs from the fields")
        del va, vb
    # a writable map gets a copy of its own: the meta's records stay as they were
    if meta.n_records:
        before = meta.get_records().get_data()
        with first.map(Gst.MapFlags.WRITE) as w:
            w.data[0:4] = b"\xff\xff\xff\x7f"
        check(meta.get_records().get_data() == before, f"{what}: a write through the records buffer changed the meta")
    return meta.n_records


pipe = Gst.parse_launch("videotestsrc pattern=ball num-buffers=3 ! video/x-raw,format=I420,width=160,height=120 "
                        "! cpumotionest ! cpuvcm ! appsink name=s sync=false")
sink = pipe.get_by_name("s")
pipe.set_state(Gst.State.PLAYING)
counts = []
for t in range(3):
    sample = sink.emit("pull-sample")
    if sample is None:
        failures.append(f"frame {t}: no sample")
        break
    for meta in GstCudaVideo.buffer_get_cuda_video_motion_metas(sample.get_buffer()):
        counts.append(check_meta(meta, f"frame {t} {meta.kind.value_nick}"))
pipe.set_state(Gst.State.NULL)
check(len(counts) == 6 and counts[-1] > 0, f"records seen: {counts}")

# a 4K grid of 4x4 blocks, 10 MB of records
grid = numpy.zeros(960 * 540, VECTOR)
grid["x"] = numpy.tile(numpy.arange(960) * 4, 540)
grid["y"] = numpy.repeat(numpy.arange(540) * 4, 960)
grid["dx"] = numpy.arange(len(grid)) % 33 - 16
buf = Gst.Buffer.new()
big = GstCudaVideo.buffer_add_cuda_video_motion_meta(buf, GstCudaVideo.MotionKind.BLOCKS, "python",
                                                     GLib.Bytes.new(grid.tobytes()))
big.width, big.height, big.grid_width, big.grid_height, big.block_width, big.block_height = 3840, 2160, 960, 540, 4, 4
check(big.n_records == len(grid), f"4K grid: {big.n_records} records")
with big.get_records_buffer().map(Gst.MapFlags.READ) as info:
    check(numpy.array_equal(numpy.frombuffer(info.data, VECTOR), grid), "4K grid: records differ")
check_meta(big, "4K grid")
check(len(big.get_vectors()) == len(grid) and big.get_vectors()[777].dx == grid[777]["dx"],
      "4K grid: the fields differ")

failures.exit(f"records as numpy arrays without a copy ({sum(counts)} element records, 518400 made here)")
