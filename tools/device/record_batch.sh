#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Evidence for expectations: `gpuconform record --runs RUNS` of the probes
# matching the globs on GPU 0, into a run record named as the evidence
# directory wants it (sm_XX-<PCI id>-<date>-<TAG>-gpu-<UUID prefix>.jsonl), so
# it can be copied into expectations/evidence/ and derived with
# tools/rederive_expectations.sh. Also keeps the console output, the scratch
# expectation file and nvidia-smi's view of the board. All in $OUT/record.tgz.
# Usage: [RECORD_LIMIT=400] tools/device/record_batch.sh BUILD_DIR TAG RUNS GLOB [GLOB...]
. "$(dirname "$0")/prelude.sh" "${1:-}" record-log.txt
tag=${2:?tag}
runs=${3:?runs}
shift 3
R=$OUT/record
mkdir -p "$R"
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu \
  --format=csv | tee "$R/nvidia-smi.csv"
name=$(evidence_name "$tag")
args=()
for g in "$@"; do args+=(--probe "$g"); done
start=$(date +%s.%N)
timeout "${RECORD_LIMIT:-400}" "$G" record "${args[@]}" --runs "$runs" --out "$R/scratch.toml" \
  --evidence "$R/$name.jsonl" > "$R/record.txt" 2>&1
echo "record exit $? wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s: $R/$name.jsonl"
grep -cE "^  recorded" "$R/record.txt" | sed 's/^/recorded: /'
grep -E "FAILED|skipped" "$R/record.txt" | cut -c1-220
tar -C "$OUT" -czf "$OUT/record.tgz" record
