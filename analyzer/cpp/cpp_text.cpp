#include "analyzer/cpp/cpp_text.h"

#include "analyzer/util/word_set.h"

namespace ilint {

std::string blank_cpp_includes(const std::string& code) {
  // A wrapper with lone CRs kept its #include lines when only "\n" counted (found through
  // fuzz_cpp_wrapper). Only the '#'s are visited (find): this runs on every kernel and wrapper.
  std::string out;
  out.reserve(code.size());
  size_t copied = 0;
  for (size_t hash = code.find('#'); hash != std::string::npos; hash = code.find('#', hash + 1)) {
    size_t bol = hash;
    while (bol > 0 && (code[bol - 1] == ' ' || code[bol - 1] == '\t')) --bol;
    if (bol > 0 && code[bol - 1] != '\n' && code[bol - 1] != '\r') continue;
    if (code.compare(hash, 8, "#include") != 0) continue;
    size_t eol = hash;
    while (eol < code.size() && code[eol] != '\n' && code[eol] != '\r') ++eol;
    out.append(code, copied, bol - copied);
    copied = eol;
    hash = eol;
  }
  out.append(code, copied, std::string::npos);
  return out;
}

std::string collapse_blanks(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = false;
  for (char ch : text) {
    if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out.push_back(' ');
    space = false;
    out.push_back(ch);
  }
  return out;
}

bool is_cpp_keyword(std::string_view w) {
  static const WordSet kw = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq"};
  return kw.contains(w);
}

}  // namespace ilint
