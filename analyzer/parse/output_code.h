#pragma once
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Fills c.kernels, c.inputs, c.buffers, c.launches, c.mutations, c.outputs, c.aot_ids from the
// text of an output_code.py. Kernel sources are read with the Triton reader or the installed
// C++ kernel reader (see set_cpp_kernel_reader).
//
// With `cpp_kernels_to_read`, C++ kernels are not handed to the reader here: their indices in
// c.kernels are appended, and the caller reads them later (the parse stage reads every compile's
// C++ kernels together, so Clang can batch them). Their params come from the signature meanwhile.
// `first_line` is the line of `path` that holds the text's first line (a TORCH_TRACE payload).
void parse_output_code(const FilePath& path, const std::string& text, Compile& c, DiagSink& diags,
                       std::vector<size_t>* cpp_kernels_to_read = nullptr, int first_line = 1);

}  // namespace ilint
