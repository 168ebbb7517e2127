#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 23, items 2 and 4 on one GPU node, in one call:
#   1. device facts; `gpuconform list --overlay` (is every new id registered and listed?);
#   2. RUNS x `gpuconform run` over the ids of tools/device/new_probes_info_overlay.toml
#      (one --filter per id) with that overlay (record-only `info` entries: measured,
#      never judged) and a run record each, named as expectations/evidence/ wants them;
#   3. the SASS of the new kernels (cuobjdump of the CLI): the inner loops of the TMA /
#      cp.async / ld.cg chases, the cluster barrier, DSMEM ping-pong and CAS chase, the
#      2-D TMA stream, the sparse wgmma and the DPX throughput rows, with opcode counts per kernel;
#   4. item 4: tools/device/new_probes_disagreements.cu built with nvcc and run (DPX latency
#      by a second method and DSMEM bandwidth by cluster size / peer / CTAs per SM), with
#      its SASS;
#   5. a table: each probe's median over the runs, its spread and its notes' key facts.
# Everything lands under $OUT/new_probes and is tarred to $OUT/new_probes.tgz.
# Usage: [RUNS=3] [DISAGREE=1] tools/device/new_probes_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" new-probes-log.txt
R=$OUT/new_probes
mkdir -p "$R/sass"
RUNS=${RUNS:-3}
OVERLAY=tools/device/new_probes_info_overlay.toml
mapfile -t IDS < <(sed -nE 's/^\[probe\."([^"]+)"\]$/\1/p' "$OVERLAY")
FILTERS=()
for id in "${IDS[@]}"; do FILTERS+=(--filter "$id"); done

echo "== device $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu --format=csv
echo "== ${#IDS[@]} probe ids from $OVERLAY"
"$G" lint "$OVERLAY"; echo "lint exit $?"
"$G" list --arch "$ARCH" --overlay "$OVERLAY" > "$R/list.txt" 2>&1; echo "list exit $?"
for id in "${IDS[@]}"; do grep -qE "^${id//./\\.} " "$R/list.txt" || echo "NOT LISTED: $id"; done

echo "== $RUNS x run over the new ids, --overlay $OVERLAY"
for i in $(seq 1 "$RUNS"); do
  name=$(evidence_name "newprobes$i")
  start=$(date +%s.%N)
  timeout 420 "$G" run "${FILTERS[@]}" --overlay "$OVERLAY" --record "$R/$name.jsonl" --out-dir "$R/run$i" \
    > "$R/$name.txt" 2>&1
  echo "run $i exit $? wall $(elapsed "$start") s: $(grep -E "^[0-9]+ passed, " "$R/$name.txt" | tail -1)"
  grep -E "GPU [0-9]+ (fail|warn|skip|error) |error|timed out" "$R/$name.txt" | cut -c1-300 | head -30
done

echo "== SASS of the new kernels"
if command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$G" > "$R/sass/all.txt" 2>&1 || echo "cuobjdump exit $?"
  # One file per kernel whose mangled name matches; then its opcode counts.
  awk -v dir="$R/sass" '
    /Function : / {
      name = $3; keep = (name ~ /async_chase_kernel|cluster_sync_kernel|dsmem_pingpong_kernel|dsmem_atomic_chase_kernel|tma_tensor_2d_kernel|wgmma_sp_latency_kernel|wgmma_sp_throughput_kernel|chase_kernelILNS[0-9_]*5LevelE1ELb0/ ||
                         (name ~ /alu_throughput_kernel/ && name ~ /Viadd|Vimin3|Vimax|Vibmax/));
      if (keep) { file = dir "/" substr(name, 1, 120) ".sass"; print "kernel " name > file }
      next
    }
    keep && /^[ \t]*\/\*[0-9a-f]+\*\// { print > file }
  ' "$R/sass/all.txt"
  for f in "$R"/sass/*.sass; do
    [ -e "$f" ] || { echo "no kernel matched"; break; }
    echo "-- $(basename "$f" .sass)"
    grep -oE '\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]+' "$f" | awk '{print $NF}' | sort | uniq -c | sort -rn | head -25 |
      awk '{printf "%s:%s ", $2, $1} END {print ""}'
  done
  rm -f "$R/sass/all.txt"
else
  echo "cuobjdump not on PATH: the records' sass notes say so too"
fi

if [ "${DISAGREE:-1}" = 1 ]; then
  echo "== item 4: second methods (DPX latency, DSMEM cluster 2 -> 4)"
  start=$(date +%s.%N)
  nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/new_probes_disagreements tools/device/new_probes_disagreements.cu &&
    timeout 200 /tmp/new_probes_disagreements "$R/disagreements.jsonl" > "$R/disagreements.txt" 2>&1
  echo "disagreements exit $? in $(elapsed "$start") s"
  cat "$R/disagreements.txt"
  if command -v cuobjdump > /dev/null && [ -x /tmp/new_probes_disagreements ]; then
    cuobjdump --dump-sass /tmp/new_probes_disagreements > "$R/sass/disagreements_all.sass" 2>&1
    awk '/Function : / {name = $3; next}
         /^[ \t]*\/\*[0-9a-f]+\*\// {
           if (match($0, /(VIADDMNMX|VIMNMX3|VIMNMX|IMNMX|VIADD|IADD3|SEL|IMAD|ISETP|LOP3|LDS|LD\.E|LDSM|CS2R|BRA|PRMT|VHMNMX)[A-Z0-9_.]*/))
             c[name " " substr($0, RSTART, RLENGTH)]++
         }
         END {for (k in c) print k, c[k]}' "$R/sass/disagreements_all.sass" | sort > "$R/sass/disagreements_counts.txt"
    grep -E "dpx_chain_kernel|vimax3_guarded|dpx_bracket" "$R/sass/disagreements_counts.txt" | head -80
  fi
fi

echo "== medians over the runs"
python3 - "$R" <<'PY' | tee "$R/summary.txt"
import glob, json, os, statistics, sys
r = sys.argv[1]
values, notes = {}, {}
for path in sorted(glob.glob(os.path.join(r, "*newprobes*.jsonl"))):
    for line in open(path):
        j = json.loads(line)
        if j.get("record", "test") != "test":
            continue
        m = j.get("measured")
        if not m:
            print(f"{j.get('probe')}: {j.get('verdict')} {str(j.get('reason', ''))[:200]}")
            continue
        v = m.get("fraction_of_peak", m["value"])
        values.setdefault(j["probe"], []).append((v, m["unit"], m.get("sm_clock_mhz", 0), j.get("seconds", 0)))
        n = m.get("notes") or {}
        notes[j["probe"]] = {k: n[k] for k in ("sass", "split", "copy_cycles_per_hop", "ldg_cycles_per_hop",
                                               "peak_entry") if k in n}
for probe, rows in sorted(values.items()):
    vs = [x[0] for x in rows]
    unit = "of peak" if "fraction" in str(rows[0][1]) or rows[0][0] < 2 and rows[0][1] == "B/s" else rows[0][1]
    print(f"{probe:44s} median {statistics.median(vs):12.6g} {unit:10s} of {len(vs)} runs "
          f"[{min(vs):.6g} .. {max(vs):.6g}] clk {rows[0][2]:.0f} MHz {max(x[3] for x in rows):.2f} s")
    for k, v in notes.get(probe, {}).items():
        print(f"    {k}: {str(v)[:300]}")
PY
tar -C "$OUT" -czf "$OUT/new_probes.tgz" new_probes
ls -la "$OUT"
