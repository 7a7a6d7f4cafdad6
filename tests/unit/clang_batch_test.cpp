// The Clang kernel reader's batches (several kernels per Clang run, kernel_reader.cpp): a
// batch must give each kernel exactly what parsing it alone gives, on every real C++ kernel
// of the fixtures; a kernel Clang rejects must not change its batch-mates; kernels with
// macros are parsed alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analyzer/cpp/clang/clang_reader.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace ilint;

namespace {

std::string loc_text(const SourceLoc& l) { return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.column); }

// Every fact the reader fills, with its location, as one string.
std::string facts(const Kernel& k) {
  std::ostringstream os;
  os << "kind " << static_cast<int>(k.kind) << " body " << loc_text(k.body_loc) << "\n";
  for (auto& p : k.params)
    os << "param " << p.name << " " << static_cast<int>(p.dtype) << " " << p.is_pointer << p.is_const << p.is_restrict
       << " [" << p.type_text << "]\n";
  for (auto* v : {&k.loads, &k.stores})
    for (auto& m : *v)
      os << (v == &k.loads ? "load " : "store ") << m.var << " " << m.ptr << "[" << m.index << "] "
         << static_cast<int>(m.value_dtype) << m.vectorized << " " << loc_text(m.loc) << "\n";
  for (auto& c : k.casts) os << "cast " << c.var << " " << c.src << " " << static_cast<int>(c.to) << " " << loc_text(c.loc) << "\n";
  for (auto& l : k.literals) os << "lit " << l.text << " " << l.value << " " << l.var << " " << loc_text(l.loc) << "\n";
  for (auto& r : k.reductions)
    os << "reduce " << r.is_scan << " " << r.combine << " " << r.input_var << " " << r.result_var << " "
       << static_cast<int>(r.compute_dtype) << static_cast<int>(r.accumulator_dtype) << " " << r.length << " "
       << r.length_expr << " " << loc_text(r.loc) << "\n";
  for (auto& s : k.stmts) {
    os << "stmt " << s.var << " = " << s.op << "(";
    for (auto& o : s.operands) os << o << ",";
    os << ") " << loc_text(s.loc) << "\n";
  }
  for (auto& e : k.parse_errors) os << "error " << e << "\n";
  return os.str();
}

struct FixtureKernel {
  Kernel kernel;
  std::string file;
};

// Every cpp_pybinding kernel of every fixture, one per distinct source.
std::vector<FixtureKernel> fixture_kernels() {
  std::vector<FixtureKernel> out;
  std::set<std::string> seen;
  std::vector<fs::path> files;
  for (auto& e : fs::recursive_directory_iterator(ILINT_FIXTURES_DIR))
    if (e.path().filename() == "output_code.py") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (auto& f : files)
    for (auto& s : find_embedded_cpp_sources(ilint::testing::read_all(f))) {
      if (s.name == "cpp_wrapper_src" || !seen.insert(s.source).second) continue;
      Kernel k;
      k.name = s.name;
      k.backend = KernelBackend::Cpp;
      k.source = s.source;
      k.source_first_line = s.first_line;
      k.def_loc = SourceLoc{f.string(), s.def_line, 1};
      out.push_back({k, f.string()});
    }
  return out;
}

// Each kernel read alone (one Clang run each, cold), as facts; the kernels are not changed.
std::vector<std::string> facts_alone(const std::vector<FixtureKernel>& kernels, DiagSink& diags) {
  clear_clang_parse_cache();
  std::vector<std::string> out;
  for (auto fk : kernels) {
    read_cpp_kernel_clang(fk.kernel, fk.file, diags);
    out.push_back(facts(fk.kernel));
  }
  return out;
}

// The kernels read together on one thread (batched, cold); returns the reader's counters.
ClangParseStats read_batched(std::vector<FixtureKernel>& kernels, DiagSink& diags) {
  clear_clang_parse_cache();
  auto before = clang_parse_stats();
  std::vector<CppKernelJob> jobs;
  for (auto& fk : kernels) jobs.push_back({&fk.kernel, fk.file});
  read_cpp_kernels_clang(jobs, diags, 1);
  auto after = clang_parse_stats();
  return ClangParseStats{after.parses - before.parses, after.clang_runs - before.clang_runs,
                         after.batch_fallbacks - before.batch_fallbacks, after.cache_hits - before.cache_hits, 0};
}

}  // namespace

TEST(ClangBatch, EveryFixtureKernelGetsWhatItsOwnParseGives) {
  auto kernels = fixture_kernels();
  ASSERT_GE(kernels.size(), 10u);

  DiagSink alone_diags, batch_diags;
  std::vector<std::string> alone = facts_alone(kernels, alone_diags);
  // Batched: every kernel in as few Clang runs as the batch limits allow.
  ClangParseStats st = read_batched(kernels, batch_diags);
  EXPECT_EQ(st.parses, kernels.size());
  EXPECT_LT(st.clang_runs, kernels.size() / 4) << "kernels were not batched";
  EXPECT_EQ(st.batch_fallbacks, 0u);
  for (size_t i = 0; i < kernels.size(); ++i) {
    EXPECT_EQ(facts(kernels[i].kernel), alone[i]) << kernels[i].kernel.name << " in " << kernels[i].file;
    // the parse filled the kernel's accesses (a kernel of no input, an arange, only stores)
    EXPECT_FALSE(kernels[i].kernel.loads.empty() && kernels[i].kernel.stores.empty()) << kernels[i].kernel.name;
  }
  EXPECT_EQ(batch_diags.size(), alone_diags.size());
  EXPECT_EQ(batch_diags.size(), 0u);
}

TEST(ClangBatch, AKernelClangRejectsDoesNotChangeItsBatchMates) {
  auto kernels = fixture_kernels();
  ASSERT_GE(kernels.size(), 4u);
  kernels.resize(4);
  // Kernel 1 loses its closing brace: in a shared translation unit it would swallow kernel 2.
  Kernel& broken = kernels[1].kernel;
  size_t last = broken.source.rfind('}');
  ASSERT_NE(last, std::string::npos);
  broken.source.erase(last, 1);

  DiagSink alone_diags, diags;
  std::vector<std::string> alone = facts_alone(kernels, alone_diags);
  ClangParseStats st = read_batched(kernels, diags);
  EXPECT_EQ(st.batch_fallbacks, 1u);
  for (size_t i = 0; i < kernels.size(); ++i) EXPECT_EQ(facts(kernels[i].kernel), alone[i]) << i;
  ASSERT_FALSE(broken.parse_errors.empty());
  // The diagnostic names the broken kernel, and only it.
  bool named = false;
  for (auto& d : diags.sorted()) {
    EXPECT_NE(d.message.find(broken.name), std::string::npos) << d.message;
    named |= d.code == "cpp-kernel-parse";
  }
  EXPECT_TRUE(named);
  for (size_t i : {0, 2, 3}) EXPECT_TRUE(kernels[i].kernel.parse_errors.empty()) << i;
}

TEST(ClangBatch, KernelsWithMacrosAreParsedAlone) {
  auto kernels = fixture_kernels();
  ASSERT_GE(kernels.size(), 3u);
  kernels.resize(3);
  // A macro in kernel 0 would leak into the kernels after it in a shared translation unit.
  Kernel& with_macro = kernels[0].kernel;
  with_macro.source = "#define in_ptr0 in_ptr0\n" + with_macro.source;
  with_macro.source_first_line -= 1;

  DiagSink diags;
  ClangParseStats st = read_batched(kernels, diags);
  // One run for the macro kernel alone, one for the other two together.
  EXPECT_EQ(st.clang_runs, 2u);
  EXPECT_EQ(st.parses, 3u);
  EXPECT_EQ(diags.size(), 0u);
  for (auto& fk : kernels) EXPECT_FALSE(fk.kernel.loads.empty()) << fk.kernel.name;
}

// Directives Clang sees but a line-by-line look for a leading '#' would miss: one after a block
// comment, one after a lone carriage return (a line end to Clang), and the digraph `%:`. Each
// defines `float` as `double` ahead of kernel 0, which would silently change the casts and dtypes
// of the kernels after it in a shared translation unit.
TEST(ClangBatch, HiddenDirectivesStillMakeAKernelParseAlone) {
  for (std::string hidden : {"/* note */ #define float double\n", "int ilint_x;\r#define float double\n",
                             "%:define float double\n"}) {
    auto kernels = fixture_kernels();
    ASSERT_GE(kernels.size(), 3u);
    kernels.resize(3);
    Kernel& with_macro = kernels[0].kernel;
    with_macro.source = hidden + with_macro.source;
    with_macro.source_first_line -= hidden.find('\r') != std::string::npos ? 2 : 1;

    DiagSink alone_diags, diags;
    std::vector<std::string> alone = facts_alone(kernels, alone_diags);
    ClangParseStats st = read_batched(kernels, diags);
    EXPECT_EQ(st.clang_runs, 2u) << hidden;
    for (size_t i = 0; i < kernels.size(); ++i) EXPECT_EQ(facts(kernels[i].kernel), alone[i]) << hidden << " kernel " << i;
  }
}
