#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# list_coverage_check.sh GPUCONFORM EXPECTATIONS_DIR WORK_DIR: the shape of
# `gpuconform list --coverage` (text and --json) on the committed expectation files:
#   - a header naming every probe family, a "(registered)" row with each family's count, then one row per
#     sm_XX.toml, per SKU overlay and per board-part overlay, each family cell "judged/runnable" (judged <= runnable
#     <= registered), the recorded / no entry / unsupported totals and quick's judged/selected;
#   - --json: per file and family, judged + recorded_only + no_entry + unsupported equals the
#     family's registered probes, and quick judged <= selected;
#   - sm_90 judges every latency and numeric probe (but those awaiting their first recording,
#     listed in a tools/device/*_info_overlay.toml or *_hypothesis_overlay.toml, and the findings: an sm_90 entry of kind
#     info whose note begins "recorded, not judged: a finding." records a documented bound
#     a healthy board exceeds), and every probe quick selects there but
#     the GPU-to-GPU ones (no p2p entry in the H100 file);
#   - --arch narrows to one file; an unknown --arch exits 2.
set -euo pipefail
bin="$1" dir="$2" work="$3"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

"$bin" list --coverage --expectations "$dir" >"$work/coverage.txt" || fail "list --coverage exited $?"
cat "$work/coverage.txt"
header="$(head -n 1 "$work/coverage.txt")"
for family in latency throughput numeric topology parallel p2p health; do
  [[ "$header" == *" $family"* ]] || fail "header lacks '$family': $header"
done
[[ "$header" == *"quick judged"* ]] || fail "header lacks 'quick judged'"
grep -qE '^\(registered\)( +[0-9]+){7}$' "$work/coverage.txt" || fail "no '(registered)' row with 7 counts"
shopt -s nullglob
files=()
for f in "$dir"/sm_*.toml; do files+=("$(basename "$f")"); done
for f in "$dir"/sku/0x*.toml; do files+=("sku/$(basename "$f")"); done
# board-part overlays (sku/0xNNNN/<part>.toml): a row each, on top of their SKU's overlay
for f in "$dir"/sku/0x*/*.toml; do files+=("sku/$(basename "$(dirname "$f")")/$(basename "$f")"); done
((${#files[@]} > 0)) || fail "no expectation file in $dir"
for f in "${files[@]}"; do
  row="$(grep -E "^${f//./\\.} " "$work/coverage.txt")" || fail "no row for $f"
  # file, 7 family cells J/R, recorded, no entry, unsupported, quick J/S
  [[ "$row" =~ ^[^\ ]+(\ +[0-9]+/[0-9]+){7}\ +[0-9]+\ +[0-9]+\ +[0-9]+\ +[0-9]+/[0-9]+$ ]] ||
    fail "row of $f has not the shape 'file 7 x J/R recorded none unsupported J/S': $row"
done

"$bin" list --coverage --json --expectations "$dir" >"$work/coverage.json" || fail "list --coverage --json exited $?"
python3 - "$work/coverage.json" "${#files[@]}" "$dir/../tools/device" "$dir/sm_90.toml" <<'EOF'
import glob, json, os, re, sys
d = json.load(open(sys.argv[1]))
# Probes awaiting their first recording: the ids of the record-only overlays under
# tools/device/ (e.g. new_probes_info_overlay.toml), and of the hypothesis overlays their
# first run judges (wgmma_sp_hypothesis_overlay.toml), may still lack an sm_90 entry.
pending, pending_groups = {}, set()
for path in glob.glob(os.path.join(sys.argv[3], "*_info_overlay.toml")) + \
        glob.glob(os.path.join(sys.argv[3], "*_hypothesis_overlay.toml")):
    for pid in re.findall(r'^\[probe\."([^"]+)"\]', open(path).read(), re.M):
        pending[pid.split(".")[0]] = pending.get(pid.split(".")[0], 0) + 1
        pending_groups.add(".".join(pid.split(".")[:2]))
# Findings: sm_90 entries recorded, not judged, because a healthy board exceeds the documented bound.
sm90 = open(sys.argv[4]).read()
for pid in re.findall(r'^\[probe\."([^"]+)"\]\nkind = "info"\n(?:[a-z_]+ = .*\n)*?note = "recorded, not judged: a finding\.',
                      sm90, re.M):
    pending[pid.split(".")[0]] = pending.get(pid.split(".")[0], 0) + 1
registered = d["registered"]
assert len(d["files"]) == int(sys.argv[2]), f"{len(d['files'])} files in the JSON, {sys.argv[2]} on disk"
for f in d["files"]:
    for fam, c in f["families"].items():
        total = c["judged"] + c["recorded_only"] + c["no_entry"] + c["unsupported"]
        assert total == registered[fam], f"{f['file']} {fam}: {total} classified, {registered[fam]} registered"
    assert 0 <= f["quick"]["judged"] <= f["quick"]["selected"], f
    if f["file"].count("/") == 2:  # sku/0xNNNN/<part>.toml names its part and SKU
        assert f.get("board_part") == f["file"].split("/")[2][:-5] and f.get("sku") == f["file"].split("/")[1], f
    if f["file"] == "sm_90.toml":
        for fam in ("latency", "numeric"):
            c = f["families"][fam]
            assert c["judged"] + pending.get(fam, 0) >= registered[fam] and c["unsupported"] == 0, f"sm_90 {fam}: {c}"
        p2p = registered["p2p"]
        # quick picks one probe of a group without entries (its skip says why): at most one per pending group
        assert f["quick"]["selected"] - f["quick"]["judged"] <= p2p + len(pending_groups), f["quick"]
print("json ok:", len(d["files"]), "files,", sum(registered.values()), "probes")
EOF

"$bin" list --coverage --arch sm_90 --expectations "$dir" >"$work/sm90.txt" || fail "--arch sm_90 exited $?"
grep -qE '^sm_90\.toml ' "$work/sm90.txt" || fail "--arch sm_90 printed no sm_90 row"
if grep -qE '^sm_80\.toml ' "$work/sm90.txt"; then fail "--arch sm_90 printed another architecture"; fi
set +e
"$bin" list --coverage --arch sm_12 --expectations "$dir" >"$work/sm12.txt" 2>&1
rc=$?
set -e
((rc == 2)) || fail "--arch sm_12 exited $rc, not 2: $(cat "$work/sm12.txt")"
echo ok
