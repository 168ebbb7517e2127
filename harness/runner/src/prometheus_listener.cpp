// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/prometheus_listener.hpp"

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/prometheus_textfile.hpp"

namespace gpuconform {

void PrometheusListener::on_run_ended(const RunOutcome& outcome) {
  // A failed run keeps the last success time the file it replaces held.
  write_file_atomically(path_, prometheus_textfile(outcome, read_last_success(path_)));
}

}  // namespace gpuconform
