// SPDX-License-Identifier: Apache-2.0
#pragma once
// JUnit XML of one run, for CI systems that read test reports. Written through pugixml, so
// the file is well-formed whatever a reason holds (quotes, markup, control characters,
// bytes that are not UTF-8).
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/test_result.hpp"

namespace gpuconform {

// One <testsuite> of `results` on `device`, with the device, driver, CUDA and suite
// identity as <properties>.
std::string junit_xml(const std::vector<TestResult>& results, const DeviceInfo& device);

// `text` made legal as XML 1.0 character data: a control character XML forbids (all below
// 0x20 but tab, LF and CR) becomes the visible escape "\xNN", a byte sequence that is not
// UTF-8 (or U+FFFE/U+FFFF) becomes U+FFFD. Markup escaping (<, &, ") is the writer's job.
std::string xml_safe_text(std::string_view text);

}  // namespace gpuconform
