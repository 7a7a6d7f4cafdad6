#include "analyzer/model/sym_expr.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "analyzer/util/text.h"

namespace ilint {

namespace {

// Recursive descent over: expr := term (('+'|'-') term)*; term := unary (('*'|'/') unary)*;
// unary := '-' unary | power; power := atom ('**' unary)?; atom := number | name | name '(' args ')' | '(' expr ')'.
class Parser {
 public:
  Parser(const std::string& s, const std::map<std::string, double>* syms) : s_(s), syms_(syms) {}

  std::optional<double> parse() {
    auto v = expr();
    skip();
    if (!v || pos_ != s_.size() || depth_ < 0) return std::nullopt;
    return v;
  }

  std::vector<std::string> names;

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(const char* t) {
    skip();
    size_t n = std::char_traits<char>::length(t);
    if (s_.compare(pos_, n, t) == 0) {
      pos_ += n;
      return true;
    }
    return false;
  }
  std::optional<double> expr() {
    if (++depth_ > 200) return std::nullopt;  // bounded recursion on hostile input
    auto v = term();
    while (v) {
      if (eat("+")) {
        auto r = term();
        if (!r) return std::nullopt;
        *v += *r;
      } else if (peek_minus()) {
        ++pos_;
        auto r = term();
        if (!r) return std::nullopt;
        *v -= *r;
      } else {
        break;
      }
    }
    --depth_;
    return v;
  }
  bool peek_minus() {
    skip();
    return pos_ < s_.size() && s_[pos_] == '-';
  }
  std::optional<double> term() {
    auto v = unary();
    while (v) {
      skip();
      if (s_.compare(pos_, 2, "**") == 0) break;
      if (eat("*")) {
        auto r = unary();
        if (!r) return std::nullopt;
        *v *= *r;
      } else if (eat("/")) {
        auto r = unary();
        if (!r) return std::nullopt;
        *v /= *r;
      } else {
        break;
      }
    }
    return v;
  }
  std::optional<double> unary() {
    if (++depth_ > 200) return std::nullopt;
    std::optional<double> v;
    if (eat("-")) {
      v = unary();
      if (v) *v = -*v;
    } else {
      v = power();
    }
    --depth_;
    return v;
  }
  std::optional<double> power() {
    auto b = atom();
    if (!b) return std::nullopt;
    if (eat("**")) {
      auto e = unary();
      if (!e) return std::nullopt;
      return std::pow(*b, *e);
    }
    return b;
  }
  std::optional<double> atom() {
    skip();
    if (pos_ >= s_.size()) return std::nullopt;
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      auto v = expr();
      if (!eat(")")) return std::nullopt;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* b = s_.c_str() + pos_;
      char* e = nullptr;
      double v = std::strtod(b, &e);
      if (e == b) return std::nullopt;
      pos_ += static_cast<size_t>(e - b);
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t b = pos_;
      while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
      std::string name = s_.substr(b, pos_ - b);
      if (eat("(")) {
        std::vector<double> args;
        skip();
        if (!eat(")")) {
          while (true) {
            auto a = expr();
            if (!a) return std::nullopt;
            args.push_back(*a);
            if (eat(")")) break;
            if (!eat(",")) return std::nullopt;
          }
        }
        return call(name, args);
      }
      if (name == "oo") return INFINITY;
      names.push_back(name);
      if (!syms_) return 0.0;
      auto it = syms_->find(name);
      if (it == syms_->end()) return std::nullopt;
      return it->second;
    }
    return std::nullopt;
  }
  std::optional<double> call(const std::string& f, const std::vector<double>& a) {
    auto n = a.size();
    if ((f == "FloatPow" || f == "PowByNatural" || f == "Pow") && n == 2) return std::pow(a[0], a[1]);
    if ((f == "FloatTrueDiv" || f == "IntTrueDiv") && n == 2) return a[0] / a[1];
    if ((f == "ToFloat" || f == "TruncToFloat" || f == "Float") && n == 1) return f == "TruncToFloat" ? std::trunc(a[0]) : a[0];
    if ((f == "sqrt" || f == "OpaqueUnaryFn_sqrt") && n == 1) return std::sqrt(a[0]);
    if ((f == "exp" || f == "OpaqueUnaryFn_exp") && n == 1) return std::exp(a[0]);
    if ((f == "log" || f == "OpaqueUnaryFn_log") && n == 1) return std::log(a[0]);
    if (f == "Abs" && n == 1) return std::fabs(a[0]);
    if ((f == "Max" || f == "Min") && n >= 1) {
      double v = a[0];
      for (double x : a) v = f == "Max" ? std::max(v, x) : std::min(v, x);
      return v;
    }
    return std::nullopt;
  }

  const std::string& s_;
  const std::map<std::string, double>* syms_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

std::optional<double> eval_sym_expr(const std::string& expr, const std::map<std::string, double>& symbols) {
  if (expr.size() > 10000) return std::nullopt;
  Parser p(expr, &symbols);
  return p.parse();
}

std::vector<std::string> sym_expr_symbols(const std::string& expr) {
  if (expr.size() > 10000) return {};
  Parser p(expr, nullptr);
  p.parse();
  return p.names;
}

}  // namespace ilint
