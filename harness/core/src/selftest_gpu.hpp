// SPDX-License-Identifier: Apache-2.0
#pragma once
// The kernels of self-test fault injection and the HBM thief's thread (selftest_thief.cu),
// for selftest_green_context.cpp. Runtime API only: whichever context is current to the
// calling thread (a green context, there) runs them.
#include <cuda_runtime_api.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gpuconform::selftest::detail {

// The SM (%smid) each of `blocks` blocks of 1024 threads ran on, launched on `stream` in the
// current context. At most 2 such blocks fit an SM and each stays 20 us, so the blocks spread
// over every SM the context may use. Throws CudaError.
std::vector<unsigned> sm_ids_of_blocks(cudaStream_t stream, int blocks);

// A kernel on every SM of the context current to its own thread (entered by `enter`), that
// reads `bytes` of HBM over and over, in launches of about 5 ms, two in flight, until stop()
// or the destructor. Never blocks a probe: it has no SM of theirs and no stream of theirs.
class HbmThief {
 public:
  // Starts the thread and waits until it streams. `sms`: the SMs of its context (its grid).
  // Throws std::runtime_error with what failed (its CUDA call and error).
  HbmThief(std::function<void()> enter, int sms, std::size_t bytes);
  ~HbmThief();
  HbmThief(const HbmThief&) = delete;
  HbmThief& operator=(const HbmThief&) = delete;

  void stop();                                                     // waits for the launches in flight (at most ~10 ms)
  std::string error() const;                                       // "" while it streams
  double read_gbps() const;                                        // bytes read / seconds since it started, so far
  const std::vector<unsigned>& sm_ids() const { return sm_ids_; }  // where its check kernel ran

 private:
  void run(int sms, std::size_t bytes);
  void fail(const std::string& why);

  std::function<void()> enter_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned long long> bytes_read_{0};
  std::atomic<double> seconds_{0};
  mutable std::mutex mutex_;
  std::condition_variable ready_cv_;
  std::string error_;
  bool ready_ = false;
  std::vector<unsigned> sm_ids_;
};

}  // namespace gpuconform::selftest::detail
