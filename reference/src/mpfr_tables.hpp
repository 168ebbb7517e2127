// SPDX-License-Identifier: Apache-2.0
// Internal to dot_mpfr(): MPFR values memoised per code. The random agreement tests call
// dot_mpfr() 10^6 times per model, and decoding operands and multiplying them dominated
// that time. The values are still MPFR's: each entry is built once by
// mpfr::set_from_bits() or mpfr_mul().
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <vector>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/mpfr_format.hpp"

namespace gpuconform::ref::mpfr {

inline bool same_format(const FloatFormat& x, const FloatFormat& y) {
  return x.exp_bits == y.exp_bits && x.man_bits == y.man_bits && x.bias == y.bias &&
         x.specials == y.specials && x.subnormals == y.subnormals && x.pad_bits == y.pad_bits;
}

// A table of 64-bit MPFR numbers that owns its entries.
class ValueTable {
 public:
  explicit ValueTable(std::size_t n) : values_(n) {
    for (auto& v : values_) mpfr_init2(&v, 64);  // exact for every code and product here
  }
  ~ValueTable() {
    for (auto& v : values_) mpfr_clear(&v);
  }
  ValueTable(const ValueTable&) = delete;
  ValueTable& operator=(const ValueTable&) = delete;

  mpfr_ptr at(std::size_t i) { return &values_[i]; }
  mpfr_srcptr operator[](std::size_t i) const { return &values_[i]; }

 private:
  std::vector<__mpfr_struct> values_;
};

// The value of every code of a format of at most 16 bits.
class CodeValues {
 public:
  static bool fits(const FloatFormat& f) { return f.pad_bits == 0 && f.width_bits() <= 16; }

  explicit CodeValues(const FloatFormat& f) : f_(f), values_(std::size_t{1} << f.width_bits()) {
    for (std::size_t code = 0; code < (std::size_t{1} << f.width_bits()); ++code)
      set_from_bits(values_.at(code), f, code);
  }
  const FloatFormat& format() const { return f_; }
  mpfr_srcptr operator[](std::uint64_t bits) const { return values_[bits]; }

 private:
  FloatFormat f_;
  ValueTable values_;
};

// The exact product of every pair of codes of two formats of at most 8 bits each
// (inf * 0 is NaN, as in mpfr_mul).
class ProductValues {
 public:
  static bool fits(const FloatFormat& a, const FloatFormat& b) {
    return CodeValues::fits(a) && CodeValues::fits(b) && a.width_bits() <= 8 && b.width_bits() <= 8;
  }

  ProductValues(const CodeValues& a, const CodeValues& b)
      : a_(a.format()),
        b_(b.format()),
        shift_(b.format().width_bits()),
        values_(std::size_t{1} << (a.format().width_bits() + shift_)) {
    for (std::uint64_t x = 0; x < (std::uint64_t{1} << a_.width_bits()); ++x)
      for (std::uint64_t y = 0; y < (std::uint64_t{1} << shift_); ++y)
        mpfr_mul(values_.at((x << shift_) | y), a[x], b[y], MPFR_RNDN);  // exact
  }
  bool serves(const FloatFormat& a, const FloatFormat& b) const {
    return same_format(a, a_) && same_format(b, b_);
  }
  mpfr_srcptr operator()(std::uint64_t a, std::uint64_t b) const {
    return values_[(a << shift_) | b];
  }

 private:
  FloatFormat a_, b_;
  int shift_;
  ValueTable values_;
};

}  // namespace gpuconform::ref::mpfr
