#include "analyzer/parse/triton_decorator.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace ilint::scan {

namespace {

constexpr std::string_view kMark = "\n@triton_heuristics.";
// The Python parser cuts expressions deeper than 200 levels (a diagnostic): a call or bracket
// level takes it at most 4 (expression, chain link, call, operand), a name of a dotted chain 1.
// The reader counts the same way and answers Unsure past half of that.
constexpr int kLevelCost = 4;
constexpr int kMaxDepth = 100;

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Python's reserved words (True, False and None are names to the parser and stay accepted).
// By first byte, then the spelling: most names in a decorator (True, DeviceProperties,
// size_hints) fail at the first test.
bool reserved(std::string_view w) {
  if (w.size() < 2 || w.size() > 8) return false;
  auto any = [&](std::initializer_list<std::string_view> ks) {
    for (std::string_view k : ks)
      if (w == k) return true;
    return false;
  };
  switch (w[0]) {
    case 'a': return any({"and", "as", "assert", "async", "await"});
    case 'b': return w == "break";
    case 'c': return any({"class", "continue"});
    case 'd': return any({"def", "del"});
    case 'e': return any({"elif", "else", "except"});
    case 'f': return any({"finally", "for", "from"});
    case 'g': return w == "global";
    case 'i': return any({"if", "import", "in", "is"});
    case 'l': return w == "lambda";
    case 'n': return any({"nonlocal", "not"});
    case 'o': return w == "or";
    case 'p': return w == "pass";
    case 'r': return any({"raise", "return"});
    case 't': return w == "try";
    case 'w': return any({"while", "with"});
    case 'y': return w == "yield";
    default: return false;
  }
}

// The first byte at or after k that is the quote q, a backslash, '\n' or '\r' (or n): eight
// bytes at a time, as most of a decorator's bytes are inside short string literals.
size_t string_stop(const char* s, size_t k, size_t n, char q) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const uint64_t quote = kOnes * static_cast<unsigned char>(q), bs = kOnes * '\\', nl = kOnes * '\n', cr = kOnes * '\r';
  auto zero_byte = [&](uint64_t v) { return (v - kOnes) & ~v & kHighs; };
  for (; std::endian::native == std::endian::little && k + 8 <= n; k += 8) {
    uint64_t x;
    std::memcpy(&x, s + k, 8);
    uint64_t hit = zero_byte(x ^ quote) | zero_byte(x ^ bs) | zero_byte(x ^ nl) | zero_byte(x ^ cr);
    if (hit) return k + static_cast<size_t>(std::countr_zero(hit) / 8);
  }
  while (k < n && s[k] != q && s[k] != '\\' && s[k] != '\n' && s[k] != '\r') ++k;
  return k;
}

// What a value parse captures: nothing, or the entries of the two meta dicts the reader uses.
enum class Capture { None, TritonMeta, InductorMeta };

// A recursive reader over one decorator's characters. Every method returns false for "not in
// the grammar" (the answer is then Unsure); positions only move forward.
class Reader {
 public:
  Reader(std::string_view s, size_t i, TritonDecorator& out) : s_(s), i_(i), out_(out) {}

  size_t pos() const { return i_; }

  // `(` args `)` of a call; i_ is at the '('. At the decorator's own level (`top`), the
  // triton_meta and inductor_meta keyword values are read for their entries.
  bool call_args(bool top) {
    if (!enter()) return false;
    bool seen_triton_meta = false, seen_inductor_meta = false, seen_keyword = false;
    bool ok = items(')', [&] {
      size_t start = i_;
      std::string_view key;
      if (ident_start(peek())) {
        key = ident();
        ws();
        if (at('=') && peek(1) != '=') {
          ++i_;
          ws();
        } else {
          key = {};
          i_ = start;
        }
      }
      if (key.empty()) return !seen_keyword && value(Capture::None);  // no positional after a keyword
      seen_keyword = true;
      if (reserved(key)) return false;
      Capture c = Capture::None;
      if (top && key == "triton_meta") {
        if (seen_triton_meta) return false;
        seen_triton_meta = true;
        c = Capture::TritonMeta;
      } else if (top && key == "inductor_meta") {
        if (seen_inductor_meta) return false;
        seen_inductor_meta = true;
        c = Capture::InductorMeta;
      }
      // The reader takes a meta entry from a dict display only: anything else (a name, a
      // parenthesized dict) would need the parser's view of it.
      if (c != Capture::None && !at('{')) return false;
      return value(c);
    });
    leave();
    return ok;
  }

 private:
  std::string_view s_;
  size_t i_;
  TritonDecorator& out_;
  int depth_ = 0;  // the parser's depth, over-counted (kLevelCost, one per chained name)

  char peek(size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
  // Inside brackets a line end is white space (no form feeds, no CRs: Unsure on those).
  void ws() {
    for (; i_ < s_.size(); ++i_) {
      char c = s_[i_];
      if (c == '\n') ++out_.line_ends;
      else if (c != ' ' && c != '\t') break;
    }
  }
  bool enter() { return (depth_ += kLevelCost) <= kMaxDepth; }
  void leave() { depth_ -= kLevelCost; }

  std::string_view ident() {
    size_t b = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    return s_.substr(b, i_ - b);
  }

  // After an element: white space, then ',' (and white space) or the closer, which is left
  // for the caller's loop to see.
  bool separator(char close) {
    ws();
    if (at(',')) {
      ++i_;
      ws();
      return true;
    }
    return at(close);
  }

  // The elements of a bracketed display or argument list: i_ at the opener; `element` reads one
  // element at i_; elements are separated by ',' (a trailing one allowed); i_ ends past `close`.
  template <class Element>
  bool items(char close, Element element) {
    ++i_;
    ws();
    while (!at(close)) {
      if (!element() || !separator(close)) return false;
    }
    ++i_;
    return true;
  }

  // A string literal without prefix, escapes or line ends, not followed by another literal
  // (adjacent literals concatenate in the parser). i_ is at the quote.
  bool string(std::string_view* text) {
    char q = s_[i_];
    if (peek(1) == q && peek(2) == q) return false;  // triple-quoted
    size_t b = i_ + 1, k = string_stop(s_.data(), b, s_.size(), q);
    if (k >= s_.size() || s_[k] != q) return false;
    if (text) *text = s_.substr(b, k - b);
    i_ = k + 1;
    size_t j = i_;
    while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t' || s_[j] == '\n')) ++j;
    return j >= s_.size() || (s_[j] != '\'' && s_[j] != '"');
  }

  // A string literal that must be here (string_list, string_dict).
  bool plain_string(std::string_view& text) { return (at('\'') || at('"')) && string(&text); }

  // digits [. digits*] [e [+-] digits], ending where the tokenizer's number ends.
  bool number() {
    while (digit(peek())) ++i_;
    if (at('.')) {
      ++i_;
      while (digit(peek())) ++i_;
    }
    if (at('e') || at('E')) {
      ++i_;
      if (at('+') || at('-')) ++i_;
      if (!digit(peek())) return false;
      while (digit(peek())) ++i_;
    }
    char c = peek();
    return !(ident_char(c) || c == '.' || c == '\'' || c == '"');
  }

  // name(.name)* [call]
  bool name_chain() {
    int links = 0;
    for (;;) {
      if (reserved(ident())) return false;
      if (++links + depth_ > kMaxDepth) return false;
      if (!at('.')) break;
      ++i_;
      if (!ident_start(peek())) return false;
    }
    char c = peek();
    if (c == '\'' || c == '"') return false;  // a string prefix (r'', b'', f'')
    if (c != '(') return true;
    depth_ += links;  // the call's arguments are parsed inside the chain
    bool ok = call_args(false);
    depth_ -= links;
    return ok;
  }

  // [ a, b ] or ( a, b ); i_ at the opener.
  bool sequence(char close) {
    if (!enter()) return false;
    bool ok = items(close, [&] { return value(Capture::None); });
    leave();
    return ok;
  }

  // A list display of plain strings: mutated_arg_names.
  bool string_list() {
    return at('[') && items(']', [&] {
      std::string_view t;
      if (!plain_string(t)) return false;
      out_.mutated_args.push_back(t);
      return true;
    });
  }

  // A dict display of plain strings to plain strings: the signature.
  bool string_dict() {
    return at('{') && items('}', [&] {
      std::string_view k, v;
      if (!plain_string(k)) return false;
      ws();
      if (!at(':')) return false;
      ++i_;
      ws();
      if (!plain_string(v)) return false;
      out_.signature.emplace_back(k, v);
      return true;
    });
  }

  // { k: v, ... } or { a, b }; i_ at the '{'. With a capture, the first entry under the key the
  // reader uses is read by its own rule (the parser's dict lookup takes the first).
  bool dict_or_set(Capture capture) {
    if (!enter()) return false;
    enum { Unknown, Dict, Set } kind = Unknown;
    bool captured = false;
    bool ok = items('}', [&] {
      std::string_view key;
      bool key_is_string = at('\'') || at('"');
      if (key_is_string ? !string(&key) : !value(Capture::None)) return false;
      ws();
      if (!at(':')) {
        if (kind == Dict) return false;
        kind = Set;
        return true;
      }
      if (kind == Set) return false;
      kind = Dict;
      ++i_;
      ws();
      if (key_is_string && !captured && capture == Capture::TritonMeta && key == "signature") {
        captured = true;
        return string_dict();
      }
      if (key_is_string && !captured && capture == Capture::InductorMeta && key == "mutated_arg_names") {
        captured = true;
        out_.has_mutated_args = true;
        return string_list();
      }
      return value(Capture::None);
    });
    leave();
    return ok;
  }


  bool value(Capture capture) {
    char c = peek();
    if (c == '\'' || c == '"') return string(nullptr);
    if (digit(c)) return number();
    if (c == '-' && digit(peek(1))) {
      ++i_;
      return number();
    }
    if (ident_start(c)) return name_chain();
    if (c == '[') return sequence(']');
    if (c == '(') return sequence(')');
    if (c == '{') return dict_or_set(capture);
    return false;
  }
};

// Before the decorator, the tokenizer must be at the start of a line at bracket depth 0: no
// string, comment or line join can be open.
enum PrefixByte : uint8_t { Plain, Opener, Closer, Refused };
struct PrefixTable {
  uint8_t c[256] = {};
  constexpr PrefixTable() {
    for (unsigned char x : std::string_view("'\"#\\", 4)) c[x] = Refused;
    c[0] = Refused;  // the tokenizer counts NUL as a bracket
    for (unsigned char x : std::string_view("([{")) c[x] = Opener;
    for (unsigned char x : std::string_view(")]}")) c[x] = Closer;
  }
};
constexpr PrefixTable kPrefixBytes;

bool prefix_is_plain(std::string_view prefix) {
  int depth = 0;
  for (char ch : prefix) {
    uint8_t k = kPrefixBytes.c[static_cast<unsigned char>(ch)];
    if (k == Plain) continue;  // nearly every byte
    if (k == Refused) return false;
    if (k == Opener) ++depth;
    else depth = depth > 0 ? depth - 1 : 0;  // the tokenizer's count: never below 0
  }
  return depth == 0;
}

// Every '@' in `s` begins `@triton.jit` and its line: then no statement there is a decorator that
// names triton_heuristics (a decorator starts with '@'). An '@' anywhere else (a matmul, inside a
// string or a comment) answers no, which only sends the source to the parser.
bool only_jit_decorators(std::string_view s) {
  constexpr std::string_view kJit = "@triton.jit";
  for (size_t k = s.find('@'); k != std::string_view::npos; k = s.find('@', k + 1)) {
    if (s.substr(k, kJit.size()) != kJit) return false;
    size_t e = k + kJit.size();
    if (e < s.size() && s[e] != '\n') return false;
  }
  return true;
}

// The first line after `from` that holds code (not blank, not only a comment) starts at column 0.
// The decorator, a statement at column 0, closes every `def` above it (a helper's body); without
// it, an indented line that follows would be read as part of that body. Found by fuzz_triton.
bool next_code_line_unindented(std::string_view s, size_t from) {
  for (size_t k = from; k < s.size();) {
    size_t j = k;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f')) ++j;
    if (j < s.size() && s[j] == '\r') return false;
    if (j < s.size() && s[j] != '\n' && s[j] != '#') return j == k;
    size_t nl = s.find('\n', j);
    if (nl == std::string_view::npos) return true;
    if (s.substr(j, nl - j).find('\r') != std::string_view::npos) return false;
    k = nl + 1;
  }
  return true;
}

}  // namespace

Match triton_decorator(std::string_view source, TritonDecorator& out) {
  out = TritonDecorator{};
  size_t at;
  if (source.substr(0, kMark.size() - 1) == kMark.substr(1)) at = 0;
  else if ((at = source.find(kMark)) != std::string_view::npos) ++at;
  else return Match::Unsure;
  if (!prefix_is_plain(source.substr(0, at)) || !only_jit_decorators(source.substr(0, at))) return Match::Unsure;

  size_t i = at + kMark.size() - 1;  // after "@triton_heuristics."
  size_t kb = i;
  while (i < source.size() && ident_char(source[i])) ++i;
  if (i == kb || !ident_start(source[kb]) || i >= source.size() || source[i] != '(') return Match::Unsure;
  out.kind = source.substr(kb, i - kb);

  Reader r(source, i, out);
  if (!r.call_args(true)) return Match::Unsure;
  i = r.pos();
  while (i < source.size() && (source[i] == ' ' || source[i] == '\t')) ++i;
  if (i < source.size() && source[i] != '\n') return Match::Unsure;
  if (!only_jit_decorators(source.substr(i)) || !next_code_line_unindented(source, i)) return Match::Unsure;
  out.begin = at;
  out.end = i;
  return Match::Yes;
}

}  // namespace ilint::scan
