# SPDX-License-Identifier: Apache-2.0
# Sourced by the GPU self-test scripts (selftest_run.sh, gtest_isolation.sh): checks of the
# verdict lines a run record holds. The sourcing script sets `record` (the record's path)
# before calling them, and ends with `[ "$failures" = 0 ]`.
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
