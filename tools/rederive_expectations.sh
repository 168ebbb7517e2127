#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Re-derives expectations from every run record in expectations/evidence/ with the band
# policy (expectations/evidence/policy.toml; README.md, "Band policy"), then lints.
#
#   tools/rederive_expectations.sh                 # expectations/sm_90.toml from the base SKU's boards
#   tools/rederive_expectations.sh --sku 0x2335    # expectations/sku/0x2335.toml from that SKU's boards only
#   tools/rederive_expectations.sh --sku 0x2335 --board-part 692-2G520-0282-000
#       # expectations/sku/0x2335/692-2G520-0282-000.toml: the probes policy.toml's [[board_part]] splits,
#       # from the boards of that part number only (as their records' gpu_state names it)
# Run records are named <arch>-<PCI device id>-<date>[-...].jsonl.
#
# Needs no GPU. Keeps `cite:` entries, exact entries' model ids, `sass` lists, `at_max_clock`
# and waivers; leaves out the runs the policy retires ([[exclude]]: one board's runs;
# [[supersede]]: every run of some probes measured before a fix, by the run's time), so a new
# record of the same naming is picked up as it is. Prints each class's spread as these
# records show it: raise a class whose stated spread_rel is below (tests/unit/
# committed_policy_test.cpp says so too). Extra arguments go to `record`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gpuconform="${GPUCONFORM:-$root/build/bin/gpuconform}"
arch="${ARCH:-sm_90}"
[[ -x "$gpuconform" ]] || { echo "rederive: build $gpuconform first (cmake --build build --target gpuconform)" >&2; exit 2; }

out="$root/expectations/$arch.toml"
# The architecture file describes one SKU (sm_90.toml: the H100 SXM5, 0x2330); other
# SKUs of the architecture get overlays derived from their own boards with --sku.
base_sku="${BASE_SKU:-0x2330}"
pattern="$arch-$base_sku-*.jsonl"
extra=()
if [[ "${1:-}" == "--sku" ]]; then
  [[ -n "${2:-}" ]] || { echo "rederive: --sku needs a PCI device id, e.g. --sku 0x2335" >&2; exit 2; }
  mkdir -p "$root/expectations/sku"
  out="$root/expectations/sku/$2.toml"
  extra=(--sku "$2" --base "$root/expectations/$arch.toml")
  pattern="$arch-$2-*.jsonl"
  sku="$2"
  shift 2
  if [[ "${1:-}" == "--board-part" ]]; then
    [[ -n "${2:-}" ]] || { echo "rederive: --board-part needs an NVML board part number, e.g. 692-2G520-0282-001" >&2; exit 2; }
    mkdir -p "$root/expectations/sku/$sku"
    out="$root/expectations/sku/$sku/$2.toml"
    extra+=(--board-part "$2")
    shift 2
  fi
fi

shopt -s nullglob
records=("$root"/expectations/evidence/$pattern)
(( ${#records[@]} )) || { echo "rederive: no run records expectations/evidence/$pattern" >&2; exit 2; }
"$gpuconform" record --from "${records[@]}" --out "$out" \
    --policy "$root/expectations/evidence/policy.toml" "${extra[@]}" "$@"
if [[ -f "$out" ]]; then "$gpuconform" lint "$out"; fi
