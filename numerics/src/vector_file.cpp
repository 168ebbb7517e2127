// SPDX-License-Identifier: Apache-2.0
// Vector-file reader and writer (vector_file.hpp). Text is read line by line from a byte
// source (xz_stream.hpp: a plain file, a memory buffer or an xz stream), so a 100 MB golden
// file never sits in memory whole. Every check on the text names the file and line.
#include "gpuconform/numerics/vector_file.hpp"

#include <algorithm>
#include <cstring>

#include "gpuconform/numerics/sparse_metadata.hpp"
#include "gpuconform/numerics/xz_stream.hpp"

namespace gpuconform {
namespace {

constexpr std::size_t kMaxClassBytes = 128;

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }

}  // namespace

VectorFileError::VectorFileError(std::string file, std::size_t line, std::string reason)
    : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + reason),
      file_(std::move(file)),
      line_(line),
      reason_(std::move(reason)) {}

// ---------------------------------------------------------------------------------------
// Reader

VectorReader::VectorReader(std::string name, std::unique_ptr<ByteSource> source)
    : name_(std::move(name)), source_(std::move(source)) {}
VectorReader::VectorReader(VectorReader&&) noexcept = default;
VectorReader& VectorReader::operator=(VectorReader&&) noexcept = default;
VectorReader::~VectorReader() = default;

VectorReader VectorReader::open(const std::string& path) {
  try {
    return VectorReader(path, open_source(path));
  } catch (const std::runtime_error& e) {
    throw VectorFileError(path, 0, e.what());
  }
}

VectorReader VectorReader::from_memory(std::string name, std::string bytes) {
  try {
    return VectorReader(name, memory_source(std::move(bytes)));
  } catch (const std::runtime_error& e) {
    throw VectorFileError(name, 0, e.what());
  }
}

void VectorReader::fail(std::string reason) const { throw VectorFileError(name_, line_, std::move(reason)); }

std::string VectorReader::header_value(std::string_view key) const {
  for (const auto& [k, v] : header_)
    if (k == key) return v;
  return {};
}

// The next line without its terminator; false at the end of the text.
bool VectorReader::read_line(std::string& line) {
  std::size_t scanned = buffer_pos_;
  for (;;) {
    const std::size_t nl = buffer_.find('\n', scanned);
    if (nl != std::string::npos) {
      if (nl - buffer_pos_ > kMaxLineBytes) break;
      line.assign(buffer_, buffer_pos_, nl - buffer_pos_);
      buffer_pos_ = nl + 1;
      ++line_;
      return true;
    }
    if (buffer_.size() - buffer_pos_ > kMaxLineBytes) break;
    if (eof_) {
      if (buffer_pos_ == buffer_.size()) return false;
      line.assign(buffer_, buffer_pos_, std::string::npos);  // last line without '\n'
      buffer_pos_ = buffer_.size();
      ++line_;
      return true;
    }
    buffer_.erase(0, buffer_pos_);
    buffer_pos_ = 0;
    scanned = buffer_.size();
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kStreamChunkBytes);
    std::size_t got = 0;
    try {
      got = source_->read(&buffer_[old], kStreamChunkBytes);
    } catch (const std::runtime_error& e) {
      ++line_;  // the error is in the line being read
      fail(e.what());
    }
    buffer_.resize(old + got);
    eof_ = got == 0;
  }
  ++line_;
  fail("line longer than " + std::to_string(kMaxLineBytes >> 20) + " MiB");
}

void VectorReader::set_variant(std::string_view name) {
  if (variant_) {
    if (variant_->name != name)
      fail("variant " + quote_for_message(name) + " differs from the file's variant " + quote_for_message(variant_->name) +
           " (one variant per file)");
    return;
  }
  std::string why;
  auto parsed = parse_variant(name, why);
  if (!parsed) fail(why);
  variant_ = std::move(*parsed);
}

void VectorReader::parse_matrix(std::string_view field, const char* what, std::size_t count,
                                ElementType type, std::vector<std::uint64_t>& out) const {
  const auto digits = static_cast<std::size_t>(element_digits(type));
  const int bits = element_bits(type);
  const std::uint64_t largest = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  if (field.size() != count * digits)
    fail(std::string(what) + " has " + std::to_string(field.size()) + " hex digits, expected " +
         std::to_string(count * digits) + " (" + std::to_string(count) + " " +
         std::string(element_name(type)) + " elements of " + std::to_string(digits) + " digits)");
  out.resize(count);
  const char* p = field.data();
  for (std::size_t e = 0; e < count; ++e) {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < digits; ++i, ++p) {
      const int h = hex_value(*p);
      if (h < 0)
        fail(std::string(what) + ": " + quote_for_message(std::string_view(p, 1)) + " at digit " +
             std::to_string(p - field.data() + 1) + " is not a lowercase hex digit");
      value = (value << 4) | static_cast<std::uint64_t>(h);
    }
    if (value > largest)  // only b1's one digit can hold more than its bits
      fail(std::string(what) + ": " + quote_for_message(std::string_view(p - 1, 1)) + " at digit " +
           std::to_string(p - field.data()) + " is not a " + std::string(element_name(type)) + " value (0.." +
           std::to_string(largest) + ")");
    out[e] = value;
  }
}

void VectorReader::read_metadata(std::string_view field, VectorRecord& out) const {
  const VectorVariant& v = *variant_;
  const std::size_t count = v.metadata_count();
  if (field.size() != count)
    fail("E has " + std::to_string(field.size()) + " hex digits, expected " + std::to_string(count) +
         " (one metadata nibble per chunk of A, " + std::to_string(v.m) + " rows)");
  out.e.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const int h = hex_value(field[i]);
    if (h < 0)
      fail("E: " + quote_for_message(field.substr(i, 1)) + " at digit " + std::to_string(i + 1) +
           " is not a lowercase hex digit");
    out.e[i] = static_cast<std::uint8_t>(h);
  }
  if (const std::string why = numerics::metadata_problem(v, out.a.data(), out.e.data()); !why.empty())
    fail("E: " + why);
}

bool VectorReader::next(VectorRecord& out) {
  std::string line;
  while (read_line(line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string_view text = line;
    while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    if (text.empty()) continue;
    if (text.front() == '#') {  // "# key: value" is header; any other '#' line a comment
      text.remove_prefix(1);
      while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
      const std::size_t colon = text.find(':');
      if (colon == std::string_view::npos || colon == 0 || text.find(' ') < colon) continue;
      std::string_view value = text.substr(colon + 1);
      while (!value.empty() && is_blank(value.front())) value.remove_prefix(1);
      header_.emplace_back(std::string(text.substr(0, colon)), std::string(value));
      if (text.substr(0, colon) == "variant") set_variant(value);
      if (text.substr(0, colon) == "version") {
        if (seen_instance_) fail("'# version:' after the first instance: the version governs how instances are read");
        if (value == "1" || value == "2")
          version_ = value[0] - '0';
        else
          fail("format version " + quote_for_message(value) +
               " is not one this reader knows (1, 2): written by a newer "
               "gpuconform?");
      }
      continue;
    }
    std::string_view fields[7];
    std::size_t count = 0;
    while (!text.empty()) {
      std::size_t end = 0;
      while (end < text.size() && !is_blank(text[end])) ++end;
      if (count < 7) fields[count] = text.substr(0, end);
      ++count;
      text.remove_prefix(end);
      while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    }
    seen_instance_ = true;
    if (count >= 1 && count <= 7) set_variant(fields[0]);
    // Version 2 sparse variants carry E, the metadata; everything else six fields.
    const bool with_e = variant_ && variant_->sparse() && version_ >= 2;
    if (count != (with_e ? 7u : 6u))
      fail(with_e ? "expected 7 fields (variant class A B C D E: a sparse variant in format version 2), found " +
                        std::to_string(count)
                  : "expected 6 fields (variant class A B C D), found " + std::to_string(count));
    if (fields[1].size() > kMaxClassBytes)
      fail("class field longer than " + std::to_string(kMaxClassBytes) + " characters");
    const VectorVariant& v = *variant_;
    out.line = line_;
    out.klass.assign(fields[1]);
    parse_matrix(fields[2], "A", v.a_count(), v.ab_type, out.a);
    parse_matrix(fields[3], "B", v.b_count(), v.ab_type, out.b);
    parse_matrix(fields[4], "C", v.c_count(), v.d_type, out.c);
    parse_matrix(fields[5], "D", v.c_count(), v.d_type, out.d);
    if (with_e) {
      read_metadata(fields[6], out);
    } else if (v.sparse()) {  // version 1: only where A alone decides the kept positions
      out.e.clear();
      if (const std::string why = numerics::metadata_ambiguity(v, out.a.data());
          !why.empty() && !assume_launcher_metadata_)
        fail(why +
             ". A version-1 file has no metadata field: regenerate it, or convert it with `gpuconform vectors "
             "upgrade FILE` if gpuconform wrote it (its launcher kept the non-zero elements, then the lowest-index "
             "zeros)");
      try {
        out.e = numerics::sparse_metadata(v, out.a.data());
      } catch (const std::invalid_argument& e) {
        fail(e.what());
      }
    } else {
      out.e.clear();
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Writer

VectorWriter::VectorWriter(const std::string& path, VectorVariant variant)
    : path_(path), variant_(std::move(variant)), sink_(create_sink(path)) {
  comment("version", std::to_string(kVectorFormatVersion));  // first: it governs how instances are read
}

VectorWriter::VectorWriter(VectorWriter&&) noexcept = default;

VectorWriter::~VectorWriter() {
  try {
    finish();
  } catch (const std::exception&) {  // a destructor must not throw; finish() reports errors
  }
}

void VectorWriter::comment(std::string_view key, std::string_view value) {
  line_ = "# ";
  line_.append(key);
  line_ += ": ";
  line_.append(value);
  flush_line();
}

void VectorWriter::append_matrix(const std::vector<std::uint64_t>& values, std::size_t count,
                                 ElementType type, const char* what) {
  static constexpr char kHex[] = "0123456789abcdef";
  if (values.size() != count)
    throw std::invalid_argument(variant_.name + ": " + what + " has " + std::to_string(values.size()) +
                                " elements, expected " + std::to_string(count));
  const int digits = element_digits(type), bits = element_bits(type);
  const std::uint64_t limit = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  line_ += ' ';
  for (std::uint64_t v : values) {
    if (v > limit)
      throw std::invalid_argument(variant_.name + ": " + what + " element wider than " +
                                  std::string(element_name(type)));
    for (int i = digits - 1; i >= 0; --i) line_ += kHex[(v >> (4 * i)) & 0xF];
  }
}

void VectorWriter::write(std::string_view klass, const std::vector<std::uint64_t>& a,
                         const std::vector<std::uint64_t>& b, const std::vector<std::uint64_t>& c,
                         const std::vector<std::uint64_t>& d, const std::vector<std::uint8_t>& e) {
  if (klass.empty() || klass.size() > kMaxClassBytes ||
      std::any_of(klass.begin(), klass.end(), [](char ch) { return ch <= ' ' || ch > '~'; }))
    throw std::invalid_argument("class " + quote_for_message(klass) + " must be 1.." +
                                std::to_string(kMaxClassBytes) + " printable characters, no spaces");
  line_ = variant_.name;
  line_ += ' ';
  line_.append(klass);
  append_matrix(a, variant_.a_count(), variant_.ab_type, "A");
  append_matrix(b, variant_.b_count(), variant_.ab_type, "B");
  append_matrix(c, variant_.c_count(), variant_.d_type, "C");
  append_matrix(d, variant_.c_count(), variant_.d_type, "D");
  if (variant_.sparse()) {  // the metadata the hardware was given: A alone may not decide it
    if (e.size() != variant_.metadata_count())
      throw std::invalid_argument(variant_.name + ": E has " + std::to_string(e.size()) +
                                  " metadata nibbles, expected " + std::to_string(variant_.metadata_count()));
    if (a.size() == variant_.a_count())
      if (const std::string why = numerics::metadata_problem(variant_, a.data(), e.data()); !why.empty())
        throw std::invalid_argument(variant_.name + ": E: " + why);
    line_ += ' ';
    for (std::uint8_t nibble : e) line_ += "0123456789abcdef"[nibble & 0xF];
  } else if (!e.empty()) {
    throw std::invalid_argument(variant_.name + ": metadata given for a dense variant");
  }
  flush_line();
}

void VectorWriter::flush_line() {
  line_ += '\n';
  sink_->write(line_.data(), line_.size());
}

void VectorWriter::finish() {
  if (sink_) {
    auto sink = std::move(sink_);
    sink->finish();
  }
}

}  // namespace gpuconform
