#include <gtest/gtest.h>

#include "analyzer/parse/python.h"

using namespace ilint::py;

TEST(PythonTokenizer, KeepsLineAndColumnOfEveryToken) {
  auto toks = tokenize("x = 1\n  y = foo(a,\n      b)  # c\n", nullptr);
  ASSERT_GE(toks.size(), 8u);
  // x at 1:1, y at 2:3, b at 3:7
  bool saw_b = false;
  for (auto& t : toks)
    if (t.kind == Tok::Name && t.text == "b") {
      EXPECT_EQ(t.line, 3);
      EXPECT_EQ(t.col, 7);
      saw_b = true;
    }
  EXPECT_TRUE(saw_b);
}

TEST(PythonTokenizer, TripleQuotedStringSpansLines) {
  std::vector<ParseIssue> issues;
  auto toks = tokenize("k = f('n', '''\nline1\nline2\n''', d='x')\nz = 2\n", &issues);
  EXPECT_TRUE(issues.empty());
  const Token* s = nullptr;
  for (auto& t : toks)
    if (t.kind == Tok::String && t.triple) s = &t;
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->line, 1);
  EXPECT_EQ(s->text, "\nline1\nline2\n");
  // z on line 5 after the string.
  for (auto& t : toks)
    if (t.kind == Tok::Name && t.text == "z") EXPECT_EQ(t.line, 5);
}

TEST(PythonTokenizer, UnterminatedStringIsReportedNotFatal) {
  std::vector<ParseIssue> issues;
  auto toks = tokenize("a = '''never closed\nmore\n", &issues);
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issues[0].line, 1);
  EXPECT_EQ(toks.back().kind, Tok::End);
}

TEST(PythonParser, ParsesAssignmentsCallsAndAnnotations) {
  auto m = parse_module("add: \"bf16[8, 15]\" = torch.ops.aten.add.Tensor(slice_3, slice_4);  slice_3 = None\n");
  ASSERT_EQ(m.stmts.size(), 2u);
  EXPECT_EQ(m.stmts[0].kind, Stmt::AnnAssign);
  ASSERT_TRUE(m.stmts[0].value);
  EXPECT_EQ(m.stmts[0].value->kind, Expr::Call);
  EXPECT_EQ(m.stmts[0].value->func->dotted(), "torch.ops.aten.add.Tensor");
  EXPECT_EQ(m.stmts[0].annotation->text, "bf16[8, 15]");
  EXPECT_EQ(m.stmts[1].kind, Stmt::Assign);
  EXPECT_TRUE(m.issues.empty());
}

TEST(PythonParser, TupleTargetAndTrailingCast) {
  auto m = parse_module("def k():\n    tmp10, = tl.associative_scan((tmp9,), 1, fn)\n    tmp3 = tmp2.to(tl.float32)\n");
  ASSERT_EQ(m.stmts.size(), 3u);
  EXPECT_EQ(m.stmts[1].enclosing_def, "k");
  EXPECT_EQ(m.stmts[1].targets[0]->kind, Expr::Tuple);
  EXPECT_EQ(m.stmts[2].value->func->text, "to");
  EXPECT_EQ(m.text_of(*m.stmts[2].value), "tmp2.to(tl.float32)");
}

TEST(PythonParser, ParenthesizedOperandKeepsBalancedText) {
  auto m = parse_module("x = tl.load(p + ((-1) + x0 + 16*r0_1), m)\n");
  ASSERT_EQ(m.stmts.size(), 1u);
  auto& call = *m.stmts[0].value;
  ASSERT_EQ(call.items.size(), 2u);
  EXPECT_EQ(m.text_of(*call.items[0]), "p + ((-1) + x0 + 16*r0_1)");
}

TEST(PythonParser, DeepNestingIsCutOffWithADiagnostic) {
  std::string deep = "x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\ny = 2\n";
  auto m = parse_module(deep);
  EXPECT_FALSE(m.issues.empty());
  ASSERT_FALSE(m.stmts.empty());
  EXPECT_EQ(m.stmts.back().targets[0]->text, "y");
}

TEST(PythonParser, CommentsAboveAreAttached) {
  auto m = parse_module("# one\n# two\nx = 1\n\n# far\n\ny = 2\n");
  ASSERT_EQ(m.stmts.size(), 2u);
  EXPECT_EQ(m.stmts[0].comments_above.size(), 2u);
  EXPECT_TRUE(m.stmts[1].comments_above.empty());
}

TEST(PythonParser, AnEmptyStatementHasAnEmptyRange) {
  auto m = parse_module("x=1;  ;y\n");
  ASSERT_EQ(m.stmts.size(), 3u);
  for (const auto& s : m.stmts) EXPECT_LE(s.begin, s.end);
  EXPECT_EQ(m.stmts[1].begin, 6u);
  EXPECT_EQ(m.stmts[1].end, 6u);
}

TEST(PythonParser, NumberValues) {
  double v;
  EXPECT_TRUE(number_value("-0.005263157894736844", v) || number_value("0.005263157894736844", v));
  EXPECT_TRUE(number_value("1e-08", v));
  EXPECT_DOUBLE_EQ(v, 1e-08);
  EXPECT_TRUE(number_value("1_000", v));
  EXPECT_DOUBLE_EQ(v, 1000);
  EXPECT_FALSE(number_value("abc", v));
}
