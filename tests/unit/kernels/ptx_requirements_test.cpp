// SPDX-License-Identifier: Apache-2.0
// The PTX ISA guards of the toolkit comparison (kernels/common/ptx_requirements.hpp): which
// instruction strings a CUDA 12.4 build (PTX ISA 8.4) cannot assemble, read from the string
// itself; every registered MMA variant's PTX is one the guard classifies as expected, and this
// build (the project's toolkit, newer than 12.8) has no probe with a build gap.
#include "common/ptx_requirements.hpp"

#include <gtest/gtest.h>

#include <string>

#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {
namespace {

TEST(PtxRequirements, InstructionsNewerThanPtxIsa84) {
  static_assert(ptx_isa_needed("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32") == 85);
  EXPECT_EQ(ptx_isa_needed("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32"), 85);
  EXPECT_EQ(ptx_isa_needed("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16"), 87);
  EXPECT_EQ(ptx_isa_needed("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16"), 87);
  // Older than 8.4 or 8.4 itself: CUDA 12.4 assembles them.
  EXPECT_EQ(ptx_isa_needed("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"), 0);
  EXPECT_EQ(ptx_isa_needed("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"), 0);
  EXPECT_EQ(ptx_isa_needed("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"), 0);  // the older sparse form
  EXPECT_EQ(ptx_isa_needed("wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3"), 0);   // sm_90a, PTX ISA 8.0
  EXPECT_EQ(ptx_isa_needed(""), 0);
}

TEST(PtxRequirements, EveryMmaVariantIsClassified) {
  int sparse = 0, fp8_f16 = 0;
  for (const numerics::MmaVariant& v : numerics::mma_variants()) {
    const int needed = ptx_isa_needed(v.ptx.c_str());
    SCOPED_TRACE(v.ptx);
    if (v.ptx.rfind("mma.sp", 0) == 0) {
      EXPECT_EQ(needed, 85);
      ++sparse;
    } else if (needed != 0) {
      EXPECT_EQ(needed, 87);
      ++fp8_f16;
    }
  }
  EXPECT_EQ(sparse, 12);  // kernels/numeric/mma_sp.cu
  EXPECT_EQ(fp8_f16, 2);  // mma_m16n8k32_f16_e4m3 and _e5m2 (mma_sync.cu)
}

TEST(PtxRequirements, ThisBuildHasNoBuildGap) {
  for (const Probe& p : Registry::instance().all()) EXPECT_EQ(p.needs.build_gap, "") << p.id;
}

}  // namespace
}  // namespace gpuconform::kernels
