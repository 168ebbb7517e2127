// SPDX-License-Identifier: Apache-2.0
#pragma once
// The byte streams under vector files (vector_file.hpp): what the reader's text comes from
// (a plain file, bytes in memory, or either decompressed when it starts with the xz magic;
// concatenated xz streams read as one) and where the writer's goes (a plain file, or an xz
// stream when the name ends in ".xz"). liblzma stays behind this header.
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

namespace gpuconform {

// Bytes read or compressed at a time.
constexpr std::size_t kStreamChunkBytes = std::size_t{1} << 16;

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes; 0 at the end. Throws std::runtime_error with a reason.
  virtual std::size_t read(char* out, std::size_t n) = 0;
};

// A file being written; the xz sink compresses before it puts the bytes.
class ByteSink {
 public:
  // Throws std::runtime_error ("PATH: cannot create: ...").
  explicit ByteSink(const std::string& path);
  virtual ~ByteSink();
  virtual void write(const char* data, std::size_t n) { put(data, n); }
  virtual void finish() { close(); }

 protected:
  void put(const void* data, std::size_t n);  // throws std::runtime_error on a write error
  void close();                               // likewise

 private:
  std::string path_;
  std::FILE* f_;
};

// The text of `path`, decompressed when it starts with the xz magic. Throws
// std::runtime_error with a reason that does not name the file ("cannot open: ...", "xz: ...").
std::unique_ptr<ByteSource> open_source(const std::string& path);
// The whole text of `path`, decompressed when it is xz: a run record or its excerpt
// (`gpuconform judge`, expectations/evidence/unseen/). Throws std::runtime_error naming the file.
std::string read_whole_text(const std::string& path);

// The same over bytes already in memory.
std::unique_ptr<ByteSource> memory_source(std::string bytes);
// Creates `path`, xz-compressed when it ends in ".xz". Throws std::runtime_error.
std::unique_ptr<ByteSink> create_sink(const std::string& path);

}  // namespace gpuconform
