#include "analyzer/dynamo/literals.h"

#include <cctype>
#include <fstream>
#include <map>

#include "analyzer/dynamo/log_line.h"
#include "analyzer/parse/fx_text.h"
#include "analyzer/util/text.h"

namespace ilint::dynamo {

std::vector<std::string> split_args(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  char quote = 0;
  std::string cur;
  for (char c : s) {
    if (quote) {
      cur += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

std::vector<std::string> float_tokens(const std::string& line) {
  std::vector<std::string> out;
  size_t n = line.size();
  for (size_t i = 0; i < n; ++i) {
    char c = line[i];
    bool starts = std::isdigit(static_cast<unsigned char>(c)) ||
                  (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(line[i + 1])));
    if (!starts) {
      if (c == '\'' || c == '"') {  // skip string literals
        auto q = line.find(c, i + 1);
        if (q == std::string::npos) break;
        i = q;
      }
      continue;
    }
    if (i > 0 && (std::isalnum(static_cast<unsigned char>(line[i - 1])) || line[i - 1] == '_' || line[i - 1] == '.')) {
      while (i < n && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '.')) ++i;
      continue;  // part of a name (tmp0, r0_1) or an attribute
    }
    size_t b = i;
    while (i < n && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == '.')) ++i;
    if (i < n && (line[i] == 'e' || line[i] == 'E')) {
      size_t k = i + 1;
      if (k < n && (line[k] == '-' || line[k] == '+')) ++k;
      if (k < n && std::isdigit(static_cast<unsigned char>(line[k]))) {
        i = k;
        while (i < n && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
      }
    }
    if (i < n && (std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '_')) {
      while (i < n && is_ident_char(line[i])) ++i;
      --i;
      continue;  // 1.0f, 0x.., suffixes: not a plain float
    }
    std::string tok = line.substr(b, i - b);
    if (b > 0 && line[b - 1] == '-' && (b < 2 || !(std::isalnum(static_cast<unsigned char>(line[b - 2])) || line[b - 2] == '_' || line[b - 2] == ')')))
      tok = "-" + tok;
    if (looks_like_float_literal(tok)) out.push_back(tok);
    --i;
  }
  return out;
}

namespace {


void add_fx_arg_literals(std::vector<LiteralSite>& out, std::map<std::string, int>& occ, const std::string& graph_kind,
                         const std::string& node, const std::string& target, const std::vector<IString>& args,
                         const IStringMap& kwargs, const SourceLoc& loc,
                         const std::optional<SourceLoc>& user_loc, const std::string& user_code) {
  std::string base = graph_kind + "|" + std::to_string(user_loc ? user_loc->line : 0) + "|" + target;
  int o = occ[base]++;
  auto add = [&](const std::string& argname, const std::string& text) {
    double v = 0;
    if (!looks_like_float_literal(text) || !parse_float_literal(text, v)) return;
    LiteralSite s;
    s.where = "fx";
    s.key = base + "|" + std::to_string(o) + "|" + argname;
    s.text = text;
    s.value = v;
    s.node = node;
    s.target = target;
    s.loc = loc;
    s.user_loc = user_loc;
    s.user_code = user_code;
    out.push_back(std::move(s));
  };
  for (size_t i = 0; i < args.size(); ++i) add(std::to_string(i), trim(args[i]));
  for (const auto& [k, v] : kwargs) add(k, trim(v));
}

}  // namespace

std::vector<LiteralSite> fx_literals(const Compile* compile, const std::string& fx_path, const std::string& graph_kind,
                                     DiagSink& diags) {
  std::vector<LiteralSite> out;
  std::map<std::string, int> occ;
  if (compile && !compile->fx.nodes.empty()) {
    for (const auto& n : compile->fx.nodes) {
      if (n.op != "call_function" && n.op != "call_method") continue;
      add_fx_arg_literals(out, occ, graph_kind, n.name, n.target, n.args, n.kwargs, n.def_loc, n.user_loc, n.user_code);
    }
    return out;
  }
  if (fx_path.empty()) return out;
  std::ifstream in(fx_path, std::ios::binary);
  if (!in) {
    diags.warning("dynamo-fx-unreadable", "cannot open FX graph", {fx_path, 0, 0});
    return out;
  }
  std::string line;
  int lineno = 0;
  std::optional<SourceLoc> user_loc;
  std::string user_code;
  while (std::getline(in, line)) {
    ++lineno;
    sanitize_utf8(line);
    std::string t = trim(line);
    SourceLoc l;
    std::string fn, code;
    if (read_file_comment(t, l, fn, code) && l.line > 0) {
      user_loc = l;
      user_code = code;
      continue;
    }
    // name: "ann" = target(args);  dead = None
    auto colon = t.find(": \"");
    if (colon == std::string::npos) continue;
    std::string name = t.substr(0, colon);
    bool ident = !name.empty();
    for (char c : name)
      if (!is_ident_char(c)) ident = false;
    if (!ident) continue;
    auto eq = t.find("\" = ", colon + 3);
    if (eq == std::string::npos) continue;
    std::string rhs = t.substr(eq + 4);
    auto lp = rhs.find('(');
    if (lp == std::string::npos) continue;
    std::string target = rhs.substr(0, lp);
    // Matching close paren of the call.
    int depth = 0;
    size_t rp = std::string::npos;
    char quote = 0;
    for (size_t i = lp; i < rhs.size(); ++i) {
      char c = rhs[i];
      if (quote) {
        if (c == quote) quote = 0;
        continue;
      }
      if (c == '\'' || c == '"') quote = c;
      else if (c == '(') ++depth;
      else if (c == ')' && --depth == 0) {
        rp = i;
        break;
      }
    }
    if (rp == std::string::npos) continue;
    std::vector<IString> args;
    IStringMap kwargs;
    for (auto& a : split_args(rhs.substr(lp + 1, rp - lp - 1))) {
      auto e = a.find(" = ");
      bool kw = e != std::string::npos && a.find('(') > e;
      if (kw) kwargs[trim(a.substr(0, e))] = trim(a.substr(e + 3));
      else args.push_back(a);
    }
    add_fx_arg_literals(out, occ, graph_kind, name, target, args, kwargs, {fx_path, lineno, 0}, user_loc, user_code);
  }
  return out;
}

std::vector<LiteralSite> kernel_literals(const Compile* compile, const std::string& output_code_path,
                                         const std::string& graph_kind, DiagSink& diags) {
  std::vector<LiteralSite> out;
  if (compile) {
    bool any = false;
    for (const auto& k : compile->kernels) {
      int ord = 0;
      size_t count = 0;
      for (const auto& lit : k.literals) count += looks_like_float_literal(lit.text) ? 1 : 0;
      for (const auto& lit : k.literals) {
        any = true;
        double v = lit.value;
        if (!looks_like_float_literal(lit.text)) continue;
        LiteralSite s;
        s.where = "kernel";
        s.key = graph_kind + "|" + k.name + "/" + std::to_string(count) + "#" + std::to_string(ord++);
        s.text = lit.text;
        s.value = v;
        s.node = k.name;
        s.target = lit.var;
        s.loc = lit.loc;
        out.push_back(std::move(s));
      }
    }
    if (any) return out;
  }
  if (output_code_path.empty()) return out;
  std::ifstream in(output_code_path, std::ios::binary);
  if (!in) {
    diags.warning("dynamo-output-code-unreadable", "cannot open output code", {output_code_path, 0, 0});
    return out;
  }
  std::string line, kernel;
  int lineno = 0, ord = 0;
  bool in_kernel = false;
  while (std::getline(in, line)) {
    ++lineno;
    sanitize_utf8(line);
    if (!in_kernel) {
      // NAME = async_compile.triton('NAME', '''   /  NAME = async_compile.cpp_pybinding([...], r'''
      auto ac = line.find(" = async_compile.");
      if (ac != std::string::npos && line.find("'''") != std::string::npos) {
        kernel = trim(line.substr(0, ac));
        in_kernel = true;
        ord = 0;
      }
      continue;
    }
    if (line.find("'''") != std::string::npos) {
      in_kernel = false;
      continue;
    }
    std::string t = trim(line);
    if (t.empty() || t[0] == '#' || t[0] == '@' || starts_with(t, "import ") || starts_with(t, "from ") ||
        starts_with(t, "def ") || starts_with(t, "triton_meta=") || starts_with(t, "inductor_meta=") ||
        starts_with(t, "size_hints=") || starts_with(t, "filename=") || starts_with(t, "min_elem_per_thread") ||
        starts_with(t, "#include") || starts_with(t, "extern \"C\""))
      continue;
    std::string var;
    auto eq = t.find(" = ");
    if (eq != std::string::npos) {
      var = t.substr(0, eq);
      if (starts_with(var, "auto ")) var = var.substr(5);
    }
    for (const auto& tok : float_tokens(t)) {
      double v = 0;
      if (!parse_float_literal(tok, v)) continue;
      LiteralSite s;
      s.where = "kernel";
      s.key = graph_kind + "|" + kernel + "#" + std::to_string(ord++);  // count appended below
      s.text = tok;
      s.value = v;
      s.node = kernel;
      s.target = var;
      s.loc = {output_code_path, lineno, 0};
      out.push_back(std::move(s));
    }
  }
  // Key each kernel literal by the kernel's literal count too: kernels of a different shape (a
  // tensorified compile loads the scalar instead of baking it) must not align by ordinal.
  std::map<std::string, int> counts;
  for (const auto& s : out) counts[s.node]++;
  for (auto& s : out) {
    auto hash = s.key.rfind('#');
    s.key = s.key.substr(0, hash) + "/" + std::to_string(counts[s.node]) + s.key.substr(hash);
  }
  return out;
}

}  // namespace ilint::dynamo
