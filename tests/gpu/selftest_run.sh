#!/usr/bin/env bash
# The runner's isolation checked on a real GPU with the self-test probes
# (kernels/selftest): a hang and an illegal address must fail with their
# reasons, and every other probe must still get its normal verdict.
#
#   selftest_run.sh faults|continues GPUCONFORM WORK_DIR
#   selftest_run.sh gtest_watchdog GPU_TEST_BINARY WORK_DIR
#
# Only gtest_watchdog runs the GPU test binary, which takes its GPU from ctest's resource
# allocation: its ctest test declares RESOURCE_GROUPS gpus:1 (tests/CMakeLists.txt).
# Exit 0 checked, 1 a check failed, 77 skipped (no GPU here).
set -u
mode=$1 binary=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
record=$dir/run.jsonl out=$dir/output.txt
export GPUCONFORM_SELFTEST=1
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }
line_of() { grep -F "\"probe\":\"$1\"" "$record" | tail -n 1; }
# The probe's record line holds the verdict and a reason matching the regex.
expect() {
  local probe=$1 verdict=$2 reason=$3 line
  line=$(line_of "$probe")
  [ -n "$line" ] || { fail "$probe has no verdict in $record"; return; }
  grep -q "\"verdict\":\"$verdict\"" <<<"$line" || fail "$probe: expected verdict $verdict: $line"
  grep -Eq "\"reason\":\"([^\"\\\\]|\\\\.)*($reason)" <<<"$line" || fail "$probe: reason does not match '$reason': $line"
}
# A real probe's verdict is its own: pass/warn/skip, never a runner-made failure.
expect_normal() {
  local line
  line=$(line_of "$1")
  [ -n "$line" ] || { fail "$1 has no verdict in $record"; return; }
  grep -Eq '"verdict":"(pass|warn|skip)"' <<<"$line" || fail "$1 did not get its normal verdict: $line"
}
skip_without_gpu() {
  if grep -Eq "no usable CUDA device|no CUDA device found" "$out"; then
    echo "skipped: no GPU here ($(grep -Eo '(no usable CUDA device|no CUDA device found)[^;]*' "$out" | head -n 1))"
    exit 77
  fi
}

case $mode in
  faults | continues)
    filters=(--filter 'selftest.*')
    [ "$mode" = continues ] && filters+=(--filter latency.alu.fma.rn.f32 --filter throughput.hbm.read)
    start=$(date +%s)
    "$binary" run "${filters[@]}" --probe-timeout 5 --record "$record" --junit "$dir/junit.xml" >"$out" 2>&1
    code=$?
    cat "$out"
    skip_without_gpu
    took=$(($(date +%s) - start))
    [ "$code" = 1 ] || fail "exit code $code, expected 1 (self-test probes fail)"
    grep -q "^run record:" "$out" || fail "the run did not finish (no 'run record:' line)"
    grep -q '"when":"after"' "$record" || fail "no gpu_state 'after' line: the run did not reach its end"
    [ "$took" -lt 240 ] || fail "the run took $took s with a 5 s probe limit"
    expect selftest.hang fail "timed out after 5 s"
    expect selftest.illegal_address fail "cudaErrorIllegalAddress|cudaErrorLaunchFailure"
    expect selftest.wrong_answer fail "524801"
    if [ "$mode" = continues ]; then
      expect_normal latency.alu.fma.rn.f32
      expect_normal throughput.hbm.read  # sorts after selftest.*: it runs after both faults
    fi
    ;;
  gtest_watchdog)
    # ctest's allocation, if any, for the output of a failure ("id:N,slots:1": GPU N).
    env | grep '^CTEST_RESOURCE_GROUP' | sort
    GPUCONFORM_PROBE_TIMEOUT=5 GPUCONFORM_RECORD=$record timeout 120 "$binary" \
      --gtest_filter='Selftest.hang' >"$out" 2>&1
    code=$?
    cat "$out"
    grep -q "GPU tests need an NVIDIA GPU" "$out" && { echo "skipped: no GPU here"; exit 77; }
    [ "$code" = 1 ] || fail "exit code $code, expected 1 (124 means the watchdog did not fire)"
    grep -q "timed out after 5 s" "$out" || fail "no 'timed out after 5 s' in the output"
    expect selftest.hang fail "timed out after 5 s"
    ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
[ "$failures" = 0 ] && echo "self-test $mode: every check passed"
[ "$failures" = 0 ]
