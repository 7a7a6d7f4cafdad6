// reduced-precision-scan: a cumulative reduction whose input chain or storage is bf16/fp16.
// Doc: rules/reduced-precision-scan.md.
//
// Two hazards, told apart because they call for different verdicts:
//  * elided rounding: a value that eager rounds to bf16/fp16 (a low-precision FX node computed by
//    an arithmetic op) feeds the scan, or is combined with its result, inside compiled code that
//    never rounds it (no cast to that dtype, no store to a buffer of that dtype). Eager and
//    compiled then disagree; which one is closer to float64 is for `confirm` to say.
//  * low-precision scan: the scan itself produces (or computes in) bf16/fp16, so every prefix
//    is rounded; the error grows with the prefix magnitude and the length.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

struct ScanSite {
  const FxNode* node = nullptr;   // the cumulative FX node
  const Kernel* kernel = nullptr; // generated kernel doing it (null for an ATen fallback)
  const ReduceOp* op = nullptr;   // the scan op in the kernel
  const KernelLaunch* fallback = nullptr;
  SourceLoc loc;
  int64_t length = -1;
  DType compute = DType::Unknown;
};

struct Elided {
  const FxNode* node;
  const Kernel* kernel;
  std::string relation;  // "input of the scan" | "combined with the scan's result in <node>"
  bool casts_known;
};

int64_t dim_length(const FxNode& n) {
  // cumsum(x, dim): the length is shape[dim] of the result.
  if (n.args.size() < 2) return -1;
  int dim;
  try {
    dim = std::stoi(n.args[1]);
  } catch (...) {
    auto it = n.kwargs.find("dim");
    if (it == n.kwargs.end()) return -1;
    try {
      dim = std::stoi(it->second);
    } catch (...) {
      return -1;
    }
  }
  int rank = static_cast<int>(n.meta.shape.size());
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) return -1;
  try {
    size_t pos;
    long long v = std::stoll(n.meta.shape[dim], &pos);
    return pos == n.meta.shape[dim].size() ? v : -1;
  } catch (...) {
    return -1;
  }
}

bool kernel_rounds_to(const Kernel& k, DType d) {
  for (const auto& c : k.casts)
    if (c.to == d) return true;
  return false;
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

std::string user_text(const FxNode& n) {
  if (!n.user_loc()) return op_short_name(n.target);
  std::string file = n.user_loc()->file;
  auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  return file + ":" + std::to_string(n.user_loc()->line);
}

// The user-level op a node comes from: "cumulative_trapezoid" from the code comment, else the node op.
std::string user_op(const FxNode& n) {
  for (const char* op : {"cumulative_trapezoid", "cumsum", "cumprod", "logcumsumexp", "cummax", "cummin", "cumulative"}) {
    // Prefer a call of the op ("torch.cumsum(") over any other mention (a dict key "cumsum_bf16").
    auto pos = n.user_code().find(std::string(op) + "(");
    if (pos == std::string::npos) pos = n.user_code().find(op);
    if (pos != std::string::npos) {
      // torch.cumulative_trapezoid(y, x, dim=-1) -> torch.cumulative_trapezoid
      size_t b = pos;
      while (b > 0 && (std::isalnum(static_cast<unsigned char>(n.user_code()[b - 1])) || n.user_code()[b - 1] == '_' ||
                       n.user_code()[b - 1] == '.'))
        --b;
      size_t e = pos + std::string(op).size();
      while (e < n.user_code().size() && (std::isalnum(static_cast<unsigned char>(n.user_code()[e])) || n.user_code()[e] == '_')) ++e;
      return n.user_code().substr(b, e - b);
    }
  }
  return op_short_name(n.target);
}

class ReducedPrecisionScan : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"reduced-precision-scan",
                            "Reduced-precision cumulative reduction",
                            Severity::Warning,
                            "medium",
                            {"correctness", "precision", "eager-parity"},
                            "A cumulative reduction (cumsum, cumprod, logcumsumexp, cummax/cummin and composites such "
                            "as cumulative_trapezoid) whose input chain or storage is bf16/fp16.",
                            "rules/reduced-precision-scan.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& site : scan_sites(c)) check_site(c, site, out);
  }

 private:
  std::vector<ScanSite> scan_sites(const Compile& c) const {
    std::vector<ScanSite> sites;
    std::set<std::string> seen;
    for (const auto& k : c.kernels) {
      for (const auto& r : k.reductions) {
        if (!r.is_scan) continue;
        ScanSite s;
        s.kernel = &k;
        s.op = &r;
        s.loc = r.loc;
        s.length = r.length;
        s.compute = r.compute_dtype;
        for (const auto& n : k.fx_nodes) {
          const FxNode* fx = find_fx_node(c, n);
          if (fx && is_cumulative_op(fx->target) && !seen.count(fx->name)) {
            s.node = fx;
            break;
          }
        }
        if (!s.node) continue;  // a scan we cannot tie to an FX node: nothing to say about eager
        seen.insert(s.node->name);
        sites.push_back(s);
      }
    }
    for (const auto& l : c.launches) {
      if (!l.is_fallback || !is_cumulative_op(l.kernel)) continue;
      ScanSite s;
      s.fallback = &l;
      s.loc = l.loc;
      // The FX node: provenance handle first, then the only node of that target.
      auto it = c.provenance.kernel_to_post.find(l.provenance_handle);
      if (it != c.provenance.kernel_to_post.end())
        for (const auto& n : it->second)
          if (const FxNode* fx = find_fx_node(c, n); fx && is_cumulative_op(fx->target)) s.node = fx;
      if (!s.node)
        for (const auto& n : c.fx.nodes)
          if (n.target == l.kernel && !seen.count(n.name)) {
            s.node = &n;
            break;
          }
      if (!s.node || seen.count(s.node->name)) continue;
      seen.insert(s.node->name);
      s.length = dim_length(*s.node);
      s.compute = s.node->meta.dtype;  // ATen's own scan: accumulates in opmath, stores this dtype
      sites.push_back(s);
    }
    return sites;
  }

  void check_site(const Compile& c, const ScanSite& s, std::vector<Finding>& out) const {
    auto [elided, honored] = roundings_of(c, s);
    bool low_scan = is_low_precision_float(s.node->meta.dtype) || is_low_precision_float(s.compute);
    if (elided.empty() && !low_scan && honored.empty()) return;

    DType low = DType::BF16;
    if (!elided.empty()) low = elided[0].node->meta.dtype;
    else if (is_low_precision_float(s.node->meta.dtype)) low = s.node->meta.dtype;
    else if (is_low_precision_float(s.compute)) low = s.compute;
    else if (!honored.empty()) low = honored[0]->meta.dtype;
    double u = unit_roundoff(low);
    double n = s.length > 0 ? static_cast<double>(s.length) : 0;

    Finding f;
    f.compile_id = c.id;
    f.kernel = s.kernel ? s.kernel->name : "";
    f.location = s.loc;
    std::string uop = user_op(*s.node);
    std::string where = s.kernel ? "the fused kernel `" + s.kernel->name + "`" : "the ATen fallback `" + s.fallback->kernel + "`";
    // The headline names the user's op and the graph; the user line, the values and the kernel
    // go to the notes.
    std::vector<HeadlinePiece> headline = {input_text(uop), " (" + c.graph_kind + " graph): "};
    if (!elided.empty()) {
      f.severity = Severity::Warning;
      headline.push_back("compiled skips eager's rounding to " + dtype_name(low) + ", so eager and compiled disagree");
      std::ostringstream rounds;
      rounds << "Eager rounds ";
      for (size_t i = 0; i < elided.size(); ++i) {
        const auto& e = elided[i];
        rounds << (i ? ", " : "") << "`" << e.node->name << "` (" << op_short_name(e.node->target) << ", "
               << dtype_name(e.node->meta.dtype) << ", " << e.relation << ")";
      }
      rounds << " to " << dtype_name(low) << ".";
      f.notes.push_back(rounds.str());
      f.notes.push_back("The compiled code (" + (elided[0].kernel ? "`" + elided[0].kernel->name + "`" : where) +
                        ") keeps it in f32 and never rounds it.");
    } else if (low_scan) {
      f.severity = Severity::Warning;
      headline.push_back("every prefix is rounded to " + dtype_name(low) + ", so the error grows with the prefix magnitude");
      f.notes.push_back("The cumulative " + op_short_name(s.node->target) + " is stored in " + dtype_name(s.node->meta.dtype) +
                        " (computed in " + dtype_name(s.compute) + ").");
    } else {
      f.severity = Severity::Note;
      headline.push_back("compiled matches eager; the " + dtype_name(low) + " precision loss against float64 remains");
      std::string names;
      for (size_t i = 0; i < honored.size(); ++i) names += (i ? ", `" : "`") + honored[i]->name.str() + "`";
      f.notes.push_back("Its bf16/fp16 inputs are rounded as eager rounds them (" + names + "), so compiled matches eager.");
    }
    f.message = fit_headline(headline);
    std::ostringstream scan;
    scan << "Scan" << (s.node->user_loc() ? " at " + user_text(*s.node) : "") << ": " << op_short_name(s.node->target) << " over "
         << (s.length > 0 ? std::to_string(s.length) : "a symbolic number of") << " elements, computed in "
         << dtype_name(s.compute) << ", stored as " << dtype_name(s.node->meta.dtype) << ".";
    f.notes.push_back(scan.str());
    if (n > 0) {
      std::ostringstream bound;
      bound << "Error bound (u = " << fmt(u) << "): n*u*sum|x| = " << fmt(n * u) << "*sum|x| worst case, sqrt(n)*u = "
            << fmt(std::sqrt(n) * u) << " relative typical.";
      f.notes.push_back(bound.str());
    }
    if (!elided.empty())
      f.fix = "For parity with eager set torch._inductor.config.emulate_precision_casts = True (env "
              "TORCHINDUCTOR_EMULATE_PRECISION_CASTS=1); for accuracy compute the scan's inputs in float32 (e.g. "
              "y.float(), or dtype=torch.float32 on the cumulative op). Run `inductor-lint confirm` to see which side is "
              "closer to float64.";
    else if (low_scan)
      f.fix = "Accumulate and store the prefix sums in float32: torch.cumsum(x, dim, dtype=torch.float32) (or x.float()), "
              "and cast the result down only where needed.";
    else
      f.fix = "Nothing to do for eager parity. For accuracy, compute in float32.";

    if (s.node->user_loc())
      f.related.push_back(RelatedLocation{*s.node->user_loc(), "user source: " + s.node->user_code()});
    for (const auto& e : elided)
      if (e.node->user_loc() && !(s.node->user_loc() && *e.node->user_loc() == *s.node->user_loc()))
        f.related.push_back(RelatedLocation{*e.node->user_loc(), "user source of `" + e.node->name + "`: " + e.node->user_code()});
    if (s.kernel) f.related.push_back(RelatedLocation{s.kernel->def_loc, "kernel " + s.kernel->name + " defined here"});
    for (const auto& e : elided)
      if (e.kernel && e.kernel != s.kernel)
        f.related.push_back(RelatedLocation{e.kernel->def_loc, "`" + e.node->name + "` is computed in " + e.kernel->name});

    nlohmann::json ev = evidence_of(c, s, elided, honored, low, uop);
    f.evidence = ev;

    // Stable across re-compiles: ops and dtypes, never kernel names or buffer numbers.
    std::string key = c.graph_kind + "|" + op_short_name(s.node->target) + "|" + uop + "|" + std::string(ev["claim"]);
    for (const auto& e : elided) key += "|" + op_short_name(e.node->target) + ":" + dtype_name(e.node->meta.dtype);
    f.fingerprint_key = key;
    out.push_back(std::move(f));
  }

  // The bf16/fp16 values tied to the scan (its inputs, or values combined with its result) that
  // eager rounds: elided where the compiled kernel keeps them in f32, honored where it rounds them
  // too (a cast to that dtype, or a buffer the value is stored in).
  std::pair<std::vector<Elided>, std::vector<const FxNode*>> roundings_of(const Compile& c, const ScanSite& s) const {
    const FxGraph& g = c.fx.find(s.node->name) ? c.fx : s.kernel->fragment;
    auto ancestors = fx_ancestors(g, s.node->name);
    auto descendants = fx_descendants(g, s.node->name);
    descendants.insert(s.node->name);
    const FxConsumers consumers = fx_consumers(g);
    static const std::vector<const FxNode*> kNone;
    auto readers_of = [&](const IString& name) -> const std::vector<const FxNode*>& {
      auto it = consumers.find(std::string_view(name));
      return it == consumers.end() ? kNone : it->second;
    };

    // Low-precision values that eager rounds: computed (not a view), bf16/fp16, tied to the scan.
    std::vector<Elided> elided;
    std::vector<const FxNode*> honored;
    for (const auto& n : g.nodes) {
      if (n.op != "call_function" || !is_low_precision_float(n.meta.dtype) || is_view_or_copy_op(n.target)) continue;
      if (is_cumulative_op(n.target)) continue;
      std::string relation;
      if (ancestors.count(n.name)) {
        relation = "input of the scan";
      } else if (!descendants.count(n.name)) {
        // Combined with the scan's result: some later node reads both.
        for (const FxNode* d : readers_of(n.name)) {
          if (d->meta.dtype == n.meta.dtype) continue;
          bool reads_scan = false;
          for (const auto& in : d->input_nodes) reads_scan = reads_scan || descendants.count(in);
          if (reads_scan) {
            relation = "combined with the scan's result in `" + d->name + "` (" + dtype_name(d->meta.dtype) + ")";
            break;
          }
        }
      }
      if (relation.empty()) continue;
      const Kernel* k = kernel_computing(c, n.name);
      if (!k) continue;  // computed by an ATen op: eager's own rounding, nothing elided
      bool casts_known = !k->stmts.empty() || !k->casts.empty();
      // Rounded if the kernel casts to that dtype, or if the value leaves the kernel (a consumer
      // computed elsewhere reads it from a buffer, which Inductor stores in the node's dtype).
      bool materialized = false;
      for (const FxNode* d : readers_of(n.name))
        if (d->op == "output" || kernel_computing(c, d->name) != k) materialized = true;
      bool rounded = kernel_rounds_to(*k, n.meta.dtype) || materialized;
      if (rounded) honored.push_back(&n);
      else elided.push_back(Elided{&n, k, relation, casts_known});
    }
    return {std::move(elided), std::move(honored)};
  }

  // The finding's evidence, the JSON the reports carry.
  nlohmann::json evidence_of(const Compile& c, const ScanSite& s, const std::vector<Elided>& elided,
                             const std::vector<const FxNode*>& honored, DType low, const std::string& uop) const {
    double u = unit_roundoff(low);
    double n = s.length > 0 ? static_cast<double>(s.length) : 0;
    bool low_scan = is_low_precision_float(s.node->meta.dtype) || is_low_precision_float(s.compute);
    nlohmann::json ev;
    ev["scan_node"] = s.node->name;
    ev["scan_op"] = op_short_name(s.node->target);
    ev["user_op"] = uop;
    ev["graph_kind"] = c.graph_kind;
    ev["kernel"] = s.kernel ? s.kernel->name : s.fallback->kernel.str();
    ev["fallback"] = s.fallback != nullptr;
    ev["scan_length"] = s.length;
    if (s.op) ev["combine"] = s.op->combine;
    ev["compute_dtype"] = dtype_name(s.compute);
    ev["storage_dtype"] = dtype_name(s.node->meta.dtype);
    ev["low_precision_dtype"] = dtype_name(low);
    ev["unit_roundoff"] = u;
    if (n > 0) {
      ev["bound_worst_case_rel"] = n * u;
      ev["bound_typical_rel"] = std::sqrt(n) * u;
    }
    ev["claim"] = !elided.empty() ? "eager-compiled-divergence" : (low_scan ? "low-precision-scan" : "precision-note");
    nlohmann::json el = nlohmann::json::array();
    for (const auto& e : elided)
      el.push_back({{"node", e.node->name}, {"op", op_short_name(e.node->target)}, {"dtype", dtype_name(e.node->meta.dtype)},
                    {"annotation", e.node->annotation}, {"relation", e.relation},
                    {"kernel", e.kernel ? e.kernel->name : ""}, {"kernel_casts_known", e.casts_known}});
    ev["elided_roundings"] = el;
    nlohmann::json ho = nlohmann::json::array();
    for (const auto* h : honored) ho.push_back(h->name);
    ev["honored_roundings"] = ho;
    return ev;
  }
};

}  // namespace

std::unique_ptr<Rule> make_reduced_precision_scan() { return std::make_unique<ReducedPrecisionScan>(); }

}  // namespace ilint
