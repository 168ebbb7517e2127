// `gpuconform list`: the resolved expectations for an architecture (and SKU)
// with their provenance, as a table or JSON. Needs no GPU.
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
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  bool json = false;
  std::string level;  // "": every entry; else what `run --level` selects, with seconds
  bool sensitivity = false;  // per entry: the relative change that first warns and fails
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
    fmt::print(stderr, "gpuconform list: --arch '{}' is not of the form sm_XX (or --sku '{}' not 0xNNNN)\n",
               args.arch, args.sku);
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
                                 : e                ? describe_expected(*e)
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
  fmt::print("{} probe(s) at level {}: {:.2f} s as recorded{}, plus start-up (the GPU's and each worker's CUDA "
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
  fmt::print("Changes are relative to the healthy centre (median of the evidence boards' medians), in the bad "
             "direction: - lower, + higher, both for bands; \"centre\": the healthy centre already lies beyond the limit. Per family: the "
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

int list(const ListArgs& args) {
  const Registry& reg = Registry::instance();
  std::string arch = args.arch, sku = args.sku;
  if (arch.empty()) {
    fmt::print(stderr, "gpuconform list: give --arch sm_XX (e.g. --arch sm_90)\n");
    return kExitUnusable;
  }
  ExpectationQuery q;
  q.dir = args.expectations_dir;
  q.arch = arch;
  q.sku = sku;
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
  for (const auto& [id, e] : set.entries())
    fmt::print("{:<44} {:<34} {}\n", id, describe_expected(e), e.source);
  return kExitOk;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto args = std::make_shared<ListArgs>();
  CLI::App* sub = app.add_subcommand("list", "Print the resolved expectations of an architecture (and SKU)");
  sub->add_option("--arch", args->arch, "Architecture, e.g. sm_90")->required();
  sub->add_option("--sku", args->sku, "PCI device id of a SKU overlay, e.g. 0x2330");
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory")->capture_default_str();
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last");
  sub->add_flag("--json", args->json, "JSON output");
  sub->add_option("--level", args->level,
                  "Show what `run --level quick|standard|long` selects, with recorded seconds and the total");
  sub->add_flag("--sensitivity", args->sensitivity,
                "Per entry, the smallest relative change from its healthy centre that warns and that fails; "
                "per family, the median and worst");
  return [args] { return list(*args); };
}

}  // namespace gpuconform::cli
