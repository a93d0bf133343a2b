#!/usr/bin/env bash
# Sets everything up, builds, and runs the whole test suite (meson test).
# CUDA tests skip without a GPU; GST_CUDA_VIDEO_REQUIRE_GPU=1 makes them fail
# instead.  Extra arguments go to meson test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
meson test -C build --print-errorlogs "$@"
