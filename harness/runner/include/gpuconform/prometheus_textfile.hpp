// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run as Prometheus metrics in the text exposition format, for node_exporter's textfile
// collector (`run --prom FILE`, written with write_file_atomically). Series:
//
//   gpuconform_run_info{run_id,host,version,suite_commit} 1
//   gpuconform_run_timestamp_seconds          when the run finished (Unix time)
//   gpuconform_run_duration_seconds           its wall time
//   gpuconform_run_exit_code                  0 ok, 1 failed, 2 could not run, 77 nothing judged
//   gpuconform_tests{verdict}                 tests per verdict, all GPUs
//   gpuconform_gpu_tests{gpu_uuid,gpu_index,verdict}
//   gpuconform_gpu_open_failed{gpu_index}     1 for a GPU that could not be opened
//   gpuconform_probe_verdict{gpu_uuid,probe,group}  0 pass, 1 warn, 2 fail, 3 skip
//
// One number per probe and GPU (not one series per verdict) keeps the series count at
// probes x GPUs and makes an alert one comparison: gpuconform_probe_verdict == 2.
#include <string>

#include "gpuconform/run_summary.hpp"

namespace gpuconform {

std::string prometheus_textfile(const RunOutcome& outcome);

// Escapes a label value: backslash, double quote and newline (the exposition format's rule).
std::string prometheus_label_value(const std::string& value);

}  // namespace gpuconform
