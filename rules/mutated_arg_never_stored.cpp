// mutated-arg-never-stored: the kernel's declared mutations (`mutated_arg_names`, `in_out_ptr`
// parameters) disagree with what its body stores. Doc: rules/mutated-arg-never-stored.md.
//
// Two directions:
//  * declared, never stored: a parameter listed in mutated_arg_names (or an in_out_ptr) that no
//    store writes, neither through it nor through another parameter bound to the same memory in
//    the launch. Inductor lists the *buffer's* names: a copy_ into a graph input loads it as
//    in_ptr0 and stores it as out_ptr1, both listed; that is consistent and not reported.
//  * stored, not declared (Triton): a store into memory the caller owns (a graph input or a view
//    of one) or through an in_out_ptr, whose parameter is missing from mutated_arg_names. The
//    autotuner clones only the listed arguments before benchmarking configs; an unlisted one is
//    written once per config tried, on live data.
#include <algorithm>
#include <set>
#include <sstream>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

bool listed(const Kernel& k, const std::string& p) {
  return std::find(k.mutated_args.begin(), k.mutated_args.end(), p) != k.mutated_args.end();
}

bool is_in_out(const std::string& p) { return p.rfind("in_out_ptr", 0) == 0; }

// Stores through `p`: tl.store / C++ stores, and atomics (`tl.atomic_add(out_ptr0 + ...)`).
bool stores_through(const Kernel& k, const std::string& p) {
  for (const auto& s : k.stores)
    if (s.ptr == p) return true;
  for (const auto& st : k.stmts)
    if (st.op.rfind("call:tl.atomic", 0) == 0 &&
        std::find(st.operands.begin(), st.operands.end(), p) != st.operands.end())
      return true;
  return false;
}

const MemAccess* first_store(const Kernel& k, const std::string& p) {
  for (const auto& s : k.stores)
    if (s.ptr == p) return &s;
  return nullptr;
}

class MutatedArgNeverStored : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"mutated-arg-never-stored",
                            "Declared kernel mutations disagree with the kernel's stores",
                            Severity::Warning,
                            "medium",
                            {"correctness", "mutation", "autotuning"},
                            "A kernel argument listed in mutated_arg_names (or an in_out_ptr) that the kernel never "
                            "stores to, or a store into caller-owned memory whose argument is not listed.",
                            "rules/mutated-arg-never-stored.md",
                            // Experimental: every real capture is consistent; positives are edited captures.
                            /*experimental=*/true, ReadsKernelBodies};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles) {
      std::set<std::string> reported;
      for_each_kernel_launch(c, [&](const Kernel& k, const KernelLaunch& l) { check_launch(c, k, l, reported, out); });
    }
  }

 private:
  void check_launch(const Compile& c, const Kernel& k, const KernelLaunch& l, std::set<std::string>& reported,
                    std::vector<Finding>& out) const {
    bool triton = k.backend == KernelBackend::Triton;
    // Without a reader that found the stores (a C++ kernel with no Clang reader), there is
    // nothing to compare.
    if (k.stores.empty() && (!triton || !k.parse_errors.empty())) return;
    if (!triton && k.backend != KernelBackend::Cpp) return;
    auto binds = bind_params(c, k, l);

    for (const auto& b : binds) {
      const std::string& p = b.param->name;
      if (!b.param->is_pointer && !is_in_out(p)) continue;
      bool declared = listed(k, p) || is_in_out(p);
      if (!declared) continue;
      if (stores_through(k, p)) continue;
      // Stored through another parameter bound to the same memory?
      std::string alias_param;
      for (const auto& o : binds)
        if (&o != &b && !b.buf.root.empty() && o.buf.root == b.buf.root && stores_through(k, o.param->name))
          alias_param = o.param->name;
      if (!alias_param.empty()) continue;
      std::string key = "declared|" + k.name + "|" + p;
      if (!reported.insert(key).second) continue;
      Finding f = base(c, k, l);
      f.location = k.body_loc.line ? k.body_loc : k.def_loc;
      f.message = fit_headline({"`", input_text(p),
                                "` is declared mutated but never stored: an in-place update the graph expects may be missing"});
      std::ostringstream effects;
      effects << "`" << k.name << "` (" << c.graph_kind << " graph) declares `" << p << "` mutated ("
              << (is_in_out(p) ? "an in_out_ptr" : "in mutated_arg_names") << "), but no store writes it";
      if (!b.buf.root.empty())
        effects << ", nor any other argument bound to `" << b.buf.root << "` in this launch (argument `" << b.arg << "`)";
      effects << ".";
      f.notes.push_back(effects.str());
      f.notes.push_back("The kernel's declared effects do not match its body: an in-place update the graph expects may be "
                        "missing, or the autotuner clones memory for nothing.");
      f.fix = "Compare the kernel with the FX graph's copy_/in-place nodes; if the update is expected, report an "
              "Inductor bug with this output_code.py. Run `inductor-lint confirm` to check the mutated input after the "
              "call.";
      f.evidence["claim"] = "declared-not-stored";
      f.evidence["param"] = p;
      f.evidence["arg"] = b.arg;
      f.evidence["buffer"] = b.buf.root;
      f.evidence["in_out_ptr"] = is_in_out(p);
      f.fingerprint_key = c.graph_kind + "|declared-not-stored|" + user_key(c, k) + "|" + p;
      out.push_back(std::move(f));
    }

    // C++ kernels have no mutated_arg_names to compare against; Triton metadata without the key
    // (older Inductor) says nothing either.
    if (!triton || !k.has_mutated_args) return;
    for (const auto& b : binds) {
      const std::string& p = b.param->name;
      if (!b.param->is_pointer || listed(k, p) || !stores_through(k, p)) continue;
      const Buffer* root = b.buf.root.empty() ? nullptr : c.buffer(b.buf.root);
      bool caller_owned = root && root->is_graph_input;
      if (!caller_owned && !is_in_out(p)) continue;
      std::string key = "undeclared|" + k.name + "|" + p;
      if (!reported.insert(key).second) continue;
      Finding f = base(c, k, l);
      const MemAccess* st = first_store(k, p);
      f.location = st ? st->loc : k.def_loc;
      const std::string target = caller_owned ? "graph input `" + b.buf.root + "`" : "its in_out_ptr `" + b.buf.root + "`";
      f.message = fit_headline({"`", input_text(p), "` stores into " + std::string(caller_owned ? "graph input" : "an in_out_ptr") +
                                " but is not in mutated_arg_names: autotuning writes the caller's memory again"});
      std::ostringstream stored;
      stored << "`" << k.name << "` (" << c.graph_kind << " graph) stores through `" << p << "` into " << target << ", but `"
             << p << "` is missing from mutated_arg_names [";
      for (size_t i = 0; i < k.mutated_args.size(); ++i) stored << (i ? ", " : "") << k.mutated_args[i];
      stored << "].";
      f.notes.push_back(stored.str());
      f.notes.push_back("The autotuner clones only the listed arguments before trying configs, so each config it benchmarks "
                        "writes the caller's memory again.");
      f.fix = "Disable autotuning for this graph to check (max_autotune=False, triton.autotune_pointwise=False) and "
              "report an Inductor bug with this output_code.py; as a workaround clone the input before the in-place "
              "op.";
      f.evidence["claim"] = "stored-not-declared";
      f.evidence["param"] = p;
      f.evidence["arg"] = b.arg;
      f.evidence["buffer"] = b.buf.root;
      f.evidence["buffer_is_graph_input"] = caller_owned;
      f.fingerprint_key = c.graph_kind + "|stored-not-declared|" + user_key(c, k) + "|" + p;
      out.push_back(std::move(f));
    }
  }

  static std::string user_key(const Compile& c, const Kernel& k) {
    for (const auto& name : k.fx_nodes)
      if (const FxNode* n = find_fx_node(c, name); n && n->user_loc()) return n->user_code();
    std::string s;
    for (const auto& a : k.aten_ops) s += a + ",";
    return s;
  }

  Finding base(const Compile& c, const Kernel& k, const KernelLaunch& l) const {
    Finding f;
    f.compile_id = c.id;
    f.kernel = k.name;
    f.severity = Severity::Warning;
    for (const auto& name : k.fx_nodes)
      if (const FxNode* n = find_fx_node(c, name); n && n->user_loc()) {
        f.related.push_back(RelatedLocation{*n->user_loc(), "user source: " + n->user_code()});
        break;
      }
    f.related.push_back(RelatedLocation{k.def_loc, "kernel " + k.name + " defined here"});
    f.related.push_back(RelatedLocation{l.loc, "launched here"});
    f.evidence["graph_kind"] = c.graph_kind;
    f.evidence["kernel"] = k.name;
    f.evidence["backend"] = k.backend == KernelBackend::Cpp ? "cpp" : "triton";
    f.evidence["mutated_arg_names"] = k.mutated_args;
    return f;
  }
};

}  // namespace

std::unique_ptr<Rule> make_mutated_arg_never_stored() { return std::make_unique<MutatedArgNeverStored>(); }

}  // namespace ilint
