// reinplace-into-expand: an indexed accumulate (`index_add`, `index_put(accumulate=True)`, ...) whose
// destination is an `expand` of a smaller tensor, which the compiled code writes in place into the
// smaller tensor's storage. Eager materializes the expanded destination (4 x 8 elements) and
// accumulates each row on its own; the re-inplaced kernel accumulates every row into the same
// (1 x 8) storage, so every row of the result holds the sum of all of them (pytorch#183986: Inductor's
// reinplace pass on 2.12 and 2.13; 2.14.1 allocates the whole destination). See
// rules/reinplace-into-expand.md.
#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

// Functional ops that write `self` (their first argument) at indexed positions.
bool is_indexed_write(const std::string& target) {
  for (const char* op : {"aten.index_put.default", "aten.index_add.default", "aten.index_copy.default",
                         "aten.scatter_add.default", "aten.scatter.src", "aten.scatter.value", "aten.scatter_reduce.two",
                         "aten.index_reduce.default"})
    if (target.find(op) != std::string::npos) return true;
  return false;
}

// The number of elements of a shape whose sizes are all literals; -1 otherwise.
int64_t literal_numel(const IStringList& shape) {
  int64_t n = 1;
  for (const auto& d : shape) {
    const std::string s = d.str();
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 12) return -1;
    if (__builtin_mul_overflow(n, std::stoll(s), &n)) return -1;
  }
  return n;
}

class ReinplaceIntoExpand : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"reinplace-into-expand",
                            "Indexed accumulate into an expanded tensor written in place",
                            Severity::Error,
                            "high",
                            {"correctness", "mutation", "aliasing"},
                            "An index_add/index_put into an expand of a smaller tensor, which the compiled kernel "
                            "writes in place into the smaller storage: every expanded row receives every update",
                            "rules/reinplace-into-expand.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& n : c.fx.nodes) {
        if (n.op != "call_function" || !is_indexed_write(n.target.str()) || n.input_nodes.empty() || n.args.empty())
          continue;
        const FxNode* dest = find_fx_node(c, n.args[0].str());
        if (!dest || dest->target.str().find("aten.expand.default") == std::string::npos || dest->input_nodes.empty())
          continue;
        const FxNode* base = find_fx_node(c, dest->input_nodes[0].str());
        const int64_t expanded = literal_numel(n.meta.shape);
        const int64_t stored = base ? literal_numel(base->meta.shape) : -1;
        if (expanded <= 0 || stored <= 0 || stored >= expanded) continue;
        const Kernel* k = kernel_computing(c, n.name.str());
        if (!k) continue;
        // The buffer the kernel's stores go to, per launch: smaller than the value it must hold means
        // the accumulate runs in the base's storage.
        for_each_kernel_launch(c, [&](const Kernel& launched, const KernelLaunch& l) {
          if (&launched != k) return;
          for (const auto& b : bind_params(c, launched, l)) {
            if (!b.param || !b.param->is_pointer) continue;
            bool written = false;
            for (const auto& s : launched.stores) written |= s.ptr == b.param->name;
            const Buffer* buf = written ? c.buffer(b.buf.root) : nullptr;
            if (!buf || literal_numel(buf->meta.shape) != stored) continue;
            out.push_back(finding(c, launched, l, n, *dest, *base, *buf, expanded, stored));
            return;
          }
        });
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const KernelLaunch& l, const FxNode& write,
                         const FxNode& expand, const FxNode& base, const Buffer& buf, int64_t expanded, int64_t stored) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    const std::string op = op_short_name(write.target.str());
    const std::string code = write.user_code().empty() ? write.name.str() : write.user_code().str();
    f.message = fit_headline({"`", input_text(code), "`: " + op + " into an expand runs in place in its " +
                              std::to_string(stored) + "-element base"});
    f.notes = {"`" + write.name.str() + "` (" + op + ", " + c.graph_kind + " graph) writes into `" + expand.name.str() +
                   "`, an expand of `" + base.name.str() + "` (" + std::to_string(stored) + " elements) to " +
                   std::to_string(expanded) + " elements.",
               "`" + k.name + "` writes into `" + buf.name + "`, allocated with " + std::to_string(stored) +
                   " elements: the compiled code re-inplaced the write into the expand's base, whose stride-0 rows "
                   "are one row.",
               "Eager materializes the " + std::to_string(expanded) +
                   " elements and updates each row on its own; compiled, every row holds the updates of all of them."};
    f.location = l.loc.valid() ? l.loc : k.def_loc;
    if (write.user_loc()) f.related.push_back({*write.user_loc(), "user source: " + code});
    f.related.push_back({expand.def_loc, "the expand (" + expand.name.str() + ") in the graph Inductor compiled"});
    if (buf.alloc_loc.valid()) f.related.push_back({buf.alloc_loc, "the " + std::to_string(stored) + "-element buffer written"});
    f.fix = "Give the write a destination of its own: `.contiguous()` or `.clone()` after `expand` (or allocate the "
            "full shape, `torch.zeros(4, 8)`), or upgrade to torch 2.14.1, which allocates the whole destination.";
    f.fingerprint_key = "reinplace-expand|" + op + "|" + std::to_string(stored) + "|" + std::to_string(expanded);
    f.evidence = {{"kernel", k.name},
                  {"fx_node", write.name.str()},
                  {"expand", expand.name.str()},
                  {"buffer", buf.name},
                  {"buffer_elements", stored},
                  {"expanded_elements", expanded}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_reinplace_into_expand() { return std::make_unique<ReinplaceIntoExpand>(); }
}  // namespace ilint
