#!/usr/bin/env python3
"""examples/motion_vectors.py as a user runs it: cpumotionest on the moving
ball with --reference, which must exit 0 with one JSON line per frame whose
count and sums equal the element's export (recomputed here from the file);
and its comparison must report a changed sum, a missing frame and an extra
one.  Exit 0 pass, 1 fail, 77 skip (no gi, typelib or plugin)."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

from gcv_gi import Failures, gst_and_typelib, require_elements, source_dir

Gst, _ = gst_and_typelib()
require_elements(Gst, "cpumotionest", "videotestsrc")

example = os.path.join(source_dir(), "examples", "motion_vectors.py")
FRAMES = 6
failures = Failures()
reference = os.path.join(tempfile.mkdtemp(prefix="gcv-example-"), "vectors.jsonl")
run = subprocess.run([sys.executable, example, "--element", "cpumotionest", "--frames", str(FRAMES),
                      "--options", "search-range-x=12 search-range-y=12 subpel=quarter", "--reference", reference],
                     capture_output=True, text=True, timeout=300)
if run.returncode != 0:
    failures.append(f"exit status {run.returncode}: {run.stderr.strip()}")
lines = [json.loads(line) for line in run.stdout.splitlines()]
with open(reference) as f:
    exported = [json.loads(line) for line in f]
if len(lines) != FRAMES or len(exported) != FRAMES:
    failures.append(f"{len(lines)} lines printed, {len(exported)} exported, {FRAMES} frames")
for mine, j in zip(lines, exported):
    want = {"frame": j["frame"], "count": j["grid_width"] * j["grid_height"],
            "sum_dx": sum(b[2] for b in j["blocks"]), "sum_dy": sum(b[3] for b in j["blocks"])}
    if mine != want:
        failures.append(f"printed {mine}, the export gives {want}")
if not any(line["sum_dx"] or line["sum_dy"] for line in lines):
    failures.append("no motion in any frame: the comparison proves nothing")

spec = importlib.util.spec_from_file_location("motion_vectors", example)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
if lines and module.compare(lines, reference):
    failures.append("compare() finds differences in equal lines")
if lines:
    changed = [dict(line) for line in lines]
    changed[-1]["sum_dy"] += 0.25
    for what, bad in (("a changed sum", changed), ("a missing frame", lines[:-1]),
                      ("an extra frame", lines + [lines[-1]])):
        if not module.compare(bad, reference):
            failures.append(f"compare() misses {what}")

failures.exit(f"{FRAMES} frames printed equal to the element's export; differences are reported")
