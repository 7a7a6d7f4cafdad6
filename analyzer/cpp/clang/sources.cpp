// Finds the C++ sources embedded in output_code.py. No Clang here: this is text scanning only.
#include <string_view>

#include "analyzer/cpp/clang/clang_reader.h"
#include "analyzer/util/text.h"

namespace ilint {

namespace {

int line_of(std::string_view text, size_t pos, size_t& cursor, int& line) {
  for (; cursor < pos && cursor < text.size(); ++cursor)
    if (text[cursor] == '\n') ++line;
  return line;
}

// Reads a Python string literal's quote at `pos` (r''' r""" ''' """); on success sets the quote
// text and returns the position right after it.
size_t open_triple_quote(std::string_view t, size_t pos, std::string& quote) {
  while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\n' || t[pos] == '\t')) ++pos;
  if (pos < t.size() && (t[pos] == 'r' || t[pos] == 'R')) ++pos;
  if (t.compare(pos, 3, "'''") == 0) quote = "'''";
  else if (t.compare(pos, 3, "\"\"\"") == 0) quote = "\"\"\"";
  else return std::string::npos;
  return pos + 3;
}

}  // namespace

std::vector<EmbeddedCppSource> find_embedded_cpp_sources(std::string_view text) {
  std::vector<EmbeddedCppSource> out;
  size_t cursor = 0;
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t kpos = text.find("= async_compile.cpp_pybinding(", pos);
    size_t wpos = text.find("cpp_wrapper_src = (", pos);
    size_t at = std::min(kpos, wpos);
    if (at == std::string::npos) break;
    size_t ls = text.rfind('\n', at);
    ls = ls == std::string::npos ? 0 : ls + 1;
    EmbeddedCppSource s;
    size_t body;
    if (at == kpos) {
      std::string name(text.substr(ls, at - ls));
      while (!name.empty() && name.back() == ' ') name.pop_back();
      bool ok = !name.empty();
      for (char c : name) ok = ok && is_ident_char(c);
      size_t after = at + std::string_view("= async_compile.cpp_pybinding(").size();
      if (!ok) {
        pos = after;
        continue;
      }
      s.name = name;
      // ['const float*', 'float*'],
      size_t lb = after;
      while (lb < text.size() && text[lb] == ' ') ++lb;
      if (lb < text.size() && text[lb] == '[') {
        size_t rb = text.find(']', lb);
        if (rb == std::string::npos) break;
        std::string list(text.substr(lb + 1, rb - lb - 1));
        for (size_t q = 0; (q = list.find_first_of("'\"", q)) != std::string::npos;) {
          char qc = list[q];
          size_t e = list.find(qc, q + 1);
          if (e == std::string::npos) break;
          s.arg_types.push_back(list.substr(q + 1, e - q - 1));
          q = e + 1;
        }
        after = rb + 1;
        while (after < text.size() && (text[after] == ',' || text[after] == ' ')) ++after;
      }
      body = after;
    } else {
      s.name = "cpp_wrapper_src";
      body = wpos + std::string_view("cpp_wrapper_src = (").size();
    }
    std::string quote;
    size_t start = open_triple_quote(text, body, quote);
    if (start == std::string::npos) {
      pos = body;
      continue;
    }
    size_t end = text.find(quote, start);
    if (end == std::string::npos) break;
    s.def_line = line_of(text, ls, cursor, line);
    s.first_line = line_of(text, start, cursor, line);
    s.source = std::string(text.substr(start, end - start));
    out.push_back(std::move(s));
    pos = end + 3;
  }
  return out;
}

}  // namespace ilint
