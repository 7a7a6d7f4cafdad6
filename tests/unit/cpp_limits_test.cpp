// The limits on C++ text given to Clang (analyzer/cpp/cpp_limits.h): every C++ kernel and
// wrapper torch.compile wrote for the fixtures is far inside them, and code past them (deep
// operator chains, nested statements, macro bombs) is refused before Clang can crash or hang on
// it, with a diagnostic naming the line, while the rest of the capture is still analysed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_limits.h"
#include "analyzer/util/parallel.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// A kernel body around `stmt`, on line 4.
std::string kernel_with(const std::string& stmt) {
  return "#include <torch/csrc/inductor/cpp_prefix.h>\n"
         "extern \"C\" void kernel(const float* in_ptr0, float* out_ptr0)\n"
         "{\n" +
         stmt + "\n}\n";
}

struct Shape {
  const char* what;
  std::function<std::string(int)> stmt;  // the statement with `k` levels
};

// The shapes Clang recurses on.
std::vector<Shape> deep_shapes() {
  return {
      {"unary ~", [](int k) { return "auto t = " + repeat("~", k) + "1;"; }},
      {"unary -", [](int k) { return "auto t = " + repeat("- ", k) + "1;"; }},
      {"not", [](int k) { return "auto t = " + repeat("!", k) + "in_ptr0[0];"; }},
      {"deref", [](int k) { return "auto t = " + repeat("*", k) + "in_ptr0;"; }},
      {"a + a", [](int k) { return "auto t = in_ptr0[0]" + repeat(" + in_ptr0[0]", k) + ";"; }},
      {"comma operator", [](int k) { return "auto t = (in_ptr0[0]" + repeat(", in_ptr0[0]", k) + ");"; }},
      {"assignments", [](int k) { return "float a; a" + repeat(" = a", k) + ";"; }},
      {"ternary", [](int k) { return "auto t = in_ptr0[0]" + repeat(" ? 1.f : in_ptr0[0]", k) + ";"; }},
      {"calls", [](int k) { return "auto t = in_ptr0" + repeat("[0]", k) + ";"; }},
      {"nested if", [](int k) { return repeat("if (in_ptr0[0]) ", k) + "out_ptr0[0] = 1;"; }},
      {"else if chain", [](int k) { return "if (in_ptr0[0]) out_ptr0[0] = 0;" + repeat("\nelse if (in_ptr0[0]) out_ptr0[0] = 1;", k); }},
      {"else if chain with braces", [](int k) { return "if (in_ptr0[0]) { out_ptr0[0] = 0; }" + repeat(" else if (in_ptr0[0]) { out_ptr0[0] = 1; }", k); }},
      {"nested for", [](int k) { return repeat("for (int i = 0; i < 2; ++i) ", k) + "out_ptr0[0] = 1;"; }},
      {"nested do", [](int k) { return repeat("do ", k) + "out_ptr0[0] = 1;" + repeat(" while (0);", k); }},
      {"pointer declarator", [](int k) { return "float " + repeat("*", k) + " p = nullptr;"; }},
      {"lambdas inside unary chains", [](int k) { return "auto t = " + repeat("~[&]{ return 1; }() + ~", k / 4) + "1;"; }},
  };
}

// `#define <P>0 <leaf>`, then `#define <Pi> <Pi-1> <Pi-1>` up to <P><n> (whose definition ends with
// `last_extra`): <P><n> expands to 2^n leaves.
std::string doubling_macros(const std::string& p, const std::string& leaf, int n, const std::string& last_extra = "") {
  std::string out = "#define " + p + "0 " + leaf + "\n";
  for (int i = 1; i <= n; ++i) {
    std::string prev = p + std::to_string(i - 1);
    out += "#define " + p + std::to_string(i) + " " + prev + " " + prev + (i == n ? last_extra : "") + "\n";
  }
  return out;
}

// Copies fixture `name` to dst/name and returns the path of the copy's output_code.py in compile
// folder `compile` (empty when there is none).
fs::path copy_with_output_code(const fs::path& dst, const std::string& name, const std::string& compile) {
  fs::copy(fixture(name), dst / name, fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(dst / name))
    if (e.path().filename() == "output_code.py" && e.path().parent_path().filename() == compile) return e.path();
  return {};
}

}  // namespace

// The deepest C++ torch.compile wrote for the fixtures (kernels and cpp_wrapper sources) is
// printed, so a change of the scan that moves real code toward the limits shows in the log.
TEST(CppLimits, EveryRealKernelAndWrapperIsFarInside) {
  int sources = 0, deepest = 0;
  uint64_t most_macro_tokens = 0;
  int most_angles = 0;
  std::string deepest_name;
  for (const auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR)) {
    if (e.path().filename() != "output_code.py") continue;
    std::string text = read_all(e.path());
    for (const EmbeddedCppSource& src : find_embedded_cpp_sources(text)) {
      ++sources;
      CppTextMeasure m = measure_cpp_text(src.source);
      EXPECT_TRUE(m.refused_macro.empty()) << e.path() << " " << src.name << ": " << m.refused_macro;
      EXPECT_FALSE(check_cpp_limits(src.source)) << e.path() << " " << src.name;
      if (m.max_nesting > deepest) {
        deepest = m.max_nesting;
        deepest_name = e.path().string() + " " + src.name + " line " + std::to_string(m.max_nesting_line);
      }
      most_macro_tokens = std::max(most_macro_tokens, m.macro_tokens);
      most_angles = std::max(most_angles, m.max_open_angles);
    }
  }
  std::cout << "[ cpp limits ] " << sources << " C++ sources; deepest estimate " << deepest << " (" << deepest_name
            << "); most macro tokens " << most_macro_tokens << "; most `name<` open at once " << most_angles << "\n";
  EXPECT_GT(sources, 20);
  EXPECT_LE(deepest, kMaxCppNestingEstimate / 4);
  EXPECT_LE(most_macro_tokens, kMaxCppMacroTokens / 1000);
  EXPECT_LE(most_angles, kMaxOpenAngles / 2);
}

// Each shape Clang recurses on, just past the limit, is refused at its line; a tenth of it is not.
TEST(CppLimits, DeepShapesAreRefusedAtTheirLine) {
  const int n = kMaxCppNestingEstimate + 1;
  const std::vector<Shape> shapes = deep_shapes();
  for (const Shape& s : shapes) {
    std::optional<CppLimitBreach> deep = check_cpp_limits(kernel_with(s.stmt(n)));
    ASSERT_TRUE(deep.has_value()) << s.what;
    EXPECT_GE(deep->line, 4) << s.what;
    EXPECT_NE(deep->message.find("nests deeper than"), std::string::npos) << s.what;
    EXPECT_FALSE(check_cpp_limits(kernel_with(s.stmt(n / 10)))) << s.what;
  }
}

// What is not nesting does not count: statements in a row, blocks in a row, operators in
// comments and string literals, long argument and initializer lists of siblings.
TEST(CppLimits, SiblingsCommentsAndLiteralsDoNotAddUp) {
  const int many = kMaxCppNestingEstimate * 20;
  std::vector<std::pair<const char*, std::string>> ok = {
      {"statements", repeat("out_ptr0[0] = ~~in_ptr0[0] + 1;\n", many)},
      {"blocks", repeat("for (int i = 0; i < 2; ++i) { out_ptr0[i] = -in_ptr0[i]; }\n", many)},
      {"namespaces of kernels (a batch)", repeat("namespace n { extern \"C\" void k(const float* a) { a[0] + 1; } }\n", many)},
      {"structs", repeat("struct S { int a, b; } s;\n", many)},
      {"if/else pairs", repeat("if (in_ptr0[0]) { out_ptr0[0] = 0; } else { out_ptr0[0] = 1; }\n", many)},
      {"line comment", "// " + repeat("~", many) + "\nout_ptr0[0] = 1;"},
      {"block comment", "/* " + repeat("~(", many) + " */ out_ptr0[0] = 1;"},
      {"string", "const char* s = \"" + repeat("~(\\\"", many) + "\";"},
      {"raw string", "const char* s = R\"x(" + repeat("~(\")", many) + ")x\";"},
      {"char literals", repeat("out_ptr0[0] = '~';\n", many)},
      {"spliced comment", "// a comment \\\n" + repeat("~", many) + "\nout_ptr0[0] = 1;"},
      {"digit separators", "long x = 1'000'000;" + repeat("\nx = 1'0;", many)},
      {"directives", repeat("#pragma omp for " + repeat("~", 50) + "\n", many / 10) + "out_ptr0[0] = 1;"},
  };
  for (const auto& [what, body] : ok) {
    CppTextMeasure m = measure_cpp_text(kernel_with(body));
    EXPECT_LE(m.max_nesting, 40) << what;
    EXPECT_FALSE(check_cpp_limits(kernel_with(body))) << what;
  }
  // A raw string whose delimiter Clang refuses (a space, a newline, more than 16 characters) ends
  // at the next '"', as Clang's lexer skips to it (found by fuzz_cpp_limits).
  EXPECT_TRUE(check_cpp_limits(kernel_with("auto s = R\"a b\";\nauto t = " + repeat("~", many) + "1;")));
  EXPECT_TRUE(check_cpp_limits(kernel_with("auto s = R\"ab\n\" ;\nauto t = " + repeat("~", many) + "1;")));
  EXPECT_TRUE(check_cpp_limits(kernel_with("auto s = R\"" + std::string(17, 'd') + "\";\nauto t = " + repeat("~", many) + "1;")));
  EXPECT_FALSE(check_cpp_limits(kernel_with("auto s = R\"" + std::string(16, 'd') + "(\"" + repeat("~", many) + ")" + std::string(16, 'd') + "\";")));
  // A string that does not close ends at its line, as Clang takes it: the next line counts.
  EXPECT_TRUE(check_cpp_limits(kernel_with("const char* s = \"open\nauto t = " + repeat("~", many) + "1;")));
}

// `name<` open at once: more than 16 in one statement is refused; `>` closes one, `->`, `<<`, `<=`
// and a statement's end do not open or keep any; Inductor's own code has at most 2 open.
TEST(CppLimits, NameAngleChainsAreCountedPerStatement) {
  auto chain = [](int k) { return "auto t = static_cast<" + repeat("intcast<", k) + "int>(in_ptr0[0]);"; };
  std::optional<CppLimitBreach> b = check_cpp_limits(kernel_with(chain(16)));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->line, 4);
  EXPECT_NE(b->message.find("`name<` open at once"), std::string::npos);
  EXPECT_FALSE(check_cpp_limits(kernel_with(chain(14))));
  EXPECT_EQ(measure_cpp_text(kernel_with(chain(14))).max_open_angles, 15);
  // Closed ones, other statements, shifts, <=, -> and >> do not add up.
  EXPECT_FALSE(check_cpp_limits(kernel_with(repeat("auto t = static_cast<int64_t>(x) << 2;\n", 100))));
  EXPECT_FALSE(check_cpp_limits(kernel_with("auto t = " + repeat("static_cast<float>(x) + ", 100) + "0;")));
  EXPECT_FALSE(check_cpp_limits(kernel_with("auto t = " + repeat("a <= b && p->q > 1 && ", 30) + "1;")));
  EXPECT_FALSE(check_cpp_limits(kernel_with("std::vector<std::vector<int>> v; " + repeat("auto t = a < b;\n", 40))));
  EXPECT_EQ(measure_cpp_text(kernel_with("auto t = x0 < static_cast<int64_t>(16L) && x1 < static_cast<int64_t>(4L);")).max_open_angles, 3);
}

// Macros: what a use expands to counts, with the definitions in force; a bomb is refused where
// its size passes the limit; a definition whose expansion the scan cannot bound is refused.
TEST(CppLimits, MacrosCountAsWhatTheyExpandTo) {
  std::string code = kernel_with(doubling_macros("A", "in_ptr0[0] +", 30) + "auto t = A30 1;");
  std::optional<CppLimitBreach> b = check_cpp_limits(code);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->line, 4 + 31);
  EXPECT_NE(b->message.find("expand to more than"), std::string::npos);
  // Twenty doublings, one use: 2^20 tokens, under the token limit, but each level an operator.
  const std::string small = doubling_macros("B", "~", 20);
  EXPECT_TRUE(check_cpp_limits(kernel_with(small + "auto t = B20 1;")));
  EXPECT_FALSE(check_cpp_limits(kernel_with(small + "auto t = 1;")));  // defined, not used
  // A macro of ten operators used 200 times in one statement.
  EXPECT_TRUE(check_cpp_limits(kernel_with("#define T ~~~~~~~~~~\nauto t = " + repeat("T ", 200) + "1;")));
  EXPECT_FALSE(check_cpp_limits(kernel_with("#define T ~~~~~~~~~~\n" + repeat("auto t = T 1;\n", 200))));
  // Defined later than the use: not expanded there.
  EXPECT_FALSE(check_cpp_limits(kernel_with("auto t = " + repeat("T ", 200) + "1;\n#define T ~~~~~~~~~~")));
  // #undef ends it.
  EXPECT_FALSE(check_cpp_limits(kernel_with("#define T ~~~~~~~~~~\n#undef T\nauto t = " + repeat("T ", 200) + "1;")));
  // Self- and mutually-referring macros expand once (the preprocessor does not re-expand a name inside itself).
  EXPECT_FALSE(check_cpp_limits(kernel_with("#define X Y + 1\n#define Y X + 1\nauto t = X;")));
  // A cycle does not hide a bomb: B's cost met A20 while A20 was being costed (one token there),
  // but used alone B expands to A20's 2^20 tokens; 1000 uses of it are 2^30.
  const std::string doubling = doubling_macros("A", "1", 20, " B");
  EXPECT_TRUE(check_cpp_limits(kernel_with(doubling + "#define B A20\nauto t = A20 1;\n" + repeat("auto u = B 1;\n", 1000))));
  EXPECT_FALSE(check_cpp_limits(kernel_with(doubling + "#define B A20\nauto t = A20 1;\n")));
  // Every cost in one cycle (nothing can be kept), doubling twenty times: the costing stops at its
  // work bound instead of running 2^20 times, and the source is refused.
  const std::string cycle = doubling_macros("C", "C20", 20);
  EXPECT_TRUE(check_cpp_limits(kernel_with(cycle + "auto t = C20 1;")));
  // Unbounded by a scan: a parameter used twice (D(D(D(x))) doubles at every level), `##`.
  std::optional<CppLimitBreach> twice = check_cpp_limits(kernel_with("#define D(x) x x\nauto t = D(D(1));"));
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->line, 4);
  EXPECT_NE(twice->message.find("macro D"), std::string::npos);
  EXPECT_TRUE(check_cpp_limits(kernel_with("#define V(...) __VA_ARGS__ __VA_ARGS__\n")));
  EXPECT_TRUE(check_cpp_limits(kernel_with("#define CAT(a, b) a##b\n")));
  // Inductor's own macro (cpp_wrapper on CUDA) uses its parameter once.
  EXPECT_FALSE(check_cpp_limits(kernel_with(
      "#define CUDA_DRIVER_CHECK(EXPR)                    \\\n"
      "do {                                               \\\n"
      "    CUresult code = EXPR;                          \\\n"
      "    if (code != CUDA_SUCCESS) {                    \\\n"
      "        throw std::runtime_error(\"CUDA driver error\"); \\\n"
      "    }                                              \\\n"
      "} while (0);\n"
      "CUDA_DRIVER_CHECK(cuModuleLoad(&mod, path));")));
}

// Through the analyzer: a capture whose C++ kernel holds a 200,000-term chain or 5,000 unary
// operators (each crashed the analyzer before these limits), or a macro bomb (ran for minutes at
// gigabytes), ends with the kernel's diagnostic at its line; its signature is still read, and the
// capture's other compiles and findings are still there.
TEST(CppLimits, AnalyzerRefusesTheKernelAndReadsTheRest) {
  const std::string old_stmt = "auto tmp2 = float(tmp0 + tmp1);";
  std::vector<std::pair<std::string, std::string>> cases = {
      {"chain", "auto tmp2 = float(tmp0" + repeat(" + tmp1", 200000) + ");"},
      {"tildes", "auto tmp2 = float(" + repeat("~", 5000) + "1);"},
  };
  // `cast<intcast<intcast<...` 28 deep (an end-to-end mutation run made it): Clang's parser tried
  // each `name<` both ways, 1.8 s at 20, 27 s at 24, past 30 s at 28, 1.3 GB.
  cases.push_back({"name< chain", "auto tmp2 = static_cast<" + repeat("intcast<", 28) + "int>(tmp0);"});
  cases.push_back({"macro bomb", doubling_macros("A", "tmp1 +", 30) + "auto tmp2 = float(A30 tmp0);"});
  Analysis base;
  run_analysis({fixture("s1_cpu")}, base);
  for (const auto& [what, stmt] : cases) {
    TempDir t;
    fs::path oc = copy_with_output_code(t.path, "s1_cpu", "model__0_inference_0.0");
    ASSERT_FALSE(oc.empty());
    std::string text = read_all(oc);
    size_t at = text.find(old_stmt);
    ASSERT_NE(at, std::string::npos);
    int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    if (what == "macro bomb") line += 31;  // the use, after the 31 definitions
    text.replace(at, old_stmt.size(), stmt);
    write_all(oc, text);
    // With the size limit off: the chain is 1.4 MB, and each limit of the reader must hold where
    // a user raised --max-kernel-bytes.
    Analysis a;
    AnalyzeOptions opts;
    opts.paths = {(t.path / "s1_cpu").string()};
    opts.jobs = 2;
    opts.max_kernel_bytes = 0;
    analyze(opts, a);
    std::optional<Diagnostic> d;
    for (const auto& x : a.diags.sorted())
      if (x.code == "cpp-kernel-parse" && x.message.find("not read by Clang") != std::string::npos) d = x;
    ASSERT_TRUE(d.has_value()) << what;
    EXPECT_EQ(d->loc.line, line) << what << ": " << d->message;
    EXPECT_NE(d->loc.file.find("model__0_inference_0.0/output_code.py"), std::string::npos) << what;
    ASSERT_EQ(a.program.compiles.size(), base.program.compiles.size()) << what;
    for (const auto& c : a.program.compiles)
      for (const auto& k : c.kernels) EXPECT_FALSE(k.params.empty()) << what << " " << k.name;
    EXPECT_EQ(findings_of(a, "scalar-recompile").size(), findings_of(base, "scalar-recompile").size()) << what;
  }
}

// The limit is low enough for Clang: every shape, at the most levels the scan lets through, is
// parsed and read on the analyzer's kind of thread (WorkerThread, parallel.h: the CLI's run and its
// pools) without overflowing it. On a plain 8 MB thread this passes in a normal build, but not
// under ASan (the pointer-declarator shape overflowed in RecursiveASTVisitor's TypeLoc walk).
TEST(CppLimits, ClangReadsEveryShapeJustInsideTheLimit) {
  WorkerThread worker([] {
    for (const Shape& s : deep_shapes()) {
      int lo = 1, hi = kMaxCppNestingEstimate * 4;  // the most levels that pass: the estimate grows with k
      while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (check_cpp_limits(kernel_with(s.stmt(mid)))) hi = mid - 1;
        else lo = mid;
      }
      Kernel k;
      k.name = "kernel";
      k.source = kernel_with(s.stmt(lo));
      k.source_first_line = 1;
      DiagSink diags;
      read_cpp_kernel_clang(k, "output_code.py", diags);
      for (const auto& d : diags.sorted())
        EXPECT_EQ(d.message.find("not read by Clang"), std::string::npos) << s.what << " at " << lo << ": " << d.message;
      EXPECT_GE(lo, kMaxCppNestingEstimate / 8) << s.what;  // the scan lets real nesting through
    }
  });
  worker.join();
}

// Clang's debug pragmas crash, abort or hang the process on purpose (`#pragma clang __debug crash`
// raised SIGILL in the analyzer, `llvm_fatal_error` aborted it, `overflow_stack` ran until
// stopped); the reader turns them off (PreprocessorOptions::DisablePragmaDebugCrash, as clangd
// does), so a kernel holding one is read like the same kernel without it.
namespace {

// A kernel read by Clang: loads * 100 + stores, the diagnostics, and what reached stderr meanwhile.
struct ClangRead {
  size_t accesses = 0;
  size_t diags = 0;
  std::string err;
};
ClangRead read_by_clang(const std::string& src) {
  Kernel k;
  k.name = "kernel";
  k.source = src;
  k.source_first_line = 1;
  DiagSink diags;
  ::testing::internal::CaptureStderr();
  read_cpp_kernel_clang(k, "output_code.py", diags);
  ClangRead r;
  r.err = ::testing::internal::GetCapturedStderr();
  r.accesses = k.loads.size() * 100 + k.stores.size();
  r.diags = diags.sorted().size();
  return r;
}

}  // namespace

TEST(CppLimits, ClangDebugPragmasDoNothing) {
  const std::string body = "out_ptr0[0] = in_ptr0[0] + 1.0f;";
  auto read = [](const std::string& src) {
    ClangRead r = read_by_clang(src);
    return std::make_pair(r.accesses, r.diags);
  };
  auto plain = read(kernel_with(body));
  ASSERT_EQ(plain.first, 101u);  // one load, one store
  for (std::string p : {"crash", "llvm_fatal_error", "overflow_stack", "assert", "llvm_unreachable", "handle_crash",
                        "parser_crash"}) {
    EXPECT_EQ(read(kernel_with("#pragma clang __debug " + p + "\n" + body)), plain) << p;
    EXPECT_EQ(read(kernel_with("_Pragma(\"clang __debug " + p + "\")\n" + body)), plain) << p;
  }
}

// Turned off, some debug pragmas still wrote to the process's stderr, differently each run: `crash`
// times itself and LLVM printed its timer table, `diag_mapping` dumps object addresses, `macro` and
// `dump` dump. Found by tests/fuzz/mutate_captures.py --determinism (-j1 and -j2 stderr differed).
TEST(CppLimits, ClangDebugPragmasWriteNothing) {
  const std::string body = "out_ptr0[0] = in_ptr0[0] + 1.0f;";
  auto stderr_of = [](const std::string& src) {
    ClangRead r = read_by_clang(src);
    return std::make_pair(r.err, r.accesses);
  };
  for (std::string p : {"crash", "diag_mapping", "macro X", "dump out_ptr0"}) {
    for (const std::string& spelled :
         {"#pragma clang __debug " + p + "\n", "_Pragma(\"clang  __debug " + p + "\")\n",
          "#define P(x) _Pragma(#x)\nP(clang\t__debug " + p + ")\n"}) {
      auto [err, read] = stderr_of(kernel_with(spelled + body));
      EXPECT_EQ(err, "") << spelled;
      EXPECT_EQ(read, 101u) << spelled;
    }
  }
  // A variable named __debug is left alone (only `clang __debug` is respelled).
  auto [err, read] = stderr_of(kernel_with("float __debug = in_ptr0[0]; out_ptr0[0] = __debug;"));
  EXPECT_EQ(err, "");
  EXPECT_EQ(read, 101u);
}

// A kernel's own `#line` past any real line (2147483647 here) gave a diagnostic at line
// -2147483617: Clang's presumed line, moved to the file's line, overflowed an int. Lines past
// 2^26 are now taken as unknown, and the kernel's definition line stands in.
TEST(CppLimits, LineDirectivesPastAnyRealLineAreUnknown) {
  for (std::string n : {"2147483647", "4294967295", "67108865"}) {
    Kernel k;
    k.name = "kernel";
    k.source = kernel_with("#line " + n + "\nout_ptr0[0] = in_ptr0[0] + 1.0f; undeclared_thing = 1;");
    k.source_first_line = 100;
    k.def_loc = SourceLoc{"output_code.py", 99, 1};
    DiagSink diags;
    read_cpp_kernel_clang(k, "output_code.py", diags);
    ASSERT_FALSE(diags.sorted().empty()) << n;
    for (const auto& d : diags.sorted()) EXPECT_GT(d.loc.line, 0) << n << ": " << d.message;
    ASSERT_FALSE(k.loads.empty()) << n;
    for (const auto& m : k.loads) EXPECT_GT(m.loc.line, 0) << n;
    for (const auto& m : k.stores) EXPECT_GT(m.loc.line, 0) << n;
    for (const auto& st : k.stmts) EXPECT_GT(st.loc.line, 0) << n;
  }
}

// Clang's typo correction tries every combination of the corrections it finds for misspelled
// names in one expression: `auto buf3 = std::movef3 = ... = std::move(buf2);` (a mutated C++
// wrapper, tests/fuzz/mutate_captures.py) ran past 2 minutes at 3.6 GB and more; clang++ alone
// takes 0.25 s at 20 links, 2.3 s and 1.3 GB at 24. Parses run with -fno-spell-checking: the
// error names the undeclared name and offers no correction, at once.
TEST(CppLimits, MisspelledNamesAreNotCorrected) {
  auto errors_of = [](const std::string& stmts) {
    Kernel k;
    k.name = "kernel";
    k.source = kernel_with(stmts);
    k.source_first_line = 1;
    DiagSink diags;
    read_cpp_kernel_clang(k, "output_code.py", diags);
    return k.parse_errors;
  };
  // First the evidence, which fails at once where correction is on (and stops the test before the
  // chain below, which would then run for hours).
  std::vector<std::string> one = errors_of("float tmp0 = in_ptr0[0];\nauto tmp4 = tmq0;\nout_ptr0[0] = tmp4;");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_NE(one[0].find("undeclared identifier 'tmq0'"), std::string::npos) << one[0];
  ASSERT_EQ(one[0].find("did you mean"), std::string::npos) << one[0];
  std::vector<std::string> chain =
      errors_of("float tmp0 = in_ptr0[0];\nauto tmp3 = " + repeat("std::movef3 = ", 33) + "tmp0;\nout_ptr0[0] = tmp3;");
  ASSERT_FALSE(chain.empty());
  for (const std::string& e : chain) EXPECT_EQ(e.find("did you mean"), std::string::npos) << e;
}

// Template instantiation nests on Clang's stack too: a kernel source declaring
// `template<int N> struct G { G<N-1> a, b; };` and a `G<1000>` crashed the analyzer (SIGSEGV,
// Clang's default depth is 1024). Parses allow 128 levels (-ftemplate-depth=128; Inductor's
// kernels and the prelude need a few), so it ends in an error naming the limit.
TEST(CppLimits, DeepTemplateInstantiationStopsAtItsLimit) {
  Kernel k;
  k.name = "kernel";
  k.source = "template<int N> struct G { G<N-1> a, b; };\ntemplate<> struct G<0> {};\n" +
             kernel_with("G<1000>* g = nullptr; out_ptr0[0] = sizeof(*g);");
  k.source_first_line = 1;
  DiagSink diags;
  read_cpp_kernel_clang(k, "output_code.py", diags);
  bool depth = false;
  for (const auto& d : diags.sorted()) depth |= d.message.find("maximum depth of 128") != std::string::npos;
  EXPECT_TRUE(depth);
}

// The CLI raises its soft stack limit to the pool threads' size, or, under a hard limit, runs on a
// thread of that size, so a kernel just inside the nesting limit is read whatever `ulimit -s` says:
// under 1 MB it crashed (SIGSEGV) before.
TEST(CppLimits, TheCliReadsDeepKernelsUnderASmallStackLimit) {
  TempDir t;
  fs::path oc = copy_with_output_code(t.path, "s1_cpu", "model__0_inference_0.0");
  ASSERT_FALSE(oc.empty());
  std::string text = read_all(oc);
  const std::string old_stmt = "auto tmp2 = float(tmp0 + tmp1);";
  size_t at = text.find(old_stmt);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, old_stmt.size(), "auto tmp2 = float(" + repeat("~", kMaxCppNestingEstimate - 20) + "1);");
  write_all(oc, text);
  for (std::string limit : {"ulimit -S -s 1024", "ulimit -s 1024"}) {  // soft only; soft and hard
    std::string out;
    int rc = run_command("(" + limit + " && " + std::string(ILINT_BINARY) + " " + (t.path / "s1_cpu").string() +
                             " --format json --fail-on never -j1 2>/dev/null)",
                         &out);
    EXPECT_EQ(rc, 0) << limit;
    auto j = nlohmann::json::parse(out);
    for (const auto& d : j["diagnostics"])
      EXPECT_EQ(d["message"].get<std::string>().find("not read by Clang"), std::string::npos) << limit;
  }
}

// The same for a C++ wrapper (cpp_wrapper=True): the wrapper past the limit gets one
// `cpp-wrapper-parse` diagnostic at the statement's line of output_code.py, and the capture's other
// compile is still read (s2_cpu_cppwrap's scan finding comes from the forward compile).
TEST(CppLimits, AWrapperPastTheLimitIsNotReadAndTheRestIs) {
  TempDir t;
  fs::path oc = copy_with_output_code(t.path, "s2_cpu_cppwrap", "model__0_backward_3.1");
  ASSERT_FALSE(oc.empty());
  std::string text = read_all(oc);
  size_t entry = text.find("void inductor_entry_impl(");
  ASSERT_NE(entry, std::string::npos);
  size_t body = text.find('{', entry) + 1;
  text.insert(body, "\n    auto deep = " + repeat("~", 5000) + "1;\n");
  int line = 2 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(body), '\n'));
  write_all(oc, text);
  Analysis a;
  run_analysis({(t.path / "s2_cpu_cppwrap").string()}, a);
  int refused = 0;
  for (const auto& d : a.diags.sorted()) {
    if (d.code != "cpp-wrapper-parse" || d.message.find("not read by Clang") == std::string::npos) continue;
    ++refused;
    EXPECT_EQ(d.loc.line, line) << d.message;
    EXPECT_NE(d.message.find("model__0_backward_3.1"), std::string::npos) << d.message;
  }
  EXPECT_EQ(refused, 1);
  EXPECT_FALSE(findings_of(a, "reduced-precision-scan").empty());
}
