// SPDX-License-Identifier: Apache-2.0
// `gpuconform compare`: what moved between two run records, board by board (before and
// after a driver or toolkit upgrade, two suite versions), or with --fleet which boards
// of a fleet stand apart from the others. No GPU needed. Exit 0 nothing moved, 1
// something did (or a verdict changed), 2 unusable input.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "console.hpp"
#include "gpuconform/console_colour.hpp"
#include "gpuconform/fleet_compare.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/report_svg.hpp"  // format_quantity: numbers as the report writes them
#include "gpuconform/run_compare.hpp"

namespace gpuconform::cli {
namespace {

struct CompareArgs {
  std::vector<std::string> records;
  double threshold = 0.02;
  std::vector<std::string> probes{"*"};
  std::vector<std::string> pairs;  // "BEFORE_PREFIX=AFTER_PREFIX"
  bool by_index = false, fleet = false, all = false;
  std::string format = "text";
  std::string colour = "auto";
};

std::vector<RecordedRun> wanted_runs(const std::string& path, const std::vector<std::string>& globs) {
  std::vector<RecordedRun> out;
  for (RecordedRun& r : read_run_record(path))
    if (glob_match_any(globs, r.probe)) out.push_back(std::move(r));
  if (out.empty())
    throw std::runtime_error(
        fmt::format("{} has no measured run of a probe matching {}", path, fmt::join(globs, " ")));
  return out;
}

// "2.872 TB/s ± 4.1 GB/s", as the report formats quantities.
std::string pm(double v, double noise, const std::string& unit) {
  return report::format_quantity(v, unit) + " ± " + report::format_quantity(noise, unit);
}

// What a line says: BETTER / WORSE / MOVED / AMBIGUOUS / SAME, and a changed verdict.
std::string flags_of(const ProbeDelta& d) {
  std::string flags = d.change();
  if (d.verdict_changed) flags += fmt::format(", verdict {} -> {}", d.baseline_verdict, d.candidate_verdict);
  return flags;
}

// "3 probes only in the baseline (--all lists them)", or each of them with --all.
void print_only(const std::vector<std::string>& probes, const char* side, bool all) {
  if (probes.empty()) return;
  if (!all) {
    fmt::print("  {} probe(s) only in the {} (--all lists them)\n", probes.size(), side);
    return;
  }
  for (const auto& pr : probes) fmt::print("  {:<44} only in the {}\n", pr, side);
}

void print_text(const CompareArgs& a, const PairedComparison& p) {
  fmt::print("baseline:  {}\ncandidate: {}\n", a.records[0], a.records[1]);
  for (const BoardPair& bp : p.pairs) {
    const RunComparison& c = bp.comparison;
    fmt::print("\nboard {} -> {}\n  baseline:  {}\n  candidate: {}\n", bp.baseline_gpu, bp.candidate_gpu,
               c.baseline_setup, c.candidate_setup);
    fmt::print("  {:<44} {:>26} {:>26} {:>9}  {}\n", "probe", "baseline", "candidate", "change", "");
    std::size_t same = 0;
    for (const ProbeDelta& d : c.probes) {
      if (d.judgement == Judgement::Same && !d.verdict_changed && !a.all) {
        ++same;
        continue;
      }
      const std::string line =
          fmt::format("  {:<44} {:>26} {:>26} {:>+8.2f}%  {} {}", d.probe, pm(d.baseline, d.baseline_noise, d.unit),
                      pm(d.candidate, d.candidate_noise, d.unit), 100 * d.relative, flags_of(d), bp.candidate_gpu);
      fmt::print("{}\n", paint_first_verdict(line, colour()));
    }
    if (same) fmt::print("  {} probe(s) SAME (--all lists them)\n", same);
    print_only(c.only_baseline, "baseline", a.all);
    print_only(c.only_candidate, "candidate", a.all);
    auto count = [&](const char* change) {
      return std::count_if(c.probes.begin(), c.probes.end(), [&](const ProbeDelta& d) { return d.change() == change; });
    };
    fmt::print(
        "  {} probes compared: {} MOVED ({} BETTER, {} WORSE, {} either way), {} AMBIGUOUS, {} changed verdict\n",
        c.probes.size(), c.moved_count(), count("BETTER"), count("WORSE"), count("MOVED"), count("AMBIGUOUS"),
        c.verdicts_changed());
  }
  for (const auto& g : p.only_baseline_gpus) fmt::print("board {} only in the baseline (not compared)\n", g);
  for (const auto& g : p.only_candidate_gpus) fmt::print("board {} only in the candidate (not compared)\n", g);
  fmt::print(
      "\n{} board pair(s): {} MOVED (beyond both sides' noise + {:.1f}%; exact values, i.e. counts, "
      "ulp and numeric.*: any change), {} changed verdict\n",
      p.pairs.size(), p.moved_count(), 100 * a.threshold, p.verdicts_changed());
}

void print_md(const CompareArgs& a, const PairedComparison& p) {
  fmt::print("# compare `{}` → `{}`\n", a.records[0], a.records[1]);
  for (const BoardPair& bp : p.pairs) {
    fmt::print("\n## `{}` → `{}`\n\n", bp.baseline_gpu, bp.candidate_gpu);
    bool header = false;
    for (const ProbeDelta& d : bp.comparison.probes) {
      if (d.judgement == Judgement::Same && !d.verdict_changed && !a.all) continue;
      if (!header) fmt::print("| probe | baseline | candidate | change | unit | verdict |\n|---|---:|---:|---:|---|---|\n");
      header = true;
      fmt::print("| `{}` | {} | {} | {:+.2f}% | {} | {}{} |\n", d.probe, pm(d.baseline, d.baseline_noise, d.unit),
                 pm(d.candidate, d.candidate_noise, d.unit), 100 * d.relative, d.unit, d.change(),
                 d.verdict_changed ? fmt::format(", verdict {} → {}", d.baseline_verdict, d.candidate_verdict) : "");
    }
    if (!header) fmt::print("All {} probes SAME.\n", bp.comparison.probes.size());
  }
  for (const auto& g : p.only_baseline_gpus) fmt::print("\nBoard `{}` only in the baseline.\n", g);
  for (const auto& g : p.only_candidate_gpus) fmt::print("\nBoard `{}` only in the candidate.\n", g);
  fmt::print("\n**{} MOVED**, {} changed verdict over {} board pair(s).\n", p.moved_count(), p.verdicts_changed(),
             p.pairs.size());
}

void print_json(const CompareArgs& a, const PairedComparison& p) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const BoardPair& bp : p.pairs) {
    nlohmann::json probes = nlohmann::json::array();
    for (const ProbeDelta& d : bp.comparison.probes)
      probes.push_back({{"probe", d.probe},
                        {"unit", d.unit},
                        {"baseline", d.baseline},
                        {"baseline_noise", d.baseline_noise},
                        {"candidate", d.candidate},
                        {"candidate_noise", d.candidate_noise},
                        {"relative", d.relative},
                        {"judgement", to_string(d.judgement)},
                        {"direction", to_string(d.direction)},
                        {"change", d.change()},
                        {"baseline_verdict", d.baseline_verdict},
                        {"candidate_verdict", d.candidate_verdict},
                        {"verdict_changed", d.verdict_changed}});
    pairs.push_back({{"baseline_gpu", bp.baseline_gpu}, {"candidate_gpu", bp.candidate_gpu},
                     {"moved", bp.comparison.moved_count()}, {"probes", probes},
                     {"only_baseline", bp.comparison.only_baseline},
                     {"only_candidate", bp.comparison.only_candidate}});
  }
  const nlohmann::json out = {{"baseline", a.records[0]},          {"candidate", a.records[1]},
                              {"threshold", a.threshold},          {"pairs", pairs},
                              {"only_baseline_gpus", p.only_baseline_gpus},
                              {"only_candidate_gpus", p.only_candidate_gpus},
                              {"moved", p.moved_count()}};
  fmt::print("{}\n", out.dump(2));
}

// "5 boards", or with pair probes "5 boards and 20 pairs of boards": a pair ("A>B") is
// pooled as one unit, but is not one more board.
std::string fleet_units(const FleetComparison& f) {
  const std::size_t boards = f.gpus.size() - static_cast<std::size_t>(f.pairs);
  return f.pairs ? fmt::format("{} boards and {} pairs of boards", boards, f.pairs) : fmt::format("{} boards", boards);
}

int fleet(const CompareArgs& a, const std::vector<RecordedRun>& runs) {
  const FleetComparison f = compare_fleet(runs, a.threshold);
  if (f.probes_judged == 0) {
    fmt::print(stderr, "gpuconform compare --fleet: no probe was measured on {} or more boards or pairs ({} given)\n",
               kFleetMinBoards, fleet_units(f));
    return kExitUnusable;
  }
  if (a.format == "json") {
    nlohmann::json o = nlohmann::json::array();
    for (const FleetOutlier& x : f.outliers)
      o.push_back({{"probe", x.probe}, {"unit", x.unit}, {"gpu", x.gpu}, {"value", x.value}, {"others_median", x.centre},
                   {"band", x.band}, {"others_min", x.others_min}, {"others_max", x.others_max}});
    fmt::print("{}\n", nlohmann::json{{"gpus", f.gpus}, {"probes_judged", f.probes_judged}, {"outliers", o}}.dump(2));
  } else {
    const bool md = a.format == "md";
    if (md && !f.outliers.empty()) fmt::print("| probe | board | value | others (median ± band) | others' range |\n|---|---|---:|---:|---|\n");
    for (const FleetOutlier& x : f.outliers)
      fmt::print(md ? "| `{}` | `{}` | {:.6g} {} | {:.6g} ± {:.2g} | {:.6g} .. {:.6g} |\n"
                    : "OUTLIER {} {}: {:.6g} {}, the others {:.6g} ± {:.2g} (range {:.6g} .. {:.6g})\n",
                 x.probe, x.gpu, x.value, x.unit, x.centre, x.band, x.others_min, x.others_max);
    fmt::print("{}, {} probes judged (k = {}): {} outlier(s)\n", fleet_units(f), f.probes_judged, kFleetK,
               f.outliers.size());
  }
  return f.outliers.empty() ? kExitOk : kExitFailed;
}

int compare(const CompareArgs& a) {
  try {
    if (!setup_colour(a.colour, "compare")) return kExitUnusable;
    if (a.format != "text" && a.format != "md" && a.format != "json")
      throw std::invalid_argument("--format must be text, md or json, not '" + a.format + "'");
    if (a.fleet) {
      std::vector<RecordedRun> all;
      for (const std::string& path : a.records)
        for (RecordedRun& r : wanted_runs(path, a.probes)) all.push_back(std::move(r));
      return fleet(a, all);
    }
    if (a.records.size() != 2)
      throw std::invalid_argument(fmt::format("compare takes BEFORE AFTER ({} records given; --fleet takes many)",
                                              a.records.size()));
    Pairing pairing;
    pairing.by_index = a.by_index;
    for (const std::string& s : a.pairs) {
      const auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
        throw std::invalid_argument("--pair wants BEFORE_UUID_PREFIX=AFTER_UUID_PREFIX, not '" + s + "'");
      pairing.explicit_pairs.emplace_back(s.substr(0, eq), s.substr(eq + 1));
    }
    const PairedComparison p =
        compare_boards(wanted_runs(a.records[0], a.probes), wanted_runs(a.records[1], a.probes), a.threshold, pairing);
    if (p.pairs.empty()) {
      // Two different boards are not compared unless the user says which is which: a
      // second board's values differ by what healthy boards differ by, not by what moved.
      const bool single = p.only_baseline_gpus.size() == 1 && p.only_candidate_gpus.size() == 1;
      throw std::invalid_argument(
          single ? fmt::format("the records hold different boards (baseline {}, candidate {}); compare pairs boards "
                               "by UUID. To compare these two, say so: --pair {}={} (or --by-index); to set them "
                               "among others, --fleet",
                               p.only_baseline_gpus[0], p.only_candidate_gpus[0], p.only_baseline_gpus[0],
                               p.only_candidate_gpus[0])
                 : fmt::format("no board is in both records (baseline {}; candidate {}): name pairs with "
                               "--pair BEFORE=AFTER or use --by-index (or --fleet)",
                               fmt::join(p.only_baseline_gpus, ", "), fmt::join(p.only_candidate_gpus, ", ")));
    }
    if (a.format == "json") print_json(a, p);
    else if (a.format == "md") print_md(a, p);
    else print_text(a, p);
    return p.moved_count() > 0 || p.verdicts_changed() > 0 ? kExitFailed : kExitOk;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform compare: {}\n", e.what());
    return kExitUnusable;
  }
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* sub = app.add_subcommand(
      "compare", "What moved between two run records, board by board; --fleet: which boards stand apart "
                 "(exit 0 nothing moved, 1 something did, 2 unusable input)");
  sub->add_option("records", args->records, "BEFORE AFTER run records (JSON lines); with --fleet, any number")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--threshold", args->threshold,
                  "Relative change allowed beyond the noise (exact values: counts, ulp, numeric.* errors: none)")
      ->check(CLI::Range(0.0, 10.0))
      ->capture_default_str();
  sub->add_option("--probe", args->probes, "Probe id glob(s)")->capture_default_str();
  sub->add_option("--pair", args->pairs,
                  "BEFORE_UUID_PREFIX=AFTER_UUID_PREFIX: compare these two boards, and pair results between "
                  "boards so renamed (repeatable)")
      ->allow_extra_args(false);
  sub->add_flag("--by-index", args->by_index, "Pair boards by CUDA device index instead of UUID");
  sub->add_flag("--fleet", args->fleet, "Pool every board of RECORDS and list boards outside the others' spread");
  sub->add_option("--format", args->format, "text, md or json")->capture_default_str();
  sub->add_option("--color", args->colour,
                  "Colour WORSE red and BETTER green: auto (a terminal, unless NO_COLOR is set), always, never")
      ->capture_default_str();
  sub->add_flag("--all", args->all,
                "List every probe, not only those that are not SAME, and each probe only one side has");
  return [args] { return compare(*args); };
}

}  // namespace gpuconform::cli
