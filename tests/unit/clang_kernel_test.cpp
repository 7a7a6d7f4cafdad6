// The Clang reader of C++ kernels, on the real CPU captures in fixtures/ (s1_cpu, s2_cpu).
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/cpp/clang/clang_reader.h"

namespace fs = std::filesystem;
using namespace ilint;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& t) {
  std::vector<std::string> out;
  std::stringstream ss(t);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

// Every output_code.py under fixtures/<capture>/, sorted.
std::vector<fs::path> output_codes(const std::string& capture) {
  std::vector<fs::path> out;
  fs::path root = fs::path(ILINT_FIXTURES_DIR) / capture;
  if (!fs::exists(root)) return out;
  for (auto& e : fs::recursive_directory_iterator(root))
    if (e.path().filename() == "output_code.py") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The compile folder whose name starts with `prefix` ("model__0_forward").
fs::path output_code(const std::string& capture, const std::string& prefix) {
  for (auto& p : output_codes(capture))
    if (p.parent_path().filename().string().rfind(prefix, 0) == 0) return p;
  return {};
}

Kernel kernel_from(const EmbeddedCppSource& s, const std::string& file) {
  Kernel k;
  k.name = s.name;
  k.backend = KernelBackend::Cpp;
  k.source = s.source;
  k.source_first_line = s.first_line;
  k.def_loc = SourceLoc{file, s.def_line, 1};
  return k;
}

// Reads every C++ kernel of one output_code.py with the Clang reader.
std::vector<Kernel> read_kernels(const fs::path& file, DiagSink& diags) {
  std::vector<Kernel> ks;
  for (auto& s : find_embedded_cpp_sources(read_text(file)))
    if (s.name != "cpp_wrapper_src") ks.push_back(kernel_from(s, file.string()));
  for (auto& k : ks) read_cpp_kernel_clang(k, file.string(), diags);
  return ks;
}

const Kernel* find_kernel(const std::vector<Kernel>& ks, const std::string& name) {
  for (auto& k : ks)
    if (k.name == name) return &k;
  return nullptr;
}

const KernelParam* find_param(const Kernel& k, const std::string& name) {
  for (auto& p : k.params)
    if (p.name == name) return &p;
  return nullptr;
}

const KernelStmt* find_stmt(const Kernel& k, const std::string& var) {
  for (auto& s : k.stmts)
    if (s.var == var) return &s;
  return nullptr;
}

}  // namespace

TEST(ClangKernel, EveryRealCpuKernelParsesWithoutError) {
  // Every C++ kernel of every capture in fixtures/, as cpp_pybinding strings (the C++ wrapper
  // captures are covered by clang_wrapper_test.cpp).
  size_t kernels = 0, in_seed_captures = 0;
  std::set<std::string> captures;
  for (auto& dir : fs::directory_iterator(ILINT_FIXTURES_DIR)) {
    if (!dir.is_directory()) continue;
    std::string capture = dir.path().filename().string();
    for (auto& file : output_codes(capture)) {
      DiagSink diags;
      auto ks = read_kernels(file, diags);
      for (auto& k : ks) {
        ++kernels;
        captures.insert(capture);
        if (capture == "s1_cpu" || capture == "s2_cpu") ++in_seed_captures;
        EXPECT_TRUE(k.parse_errors.empty()) << k.name << " in " << file << ": " << k.parse_errors.front();
        EXPECT_FALSE(k.params.empty()) << k.name;
        EXPECT_TRUE(k.kind == KernelKind::Pointwise || k.kind == KernelKind::Reduction) << k.name;
      }
      EXPECT_EQ(diags.size(), 0u) << file;
    }
  }
  // s1_cpu: 4 compiles with one kernel each; s2_cpu: forward 2 + backward 2.
  EXPECT_EQ(in_seed_captures, 8u);
  EXPECT_GE(captures.size(), 2u);
  std::cout << "[ info ] " << kernels << " C++ kernels in " << captures.size() << " captures parsed\n";
}

TEST(ClangKernel, ParamsOfS2CpuForwardKernel) {
  fs::path file = output_code("s2_cpu", "model__0_forward");
  ASSERT_FALSE(file.empty());
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  const Kernel* k = find_kernel(ks, "cpp_fused_add_expand_mul_slice_sub_view_0");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->params.size(), 3u);
  const KernelParam* in0 = find_param(*k, "in_ptr0");
  ASSERT_NE(in0, nullptr);
  EXPECT_EQ(in0->dtype, DType::BF16);
  EXPECT_TRUE(in0->is_pointer);
  EXPECT_TRUE(in0->is_const);
  EXPECT_FALSE(in0->is_restrict);
  EXPECT_EQ(in0->type_text, "const at::BFloat16*");
  const KernelParam* out0 = find_param(*k, "out_ptr0");
  ASSERT_NE(out0, nullptr);
  EXPECT_EQ(out0->dtype, DType::F32);
  EXPECT_FALSE(out0->is_const);
  EXPECT_EQ(k->kind, KernelKind::Pointwise);
  EXPECT_TRUE(k->reductions.empty());
}

TEST(ClangKernel, LoadsCastsAndStmtsOfS2CpuForwardKernelMapToOutputCodeLines) {
  fs::path file = output_code("s2_cpu", "model__0_forward");
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  const Kernel* k = find_kernel(ks, "cpp_fused_add_expand_mul_slice_sub_view_0");
  ASSERT_NE(k, nullptr);
  auto lines = lines_of(read_text(file));

  // tmp0 = Vectorized<at::BFloat16>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 16L*x0), 15)
  const MemAccess* tmp0 = nullptr;
  for (auto& l : k->loads)
    if (l.var == "tmp0") tmp0 = &l;
  ASSERT_NE(tmp0, nullptr);
  EXPECT_EQ(tmp0->ptr, "in_ptr0");
  EXPECT_EQ(tmp0->index, "x1 + 16L*x0");
  EXPECT_EQ(tmp0->value_dtype, DType::BF16);
  EXPECT_TRUE(tmp0->vectorized);
  EXPECT_EQ(tmp0->loc.file, file.string());
  ASSERT_GT(tmp0->loc.line, 0);
  ASSERT_LE(tmp0->loc.line, static_cast<int>(lines.size()));
  EXPECT_NE(lines[tmp0->loc.line - 1].find("auto tmp0 = at::vec::Vectorized<at::BFloat16>::loadu(in_ptr0"),
            std::string::npos)
      << lines[tmp0->loc.line - 1];
  EXPECT_EQ(k->loads.size(), 4u);

  // tmp1 = at::vec::convert<float>(tmp0): the bf16 value is widened to f32 before the add.
  bool widened = false;
  for (auto& c : k->casts)
    if (c.var == "tmp1" && c.src == "tmp0" && c.to == DType::F32) widened = true;
  EXPECT_TRUE(widened);
  for (auto& c : k->casts) EXPECT_NE(c.to, DType::BF16) << "no rounding back to bf16 in this kernel: " << c.var;

  const KernelStmt* add = find_stmt(*k, "tmp4");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op, "add");
  EXPECT_EQ(add->operands, (std::vector<IString>{"tmp1", "tmp3"}));
  const KernelStmt* paren = find_stmt(*k, "tmp5");
  ASSERT_NE(paren, nullptr);
  EXPECT_EQ(paren->op, "copy");
  EXPECT_EQ(paren->operands, (std::vector<IString>{"tmp4"}));

  ASSERT_EQ(k->stores.size(), 1u);
  EXPECT_EQ(k->stores[0].ptr, "out_ptr0");
  EXPECT_EQ(k->stores[0].var, "tmp9");
  EXPECT_EQ(k->stores[0].value_dtype, DType::F32);
  EXPECT_NE(lines[k->stores[0].loc.line - 1].find("tmp9.store(out_ptr0"), std::string::npos);
}

TEST(ClangKernel, EveryAccessLineNamesItsPointer) {
  for (const char* capture : {"s1_cpu", "s2_cpu"}) {
    for (auto& file : output_codes(capture)) {
      DiagSink diags;
      auto ks = read_kernels(file, diags);
      auto lines = lines_of(read_text(file));
      for (auto& k : ks) {
        for (const auto* v : {&k.loads, &k.stores})
          for (auto& m : *v) {
            ASSERT_GT(m.loc.line, 0) << k.name;
            ASSERT_LE(m.loc.line, static_cast<int>(lines.size()));
            EXPECT_NE(lines[m.loc.line - 1].find(m.ptr), std::string::npos)
                << k.name << " " << m.ptr << " at " << m.loc.line << ": " << lines[m.loc.line - 1];
          }
      }
    }
  }
}

TEST(ClangKernel, AccumulatorOfS2CpuBackwardKernelIsFp32SumOver40Rows) {
  fs::path file = output_code("s2_cpu", "model__0_backward");
  ASSERT_FALSE(file.empty());
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  const Kernel* k = find_kernel(ks, "cpp_fused__to_copy_add_expand_flip_mul_neg_slice_slice_backward_sub_sum_view_1");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->kind, KernelKind::Reduction);
  ASSERT_EQ(k->reductions.size(), 1u);
  const ReduceOp& r = k->reductions[0];
  EXPECT_EQ(r.result_var, "tmp_acc0");
  EXPECT_EQ(r.accumulator_dtype, DType::F32);
  EXPECT_EQ(r.compute_dtype, DType::F32);
  EXPECT_EQ(r.combine, "add");
  EXPECT_EQ(r.input_var, "tmp38");
  EXPECT_EQ(r.length, 40);  // the x1 loop of 40 rows: sum over dims (0, 1, 2) of an (8, 1, 5, 16) tensor
  EXPECT_FALSE(r.is_scan);
  auto lines = lines_of(read_text(file));
  ASSERT_GT(r.loc.line, 0);
  EXPECT_NE(lines[r.loc.line - 1].find("tmp_acc0_vec = at::vec::Vectorized<float>(0)"), std::string::npos)
      << lines[r.loc.line - 1];

  // The accumulator is stored to out_ptr1 after the loop; the bf16 grad is rounded by tmp34.
  bool acc_stored = false;
  for (auto& s : k->stores)
    if (s.ptr == "out_ptr1" && s.var == "tmp_acc0_vec" && s.value_dtype == DType::F32) acc_stored = true;
  EXPECT_TRUE(acc_stored);
  bool rounded = false;
  for (auto& c : k->casts)
    if (c.var == "tmp34" && c.src == "tmp33" && c.to == DType::BF16) rounded = true;
  EXPECT_TRUE(rounded);
  const KernelParam* in2 = find_param(*k, "in_ptr2");
  ASSERT_NE(in2, nullptr);
  EXPECT_EQ(in2->dtype, DType::BF16);
  EXPECT_TRUE(in2->is_const);
  const KernelParam* out0 = find_param(*k, "out_ptr0");
  ASSERT_NE(out0, nullptr);
  EXPECT_EQ(out0->dtype, DType::BF16);
  EXPECT_FALSE(out0->is_const);

  // Masked loads through a lambda and a stack buffer still reach the pointer: in_ptr0 is read
  // into tmpbuf, and the mask-load `tmp5.template loadu<at::BFloat16,1>(in_ptr2 + ...)` is bf16.
  bool tmpbuf_load = false, mask_load = false;
  for (auto& l : k->loads) {
    if (l.ptr == "in_ptr0" && l.var == "tmpbuf" && !l.vectorized) tmpbuf_load = true;
    if (l.ptr == "in_ptr2" && l.var == "tmp8" && l.vectorized && l.value_dtype == DType::BF16) mask_load = true;
  }
  EXPECT_TRUE(tmpbuf_load);
  EXPECT_TRUE(mask_load);
  const KernelStmt* lam = find_stmt(*k, "tmp7");
  ASSERT_NE(lam, nullptr);
  EXPECT_EQ(lam->op, "call:lambda");
  EXPECT_EQ(lam->operands, (std::vector<IString>{"tmpbuf"}));
}

// A kernel of several loop nests declares `tmp_acc0` afresh in each (log_softmax + nll_loss: a max,
// two sums, then a count and a loss sum over the whole batch at the top level). Each declaration
// is its own reduction, fed by the update that C++ scoping binds to it. When reductions were
// keyed by name alone, the later declarations took the first nest's update, and a store of the
// accumulator inside that nest's loop made them scans (and the kernel a scan kernel).
TEST(ClangKernel, EachNestsAccumulatorIsItsOwnReduction) {
  fs::path file = output_code("cpu_vocab_cross_entropy", "model__0_forward");
  ASSERT_FALSE(file.empty());
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  const Kernel* k = find_kernel(ks, "cpp_fused__log_softmax_nll_loss_forward_0");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->parse_errors.empty());
  EXPECT_EQ(k->kind, KernelKind::Reduction);
  std::vector<std::string> got;
  for (const auto& r : k->reductions) {
    EXPECT_FALSE(r.is_scan) << r.result_var << " at line " << r.loc.line;
    got.push_back(r.result_var + " " + r.combine + " of " + r.input_var + " x" + std::to_string(r.length) + " " +
                  dtype_name(r.accumulator_dtype));
  }
  // Per family in name order, then in source order; the rows of 100 classes, then the 64 rows.
  EXPECT_EQ(got, (std::vector<std::string>{"tmp_acc0 max of tmp0 x100 f32", "tmp_acc0 add of tmp4 x100 f32",
                                           "tmp_acc0 add of tmp4 x100 f32", "tmp_acc0 add of tmp6 x64 i64",
                                           "tmp_acc1 max of tmp0 x100 f32", "tmp_acc1 add of tmp26 x64 f32"}));
}

TEST(ClangKernel, InOutPointerIsLoadedAndStored) {
  fs::path file = output_code("s2_cpu", "model__0_forward");
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  const Kernel* k = find_kernel(ks, "cpp_fused_div_1");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->params.size(), 1u);
  EXPECT_EQ(k->params[0].name, "in_out_ptr0");
  EXPECT_FALSE(k->params[0].is_const);
  std::set<std::string> loaded, stored;
  for (auto& l : k->loads) loaded.insert(l.ptr);
  for (auto& s : k->stores) stored.insert(s.ptr);
  EXPECT_EQ(loaded, std::set<std::string>{"in_out_ptr0"});
  EXPECT_EQ(stored, std::set<std::string>{"in_out_ptr0"});
  EXPECT_EQ(k->loads.size(), 2u);   // the full-vector body and the 8-lane tail
  EXPECT_EQ(k->stores.size(), 2u);
  bool two = false;
  for (auto& l : k->literals)
    if (l.var == "tmp1" && l.value == 2.0 && l.text == "2.0") two = true;
  EXPECT_TRUE(two);
}

TEST(ClangKernel, S1CpuOutPointerIsReadModifyWrite) {
  // seed 1 on CPU: the Adam-like update writes exp_avg in place through out_ptr3.
  fs::path file = output_code("s1_cpu", "model__0_inference");
  DiagSink diags;
  auto ks = read_kernels(file, diags);
  ASSERT_EQ(ks.size(), 1u);
  const Kernel& k = ks[0];
  EXPECT_EQ(k.params.size(), 7u);
  bool loads_out3 = false, stores_out3 = false;
  for (auto& l : k.loads) loads_out3 |= l.ptr == "out_ptr3";
  for (auto& s : k.stores) stores_out3 |= s.ptr == "out_ptr3" && s.var == "tmp8";
  EXPECT_TRUE(loads_out3);
  EXPECT_TRUE(stores_out3);
  // Scalar path: out_ptr1[0] = tmp2 with tmp2 = float(tmp0 + tmp1): the no-op float() is an add.
  const KernelStmt* tmp2 = find_stmt(k, "tmp2");
  ASSERT_NE(tmp2, nullptr);
  EXPECT_EQ(tmp2->op, "add");
  bool lr = false;
  for (auto& l : k.literals) lr |= l.var == "tmp1" && l.value == 1.0;
  EXPECT_TRUE(lr);
}

TEST(ClangKernel, KernelThatFailsToParseGivesDiagnosticAndKeepsTheRest) {
  fs::path file = output_code("s1_cpu", "model__0_inference");
  auto srcs = find_embedded_cpp_sources(read_text(file));
  ASSERT_EQ(srcs.size(), 1u);
  Kernel k = kernel_from(srcs[0], file.string());
  // One edit of the real source: a call to a helper nobody declares, on the exp_avg_sq path only.
  const std::string from = "auto tmp13 = tmp4 * tmp4;";
  size_t at = k.source.find(from);
  ASSERT_NE(at, std::string::npos);
  k.source.replace(at, from.size(), "auto tmp13 = undeclared_helper(tmp4, tmp4);");
  k.name = "cpp_fused_edited_0";
  DiagSink diags;
  read_cpp_kernel_clang(k, file.string(), diags);
  ASSERT_FALSE(k.parse_errors.empty());
  auto ds = diags.sorted();
  ASSERT_GE(ds.size(), 1u);
  EXPECT_EQ(ds[0].code, "cpp-kernel-parse");
  EXPECT_NE(ds[0].message.find("cpp_fused_edited_0"), std::string::npos) << ds[0].message;
  EXPECT_NE(ds[0].message.find("undeclared identifier 'undeclared_helper'"), std::string::npos) << ds[0].message;
  EXPECT_EQ(ds[0].loc.file, file.string());
  auto lines = lines_of(read_text(file));
  ASSERT_GT(ds[0].loc.line, 0);
  EXPECT_NE(lines[ds[0].loc.line - 1].find(from), std::string::npos) << lines[ds[0].loc.line - 1];
  // The rest of the kernel is still read: params, every load, and the stores that do not depend
  // on the broken value (Clang drops tmp13..tmp17, so the out_ptr5 store is lost).
  EXPECT_EQ(k.params.size(), 7u);
  EXPECT_EQ(k.loads.size(), 4u);
  std::set<std::string> stored;
  for (auto& s : k.stores) stored.insert(s.ptr);
  EXPECT_EQ(stored, (std::set<std::string>{"out_ptr1", "out_ptr3"}));
}

TEST(ClangKernel, IdenticalKernelsParseOnce) {
  clear_clang_parse_cache();
  auto before = clang_parse_stats();
  // Every real kernel, read twice, as when two runs of the same program are analyzed together.
  std::vector<Kernel> all;
  std::vector<std::string> files;
  std::set<std::string> distinct;
  for (int round = 0; round < 2; ++round)
    for (const char* capture : {"s1_cpu", "s2_cpu"})
      for (auto& file : output_codes(capture))
        for (auto& s : find_embedded_cpp_sources(read_text(file))) {
          all.push_back(kernel_from(s, file.string() + (round ? ".copy" : "")));
          files.push_back(file.string() + (round ? ".copy" : ""));
          distinct.insert(s.source);
        }
  ASSERT_EQ(all.size(), 16u);
  // s1_cpu's models 1, 3, 4 share a kernel name but not the text (the step's literals differ):
  // the cache is keyed by text, so they are three parses.
  ASSERT_EQ(distinct.size(), 8u);
  std::vector<CppKernelJob> jobs;
  for (size_t i = 0; i < all.size(); ++i) jobs.push_back({&all[i], files[i]});
  DiagSink diags;
  read_cpp_kernels_clang(jobs, diags, 2);
  auto after = clang_parse_stats();
  EXPECT_EQ(after.parses - before.parses, 8u);
  EXPECT_EQ(after.cache_hits - before.cache_hits, 8u);
  // Each kernel keeps its own file in its locations, and the literals of its own text.
  for (size_t i = 0; i < all.size(); ++i) {
    ASSERT_FALSE(all[i].loads.empty());
    EXPECT_EQ(all[i].loads[0].loc.file, files[i]);
    for (auto& l : all[i].literals) EXPECT_NE(all[i].source.find(l.text), std::string::npos);
  }
  // The same result as one-at-a-time reading.
  Kernel again = all[3];
  again.loads.clear();
  read_cpp_kernel_clang(again, files[3], diags);
  ASSERT_EQ(again.loads.size(), all[3].loads.size());
  EXPECT_EQ(again.loads[0].loc, all[3].loads[0].loc);
  EXPECT_EQ(diags.size(), 0u);
}

#include "analyzer/pipeline.h"

TEST(ClangKernel, ThroughThePipelineTheOutputCodeParserHandsKernelsToClang) {
  install_optional_readers();
  AnalyzeOptions o;
  o.paths = {(fs::path(ILINT_FIXTURES_DIR) / "s2_cpu").string()};
  Analysis a;
  analyze(o, a);
  const Kernel* fwd = nullptr;
  const Kernel* bwd = nullptr;
  std::string fwd_file;
  for (auto& c : a.program.compiles)
    for (auto& k : c.kernels) {
      if (k.name == "cpp_fused_add_expand_mul_slice_sub_view_0") {
        fwd = &k;
        fwd_file = c.files.output_code;
      }
      if (k.name == "cpp_fused__to_copy_add_expand_flip_mul_neg_slice_slice_backward_sub_sum_view_1") bwd = &k;
    }
  ASSERT_NE(fwd, nullptr);
  ASSERT_NE(bwd, nullptr);
  for (auto& d : a.diags.sorted()) EXPECT_NE(d.code, "cpp-kernel-parse") << d.message;
  EXPECT_TRUE(fwd->parse_errors.empty());
  // Facts only the AST gives: types of `auto` values, and the accumulator.
  EXPECT_EQ(fwd->casts.size(), 2u);
  ASSERT_EQ(bwd->reductions.size(), 1u);
  EXPECT_EQ(bwd->reductions[0].accumulator_dtype, DType::F32);
  EXPECT_EQ(bwd->reductions[0].length, 40);
  // Lines agree with the output_code.py parser's source_first_line.
  auto lines = lines_of(read_text(fwd_file));
  for (auto& l : fwd->loads) {
    ASSERT_GT(l.loc.line, 0);
    EXPECT_NE(lines[l.loc.line - 1].find("loadu(" + l.ptr), std::string::npos) << lines[l.loc.line - 1];
  }
  EXPECT_NE(lines[fwd->body_loc.line - 1].find("extern \"C\""), std::string::npos);
}

// Clang ends a line at a lone "\r" too, as the Python tokenizer does when it numbers the lines of
// output_code.py: a kernel whose lines end in lone CRs maps every access to the same line as with
// "\n" (the fuzz_cpp_kernel harness once counted only "\n" and saw these as outside the kernel).
TEST(ClangKernel, LoneCarriageReturnsEndLinesLikeNewlines) {
  fs::path file = output_code("s2_cpu", "model__0_forward");
  ASSERT_FALSE(file.empty());
  size_t compared = 0;
  for (auto& s : find_embedded_cpp_sources(read_text(file))) {
    if (s.name == "cpp_wrapper_src") continue;
    Kernel lf = kernel_from(s, file.string()), cr = kernel_from(s, file.string());
    for (char& ch : cr.source)
      if (ch == '\n') ch = '\r';
    DiagSink d1, d2;
    read_cpp_kernel_clang(lf, file.string(), d1);
    read_cpp_kernel_clang(cr, file.string(), d2);
    for (auto& d : d2.sorted()) ADD_FAILURE() << d.code << ": " << d.message << " at " << d.loc.line;
    ASSERT_FALSE(lf.loads.empty()) << s.name;
    ASSERT_EQ(lf.loads.size(), cr.loads.size()) << s.name;
    for (size_t i = 0; i < lf.loads.size(); ++i) EXPECT_EQ(lf.loads[i].loc.line, cr.loads[i].loc.line) << s.name << " " << i;
    ASSERT_EQ(lf.stores.size(), cr.stores.size()) << s.name;
    for (size_t i = 0; i < lf.stores.size(); ++i) EXPECT_EQ(lf.stores[i].loc.line, cr.stores[i].loc.line) << s.name;
    ASSERT_EQ(lf.stmts.size(), cr.stmts.size()) << s.name;
    for (size_t i = 0; i < lf.stmts.size(); ++i) EXPECT_EQ(lf.stmts[i].loc.line, cr.stmts[i].loc.line) << s.name;
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}
