#include "analyzer/parse/json_skim.h"

#include <array>
#include <cstring>

#include "analyzer/util/text.h"

namespace ilint::scan {

namespace {

// Bytes that end a run of plain string content: the closing quote, an escape, a control byte
// (invalid in a JSON string) and any non-ASCII byte (checked as UTF-8).
constexpr std::array<bool, 256> make_string_stops() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return t;
}
constexpr std::array<bool, 256> kStringStops = make_string_stops();

// The first byte at or after i that may be a stop (or n), eight bytes at a time: a word goes on
// when it has no '"', no '\\', no byte under 0x20 and none over 0x7F (the classic zero-byte test;
// it can flag a byte that is no stop, never miss one, and the byte loop after it decides).
size_t skip_plain(const char* p, size_t i, size_t n) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  while (i + 8 <= n) {
    uint64_t x;
    std::memcpy(&x, p + i, 8);
    uint64_t q = x ^ (kOnes * '"'), b = x ^ (kOnes * '\\');
    uint64_t stop = ((q - kOnes) & ~q) | ((b - kOnes) & ~b) | (x - kOnes * 0x20) | x;
    if (stop & kHighs) break;
    i += 8;
  }
  while (i < n && !kStringStops[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits at t[i], or -1.
int32_t hex4(std::string_view t, size_t i) {
  if (i + 4 > t.size()) return -1;
  int32_t v = 0;
  for (size_t k = 0; k < 4; ++k) {
    int d = hex_digit(t[i + k]);
    if (d < 0) return -1;
    v = v << 4 | d;
  }
  return v;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Skimmer {
 public:
  explicit Skimmer(std::string_view t) : t_(t) {}

  bool object_document(std::vector<JsonMember>& members, std::vector<JsonMember>* children) {
    space();
    if (i_ >= t_.size() || t_[i_] != '{') return false;
    if (!object(1, &members, -1, children)) return false;
    space();
    return i_ == t_.size();  // strict: nothing but whitespace after the value
  }

 private:
  static constexpr int kMaxDepth = 512;

  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool accept(char c) {
    if (i_ >= t_.size() || t_[i_] != c) return false;
    ++i_;
    return true;
  }

  // At the opening quote; past the closing one on success.
  bool string(bool& escaped) {
    const char* const base = t_.data();
    const size_t n = t_.size();
    size_t i = i_ + 1;
    for (;;) {
      i = skip_plain(base, i, n);
      if (i >= n) return false;
      unsigned char c = static_cast<unsigned char>(base[i]);
      if (c == '"') {
        i_ = i + 1;
        return true;
      }
      if (c == '\\') {
        escaped = true;
        if (i + 1 >= n) return false;
        char e = base[i + 1];
        if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
          i += 2;
          continue;
        }
        if (e != 'u') return false;
        int32_t cp = hex4(t_, i + 2);
        if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF)) return false;  // a low surrogate alone
        i += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate: a low one must follow
          if (i + 1 >= n || base[i] != '\\' || base[i + 1] != 'u') return false;
          int32_t lo = hex4(t_, i + 2);
          if (lo < 0xDC00 || lo > 0xDFFF) return false;
          i += 6;
        }
        continue;
      }
      if (c < 0x20) return false;
      size_t len = utf8_sequence_length(t_, i);
      if (len == 0) return false;
      i += len;
    }
  }

  bool digits() {
    size_t b = i_;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    return i_ > b;
  }
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?  What follows is the caller's to check.
  // nlohmann also rejects a number whose double is not finite (over ~1.8e308, "number
  // overflow"): one that might be (10^307 or more) is left to it.
  bool number() {
    accept('-');
    if (i_ >= t_.size()) return false;
    size_t int_b = i_;
    if (t_[i_] == '0') ++i_;
    else if (!digits()) return false;
    const size_t int_digits = i_ - int_b;
    if (accept('.') && !digits()) return false;
    int64_t exponent = 0;
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      bool negative = false;
      if (!accept('+')) negative = accept('-');
      size_t eb = i_;
      if (!digits()) return false;
      for (size_t k = eb; k < i_ && exponent < 100000; ++k) exponent = exponent * 10 + (t_[k] - '0');
      if (negative) exponent = -exponent;
    }
    return static_cast<int64_t>(int_digits) + exponent <= 307;
  }
  bool word(std::string_view w) {
    if (t_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }

  // The value at i_, at nesting `depth` (1 for the document's). `children`: record the members of
  // an object value there, with `parent` as their JsonMember::parent.
  bool value(int depth, JsonSpan& out, std::vector<JsonMember>* children = nullptr, int parent = -1) {
    if (i_ >= t_.size()) return false;
    size_t b = i_;
    char c = t_[i_];
    bool ok;
    if (c == '"') {
      bool escaped = false;
      out.type = JsonType::String;
      ok = string(escaped);
    } else if (c == '{') {
      out.type = JsonType::Object;
      ok = depth <= kMaxDepth && object(depth, children, parent, nullptr);
    } else if (c == '[') {
      out.type = JsonType::Array;
      ok = depth <= kMaxDepth && array(depth);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      out.type = JsonType::Number;
      ok = number();
    } else {
      out.type = JsonType::Literal;
      ok = word("true") || word("false") || word("null");
    }
    if (!ok) return false;
    out.text = t_.substr(b, i_ - b);
    return true;
  }
  // At '{'. With `out`, its members are recorded there (a key with an escape is then left to
  // nlohmann), and with `children` too, the members of each member's object value.
  bool object(int depth, std::vector<JsonMember>* out, int parent, std::vector<JsonMember>* children) {
    ++i_;
    space();
    if (accept('}')) return true;
    do {
      space();
      bool escaped = false;
      size_t kb = i_;
      if (i_ >= t_.size() || t_[i_] != '"' || !string(escaped) || (out && escaped)) return false;
      std::string_view key = t_.substr(kb + 1, i_ - kb - 2);
      space();
      if (!accept(':')) return false;
      space();
      JsonMember m;
      int index = out ? static_cast<int>(out->size()) : -1;
      if (!value(depth + 1, m.value, children, index)) return false;
      if (out) {
        m.key = key;
        m.parent = parent;
        out->push_back(m);
      }
      space();
    } while (accept(','));
    return accept('}');
  }
  bool array(int depth) {
    ++i_;
    space();
    if (accept(']')) return true;
    JsonSpan ignored;
    do {
      space();
      if (!value(depth + 1, ignored)) return false;
      space();
    } while (accept(','));
    return accept(']');
  }

  std::string_view t_;
  size_t i_ = 0;
};

}  // namespace

Match json_object_members(std::string_view text, std::vector<JsonMember>& members,
                          std::vector<JsonMember>* children) {
  members.clear();
  if (children) children->clear();
  if (Skimmer(text).object_document(members, children)) return Match::Yes;
  members.clear();
  if (children) children->clear();
  return Match::Unsure;
}

std::string json_string_value(std::string_view quoted) {
  std::string out;
  if (quoted.size() < 2) return out;
  std::string_view t = quoted.substr(1, quoted.size() - 2);
  out.reserve(t.size());
  size_t i = 0;
  while (i < t.size()) {
    size_t e = t.find('\\', i);
    if (e == std::string_view::npos) e = t.size();
    out.append(t, i, e - i);
    if (e + 1 >= t.size()) break;
    char c = t[e + 1];
    i = e + 2;
    switch (c) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp = static_cast<uint32_t>(hex4(t, i));
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= t.size()) {
          uint32_t lo = static_cast<uint32_t>(hex4(t, i + 2));
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          i += 6;
        }
        append_utf8(out, cp);
        break;
      }
      default: out += c;  // " \ /
    }
  }
  return out;
}

bool json_small_integer(std::string_view number, int64_t& value) {
  bool negative = !number.empty() && number[0] == '-';
  std::string_view d = number.substr(negative ? 1 : 0);
  if (d.empty() || d.size() > 18) return false;
  int64_t v = 0;
  for (char c : d) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  value = negative ? -v : v;
  return true;
}

}  // namespace ilint::scan
