#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# prom_check.sh UNIT_TESTS GPUCONFORM WORK_DIR: promtool accepts the Prometheus textfile of
# a made-up run with fails, warns, skips and an unopened GPU (written by the unit test
# PrometheusTextfile.WritesTheSampleForPromtool) and those of real `gpuconform run`s that
# could not start (no GPU visible) or stopped on a busy GPU (the fake NVML, exit 3), and a
# run that fails into a file whose last success was at 1700000000 keeps that time. Exit 77 (skipped) without promtool.
# Usage: prom_check.sh UNIT_TESTS GPUCONFORM WORK_DIR [FAKE_NVML]
set -euo pipefail
unit="$1" cli="$2" work="$3" fake_nvml="${4:-}"
if ! command -v promtool >/dev/null; then
  echo "skipped: promtool is not installed (Debian package prometheus)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
GPUCONFORM_PROM_SAMPLE="$work/sample.prom" "$unit" --gtest_filter=PrometheusTextfile.WritesTheSampleForPromtool
status=0
printf '# earlier run\ngpuconform_last_success_timestamp_seconds 1700000000\n' >"$work/cli.prom"
CUDA_VISIBLE_DEVICES='' "$cli" run --out-dir "$work/run" --prom "$work/cli.prom" \
  --termination-log "$work/termination.log" >"$work/cli.log" 2>&1 || status=$?
[[ $status -eq 2 ]] || { echo "gpuconform run without a GPU exited $status, expected 2"; cat "$work/cli.log"; exit 1; }
grep -q '^gpuconform_last_success_timestamp_seconds 1700000000$' "$work/cli.prom" ||
  { echo "cli.prom: the previous file's last success time was not carried over"; cat "$work/cli.prom"; exit 1; }
files=("$work/sample.prom" "$work/cli.prom")
if [[ -n "$fake_nvml" ]]; then
  status=0
  GPUCONFORM_NVML_LIBRARY="$fake_nvml" FAKE_NVML_PIDS=4242 CUDA_VISIBLE_DEVICES=0 "$cli" run --out-dir "$work/busy" \
    --prom "$work/busy.prom" >"$work/busy.log" 2>&1 || status=$?
  [[ $status -eq 3 ]] || { echo "gpuconform run on a busy GPU exited $status, expected 3"; cat "$work/busy.log"; exit 1; }
  files+=("$work/busy.prom")
fi
for f in "${files[@]}"; do
  grep -q '^gpuconform_run_exit_code ' "$f" || { echo "$f: no gpuconform_run_exit_code"; exit 1; }
  for m in gpuconform_last_run_timestamp_seconds gpuconform_last_success_timestamp_seconds; do
    grep -Eq "^$m [0-9]+\$" "$f" || { echo "$f: no $m"; exit 1; }
  done
  grep -q 'run_id=' "$f" && { echo "$f: a run_id label (a new series every run)"; exit 1; }
  echo "promtool check metrics < $f"
  # promtool's lint asks for snake_case label names; UUID, modelName and Hostname are
  # dcgm-exporter's names, kept so gpuconform's series join DCGM's (docs/running.md). That
  # lint line alone is accepted; any other finding or a parse error (exit 1) fails.
  lint_status=0
  promtool check metrics <"$f" >"$f.lint" 2>&1 || lint_status=$?
  if [[ $lint_status -ne 0 ]]; then
    if [[ $lint_status -ne 3 ]] || grep -v "label names should be written in 'snake_case' not 'camelCase'" "$f.lint"; then
      echo "$f: promtool exit $lint_status"; cat "$f.lint"; exit 1
    fi
    echo "  (only the camelCase lint of dcgm-exporter's label names: $(wc -l <"$f.lint") line(s))"
  fi
done
# The lint filter must not hide another finding: a metric promtool objects to for another
# reason still fails the check above.
printf '# HELP a_total x\n# TYPE a_total gauge\na_total{UUID="x"} 1\n' | promtool check metrics >"$work/control.lint" 2>&1 || true
grep -qv "snake_case" "$work/control.lint" || { echo "control: promtool found nothing besides camelCase"; exit 1; }
grep -q '^gpuconform_probe_verdict{UUID="GPU-[^"]*",gpu="[0-9]*",modelName="[^"]*",Hostname="[^"]*",probe=' \
  "$work/sample.prom" || { echo "sample.prom: gpuconform_probe_verdict lacks dcgm-exporter's labels"; exit 1; }
echo "ok"
