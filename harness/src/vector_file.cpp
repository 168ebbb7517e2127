// Vector-file reader and writer (vector_file.hpp). Text is read line by line from a plain
// file, a memory buffer or an xz stream (liblzma), so a 100 MB golden file never sits in
// memory whole. Every check on the text names the file and line.
#include "gpuconform/vector_file.hpp"

#include <lzma.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gpuconform {
namespace {

constexpr std::array<const char*, 5> kInstructions = {"mma", "mmasp", "wmma", "wgmma", "tcgen05"};
// satfinite: integer D saturates; areg: wgmma A in registers; xor/and: the bit operation of
// b1; sel0/sel1: the sparsity selector of mmasp (which threads of a group of four hold the
// metadata).
constexpr std::array<const char*, 6> kQualifiers = {"satfinite", "areg", "xor", "and", "sel0", "sel1"};
constexpr std::array<ElementType, 4> kDTypes = {ElementType::f64, ElementType::f32,
                                                ElementType::f16, ElementType::s32};
constexpr std::array<ElementType, 11> kAbTypes = {
    ElementType::f64,  ElementType::tf32, ElementType::f16, ElementType::bf16, ElementType::e4m3, ElementType::e5m2,
    ElementType::s8,   ElementType::u8,   ElementType::s4,  ElementType::u4,   ElementType::b1};
constexpr int kMaxDimension = 256;  // the largest m, n or k of any PTX MMA shape
constexpr std::size_t kMaxClassBytes = 128;
constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
constexpr std::uint64_t kXzMemoryLimit = std::uint64_t{1} << 28;  // 256 MiB: xz -9 needs 65
constexpr std::uint32_t kXzPreset = 6;  // xz's default; -9 saves < 2 % on these files
constexpr unsigned char kXzMagic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

template <std::size_t N>
std::string join(const std::array<const char*, N>& names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

template <std::size_t N>
std::string join(const std::array<ElementType, N>& types) {
  std::string out;
  for (ElementType t : types) out += (out.empty() ? "" : ", ") + std::string(element_name(t));
  return out;
}

// Quotes text for a message, escaping what a terminal would not show.
std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kShown; ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch >= 0x20 && ch < 0x7F) {
      out += static_cast<char>(ch);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", ch);
      out += hex;
    }
  }
  return out + (s.size() > kShown ? "...'" : "'");
}

// m16n8k16 -> {16, 8, 16}; false unless the text is exactly that form.
bool parse_shape(std::string_view s, int dims[3]) {
  const char letters[3] = {'m', 'n', 'k'};
  std::size_t pos = 0;
  for (int d = 0; d < 3; ++d) {
    if (pos >= s.size() || s[pos] != letters[d]) return false;
    ++pos;
    int value = 0;
    const std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9' && pos - start < 4)
      value = value * 10 + (s[pos++] - '0');
    if (pos == start || value < 1 || value > kMaxDimension) return false;
    dims[d] = value;
  }
  return pos == s.size();
}

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }

}  // namespace

// ---------------------------------------------------------------------------------------
// Element types and variant names

std::string_view element_name(ElementType t) {
  switch (t) {
    case ElementType::f64: return "f64";
    case ElementType::f32: return "f32";
    case ElementType::tf32: return "tf32";
    case ElementType::f16: return "f16";
    case ElementType::bf16: return "bf16";
    case ElementType::e4m3: return "e4m3";
    case ElementType::e5m2: return "e5m2";
    case ElementType::s32: return "s32";
    case ElementType::s8: return "s8";
    case ElementType::u8: return "u8";
    case ElementType::s4: return "s4";
    case ElementType::u4: return "u4";
    case ElementType::b1: return "b1";
  }
  return "?";
}

std::optional<ElementType> parse_element(std::string_view name) {
  for (ElementType t : {ElementType::f64, ElementType::f32, ElementType::tf32, ElementType::f16,
                        ElementType::bf16, ElementType::e4m3, ElementType::e5m2, ElementType::s32,
                        ElementType::s8, ElementType::u8, ElementType::s4, ElementType::u4, ElementType::b1})
    if (element_name(t) == name) return t;
  return std::nullopt;
}

int element_bits(ElementType t) {
  switch (t) {
    case ElementType::f64: return 64;
    case ElementType::f32:
    case ElementType::tf32:  // the whole fp32 register, low 13 bits included
    case ElementType::s32: return 32;
    case ElementType::f16:
    case ElementType::bf16: return 16;
    case ElementType::e4m3:
    case ElementType::e5m2:
    case ElementType::s8:
    case ElementType::u8: return 8;
    case ElementType::s4:
    case ElementType::u4: return 4;
    case ElementType::b1: return 1;
  }
  return 0;
}

bool VectorVariant::has(std::string_view qualifier) const {
  return std::find(qualifiers.begin(), qualifiers.end(), qualifier) != qualifiers.end();
}

std::string VectorVariant::arithmetic_name() const {
  std::string out = instruction + "_m" + std::to_string(m) + "n" + std::to_string(n) + "k" +
                    std::to_string(k) + "_" + std::string(element_name(d_type)) + "_" +
                    std::string(element_name(ab_type));
  // Where an operand lives (areg) and which threads hold the sparse metadata (sel0, sel1)
  // change no arithmetic.
  for (const std::string& q : qualifiers)
    if (q != "areg" && q != "sel0" && q != "sel1") out += "_" + q;
  return out;
}

std::optional<VectorVariant> parse_variant(std::string_view name, std::string& why) {
  const std::string prefix = "unknown variant " + quoted(name) + ": ";
  const std::vector<std::string_view> parts = split(name, '_');
  if (parts.size() < 4) {
    why = prefix + "expected <instruction>_<shape>_<D type>_<A/B type>[_<qualifier>], e.g. "
                   "mma_m16n8k16_f32_bf16";
    return std::nullopt;
  }
  VectorVariant v;
  v.name = std::string(name);
  v.instruction = std::string(parts[0]);
  if (std::none_of(kInstructions.begin(), kInstructions.end(),
                   [&](const char* i) { return parts[0] == i; })) {
    why = prefix + "instruction " + quoted(parts[0]) + " is not one of " + join(kInstructions);
    return std::nullopt;
  }
  int dims[3];
  if (!parse_shape(parts[1], dims)) {
    why = prefix + "shape " + quoted(parts[1]) + " is not m<M>n<N>k<K> with each in 1.." +
          std::to_string(kMaxDimension);
    return std::nullopt;
  }
  v.m = dims[0], v.n = dims[1], v.k = dims[2];
  const auto d = parse_element(parts[2]);
  if (!d || std::find(kDTypes.begin(), kDTypes.end(), *d) == kDTypes.end()) {
    why = prefix + "D type " + quoted(parts[2]) + " is not one of " + join(kDTypes);
    return std::nullopt;
  }
  const auto ab = parse_element(parts[3]);
  if (!ab || std::find(kAbTypes.begin(), kAbTypes.end(), *ab) == kAbTypes.end()) {
    why = prefix + "A/B type " + quoted(parts[3]) + " is not one of " + join(kAbTypes);
    return std::nullopt;
  }
  v.d_type = *d;
  v.ab_type = *ab;
  for (std::size_t i = 4; i < parts.size(); ++i) {
    if (std::none_of(kQualifiers.begin(), kQualifiers.end(),
                     [&](const char* q) { return parts[i] == q; })) {
      why = prefix + "qualifier " + quoted(parts[i]) + " is not one of " + join(kQualifiers);
      return std::nullopt;
    }
    if (v.has(parts[i])) {
      why = prefix + "qualifier " + quoted(parts[i]) + " given twice";
      return std::nullopt;
    }
    v.qualifiers.emplace_back(parts[i]);
  }
  if (v.has("satfinite") && v.d_type != ElementType::s32) {
    why = prefix + "satfinite needs an s32 D";
    return std::nullopt;
  }
  // b1 MMA is a popc of a bit operation, which the name must say (PTX has no default).
  const bool bit_op = v.has("xor") || v.has("and");
  if (v.ab_type == ElementType::b1 && (!bit_op || (v.has("xor") && v.has("and")))) {
    why = prefix + "b1 needs exactly one of the qualifiers xor, and (the bit operation before popc)";
    return std::nullopt;
  }
  if (v.ab_type != ElementType::b1 && bit_op) {
    why = prefix + "xor and and are b1 qualifiers; the A/B type is " + std::string(element_name(v.ab_type));
    return std::nullopt;
  }
  if (v.ab_type == ElementType::b1 && v.d_type != ElementType::s32) {
    why = prefix + "b1 needs an s32 D";
    return std::nullopt;
  }
  if ((v.has("sel0") || v.has("sel1")) && v.instruction != "mmasp") {
    why = prefix + "a sparsity selector (sel0, sel1) needs the mmasp instruction";
    return std::nullopt;
  }
  if (v.has("sel0") && v.has("sel1")) {
    why = prefix + "one sparsity selector only (sel0 or sel1)";
    return std::nullopt;
  }
  return v;
}

VectorFileError::VectorFileError(std::string file, std::size_t line, std::string reason)
    : std::runtime_error(file + (line ? ":" + std::to_string(line) : std::string()) + ": " + reason),
      file_(std::move(file)),
      line_(line),
      reason_(std::move(reason)) {}

// ---------------------------------------------------------------------------------------
// Byte sources: where the reader's text comes from

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes; 0 at the end. Throws std::runtime_error with a reason.
  virtual std::size_t read(char* out, std::size_t n) = 0;
};

namespace {

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
  explicit XzSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)), in_(kChunkBytes) {
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

// ---------------------------------------------------------------------------------------
// Reader

VectorReader::VectorReader(std::string name, std::unique_ptr<ByteSource> source)
    : name_(std::move(name)), source_(std::move(source)) {}
VectorReader::VectorReader(VectorReader&&) noexcept = default;
VectorReader& VectorReader::operator=(VectorReader&&) noexcept = default;
VectorReader::~VectorReader() = default;

VectorReader VectorReader::open(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw VectorFileError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  char magic[sizeof kXzMagic];
  const std::size_t got = std::fread(magic, 1, sizeof magic, f);
  std::rewind(f);
  auto file = std::make_unique<FileSource>(f);
  if (!starts_with_xz_magic(magic, got)) return VectorReader(path, std::move(file));
  try {
    return VectorReader(path, std::make_unique<XzSource>(std::move(file)));
  } catch (const std::runtime_error& e) {
    throw VectorFileError(path, 0, e.what());
  }
}

VectorReader VectorReader::from_memory(std::string name, std::string bytes) {
  const bool xz = starts_with_xz_magic(bytes.data(), bytes.size());
  auto memory = std::make_unique<MemorySource>(std::move(bytes));
  if (!xz) return VectorReader(std::move(name), std::move(memory));
  try {
    return VectorReader(name, std::make_unique<XzSource>(std::move(memory)));
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
    buffer_.resize(old + kChunkBytes);
    std::size_t got = 0;
    try {
      got = source_->read(&buffer_[old], kChunkBytes);
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
      fail("variant " + quoted(name) + " differs from the file's variant " + quoted(variant_->name) +
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
        fail(std::string(what) + ": " + quoted(std::string_view(p, 1)) + " at digit " +
             std::to_string(p - field.data() + 1) + " is not a lowercase hex digit");
      value = (value << 4) | static_cast<std::uint64_t>(h);
    }
    if (value > largest)  // only b1's one digit can hold more than its bits
      fail(std::string(what) + ": " + quoted(std::string_view(p - 1, 1)) + " at digit " +
           std::to_string(p - field.data()) + " is not a " + std::string(element_name(type)) + " value (0.." +
           std::to_string(largest) + ")");
    out[e] = value;
  }
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
      continue;
    }
    std::string_view fields[6];
    std::size_t count = 0;
    while (!text.empty()) {
      std::size_t end = 0;
      while (end < text.size() && !is_blank(text[end])) ++end;
      if (count < 6) fields[count] = text.substr(0, end);
      ++count;
      text.remove_prefix(end);
      while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    }
    if (count != 6)
      fail("expected 6 fields (variant class A B C D), found " + std::to_string(count));
    set_variant(fields[0]);
    if (fields[1].size() > kMaxClassBytes)
      fail("class field longer than " + std::to_string(kMaxClassBytes) + " characters");
    const VectorVariant& v = *variant_;
    out.line = line_;
    out.klass.assign(fields[1]);
    parse_matrix(fields[2], "A", v.a_count(), v.ab_type, out.a);
    parse_matrix(fields[3], "B", v.b_count(), v.ab_type, out.b);
    parse_matrix(fields[4], "C", v.c_count(), v.d_type, out.c);
    parse_matrix(fields[5], "D", v.c_count(), v.d_type, out.d);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Writer

class ByteSink {
 public:
  explicit ByteSink(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "wb")) {
    if (!f_) throw std::runtime_error(path + ": cannot create: " + std::strerror(errno));
  }
  virtual ~ByteSink() {
    if (f_) std::fclose(f_);
  }
  virtual void write(const char* data, std::size_t n) { put(data, n); }
  virtual void finish() { close(); }

 protected:
  void put(const void* data, std::size_t n) {
    if (n && std::fwrite(data, 1, n, f_) != n) throw std::runtime_error(path_ + ": write error");
  }
  void close() {
    if (!f_) return;
    const bool bad = std::fclose(f_) != 0;
    f_ = nullptr;
    if (bad) throw std::runtime_error(path_ + ": write error on close");
  }

 private:
  std::string path_;
  std::FILE* f_;
};

namespace {

class XzSink : public ByteSink {
 public:
  explicit XzSink(const std::string& path) : ByteSink(path), out_(kChunkBytes) {
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

VectorWriter::VectorWriter(const std::string& path, VectorVariant variant)
    : path_(path), variant_(std::move(variant)) {
  if (ends_with(path, ".xz"))
    sink_ = std::make_unique<XzSink>(path);
  else
    sink_ = std::make_unique<ByteSink>(path);
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
                         const std::vector<std::uint64_t>& d) {
  if (klass.empty() || klass.size() > kMaxClassBytes ||
      std::any_of(klass.begin(), klass.end(), [](char ch) { return ch <= ' ' || ch > '~'; }))
    throw std::invalid_argument("class " + quoted(klass) + " must be 1.." +
                                std::to_string(kMaxClassBytes) + " printable characters, no spaces");
  line_ = variant_.name;
  line_ += ' ';
  line_.append(klass);
  append_matrix(a, variant_.a_count(), variant_.ab_type, "A");
  append_matrix(b, variant_.b_count(), variant_.ab_type, "B");
  append_matrix(c, variant_.c_count(), variant_.d_type, "C");
  append_matrix(d, variant_.c_count(), variant_.d_type, "D");
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
