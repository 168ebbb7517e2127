#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Probe seconds of a run record by probe group (the id's first two fields), the slowest
probes, and every verdict other than pass. Usage: family_seconds.py RUN.jsonl"""
import collections
import json
import sys

total = collections.Counter()
rows = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    p = r.get("probe")
    if not p:
        continue
    s = r.get("seconds") or 0
    total[".".join(p.split(".")[:2])] += s
    rows.append((s, p, r.get("verdict")))
print(f"probe seconds: {sum(total.values()):.1f}", {k: round(v, 1) for k, v in total.items()})
for s, p, v in sorted(rows, reverse=True)[:12]:
    print(f"  {s:6.2f} {p} {v}")
print("not pass:", [(p, v) for s, p, v in rows if v != "pass"][:40])
