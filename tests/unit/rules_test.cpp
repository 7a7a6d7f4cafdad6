// Tests about several rules together, on the real captures: the mutation/aliasing rules (issue 8:
// inplace-read-after-write, mutated-arg-never-stored, restrict-alias, elided-low-precision-cast)
// are registered with their doc pages and give the same findings at any number of rule threads;
// the scalar rules (scalar-recompile, stale-scalar) stay silent on the clean captures and keep
// captures apart when the whole fixtures folder is analysed at once.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

const char* kMutationRules[] = {"inplace-read-after-write", "mutated-arg-never-stored", "restrict-alias",
                                "elided-low-precision-cast"};

}  // namespace

TEST(MutationRules, RegisteredWithDocPages) {
  register_all_rules();
  for (const char* id : kMutationRules) {
    auto r = RuleRegistry::instance().create(id);
    ASSERT_TRUE(r) << id;
    EXPECT_EQ(r->info().id, id);
    EXPECT_TRUE(fs::exists(fs::path(ILINT_SOURCE_DIR) / r->info().doc_file)) << r->info().doc_file;
  }
}

TEST(MutationRules, FindingsAreTheSameAtAnyNumberOfRuleThreads) {
  // Rules run side by side at -j N; the findings must come out in the same order with the same
  // contents as one rule after another.
  std::vector<std::string> paths;
  for (const char* f : {"mut_foreach_flip", "mut_copy_flip", "mut_cast_bf16", "prec_cumsum_bf16", "s1_cuda", "s2_cuda"})
    paths.push_back(fixture(f));
  auto run = [&](int jobs) {
    AnalyzeOptions o;
    o.paths = paths;
    o.jobs = jobs;
    Analysis a;
    analyze(o, a);
    std::vector<std::string> lines;
    for (const auto& f : a.findings)
      lines.push_back(f.rule + " " + f.location.file.str() + ":" + std::to_string(f.location.line) + " " + f.fingerprint +
                      " " + message_and_notes(f) + " " + f.evidence.dump());
    return lines;
  };
  const auto one = run(1);
  std::set<std::string> rules;
  for (const auto& l : one) rules.insert(l.substr(0, l.find(' ')));
  EXPECT_GE(rules.size(), 3u);  // several rules, so the threads really share them
  EXPECT_EQ(run(2), one);
  EXPECT_EQ(run(5), one);
}

TEST(ScalarRules, NeitherRuleOnCaptureScalarOutputsOrCleanCaptures) {
  for (const char* c : {"s1_cuda_capture", "s2_cuda", "s2_cpu", "s2_cuda_emulate", "prec_cumsum_bf16",
                        "prec_cumsum_bf16_fp32acc", "prec_cumsum_fp32", "prec_softmax_bf16", "clean_resnet",
                        "clean_compiled_adam"}) {
    auto a = run_path(kFixtures + "/" + c);
    EXPECT_TRUE(by_rule(*a, "scalar-recompile").empty()) << c;
    EXPECT_TRUE(by_rule(*a, "stale-scalar").empty()) << c;
  }
}

TEST(ScalarRules, WholeFixturesFolderKeepsCapturesApart) {
  // Analysing all captures at once gives the same findings as analysing each capture alone, although
  // several captures share user file and line (s1_cuda and its cpp_wrapper twin, ...).
  auto all = run_path(kFixtures);
  size_t recompile = 0, stale = 0;
  for (const auto& e : fs::directory_iterator(kFixtures)) {
    if (!e.is_directory()) continue;
    auto one = run_path(e.path().string());
    recompile += by_rule(*one, "scalar-recompile").size();
    stale += by_rule(*one, "stale-scalar").size();
  }
  EXPECT_GE(recompile, 5u);
  EXPECT_EQ(by_rule(*all, "scalar-recompile").size(), recompile);
  EXPECT_EQ(by_rule(*all, "stale-scalar").size(), stale);
}
