// SPDX-License-Identifier: Apache-2.0
// The named tensor-core models: one row per architecture x instruction x D type x A/B
// type, each with its source in docs/numerics.md §1. The arithmetic is block_fma.cpp;
// this file is only data. To add a row, append one line to kRows; e_zero comes from
// kArchZeros. The sm_90 rows are also recovered from the H100 golden vectors alone by
// `gpuconform vectors infer` (tests/unit/golden_infer_test.cpp); the other architectures'
// rows are cited, not measured, and expectations/sm_80|86|89|100.toml cite them.
//
// Source keys (numerics.md "Sources"): [F] Fasi, Higham, Mikaitis, Pranesh, PeerJ CS 7:e330
// (2021); [K] Khattak & Mikaitis, "Accurate Models of NVIDIA Tensor Cores", arXiv:2512.07004;
// [H] Khattak & Mikaitis, IEEE HPEC 2025; [M] Xie et al., MMA-Sim, arXiv:2511.10909;
// [S] Valpey et al., arXiv:2502.15999; [D] DeepSeek-V3, arXiv:2412.19437; [SA] SageAttention2,
// arXiv:2411.10958.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {
namespace {

// What D is and how each block's result is rounded (numerics.md §1 "output rounding").
enum class Out {
  kF32,       // fp32 D, RZ to 23 fraction bits, subnormal grid 2^-149
  kF16,       // fp16 D, RNE, subnormal grid 2^-24
  kF32E8M13,  // fp32 D, RZ to 13 fraction bits (FP8 on Ada mma and Hopper wgmma)
};

// Zero-term exponent per architecture: numerics.md §1 "Zero-term exponent e_zero"
// ([K] min_exp_limit; [M] v2 port). sm_75 f16: [K] has no Turing data; taken as Ampere.
// sm_120: [K] finds RTX PRO 6000 = B200.
struct ArchZero {
  std::string_view arch;
  int f32;
  int f16;
};
constexpr ArchZero kArchZeros[] = {
    {"sm_70", -131, -19}, {"sm_75", -132, -20}, {"sm_80", -132, -20}, {"sm_86", -132, -20},
    {"sm_89", -132, -20}, {"sm_90", -133, -21}, {"sm_100", -133, -21}, {"sm_120", -133, -21},
};

struct Row {
  std::string_view arch;
  std::string_view instruction;
  Out out;
  const FloatFormat* in;
  int L;
  int F;
  std::vector<int> k_shapes;
  std::string_view citation;
};

// Citations name the numerics.md §1 table row and its sources/confidence.
constexpr std::string_view kVolta = "§1 Volta sm_70 mma m8n8k4/wmma: [F][K][M] high";
constexpr std::string_view kTuring = "§1 Turing sm_75 m16n8k8: [M]; [F] T4 suite: 1 extra bit";
constexpr std::string_view kAmpere =
    "§1 Ampere sm_80 m16n8k16 f16/bf16 (2 chained blocks): [F][K][M] high; "
    "[H] A30: FMA size 8, 1 extra bit";
constexpr std::string_view kAmpereTf32 = "§1 Ampere m16n8k8/k4 tf32: [K][M] high";
constexpr std::string_view kGa10x =
    "§1 sm_86 GA10x 'as sm_80': medium ([K] runs A2, A40 on the A100 model); "
    "measure";
constexpr std::string_view kAda = "§1 Ada sm_89 f16/bf16/tf32 'as Ampere': [M][K] (L40S) high";
constexpr std::string_view kAdaFp8 =
    "§1 Ada m16n8k32 e4m3/e5m2: "
    "L=16, F=13, RZ-e8m13 / RNE f16: [M][K][SA] high";
constexpr std::string_view kHopperMma =
    "§1 Hopper sm_90 mma.sync m16n8k16 f16/bf16 (16, not split): "
    "[M][K] high";
constexpr std::string_view kHopperMmaTf32 = "§1 Hopper mma.sync m16n8k8 tf32: [M] high";
constexpr std::string_view kHopperWmmaTf32 =
    "§1 Hopper: wmma tf32 on H100 L=4 ([K] v4 as summarized by pauljiang03/TC-EFT; "
    "not read first-hand): low";
constexpr std::string_view kHopperWgmma =
    "§1 Hopper wgmma k16 f16/bf16, k8 tf32: [M] high; "
    "[K] via wmma";
constexpr std::string_view kHopperWgmmaFp8 =
    "§1 Hopper wgmma k32 e4m3/e5m2: "
    "L=32, F=13, RZ-e8m13 / RNE f16: [M][K][D][SA] high";
constexpr std::string_view kHopperMmaFp8 =
    "§1 Hopper mma.sync m16n8k32 FP8 ('unknown': measure): measured on H100 SXM5, nvcc 13.0 "
    "lowers it to f16 HMMA pairs plus an add of C in the D format (expectations/golden/sm_90)";
constexpr std::string_view kBlackwell =
    "§1 Blackwell sm_100 tcgen05 f16/bf16; tf32; f8f6f4: L=16; 8; 32, F=25 (FP8 too): "
    "[M]; [K] B200 = H100 but FP8 F=25";
constexpr std::string_view kBlackwellMma =
    "not a §1 row: [M] simulator/nv.py runs Blackwell mma.sync unsplit with F=25; "
    "[K] B200 = H100: medium, measure";
constexpr std::string_view kRtxBlackwell =
    "§1 RTX Blackwell sm_120 mma.sync: L = 32 bytes of A, F=25: [M]; "
    "[K] RTX PRO 6000 = B200";

const std::vector<Row>& rows() {
  static const std::vector<Row> kRows = {
      {"sm_70", "mma_sync", Out::kF32, &kFp16, 4, 23, {4}, kVolta},
      {"sm_70", "mma_sync", Out::kF16, &kFp16, 4, 23, {4}, kVolta},
      {"sm_75", "mma_sync", Out::kF32, &kFp16, 8, 24, {8}, kTuring},
      {"sm_75", "mma_sync", Out::kF16, &kFp16, 8, 24, {8}, kTuring},
      {"sm_80", "mma_sync", Out::kF32, &kFp16, 8, 24, {8, 16}, kAmpere},
      {"sm_80", "mma_sync", Out::kF32, &kBf16, 8, 24, {8, 16}, kAmpere},
      {"sm_80", "mma_sync", Out::kF16, &kFp16, 8, 24, {8, 16}, kAmpere},
      {"sm_80", "mma_sync", Out::kF32, &kTf32, 4, 24, {4, 8}, kAmpereTf32},
      {"sm_86", "mma_sync", Out::kF32, &kFp16, 8, 24, {8, 16}, kGa10x},
      {"sm_86", "mma_sync", Out::kF32, &kBf16, 8, 24, {8, 16}, kGa10x},
      {"sm_86", "mma_sync", Out::kF16, &kFp16, 8, 24, {8, 16}, kGa10x},
      {"sm_86", "mma_sync", Out::kF32, &kTf32, 4, 24, {4, 8}, kGa10x},
      {"sm_89", "mma_sync", Out::kF32, &kFp16, 8, 24, {8, 16}, kAda},
      {"sm_89", "mma_sync", Out::kF32, &kBf16, 8, 24, {8, 16}, kAda},
      {"sm_89", "mma_sync", Out::kF16, &kFp16, 8, 24, {8, 16}, kAda},
      {"sm_89", "mma_sync", Out::kF32, &kTf32, 4, 24, {4, 8}, kAda},
      {"sm_89", "mma_sync", Out::kF32E8M13, &kE4M3, 16, 13, {32}, kAdaFp8},
      {"sm_89", "mma_sync", Out::kF32E8M13, &kE5M2, 16, 13, {32}, kAdaFp8},
      {"sm_89", "mma_sync", Out::kF16, &kE4M3, 16, 13, {32}, kAdaFp8},
      {"sm_89", "mma_sync", Out::kF16, &kE5M2, 16, 13, {32}, kAdaFp8},
      {"sm_90", "mma_sync", Out::kF32, &kFp16, 16, 25, {8, 16}, kHopperMma},
      {"sm_90", "mma_sync", Out::kF32, &kBf16, 16, 25, {8, 16}, kHopperMma},
      {"sm_90", "mma_sync", Out::kF16, &kFp16, 16, 25, {8, 16}, kHopperMma},
      {"sm_90", "mma_sync", Out::kF32, &kTf32, 8, 25, {4, 8}, kHopperMmaTf32},
      // sm_90 mma.sync FP8 (m16n8k32): a compiler lowering, appended in models() below.
      {"sm_90", "wmma", Out::kF32, &kTf32, 4, 25, {8}, kHopperWmmaTf32},
      {"sm_90", "wgmma", Out::kF32, &kFp16, 16, 25, {16}, kHopperWgmma},
      {"sm_90", "wgmma", Out::kF32, &kBf16, 16, 25, {16}, kHopperWgmma},
      {"sm_90", "wgmma", Out::kF16, &kFp16, 16, 25, {16}, kHopperWgmma},
      {"sm_90", "wgmma", Out::kF32, &kTf32, 8, 25, {8}, kHopperWgmma},
      {"sm_90", "wgmma", Out::kF32E8M13, &kE4M3, 32, 13, {32}, kHopperWgmmaFp8},
      {"sm_90", "wgmma", Out::kF32E8M13, &kE5M2, 32, 13, {32}, kHopperWgmmaFp8},
      {"sm_90", "wgmma", Out::kF16, &kE4M3, 32, 13, {32}, kHopperWgmmaFp8},
      {"sm_90", "wgmma", Out::kF16, &kE5M2, 32, 13, {32}, kHopperWgmmaFp8},
      {"sm_100", "tcgen05", Out::kF32, &kFp16, 16, 25, {16}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kBf16, 16, 25, {16}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kFp16, 16, 25, {16}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kTf32, 8, 25, {8}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kE4M3, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kE5M2, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kE3M2, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kE2M3, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF32, &kE2M1, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kE4M3, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kE5M2, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kE3M2, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kE2M3, 32, 25, {32}, kBlackwell},
      {"sm_100", "tcgen05", Out::kF16, &kE2M1, 32, 25, {32}, kBlackwell},
      {"sm_100", "mma_sync", Out::kF32, &kFp16, 16, 25, {8, 16}, kBlackwellMma},
      {"sm_100", "mma_sync", Out::kF32, &kBf16, 16, 25, {8, 16}, kBlackwellMma},
      {"sm_100", "mma_sync", Out::kF16, &kFp16, 16, 25, {8, 16}, kBlackwellMma},
      {"sm_100", "mma_sync", Out::kF32, &kTf32, 8, 25, {4, 8}, kBlackwellMma},
      {"sm_120", "mma_sync", Out::kF32, &kFp16, 16, 25, {8, 16}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF32, &kBf16, 16, 25, {8, 16}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF16, &kFp16, 16, 25, {8, 16}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF32, &kTf32, 8, 25, {4, 8}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF32, &kE4M3, 32, 25, {32}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF32, &kE5M2, 32, 25, {32}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF16, &kE4M3, 32, 25, {32}, kRtxBlackwell},
      {"sm_120", "mma_sync", Out::kF16, &kE5M2, 32, 25, {32}, kRtxBlackwell},
  };
  return kRows;
}

const ArchZero& arch_zero(std::string_view arch) {
  for (const ArchZero& z : kArchZeros)
    if (z.arch == arch) return z;
  throw std::logic_error("models.cpp: no e_zero for " + std::string(arch));
}

TensorCoreModel make_model(const Row& r) {
  const bool f16_out = r.out == Out::kF16;
  const ArchZero& zero = arch_zero(r.arch);
  TensorCoreModel m{
      std::string(r.arch) + "." + std::string(r.instruction) + (f16_out ? ".f16." : ".f32.") +
          std::string(r.in->name),
      std::string(r.arch),
      std::string(r.instruction),
      std::string(r.citation) + "; e_zero: §1 ([K] min_exp_limit)",
      *r.in,
      *r.in,
      f16_out ? kFp16 : kFp32,
      r.out == Out::kF16 ? kFp16 : r.out == Out::kF32E8M13 ? kE8M13 : kFp32,
      f16_out ? Rounding::kRNE : Rounding::kRZ,
      r.L,
      r.F,
      f16_out ? zero.f16 : zero.f32,
      true,  // tf32 truncation: §2 and §3 "TF32 truncation" ([F], [M])
      f16_out ? std::uint64_t{0x7FFF} : std::uint64_t{0x7FFFFFFF},  // §2 canonical NaN
      r.k_shapes,
  };
  // The integer model's sum is exact in int64 only for these bounds (block_fma.cpp).
  if (m.block_size < 1 || m.block_size > 64 || m.fraction_bits > 40)
    throw std::logic_error("models.cpp: " + m.id + ": L must be 1..64 and F <= 40");
  return m;
}

}  // namespace

const std::vector<TensorCoreModel>& models() {
  static const std::vector<TensorCoreModel> kModels = [] {
    std::vector<TensorCoreModel> out;
    for (const Row& r : rows()) out.push_back(make_model(r));
    // sm_90 mma.sync FP8: no native FP8 mma.sync; the lowering measured on an H100
    // (expectations/golden/sm_90/mma_m16n8k32_f32|f16_e4m3|e5m2, all outputs reproduced):
    // the f32 and the f16 Hopper mma.sync rows on f16-widened inputs, k reordered.
    for (const FloatFormat* in : {&kE4M3, &kE5M2}) {
      for (const Out d : {Out::kF32, Out::kF16}) {
        TensorCoreModel m = make_model({"sm_90", "mma_sync", d, in, 16, 25, {32}, kHopperMmaFp8});
        m.fp8_via_hmma_pair = true;
        out.push_back(std::move(m));
      }
    }
    return out;
  }();
  return kModels;
}

}  // namespace gpuconform::ref
