#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copies a build tree without object files (binaries, ctest files, discovery
# lists) into .carry/<dir>, to be carried to a GPU node at the same path.
# The unit-test binary stays behind (unit tests run on the CPU machine); with
# `cli` as second argument the GPU test binary does too, for batches that only
# call the CLI: each binary is about 27 MB and the transfer is capped at 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: stage_build.sh BUILD_DIR [cli]}
excludes=(--exclude='*.o' --exclude='*.a' --exclude='.ninja_*' --exclude='CMakeFiles/*.dir'
          --exclude='gpuconform_unit_tests' --exclude='gpuconform_registry_tests' --exclude='fuzz' --exclude='Testing' --exclude='CompilerIdCUDA'
          --exclude='compare_fleet' --exclude='probe_numerics' --exclude='package_check')
[ "${2:-}" = cli ] && excludes+=(--exclude='gpuconform_gpu_tests')
rm -rf ".carry/$dir"
mkdir -p .carry
tar -C . "${excludes[@]}" -cf - "$dir" | tar -C .carry -xf -
# STRIP=1: without symbol tables (about 2.3 MB a binary less; the kernels' fatbin stays, so
# cuobjdump still reads the SASS), for calls that carry both binaries beside a large tree.
if [ "${STRIP:-0}" = 1 ]; then
  find ".carry/$dir" -type f -perm -u+x -exec sh -c 'file "$1" | grep -q ELF && strip "$1"' _ {} \;
fi
du -sh ".carry/$dir"
