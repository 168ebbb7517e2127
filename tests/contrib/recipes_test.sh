#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The operator recipes (contrib/) against a stand-in gpuconform (fake_gpuconform.sh):
# the NHC check and the Slurm prolog/epilog pass a healthy run, and turn a failed one into
# NHC's die / a drained node with the first failure line; they pass the run level and the
# job's GPUs on. Usage: recipes_test.sh SOURCE_DIR WORK_DIR
set -u
src="$1"
work="$2"
rm -rf "$work" && mkdir -p "$work/bin"
fake="$src/tests/contrib/fake_gpuconform.sh"
failures=0
check() {  # check NAME CONDITION-STATUS
  if [[ "$2" -eq 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
export FAKE_LOG="$work/fake.log"
export FAKE_FAIL_LINE="fail latency.alu.fma.rn.f32 (GPU-3ba2d5b8): measured 6 cycles, expected 4"

# --- NHC: a function file sourced by nhc; `die` is NHC's.
nhc_run() {  # nhc_run RC [LEVEL] -> prints DIE lines
  (
    die() { echo "DIE $*"; }
    export GPUCONFORM_BIN="$fake" GPUCONFORM_NHC_DIR="$work/nhc" FAKE_RC="$1"
    # shellcheck source=/dev/null
    source "$src/contrib/nhc/gpuconform.nhc"
    check_gpuconform ${2:+"$2"}
    echo "STATUS $?"
  )
}
out="$(nhc_run 0)"
[[ "$out" == "STATUS 0" ]]; check "nhc: a passing run is healthy" $?
grep -q -- "run --level quick --timeout 25 --out-dir $work/nhc/last --termination-log" "$FAKE_LOG"
check "nhc: quick level with a 25 s deadline by default" $?
out="$(GPUCONFORM_NHC_TIMEOUT=12 nhc_run 0)"
grep -q -- "--timeout 12 " "$FAKE_LOG"; check "nhc: GPUCONFORM_NHC_TIMEOUT sets the deadline" $?
out="$(nhc_run 0 standard)"
grep -q -- "--level standard" "$FAKE_LOG"; check "nhc: the argument is the level" $?
out="$(nhc_run 1)"
[[ "$out" == *"DIE 1 check_gpuconform: GPU conformance failed: $FAKE_FAIL_LINE"* && "$out" == *"STATUS 1"* ]]
check "nhc: a failed run dies with the failure line" $?
out="$(nhc_run 77)"
[[ "$out" == *"judged nothing"* ]]; check "nhc: nothing judged is unhealthy" $?
busy_line="error gpu_busy (busy): GPU in use by others: GPU 0 (GPU-fake): 1 other compute process(es): pid 4242 (python); nothing was run; next step: rerun when the GPU is idle"
out="$(FAKE_FAIL_LINE="$busy_line" nhc_run 3 2>"$work/nhc.err")"
[[ "$out" == "STATUS 0" ]]; check "nhc: a busy GPU (exit 3) is skipped, never marked down" $?
grep -q "skipped, a GPU is in use: $busy_line" "$work/nhc/skipped.txt" "$work/nhc.err"
check "nhc: the skip says why (skipped.txt, stderr)" $?
out="$(nhc_run 0)"
[[ ! -e "$work/nhc/skipped.txt" ]]; check "nhc: a later passing run clears the skip note" $?
out="$(nhc_run 2)"
[[ "$out" == *"DIE 1 check_gpuconform: gpuconform could not run"* ]]; check "nhc: could-not-run (exit 2) still dies" $?
out="$( (die() { echo "DIE $*"; }; GPUCONFORM_BIN=/nonexistent; source "$src/contrib/nhc/gpuconform.nhc"; check_gpuconform) )"
[[ "$out" == *"gpuconform not found at /nonexistent"* ]]; check "nhc: a missing binary is named" $?

# --- Slurm: scontrol is a stub that records the drain.
cat >"$work/bin/scontrol" <<STUB
#!/usr/bin/env bash
printf '%s\n' "\$*" >"$work/scontrol.log"
STUB
chmod +x "$work/bin/scontrol"
slurm_run() {  # slurm_run SCRIPT RC
  rm -f "$work/scontrol.log"
  PATH="$work/bin:$PATH" GPUCONFORM_BIN="$fake" GPUCONFORM_SLURM_DIR="$work/slurm" FAKE_RC="$2" \
    SLURM_JOB_ID=42 SLURM_JOB_GPUS=1,3 SLURMD_NODENAME=node17 bash "$src/contrib/slurm/$1" 2>/dev/null
}
slurm_run prolog.sh 0; check "slurm prolog: a passing run exits 0" $?
[[ ! -e "$work/scontrol.log" ]]; check "slurm prolog: a passing run drains nothing" $?
grep -q "CUDA_VISIBLE_DEVICES=1,3" "$FAKE_LOG"; check "slurm prolog: tests only the job's GPUs" $?
grep -q -- "--out-dir $work/slurm/prolog-42 " "$FAKE_LOG"; check "slurm prolog: one directory per job" $?
grep -q "CUDA_DEVICE_ORDER=PCI_BUS_ID" "$FAKE_LOG"; check "slurm prolog: CUDA numbers the GPUs as Slurm does (PCI bus order)" $?
# Rotation: 5 older prolog runs, keep 3 -> the 2 oldest go, with their .txt and .log; the
# epilog's directories are not the prolog's to count.
for i in 1 2 3 4 5; do
  mkdir -p "$work/slurm/prolog-$i" && touch "$work/slurm/prolog-$i.txt" "$work/slurm/prolog-$i.log"
  touch -d "2026-01-0$i 00:00" "$work/slurm/prolog-$i"
done
mkdir -p "$work/slurm/epilog-1" && touch -d "2025-01-01 00:00" "$work/slurm/epilog-1"
GPUCONFORM_SLURM_KEEP=3 slurm_run prolog.sh 0
kept="$(cd "$work/slurm" && find . -mindepth 1 -maxdepth 1 -name 'prolog-*' | sort | tr '\n' ' ')"
[[ "$kept" == "./prolog-4 ./prolog-4.log ./prolog-4.txt ./prolog-42 ./prolog-42.log ./prolog-42.txt ./prolog-5 ./prolog-5.log ./prolog-5.txt " ]]
check "slurm: only the newest GPUCONFORM_SLURM_KEEP runs are kept ($kept)" $?
[[ -d "$work/slurm/epilog-1" ]]; check "slurm: the prolog's rotation leaves epilog runs alone" $?
GPUCONFORM_TIMEOUT=40 slurm_run prolog.sh 0
grep -q -- "--timeout 40" "$FAKE_LOG"; check "slurm: GPUCONFORM_TIMEOUT bounds the run" $?
slurm_run prolog.sh 1
[[ $? -ne 0 ]]; check "slurm prolog: a failed run fails the prolog" $?
grep -q "nodename=node17 state=drain reason=gpuconform prolog: $FAKE_FAIL_LINE" "$work/scontrol.log"
check "slurm prolog: a failed run drains the node with the failure line" $?
FAKE_FAIL_LINE="$busy_line" slurm_run prolog.sh 3; check "slurm prolog: a busy GPU (exit 3) lets the job start" $?
[[ ! -e "$work/scontrol.log" ]]; check "slurm prolog: a busy GPU drains nothing" $?
FAKE_FAIL_LINE="$busy_line" slurm_run epilog.sh 3; check "slurm epilog: a busy GPU (exit 3) passes" $?
[[ ! -e "$work/scontrol.log" ]]; check "slurm epilog: a busy GPU drains nothing" $?
slurm_run epilog.sh 2
[[ $? -ne 0 ]] && grep -q "reason=gpuconform epilog: " "$work/scontrol.log"; check "slurm epilog: could-not-run drains" $?

echo "$failures failed"
[[ $failures -eq 0 ]]
