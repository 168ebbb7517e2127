// SPDX-License-Identifier: Apache-2.0
// Self-test fault injection, the CPU side: the variables, the partition arithmetic, the
// messages and the marks a run with injection leaves (selftest_injection.hpp).
#include "gpuconform/selftest_injection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>

namespace gpuconform::selftest {
namespace {

constexpr const char* kOff = "unset it to run without injection";

// A whole number, optionally negative; nothing else (no blanks, no sign without digits).
std::optional<long long> whole_number(const std::string& text) {
  std::size_t i = text.size() > 0 && text[0] == '-' ? 1 : 0;
  if (i == text.size() || text.size() - i > 6) return std::nullopt;
  for (std::size_t j = i; j < text.size(); ++j)
    if (text[j] < '0' || text[j] > '9') return std::nullopt;
  return std::stoll(text);
}

std::string geometry_text(const SmGeometry& g) {
  const int rest = g.total_sms - g.partitionable();
  return fmt::format("the driver partitions this GPU's {} SMs in groups of {} ({} group{}{})", g.total_sms, g.group_sms,
                     g.groups, g.groups == 1 ? "" : "s",
                     rest > 0 ? fmt::format(", {} SM{} in no group", rest, rest == 1 ? "" : "s") : "");
}

const char* env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

std::string InjectionRequest::settings() const {
  std::string out;
  if (!sm_limit_text.empty()) out += fmt::format("{}={}", kSmLimitVar, sm_limit_text);
  if (!thief_text.empty()) out += fmt::format("{}{}={}", out.empty() ? "" : " ", kHbmThiefVar, thief_text);
  return out;
}

InjectionRequest parse_injection(const char* sm_limit, const char* thief) {
  InjectionRequest r;
  r.sm_limit_text = sm_limit ? sm_limit : "";
  r.thief_text = thief ? thief : "";
  if (!r.sm_limit_text.empty()) {
    const auto n = whole_number(r.sm_limit_text);
    if (!n || *n == 0)
      throw InjectionError(fmt::format(
          "{}='{}' is not a number of SMs: set it to the SMs the probes may use (e.g. 120 on a 132-SM H100) or "
          "to -M for M fewer than the GPU has (e.g. -12), or {}",
          kSmLimitVar, r.sm_limit_text, kOff));
    r.sm_limit = static_cast<int>(*n);
  }
  if (!r.thief_text.empty()) {
    const auto k = whole_number(r.thief_text);
    if (!k || *k <= 0)
      throw InjectionError(
          fmt::format("{}='{}' is not a number of SMs: set it to the SMs of the HBM-streaming kernel (e.g. 8), or {}",
                      kHbmThiefVar, r.thief_text, kOff));
    r.thief_sms = static_cast<int>(*k);
  }
  return r;
}

InjectionRequest injection_from_env() { return parse_injection(std::getenv(kSmLimitVar), std::getenv(kHbmThiefVar)); }

bool injection_requested() { return *env_or_empty(kSmLimitVar) != '\0' || *env_or_empty(kHbmThiefVar) != '\0'; }

std::string possible_sm_limits(const SmGeometry& g) {
  std::vector<int> values;
  for (int n = 1; n <= g.groups; ++n)
    if (n * g.group_sms < g.total_sms) values.push_back(n * g.group_sms);
  if (values.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values.size() > 20 && i == 3) {
      out += ", ...";
      i = values.size() - 2;
      continue;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(values[i]);
  }
  return out;
}

SmPlan plan_sm_partition(const InjectionRequest& request, const SmGeometry& g) {
  if (g.group_sms <= 0 || g.groups < 2 || g.partitionable() > g.total_sms)
    throw InjectionError(fmt::format(
        "self-test injection needs at least 2 SM groups; the driver offers {} group(s) of {} SMs of this GPU's {} "
        "(cuDevSmResourceSplitByCount)",
        g.groups, g.group_sms, g.total_sms));
  const std::string possible = fmt::format("possible values here: {}", possible_sm_limits(g));
  SmPlan plan;
  if (request.thief_sms) {
    const int k = *request.thief_sms;
    if (k % g.group_sms != 0)
      throw InjectionError(fmt::format("{}={} is not possible: {}; use a multiple of {} (e.g. {})", kHbmThiefVar, k,
                                       geometry_text(g), g.group_sms, g.group_sms));
    if (k > g.partitionable() - g.group_sms)
      throw InjectionError(fmt::format("{}={} leaves no SMs for the probes: {}; use at most {}", kHbmThiefVar, k,
                                       geometry_text(g), g.partitionable() - g.group_sms));
    plan.thief_sms = k;
    plan.thief_groups = k / g.group_sms;
  }
  if (request.sm_limit) {
    int n = *request.sm_limit;
    std::string asked = fmt::format("{}={}", kSmLimitVar, n);
    if (n < 0) {  // M fewer than the GPU has, rounded down to a whole number of groups
      const int wanted = g.total_sms + n;
      n = std::max(0, wanted) / g.group_sms * g.group_sms;
      n = std::min(n, g.partitionable());
      asked += fmt::format(" (this GPU's {} SMs less {} = {}, rounded down to a multiple of {}: {})", g.total_sms,
                           -*request.sm_limit, wanted, g.group_sms, n);
      if (n <= 0)
        throw InjectionError(fmt::format("{} leaves no SMs for the probes: {}; {}", asked, geometry_text(g), possible));
    }
    if (n % g.group_sms != 0)
      throw InjectionError(fmt::format("{} is not possible: {}; {}", asked, geometry_text(g), possible));
    if (n >= g.total_sms)
      throw InjectionError(fmt::format("{} takes no SM away from this GPU's {}: {}; {}", asked, g.total_sms,
                                       geometry_text(g), possible));
    if (n > g.partitionable())
      throw InjectionError(fmt::format("{} is more than the driver can put in one partition: {}; {}", asked,
                                       geometry_text(g), possible));
    if (n + plan.thief_sms > g.partitionable())
      throw InjectionError(fmt::format(
          "{} and {}={} need {} SMs together, more than the {} the driver can partition: {}; lower one of them", asked,
          kHbmThiefVar, plan.thief_sms, n + plan.thief_sms, g.partitionable(), geometry_text(g)));
    plan.probe_sms = n;
  } else {
    plan.probe_sms = g.partitionable() - plan.thief_sms;  // the thief alone: the probes get every other group
  }
  plan.probe_groups = plan.probe_sms / g.group_sms;
  return plan;
}

std::string sm_id_ranges(std::vector<unsigned> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    out += (out.empty() ? "" : ", ") + (j == i ? std::to_string(ids[i]) : fmt::format("{}-{}", ids[i], ids[j]));
    i = j + 1;
  }
  return out;
}

std::string injection_banner() {
  if (!injection_requested()) return {};
  InjectionRequest raw;
  raw.sm_limit_text = env_or_empty(kSmLimitVar);
  raw.thief_text = env_or_empty(kHbmThiefVar);
  const std::string rule(100, '#');
  return fmt::format(
      "{0}\n# SELF-TEST FAULT INJECTION IS ON: {1}\n"
      "# Every worker runs its probes on a deliberately degraded GPU (a CUDA green context of fewer SMs and/or\n"
      "# beside an HBM-streaming kernel). Its verdicts say nothing about this board; its record is marked\n"
      "# \"selftest_injection\" and is no evidence (`gpuconform record --from` refuses it). docs/selftest.md\n{0}\n",
      rule, raw.settings());
}

nlohmann::json injection_header_json() {
  if (!injection_requested()) return nullptr;
  nlohmann::json env = nlohmann::json::object();
  for (const char* var : {kSmLimitVar, kHbmThiefVar})
    if (*env_or_empty(var) != '\0') env[var] = env_or_empty(var);
  return {{"env", env},
          {"note", "self-test fault injection: the probes ran on a deliberately degraded GPU; not evidence"}};
}

void announce_injection_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string banner = injection_banner();
    if (banner.empty()) return;
    std::fputs(banner.c_str(), stderr);
    std::fflush(stderr);
  });
}

std::optional<std::string> injected_record_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find("\"selftest_injection\"") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    const auto it = j.find("selftest_injection");
    if (it == j.end() || it->is_null()) continue;
    std::string settings;
    if (it->is_object())
      if (const auto env = it->find("env"); env != it->end() && env->is_object())
        for (const auto& [var, value] : env->items())
          settings += fmt::format("{}{}={}", settings.empty() ? "" : " ", var,
                                  value.is_string() ? value.get<std::string>() : value.dump());
    return fmt::format("{}:{}{}", path, n, settings.empty() ? "" : " (" + settings + ")");
  }
  return std::nullopt;
}

}  // namespace gpuconform::selftest
