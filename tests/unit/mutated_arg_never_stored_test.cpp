// Rule mutated-arg-never-stored on the real captures (s1_*, s2_*, clean_*, prec_*, mut_*): no
// finding on any, since Inductor's mutated_arg_names are consistent; positives are s1_cuda
// model__1 edited in one place (named "Derived" below: each edit is stated next to the test).
#include <gtest/gtest.h>

#include <set>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

// Inductor lists both names of a mutated input (in_ptr0 loads it, out_ptr1 stores it) and every
// in_out_ptr: consistent on every real capture.
TEST(MutatedArgNeverStored, NoFindingOnRealCaptures) {
  for (const char* name : {"s1_cuda", "s1_cpu", "s1_cuda_capture", "s1_dynfloat_3", "s1_dynfloat_dyn", "s2_cuda",
                           "s2_cpu", "s2_cuda_emulate", "clean_resnet", "clean_compiled_adam", "prec_cumsum_bf16",
                           "prec_cumsum_bf16_fp32acc", "prec_cumsum_fp32", "prec_softmax_bf16", "mut_foreach_flip",
                           "mut_foreach_flip_safe", "mut_foreach_flip_cpu", "mut_copy_flip", "mut_copy_flip_safe",
                           "mut_add_t", "mut_add_t_safe"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(fixture(name), "mutated-arg-never-stored", a).empty()) << name;
  }
}

// Derived from s1_cuda model__1: the kernel's only store (into the mutated graph input) is
// removed; both listed names of arg1_1 are then declared mutated and never stored.
TEST(MutatedArgNeverStored, DerivedDeclaredButNeverStored) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "    tl.store(out_ptr1 + (x0), tmp11, xmask)\n",
                           "");
  Analysis a;
  auto fs_ = run_rule(dir, "mutated-arg-never-stored", a);
  ASSERT_EQ(fs_.size(), 2u);
  std::set<std::string> params;
  for (auto* f : fs_) {
    EXPECT_EQ(f->evidence["claim"], "declared-not-stored");
    EXPECT_EQ(f->evidence["buffer"], "arg1_1");
    EXPECT_EQ(f->severity, Severity::Warning);
    expect_headline_with_notes(*f);
    params.insert(f->evidence["param"]);
  }
  EXPECT_EQ(params, (std::set<std::string>{"in_ptr0", "out_ptr1"}));
}

// Derived: out_ptr1 (which stores into graph input arg1_1) is dropped from mutated_arg_names.
TEST(MutatedArgNeverStored, DerivedStoreIntoInputNotDeclared) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "'mutated_arg_names': ['in_ptr0', 'out_ptr1']",
                           "'mutated_arg_names': ['in_ptr0']");
  Analysis a;
  auto fs_ = run_rule(dir, "mutated-arg-never-stored", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["claim"], "stored-not-declared");
  EXPECT_EQ(fs_[0]->evidence["param"], "out_ptr1");
  EXPECT_TRUE(fs_[0]->evidence["buffer_is_graph_input"].get<bool>());
  EXPECT_NE(line_at(fs_[0]->location).find("tl.store(out_ptr1"), std::string::npos);
  expect_headline_with_notes(*fs_[0]);
}

// Derived: the key is absent (older Inductor metadata): nothing is claimed about undeclared stores.
TEST(MutatedArgNeverStored, DerivedMissingMetadataKeyClaimsNothing) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "'mutated_arg_names': ['in_ptr0', 'out_ptr1'], ",
                           "");
  Analysis a;
  EXPECT_TRUE(run_rule(dir, "mutated-arg-never-stored", a).empty());
}
