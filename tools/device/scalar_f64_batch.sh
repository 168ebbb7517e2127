#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 22's binary64 scalar probes on one GPU, in one call (target: under 4 minutes on an H100):
#   numeric.scalar.<op>.<rn|rz|rm|rp>.f64 (add sub mul fma div sqrt rcp: 28 probes, exact
#   reference on the GPU) and numeric.math.f64.<fn> (33 CUDA double functions, decided on the
#   host: x87 long double, MPFR near a rounding boundary), and the integer<->float conversions
#   numeric.scalar.cvt.* between s32/u32/s64/u64 and f32/f64 (58 probes: a 32-bit source over
#   all 2^32 patterns, a 64-bit one sampled).
#   1. the node and the build;
#   2. `gpuconform run` of the three sets at --level standard (2^24 tuples per op, 2^20
#      inputs per function, 2^24 per sampled conversion), timed, with a run record (the name expectations/evidence/ wants);
#   3. the same at --level long --repeats 2 with GPUCONFORM_SCALAR_LONG=1 (2^28 tuples per op and
#      per sampled conversion, 2^24 inputs per function: the probes cannot see the run level, so the variable says it);
#   4. one line per probe of each record: verdict, value, GPU and host milliseconds, the worst
#      input of a math function, the NaN kinds of an arithmetic row, and the first mismatches of
#      any probe that did not pass.
# Results: $OUT/scalar_f64.tgz (records, logs, per-probe tables) and $OUT/scalar-f64-log.txt.
# Usage: tools/device/scalar_f64_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" scalar-f64-log.txt
R=$OUT/scalar_f64
mkdir -p "$R"
filters=(--filter 'numeric.scalar.*.f64' --filter 'numeric.math.f64.*' --filter 'numeric.scalar.cvt.*[su][36][24]*')

echo "== node"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.max.sm --format=csv
"$G" --version 2>&1 | head -3
echo "host cores: $(nproc)"
echo "$ARCH entries: $("$G" list --arch "$ARCH" 2> /dev/null | grep -cE '^numeric\.(scalar\..*\.f64|math\.f64\.|scalar\.cvt\..*[su](32|64))')"

table() {  # one line per probe of a run record
  python3 - "$1" <<'PY'
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record {sys.argv[1]}: the run above says why")
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("record", "test") != "test" or "probe" not in j:
        continue
    m = j.get("measured", {})
    n = m.get("notes", {})
    print(f'{j["probe"]:36s} {j["verdict"]:5s} {m.get("value", float("nan")):>8g} {m.get("unit", "")}'
          f'  gpu {n.get("gpu_ms", "")} ms  host {n.get("host_ms", "-")} ms  wall {float(j.get("seconds", 0)):.2f} s'
          + ("" if m else "  " + j.get("reason", "")[:300]))
    for key in ("worst_input", "max_real_ulp_error", "flagged", "nan_results"):
        if key in n:
            print(f"    {key}: {n[key]}")
    if j["verdict"] != "pass" and m:
        for key in ("mismatches_by_class", "first_mismatch", "mismatch_2", "mismatch_3", "nan_mismatches"):
            if key in n:
                print(f"    {key}: {n[key]}")
PY
}

name=$(evidence_name scalar-f64)
echo "== --level standard"
s=$(date +%s.%N)
timeout 150 "$G" run "${filters[@]}" --out-dir "$R/run-standard" --record "$R/$name.jsonl" --junit "$R/standard.xml" \
  > "$R/standard.txt" 2>&1
rc=$?
echo "standard exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$R/standard.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/standard.txt"
table "$R/$name.jsonl" | tee "$R/probes-standard.txt"

echo "== --level long (GPUCONFORM_SCALAR_LONG=1, --repeats 2)"
s=$(date +%s.%N)
GPUCONFORM_SCALAR_LONG=1 timeout 400 "$G" run "${filters[@]}" --out-dir "$R/run-long" --level long --repeats 2 \
  --record "$R/$name-long.jsonl" --junit "$R/long.xml" > "$R/long.txt" 2>&1
rc=$?
echo "long exit $rc wall $(elapsed "$s") s"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed, " "$R/long.txt" | cut -c1-400
[ "$rc" -le 1 ] || tail -5 "$R/long.txt"
table "$R/$name-long.jsonl" > "$R/probes-long.txt"
grep -vE '^ ' "$R/probes-long.txt" | awk '$2 != "pass"' | head -40

tar -C "$OUT" -czf "$OUT/scalar_f64.tgz" scalar_f64
ls -la "$OUT"
