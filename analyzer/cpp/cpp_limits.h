// Limits on the C++ text inductor-lint hands to Clang.
//
// Clang parses, checks and walks nested code by recursion, so a C++ kernel or wrapper nested deep
// enough overflows the stack and kills the process: 3,500 unary operators in a row (`~~~...~x`,
// 3.5 KB of text) did on an 8 MB stack (clang::Parser::ParseCastExpression, ~2.4 KB a level), and
// a 50,000-term `a + a + ...` did in Sema's unsequenced-operation check. Clang has no limit for
// these (its -fbracket-depth bounds brackets only). Macros are the other way out: a dozen
// `#define A1 A0 A0` lines expand to 2^n tokens, and Clang expanded one for a minute, at 7.5 GB,
// before it was stopped. Inductor emits neither (its deepest statement nests a few dozen
// levels, and its only macro is CUDA_DRIVER_CHECK), so text past these limits is not what
// torch.compile wrote: it is not given to Clang, and the reader says why.
//
// This is a scan of the text, not a parse: it over-estimates, never under-estimates, how deep
// Clang will recurse (every operator character, bracket and statement keyword counts one level
// until the statement ends, and an `else` keeps the statement open), and it bounds how many
// tokens the source's own macros can expand to.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ilint {

// How deep the estimate may go. Clang needs ~2.4 KB of stack a level at its deepest (unary
// operators), so this is ~2.4 MB: the analyzer's worker threads get kWorkerStackBytes (parallel.h)
// and its main thread the process stack (8 MB by default).
inline constexpr int kMaxCppNestingEstimate = 1000;
// `name<` open at once in one statement (a `>` closes one): Clang's parser may try each both as a
// template argument list and as less-than, 2^n ways.
inline constexpr int kMaxOpenAngles = 16;
// Tokens the source's macros may add when expanded (each use counted with what it expands to).
inline constexpr uint64_t kMaxCppMacroTokens = uint64_t{1} << 22;

struct CppTextMeasure {
  int max_nesting = 0;          // the nesting estimate at its deepest
  int max_nesting_line = 0;     // 1-based line of `code` where it was first reached
  uint64_t macro_tokens = 0;    // tokens the macro uses expand to (saturates)
  int macro_line = 0;           // line of the use or definition that took it past the limit, or of
                                // a definition refused below
  std::string refused_macro;    // a macro that uses a parameter twice, or pastes tokens (`##`):
                                // its expansion cannot be bounded by this scan
  int max_open_angles = 0;      // the most `name<` open at once in one statement
  int max_open_angles_line = 0; // line where that passed kMaxOpenAngles, 0 if it did not
};

// Measures `code` (a C++ translation unit's text, without the prelude).
CppTextMeasure measure_cpp_text(std::string_view code);

// Why `code` must not be given to Clang, or nothing when it may be: the line (of `code`) where the
// limit was passed, and a message naming the limit, to follow "C++ kernel K not read by Clang: " in
// the reader's diagnostic, which is placed at that line.
struct CppLimitBreach {
  int line = 0;
  std::string message;
};
std::optional<CppLimitBreach> check_cpp_limits(std::string_view code);

}  // namespace ilint
