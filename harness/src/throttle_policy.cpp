// The throttle policy file (throttle_policy.hpp).
#include "gpuconform/throttle_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "gpuconform/expectation.hpp"  // default_expectations_dir
#include "gpuconform/gpu_state.hpp"        // clock_event_known
#include "gpuconform/toml_guard.hpp"

namespace gpuconform {

bool ThrottlePolicy::is_fault(const std::string& event) const {
  return std::find(faults.begin(), faults.end(), event) != faults.end();
}

ThrottlePolicy parse_throttle_policy_text(std::string_view text, const std::string& path,
                                          std::vector<Diagnostic>& diagnostics) {
  ThrottlePolicy policy;
  policy.source = path;
  if (const auto at = toml_unsafe_character(text)) {
    diagnostics.push_back({Location{path, at->line, at->column}, kTomlUnsafeCharacterMessage});
    return policy;
  }
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& err) {
    const auto& b = err.source().begin;
    diagnostics.push_back({Location{path, static_cast<int>(b.line), static_cast<int>(b.column)},
                           std::string(err.description())});
    return policy;
  }
  auto where = [&](const toml::node& n) {
    const auto& b = n.source().begin;
    return Location{path, static_cast<int>(b.line), static_cast<int>(b.column)};
  };
  for (const auto& [key, node] : root) {
    if (key.str() != "fault") {
      diagnostics.push_back({where(node), fmt::format("unknown key '{}' (the file has one key: fault)", key.str())});
      continue;
    }
    const toml::array* list = node.as_array();
    if (!list) {
      diagnostics.push_back({where(node), "fault must be an array of clock-event names"});
      continue;
    }
    for (const toml::node& item : *list) {
      const auto name = item.value<std::string>();
      if (!name) {
        diagnostics.push_back({where(item), "a clock-event name is a string"});
      } else if (!clock_event_known(*name)) {
        diagnostics.push_back({where(item), fmt::format("unknown clock event '{}' (NVML's names, gpu_state.cpp: "
                                                        "sw_power_cap, hw_slowdown, sw_thermal_slowdown, "
                                                        "hw_thermal_slowdown, hw_power_brake_slowdown, sync_boost, ...)",
                                                        *name)});
      } else {
        policy.faults.push_back(*name);
      }
    }
  }
  return policy;
}

const ThrottlePolicy& throttle_policy() {
  static std::mutex mutex;
  static std::optional<ThrottlePolicy> cached;
  std::lock_guard<std::mutex> lock(mutex);
  if (cached) return *cached;
  const std::string path = (std::filesystem::path(default_expectations_dir()) / "evidence" / "throttle_policy.toml").string();
  std::ifstream in(path);
  if (!in) {
    cached = ThrottlePolicy{};
    return *cached;
  }
  std::ostringstream os;
  os << in.rdbuf();
  std::vector<Diagnostic> diagnostics;
  ThrottlePolicy policy = parse_throttle_policy_text(os.str(), path, diagnostics);
  if (!diagnostics.empty()) {
    std::string text;
    for (const auto& d : diagnostics) text += (text.empty() ? "" : "; ") + d.str();
    throw std::runtime_error("the throttle policy is malformed: " + text);
  }
  cached = std::move(policy);
  return *cached;
}

}  // namespace gpuconform
