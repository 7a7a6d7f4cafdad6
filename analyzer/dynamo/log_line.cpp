#include "analyzer/dynamo/log_line.h"

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>

#include "analyzer/util/text.h"

namespace ilint::dynamo {

std::string_view trim_view(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}
std::string trim(std::string_view s) { return std::string(trim_view(s)); }
bool starts_with(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

namespace {
bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}
}  // namespace

std::optional<GlogView> parse_glog_view(std::string_view line) {
  if (starts_with(line, "[rank")) {
    auto p = line.find("]:");
    if (p == std::string_view::npos || p > 16) return std::nullopt;
    line.remove_prefix(p + 2);
  }
  // L MMDD HH:MM:SS.ffffff
  if (line.size() < 24) return std::nullopt;
  GlogView g;
  g.level = line[0];
  if (!std::strchr("VIWEC", g.level) || g.level == 0) return std::nullopt;
  if (!all_digits(line.substr(1, 4)) || line[5] != ' ') return std::nullopt;
  std::string_view t = line.substr(6, 15);  // HH:MM:SS.ffffff
  if (t.size() != 15 || t[2] != ':' || t[5] != ':' || t[8] != '.') return std::nullopt;
  size_t i = 21;
  if (i >= line.size() || line[i] != ' ') return std::nullopt;
  while (i < line.size() && line[i] == ' ') ++i;
  size_t pid_b = i;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
  if (i == pid_b || i >= line.size() || line[i] != ' ') return std::nullopt;
  g.pid = line.substr(pid_b, i - pid_b);
  ++i;
  // path:line]
  size_t close = line.find(']', i);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view loc = line.substr(i, close - i);
  size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || !all_digits(loc.substr(colon + 1)) || colon == 0) return std::nullopt;
  g.stamp = line.substr(1, 20);  // MMDD HH:MM:SS.ffffff (line[5] is the space)
  g.src_file = loc.substr(0, colon);
  g.src_line = loc.substr(colon + 1);
  g.rest = line.substr(close + 1);
  if (!g.rest.empty() && g.rest[0] == ' ') g.rest.remove_prefix(1);
  return g;
}

std::optional<GlogLine> parse_glog_line(std::string_view line) {
  auto v = parse_glog_view(line);
  if (!v) return std::nullopt;
  GlogLine g;
  g.level = v->level;
  g.timestamp = std::string(v->stamp);
  g.pid = std::string(v->pid);
  g.src_file = std::string(v->src_file);
  g.src_line = leading_int(v->src_line);
  g.rest = std::string(v->rest);
  return g;
}

std::optional<std::string_view> glog_rest(std::string_view line) {
  auto v = parse_glog_view(line);
  if (!v) return std::nullopt;
  return v->rest;
}

std::string CompileId::str() const {
  std::string s = std::to_string(frame_id) + "/" + std::to_string(frame_compile_id);
  if (attempt > 0) s += "_" + std::to_string(attempt);
  return s;
}

bool CompileId::operator<(const CompileId& o) const {
  return std::tie(frame_id, frame_compile_id, attempt) < std::tie(o.frame_id, o.frame_compile_id, o.attempt);
}

std::optional<CompileId> parse_compile_id(std::string_view text) {
  if (!text.empty() && text[0] == '!') {  // compiled autograd: !A/F/C
    auto slash = text.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    text.remove_prefix(slash + 1);
  }
  auto slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view f = text.substr(0, slash), rest = text.substr(slash + 1);
  std::string_view c = rest, a;
  auto us = rest.find('_');
  if (us != std::string_view::npos) {
    c = rest.substr(0, us);
    a = rest.substr(us + 1);
  }
  if (!all_digits(f) || !all_digits(c) || (us != std::string_view::npos && !all_digits(a))) return std::nullopt;
  if (f.size() > 8 || c.size() > 8 || a.size() > 8) return std::nullopt;
  CompileId id;
  id.frame_id = leading_int(f);
  id.frame_compile_id = leading_int(c);
  id.attempt = a.empty() ? 0 : leading_int(a);
  return id;
}

namespace {

// The first byte at or after i that is not ASCII (s.size() if none), eight bytes at a time.
size_t skip_ascii(std::string_view s, size_t i) {
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  while (i + 32 <= s.size()) {
    uint64_t x[4];
    std::memcpy(x, s.data() + i, 32);
    if ((x[0] | x[1] | x[2] | x[3]) & kHighs) break;
    i += 32;
  }
  while (i + 8 <= s.size()) {
    uint64_t x;
    std::memcpy(&x, s.data() + i, 8);
    if (x & kHighs) break;
    i += 8;
  }
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

// The position of the first byte that starts no well-formed UTF-8 sequence, or s.size().
size_t first_invalid_utf8(std::string_view s) {
  for (size_t i = 0;;) {
    i = skip_ascii(s, i);
    if (i >= s.size()) return s.size();
    size_t len = utf8_sequence_length(s, i);
    if (len == 0) return i;
    i += len;
  }
}

}  // namespace

bool valid_utf8(std::string_view s) { return first_invalid_utf8(s) == s.size(); }

bool sanitize_utf8(std::string& s) {
  // Valid text (nearly every log line, nearly all of it ASCII) is left where it is: the first
  // invalid sequence is found before anything is copied.
  const size_t n = s.size();
  size_t i = first_invalid_utf8(s);
  if (i == n) return false;
  std::string out;
  out.reserve(n + 2);
  out.append(s, 0, i);
  while (i < n) {
    size_t len = utf8_sequence_length(s, i);
    if (len) {
      out.append(s, i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD for each byte that starts no valid sequence
      ++i;
    }
  }
  s.swap(out);
  return true;
}

void read_lines(std::istream& in, LineSink& sink) {
  // buf[0, len) holds the bytes from the start of the first line not yet handed out, and
  // buf[0, searched) holds no newline. (Not a std::string: its resize would zero each block
  // before the read fills it.)
  constexpr size_t kBlock = size_t(1) << 20;
  size_t cap = kBlock, len = 0, searched = 0;
  auto buf = std::make_unique_for_overwrite<char[]>(cap);
  int n = 0;
  for (;;) {
    if (cap - len < kBlock) {  // a line longer than a block
      sink.pin();
      size_t grown = std::max(cap * 2, len + kBlock);
      auto bigger = std::make_unique_for_overwrite<char[]>(grown);
      std::memcpy(bigger.get(), buf.get(), len);
      buf = std::move(bigger);
      cap = grown;
    }
    in.read(buf.get() + len, static_cast<std::streamsize>(kBlock));
    const size_t got = static_cast<size_t>(in.gcount());
    len += got;
    // A valid text cut at newlines (ASCII) is valid in each piece: one check for all of them,
    // and a check per line only where it fails.
    const void* last_nl = memrchr(buf.get() + searched, '\n', len - searched);
    const bool all_utf8 =
        last_nl && valid_utf8(std::string_view(buf.get(), static_cast<const char*>(last_nl) - buf.get()));
    size_t begin = 0;
    while (const void* nl = std::memchr(buf.get() + searched, '\n', len - searched)) {
      size_t end = static_cast<const char*>(nl) - buf.get();
      sink.line(std::string_view(buf.get() + begin, end - begin), ++n, false, all_utf8);
      begin = searched = end + 1;
    }
    if (got == 0) {
      if (begin < len) sink.line(std::string_view(buf.get() + begin, len - begin), ++n, true, false);
      sink.end();  // while the buffer the last lines view is still here
      return;
    }
    sink.pin();  // before the lines handed out leave the buffer
    std::memmove(buf.get(), buf.get() + begin, len - begin);
    len -= begin;
    searched = len;
  }
}

std::string_view Utf8Lines::repaired(std::string_view raw, int lineno) {
  copy_.assign(raw);
  sanitize_utf8(copy_);
  if (!warned_) {
    warned_ = true;
    diags_.warning("dynamo-log-encoding", "invalid UTF-8 bytes replaced (first at this line)", {path_, lineno, 0});
  }
  return copy_;
}

// ------------------------------------------------------------------ MD5 (RFC 1321)
namespace {
struct Md5 {
  uint32_t a0 = 0x67452301, b0 = 0xefcdab89, c0 = 0x98badcfe, d0 = 0x10325476;
  static uint32_t rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }
  void block(const unsigned char* p) {
    static const uint32_t K[64] = {
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
    static const int S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                              5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                              4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                              6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
    uint32_t M[16];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    std::memcpy(M, p, 64);  // MD5's words are little-endian: on such a host, the bytes as they are
#else
    for (int i = 0; i < 16; ++i)
      M[i] = uint32_t(p[i * 4]) | (uint32_t(p[i * 4 + 1]) << 8) | (uint32_t(p[i * 4 + 2]) << 16) |
             (uint32_t(p[i * 4 + 3]) << 24);
#endif
    uint32_t A = a0, B = b0, C = c0, D = d0;
    // The 64 steps written out, four rounds of sixteen, each with its own function and message
    // order: no per-step branch or index arithmetic (a TORCH_TRACE payload is hashed whole,
    // and the loop with both was most of reading one).
    auto step = [](uint32_t& a, uint32_t b, uint32_t f, uint32_t m, uint32_t k, int r) {
      a = b + rotl(a + f + k + m, r);
    };
    // Steps base..base+15 with round function `fn`; step i reads message word (g0 + g1 * i) % 16.
    // Inlined (four calls, one per round): as a call it cost a fifth more on a trace payload.
    auto round = [&](auto fn, int base, int g0, int g1) __attribute__((always_inline)) {
      // Unrolled, so that the message index, constant and shift of every step are constants:
      // rolled, each step computed them and rotated by a register (15 instructions a byte).
#pragma GCC unroll 4
      for (int i = base; i < base + 16; i += 4) {
        step(A, B, fn(B, C, D), M[(g0 + g1 * (i + 0)) % 16], K[i + 0], S[i + 0]);
        step(D, A, fn(A, B, C), M[(g0 + g1 * (i + 1)) % 16], K[i + 1], S[i + 1]);
        step(C, D, fn(D, A, B), M[(g0 + g1 * (i + 2)) % 16], K[i + 2], S[i + 2]);
        step(B, C, fn(C, D, A), M[(g0 + g1 * (i + 3)) % 16], K[i + 3], S[i + 3]);
      }
    };
    // F and G in the forms with one operation less: (b & c) | (~b & d) and (d & b) | (~d & c).
    round([](uint32_t b, uint32_t c, uint32_t d) { return d ^ (b & (c ^ d)); }, 0, 0, 1);
    round([](uint32_t b, uint32_t c, uint32_t d) { return c ^ (d & (b ^ c)); }, 16, 1, 5);
    round([](uint32_t b, uint32_t c, uint32_t d) { return b ^ c ^ d; }, 32, 5, 3);
    round([](uint32_t b, uint32_t c, uint32_t d) { return c ^ (b | ~d); }, 48, 0, 7);
    a0 += A;
    b0 += B;
    c0 += C;
    d0 += D;
  }
};
}  // namespace

std::string md5_hex(std::string_view data) {
  Md5 m;
  size_t n = data.size();
  size_t full = n / 64;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data.data());
  for (size_t i = 0; i < full; ++i) m.block(p + i * 64);
  unsigned char tail[128] = {0};
  size_t rem = n - full * 64;
  if (rem) std::memcpy(tail, p + full * 64, rem);
  tail[rem] = 0x80;
  size_t tail_len = rem + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = uint64_t(n) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 8 + i] = static_cast<unsigned char>(bits >> (8 * i));
  m.block(tail);
  if (tail_len == 128) m.block(tail + 64);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint32_t v : {m.a0, m.b0, m.c0, m.d0})
    for (int i = 0; i < 4; ++i) {
      unsigned char b = static_cast<unsigned char>(v >> (8 * i));
      out.push_back(hex[b >> 4]);
      out.push_back(hex[b & 15]);
    }
  return out;
}

bool looks_like_float_literal(std::string_view s) {
  if (s.empty()) return false;
  std::string_view b = s;
  if (b[0] == '-' || b[0] == '+') b.remove_prefix(1);
  if (b == "inf" || b == "nan") return true;
  bool digit = false, marker = false;
  for (size_t i = 0; i < b.size(); ++i) {
    char c = b[i];
    if (std::isdigit(static_cast<unsigned char>(c))) digit = true;
    else if (c == '.') marker = true;
    else if (c == 'e' || c == 'E') {
      marker = true;
      if (i + 1 < b.size() && (b[i + 1] == '-' || b[i + 1] == '+')) ++i;
    } else
      return false;
  }
  return digit && marker;
}

bool parse_float_literal(std::string_view s, double& out) {
  std::string t = trim(s);
  if (t.empty()) return false;
  if (t == "inf" || t == "+inf") {
    out = INFINITY;
    return true;
  }
  if (t == "-inf") {
    out = -INFINITY;
    return true;
  }
  if (t == "nan") {
    out = NAN;
    return true;
  }
  char* end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return end && *end == '\0' && end != t.c_str();
}

}  // namespace ilint::dynamo
