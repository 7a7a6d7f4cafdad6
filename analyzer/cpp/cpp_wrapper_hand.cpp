// The hand reader of cpp_wrapper=True wrappers (see the header for the grammar it accepts).
//
// Three steps, and only the last touches the model:
//   1. lex: tokens of the code with #include lines blanked (what Clang reads), comments dropped;
//      the wrapper's own #define and #pragma lines become tokens of their own;
//   2. parse: the namespace-scope declarations and the entry's statements into a HandWrapper,
//      checking what Clang would check (names, types, macro uses, brackets); any doubt declines;
//   3. apply: the HandWrapper into the Compile, as WrapperVisitor (analyzer/cpp/clang/
//      wrapper_reader.cpp) does from Clang's AST, step for step, so the model is the same.
// Nothing recurses; every loop is linear in the tokens.
#include "analyzer/cpp/cpp_wrapper_hand.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/model/dtype.h"
#include "analyzer/cpp/cpp_limits.h"
#include "analyzer/cpp/cpp_text.h"
#include "analyzer/cpp/cpp_wrapper_vocab.h"
#include "analyzer/parse/build_compiles.h"
#include "analyzer/util/text.h"
#include "analyzer/util/word_set.h"

namespace ilint {

namespace {

// The declarations Clang reads before the wrapper (analyzer/cpp/prelude/): the hand reader
// needs the macros they define and the names they declare.
const char kKernelPreludeText[] =
#include "analyzer/cpp/prelude/cpp_prefix_prelude.inc"
    ;
const char kWrapperPreludeText[] =
#include "analyzer/cpp/prelude/cpp_wrapper_prelude.inc"
    ;

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// ------------------------------------------------------------------ what the prelude defines

struct PreludeNames {
  std::unordered_set<std::string> identifiers;           // every name the preludes spell (comments aside)
  std::unordered_map<std::string, int> function_macros;  // in force after the preludes: name -> parameters
  std::unordered_set<std::string> variadic_macros;       // those of them whose parameters end in `...`
  std::unordered_set<std::string> object_macros;
};

// A scan of the prelude texts (not a C++ parse): identifiers outside comments and literals, and
// the #define / #undef lines.
void scan_prelude(std::string_view t, PreludeNames& out) {
  size_t i = 0, n = t.size();
  bool line_start = true;
  auto word = [&](size_t& j) {
    while (j < n && (t[j] == ' ' || t[j] == '\t')) ++j;
    size_t b = j;
    while (j < n && ident_char(t[j])) ++j;
    return std::string(t.substr(b, j - b));
  };
  while (i < n) {
    char ch = t[i];
    if (ch == '\n') {
      line_start = true;
      ++i;
    } else if (ch == ' ' || ch == '\t') {
      ++i;
    } else if (t.compare(i, 2, "//") == 0) {
      while (i < n && t[i] != '\n') ++i;
    } else if (t.compare(i, 2, "/*") == 0) {
      size_t e = t.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else if (ch == '"' || ch == '\'') {
      for (++i; i < n && t[i] != ch && t[i] != '\n'; ++i)
        if (t[i] == '\\') ++i;
      ++i;
      line_start = false;
    } else if (ch == '#' && line_start) {
      size_t j = i + 1;
      std::string d = word(j);
      if (d == "define" || d == "undef") {
        std::string name = word(j);
        out.function_macros.erase(name);
        out.variadic_macros.erase(name);
        out.object_macros.erase(name);
        if (d == "define" && j < n && t[j] == '(') {
          // The named parameters; `...` (TORCH_CHECK(cond, ...)) takes any further arguments.
          int params = 0;
          size_t k = j + 1;
          for (; k < n && t[k] != ')'; ++k)
            if (ident_start(t[k]) && (params == 0 || t[k - 1] == ',' || t[k - 1] == ' ')) ++params;
          out.function_macros[name] = params;
          if (t.substr(j + 1, k - j - 1).find("...") != std::string_view::npos) out.variadic_macros.insert(name);
        } else if (d == "define") {
          out.object_macros.insert(name);
        }
      }
      i = j;
      line_start = false;
    } else if (ident_start(ch)) {
      size_t b = i;
      while (i < n && ident_char(t[i])) ++i;
      out.identifiers.emplace(t.substr(b, i - b));
      line_start = false;
    } else {
      ++i;
      line_start = false;
    }
  }
}

const PreludeNames& prelude_names() {
  static const PreludeNames names = [] {
    PreludeNames p;
    scan_prelude(kKernelPreludeText, p);
    scan_prelude(kWrapperPreludeText, p);
    return p;
  }();
  return names;
}

// A keyword, or a word the wrapper may not use as a name for reasons of its own (`typeof`, a GNU
// keyword to Clang; `defined`, special in #if; `main`).
bool is_keyword(std::string_view w) { return is_cpp_keyword(w) || w == "typeof" || w == "defined" || w == "main"; }

bool is_macro(const std::string& w, const std::unordered_map<std::string, int>& user_function_macros,
              const std::unordered_set<std::string>& user_object_macros) {
  const PreludeNames& p = prelude_names();
  return p.function_macros.count(w) || p.object_macros.count(w) || user_function_macros.count(w) ||
         user_object_macros.count(w);
}

// Names the implementation reserves (`__x`, `_X`), which Clang may give a meaning of its own
// (`__has_include`, `_Pragma`, `__VA_ARGS__`): only these few are known to be plain.
bool reserved_identifier(std::string_view w) {
  if (w.size() >= 2 && w[0] == '_' && (w[1] == '_' || (w[1] >= 'A' && w[1] <= 'Z')))
    return !(w == "__at_align__" || w == "__restrict__" || w == "__restrict" || starts_with(w, "__builtin_"));
  return false;
}

// ------------------------------------------------------------------ lexing

enum class TokKind : uint8_t { Ident, Number, String, Char, Punct, Pragma, Define };

struct Token {
  TokKind kind = TokKind::Punct;
  uint32_t begin = 0, end = 0;  // bytes of the code
  int line = 0, column = 0;     // 1-based, as Clang counts them (bytes)
};

struct UserMacro {
  std::string name;
  int params = -1;  // -1: object-like
  std::vector<Token> body;
};

// Tokens of the code, comments dropped, in one pass. Declines (false) what it does not know: a
// backslash outside a literal (a spliced line) but at the end of a #define line, an unterminated
// comment or literal, a literal with a prefix (u8"", R"()"), a digit separator, a digraph, a
// character that is no C++ punctuator, a '#' that does not start its line, a directive other than
// #pragma (of a known kind) and #define.
class Lexer {
 public:
  explicit Lexer(std::string_view code) : s_(code) {}

  bool run(std::vector<Token>& out, std::vector<UserMacro>& macros) {
    for (;;) {
      if (!skip_space(false)) return false;
      if (p_ >= s_.size()) return true;
      if (s_[p_] == '#') {
        if (!first_on_line_ || !directive(out, macros)) return false;
        continue;
      }
      Token t;
      if (!lex_token(t)) return false;
      first_on_line_ = false;
      out.push_back(t);
    }
  }

 private:
  void newline_at(size_t next_line_start) {
    ++line_;
    line_start_ = next_line_start;
  }

  // Skips blanks and comments; in a directive, stops at the newline that ends it.
  bool skip_space(bool in_directive) {
    const size_t n = s_.size();
    while (p_ < n) {
      char ch = s_[p_];
      if (ch == ' ' || ch == '\t') {
        ++p_;
      } else if (ch == '\n') {
        if (in_directive) return true;
        ++p_;
        newline_at(p_);
        first_on_line_ = true;
      } else if (ch == '\\') {
        if (!in_directive || p_ + 1 >= n || s_[p_ + 1] != '\n') return false;
        p_ += 2;  // a #define continued on the next line
        newline_at(p_);
      } else if (ch == '/' && p_ + 1 < n && s_[p_ + 1] == '/') {
        size_t e = s_.find('\n', p_);
        if (e == std::string_view::npos) e = n;
        if (s_[e - 1] == '\\') return false;  // would splice the next line into the comment
        p_ = e;
      } else if (ch == '/' && p_ + 1 < n && s_[p_ + 1] == '*') {
        size_t e = s_.find("*/", p_ + 2);
        if (e == std::string_view::npos) return false;
        for (size_t k = p_; k < e; ++k)
          if (s_[k] == '\n') {
            if (in_directive) return false;
            newline_at(k + 1);
          }
        p_ = e + 2;
      } else {
        return true;
      }
    }
    return true;
  }

  bool lex_token(Token& t) {
    const size_t n = s_.size();
    const size_t b = p_;
    const char ch = s_[p_];
    t.begin = static_cast<uint32_t>(b);
    t.line = line_;
    t.column = static_cast<int>(b - line_start_) + 1;
    if (ident_start(ch)) {
      while (p_ < n && ident_char(s_[p_])) ++p_;
      if (p_ < n && (s_[p_] == '"' || s_[p_] == '\'')) return false;  // u8"x", L'x', R"(x)"
      t.kind = TokKind::Ident;
    } else if (digit(ch) || (ch == '.' && p_ + 1 < n && digit(s_[p_ + 1]))) {
      for (++p_; p_ < n; ++p_) {
        char d = s_[p_];
        if (ident_char(d) || d == '.') continue;
        char prev = s_[p_ - 1];
        if ((d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')) continue;
        if (d == '\'') return false;  // 1'000
        break;
      }
      t.kind = TokKind::Number;
    } else if (ch == '"' || ch == '\'') {
      for (++p_;; ++p_) {
        if (p_ >= n || s_[p_] == '\n') return false;
        if (s_[p_] == '\\') {
          if (p_ + 1 >= n || s_[p_ + 1] == '\n') return false;
          ++p_;
        } else if (s_[p_] == ch) {
          break;
        }
      }
      if (ch == '\'' && p_ == b + 1) return false;  // ''
      ++p_;
      // "x"y is a literal with a suffix: Clang's lexer rejects one that is no user-defined
      // literal, even in a function body it skips.
      if (p_ < n && ident_char(s_[p_])) return false;
      t.kind = ch == '"' ? TokKind::String : TokKind::Char;
    } else {
      static constexpr std::string_view kPunct = "{}[]()<>;:,.?!~+-*/%^&|=";
      if (kPunct.find(ch) == std::string_view::npos) return false;
      // `<<<<`, `>>>>`, `====`, `||||` starting a line may be a version-control conflict marker,
      // which Clang's lexer reports wherever it is.
      if (b == line_start_ && (ch == '<' || ch == '>' || ch == '=' || ch == '|') && s_.substr(b, 4) == std::string(4, ch))
        return false;
      char next = p_ + 1 < n ? s_[p_ + 1] : '\0';
      if ((ch == '<' && (next == ':' || next == '%')) || (ch == '%' && (next == '>' || next == ':')) ||
          (ch == ':' && next == '>'))
        return false;  // digraphs: <: is [, %: is #
      if ((ch == ':' && next == ':') || (ch == '-' && next == '>') || (ch == '&' && next == '&') ||
          (ch == '|' && next == '|'))
        p_ += 2;
      else if (ch == '.' && next == '.' && p_ + 2 < n && s_[p_ + 2] == '.')
        p_ += 3;
      else
        ++p_;
      t.kind = TokKind::Punct;
    }
    t.end = static_cast<uint32_t>(p_);
    return true;
  }

  // The tokens of the rest of a directive's line (its continuations included).
  bool rest_of_directive(std::vector<Token>& out) {
    for (;;) {
      if (!skip_space(true)) return false;
      if (p_ >= s_.size() || s_[p_] == '\n') return true;
      if (s_[p_] == '#') return false;  // stringizing and pasting are not read
      Token t;
      if (!lex_token(t)) return false;
      out.push_back(t);
    }
  }

  std::string_view text(const Token& t) const { return s_.substr(t.begin, t.end - t.begin); }

  bool directive(std::vector<Token>& out, std::vector<UserMacro>& macros) {
    Token mark;
    mark.begin = static_cast<uint32_t>(p_);
    mark.line = line_;
    mark.column = static_cast<int>(p_ - line_start_) + 1;
    ++p_;
    std::vector<Token> words;
    if (!skip_space(true) || p_ >= s_.size() || !ident_start(s_[p_])) return false;
    Token name;
    if (!lex_token(name)) return false;
    mark.end = name.end;
    if (text(name) == "pragma") {
      // Only pragmas Clang ignores or keeps to itself inside a function body it skips:
      // `#pragma GCC ivdep`, `#pragma GCC unroll 16`, and OpenMP's (ignored without -fopenmp).
      if (!rest_of_directive(words) || words.empty()) return false;
      auto is = [&](size_t i, std::string_view w) { return i < words.size() && text(words[i]) == w; };
      bool ok = false;
      if (is(0, "omp")) {
        ok = true;
      } else if (is(0, "GCC") && is(1, "ivdep") && words.size() == 2) {
        ok = true;
      } else if (is(0, "GCC") && is(1, "unroll") && words.size() == 3 && words[2].kind == TokKind::Number) {
        std::string_view v = text(words[2]);
        ok = v[0] != '0';
        for (char c : v) ok = ok && digit(c) && v.size() < 6;
      }
      // The Clang reader finds a kernel's closing brace by counting braces in the raw text,
      // where a pragma's braces count: none may hide there.
      for (const Token& w : words)
        if (text(w) == "{" || text(w) == "}") ok = false;
      if (!ok) return false;
      mark.kind = TokKind::Pragma;
      out.push_back(mark);
      return true;
    }
    if (text(name) != "define") return false;
    if (!skip_space(true) || p_ >= s_.size() || !ident_start(s_[p_])) return false;
    Token macro_name;
    if (!lex_token(macro_name)) return false;
    UserMacro m;
    m.name = std::string(text(macro_name));
    if (p_ < s_.size() && s_[p_] == '(') {  // function-like: '(' right after the name
      ++p_;
      m.params = 0;
      std::set<std::string_view> seen;
      for (bool first = true;; first = false) {
        Token t;
        if (!skip_space(true) || p_ >= s_.size() || s_[p_] == '\n' || !lex_token(t)) return false;
        if (first && t.kind == TokKind::Punct && text(t) == ")") break;
        if (t.kind != TokKind::Ident || !seen.insert(text(t)).second || reserved_identifier(text(t))) return false;
        ++m.params;
        Token sep;
        if (!skip_space(true) || p_ >= s_.size() || s_[p_] == '\n' || !lex_token(sep)) return false;
        if (text(sep) == ")") break;
        if (text(sep) != ",") return false;
      }
    }
    if (!rest_of_directive(m.body)) return false;
    mark.kind = TokKind::Define;
    out.push_back(mark);
    macros.push_back(std::move(m));
    return true;
  }

  std::string_view s_;
  size_t p_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
  bool first_on_line_ = true;
};

// ------------------------------------------------------------------ what the parse yields

// One argument of a shim call, as much of it as WrapperVisitor looks at.
struct ShimArg {
  enum class Kind : uint8_t { Literal, Var, AddressOf, Subscript, Cast, DataPtr };
  Kind kind = Kind::Literal;
  std::string name;             // Var, AddressOf, DataPtr: the variable; Subscript: the indexed one
  int64_t index = 0;            // Subscript
  bool on_handle_vector = false;  // Subscript of the std::vector of stolen handles (operator[])
  bool handle_typed = false;    // AddressOf: the variable's type names AtenTensorHandle
  std::string text;             // as written, whitespace collapsed (node_text)
};

struct EntryStmt {
  enum class Kind : uint8_t { StealInputs, MoveSubscript, MoveVar, IntArray, Reinterpret, Shim, KernelCall, LauncherCall, Output };
  Kind kind = Kind::Shim;
  int line = 0, column = 0;  // of the declaration or call, as Clang locates it
  std::string name;          // the variable declared; the function called
  std::string source;        // the variable moved, viewed, indexed or released
  int64_t index = 0;         // inputs[index], output_handles[index]
  std::vector<std::string> elements;    // IntArray
  std::string sizes, strides;           // Reinterpret: the two arrays
  std::vector<ShimArg> shim_args;       // Shim
  std::vector<std::string> arg_texts;   // KernelCall, LauncherCall: arg_text of each argument
  std::vector<std::string> param_names; // KernelCall, LauncherCall: of the declaration the call sees
};

struct KernelDef {
  std::string name;
  int begin_line = 0, end_line = 0;  // the `extern "C"` line, the body's closing brace
  std::vector<KernelParam> params;
};

struct HandWrapper {
  std::vector<std::string> namespace_vars;  // in order (CACHE_TORCH_DEVICE(x) names the device)
  std::vector<KernelDef> kernel_defs;       // in order
  std::vector<EntryStmt> entry;
};

// ------------------------------------------------------------------ types

// A type named in a signature, canonicalized the way C++ compares types: int64_t and long are
// one type, so are at::BFloat16 and c10::BFloat16.
struct SigType {
  std::string base;  // canonical name, or the template parameter's name
  bool template_param = false;
  bool is_const = false;  // `const T...`: of the pointee for a pointer
  int pointers = 0;
  bool reference = false;
  bool array = false;  // a parameter `T name[]`
  bool arithmetic() const {
    static const WordSet a = {"bool", "char", "int", "long", "float", "double", "signed char", "short",
                              "unsigned char", "unsigned short", "unsigned int", "unsigned long",
                              "unsigned long long"};
    return !template_param && pointers == 0 && !reference && !array && a.contains(base);
  }
};

// Single-word type names the hand reader knows, as C++ canonicalizes them (the prelude's typedefs).
const WordMap<std::string_view>& word_types() {
  static const WordMap<std::string_view> t = {
      {"void", "void"}, {"bool", "bool"}, {"char", "char"}, {"int", "int"}, {"long", "long"},
      {"float", "float"}, {"double", "double"}, {"int8_t", "signed char"}, {"int16_t", "short"},
      {"int32_t", "int"}, {"int64_t", "long"}, {"uint8_t", "unsigned char"}, {"uint16_t", "unsigned short"},
      {"uint32_t", "unsigned int"}, {"uint64_t", "unsigned long"}, {"size_t", "unsigned long"},
      {"CUfunction", "CUfunction"}, {"CUmodule", "CUmodule"}, {"CUdeviceptr", "unsigned long long"},
      {"CUresult", "CUresult"}, {"cudaStream_t", "CUstream"}, {"CUstream", "CUstream"},
      {"AtenTensorHandle", "AtenTensorHandle"}, {"AOTITorchError", "int"}};
  return t;
}

// Element types of a kernel's pointer parameters and their dtypes, as kernel_param_of gives them
// (parse_dtype of the type Clang prints, else the element type of the canonical type).
struct KernelElem {
  std::string_view canonical;
  DType dtype;
  bool arithmetic;  // may also be a by-value parameter
};
const KernelElem* kernel_elem(std::string_view spelled) {
  static const WordMap<KernelElem> t = {
      {"float", {"float", DType::F32, true}}, {"double", {"double", DType::F64, true}},
      {"bool", {"bool", DType::Bool, true}}, {"int8_t", {"signed char", DType::I8, true}},
      {"int16_t", {"short", DType::I16, true}}, {"int32_t", {"int", DType::I32, true}},
      {"int64_t", {"long", DType::I64, true}}, {"uint8_t", {"unsigned char", DType::U8, true}},
      {"at::BFloat16", {"c10::BFloat16", DType::BF16, false}}, {"c10::BFloat16", {"c10::BFloat16", DType::BF16, false}},
      {"at::Half", {"c10::Half", DType::F16, false}}, {"c10::Half", {"c10::Half", DType::F16, false}},
      {"at::Float8_e4m3fn", {"c10::Float8_e4m3fn", DType::F8E4M3, false}},
      {"c10::Float8_e4m3fn", {"c10::Float8_e4m3fn", DType::F8E4M3, false}},
      {"at::Float8_e5m2", {"c10::Float8_e5m2", DType::F8E5M2, false}},
      {"c10::Float8_e5m2", {"c10::Float8_e5m2", DType::F8E5M2, false}}};
  return t.find(spelled);
}

// A kernel parameter's type as far as C++ tells two declarations of one extern "C" function
// apart (the const of a by-value parameter does not count).
struct KernelParamType {
  std::string_view elem;
  bool pointer = false, pointee_const = false;
  bool operator==(const KernelParamType&) const = default;
};

struct KernelSig {
  std::vector<KernelParamType> types;
  std::vector<std::string> visible_param_names;  // of the last declaration before the entry
  bool declared_before_entry = false;
  bool defined = false;
};

struct LauncherParam {
  std::string name;
  SigType type;
  bool has_default = false;
};

struct LauncherSig {
  std::vector<LauncherParam> params;
  size_t required = 0;
};

// ------------------------------------------------------------------ parsing

// The text of a token range as node_text gives it (clang_common.cpp): the bytes from the first
// token's start to the last one's end, blanks collapsed.
std::string collapsed(std::string_view code, const Token& first, const Token& last) {
  return collapse_blanks(code.substr(first.begin, last.end - first.begin));
}

// `8`, `8L`, `15LL`: decimal, fits int64_t. Nothing else (hex, octal, unsigned) is needed.
bool int_literal_value(std::string_view t, int64_t* value) {
  size_t d = 0;
  while (d < t.size() && digit(t[d])) ++d;
  if (d == 0 || (t[0] == '0' && d > 1)) return false;
  std::string_view suffix = t.substr(d);
  if (!(suffix.empty() || suffix == "L" || suffix == "l" || suffix == "LL" || suffix == "ll")) return false;
  int64_t v = 0;
  for (size_t i = 0; i < d; ++i) {
    if (v > (std::numeric_limits<int64_t>::max() - (t[i] - '0')) / 10) return false;
    v = v * 10 + (t[i] - '0');
  }
  if (value) *value = v;
  return true;
}

// `1.0`, `0.5f`, `1e-05`, `2.`: decimal floating literals.
bool float_literal(std::string_view t) {
  size_t i = 0;
  while (i < t.size() && digit(t[i])) ++i;
  if (i == 0) return false;
  bool dot = i < t.size() && t[i] == '.';
  if (dot)
    for (++i; i < t.size() && digit(t[i]);) ++i;
  bool exponent = i < t.size() && (t[i] == 'e' || t[i] == 'E');
  if (exponent) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    size_t e = i;
    while (i < t.size() && digit(t[i])) ++i;
    if (i == e) return false;
  }
  if (!dot && !exponent) return false;
  if (i < t.size() && (t[i] == 'f' || t[i] == 'F')) ++i;
  return i == t.size();
}

class WrapperParser {
 public:
  WrapperParser(std::string_view code, const std::vector<Token>& toks, const std::vector<UserMacro>& macros)
      : code_(code), toks_(toks), macros_(macros) {}

  bool parse(HandWrapper& out) {
    out_ = &out;
    if (!check_macros()) return false;
    while (i_ < toks_.size()) {
      const Token& t = toks_[i_];
      if (t.kind == TokKind::Define) {
        ++i_;
        continue;
      }
      bool ok = is_ident(i_, "extern")              ? extern_c()
                : starts_with(text(i_), "CACHE_TORCH_") ? cache_torch()
                                                        : function_or_variable();
      if (!ok) return false;
    }
    return saw_entry_ && names_outside_bodies_are_plain();
  }

 private:
  // ---- tokens
  std::string_view text(size_t i) const {
    return i < toks_.size() ? code_.substr(toks_[i].begin, toks_[i].end - toks_[i].begin) : std::string_view();
  }
  bool is_punct(size_t i, std::string_view p) const {
    return i < toks_.size() && toks_[i].kind == TokKind::Punct && text(i) == p;
  }
  bool is_ident(size_t i, std::string_view w) const {
    return i < toks_.size() && toks_[i].kind == TokKind::Ident && text(i) == w;
  }
  bool ident_at(size_t i) const { return i < toks_.size() && toks_[i].kind == TokKind::Ident; }
  bool take_punct(std::string_view p) {
    if (!is_punct(i_, p)) return false;
    ++i_;
    return true;
  }
  bool take_ident(std::string_view w) {
    if (!is_ident(i_, w)) return false;
    ++i_;
    return true;
  }
  bool take_name(std::string& out) {
    if (!ident_at(i_)) return false;
    out = std::string(text(i_++));
    return true;
  }
  bool take_int(int64_t* value) {
    if (i_ >= toks_.size() || toks_[i_].kind != TokKind::Number || !int_literal_value(text(i_), value)) return false;
    ++i_;
    return true;
  }

  // ---- macros

  // The wrapper's own macros may be used only where Clang skips the code (function bodies) and
  // must expand to balanced brackets there; every use of a function-like macro anywhere must
  // have as many arguments as it takes, or Clang's preprocessor reports an error even in a body
  // it skips.
  bool check_macros() {
    const PreludeNames& p = prelude_names();
    for (const UserMacro& m : macros_) {
      if (is_keyword(m.name) || reserved_identifier(m.name) || p.identifiers.count(m.name) ||
          p.function_macros.count(m.name) || p.object_macros.count(m.name) || starts_with(m.name, "aoti_torch_") ||
          starts_with(m.name, "cached_torch_") || user_function_macros_.count(m.name) ||
          user_object_macros_.count(m.name))
        return false;
      if (m.params >= 0) user_function_macros_[m.name] = m.params;
      else user_object_macros_.insert(m.name);
    }
    for (const UserMacro& m : macros_) {
      if (!balanced(m.body, 0, m.body.size())) return false;
      if (!macro_uses_fit(m.body) || !no_top_level_comma(m.body)) return false;
      for (const Token& t : m.body) {  // a `?` the expansion could put before a closing bracket
        std::string_view p = code_.substr(t.begin, t.end - t.begin);
        if (t.kind == TokKind::Punct && p == "?") return false;
        // `#` and `##` in a body stringize and paste, which can make invalid tokens: not followed.
        if (t.kind == TokKind::Punct && (p == "#" || p == "##" || p == "%:")) return false;
      }
    }
    return macro_uses_fit(toks_);
  }

  int function_macro_params(const std::string& name) const {
    auto u = user_function_macros_.find(name);
    if (u != user_function_macros_.end()) return u->second;
    auto p = prelude_names().function_macros.find(name);
    return p == prelude_names().function_macros.end() ? -1 : p->second;
  }

  // One pass, invocations nested in others' arguments followed on a stack.
  bool macro_uses_fit(const std::vector<Token>& toks) const {
    struct Open {
      int params;        // named parameters
      bool variadic;     // and `...` after them
      int depth;         // parenthesis depth before its '('
      int commas = 0;    // at its own depth
      size_t open = 0;   // index of its '('
    };
    std::vector<Open> open;
    int depth = 0;
    auto punct = [&](size_t k, char c) {
      return k < toks.size() && toks[k].kind == TokKind::Punct && toks[k].end == toks[k].begin + 1 &&
             code_[toks[k].begin] == c;
    };
    for (size_t i = 0; i < toks.size(); ++i) {
      const Token& t = toks[i];
      if (t.kind == TokKind::Pragma || t.kind == TokKind::Define) {
        if (!open.empty()) return false;  // a directive inside a macro's arguments
      } else if (t.kind == TokKind::Ident) {
        std::string_view w = code_.substr(t.begin, t.end - t.begin);
        if (reserved_identifier(w) || w == "_Pragma") return false;
        int params = function_macro_params(std::string(w));
        if (params < 0) continue;
        // Not followed by its '(' here, it could take one from what follows an expansion
        // (`#define A(x) x` then `A(C10_LIKELY)(1, 2)`), with any number of arguments.
        if (!punct(i + 1, '(')) return false;
        // CACHE_TORCH_*(x) pastes `cached_torch_..._##x`: the argument's first token must
        // join a name into one name (`0.001` makes an invalid token, an error even in a body
        // Clang skips; fuzz_cpp_wrapper_hand).
        if (w.rfind("CACHE_TORCH_", 0) == 0 && !punct(i + 2, ')')) {
          const Token& a = toks[std::min(i + 2, toks.size() - 1)];
          bool joins = i + 2 < toks.size() && (a.kind == TokKind::Ident || a.kind == TokKind::Number);
          for (uint32_t b = a.begin; joins && b < a.end; ++b) {
            char c = code_[b];
            joins = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
          }
          if (!joins) return false;
        }
        open.push_back(Open{params, prelude_names().variadic_macros.count(std::string(w)) > 0, depth, 0, i + 1});
      } else if (punct(i, '(')) {
        ++depth;
      } else if (punct(i, ')')) {
        if (--depth < 0) return false;
        if (!open.empty() && open.back().depth == depth) {
          int args = i == open.back().open + 1 ? 0 : open.back().commas + 1;
          const Open& o = open.back();
          if (!(args == o.params || (args == 0 && o.params == 1) || (o.variadic && args > o.params))) return false;
          open.pop_back();
        }
      } else if (punct(i, ',') && !open.empty() && open.back().depth == depth - 1) {
        ++open.back().commas;
      }
    }
    return open.empty();
  }

  // A macro whose expansion has a comma outside parentheses could hand another macro, used
  // with it as an argument, more arguments than were written (`#define COMMA ,`).
  bool no_top_level_comma(const std::vector<Token>& toks) const {
    int depth = 0;
    for (const Token& t : toks) {
      if (t.kind != TokKind::Punct || t.end != t.begin + 1) continue;
      char c = code_[t.begin];
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && depth == 0) return false;
    }
    return true;
  }

  // Brackets of toks[from, to) pair up.
  bool balanced(const std::vector<Token>& toks, size_t from, size_t to) const {
    std::vector<char> open;
    for (size_t i = from; i < to; ++i) {
      if (toks[i].kind != TokKind::Punct || toks[i].end != toks[i].begin + 1) continue;
      char c = code_[toks[i].begin];
      if (c == '(' || c == '[' || c == '{') {
        open.push_back(c);
      } else if (c == ')' || c == ']' || c == '}') {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (open.empty() || open.back() != want) return false;
        open.pop_back();
      }
    }
    return open.empty();
  }

  // Skips a function body Clang skips, from its '{': brackets must pair, directives be the
  // pragmas the lexer let through. Leaves i_ after the closing '}'; records the range.
  bool skip_body(int* close_line) {
    if (!is_punct(i_, "{")) return false;
    std::vector<char> open;
    const size_t from = i_;
    for (; i_ < toks_.size(); ++i_) {
      const Token& t = toks_[i_];
      if (t.kind == TokKind::Define) return false;
      if (t.kind != TokKind::Punct || t.end != t.begin + 1) continue;
      char c = code_[t.begin];
      // Clang's skipping takes `? ... :` for brackets too; a `?` right before a closing bracket
      // would have it skip that bracket as stray, and the code after it with it. (Before a ',' a
      // `?` ends a macro argument, which a macro could put before a bracket.)
      if (c == '?' && (is_punct(i_ + 1, ")") || is_punct(i_ + 1, "]") || is_punct(i_ + 1, "}") ||
                       is_punct(i_ + 1, ",") || is_punct(i_ + 1, ";")))
        return false;
      if (c == '(' || c == '[' || c == '{') {
        open.push_back(c);
      } else if (c == ')' || c == ']' || c == '}') {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (open.empty() || open.back() != want) return false;
        open.pop_back();
        if (open.empty()) {
          *close_line = t.line;
          skipped_.push_back({from, i_});
          ++i_;
          return true;
        }
      }
    }
    return false;
  }

  // Outside the bodies Clang skips, a macro name may only be one the grammar reads there
  // (AOTI_TORCH_ERROR_CODE_CHECK, CACHE_TORCH_*): any other would expand (a parameter named
  // AOTI_TORCH_SUCCESS is `0`), and a #pragma would reach Clang's parser.
  bool names_outside_bodies_are_plain() const {
    size_t next_range = 0;
    for (size_t i = 0; i < toks_.size(); ++i) {
      while (next_range < skipped_.size() && skipped_[next_range].second < i) ++next_range;
      if (next_range < skipped_.size() && skipped_[next_range].first <= i) continue;
      if (toks_[i].kind == TokKind::Pragma) return false;
      if (toks_[i].kind != TokKind::Ident) continue;
      std::string w(text(i));
      if (!is_macro(w, user_function_macros_, user_object_macros_)) continue;
      if (w != "AOTI_TORCH_ERROR_CODE_CHECK" && !starts_with(w, "CACHE_TORCH_")) return false;
    }
    return true;
  }

  // ---- names

  // A name the wrapper declares at namespace scope: not a keyword or macro, nothing the prelude
  // spells (no overload of, or clash with, its declarations), not a shim (every aoti_torch_* name
  // is declared by the Clang reader), declared once (kernels and helpers aside, checked apart).
  enum class GlobalKind : uint8_t { Kernel, Helper, Launcher, Variable };
  bool declare_global(const std::string& name, GlobalKind kind) {
    if (is_keyword(name) || reserved_identifier(name) || is_macro(name, user_function_macros_, user_object_macros_) ||
        prelude_names().identifiers.count(name) || starts_with(name, "aoti_torch_") || name == "inductor_entry_impl" ||
        name == "run_impl")
      return false;
    auto [it, fresh] = globals_.emplace(name, kind);
    return fresh || (it->second == kind && (kind == GlobalKind::Kernel || kind == GlobalKind::Helper));
  }

  // A name: a plain identifier.
  bool plain_name(const std::string& name) const {
    return !is_keyword(name) && !reserved_identifier(name) &&
           !is_macro(name, user_function_macros_, user_object_macros_);
  }
  // A parameter's name is in scope for the parameters after it: none may hide a type name the
  // signatures use (`float* int64_t, const int64_t ks0` no longer names a type).
  bool parameter_name(const std::string& name) const {
    return plain_name(name) && !word_types().contains(name) && name != "std" && name != "at" && name != "c10";
  }

  // ---- namespace scope

  // extern "C" void name(params); | extern "C" void name(params) { ... }
  bool extern_c() {
    const Token& start = toks_[i_++];
    if (i_ >= toks_.size() || toks_[i_].kind != TokKind::String || text(i_) != "\"C\"") return false;
    ++i_;
    std::string name;
    if (!take_ident("void") || !take_name(name) || !take_punct("(")) return false;
    if (!declare_global(name, GlobalKind::Kernel)) return false;
    std::vector<KernelParam> params;
    std::vector<KernelParamType> types;
    std::set<std::string> param_names;
    if (!take_punct(")")) {
      for (;;) {
        KernelParam kp;
        KernelParamType type;
        if (!kernel_param(kp, type) || !param_names.insert(kp.name).second) return false;
        params.push_back(std::move(kp));
        types.push_back(type);
        if (take_punct(")")) break;
        if (!take_punct(",")) return false;
      }
    }
    auto [it, first] = kernels_.try_emplace(name);
    KernelSig& sig = it->second;
    if (!first && sig.types != types) return false;  // conflicting declarations of one C function
    sig.types = types;
    if (!saw_entry_) {
      sig.declared_before_entry = true;
      sig.visible_param_names.clear();
      for (auto& p : params) sig.visible_param_names.push_back(p.name);
    }
    if (take_punct(";")) return true;
    if (sig.defined) return false;  // redefinition
    sig.defined = true;
    int close_line = 0;
    if (!skip_body(&close_line)) return false;
    out_->kernel_defs.push_back(KernelDef{name, start.line, close_line, std::move(params)});
    return true;
  }

  // `[const] T* name` or `[const] scalar name`, as kernel_param_of reads it.
  bool kernel_param(KernelParam& kp, KernelParamType& type) {
    const size_t first = i_;
    bool is_const = take_ident("const");
    std::string spelled;
    if (!ident_at(i_)) return false;
    spelled = std::string(text(i_++));
    if ((spelled == "at" || spelled == "c10") && take_punct("::")) {
      if (!ident_at(i_)) return false;
      spelled += "::" + std::string(text(i_++));
    }
    const KernelElem* elem = kernel_elem(spelled);
    if (!elem) return false;
    bool pointer = take_punct("*");
    if (!pointer && !elem->arithmetic) return false;
    const size_t last_type_token = i_ - 1;
    std::string name;
    if (!take_name(name) || !parameter_name(name)) return false;
    kp.name = name;
    kp.type_text = collapsed(code_, toks_[first], toks_[last_type_token]);
    kp.is_pointer = pointer;
    kp.is_const = is_const;
    kp.is_restrict = false;
    kp.dtype = elem->dtype;
    type = KernelParamType{elem->canonical, pointer, pointer && is_const};
    return true;
  }

  // CACHE_TORCH_DTYPE(float32);  ->  static auto cached_torch_dtype_float32 = aoti_torch_dtype_float32();
  // Written exactly so (no blank inside): the Clang reader declares the getter only for that spelling.
  bool cache_torch() {
    static const std::pair<std::string_view, std::string_view> kinds[] = {
        {"CACHE_TORCH_DTYPE", "cached_torch_dtype_"},
        {"CACHE_TORCH_DEVICE", "cached_torch_device_type_"},
        {"CACHE_TORCH_LAYOUT", "cached_torch_layout_"},
        {"CACHE_TORCH_MEMORY_FORMAT", "cached_torch_memory_format_"}};
    std::string_view prefix;
    for (auto& [macro, var] : kinds)
      if (text(i_) == macro) prefix = var;
    if (prefix.empty() || saw_entry_ || !is_punct(i_ + 1, "(") || !ident_at(i_ + 2) || !is_punct(i_ + 3, ")") ||
        !is_punct(i_ + 4, ";"))
      return false;
    for (size_t k = i_; k < i_ + 3; ++k)
      if (toks_[k].end != toks_[k + 1].begin) return false;
    std::string var = std::string(prefix) + std::string(text(i_ + 2));
    if (globals_.count(var) || !plain_name(var)) return false;
    globals_.emplace(var, GlobalKind::Variable);
    cached_vars_.insert(var);
    out_->namespace_vars.push_back(var);
    i_ += 5;
    return true;
  }

  // A type of a helper's or launcher's signature: [const] name [*...] [&].
  bool sig_type(SigType& t, const std::vector<std::string>& template_params) {
    t.is_const = take_ident("const");
    if (!ident_at(i_)) return false;
    std::string w(text(i_++));
    if (std::find(template_params.begin(), template_params.end(), w) != template_params.end()) {
      t.base = w;
      t.template_param = true;
    } else if ((w == "at" || w == "c10") && take_punct("::")) {
      if (!ident_at(i_)) return false;
      const KernelElem* e = kernel_elem(w + "::" + std::string(text(i_++)));
      if (!e) return false;
      t.base = std::string(e->canonical);
    } else if (w == "std" && take_punct("::")) {
      if (take_ident("string")) {
        t.base = "std::string";
      } else if (take_ident("optional") && take_punct("<") && take_ident("std") && take_punct("::") &&
                 take_ident("string") && take_punct(">")) {
        t.base = "std::optional<std::string>";
      } else {
        return false;
      }
    } else {
      const std::string_view* canonical = word_types().find(w);
      if (!canonical) return false;
      t.base = std::string(*canonical);
    }
    while (take_punct("*")) ++t.pointers;
    t.reference = take_punct("&");
    if (t.base == "void" && t.pointers == 0) return false;
    if (t.template_param && !(t.is_const && t.reference && t.pointers == 0)) return false;
    return true;
  }

  // [template <typename A_, ...>] [static] [inline] R name(params) { ... }   (a helper or launcher)
  // static CUfunction name = nullptr;
  // void inductor_entry_impl(AtenTensorHandle* input_handles, AtenTensorHandle* output_handles) { ... }
  bool function_or_variable() {
    std::vector<std::string> template_params;
    if (take_ident("template")) {
      if (!take_punct("<")) return false;
      for (;;) {
        std::string p;
        if (!(take_ident("typename") || take_ident("class")) || !take_name(p) || !plain_name(p) ||
            std::find(template_params.begin(), template_params.end(), p) != template_params.end() ||
            prelude_names().identifiers.count(p) || word_types().contains(p))
          return false;
        template_params.push_back(p);
        if (take_punct(">")) break;
        if (!take_punct(",")) return false;
      }
    }
    bool is_static = take_ident("static");
    bool is_inline = take_ident("inline");
    if (is_ident(i_, "void") && is_ident(i_ + 1, "inductor_entry_impl")) {
      if (is_static || is_inline || !template_params.empty()) return false;
      return entry();
    }
    SigType ret;
    if (take_ident("void")) {
      ret.base = "void";
      while (take_punct("*")) ++ret.pointers;
    } else if (!sig_type(ret, {})) {
      return false;
    }
    if (ret.reference) return false;
    std::string name;
    if (!take_name(name)) return false;
    if (is_punct(i_, "=")) {  // static CUfunction triton_poi_fused_add_0 = nullptr;
      if (!template_params.empty() || !is_static || is_inline || ret.base != "CUfunction" || ret.pointers != 0)
        return false;
      if (!take_punct("=") || !take_ident("nullptr") || !take_punct(";")) return false;
      if (!declare_global(name, GlobalKind::Variable)) return false;
      out_->namespace_vars.push_back(name);
      return true;
    }
    if (!take_punct("(")) return false;
    const bool launcher = starts_with(name, "call_");
    if (!template_params.empty() && !launcher) return false;
    LauncherSig sig;
    std::set<std::string> param_names;
    std::vector<int> template_param_uses(template_params.size(), 0);
    if (!take_punct(")")) {
      for (;;) {
        LauncherParam p;
        if (!sig_type(p.type, template_params)) return false;
        if (!take_name(p.name) || !parameter_name(p.name) || !param_names.insert(p.name).second ||
            std::find(template_params.begin(), template_params.end(), p.name) != template_params.end())
          return false;
        if (take_punct("[")) {
          if (!take_punct("]") || p.type.reference || p.type.template_param) return false;
          p.type.array = true;
        }
        if (take_punct("=")) {
          // `const std::optional<std::string>& cubin_dir_ = std::nullopt`
          if (p.type.base != "std::optional<std::string>" || p.type.pointers || p.type.array ||
              (p.type.reference && !p.type.is_const) || !take_ident("std") || !take_punct("::") ||
              !take_ident("nullopt"))
            return false;
          p.has_default = true;
        } else if (!sig.params.empty() && sig.params.back().has_default) {
          return false;  // a default argument must be followed by defaults only
        }
        if (p.type.template_param)
          for (size_t k = 0; k < template_params.size(); ++k)
            template_param_uses[k] += template_params[k] == p.type.base;
        if (!p.has_default) ++sig.required;
        sig.params.push_back(std::move(p));
        if (take_punct(")")) break;
        if (!take_punct(",")) return false;
      }
    }
    // Every template parameter is deduced from exactly one argument the call must give (a call
    // that cannot deduce one, or deduces two types for it, does not compile).
    for (size_t k = 0; k < template_params.size(); ++k) {
      if (template_param_uses[k] != 1) return false;
      for (auto& p : sig.params)
        if (p.type.template_param && p.type.base == template_params[k] && p.has_default) return false;
    }
    if (!declare_global(name, launcher ? GlobalKind::Launcher : GlobalKind::Helper)) return false;
    if (launcher) {
      if (launchers_.count(name) || saw_entry_) return false;
      launchers_[name] = sig;
    } else {
      // Overloads of one helper must differ in their number of parameters (a same-count pair
      // could be one function declared twice, or conflict).
      if (!helper_arities_[name].insert(sig.params.size()).second) return false;
    }
    int close_line = 0;
    return skip_body(&close_line);
  }

  // ---- the entry

  enum class LocalKind : uint8_t { Other, Handle, Raii, HandleVector, IntArray, Stream, Scalar };

  bool entry() {
    if (saw_entry_) return false;
    saw_entry_ = true;
    if (!take_ident("void") || !take_ident("inductor_entry_impl") || !take_punct("(") ||
        !take_ident("AtenTensorHandle") || !take_punct("*") || !take_ident("input_handles") || !take_punct(",") ||
        !take_ident("AtenTensorHandle") || !take_punct("*") || !take_ident("output_handles") || !take_punct(")") ||
        !take_punct("{"))
      return false;
    while (!take_punct("}")) {
      if (i_ >= toks_.size() || toks_[i_].kind == TokKind::Pragma || toks_[i_].kind == TokKind::Define) return false;
      if (!statement()) return false;
    }
    return true;
  }

  // A local's name: nothing the statements of the entry name otherwise, nor a macro or keyword.
  bool declare_local(const std::string& name, LocalKind kind) {
    static const WordSet vocabulary = {
        "py", "std", "at", "c10", "torch", "gil_scoped_release_simple", "AOTICudaGuard", "AtenTensorHandle",
        "RAIIAtenTensorHandle", "cudaStream_t", "CUstream", "steal_from_raw_handles_to_raii_handles",
        "wrap_with_raii_handle_if_needed", "reinterpret_tensor_wrapper", "move", "input_handles",
        "output_handles", "inductor_entry_impl", "int64_t", "int32_t", "double", "float", "bool"};
    if (!plain_name(name) || vocabulary.contains(name) || word_types().contains(name) || globals_.count(name) ||
        starts_with(name, "aoti_torch_") || starts_with(name, "cached_torch_") || locals_.count(name))
      return false;
    locals_.emplace(name, kind);
    return true;
  }

  const LocalKind* local(std::string_view name) const {
    auto it = locals_.find(std::string(name));
    return it == locals_.end() ? nullptr : &it->second;
  }
  bool local_is(size_t i, LocalKind kind) const {
    const LocalKind* k = ident_at(i) ? local(text(i)) : nullptr;
    return k && *k == kind;
  }
  bool raii_or_handle(size_t i) const { return local_is(i, LocalKind::Raii) || local_is(i, LocalKind::Handle); }

  EntryStmt& add(EntryStmt::Kind kind, const Token& at) {
    out_->entry.emplace_back();
    EntryStmt& s = out_->entry.back();
    s.kind = kind;
    s.line = at.line;
    s.column = at.column;
    return s;
  }

  bool statement() {
    const Token& first = toks_[i_];
    const std::string_view w = text(i_);
    std::string name;
    if (w == "py") {  // py::gil_scoped_release_simple release;
      ++i_;
      return take_punct("::") && take_ident("gil_scoped_release_simple") && take_name(name) && take_punct(";") &&
             declare_local(name, LocalKind::Other);
    }
    if (w == "AOTICudaGuard") {  // AOTICudaGuard device_guard(0);
      ++i_;
      return take_name(name) && take_punct("(") && take_int(nullptr) && take_punct(")") && take_punct(";") &&
             declare_local(name, LocalKind::Other);
    }
    if (w == "AtenTensorHandle" || w == "cudaStream_t" || w == "int64_t" || w == "int32_t" || w == "double" ||
        w == "float" || w == "bool") {  // AtenTensorHandle buf0_handle;  cudaStream_t stream0;
      ++i_;
      LocalKind kind = w == "AtenTensorHandle" ? LocalKind::Handle : w == "cudaStream_t" ? LocalKind::Stream
                                                                                          : LocalKind::Scalar;
      if (!take_name(name)) return false;
      // `int32_t var_0 = cached_torch_dtype_int64;`: a dtype code for a shim's `int32_t*` argument.
      // The Clang reader records nothing of it (its initializer is not a call).
      if ((w == "int32_t" || w == "int64_t") && take_punct("=")) {
        if (!ident_at(i_) || !cached_vars_.count(std::string(text(i_)))) return false;
        ++i_;
      }
      return take_punct(";") && declare_local(name, kind);
    }
    if (w == "RAIIAtenTensorHandle") {  // RAIIAtenTensorHandle buf0(buf0_handle);
      ++i_;
      if (!take_name(name) || !take_punct("(") || !local_is(i_, LocalKind::Handle)) return false;
      ++i_;
      return take_punct(")") && take_punct(";") && declare_local(name, LocalKind::Raii);
    }
    if (w == "static") return int_array();
    if (w == "auto") return auto_declaration();
    if (w == "AOTI_TORCH_ERROR_CODE_CHECK") {  // AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_...(...));
      ++i_;
      return take_punct("(") && shim_call(first) && take_punct(")") && take_punct(";");
    }
    if (starts_with(w, "aoti_torch_")) return shim_call(first) && take_punct(";");
    if (w == "output_handles") {  // output_handles[0] = buf3.release();
      ++i_;
      EntryStmt s;
      if (!take_punct("[") || !take_int(&s.index) || !take_punct("]") || !take_punct("=") ||
          !local_is(i_, LocalKind::Raii))
        return false;
      s.source = std::string(text(i_++));
      if (!take_punct(".") || !take_ident("release") || !take_punct("(") || !take_punct(")") || !take_punct(";"))
        return false;
      EntryStmt& out = add(EntryStmt::Kind::Output, first);
      out.index = s.index;
      out.source = s.source;
      return true;
    }
    if (local_is(i_, LocalKind::Raii) && is_punct(i_ + 1, ".")) {  // buf0.reset();
      i_ += 2;
      return take_ident("reset") && take_punct("(") && take_punct(")") && take_punct(";");
    }
    auto kernel = kernels_.find(std::string(w));
    if (kernel != kernels_.end() && kernel->second.declared_before_entry) return kernel_call(kernel->second);
    auto launcher = launchers_.find(std::string(w));
    if (launcher != launchers_.end()) return launcher_call(launcher->second);
    return false;
  }

  // static constexpr int64_t int_array_0[] = {8L, 1L, 5L, 15L};
  // static constexpr int64_t *int_array_5=nullptr;   (the sizes of a 0-d tensor: no elements)
  bool int_array() {
    const Token& at = toks_[i_++];
    std::string name;
    if (is_ident(i_, "constexpr") && is_ident(i_ + 1, "int64_t") && is_punct(i_ + 2, "*")) {
      // To the Clang reader a pointer, not an array: it records no elements, as none are here.
      i_ += 3;
      return take_name(name) && take_punct("=") && take_ident("nullptr") && take_punct(";") &&
             declare_local(name, LocalKind::IntArray);
    }
    if (!take_ident("constexpr") || !take_ident("int64_t") || !take_name(name) || !take_punct("[") ||
        !take_punct("]") || !take_punct("=") || !take_punct("{"))
      return false;
    std::vector<std::string> elements;
    while (!take_punct("}")) {
      size_t from = i_;
      take_punct("-");
      if (!take_int(nullptr)) return false;
      elements.push_back(collapsed(code_, toks_[from], toks_[i_ - 1]));
      if (!take_punct(",") && !is_punct(i_, "}")) return false;
    }
    if (elements.empty() || !take_punct(";") || !declare_local(name, LocalKind::IntArray)) return false;
    EntryStmt& s = add(EntryStmt::Kind::IntArray, at);
    s.name = name;
    s.elements = std::move(elements);
    return true;
  }

  // auto x = steal_from_raw_handles_to_raii_handles(input_handles, 2);
  // auto primals_1 = std::move(inputs[0]);   auto buf3 = std::move(buf2);
  // auto var_0 = wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf2, 1, int_array_6, int_array_7, 0L));
  bool auto_declaration() {
    const Token& at = toks_[i_++];
    std::string name;
    if (!take_name(name) || !take_punct("=")) return false;
    if (take_ident("steal_from_raw_handles_to_raii_handles")) {
      if (!take_punct("(") || !take_ident("input_handles") || !take_punct(",") || !take_int(nullptr) ||
          !take_punct(")") || !take_punct(";") || !declare_local(name, LocalKind::HandleVector))
        return false;
      add(EntryStmt::Kind::StealInputs, at).name = name;
      return true;
    }
    if (take_ident("std")) {
      if (!take_punct("::") || !take_ident("move") || !take_punct("(")) return false;
      if (local_is(i_, LocalKind::HandleVector) && is_punct(i_ + 1, "[")) {
        std::string base(text(i_));
        int64_t index = 0;
        i_ += 2;
        if (!take_int(&index) || !take_punct("]") || !take_punct(")") || !take_punct(";") ||
            !declare_local(name, LocalKind::Raii))
          return false;
        EntryStmt& s = add(EntryStmt::Kind::MoveSubscript, at);
        s.name = name;
        s.source = base;
        s.index = index;
        return true;
      }
      if (!raii_or_handle(i_)) return false;
      LocalKind kind = *local(text(i_));
      std::string source(text(i_++));
      if (!take_punct(")") || !take_punct(";") || !declare_local(name, kind)) return false;
      EntryStmt& s = add(EntryStmt::Kind::MoveVar, at);
      s.name = name;
      s.source = source;
      return true;
    }
    if (take_ident("wrap_with_raii_handle_if_needed")) {
      std::string source, sizes, strides;
      if (!reinterpret_view(&source, &sizes, &strides) || !take_punct(";") || !declare_local(name, LocalKind::Raii))
        return false;
      EntryStmt& s = add(EntryStmt::Kind::Reinterpret, at);
      s.name = name;
      s.source = source;
      s.sizes = sizes;
      s.strides = strides;
      return true;
    }
    return false;
  }

  // After `wrap_with_raii_handle_if_needed`: `(reinterpret_tensor_wrapper(buf2, 1, int_array_6,
  // int_array_7, 0L))`, through both closing parentheses; the viewed tensor and the two arrays.
  bool reinterpret_view(std::string* source, std::string* sizes, std::string* strides) {
    if (!take_punct("(") || !take_ident("reinterpret_tensor_wrapper") || !take_punct("(") || !raii_or_handle(i_))
      return false;
    *source = std::string(text(i_++));
    if (!take_punct(",") || !take_int(nullptr) || !take_punct(",") || !local_is(i_, LocalKind::IntArray)) return false;
    *sizes = std::string(text(i_++));
    if (!take_punct(",") || !local_is(i_, LocalKind::IntArray)) return false;
    *strides = std::string(text(i_++));
    return take_punct(",") && take_int(nullptr) && take_punct(")") && take_punct(")");
  }

  // A variable the entry may name: a local, or a CACHE_TORCH_* variable.
  bool known_variable(size_t i) const {
    return ident_at(i) && (local(text(i)) || cached_vars_.count(std::string(text(i))));
  }

  // `(T*)` or `(const T*)` with a known T: the cast's canonical element type and const.
  bool pointer_cast(std::string* elem, bool* is_const, int* pointers) {
    if (!take_punct("(")) return false;
    *is_const = take_ident("const");
    if (!ident_at(i_)) return false;
    std::string w(text(i_++));
    if ((w == "at" || w == "c10") && take_punct("::")) {
      if (!ident_at(i_)) return false;
      const KernelElem* e = kernel_elem(w + "::" + std::string(text(i_++)));
      if (!e) return false;
      *elem = std::string(e->canonical);
    } else {
      const std::string_view* canonical = word_types().find(w);
      if (!canonical) return false;
      *elem = std::string(*canonical);
    }
    *pointers = 0;
    while (take_punct("*")) ++*pointers;
    return *pointers > 0 && take_punct(")");
  }

  // `(const float*)(buf0.data_ptr())` or `(const float*)buf0.data_ptr()` on a RAII handle.
  bool data_ptr_cast(std::string* elem, bool* is_const, std::string* var) {
    int pointers = 0;
    if (!pointer_cast(elem, is_const, &pointers) || pointers != 1 || *elem == "void") return false;
    bool paren = take_punct("(");
    if (!local_is(i_, LocalKind::Raii)) return false;
    *var = std::string(text(i_++));
    return take_punct(".") && take_ident("data_ptr") && take_punct("(") && take_punct(")") &&
           (!paren || take_punct(")"));
  }

  // A numeric literal, possibly negative: its text as node_text gives it.
  bool numeric_literal(std::string* text_out, bool integer_only = false) {
    size_t from = i_;
    take_punct("-");
    if (i_ >= toks_.size() || toks_[i_].kind != TokKind::Number) return false;
    std::string_view t = text(i_);
    if (!int_literal_value(t, nullptr) && (integer_only || !float_literal(t))) return false;
    ++i_;
    *text_out = collapsed(code_, toks_[from], toks_[i_ - 1]);
    return true;
  }

  // aoti_torch_name(args): any aoti_torch_* name is a generic template in the Clang reader, so
  // the arguments need only be well-formed expressions of a known shape.
  bool shim_call(const Token& at) {
    // The Clang reader declares what `\baoti_torch_\w+` finds: a name longer than the prefix.
    if (!ident_at(i_) || !starts_with(text(i_), "aoti_torch_") || text(i_).size() == 11) return false;
    std::string callee(text(i_++));
    if (is_macro(callee, user_function_macros_, user_object_macros_) || !take_punct("(")) return false;
    std::vector<ShimArg> args;
    if (!take_punct(")")) {
      for (;;) {
        ShimArg a;
        size_t from = i_;
        if (is_punct(i_, "-") || (i_ < toks_.size() && toks_[i_].kind == TokKind::Number)) {
          if (!numeric_literal(&a.text)) return false;
        } else if (is_ident(i_, "nullptr") || is_ident(i_, "true") || is_ident(i_, "false")) {
          a.text = std::string(text(i_++));
        } else if (take_punct("&")) {
          if (!known_variable(i_)) return false;
          a.kind = ShimArg::Kind::AddressOf;
          a.name = std::string(text(i_));
          const LocalKind* k = local(a.name);
          a.handle_typed = k && (*k == LocalKind::Handle || *k == LocalKind::Raii || *k == LocalKind::HandleVector);
          ++i_;
        } else if (is_punct(i_, "(")) {
          size_t cast = i_;
          std::string elem, var;
          bool is_const = false;
          int pointers = 0;
          if (data_ptr_cast(&elem, &is_const, &var)) {
            a.kind = ShimArg::Kind::DataPtr;
            a.name = var;
          } else {
            i_ = cast;
            if (!pointer_cast(&elem, &is_const, &pointers) || !take_punct("&") || !known_variable(i_)) return false;
            ++i_;
            a.kind = ShimArg::Kind::Cast;
          }
        } else if (known_variable(i_)) {
          a.name = std::string(text(i_++));
          a.kind = ShimArg::Kind::Var;
          if (take_punct("[")) {
            const LocalKind* k = local(a.name);
            if (!k || (*k != LocalKind::HandleVector && *k != LocalKind::IntArray) || !take_int(&a.index) ||
                !take_punct("]"))
              return false;
            a.kind = ShimArg::Kind::Subscript;
            a.on_handle_vector = *k == LocalKind::HandleVector;
          }
        } else if (take_ident("wrap_with_raii_handle_if_needed")) {
          // A view made in the call: `wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf3, 3,
          // int_array_10, int_array_11, 0L))`. To the Clang reader an argument known by its text.
          std::string source, sizes, strides;
          if (!reinterpret_view(&source, &sizes, &strides)) return false;
        } else {
          return false;
        }
        if (a.text.empty()) a.text = collapsed(code_, toks_[from], toks_[i_ - 1]);
        args.push_back(std::move(a));
        if (take_punct(")")) break;
        if (!take_punct(",")) return false;
      }
    }
    EntryStmt& s = add(EntryStmt::Kind::Shim, at);
    s.name = callee;
    s.shim_args = std::move(args);
    return true;
  }

  // cpp_fused_x((const float*)(buf0.data_ptr()), ..., 8L);  against the declaration it sees.
  bool kernel_call(const KernelSig& sig) {
    const Token& at = toks_[i_];
    std::string callee(text(i_++));
    if (!take_punct("(")) return false;
    std::vector<std::string> texts;
    for (size_t p = 0; p < sig.types.size(); ++p) {
      if (p > 0 && !take_punct(",")) return false;
      const KernelParamType& type = sig.types[p];
      std::string arg;
      if (type.pointer) {
        std::string elem;
        bool is_const = false;
        if (!data_ptr_cast(&elem, &is_const, &arg) || elem != type.elem || (is_const && !type.pointee_const))
          return false;
      } else if (local_is(i_, LocalKind::Scalar)) {
        arg = std::string(text(i_++));
      } else if (!numeric_literal(&arg)) {
        return false;
      }
      texts.push_back(arg);
    }
    if (!take_punct(")") || !take_punct(";")) return false;
    EntryStmt& s = add(EntryStmt::Kind::KernelCall, at);
    s.name = callee;
    s.arg_texts = std::move(texts);
    s.param_names = sig.visible_param_names;
    return true;
  }

  // call_triton_x(buf0, primals_1, 40L, 15L, 0, stream0);
  bool launcher_call(const LauncherSig& sig) {
    const Token& at = toks_[i_];
    std::string callee(text(i_++));
    if (!take_punct("(")) return false;
    std::vector<std::string> texts;
    if (!take_punct(")")) {
      for (;;) {
        if (texts.size() >= sig.params.size()) return false;
        const SigType& type = sig.params[texts.size()].type;
        std::string arg;
        if (type.template_param) {  // const T&: a variable or a literal
          if (ident_at(i_) && local(text(i_)) && !local_is(i_, LocalKind::HandleVector)) arg = std::string(text(i_++));
          else if (!numeric_literal(&arg)) return false;
        } else if (type.arithmetic()) {
          if (local_is(i_, LocalKind::Scalar)) arg = std::string(text(i_++));
          else if (!numeric_literal(&arg)) return false;
        } else if (type.base == "CUstream" && type.pointers == 0 && !type.array &&
                   (!type.reference || type.is_const)) {
          if (local_is(i_, LocalKind::Stream)) arg = std::string(text(i_++));
          else if (is_ident(i_, "nullptr")) arg = std::string(text(i_++));
          else return false;
        } else {
          return false;
        }
        texts.push_back(arg);
        if (take_punct(")")) break;
        if (!take_punct(",")) return false;
      }
    }
    if (texts.size() < sig.required || !take_punct(";")) return false;
    EntryStmt& s = add(EntryStmt::Kind::LauncherCall, at);
    s.name = callee;
    s.arg_texts = std::move(texts);
    for (auto& p : sig.params) s.param_names.push_back(p.name);
    return true;
  }

  std::string_view code_;
  const std::vector<Token>& toks_;
  const std::vector<UserMacro>& macros_;
  HandWrapper* out_ = nullptr;
  size_t i_ = 0;
  bool saw_entry_ = false;
  std::unordered_map<std::string, int> user_function_macros_;
  std::unordered_set<std::string> user_object_macros_;
  std::unordered_map<std::string, GlobalKind> globals_;
  std::unordered_map<std::string, KernelSig> kernels_;
  std::unordered_map<std::string, LauncherSig> launchers_;
  std::unordered_map<std::string, std::set<size_t>> helper_arities_;
  std::set<std::string> cached_vars_;
  std::unordered_map<std::string, LocalKind> locals_;
  std::vector<std::pair<size_t, size_t>> skipped_;  // token ranges of the bodies Clang skips
};

std::atomic<uint64_t> g_parses{0};

// The wrapper as the hand reader reads it, or null when it declines.
std::shared_ptr<const HandWrapper> parse_hand_wrapper(const std::string& source) {
  g_parses++;
  if (source.size() > (size_t{1} << 30)) return nullptr;
  // Clang ends lines at '\r' too, and the model's lines are split at '\n' only: no '\r', and no
  // other control character, anywhere.
  for (unsigned char ch : source)
    if ((ch < 0x20 && ch != '\n' && ch != '\t') || ch == 0x7f) return nullptr;
  std::string code = blank_cpp_includes(source);
  // What Clang would not be given (nesting or macros past the limits) the Clang reader reports.
  if (check_cpp_limits(code)) return nullptr;
  std::vector<Token> toks;
  std::vector<UserMacro> macros;
  if (!Lexer(code).run(toks, macros)) return nullptr;
  auto w = std::make_shared<HandWrapper>();
  if (!WrapperParser(code, toks, macros).parse(*w)) return nullptr;
  return w;
}

// ------------------------------------------------------------------ apply

// WrapperVisitor's walk of the entry, on the parsed statements: the same state, the same steps.
class EntryWalk {
 public:
  EntryWalk(Compile& c, const FilePath& file, int first_line, const std::vector<std::string>& lines)
      : c_(c), file_(file), first_line_(first_line), lines_(lines), marks_(wrapper_comment_marks(lines)) {
    for (auto& in : c_.inputs) compile_inputs_.insert(in.name);
  }

  void visit(const EntryStmt& s) {
    SourceLoc here = loc(s);
    switch (s.kind) {
      case EntryStmt::Kind::StealInputs:
        inputs_var_ = s.name;
        break;
      case EntryStmt::Kind::MoveSubscript:
        // subscript_of needs the vector of stolen handles; on another vector nothing is read.
        if (s.source == inputs_var_) add_input(s.name, s.index, ValueKind::Tensor, here);
        break;
      case EntryStmt::Kind::MoveVar:
        add_alias(s.name, s.source, s.line, here, nullptr);
        break;
      case EntryStmt::Kind::IntArray:
        arrays_[s.name] = s.elements;
        break;
      case EntryStmt::Kind::Reinterpret:
        add_alias(s.name, s.source, s.line, here, &s);
        break;
      case EntryStmt::Kind::Shim:
        shim(s, here);
        break;
      case EntryStmt::Kind::KernelCall:
      case EntryStmt::Kind::LauncherCall:
        kernel_launch(s, here);
        break;
      case EntryStmt::Kind::Output:
        outputs_[s.index] = s.source;
        break;
    }
  }

  void finish() {
    for (auto& [i, gi] : inputs_) {
      GraphInput g = gi;
      auto sc = scalar_inputs_.find(g.name);
      if (sc != scalar_inputs_.end()) g.meta.dtype = sc->second;
      if (compile_inputs_.insert(g.name).second) c_.inputs.push_back(g);
    }
    for (auto& [i, n] : outputs_) {
      c_.outputs.push_back(n);
      auto b = c_.buffer_index.find(n);
      if (b != c_.buffer_index.end()) c_.buffers[b->second].is_graph_output = true;
    }
  }

 private:
  SourceLoc loc(const EntryStmt& s) const { return SourceLoc{file_, first_line_ + s.line - 1, s.column > 0 ? s.column : 1}; }

  // WrapperVisitor::var_name of an argument after strip / strip_addr.
  static std::string var_name(const ShimArg& a) { return a.kind == ShimArg::Kind::Var ? a.name : ""; }
  static std::string addressed_name(const ShimArg& a) {
    return a.kind == ShimArg::Kind::Var || a.kind == ShimArg::Kind::AddressOf ? a.name : "";
  }
  // WrapperVisitor::arg_text: the buffer an argument names, else its text.
  static std::string arg_text(const ShimArg& a) {
    return a.kind == ShimArg::Kind::Var || a.kind == ShimArg::Kind::DataPtr ? a.name : a.text;
  }

  std::vector<std::string>& array(const std::string& name) { return arrays_[name]; }

  void shim(const EntryStmt& s, const SourceLoc& here) {
    const std::string& callee = s.name;
    const auto& args = s.shim_args;
    if (callee == "aoti_torch_empty_strided" && args.size() >= 7) {
      Buffer b;
      b.name = without_suffix(addressed_name(args.back()), "_handle");
      b.meta.shape = to_istrings(array(var_name(args[1])));
      b.meta.stride = to_istrings(array(var_name(args[2])));
      b.meta.dtype = parse_dtype(without_prefix(var_name(args[3]), "cached_torch_dtype_"));
      b.meta.device = without_prefix(var_name(args[4]), "cached_torch_device_type_");
      b.alloc_loc = here;
      if (!b.name.empty()) add_buffer(b);
      return;
    }
    std::string item_type = item_shim_type(callee);
    if (!item_type.empty() && args.size() == 2) {
      // AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_item_int64(inputs[0], &arg0_1));
      std::string target = addressed_name(args[1]);
      const ShimArg& from = args[0];
      if (!inputs_var_.empty() && from.kind == ShimArg::Kind::Subscript && from.on_handle_vector &&
          from.name == inputs_var_ && !target.empty()) {
        add_input(target, from.index, item_value_kind(item_type), here);
        scalar_inputs_[target] = parse_dtype(item_type);
      }
      return;
    }
    if (is_bookkeeping_shim(callee)) return;
    KernelLaunch l;
    l.order = order_++;
    l.is_fallback = true;
    l.shim = callee;
    l.kernel = fallback_kernel_of_shim(callee);
    for (const ShimArg& a : args) {
      if (a.kind == ShimArg::Kind::AddressOf && a.handle_typed) {  // `&buf2_handle`: a handle the shim creates
        l.results.push_back(without_suffix(a.name, "_handle"));
        continue;
      }
      l.args.push_back(arg_text(a));
    }
    take_comments(l, s.line);
    l.loc = here;
    for (auto& r : l.results) {
      Buffer b;
      b.name = r;
      b.alloc_loc = l.loc;
      add_buffer(b);
    }
    if (l.kernel == "copy_" && !l.args.empty() && is_input(l.args[0]))
      c_.mutations.push_back(Mutation{l.args[0], "copy_", "", l.loc});
    c_.launches.push_back(std::move(l));
  }

  void kernel_launch(const EntryStmt& s, const SourceLoc& here) {
    const bool launcher = s.kind == EntryStmt::Kind::LauncherCall;
    const std::string kname = launcher ? s.name.substr(5) : s.name;
    KernelLaunch l;
    l.order = order_++;
    l.kernel = kname;
    l.is_fallback = false;
    std::vector<std::string> bound_params;
    for (size_t i = 0; i < s.arg_texts.size(); ++i) {
      std::string pn = i < s.param_names.size() ? s.param_names[i] : "";
      // CUDA launchers end with `device_idx_, stream_[, cubin_dir_]`: keyword-like, as the
      // Python wrapper's `stream=stream0`.
      if (launcher && !pn.empty() && pn.back() == '_') {
        l.kwargs[pn.substr(0, pn.size() - 1)] = s.arg_texts[i];
        continue;
      }
      l.args.push_back(s.arg_texts[i]);
      bound_params.push_back(pn);
    }
    take_comments(l, s.line);
    l.loc = here;
    // In-place writes through kernel arguments: in_out_ptr params, and written (non-const)
    // pointer params bound to a graph input.
    const Kernel* k = c_.kernel(kname);
    for (size_t i = 0; i < l.args.size(); ++i) {
      std::string pn = i < bound_params.size() ? bound_params[i] : "";
      bool written = false;
      if (k && i < k->params.size()) {
        pn = k->params[i].name;
        written = k->params[i].is_pointer && !k->params[i].is_const;
      } else {
        written = pn.rfind("out_ptr", 0) == 0;
      }
      if (pn.rfind("in_out_ptr", 0) == 0) c_.mutations.push_back(Mutation{l.args[i], "in_out_ptr", kname, l.loc});
      else if (written && is_input(l.args[i])) c_.mutations.push_back(Mutation{l.args[i], "mutated_arg", kname, l.loc});
    }
    c_.launches.push_back(std::move(l));
  }

  static std::string without_prefix(const std::string& s, const std::string& p) {
    return s.rfind(p, 0) == 0 ? s.substr(p.size()) : s;
  }

  bool line_says_reuse(int line) const {
    return line >= 1 && line <= static_cast<int>(lines_.size()) && lines_[line - 1].find("// reuse") != std::string::npos;
  }

  void add_buffer(Buffer b) {
    auto it = c_.buffer_index.find(b.name);
    if (it != c_.buffer_index.end()) {
      auto& old = c_.buffers[it->second];
      if (old.meta.shape.empty()) old.meta = b.meta;
      return;
    }
    c_.add_buffer(std::move(b));
  }

  void add_input(const std::string& name, int64_t idx, ValueKind kind, const SourceLoc& here) {
    GraphInput gi;
    gi.name = name;
    gi.kind = kind;
    auto old = inputs_.find(idx);
    if (old != inputs_.end() && --input_names_[old->second.name] == 0) input_names_.erase(old->second.name);
    inputs_[idx] = gi;
    ++input_names_[name];
    if (kind == ValueKind::Tensor) {
      Buffer b;
      b.name = name;
      b.is_graph_input = true;
      b.alloc_loc = here;
      add_buffer(b);
    }
  }

  bool is_input(const std::string& n) const { return input_names_.count(n) > 0; }

  void add_alias(const std::string& name, const std::string& src, int line, const SourceLoc& here,
                 const EntryStmt* reinterpret) {
    Buffer b;
    b.name = name;
    b.alias_of = src;
    b.alloc_loc = here;
    b.is_reuse = line_says_reuse(line);
    if (const Buffer* s = c_.buffer(src)) b.meta = s->meta;
    b.is_graph_input = false;
    if (reinterpret) {
      b.meta.shape = to_istrings(array(reinterpret->sizes));
      b.meta.stride = to_istrings(array(reinterpret->strides));
    }
    add_buffer(b);
  }

  // The marks between the previous launch's line and this one's. Statements come in line
  // order, so one pass over the marks serves all launches (the Clang reader scans them all for
  // each launch, with the same result).
  void take_comments(KernelLaunch& l, int line) {
    for (; next_mark_ < marks_.size() && marks_[next_mark_].line < line; ++next_mark_) {
      const WrapperCommentMark& cm = marks_[next_mark_];
      if (cm.line <= last_launch_line_) continue;
      if (!cm.source_nodes.empty()) l.source_nodes = to_istrings(cm.source_nodes);
      if (!cm.handle.empty()) l.provenance_handle = cm.handle;
    }
    last_launch_line_ = line;
  }

  Compile& c_;
  FilePath file_;
  int first_line_;
  const std::vector<std::string>& lines_;
  std::vector<WrapperCommentMark> marks_;
  size_t next_mark_ = 0;
  int last_launch_line_ = 0;
  int order_ = 0;
  std::string inputs_var_;
  std::map<std::string, std::vector<std::string>> arrays_;
  std::map<int64_t, GraphInput> inputs_;
  std::unordered_map<std::string, int> input_names_;  // names in inputs_, with how often
  std::set<std::string> compile_inputs_;             // names in c.inputs
  std::map<std::string, DType> scalar_inputs_;
  std::map<int64_t, std::string> outputs_;
};

void apply(const HandWrapper& w, Compile& c, const std::string& source, int first_line, const FilePath& file,
           DiagSink& diags, std::vector<size_t>* kernels_to_read) {
  c.cpp_wrapper = true;
  std::vector<std::string> lines = split_wrapper_lines(source);
  // WrapperVisitor::collect: the device the wrapper caches, the kernels it defines.
  for (const std::string& v : w.namespace_vars) {
    static const std::string kDevice = "cached_torch_device_type_";
    if (v.rfind(kDevice, 0) == 0 && c.device_type.empty()) c.device_type = v.substr(kDevice.size());
  }
  std::vector<Kernel> kernels;
  for (const KernelDef& d : w.kernel_defs) {
    if (c.kernel(d.name)) continue;
    if (d.begin_line <= 0 || d.end_line < d.begin_line || d.end_line > static_cast<int>(lines.size())) continue;
    Kernel k;
    k.name = d.name;
    k.backend = KernelBackend::Cpp;
    for (int i = d.begin_line; i <= d.end_line; ++i) k.source += lines[i - 1] + "\n";
    k.source_first_line = first_line + d.begin_line - 1;
    k.def_loc = SourceLoc{file, first_line + d.begin_line - 1, 1};
    k.params = d.params;
    kernels.push_back(std::move(k));
  }
  if (!kernels_to_read && !kernels.empty()) {
    std::vector<CppKernelJob> jobs;
    for (auto& k : kernels) jobs.push_back(CppKernelJob{&k, file});
    read_cpp_kernels(jobs, diags, 1);
  }
  for (auto& k : kernels) {
    if (c.device_type.empty()) c.device_type = "cpu";
    c.add_kernel(std::move(k));
    if (kernels_to_read) kernels_to_read->push_back(c.kernels.size() - 1);
  }
  EntryWalk walk(c, file, first_line, lines);
  for (const EntryStmt& s : w.entry) walk.visit(s);
  walk.finish();
}

// The hand parses this thread made ahead (cpp_wrapper_hand_accepts), for the reads that follow.
struct KeptParse {
  std::string source;
  std::shared_ptr<const HandWrapper> wrapper;  // null: declined
};
constexpr size_t kKeptParses = 64;  // build_compiles hands a thread runs of at most 64 compiles
thread_local std::deque<KeptParse> t_kept;

}  // namespace

CppWrapperSourceText find_cpp_wrapper_source(std::string_view text) {
  static constexpr std::string_view kMark = "cpp_wrapper_src = (";
  // memmem, not string_view::find: the mark is searched for in every output_code.py of a run.
  const void* mark = memmem(text.data(), text.size(), kMark.data(), kMark.size());
  if (!mark) return {};
  size_t at = static_cast<size_t>(static_cast<const char*>(mark) - text.data());
  size_t p = at + kMark.size();
  while (p < text.size() && (text[p] == ' ' || text[p] == '\n' || text[p] == '\t')) ++p;
  if (p >= text.size() || (text[p] != 'r' && text[p] != 'R')) return {};
  ++p;
  std::string_view quote = text.substr(p, 3);
  if (quote != "\'\'\'" && quote != "\"\"\"") return {};
  size_t start = p + 3;
  // A raw string ends at the first triple quote not escaped by a backslash (a backslash skips the
  // character after it). `end` is the first triple quote at or after `i`, searched for again only
  // when a backslash moves `i` past it; between them only backslashes are looked for.
  auto triple_from = [&](size_t from) {
    const void* hit = from < text.size() ? memmem(text.data() + from, text.size() - from, quote.data(), 3) : nullptr;
    return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data()) : text.size();
  };
  size_t end = triple_from(start);
  for (size_t i = start; i + 2 < text.size();) {
    if (const void* bs = memchr(text.data() + i, '\\', end - i)) {
      i = static_cast<size_t>(static_cast<const char*>(bs) - text.data()) + 2;
      if (i > end) end = triple_from(i);
      continue;
    }
    if (end >= text.size()) break;
    return {text.substr(start, end - start), line_of_offset(text, p)};
  }
  return {};
}

bool cpp_wrapper_hand_accepts(std::string_view output_code_text) {
  CppWrapperSourceText src = find_cpp_wrapper_source(output_code_text);
  if (src.first_line == 0) return false;
  for (const KeptParse& k : t_kept)
    if (k.source == src.source) return k.wrapper != nullptr;
  std::string source(src.source);
  auto wrapper = parse_hand_wrapper(source);
  t_kept.push_back(KeptParse{std::move(source), wrapper});
  if (t_kept.size() > kKeptParses) t_kept.pop_front();
  return wrapper != nullptr;
}

bool read_cpp_wrapper_hand(Compile& c, const std::string& source, int first_line, const FilePath& file,
                           DiagSink& diags, std::vector<size_t>* kernels_to_read) {
  std::shared_ptr<const HandWrapper> wrapper;
  bool kept = false;
  for (auto it = t_kept.begin(); it != t_kept.end(); ++it)
    if (it->source == source) {
      wrapper = it->wrapper;
      kept = true;
      t_kept.erase(it);
      break;
    }
  if (!kept) wrapper = parse_hand_wrapper(source);
  if (!wrapper) return false;
  apply(*wrapper, c, source, first_line, file, diags, kernels_to_read);
  return true;
}

uint64_t cpp_wrapper_hand_parses() { return g_parses.load(); }

}  // namespace ilint
