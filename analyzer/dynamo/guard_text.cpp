#include "analyzer/dynamo/guard_text.h"

#include <cctype>

#include "analyzer/dynamo/log_line.h"
#include "analyzer/util/text.h"

namespace ilint::dynamo {

namespace {
bool is_kind_char(char c) { return std::isupper(static_cast<unsigned char>(c)) || c == '_' || std::isdigit(static_cast<unsigned char>(c)); }

// First `L['...']` or `G['...']` (with the attribute/index chain that follows) in the text.
std::string first_source(std::string_view s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    if ((s[i] == 'L' || s[i] == 'G') && s[i + 1] == '[' && s[i + 2] == '\'' &&
        (i == 0 || !is_ident_char(s[i - 1]))) {
      size_t end = s.find("']", i + 3);
      if (end == std::string_view::npos) return {};
      return std::string(s.substr(i, end + 2 - i));
    }
  }
  return {};
}
}  // namespace

std::string local_name_of(std::string_view source) {
  std::string s = trim(source);
  if (starts_with(s, "___as_tensor(")) {
    auto close = s.find(')');
    if (close != std::string::npos) s = s.substr(13, close - 13);
  }
  if (starts_with(s, "L['")) {
    auto end = s.find("']");
    if (end == std::string::npos) return {};
    if (end + 2 != s.size()) return {};  // L['x'].attr: not the local itself
    return s.substr(3, end - 3);
  }
  for (char c : s)
    if (!is_ident_char(c)) return {};
  return s;
}

bool split_equality(std::string_view expr, std::string& source, std::string& value) {
  auto p = expr.rfind(" == ");
  if (p == std::string_view::npos) return false;
  std::string lhs = trim(expr.substr(0, p));
  value = trim(expr.substr(p + 4));
  if (starts_with(lhs, "___as_tensor(") && ends_with(lhs, ").item()")) lhs = lhs.substr(13, lhs.size() - 13 - 8);
  source = lhs;
  return !source.empty() && !value.empty();
}

void split_guard_comment(const std::string& comment, std::string& user_code, std::optional<SourceLoc>& user_loc,
                         std::string& function) {
  // Views until the results: a guard tree has a comment on nearly every line, thousands of them.
  user_code.clear();
  user_loc.reset();
  function.clear();
  std::string_view c = trim_view(comment);
  if (c.empty() || c[0] == '(') return;  // "(unknown source ...)" / "(_dynamo/output_graph.py:2916 in ...)"
  std::string_view loc_part = c;
  auto sep = c.rfind("  # ");
  if (sep != std::string_view::npos) {
    user_code = trim_view(c.substr(0, sep));
    loc_part = trim_view(c.substr(sep + 4));
  }
  // "<file>:<line> in <fn>[ (HINT: ...)]"
  auto in = loc_part.find(" in ");
  if (in == std::string_view::npos) {
    if (sep == std::string_view::npos) user_code = c;
    return;
  }
  std::string_view fl = loc_part.substr(0, in);
  std::string_view fn = loc_part.substr(in + 4);
  fn = fn.substr(0, fn.find(' '));
  auto colon = fl.rfind(':');
  if (colon == std::string_view::npos) {
    if (sep == std::string_view::npos) user_code = c;
    return;
  }
  std::string_view file = fl.substr(0, colon);
  int line = leading_int(fl.substr(colon + 1));
  if (line <= 0) return;
  function = fn;
  // Dynamo's own bookkeeping guards name Dynamo source files, not the user's.
  if (starts_with(file, "_dynamo/") || starts_with(file, "torch/") || file.find("/torch/") != std::string_view::npos)
    return;
  user_loc = SourceLoc{std::string(file), line, 0};
}

std::optional<Guard> parse_guard_tree_line(std::string_view line, const SourceLoc& loc, int* depth) {
  size_t i = 0;
  int d = 0;
  while (i + 1 < line.size() && line[i] == '|' && line[i + 1] == ' ') {
    i += 2;
    ++d;
  }
  if (!starts_with(line.substr(i), "+- ")) return std::nullopt;
  i += 3;
  std::string_view body = line.substr(i);
  if (depth) *depth = d;
  if (starts_with(body, "RootGuardManager")) return std::nullopt;
  Guard g;
  g.log_loc = loc;
  if (starts_with(body, "GuardManager:") || (body.find("GuardManager: ") != std::string_view::npos &&
                                             body.find("GuardManager: ") < body.find(':'))) {
    auto colon = body.find(": ");
    g.kind = "GuardManager";
    g.expr = trim(body.substr(colon + 2));
    auto src = g.expr.find("source=");
    if (src != std::string::npos) {
      auto end = g.expr.find(", accessed_by=", src);
      g.source = g.expr.substr(src + 7, end == std::string::npos ? std::string::npos : end - src - 7);
    }
    auto ty = g.expr.find("type=<class '");
    if (ty != std::string::npos) {
      auto end = g.expr.find("'>", ty);
      if (end != std::string::npos) g.value = g.expr.substr(ty + 13, end - ty - 13);
    }
    return g;
  }
  size_t k = 0;
  while (k < body.size() && is_kind_char(body[k])) ++k;
  if (k == 0 || k >= body.size() || body[k] != ':') return std::nullopt;
  g.kind = std::string(body.substr(0, k));
  std::string_view rest = body.substr(k + 1);
  if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  auto hash = rest.find("  #");
  std::string_view expr = rest, comment;
  if (hash != std::string_view::npos) {
    expr = rest.substr(0, hash);
    comment = rest.substr(hash + 3);
  } else if (starts_with(rest, "#")) {
    expr = {};
    comment = rest.substr(1);
  }
  g.expr = trim(expr);
  g.comment = trim(comment);
  std::string src, val;
  if ((g.kind == "EQUALS_MATCH" || g.kind == "LAMBDA_GUARD" || g.kind == "CONSTANT_MATCH") &&
      split_equality(g.expr, src, val)) {
    g.source = src;
    g.value = val;
  } else {
    g.source = first_source(g.expr);
  }
  std::string code, fn;
  split_guard_comment(g.comment, code, g.user_loc, fn);
  return g;
}

std::optional<GuardFailure> parse_guard_failure(std::string_view text) {
  std::string t = trim(text);
  auto colon = t.find(": ");
  if (colon == std::string::npos) return std::nullopt;
  if (!parse_compile_id(t.substr(0, colon))) return std::nullopt;
  GuardFailure f;
  f.compile_id = t.substr(0, colon);
  std::string rest = t.substr(colon + 2);
  auto hash = rest.find("  #");
  std::string comment;
  if (hash != std::string::npos) {
    comment = rest.substr(hash + 3);
    rest = rest.substr(0, hash);
  }
  f.guard = trim(rest);
  std::string src, val;
  if (split_equality(f.guard, src, val)) {
    f.source = src;
    f.value = val;
  }
  std::string fn;
  split_guard_comment(comment, f.user_code, f.user_loc, fn);
  return f;
}

}  // namespace ilint::dynamo
