#include "gpuconform/record_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out + "\"";
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

// Rounds a tolerance up to two significant digits, so files stay readable
// and the band never shrinks below what was measured.
double round_up_2sig(double x) {
  if (x <= 0) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 1);
  return std::ceil(x / scale - 1e-9) * scale;
}

}  // namespace

Expectation derive_expectation(const Probe& probe, const std::vector<Measurement>& runs,
                               const std::string& source) {
  return derive_expectation_across(probe, {runs}, source);
}

Expectation derive_expectation_across(const Probe& probe, const std::vector<std::vector<Measurement>>& machines,
                                      const std::string& source, const std::vector<std::string>& others) {
  std::vector<Measurement> runs;
  std::vector<double> medians;
  double worst = 0;  // largest deviation of a run from its own GPU's median
  for (const auto& machine : machines) {
    if (machine.empty()) continue;
    std::vector<double> values;
    for (const Measurement& m : machine) values.push_back(m.value), runs.push_back(m);
    const double mid = median(values);
    medians.push_back(mid);
    for (double v : values) worst = std::max(worst, std::fabs(v - mid));
  }
  if (runs.empty()) throw std::invalid_argument("derive_expectation needs at least one run");
  Expectation e;
  e.probe_id = probe.id;
  e.kind = probe.record.kind;
  e.unit = runs.front().unit;
  e.source = source;
  std::vector<double> values;
  for (const Measurement& m : runs) values.push_back(m.value);
  const auto [lo, hi] = std::minmax_element(medians.begin(), medians.end());
  const std::string where = machines.size() > 1 ? fmt::format(" on {} GPUs", medians.size()) : "";
  switch (e.kind) {
    case ExpectationKind::band: {
      // Three times the largest deviation seen across runs, but never below the probe's
      // floor (a deterministic latency still gets ±0.25 cycle); GPUs of one SKU that
      // differ widen it by half again their spread.
      const double mid = (*lo + *hi) / 2, half_spread = (*hi - *lo) / 2;
      const double tol = std::max({probe.record.min_tol, probe.record.min_tol_rel * std::fabs(mid),
                                   3 * worst + 1.5 * half_spread});
      e.value = std::round(mid * 1000) / 1000;
      e.tol = round_up_2sig(tol);
      if (medians.size() > 1) {
        std::string list;
        for (double m : medians) list += (list.empty() ? "" : ", ") + fmt::format("{:.4g}", m);
        e.note = fmt::format("{} runs{}, per-GPU medians {}; largest deviation within a GPU {:.4g} {}",
                             runs.size(), where, list, worst, e.unit);
      } else {
        e.note = fmt::format("median of {} runs; largest deviation {:.4g} {}", runs.size(), worst, e.unit);
      }
      break;
    }
    case ExpectationKind::fraction_of_peak: {
      double lowest = 1e300;
      for (const Measurement& m : runs) {
        if (!m.peak || *m.peak <= 0) throw std::runtime_error(probe.id + ": the probe reported no peak");
        lowest = std::min(lowest, m.value / *m.peak);
      }
      e.min_fraction = std::floor(lowest * (1 - probe.record.fraction_margin) * 100) / 100;
      e.note = fmt::format("lowest of {} runs{} was {:.3f} of peak; margin {:.0f}%", runs.size(), where, lowest,
                           probe.record.fraction_margin * 100);
      break;
    }
    case ExpectationKind::exact: {
      for (const Measurement& m : runs)
        if (m.value != 0) {
          const std::string* first = m.find_note("first_mismatch");
          throw std::runtime_error(fmt::format("{}: {} of {} outputs differ from model {}{}", probe.id, m.value,
                                               m.compared, m.find_note("model") ? *m.find_note("model") : "?",
                                               first ? "; first: " + *first : ""));
        }
      const std::string* model = runs.front().find_note("model");
      if (!model) throw std::runtime_error(probe.id + ": the probe did not name its model");
      e.model = *model;
      e.note = fmt::format("{} outputs matched bit for bit", runs.front().compared);
      break;
    }
    case ExpectationKind::min: e.min = *std::min_element(values.begin(), values.end()); break;
    case ExpectationKind::max: e.max = *std::max_element(values.begin(), values.end()); break;
    case ExpectationKind::info: e.note = fmt::format("recorded {}", number(median(values))); break;
  }
  if (!others.empty()) {
    std::string list;
    for (const auto& o : others) list += (list.empty() ? "" : ", ") + o;
    e.note += (e.note.empty() ? "" : "; ") + std::string("also ") + list;
  }
  return e;
}

std::string render_expectation_file(const ExpectationFile& file) {
  std::string out = "# gpuconform expectations. Written by `gpuconform record`; edit with care:\n"
                    "# every value cites the run record line it came from.\n\n[meta]\n";
  if (!file.arch.empty()) out += "arch = " + quoted(file.arch) + "\n";
  if (!file.sku.empty()) out += "sku = " + quoted(file.sku) + "\n";
  if (!file.description.empty()) out += "description = " + quoted(file.description) + "\n";
  for (const Expectation& e : file.entries) {
    out += fmt::format("\n[probe.{}]\nkind = {}\n", quoted(e.probe_id), quoted(kind_name(e.kind)));
    if (e.value) out += "value = " + number(*e.value) + "\n";
    if (e.tol) out += "tol = " + number(*e.tol) + "\n";
    if (e.tol_rel) out += "tol_rel = " + number(*e.tol_rel) + "\n";
    if (e.min) out += "min = " + number(*e.min) + "\n";
    if (e.max) out += "max = " + number(*e.max) + "\n";
    if (e.min_fraction) out += "min_fraction = " + number(*e.min_fraction) + "\n";
    if (!e.model.empty()) out += "model = " + quoted(e.model) + "\n";
    out += "unit = " + quoted(e.unit) + "\n";
    out += "source = " + quoted(e.source) + "\n";
    if (!e.note.empty()) out += "note = " + quoted(e.note) + "\n";
  }
  for (const Waiver& w : file.waivers) {
    out += "\n[[waiver]]\ntests = " + quoted(w.tests) + "\ndevices = [";
    for (std::size_t i = 0; i < w.devices.size(); ++i) out += (i ? ", " : "") + quoted(w.devices[i]);
    out += "]\nreason = " + quoted(w.reason) + "\nlink = " + quoted(w.link) + "\n";
  }
  return out;
}

}  // namespace gpuconform
