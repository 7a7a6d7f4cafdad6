// Recorded confirmation answers from real runs on an H200 (tests/gpu/results/, made by
// tests/gpu/run_gpu_tests.sh): parsing, merging into findings, the verdict rule, rendering.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzer/confirm/confirm.h"
#include "analyzer/report/json.h"
#include "analyzer/report/text.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
nlohmann::json result(const std::string& name) {
  return nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/gpu/results/" + name));
}
}  // namespace

TEST(ConfirmResults, S2CudaIsAPrecisionArtifact) {
  // Compiled is the one closer to float64 (issue #185596's verdict), forward and backward.
  for (const char* f : {"confirm_s2_cuda_fwd.json", "confirm_s2_cuda_bwd.json", "confirm_s2_cpu_fwd.json"}) {
    auto r = result(f);
    EXPECT_EQ(r["verdict"], "precision-artifact") << f;
    EXPECT_EQ(recompute_graph_verdict(r), "precision-artifact") << f;
  }
  auto bwd = result("confirm_s2_cuda_bwd.json");
  // The deciding output (grad_x, f32[16]): eager is far from fp64, compiled is not.
  const auto& w = bwd["worst"];
  EXPECT_EQ(w["shape"], nlohmann::json::array({16}));
  EXPECT_FALSE(w["allclose"].get<bool>());
  EXPECT_GT(w["eager_vs_fp64"]["rmse"].get<double>(), 100 * w["compiled_vs_fp64"]["rmse"].get<double>());
}

TEST(ConfirmResults, CleanCapturesAreNotConfirmed) {
  for (const char* f : {"confirm_clean_resnet.json", "confirm_clean_compiled_adam_model__0_inference_0.0.json",
                        "confirm_s2_cuda_emulate_fwd.json", "confirm_prec_cumsum_fp32_fwd.json"}) {
    auto r = result(f);
    EXPECT_TRUE(r["verdict"] == "not-reproduced" || r["verdict"] == "precision-artifact") << f << " " << r["verdict"];
    std::string again = recompute_graph_verdict(r);
    if (!again.empty()) EXPECT_EQ(again, r["verdict"]) << f;
  }
}

TEST(ConfirmResults, StaleScalarScriptRunIsConfirmedWithGrowingError) {
  auto r = result("confirm_stale_clamp_script.json");
  EXPECT_EQ(r["verdict"], "confirmed");
  EXPECT_TRUE(r["error_growing"].get<bool>());
  // Calls 1 and 2 agree; from the 3rd value on, inductor diverges and aot_eager does not.
  ASSERT_GE(r["calls"].size(), 4u);
  EXPECT_TRUE(r["calls"][1]["inductor"]["allclose"].get<bool>());
  EXPECT_FALSE(r["calls"][2]["inductor"]["allclose"].get<bool>());
  EXPECT_TRUE(r["calls"][2]["aot_eager"]["allclose"].get<bool>());
  EXPECT_GT(r["calls"][3]["inductor"]["max_abs"].get<double>(), 1.0);
  // The seed itself is not affected on torch 2.11.
  EXPECT_EQ(result("confirm_seed1_script.json")["verdict"], "not-reproduced");
}

TEST(ConfirmResults, VerdictRuleFlipsWhenCompiledIsWorse) {
  auto r = result("confirm_s2_cuda_bwd.json");
  // Swap eager and compiled errors: compiled now far worse than eager -> confirmed.
  for (auto& s : r["seeds"])
    for (auto& o : s["outputs"]) std::swap(o["eager_vs_fp64"], o["compiled_vs_fp64"]);
  EXPECT_EQ(recompute_graph_verdict(r), "confirmed");
  Finding f;
  attach_confirmation(f, r);  // the recorded verdict is precision-artifact: a mismatch is flagged
  EXPECT_TRUE(f.confirmation.value("verdict_mismatch", false));
}

// Recorded answers are a file a person may edit: members of other types (`"allclose": "no"`, an
// rmse that is a string, a comparison that is a number) threw type_error and aborted the analyzer.
// Such an output is left out of the recomputed verdict; the rest still count.
TEST(ConfirmResults, MembersOfOtherTypesLeaveTheirOutputOut) {
  auto r = result("confirm_s2_cuda_bwd.json");
  const std::string recorded = recompute_graph_verdict(r);
  ASSERT_FALSE(recorded.empty());
  auto bad = r;
  nlohmann::json extra = nlohmann::json::array(
      {nlohmann::json{{"eager_vs_fp64", 5}, {"compiled_vs_fp64", {{"rmse", 1.0}}}},
       nlohmann::json{{"eager_vs_fp64", {{"rmse", "small"}}}, {"compiled_vs_fp64", {{"rmse", 1e9}}}},
       nlohmann::json{{"eager_vs_fp64", {{"rmse", 0.0}}}, {"compiled_vs_fp64", {{"rmse", 1e9}}}, {"allclose", "no"}},
       nlohmann::json{{"eager_vs_fp64", {{"rmse", 0.0}}}, {"compiled_vs_fp64", {{"rmse", 1e9}}}, {"tol", "x"}}});
  for (auto& seed : bad["seeds"])
    for (const auto& o : extra) seed["outputs"].push_back(o);
  EXPECT_EQ(recompute_graph_verdict(bad), recorded);
  nlohmann::json only_bad = {{"mode", "graph"}, {"seeds", {{{"outputs", extra}}}}};
  EXPECT_EQ(recompute_graph_verdict(only_bad), "");
  EXPECT_EQ(recompute_graph_verdict(nlohmann::json{{"mode", 3}, {"seeds", 4}}), "");
  Finding f;
  attach_confirmation(f, nlohmann::json{{"verdict", "confirmed"}, {"detail", 7}, {"mode", "graph"}, {"seeds", {{{"outputs", extra}}}}});
  EXPECT_EQ(f.confirmation.value("summary", std::string("?")), "");
  // The text report reads a recorded verdict and summary by type too (`"summary": 5` threw).
  Analysis a;
  Finding g;
  g.rule = "stale-scalar";
  attach_confirmation(g, nlohmann::json{{"verdict", "confirmed"}, {"summary", 5}});
  a.findings.push_back(g);
  std::ostringstream text;
  write_text(a, TextOptions{}, text);
  EXPECT_NE(text.str().find("confirmation: confirmed\n"), std::string::npos) << text.str();
}

TEST(ConfirmResults, RecordedAnswersMergeIntoFindingsAndRender) {
  Analysis a;
  run_analysis({fixture("s2_cuda")}, a, {"reduced-precision-scan"});
  ASSERT_EQ(a.findings.size(), 2u);
  nlohmann::json rec = nlohmann::json::array({result("confirm_s2_cuda_fwd.json"), result("confirm_s2_cuda_bwd.json")});
  EXPECT_EQ(attach_recorded(a, rec, a.diags), 2u);
  for (const auto& f : a.findings) {
    EXPECT_EQ(f.confirmation["verdict"], "precision-artifact");
    EXPECT_FALSE(f.confirmation.value("verdict_mismatch", false));
  }
  std::ostringstream text;
  write_text(a, TextOptions{}, text);
  EXPECT_NE(text.str().find("confirmation: precision-artifact"), std::string::npos);
  EXPECT_NE(text.str().find("RMSE vs fp64"), std::string::npos);
  auto j = analysis_json(a);
  EXPECT_EQ(j["findings"][0]["confirmation"]["verdict"], "precision-artifact");
}
