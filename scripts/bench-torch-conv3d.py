#!/usr/bin/env python3
"""PyTorch's F.conv3d (cuDNN) as the peer of cudaconv3d (issue 4).

The paper's Table 1 volume ("Case study: 3-D convolution"): a single-channel
720x560 video, a k x k x k kernel for k = 5, 7, ... 15, k + 3 input frames ->
4 output frames.  Here: input 1 x 1 x (k+3) x 560 x 720 float32, weight
1 x 1 x k x k x k (random, uniform [0, 1), sum 1: non-separable), padding
(0, k//2, k//2) so that each of the 4 output frames is 560 x 720 like ours
(zero border in space; none in time, so the 4 outputs are the interior
frames), fp32 with TF32 off:
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
Each size is timed twice: with torch.backends.cudnn.benchmark False (PyTorch's
default heuristics) and True (cuDNN tries its algorithms, keeps the fastest).
With --tf32 each size is also timed with TF32 allowed (PyTorch's default for
cuDNN convolutions), rows marked "tf32": true, to compare with figures that
may have been taken that way; bench-conv3d's --peer-json ignores those rows.
CUDA events around each call, median of --runs calls after --warmup, inputs
rotated through --variants different volumes (crops panning across the
tests/data photos when OpenCV or Pillow can read them, else random).

Each k's output for the first volume is checked against the same
convolution in float64 on the device: "max_rel_err" is the largest
absolute difference over the largest output magnitude (float32 lands far
under 1e-3; TF32 near 3e-4 and above).

Prints a table on stderr and the JSON on stdout (and to --json FILE), which
tests/bench/bench-conv3d reads with --peer-json FILE (it takes the faster
median_ms of the two rows of each k).  bench-conv3d also runs it itself
(--rows FILE: one tab-separated line a row: k, cudnn_benchmark, tf32,
median_ms, mean_ms, max_rel_err; and a "version" line: torch, CUDA,
cuDNN, GPU).  Without PyTorch or a CUDA device it says why and exits 0
(JSON "available": false, no rows).

Run it on the GPU host with the host's python3, before sourcing
.gpu-runtime/env.sh (whose PYTHONPATH would hide the host's torch):
    python3 scripts/bench-torch-conv3d.py --json torch-conv3d.json
    source .gpu-runtime/env.sh
    build/tests/bench/bench-conv3d --peer-json torch-conv3d.json

Usage: scripts/bench-torch-conv3d.py [--quick] [--runs N] [--k 5,7,...] [--width W] [--height H] [--tf32]
       [--json FILE] [--rows FILE]
SPDX-License-Identifier: LGPL-2.1-or-later
"""
import argparse
import sys

import gcvbench_torch as gt

# issue 4's quoted measurement (H100), ms, for the table only
ISSUE_MS = {5: 0.208, 7: 0.465, 9: 0.844, 11: 1.512, 13: 2.348, 15: 3.597}
PAN_DX, PAN_DY = 4, 2  # pixels per frame, as bench-conv3d


def make_volumes(torch, photos, w, h, nseq, n, device):
    """n float32 volumes 1 x 1 x nseq x h x w on the device: a crop panning
    across a photo scaled and mirror-tiled (a different one per volume)."""
    vols = []
    cw, ch = w + PAN_DX * (nseq - 1), h + PAN_DY * (nseq - 1)
    for k in range(n):
        if photos:
            canvas = gt.photo_canvas(torch, photos, k, cw, ch, device)[0, 0]
            frames = [canvas[PAN_DY * j:PAN_DY * j + h, PAN_DX * j:PAN_DX * j + w] for j in range(nseq)]
            v = torch.stack(frames)[None, None]
        else:
            v = torch.randint(0, 256, (1, 1, nseq, h, w), device=device).float()
        vols.append(v.contiguous())
    return vols


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    gt.add_common_args(ap, runs=200, warmup=20)
    ap.add_argument("--k", "--sizes", dest="sizes", default="5,7,9,11,13,15",
                    help="kernel sizes, comma-separated (default 5,7,9,11,13,15)")
    ap.add_argument("--width", type=int, default=720)
    ap.add_argument("--height", type=int, default=560)
    ap.add_argument("--outputs", type=int, default=4, help="output frames (default 4: k+3 in)")
    ap.add_argument("--tf32", action="store_true",
                    help="also time with TF32 allowed (rows marked tf32: true; not the peer)")
    ap.add_argument("--rows", metavar="FILE", help="also write the rows tab-separated (bench-conv3d)")
    args = gt.finish_args(ap.parse_args(), quick_runs=30, quick_warmup=3)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    doc = gt.new_doc("torch-conv3d")
    torch = gt.import_torch(doc, args.json, "PyTorch peer skipped")
    if torch is None:
        return 0
    import torch.nn.functional as F

    dev = gt.open_device(torch, args.device)
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    photos = gt.load_photos(args.data_dir)
    w, h, nout = args.width, args.height, args.outputs
    doc.update(gt.describe(torch, dev, cudnn=True))
    doc.update(runs=args.runs, warmup=args.warmup, variants=args.variants,
               width=w, height=h, outputs=nout, dtype="float32",
               tf32="off" + ("; rows with tf32: true have it on (--tf32)" if args.tf32 else ""),
               padding="(0, k//2, k//2): zero border in space, none in time",
               inputs="tests/data photos, a crop panning %d px right and %d down a frame"
               % (PAN_DX, PAN_DY) if photos else "random",
               results=[])
    print("PyTorch %s, CUDA %s, cuDNN %s, %s; fp32, TF32 off; %d runs after %d warm-up, %d inputs (%s)"
          % (torch.__version__, torch.version.cuda, doc["cudnn"], doc["gpu"], args.runs, args.warmup,
             args.variants, doc["inputs"]), file=sys.stderr)
    print("%3s %-26s %-18s %10s %10s %10s %9s %9s" % ("k", "input -> output", "cudnn.bench/tf32",
          "median ms", "mean ms", "b2b ms", "GFLOP/s", "issue ms"), file=sys.stderr)

    with torch.inference_mode():
        for k in sizes:
            nseq = k + nout - 1
            gen = torch.Generator(device="cpu").manual_seed(4000 + k)
            wt = torch.rand((1, 1, k, k, k), generator=gen)
            wt = (wt / wt.sum()).to(dev)
            vols = make_volumes(torch, photos, w, h, nseq, args.variants, dev)
            flops = 2.0 * k ** 3 * w * h * nout
            modes = [(False, False), (True, False)] + ([(True, True)] if args.tf32 else [])
            for bench_mode, tf32 in modes:
                torch.backends.cudnn.benchmark = bench_mode
                torch.backends.cudnn.allow_tf32 = tf32
                torch.backends.cuda.matmul.allow_tf32 = tf32
                fn = lambda x: F.conv3d(x, wt, padding=(0, k // 2, k // 2))  # noqa: E731
                row = {"k": k, "input_shape": [1, 1, nseq, h, w], "weight_shape": [1, 1, k, k, k],
                       "cudnn_benchmark": bench_mode, "tf32": tf32, "issue_ms": ISSUE_MS.get(k)}
                label = "%s%s" % (bench_mode, "/TF32" if tf32 else "")
                try:
                    out = fn(vols[0])
                    row["output_shape"] = list(out.shape)
                    exact = F.conv3d(vols[0].double(), wt.double(), padding=(0, k // 2, k // 2))
                    row["max_rel_err"] = float((out.double() - exact).abs().max() / exact.abs().max())
                    del exact
                    med, avg, b2b = gt.time_calls(torch, fn, vols, args.warmup, args.runs)
                    row.update(median_ms=med, mean_ms=avg, back_to_back_ms=b2b,
                               gflops=flops / (med * 1e-3) / 1e9)
                    print("%3d %-26s %-18s %10.4f %10.4f %10.4f %9.0f %9s"
                          % (k, "%dx%dx%d -> %dx%dx%d" % (nseq, h, w, *out.shape[2:]), label,
                             med, avg, b2b, row["gflops"],
                             "-" if k not in ISSUE_MS else "%.3f" % ISSUE_MS[k]), file=sys.stderr)
                except Exception as e:  # e.g. out of memory, no cuDNN
                    msg = gt.first_line(e)
                    row.update(median_ms=None, error=msg)
                    print("%3d %-26s %-18s failed: %s" % (k, "", label, msg[:80]), file=sys.stderr)
                doc["results"].append(row)
            del vols
            torch.cuda.empty_cache()
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    print("ms: per call (1 x 1 x (k+3) x H x W -> %d frames); issue ms: issue 4's quoted measurement"
          % nout, file=sys.stderr)
    if args.rows:
        with open(args.rows, "w") as f:
            f.write("version\t%s\t%s\t%s\t%s\n" % (torch.__version__, torch.version.cuda, doc["cudnn"], doc["gpu"]))
            for r in doc["results"]:
                if r.get("median_ms") is not None:
                    f.write("%d\t%d\t%d\t%.6f\t%.6f\t%.3g\n" % (r["k"], r["cudnn_benchmark"], r["tf32"],
                                                               r["median_ms"], r["mean_ms"], r["max_rel_err"]))
    gt.emit(doc, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
