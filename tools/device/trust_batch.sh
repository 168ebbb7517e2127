#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call on a GPU node for the trust checks of a release (issue 9's acceptance):
#   1. device facts, `ldd` of the CLI, `gpuconform --version`;
#   2. (with EXTRAS=1) the self-test probes under a 5 s limit next to real probes, and
#      the ctest `selftest` label: the run must survive a hang and a fault;
#   3. (with EXTRAS=1) `run --filter 'throughput.*'` on a quiet GPU, then again while
#      tools/device/gpu_spinner.cu keeps the GPU busy: the second must warn naming it;
#   4. RUNS x a full `gpuconform run`, each with its own record named by the board's UUID.
# Each step has a time limit; results land in $OUT/trust.tgz and $OUT/log.txt.
# Usage: [EXTRAS=1] tools/device/trust_batch.sh BUILD_DIR RUNS
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-1}
R=$OUT/trust
mkdir -p "$R"
board=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1 | cut -c1-12 | tr 'A-Z' 'a-z')
verdicts() { grep -E "^[0-9]+ passed, " "$1" | tail -1; }

echo "== device $board"
nvidia-smi --query-gpu=index,name,pci.device_id,pci.sub_device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,persistence_mode,mig.mode.current --format=csv
ldd "$G" | grep -q "not found" && { ldd "$G"; echo "MISSING LIBRARIES"; }
"$G" --version

if [ "${EXTRAS:-0}" = 1 ]; then
  echo "== self-test: hang, illegal address, wrong answer beside real probes, 5 s limit"
  start=$(date +%s)
  GPUCONFORM_SELFTEST=1 timeout 120 "$G" run --filter 'selftest.*' --filter 'latency.alu.fma.rn.f32' \
      --filter 'latency.mem.l1_hit' --filter 'numeric.mma_sync.m16n8k16.f32.f16' --probe-timeout 5 \
      --record "$R/selftest-$board.jsonl" --junit "$R/selftest-$board.xml" > "$R/selftest-$board.txt" 2>&1
  echo "self-test run exit $? after $(( $(date +%s) - start )) s: $(verdicts "$R/selftest-$board.txt")"
  grep -E "^  (fail|warn|pass|skip) " "$R/selftest-$board.txt"
  timeout 180 ctest --test-dir "$B" -L selftest --output-on-failure > "$R/ctest-selftest-$board.txt" 2>&1
  echo "ctest -L selftest exit $?"; grep -E "Test +#|tests passed" "$R/ctest-selftest-$board.txt"

  echo "== throughput on a quiet GPU, then beside a spinning process"
  timeout 120 "$G" run --filter 'throughput.*' --record "$R/quiet-$board.jsonl" > "$R/quiet-$board.txt" 2>&1
  echo "quiet run exit $?: $(verdicts "$R/quiet-$board.txt")"
  grep -c "another process" "$R/quiet-$board.txt" | sed 's/^/lines naming another process on the quiet GPU: /'
  "$B/bin/gpu_spinner" 60 > "$R/spinner-$board.txt" 2>&1 &
  spinner=$!
  sleep 2
  timeout 120 "$G" run --filter 'throughput.*' --record "$R/spinner-$board.jsonl" > "$R/busy-$board.txt" 2>&1
  echo "busy run exit $?: $(verdicts "$R/busy-$board.txt") (spinner pid $spinner)"
  grep -E "^  (fail|warn) " "$R/busy-$board.txt"
  kill "$spinner" 2>/dev/null; wait "$spinner" 2>/dev/null
fi

for i in $(seq 1 "$RUNS"); do
  rec="$R/run-$board-$i.jsonl"
  start=$(date +%s.%N)
  timeout 300 "$G" run --record "$rec" --junit "$R/run-$board-$i.xml" > "$R/run-$board-$i.txt" 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "run $i board $board exit $rc wall $(python3 -c "print(f'{$end-$start:.1f}')") s: $(verdicts "$R/run-$board-$i.txt")"
  grep -E "^  (fail|warn) " "$R/run-$board-$i.txt" | head -8
done
tar -C "$OUT" -czf "$OUT/trust.tgz" trust
ls -la "$OUT"
