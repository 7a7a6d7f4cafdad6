#include "analyzer/model/fx_query.h"

#include <algorithm>
#include <string_view>

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

FxConsumers fx_consumers(const FxGraph& g) {
  FxConsumers out;
  for (const auto& n : g.nodes)
    for (const auto& in : n.input_nodes) {
      auto& readers = out[std::string_view(in)];
      if (readers.empty() || readers.back() != &n) readers.push_back(&n);
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

namespace ilint {

namespace {
// "reinterpret_tensor(buf0, (8, ), (1, ), 8)" -> {"buf0", "(8, )", "(1, )", "8"}; empty when not a call.
std::vector<std::string> call_args(const std::string& text, std::string_view callee) {
  std::vector<std::string> out;
  // Compared in place: most launch arguments are plain buffer names, and building `callee + "("`
  // for each was a heap allocation per argument.
  if (text.size() < callee.size() + 2 || text.compare(0, callee.size(), callee) != 0 || text[callee.size()] != '(' ||
      text.back() != ')')
    return out;
  std::string inner = text.substr(callee.size() + 1, text.size() - callee.size() - 2);
  std::string cur;
  int depth = 0;
  for (char ch : inner) {
    if (ch == '(' || ch == '[') ++depth;
    if (ch == ')' || ch == ']') --depth;
    if (ch == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += ch;
  }
  out.push_back(cur);
  for (auto& s : out) {
    size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
    s = b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  return out;
}

bool parse_int(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  try {
    size_t pos;
    long long x = std::stoll(s, &pos);
    if (pos != s.size()) return false;
    v = x;
    return true;
  } catch (...) {
    return false;
  }
}
}  // namespace

ArgBuffer resolve_launch_arg(const Compile& c, const std::string& arg_text) {
  ArgBuffer r;
  std::string t = arg_text;
  // Inline views: reinterpret_tensor(reinterpret_tensor(buf0, ...), ...).
  for (int guard = 0; guard < 16; ++guard) {
    auto a = call_args(t, "reinterpret_tensor");
    if (a.empty()) break;
    int64_t off;
    if (a.size() >= 4 && parse_int(a[3], off)) r.offset += off;
    else if (a.size() >= 4) r.offset_known = false;
    t = a[0];
  }
  const Buffer* b = c.buffer(t);
  if (!b) return r;
  r.buffer = t;
  r.chain.push_back(t);
  if (b->alias_of.empty()) {  // most arguments: a buffer that is no view
    r.root = t;
    return r;
  }
  std::set<std::string> seen{t};
  while (!b->alias_of.empty()) {
    if (b->is_reuse) r.via_reuse = true;
    if (!b->alias_offset.empty()) {
      int64_t off;
      if (parse_int(b->alias_offset, off)) r.offset += off;
      else r.offset_known = false;
    }
    const Buffer* next = c.buffer(b->alias_of);
    if (!next || !seen.insert(b->alias_of).second) break;
    r.chain.push_back(b->alias_of);
    b = next;
  }
  r.root = r.chain.back();
  return r;
}

std::vector<ParamBinding> bind_params(const Compile& c, const Kernel& k, const KernelLaunch& l) {
  std::vector<ParamBinding> out;
  size_t n = std::min(k.params.size(), l.args.size());
  for (size_t i = 0; i < n; ++i) {
    ParamBinding pb;
    pb.param = &k.params[i];
    pb.arg = l.args[i];
    pb.buf = resolve_launch_arg(c, l.args[i]);
    out.push_back(std::move(pb));
  }
  return out;
}

}  // namespace ilint
