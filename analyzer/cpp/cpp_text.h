// Text-level steps on C++ sources that every C++ reader (Clang's and the hand readers) takes
// the same way, so they see the same code.
#pragma once
#include <string>
#include <string_view>

namespace ilint {

// Replaces each `#include ...` line by an empty line (the prelude stands in for the headers).
// Lines end where Clang ends them: "\n", "\r\n" or a lone "\r"; the line ends are kept, so line
// numbers do not move. A line counts when `#include` starts it after spaces and tabs, wherever
// it is (also inside a comment or a string: this is text, not a parse).
std::string blank_cpp_includes(const std::string& code);

// `text` with each run of blanks (space, tab, newline, carriage return) made one space and none
// at either end: how the C++ readers quote code ("const at::BFloat16*", "- 2L").
std::string collapse_blanks(std::string_view text);

// A C++20 keyword or alternative token (`and`, `not` ...): a name neither C++ reader may take.
bool is_cpp_keyword(std::string_view word);

}  // namespace ilint
