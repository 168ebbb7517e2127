// SPDX-License-Identifier: Apache-2.0
// `gpuconform report RUN.jsonl [--baseline OTHER.jsonl] --html FILE | --md FILE`: one
// self-contained file that shows what a run record holds (harness/report/include/gpuconform/report.hpp).
// No GPU needed. Exit 0 written, 2 unusable input or an unwritable output.
#include <fmt/format.h>

#include "commands.hpp"
#include "gpuconform/atomic_file.hpp"
#include "gpuconform/report.hpp"
#include "gpuconform/run_compare.hpp"

namespace gpuconform::cli {
namespace {

struct ReportArgs {
  std::string record, baseline, html, md;
  double threshold = 0.02;
};

int report(const ReportArgs& a) {
  try {
    if (a.html.empty() && a.md.empty()) throw std::invalid_argument("say where to write it: --html FILE or --md FILE");
    const report::RecordData data = report::load_record(a.record);
    if (data.entries.empty())
      throw std::runtime_error(fmt::format("{} holds no test line: nothing to report", a.record));
    report::Options o;
    o.threshold = a.threshold;
    if (!a.baseline.empty()) {
      o.baseline_path = a.baseline;
      Pairing pairing;
      pairing.pair_single_boards = true;  // a report against another board's record says so in its header
      o.baseline = compare_boards(read_run_record(a.baseline), read_run_record(a.record), a.threshold, pairing);
    }
    if (!a.html.empty()) write_file_atomically(a.html, report::render_html(data, o));
    if (!a.md.empty()) write_file_atomically(a.md, report::render_markdown(data, o));
    for (const auto& path : {a.html, a.md})
      if (!path.empty()) fmt::print("report of {} ({} test lines) written to {}\n", a.record, data.entries.size(), path);
    return kExitOk;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform report: {}\n", e.what());
    return kExitUnusable;
  }
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand(
      "report", "A self-contained HTML (inline SVG, no script, no network reference) or Markdown report of a run "
                "record: verdicts per family, values against bands, curves, heat maps, numeric models, deltas "
                "against a baseline (exit 0 written, 2 unusable input)");
  sub->add_option("record", args->record, "Run record (JSON lines)")->required()->check(CLI::ExistingFile);
  sub->add_option("--baseline", args->baseline, "A run record to show deltas against (boards paired as compare does)")
      ->check(CLI::ExistingFile);
  sub->add_option("--threshold", args->threshold, "Baseline deltas: relative change allowed beyond the noise")
      ->check(CLI::Range(0.0, 10.0))
      ->capture_default_str();
  sub->add_option("--html", args->html, "Write the HTML report here");
  sub->add_option("--md", args->md, "Write the Markdown report here");
  return [args] { return report(*args); };
}

}  // namespace gpuconform::cli
