#!/usr/bin/env bash
# Copies a build tree without object files (binaries, ctest files, discovery
# lists) into .carry/<dir>, to be carried to a GPU node at the same path.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: stage_build.sh BUILD_DIR}
rm -rf ".carry/$dir"
mkdir -p .carry
tar -C . --exclude='*.o' --exclude='*.a' --exclude='.ninja_*' --exclude='CMakeFiles/*.dir' -cf - "$dir" | tar -C .carry -xf -
du -sh ".carry/$dir"
