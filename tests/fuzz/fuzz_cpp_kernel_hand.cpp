// The hand reader of C++ kernels (analyzer/cpp/cpp_kernel_hand.*) on arbitrary bytes, with the
// Clang reader as its oracle: whatever the hand reader accepts must read exactly as Clang reads
// it (errors included: accepting a source Clang rejects is a failure), and what it declines it
// must leave untouched. Seeds: every cpp_pybinding kernel of fixtures/ (make_seeds.py).
#include <cstdint>
#include <string>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_kernel_hand.h"
#include "fuzz_prelude.h"
#include "fuzz_util.h"
#include "tests/kernel_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ilint::Kernel k;
  k.name = "cpp_fused_fuzz_0";
  k.backend = ilint::KernelBackend::Cpp;
  k.source.assign(reinterpret_cast<const char*>(data), size);
  k.source_first_line = 10;
  k.def_loc = ilint::SourceLoc{"fuzz/output_code.py", 9, 1};
  ilint::Kernel by_hand = k;
  if (!ilint::read_cpp_kernel_hand(by_hand, "fuzz/output_code.py")) {
    if (ilint::testing::kernel_facts(by_hand) != ilint::testing::kernel_facts(k))
      ilint::fuzz::fail("the hand reader declined a kernel but changed it");
    return 0;
  }
  ilint::Kernel by_clang = k;
  ilint::clear_clang_parse_cache();  // every input is new text
  ilint::fuzz::use_prebuilt_prelude();
  ilint::DiagSink diags;
  ilint::read_cpp_kernel_clang(by_clang, "fuzz/output_code.py", diags);
  if (ilint::testing::kernel_facts(by_hand) != ilint::testing::kernel_facts(by_clang)) {
    std::fprintf(stderr, "hand:\n%s\nclang:\n%s\n", ilint::testing::kernel_facts(by_hand).c_str(),
                 ilint::testing::kernel_facts(by_clang).c_str());
    ilint::fuzz::fail("the hand reader accepted a kernel and read it differently from Clang");
  }
  return 0;
}
