#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Evidence from one more board in one call: the throughput family (2 runs) and
# numeric.profile.* (3 runs) recorded into run records named for
# expectations/evidence/ (record_batch.sh), then the topology and parallel
# families (topology_batch.sh, 2 runs). Returns record.tgz, topology.tgz and logs.
# Usage: tools/device/boards_batch.sh BUILD_DIR
set -u
here=$(dirname "$0")
RECORD_LIMIT=200 bash "$here/record_batch.sh" "$1" throughput 2 'throughput.*' > /dev/null 2>&1
RECORD_LIMIT=120 bash "$here/record_batch.sh" "$1" profile 3 'numeric.profile.*' > /dev/null 2>&1
bash "$here/topology_batch.sh" "$1" 2 > /dev/null 2>&1
grep -h -E "GPU-|record exit|recorded:|FAILED" "${OUT:-/tmp/gpuconform-out}/record-log.txt"
