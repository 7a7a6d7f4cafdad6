// The hand reader of C++ wrappers (analyzer/cpp/cpp_wrapper_hand.*) against its oracle, the
// Clang reader (read_cpp_wrapper_clang): on every fixture wrapper and on variants of them it
// must accept and fill exactly what Clang fills (every field, text and location, the kernels it
// defines, the diagnostics); on anything it does not know it must decline and leave the compile
// and the diagnostics untouched; on truncated and mutated wrappers it must never crash, and what
// it accepts Clang must read the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>

#include "analyzer/model/program.h"
#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "analyzer/parse/output_code.h"
#include "analyzer/report/dump_model.h"
#include "test_util.h"
#include "wrapper_model_text.h"
#ifdef ILINT_HAVE_CLANG
#include "analyzer/cpp/clang/clang_reader.h"
#endif

namespace fs = std::filesystem;
using namespace ilint;
using ilint::testing::FixtureWrapper;
using ilint::testing::fixture_wrappers;
using ilint::testing::wrapper_model_text;

namespace {

constexpr const char* kFile = "fixtures/x/output_code.py";

enum class Reader { Hand, Clang };

struct Reading {
  bool returned = false;
  std::string text;
};

Reading read_with(Reader r, const std::string& source, int first_line, bool defer_kernels) {
  Compile c;
  c.id = "model__0_inference_0.0";
  DiagSink diags;
  std::vector<size_t> to_read;
  std::vector<size_t>* kernels_to_read = defer_kernels ? &to_read : nullptr;
  Reading out;
  if (r == Reader::Hand) {
    out.returned = read_cpp_wrapper_hand(c, source, first_line, kFile, diags, kernels_to_read);
  } else {
#ifdef ILINT_HAVE_CLANG
    out.returned = read_cpp_wrapper_clang(c, source, first_line, kFile, diags, kernels_to_read);
#endif
  }
  out.text = wrapper_model_text(c, diags, kernels_to_read);
  return out;
}

// The text of an untouched compile: what a declining reader must leave.
const std::string& untouched() {
  static const std::string t = [] {
    Compile c;
    c.id = "model__0_inference_0.0";
    DiagSink d;
    std::vector<size_t> none;
    return wrapper_model_text(c, d, &none);
  }();
  return t;
}

// The hand reader accepts `source` and fills what Clang fills, with kernels read here and deferred.
void expect_same_as_clang(const std::string& source, int first_line, const std::string& what) {
  for (bool defer : {true, false}) {
    Reading hand = read_with(Reader::Hand, source, first_line, defer);
    EXPECT_TRUE(hand.returned) << what << ": declined";
#ifdef ILINT_HAVE_CLANG
    Reading clang = read_with(Reader::Clang, source, first_line, defer);
    EXPECT_TRUE(clang.returned) << what << ": Clang reports errors\n" << clang.text;
    EXPECT_EQ(hand.text, clang.text) << what << (defer ? " (kernels deferred)" : " (kernels read)");
#endif
  }
}

void expect_declined(const std::string& source, const std::string& what) {
  Reading hand = read_with(Reader::Hand, source, 7, true);
  EXPECT_FALSE(hand.returned) << what << ": accepted";
  EXPECT_EQ(hand.text, untouched()) << what << ": the compile or the diagnostics were touched";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture text changed: " << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

const FixtureWrapper& wrapper_of(const std::string& capture, const std::string& compile) {
  static const std::vector<FixtureWrapper> all = fixture_wrappers();
  for (auto& w : all)
    if (w.file.find(capture + "/") != std::string::npos && w.file.find(compile) != std::string::npos) return w;
  ADD_FAILURE() << "no wrapper " << capture << " " << compile;
  static const FixtureWrapper none;
  return none;
}

// A small CPU wrapper in Inductor's vocabulary, for variants no fixture has.
const char kSmallCpuWrapper[] = R"(
#include <torch/csrc/inductor/cpp_wrapper/cpu.h>
extern "C"  void  cpp_fused_mul_0(const float* in_ptr0,
                       float* out_ptr0,
                       const int64_t ks0);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DTYPE(int64);
CACHE_TORCH_DEVICE(cpu);

void inductor_entry_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
    AtenTensorHandle*
        output_handles  // array for writing output AtenTensorHandle; handles
) {
    py::gil_scoped_release_simple release;

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 3);
    auto arg0_1 = std::move(inputs[0]);
    int64_t arg1_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[1], &arg1_1));
    double arg2_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_float64(inputs[2], &arg2_1));
    static constexpr int64_t int_array_0[] = {8L, -1L, 16L};
    static constexpr int64_t int_array_1[] = {16L, 128L, 1L, };
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(3, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cpu,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [mul], Original ATen: [aten.mul]
    // [Provenance debug handles] cpp_fused_mul_0:1
    cpp_fused_mul_0((const float*)(arg0_1.data_ptr()), (float*)(buf0.data_ptr()), 16L);
    cpp_fused_mul_0((float*)arg0_1.data_ptr(), (float*)(arg0_1.data_ptr()), arg1_1); cpp_fused_mul_0((const float*)(buf0.data_ptr()), (float*)(buf0.data_ptr()), -3);
    // Topologically Sorted Source Nodes: [add], Original ATen: [aten.add]
    AtenTensorHandle buf1_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_add_Scalar(buf0, 1.5, - 2L, &buf1_handle, nullptr, true));
    RAIIAtenTensorHandle buf1(buf1_handle);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_index(buf1, int_array_0[1], (void**)&buf1_handle, (int64_t*)&arg1_1, &arg1_1, arg2_1, &buf1, &inputs));
    aoti_torch_copy_(arg0_1, buf1, 0);
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_foo((const float*)(buf0.data_ptr()), &cached_torch_dtype_int64, inputs[0], inputs));
    auto buf2 = std::move(buf1);  // reuse
    auto var_0 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf2, 3, int_array_1, int_array_0, 4L)); buf0.reset();
    auto var_1 = std::move(buf0_handle);
    output_handles[0] = var_0.release();
    output_handles[2] = arg0_1.release();
    output_handles[1] = buf2.release();
} // inductor_entry_impl

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_mul_0(const float* in_ptr0,
                       float* out_ptr0,
                       const int64_t ks0)
{
    #pragma omp parallel num_threads(16)
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(ks0); x0+=static_cast<int64_t>(1L))
        {
            auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];
            if (C10_LIKELY(x0 > 0)) { out_ptr0[static_cast<int64_t>(x0)] = tmp0 * static_cast<float>(2.0); }
        }
    }
}
)";

}  // namespace

// Every fixture wrapper (12: s1 and s2, CPU and CUDA) is accepted and read as Clang reads it,
// with its kernels read by the reader and deferred to the caller. The cpu_vocab_* fixtures reach
// beyond the hand readers' vocabulary on purpose (docs/cpp-kernels.md): a wrapper of theirs may
// be declined, and must then be left untouched; one accepted is read as Clang reads it.
TEST(CppWrapperHand, AcceptsEveryFixtureWrapperAndFillsWhatClangFills) {
  auto ws = fixture_wrappers();
  size_t vocab = 0, vocab_accepted = 0;
  for (auto& w : ws) {
    SCOPED_TRACE(w.file);
    if (w.file.find("/cpu_vocab_") != std::string::npos) {
      ++vocab;
      Reading hand = read_with(Reader::Hand, w.source, w.first_line, true);
      if (!hand.returned) {
        EXPECT_EQ(hand.text, untouched()) << "declined but touched the compile";
        continue;
      }
      ++vocab_accepted;
    }
    expect_same_as_clang(w.source, w.first_line, w.file);
    Reading hand = read_with(Reader::Hand, w.source, w.first_line, true);
    EXPECT_NE(hand.text.find("launch #0"), std::string::npos) << hand.text;
  }
  EXPECT_EQ(ws.size() - vocab, 12u);
  EXPECT_GE(vocab, 1u);
  EXPECT_EQ(vocab_accepted, vocab);  // the vocabulary covers them all (and the 11 wrappers of the 37 captures)
  std::cout << "[ info ] " << vocab_accepted << " of the " << vocab << " cpu_vocab_* wrappers accepted\n";
}

// What no fixture has but Inductor writes, and the shapes of arguments the reader takes.
TEST(CppWrapperHand, AcceptsVariantsAndFillsWhatClangFills) {
  expect_same_as_clang(kSmallCpuWrapper, 40, "small CPU wrapper");
  // Every kernel element type, pointer and scalar, const and not.
  std::string types = kSmallCpuWrapper;
  for (const char* t : {"double", "bool", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "at::BFloat16",
                        "c10::BFloat16", "at::Half", "c10::Half", "at::Float8_e4m3fn", "c10::Float8_e5m2"}) {
    std::string elem = t;
    std::string w = kSmallCpuWrapper;
    for (int k = 0; k < 2; ++k) w = replaced(w, "const float* in_ptr0", "const " + elem + "* in_ptr0");
    w = replaced(w, "(const float*)(arg0_1.data_ptr())", "(" + elem + "*)(arg0_1.data_ptr())");
    w = replaced(w, "(float*)arg0_1.data_ptr()", "(const " + elem + "*)arg0_1.data_ptr()");
    w = replaced(w, "(const float*)(buf0.data_ptr()), (float*)(buf0.data_ptr()), -3",
                 "(const " + elem + "*)(buf0.data_ptr()), (float*)(buf0.data_ptr()), -3");
    expect_same_as_clang(w, 1, "element type " + elem);
  }
  for (const char* t : {"double", "bool", "int32_t", "float", "int8_t", "uint8_t"}) {
    std::string w = kSmallCpuWrapper;
    for (int k = 0; k < 2; ++k) w = replaced(w, "const int64_t ks0", std::string(t) + " ks0");
    expect_same_as_clang(w, 3, std::string("scalar parameter ") + t);
  }
  // A kernel defined before the entry (its definition is the declaration the call sees), and one
  // declared twice with other parameter names.
  {
    const FixtureWrapper& s2 = wrapper_of("s2_cpu_cppwrap", "forward");
    std::string w = s2.source;
    size_t def = w.find("#include <torch/csrc/inductor/cpp_prefix.h>\nextern \"C\"  void  cpp_fused_div_1");
    ASSERT_NE(def, std::string::npos);
    std::string kernel = w.substr(def, w.find("\n}\n", def) + 3 - def);
    w.erase(def, kernel.size());
    w = replaced(w, "extern \"C\"  void  cpp_fused_div_1(float* in_out_ptr0);\n", kernel);
    w = replaced(w, "CACHE_TORCH_DTYPE(float32);", "extern \"C\" void cpp_fused_div_1(float* out_ptr7);\nCACHE_TORCH_DTYPE(float32);");
    expect_same_as_clang(w, s2.first_line, "kernel defined before the entry");
  }
  // TORCH_CHECK, the prelude's variadic macro (`TORCH_CHECK(cond, ...)`), in a kernel body with one,
  // two and three arguments: Inductor writes two, a bounds check and its message.
  {
    const FixtureWrapper& s2 = wrapper_of("s2_cpu_cppwrap", "forward");
    const std::string def = "extern \"C\"  void  cpp_fused_div_1(float* in_out_ptr0)\n{\n";
    for (std::string args : {"in_out_ptr0", "in_out_ptr0 != nullptr, \"index out of bounds: 0 <= x0 < 600L\"",
                              "in_out_ptr0, \"a\", 1"}) {
      std::string w = replaced(s2.source, def, def + "    TORCH_CHECK(" + args + ");\n");
      expect_same_as_clang(w, s2.first_line, "TORCH_CHECK(" + args + ")");
    }
  }
  // CUDA: a launcher given nullptr for its stream, a scalar variable, a view of a handle.
  {
    const FixtureWrapper& s2 = wrapper_of("s2_cuda_cppwrap", "backward");
    std::string w = replaced(s2.source, "call_triton_per_fused_cumsum_div_flip_0(tangents_1, buf0, 40L, 15L, 0, stream0);",
                             "int64_t xs;\n    call_triton_per_fused_cumsum_div_flip_0(tangents_1, int_array_1, xs, 15L, 1, nullptr);");
    w = replaced(w, "reinterpret_tensor_wrapper(buf2,", "reinterpret_tensor_wrapper(buf2_handle,");
    expect_same_as_clang(w, s2.first_line, "CUDA launcher variants");
  }
}

// Anything outside the vocabulary declines, leaving the compile and the diagnostics untouched.
TEST(CppWrapperHand, DeclinesWhatItDoesNotKnow) {
  const std::string cpu = kSmallCpuWrapper;
  const FixtureWrapper& cuda = wrapper_of("s2_cuda_cppwrap", "backward");
  const std::string entry_line = "    auto buf2 = std::move(buf1);  // reuse\n";
  struct Case {
    std::string what, source;
  };
  std::vector<Case> cases = {
      {"empty", ""},
      {"garbage", "\x01\x02 not C++ at all {{{ ''' \xff"},
      {"no entry", cpu.substr(0, cpu.find("void inductor_entry_impl"))},
      {"truncated in the entry", cpu.substr(0, cpu.find("output_handles[0]"))},
      {"truncated in a kernel", cpu.substr(0, cpu.rfind("out_ptr0["))},
      {"unknown statement", replaced(cpu, entry_line, entry_line + "    int x = 3;\n")},
      {"if in the entry", replaced(cpu, entry_line, entry_line + "    if (true) { buf0.reset(); }\n")},
      {"stray #define in the entry", replaced(cpu, entry_line, entry_line + "#define X 1\n")},
      {"#if", replaced(cpu, "extern \"C\"  void  cpp_fused_mul_0(const float* in_ptr0,\n", "#if 1\n#endif\nextern \"C\"  void  cpp_fused_mul_0(const float* in_ptr0,\n")},
      {"# include", replaced(cpu, "#include <torch/csrc/inductor/cpp_wrapper/cpu.h>", "# include <x.h>")},
      {"#undef", replaced(cpu, "CACHE_TORCH_DEVICE(cpu);", "CACHE_TORCH_DEVICE(cpu);\n#undef C10_LIKELY")},
      {"unbalanced kernel body", replaced(cpu, "tmp0 * static_cast<float>(2.0); }", "tmp0 * static_cast<float>(2.0); ")},
      {"mismatched brackets", replaced(cpu, "(C10_LIKELY(x0 > 0))", "(C10_LIKELY[x0 > 0))")},
      {"macro with too many arguments", replaced(cpu, "C10_LIKELY(x0 > 0)", "C10_LIKELY(x0, 0)")},
      {"undeclared buffer", replaced(cpu, "output_handles[1] = buf2.release();", "output_handles[1] = buf9.release();")},
      {"redeclared local", replaced(cpu, entry_line, entry_line + "    AtenTensorHandle buf0_handle;\n")},
      {"wrong argument count", replaced(cpu, ", (float*)(buf0.data_ptr()), 16L);", ", (float*)(buf0.data_ptr()));")},
      {"const pointer to a written parameter", replaced(cpu, "(float*)(buf0.data_ptr()), 16L", "(const float*)(buf0.data_ptr()), 16L")},
      {"pointer of another type", replaced(cpu, "(const float*)(arg0_1.data_ptr()), (float*)", "(const double*)(arg0_1.data_ptr()), (float*)")},
      {"kernel declared twice differently", replaced(cpu, "CACHE_TORCH_DTYPE(float32);", "extern \"C\" void cpp_fused_mul_0(float* a, float* b, const int64_t c);\nCACHE_TORCH_DTYPE(float32);")},
      {"unknown parameter type", replaced(cpu, "const int64_t ks0);\nCACHE", "const std::vector<int> ks0);\nCACHE")},
      {"extern C block", replaced(cpu, "extern \"C\"  void  cpp_fused_mul_0(const float* in_ptr0,\n                       float* out_ptr0,\n                       const int64_t ks0);", "extern \"C\" { void cpp_fused_mul_0(const float* in_ptr0, float* out_ptr0, const int64_t ks0); }")},
      {"uncached dtype", replaced(cpu, "cached_torch_dtype_float32, cached", "cached_torch_dtype_bfloat16, cached")},
      {"CACHE_TORCH with a blank", replaced(cpu, "CACHE_TORCH_DTYPE(float32);", "CACHE_TORCH_DTYPE( float32 );")},
      {"carriage return", replaced(cpu, "py::gil_scoped_release_simple release;\n", "py::gil_scoped_release_simple release;\r\n")},
      {"unknown pragma", replaced(cpu, "#pragma GCC ivdep", "#pragma GCC poison foo")},
      {"line splice", replaced(cpu, "auto tmp0 = in_ptr0", "auto tmp0 = \\\n in_ptr0")},
      {"raw string", replaced(cpu, "auto tmp0 = in_ptr0[static_cast<int64_t>(x0)];", "auto s = R\"(x)\";")},
      {"digraph", replaced(cpu, "in_ptr0[static_cast<int64_t>(x0)]", "in_ptr0<:0:>")},
      {"_Pragma", replaced(cpu, "auto tmp0 = in_ptr0", "_Pragma(\"once\") auto tmp0 = in_ptr0")},
      {"a local named like a macro", replaced(cpu, "auto buf2 = std::move(buf1);", "auto AOTI_TORCH_SUCCESS = std::move(buf1);")},
      {"a local named like a kernel", replaced(cpu, "auto buf2 = std::move(buf1);", "auto cpp_fused_mul_0 = std::move(buf1);")},
      {"a move of the input vector", replaced(cpu, "auto buf2 = std::move(buf1);", "auto buf2 = std::move(inputs);")},
      {"output of a raw handle", replaced(cpu, "output_handles[1] = buf2.release();", "output_handles[1] = buf1_handle;")},
      {"macro used outside a body", replaced(cuda.source, "static CUfunction triton_per_fused_cumsum_div_flip_0 = nullptr;", "static CUfunction CUDA_DRIVER_CHECK = nullptr;")},
      {"launcher without its stream", replaced(cuda.source, "(tangents_1, buf0, 40L, 15L, 0, stream0)", "(tangents_1, buf0, 40L, 15L, 0)")},
      {"launcher stream of a wrong type", replaced(cuda.source, "(tangents_1, buf0, 40L, 15L, 0, stream0)", "(tangents_1, buf0, 40L, 15L, 0, buf0)")},
      {"launcher after the entry", replaced(cuda.source, "} // inductor_entry_impl", "} // inductor_entry_impl\ntemplate <typename T_> static inline void call_x(const T_& a) {}")},
      {"macro with a comma", replaced(cuda.source, "#define CUDA_DRIVER_CHECK(EXPR)", "#define COMMA ,\n#define CUDA_DRIVER_CHECK(EXPR)")},
      {"two entries", cpu + "\nvoid inductor_entry_impl(AtenTensorHandle* input_handles, AtenTensorHandle* output_handles) {}\n"},
  };
  for (auto& c : cases) expect_declined(c.source, c.what);
  // The reader is not at fault there: Clang reports each of these (those it parses).
#ifdef ILINT_HAVE_CLANG
  for (const char* what : {"undeclared buffer", "redeclared local", "wrong argument count", "uncached dtype",
                           "const pointer to a written parameter", "pointer of another type", "launcher without its stream",
                           "kernel declared twice differently"}) {
    for (auto& c : cases)
      if (c.what == what) EXPECT_FALSE(read_with(Reader::Clang, c.source, 7, true).returned) << what;
  }
#endif
}

// Every prefix of a wrapper cut at a line end: the hand reader never crashes, answers the same
// twice, and reads what it accepts as Clang does (no wrapper cut short of its entry's end is
// accepted: the entry or a kernel body is left open).
TEST(CppWrapperHand, EveryTruncationDeclinesOrReadsAsClang) {
  for (const FixtureWrapper* w : {&wrapper_of("s2_cpu_cppwrap", "backward"), &wrapper_of("s2_cuda_cppwrap", "forward")}) {
    size_t accepted = 0;
    for (size_t end = 0; end != std::string::npos && end < w->source.size(); end = w->source.find('\n', end + 1)) {
      std::string prefix = w->source.substr(0, end);
      Reading hand = read_with(Reader::Hand, prefix, w->first_line, true);
      EXPECT_EQ(read_with(Reader::Hand, prefix, w->first_line, true).text, hand.text);
      if (!hand.returned) {
        EXPECT_EQ(hand.text, untouched());
        continue;
      }
      ++accepted;
#ifdef ILINT_HAVE_CLANG
      Reading clang = read_with(Reader::Clang, prefix, w->first_line, true);
      EXPECT_TRUE(clang.returned) << "accepted a prefix Clang rejects, " << end << " bytes\n" << clang.text;
      EXPECT_EQ(hand.text, clang.text) << end << " bytes";
#endif
    }
    EXPECT_GE(accepted, 1u) << w->file;  // the whole wrapper, at least (and prefixes ending after a kernel)
  }
}

// Random damage: bytes replaced, inserted, deleted, lines duplicated or dropped, tokens of C++
// spliced in. Never a crash; whatever the hand reader accepts, Clang reads without an error
// into the same model. (Declining is always allowed: Clang then reads it.)
TEST(CppWrapperHand, MutatedWrappersDeclineOrReadAsClang) {
  static const FixtureWrapper small{"", "", kSmallCpuWrapper, 40};
  std::vector<const FixtureWrapper*> seeds = {&wrapper_of("s2_cpu_cppwrap", "forward"), &wrapper_of("s2_cuda_cppwrap", "forward"),
                                              &wrapper_of("s1_cpu_cppwrap", "model__0_"),
                                              &wrapper_of("cpu_vocab_int_ops_cppwrap", "model__0_"), &small};
  static const char* snippets[] = {"{", "}", "(", ")", "[", "]", ";", ",", "#define Y(a) a\n", "#pragma omp for\n",
                                   "C10_LIKELY(", "AOTI_TORCH_SUCCESS", "//", "/*", "*/", "\"", "'", "\\\n", "&", "*",
                                   "const ", "buf0", "inputs[1]", "nullptr", "0L", "-", "\n", "\r", "static ", "auto "};
  size_t accepted = 0, compared = 0;
  // ILINT_HAND_MUTATIONS=N runs N instead (a longer search than CI's).
  const char* runs_env = std::getenv("ILINT_HAND_MUTATIONS");
  const int kRuns = runs_env ? std::atoi(runs_env) : 1200;
  const unsigned seed = std::getenv("ILINT_HAND_SEED") ? static_cast<unsigned>(std::atoi(std::getenv("ILINT_HAND_SEED"))) : 20261202u;
  std::mt19937 rng(seed);
  for (int run = 0; run < kRuns; ++run) {
    const FixtureWrapper& w = *seeds[run % seeds.size()];
    std::string s = w.source;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !s.empty(); ++e) {
      size_t at = rng() % s.size();
      switch (rng() % 7) {
        case 0: s[at] = static_cast<char>(rng() % 256); break;
        case 1: s.insert(at, 1, static_cast<char>(32 + rng() % 95)); break;
        case 2: s.erase(at, 1 + rng() % 8); break;
        case 3: s.insert(at, snippets[rng() % (sizeof snippets / sizeof *snippets)]); break;
        case 4: {  // a line dropped or doubled
          size_t b = s.rfind('\n', at), e2 = s.find('\n', at);
          b = b == std::string::npos ? 0 : b + 1;
          e2 = e2 == std::string::npos ? s.size() : e2 + 1;
          std::string line = s.substr(b, e2 - b);
          if (rng() % 2) s.erase(b, e2 - b);
          else s.insert(b, line);
          break;
        }
        case 5: {  // a name replaced by another name of the wrapper (resolution, types)
          auto name_at = [&](size_t from) -> std::pair<size_t, size_t> {
            auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
            size_t b = from;
            while (b < s.size() && !(word(s[b]) && (b == 0 || !word(s[b - 1])) && !std::isdigit(static_cast<unsigned char>(s[b])))) ++b;
            size_t e = b;
            while (e < s.size() && word(s[e])) ++e;
            return {b, e};
          };
          auto [b, e2] = name_at(at);
          auto [ob, oe] = name_at(rng() % s.size());
          if (b < s.size() && ob < s.size()) s.replace(b, e2 - b, s.substr(ob, oe - ob));
          break;
        }
        default: {  // a token-ish piece of the wrapper copied elsewhere
          size_t from = rng() % s.size();
          s.insert(at, s.substr(from, 1 + rng() % 24));
        }
      }
    }
    Reading hand = read_with(Reader::Hand, s, w.first_line, true);
    if (!hand.returned) {
      ASSERT_EQ(hand.text, untouched()) << "run " << run;
      continue;
    }
    ++accepted;
#ifdef ILINT_HAVE_CLANG
    ++compared;
    Reading clang = read_with(Reader::Clang, s, w.first_line, true);
    ASSERT_TRUE(clang.returned) << "run " << run << ": accepted what Clang rejects\n" << s << "\n" << clang.text;
    ASSERT_EQ(hand.text, clang.text) << "run " << run << "\n" << s;
#endif
  }
  std::printf("mutations: %d runs, %zu accepted, %zu compared with Clang\n", kRuns, accepted, compared);
  EXPECT_GT(accepted, 0u);  // damage to comments and kernel bodies leaves readable wrappers
}

// build_compiles asks cpp_wrapper_hand_accepts about each wrapper of a run; the read that follows
// on the same thread takes the answer instead of parsing again. The source it finds is the one
// the output_code.py parser hands the reader.
TEST(CppWrapperHand, AnAcceptedWrapperIsParsedOnce) {
  const FixtureWrapper& w = wrapper_of("s1_cuda_cppwrap", "model__3_");
  uint64_t before = cpp_wrapper_hand_parses();
  ASSERT_TRUE(cpp_wrapper_hand_accepts(w.text));
  EXPECT_EQ(cpp_wrapper_hand_parses(), before + 1);
  ASSERT_TRUE(cpp_wrapper_hand_accepts(w.text));  // asked twice: the kept answer
  EXPECT_EQ(cpp_wrapper_hand_parses(), before + 1);
  Compile c;
  DiagSink diags;
  std::vector<size_t> to_read;
  ilint::testing::HandReadersScope hand(true);
  parse_output_code(w.file, w.text, c, diags, {&to_read});
  EXPECT_EQ(cpp_wrapper_hand_parses(), before + 1) << "the output_code.py parser's wrapper text is another";
  EXPECT_FALSE(c.launches.empty());
  EXPECT_FALSE(cpp_wrapper_hand_accepts("x = 1\n"));
#ifdef ILINT_HAVE_CLANG
  for (const FixtureWrapper& f : fixture_wrappers())  // what the Clang-side scanner finds too
    for (auto& s : find_embedded_cpp_sources(f.text))
      if (s.name == "cpp_wrapper_src") {
        EXPECT_EQ(s.source, f.source) << f.file;
        EXPECT_EQ(s.first_line, f.first_line) << f.file;
      }
#endif
}

// Without a Clang reader, a wrapper the hand reader takes is read, with no "not read" note.
TEST(CppWrapperHand, ReadsWithoutClang) {
  CppWrapperReader saved = cpp_wrapper_reader();
  set_cpp_wrapper_reader({});
  ilint::testing::HandReadersScope hand(true);
  const FixtureWrapper& w = wrapper_of("s2_cuda_cppwrap", "forward");
  Compile c;
  DiagSink diags;
  std::vector<size_t> to_read;
  parse_output_code(w.file, w.text, c, diags, {&to_read});
  for (auto& d : diags.sorted()) EXPECT_NE(d.code, "cpp-wrapper-skipped");
  EXPECT_EQ(c.launches.size(), 1u);
  EXPECT_EQ(c.device_type, "cuda");
  hand.set(false);  // ILINT_CPP_READER=clang: no reader left, so the note
  Compile c2;
  DiagSink diags2;
  parse_output_code(w.file, w.text, c2, diags2, {&to_read});
  bool skipped = false;
  for (auto& d : diags2.sorted()) skipped |= d.code == "cpp-wrapper-skipped";
  EXPECT_TRUE(skipped);
  EXPECT_TRUE(c2.launches.empty());
  set_cpp_wrapper_reader(saved);
}

#ifdef ILINT_HAVE_CLANG
// A whole analysis of the C++ captures is the same with the hand reader and with Clang alone,
// and with the hand reader taking every wrapper the wrapper batcher parses none.
TEST(CppWrapperHand, AnalysisIsTheSameWithAndWithoutTheHandReader) {
  std::vector<std::string> paths;
  for (const char* f : {"s1_cpu_cppwrap", "s1_cuda_cppwrap", "s2_cpu_cppwrap", "s2_cuda_cppwrap"})
    paths.push_back(ilint::testing::fixture(f));
  ilint::testing::HandReadersScope hand(false);
  std::string clang_only = ilint::testing::analysis_text(paths, 1);
  std::string clang_only_j2 = ilint::testing::analysis_text(paths, 2);
  hand.set(true);
  WrapperBatchStats before = wrapper_batch_stats();
  EXPECT_EQ(ilint::testing::analysis_text(paths, 1), clang_only);
  EXPECT_EQ(ilint::testing::analysis_text(paths, 2), clang_only_j2);
  EXPECT_EQ(wrapper_batch_stats().batches, before.batches);
  EXPECT_NE(clang_only.find("cpp_wrapper"), std::string::npos);
}
#endif

// Inputs fuzz_cpp_wrapper_hand found accepted by the hand reader and rejected or read otherwise by
// Clang (tests/unit/regressions/cpp_wrapper_hand_*): each is now declined untouched or read alike.
TEST(CppWrapperHand, SavedFuzzInputsKeepTheContract) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(ILINT_SOURCE_DIR) / "tests/unit/regressions")) {
    std::string name = e.path().filename().string();
    if (name.rfind("cpp_wrapper_hand_", 0) != 0) continue;
    ++n;
    std::string source = ilint::testing::read_all(e.path());
    Reading hand = read_with(Reader::Hand, source, 7, true);
    if (!hand.returned) {
      EXPECT_EQ(hand.text, untouched()) << name;
      continue;
    }
#ifdef ILINT_HAVE_CLANG
    Reading clang = read_with(Reader::Clang, source, 7, true);
    EXPECT_TRUE(clang.returned) << name << ": Clang reports errors";
    EXPECT_EQ(hand.text, clang.text) << name;
#endif
  }
  EXPECT_GE(n, 1u);
}
