// A TORCH_TRACE log alone is a whole input: the compiles its payloads hold (output code, the graph
// Inductor was given, fx_graph_runnable, the provenance mapping) are read as a compile folder's files
// are. Checked on every capture with a trace, the 2.11 fixtures and the 2.12-2.14 matrix: the log
// alone gives the findings of the whole capture, at lines of the log that hold the same code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

// Every capture with a trace: the 2.11 fixtures and each release of the matrix.
std::vector<fs::path> captures_with_trace() {
  std::vector<fs::path> out = capture_folders(fixture(""), /*with_trace=*/true);
  for (const auto& release : fs::directory_iterator(ILINT_VERSION_FIXTURES_DIR))
    for (const auto& c : capture_folders(release.path(), /*with_trace=*/true)) out.push_back(c);
  return out;
}

std::multiset<std::string> fingerprints(const Analysis& a) {
  std::multiset<std::string> out;
  for (const auto& f : a.findings) out.insert(f.rule + ":" + f.fingerprint);
  return out;
}


// A graph line as fx_graph_readable.py prints it: the AOT graph of a trace prints strides and device
// in each annotation ("f32[8, 32][32, 1]cpu"), the folder's file the dtype and shape only.
std::string without_strides(const std::string& line) {
  static const std::regex annotation(R"re("([a-z0-9]+\[[^\]]*\])\[[^\]]*\][^"]*")re");
  return std::regex_replace(line, annotation, "\"$1\"");
}

// Rules that read the Dynamo logs (guards, recompile reasons, the graphs before Inductor's passes): a
// torch_compile_debug folder alone has none of them, so only these may find more in the trace than in
// the folder.
const std::set<std::string> kDynamoRules = {"stale-scalar", "scalar-recompile", "output-aliases-input"};

}  // namespace

TEST(TraceInput, TheLogAloneGivesTheFindingsOfTheWholeCapture) {
  auto captures = captures_with_trace();
  ASSERT_GE(captures.size(), 90u);  // 46 fixtures of 2.11, 19 programs of each later release
  for (const auto& dir : captures) {
    SCOPED_TRACE(dir.string());
    Analysis trace, whole, folder;
    run_analysis({(dir / "trace").string()}, trace);
    run_analysis({dir.string()}, whole);
    run_analysis({(dir / "torch_compile_debug").string()}, folder);
    EXPECT_EQ(fingerprints(trace), fingerprints(whole));
    for (const auto& d : trace.diags.sorted()) EXPECT_NE(d.code, "trace-output-code-unread") << d.message;
    // The folder alone: the same findings but for those that need the logs.
    std::multiset<std::string> from_folder = fingerprints(folder), from_trace = fingerprints(trace);
    for (const auto& fp : from_folder) EXPECT_TRUE(from_trace.count(fp)) << fp;
    for (const auto& f : trace.findings)
      if (!from_folder.count(f.rule + ":" + f.fingerprint)) EXPECT_TRUE(kDynamoRules.count(f.rule)) << f.rule;
    // Given both, a compile is read once: from its folder.
    for (const auto& c : whole.program.compiles) EXPECT_TRUE(c.files.trace_compile_id.empty()) << c.id;
    // Every finding points at a line of the log that holds the code the folder's finding points at.
    std::map<std::string, const Finding*> in_whole;
    for (const auto& f : whole.findings) in_whole[f.rule + ":" + f.fingerprint] = &f;
    for (const auto& f : trace.findings) {
      const Finding* w = in_whole[f.rule + ":" + f.fingerprint];
      if (!w || !f.location.file.str().ends_with(".log") || w->location.file == f.location.file) continue;
      std::string logged = line_of(f.location.file.str(), f.location.line);
      ASSERT_FALSE(logged.empty());
      EXPECT_EQ(logged[0], '\t');
      std::string there = line_of(w->location.file.str(), w->location.line);
      if (f.rule == "stale-scalar") {
        // One baked value, which the trace may show in a cache hit's kernel where the folder (which
        // has no folder for the hit) shows the FX argument: both lines hold it.
        std::smatch m;
        const std::string said = message_and_notes(f);
        ASSERT_TRUE(std::regex_search(said, m, std::regex("bakes (\\S+) derived"))) << said;
        EXPECT_NE(logged.find(m[1].str()), std::string::npos) << logged;
        EXPECT_NE(there.find(m[1].str()), std::string::npos) << there;
      } else {
        EXPECT_EQ(without_strides(logged.substr(1)), there) << f.rule;
      }
    }
  }
}

// The compiles of a trace: one per inductor_output_code payload, its kind from the AOT ID or, for a
// cpp_wrapper=True module (no header), from the AOT graphs of its compile id; its FX graph read from
// the AOT graph (strides and devices in its annotations, a multi-line signature).
TEST(TraceInput, CompilesOfTheLogHaveTheirKindGraphAndProvenance) {
  for (const char* name : {"s2_cuda", "s2_cuda_cppwrap"}) {
    SCOPED_TRACE(name);
    Analysis trace, folder;
    run_analysis({fixture(name) + "/trace"}, trace);
    run_analysis({fixture(name) + "/torch_compile_debug"}, folder);
    ASSERT_EQ(trace.program.compiles.size(), 2u);
    std::map<std::string, const Compile*> by_kind;
    for (const auto& c : folder.program.compiles) by_kind[c.graph_kind] = &c;
    for (const auto& c : trace.program.compiles) {
      SCOPED_TRACE(c.id);
      EXPECT_EQ(c.files.trace_compile_id, "0/0");
      const Compile* f = by_kind[c.graph_kind];
      ASSERT_NE(f, nullptr);
      EXPECT_EQ(c.id, "trace_0_0_" + c.graph_kind);
      EXPECT_EQ(c.fx.origin, "aot_" + c.graph_kind + "_graph");
      ASSERT_EQ(c.fx.nodes.size(), f->fx.nodes.size());
      for (size_t i = 0; i < c.fx.nodes.size(); ++i) {
        EXPECT_EQ(c.fx.nodes[i].name, f->fx.nodes[i].name);
        EXPECT_EQ(c.fx.nodes[i].meta.dtype, f->fx.nodes[i].meta.dtype);
        EXPECT_EQ(c.fx.nodes[i].meta.shape, f->fx.nodes[i].meta.shape);
        EXPECT_EQ(c.fx.nodes[i].user_code(), f->fx.nodes[i].user_code());
      }
      ASSERT_EQ(c.kernels.size(), f->kernels.size());
      for (size_t i = 0; i < c.kernels.size(); ++i) EXPECT_EQ(c.kernels[i].fx_nodes, f->kernels[i].fx_nodes);
      EXPECT_EQ(c.provenance.kernel_to_post, f->provenance.kernel_to_post);
      // The trace's fx_graph_runnable is a snapshot of its own (trace.enabled differs): the
      // compile's settings are read from it all the same.
      EXPECT_EQ(c.config.count("inductor.emulate_precision_casts"), f->config.count("inductor.emulate_precision_casts"));
      EXPECT_FALSE(c.config.empty());
    }
  }
}

// confirm's graph mode loads a compile folder's files: for a compile read from the log it says so,
// without starting the tool.
TEST(TraceInput, ConfirmSaysAPayloadCompileNeedsItsFolder) {
  std::string out;
  run_binary("confirm " + fixture("s2_cpu") + "/trace --format json --fail-on never --python /nonexistent/python", &out);
  auto j = nlohmann::json::parse(out);
  ASSERT_EQ(j["findings"].size(), 1u) << out;
  const auto& c = j["findings"][0]["confirmation"];
  EXPECT_EQ(c["verdict"], "skipped") << c.dump();
  EXPECT_EQ(c["reason"], "no-runnable") << c.dump();
  EXPECT_NE(c["detail"].get<std::string>().find("TORCH_TRACE"), std::string::npos) << c.dump();
}
