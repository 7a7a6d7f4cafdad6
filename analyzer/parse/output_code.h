#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"
#include "analyzer/util/heap_budget.h"

namespace ilint {

constexpr size_t kDefaultMaxKernelBytes = size_t{1} << 20;

struct OutputCodeOptions {
  // With it, C++ kernels are not handed to the reader here: their indices in c.kernels are
  // appended, and the caller reads them later (the parse stage reads every compile's C++ kernels
  // together, so Clang can batch them). Their params come from the signature meanwhile.
  std::vector<size_t>* cpp_kernels_to_read = nullptr;
  int first_line = 1;  // the line of the file that holds the text's first line (a TORCH_TRACE payload)
  // A kernel whose source is longer is not read: it is in c.kernels with its name, definition
  // line and a parse error that says why (the coverage account lists it as not read), and a
  // `kernel-too-large` warning. Reading one kernel takes several times its size at once (its
  // text, the parser's pieces, its statements and the reader's maps), where a compile of many
  // kernels takes about its size: the limit bounds that peak. Inductor's kernels are a few
  // kilobytes. 0: no limit.
  size_t max_kernel_bytes = kDefaultMaxKernelBytes;
  // Without it, a Triton kernel's source is dropped once read (C++ kernels keep theirs for their
  // reader, which runs later). With it, and `text` the compile's own output_code_text, a kernel's
  // source is kept as its slice of that text (Kernel::text_begin) and its copy dropped once read.
  bool keep_kernel_sources = true;
  // With it, a kernel met once the compile's model is over its budget is not read, as one over
  // max_kernel_bytes is not, with a `memory-budget` warning.
  const HeapBudget* budget = nullptr;
};

// Gives up a kernel's own copy of its source once it is read: always without keep_kernel_sources,
// and with it where the source is a slice of the compile's kept text (Compile::source_of).
inline void drop_read_source(Kernel& k, bool keep_kernel_sources) {
  if (!keep_kernel_sources || k.text_size) std::string().swap(k.source);
}

// Fills c.kernels, c.inputs, c.buffers, c.launches, c.mutations, c.outputs, c.aot_ids from the
// text of an output_code.py. Kernel sources are read with the Triton reader or the installed
// C++ kernel reader (see set_cpp_kernel_reader).
void parse_output_code(const FilePath& path, const std::string& text, Compile& c, DiagSink& diags,
                       const OutputCodeOptions& options = {});

}  // namespace ilint
