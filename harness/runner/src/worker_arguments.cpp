// SPDX-License-Identifier: Apache-2.0
// The worker's command line read back (the inverse of worker_arguments, runner.cpp). One
// parser for every binary that can be a worker (`gpuconform worker`, `gpuconform_gpu_tests
// worker`): they read the runner's arguments alike by construction, not by two copies kept
// in step.
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>

#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("worker arguments: " + what); }

// The whole text as a base-10 integer in [low, high], or a message naming the option.
long long integer(const std::string& option, const std::string& text, long long low, long long high) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || v < low || v > high)
    bad(fmt::format("{} {}: not an integer in [{}, {}]", option, text, low, high));
  return v;
}

}  // namespace

WorkerArgs parse_worker_arguments(const std::vector<std::string>& args) {
  WorkerArgs out;
  bool report_fd = false, device = false, expectations = false;
  constexpr long long kIntMax = std::numeric_limits<int>::max();
  for (std::size_t i = 0; i < args.size(); ++i) {
    // "--name value", as worker_arguments writes it, or "--name=value".
    std::string name = args[i];
    std::optional<std::string> inline_value;
    if (const std::size_t eq = name.find('='); name.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (name == "--quick" || name == "--describe") {
      if (inline_value) bad(name + " takes no value");
      (name == "--quick" ? out.quick : out.describe) = true;
      continue;
    }
    auto value = [&]() -> std::string {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) bad(name + " needs a value");
      return args[++i];
    };
    auto once = [&](bool& seen) {
      if (seen) bad(name + " given twice");
      seen = true;
    };
    if (name == "--report-fd") {
      once(report_fd);
      out.report_fd = static_cast<int>(integer(name, value(), 0, kIntMax));
    } else if (name == "--device") {
      once(device);
      out.device = static_cast<int>(integer(name, value(), 0, kIntMax));
    } else if (name == "--expectations") {
      once(expectations);
      out.expectations_dir = value();
    } else if (name == "--overlay") {
      out.overlays.push_back(value());
    } else if (name == "--probe") {
      out.probes.push_back(value());
    } else if (name == "--peer") {
      out.peers.push_back(static_cast<int>(integer(name, value(), 0, kIntMax)));
    } else if (name == "--own-pid") {
      out.own_pids.push_back(static_cast<unsigned>(integer(name, value(), 1, std::numeric_limits<unsigned>::max())));
    } else {
      bad(fmt::format("unknown argument '{}'", args[i]));
    }
  }
  if (!report_fd) bad("--report-fd is required");
  if (!device) bad("--device is required");
  return out;
}

}  // namespace gpuconform
