// A tokenizer and parser for the subset of Python that Inductor emits: wrapper modules
// (output_code.py), Triton kernel sources, print_readable FX graphs (fx_graph_readable.py).
//
// It is not a full Python parser. It keeps what the analyzer needs, with exact positions:
// statements with their indentation and the comments right above them, and expressions as a
// small tree (names, literals, attributes, calls, subscripts, tuples/lists/dicts, operators).
// Anything it does not understand becomes an `Other` node or a diagnostic; it never throws.
//
// Memory: nothing in a Module owns a string of its own. Every text (token texts, names, string
// literal contents, comments) is a view into the source, and the expression nodes, their child
// arrays and the statements' comment tokens live in one arena owned by the Module. A Module is
// freed in a few calls whatever the depth of its trees, and stays valid when moved. Views taken
// from it are valid as long as the Module (and, for parse_module_view, the source) lives.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ilint::py {

enum class Tok : uint8_t { Name, Number, String, Op, Newline, Indent, Comment, End, Error };

// The code of an operator token: its bytes packed little-endian (at most 3). op_code("**").
constexpr uint32_t op_code(std::string_view s) {
  uint32_t c = 0;
  for (size_t i = 0; i < s.size() && i < 3; ++i) c |= uint32_t(static_cast<unsigned char>(s[i])) << (8 * i);
  return c;
}

// Keywords the parser looks at: the code of a Name token that spells one (0 for other names).
enum Kw : uint32_t {
  KwNone = 0, KwDef, KwAsync, KwClass, KwReturn, KwDel, KwWith, KwFor, KwIn, KwWhile, KwIf, KwElif, KwElse, KwTry,
  KwFinally, KwExcept, KwImport, KwFrom, KwPass, KwBreak, KwContinue, KwRaise, KwGlobal, KwNonlocal, KwAssert,
  KwLambda, KwOr, KwAnd, KwNot, KwIs
};

struct Token {
  Tok kind = Tok::Error;
  bool triple = false;        // triple-quoted string
  uint32_t code = 0;          // Op/Error: op_code(text); Name: its Kw (KwNone for other names)
  int line = 0;               // 1-based
  int col = 0;                // 1-based
  std::string_view text;      // a view into the source. String: the content between the quotes, as
                              // written (escapes kept; the prefix, r b f ..., is the source from
                              // `begin` to the quote); Indent, Newline, End: empty
  size_t begin = 0;           // byte offsets into the source
  size_t end = 0;
  int width = 0;              // Indent: width of the leading whitespace (a tab advances to a multiple of 8)
};

struct Expr;

// A fixed array in a Module's arena (child nodes, keyword arguments, comment tokens).
template <class T>
struct Span {
  T* ptr = nullptr;
  size_t n = 0;
  T* begin() const { return ptr; }
  T* end() const { return ptr + n; }
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  T& operator[](size_t i) const { return ptr[i]; }
  T& front() const { return ptr[0]; }
  T& back() const { return ptr[n - 1]; }
};

using Kwarg = std::pair<std::string_view, Expr*>;  // name (or "**"), value

struct Expr {
  enum Kind { Name, Number, String, Attribute, Call, Subscript, Tuple, List, Dict, Set, BinOp, UnaryOp,
              Compare, BoolOp, IfExp, Lambda, Starred, Slice, Ellipsis, Other };
  Kind kind = Other;
  std::string_view text;             // Name: identifier; Number: literal; String: content (adjacent literals
                                     // concatenated); Attribute: attr; BinOp/UnaryOp/Compare/BoolOp: operator
  Span<Expr*> items;                 // operands, elements, call args, subscript [value, index]; never null
  Span<Kwarg> kwargs;                // Call keyword args; Dict entries use items pairs
  Expr* func = nullptr;              // Call callee / Attribute base
  int line = 0, col = 0;
  size_t begin = 0, end = 0;         // source byte range

  // "torch.ops.aten.add.Tensor" for a dotted name chain; empty when not a pure chain.
  std::string dotted() const;
  // dotted() == s, without building the string.
  bool dotted_is(std::string_view s) const;
  const Expr* kwarg(std::string_view name) const;
};

using Param = std::pair<std::string_view, Expr*>;  // name ("*args", "**kw" as written), annotation or null

struct Stmt {
  enum Kind { Assign, AnnAssign, AugAssign, ExprStmt, Def, Class, Return, Del, With, For, While, If, Elif, Else,
              Try, Except, Finally, Import, Pass, Decorator, Other };
  Kind kind = Other;
  int indent = 0;                    // column of the first token (0-based count of leading spaces)
  int line = 0, col = 0;
  size_t begin = 0, end = 0;
  Span<Expr*> targets;               // Assign/AnnAssign/AugAssign/Del/For targets
  Expr* value = nullptr;             // Assign value, ExprStmt expr, Return value, With items (as Tuple), For iter
  Expr* annotation = nullptr;        // AnnAssign annotation
  std::string_view name;             // Def/Class name
  Span<Param> params;                // Def parameters with annotations (may be null)
  Span<Token> comments_above;        // comment lines directly above (no blank line between)
  std::string_view trailing_comment; // comment at the end of the line
  std::string_view enclosing_def;    // innermost def this statement is in ("" at module level)
  int def_depth = 0;
};

struct ParseIssue {
  int line = 0, col = 0;
  std::string message;
};

// Bump allocator for the nodes of one Module. Only trivially destructible objects go in it.
class Arena {
 public:
  Arena() = default;
  Arena(Arena&& o) noexcept;
  Arena& operator=(Arena&& o) noexcept;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  void* alloc(size_t bytes, size_t align) {
    size_t pad = (0 - reinterpret_cast<uintptr_t>(cur_)) & (align - 1);
    if (!cur_ || pad + bytes > left_) return grow(bytes, align);
    char* p = cur_ + pad;
    cur_ = p + bytes;
    left_ -= pad + bytes;
    return p;
  }
  template <class T>
  T* make() {
    return new (alloc(sizeof(T), alignof(T))) T();
  }
  template <class T>
  Span<T> copy(const T* p, size_t n) {
    if (n == 0) return {};
    T* d = static_cast<T*>(alloc(sizeof(T) * n, alignof(T)));
    for (size_t i = 0; i < n; ++i) new (d + i) T(p[i]);
    return {d, n};
  }
  std::string_view copy(std::string_view s);
  void reserve_first(size_t bytes) { first_ = bytes; }
  void clear();  // frees every node at once

 private:
  void* grow(size_t bytes, size_t align);  // a new block, then the allocation from it
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* cur_ = nullptr;
  size_t left_ = 0;
  size_t first_ = 4096;
};

struct Module {
  std::string_view source;           // the text parsed (expressions and tokens point into it)
  std::vector<Stmt> stmts;           // in source order, nested blocks flattened (see indent/enclosing_def)
  std::vector<ParseIssue> issues;
  int line_offset = 0;               // added to every line: for sources embedded in another file

  std::string_view text_of(const Expr& e) const { return source.substr(e.begin, e.end - e.begin); }

  // Storage: the source when the Module owns it (parse_module), and the nodes.
  std::unique_ptr<std::string> owned_source;
  Arena arena;
};

// Tokenizes and parses a copy of `source`, owned by the Module. `line_offset` shifts reported lines
// (an embedded kernel source whose first line is line N of its file is parsed with line_offset = N - 1).
Module parse_module(std::string source, int line_offset = 0);

// The same without the copy: the Module points into `source`, which must outlive it.
Module parse_module_view(std::string_view source, int line_offset = 0);

// The same, a piece at a time, for files of any size: `each` sees a Module holding the statements
// of the next run of whole logical lines (about `piece_tokens` tokens); its nodes are freed after the call
// and the next piece goes on where it stopped (indentation, enclosing defs, comments above). A
// line's statements and comments, including a trailing comment, are in one piece, unless the
// logical line holds over 128k tokens (no generated code does): it is cut there. The issues of
// all pieces end in `issues`. Memory stays at a few MB whatever the size of the source.
// `piece_tokens` is the size of a piece (tests make it small to cut real files at every line).
constexpr size_t kPieceTokens = size_t(1) << 16;
void parse_module_by_pieces(std::string_view source, int line_offset, std::vector<ParseIssue>& issues,
                            const std::function<void(const Module&)>& each, size_t piece_tokens = kPieceTokens);

// Tokens only (used by the fuzzer and by tests). Their texts point into `source`.
std::vector<Token> tokenize(std::string_view source, std::vector<ParseIssue>* issues);

// Python number literal -> double (handles 1e-8, 0x.., 1_000, inf/nan names are not numbers).
bool number_value(std::string_view text, double& out);

// Collapses runs of whitespace to one space and trims: a stable text form of an index expression.
std::string normalize_space(std::string_view s);
// `s` without its leading and trailing whitespace (a view into it): normalize_space(s) when what
// is left holds no whitespace.
std::string_view trim_space(std::string_view s);

}  // namespace ilint::py
