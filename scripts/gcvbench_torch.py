"""What the PyTorch peers of the benchmarks share (bench-torch-interp.py,
bench-torch-conv3d.py): the common options, the JSON output, the torch and
device checks and description, input frames from the tests/data photos and
the CUDA event timing loop.

Imported by the scripts next to it (they are run as
`python3 scripts/bench-torch-*.py`, which puts scripts/ on sys.path).  Only
the standard library at import time; torch and numpy are passed in or
imported where needed.

SPDX-License-Identifier: LGPL-2.1-or-later
"""
import json
import os
import statistics
import sys
import time

PHOTOS = ["camera.png", "chelsea.png", "coffee.png", "astronaut.png"]

# the photo's scale per variant (times sqrt(height / 720)), as gcv-bench's
SCALES = [1.5, 1.0, 2.2, 1.25, 1.8, 1.1, 2.6, 1.4]


def add_common_args(ap, runs, warmup):
    """--runs, --warmup, --variants, --device, --quick, --json, --data-dir."""
    ap.add_argument("--runs", type=int, default=runs)
    ap.add_argument("--warmup", type=int, default=warmup)
    ap.add_argument("--variants", type=int, default=4)
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="fewer runs (rough numbers)")
    ap.add_argument("--json", help="also write the JSON to FILE")
    ap.add_argument("--data-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "tests", "data"))


def finish_args(args, quick_runs, quick_warmup):
    """--quick caps the runs and warm-up; at least 1 run and 1 variant."""
    if args.quick:
        args.runs, args.warmup = min(args.runs, quick_runs), min(args.warmup, quick_warmup)
    args.runs = max(args.runs, 1)
    args.variants = max(args.variants, 1)
    return args


def new_doc(benchmark):
    return {"benchmark": benchmark, "date": time.strftime("%Y-%m-%d %H:%M:%S %z")}


def emit(doc, path):
    """The JSON on stdout and, when path, to that file."""
    text = json.dumps(doc, indent=2)
    print(text)
    if path:
        with open(path, "w") as f:
            f.write(text + "\n")


def import_torch(doc, path, skipped):
    """torch when it imports and has a CUDA device; else None after saying
    why on stderr (`skipped`: what is skipped) and emitting doc with
    "available": false."""
    try:
        import torch
        import torch.nn.functional  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        print("torch not available (%s): %s" % (e, skipped), file=sys.stderr)
        doc.update(available=False, reason="torch not available: %s" % e)
        emit(doc, path)
        return None
    if not torch.cuda.is_available():
        print("torch %s has no usable CUDA device: %s" % (torch.__version__, skipped),
              file=sys.stderr)
        doc.update(available=False, reason="torch %s: no CUDA device" % torch.__version__)
        emit(doc, path)
        return None
    return torch


def open_device(torch, index):
    """The CUDA device `index`, made current."""
    dev = torch.device("cuda", index)
    torch.cuda.set_device(dev)
    return dev


def describe(torch, dev, cudnn=False):
    """available, torch, cuda, [cudnn,] gpu: the JSON's description of the
    software and the device (in this order)."""
    d = {"available": True, "torch": torch.__version__, "cuda": torch.version.cuda}
    if cudnn:
        d["cudnn"] = torch.backends.cudnn.version()
    d["gpu"] = torch.cuda.get_device_name(dev)
    return d


def load_photos(data_dir):
    """Grey photos as 2-D uint8 numpy arrays, [] when none can be read."""
    try:
        import numpy as np
    except ImportError:
        return []
    out = []
    for name in PHOTOS:
        path = os.path.join(data_dir, name)
        img = None
        try:
            import cv2
            img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        except ImportError:
            try:
                from PIL import Image
                img = np.asarray(Image.open(path).convert("L"))
            except Exception:
                img = None
        if img is not None:
            out.append(img)
    return out


def photo_canvas(torch, photos, k, w, h, device):
    """Variant k: photo k (modulo their number) resized by a factor that
    depends on k and on sqrt (h / 720), mirror-tiled and shifted, as a
    1 x 1 x h x w float tensor of whole numbers in 0 .. 255 on the device."""
    import numpy as np
    p = photos[k % len(photos)]
    s = (h / 720.0) ** 0.5 * SCALES[k % len(SCALES)]
    pw, ph = max(2, int(p.shape[1] * s)), max(2, int(p.shape[0] * s))
    t = torch.from_numpy(np.ascontiguousarray(p)).to(device).float()[None, None]
    t = torch.nn.functional.interpolate(t, size=(ph, pw), mode="bilinear",
                                        align_corners=False, antialias=s < 1)
    reps_y, reps_x = -(-(h + ph) // ph) + 1, -(-(w + pw) // pw) + 1
    tile = torch.cat([t, t.flip(3)], 3).repeat(1, 1, 1, (reps_x + 1) // 2)
    tile = torch.cat([tile, tile.flip(2)], 2).repeat(1, 1, (reps_y + 1) // 2, 1)
    oy, ox = int((k * 0.23) % 1.0 * ph), int((k * 0.37) % 1.0 * pw)
    return tile[:, :, oy:oy + h, ox:ox + w].clamp(0, 255).round()


def time_calls(torch, fn, inputs, warmup, runs, scale=1.0):
    """Median and mean of per-call CUDA event times, and the back-to-back
    time per call (the span of all runs / runs), in ms * scale (1e3: us);
    inputs rotated through, `warmup` untimed calls first."""
    for i in range(warmup):
        fn(inputs[i % len(inputs)])
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        starts[i].record()
        fn(inputs[i % len(inputs)])
        ends[i].record()
    torch.cuda.synchronize()
    times = [s.elapsed_time(e) * scale for s, e in zip(starts, ends)]
    span = starts[0].elapsed_time(ends[-1]) * scale / runs
    return statistics.median(times), statistics.fmean(times), span


def first_line(e):
    """An exception's first line (its type's name when it has no text)."""
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
