#include "analyzer/parse/python.h"

#include <cctype>
#include <cstdlib>
#include <cstring>

namespace ilint::py {

// ---------------------------------------------------------------- Expr helpers

std::string Expr::dotted() const {
  if (kind == Name) return text;
  if (kind == Attribute && func) {
    std::string base = func->dotted();
    if (base.empty()) return "";
    return base + "." + text;
  }
  return "";
}

const Expr* Expr::kwarg(std::string_view name) const {
  for (auto& [k, v] : kwargs)
    if (k == name) return v.get();
  return nullptr;
}

std::string normalize_space(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool number_value(const std::string& text, double& out) {
  std::string t;
  for (char c : text)
    if (c != '_') t += c;
  if (t.empty()) return false;
  char* end = nullptr;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    out = static_cast<double>(std::strtoull(t.c_str() + 2, &end, 16));
    return end && *end == '\0';
  }
  if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) return false;
  out = std::strtod(t.c_str(), &end);
  return end && *end == '\0';
}

// ---------------------------------------------------------------- Tokenizer

namespace {

bool is_ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool is_ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

}  // namespace

std::vector<Token> tokenize(std::string_view src, std::vector<ParseIssue>* issues) {
  std::vector<Token> toks;
  // About one token per 5 bytes in Inductor output: one reservation instead of ~15 regrowths.
  toks.reserve(src.size() / 5 + 16);
  size_t i = 0, n = src.size();
  int line = 1;
  size_t line_start = 0;
  int depth = 0;          // bracket depth: newlines inside brackets are not logical ends
  bool at_line_start = true;
  auto col_of = [&](size_t pos) { return static_cast<int>(pos - line_start) + 1; };
  auto issue = [&](int l, int c, std::string msg) {
    if (issues) issues->push_back({l, c, std::move(msg)});
  };
  while (i < n) {
    char c = src[i];
    if (at_line_start) {
      // Indentation: emit an Indent token carrying the width of the leading whitespace, for
      // lines that hold code (blank and comment-only lines carry no indentation meaning).
      size_t j = i;
      int width = 0;
      while (j < n && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f')) {
        width += src[j] == '\t' ? 8 - (width % 8) : 1;
        ++j;
      }
      at_line_start = false;
      if (depth == 0 && j < n && src[j] != '\n' && src[j] != '\r' && src[j] != '#') {
        Token t;
        t.kind = Tok::Indent;
        t.text = std::to_string(width);
        t.line = line;
        t.col = 1;
        t.begin = i;
        t.end = j;
        toks.push_back(std::move(t));
      }
      i = j;
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < n && src[i + 1] == '\n') ++i;
      if (depth == 0 && !toks.empty() && toks.back().kind != Tok::Newline && toks.back().kind != Tok::Comment &&
          toks.back().kind != Tok::Indent) {
        Token t;
        t.kind = Tok::Newline;
        t.line = line;
        t.col = col_of(i);
        t.begin = t.end = i;
        toks.push_back(std::move(t));
      }
      ++i;
      ++line;
      line_start = i;
      at_line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\f') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
      // Explicit line joining.
      i += 1;
      if (src[i] == '\r' && i + 1 < n && src[i + 1] == '\n') ++i;
      ++i;
      ++line;
      line_start = i;
      continue;
    }
    if (c == '#') {
      size_t j = i;
      while (j < n && src[j] != '\n' && src[j] != '\r') ++j;
      if (depth > 0) {
        // Comments inside brackets carry nothing the analyzer reads; dropping them keeps
        // every statement's tokens contiguous.
        i = j;
        continue;
      }
      Token t;
      t.kind = Tok::Comment;
      t.text = std::string(src.substr(i, j - i));
      t.line = line;
      t.col = col_of(i);
      t.begin = i;
      t.end = j;
      toks.push_back(std::move(t));
      i = j;
      continue;
    }
    // String literal, with optional prefix.
    {
      size_t j = i;
      while (j < n && j - i < 3 && std::strchr("rRbBuUfF", src[j]) && src[j] != '\0') ++j;
      if (j < n && (src[j] == '\'' || src[j] == '"') && (j == i || is_ident_start(static_cast<unsigned char>(src[i])))) {
        std::string prefix(src.substr(i, j - i));
        bool raw = prefix.find_first_of("rR") != std::string::npos;
        char q = src[j];
        bool triple = j + 2 < n && src[j + 1] == q && src[j + 2] == q;
        size_t body = j + (triple ? 3 : 1);
        size_t k = body;
        int start_line = line, start_col = col_of(i);
        bool closed = false;
        while (k < n) {
          char d = src[k];
          if (d == '\\' && !raw && k + 1 < n) {
            if (src[k + 1] == '\n') {
              ++line;
              line_start = k + 2;
            }
            k += 2;
            continue;
          }
          if (d == '\\' && raw && k + 1 < n) {
            // In raw strings a backslash still protects the quote from ending the string.
            if (src[k + 1] == '\n') {
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
            if (k + 2 < n && src[k + 1] == q && src[k + 2] == q) {
              closed = true;
              break;
            }
          }
          ++k;
        }
        Token t;
        t.kind = Tok::String;
        t.prefix = prefix;
        t.triple = triple;
        t.line = start_line;
        t.col = start_col;
        t.content_line = start_line;
        t.begin = i;
        t.text = std::string(src.substr(body, std::min(k, n) - body));
        if (!closed) {
          issue(start_line, start_col, "unterminated string literal");
          t.end = std::min(k, n);
          i = t.end;
        } else {
          t.end = k + (triple ? 3 : 1);
          i = t.end;
        }
        toks.push_back(std::move(t));
        continue;
      }
    }
    if (is_ident_start(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < n && is_ident_char(static_cast<unsigned char>(src[j]))) ++j;
      Token t;
      t.kind = Tok::Name;
      t.text = std::string(src.substr(i, j - i));
      t.line = line;
      t.col = col_of(i);
      t.begin = i;
      t.end = j;
      toks.push_back(std::move(t));
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      size_t j = i;
      if (c == '0' && j + 1 < n && std::strchr("xXoObB", src[j + 1]) && src[j + 1] != '\0') {
        j += 2;
        while (j < n && (std::isxdigit(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      } else {
        while (j < n && (std::isdigit(static_cast<unsigned char>(src[j])) || src[j] == '_' || src[j] == '.')) ++j;
        if (j < n && (src[j] == 'e' || src[j] == 'E')) {
          size_t k = j + 1;
          if (k < n && (src[k] == '+' || src[k] == '-')) ++k;
          if (k < n && std::isdigit(static_cast<unsigned char>(src[k]))) {
            j = k;
            while (j < n && std::isdigit(static_cast<unsigned char>(src[j]))) ++j;
          }
        }
        if (j < n && (src[j] == 'j' || src[j] == 'J' || src[j] == 'L')) ++j;
      }
      Token t;
      t.kind = Tok::Number;
      t.text = std::string(src.substr(i, j - i));
      t.line = line;
      t.col = col_of(i);
      t.begin = i;
      t.end = j;
      toks.push_back(std::move(t));
      i = j;
      continue;
    }
    // Operators.
    Token t;
    t.kind = Tok::Op;
    t.line = line;
    t.col = col_of(i);
    t.begin = i;
    // Longest operator first, by direct character tests (this runs for every operator token).
    size_t len = 1;
    char c1 = i + 1 < n ? src[i + 1] : '\0', c2 = i + 2 < n ? src[i + 2] : '\0';
    if (c2 == '=' && c1 == c && (c == '*' || c == '/' || c == '>' || c == '<'))
      len = 3;  // **= //= >>= <<=
    else if (c == '.' && c1 == '.' && c2 == '.')
      len = 3;  // ...
    else if (c1 == '=' && std::strchr("=!<>+-*/%&|^:@", c) && c != '\0')
      len = 2;  // == != <= >= += -= *= /= %= &= |= ^= := @=
    else if (c1 == c && (c == '*' || c == '/' || c == '<' || c == '>'))
      len = 2;  // ** // << >>
    else if (c == '-' && c1 == '>')
      len = 2;  // ->
    t.text = std::string(src.substr(i, len));
    t.end = i + len;
    if (len == 1) {
      if (std::strchr("([{", c)) ++depth;
      if (std::strchr(")]}", c)) depth = depth > 0 ? depth - 1 : 0;
      if (!std::strchr("()[]{},:;.=+-*/%&|^~<>@!", c)) {
        t.kind = Tok::Error;
        issue(line, t.col, std::string("unexpected character '") + (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : std::string("\\x") + "??") + "'");
      }
    }
    toks.push_back(std::move(t));
    i += len;
  }
  if (!toks.empty() && toks.back().kind != Tok::Newline) {
    Token t;
    t.kind = Tok::Newline;
    t.line = line;
    t.begin = t.end = n;
    toks.push_back(std::move(t));
  }
  Token e;
  e.kind = Tok::End;
  e.line = line;
  e.begin = e.end = n;
  toks.push_back(e);
  return toks;
}

// ---------------------------------------------------------------- Parser

namespace {

constexpr int kMaxDepth = 200;  // deeper expressions are cut off: a guard against stack overflow

class Parser {
 public:
  Parser(const std::vector<Token>& toks, Module& m) : toks_(toks), m_(m) {}

  void parse_all();

 private:
  const std::vector<Token>& toks_;
  Module& m_;
  size_t p_ = 0;
  size_t stmt_end_ = 0;  // index of the Newline/';' ending the current simple statement
  int depth_ = 0;
  bool too_deep_reported_ = false;  // one diagnostic per statement

  // Chains (a.b.c, a + b + c, f()(), a < b < c, a ** b ** c) build trees as deep as they are
  // long while the parser loops instead of recursing. Each link counts toward the same limit as
  // nesting, so every tree stays shallow enough for the recursive walkers and destructors
  // downstream (a 1 MB line of `a + a + ...` overflowed the stack when freeing its tree).
  bool link(int& links) {
    ++links;
    return ++depth_ <= kMaxDepth;
  }
  // Past the limit: one diagnostic, the rest of the statement becomes an Other node.
  ExprPtr cut_chain(int links) {
    if (!too_deep_reported_) {
      issue(cur(), "expression nested too deeply; rest of the statement skipped");
      too_deep_reported_ = true;
    }
    depth_ -= links;
    return other_until_end();
  }

  const Token& cur() const { return toks_[std::min(p_, stmt_end_)]; }
  bool at_end() const { return p_ >= stmt_end_; }
  bool is_op(const char* s) const { return !at_end() && cur().kind == Tok::Op && cur().text == s; }
  bool is_name(const char* s) const { return !at_end() && cur().kind == Tok::Name && cur().text == s; }
  bool accept_op(const char* s) {
    if (is_op(s)) {
      ++p_;
      return true;
    }
    return false;
  }
  void issue(const Token& t, std::string msg) { m_.issues.push_back({t.line + m_.line_offset, t.col, std::move(msg)}); }

  ExprPtr make(Expr::Kind k, const Token& t) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->line = t.line + m_.line_offset;
    e->col = t.col;
    e->begin = t.begin;
    e->end = t.end;
    return e;
  }
  void finish(ExprPtr& e) {
    if (p_ > 0) e->end = std::max(e->end, toks_[p_ - 1].end);
  }

  ExprPtr other_until_end() {
    auto e = make(Expr::Other, cur());
    while (!at_end()) ++p_;
    finish(e);
    return e;
  }

  // Expression grammar, loosest first.
  ExprPtr expr_list();   // a, b, c  -> Tuple when there is a comma
  ExprPtr expr();        // lambda / ifexp
  ExprPtr or_expr();
  ExprPtr and_expr();
  ExprPtr not_expr();
  ExprPtr comparison();
  ExprPtr binary(int level);
  ExprPtr unary();
  ExprPtr power();
  ExprPtr postfix(ExprPtr base);
  ExprPtr atom();
  ExprPtr bracketed(const char* close, Expr::Kind kind);
  void call_args(Expr& call);

  void parse_statement(Stmt& s);
};

ExprPtr Parser::expr_list() {
  auto first = expr();
  if (!is_op(",")) return first;
  auto t = make(Expr::Tuple, toks_[p_]);
  t->begin = first->begin;
  t->line = first->line;
  t->col = first->col;
  t->items.push_back(first);
  while (accept_op(",")) {
    if (at_end() || is_op("=") || is_op(")") || is_op(":")) break;
    t->items.push_back(expr());
  }
  finish(t);
  return t;
}

ExprPtr Parser::expr() {
  if (++depth_ > kMaxDepth) {
    --depth_;
    return cut_chain(0);
  }
  ExprPtr r;
  if (is_name("lambda")) {
    r = make(Expr::Lambda, cur());
    ++p_;
    while (!at_end() && !is_op(":")) ++p_;
    accept_op(":");
    if (!at_end()) r->items.push_back(expr());
    finish(r);
  } else {
    r = or_expr();
    if (is_name("if")) {
      auto ife = make(Expr::IfExp, cur());
      ife->begin = r->begin;
      ++p_;
      auto cond = or_expr();
      ExprPtr other;
      if (is_name("else")) {
        ++p_;
        other = expr();
      }
      ife->items = {r, cond};
      if (other) ife->items.push_back(other);
      finish(ife);
      r = ife;
    }
  }
  --depth_;
  return r;
}

ExprPtr Parser::or_expr() {
  auto l = and_expr();
  int links = 0;
  while (is_name("or")) {
    if (!link(links)) return cut_chain(links);
    auto b = make(Expr::BoolOp, cur());
    b->text = "or";
    b->begin = l->begin;
    ++p_;
    b->items = {l, and_expr()};
    finish(b);
    l = b;
  }
  depth_ -= links;
  return l;
}

ExprPtr Parser::and_expr() {
  auto l = not_expr();
  int links = 0;
  while (is_name("and")) {
    if (!link(links)) return cut_chain(links);
    auto b = make(Expr::BoolOp, cur());
    b->text = "and";
    b->begin = l->begin;
    ++p_;
    b->items = {l, not_expr()};
    finish(b);
    l = b;
  }
  depth_ -= links;
  return l;
}

ExprPtr Parser::not_expr() {
  if (is_name("not")) {
    auto u = make(Expr::UnaryOp, cur());
    u->text = "not";
    ++p_;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return cut_chain(0);
    }
    u->items.push_back(not_expr());
    --depth_;
    finish(u);
    return u;
  }
  return comparison();
}

ExprPtr Parser::comparison() {
  auto l = binary(0);
  int links = 0;
  for (;;) {
    std::string op;
    if (!at_end() && cur().kind == Tok::Op &&
        (cur().text == "<" || cur().text == ">" || cur().text == "==" || cur().text == "!=" || cur().text == "<=" ||
         cur().text == ">=")) {
      op = cur().text;
      ++p_;
    } else if (is_name("in")) {
      op = "in";
      ++p_;
    } else if (is_name("is")) {
      op = "is";
      ++p_;
      if (is_name("not")) {
        op = "is not";
        ++p_;
      }
    } else if (is_name("not") && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "in") {
      op = "not in";
      p_ += 2;
    } else {
      break;
    }
    if (!link(links)) return cut_chain(links);
    auto c = make(Expr::Compare, toks_[p_ - 1]);
    c->text = op;
    c->begin = l->begin;
    c->line = l->line;
    c->col = l->col;
    c->items = {l, binary(0)};
    finish(c);
    l = c;
  }
  depth_ -= links;
  return l;
}

// Binary operator levels, loosest first: | ^ & << >> + - * / // % @
// The level of an operator token, or -1: one switch instead of comparing against every
// operator string at each of the six levels for every atom.
int binop_level(const Token& t) {
  if (t.kind != Tok::Op) return -1;
  const std::string& x = t.text;
  if (x.size() == 1) {
    switch (x[0]) {
      case '|': return 0;
      case '^': return 1;
      case '&': return 2;
      case '+': case '-': return 4;
      case '*': case '/': case '%': case '@': return 5;
      default: return -1;
    }
  }
  if (x == "<<" || x == ">>") return 3;
  if (x == "//") return 5;
  return -1;
}

ExprPtr Parser::binary(int level) {
  constexpr int kLevels = 6;
  if (level >= kLevels) return unary();
  auto l = binary(level + 1);
  int links = 0;
  while (!at_end() && binop_level(cur()) == level) {
    if (!link(links)) return cut_chain(links);
    auto b = make(Expr::BinOp, cur());
    b->text = cur().text;
    b->begin = l->begin;
    b->line = l->line;
    b->col = l->col;
    ++p_;
    b->items = {l, binary(level + 1)};
    finish(b);
    l = b;
  }
  depth_ -= links;
  return l;
}

ExprPtr Parser::unary() {
  if (!at_end() && cur().kind == Tok::Op && (cur().text == "-" || cur().text == "+" || cur().text == "~")) {
    auto u = make(Expr::UnaryOp, cur());
    u->text = cur().text;
    ++p_;
    if (++depth_ > kMaxDepth) {
      --depth_;
      return cut_chain(0);
    }
    u->items.push_back(unary());
    --depth_;
    finish(u);
    return u;
  }
  return power();
}

ExprPtr Parser::power() {
  auto base = postfix(atom());
  if (is_op("**")) {
    int links = 0;
    if (!link(links)) return cut_chain(links);
    auto b = make(Expr::BinOp, cur());
    b->text = "**";
    b->begin = base->begin;
    b->line = base->line;
    b->col = base->col;
    ++p_;
    b->items = {base, unary()};
    depth_ -= links;
    finish(b);
    return b;
  }
  return base;
}

void Parser::call_args(Expr& call) {
  // After '(' : positional, keyword, *args, **kwargs, generator expressions (skipped as Other).
  while (!at_end() && !is_op(")")) {
    if (!at_end() && cur().kind == Tok::Name && p_ + 1 < stmt_end_ && toks_[p_ + 1].kind == Tok::Op &&
        toks_[p_ + 1].text == "=") {
      std::string key = cur().text;
      p_ += 2;
      call.kwargs.emplace_back(key, expr());
    } else if (is_op("**")) {
      ++p_;
      call.kwargs.emplace_back("**", expr());
    } else if (is_op("*")) {
      auto s = make(Expr::Starred, cur());
      ++p_;
      s->items.push_back(expr());
      finish(s);
      call.items.push_back(s);
    } else {
      auto a = expr();
      if (is_name("for")) {
        // A generator expression argument: keep it as Other up to the matching ')'.
        int d = 0;
        while (!at_end()) {
          if (is_op("(") || is_op("[") || is_op("{")) ++d;
          if (is_op(")") || is_op("]") || is_op("}")) {
            if (d == 0) break;
            --d;
          }
          ++p_;
        }
        auto o = make(Expr::Other, toks_[p_ - 1]);
        o->begin = a->begin;
        finish(o);
        a = o;
      }
      call.items.push_back(a);
    }
    if (!accept_op(",")) break;
  }
  if (!accept_op(")")) {
    issue(cur(), "expected ')' to close the call");
    while (!at_end() && !is_op(")")) ++p_;
    accept_op(")");
  }
}

ExprPtr Parser::postfix(ExprPtr base) {
  int links = 0;
  for (;;) {
    if ((is_op(".") || is_op("(") || is_op("[")) && !link(links)) return cut_chain(links);
    if (is_op(".")) {
      ++p_;
      if (at_end() || cur().kind != Tok::Name) {
        issue(cur(), "expected a name after '.'");
        depth_ -= links;
        return base;
      }
      auto a = make(Expr::Attribute, cur());
      a->text = cur().text;
      a->func = base;
      a->begin = base->begin;
      a->line = base->line;
      a->col = base->col;
      ++p_;
      finish(a);
      base = a;
    } else if (is_op("(")) {
      auto c = make(Expr::Call, cur());
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
    } else if (is_op("[")) {
      auto s = make(Expr::Subscript, cur());
      s->begin = base->begin;
      s->line = base->line;
      s->col = base->col;
      ++p_;
      s->items.push_back(base);
      if (++depth_ > kMaxDepth) {
        --depth_;
        return cut_chain(links);
      }
      auto idx = bracketed("]", Expr::Tuple);
      --depth_;
      // A single index is not a tuple.
      if (idx->items.size() == 1 && idx->text != ",") s->items.push_back(idx->items[0]);
      else s->items.push_back(idx);
      finish(s);
      base = s;
    } else {
      depth_ -= links;
      return base;
    }
  }
}

// Parses elements up to `close` (the opener is already consumed). Handles slices a:b:c and
// dict entries k: v (as alternating items for Dict).
ExprPtr Parser::bracketed(const char* close, Expr::Kind kind) {
  auto e = make(kind, toks_[p_ - 1]);
  bool saw_comma = false;
  while (!at_end() && !is_op(close)) {
    ExprPtr item;
    if (is_op("**")) {
      ++p_;
      item = expr();
    } else if (is_op("*")) {
      auto s = make(Expr::Starred, cur());
      ++p_;
      s->items.push_back(expr());
      finish(s);
      item = s;
    } else if (is_op(":")) {
      item = make(Expr::Slice, cur());
    } else {
      item = expr();
    }
    if (is_op(":")) {
      if (kind == Expr::Dict || (kind == Expr::Set && e->items.empty())) {
        // Dict entry.
        e->kind = Expr::Dict;
        kind = Expr::Dict;
        ++p_;
        e->items.push_back(item);
        e->items.push_back(expr());
      } else {
        auto sl = make(Expr::Slice, cur());
        sl->begin = item->begin;
        if (item->kind != Expr::Slice) sl->items.push_back(item);
        while (accept_op(":")) {
          if (!at_end() && !is_op(close) && !is_op(",") && !is_op(":")) sl->items.push_back(expr());
        }
        finish(sl);
        e->items.push_back(sl);
      }
    } else {
      e->items.push_back(item);
    }
    if (is_name("for")) {
      // Comprehension: skip to the closing bracket.
      int d = 0;
      while (!at_end()) {
        if (is_op("(") || is_op("[") || is_op("{")) ++d;
        if (is_op(")") || is_op("]") || is_op("}")) {
          if (d == 0) break;
          --d;
        }
        ++p_;
      }
      e->kind = Expr::Other;
    }
    if (accept_op(",")) saw_comma = true;
    else break;
  }
  if (!accept_op(close)) {
    issue(cur(), std::string("expected '") + close + "'");
    while (!at_end() && !is_op(close)) ++p_;
    accept_op(close);
  }
  // `(x)` is x itself, not a tuple; `(x,)` is a tuple. Encoded by text "," for a comma seen.
  if (saw_comma) e->text = ",";
  finish(e);
  return e;
}

ExprPtr Parser::atom() {
  if (at_end()) {
    auto e = make(Expr::Other, cur());
    return e;
  }
  const Token& t = cur();
  if (t.kind == Tok::Name) {
    ++p_;
    auto e = make(Expr::Name, t);
    e->text = t.text;
    return e;
  }
  if (t.kind == Tok::Number) {
    ++p_;
    auto e = make(Expr::Number, t);
    e->text = t.text;
    return e;
  }
  if (t.kind == Tok::String) {
    auto e = make(Expr::String, t);
    e->text = t.text;
    ++p_;
    // Adjacent literals concatenate.
    while (!at_end() && cur().kind == Tok::String) {
      e->text += cur().text;
      ++p_;
    }
    finish(e);
    return e;
  }
  if (t.kind == Tok::Op) {
    if (t.text == "(") {
      ++p_;
      auto e = bracketed(")", Expr::Tuple);
      if (e->items.size() == 1 && e->text != "," && e->kind == Expr::Tuple) {
        // A parenthesized expression: the node is the inner one, and its source range covers
        // the parentheses, so that the text of any enclosing expression stays balanced.
        auto inner = e->items[0];
        inner->begin = e->begin;
        inner->end = e->end;
        return inner;
      }
      return e;
    }
    if (t.text == "[") {
      ++p_;
      return bracketed("]", Expr::List);
    }
    if (t.text == "{") {
      ++p_;
      return bracketed("}", Expr::Set);
    }
    if (t.text == "...") {
      ++p_;
      return make(Expr::Ellipsis, t);
    }
  }
  issue(t, "unexpected '" + t.text.substr(0, 20) + "'");
  ++p_;
  return make(Expr::Other, t);
}

void Parser::parse_statement(Stmt& s) {
  const Token& first = cur();
  s.line = first.line + m_.line_offset;
  s.col = first.col;
  s.begin = first.begin;
  auto kw = [&](const char* k) { return is_name(k); };
  if (is_op("@")) {
    s.kind = Stmt::Decorator;
    ++p_;
    s.value = expr();
  } else if (kw("def") || (kw("async") && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "def")) {
    if (kw("async")) ++p_;
    ++p_;
    s.kind = Stmt::Def;
    if (!at_end() && cur().kind == Tok::Name) {
      s.name = cur().text;
      ++p_;
    }
    if (accept_op("(")) {
      while (!at_end() && !is_op(")")) {
        std::string pname;
        if (is_op("*") || is_op("**")) {
          pname = cur().text;
          ++p_;
        }
        if (!at_end() && cur().kind == Tok::Name) {
          pname += cur().text;
          ++p_;
        }
        ExprPtr ann;
        if (accept_op(":")) ann = expr();
        if (accept_op("=")) expr();
        if (!pname.empty()) s.params.emplace_back(pname, ann);
        if (!accept_op(",")) break;
      }
      accept_op(")");
    }
    if (accept_op("->")) expr();
    accept_op(":");
  } else if (kw("class")) {
    s.kind = Stmt::Class;
    ++p_;
    if (!at_end() && cur().kind == Tok::Name) {
      s.name = cur().text;
      ++p_;
    }
    while (!at_end()) ++p_;
  } else if (kw("return")) {
    s.kind = Stmt::Return;
    ++p_;
    if (!at_end()) s.value = expr_list();
  } else if (kw("del")) {
    s.kind = Stmt::Del;
    ++p_;
    auto v = expr_list();
    if (v->kind == Expr::Tuple) s.targets = v->items;
    else s.targets.push_back(v);
  } else if (kw("with") || (kw("async") && p_ + 1 < stmt_end_ && toks_[p_ + 1].text == "with")) {
    if (kw("async")) ++p_;
    s.kind = Stmt::With;
    ++p_;
    s.value = expr_list();
    while (!at_end()) ++p_;
  } else if (kw("for")) {
    s.kind = Stmt::For;
    ++p_;
    auto tgt = binary(0);
    if (is_op(",")) {
      while (accept_op(",")) binary(0);
    }
    s.targets.push_back(tgt);
    if (kw("in")) {
      ++p_;
      s.value = expr_list();
    }
    while (!at_end()) ++p_;
  } else if (kw("while") || kw("if") || kw("elif")) {
    s.kind = kw("while") ? Stmt::While : (kw("if") ? Stmt::If : Stmt::Elif);
    ++p_;
    s.value = expr();
    while (!at_end()) ++p_;
  } else if (kw("else") || kw("try") || kw("finally")) {
    s.kind = kw("else") ? Stmt::Else : (kw("try") ? Stmt::Try : Stmt::Finally);
    while (!at_end()) ++p_;
  } else if (kw("except")) {
    s.kind = Stmt::Except;
    while (!at_end()) ++p_;
  } else if (kw("import") || kw("from")) {
    s.kind = Stmt::Import;
    while (!at_end()) ++p_;
  } else if (kw("pass") || kw("break") || kw("continue") || kw("raise") || kw("global") || kw("nonlocal") ||
             kw("assert")) {
    s.kind = kw("pass") ? Stmt::Pass : Stmt::Other;
    while (!at_end()) ++p_;
  } else {
    auto lhs = expr_list();
    if (is_op(":") && lhs->kind == Expr::Name) {
      // Annotated assignment: `add: "bf16[8, 1, 5, 15]" = torch.ops.aten.add.Tensor(...)`.
      ++p_;
      s.kind = Stmt::AnnAssign;
      s.targets.push_back(lhs);
      s.annotation = expr();
      if (accept_op("=")) s.value = expr_list();
    } else if (is_op("=")) {
      s.kind = Stmt::Assign;
      s.targets.push_back(lhs);
      while (accept_op("=")) {
        auto v = expr_list();
        if (is_op("=")) s.targets.push_back(v);
        else s.value = v;
      }
    } else if (!at_end() && cur().kind == Tok::Op && cur().text.size() >= 2 && cur().text.back() == '=' &&
               cur().text != "==" && cur().text != "<=" && cur().text != ">=" && cur().text != "!=") {
      s.kind = Stmt::AugAssign;
      s.targets.push_back(lhs);
      ++p_;
      s.value = expr_list();
    } else {
      s.kind = Stmt::ExprStmt;
      s.value = lhs;
    }
  }
  if (!at_end()) {
    issue(cur(), "unexpected '" + cur().text.substr(0, 20) + "' in statement");
    while (!at_end()) ++p_;
  }
  s.end = p_ > 0 ? toks_[p_ - 1].end : s.begin;
}

void Parser::parse_all() {
  std::vector<Token> pending_comments;
  int last_comment_line = -10;
  int indent = 0;
  // Stack of (indent, def name) for enclosing_def.
  std::vector<std::pair<int, std::string>> defs;
  bool new_line = true;
  int last_stmt_line = -1;
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
      indent = std::atoi(t.text.c_str());
      new_line = true;
      ++p_;
      continue;
    }
    // A statement: find its end (Newline or ';' at bracket depth 0; the tokenizer already
    // suppressed newlines inside brackets, so only ';' needs a depth count here).
    size_t e = p_;
    int d = 0;
    while (e < toks_.size() && toks_[e].kind != Tok::Newline && toks_[e].kind != Tok::End &&
           toks_[e].kind != Tok::Comment) {
      if (toks_[e].kind == Tok::Op) {
        const std::string& x = toks_[e].text;
        if (x == "(" || x == "[" || x == "{") ++d;
        if (x == ")" || x == "]" || x == "}") --d;
        if (x == ";" && d <= 0) break;
      }
      // A compound statement header ends at its ':' when a body follows on the same line
      // (`if x: y`); that is rare in generated code and parsed as one statement.
      ++e;
    }
    stmt_end_ = e;
    too_deep_reported_ = false;
    Stmt s;
    s.indent = indent;
    if (new_line) {
      if (!pending_comments.empty() && pending_comments.back().line >= t.line - 1) s.comments_above = pending_comments;
      pending_comments.clear();
      while (!defs.empty() && defs.back().first >= indent) defs.pop_back();
    }
    s.enclosing_def = defs.empty() ? "" : defs.back().second;
    s.def_depth = static_cast<int>(defs.size());
    parse_statement(s);
    if (s.kind == Stmt::Def) defs.emplace_back(indent, s.name);
    m_.stmts.push_back(std::move(s));
    last_stmt_line = e > 0 ? toks_[e - 1].line : -1;
    p_ = e;
    if (p_ < toks_.size() && toks_[p_].kind == Tok::Op && toks_[p_].text == ";") {
      ++p_;
      new_line = false;
    } else {
      new_line = false;
    }
    last_comment_line = -10;
  }
}

}  // namespace

Module parse_module(std::string source, int line_offset) {
  Module m;
  m.source = std::move(source);
  m.line_offset = line_offset;
  std::vector<ParseIssue> issues;
  auto toks = tokenize(m.source, &issues);
  for (auto& i : issues) m.issues.push_back({i.line + line_offset, i.col, i.message});
  Parser(toks, m).parse_all();
  return m;
}

}  // namespace ilint::py
