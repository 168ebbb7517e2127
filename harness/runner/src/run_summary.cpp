// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <map>

#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

using nlohmann::json;

// The four verdicts in the order every count object lists them.
constexpr std::array<Outcome, 4> kOutcomes = {Outcome::pass, Outcome::warn, Outcome::fail, Outcome::skip};

json zero_counts() {
  json c = json::object();
  for (Outcome o : kOutcomes) c[outcome_name(o)] = 0;
  return c;
}

void count(json& counts, Outcome o) { counts[outcome_name(o)] = counts[outcome_name(o)].get<int>() + 1; }

std::string probe_id(const TestResult& r) { return r.probe ? r.probe->id : std::string("(unknown probe)"); }

// The first `n` bytes of `s`, cut back to a UTF-8 character boundary (reasons hold "±").
std::string utf8_prefix(const std::string& s, std::size_t n) {
  if (n >= s.size()) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

}  // namespace

std::string result_code(const TestResult& r) {
  auto starts = [&](const char* prefix) { return r.verdict.reason.rfind(prefix, 0) == 0; };
  switch (r.verdict.outcome) {
    case Outcome::skip: return starts(kRunTimeoutPrefix) ? "run_timeout" : "";
    case Outcome::fail: return starts(kProbeTimeoutPrefix) ? "probe_timeout" : "probe_failed";
    default: return "";
  }
}

std::string exit_meaning(int code) {
  switch (code) {
    case 0: return "ok";
    case 1: return "failed";
    case 2: return "unusable";
    case 3: return "busy";
    case 77: return "nothing_judged";
    default: return fmt::format("exit {}", code);
  }
}

std::string utc_iso(std::chrono::system_clock::time_point t) {
  return utc_time(std::chrono::system_clock::to_time_t(t));
}

json run_summary_json(const RunOutcome& o) {
  json totals = zero_counts();
  json gpus = json::array();
  json non_pass = json::array();
  int unopened = 0, not_run = 0;
  for (const GpuRun& g : o.gpus) {
    json gpu = {{"index", g.index}};
    if (g.device) {
      gpu["uuid"] = g.device->uuid;
      gpu["name"] = g.device->name;
      gpu["arch"] = g.device->arch();
      gpu["sku"] = g.device->sku();
      gpu["pci_bus_id"] = g.device->pci_bus_id;
      gpu["driver"] = g.device->driver_version;
    }
    if (!g.open_error.empty()) {
      ++unopened;
      gpu["open_error"] = g.open_error;
    }
    json counts = zero_counts();
    std::map<std::string, json> groups;
    for (const TestResult& r : g.results) {
      const Outcome v = r.verdict.outcome;
      count(totals, v);
      count(counts, v);
      auto [it, added] = groups.try_emplace(probe_group(probe_id(r)), zero_counts());
      count(it->second, v);
      if (v != Outcome::pass) {
        json entry = {{"gpu_index", g.index},       {"gpu_uuid", g.device ? g.device->uuid : std::string()},
                      {"probe", probe_id(r)},       {"group", probe_group(probe_id(r))},
                      {"verdict", outcome_name(v)}, {"reason", r.verdict.reason}};
        const std::string code = result_code(r);
        if (!code.empty()) entry["code"] = code;
        if (code == "run_timeout") ++not_run;
        non_pass.push_back(std::move(entry));
      }
    }
    gpu["counts"] = counts;
    gpu["groups"] = json(groups);
    gpus.push_back(gpu);
  }
  // Fails before warns before skips, each in result order: what an operator reads first.
  std::stable_sort(non_pass.begin(), non_pass.end(), [](const json& a, const json& b) {
    auto rank = [](const json& j) {
      const std::string v = j.at("verdict").get<std::string>();
      return v == "fail" ? 0 : v == "warn" ? 1 : 2;
    };
    return rank(a) < rank(b);
  });
  const double wall = std::chrono::duration<double>(o.finished - o.started).count();
  json summary = {{"schema_version", kRunSummarySchemaVersion},
          {"run_id", o.run.run_id},
          {"host", o.run.host},
          {"command_line", o.run.command_line},
          {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
          {"started", utc_iso(o.started)},
          {"finished", utc_iso(o.finished)},
          {"wall_seconds", wall},
          {"exit_code", o.exit_code},
          {"result", exit_meaning(o.exit_code)},
          {"files", {{"record", o.record_path}, {"junit", o.junit_paths}, {"summary", o.summary_path}}},
          {"totals", totals},
          {"gpus_tested", o.gpus.size()},
          {"gpus_unopened", unopened},
          {"gpus", gpus},
          {"non_pass", non_pass}};
  if (o.timeout_s) summary["timeout"] = {{"seconds", *o.timeout_s}, {"expired", not_run > 0}, {"not_run", not_run}};
  if (o.error) {
    const RunErrorClass& c = run_error_class(o.error->code);
    summary["error"] = {{"code", c.code}, {"severity", c.severity}, {"message", o.error->message},
                        {"next_step", c.next_step}};
  }
  return summary;
}

std::string termination_message(const RunOutcome& o, std::size_t max_bytes) {
  const json s = run_summary_json(o);
  const json& t = s.at("totals");
  std::string out = fmt::format(
      "gpuconform {} (exit {}): {} pass, {} warn, {} fail, {} skip on {} GPU(s){}{}; run {}\n",
      s.at("result").get<std::string>(), o.exit_code, t.at("pass").get<int>(), t.at("warn").get<int>(),
      t.at("fail").get<int>(), t.at("skip").get<int>(), o.gpus.size(),
      s.at("gpus_unopened").get<int>() ? fmt::format(", {} not opened", s.at("gpus_unopened").get<int>()) : "",
      s.contains("timeout") && s["timeout"].at("expired").get<bool>()
          ? fmt::format(", {} not run (--timeout {:g} s expired)", s["timeout"].at("not_run").get<int>(),
                        s["timeout"].at("seconds").get<double>())
          : "",
      o.run.run_id);
  if (o.error) {  // line 2, whole (up to a quarter of the log): the one reason a run that could not run has
    const RunErrorClass& c = run_error_class(o.error->code);
    std::string line = fmt::format("error {} ({}): {}; next step: {}", c.code, c.severity, o.error->message,
                                   c.next_step);
    for (char& ch : line)
      if (ch == '\n' || ch == '\r') ch = ' ';
    if (line.size() > max_bytes / 4) line = utf8_prefix(line, max_bytes / 4 - 3) + "...";
    out += line + "\n";
  }
  std::vector<std::string> lines;
  for (const GpuRun& g : o.gpus)
    if (!g.open_error.empty()) lines.push_back("fail " + g.open_error);
  for (const json& n : s.at("non_pass")) {
    if (n.at("verdict") == "skip") continue;  // skips are counted above; their reasons are in summary.json
    const std::string uuid = n.at("gpu_uuid").get<std::string>();
    lines.push_back(fmt::format("{} {} ({}): {}", n.at("verdict").get<std::string>(), n.at("probe").get<std::string>(),
                                uuid.empty() ? fmt::format("GPU {}", n.at("gpu_index").get<int>()) : uuid.substr(0, 12),
                                n.at("reason").get<std::string>()));
  }
  constexpr std::size_t kLineMax = 240;  // a long numeric reason must not crowd out the others
  if (out.size() > max_bytes) return utf8_prefix(out, max_bytes);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    if (line.size() > kLineMax) line = utf8_prefix(line, kLineMax - 3) + "...";
    line += '\n';
    const std::size_t left = lines.size() - i - 1;
    const std::string more = fmt::format("... {} more (summary.json)\n", left + 1);
    // Keep room for the "more" line unless this is the last line.
    if (out.size() + line.size() + (left ? more.size() : 0) > max_bytes) {
      if (out.size() + more.size() <= max_bytes) out += more;
      break;
    }
    out += line;
  }
  return out;
}

}  // namespace gpuconform
