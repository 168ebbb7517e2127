// SPDX-License-Identifier: Apache-2.0
#include "run_display.hpp"

#include "console.hpp"
#include "gpuconform/console_colour.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpuconform/run_record.hpp"

namespace gpuconform::cli {
namespace {

std::size_t terminal_width() {
  winsize w{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 100;
}

std::string uuid_prefix(const std::string& uuid) { return uuid.substr(0, std::min<std::size_t>(uuid.size(), 12)); }

}  // namespace

bool RunDisplay::stdout_is_live_terminal() {
  if (!::isatty(STDOUT_FILENO)) return false;
  const char* term = std::getenv("TERM");
  return term && *term && std::strcmp(term, "dumb") != 0;
}

double RunDisplay::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

RunDisplay::RunDisplay(const std::vector<OpenedGpu>& gpus, int passes, bool live)
    : passes_(std::max(1, passes)), live_(live) {
  const double t = now();
  for (const OpenedGpu& g : gpus) {
    Gpu gpu;
    gpu.status.index = g.index;
    if (g.device) gpu.status.label = uuid_prefix(g.device->uuid);
    gpu.status.error = g.open_error;
    std::vector<std::optional<double>> estimates;
    for (int p = 0; p < passes_; ++p)
      for (const Probe* probe : g.probes) estimates.push_back(recorded_seconds(g.expectations, probe->id));
    gpu.eta.begin(estimates, t);
    gpu.status.total = g.device ? estimates.size() : 0;
    gpu.status.finished = !g.device;
    gpus_.push_back(std::move(gpu));
  }
  if (live_) {
    std::lock_guard<std::mutex> lock(mutex_);
    draw_locked(true);
    ticker_ = std::thread([this] { tick(); });
  }
}

RunDisplay::~RunDisplay() { close(); }

void RunDisplay::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closed_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    if (!closed_) draw_locked(false);
  }
}

void RunDisplay::draw_locked(bool first) {
  const double t = now();
  const std::size_t width = terminal_width() - 1;  // never the last column: some terminals wrap there
  std::string out;
  if (!first && drawn_) out += fmt::format("\x1b[{}A", gpus_.size());
  for (Gpu& g : gpus_) {
    g.status.done = g.eta.done();
    g.status.current = g.eta.current();
    if (!g.status.finished) {
      g.status.elapsed = g.eta.elapsed(t);
      g.status.eta = g.eta.eta(t);
    }
    out += "\r\x1b[2K" + status_line(g.status, width) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  drawn_ = true;
}

void RunDisplay::started(std::size_t gpu, const std::string& probe, int pass) {
  std::lock_guard<std::mutex> lock(mutex_);
  (void)pass;
  gpus_[gpu].eta.started(probe, now());
  if (live_ && !closed_) draw_locked(false);
}

void RunDisplay::result(std::size_t gpu, const TestResult& r, int pass) {
  std::lock_guard<std::mutex> lock(mutex_);
  Gpu& g = gpus_[gpu];
  g.eta.finished(r.seconds, now());
  switch (r.verdict.outcome) {
    case Outcome::fail: ++g.status.failed; break;
    case Outcome::warn: ++g.status.warned; break;
    case Outcome::skip: ++g.status.skipped; break;
    case Outcome::pass: break;
  }
  if (live_) {
    if (!closed_) draw_locked(false);
    return;
  }
  // Today's plain line, one write so lines of several GPUs never mix.
  const std::string word = fmt::format("{:<4}", outcome_name(r.verdict.outcome));  // padded, then painted
  std::string line = fmt::format("[{:>3}/{}] {:<44} {} {:6.2f} s", g.eta.done(), g.eta.total(),
                                 r.probe ? r.probe->id : "?", paint_word(word, colour()), r.seconds);
  if (gpus_.size() > 1 || !r.peers.empty()) {
    std::vector<int> peers;
    for (const DeviceInfo& p : r.peers) peers.push_back(p.index);
    line = gpu_label(g.status.index, peers) + " " + line;
  }
  if (passes_ > 1) line += fmt::format("  run {}/{}", pass + 1, passes_);
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

void RunDisplay::finished(std::size_t gpu) {
  std::lock_guard<std::mutex> lock(mutex_);
  Gpu& g = gpus_[gpu];
  g.status.elapsed = g.eta.elapsed(now());
  g.status.finished = true;
  if (live_ && !closed_) draw_locked(false);
}

void RunDisplay::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    if (live_) draw_locked(false);
    closed_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

}  // namespace gpuconform::cli
