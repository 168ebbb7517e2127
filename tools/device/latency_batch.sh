#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call on a GPU node for the latency suite: device facts, `gpuconform
# record` of every latency probe with 10 runs into expectations/sm_90.toml
# (evidence under expectations/evidence/), the ctest `latency` label with its
# wall time, and the coefficient of variation of every probe over the 10 runs
# (from the evidence file). Results land in $OUT/latency.tgz and $OUT/log.txt.
# Usage: tools/device/latency_batch.sh BUILD_DIR [RUNS]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-10}
R=$OUT/latency
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,persistence_mode,clocks_throttle_reasons.active --format=csv
command -v cuobjdump >/dev/null && echo "cuobjdump: $(command -v cuobjdump)" || echo "cuobjdump: not on PATH (SASS notes will say so)"

echo "== record latency.* ($RUNS runs per probe)"
start=$(date +%s)
# One record call per group: each writes the file when it ends, so a group
# cut short by the node's time limit loses only itself.
for group in 'latency.alu.*' 'latency.mma_sync.*' 'latency.w*' 'latency.mem.*' 'latency.shared.*' \
             'latency.ldmatrix.*' 'latency.atomic.*' 'latency.dsmem.*'; do
  "$G" record --probe "$group" --runs "$RUNS" --out expectations/sm_90.toml \
    --description "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" | grep -v "^  recorded"
  echo "group $group done after $(( $(date +%s) - start )) s"
done
echo "record exit: $? after $(( $(date +%s) - start )) s"
"$G" lint expectations/sm_90.toml; echo "lint exit: $?"
cp expectations/sm_90.toml "$R/"
EVIDENCE=$(ls -t expectations/evidence/sm_90-*.jsonl 2>/dev/null | head -1)
[ -n "$EVIDENCE" ] && cp "$EVIDENCE" "$R/"

echo "== CV per probe over the recorded runs"
python3 - "$EVIDENCE" > "$R/cv.tsv" <<'PY'
import json, statistics, sys, collections
runs = collections.defaultdict(list)
unit, sass, notes = {}, {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("verdict") != "recorded" or not r["probe"].startswith("latency."):
        continue
    m = r["measured"]
    runs[r["probe"]].append(m["value"])
    unit[r["probe"]] = m["unit"]
    sass[r["probe"]] = m.get("notes", {}).get("sass", "")
print("probe\tunit\tn\tmedian\tmin\tmax\tcv_percent\tsass")
for p in sorted(runs):
    v = runs[p]
    mean = statistics.fmean(v)
    cv = (statistics.pstdev(v) / abs(mean) * 100) if mean else 0.0
    print(f"{p}\t{unit[p]}\t{len(v)}\t{statistics.median(v):.3f}\t{min(v):.3f}\t{max(v):.3f}\t{cv:.3f}\t{sass[p][:120]}")
PY
cut -c1-160 "$R/cv.tsv"  # tab-separated; no `column` on the node
awk -F'\t' 'NR>1 && $7+0 > 0.5 {n++; print "CV > 0.5%:", $1, $7} END {print n+0, "probe(s) above 0.5% CV"}' "$R/cv.tsv"

echo "== warm the SASS cache of the test binary (one-time disassembly, not part of the timed run)"
start=$(date +%s.%N)
"$T" --gtest_filter='Latency.alu_fma_rn_f32' > /dev/null 2>&1
python3 -c "print(f'warm-up {$(date +%s.%N)-$start:.1f} s')"

echo "== ctest -L latency (timed)"
start=$(date +%s.%N)
ctest --test-dir "$B" -L latency -V --output-junit "$R/ctest-latency.xml" > "$R/ctest-latency.txt" 2>&1
rc=$?
end=$(date +%s.%N)
grep -E "^ *[0-9]+/[0-9]+ Test|tests passed|Total Test time" "$R/ctest-latency.txt"
echo "ctest -L latency exit $rc, wall $(python3 -c "print(f'{$end-$start:.1f}')") s"
python3 - "$R/ctest-latency.txt" <<'PY'
# ctest runs one process per probe group; -V keeps each group's gtest lines.
import re, sys
groups, ok, failed, skipped = [], 0, [], 0
for line in open(sys.argv[1]):
    m = re.search(r"Test +#\d+: (\S+) \.+\**\s*(\w+)\s+([\d.]+) sec", line)
    if m:
        groups.append((float(m.group(3)), m.group(1), m.group(2)))
    if re.search(r"\[       OK \] Latency\.", line): ok += 1
    if re.search(r"\[  SKIPPED \] Latency\.\S+.* \(\d+ ms\)", line): skipped += 1
    f = re.search(r"\[  FAILED  \] (Latency\.[^ ,]+)[ ,].*\(\d+ ms\)", line)
    if f: failed.append(f.group(1))
print(f"{len(groups)} ctest groups, sum {sum(t for t, _, _ in groups):.1f} s; gtest tests: {ok} passed, {len(failed)} failed, {skipped} skipped")
for t, name, status in sorted(groups, reverse=True):
    print(f"group: {t:6.2f} s  {status:8s} {name}")
for name in failed:
    print("FAILED", name)
PY
echo "== SASS of the timed regions (whole binary, sm_90a)"
command -v cuobjdump >/dev/null && cuobjdump --dump-sass --gpu-architecture sm_90a "$G" > "$R/sass_sm90a.txt" 2>&1
tar -C "$OUT" -czf "$OUT/latency.tgz" latency log.txt
echo "wrote $OUT/latency.tgz"
