// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/profile_reference.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>
#include <unsupported/Eigen/MPRealSupport>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {
namespace {

using mpfr::mpreal;
using MpMatrix = Eigen::Matrix<mpreal, Eigen::Dynamic, Eigen::Dynamic>;

// 256 bits: every product and sum of these formats is exact or within 2^-240 of it. Eigen
// default-constructs its temporaries, so the default precision is what counts; MPFR keeps
// it per thread, and the guard restores it.
constexpr mpfr_prec_t kExactBits = 256;
class ExactPrecision {
 public:
  ExactPrecision() : saved_(mpreal::get_default_prec()) { mpreal::set_default_prec(kExactBits); }
  ~ExactPrecision() { mpreal::set_default_prec(saved_); }
  ExactPrecision(const ExactPrecision&) = delete;
  ExactPrecision& operator=(const ExactPrecision&) = delete;

 private:
  mpfr_prec_t saved_;
};

const ref::FloatFormat& format_of(ElementType t) {
  const ref::FloatFormat* f = float_format(t);
  if (!f || t == ElementType::f64)
    throw std::invalid_argument(fmt::format("numeric profiling needs a floating-point MMA below fp64, not {}",
                                            element_name(t)));
  return *f;
}

// The paper's conversion for the GPU (Copy_GPU<bf16> and the like): round to nearest even.
std::uint64_t encode(const ref::FloatFormat& f, double x) { return ref::from_double(f, x, ref::Rounding::kRNE); }
double round_to(const ref::FloatFormat& f, double x) { return ref::to_double(f, encode(f, x)); }

// fp32 arithmetic one operation at a time: no contraction into an fma.
float mul32(float a, float b) {
  volatile float p = a * b;
  return p;
}
float add32(float a, float b) {
  volatile float s = a + b;
  return s;
}

// One drawn value as the CPU holds it: fp32, or already in the MMA's format (init low).
double draw(ref::Rng& rng, ProfileInit init, const ref::FloatFormat& low) {
  const double x = static_cast<float>(normal01(rng));
  return init == ProfileInit::kLow ? round_to(low, x) : x;
}

double frobenius_relative(const Eigen::MatrixXd& d, const Eigen::MatrixXd& ref) { return (d - ref).norm() / ref.norm(); }

}  // namespace

const char* stage_name(ProfileStage s) {
  switch (s) {
    case ProfileStage::kMultiplication: return "multiplication";
    case ProfileStage::kInnerProduct: return "inner_product";
    case ProfileStage::kAccumulation: return "accumulation";
  }
  return "?";
}

const char* init_name(ProfileInit i) { return i == ProfileInit::kLow ? "init_low" : "init_f32"; }

double normal01(ref::Rng& rng) {
  constexpr double kTwoPi = 6.283185307179586476925;
  const double u1 = (static_cast<double>(rng() >> 11) + 1.0) * 0x1p-53;  // (0, 1]: log is finite
  const double u2 = static_cast<double>(rng() >> 11) * 0x1p-53;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

std::vector<double> exact_mma_values(const VectorVariant& v, const MmaInstance& in) {
  const ExactPrecision precision;
  MpMatrix a(v.m, v.k), b(v.k, v.n), c(v.m, v.n);
  for (int i = 0; i < v.m; ++i)
    for (int k = 0; k < v.k; ++k) a(i, k) = element_value(v.ab_type, in.a[static_cast<std::size_t>(i) * v.k + k]);
  for (int j = 0; j < v.n; ++j)
    for (int k = 0; k < v.k; ++k) b(k, j) = element_value(v.ab_type, in.b[static_cast<std::size_t>(j) * v.k + k]);
  for (int i = 0; i < v.m; ++i)
    for (int j = 0; j < v.n; ++j) c(i, j) = element_value(v.d_type, in.c[static_cast<std::size_t>(i) * v.n + j]);
  const MpMatrix d = a * b + c;
  std::vector<double> out;
  for (int i = 0; i < v.m; ++i)
    for (int j = 0; j < v.n; ++j) out.push_back(d(i, j).toDouble());
  return out;
}

ElementProfile profile_elements(const VectorVariant& v, ProfileStage stage, ProfileInit init, int count,
                                std::uint64_t seed, const MmaRunner& run) {
  const ref::FloatFormat& ab = format_of(v.ab_type);
  const ref::FloatFormat& cd = format_of(v.d_type);
  ref::Rng rng(seed);
  struct Case {
    double a0, a1, b0, b1, c0;  // as the CPU holds them
  };
  std::vector<Case> cases;
  std::vector<MmaInstance> instances;
  for (int n = 0; n < count; ++n) {
    Case x{draw(rng, init, ab), 0, 1, 0, 0};
    switch (stage) {
      case ProfileStage::kMultiplication: x.b0 = draw(rng, init, ab); break;
      case ProfileStage::kInnerProduct:
        x.a1 = draw(rng, init, ab);
        x.b1 = 1;
        break;
      case ProfileStage::kAccumulation: x.c0 = draw(rng, init, ab); break;
    }
    MmaInstance in;
    in.klass = stage_name(stage);
    in.a.assign(v.a_count(), 0);
    in.b.assign(v.b_count(), 0);
    in.c.assign(v.c_count(), 0);
    in.a[0] = encode(ab, x.a0);
    in.a[1] = encode(ab, x.a1);
    in.b[0] = encode(ab, x.b0);  // column 0 of B: elements (0, 0) and (1, 0)
    in.b[1] = encode(ab, x.b1);
    in.c[0] = encode(cd, x.c0);
    cases.push_back(x);
    instances.push_back(std::move(in));
  }
  const std::vector<std::uint64_t> d = run(instances);
  const ExactPrecision precision;
  ElementProfile out;
  const std::size_t per = v.c_count();
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const Case& x = cases[n];
    const double got = ref::to_double(cd, d[n * per]);
    const float f32 = add32(add32(mul32(static_cast<float>(x.a0), static_cast<float>(x.b0)),
                                  mul32(static_cast<float>(x.a1), static_cast<float>(x.b1))),
                            static_cast<float>(x.c0));
    const mpreal exact = mpreal(x.a0) * mpreal(x.b0) + mpreal(x.a1) * mpreal(x.b1) + mpreal(x.c0);
    const double err_exact = std::fabs((mpreal(got) - exact).toDouble());
    out.vs_f32 += std::fabs(got - f32);
    out.vs_f32_in_d += std::fabs(got - round_to(cd, f32));
    out.vs_exact += err_exact;
    out.max_vs_exact = std::max(out.max_vs_exact, err_exact);
  }
  out.samples = static_cast<int>(cases.size());
  if (out.samples > 0) {
    out.vs_f32 /= out.samples;
    out.vs_f32_in_d /= out.samples;
    out.vs_exact /= out.samples;
  }
  return out;
}

ChainProfile profile_chain(const VectorVariant& v, ProfileInit init, int steps, int chains, std::uint64_t seed,
                           const MmaRunner& run) {
  const ref::FloatFormat& ab = format_of(v.ab_type);
  const ref::FloatFormat& cd = format_of(v.d_type);
  if (v.n != 8 || v.k % 8 != 0) throw std::invalid_argument(v.name + ": a chain needs N = 8 and K a multiple of 8");
  const int m = v.m, k = v.k, blocks = k / 8;
  const ExactPrecision precision;
  ref::Rng rng(seed);
  auto random_matrix = [&](int rows, int cols) {
    Eigen::MatrixXd x(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) x(i, j) = draw(rng, init, ab);
    return x;
  };
  // Per chain: the GPU's A (values exact in the input format), and the two references.
  std::vector<Eigen::MatrixXd> gpu_a(chains), ref64(chains);
  std::vector<MpMatrix> exact(chains);
  for (int c = 0; c < chains; ++c) {
    const Eigen::MatrixXd a0 = random_matrix(m, k);
    ref64[c] = a0;
    exact[c] = a0.cast<mpreal>();
    gpu_a[c] = a0.unaryExpr([&](double x) { return round_to(ab, x); });
  }
  ChainProfile out;
  for (int step = 1; step <= steps; ++step) {
    std::vector<Eigen::MatrixXd> b(chains);
    std::vector<MmaInstance> instances;
    for (int c = 0; c < chains; ++c) {
      b[c] = random_matrix(k, k);
      for (int blk = 0; blk < blocks; ++blk) {
        MmaInstance in;
        in.klass = "chain";
        in.a.resize(v.a_count());
        in.b.resize(v.b_count());
        in.c.assign(v.c_count(), 0);
        for (int i = 0; i < m; ++i)
          for (int kk = 0; kk < k; ++kk) in.a[static_cast<std::size_t>(i) * k + kk] = encode(ab, gpu_a[c](i, kk));
        for (int j = 0; j < 8; ++j)
          for (int kk = 0; kk < k; ++kk) in.b[static_cast<std::size_t>(j) * k + kk] = encode(ab, b[c](kk, 8 * blk + j));
        instances.push_back(std::move(in));
      }
    }
    const std::vector<std::uint64_t> d = run(instances);
    double sum64 = 0, sum_exact = 0;
    bool finite = true;
    for (int c = 0; c < chains; ++c) {
      Eigen::MatrixXd got(m, k);
      for (int blk = 0; blk < blocks; ++blk)
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < 8; ++j)
            got(i, 8 * blk + j) =
                ref::to_double(cd, d[(static_cast<std::size_t>(c) * blocks + blk) * v.c_count() + i * 8 + j]);
      ref64[c] = ref64[c] * b[c];
      exact[c] = exact[c] * b[c].cast<mpreal>();
      const Eigen::MatrixXd exact_d = exact[c].unaryExpr([](const mpreal& x) { return x.toDouble(); });
      sum64 += frobenius_relative(got, ref64[c]);
      sum_exact += frobenius_relative(got, exact_d);
      gpu_a[c] = got.unaryExpr([&](double x) { return round_to(ab, x); });
      finite &= got.allFinite() && gpu_a[c].allFinite();
    }
    if (!finite || !std::isfinite(sum64) || !std::isfinite(sum_exact)) {
      out.overflow_step = step;
      break;
    }
    out.vs_fp64.push_back(sum64 / chains);
    out.vs_exact.push_back(sum_exact / chains);
  }
  return out;
}

}  // namespace gpuconform::numerics
