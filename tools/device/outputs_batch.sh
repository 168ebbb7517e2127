#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fleet outputs on a GPU node (issue 12, item 5): one short `gpuconform run` (the
# latency.alu group: a few seconds) into a run directory with --json, --prom and
# --termination-log, then the checks the CPU machine could only make with made-up results:
#   - run.jsonl line 1 is the header (driver and CUDA filled in on a real node), every
#     line and summary.json valid against harness/schema/*.json (python3 jsonschema when
#     installed, else the structural checks below);
#   - summary.json: counts per GPU and group add up to the record's test lines, exit code
#     equals the process's, stdout held only the JSON;
#   - the textfile has one gpuconform_probe_verdict per probe and GPU;
#   - the termination log is <= 4096 bytes.
# Everything lands in $OUT/outputs.tgz and $OUT/log.txt.
# Usage: tools/device/outputs_batch.sh BUILD_DIR
. "$(dirname "$0")/prelude.sh" "${1:-}" log.txt
R=$OUT/outputs
mkdir -p "$R"

echo "== run"
start=$(date +%s.%N)
timeout 240 "$G" run --filter 'latency.alu.*' --out-dir "$R/run" --json --prom "$R/gpuconform.prom" \
  --termination-log "$R/termination.txt" >"$R/stdout.json" 2>"$R/stderr.txt"
code=$?
echo "run exit $code wall $(python3 -c "print(f'{$(date +%s.%N)-$start:.1f}')") s"
tail -5 "$R/stderr.txt"
ls -l "$R/run"
echo "== termination log ($(wc -c <"$R/termination.txt") bytes)"
head -5 "$R/termination.txt"
echo "== checks"
python3 - "$R" "$code" harness/schema <<'PY'
import json, sys, collections
R, code, schema_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
problems = []
lines = [json.loads(l) for l in open(f"{R}/run/run.jsonl")]
summary = json.load(open(f"{R}/run/summary.json"))
printed = json.load(open(f"{R}/stdout.json"))
if lines[0].get("record") != "header": problems.append("line 1 is not the header")
print("header:", {k: lines[0].get(k) for k in ("run_id", "host", "driver", "cuda_driver_version", "cuda_runtime_version")})
if printed != summary: problems.append("stdout differs from summary.json")
if summary["exit_code"] != code: problems.append(f"summary exit_code {summary['exit_code']} != process exit {code}")
tests = [l for l in lines if l.get("record") == "test"]
counts = collections.Counter(l["verdict"] for l in tests)
if dict(counts) != {k: v for k, v in summary["totals"].items() if v}: problems.append(f"totals {summary['totals']} != record {dict(counts)}")
prom = open(f"{R}/gpuconform.prom").read().splitlines()
series = [l for l in prom if l.startswith("gpuconform_probe_verdict{")]
if len(series) != len(tests): problems.append(f"{len(series)} probe series for {len(tests)} test lines")
if len(open(f"{R}/termination.txt", "rb").read()) > 4096: problems.append("termination log over 4096 bytes")
try:
    import jsonschema
    rec = jsonschema.Draft202012Validator(json.load(open(f"{schema_dir}/run-record.schema.json")))
    summ = jsonschema.Draft202012Validator(json.load(open(f"{schema_dir}/summary.schema.json")))
    for i, l in enumerate(lines, 1):
        for e in rec.iter_errors(l): problems.append(f"run.jsonl:{i}: {e.message[:200]}")
    for e in summ.iter_errors(summary): problems.append(f"summary.json: {e.message[:200]}")
    print("jsonschema: checked", len(lines), "lines and the summary")
except ImportError:
    print("jsonschema not installed: schema not checked here")
print(f"{len(tests)} tests, gpus {[(g.get('uuid'), g['counts']) for g in summary['gpus']]}")
for p in problems: print("PROBLEM", p)
print("outputs checks:", "ok" if not problems else f"{len(problems)} problem(s)")
PY
tar -C "$OUT" -czf "$OUT/outputs.tgz" outputs && rm -rf "$R"
