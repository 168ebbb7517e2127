#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tools/device/wgmma_sp_merge.py on a made-up expectation file and run record: only probes
that passed are merged, each citing its record line with the record's seconds and compared
outputs; a new entry lands after the last entry sorting before it, an existing one is
replaced in place; nothing else of the file changes; a second merge changes nothing.
Usage: wgmma_sp_merge_check.py REPO_ROOT"""
import json
import os
import subprocess
import sys
import tempfile

root = sys.argv[1]
merge = os.path.join(root, "tools/device/wgmma_sp_merge.py")
overlay = os.path.join(root, "tools/device/wgmma_sp_hypothesis_overlay.toml")
ours = ["numeric.wgmma_sp.m64n8k32.f32.f16.sel0", "numeric.feature.wgmma_sp.f32.f16.sparse_products",
        "numeric.feature.wgmma_sp.s32.s8.model"]

with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "evidence"))
    target = os.path.join(d, "sm_90.toml")
    head = '# header\n\n[meta]\narch = "sm_90"\n\n'
    before = '[probe."numeric.feature.wgmma.s32.s8.model"]\nkind = "exact"\nmodel = "param:model=exact.s32.wrap"\nunit = "mismatches"\nsource = "run:evidence/x.jsonl:1"\n\n'
    old = ('[probe."numeric.wgmma_sp.m64n8k32.f32.f16.sel0"]\nkind = "exact"\nmodel = "stale"\nunit = "mismatches"\n'
           'source = "run:evidence/old.jsonl:9"\n\n')
    after = '[probe."numeric.wmma.m16n16k16.f32.f16"]\nkind = "exact"\nmodel = "m"\nunit = "mismatches"\nsource = "run:evidence/x.jsonl:2"\n'
    open(target, "w").write(head + before + old + after)
    record = os.path.join(d, "evidence", "r.jsonl")
    lines = [{"record": "run"}] + [
        {"record": "test", "probe": p, "verdict": "pass" if p != ours[2] else "fail", "seconds": 0.25,
         "measured": {"compared": 512}} for p in ours]
    open(record, "w").write("\n".join(json.dumps(j) for j in lines) + "\n")
    run = subprocess.run([sys.executable, merge, overlay, record, target], capture_output=True, text=True)
    assert run.returncode == 1, run  # the failed probe is not merged
    assert "not merged: numeric.feature.wgmma_sp.s32.s8.model" in run.stdout, run.stdout
    text = open(target).read()
    assert text.startswith(head + before), text[:400]
    assert text.endswith(after), text[-400:]
    assert "stale" not in text and text.count("numeric.wgmma_sp.m64n8k32.f32.f16.sel0") == 1, text
    assert 'source = "run:evidence/r.jsonl:2"' in text and 'source = "run:evidence/r.jsonl:3"' in text, text
    assert "numeric.feature.wgmma_sp.s32.s8.model" not in text
    # sorted placement: the feature entry between the dense feature entry and the bit-exact one
    assert text.index("numeric.feature.wgmma.s32.s8.model") < text.index(ours[1]) < text.index(ours[0]) < text.index(
        "numeric.wmma."), text
    assert "seconds = 0.25" in text and "512 outputs matched bit for bit" in text, text
    subprocess.run([sys.executable, merge, overlay, record, target], capture_output=True, text=True)
    assert open(target).read() == text, "a second merge changed the file"
print("ok")
