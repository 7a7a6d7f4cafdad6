#pragma once
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Fills c.kernels, c.inputs, c.buffers, c.launches, c.mutations, c.outputs, c.aot_ids from the
// text of an output_code.py. Kernel sources are read with the Triton reader or the installed
// C++ kernel reader (see set_cpp_kernel_reader).
void parse_output_code(const std::string& path, const std::string& text, Compile& c, DiagSink& diags);

}  // namespace ilint
