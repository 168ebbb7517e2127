#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call on a GPU node: facts, SASS, record, run, doctored run, ctest.
# Usage: tools/device/foundation_batch.sh BUILD_DIR [RUNS]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-5}
R=$OUT/r
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,pci.sub_device_id,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu,persistence_mode --format=csv
ldd "$G" | grep -E "not found|fmt|mpfr|gmp|toml" || true
echo "== sass opcodes per kernel"
cuobjdump --dump-sass "$G" > "$R/sass.txt" 2>&1 || echo "cuobjdump failed"
grep -oE "(HMMA|HGMMA|QGMMA|IMMA|FFMA|DFMA|IMAD|FMUL|F2FP)[.A-Z0-9_]*" "$R/sass.txt" | sort | uniq -c | sort -rn | head -20
echo "== record ($RUNS runs per probe)"
"$G" record --out expectations/sm_90.toml --runs "$RUNS" --probe latency.alu.fma.rn.f32 --probe throughput.hbm.read --probe "numeric.*"
cp expectations/sm_90.toml "$R/"
cp expectations/evidence/*.jsonl "$R/" 2>/dev/null
"$G" lint expectations/sm_90.toml
echo "== run"
"$G" run --record "$R/run.jsonl" --junit "$R/junit.xml"; echo "run exit: $?"
echo "== doctored: FFMA expected at 6 cycles"
cat > /tmp/doctored.toml <<'TOML'
[meta]
arch = "sm_90"
[probe."latency.alu.fma.rn.f32"]
kind = "band"
value = 6
tol = 0.25
unit = "cycles"
source = "cite:doctored expectation for the acceptance check"
TOML
"$G" run --overlay /tmp/doctored.toml --record "$R/doctored.jsonl" --junit "$R/doctored.xml"; echo "doctored exit: $?"
echo "== ctest (GPU labels)"
ctest --test-dir "$B" -LE unit -R "latency.alu|throughput|numeric" --output-junit "$R/ctest-gpu.xml" 2>&1 | tail -15
echo "== FP8 mma.sync lowering on sm_90a"
nvcc -gencode=arch=compute_90a,code=sm_90a -cubin -o /tmp/fp8.cubin tools/device/fp8_mma_lowering.cu &&
  cuobjdump --dump-sass /tmp/fp8.cubin > "$R/fp8_mma_sass.txt" &&
  grep -oE "^ +/\*[0-9a-f]+\*/ +[A-Z0-9_.]+" "$R/fp8_mma_sass.txt" | awk '{print $2}' | sort | uniq -c
tar -C "$OUT" -czf "$OUT/results.tgz" r
