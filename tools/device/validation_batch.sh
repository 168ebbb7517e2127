#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# An unseen board judged in one call (issue 19's "no false failure"): the fault-injection
# modes (green_context_check.sh, GREEN=0 to skip), the node-health checks, QUICK timed
# `--level quick` runs and RUNS standard runs, each with a run record; $OUT/validate.tgz.
# Keep the records out of the evidence `record --from` reads (expectations/evidence/validation/).
# Optional, before the runs (their output is evidence for expectations, $OUT/evidence/):
#   FILTER='glob ...' FILTER_RUNS=3  that many `run --filter` records of the probes a change touched;
#   CTEST=1                      `ctest -L throughput` (the GPU test binary must be carried);
#   NCU=1                        ncu's DRAM and shared-memory throughput of the hbm.read and
#                                shared.load.b128 kernels (where a probe misses its target).
# Usage: [RUNS=3] [QUICK=3] [GREEN=1] [FILTER=... FILTER_RUNS=3] [CTEST=1] [NCU=1] tools/device/validation_batch.sh BUILD_DIR
set -u
B=${1:?usage: validation_batch.sh BUILD_DIR}
RUNS=${RUNS:-3}
if [ "${GREEN:-1}" = 1 ]; then
bash tools/device/green_context_check.sh "$B" > /tmp/gc.txt 2>&1
grep -E "^== [a-z_]+: exit|FAILED|^probe |^throughput.hbm|every check passed" /tmp/gc.txt | cut -c1-200
fi
. tools/device/prelude.sh "$B" validate.log
nvidia-smi --query-gpu=name,uuid,pci.device_id,driver_version,clocks.max.sm --format=csv,noheader
E=$OUT/evidence; mkdir -p $E
if [ -n "${FILTER:-}" ]; then
  filters=(); for f in $FILTER; do filters+=(--filter "$f"); done
  for i in $(seq 1 "${FILTER_RUNS:-3}"); do s=$(date +%s.%N)
    timeout 200 $G run "${filters[@]}" --record $E/$(evidence_name policy$i).jsonl > $E/policy$i.txt 2>&1
    echo "filter run $i exit $? wall $(elapsed $s) s: $(grep -E 'passed, ' $E/policy$i.txt)"; grep -E "GPU [0-9]+ (fail|warn) " $E/policy$i.txt | cut -c1-260
  done
fi
if [ "${CTEST:-0}" = 1 ]; then s=$(date +%s.%N)
  timeout 240 ctest --test-dir "$B" -L throughput --output-on-failure > $E/ctest-throughput.txt 2>&1
  echo "ctest -L throughput exit $? wall $(elapsed $s) s: $(grep -E 'tests passed' $E/ctest-throughput.txt)"
fi
if [ "${NCU:-0}" = 1 ] && command -v ncu > /dev/null; then
  timeout 150 ncu --target-processes all --kernel-name regex:'stream_resident|onchip_kernel' --launch-count 4 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    $G run --filter throughput.hbm.read --filter throughput.shared.load.b128 > $E/ncu.txt 2>&1
  echo "ncu exit $?"; grep -E "stream_resident|onchip_kernel|DRAM Throughput|Memory Throughput|Shared|Stall" $E/ncu.txt | head -40
fi
H=$OUT/health; mkdir -p $H
timeout 120 $G run --filter 'health.*' --record $H/$(evidence_name health).jsonl > $H/health.txt 2>&1; echo "health exit $?: $(grep -E 'passed, ' $H/health.txt)"
grep -E "GPU [0-9]+ (fail|warn) " $H/health.txt | cut -c1-260
for i in $(seq 1 "${QUICK:-3}"); do s=$(date +%s.%N); timeout 120 $G run --level quick --record $H/$(evidence_name quick$i).jsonl > $H/quick$i.txt 2>&1; echo "quick $i exit $? wall $(elapsed $s) s: $(grep -E 'passed, ' $H/quick$i.txt)"; grep -E "GPU [0-9]+ (fail|warn) " $H/quick$i.txt | cut -c1-260; done
for i in $(seq 1 $RUNS); do s=$(date +%s.%N); timeout 200 $G run --record $H/$(evidence_name standard$i).jsonl > $H/standard$i.txt 2>&1; echo "standard $i exit $? wall $(elapsed $s) s: $(grep -E 'passed, ' $H/standard$i.txt)"; grep -E "GPU [0-9]+ (fail|warn) " $H/standard$i.txt | cut -c1-300; done
cp /tmp/gc.txt $H/green_context_check.txt 2>/dev/null
tar -C $OUT -czf $OUT/validate.tgz health
tar -C $OUT -czf $OUT/evidence.tgz evidence
