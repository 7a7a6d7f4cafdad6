// Rule rounding-before-compare, end to end on real torch 2.13.0 CPU captures of
// tools/capture_scripts/rounding_compare.py (pytorch#195214's mechanism): `count = (x / 3.0 == amax).sum(-1)`
// on bf16, where the fused kernel compares the unrounded quotient with the amax it read back as bf16
// (the capture's stdout.txt: 46 of 64 rows without a tie, eager 0), and its float32 twin (no rounding).
// The live suite localizes the same program.
#include <gtest/gtest.h>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(RoundingBeforeCompare, TheUnroundedQuotientMeetsTheRoundedMaximum) {
  Analysis a;
  auto found = run_rule(kFixtures + "/rounding_compare_t213", "rounding-before-compare", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["fx_node"], "eq");
  EXPECT_EQ(f.evidence["comparison"], "eq");
  EXPECT_EQ(f.evidence["unrounded_var"], "tmp4");  // tmp1 / tmp3, tmp1 the bf16 input widened
  EXPECT_EQ(f.evidence["rounded_var"], "tmp7");    // the amax stored as bf16, read back and widened
  EXPECT_NE(line_at(f.location).find("tmp4 == tmp7"), std::string::npos) << line_at(f.location);
  ASSERT_FALSE(f.related.empty());
  EXPECT_NE(f.related[0].message.find("(scaled == maximum)"), std::string::npos) << f.related[0].message;
  std::string out = read_all(kFixtures + "/rounding_compare_t213/stdout.txt");
  EXPECT_NE(out.find("compiled: rows with zero ties 46 of 64"), std::string::npos) << out;
}

TEST(RoundingBeforeCompare, Float32HasNothingToRound) {
  Analysis a;
  EXPECT_TRUE(run_rule(kFixtures + "/rounding_compare_safe_t213", "rounding-before-compare", a).empty());
  std::string out = read_all(kFixtures + "/rounding_compare_safe_t213/stdout.txt");
  EXPECT_NE(out.find("compiled: rows with zero ties 0 of 64"), std::string::npos) << out;
}

TEST(RoundingBeforeCompare, BothReadersClassTheMaskOfAComparisonAsTheComparison) {
  // `auto tmp8 = at::vec::VecMask<float,2>(tmp4 == tmp7);` is an `eq` statement of tmp4 and tmp7.
  Analysis a;
  run_analysis({kFixtures + "/rounding_compare_t213"}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  bool seen = false;
  for (const auto& k : a.program.compiles[0].kernels)
    for (const auto& st : k.stmts)
      if (st.var == "tmp8" && st.op == "eq") {
        ASSERT_EQ(st.operands.size(), 2u);
        seen = st.operands[0] == "tmp4" && st.operands[1] == "tmp7";
      }
  EXPECT_TRUE(seen);
}
