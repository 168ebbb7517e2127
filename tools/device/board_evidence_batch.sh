#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One more board's evidence in one call (issues 18 and 19):
#   1. limits_batch.sh: RUNS x the throughput family with the final kernels, beside the
#      public kernels (PEERS=1), into $OUT/limits.tgz;
#   2. the node-health checks (health.*) with a run record, the quick level timed, and the
#      NVML facts they judge as nvidia-smi shows them, into $OUT/health.tgz.
# Usage: [RUNS=3] [PEERS=1] tools/device/board_evidence_batch.sh BUILD_DIR
set -u
here=$(dirname "$0")
VARIANTS=0 PEERS=${PEERS:-1} RUNS=${RUNS:-3} bash "$here/limits_batch.sh" "$1"
. "$here/prelude.sh" "$1" health-log.txt
H=$OUT/health
mkdir -p "$H"
echo "== nvidia-smi facts the health checks judge"
nvidia-smi -q -d ECC,PCIE,PERFORMANCE,TEMPERATURE,ROW_REMAPPER,PAGE_RETIREMENT > "$H/nvidia-smi-q.txt" 2>&1
nvidia-smi -q | grep -A12 -i "GPU Link Info" | head -20
nvidia-smi nvlink -s > "$H/nvlink.txt" 2>&1; echo "nvlink -s exit $?: $(wc -l < "$H/nvlink.txt") lines"
echo "== health.* with a record"
name=$(evidence_name health)
start=$(date +%s.%N)
timeout 120 "$G" run --filter 'health.*' --record "$H/$name.jsonl" > "$H/$name.txt" 2>&1
echo "health exit $? wall $(elapsed "$start") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$H/$name.txt" | cut -c1-260
echo "== --level quick, timed"
start=$(date +%s.%N)
timeout 120 "$G" run --level quick --record "$H/$(evidence_name quick).jsonl" > "$H/quick.txt" 2>&1
echo "quick exit $? wall $(elapsed "$start") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$H/quick.txt" | cut -c1-260
tar -C "$OUT" -czf "$OUT/health.tgz" health
