// Rule integer-abs-promotion, end to end on real CPU captures of tools/capture_scripts/int_abs.py
// (x = [-32768, 5, -7, 32767], int16): `x.abs().to(torch.int64)` on torch 2.13.0 (eager -32768,
// compiled 32768) and `x.abs().sum()` on 2.14.1 (11 vs 65547), against `x.to(torch.int64).abs()` and
// `x.abs()` kept in int16 (both agree).
#include <gtest/gtest.h>

#include <filesystem>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

std::string measured(const std::string& fixture) { return read_all(kFixtures + "/" + fixture + "/stdout.txt"); }

}  // namespace

TEST(IntegerAbsPromotion, AbsOfInt16WidenedToInt64IsAnError) {
  struct Case {
    const char* capture;
    const char* user;
    const char* measured;
  } cases[] = {{"int_abs_i16_to_int64_t213", "x.abs().to(torch.int64)", "compiled [32768, 5, 7, 32767]"},
               {"int_abs_i16_sum_t214", "x.abs().sum()", "eager 11 torch.int64 compiled 65547"}};
  for (const auto& c : cases) {
    Analysis a;
    auto found = run_rule(kFixtures + "/" + c.capture, "integer-abs-promotion", a);
    ASSERT_EQ(found.size(), 1u) << c.capture;
    const Finding& f = *found[0];
    EXPECT_EQ(f.severity, Severity::Error);
    EXPECT_EQ(f.evidence["dtype"], "i16");
    EXPECT_EQ(f.evidence["widened_to"], "i64");
    EXPECT_EQ(f.evidence["minimum"], -32768);
    EXPECT_NE(line_at(f.location).find("std::abs(tmp0)"), std::string::npos) << line_at(f.location);
    ASSERT_GE(f.related.size(), 2u);
    EXPECT_NE(f.related[0].message.find(c.user), std::string::npos) << f.related[0].message;
    EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
    EXPECT_NE(measured(c.capture).find(c.measured), std::string::npos) << c.capture;
  }
}

TEST(IntegerAbsPromotion, WideningFirstOrKeepingInt16IsNoFinding) {
  for (const char* twin : {"int_abs_i16_widen_t213", "int_abs_i16_keep_t213"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(kFixtures + "/" + twin, "integer-abs-promotion", a).empty()) << twin;
    EXPECT_NE(measured(twin).find("equal True"), std::string::npos) << twin;
  }
}

TEST(IntegerAbsPromotion, NoOtherFixtureHasAFinding) {
  size_t compiles = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name == "int_abs_i16_to_int64_t213" || name == "int_abs_i16_sum_t214") continue;
    Analysis a;
    for (const Finding* f : run_rule(e.path().string(), "integer-abs-promotion", a))
      ADD_FAILURE() << name << ": " << f->message;
    compiles += a.program.compiles.size();
  }
  EXPECT_GT(compiles, 100u);
}
