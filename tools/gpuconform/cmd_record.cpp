// SPDX-License-Identifier: Apache-2.0
// `gpuconform record`: measure this GPU and write (or extend) an expectation
// file whose every entry cites the run record line it came from.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "gpuconform/conformance.hpp"
#include "gpuconform/atomic_file.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/selftest_injection.hpp"

namespace gpuconform::cli {
namespace {
namespace fs = std::filesystem;

struct RecordArgs {
  int device = 0;
  std::string out;
  std::string evidence;
  std::vector<std::string> probes{"*"};
  int runs = 3;
  bool overlay = false;
  std::string description;
  bool quick = false;
  std::vector<std::string> from;  // run records to derive from instead of measuring
  bool missing = false;           // only probes the file has no entry for
  std::vector<std::string> gpus;  // --from: only runs of boards whose UUID starts so
  std::string policy;             // band policy file ("" = the one beside the expectations)
  std::string sku;                // --from: an overlay from only this SKU's boards
  std::string base;               // --sku: the architecture file the overlay differs from
  std::string board_part;         // --sku: the board-part overlay of boards of this part number
};

int count_lines(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

// Reads an expectation file; false (after saying why) when it is invalid.
bool load_file(const std::string& path, ExpectationFile& file, const char* what) {
  std::vector<Diagnostic> diags;
  const Registry& reg = Registry::instance();
  file = parse_expectation_file(
      path, diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
  if (diags.empty()) return true;
  for (const auto& d : diags) fmt::print(stderr, "{}\n", d.str());
  fmt::print(stderr, "gpuconform record: {} {} is invalid; fix it first\n", what, path);
  return false;
}

// Reads the file `record` extends (none yet is fine).
bool load_existing(const std::string& out, ExpectationFile& file) {
  file.path = out;
  if (!fs::exists(out)) return true;
  return load_file(out, file, "the output file");
}

// The band policy: --policy, else evidence/policy.toml of the expectations directory.
// A missing default is not an error (fail band = drift band, and every note says so).
bool load_policy(const RecordArgs& args, BandPolicy& policy) {
  const std::string path = args.policy.empty() ? default_expectations_dir() + "/evidence/policy.toml" : args.policy;
  if (args.policy.empty() && !fs::exists(path)) {
    fmt::print("note: no band policy at {}: fail bands will equal drift bands (--policy FILE)\n", path);
    return true;
  }
  std::vector<Diagnostic> diags;
  policy = parse_band_policy_file(path, diags);
  for (const auto& d : diags) fmt::print(stderr, "{}\n", d.str());
  if (!diags.empty()) fmt::print(stderr, "gpuconform record: the band policy {} is invalid\n", path);
  return diags.empty();
}

const Expectation* find_entry(const ExpectationFile& file, const std::string& id) {
  for (const Expectation& e : file.entries)
    if (e.probe_id == id) return &e;
  return nullptr;
}

void replace_entry(ExpectationFile& file, Expectation e) {
  file.entries.erase(std::remove_if(file.entries.begin(), file.entries.end(),
                                    [&](const Expectation& x) { return x.probe_id == e.probe_id; }),
                     file.entries.end());
  file.entries.push_back(std::move(e));
}

void write_file(ExpectationFile& file, const std::string& out) {
  std::sort(file.entries.begin(), file.entries.end(),
            [](const Expectation& a, const Expectation& b) { return a.probe_id < b.probe_id; });
  const std::string text = render_expectation_file(file);
  fs::create_directories(fs::absolute(out).parent_path());
  write_file_atomically(out, text);  // a crash never leaves half a file
}

// What a re-derivation must not overwrite: a literature value, and an exact entry's
// model id (the evidence can only confirm it). Empty when the entry may be replaced.
std::string kept_because(const Expectation* existing) {
  if (!existing) return "";
  if (existing->source.rfind("cite:", 0) == 0) return "cites the literature";
  if (existing->kind == ExpectationKind::exact) return "exact: its model id is kept";
  return "";
}

// The runs of every wanted probe, grouped per board in order of first appearance,
// after the --gpu and --sku filters and without the runs the band policy retires.
struct Pooled {
  PooledRuns per_probe;
  std::map<std::string, int> retired;  // why -> runs
};

// A run of a wanted probe on a wanted board (--probe, --gpu, --sku; with --board-part, a
// probe the policy splits by board part, on a board of that part).
bool wanted(const RecordedRun& r, const RecordArgs& args, const BandPolicy& policy) {
  if (!args.board_part.empty() && (r.board_part != args.board_part || !policy.splits_by_board_part(args.sku, r.probe)))
    return false;
  if (!glob_match_any(args.probes, r.probe)) return false;
  if (const Probe* probe = Registry::instance().find(r.probe); probe && !is_selectable(*probe)) return false;
  if (!args.gpus.empty() && std::none_of(args.gpus.begin(), args.gpus.end(),
                                         [&](const std::string& g) { return r.gpu.rfind(g, 0) == 0; }))
    return false;
  return args.sku.empty() || r.sku == args.sku;
}

// The node size each node-probe entry holds for (Expectation::node_gpus), from the file being
// written and, for an overlay, the file it overlays.
std::map<std::string, int> node_sizes(const ExpectationFile& file, const ExpectationFile& base) {
  std::map<std::string, int> sizes;
  for (const ExpectationFile* f : {&base, &file})
    for (const Expectation& e : f->entries)
      if (e.node_gpus) sizes[e.probe_id] = *e.node_gpus;
  return sizes;
}

// Why a node probe's run is not evidence for its entry ("" when it is): a node of another size.
std::string other_node_size(const RecordedRun& r, const std::map<std::string, int>& sizes) {
  const auto it = sizes.find(r.probe);
  if (it == sizes.end() || r.peers.empty()) return "";
  const int gpus = static_cast<int>(r.peers.size()) + 1;
  if (gpus == it->second) return "";
  return fmt::format("{} on a node of {} GPUs: its entry holds for nodes of {} (node_gpus)", r.probe, gpus, it->second);
}

Pooled pool_runs(const std::vector<TimedRun>& all, const RecordArgs& args, const BandPolicy& policy,
                 const fs::path& out_dir, const std::map<std::string, int>& sizes) {
  Pooled pooled;
  const auto source = [&](const TimedRun& r) {
    return fmt::format("run:{}:{}", fs::relative(fs::absolute(r.run.file), out_dir).string(), r.run.line);
  };
  for (const TimedRun& r : all) {
    if (!wanted(r.run, args, policy)) continue;
    if (const std::string why = retired_because(policy, r); !why.empty()) {
      ++pooled.retired[why];
      continue;
    }
    if (const std::string why = other_node_size(r.run, sizes); !why.empty()) {
      ++pooled.retired[why];
      continue;
    }
    add_to_pool(pooled.per_probe, r, source);
  }
  return pooled;
}

// What the evidence in hand says each class's spread_rel should be, beside what the policy
// states; a stated spread below what these records show is raised by hand (with its `why`).
// Classes measured on another SKU's boards, and floor_rel, are held to all the evidence by
// tests/unit/committed_policy_test.cpp.
void check_class_spreads(const BandPolicy& policy, const Pooled& pooled, const std::vector<TimedRun>& all) {
  std::map<std::string, std::pair<std::string, std::string>> board_of;  // board -> SKU, board part
  for (const TimedRun& r : all) board_of[r.run.gpu] = {r.run.sku, r.run.board_part};
  std::vector<ProbeEvidence> evidence;
  for (const auto& [id, boards] : pooled.per_probe) {
    const Probe* probe = Registry::instance().find(id);
    if (!probe || probe->record.kind == ExpectationKind::exact || probe->record.kind == ExpectationKind::info) continue;
    std::map<std::string, std::vector<BoardRuns>> per_group;
    for (const BoardRuns& b : boards) {
      const auto& [sku, part] = board_of[b.gpu];
      if (std::string group = spread_group(policy, sku, part, id); !group.empty()) per_group[group].push_back(b);
    }
    for (const auto& [group, group_boards] : per_group)
      evidence.push_back(ProbeEvidence{id, group, judged_values(*probe, group_boards)});
  }
  for (const auto& [name, seen] : class_spreads_from_evidence(policy, evidence)) {
    const PolicyClass* c = nullptr;
    for (const PolicyClass& x : policy.classes)
      if (x.name == name) c = &x;
    if (!c) continue;
    if (seen.probe.empty()) {
      fmt::print("class {:<18} spread_rel {}: no probe on {} boards in these records\n", name, c->spread_rel,
                 policy.min_boards);
      continue;
    }
    fmt::print("class {:<18} spread_rel {} (these records: {:.4g}, {} on {} boards), floor_rel {} (median of {} "
               "probes: {:.4g})\n",
               name, c->spread_rel, seen.spread_rel, seen.probe, seen.boards, c->floor_rel, seen.probes,
               seen.median_rel);
    if (seen.spread_rel > c->spread_rel)
      fmt::print(stderr, "warning: {}: class '{}' states spread_rel {} but {} on {} boards shows {:.4g}; raise it\n",
                 c->where.str(), name, c->spread_rel, seen.probe, seen.boards, seen.spread_rel);
  }
}

// Judgement flags set by hand on an entry, which a re-derivation keeps: the SASS opcodes
// the timed code must contain, whether a fraction also holds at the maximum clock, and the
// node size a node probe's entry holds for (node_gpus).
void keep_hand_fields(Expectation& e, const Expectation* existing) {
  if (!existing) return;
  if (e.sass.empty()) e.sass = existing->sass;
  if (e.kind == ExpectationKind::fraction_of_peak && existing->kind == ExpectationKind::fraction_of_peak)
    e.at_max_clock = e.at_max_clock || existing->at_max_clock;
  if (!e.node_gpus) e.node_gpus = existing->node_gpus;
}

// A run with self-test fault injection measured a deliberately degraded GPU: never evidence
// (docs/selftest.md). True, after saying which file and line, when one of `paths` is one.
bool refuses_injected_records(const std::vector<std::string>& paths) {
  for (const auto& path : paths)
    if (const auto line = selftest::injected_record_line(path)) {
      fmt::print(stderr, "gpuconform record: {} was written with self-test fault injection: not evidence\n", *line);
      return true;
    }
  return false;
}

// --board-part: a part number that can name a file, with --sku, a policy that splits probes by
// part on that SKU, and an --out of the same part. False after saying why; else `file` is that part's.
bool take_board_part(const RecordArgs& args, const BandPolicy& policy, ExpectationFile& file) {
  if (args.sku.empty() || !is_board_part_number(args.board_part)) {
    fmt::print(stderr,
               "gpuconform record: --board-part needs --sku and a part number like 692-2G520-0282-001 "
               "(letters, digits, '-', '.', '_'), not '{}'\n",
               args.board_part);
    return false;
  }
  if (!file.board_part.empty() && file.board_part != args.board_part) {
    fmt::print(stderr, "gpuconform record: {} is the overlay of board part {}, not {}\n", args.out, file.board_part,
               args.board_part);
    return false;
  }
  if (std::none_of(policy.board_parts.begin(), policy.board_parts.end(),
                   [&](const PolicyBoardPart& b) { return b.sku == args.sku; })) {
    fmt::print(stderr,
               "gpuconform record: the band policy {} names no probe that splits by board part on SKU {} "
               "([[board_part]])\n",
               policy.path, args.sku);
    return false;
  }
  file.board_part = args.board_part;
  return true;
}

// `record --from`: no GPU. Derives each wanted probe from the runs of one or more boards
// of one architecture (or, with --sku, of one SKU: an overlay holding only what differs
// from the architecture file beyond its drift band).
int record_from_runs(const RecordArgs& args) {
  if (refuses_injected_records(args.from)) return kExitUnusable;
  std::vector<TimedRun> all;
  try {
    for (const auto& path : args.from) {
      auto runs = read_timed_runs(path);
      all.insert(all.end(), std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform record: {}\n", e.what());
    return kExitUnusable;
  }
  BandPolicy policy;
  if (!load_policy(args, policy)) return kExitUnusable;
  ExpectationFile file;
  if (!load_existing(args.out, file)) return kExitUnusable;
  const bool overlay = args.overlay || !args.sku.empty();
  if (!args.sku.empty()) {
    if (!file.sku.empty() && file.sku != args.sku) {
      fmt::print(stderr, "gpuconform record: {} is the overlay of SKU {}, not {}\n", args.out, file.sku, args.sku);
      return kExitUnusable;
    }
    file.sku = args.sku;
  }
  if (!args.board_part.empty() && !take_board_part(args, policy, file)) return kExitUnusable;
  const fs::path out_dir = fs::absolute(args.out).parent_path();

  // One architecture file, or one SKU's overlay: refuse runs from elsewhere.
  std::string arch;
  for (const TimedRun& timed : all) {
    const RecordedRun& r = timed.run;
    if (!wanted(r, args, policy)) continue;
    std::string& scope = overlay ? file.sku : file.arch;
    const std::string& run_scope = overlay ? r.sku : r.arch;
    if (scope.empty()) scope = run_scope;
    if (run_scope != scope) {
      fmt::print(stderr, "gpuconform record: {}:{} is a run on {}; {} is for {}\n", r.file, r.line, run_scope,
                 args.out, scope);
      return kExitUnusable;
    }
    arch = r.arch;
  }
  ExpectationFile base;
  if (!args.sku.empty()) {
    const std::string base_path = args.base.empty() ? (out_dir.parent_path() / (arch + ".toml")).string() : args.base;
    if (!fs::exists(base_path)) {
      fmt::print(stderr, "gpuconform record: --sku needs the architecture file it overlays ({} not found; --base FILE)\n",
                 base_path);
      return kExitUnusable;
    }
    if (!load_file(base_path, base, "the base file")) return kExitUnusable;
  }
  const Pooled pooled = pool_runs(all, args, policy, out_dir, node_sizes(file, base));
  for (const auto& [why, runs] : pooled.retired) fmt::print("left out {} run(s): {}\n", runs, why);
  check_class_spreads(policy, pooled, all);  // a SKU's boards can measure a class too

  int written = 0, failures = 0, same = 0;
  for (const auto& [id, boards] : pooled.per_probe) {
    const Probe* probe = Registry::instance().find(id);
    if (!probe) continue;  // a probe this build no longer has
    const Expectation* existing = find_entry(file, id);
    if (const std::string why = kept_because(existing); !why.empty()) {
      Expectation kept = *existing;
      if (const auto seconds = largest_seconds(boards)) kept.seconds = seconds;  // the runner's time limit
      replace_entry(file, std::move(kept));
      fmt::print("  kept     {:<44} {}\n", id, why);
      continue;
    }
    try {
      Expectation e = derive_expectation_across(*probe, boards, policy);
      keep_hand_fields(e, existing);  // written by hand, never derived
      // A board-part overlay holds every probe the policy splits by part: its centre is the point.
      if (!args.sku.empty() && args.board_part.empty()) {
        const Expectation* in_base = find_entry(base, id);
        // A node-health threshold the base cites (ECC on, a temperature margin above 0, ...) holds
        // for every SKU: a SKU's healthy readings are not its limit (an H200 node's idle margins
        // of 50-55 C became a floor that failed the next H200 at 44-49 C, 2026-11-26).
        const bool cited_health = probe->family == Family::health && in_base && in_base->source.rfind("cite:", 0) == 0;
        if (cited_health || (in_base && !differs_beyond_drift(e, *in_base, boards_seen(*probe, boards, policy)))) {
          ++same;  // the base file holds this SKU: an older overlay entry is no longer needed
          file.entries.erase(std::remove_if(file.entries.begin(), file.entries.end(),
                                            [&](const Expectation& x) { return x.probe_id == id; }),
                             file.entries.end());
          continue;
        }
        keep_hand_fields(e, in_base);
      } else if (!args.board_part.empty()) {
        keep_hand_fields(e, find_entry(base, id));
      }
      replace_entry(file, std::move(e));
      ++written;
      fmt::print("  derived  {:<44} from {} board(s)\n", id, boards.size());
    } catch (const std::exception& err) {
      ++failures;
      fmt::print("  FAILED   {:<44} {}\n", id, err.what());
    }
  }
  if (written == 0 && same == 0) {
    fmt::print(
        stderr, "gpuconform record: no run of a probe matching {}{}{} in the given run records\n",
        fmt::join(args.probes, " "), args.sku.empty() ? "" : " on SKU " + args.sku,
        args.board_part.empty() ? "" : " split by board part ([[board_part]]) on boards of part " + args.board_part);
    return kExitUnusable;
  }
  if (same) fmt::print("{} probe(s) of SKU {} lie inside the base file's drift bands: no overlay entry\n", same, args.sku);
  if (file.description.empty()) file.description = args.description;
  if (!args.sku.empty() && file.entries.empty() && file.waivers.empty()) {
    fmt::print("SKU {} needs no overlay: {} not written\n", args.sku, args.out);
    return failures ? kExitFailed : kExitOk;
  }
  write_file(file, args.out);
  fmt::print("wrote {} entries to {}\n", written, args.out);
  return failures ? kExitFailed : kExitOk;
}

int record(const RecordArgs& args) {
  if (!args.from.empty()) return record_from_runs(args);
  std::string why;
  const int count = device_count(&why);
  if (count == 0) {
    fmt::print(stderr, "gpuconform record: {}; nothing was recorded\n", why);
    return kExitUnusable;
  }
  if (args.device < 0 || args.device >= count) {
    fmt::print(stderr, "gpuconform record: --device {} does not exist (0..{})\n", args.device, count - 1);
    return kExitUnusable;
  }
  const DeviceInfo device = query_device(args.device);
  BandPolicy policy;
  if (!load_policy(args, policy)) return kExitUnusable;
  ExpectationFile file;
  if (!load_existing(args.out, file)) return kExitUnusable;
  if (args.overlay) file.sku = device.sku(); else file.arch = device.arch();
  if (!args.description.empty()) file.description = args.description;
  if (file.description.empty()) file.description = device.name;

  const fs::path out_dir = fs::absolute(args.out).parent_path();
  const std::string evidence = args.evidence.empty()
      ? (out_dir / "evidence" / fmt::format("{}-{}-{}.jsonl", device.arch(), device.sku().empty() ? "unknown" : device.sku(),
                                             utc_timestamp().substr(0, 10))).string()
      : args.evidence;
  fs::create_directories(fs::absolute(evidence).parent_path());
  const std::string cited = fs::relative(fs::absolute(evidence), out_dir).string();
  int line = count_lines(evidence);
  int failures = 0, written = 0;
  fmt::print("recording on GPU {}: {} ({}, SKU {}), {} run(s) per probe\n", device.index, device.name, device.arch(),
             device.sku(), args.runs);
  for (const Probe& probe : Registry::instance().all()) {
    if (!is_selectable(probe) || !glob_match_any(args.probes, probe.id)) continue;
    if (args.missing && std::any_of(file.entries.begin(), file.entries.end(),
                                    [&](const Expectation& e) { return e.probe_id == probe.id; }))
      continue;
    std::vector<Measurement> runs;
    std::optional<double> seconds;
    int first_line = 0;
    try {
      for (int r = 0; r < args.runs; ++r) {
        const auto started = std::chrono::steady_clock::now();
        runs.push_back(run_probe(probe, device, RunOptions{args.quick}));
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        seconds = std::max(seconds.value_or(0), took);
        TestResult result;
        result.probe = &probe;
        result.measurement = runs.back();
        result.seconds = took;  // the entry's `seconds` (and so the runner's time limit) come from this
        result.verdict.reason = fmt::format("recorded (run {} of {})", r + 1, args.runs);
        nlohmann::json json = record_json(result, device);
        json["verdict"] = "recorded";
        append_record_line(evidence, json);
        if (!first_line) first_line = line + 1;
        ++line;
      }
      Expectation e = derive_expectation_across(
          probe, {BoardRuns{device.uuid, fmt::format("run:{}:{}", cited, first_line), runs, seconds}}, policy);
      keep_hand_fields(e, find_entry(file, probe.id));
      replace_entry(file, std::move(e));
      ++written;
      fmt::print("  recorded {:<44} {}\n", probe.id, runs.front().unit);
    } catch (const ProbeSkipped& s) {
      fmt::print("  skipped  {:<44} {}\n", probe.id, s.what());
    } catch (const std::exception& err) {
      ++failures;
      fmt::print("  FAILED   {:<44} {}\n", probe.id, err.what());
    }
  }
  write_file(file, args.out);
  fmt::print("wrote {} entries to {} (evidence: {})\n", written, args.out, evidence);
  return failures ? kExitFailed : kExitOk;
}

}  // namespace

Command add_record_command(CLI::App& app) {
  auto args = std::make_shared<RecordArgs>();
  CLI::App* sub = app.add_subcommand("record", "Measure this GPU and write an expectation file (or a SKU overlay)");
  sub->add_option("--device", args->device, "GPU ordinal")->capture_default_str();
  sub->add_option("--out", args->out, "Expectation file to write or extend")->required();
  sub->add_option("--evidence", args->evidence, "Run record to append to (default: <out dir>/evidence/ARCH-SKU-DATE.jsonl)");
  sub->add_option("--probe", args->probes, "Probe id glob(s)")->capture_default_str();
  sub->add_option("--runs", args->runs, "Runs per probe; the tolerance comes from their spread")
      ->check(CLI::Range(1, 100))->capture_default_str();
  sub->add_flag("--overlay", args->overlay, "Write a SKU overlay ([meta] sku) instead of an architecture file");
  sub->add_option("--description", args->description, "[meta] description");
  sub->add_flag("--quick", args->quick, "Fewer repeats inside each run");
  sub->add_option("--from", args->from,
                  "Derive from these run records (one or more GPUs of one SKU) instead of measuring; needs no GPU")
      ->check(CLI::ExistingFile);
  sub->add_flag("--missing", args->missing, "Only the matching probes that have no entry in --out yet");
  sub->add_option("--gpu", args->gpus,
                  "With --from: only runs of the boards whose UUID starts with one of these (e.g. GPU-4250cf40)");
  sub->add_option("--policy", args->policy,
                  "Band policy (default: evidence/policy.toml of the expectations directory)");
  sub->add_option("--sku", args->sku,
                  "With --from: write the overlay of this PCI device id (e.g. 0x2335) from only its boards, holding "
                  "the entries that differ from the architecture file beyond its drift band");
  sub->add_option("--base", args->base, "With --sku: the architecture file (default: ../ARCH.toml beside --out)");
  sub->add_option("--board-part", args->board_part,
                  "With --sku: write the board-part overlay (sku/SKU/PART.toml) of boards of this NVML board part "
                  "number, holding every probe the band policy splits by part ([[board_part]])");
  return [args] { return record(*args); };
}

}  // namespace gpuconform::cli
