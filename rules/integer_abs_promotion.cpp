// integer-abs-promotion: `std::abs` in a C++ kernel on an int8 or int16 value whose result is then
// widened (converted to int64 or a float, summed in int64). Eager's abs stays in the tensor's dtype,
// where abs of the minimum wraps to itself (abs(-32768) == -32768 in int16); std::abs promotes to int
// and returns 32768, which the widening keeps (pytorch#187018's family; uint8 was fixed in 2.14,
// int8 and int16 are not). See rules/integer-abs-promotion.md.
#include <map>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

bool narrow_signed(DType d) { return d == DType::I8 || d == DType::I16; }

// The value range of the narrow type: the minimum is where eager's abs wraps.
int64_t minimum_of(DType d) { return d == DType::I8 ? -128 : -32768; }

class IntegerAbsPromotion : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"integer-abs-promotion",
                            "abs of an 8- or 16-bit integer promoted to int, then widened",
                            Severity::Error,
                            "high",
                            {"correctness", "integer", "cpp"},
                            "A C++ kernel's std::abs on an int8/int16 value returns int, and the result is widened "
                            "without narrowing back: at the minimum value compiled gives 2^7 or 2^15 where eager wraps",
                            "rules/integer-abs-promotion.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        if (k.backend != KernelBackend::Cpp) continue;
        // Eager's abs in 8 or 16 bits: an aten.abs node of that dtype among the nodes the kernel computes.
        const FxNode* eager_abs = nullptr;
        for (const auto& name : k.fx_nodes) {
          const FxNode* n = find_fx_node(c, name);
          if (n && n->target.str().find("aten.abs.default") != std::string::npos && narrow_signed(n->meta.dtype)) {
            eager_abs = n;
            break;
          }
        }
        if (!eager_abs) continue;
        std::map<std::string, const MemAccess*> narrow_loads;
        for (const auto& l : k.loads)
          if (narrow_signed(l.value_dtype)) narrow_loads.emplace(l.var.str(), &l);
        for (const auto& st : k.stmts) {
          if (st.op != "call:abs" || st.operands.empty()) continue;
          auto load = narrow_loads.find(st.operands[0].str());
          if (load == narrow_loads.end()) continue;
          // Its int result converted to a wider type: nothing narrows it back first.
          for (const auto& cast : k.casts)
            if (cast.src == st.var && cast.to != DType::Unknown && cast.to != DType::Bool &&
                cast.to != load->second->value_dtype && !narrow_signed(cast.to) && cast.to != DType::U8) {
              out.push_back(finding(c, k, st, *load->second, cast, *eager_abs));
              break;
            }
        }
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const KernelStmt& abs, const MemAccess& load,
                         const CastOp& widen, const FxNode& eager_abs) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    const DType narrow = load.value_dtype;
    const std::string type = dtype_name(narrow);
    const std::string min = std::to_string(minimum_of(narrow));
    const std::string code = eager_abs.user_code().empty() ? eager_abs.name.str() : eager_abs.user_code().str();
    f.message = fit_headline({"`", input_text(code), "`: " + type + " abs promoted to int and widened: abs(" + min +
                              ") is " + min.substr(1) + " compiled, " + min + " in eager"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) computes `std::abs(" + abs.operands[0].str() +
                   ")` on an " + type + " loaded from `" + load.ptr.str() + "`: C++ promotes it to int.",
               "The int result `" + abs.var.str() + "` is converted to " + dtype_name(widen.to) +
                   " without a conversion back to " + type + ", so abs(" + min + ") stays " + min.substr(1) + ".",
               "Eager computes `" + eager_abs.name.str() + "` in " + type + ", where abs(" + min + ") wraps to " + min +
                   ", and widens that."};
    f.location = k.def_loc;
    if (abs.loc.line > 0) f.location = SourceLoc{k.def_loc.file, abs.loc.line, abs.loc.column};
    if (eager_abs.user_loc()) f.related.push_back({*eager_abs.user_loc(), "user source: " + code});
    if (widen.loc.line > 0)
      f.related.push_back({SourceLoc{k.def_loc.file, widen.loc.line, widen.loc.column},
                           "the conversion to " + dtype_name(widen.to) + " that keeps the promoted value"});
    f.fix = "Widen before abs (`x.to(torch.int64).abs()`): both sides then compute the mathematical value. If the "
            "wrap is what you want, keep abs's result in " + type + " (return it, or convert it back) before widening.";
    f.fingerprint_key = "abs-promotion|" + type + "|" + dtype_name(widen.to);
    f.evidence = {{"kernel", k.name},
                  {"fx_node", eager_abs.name.str()},
                  {"dtype", type},
                  {"widened_to", dtype_name(widen.to)},
                  {"abs_var", abs.var.str()},
                  {"minimum", minimum_of(narrow)}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_integer_abs_promotion() { return std::make_unique<IntegerAbsPromotion>(); }
}  // namespace ilint
