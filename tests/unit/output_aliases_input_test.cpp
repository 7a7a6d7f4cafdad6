// Rule output-aliases-input, end to end on real captures of tools/capture_scripts/output_alias.py:
// torch 2.14.1 on the CPU returns the input itself for `x / 1.0` and `x * 1.0` (pytorch#197893; the
// captures' stdout.txt: "compiled: out is x True ... input moved by 1"), the safe twin (0.9) and torch
// 2.13.0 return a new tensor. The recorded `confirm --script` answers are in tests/recorded/.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/confirm.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
nlohmann::json recorded(const std::string& name) {
  return nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/recorded/" + name));
}
}  // namespace

TEST(OutputAliasesInput, TheNoOpDivisionReturnsTheInputOnTorch214) {
  for (const char* capture : {"alias_div_t214", "alias_mul_t214"}) {
    Analysis a;
    auto found = run_rule(kFixtures + "/" + capture, "output-aliases-input", a);
    ASSERT_EQ(found.size(), 1u) << capture;
    const Finding& f = *found[0];
    EXPECT_EQ(f.severity, Severity::Warning);
    EXPECT_EQ(f.evidence["compiled_output"], "arg0_1");
    EXPECT_EQ(f.evidence["compiled_output_op"], "placeholder");
    EXPECT_EQ(f.evidence["output_position"], 0);
    const std::string op = std::string(capture) == "alias_div_t214" ? "torch.ops.aten.div.Tensor" : "torch.ops.aten.mul.Tensor";
    EXPECT_EQ(f.evidence["eager_target"], op);
    // The user's line, and the place in the TORCH_TRACE log where the compiled graph returns the input.
    ASSERT_FALSE(f.related.empty());
    EXPECT_EQ(f.related[0].loc.file.str().substr(f.related[0].loc.file.str().rfind('/') + 1), "output_alias.py");
    EXPECT_NE(line_of(f.related[0].loc.file, f.related[0].loc.line).find("return"), std::string::npos);
    EXPECT_NE(f.location.file.str().find("trace/"), std::string::npos) << f.location.file;
    EXPECT_NE(line_at(f.location).find("return (arg0_1,)"), std::string::npos) << line_at(f.location);
    EXPECT_NE(message_and_notes(f).find("returns its input `arg0_1` itself"), std::string::npos) << message_and_notes(f);
  }
}

TEST(OutputAliasesInput, ANewTensorIsNoFinding) {
  // The divisor 0.9 keeps the division (torch 2.14.1); torch 2.13.0 keeps it for 1.0 too.
  for (const char* capture : {"alias_div_safe_t214", "alias_div_t213"}) {
    Analysis a;
    EXPECT_TRUE(run_rule(kFixtures + "/" + capture, "output-aliases-input", a).empty()) << capture;
  }
}

TEST(OutputAliasesInput, TheModelHoldsBothGraphsOutputs) {
  Analysis a;
  run_analysis({kFixtures + "/alias_div_t214"}, a);
  const FrameCompile* fc = nullptr;
  for (const auto& fr : a.program.dynamo.frames)
    for (const auto& c : fr.compiles)
      if (!c.aot_outputs.empty()) fc = &c;
  ASSERT_NE(fc, nullptr);
  ASSERT_EQ(fc->aot_outputs.size(), 1u);
  EXPECT_EQ(fc->aot_outputs[0].node, "div");
  EXPECT_EQ(fc->aot_outputs[0].op, "call_function");
  ASSERT_TRUE(fc->aot_outputs[0].user_loc.has_value());
  EXPECT_EQ(fc->aot_outputs[0].user_loc->line, 21);
  ASSERT_EQ(fc->joint_pass_outputs.size(), 1u);
  EXPECT_EQ(fc->joint_pass_outputs[0].node, "arg0_1");
  EXPECT_EQ(fc->joint_pass_outputs[0].op, "placeholder");
  // The safe twin: the division stays in both graphs.
  Analysis safe;
  run_analysis({kFixtures + "/alias_div_safe_t214"}, safe);
  for (const auto& fr : safe.program.dynamo.frames)
    for (const auto& c : fr.compiles)
      for (const auto& o : c.joint_pass_outputs) EXPECT_NE(o.op, "placeholder");
}

TEST(OutputAliasesInput, ReExecutionShowsTheAliasOnlyWhereTheRuleSaysSo) {
  // confirm --script on torch 2.14.1: the compiled call's output shares its argument's storage, the
  // eager call's does not; the safe twin and torch 2.13.0 agree with eager.
  for (const char* name : {"confirm_alias_div_t214_script.json", "confirm_alias_mul_t214_script.json"}) {
    auto r = recorded(name);
    EXPECT_EQ(r["verdict"], "confirmed") << name;
    EXPECT_EQ(r["environment"]["torch"].get<std::string>().rfind("2.14.1", 0), 0u);
    ASSERT_EQ(r["calls"].size(), 1u);
    EXPECT_EQ(r["calls"][0]["inductor"]["aliases_input"], nlohmann::json::parse("[[0, 0]]"));
    EXPECT_TRUE(r["calls"][0]["aot_eager"]["allclose"].get<bool>());
    EXPECT_EQ(r["calls"][0]["inductor"]["max_abs"], 0.0);  // equal values: only the aliasing differs
  }
  for (const char* name : {"confirm_alias_div_safe_t214_script.json", "confirm_alias_div_t213_script.json"}) {
    auto r = recorded(name);
    EXPECT_EQ(r["verdict"], "not-reproduced") << name;
    EXPECT_FALSE(r["calls"][0]["inductor"].contains("aliases_input")) << name;
  }
  // Attached to the finding by fingerprint.
  Analysis a;
  run_analysis({kFixtures + "/alias_div_t214"}, a, {"output-aliases-input"});
  ASSERT_EQ(a.findings.size(), 1u);
  auto r = recorded("confirm_alias_div_t214_script.json");
  r["fingerprint"] = a.findings[0].fingerprint;
  EXPECT_EQ(attach_recorded(a, nlohmann::json::array({r}), a.diags), 1u);
  EXPECT_EQ(a.findings[0].confirmation["verdict"], "confirmed");
}
