#!/usr/bin/env bash
# The GPU side of scripts/gst-matrix.sh: the project's test suite with the
# GPU required, and NVDEC chains through our elements, against the
# GStreamer prefix of one release (and that release's own nvcodec:
# cudaupload, cudadownload, cudaconvertscale, nvh264dec), on a GPU host
# that has no GStreamer and no GLib of its own.
#
#   scripts/gst-matrix-gpu.sh pack VERSION   here, in the checkout the GPU
#       host gets: builds the project against the cached prefix of VERSION
#       (scripts/gst-matrix.sh --cuda, -Dcuda-arch=90, no benchmarks or
#       examples) into build-gst-VERSION-cuda, makes an H.264 clip of the
#       test photos (x264enc of the system's GStreamer), and packs the
#       stripped prefix, the stripped build directory, the clip, every
#       library they load that a bare system lacks (GLib, FFTW, OpenMP,
#       libpng, ...) and Debian's meson into ONE gzip tarball,
#       build-gpu-carry/gst-VERSION.tar.gz, whose size it prints (the
#       device's carry is 64 MiB in all).  Nothing of .gpu-runtime is needed.
#   scripts/gst-matrix-gpu.sh run VERSION    on the GPU host, after
#       tar -xzf build-gpu-carry/gst-VERSION.tar.gz: builds nothing; runs
#       meson test --no-rebuild with GST_CUDA_VIDEO_REQUIRE_GPU=1, then the
#       chains, each compared byte for byte with the same elements in system
#       memory (or with the cpu twin); logs under $OUT (default
#       ./gpu-proof-out/gst-VERSION).  Prints one line per step and a last
#       line "gst-matrix-gpu: VERSION: N passed, N failed"; the exit status
#       is the number of failed steps.  TESTS="name ..." runs only those
#       tests of the suite (e.g. "elements-cuda-memory elements-cuda-streams
#       elements-async" when device time is short); CHAINS=0 skips the
#       chains.
#
# The prefixes come from scripts/gst-matrix.sh (GST_MATRIX_PREFIXES, or
# --prefixes DIR as the first arguments of pack).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
mode=${1:-}
version=${2:-}
[ -n "$mode" ] && [ -n "$version" ] || { sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2; }
carry="build-gpu-carry"
bundle_dir="$carry/gst-$version"
build="build-gst-$version-cuda"

# ---- pack (here) -------------------------------------------------------------
pack() {
  set -e
  local prefixes=${GST_MATRIX_PREFIXES:-${XDG_CACHE_HOME:-$HOME/.cache}/gst-cuda-video/gst-prefix}
  local prefix="$prefixes/$version"
  [ -f "$prefix/.complete" ] || { echo "no prefix of $version in $prefixes: scripts/gst-matrix.sh --prefix-only $version" >&2; exit 1; }
  scripts/gst-matrix.sh --prefixes "$prefixes" --cuda --no-tests --meson-option=-Dcuda-arch=90 \
    --meson-option=-Dbenchmarks=false --meson-option=-Dexamples=false "$version"
  rm -rf "$bundle_dir" "$carry/gst-$version.tar.gz" "$carry/stage-$version"
  mkdir -p "$bundle_dir/lib" "$bundle_dir/python" "$bundle_dir/bin"
  # the prefix without what only building against it needs
  cp -a "$prefix" "$bundle_dir/prefix"
  rm -rf "$bundle_dir/prefix/include" "$bundle_dir/prefix/share/gir-1.0" "$bundle_dir/prefix/share/gtk-doc" \
    "$bundle_dir/prefix/lib/pkgconfig" "$bundle_dir/prefix/share/aclocal"
  # the build without objects and static archives, its ELF files stripped
  local stage="$carry/stage-$version"
  mkdir -p "$stage"
  cp -a "$build" "$stage/"
  find "$stage/$build" \( -name '*.o' -o -name '*.a' \) -delete
  find "$bundle_dir/prefix" "$stage/$build" -type f | while read -r f; do
    if head -c 4 "$f" 2>/dev/null | grep -q 'ELF'; then strip --strip-debug "$f" 2>/dev/null || true; fi
  done
  # what the ELF files load that a bare host lacks (the host has libc,
  # libstdc++ and the NVIDIA driver; CUDA's libraries come from its
  # toolkit, cuFFT is loaded at run time)
  find "$bundle_dir/prefix" "$stage/$build" -type f \( -name '*.so*' -o -perm -u+x \) | while read -r f; do
    { LD_LIBRARY_PATH="$prefix/lib" ldd "$f" 2>/dev/null || true; } | awk '/=> \// { print $3 }'
  done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*) continue ;;
      libcuda.so.*|libnvidia*|libcufft*|libcudart*) continue ;;
    esac
    case "$lib" in "$prefix"/*|"$root"/*) continue ;; esac
    cp -L "$lib" "$bundle_dir/lib/"
  done
  # Debian's meson (1.0.1, the one that configured the build) for meson test
  cp -a "$(python3 -c 'import mesonbuild, os; print(os.path.dirname(mesonbuild.__file__))' 2>/dev/null \
      || echo /usr/lib/python3/dist-packages/mesonbuild)" "$bundle_dir/python/"
  printf '#!/bin/sh\nexec python3 -c "import sys; from mesonbuild.mesonmain import main; sys.exit(main())" "$@"\n' \
    > "$bundle_dir/bin/meson"
  chmod +x "$bundle_dir/bin/meson"
  # a clip for the NVDEC chains: the photos of people walking (Annex B,
  # constrained baseline 4:2:0, which nvh264dec takes; no demuxer needed)
  gst-launch-1.0 -q multifilesrc location=tests/data/vtest-10%d.png index=0 stop-index=3 loop=true \
      num-buffers=24 caps=image/png,framerate=10/1 ! pngdec ! videoconvert ! videoscale \
    ! video/x-raw,format=I420,width=640,height=480 ! x264enc speed-preset=ultrafast key-int-max=8 \
    ! video/x-h264,profile=constrained-baseline,stream-format=byte-stream ! filesink location="$bundle_dir/clip.h264"
  cat > "$bundle_dir/env.sh" <<'EOF'
# source me on the GPU host: the packed prefix first, then the libraries it
# and the build load, Debian's meson, the host's CUDA libraries last
_b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$_b/prefix/env.sh"
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$_b/lib"
export PATH="$_b/bin:$PATH"
export PYTHONPATH="$_b/python${PYTHONPATH:+:$PYTHONPATH}"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
for _d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d "$_d" ] && export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$_d"
done
unset _b _d
EOF
  tar -czf "$carry/gst-$version.tar.gz" -C "$stage" "$build" -C "$root" "$bundle_dir"
  rm -rf "$stage" "$bundle_dir"
  echo "gst-matrix-gpu: $carry/gst-$version.tar.gz: $(du -m "$carry/gst-$version.tar.gz" | cut -f1) MiB" \
    "($(tar -tzf "$carry/gst-$version.tar.gz" | wc -l) files)"
}

# ---- run (on the GPU host) ---------------------------------------------------
passed=0
failed=0
step() {
  if [ "$2" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  echo "== $1: $2"
}

# Runs `gst-launch-1.0 -q SRC ! MIDDLE ! filesink` into $OUT/NAME.raw.
chain() {
  local name=$1 middle=$2
  # shellcheck disable=SC2086
  timeout 60 gst-launch-1.0 -q filesrc location="$bundle_dir/clip.h264" ! h264parse ! nvh264dec \
    ! $middle ! filesink location="$OUT/$name.raw" > "$OUT/$name.log" 2>&1
}

# Runs two chains and compares their outputs byte for byte.
compare() {
  local what=$1 a=$2 b=$3
  if chain "$what-a" "$a" && chain "$what-b" "$b" && [ -s "$OUT/$what-a.raw" ] \
     && cmp -s "$OUT/$what-a.raw" "$OUT/$what-b.raw"; then
    step "$what ($(stat -c %s "$OUT/$what-a.raw") bytes equal)" ok
  else
    step "$what" FAILED
    tail -n 5 "$OUT/$what-a.log" "$OUT/$what-b.log" 2>/dev/null
  fi
}

run() {
  [ -f "$bundle_dir/env.sh" ] || { echo "no $bundle_dir: tar -xzf $carry/gst-$version.tar.gz first" >&2; exit 1; }
  OUT=${OUT:-$root/gpu-proof-out}/gst-$version
  mkdir -p "$OUT"
  # shellcheck disable=SC1091
  source "$bundle_dir/env.sh"
  export GST_PLUGIN_PATH="$root/$build/gst"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
  gst-inspect-1.0 --version | tail -n 1
  for e in cudaupload cudadownload nvh264dec cudaconvertscale cudacanny; do
    gst-inspect-1.0 "$e" > /dev/null 2>&1 || echo "gst-matrix-gpu: $e is not registered"
  done

  # shellcheck disable=SC2086
  GST_CUDA_VIDEO_REQUIRE_GPU=1 timeout 420 meson test -C "$build" --no-rebuild --print-errorlogs \
    --num-processes 8 ${TESTS:-} > "$OUT/meson-test.txt" 2>&1 \
    && step "meson test (GPU required)" ok || step "meson test (GPU required)" FAILED
  grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:" "$OUT/meson-test.txt"
  [ "${CHAINS:-1}" != 0 ] || { echo "gst-matrix-gpu: $version: $passed passed, $failed failed"; exit "$failed"; }

  local dl="cudadownload ! video/x-raw"
  # the edge map (GRAY8 in our elements) through cudadownload, which takes
  # no GRAY8: it comes out as NV12, equal to cpucanny's NV12 map
  compare canny-edges-nv12 "cudacanny ! $dl,format=NV12" \
    "$dl,format=NV12 ! cpucanny ! video/x-raw,format=NV12"
  # CUDA memory through three of our elements == the same elements fed system memory
  local body="cudacanny mode=overlay ! cudabsplinescale ! video/x-raw(memory:CUDAMemory),width=800,height=600"
  compare chain-nv12 "$body ! $dl" "$dl ! ${body//(memory:CUDAMemory)/} ! video/x-raw"
  # in place on CUDA memory: the frames and the vectors (JSON lines) of system memory
  compare motionest "cudamotionest location=$OUT/motion-a.jsonl ! $dl" \
    "$dl ! cudamotionest location=$OUT/motion-b.jsonl ! video/x-raw"
  if [ -s "$OUT/motion-a.jsonl" ] && cmp -s "$OUT/motion-a.jsonl" "$OUT/motion-b.jsonl"; then
    step "motionest vectors ($(wc -l < "$OUT/motion-a.jsonl") lines equal)" ok
  else
    step "motionest vectors" FAILED
  fi
  if gst-inspect-1.0 cudaconvertscale > /dev/null 2>&1; then
    # 1.24 on: cudaconvertscale in front (RGBA in CUDA memory), our stream on its pool
    local rgba="cudaconvertscale ! video/x-raw(memory:CUDAMemory),format=RGBA,width=720,height=540"
    compare convertscale-chain "$rgba ! $body ! $dl" "$rgba ! $dl ! ${body//(memory:CUDAMemory)/} ! video/x-raw"
    # 1.26 on: stream-ordered allocation in GStreamer's CUDA pools
    export GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC=1
    compare stream-ordered "$rgba ! $body ! $dl" "$rgba ! $dl ! ${body//(memory:CUDAMemory)/} ! video/x-raw"
    unset GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC
  fi
  echo "gst-matrix-gpu: $version: $passed passed, $failed failed"
  exit "$failed"
}

case $mode in
  pack) pack ;;
  run) run ;;
  *) echo "gst-matrix-gpu: pack or run, not $mode" >&2; exit 2 ;;
esac
