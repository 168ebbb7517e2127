// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/throttle_policy.hpp"
#include "gpuconform/conformance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/sass.hpp"

namespace gpuconform {

std::string unmet_requirement(const Probe& probe, const DeviceInfo& device) {
  const Requirements& need = probe.needs;
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

Measurement run_probe(const Probe& probe, const DeviceInfo& device, const RunOptions& options) {
  if (std::string why = unmet_requirement(probe, device); !why.empty()) throw ProbeSkipped(why);
  use_device(device.index);
  ProbeContext ctx{device, nullptr, options.quick, options.peers};
  return probe.run(ctx);
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
  const auto start = std::chrono::steady_clock::now();
  try {
    use_device(device.index);
    ProbeContext ctx{device, expected, options.quick, options.peers};
    StateWatch watch(device);
    watch.start();
    result.measurement = probe.run(ctx);
    result.disturbance = watch.stop();
    // At --level quick a drift is noted, not warned, and a sampled value is known to the
    // level's sampling target at best (JudgeOptions, verdict.hpp).
    JudgeOptions judging{!options.quick, options.quick ? sampling_policy(true).target_rel_half_width : 0};
    if (const Expectation* clock = expectations.find("health.under_load.sm_clock"); clock && clock->min_fraction)
      judging.max_clock_floor = std::min(1.0, *clock->min_fraction);
    Verdict verdict = judge(*result.measurement, *expected, judging);
    // --- SASS check (sass.hpp): an expected opcode missing from the timed code fails the test.
    if (verdict.outcome == Outcome::pass)
      if (std::string why = sass::check_expected_opcodes(*expected, *result.measurement); !why.empty())
        verdict = {Outcome::fail, why};
    // --- end SASS check
    verdict = apply_waiver(verdict, expectations.waiver_for(probe.id, device.sku()));
    // Only a judged measurement can be blamed on a disturbance: a CUDA error below stays a failure.
    result.verdict = downgrade_for_disturbance(verdict, probe.family, *result.disturbance, throttle_policy());
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
  if (selftest_enabled()) q.overlays.push_back(dir + "/selftest.toml");
  q.overlays.insert(q.overlays.end(), overlays.begin(), overlays.end());
  q.known_probe = [&](const std::string& id) { return registry.find(id) != nullptr; };
  q.probe_ids = registry.ids();
  return load_expectations(q);
}

}  // namespace gpuconform
