// The numeric literals of one compile, keyed so that the same literal can be found in another
// compile of the same frame: FX node arguments (fx_graph_readable.py) and kernel constants
// (output_code.py), read from the model the parse stage built (Compile::fx, Kernel::literals).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/model.h"

namespace ilint::dynamo {

struct LiteralSite {
  std::string where;   // fx | kernel
  std::string key;     // alignment key
  std::string text;
  double value = 0;
  std::string node;    // FX node or kernel name
  std::string target;  // FX target, or the kernel variable the line defines
  SourceLoc loc;
  std::optional<SourceLoc> user_loc;
  std::string user_code;
  std::string compile_id;  // set by the caller: the compile it was read from
};

// `graph_kind` prefixes the keys so the forward and backward graphs of one compile never align
// with each other.
std::vector<LiteralSite> fx_literals(const Compile& compile, const std::string& graph_kind);
std::vector<LiteralSite> kernel_literals(const Compile& compile, const std::string& graph_kind);

}  // namespace ilint::dynamo
