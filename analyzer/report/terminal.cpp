#include "analyzer/report/terminal.h"

#include <cstdio>

#include "analyzer/util/text.h"

namespace ilint {

namespace {
bool is_bidi_control(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}
uint32_t code_point(std::string_view s, size_t i, size_t len) {
  uint32_t cp = static_cast<unsigned char>(s[i]) & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < len; ++k) cp = cp << 6 | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}
}  // namespace

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  char buf[12];
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {  // the common case: printable ASCII
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (c == '\t') {
      out += '\t';
      ++i;
      continue;
    }
    size_t len = c < 0x80 ? 1 : utf8_sequence_length(s, i);
    if (len == 0 || len == 1) {  // C0 control, DEL, or a byte of invalid UTF-8
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      ++i;
      continue;
    }
    uint32_t cp = code_point(s, i, len);
    if ((cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) {
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

}  // namespace ilint
