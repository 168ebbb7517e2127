// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/termination_log_listener.hpp"

#include <fmt/format.h>

#include <fstream>
#include <stdexcept>

#include "gpuconform/run_summary.hpp"

namespace gpuconform {

void TerminationLogListener::on_run_ended(const RunOutcome& outcome) {
  std::ofstream out(path_, std::ios::binary | std::ios::trunc);
  out << termination_message(outcome);
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path_));
}

}  // namespace gpuconform
