#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shared by prolog.sh and epilog.sh: runs gpuconform on the job's GPUs and, on a failure,
# drains the node with the first failure line as the reason. Exit status: 0 healthy,
# 1 not (Slurm then also requeues the job for a failing prolog).
#
# Settings (environment, e.g. from slurm.conf's PrologEpilogTimeout-aware wrapper):
#   GPUCONFORM_BIN          default: gpuconform on PATH, else /usr/bin/gpuconform
#   GPUCONFORM_LEVEL        run level, default quick (about 20 s; keep PrologEpilogTimeout above it)
#   GPUCONFORM_SLURM_DIR    where each check's run directory goes (default /var/lib/gpuconform/slurm)
#   GPUCONFORM_SLURM_PROM   also write a Prometheus textfile here (default: none)
#   GPUCONFORM_NO_DRAIN=1   report only, never drain
set -u

gpuconform_slurm_check() {
    local when="$1"
    local bin="${GPUCONFORM_BIN:-$(command -v gpuconform || echo /usr/bin/gpuconform)}"
    local level="${GPUCONFORM_LEVEL:-quick}"
    local dir="${GPUCONFORM_SLURM_DIR:-/var/lib/gpuconform/slurm}/${when}-${SLURM_JOB_ID:-nojob}"
    local node="${SLURMD_NODENAME:-$(hostname -s)}"
    local args=(run --level "$level" --out-dir "$dir" --termination-log "$dir.txt")
    local rc first

    [[ -n "${GPUCONFORM_SLURM_PROM:-}" ]] && args+=(--prom "$GPUCONFORM_SLURM_PROM")
    mkdir -p "$(dirname "$dir")" && rm -rf "$dir" || return 1
    # Slurm gives a prolog/epilog the job's GPUs in SLURM_JOB_GPUS (GRES indexes); test
    # only those, so the check never disturbs another job's GPUs.
    if [[ -n "${SLURM_JOB_GPUS:-}" ]]; then
        CUDA_VISIBLE_DEVICES="$SLURM_JOB_GPUS" "$bin" "${args[@]}" >"$dir.log" 2>&1
    else
        "$bin" "${args[@]}" >"$dir.log" 2>&1
    fi
    rc=$?
    [[ $rc -eq 0 ]] && return 0

    first="$(sed -n '2p' "$dir.txt" 2>/dev/null)"
    [[ -z "$first" ]] && first="$(sed -n '1p' "$dir.txt" 2>/dev/null)"
    [[ -z "$first" ]] && first="gpuconform exited $rc (see $dir.log)"
    echo "gpuconform $when check failed on $node: $first" >&2
    if [[ "${GPUCONFORM_NO_DRAIN:-0}" != 1 ]]; then
        # slurm.conf's reason field is short: keep the line's start.
        scontrol update nodename="$node" state=drain reason="gpuconform $when: ${first:0:200}" || true
    fi
    return 1
}
