// argreduce-memory-order: a whole-tensor argmax/argmin whose input is a permuted view (`x.t()`,
// through pointwise ops or `.contiguous()`), computed by a C++ kernel that walks the input in memory
// order and passes its loop variable as the index. Eager's flat index counts in the permuted
// (logical) order; the kernel's counts in memory order, so compiled returns another position
// (pytorch#183082's family; `x.t().argmin()` itself was fixed in 2.13, the forms with an op between
// the transpose and the reduction are not, 2.14.1 included). See rules/argreduce-memory-order.md.
#include <algorithm>
#include <charconv>
#include <regex>
#include <set>

#include "analyzer/model/fx_query.h"
#include "analyzer/rule.h"

namespace ilint {
namespace {

bool is_argreduce_combine(std::string_view op) {
  return op == "call:argmax_combine_vec" || op == "call:argmin_combine_vec" || op == "call:argmax_combine" ||
         op == "call:argmin_combine";
}

// Inductor names a C++ kernel's loop variables x0, x1, ... (and r0, ... for reductions); everything
// a kernel computes is tmpN or tmp_acc*.
bool is_loop_variable(std::string_view name) {
  if (name.size() < 2 || (name[0] != 'x' && name[0] != 'r')) return false;
  return std::all_of(name.begin() + 1, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

bool is_whole_tensor_argreduce(const FxNode& n) {
  const std::string t = n.target.str();
  if (t.find("aten.argmax.default") == std::string::npos && t.find("aten.argmin.default") == std::string::npos)
    return false;
  // argmax(x), argmax(x, None): no dim; `dim=` as a keyword or a second argument other than None is a
  // per-dim reduction, whose index Inductor computes.
  auto dim = n.kwargs.find("dim");
  if (dim != n.kwargs.end() && dim->second.str() != "None") return false;
  return n.args.size() < 2 || n.args[1].str() == "None";
}

bool is_permute(const FxNode& n) {
  const std::string t = n.target.str();
  return t.find("aten.permute.default") != std::string::npos || t.find("aten.transpose.int") != std::string::npos ||
         t.find("aten.t.default") != std::string::npos;
}

// Whether a permute of `shape` by its arguments changes the order of the elements: some two
// dimensions of size other than 1 change places.
bool reorders(const FxNode& permute, const IStringList& in_shape) {
  const std::string t = permute.target.str();
  std::vector<int> order;
  if (t.find("aten.permute.default") != std::string::npos) {
    if (permute.args.size() < 2) return false;
    static const std::regex number("-?[0-9]+");
    const std::string dims = permute.args[1].str();
    for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it) {
      int d = 0;
      const std::string text = it->str();
      auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      if (ec != std::errc()) return false;  // a dimension no tensor has
      order.push_back(d);
    }
  } else {
    for (size_t i = 0; i < in_shape.size(); ++i) order.push_back(static_cast<int>(i));
    int a = 0, b = 1;
    if (t.find("aten.transpose.int") != std::string::npos) {
      if (permute.args.size() < 3) return false;
      const std::string first = permute.args[1].str(), second = permute.args[2].str();
      if (std::from_chars(first.data(), first.data() + first.size(), a).ec != std::errc() ||
          std::from_chars(second.data(), second.data() + second.size(), b).ec != std::errc())
        return false;
    }
    const int rank = static_cast<int>(order.size());
    if (a < 0) a += rank;
    if (b < 0) b += rank;
    if (a < 0 || b < 0 || a >= rank || b >= rank) return false;
    std::swap(order[a], order[b]);
  }
  if (order.size() != in_shape.size()) return false;
  const int rank = static_cast<int>(order.size());
  // The dimensions of more than one element, in the order the permute puts them: any inversion
  // reorders the elements.
  std::vector<int> moving;
  for (int d : order) {
    if (d < 0) d += rank;
    if (d < 0 || d >= rank) return false;
    if (in_shape[d].str() != "1") moving.push_back(d);
  }
  return !std::is_sorted(moving.begin(), moving.end());
}

// The permute the reduction's input comes from, through ops that keep the value's shape and order
// (pointwise ops, clone, contiguous, dtype conversions): each step follows the one input of the
// same shape. Null when the chain reaches a graph input, a shape change or a fork first.
const FxNode* permute_feeding(const Compile& c, const FxNode& reduction) {
  if (reduction.input_nodes.empty()) return nullptr;
  const FxNode* n = find_fx_node(c, reduction.input_nodes[0].str());
  const IStringList shape = n ? n->meta.shape : IStringList{};
  for (int steps = 0; n && steps < 32; ++steps) {
    if (is_permute(*n)) {
      if (n->input_nodes.empty()) return nullptr;
      const FxNode* src = find_fx_node(c, n->input_nodes[0].str());
      return src && reorders(*n, src->meta.shape) ? n : nullptr;
    }
    if (n->op != "call_function" || n->meta.shape != shape) return nullptr;
    const FxNode* next = nullptr;
    for (const auto& in : n->input_nodes) {
      const FxNode* m = find_fx_node(c, in.str());
      if (!m || m->kind != ValueKind::Tensor) continue;
      if (m->meta.shape == shape || is_permute(*m)) {
        if (next) return nullptr;  // two tensor inputs of that shape: not one chain
        next = m;
      }
    }
    n = next;
  }
  return nullptr;
}

class ArgreduceMemoryOrder : public Rule {
 public:
  const RuleInfo& info() const override {
    static const RuleInfo i{"argreduce-memory-order",
                            "Whole-tensor argmax/argmin of a permuted value indexed in memory order",
                            Severity::Error,
                            "high",
                            {"correctness", "indexing", "cpp"},
                            "A C++ kernel computes a whole-tensor argmax/argmin of a transposed value with its loop "
                            "variable as the index: it returns the memory position, not eager's flat index",
                            "rules/argreduce-memory-order.md", /*experimental=*/false, ReadsKernelBodies | ReadsFxGraph};
    return i;
  }

  void check(const Program& program, std::vector<Finding>& out) const override {
    for (const auto& c : program.compiles)
      for (const auto& k : c.kernels) {
        if (k.backend != KernelBackend::Cpp) continue;
        // The first combine whose index is a loop variable itself (the fixed form passes a computed
        // logical index, `x0 + 5L*x1` through arange).
        const KernelStmt* combine = nullptr;
        std::string index;
        for (const auto& st : k.stmts) {
          if (!is_argreduce_combine(st.op.str())) continue;
          for (const auto& operand : st.operands)
            if (is_loop_variable(operand.str())) {
              combine = &st;
              index = operand.str();
              break;
            }
          if (combine) break;
        }
        if (!combine) continue;
        for (const auto& name : k.fx_nodes) {
          const FxNode* reduction = find_fx_node(c, name);
          if (!reduction || !is_whole_tensor_argreduce(*reduction)) continue;
          if (const FxNode* permute = permute_feeding(c, *reduction))
            out.push_back(finding(c, k, *combine, index, *reduction, *permute));
        }
      }
  }

 private:
  static Finding finding(const Compile& c, const Kernel& k, const KernelStmt& combine, const std::string& index,
                         const FxNode& reduction, const FxNode& permute) {
    Finding f;
    f.severity = Severity::Error;
    f.compile_id = c.id;
    f.kernel = k.name;
    const std::string op = op_short_name(reduction.target.str());
    const std::string code = reduction.user_code().empty() ? reduction.name.str() : reduction.user_code().str();
    f.message = fit_headline({"`", input_text(code), "`: " + op + " of a transposed value gives its memory position, not eager's index"});
    f.notes = {"`" + k.name + "` (" + c.graph_kind + " graph) computes `" + reduction.name.str() + "` (" + op +
                   " over all elements) reading its input in memory order and passing the loop variable `" + index +
                   "` as the index of each candidate.",
               "The input is `" + permute.name.str() + "` (" + op_short_name(permute.target.str()) +
                   (permute.args.size() > 1 ? " " + permute.args[1].str() : std::string()) +
                   "), whose logical order differs from its memory order: eager's flat index counts in the "
                   "permuted order, so compiled returns another position wherever the two orders differ.",
               "The same reduction straight over the permute (`x.t().argmin()`) computes the logical index; "
               "an op between the permute and the reduction loses it."};
    f.location = k.def_loc;
    if (combine.loc.line > 0) f.location = SourceLoc{k.def_loc.file, combine.loc.line, combine.loc.column};
    if (reduction.user_loc()) f.related.push_back({*reduction.user_loc(), "user source: " + code});
    f.related.push_back({permute.def_loc, "the permute (" + permute.name.str() + ") in the graph Inductor compiled"});
    f.fix = "Reduce the untransposed value and map its index into the transposed order: for `(x.t() * 2).argmax()` "
            "of a 2-D x, `i = (x * 2).argmax(); (i % x.shape[1]) * x.shape[0] + i // x.shape[1]`; or reduce per "
            "dimension (`argmax(dim=...)`), whose index Inductor computes.";
    f.fingerprint_key = "argreduce-permuted|" + op + "|" + (permute.args.size() > 1 ? permute.args[1].str() : "");
    f.evidence = {{"kernel", k.name},
                  {"reduction", reduction.name.str()},
                  {"permute", permute.name.str()},
                  {"index_argument", index},
                  {"combine", combine.op.str().substr(5)}};
    return f;
  }
};

}  // namespace
std::unique_ptr<Rule> make_argreduce_memory_order() { return std::make_unique<ArgreduceMemoryOrder>(); }
}  // namespace ilint
