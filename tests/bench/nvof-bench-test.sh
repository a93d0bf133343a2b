#!/usr/bin/env bash
# gst-cuda-video: nvof-bench against its test double (nvof_mock.c), every
# path it can take without a GPU: caps present / absent / unknown, a job's
# rows (ok, a grid or size the engine refuses, init and execute errors, a
# crash, a hang) and the flow it writes.
#   nvof-bench-test.sh NVOF_BENCH LIBGCVB_NVOF_MOCK
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
bench=$1
mock=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
passes=0

check() {   # check NAME TEXT PATTERN: TEXT matches the extended regex PATTERN
  if printf '%s\n' "$2" | grep -Eq -- "$3"; then
    passes=$((passes + 1))
  else
    echo "FAIL: $1: no /$3/ in:"
    printf '%s\n' "$2" | sed 's/^/    /'
    fails=$((fails + 1))
  fi
}

export GCVB_NVOF_LIBRARY=$mock GCVB_NVOF_CUDA_LIBRARY=$mock
mocked() { GCVB_NVOF_MOCK=$1 "${@:2}"; }

# caps
out=$(mocked "" "$bench" caps 0)
check "caps" "$out" $'^state\tpresent\tdevice 0 \\(nvof mock\\), CUDA driver 13\\.0, Optical Flow API 3\\.0, the driver.s newest 5\\.0$'
check "caps grids" "$out" $'^grids\t1,2,4$'
check "caps size" "$out" $'^size\t32\t32\t4096\t4096$'
check "no engine" "$(mocked no-engine "$bench" caps)" $'^state\tabsent\tnvCreateOpticalFlowCuda on device 0: NV_OF_ERR_OF_NOT_AVAILABLE'
check "old driver" "$(mocked old-api "$bench" caps)" \
  $'^state\tunknown\tNvOFAPICreateInstanceCuda \\(API 3\\.0\\): NV_OF_ERR_INVALID_VERSION \\(the driver.s newest API: 2\\.0\\)'
check "no device" "$(mocked no-device "$bench" caps)" $'^state\tunknown\tno CUDA device 0 \\(CUDA_ERROR_NO_DEVICE\\)'
check "other device" "$(mocked "" "$bench" caps 1)" $'^state\tunknown\tno CUDA device 1'
check "no library" "$(GCVB_NVOF_LIBRARY=$dir/none.so "$bench" caps)" $'^state\tabsent\tno .*none\\.so \\(the driver.s Optical Flow library\\)'
check "no driver" "$(GCVB_NVOF_CUDA_LIBRARY=$dir/none.so "$bench" caps)" $'^state\tunknown\tno .*none\\.so \\(the NVIDIA driver\\)'
out=$(mocked no-caps "$bench" caps)
check "no caps" "$out" $'^state\tpresent\t.*output grids not answered \\(NV_OF_ERR_NOT_INITIALIZED\\)'
check "no caps grids" "$out" $'^grids\t\\?$'

# a job: three 64x48 frames, every grid, two timed pairs, two flows
head -c $((64 * 48 * 3)) /dev/urandom > "$dir/frames.raw"
job() {   # job OUTDIR CONFIGS...
  local o=$1
  shift
  mkdir -p "$o"
  {
    echo "device 0"
    echo "size 64 48"
    echo "frames $dir/frames.raw 3"
    echo "warmup 2"
    echo "runs 5"
    for c in "$@"; do echo "config $c"; done
    echo "time 0 1 1"
    echo "time 1 2 0"
    echo "flow 0 1 1"
    echo "flow 1 2 0"
    echo "out $o"
  } > "$o/job"
}
job "$dir/a" "1 5" "2 10" "4 20" "8 5"
mocked flow=1.5:-0.25 "$bench" run "$dir/a/job"
check "run rc" "rc $?" "^rc 0$"
res=$(cat "$dir/a/result.tsv")
check "grid 1" "$res" $'^row\t1\t5\tok\t-\t[0-9.]+\t[0-9.]+\t[0-9.]+\t[0-9.]+\t5\t64\t48\t2\t'
check "grid 2" "$res" $'^row\t2\t10\tok\t-\t.*\t5\t32\t24\t2\t'
check "grid 4" "$res" $'^row\t4\t20\tok\t-\t.*\t5\t16\t12\t2\t'
check "grid 8" "$res" $'^row\t8\t5\tskipped\tthe engine offers no output grid 8'
check "flow size" "$(stat -c %s "$dir/a/flow-g4-p20.bin")" "^$((2 * 16 * 12 * 4))$"
# S10.5: (1.5, -0.25) px = (48, -8)
check "flow value" "$(od -An -t d2 -N 4 "$dir/a/flow-g1-p5.bin" | tr -s ' ')" "^ 48 -8$"

job "$dir/b" "4 5"
mocked max=32x32 "$bench" run "$dir/b/job"
check "too large" "$(cat "$dir/b/result.tsv")" $'^row\t4\t5\tskipped\tthe engine takes 32x32 to 32x32 .*not 64x48'
job "$dir/c" "4 5"
mocked fail-init "$bench" run "$dir/c/job"
check "init fails" "$(cat "$dir/c/result.tsv")" \
  $'^row\t4\t5\tfailed\tnvOFInit \\(64x48, grid 4, perf 5\\): NV_OF_ERR_GENERIC \\(last error: mock: fail-init\\)'
job "$dir/d" "4 5"
mocked fail-exec "$bench" run "$dir/d/job"
check "execute fails" "$(cat "$dir/d/result.tsv")" $'^row\t4\t5\tfailed\tnvOFExecute \\(frames 0 -> 1\\): NV_OF_ERR_GENERIC'
job "$dir/e" "4 5" "2 5"
mocked no-caps,grids=4 "$bench" run "$dir/e/job"
res=$(cat "$dir/e/result.tsv")
check "unknown grids: 4" "$res" $'^row\t4\t5\tok'
check "unknown grids: init refuses 2" "$res" $'^row\t2\t5\tskipped\tnvOFInit .*NV_OF_ERR_INVALID_PARAM \\(last error: mock: output grid\\)'
job "$dir/f" "4 5" "2 5"
mocked crash-exec "$bench" run "$dir/f/job" 2> /dev/null
check "crash rc" "rc $?" "^rc (139|-11)$"
check "crash leaves begin" "$(cat "$dir/f/result.tsv")" $'^begin\t4\t5$'
job "$dir/g" "4 5"
mocked hang-exec timeout 2 "$bench" run "$dir/g/job"
check "hang rc" "rc $?" "^rc 124$"
job "$dir/i" "4 5" "2 5"
echo "limit 1" >> "$dir/i/job"
mocked hang-exec "$bench" run "$dir/i/job"
check "config limit rc" "rc $?" "^rc 142$"
check "config limit leaves begin" "$(cat "$dir/i/result.tsv")" $'^begin\t4\t5$'
job "$dir/h" "4 5"
mocked no-engine "$bench" run "$dir/h/job"
check "no engine rows" "$(cat "$dir/h/result.tsv")" $'^row\t4\t5\tskipped\tnvCreateOpticalFlowCuda'
echo "x" > "$dir/bad"
"$bench" run "$dir/bad" 2> /dev/null
check "bad job" "rc $?" "^rc 2$"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
