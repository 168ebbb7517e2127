#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The numeric.feature.* probes on one GPU against the committed expectations:
# keeps the run record, console and JUnit in $OUT/feature.tgz.
# Usage: [FEATURE_LIMIT=150] tools/device/feature_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" feature-log.txt
R=$OUT/feature
mkdir -p "$R"
start=$(date +%s.%N)
timeout "${FEATURE_LIMIT:-150}" "$G" run --filter 'numeric.feature.*' \
  --record "$R/run.jsonl" --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "feature run exit $? wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s"
grep -E "^(fail|warn) " "$R/run.txt" | cut -c1-300 | head -60
tail -5 "$R/run.txt"
tar -C "$OUT" -czf "$OUT/feature.tgz" feature
