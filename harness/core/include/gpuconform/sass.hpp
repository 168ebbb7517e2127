// SPDX-License-Identifier: Apache-2.0
#pragma once
// What actually ran: the SASS opcodes of a probe's timed region, read from
// this executable with cuobjdump where it is installed. The PTX a probe writes
// is not always what executes (ptxas fuses, expands and re-selects), so a
// latency is only meaningful together with the opcodes it was measured on.
//
// Probes attach the opcode multiset of their timed region as the note "sass"
// ("FFMA:768 ISETP.NE.AND:1", most frequent first). An expectation with
// `sass = ["FFMA"]` then fails when an expected opcode is missing. Without
// cuobjdump the note says "cuobjdump not found" and nothing is asserted.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/expectation_types.hpp"
#include "gpuconform/measurement.hpp"

namespace gpuconform::sass {

struct Instruction {
  std::string opcode;    // "FFMA", "HMMA.16816.F32.BF16", "CS2R"
  std::string operands;  // "R5, R5, R2, R3" (predicate guard removed)
};

// One function's SASS per architecture section of a `cuobjdump --dump-sass`
// listing: functions[mangled name] = instructions, for the section whose
// target is `arch` ("sm_90" also accepts "sm_90a" and "sm_90f").
std::map<std::string, std::vector<Instruction>> parse_dump(std::string_view text, std::string_view arch);

// The instructions strictly between the first and the last clock read
// (SR_CLOCKLO / SR_CLOCKHI); the whole function when it reads the clock fewer
// than twice.
std::vector<Instruction> timed_region(const std::vector<Instruction>& function);

using Histogram = std::map<std::string, int>;
Histogram histogram(const std::vector<Instruction>& instructions);
// "FFMA:768 ISETP.NE.AND:1": by count, descending, then by name.
std::string format_histogram(const Histogram& h);
// Inverse of format_histogram; tokens that do not parse are ignored.
Histogram parse_histogram(std::string_view text);

// Expected opcodes not present in `observed`. "HMMA" matches "HMMA" and any
// "HMMA.<modifiers>"; "HMMA.16816" matches "HMMA.16816.F32" but not "HMMA.1688.F32".
std::vector<std::string> missing_opcodes(const std::vector<std::string>& expected, const Histogram& observed);

// The note text a measurement carries when no disassembler is available.
inline constexpr std::string_view kNoCuobjdump = "cuobjdump not found";

// Path of cuobjdump: $GPUCONFORM_CUOBJDUMP, else PATH, else $CUDA_HOME/bin or
// /usr/local/cuda/bin; "" when none exists.
std::string find_cuobjdump();

// The mangled device name of a __global__ function (cudaFuncGetName).
std::string kernel_name(const void* kernel);

// The "sass" note for a kernel of this executable on `arch`: the opcode
// histogram of its timed region, or a sentence saying why there is none
// (starting with "cuobjdump not found" or "unavailable:"). The executable is
// disassembled once per build and architecture (cuobjdump --gpu-architecture)
// and the histograms of all its kernels are cached in
// $GPUCONFORM_SASS_CACHE (default ~/.cache/gpuconform), keyed by the
// executable's path, size and modification time, so the many one-test
// processes of a ctest run share one disassembly.
std::string timed_region_note(const void* kernel, const std::string& arch);
// The same for a kernel of this executable named by its mangled name.
std::string timed_region_note(const std::string& mangled_name, const std::string& arch);

// Disassembles (or loads the cached disassembly of) this executable for `arch` now,
// so that the seconds it takes on a cold cache are not charged to the first probe
// that asks for a note (and to that probe's time limit). Does nothing without cuobjdump.
void load_disassembly(const std::string& arch);

// Whether this process may disassemble on a cold cache (default: yes). `gpuconform run
// --level quick` turns it off unless a selected entry asserts opcodes: a full disassembly
// takes tens of seconds, more than a node health check affords. The notes then come from
// the cache when an earlier run filled it, else they say "unavailable: ..." (and nothing
// is asserted, as without cuobjdump).
void allow_cold_disassembly(bool allowed);

// "" when the expectation lists no opcodes, when the measurement carries no
// disassembly, or when every expected opcode is present; otherwise the reason
// for a failed verdict, naming the missing opcodes and what ran instead.
std::string check_expected_opcodes(const Expectation& expected, const Measurement& measured);

}  // namespace gpuconform::sass
