// SPDX-License-Identifier: Apache-2.0
#include "json_stdout_listener.hpp"

#include <unistd.h>

#include <cstdio>
#include <stdexcept>

#include "gpuconform/summary_listener.hpp"

namespace gpuconform::cli {

JsonStdoutListener::JsonStdoutListener() {
  std::fflush(stdout);
  stdout_ = ::dup(STDOUT_FILENO);
  if (stdout_ < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    if (stdout_ >= 0) ::close(stdout_);
    throw std::runtime_error("--json: cannot set stdout aside");
  }
}

JsonStdoutListener::~JsonStdoutListener() {
  std::fflush(stdout);
  ::dup2(stdout_, STDOUT_FILENO);
  ::close(stdout_);
}

void JsonStdoutListener::on_run_ended(const RunOutcome& outcome) {
  std::fflush(stdout);
  const std::string text = run_summary_text(outcome);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(stdout_, text.data() + done, text.size() - done);
    if (n <= 0) break;  // a closed pipe: the files still say it all
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace gpuconform::cli
