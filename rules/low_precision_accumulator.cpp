// low-precision-accumulator: a reduction or scan whose running value is held in bf16/fp16.
// Doc: rules/low-precision-accumulator.md.
#include <cmath>
#include <set>
#include <sstream>

#include "analyzer/rule.h"

namespace ilint {
namespace {

// "2^-8" for bf16's unit roundoff.
std::string roundoff_text(double u) {
  int e = static_cast<int>(std::lround(std::log2(u)));
  return "2^" + std::to_string(e);
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

class LowPrecisionAccumulator : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"low-precision-accumulator",
                            "Reduction or scan accumulating in bf16/fp16",
                            Severity::Warning,
                            "medium",
                            {"correctness", "precision"},
                            "A reduction or scan keeps its running value in a 16-bit float; the error grows as n*u",
                            "rules/low-precision-accumulator.md",
                            /*experimental=*/true, ReadsKernelBodies};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const Compile& c : program.compiles) {
      for (const Kernel& k : c.kernels) {
        // ATen fallbacks accumulate in at::acc_type (float for bf16/fp16): nothing to say here.
        if (k.backend != KernelBackend::Triton && k.backend != KernelBackend::Cpp) continue;
        for (const ReduceOp& r : k.reductions) check_one(c, k, r, out);
      }
    }
  }

 private:
  static void check_one(const Compile& c, const Kernel& k, const ReduceOp& r, std::vector<Finding>& out) {
    // C++: the declared type of tmp_accN; Triton: the dtype the combine runs in.
    DType acc = r.accumulator_dtype != DType::Unknown ? r.accumulator_dtype : r.compute_dtype;
    if (!is_low_precision_float(acc)) return;
    const double u = unit_roundoff(acc);
    const std::string what = r.is_scan ? "scan" : "reduction";
    const std::string combine = r.combine.empty() ? "unknown" : r.combine;
    const std::string backend = k.backend == KernelBackend::Cpp ? "cpp" : "triton";

    Finding f;
    f.severity = Severity::Warning;
    f.compile_id = c.id;
    f.kernel = k.name;
    f.location = r.loc.valid() ? r.loc : k.def_loc;
    std::string acc_name = r.result_var.empty() ? "the accumulator" : "'" + r.result_var + "'";
    const std::string dt = dtype_name(acc);
    std::vector<HeadlinePiece> headline = {what + " (", input_text(combine), ") accumulates in " + dt + " (",
                                           input_text(acc_name), "): "};
    f.notes.push_back("The " + what + " is computed in `" + k.name + "`.");
    nlohmann::json ev;
    ev["backend"] = backend;
    ev["kernel"] = k.name;
    ev["accumulator_var"] = r.result_var;
    ev["accumulator_dtype"] = dtype_name(r.accumulator_dtype);
    ev["compute_dtype"] = dtype_name(r.compute_dtype);
    ev["combine"] = combine;
    ev["is_scan"] = r.is_scan;
    ev["input_var"] = r.input_var;
    ev["unit_roundoff"] = u;
    ev["unit_roundoff_text"] = roundoff_text(u);
    if (r.length > 0) {
      double bound = static_cast<double>(r.length) * u;
      ev["length"] = r.length;
      ev["error_bound"] = bound;
      headline.push_back("relative error bound " + fmt(bound) + " over " + std::to_string(r.length) + " terms");
      f.notes.push_back("Over n = " + std::to_string(r.length) + " terms the relative error bound n*u = " +
                        std::to_string(r.length) + " * " + roundoff_text(u) + " = " + fmt(bound) +
                        (bound >= 1.0 ? " (no correct digit guaranteed)." : "."));
    } else {
      ev["length"] = nullptr;
      ev["length_expr"] = r.length_expr;
      ev["error_bound"] = nullptr;
      headline.push_back("relative error bound n * " + roundoff_text(u) + " grows with its length n");
      f.notes.push_back("The relative error bound is n*u = n * " + roundoff_text(u) +
                        (r.length_expr.empty() ? "." : " with n = " + r.length_expr + "."));
    }
    f.message = fit_headline(headline);
    f.evidence = ev;

    // User source: the FX nodes the kernel computes, through the compile's FX graph.
    std::set<std::pair<std::string, int>> seen;
    std::vector<std::string> names = k.fx_nodes;
    for (const auto& n : k.fragment.nodes) names.push_back(n.name);
    for (const auto& name : names) {
      const FxNode* n = c.fx.find(name);
      if (!n) n = k.fragment.find(name);
      if (!n || !n->user_loc() || !n->user_loc()->valid()) continue;
      if (!seen.insert({n->user_loc()->file, n->user_loc()->line}).second) continue;
      f.related.push_back({*n->user_loc(), "user source: " + n->user_code()});
    }
    f.fix = "Accumulate in float32: pass dtype=torch.float32 to the reduction or scan (torch.sum, torch.cumsum, "
            "torch.mean(..., dtype=torch.float32)) or upcast its input with .float(), and cast the result back "
            "to " + dtype_name(acc) + " if it must be stored in 16 bits.";
    // Stable across recompiles: the user line when known, else the ops the kernel was fused from.
    std::string anchor;
    if (!f.related.empty()) {
      anchor = f.related[0].loc.file + ":" + std::to_string(f.related[0].loc.line);
    } else {
      for (const auto& a : k.aten_ops) anchor += a + ",";
      if (anchor.empty())
        for (const auto& s : k.source_nodes) anchor += s + ",";
    }
    f.fingerprint_key = "low-precision-accumulator|" + anchor + "|" + what + "|" + combine + "|" + dtype_name(acc);
    out.push_back(std::move(f));
  }
};

}  // namespace

std::unique_ptr<Rule> make_low_precision_accumulator() { return std::make_unique<LowPrecisionAccumulator>(); }

}  // namespace ilint
