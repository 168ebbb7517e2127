#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11 on a GPU node, in one call (well under 540 s):
#   1. golden vector files of the MMA variants that have none yet (mma.sync m16n8k8 f16/bf16,
#      m16n8k4 tf32, m16n8k16 s8, m16n8k32 u8, the sm_90 f64 m16n8k{4,8,16}, wmma f16/bf16/
#      tf32/s8/u8/f64, wgmma s8 m64nNk32 for N = 16 .. 256 and N = 256 .satfinite), each written
#      only after its fragment-layout self-test passed, small enough to commit (<= 1 MB xz);
#   2. `vectors check` (default model) and `vectors check --candidates` on them, and
#      `vectors infer` (the fitted parameters must equal the table row: "= sm_90...");
#   3. `probe numerics --out`, timed (must be <= 120 s on an H100), then `lint` of the file
#      it wrote, and its entries against the committed numeric.feature.* ones; its vector
#      files stay on the node (only the .toml and the log come back);
#   4. the numeric family of a normal run, timed (must stay <= 60 s); numeric.profile.*
#      recorded into a scratch file and run once with a run record (tables and curves);
#   5. the SASS opcodes of the new kernels (what the PTX became).
# What comes back under $OUT: numerics_log.txt and numerics.tgz (golden/ = the new files and
# their README.md, to be unpacked into expectations/golden/sm_XX/; reports/).
# Usage: tools/device/numerics_batch.sh BUILD_DIR   (BUILD_DIR holds bin/gpuconform)
. "$(dirname "$0")/prelude.sh" "${1:-}" numerics_log.txt
G="$(cd "$B" && pwd)/bin/gpuconform"
WORK=/tmp/gpuconform-numerics
rm -rf "$WORK" && mkdir -p "$WORK/golden" "$WORK/reports" "$WORK/probe"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,driver_version,compute_cap,clocks.sm,temperature.gpu --format=csv
"$G" vectors list | tee "$WORK/reports/variants.txt"

echo "== 1. golden files of the new variants"
# 2000 random instances as the committed files, two distinct rows of A and C each (the
# committed ones have four) so that all golden files stay under the 50 MB the unit test
# allows; the sm_90 f64 shapes carry 16 hex digits an element (k16: a 16 x 16 A), so fewer
# instances keep them under 1 MB (golden_vectors_test.cpp: their floor is 500); wmma's m16n16
# instances hold twice the outputs (floor 1000), wgmma m64nNk32 N/8 times those of m64n8
# (floor 2000 * 8 / N, at least 100). Sizes from `vectors generate --simulate
# sm_90`: 0.24 .. 0.87 MB each; any file over 1 MB is flagged below.
NEW="mma_m16n8k8_f32_f16 mma_m16n8k8_f32_bf16 mma_m16n8k8_f16_f16 mma_m16n8k4_f32_tf32 mma_m16n8k16_s32_s8
     mma_m16n8k32_s32_u8 mma_m16n8k4_f64_f64:1000 mma_m16n8k8_f64_f64:600 mma_m16n8k16_f64_f64:500
     wmma_m16n16k16_f32_f16:1000 wmma_m16n16k16_f16_f16:1000 wmma_m16n16k16_f32_bf16:1000
     wmma_m16n16k8_f32_tf32:1000 wmma_m16n16k16_s32_s8:1000 wmma_m16n16k16_s32_u8:1000 wmma_m8n8k4_f64_f64:1000
     wgmma_m64n16k32_s32_s8:1000 wgmma_m64n32k32_s32_s8:500 wgmma_m64n64k32_s32_s8:250 wgmma_m64n128k32_s32_s8:125
     wgmma_m64n256k32_s32_s8:100 wgmma_m64n256k32_s32_s8_satfinite:100"
start=$(date +%s.%N)
generate_golden "$WORK/golden" $NEW
echo "generate took $(elapsed "$start") s"
echo "== 2. sizes, check, candidates, infer"
check_golden "$WORK/golden" "$WORK/reports" 1048576

echo "== 3. probe numerics, timed (<= 120 s on an H100)"
start=$(date +%s.%N)
timeout 300 "$G" probe numerics --out "$WORK/probe/$ARCH-numerics.toml" > "$WORK/reports/probe_numerics.txt" 2>&1
echo "probe numerics exit $? wall $(elapsed "$start") s"
cat "$WORK/reports/probe_numerics.txt"
"$G" lint "$WORK/probe/$ARCH-numerics.toml"
echo "lint exit: $?"
# The committed numeric.feature.* entries against what the survey pinned (same ids, same param).
python3 tools/device/compare_features.py "expectations/$ARCH.toml" "$WORK/probe/$ARCH-numerics.toml"

echo "== 4. the numeric family of a normal run, timed (<= 60 s)"
start=$(date +%s.%N)
timeout 240 "$G" run --filter 'numeric.*' > "$WORK/reports/run_numeric.txt" 2>&1
echo "run --filter 'numeric.*' exit $? wall $(elapsed "$start") s"
grep -cE "^pass " "$WORK/reports/run_numeric.txt" | sed 's/^/passed: /'
grep -E "^(fail|warn) " "$WORK/reports/run_numeric.txt" | cut -c1-200

echo "== 4b. numeric.profile.* (seed 001): record into a scratch file, then one run with a run record"
start=$(date +%s.%N)
timeout 240 "$G" record --probe 'numeric.profile.*' --out "$WORK/reports/$ARCH-profile.toml" > "$WORK/reports/record_profile.txt" 2>&1
echo "record numeric.profile exit $? wall $(elapsed "$start") s"
tail -8 "$WORK/reports/record_profile.txt"
timeout 240 "$G" run --filter 'numeric.profile.*' --overlay "$WORK/reports/$ARCH-profile.toml" \
  --record "$WORK/reports/profile_run.jsonl" > "$WORK/reports/run_profile.txt" 2>&1
echo "run numeric.profile exit $?"
python3 - "$WORK/reports/profile_run.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    if not str(r.get("id", r.get("probe", ""))).startswith("numeric.profile"): continue
    print(r.get("id", r.get("probe")), m.get("value"), m.get("unit"))
    for s in m.get("series", []):
        print("   ", s["name"], ["%.3g" % y for y in s["y"]["values"]])
PY

echo "== 5. SASS opcodes of the new kernels on $ARCH"
if command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$G" 2> /dev/null | awk '
    /arch = /{arch=$3}
    /Function : /{f=""; if (match($0, /(w|wg)?mma_m(16|8|64)n[0-9]+k(4|8|16|32)_[a-z0-9_]+/)) f=substr($0, RSTART, RLENGTH); next}
    f!="" && match($0, /(HMMA|IMMA|DMMA|IGMMA|F2FP)[.A-Z0-9_]*/) {print arch, f, substr($0, RSTART, RLENGTH)}' |
    sort | uniq -c | grep "$ARCH" > "$WORK/reports/sass_mma.txt"
  cat "$WORK/reports/sass_mma.txt"
fi

echo "== pack"
cp "$WORK/probe/$ARCH-numerics.toml" "$WORK/reports/" 2> /dev/null
tar -C "$WORK" -czf "$OUT/numerics.tgz" golden reports
ls -l "$OUT"
