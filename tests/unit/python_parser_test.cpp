#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

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

// ---- Reading by pieces: the same statements as reading whole, on every real file.

namespace {

void dump_expr(const Module& m, const Expr* e, std::string& out) {
  if (!e) {
    out += "_";
    return;
  }
  out += std::to_string(e->kind) + ":" + std::string(e->text) + "@" + std::to_string(e->line) + "." +
         std::to_string(e->col) + "[" + std::string(m.text_of(*e)) + "](";
  if (e->func) dump_expr(m, e->func, out);
  for (const Expr* i : e->items) dump_expr(m, i, out), out += ",";
  for (const auto& [k, v] : e->kwargs) out += std::string(k) + "=", dump_expr(m, v, out), out += ",";
  out += ")";
}

// Every field of a statement and its expressions, as text.
std::string dump_stmt(const Module& m, const Stmt& s) {
  std::string out = std::to_string(s.kind) + " indent " + std::to_string(s.indent) + " at " + std::to_string(s.line) +
                    "." + std::to_string(s.col) + " bytes " + std::to_string(s.begin) + "-" + std::to_string(s.end) +
                    " in " + std::string(s.enclosing_def) + "/" + std::to_string(s.def_depth) + " name " +
                    std::string(s.name) + " trailing " + std::string(s.trailing_comment) + " above";
  for (const auto& c : s.comments_above) out += " " + std::string(c.text) + "@" + std::to_string(c.line);
  out += " params";
  for (const auto& [n, a] : s.params) out += " " + std::string(n) + (a ? ":" + std::string(m.text_of(*a)) : "");
  out += " targets ";
  for (const Expr* t : s.targets) dump_expr(m, t, out);
  out += " value ";
  dump_expr(m, s.value, out);
  out += " annotation ";
  dump_expr(m, s.annotation, out);
  return out;
}

std::vector<std::string> read_whole(std::string_view src, std::vector<std::string>* issues) {
  Module m = parse_module(std::string(src), 3);
  std::vector<std::string> out;
  for (const auto& s : m.stmts) out.push_back(dump_stmt(m, s));
  for (const auto& i : m.issues) issues->push_back(std::to_string(i.line) + "." + std::to_string(i.col) + " " + i.message);
  return out;
}

std::vector<std::string> read_by_pieces(std::string_view src, size_t piece, std::vector<std::string>* issues,
                                        size_t* pieces) {
  std::vector<std::string> out;
  std::vector<ParseIssue> found;
  *pieces = 0;
  parse_module_by_pieces(
      src, 3, found,
      [&](const Module& m) {
        ++*pieces;
        for (const auto& s : m.stmts) out.push_back(dump_stmt(m, s));
      },
      piece);
  for (const auto& i : found) issues->push_back(std::to_string(i.line) + "." + std::to_string(i.col) + " " + i.message);
  return out;
}

}  // namespace

TEST(PythonParserPieces, EveryRealFileReadsTheSameWholeAndCutAtEveryLine) {
  // The Python files of every fixture capture (wrappers, FX graphs) and the Triton kernel
  // sources inside the wrappers, read with pieces of 1 token (a piece ends at each line end),
  // 7 and 64 tokens, and whole.
  std::vector<std::string> sources;
  for (const auto& e : std::filesystem::recursive_directory_iterator(ILINT_FIXTURES_DIR)) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || (name != "output_code.py" && name != "fx_graph_readable.py")) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    sources.push_back(ss.str());
    if (name != "output_code.py") continue;
    Module m = parse_module(sources.back());
    for (const auto& s : m.stmts)
      if (s.value && s.value->kind == Expr::Call && s.value->items.size() >= 2 &&
          s.value->items[1]->kind == Expr::String)
        sources.emplace_back(s.value->items[1]->text);
  }
  ASSERT_GT(sources.size(), 100u);
  size_t multi_piece = 0;
  for (const auto& src : sources) {
    std::vector<std::string> whole_issues;
    auto whole = read_whole(src, &whole_issues);
    for (size_t piece : {size_t(1), size_t(7), size_t(64)}) {
      std::vector<std::string> issues;
      size_t pieces = 0;
      auto cut = read_by_pieces(src, piece, &issues, &pieces);
      multi_piece += pieces > 1;
      ASSERT_EQ(cut.size(), whole.size()) << src.substr(0, 200);
      for (size_t i = 0; i < whole.size(); ++i) ASSERT_EQ(cut[i], whole[i]) << "piece " << piece;
      std::sort(issues.begin(), issues.end());
      std::sort(whole_issues.begin(), whole_issues.end());
      EXPECT_EQ(issues, whole_issues);
    }
  }
  EXPECT_GT(multi_piece, sources.size() * 2);
}

TEST(PythonParserPieces, AnUnclosedBracketIsCutAndTheRestStillRead) {
  // `(` never closed, then 400k tokens: whole, one statement; by pieces, cut every 128k tokens
  // (the longest logical line kept whole), each piece parsed and freed.
  std::string src = "x = (\n";
  for (int i = 0; i < 20000; ++i) src += "a, b, c, d, e, f, g, h, i, j,\n";
  std::vector<ParseIssue> issues;
  size_t pieces = 0, most = 0;
  parse_module_by_pieces(
      src, 0, issues,
      [&](const Module& m) {
        ++pieces;
        most = std::max(most, m.stmts.size());
      },
      64);
  EXPECT_GE(pieces, 3u);
  EXPECT_LE(pieces, 4u);
  EXPECT_LE(issues.size(), 402u);
}
