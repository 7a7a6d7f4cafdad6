#include "analyzer/parse/python.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "analyzer/util/heap_budget.h"

namespace ilint::py {

// ---------------------------------------------------------------- Arena

Arena::Arena(Arena&& o) noexcept
    : blocks_(std::move(o.blocks_)), cur_(o.cur_), left_(o.left_), first_(o.first_) {
  o.blocks_.clear();
  o.cur_ = nullptr;
  o.left_ = 0;
}

Arena& Arena::operator=(Arena&& o) noexcept {
  if (this != &o) {
    blocks_ = std::move(o.blocks_);
    cur_ = o.cur_;
    left_ = o.left_;
    first_ = o.first_;
    o.blocks_.clear();
    o.cur_ = nullptr;
    o.left_ = 0;
  }
  return *this;
}

void* Arena::grow(size_t bytes, size_t align) {
  // Blocks double from the first size (sized by the parser from the source) up to 1 MiB.
  constexpr size_t kMaxBlock = size_t(1) << 20;
  size_t size = first_;
  if (!blocks_.empty()) size = std::min(kMaxBlock, std::max(first_, first_ << std::min<size_t>(blocks_.size(), 8)));
  size = std::max(size, bytes + align);
  blocks_.emplace_back(new char[size]);
  cur_ = blocks_.back().get();
  left_ = size;
  size_t pad = (0 - reinterpret_cast<uintptr_t>(cur_)) & (align - 1);
  char* p = cur_ + pad;
  cur_ = p + bytes;
  left_ -= pad + bytes;
  return p;
}

void Arena::clear() {
  blocks_.clear();
  cur_ = nullptr;
  left_ = 0;
}

std::string_view Arena::copy(std::string_view s) {
  if (s.empty()) return {};
  char* d = static_cast<char*>(alloc(s.size(), 1));
  std::memcpy(d, s.data(), s.size());
  return {d, s.size()};
}

// ---------------------------------------------------------------- Expr helpers

std::string Expr::dotted() const {
  if (kind == Name) return std::string(text);
  // Walk down the chain once for the length, then fill the string from its end.
  size_t len = 0;
  const Expr* e = this;
  while (e->kind == Attribute) {
    if (!e->func) return "";
    len += e->text.size() + 1;
    e = e->func;
  }
  if (e->kind != Name || e->text.empty() || e == this) return "";
  len += e->text.size();
  std::string out(len, '\0');
  size_t pos = len;
  for (const Expr* x = this; x->kind == Attribute; x = x->func) {
    pos -= x->text.size();
    std::memcpy(&out[pos], x->text.data(), x->text.size());
    out[--pos] = '.';
  }
  std::memcpy(&out[0], e->text.data(), e->text.size());
  return out;
}

bool Expr::dotted_is(std::string_view s) const {
  if (s.empty()) return dotted().empty();
  const Expr* e = this;
  while (e->kind == Attribute) {
    if (!e->func) return false;
    size_t t = e->text.size();
    if (s.size() < t + 1 || s.substr(s.size() - t) != e->text || s[s.size() - t - 1] != '.') return false;
    s.remove_suffix(t + 1);
    e = e->func;
  }
  if (e->kind != Name || (e != this && e->text.empty())) return false;
  return e->text == s;
}

const Expr* Expr::kwarg(std::string_view name) const {
  for (auto& [k, v] : kwargs)
    if (k == name) return v;
  return nullptr;
}

namespace {
bool is_space_char(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
}  // namespace

std::string_view trim_space(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space_char(s[b])) ++b;
  while (e > b && is_space_char(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string normalize_space(std::string_view s) {
  // Leading and trailing whitespace goes; most texts (names, numbers, a list's pieces after
  // ", ") hold none inside: one copy.
  s = trim_space(s);
  size_t i = 0;
  while (i < s.size() && !is_space_char(s[i])) ++i;
  if (i == s.size()) return std::string(s);
  std::string out;
  out.reserve(s.size());
  out.append(s.data(), i);
  bool space = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (is_space_char(c)) {
      space = true;
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool number_value(std::string_view text, double& out) {
  char small[64];
  std::string big;
  char* t = small;
  size_t n = 0;
  if (text.size() >= sizeof small) {
    big.resize(text.size() + 1);
    t = big.data();
  }
  for (char c : text)
    if (c != '_') t[n++] = c;
  t[n] = '\0';
  if (n == 0) return false;
  char* end = nullptr;
  if (n > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    out = static_cast<double>(std::strtoull(t + 2, &end, 16));
    return end && *end == '\0';
  }
  if (t[n - 1] == 'j' || t[n - 1] == 'J') return false;
  out = std::strtod(t, &end);
  return end && *end == '\0';
}

// ---------------------------------------------------------------- Tokenizer

namespace {

enum : uint8_t {
  kIdStart = 1,   // [A-Za-z_] and bytes >= 0x80
  kIdChar = 2,    // kIdStart and digits
  kDigit = 4,
  kHex = 8,
  kPrefix = 16,   // string prefix letters: rRbBuUfF
  kOpChar = 32,   // single-character operators: ()[]{},:;.=+-*/%&|^~<>@!  (and NUL, see tokenize)
  kOpEq = 64,     // first character of a two-character operator ending in '=': =!<>+-*/%&|^:@
};

struct CharTable {
  uint8_t f[256] = {};
  constexpr CharTable() {
    for (int c = 0; c < 256; ++c) {
      bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      bool digit = c >= '0' && c <= '9';
      if (alpha || c == '_' || c >= 0x80) f[c] |= kIdStart | kIdChar;
      if (digit) f[c] |= kIdChar | kDigit | kHex;
      if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) f[c] |= kHex;
    }
    for (const char* p = "rRbBuUfF"; *p; ++p) f[static_cast<unsigned char>(*p)] |= kPrefix;
    // std::strchr(set, c) also finds the terminating NUL: the old tokenizer counted '\0' as an
    // operator character, so does this table.
    for (const char* p = "()[]{},:;.=+-*/%&|^~<>@!"; *p; ++p) f[static_cast<unsigned char>(*p)] |= kOpChar;
    f[0] |= kOpChar;
    for (const char* p = "=!<>+-*/%&|^:@"; *p; ++p) f[static_cast<unsigned char>(*p)] |= kOpEq;
  }
};
constexpr CharTable kChars;

inline bool has(char c, uint8_t flag) { return kChars.f[static_cast<unsigned char>(c)] & flag; }

uint32_t keyword(std::string_view s) {
  // By first byte, then the whole spelling: most names (tmp3, xindex, tl, buf0) fail at once.
  auto is = [&](std::string_view k) { return s == k; };
  switch (s[0]) {
    case 'a':
      if (is("and")) return KwAnd;
      if (is("async")) return KwAsync;
      if (is("assert")) return KwAssert;
      return KwNone;
    case 'b':
      return is("break") ? KwBreak : KwNone;
    case 'c':
      if (is("class")) return KwClass;
      if (is("continue")) return KwContinue;
      return KwNone;
    case 'd':
      if (is("def")) return KwDef;
      if (is("del")) return KwDel;
      return KwNone;
    case 'e':
      if (is("else")) return KwElse;
      if (is("elif")) return KwElif;
      if (is("except")) return KwExcept;
      return KwNone;
    case 'f':
      if (is("for")) return KwFor;
      if (is("from")) return KwFrom;
      if (is("finally")) return KwFinally;
      return KwNone;
    case 'g':
      return is("global") ? KwGlobal : KwNone;
    case 'i':
      if (is("in")) return KwIn;
      if (is("if")) return KwIf;
      if (is("is")) return KwIs;
      if (is("import")) return KwImport;
      return KwNone;
    case 'l':
      return is("lambda") ? KwLambda : KwNone;
    case 'n':
      if (is("not")) return KwNot;
      if (is("nonlocal")) return KwNonlocal;
      return KwNone;
    case 'o':
      return is("or") ? KwOr : KwNone;
    case 'p':
      return is("pass") ? KwPass : KwNone;
    case 'r':
      if (is("return")) return KwReturn;
      if (is("raise")) return KwRaise;
      return KwNone;
    case 't':
      return is("try") ? KwTry : KwNone;
    case 'w':
      if (is("with")) return KwWith;
      if (is("while")) return KwWhile;
      return KwNone;
    default:
      return KwNone;
  }
}

// The first byte in [k, n) that can end or interrupt a string body: a backslash, a newline or the
// quote. Eight bytes at a time (kernel sources are long triple-quoted strings).
size_t string_stop(const char* s, size_t k, size_t n, char q) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const uint64_t bs = kOnes * static_cast<unsigned char>('\\'), nl = kOnes * static_cast<unsigned char>('\n'),
                 qq = kOnes * static_cast<unsigned char>(q);
  // A zero byte of v sets the high bit of that byte in zero(v) (bytes above it may be set too,
  // by the borrow; the lowest set bit is always the first zero byte).
  auto zero = [&](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  while (std::endian::native == std::endian::little && k + 8 <= n) {
    uint64_t x;
    std::memcpy(&x, s + k, 8);
    uint64_t m = zero(x ^ bs) | zero(x ^ nl) | zero(x ^ qq);
    if (m) return k + (static_cast<size_t>(__builtin_ctzll(m)) >> 3);
    k += 8;
  }
  while (k < n && s[k] != '\\' && s[k] != '\n' && s[k] != q) ++k;
  return k;
}

// What a byte can start, for the tokenizer's dispatch.
enum Lead : uint8_t { LOp, LSpace, LNewline, LBackslash, LHash, LQuote, LPrefix, LIdent, LDigit, LDot };

struct LeadTable {
  Lead f[256] = {};
  constexpr LeadTable() {
    for (int c = 0; c < 256; ++c) {
      bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (alpha || c == '_' || c >= 0x80) f[c] = LIdent;
      if (c >= '0' && c <= '9') f[c] = LDigit;
    }
    for (const char* p = "rRbBuUfF"; *p; ++p) f[static_cast<unsigned char>(*p)] = LPrefix;
    f[static_cast<unsigned char>(' ')] = f[static_cast<unsigned char>('\t')] = f[static_cast<unsigned char>('\f')] = LSpace;
    f[static_cast<unsigned char>('\n')] = f[static_cast<unsigned char>('\r')] = LNewline;
    f[static_cast<unsigned char>('\\')] = LBackslash;
    f[static_cast<unsigned char>('#')] = LHash;
    f[static_cast<unsigned char>('\'')] = f[static_cast<unsigned char>('"')] = LQuote;
    f[static_cast<unsigned char>('.')] = LDot;
  }
};
constexpr LeadTable kLead;

// The longest logical line read by pieces: 128k tokens (~7 MB of them; Inductor's longest lines,
// the signatures of kernels with thousands of arguments, have a few tens of thousands).
constexpr size_t kMaxLineTokens = size_t(1) << 17;

// Where the tokenizer stands in its source, between two pieces of a source tokenized piece by piece.
struct TokenizerState {
  size_t i = 0;
  int line = 1;
  size_t line_start = 0;
  int depth = 0;  // bracket depth: newlines inside brackets are not logical ends
  bool at_line_start = true;
  // The first 200 issues, then a count (as the parser's).
  size_t dropped = 0;
  int dropped_line = 0, dropped_col = 0;
};

// One loop over the bytes with one switch on the first byte of each token: the tokenizer's whole
// cost on a wrapper, and its cases share the position, line and bracket state, so it stays one
// function (266 lines) rather than a call per token kind.
//
// Appends the tokens of `src` from where `st` stands to `toks`. With a `piece` limit, it stops at
// the first line end that closes a logical line once `toks` holds `piece` tokens (or wherever it
// stands once kMaxLineTokens more have come) and returns false, the piece ending with a Newline
// token; it returns true at the end of the source, after the final Newline and End tokens.
bool tokenize_piece(std::string_view src, TokenizerState& st, std::vector<Token>& toks,
                    std::vector<ParseIssue>* issues, size_t piece) {
  const char* s = src.data();
  size_t n = src.size();
  size_t& i = st.i;
  int& line = st.line;
  size_t& line_start = st.line_start;
  int& depth = st.depth;
  bool& at_line_start = st.at_line_start;
  auto col_of = [&](size_t pos) { return static_cast<int>(pos - line_start) + 1; };
  size_t& dropped = st.dropped;
  int &dropped_line = st.dropped_line, &dropped_col = st.dropped_col;
  auto issue = [&](int l, int c, std::string msg) {
    if (!issues) return;
    if (issues->size() < 200) issues->push_back({l, c, std::move(msg)});
    else if (!dropped++) dropped_line = l, dropped_col = c;
  };
  auto add = [&](Tok kind, size_t b, size_t e) -> Token& {
    Token& t = toks.emplace_back();
    t.kind = kind;
    t.line = line;
    t.col = col_of(b);
    t.begin = b;
    t.end = e;
    return t;
  };
  // A string literal whose prefix (possibly empty) is s[i, j) and whose opening quote is s[j].
  auto string_literal = [&](size_t j) {
    char q = s[j];
    bool triple = j + 2 < n && s[j + 1] == q && s[j + 2] == q;
    size_t body = j + (triple ? 3 : 1);
    size_t k = body;
    int start_line = line, start_col = col_of(i);
    bool closed = false;
    while (k < n) {
      k = string_stop(s, k, n, q);
      if (k >= n) break;
      char d = s[k];
      if (d == '\\' && k + 1 < n) {
        // Raw or not, a backslash protects the next character (the quote) from ending the string.
        if (s[k + 1] == '\n') {
          ++line;
          line_start = k + 2;
        }
        k += 2;
        continue;
      }
      if (d == '\n') {
        if (!triple) break;
        ++line;
        line_start = k + 1;
        ++k;
        continue;
      }
      if (d == q) {
        if (!triple) {
          closed = true;
          break;
        }
        if (k + 2 < n && s[k + 1] == q && s[k + 2] == q) {
          closed = true;
          break;
        }
      }
      ++k;
    }
    Token& t = toks.emplace_back();
    t.kind = Tok::String;
    t.triple = triple;
    t.line = start_line;
    t.col = start_col;
    t.begin = i;
    t.text = src.substr(body, std::min(k, n) - body);
    if (!closed) {
      issue(start_line, start_col, "unterminated string literal");
      t.end = std::min(k, n);
    } else {
      t.end = k + (triple ? 3 : 1);
    }
    i = t.end;
  };
  while (i < n) {
    // A line running past the piece's reservation grows the vector once to its bound, where
    // doubling held old and new arrays and left it larger (a file of random bytes is such lines).
    if (toks.size() == toks.capacity() && toks.size() >= piece) toks.reserve(piece + kMaxLineTokens + 16);
    if (toks.size() >= piece && toks.size() - piece >= kMaxLineTokens) {
      // A logical line of this many tokens (a bracket never closed, a line of garbage) is not
      // generated code: it is cut here, so that memory stays bounded.
      add(Tok::Newline, i, i);
      return false;
    }
    if (at_line_start) {
      // Indentation: emit an Indent token carrying the width of the leading whitespace, for
      // lines that hold code (blank and comment-only lines carry no indentation meaning).
      size_t j = i;
      int width = 0;
      while (j < n && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) {
        width += s[j] == '\t' ? 8 - (width % 8) : 1;
        ++j;
      }
      at_line_start = false;
      if (depth == 0 && j < n && s[j] != '\n' && s[j] != '\r' && s[j] != '#') {
        Token& t = toks.emplace_back();
        t.kind = Tok::Indent;
        t.width = width;
        t.line = line;
        t.col = 1;
        t.begin = i;
        t.end = j;
      }
      i = j;
      continue;
    }
    char c = s[i];
    // One dispatch on the first byte. The byte classes are disjoint, so this takes the branch
    // the old sequence of tests (space, newline, line join, comment, string, name, number,
    // operator) took.
    switch (kLead.f[static_cast<unsigned char>(c)]) {
      case LSpace:
        ++i;
        continue;
      case LNewline:
        if (c == '\r' && i + 1 < n && s[i + 1] == '\n') ++i;
        if (depth == 0 && !toks.empty() && toks.back().kind != Tok::Newline && toks.back().kind != Tok::Comment &&
            toks.back().kind != Tok::Indent)
          add(Tok::Newline, i, i);
        ++i;
        ++line;
        line_start = i;
        at_line_start = true;
        if (toks.size() >= piece && depth == 0) {
          // The piece ends as the source would: the parser finds the end of its last statement.
          if (toks.back().kind != Tok::Newline) add(Tok::Newline, i, i);
          return false;
        }
        continue;
      case LBackslash:
        if (i + 1 < n && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
          // Explicit line joining.
          i += 1;
          if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n') ++i;
          ++i;
          ++line;
          line_start = i;
          continue;
        }
        break;  // an operator (an Error token)
      case LHash: {
        const void* nl = std::memchr(s + i, '\n', n - i);
        size_t j = nl ? static_cast<size_t>(static_cast<const char*>(nl) - s) : n;
        if (const void* cr = std::memchr(s + i, '\r', j - i)) j = static_cast<size_t>(static_cast<const char*>(cr) - s);
        if (depth > 0) {
          // Comments inside brackets carry nothing the analyzer reads; dropping them keeps
          // every statement's tokens contiguous.
          i = j;
          continue;
        }
        Token& t = add(Tok::Comment, i, j);
        t.text = std::string_view(s + i, j - i);
        i = j;
        continue;
      }
      case LQuote:
        string_literal(i);
        continue;
      case LPrefix: {
        // Up to three prefix letters, then a quote: a string; otherwise a name.
        size_t j = i;
        while (j < n && j - i < 3 && has(s[j], kPrefix)) ++j;
        if (j < n && (s[j] == '\'' || s[j] == '"')) {
          string_literal(j);
          continue;
        }
        [[fallthrough]];
      }
      case LIdent: {
        size_t j = i + 1;
        while (j < n && has(s[j], kIdChar)) ++j;
        Token& t = add(Tok::Name, i, j);
        t.text = std::string_view(s + i, j - i);
        t.code = keyword(t.text);
        i = j;
        continue;
      }
      case LDot:
        if (!(i + 1 < n && has(s[i + 1], kDigit))) break;  // an operator
        [[fallthrough]];
      case LDigit: {
        size_t j = i;
        char c1 = j + 1 < n ? s[j + 1] : '\0';
        if (c == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
          j += 2;
          while (j < n && (has(s[j], kHex) || s[j] == '_')) ++j;
        } else {
          while (j < n && (has(s[j], kDigit) || s[j] == '_' || s[j] == '.')) ++j;
          if (j < n && (s[j] == 'e' || s[j] == 'E')) {
            size_t k = j + 1;
            if (k < n && (s[k] == '+' || s[k] == '-')) ++k;
            if (k < n && has(s[k], kDigit)) {
              j = k;
              while (j < n && has(s[j], kDigit)) ++j;
            }
          }
          if (j < n && (s[j] == 'j' || s[j] == 'J' || s[j] == 'L')) ++j;
        }
        Token& t = add(Tok::Number, i, j);
        t.text = std::string_view(s + i, j - i);
        i = j;
        continue;
      }
      case LOp:
        break;
    }
    // Operators. Longest operator first, by direct character tests.
    size_t len = 1;
    char c1 = i + 1 < n ? s[i + 1] : '\0', c2 = i + 2 < n ? s[i + 2] : '\0';
    if (c2 == '=' && c1 == c && (c == '*' || c == '/' || c == '>' || c == '<'))
      len = 3;  // **= //= >>= <<=
    else if (c == '.' && c1 == '.' && c2 == '.')
      len = 3;  // ...
    else if (c1 == '=' && has(c, kOpEq))
      len = 2;  // == != <= >= += -= *= /= %= &= |= ^= := @=
    else if (c1 == c && (c == '*' || c == '/' || c == '<' || c == '>'))
      len = 2;  // ** // << >>
    else if (c == '-' && c1 == '>')
      len = 2;  // ->
    // A run of characters Python has no token for (`$$$...`, stray bytes) is one error token and
    // one issue, whatever its length: a token and an issue per byte would grow with the input.
    auto stray = [&](size_t at) {
      char x = s[at];
      return kLead.f[static_cast<unsigned char>(x)] == LOp && x != '\0' && !has(x, kOpChar);
    };
    if (len == 1 && stray(i)) {
      size_t j = i + 1;
      while (j < n && stray(j)) ++j;
      Token& t = add(Tok::Error, i, j);
      t.text = std::string_view(s + i, j - i);
      t.code = op_code(std::string_view(s + i, 1));
      std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : std::string("\\x") + "??";
      issue(line, t.col, j - i == 1 ? "unexpected character '" + shown + "'"
                                    : "unexpected characters '" + shown + "...' (" + std::to_string(j - i) + " bytes)");
      i = j;
      continue;
    }
    Token& t = add(Tok::Op, i, i + len);
    t.text = std::string_view(s + i, len);
    t.code = op_code(t.text);
    if (len == 1) {
      // ('\0' counts as an opener and a closer, as std::strchr found it in both sets: no net change.)
      if (c == '(' || c == '[' || c == '{' || c == '\0') ++depth;
      if (c == ')' || c == ']' || c == '}' || c == '\0') depth = depth > 0 ? depth - 1 : 0;
    }
    i += len;
  }
  if (!toks.empty() && toks.back().kind != Tok::Newline) {
    Token& t = toks.emplace_back();
    t.kind = Tok::Newline;
    t.line = line;
    t.begin = t.end = n;
  }
  if (dropped)
    issues->push_back({dropped_line, dropped_col,
                       "and " + std::to_string(dropped) + " more unreadable character(s) from here on (not listed)"});
  Token& e = toks.emplace_back();
  e.kind = Tok::End;
  e.line = line;
  e.begin = e.end = n;
  return true;
}

void tokenize_into(std::string_view src, std::vector<Token>& toks, std::vector<ParseIssue>* issues) {
  toks.clear();
  // About one token per 5 bytes in Inductor output: one reservation instead of ~15 regrowths.
  toks.reserve(src.size() / 5 + 16);
  TokenizerState st;
  tokenize_piece(src, st, toks, issues, SIZE_MAX);
}

}  // namespace

std::vector<Token> tokenize(std::string_view src, std::vector<ParseIssue>* issues) {
  std::vector<Token> toks;
  tokenize_into(src, toks, issues);
  return toks;
}

// ---------------------------------------------------------------- Parser

namespace {

constexpr int kMaxDepth = 200;  // deeper expressions are cut off: a guard against stack overflow

constexpr uint32_t kLParen = op_code("("), kRParen = op_code(")"), kLBrack = op_code("["), kRBrack = op_code("]"),
                   kLBrace = op_code("{"), kRBrace = op_code("}"), kComma = op_code(","), kColon = op_code(":"),
                   kSemi = op_code(";"), kDot = op_code("."), kAssign = op_code("="), kStar = op_code("*"),
                   kPow = op_code("**"), kAt = op_code("@"), kArrow = op_code("->"), kEllipsis = op_code("...");

// The text of a token as the old tokenizer held it (an Indent's text was its width in digits):
// for diagnostics only.
std::string token_text(const Token& t, size_t max) {
  if (t.kind == Tok::Indent) return std::to_string(t.width).substr(0, max);
  return std::string(t.text.substr(0, max));
}

class Parser {
 public:
  // Statements go to m.stmts, their nodes to m.arena, issues to `issues`.
  Parser(const std::vector<Token>& toks, Module& m, std::vector<ParseIssue>& issues)
      : toks_(toks), m_(m), a_(m.arena), issues_(issues) {}

  // Parses the statements of the tokens, which end with a whole logical line; then the tokens of
  // the next logical lines may take their place, and the parser goes on where it stood.
  void parse_piece();
  // After the last piece: the count of issues not listed.
  void finish();

 private:
  const std::vector<Token>& toks_;
  Module& m_;
  Arena& a_;
  std::vector<ParseIssue>& issues_;
  size_t p_ = 0;
  // Where the statement loop stands between pieces.
  std::vector<Token> pending_comments_;  // the comment lines right above the next statement
  int last_comment_line_ = -10;
  int indent_ = 0;
  std::vector<std::pair<int, std::string_view>> defs_;  // (indent, name) of the enclosing defs
  bool new_line_ = true;
  int last_stmt_line_ = -1;
  size_t stmt_end_ = 0;  // index of the Newline/';' ending the current simple statement
  int depth_ = 0;
  bool too_deep_reported_ = false;  // one diagnostic per statement
  // Children of the nodes under construction. Each construct pushes its children above the
  // ones already there and, when done, moves them into the arena and pops them: the nested
  // constructs between have popped theirs by then.
  std::vector<Expr*> stack_;
  std::vector<Kwarg> kwstack_;
  std::vector<Param> params_;

  // Chains (a.b.c, a + b + c, f()(), a < b < c, a ** b ** c) build trees as deep as they are
  // long while the parser loops instead of recursing. Each link counts toward the same limit as
  // nesting, so every tree stays shallow enough for the recursive walkers downstream.
  bool link(int& links) {
    ++links;
    return ++depth_ <= kMaxDepth;
  }
  // Past the limit: one diagnostic, the rest of the statement becomes an Other node.
  Expr* cut_chain(int links) {
    if (!too_deep_reported_) {
      issue(cur(), "expression nested too deeply; rest of the statement skipped");
      too_deep_reported_ = true;
    }
    depth_ -= links;
    return other_until_end();
  }

  const Token& cur() const { return toks_[std::min(p_, stmt_end_)]; }
  bool at_end() const { return p_ >= stmt_end_; }
  bool is_op(uint32_t code) const { return !at_end() && cur().kind == Tok::Op && cur().code == code; }
  bool is_name(Kw k) const { return !at_end() && cur().kind == Tok::Name && cur().code == k; }
  bool accept_op(uint32_t code) {
    if (is_op(code)) {
      ++p_;
      return true;
    }
    return false;
  }
  // The first kMaxIssues issues of a module, then a count: a file of garbage has one per statement,
  // and every issue outlives the parse (the caller reports them).
  static constexpr size_t kMaxIssues = 200;
  void issue(const Token& t, std::string msg) {
    if (issues_.size() >= kMaxIssues) {
      if (!dropped_issues_++) dropped_at_ = {t.line + m_.line_offset, t.col};
      return;
    }
    issues_.push_back({t.line + m_.line_offset, t.col, std::move(msg)});
  }
  size_t dropped_issues_ = 0;
  std::pair<int, int> dropped_at_;

  Expr* make(Expr::Kind k, const Token& t) {
    Expr* e = a_.make<Expr>();
    e->kind = k;
    e->line = t.line + m_.line_offset;
    e->col = t.col;
    e->begin = t.begin;
    e->end = t.end;
    return e;
  }
  void finish(Expr* e) {
    if (p_ > 0) e->end = std::max(e->end, toks_[p_ - 1].end);
  }
  Span<Expr*> items1(Expr* a) {
    auto** d = static_cast<Expr**>(a_.alloc(sizeof(Expr*), alignof(Expr*)));
    d[0] = a;
    return {d, 1};
  }
  Span<Expr*> items2(Expr* a, Expr* b) {
    auto** d = static_cast<Expr**>(a_.alloc(2 * sizeof(Expr*), alignof(Expr*)));
    d[0] = a;
    d[1] = b;
    return {d, 2};
  }
  Span<Expr*> commit(size_t base) {
    auto s = a_.copy(stack_.data() + base, stack_.size() - base);
    stack_.resize(base);
    return s;
  }

  Expr* other_until_end() {
    Expr* e = make(Expr::Other, cur());
    p_ = std::max(p_, stmt_end_);
    finish(e);
    return e;
  }
  void skip_to_end() { p_ = std::max(p_, stmt_end_); }

  // Expression grammar, loosest first.
  Expr* expr_list();   // a, b, c  -> Tuple when there is a comma
  Expr* expr();        // lambda / ifexp
  // `first`, when given, is the leftmost operand, already parsed by unary() (expr()'s fast path).
  Expr* or_expr(Expr* first = nullptr);
  Expr* and_expr(Expr* first = nullptr);
  Expr* not_expr();
  Expr* comparison(Expr* first = nullptr);
  Expr* binary(int level, Expr* first = nullptr);
  bool continues_operand() const;
  Expr* unary();
  Expr* power();
  Expr* postfix(Expr* base);
  Expr* atom();
  Expr* bracketed(char close, Expr::Kind kind);
  void call_args(Expr& call);
  void skip_comprehension();

  void parse_statement(Stmt& s);
  void parse_simple(Stmt& s);
};

Expr* Parser::expr_list() {
  Expr* first = expr();
  if (!is_op(kComma)) return first;
  Expr* t = make(Expr::Tuple, toks_[p_]);
  t->begin = first->begin;
  t->line = first->line;
  t->col = first->col;
  size_t base = stack_.size();
  stack_.push_back(first);
  while (accept_op(kComma)) {
    if (at_end() || is_op(kAssign) || is_op(kRParen) || is_op(kColon)) break;
    Expr* x = expr();
    stack_.push_back(x);
  }
  t->items = commit(base);
  finish(t);
  return t;
}

Expr* Parser::expr() {
  if (++depth_ > kMaxDepth) {
    --depth_;
    return cut_chain(0);
  }
  Expr* r;
  if (is_name(KwLambda)) {
    r = make(Expr::Lambda, cur());
    ++p_;
    while (!at_end() && !is_op(kColon)) ++p_;
    accept_op(kColon);
    if (!at_end()) r->items = items1(expr());
    finish(r);
  } else {
    if (is_name(KwNot)) {
      r = or_expr();
    } else {
      // Most expressions are one operand (a name, a call, a number): parse it, and walk the
      // or/and/comparison/binary chain only when a token that continues it follows. Same tree
      // and depth accounting as or_expr() from the start (none of those levels counts depth
      // before its first operator).
      r = unary();
      if (continues_operand()) r = or_expr(r);
    }
    if (is_name(KwIf)) {
      Expr* ife = make(Expr::IfExp, cur());
      ife->begin = r->begin;
      ++p_;
      Expr* cond = or_expr();
      Expr* other = nullptr;
      if (is_name(KwElse)) {
        ++p_;
        other = expr();
      }
      if (other) {
        auto** d = static_cast<Expr**>(a_.alloc(3 * sizeof(Expr*), alignof(Expr*)));
        d[0] = r;
        d[1] = cond;
        d[2] = other;
        ife->items = {d, 3};
      } else {
        ife->items = items2(r, cond);
      }
      finish(ife);
      r = ife;
    }
  }
  --depth_;
  return r;
}

Expr* Parser::or_expr(Expr* first) {
  Expr* l = and_expr(first);
  int links = 0;
  while (is_name(KwOr)) {
    if (!link(links)) return cut_chain(links);
    Expr* b = make(Expr::BoolOp, cur());
    b->text = "or";
    b->begin = l->begin;
    ++p_;
    Expr* r = and_expr();
    b->items = items2(l, r);
    finish(b);
    l = b;
  }
  depth_ -= links;
  return l;
}

Expr* Parser::and_expr(Expr* first) {
  Expr* l = first ? comparison(first) : not_expr();
  int links = 0;
  while (is_name(KwAnd)) {
    if (!link(links)) return cut_chain(links);
    Expr* b = make(Expr::BoolOp, cur());
    b->text = "and";
    b->begin = l->begin;
    ++p_;
    Expr* r = not_expr();
    b->items = items2(l, r);
    finish(b);
    l = b;
  }
  depth_ -= links;
  return l;
}

Expr* Parser::not_expr() {
  if (is_name(KwNot)) {
    Expr* u = make(Expr::UnaryOp, cur());
    u->text = "not";
    ++p_;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return cut_chain(0);
    }
    u->items = items1(not_expr());
    --depth_;
    finish(u);
    return u;
  }
  return comparison();
}

bool is_compare_op(uint32_t c) {
  switch (c) {
    case op_code("<"):
    case op_code(">"):
    case op_code("=="):
    case op_code("!="):
    case op_code("<="):
    case op_code(">="):
      return true;
    default:
      return false;
  }
}

Expr* Parser::comparison(Expr* first) {
  Expr* l = binary(0, first);
  int links = 0;
  for (;;) {
    std::string_view op;
    if (!at_end() && cur().kind == Tok::Op && is_compare_op(cur().code)) {
      op = cur().text;
      ++p_;
    } else if (is_name(KwIn)) {
      op = "in";
      ++p_;
    } else if (is_name(KwIs)) {
      op = "is";
      ++p_;
      if (is_name(KwNot)) {
        op = "is not";
        ++p_;
      }
    } else if (is_name(KwNot) && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "in") {
      op = "not in";
      p_ += 2;
    } else {
      break;
    }
    if (!link(links)) return cut_chain(links);
    Expr* c = make(Expr::Compare, toks_[p_ - 1]);
    c->text = op;
    c->begin = l->begin;
    c->line = l->line;
    c->col = l->col;
    Expr* r = binary(0);
    c->items = items2(l, r);
    finish(c);
    l = c;
  }
  depth_ -= links;
  return l;
}

// Binary operator levels, loosest first: | ^ & << >> + - * / // % @
// The level of an operator token, or -1.
int binop_level(const Token& t) {
  if (t.kind != Tok::Op) return -1;
  switch (t.code) {
    case op_code("|"): return 0;
    case op_code("^"): return 1;
    case op_code("&"): return 2;
    case op_code("<<"): case op_code(">>"): return 3;
    case op_code("+"): case op_code("-"): return 4;
    case op_code("*"): case op_code("/"): case op_code("%"): case op_code("@"): case op_code("//"): return 5;
    default: return -1;
  }
}

// Whether the current token can extend an operand into a larger expression: a binary or
// comparison operator, or one of the words or / and / if / in / is / not (not in).
bool Parser::continues_operand() const {
  if (at_end()) return false;
  const Token& t = cur();
  if (t.kind == Tok::Op) return binop_level(t) >= 0 || is_compare_op(t.code);
  if (t.kind != Tok::Name) return false;
  switch (t.code) {
    case KwOr: case KwAnd: case KwIf: case KwIn: case KwIs: case KwNot: return true;
    default: return false;
  }
}

// binary(L) is binary(L + 1) followed by a loop over the operators of level L, for L = 0..5,
// and binary(6) is unary(): unrolled, that is one operand followed by the loops of levels 5, 4,
// ..., L in turn, each taking binary(lev + 1) as its right operand. Same trees, same depth
// accounting (each level's links are released when its loop ends; a cut ends them all), without
// six nested calls for every operand.
Expr* Parser::binary(int level, Expr* first) {
  constexpr int kLevels = 6;
  Expr* l = first ? first : unary();
  if (at_end()) return l;
  int next = binop_level(cur());
  if (next < level) return l;  // the common case: no binary operator follows
  for (int lev = kLevels - 1; lev >= level; --lev) {
    int links = 0;
    while (!at_end() && binop_level(cur()) == lev) {
      if (!link(links)) return cut_chain(links);
      Expr* b = make(Expr::BinOp, cur());
      b->text = cur().text;
      b->begin = l->begin;
      b->line = l->line;
      b->col = l->col;
      ++p_;
      Expr* r = binary(lev + 1);
      b->items = items2(l, r);
      finish(b);
      l = b;
    }
    depth_ -= links;
  }
  return l;
}

Expr* Parser::unary() {
  if (!at_end() && cur().kind == Tok::Op &&
      (cur().code == op_code("-") || cur().code == op_code("+") || cur().code == op_code("~"))) {
    Expr* u = make(Expr::UnaryOp, cur());
    u->text = cur().text;
    ++p_;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return cut_chain(0);
    }
    u->items = items1(unary());
    --depth_;
    finish(u);
    return u;
  }
  return power();
}

Expr* Parser::power() {
  Expr* base = postfix(atom());
  if (is_op(kPow)) {
    int links = 0;
    if (!link(links)) return cut_chain(links);
    Expr* b = make(Expr::BinOp, cur());
    b->text = "**";
    b->begin = base->begin;
    b->line = base->line;
    b->col = base->col;
    ++p_;
    Expr* r = unary();
    b->items = items2(base, r);
    depth_ -= links;
    finish(b);
    return b;
  }
  return base;
}

// Skips a comprehension's `for ...` up to the closing bracket (not consumed).
void Parser::skip_comprehension() {
  int d = 0;
  while (!at_end()) {
    const Token& t = cur();
    if (t.kind == Tok::Op) {
      if (t.code == kLParen || t.code == kLBrack || t.code == kLBrace) ++d;
      if (t.code == kRParen || t.code == kRBrack || t.code == kRBrace) {
        if (d == 0) break;
        --d;
      }
    }
    ++p_;
  }
}

void Parser::call_args(Expr& call) {
  // After '(' : positional, keyword, *args, **kwargs, generator expressions (skipped as Other).
  size_t base = stack_.size(), kbase = kwstack_.size();
  while (!at_end() && !is_op(kRParen)) {
    if (!at_end() && cur().kind == Tok::Name && p_ + 1 < stmt_end_ && toks_[p_ + 1].kind == Tok::Op &&
        toks_[p_ + 1].code == kAssign) {
      std::string_view key = cur().text;
      p_ += 2;
      Expr* v = expr();
      kwstack_.emplace_back(key, v);
    } else if (is_op(kPow)) {
      ++p_;
      Expr* v = expr();
      kwstack_.emplace_back("**", v);
    } else if (is_op(kStar)) {
      Expr* s = make(Expr::Starred, cur());
      ++p_;
      s->items = items1(expr());
      finish(s);
      stack_.push_back(s);
    } else {
      Expr* a = expr();
      if (is_name(KwFor)) {
        // A generator expression argument: keep it as Other up to the matching ')'.
        skip_comprehension();
        Expr* o = make(Expr::Other, toks_[p_ - 1]);
        o->begin = a->begin;
        finish(o);
        a = o;
      }
      stack_.push_back(a);
    }
    if (!accept_op(kComma)) break;
  }
  if (!accept_op(kRParen)) {
    issue(cur(), "expected ')' to close the call");
    while (!at_end() && !is_op(kRParen)) ++p_;
    accept_op(kRParen);
  }
  call.items = commit(base);
  call.kwargs = a_.copy(kwstack_.data() + kbase, kwstack_.size() - kbase);
  kwstack_.resize(kbase);
}

Expr* Parser::postfix(Expr* base) {
  int links = 0;
  for (;;) {
    if (at_end() || cur().kind != Tok::Op) break;
    uint32_t code = cur().code;
    if (code != kDot && code != kLParen && code != kLBrack) break;
    if (!link(links)) return cut_chain(links);
    if (code == kDot) {
      ++p_;
      if (at_end() || cur().kind != Tok::Name) {
        issue(cur(), "expected a name after '.'");
        depth_ -= links;
        return base;
      }
      Expr* a = make(Expr::Attribute, cur());
      a->text = cur().text;
      a->func = base;
      a->begin = base->begin;
      a->line = base->line;
      a->col = base->col;
      ++p_;
      finish(a);
      base = a;
    } else if (code == kLParen) {
      Expr* c = make(Expr::Call, cur());
      c->func = base;
      c->begin = base->begin;
      c->line = base->line;
      c->col = base->col;
      ++p_;
      if (++depth_ > kMaxDepth) {
        --depth_;
        return cut_chain(links);
      }
      call_args(*c);
      --depth_;
      finish(c);
      base = c;
    } else {
      Expr* s = make(Expr::Subscript, cur());
      s->begin = base->begin;
      s->line = base->line;
      s->col = base->col;
      ++p_;
      if (++depth_ > kMaxDepth) {
        --depth_;
        return cut_chain(links);
      }
      Expr* idx = bracketed(']', Expr::Tuple);
      --depth_;
      // A single index is not a tuple.
      if (idx->items.size() == 1 && idx->text != ",") s->items = items2(base, idx->items[0]);
      else s->items = items2(base, idx);
      finish(s);
      base = s;
    }
  }
  depth_ -= links;
  return base;
}

// Parses elements up to `close` (the opener is already consumed). Handles slices a:b:c and
// dict entries k: v (as alternating items for Dict).
Expr* Parser::bracketed(char close, Expr::Kind kind) {
  const uint32_t kClose = static_cast<unsigned char>(close);
  Expr* e = make(kind, toks_[p_ - 1]);
  bool saw_comma = false;
  size_t base = stack_.size();
  while (!at_end() && !is_op(kClose)) {
    Expr* item;
    if (is_op(kPow)) {
      ++p_;
      item = expr();
    } else if (is_op(kStar)) {
      Expr* s = make(Expr::Starred, cur());
      ++p_;
      s->items = items1(expr());
      finish(s);
      item = s;
    } else if (is_op(kColon)) {
      item = make(Expr::Slice, cur());
    } else {
      item = expr();
    }
    if (is_op(kColon)) {
      if (kind == Expr::Dict || (kind == Expr::Set && stack_.size() == base)) {
        // Dict entry.
        e->kind = Expr::Dict;
        kind = Expr::Dict;
        ++p_;
        stack_.push_back(item);
        Expr* v = expr();
        stack_.push_back(v);
      } else {
        Expr* sl = make(Expr::Slice, cur());
        sl->begin = item->begin;
        size_t sbase = stack_.size();
        if (item->kind != Expr::Slice) stack_.push_back(item);
        while (accept_op(kColon)) {
          if (!at_end() && !is_op(kClose) && !is_op(kComma) && !is_op(kColon)) {
            Expr* x = expr();
            stack_.push_back(x);
          }
        }
        sl->items = commit(sbase);
        finish(sl);
        stack_.push_back(sl);
      }
    } else {
      stack_.push_back(item);
    }
    if (is_name(KwFor)) {
      // Comprehension: skip to the closing bracket.
      skip_comprehension();
      e->kind = Expr::Other;
    }
    if (accept_op(kComma)) saw_comma = true;
    else break;
  }
  if (!accept_op(kClose)) {
    issue(cur(), std::string("expected '") + close + "'");
    while (!at_end() && !is_op(kClose)) ++p_;
    accept_op(kClose);
  }
  e->items = commit(base);
  // `(x)` is x itself, not a tuple; `(x,)` is a tuple. Encoded by text "," for a comma seen.
  if (saw_comma) e->text = ",";
  finish(e);
  return e;
}

Expr* Parser::atom() {
  if (at_end()) return make(Expr::Other, cur());
  const Token& t = cur();
  if (t.kind == Tok::Name) {
    ++p_;
    Expr* e = make(Expr::Name, t);
    e->text = t.text;
    return e;
  }
  if (t.kind == Tok::Number) {
    ++p_;
    Expr* e = make(Expr::Number, t);
    e->text = t.text;
    return e;
  }
  if (t.kind == Tok::String) {
    Expr* e = make(Expr::String, t);
    e->text = t.text;
    ++p_;
    // Adjacent literals concatenate (into the arena: the pieces are not contiguous in the source).
    if (!at_end() && cur().kind == Tok::String) {
      std::string joined(t.text);
      while (!at_end() && cur().kind == Tok::String) {
        joined += cur().text;
        ++p_;
      }
      e->text = a_.copy(joined);
    }
    finish(e);
    return e;
  }
  if (t.kind == Tok::Op) {
    if (t.code == kLParen) {
      ++p_;
      Expr* e = bracketed(')', Expr::Tuple);
      if (e->items.size() == 1 && e->text != "," && e->kind == Expr::Tuple) {
        // A parenthesized expression: the node is the inner one, and its source range covers
        // the parentheses, so that the text of any enclosing expression stays balanced.
        Expr* inner = e->items[0];
        inner->begin = e->begin;
        inner->end = e->end;
        return inner;
      }
      return e;
    }
    if (t.code == kLBrack) {
      ++p_;
      return bracketed(']', Expr::List);
    }
    if (t.code == kLBrace) {
      ++p_;
      return bracketed('}', Expr::Set);
    }
    if (t.code == kEllipsis) {
      ++p_;
      return make(Expr::Ellipsis, t);
    }
  }
  issue(t, "unexpected '" + token_text(t, 20) + "'");
  ++p_;
  return make(Expr::Other, t);
}

void Parser::parse_statement(Stmt& s) {
  const Token& first = cur();
  s.line = first.line + m_.line_offset;
  s.col = first.col;
  s.begin = first.begin;
  auto kw = [&](Kw k) { return is_name(k); };
  // Most statements start with a plain name (an assignment or a call): none of the keyword
  // branches below can apply.
  bool keyword_or_at = !at_end() && ((first.kind == Tok::Name && first.code != KwNone) ||
                                     (first.kind == Tok::Op && first.code == kAt));
  if (!keyword_or_at) {
    parse_simple(s);
  } else if (is_op(kAt)) {
    s.kind = Stmt::Decorator;
    ++p_;
    s.value = expr();
  } else if (kw(KwDef) || (kw(KwAsync) && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "def")) {
    if (kw(KwAsync)) ++p_;
    ++p_;
    s.kind = Stmt::Def;
    if (!at_end() && cur().kind == Tok::Name) {
      s.name = cur().text;
      ++p_;
    }
    if (accept_op(kLParen)) {
      size_t pbase = params_.size();
      while (!at_end() && !is_op(kRParen)) {
        const Token* star = nullptr;
        const Token* name = nullptr;
        if (is_op(kStar) || is_op(kPow)) {
          star = &cur();
          ++p_;
        }
        if (!at_end() && cur().kind == Tok::Name) {
          name = &cur();
          ++p_;
        }
        std::string_view pname;
        if (star && name) pname = a_.copy(std::string(star->text) + std::string(name->text));
        else if (star) pname = star->text;
        else if (name) pname = name->text;
        Expr* ann = nullptr;
        if (accept_op(kColon)) ann = expr();
        if (accept_op(kAssign)) expr();
        if (!pname.empty()) params_.emplace_back(pname, ann);
        if (!accept_op(kComma)) break;
      }
      accept_op(kRParen);
      s.params = a_.copy(params_.data() + pbase, params_.size() - pbase);
      params_.resize(pbase);
    }
    if (accept_op(kArrow)) expr();
    accept_op(kColon);
  } else if (kw(KwClass)) {
    s.kind = Stmt::Class;
    ++p_;
    if (!at_end() && cur().kind == Tok::Name) {
      s.name = cur().text;
      ++p_;
    }
    skip_to_end();
  } else if (kw(KwReturn)) {
    s.kind = Stmt::Return;
    ++p_;
    if (!at_end()) s.value = expr_list();
  } else if (kw(KwDel)) {
    s.kind = Stmt::Del;
    ++p_;
    Expr* v = expr_list();
    if (v->kind == Expr::Tuple) s.targets = v->items;
    else s.targets = items1(v);
  } else if (kw(KwWith) || (kw(KwAsync) && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "with")) {
    if (kw(KwAsync)) ++p_;
    s.kind = Stmt::With;
    ++p_;
    s.value = expr_list();
    skip_to_end();
  } else if (kw(KwFor)) {
    s.kind = Stmt::For;
    ++p_;
    Expr* tgt = binary(0);
    if (is_op(kComma)) {
      while (accept_op(kComma)) binary(0);
    }
    s.targets = items1(tgt);
    if (kw(KwIn)) {
      ++p_;
      s.value = expr_list();
    }
    skip_to_end();
  } else if (kw(KwWhile) || kw(KwIf) || kw(KwElif)) {
    s.kind = kw(KwWhile) ? Stmt::While : (kw(KwIf) ? Stmt::If : Stmt::Elif);
    ++p_;
    s.value = expr();
    skip_to_end();
  } else if (kw(KwElse) || kw(KwTry) || kw(KwFinally)) {
    s.kind = kw(KwElse) ? Stmt::Else : (kw(KwTry) ? Stmt::Try : Stmt::Finally);
    skip_to_end();
  } else if (kw(KwExcept)) {
    s.kind = Stmt::Except;
    skip_to_end();
  } else if (kw(KwImport) || kw(KwFrom)) {
    s.kind = Stmt::Import;
    skip_to_end();
  } else if (kw(KwPass) || kw(KwBreak) || kw(KwContinue) || kw(KwRaise) || kw(KwGlobal) || kw(KwNonlocal) ||
             kw(KwAssert)) {
    s.kind = kw(KwPass) ? Stmt::Pass : Stmt::Other;
    skip_to_end();
  } else {
    parse_simple(s);
  }
  if (!at_end()) {
    issue(cur(), "unexpected '" + token_text(cur(), 20) + "' in statement");
    skip_to_end();
  }
  // An empty statement (`x = 1;  ;y`) consumes no token: its range is empty at its start, not
  // ending at the previous token (found by fuzz_python: a range with end < begin).
  s.end = p_ > 0 ? std::max(s.begin, toks_[p_ - 1].end) : s.begin;
}

// Assignments (plain, annotated, augmented) and expression statements.
void Parser::parse_simple(Stmt& s) {
  {
    Expr* lhs = expr_list();
    if (is_op(kColon) && lhs->kind == Expr::Name) {
      // Annotated assignment: `add: "bf16[8, 1, 5, 15]" = torch.ops.aten.add.Tensor(...)`.
      ++p_;
      s.kind = Stmt::AnnAssign;
      s.targets = items1(lhs);
      s.annotation = expr();
      if (accept_op(kAssign)) s.value = expr_list();
    } else if (is_op(kAssign)) {
      s.kind = Stmt::Assign;
      size_t base = stack_.size();
      stack_.push_back(lhs);
      while (accept_op(kAssign)) {
        Expr* v = expr_list();
        if (is_op(kAssign)) stack_.push_back(v);
        else s.value = v;
      }
      s.targets = commit(base);
    } else if (!at_end() && cur().kind == Tok::Op && cur().text.size() >= 2 && cur().text.back() == '=' &&
               cur().text != "==" && cur().text != "<=" && cur().text != ">=" && cur().text != "!=") {
      s.kind = Stmt::AugAssign;
      s.targets = items1(lhs);
      ++p_;
      s.value = expr_list();
    } else {
      s.kind = Stmt::ExprStmt;
      s.value = lhs;
    }
  }
}

void Parser::parse_piece() {
  p_ = 0;
  auto& pending_comments = pending_comments_;
  int& last_comment_line = last_comment_line_;
  int& indent = indent_;
  auto& defs = defs_;
  bool& new_line = new_line_;
  int& last_stmt_line = last_stmt_line_;
  while (p_ < toks_.size() && toks_[p_].kind != Tok::End) {
    const Token& t = toks_[p_];
    if (t.kind == Tok::Comment) {
      // A comment starts a new block of comments unless it follows the previous one directly.
      // A comment on a later line than the last statement's end stands alone even when no
      // Newline token came between (the tokenizer emits none after a trailing comment).
      bool standalone = new_line || t.line != last_stmt_line;
      if (standalone) {
        if (t.line != last_comment_line + 1) pending_comments.clear();
        pending_comments.push_back(t);
        last_comment_line = t.line;
      } else if (!m_.stmts.empty()) {
        m_.stmts.back().trailing_comment = t.text;
      }
      ++p_;
      continue;
    }
    if (t.kind == Tok::Newline) {
      new_line = true;
      ++p_;
      continue;
    }
    if (t.kind == Tok::Indent) {
      indent = t.width;
      new_line = true;
      ++p_;
      continue;
    }
    // A statement: find its end (Newline or ';' at bracket depth 0; the tokenizer already
    // suppressed newlines inside brackets, so only ';' needs a depth count here).
    size_t e = p_;
    int d = 0;
    while (e < toks_.size()) {
      const Token& x = toks_[e];
      if (x.kind == Tok::Newline || x.kind == Tok::End || x.kind == Tok::Comment) break;
      if (x.kind == Tok::Op) {
        uint32_t c = x.code;
        if (c == kLParen || c == kLBrack || c == kLBrace) ++d;
        if (c == kRParen || c == kRBrack || c == kRBrace) --d;
        if (c == kSemi && d <= 0) break;
      }
      // A compound statement header ends at its ':' when a body follows on the same line
      // (`if x: y`); that is rare in generated code and parsed as one statement.
      ++e;
    }
    stmt_end_ = e;
    too_deep_reported_ = false;
    Stmt& s = m_.stmts.emplace_back();  // parsed in place (nothing else is appended meanwhile)
    s.indent = indent;
    if (new_line) {
      if (!pending_comments.empty() && pending_comments.back().line >= t.line - 1)
        s.comments_above = a_.copy(pending_comments.data(), pending_comments.size());
      pending_comments.clear();
      while (!defs.empty() && defs.back().first >= indent) defs.pop_back();
    }
    s.enclosing_def = defs.empty() ? std::string_view() : defs.back().second;
    s.def_depth = static_cast<int>(defs.size());
    parse_statement(s);
    if (s.kind == Stmt::Def) defs.emplace_back(indent, s.name);
    last_stmt_line = e > 0 ? toks_[e - 1].line : -1;
    p_ = e;
    if (p_ < toks_.size() && toks_[p_].kind == Tok::Op && toks_[p_].code == kSemi) ++p_;
    new_line = false;
    last_comment_line = -10;
  }
}

void Parser::finish() {
  if (dropped_issues_)
    issues_.push_back({dropped_at_.first, dropped_at_.second,
                       "and " + std::to_string(dropped_issues_) + " more syntax problem(s) from here on (not listed)"});
}

// Tokenizes and parses `source` a piece of about `piece` tokens at a time (SIZE_MAX: at once),
// calling `each(m)` after each piece with its statements in m.stmts; `m.issues` gathers the
// issues of all pieces.
template <class Each>
void parse_pieces(Module& m, std::string_view source, int line_offset, size_t piece, Each&& each) {
  m.source = source;
  m.line_offset = line_offset;
  // The nodes take a few times the bytes of dense code; string literals (kernel sources inside
  // output_code.py) take none. The first block is sized from the source, then blocks double.
  m.arena.reserve_first(std::clamp<size_t>(std::min(source.size(), piece) * 2, 1024, size_t(1) << 20));
  // The token vector is scratch: one per thread (and per instantiation of this template: the
  // readers' parse_module_by_pieces share one), reused across modules (no regrowth, no page faults
  // for every file), unless a huge file made it huge.
  thread_local std::vector<Token> toks;
  // A Triton kernel's source is parsed inside output_code.py's piece (from `each`), with the same
  // vector: only the outermost parse gives a huge vector back, or the file's next piece would
  // grow one again from nothing, old and new arrays alive at each doubling.
  thread_local int depth = 0;
  struct Nested {
    int& d;
    explicit Nested(int& depth) : d(depth) { ++d; }
    ~Nested() { --d; }
  } nested(depth);
  toks.clear();
  // The token vector's memory (its reservation, growth and release) is the thread's scratch, not
  // the model of what is read: it is left out of the memory budget (heap_budget.h).
  // About one token per 5 bytes in Inductor output: one reservation instead of ~15 regrowths. A
  // piece ends at the first line's end past `piece` tokens, a few tokens on; a longer line grows
  // the vector in tokenize_piece (reserving for the longest, kMaxLineTokens, would hold 7 MB more
  // on every large file).
  {
    HeapUncounted scratch;
    toks.reserve(std::min(source.size() / 5, piece + piece / 16) + 16);
  }
  TokenizerState st;
  Parser parser(toks, m, m.issues);
  std::vector<ParseIssue> token_issues;
  for (bool last = false; !last;) {
    toks.clear();
    {
      HeapUncounted scratch;
      last = tokenize_piece(source, st, toks, &token_issues, piece);
    }
    for (auto& i : token_issues) m.issues.push_back({i.line + line_offset, i.col, std::move(i.message)});
    token_issues.clear();
    m.stmts.reserve(toks.size() / 10 + 4);  // about one statement per 12 tokens in Inductor output
    parser.parse_piece();
    if (last) parser.finish();
    each(m);
  }
  constexpr size_t kKeepTokens = size_t(1) << 16;  // ~4.5 MB: kept for the next file, more is given back
  if (depth == 1 && toks.capacity() > kKeepTokens) {
    HeapUncounted scratch;
    std::vector<Token>().swap(toks);
  }
}

void parse_into(Module& m, std::string_view source, int line_offset) {
  parse_pieces(m, source, line_offset, SIZE_MAX, [](Module&) {});
}

}  // namespace

void parse_module_by_pieces(std::string_view source, int line_offset, std::vector<ParseIssue>& issues,
                            const std::function<void(const Module&)>& each, size_t piece_tokens) {
  // The default, 64k tokens: a few MB of tokens and nodes, whatever the size of the source.
  Module m;
  parse_pieces(m, source, line_offset, std::max<size_t>(piece_tokens, 1), [&](Module& piece) {
    each(piece);
    piece.stmts.clear();
    piece.arena.clear();
  });
  issues = std::move(m.issues);
}

Module parse_module(std::string source, int line_offset) {
  Module m;
  m.owned_source = std::make_unique<std::string>(std::move(source));
  parse_into(m, *m.owned_source, line_offset);
  return m;
}

Module parse_module_view(std::string_view source, int line_offset) {
  Module m;
  parse_into(m, source, line_offset);
  return m;
}

}  // namespace ilint::py
