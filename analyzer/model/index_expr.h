// Index expressions of generated kernels (`x0 + 16*x1`, `(xindex // 15) % 8`, C++
// `static_cast<int64_t>(x0 + 16L*x1)`) and their value at a point of a launch's index space. A
// model service: a rule asks what element an access touches, not how its index is spelled.
//
// A small recursive-descent parser reads integers (`16L`), names, + - * // / %, parentheses, calls
// (`tl.full(...)`, `static_cast<int64_t>(...)`), method calls (`.broadcast_to(...)`) and subscripts
// (`[:, None]`), which only broadcast. Anything else is an unknown node, whose value is unknown.
// Triton's // and % floor; C++'s / and % truncate.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "analyzer/model/model.h"

namespace ilint {

struct IndexExprNode;
using IndexExpr = std::shared_ptr<IndexExprNode>;

// The variables that enumerate a launch's index space (xindex, yindex, r0_index, ...).
bool is_triton_index_var(const std::string& name);
// The numel that bounds an index variable: xindex -> xnumel, r0_index -> r0_numel, rindex -> rnumel.
std::string numel_of(const std::string& index_var);

// Drops the kernel's definitions (Kernel::var_defs) that no evaluation can ask for: those no load's
// or store's index and no numel reaches, directly or through other definitions. The evaluator
// expands only the names of those texts; a kernel of many non-`tmp` assignments would otherwise
// keep the text of each for the whole run.
void keep_index_definitions(Kernel& k);

// Evaluates the index expressions of one kernel launch: a name is, in this order, bound by the
// evaluation point, one of the launch's scalars, one of the kernel's numels, or one of the kernel's
// definitions (Kernel::var_defs, `x0 = xindex % 16`), expanded.
class IndexEvaluator {
 public:
  IndexEvaluator(const Kernel& k, const std::map<std::string, int64_t>& scalars);
  ~IndexEvaluator();

  // The expression of `text` (parsed once per text).
  IndexExpr parse(const std::string& text);
  // Names the expression depends on after expanding definitions: the free variables.
  void free_vars(const IndexExpr& e, std::set<std::string>& out, int depth = 0);
  // Its value with the names of `env` bound; nullopt when a name is unbound, a division is by
  // zero or a node is unknown.
  std::optional<int64_t> eval(const IndexExpr& e, const std::map<std::string, int64_t>& env);

 private:
  std::optional<int64_t> eval(IndexExprNode* e, const std::map<std::string, int64_t>& env, int depth);
  bool bound(const std::string& n) const { return scalars_.count(n) || k_.numels.count(n); }
  const Kernel& k_;
  const std::map<std::string, int64_t>& scalars_;
  bool cpp_ = false;
  std::map<std::string, IndexExpr> cache_;
};

}  // namespace ilint
