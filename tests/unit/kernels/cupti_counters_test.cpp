// SPDX-License-Identifier: Apache-2.0
// The hardware-counter path of the TMA multicast L2 traffic probes without a GPU
// (kernels/common/cupti_library.hpp, counter_session.hpp, l2_counters.hpp): where
// libcupti is looked for, what a missing or foreign library becomes (the probe's skip
// reason, with the work never run), the text of CUPTI's refusals, the metric plan, and
// the reads taken from a counted result.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/counter_session.hpp"
#include "common/cupti_library.hpp"
#include "common/l2_counters.hpp"

namespace gpuconform::kernels {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CuptiLibrary, CandidatesTryTheSonameThenTheToolkitDirectories) {
  cupti::SearchPlace place;
  place.cuda_major = 13;
  place.cuda_minor = 0;
  const auto c = cupti::library_candidates(place);
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c.front(), "libcupti.so.13");  // the loader's own path first
  EXPECT_EQ(c.back(), "libcupti.so");      // a -dev install's symlink last
  for (const char* path : {"/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "/usr/local/cuda/lib64/libcupti.so.13",
                           "/usr/local/cuda-13.0/extras/CUPTI/lib64/libcupti.so.13"})
    EXPECT_NE(std::find(c.begin(), c.end(), path), c.end()) << path;
  place.cuda_home = "/opt/cuda";
  const auto with_home = cupti::library_candidates(place);
  EXPECT_EQ(with_home[1], "/opt/cuda/extras/CUPTI/lib64/libcupti.so.13");  // $CUDA_HOME before /usr/local/cuda
}

TEST(CuptiLibrary, AnOverrideIsTheOnlyCandidate) {
  cupti::SearchPlace place;
  place.override_path = "/somewhere/libcupti.so.13";
  place.cuda_major = 13;
  EXPECT_EQ(cupti::library_candidates(place), std::vector<std::string>{"/somewhere/libcupti.so.13"});
}

TEST(CuptiLibrary, AMissingLibraryIsASkipReasonNamingWhatWasTried) {
  const auto lib = cupti::Library::load({"/nonexistent/libcupti.so.13", "/nonexistent/other/libcupti.so"});
  ASSERT_FALSE(lib->ok());
  EXPECT_TRUE(contains(lib->error(), "CUPTI not loaded") || contains(lib->error(), "no CUPTI headers")) << lib->error();
  EXPECT_TRUE(lib->path().empty());
  if (contains(lib->error(), "CUPTI not loaded")) {
    EXPECT_TRUE(contains(lib->error(), "not found as /nonexistent/libcupti.so.13, /nonexistent/other/libcupti.so"))
        << lib->error();
    EXPECT_TRUE(contains(lib->error(), "GPUCONFORM_CUPTI_LIBRARY")) << lib->error();
  }
}

TEST(CuptiLibrary, ALibraryWithoutTheRangeProfilerIsRefused) {
  // The C library loads everywhere and has no CUPTI entry point.
  const auto lib = cupti::Library::load({"libc.so.6"});
  ASSERT_FALSE(lib->ok());
  if (contains(lib->error(), "no CUPTI headers")) GTEST_SKIP() << "built without CUPTI headers";
  EXPECT_TRUE(contains(lib->error(), "libc.so.6 (lacks cuptiGetResultString")) << lib->error();
}

TEST(CuptiLibrary, TheToolkitsLibraryHasEveryEntryPointWhereItIsInstalled) {
  // Binding needs no GPU: a CUDA toolkit's libcupti (this build's major version) must have
  // every entry point the session calls, so a node with the toolkit counts.
  const auto lib = cupti::Library::load(cupti::library_candidates(cupti::process_search_place()));
  if (!lib->ok()) GTEST_SKIP() << lib->error();
  EXPECT_FALSE(lib->path().empty());
  EXPECT_TRUE(lib->error().empty());
}

TEST(CuptiCount, AFailedLibraryCountsNothingAndNeverRunsTheWork) {
  const auto lib = cupti::Library::load({"/nonexistent/libcupti.so.13"});
  int runs = 0;
  const std::vector<cupti::CountedWork> works{{"multicast.0", [&] { ++runs; }}, {"unicast.0", [&] { ++runs; }}};
  const cupti::CounterResult r = cupti::count(*lib, l2::read_request(), works);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error, lib->error());
  EXPECT_EQ(runs, 0);
  EXPECT_TRUE(r.values.empty());
  const l2::Counts c = l2::count_reads(*lib, works);
  EXPECT_FALSE(c.ok());
  EXPECT_EQ(c.error, lib->error());  // the probe's skip reason, word for word
  EXPECT_TRUE(c.reads.empty());
  EXPECT_EQ(runs, 0);
}

TEST(CuptiResultText, PrivilegesAndOtherProfilersSayWhatToDo) {
  const std::string priv = cupti::describe_result(35);
  EXPECT_TRUE(contains(priv, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)")) << priv;
  EXPECT_TRUE(contains(priv, "NVreg_RestrictProfilingToAdminUsers")) << priv;
  EXPECT_TRUE(contains(priv, "ERR_NVGPUCTRPERM")) << priv;
  EXPECT_TRUE(contains(cupti::describe_result(39), "another profiler"));
  EXPECT_TRUE(contains(cupti::describe_result(17), "CUPTI_ERROR_INVALID_METRIC_NAME (17)"));
  // The library's own text is kept when it says more than the name.
  EXPECT_TRUE(contains(cupti::describe_result(35, "insufficient privileges"), "[insufficient privileges]"));
  EXPECT_FALSE(contains(cupti::describe_result(35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"), "["));
  EXPECT_EQ(cupti::describe_result(12345), "CUptiResult 12345");
  EXPECT_EQ(cupti::describe_result(12345, "odd"), "odd (CUptiResult 12345)");
}

TEST(MetricPlan, NamesMustHaveAUnitACounterAndARollup) {
  EXPECT_EQ(cupti::metric_name_problem("lts__t_sectors_srcunit_tex_op_read.sum"), "");
  EXPECT_EQ(cupti::metric_name_problem("dram__bytes_read.sum"), "");
  EXPECT_EQ(cupti::metric_name_problem("dram__bytes_read.sum.per_second"), "");
  EXPECT_NE(cupti::metric_name_problem(""), "");
  EXPECT_NE(cupti::metric_name_problem("dram__bytes_read"), "");     // no rollup: no value
  EXPECT_NE(cupti::metric_name_problem("dram_bytes_read.sum"), "");  // no unit__ prefix
  EXPECT_NE(cupti::metric_name_problem("dram__bytes_read.total"), "");
  EXPECT_NE(cupti::metric_name_problem("DRAM__bytes_read.sum"), "");
  EXPECT_NE(cupti::metric_name_problem("dram__bytes read.sum"), "");
}

TEST(MetricPlan, RequiredFirstOptionalDroppedWhenUnknown) {
  const cupti::CounterRequest req = l2::read_request();
  ASSERT_EQ(req.required, std::vector<std::string>{l2::kReadSectors});
  const auto all = cupti::plan_metrics(req, [](const std::string&) { return true; });
  EXPECT_EQ(all.error, "");
  EXPECT_EQ(all.metrics.front(), l2::kReadSectors);
  EXPECT_EQ(all.metrics.size(), 4u);
  EXPECT_TRUE(all.dropped.empty());
  // A chip without DRAM counters still counts L2.
  const auto no_dram = cupti::plan_metrics(req, [](const std::string& m) { return m != l2::kDramReadBytes; });
  EXPECT_EQ(no_dram.error, "");
  EXPECT_EQ(no_dram.metrics.size(), 3u);
  EXPECT_EQ(no_dram.dropped, std::vector<std::string>{l2::kDramReadBytes});
}

TEST(MetricPlan, AnUnknownRequiredMetricOrABadRequestIsAnError) {
  const auto unknown =
      cupti::plan_metrics(l2::read_request(), [](const std::string& m) { return m != l2::kReadSectors; });
  EXPECT_TRUE(contains(unknown.error, std::string(l2::kReadSectors) + " is not one of this chip's")) << unknown.error;
  EXPECT_TRUE(unknown.metrics.empty());
  auto yes = [](const std::string&) { return true; };
  EXPECT_TRUE(contains(cupti::plan_metrics({{"a__b.sum"}, {"a__b.sum"}}, yes).error, "twice"));
  EXPECT_TRUE(contains(cupti::plan_metrics({{"a__b"}, {}}, yes).error, "not <unit>__<counter>"));
  EXPECT_EQ(cupti::plan_metrics({}, yes).error, "no metric requested");
  EXPECT_EQ(cupti::plan_metrics({{}, {"a__b.sum"}}, [](const std::string&) { return false; }).error,
            "the chip knows none of the requested metrics");
}

TEST(L2Reads, SectorsBecomeBytesAndAbsentMetricsStayAbsent) {
  cupti::CounterResult r;
  r.metrics = {l2::kReadSectors, l2::kDramReadBytes};
  r.values = {{1000, 65536}, {4000, 70000}};
  const l2::Reads first = l2::reads_of(r, 0);
  EXPECT_EQ(first.bytes, 32000);
  ASSERT_TRUE(first.dram_bytes.has_value());
  EXPECT_EQ(*first.dram_bytes, 65536);
  EXPECT_FALSE(first.requests.has_value());
  EXPECT_FALSE(first.all_bytes.has_value());
  EXPECT_EQ(l2::reads_of(r, 1).bytes, 128000);
  EXPECT_TRUE(std::isnan(r.value(2, l2::kReadSectors)));   // no such range
  EXPECT_TRUE(std::isnan(r.value(0, l2::kReadRequests)));  // not read
}

}  // namespace
}  // namespace gpuconform::kernels
