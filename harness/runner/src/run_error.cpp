// SPDX-License-Identifier: Apache-2.0
// The table of exit-2 causes (run_error.hpp).
#include "gpuconform/run_error.hpp"

#include <stdexcept>

namespace gpuconform {

const std::vector<RunErrorClass>& run_error_codes() {
  static const std::vector<RunErrorClass> codes = {
      {"no_gpu", "node", "check that the NVIDIA driver is loaded and the GPUs are visible (nvidia-smi, CUDA_VISIBLE_DEVICES)"},
      {"driver_too_old", "node", "install a driver that supports this build's CUDA runtime (R580 or newer for CUDA 13.0)"},
      {"invalid_expectations", "invocation", "fix the expectation or overlay files (gpuconform lint) and rerun"},
      {"no_probe_selected", "invocation", "use a --filter that matches a probe (gpuconform list)"},
      {"bad_argument", "invocation", "correct the command line (gpuconform run --help)"},
      {"outputs_unwritable", "node", "make the output directory writable and rerun"},
  };
  return codes;
}

const RunErrorClass& run_error_class(const std::string& code) {
  for (const RunErrorClass& c : run_error_codes())
    if (code == c.code) return c;
  throw std::logic_error("unknown run error code '" + code + "'");
}

}  // namespace gpuconform
