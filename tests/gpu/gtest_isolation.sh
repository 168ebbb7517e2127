#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GPU test binary's isolation (tests/gpu/conformance_main.cpp): its probes run in the
# runner's worker processes, so in one process (one ctest group) a hung probe fails alone
# with "timed out after N s", a CUDA fault fails only its own probe, and every later test of
# the process still runs and gets its own verdict.
#
#   gtest_isolation.sh GPU_TEST_BINARY WORK_DIR                  on this machine's GPU
#   gtest_isolation.sh GPU_TEST_BINARY WORK_DIR PYTHON FAKE_PY   on the CPU: the workers are
#       tests/gpu/fake_gpu_worker.py, which answers the self-test probes as a GPU does; this
#       form also checks the workers started and the GPUs pair and node probes are given
#
# The GPU form takes its GPU from ctest's resource allocation: its ctest test declares
# RESOURCE_GROUPS gpus:1 (tests/CMakeLists.txt). Exit 0 checked, 1 a check failed, 77
# skipped (no GPU here).
set -u
export LC_ALL=C
binary=$1 dir=$2 python=${3-} fake=${4-}
rm -rf "$dir" && mkdir -p "$dir"
# shellcheck source-path=SCRIPTDIR source=record_checks.sh
. "$(dirname "$0")/record_checks.sh"
if [ -n "$fake" ]; then
  # The binary starts its workers as one program without arguments of its own.
  export GPUCONFORM_GPU_TESTS_FAKE_WORKER=$dir/worker GPUCONFORM_FAKE_WORKER_LOG=$dir/workers.log
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$python" "$fake" >"$GPUCONFORM_GPU_TESTS_FAKE_WORKER"
  chmod +x "$GPUCONFORM_GPU_TESTS_FAKE_WORKER"
  # ctest's allocation names real GPUs, not the fake ones (GPUCONFORM_GPU_TESTS_FAKE_GPUS).
  for v in $(env | grep -o '^CTEST_RESOURCE_GROUP[A-Z_0-9]*'); do unset "$v"; done
fi
unset GPUCONFORM_DEVICE GPUCONFORM_PROBE_TIMEOUT GPUCONFORM_QUICK GPUCONFORM_OVERLAY

# A hang, a lost context and a wrong answer, then a real probe, in one process.
record=$dir/run.jsonl out=$dir/output.txt
env | grep '^CTEST_RESOURCE_GROUP' | sort  # ctest's allocation, if any ("id:N,slots:1": GPU N)
start=$(date +%s)
GPUCONFORM_SELFTEST=1 GPUCONFORM_PROBE_TIMEOUT=5 GPUCONFORM_RECORD=$record timeout 120 "$binary" \
  --gtest_filter='Selftest.*:Throughput.hbm_read' >"$out" 2>&1
code=$?
took=$(($(date +%s) - start))
cat "$out"
grep -q "GPU tests need an NVIDIA GPU" "$out" && { echo "skipped: no GPU here"; exit 77; }
[ "$code" = 1 ] || fail "exit code $code, expected 1 (124: the process hung past 120 s)"
[ "$took" -lt 100 ] || fail "the process took $took s with a 5 s probe limit"
grep -q "4 tests from 2 test suites ran" "$out" || fail "not every selected test ran after the hang"
grep -Eq '^\[  FAILED  \] Selftest\.hang, ' "$out" || fail "Selftest.hang did not fail in gtest's output"
grep -Eq '^\[  FAILED  \] Selftest\.illegal_address, ' "$out" || fail "Selftest.illegal_address did not fail"
grep -Eq '^\[ +(OK|SKIPPED) +\] Throughput\.hbm_read \(' "$out" ||
  fail "Throughput.hbm_read, after the hang and the fault, did not get its normal verdict"
grep -q "timed out after 5 s" "$out" || fail "no 'timed out after 5 s' in the output"
expect selftest.hang fail "timed out after 5 s; the worker process was killed"
grep -q "GPUCONFORM_PROBE_TIMEOUT" <<<"$(line_of selftest.hang)" || fail "the time-out does not name GPUCONFORM_PROBE_TIMEOUT"
expect selftest.illegal_address fail "cudaErrorIllegalAddress|cudaErrorLaunchFailure"
expect selftest.wrong_answer fail "524801"
expect_normal throughput.hbm.read

if [ -n "$fake" ]; then
  # A describe worker, the first worker (killed in the hang), a fresh one after it (ended by
  # the lost context), and one more for the rest.
  cat "$dir/workers.log"
  expected_workers="describe 0
probes 0: selftest.hang selftest.illegal_address selftest.wrong_answer throughput.hbm.read
probes 0: selftest.illegal_address selftest.wrong_answer throughput.hbm.read
probes 0: selftest.wrong_answer throughput.hbm.read"
  [ "$(cat "$dir/workers.log")" = "$expected_workers" ] || fail "the workers are not the expected four (above)"

  # Pair and node probes on three GPUs: each is given its peers (a pair probe the next GPU,
  # a node probe all others), in batches of consecutive probes with the same peers.
  rm -f "$dir/workers.log"
  record=$dir/p2p.jsonl out=$dir/p2p.txt
  GPUCONFORM_GPU_TESTS_FAKE_GPUS=3 GPUCONFORM_RECORD=$record timeout 120 "$binary" --gtest_filter='P2p.*' \
    --gtest_output="xml:$dir/p2p.xml" >"$out" 2>&1
  code=$?
  cat "$out" "$dir/workers.log"
  [ "$code" = 0 ] || fail "p2p: exit code $code, expected 0"
  expect p2p.atomics.system_scope pass "peers: 1\""
  expect p2p.bandwidth.all_pairs_concurrent pass "peers: 1,2\""
  expect p2p.latency.read pass "peers: 1\""
  grep -q 'name="peers" value="GPU-fake-1,GPU-fake-2"' "$dir/p2p.xml" || fail "p2p: no peers property of the node probe"
  [ "$(grep -c '^describe' "$dir/workers.log")" = 3 ] || fail "p2p: expected a describe worker per GPU"
  [ "$(grep -c '^probes 0: p2p.bandwidth.all_pairs_concurrent$' "$dir/workers.log")" = 1 ] ||
    fail "p2p: the node probe did not run in a worker of its own"

  # An unopenable GPU choice fails every test with the message; the group's exit code is 1.
  record=$dir/bad.jsonl out=$dir/bad.txt
  GPUCONFORM_DEVICE=5 timeout 60 "$binary" --gtest_filter='Latency.alu_fma_rn_f32:Throughput.hbm_read' >"$out" 2>&1
  code=$?
  cat "$out"
  [ "$code" = 1 ] || fail "GPUCONFORM_DEVICE=5 of 1 GPU: exit code $code, expected 1"
  grep -q "GPUCONFORM_DEVICE gives GPU 5 but this machine has 1 GPU(s)" "$out" || fail "no message for GPU 5"
fi
[ "$failures" = 0 ] && echo "gtest isolation: every check passed"
[ "$failures" = 0 ]
