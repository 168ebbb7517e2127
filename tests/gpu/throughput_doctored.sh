#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A throughput floor raised above what any GPU can reach must fail, and the
# reason must show the peak formula with the SM clock measured during the
# probe: `gpuconform run` on a real GPU with an overlay holding FP32 FMA to
# 1.5 x its per-clock peak (label throughput).
#
#   throughput_doctored.sh GPUCONFORM WORK_DIR
#
# Exit 0 checked, 1 a check failed, 77 skipped (no GPU here, or no peak entry
# for this architecture).
set -u
gpuconform=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
overlay=$dir/doctored.toml out=$dir/output.txt
# The overlay names the architecture of GPU 0 (compute capability 9.0 -> sm_90).
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -n 1 | tr -d ' .')
if [ -z "$cc" ]; then
  echo "skipped: no GPU here (nvidia-smi reports none)"
  exit 77
fi
cat > "$overlay" <<TOML
[meta]
arch = "sm_${cc}"
description = "doctored: FP32 FMA floor above the peak (tests/gpu/throughput_doctored.sh)"

[probe."throughput.alu.fma.rn.f32"]
kind = "fraction_of_peak"
min_fraction = 1.5
unit = "FLOP/s"
source = "cite:tests/gpu/throughput_doctored.sh, a floor no GPU can reach"
TOML
"$gpuconform" run --filter throughput.alu.fma.rn.f32 --overlay "$overlay" --record "$dir/run.jsonl" \
  --junit "$dir/run.xml" > "$out" 2>&1
rc=$?
cat "$out"
if grep -Eq "no usable CUDA device|no CUDA device found" "$out"; then
  echo "skipped: no GPU here"
  exit 77
fi
if grep -q "no peak entry" "$out"; then
  echo "skipped: this architecture has no FP32 FMA peak entry"
  exit 77
fi
failures=0
[ "$rc" -eq 1 ] || { echo "FAILED: expected exit 1 (a failed test), got $rc"; failures=1; }
# "  fail <probe>: ..." or, in the end-of-run list, "  GPU 0 fail <probe>: ...".
line=$(grep -E "(^| )fail throughput\.alu\.fma\.rn\.f32:" "$out" | head -n 1)
[ -n "$line" ] || { echo "FAILED: no fail line for throughput.alu.fma.rn.f32"; exit 1; }
# The formula: "<rate> FLOP/clk/SM x <n> SMs x <f> MHz measured (peaks/sm_XX.toml:<line>, cite:...)".
grep -Eq "FLOP/clk/SM x [0-9]+ SMs x [0-9]+ MHz measured \(.*peaks/sm_[0-9]+\.toml:[0-9]+" <<<"$line" ||
  { echo "FAILED: the reason lacks the peak formula with the measured clock: $line"; failures=1; }
grep -Eq "expected >= 1\.500 of peak" <<<"$line" || { echo "FAILED: the reason lacks the floor: $line"; failures=1; }
[ "$failures" -eq 0 ] && echo "checked: the doctored floor fails with the peak formula and the measured clock"
exit "$failures"
