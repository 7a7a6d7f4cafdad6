// Shared by the fuzz targets: invariants every parser result must keep, checked on each input.
// A violated invariant aborts (libFuzzer records the input as a crash).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "analyzer/model/model.h"
#include "analyzer/parse/python.h"

namespace ilint::fuzz {

[[noreturn]] inline void fail(const char* what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what);
  std::abort();
}

// Lines of `text` as Clang and the analyzer's Python tokenizer count them: "\n", "\r\n" and a
// lone "\r" each end one (fuzz inputs 082e7aef and fbd2492e had lone CRs; the harnesses had
// counted only "\n" and reported valid locations as outside the text).
inline int clang_line_count(const std::string& text) {
  int lines = 1;
  for (size_t i = 0; i < text.size(); ++i)
    lines += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  return lines;
}

// An FX graph's name index: every node's name finds the last node added under that name.
inline void check_fx_index(const FxGraph& g) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const FxNode* found = g.find(g.nodes[i].name.str());
    if (!found || found->name != g.nodes[i].name || found < &g.nodes[i]) fail("FX node index wrong");
  }
}

// Source ranges lie inside the source and are ordered: Module::text_of and the readers that
// slice the source by these offsets rely on it.
inline void check_expr(const py::Module& m, const py::Expr* e, int depth = 0) {
  if (!e) return;
  if (depth > 10000) fail("expression tree deeper than 10000");
  if (e->begin > e->end || e->end > m.source.size()) fail("expression range outside the source");
  (void)m.text_of(*e);
  (void)e->dotted();
  check_expr(m, e->func, depth + 1);
  for (auto& i : e->items) check_expr(m, i, depth + 1);
  for (auto& [k, v] : e->kwargs) check_expr(m, v, depth + 1);
}

inline void check_module(const py::Module& m) {
  for (const auto& s : m.stmts) {
    if (s.begin > s.end || s.end > m.source.size()) fail("statement range outside the source");
    for (auto& t : s.targets) check_expr(m, t);
    check_expr(m, s.value);
    check_expr(m, s.annotation);
    for (auto& [n, a] : s.params) check_expr(m, a);
  }
}

}  // namespace ilint::fuzz
