#!/usr/bin/env bash
# Packs what a GPU-host job needs beyond the tracked files into one gzip
# tarball that fits the device's 64 MiB carry (../shared/gpu-host/README.md,
# "Fitting the 64 MiB carry"): a build directory made here (object files and
# static libraries dropped, ELF files stripped of debug info) and the packed
# GStreamer runtime, plus any further ignored directories named (a GStreamer
# prefix of another release and the project built against it).
#
#   scripts/gpu-bundle.sh [-o .gpu-carry/bundle.tar.gz] [-x PATTERN]... BUILD_DIR [EXTRA_DIR...]
#
# -x leaves out what matches a tar --exclude pattern, so that a job carries
# only what it runs: the test suite without the benchmarks and the OpenCV
# their peers load (-x 'BUILD/tests/bench/bench-*' -x '*/libopencv_*'), or
# the benchmarks without the test programs.  meson's CMake probe
# (meson-private/__CMake_compiler_info__) is always left out.
#
# On the GPU host, in the repository root: tar -xzf .gpu-carry/bundle.tar.gz
# (the build directory keeps its absolute paths: the host sees the checkout
# at the same path as here).  Prints the tarball's size; fails when it and
# the tracked files would not fit the carry.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.gpu-carry/bundle.tar.gz
excludes=(--exclude='*/meson-private/__CMake_compiler_info__')
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    -x) excludes+=(--exclude="$2"); shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [-o OUT] [-x PATTERN]... BUILD_DIR [EXTRA_DIR...]" >&2; exit 2; }
build=$1; shift
[ -f "$build/build.ninja" ] || { echo "$build is not a meson build directory" >&2; exit 1; }
[ -d .gpu-runtime ] || { echo "no .gpu-runtime: run ../shared/gpu-host/pack-runtime.sh first" >&2; exit 1; }

# every shared library the plugin, the library and the test programs load
# that the packed runtime lacks (json-glib came after the runtime was
# packed: a whole GPU run was lost to a plugin that could not load)
scripts/gpu-runtime-extras.sh $(find "$build/gst" -type f -name '*.so*' ! -name '*.symbols') \
  $(find "$build/tests" -maxdepth 1 -type f -perm -u+x) > /dev/null

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# the build directory as it is, less what only linking needed
mkdir -p "$stage/$(dirname "$build")"
cp -a "$build" "$stage/$build"
find "$stage/$build" \( -name '*.o' -o -name '*.a' \) -delete
find "$stage/$build" -type f -perm -u+x -print0 | while IFS= read -r -d '' f; do
  if head -c 4 "$f" | grep -q ELF; then strip --strip-debug "$f" 2>/dev/null || true; fi
done
find "$stage/$build" -name '*.so*' -type f -print0 | xargs -0 -r strip --strip-debug 2>/dev/null || true
mkdir -p "$(dirname "$out")"
tar -czf "$out" "${excludes[@]}" -C "$stage" "$build" -C "$PWD" .gpu-runtime "$@"
size=$(stat -c %s "$out")
tracked=$(git ls-files -z | xargs -0 du -cb | tail -1 | cut -f1)
echo "gpu-bundle: $out $((size / 1048576)) MiB, tracked files $((tracked / 1048576)) MiB"
if [ $((size + tracked)) -gt $((63 * 1048576)) ]; then
  echo "gpu-bundle: over the 64 MiB carry: carry less" >&2
  exit 1
fi
