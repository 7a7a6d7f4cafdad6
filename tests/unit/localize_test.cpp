// Localization (analyzer/localize, docs/localize-protocol.md): the request the model makes for real
// captures, and the recorded answers of tests/gpu/results/localize_*.json (tools/localize.py on an H100,
// torch 2.11, from the requests in tests/gpu/requests/) attached to their fixtures. The live suite
// (tests/live) runs the tool itself on CPU captures of torch 2.13.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyzer/localize/localize.h"
#include "analyzer/report/json.h"
#include "analyzer/report/text.h"
#include "test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {

nlohmann::json gpu_file(const std::string& rel) {
  return nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/gpu/" + rel));
}

// Paths in a request are as the analyzer was given them; the committed requests were made from the
// repository root ("fixtures/..."), the tests give absolute paths.
nlohmann::json relative_paths(nlohmann::json r) {
  const std::string root = std::filesystem::path(ILINT_FIXTURES_DIR).parent_path().string() + "/";
  for (const char* key : {"compile_dir", "output_code"}) {
    std::string p = r[key];
    if (p.rfind(root, 0) == 0) r[key] = p.substr(root.size());
  }
  return r;
}

const nlohmann::json& launch(const nlohmann::json& answer, int order) {
  for (const auto& l : answer["launches"])
    if (l["order"] == order) return l;
  static const nlohmann::json none;
  return none;
}

// The fixture analyzed with every rule, and the recorded answers of its compiles attached.
void analyze_with_recorded(const std::string& fixture_name, Analysis& a) {
  run_analysis({fixture(fixture_name)}, a);
  nlohmann::json rec = nlohmann::json::array();
  for (const auto& e : std::filesystem::directory_iterator(std::string(ILINT_SOURCE_DIR) + "/tests/gpu/results")) {
    std::string name = e.path().filename().string();
    if (name.rfind("localize_" + fixture_name + "__", 0) == 0) rec.push_back(gpu_file("results/" + name));
  }
  ASSERT_FALSE(rec.empty()) << fixture_name;
  EXPECT_EQ(attach_recorded_localizations(a, rec, a.diags), rec.size());
}

}  // namespace

TEST(LocalizeRequest, TheGpuRequestsAreWhatTheModelMakesNow) {
  // tests/gpu/run_gpu_tests.sh runs these files on the CUDA machine: a change of the request's
  // making that is not recorded again fails here.
  for (const char* name : {"s2_cuda", "mut_foreach_flip", "mut_foreach_flip_safe", "clean_resnet"}) {
    Analysis a;
    run_analysis({fixture(name)}, a);
    nlohmann::json committed = gpu_file(std::string("requests/localize_") + name + ".json");
    LocalizeOptions o;
    o.device = "cuda";
    nlohmann::json made = nlohmann::json::array();
    for (const auto& c : a.program.compiles)
      if (localize_refusal(c).empty()) made.push_back(relative_paths(localize_request(c, o)));
    EXPECT_EQ(made, committed) << name << ": run `inductor-lint localize fixtures/" << name
                               << " --device cuda --print-requests` and record the GPU answers again";
  }
}

TEST(LocalizeRequest, AForeachKernelWritesItsInputBackAsTheGraphsOutput) {
  Analysis a;
  run_analysis({fixture("mut_foreach_flip_cpu")}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  nlohmann::json r = localize_request(a.program.compiles[0], LocalizeOptions{});
  ASSERT_EQ(r["launches"].size(), 1u);
  const auto& l = r["launches"][0];
  EXPECT_EQ(l["fallback"], false);
  ASSERT_EQ(l["writes"].size(), 1u);
  const auto& w = l["writes"][0];
  EXPECT_EQ(w["root"], "arg0_1");  // the kernel writes the graph input it reads
  EXPECT_EQ(w["observe"]["when"], "after");
  EXPECT_EQ(w["observe"]["launch"], l["order"]);
  // Best first: call() returns the input at position 0 (the FX graph's copy_), then the copy_ itself.
  EXPECT_EQ(w["candidates"][0]["why"], "graph-output");
  EXPECT_EQ(w["candidates"][0]["output"], 0);
  EXPECT_EQ(w["candidates"][1]["why"], "mutated-input");
  EXPECT_EQ(w["candidates"][1]["node"], "copy_");
}

TEST(LocalizeRequest, AnAtenResultIsObservedBeforeTheKernelThatReadsIt) {
  // s2_cpu forward: cpp kernel -> buf0; torch.ops.aten.cumsum -> buf1 (buf2 = buf1; buf3 = buf2 # reuse);
  // cpp_fused_div_1(buf3) divides in place. The cumsum result is seen as the div kernel's argument.
  Analysis a;
  run_analysis({fixture("s2_cpu")}, a);
  const Compile* fwd = nullptr;
  for (const auto& c : a.program.compiles)
    if (c.graph_kind == "forward") fwd = &c;
  ASSERT_NE(fwd, nullptr);
  nlohmann::json r = localize_request(*fwd, LocalizeOptions{});
  const nlohmann::json* scan = nullptr;
  for (const auto& l : r["launches"])
    if (l["fallback"] == true) scan = &l;
  ASSERT_NE(scan, nullptr);
  ASSERT_EQ((*scan)["writes"].size(), 1u);
  const auto& w = (*scan)["writes"][0];
  EXPECT_EQ(w["observe"]["when"], "before");
  EXPECT_GT(w["observe"]["launch"].get<int>(), (*scan)["order"].get<int>());
  EXPECT_EQ(w["candidates"][0]["node"], "cumsum");
  // The in-place div is the last writer of that memory and call() returns it: its candidate is the output.
  const auto& last = r["launches"].back();
  EXPECT_EQ(last["writes"][0]["candidates"][0]["why"], "graph-output");
}

TEST(LocalizeRequest, WhatCannotBeLocalizedSaysWhy) {
  Analysis a;
  run_analysis({fixture("s2_cpu_cppwrap")}, a);
  ASSERT_FALSE(a.program.compiles.empty());
  for (const auto& c : a.program.compiles) EXPECT_NE(localize_refusal(c).find("cpp_wrapper"), std::string::npos) << c.id;
  Analysis t;
  run_analysis({fixture("s2_cpu") + "/trace"}, t);
  for (const auto& c : t.program.compiles) EXPECT_NE(localize_refusal(c).find("TORCH_TRACE"), std::string::npos) << c.id;
}

TEST(LocalizeResults, TheForeachKernelIsTheFirstDivergentLaunchOnTheGpu) {
  Analysis a;
  analyze_with_recorded("mut_foreach_flip", a);
  ASSERT_EQ(a.localizations.size(), 1u);
  const auto& ans = a.localizations[0].answer;
  EXPECT_EQ(ans["environment"]["torch"].get<std::string>().rfind("2.11", 0), 0u);
  EXPECT_EQ(ans["verdict"], "divergent");
  ASSERT_TRUE(ans["first_divergent_recomputed"].is_number());
  const auto& row = launch(ans, ans["first_divergent_recomputed"]);
  EXPECT_FALSE(row.value("verdict_mismatch", false));
  // The launch is the one the inplace-read-after-write finding is about, and names its user line.
  ASSERT_EQ(row["findings"].size(), 1u);
  EXPECT_EQ(row["findings"][0]["rule"], "inplace-read-after-write");
  ASSERT_FALSE(row["user_lines"].empty());
  EXPECT_NE(row["user_lines"][0]["code"].get<std::string>().find("_foreach_add_"), std::string::npos);
  const auto& w = row["writes"][0];
  EXPECT_GT(w["compiled_vs_fp64"]["rmse"].get<double>(), 1e6 * w["eager_vs_fp64"]["rmse"].get<double>());
}

TEST(LocalizeResults, TheSafeTwinAgreesWithEager) {
  Analysis a;
  analyze_with_recorded("mut_foreach_flip_safe", a);
  ASSERT_EQ(a.localizations.size(), 1u);
  EXPECT_EQ(a.localizations[0].answer["verdict"], "ok");
  EXPECT_TRUE(a.localizations[0].answer["first_departure_recomputed"].is_null());
}

TEST(LocalizeResults, Seed2DepartsAtTheScanKernelAsAPrecisionArtifact) {
  Analysis a;
  analyze_with_recorded("s2_cuda", a);
  ASSERT_EQ(a.localizations.size(), 2u);
  for (const auto& l : a.localizations) {
    const auto& ans = l.answer;
    EXPECT_EQ(ans["verdict"], "precision-artifact") << l.compile_id;
    EXPECT_TRUE(ans["first_divergent_recomputed"].is_null()) << l.compile_id;
    const auto& row = launch(ans, ans["first_departure_recomputed"]);
    // The launch that first departs holds the scan the reduced-precision-scan finding is about, and
    // compiled is the closer one to float64.
    ASSERT_FALSE(row["findings"].empty()) << l.compile_id;
    EXPECT_EQ(row["findings"][0]["rule"], "reduced-precision-scan");
    EXPECT_TRUE(row.contains("model_bound")) << l.compile_id;
    for (const auto& w : row["writes"])
      if (w.value("verdict", "") == "precision-artifact")
        EXPECT_LT(w["compiled_vs_fp64"]["rmse"].get<double>(), w["eager_vs_fp64"]["rmse"].get<double>());
  }
}

TEST(LocalizeResults, VerdictsAreRecomputedFromTheNumbers) {
  nlohmann::json ans = gpu_file("results/localize_mut_foreach_flip__model__0_inference_0.0.json");
  nlohmann::json w = ans["launches"][0]["writes"][0];
  EXPECT_EQ(recompute_write_verdict(w), "divergent");
  w["compiled_vs_fp64"]["rmse"] = w["eager_vs_fp64"]["rmse"];  // as close as eager: an artifact
  EXPECT_EQ(recompute_write_verdict(w), "precision-artifact");
  w["allclose"] = true;
  EXPECT_EQ(recompute_write_verdict(w), "ok");
  w["allclose"] = "yes";  // a mistyped member is no number to judge by
  EXPECT_EQ(recompute_write_verdict(w), "");
  // A tool that calls the divergent launch ok is caught, and the analyzer's verdict stands.
  nlohmann::json lie = ans;
  lie["launches"][0]["verdict"] = "ok";
  Analysis a;
  run_analysis({fixture("mut_foreach_flip")}, a);
  attach_localization(a, a.program.compiles[0], lie);
  const auto& row = a.localizations[0].answer["launches"][0];
  EXPECT_EQ(row["verdict_recomputed"], "divergent");
  EXPECT_TRUE(row["verdict_mismatch"].get<bool>());
}

TEST(LocalizeResults, ReportsListTheLaunchesAndTheFirstDivergentOne) {
  Analysis a;
  analyze_with_recorded("mut_foreach_flip", a);
  std::ostringstream text;
  write_text(a, TextOptions{}, text);
  EXPECT_NE(text.str().find("localize model__0_inference_0.0: divergent"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("first divergent launch 0"), std::string::npos) << text.str();
  auto j = analysis_json(a);
  ASSERT_EQ(j["localizations"].size(), 1u);
  EXPECT_EQ(j["localizations"][0]["compile"], "model__0_inference_0.0");
  // Without localize the JSON report has no such member (its bytes are unchanged).
  Analysis plain;
  run_analysis({fixture("mut_foreach_flip")}, plain);
  EXPECT_FALSE(analysis_json(plain).contains("localizations"));
}

TEST(LocalizeRun, NoInterpreterIsAnAnswerNotAFailure) {
  Analysis a;
  run_analysis({fixture("mut_foreach_flip_cpu")}, a);
  LocalizeOptions o;
  o.python = "/nonexistent/python3";
  o.device = "cpu";
  localize_compiles(a, o, false);
  ASSERT_EQ(a.localizations.size(), 1u);
  EXPECT_EQ(a.localizations[0].answer["verdict"], "skipped");
  EXPECT_EQ(a.localizations[0].answer["reason"], "no-python");
}

TEST(LocalizeRun, ConfirmLocalizesOnlyTheCompilesFindingsName) {
  // `confirm --localize`: the finding's compile is localized (here answered no-python), the clean
  // twin's is not asked for.
  Analysis a;
  run_analysis({fixture("mut_foreach_flip_cpu"), fixture("mut_foreach_flip_cpu_safe")}, a);
  ASSERT_EQ(a.program.compiles.size(), 2u);
  std::set<std::string> named;
  for (const auto& f : a.findings) named.insert(f.compile_id);
  ASSERT_EQ(named.size(), 1u);
  LocalizeOptions o;
  o.python = "/nonexistent/python3";
  o.device = "cpu";
  localize_compiles(a, o, /*only_with_findings=*/true);
  ASSERT_EQ(a.localizations.size(), 1u);
  EXPECT_EQ(a.localizations[0].compile_id, *named.begin());
}
