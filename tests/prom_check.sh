#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# prom_check.sh UNIT_TESTS GPUCONFORM WORK_DIR: promtool accepts the Prometheus textfile of
# a made-up run with fails, warns, skips and an unopened GPU (written by the unit test
# PrometheusTextfile.WritesTheSampleForPromtool) and that of a real `gpuconform run` that
# could not start (no GPU visible). Exit 77 (skipped) without promtool.
set -euo pipefail
unit="$1" cli="$2" work="$3"
if ! command -v promtool >/dev/null; then
  echo "skipped: promtool is not installed (Debian package prometheus)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
GPUCONFORM_PROM_SAMPLE="$work/sample.prom" "$unit" --gtest_filter=PrometheusTextfile.WritesTheSampleForPromtool
status=0
CUDA_VISIBLE_DEVICES='' "$cli" run --out-dir "$work/run" --prom "$work/cli.prom" \
  --termination-log "$work/termination.log" >"$work/cli.log" 2>&1 || status=$?
[[ $status -eq 2 ]] || { echo "gpuconform run without a GPU exited $status, expected 2"; cat "$work/cli.log"; exit 1; }
for f in "$work/sample.prom" "$work/cli.prom"; do
  grep -q '^gpuconform_run_exit_code ' "$f" || { echo "$f: no gpuconform_run_exit_code"; exit 1; }
  echo "promtool check metrics < $f"
  promtool check metrics <"$f"
done
grep -q '^gpuconform_probe_verdict{' "$work/sample.prom"
echo "ok"
