// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_arith.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuconform/numerics/scalar_report.hpp"

namespace gpuconform::numerics {
namespace {

// Every rounding, with and without .ftz, of one binary32 op (.sat: the clamped form).
void add_binary32_rows(std::vector<ScalarArith>& t, ArithOp op, bool sat) {
  for (const ArithRounding& m : kArithRoundings)
    for (bool ftz : {false, true}) {
      const std::string ptx =
          fmt::format("{}.{}{}{}.f32", arith_op_name(op), m.name, ftz ? ".ftz" : "", sat ? ".sat" : "");
      const ref::scalar::Target target =
          ref::scalar::target_of(ref::kFp32, m.r, ref::Overflow::kIeee, ref::scalar::NanRule::kCanonical,
                                 ref::scalar::kF32CanonicalNan, false, ftz);
      t.push_back(ScalarArith{"numeric.scalar." + ptx, ptx, ArithSpec{op, target, target, 1, false, sat}, 75});
    }
}

std::vector<ScalarArith> make_table() {
  std::vector<ScalarArith> t;
  for (ArithOp op : kArithOps) add_binary32_rows(t, op, false);
  // 16-bit forms: .rn only (bf16 has no .ftz and no .sat); binary ops over all 2^32 operand
  // pairs; the f16 forms also with .sat (PTX: op{.rnd}{.ftz}{.sat}.f16).
  const struct {
    const ref::FloatFormat* f;
    const char* type;
    int lanes;
    bool ftz;
    bool sat;
  } forms[] = {{&ref::kFp16, "f16", 1, false, false},   {&ref::kFp16, "f16", 1, true, false},
               {&ref::kFp16, "f16x2", 2, false, false}, {&ref::kFp16, "f16x2", 2, true, false},
               {&ref::kBf16, "bf16", 1, false, false},  {&ref::kBf16, "bf16x2", 2, false, false},
               {&ref::kFp16, "f16", 1, false, true},    {&ref::kFp16, "f16", 1, true, true},
               {&ref::kFp16, "f16x2", 2, false, true},  {&ref::kFp16, "f16x2", 2, true, true}};
  for (ArithOp op : {ArithOp::add, ArithOp::sub, ArithOp::mul, ArithOp::fma})
    for (const auto& form : forms) {
      const std::string ptx =
          fmt::format("{}.rn{}{}.{}", arith_op_name(op), form.ftz ? ".ftz" : "", form.sat ? ".sat" : "", form.type);
      const ref::scalar::Target target =
          ref::scalar::target_of(*form.f, ref::Rounding::kRNE, ref::Overflow::kIeee, ref::scalar::NanRule::kCanonical,
                                 ref::scalar::kF16CanonicalNan, false, form.ftz);
      const bool bf16 = form.f == &ref::kBf16;
      t.push_back(ScalarArith{"numeric.scalar." + ptx, ptx,
                              ArithSpec{op, target, target, form.lanes, op != ArithOp::fma, form.sat},
                              bf16 ? (op == ArithOp::fma ? 80 : 90) : 75});
    }
  // binary32 .sat: PTX has it on add, sub, mul and fma ({op}{.rnd}{.ftz}{.sat}.f32), not on
  // div, sqrt or rcp.
  for (ArithOp op : {ArithOp::add, ArithOp::sub, ArithOp::mul, ArithOp::fma}) add_binary32_rows(t, op, true);
  return t;
}

const char* const kInputClassNames[ref::scalar::kInputClasses] = {"zero", "subnormal", "normal", "inf", "nan"};

std::string lane_value(const ref::scalar::Target& f, std::uint32_t code) {
  const ref::scalar::Value v = ref::scalar::decode(f, code);
  switch (v.cls) {
    case ref::FpClass::kZero: return v.negative ? "-0" : "+0";
    case ref::FpClass::kInf: return v.negative ? "-inf" : "+inf";
    case ref::FpClass::kNaN: return v.negative ? "-nan" : "nan";
    case ref::FpClass::kFinite: break;
  }
  const double x = std::ldexp(static_cast<double>(v.sig), v.exp);
  return fmt::format("{:.9g}", v.negative ? -x : x);
}

// "0x3f800000 (1)", or for a two-lane form "0x3c003c01 (1, 1.00097656)".
std::string operand_text(const ArithSpec& s, std::uint32_t x) {
  const int digits = s.source.width_bits() * s.lanes / 4;
  if (s.lanes == 2)
    return fmt::format("0x{:0{}x} ({}, {})", x, digits, lane_value(s.source, x >> 16),
                       lane_value(s.source, x & 0xffffu));
  return fmt::format("0x{:0{}x} ({})", x, digits, lane_value(s.source, x));
}

}  // namespace

const char* arith_op_name(ArithOp op) {
  switch (op) {
    case ArithOp::add: return "add";
    case ArithOp::sub: return "sub";
    case ArithOp::mul: return "mul";
    case ArithOp::fma: return "fma";
    case ArithOp::div: return "div";
    case ArithOp::sqrt: return "sqrt";
    case ArithOp::rcp: return "rcp";
  }
  return "?";
}

const char* const kArithClassNames[kArithClasses] = {"uniform", "boundary", "ties", "specials", "subnormal"};

const char* const kArithCitation =
    "cite:PTX ISA, Floating-Point Instructions: add, sub, mul, fma, div (div.rnd.f32), rcp "
    "(rcp.rnd.f32) and sqrt (sqrt.rnd.f32) with .rn/.rz/.rm/.rp round as IEEE 754-2019 4.3 directs (to nearest even, "
    "toward zero, toward -inf, toward +inf), correctly rounded; .ftz flushes subnormal inputs and results to "
    "sign-preserving zero; docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions";

const char* const kHalfArithCitation =
    "cite:PTX ISA, Half Precision Floating-Point Instructions: add, sub, mul and fma .rn on .f16, "
    ".f16x2, .bf16 and .bf16x2 round to nearest even (IEEE 754-2019 4.3), fma computes a * b + c in infinite "
    "precision and rounds once; .ftz flushes subnormal inputs and results to sign-preserving zero; "
    "docs.nvidia.com/cuda/parallel-thread-execution/#half-precision-floating-point-instructions";

const std::vector<ScalarArith>& scalar_arith() {
  static const std::vector<ScalarArith> table = make_table();
  return table;
}

const ScalarArith* find_scalar_arith(std::string_view id) { return scalar_report::find_row(scalar_arith(), id); }

std::uint64_t ArithScan::mismatches() const { return scalar_report::total(mismatches_by_class); }

Measurement arith_measurement(const ScalarArith& row, const ArithScan& scan) {
  Measurement m = scalar_report::mismatch_measurement(scan.mismatches(), scan.compared, row.ptx);
  const bool f32 = row.spec.source.width_bits() == 32;
  m.note(
      "reference",
      fmt::format("exact: binary64 plus the sign of its error-free remainder, rounded {} to {} by "
                  "scalar_round.hpp; exact zeros signed as IEEE 754-2019 6.3; NaN results 0x{:x}{}",
                  row.ptx.substr(row.ptx.find('.') + 1, 2), f32 ? "binary32" : row.ptx.substr(row.ptx.rfind('.') + 1),
                  row.spec.target.canonical_nan,
                  row.spec.target.ftz
                      ? "; subnormal operands, and results tiny after rounding (at an unbounded exponent), flushed to "
                        "zeros of their sign"
                      : ""));
  if (f32)
    m.note("inputs",
           fmt::format("{} operand tuples (numerics/scalar_arith.hpp arith_operands, tuple i of class i % {}: "
                       "uniform, boundary, ties, specials, subnormal)",
                       scan.compared, static_cast<int>(kArithClasses)));
  else if (row.spec.all_pairs)
    m.note("inputs", fmt::format("all {} operand pairs{}", scan.compared,
                                 row.spec.lanes == 2 ? " (a = {p, q}, b = {q, p}: each lane sees every pair)" : ""));
  else
    m.note("inputs", fmt::format("{} uniformly drawn operand triples", scan.compared));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  std::string by_class;
  for (int k = 0; k < kArithClasses; ++k) {
    std::string total;
    if (f32)
      total = fmt::format("/{}", scan.compared / kArithClasses +
                                     (static_cast<std::uint64_t>(k) < scan.compared % kArithClasses ? 1 : 0));
    else if (row.spec.all_pairs) {  // by operand a's code: every code of the class x 2^16 partners
      std::uint64_t codes = 0;
      for (std::uint32_t x = 0; x < 0x10000; ++x) codes += ref::scalar::input_class(row.spec.source, x) == k ? 1 : 0;
      total = fmt::format("/{}", codes << 16);
    }
    by_class += fmt::format("{}{} {}{}", k ? ", " : "", f32 ? kArithClassNames[k] : kInputClassNames[k],
                            scan.mismatches_by_class[k], total);
  }
  m.note("mismatches_by_class", by_class + (f32 ? "" : " (by operand a)"));
  std::vector<ArithMismatch> first = scan.first;
  std::sort(first.begin(), first.end(),
            [](const ArithMismatch& a, const ArithMismatch& b) { return a.index < b.index; });
  const int operands = arith_operand_count(row.spec.op);
  std::vector<std::string> texts;
  for (const ArithMismatch& x : first) {
    std::string args = "a = " + operand_text(row.spec, x.a);
    if (operands >= 2) args += ", b = " + operand_text(row.spec, x.b);
    if (operands == 3) args += ", c = " + operand_text(row.spec, x.c);
    texts.push_back(fmt::format("{} {} -> gpu {}, reference {} (tuple {})", row.ptx, args,
                                operand_text(row.spec, x.got), operand_text(row.spec, x.want), x.index));
  }
  scalar_report::note_mismatches(m, texts);
  scalar_report::note_violations(m, scan.mismatches(), scan.compared, "operand tuples differ from the exact result",
                                 by_class);
  return m;
}

}  // namespace gpuconform::numerics
