#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for gst-cuda-video and builds it into
# ./build.  Installs the Debian packages that are missing (as root, or with
# sudo), uses nvcc when a CUDA Toolkit is present (/usr/local/cuda or PATH),
# then with GStreamer's CUDA library (memory:CUDAMemory), and configures the
# build.  Safe to run again: it only does what is missing.
# Without a CUDA Toolkit (or with -Dcuda=disabled) it builds the CPU
# implementation only; the cuda* elements then always fall back.
#
#   scripts/setup.sh [extra meson setup options]
#
# Environment:
#   GCV_BUILD_DIR      the build directory, relative to the repository root
#                      or absolute (default: build)
#   GCV_MESON_OPTIONS  extra meson setup options, split on whitespace and put
#                      before the arguments, e.g. "-Dcuda=disabled" or
#                      "-Dcuda=enabled -Dcuda-arch=90"
set -euo pipefail
cd "$(dirname "$0")/.."
build="${GCV_BUILD_DIR:-build}"
read -r -a meson_options <<< "${GCV_MESON_OPTIONS:-}"
meson_options+=("$@")

# nvcc: from PATH, else the usual toolkit location
if ! command -v nvcc >/dev/null 2>&1; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
    if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
  done
fi
cuda_disabled=false
for o in "${meson_options[@]}"; do
  case "$o" in -Dcuda=disabled) cuda_disabled=true ;; -Dcuda=*) cuda_disabled=false ;; esac
done
if $cuda_disabled; then
  echo "setup: -Dcuda=disabled: building the CPU implementation only into $build (cuda* elements fall back)"
elif command -v nvcc >/dev/null 2>&1; then
  echo "setup: building the CUDA kernels with $(command -v nvcc) into $build"
else
  echo "setup: no nvcc found: building the CPU implementation only into $build (cuda* elements fall back)"
fi

# gstreamer1.0-x: a window for autovideosink (without it the examples'
# autovideosink quietly falls back to a fake sink and shows nothing);
# gobject-introspection, libgirepository1.0-dev: the GstCudaVideo-1.0
# typelib Python reads the results with; python3-gst-1.0 (gst-python's
# overrides: Gst.Buffer.map gives a memoryview) and python3-numpy: the
# records as arrays without a copy (tests and examples)
packages=(
  meson ninja-build pkg-config gcc g++
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-x
  libfftw3-dev libpng-dev
  libjson-glib-dev
  locales
  python3-gi gir1.2-gstreamer-1.0
  gobject-introspection libgirepository1.0-dev python3-gst-1.0 python3-numpy
)
# with the CUDA kernels: GStreamer's CUDA library (gst-plugins-bad), for
# memory:CUDAMemory and a CUDA context shared with cudaupload, the NVDEC
# decoders, ... (its elements: gstreamer1.0-plugins-bad)
if ! $cuda_disabled && command -v nvcc >/dev/null 2>&1; then
  packages+=(libgstreamer-plugins-bad1.0-dev gstreamer1.0-plugins-bad)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# a locale whose decimal point is ',', for the test that every number read
# from a text file is read the same whatever the locale (elements-locale;
# it skips, saying why, where the locale is missing)
if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf8'; then
  echo "setup: generating the de_DE.UTF-8 locale (for the locale test)"
  $sudo localedef -i de_DE -f UTF-8 de_DE.UTF-8 \
    || echo "setup: could not generate de_DE.UTF-8: elements-locale will skip"
fi

if [ -d "$build" ] && [ -f "$build/build.ninja" ]; then
  meson setup --reconfigure "$build" "${meson_options[@]}" >/dev/null
else
  rm -rf "$build"
  meson setup "$build" "${meson_options[@]}" >/dev/null
fi
ninja -C "$build"
