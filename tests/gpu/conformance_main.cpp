// The GPU conformance tests: one gtest per registered probe, judged against
// the expectations for the GPU in hand. Registration needs no GPU (ctest
// discovery lists the tests anywhere); on a machine without one every test
// skips with the reason.
//
// ctest runs one process per probe group (cmake/GpuconformGroupDiscovery.cmake). A CUDA
// fault that corrupts the context fails every later test of the process by name, with
// the probe that caused it; exit code 77 (ctest: skipped) means every test skipped.
//
// Environment: GPUCONFORM_DEVICE (ordinal, default 0), GPUCONFORM_EXPECTATIONS
// (directory), GPUCONFORM_OVERLAY (one extra file), GPUCONFORM_RECORD (append
// the run record here), GPUCONFORM_QUICK=1 (fewer repeats).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <memory>
#include <optional>

#include "gpuconform/conformance.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// Device and expectations, resolved once per process on first use.
struct Session {
  std::optional<DeviceInfo> device;
  ExpectationSet expectations;
  std::string unusable;  // why no test can run: no GPU (skip)
  std::string invalid;   // an expectation file is broken (fail)

  static const Session& get() {
    static const Session session = make();
    return session;
  }

  static Session make() {
    Session s;
    std::string why;
    const int count = device_count(&why);
    if (count == 0) {
      s.unusable = why + "; GPU tests need an NVIDIA GPU and driver";
      return s;
    }
    const int index = env("GPUCONFORM_DEVICE") ? std::atoi(env("GPUCONFORM_DEVICE")) : 0;
    if (index < 0 || index >= count) {
      s.invalid = "GPUCONFORM_DEVICE=" + std::to_string(index) + " but this machine has " + std::to_string(count) +
                  " GPU(s)";
      return s;
    }
    try {
      s.device = query_device(index);
      std::vector<std::string> overlays;
      if (env("GPUCONFORM_OVERLAY")) overlays.push_back(env("GPUCONFORM_OVERLAY"));
      s.expectations = load_device_expectations(*s.device, default_expectations_dir(), overlays);
    } catch (const ExpectationError& err) {
      s.invalid = std::string("invalid expectation file(s):\n") + err.what();
    } catch (const std::exception& err) {
      s.invalid = err.what();
    }
    return s;
  }
};

// A sticky CUDA error (illegal address, trap, ...) survives in the context: every later
// call returns it. The probe that left it is remembered so later tests can say so.
struct ContextHealth {
  std::string poisoned_by;  // probe id
  std::string error;

  static ContextHealth& get() {
    static ContextHealth health;
    return health;
  }
  // Called after each probe: a failing synchronize means the context is gone.
  void check_after(const std::string& probe) {
    if (!poisoned_by.empty()) return;
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return;
    poisoned_by = probe;
    error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  }
};

class ConformanceTest : public testing::Test {
 public:
  explicit ConformanceTest(const Probe& probe) : probe_(probe) {}

  void TestBody() override {
    const Session& s = Session::get();
    if (!s.unusable.empty()) GTEST_SKIP() << s.unusable;
    ASSERT_TRUE(s.invalid.empty()) << s.invalid;
    ContextHealth& health = ContextHealth::get();
    ASSERT_TRUE(health.poisoned_by.empty())
        << "not run: the CUDA context was lost after probe " << health.poisoned_by << " (" << health.error
        << ") earlier in this process; run this probe alone: gpuconform_gpu_tests --gtest_filter="
        << test_suite_name(probe_) << "." << test_name(probe_) << " (or gpuconform run --filter " << probe_.id << ")";
    RunOptions options;
    options.quick = env("GPUCONFORM_QUICK") != nullptr;
    const TestResult r = run_conformance_test(probe_, *s.device, s.expectations, options);
    health.check_after(probe_.id);
    RecordProperty("probe", probe_.id);
    RecordProperty("verdict", outcome_name(r.verdict.outcome));
    RecordProperty("reason", r.verdict.reason);
    if (r.measurement) {
      RecordProperty("measured", std::to_string(r.measurement->value));
      RecordProperty("unit", r.measurement->unit);
    }
    if (r.expectation) RecordProperty("expected", describe_expected(*r.expectation));
    if (const char* path = env("GPUCONFORM_RECORD")) append_record_line(path, record_json(r, *s.device));
    switch (r.verdict.outcome) {
      case Outcome::skip: GTEST_SKIP() << r.verdict.reason;
      case Outcome::fail: FAIL() << probe_.id << ": " << r.verdict.reason;
      case Outcome::warn: std::cout << "WARN " << probe_.id << ": " << r.verdict.reason << "\n"; break;
      case Outcome::pass: std::cout << probe_.id << ": " << r.verdict.reason << "\n"; break;
    }
  }

 private:
  const Probe& probe_;
};

}  // namespace
}  // namespace gpuconform

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (const gpuconform::Probe& probe : gpuconform::Registry::instance().all()) {
    testing::RegisterTest(gpuconform::test_suite_name(probe).c_str(), gpuconform::test_name(probe).c_str(),
                          nullptr, probe.id.c_str(), __FILE__, __LINE__,
                          [&probe]() -> testing::Test* { return new gpuconform::ConformanceTest(probe); });
  }
  const int status = RUN_ALL_TESTS();
  const testing::UnitTest& all = *testing::UnitTest::GetInstance();
  // Nothing ran and nothing failed (no GPU, or no expectation for any probe selected):
  // ctest's SKIP_RETURN_CODE, so a group of skips is reported as skipped, not passed.
  if (status == 0 && all.successful_test_count() == 0 && all.skipped_test_count() > 0) return 77;
  return status;
}
