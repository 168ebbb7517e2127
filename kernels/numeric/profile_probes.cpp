// SPDX-License-Identifier: Apache-2.0
// numeric.profile.*: seed 001's numeric profiling (Sun et al. §8) as probes, the MMA on the
// GPU through the MmaVariant runner, the references on the CPU (profile_reference.hpp:
// Eigen over MPFR):
//   numeric.profile.<path>.<stage>.<init>  value: mean |d0 - CPU fp32 result| over 1000
//     instances (the paper's Tables 12-15 figure); notes: the same against the exact value;
//     every probe of a path carries the path's whole table (stage x init) twice, against the
//     CPU fp32 result and against the exact value, as Matrix entries of the run record.
//   numeric.profile.chain.<path>  value: mean l2 relative error against the exact (MPFR)
//     chain after step 2 (every format still finite there, FP8 included); Series: the error
//     after each step against fp64 and against exact, inputs drawn in the MMA's format and
//     in fp32 (the paper's Fig 20 curves).
// Bands come from hardware runs (`gpuconform record`); nothing here is judged against a
// number typed in code. A path's profile is computed once per process and device.
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "gpuconform/probe.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/profile_reference.hpp"

namespace gpuconform::kernels {
namespace {

using namespace gpuconform::numerics;

struct ProfilePath {
  const char* path;     // model-id spelling: mma_sync.<D>.<A/B>
  const char* variant;  // the vector-file variant that runs it (the paper's m16n8k8 where there is one)
  int min_cc;
  bool chain;           // also a chain probe
};
constexpr ProfilePath kPaths[] = {
    {"mma_sync.f32.bf16", "mma_m16n8k8_f32_bf16", 80, true},   // Table 12
    {"mma_sync.f32.f16", "mma_m16n8k8_f32_f16", 80, true},     // Table 13
    {"mma_sync.f16.f16", "mma_m16n8k8_f16_f16", 80, false},    // Table 14
    {"mma_sync.f32.tf32", "mma_m16n8k8_f32_tf32", 80, true},   // Table 15
    {"mma_sync.f32.e4m3", "mma_m16n8k32_f32_e4m3", 89, true},  // not in the paper: FP8 beside them
    {"mma_sync.f32.e5m2", "mma_m16n8k32_f32_e5m2", 89, false},
};
constexpr ProfileStage kStages[] = {ProfileStage::kMultiplication, ProfileStage::kInnerProduct,
                                    ProfileStage::kAccumulation};
constexpr ProfileInit kInits[] = {ProfileInit::kLow, ProfileInit::kF32};
constexpr std::size_t kPathCount = sizeof(kPaths) / sizeof(kPaths[0]);

constexpr int kElementInstances = 1000;  // the paper averages 1000 measurements
constexpr int kChainSteps = 16;          // past f16's overflow (the paper: N >= 10)
constexpr std::uint64_t kSeed = 0x70726f66696c6531ull;  // "profile1": one stream for every format, as the paper

const MmaVariant& runnable(const ProfilePath& p, const DeviceInfo& device) {
  const MmaVariant* v = find_mma_variant(p.variant);
  if (!v) throw std::logic_error(std::string("profile probe for an unregistered MMA variant: ") + p.variant);
  if (std::string why = unsupported_reason(*v, device); !why.empty()) throw ProbeSkipped(why);
  return *v;
}

MmaRunner runner_of(const MmaVariant& v) {
  return [&v](const std::vector<MmaInstance>& in) { return v.run(in); };
}

struct PathTables {
  ElementProfile cells[3][2];  // [stage][init]
};

const PathTables& element_tables(const ProfilePath& p, const DeviceInfo& device) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, PathTables> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(std::string(p.path), device.index);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const MmaVariant& v = runnable(p, device);
  PathTables t;
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i)
      t.cells[s][i] = profile_elements(v.layout, kStages[s], kInits[i], kElementInstances, kSeed + s, runner_of(v));
  return cache.emplace(key, t).first->second;
}

Matrix table_matrix(const PathTables& t, bool exact) {
  Matrix m;
  m.name = exact ? "mean_abs_error_vs_exact" : "mean_abs_error_vs_cpu_f32";
  m.row_name = "stage (0 multiplication, 1 inner product, 2 accumulation)";
  m.row_unit = "index";
  m.col_name = "inputs (0 drawn in the MMA's format, 1 drawn in fp32 and rounded)";
  m.col_unit = "index";
  m.value_name = exact ? "mean |d0 - exact|" : "mean |d0 - CPU fp32|";
  m.value_unit = "abs error";
  m.rows = {0, 1, 2};
  m.cols = {0, 1};
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i) m.values.push_back(exact ? t.cells[s][i].vs_exact : t.cells[s][i].vs_f32);
  return m;
}

Measurement measure_element(const ProbeContext& ctx, const ProfilePath& p, int stage, int init) {
  const PathTables& t = element_tables(p, ctx.device);
  const ElementProfile& e = t.cells[stage][init];
  Measurement m;
  m.value = e.vs_f32;
  m.unit = "abs error";
  m.compared = static_cast<std::uint64_t>(e.samples);
  m.note("baseline", "mean |d0 - the CPU's fp32 result| (seed 001 §8.1)");
  m.note("vs_exact", fmt::format("mean {:.6g}, max {:.6g} (MPFR, Eigen<mpreal>)", e.vs_exact, e.max_vs_exact));
  if (e.vs_f32_in_d != e.vs_f32) m.note("vs_cpu_f32_rounded_to_d", fmt::format("{:.6g}", e.vs_f32_in_d));
  m.matrices.push_back(table_matrix(t, false));
  m.matrices.push_back(table_matrix(t, true));
  return m;
}

struct PathChains {
  ChainProfile by_init[2];
};

const PathChains& chains_of(const ProfilePath& p, const ProbeContext& ctx) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, PathChains> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(std::string(p.path), ctx.device.index);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const MmaVariant& v = runnable(p, ctx.device);
  // The exact chain costs M*K*K MPFR products a step: fewer chains for K = 32.
  const int chains = (v.layout.k > 8 ? 8 : 32) / (ctx.quick ? 4 : 1);
  PathChains c;
  for (int i = 0; i < 2; ++i) c.by_init[i] = profile_chain(v.layout, kInits[i], kChainSteps, chains, kSeed, runner_of(v));
  return cache.emplace(key, c).first->second;
}

Series curve(const ChainProfile& c, ProfileInit init, bool exact) {
  Series s;
  s.name = fmt::format("chain_error_vs_{}_{}", exact ? "exact" : "fp64", init_name(init));
  s.x_name = "chain length";
  s.x_unit = "GEMMs";
  s.y_name = exact ? "l2 relative error against the MPFR chain" : "l2 relative error against the fp64 chain";
  s.y_unit = "relative";
  s.y = exact ? c.vs_exact : c.vs_fp64;
  for (std::size_t i = 0; i < s.y.size(); ++i) s.x.push_back(static_cast<double>(i + 1));
  return s;
}

constexpr std::size_t kChainValueStep = 2;

Measurement measure_chain(const ProbeContext& ctx, const ProfilePath& p) {
  const PathChains& c = chains_of(p, ctx);
  const ChainProfile& low = c.by_init[0];
  if (low.vs_exact.size() < kChainValueStep)
    throw std::runtime_error(fmt::format("{}: the chain overflowed at step {}, before step {} that the value reads",
                                         p.path, low.overflow_step, kChainValueStep));
  Measurement m;
  m.value = low.vs_exact[kChainValueStep - 1];
  m.unit = "l2 relative error";
  m.note("value", fmt::format("after {} GEMMs, inputs drawn in the MMA's format, against the MPFR chain",
                              kChainValueStep));
  for (int i = 0; i < 2; ++i) {
    const ChainProfile& x = c.by_init[i];
    m.note(init_name(kInits[i]), x.overflow_step ? fmt::format("inf or NaN from step {} on", x.overflow_step)
                                                 : fmt::format("finite for all {} steps", kChainSteps));
    m.series.push_back(curve(x, kInits[i], false));
    m.series.push_back(curve(x, kInits[i], true));
  }
  return m;
}

template <std::size_t P, std::size_t S, std::size_t I>
Measurement run_element(const ProbeContext& ctx) {
  return measure_element(ctx, kPaths[P], S, I);
}
template <std::size_t P>
Measurement run_chain(const ProbeContext& ctx) {
  return measure_chain(ctx, kPaths[P]);
}

template <std::size_t P>
void register_path() {
  const ProfilePath& p = kPaths[P];
  const Requirements needs{p.min_cc};
  const RecordHint hint{ExpectationKind::band, 0, 0.01};
  auto add = [&](std::string id, std::string summary, ProbeFn fn) {
    register_probes({Probe{std::move(id), Family::numeric, std::move(summary), needs, hint, fn}});
  };
  const ProbeFn element_fns[3][2] = {{&run_element<P, 0, 0>, &run_element<P, 0, 1>},
                                     {&run_element<P, 1, 0>, &run_element<P, 1, 1>},
                                     {&run_element<P, 2, 0>, &run_element<P, 2, 1>}};
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < 2; ++i)
      add(fmt::format("numeric.profile.{}.{}.{}", p.path, stage_name(kStages[s]), init_name(kInits[i])),
          fmt::format("{}: mean abs error of the {} against the CPU fp32 result ({}), seed 001 §8.1", p.variant,
                      stage_name(kStages[s]), init_name(kInits[i])),
          element_fns[s][i]);
  if (p.chain)
    add(fmt::format("numeric.profile.chain.{}", p.path),
        fmt::format("{}: l2 relative error of a chain of GEMMs against an MPFR chain, seed 001 §8.2", p.variant),
        &run_chain<P>);
}

template <std::size_t... P>
bool register_all(std::index_sequence<P...>) {
  (register_path<P>(), ...);
  return true;
}

const bool kRegistered = register_all(std::make_index_sequence<kPathCount>{});

}  // namespace
}  // namespace gpuconform::kernels
