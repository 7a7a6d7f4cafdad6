// Small character helpers shared by the text scanners.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <climits>
#include <cstdint>
#include <string_view>

namespace ilint {

// A character of a C/C++/Python identifier (ASCII letters, digits, '_').
inline bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The length of the well-formed UTF-8 sequence at s[i] (1 for ASCII), or 0 when it is not one: a
// bad lead byte, a missing or wrong continuation byte, an overlong form, a surrogate, or a value
// past U+10FFFF (Unicode's table 3-7, which nlohmann's JSON lexer also holds strings to). The
// sequence's code point goes to `code_point` when one is asked for.
inline size_t utf8_sequence_length(std::string_view s, size_t i, uint32_t* code_point = nullptr) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  uint32_t cp;
  if (c < 0x80) {
    if (code_point) *code_point = c;
    return 1;
  }
  if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07;
  else return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (cc & 0x3F);
  }
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  if (code_point) *code_point = cp;
  return len;
}

// The line (1-based) of byte `pos` of `text`; a position past the end counts the whole text.
inline int line_of_offset(std::string_view text, size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(pos, text.size())), '\n'));
}

// The decimal number at the start of `s` (after spaces and tabs, an optional sign), as `atoi` reads
// it, but 0 when there is none or when it does not fit an int: `atoi` is undefined past int's range
// and glibc's wraps, so `file.py:5000000000` read as a line would be 705032704.
inline int leading_int(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  bool negative = i < s.size() && s[i] == '-';
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  int64_t value = 0;
  size_t digits = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
    value = value * 10 + (s[i] - '0');
    if (value > static_cast<int64_t>(INT_MAX) + 1) return 0;
  }
  if (digits == 0) return 0;
  if (negative) value = -value;
  if (value > INT_MAX || value < INT_MIN) return 0;
  return static_cast<int>(value);
}

}  // namespace ilint
