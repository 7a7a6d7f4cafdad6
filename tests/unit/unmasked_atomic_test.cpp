// Rule unmasked-atomic, end to end on real H100 captures of tools/capture_scripts/unmasked_atomic.py
// (torch 2.11): the scalar broadcast fused with scatter_reduce into a 1x1 output, N = 5 and 33 (each
// capture's stdout.txt: eager-compiled = padded lanes x bias), and N = 8 (a power of two: 0). The
// recorded `confirm` answers are tests/gpu/results/confirm_atomic_n*_cuda.json.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzer/confirm/confirm.h"
#include "rule_test_util.h"

using namespace ilint;
using namespace ilint::testing;

namespace {
nlohmann::json gpu_result(const std::string& name) {
  return nlohmann::json::parse(read_all(std::string(ILINT_SOURCE_DIR) + "/tests/gpu/results/" + name));
}
}  // namespace

TEST(UnmaskedAtomic, PaddedLanesAddTheBroadcastValue) {
  struct Case {
    const char* capture;
    int64_t xnumel, padded;
  } cases[] = {{"atomic_n5_cuda", 5, 3}, {"atomic_n33_cuda", 33, 31}};
  for (const auto& c : cases) {
    Analysis a;
    auto found = run_rule(kFixtures + "/" + c.capture, "unmasked-atomic", a);
    ASSERT_EQ(found.size(), 1u) << c.capture;
    const Finding& f = *found[0];
    EXPECT_EQ(f.severity, Severity::Error);
    EXPECT_EQ(f.evidence["xnumel"], c.xnumel);
    EXPECT_EQ(f.evidence["padded_lanes"], c.padded);
    EXPECT_EQ(f.evidence["store"]["mask"], "None");
    EXPECT_EQ(f.evidence["unmasked_load"]["ptr"], "in_ptr2");  // the bias, read by every lane
    EXPECT_NE(line_at(f.location).find("tl.atomic_add("), std::string::npos) << line_at(f.location);
    ASSERT_FALSE(f.related.empty());
    EXPECT_NE(f.related[0].message.find("scatter_reduce"), std::string::npos) << f.related[0].message;
    // The capture's own run measured what the padded lanes predict: (padded) x 0.020368.
    std::string out = read_all(kFixtures + "/" + c.capture + "/stdout.txt");
    EXPECT_NE(out.find("padded lanes " + std::to_string(c.padded) + " "), std::string::npos) << out;
  }
}

TEST(UnmaskedAtomic, APowerOfTwoFillsEveryBlock) {
  // The same kernel, the same mask=None atomic: xnumel = 8 leaves no lane past it.
  Analysis a;
  EXPECT_TRUE(run_rule(kFixtures + "/atomic_n8_cuda", "unmasked-atomic", a).empty());
  bool has_unmasked_atomic = false;
  for (const auto& c : a.program.compiles)
    for (const auto& k : c.kernels)
      for (const auto& s : k.stores) has_unmasked_atomic |= s.atomic && s.mask == "None";
  EXPECT_TRUE(has_unmasked_atomic) << "the twin must hold the same unmasked atomic";
}

TEST(UnmaskedAtomic, ReExecutionConfirmsOnlyThePaddedSizes) {
  for (const char* name : {"confirm_atomic_n5_cuda.json", "confirm_atomic_n33_cuda.json"}) {
    auto r = gpu_result(name);
    EXPECT_EQ(r["verdict"], "confirmed") << name;
    EXPECT_EQ(recompute_graph_verdict(r), "confirmed") << name;
  }
  auto twin = gpu_result("confirm_atomic_n8_cuda.json");
  EXPECT_EQ(twin["verdict"], "not-reproduced");
  EXPECT_EQ(recompute_graph_verdict(twin), "not-reproduced");
}
