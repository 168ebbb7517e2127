// SPDX-License-Identifier: Apache-2.0
// The JUnit writer: well-formed XML whatever a reason holds, the device and suite identity as
// properties, one testcase per result. JUnit.ControlCharactersInReason also writes its file
// to $GPUCONFORM_JUNIT_OUT, which ctest's junit.python_parses hands to Python's xml.etree: a
// second, independent parser.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <pugixml.hpp>

#include "gpuconform/junit.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

using namespace std::string_literals;

// \r, SOH, an ANSI colour escape, quotes, markup, a NUL, and bytes that are not UTF-8
// (a lone 0xff, a truncated sequence, an encoded surrogate).
const std::string kNastyReason =
    "measured 6.1\r\n\x01 expected \x1b[31m\"4\" < 5 & 'x'\x1b[0m \0tail \xff\xc3( \xed\xa0\x80 end"s;

const Probe kProbe{"latency.alu.fma.rn.f32", Family::latency, "fma", {}, {}, nullptr};

DeviceInfo h100() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.uuid = "GPU-7e7c5466-fixture";
  d.pci_device_id = 0x2330;
  d.driver_version = "580.159.04";
  d.cuda_driver_version = 13000;
  d.cuda_runtime_version = 12080;
  return d;
}

TestResult result(Outcome outcome, std::string reason, double seconds = 1.25) {
  TestResult r;
  r.probe = &kProbe;
  r.verdict = {outcome, std::move(reason)};
  r.seconds = seconds;
  return r;
}

// The bytes XML 1.0 forbids, or an empty string when there are none.
std::string forbidden_bytes(const std::string& xml) {
  for (unsigned char c : xml)
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control byte " + std::to_string(c);
  return xml_safe_text(xml) == xml ? "" : "bytes that are not UTF-8";
}

TEST(JUnit, ControlCharactersInReason) {
  const std::string xml = junit_xml({result(Outcome::fail, kNastyReason)}, h100());
  EXPECT_EQ(forbidden_bytes(xml), "");
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str())) << xml;
  const pugi::xml_node failure = doc.select_node("//testcase/failure").node();
  ASSERT_TRUE(failure);
  // The reason survives, made safe: the visible escapes and U+FFFD stand where the bad bytes were.
  EXPECT_EQ(std::string(failure.attribute("message").value()), xml_safe_text(kNastyReason));
  EXPECT_NE(std::string(failure.attribute("message").value()).find("\\x1b[31m\"4\" < 5 & 'x'"), std::string::npos);
  if (const char* out = std::getenv("GPUCONFORM_JUNIT_OUT")) std::ofstream(out, std::ios::binary) << xml;
}

TEST(JUnit, SuitePropertiesNameTheBoardTheSoftwareAndTheSuite) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(junit_xml({}, h100()).c_str()));
  const auto prop = [&](const char* name) {
    return std::string(
        doc.select_node(("//testsuite/properties/property[@name='"s + name + "']").c_str()).node().attribute("value").value());
  };
  EXPECT_EQ(prop("gpu.uuid"), "GPU-7e7c5466-fixture");
  EXPECT_EQ(prop("gpu.name"), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(prop("gpu.sku"), "0x2330");
  EXPECT_EQ(prop("driver.version"), "580.159.04");
  EXPECT_EQ(prop("cuda.driver_version"), "13000");
  EXPECT_EQ(prop("cuda.runtime_version"), "12080");
  EXPECT_EQ(prop("suite.version"), suite_version());
  EXPECT_EQ(prop("suite.commit"), suite_git_commit());
  EXPECT_NE(doc.select_node("//testsuite/properties/property[@name='host']").node(), pugi::xml_node());
}

TEST(JUnit, EachOutcomeHasItsElement) {
  const std::string xml = junit_xml({result(Outcome::pass, "ok"), result(Outcome::fail, "too slow"),
                                     result(Outcome::skip, "no sm_90a"), result(Outcome::warn, "waived")},
                                    h100());
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(xml.c_str()));
  const pugi::xml_node suite = doc.child("testsuites").child("testsuite");
  EXPECT_STREQ(suite.attribute("tests").value(), "4");
  EXPECT_STREQ(suite.attribute("failures").value(), "1");
  EXPECT_STREQ(suite.attribute("skipped").value(), "1");
  EXPECT_STREQ(suite.attribute("time").value(), "5.000");
  std::vector<pugi::xml_node> cases;
  for (pugi::xml_node tc : suite.children("testcase")) cases.push_back(tc);
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_STREQ(cases[0].attribute("classname").value(), "latency.alu");
  EXPECT_STREQ(cases[0].attribute("name").value(), "latency.alu.fma.rn.f32");
  EXPECT_STREQ(cases[0].attribute("time").value(), "1.250");
  EXPECT_FALSE(cases[0].first_child());
  EXPECT_STREQ(cases[1].child("failure").attribute("message").value(), "too slow");
  EXPECT_STREQ(cases[2].child("skipped").attribute("message").value(), "no sm_90a");
  EXPECT_STREQ(cases[3].child_value("system-out"), "warn: waived");
}

TEST(XmlSafeText, KeepsWhatXmlAllows) {
  EXPECT_EQ(xml_safe_text("tab\there\nnew\rline µ 中 \xf0\x9f\x98\x80 <&>\""), "tab\there\nnew\rline µ 中 \xf0\x9f\x98\x80 <&>\"");
}

TEST(XmlSafeText, EscapesForbiddenControlCharacters) {
  EXPECT_EQ(xml_safe_text("a\0b\x01\x08\x0b\x0c\x0e\x1b\x1f"s), "a\\x00b\\x01\\x08\\x0b\\x0c\\x0e\\x1b\\x1f");
}

TEST(XmlSafeText, ReplacesBytesThatAreNotUtf8) {
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(xml_safe_text("\xff"), r);
  EXPECT_EQ(xml_safe_text("a\xc3"), "a" + r);              // truncated at the end
  EXPECT_EQ(xml_safe_text("\xc3("), r + "(");             // bad continuation
  EXPECT_EQ(xml_safe_text("\xc0\xaf"), r + r);            // overlong '/'
  EXPECT_EQ(xml_safe_text("\xed\xa0\x80"), r + r + r);    // a surrogate
  EXPECT_EQ(xml_safe_text("\xf4\x90\x80\x80"), r + r + r + r);  // above U+10FFFF
  EXPECT_EQ(xml_safe_text("\xef\xbf\xbe"), r);            // U+FFFE, not an XML character
}

}  // namespace
}  // namespace gpuconform
