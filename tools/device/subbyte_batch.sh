#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11 item 3, the sub-byte integer MMA paths, on a GPU node in one call (< 300 s):
#   1. golden vector files of mma.sync s4/u4 (m8n8k32, m16n8k32, m16n8k64, and m16n8k64 s4
#      .satfinite) and b1 (m8n8k128, m16n8k128, m16n8k256, each .xor.popc and .and.popc), and
#      of wmma m8n8k32 s4/u4 and m8n8k128 b1 (xor, and; packed operands through shared
#      memory), each written only after its fragment-layout self-test passed, each small
#      enough to commit (<= ~300 KB: the counts below, from `vectors generate --simulate`);
#   2. `vectors check` (default model), `vectors check --candidates` and `vectors infer` on
#      them (infer must name the model of the variant: exact.s32.wrap / .satfinite,
#      popc.xor.s32.wrap, popc.and.s32.wrap);
#   3. the SASS of the new kernels: IMMA / BMMA, or what ptxas made of s4/u4 on this
#      architecture where the INT4 tensor path is not native;
#   4. `probe numerics` over every path, timed (the new paths join the survey; <= 120 s).
# What comes back under $OUT: subbyte_log.txt and subbyte.tgz (golden/ = the new files and
# their README.md, to be unpacked into expectations/golden/sm_XX/; reports/).
# Usage: tools/device/subbyte_batch.sh BUILD_DIR   (BUILD_DIR holds bin/gpuconform)
. "$(dirname "$0")/prelude.sh" "${1:-}" subbyte_log.txt
G="$(cd "$B" && pwd)/bin/gpuconform"
WORK=/tmp/gpuconform-subbyte
rm -rf "$WORK" && mkdir -p "$WORK/golden" "$WORK/reports"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,driver_version,compute_cap,clocks.sm,temperature.gpu --format=csv
"$G" vectors list | grep -E "_(s4|u4|b1)" | tee "$WORK/reports/variants.txt"

echo "== 1. golden files of the sub-byte variants"
# Counts sized with `vectors generate --simulate sm_90 --distinct-rows 2` so that each file
# stays <= ~300 KB: 1100 instances where a row of A holds 128 bits, 650 where it holds 256
# (m16n8k64 s4/u4, m16n8k256 b1); simulated, the 17 files took 0.24 .. 0.30 MB, 4.6 MB in all.
# tests/unit/golden_vectors_test.cpp holds the same floors.
NEW="mma_m8n8k32_s32_s4:1100 mma_m8n8k32_s32_u4:1100 mma_m16n8k32_s32_s4:1100 mma_m16n8k32_s32_u4:1100
     mma_m16n8k64_s32_s4:650 mma_m16n8k64_s32_u4:650 mma_m16n8k64_s32_s4_satfinite:650
     mma_m8n8k128_s32_b1_xor:1100 mma_m8n8k128_s32_b1_and:1100 mma_m16n8k128_s32_b1_xor:1100
     mma_m16n8k128_s32_b1_and:1100 mma_m16n8k256_s32_b1_xor:650 mma_m16n8k256_s32_b1_and:650
     wmma_m8n8k32_s32_s4:1100 wmma_m8n8k32_s32_u4:1100 wmma_m8n8k128_s32_b1_xor:1100 wmma_m8n8k128_s32_b1_and:1100"
start=$(date +%s.%N)
generate_golden "$WORK/golden" $NEW
echo "generate took $(elapsed "$start") s"
echo "== 2. sizes, check, candidates, infer"
check_golden "$WORK/golden" "$WORK/reports" 330000

echo "== 3. SASS of the sub-byte kernels on $ARCH"
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$G" 2> /dev/null > "$WORK/reports/sass_all.txt"
  # Per kernel: every tensor-core opcode, and for s4/u4 the integer ops ptxas may have used
  # instead (IMAD, IDP, PRMT, LOP3, SHF, I2I: an emulation shows as many of these).
  awk -v arch="$ARCH" '
    /arch = /{a=$3}
    /Function : /{f=""; if ((a==arch || a==arch "a") && match($0, /(w)?mma_m(8|16)n8k(32|64|128|256)_s32_(s4|u4|b1)[a-z_]*/)) f=substr($0, RSTART, RLENGTH); next}
    f!="" && /\/\*[0-9a-f]+\*\// {
      line=$0; sub(/^.*\/\*[0-9a-f]+\*\/ */, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
      split(line, w, /[ ;]/); if (w[1] ~ /^[A-Z]/) print f, w[1]}' \
    "$WORK/reports/sass_all.txt" | sort | uniq -c | sort -k2,2 -k1,1nr > "$WORK/reports/sass_subbyte.txt"
  echo "-- tensor-core opcodes (IMMA/BMMA/HMMA) per kernel"
  grep -E " (IMMA|BMMA|HMMA)" "$WORK/reports/sass_subbyte.txt" || echo "no IMMA/BMMA/HMMA in any sub-byte kernel"
  echo "-- every opcode of one mma.sync and one wmma s4 kernel (the lowering to write down)"
  grep -E " (mma_m16n8k64_s32_s4|wmma_m8n8k32_s32_s4) " "$WORK/reports/sass_subbyte.txt"
  echo "-- kernels with no tensor-core opcode, and their integer-op counts"
  for k in $(awk '{print $2}' "$WORK/reports/sass_subbyte.txt" | sort -u); do
    grep -qE "^ *[0-9]+ $k (IMMA|BMMA|HMMA)" "$WORK/reports/sass_subbyte.txt" && continue
    echo "$k: $(grep -E "^ *[0-9]+ $k (IMAD|IDP|PRMT|LOP3|SHF|I2I|IADD3|POPC)" "$WORK/reports/sass_subbyte.txt" |
      awk '{printf "%s %s, ", $3, $1}')"
  done
  rm -f "$WORK/reports/sass_all.txt"
else
  echo "no cuobjdump on this node"
fi

echo "== 4. probe numerics (every path, the sub-byte ones included), timed (<= 120 s)"
start=$(date +%s.%N)
timeout 240 "$G" probe numerics > "$WORK/reports/probe_numerics.txt" 2>&1
echo "probe numerics exit $? wall $(elapsed "$start") s"
grep -E "_(s4|u4|b1)|paths|skipped" "$WORK/reports/probe_numerics.txt" | cut -c1-240

echo "== pack"
tar -C "$WORK" -czf "$OUT/subbyte.tgz" golden reports
ls -l "$OUT"
