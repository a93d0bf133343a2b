#!/bin/bash
# cuda* vs cpu* elements through gst-launch on real photos, many formats,
# modes and parameters: the outputs must be byte-identical.
# SMOKE selects the elements (default "canny bsplinescale").
set -u
B=${1:-build-gpu}
source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gst-inspect-1.0 cudacanny >/dev/null || exit 1
pass=0; fail=0
SMOKE=${SMOKE:-canny bsplinescale}

# same_output LABEL HEAD PROPS TAIL: runs HEAD ! cpu$ELEMENT PROPS ! TAIL and
# the same with cuda$ELEMENT (fallback=false) and compares the bytes.
same_output() {
  local el
  for el in cpu cuda; do
    gst-launch-1.0 -q $2 ! $el$ELEMENT $3 fallback=false ! $4 ! filesink location=/tmp/o-$el.raw 2>/tmp/err-$el.txt \
      || { echo "launch failed $el$ELEMENT $1"; cat /tmp/err-$el.txt; }
  done
  if cmp -s /tmp/o-cpu.raw /tmp/o-cuda.raw && [ -s /tmp/o-cpu.raw ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "DIFF $ELEMENT $1"; cmp /tmp/o-cpu.raw /tmp/o-cuda.raw | head -2
  fi
}

if [[ " $SMOKE " == *" canny "* ]]; then
  ELEMENT=canny
  for n in camera coffee astronaut chelsea; do
    for fmt in GRAY8 GRAY16_LE I420 NV12 RGBA BGRx; do
      for p in "blur-size=0" "blur-size=3 l2-gradient=true" "blur-size=5" "blur-size=7 blur-sigma=0 low-threshold=10 high-threshold=30" "mode=magnitude" "mode=magnitude l2-gradient=true blur-size=0" "mode=overlay"; do
        same_output "$n $fmt $p" "filesrc location=tests/data/$n.png ! pngdec ! videoconvert ! video/x-raw,format=$fmt" "$p" "videoconvert ! video/x-raw,format=RGBA"
      done
    done
  done
fi

if [[ " $SMOKE " == *" bsplinescale "* ]]; then
  ELEMENT=bsplinescale
  # Rows of odd widths are padded, and padding bytes are not part of the
  # picture (nor written by the element): compare through a conversion to a
  # packed 4:4:4 format that has no padding and keeps every sample visible.
  unpadded() {
    case $1 in
      GRAY16_LE) echo "videoconvert ! video/x-raw,format=AYUV64" ;;
      RGBA|BGRA|RGBx|BGRx|ARGB|ABGR) echo "videoconvert ! video/x-raw,format=RGBA" ;;
      *) echo "videoconvert ! video/x-raw,format=AYUV" ;;
    esac
  }
  methods=("method=bspline" "method=catmull-rom" "method=bilinear" "method=nearest" "method=bspline antialias=false" "method=catmull-rom antialias=false")
  i=0
  for n in camera astronaut; do
    for fmt in GRAY8 GRAY16_LE I420 YV12 NV12 Y42B Y444 RGBA BGRA RGBx BGRx ARGB ABGR; do
      for size in "width=1283,height=963" "width=173,height=131" "width=1,height=1" "width=2048,height=1517"; do
        p=${methods[$((i % ${#methods[@]}))]}; i=$((i + 1))
        same_output "$n $fmt $size $p" "filesrc location=tests/data/$n.png ! pngdec ! videoconvert ! video/x-raw,format=$fmt" "$p" "video/x-raw,$size ! $(unpadded $fmt)"
      done
    done
  done
  for fmt in GRAY8 RGBA I420; do
    for p in "${methods[@]}"; do
      same_output "coffee $fmt 1/3 $p" "filesrc location=tests/data/coffee.png ! pngdec ! videoconvert ! video/x-raw,format=$fmt" "$p" "video/x-raw,width=200,height=133 ! $(unpadded $fmt)"
    done
  done
fi
echo "smoke: $pass identical, $fail different"
