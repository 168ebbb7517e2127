#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run levels and the parallel runner on one GPU node (issue 12, items 1-2):
#   1. `gpuconform list --level quick` for this GPU: the selection, recorded seconds, total;
#   2. `gpuconform run --level quick` three times, timed wall-clock (the first on a cold
#      SASS cache and the node's first CUDA start): each must take <= 20 s and give a
#      verdict in every probe group;
#   3. one quick run under `script` (a pseudo-terminal), to see the live status lines;
#   4. a standard run (every probe once), timed, with its final matrix;
#   5. one more quick run, now on the SASS cache the standard run filled.
# Everything lands in $OUT/parallel.tgz and $OUT/log.txt.
# Usage: tools/device/parallel_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
R=$OUT/parallel
mkdir -p "$R"
# A cache of its own, empty: the first quick run is the cold one.
export GPUCONFORM_SASS_CACHE="$R/sass-cache"
rm -rf "$GPUCONFORM_SASS_CACHE"
now() { date +%s.%N; }
wall() { python3 -c "print(f'{$(now)-$1:.2f}')"; }

echo "== device"
nvidia-smi --query-gpu=index,name,pci.device_id,uuid,driver_version,persistence_mode,clocks.sm,temperature.gpu --format=csv
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d . | sed 's/^/sm_/')
SKU=$(nvidia-smi --query-gpu=pci.device_id --format=csv,noheader | head -1 | cut -c1-6 | tr 'A-F' 'a-f')
echo "arch $ARCH sku $SKU"

echo "== list --level quick"
"$G" list --level quick --arch "$ARCH" --sku "$SKU" | tee "$R/list_quick.txt" | tail -40

echo "== run --level quick, 3 times (first cold)"
for i in 1 2 3; do
  start=$(now)
  timeout 120 "$G" run --level quick --record "$R/quick$i.jsonl" --junit "$R/quick$i.xml" > "$R/quick$i.txt" 2>&1
  rc=$?
  echo "quick run $i: exit $rc, wall $(wall "$start") s"
done
sed -n '/^verdicts per probe group/,$p' "$R/quick1.txt"

echo "== quick run on a pseudo-terminal (live status lines)"
if command -v script > /dev/null; then
  start=$(now)
  COLUMNS=120 timeout 120 script -q -e -c "'$G' run --level quick --record '$R/quick_tty.jsonl' --junit '$R/quick_tty.xml'" \
    /dev/null > "$R/quick_tty.txt" 2>&1
  echo "tty quick run: exit $?, wall $(wall "$start") s (raw terminal output in quick_tty.txt)"
else
  echo "no script(1): skipped"
fi

echo "== standard run"
start=$(now)
timeout 420 "$G" run --record "$R/standard.jsonl" --junit "$R/standard.xml" > "$R/standard.txt" 2>&1
echo "standard run: exit $?, wall $(wall "$start") s"
sed -n '/^verdicts per probe group/,$p' "$R/standard.txt" | cut -c1-240 | head -80

echo "== quick run again, on the SASS cache the standard run filled"
start=$(now)
timeout 120 "$G" run --level quick --record "$R/quick_warm.jsonl" --junit "$R/quick_warm.xml" > "$R/quick_warm.txt" 2>&1
echo "quick run (warm SASS cache): exit $?, wall $(wall "$start") s"

echo "== checks on the records"
python3 - "$R" <<'PY'
import json, sys, collections, os
R = sys.argv[1]
def tests(path):
    out = []
    for line in open(path):
        j = json.loads(line)
        if j.get("record", "test") == "test":
            out.append(j)
    return out
std = tests(f"{R}/standard.jsonl")
groups = {".".join(t["probe"].split(".")[:2]) for t in std}
print(f"standard: {len(std)} verdicts, {len(groups)} groups, probe seconds {sum(t['seconds'] for t in std):.1f}")
for name in ["quick1", "quick2", "quick3", "quick_warm"]:
    q = tests(f"{R}/{name}.jsonl")
    qg = collections.Counter(".".join(t["probe"].split(".")[:2]) for t in q)
    verdicts = collections.Counter(t["verdict"] for t in q)
    sass = collections.Counter((t.get("measured", {}).get("notes", {}).get("sass", "-") or "-")[:40] for t in q
                               if "sass" in t.get("measured", {}).get("notes", {}))
    print(f"{name}: {len(q)} verdicts {dict(verdicts)}; groups {len(qg)} of {len(groups)}; missing {sorted(groups - set(qg))}; "
          f"probe seconds {sum(t['seconds'] for t in q):.2f}; slowest {max(q, key=lambda t: t['seconds'])['probe']} "
          f"{max(t['seconds'] for t in q):.2f} s")
    print("   sass notes:", dict(sass.most_common(3)))
# quick and standard agree where both judged
s = {t["probe"]: t for t in std}
for t in tests(f"{R}/quick1.jsonl"):
    a = s.get(t["probe"])
    if a and a["verdict"] != t["verdict"]:
        print(f"   differs: {t['probe']} quick {t['verdict']} standard {a['verdict']}: {t['reason'][:160]}")
PY
tar -C "$OUT" -czf "$OUT/parallel.tgz" parallel
ls -la "$OUT"
