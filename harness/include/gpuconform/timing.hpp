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

// How many untimed launches of `launch` keep the device busy for `busy_ms`
// (at least 1, at most `max_launches`), from one timed launch. Device memory
// reaches its sustained rate only after some milliseconds of streaming: an
// H200 read its HBM at 0.82 of peak for the first six 0.45 ms launches of a
// probe, then at 0.95 (2026-11-25), so a count of warm-up launches fit for one
// GPU is too few for a faster one.
int warmup_launches_for(const std::function<void()>& launch, double busy_ms, int max_launches = 1000);

// Measures the SM clock in MHz by spinning one thread for about `spin_us`
// microseconds and dividing elapsed clock64 cycles by elapsed %globaltimer
// nanoseconds. Run it right after the timed work, while the GPU is still at
// the clock that work drove it to.
double measure_sm_clock_mhz(double spin_us = 2000);

}  // namespace gpuconform
