// SPDX-License-Identifier: Apache-2.0
// The vector-file reader and writer: every malformed input is a VectorFileError whose text
// is "file:line: reason", and what the writer writes the reader reads back bit for bit.
#include <gtest/gtest.h>
#include <lzma.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform {
namespace {

// One valid line of mma_m8n8k4_f64_f64 (the shortest variant): A 8x4, B 4x8, C and D 8x8.
std::string f64_line(std::string klass = "normal") {
  const std::string one = "3ff0000000000000";
  std::string a, b, c, d;
  for (int i = 0; i < 32; ++i) a += one, b += one;
  for (int i = 0; i < 64; ++i) c += one, d += "4014000000000000";  // 1*1*4 + 1 = 5
  return "mma_m8n8k4_f64_f64 " + klass + " " + a + " " + b + " " + c + " " + d + "\n";
}

// The error text of reading `text` as file "t.txt" to the end.
std::string read_error(const std::string& text) {
  VectorReader r = VectorReader::from_memory("t.txt", text);
  VectorRecord rec;
  try {
    while (r.next(rec)) {
    }
  } catch (const VectorFileError& e) {
    return e.what();
  }
  return "no error";
}

std::string xz(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t pos = 0;
  EXPECT_EQ(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                    text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()),
            LZMA_OK);
  out.resize(pos);
  return out;
}

TEST(VectorVariantName, ParsesShapeTypesAndQualifiers) {
  std::string why;
  const auto v = parse_variant("wgmma_m64n8k32_s32_s8_satfinite_areg", why);
  ASSERT_TRUE(v) << why;
  EXPECT_EQ(v->instruction, "wgmma");
  EXPECT_EQ(v->m, 64);
  EXPECT_EQ(v->n, 8);
  EXPECT_EQ(v->k, 32);
  EXPECT_EQ(v->d_type, ElementType::s32);
  EXPECT_EQ(v->ab_type, ElementType::s8);
  EXPECT_TRUE(v->has("satfinite"));
  EXPECT_EQ(v->arithmetic_name(), "wgmma_m64n8k32_s32_s8_satfinite");
}

TEST(VectorVariantName, SparsitySelectorIsNoArithmetic) {
  std::string why;
  const auto v = parse_variant("mmasp_m16n8k32_f32_bf16_sel1", why);
  ASSERT_TRUE(v) << why;
  EXPECT_EQ(v->instruction, "mmasp");
  EXPECT_TRUE(v->has("sel1"));
  EXPECT_EQ(v->arithmetic_name(), "mmasp_m16n8k32_f32_bf16");
  EXPECT_FALSE(parse_variant("mma_m16n8k16_f32_f16_sel0", why));
  EXPECT_NE(why.find("needs a sparse instruction (mmasp, wgmmasp)"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mmasp_m16n8k32_f32_f16_sel0_sel1", why));
  EXPECT_NE(why.find("one sparsity selector only"), std::string::npos) << why;
}

TEST(VectorVariantName, RejectionsNameTheAllowedValues) {
  std::string why;
  EXPECT_FALSE(parse_variant("mma_m16n8k16_f32", why));
  EXPECT_NE(why.find("expected <instruction>_<shape>"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mmx_m16n8k16_f32_f16", why));
  EXPECT_NE(why.find("is not one of mma, mmasp, wmma, wgmma, wgmmasp, tcgen05"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8_f32_f16", why));
  EXPECT_NE(why.find("is not m<M>n<N>k<K>"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8k16_bf16_f16", why));
  EXPECT_NE(why.find("D type 'bf16' is not one of f64, f32, f16, s32"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8k16_f32_f8", why));
  EXPECT_NE(why.find("A/B type 'f8'"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8k16_f32_f16_fast", why));
  EXPECT_NE(why.find("qualifier 'fast' is not one of satfinite, areg, xor, and, sel0, sel1"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8k16_f32_f16_satfinite", why));
  EXPECT_NE(why.find("satfinite needs an s32 D"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m16n8k99999_f32_f16", why));
}

TEST(VectorVariantName, SubByteTypesTakeOneDigitAndB1NamesItsBitOperation) {
  std::string why;
  const auto b1 = parse_variant("mma_m16n8k256_s32_b1_xor", why);
  ASSERT_TRUE(b1) << why;
  EXPECT_EQ(b1->ab_type, ElementType::b1);
  EXPECT_EQ(b1->arithmetic_name(), "mma_m16n8k256_s32_b1_xor");  // xor changes the arithmetic
  const auto s4 = parse_variant("mma_m16n8k64_s32_s4_satfinite", why);
  ASSERT_TRUE(s4) << why;
  EXPECT_EQ(element_bits(ElementType::s4), 4);
  EXPECT_EQ(element_bits(ElementType::u4), 4);
  EXPECT_EQ(element_bits(ElementType::b1), 1);
  for (ElementType t : {ElementType::s4, ElementType::u4, ElementType::b1}) EXPECT_EQ(element_digits(t), 1);
  EXPECT_EQ(element_digits(ElementType::s8), 2);
  EXPECT_FALSE(parse_variant("mma_m8n8k128_s32_b1", why));
  EXPECT_NE(why.find("b1 needs exactly one of the qualifiers xor, and"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m8n8k128_s32_b1_xor_and", why));
  EXPECT_NE(why.find("b1 needs exactly one of the qualifiers xor, and"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m8n8k32_s32_s4_xor", why));
  EXPECT_NE(why.find("xor and and are b1 qualifiers; the A/B type is s4"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("mma_m8n8k128_f32_b1_and", why));
  EXPECT_NE(why.find("b1 needs an s32 D"), std::string::npos) << why;
}

// One line of mma_m8n8k128_s32_b1_and: A 8x128 and B 128x8 one digit each, C and D 8x8 s32.
std::string b1_line(char a_digit = '1') {
  return "mma_m8n8k128_s32_b1_and normal " + std::string(1024, a_digit) + " " + std::string(1024, '1') + " " +
         std::string(512, '0') + " " + std::string(512, 'f') + "\n";
}

TEST(VectorReader, ReadsSubByteElementsOneDigitEach) {
  VectorReader r = VectorReader::from_memory("t.txt", b1_line());
  VectorRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.a.size(), 1024u);
  EXPECT_EQ(rec.a[1023], 1u);
  EXPECT_EQ(rec.d[0], 0xFFFFFFFFu);
  const std::string s4 = "mma_m8n8k32_s32_s4 normal " + std::string(256, 'f') + " " + std::string(256, '8') + " " +
                         std::string(512, '0') + " " + std::string(512, '0') + "\n";
  VectorReader r4 = VectorReader::from_memory("t.txt", s4);
  ASSERT_TRUE(r4.next(rec));
  EXPECT_EQ(rec.a[0], 0xFu);  // -1 as an s4 bit pattern
  EXPECT_EQ(rec.b[255], 0x8u);
}

TEST(VectorReaderErrors, B1DigitOutOfRange) {
  std::string line = b1_line();
  line[line.find(' ', 40) + 7] = '2';  // B's seventh digit (A ends at the first space after 40)
  EXPECT_EQ(read_error(line), "t.txt:1: B: '2' at digit 7 is not a b1 value (0..1)");
  EXPECT_EQ(read_error(b1_line('a')), "t.txt:1: A: 'a' at digit 1 is not a b1 value (0..1)");
}

TEST(VectorReader, ReadsHeaderCommentsBlankLinesAndCrLf) {
  VectorReader r = VectorReader::from_memory(
      "t.txt", "# arch: sm_90\n# a comment without a key\n\n" + f64_line() + "\r\n" + f64_line("probe:x"));
  VectorRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.line, 4u);
  EXPECT_EQ(rec.klass, "normal");
  EXPECT_EQ(rec.a.size(), 32u);
  EXPECT_EQ(rec.d[63], 0x4014000000000000u);
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.klass, "probe:x");
  EXPECT_FALSE(r.next(rec));
  EXPECT_EQ(r.header_value("arch"), "sm_90");
  EXPECT_EQ(r.variant()->name, "mma_m8n8k4_f64_f64");
}

TEST(VectorReader, ReadsXzAndAFinalLineWithoutNewline) {
  std::string text = f64_line() + f64_line();
  text.pop_back();
  VectorReader r = VectorReader::from_memory("t.txt.xz", xz(text));
  VectorRecord rec;
  int count = 0;
  while (r.next(rec)) ++count;
  EXPECT_EQ(count, 2);
}

TEST(VectorReaderErrors, WrongFieldCount) {
  EXPECT_EQ(read_error(f64_line() + "mma_m8n8k4_f64_f64 normal 00\n"),
            "t.txt:2: expected 6 fields (variant class A B C D), found 3");
}

TEST(VectorReaderErrors, UnknownVariant) {
  EXPECT_EQ(read_error("mma_m8n8k4_f64_q7 normal a b c d\n"),
            "t.txt:1: unknown variant 'mma_m8n8k4_f64_q7': A/B type 'q7' is not one of f64, tf32, f16, bf16, "
            "e4m3, e5m2, s8, u8, s4, u4, b1");
}

TEST(VectorReaderErrors, WrongFieldWidth) {
  std::string line = f64_line();
  line.erase(line.find(' ', 30) - 1, 1);  // one digit short at the end of A
  EXPECT_EQ(read_error(line), "t.txt:1: A has 511 hex digits, expected 512 (32 f64 elements of 16 digits)");
}

TEST(VectorReaderErrors, UppercaseOrNonHexDigit) {
  std::string line = f64_line();
  line[line.rfind(' ') + 3] = 'F';
  EXPECT_EQ(read_error(line), "t.txt:1: D: 'F' at digit 3 is not a lowercase hex digit");
  line[line.rfind(' ') + 3] = '\x01';
  EXPECT_EQ(read_error(line), "t.txt:1: D: '\\x01' at digit 3 is not a lowercase hex digit");
}

TEST(VectorReaderErrors, SecondVariantInOneFile) {
  EXPECT_EQ(read_error("# variant: mma_m8n8k4_f64_f64\n" + f64_line() + "mma_m16n8k16_f32_f16 x 0 0 0 0\n"),
            "t.txt:3: variant 'mma_m16n8k16_f32_f16' differs from the file's variant 'mma_m8n8k4_f64_f64' "
            "(one variant per file)");
}

TEST(VectorReaderErrors, BadVariantHeader) {
  EXPECT_EQ(read_error("# variant: nonsense\n"),
            "t.txt:1: unknown variant 'nonsense': expected <instruction>_<shape>_<D type>_<A/B type>"
            "[_<qualifier>], e.g. mma_m16n8k16_f32_bf16");
}

TEST(VectorReaderErrors, OverlongLine) {
  EXPECT_EQ(read_error(f64_line() + std::string(VectorReader::kMaxLineBytes + 10, 'a')),
            "t.txt:2: line longer than 4 MiB");
}

TEST(VectorReaderErrors, OverlongClass) {
  EXPECT_EQ(read_error(f64_line(std::string(200, 'x'))), "t.txt:1: class field longer than 128 characters");
}

TEST(VectorReaderErrors, CorruptAndTruncatedXz) {
  const std::string packed = xz(f64_line() + f64_line());
  std::string corrupt = packed;
  corrupt[corrupt.size() / 2] ^= 0x55;
  EXPECT_NE(read_error(corrupt).find("t.txt:1: xz: "), std::string::npos) << read_error(corrupt);
  // Both lines decode; the missing stream end is found while reading line 3.
  EXPECT_EQ(read_error(packed.substr(0, packed.size() - 20)), "t.txt:3: xz: truncated stream");
}

TEST(VectorReaderErrors, MissingFile) {
  try {
    VectorReader::open("/nonexistent/v.txt.xz");
    FAIL() << "no error";
  } catch (const VectorFileError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/v.txt.xz: cannot open: No such file or directory");
  }
}

TEST(VectorWriter, RoundTripsEveryElementWidthThroughXz) {
  std::string why;
  const VectorVariant v = *parse_variant("mma_m16n8k32_f16_e4m3", why);
  const auto path = (std::filesystem::temp_directory_path() / "gpuconform_vector_writer_test.txt.xz").string();
  std::vector<std::uint64_t> a(v.a_count()), b(v.b_count()), c(v.c_count()), d(v.c_count());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = i & 0xFF;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = 0xFF - (i & 0xFF);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = 0xFFFF - i, d[i] = i * 257;
  {
    VectorWriter w(path, v);
    w.comment("arch", "sm_90");
    w.write("normal", a, b, c, d);
    w.write("probe:k", a, b, c, d);
    w.finish();
  }
  VectorReader r = VectorReader::open(path);
  VectorRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.a, a);
  EXPECT_EQ(rec.b, b);
  EXPECT_EQ(rec.c, c);
  EXPECT_EQ(rec.d, d);
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(rec.klass, "probe:k");
  EXPECT_FALSE(r.next(rec));
  EXPECT_EQ(r.header_value("arch"), "sm_90");
  std::filesystem::remove(path);
}

TEST(VectorWriter, RoundTripsSubByteElements) {
  std::string why;
  for (const char* name : {"mma_m16n8k64_s32_s4", "mma_m16n8k32_s32_u4", "mma_m16n8k256_s32_b1_and"}) {
    const VectorVariant v = *parse_variant(name, why);
    const auto path = (std::filesystem::temp_directory_path() / "gpuconform_vector_subbyte.txt").string();
    const std::uint64_t top = (std::uint64_t{1} << element_bits(v.ab_type)) - 1;
    std::vector<std::uint64_t> a(v.a_count()), b(v.b_count()), c(v.c_count()), d(v.c_count());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = (i * 7) & top;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = (i * 5 + 1) & top;
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = 0xFFFFFFF0u + i % 16, d[i] = i;
    {
      VectorWriter w(path, v);
      w.write("normal", a, b, c, d);
      w.finish();
    }
    VectorReader r = VectorReader::open(path);
    VectorRecord rec;
    ASSERT_TRUE(r.next(rec)) << name;
    EXPECT_EQ(rec.a, a) << name;
    EXPECT_EQ(rec.b, b) << name;
    EXPECT_EQ(rec.c, c) << name;
    EXPECT_EQ(rec.d, d) << name;
    std::filesystem::remove(path);
  }
}

TEST(VectorWriter, RejectsWrongCountsWideValuesAndBadClasses) {
  std::string why;
  const VectorVariant v = *parse_variant("mma_m8n8k4_f64_f64", why);
  const auto path = (std::filesystem::temp_directory_path() / "gpuconform_vector_writer_reject.txt").string();
  VectorWriter w(path, v);
  const std::vector<std::uint64_t> ok32(32), ok64(64), short32(31);
  EXPECT_THROW(w.write("normal", short32, ok32, ok64, ok64), std::invalid_argument);
  EXPECT_THROW(w.write("two words", ok32, ok32, ok64, ok64), std::invalid_argument);
  const VectorVariant h = *parse_variant("mma_m16n8k16_f16_f16", why);
  VectorWriter w16(path + "16", h);
  std::vector<std::uint64_t> a(h.a_count()), b(h.b_count()), c(h.c_count());
  a[3] = 0x10000;  // 17 bits in an f16 element
  EXPECT_THROW(w16.write("normal", a, b, c, c), std::invalid_argument);
  const VectorVariant b1 = *parse_variant("mma_m8n8k128_s32_b1_xor", why);
  VectorWriter w1(path + "1", b1);
  std::vector<std::uint64_t> a1(b1.a_count(), 1), b1s(b1.b_count(), 0), c1(b1.c_count());
  w1.write("normal", a1, b1s, c1, c1);  // 0 and 1 fit
  a1[5] = 2;                            // a second bit does not fit b1, though it fits its digit
  EXPECT_THROW(w1.write("normal", a1, b1s, c1, c1), std::invalid_argument);
  w.finish();
  w16.finish();
  w1.finish();
  std::filesystem::remove(path);
  std::filesystem::remove(path + "16");
  std::filesystem::remove(path + "1");
}

}  // namespace
}  // namespace gpuconform
