// output-dtype-mismatch: a graph output whose dtype in the compiled code is not the dtype of the FX
// node it returns. The FX graph records the dtype eager produces; the wrapper allocates the buffer it
// returns with the dtype Inductor's lowering chose. Where they differ the caller gets another dtype
// than eager gives, and integer values change with it: uint8 arithmetic that wraps in eager does not
// wrap in int64 (`torch.any(x) * 200 + 100`: eager 44, compiled 300; pytorch#198081, #191308,
// #197091). See rules/output-dtype-mismatch.md.
#include <set>

#include "analyzer/rule.h"

namespace ilint {
namespace {

bool is_integer(DType d) {
  return d == DType::Bool || d == DType::I8 || d == DType::U8 || d == DType::I16 || d == DType::I32 || d == DType::I64;
}

class OutputDtypeMismatch : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"output-dtype-mismatch",
                            "Compiled graph output of another dtype than eager's",
                            Severity::Error,
                            "high",
                            {"correctness", "dtype", "eager-parity"},
                            "A graph output that the compiled code allocates with another dtype than the FX node "
                            "it returns: the caller gets another dtype, and integer values that wrap in eager do not",
                            "rules/output-dtype-mismatch.md", /*experimental=*/false, ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) {
      // The FX graph the compile was lowered from (fx_graph_readable.py, FX JSON, or the TORCH_TRACE
      // graph that file prints; a graph fragment of the output code holds no return), and call()'s
      // returns.
      if (c.fx.origin.empty() || c.fx.origin == "graph_fragment") continue;
      const FxNode* ret = nullptr;
      for (const auto& n : c.fx.nodes)
        if (n.op == "output") ret = &n;
      if (!ret || c.outputs.empty()) continue;
      // The FX return lists node names (None entries are not nodes); call() returns "None" there.
      // Paired in order when both sides name as many values; otherwise the positions are not known.
      std::vector<std::string> returned;
      for (const auto& o : c.outputs)
        if (o != "None") returned.push_back(o);
      if (returned.size() != ret->input_nodes.size()) continue;
      for (size_t p = 0; p < returned.size(); ++p) {
        const FxNode* node = c.fx.find(ret->input_nodes[p].str());
        const Buffer* buf = c.buffer(returned[p]);
        if (!node || !buf || node->op == "placeholder") continue;
        DType eager = node->meta.dtype, compiled = buf->meta.dtype;
        if (eager == DType::Unknown || compiled == DType::Unknown || eager == compiled) continue;
        out.push_back(finding(c, *node, *buf, p, *ret));
      }
    }
  }

 private:
  static Finding finding(const Compile& c, const FxNode& node, const Buffer& buf, size_t position, const FxNode& ret) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    const std::string eager = dtype_name(node.meta.dtype), compiled = dtype_name(buf.meta.dtype);
    const std::string code = node.user_code().empty() ? node.name.str() : node.user_code().str();
    f.message = fit_headline({"output " + std::to_string(position) + " is " + compiled + " compiled, " + eager +
                              " in eager (", input_text(code), "): the caller gets another dtype than eager's"});
    f.notes.push_back("The FX graph's `" + node.name.str() + "` (" + node.target.str() + ", " + c.graph_kind +
                      " graph) is " + eager + "; call() returns `" + buf.name + "`, allocated as " + compiled + ".");
    if (is_integer(node.meta.dtype) && is_integer(buf.meta.dtype))
      f.notes.push_back("Integer values that wrap around in " + eager + " in eager do not in " + compiled + ".");
    else
      f.notes.push_back("Values are rounded (or not) to " + compiled + " where eager gives " + eager + ".");
    f.location = buf.alloc_loc.valid() ? buf.alloc_loc : ret.def_loc;
    if (node.user_loc()) f.related.push_back({*node.user_loc(), "user source: " + code});
    f.related.push_back({node.def_loc, "`" + node.name.str() + "` is " + eager + " in the graph Inductor compiled"});
    f.fix = "Cast the result to the dtype you need explicitly (`.to(torch.uint8)` after the arithmetic, or compute in "
            "int64 from the start with `x.to(torch.int64)`), so that eager and compiled agree; check the values: "
            "where eager wraps around in a narrow integer type the compiled result does not.";
    f.fingerprint_key = node.target.str() + "|" + eager + "|" + compiled + "|" + std::to_string(position);
    f.evidence = {{"output_position", position},
                  {"fx_node", node.name.str()},
                  {"fx_target", node.target.str()},
                  {"eager_dtype", eager},
                  {"compiled_buffer", buf.name},
                  {"compiled_dtype", compiled}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_output_dtype_mismatch() { return std::make_unique<OutputDtypeMismatch>(); }
}  // namespace ilint
