// SPDX-License-Identifier: Apache-2.0
// Sparse vector files record their metadata (format version 2, vector_file.hpp): why (a kept
// zero meets B: 0 x inf = NaN, so A alone does not decide D), the E field read and written
// back, every malformed E a "file:line: reason", version-1 files accepted only where A
// decides the kept positions, and `vectors upgrade` (vector_upgrade.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/vector_upgrade.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

constexpr const char* kName = "mmasp_m16n8k32_f32_f16_sel0";  // A 16 x 32 f16: 8 chunks of 4 a row
constexpr std::uint64_t kOne = 0x3c00, kTwo = 0x4000, kInf = 0x7c00;

VectorVariant variant() {
  std::string why;
  return *parse_variant(kName, why);
}

// Every chunk of every row keeps positions 0 and 2 with non-zero values: A decides the
// metadata (nibble 0x8). Row 0 chunk 0 is then made to hold only one non-zero, at k = 2.
struct Instance {
  std::vector<std::uint64_t> a, b, c, d;
};
Instance instance(bool one_nonzero_chunk) {
  const VectorVariant v = variant();
  Instance in{std::vector<std::uint64_t>(v.a_count(), 0), std::vector<std::uint64_t>(v.b_count(), kOne),
              std::vector<std::uint64_t>(v.c_count(), 0), std::vector<std::uint64_t>(v.c_count(), 0)};
  for (int i = 0; i < v.m; ++i)
    for (int c = 0; c < v.k / 4; ++c) in.a[i * v.k + 4 * c] = in.a[i * v.k + 4 * c + 2] = kOne;
  if (one_nonzero_chunk) in.a[0] = 0;  // row 0, chunk 0: only k = 2 is non-zero
  return in;
}

std::string hex(const std::vector<std::uint64_t>& values, int digits) {
  std::string out;
  char buf[20];
  for (std::uint64_t x : values) {
    std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(x));
    out += buf;
  }
  return out;
}

// One instance line; `e` empty: the six fields of version 1.
std::string line(const Instance& in, const std::string& e = "") {
  return std::string(kName) + " normal " + hex(in.a, 4) + " " + hex(in.b, 4) + " " + hex(in.c, 8) + " " + hex(in.d, 8) +
         (e.empty() ? "" : " " + e) + "\n";
}
// Metadata text: every chunk 0x8 (positions 0 and 2) but the first, given.
std::string meta(char first) { return std::string(1, first) + std::string(16 * 8 - 1, '8'); }

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

// The reason the format records E: which zero of a one-non-zero chunk is kept changes D.
TEST(SparseMetadata, AKeptZeroMeetsBAndTheFileMustSayWhichZero) {
  const VectorVariant v = variant();
  Instance in = instance(true);
  in.b[0 * v.k + 3] = kInf;  // column 0, k = 3
  const ref::TensorCoreModel* model = sparse_default_model("sm_90", v);
  ASSERT_NE(model, nullptr);
  std::vector<std::uint8_t> keep_23(v.metadata_count(), 0x8), keep_02(v.metadata_count(), 0x8);
  keep_23[0] = 0xE;  // positions 2 and 3: the zero at k = 3 is kept and multiplied by inf
  std::vector<std::uint64_t> d23(v.c_count()), d02(v.c_count());
  compressed_mma(*model, v, in.a.data(), in.b.data(), in.c.data(), d23.data(), keep_23.data());
  compressed_mma(*model, v, in.a.data(), in.b.data(), in.c.data(), d02.data(), keep_02.data());
  EXPECT_TRUE(std::isnan(ref::to_double(ref::kFp32, d23[0])));
  EXPECT_EQ(d02[0], 0x41700000u);  // 15: the row's 15 non-zero 1 x 1 products and the kept zero x 1
  EXPECT_EQ(d23[1], d02[1]);       // other columns: B finite, the zero's place changes nothing
  // The launcher's rule (no metadata): the non-zero, then the lowest-index zero (k = 0).
  EXPECT_EQ(sparse_metadata(v, in.a.data())[0], 0x8u);
  EXPECT_NE(metadata_ambiguity(v, in.a.data()), "");
  EXPECT_EQ(metadata_ambiguity(v, instance(false).a.data()), "");
}

TEST(SparseVectorFile, WriterRecordsMetadataAndTheReaderReadsItBack) {
  const VectorVariant v = variant();
  const fs::path path = fs::temp_directory_path() / ("gpuconform_sparse_e_" + std::to_string(::getpid()) + ".txt");
  const Instance in = instance(true);
  std::vector<std::uint8_t> e(v.metadata_count(), 0x8);
  e[0] = 0xE;
  {
    VectorWriter w(path.string(), v);
    w.comment("variant", kName);
    w.write("normal", in.a, in.b, in.c, in.d, e);
    EXPECT_THROW(w.write("normal", in.a, in.b, in.c, in.d), std::invalid_argument);  // sparse needs E
    std::vector<std::uint8_t> drops = e;
    drops[1] = 0x4;  // positions 0, 1 of chunk 1: drops the non-zero at k = 6
    EXPECT_THROW(w.write("normal", in.a, in.b, in.c, in.d, drops), std::invalid_argument);
    w.finish();
  }
  VectorReader r = VectorReader::open(path.string());
  VectorRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(r.version(), 2);
  EXPECT_EQ(rec.e, e);
  EXPECT_EQ(rec.a, in.a);
  EXPECT_FALSE(r.next(rec));
  fs::remove(path);

  std::string why;
  VectorWriter dense((path.string() + ".dense"), *parse_variant("mma_m16n8k16_f32_f16", why));
  const std::vector<std::uint64_t> a16(256, 0), b16(128, 0), c16(128, 0);
  EXPECT_THROW(dense.write("normal", a16, b16, c16, c16, {0x8}), std::invalid_argument);  // metadata on a dense variant
  dense.finish();
  fs::remove(path.string() + ".dense");
}

TEST(SparseVectorFile, Version2LinesWithABadEAreErrorsNamingTheLine) {
  const Instance in = instance(true);
  const std::string head = "# version: 2\n";
  EXPECT_EQ(read_error(head + line(in, meta('e'))), "no error");
  EXPECT_NE(read_error(head + line(in)).find("t.txt:2: expected 7 fields (variant class A B C D E"), std::string::npos);
  EXPECT_NE(read_error(head + line(in, meta('e') + "8")).find("t.txt:2: E has 129 hex digits, expected 128"),
            std::string::npos);
  EXPECT_NE(read_error(head + line(in, meta('E'))).find("t.txt:2: E: 'E' at digit 1 is not a lowercase hex digit"),
            std::string::npos);
  EXPECT_NE(read_error(head + line(in, meta('5'))).find("row 0 chunk 0 (k 0..3): metadata 5 is not a kept set"),
            std::string::npos);
  EXPECT_NE(read_error(head + line(in, meta('4'))).find("metadata 4 drops k = 2, where A holds a non-zero"),
            std::string::npos);
  EXPECT_NE(read_error("# version: 3\n" + line(in, meta('e'))).find("t.txt:1: format version '3' is not one"),
            std::string::npos);
  EXPECT_NE(read_error(head + line(in, meta('e')) + "# version: 2\n").find("t.txt:3: '# version:' after the first"),
            std::string::npos);
}

TEST(SparseVectorFile, Version1IsReadOnlyWhereADecidesTheKeptPositions) {
  {
    VectorReader r = VectorReader::from_memory("old.txt", line(instance(false)));
    VectorRecord rec;
    ASSERT_TRUE(r.next(rec));
    EXPECT_EQ(r.version(), 1);
    EXPECT_EQ(rec.e, std::vector<std::uint8_t>(16 * 8, 0x8));  // derived: no kept zero anywhere
  }
  const std::string err = read_error(line(instance(false)) + line(instance(true)));
  EXPECT_NE(err.find("t.txt:2: row 0 chunk 0 (k 0..3) of A has 1 non-zero element where 2 are kept"), std::string::npos)
      << err;
  EXPECT_NE(err.find("0 x inf = NaN"), std::string::npos) << err;
  EXPECT_NE(err.find("gpuconform vectors upgrade FILE"), std::string::npos) << err;
  // A seventh field needs the version that defines it.
  EXPECT_NE(read_error(line(instance(true), meta('e'))).find("expected 6 fields"), std::string::npos);
}

class SparseUpgrade : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuconform_upgrade_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }
  fs::path dir_;
};

TEST_F(SparseUpgrade, AGpuconformFileGainsTheLaunchersMetadata) {
  const std::string v1 =
      "# format: gpuconform vector file (docs/vector-files.md): variant class A B C D\n"
      "# variant: " +
      std::string(kName) + "\n# suite: gpuconform 0.1.0 (db916e18647b)\n" + line(instance(true)) +
      "# note: after the first instance\n" + line(instance(false));
  const std::string path = write("old.txt", v1);
  const UpgradeResult r = upgrade_vector_file(path, path);
  EXPECT_EQ(r.instances, 2u);
  EXPECT_TRUE(r.sparse);
  VectorReader reader = VectorReader::open(path);
  VectorRecord rec;
  ASSERT_TRUE(reader.next(rec));
  EXPECT_EQ(reader.version(), 2);
  EXPECT_EQ(rec.e, sparse_metadata(variant(), instance(true).a.data()));
  EXPECT_EQ(rec.e[0], 0x8u);  // the lowest-index zero (k = 0) beside the non-zero at k = 2
  ASSERT_TRUE(reader.next(rec));
  EXPECT_EQ(reader.header_value("suite"), "gpuconform 0.1.0 (db916e18647b)");
  EXPECT_EQ(reader.header_value("note"), "after the first instance");
  EXPECT_NE(reader.header_value("metadata").find("vectors upgrade"), std::string::npos);
  EXPECT_NE(reader.header_value("format").find("A B C D E"), std::string::npos);
  EXPECT_FALSE(reader.next(rec));
  EXPECT_TRUE(upgrade_vector_file(path, path).already);  // a second run changes nothing
}

TEST_F(SparseUpgrade, AFileNotWrittenByGpuconformIsRefused) {
  const std::string path = write("foreign.txt", "# suite: some other tool\n" + line(instance(true)));
  try {
    upgrade_vector_file(path, path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not written by gpuconform"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_error(line(instance(true))).find("no error"), std::string::npos);  // and unreadable as it is
  EXPECT_FALSE(fs::exists(path + ".upgrade.partial"));
}

}  // namespace
}  // namespace gpuconform::numerics
