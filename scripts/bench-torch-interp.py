#!/usr/bin/env python3
"""PyTorch's F.interpolate(mode='bicubic') as a peer of cudabsplinescale (issue 3).

Times torch.nn.functional.interpolate(x, size=..., mode='bicubic',
align_corners=False) on the GPU for the issue's three upscales
(176x144 -> 1232x1008, 256x256 -> 512x512, 1920x1080 -> 3840x2160) and, for
reference, 3840x2160 -> 1920x1080 with antialias=True:

  float32 1x1xHxW      the call alone (what issue 3 quotes: 94, 36, 504 us)
  uint8   1x1xHxW      a video frame's round trip: .float(), interpolate,
                       .round().clamp(0, 255).to(torch.uint8)
  uint8-native 1x1xHxW interpolate on the uint8 tensor itself, when this
                       PyTorch supports it on CUDA (else reported as such)
  float32 1x4xHxW      four channels (planar RGBA)

Each row: CUDA events around each call (torch.cuda.Event), median of --runs
calls after --warmup, input rotated through --variants different frames
(the tests/data photos resized when OpenCV or Pillow can read them, else
random).  Prints JSON on stdout (and to --json FILE); a table on stderr.

Without PyTorch, or without a CUDA device, prints why and exits 0.

With --ours FILE (the JSON of tests/bench/bench-bsplinescale), also prints
our kernel times next to PyTorch's and adds them to the JSON ("comparison").

As bench-bsplinescale's GPU peer (--peer FRAMES, run by it): the frames
bench-bsplinescale made (n packed uint8 frames, channels interleaved) at
--geometry IW,IH,OW,OH,C, each mode timed as above on them; the rows go to
--rows FILE (mode, median ms, mean ms, note; tab-separated) and frame 0's
output of each mode, uint8 interleaved, to --outputs PREFIX-MODE.raw, which
bench-bsplinescale checks against the exact B-spline as it checks ours.
Modes: bicubic (antialias off), bicubic-aa (antialias on, shrinking only),
each on the float32 planar tensor alone ("f32") and as a video frame's
round trip ("u8": uint8 interleaved -> planar float -> bicubic -> round,
clamp -> uint8 interleaved).

Usage: scripts/bench-torch-interp.py [--quick] [--runs N] [--json FILE] [--ours FILE]
       scripts/bench-torch-interp.py --peer FRAMES --geometry IW,IH,OW,OH,C --rows FILE --outputs PREFIX
SPDX-License-Identifier: LGPL-2.1-or-later
"""
import argparse
import json
import os
import sys

import gcvbench_torch as gt

CASES = [
    # name, in (w, h), out (w, h), issue's target for our kernels (us), issue's PyTorch figure (us)
    ("qcif-x7", (176, 144), (1232, 1008), 20, 94),
    ("256-x2", (256, 256), (512, 512), 10, 36),
    ("1080p-4k", (1920, 1080), (3840, 2160), 150, 504),
    ("4k-1080p", (3840, 2160), (1920, 1080), None, None),
]


def make_frames(torch, photos, w, h, channels, n, device):
    """n different uint8 frames 1 x channels x h x w on the device."""
    frames = []
    for k in range(n):
        if photos:
            # resize the photo (scale differs per variant), mirror-tile, shift
            g = gt.photo_canvas(torch, photos, k, w, h, device).to(torch.uint8)
            if channels > 1:
                g = torch.cat([g.roll(c * 7, dims=3) for c in range(channels)], 1)
        else:
            g = torch.randint(0, 256, (1, channels, h, w), dtype=torch.uint8, device=device)
        frames.append(g.contiguous())
    return frames


def compare(doc, ours_path):
    """Side by side: PyTorch float32 / uint8 1x1 and 1x4 rows against our
    CUDA kernel rows (GRAY8 / RGBA) from bench-bsplinescale's JSON."""
    with open(ours_path) as f:
        ours = json.load(f)
    kern = {}
    for r in ours.get("results", []):
        if r.get("part") == "kernel" and not r.get("skipped") and r.get("ms_per_frame") is not None:
            kern[(r["case"], r["format"], r["method"])] = r["ms_per_frame"] * 1e3
    torch_rows = {}
    for r in doc.get("results", []):
        if r.get("median_us") is not None:
            torch_rows[(r["case"], r["shape"][1], r["input"])] = r["median_us"]
    rows = []
    print("\nkernel time, us (median; ours: CUDA events around gcv_scale_cuda_process, %s)"
          % ours.get("host", {}).get("gpu", "?"), file=sys.stderr)
    print("%-9s %-6s %9s %9s %9s %11s %11s %8s %7s" % ("case", "format", "bspline", "catmull",
          "bilinear", "torch f32", "torch u8", "target", "issue"), file=sys.stderr)
    for name, _i, _o, target, quoted in CASES:
        for fmt, ch in (("GRAY8", 1), ("RGBA", 4)):
            row = {"case": name, "format": fmt, "torch_channels": ch,
                   "ours_bspline_us": kern.get((name, fmt, "bspline")),
                   "ours_catmull_rom_us": kern.get((name, fmt, "catmull-rom")),
                   "ours_bilinear_us": kern.get((name, fmt, "bilinear")),
                   "torch_bicubic_float32_us": torch_rows.get((name, ch, "float32")),
                   "torch_bicubic_uint8_us": torch_rows.get((name, ch, "uint8")),
                   "issue_target_us": target if ch == 1 else None,
                   "issue_pytorch_us": quoted if ch == 1 else None}
            if all(row[k] is None for k in row if k.startswith(("ours", "torch"))):
                continue
            rows.append(row)
            f = lambda v: "-" if v is None else "%.1f" % v  # noqa: E731
            print("%-9s %-6s %9s %9s %9s %11s %11s %8s %7s"
                  % (name, fmt, f(row["ours_bspline_us"]), f(row["ours_catmull_rom_us"]),
                     f(row["ours_bilinear_us"]), f(row["torch_bicubic_float32_us"]),
                     f(row["torch_bicubic_uint8_us"]), f(row["issue_target_us"]),
                     f(row["issue_pytorch_us"])), file=sys.stderr)
    print("torch f32: F.interpolate bicubic on 1xCxHxW float32 (C = 1 for GRAY8, 4 planar for RGBA);\n"
          "torch u8: uint8 -> float -> bicubic -> round/clamp -> uint8 (1 channel); ours read and\n"
          "write 8-bit interleaved samples.  target / issue: issue 3's target for our kernels and\n"
          "its quoted PyTorch time.", file=sys.stderr)
    doc["comparison"] = {"ours_json": os.path.abspath(ours_path), "ours_date": ours.get("date"),
                         "ours_gpu": ours.get("host", {}).get("gpu"), "rows": rows}


def peer(args):
    """bench-bsplinescale's peer rows (--peer): see the module's docstring."""
    import numpy as np
    iw, ih, ow, oh, ch = (int(v) for v in args.geometry.split(","))
    raw = np.fromfile(args.peer, dtype=np.uint8)
    n = raw.size // (iw * ih * ch)
    if n < 1 or raw.size != n * iw * ih * ch:
        print("%s: %d bytes is not a whole number of %dx%dx%d frames" % (args.peer, raw.size, iw, ih, ch),
              file=sys.stderr)
        return 2
    doc = gt.new_doc("torch-interpolate-peer")
    torch = gt.import_torch(doc, None, "PyTorch peer rows skipped")
    if torch is None:
        return 3
    import torch.nn.functional as F
    dev = gt.open_device(torch, args.device)
    frames = torch.from_numpy(raw.reshape(n, ih, iw, ch)).to(dev)
    u8 = [frames[k:k + 1].contiguous() for k in range(n)]              # 1 x H x W x C
    f32 = [f.permute(0, 3, 1, 2).float().contiguous() for f in u8]    # 1 x C x H x W
    shrink = ow < iw or oh < ih
    rows = ["# mode\tmedian_ms\tmean_ms\tnote  (PyTorch %s, CUDA %s, %s)"
            % (torch.__version__, torch.version.cuda, torch.cuda.get_device_name(dev))]
    for aa in ((False, True) if shrink else (False,)):
        def f32_call(x, aa=aa):
            return F.interpolate(x, size=(oh, ow), mode="bicubic", align_corners=False, antialias=aa)

        def u8_call(x, aa=aa):
            y = F.interpolate(x.permute(0, 3, 1, 2).float(), size=(oh, ow), mode="bicubic",
                              align_corners=False, antialias=aa)
            return y.round_().clamp_(0, 255).to(torch.uint8).permute(0, 2, 3, 1).contiguous()

        name = "bicubic-aa" if aa else "bicubic"
        with torch.inference_mode():
            for kind, fn, inputs in (("f32", f32_call, f32), ("u8", u8_call, u8)):
                med, avg, _b2b = gt.time_calls(torch, fn, inputs, args.warmup, args.runs)
                note = ("float32 1x%dx%dx%d planar, the call alone" % (ch, ih, iw) if kind == "f32"
                        else "uint8 interleaved in and out (layout and type changes included)")
                rows.append("%s %s\t%.6f\t%.6f\t%s" % (name, kind, med, avg, note))
            out = u8_call(u8[0]).cpu().numpy()
            out.tofile("%s-%s.raw" % (args.outputs, name))
    with open(args.rows, "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    gt.add_common_args(ap, runs=300, warmup=50)
    ap.add_argument("--ours", metavar="FILE",
                    help="bench-bsplinescale's JSON: print our kernel times side by side")
    ap.add_argument("--peer", metavar="FRAMES", help="bench-bsplinescale's frames: its peer rows")
    ap.add_argument("--geometry", metavar="IW,IH,OW,OH,C", help="--peer: the frames' geometry")
    ap.add_argument("--rows", metavar="FILE", help="--peer: where the rows go")
    ap.add_argument("--outputs", metavar="PREFIX", help="--peer: frame 0's outputs, PREFIX-MODE.raw")
    args = gt.finish_args(ap.parse_args(), quick_runs=50, quick_warmup=5)
    if args.peer:
        if not (args.geometry and args.rows and args.outputs):
            ap.error("--peer needs --geometry, --rows and --outputs")
        return peer(args)

    doc = gt.new_doc("torch-interpolate-bicubic")
    torch = gt.import_torch(doc, args.json, "PyTorch peer rows skipped")
    if torch is None:
        return 0
    import torch.nn.functional as F

    dev = gt.open_device(torch, args.device)
    torch.backends.cudnn.benchmark = False
    photos = gt.load_photos(args.data_dir)
    doc.update(gt.describe(torch, dev))
    doc.update(runs=args.runs, warmup=args.warmup,
               variants=args.variants,
               inputs="tests/data photos, resized and mirror-tiled" if photos else "random uint8",
               results=[])
    print("PyTorch %s, CUDA %s, %s; %d runs after %d warm-up, %d inputs (%s)"
          % (torch.__version__, torch.version.cuda, doc["gpu"], args.runs, args.warmup,
             args.variants, doc["inputs"]), file=sys.stderr)
    print("%-9s %-22s %-13s %-9s %10s %10s %10s  %s" % ("case", "in -> out", "input", "antialias",
          "median us", "mean us", "b2b us", "notes"), file=sys.stderr)

    with torch.inference_mode():
        for name, (iw, ih), (ow, oh), target, quoted in CASES:
            aa = ow < iw or oh < ih
            for channels in (1, 4):
                frames = make_frames(torch, photos, iw, ih, channels, args.variants, dev)
                floats = [f.float() for f in frames]
                variants = [
                    ("float32", floats,
                     lambda x: F.interpolate(x, size=(oh, ow), mode="bicubic",
                                             align_corners=False, antialias=aa)),
                ]
                if channels == 1:
                    variants.append(
                        ("uint8", frames,
                         lambda x: F.interpolate(x.float(), size=(oh, ow), mode="bicubic",
                                                 align_corners=False, antialias=aa)
                         .round_().clamp_(0, 255).to(torch.uint8)))
                    variants.append(
                        ("uint8-native", frames,
                         lambda x: F.interpolate(x, size=(oh, ow), mode="bicubic",
                                                 align_corners=False, antialias=aa)))
                for label, inputs, fn in variants:
                    row = {"case": name, "in_width": iw, "in_height": ih, "out_width": ow,
                           "out_height": oh, "shape": [1, channels, ih, iw], "input": label,
                           "mode": "bicubic", "align_corners": False, "antialias": aa,
                           "issue_target_us": target, "issue_pytorch_us": quoted}
                    try:
                        med, avg, b2b = gt.time_calls(torch, fn, inputs, args.warmup, args.runs,
                                                      scale=1e3)
                        row.update(median_us=med, mean_us=avg, back_to_back_us=b2b,
                                   effective_gbps=(iw * ih + ow * oh) * channels
                                   * (4 if label == "float32" else 1) / (med * 1e-6) / 1e9)
                        note = ""
                        if channels == 1 and label == "float32" and quoted:
                            note = "issue quoted %d us" % quoted
                        print("%-9s %-22s %-13s %-9s %10.2f %10.2f %10.2f  %s"
                              % (name, "%dx%dx%d->%dx%d" % (channels, iw, ih, ow, oh), label,
                                 aa, med, avg, b2b, note), file=sys.stderr)
                    except Exception as e:  # e.g. no uint8 bicubic on CUDA
                        msg = gt.first_line(e)
                        row.update(median_us=None, unsupported=msg)
                        print("%-9s %-22s %-13s %-9s %10s %10s %10s  unsupported: %s"
                              % (name, "%dx%dx%d->%dx%d" % (channels, iw, ih, ow, oh), label,
                                 aa, "-", "-", "-", msg[:80]), file=sys.stderr)
                    doc["results"].append(row)
                del frames, floats
                torch.cuda.empty_cache()
    if args.ours:
        try:
            compare(doc, args.ours)
        except (OSError, ValueError, KeyError) as e:
            print("cannot compare with %s: %s" % (args.ours, e), file=sys.stderr)
    gt.emit(doc, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
