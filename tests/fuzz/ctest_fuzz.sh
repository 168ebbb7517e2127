#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ctest's driver for the fuzzers (tests/fuzz/ctest.cmake).
#   build  SRC BIN                  configure + build tests/fuzz with clang into BIN
#   replay SRC BIN TARGET MAX_LEN   run every committed corpus input once
#   fuzz   SRC BIN TARGET MAX_LEN   fuzz 200,000 inputs on a copy of the committed corpus
# Exit 77 (ctest: skipped) when clang or its libFuzzer runtime is missing: a user's machine
# need not have them; CI does (tools/bootstrap.sh installs them).
set -euo pipefail
mode=$1 src=$2 bin=$3

clang=$(command -v clang++ || true)
if [ -z "$clang" ]; then
  echo "skipped: clang++ not found (apt-get install clang libclang-rt-dev)"
  exit 77
fi
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     "$clang" -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "skipped: $clang cannot link libFuzzer (apt-get install libclang-rt-dev)"
  exit 77
fi

if [ "$mode" = build ]; then
  cmake -S "$src" -B "$bin" -G Ninja -DCMAKE_CXX_COMPILER="$clang" >/dev/null
  exec cmake --build "$bin"
fi

target=$4 max_len=$5
exe="$bin/fuzz_$target"
[ -x "$exe" ] || { echo "$exe was not built (see fuzz.build)"; exit 1; }
corpus="$src/corpus/$target"
# libFuzzer exits 77 on a crash by default, which ctest would report as skipped.
report=(-error_exitcode=1 -timeout_exitcode=1)
if [ "$mode" = replay ]; then
  exec "$exe" "${report[@]}" -runs=0 -max_len="$max_len" "$corpus"
fi
# New inputs and any crash artifact go under BIN/run/TARGET, never into the source tree.
work="$bin/run/$target"
rm -rf "$work" && mkdir -p "$work/corpus"
cp -r "$corpus/." "$work/corpus/"
cd "$work"
# A fixed seed and a fixed number of inputs by default: CI replays the same mutations each
# time, so a red CI means a change broke something, not that this run drew a new input or
# got further in its time (a 30 s limit did, on 2026-11-26). 200,000 inputs take 10-25 s
# on a 2-core machine; the 100 s limit only stops a pathological slowdown. Long, random
# runs find new inputs: GPUCONFORM_FUZZ_SEED=0 lets libFuzzer pick a seed, and
# GPUCONFORM_FUZZ_RUNS=-1 runs until the time limit.
exec "$exe" "${report[@]}" -seed="${GPUCONFORM_FUZZ_SEED:-1}" -runs="${GPUCONFORM_FUZZ_RUNS:-200000}" -max_total_time=100 -max_len="$max_len" -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus"
