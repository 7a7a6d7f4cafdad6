#include "analyzer/parse/fx_json.h"

#include <nlohmann/json.hpp>

#include "analyzer/parse/python.h"
#include "analyzer/util/json_fields.h"

namespace ilint {

namespace {

using nlohmann::json;

// Renders an argument the way fx_graph_readable.py prints it, so both inputs give the same
// FxNode::args: node refs by name, lists as [a, b], dtypes as torch.float32.
std::string arg_text(const json& a, std::vector<IString>& refs) {
  if (a.is_object()) {
    if (a.contains("node") && a["node"].is_string()) {
      refs.push_back(a["node"].get<std::string>());
      return a["node"].get<std::string>();
    }
    if (a.contains("dtype") && a["dtype"].is_string()) return a["dtype"].get<std::string>();
    if (a.contains("repr") && a["repr"].is_string()) return a["repr"].get<std::string>();
    return a.dump();
  }
  if (a.is_array()) {
    std::string s = "[";
    for (size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + arg_text(a[i], refs);
    return s + "]";
  }
  if (a.is_null()) return "None";
  if (a.is_boolean()) return a.get<bool>() ? "True" : "False";
  if (a.is_number_float()) {
    // Python's repr of a float: shortest round-trip form, with a ".0" for integral values.
    double v = a.get<double>();
    std::string s = json(v).dump();
    if (s.find_first_of(".eE") == std::string::npos && s.find("inf") == std::string::npos && s.find("nan") == std::string::npos) s += ".0";
    return s;
  }
  if (a.is_number()) return a.dump();
  if (a.is_string()) return "'" + a.get<std::string>() + "'";
  return a.dump();
}

ValueKind kind_of(const std::string& k) {
  if (k == "tensor") return ValueKind::Tensor;
  if (k == "symint") return ValueKind::SymInt;
  if (k == "symfloat") return ValueKind::SymFloat;
  if (k == "symbool") return ValueKind::SymBool;
  if (k == "scalar") return ValueKind::Scalar;
  if (k == "none") return ValueKind::None;
  return ValueKind::Other;
}

std::vector<std::string> strings(const json& a) {
  std::vector<std::string> out;
  if (!a.is_array()) return out;
  for (auto& x : a) out.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return out;
}

// Nesting depth, without recursion (the document may be hostile).
bool nested_deeper_than(const json& j, size_t limit) {
  std::vector<std::pair<const json*, size_t>> stack{{&j, 0}};
  while (!stack.empty()) {
    auto [p, d] = stack.back();
    stack.pop_back();
    if (d > limit) return true;
    if (p->is_structured())
      for (const auto& c : *p) stack.emplace_back(&c, d + 1);
  }
  return false;
}

}  // namespace

bool parse_fx_json(const FilePath& path, const std::string& text, FxGraph& out, std::string& torch_version,
                   DiagSink& diags) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    diags.warning("parse-json", "not a JSON document (truncated?)", SourceLoc{path, 1, 0});
    return false;
  }
  // arg_text and nlohmann's dump() recurse once per nesting level: a document nested a hundred
  // thousand levels deep would overflow the stack. No graph needs more than a few levels.
  constexpr size_t kMaxNesting = 128;
  if (nested_deeper_than(j, kMaxNesting)) {
    diags.warning("parse-fx-json", "JSON nested deeper than " + std::to_string(kMaxNesting) + " levels; not read",
                  SourceLoc{path, 1, 0});
    return false;
  }
  if (!j.contains("inductor_lint_fx_graph") || !j.contains("nodes") || !j["nodes"].is_array()) {
    diags.warning("parse-fx-json", "not an inductor-lint FX graph JSON (missing inductor_lint_fx_graph or nodes)",
                  SourceLoc{path, 1, 0});
    return false;
  }
  if (j["inductor_lint_fx_graph"] != 1)
    diags.warning("version-mismatch", "FX graph JSON format version " + j["inductor_lint_fx_graph"].dump() +
                                          " (this build reads version 1)",
                  SourceLoc{path, 1, 0});
  if (j.contains("torch_version") && j["torch_version"].is_string()) torch_version = j["torch_version"];
  out.origin = "fx_json";
  out.file = path;
  int index = 0;
  for (auto& n : j["nodes"]) {
    ++index;
    if (!n.is_object() || !n.contains("name") || !n["name"].is_string()) {
      diags.warning("parse-fx-json", "node " + std::to_string(index) + " has no name; skipped", SourceLoc{path, 0, 0});
      continue;
    }
    FxNode x;
    x.name = n["name"].get<std::string>();
    x.op = json_string(n, "op");
    x.target = n.contains("target") && n["target"].is_string() ? n["target"].get<std::string>() : "";
    if (x.op == "placeholder" && x.target.empty()) x.target = x.name;
    std::vector<IString> args, refs;
    if (n.contains("args") && n["args"].is_array())
      for (auto& a : n["args"]) args.emplace_back(arg_text(a, refs));
    if (n.contains("kwargs") && n["kwargs"].is_object())
      for (auto& [k, v] : n["kwargs"].items()) x.kwargs[k] = arg_text(v, refs);
    x.args = args;
    x.input_nodes = refs;
    if (n.contains("val") && n["val"].is_object()) {
      const json& v = n["val"];
      x.kind = kind_of(json_string(v, "kind"));
      if (v.contains("dtype") && v["dtype"].is_string()) x.meta.dtype = parse_dtype(v["dtype"].get<std::string>());
      x.meta.shape = to_istrings(strings(v.value("shape", json::array())));
      x.meta.stride = to_istrings(strings(v.value("stride", json::array())));
      if (v.contains("device") && v["device"].is_string()) x.meta.device = v["device"].get<std::string>();
      if ((x.kind == ValueKind::SymInt || x.kind == ValueKind::SymFloat) && v.contains("expr") && v["expr"].is_string())
        x.meta.shape = {IString(v["expr"].get<std::string>())};
    }
    if (n.contains("mutates") && n["mutates"].is_string()) x.mutates = n["mutates"].get<std::string>();
    if (n.contains("user_source") && n["user_source"].is_object()) {
      const json& u = n["user_source"];
      if (u.contains("file") && u["file"].is_string() && u.contains("line") && u["line"].is_number_integer()) {
        x.set_user(UserFrame{SourceLoc{u["file"].get<std::string>(), u["line"].get<int>(), 0},
                             IString(json_string(u, "code")), IString(json_string(u, "function"))});
      }
    }
    x.def_loc = SourceLoc{path, 0, 0};
    out.add(std::move(x));
  }
  return !out.nodes.empty();
}

}  // namespace ilint
