// The Clang reader as a loadable module (libilint-clang.so), and how the CLI finds it.
//
// Why a module: libclang-cpp and libLLVM are ~130 MB of shared libraries with ~600k relocations;
// mapping and relocating them at every start would cost a Triton-only capture more than the
// rest of its run. The CLI loads the module the first time a compile holds C++ code
// (a cpp_fused_* kernel or a cpp_wrapper=True wrapper), so a CUDA user's runs never pay it.
// Where Clang's static archives are installed the module holds Clang and LLVM itself, trimmed
// to what the reader calls and with their symbols kept inside (CMakeLists.txt): loading it then
// looks up none of their symbols and applies a fraction of the shared libraries' relocations
// (docs/performance.md, 'The Clang reader'). Linking them into the CLI itself would make C++ captures
// a little faster, every Triton-only run slower (static constructors, a 110 MB executable's faults).
// The module holds only analyzer/cpp/clang/: it resolves the core's symbols (interning tables,
// model types, diagnostics) against the executable, which exports them, so there is one copy
// of the core's state in the process.
//
// No Clang header here: the CLI includes this.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/model/model.h"
#include "analyzer/cpp/cpp_reader_hook.h"
#include "analyzer/util/diag.h"

namespace ilint {

// What the module hands out (the signatures of CppKernelReader, CppWrapperReader and CppWrapperBatcher).
struct ClangPluginReaders {
  void (*read_kernels)(const std::vector<CppKernelJob>& jobs, DiagSink& diags, int threads) = nullptr;
  bool (*read_wrapper)(Compile& c, const std::string& source, int first_line, const FilePath& file,
                       DiagSink& diags, std::vector<size_t>* kernels_to_read) = nullptr;
  std::shared_ptr<void> (*prepare_wrappers)(const std::vector<std::string_view>& output_code_texts) = nullptr;
};

// Layout check between the executable and the module: a module from another build whose model
// types differ in size is refused instead of corrupting memory. Bump the version when a
// signature above changes.
struct ClangPluginAbi {
  int version = 2;
  size_t kernel = sizeof(Kernel);
  size_t compile = sizeof(Compile);
  size_t diag_sink = sizeof(DiagSink);
  size_t job = sizeof(CppKernelJob);
  size_t readers = sizeof(ClangPluginReaders);
  bool operator==(const ClangPluginAbi&) const = default;
};

// The module's one exported function: fills `out` and returns 1 when `abi` (the executable's)
// equals the module's own, else returns 0 and leaves `out` alone.
inline constexpr const char* kClangPluginEntry = "ilint_clang_plugin_readers";
using ClangPluginEntry = int (*)(const ClangPluginAbi* abi, ClangPluginReaders* out);

// The module's file name, looked up next to the executable (or at $ILINT_CLANG_PLUGIN).
inline constexpr const char* kClangPluginFile = "libilint-clang.so";

// Installs C++ kernel and wrapper readers that load the module on first call (once per
// process, thread-safe) and forward to it. When it cannot be loaded, they report one
// "clang-reader-unavailable" warning with the reason and read nothing, as a build without Clang.
void install_lazy_clang_readers();

}  // namespace ilint
