// SPDX-License-Identifier: Apache-2.0
// The text and record form of what disturbed a measurement (test_result.hpp).
#include "gpuconform/test_result.hpp"

namespace gpuconform {

std::string Disturbance::text() const {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

nlohmann::json Disturbance::to_json() const { return reasons; }

}  // namespace gpuconform
