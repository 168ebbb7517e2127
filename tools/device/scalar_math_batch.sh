#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 22 item 4, the binary32 CUDA math library family (numeric.math.*, not the binary64
# numeric.math.f64.* of scalar_f64_batch.sh), on one GPU in one call:
#   1. the node (nvidia-smi) and how many probes the filter selects;
#   2. `gpuconform run` at --level standard: every library function (erfinvf, erfcinvf,
#      lgammaf included) and intrinsic over all 2^32 inputs, the two-argument ones (powf
#      atan2f hypotf fmodf remainderf, __powf __fdividef __fdiv_rn) on 2^24 pairs, judged
#      against the Programming Guide's bounds; run record + JUnit;
#   3. one line per probe of that record: verdict, value, GPU ms and wall seconds (the target:
#      <= 1 s per function, MPFR decisions included), the worst input, the real-valued error,
#      the MPFR-decided count, the maximum where the bound does not speak, and the `model`
#      (the measured maximum and its input) of each;
#   4. `gpuconform record` of the exact companions numeric.math.*.worst, two runs each, with
#      GPUCONFORM_SCALAR_LONG=1 (the two-argument rows' full 2^30-pair sample, whose maximum the
#      entry holds): the run record the lead derives the exact entries from (`run` skips them
#      until they exist); the script checks that both runs give the same maximum and input (a
#      scan is deterministic: a difference is a defect to report, not an entry);
#   5. `gpuconform run` at --level long (--repeats $REPEATS, default 2) with
#      GPUCONFORM_SCALAR_LONG=1 (2^30 pairs), with its record: the .worst probes are judged
#      there once their entries exist.
# Each step has its own time limit (150 + 200 + 200 s) so that the call stays within a 600 s
# device command (estimated, not yet measured, on an H100: about 15 s, 40 s and 30 s).
# Results: $OUT/scalar_math.tgz (records, logs, the per-probe table) and $OUT/scalar-math-log.txt.
# Usage: [REPEATS=2] tools/device/scalar_math_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" scalar-math-log.txt
REPEATS=${REPEATS:-2}
if ! [ "$REPEATS" -ge 2 ] 2> /dev/null; then  # run refuses --level long with fewer
  echo "REPEATS=$REPEATS: --level long needs 2 or more runs per probe; using 2"
  REPEATS=2
fi
R=$OUT/scalar_math
mkdir -p "$R"
# numeric.math.* without the binary64 numeric.math.f64.* (fnmatch: [!f] is "not f").
globs=('numeric.math.[!f]*' 'numeric.math.fmodf*')
filters=()
for g in "${globs[@]}"; do filters+=(--filter "$g"); done

echo "== node"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.max.sm,temperature.gpu --format=csv
"$G" --version 2>&1 | head -3
"$G" list --arch "$ARCH" 2> /dev/null | grep -E '^numeric\.math\.' | grep -v '^numeric\.math\.f64\.' > "$R/probes.list"
echo "probes: $(wc -l < "$R/probes.list") ($(grep -c '\.worst$' "$R/probes.list") of them .worst companions)"

name=$(evidence_name scalar-math)
echo "== --level standard"
s=$(date +%s.%N)
GPUCONFORM_SCALAR_LONG=0 timeout 150 "$G" run "${filters[@]}" --out-dir "$R/run-standard" --record "$R/$name.jsonl" --junit "$R/standard.xml" \
  > "$R/standard.txt" 2>&1
rc=$?
echo "standard exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn) |passed, " "$R/standard.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/standard.txt"

echo "== per probe (standard record)"
python3 - "$R/$name.jsonl" <<'PY' | tee "$R/probes.txt"
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record {sys.argv[1]}: the run above says why")
slow = []
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("record", "test") != "test" or "probe" not in j:
        continue
    m = j.get("measured", {})
    notes = m.get("notes", {})
    wall = float(j.get("seconds", 0) or 0)
    if wall > 1.0 and not j["probe"].endswith(".worst"):
        slow.append((j["probe"], wall))
    print(f'{j["probe"]:44s} {j["verdict"]:5s} {m.get("value", float("nan")):>12g} {m.get("unit", "")}'
          f'  gpu {notes.get("gpu_ms", "")} ms  wall {wall:.3f} s' + ("" if m else "  " + j.get("reason", "")[:300]))
    for key in ("worst_input", "max_real_ulp_error", "flagged", "outside_bound", "signed_zero", "model",
                "nan_mismatches", "first_mismatch"):
        if key in notes:
            print(f'    {key}: {notes[key]}')
print("over the 1 s target: " + (", ".join(f"{p} {w:.2f} s" for p, w in slow) if slow else "none"))
PY

echo "== the exact companions (record, 2 runs)"
worst=()
for g in "${globs[@]}"; do worst+=(--probe "${g%\*}*.worst"); done
s=$(date +%s.%N)
GPUCONFORM_SCALAR_LONG=1 timeout 200 "$G" record "${worst[@]}" --runs 2 --out "$R/worst-scratch.toml" --evidence "$R/$name-worst.jsonl" \
  > "$R/worst-record.txt" 2>&1
echo "record exit $? wall $(elapsed "$s") s: $R/$name-worst.jsonl"
grep -E "FAILED|skipped|error" "$R/worst-record.txt" | cut -c1-300
python3 - "$R/$name-worst.jsonl" <<'PY' | tee "$R/worst.txt"
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record {sys.argv[1]}")
models = {}
for line in open(sys.argv[1]):
    j = json.loads(line)
    if "probe" not in j or "measured" not in j:
        continue
    models.setdefault(j["probe"], []).append(j["measured"].get("notes", {}).get("model", "?"))
bad = 0
for probe, ms in sorted(models.items()):
    same = len(set(ms)) == 1
    bad += not same
    print(f'{probe:50s} {ms[0]}' + ("" if same else f"   RUNS DIFFER: {ms}"))
print(f"{len(models)} companions, {bad} with runs that differ (each one a defect to report, not an entry)")
PY

echo "== --level long (--repeats $REPEATS)"
s=$(date +%s.%N)
GPUCONFORM_SCALAR_LONG=1 timeout 200 "$G" run "${filters[@]}" --out-dir "$R/run-long" --level long --repeats "$REPEATS" \
  --record "$R/$name-long.jsonl" --junit "$R/long.xml" > "$R/long.txt" 2>&1
rc=$?
echo "long exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn) |passed, " "$R/long.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/long.txt"

tar -C "$OUT" -czf "$OUT/scalar_math.tgz" scalar_math
ls -la "$OUT"
