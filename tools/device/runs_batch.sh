#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Repeated full runs of the suite on one GPU node, for cross-board evidence and
# for the "N consecutive runs, 0 failures" acceptance of a release:
#   1. device facts (nvidia-smi), and `ldd` of the CLI: a shared library the node lacks
#      would break every run;
#   2. RUNS x `gpuconform run` (every probe, committed expectations), each with its own
#      run record named after the board's UUID, each with a time limit;
#   3. one line per run: board, exit code, verdict counts, wall seconds.
# Everything lands in $OUT/runs.tgz (the records) and $OUT/log.txt. runs.tgz is rewritten
# after every run and the runs/ folder removed at the end, so a call cut by its time limit still
# brings back what finished, as two files (the device tool returns only a few files per call).
# DEADLINE=S (seconds from the start): no run starts that would end after it, judged by the
# longest run so far plus 10 % (the first run's SASS disassembly makes it the longest).
# Usage: [DEADLINE=S] tools/device/runs_batch.sh BUILD_DIR RUNS [EXTRA run ARGS...]
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

t0=$(date +%s)
longest=0
for i in $(seq 1 "$RUNS"); do
  if [ -n "${DEADLINE:-}" ] && [ $(( $(date +%s) - t0 + longest * 11 / 10 )) -gt "$DEADLINE" ]; then
    echo "run $i not started: $(( $(date +%s) - t0 )) s gone, the longest run took $longest s, DEADLINE $DEADLINE s"
    break
  fi
  rec="$R/run-$uuid-$i.jsonl"
  start=$(date +%s.%N)
  timeout 300 "$G" run --record "$rec" --junit "$R/run-$uuid-$i.xml" "$@" > "$R/run-$uuid-$i.txt" 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "run $i board $uuid exit $rc wall $(python3 -c "print(f'{$end-$start:.1f}')") s: $(grep -E "^[0-9]+ passed, " "$R/run-$uuid-$i.txt" | tail -1)"
  grep -E "GPU [0-9]+ (fail|warn) " "$R/run-$uuid-$i.txt" | cut -c1-300 | head -12
  took=$(python3 -c "import math; print(math.ceil($end-$start))")
  [ "$took" -gt "$longest" ] && longest=$took
  tar -C "$OUT" -czf "$OUT/runs.tgz.part" runs && mv "$OUT/runs.tgz.part" "$OUT/runs.tgz"
done
rm -rf "$R"
ls -la "$OUT"
