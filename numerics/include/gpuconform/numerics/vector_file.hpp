// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vector files: hardware MMA results as text (docs/vector-files.md). `#` lines are
// header or comment, then one instance per line, six fields:
//
//   variant class A B C D
//
// A is M x K row-major, B is K x N column-major, C and D are M x N row-major; each matrix is
// the concatenation of its elements as fixed-width lowercase hex (bits/4 digits: 2 for 8-bit
// types, 4 for f16/bf16, 8 for f32/s32/tf32, 16 for f64; one digit for the sub-byte types s4,
// u4 and b1, a b1 digit being 0 or 1). C has D's type. A file holds one variant; it is
// xz-compressed when it starts with the xz magic, plain text otherwise.
//
// Every problem in a file is a VectorFileError whose text is "file:line: reason", so a
// broken golden file points at its line and the reader never crashes on bad input
// (tests/fuzz/ fuzzes it).
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpuconform/numerics/element_type.hpp"

namespace gpuconform {

// "file:line: reason" (line 0: "file: reason").
class VectorFileError : public std::runtime_error {
 public:
  VectorFileError(std::string file, std::size_t line, std::string reason);
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string reason_;
};

struct VectorRecord {
  std::size_t line = 0;  // 1-based line number in the (decompressed) text
  std::string klass;     // normal, wide, cancel, subnormal, special, probe:<name>, ...
  std::vector<std::uint64_t> a, b, c, d;  // element bit patterns, right-aligned
};

class ByteSource;  // xz_stream.hpp: plain file, memory or xz stream

class VectorReader {
 public:
  // Opens a file. Throws VectorFileError when it cannot be read.
  static VectorReader open(const std::string& path);
  // Reads bytes already in memory; `name` stands for the file in messages.
  static VectorReader from_memory(std::string name, std::string bytes);

  VectorReader(VectorReader&&) noexcept;
  VectorReader& operator=(VectorReader&&) noexcept;
  ~VectorReader();

  // The next instance; false at the end of the file. Throws VectorFileError.
  bool next(VectorRecord& out);

  const std::string& name() const { return name_; }
  // The file's variant: known after the first record (or a `# variant:` header line).
  const VectorVariant* variant() const { return variant_ ? &*variant_ : nullptr; }
  // `# key: value` lines read so far, in order.
  const std::vector<std::pair<std::string, std::string>>& header() const { return header_; }
  std::string header_value(std::string_view key) const;  // "" when absent

  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 22;  // 4 MiB

 private:
  VectorReader(std::string name, std::unique_ptr<ByteSource> source);
  bool read_line(std::string& line);
  [[noreturn]] void fail(std::string reason) const;
  void set_variant(std::string_view name);
  void parse_matrix(std::string_view field, const char* what, std::size_t count,
                    ElementType type, std::vector<std::uint64_t>& out) const;

  std::string name_;
  std::unique_ptr<ByteSource> source_;
  std::string buffer_;
  std::size_t buffer_pos_ = 0;
  bool eof_ = false;
  std::size_t line_ = 0;
  std::optional<VectorVariant> variant_;
  std::vector<std::pair<std::string, std::string>> header_;
};

class ByteSink;  // xz_stream.hpp: plain file or xz stream

class VectorWriter {
 public:
  // Creates `path`, xz-compressed when it ends in ".xz". Throws std::runtime_error.
  VectorWriter(const std::string& path, VectorVariant variant);
  VectorWriter(VectorWriter&&) noexcept;
  ~VectorWriter();

  void comment(std::string_view key, std::string_view value);  // "# key: value"
  // One instance. Throws std::invalid_argument on a wrong element count or a value wider
  // than its type.
  void write(std::string_view klass, const std::vector<std::uint64_t>& a,
             const std::vector<std::uint64_t>& b, const std::vector<std::uint64_t>& c,
             const std::vector<std::uint64_t>& d);
  // Flushes and closes; throws std::runtime_error on an I/O error. The destructor closes
  // too, silently.
  void finish();

 private:
  void append_matrix(const std::vector<std::uint64_t>& values, std::size_t count,
                     ElementType type, const char* what);
  void flush_line();

  std::string path_;
  VectorVariant variant_;
  std::unique_ptr<ByteSink> sink_;
  std::string line_;
};

}  // namespace gpuconform
