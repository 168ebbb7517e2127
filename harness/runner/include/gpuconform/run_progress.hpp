// SPDX-License-Identifier: Apache-2.0
#pragma once
// Progress of one GPU's run for the live status line (`gpuconform run` on a terminal):
// how far it is and when it will end. Pure: time is passed in, so it is tested on the CPU.
//
// The ETA rests on the `seconds` each expectation entry was recorded in, plus the
// overhead between probes seen in this run (pipe, record, NVML watch), the median of
// (gap between two verdicts - the later probe's own seconds): a median, so that a worker
// start or a cold SASS cache in one gap does not swell every remaining probe's share.
// An entry without recorded seconds counts as the median of the recorded ones.
#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

class EtaModel {
 public:
  // `estimates`: the recorded seconds of every probe run this GPU will run, in order
  // (each pass of a long run again); nullopt where the entry has none. `now`: seconds.
  void begin(const std::vector<std::optional<double>>& estimates, double now);
  // A probe started (its id, for the status line).
  void started(const std::string& probe, double now);
  // A verdict arrived; `probe_seconds` is the probe's own wall time.
  void finished(double probe_seconds, double now);

  std::size_t done() const { return done_; }
  std::size_t total() const { return estimates_.size(); }
  const std::string& current() const { return current_; }
  double elapsed(double now) const { return now - begin_; }
  // Seconds until the last verdict; nullopt when nothing is known to estimate from.
  std::optional<double> eta(double now) const;

 private:
  std::vector<double> estimates_;  // unknown ones filled in
  bool any_known_ = false;
  std::vector<double> overheads_;
  std::size_t done_ = 0;
  double begin_ = 0, last_event_ = 0;
  std::string current_;
};

// "1:05", "12:00", "1:02:03".
std::string clock_text(double seconds);

// What a status line shows for one GPU.
struct GpuStatus {
  int index = 0;
  std::string label;  // e.g. the board's UUID prefix
  std::size_t done = 0, total = 0;
  std::string current;             // the probe running now
  double elapsed = 0;
  std::optional<double> eta;
  int failed = 0, warned = 0, skipped = 0;
  bool finished = false;
  std::string error;  // could not be opened: the whole line, e.g. OpenedGpu::open_error
};
// One line, at most `width` characters (a line that wraps breaks the redraw):
// "GPU 0 GPU-4250cf40 [#######.......]  45/283 latency.alu.fma.rn.f32  0:12, ETA 0:31  1 fail".
std::string status_line(const GpuStatus& s, std::size_t width);

}  // namespace gpuconform
