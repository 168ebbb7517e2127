#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Self-test fault injection (issue 19, item 8; docs/selftest.md) on one GPU node, in one call:
#   a. `ldd` of the CLI: no libcuda.so (the driver API comes through cudaGetDriverEntryPointByVersion);
#   b. tests/gpu/selftest_run.sh green_context: the partition each worker made, the SM ids
#      (%smid) its check kernels ran on through the runtime (legacy stream and a created one)
#      and the thief's, the record marks, `record --from` refusing the record, and the message
#      of each bad setting;
#   c. the modes sm_limit, hbm_thief and no_injection (the ctest label selftest runs the same),
#      each timed: each should stay under about 60 s on an H100.
# Everything lands in $OUT/green_context/ and $OUT/green_context.log. About 3 minutes.
# Usage: tools/device/green_context_check.sh BUILD_DIR [MODE...]   (MODE: green_context sm_limit
#        hbm_thief no_injection; default all four)
. "$(dirname "$0")/prelude.sh" "${1:-}" green_context.log
shift
modes=("$@")
[ "${#modes[@]}" -gt 0 ] || modes=(green_context sm_limit hbm_thief no_injection)
R=$OUT/green_context
mkdir -p "$R"

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv
echo "== ldd $G (must show no libcuda)"
ldd "$G"
ldd "$G" | grep -q 'libcuda\.so' && echo "FAILED: the CLI links libcuda.so"

status=0
for mode in "${modes[@]}"; do
  start=$(date +%s.%N)
  echo "== selftest_run.sh $mode"
  bash tests/gpu/selftest_run.sh "$mode" "$G" "$R/$mode"
  code=$?
  echo "== $mode: exit $code in $(elapsed "$start") s"
  [ "$code" = 0 ] || status=1
done
exit $status
