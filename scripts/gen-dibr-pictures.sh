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

# the scene from cameras A and B (tests/dibr_scene.h: f = 600 px at 640 wide,
# baseline 0.25, convergence 6, depth range 2.5 .. 14)
GCV_TEST_DATA_DIR=$PWD/tests GCV_DIBR_DUMP="$tmp" GCV_DIBR_SIZE=640x480 "$build/tests/dibr-scene-test" >/dev/null
"$python" - "$tmp" <<'PY'
import sys
from PIL import Image
tmp = sys.argv[1]
a = Image.open(f"{tmp}/A.png").convert("RGB")
d = Image.open(f"{tmp}/A-depth.png").convert("RGB")
sbs = Image.new("RGB", (a.width * 2, a.height))
sbs.paste(a, (0, 0))
sbs.paste(d, (a.width, 0))
sbs.save(f"{tmp}/sbs.png")
PY
props="layout=side-by-side focal-length=600 baseline=0.25 convergence=6 z-near=2.5 z-far=14"
for out in "virtual:output=virtual" "holes:output=virtual debug-output=holes" "anaglyph:output=anaglyph symmetric=true"; do
  name=${out%%:*}
  # shellcheck disable=SC2086
  gst-launch-1.0 -q --gst-plugin-path="$build/gst" filesrc location="$tmp/sbs.png" ! pngdec ! videoconvert \
    ! video/x-raw,format=RGBA ! cpudibr $props ${out#*:} ! videoconvert ! pngenc ! filesink location="$tmp/$name.png"
done
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
echo "Picture:    docs/images/dibr-scene.png"
echo "Picture:    docs/images/dibr-anaglyph.png"
