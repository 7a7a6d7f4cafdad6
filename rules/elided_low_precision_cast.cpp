// elided-low-precision-cast: the user casts to bf16/fp16 explicitly and the compiled code never
// rounds there. Doc: rules/elided-low-precision-cast.md.
//
// Two ways the rounding disappears:
//  * not-rounded-in-kernel: the cast is an FX node (convert_element_type / _to_copy to bf16/fp16)
//    computed inside a fused Triton/C++ kernel that keeps the value in f32 (Inductor's compute
//    type for bf16/fp16 is f32 unless emulate_precision_casts) and never stores it to a buffer
//    of that dtype: eager rounds, compiled does not.
//  * removed-from-graph: the user's source line casts to bf16/fp16, the graph Inductor compiled
//    has nodes from that line, and none of them, nor any of their inputs, has that dtype: the
//    cast was rewritten away before Inductor (joint-graph pass `pointless_convert` turns
//    `x.to(bf16).float()` into `x.float()`).
// A cast whose value feeds a cumulative reduction is also seen by reduced-precision-scan, which
// speaks about the scan; this rule speaks about the user's cast. Both report, with distinct
// messages; the evidence says so (`also_reported_by`).
#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

// Low-precision dtypes the user's code casts to explicitly: `.to(torch.bfloat16)`, `.bfloat16()`,
// `.half()`, `.to(torch.float16)`, `dtype=torch.bfloat16`, `.type(torch.half)`.
std::set<DType> explicit_casts(const std::string& code) {
  static const RE2 to_re(R"(\.(?:to|type)\(\s*(?:dtype\s*=\s*)?torch\.(bfloat16|float16|half)\b)");
  static const RE2 method_re(R"(\.(bfloat16|half)\(\s*\))");
  static const RE2 kw_re(R"(\bdtype\s*=\s*torch\.(bfloat16|float16|half)\b)");
  std::set<DType> out;
  auto add = [&](const std::string& w) { out.insert(w == "bfloat16" ? DType::BF16 : DType::F16); };
  for (const RE2* re : {&to_re, &method_re, &kw_re}) {
    re2::StringPiece in(code);
    std::string w;
    while (RE2::FindAndConsume(&in, *re, &w)) add(w);
  }
  return out;
}

// False only where explicit_casts finds nothing: every one of its patterns ends in bfloat16,
// float16 or half.
bool may_name_low_precision(std::string_view code) {
  return code.find("float16") != std::string_view::npos || code.find("half") != std::string_view::npos;
}

bool is_cast_op(const std::string& target) {
  std::string op = op_short_name(target);
  return op == "convert_element_type" || op == "_to_copy" || op == "to";
}

std::string user_key(const FxNode& n) {
  return n.user_loc() ? n.user_loc()->file + ":" + std::to_string(n.user_loc()->line) + "|" + n.user_code() : "";
}

std::string short_loc(const FxNode& n) {
  if (!n.user_loc()) return "?";
  std::string f = n.user_loc()->file;
  auto s = f.find_last_of('/');
  if (s != std::string::npos) f = f.substr(s + 1);
  return f + ":" + std::to_string(n.user_loc()->line);
}

// A cast to d whose result the kernel uses; an unused one (dead code) rounds nothing. A cast
// without a variable of its own sits inside the expression that uses it.
bool kernel_rounds_to(const Kernel& k, DType d) {
  for (const auto& c : k.casts)
    if (c.to == d && (c.var.str().empty() || kernel_reads(k, c.var.str()))) return true;
  return false;
}

bool feeds_scan(const FxGraph& g, const std::string& name) {
  for (const auto& d : fx_descendants(g, name))
    if (const FxNode* n = g.find(d); n && is_cumulative_op(n->target)) return true;
  return false;
}

class ElidedLowPrecisionCast : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"elided-low-precision-cast",
                            "Explicit bf16/fp16 cast that the compiled code does not perform",
                            Severity::Warning,
                            "medium",
                            {"correctness", "precision", "eager-parity"},
                            "The user casts to bf16/fp16 explicitly, and the compiled code never rounds there: the "
                            "fused kernel keeps the value in f32, or the cast was removed from the graph.",
                            "rules/elided-low-precision-cast.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) check_compile(c, out);
  }

 private:
  void check_compile(const Compile& c, std::vector<Finding>& out) const {
    const FxGraph& g = c.fx;
    // User lines with an explicit low-precision cast, and the nodes each line produced.
    // Only lines whose code can hold a cast explicit_casts finds (its patterns all name float16,
    // bfloat16 or half): most nodes are skipped before their line's key is built.
    std::map<std::string, std::vector<const FxNode*>> by_line;
    for (const auto& n : g.nodes)
      if (n.op == "call_function" && n.user_loc() && may_name_low_precision(n.user_code()))
        by_line[user_key(n)].push_back(&n);

    for (const auto& [key, nodes] : by_line) {
      std::set<DType> wanted = explicit_casts(nodes[0]->user_code());
      for (DType d : wanted) {
        // 1. The cast is in the graph: is it rounded?
        std::vector<const FxNode*> casts;
        bool line_has_d = false, inputs_have_d = false, dtypes_known = true;
        for (const FxNode* n : nodes) {
          if (n->meta.dtype == DType::Unknown) dtypes_known = false;
          if (n->meta.dtype == d) line_has_d = true;
          if (n->meta.dtype == d && is_cast_op(n->target)) casts.push_back(n);
          for (const auto& in : n->input_nodes)
            if (const FxNode* i = g.find(in); i && i->meta.dtype == d) inputs_have_d = true;
        }
        for (const FxNode* n : casts) check_cast_node(c, *n, d, out);
        // 2. No value of that dtype on the line, nor feeding it: the cast is gone. Forward and
        // inference graphs only: a backward graph's nodes carry the forward line of the op they
        // differentiate, and the forward finding already names the cast.
        if (!line_has_d && !inputs_have_d && dtypes_known && c.graph_kind != "backward")
          report_removed(c, nodes, d, out);
      }
    }
  }

  void check_cast_node(const Compile& c, const FxNode& n, DType d, std::vector<Finding>& out) const {
    // Source dtype: only a narrowing cast rounds.
    DType src = DType::Unknown;
    for (const auto& in : n.input_nodes)
      if (const FxNode* i = c.fx.find(in)) src = i->meta.dtype;
    if (src != DType::F32 && src != DType::F64) return;
    const Kernel* k = kernel_computing(c, n.name);
    if (!k) return;  // computed by an ATen op, which rounds as eager does
    if (k->backend == KernelBackend::Cpp && k->casts.empty() && k->stmts.empty()) return;  // body not read
    bool materialized = false;
    std::vector<std::string> consumers;
    for (const auto& u : c.fx.nodes) {
      if (std::find(u.input_nodes.begin(), u.input_nodes.end(), n.name) == u.input_nodes.end()) continue;
      consumers.push_back(u.name);
      if (u.op == "output" || kernel_computing(c, u.name) != k) materialized = true;
    }
    if (kernel_rounds_to(*k, d) || materialized) return;

    Finding f;
    f.compile_id = c.id;
    f.kernel = k->name;
    f.severity = Severity::Warning;
    f.location = k->body_loc.line ? k->body_loc : k->def_loc;
    const std::string to = dtype_name(d);
    f.message = fit_headline({"explicit cast to " + to + " (", input_text(short_loc(n)),
                              ", " + c.graph_kind + " graph) is fused and never rounded: compiled results differ from eager"});
    f.notes.push_back("`" + n.name.str() + "` = " + op_short_name(n.target) + "(" + dtype_name(src) + " -> " + to +
                      ") is fused into `" + k->name + "`, which keeps it in f32 and never rounds it to " + to +
                      " (no cast to " + to + ", not stored to a " + to + " buffer).");
    f.notes.push_back("Eager rounds there, compiled does not.");
    bool scan = feeds_scan(c.fx, n.name);
    if (scan) f.notes.push_back("The value feeds a cumulative reduction: reduced-precision-scan reports the scan.");
    f.fix = "For parity with eager set torch._inductor.config.emulate_precision_casts = True "
            "(TORCHINDUCTOR_EMULATE_PRECISION_CASTS=1), which keeps the rounding in fused kernels. If the cast was "
            "only meant to save memory, nothing to do: compiled is the more precise side.";
    f.related.push_back(RelatedLocation{*n.user_loc(), "user source: " + n.user_code()});
    f.related.push_back(RelatedLocation{n.def_loc, "the cast node in the graph Inductor compiled"});
    f.evidence = {{"claim", "not-rounded-in-kernel"},
                  {"graph_kind", c.graph_kind},
                  {"node", n.name},
                  {"op", op_short_name(n.target)},
                  {"from", dtype_name(src)},
                  {"to", dtype_name(d)},
                  {"kernel", k->name},
                  {"consumers", consumers},
                  {"unit_roundoff", unit_roundoff(d)},
                  {"user_code", n.user_code()}};
    if (scan) f.evidence["also_reported_by"] = "reduced-precision-scan";
    f.fingerprint_key = c.graph_kind + "|not-rounded|" + n.user_code() + "|" + dtype_name(d);
    out.push_back(std::move(f));
  }

  void report_removed(const Compile& c, const std::vector<const FxNode*>& nodes, DType d,
                      std::vector<Finding>& out) const {
    const FxNode& first = *nodes[0];
    const Kernel* k = nullptr;
    for (const FxNode* n : nodes)
      if ((k = kernel_computing(c, n->name))) break;
    // A kernel that does round to d computes something of this line in d after all.
    if (k && kernel_rounds_to(*k, d)) return;

    Finding f;
    f.compile_id = c.id;
    f.kernel = k ? k->name : "";
    f.severity = Severity::Warning;
    f.location = first.def_loc;
    const std::string to = dtype_name(d);
    f.message = fit_headline({"explicit cast to " + to + " (", input_text(short_loc(first)),
                              ", " + c.graph_kind + " graph) is not in the compiled graph, so its rounding never happens"});
    std::ostringstream nodes_note;
    nodes_note << "The cast is not in the graph Inductor compiled: the line's nodes (";
    for (size_t i = 0; i < nodes.size() && i < 6; ++i)
      nodes_note << (i ? ", " : "") << "`" << nodes[i]->name << "` " << dtype_name(nodes[i]->meta.dtype);
    if (nodes.size() > 6) nodes_note << ", ...";
    nodes_note << ") and their inputs carry no " << to << " value, so the rounding the code asks for never happens.";
    f.notes.push_back(nodes_note.str());
    f.notes.push_back("A round trip such as .to(" + to + ").float() is removed by the pointless_convert graph pass; "
                      "emulate_precision_casts does not restore it.");
    f.fix = "If the rounding matters (quantization emulation, matching a bf16 model), make it observable to the "
            "compiler: round with an op that is not a dtype conversion chain, or keep the bf16 tensor as a graph "
            "output; otherwise accept that compiled is the more precise side. Run `inductor-lint confirm` to measure.";
    f.related.push_back(RelatedLocation{*first.user_loc(), "user source: " + first.user_code()});
    if (k) f.related.push_back(RelatedLocation{k->def_loc, "the line's nodes are computed in " + k->name});
    nlohmann::json ns = nlohmann::json::array();
    for (const FxNode* n : nodes)
      ns.push_back({{"node", n->name}, {"op", op_short_name(n->target)}, {"dtype", dtype_name(n->meta.dtype)}});
    f.evidence = {{"claim", "removed-from-graph"},
                  {"graph_kind", c.graph_kind},
                  {"to", dtype_name(d)},
                  {"line_nodes", ns},
                  {"kernel", k ? k->name : ""},
                  {"unit_roundoff", unit_roundoff(d)},
                  {"user_code", first.user_code()}};
    f.fingerprint_key = c.graph_kind + "|removed|" + first.user_code() + "|" + dtype_name(d);
    out.push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> make_elided_low_precision_cast() { return std::make_unique<ElidedLowPrecisionCast>(); }

}  // namespace ilint
