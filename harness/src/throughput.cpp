// measure_throughput: event timing, the SM clock during the work, and the
// peak derived from the architecture's peak table (throughput.hpp).
#include "gpuconform/throughput.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

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
  if (ctx.quick) {
    o.warmup = 1;
    o.repeats = 5;
  }
  return o;
}

Measurement measure_throughput(const ProbeContext& ctx, const Work& work, const StampedLaunch& launch,
                               ThroughputOptions options) {
  const PeakEntry* entry = work.peak_id.empty() ? nullptr : &require_peak(ctx, work.peak_id);
  if (!entry && work.unit.empty()) throw std::logic_error("measure_throughput: work without a peak entry needs a unit");
  if (!(work.units_per_launch > 0)) throw std::logic_error("measure_throughput: a launch must do some work");
  DeviceBuffer<long long> stamps(4);
  for (int i = 0; i < options.warmup; ++i) launch(stamps.get());
  GC_CUDA_CHECK_LAUNCH();

  cudaEvent_t start = nullptr, stop = nullptr;
  GC_CUDA_CHECK(cudaEventCreate(&start));
  GC_CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> ms;
  std::vector<long long> quadruples;
  try {
    for (int i = 0; i < options.repeats; ++i) {
      GC_CUDA_CHECK(cudaMemset(stamps.get(), 0, stamps.bytes()));
      GC_CUDA_CHECK(cudaEventRecord(start));
      launch(stamps.get());
      GC_CUDA_CHECK(cudaEventRecord(stop));
      GC_CUDA_CHECK(cudaEventSynchronize(stop));
      GC_CUDA_CHECK(cudaGetLastError());
      float elapsed = 0;
      GC_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
      ms.push_back(elapsed);
      const auto q = stamps.download();
      quadruples.insert(quadruples.end(), q.begin(), q.end());
    }
  } catch (...) {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    throw;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  Measurement m;
  m.unit = entry ? rate_unit(entry->unit) : work.unit;
  for (double t : ms) m.samples.push_back(work.units_per_launch / (t * 1e-3));
  m.value = median(m.samples);
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
      m.note("peak_at_max_clock", fmt::format("{:.6g} {} ({:g} {} x {} SMs x {:.0f} MHz maximum)", d.peak_at_max,
                                              m.unit, entry->per_sm_per_clock, entry->unit, work.sms_used, max_mhz));
      m.note("fraction_of_max_clock_peak", fmt::format("{:.4f}", m.value / d.peak_at_max));
    }
  } else if (work.device_peak > 0) {
    m.peak = work.device_peak;
    m.peak_formula = work.device_peak_formula;
  }
  m.note("timing", fmt::format("{} warm-up + {} event-timed launches, median {:.4g} ms; {:.6g} {} per launch",
                               options.warmup, options.repeats, median(ms), work.units_per_launch,
                               m.unit.substr(0, m.unit.size() - 2)));
  return m;
}

}  // namespace gpuconform
