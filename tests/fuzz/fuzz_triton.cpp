// The Triton kernel reader (read_triton_kernel) on a kernel source, as parse_output_code hands
// it over: Kernel::source set, the name taken from the first `def NAME(` so the body is read.
// Every input is read twice, with the decorator scanner (the default) and with the whole source
// through the Python parser: the two must give the same Kernel and the same diagnostics.
#include <cstdint>

#include "analyzer/parse/triton_kernel.h"
#include "fuzz_util.h"
#include "tests/kernel_facts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  std::string name = ilint::testing::first_def_name(source);
  int first_line = 1 + static_cast<int>(size % 5);
  ilint::Kernel k;
  k.source = source;
  k.name = name;
  k.source_first_line = first_line;
  ilint::DiagSink diags;
  ilint::read_triton_kernel(k, "fuzz/output_code.py", diags);
  for (const auto& r : k.reductions)
    if (r.loc.line < 0) ilint::fuzz::fail("negative line");
  (void)diags.sorted();
  if (ilint::testing::read_triton_facts(name, source, first_line, ilint::TritonDecoratorRead::Scan) !=
      ilint::testing::read_triton_facts(name, source, first_line, ilint::TritonDecoratorRead::Parse))
    ilint::fuzz::fail("the decorator scanner and the parser read the kernel differently");
  return 0;
}
