// The scan every C++ source goes through before Clang (analyzer/cpp/cpp_limits.h) on arbitrary
// bytes: no crash, no hang, and what it measures holds together. The scan reads left to right
// and keeps the deepest estimate it has seen, so a prefix of an input that ends at a line's end
// (where no token is cut in two) never measures deeper, nor expands more macro tokens, than the
// whole input, and a macro refused in the prefix stays refused.
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/cpp/cpp_limits.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view src(reinterpret_cast<const char*>(data), size);
  ilint::CppTextMeasure all = ilint::measure_cpp_text(src);
  int lines = 1;
  for (char c : src) lines += c == '\n';
  if (all.max_nesting < 0 || all.max_nesting_line < 0 || all.max_nesting_line > lines)
    ilint::fuzz::fail("nesting line outside the source");
  if (all.max_nesting > 0 && all.max_nesting_line == 0) ilint::fuzz::fail("nesting without a line");
  if (all.macro_line < 0 || all.macro_line > lines) ilint::fuzz::fail("macro line outside the source");
  size_t cut = size == 0 ? 0 : src.find('\n', data[0] % size);
  cut = cut == std::string_view::npos ? size : cut + 1;
  ilint::CppTextMeasure prefix = ilint::measure_cpp_text(src.substr(0, cut));
  if (prefix.max_nesting > all.max_nesting) ilint::fuzz::fail("a prefix measures deeper than the whole");
  if (prefix.macro_tokens > all.macro_tokens) ilint::fuzz::fail("a prefix expands more macro tokens than the whole");
  if (prefix.max_open_angles > all.max_open_angles) ilint::fuzz::fail("a prefix has more `name<` open than the whole");
  if (!prefix.refused_macro.empty() && all.refused_macro.empty()) ilint::fuzz::fail("a refused macro was forgotten");
  bool over = all.max_nesting > ilint::kMaxCppNestingEstimate || all.macro_tokens > ilint::kMaxCppMacroTokens ||
              !all.refused_macro.empty() || all.max_open_angles > ilint::kMaxOpenAngles;
  if (over != ilint::check_cpp_limits(src).has_value()) ilint::fuzz::fail("check_cpp_limits disagrees with the measure");
  return 0;
}
