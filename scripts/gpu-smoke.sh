#!/bin/bash
# cuda* vs cpu* elements through gst-launch on real photos and moving test
# video, many formats, modes and parameters: the outputs must be
# byte-identical (canny, bsplinescale, seamcarve, motionest, vcm: frames with
# the arrows drawn, and the JSON-lines vector files) or within one level (conv3d:
# float sums in a different order, the contract's tolerance).
# SMOKE selects the elements (default "canny bsplinescale conv3d seamcarve
# motionest vcm dibr"); MOTION_DEVICES adds cudamotionest runs with devices=... (e.g.
# "0,1" on a two-GPU host, "0,0" on one), both splits.
set -u
B=${1:-build-gpu}
source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gst-inspect-1.0 cudacanny >/dev/null || exit 1
pass=0; fail=0
SMOKE=${SMOKE:-canny bsplinescale conv3d seamcarve motionest vcm dibr}

# same_output LABEL HEAD PROPS TAIL: runs HEAD ! cpu$ELEMENT PROPS ! TAIL and
# the same with cuda$ELEMENT (fallback=false: the cpu* elements have no such
# property) and compares the bytes; with
# MAX_DIFF=n, bytes may differ by up to n.
same_output() {
  local el nofb
  for el in cpu cuda; do
    nofb=""; [ $el = cuda ] && nofb="fallback=false"
    gst-launch-1.0 -q $2 ! $el$ELEMENT $3 $nofb ! $4 ! filesink location=/tmp/o-$el.raw 2>/tmp/err-$el.txt \
      || { echo "launch failed $el$ELEMENT $1"; cat /tmp/err-$el.txt; }
  done
  local worst=0
  if [ "${MAX_DIFF:-0}" -gt 0 ] && [ -s /tmp/o-cpu.raw ] \
      && [ "$(stat -c %s /tmp/o-cpu.raw)" = "$(stat -c %s /tmp/o-cuda.raw 2>/dev/null)" ]; then
    # samples of SAMPLE_BYTES (2 for 16-bit formats) compared as numbers
    worst=$(paste <(od -An -v -tu"${SAMPLE_BYTES:-1}" /tmp/o-cpu.raw | tr -s ' ' '\n' | grep .) \
        <(od -An -v -tu"${SAMPLE_BYTES:-1}" /tmp/o-cuda.raw | tr -s ' ' '\n' | grep .) \
      | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { print m + 0 }')
    if [ "$worst" -le "$MAX_DIFF" ]; then pass=$((pass+1)); return; fi
  fi
  if cmp -s /tmp/o-cpu.raw /tmp/o-cuda.raw && [ -s /tmp/o-cpu.raw ]; then
    pass=$((pass+1))
  else
    fail=$((fail+1)); echo "DIFF $ELEMENT $1 (largest byte difference $worst)"; cmp /tmp/o-cpu.raw /tmp/o-cuda.raw | head -2
  fi
}

# Rows of odd widths are padded, and padding bytes are not part of the
# picture (nor written by the elements): compare through a conversion to a
# packed 4:4:4 format that has no padding and keeps every sample visible.
unpadded() {
  case $1 in
    GRAY16_LE) echo "videoconvert ! video/x-raw,format=AYUV64" ;;
    RGBA|BGRA|RGBx|BGRx|ARGB|ABGR|xRGB|xBGR) echo "videoconvert ! video/x-raw,format=RGBA" ;;
    *) echo "videoconvert ! video/x-raw,format=AYUV" ;;
  esac
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
if [[ " $SMOKE " == *" conv3d "* ]]; then
  ELEMENT=conv3d
  MAX_DIFF=1
  for fmt in GRAY8 GRAY16_LE I420 NV12 Y444 RGBA BGRx; do
    for p in "size=5" "size=9 algorithm=streaming" "size=7 algorithm=fft-hybrid" \
        "size=15 temporal-size=3 algorithm=fft3d" "kernel=gabor size=11 temporal-size=5 speed=1 absolute=true scale=3" \
        "size=3 algorithm=shared border=zero" "size=5 algorithm=baseline border=replicate planes=luma"; do
      SAMPLE_BYTES=1; [ $fmt = GRAY16_LE ] && SAMPLE_BYTES=2
      same_output "ball $fmt $p" "videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=$fmt,width=333,height=217" \
        "$p" "$(unpadded $fmt)"
    done
  done
  # a baseline frame of 1.25e11 multiply-adds: the GPU runs it in two bands
  # (kBandTaps, kernels/conv3d.cu); the CPU takes about 10 s on 16 threads
  SAMPLE_BYTES=1 same_output "banded baseline GRAY8 2048x2048" \
    "videotestsrc pattern=ball num-buffers=1 ! video/x-raw,format=GRAY8,width=2048,height=2048" \
    "size=31 temporal-size=31 algorithm=baseline" "$(unpadded GRAY8)"
  MAX_DIFF=0; SAMPLE_BYTES=1
fi
if [[ " $SMOKE " == *" seamcarve "* ]]; then
  # exact and fast are both integer and bit-identical across backends
  ELEMENT=seamcarve
  i=0
  sizes=("width=411" "height=301" "width=377,height=355" "width=1" "height=2" "width=700" "width=640,height=300")
  for n in camera coffee astronaut chelsea; do
    for fmt in GRAY8 Y444 RGBA BGRx ARGB xBGR; do
      for p in "mode=exact" "mode=fast seams-per-pass=8 energy=forward" "mode=fast seams-per-pass=32 energy=gradient-l2 order=height-first"; do
        size=${sizes[$((i % ${#sizes[@]}))]}; i=$((i + 1))
        same_output "$n $fmt $size $p" "filesrc location=tests/data/$n.png ! pngdec ! videoconvert ! video/x-raw,format=$fmt" "$p" "video/x-raw,$size ! $(unpadded $fmt)"
      done
    done
  done
  # video: temporal coherence carries state from frame to frame; show-seams
  for p in "width=280 temporal-coherence=1" "width=280 height=200 mode=fast temporal-coherence=0.5 energy=forward" \
      "width=250 show-seams=true" "width=400 height=150 show-seams=true order=height-first"; do
    same_output "ball RGBA $p" "videotestsrc pattern=ball num-buffers=12 ! video/x-raw,format=RGBA,width=333,height=217" \
      "$p" "$(unpadded RGBA)"
  done
fi
if [[ " $SMOKE " == *" motionest "* ]]; then
  # integer contract: vectors, SADs and so the arrows are bit-identical
  ELEMENT=motionest
  extra_runs=("")
  for d in ${MOTION_DEVICES:-}; do extra_runs+=("devices=$d split=parallel" "devices=$d split=serial"); done
  for p in "draw=true" "draw=true subpel=half block-width=36 block-height=24 search-range-x=36 search-range-y=24" \
      "draw=true subpel=quarter method=mods search-range-x=64" "draw=true block-width=13 block-height=7 zero-threshold=4" \
      "draw=true method=mods subpel=half block-width=8 block-height=8"; do
    for fmt in GRAY8 I420 NV12 Y444; do
      for x in "${extra_runs[@]}"; do
        ELEMENT="motionest $x" same_output "vtest $fmt $p $x" \
          "multifilesrc location=tests/data/vtest-%d.png start-index=100 stop-index=103 caps=image/png,framerate=25/1 ! pngdec ! videoconvert ! video/x-raw,format=$fmt" \
          "$p" "$(unpadded $fmt)"
      done
    done
    ELEMENT=motionest same_output "ball $p" "videotestsrc pattern=ball num-buffers=8 ! video/x-raw,format=I420,width=641,height=481" \
      "$p" "$(unpadded I420)"
  done
  # a full search of 9.7e11 differences: the GPU runs it in two slices of
  # blocks (kSliceDiffs, kernels/motionest.cu); the CPU takes a few seconds
  ELEMENT=motionest same_output "sliced full search GRAY8 1280x720" \
    "videotestsrc pattern=ball num-buffers=2 ! video/x-raw,format=GRAY8,width=1280,height=720" \
    "draw=true block-width=4 block-height=4 search-range-x=128 search-range-y=128 subpel=quarter" "$(unpadded GRAY8)"
  # the JSON-lines files
  for x in "${extra_runs[@]}"; do
    for el in cpu cuda; do
      rm -f /tmp/v-$el.jsonl
      extra=""; [ $el = cuda ] && extra="fallback=false $x"
      gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=GRAY8,width=1280,height=720 \
        ! ${el}motionest subpel=quarter search-range-x=20 location=/tmp/v-$el.jsonl $extra ! fakesink
    done
    if cmp -s /tmp/v-cpu.jsonl /tmp/v-cuda.jsonl && [ "$(wc -l < /tmp/v-cpu.jsonl)" = 10 ]; then pass=$((pass+1));
    else fail=$((fail+1)); echo "DIFF motionest JSON $x"; fi
  done
fi
if [[ " $SMOKE " == *" vcm "* ]]; then
  # integer / fixed double contract: points, vectors, scores and the arrows
  # are bit-identical; several frames, so the temporal term is in play
  ELEMENT=vcm
  for p in "draw=true draw-scale=4" "draw=true template-size=3 search-size=32 points-per-window=4 max-points=500" \
      "draw=true window-size=8 coherence-radius=0 subpixel=false" "draw=true template-size=13 search-size=96 temporal-weight=2"; do
    for fmt in GRAY8 I420 NV12 Y444; do
      same_output "vtest $fmt $p" \
        "multifilesrc location=tests/data/vtest-%d.png start-index=100 stop-index=103 caps=image/png,framerate=25/1 ! pngdec ! videoconvert ! video/x-raw,format=$fmt" \
        "$p" "$(unpadded $fmt)"
    done
    same_output "ball $p" "videotestsrc pattern=ball num-buffers=8 ! video/x-raw,format=I420,width=641,height=481" \
      "$p" "$(unpadded I420)"
  done
  for el in cpu cuda; do
    rm -f /tmp/p-$el.jsonl
    gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=10 ! video/x-raw,format=GRAY8,width=1920,height=1080 \
      ! ${el}vcm max-points=8192 points-per-window=4 $([ $el = cuda ] && echo fallback=false) location=/tmp/p-$el.jsonl ! fakesink
  done
  if cmp -s /tmp/p-cpu.jsonl /tmp/p-cuda.jsonl && [ "$(wc -l < /tmp/p-cpu.jsonl)" = 10 ]; then pass=$((pass+1));
  else fail=$((fail+1)); echo "DIFF vcm JSON"; fi
fi
if [[ " $SMOKE " == *" dibr "* ]]; then
  # integer / fixed-order float contract: identical frames; moving test
  # video stands in for colour and depth (any 8- or 16-bit values are a
  # depth)
  ELEMENT=dibr
  for io in "layout=side-by-side:RGBA,width=1280,height=480" "layout=side-by-side:BGRx,width=1282,height=481" \
      "layout=top-bottom:I420,width=640,height=960" "layout=alpha:RGBA,width=641,height=480" \
      "layout=side-by-side:RGBA64_LE,width=1280,height=480" "layout=alpha:BGRA64_LE,width=641,height=480"; do
    for p in "output=virtual" "output=stereo-side-by-side symmetric=true zero-is-unknown=true" \
        "output=stereo-top-bottom baseline=0.5 median-size=1 dcbf-size=31" "output=anaglyph symmetric=true" \
        "debug-output=holes" "debug-output=depth convergence=0"; do
      same_output "${io%%:*} ${io#*:} $p" "videotestsrc pattern=ball num-buffers=3 ! video/x-raw,format=${io#*:}" \
        "${io%%:*} z-near=1 z-far=10 $p" "$(unpadded RGBA)"
    done
  done
fi
echo "smoke: $pass identical, $fail different"
