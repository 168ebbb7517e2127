#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 23 item 3, sparse wgmma numerics (wgmma.mma_async.sp, kernels/numeric/wgmma_sp.cu), on
# an H100 or H200 node in one call (about 2 minutes):
#   1. golden vector files of the 11 wgmmasp_* variants (format version 2: each sparse line
#      carries E, the metadata the launcher gave the hardware), each written only after its
#      fragment-layout self-test passed (integer-valued instances, every kept set of every
#      chunk in every warp): a wrong A/B tile layout, metadata layout or selector reading
#      writes nothing and prints "FAILED ...", naming any other reading of the metadata
#      figures that passes (sparse_a.hpp MetaLayout);
#   2. the model question, per float file: `vectors check --model compressed:ID` (the dense
#      wgmma row over each row's K/2 kept products, as mma.sp is the dense mma.sync row on
#      them) against `--model dense:ID` (the row over all K products, zeros in place); then
#      `vectors check` (the default, compressed) and `vectors infer` (sparse_products = the
#      hypothesis that fits, and every block-FMA parameter) of every file;
#   3. the new probes run with a run record, judged by the hypothesised entries of
#      tools/device/wgmma_sp_hypothesis_overlay.toml (`--overlay`): numeric.wgmma_sp.* (bit-exact, 11)
#      and numeric.feature.wgmma_sp.* (72), beside the dense wgmma and mma.sp probes whose
#      kernel code this change touched (mma_kernel.cuh); then a dry run of
#      tools/device/wgmma_sp_merge.py (the entries it would write into sm_90.toml, citing the
#      record's lines) and `lint` of the result, on this node's copy only;
#   4. the GMMA opcodes of the sparse kernels (when cuobjdump is on the node).
# (`probe numerics --variant 'wgmmasp_*'` would fit the same paths again on other instances:
# about a minute of the budget, and the feature probes of step 3 already report every fit.)
# If expectations/golden/sm_90/ travelled, the committed mma.sp files (format version 2 since
# this change) are re-checked too, and README.md comes back regenerated over the whole
# directory.
# Results: $OUT/wgmma_sp_golden.tgz (golden/: the new files, and README.md when the directory
# travelled, to unpack into expectations/golden/sm_90/; reports/: check, infer, hypotheses,
# the run record, JUnit, SASS) and $OUT/wgmma_sp_log.txt.
# Usage: tools/device/wgmma_sp_golden_batch.sh BUILD_DIR   (BUILD_DIR holds bin/gpuconform)
. "$(dirname "$0")/prelude.sh" "${1:-}" wgmma_sp_log.txt
G="$(cd "$B" && pwd)/bin/gpuconform"
WORK=/tmp/gpuconform-wgmma-sp
GOLDEN=expectations/golden/sm_90
OVERLAY=tools/device/wgmma_sp_hypothesis_overlay.toml
rm -rf "$WORK" && mkdir -p "$WORK/golden" "$WORK/reports" "$WORK/new"
R=$WORK/reports
t0=$(date +%s.%N)

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,compute_cap,clocks.sm,temperature.gpu --format=csv
"$G" --version 2>&1 | head -2
"$G" vectors list | grep '^wgmmasp_' | tee "$R/variants.txt"
[ "$ARCH" = sm_90 ] || echo "WARNING: $ARCH: the entries and the golden directory are sm_90's"

echo "== 1. golden files of the sparse wgmma variants"
# Two distinct rows of A and C per instance (as every golden batch): 500 random instances of
# each m64n8 float variant (the mma.sp floor, golden_vectors_test.cpp), 600 of s8, 100 of
# m64n64 (8x the outputs an instance), plus the literature's probes. `vectors generate
# --simulate sm_90` puts them at 0.2-0.45 MB each; anything over 600 KB is flagged.
specs=()
for v in $(grep -o '^wgmmasp_[a-z0-9_]*' "$R/variants.txt"); do
  case "$v" in *_s32_s8_*) n=600 ;; wgmmasp_m64n64*) n=100 ;; *) n=500 ;; esac
  specs+=("$v:$n")
done
s=$(date +%s.%N)
generate_golden "$WORK/new" "${specs[@]}"
echo "generate took $(elapsed "$s") s"
ls -l "$WORK/new"
for f in "$WORK/new"/*.txt.xz; do
  [ "$(stat -c %s "$f")" -gt 614400 ] && echo "TOO BIG to commit (> 600 KB): $f"
done
echo "files: $(ls "$WORK/new"/*.txt.xz 2> /dev/null | wc -l) of $(wc -l < "$R/variants.txt")"

echo "== 2a. the model question: compressed against dense, per float file"
# One line per file and hypothesis: "variant: M/N outputs match  model ID".
for f in "$WORK/new"/*.txt.xz; do
  v=$(basename "$f" .txt.xz)
  types=$(echo "$v" | cut -d_ -f3,4 | tr _ .)
  case "$types" in s32.*) continue ;; esac
  for h in compressed dense; do
    "$G" vectors check --model "$h:sm_90.wgmma.$types" "$f" > "$R/hypothesis-$h-$v.txt" 2>&1
    echo "$(head -n 1 "$R/hypothesis-$h-$v.txt")  [$h:sm_90.wgmma.$types]"
  done
done | tee "$R/hypotheses.txt"

echo "== 2b. vectors check (default model) and infer"
s=$(date +%s.%N)
"$G" vectors check "$WORK/new"/*.txt.xz > "$R/check.txt" 2>&1
echo "check exit: $? ($(elapsed "$s") s)"
cat "$R/check.txt"
s=$(date +%s.%N)
# One process per file, eight at a time: the FP8 fits take the longest.
ls "$WORK/new"/*.txt.xz | xargs -P 8 -I{} sh -c '"$1" vectors infer "$2" > "$2.infer" 2>&1; echo "exit $?" >> "$2.infer"' _ "$G" {}
cat "$WORK/new"/*.infer > "$R/infer.txt"
rm -f "$WORK/new"/*.infer
echo "infer ($(elapsed "$s") s):"
cat "$R/infer.txt"

echo "== 2c. the committed mma.sp files (format version 2 since issue 23), if they travelled"
if ls "$GOLDEN"/mmasp_*.txt.xz > /dev/null 2>&1; then
  "$G" vectors check "$GOLDEN"/mmasp_*.txt.xz > "$R/check-mmasp.txt" 2>&1
  echo "check of the committed mma.sp files exit: $?"
  grep -E 'outputs match|not checked|version-1' "$R/check-mmasp.txt" | cut -c1-300
else
  echo "no $GOLDEN/mmasp_*.txt.xz in this checkout (golden/ moved out for the call)"
fi

echo "== 3. the probes, judged by the hypothesis of $OVERLAY"
cp "$WORK/new"/*.txt.xz "$WORK/golden/"
# README.md lists every file of the directory: only worth bringing back when the whole
# directory travelled (else the lead runs `vectors readme` after unpacking).
if ls "$GOLDEN"/mmasp_*.txt.xz > /dev/null 2>&1; then
  cp "$WORK/new"/*.txt.xz "$GOLDEN/"
  "$G" vectors readme "$GOLDEN" && cp "$GOLDEN/README.md" "$WORK/golden/"
fi
"$G" lint "$OVERLAY" 2>&1 | tail -2
name=$(evidence_name wgmma-sp)
s=$(date +%s.%N)
timeout 150 "$G" run --filter 'numeric.wgmma_sp.*' --filter 'numeric.feature.wgmma_sp.*' \
  --filter 'numeric.mmasp.*' --filter 'numeric.feature.mma_sp.*' \
  --filter 'numeric.wgmma.m64n8k16.f32.f16' --filter 'numeric.wgmma.m64n8k32.f32.e4m3' \
  --filter 'numeric.wgmma.m64n256k16.f32.f16' --filter 'numeric.wgmma.m64n8k16.f32.f16.areg' \
  --overlay "$OVERLAY" --record "$R/$name.jsonl" --junit "$R/$name.xml" > "$R/run.txt" 2>&1
rc=$?
echo "run exit $rc wall $(elapsed "$s") s (record reports/$name.jsonl)"
grep -E "GPU [0-9]+ (fail|warn|skip) |passed" "$R/run.txt" | cut -c1-400
grep -A40 '^verdicts per probe group' "$R/run.txt" | head -20
# One line per probe: its run-record line (what an entry's run: source cites), verdict, value,
# model, and for one that did not pass its reason and first mismatch.
python3 - "$R/$name.jsonl" <<'PY' | tee "$R/probes.txt"
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record {sys.argv[1]}: the run above says why")
for n, line in enumerate(open(sys.argv[1]), 1):
    j = json.loads(line)
    if j.get("record", "test") != "test" or "probe" not in j:
        continue
    m = j.get("measured", {}) or {}
    notes = m.get("notes", {}) or {}
    print(f'line {n:4d} {j["verdict"]:5s} {j["probe"]:56s} {m.get("value", "")} {notes.get("model", "")}')
    if j["verdict"] not in ("pass", "recorded"):
        print("    " + (j.get("reason", "") or "")[:300])
        for key in ("mismatches_by_class", "first_mismatch", "inferred", "unmatched"):
            if key in notes:
                print(f"    {key}: {notes[key]}"[:400])
PY

echo "== 3b. the entries a merge would write into sm_90.toml (a dry run on this node's copy)"
cp "$R/$name.jsonl" expectations/evidence/ 2> /dev/null
cp expectations/sm_90.toml "$WORK/sm_90.toml.before"
python3 tools/device/wgmma_sp_merge.py "$OVERLAY" "expectations/evidence/$name.jsonl" expectations/sm_90.toml
"$G" lint expectations/sm_90.toml 2>&1 | tail -2
cp "$WORK/sm_90.toml.before" expectations/sm_90.toml
rm -f "expectations/evidence/$name.jsonl"

echo "== 4. SASS of the sparse wgmma kernels"
if command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$G" 2> /dev/null | awk '
    /arch = /{arch=$3}
    /Function : /{f=""; if (match($0, /wgmmasp_m64n[0-9]+k[0-9]+_[a-z0-9]+_[a-z0-9]+(_areg)?_sel[0-9]/)) f=substr($0, RSTART, RLENGTH); next}
    f!="" && match($0, /(HGMMA|IGMMA|QGMMA|WARPGROUP)[.A-Za-z0-9_x]*/) {print arch, f, substr($0, RSTART, RLENGTH)}' |
    sort | uniq -c > "$R/sass_wgmma_sp.txt"
  cat "$R/sass_wgmma_sp.txt"
else
  echo "no cuobjdump on this node"
fi

echo "== pack"
tar -C "$WORK" -czf "$OUT/wgmma_sp_golden.tgz" golden reports
ls -l "$OUT"
echo "total $(elapsed "$t0") s"
