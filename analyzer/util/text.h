// Small character helpers shared by the text scanners.
#pragma once
#include <cctype>

namespace ilint {

// A character of a C/C++/Python identifier (ASCII letters, digits, '_').
inline bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace ilint
