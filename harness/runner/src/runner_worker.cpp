// SPDX-License-Identifier: Apache-2.0
// The worker side of the runner: the only process that touches the GPU. It
// runs the probes it was given in order and reports each on the pipe
// (runner_protocol.hpp). After each probe it checks the CUDA context: a
// sticky error (illegal address, launch failure) poisons every later call in
// this process, so the probe fails with the error's name and the worker exits;
// the parent continues with a fresh worker.
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "gpuconform/gpu_lock.hpp"
#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/runner.hpp"
#include "gpuconform/selftest_injection.hpp"

namespace gpuconform {
namespace {

// Probes of this group copy over the host's PCIe link, which the GPUs of a node share.
constexpr const char* kHostLinkGroup = "throughput.pcie";
// /tmp, not $TMPDIR, for the reason gpu_lock_path gives.
constexpr const char* kHostLinkLockPath = "/tmp/gpuconform-host-link.lock";

// The context's health after a probe; "" when it is usable.
std::string context_error() {
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return fmt::format("{}: {}", cudaGetErrorName(e), cudaGetErrorString(e));
  // A non-sticky error the probe already saw (and handled or reported) stays in the
  // runtime's last-error slot: clear it so the next probe starts clean.
  cudaGetLastError();
  return {};
}

int work(const WorkerArgs& a) {
  auto emit = [&](WorkerEvent e) { write_worker_event(a.report_fd, e); };
  DeviceInfo device;
  std::vector<DeviceInfo> peers;
  selftest::InjectionRequest injection_request;  // self-test fault injection (docs/selftest.md), normally off
  try {
    std::string why;
    const int count = device_count(&why);
    if (count == 0) throw std::runtime_error(why);
    if (a.device < 0 || a.device >= count)
      throw std::runtime_error(fmt::format("there is no GPU {} (this machine has {})", a.device, count));
    for (int peer : a.peers) {
      if (peer < 0 || peer >= count || peer == a.device)
        throw std::runtime_error(fmt::format("--peer {} is not another GPU of this machine ({} GPUs)", peer, count));
      peers.push_back(query_device(peer));
    }
    device = query_device(a.device);  // last: it makes this GPU current
    // Bad injection settings fail here, in the describe worker, before any probe runs.
    injection_request = selftest::injection_from_env();
    if (injection_request.active()) selftest::check_injection(a.device, injection_request);
  } catch (const std::exception& err) {
    emit({WorkerEventKind::device_error, {}, {}, {}, err.what()});
    return kWorkerExitNoDevice;
  }
  emit({WorkerEventKind::device, {}, {}, device, {}});
  if (a.describe) return kWorkerExitDone;
  for (unsigned pid : a.own_pids) add_own_process(pid);

  ExpectationSet expectations;
  try {
    expectations = load_device_expectations(device, a.expectations_dir, a.overlays);
  } catch (const std::exception& err) {
    emit({WorkerEventKind::fatal, {}, {}, {}, fmt::format("cannot load the expectations: {}", err.what())});
    return kWorkerExitFatal;
  }
  // A quick run disassembles only when one of its entries asserts opcodes: otherwise the
  // notes are informational and tens of seconds of cuobjdump would exceed its budget.
  if (a.quick) {
    bool asserts_opcodes = false;
    for (const std::string& id : a.probes)
      if (const Expectation* e = expectations.find(id); e && !e->sass.empty()) asserts_opcodes = true;
    sass::allow_cold_disassembly(asserts_opcodes);
  }
  const Registry& registry = Registry::instance();
  // Before the first probe's clock starts: a cold SASS cache costs tens of seconds of
  // cuobjdump (about 30 s on an H100 node), which would otherwise count against that
  // probe's time limit. Only the latency and throughput probes note the SASS of their
  // timed code, so a run of other families (numeric, topology) does not wait for it.
  bool notes_sass = false;
  for (const std::string& id : a.probes)
    if (const Probe* probe = registry.find(id))
      notes_sass |= probe->family == Family::latency || probe->family == Family::throughput;
  if (notes_sass) sass::load_disassembly(device.arch());
  // Self-test fault injection: from here on this thread's probes run in a green context
  // (use_device() keeps it current), beside the HBM thief if one was asked for.
  std::unique_ptr<selftest::Injection> injection;
  if (injection_request.active()) {
    try {
      injection = selftest::Injection::start(a.device, injection_request);
    } catch (const std::exception& err) {
      emit({WorkerEventKind::fatal, {}, {}, {}, err.what()});
      return kWorkerExitFatal;
    }
    std::fprintf(stderr, "%s\n", injection->summary().c_str());
    std::fflush(stderr);
  }
  set_planned_probes(a.probes);
  for (const std::string& id : a.probes) {
    const Probe* probe = registry.find(id);
    if (!probe) {
      emit({WorkerEventKind::fatal, {}, {}, {}, fmt::format("the worker knows no probe {}", id)});
      return kWorkerExitFatal;
    }
    // The host link is shared by every GPU of the node: with all GPUs running at once,
    // two PCIe copy probes would measure each other. They take turns (before "starting",
    // so the wait counts against the worker's start limit, not the probe's own).
    std::optional<GpuLock> host_link;
    if (probe_group(id) == kHostLinkGroup)
      host_link.emplace(kHostLinkLockPath, [] {});
    emit({WorkerEventKind::starting, id, {}, {}, {}});
    TestResult result = run_conformance_test(*probe, device, expectations, RunOptions{a.quick, peers});
    host_link.reset();
    const std::string lost = context_error();
    if (!lost.empty()) {
      const std::string consequence =
          fmt::format("the CUDA context is lost ({}); the remaining probes run in a fresh process", lost);
      result.verdict = result.verdict.outcome == Outcome::fail
                           ? Verdict{Outcome::fail, result.verdict.reason + "; " + consequence}
                           : Verdict{Outcome::fail, "the probe left a sticky CUDA error: " + consequence};
    }
    nlohmann::json line = record_json(result, device);
    if (injection) line["selftest_injection"] = injection->to_json();  // such a line is never evidence
    emit({WorkerEventKind::finished, id, line, {}, {}});
    if (!lost.empty()) {
      // No teardown of a broken context (it can hang): the driver reclaims it when
      // the process ends, and the parent sees the pipe close at once.
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(kWorkerExitContextLost);
    }
    if (injection)
      if (const std::string why = injection->thief_error(); !why.empty()) {
        emit({WorkerEventKind::fatal, {}, {}, {},
              fmt::format("self-test injection: the HBM thief stopped ({}); the remaining probes would not meet it",
                          why)});
        return kWorkerExitFatal;
      }
  }
  emit({WorkerEventKind::done, {}, {}, {}, {}});
  ::close(a.report_fd);  // the parent stops waiting now, however long CUDA's teardown takes
  return kWorkerExitDone;
}

}  // namespace

int run_worker(const WorkerArgs& args) {
  // A worker outlives nothing: if the runner dies, so does its worker (and its hung kernel).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  try {
    return work(args);
  } catch (const std::exception&) {  // the runner is gone (broken pipe): nobody to tell
    return kWorkerExitFatal;
  }
}

}  // namespace gpuconform
