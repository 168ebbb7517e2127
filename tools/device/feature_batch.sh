#!/usr/bin/env bash
# The numeric.feature.* probes on one GPU, first time: runs them against the
# pending entries (expectations/pending/sm_90-numeric-features.toml) as an
# overlay and keeps the run record, console and JUnit in $OUT/feature.tgz.
# The pending file cites golden vector files that do not travel to the node
# (the transfer cap), so the overlay used here is a copy whose sources say so;
# the committed entries keep their golden: sources.
# Usage: [FEATURE_LIMIT=150] tools/device/feature_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" feature-log.txt
R=$OUT/feature
mkdir -p "$R"
sed -E 's#^source = "golden:[^"]*"#source = "cite:pending golden file (not carried to the GPU node)"#' \
  expectations/pending/sm_90-numeric-features.toml > "$R/pending-overlay.toml"
"$G" lint "$R/pending-overlay.toml" || true
start=$(date +%s.%N)
timeout "${FEATURE_LIMIT:-150}" "$G" run --filter 'numeric.feature.*' --overlay "$R/pending-overlay.toml" \
  --record "$R/run.jsonl" --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "feature run exit $? wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s"
grep -cE "^pass " "$R/run.txt" | sed 's/^/passed: /'
grep -E "^(fail|warn|skip) " "$R/run.txt" | cut -c1-300 | head -60
tail -5 "$R/run.txt"
tar -C "$OUT" -czf "$OUT/feature.tgz" feature
