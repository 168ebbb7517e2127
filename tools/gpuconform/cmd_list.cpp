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
#include "gpuconform/verdict.hpp"

namespace gpuconform::cli {
namespace {

struct ListArgs {
  std::string arch, sku;
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  bool json = false;
  std::string level;  // "": every entry; else what `run --level` selects, with seconds
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
    return list_level(args, set, *level);
  }
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
  return [args] { return list(*args); };
}

}  // namespace gpuconform::cli
