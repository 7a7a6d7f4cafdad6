// The Python tokenizer and parser (py::tokenize, py::parse_module) on arbitrary bytes.
#include <cstdint>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string src(reinterpret_cast<const char*>(data), size);
  std::vector<ilint::py::ParseIssue> issues;
  auto toks = ilint::py::tokenize(src, &issues);
  for (const auto& t : toks) {
    if (t.begin > t.end || t.end > src.size()) ilint::fuzz::fail("token range outside the source");
    double v;
    if (t.kind == ilint::py::Tok::Number) (void)ilint::py::number_value(t.text, v);
  }
  if (toks.empty() || toks.back().kind != ilint::py::Tok::End) ilint::fuzz::fail("token stream does not end in End");
  ilint::py::Module m = ilint::py::parse_module(src, size % 7);
  ilint::fuzz::check_module(m);
  (void)ilint::py::normalize_space(src);
  return 0;
}
