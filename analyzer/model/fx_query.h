// Queries over the model's FX graphs that several rules share.
#pragma once
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
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

// The nodes that read each node (by name), each once, in graph order: a rule that asks "who reads
// n" for many n asks this once instead of scanning the graph each time.
using FxConsumers = std::unordered_map<std::string_view, std::vector<const FxNode*>>;
FxConsumers fx_consumers(const FxGraph& g);

// The FX node named `name`, looked up first in the compile's graph (which has user source
// lines), then in the kernels' graph fragments.
const FxNode* find_fx_node(const Compile& c, const std::string& name);

// The kernel that computes FX node `name` (by graph fragment or provenance), or null.
const Kernel* kernel_computing(const Compile& c, const std::string& name);

}  // namespace ilint

namespace ilint {

// ---- Wrapper queries shared by the mutation/aliasing rules (inplace-read-after-write,
// mutated-arg-never-stored, restrict-alias).

// The buffer behind one kernel-launch argument. `buf0` -> buf0; `reinterpret_tensor(buf0, (8, ), (1, ), 8)`
// -> buf0 with offset 8. `root` follows Buffer::alias_of (views and `# reuse`) to the buffer
// that owns the memory; `offset` is the element offset of the argument inside `root`, when
// every view on the way states a literal offset.
struct ArgBuffer {
  std::string buffer;        // first named buffer ("" when the argument is a number or symbol)
  std::string root;          // owner of the memory, through alias_of chains
  std::vector<std::string> chain;  // buffer, its alias_of, ... root
  int64_t offset = 0;
  bool offset_known = true;
  bool via_reuse = false;    // a `# reuse` step is on the chain (the old buffer is dead)
};
ArgBuffer resolve_launch_arg(const Compile& c, const std::string& arg_text);

// Kernel parameter i bound to launch argument i (Triton `.run(...)` and C++ calls pass them
// in order; constexpr block sizes are not passed).
struct ParamBinding {
  const KernelParam* param = nullptr;
  std::string arg;           // argument text as written
  ArgBuffer buf;
};
std::vector<ParamBinding> bind_params(const Compile& c, const Kernel& k, const KernelLaunch& l);

// Calls f(kernel, launch) for each launch of a generated kernel of `c` (ATen fallbacks and
// launches of kernels the compile does not define are skipped), in launch order.
template <class F>
void for_each_kernel_launch(const Compile& c, F&& f) {
  for (const auto& l : c.launches) {
    if (l.is_fallback) continue;
    if (const Kernel* k = c.kernel(l.kernel)) f(*k, l);
  }
}

}  // namespace ilint
