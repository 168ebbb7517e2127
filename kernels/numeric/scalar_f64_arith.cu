// SPDX-License-Identifier: Apache-2.0
// numeric.scalar.<op>.<rn|rz|rm|rp>.f64: the binary64 arithmetic instructions (inline PTX) on
// f64_arith_tuple_count() operand tuples each, every result compared in the same GPU thread
// with the exact reference of numerics/scalar_f64_arith.hpp. Mismatches are counted per
// operand class, the NaNs that come back are classified (PTX states no canonical binary64
// NaN), and the first few mismatches are kept with their operands. Value: mismatches (an
// invariant, max 0).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_f64_arith.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"
#include "scalar_scan.cuh"

namespace gpuconform::kernels {
namespace {

using numerics::F64ArithSpec;

constexpr int kKept = 8;

struct F64Out {
  unsigned long long mismatches[numerics::kArithClasses];
  unsigned long long nan_results, nan_quieted, nan_default, first_nan;
  unsigned int kept;
  unsigned long long index[kKept], a[kKept], b[kKept], c[kKept], got[kKept], want[kKept];
};

// One functor per instruction (scalar_scan.cuh): PTX is the mnemonic with its qualifiers.
#define GC_F64_BINARY(NAME, PTX) GC_ASM_BINARY(NAME, PTX, double, "d")
#define GC_F64_TERNARY(NAME, PTX) GC_ASM_TERNARY(NAME, PTX, double, "d")
#define GC_F64_UNARY(NAME, PTX) GC_ASM_UNARY(NAME, PTX, double, "d")

template <class Op>
__global__ void __launch_bounds__(256) scan_f64_arith(F64ArithSpec spec, unsigned long long count, F64Out* out) {
  unsigned long long wrong[numerics::kArithClasses] = {0, 0, 0, 0, 0};
  unsigned long long nans = 0, quieted = 0, deflt = 0;
  const int operands = numerics::arith_operand_count(spec.op);
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const numerics::F64Operands o = numerics::f64_operands(spec.op, i);
    const std::uint64_t got = Op::run(o.a, o.b, o.c);
    const std::uint64_t want = numerics::f64_arith_reference(spec, o.a, o.b, o.c);
    if (numerics::f64::is_nan_bits(got) && numerics::f64::is_nan_bits(want) && want != numerics::f64::kInconsistent) {
      ++nans;
      const int kind = numerics::f64_nan_kind(got, o.a, o.b, o.c, operands);
      quieted += kind == 1;
      deflt += kind == 2;
      if (nans == 1) atomicCAS(&out->first_nan, 0ull, static_cast<unsigned long long>(got));
    }
    if (!numerics::f64_results_match(got, want)) {
      ++wrong[i % numerics::kArithClasses];
      scalar_scan::keep_mismatch<kKept>(out, i, o, got, want);
    }
  }
  scalar_scan::add_class_counts(out, wrong);
  if (nans) {
    atomicAdd(&out->nan_results, nans);
    atomicAdd(&out->nan_quieted, quieted);
    atomicAdd(&out->nan_default, deflt);
  }
}

template <class Op>
Measurement measure(const ProbeContext&, const char* id) {
  const numerics::ScalarF64Arith* row = numerics::find_scalar_f64_arith(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar f64 probe without a table row: ") + id);
  const unsigned long long count = numerics::f64_arith_tuple_count();
  double ms = 0;
  const F64Out host = scalar_scan::timed_scan<F64Out>(
      [&](int blocks, F64Out* out) { scan_f64_arith<Op><<<blocks, 256>>>(row->spec, count, out); }, ms);
  numerics::F64ArithScan scan;
  scan.compared = count;
  for (int k = 0; k < numerics::kArithClasses; ++k) scan.mismatches_by_class[k] = host.mismatches[k];
  scan.nan_results = host.nan_results;
  scan.nan_quieted_operand = host.nan_quieted;
  scan.nan_default = host.nan_default;
  scan.first_nan_result = host.first_nan;
  for (unsigned int s = 0; s < std::min<unsigned int>(host.kept, kKept); ++s)
    scan.first.push_back({host.index[s], host.a[s], host.b[s], host.c[s], host.got[s], host.want[s]});
  scan.gpu_ms = ms;
  return numerics::f64_arith_measurement(*row, scan);
}

bool register_f64(const char* id, ProbeFn fn) {
  const numerics::ScalarF64Arith* row = numerics::find_scalar_f64_arith(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar f64 probe without a table row: ") + id);
  return register_probes({Probe{row->id, Family::numeric,
                                row->ptx + " on 2^24 operand tuples (2^28 with GPUCONFORM_SCALAR_LONG=1): "
                                           "mismatches against the exact result",
                                Requirements{75, 0, ""}, RecordHint{ExpectationKind::max}, fn}});
}

#define GC_F64(KIND, NAME, PTX)                                                                           \
  KIND(NAME, PTX)                                                                                         \
  Measurement NAME##_probe(const ProbeContext& ctx) { return measure<NAME>(ctx, "numeric.scalar." PTX); } \
  const bool NAME##_registered = register_f64("numeric.scalar." PTX, &NAME##_probe);
#define GC_F64_MODES(KIND, NAME, OP)   \
  GC_F64(KIND, NAME##Rn, OP ".rn.f64") \
  GC_F64(KIND, NAME##Rz, OP ".rz.f64") \
  GC_F64(KIND, NAME##Rm, OP ".rm.f64") \
  GC_F64(KIND, NAME##Rp, OP ".rp.f64")

GC_F64_MODES(GC_F64_BINARY, AddF64, "add")
GC_F64_MODES(GC_F64_BINARY, SubF64, "sub")
GC_F64_MODES(GC_F64_BINARY, MulF64, "mul")
GC_F64_MODES(GC_F64_TERNARY, FmaF64, "fma")
GC_F64_MODES(GC_F64_BINARY, DivF64, "div")
GC_F64_MODES(GC_F64_UNARY, SqrtF64, "sqrt")
GC_F64_MODES(GC_F64_UNARY, RcpF64, "rcp")

#undef GC_F64_MODES
#undef GC_F64
#undef GC_F64_BINARY
#undef GC_F64_TERNARY
#undef GC_F64_UNARY

}  // namespace
}  // namespace gpuconform::kernels
