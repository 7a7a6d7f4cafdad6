// Rule low-precision-accumulator: negatives on real captures whose accumulators are fp32, and a
// positive derived from a real C++ kernel where only the accumulator's declared type is edited
// (no real capture holds a bf16/fp16 accumulator; see rules/low-precision-accumulator.md).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/pipeline.h"
#include "analyzer/rule.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace ilint;
using ilint::testing::expect_headline_with_notes;
using ilint::testing::message_and_notes;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path output_code(const std::string& capture, const std::string& prefix) {
  fs::path root = fs::path(ILINT_FIXTURES_DIR) / capture;
  std::vector<fs::path> found;
  for (auto& e : fs::recursive_directory_iterator(root))
    if (e.path().filename() == "output_code.py" &&
        e.path().parent_path().filename().string().rfind(prefix, 0) == 0)
      found.push_back(e.path());
  std::sort(found.begin(), found.end());
  return found.empty() ? fs::path() : found[0];
}

std::vector<Finding> run_rule(const Program& p) {
  register_all_rules();
  auto rule = RuleRegistry::instance().create("low-precision-accumulator");
  EXPECT_NE(rule, nullptr);
  std::vector<Finding> out;
  if (rule) rule->check(p, out);
  return out;
}

// The compile of one output_code.py with its C++ kernels read by Clang.
Compile compile_of(const fs::path& file, DiagSink& diags, const std::string& replace_from = "",
                   const std::string& replace_to = "", int replacements = 0) {
  Compile c;
  c.id = file.parent_path().filename().string();
  for (auto& s : find_embedded_cpp_sources(read_text(file))) {
    if (s.name == "cpp_wrapper_src") continue;
    Kernel k;
    k.name = s.name;
    k.backend = KernelBackend::Cpp;
    k.source = s.source;
    k.source_first_line = s.first_line;
    k.def_loc = SourceLoc{file.string(), s.def_line, 1};
    for (int i = 0; i < replacements; ++i) {
      size_t at = k.source.find(replace_from);
      if (at == std::string::npos) break;
      k.source.replace(at, replace_from.size(), replace_to);
    }
    read_cpp_kernel_clang(k, file.string(), diags);
    c.add_kernel(std::move(k));
  }
  return c;
}

const char* const kBackwardSum = "cpp_fused__to_copy_add_expand_flip_mul_neg_slice_slice_backward_sub_sum_view_1";

}  // namespace

TEST(LowPrecisionAccumulator, NoFindingOnRealCppKernelsWithFp32Accumulators) {
  Program p;
  DiagSink diags;
  size_t reductions = 0;
  for (const char* cap : {"s1_cpu", "s2_cpu"})
    for (auto& e : fs::recursive_directory_iterator(fs::path(ILINT_FIXTURES_DIR) / cap))
      if (e.path().filename() == "output_code.py") {
        p.compiles.push_back(compile_of(e.path(), diags));
        for (auto& k : p.compiles.back().kernels) reductions += k.reductions.size();
      }
  ASSERT_GE(reductions, 1u);  // s2_cpu's backward sum: the negative is not vacuous
  EXPECT_TRUE(run_rule(p).empty());
}

TEST(LowPrecisionAccumulator, DerivedBf16AccumulatorFromRealKernel) {
  fs::path file = output_code("s2_cpu", "model__0_backward");
  ASSERT_FALSE(file.empty());
  DiagSink diags;
  Program p;
  // The only edit: the declared element type of tmp_acc0 / tmp_acc0_vec (float -> at::BFloat16).
  Compile c = compile_of(file, diags, "at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);",
                         "at::vec::Vectorized<at::BFloat16> tmp_acc0_vec = at::vec::Vectorized<at::BFloat16>(0);", 1);
  const Kernel* k = c.kernel(kBackwardSum);
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->parse_errors.empty()) << k->parse_errors.front();
  ASSERT_EQ(k->reductions.size(), 1u);
  EXPECT_EQ(k->reductions[0].accumulator_dtype, DType::BF16);
  p.compiles.push_back(c);
  auto fs_ = run_rule(p);
  ASSERT_EQ(fs_.size(), 1u);
  const Finding& f = fs_[0];
  EXPECT_EQ(f.kernel, kBackwardSum);
  EXPECT_EQ(f.severity, Severity::Warning);
  expect_headline_with_notes(f);
  EXPECT_NE(f.message.find("accumulates in bf16"), std::string::npos) << f.message;
  EXPECT_NE(message_and_notes(f).find("n = 40"), std::string::npos) << message_and_notes(f);
  EXPECT_NE(message_and_notes(f).find("40 * 2^-8 = 0.156"), std::string::npos) << message_and_notes(f);
  EXPECT_EQ(f.evidence["length"], 40);
  EXPECT_DOUBLE_EQ(f.evidence["error_bound"].get<double>(), 40.0 / 256.0);
  EXPECT_EQ(f.evidence["backend"], "cpp");
  EXPECT_EQ(f.evidence["combine"], "add");
  EXPECT_EQ(f.evidence["is_scan"], false);
  // Points at the edited declaration in output_code.py.
  std::stringstream ss(read_text(file));
  std::string line;
  for (int i = 0; i < f.location.line && std::getline(ss, line);) ++i;
  EXPECT_EQ(f.location.file, file.string());
  EXPECT_NE(line.find("tmp_acc0_vec = at::vec::Vectorized<float>(0)"), std::string::npos) << line;
  EXPECT_FALSE(f.fingerprint_key.empty());
}

TEST(LowPrecisionAccumulator, DerivedFp16ScalarAccumulatorUsesFp16Roundoff) {
  fs::path file = output_code("s2_cpu", "model__0_backward");
  DiagSink diags;
  Program p;
  p.compiles.push_back(compile_of(file, diags,
                                  "at::vec::Vectorized<float> tmp_acc0_vec = at::vec::Vectorized<float>(0);",
                                  "at::vec::Vectorized<at::Half> tmp_acc0_vec = at::vec::Vectorized<at::Half>(0);", 1));
  auto fs_ = run_rule(p);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_NE(fs_[0].message.find("f16"), std::string::npos);
  expect_headline_with_notes(fs_[0]);
  EXPECT_DOUBLE_EQ(fs_[0].evidence["error_bound"].get<double>(), 40.0 / 2048.0);
}

TEST(LowPrecisionAccumulator, TritonComputeDtypeIsUsedWhenNoAccumulatorType) {
  // The model as the Triton path fills it (compute_dtype only). Not PyTorch output: a model fact.
  Program p;
  Compile c;
  c.id = "model";
  Kernel k;
  k.name = "triton_per_fused_sum_0";
  k.backend = KernelBackend::Triton;
  ReduceOp r;
  r.combine = "add";
  r.compute_dtype = DType::BF16;
  r.length_expr = "r0_numel";
  k.reductions.push_back(r);
  ReduceOp ok = r;
  ok.compute_dtype = DType::F32;
  k.reductions.push_back(ok);
  c.add_kernel(k);
  p.compiles.push_back(c);
  auto fs_ = run_rule(p);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_TRUE(fs_[0].evidence["error_bound"].is_null());
  EXPECT_NE(message_and_notes(fs_[0]).find("n = r0_numel"), std::string::npos) << message_and_notes(fs_[0]);
  expect_headline_with_notes(fs_[0]);
}

// Through the whole pipeline (ingest, output_code.py parser, Triton/C++ readers): the real
// captures whose reductions run in fp32 give no finding. s2_cpu (C++ sum) and prec_softmax_bf16
// (Triton max/sum) must have reductions in the model, so their negative is not vacuous;
// clean_resnet has no Inductor reduction kernel at all (its max-pool is pointwise `maximum`).
struct PipelineCase {
  const char* capture;
  bool has_reductions;
};
class LowPrecisionAccumulatorPipeline : public ::testing::TestWithParam<PipelineCase> {};

TEST_P(LowPrecisionAccumulatorPipeline, NoFinding) {
#ifdef ILINT_HAVE_CLANG
  install_optional_readers();
#endif
  AnalyzeOptions o;
  o.paths = {(fs::path(ILINT_FIXTURES_DIR) / GetParam().capture).string()};
  o.only_rules = {"low-precision-accumulator"};
  Analysis a;
  analyze(o, a);
  ASSERT_GT(a.program.compiles.size(), 0u);
  size_t reductions = 0;
  for (auto& c : a.program.compiles)
    for (auto& k : c.kernels) reductions += k.reductions.size();
  if (GetParam().has_reductions) EXPECT_GT(reductions, 0u) << GetParam().capture;
  for (auto& f : a.findings) EXPECT_NE(f.rule, "low-precision-accumulator") << f.message;
}

INSTANTIATE_TEST_SUITE_P(RealCaptures, LowPrecisionAccumulatorPipeline,
                         ::testing::Values(PipelineCase{"s2_cpu", true}, PipelineCase{"prec_softmax_bf16", true},
                                           PipelineCase{"clean_resnet", false}),
                         // Named by capture: the default name prints the struct's bytes (a pointer),
                         // which differs between ctest's discovery run and the test run.
                         [](const ::testing::TestParamInfo<PipelineCase>& i) { return std::string(i.param.capture); });
