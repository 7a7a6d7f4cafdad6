// The Clang C++ wrapper reader (read_cpp_wrapper_clang) on wrapper sources (cpp_wrapper_src):
// the entry's launches, buffers, inputs and outputs, with the kernels it defines read by the
// kernel reader. Locations must stay inside the wrapper's text.
#include <cstdint>
#include <string>

#include "analyzer/clang/clang_reader.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const int lines = ilint::fuzz::clang_line_count(text);
  const int first_line = 25;
  ilint::Compile c;
  c.id = "model__0_inference_0.0";
  ilint::clear_clang_parse_cache();
  ilint::DiagSink diags;
  ilint::read_cpp_wrapper_clang(c, text, first_line, "fuzz/output_code.py", diags);
  auto inside = [&](const ilint::SourceLoc& l) {
    if (l.line < 0 || (l.line > 0 && (l.line < first_line || l.line >= first_line + lines)))
      ilint::fuzz::fail("location outside the wrapper's text");
  };
  for (const auto& l : c.launches) inside(l.loc);
  for (const auto& b : c.buffers) inside(b.alloc_loc);
  for (const auto& k : c.kernels) inside(k.def_loc);
  (void)diags.sorted();
  return 0;
}
