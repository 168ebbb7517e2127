#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `gpuconform report` on real curves and matrices (issue 12, item 4): the committed evidence
# holds no Series or Matrix yet, so this batch runs the probes that keep them on one GPU and
# renders the report there:
#   1. `gpuconform run --filter 'latency.mem.*' 'throughput.*'` into one run record
#      (the throughput sweeps keep their warps x ILP matrices and bytes-in-flight curves; the
#      latency.mem probes keep their staircases as notes);
#   2. `gpuconform report` of that record to HTML and Markdown.
# Everything lands in $OUT/report.tgz and $OUT/log.txt. Takes about 2-4 minutes on an H100.
# Usage: [RUN_LIMIT=360] tools/device/report_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
R=$OUT/report
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv

echo "== run: the probes that keep curves and matrices"
start=$(date +%s.%N)
timeout "${RUN_LIMIT:-360}" "$G" run --device 0 --filter 'latency.mem.*' 'throughput.*' --record "$R/run.jsonl" \
  --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "run exit $? (0 pass, 1 a failure, 77 all skipped)"
tail -5 "$R/run.txt"
echo "wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s"
python3 - "$R/run.jsonl" <<'PY'
import json, sys
series = matrices = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    s = [x["name"] for x in m.get("series", [])] + [k for k in m.get("notes", {}) if k.startswith("staircase")]
    x = [f'{y["name"]} {len(y["rows"]["values"])}x{len(y["cols"]["values"])}' for y in m.get("matrices", [])]
    series += len(s)
    matrices += len(x)
    if s or x:
        print(f'{r["probe"]:48s} {r.get("verdict", ""):5s} series={s} matrices={x}')
print(f"{series} curves, {matrices} matrices in the record")
PY

echo "== report"
"$G" report "$R/run.jsonl" --html "$R/report.html" --md "$R/report.md"
echo "report exit $?"
grep -ciE 'https?:' "$R/report.html" | sed 's/^/network references in the HTML (must be 0): /'
grep -o 'class="chart[^"]*" data-family="[a-z]*"' "$R/report.html" | sort | uniq -c

tar -czf "$OUT/report.tgz" -C "$OUT" report
ls -la "$OUT"
