#!/usr/bin/env bash
# The GPU proof loop, run on the GPU host with .gpu-runtime and a build dir
# carried along (see ../shared/gpu-host/README.md and docs/performance.md):
#   1. the whole meson test suite with GST_CUDA_VIDEO_REQUIRE_GPU=1 (no skips)
#   2. compute-sanitizer memcheck / racecheck / synccheck / initcheck on the
#      CUDA parity test (quick mode: every kernel instantiation)
#   3. cuda* vs cpu* elements through gst-launch (scripts/gpu-smoke.sh)
#   4. the benchmark, table + JSON
#   5. the motion metas across processes through cudaipcsink / cudaipcsrc
#      (tests/check/ipc_motion.py --cuda: needs a build against GStreamer
#      >= 1.24 with its nvcodec; skipped, not failed, on older ones)
#   6. what each element's slowest frame takes to stop on the GPU
#      (tests/check/elements/stopping.c's cuda cases, stop-times.txt)
# Logs go to $OUT (or ./gpu-proof-out).  Exit status: number of failed steps.
# STEPS selects steps (default "test sanitize smoke bench ipc stop"); SANITIZE lists
# the CUDA test programs for step 2 (default: every tests/*-cuda-test built)
# and TOOLS its sanitizer tools (default all four);
# BENCH the benchmarks (default "canny bsplinescale conv3d seamcarve"); BENCH_ARGS adds
# options to each.
set -u
B=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-proof-out}
mkdir -p "$OUT"
source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
failed=0
STEPS=${STEPS:-test sanitize smoke bench ipc stop}
step() { echo "== $1: $2"; [ "$2" = ok ] || failed=$((failed + 1)); }
want() { [[ " $STEPS " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
# a plugin that cannot load fails nearly every test: say so at once
if ldd "$B/gst/libgstcudavideo.so" | grep "not found"; then
  echo "gpu-proof: $B/gst/libgstcudavideo.so cannot load here (scripts/gpu-bundle.sh adds what the runtime lacks)"
  exit 1
fi

if want test; then
GST_CUDA_VIDEO_REQUIRE_GPU=1 meson test -C "$B" --no-rebuild --print-errorlogs > "$OUT/meson-test.txt" 2>&1 \
  && step "meson test (GPU required)" ok || step "meson test (GPU required)" FAILED
grep -E "^ *[0-9]+/[0-9]+ " "$OUT/meson-test.txt"
fi

SANITIZE=${SANITIZE:-$(cd "$B/tests" && ls *-cuda-test 2>/dev/null)}
want sanitize && for prog in $SANITIZE; do
  for tool in ${TOOLS:-memcheck racecheck synccheck initcheck}; do
    # the tests provoke CUDA API errors on purpose (out of memory) and check
    # that they are handled; memcheck is here for memory accesses
    extra=""; [ $tool = memcheck ] && extra="--report-api-errors no --leak-check full"
    # shellcheck disable=SC2086
    GCV_TEST_QUICK=1 GCV_TEST_DATA_DIR=$PWD/tests timeout 400 compute-sanitizer --tool $tool $extra --error-exitcode 9 \
      "$B/tests/$prog" > "$OUT/sanitizer-$prog-$tool.txt" 2>&1 \
      && step "compute-sanitizer $tool $prog" ok || step "compute-sanitizer $tool $prog" FAILED
    grep -E "SUMMARY|PASS|FAIL" "$OUT/sanitizer-$prog-$tool.txt" | tail -2
  done
done

if want smoke; then
bash scripts/gpu-smoke.sh "$B" > "$OUT/smoke.txt" 2>&1
tail -1 "$OUT/smoke.txt"
grep -q " 0 different" "$OUT/smoke.txt" && step "gst-launch cuda* == cpu*" ok || step "gst-launch cuda* == cpu*" FAILED
fi

want bench && for b in ${BENCH:-canny bsplinescale conv3d seamcarve}; do
  # shellcheck disable=SC2086
  "$B/tests/bench/bench-$b" --json "$OUT/bench-$b.json" ${BENCH_ARGS:-} > "$OUT/bench-$b.txt" 2>&1 \
    && step "benchmark $b" ok || step "benchmark $b" FAILED
  cat "$OUT/bench-$b.txt"
done
if want ipc; then
  GI_TYPELIB_PATH=$PWD/$B/gst/cudavideo${GI_TYPELIB_PATH:+:$GI_TYPELIB_PATH} \
  LD_LIBRARY_PATH=$PWD/$B/gst/cudavideo${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    /usr/bin/python3 tests/check/ipc_motion.py --cuda > "$OUT/ipc-cuda.txt" 2>&1
  rc=$?
  tail -3 "$OUT/ipc-cuda.txt"
  if [ $rc -eq 77 ]; then echo "== cudaipc motion metas: skipped"; else
    [ $rc -eq 0 ] && step "cudaipc motion metas" ok || step "cudaipc motion metas" FAILED; fi
fi
if want stop; then
  GST_CUDA_VIDEO_REQUIRE_GPU=1 GST_DEBUG=stopping:4 GCV_TEST_DATA_DIR=$PWD/tests GST_CHECKS=test_stop_slow_frame_gpu \
    "$B/tests/elements-stopping" > "$OUT/stopping.txt" 2>&1 \
    && step "elements stop within a second (GPU)" ok || step "elements stop within a second (GPU)" FAILED
  grep -E "stopped in|ended before|:F:" "$OUT/stopping.txt" | sed 's/.*stopping.c:[0-9]*:[A-Za-z_]*: *//' \
    | tee "$OUT/stop-times.txt"
fi
echo "gpu-proof: $failed step(s) failed"
exit $failed
