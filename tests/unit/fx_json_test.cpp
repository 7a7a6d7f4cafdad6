// FX graph JSON (docs/fx-graph-json.md) against fx_graph_readable.py of the same graph: a real
// pair captured on an H200 (fixtures/fx_json_s2_cuda, written by tools/export_fx_json.py).
#include <gtest/gtest.h>

#include "analyzer/parse/fx_json.h"
#include "analyzer/parse/fx_text.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
void compare_graphs(const std::string& dir) {
  DiagSink diags;
  FxGraph text, json;
  ASSERT_TRUE(parse_fx_readable(dir + "/fx_graph_readable.py", read_all(dir + "/fx_graph_readable.py"), text, diags));
  std::string version;
  ASSERT_TRUE(parse_fx_json(dir + "/fx_graph.json", read_all(dir + "/fx_graph.json"), json, version, diags));
  EXPECT_EQ(version, "2.11.0+cu130");
  EXPECT_EQ(diags.size(), 0u);
  size_t compared = 0;
  for (const auto& t : text.nodes) {
    if (t.op == "output") continue;
    const FxNode* j = json.find(t.name);
    ASSERT_NE(j, nullptr) << dir << ": " << t.name;
    EXPECT_EQ(j->op, t.op) << t.name;
    EXPECT_EQ(j->target, t.target) << t.name;
    EXPECT_EQ(j->kind, t.kind) << t.name;
    EXPECT_EQ(j->meta.dtype, t.meta.dtype) << t.name;
    EXPECT_EQ(j->meta.shape, t.meta.shape) << t.name;
    EXPECT_EQ(j->input_nodes, t.input_nodes) << t.name;
    EXPECT_EQ(j->args, t.args) << t.name;
    EXPECT_EQ(j->mutates, t.mutates) << t.name;
    ASSERT_EQ(j->user_loc().has_value(), t.user_loc().has_value()) << t.name;
    if (t.user_loc()) {
      EXPECT_EQ(j->user_loc()->line, t.user_loc()->line) << t.name;
      EXPECT_EQ(j->user_code(), t.user_code()) << t.name;
    }
    ++compared;
  }
  EXPECT_GT(compared, 5u);
  // Same number of non-output nodes both ways.
  size_t json_nodes = 0;
  for (const auto& n : json.nodes) json_nodes += n.op != "output";
  EXPECT_EQ(json_nodes, compared);
}
}  // namespace

TEST(FxJson, ForwardGraphGivesTheSameModelAsFxGraphReadable) { compare_graphs(compile_dir("fx_json_s2_cuda", "forward")); }

TEST(FxJson, BackwardGraphGivesTheSameModelAsFxGraphReadable) {
  compare_graphs(compile_dir("fx_json_s2_cuda", "backward"));
}

TEST(FxJson, AJsonFileAloneIsACompileAndRulesRunOnIt) {
  TempDir t;
  std::string src = compile_dir("fx_json_s2_cuda", "forward") + "/fx_graph.json";
  write_all(t.path / "graph.json", read_all(src));
  Analysis a;
  run_analysis({(t.path / "graph.json").string()}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  EXPECT_NE(a.program.compiles[0].fx.find("cumsum"), nullptr);
  EXPECT_EQ(a.program.torch_version, "2.11.0+cu130");
}

TEST(FxJson, BesideOutputCodeItJoinsThatCompile) {
  Analysis a;
  run_analysis({fixture("fx_json_s2_cuda")}, a);
  EXPECT_EQ(a.program.compiles.size(), 2u);
  for (const auto& c : a.program.compiles) EXPECT_FALSE(c.files.fx_json.empty());
}

TEST(FxJson, TruncatedJsonIsADiagnostic) {
  DiagSink d;
  FxGraph g;
  std::string v;
  EXPECT_FALSE(parse_fx_json("x.json", "{\"inductor_lint_fx_graph\": 1, \"nodes\": [", g, v, d));
  EXPECT_EQ(d.size(), 1u);
}
