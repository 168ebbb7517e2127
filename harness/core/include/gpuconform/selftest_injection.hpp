// SPDX-License-Identifier: Apache-2.0
#pragma once
// Self-test fault injection (issue 19, item 8; docs/selftest.md): proof on a real GPU that the
// suite fails a degraded board. Never on by default; two environment variables turn it on for
// `gpuconform run` (its worker processes, one per GPU):
//
//   GPUCONFORM_SELFTEST_SM_LIMIT=N   every probe runs in a CUDA green context of N SMs (-M: M
//                                    fewer than the GPU has, rounded down to the driver's group
//                                    size), so it meets a GPU that lost SMs;
//   GPUCONFORM_SELFTEST_HBM_THIEF=K  a kernel on K SMs of a second green context streams HBM
//                                    during every probe (alone: the probes get the other SMs).
//
// A run with injection says so loudly on the console, in its record's header and in every test
// line ("selftest_injection"), and `gpuconform record --from` refuses such a record as evidence.
// This file: the CPU side (parsing, the partition arithmetic, the messages, the record marks),
// and the worker's entry points into the GPU side (selftest_green_context.cpp,
// selftest_thief.cu).
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuconform::selftest {

inline constexpr const char* kSmLimitVar = "GPUCONFORM_SELFTEST_SM_LIMIT";
inline constexpr const char* kHbmThiefVar = "GPUCONFORM_SELFTEST_HBM_THIEF";

// A request that cannot be met, or a driver that cannot meet it, in words a person can act on.
class InjectionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct InjectionRequest {
  std::optional<int> sm_limit;   // SMs the probes may use; negative: that many fewer than the GPU's
  std::optional<int> thief_sms;  // SMs of the HBM thief
  std::string sm_limit_text;     // the variables as set ("" = unset)
  std::string thief_text;
  bool active() const { return sm_limit.has_value() || thief_sms.has_value(); }
  // "GPUCONFORM_SELFTEST_SM_LIMIT=120 GPUCONFORM_SELFTEST_HBM_THIEF=8" (the ones set).
  std::string settings() const;
};

// Parses the variables' values (nullptr or "" = unset). Throws InjectionError naming the
// variable, what it must be and how to turn injection off.
InjectionRequest parse_injection(const char* sm_limit, const char* thief);
// The same, from the environment.
InjectionRequest injection_from_env();
// Either variable is set to something (valid or not): the parent's banner and header.
bool injection_requested();

// How the driver partitions one GPU's SMs: a single split of the whole GPU into `groups`
// groups of `group_sms` (8 on Hopper); the rest (total - groups x group_sms) joins no
// partition, and a group cannot be split again.
struct SmGeometry {
  int total_sms = 0;
  int group_sms = 0;
  int groups = 0;
  int partitionable() const { return group_sms * groups; }
};

// Which groups go where: the probe context takes the first `probe_groups` groups of the
// split, the thief the next `thief_groups`.
struct SmPlan {
  int probe_sms = 0;
  int thief_sms = 0;  // 0: no thief
  int probe_groups = 0;
  int thief_groups = 0;
};

// The partition a request asks for on a GPU of geometry `g`; throws InjectionError when it
// is not possible there (not a multiple of the group size, no SM taken away, more SMs than
// the driver can partition, nothing left for the probes), saying which values are.
SmPlan plan_sm_partition(const InjectionRequest& request, const SmGeometry& g);
// "8, 16, 24, ..., 128": the SM limits possible on `g` (each a loss of at least one SM).
std::string possible_sm_limits(const SmGeometry& g);
// "0-7, 16-23, 131": SM ids as sorted, merged ranges (duplicates ignored).
std::string sm_id_ranges(std::vector<unsigned> ids);

// The console's banner for the parent of a run, "" when injection is not requested.
std::string injection_banner();
// The run record header's mark: null when not requested, else {"env": {VAR: value, ...}, "note"}.
nlohmann::json injection_header_json();
// Prints injection_banner() to stderr once per process (the runner's first worker start).
void announce_injection_once();

// `path:line` and the settings of the first line of a run record that a run with injection
// wrote (a header or test line holding "selftest_injection"); none when there is none or the
// file cannot be read. `gpuconform record --from` refuses such a file.
std::optional<std::string> injected_record_line(const std::string& path);

// ---- GPU side (a worker process) ----

// Checks `request` against device `index` without creating a context of its own (the
// describe worker: bad input fails before any probe). Returns the plan. Throws
// InjectionError with the driver call, its CUresult name and the requested partition.
SmPlan check_injection(int index, const InjectionRequest& request);

// The injection of one worker: the probe green context (current to the creating thread,
// and again after every use_device() there), the thief's green context and thread.
class Injection {
 public:
  // Sets it up on device `index` and verifies that runtime launches land in it (a kernel's
  // %smid on the legacy default stream and on a created stream). Throws InjectionError.
  static std::unique_ptr<Injection> start(int index, const InjectionRequest& request);
  ~Injection();  // stops and joins the thief; the green contexts go with the process
  Injection(const Injection&) = delete;
  Injection& operator=(const Injection&) = delete;

  // For each record line: settings, partition, SMs seen by the check kernels, thief rate.
  nlohmann::json to_json() const;
  // What the thief thread stopped on ("" while it streams or when there is none).
  std::string thief_error() const;
  // One line for the console: the partition and the SM ids the check kernels ran on.
  const std::string& summary() const;

  struct State;  // selftest_green_context.cpp

 private:
  explicit Injection(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// use_device()'s hook: on the thread that started an Injection for `index`, makes its
// probe green context current again (cudaSetDevice binds the primary context). A no-op
// otherwise. Throws std::runtime_error when the driver refuses.
void rebind_probe_context(int index);

}  // namespace gpuconform::selftest
