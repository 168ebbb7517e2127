#pragma once
// Human-readable output of the CLI: progress lines and the summary table.
#include <string>
#include <vector>

#include "gpuconform/conformance.hpp"

namespace gpuconform::cli {

void print_device_header(const DeviceInfo& d, const ExpectationSet& expectations);
void print_progress(std::size_t done, std::size_t total, const TestResult& r);
// Table of test, measured, expected, verdict; then every non-pass reason.
void print_summary(const std::vector<TestResult>& results);

}  // namespace gpuconform::cli
