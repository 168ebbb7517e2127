#pragma once
// Reading run records back (the JSONL that `run` and `record` write): what `record --from`
// derives expectations from and `compare` compares, without a GPU.
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform {

// One line of a run record that carries a measurement.
struct RecordedRun {
  std::string file;  // as given
  int line = 0;      // 1-based
  std::string probe;
  std::string arch, sku, gpu;  // gpu: the board's UUID (PCI bus id when the UUID is empty)
  std::string gpu_name, driver, suite_commit;
  int cuda_runtime = 0;
  std::string verdict;  // pass, fail, warn, recorded, ...
  std::optional<double> seconds;  // wall seconds the probe took, when the line says
  Measurement measurement;
};

// Every line of `path` with a measurement, in file order; lines without one (skips,
// probes that threw) are left out. Throws std::runtime_error naming file:line for a line
// that is not a run record.
std::vector<RecordedRun> read_run_record(const std::string& path);

}  // namespace gpuconform
