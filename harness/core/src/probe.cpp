// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/probe.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace gpuconform {
namespace {

std::mutex planned_mutex;
std::vector<std::string>& planned() {
  static std::vector<std::string> ids;
  return ids;
}

}  // namespace

void set_planned_probes(std::vector<std::string> ids) {
  const std::lock_guard<std::mutex> lock(planned_mutex);
  planned() = std::move(ids);
}

std::vector<std::string> planned_probes() {
  const std::lock_guard<std::mutex> lock(planned_mutex);
  return planned();
}

const char* family_name(Family f) {
  switch (f) {
    case Family::latency: return "latency";
    case Family::throughput: return "throughput";
    case Family::numeric: return "numeric";
    case Family::topology: return "topology";
    case Family::parallel: return "parallel";
    case Family::selftest: return "selftest";
    case Family::p2p: return "p2p";
    case Family::health: return "health";
  }
  return "unknown";
}

const char* scope_name(Scope s) {
  switch (s) {
    case Scope::gpu: return "gpu";
    case Scope::pair: return "pair";
    case Scope::node: return "node";
  }
  return "unknown";
}

const std::vector<DeviceInfo>& require_peers(const ProbeContext& ctx) {
  if (ctx.peers.empty())
    throw ProbeSkipped(
        "needs a second GPU: this probe measures between GPUs, and this run has one (run without --device, "
        "or with --device A --device B, on a node of two or more GPUs)");
  return ctx.peers;
}

const std::string* Measurement::find_note(const std::string& key) const {
  for (const auto& [k, text] : notes)
    if (k == key) return &text;
  return nullptr;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

bool Registry::add(Probe probe) {
  if (find(probe.id)) throw std::logic_error("probe registered twice: " + probe.id);
  const std::string prefix = std::string(family_name(probe.family)) + ".";
  if (probe.id.rfind(prefix, 0) != 0)
    throw std::logic_error("probe id '" + probe.id + "' must start with '" + prefix + "'");
  probes_.push_back(std::move(probe));
  std::sort(probes_.begin(), probes_.end(),
            [](const Probe& a, const Probe& b) { return a.id < b.id; });
  return true;
}

bool register_probes(std::vector<Probe> probes) {
  for (Probe& p : probes) Registry::instance().add(std::move(p));
  return true;
}

const Probe* Registry::find(const std::string& id) const {
  for (const Probe& p : probes_)
    if (p.id == id) return &p;
  return nullptr;
}

std::vector<std::string> Registry::ids() const {
  std::vector<std::string> out;
  for (const Probe& p : probes_) out.push_back(p.id);
  return out;
}

bool selftest_enabled() {
  const char* v = std::getenv("GPUCONFORM_SELFTEST");
  return v && std::strcmp(v, "1") == 0;
}

bool is_selectable(const Probe& probe) { return probe.family != Family::selftest || selftest_enabled(); }

std::string test_suite_name(const Probe& probe) {
  std::string name = family_name(probe.family);
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

std::string test_name(const Probe& probe) {
  std::string rest = probe.id.substr(std::string(family_name(probe.family)).size() + 1);
  for (char& ch : rest)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return rest;
}

}  // namespace gpuconform
