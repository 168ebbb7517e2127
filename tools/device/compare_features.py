#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The committed numeric.feature.* entries against those `probe numerics --out` pinned
(same ids, same param). Usage: compare_features.py COMMITTED.toml SURVEY.toml"""
import re
import sys


def entries(path):
    out, key = {}, None
    for line in open(path):
        m = re.match(r'\[probe\."([^"]+)"\]', line)
        if m:
            key = m.group(1)
        m = re.match(r'model = "(param:[^"]+)"', line)
        if m and key and key.startswith("numeric.feature."):
            out[key] = m.group(1)
    return out


committed, survey = entries(sys.argv[1]), entries(sys.argv[2])
same = sum(1 for k in committed if survey.get(k) == committed[k])
print(f"committed feature entries {len(committed)}, survey entries {len(survey)}, equal {same}")
for k in sorted(committed):
    if k in survey and survey[k] != committed[k]:
        print("DIFFERS", k, "committed", committed[k], "survey", survey[k])
for k in sorted(set(committed) - set(survey)):
    print("not pinned by the survey:", k, committed[k])
for k in sorted(set(survey) - set(committed)):
    print("only in the survey:", k, survey[k])
