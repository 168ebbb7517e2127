#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Slurm Epilog (slurm.conf: Epilog=/etc/slurm/epilog.d/gpuconform-epilog.sh): checks the
# job's GPUs after the job, so a board the job left broken (a fault, a stuck clock, row
# remaps pending) is drained before the next job lands on it.
source "$(dirname "$(readlink -f "$0")")/gpuconform-check.sh"
gpuconform_slurm_check epilog
