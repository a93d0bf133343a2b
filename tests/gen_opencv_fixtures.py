#!/usr/bin/python3
# gst-cuda-video: regenerate the OpenCV Canny fixtures in tests/fixtures/.
#
# Run with Debian's interpreter, which has python3-opencv and python3-numpy:
#
#     /usr/bin/python3 tests/gen_opencv_fixtures.py
#
# For every photo in tests/data/ and every (low, high, L2) combination below,
# this writes cv2.Canny(luma, low, high, apertureSize=3, L2gradient=L2) as a
# 1-bit PNG (black 0, white 255 after expansion) and lists it in
# tests/fixtures/opencv-canny.txt.  No blur: cv2.Canny has none (blur_size 0).
# A few more fixtures run cv2.GaussianBlur first; they and OpenCV's integer
# blur weights are listed in tests/fixtures/opencv-canny-blur.txt.
#
# Luma: gray PNGs are used as they are; RGB PNGs go through
# cv2.cvtColor(COLOR_BGR2GRAY) (cv2.imread gives BGR).  In OpenCV 4.6 that is
# the integer BT.601 of GCV_LUMA_PACKED32 (cpu/gcv-image.h),
# (9798 R + 19235 G + 3735 B + 16384) >> 15; the script asserts it for every
# pixel, so the C test can compute the luma itself from the PNG.
#
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
FIXTURES = os.path.join(HERE, "fixtures")

IMAGES = ["camera.png", "chelsea.png", "coffee.png", "astronaut.png"]

# (low, high, L2gradient).  Fractional thresholds check the flooring (and,
# for L2, squaring before flooring: 30.5^2 = 930.25 -> 930).
COMBOS = [
    (50, 150, False),
    (20.9, 60.6, False),
    (100, 200, True),
    (30.5, 90.7, True),
]

# Blurred fixtures: edges = cv2.Canny(cv2.GaussianBlur(luma, (size, size), sigma), ...).
# For 8-bit images OpenCV 4.6 blurs in bit-exact fixed point: integer weights
# summing to 256 per pass, the horizontal sums kept unrounded, one rounding
# (+32768) >> 16 at the end, border reflect-101 -- the blur of canny.h.  Its
# integer weights are recovered below from impulse responses and written to
# the manifest, so the test can run the reference with exactly OpenCV's
# weights.  (For sigma 0 and size <= 7 OpenCV uses fixed binomial tables,
# not the Gaussian of sigma 0.3 * ((size - 1) * 0.5 - 1) + 0.8.)
BLUR_COMBOS = [
    ("camera.png", 3, 0.0, 50, 150, False),
    ("camera.png", 5, 1.4, 30, 90, False),
    ("chelsea.png", 7, 2.5, 20, 60, False),
    ("coffee.png", 3, 1.4, 60.5, 150.5, True),
    ("astronaut.png", 5, 2.5, 25, 75, False),
    ("astronaut.png", 7, 1.4, 40, 120, True),
]


def opencv_blur_weights(size, sigma):
    """OpenCV's integer Gaussian weights (sum 256) for an 8-bit GaussianBlur,
    read back from the response of a (size x 1) blur to impulses 1..255."""
    width = 64
    img = np.zeros((255, width), np.uint8)
    img[:, width // 2] = np.arange(1, 256, dtype=np.uint8)
    out = cv2.GaussianBlur(img, (size, 1), sigmaX=sigma, sigmaY=0,
                           borderType=cv2.BORDER_REFLECT_101).astype(np.int64)
    v = np.arange(1, 256, dtype=np.int64)
    weights = []
    for t in range(-(size // 2), size // 2 + 1):
        col = out[:, width // 2 - t]
        # vertical pass is the 1-tap kernel 256: out = (v * w * 256 + 32768) >> 16
        cands = [c for c in range(257) if np.array_equal((v * c * 256 + 32768) >> 16, col)]
        if len(cands) != 1:
            sys.exit("cannot recover OpenCV's blur weight %d of size %d sigma %g: %s" % (t, size, sigma, cands))
        weights.append(cands[0])
    if sum(weights) != 256:
        sys.exit("OpenCV's blur weights for size %d sigma %g do not sum to 256: %s" % (size, sigma, weights))
    return weights


def blur_two_pass(luma, weights):
    """canny.h's blur with the given integer weights (numpy, for a self-check)."""
    r = len(weights) // 2
    h, w = luma.shape
    pad = np.pad(luma.astype(np.int64), r, mode="reflect")  # numpy "reflect" == reflect-101
    hs = sum(weights[k] * pad[:, k:k + w] for k in range(2 * r + 1))
    vs = sum(weights[k] * hs[k:k + h, :] for k in range(2 * r + 1))
    return ((vs + 32768) >> 16).astype(np.uint8)


def fmt_threshold(t):
    # Shortest text that reads back as the same double.
    return repr(float(t)) if float(t) != int(t) else str(int(t))


def packed32_luma(rgb):
    """(9798 R + 19235 G + 3735 B + 16384) >> 15, GCV_LUMA_PACKED32."""
    r = rgb[:, :, 0].astype(np.int64)
    g = rgb[:, :, 1].astype(np.int64)
    b = rgb[:, :, 2].astype(np.int64)
    return ((9798 * r + 19235 * g + 3735 * b + 16384) >> 15).astype(np.uint8)


def load_luma(name):
    path = os.path.join(DATA, name)
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None:
        sys.exit("cannot read %s" % path)
    if img.dtype != np.uint8:
        sys.exit("%s: expected 8-bit samples, got %s" % (name, img.dtype))
    if img.ndim == 2:
        return img
    if img.shape[2] == 4:
        img = img[:, :, :3]
    if img.shape[2] != 3:
        sys.exit("%s: unexpected channel count %d" % (name, img.shape[2]))
    # cv2.imread gives BGR.
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    ours = packed32_luma(np.ascontiguousarray(img[:, :, ::-1]))
    if not np.array_equal(gray, ours):
        diff = np.argwhere(gray != ours)
        y, x = diff[0]
        sys.exit("%s: cv2 gray differs from the packed32 formula at %d pixels, first (x=%d, y=%d): "
                 "cv2 %d, formula %d" % (name, len(diff), x, y, gray[y, x], ours[y, x]))
    return gray


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    cv2.setNumThreads(1)  # the result does not depend on it, but keep runs reproducible
    lines = [
        "# OpenCV Canny fixtures, generated by tests/gen_opencv_fixtures.py",
        "# OpenCV %s, numpy %s" % (cv2.__version__, np.__version__),
        "# edges = cv2.Canny(luma, low, high, apertureSize=3, L2gradient=l2); no blur",
        "# luma: gray PNG as is; RGB PNG -> cv2.cvtColor(BGR2GRAY)",
        "#   == (9798 R + 19235 G + 3735 B + 16384) >> 15 (GCV_LUMA_PACKED32), asserted for every pixel",
        "# fixture: 1-bit gray PNG, 1 = edge (255), 0 = not",
        "# image low high l2 fixture",
    ]
    entries = []
    total = 0
    for name in IMAGES:
        luma = load_luma(name)
        stem = os.path.splitext(name)[0]
        for low, high, l2 in COMBOS:
            edges = cv2.Canny(luma, low, high, apertureSize=3, L2gradient=l2)
            vals = np.unique(edges)
            assert set(vals.tolist()) <= {0, 255}, vals
            fname = "%s_%s_%s_%s.png" % (stem, fmt_threshold(low).replace(".", "p"),
                                         fmt_threshold(high).replace(".", "p"), "L2" if l2 else "L1")
            out = os.path.join(FIXTURES, fname)
            if not cv2.imwrite(out, edges, [cv2.IMWRITE_PNG_BILEVEL, 1,
                                            cv2.IMWRITE_PNG_COMPRESSION, 9]):
                sys.exit("cannot write %s" % out)
            back = cv2.imread(out, cv2.IMREAD_GRAYSCALE)
            assert back is not None and np.array_equal(back, edges), "round trip failed for " + fname
            total += os.path.getsize(out)
            entries.append("%s %s %s %d %s" % (name, fmt_threshold(low), fmt_threshold(high),
                                             1 if l2 else 0, fname))
            print("%-36s %dx%d  %6d edge pixels" % (fname, edges.shape[1], edges.shape[0],
                                                    int(np.count_nonzero(edges))))
    with open(os.path.join(FIXTURES, "opencv-canny.txt"), "w") as f:
        f.write("\n".join(lines + entries) + "\n")

    blines = [
        "# OpenCV blurred Canny fixtures, generated by tests/gen_opencv_fixtures.py",
        "# OpenCV %s, numpy %s" % (cv2.__version__, np.__version__),
        "# edges = cv2.Canny(cv2.GaussianBlur(luma, (size, size), sigma), low, high, apertureSize=3, L2gradient=l2)",
        "# weights: OpenCV's integer blur weights (sum 256) for (size, sigma), recovered from impulse responses;",
        "#   cv2.GaussianBlur(luma) equals canny.h's two-pass blur with them (asserted per image)",
        "# luma and fixture format as in opencv-canny.txt",
        "# image low high l2 size sigma weights fixture",
    ]
    for name, size, sigma, low, high, l2 in BLUR_COMBOS:
        luma = load_luma(name)
        weights = opencv_blur_weights(size, sigma)
        blurred = cv2.GaussianBlur(luma, (size, size), sigmaX=sigma, sigmaY=sigma,
                                   borderType=cv2.BORDER_REFLECT_101)
        if not np.array_equal(blurred, blur_two_pass(luma, weights)):
            sys.exit("%s: cv2.GaussianBlur(%d, %g) is not the two-pass blur with weights %s"
                     % (name, size, sigma, weights))
        edges = cv2.Canny(blurred, low, high, apertureSize=3, L2gradient=l2)
        stem = os.path.splitext(name)[0]
        fname = "%s_blur%d_s%s_%s_%s_%s.png" % (stem, size, fmt_threshold(sigma).replace(".", "p"),
                                              fmt_threshold(low).replace(".", "p"),
                                              fmt_threshold(high).replace(".", "p"), "L2" if l2 else "L1")
        out = os.path.join(FIXTURES, fname)
        if not cv2.imwrite(out, edges, [cv2.IMWRITE_PNG_BILEVEL, 1, cv2.IMWRITE_PNG_COMPRESSION, 9]):
            sys.exit("cannot write %s" % out)
        back = cv2.imread(out, cv2.IMREAD_GRAYSCALE)
        assert back is not None and np.array_equal(back, edges), "round trip failed for " + fname
        total += os.path.getsize(out)
        blines.append("%s %s %s %d %d %s %s %s" % (name, fmt_threshold(low), fmt_threshold(high), 1 if l2 else 0,
                                                   size, fmt_threshold(sigma), ",".join(map(str, weights)), fname))
        print("%-36s %dx%d  %6d edge pixels  weights %s" % (fname, edges.shape[1], edges.shape[0],
                                                             int(np.count_nonzero(edges)), weights))
    with open(os.path.join(FIXTURES, "opencv-canny-blur.txt"), "w") as f:
        f.write("\n".join(blines) + "\n")
    print("total fixture PNG size: %d bytes" % total)


if __name__ == "__main__":
    main()
