#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 10 acceptance on a real GPU: with a doctored overlay of too-tight per-SM
# uniformity bands (tests/fixtures/topology_tight_band.toml), a healthy board's
# topology.uniformity.fma_rate must fail and its reason must name outlier SMs
# ("SM 37: FFMA rate 0.998 of the median of 132 SMs").
#
#   topology_overlay.sh GPUCONFORM OVERLAY WORK_DIR
#
# Exit 0 checked, 1 a check failed, 77 skipped (no GPU here).
set -u
gpuconform=$1 overlay=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
record=$dir/run.jsonl out=$dir/output.txt
"$gpuconform" run --filter topology.uniformity.fma_rate --overlay "$overlay" --record "$record" >"$out" 2>&1
code=$?
cat "$out"
if grep -Eq "no usable CUDA device|no CUDA device found" "$out"; then
  echo "skipped: no GPU here"
  exit 77
fi
line=$(grep -F '"probe":"topology.uniformity.fma_rate"' "$record" | tail -n 1)
if grep -q '"verdict":"skip"' <<<"$line"; then
  echo "skipped: $(grep -Eo '"reason":"[^"]*' <<<"$line")"
  exit 77
fi
failures=0
[ "$code" = 1 ] || { echo "FAILED: exit code $code, expected 1"; failures=$((failures + 1)); }
grep -q '"verdict":"fail"' <<<"$line" || { echo "FAILED: expected a failed verdict: $line"; failures=$((failures + 1)); }
grep -Eq 'outliers: SM [0-9]+: FFMA rate [0-9.]+ of the median of [0-9]+ SMs' <<<"$line" ||
  { echo "FAILED: the reason names no outlier SM: $line"; failures=$((failures + 1)); }
[ "$failures" = 0 ] && echo "checked: the too-tight band names outlier SMs"
exit $((failures > 0))
