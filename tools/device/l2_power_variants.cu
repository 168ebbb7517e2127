// SPDX-License-Identifier: Apache-2.0
// Does the L2 bandwidth probe measure the L2 or the power limit? An
// investigation tool, not a probe (issue 19): throughput.l2.read on one healthy
// H100 read 11.40, 10.84 and 11.39 TB/s in three runs, and in the evidence the
// low runs are the ones with an sw_power_cap clock event and many more launches
// (the sampler did not converge: the rate moved during the probe). Standalone;
// on the GPU node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/l2p tools/device/l2_power_variants.cu -ldl && /tmp/l2p [seconds]
//
// (about 30 s a GPU at the default 2.5 s a variant). The kernel is the suite's
// l2.read shape (resident 1024-thread grid, 4 x 4 B .cg loads in flight per
// thread, chunks cycling through a footprint of a quarter of the L2) and its
// l2.write shape (.cg stores of per-thread values); what changes is the data
// and the footprint. Each variant launches ~5 ms kernels back to back for the
// given seconds, each event-timed, while a host thread reads NVML every 10 ms:
// board power, SM clock and the clock-event reasons. Variants run interleaved
// (random, constant, random, ...) after a 3 s heat-up, so that the board's
// warming does not favour one of them. One machine-parsable line per variant:
//
//   variant=<name> footprint_mib= tbs_median= tbs_p5= tbs_p95= tbs_first_half= tbs_last_half= launches=
//   power_w_median= power_w_max= sm_mhz_median= power_cap_fraction= reasons=0x...
//
// Data: random = splitmix64 of the word index (the suite's fill); constant = one
// non-zero 64-bit word everywhere (no bit toggles between transfers); line = one
// random word repeated within each 128-byte line (toggles only between lines).
// power_cap_fraction: share of the NVML samples with the sw_power_cap reason.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.cuh"
#include "l2_resident.cuh"

constexpr unsigned long long kSwPowerCap = 0x4;  // nvmlClocksEventReasonSwPowerCap

// ---- NVML through dlopen (no nvml.h needed): the four calls this program makes ----
struct Nvml {
  using Init = int (*)();
  using Handle = int (*)(unsigned, void**);
  using Power = int (*)(void*, unsigned*);
  using Clock = int (*)(void*, int, unsigned*);
  using Reasons = int (*)(void*, unsigned long long*);
  Handle handle = nullptr;
  Power power = nullptr;
  Clock clock = nullptr;
  Reasons reasons = nullptr;
  void* device = nullptr;
  bool ok = false;
  explicit Nvml(const char* pci_bus_id) {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!lib) return;
    auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<int (*)(const char*, void**)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    power = reinterpret_cast<Power>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    reasons = reinterpret_cast<Reasons>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    ok = init && by_bus && power && clock && reasons && init() == 0 && by_bus(pci_bus_id, &device) == 0;
  }
};

struct Sample {
  double power_w, sm_mhz;
  unsigned long long reasons;
};

__global__ void fill(unsigned long long* w, std::size_t n, int mode) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned long long x = mode == 0 ? i : mode == 2 ? i / 16 : 0;  // 16 words = one 128-byte line
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    w[i] = (x ^ (x >> 31)) | 1ull;  // never zero
  }
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * (v.size() - 1) + 0.5)];
}

struct Runner {
  Nvml& nvml;
  int grid;
  float* sink;
  double seconds;

  template <bool W, bool C>
  void run(const char* name, float* a, std::size_t bytes, bool report = true) {
    const unsigned chunks = static_cast<unsigned>(bytes / (sizeof(float) * kThreads * kInFlight));
    // ~5 ms launches: calibrate the steps with one timed launch.
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    // One event-timed launch of `groups` steps, in ms.
    auto timed_ms = [&](unsigned groups) {
      CHECK(cudaEventRecord(e0));
      resident<W, C><<<grid, kThreads>>>(a, chunks, 1, false, groups, sink);
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      return ms;
    };
    unsigned groups = 1000;
    for (int i = 0; i < 3; ++i)
      groups = std::max(1u, static_cast<unsigned>(groups * 5.0 / std::max(timed_ms(groups), 0.01f)));
    const double launch_bytes = double(groups) * grid * kThreads * kInFlight * sizeof(float);
    std::vector<Sample> samples;
    std::atomic<bool> done{false};
    std::thread poll([&] {
      while (!done) {
        unsigned mw = 0, mhz = 0;
        unsigned long long r = 0;
        if (nvml.ok && nvml.power(nvml.device, &mw) == 0 && nvml.clock(nvml.device, 1, &mhz) == 0 &&
            nvml.reasons(nvml.device, &r) == 0)
          samples.push_back({mw / 1e3, double(mhz), r});
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
    std::vector<double> tbs;
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
      tbs.push_back(launch_bytes / (timed_ms(groups) * 1e-3) / 1e12);
    }
    done = true;
    poll.join();
    CHECK(cudaGetLastError());
    CHECK(cudaEventDestroy(e0));
    CHECK(cudaEventDestroy(e1));
    if (!report) return;
    std::vector<double> power, mhz;
    unsigned long long any = 0;
    int capped = 0;
    for (const Sample& s : samples) {
      power.push_back(s.power_w);
      mhz.push_back(s.sm_mhz);
      any |= s.reasons;
      capped += (s.reasons & kSwPowerCap) != 0;
    }
    const std::size_t half = tbs.size() / 2;
    std::printf(
        "variant=%s footprint_mib=%.1f tbs_median=%.3f tbs_p5=%.3f tbs_p95=%.3f tbs_first_half=%.3f "
        "tbs_last_half=%.3f launches=%zu power_w_median=%.1f power_w_max=%.1f sm_mhz_median=%.0f "
        "power_cap_fraction=%.2f reasons=0x%llx\n",
        name, bytes / 1048576.0, quantile(tbs, 0.5), quantile(tbs, 0.05), quantile(tbs, 0.95),
        quantile(std::vector<double>(tbs.begin(), tbs.begin() + half), 0.5),
        quantile(std::vector<double>(tbs.begin() + half, tbs.end()), 0.5), tbs.size(), quantile(power, 0.5),
        quantile(power, 1.0), quantile(mhz, 0.5), samples.empty() ? 0.0 : double(capped) / samples.size(), any);
    std::fflush(stdout);
  }
};

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.5;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  char bus[32];
  CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
  Nvml nvml(bus);
  if (!nvml.ok) std::fprintf(stderr, "NVML not available: no power or clock columns\n");
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, resident<false, false>, kThreads, 0));
  const std::size_t quarter = prop.l2CacheSize / 4 / (kThreads * kInFlight * 4) * (kThreads * kInFlight * 4);
  const std::size_t half = 2 * quarter;
  // Three buffers, one per data pattern (same size); a second random one at other pages.
  float *random, *constant, *line, *random2, *half_buf, *sink;
  for (float** p : {&random, &constant, &line, &random2, &half_buf}) CHECK(cudaMalloc(p, half));
  CHECK(cudaMalloc(&sink, 4));
  fill<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(random), half / 8, 0);
  fill<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(constant), half / 8, 1);
  fill<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(line), half / 8, 2);
  fill<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(random2), half / 8, 0);
  fill<<<1024, 256>>>(reinterpret_cast<unsigned long long*>(half_buf), half / 8, 0);
  CHECK(cudaDeviceSynchronize());
  std::printf("device=\"%s\" bus=%s sms=%d blocks_per_sm=%d l2_mib=%.1f nvml=%d seconds=%.1f\n", prop.name, bus,
              prop.multiProcessorCount, per_sm, prop.l2CacheSize / 1048576.0, nvml.ok ? 1 : 0, seconds);
  Runner r{nvml, per_sm * prop.multiProcessorCount, sink, seconds};
  r.seconds = 3;
  r.run<false, false>("heatup", random, quarter, false);
  r.seconds = seconds;
  for (int round = 1; round <= 2; ++round) {
    const std::string t = "." + std::to_string(round);
    r.run<false, false>(("read.random" + t).c_str(), random, quarter);
    r.run<false, false>(("read.constant" + t).c_str(), constant, quarter);
    r.run<false, false>(("read.line" + t).c_str(), line, quarter);
    r.run<false, false>(("read.random_other_pages" + t).c_str(), random2, quarter);
    r.run<false, false>(("read.random_half_l2" + t).c_str(), half_buf, half);
    r.run<true, false>(("write.suite_values" + t).c_str(), random2, quarter);
    r.run<true, true>(("write.constant" + t).c_str(), random2, quarter);
  }
  return 0;
}
