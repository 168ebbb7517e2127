// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/junit_listener.hpp"

#include <fmt/format.h>

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/junit.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform {

std::vector<std::string> junit_file_paths(const std::string& base, const std::vector<GpuRun>& gpus) {
  std::vector<std::string> paths;
  for (const GpuRun& gpu : gpus)
    if (gpu.device) paths.push_back(gpus.size() > 1 ? fmt::format("{}.gpu{}.xml", base, gpu.index) : base);
  return paths;
}

void JUnitListener::on_run_ended(const RunOutcome& outcome) {
  const std::vector<std::string> paths = junit_file_paths(base_, outcome.gpus);
  std::size_t next = 0;
  for (const GpuRun& gpu : outcome.gpus)
    if (gpu.device)
      write_file_atomically(paths[next++], junit_xml(gpu.results, *gpu.device));  // throws, naming the file
}

}  // namespace gpuconform
