#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The GPU-to-GPU probes on a node of two or more GPUs (issue: multi-GPU node):
#   1. node facts: every GPU (nvidia-smi), `nvidia-smi topo -m`, NVLink status and error
#      counters, `ldd` of the CLI;
#   2. RUNS x `gpuconform run --filter 'p2p.*' --filter 'health.*'`, each with its own run
#      record (every GPU's pair results; the evidence `record --from` derives entries from),
#      with $OVERLAY (e.g. tools/device/p2p_info_overlay.toml before any entry exists);
#   3. nvbandwidth beside them when a build of it was carried in .carry/nvbandwidth (built
#      from NVIDIA's published source on the CPU machine; never part of the suite):
#      the copy-engine and SM device-to-device tests, the same paths the probes time;
#   4. FULL=1: a standard run of every probe on all GPUs, timed, beside one on GPU 0 alone
#      (the node run's wall time against one GPU's), then CTEST=N runs of
#      `ctest -j 2 --resource-spec-file` over the GPU labels (the GPU test binary must
#      have been staged).
# Results: $OUT/p2p.tgz (records, logs) and $OUT/log.txt.
# Usage: [OVERLAY=FILE] [RUNS=3] [FULL=1] [CTEST=3] tools/device/p2p_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${RUNS:-3}
R=$OUT/p2p
mkdir -p "$R"
overlay=()
[ -n "${OVERLAY:-}" ] && overlay=(--overlay "$OVERLAY")

echo "== node"
nvidia-smi --query-gpu=index,name,pci.device_id,pci.bus_id,uuid,driver_version,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv
nvidia-smi topo -m
nvidia-smi nvlink -s | head -60
nvidia-smi nvlink -e 2>&1 | head -80 > "$R/nvlink-errors-before.txt"
head -12 "$R/nvlink-errors-before.txt"
echo "== ldd $G"
ldd "$G" | grep -q "not found" && { ldd "$G"; echo "MISSING LIBRARIES"; }
uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -1 | cut -c1-12 | tr 'A-Z' 'a-z')
name=$(evidence_name p2p)

for i in $(seq 1 "$RUNS"); do
  rec="$R/$name-$i.jsonl"
  s=$(date +%s.%N)
  timeout 240 "$G" run --filter 'p2p.*' --filter 'health.*' "${overlay[@]}" --record "$rec" --junit "$R/p2p-$i.xml" \
    > "$R/p2p-$i.txt" 2>&1
  echo "p2p run $i exit $? wall $(elapsed "$s") s"
  [ "$i" = 1 ] && cat "$R/p2p-$i.txt"
  python3 - "$rec" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j.get("record", "test") != "test" or "probe" not in j: continue
    m = j.get("measured", {})
    peers = ",".join(str(p["index"]) for p in j.get("peers", []))
    frac = m.get("fraction_of_peak")
    print(f'  GPU {j["device"]["index"]}{">"+peers if peers else ""} {j["probe"]:38s} {j["verdict"]:5s} '
          f'{m.get("value", float("nan")):.6g} {m.get("unit","")}' + (f' = {frac:.4f} of peak' if frac else '')
          + ("" if m else "  " + j.get("reason", "")[:150]))
PY
done
nvidia-smi nvlink -e 2>&1 | head -80 > "$R/nvlink-errors-after.txt"
diff -q "$R/nvlink-errors-before.txt" "$R/nvlink-errors-after.txt" > /dev/null || echo "NVLink error counters changed (see p2p/nvlink-errors-*.txt)"

NVB=.carry/nvbandwidth/nvbandwidth
if [ -x "$NVB" ]; then
  echo "== nvbandwidth (NVIDIA's published source, built on the CPU machine)"
  for t in device_to_device_memcpy_write_ce device_to_device_memcpy_read_ce device_to_device_bidirectional_memcpy_write_ce \
           device_to_device_memcpy_read_sm device_to_device_memcpy_write_sm all_to_one_write_ce device_to_device_latency_sm; do
    timeout 120 "$NVB" -t "$t" > "$R/nvbandwidth-$t.txt" 2>&1
    echo "-- $t (exit $?)"
    grep -vE "^(nvbandwidth Version|Built from|$)" "$R/nvbandwidth-$t.txt" | head -14
  done
fi

if [ "${FULL:-0}" = 1 ]; then
  # A cold SASS cache costs about 30 s of cuobjdump in whichever run comes first: fill it
  # untimed, so the two timed runs compare like with like.
  "$G" run --device 0 --filter 'latency.alu.fma.rn.f32' > /dev/null 2>&1
  echo "== standard run, every GPU"
  s=$(date +%s.%N)
  timeout 400 "$G" run --record "$R/$name-full.jsonl" "${overlay[@]}" > "$R/full.txt" 2>&1
  echo "full run exit $? wall $(elapsed "$s") s"
  tail -30 "$R/full.txt"
  echo "== standard run, GPU 0 alone"
  s=$(date +%s.%N)
  timeout 300 "$G" run --device 0 --record "$R/$name-gpu0.jsonl" "${overlay[@]}" > "$R/gpu0.txt" 2>&1
  echo "one-GPU run exit $? wall $(elapsed "$s") s"
  grep -E "^[0-9]+ passed" "$R/gpu0.txt" | tail -1
fi
if [ "${CTEST:-0}" -gt 0 ] && [ -x "$T" ]; then
  "$G" resources --out "$R/resources.json" && cat "$R/resources.json"
  for i in $(seq 1 "$CTEST"); do
    s=$(date +%s.%N)
    (cd "$B" && timeout 280 ctest --resource-spec-file "$R/resources.json" -j 2 -L 'latency|throughput|numeric|topology|selftest|p2p|health' \
      --output-on-failure > "$R/ctest-$i.txt" 2>&1)
    echo "ctest $i exit $? wall $(elapsed "$s") s: $(grep -E "tests passed|tests failed" "$R/ctest-$i.txt")"
    grep -E "\(Failed\)|\*\*\*Failed|Timeout" "$R/ctest-$i.txt" | head
  done
fi
tar -C "$OUT" -czf "$OUT/p2p.tgz" p2p
ls -la "$OUT"
