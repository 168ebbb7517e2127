#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The topology and parallel families (issue 10) on one GPU node:
#   a. `gpuconform record --probe 'topology.*' 'parallel.*' --runs 3` into a scratch
#      expectation file, with its run record (the evidence for the measured entries);
#   b. one `gpuconform run` of both families against the committed sm_90.toml plus the
#      scratch entries of probes that have none there (the overlay $R/sm_90.toml);
#   c. the doctored too-tight uniformity overlay (tests/fixtures/topology_tight_band.toml):
#      every uniformity probe must fail and name outlier SMs;
#   d. per board: the GPC map (SMs per GPC), the L2 partition split, and the slowest SM of
#      each uniformity probe with its ratio to the median;
#   e. the family's wall time (run b, and `ctest -L topology`): must stay under 30 s on an H100.
# Everything lands in $OUT/topology.tgz and $OUT/log.txt. About 4 minutes on an H100.
# Usage: tools/device/topology_batch.sh BUILD_DIR [RUNS]
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
RUNS=${2:-3}
R=$OUT/topology
mkdir -p "$R"
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now)-$1:.1f}')"; }

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
"$G" list --arch sm_90 --json > "$R/list.json"
python3 - "$R/list.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d if isinstance(d, list) else d.get("probes", d.get("entries", []))
ids = [r.get("probe", r.get("id", "")) for r in rows if isinstance(r, dict)]
fam = [i for i in ids if i.startswith(("topology.", "parallel."))]
print(f"topology.*/parallel.* entries listed for sm_90: {len(fam)}")
PY

echo "== a. record ($RUNS runs) into a scratch file, timed"
# The run record is named as expectations/evidence/ wants it (record_batch.sh):
# sm_XX-<PCI id>-<date>-topology-gpu-<UUID prefix>.jsonl.
evidence="$R/$(evidence_name topology).jsonl"
start=$(now)
timeout 300 "$G" record --probe 'topology.*' --probe 'parallel.*' --runs "$RUNS" --out "$R/scratch.toml" \
  --evidence "$evidence" > "$R/record.txt" 2>&1
echo "record exit $? wall $(since "$start") s for $RUNS runs: $evidence"
tail -15 "$R/record.txt"

# An overlay of the scratch entries of probes the committed file has no entry for (beside
# scratch.toml, so their run: sources resolve); none when every probe has an entry.
overlay=()
python3 - expectations/sm_90.toml "$R/scratch.toml" "$R/sm_90.toml" <<'PY' && overlay=(--overlay "$R/sm_90.toml")
import os, re, sys
committed = open(sys.argv[1]).read()
scratch = open(sys.argv[2]).read() if os.path.exists(sys.argv[2]) else ""
have = set(re.findall(r'^\[probe\."([^"]+)"\]', committed, re.M))
blocks = re.split(r'(?m)^(?=\[probe\.")', scratch)[1:]
added = [b for b in blocks if re.match(r'\[probe\."([^"]+)"\]', b).group(1) not in have]
print("scratch entries for probes without a committed entry:",
      ", ".join(re.match(r'\[probe\."([^"]+)"\]', b).group(1) for b in added) or "none")
if not added:
    sys.exit(1)
open(sys.argv[3], "w").write('[meta]\narch = "sm_90"\ndescription = "topology_batch.sh scratch entries"\n\n' + "".join(added))
PY

echo "== b. one run of both families, with a run record, timed"
start=$(now)
timeout 240 "$G" run --filter 'topology.*' --filter 'parallel.*' "${overlay[@]}" \
  --record "$R/run.jsonl" --junit "$R/run.xml" > "$R/run.txt" 2>&1
echo "run exit $? wall $(since "$start") s"
grep -E "^(pass|fail|warn|skip) " "$R/run.txt" | cut -c1-400

echo "== c. doctored too-tight uniformity bands: every probe must fail and name SMs"
timeout 120 "$G" run --filter 'topology.uniformity.*' --overlay tests/fixtures/topology_tight_band.toml \
  --record "$R/tight.jsonl" > "$R/tight.txt" 2>&1
echo "tight-band run exit $? (expected 1)"
python3 - "$R/tight.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("record", "test") != "test": continue
    reason = r["reason"]
    cut = reason.find("outliers:")
    print(f'{r["probe"]:40s} {r["verdict"]:5s} {reason[cut:cut + 260] if cut >= 0 else "NO OUTLIER LINE: " + reason[:200]}')
PY

echo "== d. per board: GPC map, L2 split, slowest SM per uniformity probe"
python3 - "$R/run.jsonl" <<'PY'
import json, sys
from collections import defaultdict
boards = defaultdict(dict)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("record", "test") != "test" or not r.get("measured"): continue
    boards[r["device"].get("uuid", "?")][r["probe"]] = r
for uuid, probes in boards.items():
    name = next(iter(probes.values()))["device"].get("name", "")
    print(f"board {uuid} ({name})")
    notes = lambda p: (probes.get(p, {}).get("measured") or {}).get("notes", {})
    print("  SMs per GPC:", notes("topology.gpc.count").get("sm_counts"), "|", notes("topology.gpc.count").get("gpcs"))
    print("  GPC map:", notes("topology.gpc.count").get("gpc_map"))
    print("  TPCs:", notes("topology.gpc.count").get("tpcs"), "|", notes("topology.gpc.count").get("clusters"))
    print("  L2 split:", notes("topology.l2.latency_matrix").get("split"))
    for p, r in sorted(probes.items()):
        if not p.startswith("topology.uniformity."): continue
        s = next((s for s in r["measured"].get("series", []) if s["name"] == "per_sm"), None)
        if not s: continue
        xs, ys = s["x"]["values"], s["y"]["values"]
        med = sorted(ys)[len(ys) // 2]
        slow_is_high = "latency" in p
        i = max(range(len(ys)), key=lambda k: ys[k]) if slow_is_high else min(range(len(ys)), key=lambda k: ys[k])
        lo, hi = min(ys) / med, max(ys) / med
        print(f"  {p:38s} slowest SM {xs[i]:.0f}: {ys[i]:.4g} {s['y']['unit']} = {ys[i] / med:.4f} of the median "
              f"{med:.4g} ({len(ys)} SMs, range {lo:.4f}-{hi:.4f}) {r['verdict']}")
    for p in ("parallel.contention.atomic_same_address", "parallel.contention.l2_same_line"):
        print(f"  {p}: {notes(p).get('saturation')}")
    for p in ("parallel.sched.launch_latency", "parallel.sched.launch_latency.graph", "parallel.sched.launch_throughput",
              "parallel.sched.warp_fairness", "topology.cluster.max_size", "topology.l2.near.min", "topology.l2.near.max",
              "topology.l2.far.min", "topology.l2.far.max"):
        m = probes.get(p, {}).get("measured") or {}
        print(f"  {p:40s} {m.get('value')} {m.get('unit', '')}")
    print("  seconds per probe:", ", ".join(f"{p} {r['seconds']:.2f}" for p, r in sorted(probes.items())))
    print("  family seconds (sum):", round(sum(r["seconds"] for r in probes.values()), 1))
PY

echo "== e. ctest -L topology, timed"
start=$(now)
env ${overlay[1]:+GPUCONFORM_OVERLAY="${overlay[1]}"} timeout 300 ctest --test-dir "$B" -L topology --output-on-failure > "$R/ctest.txt" 2>&1
echo "ctest exit $? wall $(since "$start") s"
tail -25 "$R/ctest.txt"

tar -C "$OUT" -czf "$OUT/topology.tgz" topology
ls -la "$OUT"
