// SPDX-License-Identifier: Apache-2.0
// Self-test fault injection, the green contexts (selftest_injection.hpp). Driver API through
// cudaGetDriverEntryPointByVersion: the suite links no libcuda.so (the GPU nodes run the
// binaries built elsewhere, and a new shared library would break every run); <cuda.h> gives
// the types only.
//
// How the probes end up in the green context: CUDA runtime calls operate on the driver
// context current to the calling thread; cudaSetDevice() makes the device's primary context
// current (CUDA Runtime API, "Interactions with the CUDA Driver API"). A green context,
// converted with cuCtxFromGreenCtx and made current with cuCtxSetCurrent, is used by the
// runtime like a primary context, with the green context's SMs for kernel launches; the
// streams cudaStreamCreate makes while it is current belong to it, and the NULL / legacy
// stream is the green context's default stream (cuStreamGetGreenCtx; CU_GREEN_CTX_DEFAULT_STREAM
// creates it). So the worker makes it current once, and use_device() (device_info.cpp), which
// every probe goes through after its cudaSetDevice, makes it current again. start() checks all
// of this on the GPU: cuStreamGetGreenCtx of the legacy and of a created stream, and the SM ids
// a kernel's blocks ran on in each.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/selftest_injection.hpp"
#include "selftest_gpu.hpp"

namespace gpuconform::selftest {
namespace {

constexpr unsigned kDriverAbi = 12040;  // green contexts came with CUDA 12.4
constexpr std::size_t kThiefBytes = std::size_t(2) << 30;
// CUDA Driver API, Green Contexts: on compute capability 9.x a loaded module with dynamic
// parallelism lets green-context kernels use 2 more SMs. The suite has none; allowed anyway.
constexpr int kExtraSmsAllowed = 2;

struct Driver {
  decltype(&cuGetErrorName) get_error_name = nullptr;
  decltype(&cuCtxGetDevice) ctx_get_device = nullptr;
  decltype(&cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&cuDeviceGetDevResource) device_get_dev_resource = nullptr;
  decltype(&cuDevSmResourceSplitByCount) split_by_count = nullptr;
  decltype(&cuDevResourceGenerateDesc) generate_desc = nullptr;
  decltype(&cuGreenCtxCreate) green_ctx_create = nullptr;
  decltype(&cuCtxFromGreenCtx) ctx_from_green_ctx = nullptr;
  decltype(&cuGreenCtxGetDevResource) green_ctx_get_dev_resource = nullptr;
  decltype(&cuStreamGetGreenCtx) stream_get_green_ctx = nullptr;
};

int driver_cuda_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) return 0;
  return v;
}

template <typename Fn>
void entry_point(const char* name, Fn& fn) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  const cudaError_t e = cudaGetDriverEntryPointByVersion(name, &p, kDriverAbi, cudaEnableDefault, &status);
#else  // an older toolkit (a toolkit-comparison build): the entry point of the driver's own ABI
  const cudaError_t e = cudaGetDriverEntryPoint(name, &p, cudaEnableDefault, &status);
#endif
  if (e != cudaSuccess || status != cudaDriverEntryPointSuccess || !p) {
    const int v = driver_cuda_version();
    const char* why = e != cudaSuccess                                    ? cudaGetErrorName(e)
                      : status == cudaDriverEntryPointVersionNotSufficent ? "driver version not sufficient"
                                                                          : "symbol not found";
    cudaGetLastError();
    throw InjectionError(fmt::format(
        "self-test injection needs CUDA green contexts (a CUDA 12.4 or newer driver); this driver (CUDA {}.{}) "
        "gives no {} ({})",
        v / 1000, v % 1000 / 10, name, why));
  }
  fn = reinterpret_cast<Fn>(p);
}

const Driver& driver() {
  static const Driver d = [] {
    Driver x;
    entry_point("cuGetErrorName", x.get_error_name);
    entry_point("cuCtxGetDevice", x.ctx_get_device);
    entry_point("cuCtxSetCurrent", x.ctx_set_current);
    entry_point("cuDeviceGetDevResource", x.device_get_dev_resource);
    entry_point("cuDevSmResourceSplitByCount", x.split_by_count);
    entry_point("cuDevResourceGenerateDesc", x.generate_desc);
    entry_point("cuGreenCtxCreate", x.green_ctx_create);
    entry_point("cuCtxFromGreenCtx", x.ctx_from_green_ctx);
    entry_point("cuGreenCtxGetDevResource", x.green_ctx_get_dev_resource);
    entry_point("cuStreamGetGreenCtx", x.stream_get_green_ctx);
    return x;
  }();
  return d;
}

std::string result_name(CUresult r) {
  const char* name = nullptr;
  if (driver().get_error_name && driver().get_error_name(r, &name) == CUDA_SUCCESS && name) return name;
  return fmt::format("CUresult {}", static_cast<int>(r));
}

// Throws InjectionError naming the call, its result and what was asked for.
void drv(CUresult r, const std::string& call, const std::string& asked) {
  if (r == CUDA_SUCCESS) return;
  std::string hint;
  if (r == CUDA_ERROR_NOT_SUPPORTED)
    hint =
        "; green contexts are not supported on this GPU or driver (they need CUDA 12.4+ and compute capability "
        "6.0+, and no MIG or MPS setting that forbids them)";
  throw InjectionError(
      fmt::format("self-test injection: {} failed: {} (requested: {}){}", call, result_name(r), asked, hint));
}

// The device's SM resource split once into groups of the smallest partition; the split's
// results (a group cannot be split again, and only outputs of one split combine).
struct Split {
  CUdevice device = 0;
  SmGeometry geometry;
  std::vector<CUdevResource> groups;
  unsigned min_partition = 0, alignment = 0;
};

Split split_device(int index, const std::string& asked) {
  const Driver& d = driver();
  GC_CUDA_CHECK(cudaSetDevice(index));
  GC_CUDA_CHECK(cudaFree(nullptr));  // the primary context exists and is current (cuGreenCtxCreate retains it)
  Split s;
  drv(d.ctx_get_device(&s.device), "cuCtxGetDevice", asked);
  CUdevResource all{};
  drv(d.device_get_dev_resource(s.device, &all, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource(SM)", asked);
#if CUDA_VERSION >= 13000
  s.min_partition = all.sm.minSmPartitionSize;
  s.alignment = all.sm.smCoscheduledAlignment;
#else  // headers before CUDA 13 do not say; the split below then reports what the driver refuses
  s.min_partition = 0;
  s.alignment = 0;
#endif
  unsigned min_count = std::max(1u, std::max(s.min_partition, s.alignment));
  if (s.alignment > 1) min_count = (min_count + s.alignment - 1) / s.alignment * s.alignment;
  const std::string split_call =
      fmt::format("cuDevSmResourceSplitByCount(minCount={}) of {} SMs", min_count, all.sm.smCount);
  unsigned n = 0;
  drv(d.split_by_count(nullptr, &n, &all, nullptr, 0, min_count), split_call + " (count)", asked);
  s.groups.resize(n);
  CUdevResource rest{};
  if (n > 0) drv(d.split_by_count(s.groups.data(), &n, &all, &rest, 0, min_count), split_call, asked);
  s.groups.resize(n);
  s.geometry.total_sms = static_cast<int>(all.sm.smCount);
  s.geometry.groups = static_cast<int>(n);
  s.geometry.group_sms = n > 0 ? static_cast<int>(s.groups[0].sm.smCount) : 0;
  for (const CUdevResource& g : s.groups)
    if (static_cast<int>(g.sm.smCount) != s.geometry.group_sms)
      throw InjectionError(
          fmt::format("self-test injection: {} gave groups of unequal size ({} and {} SMs; requested: {})", split_call,
                      s.geometry.group_sms, g.sm.smCount, asked));
  return s;
}

struct Green {
  CUgreenCtx green = nullptr;
  CUcontext context = nullptr;
};

Green make_green(const Split& s, int first, int count, int want_sms, const char* what, const std::string& asked) {
  const Driver& d = driver();
  const std::string part =
      fmt::format("{} context of groups {}..{} ({} SMs)", what, first, first + count - 1, want_sms);
  std::vector<CUdevResource> resources(s.groups.begin() + first, s.groups.begin() + first + count);
  CUdevResourceDesc desc = nullptr;
  drv(d.generate_desc(&desc, resources.data(), static_cast<unsigned>(count)),
      "cuDevResourceGenerateDesc for the " + part, asked);
  Green g;
  drv(d.green_ctx_create(&g.green, desc, s.device, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate for the " + part,
      asked);
  drv(d.ctx_from_green_ctx(&g.context, g.green), "cuCtxFromGreenCtx for the " + part, asked);
  CUdevResource got{};
  drv(d.green_ctx_get_dev_resource(g.green, &got, CU_DEV_RESOURCE_TYPE_SM), "cuGreenCtxGetDevResource", asked);
  if (static_cast<int>(got.sm.smCount) != want_sms)
    throw InjectionError(fmt::format("self-test injection: the {} holds {} SMs, not {} (requested: {})", part,
                                     got.sm.smCount, want_sms, asked));
  return g;
}

int distinct(const std::vector<unsigned>& ids) {
  return static_cast<int>(std::set<unsigned>(ids.begin(), ids.end()).size());
}

// The probe context, for use_device() on its thread.
struct Current {
  std::atomic<bool> active{false};
  int device = -1;
  CUcontext context = nullptr;
  std::thread::id owner;
};
Current& current() {
  static Current c;
  return c;
}

std::string asked_text(const InjectionRequest& r, int index) {
  return fmt::format("{} on GPU {}", r.settings(), index);
}

}  // namespace

struct Injection::State {
  InjectionRequest request;
  SmGeometry geometry;
  SmPlan plan;
  int probe_seen_legacy = 0, probe_seen_stream = 0, thief_seen = 0;
  std::string summary;
  std::unique_ptr<detail::HbmThief> thief;
};

SmPlan check_injection(int index, const InjectionRequest& request) {
  const std::string asked = asked_text(request, index);
  const Split s = split_device(index, asked);
  try {
    return plan_sm_partition(request, s.geometry);
  } catch (const InjectionError& e) {
    throw InjectionError(fmt::format("self-test injection on GPU {}: {}", index, e.what()));
  }
}

Injection::Injection(std::unique_ptr<State> state) : state_(std::move(state)) {}

Injection::~Injection() {
  if (state_ && state_->thief) state_->thief->stop();
  Current& c = current();
  if (c.owner == std::this_thread::get_id()) c.active = false;
}

std::unique_ptr<Injection> Injection::start(int index, const InjectionRequest& request) {
  const Driver& d = driver();
  const std::string asked = asked_text(request, index);
  const Split s = split_device(index, asked);
  auto st = std::make_unique<State>();
  st->request = request;
  st->geometry = s.geometry;
  try {
    st->plan = plan_sm_partition(request, s.geometry);
  } catch (const InjectionError& e) {
    throw InjectionError(fmt::format("self-test injection on GPU {}: {}", index, e.what()));
  }
  const SmPlan& plan = st->plan;
  const std::string partition = fmt::format("{}; probes {} SMs = groups 0..{}, thief {} SMs", asked, plan.probe_sms,
                                            plan.probe_groups - 1, plan.thief_sms);
  const Green probe = make_green(s, 0, plan.probe_groups, plan.probe_sms, "probe", partition);
  Green thief;
  if (plan.thief_groups > 0)
    thief = make_green(s, plan.probe_groups, plan.thief_groups, plan.thief_sms, "HBM thief", partition);

  drv(d.ctx_set_current(probe.context), "cuCtxSetCurrent(probe green context)", partition);
  Current& c = current();
  c.device = index;
  c.context = probe.context;
  c.owner = std::this_thread::get_id();
  c.active = true;
  struct Unhook {  // a start that fails leaves use_device() as it was
    bool armed = true;
    ~Unhook() {
      if (armed) current().active = false;
    }
  } unhook;

  // Do the runtime's launches land in it? The legacy default stream and a created stream must
  // belong to the probe green context, and their blocks run on no more SMs than it holds.
  CUgreenCtx of_legacy = nullptr, of_created = nullptr;
  drv(d.stream_get_green_ctx(CU_STREAM_LEGACY, &of_legacy), "cuStreamGetGreenCtx(CU_STREAM_LEGACY)", partition);
  cudaStream_t created = nullptr;
  GC_CUDA_CHECK(cudaStreamCreate(&created));
  std::vector<unsigned> legacy_ids, created_ids;
  try {
    drv(d.stream_get_green_ctx(reinterpret_cast<CUstream>(created), &of_created),
        "cuStreamGetGreenCtx(a cudaStreamCreate stream)", partition);
    const int blocks = 4 * s.geometry.total_sms;
    legacy_ids = detail::sm_ids_of_blocks(nullptr, blocks);
    created_ids = detail::sm_ids_of_blocks(created, blocks);
  } catch (...) {
    cudaStreamDestroy(created);
    throw;
  }
  GC_CUDA_CHECK(cudaStreamDestroy(created));
  if (of_legacy != probe.green || of_created != probe.green)
    throw InjectionError(
        fmt::format("self-test injection did not take effect: the {} stream does not belong to the probe green context "
                    "(cuStreamGetGreenCtx; requested: {})",
                    of_legacy != probe.green ? "legacy default" : "created", partition));
  st->probe_seen_legacy = distinct(legacy_ids);
  st->probe_seen_stream = distinct(created_ids);
  const int probe_seen = std::max(st->probe_seen_legacy, st->probe_seen_stream);
  if (probe_seen > plan.probe_sms + kExtraSmsAllowed)
    throw InjectionError(fmt::format(
        "self-test injection did not take effect: a check kernel launched through the runtime in the {}-SM probe "
        "green context ran on {} distinct SMs ({}) (requested: {})",
        plan.probe_sms, probe_seen, sm_id_ranges(legacy_ids), partition));

  std::string thief_text = "HBM thief off";
  if (plan.thief_groups > 0) {
    const CUcontext thief_context = thief.context;
    auto enter = [thief_context, partition] {
      drv(driver().ctx_set_current(thief_context), "cuCtxSetCurrent(HBM thief green context)", partition);
    };
    try {
      st->thief = std::make_unique<detail::HbmThief>(enter, plan.thief_sms, kThiefBytes);
    } catch (const std::exception& e) {
      throw InjectionError(
          fmt::format("self-test injection: the HBM thief did not start: {} (requested: {})", e.what(), partition));
    }
    const std::vector<unsigned>& ids = st->thief->sm_ids();
    st->thief_seen = distinct(ids);
    std::vector<unsigned> shared;
    for (unsigned id : std::set<unsigned>(ids.begin(), ids.end()))
      if (std::find(legacy_ids.begin(), legacy_ids.end(), id) != legacy_ids.end() ||
          std::find(created_ids.begin(), created_ids.end(), id) != created_ids.end())
        shared.push_back(id);
    if (st->thief_seen > plan.thief_sms + kExtraSmsAllowed || !shared.empty())
      throw InjectionError(fmt::format(
          "self-test injection did not take effect: the HBM thief's check kernel ran on {} distinct SMs ({}), {} "
          "of them also the probes' (requested: {})",
          st->thief_seen, sm_id_ranges(ids), shared.size(), partition));
    thief_text = fmt::format("HBM thief on {} SMs (its check kernel ran on {}: {}), streaming {} GiB", plan.thief_sms,
                             st->thief_seen, sm_id_ranges(ids), kThiefBytes >> 30);
  }
  st->summary = fmt::format(
      "GPU {}: SELF-TEST INJECTION ({}): probes run in a green context of {} of {} SMs ({} groups of {}); check "
      "kernels ran on {} SMs (legacy stream) and {} SMs (created stream): {}; {}",
      index, request.settings(), plan.probe_sms, s.geometry.total_sms, s.geometry.groups, s.geometry.group_sms,
      st->probe_seen_legacy, st->probe_seen_stream, sm_id_ranges(legacy_ids), thief_text);
  unhook.armed = false;
  return std::unique_ptr<Injection>(new Injection(std::move(st)));
}

nlohmann::json Injection::to_json() const {
  const State& s = *state_;
  nlohmann::json env = nlohmann::json::object();
  if (!s.request.sm_limit_text.empty()) env[kSmLimitVar] = s.request.sm_limit_text;
  if (!s.request.thief_text.empty()) env[kHbmThiefVar] = s.request.thief_text;
  nlohmann::json j = {{"env", env},
                      {"total_sms", s.geometry.total_sms},
                      {"group_sms", s.geometry.group_sms},
                      {"groups", s.geometry.groups},
                      {"probe_sms", s.plan.probe_sms},
                      {"probe_sms_seen", std::max(s.probe_seen_legacy, s.probe_seen_stream)},
                      {"thief_sms", s.plan.thief_sms}};
  if (s.thief) {
    j["thief_sms_seen"] = s.thief_seen;
    j["thief_read_gbps"] = std::round(s.thief->read_gbps() * 10) / 10;
  }
  return j;
}

std::string Injection::thief_error() const { return state_->thief ? state_->thief->error() : std::string(); }

const std::string& Injection::summary() const { return state_->summary; }

void rebind_probe_context(int index) {
  Current& c = current();
  if (!c.active || c.device != index || c.owner != std::this_thread::get_id()) return;
  const CUresult r = driver().ctx_set_current(c.context);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(fmt::format(
        "self-test injection: cuCtxSetCurrent(probe green context of GPU {}) failed: {}", index, result_name(r)));
}

}  // namespace gpuconform::selftest
