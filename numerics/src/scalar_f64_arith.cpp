// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_f64_arith.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "gpuconform/numerics/scalar_report.hpp"

namespace gpuconform::numerics {
namespace {

std::vector<ScalarF64Arith> make_table() {
  std::vector<ScalarF64Arith> t;
  for (ArithOp op : kArithOps)
    for (const ArithRounding& m : kArithRoundings) {
      const std::string ptx = fmt::format("{}.{}.f64", arith_op_name(op), m.name);
      t.push_back(ScalarF64Arith{"numeric.scalar." + ptx, ptx, F64ArithSpec{op, m.r}});
    }
  return t;
}

std::string f64_text(std::uint64_t x) {
  double d = 0;
  std::memcpy(&d, &x, sizeof d);
  return fmt::format("0x{:016x} ({:.17g})", x, d);
}

}  // namespace

const char* const kF64ArithCitation =
    "cite:PTX ISA, Floating-Point Instructions: add, sub, mul (.rnd.f64), fma.rnd.f64, div.rnd.f64, rcp.rnd.f64 and "
    "sqrt.rnd.f64 with .rn/.rz/.rm/.rp round as IEEE 754-2019 4.3 directs (to nearest even, toward zero, toward -inf, "
    "toward +inf), correctly rounded, subnormal numbers supported; "
    "docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions";

const std::vector<ScalarF64Arith>& scalar_f64_arith() {
  static const std::vector<ScalarF64Arith> table = make_table();
  return table;
}

const ScalarF64Arith* find_scalar_f64_arith(std::string_view id) {
  return scalar_report::find_row(scalar_f64_arith(), id);
}

std::uint64_t f64_arith_tuple_count() { return scalar_report::sampled_count(); }

std::uint64_t F64ArithScan::mismatches() const { return scalar_report::total(mismatches_by_class); }

Measurement f64_arith_measurement(const ScalarF64Arith& row, const F64ArithScan& scan) {
  Measurement m = scalar_report::mismatch_measurement(scan.mismatches(), scan.compared, row.ptx);
  m.note("reference",
         "exact: operands scaled near 1, the error-free remainder (TwoSum, TwoProd, ErrFma, fma remainder of a "
         "quotient or root) classified in quarters of an ulp, rounded to binary64 by integer code "
         "(numerics/scalar_f64_round.hpp); exact zeros signed as IEEE 754-2019 6.3; a NaN result matches any NaN");
  m.note("inputs", fmt::format("{} operand tuples (numerics/scalar_f64_arith.hpp f64_operands, tuple i of class "
                               "i % 5: uniform, boundary, ties, specials, subnormal)",
                               scan.compared));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  m.note("nan_results", fmt::format("{} NaN results: {} the first NaN operand made quiet, {} 0x7fffffffffffffff, {} "
                                    "other (first {})",
                                    scan.nan_results, scan.nan_quieted_operand, scan.nan_default,
                                    scan.nan_results - scan.nan_quieted_operand - scan.nan_default,
                                    scan.nan_results ? f64_text(scan.first_nan_result) : std::string("-")));
  std::string by_class;
  for (int k = 0; k < kArithClasses; ++k)
    by_class += fmt::format(
        "{}{} {}/{}", k ? ", " : "", kArithClassNames[k], scan.mismatches_by_class[k],
        scan.compared / kArithClasses + (static_cast<std::uint64_t>(k) < scan.compared % kArithClasses ? 1 : 0));
  m.note("mismatches_by_class", by_class);
  std::vector<F64Mismatch> first = scan.first;
  std::sort(first.begin(), first.end(), [](const F64Mismatch& a, const F64Mismatch& b) { return a.index < b.index; });
  const int operands = arith_operand_count(row.spec.op);
  std::vector<std::string> texts;
  for (const F64Mismatch& x : first) {
    std::string args = "a = " + f64_text(x.a);
    if (operands >= 2) args += ", b = " + f64_text(x.b);
    if (operands == 3) args += ", c = " + f64_text(x.c);
    const std::string want = x.want == f64::kInconsistent ? std::string(
                                                                "none (the error-free remainder exceeds half an "
                                                                "ulp: a wrong RN add or fma on this GPU)")
                                                          : f64_text(x.want);
    texts.push_back(
        fmt::format("{} {} -> gpu {}, reference {} (tuple {})", row.ptx, args, f64_text(x.got), want, x.index));
  }
  scalar_report::note_mismatches(m, texts);
  scalar_report::note_violations(m, scan.mismatches(), scan.compared, "operand tuples differ from the exact result",
                                 by_class);
  return m;
}

}  // namespace gpuconform::numerics
