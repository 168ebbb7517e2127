#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One board's acceptance of the session's issues, against the committed expectations:
#   1. `gpuconform run` of everything (standard level, default run directory) with --json, timed;
#   2. `gpuconform run --level quick`, twice, timed (node-health-check budget: 20 s);
#   3. `ctest -L 'throughput|topology'` (the doctored-floor and outlier-SM tests included), timed;
#   4. `gpuconform report` of the standard run into HTML and Markdown.
# Returns $OUT/acceptance.tgz and $OUT/log.txt.
# Usage: tools/device/acceptance_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
R=$OUT/acceptance
mkdir -p "$R"
since() { python3 -c "print(f'{$(date +%s.%N)-$1:.1f}')"; }
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,clocks.max.sm,temperature.gpu --format=csv,noheader
start=$(date +%s.%N)
timeout 400 "$G" run --out-dir "$R/standard" --json > "$R/standard-summary.json" 2> "$R/standard.txt"
echo "standard run exit $? wall $(since "$start") s"
python3 - "$R/standard-summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("totals:", s.get("totals"))
for r in s.get("not_passed", s.get("non_pass", []))[:40]:
    print("  ", str(r)[:260])
PY
for i in 1 2; do
  start=$(date +%s.%N)
  timeout 120 "$G" run --level quick --out-dir "$R/quick$i" > "$R/quick$i.txt" 2>&1
  echo "quick run $i exit $? wall $(since "$start") s"
done
tail -4 "$R/quick2.txt"
start=$(date +%s.%N)
timeout 300 ctest --test-dir "$B" -L 'throughput|topology' --output-on-failure > "$R/ctest.txt" 2>&1
echo "ctest -L throughput|topology exit $? wall $(since "$start") s"
grep -E "tests passed|Failed|\*\*\*" "$R/ctest.txt" | head -20
"$G" report "$R/standard/run.jsonl" --html "$R/report.html" > "$R/report.txt" 2>&1; echo "report html exit $?"
"$G" report "$R/standard/run.jsonl" --md "$R/report.md" >> "$R/report.txt" 2>&1; echo "report md exit $?"
tar -C "$OUT" -czf "$OUT/acceptance.tgz" acceptance
