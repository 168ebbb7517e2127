// SPDX-License-Identifier: Apache-2.0
// measure_throughput: event timing, the SM clock during the work, and the
// peak derived from the architecture's peak table (throughput.hpp).
#include "gpuconform/throughput.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform {

const PeakEntry& require_peak(const ProbeContext& ctx, const std::string& id) {
  const std::string arch = ctx.device.arch();
  const PeakTable& table = peak_table_for(arch);
  if (const PeakEntry* e = table.find(id)) return *e;
  throw ProbeSkipped(fmt::format("no peak entry '{}' for {} in {}/{}.toml{}", id, arch, peak_table_dir(), arch,
                                 table.path.empty() ? " (the file does not exist)" : ""));
}

ThroughputOptions throughput_options(const ProbeContext& ctx) {
  ThroughputOptions o;
  o.policy = sampling_policy(ctx.quick);
  return o;
}

namespace {

// Event-timed launches, each with its stamps read back: the clock of every
// timed launch is known. Owns its events.
class StampedTimer {
 public:
  // Words: {clock64, ns} of block 0's start and end, then the span of all
  // blocks' loops {earliest start, latest end} (clock_stamps.cuh).
  explicit StampedTimer(const StampedLaunch& launch) : launch_(launch), stamps_(6) {
    GC_CUDA_CHECK(cudaEventCreate(&start_));
    GC_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~StampedTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  StampedTimer(const StampedTimer&) = delete;
  StampedTimer& operator=(const StampedTimer&) = delete;

  // One timed launch: its milliseconds; its stamps join quadruples().
  double time_one() {
    GC_CUDA_CHECK(cudaMemset(stamps_.get(), 0, stamps_.bytes()));
    GC_CUDA_CHECK(cudaMemset(stamps_.get() + 4, 0xFF, sizeof(long long)));  // the earliest start: atomicMin
    GC_CUDA_CHECK(cudaEventRecord(start_));
    launch_(stamps_.get());
    GC_CUDA_CHECK(cudaEventRecord(stop_));
    GC_CUDA_CHECK(cudaEventSynchronize(stop_));
    GC_CUDA_CHECK(cudaGetLastError());
    float elapsed = 0;
    GC_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
    const auto q = stamps_.download();
    quadruples_.insert(quadruples_.end(), q.begin(), q.begin() + 4);
    span_ms_ = q[5] > 0 && q[4] != -1 ? static_cast<double>(q[5] - q[4]) * 1e-6 : 0;
    return elapsed;
  }
  const std::vector<long long>& quadruples() const { return quadruples_; }
  // The last launch's span of all blocks' loops in ms; 0 when the kernel wrote none.
  double last_span_ms() const { return span_ms_; }
  void forget_stamps() { quadruples_.clear(); }

 private:
  const StampedLaunch& launch_;
  DeviceBuffer<long long> stamps_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::vector<long long> quadruples_;
  double span_ms_ = 0;
};

}  // namespace

Measurement measure_throughput(const ProbeContext& ctx, const Work& work, const StampedLaunch& launch,
                               ThroughputOptions options) {
  const PeakEntry* entry = work.peak_id.empty() ? nullptr : &require_peak(ctx, work.peak_id);
  if (!entry && work.unit.empty()) throw std::logic_error("measure_throughput: work without a peak entry needs a unit");
  if (!(work.units_per_launch > 0)) throw std::logic_error("measure_throughput: a launch must do some work");
  const SamplingPolicy& policy = options.policy;
  StampedTimer timer(launch);
  // One sample's duration: the event interval, or block 0's stamped loop.
  auto time_one = [&] {
    const double event_ms = timer.time_one();
    if (!work.time_by_stamps) return event_ms;
    const double stamped = timer.last_span_ms();
    if (!(stamped > 0))
      throw std::logic_error("measure_throughput: time_by_stamps needs a kernel that stores its span (gc_span_store)");
    return stamped;
  };

  // Warm-up: untimed busy time, then timed batches until two agree.
  launch(nullptr);
  GC_CUDA_CHECK_LAUNCH();
  if (policy.min_warmup_ms > 0) {
    const double one = timer.time_one();
    const int n = static_cast<int>(std::clamp(std::ceil(policy.min_warmup_ms / std::max(one, 1e-3)), 0.0, 10000.0));
    for (int i = 0; i < n; ++i) launch(nullptr);
    GC_CUDA_CHECK_LAUNCH();
  }
  std::vector<double> batch_medians;
  bool settled = false;
  while (!settled && static_cast<int>(batch_medians.size()) < policy.max_warmup_batches) {
    std::vector<double> batch;
    for (int i = 0; i < std::max(1, policy.warmup_batch); ++i) batch.push_back(work.units_per_launch / (time_one() * 1e-3));
    batch_medians.push_back(median(batch));
    settled = batches_agree(batch_medians, policy.warmup_agreement);
  }
  timer.forget_stamps();

  // Sampling: one launch at a time until the median's interval is tight enough.
  std::vector<double> ms;
  SampledValues sampled = sample_until_stopped(
      [&] {
        ms.push_back(time_one());
        return work.units_per_launch / (ms.back() * 1e-3);
      },
      policy);
  const std::vector<long long> quadruples = timer.quadruples();

  Measurement m;
  m.unit = entry ? rate_unit(entry->unit) : work.unit;
  m.samples = std::move(sampled.samples);
  Sampling sampling = std::move(sampled.sampling);
  sampling.warmup_batches = static_cast<int>(batch_medians.size());
  sampling.warmup_settled = settled;
  sampling.launch_ms = median(ms);
  m.value = sampling.interval.median;
  m.sampling = sampling;
  double mhz = clock_from_stamps(quadruples);
  std::string clock_source = "clock64 / %globaltimer in block 0 of each timed launch (median)";
  if (mhz <= 0) {
    mhz = measure_sm_clock_mhz();
    clock_source = "spinning kernel right after the timed launches (the kernel records no stamps, or ran too short)";
  }
  m.sm_clock_mhz = mhz;
  if (!work.method.empty()) m.note("method", work.method);
  m.note("clock_source", clock_source);
  if (entry) {
    const double max_mhz = ctx.device.max_sm_clock_khz / 1e3;
    const DerivedPeak d = derive_peak(*entry, work.sms_used, mhz, max_mhz);
    m.peak = d.peak;
    m.peak_formula = d.formula;
    m.note("peak_entry", fmt::format("{} = {:g} {} ({})", entry->id, entry->per_sm_per_clock, entry->unit, entry->source));
    if (d.peak_at_max > 0) {
      m.peak_at_max_clock = d.peak_at_max;  // judged for entries with at_max_clock (verdict.cpp)
      m.note("peak_at_max_clock", fmt::format("{:.6g} {} ({:g} {} x {} SMs x {:.0f} MHz maximum)", d.peak_at_max,
                                              m.unit, entry->per_sm_per_clock, entry->unit, work.sms_used, max_mhz));
      m.note("fraction_of_max_clock_peak", fmt::format("{:.4f}", m.value / d.peak_at_max));
    }
  } else if (work.device_peak > 0) {
    m.peak = work.device_peak;
    m.peak_formula = work.device_peak_formula;
  }
  m.note("timing", fmt::format("{} warm-up batch(es) of {} launches{}, then {} {} of median "
                               "{:.4g} ms (stopped: {}; median 95 % CI +-{:.3f} %, target {:.1f} %); {:.6g} {} per launch",
                               sampling.warmup_batches, policy.warmup_batch, settled ? "" : " (did not settle)",
                               m.samples.size(),
                               work.time_by_stamps ? "launches timed inside the kernel (all blocks' loops, %globaltimer)"
                                                   : "event-timed launches", sampling.launch_ms, sampling.stopped,
                               100 * sampling.interval.rel_half_width(), 100 * policy.target_rel_half_width,
                               work.units_per_launch, m.unit.substr(0, m.unit.size() - 2)));
  return m;
}

void express_per_sm_clock(Measurement& m, int sms_used, const std::string& unit) {
  if (!(m.sm_clock_mhz > 0)) throw std::runtime_error("no SM clock was measured: cannot give a rate per clock");
  if (sms_used <= 0) throw std::logic_error("express_per_sm_clock: a probe uses at least one SM");
  const double sm_clocks_per_s = sms_used * m.sm_clock_mhz * 1e6;
  const std::string per_second = m.unit;
  m.value /= sm_clocks_per_s;
  for (double& v : m.samples) v /= sm_clocks_per_s;
  if (m.sampling) {  // the median's interval is in the measurement's unit too
    m.sampling->interval.median /= sm_clocks_per_s;
    m.sampling->interval.low /= sm_clocks_per_s;
    m.sampling->interval.high /= sm_clocks_per_s;
  }
  m.unit = unit;
  m.peak_at_max_clock.reset();  // in the old unit; a rate per clock has no clock to lose
  m.note("per_clock", fmt::format("{} / ({} SMs x {:.0f} MHz measured) = {:.4g} {}", per_second, sms_used,
                                  m.sm_clock_mhz, m.value, unit));
}

}  // namespace gpuconform
