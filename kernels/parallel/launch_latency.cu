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

Measurement measure_throughput(const ProbeContext& ctx) {
  Stream s;
  constexpr int kBurst = 1000;
  std::vector<double> us;
  for (int r = -1; r < (ctx.quick ? 3 : 9); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kBurst; ++i) empty_kernel<<<1, 32, 0, s.get()>>>();
    GC_CUDA_CHECK(cudaStreamSynchronize(s.get()));
    if (r >= 0) us.push_back(elapsed_us(t0) / kBurst);
  }
  GC_CUDA_CHECK_LAUNCH();
  return finish(std::move(us), fmt::format("{} empty <<<1, 32>>> launches queued on one stream, one "
                                           "cudaStreamSynchronize; microseconds per kernel, median of bursts", kBurst));
}

}  // namespace

GPUCONFORM_PROBE("parallel.sched.launch_latency", Family::parallel,
                 "empty kernel launch + stream synchronize round trip (host)", {70}, {ExpectationKind::max, 0, 0},
                 &measure_stream);
GPUCONFORM_PROBE("parallel.sched.launch_latency.graph", Family::parallel,
                 "one-kernel CUDA graph launch + stream synchronize round trip (host)", {70},
                 {ExpectationKind::max, 0, 0}, &measure_graph);
GPUCONFORM_PROBE("parallel.sched.launch_throughput", Family::parallel,
                 "host time per empty kernel when 1000 launches are queued back to back", {70},
                 {ExpectationKind::max, 0, 0}, &measure_throughput);

}  // namespace gpuconform::kernels
