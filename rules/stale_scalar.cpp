// stale-scalar: a compiled graph or kernel bakes, as a constant, a value derived from a scalar
// that varies at run time, while nothing pins that scalar for the compiled code: either no guard
// of the compile pins its value (the scalar entered as a dynamic input, or its guard was dropped),
// or one cached artifact served compiles made for different values. Later calls then compute with
// the value of the call that compiled it (pytorch#185382, #194976, #197889).
// See rules/stale-scalar.md.
#include <set>

#include "analyzer/rule.h"

namespace ilint {
namespace {

std::string short_file(const std::string& p) {
  auto pos = p.find_last_of('/');
  return pos == std::string::npos ? p : p.substr(pos + 1);
}
std::string loc_text(const SourceLoc& l) { return short_file(l.file) + ":" + std::to_string(l.line); }
std::string frame_compile_of(const std::string& compile_id) {
  auto us = compile_id.find('_');
  return us == std::string::npos ? compile_id : compile_id.substr(0, us);
}

// The literal to point at: a kernel constant in output_code.py when there is one (that is the
// code that runs), else the FX graph argument.
const DerivedLiteral* pick_literal(const ScalarUse& u) {
  const DerivedLiteral* fx_match = nullptr;
  for (const auto& k : u.literals) {
    if (k.where != "kernel") continue;
    for (const auto& x : u.literals)
      if (x.where == "fx" && x.text == k.text) fx_match = &k;
    if (fx_match) return fx_match;
  }
  for (const auto& k : u.literals)
    if (k.where == "kernel") return &k;
  return u.literals.empty() ? nullptr : &u.literals.front();
}

// The user line that uses the baked value: the FX node with the same literal, else any FX literal.
const DerivedLiteral* user_literal(const ScalarUse& u, const DerivedLiteral* lit) {
  for (const auto& x : u.literals)
    if (x.where == "fx" && lit && x.text == lit->text && x.user_loc) return &x;
  for (const auto& x : u.literals)
    if (x.where == "fx" && x.user_loc) return &x;
  return nullptr;
}

class StaleScalar : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"stale-scalar",
                            "Scalar-derived constant baked into compiled code without a guard",
                            Severity::Error,
                            "medium",
                            {"correctness", "dynamo", "silent"},
                            "A compiled graph uses a constant computed from a run-time scalar while no guard "
                            "pins that scalar (or one cached artifact serves several of its values)",
                            "rules/stale-scalar.md", /*experimental=*/false, ReadsDynamoLogs | ReadsKernelBodies};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& sc : program.dynamo.scalars) {
      if (sc.produced_by == "stack value") continue;
      std::vector<const ScalarUse*> unpinned, shared;
      for (const auto& u : sc.uses) {
        if (u.literals.empty() || u.treatment == "unbacked") continue;
        if (!u.pinned_by_guard && !u.guarded_by_expression && u.guards_logged) unpinned.push_back(&u);
        else if (!u.same_artifact_as.empty()) shared.push_back(&u);
      }
      // Cached artifact reuse: the served compile's literals are those of the compile it shares
      // code with, so the literal values are the other compile's.
      for (const auto& u : sc.uses)
        if (u.literals.empty() && !u.same_artifact_as.empty()) shared.push_back(&u);
      if (unpinned.empty() && shared.empty()) continue;
      // Point at an unpinned compile whose value is known when there is one: the message can then
      // say which value the constant was computed for.
      const ScalarUse* first = !unpinned.empty() ? unpinned.front() : shared.front();
      for (const auto* p : unpinned)
        if (!p->value.empty()) {
          first = p;
          break;
        }
      const ScalarUse& u = *first;
      const ScalarUse* lit_use = &u;
      if (u.literals.empty())
        for (const auto& o : sc.uses)
          if (o.compile_id == u.same_artifact_as) lit_use = &o;
      const DerivedLiteral* lit = pick_literal(*lit_use);
      if (!lit) continue;
      const DerivedLiteral* ul = user_literal(*lit_use, lit);
      Finding f;
      f.severity = Severity::Error;
      std::string origin = sc.origin.valid() ? "`" + sc.origin_code.substr(0, sc.origin_code.find("  #")) + "` at " +
                                                    loc_text(sc.origin)
                                              : sc.source;
      std::string where = lit->where == "kernel" ? "kernel " + lit->node + " (" + loc_text(lit->loc) + ")"
                                                 : "FX node " + lit->node + " (" + loc_text(lit->loc) + ")";
      std::string others;
      for (size_t i = 0; i < lit->other_values.size(); ++i) others += (i ? ", " : "") + lit->other_values[i];
      // Unpinned compiles that the caches served another compile's artifact (seed 1 on torch 2.13:
      // 2/1 is guarded on the value it baked, 2/2 hits the cache and gets 2/1's code) are explained
      // by the reuse.
      bool all_unpinned_reuse = !unpinned.empty();
      for (const auto* p : unpinned) all_unpinned_reuse &= !p->same_artifact_as.empty();
      const std::string compile = frame_compile_of(u.compile_id);
      if (!unpinned.empty() && !all_unpinned_reuse) {
        f.message = fit_headline({"`", input_text(sc.into_function),
                                  "` bakes a scalar-derived constant, unguarded: other values compute with it stale"});
        f.notes.push_back("Compile " + compile + " of `" + sc.into_function + "` bakes " + lit->text + " into " + where + ".");
        f.notes.push_back("The constant derives from the scalar " + sc.source + " (from " + origin +
                          (u.value.empty() ? "" : ", " + u.value + " when compiled") +
                          ") and no guard of that compile pins the scalar" +
                          (u.dynamic_input ? " (it is a dynamic graph input, but this literal is not recomputed from it)" : "") +
                          ", so calls with other values run with the stale constant.");
        if (!others.empty()) f.notes.push_back("The same literal in the other compiles: " + others + ".");
        if (!lit->expr.empty()) f.notes.push_back("It equals the graph's symbolic value " + lit->expr + ".");
      } else {
        f.message = fit_headline({"`", input_text(sc.into_function),
                                  "` reuses code compiled for another scalar value: its baked constant is stale"});
        f.notes.push_back("Compile " + compile + " of `" + sc.into_function + "` (scalar " + sc.source + " = " + u.value +
                          ") reuses the artifact of compile " + frame_compile_of(u.same_artifact_as) +
                          (u.cache_event.empty() ? "" : " (" + u.cache_event + ")") + ".");
        f.notes.push_back("That artifact bakes " + lit->text + " derived from the scalar (from " + origin + ") into " + where +
                          ": one artifact serves several scalar values.");
      }
      f.location = lit->loc;
      f.compile_id = lit->compile_id;
      if (lit->where == "kernel") f.kernel = lit->node;
      if (sc.origin.valid()) f.related.push_back({sc.origin, "scalar origin: " + sc.origin_code});
      if (ul && ul->user_loc) f.related.push_back({*ul->user_loc, "user code using the baked value: " + ul->user_code});
      if (ul && ul->loc.valid() && !(ul->loc == lit->loc)) f.related.push_back({ul->loc, "FX node " + ul->node + " with the literal"});
      if (sc.into_loc.valid()) f.related.push_back({sc.into_loc, "resumed frame " + sc.into_function});
      f.fix = "Keep the scalar in the graph: `torch._dynamo.config.capture_scalar_outputs = True` (the value becomes an "
              "unbacked SymFloat computed at run time), or keep it as a 0-d tensor (e.g. the optimizer step) so the "
              "derived values are computed by tensor ops; as a stopgap, `torch._dynamo.config.specialize_float = True` "
              "(one guarded compile per value) or disable the AOTAutograd/FX graph caches.";
      nlohmann::json compiles = nlohmann::json::array();
      for (const auto* p : unpinned) compiles.push_back({{"compile_id", p->compile_id}, {"value", p->value}, {"pinned", false},
                                                         {"dynamic_input", p->dynamic_input},
                                                         {"shape_env_guards", p->shape_env_guards}});
      for (const auto* p : shared)
        compiles.push_back({{"compile_id", p->compile_id}, {"value", p->value}, {"same_artifact_as", p->same_artifact_as},
                            {"cache_event", p->cache_event}});
      f.evidence = {{"scalar", sc.source},
                    {"origin", sc.origin.valid() ? sc.origin.file + ":" + std::to_string(sc.origin.line) : ""},
                    {"into_function", sc.into_function},
                    {"literal", lit->text},
                    {"literal_key", lit->key},
                    {"literal_loc", lit->loc.file + ":" + std::to_string(lit->loc.line)},
                    {"other_values", lit->other_values},
                    {"derived_by", lit->derived_by},
                    {"sym_expr", lit->expr},
                    {"case", unpinned.empty() || all_unpinned_reuse ? "cached-artifact" : "unpinned"},
                    {"compiles", compiles}};
      // The literal's value, not its place: the kernel constant and the FX argument of one baked value are
      // one finding, whichever of them the input held (a TORCH_TRACE also holds cache hits' code).
      f.fingerprint_key = sc.into_function + "|" + sc.local_name + "|" + lit->text;
      out.push_back(std::move(f));
    }
  }
};

}  // namespace
std::unique_ptr<Rule> make_stale_scalar() { return std::make_unique<StaleScalar>(); }
}  // namespace ilint
