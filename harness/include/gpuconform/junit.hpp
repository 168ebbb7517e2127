#pragma once
// JUnit XML of one run, for CI systems that read test reports.
#include <string>
#include <vector>

#include "gpuconform/conformance.hpp"

namespace gpuconform {

std::string junit_xml(const std::vector<TestResult>& results, const DeviceInfo& device);

}  // namespace gpuconform
