#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11 item 3, the 2:4 sparse mma.sp paths, on a GPU node in one call (well under 300 s):
#   1. golden vector files of every mmasp_* variant (kernels/numeric/mma_sp.cu), each written
#      only after its fragment-layout self-test passed: integer-valued instances whose chunks
#      keep every valid position set under the variant's sparsity selector, so a wrong
#      metadata layout or selector reading fails here and nothing is written ("FAILED ...");
#      the failure then names any other reading of the PTX ISA's metadata figures that passes
#      ("with metadata layout rows_by_thread it passes": sparse_a.hpp MetaLayout), so this one
#      run says how to correct sparse::meta_at;
#   2. `vectors check` (default: the compressed hypothesis, sparse_mma.hpp), `vectors check
#      --candidates` (compressed:ID and dense:ID of every row with the formats) and `vectors
#      infer` (its sparse_products parameter names the hypothesis that fits);
#   3. the SASS opcodes of the sparse kernels (HMMA.SP / IMMA.SP, and F2FP ahead of fp8).
# What comes back under $OUT: sparse_log.txt and sparse.tgz (golden/ = the files and their
# README.md, to be unpacked into expectations/golden/sm_XX/; reports/).
# Usage: tools/device/sparse_batch.sh BUILD_DIR   (BUILD_DIR holds bin/gpuconform)
. "$(dirname "$0")/prelude.sh" "${1:-}" sparse_log.txt
G="$(cd "$B" && pwd)/bin/gpuconform"
WORK=/tmp/gpuconform-sparse
rm -rf "$WORK" && mkdir -p "$WORK/golden" "$WORK/reports"

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,driver_version,compute_cap,clocks.sm,temperature.gpu --format=csv
"$G" vectors list | grep '^mmasp_' | tee "$WORK/reports/variants.txt"

echo "== 1. golden files of the sparse variants"
# Two distinct rows of A and C per instance as numerics_batch.sh; the counts keep every file
# <= ~400 KB (`vectors generate --simulate sm_90 --distinct-rows 2`: 0.32 .. 0.37 MB each, 4.2 MB
# in all; golden_vectors_test.cpp's kMinInstancesSparse = 500 is the floor): 500 random
# instances of the floating-point variants, 1000 of m16n8k32 s8, 600 of m16n8k64 s8. Any file
# over 400 KB is flagged below.
SPARSE=$(grep -o '^mmasp_[a-z0-9_]*' "$WORK/reports/variants.txt")
start=$(date +%s.%N)
specs=()
for v in $SPARSE; do
  case "$v" in mmasp_m16n8k32_s32_s8_*) n=1000 ;; mmasp_m16n8k64_s32_s8_*) n=600 ;; *) n=500 ;; esac
  specs+=("$v:$n")
done
generate_golden "$WORK/golden" "${specs[@]}"
echo "generate took $(elapsed "$start") s"
echo "== 2. sizes, check, candidates, infer"
check_golden "$WORK/golden" "$WORK/reports" 409600

echo "== 3. SASS opcodes of the sparse kernels on $ARCH"
if command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$G" 2> /dev/null | awk '
    /arch = /{arch=$3}
    /Function : /{f=""; if (match($0, /mmasp_m16n8k[0-9]+_[a-z0-9]+_[a-z0-9]+_sel[0-9]/)) f=substr($0, RSTART, RLENGTH); next}
    f!="" && match($0, /(HMMA|IMMA|QMMA|F2FP)[.A-Z0-9_]*/) {print arch, f, substr($0, RSTART, RLENGTH)}' |
    sort | uniq -c | grep "$ARCH" > "$WORK/reports/sass_mma_sp.txt"
  cat "$WORK/reports/sass_mma_sp.txt"
else
  echo "no cuobjdump on this node"
fi

echo "== pack"
tar -C "$WORK" -czf "$OUT/sparse.tgz" golden reports
ls -l "$OUT"
