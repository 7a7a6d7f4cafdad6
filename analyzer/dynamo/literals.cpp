#include "analyzer/dynamo/literals.h"

#include <map>

#include "analyzer/dynamo/log_line.h"
#include "analyzer/util/text.h"

namespace ilint::dynamo {

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

std::vector<LiteralSite> fx_literals(const Compile& compile, const std::string& graph_kind) {
  std::vector<LiteralSite> out;
  std::map<std::string, int> occ;
  for (const auto& n : compile.fx.nodes) {
    if (n.op != "call_function" && n.op != "call_method") continue;
    add_fx_arg_literals(out, occ, graph_kind, n.name, n.target, n.args, n.kwargs, n.def_loc, n.user_loc(), n.user_code());
  }
  return out;
}

std::vector<LiteralSite> kernel_literals(const Compile& compile, const std::string& graph_kind) {
  std::vector<LiteralSite> out;
  for (const auto& k : compile.kernels) {
    int ord = 0;
    size_t count = 0;
    for (const auto& lit : k.literals) count += looks_like_float_literal(lit.text) ? 1 : 0;
    for (const auto& lit : k.literals) {
      if (!looks_like_float_literal(lit.text)) continue;
      LiteralSite s;
      s.where = "kernel";
      // The kernel's literal count is in the key: kernels of a different shape (a tensorified
      // compile loads the scalar instead of baking it) must not align by ordinal.
      s.key = graph_kind + "|" + k.name + "/" + std::to_string(count) + "#" + std::to_string(ord++);
      s.text = lit.text;
      s.value = lit.value;
      s.node = k.name;
      s.target = lit.var;
      s.loc = lit.loc;
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace ilint::dynamo
