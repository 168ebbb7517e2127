// SPDX-License-Identifier: Apache-2.0
// Byte streams under the vector-file reader and writer (xz_stream.hpp): a plain file, a
// memory buffer, or either decompressed as an xz stream (liblzma); a file written plain or
// xz-compressed.
#include "gpuconform/numerics/xz_stream.hpp"

#include <lzma.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gpuconform {
namespace {

constexpr std::uint64_t kXzMemoryLimit = std::uint64_t{1} << 28;  // 256 MiB: xz -9 needs 65
constexpr std::uint32_t kXzPreset = 6;  // xz's default; -9 saves < 2 % on these files
constexpr unsigned char kXzMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

class FileSource : public ByteSource {
 public:
  explicit FileSource(std::FILE* f) : f_(f) {}
  ~FileSource() override { std::fclose(f_); }
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t got = std::fread(out, 1, n, f_);
    if (got == 0 && std::ferror(f_)) throw std::runtime_error("read error");
    return got;
  }

 private:
  std::FILE* f_;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  std::size_t read(char* out, std::size_t n) override {
    const std::size_t got = std::min(n, bytes_.size() - pos_);
    std::memcpy(out, bytes_.data() + pos_, got);
    pos_ += got;
    return got;
  }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
};

std::string lzma_reason(lzma_ret r) {
  switch (r) {
    case LZMA_MEM_ERROR: return "xz: out of memory";
    case LZMA_MEMLIMIT_ERROR: return "xz: the stream needs more than 256 MiB to decode";
    case LZMA_FORMAT_ERROR: return "xz: not an xz stream";
    case LZMA_OPTIONS_ERROR: return "xz: unsupported options";
    case LZMA_DATA_ERROR: return "xz: corrupt data";
    case LZMA_BUF_ERROR: return "xz: truncated stream";
    default: return "xz: error " + std::to_string(static_cast<int>(r));
  }
}

// Decompresses another source; concatenated streams are read as one.
class XzSource : public ByteSource {
 public:
  explicit XzSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_(kStreamChunkBytes) {
    const lzma_ret r = lzma_stream_decoder(&strm_, kXzMemoryLimit, LZMA_CONCATENATED);
    if (r != LZMA_OK) throw std::runtime_error(lzma_reason(r));
  }
  ~XzSource() override { lzma_end(&strm_); }

  std::size_t read(char* out, std::size_t n) override {
    if (done_) return 0;
    strm_.next_out = reinterpret_cast<std::uint8_t*>(out);
    strm_.avail_out = n;
    while (strm_.avail_out == n) {
      lzma_action action = LZMA_RUN;
      if (strm_.avail_in == 0 && !inner_eof_) {
        strm_.avail_in = inner_->read(reinterpret_cast<char*>(in_.data()), in_.size());
        strm_.next_in = in_.data();
        inner_eof_ = strm_.avail_in == 0;
      }
      if (inner_eof_) action = LZMA_FINISH;
      const lzma_ret r = lzma_code(&strm_, action);
      if (r == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (r != LZMA_OK) throw std::runtime_error(lzma_reason(r));
    }
    return n - strm_.avail_out;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::vector<std::uint8_t> in_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  bool inner_eof_ = false, done_ = false;
};

bool starts_with_xz_magic(const char* bytes, std::size_t n) {
  return n >= sizeof kXzMagic && std::memcmp(bytes, kXzMagic, sizeof kXzMagic) == 0;
}

}  // namespace

ByteSink::ByteSink(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
  if (!f_) throw std::runtime_error(path + ": cannot create: " + std::strerror(errno));
}

ByteSink::~ByteSink() {
  if (f_) std::fclose(f_);
}

void ByteSink::put(const void* data, std::size_t n) {
  if (n && std::fwrite(data, 1, n, f_) != n) throw std::runtime_error(path_ + ": write error");
}

void ByteSink::close() {
  if (!f_) return;
  const bool bad = std::fclose(f_) != 0;
  f_ = nullptr;
  if (bad) throw std::runtime_error(path_ + ": write error on close");
}

namespace {

class XzSink : public ByteSink {
 public:
  explicit XzSink(const std::string& path) : ByteSink(path), out_(kStreamChunkBytes) {
    const lzma_ret r = lzma_easy_encoder(&strm_, kXzPreset, LZMA_CHECK_CRC64);
    if (r != LZMA_OK) throw std::runtime_error(path + ": " + lzma_reason(r));
  }
  ~XzSink() override { lzma_end(&strm_); }
  void write(const char* data, std::size_t n) override {
    strm_.next_in = reinterpret_cast<const std::uint8_t*>(data);
    strm_.avail_in = n;
    run(LZMA_RUN);
  }
  void finish() override {
    if (finished_) return;
    finished_ = true;
    strm_.avail_in = 0;
    run(LZMA_FINISH);
    close();
  }

 private:
  void run(lzma_action action) {
    for (;;) {
      strm_.next_out = out_.data();
      strm_.avail_out = out_.size();
      const lzma_ret r = lzma_code(&strm_, action);
      put(out_.data(), out_.size() - strm_.avail_out);
      if (r == LZMA_STREAM_END) return;
      if (r != LZMA_OK) throw std::runtime_error(lzma_reason(r));
      if (action == LZMA_RUN && strm_.avail_in == 0) return;
    }
  }

  lzma_stream strm_ = LZMA_STREAM_INIT;
  std::vector<std::uint8_t> out_;
  bool finished_ = false;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::unique_ptr<ByteSource> open_source(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error(std::string("cannot open: ") + std::strerror(errno));
  char magic[sizeof kXzMagic];
  const std::size_t got = std::fread(magic, 1, sizeof magic, f);
  std::rewind(f);
  auto file = std::make_unique<FileSource>(f);
  if (!starts_with_xz_magic(magic, got)) return file;
  return std::make_unique<XzSource>(std::move(file));
}

std::unique_ptr<ByteSource> memory_source(std::string bytes) {
  const bool xz = starts_with_xz_magic(bytes.data(), bytes.size());
  auto memory = std::make_unique<MemorySource>(std::move(bytes));
  if (!xz) return memory;
  return std::make_unique<XzSource>(std::move(memory));
}

std::unique_ptr<ByteSink> create_sink(const std::string& path) {
  if (ends_with(path, ".xz")) return std::make_unique<XzSink>(path);
  return std::make_unique<ByteSink>(path);
}

std::string read_whole_text(const std::string& path) {
  try {
    const std::unique_ptr<ByteSource> source = open_source(path);
    std::string text;
    std::vector<char> chunk(kStreamChunkBytes);
    for (std::size_t n; (n = source->read(chunk.data(), chunk.size())) > 0;) text.append(chunk.data(), n);
    return text;
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
}

}  // namespace gpuconform
