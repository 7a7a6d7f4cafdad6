// The slot for the C++ kernel reader. It lives in the core so the parse stage can call it,
// while the Clang LibTooling reader (analyzer/clang/) stays a library of its own.
#include "analyzer/pipeline.h"

namespace ilint {

namespace {
CppKernelReader& reader_slot() {
  static CppKernelReader r;
  return r;
}
}  // namespace

void set_cpp_kernel_reader(CppKernelReader reader) { reader_slot() = std::move(reader); }
const CppKernelReader& cpp_kernel_reader() { return reader_slot(); }

}  // namespace ilint
