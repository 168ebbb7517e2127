#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Merge the sparse wgmma numeric entries into an expectation file once a run has judged them.

tools/device/wgmma_sp_hypothesis_overlay.toml holds the hypothesised entries of numeric.wgmma_sp.* and
numeric.feature.wgmma_sp.* (they cannot sit in sm_90.toml before a run record cites them).
After tools/device/wgmma_sp_golden_batch.sh, with its run record copied into
expectations/evidence/, this writes each overlay entry whose probe PASSED in that record into
the expectation file, in the form the dense wgmma entries have: the overlay's kind, model and
unit, `source = "run:evidence/<record>:<line>"`, the probe's measured seconds, and a note
with the outputs it compared and the golden file that holds its vectors. An entry already in the file is replaced; a new
one goes after the last entry that sorts before it. Nothing else of the file changes, so other
edits to it are kept. A probe that did not pass is listed and not merged: its hypothesis was
wrong (the batch's reports/hypotheses.txt and infer.txt say what the hardware does).

Usage: wgmma_sp_merge.py OVERLAY.toml RECORD.jsonl EXPECTATIONS.toml
Exit 0 when every entry was merged, 1 when some were not, 2 on bad input.
"""
import json
import os
import re
import sys

ENTRY = re.compile(r'^\[probe\."([^"]+)"\]\n(?:(?!\[).*\n)*', re.M)
OURS = re.compile(r"^numeric\.(feature\.)?wgmma_sp\.")
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FEATURE_PATHS = os.path.join(ROOT, "numerics/include/gpuconform/numerics/feature_paths.hpp")


def variant_of(probe, features):
    """The wgmmasp_* variant whose vectors a probe runs (feature paths: the kFeaturePaths table)."""
    if probe.startswith("numeric.feature."):
        return features.get(".".join(probe.split(".")[2:5]), "?")
    return "wgmmasp_" + "_".join(probe.split(".")[2:])


def passed(record):
    """probe -> (line, seconds, outputs compared) of its last passing verdict in a run record."""
    out = {}
    for n, line in enumerate(open(record), 1):
        j = json.loads(line)
        if j.get("record", "test") == "test" and j.get("verdict") == "pass" and "probe" in j:
            out[j["probe"]] = (n, j.get("seconds"), (j.get("measured") or {}).get("compared"))
    return out


def main(argv):
    if len(argv) != 4:
        print("usage: wgmma_sp_merge.py OVERLAY.toml RECORD.jsonl EXPECTATIONS.toml", file=sys.stderr)
        return 2
    overlay, record, target = argv[1:]
    features = dict(re.findall(r'\{"(wgmma_sp\.[a-z0-9.]+)", "(wgmmasp_[a-z0-9_]+)"', open(FEATURE_PATHS).read()))
    results = passed(record)
    rel = os.path.relpath(os.path.abspath(record), os.path.dirname(os.path.abspath(target)))
    if rel.startswith(".."):
        print(f"{record} is not beside {target}: copy it into expectations/evidence/ first", file=sys.stderr)
        return 2
    text = open(target).read()
    merged, skipped = 0, []
    for m in ENTRY.finditer(open(overlay).read()):
        probe, block = m.group(1), m.group(0).rstrip("\n") + "\n\n"
        if not OURS.match(probe):
            continue
        if probe not in results:
            skipped.append(probe)
            continue
        line, seconds, compared = results[probe]
        block = re.sub(r'^source = ".*"$', f'source = "run:{rel}:{line}"', block, flags=re.M)
        if seconds:
            block = re.sub(r"^seconds = .*$", f"seconds = {float(seconds):.2g}", block, flags=re.M)
        note = (f"{compared} outputs matched bit for bit; " if compared else "") + (
            f"passed as a probe in this record (the hypothesis of tools/device/wgmma_sp_hypothesis_overlay.toml held); "
            f"its vectors: golden/sm_90/{variant_of(probe, features)}.txt.xz")
        block = re.sub(r'^note = ".*"$', f'note = "{note}"', block, flags=re.M)
        entries = list(ENTRY.finditer(text))
        same = [e for e in entries if e.group(1) == probe]
        if same:
            e = same[0]
            text = text[: e.start()] + block + text[e.end():]
        else:
            before = [e for e in entries if e.group(1) < probe]
            at = before[-1].end() if before else (entries[0].start() if entries else len(text))
            if not text[:at].endswith("\n\n"):
                block = "\n" + block
            text = text[:at] + block + text[at:]
        merged += 1
    open(target, "w").write(text)
    print(f"{merged} entries merged into {target}, {len(skipped)} not (no pass in {record})")
    for p in skipped:
        print("  not merged: " + p)
    return 1 if skipped else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
