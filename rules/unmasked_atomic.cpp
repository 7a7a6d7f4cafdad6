// unmasked-atomic: a Triton `tl.atomic_*` whose mask is None in a kernel whose index space is padded
// past its size (xnumel not a power of two, so the last block of a power-of-two XBLOCK has lanes past
// it), with a value that the padded lanes compute from an unmasked load: each padded lane adds that value
// into real memory (pytorch#178871). See rules/unmasked-atomic.md.
#include <algorithm>
#include <set>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

bool is_power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int64_t next_power_of_two(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

bool unmasked(const MemAccess& a) { return a.mask.empty() || a.mask == "None"; }

// The loads `var` is computed from, through the kernel's statements and casts.
std::vector<const MemAccess*> loads_feeding(const Kernel& k, const std::string& var) {
  std::vector<const MemAccess*> out;
  std::set<std::string> seen;
  std::vector<std::string> todo{var};
  while (!todo.empty()) {
    std::string v = todo.back();
    todo.pop_back();
    if (!seen.insert(v).second) continue;
    for (const auto& l : k.loads)
      if (l.var.str() == v) out.push_back(&l);
    for (const auto& st : k.stmts)
      if (st.var.str() == v)
        for (const auto& o : st.operands) todo.push_back(o.str());
    for (const auto& c : k.casts)
      if (c.var.str() == v) todo.push_back(c.src.str());
  }
  return out;
}

class UnmaskedAtomic : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"unmasked-atomic",
                            "Atomic update without a mask in a padded index space",
                            Severity::Error,
                            "high",
                            {"correctness", "atomics", "triton"},
                            "A tl.atomic_add with mask None in a kernel whose xnumel is not a power of two: "
                            "the lanes past xnumel add a value from an unmasked load into real memory",
                            "rules/unmasked-atomic.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        if (k.backend != KernelBackend::Triton) continue;
        auto xn = k.numels.find("xnumel");
        // A block size is a power of two: a size that is one fills every block; a symbolic size may or
        // may not (not claimed).
        if (xn == k.numels.end() || xn->second <= 1 || is_power_of_two(xn->second)) continue;
        for (const auto& s : k.stores) {
          if (!s.atomic || !unmasked(s)) continue;
          const MemAccess* source = nullptr;
          for (const MemAccess* l : loads_feeding(k, s.var.str()))
            if (unmasked(*l)) source = l;
          if (!source) continue;  // every input masked: the padded lanes add what masked loads give
          out.push_back(finding(c, k, s, *source, xn->second));
        }
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const MemAccess& store, const MemAccess& load,
                         int64_t xnumel) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    int64_t block = next_power_of_two(xnumel);
    int64_t padded = block - xnumel;
    f.message = fit_headline({"unmasked `tl.atomic_add` to `", input_text(store.ptr.str()), "` also adds its " +
                              std::to_string(padded) + " padded lanes (xnumel = " + std::to_string(xnumel) +
                              "): the result is wrong"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) updates `" + store.ptr.str() +
                   "` with a `tl.atomic_add` whose mask is None.",
               "Its index space is padded: xnumel = " + std::to_string(xnumel) +
                   " is not a power of two, so a block of XBLOCK = " + std::to_string(block) + " has " +
                   std::to_string(padded) + " lanes past it.",
               "Those lanes add `" + store.var.str() + "`, computed from `" + load.var.str() + "` (an unmasked load of `" +
                   load.ptr.str() + "`, the same value on every lane), into real memory: the result is off by " +
                   std::to_string(padded) + " times that value."};
    f.location = store.loc;
    // The user lines of the FX nodes the kernel computes, the scatter's (the op that became the atomic) first.
    std::vector<const FxNode*> nodes;
    for (const auto& n : k.fx_nodes)
      if (const FxNode* fx = find_fx_node(c, n); fx && fx->user_loc()) nodes.push_back(fx);
    std::stable_partition(nodes.begin(), nodes.end(),
                          [](const FxNode* n) { return n->target.str().find("scatter") != std::string::npos; });
    std::set<std::pair<std::string, int>> seen;
    for (const FxNode* fx : nodes)
      if (seen.insert({fx->user_loc()->file.str(), fx->user_loc()->line}).second)
        f.related.push_back({*fx->user_loc(), "user source: " + fx->user_code().str()});
    f.related.push_back({load.loc, "the unmasked load every padded lane reads"});
    f.fix = "Upgrade torch past pytorch#179833 (the atomic store then keeps its mask). Until then, keep the "
            "broadcast out of the scatter's kernel (compute `src = x + bias` into its own tensor, e.g. with "
            "`torch._dynamo.graph_break()` or a `.clone()` that Inductor cannot fuse), or make the scattered "
            "size a power of two.";
    f.fingerprint_key = "atomic_add|" + std::to_string(xnumel) + "|" + load.ptr.str();
    f.evidence = {{"kernel", k.name},
                  {"xnumel", xnumel},
                  {"xblock_power_of_two", block},
                  {"padded_lanes", padded},
                  {"store", {{"ptr", store.ptr.str()}, {"var", store.var.str()}, {"mask", store.mask.str()}, {"line", store.loc.line}}},
                  {"unmasked_load", {{"ptr", load.ptr.str()}, {"var", load.var.str()}, {"line", load.loc.line}}}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_unmasked_atomic() { return std::make_unique<UnmaskedAtomic>(); }
}  // namespace ilint
