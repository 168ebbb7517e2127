// SPDX-License-Identifier: Apache-2.0
// The Markdown report: the same sections as the HTML one, as tables (curves and maps as
// their numbers), for a pull request, a ticket or a terminal.
#include <fmt/format.h>

#include <algorithm>

#include "gpuconform/report.hpp"
#include "gpuconform/report_model.hpp"

namespace gpuconform::report {
namespace {

// A table cell: no pipe or line break may end the cell early, no markup reaches a viewer.
std::string cell(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '<') out += "&lt;";  // no raw HTML through a Markdown viewer
    else if (c == '>') out += "&gt;";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

// A table cell in a code span: literal text (no entities), pipes still escaped; text with
// a backtick of its own is written as a plain cell.
std::string code(const std::string& s) {
  if (s.find('`') != std::string::npos) return cell(s);
  std::string out = "`";
  for (const char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "`";
}

void counts_table(std::string& m, const RecordData& r) {
  const VerdictCounts counts = verdict_counts(r);
  m += "| family |";
  for (const auto& g : r.gpus) m += fmt::format(" {} |", cell(short_gpu(g)));
  m += "\n|---|";
  for (std::size_t i = 0; i < r.gpus.size(); ++i) m += "---|";
  m += "\n";
  for (const std::string& f : families(r)) {
    m += fmt::format("| {} |", cell(f));
    for (const auto& g : r.gpus) {
      const auto it = counts.at(f).find(g);
      std::string text;
      if (it == counts.at(f).end()) text = "not run";
      else
        for (const auto& [v, n] : it->second) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", n, v);
      m += fmt::format(" {} |", cell(text));
    }
    m += "\n";
  }
  const auto bad = non_pass(r);
  if (bad.empty()) {
    m += "\nEvery test line passed (or was recorded).\n";
    return;
  }
  m += fmt::format("\nNot passed ({}):\n\n| verdict | probe | board | reason |\n|---|---|---|---|\n", bad.size());
  for (const Entry* x : bad)
    m += fmt::format("| {} | {} | {} | {} |\n", cell(x->verdict), code(x->probe), cell(short_gpu(x->gpu)), cell(x->reason));
}

void bands(std::string& m, const RecordData& r) {
  for (const std::string& f : families(r)) {
    const auto rows = strip_rows(r, f);
    m += fmt::format("\n### {}\n\n", f);
    if (rows.empty()) {
      m += "Absent: no measured value in this family.\n";
      continue;
    }
    m += "| probe | median | band | where the median lies | runs | worst verdict |\n|---|---:|---|---|---:|---|\n";
    for (const StripRow& row : rows) {
      std::vector<double> v;
      for (const auto& p : row.points) v.push_back(p.value);
      std::sort(v.begin(), v.end());
      const double med = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
      m += fmt::format("| {} | {} | {} | {} | {} | {} |\n", code(row.label), cell(row.value_text),
                       cell(band_text(row, row.unit)), position_text(row, med),
                       row.points.size(), cell(row.verdict));
    }
  }
}

void curves(std::string& m, const std::vector<CurveChart>& charts) {
  for (const CurveChart& c : charts) {
    m += fmt::format("\n**{}** ({} against {})\n\n", cell(c.title), cell(c.axes.y_name), cell(c.axes.x_name));
    for (const Marker& k : c.markers) m += fmt::format("- marked: {}\n", cell(k.label));
    if (!c.markers.empty()) m += "\n";
    m += fmt::format("| board | {} ({}) | {} ({}) |\n|---|---:|---:|\n", cell(c.axes.x_name), cell(c.axes.x_unit),
                     cell(c.axes.y_name), cell(c.axes.y_unit));
    for (const Curve& cv : c.curves)
      for (std::size_t i = 0; i < std::min(cv.x.size(), cv.y.size()); ++i)
        m += fmt::format("| {} | {} | {} |\n", cell(cv.label), cell(format_quantity(cv.x[i], c.axes.x_unit)),
                         cell(format_quantity(cv.y[i], c.axes.y_unit)));
  }
}

void maps(std::string& m, const std::vector<HeatMap>& maps) {
  for (const HeatMap& h : maps) {
    const Matrix& x = h.m;
    m += fmt::format("\n**{}**: {} ({}), rows {} ({}), columns {} ({})\n\n", cell(h.title), cell(x.value_name),
                     cell(x.value_unit), cell(x.row_name), cell(x.row_unit), cell(x.col_name), cell(x.col_unit));
    m += "| |";
    for (double c : x.cols) m += fmt::format(" {} |", cell(format_quantity(c, "")));
    m += "\n|---|";
    for (std::size_t c = 0; c < x.cols.size(); ++c) m += "---:|";
    m += "\n";
    for (std::size_t r = 0; r < x.rows.size(); ++r) {
      m += fmt::format("| **{}** |", cell(format_quantity(x.rows[r], "")));
      for (std::size_t c = 0; c < x.cols.size(); ++c) m += fmt::format(" {} |", cell(format_quantity(x.at(r, c), "")));
      m += "\n";
    }
  }
}

}  // namespace

std::string render_markdown(const RecordData& r, const Options& o) {
  std::string m = fmt::format("# gpuconform report\n\nRun record {}: {} test lines", code(r.path), r.entries.size());
  if (r.other_lines) m += fmt::format(" (and {} lines of other kinds, not shown)", r.other_lines);
  if (!r.suite_commit.empty()) m += fmt::format(", suite commit {}", code(r.suite_commit));
  m += ".\n\n| board | UUID | name | driver |\n|---|---|---|---|\n";
  for (const auto& g : r.gpus)
    for (const Entry& x : r.entries)
      if (x.gpu == g) {
        m += fmt::format("| {} | {} | {} | {} |\n", cell(short_gpu(g)), code(g), cell(x.gpu_name), cell(x.driver));
        break;
      }
  const auto secs = sections(r, o);
  m += "\nSections:";
  for (const Section& s : secs) m += fmt::format(" {}{};", s.title, s.present ? "" : " (absent)");
  m.back() = '.';
  m += " Charts are in the HTML report (`--html`); here their numbers.\n";
  for (const Section& s : secs) {
    m += fmt::format("\n## {}\n\n", s.title);
    if (!s.present) {
      m += fmt::format("Absent: {}.\n", s.absent_why);
      continue;
    }
    if (s.id == "summary") counts_table(m, r);
    else if (s.id == "bands") bands(m, r);
    else if (s.id == "staircase") curves(m, curve_charts(r, "latency"));
    else if (s.id == "tensor") maps(m, heat_maps(r, "throughput"));
    else if (s.id == "throughput-curves") curves(m, curve_charts(r, "throughput"));
    else if (s.id == "topology") {
      curves(m, curve_charts(r, "topology"));
      maps(m, heat_maps(r, "topology"));
    } else if (s.id == "other") {
      maps(m, heat_maps(r, "latency"));
      for (const std::string& f : families(r))
        if (f != "latency" && f != "throughput" && f != "topology") {
          curves(m, curve_charts(r, f));
          maps(m, heat_maps(r, f));
        }
    } else if (s.id == "numeric") {
      m += "| probe | board | model | runs | outputs compared | mismatches (worst run) | verdict |\n"
           "|---|---|---|---:|---:|---:|---|\n";
      for (const NumericRow& n : numeric_rows(r))
        m += fmt::format("| {} | {} | {} | {} | {} | {:g} | {} |\n", code(n.probe), cell(short_gpu(n.gpu)),
                         code(n.model.empty() ? "(not recorded)" : n.model), n.runs, n.compared, n.mismatches,
                         cell(n.verdict));
    } else if (s.id == "deltas") {
      const PairedComparison& p = *o.baseline;
      m += fmt::format("Against {}: {} board pair(s), **{} MOVED**, {} changed verdict.\n", code(o.baseline_path),
                       p.pairs.size(), p.moved_count(), p.verdicts_changed());
      for (const BoardPair& bp : p.pairs) {
        m += fmt::format("\n### {} → {}\n\n", cell(short_gpu(bp.baseline_gpu)), cell(short_gpu(bp.candidate_gpu)));
        int same = 0;
        bool head = false;
        for (const ProbeDelta& d : bp.comparison.probes) {
          if (d.judgement == Judgement::Same && !d.verdict_changed) {
            ++same;
            continue;
          }
          if (!head) m += "| probe | baseline | candidate | change | unit | judgement | verdict change |\n|---|---:|---:|---:|---|---|---|\n";
          head = true;
          m += fmt::format("| {} | {:.6g} ± {:.2g} | {:.6g} ± {:.2g} | {:+.2f}% | {} | {} | {} |\n", code(d.probe),
                           d.baseline, d.baseline_noise, d.candidate, d.candidate_noise, 100 * d.relative, cell(d.unit),
                           d.change(), d.verdict_changed ? cell(d.baseline_verdict + " → " + d.candidate_verdict) : "");
        }
        m += fmt::format("{}{} of {} probes SAME.\n", head ? "\n" : "", same, bp.comparison.probes.size());
      }
    }
  }
  return m;
}

}  // namespace gpuconform::report
