#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shared by prolog.sh and epilog.sh: runs gpuconform on the job's GPUs and, on a failure,
# drains the node with the first failure line as the reason. Exit status: 0 healthy,
# 1 not (Slurm then also requeues the job for a failing prolog). A GPU in use by another job
# (gpuconform's exit 3, run error gpu_busy) is skipped: exit 0, no drain.
#
# Settings (environment, e.g. from slurm.conf's PrologEpilogTimeout-aware wrapper):
#   GPUCONFORM_BIN          default: gpuconform on PATH, else /usr/bin/gpuconform
#   GPUCONFORM_LEVEL        run level, default quick (about 20 s; keep PrologEpilogTimeout above it)
#   GPUCONFORM_SLURM_DIR    where each check's run directory goes (default /var/lib/gpuconform/slurm)
#   GPUCONFORM_SLURM_PROM   also write a Prometheus textfile here (default: none)
#   GPUCONFORM_SLURM_KEEP   how many run directories of each kind (prolog, epilog) to keep,
#                           newest first (default 20); older ones and their .txt/.log go
#   GPUCONFORM_TIMEOUT      the run's deadline in seconds (`run --timeout`; default none:
#                           keep PrologEpilogTimeout above the level's time instead)
#   GPUCONFORM_NO_DRAIN=1   report only, never drain
#
# CUDA_DEVICE_ORDER=PCI_BUS_ID: SLURM_JOB_GPUS are the node's GPU indexes as nvidia-smi and
# NVML number them (PCI bus order); CUDA's default order (fastest first) can differ on a
# node of mixed GPUs, and the check would then test, or find busy, another job's GPU.
set -u

# Keeps the newest KEEP run directories BASE/WHEN-* (by time of change) and removes the
# others with their .txt and .log.
gpuconform_slurm_rotate() {
    local base="$1" when="$2" keep="$3" old
    [[ "$keep" =~ ^[0-9]+$ ]] || return 0
    find "$base" -mindepth 1 -maxdepth 1 -type d -name "$when-*" -printf '%T@ %p\n' 2>/dev/null |
        sort -rn | tail -n +"$((keep + 1))" | cut -d' ' -f2- |
        while IFS= read -r old; do
            rm -rf -- "$old" "$old.txt" "$old.log"
        done
}

gpuconform_slurm_check() {
    local when="$1"
    local bin="${GPUCONFORM_BIN:-$(command -v gpuconform || echo /usr/bin/gpuconform)}"
    local level="${GPUCONFORM_LEVEL:-quick}"
    local dir="${GPUCONFORM_SLURM_DIR:-/var/lib/gpuconform/slurm}/${when}-${SLURM_JOB_ID:-nojob}"
    local node="${SLURMD_NODENAME:-$(hostname -s)}"
    local args=(run --level "$level" --out-dir "$dir" --termination-log "$dir.txt")
    local rc first

    [[ -n "${GPUCONFORM_SLURM_PROM:-}" ]] && args+=(--prom "$GPUCONFORM_SLURM_PROM")
    [[ -n "${GPUCONFORM_TIMEOUT:-}" ]] && args+=(--timeout "$GPUCONFORM_TIMEOUT")
    mkdir -p "$(dirname "$dir")" && rm -rf "$dir" || return 1
    export CUDA_DEVICE_ORDER=PCI_BUS_ID
    # Slurm gives a prolog/epilog the job's GPUs in SLURM_JOB_GPUS (GRES indexes); test
    # only those, so the check never disturbs another job's GPUs.
    if [[ -n "${SLURM_JOB_GPUS:-}" ]]; then
        CUDA_VISIBLE_DEVICES="$SLURM_JOB_GPUS" "$bin" "${args[@]}" >"$dir.log" 2>&1
    else
        "$bin" "${args[@]}" >"$dir.log" 2>&1
    fi
    rc=$?
    gpuconform_slurm_rotate "$(dirname "$dir")" "$when" "${GPUCONFORM_SLURM_KEEP:-20}"
    [[ $rc -eq 0 ]] && return 0

    first="$(sed -n '2p' "$dir.txt" 2>/dev/null)"
    [[ -z "$first" ]] && first="$(sed -n '1p' "$dir.txt" 2>/dev/null)"
    [[ -z "$first" ]] && first="gpuconform exited $rc (see $dir.log)"
    if [[ $rc -eq 3 ]]; then
        # gpu_busy: another job's process holds one of these GPUs, or a GPU is in an
        # exclusive compute mode. Nothing was run; not the node's fault: skip, never drain.
        echo "gpuconform $when check skipped on $node, a GPU is in use: $first" >&2
        return 0
    fi
    echo "gpuconform $when check failed on $node: $first" >&2
    if [[ "${GPUCONFORM_NO_DRAIN:-0}" != 1 ]]; then
        # slurm.conf's reason field is short: keep the line's start.
        scontrol update nodename="$node" state=drain reason="gpuconform $when: ${first:0:200}" || true
    fi
    return 1
}
