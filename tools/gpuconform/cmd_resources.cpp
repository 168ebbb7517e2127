// SPDX-License-Identifier: Apache-2.0
// `gpuconform resources`: write CTest's resource-spec file for this machine's GPUs, so
// `ctest --resource-spec-file FILE -j N` runs one GPU test group per GPU at a time
// (harness ctest_resources.hpp has the format and the groups' side).
#include <fmt/format.h>

#include "commands.hpp"
#include "gpuconform/atomic_file.hpp"
#include "gpuconform/ctest_resources.hpp"
#include "gpuconform/device_info.hpp"

namespace gpuconform::cli {
namespace {

int resources(const std::string& out) {
  std::string why;
  const int count = device_count(&why);
  if (count == 0) {
    // An empty spec would make ctest refuse every GPU group ("insufficient resources"):
    // better no file and the reason.
    fmt::print(stderr, "gpuconform resources: {}; no spec file written. Run it on a machine with an NVIDIA GPU and driver.\n",
               why);
    return kExitUnusable;
  }
  const std::string json = ctest_resource_spec_json(count);
  if (out.empty() || out == "-") {
    fmt::print("{}", json);
    return kExitOk;
  }
  try {
    write_file_atomically(out, json);
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform resources: {}\n", e.what());
    return kExitUnusable;
  }
  fmt::print(stderr, "{}: {} GPU(s); use it with ctest --resource-spec-file {} -j N\n", out, count, out);
  // The p2p groups ask ctest for every GPU, counted when ctest reads the tests
  // (cmake/GpuconformCtestGpus.cmake); a count above the spec's makes them "Not Run".
  if (count >= 2)
    fmt::print(stderr,
               "the p2p test groups ask for all {} GPUs: run ctest under the same CUDA_VISIBLE_DEVICES as this "
               "command, or with GPUCONFORM_CTEST_GPUS={}\n",
               count, count);
  return kExitOk;
}

}  // namespace

Command add_resources_command(CLI::App& app) {
  auto out = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand(
      "resources", "Write CTest's resource-spec file for the local GPUs (exit 0 written, 2 no GPU or unwritable)");
  sub->add_option("--out", *out, "Spec file to write (default: standard output)");
  return [out] { return resources(*out); };
}

}  // namespace gpuconform::cli
