#pragma once
// The band policy (expectations/evidence/policy.toml): how `record --from` turns the runs
// of several boards into a drift band and a fail band. Probes are grouped into classes by
// id globs; each class carries the largest relative between-board half-spread seen among
// its probes and a multiplier k, and the fail band is the drift band widened by
// k x that spread x |centre|. It also lists run records to leave out (superseded runs).
// README.md, "Band policy", explains the rule and the numbers.
#include <map>
#include <string>
#include <vector>

#include "gpuconform/expectation.hpp"

namespace gpuconform {

struct PolicyClass {
  std::string name;
  std::vector<std::string> probes;  // id globs; the first class with a match wins
  double spread_rel = 0;  // largest between-board half-spread / |centre| among its probes on >= min_boards boards
  double k = 0;           // fail margin = k * spread_rel * |centre|
  std::string why;        // the evidence behind spread_rel and k
  Location where;
};

// Runs of one board to leave out, e.g. measured before a probe was fixed.
struct PolicyExclusion {
  std::string gpu;                  // UUID prefix, e.g. "GPU-20f8467d"
  std::vector<std::string> probes;  // id globs
  std::string reason;
  Location where;
};

// A measurement on a healthy board that the fail bands must hold (e.g. a board that failed
// a band fitted too tightly); a unit test checks them against the committed files.
struct PolicyObservation {
  std::string probe;
  double measured = 0;
  std::string board;   // what the board was, e.g. "healthy 7th H100"
  std::string source;  // where the number comes from
  Location where;
};

struct BandPolicy {
  std::string path;
  double noise_factor = 3;  // drift half-width = max(floors, noise_factor * noise + half-spread)
  int min_boards = 5;       // a probe's spread counts towards its class from this many boards
  std::vector<PolicyClass> classes;
  std::vector<PolicyExclusion> exclusions;
  std::vector<PolicyObservation> observations;

  const PolicyClass* class_for(const std::string& probe_id) const;
  const PolicyExclusion* exclusion_for(const std::string& gpu, const std::string& probe_id) const;
};

// Strict parse (unknown keys, wrong types, missing fields: diagnostics with file:line:col).
BandPolicy parse_band_policy_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics);
BandPolicy parse_band_policy_file(const std::string& path, std::vector<Diagnostic>& diagnostics);

// The per-board statistics the policy works on: each board's median, the largest
// deviation of a run from its own board's median (noise), and the centre and half-spread
// of the board medians.
struct BoardSpread {
  std::vector<double> medians;  // one per board, in the order given
  double noise = 0;
  double centre = 0, half_spread = 0;
  double relative() const;      // half_spread / |centre| (0 when the centre is 0)
};
BoardSpread board_spread(const std::vector<std::vector<double>>& values_per_board);

// What the evidence says each class's spread_rel should be: the largest relative
// half-spread among the class's probes seen on >= min_boards boards. `values` maps a probe
// id to its runs' values, one vector per board (fractions of peak for throughput).
struct ClassSpread {
  double spread_rel = 0;
  std::string probe;  // the probe that set it ("" when no probe had enough boards)
  int boards = 0;
};
std::map<std::string, ClassSpread> class_spreads_from_evidence(
    const BandPolicy& policy, const std::map<std::string, std::vector<std::vector<double>>>& values);

}  // namespace gpuconform
