#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 18 on one GPU node, in one call: the suite's throughput kernels beside
# the public ones on the same board.
#   1. device facts and `ldd` of the CLI;
#   2. VARIANTS=1: tools/device/stream_variants.cu built here and run (which
#      streaming shape reaches the limit on this board);
#   2b. SHARED_VARIANTS=1: tools/device/shared_variants.cu likewise (shared-memory load shapes);
#   3. PEERS=1: tools/device/peers_batch.sh (public microbenchmarks built from
#      their published sources in .carry/peers; $OUT/peers/peers.json);
#   4. RUNS x `gpuconform run --filter FILTER` with a run record each, named as
#      expectations/evidence/ wants them (evidence_name, prelude.sh);
#   5. NCU=1: ncu's DRAM/L2 throughput and top stall reasons of the HBM/L2 kernels;
#   6. a table: each target probe's median over the runs beside the best peer.
# Everything lands under $OUT/limits (tarred to $OUT/limits.tgz) and $OUT/log.txt.
# Usage: [RUNS=3] [FILTER='throughput.*'] [OVERLAY=FILE] [VARIANTS=1] [SHARED_VARIANTS=0] [PEERS=1] [NCU=0]
#        tools/device/limits_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
R=$OUT/limits
mkdir -p "$R"
RUNS=${RUNS:-3}
FILTER=${FILTER:-throughput.*}

echo "== device $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu --format=csv
echo "== ldd $G"
ldd "$G" | grep -q "not found" && { ldd "$G" | grep "not found"; echo "MISSING LIBRARIES"; }

if [ "${VARIANTS:-1}" = 1 ]; then
  echo "== stream variants"
  start=$(date +%s.%N)
  nvcc -O3 -std=c++17 -arch=sm_90a -I kernels -o /tmp/stream_variants tools/device/stream_variants.cu &&
    timeout 150 /tmp/stream_variants > "$R/stream_variants.txt" 2>&1
  echo "stream variants exit $? in $(elapsed "$start") s"
  cat "$R/stream_variants.txt"
fi

if [ "${SHARED_VARIANTS:-0}" = 1 ]; then
  echo "== shared-memory variants"
  nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/shared_variants tools/device/shared_variants.cu &&
    timeout 90 /tmp/shared_variants > "$R/shared_variants.txt" 2>&1
  echo "shared variants exit $?"
  cat "$R/shared_variants.txt"
fi

if [ "${PEERS:-1}" = 1 ]; then
  echo "== peers"
  start=$(date +%s.%N)
  OUT=$R timeout 240 bash tools/device/peers_batch.sh > "$R/peers.txt" 2>&1
  echo "peers exit $? in $(elapsed "$start") s"
  tail -40 "$R/peers.txt"
fi

echo "== suite: $RUNS x run --filter '$FILTER'"
for i in $(seq 1 "$RUNS"); do
  name=$(evidence_name "limits$i")
  start=$(date +%s.%N)
  timeout 240 "$G" run --filter "$FILTER" ${OVERLAY:+--overlay "$OVERLAY"} --record "$R/$name.jsonl" > "$R/$name.txt" 2>&1
  echo "run $i exit $? wall $(elapsed "$start") s: $(grep -E "^[0-9]+ passed, " "$R/$name.txt" | tail -1)"
  grep -E "GPU [0-9]+ (fail|warn|skip) " "$R/$name.txt" | cut -c1-240 | head -30
done

if [ "${NCU:-0}" = 1 ] && command -v ncu > /dev/null; then
  echo "== ncu (HBM and L2 stream kernels, one launch each)"
  timeout 200 ncu --target-processes all --kernel-name regex:stream_flat --launch-count 4 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    "$G" run --filter throughput.hbm.copy --filter throughput.hbm.triad > "$R/ncu.txt" 2>&1
  echo "ncu exit $?"
  grep -E "stream_flat|DRAM Throughput|L2 Cache Throughput|Memory Throughput|Stall" "$R/ncu.txt" | head -60
fi

echo "== suite medians beside the peers"
python3 - "$R" <<'PY'
import glob, json, os, statistics, sys
r = sys.argv[1]
values = {}
for path in sorted(glob.glob(os.path.join(r, "*limits*.jsonl"))):
    for line in open(path):
        j = json.loads(line)
        if j.get("record", "test") != "test" or not j.get("measured"):
            continue
        m = j["measured"]
        v = m.get("fraction_of_peak", m["value"])
        values.setdefault(j["probe"], []).append((v, m["unit"], m.get("sm_clock_mhz", 0),
                                                  (m.get("sampling") or {}).get("stopped", "-"),
                                                  (m.get("sampling") or {}).get("rel_half_width", -1), j["seconds"]))
for probe, rows in sorted(values.items()):
    vs = [x[0] for x in rows]
    print(f"{probe:52s} median {statistics.median(vs):12.6g} of {len(vs)} runs  [{min(vs):.6g} .. {max(vs):.6g}] "
          f"{'frac' if rows[0][0] < 2 else rows[0][1]} clk {rows[0][2]:.0f} stop {rows[0][3]} "
          f"ci {rows[0][4]:.4f} {rows[0][5]:.2f}s")
peers = os.path.join(r, "peers", "peers.json")
if os.path.exists(peers):
    print("-- peers:", open(peers).read()[:4000])
PY
tar -C "$OUT" -czf "$OUT/limits.tgz" limits
ls -la "$OUT"
