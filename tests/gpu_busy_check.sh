#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gpu_busy_check.sh GPUCONFORM FAKE_NVML WORK_DIR: `gpuconform run` on a GPU that someone else
# uses (the fake NVML lists another process's compute context, or an exclusive compute mode)
# stops before any probe with exit 3 and the run error gpu_busy in summary.json, line 2 of
# the termination log and the Prometheus textfile; --allow-busy goes on (and, without a
# GPU here, stops at no_gpu instead). GPU 15 of a fake 16-GPU node is the busy one, so on a
# real GPU node --allow-busy stops at "--device 15 does not exist" rather than measuring.
set -euo pipefail
cli="$1" fake="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
export GPUCONFORM_NVML_LIBRARY="$fake" FAKE_NVML_DEVICE_COUNT=16
unset CUDA_VISIBLE_DEVICES
run() {  # run NAME ARGS... -> sets status
  local name=$1
  shift
  status=0
  "$cli" run --out-dir "$work/$name" --prom "$work/$name.prom" --termination-log "$work/$name.log" "$@" \
    >"$work/$name.out" 2>&1 || status=$?
}
busy() {  # busy NAME WHY_REGEX ARGS...: exit 3 and gpu_busy everywhere
  local name=$1 why=$2
  shift 2
  run "$name" "$@"
  [[ $status -eq 3 ]] || { echo "$name: exit $status, expected 3"; cat "$work/$name.out"; exit 1; }
  grep -Eq '^gpuconform_run_error_info\{code="gpu_busy",severity="busy"\} 1$' "$work/$name.prom" ||
    { echo "$name: no gpu_busy in the textfile"; cat "$work/$name.prom"; exit 1; }
  grep -q '^gpuconform_run_exit_code 3$' "$work/$name.prom" || { echo "$name: exit code metric"; exit 1; }
  sed -n 1p "$work/$name.log" | grep -q '^gpuconform busy (exit 3)' || { echo "$name: log line 1"; cat "$work/$name.log"; exit 1; }
  sed -n 2p "$work/$name.log" | grep -Eq "^error gpu_busy \\(busy\\): GPU in use by others: GPU 15 \\(GPU-other-15\\): $why.*; next step: " ||
    { echo "$name: termination log line 2 is not the busy error"; cat "$work/$name.log"; exit 1; }
  grep -q 'gpuconform run: GPU in use by others' "$work/$name.out" || { echo "$name: not said on stderr"; exit 1; }
  python3 - "$work/$name/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
e = s.get("error")
assert s["exit_code"] == 3 and s["result"] == "busy", s
assert e["code"] == "gpu_busy" and e["severity"] == "busy" and "--allow-busy" in e["next_step"], e
assert sum(s["totals"].values()) == 0 and s["gpus"] == [], s
PY
  [[ $(wc -l <"$work/$name/run.jsonl") -eq 1 ]] || { echo "$name: the record holds more than its header"; exit 1; }
  echo "$name: exit 3, $(sed -n 2p "$work/$name.log" | cut -c1-110)"
}
FAKE_NVML_PIDS_GPU15=4242 busy process '1 other compute process\(es\): pid 4242' --device 15
FAKE_NVML_COMPUTE_MODE_GPU15=3 busy exclusive 'compute mode EXCLUSIVE_PROCESS' --device 15
FAKE_NVML_COMPUTE_MODE_GPU15=2 busy prohibited 'compute mode PROHIBITED' --device 15

# Another job on GPU 14 does not stop a run on GPU 15 (which then stops at no_gpu here, at
# "--device 15 does not exist" on a real node: no probe runs either way).
FAKE_NVML_PIDS_GPU14=4242 run other_gpu --device 15
[[ $status -eq 2 ]] || { echo "other_gpu: exit $status, expected 2 (a busy GPU 14 must not stop a run of GPU 15)"
  cat "$work/other_gpu.out"; exit 1; }
# --allow-busy: the guard is not asked; the run goes on to its next check.
FAKE_NVML_PIDS_GPU15=4242 run allowed --device 15 --allow-busy
[[ $status -eq 2 ]] || { echo "allowed: exit $status, expected 2 (--allow-busy goes on to the next check)"
  cat "$work/allowed.out"; exit 1; }
! grep -q gpu_busy "$work/allowed.prom" || { echo "allowed: gpu_busy reported with --allow-busy"; exit 1; }
echo "other_gpu and allowed: exit 2, not 3"
echo ok
