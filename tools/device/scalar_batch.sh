#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 22's scalar numerics (numeric.scalar.*, numeric.math.*) on one GPU, in one call:
#   1. the node (nvidia-smi) and, where cuobjdump is on the node, the SASS of the scalar
#      kernels (how ptxas lowers each cvt, div, sqrt and rcp: the NaN rules live there; and
#      the .approx scans: how sin and cos scale their argument before the hardware function);
#   2. `gpuconform run --filter 'numeric.scalar.*' --filter 'numeric.math.*'` at --level
#      standard, timed, with a run record (the evidence file name expectations/evidence/
#      wants) and JUnit;
#   3. the same at --level long (--repeats $REPEATS, default 3, at least 2: gpuconform run
#      refuses fewer at that level), timed, with its record;
#   4. one line per probe of the standard record: verdict, mismatches or largest error, the
#      scan's GPU milliseconds; for a .approx or numeric.math probe its worst input (what its
#      exact entry will name); where a probe did not pass, its first mismatch and the mismatches per input
#      class (what to change in the reference, or what the GPU got wrong).
# Results: $OUT/scalar.tgz (records, logs, the SASS, the per-probe table) and $OUT/scalar-log.txt.
# Usage: [REPEATS=3] tools/device/scalar_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" scalar-log.txt
REPEATS=${REPEATS:-3}
# gpuconform run refuses --level long with fewer than 2 repeats (exit 2 before any probe, as
# the H100 GPU-791fafea scalar run of 2026-11-26 did with REPEATS=1 in 0.2 s): take 2.
if ! [ "$REPEATS" -ge 2 ] 2> /dev/null; then
  echo "REPEATS=$REPEATS: --level long needs 2 or more runs per probe; using 2"
  REPEATS=2
fi
R=$OUT/scalar
mkdir -p "$R"
filters=(--filter 'numeric.scalar.*' --filter 'numeric.math.*')

echo "== node"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.max.sm,temperature.gpu --format=csv
"$G" --version 2>&1 | head -3
echo "$ARCH entries of the family: $("$G" list --arch "$ARCH" 2> /dev/null | grep -cE '^numeric\.(scalar|math)\.')"
if command -v cuobjdump > /dev/null 2>&1; then
  cuobjdump -sass "$G" 2> /dev/null |
    awk '/Function : .*scan_(conversion|arith|approx|divide)/ {keep=1}
         /Function : / && !/scan_(conversion|arith|approx|divide)/ {keep=0} keep' \
      > "$R/scalar-sass.txt"
  echo "SASS of the scalar kernels: $(grep -c 'Function :' "$R/scalar-sass.txt") kernels in scalar/scalar-sass.txt"
else
  echo "no cuobjdump on this node: no SASS dump"
fi

name=$(evidence_name scalar)
echo "== --level standard"
s=$(date +%s.%N)
timeout 500 "$G" run "${filters[@]}" --out-dir "$R/run-standard" --record "$R/$name.jsonl" --junit "$R/standard.xml" > "$R/standard.txt" 2>&1
rc=$?
echo "standard exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$R/standard.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/standard.txt"

echo "== per probe (standard record)"
python3 - "$R/$name.jsonl" <<'PY' | tee "$R/probes.txt"
import json, os, sys
worst = 0.0
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record {sys.argv[1]}: the run above says why")
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("record", "test") != "test" or "probe" not in j:
        continue
    m = j.get("measured", {})
    notes = m.get("notes", {})
    ms = notes.get("gpu_ms", "")
    try:
        worst = max(worst, float(j.get("seconds", 0)))
    except (TypeError, ValueError):
        pass
    print(f'{j["probe"]:48s} {j["verdict"]:5s} {m.get("value", float("nan")):>12g} {m.get("unit", "")}'
          f'  gpu {ms} ms  wall {float(j.get("seconds", 0)):.3f} s' + ("" if m else "  " + j.get("reason", "")[:300]))
    measured = ".approx." in j["probe"] or j["probe"].startswith("numeric.math.")
    if measured and m:  # the measured maximum: the worst input for the exact entry
        for key in ("worst_input", "max_real_ulp_error", "flagged", "max_absolute_100pi", "class_mismatches"):
            if key in notes:
                print(f'    {key}: {notes[key]}')
    if j["verdict"] not in ("pass", "recorded") and m:
        for key in ("mismatches_by_class", "first_mismatch", "mismatch_2", "mismatch_3"):
            if key in notes:
                print(f'    {key}: {notes[key]}')
print(f"largest wall seconds of one probe: {worst:.3f}")
PY

echo "== --level long (--repeats $REPEATS)"
s=$(date +%s.%N)
timeout 580 "$G" run "${filters[@]}" --out-dir "$R/run-long" --level long --repeats "$REPEATS" --record "$R/$name-long.jsonl" \
  --junit "$R/long.xml" > "$R/long.txt" 2>&1
rc=$?
echo "long exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$R/long.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/long.txt"

tar -C "$OUT" -czf "$OUT/scalar.tgz" scalar
ls -la "$OUT"
