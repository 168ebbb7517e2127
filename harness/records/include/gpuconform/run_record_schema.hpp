// SPDX-License-Identifier: Apache-2.0
#pragma once
// The shape of a run record, one JSON object per line (gpuconform-run.jsonl, evidence files).
//
//   schema_version  integer; absent = 1 (the records written before it existed, e.g. the
//                   evidence files of 2026-11-23). 2 adds schema_version and record.
//   record          what the line is: "test" (or absent) for one test's result; other kinds
//                   are for other readers, and read_run_record() skips them: "header" (the
//                   first line of each `gpuconform run`: run id, host, command line, driver,
//                   CUDA, suite; run_header.hpp), "gpu_state" and "gpu_open" (the runner).
//                   Adding a kind needs no new version: every reader skips kinds it does not
//                   read, so line numbers (run:FILE:LINE sources) stay those of the file.
//   A test line:    probe, verdict, reason, seconds, measured {value, unit, samples, stats,
//                   sampling, peak, peak_formula, peak_at_max_clock, fraction_of_peak,
//                   compared, sm_clock_mhz, notes},
//                   expected {kind, unit, source, at, value, tol, ...}, device {name, arch,
//                   sku, uuid, pci_bus_id, driver, cuda_runtime_version, ...},
//                   suite {version, commit}, time.
// JSON Schema of every kind: harness/schema/run-record.schema.json (checked by the unit tests).
// A reader accepts every version up to its own and rejects a newer one by name, so an old
// binary never misreads a record written by a newer suite.
namespace gpuconform {

inline constexpr int kRunRecordSchemaVersion = 2;

}  // namespace gpuconform
