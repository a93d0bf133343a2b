#!/usr/bin/python3
"""Makes docs/images/bsplinescale-comparison.png: one crop of a test photo
upscaled 4x by cpubsplinescale with each method, side by side.

Run from the repository root after building (build/ by default):
    /usr/bin/python3 scripts/gen-scale-comparison.py [BUILD_DIR]
Needs gst-launch-1.0 (with pngdec/pngenc, videobox) and python3-pil.
cpubsplinescale and cudabsplinescale give identical pixels, so the CPU
element is used and no GPU is needed.
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
PHOTO = "tests/data/astronaut.png"          # 512x512, public domain (tests/data/README.md)
LEFT, TOP, SIZE, FACTOR = 190, 80, 96, 4     # the face: edges of the eyes, mouth, hair
METHODS = ["nearest", "bilinear", "catmull-rom", "bspline"]
OUT = "docs/images/bsplinescale-comparison.png"


def scaled(method, tmp):
    path = os.path.join(tmp, method + ".png")
    crop = "left=%d top=%d right=%d bottom=%d" % (LEFT, TOP, 512 - LEFT - SIZE, 512 - TOP - SIZE)
    pipeline = ("filesrc location=%s ! pngdec ! videoconvert ! video/x-raw,format=RGBA ! videobox %s"
                " ! cpubsplinescale method=%s ! video/x-raw,width=%d,height=%d ! videoconvert"
                " ! pngenc ! filesink location=%s") % (PHOTO, crop, method, SIZE * FACTOR,
                                                       SIZE * FACTOR, path)
    env = dict(os.environ, GST_PLUGIN_PATH_1_0=os.path.join(BUILD, "gst"),
               GST_REGISTRY_1_0=os.path.join(tmp, "registry.bin"))
    subprocess.run(["gst-launch-1.0", "-q"] + pipeline.split(), check=True, env=env)
    return Image.open(path).convert("RGB")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        panels = [scaled(m, tmp) for m in METHODS]
    side, label_h, gap = SIZE * FACTOR, 22, 6
    sheet = Image.new("RGB", (len(panels) * (side + gap) - gap, side + label_h), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (method, img) in enumerate(zip(METHODS, panels)):
        x = i * (side + gap)
        sheet.paste(img, (x, label_h))
        draw.text((x + 4, 4), "method=%s (x%d)" % (method, FACTOR), fill="black")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    sheet.save(OUT, optimize=True)
    print("wrote", OUT, sheet.size)


if __name__ == "__main__":
    main()
