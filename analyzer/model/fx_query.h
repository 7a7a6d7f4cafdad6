// Queries over the model's FX graphs that several rules share.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ilint {

// aten/prims ops that only re-view or move data: no arithmetic, so no rounding of their own.
bool is_view_or_copy_op(const std::string& target);

// Cumulative reductions: cumsum, cumprod, logcumsumexp, cummax, cummin (and their helpers).
bool is_cumulative_op(const std::string& target);

// "torch.ops.aten.cumsum.default" -> "cumsum".
std::string op_short_name(const std::string& target);

// All nodes that `name` depends on (transitively), and all nodes that depend on it.
std::set<std::string> fx_ancestors(const FxGraph& g, const std::string& name);
std::set<std::string> fx_descendants(const FxGraph& g, const std::string& name);

// The FX node named `name`, looked up first in the compile's graph (which has user source
// lines), then in the kernels' graph fragments.
const FxNode* find_fx_node(const Compile& c, const std::string& name);

// The kernel that computes FX node `name` (by graph fragment or provenance), or null.
const Kernel* kernel_computing(const Compile& c, const std::string& name);

}  // namespace ilint
