// `gpuconform compare`: what moved between two run records (before and after a driver
// or toolkit upgrade, two boards, two suite versions). No GPU needed.
#include <fmt/format.h>

#include <cmath>

#include "commands.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_compare.hpp"

namespace gpuconform::cli {
namespace {

struct CompareArgs {
  std::string baseline, candidate;
  double threshold = 0.02;
  std::vector<std::string> probes{"*"};
  bool all = false;
};

std::vector<RecordedRun> wanted_runs(const std::string& path, const std::vector<std::string>& globs) {
  std::vector<RecordedRun> out;
  for (RecordedRun& r : read_run_record(path))
    if (glob_match_any(globs, r.probe)) out.push_back(std::move(r));
  return out;
}

int compare(const CompareArgs& args) {
  std::vector<RecordedRun> base, cand;
  try {
    base = wanted_runs(args.baseline, args.probes);
    cand = wanted_runs(args.candidate, args.probes);
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform compare: {}\n", e.what());
    return kExitUnusable;
  }
  if (base.empty() || cand.empty()) {
    fmt::print(stderr, "gpuconform compare: {} has no measured run of a probe matching {}\n",
               base.empty() ? args.baseline : args.candidate, fmt::join(args.probes, " "));
    return kExitUnusable;
  }
  const RunComparison c = compare_runs(base, cand, args.threshold);
  fmt::print("baseline:  {} ({})\ncandidate: {} ({})\n", args.baseline, c.baseline_setup, args.candidate,
             c.candidate_setup);
  fmt::print("{:<46} {:>14} {:>14} {:>9}  {}\n", "probe", "baseline", "candidate", "change", "");
  for (const ProbeDelta& d : c.probes) {
    if (!d.moved && !d.verdict_changed && !args.all) continue;
    std::string flags = d.moved ? "MOVED" : "";
    if (d.verdict_changed) flags += fmt::format("{}verdict {} -> {}", flags.empty() ? "" : ", ", d.baseline_verdict,
                                                d.candidate_verdict);
    fmt::print("{:<46} {:>14.6g} {:>14.6g} {:>+8.2f}%  {} {}\n", d.probe, d.baseline, d.candidate, 100 * d.relative,
               d.unit, flags);
  }
  for (const auto& p : c.only_baseline) fmt::print("{:<46} only in the baseline\n", p);
  for (const auto& p : c.only_candidate) fmt::print("{:<46} only in the candidate\n", p);
  const int verdicts = static_cast<int>(
      std::count_if(c.probes.begin(), c.probes.end(), [](const ProbeDelta& d) { return d.verdict_changed; }));
  fmt::print("{} probes compared: {} moved beyond {:.1f}% (exact counts: any change), {} changed verdict; "
             "{} only in the baseline, {} only in the candidate\n",
             c.probes.size(), c.moved_count(), 100 * args.threshold, verdicts, c.only_baseline.size(),
             c.only_candidate.size());
  return c.moved_count() > 0 || verdicts > 0 ? kExitFailed : kExitOk;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "compare", "What moved between two run records (exit 0 nothing moved, 1 something did, 2 unusable input)");
  sub->add_option("baseline", args->baseline, "Run record (JSON lines) of the reference run")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("candidate", args->candidate, "Run record of the run to judge")->required()->check(CLI::ExistingFile);
  sub->add_option("--threshold", args->threshold, "Relative change that counts as moved (exact counts: any)")
      ->check(CLI::Range(0.0, 10.0))
      ->capture_default_str();
  sub->add_option("--probe", args->probes, "Probe id glob(s)")->capture_default_str();
  sub->add_flag("--all", args->all, "List every probe, not only those that moved");
  return [args] { return compare(*args); };
}

}  // namespace gpuconform::cli
