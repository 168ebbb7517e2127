#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden MMA vectors on a GPU node, in one call (well under 10 minutes):
#  1. every MMA variant of the build runs in its own process (a fault in one cannot poison
#     another's CUDA context), four at a time; each file is written only after its
#     fragment-layout self-test passed;
#  2. every file is checked against its default model and against every candidate model;
#  3. the SASS of the MMA kernels is recorded (what the PTX became, e.g. FP8 mma.sync).
# What comes back under $OUT (at most 8 files of <= 16 MiB):
#   golden_log.txt             the whole log, check results included
#   golden_reports.tar         check.txt, candidates.txt, sass_mma.txt
#   golden_sm_XX.tar.NN        the vector files + README.md, split in 15 MiB parts; unpack with
#                              cat golden_sm_XX.tar.* | tar -x -C expectations/golden/
# Usage: tools/device/golden_batch.sh BUILD_DIR [COUNT]   (BUILD_DIR holds bin/gpuconform)
. "$(dirname "$0")/prelude.sh" "${1:-}" golden_log.txt
COUNT=${2:-2000}
G="$(cd "$B" && pwd)/bin/gpuconform"
WORK=/tmp/gpuconform-golden

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,driver_version,compute_cap,clocks.sm,temperature.gpu --format=csv
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
ARCH="sm_$CC"
DIR="$WORK/$ARCH"
rm -rf "$WORK" && mkdir -p "$DIR"
ldd "$G" | grep -E "not found|lzma|fmt|mpfr|gmp" || true
"$G" vectors list

echo "== generate ($COUNT random instances per variant, plus the literature probes)"
start=$(date +%s)
"$G" vectors list | awk '{print $1}' |
  xargs -P 4 -I{} sh -c 'timeout 180 "$1" vectors generate --out "$2" --variant "$3" --count "$4" ||
                         echo "generate $3: exit $?"' _ "$G" "$DIR" {} "$COUNT"
"$G" vectors readme "$DIR"  # once every generator is done
echo "generate took $(( $(date +%s) - start )) s"
ls -l "$DIR"
du -cb "$DIR"/*.txt.xz | tail -1

echo "== check against the default model of each variant (exit 0 all match, 1 mismatch, 2 no model/unusable)"
"$G" vectors check "$DIR"/*.txt.xz > "$WORK/check.txt" 2>&1
echo "check exit: $?"
cat "$WORK/check.txt"

echo "== every candidate model (which one does each variant follow?)"
"$G" vectors check --candidates "$DIR"/*.txt.xz > "$WORK/candidates.txt" 2>&1
echo "candidates exit: $?"
# One line per variant: the models that match every output, else the closest one.
awk '/outputs match$/ {split($2, n, "/"); variant=$1; sub(":", "", variant); got=n[1]; total=n[2]; next}
     /^  model / {model=$2
       if (got == total) ok[variant] = ok[variant] " " model
       if (!(variant in best) || got > bestn[variant]) {best[variant]=model; bestn[variant]=got; tot[variant]=total}
       seen[variant]=1}
     END {for (v in seen) print v ":", (v in ok) ? "matched by" ok[v] : "NO candidate matches (closest " best[v] " " bestn[v] "/" tot[v] ")"}' \
  "$WORK/candidates.txt" | sort

echo "== SASS opcodes of the MMA kernels on $ARCH (what the PTX became)"
if command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$G" 2> /dev/null | awk '
    /arch = /{arch=$3}
    /Function : /{f=""; if (match($0, /(wg)?mma_m[0-9]+n[0-9]+k[0-9]+_[a-z0-9_]+/)) f=substr($0, RSTART, RLENGTH); next}
    f!="" && match($0, /(HMMA|HGMMA|QGMMA|IGMMA|IMMA|DMMA|QMMA|WARPGROUP|F2FP|F2F)[.A-Z0-9_]*/) {print arch, f, substr($0, RSTART, RLENGTH)}' |
    sort | uniq -c > "$WORK/sass_mma.txt"
  grep "$ARCH" "$WORK/sass_mma.txt"
else
  echo "cuobjdump not found" | tee "$WORK/sass_mma.txt"
fi

echo "== pack"
tar -C "$WORK" -cf "$OUT/golden_reports.tar" check.txt candidates.txt sass_mma.txt
tar -C "$WORK" -cf - "$ARCH" | split -b 15M -d - "$OUT/golden_$ARCH.tar."
ls -l "$OUT"
