// SPDX-License-Identifier: Apache-2.0
// The SASS helper: parsing cuobjdump listings, the timed region between two
// clock reads, opcode histograms and the expectation check. The listing below
// follows cuobjdump --dump-sass's format (two architecture sections, a
// predicate guard, the encoding comments on separate lines).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "gpuconform/sass.hpp"

namespace gpuconform::sass {
namespace {

constexpr const char* kListing = R"LISTING(
Fatbin elf code:
================
arch = sm_80
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_80
		Function : _Z5chainPfS_
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;   /* 0x00000a00ff017624 */
                                                                               /* 0x000fe400078e00ff */
        /*0010*/                   CS2R R2, SR_CLOCKLO ;                     /* 0x0000000000027805 */
        /*0020*/                   DFMA R4, R4, R6, R8 ;                     /* 0x0000000604047228 */
        /*0030*/                   CS2R R10, SR_CLOCKLO ;                    /* 0x00000000000a7805 */
        /*0040*/                   EXIT ;                                    /* 0x000000000000794d */

Fatbin elf code:
================
arch = sm_90a
code version = [1,8]

	code for sm_90a
		Function : _Z5chainPfS_
	.headerflags	@"EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                    /* 0x00000a00ff017b82 */
                                                                               /* 0x000fe20000000800 */
        /*0010*/                   ISETP.NE.U32.AND P0, PT, RZ, UR6, PT ;    /* 0x00000006ff007c0c */
        /*0020*/                   CS2R R2, SR_CLOCKLO ;                     /* 0x0000000000027805 */
        /*0030*/                   FFMA R5, R5, R2, R3 ;                     /* 0x0000000205057223 */
        /*0040*/               @P0 FFMA R5, R5, R2, R3 ;                     /* 0x0000000205050223 */
        /*0050*/              @!P1 HMMA.16816.F32.BF16 R4, R8, R12, R4 ;     /* 0x0000000c0804923c */
        /*0060*/                   CS2R R6, SR_CLOCKLO ;                     /* 0x0000000000067805 */
        /*0070*/                   FFMA R5, R5, R2, R3 ;                     /* 0x0000000205057223 */
        /*0080*/                   CS2R R8, SR_CLOCKLO ;                     /* 0x0000000000087805 */
        /*0090*/                   STG.E desc[UR4][R2.64], R5 ;              /* 0x0000000502007986 */
        /*00a0*/                   EXIT ;                                    /* 0x000000000000794d */
		Function : _Z4copyPf
        /*0000*/                   MOV R1, c[0x0][0x28] ;                    /* 0x00000a0000017a02 */
        /*0010*/                   EXIT ;                                    /* 0x000000000000794d */
)LISTING";

TEST(Sass, ParsesOnlyTheRequestedArchitecture) {
  const auto sm80 = parse_dump(kListing, "sm_80");
  ASSERT_EQ(sm80.size(), 1u);
  ASSERT_EQ(sm80.at("_Z5chainPfS_").size(), 5u);
  EXPECT_EQ(sm80.at("_Z5chainPfS_")[2].opcode, "DFMA");

  // sm_90 accepts the arch-specific sm_90a section.
  const auto sm90 = parse_dump(kListing, "sm_90");
  ASSERT_EQ(sm90.size(), 2u);
  EXPECT_EQ(sm90.at("_Z5chainPfS_").size(), 11u);
  EXPECT_EQ(sm90.at("_Z4copyPf").size(), 2u);
  EXPECT_TRUE(parse_dump(kListing, "sm_86").empty());
}

TEST(Sass, StripsPredicateGuardsAndKeepsOperands) {
  const auto f = parse_dump(kListing, "sm_90").at("_Z5chainPfS_");
  EXPECT_EQ(f[4].opcode, "FFMA");
  EXPECT_EQ(f[4].operands, "R5, R5, R2, R3");
  EXPECT_EQ(f[5].opcode, "HMMA.16816.F32.BF16");
}

TEST(Sass, TimedRegionLiesBetweenFirstAndLastClockRead) {
  const auto region = timed_region(parse_dump(kListing, "sm_90").at("_Z5chainPfS_"));
  EXPECT_EQ(format_histogram(histogram(region)), "FFMA:3 CS2R:1 HMMA.16816.F32.BF16:1");
  // Fewer than two clock reads: the whole function.
  EXPECT_EQ(timed_region(parse_dump(kListing, "sm_90").at("_Z4copyPf")).size(), 2u);
}

TEST(Sass, HistogramTextRoundTrips) {
  const Histogram h{{"FFMA", 768}, {"ISETP.NE.U32.AND", 1}, {"CS2R", 1}};
  const std::string text = format_histogram(h);
  EXPECT_EQ(text, "FFMA:768 CS2R:1 ISETP.NE.U32.AND:1");
  EXPECT_EQ(parse_histogram(text), h);
  EXPECT_TRUE(parse_histogram("cuobjdump not found").empty());
  EXPECT_EQ(parse_histogram("FFMA:2 junk :3 X:y IADD3:1").size(), 2u);
}

TEST(Sass, ExpectedOpcodeMatchesWholeModifierGroups) {
  const Histogram h{{"HMMA.16816.F32.BF16", 192}, {"NOP", 191}};
  EXPECT_TRUE(missing_opcodes({"HMMA"}, h).empty());
  EXPECT_TRUE(missing_opcodes({"HMMA.16816"}, h).empty());
  EXPECT_TRUE(missing_opcodes({"HMMA.16816.F32.BF16"}, h).empty());
  EXPECT_EQ(missing_opcodes({"HMMA.1688", "HMM", "NOP"}, h), (std::vector<std::string>{"HMMA.1688", "HMM"}));
}

TEST(Sass, CheckFailsOnlyWithEvidence) {
  Expectation e;
  e.sass = {"FFMA"};
  Measurement m;
  EXPECT_EQ(check_expected_opcodes(e, m), "") << "no note: nothing to check";
  m.note("sass", std::string(kNoCuobjdump) + " (install ...)");
  EXPECT_EQ(check_expected_opcodes(e, m), "") << "no disassembler: never fails";
  Measurement ran;
  ran.note("sass", "FFMA:768 CS2R:1");
  EXPECT_EQ(check_expected_opcodes(e, ran), "");
  Measurement other;
  other.note("sass", "FMUL:768 CS2R:1");
  const std::string why = check_expected_opcodes(e, other);
  EXPECT_NE(why.find("FFMA"), std::string::npos) << why;
  EXPECT_NE(why.find("FMUL:768"), std::string::npos) << why;
  Expectation none;
  EXPECT_EQ(check_expected_opcodes(none, other), "") << "no sass list: nothing asserted";
}

// --level quick: no disassembly on a cold cache (tens of seconds), a note that says so.
// "cuobjdump" here is /bin/true, which lists no ELF: a disassembly that ran says "holds no".
TEST(Sass, AQuickRunReadsNoColdDisassembly) {
  const auto cache = std::filesystem::temp_directory_path() / ("gpuconform_sass_" + std::to_string(::getpid()));
  ::setenv("GPUCONFORM_CUOBJDUMP", "/bin/true", 1);
  ::setenv("GPUCONFORM_SASS_CACHE", cache.c_str(), 1);
  allow_cold_disassembly(false);
  const std::string quick = timed_region_note(std::string("_Z5chainPfS_"), "sm_77");
  allow_cold_disassembly(true);
  const std::string standard = timed_region_note(std::string("_Z5chainPfS_"), "sm_78");
  ::unsetenv("GPUCONFORM_CUOBJDUMP");
  ::unsetenv("GPUCONFORM_SASS_CACHE");
  std::filesystem::remove_all(cache);
  EXPECT_EQ(quick.rfind("unavailable: not disassembled", 0), 0u) << quick;
  EXPECT_NE(standard.find("holds no sm_78 code"), std::string::npos) << standard;
}

}  // namespace
}  // namespace gpuconform::sass
