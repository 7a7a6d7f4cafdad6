// For the C++ readers' fuzz targets: batches parse against the preludes the build precompiled
// (ILINT_FUZZ_PCH_DIR), each input alone against preludes built in memory, so one comparison
// covers both the batch and the way the prelude is loaded.
#pragma once
#include <string>

#include "analyzer/cpp/clang/clang_common.h"
#include "analyzer/util/parallel.h"
#include "fuzz_util.h"

namespace ilint::fuzz {

inline void use_prebuilt_prelude() {
#ifdef ILINT_FUZZ_PCH_DIR
  clangx::set_prelude_pch_dir(std::string(ILINT_FUZZ_PCH_DIR));
  static const bool checked = [] {
    for (const auto* p : {&clangx::kernel_prelude(), &clangx::wrapper_prelude()})
      if (clangx::prelude_source(p->name, p->text) != clangx::PreludeSource::Prebuilt)
        fail("the prebuilt prelude is not used: build the ilint_prelude_pch target");
    return true;
  }();
  (void)checked;
#endif
}

inline void use_prelude_built_in_memory() { clangx::set_prelude_pch_dir(std::string()); }

}  // namespace ilint::fuzz

// libFuzzer runs the target on the main thread, whose stack follows `ulimit -s`: raise it as the
// CLI does, since Clang at the nesting limit of cpp_limits.h needs more than 8 MB under ASan. Only
// the C++ readers' targets include this header.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ilint::raise_stack_limit();
  return 0;
}
