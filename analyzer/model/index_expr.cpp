#include "analyzer/model/index_expr.h"

#include <cctype>
#include <cstring>
#include <string_view>
#include <vector>

#include "analyzer/util/text.h"

namespace ilint {

struct IndexExprNode {
  enum Kind { Num, Var, Add, Sub, Mul, FloorDiv, TruncDiv, Mod, Neg, Call, Unknown } kind = Unknown;
  int64_t num = 0;
  std::string name;  // Var name, Call callee
  std::vector<IndexExpr> kids;
  // Filled by the IndexEvaluator that owns the node, on first use (its scalars, numels and definitions do
  // not change): what a Var is when the evaluation point does not bind it, and which Call it is.
  enum Resolved : uint8_t { Unresolved, Value, Definition, Nothing, PassFirst, PassSecond, DivFloor } resolved =
      Unresolved;
  int64_t value = 0;
  IndexExprNode* definition = nullptr;  // owned by the IndexEvaluator's cache
};

namespace {

// The parser of index_expr.h's grammar. Anything else is Unknown (a rule then compares the
// expression as text).
class IndexExprParser {
 public:
  IndexExprParser(const std::string& s, bool cpp) : s_(s), cpp_(cpp) {}
  IndexExpr parse() {
    IndexExpr e = additive();
    skip();
    if (malformed_ || i_ != s_.size()) return unknown();
    return e;
  }

 private:
  const std::string& s_;
  bool cpp_;
  size_t i_ = 0;
  int depth_ = 0;
  // Set where the text cannot be an index expression (a call's arguments not closed by `)`):
  // every later eat() fails and parse() answers Unknown. (A position past the end instead would make
  // the next eat()'s std::string::compare throw std::out_of_range; mutated captures reach this,
  // tests/fuzz/mutate_captures.py.)
  bool malformed_ = false;

  static IndexExpr unknown() { return std::make_shared<IndexExprNode>(); }
  static IndexExpr bin(IndexExprNode::Kind k, IndexExpr a, IndexExpr b) {
    auto n = std::make_shared<IndexExprNode>();
    n->kind = k;
    n->kids = {std::move(a), std::move(b)};
    return n;
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(const char* tok) {
    if (malformed_) return false;
    skip();
    size_t n = std::strlen(tok);
    if (s_.compare(i_, n, tok) == 0) {
      i_ += n;
      return true;
    }
    return false;
  }
  IndexExpr additive() {
    if (++depth_ > 200) return unknown();
    IndexExpr e = multiplicative();
    for (;;) {
      if (eat("+")) e = bin(IndexExprNode::Add, e, multiplicative());
      else if (peek_minus()) {
        ++i_;
        e = bin(IndexExprNode::Sub, e, multiplicative());
      } else break;
    }
    --depth_;
    return e;
  }
  bool peek_minus() {
    skip();
    return i_ < s_.size() && s_[i_] == '-';
  }
  IndexExpr multiplicative() {
    IndexExpr e = unary();
    for (;;) {
      if (eat("//")) e = bin(IndexExprNode::FloorDiv, e, unary());
      else if (eat("*")) e = bin(IndexExprNode::Mul, e, unary());
      else if (eat("/")) e = bin(cpp_ ? IndexExprNode::TruncDiv : IndexExprNode::FloorDiv, e, unary());
      else if (eat("%")) e = bin(IndexExprNode::Mod, e, unary());
      else break;
    }
    return e;
  }
  IndexExpr unary() {
    if (eat("-")) {
      auto n = std::make_shared<IndexExprNode>();
      n->kind = IndexExprNode::Neg;
      n->kids = {unary()};
      return n;
    }
    if (eat("+")) return unary();
    return postfix();
  }
  // Skips a bracketed group starting at s_[i_] == open; false when unbalanced.
  bool skip_group(char open, char close) {
    int d = 0;
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == open) ++d;
      if (s_[i_] == close && --d == 0) {
        ++i_;
        return true;
      }
    }
    return false;
  }
  std::vector<IndexExpr> call_args() {
    // After '(' was consumed.
    std::vector<IndexExpr> args;
    skip();
    if (eat(")")) return args;
    for (;;) {
      skip();
      if (i_ < s_.size() && s_[i_] == '[') {  // a shape list: not a value
        if (!skip_group('[', ']')) return {unknown()};
        args.push_back(unknown());
      } else {
        args.push_back(additive());
      }
      if (eat(",")) continue;
      if (eat(")")) return args;
      malformed_ = true;
      return args;
    }
  }
  IndexExpr postfix() {
    IndexExpr e = primary();
    for (;;) {
      skip();
      if (i_ < s_.size() && s_[i_] == '[') {  // [:, None]: a broadcast, same values
        if (!skip_group('[', ']')) return unknown();
        continue;
      }
      if (i_ + 1 < s_.size() && s_[i_] == '.' && (std::isalpha(static_cast<unsigned char>(s_[i_ + 1])) || s_[i_ + 1] == '_')) {
        ++i_;
        std::string m = ident();
        if (eat("(")) {
          call_args();
          if (m != "broadcast_to" && m != "to" && m != "reshape") return unknown();
        } else {
          return unknown();
        }
        continue;
      }
      break;
    }
    return e;
  }
  std::string ident() {
    size_t b = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.' ||
                              (s_[i_] == ':' && i_ + 1 < s_.size() && s_[i_ + 1] == ':') ||
                              (s_[i_] == ':' && i_ > 0 && s_[i_ - 1] == ':')))
      ++i_;
    return s_.substr(b, i_ - b);
  }
  IndexExpr primary() {
    skip();
    if (i_ >= s_.size()) return unknown();
    char ch = s_[i_];
    if (ch == '(') {
      ++i_;
      IndexExpr e = additive();
      if (!eat(")")) return unknown();
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      size_t b = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      std::string digits = s_.substr(b, i_ - b);
      if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'x')) return unknown();  // float / hex
      while (i_ < s_.size() && (s_[i_] == 'L' || s_[i_] == 'l' || s_[i_] == 'U' || s_[i_] == 'u')) ++i_;
      auto n = std::make_shared<IndexExprNode>();
      n->kind = IndexExprNode::Num;
      try {
        n->num = std::stoll(digits);
      } catch (...) {
        return unknown();
      }
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      std::string name = ident();
      skip();
      if (i_ < s_.size() && s_[i_] == '<' && (name == "static_cast" || name.find("convert") != std::string::npos)) {
        if (!skip_group('<', '>')) return unknown();
        skip();
      }
      if (eat("(")) {
        auto n = std::make_shared<IndexExprNode>();
        n->kind = IndexExprNode::Call;
        n->name = name;
        n->kids = call_args();
        return n;
      }
      auto n = std::make_shared<IndexExprNode>();
      n->kind = IndexExprNode::Var;
      n->name = name;
      return n;
    }
    return unknown();
  }
};

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

}  // namespace

bool is_triton_index_var(const std::string& n) {
  static const std::set<std::string> vars = {"xindex", "yindex", "zindex", "rindex", "r0_index", "r1_index"};
  return vars.count(n) > 0;
}
std::string numel_of(const std::string& index_var) {
  if (index_var == "rindex") return "rnumel";
  return index_var.substr(0, index_var.size() - std::string("index").size()) + "numel";  // xindex -> xnumel, r0_index -> r0_numel
}

void keep_index_definitions(Kernel& k) {
  if (k.var_defs.empty()) return;
  std::set<std::string, std::less<>> reached;  // texts, not views: erasing below frees definitions
  std::vector<std::string_view> todo;
  // Every word of a text that may name a definition: a superset of the parser's names.
  auto names_in = [&](std::string_view text) {
    for (size_t i = 0; i < text.size();) {
      size_t j = i;
      while (j < text.size() && is_ident_char(text[j])) ++j;
      if (j == i) {
        ++i;
        continue;
      }
      std::string_view word = text.substr(i, j - i);
      if (!std::isdigit(static_cast<unsigned char>(word[0])) && reached.insert(std::string(word)).second) todo.push_back(word);
      i = j;
    }
  };
  for (const auto& a : k.loads) names_in(a.index.str());
  for (const auto& a : k.stores) names_in(a.index.str());
  for (const auto& [name, text] : k.var_defs)
    if (name.ends_with("numel")) names_in(name);
  while (!todo.empty()) {
    std::string_view n = todo.back();
    todo.pop_back();
    if (auto d = k.var_defs.find(std::string(n)); d != k.var_defs.end()) names_in(d->second);
  }
  std::erase_if(k.var_defs, [&](const auto& d) { return !reached.contains(d.first); });
}

IndexEvaluator::IndexEvaluator(const Kernel& k, const std::map<std::string, int64_t>& scalars)
    : k_(k), scalars_(scalars), cpp_(k.backend == KernelBackend::Cpp) {}

IndexEvaluator::~IndexEvaluator() = default;

IndexExpr IndexEvaluator::parse(const std::string& text) {
  auto it = cache_.find(text);
  if (it != cache_.end()) return it->second;
  IndexExprParser p(text, cpp_);
  IndexExpr e = p.parse();
  cache_[text] = e;
  return e;
}

void IndexEvaluator::free_vars(const IndexExpr& e, std::set<std::string>& out, int depth) {
  if (!e || depth > 64) return;
  if (e->kind == IndexExprNode::Var) {
    if (bound(e->name)) return;
    auto d = k_.var_defs.find(e->name);
    if (d != k_.var_defs.end() && !is_triton_index_var(e->name)) {
      free_vars(parse(d->second), out, depth + 1);
      return;
    }
    out.insert(e->name);
    return;
  }
  for (auto& kid : e->kids) free_vars(kid, out, depth);
}

std::optional<int64_t> IndexEvaluator::eval(const IndexExpr& e, const std::map<std::string, int64_t>& env) {
  return eval(e.get(), env, 0);
}

std::optional<int64_t> IndexEvaluator::eval(IndexExprNode* e, const std::map<std::string, int64_t>& env, int depth) {
  if (!e || depth > 64) return std::nullopt;
  switch (e->kind) {
    case IndexExprNode::Num:
      return e->num;
    case IndexExprNode::Var: {
      if (auto it = env.find(e->name); it != env.end()) return it->second;
      // Then the launch's scalars, the kernel's numels, the kernel's definitions: looked up
      // once per node.
      if (e->resolved == IndexExprNode::Unresolved) {
        if (auto it = scalars_.find(e->name); it != scalars_.end()) {
          e->resolved = IndexExprNode::Value;
          e->value = it->second;
        } else if (auto it = k_.numels.find(e->name); it != k_.numels.end()) {
          e->resolved = IndexExprNode::Value;
          e->value = it->second;
        } else if (auto d = k_.var_defs.find(e->name); d != k_.var_defs.end()) {
          e->resolved = IndexExprNode::Definition;
          e->definition = parse(d->second).get();
        } else {
          e->resolved = IndexExprNode::Nothing;
        }
      }
      if (e->resolved == IndexExprNode::Value) return e->value;
      if (e->resolved == IndexExprNode::Definition) return eval(e->definition, env, depth + 1);
      return std::nullopt;
    }
    case IndexExprNode::Neg: {
      auto a = eval(e->kids[0].get(), env, depth);
      if (!a) return std::nullopt;
      return -*a;
    }
    case IndexExprNode::Add:
    case IndexExprNode::Sub:
    case IndexExprNode::Mul:
    case IndexExprNode::FloorDiv:
    case IndexExprNode::TruncDiv:
    case IndexExprNode::Mod: {
      auto a = eval(e->kids[0].get(), env, depth), b = eval(e->kids[1].get(), env, depth);
      if (!a || !b) return std::nullopt;
      switch (e->kind) {
        case IndexExprNode::Add: return *a + *b;
        case IndexExprNode::Sub: return *a - *b;
        case IndexExprNode::Mul: return *a * *b;
        case IndexExprNode::FloorDiv: return *b == 0 ? std::nullopt : std::optional<int64_t>(floor_div(*a, *b));
        case IndexExprNode::TruncDiv: return *b == 0 ? std::nullopt : std::optional<int64_t>(*a / *b);
        case IndexExprNode::Mod:
          if (*b == 0) return std::nullopt;
          return cpp_ ? *a % *b : floor_mod(*a, *b);
        default: return std::nullopt;
      }
    }
    case IndexExprNode::Call: {
      if (e->resolved == IndexExprNode::Unresolved) {
        const std::string& f = e->name;
        if (f == "tl.full" && e->kids.size() >= 2) e->resolved = IndexExprNode::PassSecond;
        else if ((f == "tl.broadcast_to" || f == "tl.reshape" || f == "static_cast" || f == "int64_t" ||
                  f == "c10::convert" || f == "at::vec::convert") && !e->kids.empty())
          e->resolved = IndexExprNode::PassFirst;
        else if ((f == "c10::div_floor_integer" || f == "triton_helpers.div_floor_integer") && e->kids.size() == 2)
          e->resolved = IndexExprNode::DivFloor;
        else
          e->resolved = IndexExprNode::Nothing;
      }
      if (e->resolved == IndexExprNode::PassSecond) return eval(e->kids[1].get(), env, depth);
      if (e->resolved == IndexExprNode::PassFirst) return eval(e->kids[0].get(), env, depth);
      if (e->resolved == IndexExprNode::DivFloor) {
        auto a = eval(e->kids[0].get(), env, depth), b = eval(e->kids[1].get(), env, depth);
        if (!a || !b || *b == 0) return std::nullopt;
        return floor_div(*a, *b);
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

}  // namespace ilint
