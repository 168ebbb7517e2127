// SPDX-License-Identifier: Apache-2.0
#pragma once
// An exclusive per-GPU lock for the GPU test processes. ctest's GPU groups are not
// RUN_SERIAL (that would also stop `--resource-spec-file` from running one group per GPU
// in parallel), and ctest ignores RESOURCE_GROUPS without a spec file, so `ctest -j N`
// alone could start two groups on one GPU, each disturbing the other's timings. The
// process therefore holds this lock while it uses the GPU: a second group on the same
// GPU waits; groups on different GPUs (ctest's resource allocation) never contend.
#include <functional>
#include <string>

namespace gpuconform {

class GpuLock {
 public:
  // Locks `path` (created if missing). Blocks while another process holds it, calling
  // `on_wait` once first so the wait is never silent. Throws std::runtime_error when
  // the file cannot be opened.
  GpuLock(const std::string& path, const std::function<void()>& on_wait);
  // Locks `path` only if free; held() says whether it was.
  explicit GpuLock(const std::string& path);
  ~GpuLock();
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;
  bool held() const { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

// "/tmp/gpuconform-<uuid>.lock": keyed on the board, not the CUDA ordinal, which
// CUDA_VISIBLE_DEVICES renumbers per process; /tmp, not $TMPDIR, so every user and
// environment on the machine meets the same lock.
std::string gpu_lock_path(const std::string& uuid);

}  // namespace gpuconform
