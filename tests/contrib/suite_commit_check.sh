#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# suite_commit_check.sh SOURCE_DIR WORK_DIR: the commit a build outside a git checkout (a
# container build, whose .dockerignore leaves .git out) bakes in comes from
# GPUCONFORM_SUITE_COMMIT, as contrib/docker/Dockerfile passes its GPUCONFORM_COMMIT build
# argument; without it the commit is "unknown".
set -euo pipefail
src="$1" work="$2"
rm -rf "$work" && mkdir -p "$work/tree"
script="$src/cmake/GpuconformSuiteCommit.cmake"
GPUCONFORM_SUITE_COMMIT=0123456789ab GIT_CEILING_DIRECTORIES="$work" \
  cmake -DSOURCE_DIR="$work/tree" -DOUTPUT="$work/with.cpp" -P "$script"
grep -q 'return "0123456789ab";' "$work/with.cpp" || { echo "the build argument's commit is not baked in"; cat "$work/with.cpp"; exit 1; }
env -u GPUCONFORM_SUITE_COMMIT GIT_CEILING_DIRECTORIES="$work" \
  cmake -DSOURCE_DIR="$work/tree" -DOUTPUT="$work/without.cpp" -P "$script"
grep -q 'return "unknown";' "$work/without.cpp" || { echo "without it the commit must be unknown"; cat "$work/without.cpp"; exit 1; }
echo ok
