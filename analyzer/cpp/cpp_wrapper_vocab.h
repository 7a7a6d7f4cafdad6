// What the two readers of a cpp_wrapper=True wrapper share: the Clang reader
// (analyzer/cpp/clang/wrapper_reader.cpp) and the hand reader (cpp_wrapper_hand.*). Both must name
// shims, fallbacks and comment marks with the same texts, so the rules that turn a shim's name
// into the model's words live here once.
#pragma once
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ilint {

// Shim functions that are bookkeeping, not a computation: no KernelLaunch for them
// (aoti_torch_empty_strided, aoti_torch_get_current_cuda_stream, aoti_torch_item_*, ...).
bool is_bookkeeping_shim(const std::string& name);

// The kernel name of a fallback launch: aoti_torch_cpu_cumsum -> aten.cumsum,
// aoti_torch_cuda_mm_out -> aten.mm_out, aoti_torch_copy_ -> copy_, else the shim's own name.
std::string fallback_kernel_of_shim(const std::string& name);

// `aoti_torch_item_int64` -> "int64"; "" when `name` reads no scalar out of a tensor.
std::string item_shim_type(const std::string& name);
// The graph input kind of a scalar read by aoti_torch_item_<type>.
ValueKind item_value_kind(const std::string& type);

// `s` without `suffix` at its end (only when something is left): buf0_handle -> buf0.
std::string without_suffix(const std::string& s, const std::string& suffix);

// The wrapper's lines, split at '\n' (a '\r' stays in its line).
std::vector<std::string> split_wrapper_lines(const std::string& source);

// A `// Topologically Sorted Source Nodes: [...]` or `// [Provenance debug handles] h` line of
// the wrapper: the next launch after it takes these.
struct WrapperCommentMark {
  int line = 0;  // 1-based line of the wrapper source
  std::vector<std::string> source_nodes;
  std::string handle;
};
std::vector<WrapperCommentMark> wrapper_comment_marks(const std::vector<std::string>& lines);

}  // namespace ilint
