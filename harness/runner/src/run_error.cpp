// SPDX-License-Identifier: Apache-2.0
// The table of exit-2 causes (run_error.hpp).
#include "gpuconform/run_error.hpp"

#include <stdexcept>

namespace gpuconform {

const std::vector<RunErrorClass>& run_error_codes() {
  static const std::vector<RunErrorClass> codes = {
      {"no_gpu", "node",
       "check that the NVIDIA driver is loaded and the GPUs are visible (nvidia-smi, CUDA_VISIBLE_DEVICES)"},
      {"driver_too_old", "node",
       "install a driver that supports this build's CUDA runtime (R580 or newer for CUDA 13.0)"},
      {"invalid_expectations", "invocation", "fix the expectation or overlay files (gpuconform lint) and rerun"},
      {"no_probe_selected", "invocation", "use a --filter that matches a probe (gpuconform list)"},
      {"bad_argument", "invocation", "correct the command line (gpuconform run --help)"},
      {"outputs_unwritable", "node", "make the output directory writable and rerun"},
      // Exit 3, not 2: the node is not at fault, and a health check must skip, not drain.
      {"gpu_busy", "busy",
       "rerun when the GPU is idle (the NHC and Slurm recipes skip the check); --allow-busy runs anyway"},
  };
  return codes;
}

int run_error_exit_code(const std::string& code) {
  return std::string(run_error_class(code).severity) == "busy" ? 3 : 2;
}

const RunErrorClass& run_error_class(const std::string& code) {
  for (const RunErrorClass& c : run_error_codes())
    if (code == c.code) return c;
  throw std::logic_error("unknown run error code '" + code + "'");
}

}  // namespace gpuconform
