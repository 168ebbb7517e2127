// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/runner_protocol.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpuconform {
namespace {

constexpr WorkerEventKind kKinds[] = {WorkerEventKind::device,   WorkerEventKind::device_error,
                                      WorkerEventKind::starting, WorkerEventKind::finished,
                                      WorkerEventKind::fatal,    WorkerEventKind::done};

std::string required_string(const nlohmann::json& j, const char* key, std::string_view line) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    throw std::runtime_error(std::string("worker event without a string \"") + key + "\": " + std::string(line));
  return it->get<std::string>();
}

}  // namespace

const char* worker_event_name(WorkerEventKind kind) {
  switch (kind) {
    case WorkerEventKind::device: return "device";
    case WorkerEventKind::device_error: return "device_error";
    case WorkerEventKind::starting: return "starting";
    case WorkerEventKind::finished: return "finished";
    case WorkerEventKind::fatal: return "fatal";
    case WorkerEventKind::done: return "done";
  }
  return "unknown";
}

nlohmann::json device_to_wire(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"cc_major", d.cc_major},
          {"cc_minor", d.cc_minor},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"shared_per_sm_bytes", d.shared_per_sm_bytes},
          {"shared_per_block_optin_bytes", d.shared_per_block_optin_bytes},
          {"global_mem_bytes", d.global_mem_bytes},
          {"max_sm_clock_khz", d.max_sm_clock_khz},
          {"mem_clock_khz", d.mem_clock_khz},
          {"mem_bus_width_bits", d.mem_bus_width_bits},
          {"pci_bus_id", d.pci_bus_id},
          {"pci_device_id", d.pci_device_id},
          {"pci_subsystem_id", d.pci_subsystem_id},
          {"uuid", d.uuid},
          {"driver_version", d.driver_version},
          {"cuda_driver_version", d.cuda_driver_version},
          {"cuda_runtime_version", d.cuda_runtime_version}};
}

DeviceInfo device_from_wire(const nlohmann::json& j) {
  DeviceInfo d;
  try {
    j.at("index").get_to(d.index);
    j.at("name").get_to(d.name);
    j.at("cc_major").get_to(d.cc_major);
    j.at("cc_minor").get_to(d.cc_minor);
    j.at("sm_count").get_to(d.sm_count);
    j.at("l2_bytes").get_to(d.l2_bytes);
    j.at("shared_per_sm_bytes").get_to(d.shared_per_sm_bytes);
    j.at("shared_per_block_optin_bytes").get_to(d.shared_per_block_optin_bytes);
    j.at("global_mem_bytes").get_to(d.global_mem_bytes);
    j.at("max_sm_clock_khz").get_to(d.max_sm_clock_khz);
    j.at("mem_clock_khz").get_to(d.mem_clock_khz);
    j.at("mem_bus_width_bits").get_to(d.mem_bus_width_bits);
    j.at("pci_bus_id").get_to(d.pci_bus_id);
    j.at("pci_device_id").get_to(d.pci_device_id);
    j.at("pci_subsystem_id").get_to(d.pci_subsystem_id);
    j.at("uuid").get_to(d.uuid);
    j.at("driver_version").get_to(d.driver_version);
    j.at("cuda_driver_version").get_to(d.cuda_driver_version);
    j.at("cuda_runtime_version").get_to(d.cuda_runtime_version);
  } catch (const nlohmann::json::exception& err) {
    throw std::runtime_error(std::string("worker sent an unreadable device: ") + err.what());
  }
  return d;
}

std::string encode_worker_event(const WorkerEvent& e) {
  nlohmann::json j = {{"event", worker_event_name(e.kind)}};
  switch (e.kind) {
    case WorkerEventKind::device: j["device"] = device_to_wire(*e.device); break;
    case WorkerEventKind::device_error:
    case WorkerEventKind::fatal: j["error"] = e.error; break;
    case WorkerEventKind::starting: j["probe"] = e.probe; break;
    case WorkerEventKind::finished:
      j["probe"] = e.probe;
      j["record"] = e.record;
      break;
    case WorkerEventKind::done: break;
  }
  // error_handler replace: a probe's note with invalid UTF-8 must not lose the verdict.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

WorkerEvent decode_worker_event(std::string_view line) {
  nlohmann::json j = nlohmann::json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    throw std::runtime_error("worker sent a line that is not a JSON object: " + std::string(line.substr(0, 200)));
  const std::string name = required_string(j, "event", line);
  WorkerEvent e;
  bool known = false;
  for (WorkerEventKind kind : kKinds)
    if (name == worker_event_name(kind)) {
      e.kind = kind;
      known = true;
    }
  if (!known) throw std::runtime_error("worker sent an unknown event \"" + name + "\"");
  switch (e.kind) {
    case WorkerEventKind::device:
      if (!j.contains("device") || !j["device"].is_object())
        throw std::runtime_error("worker \"device\" event without a device: " + std::string(line));
      e.device = device_from_wire(j["device"]);
      break;
    case WorkerEventKind::device_error:
    case WorkerEventKind::fatal: e.error = required_string(j, "error", line); break;
    case WorkerEventKind::starting: e.probe = required_string(j, "probe", line); break;
    case WorkerEventKind::finished:
      e.probe = required_string(j, "probe", line);
      if (!j.contains("record") || !j["record"].is_object())
        throw std::runtime_error("worker \"finished\" event without a record: " + std::string(line.substr(0, 200)));
      e.record = j["record"];
      break;
    case WorkerEventKind::done: break;
  }
  return e;
}

void write_worker_event(int fd, const WorkerEvent& event) {
  const std::string text = encode_worker_event(event);
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("cannot report to the runner: ") + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
}

std::optional<std::string> LineSplitter::next_line() {
  const std::size_t end = pending_.find('\n');
  if (end == std::string::npos) return std::nullopt;
  std::string line = pending_.substr(0, end);
  pending_.erase(0, end + 1);
  return line;
}

}  // namespace gpuconform
