#include "analyzer/report/terminal.h"

#include <cstdio>

#include "analyzer/util/text.h"

namespace ilint {

namespace {
bool is_bidi_control(uint32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
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
    uint32_t cp = 0;
    size_t len = utf8_sequence_length(s, i, &cp);
    if (len <= 1) {  // C0 control, DEL, or a byte of invalid UTF-8
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      ++i;
      continue;
    }
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
