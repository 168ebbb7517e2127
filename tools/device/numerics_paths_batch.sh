#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 11's remaining paths on one GPU node, in one call (well under 540 s):
#   1. golden vector files of the wide-N float wgmma variants (f32.f16 at N = 16, 64, 256;
#      bf16, f16.f16, tf32, e4m3, e5m2 at N = 256; A from registers at N = 256), each written
#      only after its fragment-layout self-test passed, then `vectors check` and `vectors infer`
#      on them; plus any extra variant globs given in $EXTRA_VARIANTS as "GLOB:COUNT ..."
#      (the sparse and sub-byte helpers' batches name theirs);
#   2. evidence: `record` of numeric.profile.* (3 runs) and of numeric.feature.* (1 run: exact
#      entries), named as expectations/evidence/ wants them;
#   3. the numeric family of a standard run with those entries as overlays, timed (target
#      <= 60 s of probe time), and its per-probe seconds.
# What comes back: $OUT/paths_log.txt and $OUT/paths.tgz (golden/, evidence/, reports/).
# Usage: tools/device/numerics_paths_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" paths_log.txt
W=$OUT/paths
rm -rf "$W" && mkdir -p "$W/golden" "$W/evidence" "$W/reports"
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu \
  --format=csv | tee "$W/reports/nvidia-smi.csv"

echo "== 1. golden files"
# Counts from `vectors generate --simulate sm_90 --distinct-rows 2`: 0.19-0.32 MB a file.
WIDE="wgmma_m64n16k16_f32_f16:250 wgmma_m64n64k16_f32_f16:63 wgmma_m64n256k16_f32_f16:25
      wgmma_m64n256k16_f32_bf16:25 wgmma_m64n256k16_f16_f16:25 wgmma_m64n256k8_f32_tf32:30
      wgmma_m64n256k32_f32_e4m3:25 wgmma_m64n256k32_f32_e5m2:25 wgmma_m64n256k16_f32_f16_areg:25
      wgmma_m64n256k32_f32_e4m3_areg:25"
start=$(date +%s.%N)
generate_golden "$W/golden" $WIDE ${EXTRA_VARIANTS:-}
echo "generate took $(elapsed "$start") s"
check_golden "$W/golden" "$W/reports" 409600

echo "== 2. evidence"
for spec in "profile:numeric.profile.*:3" "features:numeric.feature.*:1"; do
  tag=${spec%%:*}; rest=${spec#*:}; glob=${rest%:*}; runs=${rest##*:}
  name=$(evidence_name "$tag")
  start=$(date +%s.%N)
  timeout 200 "$G" record --probe "$glob" --runs "$runs" --out "$W/evidence/scratch-$tag.toml" \
    --evidence "$W/evidence/$name.jsonl" > "$W/reports/record-$tag.txt" 2>&1
  echo "record $tag exit $? wall $(elapsed "$start") s: $name.jsonl"
  grep -cE "^  recorded" "$W/reports/record-$tag.txt" | sed 's/^/recorded: /'
  grep -E "FAILED|skipped" "$W/reports/record-$tag.txt" | cut -c1-220 | head -20
done

echo "== 3. the numeric family of a standard run, with the new entries as overlays"
start=$(date +%s.%N)
timeout 240 "$G" run --filter 'numeric.*' --overlay "$W/evidence/scratch-profile.toml" \
  --overlay "$W/evidence/scratch-features.toml" --record "$W/reports/numeric-run.jsonl" \
  --junit "$W/reports/numeric-run.xml" > "$W/reports/numeric-run.txt" 2>&1
echo "numeric family exit $? wall $(elapsed "$start") s"
tail -4 "$W/reports/numeric-run.txt"
python3 tools/device/family_seconds.py "$W/reports/numeric-run.jsonl"
tar -C "$OUT" -czf "$OUT/paths.tgz" paths
