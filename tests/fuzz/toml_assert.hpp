// SPDX-License-Identifier: Apache-2.0
#pragma once
// Force-included into the expectation fuzzer (-include): toml++'s internal assertions stay
// on, except two that toml++ 3.3.0 (Debian 12) states too strictly.
//
// parse_key() asserts that it starts at a bare-key character or a quote, but a table header
// reaches it with whatever follows '[' ("[=]"), and the code right after the assertion
// reports exactly that as a parse error ("expected bare key starting character or string
// delimiter, saw '='"). Release builds with g++ compile the assertion out (NDEBUG) and give
// that error; tests/unit/fuzz_regressions_test.cpp holds the input. With clang and NDEBUG
// toml++ would turn the same assertion into __builtin_assume, so the suite builds its
// release binaries with g++ and the fuzzers without NDEBUG.
#include <cstdio>
#include <cstring>

inline void gpuconform_toml_assert_failed(const char* expr, const char* file, int line) {
  if (std::strcmp(expr, "is_bare_key_character(*cp) || is_string_delimiter(*cp)") == 0) return;
  // Likewise parse_value() at a terminator ("x = [}"): the code after it reports the error.
  if (std::strcmp(expr, "!is_value_terminator(*cp)") == 0) return;
  // And parse_date/parse_time/parse_date_time at a non-digit: a date followed by 't' and no
  // time ("u=0151-01-15tol:0") reaches parse_time at 'o'; consume_digit_sequence(), called
  // right after, tests every character and reports "expected 2-digit hour".
  if (std::strcmp(expr, "is_decimal_digit(*cp)") == 0) return;
  std::fprintf(stderr, "%s:%d: toml++ assertion failed: %s\n", file, line, expr);
  __builtin_trap();
}

#define TOML_ASSERT(expr) ((expr) ? static_cast<void>(0) : gpuconform_toml_assert_failed(#expr, __FILE__, __LINE__))
