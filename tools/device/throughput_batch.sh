#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The throughput family on one GPU node, first time:
#   1. device facts (nvidia-smi clocks, power, PCIe link);
#   2. `gpuconform record --probe 'throughput.*' --runs 3` into a scratch
#      expectation file (nothing is committed: the lead reviews the numbers and
#      the evidence it writes), timed: the family must fit 60 s per run;
#   3. one `gpuconform run --filter 'throughput.*'` against that scratch file
#      (as an overlay), with a run record holding every sweep matrix and curve;
#   4. `cuobjdump --dump-sass` opcode counts of the throughput kernels, so the
#      timed loops can be checked for what actually ran (FFMA, HMMA, LDS.128 ...).
# Everything lands in $OUT/throughput.tgz and $OUT/log.txt (two files: the
# transfer back takes at most 8).
# Usage: [RECORD_LIMIT=300] [RUN_LIMIT=150] tools/device/throughput_batch.sh BUILD_DIR [RUNS]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-3}
R=$OUT/throughput
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current --format=csv
"$G" list --arch sm_90 | grep -c '^throughput\.' | sed 's/^/throughput probes registered: /'
"$G" lint expectations/peaks/*.toml

echo "== record (${RUNS} runs), timed"
start=$(date +%s.%N)
timeout "${RECORD_LIMIT:-300}" "$G" record --probe 'throughput.*' --runs "$RUNS" --out "$R/sm_90-throughput.toml" > "$R/record.txt" 2>&1
echo "record exit $? wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s for $RUNS runs"
tail -25 "$R/record.txt"

echo "== one run against the recorded file, with a run record"
start=$(date +%s.%N)
timeout "${RUN_LIMIT:-150}" "$G" run --filter 'throughput.*' --overlay "$R/sm_90-throughput.toml" \
  --record "$R/run.jsonl" --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "run exit $? wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s"
grep -E "^(pass|fail|warn|skip) " "$R/run.txt" | cut -c1-220
python3 - "$R/run.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    n = m.get("notes", {})
    frac = m.get("fraction_of_peak")
    print(f'{r["probe"]:48s} {r["verdict"]:5s} {m.get("value", 0):12.5g} {m.get("unit", ""):18s} '
          f'frac={frac if frac is None else round(frac, 4)} max_clk_frac={n.get("fraction_of_max_clock_peak")} '
          f'clk={m.get("sm_clock_mhz", 0):.0f} {r["seconds"]:.2f}s')
    for mat in m.get("matrices", []):
        print("   ", mat["rows"]["name"], "x", mat["cols"]["name"], mat["cols"]["values"])
        for v, row in zip(mat["rows"]["values"], mat["values"]["data"]):
            print("     ", v, [round(x, 1) for x in row])
PY

echo "== SASS opcode counts of the throughput kernels"
cuobjdump --dump-sass "$G" > "$R/all.sass" 2>/dev/null || echo "cuobjdump failed"
python3 - "$R/all.sass" > "$R/sass_opcodes.txt" <<'PY'
import re, sys, collections
func, counts, arch = None, collections.Counter(), ""
out = []
def flush():
    if func and re.search(r"(alu_throughput|stream_kernel|onchip_kernel|mma_throughput|wgmma_throughput|atomic_add|fixed_work|cp_async_kernel|tma_bulk|dsmem_read)", func):
        out.append(f"{arch} {func}\n   " + " ".join(f"{k}:{v}" for k, v in counts.most_common(14)))
for line in open(sys.argv[1], errors="replace"):
    if line.strip().startswith("arch ="):
        arch = line.split("=")[1].strip()
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        flush(); func, counts = m.group(1), collections.Counter(); continue
    m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]+)", line)
    if m and func:
        counts[m.group(2).split(".")[0]] += 1
flush()
print("\n".join(out))
PY
rm -f "$R/all.sass"
grep -c "" "$R/sass_opcodes.txt"; head -60 "$R/sass_opcodes.txt"
tar -C "$OUT" -czf "$OUT/throughput.tgz" throughput
ls -la "$OUT"
