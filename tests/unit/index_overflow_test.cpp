// Rule index-overflow, end to end on real captures of tools/capture_scripts/index_overflow.py:
// `arange(11, int64) * tensor([1e9])`. On torch 2.13.0 CPU it is folded into one vectorized
// arange(base, 1000000000) (the capture's stdout.txt: 5 values wrapped by 2^32), and the twin passes the
// factor as an argument (correct); the live suite localizes the same program. On an H100 (torch 2.11,
// Triton 3.6) the Triton kernel computes `1000000000*x0` from its int32 index (8 of 11 values wrong),
// `4096*x0` over 1048576 values (524288 wrong); its twins are the factor as an argument and N = 3
// (2 x 1e9 still fits). The recorded script-mode `confirm` answers are tests/gpu/results/confirm_overflow_cuda*.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(IndexOverflow, TheFoldedArangeStepOverflowsItsLanes) {
  Analysis a;
  auto found = run_rule(kFixtures + "/overflow_t213", "index-overflow", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["arange_length"], 11);
  EXPECT_EQ(f.evidence["kernel_step"], 1000000000);
  EXPECT_GT(f.evidence["max_lane_offset"].get<int64_t>(), int64_t{2147483647});
  EXPECT_NE(line_at(f.location).find("::arange(tmp1, 1000000000)"), std::string::npos) << line_at(f.location);
  ASSERT_FALSE(f.related.empty());
  EXPECT_NE(f.related[0].message.find("torch.arange(0, n"), std::string::npos) << f.related[0].message;
  // What the capture's own run measured.
  std::string out = read_all(kFixtures + "/overflow_t213/stdout.txt");
  EXPECT_NE(out.find("-1294967296"), std::string::npos) << out;
}

TEST(IndexOverflow, AFactorTheKernelLoadsIsNoFinding) {
  Analysis a;
  EXPECT_TRUE(run_rule(kFixtures + "/overflow_safe_t213", "index-overflow", a).empty());
  std::string out = read_all(kFixtures + "/overflow_safe_t213/stdout.txt");
  EXPECT_NE(out.find("differing 0"), std::string::npos) << out;
}

TEST(IndexOverflow, AStepThatFitsIsNoFinding) {
  // A factor of 1000, 15 x 1000 far below 2^31: a capture derived from the real one by editing the
  // constant in the FX graph, which is what the rule reads the factor from.
  TempDir tmp;
  std::string dir = derive(tmp, "overflow_t213", "inference", "fx_graph_readable.py",
                           "torch.ops.aten.full.default([1], 1000000000,", "torch.ops.aten.full.default([1], 1000,");
  Analysis a;
  EXPECT_TRUE(run_rule(dir, "index-overflow", a).empty());
}

TEST(IndexOverflow, TritonMultipliesTheInt32IndexByTheFactor) {
  struct Case {
    const char* capture;
    int64_t length, step, largest;
    const char* line;
    const char* measured;
  } cases[] = {{"overflow_cuda", 11, 1000000000, 10000000000, "tmp0 = 1000000000*x0", "differing 8 first [3]"},
               {"overflow_cuda_long", 1048576, 4096, 4294963200, "tmp0 = 4096*x0", "differing 524288 first [524288]"}};
  for (const auto& c : cases) {
    Analysis a;
    auto found = run_rule(kFixtures + "/" + c.capture, "index-overflow", a);
    ASSERT_EQ(found.size(), 1u) << c.capture;
    const Finding& f = *found[0];
    EXPECT_EQ(f.severity, Severity::Error);
    EXPECT_EQ(f.evidence["arange_length"], c.length);
    EXPECT_EQ(f.evidence["kernel_step"], c.step);
    EXPECT_EQ(f.evidence["index"], "x0");
    EXPECT_EQ(f.evidence["largest_product"], c.largest);
    EXPECT_NE(line_at(f.location).find(c.line), std::string::npos) << line_at(f.location);
    EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
    std::string out = read_all(kFixtures + "/" + c.capture + "/stdout.txt");
    EXPECT_NE(out.find(c.measured), std::string::npos) << out;
  }
}

TEST(IndexOverflow, TritonTwinsAreNoFinding) {
  // The factor as an argument: `tmp3 = tmp2 * tmp1` with tmp1 an int64 load, which promotes the product.
  // N = 3: the largest product, 2 x 1e9, fits an int32.
  for (const char* twin : {"overflow_cuda_safe", "overflow_cuda_fits"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(kFixtures + "/" + twin, "index-overflow", a).empty()) << twin;
    std::string out = read_all(kFixtures + "/" + std::string(twin) + "/stdout.txt");
    EXPECT_NE(out.find("differing 0 "), std::string::npos) << out;
  }
}

TEST(IndexOverflow, ReExecutingTheProgramConfirmsTheTritonPositives) {
  auto answer = [](const std::string& name) {
    return nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/gpu/results/" + name));
  };
  for (const char* name : {"confirm_overflow_cuda_script.json", "confirm_overflow_cuda_long_script.json"}) {
    auto r = answer(name);
    EXPECT_EQ(r["verdict"], "confirmed") << name;
    EXPECT_EQ(r["mode"], "script") << name;
    EXPECT_TRUE(r["inductor_only"].get<bool>()) << name;  // aot_eager agrees with eager
    EXPECT_GE(r["calls"][0]["inductor"]["max_abs"].get<double>(), 4294967296.0 - 8192) << name;
  }
  EXPECT_EQ(answer("confirm_overflow_cuda_safe_script.json")["verdict"], "not-reproduced");
}
