// SPDX-License-Identifier: Apache-2.0
// A scanner that knows just enough TOML to tell strings and comments from the rest
// (toml_guard.hpp says why), and where a string can start from where toml++ reads on through
// a bad token. An unterminated string ends at its line, as toml++ reports it.
#include "gpuconform/toml_guard.hpp"

namespace gpuconform {
namespace {

bool non_ascii(char c) { return static_cast<unsigned char>(c) >= 0x80; }
bool blank(char c) { return c == ' ' || c == '\t'; }
bool space_or_break(char c) { return blank(c) || c == '\n' || c == '\r'; }

class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}

  std::optional<TextPosition> run() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '#') {
        // After a date or time in a value, toml++ reads on across a blank into the comment
        // ("e=0151-01-01 0#..." is taken for a date-time) and asks of its characters whether
        // they are whitespace: there even a comment may not hold a non-ASCII character.
        if (in_value_ && datetime_) {
          if (const auto at = first_non_ascii_to_line_end()) return at;
        }
        skip_to_line_end();
        continue;
      }
      // In a value, a string starts only where no bare token is under way: toml++ reads
      // "x = 0\"é", "x = 01.\"é" and "x = 6model[\"é" on as one bad token, asking of each
      // character whether it is whitespace. In a key, after a line's start, '=', '[', '{',
      // ',' or '.' (dotted keys); a quote anywhere else is read on as bare, too.
      const bool may_start = in_value_ ? !bare_ : std::string_view("\n=[{,.").find(prev_) != std::string_view::npos;
      const bool string = (c == '"' || c == '\'') && may_start;
      if (string) {
        if (starts("\"\"\"")) {
          if (!multi_line_basic()) return here();
        } else if (starts("'''")) {
          skip_multi_line("'''");
        } else if (!single_line(c)) {
          return unterminated_non_ascii_;
        }
      } else if (non_ascii(c)) {
        return here();
      } else {
        next();
      }
      if (!blank(c) && c != '\r') prev_ = c;
      track_value(c, string);
    }
    return std::nullopt;
  }

 private:
  bool starts(std::string_view token) const { return s_.substr(i_, token.size()) == token; }
  char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }
  TextPosition here() const { return {line_, static_cast<int>(i_ - line_start_) + 1}; }

  void next() {
    if (s_[i_] == '\n') {
      ++line_;
      line_start_ = i_ + 1;
    }
    ++i_;
  }
  void skip_to_line_end() {
    while (i_ < s_.size() && s_[i_] != '\n') next();
  }
  std::optional<TextPosition> first_non_ascii_to_line_end() const {
    for (std::size_t k = i_; k < s_.size() && s_[k] != '\n'; ++k)
      if (non_ascii(s_[k])) return TextPosition{line_, static_cast<int>(k - line_start_) + 1};
    return std::nullopt;
  }

  // False when the string does not close on its line and holds a non-ASCII character
  // (unterminated_non_ascii_ is where): toml++ reads an unterminated string on as a bad
  // token, asking of each character whether it is whitespace.
  bool single_line(char quote) {
    next();
    std::optional<TextPosition> first_non_ascii;
    while (i_ < s_.size() && s_[i_] != '\n') {
      const char c = s_[i_];
      if (non_ascii(c) && !first_non_ascii) first_non_ascii = here();
      next();
      if (c == quote) return true;
      if (c == '\\' && quote == '"' && i_ < s_.size() && s_[i_] != '\n') next();
    }
    if (!first_non_ascii) return true;
    unterminated_non_ascii_ = *first_non_ascii;
    return false;
  }

  // The closing delimiter may be followed by up to two more quotes, which belong to the string.
  void close(std::string_view delimiter) {
    for (std::size_t k = 0; k < delimiter.size(); ++k) next();
    for (int extra = 0; extra < 2 && i_ < s_.size() && s_[i_] == delimiter[0]; ++extra) next();
  }

  void skip_multi_line(std::string_view delimiter) {
    for (std::size_t k = 0; k < delimiter.size(); ++k) next();
    while (i_ < s_.size() && !starts(delimiter)) next();
    if (i_ < s_.size()) close(delimiter);
  }

  // False (left at the offending byte) where toml++ would test a non-ASCII character for
  // whitespace: right after a backslash, or after a line-ending backslash's blanks.
  bool multi_line_basic() {
    for (int k = 0; k < 3; ++k) next();
    while (i_ < s_.size() && !starts("\"\"\"")) {
      if (s_[i_] != '\\') {
        next();
        continue;
      }
      next();
      if (i_ < s_.size() && non_ascii(s_[i_])) return false;
      if (!space_or_break(at(i_))) {
        if (i_ < s_.size()) next();  // an ordinary escape
        continue;
      }
      while (i_ < s_.size() && blank(s_[i_])) next();
      if (i_ < s_.size() && non_ascii(s_[i_])) return false;
      while (i_ < s_.size() && space_or_break(s_[i_])) next();
      if (i_ < s_.size() && non_ascii(s_[i_])) return false;
    }
    if (i_ < s_.size()) close("\"\"\"");
    return true;
  }

  // A value runs from '=' to the end of its line, or of its last bracket when it spans
  // lines; inside it, bare_ says a bare token (number, boolean, or garbage) is under way.
  // Value terminators end one, as in toml++'s is_value_terminator().
  void track_value(char c, bool was_string) {
    if (!in_value_) {
      if (c == '=') in_value_ = true, bare_ = false, depth_ = 0, datetime_ = false;
      return;
    }
    // A date (0151-01-01) or time (12:00) under way: a digit before '-' or ':' in a bare token.
    if (bare_ && (c == '-' || c == ':') && prev_digit_) datetime_ = true;
    prev_digit_ = c >= '0' && c <= '9';
    if (was_string) {
      key_ = false;
      return;
    }
    // Inside an inline table a bare token after '{' or ',' is a key, and its '=' ends it;
    // a '=' after a value's bare token ("{a=0x=...") is read on as part of that bad token.
    if (c == '=' && bare_ && !key_) return;
    if (c == '{' || c == ',') key_ = true;
    if (c == '=') key_ = false;
    if (blank(c) || c == '\r' || c == '\n' || c == ',' || c == '=') {
      bare_ = false;
    } else if (c == ']' || c == '}') {
      bare_ = false;
      if (depth_ > 0) --depth_;
    } else if ((c == '[' || c == '{') && !bare_) {
      ++depth_;
    } else {
      bare_ = true;
    }
    if (c == '\n' && depth_ == 0) in_value_ = false;
  }

  std::string_view s_;
  std::size_t i_ = 0, line_start_ = 0;
  int line_ = 1;
  char prev_ = '\n';  // the last character outside strings and comments that was not blank
  bool in_value_ = false, bare_ = false;
  bool key_ = false;  // in an inline table, the bare token under way is a key
  bool datetime_ = false;    // the current value holds a date or time (see run())
  bool prev_digit_ = false;  // the value's previous character was a digit
  TextPosition unterminated_non_ascii_{};
  int depth_ = 0;  // open brackets of the current value
};

}  // namespace

std::optional<TextPosition> toml_unsafe_character(std::string_view text) { return Scanner(text).run(); }

}  // namespace gpuconform
