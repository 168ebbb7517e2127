// SPDX-License-Identifier: Apache-2.0
#pragma once
// The probe registry: every measurement is registered once, by id, and both
// front ends (the gtest binary and the gpuconform CLI) enumerate it. Adding a
// probe means a row in one kernel file's register_probes({...}) table and
// expectation entries; no test or tool edits.
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/expectation_types.hpp"
#include "gpuconform/measurement.hpp"

namespace gpuconform {

// `selftest` probes check the suite itself (a hang, a sticky CUDA fault, a wrong
// answer): registered always, so expectation files naming them lint clean, but
// selectable only when selftest_enabled().
// `topology` (chip layout, SM-to-L2 distances, per-SM uniformity) and `parallel`
// (scheduling, contention) form one ctest label, `topology` (GpuconformGroupDiscovery.cmake).
// `p2p` (GPU-to-GPU links) and `health` (node state read through NVML) join the
// `topology` ctest label's group logic as their own labels.
enum class Family { latency, throughput, numeric, topology, parallel, selftest, p2p, health };
const char* family_name(Family f);   // "latency", ...

// What the GPU must offer. `exact_cc` is for arch-specific ("a") code such as
// wgmma: it runs only on that one compute capability.
struct Requirements {
  int min_cc = 75;
  int exact_cc = 0;        // 0: any capability >= min_cc
  std::string feature;     // shown in the skip reason, e.g. "sm_90a (wgmma)"
  // Non-empty: this build has no code for the probe, whatever the GPU (its toolkit's PTX ISA
  // lacks an instruction: kernels/common/ptx_features.cuh), and this is the skip reason.
  std::string build_gap;
};

// How `gpuconform record` turns a measurement into a new expectation entry.
struct RecordHint {
  ExpectationKind kind = ExpectationKind::band;
  double min_tol = 0;        // band: smallest absolute half-width; min/max: smallest absolute fail margin
                             // (a count whose boards all read 0 gets no relative class margin)
  double min_tol_rel = 0;    // band: smallest relative half-width
  double fraction_margin = 0.05;  // fraction_of_peak with no band-policy class: fail margin x centre
};

// The record hints many probes share, defined once so that a family's rows cannot drift apart.
inline constexpr RecordHint kFractionOfPeakHint{ExpectationKind::fraction_of_peak, 0, 0, 0.05};
inline constexpr RecordHint kMinHint{ExpectationKind::min, 0, 0, 0.05};    // no public peak: a measured minimum
inline constexpr RecordHint kMaxHint{ExpectationKind::max, 0, 0, 0.05};    // counts and limits that must not rise
inline constexpr RecordHint kInfoHint{ExpectationKind::info, 0, 0, 0.05};  // recorded, never judged
// Deterministic latencies get a ±0.25-cycle floor when recorded.
inline constexpr RecordHint kDeterministicLatency{ExpectationKind::band, 0.25, 0.0};

// Which GPUs one run of a probe involves. Per-GPU probes run on every GPU at once;
// pair and node probes run after them, one at a time, while no other probe runs:
// - pair: once per ordered pair of the run's GPUs (device = A, peers = {B}): a link
//   from A to B, judged per pair;
// - node: once per run, on the run's first GPU with every other GPU as a peer.
// With fewer than two GPUs in the run they skip, saying so.
enum class Scope { gpu, pair, node };
const char* scope_name(Scope s);  // "gpu", "pair", "node"

struct ProbeContext {
  const DeviceInfo& device;
  const Expectation* expectation;  // null while recording a first expectation
  bool quick = false;              // fewer repeats, for smoke runs
  // Pair and node probes: the other GPUs (empty for per-GPU probes, or when the
  // run has a single GPU: such probes then throw ProbeSkipped via require_peers).
  std::vector<DeviceInfo> peers = {};
};

// The peers of a pair or node probe, or ProbeSkipped saying that the run needs
// two or more GPUs (and how to select them).
const std::vector<DeviceInfo>& require_peers(const ProbeContext& ctx);

using ProbeFn = Measurement (*)(const ProbeContext&);

struct Probe {
  std::string id;         // dotted, stable: "latency.alu.fma.rn.f32"
  Family family;
  std::string summary;    // one line: what is measured
  Requirements needs;
  RecordHint record;
  ProbeFn run;
  Scope scope = Scope::gpu;
};

// A probe throws this when the GPU lacks something it needs (a feature, code
// compiled for its architecture); the test is then skipped with the reason.
class ProbeSkipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Registry {
 public:
  static Registry& instance();
  bool add(Probe probe);   // throws std::logic_error on a duplicate id
  const std::vector<Probe>& all() const { return probes_; }
  const Probe* find(const std::string& id) const;
  std::vector<std::string> ids() const;

 private:
  std::vector<Probe> probes_;
};

// The probes this process is about to run, in order, as the runner's worker announces them
// before the first starts (empty when nobody did, e.g. one gtest at a time). Probes that share
// costly host work (numeric.feature.*: one model fit per path) may start the work of the
// others at once, on every core, instead of one after another.
void set_planned_probes(std::vector<std::string> ids);
std::vector<std::string> planned_probes();

// The one way a kernel file registers its probes, at static-initialisation time:
//   const bool kRegistered = register_probes({Probe{...}, Probe{...}});
// one table per file, whether its rows are written out, expanded from an X-macro table
// (many rows on one source line) or generated (a pack expansion, a loop filling a vector).
// Kernels are built as an object library so the linker keeps every registration. No CUDA
// call may happen here: listing tests must work on a machine without a GPU. Throws
// std::logic_error as Registry::add does; returns true, for the kRegistered constant.
bool register_probes(std::vector<Probe> probes);

// True when GPUCONFORM_SELFTEST=1: the self-test probes become selectable.
bool selftest_enabled();
// Whether a front end may select `probe` (run, record, the gtest binary):
// every probe except the self-tests, which only in self-test mode.
bool is_selectable(const Probe& probe);

// gtest-safe name of a probe: "Latency" / "alu_fma_rn_f32".
std::string test_suite_name(const Probe& probe);
std::string test_name(const Probe& probe);

}  // namespace gpuconform

