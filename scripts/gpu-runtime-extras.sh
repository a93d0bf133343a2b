#!/usr/bin/env bash
# Adds to a runtime packed by ../shared/gpu-host/pack-runtime.sh (default
# .gpu-runtime) what this project's tests and benchmarks need beyond it: the
# PNG, JPEG (jpegdec: the stereo pair of elements-dibr-stereo-pair) and
# multifile (multifilesrc: PNG sequences) GStreamer plugins, and every shared library the given binaries load that
# the runtime lacks (libpng, OpenCV core/imgproc for the benchmark peer,
# liblqr-1.so.0 for bench-seamcarve's peer, ...).
#
#   scripts/gpu-runtime-extras.sh BINARY... [--runtime DIR]
set -euo pipefail
rt=.gpu-runtime
bins=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runtime) rt=$2; shift 2 ;;
    *) bins+=("$1"); shift ;;
  esac
done
libdir="$rt/root/usr/lib/x86_64-linux-gnu"
plugdir="$libdir/gstreamer-1.0"
[ -d "$plugdir" ] || { echo "no packed runtime at $rt (run ../shared/gpu-host/pack-runtime.sh)" >&2; exit 1; }
gstdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
cp -f "$gstdir/libgstpng.so" "$gstdir/libgstjpeg.so" "$gstdir/libgstmultifile.so" "$plugdir/"
for f in "${bins[@]}" "$plugdir/libgstpng.so" "$plugdir/libgstjpeg.so" "$plugdir/libgstmultifile.so"; do
  ldd "$f" | awk '/=> \// { print $3 }'
done | sort -u | while read -r lib; do
  base=$(basename "$lib")
  case "$base" in
    libc.so.*|libm.so.*|libdl.so.*|libpthread.so.*|librt.so.*|ld-linux*|libstdc++.so.*|libgcc_s.so.*|libcuda.so.*|libnvidia*) continue ;;
  esac
  [ -e "$libdir/$base" ] || cp -L "$lib" "$libdir/$base"
done
du -sh "$rt"
