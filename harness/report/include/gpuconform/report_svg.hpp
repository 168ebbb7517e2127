// SPDX-License-Identifier: Apache-2.0
#pragma once
// The drawing pieces of `gpuconform report` (report.hpp): escaping text into HTML, axis
// scales and ticks, the heat-map colour scale, and three chart kinds as inline SVG
// (a line chart of Series, a heat map of a Matrix, a strip of values against bands).
// Pure functions of their arguments, so they are unit-tested without a browser
// (tests/unit/report_svg_test.cpp). No output of this file names a network address:
// inline SVG in HTML needs no xmlns, and escaped text cannot form one either.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform::report {

// Text for HTML element content and attribute values: & < > " ' as entities, C0 control
// characters (but tab and newline) as U+FFFD, and "http:" / "https:" (any case) with the
// colon as &#58;, so that a probe name or reason can neither break the markup nor put a
// network address into a file that must reference none.
std::string html_escape(std::string_view text);

// A number for an axis or a table: binary prefixes for bytes ("B", "bytes": 48 KiB,
// 50 MiB), SI prefixes for other units at 1e3 and above ("3.06 TB/s"), else 4 significant
// digits (no prefix on units that read badly with one: "1975 MHz", not "1.975 kMHz"). The
// unit follows unless empty.
std::string format_quantity(double value, const std::string& unit);

// A number on an axis, in a heat-map cell or key, whose unit the axis label names: binary
// prefixes for bytes ("64 KiB"), SI prefixes where the unit takes one ("3.3T" for B/s),
// else the plain number ("1976" for MHz, "3441" for FLOP/clk/SM).
std::string axis_number(double value, const std::string& unit);

// A linear or logarithmic map from data [d0, d1] to pixels [r0, r1] (r1 < r0 for a y
// axis that grows upwards). A log scale needs 0 < d0 < d1.
struct Scale {
  double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
  bool log = false;
  double operator()(double v) const;
};

// Round tick values inside [lo, hi]: multiples of 1, 2 or 5 x 10^k, at most `max_count`
// of them (at least two for lo < hi). For lo == hi, the one value.
std::vector<double> nice_ticks(double lo, double hi, int max_count = 6);
// Ticks for a log axis over [lo, hi] (0 < lo < hi): powers of 2 for bytes (byte_axis),
// else powers of 10, thinned to at most `max_count`.
std::vector<double> log_ticks(double lo, double hi, bool byte_axis, int max_count = 8);
// Linear ticks for a byte axis, round in the binary unit the range reads in (KiB, MiB, ...).
std::vector<double> byte_ticks(double lo, double hi, int max_count = 7);
// Whether an axis over these values reads better on a log scale: all positive and
// spanning a factor of 16 or more (footprints, bytes in flight).
bool wants_log(const std::vector<double>& values);

// The heat-map colour of t in [0, 1] (clamped), on a perceptually ordered dark-blue to
// yellow scale (viridis stops): "#rrggbb". NaN: grey, for a cell without a value.
std::string heat_colour(double t);
// Where v lies in [lo, hi] as t in [0, 1] (0.5 when lo == hi).
double heat_fraction(double v, double lo, double hi);

// A vertical or horizontal marker on a line chart: an edge, a plateau, a reported size.
struct Marker {
  double at = 0;
  std::string label;
  bool vertical = true;  // x = at; else y = at
};

// One curve of a line chart: its points and legend entry.
struct Curve {
  std::string label;  // the board
  std::vector<double> x, y;
};

// A line chart of curves over the same axes. `family` goes into data-family, the title
// above the plot. Empty string when no curve has a point.
std::string line_chart_svg(const std::string& family, const std::string& title, const Series& axes,
                           const std::vector<Curve>& curves, const std::vector<Marker>& markers);

// A heat map of a Matrix: one cell per (row, column), coloured by heat_colour over the
// matrix's own range, the value written in the cell when cells are wide enough, a colour
// key beneath.
std::string heat_map_svg(const std::string& family, const std::string& title, const Matrix& m);

// One probe's values against its bands, for the strip chart.
struct StripRow {
  std::string label;                    // probe id
  std::string kind;                     // band, min, max, fraction_of_peak, exact, or "" (no band)
  std::optional<double> fail_lo, fail_hi;    // the values a pass may take (one side open for min/max)
  std::optional<double> drift_lo, drift_hi;  // the drift band inside it, when there is one
  struct Point {
    double value = 0;
    int colour = 0;      // board index
    std::string tip;     // hover text: board, value, verdict, reason
  };
  std::vector<Point> points;
  std::string unit;        // of the values (empty for fractions of peak)
  std::string value_text;  // right of the strip: the median and unit
  std::string verdict;     // worst verdict of the row: colours the value text
};

// The domain a strip shows: every limit and value, padded; a band's centre +- 1.5 tol at
// least, so a value at the centre does not fill the strip.
std::pair<double, double> strip_domain(const StripRow& row);

// Rows of strips in one SVG, one row per probe: red outside the fail band, amber between
// fail and drift band, green inside the drift band, a dot per run and board.
std::string strip_chart_svg(const std::string& family, const std::vector<StripRow>& rows);

// Colour of board `i` in charts (a fixed, colour-blind-friendly cycle).
const char* board_colour(int i);

}  // namespace gpuconform::report
