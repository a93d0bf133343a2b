#!/usr/bin/env bash
# Makes the motion estimation pictures of the docs, docs/images/motionest-*.png,
# on real video (tests/data/vtest-102.png and vtest-103.png: people walking
# past a fixed camera; see tests/data/README.md), with the CPU element and
# backend (cpumotionest and cudamotionest give identical vectors, so no GPU
# is needed):
#   motionest-field.png  vtest 103 through cpumotionest draw=true (full
#                        search, 16x16 blocks, +-16 pixels, half-pel): an
#                        arrow per block from its centre along its vector, a
#                        dot where there is none; the part with the people,
#                        400x176 pixels magnified 2x (nearest neighbour);
#                        zero-threshold 2 silences the static background's
#                        codec noise
#   motionest-pair.png   the frame pair, |C - P| and the prediction error
#                        after full search (bench-motionest --pictures)
# Labels need textoverlay (gst-plugins-base's pango plugin).
#
#   scripts/gen-motionest-pictures.sh [BUILD_DIR] [ZERO_THRESHOLD]
# BUILD_DIR: a meson build directory with -Dbenchmarks=true (default build);
# ZERO_THRESHOLD: the element's zero-threshold (default 2; 0 = off).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
threshold=${2:-2}
ninja -C "$build" gst/libgstcudavideo.so tests/bench/bench-motionest >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p docs/images

# the element on the pair: frame 102 has no reference yet (zero vectors),
# frame 103 carries the field
gst-launch-1.0 -q --gst-plugin-path="$build/gst" \
  multifilesrc location=tests/data/vtest-%d.png start-index=102 stop-index=103 \
    caps="image/png,framerate=10/1" ! pngdec ! videoconvert ! video/x-raw,format=I420 ! \
  cpumotionest draw=true block-width=16 block-height=16 search-range-x=16 search-range-y=16 \
    subpel=half method=full zero-threshold="$threshold" ! \
  videocrop left=304 right=64 top=128 bottom=272 ! videoscale method=nearest-neighbour ! \
    video/x-raw,width=800,height=352 ! videoconvert ! pngenc ! multifilesink location="$tmp/field-%d.png"
[ -s "$tmp/field-1.png" ] || { echo "gen-motionest-pictures: no second output frame" >&2; exit 1; }
cp "$tmp/field-1.png" docs/images/motionest-field.png
echo "Picture:    docs/images/motionest-field.png"

"$build/tests/bench/bench-motionest" --cases pictures --pictures docs/images --skip gpu \
  --json "$tmp/bench.json" | grep -E '^Picture:|FAILED'
