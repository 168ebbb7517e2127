// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pipe protocol between the runner (parent) and a worker process that runs
// probes on one GPU. The worker writes one JSON object per line, per event, on
// a descriptor of its own (not stdout, which probes and the CUDA runtime may
// write to):
//
//   {"event":"device","device":{...}}        the GPU opened; its identity (first line)
//   {"event":"device_error","error":"..."}   the GPU could not be opened (then exit)
//   {"event":"starting","probe":"ID"}        the probe's time limit starts now
//   {"event":"finished","probe":"ID","record":{...}}  its run record line (verdict inside)
//   {"event":"fatal","error":"..."}          the worker cannot go on (e.g. expectations)
//   {"event":"done"}                         every probe it was given has finished
//
// Everything else (time limits, restarts, the run record) is the parent's:
// a worker that stops writing is killed, one that dies is replaced. Nothing
// in the protocol is per-GPU state, so one parent can supervise one worker per
// GPU at once.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "gpuconform/device_info.hpp"

namespace gpuconform {

enum class WorkerEventKind { device, device_error, starting, finished, fatal, done };
const char* worker_event_name(WorkerEventKind kind);

struct WorkerEvent {
  WorkerEventKind kind = WorkerEventKind::done;
  std::string probe;                 // starting, finished
  nlohmann::json record;             // finished: the run record line
  std::optional<DeviceInfo> device;  // device
  std::string error;                 // device_error, fatal
};

// One line, newline-terminated.
std::string encode_worker_event(const WorkerEvent& event);
// Parses one line (without the newline). Throws std::runtime_error naming
// what is wrong: not JSON, an unknown event, a missing field.
WorkerEvent decode_worker_event(std::string_view line);

// Every DeviceInfo field, so the parent sees exactly what the worker queried
// (device_json in run records is for people and drops some).
nlohmann::json device_to_wire(const DeviceInfo& d);
DeviceInfo device_from_wire(const nlohmann::json& j);

// Writes the whole event to `fd`, retrying short writes. Throws
// std::runtime_error when the parent is gone.
void write_worker_event(int fd, const WorkerEvent& event);

// Splits a byte stream into lines; reads from a pipe arrive in arbitrary pieces.
class LineSplitter {
 public:
  void feed(std::string_view bytes) { pending_.append(bytes); }
  std::optional<std::string> next_line();
  // Bytes after the last newline (a worker that died mid-line).
  const std::string& remainder() const { return pending_; }

 private:
  std::string pending_;
};

}  // namespace gpuconform
