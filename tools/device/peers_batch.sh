#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Peers beside the suite (issue 18 item 5): builds public microbenchmarks from their published
# sources and runs them on this node's GPU, so the suite's throughput probes and the best
# public kernels are measured on the same board, in the same call. The sources are carried in
# .carry/peers/ (tools/device/fetch_peers.sh exports them on the CPU machine; they never enter
# the project's tree); this script only copies them into $PEERS_BUILD and builds the copy.
#
#   te42kyfo/gpu-benches  gpu-stream    init / read / scale / triad rows    -> hbm.write, hbm.read, hbm.copy, hbm.triad
#                         gpu-l2-cache  L2-resident and DRAM-sized sets     -> l2.read, hbm.read
#   HPMLL/NVIDIA-Hopper-Benchmark
#                         RegularUnits/shared_bw{,_64,_128}                 -> shared.load.b32, .b64, .b128
#                         TensorCores/mma/m16n8k16 all_SM (ILP 4)           -> mma_sync.m16n8k16.{s32.s8, f16.f16, f32.f16}
#
# Builds: nvcc directly on each .cu with the flags of its Makefile / cc.sh, but for this GPU's
# architecture only (PEER_ARCH, default sm_90a on a 9.0 GPU; nvcc 13 has no sm_61/sm_70 the Makefiles
# also list) and without the libraries the code never calls (-lnvidia-ml; gpu-stream's -lcuda).
# gpu-l2-cache includes gpu-benches' CUPTI metric header (its measurements are commented out
# upstream), so it links -lcupti -lnvperf_host -lnvperf_target as its Makefile does.
# Patches, applied with sed to the copy in $PEERS_BUILD only (never to .carry/ or the project):
#   - NVIDIA-Hopper-Benchmark TensorCores/include/util.h reads cudaDeviceProp::clockRate, which
#     CUDA 13 removed: `GPUFreq = prop.clockRate*1000;` becomes the same value read through
#     cudaDeviceGetAttribute(cudaDevAttrClockRate) (kHz x 1000, as before);
#   - STREAM_DOUBLES=N (optional) sets gpu-stream's hard-coded buffer length (default upstream
#     128 Mi + 2 doubles = 1 GiB per buffer, 4 buffers).
# Neither gpu-stream nor gpu-l2-cache takes arguments; their full sweeps run (gpu-stream: 32 block
# sizes x 6 kernels; gpu-l2-cache: 85 set sizes from 1.5 MiB to 4.7 GiB, 11 launches of ~105 GB
# each), about 5-10 s and 30-40 s on an H100; every run is bounded by `timeout`, and a run cut
# short still yields the rows it printed (the summary marks it "truncated").
#
# Results in $OUT/peers/ (3 files, the transfer back takes at most 8 in all):
#   peers.json  one summary: the GPU (name, UUID, clocks, bus width, HBM peak = 2 x max memory
#               clock x bus bytes), the sources (repo, commit), each build and run (exit, seconds),
#               and per (peer, metric) the best value as the peer prints it (GB/s, TFLOP/s,
#               B/clk/SM), the parameters of the best row, and its fraction of the nominal peak;
#   log.txt     this script's output;
#   raw.tgz     raw/: every peer's stdout, build logs, nvidia-smi before/after, device facts.
# Expected: about 60-80 s on an H100 (builds 10-20 s in parallel, gpu-stream 5-10 s, gpu-l2-cache
# 30-40 s, shared_bw x 3 about 1 s, mma about 10 s); the limits below bound a hung peer.
# Usage: [OUT=DIR] [PEER_GPU=0] [PEER_ARCH=sm_90a] [STREAM_DOUBLES=N] [PEERS_BUILD=/tmp/gpuconform-peers]
#        [STREAM_LIMIT=40] [L2_LIMIT=75] [MMA_LIMIT=40] (seconds) [MMA_ILP=4] [MMA_ITERS=10000000]
#        [L2_SET_MIN_KIB=16384] [L2_SET_MAX_KIB=32768] [HBM_SET_MIN_KIB=262144] (gpu-l2-cache rows that
#        count as l2.read / hbm.read) tools/device/peers_batch.sh
#   standalone, or after another batch in the same command (tools/device/throughput_batch.sh B; ...);
#   PEERS_PARSE_ONLY=1 tools/device/peers_batch.sh re-summarizes an existing $OUT/peers/raw(.tgz).
set -u
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-/tmp/gpuconform-out}
R=$OUT/peers
RAW=$R/raw
SRC=.carry/peers
BUILD=${PEERS_BUILD:-/tmp/gpuconform-peers}
GPU=${PEER_GPU:-0}
mkdir -p "$R"
parse_only=${PEERS_PARSE_ONLY:-0}
if [ "$parse_only" = 1 ]; then
  extracted=0
  [ -d "$RAW" ] || { [ -f "$R/raw.tgz" ] && tar -C "$R" -xzf "$R/raw.tgz" && extracted=1; }
  [ -d "$RAW" ] || { echo "no $RAW to summarize"; exit 2; }
  exec > >(tee -a "$R/log.txt") 2>&1
else
  rm -rf "$RAW" "$R/raw.tgz" "$R/peers.json"
  mkdir -p "$RAW"
  exec > >(tee "$R/log.txt") 2>&1
fi
t0=$(date +%s.%N)
since() { python3 -c "print(f'{$(date +%s.%N)-$1:.1f}')"; }

if [ "$parse_only" != 1 ]; then
  [ -f "$SRC/SOURCES.txt" ] || { echo "no $SRC/SOURCES.txt: run tools/device/fetch_peers.sh on the CPU machine first"; exit 2; }
  cp "$SRC/SOURCES.txt" "$RAW/SOURCES.txt"
  # nvidia-smi's index is PCI order; make CUDA's device 0 the same board.
  export CUDA_DEVICE_ORDER=PCI_BUS_ID CUDA_VISIBLE_DEVICES=$GPU
  q=index,name,uuid,pci.device_id,pci.bus_id,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,memory.total,power.draw,power.limit,temperature.gpu,clocks_throttle_reasons.active
  nvidia-smi --query-gpu="$q" --format=csv -i "$GPU" > "$RAW/nvidia-smi-before.csv" 2>&1
  nvidia-smi -q -i "$GPU" > "$RAW/nvidia-smi-q.txt" 2>&1
  nvidia-smi --query-gpu=name,uuid,compute_cap,clocks.max.mem,clocks.max.sm,pci.device_id,driver_version \
    --format=csv,noheader,nounits -i "$GPU" > "$RAW/smi.csv" 2>&1
  cat "$RAW/nvidia-smi-before.csv"
  cc=$(cut -d, -f3 "$RAW/smi.csv" | head -1 | tr -d ' .')
  # sm_90a on a 9.0 GPU, as the suite's node build (90a-real); PEER_ARCH=sm_90 for the plain target.
  ARCH=${PEER_ARCH:-sm_${cc:-90}}
  [ -z "${PEER_ARCH:-}" ] && [ "$ARCH" = sm_90 ] && ARCH=sm_90a
  NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$NVCC")")")}
  "$NVCC" --version | tail -2

  echo "== build ($ARCH) into $BUILD"
  rm -rf "$BUILD"
  mkdir -p "$BUILD"
  cp -r "$SRC"/gpu-benches "$SRC"/NVIDIA-Hopper-Benchmark "$BUILD"/
  GB=$BUILD/gpu-benches
  HB=$BUILD/NVIDIA-Hopper-Benchmark
  # The one source fix CUDA 13 needs (see the header); checked, so a changed upstream line shows.
  sed -i 's/GPUFreq = prop\.clockRate\*1000;/cudaDeviceGetAttribute(\&GPUFreq, cudaDevAttrClockRate, 0); GPUFreq *= 1000;/' \
    "$HB/TensorCores/include/util.h"
  grep -q cudaDevAttrClockRate "$HB/TensorCores/include/util.h" || echo "util.h patch did not apply: mma build will fail"
  if [ -n "${STREAM_DOUBLES:-}" ]; then
    sed -i -E "s/(max_buffer_size = )[^;]+;/\1${STREAM_DOUBLES}l;/" "$GB/gpu-stream/main.cu"
  fi
  # Parameters the parser needs, read from the sources as built.
  {
    echo "arch=$ARCH"
    echo "gpu_index=$GPU"
    echo "stream_buffer_doubles=$(grep -oE 'max_buffer_size = [^;]+' "$GB/gpu-stream/main.cu" | head -1 | cut -d= -f2)"
    echo "l2_block_count=$(grep -oE 'int blockCount = [0-9]+' "$GB/gpu-l2-cache/main.cu" | grep -oE '[0-9]+$')"
    echo "mma_ilp=${MMA_ILP:-4}"
    echo "mma_iters=${MMA_ITERS:-10000000}"
  } > "$RAW/params.txt"

  # Device facts the peak needs (bus width, L2 size, clocks), from the CUDA runtime.
  cat > "$BUILD/facts.cu" << 'CU'
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
  int bus = 0, mem_khz = 0, sm_khz = 0, l2 = 0;
  cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
  cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  std::printf("name=%s\ncc=%d.%d\nsm_count=%d\nl2_bytes=%d\nbus_width_bits=%d\nmem_clock_attr_khz=%d\nsm_clock_attr_khz=%d\n",
              p.name, p.major, p.minor, p.multiProcessorCount, l2, bus, mem_khz, sm_khz);
  std::printf("uuid=GPU-");
  for (int i = 0; i < 16; ++i)
    std::printf("%02x%s", (unsigned char)p.uuid.bytes[i], (i == 3 || i == 5 || i == 7 || i == 9) ? "-" : "");
  std::printf("\n");
  return 0;
}
CU
  hopper_flags=(-Xptxas -dlcm=cv -Xptxas -dscm=wt "-gencode=arch=compute_${ARCH#sm_},code=$ARCH")
  libdirs=()
  for d in "$CUDA_HOME/lib64" "$CUDA_HOME/lib" "$CUDA_HOME/extras/CUPTI/lib64"; do
    [ -d "$d" ] && libdirs+=("-L$d" "-Xlinker" "-rpath,$d")
  done
  [ -d "$CUDA_HOME/lib64/stubs" ] && libdirs+=("-L$CUDA_HOME/lib64/stubs")  # libcuda.so to link; the driver's at run time
  # build NAME DIR COMMAND...: one background compile, its log in raw/build-NAME.txt.
  build() {
    local name=$1 dir=$2
    shift 2
    ( cd "$dir" && echo "+ $*" && "$@" ) > "$RAW/build-$name.txt" 2>&1
    echo "$name $?" >> "$RAW/builds.txt"
  }
  : > "$RAW/builds.txt"
  b0=$(date +%s.%N)
  pids=()
  build facts "$BUILD" "$NVCC" -O2 -arch="$ARCH" -o facts facts.cu &
  pids+=($!)
  build gpu-stream "$GB/gpu-stream" "$NVCC" -std=c++17 -O3 -arch="$ARCH" --compiler-options="-O2 -pipe -Wall -fopenmp -g" \
    -Xcompiler -rdynamic --generate-line-info -o cuda-stream main.cu &
  pids+=($!)
  build gpu-l2-cache "$GB/gpu-l2-cache" "$NVCC" -std=c++17 -O3 -arch="$ARCH" --compiler-options="-O2 -pipe -Wall -fopenmp -g" \
    -Xcompiler -rdynamic --generate-line-info -I"$CUDA_HOME/extras/CUPTI/include" -I"$CUDA_HOME/include" \
    -o cuda-l2-cache main.cu "${libdirs[@]}" -lcupti -lcuda -lnvperf_host -lnvperf_target &
  pids+=($!)
  build shared_bw "$HB/RegularUnits/shared_bw" "$NVCC" "${hopper_flags[@]}" shared_bw.cu -o shared_bw -lcudart &
  pids+=($!)
  build shared_bw_64 "$HB/RegularUnits/shared_bw_64" "$NVCC" "${hopper_flags[@]}" shared_bw_64.cu -o shared_bw_64 -lcudart &
  pids+=($!)
  build shared_bw_128 "$HB/RegularUnits/shared_bw_128" "$NVCC" "${hopper_flags[@]}" shared_bw.cu -o shared_bw -lcudart &
  pids+=($!)
  # -include cstdint: the file uses uint32_t/uint64_t without including <cstdint>, which
  # nvcc 13's headers no longer pull in (three errors, 2026-11-26 on an H100 node).
  build mma_m16n8k16 "$HB/TensorCores/mma/m16n8k16" "$NVCC" -include cstdint run_m16n8k16_all_SM.cu "-gencode=arch=compute_${ARCH#sm_},code=$ARCH" \
    -o all_SM -DILP="${MMA_ILP:-4}" -DITERs="${MMA_ITERS:-10000000}" &
  pids+=($!)
  wait "${pids[@]}"  # not a bare wait: it would also wait for the log's tee
  echo "builds done in $(since "$b0") s: $(sort "$RAW/builds.txt" | tr '\n' ' ')"
  grep -v ' 0$' "$RAW/builds.txt" | while read -r name _; do echo "-- build $name failed:"; tail -15 "$RAW/build-$name.txt"; done

  # run NAME LIMIT_S BINARY...: one peer, alone on the GPU, bounded; its stdout in raw/NAME.txt.
  : > "$RAW/runs.txt"
  run() {
    local name=$1 limit=$2 s rc
    shift 2
    if [ ! -x "$1" ]; then
      echo "$name not-built 0" >> "$RAW/runs.txt"
      return
    fi
    s=$(date +%s.%N)
    ( cd "$(dirname "$1")" && timeout "$limit" "./$(basename "$1")" ) > "$RAW/$name.txt" 2>&1
    rc=$?
    s=$(since "$s")
    echo "$name $rc $s" >> "$RAW/runs.txt"
    echo "-- $name: exit $rc, $s s$([ "$rc" = 124 ] && echo " (cut at ${limit} s)")"
  }
  echo "== runs"
  run facts 30 "$BUILD/facts"
  cat "$RAW/facts.txt"
  run gpu-stream "${STREAM_LIMIT:-40}" "$GB/gpu-stream/cuda-stream"
  run gpu-l2-cache "${L2_LIMIT:-75}" "$GB/gpu-l2-cache/cuda-l2-cache"
  run shared_bw 10 "$HB/RegularUnits/shared_bw/shared_bw"
  run shared_bw_64 10 "$HB/RegularUnits/shared_bw_64/shared_bw_64"
  run shared_bw_128 10 "$HB/RegularUnits/shared_bw_128/shared_bw"
  run mma_m16n8k16 "${MMA_LIMIT:-40}" "$HB/TensorCores/mma/m16n8k16/all_SM"
  nvidia-smi --query-gpu="$q" --format=csv -i "$GPU" > "$RAW/nvidia-smi-after.csv" 2>&1
  cat "$RAW/nvidia-smi-after.csv"
fi

echo "== summary"
python3 - "$RAW" "$R/peers.json" << 'PY'
import datetime, json, os, re, socket, sys

raw, out = sys.argv[1], sys.argv[2]
NUM = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|inf)"

def text(name):
    try:
        with open(os.path.join(raw, name), errors="replace") as f:
            return f.read()
    except OSError:
        return ""

def keyvals(name):
    d = {}
    for line in text(name).splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            d[k.strip()] = v.strip()
    return d

def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None

def intexpr(s):
    # "128l * 1024 * 1024 + 2" as written in gpu-stream's source: digits, *, + only.
    s = (s or "").replace("l", "").replace("L", "").strip()
    if not s or not re.fullmatch(r"[0-9\s*+]+", s):
        return None
    total = 0
    for term in s.split("+"):
        p = 1
        for f in term.split("*"):
            p *= int(f)
        total += p
    return total

params = keyvals("params.txt")
facts = keyvals("facts.txt")
smi = [c.strip() for c in (text("smi.csv").splitlines() or [""])[0].split(",")]
smi_ok = len(smi) >= 7 and not smi[0].lower().startswith(("no devices", "nvidia-smi", "failed"))
gpu = {
    "index": int(params.get("gpu_index", 0)),
    "name": smi[0] if smi_ok else facts.get("name"),
    "uuid": smi[1] if smi_ok else facts.get("uuid"),
    "uuid_cuda": facts.get("uuid"),
    "compute_cap": smi[2] if smi_ok else facts.get("cc"),
    "pci_device_id": smi[5] if smi_ok else None,
    "driver_version": smi[6] if smi_ok else None,
    "sm_count": int(facts["sm_count"]) if "sm_count" in facts else None,
    "l2_bytes": int(facts["l2_bytes"]) if "l2_bytes" in facts else None,
    "bus_width_bits": int(facts["bus_width_bits"]) if "bus_width_bits" in facts else None,
    "mem_clock_max_mhz": num(smi[3]) if smi_ok else None,
    "mem_clock_attr_mhz": int(facts["mem_clock_attr_khz"]) / 1000 if "mem_clock_attr_khz" in facts else None,
    "sm_clock_max_mhz": num(smi[4]) if smi_ok else None,
    "sm_clock_attr_mhz": int(facts["sm_clock_attr_khz"]) / 1000 if "sm_clock_attr_khz" in facts else None,
}
mem_mhz = gpu["mem_clock_max_mhz"] or gpu["mem_clock_attr_mhz"]
gpu["hbm_peak_gbs"] = (2 * mem_mhz * 1e6 * gpu["bus_width_bits"] / 8 / 1e9
                       if mem_mhz and gpu["bus_width_bits"] else None)
gpu["hbm_peak_basis"] = ("2 x clocks.max.mem (nvidia-smi) x bus width bytes (cudaDevAttrGlobalMemoryBusWidth)"
                         if gpu["mem_clock_max_mhz"] else "2 x cudaDevAttrMemoryClockRate x bus width bytes")
hopper = (gpu["compute_cap"] or "").replace(".", "") == "90"
sms = gpu["sm_count"]

sources = []
for line in text("SOURCES.txt").splitlines():
    if line.startswith("#") or not line.strip():
        continue
    f = line.split()
    sources.append({"repo": f[0], "commit": f[1], "paths": f[2:]})

def table(name):
    rows = {}
    for line in text(name).splitlines():
        f = line.split()
        if len(f) >= 2:
            rows[f[0]] = {"exit": int(f[1]) if f[1].lstrip("-").isdigit() else f[1],
                          **({"seconds": num(f[2])} if len(f) > 2 else {})}
    return rows
builds, runs = table("builds.txt"), table("runs.txt")
# Which published source each peer was built from (SOURCES.txt: repo, commit, paths).
peer_src = {"gpu-stream": ("te42kyfo/gpu-benches", "gpu-stream/main.cu"),
            "gpu-l2-cache": ("te42kyfo/gpu-benches", "gpu-l2-cache/main.cu"),
            "shared_bw": ("HPMLL/NVIDIA-Hopper-Benchmark", "RegularUnits/shared_bw/shared_bw.cu"),
            "shared_bw_64": ("HPMLL/NVIDIA-Hopper-Benchmark", "RegularUnits/shared_bw_64/shared_bw_64.cu"),
            "shared_bw_128": ("HPMLL/NVIDIA-Hopper-Benchmark", "RegularUnits/shared_bw_128/shared_bw.cu"),
            "mma_m16n8k16": ("HPMLL/NVIDIA-Hopper-Benchmark", "TensorCores/mma/m16n8k16/run_m16n8k16_all_SM.cu")}
commits = {x["repo"]: x["commit"] for x in sources}

metrics = []
def add(peer, metric, rows, key, unit, peak=None, peak_basis=None, note=None, frac_key=None):
    """Best of ROWS (dicts) by ROWS[key]; fraction from frac_key (default key) / peak."""
    rows = [r for r in rows if r.get(key) is not None and r[key] == r[key]]
    run = runs.get(peer, {})
    repo, path = peer_src.get(peer, ("?", "?"))
    e = {"peer": peer, "metric": metric, "unit": unit, "rows": len(rows),
         "source": f"{repo}@{commits.get(repo, '?')} {path}",
         "gpu_name": gpu["name"], "gpu_uuid": gpu["uuid"], "exit": run.get("exit"),
         "truncated": run.get("exit") in (124, 137)}
    if rows:
        best = max(rows, key=lambda r: r[key])
        e["value"] = best[key]
        e["params"] = {k: v for k, v in best.items() if k != key}
        fv = best.get(frac_key or key)
        if peak and fv is not None:
            e["peak"] = peak
            e["peak_basis"] = peak_basis
            e["fraction_of_peak"] = round(fv / peak, 4)
    else:
        e["value"] = None
        e["params"] = None
    if note:
        e["note"] = note
    metrics.append(e)

# --- gpu-stream: "blockSize threads %occ | GB/s: init read scale triad 3pt 5pt" per block size.
hbm = gpu["hbm_peak_gbs"]
hbm_basis = "HBM peak GB/s: " + gpu["hbm_peak_basis"]
doubles = intexpr(params.get("stream_buffer_doubles"))
cols, srows = [], []
for line in text("gpu-stream.txt").splitlines():
    if line.lstrip().startswith("blockSize") and "|" in line:
        cols = line.split("|", 1)[1].split()
        continue
    m = re.match(r"\s*(\d+)\s+(\d+)\s+(" + NUM + r")\s*%\s*\|\s*GB/s:(.*)$", line)
    if not m:
        continue
    bs, vals = int(m.group(1)), [num(v) for v in m.group(4).split()]
    r = {"block_size": bs, "threads_per_wave": int(m.group(2)), "occupancy_pct": num(m.group(3)),
         "blocks_per_sm": 2, "buffer_doubles": doubles,
         "grid_blocks": doubles // bs + 1 if doubles else None}
    for c, v in zip(cols or ["init", "read", "scale", "triad", "3pt", "5pt"], vals):
        r[c] = v
    srows.append(r)
for col, metric, streams in (("init", "hbm.write", "1 write"), ("read", "hbm.read", "1 read"),
                             ("scale", "hbm.copy", "1 read + 1 write"), ("triad", "hbm.triad", "2 reads + 1 write")):
    rows = [dict({k: v for k, v in r.items() if k not in ("init", "read", "scale", "triad", "3pt", "5pt")},
                 gbs=r.get(col)) for r in srows]
    add("gpu-stream", metric, rows, "gbs", "GB/s", hbm, hbm_basis,
        f"peer column '{col}', bytes counted: {streams} per element (8-byte doubles); host-timed median of 9 pairs")

# --- gpu-l2-cache: "<chunk> kB <set> kB <t>ms <spread>% <bw> GB/s ..." per set size.
l2rows = []
blocks = int(params["l2_block_count"]) if params.get("l2_block_count", "").isdigit() else None
for line in text("gpu-l2-cache.txt").splitlines():
    m = re.match(r"\s*(\d+) kB\s+(\d+) kB\s+(" + NUM + r")ms\s+(" + NUM + r")%\s+(" + NUM + r") GB/s", line)
    if m:
        l2rows.append({"chunk_kib": int(m.group(1)), "set_kib": int(m.group(2)), "min_ms": num(m.group(3)),
                       "spread_pct": num(m.group(4)), "gbs": num(m.group(5)), "blocks": blocks,
                       "block_size": 1024})
l2 = gpu["l2_bytes"] or 0
lo, hi = int(os.environ.get("L2_SET_MIN_KIB", 16 * 1024)), int(os.environ.get("L2_SET_MAX_KIB", 32 * 1024))
hbm_min = int(os.environ.get("HBM_SET_MIN_KIB", max(256 * 1024, 4 * l2 // 1024)))
add("gpu-l2-cache", "l2.read", [r for r in l2rows if lo <= r["set_kib"] <= hi], "gbs", "GB/s",
    note=f"rows with a data set of {lo}-{hi} KiB (L2 {l2 >> 20} MiB); bytes read; best of 11 host-timed launches per row")
add("gpu-l2-cache", "hbm.read", [r for r in l2rows if r["set_kib"] >= hbm_min], "gbs", "GB/s", hbm, hbm_basis,
    note=f"rows with a data set of at least {hbm_min} KiB; bytes read; best of 11 host-timed launches per row")

# --- shared_bw*: "Shared Memory Bandwidth = X (byte/clk/SM)", one block of 1024 threads on one SM.
for peer, metric, width in (("shared_bw", "shared.load.b32", 4), ("shared_bw_64", "shared.load.b64", 8),
                            ("shared_bw_128", "shared.load.b128", 16)):
    t = text(peer + ".txt")
    m = re.search(r"Shared Memory Bandwidth = (" + NUM + r") \(byte/clk/SM\)", t)
    c = re.search(r"Total Clk number = (\d+)", t)
    rows = [{"bytes_per_clk_sm": num(m.group(1)), "load_bytes": width, "blocks": 1, "threads": 1024,
             "iterations": 4096, "clocks": int(c.group(1)) if c else None}] if m else []
    add(peer, metric, rows, "bytes_per_clk_sm", "B/clk/SM", 128 if hopper else None,
        "128 B/clk/SM (sm_90 shared memory)", "%clock-timed inside one block (dependent loads, 32 warps)")

# --- mma m16n8k16 all_SM: per (type, warps per SM) "Throughput(whole kernel)", "Latency" (cycles).
ilp = int(params.get("mma_ilp", 4))
iters = int(params.get("mma_iters", 10_000_000))
names = {"i32.i8.i8.i32": ("mma_sync.m16n8k16.s32.s8", 8192), "f16.f16.f16.f16": ("mma_sync.m16n8k16.f16.f16", 4096),
         "f32.f16.f16.f32": ("mma_sync.m16n8k16.f32.f16", 4096)}
mrows, cur = {}, None
for line in text("mma_m16n8k16.txt").splitlines():
    m = re.match(r"\s*mma\.sync\.aligned\.m16n8k16\.row\.col\.(\S+) TEST with ILP = (\d+), warp num = (\d+), "
                 r"SMs = (\d+), GPUFreq = (\d+)", line)
    if m:
        cur = {"type": m.group(1), "ilp": int(m.group(2)), "warps_per_sm": int(m.group(3)), "blocks": int(m.group(4)),
               "gpu_freq_hz": int(m.group(5)), "iterations": iters}
        mrows.setdefault(m.group(1), []).append(cur)
        continue
    if cur is None:
        continue
    for pat, key in ((r"Time : (" + NUM + r") ms", "ms"), (r"Throughput\(whole kernel\) : (" + NUM + r")", "tflops"),
                     (r"Latency = (\d+)", "clocks_max"), (r"Throughput\(mma inst\) = (" + NUM + r")", "tflops_at_max_clock")):
        mm = re.search(pat, line)
        if mm:
            cur[key] = int(mm.group(1)) if key == "clocks_max" else num(mm.group(1))
for typ, (metric, per_clk) in names.items():
    rows = mrows.get(typ, [])
    for r in rows:
        if r.get("clocks_max"):
            # 16*8*16*2 operations per mma, ILP chains, ITERs iterations per warp; the slowest thread's clock64 span.
            r["flop_per_clk_sm"] = round(4096 * r["warps_per_sm"] * r["ilp"] * r["iterations"] / r["clocks_max"], 1)
        r.pop("type", None)
    add("mma_m16n8k16", metric, rows, "tflops", "TFLOP/s", per_clk if hopper else None,
        f"{per_clk} FLOP/clk/SM (sm_90 dense tensor rate), applied to flop_per_clk_sm (clock64-timed, so at the SM clock that ran)",
        "value: event-timed whole kernel, one block per SM, as the peer prints it", frac_key="flop_per_clk_sm")

summary = {
    "schema": "gpuconform-peers/1",
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "host": socket.gethostname(),
    "arch": params.get("arch"),
    "gpu": gpu,
    "sources": sources,
    "builds": builds,
    "runs": runs,
    "metrics": metrics,
}
def clean(x):  # NaN/inf (a peer's empty metric column) as null: strict JSON
    if isinstance(x, float) and x != x or x in (float("inf"), float("-inf")):
        return None
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
with open(out, "w") as f:
    json.dump(clean(summary), f, indent=1, allow_nan=False)
    f.write("\n")
print(f"GPU {gpu['index']} {gpu['name']} {gpu['uuid']}; HBM peak {hbm and round(hbm, 1)} GB/s")
for e in metrics:
    v = e["value"]
    fr = e.get("fraction_of_peak")
    p = e["params"] or {}
    where = ", ".join(f"{k}={p[k]}" for k in ("block_size", "set_kib", "warps_per_sm", "load_bytes") if k in p)
    print(f"  {e['peer']:14s} {e['metric']:28s} " + (f"{v:10.6g} {e['unit']:8s}" if v is not None else f"{'-':>10s} {e['unit']:8s}")
          + (f" = {fr:.4f} of peak" if fr is not None else " " * 18) + (f"  ({where})" if where else "")
          + ("  TRUNCATED" if e["truncated"] else "") + (f"  exit {e['exit']}" if e["exit"] not in (0, None) else ""))
PY
echo "summary exit $?"
if [ "$parse_only" != 1 ]; then
  tar -C "$R" -czf "$R/raw.tgz" raw && rm -rf "$RAW"
elif [ "$extracted" = 1 ]; then
  rm -rf "$RAW"
fi
echo "peers batch done in $(since "$t0") s; results in $R: $(cd "$R" && echo *)"
