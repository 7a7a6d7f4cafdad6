// The hand reader of C++ wrappers (read_cpp_wrapper_hand) on wrapper sources (cpp_wrapper_src).
// On any bytes it must not crash, must answer the same twice, must leave the compile and the
// diagnostics untouched when it declines, and must keep locations inside the wrapper's text.
// When it accepts, the Clang reader, its oracle, must read the input without an error into the
// same model (every field: tests/unit/wrapper_model_text.h), kernels deferred as the pipeline
// defers them.
#include <cstdint>
#include <string>

#include "../unit/wrapper_model_text.h"
#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/cpp/cpp_wrapper_hand.h"
#include "fuzz_prelude.h"
#include "fuzz_util.h"

namespace {

struct Reading {
  bool returned = false;
  std::string text;
  ilint::Compile compile;
};

template <class Reader>
Reading read(Reader reader, const std::string& source, int first_line) {
  Reading r;
  r.compile.id = "model__0_inference_0.0";
  ilint::DiagSink diags;
  std::vector<size_t> kernels_to_read;
  r.returned = reader(r.compile, source, first_line, "fuzz/output_code.py", diags, &kernels_to_read);
  r.text = ilint::testing::wrapper_model_text(r.compile, diags, &kernels_to_read);
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const int first_line = 25;
  Reading hand = read(ilint::read_cpp_wrapper_hand, text, first_line);
  if (read(ilint::read_cpp_wrapper_hand, text, first_line).text != hand.text) ilint::fuzz::fail("two readings differ");
  if (!hand.returned) {
    static const std::string untouched = read([](auto&&...) { return false; }, "", first_line).text;
    if (hand.text != untouched) ilint::fuzz::fail("declined, but the compile or the diagnostics were touched");
    return 0;
  }
  const int lines = ilint::fuzz::clang_line_count(text);
  auto inside = [&](const ilint::SourceLoc& l) {
    if (l.line < first_line || l.line >= first_line + lines) ilint::fuzz::fail("location outside the wrapper's text");
  };
  for (const auto& l : hand.compile.launches) inside(l.loc);
  for (const auto& b : hand.compile.buffers) inside(b.alloc_loc);
  for (const auto& k : hand.compile.kernels) inside(k.def_loc);
  ilint::clear_clang_parse_cache();
  ilint::fuzz::use_prelude_built_in_memory();
  Reading clang = read(ilint::read_cpp_wrapper_clang, text, first_line);
  if (!clang.returned) ilint::fuzz::fail("the hand reader accepted a wrapper the Clang reader rejects");
  if (clang.text != hand.text) ilint::fuzz::fail("the hand reader read it otherwise than Clang");
  return 0;
}
