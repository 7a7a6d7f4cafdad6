#include "analyzer/localize/localize.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "analyzer/confirm/confirm.h"
#include "analyzer/model/fx_query.h"
#include "analyzer/util/install_layout.h"
#include "analyzer/util/json_fields.h"

namespace ilint {

namespace {

std::string default_tool() { return companion_file("tools/localize.py"); }

nlohmann::json skipped(const std::string& reason, const std::string& detail) {
  return {{"protocol", 1}, {"mode", "localize"}, {"verdict", "skipped"}, {"reason", reason}, {"detail", detail}};
}

bool starts_with(const std::string& s, std::string_view p) { return s.compare(0, p.size(), p) == 0; }

// The post-grad FX nodes launch `l` computes: the provenance map's entry for its debug handle, else
// the kernel's graph fragment, else the source-node comment above the kernel or the launch (the
// names the compile's FX graph has).
std::vector<std::string> launch_nodes(const Compile& c, const KernelLaunch& l) {
  std::vector<std::string> out;
  if (!l.provenance_handle.empty()) {
    auto it = c.provenance.kernel_to_post.find(l.provenance_handle);
    if (it != c.provenance.kernel_to_post.end())
      for (const auto& n : it->second) out.push_back(n.str());
  }
  const Kernel* k = l.is_fallback ? nullptr : c.kernel(l.kernel);
  if (out.empty() && k) out = k->fx_nodes;
  if (out.empty() && k) out = k->source_nodes;
  if (out.empty()) out.assign(l.source_nodes.begin(), l.source_nodes.end());
  std::vector<std::string> known;
  for (auto& n : out)
    if (c.fx.find(n) && std::find(known.begin(), known.end(), n) == known.end()) known.push_back(n);
  return known;
}

// Of a launch's nodes, those whose value leaves the launch (a node outside the set, or the graph's
// output, reads it; or nothing does): the values its written buffers can hold. In graph order.
std::vector<std::string> sink_nodes(const Compile& c, const std::vector<std::string>& nodes,
                                    const FxConsumers& consumers) {
  std::set<std::string> in(nodes.begin(), nodes.end());
  std::vector<std::string> sinks;
  for (const auto& fx : c.fx.nodes) {
    std::string name = fx.name.str();
    if (!in.count(name)) continue;
    auto it = consumers.find(fx.name.str());
    bool leaves = it == consumers.end() || it->second.empty();
    if (!leaves)
      for (const FxNode* u : it->second)
        if (!in.count(u->name.str())) leaves = true;
    if (leaves) sinks.push_back(name);
  }
  return sinks.empty() ? nodes : sinks;
}

// When the compile says nothing of what a launch computes (no provenance file and no source-node
// comment: torch 2.13's CPU backward graphs), the FX nodes whose size and dtype are the buffer's:
// the tool takes the one whose eager value is closest, and says it matched by value. At most
// kMaxSameShapeNodes, since the tool keeps each one's eager and float64 value.
constexpr size_t kMaxSameShapeNodes = 32;
std::vector<std::string> same_shape_nodes(const Compile& c, const std::string& buffer) {
  std::vector<std::string> out;
  const Buffer* b = c.buffer(buffer);
  if (!b || b->meta.shape.empty()) return out;
  for (const auto& n : c.fx.nodes) {
    if (n.op != "call_function" || !(n.meta.shape == b->meta.shape.vec()) || n.meta.dtype != b->meta.dtype) continue;
    out.push_back(n.name.str());
    if (out.size() == kMaxSameShapeNodes) break;
  }
  return out;
}

// Whether parameter `p` of kernel `k` is written: an output pointer, a stated mutated argument, or a
// pointer the body stores through.
bool param_written(const Kernel& k, const KernelParam& p) {
  if (starts_with(p.name, "out_ptr") || starts_with(p.name, "in_out_ptr")) return true;
  if (!p.is_pointer) return false;
  if (std::find(k.mutated_args.begin(), k.mutated_args.end(), p.name) != k.mutated_args.end()) return true;
  for (const auto& s : k.stores)
    if (s.ptr.str() == p.name) return true;
  return false;
}

// The graph inputs a generated kernel reads (arguments bound to parameters it does not write).
std::vector<std::string> inputs_read(const Compile& c, const KernelLaunch& l) {
  std::vector<std::string> out;
  const Kernel* k = l.is_fallback ? nullptr : c.kernel(l.kernel);
  if (!k) return out;
  for (const auto& b : bind_params(c, *k, l)) {
    const Buffer* root = c.buffer(b.buf.root);
    if (!b.param || !root || !root->is_graph_input || param_written(*k, *b.param)) continue;
    if (std::find(out.begin(), out.end(), b.buf.root) == out.end()) out.push_back(b.buf.root);
  }
  return out;
}

struct Write {
  const KernelLaunch* launch;
  std::string param;     // kernel parameter, or "result" / "out" for an ATen fallback
  std::string buffer;    // the argument's buffer
  std::string root;      // the buffer that owns the memory
  int arg = -1;          // argument position (generated kernels)
};

// What every launch writes, in launch order.
std::vector<Write> launch_writes(const Compile& c) {
  std::vector<Write> out;
  for (const auto& l : c.launches) {
    if (!l.is_fallback) {
      const Kernel* k = c.kernel(l.kernel);
      if (!k) continue;
      std::set<std::string> seen;
      auto bound = bind_params(c, *k, l);
      for (size_t i = 0; i < bound.size(); ++i) {
        const auto& b = bound[i];
        if (!b.param || !param_written(*k, *b.param) || b.buf.root.empty()) continue;
        if (!seen.insert(b.arg).second) continue;
        out.push_back({&l, b.param->name, b.buf.buffer, b.buf.root, static_cast<int>(i)});
      }
      continue;
    }
    for (const auto& r : l.results) {
      ArgBuffer b = resolve_launch_arg(c, r);
      if (!b.root.empty()) out.push_back({&l, "result", r, b.root, -1});
    }
    auto it = l.kwargs.find("out");
    if (it != l.kwargs.end()) {
      ArgBuffer b = resolve_launch_arg(c, it->second.str());
      if (!b.root.empty()) out.push_back({&l, "out", b.buffer, b.root, -1});
    }
  }
  return out;
}

}  // namespace

std::string localize_refusal(const Compile& c) {
  if (c.cpp_wrapper)
    return "the compile's wrapper is C++ (cpp_wrapper): its kernel launches are not Python calls that can be observed";
  if (c.files.dir.empty())
    return c.files.trace_compile_id.empty()
               ? "no compile folder: localize loads its fx_graph_runnable.py and output_code.py"
               : "compile " + c.files.trace_compile_id +
                     " was read from TORCH_TRACE payloads: localize loads the torch_compile_debug folder; give it";
  if (c.files.output_code.empty()) return "the compile folder has no output_code.py";
  if (c.files.fx_graph_runnable.empty()) return "the compile folder has no fx_graph_runnable.py";
  if (c.launches.empty()) return "the wrapper launches no kernel";
  return "";
}

nlohmann::json localize_request(const Compile& c, const LocalizeOptions& o) {
  FxConsumers consumers = fx_consumers(c.fx);
  std::vector<Write> writes = launch_writes(c);
  std::map<std::string, int> last_writer;  // root -> order of the launch that writes it last
  for (const auto& w : writes) last_writer[w.root] = std::max(last_writer[w.root], w.launch->order);
  // Outputs: position -> root, and the FX node the graph returns there.
  std::map<std::string, std::vector<int>> output_positions;
  for (size_t p = 0; p < c.outputs.size(); ++p) {
    ArgBuffer b = resolve_launch_arg(c, c.outputs[p]);
    if (!b.root.empty()) output_positions[b.root].push_back(static_cast<int>(p));
  }
  const FxNode* output_node = nullptr;
  for (const auto& n : c.fx.nodes)
    if (n.op == "output") output_node = &n;
  auto output_node_name = [&](int p) -> std::string {
    if (output_node && output_node->input_nodes.size() == c.outputs.size()) return output_node->input_nodes[p].str();
    return "";
  };

  nlohmann::json launches = nlohmann::json::array();
  for (const auto& l : c.launches) {
    std::vector<std::string> nodes = launch_nodes(c, l);
    std::vector<std::string> sinks = sink_nodes(c, nodes, consumers);
    nlohmann::json jl = {{"order", l.order}, {"kernel", l.kernel}, {"fallback", l.is_fallback}, {"line", l.loc.line},
                         {"fx_nodes", nodes}, {"writes", nlohmann::json::array()}};
    for (const auto& w : writes) {
      if (w.launch != &l) continue;
      nlohmann::json jw = {{"param", w.param}, {"buffer", w.buffer}, {"root", w.root}};
      nlohmann::json cands = nlohmann::json::array();
      bool last = last_writer[w.root] == l.order;
      auto outs = output_positions.find(w.root);
      if (last && outs != output_positions.end())
        for (int p : outs->second) {
          nlohmann::json cand = {{"output", p}, {"why", "graph-output"}};
          if (std::string n = output_node_name(p); !n.empty()) cand["node"] = n;
          cands.push_back(cand);
        }
      const Buffer* rb = c.buffer(w.root);
      if (last && rb && rb->is_graph_input)
        for (const auto& n : c.fx.nodes)
          if (n.mutates == w.root) cands.push_back({{"node", n.name.str()}, {"why", "mutated-input"}});
      for (const auto& s : sinks) cands.push_back({{"node", s}, {"why", "kernel-node"}});
      if (sinks.empty())
        for (const auto& s : same_shape_nodes(c, w.root)) cands.push_back({{"node", s}, {"why", "same-shape"}});
      // A kernel that only re-lays out a graph input (a weight copied to channels-last before a
      // convolution) writes the input's value, which no FX node holds in that layout.
      for (const auto& in : inputs_read(c, l)) cands.push_back({{"node", in}, {"why", "input-copy"}});
      jw["candidates"] = cands;
      // Where its value can be seen: right after a generated kernel returns; an ATen fallback's
      // result (computed by the wrapper, not a wrapped kernel) just before the first later
      // generated kernel that reads it, or in call()'s result.
      if (!l.is_fallback) {
        jw["observe"] = {{"launch", l.order}, {"arg", w.arg}, {"when", "after"}};
      } else {
        for (const auto& m : c.launches) {
          if (m.order <= l.order || m.is_fallback || !jw["observe"].is_null()) continue;
          const Kernel* k = c.kernel(m.kernel);
          if (!k) continue;
          auto bound = bind_params(c, *k, m);
          for (size_t j = 0; j < bound.size(); ++j)
            if (bound[j].buf.root == w.root) {
              jw["observe"] = {{"launch", m.order}, {"arg", static_cast<int>(j)}, {"when", "before"}};
              break;
            }
        }
        if (jw["observe"].is_null() && last && outs != output_positions.end())
          jw["observe"] = {{"output", outs->second.front()}};
        if (jw["observe"].is_null())
          jw["unobserved"] = "an ATen call's result that no later generated kernel reads and call() does not return";
      }
      jl["writes"].push_back(jw);
    }
    launches.push_back(jl);
  }
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& i : c.inputs) inputs.push_back(i.name);
  return {{"protocol", 1},
          {"compile", c.id},
          {"compile_dir", c.files.dir.str()},
          {"output_code", c.files.output_code.str()},
          {"device", o.device},
          {"recorded_device", c.device_type},
          {"seed", o.seed},
          {"tol", o.tol},
          {"timeout_s", o.timeout_s},
          {"max_buffer_bytes", o.max_buffer_bytes},
          {"inputs", inputs},
          {"launches", launches}};
}

std::string recompute_write_verdict(const nlohmann::json& w) {
  if (!w.is_object() || json_member_mistyped(w, "allclose", &nlohmann::json::is_boolean) || !w.contains("allclose"))
    return "";
  if (json_bool(w, "allclose", false)) return "ok";
  // integers and booleans are compared exactly: eager's value is the answer, float64 adds nothing
  if (json_bool(w, "exact", false)) return "divergent";
  if (!w.contains("eager_vs_fp64") || !w.contains("compiled_vs_fp64") || !w["eager_vs_fp64"].is_object() ||
      !w["compiled_vs_fp64"].is_object())
    return "";
  constexpr auto number = &nlohmann::json::is_number;
  if (json_member_mistyped(w["eager_vs_fp64"], "rmse", number) || json_member_mistyped(w["compiled_vs_fp64"], "rmse", number) ||
      json_member_mistyped(w, "multiplier", number))
    return "";
  double eager = json_number(w["eager_vs_fp64"], "rmse", 0.0);
  double compiled = json_number(w["compiled_vs_fp64"], "rmse", 0.0);
  double mult = json_number(w, "multiplier", 2.0);
  double tol = json_number(w, "tol", 1e-4);
  bool passes = compiled <= mult * eager + tol / 10;
  // inf/nan the compiled code makes where eager and float64 are finite fail whatever the RMSE says
  if (w.contains("nonfinite_only") && w["nonfinite_only"].is_object() &&
      json_number(w["nonfinite_only"], "compiled", 0) > json_number(w["nonfinite_only"], "eager", 0))
    passes = false;
  return passes ? "precision-artifact" : "divergent";
}

namespace {

int verdict_rank(const std::string& v) {
  return v == "divergent" ? 3 : v == "precision-artifact" ? 2 : v == "ok" ? 1 : 0;
}

// The user lines behind a launch's FX nodes, each once.
nlohmann::json user_lines_of(const Compile& c, const nlohmann::json& names) {
  nlohmann::json out = nlohmann::json::array();
  std::set<std::pair<std::string, int>> seen;
  if (!names.is_array()) return out;
  for (const auto& n : names) {
    if (!n.is_string()) continue;
    const FxNode* fx = find_fx_node(c, n.get<std::string>());
    if (!fx || !fx->user_loc()) continue;
    if (!seen.insert({fx->user_loc()->file.str(), fx->user_loc()->line}).second) continue;
    out.push_back({{"file", fx->user_loc()->file.str()}, {"line", fx->user_loc()->line}, {"code", fx->user_code().str()},
                   {"node", n}});
  }
  return out;
}

// The kernels a finding is about: the one it names, and those its evidence names (the kernel that
// drops a rounding, the scan's fallback).
std::set<std::string> kernels_of(const Finding& f) {
  std::set<std::string> out;
  if (!f.kernel.empty()) out.insert(f.kernel);
  if (!f.evidence.is_object()) return out;
  if (std::string k = json_string(f.evidence, "kernel"); !k.empty()) out.insert(k);
  for (const char* list : {"elided_roundings", "honored_roundings"})
    if (f.evidence.contains(list) && f.evidence[list].is_array())
      for (const auto& r : f.evidence[list])
        if (std::string k = json_string(r, "kernel"); !k.empty()) out.insert(k);
  return out;
}

// Links each launch to the findings of the compile about its kernel or its line, with the error
// bound a finding's evidence states (reduced-precision-scan's relative bounds), for the reports.
void link_findings(const Analysis& a, const Compile& c, nlohmann::json& row, const KernelLaunch& l) {
  for (const auto& f : a.findings) {
    if (f.compile_id != c.id) continue;
    bool about = kernels_of(f).count(l.kernel) || (f.location.file == l.loc.file && f.location.line == l.loc.line);
    if (!about) continue;
    row["findings"].push_back({{"rule", f.rule}, {"fingerprint", f.fingerprint}, {"severity", severity_name(f.severity)}});
    if (f.evidence.is_object() && f.evidence.contains("bound_worst_case_rel"))
      row["model_bound"] = {{"rule", f.rule},
                            {"typical_rel", f.evidence.value("bound_typical_rel", nlohmann::json())},
                            {"worst_case_rel", f.evidence["bound_worst_case_rel"]}};
  }
}

}  // namespace

void attach_localization(Analysis& a, const Compile& c, const nlohmann::json& answer) {
  Localization loc;
  loc.compile_id = c.id;
  if (!answer.is_object() || json_string(answer, "verdict").empty()) {
    loc.answer = skipped("bad-answer", "the answer has no verdict");
  } else {
    loc.answer = answer;
  }
  nlohmann::json& ans = loc.answer;
  ans["compile"] = c.id;
  if (ans.contains("launches") && ans["launches"].is_array()) {
    int first_departure = -1, first_divergent = -1;
    for (auto& row : ans["launches"]) {
      if (!row.is_object()) continue;
      int order = static_cast<int>(json_number(row, "order", -1));
      const KernelLaunch* l = nullptr;
      for (const auto& x : c.launches)
        if (x.order == order) l = &x;
      if (l) {
        row["source"] = {{"file", l->loc.file.str()}, {"line", l->loc.line}};
        if (const Kernel* k = c.kernel(l->kernel)) row["kernel_source"] = {{"file", k->def_loc.file.str()}, {"line", k->def_loc.line}};
        nlohmann::json nodes = launch_nodes(c, *l);
        row["fx_nodes"] = nodes;
        // Where the compile does not say what the launch computes, the nodes its buffers matched.
        nlohmann::json traced = nodes;
        if (traced.empty() && row.contains("writes") && row["writes"].is_array())
          for (const auto& w : row["writes"])
            if (std::string n = json_string(w, "node"); !n.empty() && c.fx.find(n)) traced.push_back(n);
        row["user_lines"] = user_lines_of(c, traced);
        row["findings"] = nlohmann::json::array();
        link_findings(a, c, row, *l);
      }
      // The verdicts again, from the numbers: a tool and an analyzer that disagree are caught.
      std::string worst;
      if (row.contains("writes") && row["writes"].is_array())
        for (auto& w : row["writes"]) {
          if (w.is_object() && !w.contains("tol")) w["tol"] = json_number(ans, "tol", 1e-4);
          std::string v = recompute_write_verdict(w);
          if (!v.empty() && verdict_rank(v) > verdict_rank(worst)) worst = v;
        }
      if (worst.empty()) worst = "unobserved";
      row["verdict_recomputed"] = worst;
      if (worst != json_string(row, "verdict")) row["verdict_mismatch"] = true;
      if (first_departure < 0 && (worst == "divergent" || worst == "precision-artifact")) first_departure = order;
      if (first_divergent < 0 && worst == "divergent") first_divergent = order;
    }
    ans["first_departure_recomputed"] = first_departure < 0 ? nlohmann::json() : nlohmann::json(first_departure);
    ans["first_divergent_recomputed"] = first_divergent < 0 ? nlohmann::json() : nlohmann::json(first_divergent);
  }
  for (auto& x : a.localizations)
    if (x.compile_id == c.id) {
      x = std::move(loc);
      return;
    }
  a.localizations.push_back(std::move(loc));
}

void localize_compiles(Analysis& a, const LocalizeOptions& o, bool only_with_findings) {
  ConfirmOptions run;
  run.python = o.python;
  run.tool = o.tool.empty() ? default_tool() : o.tool;
  run.timeout_s = o.timeout_s;
  std::set<std::string> named;
  for (const auto& f : a.findings) named.insert(f.compile_id);
  nlohmann::json machine_refusal;  // no torch / no CUDA / no tool: the same answer for every compile
  for (const auto& c : a.program.compiles) {
    if (only_with_findings && !named.count(c.id)) continue;
    if (std::string why = localize_refusal(c); !why.empty()) {
      attach_localization(a, c, skipped("cannot-localize", why));
      continue;
    }
    if (!machine_refusal.is_null()) {
      attach_localization(a, c, machine_refusal);
      continue;
    }
    nlohmann::json ans = run_confirm_tool(localize_request(c, o), run);
    std::string reason = json_string(ans, "reason");
    if (json_string(ans, "verdict") == "skipped" &&
        (reason == "no-torch" || reason == "no-cuda" || reason == "no-python" || reason == "no-tool"))
      machine_refusal = ans;
    attach_localization(a, c, ans);
  }
}

size_t attach_recorded_localizations(Analysis& a, const nlohmann::json& recorded, DiagSink& diags) {
  const nlohmann::json* list = &recorded;
  if (recorded.is_object() && recorded.contains("results")) list = &recorded["results"];
  if (!list->is_array()) {
    diags.warning("localize-results", "recorded localizations are not a JSON array");
    return 0;
  }
  size_t n = 0;
  for (const auto& r : *list) {
    if (!r.is_object() || json_string(r, "mode") != "localize") continue;
    std::string id = json_string(r, "compile");
    std::string dir = std::filesystem::path(json_string(r, "compile_dir")).filename().string();
    for (const auto& c : a.program.compiles) {
      bool match = (!id.empty() && id == c.id) ||
                   (!dir.empty() && !c.files.dir.empty() && std::filesystem::path(c.files.dir.str()).filename() == dir);
      if (!match) continue;
      attach_localization(a, c, r);
      ++n;
      break;
    }
  }
  return n;
}

}  // namespace ilint
