// Rule scalar-recompile, end to end (ilint::analyze) on the real captures: the s1_* captures (one
// recompile per .item() value) and s1_cuda_limit (the recompile limit reached, then eager).
#include <gtest/gtest.h>

#include "analyzer/dynamo/log_line.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(ScalarRecompile, FiresOnS1CapturesNamingItemLineAndResumedFrame) {
  struct Case {
    const char* capture;
    const char* file;
    size_t compiles;
  } cases[] = {{"s1_cuda", "seed1.py", 3},
               {"s1_cpu", "seed1.py", 3},
               {"s1_dynfloat_3", "s1_dynfloat.py", 3},
               {"s1_dynfloat_dyn", "s1_dynfloat.py", 5}};
  for (const auto& c : cases) {
    auto a = run_path(kFixtures + "/" + c.capture);
    auto rec = by_rule(*a, "scalar-recompile");
    ASSERT_EQ(rec.size(), 1u) << c.capture;
    const Finding& f = *rec[0];
    EXPECT_EQ(f.severity, Severity::Warning);
    EXPECT_EQ(f.location.line, 10) << c.capture;  // the .item() line
    EXPECT_TRUE(dynamo::ends_with(f.location.file, c.file)) << f.location.file;
    EXPECT_NE(message_and_notes(f).find("step = step_t.item()"), std::string::npos) << message_and_notes(f);
    EXPECT_NE(message_and_notes(f).find("torch_dynamo_resume_in_adam_step_at_10"), std::string::npos);
    EXPECT_NE(message_and_notes(f).find("2/0 = 1.0"), std::string::npos) << message_and_notes(f);
    EXPECT_NE(message_and_notes(f).find("2/1 = 2.0"), std::string::npos) << message_and_notes(f);
    EXPECT_NE(message_and_notes(f).find("2/2 = 3.0"), std::string::npos) << message_and_notes(f);
    EXPECT_NE(message_and_notes(f).find("recompile_limit (8)"), std::string::npos);
    EXPECT_NE(f.fix.find("capture_scalar_outputs = True"), std::string::npos);
    EXPECT_EQ(f.evidence["compiles"].size(), c.compiles) << c.capture;
    ASSERT_FALSE(f.related.empty());
    EXPECT_EQ(f.related[0].loc.line, 10);  // the resumed frame starts at the break
    EXPECT_NE(f.related[0].message.find("torch_dynamo_resume_in_adam_step_at_10"), std::string::npos);
    bool guarded_use = false;
    for (const auto& r : f.related) guarded_use |= r.loc.line == 11;  // bc1 = 1 - 0.9 ** step
    EXPECT_TRUE(guarded_use);
    EXPECT_FALSE(f.fingerprint.empty());
    // Every baked literal is guarded: no stale-scalar.
    EXPECT_TRUE(by_rule(*a, "stale-scalar").empty()) << c.capture;
  }
}

// A real capture that runs 10 steps (fixtures/s1_cuda_limit, TORCH_LOGS text only): 8 compiles, then
// "hit config.recompile_limit (8)" and eager.
TEST(ScalarRecompile, ReportsTheRecompileLimitReached) {
  auto a = run_path(kFixtures + "/s1_cuda_limit");
  const Frame* resume = a->program.dynamo.frame(0, 2);
  ASSERT_NE(resume, nullptr);
  EXPECT_TRUE(resume->fell_back_to_eager);
  EXPECT_EQ(resume->skip_reason, "recompile_limit reached");
  EXPECT_EQ(a->program.dynamo.recompile_limit, 8);
  EXPECT_FALSE(a->program.dynamo.recompile_limit_hits.empty());
  auto rec = by_rule(*a, "scalar-recompile");
  ASSERT_EQ(rec.size(), 1u);
  const Finding& f = *rec[0];
  EXPECT_EQ(f.evidence["compiles"].size(), 8u);
  EXPECT_NE(message_and_notes(f).find("2/7 = 8.0"), std::string::npos) << message_and_notes(f);
  EXPECT_NE(message_and_notes(f).find("recompile_limit (8) was reached and the frame now runs in eager"), std::string::npos)
      << message_and_notes(f);
  EXPECT_TRUE(f.evidence["recompile_limit_reached"].get<bool>());
  EXPECT_TRUE(by_rule(*a, "stale-scalar").empty());
}
