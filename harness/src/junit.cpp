#include "gpuconform/junit.hpp"

#include <fmt/format.h>

namespace gpuconform {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string junit_xml(const std::vector<TestResult>& results, const DeviceInfo& device) {
  int failures = 0, skipped = 0;
  double seconds = 0;
  for (const TestResult& r : results) {
    failures += r.verdict.outcome == Outcome::fail;
    skipped += r.verdict.outcome == Outcome::skip;
    seconds += r.seconds;
  }
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites><testsuite name=\"gpuconform.{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" "
                     "time=\"{:.3f}\">\n",
                     escape(device.arch() + "." + device.name), results.size(), failures, skipped, seconds);
  for (const TestResult& r : results) {
    const std::string family = r.probe ? family_name(r.probe->family) : "unknown";
    out += fmt::format("  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\">", family,
                       escape(r.probe ? r.probe->id : "?"), r.seconds);
    const std::string reason = escape(r.verdict.reason);
    switch (r.verdict.outcome) {
      case Outcome::fail: out += fmt::format("<failure message=\"{}\"/>", reason); break;
      case Outcome::skip: out += fmt::format("<skipped message=\"{}\"/>", reason); break;
      case Outcome::warn: out += fmt::format("<system-out>warn: {}</system-out>", reason); break;
      case Outcome::pass: break;
    }
    out += "</testcase>\n";
  }
  return out + "</testsuite></testsuites>\n";
}

}  // namespace gpuconform
