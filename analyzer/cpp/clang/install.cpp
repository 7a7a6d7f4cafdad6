// How the Clang path plugs into the pipeline. No Clang headers here.
#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_reader_hook.h"

namespace ilint {

void install_clang_kernel_reader() { set_cpp_kernel_reader(read_cpp_kernels_clang); }

void install_optional_readers() {
  install_clang_kernel_reader();
  set_cpp_wrapper_reader(read_cpp_wrapper_clang);  // its bool result is not used by the pipeline
  set_cpp_wrapper_batcher(prepare_cpp_wrappers_clang);
}

}  // namespace ilint
