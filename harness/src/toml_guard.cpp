// A scanner that knows just enough TOML to tell strings and comments from the rest
// (toml_guard.hpp says why). A string starts only where TOML lets one start (a line's start,
// after '=', '[', '{', ',' or '.'); an unterminated one ends at its line, as toml++ reports it.
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
      // '.' joins dotted keys; in a value it is part of a bare token (toml++ reads
      // "x = 01.\"é" on as one), so there it starts no string.
      const std::string_view starters = in_value_ ? "\n=[{," : "\n=[{,.";
      const bool string_may_start = starters.find(prev_) != std::string_view::npos;
      if (c == '#') {
        skip_to_line_end();
        continue;
      }
      if ((c == '"' || c == '\'') && string_may_start) {
        if (starts("\"\"\"")) {
          if (!multi_line_basic()) return here();
        } else if (starts("'''")) {
          skip_multi_line("'''");
        } else {
          single_line(c);
        }
      } else if (non_ascii(c)) {
        return here();
      } else {
        next();
      }
      // A quote elsewhere ("x = 0"...") is a syntax error that toml++ reads on as bare
      // characters, asking of each whether it is whitespace: so does this scanner.
      if (!blank(c) && c != '\r') prev_ = c;
      track_value(c);
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

  void single_line(char quote) {
    next();
    while (i_ < s_.size() && s_[i_] != '\n') {
      const char c = s_[i_];
      next();
      if (c == quote) return;
      if (c == '\\' && quote == '"' && i_ < s_.size() && s_[i_] != '\n') next();
    }
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

  // A value runs from '=' to the end of its line, or of its last bracket when it spans lines.
  void track_value(char c) {
    if (c == '=') in_value_ = true;
    if (!in_value_) return;
    if (c == '[' || c == '{') ++depth_;
    if ((c == ']' || c == '}') && depth_ > 0) --depth_;
    if (c == '\n' && depth_ == 0) in_value_ = false;
  }

  std::string_view s_;
  std::size_t i_ = 0, line_start_ = 0;
  int line_ = 1;
  char prev_ = '\n';  // the last character outside strings and comments that was not blank
  bool in_value_ = false;
  int depth_ = 0;  // open brackets of the current value
};

}  // namespace

std::optional<TextPosition> toml_unsafe_character(std::string_view text) { return Scanner(text).run(); }

}  // namespace gpuconform
