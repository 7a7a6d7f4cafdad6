#include "analyzer/util/read_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <system_error>
#include <filesystem>

namespace ilint {

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0 when invalid.
size_t utf8_len(const std::string& s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  if (n == 2 && c < 0xC2) return 0;  // overlong
  return n;
}
// Replaces invalid UTF-8 bytes (and NULs) by '?', with one diagnostic naming the first line.
void check_utf8(const std::string& path, std::string& out, DiagSink& diags) {
  int first_bad_line = 0;
  size_t bad = 0;
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  for (size_t i = 0; i < out.size();) {
    // Eight bytes at a time while they are all ASCII and none is NUL: nearly every byte of
    // Inductor output.
    while (i + 8 <= out.size()) {
      uint64_t x;
      std::memcpy(&x, out.data() + i, 8);
      if ((x | ((x - kOnes) & ~x)) & kHighs) break;
      i += 8;
    }
    if (i >= out.size()) break;
    unsigned char c = static_cast<unsigned char>(out[i]);
    if (c != 0 && c < 0x80) {  // ASCII: nearly every byte of Inductor output
      ++i;
      continue;
    }
    size_t n = c == 0 ? 0 : utf8_len(out, i);
    if (n == 0) {
      if (!first_bad_line) first_bad_line = 1 + static_cast<int>(std::count(out.begin(), out.begin() + i, '\n'));
      ++bad;
      out[i] = '?';
      n = 1;
    }
    i += n;
  }
  if (bad)
    diags.warning("read-not-utf8",
                  std::to_string(bad) + " byte(s) are not valid UTF-8 text (first at this line); replaced by '?'",
                  SourceLoc{path, first_bad_line, 0});
}

}  // namespace

bool read_text_file(const std::string& path, std::string& out, DiagSink& diags, size_t max_bytes) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) {
    diags.error("read-failed", "cannot read file: " + ec.message(), SourceLoc{path, 0, 0});
    return false;
  }
  if (size > max_bytes) {
    diags.error("read-too-large", "file is " + std::to_string(size) + " bytes, over the limit of " +
                                      std::to_string(max_bytes) + "; skipped",
                SourceLoc{path, 0, 0});
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("read-failed", std::string("cannot open file: ") + std::strerror(errno), SourceLoc{path, 0, 0});
    return false;
  }
  // Straight into the string (no stringstream: that costs two extra copies of every file). The
  // size may change under us: read what is there, then whatever follows.
  out.resize(static_cast<size_t>(size));
  in.read(out.data(), static_cast<std::streamsize>(size));
  out.resize(static_cast<size_t>(in.gcount()));
  if (in) {
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      out.append(buf, static_cast<size_t>(in.gcount()));
      if (out.size() > max_bytes) break;
    }
  }
  if (out.empty()) {
    diags.warning("read-empty", "file is empty", SourceLoc{path, 0, 0});
    return true;
  }
  check_utf8(path, out, diags);
  return true;
}

bool read_text_file_head(const std::string& path, std::string_view stop_at, std::string& out, DiagSink& diags,
                         size_t max_bytes) {
  std::error_code ec;
  (void)std::filesystem::file_size(path, ec);  // fails for what is not a regular file (a FIFO would block)
  if (ec) {
    diags.error("read-failed", "cannot read file: " + ec.message(), SourceLoc{path, 0, 0});
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diags.error("read-failed", std::string("cannot open file: ") + std::strerror(errno), SourceLoc{path, 0, 0});
    return false;
  }
  out.clear();
  char buf[64 * 1024];
  size_t found = std::string::npos;
  while (found == std::string::npos && out.size() <= max_bytes && (in.read(buf, sizeof buf) || in.gcount() > 0)) {
    size_t from = out.size() >= stop_at.size() ? out.size() - stop_at.size() + 1 : 0;
    out.append(buf, static_cast<size_t>(in.gcount()));
    if (!stop_at.empty()) found = out.find(stop_at, from);
  }
  if (found != std::string::npos) out.resize(found);
  if (out.size() > max_bytes) {
    diags.error("read-too-large", "file is over the limit of " + std::to_string(max_bytes) + " bytes; skipped",
                SourceLoc{path, 0, 0});
    return false;
  }
  if (out.empty()) {
    diags.warning("read-empty", "file is empty", SourceLoc{path, 0, 0});
    return true;
  }
  check_utf8(path, out, diags);
  return true;
}

}  // namespace ilint
