// SPDX-License-Identifier: Apache-2.0
// The HTML report: one file, inline CSS and SVG, no script, no font or image from
// anywhere (a node's report must open on an air-gapped laptop and leak nothing).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuconform/report.hpp"
#include "gpuconform/report_svg.hpp"
#include "gpuconform/report_model.hpp"

namespace gpuconform::report {
namespace {

constexpr const char* kCss = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1b1b1b;
 max-width:1140px;margin:24px auto;padding:0 16px;line-height:1.4;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;border-bottom:2px solid #ddd;padding-bottom:4px}
h3{font-size:15px;margin:18px 0 6px}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
th,td{border:1px solid #d0d0d0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
.meta{color:#555;font-size:13px}.absent{color:#666;font-style:italic}
.swatch{display:inline-block;width:10px;height:10px;border-radius:5px;margin-right:4px}
ul.toc{font-size:14px;columns:2}
svg{display:block;margin:6px 0 14px;overflow:visible}svg.bar{display:block;margin:2px 0 3px}td.counts{font-size:12px;min-width:150px}
svg text{font-family:system-ui,"DejaVu Sans",sans-serif}
.ct{font-size:13px;font-weight:600;fill:#1b1b1b}.tick{font-size:11px;fill:#333}.al{font-size:12px;fill:#1b1b1b}
.plot{fill:#fff;stroke:#999}.grid{stroke:#ebebeb}.curve{fill:none;stroke-width:1.8}
.mk{stroke:#444;stroke-dasharray:5 3;stroke-width:1}.mkl{font-size:11px;fill:#222}
.zebra{fill:#f7f7f7}.pn{font-size:11.5px;font-family:"DejaVu Sans Mono",Menlo,monospace;fill:#1b1b1b}
.sv{font-size:11px;fill:#1b1b1b}.bf{fill:#f4c7c3}.bw{fill:#fce8b2}.bp{fill:#b7e1cd}.nb{fill:#e6e6e6}.pv{font-size:11.5px;fill:#1b1b1b}
.cell{font-size:11px}.legend span{padding:0 3px;border-radius:3px;font-size:13px}
.v-fail,.v-error{color:#b00020;fill:#b00020;font-weight:600}.v-warn{color:#8a5a00;fill:#8a5a00;font-weight:600}
.v-skip{color:#666;fill:#666}.worse{color:#b00020;font-weight:600}.better{color:#1e7a3c;font-weight:600}
.moved{color:#1a5fb4;font-weight:600}.ambiguous{color:#8a5a00}
)";

std::string e(const std::string& s) { return html_escape(s); }

const char* verdict_colour(const std::string& v) {
  if (v == "pass") return "#2e7d32";
  if (v == "recorded") return "#607d8b";
  if (v == "warn") return "#f9a825";
  if (v == "fail" || v == "error") return "#c62828";
  if (v == "skip") return "#9e9e9e";
  return "#6a1b9a";
}

// A stacked bar of verdict counts: the summary's per-family, per-GPU cell.
std::string verdict_bar(const std::string& family, const std::map<std::string, int>& counts) {
  int total = 0;
  for (const auto& [v, n] : counts) total += n;
  if (total == 0) return {};
  constexpr double W = 160;
  std::string s = fmt::format("<svg class=\"bar\" data-family=\"{}\" width=\"{}\" height=\"12\" role=\"img\">", e(family), W);
  double x = 0;
  std::vector<std::pair<std::string, int>> ordered(counts.begin(), counts.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return verdict_rank(a.first) < verdict_rank(b.first); });
  for (const auto& [v, n] : ordered) {
    const double w = W * n / total;
    s += fmt::format("<rect x=\"{:.1f}\" y=\"0\" width=\"{:.1f}\" height=\"12\" fill=\"{}\"><title>{} {}</title></rect>", x,
                     std::max(w, 1.0), verdict_colour(v), n, e(v));
    x += w;
  }
  return s + "</svg>";
}

std::string counts_text(const std::map<std::string, int>& counts) {
  std::vector<std::pair<std::string, int>> ordered(counts.begin(), counts.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return verdict_rank(a.first) > verdict_rank(b.first); });
  std::string s;
  for (const auto& [v, n] : ordered)
    s += fmt::format("{}<span class=\"v-{}\">{} {}</span>", s.empty() ? "" : " · ", e(v), n, e(v));
  return s;
}

void header(std::string& h, const RecordData& r) {
  h += fmt::format("<h1>gpuconform report</h1><p class=\"meta\">run record <code>{}</code> · {} test lines",
                   e(r.path), r.entries.size());
  if (r.other_lines) h += fmt::format(" (and {} lines of other kinds, not drawn)", r.other_lines);
  if (!r.suite_commit.empty()) h += fmt::format(" · suite commit <code>{}</code>", e(r.suite_commit));
  std::string first, last;
  for (const Entry& x : r.entries)
    if (!x.time.empty()) {
      if (first.empty() || x.time < first) first = x.time;
      if (x.time > last) last = x.time;
    }
  if (!first.empty()) h += fmt::format(" · {} to {}", e(first), e(last));
  h += "</p>";
  h += "<table><tr><th>board</th><th>UUID</th><th>name</th><th>driver</th><th>CUDA runtime</th><th>test lines</th></tr>";
  for (std::size_t i = 0; i < r.gpus.size(); ++i) {
    const Entry* any = nullptr;
    int n = 0;
    for (const Entry& x : r.entries)
      if (x.gpu == r.gpus[i]) any = any ? any : &x, ++n;
    h += fmt::format("<tr><td><span class=\"swatch\" style=\"background:{}\"></span>{}</td><td><code>{}</code></td>"
                     "<td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td></tr>",
                     board_colour(static_cast<int>(i)), e(short_gpu(r.gpus[i])), e(r.gpus[i]), e(any->gpu_name),
                     e(any->driver), any->cuda_runtime ? fmt::format("{}.{}", any->cuda_runtime / 1000, any->cuda_runtime % 1000 / 10) : "",
                     n);
  }
  h += "</table>";
}

void summary(std::string& h, const RecordData& r) {
  const VerdictCounts counts = verdict_counts(r);
  h += "<table><tr><th>family</th>";
  for (const auto& g : r.gpus) h += fmt::format("<th>{}</th>", e(short_gpu(g)));
  h += "</tr>";
  for (const std::string& f : families(r)) {
    h += fmt::format("<tr><th>{}</th>", e(f));
    for (const auto& g : r.gpus) {
      const auto fit = counts.at(f).find(g);
      if (fit == counts.at(f).end()) {
        h += "<td class=\"absent\">not run</td>";
        continue;
      }
      h += fmt::format("<td class=\"counts\">{}{}</td>", verdict_bar(f, fit->second), counts_text(fit->second));
    }
    h += "</tr>";
  }
  h += "</table>";
  const auto bad = non_pass(r);
  if (bad.empty()) {
    h += "<p>Every test line passed (or was recorded).</p>";
    return;
  }
  h += fmt::format("<h3>Not passed ({})</h3><table><tr><th>verdict</th><th>probe</th><th>board</th><th>reason</th></tr>",
                   bad.size());
  constexpr std::size_t kShown = 60;
  for (std::size_t i = 0; i < std::min(bad.size(), kShown); ++i)
    h += fmt::format("<tr><td class=\"v-{0}\">{0}</td><td><code>{1}</code></td><td>{2}</td><td>{3}</td></tr>",
                     e(bad[i]->verdict), e(bad[i]->probe), e(short_gpu(bad[i]->gpu)), e(bad[i]->reason));
  h += "</table>";
  if (bad.size() > kShown) h += fmt::format("<p class=\"absent\">and {} more.</p>", bad.size() - kShown);
}

void bands(std::string& h, const RecordData& r) {
  h += "<p class=\"legend\">Each row is one probe on its own scale: <span style=\"background:#b7e1cd\">&nbsp;green&nbsp;</span>"
       " inside the drift band (or the fail band when there is none), <span style=\"background:#fce8b2\">&nbsp;amber&nbsp;</span>"
       " inside the fail band but outside the drift band (warn), <span style=\"background:#f4c7c3\">&nbsp;red&nbsp;</span>"
       " outside the fail band, <span style=\"background:#e6e6e6\">&nbsp;grey&nbsp;</span> no band (recorded values)."
       " A dot per run and board, coloured by board; hover for the value and reason."
       " Fraction-of-peak probes are drawn as their fraction.</p>";
  for (const std::string& f : families(r)) {
    const auto rows = strip_rows(r, f);
    h += fmt::format("<h3>{}</h3>", e(f));
    if (rows.empty())
      h += "<p class=\"absent\">Absent: no measured value in this family.</p>";
    else
      h += strip_chart_svg(f, rows);
  }
}

void curves(std::string& h, const std::vector<CurveChart>& charts) {
  for (const CurveChart& c : charts) h += line_chart_svg(c.family, c.title, c.axes, c.curves, c.markers);
}

void maps(std::string& h, const std::vector<HeatMap>& maps) {
  for (const HeatMap& m : maps) h += heat_map_svg(m.family, m.title, m.m);
}

void numeric(std::string& h, const RecordData& r) {
  h += "<table><tr><th>probe</th><th>board</th><th>model</th><th>runs</th><th>outputs compared</th>"
       "<th>mismatches (worst run)</th><th>verdict</th></tr>";
  for (const NumericRow& n : numeric_rows(r))
    h += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td class=\"num\">{}</td>"
                     "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"v-{}\">{}</td></tr>",
                     e(n.probe), e(short_gpu(n.gpu)), e(n.model.empty() ? "(not recorded)" : n.model), n.runs,
                     n.compared ? fmt::format("{}", n.compared) : "", fmt::format("{:g}", n.mismatches), e(n.verdict),
                     e(n.verdict));
  h += "</table>";
}

void deltas(std::string& h, const Options& o) {
  const PairedComparison& p = *o.baseline;
  h += fmt::format("<p>Against <code>{}</code>: {} board pair(s), <span class=\"{}\">{} MOVED</span>, {} changed verdict "
                   "(MOVED: beyond both sides' noise + {:.1f}% of the baseline; exact counts: any change).</p>",
                   e(o.baseline_path), p.pairs.size(), p.moved_count() ? "moved" : "", p.moved_count(),
                   p.verdicts_changed(), 100 * o.threshold);
  for (const BoardPair& bp : p.pairs) {
    const RunComparison& c = bp.comparison;
    h += fmt::format("<h3>{} → {}</h3><p class=\"meta\">baseline: {}<br>candidate: {}</p>", e(short_gpu(bp.baseline_gpu)),
                     e(short_gpu(bp.candidate_gpu)), e(c.baseline_setup), e(c.candidate_setup));
    std::string rows;
    int same = 0;
    for (const ProbeDelta& d : c.probes) {
      if (d.judgement == Judgement::Same && !d.verdict_changed) {
        ++same;
        continue;
      }
      // A move is coloured by its direction: WORSE red, BETTER green, MOVED (a two-sided
      // band: neither side is better) blue; AMBIGUOUS amber.
      const std::string change = d.change();
      const std::string cls = change == "WORSE"       ? "worse"
                              : change == "BETTER"    ? "better"
                              : change == "MOVED"     ? "moved"
                              : change == "AMBIGUOUS" ? "ambiguous"
                                                      : "";
      rows += fmt::format(
          "<tr><td><code>{}</code></td><td class=\"num\">{} ± {}</td><td class=\"num\">{} ± {}</td>"
          "<td class=\"num {}\">{:+.2f}%</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>",
          e(d.probe), e(format_quantity(d.baseline, "")), e(format_quantity(d.baseline_noise, "")),
          e(format_quantity(d.candidate, "")), e(format_quantity(d.candidate_noise, "")), cls, 100 * d.relative,
          e(d.unit), cls, e(change), d.verdict_changed ? e(d.baseline_verdict + " → " + d.candidate_verdict) : "");
    }
    if (!rows.empty())
      h += "<table><tr><th>probe</th><th>baseline</th><th>candidate</th><th>change</th><th>unit</th><th>judgement</th>"
           "<th>verdict change</th></tr>" + rows + "</table>";
    h += fmt::format("<p>{} of {} probes SAME", same, c.probes.size());
    if (!c.only_baseline.empty()) h += fmt::format("; {} only in the baseline", c.only_baseline.size());
    if (!c.only_candidate.empty()) h += fmt::format("; {} only in this run", c.only_candidate.size());
    h += ".</p>";
  }
  for (const auto& g : p.only_baseline_gpus) h += fmt::format("<p>Board <code>{}</code> only in the baseline.</p>", e(g));
  for (const auto& g : p.only_candidate_gpus) h += fmt::format("<p>Board <code>{}</code> only in this run.</p>", e(g));
}

}  // namespace

std::string render_html(const RecordData& r, const Options& o) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  h += fmt::format("<title>gpuconform report: {}</title><style>{}</style></head><body>\n", e(r.path), kCss);
  header(h, r);
  const auto secs = sections(r, o);
  h += "<ul class=\"toc\">";
  for (const Section& s : secs)
    h += s.present ? fmt::format("<li><a href=\"#{}\">{}</a></li>", s.id, e(s.title))
                   : fmt::format("<li class=\"absent\">{}: absent</li>", e(s.title));
  h += "</ul>\n";
  for (const Section& s : secs) {
    h += fmt::format("<section id=\"{}\"><h2>{}</h2>", s.id, e(s.title));
    if (!s.present) {
      h += fmt::format("<p class=\"absent\">Absent: {}.</p></section>\n", e(s.absent_why));
      continue;
    }
    if (s.id == "summary") summary(h, r);
    else if (s.id == "bands") bands(h, r);
    else if (s.id == "staircase") {
      h += "<p>Pointer-chase latency against the footprint chased. Dashed lines: the L2 size the device reports, the edge "
           "the capacity-edge probe measured, and the L1 hit, L2 hit and HBM latencies of this record where they fall "
           "in the chart.</p>";
      curves(h, curve_charts(r, "latency"));
    } else if (s.id == "tensor") {
      maps(h, heat_maps(r, "throughput"));
    } else if (s.id == "throughput-curves") {
      curves(h, curve_charts(r, "throughput"));
    } else if (s.id == "topology") {
      curves(h, curve_charts(r, "topology"));
      maps(h, heat_maps(r, "topology"));
    } else if (s.id == "other") {
      maps(h, heat_maps(r, "latency"));
      for (const std::string& f : families(r))
        if (f != "latency" && f != "throughput" && f != "topology") {
          curves(h, curve_charts(r, f));
          maps(h, heat_maps(r, f));
        }
    } else if (s.id == "numeric") numeric(h, r);
    else if (s.id == "deltas") deltas(h, o);
    h += "</section>\n";
  }
  h += "</body></html>\n";
  return h;
}

}  // namespace gpuconform::report
