// SPDX-License-Identifier: Apache-2.0
#pragma once
// libcupti, loaded at run time with dlopen (never linked: see cupti_api.hpp).
// A library that is missing, is not CUPTI or lacks the range profiler is
// recorded as text, the reason the counting probes skip with; nothing here
// touches a GPU, so all of it runs in the CPU unit tests.
#include <memory>
#include <string>
#include <vector>

namespace gpuconform::kernels::cupti {

struct Api;

// Where libcupti is looked for, in order.
struct SearchPlace {
  std::string override_path;  // $GPUCONFORM_CUPTI_LIBRARY: when set, the only candidate
  std::string cuda_home;      // $CUDA_HOME (or $CUDA_PATH): a toolkit outside /usr/local/cuda
  int cuda_major = 0;         // the CUDA version this build's CUPTI headers are of (13, 0)
  int cuda_minor = 0;
};

// The search place of this process (environment, and the headers' CUDA version).
SearchPlace process_search_place();

// The candidate paths: the override alone, else the plain soname libcupti.so.<major> (the
// loader's path: LD_LIBRARY_PATH, ld.so.conf), then the toolkit directories that hold it
// ($CUDA_HOME, /usr/local/cuda, /usr/local/cuda-<major>.<minor>: extras/CUPTI/lib64, lib64,
// targets/<arch>-linux/lib), then the unversioned libcupti.so of a -dev install.
std::vector<std::string> library_candidates(const SearchPlace& place);

class Library {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }  // why counters cannot be read
  const std::string& path() const { return path_; }    // the candidate that loaded (=> its file)
  const Api& api() const { return *api_; }             // only when ok()

  // Tries `candidates` in order; the first that loads and has every entry point of Api
  // wins. The handle is never closed: CUPTI leaves callbacks in the driver that must
  // outlive it.
  static std::shared_ptr<const Library> load(const std::vector<std::string>& candidates);

 private:
  static std::shared_ptr<const Library> failure(std::string why);

  std::string path_, error_;
  std::shared_ptr<const Api> api_;
};

// The process's CUPTI, loaded once (thread-safe) from library_candidates(process_search_place()).
std::shared_ptr<const Library> process_library();

// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35): <what to do>" for a CUptiResult, with
// `library_text` (cuptiGetResultString's) when the library gave one. The codes and
// names are those of cupti_result.h.
std::string describe_result(int code, const char* library_text = nullptr);

}  // namespace gpuconform::kernels::cupti
