// SPDX-License-Identifier: Apache-2.0
#pragma once
// A CUDA driver API function through the runtime's entry-point query: the suite links no
// libcuda.so, so the few driver calls it needs (tensor-map encoding, the current context for
// CUPTI) come from the driver the runtime already loaded.

namespace gpuconform::kernels {

// The driver's `symbol` with the CUDA 12.0 ABI, or nullptr when the driver has none (any
// error is cleared; the caller says what a missing symbol means for its probe).
void* driver_entry_point(const char* symbol);

}  // namespace gpuconform::kernels
