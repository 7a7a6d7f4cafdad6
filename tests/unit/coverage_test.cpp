// The coverage account: what was read of each compile, and the rules that could not decide where
// something was not. "No finding" is only said over what was read.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;
namespace fs = std::filesystem;

namespace {

std::vector<Diagnostic> incomplete_notes(const Analysis& a) {
  std::vector<Diagnostic> out;
  for (const auto& d : a.diags.sorted())
    if (d.code == "analysis-incomplete") out.push_back(d);
  return out;
}

}  // namespace

// The whole capture (folder, trace, TORCH_LOGS): every compile read completely, no note.
TEST(Coverage, AWholeCaptureIsReadCompletely) {
  Analysis a;
  run_analysis({fixture("s2_cuda")}, a);
  ASSERT_EQ(a.coverage.compiles.size(), 2u);
  for (const auto& c : a.coverage.compiles) {
    EXPECT_TRUE(c.complete()) << c.compile_id;
    EXPECT_TRUE(c.fx_graph);
    EXPECT_TRUE(c.logs_joined);
    EXPECT_EQ(c.kernels_fully_read, c.kernels);
  }
  EXPECT_TRUE(incomplete_notes(a).empty());
}

// A compile folder alone has no log that names compile ids: one note for the input, naming the rules
// that read the logs, and every compile marked not joined.
TEST(Coverage, AFolderAloneSaysTheLogRulesCouldNotLook) {
  Analysis a;
  std::string folder = fixture("s1_cuda") + "/torch_compile_debug";
  run_analysis({folder}, a);
  auto notes = incomplete_notes(a);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].loc.file.str(), folder);
  EXPECT_NE(notes[0].message.find("stale-scalar"), std::string::npos) << notes[0].message;
  EXPECT_NE(notes[0].message.find("scalar-recompile"), std::string::npos) << notes[0].message;
  EXPECT_FALSE(a.coverage.compiles_logged);
  for (const auto& c : a.coverage.compiles) EXPECT_FALSE(c.logs_joined) << c.compile_id;
}

// Built from s2_cuda: its forward Triton kernel gets a call no reader models (`tl.mystery`). The kernel
// is partly read, the compile gets a note naming the form and the rules that read kernel bodies, and
// every report format carries it.
TEST(Coverage, AnUnmodeledFormMakesItsKernelPartlyReadAndSaysWhichRulesCouldNotLook) {
  TempDir t;
  fs::copy(fixture("s2_cuda"), t.path / "c", fs::copy_options::recursive);
  fs::remove_all(t.path / "c" / "trace");  // the trace would hold the unedited code too
  std::string copy;
  for (auto& e : fs::recursive_directory_iterator(t.path / "c"))
    if (e.path().filename() == "output_code.py" && e.path().string().find("forward") != std::string::npos) copy = e.path();
  ASSERT_FALSE(copy.empty());
  std::string text = read_all(copy);
  size_t at = text.find("    tmp0 = tl.load(");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "    tmp99 = tl.mystery(xindex)\n");
  write_all(copy, text);
  Analysis a;
  run_analysis({(t.path / "c").string()}, a);
  const CompileCoverage* forward = nullptr;
  for (const auto& c : a.coverage.compiles)
    if (c.compile_id.find("forward") != std::string::npos) forward = &c;
  ASSERT_NE(forward, nullptr);
  ASSERT_EQ(forward->incomplete.size(), 1u);
  EXPECT_TRUE(forward->incomplete[0].body_read);
  EXPECT_EQ(forward->incomplete[0].unmodeled_forms, std::vector<std::string>{"tl.mystery"});
  for (const char* rule : {"reduced-precision-scan", "inplace-read-after-write", "elided-low-precision-cast"})
    EXPECT_NE(std::find(forward->undecided_rules.begin(), forward->undecided_rules.end(), rule),
              forward->undecided_rules.end())
        << rule;
  // The backward compile was read completely.
  for (const auto& c : a.coverage.compiles)
    if (&c != forward) EXPECT_TRUE(c.complete()) << c.compile_id;
  auto notes = incomplete_notes(a);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].loc.file.str(), copy);
  EXPECT_NE(notes[0].message.find("tl.mystery"), std::string::npos) << notes[0].message;

  std::string out;
  run_binary((t.path / "c").string() + " --format json --fail-on never", &out);
  auto j = nlohmann::json::parse(out);
  EXPECT_EQ(j["coverage"]["complete_compiles"], 1);
  run_binary((t.path / "c").string() + " --format sarif --fail-on never", &out);
  EXPECT_EQ(nlohmann::json::parse(out)["runs"][0]["properties"]["coverage"], j["coverage"]);
  run_binary((t.path / "c").string() + " --coverage --fail-on never", &out);
  EXPECT_NE(out.find("1 compile(s) incomplete"), std::string::npos) << out;
  EXPECT_NE(out.find("partly read [tl.mystery]"), std::string::npos) << out;
}
