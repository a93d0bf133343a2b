#!/usr/bin/env bash
# The stress test of issue 27 item 8 (on an H200, 2 of 15 runs of
# bench-seamcarve stalled in the cudaseamcarve mode=fast row: "no frame
# reached the sink for 60 s").  Run on the GPU host with .gpu-runtime and
# a build directory carried along:
#
#   OUT=... scripts/gpu-stress-seamcarve.sh [BUILD_DIR]     (default build-gpu)
#
# Hundreds of short cudaseamcarve runs, each a fresh process under
# `timeout`, in phases that tell the hypotheses apart:
#   fresh      one process at a time, lazy module loading (CUDA's default):
#              the first frame of a fresh process and context
#   eager      the same with CUDA_MODULE_LOADING=EAGER: if only `fresh`
#              stalls, lazy loading is in it
#   procs      PROCS processes at once: contexts time-sliced on one GPU
#   branches   one process, BRANCHES cudaseamcarve elements behind a tee:
#              cooperative launches of one context on several streams
#   fallback   PROCS processes at once with GCV_SEAM_CUDA_FALLBACK=1 (no
#              cooperative launch, no device-side waits): the control
#   bench      the issue's own command (bench-seamcarve, appsrc harness)
# Each run ends as one of:
#   ok         exit 0
#   watchdog   the element's error "the GPU gave up a frame": a device-side
#              wait gave up after GCV_SEAM_CUDA_WATCHDOG_MS (5 s); the
#              message says whether blocks had left the pass loop (a fault
#              in the kernel: "gone from the pass loop: N" with N > 0) or
#              never came (not resident together); bounded, no hang
#   hang       killed by `timeout` (RUN_TIMEOUT s) with no such error: the
#              stall is elsewhere (host side, or a wait the watchdog does
#              not cover); nvidia-smi's view and the element's log tail
#              (GST_DEBUG=cudaseamcarve:6) are kept under $OUT/stress
#   error      any other failure (its stderr kept)
# A summary line per phase, then one for all; exit status 1 when a run
# hung or failed, 0 otherwise (watchdog errors included: they are the
# bounded outcome, counted and described).
#
# Knobs (environment): FRESH (40), EAGER (20), PROC_ROUNDS (8), PROCS (4),
# BRANCH_ROUNDS (8), BRANCHES (4), FALLBACK_ROUNDS (4), BENCH_RUNS (2),
# FRAMES (24 a run), RUN_TIMEOUT (60 s), PHASES (all, in the order above).
# With the defaults it takes about 3 minutes on an H200 (fresh ~1 s a run).
set -u
B=${1:-build-gpu}
OUT=${OUT:-$PWD/gpu-stress-out}
LOG=$OUT/stress
mkdir -p "$LOG"
# the host's Python (with OpenCV), before the packed runtime's comes first
HOST_PY=${HOST_PY:-$(command -v python3)}
[ -f .gpu-runtime/env.sh ] && source .gpu-runtime/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export GST_REGISTRY=$LOG/registry.bin

FRESH=${FRESH:-40} EAGER=${EAGER:-20} PROC_ROUNDS=${PROC_ROUNDS:-8} PROCS=${PROCS:-4}
BRANCH_ROUNDS=${BRANCH_ROUNDS:-8} BRANCHES=${BRANCHES:-4} FALLBACK_ROUNDS=${FALLBACK_ROUNDS:-4}
BENCH_RUNS=${BENCH_RUNS:-2} FRAMES=${FRAMES:-24} RUN_TIMEOUT=${RUN_TIMEOUT:-60}
PHASES=${PHASES:-fresh eager procs branches fallback bench}
want() { [[ " $PHASES " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,memory.total,compute_mode --format=csv,noheader | tee "$LOG/gpu.txt"
gst-inspect-1.0 cudaseamcarve > /dev/null 2>&1 || { echo "cudaseamcarve not found in $B/gst"; exit 1; }

# The frames: 12 different 1080p RGBA frames from the test photos (scaled,
# shifted) made by the host's Python and OpenCV, read raw; without them the
# moving test pattern.
FRAMES_FILE=$LOG/frames-1080p-rgba.raw
N_FILE_FRAMES=12
if env -u PYTHONPATH -u PYTHONHOME -u LD_LIBRARY_PATH "$HOST_PY" - "$FRAMES_FILE" "$N_FILE_FRAMES" \
    > "$LOG/frames.txt" 2>&1 <<'EOF'
import sys
import cv2
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
photos = [cv2.imread("tests/data/%s.png" % p, cv2.IMREAD_COLOR)
          for p in ("camera", "chelsea", "coffee", "astronaut")]
with open(path, "wb") as f:
    for k in range(n):
        p = photos[k % 4]
        s = (1.0, 1.6, 2.3)[k // 4 % 3]
        img = cv2.resize(p, (int(p.shape[1] * s), int(p.shape[0] * s)), interpolation=cv2.INTER_LINEAR)
        reps = (1080 // img.shape[0] + 2, 1920 // img.shape[1] + 2)
        tile = np.tile(np.concatenate([img, img[:, ::-1]], 1), (reps[0], (reps[1] + 1) // 2, 1))
        oy, ox = 17 * k % img.shape[0], 29 * k % img.shape[1]
        rgba = cv2.cvtColor(tile[oy:oy + 1080, ox:ox + 1920], cv2.COLOR_BGR2RGBA)
        f.write(np.ascontiguousarray(rgba).tobytes())
print("frames:", n)
EOF
then
  SRC="filesrc location=$FRAMES_FILE ! rawvideoparse width=1920 height=1080 format=rgba framerate=30/1"
  SRC_FRAMES=$N_FILE_FRAMES
  echo "frames: $N_FILE_FRAMES photo frames (1080p RGBA, $FRAMES_FILE)"
else
  SRC="videotestsrc pattern=pinwheel num-buffers=$FRAMES ! video/x-raw,format=RGBA,width=1920,height=1080,framerate=30/1"
  SRC_FRAMES=$FRAMES
  echo "frames: videotestsrc pinwheel (no python3 + OpenCV here: $(tail -1 "$LOG/frames.txt"))"
fi
CARVE="cudaseamcarve fallback=false mode=fast seams-per-pass=16 ! video/x-raw,width=1728"

total=0; t_ok=0; t_wd=0; t_hang=0; t_err=0
declare -A seen

# classify NAME RC ERRFILE DEBUGLOG: one run's outcome, counted in the phase
classify() {
  local name=$1 rc=$2 err=$3 dbg=$4
  if [ "$rc" = 0 ]; then
    ok=$((ok + 1)); return
  fi
  if grep -q "gave up a frame" "$err" 2>/dev/null; then
    wd=$((wd + 1))
    local msg
    msg=$(grep -o "seamcarve: the GPU gave up a frame[^\"]*" "$err" | head -1)
    echo "  $name: WATCHDOG: $msg"
    seen["$msg"]=1
    return
  fi
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    hang=$((hang + 1))
    echo "  $name: HANG (killed after $RUN_TIMEOUT s); last log lines:"
    tail -3 "$dbg" 2>/dev/null | sed 's/^/      /'
    return
  fi
  err_n=$((err_n + 1))
  echo "  $name: ERROR (exit $rc):"
  grep -v "^$" "$err" | tail -3 | sed 's/^/      /'
}

# run NAME CMD...: one process under timeout; on a hang, what the GPU was
# doing before the kill (nvidia-smi while the process still runs)
run() {
  local name=$1
  shift
  local err=$LOG/$name.err dbg=$LOG/$name.log
  GST_DEBUG="cudaseamcarve:6" GST_DEBUG_FILE=$dbg GST_DEBUG_NO_COLOR=1 \
    timeout -k 5 "$RUN_TIMEOUT" "$@" > "$LOG/$name.out" 2> "$err" &
  local pid=$! start=$SECONDS
  while kill -0 $pid 2> /dev/null; do
    if [ $((SECONDS - start)) -ge $((RUN_TIMEOUT - 3)) ] && [ ! -f "$LOG/$name.smi" ]; then
      nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv > "$LOG/$name.smi" 2>&1
      nvidia-smi --query-compute-apps=pid,used_memory --format=csv >> "$LOG/$name.smi" 2>&1
    fi
    sleep 0.2
  done
  wait $pid
  echo $? > "$LOG/$name.rc"
}

# the outcomes of finished runs, by name
batch() {
  local n rc
  for n in "$@"; do
    rc=$(cat "$LOG/$n.rc" 2> /dev/null || echo 1)
    classify "$n" "$rc" "$LOG/$n.err" "$LOG/$n.log"
  done
}

launch_cmd() {
  # shellcheck disable=SC2086
  echo gst-launch-1.0 -q $SRC ! $CARVE ! fakesink sync=false
}

summary() {
  local phase=$1 runs=$2 secs=$3
  printf "%-9s %5d runs %5d ok %5d watchdog %5d hang %5d error   %4d s\n" "$phase" "$runs" "$ok" "$wd" "$hang" \
    "$err_n" "$secs" | tee -a "$LOG/summary.txt"
  total=$((total + runs)); t_ok=$((t_ok + ok)); t_wd=$((t_wd + wd)); t_hang=$((t_hang + hang))
  t_err=$((t_err + err_n))
}

begin() { ok=0; wd=0; hang=0; err_n=0; phase_start=$SECONDS; echo "== $1: $2"; }

# concurrent PHASE ROUNDS CMD...: ROUNDS rounds of PROCS runs of CMD at
# once, then the phase's summary
concurrent() {
  local phase=$1 rounds=$2 r p names
  shift 2
  for r in $(seq 1 "$rounds"); do
    names=()
    for p in $(seq 1 "$PROCS"); do
      run "$phase-$r-$p" "$@" &
      names+=("$phase-$r-$p")
    done
    wait
    batch "${names[@]}"
  done
  summary "$phase" $((rounds * PROCS)) $((SECONDS - phase_start))
}

if want fresh; then
  begin fresh "$FRESH fresh processes, one at a time ($SRC_FRAMES frames each, lazy module loading)"
  for i in $(seq 1 "$FRESH"); do
    # shellcheck disable=SC2046
    run "fresh-$i" $(launch_cmd)
    batch "fresh-$i"
  done
  summary fresh "$FRESH" $((SECONDS - phase_start))
fi

if want eager; then
  begin eager "$EAGER fresh processes with CUDA_MODULE_LOADING=EAGER"
  for i in $(seq 1 "$EAGER"); do
    # shellcheck disable=SC2046
    run "eager-$i" env CUDA_MODULE_LOADING=EAGER $(launch_cmd)
    batch "eager-$i"
  done
  summary eager "$EAGER" $((SECONDS - phase_start))
fi

if want procs; then
  begin procs "$PROC_ROUNDS rounds of $PROCS processes at once"
  # shellcheck disable=SC2046
  concurrent procs "$PROC_ROUNDS" $(launch_cmd)
fi

if want branches; then
  begin branches "$BRANCH_ROUNDS processes, each $BRANCHES cudaseamcarve behind a tee (one context, several streams)"
  for r in $(seq 1 "$BRANCH_ROUNDS"); do
    tee_part=""
    for k in $(seq 1 "$BRANCHES"); do
      tee_part="$tee_part t. ! queue ! $CARVE ! fakesink sync=false"
    done
    # shellcheck disable=SC2086
    run "branches-$r" gst-launch-1.0 -q $SRC ! tee name=t $tee_part
    batch "branches-$r"
  done
  summary branches "$BRANCH_ROUNDS" $((SECONDS - phase_start))
fi

if want fallback; then
  begin fallback "$FALLBACK_ROUNDS rounds of $PROCS processes at once, GCV_SEAM_CUDA_FALLBACK=1 (no cooperative launch)"
  # shellcheck disable=SC2046
  concurrent fallback "$FALLBACK_ROUNDS" env GCV_SEAM_CUDA_FALLBACK=1 $(launch_cmd)
fi

if want bench && [ -x "$B/tests/bench/bench-seamcarve" ]; then
  begin bench "$BENCH_RUNS runs of the issue's command (bench-seamcarve, appsrc harness, 50 frames a row)"
  for i in $(seq 1 "$BENCH_RUNS"); do
    run "bench-$i" "$B/tests/bench/bench-seamcarve" --cases video,elements --reductions 10 -p 16,32 \
      --element-seams-per-pass 16,32 --skip cpu,lqr --runs 20 --frames 50 --json "$LOG/bench-$i.json"
    batch "bench-$i"
    grep -E "^cudaseamcarve " "$LOG/bench-$i.out" | sed 's/^/    /'
  done
  summary bench "$BENCH_RUNS" $((SECONDS - phase_start))
fi

echo "== all: $total runs, $t_ok ok, $t_wd watchdog, $t_hang hang, $t_err error" | tee -a "$LOG/summary.txt"
for m in "${!seen[@]}"; do
  echo "   seen: $m"
done
[ $((t_hang + t_err)) -eq 0 ]
