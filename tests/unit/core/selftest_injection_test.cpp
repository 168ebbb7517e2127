// SPDX-License-Identifier: Apache-2.0
// Self-test fault injection without a GPU (docs/selftest.md): the two variables, the SM
// partition arithmetic on the driver's groups and every refusal's message, the marks a run
// with injection leaves (banner, record header, schema), and `record --from` refusing such a
// record as evidence.
#include "gpuconform/selftest_injection.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gpuconform/run_header.hpp"
#include "json_schema_check.hpp"

namespace gpuconform::selftest {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const SmGeometry kH100{132, 8, 16};   // the split seen on an H100 SXM: 16 groups of 8, 4 SMs in none
const SmGeometry kWhole{128, 8, 16};  // a GPU the groups cover exactly

// The message of the InjectionError `f` throws ("" when it throws none).
template <typename F>
std::string refusal(F f) {
  try {
    f();
  } catch (const InjectionError& e) {
    return e.what();
  }
  return "";
}

std::string plan_refusal(const char* sm_limit, const char* thief, const SmGeometry& g = kH100) {
  return refusal([&] { plan_sm_partition(parse_injection(sm_limit, thief), g); });
}

// Sets the two variables for one test and restores them after.
class Env {
 public:
  Env(const char* sm_limit, const char* thief) {
    save(kSmLimitVar, sm_limit_);
    save(kHbmThiefVar, thief_);
    set(kSmLimitVar, sm_limit);
    set(kHbmThiefVar, thief);
  }
  ~Env() {
    set(kSmLimitVar, sm_limit_ ? sm_limit_->c_str() : nullptr);
    set(kHbmThiefVar, thief_ ? thief_->c_str() : nullptr);
  }

 private:
  static void save(const char* var, std::optional<std::string>& into) {
    if (const char* v = std::getenv(var)) into = v;
  }
  static void set(const char* var, const char* value) {
    if (value)
      ::setenv(var, value, 1);
    else
      ::unsetenv(var);
  }
  std::optional<std::string> sm_limit_, thief_;
};

TEST(SelftestInjection, UnsetOrEmptyVariablesMeanNoInjection) {
  EXPECT_FALSE(parse_injection(nullptr, nullptr).active());
  EXPECT_FALSE(parse_injection("", "").active());
  Env env(nullptr, nullptr);
  EXPECT_FALSE(injection_requested());
  EXPECT_EQ(injection_banner(), "");
  EXPECT_TRUE(injection_header_json().is_null());
}

TEST(SelftestInjection, ParsesWholeNumbers) {
  const InjectionRequest r = parse_injection("120", "8");
  EXPECT_EQ(r.sm_limit, 120);
  EXPECT_EQ(r.thief_sms, 8);
  EXPECT_EQ(r.settings(), "GPUCONFORM_SELFTEST_SM_LIMIT=120 GPUCONFORM_SELFTEST_HBM_THIEF=8");
  EXPECT_EQ(parse_injection("-12", nullptr).sm_limit, -12);
  EXPECT_EQ(parse_injection(nullptr, "16").settings(), "GPUCONFORM_SELFTEST_HBM_THIEF=16");
}

TEST(SelftestInjection, RefusesWhatIsNotANumberOfSms) {
  for (const char* bad : {"abc", "0", "12x", " 120", "-", "1e3", "+8", "9999999"}) {
    const std::string why = refusal([&] { parse_injection(bad, nullptr); });
    EXPECT_NE(why.find(fmt::format("GPUCONFORM_SELFTEST_SM_LIMIT='{}' is not a number of SMs", bad)), std::string::npos)
        << bad << ": " << why;
    EXPECT_NE(why.find("-M for M fewer"), std::string::npos) << why;
    EXPECT_NE(why.find("unset it to run without injection"), std::string::npos) << why;
  }
  for (const char* bad : {"0", "-8", "eight"}) {
    const std::string why = refusal([&] { parse_injection(nullptr, bad); });
    EXPECT_NE(why.find(fmt::format("GPUCONFORM_SELFTEST_HBM_THIEF='{}' is not a number of SMs", bad)),
              std::string::npos)
        << bad << ": " << why;
  }
}

TEST(SelftestInjection, SmLimitTakesWholeGroups) {
  const SmPlan p = plan_sm_partition(parse_injection("120", nullptr), kH100);
  EXPECT_EQ(p.probe_sms, 120);
  EXPECT_EQ(p.probe_groups, 15);
  EXPECT_EQ(p.thief_sms, 0);
  EXPECT_EQ(p.thief_groups, 0);
  EXPECT_EQ(plan_sm_partition(parse_injection("8", nullptr), kH100).probe_groups, 1);
  EXPECT_EQ(plan_sm_partition(parse_injection("128", nullptr), kH100).probe_sms, 128);  // 4 SMs lost
}

TEST(SelftestInjection, NegativeLimitIsThatManyFewerRoundedDownToTheGroupSize) {
  EXPECT_EQ(plan_sm_partition(parse_injection("-12", nullptr), kH100).probe_sms, 120);  // 132 - 12 = 120
  EXPECT_EQ(plan_sm_partition(parse_injection("-13", nullptr), kH100).probe_sms, 112);  // 119 -> 112
  EXPECT_EQ(plan_sm_partition(parse_injection("-1", nullptr), kH100).probe_sms, 128);   // at most the groups
  EXPECT_EQ(plan_sm_partition(parse_injection("-8", nullptr), kWhole).probe_sms, 120);
  const std::string why = plan_refusal("-128", nullptr);
  EXPECT_NE(why.find("this GPU's 132 SMs less 128 = 4, rounded down to a multiple of 8: 0"), std::string::npos) << why;
  EXPECT_NE(why.find("leaves no SMs for the probes"), std::string::npos) << why;
}

TEST(SelftestInjection, ALimitNotAMultipleOfTheGroupSizeSaysWhichArePossible) {
  const std::string why = plan_refusal("100", nullptr);
  EXPECT_NE(why.find("GPUCONFORM_SELFTEST_SM_LIMIT=100 is not possible"), std::string::npos) << why;
  EXPECT_NE(why.find("the driver partitions this GPU's 132 SMs in groups of 8 (16 groups, 4 SMs in no group)"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("possible values here: 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120, 128"),
            std::string::npos)
      << why;
  EXPECT_NE(plan_refusal("131", nullptr).find("is not possible"), std::string::npos);
}

TEST(SelftestInjection, ALimitThatTakesNoSmAwayIsRefused) {
  const std::string why = plan_refusal("128", nullptr, kWhole);
  EXPECT_NE(why.find("GPUCONFORM_SELFTEST_SM_LIMIT=128 takes no SM away from this GPU's 128"), std::string::npos)
      << why;
  EXPECT_NE(why.find("possible values here: 8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112, 120"),
            std::string::npos)
      << why;
  EXPECT_NE(plan_refusal("136", nullptr).find("takes no SM away from this GPU's 132"), std::string::npos);
}

TEST(SelftestInjection, ThiefAloneLeavesTheProbesEveryOtherGroup) {
  const SmPlan p = plan_sm_partition(parse_injection(nullptr, "8"), kH100);
  EXPECT_EQ(p.thief_sms, 8);
  EXPECT_EQ(p.thief_groups, 1);
  EXPECT_EQ(p.probe_sms, 120);  // 128 partitionable - 8
  EXPECT_EQ(p.probe_groups, 15);
  EXPECT_EQ(plan_sm_partition(parse_injection(nullptr, "16"), kH100).probe_sms, 112);
  EXPECT_EQ(plan_sm_partition(parse_injection(nullptr, "8"), kWhole).probe_sms, 120);
}

TEST(SelftestInjection, ThiefRefusals) {
  std::string why = plan_refusal(nullptr, "12");
  EXPECT_NE(why.find("GPUCONFORM_SELFTEST_HBM_THIEF=12 is not possible"), std::string::npos) << why;
  EXPECT_NE(why.find("use a multiple of 8"), std::string::npos) << why;
  why = plan_refusal(nullptr, "128");
  EXPECT_NE(why.find("GPUCONFORM_SELFTEST_HBM_THIEF=128 leaves no SMs for the probes"), std::string::npos) << why;
  EXPECT_NE(why.find("use at most 120"), std::string::npos) << why;
}

TEST(SelftestInjection, BothTogetherMustFitTheGroups) {
  const SmPlan p = plan_sm_partition(parse_injection("112", "16"), kH100);
  EXPECT_EQ(p.probe_sms, 112);
  EXPECT_EQ(p.probe_groups, 14);
  EXPECT_EQ(p.thief_groups, 2);
  const std::string why = plan_refusal("120", "16");
  EXPECT_NE(why.find("GPUCONFORM_SELFTEST_SM_LIMIT=120 and GPUCONFORM_SELFTEST_HBM_THIEF=16 need 136 SMs together, "
                     "more than the 128 the driver can partition"),
            std::string::npos)
      << why;
  EXPECT_NE(why.find("lower one of them"), std::string::npos) << why;
}

TEST(SelftestInjection, AGpuTheDriverCannotSplitIsRefused) {
  const std::string why = plan_refusal("8", nullptr, SmGeometry{16, 8, 1});
  EXPECT_NE(why.find("needs at least 2 SM groups; the driver offers 1 group(s) of 8 SMs of this GPU's 16"),
            std::string::npos)
      << why;
  EXPECT_NE(plan_refusal("8", nullptr, SmGeometry{16, 0, 0}).find("needs at least 2 SM groups"), std::string::npos);
}

TEST(SelftestInjection, PossibleLimitsAreListedOrAbbreviated) {
  EXPECT_EQ(possible_sm_limits(SmGeometry{32, 8, 4}), "8, 16, 24");  // 32 itself takes nothing away
  EXPECT_EQ(possible_sm_limits(SmGeometry{108, 2, 54}), "2, 4, 6, ..., 106");
  EXPECT_EQ(possible_sm_limits(SmGeometry{8, 8, 1}), "none");
}

TEST(SelftestInjection, SmIdsAsRanges) {
  EXPECT_EQ(sm_id_ranges({3, 0, 1, 2, 7, 9, 8, 8, 131}), "0-3, 7-9, 131");
  EXPECT_EQ(sm_id_ranges({}), "");
  EXPECT_EQ(sm_id_ranges({5}), "5");
}

TEST(SelftestInjection, BannerAndHeaderSayItIsOn) {
  Env env("120", nullptr);
  EXPECT_TRUE(injection_requested());
  const std::string banner = injection_banner();
  EXPECT_NE(banner.find("SELF-TEST FAULT INJECTION IS ON: GPUCONFORM_SELFTEST_SM_LIMIT=120"), std::string::npos)
      << banner;
  EXPECT_NE(banner.find("is no evidence"), std::string::npos) << banner;
  const json h = injection_header_json();
  EXPECT_EQ(h["env"], json({{"GPUCONFORM_SELFTEST_SM_LIMIT", "120"}}));
  // Even an invalid value is recorded as set: the run is marked whatever its workers make of it.
  Env bad("abc", "8");
  EXPECT_EQ(injection_header_json()["env"],
            json({{"GPUCONFORM_SELFTEST_SM_LIMIT", "abc"}, {"GPUCONFORM_SELFTEST_HBM_THIEF", "8"}}));
}

TEST(SelftestInjection, MarkedHeaderAndTestLineMatchTheSchema) {
  const auto schema = test::SchemaCheck::from_file(std::string(GPUCONFORM_TEST_SCHEMA_DIR) + "/run-record.schema.json");
  Env env("-12", "8");
  const RunIdentity run{"20261126T100000Z-node", "node", "2026-11-26T10:00:00Z", {"gpuconform", "run"}};
  const json header = run_header_json(run, {"580.159.04", 13000, 13000});
  ASSERT_TRUE(header.contains("selftest_injection"));
  EXPECT_EQ(schema.errors(header), std::vector<std::string>{});
  // The shape Injection::to_json gives a worker's test lines.
  json line = {{"schema_version", 2},
               {"record", "test"},
               {"probe", "throughput.hbm.read"},
               {"verdict", "fail"},
               {"reason", "r"},
               {"seconds", 0.1},
               {"suite", {{"version", "0"}, {"commit", "x"}}},
               {"time", "2026-11-26T10:00:00Z"},
               {"device",
                {{"index", 0},
                 {"name", "H100"},
                 {"arch", "sm_90"},
                 {"uuid", "GPU-1"},
                 {"pci_bus_id", "0000:19:00.0"},
                 {"driver", "580"},
                 {"cuda_driver_version", 13000},
                 {"cuda_runtime_version", 13000}}}};
  line["selftest_injection"] = {{"env", {{"GPUCONFORM_SELFTEST_HBM_THIEF", "8"}}},
                                {"total_sms", 132},
                                {"group_sms", 8},
                                {"groups", 16},
                                {"probe_sms", 120},
                                {"probe_sms_seen", 120},
                                {"thief_sms", 8},
                                {"thief_sms_seen", 8},
                                {"thief_read_gbps", 231.5}};
  EXPECT_EQ(schema.errors(line), std::vector<std::string>{});
  line["selftest_injection"]["unexpected"] = 1;
  EXPECT_NE(schema.errors(line), std::vector<std::string>{});
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("gpuconform_selftest_injection_{}", ::getpid());
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

TEST(SelftestInjection, FindsTheMarkedLineOfARecord) {
  TempDir dir;
  const fs::path clean = dir.path / "clean.jsonl", marked = dir.path / "marked.jsonl";
  std::ofstream(clean) << R"({"record":"header","run_id":"a"})"
                          "\n"
                       << R"({"record":"test","probe":"p","reason":"\"selftest_injection\" in a reason is no mark"})"
                       << "\n";
  std::ofstream(marked)
      << R"({"record":"header","run_id":"a"})"
         "\n"
      << R"({"record":"test","probe":"p","selftest_injection":{"env":{"GPUCONFORM_SELFTEST_SM_LIMIT":"120"}}})"
      << "\n";
  EXPECT_EQ(injected_record_line(clean.string()), std::nullopt);
  EXPECT_EQ(injected_record_line(marked.string()), marked.string() + ":2 (GPUCONFORM_SELFTEST_SM_LIMIT=120)");
  EXPECT_EQ(injected_record_line((dir.path / "missing.jsonl").string()), std::nullopt);
}

// End to end through the CLI, no GPU: a run with injection set writes a marked header even
// when it cannot run, and `record --from` refuses that record (exit 2) saying why.
TEST(SelftestInjection, RecordFromRefusesARunWithInjection) {
  TempDir dir;
  const fs::path run_dir = dir.path / "run";
  std::string cmd = fmt::format(
      "CUDA_VISIBLE_DEVICES= GPUCONFORM_SELFTEST_SM_LIMIT=120 '{}' run --filter 'throughput.hbm.read' --out-dir '{}' "
      ">/dev/null 2>&1",
      GPUCONFORM_CLI, run_dir.string());
  std::system(cmd.c_str());
  std::ifstream record(run_dir / "run.jsonl");
  std::string first;
  ASSERT_TRUE(std::getline(record, first)) << "no run.jsonl in " << run_dir;
  EXPECT_EQ(json::parse(first)["selftest_injection"]["env"]["GPUCONFORM_SELFTEST_SM_LIMIT"], "120");

  const fs::path err = dir.path / "record.err";
  cmd = fmt::format("'{}' record --from '{}' --out '{}' >/dev/null 2>'{}'", GPUCONFORM_CLI,
                    (run_dir / "run.jsonl").string(), (dir.path / "out.toml").string(), err.string());
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << cmd;
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::stringstream text;
  text << std::ifstream(err).rdbuf();
  EXPECT_NE(text.str().find("run.jsonl:1 (GPUCONFORM_SELFTEST_SM_LIMIT=120) was written with self-test fault "
                            "injection: not evidence"),
            std::string::npos)
      << text.str();
  EXPECT_FALSE(fs::exists(dir.path / "out.toml"));
}

}  // namespace
}  // namespace gpuconform::selftest
