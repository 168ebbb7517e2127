#include "numeric/mma_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "gpuconform/reference/discriminating_vectors.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kMismatchesShown = 5;

std::string hex_row(const std::vector<std::uint64_t>& v, std::size_t first, std::size_t count,
                    std::size_t step, int digits) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += fmt::format("{:0{}x}", v[first + i * step], digits);
  return out;
}

}  // namespace

const ref::TensorCoreModel* resolve_model(const ProbeContext& ctx, const char* variant) {
  if (ctx.expectation) {
    const ref::TensorCoreModel* m = ref::find_model(ctx.expectation->model);
    if (!m) {
      std::string known;
      for (const auto& id : ref::model_ids()) known += (known.empty() ? "" : ", ") + id;
      throw std::runtime_error(fmt::format("{}: unknown reference model '{}' (known: {})",
                                           ctx.expectation->where.str(), ctx.expectation->model, known));
    }
    return m;
  }
  const ref::TensorCoreModel* m = ref::default_model(ctx.device.arch(), variant);
  if (!m)
    throw ProbeSkipped(fmt::format("no reference model for {} on {}: add a row to reference/models.cpp",
                                   variant, ctx.device.arch()));
  return m;
}

void check_layout(const MmaRunner& run, const std::vector<MmaInstance>& instances, MmaShape s, BitFormat f) {
  const std::vector<std::uint64_t> d = run(instances);
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        double exact;
        const auto cbits = static_cast<std::uint32_t>(in.c[i * s.n + j]);
        float cf;
        std::memcpy(&cf, &cbits, 4);
        exact = cf;
        for (int k = 0; k < s.k; ++k)
          exact += decode_bits(in.a[i * s.k + k], f) * decode_bits(in.b[j * s.k + k], f);
        const auto gbits = static_cast<std::uint32_t>(d[n * s.m * s.n + i * s.n + j]);
        float got;
        std::memcpy(&got, &gbits, 4);
        if (static_cast<double>(got) != exact)
          throw std::runtime_error(fmt::format(
              "fragment layout self-test failed: instance {} D[{}][{}] = {} but the exact integer result "
              "is {} (the kernel's operand layout does not match the PTX ISA for this shape)",
              n, i, j, got, exact));
      }
  }
}

void append_discriminating_probes(const ref::TensorCoreModel& model, MmaShape s,
                                  std::vector<MmaInstance>& instances) {
  for (const ref::DiscriminatingVector& v : ref::discriminating_vectors(model)) {
    if (static_cast<int>(v.a.size()) > s.k) continue;
    MmaInstance in;
    in.klass = "probe:" + v.name;
    in.a.assign(static_cast<std::size_t>(s.m) * s.k, 0);
    in.b.assign(static_cast<std::size_t>(s.k) * s.n, 0);
    in.c.assign(static_cast<std::size_t>(s.m) * s.n, 0);
    for (std::size_t k = 0; k < v.a.size(); ++k) {
      in.a[k] = v.a[k];  // row 0
      in.b[k] = v.b[k];  // column 0
    }
    in.c[0] = v.c;
    instances.push_back(std::move(in));
  }
}

Measurement compare_with_model(const ref::TensorCoreModel& model, const MmaRunner& run,
                               const std::vector<MmaInstance>& instances, MmaShape s, BitFormat f) {
  const std::vector<std::uint64_t> got = run(instances);
  const std::size_t per = static_cast<std::size_t>(s.m) * s.n;
  std::vector<std::uint64_t> want(per);
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_class;  // class -> (mismatched, total)
  Measurement m;
  m.unit = "mismatches";
  std::uint64_t mismatches = 0;
  const int in_digits = (f.width() + 3) / 4;
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    ref::mma(model, s.m, s.n, s.k, in.a.data(), in.b.data(), in.c.data(), want.data());
    const std::string klass = in.klass.rfind("probe:", 0) == 0 ? "probe" : in.klass;
    for (std::size_t e = 0; e < per; ++e) {
      auto& counts = by_class[klass];
      ++counts.second;
      if (got[n * per + e] == want[e]) continue;
      ++counts.first;
      if (++mismatches > kMismatchesShown) continue;
      const int i = static_cast<int>(e) / s.n, j = static_cast<int>(e) % s.n;
      std::string text = fmt::format(
          "instance {} ({}) D[{}][{}]: gpu {:08x} model {:08x}; a(row {}) {} b(col {}) {} c {:08x}", n,
          in.klass, i, j, got[n * per + e], want[e], i, hex_row(in.a, i * s.k, s.k, 1, in_digits), j,
          hex_row(in.b, j * s.k, s.k, 1, in_digits), in.c[e]);
      if (mismatches == 1) m.note("first_mismatch", text);
      m.note(fmt::format("mismatch_{}", mismatches), text);
    }
  }
  m.value = static_cast<double>(mismatches);
  m.compared = instances.size() * per;
  std::string classes;
  for (const auto& [klass, counts] : by_class)
    classes += fmt::format("{}{}: {}/{}", classes.empty() ? "" : ", ", klass, counts.first, counts.second);
  m.note("model", model.id);
  m.note("mismatches_by_class", classes);
  return m;
}

}  // namespace gpuconform::kernels
