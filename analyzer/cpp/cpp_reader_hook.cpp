// The slots for the optional C++ readers (kernel reader, wrapper reader, wrapper batcher). They
// live in the core so the parse stage can call them, while the Clang LibTooling readers
// (analyzer/cpp/clang/) stay a library of their own.
#include "analyzer/cpp/cpp_reader_hook.h"

namespace ilint {

namespace {
// One slot per hook type: each hook is a distinct std::function type.
template <class Hook>
Hook& slot() {
  static Hook hook;
  return hook;
}
}  // namespace

void set_cpp_kernel_reader(CppKernelReader reader) { slot<CppKernelReader>() = std::move(reader); }
const CppKernelReader& cpp_kernel_reader() { return slot<CppKernelReader>(); }

void set_cpp_wrapper_reader(CppWrapperReader reader) { slot<CppWrapperReader>() = std::move(reader); }
const CppWrapperReader& cpp_wrapper_reader() { return slot<CppWrapperReader>(); }

void set_cpp_wrapper_batcher(CppWrapperBatcher batcher) { slot<CppWrapperBatcher>() = std::move(batcher); }
const CppWrapperBatcher& cpp_wrapper_batcher() { return slot<CppWrapperBatcher>(); }

}  // namespace ilint
