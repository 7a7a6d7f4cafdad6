// Small character helpers shared by the text scanners.
#pragma once
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ilint {

// A character of a C/C++/Python identifier (ASCII letters, digits, '_').
inline bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The length of the well-formed UTF-8 sequence at s[i] (1 for ASCII), or 0 when it is not one: a
// bad lead byte, a missing or wrong continuation byte, an overlong form, a surrogate, or a value
// past U+10FFFF (Unicode's table 3-7, which nlohmann's JSON lexer also holds strings to).
inline size_t utf8_sequence_length(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
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
  return len;
}

}  // namespace ilint
