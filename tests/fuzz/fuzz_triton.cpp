// The Triton kernel reader (read_triton_kernel) on a kernel source, as parse_output_code hands
// it over: Kernel::source set, the name taken from the first `def NAME(` so the body is read.
#include <cctype>
#include <cstdint>

#include "analyzer/parse/triton_kernel.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ilint::Kernel k;
  k.source.assign(reinterpret_cast<const char*>(data), size);
  k.name = "triton_fuzz_kernel";
  size_t d = k.source.find("def ");
  if (d != std::string::npos) {
    size_t e = d + 4;
    while (e < k.source.size() && (std::isalnum(static_cast<unsigned char>(k.source[e])) || k.source[e] == '_')) ++e;
    if (e > d + 4) k.name = k.source.substr(d + 4, e - d - 4);
  }
  k.source_first_line = 1 + static_cast<int>(size % 5);
  ilint::DiagSink diags;
  ilint::read_triton_kernel(k, "fuzz/output_code.py", diags);
  for (const auto& r : k.reductions)
    if (r.loc.line < 0) ilint::fuzz::fail("negative line");
  (void)diags.sorted();
  return 0;
}
