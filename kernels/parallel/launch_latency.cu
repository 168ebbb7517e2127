// SPDX-License-Identifier: Apache-2.0
// Launch latency of an empty kernel, as the host sees it (seed 002 times kernels at
// block and warp level *and* as a whole; this is the whole). Each sample is one
// launch followed by a synchronisation, timed with std::chrono on the host: the
// round trip a dependent chain of small kernels pays per kernel.
//   parallel.sched.launch_latency:        <<<1, 32>>> on a stream + cudaStreamSynchronize
//   parallel.sched.launch_latency.graph:  cudaGraphLaunch of a one-kernel graph + sync
//   parallel.sched.launch_throughput:     1000 launches queued back to back, one sync:
//                                         microseconds per kernel
#include <fmt/format.h>

#include <chrono>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform::kernels {
namespace {

__global__ void empty_kernel() {}

constexpr int kSamples = 1000;

double elapsed_us(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

class Stream {
 public:
  Stream() { GC_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

Measurement finish(std::vector<double> samples, std::string method) {
  Measurement m;
  m.value = median(samples);
  m.unit = "us";
  m.samples = std::move(samples);
  m.note("method", std::move(method));
  return m;
}

Measurement measure_stream(const ProbeContext& ctx) {
  Stream s;
  const int n = ctx.quick ? kSamples / 4 : kSamples;
  std::vector<double> us;
  for (int i = -100; i < n; ++i) {  // 100 untimed warm-up launches
    const auto t0 = std::chrono::steady_clock::now();
    empty_kernel<<<1, 32, 0, s.get()>>>();
    GC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    if (i >= 0) us.push_back(elapsed_us(t0));
  }
  GC_CUDA_CHECK_LAUNCH();
  return finish(std::move(us), fmt::format("median of {} x (empty <<<1, 32>>> on a non-blocking stream + "
                                           "cudaStreamSynchronize), host steady_clock, after 100 warm-up launches", n));
}

Measurement measure_graph(const ProbeContext& ctx) {
  Stream s;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  GC_CUDA_CHECK(cudaStreamBeginCapture(s.get(), cudaStreamCaptureModeThreadLocal));
  empty_kernel<<<1, 32, 0, s.get()>>>();
  GC_CUDA_CHECK(cudaStreamEndCapture(s.get(), &graph));
  struct Cleanup {
    cudaGraph_t& g;
    cudaGraphExec_t& e;
    ~Cleanup() {
      if (e) cudaGraphExecDestroy(e);
      if (g) cudaGraphDestroy(g);
    }
  } cleanup{graph, exec};
  GC_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const int n = ctx.quick ? kSamples / 4 : kSamples;
  std::vector<double> us;
  for (int i = -100; i < n; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    GC_CUDA_CHECK(cudaGraphLaunch(exec, s.get()));
    GC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    if (i >= 0) us.push_back(elapsed_us(t0));
  }
  return finish(std::move(us), fmt::format("median of {} x (cudaGraphLaunch of a graph holding one empty <<<1, 32>>> "
                                           "kernel + cudaStreamSynchronize), host steady_clock, after 100 warm-ups", n));
}

// Bursts are sampled like a throughput probe's launches (sampling.hpp), to a looser
// target: the host's own jitter is a few percent. A burst the host was interrupted in
// (an H100 once read 30 us per kernel in five bursts in a row, 4 us before and after)
// then widens the interval and prolongs sampling instead of setting the median.
SamplingPolicy burst_policy(bool quick) {
  SamplingPolicy p;
  p.target_rel_half_width = 0.02;
  p.min_samples = 9;
  p.max_samples = quick ? 30 : 120;
  p.time_cap_ms = quick ? 150 : 600;
  return p;
}

Measurement measure_throughput(const ProbeContext& ctx) {
  Stream s;
  constexpr int kBurst = 1000;
  auto burst_us = [&] {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kBurst; ++i) empty_kernel<<<1, 32, 0, s.get()>>>();
    GC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    return elapsed_us(t0) / kBurst;
  };
  burst_us();  // warm-up
  GC_CUDA_CHECK_LAUNCH();
  const SamplingPolicy policy = burst_policy(ctx.quick);
  SampledValues sampled = sample_until_stopped(burst_us, policy);
  Measurement m = finish(std::move(sampled.samples),
                         fmt::format("{} empty <<<1, 32>>> launches queued on one stream, one cudaStreamSynchronize; "
                                     "microseconds per kernel, median of bursts sampled until the median's 95 % "
                                     "interval is within +-{:.0f} % (stopped: {})",
                                     kBurst, 100 * policy.target_rel_half_width, sampled.sampling.stopped));
  m.sampling = std::move(sampled.sampling);
  return m;
}

}  // namespace

const bool kRegistered = register_probes({
    Probe{"parallel.sched.launch_latency",
          Family::parallel,
          "empty kernel launch + stream synchronize round trip (host)",
          {70},
          kMaxHint,
          &measure_stream},
    Probe{"parallel.sched.launch_latency.graph",
          Family::parallel,
          "one-kernel CUDA graph launch + stream synchronize round trip (host)",
          {70},
          kMaxHint,
          &measure_graph},
    Probe{"parallel.sched.launch_throughput",
          Family::parallel,
          "host time per empty kernel when 1000 launches are queued back to back",
          {70},
          kMaxHint,
          &measure_throughput},
});

}  // namespace gpuconform::kernels
