// SPDX-License-Identifier: Apache-2.0
// XML 1.0 allows only #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
// (section 2.2). pugixml escapes markup but writes any other byte as given, and one stray
// ESC from a terminal-coloured error message makes the whole report unreadable to a CI
// server, so reasons pass through here first.
#include <fmt/format.h>

#include "gpuconform/junit.hpp"

namespace gpuconform {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c < 0x80) { cp = c; return 1; }
  if (c >= 0xC2 && c <= 0xDF && cont(1)) { cp = (c & 0x1Fu) << 6 | (b(1) & 0x3Fu); return 2; }
  if (c >= 0xE0 && c <= 0xEF && cont(1) && cont(2)) {
    cp = (c & 0x0Fu) << 12 | (b(1) & 0x3Fu) << 6 | (b(2) & 0x3Fu);
    return cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    cp = (c & 0x07u) << 18 | (b(1) & 0x3Fu) << 12 | (b(2) & 0x3Fu) << 6 | (b(3) & 0x3Fu);
    return cp >= 0x10000 && cp <= 0x10FFFF ? 4 : 0;
  }
  return 0;
}

}  // namespace

std::string xml_safe_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_length(text, i, cp);
    if (n == 0) {
      out += kReplacement;  // one replacement per bad byte, as a decoder would show it
      ++i;
      continue;
    }
    if (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r')
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
    else if (cp == 0xFFFE || cp == 0xFFFF)
      out += kReplacement;
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace gpuconform
