#!/usr/bin/env bash
# An unseen board judged in one call (issue 19's "no false failure"): the fault-injection
# modes (green_context_check.sh, GREEN=0 to skip), the node-health checks, three timed
# `--level quick` runs and RUNS standard runs, each with a run record; $OUT/validate.tgz.
# Keep the records out of the evidence `record --from` reads (expectations/evidence/validation/).
# Usage: [RUNS=3] [GREEN=1] tools/device/validation_batch.sh BUILD_DIR
set -u
B=${1:?usage: validation_batch.sh BUILD_DIR}
RUNS=${RUNS:-3}
if [ "${GREEN:-1}" = 1 ]; then
bash tools/device/green_context_check.sh "$B" > /tmp/gc.txt 2>&1
grep -E "^== [a-z_]+: exit|FAILED|^probe |^throughput.hbm|every check passed" /tmp/gc.txt | cut -c1-200
fi
. tools/device/prelude.sh "$B" validate.log
H=$OUT/health; mkdir -p $H
timeout 120 $G run --filter 'health.*' --record $H/$(evidence_name health).jsonl > $H/health.txt 2>&1; echo "health exit $?: $(grep -E 'passed, ' $H/health.txt)"
grep -E "GPU [0-9]+ (fail|warn) " $H/health.txt | cut -c1-260
for i in 1 2 3; do s=$(date +%s.%N); timeout 120 $G run --level quick --record $H/$(evidence_name quick$i).jsonl > $H/quick$i.txt 2>&1; echo "quick $i exit $? wall $(elapsed $s) s: $(grep -E 'passed, ' $H/quick$i.txt)"; grep -E "GPU [0-9]+ (fail|warn) " $H/quick$i.txt | cut -c1-260; done
for i in $(seq 1 $RUNS); do s=$(date +%s.%N); timeout 200 $G run --record $H/$(evidence_name standard$i).jsonl > $H/standard$i.txt 2>&1; echo "standard $i exit $? wall $(elapsed $s) s: $(grep -E 'passed, ' $H/standard$i.txt)"; grep -E "GPU [0-9]+ (fail|warn) " $H/standard$i.txt | cut -c1-300; done
cp /tmp/gc.txt $H/green_context_check.txt 2>/dev/null
tar -C $OUT -czf $OUT/validate.tgz health
