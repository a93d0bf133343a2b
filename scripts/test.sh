#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite (meson test).
# CUDA tests skip without a GPU; GST_CUDA_VIDEO_REQUIRE_GPU=1 makes them fail
# instead.  Extra arguments go to meson test.
#
# Environment (passed on to scripts/setup.sh):
#   GCV_BUILD_DIR      the build directory to build and test (default: build)
#   GCV_MESON_OPTIONS  extra meson setup options, e.g. "-Dcuda=disabled" for
#                      the CPU-only build: GCV_BUILD_DIR=build-nocuda
#                      GCV_MESON_OPTIONS=-Dcuda=disabled scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
meson test -C "${GCV_BUILD_DIR:-build}" --print-errorlogs "$@"
