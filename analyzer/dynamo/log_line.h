// Line-level helpers shared by the Dynamo log readers: the glog prefix that TORCH_LOGS and
// TORCH_TRACE put on every line, the compile id in brackets, UTF-8 repair and MD5 (TORCH_TRACE
// records the md5 of each payload, which tells a truncated or edited payload from a whole one).
#pragma once
#include <deque>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/util/diag.h"

namespace ilint::dynamo {

// `V1202 12:16:15.629000 474 torch/_dynamo/guards.py:4760] rest` (optionally `[rank0]:` first).
struct GlogLine {
  char level = 'V';
  std::string timestamp;   // "1202 12:16:15.629000"
  std::string pid;
  std::string src_file;    // "torch/_dynamo/guards.py"
  int src_line = 0;
  std::string rest;        // everything after "] " (may be empty)
};
std::optional<GlogLine> parse_glog_line(std::string_view line);
// The same pieces as views into the line, for readers that copy only what they keep (a
// TORCH_TRACE envelope line can be 40 KB). `stamp` is GlogLine::timestamp, `src_line` its digits.
struct GlogView {
  char level = 'V';
  std::string_view stamp, pid, src_file, src_line, rest;
};
std::optional<GlogView> parse_glog_view(std::string_view line);
// Only the text after "] ".
std::optional<std::string_view> glog_rest(std::string_view line);

// `[2/1_1]` -> frame 2, compile 1, attempt 1. Also accepts the compiled-autograd form `[!0/1/0]`
// (the autograd id is dropped).
struct CompileId {
  int frame_id = -1;
  int frame_compile_id = -1;
  int attempt = 0;
  std::string str() const;  // "2/1" or "2/1_1"
  bool valid() const { return frame_id >= 0 && frame_compile_id >= 0; }
  bool operator==(const CompileId&) const = default;
  bool operator<(const CompileId& o) const;
};
std::optional<CompileId> parse_compile_id(std::string_view text);  // "2/1_1" (no brackets)

// Replaces invalid UTF-8 sequences with U+FFFD. Returns true when something was replaced.
bool sanitize_utf8(std::string& s);
// True when sanitize_utf8 would leave `s` as it is.
bool valid_utf8(std::string_view s);

// What read_lines() hands each line of a file to.
class LineSink {
 public:
  virtual ~LineSink() = default;
  // One line without its '\n'. `text` views the read buffer: valid until pin() is called.
  // `unterminated`: the file's last line, cut before its newline. `known_utf8`: checked already
  // (valid_utf8 holds); otherwise the sink checks it.
  virtual void line(std::string_view text, int lineno, bool unterminated, bool known_utf8) = 0;
  // The lines handed out so far are about to leave the buffer: a sink that keeps views of some
  // copies them out.
  virtual void pin() = 0;
  // The input ended; the last lines handed out are still valid here (not after: the buffer goes
  // when read_lines returns).
  virtual void end() = 0;
};

// Reads `in` to its end in blocks of 1 MiB, cuts the lines in place (no copy per line, as
// std::getline makes) and calls sink.end(); the complete lines of a block are checked as UTF-8
// at once. A line longer than a block grows the buffer.
void read_lines(std::istream& in, LineSink& sink);

// A log's lines as text, for the three Dynamo log readers: a line itself when it is valid UTF-8,
// else a copy with every invalid sequence replaced (sanitize_utf8), and one "dynamo-log-encoding"
// warning, at the file's first such line.
class Utf8Lines {
 public:
  Utf8Lines(const std::string& path, DiagSink& diags) : path_(path), diags_(diags) {}
  // `raw`, or its repaired copy (valid until the next call). `known_utf8`: read_lines checked it.
  // Inline: it is called for every line, and nearly every line is valid.
  std::string_view text(std::string_view raw, int lineno, bool known_utf8) {
    copied_ = !known_utf8 && !valid_utf8(raw);
    return copied_ ? repaired(raw, lineno) : raw;
  }
  // The last text() was the copy: a view of it is kept with KeptLines::push_copy.
  bool copied() const { return copied_; }

 private:
  std::string_view repaired(std::string_view raw, int lineno);

  const std::string& path_;
  DiagSink& diags_;
  std::string copy_;
  bool copied_ = false, warned_ = false;
};

// The lines a reader keeps from read_lines() (a record's, an event's payload): views of the read
// buffer until pin() copies them out.
class KeptLines {
 public:
  void push(std::string_view line) { views_.push_back(line); }
  // A line that views no read buffer (Utf8Lines' copy): owned at once. The views before it are
  // pinned first, so that the owned ones stay a prefix.
  void push_copy(std::string_view line) {
    pin();
    views_.push_back(owned_.emplace_back(line));
    ++pinned_;
  }
  void pin() {
    for (; pinned_ < views_.size(); ++pinned_) views_[pinned_] = owned_.emplace_back(views_[pinned_]);
  }
  void clear() {
    views_.clear();
    owned_.clear();
    pinned_ = 0;
  }
  const std::vector<std::string_view>& views() const { return views_; }
  bool empty() const { return views_.empty(); }

 private:
  std::vector<std::string_view> views_;
  size_t pinned_ = 0;              // views_[0, pinned_) view owned_
  std::deque<std::string> owned_;  // a deque: the views of its strings stay put as it grows
};

// Lowercase hex MD5 of `data`.
std::string md5_hex(std::string_view data);

std::string trim(std::string_view s);
std::string_view trim_view(std::string_view s);  // the same, without a copy
bool starts_with(std::string_view s, std::string_view p);
bool ends_with(std::string_view s, std::string_view p);
// "1.0", "-0.0052", "1e-08", "inf" -> value. False for anything else.
bool parse_float_literal(std::string_view s, double& out);
// True when the text is a float literal that a Python float prints (has '.', 'e', inf or nan).
bool looks_like_float_literal(std::string_view s);

}  // namespace ilint::dynamo
