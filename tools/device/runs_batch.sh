#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Repeated full runs of the suite on one GPU node, for cross-board evidence and
# for the "N consecutive runs, 0 failures" acceptance of a release:
#   1. device facts (nvidia-smi), and `ldd` of the CLI: a shared library the node lacks
#      would break every run;
#   2. RUNS x `gpuconform run` (every probe, committed expectations), each with its own
#      run record named after the board's UUID, each with a time limit;
#   3. one line per run: board, exit code, verdict counts, wall seconds.
# Everything lands in $OUT/runs.tgz (the records) and $OUT/log.txt.
# Usage: tools/device/runs_batch.sh BUILD_DIR RUNS [EXTRA run ARGS...]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-3}
shift 2
R=$OUT/runs
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,pci.sub_device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,persistence_mode --format=csv
echo "== ldd $G (every library must resolve)"
ldd "$G" | grep -E "not found|fmt|mpfr|gmp|stdc" ; ldd "$G" | grep -q "not found" && echo "MISSING LIBRARIES"
uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1 | cut -c1-12 | tr 'A-Z' 'a-z')

for i in $(seq 1 "$RUNS"); do
  rec="$R/run-$uuid-$i.jsonl"
  start=$(date +%s.%N)
  timeout 300 "$G" run --record "$rec" --junit "$R/run-$uuid-$i.xml" "$@" > "$R/run-$uuid-$i.txt" 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "run $i board $uuid exit $rc wall $(python3 -c "print(f'{$end-$start:.1f}')") s: $(grep -E "^[0-9]+ passed, " "$R/run-$uuid-$i.txt" | tail -1)"
  grep -E "GPU [0-9]+ (fail|warn) " "$R/run-$uuid-$i.txt" | cut -c1-300 | head -12
done
tar -C "$OUT" -czf "$OUT/runs.tgz" runs
ls -la "$OUT"
