// Rule argreduce-memory-order, end to end on real CPU captures of
// tools/capture_scripts/argreduce_permuted.py (torch.randn(5, 7), seed 21): `(x.t() * 2).argmax()`
// on torch 2.13.0 (eager 23, compiled 25) and `x.t().contiguous().argmin()` on 2.14.1 (eager 24,
// compiled 32), against `x.t().argmin()` (2.13+ computes the logical index: 24 both) and
// `(x * 2).argmax()` (the same kernel, no transpose: 25 both).
#include <gtest/gtest.h>

#include <filesystem>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

std::string measured(const std::string& fixture) { return read_all(kFixtures + "/" + fixture + "/stdout.txt"); }

}  // namespace

TEST(ArgreduceMemoryOrder, APointwiseOpBetweenTransposeAndArgmaxIsAnError) {
  Analysis a;
  auto found = run_rule(kFixtures + "/argreduce_t_mul_t213", "argreduce-memory-order", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["reduction"], "argmax");
  EXPECT_EQ(f.evidence["permute"], "permute");
  EXPECT_EQ(f.evidence["index_argument"], "x0");
  EXPECT_NE(line_at(f.location).find("argmax_combine_vec<float, 1, 2, true>(tmp_acc0_vec, tmp3, x0)"), std::string::npos)
      << line_at(f.location);
  ASSERT_GE(f.related.size(), 2u);
  EXPECT_NE(f.related[0].message.find("(x.t() * 2).argmax()"), std::string::npos) << f.related[0].message;
  EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
  EXPECT_NE(measured("argreduce_t_mul_t213").find("eager 23 compiled 25 equal False"), std::string::npos);
}

TEST(ArgreduceMemoryOrder, ContiguousBetweenTransposeAndArgminIsAnErrorOnTorch214) {
  Analysis a;
  auto found = run_rule(kFixtures + "/argreduce_t_contiguous_t214", "argreduce-memory-order", a);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->evidence["reduction"], "argmin");
  EXPECT_NE(measured("argreduce_t_contiguous_t214").find("eager 24 compiled 32 equal False"), std::string::npos);
}

TEST(ArgreduceMemoryOrder, TheLogicalIndexOrNoTransposeIsNoFinding) {
  for (const char* twin : {"argreduce_t_t213", "argreduce_no_t_t213", "int_argmin_t_t214"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(kFixtures + "/" + twin, "argreduce-memory-order", a).empty()) << twin;
    EXPECT_NE(measured(twin).find("equal True"), std::string::npos) << twin;
  }
}

// No other capture of the fixtures has a finding (cpu_vocab_arg_reduce's argmax/argmin are per
// dimension, over untransposed values).
TEST(ArgreduceMemoryOrder, NoOtherFixtureHasAFinding) {
  size_t compiles = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name == "argreduce_t_mul_t213" || name == "argreduce_t_contiguous_t214") continue;
    Analysis a;
    for (const Finding* f : run_rule(e.path().string(), "argreduce-memory-order", a))
      ADD_FAILURE() << name << ": " << f->message;
    compiles += a.program.compiles.size();
  }
  EXPECT_GT(compiles, 100u);
}
