// The slots of the optional C++ readers (analyzer/cpp/clang/ installs them): the parse stage calls
// them, the Clang LibTooling readers stay a library of their own.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Reads the C++ source of C++ kernels into each `kernel` (params, loads, stores, casts,
// reductions), on up to `threads` threads; `file` is the file the kernel's lines belong to.
// Installed by the Clang LibTooling reader (analyzer/cpp/clang/); without it the core keeps what
// its line patterns read (the signature and literal loop ranges).
struct CppKernelJob {
  Kernel* kernel = nullptr;
  FilePath file;
};
using CppKernelReader = std::function<void(const std::vector<CppKernelJob>& jobs, DiagSink& diags, int threads)>;
void set_cpp_kernel_reader(CppKernelReader reader);
const CppKernelReader& cpp_kernel_reader();

// Reads the C++ wrapper of a cpp_wrapper=True compile (the text of `cpp_wrapper_src`, whose
// line 1 is line `first_line` of `file`) into the wrapper model of `c`, and the C++ kernels it
// defines into c.kernels. With `kernels_to_read`, those kernels get only their signature here
// and their indices in c.kernels are appended, for the caller to read with the kernel reader.
// Installed by the Clang reader (analyzer/cpp/clang/); unset without it.
using CppWrapperReader = std::function<void(Compile& c, const std::string& source, int first_line,
                                            const FilePath& file, DiagSink& diags,
                                            std::vector<size_t>* kernels_to_read)>;
void set_cpp_wrapper_reader(CppWrapperReader reader);
const CppWrapperReader& cpp_wrapper_reader();

// Optional, with the wrapper reader: prepares the C++ wrappers of several output_code.py texts
// (compiles the calling thread builds next) so that the wrapper reader, called for them on the
// same thread while the returned handle lives, reads them from fewer Clang runs. Results are the
// same with or without it. Unset without Clang.
using CppWrapperBatcher = std::function<std::shared_ptr<void>(const std::vector<std::string_view>& output_code_texts)>;
void set_cpp_wrapper_batcher(CppWrapperBatcher batcher);
const CppWrapperBatcher& cpp_wrapper_batcher();

}  // namespace ilint
