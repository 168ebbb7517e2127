// SPDX-License-Identifier: Apache-2.0
// `gpuconform mathref FUNC HEX...`: the correctly rounded binary32/binary64 result of a C
// math function for the given inputs, and the exact value to 40 digits, from MPFR
// (reference/math_oracle.hpp). A CPU verb for investigating a GPU's math library: compare
// what the GPU returned with what the function should return.
#include <fmt/format.h>

#include <cstring>
#include <map>

#include "commands.hpp"
#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::cli {
namespace {

// "0x3f800000" or "3f800000": a bit pattern of the format's width.
std::optional<std::uint64_t> parse_bits(const std::string& text, int width_bits) {
  std::string digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits = digits.substr(2);
  if (digits.empty() || digits.size() > static_cast<std::size_t>(width_bits / 4)) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : digits) {
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (c >= 'a' && c <= 'f')                     ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                     ? c - 'A' + 10
                                                               : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<std::uint64_t>(d);
  }
  return v;
}

std::string show(std::uint64_t bits, const ref::FloatFormat& f) {
  if (f.width_bits() == 32) {
    float x;
    const auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&x, &b, sizeof x);
    return fmt::format("0x{:08x} ({:.9g})", b, x);
  }
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return fmt::format("0x{:016x} ({:.17g})", bits, x);
}

int mathref(const std::string& name, const std::vector<std::string>& inputs, const std::string& rnd) {
  const std::map<std::string, ref::Rounding> directions{{"rn", ref::Rounding::kRNE}, {"rz", ref::Rounding::kRZ},
                                                        {"ru", ref::Rounding::kRU},  {"rd", ref::Rounding::kRD},
                                                        {"rna", ref::Rounding::kRNA}};
  const auto dir = directions.find(rnd);
  if (dir == directions.end()) {
    fmt::print(stderr, "mathref: --rnd {} is not a rounding direction (rn, rz, ru, rd, rna)\n", rnd);
    return kExitUnusable;
  }
  const auto call = ref::find_math_function(name);
  if (!call) {
    std::string known;
    for (std::string_view n : ref::math_function_names()) known += fmt::format(" {}", n);
    fmt::print(stderr, "mathref: no function '{}'; binary64 names (add 'f' for binary32):{}\n", name, known);
    return kExitUnusable;
  }
  const ref::FloatFormat& f = *call->format;
  if (inputs.size() % call->arity() != 0) {
    fmt::print(stderr, "mathref: {} takes {} argument(s) per evaluation; {} given\n", name, call->arity(),
               inputs.size());
    return kExitUnusable;
  }
  std::vector<std::uint64_t> bits;
  for (const std::string& in : inputs) {
    const auto b = parse_bits(in, f.width_bits());
    if (!b) {
      fmt::print(stderr, "mathref: '{}' is not a {}-bit pattern in hex (e.g. {})\n", in, f.width_bits(),
                 f.width_bits() == 32 ? "0x3f800000 for 1.0f" : "0x3ff0000000000000 for 1.0");
      return kExitUnusable;
    }
    bits.push_back(*b);
  }
  for (std::size_t i = 0; i < bits.size(); i += call->arity()) {
    const std::vector<std::uint64_t> args(bits.begin() + i, bits.begin() + i + call->arity());
    const ref::MathResult r = ref::math_reference(*call, dir->second, args);
    std::string shown_args;
    for (std::uint64_t a : args) shown_args += (shown_args.empty() ? "" : ", ") + show(a, f);
    fmt::print("{}({}) = {} {}  exact {}{}\n", name, shown_args, show(r.bits, f), rnd, r.exact,
               r.exact_is_representable ? " (representable)" : "");
  }
  return kExitOk;
}

}  // namespace

Command add_mathref_command(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto rnd = std::make_shared<std::string>("rn");
  CLI::App* sub = app.add_subcommand(
      "mathref", "Correctly rounded result of a C math function (MPFR), e.g. `mathref expf 0x42affff8`");
  sub->add_option("function", *name, "C name: exp, atan2 (binary64) or expf, atan2f (binary32)")->required();
  sub->add_option("inputs", *inputs, "Input bit patterns in hex, one per argument, repeated for more evaluations")
      ->required();
  sub->add_option("--rnd", *rnd, "Rounding direction: rn (default), rz, ru, rd, rna");
  return [name, inputs, rnd] { return mathref(*name, *inputs, *rnd); };
}

}  // namespace gpuconform::cli
