#!/usr/bin/python3
"""Makes docs/images/conv3d-gabor-bank.png: a bank of spatio-temporal Gabor
filters (cpuconv3d kernel=gabor, the paper's motivation for 3-D convolution)
applied to a short video in which one textured square moves right and one
moves down over a still photo.  Each tile is the motion energy of one filter,
sqrt(even^2 + odd^2), on the middle frame: filters tuned to rightward motion
light up on the first square, those tuned to downward motion on the second,
static ones on the still background's stripes of their orientation.

Run from the repository root after building (build/ by default):
    /usr/bin/python3 scripts/gen-gabor-bank.py [BUILD_DIR]
Needs gst-launch-1.0 (rawvideoparse from gst-plugins-base), python3-numpy and
python3-pil.  cpuconv3d and cudaconv3d give the same result; the CPU element
is used so that no GPU is needed.
"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
OUT = "docs/images/conv3d-gabor-bank.png"
W, H, FRAMES, SPEED = 320, 240, 9, 2           # pixels per frame of both squares
SIZE, TSIZE, WAVELENGTH, SIGMA, TSIGMA = 15, 7, 8.0, 3.0, 1.5
BANK = [(o, v) for o in (0, 90) for v in (SPEED, 0, -SPEED)]


def gray(path):
    return np.asarray(Image.open(path).convert("L"), dtype=np.float64)


def make_video():
    """FRAMES frames of H x W, 16-bit (8-bit values * 256)."""
    # the still background at half contrast, so that the moving squares
    # (full contrast, fine detail) stand out in the motion-tuned tiles
    background = gray("tests/data/camera.png")[100:100 + H, 100:100 + W] * 0.5 + 64.0
    texture_a = gray("tests/data/astronaut.png")[300:396, 150:246]
    texture_b = gray("tests/data/chelsea.png")[40:136, 250:346]
    frames = []
    for t in range(FRAMES):
        f = background.copy()
        xa = 30 + SPEED * t                       # square A: moves right
        f[20:116, xa:xa + 96] = texture_a
        yb = 20 + SPEED * t                       # square B: moves down
        f[yb:yb + 96, 190:286] = texture_b
        frames.append(np.clip(f * 256.0, 0, 65535).astype("<u2"))
    return frames


def odd_kernel(orientation, speed):
    """The quadrature (sine) partner of the element's gabor kernel, same
    envelope and normalisation (divided by the sum of its positive taps)."""
    r, rt = SIZE // 2, TSIZE // 2
    th = math.radians(orientation)
    k = []
    for t in range(-rt, rt + 1):
        for y in range(-r, r + 1):
            for x in range(-r, r + 1):
                e = math.exp(-(x * x + y * y) / (2 * SIGMA ** 2) - t * t / (2 * TSIGMA ** 2))
                xr = x * math.cos(th) + y * math.sin(th)
                k.append(e * math.sin(2 * math.pi * (xr - speed * t) / WAVELENGTH))
    pos = sum(v for v in k if v > 0)
    return [v / pos for v in k]


def run(raw_in, raw_out, kernel_args):
    env = dict(os.environ, GST_PLUGIN_PATH=os.path.join(BUILD, "gst"))
    pipeline = ("filesrc location=%s ! rawvideoparse format=gray16-le width=%d height=%d framerate=30/1"
                " ! cpuconv3d size=%d temporal-size=%d offset=32768 %s ! filesink location=%s"
                % (raw_in, W, H, SIZE, TSIZE, kernel_args, raw_out))
    subprocess.run(["gst-launch-1.0", "-q"] + pipeline.split(), check=True, env=env)
    out = np.fromfile(raw_out, dtype="<u2").reshape(FRAMES, H, W).astype(np.float64)
    return (out[FRAMES // 2] - 32768.0) / 256.0   # signed response, 8-bit units


def main():
    frames = make_video()
    tiles = []
    with tempfile.TemporaryDirectory() as tmp:
        raw_in = os.path.join(tmp, "in.raw")
        with open(raw_in, "wb") as f:
            for fr in frames:
                f.write(fr.tobytes())
        for orientation, speed in BANK:
            common = "sigma=%g temporal-sigma=%g" % (SIGMA, TSIGMA)
            even = run(raw_in, os.path.join(tmp, "e.raw"),
                       "kernel=gabor wavelength=%g orientation=%g speed=%g %s"
                       % (WAVELENGTH, orientation, speed, common))
            coeffs = "<" + ",".join("%.9g" % v for v in odd_kernel(orientation, speed)) + ">"
            odd = run(raw_in, os.path.join(tmp, "o.raw"),
                      "kernel=custom normalize=false coefficients=%s" % coeffs)
            tiles.append(np.sqrt(even ** 2 + odd ** 2))
    gain = 255.0 / max(np.percentile(t, 99.9) for t in tiles)
    mid = frames[FRAMES // 2].astype(np.float64) / 256.0

    label_h, cols = 18, 4
    sheet = Image.new("L", (cols * W, 2 * (H + label_h)), 255)
    draw = ImageDraw.Draw(sheet)
    cells = [("input (middle frame)", mid)]
    for (o, v), t in zip(BANK, tiles):
        direction = {0: "x", 90: "y"}[o]
        cells.append(("orientation %d, speed %+d px/frame (%s)" % (o, v, direction), t * gain))
    cells.append(None)  # 7 cells on a 4 x 2 grid: the last one stays blank
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        title, img = cell
        x0, y0 = (i % cols) * W, (i // cols) * (H + label_h)
        sheet.paste(Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)), (x0, y0 + label_h))
        draw.text((x0 + 4, y0 + 3), title, fill=0)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    sheet.save(OUT, optimize=True)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
