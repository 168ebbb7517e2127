#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Evidence for the clock-loss entries (health.under_load.*, issue 19 item 3) on every GPU of
# a node: RUNS x `run --filter 'health.*'` with a record per GPU; on a node of two or more
# GPUs also RUNS x `run --filter 'topology.uniformity.*'` (the per-SM bands issue 19 found
# failing healthy 2-GPU H200s). Records under $OUT/clock (tarred to $OUT/clock.tgz).
# Usage: [RUNS=3] tools/device/clock_evidence_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" clock-log.txt
R=$OUT/clock
mkdir -p "$R"
RUNS=${RUNS:-3}
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
for i in $(seq 1 "$RUNS"); do
  name=$(evidence_name "clock$i")
  timeout 200 "$G" run --filter 'health.*' --record "$R/$name.jsonl" > "$R/$name.txt" 2>&1
  echo "health run $i exit $?: $(grep -E '^[0-9]+ passed, ' "$R/$name.txt")"
  grep -E "GPU [0-9]+ (fail|warn) " "$R/$name.txt" | cut -c1-260
  if [ "$gpus" -ge 2 ]; then
    name=$(evidence_name "uniformity$i")
    timeout 200 "$G" run --filter 'topology.uniformity.*' --record "$R/$name.jsonl" > "$R/$name.txt" 2>&1
    echo "uniformity run $i exit $?: $(grep -E '^[0-9]+ passed, ' "$R/$name.txt")"
    grep -E "GPU [0-9]+ (fail|warn) " "$R/$name.txt" | cut -c1-260
  fi
done
python3 - "$R" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.jsonl")):
    for line in open(f):
        j = json.loads(line)
        if j.get("probe", "").startswith(("health.under_load", "topology.uniformity.fma")) and j.get("measured"):
            print(f.rsplit("/", 1)[1][:60], j["device"]["uuid"][:12], j["probe"], j["measured"]["value"], j["verdict"])
PY
tar -C "$OUT" -czf "$OUT/clock.tgz" clock
