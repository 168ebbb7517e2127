#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 23's TMA multicast L2 traffic on one GPU node:
#   1. where libcupti is (the candidate paths kernels/common/cupti_library.cpp tries,
#      ldconfig -p) and whether the driver restricts the counters to administrators;
#   2. `gpuconform record --probe 'throughput.tma.multicast.*' --runs RUNS` (the timed
#      multicast probes and the in-process counted throughput.tma.multicast.l2_traffic.*)
#      into a scratch file, each run's value and the l2_traffic notes printed;
#   3. the cross-check: Nsight Compute on the same probes, one `ncu` per cluster size
#      (--clock-control none; the metrics the probe reads, in base units, per launch of
#      tma_cluster_copy_kernel<true> = multicast and <false> = unicast), each launch pair's
#      ratio printed beside the in-process one. Under ncu the in-process counters are kept
#      off (GPUCONFORM_CUPTI_LIBRARY names no file: two profilers must not share the
#      counters), so the probe launches each kernel once uncounted and skips: those two
#      launches are what ncu measures.
# Everything lands in $OUT/multicast_l2.tgz and $OUT/multicast_l2_log.txt.
# Usage: [RUNS=3] [NCU=path] [RECORD_LIMIT=300] [NCU_LIMIT=300] tools/device/multicast_l2_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" multicast_l2_log.txt
RUNS=${RUNS:-3}
R=$OUT/multicast_l2
mkdir -p "$R"
METRICS=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_op_read.sum,dram__bytes_read.sum

echo "== device"
nvidia-smi --query-gpu=name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
"$G" list --arch "$ARCH" --level standard | grep -E '^throughput\.tma\.multicast' ||
  echo "no throughput.tma.multicast probe registered"

echo "== libcupti"
echo "GPUCONFORM_CUPTI_LIBRARY=${GPUCONFORM_CUPTI_LIBRARY:-} CUDA_HOME=${CUDA_HOME:-} LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
for d in ${CUDA_HOME:+$CUDA_HOME/extras/CUPTI/lib64 $CUDA_HOME/lib64} /usr/local/cuda/extras/CUPTI/lib64 \
  /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/extras/CUPTI/lib64 \
  /usr/local/cuda-13.0/lib64; do
  ls -l "$d"/libcupti.so* 2> /dev/null || echo "$d: no libcupti.so*"
done
ldconfig -p | grep -i cupti || echo "ldconfig -p: no libcupti"
echo "uid $(id -u); $(grep -i RmProfilingAdminOnly /proc/driver/nvidia/params 2> /dev/null || echo 'RmProfilingAdminOnly: not readable')"

echo "== record --runs $RUNS (in-process counters)"
start=$(date +%s.%N)
timeout "${RECORD_LIMIT:-300}" "$G" record --probe 'throughput.tma.multicast.*' --runs "$RUNS" \
  --out "$R/values.toml" --evidence "$R/values.jsonl" > "$R/record.txt" 2>&1
echo "record exit $? wall $(elapsed "$start") s"
grep -E "FAILED|skipped" "$R/record.txt" | cut -c1-400
# Per probe: every run's value, then the notes of the first run (SASS left out).
python3 - "$R/values.jsonl" <<'PY'
import json, os, sys
if not os.path.exists(sys.argv[1]):
    sys.exit(f"no run record at {sys.argv[1]}")
runs, notes = {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    m = r.get("measured") or {}
    if not m:
        continue
    pid = r.get("probe", "?")
    runs.setdefault(pid, []).append((m.get("value", 0), m.get("unit", ""), m.get("samples", [])))
    notes.setdefault(pid, m.get("notes", {}))
for pid, vals in runs.items():
    print(f'{pid:48s} {vals[0][1]:6s} ' + "  ".join(f"{v:.5g}" for v, _, _ in vals))
    if ".l2_traffic." in pid:
        print("      samples per run: " + " | ".join(" ".join(f"{s:.5f}" for s in smp) for _, _, smp in vals))
        for k, v in notes[pid].items():
            if not k.startswith("sass"):
                print(f"      {k}: {v}")
PY

echo "== ncu cross-check"
NCU=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2> /dev/null | head -n 1)}
if [ -z "$NCU" ] || [ ! -x "$NCU" ]; then
  echo "no ncu found (PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute): cross-check skipped"
else
  "$NCU" --version | tail -n 1
  for c in 2 4; do
    start=$(date +%s.%N)
    GPUCONFORM_CUPTI_LIBRARY=/nonexistent/ncu-holds-the-counters \
      timeout "${NCU_LIMIT:-300}" "$NCU" --clock-control none --target-processes all --print-units base \
      --print-kernel-base mangled --kernel-name regex:tma_cluster_copy_kernel --metrics "$METRICS" --csv \
      --log-file "$R/ncu-cluster$c.csv" \
      "$G" record --probe "throughput.tma.multicast.l2_traffic.cluster$c" --runs 1 \
      --out "$R/ncu-cluster$c.toml" --evidence "$R/ncu-cluster$c.jsonl" > "$R/ncu-cluster$c.txt" 2>&1
    echo "ncu cluster$c exit $? wall $(elapsed "$start") s"
    grep -hE "==ERROR==|==WARNING==|FAILED|skipped" "$R/ncu-cluster$c.csv" "$R/ncu-cluster$c.txt" 2> /dev/null |
      cut -c1-400
  done
  # Each launch's metrics from ncu's CSV (one row per launch and metric), the launches paired
  # in order (the probe launches multicast, then unicast), beside the in-process ratio.
  python3 - "$R" "$METRICS" <<'PY'
import csv, io, json, os, statistics, sys
R, metrics = sys.argv[1], sys.argv[2].split(",")
inproc = {}
if os.path.exists(f"{R}/values.jsonl"):
    for line in open(f"{R}/values.jsonl"):
        r = json.loads(line)
        m = r.get("measured") or {}
        if m and ".l2_traffic." in r.get("probe", ""):
            inproc.setdefault(r["probe"].rsplit(".", 1)[1], []).append(m.get("value", 0))
for c in (2, 4):
    path = f"{R}/ncu-cluster{c}.csv"
    if not os.path.exists(path):
        print(f"cluster{c}: no ncu output")
        continue
    text = open(path).read()
    rows = [line for line in text.splitlines() if line.startswith('"')]  # not ncu's ==PROF== lines
    if not rows or not rows[0].startswith('"ID"'):
        print(f"cluster{c}: no CSV rows in {path}:\n{text[-1500:]}")
        continue
    launches = {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        mode = "multicast" if "ILb1E" in row["Kernel Name"] else "unicast" if "ILb0E" in row["Kernel Name"] else "?"
        value = float(row["Metric Value"].replace(",", "")) if row["Metric Value"] else float("nan")
        launches.setdefault(int(row["ID"]), {"mode": mode})[row["Metric Name"]] = value
    order = [launches[k] for k in sorted(launches)]
    print(f"cluster{c}: {len(order)} launches profiled: {' '.join(l['mode'] for l in order)}")
    for i in range(0, len(order) - 1, 2):
        mc, uc = order[i], order[i + 1]
        if (mc["mode"], uc["mode"]) != ("multicast", "unicast"):
            print(f"  launches {i}, {i + 1}: not a multicast/unicast pair ({mc['mode']}, {uc['mode']})")
            continue
        for name in metrics:
            a, b = mc.get(name, float("nan")), uc.get(name, float("nan"))
            print(f"  {name:42s} multicast {a:16.0f} unicast {b:16.0f} ratio {a / b if b else float('nan'):.5f}")
    got = inproc.get(f"cluster{c}", [])
    print(f"  in-process ratio (record above, {len(got)} runs): "
          + (f"median {statistics.median(got):.5f}" if got else "none"))
PY
fi

tar -C "$OUT" -czf "$OUT/multicast_l2.tgz" multicast_l2
echo "results: $OUT/multicast_l2.tgz"
