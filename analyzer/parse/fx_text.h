// FX graphs as text: print_readable modules (fx_graph_readable.py, fx_graph_transformed.py) and
// the node-repr lines of the "# Graph fragment:" comments in output_code.py.
#pragma once
#include <string>
#include <string_view>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// "bf16[8, 1, 5, 15][75, 75, 15, 1]cuda:0", "f32[16]", "f64[]", "Sym(s33)", "i64[s0, 4]".
TensorMeta parse_value_annotation(std::string_view text, ValueKind& kind);

// Parses a print_readable module. Nodes of nested submodules (higher-order ops) are kept too,
// named as written. Returns false when nothing could be parsed.
bool parse_fx_readable(const FilePath& path, const std::string& text, FxGraph& out, DiagSink& diags);

// One "%name : Tensor "..." = call_function[target=...](args = (...), kwargs = {...})" line,
// without the leading "#   ". False when the line is not a node line.
bool parse_graph_fragment_line(std::string_view line, FxNode& out);

// Node names referenced in an argument text ("%slice_3" in fragments, bare names in readable graphs).
void collect_fragment_refs(std::string_view args, std::vector<IString>& out);

}  // namespace ilint
