// SPDX-License-Identifier: Apache-2.0
// The throttle policy file (throttle_policy.hpp).
#include "gpuconform/throttle_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "gpuconform/expectation_types.hpp"  // default_expectations_dir
#include "gpuconform/gpu_state.hpp"          // clock_event_known
#include "gpuconform/toml_reader.hpp"

namespace gpuconform {

bool ThrottlePolicy::is_fault(const std::string& event) const {
  return std::find(faults.begin(), faults.end(), event) != faults.end();
}

namespace {

// One key, `fault`: an array of clock-event names (throttle_policy.hpp).
class ThrottlePolicyParser : TomlReader {
 public:
  using TomlReader::TomlReader;

  ThrottlePolicy parse(std::string_view text) {
    ThrottlePolicy policy;
    policy.source = path();
    const std::optional<toml::table> root = parse_document(text);
    if (!root) return policy;
    for (const auto& [key, node] : *root) {
      if (key.str() != "fault") {
        error(node, fmt::format("unknown key '{}' (the file has one key: fault)", key.str()));
        continue;
      }
      const toml::array* list = node.as_array();
      if (!list) {
        error(node, "fault must be an array of clock-event names");
        continue;
      }
      for (const toml::node& item : *list) {
        const auto name = item.value<std::string>();
        if (!name) {
          error(item, "a clock-event name is a string");
        } else if (!clock_event_known(*name)) {
          error(item, fmt::format("unknown clock event '{}' (NVML's names, gpu_state.cpp: "
                                  "sw_power_cap, hw_slowdown, sw_thermal_slowdown, "
                                  "hw_thermal_slowdown, hw_power_brake_slowdown, sync_boost, ...)",
                                  *name));
        } else {
          policy.faults.push_back(*name);
        }
      }
    }
    return policy;
  }
};

}  // namespace

ThrottlePolicy parse_throttle_policy_text(std::string_view text, const std::string& path,
                                          std::vector<Diagnostic>& diagnostics) {
  return ThrottlePolicyParser(path, diagnostics).parse(text);
}

const ThrottlePolicy& throttle_policy() {
  static std::mutex mutex;
  static std::optional<ThrottlePolicy> cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (cached) return *cached;
  const std::string path =
      (std::filesystem::path(default_expectations_dir()) / "evidence" / "throttle_policy.toml").string();
  const std::optional<std::string> text = read_text_file(path);
  if (!text) {
    cached = ThrottlePolicy{};
    return *cached;
  }
  std::vector<Diagnostic> diagnostics;
  ThrottlePolicy policy = parse_throttle_policy_text(*text, path, diagnostics);
  if (!diagnostics.empty()) {
    std::string text;
    for (const auto& d : diagnostics) text += (text.empty() ? "" : "; ") + d.str();
    throw std::runtime_error("the throttle policy is malformed: " + text);
  }
  cached = std::move(policy);
  return *cached;
}

}  // namespace gpuconform
