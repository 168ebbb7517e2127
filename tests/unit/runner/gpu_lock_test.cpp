// SPDX-License-Identifier: Apache-2.0
// The per-GPU lock that keeps two ctest groups off one GPU (gpu_lock.hpp). flock locks
// belong to an open file description, so two GpuLocks in one process contend like two
// processes would.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <thread>

#include "gpuconform/gpu_lock.hpp"

namespace gpuconform {
namespace {

std::string temp_lock_path(const char* name) {
  return ::testing::TempDir() + "gpuconform_lock_test_" + std::to_string(::getpid()) + "_" + name;
}

TEST(GpuLock, SecondHolderIsRefusedUntilTheFirstIsGone) {
  const std::string path = temp_lock_path("exclusive");
  {
    bool waited = false;
    GpuLock first(path, [&] { waited = true; });
    EXPECT_TRUE(first.held());
    EXPECT_FALSE(waited);
    EXPECT_FALSE(GpuLock(path).held());
  }
  EXPECT_TRUE(GpuLock(path).held());
  std::remove(path.c_str());
}

TEST(GpuLock, WaiterSaysSoAndGetsTheLockWhenReleased) {
  const std::string path = temp_lock_path("wait");
  auto first = std::make_unique<GpuLock>(path);
  ASSERT_TRUE(first->held());
  std::promise<void> waiting;
  std::thread second([&] {
    GpuLock lock(path, [&] { waiting.set_value(); });
    EXPECT_TRUE(lock.held());
  });
  // The second holder announces its wait before blocking; only then is the first released.
  ASSERT_EQ(waiting.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  first.reset();
  second.join();
  std::remove(path.c_str());
}

TEST(GpuLock, OtherGpusDoNotContend) {
  const std::string a = temp_lock_path("a"), b = temp_lock_path("b");
  GpuLock first(a);
  EXPECT_TRUE(first.held());
  EXPECT_TRUE(GpuLock(b).held());
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(GpuLock, UnopenableFileThrows) {
  EXPECT_THROW(GpuLock("/nonexistent-dir/gpuconform.lock", nullptr), std::runtime_error);
}

TEST(GpuLockPath, KeyedOnTheBoardUuidWithSafeCharacters) {
  EXPECT_EQ(gpu_lock_path("GPU-1234abcd-00ff"), "/tmp/gpuconform-GPU-1234abcd-00ff.lock");
  EXPECT_EQ(gpu_lock_path("GPU/../x"), "/tmp/gpuconform-GPU____x.lock");
  EXPECT_EQ(gpu_lock_path(""), "/tmp/gpuconform-unknown.lock");
}

}  // namespace
}  // namespace gpuconform
