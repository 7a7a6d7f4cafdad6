// The Sym(...) expression evaluator, checked against real compiles: the expressions Dynamo printed for
// compile 2/1 of s1_cuda (dynamic float, hint zf2 = 2.0) evaluate to exactly the constants that the
// specialized compile 2/1_1 baked into its FX graph.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "analyzer/dynamo/literals.h"
#include "analyzer/dynamo/readers.h"
#include "analyzer/model/sym_expr.h"
#include "test_util.h"

namespace fs = std::filesystem;
using namespace ilint;
using namespace ilint::dynamo;

TEST(DynamoSymEval, Basics) {
  std::map<std::string, double> z{{"zf2", 2.0}};
  EXPECT_DOUBLE_EQ(*eval_sym_expr("1.0 - FloatPow(0.9, zf2)", z), 1.0 - std::pow(0.9, 2.0));
  EXPECT_DOUBLE_EQ(*eval_sym_expr("-(FloatTrueDiv(0.001, 1.0 - FloatPow(0.9, zf2)))", z),
                   -(0.001 / (1.0 - std::pow(0.9, 2.0))));
  EXPECT_DOUBLE_EQ(*eval_sym_expr("2*zf2 + 3", z), 7.0);
  EXPECT_DOUBLE_EQ(*eval_sym_expr("zf2**3 - 1", z), 7.0);
  EXPECT_DOUBLE_EQ(*eval_sym_expr("Max(1, zf2/4)", z), 1.0);
  EXPECT_FALSE(eval_sym_expr("zf3 + 1", z));          // unbound symbol
  EXPECT_FALSE(eval_sym_expr("Unknown(zf2)", z));     // unknown function
  EXPECT_FALSE(eval_sym_expr("1 +", z));              // truncated
  EXPECT_FALSE(eval_sym_expr(std::string(5000, '('), z));  // hostile nesting: bounded, no crash
  auto names = sym_expr_symbols("FloatPow(1.0 - FloatPow(0.999, zf2), 0.5) + s33");
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), (std::set<std::string>{"zf2", "s33"}));
}

TEST(DynamoSymEval, ReproducesTheBakedConstantsOfS1Cuda) {
  std::string trace, fx;
  for (const auto& e : fs::recursive_directory_iterator(std::string(ILINT_FIXTURES_DIR) + "/s1_cuda")) {
    std::string p = e.path().string();
    if (p.find("dedicated_log_torch_trace_") != std::string::npos) trace = p;
    if (p.find("model__3_inference_2.2/fx_graph_readable.py") != std::string::npos) fx = p;
  }
  ASSERT_FALSE(trace.empty());
  ASSERT_FALSE(fx.empty());
  LogFacts lf;
  DiagSink d;
  ASSERT_TRUE(read_trace_log(trace, lf, d));
  const CompileFacts* dyn = nullptr;
  for (const auto& c : lf.compiles)
    if (c.session == 0 && c.id.str() == "2/1") dyn = &c;
  ASSERT_NE(dyn, nullptr);
  ASSERT_FALSE(dyn->sym_exprs.empty());
  std::set<double> values;
  for (const auto& e : dyn->sym_exprs)
    if (auto v = eval_sym_expr(e, {{"zf2", 2.0}})) values.insert(*v);
  // The literals of the specialized compile made for the same value, as the model holds them.
  Analysis a;
  ilint::testing::run_analysis({fx.substr(0, fx.rfind('/'))}, a);
  ASSERT_EQ(a.program.compiles.size(), 1u);
  size_t matched = 0, floats = 0;
  for (const auto& s : fx_literals(a.program.compiles[0], "inference")) {
    ++floats;
    if (values.count(s.value)) ++matched;  // bit-exact: same double arithmetic as Python
  }
  EXPECT_EQ(floats, 3u);   // 0.04471017781221601, 1e-08, -0.005263157894736844
  EXPECT_EQ(matched, 2u);  // all but the epsilon
}
