// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading run records back (the JSONL that `run` and `record` write): what `record --from`
// derives expectations from and `compare` compares, without a GPU. The record's shape and
// versions: run_record_schema.hpp.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform {

// The key a reader files a result under: the board's UUID for a per-GPU probe;
// for a pair or node probe "UUID>PEER[,PEER...]" (A>B: from A to B), so that a pair of
// boards is compared and pooled as one unit. Empty peer UUIDs are left as they are.
std::string board_key(const std::string& uuid, const std::vector<std::string>& peer_uuids);

// One line of a run record that carries a measurement.
struct RecordedRun {
  std::string file;  // as given
  int line = 0;      // 1-based
  std::string probe;
  std::string arch, sku;
  // The unit a result is filed under: the board's id (its UUID, the PCI bus id when the
  // UUID is empty); for a pair or node probe board_key(board, peers), "A>B", so that a
  // pair of boards is pooled, paired and compared as one unit everywhere.
  std::string gpu;
  std::string board;                // the device's own id: `gpu` without the peers
  std::vector<std::string> peers;   // the peers' ids (as `board`), in record order; empty for per-GPU probes
  int device_index = -1;            // CUDA device index at run time; -1 when the line lacks it
  std::vector<int> peer_indices;    // the peers' device indices (-1 where a peer lacks one)
  std::string gpu_name, driver, suite_commit;
  // The board's firmware from the run's "gpu_state" snapshot before its probes ("VBIOS
  // 96.00.A5.00.1A, board 692-2G520-0282-001, inforom G520.0282.02.02"); "" when the
  // record has none (NVML absent, or a record written before the snapshot had it).
  std::string firmware;
  std::string board_part;  // the same snapshot's NVML board part number alone; "" without
  int cuda_runtime = 0;
  std::string verdict;  // pass, fail, warn, recorded, ...
  std::string reason;   // the verdict's reason as the run wrote it
  std::string level;    // "quick", "standard", "long"; "" in records written before levels
  std::string expected_kind;      // the entry's kind ("band", "min", "fraction_of_peak", ...); "" without one
  std::optional<double> seconds;  // wall seconds the probe took, when the line says
  Measurement measurement;
};

// Every test line of `path` with a measurement, in file order; test lines without one
// (skips, probes that threw) and lines of other record kinds (e.g. "gpu_state") are left
// out. Throws std::runtime_error naming file:line for a line that is not a run record (a
// malformed "peers" included) or whose schema_version is newer than this build reads; a
// last line cut mid-write is dropped with a warning on stderr (parse_run_record_text).
std::vector<RecordedRun> read_run_record(const std::string& path);

// The same over text already in memory; `path` only names it in messages. A last line
// that is cut mid-write (not JSON, no newline after it: a crashed or killed run) after at
// least one whole line is dropped: its warning goes to `*cut_last_line`, or to stderr
// when that is null.
std::vector<RecordedRun> parse_run_record_text(std::string_view text, const std::string& path,
                                               std::string* cut_last_line = nullptr);

// Provenance of an expectation ("run:FILE:LINE"): whether line `line` (1-based) of the run
// record at `path` is a test record of probe `probe_id`, read as JSON rather than matched
// as text. Empty when it is, else why not ("line 3 is not a record of probe 'y' (it records 'x')").
// Only regular files are read, so a source naming a device or a pipe cannot hang a lint.
std::string run_record_line_problem(const std::string& path, long line, const std::string& probe_id);

}  // namespace gpuconform
