#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Exports the few source files of the public microbenchmarks that peers_batch.sh builds on a
# GPU node ("peers beside the suite", issue 18 item 5) into .carry/peers/, which is
# git-ignored and travels to the node. Runs on the CPU machine; nothing of the peers enters
# the project's tracked tree.
#
# The sources come from bare git mirrors of the published repositories. In this workplace the
# `fetch` tool makes them (it prints the git directory):
#   fetch github:te42kyfo/gpu-benches             -> /work/.mirror/te42kyfo+gpu-benches/repo
#   fetch github:HPMLL/NVIDIA-Hopper-Benchmark    -> /work/.mirror/HPMLL+NVIDIA-Hopper-Benchmark/repo
# Elsewhere a `git clone --bare URL DIR` of each is the same thing.
#
# Usage: tools/device/fetch_peers.sh [GPU_BENCHES_GIT [HOPPER_BENCH_GIT]]
#   (or GPU_BENCHES_GIT=... HOPPER_BENCH_GIT=... in the environment; the defaults are the
#   paths above). COMMIT_GPU_BENCHES / COMMIT_HOPPER_BENCH pick a commit (default HEAD).
# Idempotent: each run replaces .carry/peers/ entirely and rewrites .carry/peers/SOURCES.txt
# (one line per repository: name, commit, exported paths), which peers_batch.sh copies into
# its summary.
set -euo pipefail
cd "$(dirname "$0")/../.."
GPU_BENCHES_GIT=${1:-${GPU_BENCHES_GIT:-/work/.mirror/te42kyfo+gpu-benches/repo}}
HOPPER_BENCH_GIT=${2:-${HOPPER_BENCH_GIT:-/work/.mirror/HPMLL+NVIDIA-Hopper-Benchmark/repo}}
DEST=.carry/peers

# Only what the four builds include (no plots, data tables, images or other benchmarks).
GPU_BENCHES_PATHS=(LICENSE MeasurementSeries.hpp dtime.hpp gpu-error.h
  gpu-stream/Makefile gpu-stream/main.cu
  gpu-l2-cache/Makefile gpu-l2-cache/main.cu
  gpu-metrics/gpu-metrics.hpp gpu-metrics/cuda_metrics)
HOPPER_BENCH_PATHS=(LICENSE
  RegularUnits/shared_bw/Makefile RegularUnits/shared_bw/shared_bw.cu
  RegularUnits/shared_bw_64/Makefile RegularUnits/shared_bw_64/shared_bw_64.cu
  RegularUnits/shared_bw_128/Makefile RegularUnits/shared_bw_128/shared_bw.cu
  TensorCores/include/util.h
  TensorCores/mma/m16n8k16/cc.sh TensorCores/mma/m16n8k16/run_m16n8k16_all_SM.cu)

rm -rf "$DEST"
mkdir -p "$DEST"
{
  echo "# Public sources exported by tools/device/fetch_peers.sh on $(date -u +%FT%TZ)"
  echo "# repository commit path..."
} > "$DEST/SOURCES.txt"

# export NAME GIT_DIR COMMIT PATH...: the paths at COMMIT into $DEST/NAME/ and one SOURCES line.
export_repo() {
  local name=$1 git=$2 rev=$3 commit
  shift 3
  [ -d "$git" ] || { echo "no git directory $git (fetch github:$name first)" >&2; exit 2; }
  commit=$(git --git-dir="$git" rev-parse --verify "$rev^{commit}")
  mkdir -p "$DEST/${name#*/}"
  git --git-dir="$git" archive "$commit" -- "$@" | tar -x -C "$DEST/${name#*/}"
  echo "$name $commit $*" >> "$DEST/SOURCES.txt"
  echo "$name @ $commit: $(find "$DEST/${name#*/}" -type f | wc -l) files"
}
export_repo te42kyfo/gpu-benches "$GPU_BENCHES_GIT" "${COMMIT_GPU_BENCHES:-HEAD}" "${GPU_BENCHES_PATHS[@]}"
export_repo HPMLL/NVIDIA-Hopper-Benchmark "$HOPPER_BENCH_GIT" "${COMMIT_HOPPER_BENCH:-HEAD}" "${HOPPER_BENCH_PATHS[@]}"
du -sh "$DEST"
