// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_int_conversions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "gpuconform/numerics/scalar_report.hpp"

namespace gpuconform::numerics {
namespace {

const char* int_name(IntType t) {
  switch (t) {
    case IntType::s32: return "s32";
    case IntType::u32: return "u32";
    case IntType::s64: return "s64";
    case IntType::u64: return "u64";
  }
  return "?";
}

std::vector<ScalarIntConversion> make_table() {
  std::vector<ScalarIntConversion> t;
  const struct {
    const char* f;  // integer -> float
    const char* i;  // float -> integer
    ref::Rounding r;
  } modes[] = {{"rn", "rni", ref::Rounding::kRNE},
               {"rz", "rzi", ref::Rounding::kRZ},
               {"rm", "rmi", ref::Rounding::kRD},
               {"rp", "rpi", ref::Rounding::kRU}};
  const IntType ints[] = {IntType::s32, IntType::u32, IntType::s64, IntType::u64};
  for (FloatType ft : {FloatType::f32, FloatType::f64})
    for (IntType it : ints)
      for (const auto& m : modes) {
        // A 32-bit integer is exact in binary64: only .rn (PTX requires a rounding modifier).
        if (ft == FloatType::f64 && int_bits(it) == 32 && m.r != ref::Rounding::kRNE) continue;
        const std::string ptx = fmt::format("cvt.{}.{}.{}", m.f, ft == FloatType::f32 ? "f32" : "f64", int_name(it));
        t.push_back({"numeric.scalar." + ptx, ptx, IntConversionSpec{true, it, ft, m.r}});
      }
  for (FloatType ft : {FloatType::f32, FloatType::f64})
    for (IntType it : ints)
      for (const auto& m : modes) {
        const std::string ptx = fmt::format("cvt.{}.{}.{}", m.i, int_name(it), ft == FloatType::f32 ? "f32" : "f64");
        t.push_back({"numeric.scalar." + ptx, ptx, IntConversionSpec{false, it, ft, m.r}});
      }
  return t;
}

std::string value_text(const IntConversionSpec& s, std::uint64_t x, bool is_source) {
  const bool is_float = s.to_float != is_source;
  if (is_float) {
    if (s.ftype == FloatType::f32) {
      float f = 0;
      const std::uint32_t b = static_cast<std::uint32_t>(x);
      std::memcpy(&f, &b, sizeof f);
      return fmt::format("0x{:08x} ({:.9g})", b, f);
    }
    double d = 0;
    std::memcpy(&d, &x, sizeof d);
    return fmt::format("0x{:016x} ({:.17g})", x, d);
  }
  if (int_bits(s.itype) == 32) {
    const std::uint32_t b = static_cast<std::uint32_t>(x);
    return int_signed(s.itype) ? fmt::format("0x{:08x} ({})", b, static_cast<std::int32_t>(b))
                               : fmt::format("0x{:08x} ({})", b, b);
  }
  return int_signed(s.itype) ? fmt::format("0x{:016x} ({})", x, static_cast<std::int64_t>(x))
                             : fmt::format("0x{:016x} ({})", x, x);
}

}  // namespace

const char* const kIntCvtCitation =
    "cite:PTX ISA, Data Movement and Conversion Instructions: cvt: integer-to-float conversions round as "
    ".rn/.rz/.rm/.rp "
    "say (IEEE 754-2019 4.3), float-to-integer conversions round to an integer as .rni/.rzi/.rmi/.rpi say, and 'for "
    "float-to-integer conversions, the result is clamped to the destination range by default'; "
    "docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt";

const std::vector<ScalarIntConversion>& scalar_int_conversions() {
  static const std::vector<ScalarIntConversion> table = make_table();
  return table;
}

const ScalarIntConversion* find_scalar_int_conversion(std::string_view id) {
  return scalar_report::find_row(scalar_int_conversions(), id);
}

std::uint64_t int_conversion_count(const IntConversionSpec& s) {
  if (source_bits(s) == 32) return std::uint64_t{1} << 32;
  return scalar_report::sampled_count();
}

std::uint64_t IntConversionScan::mismatches() const { return scalar_report::total(mismatches_by_class); }

Measurement int_conversion_measurement(const ScalarIntConversion& row, const IntConversionScan& scan) {
  Measurement m = scalar_report::mismatch_measurement(scan.mismatches(), scan.compared, row.ptx);
  m.note("reference",
         row.spec.to_float
             ? "exact: |x| rounded to the float format in the instruction's direction by integer code "
               "(scalar_round.hpp, scalar_f64_round.hpp); 0 gives +0"
             : "exact: the value rounded to an integer in the instruction's direction, clamped to the "
               "destination range; NaN gives 0 from binary32 into 32 bits, else 1 << (bits - 1) (measured on an H100)");
  m.note("inputs", source_bits(row.spec) == 32
                       ? fmt::format("all {} source patterns", scan.compared)
                       : fmt::format("{} sampled source patterns (numerics/scalar_int_conversions.hpp "
                                     "int_conversion_input: uniform, ties and near-ties, range boundaries, specials)",
                                     scan.compared));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  const char* const float_classes[5] = {"zero", "subnormal", "normal", "inf", "nan"};
  const char* const int_classes[5] = {"zero", "exact", "rounded", "negative rounded", "-"};
  std::string by_class;
  for (int k = 0; k < (row.spec.to_float ? 4 : 5); ++k)
    by_class += fmt::format("{}{} {}", k ? ", " : "", row.spec.to_float ? int_classes[k] : float_classes[k],
                            scan.mismatches_by_class[k]);
  m.note("mismatches_by_class", by_class);
  std::vector<IntConversionMismatch> first = scan.first;
  std::sort(first.begin(), first.end(),
            [](const IntConversionMismatch& a, const IntConversionMismatch& b) { return a.input < b.input; });
  std::vector<std::string> texts;
  for (const IntConversionMismatch& x : first)
    texts.push_back(fmt::format("{} {} -> gpu {}, reference {}", row.ptx, value_text(row.spec, x.input, true),
                                value_text(row.spec, x.got, false), value_text(row.spec, x.want, false)));
  scalar_report::note_mismatches(m, texts);
  scalar_report::note_violations(m, scan.mismatches(), scan.compared, "inputs differ from the reference", by_class);
  return m;
}

}  // namespace gpuconform::numerics
