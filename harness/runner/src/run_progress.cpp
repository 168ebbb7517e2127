// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuconform/stats.hpp"

namespace gpuconform {

void EtaModel::begin(const std::vector<std::optional<double>>& estimates, double now) {
  std::vector<double> known;
  for (const auto& e : estimates)
    if (e) known.push_back(*e);
  any_known_ = !known.empty();
  const double fill = known.empty() ? 0 : median(known);
  estimates_.clear();
  for (const auto& e : estimates) estimates_.push_back(e.value_or(fill));
  overheads_.clear();
  done_ = 0;
  begin_ = last_event_ = now;
  current_.clear();
}

void EtaModel::started(const std::string& probe, double now) {
  current_ = probe;
  (void)now;
}

void EtaModel::finished(double probe_seconds, double now) {
  if (done_ > 0) overheads_.push_back(std::max(0.0, (now - last_event_) - probe_seconds));
  last_event_ = now;
  ++done_;
  if (done_ >= estimates_.size()) current_.clear();
}

std::optional<double> EtaModel::eta(double now) const {
  if (done_ >= estimates_.size()) return 0.0;
  if (!any_known_ && overheads_.empty()) return std::nullopt;
  double left = 0;
  for (std::size_t i = done_; i < estimates_.size(); ++i) left += estimates_[i];
  // The running probe has used part of its share already.
  left = std::max(0.0, left - (now - last_event_));
  const double overhead = overheads_.empty() ? 0 : median(overheads_);
  return left + overhead * static_cast<double>(estimates_.size() - done_);
}

std::string clock_text(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

std::string status_line(const GpuStatus& s, std::size_t width) {
  std::string line = fmt::format("GPU {}{}", s.index, s.label.empty() ? "" : " " + s.label);
  if (!s.error.empty()) {
    line = s.error;  // "GPU 2 could not be opened: ..." (OpenedGpu::open_error names the GPU)
  } else {
    constexpr std::size_t kBar = 20;
    const std::size_t filled = s.total ? std::min(kBar, s.done * kBar / s.total) : 0;
    line += fmt::format(" [{}{}] {:>{}}/{}", std::string(filled, '#'), std::string(kBar - filled, '.'), s.done,
                        std::to_string(s.total).size(), s.total);
    std::string counts;
    if (s.failed) counts += fmt::format("  {} fail", s.failed);
    if (s.warned) counts += fmt::format("  {} warn", s.warned);
    if (s.skipped) counts += fmt::format("  {} skip", s.skipped);
    if (s.finished) {
      line += fmt::format("  done in {}{}", clock_text(s.elapsed), counts);
    } else {
      const std::string eta = s.eta ? clock_text(*s.eta) : "?";
      // The probe name is what gets cut when the terminal is narrow.
      const std::string tail = fmt::format("  {}, ETA {}{}", clock_text(s.elapsed), eta, counts);
      std::string current = s.current.empty() ? std::string() : " " + s.current;
      if (line.size() + current.size() + tail.size() > width) {
        const std::size_t room = width > line.size() + tail.size() ? width - line.size() - tail.size() : 0;
        current = room > 4 ? current.substr(0, room - 3) + "..." : std::string();
      }
      line += current + tail;
    }
  }
  if (line.size() > width) line = line.substr(0, width);
  return line;
}

}  // namespace gpuconform
