#include "analyzer/report/dump_model.h"

#include "analyzer/model/names.h"

namespace ilint {

namespace {
template <class S>
std::string join(const std::vector<S>& v, const char* sep = ", ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}
std::string meta_text(const TensorMeta& m) {
  return dtype_name(m.dtype) + "[" + join(m.shape.vec()) + "]" + (m.device.empty() ? "" : " " + m.device);
}
// C++ accesses name their loop nest (MemAccess::nest); Triton ones have none.
// " mask xmask other 0.0" (Triton's mask and masked-off value, when given).
std::string access_text(const MemAccess& a) {
  std::string out;
  if (!a.mask.empty()) out += " mask " + a.mask.str();
  if (!a.other.empty()) out += " other " + a.other.str();
  return out;
}

std::string nest_text(const MemAccess& a) { return a.nest < 0 ? "" : " in nest " + std::to_string(a.nest); }
}  // namespace

void dump_compiles(const Program& program, std::ostream& os) {
  os << "program: " << program.compiles.size() << " compile(s)";
  if (!program.torch_version.empty()) os << ", torch " << program.torch_version;
  os << "\n";
  for (const auto& c : program.compiles) {
    os << "\ncompile " << c.id << " (" << c.graph_kind << (c.aot_ids.empty() ? "" : ", AOT ID " + join(c.aot_ids))
       << (c.device_type.empty() ? "" : ", " + c.device_type) << (c.cpp_wrapper ? ", cpp_wrapper" : "") << ")\n";
    if (!c.files.output_code.empty()) os << "  output_code: " << c.files.output_code << "\n";
    os << "  inputs:\n";
    for (const auto& in : c.inputs)
      os << "    " << in.name << ": " << value_kind_name(in.kind) << " " << meta_text(in.meta)
         << (in.is_cpu_scalar ? " (0-d cpu scalar)" : "") << "\n";
    os << "  fx graph (" << c.fx.nodes.size() << " nodes, " << c.fx.origin << ")\n";
    for (const auto& n : c.fx.nodes) {
      if (n.op == "placeholder") continue;
      os << "    " << n.name << " = " << n.target << "(" << join(n.args.vec()) << ") : " << n.annotation;
      if (n.user_loc()) os << "  <- " << n.user_loc()->file << ":" << n.user_loc()->line;
      if (!n.mutates.empty()) os << "  [mutates " << n.mutates << "]";
      os << "\n";
    }
    for (const auto& k : c.kernels) {
      os << "  kernel " << k.name << " [" << backend_name(k.backend) << " " << kind_name(k.kind)
         << (k.heuristic.empty() ? "" : " (" + k.heuristic + ")") << "] at line " << k.def_loc.line << "\n";
      os << "    params:";
      for (const auto& p : k.params)
        os << " " << p.name << ":" << (p.is_pointer ? "*" : "") << dtype_name(p.dtype) << (p.is_restrict ? " restrict" : "");
      os << "\n";
      if (!k.mutated_args.empty()) os << "    mutated_arg_names: " << join(k.mutated_args) << "\n";
      for (const auto& [n, v] : k.numels) os << "    " << n << " = " << v << "\n";
      if (!k.source_nodes.empty()) os << "    source nodes: " << join(k.source_nodes) << "\n";
      if (!k.fx_nodes.empty()) os << "    computes fx nodes: " << join(k.fx_nodes) << "\n";
      for (const auto& a : k.loads)
        os << "    load  " << a.var << " <- " << a.ptr << "[" << a.index << "] as " << dtype_name(a.value_dtype) << nest_text(a)
           << access_text(a) << " (line " << a.loc.line << ")\n";
      for (const auto& a : k.stores)
        os << (a.atomic ? "    atomic " : "    store ") << a.ptr << "[" << a.index << "] <- " << a.var << " as "
           << dtype_name(a.value_dtype) << nest_text(a) << access_text(a) << " (line " << a.loc.line << ")\n";
      for (const auto& x : k.casts) os << "    cast  " << x.var << " = " << x.src << " -> " << dtype_name(x.to) << " (line " << x.loc.line << ")\n";
      for (const auto& l : k.literals) os << "    literal " << l.text << " in " << l.var << " (line " << l.loc.line << ")\n";
      for (const auto& r : k.reductions)
        os << "    " << (r.is_scan ? "scan " : "reduce ") << r.combine << " of " << r.input_var << " -> " << r.result_var
           << " in " << dtype_name(r.compute_dtype) << ", length " << (r.length >= 0 ? std::to_string(r.length) : r.length_expr)
           << " (line " << r.loc.line << ")\n";
      for (const auto& e : k.parse_errors) os << "    parse error: " << e << "\n";
      if (!k.forms.empty()) {
        os << "    forms:";
        for (const auto& f : k.forms) os << " " << f;
        os << "\n";
      }
    }
    os << "  buffers:\n";
    for (const auto& b : c.buffers)
      os << "    " << b.name << ": " << meta_text(b.meta) << (b.is_graph_input ? " input" : "") << (b.is_graph_output ? " output" : "")
         << (b.alias_of.empty() ? "" : std::string(" alias of ") + b.alias_of + (b.is_reuse ? " (reuse)" : "")) << "\n";
    os << "  launches:\n";
    for (const auto& l : c.launches)
      os << "    #" << l.order << " " << (l.is_fallback ? "fallback " : "") << l.kernel << "(" << join(l.args) << ")"
         << (l.results.empty() ? "" : " -> " + join(l.results)) << " (line " << l.loc.line << ")\n";
    for (const auto& mu : c.mutations) os << "  mutation: " << mu.target << " via " << mu.via << (mu.kernel.empty() ? "" : " in " + mu.kernel) << " (line " << mu.loc.line << ")\n";
    if (!c.outputs.empty()) os << "  outputs: " << join(c.outputs) << "\n";
    for (const auto& [k, v] : c.config) os << "  config " << k << " = " << v << "\n";
  }
}

}  // namespace ilint
