// SPDX-License-Identifier: Apache-2.0
#pragma once
// A guard in front of toml++ 3.3.0 (Debian 12), found by fuzzing (tests/fuzz): its
// is_non_ascii_horizontal_whitespace() reaches __builtin_unreachable() for most code points
// in U+00A1..U+0499 and U+2CDE..U+3000 (e.g. 'é', 'µ', 'ҏ'), which is undefined behaviour.
// toml++ asks that question of every character it meets outside strings and comments, and
// inside a multi-line basic string of the character after a backslash and after a
// line-ending backslash's whitespace. TOML allows non-ASCII only inside strings and
// comments, so refusing it elsewhere rejects no valid file but two rare ones: a non-ASCII
// character right after a line-ending backslash, and one in a quoted dotted key inside an
// inline table (`x = {a."é" = 1}`: inside a value the scanner takes '.' for part of a bare
// token, as toml++ does in "x = 01.\"...").
#include <optional>
#include <string_view>

namespace gpuconform {

struct TextPosition {
  int line = 0, column = 0;  // 1-based; column counts bytes
};

// The first non-ASCII byte that toml++ would ask "is this whitespace?" of, or nullopt.
// Besides outside strings and comments, toml++ asks it in a comment after a date or time in a
// value: it reads "e=0151-01-01 0#..." on as a date-time into the comment.
std::optional<TextPosition> toml_unsafe_character(std::string_view text);

// The diagnostic every TOML reader gives at that position.
inline constexpr const char* kTomlUnsafeCharacterMessage =
    "non-ASCII character where toml++ 3.3.0 would misread it: only strings and comments may hold one, and not a "
    "comment after a date or time";

}  // namespace gpuconform
