// `gpuconform run`: the conformance suite on the local GPUs.
#include <fmt/format.h>

#include <fstream>

#include "commands.hpp"
#include "console.hpp"
#include "gpuconform/conformance.hpp"
#include "gpuconform/junit.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform::cli {
namespace {

struct RunArgs {
  std::vector<int> devices;
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  std::vector<std::string> filters{"*"};
  std::string record_path = "gpuconform-run.jsonl";
  std::string junit_path = "gpuconform-junit.xml";
  bool quick = false;
};

int run(const RunArgs& args) {
  std::string why;
  const int count = device_count(&why);
  if (count == 0) {
    fmt::print(stderr, "gpuconform run: {}; nothing was run. Run it on a machine with an NVIDIA GPU and driver.\n",
               why);
    return kExitUnusable;
  }
  std::vector<int> devices = args.devices;
  if (devices.empty())
    for (int i = 0; i < count; ++i) devices.push_back(i);
  bool any_failed = false;
  std::vector<std::string> junit_files;
  for (int index : devices) {
    if (index < 0 || index >= count) {
      fmt::print(stderr, "gpuconform run: --device {} does not exist (this machine has {} GPU(s): 0..{})\n", index,
                 count, count - 1);
      return kExitUnusable;
    }
    const DeviceInfo device = query_device(index);
    ExpectationSet expectations;
    try {
      expectations = load_device_expectations(device, args.expectations_dir, args.overlays);
    } catch (const ExpectationError& err) {
      fmt::print(stderr, "{}\ngpuconform run: invalid expectation file(s); fix them (`gpuconform lint`) and rerun\n",
                 err.what());
      return kExitUnusable;
    }
    print_device_header(device, expectations);
    std::vector<const Probe*> probes;
    for (const Probe& p : Registry::instance().all())
      if (glob_match_any(args.filters, p.id)) probes.push_back(&p);
    std::vector<TestResult> results;
    for (const Probe* probe : probes) {
      results.push_back(run_conformance_test(*probe, device, expectations, RunOptions{args.quick}));
      append_record_line(args.record_path, record_json(results.back(), device));
      print_progress(results.size(), probes.size(), results.back());
      any_failed |= results.back().verdict.outcome == Outcome::fail;
    }
    print_summary(results);
    std::string junit = args.junit_path;
    if (devices.size() > 1) junit = fmt::format("{}.gpu{}.xml", args.junit_path, index);
    std::ofstream(junit) << junit_xml(results, device);
    junit_files.push_back(junit);
  }
  fmt::print("run record: {}\n", args.record_path);
  for (const auto& j : junit_files) fmt::print("junit: {}\n", j);
  return any_failed ? kExitFailed : kExitOk;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand("run", "Run the conformance tests on all (or --device N) local GPUs");
  sub->add_option("--device", args->devices, "GPU ordinal(s) to test (default: all)");
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory")->capture_default_str();
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last")->check(CLI::ExistingFile);
  sub->add_option("--filter", args->filters, "Probe id glob(s), e.g. 'latency.*'")->capture_default_str();
  sub->add_option("--record", args->record_path, "Run record (JSON lines, appended)")->capture_default_str();
  sub->add_option("--junit", args->junit_path, "JUnit XML report")->capture_default_str();
  sub->add_flag("--quick", args->quick, "Fewer repeats (smoke test)");
  return [args] { return run(*args); };
}

}  // namespace gpuconform::cli
