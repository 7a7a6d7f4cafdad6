// Rule output-dtype-mismatch, end to end on real torch 2.14.1 CPU captures of
// tools/capture_scripts/int_forms.py: `torch.any(x) * 200 + 100` on uint8, whose FX graph returns a
// u8 `add` while call() returns an int64 buffer (the capture's stdout.txt: eager 44 uint8, compiled 300
// int64), and its twin with torch.all (uint8 both). The live suite confirms the same program on 2.13.
#include <gtest/gtest.h>

#include <filesystem>

#include "analyzer/confirm/confirm.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

TEST(OutputDtypeMismatch, AnIntegerOutputReturnedWiderThanEagerIsAnError) {
  Analysis a;
  auto found = run_rule(kFixtures + "/int_uint8_any_t214", "output-dtype-mismatch", a);
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = *found[0];
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_EQ(f.evidence["eager_dtype"], "u8");
  EXPECT_EQ(f.evidence["compiled_dtype"], "i64");
  EXPECT_EQ(f.evidence["fx_node"], "add");
  EXPECT_EQ(f.evidence["output_position"], 0);
  EXPECT_NE(line_at(f.location).find("empty_strided_cpu((), (), torch.int64)"), std::string::npos) << line_at(f.location);
  ASSERT_FALSE(f.related.empty());
  EXPECT_NE(f.related[0].message.find("torch.any(x) * 200 + 100"), std::string::npos) << f.related[0].message;
  EXPECT_LE(f.message.size(), kHeadlineMaxBytes);
  std::string out = read_all(kFixtures + "/int_uint8_any_t214/stdout.txt");
  EXPECT_NE(out.find("eager 44 torch.uint8 compiled 300 torch.int64"), std::string::npos) << out;
}

// The TORCH_TRACE log alone holds the same graph and wrapper: the same finding.
TEST(OutputDtypeMismatch, TheTraceAloneGivesTheSameFinding) {
  Analysis whole, trace;
  auto a = run_rule(kFixtures + "/int_uint8_any_t214", "output-dtype-mismatch", whole);
  auto b = run_rule(kFixtures + "/int_uint8_any_t214/trace", "output-dtype-mismatch", trace);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0]->fingerprint, b[0]->fingerprint);
}

TEST(OutputDtypeMismatch, AnOutputOfEagersDtypeIsNoFinding) {
  Analysis a;
  EXPECT_TRUE(run_rule(kFixtures + "/int_uint8_all_t214", "output-dtype-mismatch", a).empty());
  std::string out = read_all(kFixtures + "/int_uint8_all_t214/stdout.txt");
  EXPECT_NE(out.find("eager 44 torch.uint8 compiled 44 torch.uint8"), std::string::npos) << out;
}

// No other capture of the fixtures returns an output of another dtype than its FX graph's.
TEST(OutputDtypeMismatch, NoOtherFixtureHasAFinding) {
  size_t compiles = 0;
  for (const auto& e : std::filesystem::directory_iterator(kFixtures)) {
    if (!e.is_directory() || e.path().filename() == "int_uint8_any_t214") continue;
    Analysis a;
    for (const Finding* f : run_rule(e.path().string(), "output-dtype-mismatch", a))
      ADD_FAILURE() << e.path().filename() << ": " << f->message;
    compiles += a.program.compiles.size();
  }
  EXPECT_GT(compiles, 100u);
}

// Graph-mode confirm on torch 2.14.1 CPU (tests/recorded/confirm_int_uint8_any_t214.json): the
// integer output is compared with eager exactly, dtype included; the analyzer's own recomputation
// of the verdict from those numbers agrees.
TEST(OutputDtypeMismatch, ConfirmComparesTheIntegerOutputWithItsDtype) {
  auto r = nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/recorded/confirm_int_uint8_any_t214.json"));
  EXPECT_EQ(r["verdict"], "confirmed");
  EXPECT_EQ(recompute_graph_verdict(r), "confirmed");
  const auto& o = r["seeds"][0]["outputs"][0];
  EXPECT_TRUE(o["exact"].get<bool>());
  EXPECT_EQ(o["dtype"], "uint8");
  EXPECT_EQ(o["compiled_dtype"], "int64");
  // The same answer with the compiled dtype made eager's and the values equal: nothing to confirm.
  for (auto& s : r["seeds"])
    for (auto& out : s["outputs"])
      if (out["mismatched"] == 0) out["agree"] = true;
  EXPECT_EQ(recompute_graph_verdict(r), "not-reproduced");
}
