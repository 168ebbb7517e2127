#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# compare_check.sh GPUCONFORM WORK_DIR: `gpuconform compare` on two records of different
# single boards refuses to pair them (exit 2, naming both and the --pair that would) unless
# --pair or --by-index says so; a move is BETTER or WORSE by the entry's direction (a
# fraction_of_peak probe that fell is WORSE, a latency that fell BETTER, a two-sided band
# MOVED); the text lists only what differs, with units as the report writes them
# (2.872 TB/s), and --all the rest; the JSON keeps both sides' verdicts. --color=always
# paints WORSE red and BETTER green; a pipe (auto), NO_COLOR and --color=never get none.
set -euo pipefail
cli="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def line(uuid, probe, value, unit, kind, verdict, spread):
    samples = [value * (1 + spread * (i - 2) / 2) for i in range(5)]
    return {"probe": probe, "verdict": verdict,
            "measured": {"value": value, "unit": unit, "samples": samples},
            "expected": {"kind": kind, "unit": unit, "source": "cite:fixture", "at": "fixture.toml:1:1"},
            "device": {"arch": "sm_90", "sku": "0x2330", "uuid": uuid, "index": 0, "name": "fixture GPU",
                       "driver": "580.00", "cuda_runtime_version": 13000},
            "suite": {"commit": "fixture"}}
before = [line("GPU-aaaa1111", "throughput.hbm.read", 2.872e12, "B/s", "fraction_of_peak", "pass", 0.001),
          line("GPU-aaaa1111", "latency.mem.l2_hit", 260.0, "cycles", "band", "pass", 0.001),
          line("GPU-aaaa1111", "topology.sm.count", 132.0, "SMs", "band", "pass", 0.0001),
          line("GPU-aaaa1111", "latency.alu.fma.rn.f32", 4.016, "cycles", "band", "pass", 0.0001),
          line("GPU-aaaa1111", "throughput.l2.read", 1.0e13, "B/s", "fraction_of_peak", "pass", 0.001)]
after = [line("GPU-bbbb2222", "throughput.hbm.read", 2.5e12, "B/s", "fraction_of_peak", "fail", 0.001),
         line("GPU-bbbb2222", "latency.mem.l2_hit", 230.0, "cycles", "band", "pass", 0.001),
         line("GPU-bbbb2222", "topology.sm.count", 140.0, "SMs", "band", "fail", 0.0001),
         line("GPU-bbbb2222", "latency.alu.fma.rn.f32", 4.016, "cycles", "band", "pass", 0.0001)]
for name, lines in (("before", before), ("after", after)):
    with open(f"{work}/{name}.jsonl", "w") as f:
        f.writelines(json.dumps(l) + "\n" for l in lines)
PY
expect() {  # expect NAME STATUS ARGS... -> output in $work/NAME.out
  local name=$1 want=$2 status=0
  shift 2
  "$cli" compare "$@" >"$work/$name.out" 2>&1 || status=$?
  [[ $status -eq $want ]] || { echo "$name: exit $status, expected $want"; cat "$work/$name.out"; exit 1; }
}
has() { grep -q -- "$2" "$work/$1.out" || { echo "$1: no '$2' in:"; cat "$work/$1.out"; exit 1; }; }
hasnt() { ! grep -q -- "$2" "$work/$1.out" || { echo "$1: '$2' should not be in:"; cat "$work/$1.out"; exit 1; }; }

expect refused 2 "$work/before.jsonl" "$work/after.jsonl"
has refused "different boards (baseline GPU-aaaa1111, candidate GPU-bbbb2222)"
has refused "--pair GPU-aaaa1111=GPU-bbbb2222"

expect paired 1 --pair GPU-aaaa=GPU-bbbb "$work/before.jsonl" "$work/after.jsonl"
grep -E -q 'throughput.hbm.read +2.872 TB/s.* +2.5 TB/s.*WORSE, verdict pass -> fail' "$work/paired.out" ||
  { echo "paired: no WORSE line with TB/s"; cat "$work/paired.out"; exit 1; }
grep -E -q 'latency.mem.l2_hit .*BETTER' "$work/paired.out" || { echo "paired: l2_hit not BETTER"; cat "$work/paired.out"; exit 1; }
grep -E -q 'topology.sm.count .*MOVED, verdict pass -> fail' "$work/paired.out" ||
  { echo "paired: a two-sided band is MOVED"; cat "$work/paired.out"; exit 1; }
hasnt paired "latency.alu.fma.rn.f32"
has paired "1 probe(s) SAME (--all lists them)"
has paired "1 probe(s) only in the baseline (--all lists them)"
hasnt paired "throughput.l2.read"

expect all 1 --all --by-index "$work/before.jsonl" "$work/after.jsonl"
has all "latency.alu.fma.rn.f32"
grep -E -q 'throughput.l2.read +only in the baseline' "$work/all.out" || { echo "all: no only-in line"; exit 1; }

expect json 1 --format json --pair GPU-aaaa=GPU-bbbb "$work/before.jsonl" "$work/after.jsonl"
python3 - "$work/json.out" <<'PY'
import json, sys
out = json.load(open(sys.argv[1]))
probes = {p["probe"]: p for p in out["pairs"][0]["probes"]}
hbm = probes["throughput.hbm.read"]
assert hbm["change"] == "WORSE" and hbm["direction"] == "higher_is_better" and hbm["judgement"] == "MOVED", hbm
assert hbm["baseline_verdict"] == "pass" and hbm["candidate_verdict"] == "fail", hbm
assert probes["latency.mem.l2_hit"]["change"] == "BETTER", probes["latency.mem.l2_hit"]
assert probes["topology.sm.count"]["change"] == "MOVED", probes["topology.sm.count"]
assert probes["latency.alu.fma.rn.f32"]["change"] == "SAME", probes["latency.alu.fma.rn.f32"]
PY
esc=$'\x1b'
expect always 1 --color=always --pair GPU-aaaa=GPU-bbbb "$work/before.jsonl" "$work/after.jsonl"
has always "${esc}\[31mWORSE${esc}\[0m, verdict pass -> fail"
has always "${esc}\[32mBETTER${esc}\[0m"
hasnt paired "$esc"
NO_COLOR=1 expect nocolor 1 --color=auto --pair GPU-aaaa=GPU-bbbb "$work/before.jsonl" "$work/after.jsonl"
hasnt nocolor "$esc"
expect never 1 --color=never --pair GPU-aaaa=GPU-bbbb "$work/before.jsonl" "$work/after.jsonl"
hasnt never "$esc"
expect badcolour 2 --color=sometimes "$work/before.jsonl" "$work/after.jsonl"
has badcolour "--color must be auto, always or never"
echo ok
