#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call on a GPU node for what the earlier sessions left open:
#   1. record the probes that have no sm_90 entry yet (the L2 near/far split with its
#      first-touch method, the FP8 mma.sync numeric probes), 10 runs each, into
#      expectations/sm_90.toml with evidence;
#   2. the ctest `latency` label, timed, after one untimed warm-up of the SASS cache;
#   3. `gpuconform run` of everything against the committed expectations, with a run
#      record: on a board not seen before, a further input for `record --from`.
# Each step has a time limit, so one slow step cannot cost the others' results.
# Results land in $OUT/followup/ and $OUT/log.txt (they come back even if the call is cut short).
# Usage: tools/device/followup_batch.sh BUILD_DIR [RUNS]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-10}
R=$OUT/followup
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,pci.sub_device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,persistence_mode --format=csv

echo "== record what has no entry (latency: $RUNS runs)"
start=$(date +%s)
timeout 240 "$G" record --missing --out expectations/sm_90.toml --runs "$RUNS" --probe 'latency.*'
echo "record (latency) exit: $? after $(( $(date +%s) - start )) s"
# exact probes: every run must match the model, so three runs say as much as ten
timeout 120 "$G" record --missing --out expectations/sm_90.toml --runs 3 --probe 'numeric.*'
echo "record (numeric) exit: $? after $(( $(date +%s) - start )) s"
"$G" lint expectations/sm_90.toml; echo "lint exit: $?"
cp expectations/sm_90.toml "$R/"
EVIDENCE=$(ls -t expectations/evidence/sm_90-*.jsonl | head -1)  # the file record appended to
cp "$EVIDENCE" "$R/"
# The split and every warming SM tried, for the closing note.
python3 - "$EVIDENCE" <<'PY'
import json, sys
seen = set()
for line in reversed(open(sys.argv[1]).readlines()):  # this call's lines are the last
    r = json.loads(line)
    notes = r.get("measured", {}).get("notes", {})
    if r["probe"] in ("latency.mem.l2_near", "latency.mem.l2_far") and r["probe"] not in seen:
        seen.add(r["probe"])
        print(r["probe"], r["measured"]["value"], "|", notes.get("split", ""), "|", notes.get("warming_trials", "")[:600])
PY

echo "== ctest -L latency (timed, SASS cache warmed first)"
"$T" --gtest_filter='Latency.alu_fma_rn_f32' > /dev/null 2>&1
start=$(date +%s.%N)
timeout 240 ctest --test-dir "$B" -L latency -V --output-junit "$R/ctest-latency.xml" > "$R/ctest-latency.txt" 2>&1
rc=$?
end=$(date +%s.%N)
grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|Total Test time" "$R/ctest-latency.txt"
echo "ctest -L latency exit $rc, wall $(python3 -c "print(f'{$end-$start:.1f}')") s"
echo "gtest tests: $(grep -c '\[       OK \] Latency\.' "$R/ctest-latency.txt") passed," \
     "$(grep -cE '\[  FAILED  \] Latency\.\S+.* \([0-9]+ ms\)' "$R/ctest-latency.txt") failed," \
     "$(grep -cE '\[  SKIPPED \] Latency\.\S+.* \([0-9]+ ms\)' "$R/ctest-latency.txt") skipped"

echo "== run everything against the committed expectations"
start=$(date +%s)
timeout 200 "$G" run --record "$R/run.jsonl" --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "run exit: $? after $(( $(date +%s) - start )) s"
grep -E "^(fail|warn) " "$R/run.txt" | head -40
tail -3 "$R/run.txt"
ls -la "$R"
