// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/summary_listener.hpp"

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform {

std::string run_summary_text(const RunOutcome& outcome) { return run_summary_json(outcome).dump(2) + "\n"; }

void SummaryListener::on_run_ended(const RunOutcome& outcome) {
  write_file_atomically(path_, run_summary_text(outcome));
}

}  // namespace gpuconform
