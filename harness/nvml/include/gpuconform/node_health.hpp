// SPDX-License-Identifier: Apache-2.0
#pragma once
// A node's health as NVML reports it, one check per judged probe (health.*,
// kernels/health/node_health.cu): ECC on, no uncorrected ECC error since the
// driver loaded, no row remap pending or failed, no retired page pending, the
// PCIe link at its maximum generation and width, no throttle reason at idle, a
// valid inforom, the GPU below its slowdown temperature. Each check is an
// invariant (a count that must be 0, a flag that must be set), read through the
// run-time-loaded NVML (nvml_loader.hpp).
//
// One table (node_health_checks) names them all; read_node_health reads one.
// A check NVML cannot answer (the library or the entry point is missing, or it
// answers NOT_SUPPORTED, as ECC does on a consumer board) is skipped with the
// reason, never failed.
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/expectation_types.hpp"

namespace gpuconform {

struct NodeHealthCheck {
  const char* id;        // "health.ecc.enabled"
  const char* summary;   // one line: what is judged
  const char* unit;      // the measured value's unit
  ExpectationKind kind;  // min or max: the invariant's direction
  double bound;          // the invariant: min 1 (a flag that must be set) or max 0 (a count that must be 0)
  // The PCIe link checks: a GPU may lower its link at idle to save power, so a
  // link below its maximum is read again while the link carries traffic.
  bool read_under_link_load;
};

constexpr std::size_t kNodeHealthChecks = 10;
const std::array<NodeHealthCheck, kNodeHealthChecks>& node_health_checks();
const NodeHealthCheck* find_node_health_check(const std::string& id);

struct NodeHealthReading {
  std::string skipped;  // non-empty: why this check cannot be judged here (then value and problem mean nothing)
  double value = 0;
  std::string problem;  // non-empty when value breaks the invariant: what is wrong, in words
  std::vector<std::pair<std::string, std::string>> notes;  // what NVML said, for the record
};

// Reads check `id` of the GPU with this UUID (else PCI bus id). Never throws.
NodeHealthReading read_node_health(const std::string& id, const std::string& uuid, const std::string& pci_bus_id);

}  // namespace gpuconform
