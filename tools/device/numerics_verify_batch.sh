#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11's acceptance on one GPU node against the committed files, in one call (< 400 s):
#   1. the numeric family of a standard run (`run --filter 'numeric.*'`), timed: target
#      <= 60 s; per-group probe seconds and every verdict other than pass;
#   2. `ctest -L numeric` (the GPU test binary's numeric groups);
#   3. `probe numerics --out`, timed (target <= 120 s), `lint` of what it wrote, and its
#      entries against the committed numeric.feature.* ones.
# What comes back: $OUT/verify_log.txt and $OUT/verify.tgz (the run record, JUnit, logs).
# Usage: tools/device/numerics_verify_batch.sh BUILD_DIR   (a full stage: it needs the GPU test binary)
. "$(dirname "$0")/prelude.sh" "${1:-}" verify_log.txt
W=$OUT/verify
rm -rf "$W" && mkdir -p "$W"
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
  --format=csv | tee "$W/nvidia-smi.csv"

echo "== 1. run --filter 'numeric.*'"
start=$(date +%s.%N)
timeout 200 "$G" run --filter 'numeric.*' --record "$W/numeric-run.jsonl" --junit "$W/numeric-run.xml" \
  > "$W/numeric-run.txt" 2>&1
echo "numeric family exit $? wall $(elapsed "$start") s"
tail -4 "$W/numeric-run.txt"
python3 tools/device/family_seconds.py "$W/numeric-run.jsonl"

echo "== 2. ctest -L numeric"
start=$(date +%s.%N)
timeout 200 ctest --test-dir "$B" -L numeric --output-on-failure > "$W/ctest.txt" 2>&1
echo "ctest exit $? wall $(elapsed "$start") s"
grep -E "tests passed|Test +#|Failed" "$W/ctest.txt" | head -20

echo "== 3. probe numerics"
start=$(date +%s.%N)
timeout 200 "$G" probe numerics --out "$W/$ARCH-numerics.toml" > "$W/probe_numerics.txt" 2>&1
echo "probe numerics exit $? wall $(elapsed "$start") s"
grep -E "outputs \||FAILED|first unmatched" "$W/probe_numerics.txt" | grep -vE "\| = " | head -20
grep -cE "\| = " "$W/probe_numerics.txt" | sed 's/^/paths equal to the table: /'
"$G" lint "$W/$ARCH-numerics.toml"; echo "lint exit: $?"
python3 tools/device/compare_features.py "expectations/$ARCH.toml" "$W/$ARCH-numerics.toml"
rm -rf "$W"/*-vectors
tar -C "$OUT" -czf "$OUT/verify.tgz" verify
