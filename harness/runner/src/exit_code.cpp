// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/exit_code.hpp"

namespace gpuconform {

RunExit run_exit_code(const RunTally& t) {
  if (t.failed > 0 || t.gpus_unopened > 0) return RunExit::failed;
  // Skips alone are no evidence the GPU conforms: an architecture without an
  // expectation file must not come out green.
  if (t.passed + t.warned == 0) return RunExit::nothing_judged;
  return RunExit::ok;
}

}  // namespace gpuconform
