// `gpuconform list`: the resolved expectations for an architecture (and SKU)
// with their provenance, as a table or JSON. Needs no GPU.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::cli {
namespace {

struct ListArgs {
  std::string arch, sku;
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  bool json = false;
};

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
  return [args] { return list(*args); };
}

}  // namespace gpuconform::cli
