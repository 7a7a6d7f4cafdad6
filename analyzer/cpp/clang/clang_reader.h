// C++ kernels and C++ wrappers read through Clang LibTooling (libclang-cpp 14).
//
// This header includes no Clang header on purpose: Clang's headers are heavy, so they stay in
// kernel_reader.cpp and wrapper_reader.cpp; everything else sees only the model types.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/cpp/cpp_reader_hook.h"
#include "analyzer/util/diag.h"

namespace ilint {

// Parses k.source (the C++ text of one `cpp_fused_*` kernel) in memory with -fsyntax-only and
// fills k.params, loads, stores, casts, literals, reductions, stmts and kind from the AST.
// The kernel's own `#include <torch/csrc/inductor/cpp_prefix.h>` (or the older
// `/tmp/torchinductor_*/c*.h`) is replaced by inductor-lint's prelude (analyzer/cpp/prelude/).
// Locations are lines of `file` (output_code.py): k.source_first_line + line in source - 1.
// A kernel Clang cannot parse gets a "cpp-kernel-parse" diagnostic naming the kernel and
// quoting Clang's message; whatever the AST still holds is kept. Thread-safe. Identical sources
// (by hash) are parsed once per process and the result is reused.
// Matches the CppKernelReader hook of analyzer/pipeline.h.
void read_cpp_kernel_clang(Kernel& k, const FilePath& file, DiagSink& diags);

// Reads many kernels on `jobs` threads: one parse per distinct source, and distinct sources in
// batches of several kernels per Clang run (see kernel_reader.cpp). Same result as calling
// read_cpp_kernel_clang on each.
void read_cpp_kernels_clang(const std::vector<CppKernelJob>& jobs_in, DiagSink& diags, int jobs);

// Installs read_cpp_kernels_clang as the pipeline's C++ kernel reader (set_cpp_kernel_reader).
void install_clang_kernel_reader();

// What the Clang path installs into the pipeline: called once by the CLI and the test main under
// `#ifdef ILINT_HAVE_CLANG`: the C++ kernel reader and the C++ wrapper reader.
void install_optional_readers();

// Parse cache statistics (for the benchmark and tests of the cache).
struct ClangParseStats {
  uint64_t parses = 0;     // distinct kernel sources parsed
  uint64_t clang_runs = 0; // Clang invocations (a batch of kernels is one)
  uint64_t batch_fallbacks = 0;  // batches Clang reported errors in, parsed again one kernel at a time
  uint64_t cache_hits = 0; // kernels served from the cache
  double parse_seconds = 0;  // wall time spent inside Clang parses, summed over threads
};
ClangParseStats clang_parse_stats();
void clear_clang_parse_cache();  // drops cached parses (benchmarks measure cold parses with it)

// ------------------------------------------------------------------ sources in output_code.py

// One C++ source embedded in output_code.py: a `name = async_compile.cpp_pybinding([...], r'''...''')`
// kernel, or the `cpp_wrapper_src = (r"""...""")` of a cpp_wrapper=True compile.
struct EmbeddedCppSource {
  std::string name;                     // "cpp_fused_div_1"; "cpp_wrapper_src" for the wrapper
  std::vector<std::string> arg_types;   // cpp_pybinding's type list: "const at::BFloat16*", "float*"
  std::string source;                   // the C++ text between the quotes
  int first_line = 0;                   // line in the file of the first character of `source`
  int def_line = 0;                     // line of `name = ...`
};

// Finds the embedded C++ sources of an output_code.py text. This is a literal scanner for the
// two assignment forms above (no Python is evaluated); the lead's output_code.py parser owns
// kernels in the pipeline, this is used for the C++ wrapper, the tests and the benchmark.
std::vector<EmbeddedCppSource> find_embedded_cpp_sources(std::string_view text);

// ------------------------------------------------------------------ C++ wrapper (cpp_wrapper=True)

// Parses the C++ wrapper source (output_code.py's `cpp_wrapper_src = (r'''...''')`) and fills the
// wrapper model of `c`: launches (generated kernels and aoti_torch_* / fallback calls, in order),
// buffers (aoti_torch_empty_strided with sizes, strides and dtype), graph inputs (tensor inputs
// and scalars read with aoti_torch_item_*), outputs, and kernel declarations (as Kernel entries
// with backend Cpp when the wrapper declares `extern "C" void cpp_fused_*(...)` and the kernel
// is not already in `c`). `first_line` maps source line 1 to a line of `file`.
// Returns false (with a "cpp-wrapper-parse" diagnostic) when Clang reports errors; what the AST
// held is still filled.
// With `kernels_to_read`, the kernels the wrapper defines get their params from their
// declarations only and their indices in c.kernels are appended (the caller reads them with
// read_cpp_kernels_clang, batched with the other compiles' kernels); without it they are read here.
bool read_cpp_wrapper_clang(Compile& c, const std::string& source, int first_line, const FilePath& file,
                            DiagSink& diags, std::vector<size_t>* kernels_to_read = nullptr);

// Parses the C++ wrappers of these output_code.py texts (the compiles this thread is about to
// build) in batches, several wrappers per Clang run (see wrapper_reader.cpp), until the returned
// handle is destroyed, on this thread: meanwhile read_cpp_wrapper_clang, on this thread, reads a
// wrapper with the same source from its batch instead of parsing it. The result is the same as
// parsing each alone: a wrapper that cannot share a translation unit, or whose batch Clang
// reports an error in, is parsed alone when it is read. Matches the CppWrapperBatcher hook of
// analyzer/pipeline.h.
std::shared_ptr<void> prepare_cpp_wrappers_clang(const std::vector<std::string_view>& output_code_texts);

// Wrapper batch counters (for the tests of the batches).
struct WrapperBatchStats {
  uint64_t batches = 0;    // Clang runs of two or more wrappers
  uint64_t batched = 0;    // wrappers in the batches Clang accepted
  uint64_t fallbacks = 0;  // batches not used (an error): their wrappers were parsed alone
};
WrapperBatchStats wrapper_batch_stats();

}  // namespace ilint
