# Sourced by the batch scripts: the steps every GPU-node batch starts with.
# Usage: . tools/device/prelude.sh BUILD_DIR LOG_NAME   (sets B, OUT; logs to $OUT/LOG_NAME)
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
