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

// How parse_fx_readable reads a module. Scan: by lines first (see below), the Python parser only
// where the line reader is unsure. Parse: the Python parser always (tests compare the two).
enum class FxReadableRead { Scan, Parse };

// Parses a print_readable module. Nodes of nested submodules (higher-order ops) are kept too,
// named as written. Returns false when nothing could be parsed. `first_line` is the line of
// `path` that holds the text's first line (a TORCH_TRACE payload starts deep in its log).
//
// Most of these files are one `class ...(torch.nn.Module):` with one `def forward(self, ...):`
// whose body is node lines (`add: "f32[8]" = torch.ops.aten.add.Tensor(x, 2.0);  x = None`),
// comments and a `return`. A line reader takes those forms, a small grammar of the literals FX
// prints (names, dotted names, plain numbers, strings without escapes, lists, calls), at a
// fraction of the tokenizer's and parser's cost. It answers only for a file it reads whole, where
// the parser would find the same statements without an issue; anything else (a tab, a backslash,
// a tuple argument, a nested module, a line it does not know) sends the whole file to the parser.
// Both feed one node builder. tests/unit/fx_readable_scan_test.cpp and fuzz_fx_text check that
// the graph and the diagnostics are the same either way.
bool parse_fx_readable(const FilePath& path, std::string_view text, FxGraph& out, DiagSink& diags,
                       FxReadableRead how = FxReadableRead::Scan, int first_line = 1);

// Reads the fx_graph_readable.py file at `path` and parses it as parse_fx_readable does, with the
// same graph and diagnostics, but a file over `block_bytes` a block of lines at a time: its text is
// not held whole where the line reader takes it. `bytes`: the bytes read.
inline constexpr size_t kFxReadableBlockBytes = size_t(1) << 20;
bool read_fx_readable(const FilePath& path, FxGraph& out, DiagSink& diags, size_t& bytes,
                      size_t block_bytes = kFxReadableBlockBytes);

// Whether the line reader of parse_fx_readable takes `text` whole (for tests and the benchmark).
bool fx_readable_scans(std::string_view text);

// One "%name : Tensor "..." = call_function[target=...](args = (...), kwargs = {...})" line,
// without the leading "#   ". False when the line is not a node line.
bool parse_graph_fragment_line(std::string_view line, FxNode& out);

// The user location of the FX nodes below a comment: "# File: /x/seed2.py:12 in fn, code: x = ..."
// (torch 2.14 heads a backward node's "# Backward of forward node: File: ..."). False for any other
// comment.
bool read_file_comment(std::string_view comment, SourceLoc& loc, std::string& fn, std::string& code);

// Node names referenced in an argument text ("%slice_3" in fragments, bare names in readable graphs).
void collect_fragment_refs(std::string_view args, std::vector<IString>& out);

}  // namespace ilint
