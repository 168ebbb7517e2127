#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Evidence for the latencies measured in every placement at once (kernels/common/placement.hpp:
# one chasing block per SM, or every cluster the GPU holds, value = the median over them):
# `gpuconform record --runs RUNS` of those probes on every GPU of the node at once (one
# process per GPU, --device), each into a run record named as expectations/evidence/ wants
# it (sm_XX-<PCI id>-<date>-placement-gpu-<UUID prefix>.jsonl, the GPU's own UUID), then
# per GPU and probe: the value, the per-SM / per-cluster spread note (min, median, max, the
# slowest) and the single-placement reading beside it (sm0_alone, one_cluster_alone).
# Everything in $OUT/placement.tgz.
# Usage: [RUNS=3] [PROBES="glob ..."] tools/device/placement_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" placement-log.txt
R=$OUT/placement
mkdir -p "$R"
RUNS=${RUNS:-3}
read -r -a GLOBS <<< "${PROBES:-latency.mem.l2_hit latency.mem.hbm latency.atomic.global.* latency.dsmem.* latency.tma.load* latency.cp_async latency.cp_async.extra_over_ldg}"
args=()
for g in "${GLOBS[@]}"; do args+=(--probe "$g"); done
# evidence_name (prelude.sh) names GPU 0; this one names GPU $2.
gpu_evidence_name() {
  local q=("--format=csv,noheader" -i "$2") id uuid cc
  id=$(nvidia-smi --query-gpu=pci.device_id "${q[@]}" | sed -E 's/^0x(....).*/0x\1/' | tr 'A-F' 'a-f')
  uuid=$(nvidia-smi --query-gpu=uuid "${q[@]}" | cut -c1-12)
  cc=$(nvidia-smi --query-gpu=compute_cap "${q[@]}" | tr -d ' .')
  echo "sm_${cc}-${id}-$(date -u +%F)-$1-${uuid,,}"
}

echo "== device $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv | tee "$R/nvidia-smi.csv"
mapfile -t GPUS < <(nvidia-smi --query-gpu=index --format=csv,noheader)
echo "== record --runs $RUNS of ${GLOBS[*]} on GPUs ${GPUS[*]}, all at once"
start=$(date +%s.%N)
for i in "${GPUS[@]}"; do
  name=$(gpu_evidence_name placement "$i")
  echo "$name" > "$R/name-$i"
  timeout "${RECORD_LIMIT:-500}" "$G" record "${args[@]}" --device "$i" --runs "$RUNS" --out "$R/scratch-$i.toml" \
    --evidence "$R/$name.jsonl" > "$R/record-$i.txt" 2>&1 &
done
wait
echo "record wall $(elapsed "$start") s"
for i in "${GPUS[@]}"; do
  name=$(cat "$R/name-$i")
  echo "== GPU $i: $name.jsonl"
  grep -E "FAILED|skipped|rror" "$R/record-$i.txt" | cut -c1-250
  [ -s "$R/$name.jsonl" ] || { echo "no run record"; continue; }
  python3 - "$R/$name.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    if not m:
        continue
    n = m.get("notes", {})
    print(f'{r.get("probe", "?"):34s} {m.get("value", 0):9.2f} {m.get("unit", ""):7s} '
          f'samples {" ".join(f"{v:.2f}" for v in m.get("samples", []))}  clk {m.get("sm_clock_mhz", 0):.0f}')
    for k in ("per_sm", "per_cluster", "sm0_alone", "one_cluster_alone"):
        if k in n:
            print(f'      {k}: {n[k]}')
PY
done
tar -C "$OUT" -czf "$OUT/placement.tgz" placement
