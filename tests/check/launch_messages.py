#!/usr/bin/env python3
"""post-messages as a user sees them: gst-launch-1.0 -m prints the element
messages of cpumotionest, cpuvcm, cpucanny, cpuseamcarve and cpudibr, one per
frame, each with exactly the fields (and types) below, which the elements'
documentation (their doc blocks in gst/, the source of docs/elements.md)
names.  The values themselves are checked by elements-messages.
Exit 0 pass, 1 fail, 77 skip (no gst-launch-1.0 or no plugin)."""
import os
import re
import subprocess

from gcv_gi import Failures, launch_env, skip, source_dir

LEVEL = {"timestamp": "guint64", "stream-time": "guint64", "running-time": "guint64", "duration": "guint64"}
MOTION = {"frame": "guint64", "has-reference": "boolean", "moved": "uint", "mean-dx": "double",
          "mean-dy": "double", "largest-x": "double", "largest-y": "double", "largest-dx": "double",
          "largest-dy": "double", "largest-length": "double", "dominant-dx": "double", "dominant-dy": "double",
          "dominant-count": "uint"}
FRAMES = 3
CASES = [
    ("motionest", "gstcudamotionest.c", {**MOTION, "blocks": "uint"},
     f"videotestsrc pattern=ball num-buffers={FRAMES} ! video/x-raw,format=I420,width=64,height=48 "
     "! cpumotionest post-messages=true ! fakesink"),
    ("vcm", "gstcudavcm.c", {**MOTION, "points": "uint"},
     f"videotestsrc pattern=ball num-buffers={FRAMES} ! video/x-raw,format=I420,width=64,height=48 "
     "! cpuvcm post-messages=true ! fakesink"),
    ("canny", "gstcudacanny.c", {"edge-pixels": "guint64", "pixels": "guint64"},
     f"videotestsrc pattern=ball num-buffers={FRAMES} ! video/x-raw,format=GRAY8,width=64,height=48 "
     "! cpucanny post-messages=true ! fakesink"),
    ("seamcarve", "gstcudaseamcarve.c", {"width-change": "int", "height-change": "int", "seam-pixels": "guint64",
                                         "seam-energy": "double", "frame-energy": "double"},
     f"videotestsrc num-buffers={FRAMES} ! video/x-raw,format=RGBA,width=64,height=48 "
     "! cpuseamcarve post-messages=true ! video/x-raw,width=56 ! fakesink"),
    ("dibr", "gstcudadibr.c", {"views": "uint", "hole-pixels": "guint64", "view-pixels": "guint64"},
     f"videotestsrc num-buffers={FRAMES} ! video/x-raw,format=RGBA,width=128,height=48 "
     "! cpudibr layout=side-by-side post-messages=true ! fakesink"),
]

launch, env = launch_env()
probe = subprocess.run([launch, "-q", "fakesrc", "num-buffers=0", "!", "cpucanny", "!", "fakesink"],
                       capture_output=True, text=True, env=env, timeout=120)
if "no element" in probe.stderr:
    skip("the plugin was not found (GST_PLUGIN_PATH?)")

FIELD = re.compile(r"([a-z][a-z0-9-]*)=\(([a-z0-9]+)\)")
failures = Failures()
for name, source, fields, pipeline in CASES:
    run = subprocess.run([launch, "-m"] + pipeline.split(), capture_output=True, text=True, env=env, timeout=300)
    if run.returncode != 0:
        failures.append(f"{name}: gst-launch-1.0 exited {run.returncode}: {run.stderr.strip()[-300:]}")
        continue
    lines = [line for line in run.stdout.splitlines() if f"(element): {name}, " in line]
    if len(lines) != FRAMES:
        failures.append(f"{name}: {len(lines)} element messages for {FRAMES} frames")
    want = {**fields, **LEVEL}
    for line in lines:
        got = dict(FIELD.findall(line.split(f"(element): {name}, ", 1)[1]))
        if got != want:
            failures.append(f"{name}: fields {sorted(got.items())}, documented {sorted(want.items())}")
            break
    with open(os.path.join(source_dir(), "gst", source)) as f:
        text = f.read()
    doc = text[text.index("SECTION:element-"):].split("*/", 1)[0]
    doc = " ".join(doc.replace("*", " ").split())
    missing = [field for field in [f'"{name}"'] + [f'"{k}"' for k in fields] if field not in doc]
    if missing:
        failures.append(f"{name}: the documentation of {source} does not name {', '.join(missing)}")

failures.exit(f"gst-launch-1.0 -m prints the documented messages of {len(CASES)} elements")
