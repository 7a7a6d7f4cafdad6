// The model built from real captures: named facts of s2_cuda and s2_cpu, and a parse of every
// output_code.py / fx_graph_readable.py in fixtures/ with no diagnostic.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzer/model/fx_query.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/util/read_file.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
const Compile* compile_of(const Analysis& a, const std::string& kind) {
  for (const auto& c : a.program.compiles)
    if (c.graph_kind == kind) return &c;
  return nullptr;
}
}  // namespace

TEST(OutputCodeModel, S2CudaForwardScanKernel) {
  Analysis a;
  run_analysis({fixture("s2_cuda")}, a);
  ASSERT_EQ(a.program.compiles.size(), 2u);
  EXPECT_EQ(a.program.torch_version, "2.11.0+cu130");
  const Compile* c = compile_of(a, "forward");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->aot_ids, std::vector<std::string>{"0_forward"});
  ASSERT_EQ(c->kernels.size(), 1u);
  const Kernel& k = c->kernels[0];
  EXPECT_EQ(k.name, "triton_per_fused_add_cumsum_div_expand_mul_slice_sub_view_0");
  EXPECT_EQ(k.backend, KernelBackend::Triton);
  EXPECT_EQ(k.kind, KernelKind::Scan);
  EXPECT_EQ(k.heuristic, "persistent_reduction");
  EXPECT_EQ(k.mutated_args, std::vector<std::string>{"in_out_ptr0"});
  ASSERT_GE(k.params.size(), 3u);
  EXPECT_EQ(k.params[1].name, "in_ptr0");
  EXPECT_EQ(k.params[1].dtype, DType::BF16);
  EXPECT_TRUE(k.params[1].is_pointer);
  EXPECT_EQ(k.numels.at("r0_numel"), 15);
  ASSERT_EQ(k.reductions.size(), 1u);
  const ReduceOp& r = k.reductions[0];
  EXPECT_TRUE(r.is_scan);
  EXPECT_EQ(r.combine, "add");
  EXPECT_EQ(r.compute_dtype, DType::F32);
  EXPECT_EQ(r.length, 15);
  // The scan's line points into output_code.py, at the tl.associative_scan line.
  std::ifstream in(c->files.output_code);
  std::string line;
  for (int i = 0; i < r.loc.line && std::getline(in, line); ++i) {
  }
  EXPECT_NE(line.find("tl.associative_scan"), std::string::npos) << line;
  // bf16 loads are upcast to f32; no cast back to bf16 anywhere.
  ASSERT_EQ(k.loads.size(), 4u);
  EXPECT_EQ(k.loads[0].ptr, "in_ptr0");
  EXPECT_EQ(k.loads[0].index, "r0_1 + 16*x0");
  EXPECT_EQ(k.loads[0].value_dtype, DType::F32);
  for (const auto& cast : k.casts) EXPECT_NE(cast.to, DType::BF16);
  // The definitions an index or a numel reaches are kept (`r0_1 = r0_index`, `x0 = xindex`,
  // `xoffset = tl.program_id(0) * XBLOCK` through xindex); the masks, which no index names, are not.
  EXPECT_EQ(k.var_defs.count("r0_1"), 1u);
  EXPECT_EQ(k.var_defs.count("x0"), 1u);
  EXPECT_EQ(k.var_defs.count("xoffset"), 1u);
  EXPECT_EQ(k.var_defs.count("rnumel"), 1u);
  EXPECT_EQ(k.var_defs.count("xmask"), 0u);
  EXPECT_EQ(k.var_defs.count("r0_mask"), 0u);
  // Which FX nodes the kernel computes, and their dtypes from the graph.
  EXPECT_NE(std::find(k.fx_nodes.begin(), k.fx_nodes.end(), "add"), k.fx_nodes.end());
  const FxNode* add = find_fx_node(*c, "add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->meta.dtype, DType::BF16);
  ASSERT_TRUE(add->user_loc().has_value());
  EXPECT_EQ(add->user_loc()->line, 13);
  EXPECT_NE(add->user_code().find("cumulative_trapezoid"), std::string::npos);
  // Wrapper: one launch, an aliasing reinterpret of buf0, in_out_ptr mutation, inputs.
  ASSERT_EQ(c->launches.size(), 1u);
  EXPECT_EQ(c->launches[0].args[0], "buf1");
  const Buffer* buf1 = c->buffer("buf1");
  ASSERT_NE(buf1, nullptr);
  EXPECT_EQ(buf1->alias_of, "buf0");
  EXPECT_TRUE(buf1->is_reuse);
  ASSERT_EQ(c->mutations.size(), 1u);
  EXPECT_EQ(c->mutations[0].via, "in_out_ptr");
  ASSERT_EQ(c->inputs.size(), 2u);
  EXPECT_EQ(c->inputs[1].meta.dtype, DType::BF16);
  EXPECT_EQ(c->inputs[1].meta.device, "cuda:0");
}

TEST(OutputCodeModel, S2CpuHasCppKernelsAndAnAtenFallbackScan) {
  Analysis a;
  run_analysis({fixture("s2_cpu")}, a);
  const Compile* c = compile_of(a, "forward");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->device_type, "cpu");
  const Kernel* k = c->kernel("cpp_fused_add_expand_mul_slice_sub_view_0");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->backend, KernelBackend::Cpp);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_EQ(k->params[0].name, "in_ptr0");
  EXPECT_EQ(k->params[0].dtype, DType::BF16);
  EXPECT_TRUE(k->params[0].is_const);
  bool fallback = false;
  for (const auto& l : c->launches)
    if (l.is_fallback && l.kernel == "torch.ops.aten.cumsum.default") {
      fallback = true;
      EXPECT_EQ(l.results, std::vector<IString>{"buf1"});
      EXPECT_EQ(l.kwargs.at("dim"), "3");
    }
  EXPECT_TRUE(fallback);
  // Launch order follows the wrapper.
  ASSERT_EQ(c->launches.size(), 3u);
  EXPECT_EQ(c->launches[0].kernel, "cpp_fused_add_expand_mul_slice_sub_view_0");
  EXPECT_EQ(c->launches[2].kernel, "cpp_fused_div_1");
}

TEST(OutputCodeModel, DynamicGraphInputsAreSymInts) {
  Analysis a;
  run_analysis({fixture("s1_dynfloat_dyn")}, a);
  bool saw_symint = false;
  for (const auto& c : a.program.compiles)
    for (const auto& in : c.inputs)
      if (in.kind == ValueKind::SymInt) saw_symint = true;
  EXPECT_TRUE(saw_symint);
}

TEST(OutputCodeModel, EveryCaptureParsesWithoutDiagnostics) {
  Analysis a;
  run_analysis({std::string(ILINT_FIXTURES_DIR)}, a);
  size_t output_codes = 0, readables = 0;
  for (const auto& c : a.program.compiles) {
    if (!c.files.output_code.empty()) ++output_codes;
    if (!c.files.fx_graph_readable.empty()) {
      ++readables;
      EXPECT_FALSE(c.fx.nodes.empty()) << c.files.fx_graph_readable;
    }
    for (const auto& k : c.kernels) EXPECT_TRUE(k.parse_errors.empty()) << k.name;
  }
  EXPECT_GE(output_codes, 35u);
  EXPECT_GE(readables, 35u);
  for (const auto& d : a.diags.sorted()) {
    // Parse diagnostics (errors and warnings) would mean a real capture was misread.
    EXPECT_NE(d.level, DiagLevel::Error) << d.loc.file << ":" << d.loc.line << " " << d.message;
    EXPECT_EQ(d.code.rfind("parse", 0), std::string::npos) << d.loc.file << ":" << d.loc.line << " " << d.message;
  }
}

// Kept for a report (keep_kernel_sources, the analysis's default), a kernel's source is its slice
// of the compile's kept text (the file, or only its kernels' sources where they are less than
// half of it), with no copy of its own once read. Over every fixture (Triton and C++
// kernels; cpp_wrapper kernels, put together from the wrapper's lines, keep theirs), each source is
// what parse_output_code reads from the file alone; and over compiles a TORCH_TRACE log alone holds,
// slices of the log's payload.
TEST(OutputCodeModel, KeptSourcesAreSlicesOfTheCompilesText) {
  Analysis a;
  run_analysis({std::string(ILINT_FIXTURES_DIR)}, a);
  size_t slices = 0, cpp_slices = 0, compacted = 0;
  for (const auto& c : a.program.compiles) {
    if (c.files.output_code.empty() || !c.files.trace_compile_id.empty()) continue;
    std::string text;
    DiagSink d;
    ASSERT_TRUE(read_text_file(c.files.output_code, text, d));
    Compile alone;
    parse_output_code(c.files.output_code, text, alone, d);  // a copy of each source, in its kernel
    ASSERT_EQ(alone.kernels.size(), c.kernels.size()) << c.id;
    // The text kept is the file while its kernels' sources are at least half of it, else those
    // sources alone.
    size_t sliced = 0;
    for (const auto& k : c.kernels) sliced += k.text_size;
    if (c.output_code_text.size() == text.size()) EXPECT_GE(sliced * 2, text.size()) << c.files.output_code;
    else EXPECT_EQ(c.output_code_text.size(), sliced) << c.files.output_code;
    compacted += c.output_code_text.size() < text.size();
    for (size_t i = 0; i < c.kernels.size(); ++i) {
      const Kernel& k = c.kernels[i];
      EXPECT_EQ(c.source_of(k), alone.kernels[i].source) << c.files.output_code << " " << k.name;
      if (!k.text_size) continue;
      ++slices;
      cpp_slices += k.backend == KernelBackend::Cpp;
      EXPECT_TRUE(k.source.empty()) << k.name;
    }
  }
  EXPECT_GT(slices, 100u);
  EXPECT_GT(cpp_slices, 20u);
  EXPECT_GT(compacted, 20u);

  Analysis trace;
  run_analysis({fixture("mut_add_t_safe") + "/trace"}, trace);
  size_t trace_slices = 0;
  for (const auto& c : trace.program.compiles)
    for (const auto& k : c.kernels) {
      EXPECT_NE(c.source_of(k).find("def " + k.name), std::string::npos) << k.name;
      trace_slices += k.text_size > 0;
    }
  EXPECT_GT(trace_slices, 0u);
}
