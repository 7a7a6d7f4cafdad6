// The Clang reader of C++ wrappers (cpp_wrapper=True), on the real captures fixtures/*_cppwrap
// (made with the project's capture tool on an H200, torch 2.11). Compared with the Python-wrapper
// captures of the same programs (s1_cpu, s2_cpu, s2_cuda): the wrapper model must agree.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/pipeline.h"

namespace fs = std::filesystem;
using namespace ilint;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool have(const std::string& capture) { return fs::exists(fs::path(ILINT_FIXTURES_DIR) / capture); }

#define REQUIRE_CAPTURE(name) \
  if (!have(name)) GTEST_SKIP() << "fixture " << name << " not in fixtures/ yet (made on the tools branch)"

// Analysis holds a DiagSink (with a mutex): not movable, so it lives on the heap.
std::unique_ptr<Analysis> analyze_capture(const std::string& capture) {
  install_optional_readers();
  AnalyzeOptions o;
  o.paths = {(fs::path(ILINT_FIXTURES_DIR) / capture).string()};
  auto a = std::make_unique<Analysis>();
  analyze(o, *a);
  return a;
}

const Compile* compile_named(const Analysis& a, const std::string& prefix) {
  for (auto& c : a.program.compiles)
    if (c.id.rfind(prefix, 0) == 0) return &c;
  return nullptr;
}

std::vector<std::string> launch_names(const Compile& c) {
  std::vector<std::string> out;
  for (auto& l : c.launches) out.push_back(l.kernel);
  return out;
}

}  // namespace

TEST(ClangWrapper, EveryRealCppWrapperParses) {
  size_t wrappers = 0, kernels = 0;
  for (const char* capture : {"s1_cpu_cppwrap", "s1_cuda_cppwrap", "s2_cpu_cppwrap", "s2_cuda_cppwrap"}) {
    if (!have(capture)) continue;
    for (auto& e : fs::recursive_directory_iterator(fs::path(ILINT_FIXTURES_DIR) / capture)) {
      if (e.path().filename() != "output_code.py") continue;
      auto srcs = find_embedded_cpp_sources(read_text(e.path()));
      for (auto& s : srcs) {
        if (s.name != "cpp_wrapper_src") continue;
        ++wrappers;
        Compile c;
        c.id = e.path().parent_path().filename().string();
        DiagSink diags;
        EXPECT_TRUE(read_cpp_wrapper_clang(c, s.source, s.first_line, e.path().string(), diags)) << e.path();
        for (auto& d : diags.sorted()) ADD_FAILURE() << d.code << ": " << d.message << " at " << d.loc.line;
        EXPECT_FALSE(c.launches.empty()) << e.path();
        for (auto& k : c.kernels) {
          ++kernels;
          EXPECT_TRUE(k.parse_errors.empty()) << k.name;
        }
      }
    }
  }
  if (wrappers == 0) GTEST_SKIP() << "no *_cppwrap fixture in fixtures/ yet";
  EXPECT_EQ(wrappers, 12u);  // s1: 4 compiles each on cpu and cuda; s2: forward + backward each
  EXPECT_EQ(kernels, 8u);    // the CPU wrappers define their C++ kernels inline
}

TEST(ClangWrapper, S2CpuForwardWrapperModelMatchesPythonWrapper) {
  REQUIRE_CAPTURE("s2_cpu_cppwrap");
  auto cwp = analyze_capture("s2_cpu_cppwrap");
  auto pyp = analyze_capture("s2_cpu");
  const Compile* c = compile_named(*cwp, "model__0_forward");
  const Compile* p = compile_named(*pyp, "model__0_forward");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(c->cpp_wrapper);
  EXPECT_FALSE(p->cpp_wrapper);
  for (auto& d : cwp->diags.sorted()) {
    EXPECT_NE(d.code, "cpp-wrapper-parse") << d.message;
    EXPECT_NE(d.code, "cpp-kernel-parse") << d.message;
  }
  // Kernels come out of the wrapper string with the same AST facts as from cpp_pybinding.
  const Kernel* k = c->kernel("cpp_fused_add_expand_mul_slice_sub_view_0");
  const Kernel* kp = p->kernel("cpp_fused_add_expand_mul_slice_sub_view_0");
  ASSERT_NE(k, nullptr);
  ASSERT_NE(kp, nullptr);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_EQ(k->params[0].name, "in_ptr0");
  EXPECT_EQ(k->params[0].dtype, DType::BF16);
  EXPECT_TRUE(k->params[0].is_const);
  EXPECT_EQ(k->loads.size(), kp->loads.size());
  EXPECT_EQ(k->casts.size(), kp->casts.size());
  EXPECT_EQ(k->stmts.size(), kp->stmts.size());
  // Same launches, in the same order, with the same buffers, as the Python wrapper, except the
  // fallback's name: aten.cumsum (from the AOTI shim) instead of torch.ops.aten.cumsum.default.
  ASSERT_EQ(launch_names(*c),
            (std::vector<std::string>{"cpp_fused_add_expand_mul_slice_sub_view_0", "aten.cumsum",
                                      "cpp_fused_div_1"}));
  ASSERT_EQ(p->launches.size(), 3u);
  EXPECT_EQ(c->launches[0].args, p->launches[0].args);  // (primals_2, primals_1, buf0)
  EXPECT_TRUE(c->launches[1].is_fallback);
  EXPECT_EQ(c->launches[1].shim, "aoti_torch_cpu_cumsum");
  EXPECT_EQ(c->launches[1].args, (std::vector<IString>{"buf0", "3L", "nullptr"}));
  EXPECT_EQ(c->launches[1].results, (std::vector<IString>{"buf2"}));
  EXPECT_EQ(c->launches[1].source_nodes, p->launches[1].source_nodes);
  EXPECT_EQ(c->launches[1].provenance_handle, "aoti_torch_cpu_cumsum:2");
  EXPECT_EQ(c->launches[2].args, p->launches[2].args);  // (buf3)
  // Buffers: buf0 as allocated by aoti_torch_empty_strided; buf3 reuses buf2.
  const Buffer* b0 = c->buffer("buf0");
  ASSERT_NE(b0, nullptr);
  EXPECT_EQ(b0->meta.dtype, DType::F32);
  EXPECT_EQ(b0->meta.device, "cpu");
  EXPECT_EQ(b0->meta.shape, (std::vector<IString>{"8L", "1L", "5L", "15L"}));
  EXPECT_EQ(b0->meta.stride, (std::vector<IString>{"75L", "600L", "15L", "1L"}));
  const Buffer* b3 = c->buffer("buf3");
  ASSERT_NE(b3, nullptr);
  EXPECT_EQ(b3->alias_of, "buf2");
  EXPECT_TRUE(b3->is_reuse);
  EXPECT_EQ(c->outputs, p->outputs);  // buf3, primals_1, primals_2
  ASSERT_EQ(c->inputs.size(), 2u);
  EXPECT_EQ(c->inputs[0].name, "primals_1");
  EXPECT_EQ(c->inputs[1].name, "primals_2");
  EXPECT_EQ(c->inputs[1].meta.dtype, DType::BF16);  // from get_args, as in the Python wrapper
  // The in-place division writes buf3 through in_out_ptr0.
  bool in_out = false;
  for (auto& m : c->mutations) in_out |= m.target == "buf3" && m.via == "in_out_ptr" && m.kernel == "cpp_fused_div_1";
  EXPECT_TRUE(in_out);
  // Locations are output_code.py lines.
  std::vector<std::string> lines;
  {
    std::stringstream ss(read_text(c->files.output_code.str()));
    for (std::string l; std::getline(ss, l);) lines.push_back(l);
  }
  ASSERT_GT(c->launches[1].loc.line, 0);
  EXPECT_NE(lines[c->launches[1].loc.line - 1].find("aoti_torch_cpu_cumsum(buf0"), std::string::npos);
  EXPECT_EQ(lines[c->launches[1].loc.line - 1].find("AOTI_TORCH_ERROR_CODE_CHECK") + 1,
            static_cast<size_t>(c->launches[1].loc.column));
  ASSERT_GT(b0->alloc_loc.line, 0);
  EXPECT_NE(lines[b0->alloc_loc.line - 1].find("aoti_torch_empty_strided"), std::string::npos);
  ASSERT_FALSE(k->loads.empty());
  EXPECT_NE(lines[k->loads[0].loc.line - 1].find("loadu(in_ptr0"), std::string::npos);
}

TEST(ClangWrapper, S2CpuBackwardWrapperHasViewOutputAndAccumulator) {
  REQUIRE_CAPTURE("s2_cpu_cppwrap");
  auto cwp = analyze_capture("s2_cpu_cppwrap");
  const Compile* c = compile_named(*cwp, "model__0_backward");
  ASSERT_NE(c, nullptr);
  const Kernel* k = c->kernel("cpp_fused__to_copy_add_expand_flip_mul_neg_slice_slice_backward_sub_sum_view_1");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->reductions.size(), 1u);
  EXPECT_EQ(k->reductions[0].accumulator_dtype, DType::F32);
  EXPECT_EQ(k->reductions[0].length, 40);
  const Buffer* v = c->buffer("var_0");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->alias_of, "buf4");  // reinterpret_tensor_wrapper(buf4, 1, {16}, {1}, 0)
  EXPECT_FALSE(v->is_reuse);
  EXPECT_EQ(v->meta.shape, (std::vector<IString>{"16L"}));
  EXPECT_EQ(c->outputs, (std::vector<std::string>{"var_0", "buf3"}));
  EXPECT_EQ(c->inputs.size(), 3u);
}

TEST(ClangWrapper, S2CudaWrapperLaunchesTritonKernelThroughGeneratedLauncher) {
  REQUIRE_CAPTURE("s2_cuda_cppwrap");
  auto cwp = analyze_capture("s2_cuda_cppwrap");
  const Compile* c = compile_named(*cwp, "model__0_forward");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->device_type, "cuda");
  ASSERT_EQ(c->launches.size(), 1u);
  const KernelLaunch& l = c->launches[0];
  EXPECT_EQ(l.kernel, "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0");
  EXPECT_FALSE(l.is_fallback);
  EXPECT_EQ(l.args, (std::vector<IString>{"buf1", "primals_2", "primals_1", "40L", "15L"}));
  EXPECT_EQ(l.kwargs.at("stream"), "stream0");
  EXPECT_EQ(l.kwargs.at("device_idx"), "0");
  EXPECT_EQ(l.provenance_handle, "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0:1");
  const Buffer* b1 = c->buffer("buf1");
  ASSERT_NE(b1, nullptr);
  EXPECT_EQ(b1->alias_of, "buf0");
  EXPECT_TRUE(b1->is_reuse);
  EXPECT_EQ(b1->meta.stride, (std::vector<IString>{"75L", "75L", "15L", "1L"}));
  bool in_out = false;
  for (auto& m : c->mutations) in_out |= m.target == "buf1" && m.via == "in_out_ptr";
  EXPECT_TRUE(in_out);
  EXPECT_EQ(c->outputs, (std::vector<std::string>{"buf1", "primals_1", "primals_2"}));
}

TEST(ClangWrapper, S1CpuWrapperPassesTheSameInputAsReadAndWrittenPointer) {
  REQUIRE_CAPTURE("s1_cpu_cppwrap");
  auto cwp = analyze_capture("s1_cpu_cppwrap");
  auto pyp = analyze_capture("s1_cpu");
  const Compile* c = compile_named(*cwp, "model__0_inference");
  const Compile* p = compile_named(*pyp, "model__0_inference");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(c->launches.size(), 1u);
  ASSERT_EQ(p->launches.size(), 1u);
  // cpp_fused_add_copy__mul_0(arg0_1, arg1_1, arg2_1, arg3_1, arg0_1, arg1_1, arg3_1): the
  // aliasing pair (in_ptr0, out_ptr1) both bound to arg0_1, in both wrappers.
  EXPECT_EQ(c->launches[0].args, p->launches[0].args);
  ASSERT_EQ(c->launches[0].args.size(), 7u);
  EXPECT_EQ(c->launches[0].args[0], "arg0_1");
  EXPECT_EQ(c->launches[0].args[4], "arg0_1");
  const Kernel* k = c->kernel("cpp_fused_add_copy__mul_0");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->params[0].name, "in_ptr0");
  EXPECT_TRUE(k->params[0].is_const);
  EXPECT_EQ(k->params[4].name, "out_ptr1");
  EXPECT_FALSE(k->params[4].is_const);
  EXPECT_FALSE(k->params[4].is_restrict);  // aliasing pointers are not __restrict__
  bool written = false;
  for (auto& m : c->mutations) written |= m.target == "arg0_1" && m.via == "mutated_arg";
  EXPECT_TRUE(written);
}

TEST(ClangWrapper, Seed2FindingIsTheSameWithCppWrapper) {
  REQUIRE_CAPTURE("s2_cpu_cppwrap");
  auto cwp = analyze_capture("s2_cpu_cppwrap");
  auto pyp = analyze_capture("s2_cpu");
  auto pick = [](const Analysis& a) {
    std::vector<const Finding*> out;
    for (auto& f : a.findings)
      if (f.rule == "reduced-precision-scan") out.push_back(&f);
    return out;
  };
  auto fc = pick(*cwp), fp = pick(*pyp);
  ASSERT_FALSE(fp.empty());
  ASSERT_EQ(fc.size(), fp.size());
  ASSERT_FALSE(fc[0]->related.empty());
  ASSERT_FALSE(fp[0]->related.empty());
  EXPECT_EQ(fc[0]->related[0].loc.line, fp[0]->related[0].loc.line);
  EXPECT_EQ(fc[0]->fingerprint, fp[0]->fingerprint);
}

// torch 2.11 writes no "# AOT ID:" header on cpp_wrapper=True modules: that is their layout, not
// another torch version, so no version-mismatch warning (a Python wrapper without the header
// still gets one: BadInput.OtherTorchVersionIsNamed).
TEST(ClangWrapper, CppWrapperModulesGetNoVersionWarning) {
  for (const char* capture : {"s1_cpu_cppwrap", "s1_cuda_cppwrap", "s2_cpu_cppwrap", "s2_cuda_cppwrap"}) {
    REQUIRE_CAPTURE(capture);
    auto a = analyze_capture(capture);
    size_t wrappers = 0;
    for (auto& c : a->program.compiles) wrappers += c.cpp_wrapper;
    EXPECT_GT(wrappers, 0u) << capture;
    for (auto& d : a->diags.sorted()) EXPECT_NE(d.code, "version-mismatch") << capture << ": " << d.message;
  }
}

// fuzz_cpp_wrapper input 082e7aef had lone CRs: Clang ends a line at each, and so does the
// analyzer's Python tokenizer, so a wrapper written with "\r" line ends must give the launches
// and buffers the same lines as with "\n" (the harness had counted only "\n" and reported them
// outside the text).
TEST(ClangWrapper, LoneCarriageReturnsEndLinesLikeNewlines) {
  REQUIRE_CAPTURE("s2_cpu_cppwrap");
  fs::path out;
  for (auto& e : fs::recursive_directory_iterator(fs::path(ILINT_FIXTURES_DIR) / "s2_cpu_cppwrap"))
    if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos) out = e.path();
  ASSERT_FALSE(out.empty());
  for (auto& s : find_embedded_cpp_sources(read_text(out))) {
    if (s.name != "cpp_wrapper_src") continue;
    std::string cr = s.source;
    for (char& ch : cr)
      if (ch == '\n') ch = '\r';
    Compile lf, crc;
    lf.id = crc.id = "model__0_forward_0";
    DiagSink d1, d2;
    ASSERT_TRUE(read_cpp_wrapper_clang(lf, s.source, s.first_line, out.string(), d1));
    bool ok = read_cpp_wrapper_clang(crc, cr, s.first_line, out.string(), d2);
    for (auto& d : d2.sorted()) ADD_FAILURE() << d.code << ": " << d.message << " at " << d.loc.line;
    ASSERT_TRUE(ok);
    ASSERT_FALSE(lf.launches.empty());
    ASSERT_EQ(lf.launches.size(), crc.launches.size());
    for (size_t i = 0; i < lf.launches.size(); ++i) EXPECT_EQ(lf.launches[i].loc.line, crc.launches[i].loc.line) << i;
    ASSERT_EQ(lf.buffers.size(), crc.buffers.size());
    for (size_t i = 0; i < lf.buffers.size(); ++i) EXPECT_EQ(lf.buffers[i].alloc_loc.line, crc.buffers[i].alloc_loc.line);
  }
}
