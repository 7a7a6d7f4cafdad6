// A tokenizer and parser for the subset of Python that Inductor emits: wrapper modules
// (output_code.py), Triton kernel sources, print_readable FX graphs (fx_graph_readable.py).
//
// It is not a full Python parser. It keeps what the analyzer needs, with exact positions:
// statements with their indentation and the comments right above them, and expressions as a
// small tree (names, literals, attributes, calls, subscripts, tuples/lists/dicts, operators).
// Anything it does not understand becomes an `Other` node or a diagnostic; it never throws.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ilint::py {

enum class Tok { Name, Number, String, Op, Newline, Indent, Comment, End, Error };

struct Token {
  Tok kind = Tok::Error;
  std::string text;    // for String: the decoded content (escapes kept as written); for others: as written
  int line = 0;        // 1-based
  int col = 0;         // 1-based
  size_t begin = 0;    // byte offsets into the source
  size_t end = 0;
  bool triple = false; // triple-quoted string
  std::string prefix;  // string prefix: r, b, f, rb ...
  int content_line = 0;  // String: line of the first content byte
};

struct Expr;
using ExprPtr = std::shared_ptr<Expr>;

struct Expr {
  enum Kind { Name, Number, String, Attribute, Call, Subscript, Tuple, List, Dict, Set, BinOp, UnaryOp,
              Compare, BoolOp, IfExp, Lambda, Starred, Slice, Ellipsis, Other };
  Kind kind = Other;
  std::string text;                  // Name: identifier; Number: literal; String: content; Attribute: attr;
                                     // BinOp/UnaryOp/Compare/BoolOp: operator
  std::vector<ExprPtr> items;        // operands, elements, call args, subscript [value, index]
  std::vector<std::pair<std::string, ExprPtr>> kwargs;  // Call keyword args; Dict entries use items pairs
  ExprPtr func;                      // Call callee / Attribute base
  int line = 0, col = 0;
  size_t begin = 0, end = 0;         // source byte range

  // "torch.ops.aten.add.Tensor" for a dotted name chain; empty when not a pure chain.
  std::string dotted() const;
  const Expr* kwarg(std::string_view name) const;
};

struct Stmt {
  enum Kind { Assign, AnnAssign, AugAssign, ExprStmt, Def, Class, Return, Del, With, For, While, If, Elif, Else,
              Try, Except, Finally, Import, Pass, Decorator, Other };
  Kind kind = Other;
  int indent = 0;                    // column of the first token (0-based count of leading spaces)
  int line = 0, col = 0;
  size_t begin = 0, end = 0;
  std::vector<ExprPtr> targets;      // Assign/AnnAssign/AugAssign/Del/For targets
  ExprPtr value;                     // Assign value, ExprStmt expr, Return value, With items (as Tuple), For iter
  ExprPtr annotation;                // AnnAssign annotation
  std::string name;                  // Def/Class name
  std::vector<std::pair<std::string, ExprPtr>> params;  // Def parameters with annotations (may be null)
  std::vector<Token> comments_above; // comment lines directly above (no blank line between)
  std::string trailing_comment;      // comment at the end of the line
  std::string enclosing_def;         // innermost def this statement is in ("" at module level)
  int def_depth = 0;
};

struct ParseIssue {
  int line = 0, col = 0;
  std::string message;
};

struct Module {
  std::string source;                // the text parsed (kept: expressions point into it)
  std::vector<Stmt> stmts;           // in source order, nested blocks flattened (see indent/enclosing_def)
  std::vector<ParseIssue> issues;
  int line_offset = 0;               // added to every line: for sources embedded in another file

  std::string text_of(const Expr& e) const { return source.substr(e.begin, e.end - e.begin); }
};

// Tokenizes and parses. `line_offset` shifts reported lines (an embedded kernel source whose first
// line is line N of its file is parsed with line_offset = N - 1).
Module parse_module(std::string source, int line_offset = 0);

// Tokens only (used by the fuzzer and by tests).
std::vector<Token> tokenize(std::string_view source, std::vector<ParseIssue>* issues);

// Python number literal -> double (handles 1e-8, 0x.., 1_000, inf/nan names are not numbers).
bool number_value(const std::string& text, double& out);

// Collapses runs of whitespace to one space and trims: a stable text form of an index expression.
std::string normalize_space(std::string_view s);

}  // namespace ilint::py
