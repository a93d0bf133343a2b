#!/usr/bin/env bash
# Makes the seam carving pictures of the docs, docs/images/seamcarve-*.png,
# with bench-seamcarve --pictures (its CPU backend: cpuseamcarve and
# cudaseamcarve give identical pixels, so no GPU is needed):
#   seamcarve-comparison.png  the photo, 25% narrower by seam carving (exact,
#                             fast), by liblqr (when built with it) and by
#                             bilinear scaling
#   seamcarve-seams.png       the seams both modes removed, painted red
#   seamcarve-enlarge.png     25% wider by seam insertion and by bilinear
#                             scaling
# Labels need textoverlay (gst-plugins-base's pango plugin).
#
#   scripts/gen-seamcarve-pictures.sh [BUILD_DIR] [PHOTO]
# BUILD_DIR: a meson build directory with -Dbenchmarks=true (default build);
# PHOTO: camera, chelsea (default), coffee or astronaut (tests/data).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
photo=${2:-chelsea}
ninja -C "$build" tests/bench/bench-seamcarve >/dev/null
json=$(mktemp --suffix=.json)
trap 'rm -f "$json"' EXIT
"$build/tests/bench/bench-seamcarve" --cases pictures --pictures docs/images --picture-photo "$photo" \
  --skip gpu --json "$json" | grep -E '^Picture:|FAILED'
