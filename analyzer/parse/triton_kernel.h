#pragma once
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Fills `k` from k.source (a Triton kernel module). Lines are reported in `file`, shifted by
// k.source_first_line so they point into output_code.py.
void read_triton_kernel(Kernel& k, const FilePath& file, DiagSink& diags);

}  // namespace ilint
