// rounding-before-compare: a comparison in a compiled kernel between a value read back from a bf16/fp16
// buffer (rounded, as eager has it) and one the kernel computed in f32 from bf16/fp16 inputs and never
// rounded, where the FX graph compares two bf16/fp16 values: the tie structure eager sees is gone
// (pytorch#195214: `x / s == amax(x / s)` finds no maximum, a count of ties is 0, 1 / count is inf).
// See rules/rounding-before-compare.md.
#include <map>
#include <set>
#include <vector>

#include "analyzer/model/dtype.h"
#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

bool low_precision(DType d) { return d == DType::BF16 || d == DType::F16; }

// What a kernel variable holds, as far as rounding goes.
enum class Held {
  Other,      // nothing known (an index, a constant, another dtype)
  Rounded,    // a bf16/fp16 value as memory holds it (a load from such a buffer, possibly widened)
  Unrounded,  // computed in f32 from bf16/fp16 values and not rounded back
};

// Inductor's C++ kernels reuse `tmpN` names in each loop body: a use reads the nearest definition
// above it, so every definition is kept with its line and a name is resolved at the line it is used.
class Provenance {
 public:
  explicit Provenance(const Kernel& k) {
    for (const auto& p : k.params) param_dtype_[p.name] = p.dtype;
    for (const auto& l : k.loads) defs_[l.var.str()].push_back({l.loc.line, &l, nullptr, nullptr});
    for (const auto& c : k.casts) defs_[c.var.str()].push_back({c.loc.line, nullptr, &c, nullptr});
    for (const auto& s : k.stmts) defs_[s.var.str()].push_back({s.loc.line, nullptr, nullptr, &s});
  }

  // What `var` holds where it is read at `line`.
  Held of(const std::string& var, int line, int depth = 0) {
    if (depth > 64) return Held::Other;
    const Def* d = definition(var, line);
    if (!d) return Held::Other;
    if (d->load) {
      auto p = param_dtype_.find(d->load->ptr.str());
      return p != param_dtype_.end() && low_precision(p->second) ? Held::Rounded : Held::Other;
    }
    if (d->cast) {
      if (low_precision(d->cast->to)) return Held::Rounded;  // rounded right here
      if (d->cast->to == DType::F32 || d->cast->to == DType::F64) return of(d->cast->src.str(), d->line, depth + 1);
      return Held::Other;
    }
    const KernelStmt& st = *d->stmt;
    const std::string op = st.op.str();
    if (op == "copy" || op == "broadcast" || op == "cast")
      return st.operands.size() == 1 ? of(st.operands[0].str(), d->line, depth + 1) : Held::Other;
    static const std::set<std::string> arithmetic = {"add", "sub", "mul", "div", "neg", "mod"};
    if (!arithmetic.count(op) && op.rfind("call:", 0) != 0) return Held::Other;
    // Arithmetic on a rounded or unrounded value, in f32: the result is a value eager would round.
    for (const auto& o : st.operands) {
      Held h = of(o.str(), d->line, depth + 1);
      if (h == Held::Rounded || h == Held::Unrounded) return Held::Unrounded;
    }
    return Held::Other;
  }

 private:
  struct Def {
    int line;
    const MemAccess* load;
    const CastOp* cast;
    const KernelStmt* stmt;
  };
  // The definition of `var` nearest above `line`; a cast or a load recorded on the same line as a
  // statement of that name describes it better (`auto tmp1 = convert<float>(tmp0)` is both).
  const Def* definition(const std::string& var, int line) const {
    auto it = defs_.find(var);
    if (it == defs_.end()) return nullptr;
    const Def* best = nullptr;
    for (const auto& d : it->second) {
      if (d.line >= line && line > 0) continue;
      if (!best || d.line > best->line || (d.line == best->line && !d.stmt && best->stmt)) best = &d;
    }
    return best;
  }

  std::map<std::string, DType> param_dtype_;
  std::map<std::string, std::vector<Def>> defs_;
};

bool is_comparison_target(const std::string& target) {
  for (const char* op : {"aten.eq.", "aten.ne.", "aten.lt.", "aten.le.", "aten.gt.", "aten.ge."})
    if (target.find(op) != std::string::npos) return true;
  return false;
}

class RoundingBeforeCompare : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"rounding-before-compare",
                            "Comparison between a rounded and an unrounded low-precision value",
                            Severity::Error,
                            "high",
                            {"correctness", "precision", "eager-parity"},
                            "A kernel compares a bf16/fp16 value read from memory with one it computed in f32 and "
                            "never rounded, where eager compares two rounded values: ties and equalities change",
                            "rules/rounding-before-compare.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        // The comparisons of the graph this kernel computes between two bf16/fp16 values.
        std::vector<const FxNode*> compares;
        for (const auto& n : k.fx_nodes) {
          const FxNode* fx = find_fx_node(c, n);
          if (!fx || !is_comparison_target(fx->target.str()) || fx->input_nodes.size() != 2) continue;
          bool both_low = true;
          for (const auto& in : fx->input_nodes) {
            const FxNode* x = find_fx_node(c, in.str());
            both_low = both_low && x && low_precision(x->meta.dtype);
          }
          if (both_low) compares.push_back(fx);
        }
        if (compares.empty()) continue;
        Provenance prov(k);
        for (const auto& st : k.stmts) {
          if (!is_comparison_op(st.op.str()) || st.operands.size() != 2) continue;
          Held a = prov.of(st.operands[0].str(), st.loc.line), b = prov.of(st.operands[1].str(), st.loc.line);
          bool mixed = (a == Held::Rounded && b == Held::Unrounded) || (a == Held::Unrounded && b == Held::Rounded);
          if (!mixed) continue;
          const std::string unrounded = (a == Held::Unrounded ? st.operands[0] : st.operands[1]).str();
          const std::string rounded = (a == Held::Rounded ? st.operands[0] : st.operands[1]).str();
          out.push_back(finding(c, k, st, *compares.front(), unrounded, rounded));
          break;  // one finding per kernel: the first such comparison
        }
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const KernelStmt& st, const FxNode& cmp,
                         const std::string& unrounded, const std::string& rounded) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    std::string ins;
    for (const auto& in : cmp.input_nodes) {
      const FxNode* x = find_fx_node(c, in.str());
      ins += (ins.empty() ? "" : " and ") + std::string("`") + in.str() + "` (" + (x ? dtype_name(x->meta.dtype) : "?") + ")";
    }
    f.message = fit_headline({"`", input_text(cmp.name.str()),
                              "` compares an unrounded f32 value with a rounded bf16/fp16 one: ties differ from eager"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) computes `" + cmp.name.str() + "` by comparing `" + unrounded +
                   "`, computed in f32 from bf16/fp16 values and never rounded, with `" + rounded +
                   "`, a bf16/fp16 value read from memory.",
               "Eager compares " + ins + ", both rounded.",
               "Values that are equal (or ordered) after rounding are not before it: ties and equalities eager finds "
               "are lost or gained (a count of maxima becomes 0, a mask flips)."};
    f.location = in_file_loc(k, st.loc);
    if (cmp.user_loc()) f.related.push_back({*cmp.user_loc(), "user source: " + cmp.user_code().str()});
    for (const auto& in : cmp.input_nodes)
      if (const FxNode* x = find_fx_node(c, in.str()); x && x->user_loc() && !(cmp.user_loc() && *x->user_loc() == *cmp.user_loc()))
        f.related.push_back({*x->user_loc(), "operand `" + in.str() + "`: " + x->user_code().str()});
    f.fix = "Round explicitly before comparing, in a way the compiler keeps: set "
            "`torch._inductor.config.emulate_precision_casts = True` (Inductor then rounds bf16/fp16 "
            "intermediates as eager does), or compare in float32 on both sides (`x.float() / s` and its max), "
            "or compare with a tolerance instead of exact equality.";
    f.fingerprint_key = cmp.target.str() + "|" + std::to_string(cmp.input_nodes.size());
    f.evidence = {{"kernel", k.name},
                  {"fx_node", cmp.name.str()},
                  {"fx_target", cmp.target.str()},
                  {"unrounded_var", unrounded},
                  {"rounded_var", rounded},
                  {"comparison", st.op.str()},
                  {"kernel_line", st.loc.line}};
    return f;
  }

  // A statement's location in the kernel's file: the readers give a C++ kernel's statements lines of
  // output_code.py without the file.
  static SourceLoc in_file_loc(const Kernel& k, const SourceLoc& loc) {
    if (!loc.file.empty()) return loc;
    if (loc.line <= 0) return k.def_loc;
    return SourceLoc{k.def_loc.file, loc.line, loc.column};
  }
};

}  // namespace
std::unique_ptr<Rule> make_rounding_before_compare() { return std::make_unique<RoundingBeforeCompare>(); }
}  // namespace ilint
