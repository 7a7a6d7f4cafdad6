// Rule reinplace-into-expand, end to end on real CPU captures of tools/capture_scripts/expand_index.py:
// `torch.zeros(1, 8).expand(4, -1).index_add(0, [0, 0, 1], ones(3, 8))` on torch 2.13.0 (eager column 0
// [2, 1, 0, 0], compiled [3, 3, 3, 3]: the accumulate runs in the 8-element zeros), the same program on
// 2.14.1 (the 32-element destination is allocated: right) and a contiguous destination on 2.13.
#include <gtest/gtest.h>

#include <filesystem>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

std::string measured(const std::string& fixture) { return read_all(kFixtures + "/" + fixture + "/stdout.txt"); }

}  // namespace

TEST(ReinplaceIntoExpand, AnIndexAddIntoAnExpandWrittenInItsBaseIsAnError) {
  Analysis a;
  auto found = run_rule(kFixtures + "/expand_index_t213", "reinplace-into-expand", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["fx_node"], "index_put");
  EXPECT_EQ(f.evidence["expand"], "expand");
  EXPECT_EQ(f.evidence["buffer"], "buf0");
  EXPECT_EQ(f.evidence["buffer_elements"], 8);
  EXPECT_EQ(f.evidence["expanded_elements"], 32);
  EXPECT_NE(line_at(f.location).find("cpp_fused_expand_index_add_zeros_0(arg0_1, arg1_1, buf0, buf2)"), std::string::npos)
      << line_at(f.location);
  ASSERT_GE(f.related.size(), 3u);
  EXPECT_NE(f.related[0].message.find("base.index_add(0, idx, src)"), std::string::npos) << f.related[0].message;
  EXPECT_NE(line_at(f.related[2].loc).find("empty_strided_cpu((1, 8)"), std::string::npos) << line_at(f.related[2].loc);
  EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
  EXPECT_NE(measured("expand_index_t213").find("eager [2.0, 1.0, 0.0, 0.0] compiled [3.0, 3.0, 3.0, 3.0]"),
            std::string::npos);
}

TEST(ReinplaceIntoExpand, AWholeDestinationIsNoFinding) {
  // 2.14.1 writes the same graph into a 4 x 8 buffer; a zeros(4, 8) destination has no expand.
  for (const char* twin : {"expand_index_fixed_t214", "expand_index_contiguous_t213"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(kFixtures + "/" + twin, "reinplace-into-expand", a).empty()) << twin;
    EXPECT_NE(measured(twin).find("equal True"), std::string::npos) << twin;
  }
}

TEST(ReinplaceIntoExpand, NoOtherFixtureHasAFinding) {
  size_t compiles = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name == "expand_index_t213") continue;
    Analysis a;
    for (const Finding* f : run_rule(e.path().string(), "reinplace-into-expand", a))
      ADD_FAILURE() << name << ": " << f->message;
    compiles += a.program.compiles.size();
  }
  EXPECT_GT(compiles, 100u);
}
