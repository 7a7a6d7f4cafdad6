// The hand reader of Inductor's C++ kernels. What it reads and why: cpp_kernel_hand.h.
//
// Three parts, in the order they run on a kernel:
//  1. Lexer: tokens with Clang's line and column (bytes, 1-based, lines ended by \n, \r\n or
//     \r). #include lines are skipped as the Clang path blanks them; `#pragma omp`,
//     `#pragma GCC ivdep` and `#pragma GCC unroll N` are what Inductor writes (Clang, without
//     -fopenmp, ignores the first two; the third must precede a loop); any other directive
//     declines.
//  2. Parser: a tree per statement and expression with the type of every value under the
//     prelude's declarations. The tree holds what Clang's AST holds that the Clang reader looks
//     at, with Clang's choices made: `a + b` on two Vectorized is an overloaded operator call, on
//     two floats a builtin operator; `Vectorized<float>(x)` is a functional cast, `Vectorized<float>()`
//     a temporary object. Implicit conversions are not represented (the Clang reader strips them).
//  3. Walk: the Clang reader's KernelVisitor (analyzer/cpp/clang/kernel_reader.cpp), statement for
//     statement over this tree, in the same (pre-order) traversal.
// Declining is an exception (Declined) thrown anywhere and caught once per kernel.
#include "analyzer/cpp/cpp_kernel_hand.h"

#include "analyzer/cpp/cpp_kernel_facts.h"
#include "analyzer/cpp/cpp_text.h"
#include "analyzer/util/word_set.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ilint {

namespace {

using cpp_kernel_facts::accumulator_base;

struct Declined {
  std::string why;
};
[[noreturn]] void decline(std::string why) { throw Declined{std::move(why)}; }

// Nesting depth past which the reader declines (Clang's own limits then apply); the deepest
// real kernel nests 58 levels (cpp_limits.h).
constexpr int kMaxDepth = 200;

// ------------------------------------------------------------------ lexer

enum class TK { Ident, Int, Float, String, Punct, Unroll, End };

struct Token {
  TK kind = TK::End;
  std::string_view text;
  int line = 0, col = 0;
  size_t begin = 0, end = 0;  // byte offsets in the source
};

// Character classes by table: the lexer asks one of a name's every byte.
struct IdentTable {
  bool start[256] = {}, rest[256] = {};
  constexpr IdentTable() {
    for (int c = 0; c < 256; ++c) {
      start[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      rest[c] = start[c] || (c >= '0' && c <= '9');
    }
  }
};
constexpr IdentTable kIdent;
inline bool ident_start(char c) { return kIdent.start[static_cast<unsigned char>(c)]; }
inline bool ident_char(char c) { return kIdent.rest[static_cast<unsigned char>(c)]; }
inline bool digit(char c) { return c >= '0' && c <= '9'; }

// Length of the punctuator at s[i] (longest match, as Clang lexes), 0 when there is none. A
// switch, not a table scan: the lexer meets a punctuator every few bytes.
size_t punct_length(std::string_view s, size_t i) {
  char c = s[i];
  char n = i + 1 < s.size() ? s[i + 1] : '\0';
  char n2 = i + 2 < s.size() ? s[i + 2] : '\0';
  switch (c) {
    case '<':
    case '>':
      if (n == c) return n2 == '=' ? 3 : 2;  // << >> <<= >>=
      return n == '=' ? 2 : 1;
    case '.': return n == '.' && n2 == '.' ? 3 : 1;
    case ':': return n == ':' ? 2 : 1;
    case '-': return n == '>' || n == '-' || n == '=' ? 2 : 1;
    case '+':
    case '&':
    case '|': return n == c || n == '=' ? 2 : 1;
    case '*':
    case '/':
    case '%':
    case '^':
    case '!':
    case '=': return n == '=' ? 2 : 1;
    case '{':
    case '}':
    case '(':
    case ')':
    case '[':
    case ']':
    case ';':
    case ',':
    case '?':
    case '~': return 1;
    default: return 0;
  }
}

// One loop over the bytes, as the Python tokenizer's: its cases (comments, preprocessor lines,
// literals, names, punctuators) share the position and line state, so it stays one function.
std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  out.reserve(s.size() / 4);
  size_t i = 0, line_start = 0;
  int line = 1;
  bool at_line_start = true;
  auto newline = [&](size_t at) {  // `at` is the first byte of the line end
    if (s[at] == '\r' && at + 1 < s.size() && s[at + 1] == '\n') ++at;
    ++line;
    line_start = at + 1;
    at_line_start = true;
    return at + 1;
  };
  auto rest_of_line = [&](size_t from) {
    size_t e = from;
    while (e < s.size() && s[e] != '\n' && s[e] != '\r') ++e;
    return e;
  };
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n' || c == '\r') {
      i = newline(i);
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '\\') decline("a backslash outside a string");
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      size_t e = rest_of_line(i);
      if (e > i && s[e - 1] == '\\') decline("a line comment continued by a backslash");
      i = e;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      if (e == std::string_view::npos) decline("an unterminated comment");
      for (size_t j = i; j < e; ++j)
        if (s[j] == '\n' || s[j] == '\r') {
          newline(j);
          if (s[j] == '\r' && j + 1 < e && s[j + 1] == '\n') ++j;
        }
      at_line_start = false;
      i = e + 2;
      continue;
    }
    if (c == '#') {
      if (!at_line_start) decline("a '#' after code on its line");
      size_t e = rest_of_line(i);
      if (e > i && s[e - 1] == '\\') decline("a directive continued by a backslash");
      std::string_view d = s.substr(i + 1, e - i - 1);
      auto words_of = [](std::string_view t) {
        std::vector<std::string_view> w;
        size_t p = 0;
        while (p < t.size()) {
          while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
          size_t q = p;
          while (q < t.size() && t[q] != ' ' && t[q] != '\t') ++q;
          if (q > p) w.push_back(t.substr(p, q - p));
          p = q;
        }
        return w;
      };
      auto w = words_of(d);
      if (!w.empty() && w[0] == "include") {
        // The source was blanked as the Clang path blanks it (blank_cpp_includes): an #include
        // left is one Clang would try to open.
        decline("an #include that is not alone on its line");
      } else if (w.size() >= 2 && w[0] == "pragma" && w[1] == "omp") {
        // Clang ignores the pragma but still lexes its line: only plain words, numbers and
        // `( ) , : + - *` (what Inductor writes: `omp parallel num_threads(16)`, `omp for
        // collapse(2)`), so no lexical error can hide there.
        for (char ch : d)
          if (!(ident_char(ch) || ch == ' ' || ch == '\t' || ch == '(' || ch == ')' || ch == ',' || ch == ':' ||
                ch == '+' || ch == '-' || ch == '*'))
            decline("a #pragma omp with characters other than words, numbers and ( ) , : + - *");
      } else if (w.size() == 3 && w[0] == "pragma" && w[1] == "GCC" && w[2] == "ivdep") {
      } else if (w.size() == 4 && w[0] == "pragma" && w[1] == "GCC" && w[2] == "unroll" &&
                 std::all_of(w[3].begin(), w[3].end(), digit) && w[3].size() <= 4 && w[3][0] != '0') {
        Token t;
        t.kind = TK::Unroll;
        t.text = s.substr(i, e - i);
        t.line = line;
        t.col = static_cast<int>(i - line_start) + 1;
        t.begin = i;
        t.end = e;
        out.push_back(t);
      } else {
        decline("a preprocessor directive other than #include, #pragma omp and #pragma GCC ivdep/unroll");
      }
      i = e;
      continue;
    }
    at_line_start = false;
    Token t;
    t.line = line;
    t.col = static_cast<int>(i - line_start) + 1;
    t.begin = i;
    if (ident_start(c)) {
      size_t e = i;
      while (e < s.size() && ident_char(s[e])) ++e;
      t.kind = TK::Ident;
      t.end = e;
    } else if (digit(c) || (c == '.' && i + 1 < s.size() && digit(s[i + 1]))) {
      // A pp-number, then classified.
      size_t e = i;
      bool is_float = false;
      while (e < s.size()) {
        char d = s[e];
        if ((d == 'e' || d == 'E') && e + 1 < s.size() && (s[e + 1] == '+' || s[e + 1] == '-')) {
          is_float = true;
          e += 2;
          continue;
        }
        if (d == '.') is_float = true;
        if (ident_char(d) || d == '.') {
          ++e;
          continue;
        }
        if (d == '\'') decline("a digit separator");
        break;
      }
      std::string_view num = s.substr(i, e - i);
      if (num.size() > 1 && num[0] == '0' && (num[1] == 'x' || num[1] == 'X' || num[1] == 'b' || num[1] == 'B'))
        decline("a hexadecimal or binary number");
      if (!is_float)
        for (char d : num)
          if (d == 'e' || d == 'E') is_float = true;
      t.kind = is_float ? TK::Float : TK::Int;
      t.end = e;
    } else if (c == '"') {
      size_t e = i + 1;
      while (e < s.size() && s[e] != '"' && s[e] != '\\' && s[e] != '\n' && s[e] != '\r') ++e;
      if (e >= s.size() || s[e] != '"') decline("a string with escapes or without its closing quote");
      // `"C"void` is a user-defined literal to C++11 (an error without its operator).
      if (e + 1 < s.size() && ident_char(s[e + 1])) decline("a string followed by a name");
      t.kind = TK::String;
      t.end = e + 1;
    } else {
      t.kind = TK::Punct;
      size_t n = punct_length(s, i);
      if (n) t.end = i + n;
      if (t.end == 0) decline(std::string("the character '") + (static_cast<unsigned char>(c) < 0x80 ? std::string(1, c) : "\\x..") + "'");
    }
    t.text = s.substr(t.begin, t.end - t.begin);
    out.push_back(t);
    i = t.end;
  }
  Token end;
  end.kind = TK::End;
  end.line = line;
  end.col = static_cast<int>(i - line_start) + 1;
  end.begin = end.end = s.size();
  out.push_back(end);
  return out;
}

// ------------------------------------------------------------------ types

// Builtin and prelude scalar types, canonical (int64_t is long, as on Linux x86-64).
enum class Scalar { Void, Bool, Char, SChar, UChar, Short, UShort, Int, UInt, Long, ULong, LongLong, ULongLong,
                    Float, Double, BF16, Half, F8E4M3, F8E5M2 };

bool is_class_scalar(Scalar s) { return s == Scalar::BF16 || s == Scalar::Half || s == Scalar::F8E4M3 || s == Scalar::F8E5M2; }
bool is_unsigned(Scalar s) {
  return s == Scalar::UChar || s == Scalar::UShort || s == Scalar::UInt || s == Scalar::ULong || s == Scalar::ULongLong;
}
// The unsigned types integral promotion leaves as they are (uint8_t and uint16_t become int).
bool is_wide_unsigned(Scalar s) { return s == Scalar::UInt || s == Scalar::ULong || s == Scalar::ULongLong; }
bool is_integer(Scalar s) { return s >= Scalar::Bool && s <= Scalar::ULongLong; }

DType dtype_of(Scalar s) {
  switch (s) {
    case Scalar::Bool: return DType::Bool;
    case Scalar::Char:
    case Scalar::SChar: return DType::I8;
    case Scalar::UChar: return DType::U8;
    case Scalar::Short: return DType::I16;
    case Scalar::Int: return DType::I32;
    case Scalar::Long:
    case Scalar::LongLong: return DType::I64;
    case Scalar::Float: return DType::F32;
    case Scalar::Double: return DType::F64;
    case Scalar::BF16: return DType::BF16;
    case Scalar::Half: return DType::F16;
    case Scalar::F8E4M3: return DType::F8E4M3;
    case Scalar::F8E5M2: return DType::F8E5M2;
    default: return DType::Unknown;
  }
}

struct Type {
  // Welford/WelfordHelper: `n` says what T is (0 the scalar `elem`, 1 Vectorized, N VectorizedN);
  // HelperPtr: `&helper`, a WelfordHelper<T, 4096>*.
  // UniqueArr: std::unique_ptr<elem[]>, a big reduction's heap-held local buffer.
  // CArray: a local `T name[N];` (a name of it decays to a T*, as Clang's uses of it do).
  // VecCArray: a local `at::vec::Vectorized<T> name[N];` (only indexed: an element is a Vec).
  // IndexValue: argmax/argmin's accumulator of T (`elem`); IndexValueVec: its vector form with
  // `n` registers of values and `n2` of indices.
  enum Kind { None, Scalar_, Ptr, Vec, VecN, Mask, Array, Lambda, Welford, WelfordHelper, HelperPtr, UniqueArr, CArray,
              VecCArray, IndexValue, IndexValueVec };
  Kind kind = None;
  Scalar elem = Scalar::Void;  // the scalar, or the element type of the others
  int n = 0;                   // VectorizedN / VecMask count, array length
  bool const_elem = false;     // Ptr: pointer to const
  int lambda = -1;             // Lambda: index of the lambda
  int n2 = 0;                  // IndexValueVec: index registers
  bool operator==(const Type& o) const {
    return kind == o.kind && elem == o.elem && n == o.n && lambda == o.lambda && n2 == o.n2 &&
           (kind != Ptr || const_elem == o.const_elem);
  }
  bool is_scalar() const { return kind == Scalar_; }
  bool is_arith() const { return kind == Scalar_ && elem != Scalar::Void; }  // class scalars included
  bool is_vector() const { return kind == Vec || kind == VecN; }
  bool is_class() const {
    return kind == Vec || kind == VecN || kind == Mask || kind == Array || kind == Lambda || kind == Welford ||
           kind == WelfordHelper || kind == UniqueArr || kind == IndexValue || kind == IndexValueVec ||
           (kind == Scalar_ && is_class_scalar(elem));
  }
};

Type scalar(Scalar s) { return Type{Type::Scalar_, s}; }
Type vec_of(Scalar s, int n) { return n == 1 ? Type{Type::Vec, s, 0} : Type{Type::VecN, s, n}; }

DType elem_dtype(const Type& t) {
  // The Clang reader's elem_dtype follows Welford<T>'s first argument, not WelfordHelper's.
  if (t.kind == Type::None || t.kind == Type::Lambda || t.kind == Type::WelfordHelper || t.kind == Type::HelperPtr ||
      t.kind == Type::UniqueArr)
    return DType::Unknown;
  return dtype_of(t.elem);
}

// The type a builtin arithmetic operator computes in: class scalars convert to float (their only
// conversion), small integers (uint8_t and uint16_t too) promote to int; wider unsigned types
// are taken only with themselves (usual).
Scalar promote(Scalar s) {
  if (is_class_scalar(s)) return Scalar::Float;
  // uint8_t and uint16_t promote to int, which holds all their values; wider unsigned types do not.
  if (is_wide_unsigned(s)) decline("unsigned arithmetic");
  if (s == Scalar::UChar || s == Scalar::UShort) return Scalar::Int;
  if (s == Scalar::Bool || s == Scalar::Char || s == Scalar::SChar || s == Scalar::Short) return Scalar::Int;
  return s;
}
// std::make_unsigned_t<s>, for the signed integers.
Scalar unsigned_of(Scalar s) {
  switch (s) {
    case Scalar::Char:
    case Scalar::SChar: return Scalar::UChar;
    case Scalar::Short: return Scalar::UShort;
    case Scalar::Int: return Scalar::UInt;
    case Scalar::Long: return Scalar::ULong;
    case Scalar::LongLong: return Scalar::ULongLong;
    default: decline("make_unsigned_t of a type that is not a signed integer");
  }
}
Scalar usual(Scalar a, Scalar b) {
  // An unsigned type that does not promote only with itself (no signed/unsigned mixing, whose
  // conversions depend on both ranks).
  if (is_wide_unsigned(a) || is_wide_unsigned(b)) {
    if (a != b) decline("unsigned arithmetic");
    return a;
  }
  a = promote(a);
  b = promote(b);
  if (a == Scalar::Void || b == Scalar::Void) decline("arithmetic on void");
  if (a == Scalar::Double || b == Scalar::Double) return Scalar::Double;
  if (a == Scalar::Float || b == Scalar::Float) return Scalar::Float;
  auto rank = [](Scalar s) { return s == Scalar::LongLong ? 3 : s == Scalar::Long ? 2 : 1; };
  return rank(a) >= rank(b) ? a : b;
}

// ------------------------------------------------------------------ tree

struct Var {
  std::string name;
  Type type;
  bool kernel_param = false;  // a parameter of the kernel function (params_ of the visitor)
  bool loop = false;          // a for loop's variable
  bool lambda_param = false;
  bool is_const = false;      // `const int64_t ks0`
  const Var* copy_of_param = nullptr;  // `auto out_ptr1 = in_out_ptr0;`: the kernel parameter it copies
  bool is_static = false;     // `static WelfordHelper<...> h(n);`: no local storage
  bool integer_div_error = false;  // torch 2.13's `std::atomic<int> inductor_cpu_integer_div_error{0};`
};

struct Stmt;

struct Node {
  enum Kind { VarRef, IntLit, FloatLit, BoolLit, StrLit, Paren, Unary, Binary, OpCall, Cond, Call, MemberCall,
              Subscript, ExplicitCast, TempObject, Lambda, Member };
  Kind kind = VarRef;
  std::string_view op;         // Unary/Binary/OpCall: the operator ("+", "+=", "-" unary, "()", "[]")
  std::string name;            // Call/MemberCall: the callee's name
  Type type;
  std::vector<Node*> kids;     // in the order of Clang's children(): what collect_operands walks
  const Var* var = nullptr;    // VarRef
  size_t b = 0, e = 0;         // first byte of the first token, one past the last token
  int line = 0, col = 0;       // Clang's getBeginLoc()
  int op_line = 0, op_col = 0; // the operator token (assignments)
  Type written;                // ExplicitCast: the type as written
  bool static_cast_ = false;   // ExplicitCast: `static_cast<T>(x)` (not `T(x)`)
  bool folds_min_max = false;  // Call: the prelude's constexpr std::min/std::max
  bool folds_to_zero = false;  // Call: a numeric_limits member (constexpr, returns T())
  double value = 0;            // literals
  int64_t ivalue = 0;
  Stmt* body = nullptr;        // Lambda
};

const Node* ignore_parens(const Node* n) {
  while (n && n->kind == Node::Paren) n = n->kids[0];
  return n;
}

// torch 2.13's integer-division check (cpp_prefix.h's flag and check): every C++ kernel opens with
//   std::atomic<int> inductor_cpu_integer_div_error{0};
//   inductor_cpu_integer_div_error_flag = &inductor_cpu_integer_div_error;
// and closes with
//   inductor_cpu_integer_div_error_flag = nullptr;
//   inductor_cpu_throw_if_integer_div_error(inductor_cpu_integer_div_error);
constexpr std::string_view kDivError = "inductor_cpu_integer_div_error";
constexpr std::string_view kDivErrorFlag = "inductor_cpu_integer_div_error_flag";
constexpr std::string_view kDivErrorThrow = "inductor_cpu_throw_if_integer_div_error";
enum class DivCheckPart : uint8_t { Declare, SetFlag, ResetFlag, Throw };

struct Stmt {
  // DivCheck: one of the four statements of the integer-division check (`div_part`, try_div_check).
  enum Kind { Compound, For, If, Decl, Expr, Return, Null, DivCheck };
  Kind kind = Null;
  std::vector<Stmt*> kids;           // Compound
  Stmt* init = nullptr;              // For
  Node* cond = nullptr;              // For, If
  Node* inc = nullptr;               // For
  Stmt* then = nullptr, *els = nullptr;  // If; For's body is `then`
  Var* var = nullptr;                // Decl
  Node* expr = nullptr;              // Decl init, Expr, Return value
  int line = 0, col = 0;             // Decl: the name; DivCheck: the name or the `=`
  DivCheckPart div_part = DivCheckPart::Declare;  // DivCheck
  // Decl: under `alignas(std::max(std::size_t(8), alignof(T)))`, whose call the Clang reader records
  // as a form and no Node stands for.
  bool aligned_by_max = false;
};

struct LambdaInfo {
  std::optional<Type> ret;  // deduced from the first return
};

// ------------------------------------------------------------------ parser

struct Function {
  std::string name;
  int line = 0;
  std::vector<Var*> params;
  std::vector<KernelParam> kernel_params;
  Stmt* body = nullptr;
};

class Parser {
 public:
  static bool reserves(std::string_view n) { return is_reserved_name(n); }
  Parser(std::string_view src, std::vector<Token> toks) : src_(src), t_(std::move(toks)) {}

  Function parse_function() {
    Function f;
    if (is("extern")) {
      ++p_;
      if (cur().kind != TK::String || cur().text != "\"C\"") decline("extern other than \"C\"");
      ++p_;
    }
    if (!is("void")) decline("a kernel that does not start with `void`");
    f.line = cur().line;
    ++p_;
    if (cur().kind != TK::Ident || is_reserved_name(cur().text)) decline("no kernel name, or a reserved one");
    f.name = std::string(cur().text);
    ++p_;
    scopes_.emplace_back();
    parenthesized_list([&] { parse_param(f); });
    if (!is("{")) decline("a kernel declaration without a body");
    // The parameters belong to the body's outermost block: a local may not take their names.
    f.body = parse_compound(/*new_scope=*/false);
    pop_scope();
    if (cur().kind != TK::End) decline("more than one function in the kernel source");
    return f;
  }

  std::vector<LambdaInfo> lambdas;

  // The parse keeps recursion bounded, but an expression can still be a deep tree without
  // nesting in the text (`t0 + t1 + ... + t200000` is 200000 levels of left operands). The walk
  // recurses over the tree, so a tree deeper than this is declined (Clang's limits then apply,
  // cpp_limits.h); checked without recursion.
  static void check_tree_depth(const Function& f) {
    constexpr int kMaxTreeDepth = 1000;
    struct Item {
      const Stmt* s;
      const Node* n;
      int depth;
    };
    std::vector<Item> work{{f.body, nullptr, 0}};
    while (!work.empty()) {
      Item it = work.back();
      work.pop_back();
      if (it.depth > kMaxTreeDepth) decline("an expression deeper than the hand reader walks");
      if (it.s) {
        const Stmt* s = it.s;
        for (const Stmt* k : s->kids) work.push_back({k, nullptr, it.depth + 1});
        for (const Stmt* k : {s->init, s->then, s->els})
          if (k) work.push_back({k, nullptr, it.depth + 1});
        for (const Node* n : {s->cond, s->inc, s->expr})
          if (n) work.push_back({nullptr, n, it.depth + 1});
      } else {
        for (const Node* k : it.n->kids) work.push_back({nullptr, k, it.depth + 1});
        if (it.n->body) work.push_back({it.n->body, nullptr, it.depth + 1});
      }
    }
  }

 private:
  // ---- tokens
  const Token& cur() const { return t_[p_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  // Whether a token is the name or punctuator `lit`. The parser asks this of a literal at every
  // turn (a statement tries `{`, `;`, `for`, `if`, `return`, then the declaration forms): with
  // the length known at compile time the compare is a load or two, where a string_view compare
  // was a call to memcmp (~2.5% of a corpus run's instructions went to these questions).
  template <size_t N>
  static bool spelled(const Token& t, const char (&lit)[N]) {
    return t.text.size() == N - 1 && (t.kind == TK::Punct || t.kind == TK::Ident) &&
           std::memcmp(t.text.data(), lit, N - 1) == 0;
  }
  template <size_t N>
  bool is(const char (&lit)[N]) const {
    return spelled(cur(), lit);
  }
  template <size_t N>
  bool peek_is(size_t k, const char (&lit)[N]) const {
    return spelled(peek(k), lit);
  }
  bool is(std::string_view text) const {
    return (cur().kind == TK::Punct || cur().kind == TK::Ident) && cur().text == text;
  }
  template <size_t N>
  void expect(const char (&lit)[N]) {
    if (!is(lit)) decline("expected '" + std::string(lit) + "'");
    ++p_;
  }
  void expect(std::string_view text) {
    if (!is(text)) decline("expected '" + std::string(text) + "'");
    ++p_;
  }
  std::string_view ident() {
    if (cur().kind != TK::Ident) decline("expected a name");
    return t_[p_++].text;
  }
  size_t prev_end() const { return t_[p_ - 1].end; }

  template <class T>
  T* make() {
    if (++allocated_ > 2000000) decline("a kernel too large for the hand reader");
    if constexpr (std::is_same_v<T, Node>) return &nodes_.emplace_back();
    else if constexpr (std::is_same_v<T, Stmt>) return &stmts_.emplace_back();
    else return &vars_.emplace_back();
  }
  Node* node(Node::Kind k, const Token& at) {
    Node* n = make<Node>();
    n->kind = k;
    n->b = at.begin;
    n->line = at.line;
    n->col = at.col;
    return n;
  }

  struct DepthGuard {
    explicit DepthGuard(int& d) : d_(d) {
      if (++d_ > kMaxDepth) decline("nesting deeper than the hand reader follows");
    }
    ~DepthGuard() { --d_; }
    int& d_;
  };

  // ---- scopes
  // A name's innermost declaration is found through `visible_` (name -> its latest binding, each
  // binding linking to the one it shadows), not by scanning the scopes: a kernel of n locals in
  // one block would take n^2 compares (8,000 chained statements: half a second a kernel).
  const Var* lookup(std::string_view name) const {
    for (const std::string& d : declaring_)
      if (name == d) decline("a variable used in its own initializer");
    auto it = visible_.find(name);
    if (it == visible_.end()) return nullptr;
    const Binding& b = bindings_[it->second];
    if (b.scope < barrier_) decline("a lambda without captures uses a local");
    return b.var;
  }
  void declare(Var* v) {
    auto it = visible_.find(v->name);
    if (it != visible_.end() && bindings_[it->second].scope == scopes_.size() - 1)
      decline("a name declared twice in one scope");
    if (is_reserved_name(v->name)) decline("a variable named like a type or function");
    scopes_.back().push_back(v);
    uint32_t shadowed = it == visible_.end() ? kNoBinding : it->second;
    bindings_.push_back({v, static_cast<uint32_t>(scopes_.size() - 1), shadowed});
    visible_[v->name] = static_cast<uint32_t>(bindings_.size() - 1);
  }
  void pop_scope() {
    for (auto v = scopes_.back().rbegin(); v != scopes_.back().rend(); ++v) {
      auto it = visible_.find((*v)->name);
      uint32_t shadowed = bindings_[it->second].shadowed;
      if (shadowed == kNoBinding) visible_.erase(it);
      else it->second = shadowed;
    }
    scopes_.pop_back();
  }
  // Names the reader does not let a declaration take: C++ keywords (a syntax error for Clang),
  // and the prelude's own global names and namespaces (a clash, or a shadowing the reader would
  // have to follow). Not every name the prelude spells: its parameters' names (`x`, `v`) are
  // fair names for a kernel's lambda parameters.
  static bool is_reserved_name(std::string_view n) {
    if (is_cpp_keyword(n) || n == "restrict" || n == "final" || n == "override" || n == "import" || n == "module")
      return true;
    static const WordSet prelude = {
        "Welford", "IsVecType", "welford_combine", "WeightRecp", "welford_vec_reduce_all", "max_propagate_nan",
        "min_propagate_nan", "sum_masked_reduce", "prod_masked_reduce", "max_masked_reduce", "min_masked_reduce",
        "xor_sum_masked_reduce", "CascadeSumHelper", "cascade_sum_combine", "cascade_sum_final", "IndexValue",
        "argmin_combine", "argmax_combine", "flag_to_float_scalar", "flag_to_float_vec", "exp_u20", "fexp_u20",
        "neg", "sign", "c10_div_floor_integer", "div_floor_integer", "div_floor_floating_vec", "fmod", "mod",
        "masked_load", "randn_cpu", "rand_cpu", "randint64_cpu", "atomic_add", "atomic_add_vec",
        "at", "c10", "std", "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads", "int8_t", "int16_t",
        "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t", "ptrdiff_t", "C10_LIKELY",
        "C10_UNLIKELY", "C10_ALWAYS_INLINE", "TORCH_CHECK", "INDUCTOR_PREFIX_PRELUDE", "kernel_param",
        // from torch 2.11's cpp_prefix.h and at::vec, which the cpu_vocab captures' kernels use
        "WelfordHelper", "IndexValueVec", "argmin_combine_vec", "argmax_combine_vec", "argmin_vec_reduce_all",
        "argmax_vec_reduce_all", "any_masked_reduce", "normalized_rand_cpu", "transpose_mxn",
        // torch 2.13's integer-division checks
        "inductor_cpu_integer_div_error_flag", "inductor_cpu_note_integer_div_by_zero",
        "inductor_cpu_throw_if_integer_div_error", "floor_divide_integral", "remainder_integral"};
    return prelude.contains(n) || n.rfind("__", 0) == 0;  // `__`: reserved to the implementation
  }

  // ---- types as written

  // A scalar type name at the cursor (keyword, typedef or c10/at class), consumed; nullopt
  // (nothing consumed) when there is none.
  std::optional<Scalar> scalar_type_name() {
    static const WordMap<Scalar> words = {
        {"void", Scalar::Void},       {"bool", Scalar::Bool},       {"char", Scalar::Char},
        {"short", Scalar::Short},     {"int", Scalar::Int},         {"long", Scalar::Long},
        {"float", Scalar::Float},     {"double", Scalar::Double},   {"int8_t", Scalar::SChar},
        {"int16_t", Scalar::Short},   {"int32_t", Scalar::Int},     {"int64_t", Scalar::Long},
        {"uint8_t", Scalar::UChar},   {"uint16_t", Scalar::UShort}, {"uint32_t", Scalar::UInt},
        {"uint64_t", Scalar::ULong},  {"size_t", Scalar::ULong}};
    if (cur().kind != TK::Ident) return std::nullopt;
    if (cur().text == "at" || cur().text == "c10") {
      if (!peek_is(1, "::") || peek(2).kind != TK::Ident) return std::nullopt;
      std::string_view n = peek(2).text;
      Scalar s;
      if (n == "BFloat16") s = Scalar::BF16;
      else if (n == "Half") s = Scalar::Half;
      else if (n == "Float8_e4m3fn") s = Scalar::F8E4M3;
      else if (n == "Float8_e5m2") s = Scalar::F8E5M2;
      else return std::nullopt;
      p_ += 3;
      return s;
    }
    // Most names are no type (tmp7, x0, in_ptr0): the first letter rules out most without a lookup.
    switch (cur().text[0]) {
      case 'v': case 'b': case 'c': case 's': case 'i': case 'l': case 'f': case 'd': case 'u': break;
      default: return std::nullopt;
    }
    if (cur().text == "unsigned" || cur().text == "signed") decline("an unsigned/signed type spelled in words");
    const Scalar* it = words.find(cur().text);
    if (!it) return std::nullopt;
    if ((cur().text == "long" || cur().text == "short") && peek(1).kind == TK::Ident &&
        (peek(1).text == "long" || peek(1).text == "int" || peek(1).text == "double"))
      decline("a type spelled in several words");
    ++p_;
    return *it;
  }

  // `at::vec::Vectorized<T>`, `at::vec::VectorizedN<T, N>`, `at::vec::VecMask<T, N>` at the
  // cursor, consumed; nullopt when there is none.
  std::optional<Type> vec_type_name() {
    if (!(is("at") && peek_is(1, "::") && peek_is(2, "vec") && peek_is(3, "::"))) return std::nullopt;
    std::string_view n = peek(4).text;
    if (peek(4).kind != TK::Ident || (n != "Vectorized" && n != "VectorizedN" && n != "VecMask")) return std::nullopt;
    if (!peek_is(5, "<")) decline("a vector class without template arguments");
    p_ += 6;
    Scalar e = template_scalar();
    int count = 1;
    if (n != "Vectorized") {
      expect(",");
      count = template_int();
      if (count < 1 || count > 64) decline("a vector of an unusual count");
    }
    close_angle();
    if (n == "Vectorized") return Type{Type::Vec, e, 0};
    if (n == "VectorizedN") return Type{Type::VecN, e, count};
    return Type{Type::Mask, e, count};
  }

  // `Welford<float>`, `Welford<at::vec::Vectorized<float>>`, `WelfordHelper<at::vec::Vectorized<float>, 4096>`.
  Type welford_type_name() {
    const bool helper = is("WelfordHelper");
    p_ += 2;
    Type t;
    t.kind = helper ? Type::WelfordHelper : Type::Welford;
    if (auto v = vec_type_name()) {
      if (v->kind == Type::Mask) decline("a Welford of masks");
      t.elem = v->elem;
      t.n = v->kind == Type::Vec ? 1 : v->n;
    } else {
      t.elem = template_scalar();
      if (t.elem != Scalar::Float && t.elem != Scalar::Double) decline("a Welford of a type the hand reader does not model");
    }
    if (helper) {
      expect(",");
      if (template_int() != 4096) decline("a WelfordHelper chunk other than Inductor's 4096");
    }
    close_angle();
    return t;
  }

  // `float []>` of `std::unique_ptr<float []>` and `std::make_unique<float []>`, consumed.
  Scalar unique_array_element() {
    Scalar e = template_scalar();
    if (e == Scalar::Void || !plain_number(scalar(e))) decline("a heap buffer of a type the hand reader does not model");
    expect("[");
    expect("]");
    close_angle();
    return e;
  }

  // `IndexValue<float>`, `IndexValueVec<float, 1, 2>`.
  Type index_value_type_name() {
    const bool vec = is("IndexValueVec");
    p_ += 2;
    Type t;
    t.kind = vec ? Type::IndexValueVec : Type::IndexValue;
    t.elem = template_scalar();
    if (!plain_number(scalar(t.elem))) decline("an IndexValue of a type the hand reader does not model");
    if (vec) {
      expect(",");
      t.n = template_int();
      expect(",");
      t.n2 = template_int();
      if (t.n < 1 || t.n > 8 || t.n2 < 1 || t.n2 > 8) decline("an IndexValueVec of unusual counts");
    }
    close_angle();
    return t;
  }

  // The `>` closing a template argument list; as in C++11, `>>` there closes two: its first half
  // is taken, and the token left is the second `>`.
  void close_angle() {
    if (is(">>")) {
      split_tokens_.emplace_back(p_, t_[p_]);  // undone if the parse backs up over it (try_decl)
      Token& t = t_[p_];
      ++t.begin;
      ++t.col;
      t.text = t.text.substr(1);
      return;
    }
    expect(">");
  }

  Scalar template_scalar() {
    auto s = scalar_type_name();
    if (!s || *s == Scalar::Void) decline("a template argument that is not a scalar type");
    return *s;
  }
  int template_int() {
    if (cur().kind != TK::Int) decline("a template argument that is not a plain number");
    std::string_view text = cur().text;
    if (text.size() > 1 && text[0] == '0') decline("an octal number");
    size_t d = 0;
    while (d < text.size() && digit(text[d])) ++d;
    std::string_view suffix = text.substr(d);
    if (!suffix.empty() && suffix != "L" && suffix != "l" && suffix != "LL" && suffix != "ll")
      decline("an integer suffix the hand reader does not know");
    int64_t v = int_value(text);
    ++p_;
    if (v > 1000000) decline("a large template argument");
    return static_cast<int>(v);
  }

  // A declaration's type: auto, a scalar, a vector class, std::array<T, N>. nullopt, nothing
  // consumed, when the cursor is not at one.
  std::optional<Type> decl_type(bool* is_auto) {
    *is_auto = false;
    if (is("auto")) {
      ++p_;
      *is_auto = true;
      return Type{};
    }
    if (auto v = vec_type_name()) return v;
    if ((is("Welford") || is("WelfordHelper")) && peek_is(1, "<")) return welford_type_name();
    if ((is("IndexValue") || is("IndexValueVec")) && peek_is(1, "<")) return index_value_type_name();
    if (is("std") && peek_is(1, "::") && peek_is(2, "unique_ptr") && peek_is(3, "<")) {
      p_ += 4;
      Scalar e = unique_array_element();
      return Type{Type::UniqueArr, e, 0};
    }
    if (is("std") && peek_is(1, "::") && peek_is(2, "array") && peek_is(3, "<")) {
      p_ += 4;
      Scalar e = template_scalar();
      expect(",");
      int n = template_int();
      if (n < 1) decline("an empty array");
      expect(">");
      return Type{Type::Array, e, n};
    }
    size_t save = p_;
    if (auto s = scalar_type_name()) {
      if (*s == Scalar::Void) {
        p_ = save;
        return std::nullopt;
      }
      return scalar(*s);
    }
    return std::nullopt;
  }

  void parse_param(Function& f) {
    const Token& first = cur();
    bool is_const = false;
    if (is("const")) {
      is_const = true;
      ++p_;
    }
    auto s = scalar_type_name();
    if (!s || *s == Scalar::Void) decline("a kernel parameter of a type the hand reader does not know");
    if (is("const")) decline("a `const` after the type");
    Type t = scalar(*s);
    bool ptr = false;
    if (is("*")) {
      ptr = true;
      ++p_;
      t = Type{Type::Ptr, *s, 0, is_const};
      if (is("*") || is("const") || is("__restrict__") || is("restrict") || is("&")) decline("an unusual pointer parameter");
    } else if (is("&")) {
      decline("a reference parameter");
    }
    size_t type_end = prev_end();
    if (cur().kind != TK::Ident || is_reserved_name(cur().text)) decline("a parameter without a name, or a reserved one");
    Var* v = make<Var>();
    v->name = std::string(ident());
    v->type = t;
    v->kernel_param = true;
    v->is_const = is_const && !ptr;
    declare(v);
    f.params.push_back(v);
    KernelParam kp;
    kp.name = v->name;
    kp.type_text = normalized(first.begin, type_end);
    kp.is_pointer = ptr;
    kp.is_const = is_const;
    kp.is_restrict = false;
    // kernel_param_of: parse_dtype of the printed type first, then the element type; for the
    // types accepted above both give the element dtype (uint16/32/64 give Unknown either way).
    kp.dtype = dtype_of(*s);
    f.kernel_params.push_back(kp);
  }

 public:
  // node_text(): the source text with whitespace runs made one space (as both C++ readers quote code).
  std::string normalized(size_t b, size_t e) const { return collapse_blanks(src_.substr(b, e - b)); }

  static int64_t int_value(std::string_view text) {
    size_t i = 0;
    int64_t v = 0;
    while (i < text.size() && digit(text[i])) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, text[i] - '0', &v))
        decline("an integer literal too large");
      ++i;
    }
    return v;
  }

 private:
  // ---- statements

  Stmt* parse_compound(bool new_scope) {
    DepthGuard g(depth_);
    Stmt* s = make<Stmt>();
    s->kind = Stmt::Compound;
    expect("{");
    if (new_scope) scopes_.emplace_back();
    while (!is("}")) {
      if (cur().kind == TK::End) decline("an unclosed brace");
      s->kids.push_back(parse_stmt());
    }
    ++p_;
    if (new_scope) pop_scope();
    return s;
  }

  Stmt* parse_stmt() {
    DepthGuard g(depth_);
    if (cur().kind == TK::Unroll) {
      ++p_;
      if (!is("for")) decline("#pragma GCC unroll not followed by a for loop");
      return parse_for();
    }
    if (is("{")) return parse_compound(true);
    if (is(";")) {
      ++p_;
      Stmt* s = make<Stmt>();
      s->kind = Stmt::Null;
      return s;
    }
    if (is("for")) return parse_for();
    if (is("if")) return parse_if();
    if (is("return")) {
      ++p_;
      Stmt* s = make<Stmt>();
      s->kind = Stmt::Return;
      if (!is(";")) s->expr = parse_expr();
      expect(";");
      if (lambda_stack_.empty()) decline("a return in the kernel function");
      LambdaInfo& li = lambdas[lambda_stack_.back()];
      Type t = s->expr ? s->expr->type : Type{Type::Scalar_, Scalar::Void};
      if (t.kind == Type::None) decline("a return of an unknown type");
      if (li.ret && !(*li.ret == t)) decline("returns of different types in one lambda");
      li.ret = t;
      return s;
    }
    if (Stmt* d = try_div_check()) return d;
    if (Stmt* d = try_decl()) return d;
    Stmt* s = make<Stmt>();
    s->kind = Stmt::Expr;
    s->expr = parse_expr();
    expect(";");
    return s;
  }

  // One of the integer-division check's four statements (kDivError): exactly those token sequences,
  // or nullptr with nothing consumed. The reader models no std::atomic, address-of or global, so any
  // other spelling is declined as before.
  Stmt* try_div_check() {
    auto named = [&](size_t k, std::string_view name) { return peek(k).kind == TK::Ident && peek(k).text == name; };
    // A use of the error counter must see its declaration, in scope, as Clang does.
    auto declared = [&]() {
      const Var* v = lookup(kDivError);
      if (!v || !v->integer_div_error) decline("inductor_cpu_integer_div_error used without its declaration");
    };
    auto check = [&](DivCheckPart part, const Token& at, size_t tokens) {
      Stmt* s = make<Stmt>();
      s->kind = Stmt::DivCheck;
      s->div_part = part;
      s->line = at.line;
      s->col = at.col;
      p_ += tokens;
      return s;
    };
    if (is("std") && peek_is(1, "::") && peek_is(2, "atomic") && peek_is(3, "<") && peek_is(4, "int") &&
        peek_is(5, ">") && named(6, kDivError) && peek_is(7, "{") && peek(8).text == "0" && peek_is(9, "}") &&
        peek_is(10, ";")) {
      Var* v = make<Var>();
      v->name = std::string(kDivError);
      v->integer_div_error = true;
      declare(v);
      return check(DivCheckPart::Declare, peek(6), 11);
    }
    if (named(0, kDivErrorFlag) && peek_is(1, "=")) {
      if (peek_is(2, "&") && named(3, kDivError) && peek_is(4, ";")) {
        declared();
        return check(DivCheckPart::SetFlag, peek(1), 5);
      }
      if (peek_is(2, "nullptr") && peek_is(3, ";")) return check(DivCheckPart::ResetFlag, peek(1), 4);
    }
    if (named(0, kDivErrorThrow) && peek_is(1, "(") && named(2, kDivError) && peek_is(3, ")") && peek_is(4, ";")) {
      declared();
      return check(DivCheckPart::Throw, cur(), 5);
    }
    return nullptr;
  }

  // A declaration statement, or nullptr (nothing consumed) when the statement is not one.
  Stmt* try_decl() {
    size_t save = p_;
    const size_t splits = split_tokens_.size();
    bool aligned = false;
    bool alignas_ = false;
    if (is("__at_align__")) {
      aligned = true;
      ++p_;
    } else if (is("alignas")) {
      skip_inductor_alignas();
      alignas_ = true;
    }
    if (is("static") && peek_is(1, "WelfordHelper") && !aligned) return welford_helper_decl(true);
    if (is("WelfordHelper") && !aligned) return welford_helper_decl(false);
    if (is("const") || is("static") || is("constexpr") || is("volatile") || is("register") || is("thread_local"))
      decline("a declaration with a specifier");
    bool is_auto = false;
    std::optional<Type> t = decl_type(&is_auto);
    if (t && !is_auto && t->kind == Type::Scalar_ && is("*") && peek(1).kind == TK::Ident && peek_is(2, "=")) {
      // `float* local_buffer_data_0 = buf_local_buffer_data_0.get();`: a local pointer.
      if (aligned) decline("__at_align__ on a pointer");
      ++p_;
      t = Type{Type::Ptr, t->elem, 0};
    }
    if (!t || cur().kind != TK::Ident || is_keyword(cur().text)) {
      if (aligned) decline("__at_align__ before something that is not a declaration");
      p_ = save;
      for (; split_tokens_.size() > splits; split_tokens_.pop_back()) t_[split_tokens_.back().first] = split_tokens_.back().second;
      return nullptr;
    }
    Stmt* s = make<Stmt>();
    s->kind = Stmt::Decl;
    s->line = cur().line;
    s->col = cur().col;
    Var* v = make<Var>();
    v->name = std::string(ident());
    if (is("[")) {
      // `int64_t offset[16];`, `alignas(...) float tmp1[16*16];`: a local array, uninitialized. The
      // Clang reader records nothing of it (no initializer); the size must be a constant.
      // torch 2.13's reductions keep per-thread or per-lane partial results in accumulator arrays
      // beside the scalar and vector accumulators (`float tmp_acc0_arr[16];`,
      // `at::vec::Vectorized<float> tmp_acc0_vec_arr[2];`). An array of vectors is taken only as an
      // accumulator: to Clang any other one has an initializer (its elements' constructor), which
      // the Clang reader records as a value.
      const bool vector_accumulator = t->kind == Type::Vec && !accumulator_base(v->name).empty();
      if (is_auto || aligned || !((t->kind == Type::Scalar_ && plain_number(*t)) || vector_accumulator))
        decline("an array of a type the hand reader does not model");
      s->aligned_by_max = alignas_;
      ++p_;
      Node* size = parse_expr();
      expect("]");
      auto n = array_size(size);
      if (!n || *n < 1 || *n > (1 << 20)) decline("an array whose size is not a small constant");
      expect(";");
      v->type = Type{vector_accumulator ? Type::VecCArray : Type::CArray, t->elem, static_cast<int>(*n)};
      declare(v);
      s->var = v;
      return s;
    }
    if (alignas_) decline("alignas before something that is not an array");
    if (is("=")) {
      ++p_;
      // Inside its own initializer the name already means the new variable (an error with auto):
      // the reader does not follow that.
      declaring_.push_back(v->name);
      Node* init = parse_assign();
      declaring_.pop_back();
      s->expr = init;
      if (is_auto) {
        if (init->type.kind == Type::None || (init->type.kind == Type::Scalar_ && init->type.elem == Scalar::Void))
          decline("auto from an expression of unknown type");
        v->type = init->type;
      } else {
        v->type = *t;
        check_init(*t, init->type);
      }
    } else if (is_auto) {
      decline("auto without an initializer");
    } else if (is(";")) {
      if (t->kind != Type::Array) decline("a declaration without an initializer");
      v->type = *t;
    } else {
      decline("a declaration form the hand reader does not know");
    }
    if (is(",")) decline("several variables in one declaration");
    expect(";");
    if (s->expr && v->type.kind == Type::Ptr) {
      const Node* init = ignore_parens(s->expr);
      if (init->kind == Node::VarRef && init->var->kernel_param) v->copy_of_param = init->var;
    }
    declare(v);
    s->var = v;
    return s;
  }

  // `static WelfordHelper<at::vec::Vectorized<float>, 4096> welford_helper0(static_cast<int64_t>(12L));`
  // (static when the size is a constant, a plain local when it is symbolic). Of a static local the
  // Clang reader records nothing (it has no local storage); of a local, the constructor call, which
  // it classifies as "other" (a CXXConstructExpr). Either way the argument is walked as any
  // expression. The node standing for the constructor call is a Call without a name.
  Stmt* welford_helper_decl(bool is_static) {
    if (is_static) ++p_;
    bool is_auto = false;
    std::optional<Type> t = decl_type(&is_auto);
    if (!t || t->kind != Type::WelfordHelper) decline("a static declaration the hand reader does not model");
    Stmt* s = make<Stmt>();
    s->kind = Stmt::Decl;
    s->line = cur().line;
    s->col = cur().col;
    Var* v = make<Var>();
    v->name = std::string(ident());
    v->type = *t;
    v->is_static = is_static;
    const Token& open = cur();
    std::vector<Node*> args = parse_args();
    if (args.size() != 1 || !plain_number(args[0]->type)) decline("a WelfordHelper made from other than one number");
    Node* init = make<Node>();
    init->kind = Node::Call;
    init->b = open.begin;
    init->e = prev_end();
    init->line = open.line;
    init->col = open.col;
    init->type = *t;
    init->kids = args;
    s->expr = init;
    expect(";");
    declare(v);
    s->var = v;
    return s;
  }

  // An array bound of integer literals, `+` and `*` (`16*16`): what Clang folds the same way.
  static std::optional<int64_t> array_size(const Node* n) {
    if (n->kind == Node::IntLit) return n->ivalue;
    if (n->kind == Node::Paren) return array_size(n->kids[0]);
    if (n->kind != Node::Binary || (n->op != "*" && n->op != "+")) return std::nullopt;
    auto a = array_size(n->kids[0]), b = array_size(n->kids[1]);
    if (!a || !b || *a > (1 << 20) || *b > (1 << 20)) return std::nullopt;
    return n->op == "*" ? *a * *b : *a + *b;
  }

  // `alignas(std::max(std::size_t(16), alignof(float)))`, Inductor's alignment of a local transpose
  // buffer, and nothing else: a constant expression Clang folds and records nothing of.
  void skip_inductor_alignas() {
    ++p_;
    expect("(");
    for (const char* w : {"std", "::", "max", "(", "std", "::", "size_t", "("}) expect(w);
    if (cur().kind != TK::Int) decline("an alignas the hand reader does not model");
    // max(N, alignof(T)) must be a power of two (Clang's error otherwise); alignof of a scalar is.
    int n = template_int();
    if (n < 1 || n > 4096 || (n & (n - 1)) != 0) decline("an alignment that is not a small power of two");
    for (const char* w : {")", ",", "alignof", "("}) expect(w);
    template_scalar();
    for (const char* w : {")", ")", ")"}) expect(w);
  }

  static bool is_keyword(std::string_view w) {
    static const WordSet kw = {"if",     "else",   "for",      "while",    "do",          "return", "auto",
                               "const",  "static", "template", "decltype", "static_cast", "true",   "false",
                               "new",    "delete", "sizeof",   "operator", "this",        "nullptr"};
    return kw.contains(w);
  }

  // `T v = init`: what copy-initialization accepts (without the overloads Clang would weigh).
  void check_init(const Type& to, const Type& from) {
    if (to == from) return;
    if (to.is_arith() && from.is_arith()) return;
    if (to.is_vector() && from.is_arith() && !from.is_class()) return;  // Vectorized(T v), not explicit
    decline("an initialization the hand reader does not model");
  }

  Stmt* parse_for() {
    ++p_;  // for
    expect("(");
    Stmt* s = make<Stmt>();
    s->kind = Stmt::For;
    scopes_.emplace_back();
    // init: `int64_t x0=static_cast<int64_t>(0L)` or `long x1_inner = 0`
    bool is_auto = false;
    std::optional<Type> t = decl_type(&is_auto);
    if (!t || is_auto || t->kind != Type::Scalar_ || !is_integer(t->elem) || is_unsigned(t->elem))
      decline("a for loop whose variable is not a signed integer");
    Stmt* init = make<Stmt>();
    init->kind = Stmt::Decl;
    init->line = cur().line;
    init->col = cur().col;
    Var* v = make<Var>();
    v->name = std::string(ident());
    v->type = *t;
    v->loop = true;
    expect("=");
    declaring_.push_back(v->name);
    init->expr = parse_assign();
    declaring_.pop_back();
    if (!init->expr->type.is_arith() || init->expr->type.is_class()) decline("a loop start that is not a number");
    declare(v);
    init->var = v;
    s->init = init;
    expect(";");
    s->cond = parse_expr();
    if (!s->cond->type.is_arith()) decline("a for loop whose condition is not a scalar");
    expect(";");
    s->inc = parse_expr();
    expect(")");
    // The body's braces open a scope of their own (a name of the loop's may not be declared again
    // there: Clang's error, so declined by declare()).
    s->then = parse_stmt_in_loop(v);
    pop_scope();
    return s;
  }

  Stmt* parse_stmt_in_loop(const Var* loop_var) {
    if (is("{")) {
      // C++: a name declared in the for's init may not be redeclared in the outermost block of the body.
      Stmt* body = parse_compound(true);
      for (Stmt* k : body->kids)
        if (k->kind == Stmt::Decl && k->var->name == loop_var->name) decline("a loop variable declared again");
      return body;
    }
    return parse_stmt();
  }

  // The branch of an if is a scope of its own even without braces (`if (c) auto x = 1;`
  // declares x for that statement only).
  Stmt* parse_substatement() {
    scopes_.emplace_back();
    Stmt* s = parse_stmt();
    pop_scope();
    return s;
  }

  Stmt* parse_if() {
    ++p_;
    expect("(");
    Stmt* s = make<Stmt>();
    s->kind = Stmt::If;
    s->cond = parse_expr();
    if (s->cond->type.kind == Type::None || s->cond->type.kind == Type::Lambda ||
        (s->cond->type.is_class() && s->cond->type.kind != Type::Scalar_))
      decline("an if whose condition is not a scalar");
    expect(")");
    s->then = parse_substatement();
    if (is("else")) {
      ++p_;
      s->els = parse_substatement();
    }
    return s;
  }

  // ---- expressions

  Node* parse_expr() {
    Node* e = parse_assign();
    if (is(",")) decline("the comma operator");
    return e;
  }

  Node* parse_assign() {
    DepthGuard g(depth_);
    Node* lhs = parse_cond();
    static const WordSet ops = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    if (cur().kind == TK::Punct && ops.contains(cur().text)) {
      const Token& opt = cur();
      ++p_;
      Node* rhs = parse_assign();
      return assignment(lhs, opt, rhs);
    }
    return lhs;
  }

  static bool is_lvalue(const Node* n) {
    n = ignore_parens(n);
    if (n->kind == Node::VarRef) return true;
    if (n->kind == Node::Subscript) return true;
    if (n->kind == Node::OpCall && n->op == "[]") return true;
    return false;
  }

  // What Clang requires of the operand of an assignment, `++` or `--`: a variable or element, not
  // const and not reached through a pointer to const.
  static void check_modifiable(const Node* lhs) {
    if (!is_lvalue(lhs)) decline("an assignment to something that is not a variable or element");
    const Node* base = ignore_parens(lhs);
    if (base->kind == Node::VarRef && base->var->is_const) decline("an assignment to a const parameter");
    if (base->kind == Node::Subscript && base->kids[0]->type.kind == Type::Ptr && base->kids[0]->type.const_elem)
      decline("an assignment through a pointer to const");
  }

  Node* assignment(Node* lhs, const Token& opt, Node* rhs) {
    std::string_view op = opt.text;
    check_modifiable(lhs);
    const Type& lt = lhs->type;
    Node* n = make<Node>();
    n->b = lhs->b;
    n->e = rhs->e;
    n->line = lhs->line;
    n->col = lhs->col;
    n->op_line = opt.line;
    n->op_col = opt.col;
    n->op = op;
    n->kids = {lhs, rhs};
    if (lt.kind == Type::Scalar_ && !is_class_scalar(lt.elem)) {
      // Builtin: BinaryOperator (compound or not).
      if (!rhs->type.is_arith()) decline("a builtin assignment from a non-scalar");
      if (op == "%=" || op == "&=" || op == "|=" || op == "^=" || op == "<<=" || op == ">>=") {
        if (!is_integer(lt.elem) || !is_integer(promote(rhs->type.elem))) decline("an integer compound assignment on floats");
      }
      if (lhs->kind == Node::VarRef && lhs->var->type.kind == Type::Scalar_ && lhs->var->lambda_param)
        decline("an assignment to a lambda parameter");
      n->kind = Node::Binary;
      n->type = lt;
      return n;
    }
    if (lt.kind == Type::Vec || lt.kind == Type::VecN || lt.kind == Type::Mask) {
      bool compound = op != "=";
      if (compound && (lt.kind != Type::Vec || (op != "+=" && op != "-=" && op != "*=" && op != "/=")))
        decline("a compound assignment the prelude does not declare");
      if (!(rhs->type == lt)) decline("an assignment of another type to a vector");
      n->kind = Node::OpCall;
      n->type = lt;
      return n;
    }
    if ((lt.kind == Type::Welford || lt.kind == Type::IndexValue || lt.kind == Type::IndexValueVec ||
         (lt.kind == Type::Scalar_ && is_class_scalar(lt.elem))) &&
        op == "=" && rhs->type == lt) {
      // The implicit copy assignment of Welford<T>, or of a reduced-precision scalar
      // (`out_ptr0[i] = static_cast<at::BFloat16>(tmp_acc0);`): an operator call to Clang, as a
      // vector's. From another type it would be a conversion first: declined below.
      n->kind = Node::OpCall;
      n->type = lt;
      return n;
    }
    decline("an assignment to a value of class type the hand reader does not model");
  }

  Node* parse_cond() {
    Node* c = parse_binary(0);
    if (!is("?")) return c;
    ++p_;
    Node* t = parse_assign();
    expect(":");
    Node* f = parse_assign();
    if (!c->type.is_arith() || !t->type.is_arith() || !f->type.is_arith() || t->type.is_class() || f->type.is_class() ||
        c->type.is_class())
      decline("a conditional operator on non-scalars");
    Node* n = make<Node>();
    n->kind = Node::Cond;
    n->b = c->b;
    n->e = f->e;
    n->line = c->line;
    n->col = c->col;
    n->kids = {c, t, f};
    // Operands of one type keep it (`c ? u8 : u8` is a uint8_t, not promoted); others meet in
    // the usual arithmetic conversions.
    n->type = scalar(t->type.elem == f->type.elem ? t->type.elem : usual(t->type.elem, f->type.elem));
    return n;
  }

  // Binary operator precedence (higher binds tighter); -1 for what is no binary operator.
  static int precedence(std::string_view op) {
    if (op.empty() || op.size() > 2) return -1;
    char a = op[0], b = op.size() == 2 ? op[1] : '\0';
    switch (a) {
      case '|': return b == '|' ? 1 : b ? -1 : 3;
      case '&': return b == '&' ? 2 : b ? -1 : 5;
      case '^': return b ? -1 : 4;
      case '=': return b == '=' ? 6 : -1;
      case '!': return b == '=' ? 6 : -1;
      case '<':
      case '>': return b == a ? 8 : b == '=' ? 7 : b ? -1 : 7;
      case '+':
      case '-': return b ? -1 : 9;
      case '*':
      case '/':
      case '%': return b ? -1 : 10;
      default: return -1;
    }
  }

  Node* parse_binary(int min_prec) {
    DepthGuard g(depth_);
    Node* lhs = parse_unary();
    for (;;) {
      if (cur().kind != TK::Punct) break;
      int p = precedence(cur().text);
      if (p < min_prec) break;  // also ends at a token that is no binary operator (-1)
      const Token& opt = cur();
      ++p_;
      Node* rhs = parse_binary(p + 1);
      lhs = binary(lhs, opt, rhs);
    }
    return lhs;
  }

  Node* binary(Node* a, const Token& opt, Node* b) {
    std::string_view op = opt.text;
    Node* n = make<Node>();
    n->b = a->b;
    n->e = b->e;
    n->line = a->line;
    n->col = a->col;
    n->op_line = opt.line;
    n->op_col = opt.col;
    n->op = op;
    n->kids = {a, b};
    const Type& x = a->type;
    const Type& y = b->type;
    bool cmp = op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
    bool logic = op == "&&" || op == "||";
    bool intop = op == "%" || op == "&" || op == "|" || op == "^" || op == "<<" || op == ">>";
    // Pointer arithmetic: `in_ptr0 + static_cast<int64_t>(x0)`.
    if (x.kind == Type::Ptr || y.kind == Type::Ptr) {
      const Type& ptr = x.kind == Type::Ptr ? x : y;
      const Type& other = x.kind == Type::Ptr ? y : x;
      bool ok = (op == "+" || (op == "-" && x.kind == Type::Ptr)) && other.kind == Type::Scalar_ &&
                is_integer(other.elem) && !is_class_scalar(other.elem);
      if (!ok) decline("pointer arithmetic other than pointer plus integer");
      n->kind = Node::Binary;
      n->type = ptr;
      return n;
    }
    if (x.is_arith() && y.is_arith()) {
      n->kind = Node::Binary;
      if (logic) {
        n->type = scalar(Scalar::Bool);
      } else if (cmp) {
        usual(x.elem, y.elem);
        n->type = scalar(Scalar::Bool);
      } else {
        Scalar r = usual(x.elem, y.elem);
        if (intop && !is_integer(r)) decline("an integer operator on floating point");
        if ((op == "<<" || op == ">>")) r = promote(x.elem);
        n->type = scalar(r);
      }
      return n;
    }
    // Overloaded operators of the prelude.
    n->kind = Node::OpCall;
    if (x.kind == Type::Vec) {
      bool ok = y.kind == Type::Vec || (y.kind == Type::Scalar_ && y.elem == x.elem);
      if (!ok) decline("a vector operator with operands the prelude does not declare");
      n->type = x;
      return n;
    }
    if (x.kind == Type::Scalar_ && y.kind == Type::Vec && x.elem == y.elem && !logic) {
      n->type = y;
      return n;
    }
    if (x.kind == Type::VecN && !logic) {
      bool ok = y.kind == Type::VecN || (y.kind == Type::Scalar_ && y.elem == x.elem);
      if (!ok) decline("a VectorizedN operator with operands the prelude does not declare");
      n->type = x;
      return n;
    }
    if (x.kind == Type::Scalar_ && y.kind == Type::VecN && x.elem == y.elem && !logic) {
      n->type = y;
      return n;
    }
    if (x.kind == Type::Mask && y.kind == Type::Mask &&
        (op == "&" || op == "|" || op == "^" || op == "&&" || op == "||" || op == "==" || op == "!=")) {
      n->type = x;
      return n;
    }
    decline("an operator on types the hand reader does not model");
  }

  Node* parse_unary() {
    DepthGuard g(depth_);
    if (cur().kind == TK::Punct && (is("-") || is("+") || is("!") || is("~"))) {
      const Token& opt = cur();
      ++p_;
      Node* x = parse_unary();
      Node* n = make<Node>();
      n->b = opt.begin;
      n->e = x->e;
      n->line = opt.line;
      n->col = opt.col;
      n->op = opt.text;
      n->kids = {x};
      const Type& t = x->type;
      if (t.is_arith()) {
        n->kind = Node::Unary;
        if (opt.text == "!") n->type = scalar(Scalar::Bool);
        else {
          Scalar r = promote(t.elem);
          if (opt.text == "~" && !is_integer(r)) decline("~ on floating point");
          n->type = scalar(r);
        }
        return n;
      }
      if ((t.kind == Type::Vec && opt.text != "+") || (t.kind == Type::VecN && opt.text == "-") ||
          (t.kind == Type::Mask && (opt.text == "~" || opt.text == "!"))) {
        n->kind = Node::OpCall;  // member operator: one argument, the object
        n->type = t;
        return n;
      }
      decline("a unary operator on a type the hand reader does not model");
    }
    if (is("&") && peek(1).kind == TK::Ident && !peek_is(2, "(") && !peek_is(2, ".") && !peek_is(2, "[")) {
      // `&welford_helper0`: the address of a static WelfordHelper, for welford_combine.
      const Token& opt = cur();
      ++p_;
      Node* x = parse_primary();
      if (x->kind != Node::VarRef || x->type.kind != Type::WelfordHelper) decline("an address of something other than a WelfordHelper");
      Node* n = make<Node>();
      n->kind = Node::Unary;
      n->op = opt.text;
      n->b = opt.begin;
      n->e = x->e;
      n->line = opt.line;
      n->col = opt.col;
      n->kids = {x};
      n->type = Type{Type::HelperPtr, x->type.elem, x->type.n};
      return n;
    }
    if (is("++") || is("--") || is("*") || is("&")) decline("a prefix operator the hand reader does not model");
    return parse_postfix(parse_primary());
  }

  // `( item, item, ... )`, possibly empty: `item` parses one at the cursor.
  template <class Item>
  void parenthesized_list(Item item) {
    expect("(");
    if (!is(")")) {
      item();
      while (is(",")) {
        ++p_;
        item();
      }
    }
    expect(")");
  }

  std::vector<Node*> parse_args() {
    std::vector<Node*> args;
    parenthesized_list([&] { args.push_back(parse_assign()); });
    return args;
  }

  // `.template name<...>` or `.name`: consumed up to the arguments.
  struct MemberName {
    std::string_view name;
    std::vector<Scalar> targ_types;
    std::vector<int> targ_ints;
    bool has_targs = false;
  };
  MemberName member_name() {
    MemberName m;
    if (is("template")) ++p_;
    m.name = ident();
    if (is("<")) {
      m.has_targs = true;
      ++p_;
      m.targ_types.push_back(template_scalar());
      while (is(",")) {
        ++p_;
        m.targ_ints.push_back(template_int());
      }
      expect(">");
    }
    return m;
  }

  Node* parse_postfix(Node* n) {
    for (;;) {
      DepthGuard g(depth_);
      if (is("(")) {
        // A call of a lambda object: `tmp6()` or `[&]{...}()`.
        if (n->type.kind != Type::Lambda) decline("a call of something that is not a function or lambda");
        std::vector<Node*> args = parse_args();
        if (!args.empty()) decline("a lambda called with arguments");
        const LambdaInfo& li = lambdas[static_cast<size_t>(n->type.lambda)];
        if (!li.ret) decline("a lambda called before it returns anything");
        Node* c = make<Node>();
        c->kind = Node::OpCall;
        c->op = "()";
        c->b = n->b;
        c->e = prev_end();
        c->line = n->line;
        c->col = n->col;
        c->kids = {n};
        c->type = *li.ret;
        n = c;
        continue;
      }
      if (is("[")) {
        ++p_;
        Node* idx = parse_expr();
        expect("]");
        Node* s = make<Node>();
        s->b = n->b;
        s->e = prev_end();
        s->line = n->line;
        s->col = n->col;
        s->kids = {n, idx};
        if (!idx->type.is_arith() || !is_integer(idx->type.elem) || idx->type.is_class())
          decline("an index that is not an integer");
        if (n->type.kind == Type::Ptr) {
          s->kind = Node::Subscript;
          s->type = scalar(n->type.elem);
        } else if (n->type.kind == Type::VecCArray) {
          s->kind = Node::Subscript;
          s->type = Type{Type::Vec, n->type.elem, 0};
        } else if (n->type.kind == Type::Array) {
          s->kind = Node::OpCall;
          s->op = "[]";
          s->type = scalar(n->type.elem);
        } else {
          decline("an index into something that is not a pointer or std::array");
        }
        n = s;
        continue;
      }
      if (is(".") && !peek_is(2, "(") &&
          (n->type.kind == Type::Welford || n->type.kind == Type::IndexValue || n->type.kind == Type::IndexValueVec)) {
        ++p_;
        n = data_member(n);
        continue;
      }
      if (is(".")) {
        ++p_;
        MemberName m = member_name();
        std::vector<Node*> args = parse_args();
        n = member_call(n, m, std::move(args));
        continue;
      }
      if (is("++") || is("--")) {
        const Token& opt = cur();
        ++p_;
        if (!n->type.is_arith() || n->type.is_class()) decline("++ on a non-scalar");
        // C++17 removed ++ on a bool (Clang: "ISO C++17 does not allow incrementing expression of
        // type bool"; found by fuzz_cpp_kernel_hand on a `for (bool x = 0; ...; x++)` loop).
        if (n->type.kind == Type::Scalar_ && n->type.elem == Scalar::Bool) decline("++ or -- on a bool");
        check_modifiable(n);
        Node* u = make<Node>();
        u->kind = Node::Unary;
        u->op = opt.text == "++" ? "post++" : "post--";
        u->b = n->b;
        u->e = opt.end;
        u->line = n->line;
        u->col = n->col;
        u->kids = {n};
        u->type = n->type;
        n = u;
        continue;
      }
      if (is("->")) decline("->");
      return n;
    }
  }

  Node* member_call(Node* obj, const MemberName& m, std::vector<Node*> args) {
    Node* c = make<Node>();
    c->kind = Node::MemberCall;
    c->name = std::string(m.name);
    c->b = obj->b;
    c->e = prev_end();
    c->line = obj->line;
    c->col = obj->col;
    c->kids.push_back(obj);
    for (Node* a : args) c->kids.push_back(a);
    const Type& t = obj->type;
    auto need_args = [&](size_t lo, size_t hi) {
      if (args.size() < lo || args.size() > hi) decline("a member call with an unexpected number of arguments");
    };
    auto int_arg = [&](Node* a) {
      if (!a->type.is_arith() || a->type.is_class()) decline("a count that is not a number");
    };
    static const WordSet vec_unary = {
        "abs", "neg", "sqrt", "rsqrt", "reciprocal", "exp", "exp2", "expm1", "exp_u20", "fexp_u20", "log", "log1p",
        "log2", "log10", "sin", "cos", "tan", "tanh", "sinh", "cosh", "asin", "acos", "atan", "erf", "erfc", "erfinv",
        "floor", "ceil", "trunc", "round", "frac", "sign", "lgamma", "isnan"};
    static const WordSet vec_binary = {"pow", "fmod", "atan2", "hypot", "nextafter", "eq", "ne", "lt", "le", "gt", "ge"};
    if (t.kind == Type::UniqueArr) {
      if (m.name != "get" || m.has_targs || !args.empty()) decline("a std::unique_ptr member the hand reader does not know");
      c->type = Type{Type::Ptr, t.elem, 0};
      return c;
    }
    if (t.kind == Type::Vec || t.kind == Type::VecN) {
      if (m.has_targs) decline("template arguments to a vector member");
      if (m.name == "store") {
        need_args(1, 2);
        if (args[0]->type.kind != Type::Ptr || args[0]->type.const_elem) decline("a store to something that is not a pointer to non-const");
        if (args.size() == 2) int_arg(args[1]);
        c->type = scalar(Scalar::Void);
        return c;
      }
      // VectorizedN declares only these four of them (analyzer/cpp/prelude/cpp_prefix_prelude.inc).
      if (vec_unary.contains(m.name) &&
          (t.kind == Type::Vec || m.name == "abs" || m.name == "neg" || m.name == "reciprocal" || m.name == "isnan")) {
        need_args(0, 0);
        c->type = t;
        return c;
      }
      if (t.kind == Type::Vec && vec_binary.contains(m.name)) {
        need_args(1, 1);
        if (!(args[0]->type == t)) decline("a vector member with an argument of another type");
        c->type = t;
        return c;
      }
      decline("a vector member the hand reader does not know");
    }
    if (t.kind == Type::Mask) {
      if (m.name == "is_masked") {
        need_args(1, 1);
        int_arg(args[0]);
        c->type = scalar(Scalar::Bool);
        return c;
      }
      if (m.name == "all_zero" || m.name == "all_masked") {
        need_args(0, 0);
        c->type = scalar(Scalar::Bool);
        return c;
      }
      if (m.name == "cast" && m.has_targs && m.targ_types.size() == 1 && m.targ_ints.size() == 1) {
        need_args(0, 0);
        c->type = Type{Type::Mask, m.targ_types[0], m.targ_ints[0]};
        return c;
      }
      if (m.name == "loadu" && m.has_targs && m.targ_types.size() == 1 && m.targ_ints.size() == 1) {
        need_args(1, 2);
        const Type& ptr = args[0]->type;
        if (ptr.kind != Type::Ptr || ptr.elem != m.targ_types[0]) decline("a masked load from a pointer of another type");
        if (args.size() == 2) int_arg(args[1]);
        if (m.targ_ints[0] < 1) decline("a masked load of no registers");
        c->type = vec_of(m.targ_types[0], m.targ_ints[0]);
        return c;
      }
      if (m.name == "to" && m.has_targs && m.targ_types.size() == 1 && m.targ_ints.size() == 1) {
        // `tmp3.to<int64_t,2>()`: the flags as a 0/1 vector.
        need_args(0, 0);
        if (m.targ_ints[0] < 1) decline("a VecMask::to of no registers");
        c->type = vec_of(m.targ_types[0], m.targ_ints[0]);
        return c;
      }
      if (m.name == "store" && !m.has_targs) {
        // `template <class U> void store(U* b, int64_t count = size()) const`
        need_args(1, 2);
        if (args[0]->type.kind != Type::Ptr || args[0]->type.const_elem) decline("a store to something that is not a pointer to non-const");
        if (args.size() == 2) int_arg(args[1]);
        c->type = scalar(Scalar::Void);
        return c;
      }
      decline("a VecMask member the hand reader does not know");
    }
    if (t.kind == Type::Array && m.name == "data" && !m.has_targs) {
      need_args(0, 0);
      c->type = Type{Type::Ptr, t.elem, 0, false};
      return c;
    }
    decline("a member call the hand reader does not know");
  }

  // An integer literal: its value, and its type from the value and the suffix.
  Node* int_literal(const Token& t) {
    Node* n = node(Node::IntLit, t);
    std::string_view text = t.text;
    size_t d = 0;
    while (d < text.size() && digit(text[d])) ++d;
    std::string_view suffix = text.substr(d);
    if (d > 1 && text[0] == '0') decline("an octal number");
    n->ivalue = int_value(text.substr(0, d));
    if (suffix.empty()) n->type = scalar(n->ivalue <= 2147483647 ? Scalar::Int : Scalar::Long);
    else if (suffix == "L" || suffix == "l") n->type = scalar(Scalar::Long);
    else if (suffix == "LL" || suffix == "ll") n->type = scalar(Scalar::LongLong);
    else decline("an integer suffix the hand reader does not know");
    n->value = static_cast<double>(n->ivalue);
    ++p_;
    n->e = t.end;
    return n;
  }

  // A floating literal, read as the compiler rounds it (a float suffix rounds to float).
  Node* float_literal(const Token& t) {
    Node* n = node(Node::FloatLit, t);
    std::string text(t.text);
    char last = text.back();
    bool is_f = last == 'f' || last == 'F';
    if (is_f) text.pop_back();
    for (char c : text)
      if (!(digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) decline("a floating literal form the hand reader does not know");
    char* end = nullptr;
    if (is_f) {
      float f = std::strtof(text.c_str(), &end);
      n->value = static_cast<double>(f);
    } else {
      n->value = std::strtod(text.c_str(), &end);
    }
    if (!end || *end != '\0') decline("a malformed floating literal");
    if (!std::isfinite(n->value)) decline("a floating literal out of range");
    n->type = scalar(is_f ? Scalar::Float : Scalar::Double);
    ++p_;
    n->e = t.end;
    return n;
  }

  // `static_cast<T>(x)` to a scalar type the prelude declares.
  Node* static_cast_expr(const Token& t) {
    Node* n = node(Node::ExplicitCast, t);
    ++p_;
    expect("<");
    std::optional<Scalar> s;
    if (is("std") && peek_is(1, "::") && peek_is(2, "make_unsigned_t") && peek_is(3, "<")) {
      // torch 2.14 adds and multiplies int64 values as unsigned, to wrap where signed overflow
      // is undefined: `int64_t(static_cast<std::make_unsigned_t<int64_t>>(a) + ...)`.
      p_ += 4;
      s = unsigned_of(template_scalar());
      close_angle();
    } else {
      s = scalar_type_name();
    }
    if (!s || *s == Scalar::Void) decline("a static_cast to a type the hand reader does not model");
    expect(">");
    expect("(");
    Node* sub = parse_expr();
    expect(")");
    n->e = prev_end();
    if (!sub->type.is_arith()) decline("a static_cast of a non-scalar");
    if (is_class_scalar(*s) && is_class_scalar(sub->type.elem) && *s != sub->type.elem)
      decline("a conversion between reduced-precision classes");
    n->written = scalar(*s);
    n->type = n->written;
    n->static_cast_ = true;
    n->kids = {sub};
    return n;
  }

  // `decltype(var)(x)` (a functional cast) or `decltype(var)::member(...)`.
  Node* decltype_expr(const Token& t) {
    // `decltype(tmp14)::blendv(a, b, mask)`
    const Token& start = t;
    ++p_;
    expect("(");
    if (cur().kind != TK::Ident) decline("decltype of an expression");
    const Var* v = lookup(cur().text);
    if (!v) decline("decltype of an unknown name");
    if (v->type.kind == Type::CArray || v->type.kind == Type::VecCArray) decline("decltype of an array");
    ++p_;
    expect(")");
    if (is("(")) {
      // `decltype(tmp0)(1)`: a functional cast to the variable's type, as if the type were written.
      // A lambda parameter's declared type is a reference and a const size's is const: not that.
      if (v->lambda_param || v->is_const) decline("decltype of a reference or const in a cast");
      return construct(v->type, start);
    }
    expect("::");
    return static_member_call(v->type, start);
  }

  // A call of one of the free functions of c10 and of the prelude that Inductor's kernels call
  // (reductions, Welford, argmax/argmin, random numbers, transposes, fused multiply-add), or null
  // when `t` starts none.
  Node* prelude_function_call(const Token& t) {
    if (is("c10") && peek_is(1, "::") && peek_is(2, "div_floor_integer")) {
      p_ += 3;
      std::vector<Node*> args = parse_args();
      // `template <class T> T div_floor_integer(T, T)`: T deduced from both arguments.
      if (args.size() != 2 || !plain_number(args[0]->type) || !(args[0]->type == args[1]->type))
        decline("a c10::div_floor_integer the hand reader does not model");
      return free_call("div_floor_integer", t, args, args[0]->type);
    }
    if (t.kind == TK::Ident && is_prelude_reduce_helper(t.text) && peek_is(1, "(")) return prelude_helper(t);
    if (is("TORCH_CHECK") && peek_is(1, "(")) return parse_torch_check();
    if (is("Welford") && peek_is(1, "<")) {
      // `Welford<at::vec::Vectorized<float>>()`: a value-initialized accumulator.
      const Token& start = t;
      Type wt = welford_type_name();
      std::vector<Node*> args = parse_args();
      if (!args.empty()) decline("a Welford made from values");
      Node* n = make<Node>();
      n->kind = Node::TempObject;
      n->b = start.begin;
      n->e = prev_end();
      n->line = start.line;
      n->col = start.col;
      n->type = wt;
      n->written = wt;
      return n;
    }
    if ((is("welford_combine") || is("welford_vec_reduce_all")) && peek_is(1, "(")) return welford_call(t);
    if (is("IndexValue") && peek_is(1, "<")) {
      // `IndexValue<float>{0, -std::numeric_limits<float>::infinity()}`: IndexValue(int64_t, T).
      Type it = index_value_type_name();
      if (!is("{")) decline("an IndexValue made otherwise than with braces");
      std::vector<Node*> args;
      ++p_;
      args.push_back(parse_assign());
      expect(",");
      args.push_back(parse_assign());
      expect("}");
      if (!plain_number(args[0]->type) || !is_integer(args[0]->type.elem) || !plain_number(args[1]->type))
        decline("an IndexValue of values the hand reader does not model");
      Node* n = free_call("", t, args, it);
      n->kind = Node::TempObject;
      n->written = it;
      return n;
    }
    if (is("IndexValueVec") && peek_is(1, "<")) {
      // `IndexValueVec<float, 1, 2>(x)`: a functional cast through IndexValueVec(T).
      Type it = index_value_type_name();
      std::vector<Node*> args = parse_args();
      if (args.size() != 1 || !plain_number(args[0]->type)) decline("an IndexValueVec made from other than one number");
      Node* n = free_call("", t, args, it);
      n->kind = Node::ExplicitCast;
      n->written = it;
      return n;
    }
    if ((is("argmax_combine_vec") || is("argmin_combine_vec")) && peek_is(1, "<")) return argm_combine_vec(t);
    if ((is("argmax_vec_reduce_all") || is("argmin_vec_reduce_all")) && peek_is(1, "(")) {
      ++p_;
      std::vector<Node*> args = parse_args();
      if (args.size() != 1 || args[0]->type.kind != Type::IndexValueVec) decline("an arg*_vec_reduce_all of something else");
      return free_call(t.text, t, args, Type{Type::IndexValue, args[0]->type.elem, 0});
    }
    if ((is("argmax_combine") || is("argmin_combine")) && peek_is(1, "(")) {
      // `IndexValue<T>& argmax_combine(IndexValue<T>& a, const IndexValue<T>& next)`
      ++p_;
      std::vector<Node*> args = parse_args();
      if (args.size() != 2 || args[0]->type.kind != Type::IndexValue || args[0]->kind != Node::VarRef ||
          args[0]->var->lambda_param || !(args[1]->type == args[0]->type))
        decline("an arg*_combine the hand reader does not model");
      return free_call(t.text, t, args, args[0]->type);
    }
    if (is("normalized_rand_cpu") && peek_is(1, "(")) {
      // `float normalized_rand_cpu(uint32_t seed, uint32_t offset)`
      ++p_;
      std::vector<Node*> args = parse_args();
      if (args.size() != 2 || !plain_number(args[0]->type) || !plain_number(args[1]->type))
        decline("a normalized_rand_cpu the hand reader does not model");
      return free_call("normalized_rand_cpu", t, args, scalar(Scalar::Float));
    }
    if (is("transpose_mxn") && peek_is(1, "<")) return transpose_call(t);
    if (is("atomic_add_vec") && peek_is(1, "<")) return atomic_add_vec_call(t);
    if ((is("fmadd") || is("fmsub")) && peek_is(1, "(")) {
      // Unqualified: found by argument-dependent lookup in at::vec, so only for vector arguments.
      ++p_;
      return at_vec_function(t.text, t);
    }
    return nullptr;
  }

  // A name: an OpenMP query, or a variable in scope.
  Node* name_expr(const Token& t) {
    if (t.text == "omp_get_thread_num" || t.text == "omp_get_num_threads" || t.text == "omp_get_max_threads") {
      ++p_;
      std::vector<Node*> args = parse_args();
      if (!args.empty()) decline("an OpenMP call with arguments");
      Node* c = make<Node>();
      c->kind = Node::Call;
      c->name = std::string(t.text);
      c->b = t.begin;
      c->e = prev_end();
      c->line = t.line;
      c->col = t.col;
      c->type = scalar(Scalar::Int);
      return c;
    }
    if (is_keyword(t.text)) decline("the keyword '" + std::string(t.text) + "' in an expression");
    const Var* v = lookup(t.text);
    if (!v) decline("a name the hand reader does not know: " + std::string(t.text.substr(0, 40)));
    if (peek_is(1, "::")) decline("a qualified name");
    Node* n = node(Node::VarRef, t);
    n->var = v;
    if (v->type.kind == Type::VecCArray && !peek_is(1, "[")) decline("an array of vectors used other than by an index");
    // A local array is used as the pointer to its first element (array-to-pointer decay).
    n->type = v->type.kind == Type::CArray ? Type{Type::Ptr, v->type.elem, 0} : v->type;
    ++p_;
    n->e = t.end;
    return n;
  }

  Node* parse_primary() {
    DepthGuard g(depth_);
    const Token& t = cur();
    if (t.kind == TK::Int) return int_literal(t);
    if (t.kind == TK::Float) return float_literal(t);
    if (t.kind == TK::String) decline("a string in an expression");
    if (is("(")) {
      Node* n = node(Node::Paren, t);
      ++p_;
      Node* inner = parse_expr();
      expect(")");
      n->e = prev_end();
      n->kids = {inner};
      n->type = inner->type;
      return n;
    }
    if (is("[")) return parse_lambda();
    if (is("true") || is("false")) {
      Node* n = node(Node::BoolLit, t);
      n->type = scalar(Scalar::Bool);
      ++p_;
      n->e = t.end;
      return n;
    }
    if (is("static_cast")) return static_cast_expr(t);
    if (is("decltype")) return decltype_expr(t);
    if (is("C10_LIKELY") || is("C10_UNLIKELY")) return parse_likely();
    if (is("at") && peek_is(1, "::") && peek_is(2, "vec") && peek_is(3, "::")) {
      const Token& start = t;
      if (auto vt = vec_type_name()) {
        if (is("::")) {
          ++p_;
          return static_member_call(*vt, start);
        }
        return construct(*vt, start);
      }
      p_ += 4;
      std::string_view fn = ident();
      return at_vec_function(fn, start);
    }
    if (is("c10") && peek_is(1, "::") && peek_is(2, "convert")) {
      const Token& start = t;
      p_ += 3;
      expect("<");
      Scalar to = template_scalar();
      expect(">");
      std::vector<Node*> args = parse_args();
      if (args.size() != 1 || !args[0]->type.is_arith()) decline("c10::convert of a non-scalar");
      Node* c = make<Node>();
      c->kind = Node::Call;
      c->name = "convert";
      c->b = start.begin;
      c->e = prev_end();
      c->line = start.line;
      c->col = start.col;
      c->kids = args;
      c->type = scalar(to);
      return c;
    }
    {
      // Functional cast to a scalar: `float(tmp0 + tmp1)`, `int64_t(x)`, `at::BFloat16(x)`.
      size_t save = p_;
      if (auto s = scalar_type_name()) {
        if (*s == Scalar::Void || !is("(")) decline("a type name where a value was expected");
        p_ = save;
        const Token& start = cur();
        scalar_type_name();
        return construct(scalar(*s), start);
      }
    }
    if (is("std") && peek_is(1, "::")) return std_function(t);
    if (Node* n = prelude_function_call(t)) return n;
    if (t.kind == TK::Ident) return name_expr(t);
    decline("an expression form the hand reader does not know");
  }

  // `C10_LIKELY(x)` is `(__builtin_expect(static_cast<bool>(x), 1))`. Everything inside a macro
  // expansion is located at the macro by Clang; the reader only allows forms there that the
  // Clang reader records nothing for (comparisons of loop variables with integer constants).
  Node* parse_likely() {
    const Token& start = cur();
    ++p_;
    expect("(");
    Node* x = parse_expr();
    expect(")");
    check_inside_macro(x);
    // Clang locates what a macro argument holds at the macro's expansion (main_file_line takes
    // the expansion location): a cast recorded in the condition is at `C10_LIKELY`, not at itself.
    at_expansion(x, start.line, start.col);
    if (!x->type.is_arith() || x->type.is_class()) decline("C10_LIKELY of a non-scalar");
    // The Clang reader records nothing for __builtin_expect, the cast to bool of a non-variable,
    // or the literal 1; the node stands for the whole expansion.
    Node* n = make<Node>();
    n->kind = Node::Paren;
    n->b = start.begin;
    n->e = prev_end();
    n->line = start.line;
    n->col = start.col;
    Node* call = make<Node>();
    *call = *n;
    call->kind = Node::Call;
    call->name = "__builtin_expect";
    call->type = scalar(Scalar::Long);
    call->kids = {x};
    n->kids = {call};
    n->type = call->type;
    return n;
  }
  // `TORCH_CHECK(cond, "message")`, the prelude's `((void)(cond))`: the message is dropped by the
  // macro, the condition is evaluated and discarded, and everything in it is located at the macro.
  Node* parse_torch_check() {
    const Token& start = cur();
    p_ += 2;
    Node* cond = parse_assign();
    expect(",");
    if (cur().kind != TK::String) decline("a TORCH_CHECK message that is not one string");
    ++p_;
    expect(")");
    // A bare variable would be a `(void)var` cast Clang records; a lambda's statements would keep
    // their own lines. Neither is what Inductor writes there.
    if (ignore_parens(cond)->kind == Node::VarRef) decline("a TORCH_CHECK of a bare variable");
    if (has_lambda(cond)) decline("a lambda in TORCH_CHECK");
    if (cond->type.kind == Type::None || cond->type.kind == Type::Lambda ||
        (cond->type.kind == Type::Scalar_ && cond->type.elem == Scalar::Void))
      decline("a TORCH_CHECK of a value of unknown type");
    at_expansion(cond, start.line, start.col);
    Node* n = make<Node>();
    n->kind = Node::ExplicitCast;
    n->b = start.begin;
    n->e = prev_end();
    n->line = start.line;
    n->col = start.col;
    n->written = scalar(Scalar::Void);
    n->type = n->written;
    n->kids = {cond};
    return n;
  }
  static bool has_lambda(const Node* x) {
    if (x->kind == Node::Lambda) return true;
    for (const Node* k : x->kids)
      if (has_lambda(k)) return true;
    return false;
  }
  static void at_expansion(Node* x, int line, int col) {
    x->line = line;
    x->col = col;
    x->op_line = line;
    x->op_col = col;
    for (Node* k : x->kids) at_expansion(k, line, col);
  }
  void check_inside_macro(const Node* x) {
    switch (x->kind) {
      case Node::VarRef:
        // A loop variable, or a scalar size (`ks0`) of a dynamic-shape kernel.
        if (!x->var->loop && !(x->var->kernel_param && plain_number(x->var->type)))
          decline("a variable other than a loop's or a size in C10_LIKELY");
        return;
      case Node::Call:
        // The symbolic bounds of dynamic shapes: `16L*(c10::div_floor_integer(ks0, 16L))`, `std::min(...)`.
        if (x->name != "div_floor_integer" && !x->folds_min_max) decline("a call in C10_LIKELY");
        for (const Node* k : x->kids) check_inside_macro(k);
        return;
      case Node::IntLit: return;
      case Node::Binary:
        if (x->op.find('=') != std::string_view::npos && x->op != "==" && x->op != "!=" && x->op != "<=" && x->op != ">=")
          decline("an assignment in C10_LIKELY");
        [[fallthrough]];
      case Node::Paren:
      case Node::Unary:
        for (const Node* k : x->kids) check_inside_macro(k);
        if (x->kind == Node::Paren && x->kids[0]->kind == Node::VarRef) decline("a bare variable in C10_LIKELY");
        return;
      case Node::ExplicitCast:
        if (x->written.kind != Type::Scalar_ || x->written.is_class()) decline("a cast to a class in C10_LIKELY");
        check_inside_macro(x->kids[0]);
        return;
      default: decline("an expression form in C10_LIKELY the hand reader does not follow");
    }
  }

  // `T(x)`: a functional cast (one argument) or a temporary object (none, or several).
  Node* construct(const Type& t, const Token& start) {
    std::vector<Node*> args = parse_args();
    Node* n = make<Node>();
    n->b = start.begin;
    n->e = prev_end();
    n->line = start.line;
    n->col = start.col;
    n->type = t;
    n->written = t;
    if (args.size() == 1) {
      n->kind = Node::ExplicitCast;
      n->kids = {args[0]};
      const Type& from = args[0]->type;
      if (t.kind == Type::Scalar_) {
        if (!from.is_arith()) decline("a functional cast of a non-scalar to a scalar");
        if (is_class_scalar(t.elem) && is_class_scalar(from.elem) && !(from == t))
          decline("a conversion between reduced-precision classes");
      } else if (t.kind == Type::Vec) {
        bool ok = from == t || (from.is_arith() && (!from.is_class() || t.elem == Scalar::Float || from.elem == t.elem));
        if (!ok) decline("a Vectorized made from a value the prelude's constructors do not take");
      } else if (t.kind == Type::VecN) {
        bool ok = from == t || (from.kind == Type::Vec && from.elem == t.elem) || (from.is_arith() && !from.is_class());
        if (!ok) decline("a VectorizedN made from a value the prelude's constructors do not take");
      } else if (t.kind == Type::Mask) {
        bool ok = (from.kind == Type::Vec && from.elem == t.elem) || (from.kind == Type::VecN && from.elem == t.elem && from.n == t.n) ||
                  from.kind == Type::Mask;
        if (!ok) decline("a VecMask made from a value the prelude's constructors do not take");
      } else {
        decline("a cast to a type the hand reader does not model");
      }
      return n;
    }
    n->kind = Node::TempObject;
    n->kids = args;
    if (!args.empty()) decline("a constructor call with several arguments");
    if (t.kind == Type::Scalar_ && !t.is_class()) decline("a value-initialized scalar");  // CXXScalarValueInitExpr
    return n;
  }

  // `Vectorized<T>::loadu(...)`, `VectorizedN<T, N>::arange(...)`, `decltype(x)::blendv(...)`.
  Node* static_member_call(const Type& cls, const Token& start) {
    if (cls.kind == Type::Mask) return mask_static_call(cls, start);
    if (cls.kind != Type::Vec && cls.kind != Type::VecN) decline("a static member of a type the hand reader does not model");
    std::string_view fn = ident();
    if (is("<")) decline("template arguments to a static member");
    std::vector<Node*> args = parse_args();
    Node* c = make<Node>();
    c->kind = Node::Call;
    c->name = std::string(fn);
    c->b = start.begin;
    c->e = prev_end();
    c->line = start.line;
    c->col = start.col;
    c->kids = args;
    c->type = cls;
    if (fn == "loadu") {
      if (args.empty() || args.size() > 2 || args[0]->type.kind != Type::Ptr) decline("a loadu of something that is not a pointer");
      if (args.size() == 2 && (!args[1]->type.is_arith() || args[1]->type.is_class())) decline("a loadu count that is not a number");
      return c;
    }
    if (fn == "arange") {
      if (args.size() != 2 || !args[0]->type.is_arith() || !args[1]->type.is_arith() || args[1]->type.is_class() ||
          (args[0]->type.is_class() && !(args[0]->type.elem == cls.elem)))
        decline("an arange the hand reader does not model");
      return c;
    }
    if (fn == "blendv") {
      if (args.size() != 3 || !(args[0]->type == cls) || !(args[1]->type == cls)) decline("a blendv of other types");
      const Type& m = args[2]->type;
      if (m.kind == Type::None || m.kind == Type::Lambda) decline("a blendv mask of unknown type");
      return c;
    }
    decline("a static member the hand reader does not know");
  }

  // A non-class arithmetic scalar: what the prelude's `T f(T, T)` templates are given here.
  static bool plain_number(const Type& t) { return t.is_arith() && !t.is_class(); }

  Node* free_call(std::string_view name, const Token& start, std::vector<Node*> args, const Type& type) {
    Node* c = make<Node>();
    c->kind = Node::Call;
    c->name = std::string(name);
    c->b = start.begin;
    c->e = prev_end();
    c->line = start.line;
    c->col = start.col;
    c->kids = std::move(args);
    c->type = type;
    return c;
  }

  // The prelude's std: `numeric_limits<T>::infinity()` and its siblings, min/max, and the math
  // functions, typed as its templates deduce them. Only plain numbers are taken: on class scalars
  // or vectors the prelude's templates deduce other types or fail, which Clang must say.
  Node* std_function(const Token& start) {
    p_ += 2;
    std::string_view fn = ident();
    if (fn == "numeric_limits") {
      expect("<");
      Scalar s = template_scalar();
      expect(">");
      expect("::");
      std::string_view member = ident();
      static const WordSet members = {"infinity", "quiet_NaN", "lowest", "max", "min", "epsilon"};
      if (!members.contains(member)) decline("a numeric_limits member the hand reader does not know");
      std::vector<Node*> args = parse_args();
      if (!args.empty()) decline("numeric_limits with arguments");
      Node* c = free_call(member, start, args, scalar(s));
      c->folds_to_zero = true;  // the prelude's members are constexpr and return T()
      return c;
    }
    if (fn == "make_unique" && is("<")) {
      // `std::make_unique<float []>(257L)`: a std::unique_ptr<float[]> of that many elements.
      ++p_;
      Scalar e = unique_array_element();
      std::vector<Node*> args = parse_args();
      if (args.size() != 1 || !plain_number(args[0]->type)) decline("a std::make_unique the hand reader does not model");
      return free_call(fn, start, args, Type{Type::UniqueArr, e, 0});
    }
    if (is("<")) decline("explicit template arguments to std::" + std::string(fn));
    // `template <class T> T f(T)`, `template <class T, class U> T f(T, U)`, `template <class T> bool f(T)`.
    static const WordSet unary = {"abs", "exp", "exp2", "expm1", "log", "log1p", "log2", "sqrt", "tanh",
                                  "sin", "cos", "tan", "erf", "floor", "ceil", "trunc", "round", "nearbyint"};
    static const WordSet binary = {"pow", "fmod", "atan2"};
    static const WordSet predicates = {"isnan", "isinf", "signbit"};
    std::vector<Node*> args;
    if (fn == "min" || fn == "max") {
      // `template <class T> constexpr T max(const T&, const T&)`: defined, so Clang folds it.
      args = parse_args();
      if (args.size() != 2 || !plain_number(args[0]->type) || !(args[0]->type == args[1]->type))
        decline("a std::" + std::string(fn) + " the hand reader does not model");
      Node* c = free_call(fn, start, args, args[0]->type);
      c->folds_min_max = true;
      return c;
    }
    size_t arity = unary.contains(fn) || predicates.contains(fn) ? 1 : binary.contains(fn) ? 2 : 0;
    if (!arity) decline("a name the hand reader does not know: std::" + std::string(fn.substr(0, 40)));
    args = parse_args();
    if (args.size() != arity) decline("std::" + std::string(fn) + " with a different number of arguments");
    for (const Node* a : args)
      if (!plain_number(a->type)) decline("std::" + std::string(fn) + " of a value that is not a plain number");
    return free_call(fn, start, args, predicates.contains(fn) ? scalar(Scalar::Bool) : args[0]->type);
  }

  // cpp_prefix.h's reduction helpers that are plain templates in the prelude:
  // `T max_propagate_nan(const T&, const T&)` (and its Vectorized<T> overload, which deduces the same
  // type), `T sum_masked_reduce(const T& acc, const V& x, int64_t n)` and its siblings.
  static bool is_prelude_reduce_helper(std::string_view n) {
    return n == "max_propagate_nan" || n == "min_propagate_nan" || n == "sum_masked_reduce" ||
           n == "prod_masked_reduce" || n == "max_masked_reduce" || n == "min_masked_reduce" ||
           n == "xor_sum_masked_reduce" || n == "any_masked_reduce" || n == "div_floor_floating_vec";
  }
  Node* prelude_helper(const Token& start) {
    std::string_view fn = ident();
    std::vector<Node*> args = parse_args();
    auto value = [](const Type& t) { return plain_number(t) || t.kind == Type::Vec || t.kind == Type::VecN; };
    auto mask_or_value = [&](const Type& t) { return value(t) || t.kind == Type::Mask; };
    if (fn == "div_floor_floating_vec") {
      // `template <class T, class U> T div_floor_floating_vec(T, U)`: the floor division of floats.
      if (args.size() != 2 || !value(args[0]->type) || !value(args[1]->type))
        decline("a div_floor_floating_vec the hand reader does not model");
      return free_call(fn, start, args, args[0]->type);
    }
    if (fn == "max_propagate_nan" || fn == "min_propagate_nan") {
      if (args.size() != 2 || !value(args[0]->type) || !(args[0]->type == args[1]->type))
        decline("a " + std::string(fn) + " the hand reader does not model");
      return free_call(fn, start, args, args[0]->type);
    }
    if (args.size() != 3 || !mask_or_value(args[0]->type) || !mask_or_value(args[1]->type) || !plain_number(args[2]->type))
      decline("a " + std::string(fn) + " the hand reader does not model");
    return free_call(fn, start, args, args[0]->type);
  }

  // cpp_prefix.h's `transpose_mxn<T, M, N, atomic_add>(src, ld_src, dst, ld_dst)`, with M and N
  // written as `static_cast<int64_t>(16)` or plain numbers. A call the Clang reader records nothing
  // of (neither a loadu nor a store): the transposed block's reads and writes are not in the model.
  Node* transpose_call(const Token& start) {
    p_ += 2;
    Scalar elem = template_scalar();
    for (int k = 0; k < 2; ++k) {
      expect(",");
      bool cast = is("static_cast");
      if (cast) {
        ++p_;
        expect("<");
        if (template_scalar() != Scalar::Long) decline("a transpose_mxn size cast to another type");
        expect(">");
        expect("(");
      }
      if (template_int() < 1) decline("a transpose_mxn of no rows");
      if (cast) expect(")");
    }
    expect(",");
    if (!is("false") && !is("true")) decline("a transpose_mxn without its atomic flag");
    ++p_;
    expect(">");
    std::vector<Node*> args = parse_args();
    if (args.size() != 4) decline("a transpose_mxn with other arguments");
    const Type& src = args[0]->type;
    const Type& dst = args[2]->type;
    if (src.kind != Type::Ptr || src.elem != elem || dst.kind != Type::Ptr || dst.elem != elem || dst.const_elem ||
        !plain_number(args[1]->type) || !plain_number(args[3]->type))
      decline("a transpose_mxn of other types");
    return free_call("transpose_mxn", start, args, scalar(Scalar::Void));
  }

  // cpp_prefix.h's `atomic_add_vec<T, NI, NV>(addr, index, offset)`, an index_add's scatter
  // (torch 2.13+): index a VecOf<int64_t, NI>, offset a VecOf<T, NV> and addr a T* not to const.
  // The template arguments are given, so the two vectors could also be converted to: only their
  // exact types are taken, anything else is left to Clang.
  Node* atomic_add_vec_call(const Token& start) {
    p_ += 2;
    Scalar elem = template_scalar();
    expect(",");
    int ni = template_int();
    expect(",");
    int nv = template_int();
    expect(">");
    std::vector<Node*> args = parse_args();
    if (args.size() != 3 || ni < 1 || nv < 1) decline("an atomic_add_vec with other arguments");
    const Type& addr = args[0]->type;
    if (addr.kind != Type::Ptr || addr.elem != elem || addr.const_elem || !(args[1]->type == vec_of(Scalar::Long, ni)) ||
        !(args[2]->type == vec_of(elem, nv)))
      decline("an atomic_add_vec of other types");
    return free_call("atomic_add_vec", start, args, scalar(Scalar::Void));
  }

  // A data member of an accumulator, the name at the cursor: Welford's `.mean`, `.m2`, `.weight`
  // (T) and `.index` (int64_t); IndexValue's `.value` (T) and `.index` (int64_t); IndexValueVec's
  // the same as VectorizedN of their registers.
  Node* data_member(Node* obj) {
    std::string_view field = ident();
    const Type& t = obj->type;
    Node* f = make<Node>();
    f->kind = Node::Member;
    f->name = std::string(field);
    f->b = obj->b;
    f->e = prev_end();
    f->line = obj->line;
    f->col = obj->col;
    f->kids = {obj};
    const bool value_field = t.kind == Type::Welford ? field == "mean" || field == "m2" || field == "weight" : field == "value";
    const int value_regs = t.kind == Type::IndexValue ? 0 : t.n;  // Welford: 0 for a scalar T
    if (field == "index") f->type = t.kind == Type::IndexValueVec ? vec_of(Scalar::Long, t.n2) : scalar(Scalar::Long);
    else if (value_field) f->type = value_regs == 0 ? scalar(t.elem) : vec_of(t.elem, value_regs);
    else decline("an accumulator member the hand reader does not know");
    return f;
  }

  // `argmax_combine_vec<float, 1, 2, true>(acc, value, index[, tail])`, and without the horizontal
  // flag `argmin_combine_vec<float, 1, 2>(acc, value, index_vector[, tail])` (the logical index of
  // each lane, torch 2.13+) or `(acc, other_acc[, tail])`: the accumulator (an lvalue of exactly
  // that IndexValueVec) comes back; value converts to VectorizedN<T, NV>.
  Node* argm_combine_vec(const Token& start) {
    std::string_view fn = ident();
    expect("<");
    Scalar e = template_scalar();
    expect(",");
    int nv = template_int();
    expect(",");
    int ni = template_int();
    const bool horizontal_flag = is(",");
    if (horizontal_flag) {
      ++p_;
      if (!is("true") && !is("false")) decline("an arg*_combine_vec without its horizontal flag");
      ++p_;
    }
    expect(">");
    std::vector<Node*> args = parse_args();
    Type acc{Type::IndexValueVec, e, nv};
    acc.n2 = ni;
    if (args.size() < 2 || args.size() > 4) decline("an arg*_combine_vec with other arguments");
    if (!(args[0]->type == acc) || args[0]->kind != Node::VarRef || args[0]->var->lambda_param)
      decline("an arg*_combine_vec of another accumulator");
    const Type& v = args[1]->type;
    size_t numbers_from = 2;  // the arguments from here on are a plain index or tail size
    if (!horizontal_flag && v == acc) {
      if (args.size() > 3) decline("an arg*_combine_vec with other arguments");
    } else {
      if (args.size() < 3) decline("an arg*_combine_vec with other arguments");
      if (!(v == vec_of(e, nv) || (nv == 1 && v == Type{Type::VecN, e, 1}))) decline("an arg*_combine_vec of other values");
      if (!horizontal_flag) {
        if (!(args[2]->type == Type{Type::VecN, Scalar::Long, ni})) decline("an arg*_combine_vec of other indices");
        numbers_from = 3;
      }
    }
    for (size_t k = numbers_from; k < args.size(); ++k)
      if (!plain_number(args[k]->type)) decline("an arg*_combine_vec index that is not a number");
    return free_call(fn, start, args, acc);
  }

  // The prelude's Welford helpers. welford_combine(acc, ...) is a Welford<T> of its first argument's
  // T whichever overload Clang picks: (acc, other accumulator), (acc, value[, &helper]),
  // (acc, value, tail, &helper), (acc, &helper). welford_vec_reduce_all folds the lanes of a
  // Welford<Vectorized<T>> or Welford<VectorizedN<T, 2>> into a Welford<T>.
  Node* welford_call(const Token& start) {
    std::string_view fn = ident();
    std::vector<Node*> args = parse_args();
    if (args.empty() || args[0]->type.kind != Type::Welford) decline("a Welford helper of something not a Welford");
    const Type& acc = args[0]->type;
    if (fn == "welford_vec_reduce_all") {
      if (args.size() != 1 || !(acc.n == 1 || acc.n == 2)) decline("a welford_vec_reduce_all the hand reader does not model");
      return free_call(fn, start, args, Type{Type::Welford, acc.elem, 0});
    }
    auto value = [&](const Type& t) { return t == acc || plain_number(t) || t.kind == Type::Vec || t.kind == Type::VecN; };
    auto helper = [&](const Type& t) { return t.kind == Type::HelperPtr && t.elem == acc.elem && t.n == acc.n; };
    bool ok = false;
    if (args.size() == 2) ok = value(args[1]->type) || helper(args[1]->type);
    else if (args.size() == 3) ok = value(args[1]->type) && !(args[1]->type == acc) && helper(args[2]->type);
    else if (args.size() == 4)
      ok = value(args[1]->type) && !(args[1]->type == acc) && plain_number(args[2]->type) && helper(args[3]->type);
    if (!ok) decline("a welford_combine the hand reader does not model");
    return free_call(fn, start, args, acc);
  }

  // `VecMask<T,N>::from(...)` and `VecMask<T,N>::set(a, b, count)`, as the prelude declares them:
  // from(U) broadcasts a scalar, from(const U*[, count]) reads flags, from<U,L>(v) takes a vector
  // of exactly VecOf<U,L>; set takes two masks of its own type. Anything else is declined.
  Node* mask_static_call(const Type& cls, const Token& start) {
    std::string_view fn = ident();
    std::vector<Scalar> targ_types;
    std::vector<int> targ_ints;
    if (is("<")) {
      ++p_;
      targ_types.push_back(template_scalar());
      expect(",");
      targ_ints.push_back(template_int());
      expect(">");
    }
    std::vector<Node*> args = parse_args();
    Node* c = free_call(fn, start, args, cls);
    if (fn == "from" && !targ_types.empty()) {
      if (args.size() != 1 || !(args[0]->type == vec_of(targ_types[0], targ_ints[0])))
        decline("a VecMask::from<U,L> of another type");
      return c;
    }
    if (fn == "from" && args.size() == 1) {
      const Type& a = args[0]->type;
      if (a.kind == Type::Ptr || plain_number(a)) return c;
      decline("a VecMask::from of a value the hand reader does not model");
    }
    if (fn == "from" && args.size() == 2) {
      if (args[0]->type.kind != Type::Ptr) decline("a VecMask::from with a count of something not a pointer");
      if (!plain_number(args[1]->type)) decline("a count that is not a number");
      return c;
    }
    if (fn == "set" && (args.size() == 2 || args.size() == 3) && targ_types.empty()) {
      if (!(args[0]->type == cls) || !(args[1]->type == cls)) decline("a VecMask::set of other types");
      if (args.size() == 3 && !plain_number(args[2]->type)) decline("a count that is not a number");
      return c;
    }
    decline("a VecMask static member the hand reader does not know");
  }

  // at::vec::convert<...>(v), maximum/minimum/..., vec_reduce_all<T, N>(op, v).
  Node* at_vec_function(std::string_view fn, const Token& start) {
    Node* c = make<Node>();
    c->kind = Node::Call;
    c->name = std::string(fn);
    c->b = start.begin;
    c->line = start.line;
    c->col = start.col;
    if (fn == "convert") {
      expect("<");
      Scalar to = template_scalar();
      std::vector<int> ints;
      std::vector<Scalar> types{to};
      std::string shape = "T";  // the template arguments' kinds in order: `TITI` for <float,1,at::BFloat16,1>
      while (is(",")) {
        ++p_;
        if (cur().kind == TK::Int) {
          ints.push_back(template_int());
          shape += "I";
        } else {
          types.push_back(template_scalar());
          shape += "T";
        }
      }
      expect(">");
      std::vector<Node*> args = parse_args();
      c->e = prev_end();
      c->kids = args;
      if (args.size() != 1) decline("convert with other than one argument");
      const Type& from = args[0]->type;
      if (types.size() == 1 && ints.empty()) {
        if (from.kind == Type::Vec) c->type = Type{Type::Vec, to, 0};
        else if (from.kind == Type::VecN) c->type = Type{Type::VecN, to, from.n};
        else decline("at::vec::convert of a non-vector");
      } else if (shape == "TITI") {
        // `template <class To, int NTo, class From, int NFrom, class V> VecOf<To, NTo> convert(const V&)`:
        // the only overload these arguments fit; V is whatever the argument is.
        if (ints[0] < 1 || ints[1] < 1) decline("at::vec::convert of no registers");
        if (from.kind == Type::None || from.kind == Type::Lambda) decline("at::vec::convert of a value of unknown type");
        c->type = vec_of(to, ints[0]);
      } else {
        decline("at::vec::convert with explicit counts");
      }
      return c;
    }
    if (fn == "vec_reduce_all") {
      expect("<");
      Scalar t = template_scalar();
      if (is(",")) {
        ++p_;
        if (template_int() < 1) decline("vec_reduce_all over no registers");
      }
      expect(">");
      std::vector<Node*> args = parse_args();
      c->e = prev_end();
      c->kids = args;
      if (args.size() != 2 || args[0]->kind != Node::Lambda || !args[1]->type.is_vector())
        decline("a vec_reduce_all the hand reader does not model");
      c->type = scalar(t);
      return c;
    }
    if (is("<")) decline("explicit template arguments to at::vec::" + std::string(fn));
    static const WordMap<size_t> same_type_fns = {
        {"maximum", 2}, {"minimum", 2}, {"clamp_min", 2}, {"clamp_max", 2}, {"clamp", 3}, {"fmadd", 3}, {"fmsub", 3}};
    const size_t* arity = same_type_fns.find(fn);
    if (!arity) decline("an at::vec function the hand reader does not know");
    std::vector<Node*> args = parse_args();
    c->e = prev_end();
    c->kids = args;
    if (args.size() != *arity) decline("at::vec::" + std::string(fn) + " with a different number of arguments");
    // The prelude declares maximum/minimum for VectorizedN too; the others for Vectorized only.
    const bool vecn_ok = fn == "maximum" || fn == "minimum";
    for (Node* a : args)
      if (!(a->type.kind == Type::Vec || (vecn_ok && a->type.kind == Type::VecN)) || !(a->type == args[0]->type))
        decline("at::vec::" + std::string(fn) + " of other types");
    c->type = args[0]->type;
    return c;
  }

  Node* parse_lambda() {
    const Token& start = cur();
    ++p_;
    bool captures_by_ref = false;
    if (is("&")) {
      captures_by_ref = true;
      ++p_;
    }
    expect("]");
    Node* n = node(Node::Lambda, start);
    int idx = static_cast<int>(lambdas.size());
    lambdas.emplace_back();
    n->type = Type{Type::Lambda, Scalar::Void, 0, false, idx};
    size_t saved_barrier = barrier_;
    scopes_.emplace_back();
    if (!captures_by_ref) barrier_ = scopes_.size() - 1;
    if (is("(")) {
      parenthesized_list([&] {
        // `at::vec::Vectorized<float>& x`
        auto vt = vec_type_name();
        if (!vt) decline("a lambda parameter of a type the hand reader does not model");
        if (!is("&")) decline("a lambda parameter not taken by reference");
        ++p_;
        Var* v = make<Var>();
        v->name = std::string(ident());
        v->type = *vt;
        v->lambda_param = true;
        declare(v);
      });
    }
    if (is("mutable") || is("->") || is("noexcept") || is("constexpr")) decline("a lambda with specifiers");
    lambda_stack_.push_back(idx);
    n->body = parse_compound(/*new_scope=*/false);
    lambda_stack_.pop_back();
    pop_scope();
    barrier_ = saved_barrier;
    n->e = prev_end();
    if (!lambdas[static_cast<size_t>(idx)].ret) lambdas[static_cast<size_t>(idx)].ret = scalar(Scalar::Void);
    return n;
  }

  std::string_view src_;
  std::vector<Token> t_;
  std::vector<std::pair<size_t, Token>> split_tokens_;  // `>>` tokens close_angle split, as they were
  size_t p_ = 0;
  int depth_ = 0;
  size_t allocated_ = 0;
  std::vector<std::vector<const Var*>> scopes_;
  struct Binding {
    const Var* var;
    uint32_t scope;     // index in scopes_
    uint32_t shadowed;  // the binding of the same name it hides, or kNoBinding
  };
  static constexpr uint32_t kNoBinding = UINT32_MAX;
  std::vector<Binding> bindings_;
  std::unordered_map<std::string_view, uint32_t> visible_;  // name -> index in bindings_
  size_t barrier_ = 0;  // scopes below this index are not visible (a lambda without captures)
  std::vector<std::string> declaring_;  // the variables whose initializers are being parsed
  std::vector<int> lambda_stack_;
  std::deque<Node> nodes_;
  std::deque<Stmt> stmts_;
  std::deque<Var> vars_;
};

// ------------------------------------------------------------------ walk

std::string binop_name(std::string_view op) {
  static const WordMap<std::string_view> names = {
      {"+", "add"}, {"-", "sub"}, {"*", "mul"}, {"/", "div"}, {"%", "mod"}, {"&", "and"}, {"|", "or"},
      {"^", "xor"}, {"<<", "shl"}, {">>", "shr"}, {"<", "lt"}, {"<=", "le"}, {">", "gt"}, {">=", "ge"},
      {"==", "eq"}, {"!=", "ne"}, {"&&", "land"}, {"||", "lor"}};
  const std::string_view* name = names.find(op);
  return name ? std::string(*name) : "";
}

// An overloaded operator's name as the Clang reader's overloaded_name() gives it.
std::string overloaded_name(std::string_view op, size_t nargs) {
  if (op == "+") return nargs == 1 ? "copy" : "add";
  if (op == "-") return nargs == 1 ? "neg" : "sub";
  if (op == "!") return "not";
  if (op == "~") return "bitnot";
  bool assigns = op.size() >= 2 && op.back() == '=' && op != "==" && op != "!=" && op != "<=" && op != ">=";
  if (op == "=" || op == "[]" || op == "()" || assigns) return "";
  return binop_name(op);
}

// A for loop around the node being walked: its Stmt is its id.
using LoopInfo = cpp_kernel_facts::Loop;

class Walker {
 public:
  Walker(const Parser& parser, cpp_kernel_facts::KernelFacts& out) : parser_(parser), out_(out) {}

  void run(const Function& f) {
    out_.found_function = true;
    out_.function_line = f.line;
    out_.params = f.kernel_params;
    stmt(f.body);
    out_.reductions = accumulators_.reductions();
  }

 private:

  std::string text(const Node* n) const { return parser_.normalized(n->b, n->e); }
  static SourceLoc at(int line, int col) { return SourceLoc{FilePath(), line, col}; }

  // ---- constant integers (Clang's EvaluateAsInt on what Inductor writes in loop bounds)
  std::optional<int64_t> eval_int(const Node* n) const {
    switch (n->kind) {
      case Node::IntLit: return n->ivalue;
      case Node::Paren: return eval_int(n->kids[0]);
      case Node::VarRef: return std::nullopt;
      case Node::ExplicitCast: {
        if (n->written.kind != Type::Scalar_ || !is_integer(n->written.elem) || n->written.elem == Scalar::Bool)
          decline("a constant cast to a non-integer");
        auto v = eval_int(n->kids[0]);
        if (v && !fits(*v, n->written.elem)) decline("a constant narrowed by a cast");
        return v;
      }
      case Node::Unary: {
        if (n->op != "-" && n->op != "+") decline("a constant under a unary operator the reader does not fold");
        auto v = eval_int(n->kids[0]);
        if (!v) return v;
        if (n->op == "+") return v;
        int64_t r;
        if (__builtin_sub_overflow(int64_t{0}, *v, &r) || !fits(r, n->type.elem)) decline("an overflowing constant");
        return r;
      }
      case Node::Binary: {
        if (!n->type.is_scalar() || !is_integer(n->type.elem)) decline("a non-integer constant expression");
        std::string_view op = n->op;
        if (op != "+" && op != "-" && op != "*" && op != "/" && op != "%") decline("a constant operator the reader does not fold");
        auto a = eval_int(n->kids[0]);
        auto b = eval_int(n->kids[1]);
        if (!a || !b) return std::nullopt;
        int64_t r = 0;
        bool over = false;
        if (op == "+") over = __builtin_add_overflow(*a, *b, &r);
        else if (op == "-") over = __builtin_sub_overflow(*a, *b, &r);
        else if (op == "*") over = __builtin_mul_overflow(*a, *b, &r);
        else {
          if (*b == 0) return std::nullopt;
          if (*a == INT64_MIN && *b == -1) decline("an overflowing constant");
          r = op == "/" ? *a / *b : *a % *b;
        }
        if (over || !fits(r, n->type.elem)) decline("an overflowing constant");
        return r;
      }
      case Node::Call:
        // What Clang's constant evaluator folds: the prelude's constexpr std::min/max and
        // numeric_limits members (which return T(), a stand-in value the model must not take).
        if (n->folds_to_zero) decline("a numeric_limits member in a constant");
        if (n->folds_min_max) {
          auto a = eval_int(n->kids[0]);
          auto b = eval_int(n->kids[1]);
          if (!a || !b) return std::nullopt;
          return n->name == "min" ? (*b < *a ? *b : *a) : (*a < *b ? *b : *a);
        }
        return std::nullopt;
      case Node::MemberCall:
      case Node::OpCall: return std::nullopt;
      default: decline("a constant the reader does not fold");
    }
  }
  static bool fits(int64_t v, Scalar s) {
    switch (s) {
      case Scalar::Int: return v >= INT32_MIN && v <= INT32_MAX;
      case Scalar::Short: return v >= INT16_MIN && v <= INT16_MAX;
      case Scalar::SChar:
      case Scalar::Char: return v >= INT8_MIN && v <= INT8_MAX;
      case Scalar::Long:
      case Scalar::LongLong: return true;
      default: return false;
    }
  }

  // ---- statements, in RecursiveASTVisitor's order

  void stmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case Stmt::Compound:
        for (const Stmt* k : s->kids) stmt(k);
        return;
      case Stmt::For: {
        LoopInfo li;
        li.id = s;
        const Stmt* init = s->init;
        li.var = init->var->name;
        li.start = eval_int(init->expr);
        if (s->cond->kind == Node::Binary && (s->cond->op == "<" || s->cond->op == "<=")) {
          const Node* rhs = s->cond->kids[1];
          if (s->cond->op == "<") {
            li.end = eval_int(rhs);
            li.end_text = text(rhs);
          } else {
            if (auto v = eval_int(rhs)) {
              if (*v == INT64_MAX) decline("an overflowing loop end");
              li.end = *v + 1;
            }
            li.end_text = text(rhs) + " + 1";
          }
        }
        nests_.enter(loops_);
        loops_.push_back(li);
        expr(init->expr);
        expr(s->cond);
        expr(s->inc);
        stmt(s->then);
        loops_.pop_back();
        nests_.leave(loops_);
        return;
      }
      case Stmt::If:
        expr(s->cond);
        stmt(s->then);
        stmt(s->els);
        return;
      case Stmt::Decl:
        visit_var_decl(s);
        if (s->aligned_by_max) out_.add_form("call:max");
        if (s->expr) expr(s->expr);
        return;
      case Stmt::Expr:
      case Stmt::Return:
        if (s->expr) expr(s->expr);
        return;
      case Stmt::Null: return;
      case Stmt::DivCheck: {
        // What the Clang reader records: the counter's declaration and the flag's two assignments as
        // `other` statements (the flag's set reads the counter), the throw as a call form.
        if (s->div_part == DivCheckPart::Throw) {
          out_.add_form("call:" + std::string(kDivErrorThrow));
          return;
        }
        KernelStmt st;
        st.var = s->div_part == DivCheckPart::Declare ? kDivError : kDivErrorFlag;
        st.op = "other";
        if (s->div_part == DivCheckPart::SetFlag) st.operands = {IString(kDivError)};
        st.loc = at(s->line, s->col);
        out_.stmts.push_back(st);
        return;
      }
    }
  }

  void visit_var_decl(const Stmt* s) {
    const Var* v = s->var;
    if (v->is_static) return;  // as the Clang reader: no local storage, nothing recorded
    const std::string& name = v->name;
    if (!accumulator_base(name).empty()) {
      accumulators_.declare(name, elem_dtype(v->type), loops_, s->line, s->col);
      return;
    }
    if (v->type.kind == Type::CArray) return;  // no initializer: nothing recorded
    if (!s->expr) {
      // A default-initialized std::array: Clang's initializer is the implicit constructor call,
      // which the Clang reader classifies as "other".
      KernelStmt st;
      st.var = name;
      st.op = "other";
      st.loc = at(s->line, s->col);
      out_.stmts.push_back(st);
      return;
    }
    owner_[s->expr] = name;
    record_value(name, s->expr, s->line, s->col);
  }

  // ---- expressions: Visit* of the node, then its children (pre-order)

  void expr(const Node* n) {
    switch (n->kind) {
      case Node::Binary:
        if (is_assign_op(n->op)) {
          bool compound = n->op != "=";
          on_assign(n->kids[0], n->kids[1], compound, n, compound ? binop_name(n->op.substr(0, n->op.size() - 1)) : "");
        }
        break;
      case Node::OpCall:
        if (n->kids.size() == 2 && (n->op == "=" || n->op == "+=" || n->op == "-=" || n->op == "*=" || n->op == "/=")) {
          std::string compound = n->op == "+=" ? "add" : n->op == "-=" ? "sub" : n->op == "*=" ? "mul" : n->op == "/=" ? "div" : "";
          on_assign(n->kids[0], n->kids[1], n->op != "=", n, compound);
        }
        break;
      case Node::Subscript: visit_subscript(n); break;
      case Node::Call:
      case Node::MemberCall: visit_call(n); break;
      case Node::ExplicitCast: visit_explicit_cast(n); break;
      case Node::Unary:
        if (n->op == "-" && ignore_parens(n->kids[0])->kind == Node::FloatLit) add_literal(ignore_parens(n->kids[0]), true, "");
        break;
      case Node::FloatLit: add_literal(n, false, ""); break;
      case Node::Lambda:
        stmt(n->body);
        return;
      default: break;
    }
    for (const Node* k : n->kids) expr(k);
  }

  static bool is_assign_op(std::string_view op) {
    return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" || op == "&=" || op == "|=" ||
           op == "^=" || op == "<<=" || op == ">>=";
  }

  // The kernel parameter `e` names: the parameter, or a local copy of it (as the Clang reader's).
  const Var* param_of(const Node* e) const {
    e = ignore_parens(e);
    if (e->kind != Node::VarRef) return nullptr;
    return e->var->kernel_param ? e->var : e->var->copy_of_param;
  }
  static const Var* var_decl(const Node* e) {
    e = ignore_parens(e);
    return e && e->kind == Node::VarRef ? e->var : nullptr;
  }
  static std::string var_name(const Node* e) {
    const Var* v = var_decl(e);
    return v ? v->name : "";
  }
  std::string owner_of(const Node* e) const {
    auto it = owner_.find(e);
    return it == owner_.end() ? "" : it->second;
  }

  std::string index_text(const Node* idx) const {
    const Node* e = ignore_parens(idx);
    if (e->kind == Node::ExplicitCast && e->static_cast_ && e->type.is_scalar() && is_integer(e->type.elem))
      e = e->kids[0];
    return text(e);
  }

  // Returns the parameter (null when `arg` addresses none).
  const Var* pointer_and_index(const Node* arg, std::string& ptr, std::string& index) const {
    const Node* e = ignore_parens(arg);
    // `&out_ptr0[i]` (a scalar atomic_add's address).
    if (e->kind == Node::Unary && e->op == "&" && ignore_parens(e->kids[0])->kind == Node::Subscript)
      if (const Var* p = param_of(ignore_parens(e->kids[0])->kids[0])) {
        ptr = p->name;
        index = index_text(ignore_parens(e->kids[0])->kids[1]);
        return p;
      }
    if (const Var* p = param_of(e)) {
      ptr = p->name;
      index = "0";
      return p;
    }
    if (e->kind != Node::Binary || (e->op != "+" && e->op != "-")) return nullptr;
    if (const Var* p = param_of(e->kids[0])) {
      ptr = p->name;
      index = e->op == "-" ? "-(" + index_text(e->kids[1]) + ")" : index_text(e->kids[1]);
      return p;
    }
    if (const Var* p = param_of(e->kids[1]); p && e->op == "+") {
      ptr = p->name;
      index = index_text(e->kids[0]);
      return p;
    }
    return nullptr;
  }

  void visit_subscript(const Node* a) {
    if (store_targets_.count(a) && !compound_targets_.count(a)) return;
    const Var* p = param_of(a->kids[0]);
    if (!p) return;
    MemAccess m;
    m.ptr = p->name;
    m.index = index_text(a->kids[1]);
    m.value_dtype = elem_dtype(p->type);
    m.vectorized = false;
    m.var = owner_of(a);
    m.loc = at(a->line, a->col);
    m.nest = nests_.current();
    out_.loads.push_back(m);
  }

  void visit_call(const Node* call) {
    const std::string& name = call->name;
    if (!name.empty()) out_.add_form("call:" + name);
    bool member = call->kind == Node::MemberCall;
    size_t first_arg = member ? 1 : 0;
    size_t nargs = call->kids.size() - first_arg;
    if (name == "loadu" && nargs >= 1) {
      std::string ptr, index;
      if (pointer_and_index(call->kids[first_arg], ptr, index)) {
        MemAccess m;
        m.ptr = ptr;
        m.index = index;
        m.value_dtype = elem_dtype(call->type);
        m.vectorized = call->type.is_vector();
        m.var = owner_of(call);
        m.loc = at(call->line, call->col);
        m.nest = nests_.current();
        out_.loads.push_back(m);
      }
    } else if (name == "store" && nargs >= 1) {
      std::string ptr, index;
      if (member && pointer_and_index(call->kids[1], ptr, index)) {
        MemAccess m;
        m.ptr = ptr;
        m.index = index;
        const Node* obj = call->kids[0];
        m.var = var_name(obj);
        m.value_dtype = elem_dtype(obj->type);
        m.vectorized = obj->type.is_vector();
        m.loc = at(call->line, call->col);
        m.nest = nests_.current();
        out_.stores.push_back(m);
        add_store_site(m.var);
      }
    } else if ((name == "convert" || name == "cvt") && nargs == 1) {
      CastOp c;
      c.var = owner_of(call);
      c.src = var_name(call->kids[first_arg]);
      c.to = elem_dtype(call->type);
      c.loc = at(call->line, call->col);
      out_.casts.push_back(c);
    } else if (name == "from" && nargs >= 1) {
      // `VecMask<float,1>::from(in_ptr2 + i, 16)`: a mask loaded from a bool buffer.
      add_block_access(out_.loads, call->kids[first_arg], owner_of(call), call, false);
    } else if (name == "transpose_mxn" && nargs >= 3) {
      // transpose_mxn<T, M, N, atomic_add>(src, ld_src, dst, ld_dst): reads an MxN block of src
      // and writes it transposed to dst; either may be a kernel buffer or a local array.
      const Node* src = call->kids[first_arg];
      const Node* dst = call->kids[first_arg + 2];
      add_block_access(out_.loads, src, var_name(dst), call, false);
      if (add_block_access(out_.stores, dst, var_name(src), call, false)) add_store_site(var_name(src));
    } else if ((name == "atomic_add" || name == "atomic_add_vec") && nargs >= 2) {
      // atomic_add(out_ptr0 + i, value); atomic_add_vec(out_ptr0, indices, values).
      bool vec = name == "atomic_add_vec";
      const Node* value = ignore_parens(call->kids[first_arg + (vec && nargs >= 3 ? 2 : 1)]);
      if (value->kind == Node::ExplicitCast) value = ignore_parens(value->kids[0]);
      if (add_block_access(out_.stores, call->kids[first_arg], var_name(value), call, true, vec ? call->kids[first_arg + 1] : nullptr))
        add_store_site(var_name(value));
    }
  }

  // A load or store of a whole block through a call (VecMask::from, transpose_mxn, atomic_add):
  // `arg` is a kernel buffer, or a buffer plus an offset; a vector of indices adds `lanes`.
  // Returns false (nothing added) when `arg` is not a kernel buffer.
  bool add_block_access(std::vector<MemAccess>& into, const Node* arg, const std::string& var, const Node* call,
                        bool atomic, const Node* lanes = nullptr) {
    std::string ptr, index;
    const Var* p = pointer_and_index(arg, ptr, index);
    if (!p) return false;
    const Node* e = ignore_parens(arg);
    if (e->kind == Node::Unary && e->op == "&")
      store_targets_.insert(ignore_parens(e->kids[0]));  // an address taken, not a load (the children are visited next)
    MemAccess m;
    m.ptr = ptr;
    m.index = lanes ? (index == "0" ? index_text(lanes) : index + " + " + index_text(lanes)) : index;
    m.value_dtype = elem_dtype(p->type);
    m.vectorized = !atomic || lanes;  // a scalar atomic_add writes one element
    m.atomic = atomic;
    m.var = var;
    m.loc = at(call->line, call->col);
    m.nest = nests_.current();
    into.push_back(m);
    return true;
  }

  void visit_explicit_cast(const Node* c) {
    const Node* sub = c->kids[0];
    std::string src = var_name(sub);
    if (src.empty()) return;
    const Var* vd = var_decl(sub);
    if (vd && vd->loop) return;  // index arithmetic, not a value cast
    CastOp op;
    op.var = owner_of(c);
    op.src = src;
    op.to = elem_dtype(c->written);
    op.loc = at(c->line, c->col);
    out_.casts.push_back(op);
  }

  void add_literal(const Node* lit, bool negated, const std::string& var) {
    if (!literals_seen_.insert(lit).second) return;
    LiteralUse l;
    l.text = (negated ? "-" : "") + text(lit);
    l.value = negated ? -lit->value : lit->value;
    l.var = var;
    l.loc = at(lit->line, lit->col);
    out_.literals.push_back(l);
  }

  void add_store_site(const std::string& var) { accumulators_.store(var, loops_); }

  static const Node* literal_inside(const Node* e, bool* negated) {
    *negated = false;
    for (int i = 0; e && i < 8; ++i) {
      e = ignore_parens(e);
      if (e->kind == Node::FloatLit || e->kind == Node::IntLit) return e;
      if (e->kind == Node::Unary) {
        if (e->op == "-") {
          *negated = !*negated;
          e = e->kids[0];
          continue;
        }
        return nullptr;
      }
      if (e->kind == Node::ExplicitCast) {
        // Clang's getSubExpr() of a cast to a class (`Vectorized<float>(0.5)`) is the
        // constructor call, not the literal: the Clang reader binds no literal there.
        if (e->written.is_class()) return nullptr;
        e = e->kids[0];
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }

  void collect_operands(const Node* n, std::vector<std::string>& out) const {
    if (n->kind == Node::Lambda) return;
    if (n->kind == Node::VarRef) {
      if (std::find(out.begin(), out.end(), n->var->name) == out.end()) out.push_back(n->var->name);
      return;
    }
    for (const Node* k : n->kids) collect_operands(k, out);
  }

  void lambda_results(const Stmt* s, std::vector<std::string>& out) const {
    if (!s) return;
    switch (s->kind) {
      case Stmt::Return:
        if (s->expr) collect_operands(s->expr, out);
        return;
      case Stmt::Compound:
        for (const Stmt* k : s->kids) lambda_results(k, out);
        return;
      case Stmt::For: lambda_results(s->then, out); return;
      case Stmt::If:
        lambda_results(s->then, out);
        lambda_results(s->els, out);
        return;
      default: return;
    }
  }

  void classify_into(const Node* e, KernelStmt& st) const {
    std::string op;
    std::vector<std::string> operands;
    classify(e, op, operands);
    st.op = op;
    st.operands = to_istrings(operands);
  }

  void classify(const Node* e, std::string& op, std::vector<std::string>& operands) const {
    switch (e->kind) {
      case Node::Paren:
        classify(e->kids[0], op, operands);
        if (op != "copy" && e->kids[0]->kind != Node::VarRef) return;
        op = "copy";
        return;
      case Node::Lambda:
        op = "lambda";
        lambda_results(e->body, operands);
        return;
      case Node::Binary:
        op = binop_name(e->op);
        if (op.empty()) op = "other";
        collect_operands(e, operands);
        return;
      case Node::Unary: {
        bool neg = false;
        if (literal_inside(e, &neg)) {
          op = "constant";
          return;
        }
        op = e->op == "-" ? "neg" : e->op == "!" ? "not" : "other";
        collect_operands(e, operands);
        return;
      }
      case Node::Cond:
        op = "where";
        collect_operands(e, operands);
        return;
      case Node::VarRef:
        op = "copy";
        collect_operands(e, operands);
        return;
      case Node::IntLit:
      case Node::FloatLit:
      case Node::BoolLit:
        op = "constant";
        return;
      case Node::Subscript:
        op = param_of(e->kids[0]) ? "load" : "index";
        collect_operands(e, operands);
        return;
      case Node::ExplicitCast: {
        const Node* sub = e->kids[0];
        bool neg = false;
        if (literal_inside(sub, &neg)) {
          op = "constant";
          return;
        }
        // `VecMask<float,2>(tmp4 == tmp7)`: the comparison, as the Clang reader classifies it.
        if (e->written.kind == Type::Mask && (sub->kind == Node::Binary || sub->kind == Node::OpCall)) {
          std::string cmp = sub->kind == Node::Binary ? binop_name(sub->op) : overloaded_name(sub->op, sub->kids.size());
          if (is_comparison_op(cmp)) {
            op = cmp;
            collect_operands(sub, operands);
            return;
          }
        }
        if (e->written == sub->type) {
          classify(sub, op, operands);
          return;
        }
        if (e->written.is_vector() && !sub->type.is_vector()) {
          op = "broadcast";
          collect_operands(sub, operands);
          return;
        }
        op = "cast";
        collect_operands(sub, operands);
        return;
      }
      case Node::TempObject:
        op = e->kids.empty() ? "constant" : "broadcast";
        collect_operands(e, operands);
        return;
      case Node::OpCall:
        if (e->op == "()" && e->kids[0]->kind == Node::Lambda) {
          op = "call:lambda";
          lambda_results(e->kids[0]->body, operands);
          return;
        }
        if (e->op == "()") {
          op = "call:lambda";
        } else {
          op = overloaded_name(e->op, e->kids.size());
          if (op.empty()) op = "other";
        }
        collect_operands(e, operands);
        return;
      case Node::Call:
      case Node::MemberCall:
        if (e->name == "loadu") op = "load";
        else if (e->name == "convert" || e->name == "cvt") op = "cast";
        else if (!e->name.empty()) op = "call:" + e->name;
        else op = "other";
        collect_operands(e, operands);
        return;
      default:
        op = "other";
        collect_operands(e, operands);
    }
  }

  void record_value(const std::string& var, const Node* init, int line, int col) {
    KernelStmt st;
    st.var = var;
    classify_into(init, st);
    st.loc = at(line, col);
    out_.stmts.push_back(st);
    bool neg = false;
    if (const Node* lit = literal_inside(init, &neg)) add_literal(lit, neg, var);
  }

  void on_assign(const Node* lhs_in, const Node* rhs, bool compound, const Node* op_node, const std::string& compound_op) {
    const Node* lhs = ignore_parens(lhs_in);
    int line = op_node->op_line, col = op_node->op_col;
    if (lhs->kind == Node::Subscript) {
      if (const Var* p = param_of(lhs->kids[0])) {
        store_targets_.insert(lhs);
        if (compound) compound_targets_.insert(lhs);
        MemAccess m;
        m.ptr = p->name;
        m.index = index_text(lhs->kids[1]);
        m.value_dtype = elem_dtype(p->type);
        const Node* v = rhs;
        if (const Node* c = ignore_parens(v); c->kind == Node::ExplicitCast) v = c->kids[0];
        m.var = var_name(v);
        m.loc = at(lhs->line, lhs->col);
        m.nest = nests_.current();
        out_.stores.push_back(m);
        add_store_site(m.var);
        return;
      }
    }
    const Node* base = lhs;
    if (base->kind == Node::Subscript) base = ignore_parens(base->kids[0]);
    if (base->kind == Node::OpCall && base->op == "[]") base = ignore_parens(base->kids[0]);
    std::string var = var_name(base);
    if (var.empty()) return;
    owner_[rhs] = var;
    if (accumulators_.is_accumulator(var)) {
      std::vector<std::string> operands;
      collect_operands(rhs, operands);
      accumulators_.update(var, operands, combine_of(rhs, compound, compound_op), loops_);
    }
    KernelStmt st;
    st.var = var;
    classify_into(rhs, st);
    if (compound) {
      st.op = compound_op.empty() ? "other" : compound_op;
      bool has = false;
      for (const auto& o : st.operands) has |= o == var;
      if (!has) st.operands = with_first(var, st.operands);
    }
    st.loc = at(line, col);
    out_.stmts.push_back(st);
  }

  // What an accumulator update combines with (as the Clang reader's combine_of).
  std::string combine_of(const Node* rhs, bool compound, const std::string& compound_op) const {
    if (compound) return compound_op.empty() ? "unknown" : compound_op;
    std::string op;
    std::vector<std::string> unused;
    classify(rhs, op, unused);
    return cpp_kernel_facts::combine_of_update(op);
  }

  const Parser& parser_;
  cpp_kernel_facts::KernelFacts& out_;
  std::vector<LoopInfo> loops_;
  cpp_kernel_facts::LoopNests nests_;
  std::map<const Node*, std::string> owner_;
  std::set<const Node*> store_targets_, compound_targets_, literals_seen_;
  cpp_kernel_facts::Accumulators accumulators_;
};

}  // namespace

bool cpp_kernel_hand_reserves(std::string_view name) { return Parser::reserves(name); }

bool read_cpp_kernel_hand(Kernel& k, const FilePath& file_in, std::string* why) {
  if (k.source.empty()) {
    if (why) *why = "no source";
    return false;
  }
  cpp_kernel_facts::KernelFacts f;
  try {
    // What Clang is given: the #include lines blanked (blank_cpp_includes keeps every line).
    const std::string code = blank_cpp_includes(k.source);
    Parser parser(code, lex(code));
    Function fn = parser.parse_function();
    Parser::check_tree_depth(fn);
    Walker walker(parser, f);
    walker.run(fn);
  } catch (const Declined& d) {
    if (why) *why = d.why;
    return false;
  }
  cpp_kernel_facts::apply(k, std::move(f), file_in);
  return true;
}

}  // namespace ilint
