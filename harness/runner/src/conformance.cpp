// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/throttle_policy.hpp"
#include "gpuconform/conformance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/gpu_state.hpp"
#include "gpuconform/sass.hpp"

namespace gpuconform {

std::string unmet_requirement(const Probe& probe, const DeviceInfo& device) {
  const Requirements& need = probe.needs;
  // A build whose toolkit could not assemble the probe's instruction (kernels/common/ptx_features.cuh).
  if (!need.build_gap.empty()) return need.build_gap;
  if (need.exact_cc != 0 && device.cc() != need.exact_cc)
    return fmt::format("needs {}: that code runs only on compute capability {}.{}; this GPU is {}",
                       need.feature.empty() ? fmt::format("sm_{}a", need.exact_cc) : need.feature,
                       need.exact_cc / 10, need.exact_cc % 10, device.arch());
  if (device.cc() < need.min_cc)
    return fmt::format("needs compute capability {}.{} or newer{}; this GPU is {}", need.min_cc / 10,
                       need.min_cc % 10, need.feature.empty() ? "" : " (" + need.feature + ")",
                       device.arch());
  return {};
}

std::string how_to_record(const Probe& probe, const DeviceInfo& device) {
  return fmt::format("no expectation for {} on {}{}: record one with `gpuconform record --device {} "
                     "--probe {} --out expectations/{}.toml` and cite the run record it writes",
                     probe.id, device.arch(), device.sku().empty() ? "" : " (SKU " + device.sku() + ")",
                     device.index, probe.id, device.arch());
}

namespace {

// Why an entry for nodes of another size does not judge this node ("" when it does): a node
// probe's entry holds for the node size its evidence comes from (Expectation::node_gpus).
std::string other_node_size(const Probe& probe, const Expectation& expected, const DeviceInfo& device,
                            const RunOptions& options) {
  if (probe.scope != Scope::node || !expected.node_gpus) return "";
  const int gpus = static_cast<int>(options.peers.size()) + 1;
  if (gpus == *expected.node_gpus) return "";
  return fmt::format(
      "the entry for {} ({}) holds for nodes of {} GPUs, the nodes its evidence comes from; this "
      "node has {}: no expectation for a {}-GPU node{} yet (record one from such nodes' runs with "
      "`gpuconform record --from` and node_gpus = {}, docs/multi-gpu.md)",
      probe.id, expected.where.str(), *expected.node_gpus, gpus, gpus,
      device.sku().empty() ? "" : " of SKU " + device.sku(), gpus);
}

}  // namespace

Measurement run_probe(const Probe& probe, const DeviceInfo& device, const RunOptions& options) {
  if (std::string why = unmet_requirement(probe, device); !why.empty()) throw ProbeSkipped(why);
  use_device(device.index);
  ProbeContext ctx{device, nullptr, options.quick, options.peers};
  return probe.run(ctx);
}

namespace {

// One measurement of a probe judged against its entry: the judgement of the value alone (with
// the SASS check and the waiver), and the verdict after the throttle policy has seen the GPU's
// state during the measurement.
struct JudgedRun {
  Measurement measurement;
  Disturbance disturbance;
  Verdict judged;      // the value against its entry
  Verdict final;       // after downgrade_for_disturbance
  bool fault = false;  // a clock event the throttle policy calls a fault: final fails whatever the value
};

JudgedRun measure_and_judge(const Probe& probe, const DeviceInfo& device, const ExpectationSet& expectations,
                            const Expectation& expected, const RunOptions& options) {
  ProbeContext ctx{device, &expected, options.quick, options.peers};
  StateWatch watch(device);
  watch.start();
  JudgedRun run{probe.run(ctx), {}, {}, {}};
  run.disturbance = watch.stop();
  // At --level quick a drift is noted, not warned, and a sampled value is known to the
  // level's sampling target at best (JudgeOptions, verdict.hpp).
  Verdict verdict = judge(run.measurement, expected, judge_options_for(expectations, options.quick));
  // --- SASS check (sass.hpp): an expected opcode missing from the timed code fails the test.
  if (verdict.outcome == Outcome::pass)
    if (std::string why = sass::check_expected_opcodes(expected, run.measurement); !why.empty())
      verdict = {Outcome::fail, why};
  // --- end SASS check
  run.judged = apply_waiver(verdict, expectations.waiver_for(probe.id, device.sku()));
  // Only a judged measurement can be blamed on a disturbance: a CUDA error stays a failure.
  const ThrottlePolicy& policy = throttle_policy();
  run.final = downgrade_for_disturbance(run.judged, probe.family, run.disturbance, policy);
  if (family_times_things(probe.family))
    for (const std::string& event : run.disturbance.clock_events) run.fault = run.fault || policy.is_fault(event);
  return run;
}

// A timed value that fails is measured again before it is called a fault of the part: a
// host's DMA burst or a neighbour's traffic can slow one measurement (an unseen H200 read
// PCIe h2d at 0.850 of the link in one standard run and 0.880 in the next two, with flat
// samples), but a lost SM, a slow HBM stack or a throttling board fails every time. The
// verdict is the majority of up to three measurements: fail in 2 of 3, else a warn that names
// the transient. Bits (numeric), readings (health) and the self-test drills are not repeated;
// nor is a fail the throttle policy calls a fault.
bool needs_confirmation(const Probe& probe, const Expectation& expected, const JudgedRun& first) {
  return first.judged.outcome == Outcome::fail && !first.fault && confirms_failures(probe.family, expected.kind);
}

std::string value_text(const Measurement& m, Outcome judged) {
  return fmt::format("{:.4g} {} ({})", m.value, m.unit, judged == Outcome::fail ? "fail" : "pass");
}

}  // namespace

bool confirms_failures(Family family, ExpectationKind kind) {
  return family_times_things(family) && kind != ExpectationKind::exact && kind != ExpectationKind::info;
}

Verdict majority_verdict(int fails, int passes, const std::string& values, const std::string& first_reason) {
  const int n = fails + passes;
  if (fails >= 2 || passes == 0)
    return {Outcome::fail, fmt::format("failed in {} of {} measurements ({}): {}", fails, n, values, first_reason)};
  return {Outcome::warn, fmt::format("a transient: {} of {} measurements failed, {} passed ({}); the failing one: {}",
                                     fails, n, passes, values, first_reason)};
}

TestResult run_conformance_test(const Probe& probe, const DeviceInfo& device,
                                const ExpectationSet& expectations, const RunOptions& options) {
  TestResult result;
  result.probe = &probe;
  result.peers = options.peers;
  if (std::string why = unmet_requirement(probe, device); !why.empty()) {
    result.verdict = {Outcome::skip, why};
    return result;
  }
  const Expectation* expected = expectations.find(probe.id);
  if (!expected) {
    result.verdict = {Outcome::skip, how_to_record(probe, device)};
    return result;
  }
  result.expectation = *expected;
  if (std::string why = other_node_size(probe, *expected, device, options); !why.empty()) {
    result.verdict = {Outcome::skip, why};
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    use_device(device.index);
    JudgedRun first = measure_and_judge(probe, device, expectations, *expected, options);
    result.measurement = first.measurement;
    result.disturbance = first.disturbance;
    result.verdict = first.final;
    if (needs_confirmation(probe, *expected, first)) {
      int fails = 1, passes = 0;
      bool fault = false;
      std::string values = value_text(first.measurement, first.judged.outcome);
      while (fails < 2 && passes < 2 && !fault) {
        JudgedRun again = measure_and_judge(probe, device, expectations, *expected, options);
        values += ", " + value_text(again.measurement, again.judged.outcome);
        fault = again.fault;  // a fault decides, as it would have the first time
        if (fault)
          result.verdict = again.final;
        else
          (again.judged.outcome == Outcome::fail ? fails : passes) += 1;
      }
      const int n = fails + passes + (fault ? 1 : 0);
      result.measurement->note("confirmation", fmt::format("measured {} times: {}", n, values));
      if (!fault) result.verdict = majority_verdict(fails, passes, values, first.judged.reason);
    }
  } catch (const ProbeSkipped& skipped) {
    result.verdict = {Outcome::skip, skipped.what()};
  } catch (const CudaError& err) {
    result.verdict = {Outcome::fail, err.what()};
  } catch (const std::exception& err) {
    result.verdict = {Outcome::fail, fmt::format("probe {} threw: {}", probe.id, err.what())};
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

ExpectationSet load_device_expectations(const DeviceInfo& device, const std::string& dir,
                                        const std::vector<std::string>& overlays) {
  const Registry& registry = Registry::instance();
  ExpectationQuery q;
  q.dir = dir;
  q.arch = device.arch();
  q.sku = device.sku();
  q.board_part = read_board_part_number(device);
  if (selftest_enabled()) q.overlays.push_back(dir + "/selftest.toml");
  q.overlays.insert(q.overlays.end(), overlays.begin(), overlays.end());
  q.known_probe = [&](const std::string& id) { return registry.find(id) != nullptr; };
  q.probe_ids = registry.ids();
  return load_expectations(q);
}

}  // namespace gpuconform
