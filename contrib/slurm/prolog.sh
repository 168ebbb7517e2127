#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Slurm Prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/gpuconform-prolog.sh): checks the
# job's GPUs before the job starts. On a failure the node is drained and the prolog fails,
# so Slurm requeues the job on another node.
source "$(dirname "$(readlink -f "$0")")/gpuconform-check.sh"
gpuconform_slurm_check prolog
