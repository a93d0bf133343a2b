#!/usr/bin/env bash
# Makes the DIBR pictures of the docs, docs/images/dibr-*.png, with the CPU
# element (cpudibr and cudadibr give identical frames, so no GPU is needed),
# on the ray-cast scene of the tests (tests/dibr_scene.c: textured planes
# and a box made from the test photos, at known depths), 640x480:
#   dibr-scene.png  the 2D+Z input (camera A's colour | its 8-bit depth,
#                   255 = nearest, side-by-side), the view cpudibr
#                   synthesizes for camera B (0.25 to the right, zero
#                   parallax at Z = 6), the true view of camera B, and the
#                   disocclusions the element filled (white)
#   dibr-anaglyph.png  output=anaglyph symmetric=true (red-cyan glasses)
# and on a real stereo pair, Middlebury's "Aloe" (tests/data/aloe*, see
# tests/data/README.md), its left photograph with the ground-truth
# disparity as depth (focal-length 255, baseline 1, z-near 1: a shift of
# one pixel a depth value, the right camera's):
#   dibr-aloe.jpg   the left photograph and its disparity (the 2D+Z
#                   input), the right view cpudibr synthesizes and the real
#                   right photograph, the filled pixels (white) and the
#                   anaglyph (red: left photograph, cyan: synthesized)
#   dibr-aloe-anaglyph.jpg  that anaglyph, larger
# It prints the PSNR of the synthesized view against the real one.
# Needs Debian's python3 with Pillow (python3-pil; PYTHON overrides
# /usr/bin/python3).
#
#   scripts/gen-dibr-pictures.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
python=${PYTHON:-/usr/bin/python3}
ninja -C "$build" gst/libgstcudavideo.so tests/dibr-scene-test >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/images

# side_by_side COLOUR DEPTH OUT: the 2D+Z picture, colour | depth as grey
side_by_side() {
  "$python" - "$@" <<'PY'
import sys
from PIL import Image
a = Image.open(sys.argv[1]).convert("RGB")
d = Image.open(sys.argv[2]).convert("RGB")
sbs = Image.new("RGB", (a.width * 2, a.height))
sbs.paste(a, (0, 0))
sbs.paste(d, (a.width, 0))
sbs.save(sys.argv[3])
PY
}

# render_views IN PREFIX PROPS NAME:PROPS...: cpudibr PROPS plus each
# NAME's on the 2D+Z picture IN, into PREFIX<NAME>.png
render_views() {
  local in=$1 prefix=$2 props=$3 out
  shift 3
  for out in "$@"; do
    # shellcheck disable=SC2086
    gst-launch-1.0 -q --gst-plugin-path="$build/gst" filesrc location="$in" ! pngdec ! videoconvert \
      ! video/x-raw,format=RGBA ! cpudibr $props ${out#*:} ! videoconvert ! pngenc \
      ! filesink location="$prefix${out%%:*}.png"
  done
}

# the scene from cameras A and B (tests/dibr_scene.h: f = 600 px at 640 wide,
# baseline 0.25, convergence 6, depth range 2.5 .. 14)
GCV_TEST_DATA_DIR=$PWD/tests GCV_DIBR_DUMP="$tmp" GCV_DIBR_SIZE=640x480 "$build/tests/dibr-scene-test" >/dev/null
side_by_side "$tmp/A.png" "$tmp/A-depth.png" "$tmp/sbs.png"
render_views "$tmp/sbs.png" "$tmp/" "layout=side-by-side focal-length=600 baseline=0.25 convergence=6 z-near=2.5 z-far=14" \
  "virtual:output=virtual" "holes:output=virtual debug-output=holes" "anaglyph:output=anaglyph symmetric=true"
"$python" - "$tmp" <<'PY'
import sys
from PIL import Image, ImageDraw
tmp = sys.argv[1]
tiles = [("2D+Z input: camera A's colour", "A.png"), ("and its depth (255 = nearest)", "A-depth.png"),
         ("cpudibr: the view of camera B", "virtual.png"), ("the true view of camera B", "B.png"),
         ("disocclusions filled (white)", "holes.png")]
w, h = 640, 480
out = Image.new("RGB", (3 * w + 16, 2 * (h + 24) + 8), "white")
draw = ImageDraw.Draw(out)
for i, (label, f) in enumerate(tiles):
    x, y = (i % 3) * (w + 8), (i // 3) * (h + 32)
    out.paste(Image.open(f"{tmp}/{f}").convert("RGB"), (x, y + 24))
    draw.text((x + 4, y + 6), label, fill="black")
out.save("docs/images/dibr-scene.png")
Image.open(f"{tmp}/anaglyph.png").convert("RGB").save("docs/images/dibr-anaglyph.png")
PY

# the real pair: left photograph | disparity, side by side
side_by_side tests/data/aloeL.jpg tests/data/aloeGT.png "$tmp/aloe-sbs.png"
render_views "$tmp/aloe-sbs.png" "$tmp/aloe-" \
  "layout=side-by-side zero-is-unknown=true focal-length=255 baseline=1 z-near=1 z-far=1e9 convergence=0" \
  "virtual:output=virtual" "holes:output=virtual debug-output=holes" "anaglyph:output=anaglyph"
"$python" - "$tmp" <<'PY'
import math, sys
from PIL import Image, ImageDraw
tmp = sys.argv[1]
left = Image.open("tests/data/aloeL.jpg").convert("RGB")
right = Image.open("tests/data/aloeR.jpg").convert("RGB")
virt = Image.open(f"{tmp}/aloe-virtual.png").convert("RGB")
holes = Image.open(f"{tmp}/aloe-holes.png").convert("RGB")
W, H = left.size
# PSNR against the real right photograph: all pixels, and those not
# hole-filled (debug-output=holes paints those white)
rv, vv, hv = list(right.getdata()), list(virt.getdata()), list(holes.getdata())
se_all = se_known = n_known = 0
for r, v, h in zip(rv, vv, hv):
    e = sum((a - b) ** 2 for a, b in zip(r, v))
    se_all += e
    if h != (255, 255, 255):
        se_known += e
        n_known += 1
psnr = lambda se, n: 10 * math.log10(255 ** 2 / (se / (3 * n)))
print(f"aloe: synthesized vs real right view: {psnr(se_known, n_known):.2f} dB on the "
      f"{100 * n_known / (W * H):.1f}% pixels not hole-filled, {psnr(se_all, W * H):.2f} dB on all")
tiles = [("2D+Z input: the left photograph", left), ("and its disparity as depth (255 = nearest)",
         Image.open("tests/data/aloeGT.png").convert("RGB")),
         ("cpudibr: the synthesized right view", virt), ("the real right photograph", right),
         ("filled pixels (white)", holes), ("anaglyph (red: left, cyan: synthesized)",
         Image.open(f"{tmp}/aloe-anaglyph.png").convert("RGB"))]
w, h = W // 3, H // 3
out = Image.new("RGB", (3 * w + 16, 2 * (h + 24) + 8), "white")
draw = ImageDraw.Draw(out)
for i, (label, im) in enumerate(tiles):
    x, y = (i % 3) * (w + 8), (i // 3) * (h + 32)
    out.paste(im.resize((w, h), Image.LANCZOS), (x, y + 24))
    draw.text((x + 4, y + 6), label, fill="black")
out.save("docs/images/dibr-aloe.jpg", quality=90)
tiles[5][1].resize((W // 2, H // 2), Image.LANCZOS).save("docs/images/dibr-aloe-anaglyph.jpg", quality=90)
PY
echo "Picture:    docs/images/dibr-scene.png"
echo "Picture:    docs/images/dibr-anaglyph.png"
echo "Picture:    docs/images/dibr-aloe.jpg"
echo "Picture:    docs/images/dibr-aloe-anaglyph.jpg"
