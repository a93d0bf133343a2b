#!/usr/bin/env bash
# Issue 29's GPU job: our rows next to the GPU peers, the system-memory
# rows near the PCIe limit, seam carving at its defaults; the optical-flow
# engine against the motion elements (a second job) and the seam carving
# stall's stress test (a third).  Tables print as they come;
# logs and JSON go under $OUT.  Every command runs under `timeout`.
#
# Here (the nvcc build, sm_90), once:
#   meson setup build-gpu -Dcuda=enabled -Dcuda-arch=90 && ninja -C build-gpu
#   scripts/gpu-peers.sh --pack build-gpu     # -> out/gpu-peers-bundle.tar.gz
# On the GPU host (carry: out/gpu-peers-bundle.tar.gz):
#   tar -xzf out/gpu-peers-bundle.tar.gz && scripts/gpu-peers.sh build-gpu           # job 1, ~7 min
#   tar -xzf out/gpu-peers-bundle.tar.gz && PARTS=motion scripts/gpu-peers.sh build-gpu   # job 2, ~3 min
#   tar -xzf out/gpu-peers-bundle.tar.gz && PARTS=stress scripts/gpu-peers.sh build-gpu   # job 3, ~4 min
#
# The bundle (scripts/gpu-bundle.sh) holds the build directory (no objects,
# ELF files stripped of debug info, no test programs), .gpu-runtime
# (pack-runtime.sh, with pack-nvcodec.sh's 1.22 cudaupload), and the runtime part of a newer GStreamer prefix with
# nvcodec's cudascale / cudaconvertscale (PEER_PREFIX, default the newest
# of /work/gst-prefix/1.26.9 and 1.28.6) as peer-gst/.
#
# PARTS (default "seamcarve pipeline canny bspline conv3d cudascale", in
# that order: the most important first; motion and stress are jobs of their
# own), on an H200:
#   seamcarve  bench-seamcarve video + element rows (default seams-per-pass,
#              16, 32) and bench-pipeline's seamcarve rows in all four
#              memory modes: the 200 fps target and the element's overhead   ~45 s
#   pipeline   bench-pipeline cudacanny 1080p sync / async / pool / cuda at
#              1, 8, 16 streams; NV12 and cudaupload ! cudacanny; the host's
#              memcpy / PCIe bandwidths and NUMA                              ~60 s
#   canny      bench-canny 1080p, 4K: ours, OpenCV, NPP                       ~40 s
#   bspline    bench-bsplinescale: ours, NPP, PyTorch, accuracy              ~100 s
#   conv3d     bench-conv3d 720x560 (the paper's) and 1920x1080: ours
#              against PyTorch F.conv3d                                      ~100 s
#   motion     NVIDIA's optical-flow engine (NVOFA) as the GPU peer of
#              cudamotionest and cudavcm: nvof-probe and nvof-bench caps (is
#              it there, its grids and sizes), then bench-motionest (hd, sd,
#              mods, codec) and bench-vcm (paper, hd, quality) with their
#              nvofa rows at every grid and perf level: time per pair and
#              endpoint error on the same pairs as ours                      ~3 min
#   cudascale  GStreamer's cudascale (PEER_PREFIX) against cudabsplinescale
#              in CUDA memory, 1080p->4K and 4K->1080p RGBA, and its
#              distance from the exact B-spline                               ~40 s
#   stress     scripts/gpu-stress-seamcarve.sh (issue 27 item 8)            ~4 min
# HOST_PY: the host's Python with PyTorch (default: python3 as found before
# the packed runtime is sourced).
set -u

if [ "${1:-}" = "--pack" ]; then
  B=${2:-build-gpu}
  PEER_PREFIX=${PEER_PREFIX:-$(ls -d /work/gst-prefix/1.26.9 /work/gst-prefix/1.28.6 2>/dev/null | tail -1)}
  extra=()
  rm -rf peer-gst
  if [ -n "$PEER_PREFIX" ] && [ -d "$PEER_PREFIX" ]; then
    # the prefix's runtime only (ignored by git, carried in the bundle)
    mkdir -p peer-gst
    (cd "$PEER_PREFIX" && cp -a bin lib libexec env.sh "$OLDPWD/peer-gst/") \
      && rm -rf peer-gst/lib/pkgconfig peer-gst/lib/girepository-1.0
    find peer-gst -name '*.so*' -type f -print0 | xargs -0 -r strip --strip-debug 2>/dev/null
    basename "$PEER_PREFIX" > peer-gst/VERSION
    extra=(peer-gst)
  else
    echo "no peer GStreamer prefix (PEER_PREFIX): the cudascale part will be skipped"
  fi
  # the libraries the benchmarks load that the packed runtime may lack
  # (OpenCV's core, imgproc and video for bench-canny and bench-vcm, liblqr)
  scripts/gpu-runtime-extras.sh "$B"/tests/bench/bench-{canny,bsplinescale,conv3d,seamcarve,pipeline,motionest,vcm} \
    "$B"/tests/bench/nvof-bench || echo "warning: scripts/gpu-runtime-extras.sh failed"
  # the benchmarks without the test programs, to fit the device's carry
  exec scripts/gpu-bundle.sh -o out/gpu-peers-bundle.tar.gz -x "$B/tests/*-test" -x "$B/tests/elements-*" \
    -x "$B/tests/libs-*" -x "$B/examples" "$B" "${extra[@]}"
fi

B=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-peers-out}
mkdir -p "$OUT"
HOST_PY=${HOST_PY:-$(command -v python3)}
# the peers' Python as the host has it: not the packed runtime's paths
export GCVB_PYTHON="env -u PYTHONPATH -u PYTHONHOME -u LD_LIBRARY_PATH $HOST_PY"
export HOST_PY
source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
PARTS=${PARTS:-seamcarve pipeline canny bspline conv3d cudascale}
want() { [[ " $PARTS " == *" $1 "* ]]; }
failed=0
T0=$SECONDS

# step NAME LIMIT_S CMD...: runs CMD under timeout, its output shown and
# kept in $OUT/NAME.txt; counts failures
step() {
  local name=$1 limit=$2 t=$SECONDS
  shift 2
  echo
  echo "=========== $name (at $((SECONDS - T0)) s, limit $limit s): $*"
  timeout -k 10 "$limit" "$@" > "$OUT/$name.txt" 2>&1
  local rc=$?
  cat "$OUT/$name.txt"
  echo "=========== $name: exit $rc, $((SECONDS - t)) s"
  [ $rc = 0 ] || failed=$((failed + 1))
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,compute_mode --format=csv,noheader | tee "$OUT/gpu.txt"
echo "host Python: $HOST_PY ($($GCVB_PYTHON -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1))"

if want seamcarve; then
  step seamcarve-bench 240 "$B/tests/bench/bench-seamcarve" --cases video,elements --reductions 10 -p 16,32 \
    --element-seams-per-pass default,16 --skip cpu,lqr --json "$OUT/bench-seamcarve.json"
  step seamcarve-pipeline 180 "$B/tests/bench/bench-pipeline" --cases seamcarve --modes sync,async,pool,cuda \
    --streams 1 --budget 1 --json "$OUT/bench-pipeline-seamcarve.json"
fi

if want pipeline; then
  step pipeline-canny 300 "$B/tests/bench/bench-pipeline" --cases canny --modes sync,async,pool,cuda \
    --streams 1,8,16 --json "$OUT/bench-pipeline-canny.json"
  step pipeline-upload 180 "$B/tests/bench/bench-pipeline" --cases canny-nv12,upload-canny --modes sync,async \
    --streams 1 --budget 1 --json "$OUT/bench-pipeline-upload.json"
fi

if want canny; then
  step canny 300 "$B/tests/bench/bench-canny" --sizes 1080p,4k --skip elements,cpu,transfers \
    --json "$OUT/bench-canny.json"
fi

if want bspline; then
  step bspline 420 "$B/tests/bench/bench-bsplinescale" --skip elements,cpu --methods bspline,catmull-rom \
    --json "$OUT/bench-bsplinescale.json"
fi

if want conv3d; then
  step conv3d-paper 300 "$B/tests/bench/bench-conv3d" --skip cpu,elements --json "$OUT/bench-conv3d.json"
  step conv3d-1080p 300 "$B/tests/bench/bench-conv3d" --frame 1920x1080 --k 5,9,15 --skip cpu,elements \
    --json "$OUT/bench-conv3d-1080p.json"
fi

if want motion; then
  step nvof-probe 100 "$B/tests/bench/nvof-probe" 0
  step nvof-caps 100 "$B/tests/bench/nvof-bench" caps 0
  nvidia-smi -q -d UTILIZATION > "$OUT/nvidia-smi-utilization.txt" 2>&1
  echo "nvidia-smi's utilization engines (an OFA line where the driver knows the engine):"
  grep -iE "ofa|jpeg|decoder|encoder" "$OUT/nvidia-smi-utilization.txt"
  ls -l /usr/lib/x86_64-linux-gnu/libnvidia-opticalflow.so* 2>&1 | head -3
  # ours (cuda rows, quality from the cuda backend) and the engine's rows
  step motionest 600 "$B/tests/bench/bench-motionest" --cases hd,sd,mods,codec --skip cpu,ffmpeg,multi \
    --json "$OUT/bench-motionest.json"
  step vcm 480 "$B/tests/bench/bench-vcm" --cases paper,hd,quality --skip cpu,cpu1,opencv \
    --json "$OUT/bench-vcm.json"
fi

if want cudascale; then
  P=$OUT/cudascale
  PY="env -u PYTHONPATH -u PYTHONHOME -u LD_LIBRARY_PATH $HOST_PY scripts/gpu-peers-helper.py"
  mkdir -p "$P"
  if [ ! -f peer-gst/env.sh ]; then
    echo "cudascale: skipped: no peer-gst/ (a GStreamer prefix with nvcodec; scripts/gpu-peers.sh --pack)"
  elif ! $PY frames "$P" > "$P/frames.txt" 2>&1; then
    echo "cudascale: skipped: cannot make the frames: $(tail -1 "$P/frames.txt")"
  else
    echo
    echo "=========== cudascale ($(cat peer-gst/VERSION)) against cudabsplinescale (GStreamer 1.22), RGBA, CUDA memory"
    printf "%-22s %-36s %10s  %s\n" "case" "element" "ms/frame" "frame 0 against the exact B-spline"
    for c in "1920 1080 3840 2160 up" "3840 2160 1920 1080 down"; do
      read -r iw ih ow oh name <<< "$c"
      in="filesrc location=$P/in-${iw}x${ih}.raw ! rawvideoparse format=rgba width=$iw height=$ih framerate=30/1"
      outcaps="video/x-raw(memory:CUDAMemory),width=$ow,height=$oh"
      # the exact B-spline: our CPU backend, antialias off
      timeout 120 gst-launch-1.0 -q $in ! cpubsplinescale method=bspline antialias=false ! \
        video/x-raw,width=$ow,height=$oh ! filesink location="$P/ref-$name.raw" 2>> "$P/errors.txt"
      for el in cudascale cudaconvertscale; do
        # its own GStreamer first, the packed runtime's libraries (GLib) after
        ms=$(timeout 900 $PY time --env .gpu-runtime/env.sh,peer-gst/env.sh --in "$iw,$ih" --out "$ow,$oh" \
          --element $el)
        bash -c "source .gpu-runtime/env.sh && source peer-gst/env.sh && unset GST_PLUGIN_PATH && timeout 120 \
          gst-launch-1.0 -q $in ! cudaupload ! $el ! '$outcaps' ! cudadownload ! video/x-raw,format=RGBA ! \
          filesink location='$P/$el-$name.raw'" 2>> "$P/errors.txt"
        printf "%-22s %-36s %10s  %s\n" "${iw}x${ih}->${ow}x${oh}" "$el ($(cat peer-gst/VERSION))" "$ms" \
          "$($PY compare "$P/$el-$name.raw" "$P/ref-$name.raw")"
      done
      # ours in CUDA memory, through 1.22's cudaupload (pack-nvcodec.sh)
      ms=$(timeout 900 $PY time --env .gpu-runtime/env.sh --plugin-path "$PWD/$B/gst" --in "$iw,$ih" \
        --out "$ow,$oh" --element "cudabsplinescale method=bspline")
      timeout 120 gst-launch-1.0 -q $in ! cudaupload ! cudabsplinescale method=bspline ! "$outcaps" ! \
        cudadownload ! video/x-raw,format=RGBA ! filesink location="$P/ours-$name.raw" 2>> "$P/errors.txt"
      printf "%-22s %-36s %10s  %s\n" "${iw}x${ih}->${ow}x${oh}" "cudabsplinescale (ours, 1.22)" "$ms" \
        "$($PY compare "$P/ours-$name.raw" "$P/ref-$name.raw")"
    done | tee "$OUT/cudascale.txt"
    echo "ms/frame: the element's share of videotestsrc ! cudaupload ! ELEMENT ! (CUDA memory) ! fakesink, the"
    echo "slope between 150 and 1050 frames minus the same without ELEMENT, median of 3 (gpu-peers-helper.py);"
    echo "ours antialiases when shrinking (the exact B-spline reference does not); errors: $P/errors.txt"
  fi
fi

if want stress; then
  echo
  echo "=========== stress (at $((SECONDS - T0)) s)"
  OUT=$OUT timeout -k 10 420 scripts/gpu-stress-seamcarve.sh "$B" || failed=$((failed + 1))
fi

echo
echo "gpu-peers: parts \"$PARTS\" in $((SECONDS - T0)) s, $failed step(s) failed; logs and JSON in $OUT"
exit $failed
