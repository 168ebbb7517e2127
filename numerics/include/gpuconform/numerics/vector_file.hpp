// SPDX-License-Identifier: Apache-2.0
#pragma once
// Vector files: hardware MMA results as text (docs/vector-files.md). `#` lines are
// header or comment, then one instance per line, six fields:
//
//   variant class A B C D
//
// and for a 2:4 sparse variant (mmasp_*, wgmmasp_*) in format version 2 (`# version: 2`) a
// seventh, E: the metadata, one hex digit per chunk of A (M x K/4 row-major; tf32 M x K/2),
// the nibble the hardware was given (sparse_a.hpp). Version 1 had no E: the reader accepts
// a version-1 sparse file only where A alone decides the kept positions (no kept zero), and
// names the first chunk where it does not (`gpuconform vectors upgrade` converts a file
// gpuconform wrote, whose launcher's rule is known).
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

// The format version the writer writes; the reader takes 1 and 2.
inline constexpr int kVectorFormatVersion = 2;
// The `# format:` header of dense and of sparse files.
inline constexpr const char* kFormatLine = "gpuconform vector file (docs/vector-files.md): variant class A B C D";
inline constexpr const char* kSparseFormatLine =
    "gpuconform vector file (docs/vector-files.md): variant class A B C D E (E: the sparse metadata, a nibble a chunk)";

struct VectorRecord {
  std::size_t line = 0;  // 1-based line number in the (decompressed) text
  std::string klass;     // normal, wide, cancel, subnormal, special, probe:<name>, ...
  std::vector<std::uint64_t> a, b, c, d;  // element bit patterns, right-aligned
  std::vector<std::uint8_t> e;            // sparse variants: metadata nibbles, M x chunks; else empty
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
  // 1 or 2: the `# version:` header read so far (absent: 1).
  int version() const { return version_; }
  // For `vectors upgrade` only: read a version-1 sparse file whose kept zeros A does not
  // decide by the rule gpuconform's launcher used (sparse_metadata), instead of failing.
  void assume_launcher_metadata() { assume_launcher_metadata_ = true; }

  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 22;  // 4 MiB

 private:
  VectorReader(std::string name, std::unique_ptr<ByteSource> source);
  bool read_line(std::string& line);
  [[noreturn]] void fail(std::string reason) const;
  void set_variant(std::string_view name);
  void parse_matrix(std::string_view field, const char* what, std::size_t count,
                    ElementType type, std::vector<std::uint64_t>& out) const;
  void read_metadata(std::string_view field, VectorRecord& out) const;

  std::string name_;
  std::unique_ptr<ByteSource> source_;
  std::string buffer_;
  std::size_t buffer_pos_ = 0;
  bool eof_ = false;
  std::size_t line_ = 0;
  std::optional<VectorVariant> variant_;
  std::vector<std::pair<std::string, std::string>> header_;
  int version_ = 1;
  bool seen_instance_ = false;
  bool assume_launcher_metadata_ = false;
};

class ByteSink;  // xz_stream.hpp: plain file or xz stream

class VectorWriter {
 public:
  // Creates `path`, xz-compressed when it ends in ".xz", and writes `# version: 2` first.
  // Throws std::runtime_error.
  VectorWriter(const std::string& path, VectorVariant variant);
  VectorWriter(VectorWriter&&) noexcept;
  ~VectorWriter();

  void comment(std::string_view key, std::string_view value);  // "# key: value"
  // One instance; `e` is the metadata of a sparse variant (required: the nibbles the hardware
  // was given, e.g. numerics::sparse_metadata) and empty otherwise. Throws
  // std::invalid_argument on a wrong element count, a value wider than its type, or metadata
  // that is missing, undefined or drops a non-zero element of A.
  void write(std::string_view klass, const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
             const std::vector<std::uint64_t>& c, const std::vector<std::uint64_t>& d,
             const std::vector<std::uint8_t>& e = {});
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
