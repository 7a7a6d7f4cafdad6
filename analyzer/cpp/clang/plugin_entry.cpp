// The entry point of libilint-clang.so (see clang_plugin.h). Built into the module only.
#include "analyzer/cpp/clang/clang_plugin.h"

#include "analyzer/cpp/clang/clang_reader.h"

extern "C" __attribute__((visibility("default"))) int ilint_clang_plugin_readers(const ilint::ClangPluginAbi* abi,
                                                                                ilint::ClangPluginReaders* out) {
  if (!abi || !out || !(*abi == ilint::ClangPluginAbi{})) return 0;
  out->read_kernels = &ilint::read_cpp_kernels_clang;
  out->read_wrapper = &ilint::read_cpp_wrapper_clang;
  out->prepare_wrappers = &ilint::prepare_cpp_wrappers_clang;
  return 1;
}
