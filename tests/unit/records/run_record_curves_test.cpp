// SPDX-License-Identifier: Apache-2.0
// The run-record shape of curves and matrices (measurement.hpp): every axis
// carries its name, unit and values, and a matrix's data are its rows in order.
#include <gtest/gtest.h>

#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

TEST(RunRecordCurves, SeriesAndMatrixKeepTheirAxes) {
  Measurement m;
  m.value = 1;
  m.unit = "B/s";
  m.series.push_back({"bandwidth_vs_bytes_in_flight", "bytes in flight per SM", "B", "bandwidth", "B/s",
                      {2048, 4096}, {1e12, 2e12}});
  Matrix mat;
  mat.name = "warps_x_ilp";
  mat.row_name = "warps per SM";
  mat.row_unit = "warps";
  mat.col_name = "ILP";
  mat.col_unit = "instructions";
  mat.value_name = "throughput";
  mat.value_unit = "FLOP/clk/SM";
  mat.rows = {1, 2};
  mat.cols = {1, 2, 4};
  mat.values = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(mat.at(1, 2), 6);
  m.matrices.push_back(mat);

  const nlohmann::json j = measurement_json(m);
  const auto& s = j.at("series").at(0);
  EXPECT_EQ(s.at("name"), "bandwidth_vs_bytes_in_flight");
  EXPECT_EQ(s.at("x").at("name"), "bytes in flight per SM");
  EXPECT_EQ(s.at("x").at("unit"), "B");
  EXPECT_EQ(s.at("x").at("values"), nlohmann::json({2048, 4096}));
  EXPECT_EQ(s.at("y").at("unit"), "B/s");
  EXPECT_EQ(s.at("y").at("values").at(1), 2e12);
  const auto& x = j.at("matrices").at(0);
  EXPECT_EQ(x.at("rows").at("name"), "warps per SM");
  EXPECT_EQ(x.at("cols").at("values"), nlohmann::json({1, 2, 4}));
  EXPECT_EQ(x.at("values").at("unit"), "FLOP/clk/SM");
  EXPECT_EQ(x.at("values").at("data"), nlohmann::json({{1, 2, 3}, {4, 5, 6}}));
}

TEST(RunRecordCurves, AbsentWhenEmpty) {
  Measurement m;
  m.value = 1;
  const nlohmann::json j = measurement_json(m);
  EXPECT_FALSE(j.contains("series"));
  EXPECT_FALSE(j.contains("matrices"));
}

}  // namespace
}  // namespace gpuconform
