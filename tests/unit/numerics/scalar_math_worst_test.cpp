// SPDX-License-Identifier: Apache-2.0
// numeric.math.<fn>.worst (numerics/scalar_math_worst.hpp): the measured maximum and its
// input as an exact entry, and the hand-over of one scan from the primary probe.
#include "gpuconform/numerics/scalar_math_worst.hpp"

#include <gtest/gtest.h>

#include <limits>

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpuconform/verdict.hpp"

namespace gpuconform::numerics {
namespace {

Measurement primary(double value, const std::string& input) {
  Measurement m;
  m.unit = "ulp";
  m.value = value;
  m.compared = 4294967296ull;
  m.note("worst_input", "the primary's words");
  m.note("model", worst_model(value, input));
  return m;
}

Expectation entry(const std::string& model) {
  Expectation e;
  e.probe_id = "numeric.math.expf.worst";
  e.kind = ExpectationKind::exact;
  e.model = model;
  e.unit = "mismatches";
  e.source = "run:test.jsonl:1";
  return e;
}

TEST(ScalarMathWorst, ModelText) {
  EXPECT_EQ(worst_id("numeric.math.expf"), "numeric.math.expf.worst");
  EXPECT_EQ(worst_model(2, "x=0x42b0c0a6"), "param:max_at=2@x=0x42b0c0a6");
  // An absolute error is a binary32 key: 9 digits give it back exactly.
  const float err = std::ldexp(1.1483f, -22);
  const std::string text = worst_model(err, "x=0x3f800000");
  const std::string value = text.substr(std::string("param:max_at=").size(), text.find('@') - 13);
  EXPECT_EQ(static_cast<float>(std::stod(value)), err) << text;
  EXPECT_EQ(text.substr(text.find('@')), "@x=0x3f800000");
  EXPECT_EQ(worst_model(1, "x=0x3f800000,y=0x40000000"), "param:max_at=1@x=0x3f800000,y=0x40000000");
}

// The H100 records' intrinsic.logf and intrinsic.powf companions named max_at=inf; a primary
// now never measures inf, and a companion refuses to pass one on as an entry.
TEST(ScalarMathWorst, NonFiniteMaximaAreRefused) {
  EXPECT_THROW(worst_measurement(primary(std::numeric_limits<double>::infinity(), "x=0x007fffff"), nullptr),
               std::logic_error);
  EXPECT_THROW(
      worst_measurement(primary(std::numeric_limits<double>::infinity(), "x=0x80000000,y=0xcb7fffff"), nullptr),
      std::logic_error);
  EXPECT_NO_THROW(worst_measurement(primary(4294967296.0, "x=0x007fffff"), nullptr));
}

TEST(ScalarMathWorst, JudgedAgainstTheRecordedPair) {
  const Measurement p = primary(2, "x=0x42b0c0a6");
  // Recording (no entry): 0, and the model `record` writes.
  const Measurement rec = worst_measurement(p, nullptr);
  EXPECT_EQ(rec.value, 0);
  EXPECT_EQ(rec.unit, "mismatches");
  EXPECT_EQ(rec.compared, p.compared);
  EXPECT_EQ(*rec.find_note("model"), "param:max_at=2@x=0x42b0c0a6");
  // The same maximum at the same input passes; another input or value fails, naming both.
  const Expectation same = entry("param:max_at=2@x=0x42b0c0a6");
  EXPECT_EQ(judge(worst_measurement(p, &same), same).outcome, Outcome::pass);
  const Expectation other_input = entry("param:max_at=2@x=0x42b0c0a7");
  const Measurement moved = worst_measurement(p, &other_input);
  EXPECT_EQ(moved.value, 1);
  EXPECT_EQ(judge(moved, other_input).outcome, Outcome::fail);
  EXPECT_NE(judge(moved, other_input).reason.find("0x42b0c0a7"), std::string::npos) << judge(moved, other_input).reason;
  const Expectation smaller = entry("param:max_at=1@x=0x42b0c0a6");
  EXPECT_EQ(worst_measurement(p, &smaller).value, 1);  // a library that improved changes the entry too
  // An entry of another form is a file error, said at the entry.
  const Expectation wrong = entry("param:fraction_bits=13");
  EXPECT_THROW(worst_measurement(p, &wrong), std::runtime_error);
  Measurement no_model;
  EXPECT_THROW(worst_measurement(no_model, nullptr), std::logic_error);
}

TEST(ScalarMathWorst, OneScanServesItsCompanionOnce) {
  EXPECT_FALSE(take_for_worst("numeric.math.test_only", 0));
  stash_for_worst("numeric.math.test_only", 0, primary(1, "x=0x1"));
  stash_for_worst("numeric.math.test_only", 1, primary(3, "x=0x3"));
  const auto on0 = take_for_worst("numeric.math.test_only", 0);
  ASSERT_TRUE(on0);
  EXPECT_EQ(on0->value, 1);
  EXPECT_FALSE(take_for_worst("numeric.math.test_only", 0));  // taken: the next pass scans again
  const auto on1 = take_for_worst("numeric.math.test_only", 1);
  ASSERT_TRUE(on1);
  EXPECT_EQ(on1->value, 3);  // per device
}

}  // namespace
}  // namespace gpuconform::numerics
