#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Measures the probes matching each glob once (`gpuconform record --runs 1`
# into a scratch file under $OUT, nothing committed) and prints each one's
# value, fraction of peak, clock and notes: the quick look used while a probe
# is being written or tuned on a GPU node.
# Usage: tools/device/probe_values.sh BUILD_DIR GLOB [GLOB...]
. "$(dirname "$0")/prelude.sh" "${1:-}" values-log.txt
shift
R=$OUT/values
mkdir -p "$R"
nvidia-smi --query-gpu=name,uuid,clocks.sm,temperature.gpu,power.draw --format=csv,noheader
args=()
for g in "$@"; do args+=(--probe "$g"); done
timeout "${VALUES_LIMIT:-240}" "$G" record "${args[@]}" --runs 1 --out "$R/values.toml" --evidence "$R/values.jsonl" \
  > "$R/record.txt" 2>&1
echo "record exit $?"
grep -E "FAILED|skipped" "$R/record.txt" | cut -c1-250
python3 - "$R/values.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    if not m:
        continue
    n = m.get("notes", {})
    print(f'{r.get("probe", "?"):52s} {m.get("value", 0):12.5g} {m.get("unit", ""):10s} '
          f'frac={m.get("fraction_of_peak")} clk={m.get("sm_clock_mhz", 0):.0f}')
    for k, v in n.items():
        if k != "sass":
            print(f'      {k}: {str(v)[:300]}')
PY
