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

namespace {
CppWrapperReader& wrapper_reader_slot() {
  static CppWrapperReader r;
  return r;
}
}  // namespace

void set_cpp_wrapper_reader(CppWrapperReader reader) { wrapper_reader_slot() = std::move(reader); }
const CppWrapperReader& cpp_wrapper_reader() { return wrapper_reader_slot(); }

namespace {
CppWrapperBatcher& wrapper_batcher_slot() {
  static CppWrapperBatcher b;
  return b;
}
}  // namespace

void set_cpp_wrapper_batcher(CppWrapperBatcher batcher) { wrapper_batcher_slot() = std::move(batcher); }
const CppWrapperBatcher& cpp_wrapper_batcher() { return wrapper_batcher_slot(); }

}  // namespace ilint
