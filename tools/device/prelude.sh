# SPDX-License-Identifier: Apache-2.0
# Sourced by the batch scripts: the steps every GPU-node batch starts with.
# Usage: . tools/device/prelude.sh BUILD_DIR LOG_NAME
# Sets B (build), OUT, G (the CLI) and T (the GPU test binary); logs to $OUT/LOG_NAME.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${1:?usage: BATCH.sh BUILD_DIR [...]}
OUT=${OUT:-/tmp/gpuconform-out}
mkdir -p "$OUT"
# A freshly carried build always replaces one left by an earlier call on a warm
# node: running a stale binary would record numbers of code that no longer exists.
if [ -d ".carry/$B" ]; then
  rm -rf "$B"
  mv ".carry/$B" "$B"
fi
exec > >(tee "$OUT/$2") 2>&1
G="$B/bin/gpuconform"
T="$B/tests/gpuconform_gpu_tests"
[ -x "$G" ] || { echo "no $G: build first (or stage it with tools/device/stage_build.sh)"; exit 2; }
# One disassembly per binary, shared by all test processes (harness/core/src/sass.cpp).
export GPUCONFORM_SASS_CACHE=${GPUCONFORM_SASS_CACHE:-$OUT/sass-cache}
# ctest and the CLI read the files in this checkout, wherever the build was made.
export GPUCONFORM_EXPECTATIONS="$PWD/expectations"
# The file name expectations/evidence/ wants for a run record of GPU 0:
# sm_XX-<PCI id>-<date>-<TAG>-gpu-<UUID prefix> (without .jsonl).
evidence_name() {
  local id uuid cc
  id=$(nvidia-smi --query-gpu=pci.device_id --format=csv,noheader -i 0 | head -n 1 | sed -E 's/^0x(....).*/0x\1/' | tr 'A-F' 'a-f')
  uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader -i 0 | head -n 1 | cut -c1-12)
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 | head -n 1 | tr -d ' .')
  echo "sm_${cc}-${id}-$(date -u +%F)-$1-${uuid,,}"
}
# Seconds since a `date +%s.%N` stamp, one decimal.
elapsed() { python3 -c "print(f'{$(date +%s.%N)-$1:.1f}')"; }
# ARCH=sm_XX of GPU 0.
ARCH="sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2> /dev/null | head -n 1 | tr -d ' .')"
# generate_golden DIR SPEC...: golden vector files of each VARIANT[:COUNT] (default 2000
# instances) into DIR, two distinct rows of A and C per instance, one `vectors generate`
# process per variant, eight at a time (a fault in one cannot poison another's context),
# each written only after its layout self-test passed; then DIR/README.md.
generate_golden() {
  local dir=$1
  shift
  printf '%s\n' "$@" | xargs -P 8 -I{} sh -c '
    spec=$1; v=${spec%%:*}; n=2000; [ "$spec" != "$v" ] && n=${spec#*:}
    timeout 150 "$2" vectors generate --out "$3" --variant "$v" --count "$n" --distinct-rows 2 > "$3/.log.$v" 2>&1 ||
      echo "generate $v: exit $?"' _ {} "$(cd "$(dirname "$G")" && pwd)/$(basename "$G")" "$dir"
  cat "$dir"/.log.* 2> /dev/null
  rm -f "$dir"/.log.*
  "$G" vectors readme "$dir"  # once every generator is done
}
# check_golden DIR REPORTS MAX_BYTES: the size of DIR's vector files (any over MAX_BYTES is
# flagged: too big to commit), then `vectors check` (default models), `vectors check
# --candidates` and `vectors infer` on them, each into REPORTS/ and echoed.
check_golden() {
  local dir=$1 reports=$2 max=$3 f s
  ls -l "$dir"
  echo "files: $(ls "$dir"/*.txt.xz 2> /dev/null | wc -l), total bytes: $(cat "$dir"/*.txt.xz 2> /dev/null | wc -c)"
  for f in "$dir"/*.txt.xz; do
    [ "$(stat -c %s "$f")" -gt "$max" ] && echo "TOO BIG to commit (> $max bytes): $f"
  done
  s=$(date +%s.%N)
  "$G" vectors check "$dir"/*.txt.xz > "$reports/check.txt" 2>&1
  echo "check exit: $? ($(elapsed "$s") s)"
  cat "$reports/check.txt"
  s=$(date +%s.%N)
  "$G" vectors check --candidates "$dir"/*.txt.xz > "$reports/candidates.txt" 2>&1
  echo "candidates exit: $? ($(elapsed "$s") s)"
  # One line per candidate: "variant: matched/total outputs match  model-id" (all of it in REPORTS/).
  awk '/outputs match$/ {line=$0; next} /^  model / && line != "" {print line "  " $2; line=""; next}
       /candidate/ {print}' "$reports/candidates.txt"
  s=$(date +%s.%N)
  "$G" vectors infer "$dir"/*.txt.xz > "$reports/infer.txt" 2>&1
  echo "infer exit: $? ($(elapsed "$s") s)"
  cat "$reports/infer.txt"
}
