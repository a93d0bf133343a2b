#!/usr/bin/env bash
# Makes the media files that the documented pipelines read (README.md,
# examples/pipelines.md, docs/*.md, docs/elements.md) from the repository's
# own test data, with GStreamer elements of gst-plugins-base and -good only
# (what scripts/setup.sh installs): nothing is downloaded.
#
#   scripts/make-example-media.sh [OUT_DIR]   (default: out/media; a relative
#                                             OUT_DIR is taken from the
#                                             repository root)
#
# It writes into OUT_DIR:
#   rgbd.png       a colour | depth picture (1280x480, the 2D+Z input of
#                  cudadibr layout=side-by-side): camera A of the DIBR test
#                  scene (tests/dibr_scene.c, a ray caster: textured planes and
#                  a box made from the test photos), its 8-bit depth next to
#                  it, 255 = nearest at Z 2.5, 0 = farthest at Z 14, 1/Z
#                  linear between; focal length 600 pixels
#   cameras.json   a camera file for cudadibr's full mode (camera-file=): the
#                  source is camera A, the virtual camera is the scene's
#                  camera C (moved, turned 4 degrees right, 2 down, rolled 1)
#   true-view-C.png  what camera C really sees (ray-cast), to compare with
#   colour.png, depth16.png  the same colour picture (640x480) and its depth
#                  as a 16-bit grey PNG (GRAY16, 65535 = nearest at Z 2.5,
#                  0 = Z 14): the 8-bit depth widened (v * 257)
#   aloe-2dz.png   Middlebury's "Aloe" (tests/data/aloe*): the left photograph
#                  | its ground-truth disparity as depth (2564x1110)
#   2dz.webm       a 2D+Z video, colour above depth (layout=top-bottom,
#                  576x864, 64 frames at 30 fps, VP9): the scene above,
#                  panned 62 pixels right and back (same depth coding, focal
#                  length 600)
#   clip.webm      real video, 1920x1080, 30 frames at 10 fps, VP9: people
#                  walking past a fixed camera (tests/data/vtest-100..103.png,
#                  played forwards and backwards, 16:9 crop enlarged 2.5x)
#   clip-h264.mp4  the same clip at 1280x720 as H.264 in MP4, for the NVDEC
#                  pipeline of the README (qtdemux ! h264parse ! nvh264dec,
#                  then scaled to 1080p on the GPU); only where an
#                  H.264 encoder is installed: x264enc (gstreamer1.0-plugins-
#                  ugly) or openh264enc (gstreamer1.0-plugins-bad, which
#                  scripts/setup.sh installs when it finds nvcc); skipped
#                  with a note otherwise
# The .webm files are VP9 (vp9enc, webmmux: gst-plugins-good); decodebin
# plays them.  Takes 5 to 13 s on 2 cores (13 with the H.264 clip).
#
# Environment:
#   GCV_BUILD_DIR  the build directory (default: build), for the scene's ray
#                  caster build/tests/dibr-scene-test (built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/media}
build="${GCV_BUILD_DIR:-build}"
root=$PWD

need=(pngdec pngenc jpegdec videoconvert videoscale videocrop compositor multifilesrc
      filesink vp9enc webmmux)
for e in "${need[@]}"; do
  if ! gst-inspect-1.0 --exists "$e"; then
    echo "make-example-media: GStreamer element $e is missing (scripts/setup.sh installs it)" >&2
    exit 1
  fi
done
if [ ! -x "$build/tests/dibr-scene-test" ]; then
  if [ ! -f "$build/build.ninja" ]; then
    echo "make-example-media: no build in $build: run scripts/setup.sh first" >&2
    exit 1
  fi
  ninja -C "$build" tests/dibr-scene-test >/dev/null
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
launch() { gst-launch-1.0 -q "$@"; }

# ---- the DIBR test scene: camera A's colour and depth, camera C's view -----
# 640x480: f = 600 pixels, principal point at the centre (tests/dibr_scene.h)
mkdir "$tmp/scene"
GCV_TEST_DATA_DIR="$root/tests" GCV_DIBR_DUMP="$tmp/scene" GCV_DIBR_SIZE=640x480 \
  "$build/tests/dibr-scene-test" >/dev/null
scene=$tmp/scene
cp "$scene/A.png" "$out/colour.png"
cp "$scene/C.png" "$out/true-view-C.png"

launch compositor name=mix sink_1::xpos=640 ! video/x-raw,format=RGBA,width=1280,height=480 \
    ! pngenc ! filesink location="$out/rgbd.png" \
  filesrc location="$scene/A.png" ! pngdec ! videoconvert ! mix.sink_0 \
  filesrc location="$scene/A-depth.png" ! pngdec ! videoconvert ! mix.sink_1

# GRAY8 -> GRAY16: videoconvert widens v to v * 257 (checked: exact)
launch filesrc location="$scene/A-depth.png" ! pngdec ! videoconvert ! video/x-raw,format=GRAY16_BE \
  ! pngenc ! filesink location="$out/depth16.png"

# cameras.json: A (simple source) and C (dibr_std_camera_c: f 0.97 * 600,
# principal point (319.5 + 3, 239.5 - 2), centre (0.15, -0.05, 0.05), yaw 4,
# pitch -2, roll 1 degrees; R = Ry Rx Rz camera -> world, E = [R^T | -R^T c])
awk 'BEGIN {
  pi = atan2(0, -1); a = 4 * pi / 180; p = -2 * pi / 180; r = 1 * pi / 180
  c[0] = 0.15; c[1] = -0.05; c[2] = 0.05
  split("", Ry); split("", Rx); split("", Rz)
  Ry[0] = cos(a); Ry[1] = 0; Ry[2] = sin(a); Ry[3] = 0; Ry[4] = 1; Ry[5] = 0; Ry[6] = -sin(a); Ry[7] = 0; Ry[8] = cos(a)
  Rx[0] = 1; Rx[1] = 0; Rx[2] = 0; Rx[3] = 0; Rx[4] = cos(p); Rx[5] = -sin(p); Rx[6] = 0; Rx[7] = sin(p); Rx[8] = cos(p)
  Rz[0] = cos(r); Rz[1] = -sin(r); Rz[2] = 0; Rz[3] = sin(r); Rz[4] = cos(r); Rz[5] = 0; Rz[6] = 0; Rz[7] = 0; Rz[8] = 1
  for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) { T[3*i+j] = 0; for (k = 0; k < 3; k++) T[3*i+j] += Ry[3*i+k] * Rx[3*k+j] }
  for (i = 0; i < 3; i++) for (j = 0; j < 3; j++) { R[3*i+j] = 0; for (k = 0; k < 3; k++) R[3*i+j] += T[3*i+k] * Rz[3*k+j] }
  for (i = 0; i < 3; i++) { t = 0; for (j = 0; j < 3; j++) { E[4*i+j] = R[3*j+i]; t -= R[3*j+i] * c[j] } E[4*i+3] = t }
  E[12] = 0; E[13] = 0; E[14] = 0; E[15] = 1
  printf "{\n  \"source\": {\n    \"intrinsics\": [600, 0, 319.5,  0, 600, 239.5,  0, 0, 1]\n  },\n"
  printf "  \"virtual\": {\n    \"intrinsics\": { \"fx\": 582, \"fy\": 582, \"cx\": 322.5, \"cy\": 237.5 },\n"
  printf "    \"extrinsics\": ["
  for (i = 0; i < 16; i++) printf "%.12g%s", E[i], (i == 15 ? "" : i % 4 == 3 ? ",\n                    " : ", ")
  printf "]\n  }\n}\n"
}' > "$out/cameras.json"

# ---- aloe-2dz.png: a real stereo pair's left photograph | its disparity ----
launch compositor name=mix sink_1::xpos=1282 ! video/x-raw,format=RGBA,width=2564,height=1110 \
    ! pngenc ! filesink location="$out/aloe-2dz.png" \
  filesrc location=tests/data/aloeL.jpg ! jpegdec ! videoconvert ! mix.sink_0 \
  filesrc location=tests/data/aloeGT.png ! pngdec ! videoconvert ! mix.sink_1

# ---- 2dz.webm: a sideways pan over the scene, colour above depth -----------
# a 576x432 window moving 2 pixels a frame (x 0 .. 62) and back: a pan of
# the sensor, so the depth coding and the focal length stay the scene's
mkdir "$tmp/pan"
n=0
for x in $(seq 0 2 62) $(seq 62 -2 0); do
  f=$(printf '%s/pan/%03d.png' "$tmp" "$n")
  if [ "$n" -lt 32 ]; then
    launch compositor name=mix sink_1::ypos=432 ! video/x-raw,format=RGBA,width=576,height=864 \
        ! pngenc compression-level=1 ! filesink location="$f" \
      filesrc location="$scene/A.png" ! pngdec ! videoconvert \
        ! videocrop left="$x" right=$((64 - x)) top=24 bottom=24 ! mix.sink_0 \
      filesrc location="$scene/A-depth.png" ! pngdec ! videoconvert \
        ! videocrop left="$x" right=$((64 - x)) top=24 bottom=24 ! mix.sink_1
  else
    ln -s "$(printf '%03d.png' $((63 - n)))" "$f"
  fi
  n=$((n + 1))
done
launch multifilesrc location="$tmp/pan/%03d.png" stop-index=63 caps=image/png,framerate=30/1 \
  ! pngdec ! videoconvert ! video/x-raw,format=I420 \
  ! vp9enc deadline=1 cpu-used=4 end-usage=cq cq-level=10 target-bitrate=6000000 \
  ! webmmux ! filesink location="$out/2dz.webm"

# ---- clip.webm: real video, 1080p ------------------------------------------
# vtest-100 .. 103 forwards and backwards (100 101 102 103 102 101 100 ...),
# the middle 768x432 (16:9) enlarged 2.5x
mkdir "$tmp/clip"
for n in $(seq 0 29); do
  case $((n % 6)) in 0) i=100 ;; 1 | 5) i=101 ;; 2 | 4) i=102 ;; 3) i=103 ;; esac
  ln -s "$root/tests/data/vtest-$i.png" "$(printf '%s/clip/%03d.png' "$tmp" "$n")"
done
# shellcheck disable=SC2054 # commas inside caps, not separators
clip_src=(multifilesrc location="$tmp/clip/%03d.png" stop-index=29 caps=image/png,framerate=10/1
  ! pngdec ! videoconvert ! videocrop top=72 bottom=72 ! videoscale)
launch "${clip_src[@]}" ! video/x-raw,width=1920,height=1080,pixel-aspect-ratio=1/1 \
  ! videoconvert ! video/x-raw,format=I420 ! vp9enc deadline=1 cpu-used=6 end-usage=cq cq-level=16 target-bitrate=8000000 \
  ! webmmux ! filesink location="$out/clip.webm"

made="rgbd.png cameras.json true-view-C.png colour.png depth16.png aloe-2dz.png 2dz.webm clip.webm"
if gst-inspect-1.0 --exists x264enc; then
  h264=(x264enc speed-preset=faster bitrate=8000)
elif gst-inspect-1.0 --exists openh264enc; then
  # it prints "Error:CWelsH264SVCEncoder::EncodeFrame(), cmInitParaError" at
  # 1080p and encodes every frame all the same
  h264=(openh264enc bitrate=8000000 gop-size=30)
else
  h264=()
fi
if [ ${#h264[@]} -gt 0 ] && gst-inspect-1.0 --exists h264parse && gst-inspect-1.0 --exists mp4mux; then
  launch "${clip_src[@]}" ! video/x-raw,width=1280,height=720,pixel-aspect-ratio=1/1 \
    ! videoconvert ! video/x-raw,format=I420 ! "${h264[@]}" ! h264parse ! mp4mux ! filesink location="$out/clip-h264.mp4"
  made="$made clip-h264.mp4"
else
  echo "make-example-media: no H.264 encoder (x264enc or openh264enc): clip-h264.mp4 not made" \
    "(only the README's nvh264dec pipeline reads it)" >&2
fi

echo "make-example-media: wrote into $out: $made"
