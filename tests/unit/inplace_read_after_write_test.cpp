// Rule inplace-read-after-write on the real captures: positives mut_foreach_flip (CUDA) and
// mut_foreach_flip_cpu (C++), their safe twins, the cpu_vocab_* captures and the other clean
// captures as negatives, and real captures edited in one place where no real positive exists
// (named "Derived" below: each edit is stated next to the test).
#include <gtest/gtest.h>

#include <tuple>

#include "analyzer/model/fx_query.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

// torch._foreach_add_([x], [x.flip(0)]), 4M f32 on the H200: measured eager-vs-inductor 5.28.
TEST(InplaceReadAfterWrite, ForeachFlipCudaIsReportedWithAWitness) {
  Analysis a;
  auto fs_ = run_rule(fixture("mut_foreach_flip"), "inplace-read-after-write", a);
  ASSERT_EQ(fs_.size(), 1u);
  const Finding* f = fs_[0];
  EXPECT_EQ(f->severity, Severity::Error);
  EXPECT_EQ(f->evidence["claim"], "cross-thread-overlap");
  EXPECT_EQ(f->evidence["buffer"], "arg0_1");
  EXPECT_TRUE(f->evidence["buffer_is_graph_input"].get<bool>());
  EXPECT_EQ(f->evidence["load"]["index"], "4194303 + ((-1)*x0)");
  EXPECT_EQ(f->evidence["store"]["index"], "x0");
  EXPECT_EQ(f->evidence["index_vars"]["xindex"][1], 4194304);
  // The witness: a point loads what another point stores.
  int64_t r = f->evidence["reader"]["xindex"], w = f->evidence["writer"]["xindex"];
  EXPECT_NE(r, w);
  EXPECT_EQ(f->evidence["element"].get<int64_t>(), 4194303 - r);
  EXPECT_EQ(f->evidence["element"].get<int64_t>(), w);  // the store index is x0 = xindex
  EXPECT_NE(line_at(f->location).find("tl.load(in_ptr0 + (4194303"), std::string::npos) << line_at(f->location);
  ASSERT_FALSE(f->related.empty());
  EXPECT_NE(f->related[0].loc.file.find("mutation.py"), std::string::npos);
  EXPECT_NE(f->related[0].message.find("_foreach_add_"), std::string::npos);
}

// Same program on the CPU backend (measured 4.56): the C++ kernel's loads come from the Clang
// reader; without it the kernel has no loads and there is nothing to compare.
TEST(InplaceReadAfterWrite, ForeachFlipCpuIsReportedWhenTheCppReaderRan) {
  Analysis a;
  auto fs_ = run_rule(fixture("mut_foreach_flip_cpu"), "inplace-read-after-write", a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  const Kernel& k = a.program.compiles[0].kernels.at(0);
  ASSERT_EQ(k.loops.size(), 1u);
  EXPECT_EQ(k.loops[0].var, "x0");
  EXPECT_EQ(std::make_pair(k.loops[0].start, k.loops[0].end), (std::pair<int64_t, int64_t>{0, 65536}));
  if (k.loads.empty()) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["backend"], "cpp");
  EXPECT_EQ(fs_[0]->evidence["claim"], "cross-thread-overlap");
  EXPECT_EQ(fs_[0]->evidence["load"]["index"], "65535L + ((-1L)*x0)");
  EXPECT_EQ(fs_[0]->evidence["store"]["index"], "x0");
  int64_t r = fs_[0]->evidence["reader"]["x0"], w = fs_[0]->evidence["writer"]["x0"];
  EXPECT_EQ(r + w, 65535);
}

// The safe twins, the spellings Inductor already handles (mut_copy_flip materializes the flip,
// mut_add_t computes into buf0 and copies), and every other real capture.
TEST(InplaceReadAfterWrite, NoFindingOnNegativeTwinsAndCleanCaptures) {
  for (const char* name : {"mut_foreach_flip_safe", "mut_foreach_flip_cpu_safe", "mut_copy_flip", "mut_copy_flip_safe",
                           "mut_add_t", "mut_add_t_safe", "mut_cast_bf16", "mut_cast_bf16_cpu", "clean_resnet",
                           "clean_compiled_adam", "s1_cuda", "s1_cpu", "s1_cpu_cppwrap", "stale_clamp_cpu",
                           "s1_cuda_capture", "s1_dynfloat_3", "s1_dynfloat_dyn", "s2_cuda", "s2_cpu",
                           "s2_cuda_emulate", "prec_cumsum_bf16", "prec_cumsum_bf16_fp32acc", "prec_cumsum_fp32",
                           "prec_softmax_bf16"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(fixture(name), "inplace-read-after-write", a).empty()) << name;
  }
}

// The negatives above are meaningful: s1_cuda's first kernel loads and stores one graph input
// through two parameters, with the same element spelled differently (`0` and
// `tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK)`); mut_foreach_flip_safe loads and stores
// arg0_1 at x0 only.
TEST(InplaceReadAfterWrite, SameElementSpelledTwoWaysIsOneBuffer) {
  Analysis a;
  run_analysis({fixture("s1_cuda")}, a, {"inplace-read-after-write"});
  const Compile* c = nullptr;
  for (auto& x : a.program.compiles)
    if (x.kernel("triton_poi_fused_add_copy__0")) c = &x;
  ASSERT_NE(c, nullptr);
  const Kernel& k = *c->kernel("triton_poi_fused_add_copy__0");
  ASSERT_EQ(c->launches.size(), 2u);
  auto binds = bind_params(*c, k, c->launches[0]);
  ASSERT_GE(binds.size(), 2u);
  EXPECT_EQ(binds[0].buf.root, "arg0_1");
  EXPECT_EQ(binds[1].buf.root, "arg0_1");
  ASSERT_EQ(k.loads.size(), 1u);
  ASSERT_EQ(k.stores.size(), 1u);
  EXPECT_EQ(k.loads[0].index, "0");
  EXPECT_EQ(k.stores[0].index, "tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK)");
}

// Derived from s1_cuda model__1 (param.addcdiv_ in place, 128 elements): the load of the
// mutated input in_ptr0 is mirrored (`x0` -> `127 + ((-1)*x0)`), as a flip would read it.
TEST(InplaceReadAfterWrite, DerivedMirroredLoadOfTheMutatedInput) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "tmp0 = tl.load(in_ptr0 + (x0), xmask)",
                           "tmp0 = tl.load(in_ptr0 + (127 + ((-1)*x0)), xmask)");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["claim"], "cross-thread-overlap");
  EXPECT_EQ(fs_[0]->evidence["buffer"], "arg1_1");
  EXPECT_EQ(fs_[0]->evidence["load"]["arg"], "arg1_1");
  EXPECT_EQ(fs_[0]->evidence["store"]["ptr"], "out_ptr1");
  EXPECT_EQ(fs_[0]->related[0].loc.line, 15);  // seed1.py:15, the addcdiv_ that copy_ records
}

// Derived: the mutated input is passed as a view one element further
// (`reinterpret_tensor(arg1_1, (127, ), (1, ), 1)`): point x loads element x+1, which point x+1
// stores, the shift of pytorch#197829. Exercises offsets through inline views.
TEST(InplaceReadAfterWrite, DerivedShiftedViewOfTheSameBuffer) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py",
                           "triton_poi_fused_add_copy__div_mul_sqrt_0.run(arg1_1, arg2_1,",
                           "triton_poi_fused_add_copy__div_mul_sqrt_0.run(reinterpret_tensor(arg1_1, (127, ), (1, ), 1), "
                           "arg2_1,");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["load"]["offset"], 1);
  EXPECT_EQ(fs_[0]->evidence["store"]["offset"], 0);
  int64_t r = fs_[0]->evidence["reader"]["xindex"], w = fs_[0]->evidence["writer"]["xindex"];
  EXPECT_EQ(w, r + 1);
  EXPECT_NE(message_and_notes(*fs_[0]).find("are the same memory"), std::string::npos) << message_and_notes(*fs_[0]);
}

// Derived: a load of the same buffer outside everything the launch stores (elements 128.. of a
// store range 0..127) cannot observe the store: not reported.
TEST(InplaceReadAfterWrite, DerivedDisjointReadIsNotReported) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "tmp0 = tl.load(in_ptr0 + (x0), xmask)",
                           "tmp0 = tl.load(in_ptr0 + (128 + x0), xmask)");
  Analysis a;
  EXPECT_TRUE(run_rule(dir, "inplace-read-after-write", a).empty());
}

// tests/fuzz/mutate_captures.py: an index with a call whose arguments the index parser cannot
// read (here a string) set its position past the text's end, and the next operator test asked
// std::string::compare for it: std::out_of_range, which aborted the analyzer. Such an index is
// Unknown: compared as text, the two indexes differ, and the rule says so without a claim it
// could not evaluate (claim index-differs, evaluated false), as for any index it cannot read.
TEST(InplaceReadAfterWrite, DerivedIndexWithAnUnreadableCallIsUnknownNotACrash) {
  TempDir tmp;
  std::string dir = derive(tmp, "s1_cuda", "inference_1", "output_code.py", "tmp0 = tl.load(in_ptr0 + (x0), xmask)",
                           "tmp0 = tl.load(in_ptr0 + (x0 + f(\"a\") // 2), xmask)");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["claim"], "index-differs");
  EXPECT_EQ(fs_[0]->evidence["evaluated"], false);
  EXPECT_EQ(fs_[0]->evidence["load"]["index"], "x0 + f(\"a\") // 2");
  expect_headline_with_notes(*fs_[0]);  // no real capture gives this claim
}

// A C++ kernel's top-level loop nests run one after the other. The cpu_vocab_* captures are
// correct programs (their stdout: compiled matches eager) whose fused kernels reuse one buffer
// across nests: attention's softmax kernel stores in_out_ptr0 at [x2 + 16L*x1 + 256L*x0] in its
// second nest and reads it at [x1 + 16L*x0] in its third, a different index, yet in order.
// Before nests were modelled, these were 25 errors on 6 captures.
TEST(InplaceReadAfterWrite, AccessesInDifferentCppLoopNestsAreNotReported) {
  Analysis a;
  run_analysis({fixture("cpu_vocab_attention")}, a, {"inplace-read-after-write"});
  const Kernel* k = nullptr;
  for (auto& c : a.program.compiles)
    if (auto* x = c.kernel("cpp_fused__softmax_bitwise_not_div_masked_fill_ones_tril_view_0")) k = x;
  ASSERT_NE(k, nullptr);
  if (k->loads.empty()) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  bool store_nest1 = false, load_nest2 = false;
  for (auto& st : k->stores)
    if (st.ptr == "in_out_ptr0" && st.index == "x2 + 16L*x1 + 256L*x0") store_nest1 = st.nest == 1;
  for (auto& ld : k->loads)
    if (ld.ptr == "in_out_ptr0" && ld.index == "x1 + 16L*x0") load_nest2 = load_nest2 || ld.nest == 2;
  EXPECT_TRUE(store_nest1);
  EXPECT_TRUE(load_nest2);
  for (const char* name : {"cpu_vocab_attention", "cpu_vocab_softmax", "cpu_vocab_cross_entropy", "cpu_vocab_std_welford",
                           "cpu_vocab_layer_norm_dyn", "cpu_vocab_conv_block", "cpu_vocab_arg_reduce",
                           "cpu_vocab_masked", "cpu_vocab_rand_ops", "cpu_vocab_int_ops_cppwrap"}) {
    Analysis b;
    EXPECT_TRUE(run_rule(fixture(name), "inplace-read-after-write", b).empty()) << name;
  }
}

// Derived from mut_foreach_flip_cpu (one nest: each x0 loads element 65535-x0 and stores x0, the
// race the fixture is reported for): the flipped load stays in a first nest that stores nothing,
// and the store moves to a second nest (`#pragma omp for` ends with a barrier). Every flipped
// load now happens before any store: not reported. The control puts the flipped load into the
// second nest as well, and is reported there.
TEST(InplaceReadAfterWrite, DerivedFlipSplitIntoTwoNestsIsNotReported) {
  auto split = [](const TempDir& tmp, const std::string& second_nest_value) {
    return derive(tmp, "mut_foreach_flip_cpu", "inference", "output_code.py",
                  "                        out_ptr0[static_cast<int64_t>(x0)] = tmp2;\n"
                  "                    }\n                }\n            }\n        }\n",
                  "                        auto tmp3 = float(tmp2 + tmp2);\n"
                  "                    }\n                }\n            }\n        }\n"
                  "        {\n            #pragma omp for\n"
                  "            for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(65536L); "
                  "x0+=static_cast<int64_t>(1L))\n            {\n"
                  "                auto tmp0 = in_ptr0[static_cast<int64_t>(" + second_nest_value + ")];\n"
                  "                out_ptr0[static_cast<int64_t>(x0)] = tmp0;\n            }\n        }\n");
  };
  TempDir tmp_split, tmp_control;
  Analysis a;
  auto none = run_rule(split(tmp_split, "x0"), "inplace-read-after-write", a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  const Kernel& k = a.program.compiles[0].kernels.at(0);
  if (k.loads.empty()) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  ASSERT_TRUE(k.parse_errors.empty()) << k.parse_errors.front();
  bool flipped_in_nest0 = false, store_in_nest1 = false;
  for (auto& ld : k.loads) flipped_in_nest0 |= ld.nest == 0 && ld.index == "65535L + ((-1L)*x0)";
  for (auto& st : k.stores) store_in_nest1 |= st.nest == 1 && st.ptr == "out_ptr0" && st.index == "x0";
  EXPECT_TRUE(flipped_in_nest0);
  EXPECT_TRUE(store_in_nest1);
  EXPECT_TRUE(none.empty());

  Analysis b;
  auto control = run_rule(split(tmp_control, "65535L + ((-1L)*x0)"), "inplace-read-after-write", b);
  ASSERT_EQ(control.size(), 1u);
  EXPECT_EQ(control[0]->evidence["claim"], "cross-thread-overlap");
  const Kernel& kc = b.program.compiles[0].kernels.at(0);
  int load_line = control[0]->evidence["load"]["line"];
  bool reported_load_in_nest1 = false;
  for (auto& ld : kc.loads) reported_load_in_nest1 |= ld.loc.line == load_line && ld.nest == 1;
  EXPECT_TRUE(reported_load_in_nest1);
}

// Derived from mut_foreach_flip_cpu: the flipped element is read through a local copy of the
// output pointer (`auto in_ptr1 = out_ptr0;`, as Inductor names an in_out_ptr's input role),
// not through in_ptr0. The copy is the same memory as the parameter: reported, with the load
// recorded against out_ptr0.
TEST(InplaceReadAfterWrite, DerivedFlipThroughALocalCopyOfThePointer) {
  TempDir tmp;
  std::string dir = derive(tmp, "mut_foreach_flip_cpu", "inference", "output_code.py",
                           "auto tmp1 = in_ptr0[static_cast<int64_t>(65535L + ((-1L)*x0))];",
                           "auto tmp1 = in_ptr1[static_cast<int64_t>(65535L + ((-1L)*x0))];");
  const std::string open = "                       float* out_ptr0)\n{\n";
  derive2(tmp, dir, "output_code.py", open, open + "    auto in_ptr1 = out_ptr0;\n");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  const Kernel& k = a.program.compiles.at(0).kernels.at(0);
  if (k.loads.empty()) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  ASSERT_TRUE(k.parse_errors.empty()) << k.parse_errors.front();
  bool through_copy = false;
  for (auto& ld : k.loads) through_copy |= ld.ptr == "out_ptr0" && ld.index == "65535L + ((-1L)*x0)";
  EXPECT_TRUE(through_copy);
  ASSERT_EQ(fs_.size(), 1u);
  EXPECT_EQ(fs_[0]->evidence["load"]["ptr"], "out_ptr0");
  EXPECT_EQ(fs_[0]->evidence["claim"], "cross-thread-overlap");
}

namespace {

// cpu_train_step_t213's layer-norm backward kernel (model__0_backward_3.1): the one that stores a
// vector to out_ptr2 and reads it back lane by lane.
const Kernel* vector_store_then_lane_reads(const Analysis& a) {
  for (const auto& c : a.program.compiles)
    for (const auto& k : c.kernels) {
      bool vector_store = false, lane_load = false;
      for (const auto& st : k.stores) vector_store |= st.ptr == "out_ptr2" && st.vectorized && st.index == "x1 + 256L*x0";
      for (const auto& ld : k.loads) lane_load |= ld.ptr == "out_ptr2" && !ld.vectorized && ld.index == "x1 + x1_inner + 256L*x0";
      if (vector_store && lane_load) return &k;
    }
  return nullptr;
}

}  // namespace

// A realistic CPU training step (torch 2.13): a C++ reduction stores 16 partial sums as one vector,
// `tmp_acc0_vec.store(out_ptr2 + x1 + 256L*x0)` with x1 stepping by 16, and the same x1 iteration
// then reads them one lane at a time, `out_ptr2[x1 + x1_inner + 256L*x0]`, x1_inner in [0, 16). Every
// element read is one the iteration itself stored: not reported. (Sampled at every integer, with the
// vector store taken as one element, x1=7 would seem to store what x1=0 reads.)
TEST(InplaceReadAfterWrite, AVectorStoreReadBackLaneByLaneInItsIterationIsNotReported) {
  Analysis a;
  auto fs_ = run_rule(fixture("cpu_train_step_t213"), "inplace-read-after-write", a);
  const Kernel* k = vector_store_then_lane_reads(a);
  ASSERT_NE(k, nullptr);
  // The loops around the lane read: x1 of this nest (other nests' x1 run to 2048, 32 or 8), and the lanes.
  int line = 0;
  for (const auto& ld : k->loads)
    if (ld.ptr == "out_ptr2" && ld.index == "x1 + x1_inner + 256L*x0") line = ld.loc.line;
  const CppLoop* x1 = k->loop_around("x1", line);
  const CppLoop* lanes = k->loop_around("x1_inner", line);
  ASSERT_TRUE(x1 && lanes);
  EXPECT_EQ(std::make_tuple(x1->start, x1->end, x1->step), std::make_tuple(int64_t{0}, int64_t{256}, int64_t{16}));
  EXPECT_EQ(std::make_tuple(lanes->start, lanes->end, lanes->step), std::make_tuple(int64_t{0}, int64_t{16}, int64_t{1}));
  EXPECT_NE(line_at({k->def_loc.file, x1->first_line, 0}).find("for(int64_t x1="), std::string::npos);
  EXPECT_NE(line_at({k->def_loc.file, lanes->first_line, 0}).find("for (long x1_inner = 0;"), std::string::npos);
  EXPECT_TRUE(fs_.empty()) << fs_[0]->message;
}

// Derived from cpu_train_step_t213: the lane reads made one vector load half a tile on,
// `loadu(out_ptr2 + 8L + x1 + 256L*x0, 16)`: its upper eight lanes are elements the next x1
// iteration's vector store writes. Reported: a witness only the vectors' widths show (no store
// index equals an element the load reads past its own lanes; x1 takes multiples of 16).
TEST(InplaceReadAfterWrite, DerivedVectorLoadHalfATileOnIsReported) {
  TempDir tmp;
  std::string dir = derive(tmp, "cpu_train_step_t213", "backward", "output_code.py",
                           "auto tmp14 = out_ptr2[static_cast<int64_t>(x1 + x1_inner + 256L*x0)];",
                           "auto tmp14 = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(8L + x1 + 256L*x0), "
                           "static_cast<int64_t>(16));");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  ASSERT_EQ(fs_.size(), 1u);
  const auto& e = fs_[0]->evidence;
  EXPECT_EQ(e["claim"], "cross-thread-overlap");
  EXPECT_EQ(e["load"]["index"], "8L + x1 + 256L*x0");
  EXPECT_EQ(e["store"]["index"], "x1 + 256L*x0");
  int64_t element = e["element"], reader_own = e["reader_own_element"];
  EXPECT_EQ(e["writer"]["x1"].get<int64_t>() % 16, 0);  // a value x1 takes
  EXPECT_GE(element - reader_own, 16);                  // past the reader's own vector
  EXPECT_LT(element - reader_own, 24);                  // inside the load's
}

// Derived from cpu_train_step_t213: the first kernel's tail loop (`for (int64_t x0_tail = ...; x0_tail
// < 8; x0_tail++)` inside the vectorized `x0` loop, which steps by 16 over [0, 8) and so runs its
// tail only) made to read the element another iteration writes: `auto tmpz = out_ptr0[7L +
// (-1L)*x0_tail]; out_ptr0[x0_tail] = tmpz;`. Reported: written with x0 (merge_tail_loops), the
// variable takes the tail loop's values one by one, not the vector loop's multiples of 16.
TEST(InplaceReadAfterWrite, DerivedFlipInsideATailLoopIsReported) {
  TempDir tmp;
  std::string dir = derive(tmp, "cpu_train_step_t213", "backward", "output_code.py",
                           "out_ptr0[static_cast<int64_t>(x0_tail)] = tmp_acc0_arr[x0_tail - static_cast<int64_t>(0L)];",
                           "auto tmpz = out_ptr0[static_cast<int64_t>(7L + (-1L)*x0_tail)];\n"
                           "                        out_ptr0[static_cast<int64_t>(x0_tail)] = tmpz;");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  const Kernel& k = a.program.compiles.at(0).kernels.at(0);
  if (k.loads.empty()) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  ASSERT_EQ(fs_.size(), 1u);
  const auto& e = fs_[0]->evidence;
  EXPECT_EQ(e["claim"], "cross-thread-overlap");
  EXPECT_EQ(e["load"]["index"], "7L + (-1L)*x0_tail");
  EXPECT_EQ(e["index_vars"]["x0"], nlohmann::json::array({0, 8}));
  int64_t r = e["reader"]["x0"], w = e["writer"]["x0"];
  EXPECT_EQ(r + w, 7);
}

// Derived from cpu_train_step_t213, the mirror of the real kernel: the layer-norm backward's x1
// iteration first loads its 16 elements as one vector (`loadu(out_ptr2 + x1 + 256L*x0, 16)`, where
// the vector store was) and then stores them lane by lane (`out_ptr2[x1 + x1_inner + 256L*x0] =
// tmp9;`, where the lane read was). Within one iteration the load comes first and the lanes are its
// own: not reported, though point (x1, x1_inner = 3) loads the element point (x1, x1_inner = 0)
// stores (x1_inner's loop holds the store only: the two points are one iteration).
TEST(InplaceReadAfterWrite, DerivedVectorLoadThenItsLanesStoredInOneIterationIsNotReported) {
  TempDir tmp;
  std::string dir = derive(tmp, "cpu_train_step_t213", "backward", "output_code.py",
                           "tmp_acc0_vec.store(out_ptr2 + static_cast<int64_t>(x1 + 256L*x0));",
                           "auto tmpv = at::vec::Vectorized<float>::loadu(out_ptr2 + static_cast<int64_t>(x1 + 256L*x0), "
                           "static_cast<int64_t>(16));");
  derive2(tmp, dir, "output_code.py", "auto tmp14 = out_ptr2[static_cast<int64_t>(x1 + x1_inner + 256L*x0)];",
          "auto tmp14 = tmp9;\n                                    out_ptr2[static_cast<int64_t>(x1 + x1_inner + 256L*x0)] = tmp14;");
  Analysis a;
  auto fs_ = run_rule(dir, "inplace-read-after-write", a);
  bool vector_load = false, lane_store = false;
  for (const auto& c : a.program.compiles)
    for (const auto& k : c.kernels) {
      for (const auto& ld : k.loads) vector_load |= ld.ptr == "out_ptr2" && ld.vectorized && ld.index == "x1 + 256L*x0";
      for (const auto& st : k.stores) lane_store |= st.ptr == "out_ptr2" && st.index == "x1 + x1_inner + 256L*x0";
    }
  if (!vector_load) GTEST_SKIP() << "no C++ kernel reader installed: C++ loads unknown";
  EXPECT_TRUE(lane_store);
  EXPECT_TRUE(fs_.empty()) << fs_[0]->message;
}
