// index-overflow: an int64 `arange(...) * K` that a kernel computes in 32 bits: a C++ kernel with the
// vectorized `at::vec::VectorizedN<int64_t, N>::arange(base, step)`, whose lane offsets `i * step` are
// ints when the step is an int literal, or a Triton kernel as `K*x0` from its int32 index
// (pytorch#175966). Past 2^31 - 1 the products wrap, where eager's int64 does not. See
// rules/index-overflow.md.
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
                            {"correctness", "integer", "cpp", "triton"},
                            "An int64 arange times a constant that a kernel computes in 32 bits (C++: the vectorized "
                            "arange's lane offsets; Triton: the product of its int32 index), wrapping past 2^31 - 1",
                            "rules/index-overflow.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        if (k.backend == KernelBackend::Cpp) check_cpp(c, k, out);
        else if (k.backend == KernelBackend::Triton) check_triton(c, k, out);
      }
  }

 private:
  // An int64 FX `mul` of an iota (an arange of `length` values) by a constant that a kernel computes;
  // `step`: the iota's step times the constant, the step of the products.
  struct ArangeProduct {
    const FxNode* mul;
    const FxNode* iota;
    int64_t length;
    int64_t step;
  };

  static std::vector<ArangeProduct> arange_products(const Compile& c, const Kernel& k) {
    std::vector<ArangeProduct> found;
    for (const auto& name : k.fx_nodes) {
      const FxNode* mul = find_fx_node(c, name);
      if (!mul || mul->target.str().find("aten.mul.") == std::string::npos || mul->meta.dtype != DType::I64) continue;
      for (const auto& in : mul->input_nodes) {
        const FxNode* iota = find_fx_node(c, in.str());
        if (!iota || iota->target.str().find("prims.iota") == std::string::npos || iota->args.empty()) continue;
        auto length = integer(iota->args[0].str());
        auto factor = constant_factor(c, *mul, in.str());
        if (!length || !factor) continue;
        int64_t step = 0;
        // A product past int64 is no literal any kernel writes: nothing to compare.
        if (__builtin_mul_overflow(*factor, integer(kwarg(*iota, "step")).value_or(1), &step) || step == INT64_MIN)
          continue;
        found.push_back({mul, iota, *length, step});
      }
    }
    return found;
  }

  // (count - 1) x |step|, saturated at INT64_MAX: only its comparison with 2^31 - 1 matters.
  static int64_t largest_offset(int64_t count, int64_t step) {
    int64_t out = 0;
    if (count < 1) return 0;
    return __builtin_mul_overflow(count - 1, std::llabs(step), &out) ? INT64_MAX : out;
  }

  // C++: the vectorized `arange(base, step)`, whose lane offsets `i * step` are ints.
  void check_cpp(const Compile& c, const Kernel& k, std::vector<Finding>& out) const {
    const KernelStmt* arange = nullptr;
    for (const auto& st : k.stmts)
      if (st.op == "call:arange") arange = &st;
    if (!arange) return;
    for (const auto& p : arange_products(c, k)) {
      int64_t kernel_step = std::llabs(p.step);
      int64_t lanes = std::min<int64_t>(p.length, kMinLanes);
      // A step past an int is a long literal, and its offsets are 64-bit.
      if (kernel_step > kInt32Max || largest_offset(lanes, kernel_step) <= kInt32Max) continue;
      out.push_back(cpp_finding(c, k, *arange, *p.mul, *p.iota, p.length, p.step, lanes));
    }
  }

  // Triton: `tmp0 = K*x0` with x0 the kernel's int32 index and K a literal that fits an int32 (Triton
  // types such a constant int32; a larger one would be int64 and promote the product).
  void check_triton(const Compile& c, const Kernel& k, std::vector<Finding>& out) const {
    // A kernel indexed in 64 bits (`tl.program_id(0).to(tl.int64)`, for numels past 2^31) computes
    // the product in int64.
    for (const auto& cast : k.casts)
      if (cast.to == DType::I64 && (is_x_index(cast.var.str()) || is_x_index(cast.src.str()))) return;
    for (const auto& p : arange_products(c, k)) {
      const int64_t kernel_step = std::llabs(p.step);
      // Past 2^31 - 1 elements Inductor indexes the kernel in 64 bits (`.to(tl.int64)`).
      if (p.length > kInt32Max) continue;
      if (kernel_step > kInt32Max || largest_offset(p.length, kernel_step) <= kInt32Max) continue;
      for (const auto& st : k.stmts) {
        if (st.op != "mul" || st.operands.size() != 1 || !is_x_index(st.operands[0].str())) continue;
        bool times_step = false;
        for (const auto& lit : k.literals)
          times_step |= lit.var == st.var.str() && lit.value == static_cast<double>(p.step);
        if (!times_step) continue;
        out.push_back(triton_finding(c, k, st, *p.mul, *p.iota, p.length, p.step));
        break;
      }
    }
  }

  // Inductor's names for a Triton kernel's pointwise index: xindex, xoffset and the x0, x1, ... it
  // derives from xindex.
  static bool is_x_index(std::string_view name) {
    if (name == "xindex" || name == "xoffset") return true;
    if (name.size() < 2 || name[0] != 'x') return false;
    return std::all_of(name.begin() + 1, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  }

  static Finding cpp_finding(const Compile& c, const Kernel& k, const KernelStmt& arange, const FxNode& mul,
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
    if (mul.user_loc()) f.related.push_back({*mul.user_loc(), "user source: " + mul.user_code().str()});
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

  static Finding triton_finding(const Compile& c, const Kernel& k, const KernelStmt& product, const FxNode& mul,
                                const FxNode& iota, int64_t length, int64_t step) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    const std::string s = std::to_string(step);
    const std::string index = product.operands[0].str();
    const int64_t largest = largest_offset(length, step);
    f.message = fit_headline({"int64 `", input_text(mul.name.str()), "` = arange * " + s +
                              " is computed from the int32 index and wraps: compiled values differ from eager"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) computes `" + mul.name.str() +
                   "` (int64 in eager: an arange of " + std::to_string(length) + " values times " + s + ") as `" +
                   product.var.str() + " = " + s + "*" + index + "`.",
               "`" + index + "` is the kernel's int32 index and " + s +
                   " fits an int32, so Triton multiplies in 32 bits: the largest product, " + std::to_string(length - 1) +
                   " x " + s + " = " + std::to_string(largest) + ", passes 2^31 - 1 and wraps before the int64 store.",
               "Eager computes every value in 64 bits."};
    f.location = k.def_loc;
    if (product.loc.valid()) f.location = product.loc;
    if (mul.user_loc()) f.related.push_back({*mul.user_loc(), "user source: " + mul.user_code().str()});
    f.related.push_back({iota.def_loc, "the arange (" + iota.name.str() + ") in the graph Inductor compiled"});
    f.fix = "Keep the product out of the kernel's index arithmetic: make the factor a run-time tensor the kernel "
            "loads (an input, not a constant; its int64 value promotes the product), or scale a float arange and "
            "convert. pytorch#176004 is the fix under way.";
    f.fingerprint_key = "arange-mul|" + std::to_string(length) + "|" + s;
    f.evidence = {{"kernel", k.name},
                  {"fx_node", mul.name.str()},
                  {"arange_length", length},
                  {"kernel_step", step},
                  {"index", index},
                  {"largest_product", largest},
                  {"int32_max", kInt32Max}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_index_overflow() { return std::make_unique<IndexOverflow>(); }
}  // namespace ilint
