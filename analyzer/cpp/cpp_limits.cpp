#include "analyzer/cpp/cpp_limits.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ilint {

namespace {

constexpr int64_t kSaturated = int64_t{1} << 40;

int64_t sat_add(int64_t a, int64_t b) { return std::min(kSaturated, a + b); }

// Character classes, one table lookup a byte (the scan runs over every C++ source before Clang).
enum : uint8_t { kIdentStart = 1, kDigit = 2, kOperator = 4, kSpace = 8 };
constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80) t[c] |= kIdentStart;
    if (c >= '0' && c <= '9') t[c] |= kDigit;
  }
  // Operator characters: each may be one level of a unary chain or of an operator tree.
  for (char c : std::string_view("+-*/%^&|~!<>=?:.,")) t[static_cast<unsigned char>(c)] |= kOperator;
  for (char c : std::string_view(" \t\r\f\v")) t[static_cast<unsigned char>(c)] |= kSpace;
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

inline bool ident_start(unsigned char c) { return kClasses[c] & kIdentStart; }
inline bool ident_char(unsigned char c) { return kClasses[c] & (kIdentStart | kDigit); }
inline bool digit(unsigned char c) { return kClasses[c] & kDigit; }
inline bool operator_char(unsigned char c) { return kClasses[c] & kOperator; }

// What a word means to the scan.
struct WordRole {
  bool nests = false;       // its statement nests another (if, else, for, while, do, switch, try, catch):
                            // each one is a level of Clang's recursion
  bool heads_block = false; // a `{` right after it opens a block (else, do, try, const, noexcept, ...)
  bool heads_decl = false;  // namespace, struct, class, union, enum: their `{` opens a block too
};

WordRole role_of(std::string_view w) {
  WordRole r;
  if (w.size() < 2 || w.size() > 9) return r;
  switch (w[0]) {
    case 'i': r.nests = w == "if"; break;
    case 'e':
      r.nests = r.heads_block = w == "else";
      r.heads_decl = w == "enum";
      break;
    case 'f':
      r.nests = w == "for";
      r.heads_block = w == "final";
      break;
    case 'w': r.nests = w == "while"; break;
    case 'd': r.nests = r.heads_block = w == "do"; break;
    case 's':
      r.nests = w == "switch";
      r.heads_decl = w == "struct";
      break;
    case 't': r.nests = r.heads_block = w == "try"; break;
    case 'c':
      r.nests = w == "catch";
      r.heads_block = w == "const";
      r.heads_decl = w == "class";
      break;
    case 'n':
      r.heads_block = w == "noexcept";
      r.heads_decl = w == "namespace";
      break;
    case 'o': r.heads_block = w == "override"; break;
    case 'u': r.heads_decl = w == "union"; break;
    default: break;
  }
  return r;
}

bool nesting_keyword(std::string_view w) { return role_of(w).nests; }

struct Macro {
  std::string_view body;  // the definition's text after the name (and parameters), splices included
};

// What a macro use can add: tokens, and levels of nesting. Cost over the body's tokens, each
// macro name in it counted as what it expands to (with the definitions in force at the use, as
// the preprocessor does). A macro is not expanded inside its own expansion, so a name met again
// while it is being expanded counts one token; a cost that met such a name depends on where the
// expansion started, so it is not kept for other uses (`cyclic`). The work of costing is bounded
// (kMaxMacroWork body tokens a source), and a chain deeper than kMaxChain, or work past the
// bound, is taken as unbounded.
struct MacroCost {
  int64_t tokens = 0;
  int64_t nesting = 0;
  bool cyclic = false;
};

constexpr int64_t kMaxMacroWork = int64_t{1} << 22;
constexpr int kMaxChain = 64;

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  CppTextMeasure run() {
    bool at_line_start = true;
    const size_t n = s_.size();
    while (i_ < n) {
      unsigned char c = s_[i_];
      uint8_t cls = kClasses[c];
      if (cls & kSpace) {
        while (++i_ < n && (kClasses[static_cast<unsigned char>(s_[i_])] & kSpace)) {
        }
        continue;
      }
      if (cls & kIdentStart) {
        at_line_start = false;
        size_t b = i_;
        while (++i_ < n && ident_char(s_[i_])) {
        }
        std::string_view w = s_.substr(b, i_ - b);
        if (i_ < n && (s_[i_] == '"' || s_[i_] == '\'')) {
          if (s_[i_] == '"' && is_raw_prefix(w)) {
            literal();
            skip_raw_string();
            continue;
          }
          if (is_char_prefix(w)) {
            literal();
            skip_quoted(static_cast<unsigned char>(s_[i_]));
            continue;
          }
        }
        word(w);
        continue;
      }
      switch (c) {
        case '\n':
          ++line_;
          ++i_;
          at_line_start = true;
          continue;
        case '\\':
          ++i_;  // a line splice, or a stray backslash: neither is a token here
          continue;
        case '/':
          if (i_ + 1 < n && s_[i_ + 1] == '/') {
            skip_line_comment();
            continue;
          }
          if (i_ + 1 < n && s_[i_ + 1] == '*') {
            skip_block_comment();
            continue;  // a comment is whitespace: a directive may still follow on this line
          }
          break;
        case '#':
          if (at_line_start) {
            ++i_;
            directive();
            continue;
          }
          break;
        case '%':
          if (at_line_start && i_ + 1 < n && s_[i_ + 1] == ':') {  // the digraph of '#'
            i_ += 2;
            directive();
            continue;
          }
          break;
        case '"': case '\'':
          at_line_start = false;
          literal();
          skip_quoted(c);
          continue;
        default:
          break;
      }
      at_line_start = false;
      if ((cls & kDigit) || (c == '.' && i_ + 1 < n && digit(s_[i_ + 1]))) {
        literal();
        skip_number();
        continue;
      }
      ++i_;
      punct(c);
    }
    CppTextMeasure m;
    m.max_nesting = static_cast<int>(std::min<int64_t>(max_, INT32_MAX));
    m.max_nesting_line = max_line_;
    m.macro_tokens = static_cast<uint64_t>(macro_tokens_);
    m.macro_line = macro_line_;
    m.refused_macro = refused_macro_;
    m.max_open_angles = static_cast<int>(std::min<int64_t>(max_open_angles_, INT32_MAX));
    m.max_open_angles_line = angles_line_;
    return m;
  }

 private:
  // ---- statements and brackets

  // A token of the code (not a directive): a pending statement end takes effect first.
  void token(bool is_else = false) {
    if (!pending_reset_) return;
    pending_reset_ = false;
    if (is_else) return;  // `if (a) x; else ...`: the else branch nests inside the if
    cur_ = stack_.empty() ? 0 : stack_.back().at_open + 1;
    open_angles_ = 0;
  }

  // A literal: part of an expression.
  void literal() {
    token();
    prev_ = Prev::Other;
  }

  void add(int64_t n) {
    cur_ = sat_add(cur_, n);
    if (cur_ > max_) {
      max_ = cur_;
      max_line_ = line_;
    }
  }

  void word(std::string_view w) {
    token(w == "else");
    WordRole r = role_of(w);
    if (r.nests) add(1);
    prev_ = r.heads_block ? Prev::BlockHead : r.nests || r.heads_decl ? Prev::Other : Prev::Name;
    if (r.heads_decl) decl_head_ = true;
    if (!macros_.empty()) {
      auto it = macros_.find(w);
      if (it != macros_.end()) {
        MacroCost mc = cost_of(w, 0);
        add(mc.nesting);
        macro_tokens_ = sat_add(macro_tokens_, mc.tokens);
        if (macro_tokens_ > static_cast<int64_t>(kMaxCppMacroTokens) && macro_line_ == 0) macro_line_ = line_;
      }
    }
  }

  void punct(unsigned char c) {
    token();
    Prev prev = prev_;
    prev_ = Prev::Other;
    bool decl_head = decl_head_;
    if (c == ';' || c == '{' || c == '}') {
      decl_head_ = false;  // `namespace n {`, `struct S {` head a block
      open_angles_ = 0;
    }
    if (c == '<' && prev == Prev::Name && !(i_ < s_.size() && (s_[i_] == '<' || s_[i_] == '='))) {
      // `name<` may open a template argument list: Clang parses each such `<` both ways when it
      // cannot tell, so n of them open at once can cost 2^n (a kernel with `cast<intcast<int...`
      // 28 deep ran past 30 s at 5 GB). Counted until a `>` closes one or the statement ends.
      if (++open_angles_ > max_open_angles_) {
        max_open_angles_ = open_angles_;
        if (open_angles_ > kMaxOpenAngles && angles_line_ == 0) angles_line_ = line_;
      }
    } else if (c == '>' && open_angles_ > 0 && !(i_ >= 2 && s_[i_ - 2] == '-')) {
      --open_angles_;
    }
    switch (c) {
      case ';':
        pending_reset_ = true;
        prev_ = Prev::BlockHead;
        return;
      case ':':
        add(1);
        prev_ = Prev::BlockHead;  // `case 1: {`, `label: {`, `S() : a(1) {`
        return;
      case '(': case '[': case '{': {
        // A brace after what can head a statement (`)`, `;`, `else`, ...) opens a block, whose
        // `}` ends the statement; any other (`= {`, `[&]{`, `T{`) is part of an expression,
        // which goes on after it. A parenthesis after `]` holds a lambda's parameters.
        Open kind = c == '{' ? (prev == Prev::BlockHead || prev == Prev::CloseParen || decl_head ? Open::Block : Open::Expr)
                             : (c == '(' && prev == Prev::CloseSquare ? Open::LambdaParams : Open::Group);
        if (stack_.size() < kMaxStack) stack_.push_back(Opened{static_cast<char>(c), kind, cur_});
        add(1);
        prev_ = kind == Open::Block ? Prev::BlockHead : Prev::Other;
        return;
      }
      case ')': case ']': case '}': {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        // Pop to the matching opener when it is near the top; a stray closer changes nothing.
        for (size_t k = 0; k < 8 && k < stack_.size(); ++k) {
          const Opened o = stack_[stack_.size() - 1 - k];
          if (o.bracket != open) continue;
          stack_.resize(stack_.size() - 1 - k);
          cur_ = o.at_open;
          if (o.kind == Open::Block) {
            pending_reset_ = true;  // a block ends its statement unless `else` follows
            prev_ = Prev::BlockHead;
          } else {
            add(1);  // `f(a)(b)`, `a[0][1]`, `[&]{...}()`: each group is one more level of the tree
            prev_ = c == ']' ? Prev::CloseSquare : c == ')' && o.kind == Open::Group ? Prev::CloseParen : Prev::Other;
          }
          return;
        }
        return;
      }
      default:
        if (operator_char(c)) add(1);
        return;
    }
  }

  // ---- lexing

  void skip_line_comment() {
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {  // a spliced comment goes on
        ++line_;
        i_ += 2;
        continue;
      }
      ++i_;
    }
  }

  void skip_block_comment() {
    i_ += 2;
    while (i_ < s_.size() && !(s_[i_] == '*' && i_ + 1 < s_.size() && s_[i_ + 1] == '/')) {
      if (s_[i_] == '\n') ++line_;
      ++i_;
    }
    i_ = std::min(s_.size(), i_ + 2);
  }

  // A "..." or '...' literal; an unterminated one ends at its line's end, as Clang takes it.
  void skip_quoted(unsigned char q) {
    ++i_;
    while (i_ < s_.size() && s_[i_] != q && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        if (s_[i_ + 1] == '\n') ++line_;
        ++i_;
      }
      ++i_;
    }
    if (i_ < s_.size() && s_[i_] == q) ++i_;
  }

  static bool is_raw_prefix(std::string_view w) {
    return w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR";
  }
  static bool is_char_prefix(std::string_view w) { return w == "u8" || w == "u" || w == "U" || w == "L"; }

  // R"delim( ... )delim": the whole rest is the string when it does not close. A delimiter of
  // more than 16 characters, or with a space, a parenthesis, a backslash or a control character in
  // it, is an error to Clang, which then skips to the next '"' (Lexer::LexRawStringLiteral); so
  // does this scan.
  void skip_raw_string() {
    size_t d = i_ + 1;
    while (d < s_.size() && d - i_ - 1 <= 16 && s_[d] != '(') {
      char c = s_[d];
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\v' || c == '\f' || c == '\n' || c == '\r') break;
      ++d;
    }
    size_t stop;
    if (d < s_.size() && s_[d] == '(' && d - i_ - 1 <= 16) {
      std::string close = ")" + std::string(s_.substr(i_ + 1, d - i_ - 1)) + "\"";
      size_t end = s_.find(close, d + 1);
      stop = end == std::string_view::npos ? s_.size() : end + close.size();
    } else {
      size_t quote = s_.find('"', d);
      stop = quote == std::string_view::npos ? s_.size() : quote + 1;
    }
    line_ += static_cast<int>(std::count(s_.begin() + static_cast<std::ptrdiff_t>(i_), s_.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
    i_ = stop;
  }

  void skip_number() {
    while (i_ < s_.size()) {
      unsigned char c = s_[i_];
      if (ident_char(c) || c == '.' || c == '\'') {
        ++i_;
      } else if ((c == '+' || c == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' || s_[i_ - 1] == 'P')) {
        ++i_;
      } else {
        break;
      }
    }
  }

  // ---- directives

  // The logical line from i_ (splices joined, block comments skipped); i_ moves past it.
  std::string_view logical_line() {
    size_t b = i_;
    while (i_ < s_.size() && s_[i_] != '\n') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {
        ++line_;
        i_ += 2;
        continue;
      }
      if (s_[i_] == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        skip_block_comment();
        continue;
      }
      ++i_;
    }
    return s_.substr(b, i_ - b);
  }

  void directive() {
    int at = line_;
    std::string_view text = logical_line();
    size_t p = 0;
    auto skip_space = [&] {
      while (p < text.size() && (text[p] == ' ' || text[p] == '\t' || text[p] == '\\' || text[p] == '\r' || text[p] == '\n')) ++p;
    };
    auto ident = [&] {
      size_t b = p;
      while (p < text.size() && ident_char(text[p])) ++p;
      return text.substr(b, p - b);
    };
    skip_space();
    std::string_view kind = ident();
    if (kind != "define" && kind != "undef") return;
    skip_space();
    std::string_view name = ident();
    if (name.empty()) return;
    if (kind == "undef") {
      macros_.erase(name);
      costs_.clear();
      return;
    }
    std::vector<std::string_view> params;
    if (p < text.size() && text[p] == '(') {  // function-like: the parameters, then the body
      size_t close = text.find(')', p);
      if (close == std::string_view::npos) return;  // Clang refuses the definition
      std::string_view list = text.substr(p + 1, close - p - 1);
      for (size_t q = 0; q <= list.size();) {
        size_t comma = std::min(list.find(',', q), list.size());
        std::string_view one = list.substr(q, comma - q);
        while (!one.empty() && !ident_char(one.front()) && one.front() != '.') one.remove_prefix(1);
        while (!one.empty() && !ident_char(one.back()) && one.back() != '.') one.remove_suffix(1);
        if (one == "...") one = "__VA_ARGS__";
        if (!one.empty()) params.push_back(one);
        q = comma + 1;
      }
      p = close + 1;
    }
    std::string_view body = text.substr(p);
    // A parameter used twice doubles its argument at every level of nesting (`D(D(D(x)))`), and
    // `##` makes names the scan cannot see: neither can be bounded without expanding.
    if (body.find("##") != std::string_view::npos) refuse(name, at);
    for (std::string_view prm : params) {
      int uses = 0;
      for_each_word(body, [&](std::string_view w) { uses += w == prm; });
      if (uses > 1) refuse(name, at);
    }
    macros_[name] = Macro{body};
    costs_.clear();
  }

  void refuse(std::string_view name, int at) {
    if (!refused_macro_.empty()) return;
    refused_macro_ = std::string(name);
    macro_line_ = at;
  }

  template <typename F>
  static void for_each_word(std::string_view text, F&& f) {
    for (size_t k = 0; k < text.size();) {
      if (ident_start(text[k])) {
        size_t b = k;
        while (k < text.size() && ident_char(text[k])) ++k;
        f(text.substr(b, k - b));
      } else {
        ++k;
      }
    }
  }

  MacroCost cost_of(std::string_view name, int chain) {
    if (expanding_.count(name)) return {1, 0, true};
    auto memo = costs_.find(name);
    if (memo != costs_.end()) return memo->second;
    auto it = macros_.find(name);
    if (it == macros_.end()) return {1, 0, false};
    if (chain > kMaxChain || work_ > kMaxMacroWork) return {kSaturated, kSaturated, false};
    expanding_.insert(name);
    MacroCost mc;
    std::string_view body = it->second.body;
    for (size_t k = 0; k < body.size();) {
      ++work_;
      unsigned char c = body[k];
      if (ident_start(c)) {
        size_t b = k;
        while (k < body.size() && ident_char(body[k])) ++k;
        std::string_view w = body.substr(b, k - b);
        if (macros_.count(w)) {
          MacroCost inner = cost_of(w, chain + 1);
          mc.tokens = sat_add(mc.tokens, inner.tokens);
          mc.nesting = sat_add(mc.nesting, inner.nesting);
          mc.cyclic |= inner.cyclic;
        } else {
          mc.tokens = sat_add(mc.tokens, 1);
          if (nesting_keyword(w)) mc.nesting = sat_add(mc.nesting, 1);
        }
        continue;
      }
      ++k;
      if (c == ' ' || c == '\t' || c == '\\' || c == '\r' || c == '\n') continue;
      mc.tokens = sat_add(mc.tokens, 1);
      if (operator_char(c) || c == '(' || c == '[' || c == '{') mc.nesting = sat_add(mc.nesting, 1);
    }
    expanding_.erase(name);
    if (work_ > kMaxMacroWork) mc = {kSaturated, kSaturated, false};
    if (!mc.cyclic) costs_[name] = mc;
    return mc;
  }

  static constexpr size_t kMaxStack = 1 << 16;

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  // What the last token of code was, for telling a block's brace from an expression's.
  enum class Prev { BlockHead, CloseParen, CloseSquare, Name, Other };
  enum class Open { Block, Expr, Group, LambdaParams };
  struct Opened {
    char bracket;
    Open kind;
    int64_t at_open;  // the estimate where it opened
  };
  std::vector<Opened> stack_;
  Prev prev_ = Prev::BlockHead;
  bool decl_head_ = false;
  int64_t open_angles_ = 0, max_open_angles_ = 0;  // `name<` not yet closed in this statement
  int angles_line_ = 0;
  int64_t cur_ = 0, max_ = 0;
  int max_line_ = 0;
  bool pending_reset_ = false;
  std::unordered_map<std::string_view, Macro> macros_;
  std::unordered_map<std::string_view, MacroCost> costs_;  // costs that hold for any use
  std::unordered_set<std::string_view> expanding_;          // the macros being costed now
  int64_t work_ = 0;
  int64_t macro_tokens_ = 0;
  int macro_line_ = 0;
  std::string refused_macro_;
};

}  // namespace

CppTextMeasure measure_cpp_text(std::string_view code) { return Scanner(code).run(); }

// The messages name no line: the diagnostic is placed at `line`, moved to the file's line by the
// reader.
std::optional<CppLimitBreach> check_cpp_limits(std::string_view code) {
  CppTextMeasure m = measure_cpp_text(code);
  if (!m.refused_macro.empty())
    return CppLimitBreach{m.macro_line, "macro " + m.refused_macro +
                                            " uses a parameter twice or pastes tokens, so its expansion has no bound "
                                            "inductor-lint can check"};
  if (m.macro_tokens > kMaxCppMacroTokens)
    return CppLimitBreach{m.macro_line, "its macros expand to more than " + std::to_string(kMaxCppMacroTokens) +
                                            " tokens by here"};
  if (m.max_open_angles > kMaxOpenAngles)
    return CppLimitBreach{m.max_open_angles_line, "code here has more than " + std::to_string(kMaxOpenAngles) +
                                                      " `name<` open at once, which can make Clang's parser try "
                                                      "each both ways (2^n)"};
  if (m.max_nesting > kMaxCppNestingEstimate)
    return CppLimitBreach{m.max_nesting_line, "code here nests deeper than " + std::to_string(kMaxCppNestingEstimate) +
                                                  " levels (operators, brackets and statements), which can overflow "
                                                  "Clang's stack"};
  return std::nullopt;
}

}  // namespace ilint
