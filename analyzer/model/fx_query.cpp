#include "analyzer/model/fx_query.h"

#include <algorithm>

namespace ilint {

std::string op_short_name(const std::string& target) {
  // torch.ops.aten.cumsum.default -> cumsum ; torch.ops.prims.convert_element_type.default -> convert_element_type
  std::string t = target;
  for (const char* p : {"torch.ops.aten.", "torch.ops.prims.", "torch.ops.inductor.", "aten.", "prims."})
    if (t.rfind(p, 0) == 0) {
      t = t.substr(std::string(p).size());
      break;
    }
  auto dot = t.find('.');
  return dot == std::string::npos ? t : t.substr(0, dot);
}

bool is_view_or_copy_op(const std::string& target) {
  static const std::set<std::string> views = {
      "view", "reshape", "_unsafe_view", "expand", "slice", "select", "permute", "transpose", "t", "squeeze",
      "unsqueeze", "clone", "alias", "as_strided", "rev", "flip", "cat", "index", "gather", "getitem",
      "slice_scatter", "select_scatter", "full", "zeros", "ones", "empty", "constant_pad_nd", "detach",
      "unbind", "split", "split_with_sizes", "contiguous", "repeat", "roll", "narrow"};
  // _to_copy and convert_element_type are not here: a conversion to a narrower dtype rounds.
  if (target == "operator.getitem") return true;
  return views.count(op_short_name(target)) > 0;
}

bool is_cumulative_op(const std::string& target) {
  static const std::set<std::string> ops = {"cumsum", "cumprod", "logcumsumexp", "cummax", "cummin",
                                            "_cummax_helper", "_cummin_helper", "_logcumsumexp"};
  return ops.count(op_short_name(target)) > 0;
}

std::set<std::string> fx_ancestors(const FxGraph& g, const std::string& name) {
  std::set<std::string> out;
  std::vector<std::string> stack{name};
  while (!stack.empty()) {
    std::string n = stack.back();
    stack.pop_back();
    const FxNode* node = g.find(n);
    if (!node) continue;
    for (const auto& in : node->input_nodes)
      if (out.insert(in).second) stack.push_back(in);
  }
  return out;
}

std::set<std::string> fx_descendants(const FxGraph& g, const std::string& name) {
  std::set<std::string> out;
  std::set<std::string> frontier{name};
  // Nodes are in topological order: one forward pass suffices.
  for (const auto& n : g.nodes) {
    for (const auto& in : n.input_nodes)
      if (frontier.count(in)) {
        if (n.op != "output") out.insert(n.name);
        frontier.insert(n.name);
        break;
      }
  }
  return out;
}

const FxNode* find_fx_node(const Compile& c, const std::string& name) {
  if (const FxNode* n = c.fx.find(name)) return n;
  for (const auto& k : c.kernels)
    if (const FxNode* n = k.fragment.find(name)) return n;
  return nullptr;
}

const Kernel* kernel_computing(const Compile& c, const std::string& name) {
  for (const auto& k : c.kernels)
    if (std::find(k.fx_nodes.begin(), k.fx_nodes.end(), name) != k.fx_nodes.end()) return &k;
  auto it = c.provenance.post_to_kernel.find(name);
  if (it != c.provenance.post_to_kernel.end())
    for (const auto& handle : it->second) {
      std::string kname = handle.substr(0, handle.find(':'));
      if (const Kernel* k = c.kernel(kname)) return k;
    }
  return nullptr;
}

}  // namespace ilint
