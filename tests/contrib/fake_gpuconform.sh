#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stands in for `gpuconform run` in the recipe tests: records its arguments and
# CUDA_VISIBLE_DEVICES, writes the termination log it was asked for, exits FAKE_RC.
printf '%s\n' "$*" >"$FAKE_LOG"
printf 'CUDA_VISIBLE_DEVICES=%s\n' "${CUDA_VISIBLE_DEVICES-unset}" >>"$FAKE_LOG"
printf 'CUDA_DEVICE_ORDER=%s\n' "${CUDA_DEVICE_ORDER-unset}" >>"$FAKE_LOG"
term=""
while (($#)); do
  case "$1" in
    --termination-log) term="$2"; shift ;;
    --out-dir) mkdir -p "$2" ;;
  esac
  shift
done
if [[ -n "$term" ]]; then
  case "${FAKE_RC:-0}" in 2) result=unusable ;; 3) result=busy ;; *) result=failed ;; esac
  printf 'gpuconform %s (exit %s): 1 pass, 0 warn, 1 fail, 0 skip on 1 GPU(s); run x\n' "$result" "$FAKE_RC" >"$term"
  [[ -n "${FAKE_FAIL_LINE:-}" ]] && printf '%s\n' "$FAKE_FAIL_LINE" >>"$term"
fi
exit "${FAKE_RC:-0}"
