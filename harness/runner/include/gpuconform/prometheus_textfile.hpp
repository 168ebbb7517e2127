// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run as Prometheus metrics in the text exposition format, for node_exporter's textfile
// collector (`run --prom FILE`, written with write_file_atomically), named and labelled
// the way node_exporter and dcgm-exporter do it: no label value that changes from run to
// run (no run id, no time), units in the names, per-GPU labels as dcgm-exporter spells
// them (UUID, gpu, modelName, Hostname), so a gpuconform series joins a DCGM_FI_* series
// on the same GPU. Series:
//
//   gpuconform_run_info{Hostname,version,suite_commit} 1
//   gpuconform_last_run_timestamp_seconds      when the last run finished (Unix time)
//   gpuconform_last_success_timestamp_seconds  when a run last exited 0: this run's finish,
//                                              else carried over from the previous textfile
//                                              (0 if none ever did)
//   gpuconform_run_duration_seconds            the last run's wall time
//   gpuconform_run_exit_code                   0 ok, 1 failed, 2 could not run, 3 busy, 77 nothing judged
//   gpuconform_run_result{result}              1 for the last run's result, 0 for the others
//                                              (ok, failed, unusable, busy, nothing_judged)
//   gpuconform_run_error_info{code,severity}   exit 2 and 3 only
//   gpuconform_run_timeout_expired             with --timeout: 1 when it left probes unrun
//   gpuconform_tests{verdict}                  tests per verdict, all GPUs
//   gpuconform_gpu_tests{UUID,gpu,modelName,Hostname,verdict}
//   gpuconform_gpu_open_failed{gpu,Hostname}   1 for a GPU that could not be opened
//   gpuconform_probe_verdict{UUID,gpu,modelName,Hostname,probe,group}
//                                              0 pass, 1 skip, 2 warn, 3 fail: ordered so
//                                              that fail is the worst (max() over probes is
//                                              the GPU's verdict; alert on == 3)
//
// One number per probe and GPU (not one series per verdict) keeps the series count at
// probes x GPUs.
#include <optional>
#include <string>

#include "gpuconform/run_summary.hpp"

namespace gpuconform {

// `previous_success`: the last success time of the textfile this one replaces
// (read_last_success), carried over when this run did not exit 0.
std::string prometheus_textfile(const RunOutcome& outcome, std::optional<long long> previous_success = std::nullopt);

// gpuconform_last_success_timestamp_seconds of an existing textfile; nullopt when the file
// is missing or has none (or holds 0: no run ever succeeded).
std::optional<long long> read_last_success(const std::string& path);

// Escapes a label value: backslash, double quote and newline (the exposition format's rule).
std::string prometheus_label_value(const std::string& value);

}  // namespace gpuconform
