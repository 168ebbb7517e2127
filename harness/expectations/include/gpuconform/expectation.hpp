// SPDX-License-Identifier: Apache-2.0
#pragma once
// Expectations are data: one TOML file per architecture (sm_XX.toml), SKU
// overlays keyed by PCI device id (sku/0xNNNN.toml), and an optional user
// overlay. Every entry carries a unit and its provenance. The schema is
// strict: an unknown key, a wrong type or a missing field is an error with
// file:line:col, so a typo can never silently disable a check.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/expectation_types.hpp"

namespace gpuconform {

// Parses one file. Problems are appended to `diagnostics`; the returned file
// holds the entries that parsed cleanly. `known_probe` (optional) flags
// entries whose id names no registered probe.
using ProbeIdCheck = std::function<bool(const std::string&)>;
ExpectationFile parse_expectation_text(std::string_view text, const std::string& path,
                                       std::vector<Diagnostic>& diagnostics, const ProbeIdCheck& known_probe = {},
                                       const std::vector<std::string>& probe_ids = {});
ExpectationFile parse_expectation_file(const std::string& path, std::vector<Diagnostic>& diagnostics,
                                       const ProbeIdCheck& known_probe = {},
                                       const std::vector<std::string>& probe_ids = {});

struct ExpectationQuery {
  std::string dir;                    // the expectations directory
  std::string arch;                   // "sm_90"
  std::string sku;                    // "0x2330" or ""
  // The board's NVML board part number ("692-2G520-0282-001"), or "" where NVML cannot say:
  // with a SKU, sku/<sku>/<board_part>.toml applies after the SKU overlay where it exists.
  std::string board_part;
  std::vector<std::string> overlays;  // user files, applied last
  ProbeIdCheck known_probe;
  std::vector<std::string> probe_ids;  // for "did you mean" hints
};

// Whether `text` can be a board part number and so a file name: letters, digits, '-', '.', '_'
// (never a path: no '/', no "..").
bool is_board_part_number(const std::string& text);

// dir/sku/<sku>/<board part>.toml: the board-part overlay of boards of that part number, for
// the entries whose healthy values split by board part (policy.toml [[board_part]]).
std::string board_part_overlay_path(const std::string& dir, const std::string& sku, const std::string& board_part);

// Loads and merges the files for one device. A missing architecture file is
// not an error (the set is empty and every probe skips with a hint); a
// missing user overlay or any invalid file throws ExpectationError.
ExpectationSet load_expectations(const ExpectationQuery& query);

}  // namespace gpuconform
