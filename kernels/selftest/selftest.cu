// SPDX-License-Identifier: Apache-2.0
// Self-test probes: faults the runner must survive, so its isolation is tested
// on a real GPU. Selectable only with GPUCONFORM_SELFTEST=1 (probe.hpp); their
// expectations are expectations/selftest.toml. Each probe throws when its
// fault does not happen, so a self-test can never pass by accident.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {
namespace {

// Spins until *flag becomes non-zero; nobody ever sets it. Only killing the
// process ends it: this is what the runner's time limit must do.
__global__ void spin_forever(const volatile int* flag) {
  while (*flag == 0) __nanosleep(1000);
}

Measurement hang(const ProbeContext&) {
  DeviceBuffer<int> flag(std::vector<int>{0});
  spin_forever<<<1, 1>>>(flag.get());
  GC_CUDA_CHECK_LAUNCH();  // never returns
  throw std::runtime_error("selftest.hang: the spinning kernel returned; the flag was set by someone");
}

// A store through a pointer no allocation covers: the SM raises an illegal
// address, a sticky error that poisons the context of this process.
__global__ void store_through(int* pointer) { *static_cast<volatile int*>(pointer) = 42; }

Measurement illegal_address(const ProbeContext&) {
  // Passed in at run time, so the compiler cannot see (and drop) the bad store.
  int* invalid = reinterpret_cast<int*>(std::uintptr_t{0x10});
  store_through<<<1, 1>>>(invalid);
  GC_CUDA_CHECK_LAUNCH();  // throws CudaError (cudaErrorIllegalAddress)
  throw std::runtime_error("selftest.illegal_address: a store through an invalid pointer did not fault");
}

__global__ void sum_indices(unsigned long long* sum) { atomicAdd(sum, static_cast<unsigned long long>(threadIdx.x + 1)); }

// 1 + 2 + ... + 1024 = 524800 on the GPU, reported off by one: a normal
// failure with a normal reason ("measured 524801 ..., expected 524800 ...").
Measurement wrong_answer(const ProbeContext&) {
  DeviceBuffer<unsigned long long> sum(std::vector<unsigned long long>{0});
  sum_indices<<<1, 1024>>>(sum.get());
  GC_CUDA_CHECK_LAUNCH();
  unsigned long long host = 0;
  GC_CUDA_CHECK(cudaMemcpy(&host, sum.get(), sizeof host, cudaMemcpyDeviceToHost));
  if (host != 524800) throw std::runtime_error("selftest.wrong_answer: the GPU sum is " + std::to_string(host));
  Measurement m;
  m.value = static_cast<double>(host) + 1;  // the deliberate error
  m.unit = "count";
  m.note("selftest", "the GPU computed 524800; the probe reports one more on purpose");
  return m;
}

}  // namespace

const bool kRegistered = register_probes({
    Probe{"selftest.hang",
          Family::selftest,
          "a kernel that never ends (the runner must time it out)",
          {70},
          kInfoHint,
          &hang},
    Probe{"selftest.illegal_address",
          Family::selftest,
          "a store through an invalid pointer (a sticky CUDA error)",
          {70},
          kInfoHint,
          &illegal_address},
    Probe{"selftest.wrong_answer",
          Family::selftest,
          "a GPU sum reported off by one (a normal failure)",
          {70},
          {ExpectationKind::band},
          &wrong_answer},
});

}  // namespace gpuconform::kernels
