#!/usr/bin/env bash
# Sets everything up, then runs the elements on a real photo and writes
#   out/coffee-edges.png    cudacanny: the edge map
#   out/coffee-overlay.png  cudacanny: the photo with its edges painted green
#   out/coffee-x3.png       cudabsplinescale: the photo enlarged 3x with the B-spline
#   out/ball-trail.png      cudaconv3d: the last frame of a moving ball smoothed over
#                           space and time (a 9 x 9 x 15 Gaussian): its motion trail
#   out/cat-carved.png      cudaseamcarve: a cat photo 25% narrower, the eyes kept round
#   out/cat-seams.png       cudaseamcarve: the photo with the seams it removed painted red
#   out/walkers-motion.png  cudamotionest: a frame of real video with its motion vectors as arrows
#   out/walkers-vectors.jsonl  cudamotionest: the vectors of every frame, one JSON line each
#   out/walkers-vcm.png     cudavcm: the same video's tracked interest points, arrows 4x long
#   out/walkers-points.jsonl   cudavcm: the tracked points of every frame, one JSON line each
#   out/scene-2dz.png       a colour | depth (2D+Z) picture ray-cast by the tests
#                           (build/tests/dibr-scene-test: textured planes from the photos)
#   out/scene-anaglyph.png  cudadibr: a red-cyan anaglyph synthesized from it
#   out/scene-stereo.png    cudadibr: a side-by-side stereo pair synthesized from it
#   out/aloe-right.png      cudadibr: the right view of a real stereo pair (tests/data/aloe*)
#                           synthesized from the left photograph and its disparity
#   out/aloe-anaglyph.png   cudadibr: its red-cyan anaglyph
# On a machine with an NVIDIA GPU the CUDA kernels run; without one the
# element falls back to the CPU implementation (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# (GCV_BUILD_DIR: the build directory setup.sh used, default build)
build="${GCV_BUILD_DIR:-build}"
mkdir -p out
export GST_PLUGIN_PATH="$PWD/$build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_REGISTRY="$PWD/$build/gst-registry.bin"
input=tests/data/coffee.png

log=$(gst-launch-1.0 filesrc location="$input" ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! cudacanny low-threshold=40 high-threshold=120 \
  ! videoconvert ! pngenc ! filesink location=out/coffee-edges.png 2>&1) || { echo "$log"; exit 1; }
if grep -q "No usable CUDA device" <<<"$log"; then
  backend="the CPU: $(grep -A3 '^WARNING' <<<"$log" | tail -1 | sed 's/ (\.\..*//')"
else
  backend="the GPU (CUDA)"
fi
gst-launch-1.0 -q filesrc location="$input" ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! cudacanny mode=overlay low-threshold=40 high-threshold=120 overlay-color=0xff00ff00 \
  ! videoconvert ! pngenc ! filesink location=out/coffee-overlay.png

gst-launch-1.0 -q filesrc location="$input" ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! cudabsplinescale method=bspline ! video/x-raw,width=1800,height=1200 \
  ! videoconvert ! pngenc ! filesink location=out/coffee-x3.png

# multifilesink rewrites the file for every frame: the last one stays
gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=24 \
  ! video/x-raw,format=GRAY8,width=320,height=240,framerate=30/1 \
  ! cudaconv3d size=9 temporal-size=15 ! videoconvert ! pngenc ! multifilesink location=out/ball-trail.png

gst-launch-1.0 -q filesrc location=tests/data/chelsea.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! cudaseamcarve ! video/x-raw,width=338 ! videoconvert ! pngenc ! filesink location=out/cat-carved.png
gst-launch-1.0 -q filesrc location=tests/data/chelsea.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
  ! cudaseamcarve width=338 show-seams=true ! videoconvert ! pngenc ! filesink location=out/cat-seams.png

# four frames of real video; multifilesink keeps the last frame's arrows
rm -f out/walkers-vectors.jsonl
gst-launch-1.0 -q multifilesrc location=tests/data/vtest-%d.png start-index=100 stop-index=103 \
    caps=image/png,framerate=25/1 ! pngdec ! videoconvert ! video/x-raw,format=I420 \
  ! cudamotionest subpel=half zero-threshold=2 draw=true location=out/walkers-vectors.jsonl \
  ! videoconvert ! pngenc ! multifilesink location=out/walkers-motion.png

rm -f out/walkers-points.jsonl
gst-launch-1.0 -q multifilesrc location=tests/data/vtest-%d.png start-index=100 stop-index=103 \
    caps=image/png,framerate=25/1 ! pngdec ! videoconvert ! video/x-raw,format=I420 \
  ! cudavcm draw=true draw-scale=4 location=out/walkers-points.jsonl \
  ! videoconvert ! pngenc ! multifilesink location=out/walkers-vcm.png

# 2D+Z: the ray-cast scene of the DIBR tests, camera A's colour and depth
# composed side by side (640x480 each), then synthesized views
scene=$(mktemp -d)
GCV_TEST_DATA_DIR="$PWD/tests" GCV_DIBR_DUMP="$scene" GCV_DIBR_SIZE=640x480 "$build/tests/dibr-scene-test" >/dev/null
gst-launch-1.0 -q compositor name=mix sink_1::xpos=640 ! video/x-raw,format=RGBA,width=1280,height=480 \
    ! pngenc ! filesink location=out/scene-2dz.png \
  filesrc location="$scene/A.png" ! pngdec ! videoconvert ! mix.sink_0 \
  filesrc location="$scene/A-depth.png" ! pngdec ! videoconvert ! mix.sink_1
rm -rf "$scene"
for out in "anaglyph:output=anaglyph symmetric=true" "stereo:output=stereo-side-by-side symmetric=true"; do
  # shellcheck disable=SC2086
  gst-launch-1.0 -q filesrc location=out/scene-2dz.png ! pngdec ! videoconvert ! video/x-raw,format=RGBA \
    ! cudadibr layout=side-by-side focal-length=600 baseline=0.25 convergence=6 z-near=2.5 z-far=14 ${out#*:} \
    ! videoconvert ! pngenc ! filesink location="out/scene-${out%%:*}.png"
done

# a real stereo pair (tests/data/aloe*): the left photograph | its
# disparity is the 2D+Z input; the right view is synthesized (compare with
# tests/data/aloeR.jpg, the real one: docs/dibr.md)
for out in "right:output=virtual" "anaglyph:output=anaglyph"; do
  # shellcheck disable=SC2086
  gst-launch-1.0 -q compositor name=mix sink_1::xpos=1282 ! video/x-raw,format=RGBA,width=2564,height=1110 \
    ! cudadibr layout=side-by-side zero-is-unknown=true focal-length=255 baseline=1 z-near=1 z-far=1e9 convergence=0 \
      ${out#*:} ! videoconvert ! pngenc ! filesink location="out/aloe-${out%%:*}.png" \
    filesrc location=tests/data/aloeL.jpg ! jpegdec ! videoconvert ! mix.sink_0 \
    filesrc location=tests/data/aloeGT.png ! pngdec ! videoconvert ! mix.sink_1
done

echo "demo: cudacanny, cudabsplinescale, cudaconv3d, cudaseamcarve, cudamotionest, cudavcm and cudadibr ran on $backend"
echo "demo: wrote out/coffee-edges.png (edge map), out/coffee-overlay.png (edges painted on the photo)"
echo "      out/coffee-x3.png (the photo enlarged 3x with the cubic B-spline)"
echo "      out/ball-trail.png (a moving ball smoothed in space and time: its trail)"
echo "      out/cat-carved.png, out/cat-seams.png (seam carving to 75% width, and its seams)"
echo "      out/walkers-motion.png, out/walkers-vectors.jsonl (motion vectors of real video)"
echo "      out/walkers-vcm.png, out/walkers-points.jsonl (tracked points of the same video)"
echo "      out/scene-2dz.png -> out/scene-anaglyph.png, out/scene-stereo.png (views synthesized from 2D+Z)"
echo "      and out/aloe-right.png, out/aloe-anaglyph.png (the right view of a real stereo pair, synthesized)"
