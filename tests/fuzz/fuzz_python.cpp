// The Python tokenizer and parser (py::tokenize, py::parse_module) on arbitrary bytes, and the
// reading by pieces (py::parse_module_by_pieces), which must give the whole reading's statements.
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
  // By pieces of 1 to 64 tokens: the same statements, in order, at the same places.
  std::vector<ilint::py::ParseIssue> piece_issues;
  size_t n = 0;
  ilint::py::parse_module_by_pieces(
      src, size % 7, piece_issues,
      [&](const ilint::py::Module& piece) {
        for (const auto& s : piece.stmts) {
          if (n >= m.stmts.size()) ilint::fuzz::fail("more statements by pieces than whole");
          const auto& w = m.stmts[n++];
          if (s.kind != w.kind || s.line != w.line || s.col != w.col || s.begin != w.begin || s.end != w.end ||
              s.enclosing_def != w.enclosing_def || s.def_depth != w.def_depth ||
              s.trailing_comment != w.trailing_comment || s.comments_above.size() != w.comments_above.size())
            ilint::fuzz::fail("a statement read by pieces differs from the whole reading");
        }
      },
      1 + size % 64);
  if (n != m.stmts.size()) ilint::fuzz::fail("fewer statements by pieces than whole");
  (void)ilint::py::normalize_space(src);
  return 0;
}
