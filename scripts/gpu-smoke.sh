#!/bin/bash
# cudacanny vs cpucanny on real photos, many formats/modes/params: outputs must be byte-identical.
set -u
B=${1:-build-gpu}
source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gst-inspect-1.0 cudacanny >/dev/null || exit 1
pass=0; fail=0
for n in camera coffee astronaut chelsea; do
  for fmt in GRAY8 GRAY16_LE I420 NV12 RGBA BGRx; do
    for p in "blur-size=0" "blur-size=3 l2-gradient=true" "blur-size=5" "blur-size=7 blur-sigma=0 low-threshold=10 high-threshold=30" "mode=magnitude" "mode=magnitude l2-gradient=true blur-size=0" "mode=overlay"; do
      for el in cpucanny cudacanny; do
        gst-launch-1.0 -q filesrc location=tests/data/$n.png ! pngdec ! videoconvert ! video/x-raw,format=$fmt ! $el $p fallback=false ! videoconvert ! video/x-raw,format=RGBA ! filesink location=/tmp/o-$el.raw 2>/tmp/err-$el.txt || { echo "launch failed $el $n $fmt $p"; cat /tmp/err-$el.txt; }
      done
      if cmp -s /tmp/o-cpucanny.raw /tmp/o-cudacanny.raw && [ -s /tmp/o-cpucanny.raw ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "DIFF $n $fmt $p"; cmp /tmp/o-cpucanny.raw /tmp/o-cudacanny.raw | head -2; fi
    done
  done
done
echo "smoke: $pass identical, $fail different"
