#!/usr/bin/python3
# gst-cuda-video: regenerate the SciPy B-spline fixtures in
# tests/fixtures/scipy-bspline/.
#
# Run with Debian's interpreter, which has python3-scipy (1.10.1),
# python3-numpy and python3-pil:
#
#     /usr/bin/python3 tests/gen_scipy_fixtures.py
#
# The output is deterministic (no randomness); running it again must leave
# `git status` clean.
#
# Every case crops a small window out of a photo in tests/data/, takes its
# luma and scales it with
#
#     scipy.ndimage.map_coordinates(img, [yy, xx], order=3, mode='reflect')
#
# in float64, where (yy, xx) is the pixel-centre grid of cpu/bsplinescale.h:
# output sample o of an axis with n_in input and n_out output samples sits at
# x = (o + 0.5) * n_in / n_out - 0.5.  order=3 with the default prefilter is
# the interpolating cubic spline; mode='reflect' is SciPy's name for the
# half-sample symmetric extension (d c b a | a b c d | d c b a) of the
# contract.  Downscales have no antialiasing here (gcv antialias=0).
#
# Files (float32, little-endian, row-major, no header):
#   <case>-in.f32    in_h x in_w input samples
#   <case>-out.f32   out_h x out_w map_coordinates values (float64 rounded
#                    to float32)
# and manifest.txt, one line per case:
#   <input file> <in_w> <in_h> <out_w> <out_h> <output file> <kind> <definition...>
# kind "u8": the input samples are integers 0..255 (the 8-bit luma), so the
# same case also checks the 8-bit path; kind "float": non-integer input.
#
# Luma: gray PNGs as they are; RGB through the integer BT.601 of
# GCV_LUMA_PACKED32, (9798 R + 19235 G + 3735 B + 16384) >> 15.  The "float"
# case uses (0.299 R + 0.587 G + 0.114 B) / 255 instead.
#
# Why every input dimension is >= 8: SciPy starts the prefilter's recursions
# with an approximate boundary initialisation that is only exact for long
# enough axes.  Measured against the exact spline (a dense solve of the
# mirrored tridiagonal system, done below too): n = 2 differs by 8.5e-5 of
# the data range, n = 3 by 5.4e-5 (up to 1.5e-4 on other data), n = 5 by
# 2.2e-7, n >= 8 by less than 1e-9.  Shorter axes would test SciPy's
# approximation, not the spline, so the script refuses them; the C tests
# cover short axes with their own exact reference.  The script also checks
# every fixture against that exact spline (assert below).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os

import numpy as np
import scipy
import scipy.ndimage as ndi
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
OUT = os.path.join(HERE, "fixtures", "scipy-bspline")

# (case name, photo, x0, y0, crop w, crop h, out w, out h, kind)
CASES = [
    ("camera-37x29-up", "camera.png", 200, 180, 37, 29, 80, 61, "u8"),
    ("camera-37x29-down", "camera.png", 200, 180, 37, 29, 23, 17, "u8"),
    ("coffee-64x48-x2", "coffee.png", 300, 150, 64, 48, 128, 96, "u8"),
    ("coffee-64x48-down", "coffee.png", 300, 150, 64, 48, 41, 29, "u8"),
    ("chelsea-48x40-down3", "chelsea.png", 180, 90, 48, 40, 17, 13, "u8"),
    ("astronaut-33x65-mixed", "astronaut.png", 250, 100, 33, 65, 97, 24, "u8"),
    ("chelsea-8x8-up", "chelsea.png", 100, 100, 8, 8, 21, 3, "u8"),
    ("astronaut-40x9-up", "astronaut.png", 140, 300, 40, 9, 123, 29, "u8"),
    ("camera-70x50-down10", "camera.png", 120, 300, 70, 50, 7, 5, "u8"),
    ("coffee-45x37-float", "coffee.png", 420, 210, 45, 37, 63, 50, "float"),
]

MIN_AXIS = 8


def load_rgb(name):
    img = Image.open(os.path.join(DATA, name))
    a = np.asarray(img)
    if a.ndim == 2:
        a = np.stack([a, a, a], axis=-1)
    return a[:, :, :3].astype(np.int64)


def luma_u8(rgb):
    r, g, b = rgb[:, :, 0], rgb[:, :, 1], rgb[:, :, 2]
    return ((9798 * r + 19235 * g + 3735 * b + 16384) >> 15).astype(np.float64)


def luma_float(rgb):
    return (0.299 * rgb[:, :, 0] + 0.587 * rgb[:, :, 1] + 0.114 * rgb[:, :, 2]) / 255.0


def centres(n_in, n_out):
    return (np.arange(n_out, dtype=np.float64) + 0.5) * n_in / n_out - 0.5


# ---- the exact spline, by another method than SciPy's (self-check) ----------

def mirror(i, n):
    m = np.mod(i, 2 * n)
    return np.where(m >= n, 2 * n - 1 - m, m)


def exact_coefficients_1d(n):
    """Inverse of the n x n matrix of (c[k-1] + 4 c[k] + c[k+1]) / 6 with
    half-sample symmetric c[-1] = c[0], c[n] = c[n-1]."""
    a = np.zeros((n, n))
    for k in range(n):
        for d, w in ((-1, 1.0), (0, 4.0), (1, 1.0)):
            a[k, int(mirror(k + d, n))] += w / 6.0
    return np.linalg.inv(a)


def beta3(t):
    a = np.abs(t)
    return np.where(a < 1, 2.0 / 3.0 - a * a + 0.5 * a ** 3, np.where(a < 2, (2 - a) ** 3 / 6.0, 0.0))


def interp_matrix(n_in, n_out):
    x = centres(n_in, n_out)
    m = np.zeros((n_out, n_in))
    i0 = np.floor(x).astype(np.int64) - 1
    for k in range(4):
        i = i0 + k
        np.add.at(m, (np.arange(n_out), mirror(i, n_in)), beta3(x - i))
    return m @ exact_coefficients_1d(n_in)


def exact_scale(img, out_w, out_h):
    h, w = img.shape
    return interp_matrix(h, out_h) @ img @ interp_matrix(w, out_w).T


def main():
    os.makedirs(OUT, exist_ok=True)
    photos = {}
    lines = [
        "# SciPy B-spline fixtures: generated by tests/gen_scipy_fixtures.py with scipy %s, numpy %s;"
        % (scipy.__version__, np.__version__),
        "# do not edit, regenerate: /usr/bin/python3 tests/gen_scipy_fixtures.py",
        "# Files are float32 little-endian, row-major, no header.",
        "# input in_w in_h out_w out_h output kind definition",
    ]
    total = 0
    for (name, photo, x0, y0, w, h, ow, oh, kind) in CASES:
        assert w >= MIN_AXIS and h >= MIN_AXIS, "%s: input axes must be >= %d (see header)" % (name, MIN_AXIS)
        if photo not in photos:
            photos[photo] = load_rgb(photo)
        rgb = photos[photo][y0:y0 + h, x0:x0 + w]
        assert rgb.shape[:2] == (h, w), name
        img = luma_u8(rgb) if kind == "u8" else luma_float(rgb)
        # what the C test reads back
        img = img.astype("<f4").astype(np.float64)
        yy = centres(h, oh)[:, None] * np.ones((1, ow))
        xx = np.ones((oh, 1)) * centres(w, ow)[None, :]
        out = ndi.map_coordinates(img, [yy, xx], order=3, mode="reflect", output=np.float64)
        ref = exact_scale(img, ow, oh)
        rng = img.max() - img.min()
        err = np.abs(out - ref).max() / rng
        assert err < 1e-8, "%s: SciPy differs from the exact spline by %g of the range" % (name, err)
        fin, fout = name + "-in.f32", name + "-out.f32"
        with open(os.path.join(OUT, fin), "wb") as f:
            f.write(img.astype("<f4").tobytes())
        with open(os.path.join(OUT, fout), "wb") as f:
            f.write(out.astype("<f4").tobytes())
        total += 4 * (w * h + ow * oh)
        src = ("luma_u8" if kind == "u8" else "luma_float") + "(%s[%d:%d, %d:%d])" % (photo, y0, y0 + h, x0, x0 + w)
        lines.append("%s %d %d %d %d %s %s img = %s; out = scipy.ndimage.map_coordinates(img, [yy, xx], "
                     "order=3, mode='reflect') with yy[i, j] = (i + 0.5) * %d / %d - 0.5, "
                     "xx[i, j] = (j + 0.5) * %d / %d - 0.5 (float64, stored as float32)"
                     % (fin, w, h, ow, oh, fout, kind, src, h, oh, w, ow))
        print("%-24s %3dx%-3d -> %3dx%-3d  scipy vs exact spline: %.2e of range" % (name, w, h, ow, oh, err))
    with open(os.path.join(OUT, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %d cases, %d bytes of samples, to %s" % (len(CASES), total, OUT))


if __name__ == "__main__":
    main()
