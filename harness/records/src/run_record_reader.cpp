// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_record_reader.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_schema.hpp"

namespace gpuconform {
namespace {

using nlohmann::json;

// Thrown for a line that is JSON but not a usable record; caught with json::exception below
// and turned into "file:line: not a run record line: ...".
struct BadLine : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An integer field, range-checked: nlohmann's get<int>() on 1e300 or -1 would be undefined
// behaviour or a silent wrap, and run records are input we did not write.
template <typename Int>
Int integer(const json& j, const char* key) {
  const json& v = j.at(key);
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<Int>::max())
                               : v.get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<Int>::min()) &&
                                     v.get<std::int64_t>() <= static_cast<std::int64_t>(std::numeric_limits<Int>::max()))
      return static_cast<Int>(v.is_number_unsigned() ? v.get<std::uint64_t>() : v.get<std::int64_t>());
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && d >= static_cast<double>(std::numeric_limits<Int>::min()) &&
        d <= static_cast<double>(std::numeric_limits<Int>::max()))
      return static_cast<Int>(d);
  }
  // A number is short to print; anything else is named by type (dump() of a deeply nested
  // array would recurse once per level).
  throw BadLine(fmt::format("'{}' must be an integer in range, not {}", key,
                            v.is_number() ? v.dump() : std::string(v.type_name())));
}

template <typename Int>
Int integer_or(const json& j, const char* key, Int fallback) {
  return j.contains(key) ? integer<Int>(j, key) : fallback;
}

// measured.sampling back into Sampling: the relative half-width of the median's 95 % interval
// (throughput probes since 2026-11-26), laid around the value the probe reported. PCIe's value
// is the median of the faster half, its interval that of every copy: the width is what a
// judgement (verdict.cpp) and a derivation (the run term) use. No interval (fewer than 6
// samples: a half-width of -1) reads as none.
std::optional<Sampling> sampling_from_json(const json& measured) {
  const json& s = measured.at("sampling");
  const json& value = measured.at("value");
  if (!s.is_object() || !s.contains("rel_half_width") || !s.at("rel_half_width").is_number() || !value.is_number())
    return std::nullopt;
  const double rel = s.at("rel_half_width").get<double>(), v = value.get<double>();
  if (!std::isfinite(rel) || rel < 0) return std::nullopt;
  Sampling out;
  out.interval.median = v;
  out.interval.low = v - rel * std::fabs(v);
  out.interval.high = v + rel * std::fabs(v);
  out.interval.valid = true;
  out.target_rel_half_width = s.value("target_rel_half_width", 0.0);
  out.stopped = s.value("stopped", std::string());
  return out;
}

// The leading number of a note such as "2.14106e+15 FLOP/s (8192 FLOP/clk/SM x ...)": the
// records written before peak_at_max_clock was a field of its own.
std::optional<double> leading_number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// The inverse of measurement_json() for what a derivation and a judgement read: value, unit,
// peak (and the peak at the maximum clock), the sampling interval, compared count, clock and
// notes (the model name of a numeric probe).
Measurement measurement_from_json(const json& j) {
  Measurement m;
  // A non-finite value is written as null (JSON has no NaN or infinity): it reads as NaN.
  const json& value = j.at("value");
  m.value = value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
  m.unit = j.at("unit").get<std::string>();
  if (j.contains("samples")) m.samples = j.at("samples").get<std::vector<double>>();
  if (j.contains("peak")) m.peak = j.at("peak").get<double>();
  if (j.contains("peak_formula")) m.peak_formula = j.at("peak_formula").get<std::string>();
  if (j.contains("compared")) m.compared = integer<std::uint64_t>(j, "compared");
  if (j.contains("sm_clock_mhz")) m.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
  if (j.contains("notes"))
    for (const auto& [k, v] : j.at("notes").items())
      if (v.is_string()) m.note(k, v.get<std::string>());
  if (j.contains("sampling")) m.sampling = sampling_from_json(j);
  if (j.contains("peak_at_max_clock") && j.at("peak_at_max_clock").is_number())
    m.peak_at_max_clock = j.at("peak_at_max_clock").get<double>();
  else if (j.contains("notes") && j.at("notes").contains("peak_at_max_clock") &&
           j.at("notes").at("peak_at_max_clock").is_string())
    m.peak_at_max_clock = leading_number(j.at("notes").at("peak_at_max_clock").get<std::string>());
  return m;
}

// Parses one line and checks what every record kind shares: an object whose schema_version
// (absent: 1) this build knows. Returns whether it is a test line.
bool parse_line(const std::string& text, json& j) {
  j = json::parse(text);
  if (!j.is_object()) throw BadLine("not a JSON object");
  const int version = integer_or<int>(j, "schema_version", 1);
  if (version < 1) throw BadLine(fmt::format("schema_version {} is not a version", version));
  if (version > kRunRecordSchemaVersion)
    throw BadLine(fmt::format("schema_version {} is newer than this gpuconform reads (up to {}): "
                              "read it with the suite that wrote it or a newer one",
                              version, kRunRecordSchemaVersion));
  if (!j.contains("record")) return true;
  return j.at("record").get<std::string>() == "test";
}

// A board's id, as device or as peer: its UUID, else its PCI bus id. Both roles share
// the fallback so that a board without a UUID is one board in "A" and in "B>A".
std::string board_id(const json& d) {
  const std::string uuid = d.value("uuid", std::string());
  return uuid.empty() ? d.value("pci_bus_id", std::string()) : uuid;
}

// "peers" of a pair or node probe: [{index, uuid, pci_bus_id, name}, ...]. Checked by hand
// because a peer without a uuid would silently file the result under the wrong key.
void read_peers(const json& j, RecordedRun& r) {
  if (!j.contains("peers")) return;
  const json& peers = j.at("peers");
  if (!peers.is_array()) throw BadLine(fmt::format("'peers' must be an array of objects, not {}", peers.type_name()));
  for (const json& p : peers) {
    if (!p.is_object() || !p.contains("uuid") || !p.at("uuid").is_string())
      throw BadLine("each of 'peers' must be an object with a string 'uuid'");
    r.peers.push_back(board_id(p));
    r.peer_indices.push_back(integer_or<int>(p, "index", -1));
  }
}

RecordedRun recorded_run(const json& j, const std::string& path, int line) {
  RecordedRun r;
  r.file = path;
  r.line = line;
  r.probe = j.at("probe").get<std::string>();
  const json& d = j.at("device");
  r.arch = d.at("arch").get<std::string>();
  r.sku = d.value("sku", std::string());
  r.board = board_id(d);
  r.device_index = integer_or<int>(d, "index", -1);
  read_peers(j, r);
  r.gpu = board_key(r.board, r.peers);
  r.gpu_name = d.value("name", std::string());
  r.driver = d.value("driver", std::string());
  r.cuda_runtime = integer_or<int>(d, "cuda_runtime_version", 0);
  if (j.contains("suite")) r.suite_commit = j.at("suite").value("commit", std::string());
  r.verdict = j.value("verdict", std::string());
  r.reason = j.value("reason", std::string());
  r.level = j.value("level", std::string());
  if (const auto e = j.find("expected");
      e != j.end() && e->is_object() && e->contains("kind") && (*e)["kind"].is_string())
    r.expected_kind = (*e)["kind"].get<std::string>();
  if (j.contains("seconds") && j.at("seconds").is_number()) r.seconds = j.at("seconds").get<double>();
  r.measurement = measurement_from_json(j.at("measured"));
  return r;
}

// "VBIOS x, board y, inforom z" from a gpu_state line's state (the parts it has), "" without.
std::string firmware_of(const json& j) {
  const auto st = j.find("state");
  if (st == j.end() || !st->is_object()) return "";
  std::string out;
  for (const auto& [key, label] : {std::pair<const char*, const char*>{"vbios_version", "VBIOS"},
                                   {"board_part_number", "board"},
                                   {"inforom_image_version", "inforom"}}) {
    const auto v = st->find(key);
    if (v != st->end() && v->is_string() && !v->get<std::string>().empty())
      out += (out.empty() ? "" : ", ") + std::string(label) + " " + v->get<std::string>();
  }
  return out;
}

// The board part number of a gpu_state line, "" without one.
std::string board_part_of(const json& j) {
  const auto st = j.find("state");
  if (st == j.end() || !st->is_object()) return "";
  const auto v = st->find("board_part_number");
  return v != st->end() && v->is_string() ? v->get<std::string>() : "";
}

}  // namespace

std::string board_key(const std::string& uuid, const std::vector<std::string>& peer_uuids) {
  if (peer_uuids.empty()) return uuid;
  std::string key = uuid + ">";
  for (std::size_t i = 0; i < peer_uuids.size(); ++i) key += (i ? "," : "") + peer_uuids[i];
  return key;
}

std::vector<RecordedRun> parse_run_record_text(std::string_view text, const std::string& path,
                                               std::string* cut_last_line) {
  std::vector<RecordedRun> out;
  std::map<std::string, std::string> firmware;  // board id -> its firmware (the runner writes gpu_state first)
  std::map<std::string, std::string> parts;     // board id -> its board part number
  int line = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    const bool unterminated = end == std::string_view::npos;
    if (unterminated) end = text.size();
    const std::string row(text.substr(pos, end - pos));
    pos = end + 1;
    ++line;
    if (row.empty()) continue;
    try {
      json j;
      if (!parse_line(row, j)) {
        if (j.value("record", std::string()) == "gpu_state" && j.contains("device") && j["device"].is_object()) {
          if (std::string f = firmware_of(j); !f.empty()) firmware[board_id(j["device"])] = std::move(f);
          if (std::string p = board_part_of(j); !p.empty()) parts[board_id(j["device"])] = std::move(p);
        }
        continue;
      }
      if (!j.contains("measured")) continue;
      out.push_back(recorded_run(j, path, line));
      if (const auto f = firmware.find(out.back().board); f != firmware.end()) out.back().firmware = f->second;
      if (const auto p = parts.find(out.back().board); p != parts.end()) out.back().board_part = p->second;
    } catch (const json::parse_error& e) {
      // A writer appends whole lines, each ended by a newline: a last line without one that
      // is not even JSON was cut mid-write (a run that crashed or was killed, the record an
      // operator most wants to read). It is dropped with a warning when lines before it were
      // read whole; any other bad line, and a file that is nothing but one, stays an error.
      if (unterminated && line > 1) {
        const std::string warning = fmt::format("{}:{}: the last line is cut ({} bytes, no newline): dropped, the "
                                                "{} line(s) before it are read",
                                                path, line, row.size(), line - 1);
        if (cut_last_line) *cut_last_line = warning;
        else fmt::print(stderr, "warning: {}\n", warning);
        break;
      }
      throw std::runtime_error(fmt::format("{}:{}: not a run record line: {}", path, line, e.what()));
    } catch (const json::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: not a run record line: {}", path, line, e.what()));
    } catch (const BadLine& e) {
      throw std::runtime_error(fmt::format("{}:{}: not a run record line: {}", path, line, e.what()));
    }
  }
  return out;
}

std::vector<RecordedRun> read_run_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the run record", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_run_record_text(text.str(), path);
}

std::string run_record_line_problem(const std::string& path, long line, const std::string& probe_id) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "not found or not a regular file";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "not readable";
  std::string text;
  for (long i = 0; i < line; ++i)
    if (!std::getline(in, text)) return fmt::format("has fewer than {} lines", line);
  try {
    json j;
    if (!parse_line(text, j))
      return fmt::format("line {} is a '{}' record, not a test", line, j.at("record").get<std::string>());
    const std::string probe = j.at("probe").get<std::string>();
    if (probe != probe_id) return fmt::format("line {} is not a record of probe '{}' (it records '{}')", line, probe_id, probe);
    if (!j.contains("measured")) return fmt::format("line {} has no measurement", line);
  } catch (const json::exception& e) {
    return fmt::format("line {} is not a run record line: {}", line, e.what());
  } catch (const BadLine& e) {
    return fmt::format("line {} is not a run record line: {}", line, e.what());
  }
  return {};
}

}  // namespace gpuconform
