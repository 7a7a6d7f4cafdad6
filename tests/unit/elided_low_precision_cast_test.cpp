// Rule elided-low-precision-cast on the real captures: positives mut_cast_bf16 (CUDA, CPU and
// with emulate_precision_casts), negatives its safe twin and the captures without explicit casts,
// and s1_cuda model__1 edited in one place (named "Derived" below: the edit is stated next to the
// test).
#include <gtest/gtest.h>

#include <set>

#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(ElidedLowPrecisionCast, NoFindingOnRealCapturesWithoutExplicitCasts) {
  // prec_cumsum_bf16_fp32acc writes dtype=torch.float32 (not a low-precision cast); the others
  // cast outside the compiled region or not at all.
  for (const char* name : {"s1_cuda", "s1_cpu", "s2_cuda", "s2_cpu", "s2_cuda_emulate", "clean_resnet",
                           "clean_compiled_adam", "prec_cumsum_bf16", "prec_cumsum_bf16_fp32acc", "prec_cumsum_fp32",
                           "prec_softmax_bf16", "mut_foreach_flip", "mut_add_t", "mut_copy_flip", "s1_cpu_cppwrap",
                           "s2_cuda_cppwrap", "stale_clamp", "stale_rms_norm"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(fixture(name), "elided-low-precision-cast", a).empty()) << name;
  }
}

// (a + b).to(torch.bfloat16).float().sum(-1), 64x4096 f32: the round trip is gone from the graph
// Inductor compiled (pointless_convert). Measured eager-vs-inductor 0.359 (CUDA), 0.431 (CPU), and
// 0.359 with emulate_precision_casts=True.
TEST(ElidedLowPrecisionCast, CastBf16RoundTripRemovedOnCudaCpuAndWithEmulation) {
  for (const char* name : {"mut_cast_bf16", "mut_cast_bf16_cpu", "mut_cast_bf16_emulate"}) {
    Analysis a;
    auto fs_ = run_rule(fixture(name), "elided-low-precision-cast", a);
    ASSERT_EQ(fs_.size(), 1u) << name;
    const Finding* f = fs_[0];
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->evidence["claim"], "removed-from-graph") << name;
    EXPECT_EQ(f->evidence["to"], "bf16");
    std::set<std::string> ops;
    for (auto& n : f->evidence["line_nodes"]) {
      ops.insert(n["op"]);
      EXPECT_EQ(n["dtype"], "f32");
    }
    EXPECT_EQ(ops, (std::set<std::string>{"add", "convert_element_type", "sum"})) << name;
    EXPECT_FALSE(f->evidence["kernel"].get<std::string>().empty()) << name;  // the fused add+sum kernel
    ASSERT_FALSE(f->related.empty());
    EXPECT_NE(f->related[0].loc.file.find("mutation.py"), std::string::npos);
    EXPECT_EQ(f->related[0].loc.line, 40);
    EXPECT_NE(line_at(f->location).find("torch.ops.aten.add.Tensor"), std::string::npos) << line_at(f->location);
  }
}

// The twin without the round trip, (a + b).sum(-1): eager-vs-inductor 3.8e-5, no cast to report.
TEST(ElidedLowPrecisionCast, CastBf16SafeTwinIsClean) {
  Analysis a;
  EXPECT_TRUE(run_rule(fixture("mut_cast_bf16_safe"), "elided-low-precision-cast", a).empty());
}

// Derived from s1_cuda model__1: the user line of the sqrt/div/add nodes is edited to contain the
// round trip `.to(torch.bfloat16).float()`, which is what the pointless_convert pass leaves: nodes
// of that line, all f32, with no bf16 input.
TEST(ElidedLowPrecisionCast, DerivedRoundTripRemovedFromTheGraph) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "fx_graph_readable.py", "code: denom = (v.sqrt() /",
                           "code: denom = (v.sqrt().to(torch.bfloat16).float() /");
  Analysis a;
  auto fs_ = run_rule(dir, "elided-low-precision-cast", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["claim"], "removed-from-graph");
  EXPECT_EQ(fs_[0]->evidence["to"], "bf16");
  EXPECT_EQ(fs_[0]->evidence["line_nodes"].size(), 3u);
  EXPECT_EQ(fs_[0]->related[0].loc.line, 14);
}
