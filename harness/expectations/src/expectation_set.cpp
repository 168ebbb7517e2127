// SPDX-License-Identifier: Apache-2.0
// Resolution of the expectation files for one device: the architecture file,
// the SKU overlay, the board-part overlay, then the user overlays (expectation.hpp).
#include <fmt/format.h>

#include <filesystem>

#include "gpuconform/expectation.hpp"

namespace gpuconform {

std::string board_part_overlay_path(const std::string& dir, const std::string& sku, const std::string& board_part) {
  return dir + "/sku/" + sku + "/" + board_part + ".toml";
}

ExpectationSet load_expectations(const ExpectationQuery& q) {
  namespace fs = std::filesystem;
  std::vector<Diagnostic> diags;
  ExpectationSet set;
  auto load = [&](const std::string& path, const char* role) {
    ExpectationFile f = parse_expectation_file(path, diags, q.known_probe, q.probe_ids);
    // An overlay written for another GPU would judge this one by that GPU's values: an
    // error naming both, for every file ("sm_any" is for every architecture).
    if (!f.arch.empty() && !q.arch.empty() && f.arch != "sm_any" && f.arch != q.arch)
      diags.push_back({Location{path, 0, 0}, fmt::format("{} is for {}, but the device is {}", role, f.arch, q.arch)});
    if (!f.sku.empty() && !q.sku.empty() && f.sku != q.sku)
      diags.push_back({Location{path, 0, 0},
                       fmt::format("{} is for SKU {}, but the device is SKU {} ({})", role, f.sku, q.sku, q.arch)});
    if (!f.board_part.empty() && f.board_part != q.board_part)
      diags.push_back(
          {Location{path, 0, 0}, fmt::format("{} is for board part {}, but the device is board part {}", role,
                                             f.board_part, q.board_part.empty() ? "unknown (no NVML)" : q.board_part)});
    set.apply(f);
  };
  const std::string arch_file = q.dir + "/" + q.arch + ".toml";
  if (fs::exists(arch_file)) load(arch_file, "architecture file");
  if (!q.sku.empty()) {
    const std::string sku_file = q.dir + "/sku/" + q.sku + ".toml";
    if (fs::exists(sku_file)) load(sku_file, "SKU overlay");
    // A part number NVML reports that cannot name a file has no overlay: the SKU's entries judge.
    if (is_board_part_number(q.board_part)) {
      const std::string part_file = board_part_overlay_path(q.dir, q.sku, q.board_part);
      if (fs::exists(part_file)) load(part_file, "board-part overlay");
    }
  }
  for (const std::string& overlay : q.overlays) {
    if (!fs::exists(overlay)) {
      diags.push_back({Location{overlay, 0, 0}, "overlay file not found"});
      continue;
    }
    load(overlay, "user overlay");
  }
  if (!diags.empty()) throw ExpectationError(std::move(diags));
  return set;
}

}  // namespace gpuconform
