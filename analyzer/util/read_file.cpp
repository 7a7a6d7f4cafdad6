#include "analyzer/util/read_file.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/util/text.h"

namespace ilint {

namespace {
// Length of the valid UTF-8 sequence at s[i], or 0 when invalid.
size_t utf8_len(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  if (n == 2 && c < 0xC2) return 0;  // overlong
  return n;
}
// A UTF-8 byte order mark opens the file as an editor may save it: Python reads past it, and so do
// the readers (with it, `# AOT ID:` on line 1 was not found).
void drop_utf8_bom(std::string& out) {
  if (out.size() >= 3 && out.compare(0, 3, "\xEF\xBB\xBF") == 0) out.erase(0, 3);
}

// Replaces invalid UTF-8 bytes (and NULs) by '?' in the pieces of a file given to check(), then
// report() gives one diagnostic of each kind naming the first line. A piece ends at a newline
// or at the file's end, so no UTF-8 sequence is split between two.
class Utf8Check {
 public:
  // `first_line`: the line of the file that holds the piece's first byte.
  void check(char* data, size_t size, int first_line) {
    std::string_view text(data, size);
    constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    for (size_t i = 0; i < size;) {
      // Eight bytes at a time while they are all ASCII and none is NUL: nearly every byte of
      // Inductor output.
      while (i + 8 <= size) {
        uint64_t x;
        std::memcpy(&x, data + i, 8);
        if ((x | ((x - kOnes) & ~x)) & kHighs) break;
        i += 8;
      }
      if (i >= size) break;
      unsigned char c = static_cast<unsigned char>(data[i]);
      if (c != 0 && c < 0x80) {  // ASCII: nearly every byte of Inductor output
        ++i;
        continue;
      }
      if (c == 0) {  // valid UTF-8, but no text holds it (and the scanners stop at it)
        if (!first_nul_line_) first_nul_line_ = first_line - 1 + line_of_offset(text, i);
        ++nuls_;
        data[i] = '?';
        ++i;
        continue;
      }
      size_t n = utf8_len(text, i);
      if (n == 0) {
        if (!first_bad_line_) first_bad_line_ = first_line - 1 + line_of_offset(text, i);
        ++bad_;
        data[i] = '?';
        n = 1;
      }
      i += n;
    }
  }
  void report(const std::string& path, DiagSink& diags) const {
    if (nuls_)
      diags.warning("read-nul", std::to_string(nuls_) + " NUL byte(s), which text does not hold (first at this line); "
                    "replaced by '?'", SourceLoc{path, first_nul_line_, 0});
    if (bad_)
      diags.warning("read-not-utf8",
                    std::to_string(bad_) + " byte(s) are not valid UTF-8 text (first at this line); replaced by '?'",
                    SourceLoc{path, first_bad_line_, 0});
  }

 private:
  int first_bad_line_ = 0, first_nul_line_ = 0;
  size_t bad_ = 0, nuls_ = 0;
};

void check_utf8(const std::string& path, std::string& out, DiagSink& diags) {
  Utf8Check check;
  check.check(out.data(), out.size(), 1);
  check.report(path, diags);
}

// An open file, closed at scope end. Opened with open(2) and checked with fstat(2), not
// std::filesystem::file_size and std::ifstream: those walk the path twice and set up a stream
// buffer and locale per file, which came to ~8% of a Triton corpus run (perf), more than the
// copy of the bytes itself.
class InputFile {
 public:
  // False, with the diagnostic, when `path` cannot be opened or is not a regular file. The
  // messages are those std::filesystem::file_size and std::ifstream gave, but for a file that is
  // neither a regular file nor a folder.
  bool open(const std::string& path, DiagSink& diags) {
    path_ = &path;
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused just below).
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) return fail(diags, errno, errno == EACCES ? "cannot open file: " : "cannot read file: ");
    struct stat st;
    if (::fstat(fd_, &st) != 0) return read_failed(diags);
    if (S_ISDIR(st.st_mode)) return fail(diags, EISDIR, "cannot read file: ");
    if (!S_ISREG(st.st_mode)) {
      // A FIFO, a socket or a device (/dev/zero never ends): strerror(EOPNOTSUPP), which this
      // said before, named no reason a user could act on.
      diags.error("read-failed", "cannot read file: not a regular file (a FIFO, socket or device)", SourceLoc{path, 0, 0});
      return false;
    }
    size_ = static_cast<uint64_t>(st.st_size);
    return true;
  }
  ~InputFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  uint64_t size() const { return size_; }
  // The diagnostic for the last system call's failure (errno); false, for `return`.
  bool read_failed(DiagSink& diags) const { return fail(diags, errno, "cannot read file: "); }
  // Reads up to n bytes into p; the count read, 0 at the end, -1 on an error.
  ssize_t read(char* p, size_t n) {
    for (;;) {
      ssize_t r = ::read(fd_, p, n);
      if (r >= 0 || errno != EINTR) return r;
    }
  }

 private:
  bool fail(DiagSink& diags, int err, const char* what) const {
    diags.error("read-failed", what + std::string(std::strerror(err)), SourceLoc{*path_, 0, 0});
    return false;
  }
  const std::string* path_ = nullptr;
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace

bool read_text_file(const std::string& path, std::string& out, DiagSink& diags, size_t max_bytes) {
  InputFile in;
  if (!in.open(path, diags)) return false;
  const uint64_t size = in.size();
  if (size > max_bytes) {
    diags.error("read-too-large", "file is " + std::to_string(size) + " bytes, over the limit of " +
                                      std::to_string(max_bytes) + "; skipped",
                SourceLoc{path, 0, 0});
    return false;
  }
  // Straight into the string, one byte more than fstat said: a read that stops exactly at the
  // size fstat gave is the end (a regular file reads short only at its end), so no further
  // read(2) returning 0 is needed to see it: one system call in five per file, over tens of
  // thousands of small files (docs/performance.md, 'Few system calls per file'). A file that grew
  // since fstat fills that byte, and whatever follows (up to the limit) comes through a small
  // buffer: growing the string itself would move every file's bytes once more just to see the end.
  out.resize(static_cast<size_t>(size) + 1);
  size_t got = 0;
  while (got < out.size()) {
    ssize_t r = in.read(out.data() + got, out.size() - got);
    if (r < 0) return in.read_failed(diags);
    if (r == 0) break;
    got += static_cast<size_t>(r);
    if (got == size) break;
  }
  // Only a file that grew filled the extra byte; any other way out of the loop is its end.
  const bool grew = got > size;
  out.resize(got);
  if (grew) {
    char buf[4096];
    while (out.size() <= max_bytes) {
      ssize_t r = in.read(buf, sizeof buf);
      if (r < 0) return in.read_failed(diags);
      if (r == 0) break;
      out.append(buf, static_cast<size_t>(r));
    }
  }
  if (out.empty()) {
    diags.warning("read-empty", "file is empty", SourceLoc{path, 0, 0});
    return true;
  }
  drop_utf8_bom(out);
  check_utf8(path, out, diags);
  return true;
}

bool read_text_file_head(const std::string& path, std::string_view stop_at, std::string& out, DiagSink& diags,
                         size_t max_bytes) {
  InputFile in;
  if (!in.open(path, diags)) return false;
  out.clear();
  char buf[64 * 1024];
  size_t found = std::string::npos;
  while (found == std::string::npos && out.size() <= max_bytes) {
    ssize_t r = in.read(buf, sizeof buf);
    if (r < 0) return in.read_failed(diags);
    if (r == 0) break;
    size_t from = out.size() >= stop_at.size() ? out.size() - stop_at.size() + 1 : 0;
    out.append(buf, static_cast<size_t>(r));
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
  drop_utf8_bom(out);
  check_utf8(path, out, diags);
  return true;
}

bool read_text_blocks(const std::string& path, size_t block_bytes, DiagSink& diags,
                      const std::function<bool(std::string_view block, int first_line, bool whole)>& take,
                      size_t max_bytes) {
  InputFile in;
  if (!in.open(path, diags)) return false;
  if (in.size() > max_bytes) {
    diags.error("read-too-large", "file is " + std::to_string(in.size()) + " bytes, over the limit of " +
                                      std::to_string(max_bytes) + "; skipped",
                SourceLoc{path, 0, 0});
    return false;
  }
  Utf8Check check;
  std::string buf;  // the bytes read and not yet given: whole lines, then the start of one
  size_t total = 0;
  int line = 1;
  bool given = false, bom_checked = false;
  block_bytes = std::max<size_t>(block_bytes, 64);
  for (bool end = false; !end;) {
    // What fstat said is left, and one byte more (read_text_file's way to see the end without a
    // read returning 0): a small file is one read into a buffer of its size.
    const size_t want = std::min<uint64_t>(block_bytes, in.size() >= total ? in.size() - total + 1 : block_bytes);
    const size_t kept = buf.size();
    buf.resize(kept + want);
    ssize_t r = in.read(buf.data() + kept, want);
    if (r < 0) return in.read_failed(diags);
    buf.resize(kept + static_cast<size_t>(r));
    total += static_cast<size_t>(r);
    if (total > max_bytes) {  // the file grew since fstat
      diags.error("read-too-large", "file is over the limit of " + std::to_string(max_bytes) + " bytes; skipped",
                  SourceLoc{path, 0, 0});
      return false;
    }
    // A regular file reads short only at its end (read_text_file relies on it too).
    end = static_cast<size_t>(r) < want;
    if (!bom_checked) {
      if (buf.size() < 3 && !end) continue;  // a short first read: the mark may not be whole yet
      drop_utf8_bom(buf);
      bom_checked = true;
    }
    // Whole lines only (a line longer than a block waits for the next), all that is left at the end.
    // The bytes kept from before hold no newline: only the new ones are searched.
    size_t cut = buf.size();
    if (!end) {
      const size_t from = std::min(kept, buf.size());
      const size_t nl = std::string_view(buf).substr(from).rfind('\n');
      cut = nl == std::string_view::npos ? 0 : from + nl + 1;
    }
    if (cut == 0 && !end) continue;
    if (cut == 0) break;
    check.check(buf.data(), cut, line);
    if (!take(std::string_view(buf.data(), cut), line, !given && end)) return false;
    given = true;
    line += static_cast<int>(std::count(buf.data(), buf.data() + cut, '\n'));
    buf.erase(0, cut);
  }
  if (total == 0) {
    diags.warning("read-empty", "file is empty", SourceLoc{path, 0, 0});
    return true;
  }
  check.report(path, diags);
  return true;
}

bool read_named_file(const std::string& path, std::string& out, DiagSink& diags, const std::string& unreadable_code,
                     const std::string& what, size_t max_bytes) {
  DiagSink mine;
  const bool ok = read_text_file(path, out, mine, max_bytes);
  for (const Diagnostic& d : mine.sorted()) {
    if (ok) {
      diags.report(d.level, d.code, d.message, d.loc);
      continue;
    }
    // "cannot read file: No such file or directory" -> "cannot read config file: No such file or directory"
    std::string why = d.message;
    for (std::string_view lead : {"cannot read file: ", "cannot open file: "})
      if (why.compare(0, lead.size(), lead) == 0) why.erase(0, lead.size());
    diags.error(unreadable_code, "cannot read " + what + ": " + why, d.loc);
  }
  return ok;
}

void SourceLineCache::want(const std::string& file, int line) {
  if (line <= 0) return;
  File& f = files_[file];
  // Wanted once the file was read: the next line() reads it again.
  if (f.wanted.insert(line).second && f.read) f.read = false;
}

const std::string* SourceLineCache::line(const std::string& file, int line) {
  if (line <= 0 || file.empty()) return nullptr;
  File& f = files_[file];
  const bool fresh = f.wanted.insert(line).second;
  if (f.readable && (!f.read || fresh)) read(file, f);
  auto it = f.lines.find(line);
  return it == f.lines.end() ? nullptr : &it->second;
}

void SourceLineCache::read(const std::string& path, File& file) const {
  DiagSink ignored;  // a snippet is a courtesy: a file that cannot be read just has none
  file.read = true;
  const int last = file.wanted.empty() ? 0 : *file.wanted.rbegin();
  bool stopped = false;  // read_text_blocks says false for a stop too
  const bool whole = read_text_blocks(
      path, size_t(1) << 20, ignored,
      [&](std::string_view block, int first_line, bool) {
        auto want = file.wanted.lower_bound(first_line);
        int n = first_line;
        for (size_t b = 0; b < block.size() && want != file.wanted.end(); ++n) {
          size_t e = block.find('\n', b);
          if (e == std::string_view::npos) e = block.size();
          if (n == *want) {
            size_t end = e > b && block[e - 1] == '\r' ? e - 1 : e;
            file.lines.try_emplace(n, block.substr(b, end - b));  // a line read before stays as it was
            ++want;
          }
          b = e + 1;
        }
        stopped = n > last;  // the lines after the last one wanted are not read
        return !stopped;
      },
      max_bytes_);
  file.readable = whole || stopped;
}

}  // namespace ilint
