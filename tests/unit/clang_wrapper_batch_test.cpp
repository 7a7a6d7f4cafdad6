// The Clang wrapper reader's batches (several cpp_wrapper=True wrappers per Clang run,
// wrapper_reader.cpp): a wrapper read from a batch must give exactly what parsing it alone
// gives, on every real C++ wrapper of the fixtures; a wrapper Clang rejects must not change its
// batch-mates; a macro one wrapper defines must not reach another; wrappers that define the same
// extern "C" kernel must not share a Clang run; a whole analysis is the same with and without
// batches.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/model/program.h"
#include "analyzer/cpp/cpp_hand.h"
#include "analyzer/report/dump_model.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace ilint;

namespace {

using ilint::testing::FixtureWrapper;
using ilint::testing::fixture_wrappers;

// Everything the wrapper reader filled in a compile (the --dump-model text) and every
// diagnostic it reported.
std::string read_wrapper(const FixtureWrapper& w, const std::string& source) {
  Program p;
  p.compiles.emplace_back();
  Compile& c = p.compiles.back();
  c.id = fs::path(w.file).parent_path().filename().string();
  DiagSink diags;
  std::vector<size_t> kernels_to_read;
  read_cpp_wrapper_clang(c, source, w.first_line, w.file, diags, &kernels_to_read);
  std::ostringstream os;
  dump_compiles(p, os);
  for (size_t k : kernels_to_read) os << "kernel to read: " << k << "\n";
  for (auto& d : diags.sorted())
    os << "diag " << d.code << " " << d.message << " " << d.loc.line << ":" << d.loc.column << "\n";
  return os.str();
}

WrapperBatchStats since(const WrapperBatchStats& before) {
  WrapperBatchStats now = wrapper_batch_stats();
  return {now.batches - before.batches, now.batched - before.batched, now.fallbacks - before.fallbacks};
}

// Reads `sources` (wrapper i's source in place of fixture wrapper i's) alone, then all prepared
// together on this thread; returns the two readings and the batch counters of the second.
struct Readings {
  std::vector<std::string> alone, batched;
  WrapperBatchStats stats;
};
Readings read_both_ways(const std::vector<FixtureWrapper>& ws, const std::vector<std::string>& sources) {
  Readings r;
  for (size_t i = 0; i < ws.size(); ++i) r.alone.push_back(read_wrapper(ws[i], sources[i]));
  // The batcher is handed whole output_code.py texts: the wrapper string sits in one.
  std::vector<std::string> texts;
  for (auto& s : sources) texts.push_back("cpp_wrapper_src = (\nr'''" + s + "'''\n)\n");
  std::vector<std::string_view> views(texts.begin(), texts.end());
  WrapperBatchStats before = wrapper_batch_stats();
  {
    std::shared_ptr<void> prepared = prepare_cpp_wrappers_clang(views);
    for (size_t i = 0; i < ws.size(); ++i) r.batched.push_back(read_wrapper(ws[i], sources[i]));
  }
  r.stats = since(before);
  return r;
}

// The first `n` wrappers of the CUDA cpp_wrapper captures (no extern "C" kernels: any two can share a run).
std::vector<FixtureWrapper> cuda_wrappers(size_t n) {
  std::vector<FixtureWrapper> out;
  for (auto& w : fixture_wrappers())
    if (w.file.find("cuda_cppwrap") != std::string::npos && out.size() < n) out.push_back(w);
  return out;
}

std::vector<std::string> sources_of(const std::vector<FixtureWrapper>& ws) {
  std::vector<std::string> out;
  for (auto& w : ws) out.push_back(w.source);
  return out;
}

}  // namespace

TEST(ClangWrapperBatch, EveryFixtureWrapperGetsWhatItsOwnParseGives) {
  auto ws = fixture_wrappers();
  ASSERT_GE(ws.size(), 8u);
  Readings r = read_both_ways(ws, sources_of(ws));
  for (size_t i = 0; i < ws.size(); ++i) {
    EXPECT_EQ(r.batched[i], r.alone[i]) << ws[i].file;
    EXPECT_NE(r.alone[i].find("launch"), std::string::npos) << ws[i].file << "\n" << r.alone[i];
  }
  EXPECT_EQ(r.stats.fallbacks, 0u);
  EXPECT_GE(r.stats.batches, 1u);
  // The CPU compiles of one capture define the same extern "C" kernels, so they cannot all share
  // a run; the CUDA ones can.
  EXPECT_GE(r.stats.batched, ws.size() / 2) << "wrappers were not batched";
  EXPECT_LT(r.stats.batched, ws.size() + 1);
}

TEST(ClangWrapperBatch, WrappersDefiningTheSameExternCKernelAreNotBatchedTogether) {
  // Two CPU wrappers of one capture that define the same kernel (the capture compiled one
  // function again): one function to C++ whatever namespace declares it, so in one unit Clang
  // would report a redefinition and the batch would be dropped. They must go apart.
  auto ws = fixture_wrappers();
  auto first_kernel = [](const std::string& src) {
    size_t at = src.find("extern \"C\"");
    if (at == std::string::npos) return std::string();
    size_t open = src.find('(', at), name = src.rfind(' ', open);
    return src.substr(name + 1, open - name - 1);
  };
  std::vector<FixtureWrapper> pair;
  for (size_t i = 0; i < ws.size() && pair.empty(); ++i)
    for (size_t j = i + 1; j < ws.size() && pair.empty(); ++j)
      if (!first_kernel(ws[i].source).empty() && first_kernel(ws[i].source) == first_kernel(ws[j].source))
        pair = {ws[i], ws[j]};
  ASSERT_EQ(pair.size(), 2u) << "no two fixture wrappers define the same kernel";
  Readings r = read_both_ways(pair, sources_of(pair));
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_EQ(r.stats.batches, 0u);
  EXPECT_EQ(r.stats.fallbacks, 0u);
  // With a third wrapper that defines no such kernel, one pair shares a run.
  for (auto& w : ws)
    if (w.file.find("cuda_cppwrap") != std::string::npos) {
      pair.push_back(w);
      break;
    }
  ASSERT_EQ(pair.size(), 3u);
  r = read_both_ways(pair, sources_of(pair));
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_EQ(r.stats.batches, 1u);
  EXPECT_EQ(r.stats.batched, 2u);
  EXPECT_EQ(r.stats.fallbacks, 0u);
}

TEST(ClangWrapperBatch, AWrapperClangRejectsDoesNotChangeItsBatchMates) {
  auto ws = cuda_wrappers(3);
  ASSERT_EQ(ws.size(), 3u);
  std::vector<std::string> sources = sources_of(ws);
  // The middle wrapper's entry loses its closing brace: in a shared unit it would swallow the next.
  size_t close = sources[1].find("} // inductor_entry_impl");
  ASSERT_NE(close, std::string::npos);
  sources[1].erase(close, 1);
  Readings r = read_both_ways(ws, sources);
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_EQ(r.stats.batches, 1u);
  EXPECT_EQ(r.stats.fallbacks, 1u);
  EXPECT_NE(r.batched[1].find("cpp-wrapper-parse"), std::string::npos) << r.batched[1];
  EXPECT_EQ(r.batched[0].find("cpp-wrapper-parse"), std::string::npos);
  EXPECT_EQ(r.batched[2].find("cpp-wrapper-parse"), std::string::npos);
}

namespace {

// Two wrappers: the first defines ILINT_BATCH_PROBE (`definition` put before it), the second uses
// it without defining it, so alone the second does not parse. Read both ways; batched, the
// second must not parse either. The caller checks how the batches went (r.stats).
Readings read_macro_probe(const std::string& definition) {
  auto ws = cuda_wrappers(2);
  std::vector<std::string> sources = sources_of(ws);
  size_t body = sources.size() == 2 ? sources[1].find("py::gil_scoped_release_simple release;") : std::string::npos;
  EXPECT_NE(body, std::string::npos) << "the fixtures lack two CUDA wrappers with the probe's anchor";
  if (body == std::string::npos) return {};
  sources[0] = definition + sources[0];
  sources[1].insert(body, "int ilint_probe = ILINT_BATCH_PROBE; ");
  Readings r = read_both_ways(ws, sources);
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_NE(r.alone[1].find("ILINT_BATCH_PROBE"), std::string::npos) << r.alone[1];
  return r;
}

}  // namespace

TEST(ClangWrapperBatch, AMacroOneWrapperDefinesDoesNotReachTheNext) {
  Readings r = read_macro_probe("#define ILINT_BATCH_PROBE 1\n");
  EXPECT_EQ(r.stats.fallbacks, 1u);
}

// A #define behind the end of a comment that began on an earlier line: no line of it starts with
// '#', yet Clang reads a directive there. Not seen, the macro would not be saved and restored
// around the wrapper, and would reach the next one.
TEST(ClangWrapperBatch, AMacroBehindACommentIsStillSeen) {
  Readings r = read_macro_probe("/* a comment\n   of two lines */ #define ILINT_BATCH_PROBE 1\n");
  EXPECT_EQ(r.stats.batches, 0u);
}

TEST(ClangWrapperBatch, AWrapperThatCannotShareAUnitIsParsedAlone) {
  auto ws = cuda_wrappers(4);
  ASSERT_EQ(ws.size(), 4u);
  std::vector<std::string> sources = sources_of(ws);
  // A conditional directive, a namespace of its own, a pop_macro of its own: each would read
  // differently inside the batch (leak, nest, or pop the batch's saved macro), so these go alone
  // and the fourth has no batch-mate.
  sources[0] = "#if 1\n" + sources[0] + "\n#endif\n";
  sources[1] += "\nnamespace extra { int x; }\n";
  sources[2] = "#pragma pop_macro(\"CUDA_DRIVER_CHECK\")\n" + sources[2];
  Readings r = read_both_ways(ws, sources);
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_EQ(r.stats.batches, 0u);
  // Any one of them unchanged would have shared a run with the fourth.
  sources[2] = ws[2].source;
  r = read_both_ways(ws, sources);
  EXPECT_EQ(r.batched, r.alone);
  EXPECT_EQ(r.stats.batches, 1u);
  EXPECT_EQ(r.stats.batched, 2u);
}

TEST(ClangWrapperBatch, AnAnalysisIsTheSameWithAndWithoutBatches) {
  install_optional_readers();
  // Every fixture wrapper goes to Clang here, as with ILINT_CPP_READER=clang: the hand reader
  // would take them all and leave no batch (CppWrapperHand.AnalysisIsTheSameWithAndWithoutTheHandReader).
  ilint::testing::HandReadersScope hand(false);
  auto run = [](int jobs) {
    std::vector<std::string> paths;
    for (const char* f : {"s1_cpu_cppwrap", "s1_cuda_cppwrap", "s2_cpu_cppwrap", "s2_cuda_cppwrap"})
      paths.push_back(ilint::testing::fixture(f));
    return ilint::testing::analysis_text(paths, jobs);
  };
  WrapperBatchStats before = wrapper_batch_stats();
  std::string batched1 = run(1), batched2 = run(2);
  WrapperBatchStats stats = since(before);
  EXPECT_GE(stats.batched, 4u) << "the analysis did not batch wrappers";
  CppWrapperBatcher saved = cpp_wrapper_batcher();
  set_cpp_wrapper_batcher(nullptr);
  std::string alone = run(1);
  set_cpp_wrapper_batcher(saved);
  EXPECT_EQ(batched1, alone);
  EXPECT_EQ(batched2, alone);
}
