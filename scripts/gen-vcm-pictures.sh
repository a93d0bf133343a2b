#!/usr/bin/env bash
# Makes the vector coherence mapping pictures of the docs, docs/images/vcm-*.png,
# with the CPU element (cpuvcm and cudavcm give identical points and vectors,
# so no GPU is needed):
#   vcm-walkers.png   real video (tests/data/vtest-102.png -> vtest-103.png:
#                     people walking past a fixed camera) through
#                     cpuvcm draw=true draw-scale=2, default parameters: an
#                     arrow per tracked point, from the point along 2x its
#                     vector; the part with the people, magnified 2x
#   vcm-synthetic.png the paper's Figure 8 motions made from a real photo
#                     (tests/data/astronaut.png, 640x480 crop of its centre
#                     magnified 1.6x, bicubic warps by Pillow): rotation by 1 degree per frame
#                     and zoom by 1% per frame about the centre, the third
#                     frame of each through cpuvcm draw=true draw-scale=6
#                     window-size=32 points-per-window=1 (fewer points: the
#                     field is easier to see)
# Needs Debian's python3 with Pillow (python3-pil; PYTHON overrides /usr/bin/python3).
#
#   scripts/gen-vcm-pictures.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
ninja -C "$build" gst/libgstcudavideo.so >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/images
python=${PYTHON:-/usr/bin/python3}
launch() { gst-launch-1.0 -q --gst-plugin-path="$build/gst" "$@"; }

# real video: frame 102 is the reference, 103 carries the points
launch multifilesrc location=tests/data/vtest-%d.png start-index=102 stop-index=103 \
    caps="image/png,framerate=10/1" ! pngdec ! videoconvert ! video/x-raw,format=I420 ! \
  cpuvcm draw=true draw-scale=2 ! \
  videocrop left=304 right=64 top=128 bottom=272 ! videoscale method=nearest-neighbour ! \
    video/x-raw,width=800,height=352 ! videoconvert ! pngenc ! multifilesink location="$tmp/walkers-%d.png"
[ -s "$tmp/walkers-1.png" ] || { echo "gen-vcm-pictures: no second output frame" >&2; exit 1; }
cp "$tmp/walkers-1.png" docs/images/vcm-walkers.png
echo "Picture:    docs/images/vcm-walkers.png"

# synthetic motion: frame k is the photo's centre warped k times
"$python" - "$tmp" <<'PY'
import sys
from PIL import Image
tmp = sys.argv[1]
photo = Image.open("tests/data/astronaut.png").convert("RGB")
# 512x512: magnified so that a 640x480 view stays inside it when rotated
photo = photo.resize((int(photo.width * 1.6), int(photo.height * 1.6)), resample=Image.BICUBIC)
cx, cy = photo.width / 2.0, photo.height / 2.0
for name, angle, scale in (("rotation", 1.0, 1.0), ("zoom", 0.0, 1.01)):
    for k in range(3):
        # rotate by k degrees and scale by scale^k about the photo's centre
        # (bicubic), then crop 640x480 around the centre
        img = photo.rotate(k * angle, resample=Image.BICUBIC, center=(cx, cy))
        if scale != 1.0:
            s = scale ** k
            w, h = round(photo.width * s), round(photo.height * s)
            img = img.resize((w, h), resample=Image.BICUBIC)
            x0, y0 = (w - photo.width) // 2, (h - photo.height) // 2
            img = img.crop((x0, y0, x0 + photo.width, y0 + photo.height))
        left, top = int(cx - 320), int(cy - 240)
        img.crop((left, top, left + 640, top + 480)).save(f"{tmp}/{name}-{k}.png")
PY
for name in rotation zoom; do
  launch multifilesrc location="$tmp/$name-%d.png" start-index=0 stop-index=2 caps="image/png,framerate=10/1" \
    ! pngdec ! videoconvert ! video/x-raw,format=I420 ! cpuvcm draw=true draw-scale=6 window-size=32 points-per-window=1 \
    ! videoconvert ! pngenc ! multifilesink location="$tmp/$name-out-%d.png"
  [ -s "$tmp/$name-out-2.png" ] || { echo "gen-vcm-pictures: no third $name frame" >&2; exit 1; }
done
"$python" - "$tmp" <<'PY'
import sys
from PIL import Image, ImageDraw
tmp = sys.argv[1]
tiles = [Image.open(f"{tmp}/{n}-out-2.png").convert("RGB") for n in ("rotation", "zoom")]
out = Image.new("RGB", (640 * 2 + 8, 480 + 24), "white")
draw = ImageDraw.Draw(out)
for i, (tile, label) in enumerate(zip(tiles, ("rotation, 1 degree per frame", "zoom, 1% per frame"))):
    out.paste(tile, (i * 648, 24))
    draw.text((i * 648 + 4, 6), label + " (arrows 6x long)", fill="black")
out.save("docs/images/vcm-synthetic.png")
PY
echo "Picture:    docs/images/vcm-synthetic.png"
