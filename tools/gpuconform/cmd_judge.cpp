// SPDX-License-Identifier: Apache-2.0
// `gpuconform judge`: run records judged again by the expectation files of today
// (recorded_judgement.hpp), board by board: the verdicts now, the verdicts the runs wrote, and
// every line whose verdict changed. A line measured before a probe's fix ([[supersede]] in the
// band policy, <expectations>/evidence/policy.toml by default) is counted as superseded, not
// judged: today's entry describes another kernel. No GPU needed. Exit 0 nothing fails under
// these files, 1 something does, 2 unusable input (an unreadable record, invalid or missing files).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

#include "commands.hpp"
#include "gpuconform/band_policy.hpp"
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/numerics/xz_stream.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/recorded_judgement.hpp"

namespace gpuconform::cli {
namespace {

struct JudgeArgs {
  std::vector<std::string> records;
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  std::string policy;  // "" = <expectations_dir>/evidence/policy.toml when it exists
  bool no_policy = false;
  bool all = false;
  bool json = false;
  std::vector<std::string> filter;  // probe id globs; empty: every probe
};

// Verdict counts of one board in one record: as the run wrote them and as these files give them.
struct Tally {
  std::string arch, sku;
  std::map<std::string, int> recorded, now;
  int lines = 0, not_judged = 0, superseded = 0;
};

// One expectation set per architecture, SKU and board part, loaded as `run` loads a GPU's (the
// part from the record's gpu_state snapshot; without one, the SKU's entries judge).
class ExpectationCache {
 public:
  explicit ExpectationCache(const JudgeArgs& args) : args_(args) {}

  const ExpectationSet& for_run(const RecordedRun& r) {
    const auto key = std::make_tuple(r.arch, r.sku, r.board_part);
    auto it = sets_.find(key);
    if (it != sets_.end()) return it->second;
    const Registry& reg = Registry::instance();
    ExpectationQuery q;
    q.dir = args_.expectations_dir;
    q.arch = r.arch;
    q.sku = r.sku;
    q.board_part = r.board_part;
    q.overlays = args_.overlays;
    q.known_probe = [&reg](const std::string& id) { return reg.find(id) != nullptr; };
    q.probe_ids = reg.ids();
    ExpectationSet set = load_expectations(q);
    if (set.files().empty())
      throw std::runtime_error(fmt::format("no expectation file for {} in {} (the architecture of {}:{})", r.arch,
                                           args_.expectations_dir, r.file, r.line));
    return sets_.emplace(key, std::move(set)).first->second;
  }

 private:
  const JudgeArgs& args_;
  std::map<std::tuple<std::string, std::string, std::string>, ExpectationSet> sets_;
};

std::string counts(const std::map<std::string, int>& c) {
  auto n = [&c](const char* k) {
    const auto it = c.find(k);
    return it == c.end() ? 0 : it->second;
  };
  return fmt::format("{} pass, {} warn, {} fail", n("pass"), n("warn"), n("fail"));
}

// One line whose verdict these files change (or, with --all, every judged or superseded line).
struct LineChange {
  std::string board, probe, recorded, now, reason;  // now: pass/warn/fail, or "superseded"
};

// The judgement of one record file: a tally per board (in id order) and the lines to show.
struct FileJudgement {
  std::string path;
  std::map<std::string, Tally> boards;
  std::vector<LineChange> lines;
  int fails = 0;
};

FileJudgement judge_file(const std::string& path, ExpectationCache& cache, const BandPolicy* policy,
                         const JudgeArgs& args) {
  FileJudgement out{path, {}, {}, 0};
  for (const TimedRun& timed : parse_timed_runs_text(read_whole_text(path), path)) {
    const RecordedRun& r = timed.run;
    if (!args.filter.empty() && !glob_match_any(args.filter, r.probe)) continue;
    Tally& t = out.boards[r.board];
    t.arch = r.arch;
    t.sku = r.sku;
    ++t.lines;
    if (const PolicySupersede* s = policy ? policy->superseded_by(r.probe, timed.time) : nullptr) {
      ++t.superseded;
      if (args.all)
        out.lines.push_back(
            {r.board, r.probe, r.verdict, "superseded", fmt::format("measured before fix {} ({})", s->fix, s->before)});
      continue;
    }
    const RecordedJudgement j = judge_recorded(r, cache.for_run(r));
    if (!j.judged) {
      ++t.not_judged;
      continue;
    }
    const std::string now = outcome_name(j.verdict.outcome);
    ++t.recorded[r.verdict];
    ++t.now[now];
    if (j.verdict.outcome == Outcome::fail) ++out.fails;
    if (args.all || now != r.verdict) out.lines.push_back({r.board, r.probe, r.verdict, now, j.verdict.reason});
  }
  return out;
}

void print_file_text(const FileJudgement& f) {
  fmt::print("{}\n", f.path);
  for (const LineChange& l : f.lines)
    if (l.now == "superseded")
      fmt::print("  {:<8} superseded {} {}: {}\n", l.recorded, l.board, l.probe, l.reason);
    else
      fmt::print("  {:<8} -> {:<5} {} {}: {}\n", l.recorded, l.now, l.board, l.probe, l.reason);
  for (const auto& [board, t] : f.boards)
    fmt::print(
        "  {} ({} {}): {} lines, {} not judged (no entry, or one for another node size), {} superseded (measured "
        "before a probe's fix); now {} (the run wrote {})\n",
        board, t.arch, t.sku.empty() ? "no SKU" : t.sku, t.lines, t.not_judged, t.superseded, counts(t.now),
        counts(t.recorded));
}

nlohmann::json verdict_counts_json(const std::map<std::string, int>& c) {
  nlohmann::json j = {{"pass", 0}, {"warn", 0}, {"fail", 0}};
  for (const auto& [k, n] : c) j[k] = n;
  return j;
}

nlohmann::json file_json(const FileJudgement& f) {
  nlohmann::json boards = nlohmann::json::array(), lines = nlohmann::json::array();
  for (const auto& [board, t] : f.boards)
    boards.push_back({{"board", board},
                      {"arch", t.arch},
                      {"sku", t.sku},
                      {"lines", t.lines},
                      {"not_judged", t.not_judged},
                      {"superseded", t.superseded},
                      {"now", verdict_counts_json(t.now)},
                      {"recorded", verdict_counts_json(t.recorded)}});
  for (const LineChange& l : f.lines)
    lines.push_back(
        {{"board", l.board}, {"probe", l.probe}, {"recorded", l.recorded}, {"now", l.now}, {"reason", l.reason}});
  return {{"file", f.path}, {"fails", f.fails}, {"boards", boards}, {"lines", lines}};
}

int judge_records(const JudgeArgs& args) {
  namespace fs = std::filesystem;
  for (const std::string& o : args.overlays)
    if (!fs::is_regular_file(o)) {
      fmt::print(stderr, "gpuconform judge: --overlay {}: {}\n", o,
                 fs::exists(o) ? "not a regular file" : "no such file");
      return kExitUnusable;
    }
  // The band policy's [[supersede]] rules: explicit, else the expectation directory's own.
  std::optional<BandPolicy> policy;
  const std::string policy_path = !args.policy.empty() ? args.policy : args.expectations_dir + "/evidence/policy.toml";
  if (!args.no_policy && (!args.policy.empty() || fs::is_regular_file(policy_path))) {
    std::vector<Diagnostic> diags;
    policy = parse_band_policy_file(policy_path, diags);
    if (!diags.empty()) {
      for (const Diagnostic& d : diags) fmt::print(stderr, "gpuconform judge: {}\n", d.str());
      return kExitUnusable;
    }
  }
  ExpectationCache cache(args);
  int fails = 0;
  nlohmann::json files = nlohmann::json::array();
  try {
    for (const std::string& path : args.records) {
      const FileJudgement f = judge_file(path, cache, policy ? &*policy : nullptr, args);
      fails += f.fails;
      if (args.json)
        files.push_back(file_json(f));
      else
        print_file_text(f);
    }
  } catch (const std::runtime_error& err) {  // an unreadable record, invalid files (ExpectationError) alike
    fmt::print(stderr, "gpuconform judge: {}\n", err.what());
    return kExitUnusable;
  }
  if (args.json)
    fmt::print("{}\n", nlohmann::json{{"expectations", args.expectations_dir},
                                      {"policy", policy ? policy_path : std::string()},
                                      {"fails", fails},
                                      {"files", files}}
                           .dump(2));
  else
    fmt::print("{} line(s) fail under the files of {}\n", fails, args.expectations_dir);
  return fails > 0 ? kExitFailed : kExitOk;
}

}  // namespace

Command add_judge_command(CLI::App& app) {
  auto args = std::make_shared<JudgeArgs>();
  CLI::App* sub = app.add_subcommand(
      "judge",
      "Judge run records again by today's expectation files, without a GPU: which verdicts change after the files "
      "move (exit 0 nothing fails, 1 something does, 2 unusable input)");
  sub->add_option("records", args->records, "Run records (gpuconform-run.jsonl, evidence files; xz-compressed too)")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory")->capture_default_str();
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last");
  sub->add_option("--policy", args->policy,
                  "Band policy whose [[supersede]] rules leave out lines measured before a probe's fix "
                  "(default: <expectations>/evidence/policy.toml when it exists)")
      ->check(CLI::ExistingFile);
  sub->add_flag("--no-policy", args->no_policy, "Judge every line, superseded ones too");
  sub->add_flag("--all", args->all, "Print every judged line, not only those whose verdict changed");
  sub->add_option("--filter", args->filter, "Judge only probes whose id matches one of these globs");
  sub->add_flag("--json", args->json,
                "Print one JSON document: per file, each board's counts and the lines shown (same exit codes)");
  sub->footer(
      "Each value is judged as `run` judged it (its level, sampling interval, SASS, waiver). What needed the GPU "
      "is the run's: a fail it measured again and found transient, or saw under a disturbance the throttle policy "
      "forgives, stays a warn; a throttle fault stays a fail.");
  return [args] { return judge_records(*args); };
}

}  // namespace gpuconform::cli
