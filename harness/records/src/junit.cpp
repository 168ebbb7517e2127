// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/junit.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <pugixml.hpp>
#include <sstream>

#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

// Every string that reaches the document goes through xml_safe_text(); pugixml then
// escapes markup.
void set(pugi::xml_node node, const char* attribute, std::string_view value) {
  node.append_attribute(attribute).set_value(xml_safe_text(value).c_str());
}

void property(pugi::xml_node properties, const char* name, std::string_view value) {
  pugi::xml_node p = properties.append_child("property");
  set(p, "name", name);
  set(p, "value", value);
}

std::string seconds(double s) { return fmt::format("{:.3f}", s); }

std::string host_name() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

// "latency.alu" for "latency.alu.fma.rn.f32": the probe's family and group, which is also
// its ctest test name, so a CI report groups tests the way ctest runs them.
std::string group_of(const std::string& id) {
  const auto first = id.find('.');
  const auto second = first == std::string::npos ? first : id.find('.', first + 1);
  return second == std::string::npos ? id : id.substr(0, second);
}

void testcase(pugi::xml_node suite, const TestResult& r) {
  pugi::xml_node tc = suite.append_child("testcase");
  const std::string id = r.probe ? r.probe->id : "unknown";
  set(tc, "classname", r.probe ? group_of(id) : "unknown");
  set(tc, "name", id);
  set(tc, "time", seconds(r.seconds));
  const std::string reason = xml_safe_text(r.verdict.reason);
  switch (r.verdict.outcome) {
    case Outcome::fail: {
      pugi::xml_node f = tc.append_child("failure");
      set(f, "message", reason);
      set(f, "type", "fail");
      f.text().set(reason.c_str());
      break;
    }
    case Outcome::skip:
      set(tc.append_child("skipped"), "message", reason);
      break;
    case Outcome::warn:
      // JUnit has no "passed with a warning"; <system-out> is what Jenkins, GitLab and
      // GitHub report viewers all show beside a passed test (testcase <properties> are
      // dropped by most of them), so the warning travels there.
      tc.append_child("system-out").text().set(("warn: " + reason).c_str());
      break;
    case Outcome::pass:
      break;
  }
}

}  // namespace

std::string junit_xml(const std::vector<TestResult>& results, const DeviceInfo& device) {
  int failures = 0, skipped = 0;
  double total = 0;
  for (const TestResult& r : results) {
    failures += r.verdict.outcome == Outcome::fail;
    skipped += r.verdict.outcome == Outcome::skip;
    total += r.seconds;
  }
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version").set_value("1.0");
  decl.append_attribute("encoding").set_value("UTF-8");
  pugi::xml_node suite = doc.append_child("testsuites").append_child("testsuite");
  set(suite, "name", "gpuconform." + device.arch() + "." + device.name);
  set(suite, "tests", std::to_string(results.size()));
  set(suite, "failures", std::to_string(failures));
  set(suite, "errors", "0");
  set(suite, "skipped", std::to_string(skipped));
  set(suite, "time", seconds(total));
  set(suite, "timestamp", utc_timestamp());
  const std::string host = host_name();
  set(suite, "hostname", host);

  // Which board, software and suite produced these verdicts: enough to find the run record
  // and to tell two runs apart after a driver or suite upgrade.
  pugi::xml_node props = suite.append_child("properties");
  property(props, "gpu.uuid", device.uuid);
  property(props, "gpu.name", device.name);
  property(props, "gpu.arch", device.arch());
  property(props, "gpu.sku", device.sku());  // PCI device id, e.g. 0x2330
  property(props, "gpu.pci_bus_id", device.pci_bus_id);
  property(props, "driver.version", device.driver_version);
  property(props, "cuda.driver_version", std::to_string(device.cuda_driver_version));
  property(props, "cuda.runtime_version", std::to_string(device.cuda_runtime_version));
  property(props, "suite.version", suite_version());
  property(props, "suite.commit", suite_git_commit());
  property(props, "host", host);

  for (const TestResult& r : results) testcase(suite, r);

  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace gpuconform
