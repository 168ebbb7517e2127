#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# run_error_check.sh GPUCONFORM WORK_DIR: a `gpuconform run` that cannot run (exit 2) writes
# its reason everywhere a verdict goes (run_error.hpp): summary.json's "error", line 2 of the
# termination log and the Prometheus info metric. Two causes: no GPU visible (no_gpu, or
# driver_too_old on a machine whose driver is older than the runtime) and a filter that
# matches no probe (no_probe_selected, decided before any CUDA call).
set -euo pipefail
cli="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
check() {  # check NAME CODE_REGEX SEVERITY ARGS...
  local name=$1 code=$2 severity=$3 status=0
  shift 3
  CUDA_VISIBLE_DEVICES='' "$cli" run --out-dir "$work/$name" --prom "$work/$name.prom" \
    --termination-log "$work/$name.log" "$@" >"$work/$name.out" 2>&1 || status=$?
  [[ $status -eq 2 ]] || { echo "$name: exit $status, expected 2"; cat "$work/$name.out"; exit 1; }
  grep -Eq "^gpuconform_run_error_info\\{code=\"($code)\",severity=\"$severity\"\\} 1\$" "$work/$name.prom" ||
    { echo "$name: no gpuconform_run_error_info for $code"; cat "$work/$name.prom"; exit 1; }
  sed -n 2p "$work/$name.log" | grep -Eq "^error ($code) \\($severity\\): .+; next step: " ||
    { echo "$name: termination log line 2 is not the error"; cat "$work/$name.log"; exit 1; }
  python3 - "$work/$name/summary.json" "$code" <<'PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
e = s.get("error")
assert s["exit_code"] == 2 and s["result"] == "unusable", s
assert e and re.fullmatch(sys.argv[2], e["code"]) and e["message"] and e["next_step"], e
PY
  echo "$name: exit 2, $(sed -n 2p "$work/$name.log" | cut -c1-100)"
}
check no_gpu 'no_gpu|driver_too_old' node
check no_probe no_probe_selected invocation --filter 'no.such.probe.*'
check bad_timeout bad_argument invocation --timeout 0
check bad_colour bad_argument invocation --color purple
echo ok
