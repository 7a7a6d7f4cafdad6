// The numeric literals of one compile, keyed so that the same literal can be found in another
// compile of the same frame: FX node arguments (fx_graph_readable.py) and kernel constants
// (output_code.py). Read from the parsed model (Compile.fx, Kernel.literals) when the parse stage
// filled it, else from the files with a small line scanner of their own.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

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
// with each other. `compile` may be null (no parsed model for this folder).
std::vector<LiteralSite> fx_literals(const Compile* compile, const std::string& fx_path, const std::string& graph_kind,
                                     DiagSink& diags);
std::vector<LiteralSite> kernel_literals(const Compile* compile, const std::string& output_code_path,
                                         const std::string& graph_kind, DiagSink& diags);

// Float-literal tokens of one line of code: "tl.full([1], -0.0052, tl.float32)" -> {"-0.0052"}.
std::vector<std::string> float_tokens(const std::string& line);
// Top-level comma split of an argument list ("a, (1, 2), b=3.0").
std::vector<std::string> split_args(const std::string& s);

}  // namespace ilint::dynamo
