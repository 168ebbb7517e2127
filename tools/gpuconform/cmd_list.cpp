// SPDX-License-Identifier: Apache-2.0
// `gpuconform list`: the resolved expectations for an architecture (and SKU)
// with their provenance, as a table or JSON. Needs no GPU.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_level.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/runner.hpp"
#include "gpuconform/sensitivity.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::cli {
namespace {

struct ListArgs {
  std::string arch, sku;
  std::string board_part;  // with sku: the board-part overlay sku/SKU/PART.toml on top
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  bool json = false;
  std::string level;         // "": every entry; else what `run --level` selects, with seconds
  bool sensitivity = false;  // per entry: the relative change that first warns and fails
  bool coverage = false;     // per architecture file and family: judged, recorded only, no entry, unsupported
};

// The device `run` would see, as far as the selection needs it: "sm_90" -> 9.0.
std::optional<DeviceInfo> device_of_arch(const std::string& arch, const std::string& sku) {
  DeviceInfo d;
  int cc = 0;
  if (arch.rfind("sm_", 0) != 0 || arch.size() < 5) return std::nullopt;
  try {
    std::size_t used = 0;
    cc = std::stoi(arch.substr(3), &used);
    if (used != arch.size() - 3) return std::nullopt;
    if (!sku.empty()) d.pci_device_id = static_cast<std::uint32_t>(std::stoul(sku, nullptr, 16));
  } catch (...) {
    return std::nullopt;
  }
  d.cc_major = cc / 10;
  d.cc_minor = cc % 10;
  return d;
}

// `list --level L`: the probes `run --level L` selects on this architecture, with the
// seconds their entries were recorded in and the total.
int list_level(const ListArgs& args, const ExpectationSet& set, RunLevel level) {
  const std::optional<DeviceInfo> device = device_of_arch(args.arch, args.sku);
  if (!device) {
    fmt::print(stderr, "gpuconform list: --arch '{}' is not of the form sm_XX (or --sku '{}' not 0xNNNN)\n", args.arch,
               args.sku);
    return kExitUnusable;
  }
  const std::vector<const Probe*> selected = select_for_level(select_probes({"*"}), set, *device, level);
  double total = 0;
  std::size_t unknown = 0;
  nlohmann::json out = nlohmann::json::array();
  std::size_t wid = 4;
  for (const Probe* p : selected) wid = std::max(wid, p->id.size());
  for (const Probe* p : selected) {
    const std::optional<double> s = recorded_seconds(set, p->id);
    if (s) total += *s;
    const Expectation* e = set.find(p->id);
    const std::string why_skip = unmet_requirement(*p, *device);
    const std::string expected = !why_skip.empty() ? "skip: " + why_skip
                                 : e               ? describe_expected(*e)
                                                   : std::string("skip: no expectation entry");
    if (e && why_skip.empty() && !s) ++unknown;
    if (args.json) {
      out.push_back({{"id", p->id}, {"group", probe_group(p->id)}, {"expected", expected}});
      if (s) out.back()["seconds"] = *s;
    } else {
      fmt::print("{:<{}} {:>9} {}\n", p->id, wid, s ? fmt::format("{:.4f} s", *s) : std::string("-"), expected);
    }
  }
  if (args.json) {
    fmt::print("{}\n", nlohmann::json{{"level", level_name(level)}, {"probes", out}, {"seconds", total}}.dump(2));
    return kExitOk;
  }
  fmt::print(
      "{} probe(s) at level {}: {:.2f} s as recorded{}, plus start-up (the GPU's and each worker's CUDA "
      "context){}\n",
      selected.size(), level_name(level), total,
      unknown ? fmt::format(" ({} without recorded seconds)", unknown) : std::string(),
      level == RunLevel::quick ? "; quick runs them with fewer repeats" : "");
  return kExitOk;
}

// "-1.2%" ("-0.0%": any change that way); "centre" where the healthy centre itself already lies beyond the limit.
std::string percent(double change, char sign) {
  // Within 0.05 % counts as at the limit: the note's board medians have 4 significant digits.
  return change > -5e-4 ? fmt::format("{}{:.1f}%", sign, std::max(change, 0.0) * 100) : std::string("centre");
}

// "-1.2%", "+3.4%" or "-1.2%/+1.3%": the change at which one level is reached, per direction.
std::string sides_text(const Sensitivity& s, bool fail) {
  std::string out;
  if (s.lower) out = percent(fail ? s.lower->fail : s.lower->warn, '-');
  if (s.higher) out += (out.empty() ? "" : "/") + percent(fail ? s.higher->fail : s.higher->warn, '+');
  return out;
}

std::string centre_text(const Expectation& e, const Sensitivity& s) {
  if (!s.centre) return "-";
  return fmt::format("{:.4g} {}", *s.centre, e.kind == ExpectationKind::fraction_of_peak ? "of peak" : e.unit);
}

nlohmann::json sensitivity_json(const Sensitivity& s) {
  nlohmann::json j{{"status", sensitivity_status_name(s.status)}};
  if (s.centre) j["centre"] = *s.centre;
  if (s.status != SensitivityStatus::judged) {
    j["why"] = s.why;
    return j;
  }
  j["has_drift"] = s.has_drift;
  j["warn_at"] = s.warn();
  j["fail_at"] = s.fail();
  if (s.lower) j["lower"] = {{"warn_at", s.lower->warn}, {"fail_at", s.lower->fail}};
  if (s.higher) j["higher"] = {{"warn_at", s.higher->warn}, {"fail_at", s.higher->fail}};
  return j;
}

nlohmann::json family_json(const FamilySensitivity& f) {
  nlohmann::json j{{"family", f.family}, {"entries", f.entries}, {"judged", f.judged}, {"no_centre", f.no_centre}};
  if (f.judged > 0) {
    j["warn_at_median"] = f.warn_median;
    j["warn_at_worst"] = f.warn_worst;
    j["fail_at_median"] = f.fail_median;
    j["fail_at_worst"] = f.fail_worst;
    j["worst_fail_id"] = f.worst_fail_id;
  }
  return j;
}

// `list --sensitivity`: per entry judged by size, the healthy centre of its evidence and the
// smallest relative change in the bad direction(s) that warns and that fails; then per family
// the median and worst (largest) of those changes.
int list_sensitivity(const ListArgs& args, const ExpectationSet& set) {
  const Registry& reg = Registry::instance();
  std::vector<std::pair<std::string, Sensitivity>> all;
  for (const auto& [id, e] : set.entries()) all.emplace_back(id, sensitivity(e, healthy_centre(e)));
  const std::vector<FamilySensitivity> families = summarise_sensitivity(all);
  if (args.json) {
    nlohmann::json entries = nlohmann::json::array(), fams = nlohmann::json::array();
    for (const auto& [id, s] : all) {
      const Expectation& e = set.entries().at(id);
      nlohmann::json j = expectation_json(e);
      j["id"] = id;
      if (const Probe* p = reg.find(id)) {
        j["family"] = family_name(p->family);
        j["summary"] = p->summary;
      }
      j["sensitivity_family"] = sensitivity_family(id);
      j["sensitivity"] = sensitivity_json(s);
      entries.push_back(j);
    }
    for (const FamilySensitivity& f : families) fams.push_back(family_json(f));
    fmt::print("{}\n", nlohmann::json{{"entries", entries}, {"families", fams}}.dump(2));
    return kExitOk;
  }
  std::size_t not_judged = 0, no_centre = 0, wid = 4;
  for (const auto& [id, s] : all) wid = std::max(wid, id.size());
  fmt::print("{:<{}} {:<26} {:>15} {:>15}\n", "id", wid, "healthy centre", "warns at", "fails at");
  for (const auto& [id, s] : all) {
    if (s.status == SensitivityStatus::not_judged) {
      ++not_judged;
      continue;
    }
    const Expectation& e = set.entries().at(id);
    if (s.status == SensitivityStatus::no_centre) {
      ++no_centre;
      fmt::print("{:<{}} {:<26} {}\n", id, wid, centre_text(e, s), s.why);
      continue;
    }
    fmt::print("{:<{}} {:<26} {:>15} {:>15}{}\n", id, wid, centre_text(e, s), sides_text(s, false), sides_text(s, true),
               s.has_drift ? "" : "  (no drift band: warn = fail)");
  }
  fmt::print("\n{} entries; {} judged by size, {} without a healthy centre, {} not judged by size (exact, info).\n",
             all.size(), all.size() - not_judged - no_centre, no_centre, not_judged);
  fmt::print(
      "Changes are relative to the healthy centre (median of the evidence boards' medians), in the bad "
      "direction: - lower, + higher, both for bands; \"centre\": the healthy centre already lies beyond the limit. Per "
      "family: the "
      "weaker side of each entry; worst = the largest change.\n\n");
  fmt::print("{:<28} {:>7} {:>12} {:>12} {:>12} {:>12}  {}\n", "family", "judged", "warn median", "warn worst",
             "fail median", "fail worst", "worst entry");
  for (const FamilySensitivity& f : families) {
    if (f.judged == 0) {
      fmt::print("{:<28} {:>7} {:>12} {:>12} {:>12} {:>12}  ({} without a healthy centre)\n", f.family, 0, "-", "-",
                 "-", "-", f.no_centre);
      continue;
    }
    fmt::print("{:<28} {:>7} {:>11.1f}% {:>11.1f}% {:>11.1f}% {:>11.1f}%  {}{}\n", f.family, f.judged,
               f.warn_median * 100, f.warn_worst * 100, f.fail_median * 100, f.fail_worst * 100, f.worst_fail_id,
               f.no_centre ? fmt::format(" ({} without a healthy centre)", f.no_centre) : std::string());
  }
  return kExitOk;
}

// `list --coverage`: per architecture file (sm_XX.toml), SKU overlay (sku/0xNNNN.toml, on
// top of its architecture file, as a run on that SKU resolves it) and board-part overlay
// (sku/0xNNNN/<part>.toml, on top of both, as a run on a board of that part resolves it) and
// per probe family, how
// many registered probes are judged (an entry with a band or limit), recorded only (an entry
// of kind `info`), have no entry, or cannot run on the architecture (a compute capability
// or an arch-specific target they need); and how many of the probes `run --level quick`
// selects there are judged. The self-test probes (fault injection only) are left out.
struct FamilyCoverage {
  std::size_t judged = 0, recorded = 0, none = 0, unsupported = 0;
  std::size_t total() const { return judged + recorded + none + unsupported; }
};

struct FileCoverage {
  // relative to the expectations directory: "sm_90.toml", "sku/0x2335.toml", "sku/0x2335/<part>.toml"
  std::string file;
  std::string arch, sku, board_part;
  std::map<Family, FamilyCoverage> families;
  std::size_t quick_selected = 0, quick_judged = 0;
  FamilyCoverage all() const {
    FamilyCoverage t;
    for (const auto& [f, c] : families) {
      t.judged += c.judged;
      t.recorded += c.recorded;
      t.none += c.none;
      t.unsupported += c.unsupported;
    }
    return t;
  }
};

const std::vector<Family>& coverage_families() {
  static const std::vector<Family> f = {Family::latency,  Family::throughput, Family::numeric, Family::topology,
                                        Family::parallel, Family::p2p,        Family::health};
  return f;
}

// The architecture an overlay is for: its [meta] arch, else the one its run records are
// named after ("run:.../sm_90-0x2335-....jsonl:N"); "" when neither says.
std::string overlay_arch(const ExpectationFile& f) {
  if (!f.arch.empty()) return f.arch;
  const std::regex named(R"((sm_[0-9]+)-0x[0-9a-fA-F]{4})");
  for (const Expectation& e : f.entries) {
    std::smatch m;
    if (std::regex_search(e.source, m, named)) return m[1];
    if (std::regex_search(e.note, m, named)) return m[1];
  }
  return "";
}

FileCoverage coverage_of(const std::string& file, const std::string& arch, const std::string& sku,
                         const std::string& board_part, const ExpectationSet& set) {
  FileCoverage c{file, arch, sku, board_part, {}, 0, 0};
  for (Family f : coverage_families()) c.families[f] = {};
  const std::optional<DeviceInfo> device = device_of_arch(arch, sku);
  for (const Probe& p : Registry::instance().all()) {
    if (p.family == Family::selftest) continue;
    FamilyCoverage& fc = c.families[p.family];
    const Expectation* e = set.find(p.id);
    if (device && !unmet_requirement(p, *device).empty())
      ++fc.unsupported;
    else if (!e)
      ++fc.none;
    else if (e->kind == ExpectationKind::info)
      ++fc.recorded;
    else
      ++fc.judged;
  }
  if (device) {
    for (const Probe* p : select_for_level(select_probes({"*"}), set, *device, RunLevel::quick)) {
      ++c.quick_selected;
      const Expectation* e = set.find(p->id);
      if (e && e->kind != ExpectationKind::info && unmet_requirement(*p, *device).empty()) ++c.quick_judged;
    }
  }
  return c;
}

nlohmann::json coverage_json(const FamilyCoverage& f) {
  return {{"judged", f.judged}, {"recorded_only", f.recorded}, {"no_entry", f.none}, {"unsupported", f.unsupported}};
}

// The expectation files of a directory: sm_XX.toml by architecture number (only
// args.arch's when given), then sku/0xNNNN.toml by id, and each SKU's board-part overlays
// sku/0xNNNN/<part>.toml by part. False, with the message printed, when there is no directory
// or no architecture file.
struct CoverageFiles {
  std::vector<std::pair<int, std::string>> arch;
  std::vector<std::string> sku;
  std::map<std::string, std::vector<std::string>> parts;  // "0x2335" -> its board part numbers
};
bool find_coverage_files(const ListArgs& args, CoverageFiles& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(args.expectations_dir, ec)) {
    fmt::print(stderr, "gpuconform list: {} is not a directory of expectation files\n", args.expectations_dir);
    return false;
  }
  const std::regex arch_name(R"(sm_([0-9]+)\.toml)"), sku_name(R"(0x[0-9a-fA-F]{4}\.toml)");
  for (const auto& entry : fs::directory_iterator(args.expectations_dir, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, m, arch_name)) out.arch.emplace_back(std::stoi(m[1]), name);
  }
  if (fs::is_directory(args.expectations_dir + "/sku", ec))
    for (const auto& entry : fs::directory_iterator(args.expectations_dir + "/sku", ec)) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && std::regex_match(name, sku_name)) out.sku.push_back(name);
    }
  for (const std::string& sku_file : out.sku) {
    const std::string sku = sku_file.substr(0, sku_file.size() - 5);
    const std::string part_dir = args.expectations_dir + "/sku/" + sku;
    if (!fs::is_directory(part_dir, ec)) continue;
    for (const auto& entry : fs::directory_iterator(part_dir, ec))
      if (entry.is_regular_file() && entry.path().extension() == ".toml" &&
          is_board_part_number(entry.path().stem().string()))
        out.parts[sku].push_back(entry.path().stem().string());
    std::sort(out.parts[sku].begin(), out.parts[sku].end());
  }
  std::sort(out.arch.begin(), out.arch.end());
  std::sort(out.sku.begin(), out.sku.end());
  if (!args.arch.empty())
    out.arch.erase(std::remove_if(out.arch.begin(), out.arch.end(),
                                  [&](const auto& a) { return a.second != args.arch + ".toml"; }),
                   out.arch.end());
  if (out.arch.empty()) {
    fmt::print(stderr, "gpuconform list: no expectation file{} in {}\n",
               args.arch.empty() ? std::string(" (sm_XX.toml)") : " for " + args.arch, args.expectations_dir);
    return false;
  }
  return true;
}

// One row per architecture file, per SKU overlay of that architecture (its file on top) and per
// board-part overlay of that SKU (both on top). Throws ExpectationError for an invalid file.
std::vector<FileCoverage> coverage_rows(const ListArgs& args, const CoverageFiles& files) {
  const Registry& reg = Registry::instance();
  auto load = [&](const std::string& arch, const std::string& sku, const std::string& part) {
    ExpectationQuery q;
    q.dir = args.expectations_dir;
    q.arch = arch;
    q.sku = sku;
    q.board_part = part;
    // A user overlay applies to the rows of its own architecture (another is an error).
    for (const std::string& o : args.overlays) {
      std::vector<Diagnostic> ignored;
      const std::string for_arch = parse_expectation_file(o, ignored).arch;
      if (for_arch.empty() || for_arch == "sm_any" || for_arch == arch) q.overlays.push_back(o);
    }
    q.known_probe = [&](const std::string& id) { return reg.find(id) != nullptr; };
    q.probe_ids = reg.ids();
    return load_expectations(q);
  };
  std::vector<FileCoverage> rows;
  for (const auto& [cc, name] : files.arch) {
    const std::string arch = name.substr(0, name.size() - 5);
    rows.push_back(coverage_of(name, arch, "", "", load(arch, "", "")));
    for (const std::string& sku_file : files.sku) {
      const std::string sku = sku_file.substr(0, sku_file.size() - 5);
      if (!args.sku.empty() && sku != args.sku) continue;
      std::vector<Diagnostic> diags;
      const ExpectationFile overlay = parse_expectation_file(args.expectations_dir + "/sku/" + sku_file, diags);
      if (overlay_arch(overlay) != arch) continue;
      rows.push_back(coverage_of("sku/" + sku_file, arch, sku, "", load(arch, sku, "")));
      const auto parts = files.parts.find(sku);
      if (parts == files.parts.end()) continue;
      for (const std::string& part : parts->second)
        rows.push_back(coverage_of("sku/" + sku + "/" + part + ".toml", arch, sku, part, load(arch, sku, part)));
    }
  }
  return rows;
}

void print_coverage_json(const ListArgs& args, const std::vector<FileCoverage>& rows,
                         const std::map<Family, std::size_t>& registered) {
  nlohmann::json files = nlohmann::json::array();
  for (const FileCoverage& r : rows) {
    nlohmann::json fams = nlohmann::json::object();
    for (const auto& [f, c] : r.families) fams[family_name(f)] = coverage_json(c);
    nlohmann::json j{{"file", r.file},
                     {"arch", r.arch},
                     {"families", fams},
                     {"all", coverage_json(r.all())},
                     {"quick", {{"selected", r.quick_selected}, {"judged", r.quick_judged}}}};
    if (!r.sku.empty()) j["sku"] = r.sku;
    if (!r.board_part.empty()) j["board_part"] = r.board_part;
    files.push_back(j);
  }
  nlohmann::json reg_json = nlohmann::json::object();
  for (const auto& [f, n] : registered) reg_json[family_name(f)] = n;
  fmt::print(
      "{}\n",
      nlohmann::json{{"expectations", args.expectations_dir}, {"registered", reg_json}, {"files", files}}.dump(2));
}

// One row per file: per family "judged/runnable here" (runnable = registered - unsupported),
// then the totals of the other three classes and quick's judged/selected.
void print_coverage_table(const std::vector<FileCoverage>& rows, const std::map<Family, std::size_t>& registered) {
  std::size_t wfile = 12;
  for (const FileCoverage& r : rows) wfile = std::max(wfile, r.file.size());
  std::vector<std::size_t> widths;
  for (Family f : coverage_families()) widths.push_back(std::max<std::size_t>(std::string(family_name(f)).size(), 7));
  std::string line = fmt::format("{:<{}}", "file", wfile);
  std::size_t i = 0;
  for (Family f : coverage_families()) line += fmt::format("  {:>{}}", family_name(f), widths[i++]);
  fmt::print("{}  recorded  no entry  unsupported  quick judged\n", line);
  line = fmt::format("{:<{}}", "(registered)", wfile);
  i = 0;
  for (Family f : coverage_families()) {
    const auto n = registered.find(f);
    line += fmt::format("  {:>{}}", n == registered.end() ? 0 : n->second, widths[i++]);
  }
  fmt::print("{}\n", line);
  for (const FileCoverage& r : rows) {
    line = fmt::format("{:<{}}", r.file, wfile);
    i = 0;
    for (Family f : coverage_families()) {
      const FamilyCoverage& c = r.families.at(f);
      line += fmt::format("  {:>{}}", fmt::format("{}/{}", c.judged, c.total() - c.unsupported), widths[i++]);
    }
    const FamilyCoverage t = r.all();
    line += fmt::format("  {:>8}  {:>8}  {:>11}  {:>12}", t.recorded, t.none, t.unsupported,
                        fmt::format("{}/{}", r.quick_judged, r.quick_selected));
    fmt::print("{}\n", line);
  }
  fmt::print(
      "\nfamily cells: judged / runnable on that architecture (registered minus unsupported).\n"
      "judged: an entry with a band or a limit; recorded: an entry of kind info (recorded, never fails);\n"
      "no entry: the probe runs there but skips; unsupported: it needs a newer compute capability or\n"
      "another arch-specific target. quick judged: of the probes `run --level quick` selects there, those\n"
      "judged. An overlay row is its architecture file with the overlay on top; a board-part row\n"
      "(sku/0xNNNN/<part>.toml) has its SKU's overlay between them, as `run` resolves a board of that\n"
      "part. A GPU whose architecture has no file judges nothing (exit 77).\n");
}

int list_coverage(const ListArgs& args) {
  CoverageFiles files;
  if (!find_coverage_files(args, files)) return kExitUnusable;
  std::vector<FileCoverage> rows;
  try {
    rows = coverage_rows(args, files);
  } catch (const ExpectationError& err) {
    fmt::print(stderr, "{}\n", err.what());
    return kExitFailed;
  }
  std::map<Family, std::size_t> registered;
  for (const Probe& p : Registry::instance().all())
    if (p.family != Family::selftest) ++registered[p.family];
  if (args.json)
    print_coverage_json(args, rows, registered);
  else
    print_coverage_table(rows, registered);
  return kExitOk;
}

// One clear message for an --sku that is no PCI device id and for an --overlay that does
// not exist: false after printing it (exit 2). A well-formed SKU without an overlay file
// (an H100 SXM, whose values are the architecture file's) gets a note.
bool check_sku_and_overlays(const ListArgs& args) {
  namespace fs = std::filesystem;
  if (!args.sku.empty()) {
    const std::string& s = args.sku;
    const bool form = s.size() == 6 && s.rfind("0x", 0) == 0 && std::all_of(s.begin() + 2, s.end(), [](char c) {
                        return std::isxdigit(static_cast<unsigned char>(c));
                      });
    if (!form) {
      fmt::print(stderr, "gpuconform list: --sku '{}' is not a PCI device id like 0x2330\n", s);
      return false;
    }
    if (!fs::exists(args.expectations_dir + "/sku/" + s + ".toml")) {
      std::vector<std::string> known;
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(args.expectations_dir + "/sku", ec))
        if (e.path().extension() == ".toml") known.push_back(e.path().stem().string());
      std::sort(known.begin(), known.end());
      fmt::print(stderr,
                 "gpuconform list: note: no SKU overlay {}/sku/{}.toml (overlays: {}); the architecture "
                 "file alone applies\n",
                 args.expectations_dir, s,
                 known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
    }
  }
  if (!args.board_part.empty()) {
    if (args.sku.empty() || !is_board_part_number(args.board_part)) {
      fmt::print(stderr,
                 "gpuconform list: --board-part needs --sku and a part number like 692-2G520-0282-001, not "
                 "'{}'\n",
                 args.board_part);
      return false;
    }
    const std::string path = board_part_overlay_path(args.expectations_dir, args.sku, args.board_part);
    if (!fs::exists(path)) {
      std::vector<std::string> known;
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(args.expectations_dir + "/sku/" + args.sku, ec))
        if (e.path().extension() == ".toml") known.push_back(e.path().stem().string());
      std::sort(known.begin(), known.end());
      fmt::print(stderr,
                 "gpuconform list: note: no board-part overlay {} (parts with one: {}); the SKU's entries "
                 "apply\n",
                 path, known.empty() ? std::string("none") : fmt::format("{}", fmt::join(known, ", ")));
    }
  }
  for (const std::string& o : args.overlays)
    if (!fs::is_regular_file(o)) {
      fmt::print(stderr, "gpuconform list: --overlay {}: {}\n", o,
                 fs::exists(o) ? "not a regular file" : "no such file");
      return false;
    }
  return true;
}

int list(const ListArgs& args) {
  const Registry& reg = Registry::instance();
  std::string arch = args.arch, sku = args.sku;
  if (!check_sku_and_overlays(args)) return kExitUnusable;
  if (args.coverage) {
    if (!args.level.empty() || args.sensitivity) {
      fmt::print(stderr, "gpuconform list: --coverage does not combine with --level or --sensitivity\n");
      return kExitUnusable;
    }
    return list_coverage(args);
  }
  if (arch.empty()) {
    fmt::print(stderr, "gpuconform list: give --arch sm_XX (e.g. --arch sm_90)\n");
    return kExitUnusable;
  }
  ExpectationQuery q;
  q.dir = args.expectations_dir;
  q.arch = arch;
  q.sku = sku;
  q.board_part = args.board_part;
  q.overlays = args.overlays;
  q.known_probe = [&](const std::string& id) { return reg.find(id) != nullptr; };
  q.probe_ids = reg.ids();
  ExpectationSet set;
  try {
    set = load_expectations(q);
  } catch (const ExpectationError& err) {
    fmt::print(stderr, "{}\n", err.what());
    return kExitFailed;
  }
  if (set.files().empty()) {
    fmt::print(stderr, "gpuconform list: no expectation file for {} in {}\n", arch, args.expectations_dir);
    return kExitUnusable;
  }
  if (!args.level.empty()) {
    const std::optional<RunLevel> level = parse_level(args.level);
    if (!level) {
      fmt::print(stderr, "gpuconform list: --level must be quick, standard or long (not '{}')\n", args.level);
      return kExitUnusable;
    }
    if (args.sensitivity) {
      fmt::print(stderr, "gpuconform list: --sensitivity and --level do not combine\n");
      return kExitUnusable;
    }
    return list_level(args, set, *level);
  }
  if (args.sensitivity) return list_sensitivity(args, set);
  if (args.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [id, e] : set.entries()) {
      nlohmann::json j = expectation_json(e);
      j["id"] = id;
      if (const Probe* p = reg.find(id)) {
        j["family"] = family_name(p->family);
        j["summary"] = p->summary;
      }
      out.push_back(j);
    }
    fmt::print("{}\n", out.dump(2));
    return kExitOk;
  }
  for (const auto& [id, e] : set.entries()) fmt::print("{:<44} {:<34} {}\n", id, describe_expected(e), e.source);
  return kExitOk;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto args = std::make_shared<ListArgs>();
  CLI::App* sub = app.add_subcommand("list", "Print the resolved expectations of an architecture (and SKU)");
  sub->add_option("--arch", args->arch, "Architecture, e.g. sm_90 (required except with --coverage)");
  sub->add_option("--sku", args->sku, "PCI device id of a SKU overlay, e.g. 0x2330");
  sub->add_option("--board-part", args->board_part,
                  "With --sku: the board's NVML board part number, e.g. 692-2G520-0282-001 (its overlay "
                  "sku/SKU/PART.toml applies on top, as `run` applies it)");
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory")->capture_default_str();
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last");
  sub->add_flag("--json", args->json, "JSON output");
  sub->add_option("--level", args->level,
                  "Show what `run --level quick|standard|long` selects, with recorded seconds and the total");
  sub->add_flag("--sensitivity", args->sensitivity,
                "Per entry, the smallest relative change from its healthy centre that warns and that fails; "
                "per family, the median and worst");
  sub->add_flag("--coverage", args->coverage,
                "Per expectation file (sm_XX.toml, sku/0xNNNN.toml) and probe family: how many probes are judged, "
                "recorded only, without an entry or unsupported; and how many of those --level quick selects are "
                "judged (--arch, --sku: only those files)");
  return [args] { return list(*args); };
}

}  // namespace gpuconform::cli
