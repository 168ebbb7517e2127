// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side timing of device work with CUDA events, and the SM clock measured
// on the device itself (%globaltimer against clock64): peak-per-clock times
// the clock actually reached is the only fair denominator for throughput.
#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace gpuconform {

// Times `launch` (which enqueues work on the default stream) with events:
// `warmup` untimed runs, then `repeats` timed runs; returns milliseconds of
// each timed run. Checks every CUDA call and the launches' errors.
std::vector<double> time_launches_ms(const std::function<void()>& launch, int warmup, int repeats);

// Measures the SM clock in MHz by spinning one thread for about `spin_us`
// microseconds and dividing elapsed clock64 cycles by elapsed %globaltimer
// nanoseconds. Run it right after the timed work, while the GPU is still at
// the clock that work drove it to.
double measure_sm_clock_mhz(double spin_us = 2000);

}  // namespace gpuconform
