// index-overflow: an int64 `arange(...) * K` that a C++ kernel computes with the vectorized
// `at::vec::VectorizedN<int64_t, N>::arange(base, step)`, whose lane offsets `i * step` are 32-bit ints
// when the step is an int literal: past 2^31 - 1 they wrap, where eager's int64 does not
// (pytorch#175966, the same family on CUDA). See rules/index-overflow.md.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

constexpr int64_t kInt32Max = 2147483647;
// The fewest int64 lanes a VectorizedN<int64_t, 2> has (2 x 2 on 128-bit NEON; 8 on AVX2, 16 on
// AVX-512): the offsets reach (lanes - 1) x step in every build of the kernel.
constexpr int64_t kMinLanes = 4;

std::optional<int64_t> integer(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (!end || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(v);
}

std::string kwarg(const FxNode& n, const char* key) {
  auto it = n.kwargs.find(key);
  return it == n.kwargs.end() ? "" : it->second.str();
}

// The constant a node multiplies by: a `full([1], K)` node, or a literal argument.
std::optional<int64_t> constant_factor(const Compile& c, const FxNode& mul, const std::string& iota_name) {
  for (const auto& a : mul.args) {
    std::string t = a.str();
    if (t == iota_name) continue;
    if (auto v = integer(t)) return v;
    const FxNode* n = find_fx_node(c, t);
    if (n && n->target.str().find("aten.full.default") != std::string::npos && n->args.size() >= 2)
      if (auto v = integer(n->args[1].str())) return v;
  }
  return std::nullopt;
}

class IndexOverflow : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"index-overflow",
                            "Int64 arange arithmetic done in 32 bits",
                            Severity::Error,
                            "high",
                            {"correctness", "integer", "cpp"},
                            "An int64 arange times a constant that a C++ kernel computes with the vectorized "
                            "arange(base, step), whose 32-bit lane offsets wrap past 2^31 - 1",
                            "rules/index-overflow.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        if (k.backend != KernelBackend::Cpp) continue;
        const KernelStmt* arange = nullptr;
        for (const auto& st : k.stmts)
          if (st.op == "call:arange") arange = &st;
        if (!arange) continue;
        for (const auto& name : k.fx_nodes) {
          const FxNode* mul = find_fx_node(c, name);
          if (!mul || mul->target.str().find("aten.mul.") == std::string::npos || mul->meta.dtype != DType::I64) continue;
          for (const auto& in : mul->input_nodes) {
            const FxNode* iota = find_fx_node(c, in.str());
            if (!iota || iota->target.str().find("prims.iota") == std::string::npos || iota->args.empty()) continue;
            auto length = integer(iota->args[0].str());
            auto factor = constant_factor(c, *mul, in.str());
            int64_t step = integer(kwarg(*iota, "step")).value_or(1);
            if (!length || !factor) continue;
            // The kernel's step: the iota's step times the constant, an int literal when it fits in one.
            int64_t kernel_step = std::llabs(*factor * step);
            int64_t lanes = std::min<int64_t>(*length, kMinLanes);
            if (kernel_step > kInt32Max || (lanes - 1) * kernel_step <= kInt32Max) continue;
            out.push_back(finding(c, k, *arange, *mul, *iota, *length, *factor * step, lanes));
          }
        }
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const KernelStmt& arange, const FxNode& mul,
                         const FxNode& iota, int64_t length, int64_t step, int64_t lanes) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    std::string s = std::to_string(step);
    f.message = fit_headline({"int64 `", input_text(mul.name.str()), "` = arange * " + s +
                              " wraps in 32-bit vector lane offsets: compiled values differ from eager"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) computes `" + mul.name.str() +
                   "` (int64 in eager: an arange of " + std::to_string(length) + " values times " + s +
                   ") with the vectorized `arange(base, " + s + ")`.",
               "Its lane offsets `i * " + s + "` are 32-bit ints: with " + std::to_string(lanes) +
                   " or more lanes a vector (4 on NEON, 8 on AVX2, 16 on AVX-512) they reach " +
                   std::to_string(lanes - 1) + " x " + s + " = " + std::to_string((lanes - 1) * step) +
                   ", past 2^31 - 1, and wrap.",
               "Eager computes every value in 64 bits."};
    f.location = k.def_loc;
    if (arange.loc.line > 0) f.location = SourceLoc{k.def_loc.file, arange.loc.line, arange.loc.column};
    if (mul.user_loc) f.related.push_back({*mul.user_loc, "user source: " + mul.user_code.str()});
    f.related.push_back({iota.def_loc, "the arange (" + iota.name.str() + ") in the graph Inductor compiled"});
    f.fix = "Keep the product out of one fused arange: make the factor a run-time tensor the kernel loads "
            "(an input, not a constant), or build the values with a step small enough that 15 steps stay "
            "below 2^31 and scale afterwards. pytorch#176004 is the fix under way for the CUDA form.";
    f.fingerprint_key = "arange-mul|" + std::to_string(length) + "|" + s;
    f.evidence = {{"kernel", k.name},
                  {"fx_node", mul.name.str()},
                  {"arange_length", length},
                  {"kernel_step", step},
                  {"min_lanes", lanes},
                  {"max_lane_offset", (lanes - 1) * step},
                  {"int32_max", kInt32Max}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_index_overflow() { return std::make_unique<IndexOverflow>(); }
}  // namespace ilint
