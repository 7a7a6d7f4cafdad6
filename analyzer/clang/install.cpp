// How the Clang path plugs into the pipeline. No Clang headers here.
#include "analyzer/clang/clang_reader.h"
#include "analyzer/pipeline.h"

namespace ilint {

void install_clang_kernel_reader() { set_cpp_kernel_reader(read_cpp_kernels_clang); }

void install_optional_readers() {
  install_clang_kernel_reader();
  set_cpp_wrapper_reader([](Compile& c, const std::string& source, int first_line, const FilePath& file,
                            DiagSink& diags, std::vector<size_t>* kernels_to_read) {
    read_cpp_wrapper_clang(c, source, first_line, file, diags, kernels_to_read);
  });
}

}  // namespace ilint
