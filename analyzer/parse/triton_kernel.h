#pragma once
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// How the `@triton_heuristics.<kind>(...)` decorator is read. Scan (the default): by the hand
// reader of analyzer/parse/triton_decorator.h where it answers, the rest of the source through
// the Python parser without the decorator (its line ends kept); the whole source through the parser
// where it does not. Parse: always the whole source through the parser (the reference the
// tests and the fuzz target compare Scan with; both give the same Kernel).
enum class TritonDecoratorRead { Scan, Parse };

// Fills `k` from k.source (a Triton kernel module). Lines are reported in `file`, shifted by
// k.source_first_line so they point into output_code.py.
void read_triton_kernel(Kernel& k, const FilePath& file, DiagSink& diags,
                        TritonDecoratorRead how = TritonDecoratorRead::Scan);

}  // namespace ilint
