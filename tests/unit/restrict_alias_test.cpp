// Rule restrict-alias on the real captures (s1_cpu, s2_cpu, mut_foreach_flip_cpu, ...): no
// finding, since Inductor declares no __restrict__; positives and negatives are s1_cpu model__1
// edited in one place (named "Derived" below: each edit is stated next to the test).
#include <gtest/gtest.h>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

// s1_cpu passes arg1_1 to in_ptr0 and out_ptr1 of one C++ kernel, mut_foreach_flip_cpu passes
// arg0_1 twice: legal, since Inductor declares no __restrict__.
TEST(RestrictAlias, NoFindingOnRealCaptures) {
  for (const char* name : {"s1_cpu", "s2_cpu", "mut_foreach_flip_cpu", "mut_foreach_flip_cpu_safe", "s1_cuda",
                           "clean_resnet", "clean_compiled_adam"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(fixture(name), "restrict-alias", a).empty()) << name;
  }
}

// Derived from s1_cpu model__1: `__restrict__` added to in_ptr0 and out_ptr1, which the wrapper
// binds to the same graph input arg1_1.
TEST(RestrictAlias, DerivedRestrictOnAliasedPointers) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cpu", "inference_1", "output_code.py", "const float* in_ptr0,",
                           "const float* __restrict__ in_ptr0,");
  derive2(tmp, dir, "output_code.py", "float* out_ptr1)", "float* __restrict__ out_ptr1)");
  Analysis a;
  auto fs_ = run_rule(dir, "restrict-alias", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->severity, Severity::Error);
  EXPECT_EQ(fs_[0]->evidence["buffer"], "arg1_1");
  ASSERT_EQ(fs_[0]->evidence["params"].size(), 2u);
  EXPECT_TRUE(fs_[0]->evidence["params"][0]["restrict"].get<bool>());
  EXPECT_TRUE(fs_[0]->evidence["params"][1]["written"].get<bool>());
  expect_headline_with_notes(*fs_[0]);
}

// Derived: __restrict__ only on in_ptr1, a buffer passed once: the promise holds.
TEST(RestrictAlias, DerivedRestrictOnADistinctBufferIsFine) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cpu", "inference_1", "output_code.py", "const float* in_ptr1,",
                           "const float* __restrict__ in_ptr1,");
  Analysis a;
  EXPECT_TRUE(run_rule(dir, "restrict-alias", a).empty());
}
