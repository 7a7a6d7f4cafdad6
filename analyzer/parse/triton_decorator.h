// A hand reader for the `@triton_heuristics.<kind>(...)` decorator of a Triton kernel source.
//
// Half the bytes of a kernel Inductor writes are that decorator: size hints, `triton_meta` and
// `inductor_meta` dicts of which the kernel reader uses two entries (`triton_meta['signature']`,
// `inductor_meta['mutated_arg_names']`). Tokenizing and parsing the whole of it into expression
// trees was ~7% of a Triton corpus run (callgrind). This reader walks its characters once, checks
// them against a small grammar of Python literals (strings without escapes, plain numbers, dotted
// names, calls with keyword arguments, dict/list/set/tuple displays) and keeps only the two
// entries, as views into the source.
//
// It answers Yes only where the Python parser (analyzer/parse/python.h) would read the same
// decorator without an issue and find the same kind, signature and mutated_arg_names, and where
// leaving the decorator out (its line ends kept) leaves every other statement of the module as
// the parser reads it in the whole source. Anything else (an escape, a comment, a backslash, a
// string or an open bracket before the decorator, an '@' other than `@triton.jit`, an indented
// line after it, an operator, a duplicated meta keyword, depth past half the parser's limit, ...)
// answers Unsure, and the caller parses the whole source.
// tests/unit/triton_decorator_test.cpp and the fuzz_triton target check that the kernel reader
// builds the same Kernel either way.
#pragma once
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/parse/line_scan.h"

namespace ilint::scan {

struct TritonDecorator {
  std::string_view kind;   // "pointwise" of `@triton_heuristics.pointwise(`
  size_t begin = 0;        // the '@'
  size_t end = 0;          // the line end after the closing ')' (not included), or the source's end
  size_t line_ends = 0;    // '\n's in [begin, end)
  // triton_meta['signature'] as written: parameter name -> type text ("*fp32", "i32", "constexpr").
  std::vector<std::pair<std::string_view, std::string_view>> signature;
  bool has_mutated_args = false;          // inductor_meta has a 'mutated_arg_names' entry
  std::vector<std::string_view> mutated_args;
};

// Yes: `out` holds the decorator, the only decorator in `source` other than `@triton.jit` lines.
// Unsure: the caller must parse the whole source (see above); `out` is then unspecified.
Match triton_decorator(std::string_view source, TritonDecorator& out);

}  // namespace ilint::scan
