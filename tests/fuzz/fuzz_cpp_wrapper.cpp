// The Clang C++ wrapper reader (read_cpp_wrapper_clang) on wrapper sources (cpp_wrapper_src):
// the entry's launches, buffers, inputs and outputs, with the kernels it defines read by the
// kernel reader. Locations must stay inside the wrapper's text.
#include <cstdint>
#include <string>

#include "analyzer/clang/clang_reader.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  // Lines as Clang and the analyzer's Python tokenizer count them: "\n", "\r\n" and a lone "\r"
  // each end one (fuzz input 082e7aef had lone CRs: this harness counted only "\n").
  int lines = 1;
  for (size_t i = 0; i < text.size(); ++i)
    lines += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
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
