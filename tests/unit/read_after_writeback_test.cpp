// Rule read-after-writeback, end to end on real torch 2.13.0 CPU captures of
// tools/capture_scripts/writeback.py: `dst[0:, :] = src[0:, :]; src.add_(1)`, whose graph copies
// `arg0_1` (src) into dst after src's write-back (the capture's stdout.txt: 12 of 12 elements of dst
// differ), and the twin that copies a clone (correct).
#include <gtest/gtest.h>

#include <filesystem>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(ReadAfterWriteback, AnInputReadAfterItsWritebackIsAnError) {
  Analysis a;
  auto found = run_rule(kFixtures + "/writeback_t213", "read-after-writeback", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["input"], "arg0_1");
  EXPECT_EQ(f.evidence["reader"], "copy__1");
  EXPECT_EQ(f.evidence["writeback"], "copy_");
  EXPECT_NE(line_at(f.location).find("torch.ops.aten.copy_.default(arg1_1, arg0_1)"), std::string::npos) << line_at(f.location);
  ASSERT_GE(f.related.size(), 2u);
  EXPECT_NE(f.related[0].message.find("dst[0:, :] = src[0:, :]"), std::string::npos) << f.related[0].message;
  EXPECT_NE(f.related[1].message.find("src.add_(1)"), std::string::npos) << f.related[1].message;
  EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
  std::string out = read_all(kFixtures + "/writeback_t213/stdout.txt");
  EXPECT_NE(out.find("differing 12 of 12"), std::string::npos) << out;
}

TEST(ReadAfterWriteback, TheTraceAloneGivesTheSameFinding) {
  Analysis whole, trace;
  auto a = run_rule(kFixtures + "/writeback_t213", "read-after-writeback", whole);
  auto b = run_rule(kFixtures + "/writeback_t213/trace", "read-after-writeback", trace);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0]->fingerprint, b[0]->fingerprint);
}

TEST(ReadAfterWriteback, ACloneCopiedBeforeTheWritebackIsNoFinding) {
  Analysis a;
  EXPECT_TRUE(run_rule(kFixtures + "/writeback_safe_t213", "read-after-writeback", a).empty());
  std::string out = read_all(kFixtures + "/writeback_safe_t213/stdout.txt");
  EXPECT_NE(out.find("differing 0 of 12"), std::string::npos) << out;
}

// No other capture of the fixtures reads an input after its write-back (the mutation fixtures write
// inputs back at the end of their graphs).
TEST(ReadAfterWriteback, NoOtherFixtureHasAFinding) {
  size_t compiles = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    if (!e.is_directory() || e.path().filename() == "writeback_t213") continue;
    Analysis a;
    for (const Finding* f : run_rule(e.path().string(), "read-after-writeback", a))
      ADD_FAILURE() << e.path().filename() << ": " << f->message;
    compiles += a.program.compiles.size();
  }
  EXPECT_GT(compiles, 100u);
}
