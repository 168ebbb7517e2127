// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/report_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>

namespace gpuconform::report {
namespace {

bool finite(double v) { return std::isfinite(v); }

// "http:" or "https:" (any case) starting at text[i]: the length up to the colon, else 0.
std::size_t url_scheme_at(std::string_view text, std::size_t i) {
  auto lower_is = [&](std::size_t at, std::string_view word) {
    if (at + word.size() > text.size()) return false;
    for (std::size_t k = 0; k < word.size(); ++k)
      if (std::tolower(static_cast<unsigned char>(text[at + k])) != word[k]) return false;
    return true;
  };
  if (lower_is(i, "https:")) return 5;
  if (lower_is(i, "http:")) return 4;
  return 0;
}

bool is_byte_unit(const std::string& unit) { return unit == "B" || unit == "bytes"; }

// SI prefixes only where the unit has none yet and reads well with one: no "kMHz", no
// "kcycles", no "kFLOP/clk/SM" (such values print as plain numbers).
bool takes_si_prefix(const std::string& unit) {
  if (unit.empty() || unit == "Hz") return true;
  return unit.size() > 2 && unit.compare(unit.size() - 2, 2, "/s") == 0 && unit.find("/clk") == std::string::npos;
}

std::string g(double v) { return fmt::format("{:.1f}", v); }  // pixel coordinates

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const std::size_t n = url_scheme_at(text, i)) {
      out.append(text.substr(i, n));
      out += "&#58;";
      i += n;  // past the colon
      continue;
    }
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          out += "\xEF\xBF\xBD";  // U+FFFD
        else
          out += c;
    }
  }
  return out;
}

std::string format_quantity(double value, const std::string& unit) {
  if (!finite(value)) return unit.empty() ? "n/a" : "n/a " + unit;
  const double a = std::fabs(value);
  std::string number, prefix;
  if (is_byte_unit(unit) && a >= 1024) {
    static constexpr std::array<const char*, 5> kBin = {"Ki", "Mi", "Gi", "Ti", "Pi"};
    double v = value;
    std::size_t k = 0;
    for (v /= 1024; std::fabs(v) >= 1024 && k + 1 < kBin.size(); ++k) v /= 1024;
    number = fmt::format("{:.4g}", v);
    prefix = kBin[k];
  } else if (!is_byte_unit(unit) && a >= 1e3 && takes_si_prefix(unit)) {
    static constexpr std::array<const char*, 6> kSi = {"k", "M", "G", "T", "P", "E"};
    double v = value / 1e3;
    std::size_t k = 0;
    for (; std::fabs(v) >= 1e3 && k + 1 < kSi.size(); ++k) v /= 1e3;
    number = fmt::format("{:.4g}", v);
    prefix = kSi[k];
  } else {
    number = fmt::format("{:.4g}", value);
  }
  const std::string u = is_byte_unit(unit) ? "B" : unit;
  if (u.empty()) return prefix.empty() ? number : number + prefix;
  return number + " " + prefix + u;
}

std::string axis_number(double value, const std::string& unit) {
  if (is_byte_unit(unit)) return format_quantity(value, "B");
  if (takes_si_prefix(unit)) return format_quantity(value, "");
  return fmt::format("{:.5g}", value);
}

double Scale::operator()(double v) const {
  double t;
  if (log) {
    const double l0 = std::log(d0), l1 = std::log(d1);
    t = l1 == l0 ? 0.5 : (std::log(std::max(v, std::numeric_limits<double>::min())) - l0) / (l1 - l0);
  } else {
    t = d1 == d0 ? 0.5 : (v - d0) / (d1 - d0);
  }
  return r0 + t * (r1 - r0);
}

std::vector<double> nice_ticks(double lo, double hi, int max_count) {
  if (!finite(lo) || !finite(hi)) return {};
  if (hi < lo) std::swap(lo, hi);
  if (lo == hi) return {lo};
  max_count = std::max(max_count, 2);
  const double raw = (hi - lo) / (max_count - 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (const double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * mag;
    if (std::floor(hi / step) - std::ceil(lo / step) + 1 <= max_count) break;
  }
  std::vector<double> out;
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; k += 1) {
    const double v = k * step;
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  if (out.size() < 2) out = {lo, hi};  // a step coarser than the range: its ends
  return out;
}

std::vector<double> log_ticks(double lo, double hi, bool byte_axis, int max_count) {
  if (!(lo > 0) || !(hi > lo) || !finite(hi)) return {};
  const double base = byte_axis ? 2.0 : 10.0;
  const double e0 = std::ceil(std::log(lo) / std::log(base) - 1e-9), e1 = std::floor(std::log(hi) / std::log(base) + 1e-9);
  const int n = static_cast<int>(e1 - e0) + 1;
  if (n < 2) return nice_ticks(lo, hi, max_count);  // less than one step of the base: linear ticks
  const int every = (n + max_count - 1) / std::max(max_count, 1);
  std::vector<double> out;
  for (double e = e0; e <= e1; e += every) out.push_back(std::pow(base, e));
  return out;
}

std::vector<double> byte_ticks(double lo, double hi, int max_count) {
  // Round in the binary unit the range reads in (100 KiB, 200 KiB; not 97.66 KiB).
  double unit = 1;
  while (std::max(std::fabs(lo), std::fabs(hi)) / unit >= 1024 && unit < 1125899906842624.0) unit *= 1024;
  auto t = nice_ticks(lo / unit, hi / unit, max_count);
  for (double& v : t) v *= unit;
  return t;
}

bool wants_log(const std::vector<double>& values) {
  if (values.empty()) return false;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return *lo > 0 && finite(*hi) && *hi / *lo >= 16;
}

double heat_fraction(double v, double lo, double hi) {
  if (!finite(v)) return std::numeric_limits<double>::quiet_NaN();
  if (!(hi > lo)) return 0.5;
  return std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
}

std::string heat_colour(double t) {
  if (std::isnan(t)) return "#bbbbbb";
  // viridis at 0, 1/4, 1/2, 3/4, 1 (matplotlib's colour map), interpolated in RGB.
  static constexpr std::array<std::array<int, 3>, 5> kStops = {
      {{0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}}};
  t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
  const double f = t - i;
  std::array<int, 3> c{};
  for (int k = 0; k < 3; ++k) c[k] = static_cast<int>(std::lround(kStops[i][k] + f * (kStops[i + 1][k] - kStops[i][k])));
  return fmt::format("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
}

const char* board_colour(int i) {
  // Okabe and Ito's colour-blind-safe set, darkest first.
  static constexpr std::array<const char*, 7> kColours = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                          "#e69f00", "#56b4e9", "#000000"};
  return kColours[static_cast<std::size_t>(std::max(i, 0)) % kColours.size()];
}

// ---------------------------------------------------------------------------------------
// Line chart

namespace {

std::string axis_label(const std::string& name, const std::string& unit) {
  return unit.empty() ? name : fmt::format("{} ({})", name, unit);
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!finite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

// A linear domain padded by 5% (a flat curve gets +-5% of its value, or +-1).
Scale linear_scale(Range r, double r0, double r1) {
  double span = r.hi - r.lo;
  if (span <= 0) span = r.lo != 0 ? std::fabs(r.lo) * 0.1 : 2;
  return {r.lo - 0.05 * span, r.hi + 0.05 * span, r0, r1, false};
}

Scale log_scale(Range r, double r0, double r1) { return {r.lo / 1.15, r.hi * 1.15, r0, r1, true}; }

}  // namespace

std::string line_chart_svg(const std::string& family, const std::string& title, const Series& axes,
                           const std::vector<Curve>& curves, const std::vector<Marker>& markers) {
  Range xr, yr;
  std::vector<double> all_x;
  for (const Curve& c : curves)
    for (std::size_t i = 0; i < std::min(c.x.size(), c.y.size()); ++i)
      if (finite(c.x[i]) && finite(c.y[i])) {
        xr.add(c.x[i]);
        yr.add(c.y[i]);
        all_x.push_back(c.x[i]);
      }
  if (xr.empty()) return {};
  for (const Marker& m : markers) (m.vertical ? xr : yr).add(m.at);

  constexpr double W = 760, H = 330, L = 78, R = 24, T = 34, B = 52;
  const bool xlog = wants_log(all_x) && xr.lo > 0;
  const Scale sx = xlog ? log_scale(xr, L, W - R) : linear_scale(xr, L, W - R);
  const Scale sy = linear_scale(yr, H - B, T);
  const bool bytes_x = is_byte_unit(axes.x_unit);
  const int legend_rows = curves.size() > 1 ? static_cast<int>((curves.size() + 3) / 4) : 0;
  const double total_h = H + legend_rows * 18;

  std::string s = fmt::format(
      "<svg class=\"chart\" data-family=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
      "<title>{}</title>",
      html_escape(family), W, total_h, W, total_h, html_escape(title));
  s += fmt::format("<text class=\"ct\" x=\"{}\" y=\"20\">{}</text>", L, html_escape(title));
  s += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", L, T, W - R - L, H - B - T);
  // Ticks and grid.
  const auto xt = xlog ? log_ticks(sx.d0, sx.d1, bytes_x) : bytes_x ? byte_ticks(sx.d0, sx.d1, 7) : nice_ticks(sx.d0, sx.d1, 7);
  for (double v : xt) {
    const double px = sx(v);
    s += fmt::format("<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", g(px), T, H - B);
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", g(px), H - B + 15,
                     html_escape(axis_number(v, axes.x_unit)));
  }
  for (double v : nice_ticks(sy.d0, sy.d1, 6)) {
    const double py = sy(v);
    s += fmt::format("<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", L, g(py), W - R, g(py));
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", L - 6, g(py + 4),
                     html_escape(axis_number(v, axes.y_unit)));
  }
  s += fmt::format("<text class=\"al\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}{}</text>", (L + W - R) / 2, H - 12,
                   html_escape(axis_label(axes.x_name, axes.x_unit)), xlog ? ", log scale" : "");
  s += fmt::format("<text class=\"al\" transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                   (T + H - B) / 2, html_escape(axis_label(axes.y_name, axes.y_unit)));
  // Markers under the curves.
  for (std::size_t i = 0; i < markers.size(); ++i) {
    const Marker& m = markers[i];
    if (m.vertical) {
      const double px = sx(m.at);
      s += fmt::format("<line class=\"mk\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>", g(px), T, H - B);
      s += fmt::format("<text class=\"mkl\" x=\"{}\" y=\"{}\">{}</text>", g(px + 4), T + 12 + 13 * (i % 3),
                       html_escape(m.label));
    } else {
      const double py = sy(m.at);
      s += fmt::format("<line class=\"mk\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", L, g(py), W - R, g(py));
      s += fmt::format("<text class=\"mkl\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", W - R - 4, g(py - 4),
                       html_escape(m.label));
    }
  }
  for (std::size_t ci = 0; ci < curves.size(); ++ci) {
    const Curve& c = curves[ci];
    std::string pts;
    std::string dots;
    for (std::size_t i = 0; i < std::min(c.x.size(), c.y.size()); ++i) {
      if (!finite(c.x[i]) || !finite(c.y[i]) || (xlog && c.x[i] <= 0)) continue;
      pts += fmt::format("{}{},{}", pts.empty() ? "" : " ", g(sx(c.x[i])), g(sy(c.y[i])));
      dots += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{}\"><title>{}: {}, {}</title></circle>",
                          g(sx(c.x[i])), g(sy(c.y[i])), board_colour(static_cast<int>(ci)), html_escape(c.label),
                          html_escape(format_quantity(c.x[i], axes.x_unit)),
                          html_escape(format_quantity(c.y[i], axes.y_unit)));
    }
    s += fmt::format("<polyline class=\"curve\" stroke=\"{}\" points=\"{}\"/>", board_colour(static_cast<int>(ci)), pts);
    s += dots;
  }
  if (legend_rows)
    for (std::size_t ci = 0; ci < curves.size(); ++ci) {
      const double x = L + (ci % 4) * 165.0, y = H + 4 + (ci / 4) * 18.0;
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"{}\"/>", g(x), g(y + 2),
                       board_colour(static_cast<int>(ci)));
      s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">{}</text>", g(x + 16), g(y + 8),
                       html_escape(curves[ci].label));
    }
  s += "</svg>";
  return s;
}

// ---------------------------------------------------------------------------------------
// Heat map

std::string heat_map_svg(const std::string& family, const std::string& title, const Matrix& m) {
  const std::size_t nr = m.rows.size(), nc = m.cols.size();
  if (nr == 0 || nc == 0 || m.values.size() != nr * nc) return {};
  Range vr;
  for (double v : m.values) vr.add(v);
  const double cell_w = std::clamp(640.0 / nc, 3.0, 72.0), cell_h = std::clamp(440.0 / nr, 3.0, 30.0);
  const bool text = cell_w >= 44 && cell_h >= 16;
  constexpr double L = 96, T = 34;
  const double pw = cell_w * nc, ph = cell_h * nr;
  const double W = std::max(L + pw + 24, 420.0), H = T + ph + 44 + 46;
  std::string s = fmt::format(
      "<svg class=\"chart heat\" data-family=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
      "<title>{}</title>",
      html_escape(family), g(W), g(H), g(W), g(H), html_escape(title));
  s += fmt::format("<text class=\"ct\" x=\"{}\" y=\"20\">{}</text>", L, html_escape(title));
  for (std::size_t r = 0; r < nr; ++r)
    for (std::size_t c = 0; c < nc; ++c) {
      const double v = m.at(r, c);
      const double t = heat_fraction(v, vr.lo, vr.hi);
      const double x = L + c * cell_w, y = T + r * cell_h;
      s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} {}, {} {}: {}</title></rect>",
                       g(x), g(y), g(cell_w), g(cell_h), heat_colour(t), html_escape(m.row_name),
                       html_escape(format_quantity(m.rows[r], m.row_unit)), html_escape(m.col_name),
                       html_escape(format_quantity(m.cols[c], m.col_unit)), html_escape(format_quantity(v, m.value_unit)));
      if (text)
        s += fmt::format("<text class=\"cell\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                         g(x + cell_w / 2), g(y + cell_h / 2 + 4), t > 0.6 ? "#000" : "#fff",
                         html_escape(axis_number(v, m.value_unit)));
    }
  // Axis labels: every row and column when they fit, else about every 20 px.
  const std::size_t row_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(14 / cell_h)));
  const std::size_t col_every = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(34 / cell_w)));
  for (std::size_t r = 0; r < nr; r += row_every)
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", L - 5,
                     g(T + r * cell_h + cell_h / 2 + 4), html_escape(axis_number(m.rows[r], m.row_unit)));
  for (std::size_t c = 0; c < nc; c += col_every)
    s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", g(L + c * cell_w + cell_w / 2),
                     g(T + ph + 14), html_escape(axis_number(m.cols[c], m.col_unit)));
  s += fmt::format("<text class=\"al\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", g(L + pw / 2), g(T + ph + 32),
                   html_escape(axis_label(m.col_name, m.col_unit)));
  s += fmt::format("<text class=\"al\" transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
                   g(T + ph / 2), html_escape(axis_label(m.row_name, m.row_unit)));
  // Colour key.
  const double ky = T + ph + 44, kw = 240;
  for (int i = 0; i < 20; ++i)
    s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"10\" fill=\"{}\"/>", g(L + i * kw / 20), g(ky),
                     g(kw / 20 + 0.5), heat_colour(i / 19.0));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">{}</text>", L, g(ky + 24),
                   html_escape(axis_number(vr.lo, m.value_unit)));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", g(L + kw), g(ky + 24),
                   html_escape(axis_number(vr.hi, m.value_unit)));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"{}\">{}</text>", g(L + kw + 10), g(ky + 9),
                   html_escape(axis_label(m.value_name, m.value_unit)));
  s += "</svg>";
  return s;
}

// ---------------------------------------------------------------------------------------
// Strips

std::pair<double, double> strip_domain(const StripRow& row) {
  Range r;
  for (const auto& v : {row.fail_lo, row.fail_hi, row.drift_lo, row.drift_hi})
    if (v) r.add(*v);
  for (const auto& p : row.points) r.add(p.value);
  if (r.empty()) return {0, 1};
  if (row.kind == "band" && row.fail_lo && row.fail_hi) {
    const double centre = (*row.fail_lo + *row.fail_hi) / 2, tol = (*row.fail_hi - *row.fail_lo) / 2;
    r.add(centre - 1.5 * tol);
    r.add(centre + 1.5 * tol);
  }
  double span = r.hi - r.lo;
  if (span <= 0) span = r.lo != 0 ? std::fabs(r.lo) * 0.1 : 1;
  return {r.lo - 0.08 * span, r.hi + 0.08 * span};
}

std::string strip_chart_svg(const std::string& family, const std::vector<StripRow>& rows) {
  if (rows.empty()) return {};
  constexpr double W = 1080, NameW = 380, SW = 500, RowH = 17, T = 24;
  const double H = T + rows.size() * RowH + 8;
  std::string s = fmt::format(
      "<svg class=\"chart strips\" data-family=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\">"
      "<title>{} probes against their bands</title>",
      html_escape(family), W, g(H), W, g(H), html_escape(family));
  s += fmt::format("<text class=\"tick\" x=\"{}\" y=\"14\">probe</text><text class=\"tick\" x=\"{}\" y=\"14\">"
                   "value within its fail band (red outside, amber: outside the drift band, green: inside)</text>"
                   "<text class=\"tick\" x=\"{}\" y=\"14\">median</text>",
                   4, NameW, NameW + SW + 10);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const StripRow& row = rows[i];
    const double y = T + i * RowH;
    const auto [d0, d1] = strip_domain(row);
    const Scale sx{d0, d1, NameW, NameW + SW, false};
    auto px = [&](std::optional<double> v, double open) { return v ? std::clamp(sx(*v), NameW, NameW + SW) : open; };
    if (i % 2) s += fmt::format("<rect class=\"zebra\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>", g(y), W, RowH);
    s += fmt::format("<text class=\"pn\" x=\"4\" y=\"{}\">{}</text>", g(y + 12.5), html_escape(row.label));
    const double by = y + 3, bh = RowH - 6;
    // An exact entry (a count of mismatches: 0) is no range to place a dot in: the strip is
    // green when every board met it and red when one did not, with the values written on
    // it. A record-only row (no band) shows its values, one per board in its colour, not
    // dots spread over a scale made of those values alone.
    const bool exact = row.kind == "exact" && row.fail_lo;
    if (exact || row.kind.empty()) {
      bool all_met = true;
      std::string values;
      for (const auto& p : row.points) {
        if (!finite(p.value)) continue;
        if (exact && p.value != *row.fail_lo) all_met = false;
        values += fmt::format("<tspan fill=\"{}\">{}</tspan>  ", board_colour(p.colour),
                              html_escape(row.kind.empty() && row.unit.empty() ? fmt::format("{:.4g}", p.value)
                                                                               : format_quantity(p.value, row.unit)));
      }
      const char* cls = row.kind.empty() ? "nb" : all_met ? "bp" : "bf";
      s += fmt::format("<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", cls, NameW, g(by), SW,
                       g(bh));
      s += fmt::format("<text class=\"sv\" x=\"{}\" y=\"{}\">{}{}<title>{}</title></text>", NameW + 6, g(y + 12),
                       row.kind.empty() ? "recorded: "
                       : exact          ? (all_met ? "= expected: " : "≠ expected: ")
                                        : "",
                       values, html_escape(row.points.empty() ? std::string() : row.points.front().tip));
      s += fmt::format("<text class=\"pv v-{}\" x=\"{}\" y=\"{}\">{}</text>", html_escape(row.verdict), NameW + SW + 10,
                       g(y + 12.5), html_escape(row.value_text));
      continue;
    }
    {
      s += fmt::format("<rect class=\"bf\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", NameW, g(by), SW, g(bh));
      const double f0 = px(row.fail_lo, NameW), f1 = px(row.fail_hi, NameW + SW);
      // A band narrower than a few pixels (an exact count) still shows where it is.
      const double fw = std::max(f1 - f0, 6.0), fx = (f0 + f1 - fw) / 2;
      s += fmt::format("<rect class=\"bw\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", g(fx), g(by), g(fw),
                       g(bh));
      if (row.drift_lo || row.drift_hi) {
        const double d0p = px(row.drift_lo ? row.drift_lo : row.fail_lo, NameW),
                     d1p = px(row.drift_hi ? row.drift_hi : row.fail_hi, NameW + SW);
        const double dw = std::max(d1p - d0p, 4.0);
        s += fmt::format("<rect class=\"bp\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", g((d0p + d1p - dw) / 2),
                         g(by), g(dw), g(bh));
      } else {
        s += fmt::format("<rect class=\"bp\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", g(fx), g(by), g(fw),
                         g(bh));
      }
    }
    for (const auto& p : row.points) {
      if (!finite(p.value)) continue;
      s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"><title>{}</title></circle>", g(sx(p.value)),
                       g(y + RowH / 2), board_colour(p.colour), html_escape(p.tip));
    }
    s += fmt::format("<text class=\"pv v-{}\" x=\"{}\" y=\"{}\">{}</text>", html_escape(row.verdict), NameW + SW + 10,
                     g(y + 12.5), html_escape(row.value_text));
  }
  s += "</svg>";
  return s;
}

}  // namespace gpuconform::report
