// SPDX-License-Identifier: Apache-2.0
// Node health read through NVML (node_health.hpp), one judged entry per check of
// node_health_checks(), each an invariant:
// - health.ecc.enabled (min 1): ECC on;
// - health.ecc.volatile_uncorrected (max 0): no uncorrected ECC error since the driver loaded;
// - health.row_remap.pending / .failed (max 0): no row remap waiting for a reset, none failed;
// - health.retired_pages.pending (max 0): no page retirement waiting (pre-Ampere boards
//   retire pages; Ampere and later remap rows and answer NOT_SUPPORTED: a skip);
// - health.pcie.link_gen / .link_width (max 0): generations / lanes the PCIe link runs
//   below what it can reach (a link trained at x8 or Gen 4 is a common field fault);
// - health.throttle.idle (max 0): throttle reasons of the idle GPU;
// - health.inforom.valid (min 1): the inforom's checksum holds;
// - health.temperature.idle_margin (min 1 C): the idle GPU is below its slowdown threshold.
// A failure's reason names what is wrong ("PCIe link trained at Gen 4 x16, the link
// supports Gen 5 x16"). A check NVML cannot answer (no NVML, a missing entry point,
// NOT_SUPPORTED as ECC on a consumer board) skips with that reason.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

#include "gpuconform/node_health.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {
namespace {

// Host-to-device copies on `gpu` until `stop`: traffic that brings a PCIe link that
// lowered itself at idle back to its trained rate. "" when they ran, else why not
// (no GPU, as in the unit tests: the idle reading then stands).
std::string copy_until(int gpu, const std::atomic<bool>& stop, std::atomic<bool>& started) {
  constexpr std::size_t kBytes = std::size_t(64) << 20;
  void* host = nullptr;
  void* dev = nullptr;
  cudaStream_t stream = nullptr;
  std::string why;
  cudaError_t e = cudaSetDevice(gpu);
  if (e == cudaSuccess) e = cudaMallocHost(&host, kBytes);
  if (e == cudaSuccess) e = cudaMalloc(&dev, kBytes);
  if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  while (e == cudaSuccess && !stop) {
    e = cudaMemcpyAsync(dev, host, kBytes, cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    started = true;
  }
  if (e != cudaSuccess) why = fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e));
  if (stream) cudaStreamDestroy(stream);
  if (dev) cudaFree(dev);
  if (host) cudaFreeHost(host);
  started = true;
  return why;
}

// The PCIe reading again while the link carries host-to-device copies.
NodeHealthReading read_under_link_load(const NodeHealthCheck& check, const DeviceInfo& gpu, std::string& why_not) {
  std::atomic<bool> stop{false}, started{false};
  std::string why;
  std::thread copies([&] { why = copy_until(gpu.index, stop, started); });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!started && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the link retrains within microseconds
  NodeHealthReading r = read_node_health(check.id, gpu.uuid, gpu.pci_bus_id);
  stop = true;
  copies.join();
  why_not = why;
  return r;
}

Measurement judge_check(const NodeHealthCheck& check, const ProbeContext& ctx) {
  NodeHealthReading r = read_node_health(check.id, ctx.device.uuid, ctx.device.pci_bus_id);
  if (!r.skipped.empty())
    throw ProbeSkipped(fmt::format("GPU {}'s {} cannot be read: {}", ctx.device.index, check.id, r.skipped));
  Measurement m;
  if (check.read_under_link_load && !r.problem.empty()) {
    std::string why_not;
    NodeHealthReading loaded = read_under_link_load(check, ctx.device, why_not);
    m.note("idle_reading", r.problem);
    if (!why_not.empty()) m.note("under_traffic", "no traffic could be made, the idle reading stands: " + why_not);
    else if (loaded.skipped.empty()) r = std::move(loaded);
  }
  m.unit = check.unit;
  m.value = r.value;
  for (auto& [key, text] : r.notes) m.note(key, text);
  // The verdict appends "violations" to a failure's reason: what is wrong, in words.
  if (!r.problem.empty()) m.note("violations", r.problem);
  return m;
}

template <std::size_t I>
Measurement run_check(const ProbeContext& ctx) {
  return judge_check(node_health_checks()[I], ctx);
}

// One probe per row of the check table, each run through its own instantiation.
template <std::size_t I>
Probe check_probe() {
  const NodeHealthCheck& check = node_health_checks()[I];
  return Probe{check.id, Family::health, check.summary, {60}, RecordHint{check.kind, 0, 0}, &run_check<I>};
}

template <std::size_t... I>
bool register_checks(std::index_sequence<I...>) {
  return register_probes({check_probe<I>()...});
}

const bool kRegistered = register_checks(std::make_index_sequence<kNodeHealthChecks>{});

}  // namespace
}  // namespace gpuconform::kernels
