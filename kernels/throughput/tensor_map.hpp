// SPDX-License-Identifier: Apache-2.0
#pragma once
// A 2-D tensor map (the descriptor cp.async.bulk.tensor reads) over a device
// buffer of 4-byte elements, encoded with cuTensorMapEncodeTiled taken from the
// driver at run time (cudaGetDriverEntryPointByVersion: the suite links no
// libcuda.so). Used by throughput.tma.tensor_2d and latency.tma.load.tensor_2d.
#include <cuda.h>

#include "latency/async_plan.hpp"

namespace gpuconform::kernels {

// Throws ProbeSkipped when the driver has no cuTensorMapEncodeTiled, and
// std::runtime_error (with the CUresult) when it rejects the map or the plan is
// not of 4-byte elements.
CUtensorMap make_tensor_map_2d_u32(void* base, const plan::Tma2dPlan& p);

}  // namespace gpuconform::kernels
