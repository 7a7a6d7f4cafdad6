// rule reduced-precision-scan on the real captures: the positives of issue 2 and the negatives.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
std::vector<const Finding*> scan_findings(const std::string& fixture_name, Analysis& a) {
  run_analysis({fixture(fixture_name)}, a, {"reduced-precision-scan"});
  return findings_of(a, "reduced-precision-scan");
}
const Finding* in_graph(const std::vector<const Finding*>& fs, const std::string& kind) {
  for (auto* f : fs)
    if (f->evidence.value("graph_kind", "") == kind) return f;
  return nullptr;
}
}  // namespace

TEST(ReducedPrecisionScan, S2CudaForwardAndBackward) {
  Analysis a;
  auto fs = scan_findings("s2_cuda", a);
  ASSERT_EQ(fs.size(), 2u);
  for (const char* kind : {"forward", "backward"}) {
    const Finding* f = in_graph(fs, kind);
    ASSERT_NE(f, nullptr) << kind;
    EXPECT_EQ(f->severity, Severity::Warning);
    EXPECT_EQ(f->evidence["claim"], "eager-compiled-divergence");
    EXPECT_EQ(f->evidence["scan_length"], 15);
    EXPECT_EQ(f->evidence["user_op"], "torch.cumulative_trapezoid");
    ASSERT_EQ(f->evidence["elided_roundings"].size(), 1u);
    EXPECT_EQ(f->evidence["elided_roundings"][0]["op"], "add");
    EXPECT_EQ(f->evidence["elided_roundings"][0]["dtype"], "bf16");
    // At the scan kernel's tl.associative_scan line, with seed2.py:13 as user source.
    std::string line;
    std::ifstream in(f->location.file);
    for (int i = 0; i < f->location.line && std::getline(in, line); ++i) {
    }
    EXPECT_NE(line.find("tl.associative_scan"), std::string::npos) << kind << ": " << line;
    ASSERT_FALSE(f->related.empty());
    EXPECT_NE(f->related[0].loc.file.find("seed2.py"), std::string::npos);
    EXPECT_EQ(f->related[0].loc.line, 13);
    EXPECT_NE(f->fix.find("emulate_precision_casts"), std::string::npos);
    EXPECT_NE(message_and_notes(*f).find("n*u*sum|x|"), std::string::npos);
  }
  EXPECT_NE(in_graph(fs, "forward")->fingerprint, in_graph(fs, "backward")->fingerprint);
}

TEST(ReducedPrecisionScan, S2CpuFallbackScanIsFlaggedAtTheFallbackCall) {
  Analysis a;
  auto fs = scan_findings("s2_cpu", a);
  const Finding* f = in_graph(fs, "forward");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->evidence["fallback"].get<bool>());
  EXPECT_EQ(f->evidence["kernel"], "torch.ops.aten.cumsum.default");
  EXPECT_EQ(f->evidence["scan_length"], 15);
  EXPECT_EQ(f->evidence["elided_roundings"][0]["node"], "add");
  EXPECT_EQ(f->related[0].loc.line, 13);
}

TEST(ReducedPrecisionScan, PrecCumsumBf16StoredInBf16) {
  Analysis a;
  auto fs = scan_findings("prec_cumsum_bf16", a);
  const Finding* f = in_graph(fs, "forward");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->evidence["claim"], "low-precision-scan");
  EXPECT_EQ(f->evidence["storage_dtype"], "bf16");
  EXPECT_EQ(f->evidence["scan_length"], 4096);
  EXPECT_NEAR(f->evidence["bound_worst_case_rel"].get<double>(), 4096.0 / 256.0, 1e-9);
}

TEST(ReducedPrecisionScan, EmulatedRoundingIsAtMostANote) {
  Analysis a;
  auto fs = scan_findings("s2_cuda_emulate", a);
  for (auto* f : fs) {
    EXPECT_EQ(f->severity, Severity::Note);
    EXPECT_NE(f->evidence["claim"], "eager-compiled-divergence");
    EXPECT_TRUE(f->evidence["elided_roundings"].empty());
  }
}

TEST(ReducedPrecisionScan, NoFindingOnCleanAndFullPrecisionCaptures) {
  for (const char* name : {"prec_cumsum_fp32", "prec_softmax_bf16", "clean_resnet", "clean_compiled_adam", "s1_cuda",
                           "s1_cuda_capture"}) {
    Analysis a;
    EXPECT_TRUE(scan_findings(name, a).empty()) << name;
  }
}

// The forward of cumsum(x_bf16, dtype=float32) accumulates and stores in f32: no finding there.
// Its backward is another matter: autograd casts the f32 gradient to bf16 and runs a bf16
// cumsum of length 4096 (the capture's own stdout: grad eager-vs-fp64 3.1e+01), and the fused
// kernel skips that bf16 rounding. The rule reports the backward only.
TEST(ReducedPrecisionScan, Fp32AccumulationForwardIsClean) {
  Analysis a;
  auto fs = scan_findings("prec_cumsum_bf16_fp32acc", a);
  EXPECT_EQ(in_graph(fs, "forward"), nullptr);
  const Finding* b = in_graph(fs, "backward");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->evidence["storage_dtype"], "bf16");
  EXPECT_EQ(b->evidence["scan_length"], 4096);
}
