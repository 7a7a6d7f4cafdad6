// Rule index-overflow, end to end on real torch 2.13.0 CPU captures of
// tools/capture_scripts/index_overflow.py: `arange(11, int64) * tensor([1e9])` folded into one
// vectorized arange(base, 1000000000) (the capture's stdout.txt: 5 values wrapped by 2^32), and the twin
// that passes the factor as an argument (correct). The live suite localizes the same program.
#include <gtest/gtest.h>

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
